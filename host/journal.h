/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * host/journal.h: the on-disk journal of every change rtvirt makes to a host.
 *
 * Before a value changes, its old value is appended to the journal file and
 * the file is fsync()ed; only then is the new value written (rtla keeps
 * orig_* beside each value it sets; here the orig_* lives on disk, so it
 * survives a SIGKILL).  rv_host_journal_revert() restores the entries newest
 * first.  The journal keeps the FIRST original per object: a second
 * `host apply`, or a `run` scenario over a tuned host, never records a tuned
 * value as the original.  After a complete revert the journal file is
 * removed, so a second revert finds nothing to do (idempotent).
 *
 * One process journals at a time: rv_host_journal_open() takes an exclusive
 * flock(2) on the journal file and fails with -EBUSY while another rtvirt
 * holds it.
 *
 * Location: RV_HOST_JOURNAL_DEFAULT_PATH inside the root (so a fixture root
 * carries its own journal), or an explicit path.
 *
 * File format (one JSON object per line, json-glib, fsync()ed per line):
 *   {"rtvirt-journal":1,"root":"/"}                           header
 *   {"kind":"value","path":P,"old":S}                          sysfs/procfs
 *   {"kind":"file","path":P,"old-b64":B,"mode":M}              file existed
 *   {"kind":"file","path":P,"absent":true}                     file did not
 *   {"kind":"dir","path":P}                                    dir created
 *   {"kind":"sched","pid":N,"starttime":T,"policy":N,"prio":N,"affinity":L}
 *   {"kind":"custom","type":S,"key":S,"data":S}                see below
 * A torn last line (crash in the middle of a write) is dropped: the change
 * it announced was never made.
 *
 * Test hook: with the environment variable RV_TEST_KILL_AFTER=N, the
 * process raise(SIGKILL)s itself right after its N-th change (counted over
 * all journals of the process), so tests can crash `host apply` or `run`
 * after each single change and check that `host revert` restores all.
 */
#pragma once

#include <stdbool.h>
#include <sys/types.h>
#include <glib.h>

#include "util/cpulist.h"
#include "host/fsroot.h"

/* Default journal, a host path resolved inside the root. */
#define RV_HOST_JOURNAL_DEFAULT_PATH "/var/lib/rtvirt/journal"
/* Journal of `host bootargs --install` (kept apart: `host revert` undoes
 * runtime knobs, `host bootargs --remove` undoes the boot configuration). */
#define RV_HOST_JOURNAL_BOOTARGS_PATH "/var/lib/rtvirt/bootargs.journal"

typedef struct RvJournal RvJournal;

/**
 * rv_host_journal_open:
 * @root: the host whose changes are journaled (kept referenced by pointer:
 *        it must outlive the journal)
 * @path: (nullable): journal file as a real path; NULL means
 *        RV_HOST_JOURNAL_DEFAULT_PATH inside @root (e.g.
 *        "<fixture>/var/lib/rtvirt/journal").  Parent directories are created.
 * @ret: (out): the journal, written only on success
 * @error: (optional): RV_ERROR_FAILED with -EBUSY "Journal '<path>' is in use
 *         by another rtvirt process", RV_ERROR_INVALID for a corrupt journal
 *         (file and line named) or one written for another root
 *
 * Opens (creating when missing) and locks the journal and loads the entries
 * a previous process left in it.  Opening never changes the host.
 *
 * Returns: 0 or -errno.
 */
int rv_host_journal_open(RvRoot *root, const char *path, RvJournal **ret,
                         GError **error) G_GNUC_WARN_UNUSED_RESULT;

/* Releases the lock and frees; the file stays (with what is still to be
 * reverted).  Accepts NULL. */
void rv_host_journal_close(RvJournal *journal);
G_DEFINE_AUTOPTR_CLEANUP_FUNC(RvJournal, rv_host_journal_close)

/* The journal file's real path. */
const char *rv_host_journal_path(const RvJournal *journal);
/* Entries still to be reverted (from this and earlier processes). */
guint rv_host_journal_n_entries(const RvJournal *journal);
/* True when the original of the host path @path is recorded. */
bool rv_host_journal_has_path(const RvJournal *journal, const char *path);

/**
 * rv_host_journal_set_value:
 * @path: host path of a sysfs/procfs attribute, e.g.
 *        "/sys/devices/system/cpu/smt/control" (resolved inside the root)
 * @value: the value to write, without newline, in one write(2)
 * @error: (optional): RV_ERROR_FAILED naming the file and errno (the write
 *         may fail with EIO for a managed IRQ: -EIO then, and the host is
 *         unchanged)
 *
 * Reads the current value; when it already is @value, does nothing.
 * Otherwise records the old value (first original per path only), fsync()s
 * the journal, then writes @value.  A "choice" attribute that reads as
 * "always [madvise] never" (THP, block scheduler) is restored to the
 * bracketed word.  On a fixture root (regular files) such an attribute is
 * written the way the kernel would show it afterwards ("always madvise
 * [never]"), and restored byte for byte.
 *
 * Returns: 1 when the value was changed, 0 when it already was @value, or
 * -errno.
 */
int rv_host_journal_set_value(RvJournal *journal, const char *path,
                              const char *value, GError **error) G_GNUC_WARN_UNUSED_RESULT;

/**
 * rv_host_journal_set_file:
 * @path: host path of a regular file, e.g. "/etc/libvirt/qemu.conf" or
 *        "/etc/default/grub.d/rtvirt.cfg"
 * @contents: (nullable): new contents; NULL removes the file
 * @len: length of @contents in bytes (-1: NUL-terminated)
 * @mode: permission bits for a file that does not exist yet (an existing
 *        file keeps its mode)
 *
 * Records the file's old contents and mode, or its absence, then replaces
 * the file atomically (temporary file, fsync, rename) or removes it.
 * Restoring writes the old bytes back exactly, or removes a file that did
 * not exist.
 *
 * Returns: 1 when the file changed, 0 when it already had @contents, -errno.
 */
int rv_host_journal_set_file(RvJournal *journal, const char *path,
                             const char *contents, gssize len, mode_t mode,
                             GError **error) G_GNUC_WARN_UNUSED_RESULT;

/**
 * rv_host_journal_mkdir:
 * @path: host path of a directory to create (e.g. a cgroup v2 cpuset
 *        partition "/sys/fs/cgroup/rtvirt.slice")
 *
 * Records the directory, then creates it; revert removes it with rmdir(2)
 * (after the entries recorded later, such as its attributes, are restored).
 *
 * Returns: 1 when created, 0 when it already existed (not recorded), -errno.
 */
int rv_host_journal_mkdir(RvJournal *journal, const char *path, mode_t mode,
                          GError **error) G_GNUC_WARN_UNUSED_RESULT;

/**
 * rv_host_journal_set_sched:
 * @pid: a thread id (a kernel thread such as rcuc/3 or ksoftirqd/3)
 * @policy: SCHED_OTHER, SCHED_FIFO, SCHED_RR (sched(7)); -1 keeps the policy
 * @prio: sched_priority for @policy (1..99 for FIFO/RR, 0 otherwise)
 * @affinity: (nullable): new CPU affinity; NULL keeps it
 *
 * Live host only.  Records the thread's policy, priority, affinity and its
 * start time (field 22 of /proc/PID/stat, proc(5)), then changes them.
 * Revert restores them only when a thread with that pid and start time
 * still exists (a recycled pid is left alone).  Per-CPU kthreads refuse
 * affinity changes with EINVAL: that is reported as -EINVAL.
 *
 * Returns: 1 when changed, 0 when already so, -EOPNOTSUPP on a fixture
 * root (RV_ERROR_UNSUPPORTED), -ESRCH when the thread is gone, -errno.
 */
int rv_host_journal_set_sched(RvJournal *journal, pid_t pid, int policy, int prio,
                              const RvCpuSet *affinity,
                              GError **error) G_GNUC_WARN_UNUSED_RESULT;

/**
 * RvJournalCustomRestore:
 * @root: the journal's root
 * @key: the key recorded (e.g. a libvirt domain name)
 * @data: the data recorded
 *
 * Undoes one custom entry.  Returns 0 when undone or nothing was left to
 * undo, -errno (with @error) when it failed; the entry then stays.
 */
typedef int (*RvJournalCustomRestore)(RvRoot *root, const char *key, const char *data,
                                      gpointer user_data, GError **error);

/**
 * rv_host_journal_record_custom:
 * @type: entry type, a short word owned by the caller ("domain", "service")
 * @key: what the entry is about; one entry per (@type, @key) is kept
 * @data: (nullable): what the restore handler needs
 *
 * Records an action that revert must undo by calling the handler set with
 * rv_host_journal_set_custom_handler() for @type (e.g. `run` records each
 * domain it starts so that `host revert` after a SIGKILL destroys it, and
 * `host apply` records that libvirtd must be restarted after qemu.conf is
 * restored).  Record before doing the action.
 *
 * Returns: 1 when recorded, 0 when (@type, @key) was already recorded, -errno.
 */
int rv_host_journal_record_custom(RvJournal *journal, const char *type, const char *key,
                                  const char *data, GError **error) G_GNUC_WARN_UNUSED_RESULT;

/* Sets the handler that undoes custom entries of @type at revert.  Entries
 * of a type without handler fail to revert (and stay in the journal). */
void rv_host_journal_set_custom_handler(RvJournal *journal, const char *type,
                                        RvJournalCustomRestore fn, gpointer user_data);

/**
 * rv_host_journal_revert:
 * @ret_restored: (out) (optional): number of entries restored (or found to
 *                need nothing: a file already gone, a thread gone)
 * @ret_notes: (out) (optional) (transfer full): one line per entry that
 *             needed no action, e.g. "pid 123 (rcuc/1) is gone:
 *             scheduling not restored"
 * @error: (optional): the failure; when several entries failed, one message
 *         naming how many and each failure, separated by "; "
 *
 * Restores every entry newest first.  Entries that fail are kept (the
 * journal is rewritten atomically with only them) and the others are
 * dropped; after a complete revert the journal file is removed.  Reverting
 * an empty journal does nothing and succeeds.
 *
 * Returns: 0, or -errno of the first failure.
 */
int rv_host_journal_revert(RvJournal *journal, guint *ret_restored, GPtrArray **ret_notes,
                           GError **error) G_GNUC_WARN_UNUSED_RESULT;

/**
 * rv_host_journal_normalize_value:
 * @raw: an attribute as read from sysfs/procfs
 *
 * Returns: (transfer full): the value to write back to get @raw again:
 * whitespace stripped, and for a choice attribute that reads as
 * "always [madvise] never" (Documentation/admin-guide/mm/transhuge.rst,
 * block/elevator.c elv_iosched_show()) the bracketed word.
 */
char *rv_host_journal_normalize_value(const char *raw);
