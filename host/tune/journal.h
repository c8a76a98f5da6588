/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * host/tune/journal.h: the on-disk journal of every change rtvirt makes to a host.
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
 * File format, version 2 (one JSON object per line, json-glib, each line
 * fsync()ed; the file is created whole with its header, atomically):
 *   {"seq":0,"rtvirt-journal":2,"root":"/","live":true,"sum":X}      header
 *   {"seq":1,"kind":"value","path":P,"old":S,"sum":X}             sysfs/procfs
 *   {"seq":N,"kind":"file","path":P,"old-b64":B,"mode":M,...}     file existed
 *   {"seq":N,"kind":"file","path":P,"absent":true,...}            file did not
 *   {"seq":N,"kind":"dir","path":P,...}                           dir created
 *   {"seq":N,"kind":"sched","pid":N,"starttime":T,"policy":N,"prio":N,
 *    "affinity":L,...}
 *   {"seq":N,"kind":"custom","type":S,"key":S,"data":S,...}       see below
 *   {"seq":N,"kind":"commit","entries":K,"sum":X}  a transaction completed
 * "seq" counts the lines from 0 (the header), one up per line: a gap is a
 * lost line.  "sum" is the last member of every line: the first 16 hex
 * digits of the SHA-256 of the line's bytes without `,"sum":X` (so the
 * check reads the bytes written, whatever json-glib version reads them).
 * A commit marker follows the last entry of a command that completed
 * (`host apply`, a rewritten journal); entries after the last marker come
 * from a command that was interrupted (a note at revert, not damage).
 *
 * Version 1 (written by rtvirt before entries were checksummed, still on
 * users' disks) is the same without "seq", "sum" and commit markers; it is
 * read and reverted (a note says it is the old format), and rewritten as
 * version 2 before anything is appended to it.
 *
 * Damage: a line that is not JSON, whose sum does not match, whose seq is
 * out of order or follows a gap, that is cut mid-line (text after the last
 * newline: an interrupted write, or a file cut there, with whatever
 * followed lost), an empty file.  rv_host_journal_open() refuses a damaged
 * journal (nothing is appended to it); RV_JOURNAL_OPEN_DAMAGED opens it for
 * revert, which restores every entry that verifies and reports each line
 * that did not (rv_host_journal_revert(): -EBADMSG, RV_ERROR_CHECK, exit
 * 1).  The damaged file itself is left byte for byte, unless
 * RV_JOURNAL_OPEN_FORCE: then revert goes past the bad lines, keeps the
 * damaged bytes as PATH.damaged and ends the journal (or keeps only the
 * entries that failed to restore).  A file whose first line is no journal
 * header is not a journal: it is refused before anything is created beside
 * it or written to it, with or without FORCE.
 *
 * Test hook: with the environment variable RV_TEST_KILL_AFTER=N, the
 * process raise(SIGKILL)s itself right after its N-th change (counted over
 * all journals of the process), so tests can crash `host apply` or `run`
 * after each single change and check that `host revert` restores all.
 * RV_TEST_STOP_AFTER=N raise(SIGSTOP)s instead, so a test can act while
 * the process holds its locks mid-change (tests/t-lock.sh).
 * RV_TEST_KILL_AT=POINT:N raise(SIGKILL)s the N-th time a named point is
 * reached: "temp-created" (a temporary file FILE.rtvirt-XXXXXX was just
 * made beside a file being replaced) and "temp-written" (written and
 * fsync()ed, before the rename), so tests can crash where temporary files
 * exist.  Revert removes such leftovers beside every file it restores or
 * removes, and beside the journal file when it removes that.
 *
 * A file entry also records the file's mtime ("mtime-s", "mtime-ns";
 * journals written before lack them): revert restores content, mode,
 * owner and mtime.
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

typedef enum {
    RV_JOURNAL_OPEN_DEFAULT = 0,
    /* open a damaged journal for revert: what verifies is loaded */
    RV_JOURNAL_OPEN_DAMAGED = 1 << 0,
    /* with DAMAGED: revert goes past the lines that did not verify */
    RV_JOURNAL_OPEN_FORCE = 1 << 1,
} RvJournalOpenFlags;

/**
 * rv_host_journal_open:
 * @root: the host whose changes are journaled (kept referenced by pointer:
 *        it must outlive the journal)
 * @path: (nullable): journal file as a real path; NULL means
 *        RV_HOST_JOURNAL_DEFAULT_PATH inside @root (e.g.
 *        "<fixture>/var/lib/rtvirt/journal").  Parent directories are created.
 * @ret: (out): the journal, written only on success
 * @error: (optional): RV_ERROR_FAILED with -EBUSY "Journal '<path>' is in use
 *         by another rtvirt process", RV_ERROR_INVALID -EINVAL for a damaged
 *         journal ("FILE:LINE: what", the first damaged line, and how many),
 *         for a file that is no journal ("'FILE' is not an rtvirt journal
 *         ...: left untouched") or one written for another root
 *
 * Opens and locks the journal and loads the entries a previous process
 * left in it.  Opening never changes the host and never writes to the
 * journal file: it is created (whole, with its header) at the first entry.
 * Before the lock file "<path>.lock" is created beside it, an existing
 * @path is checked to be a journal.
 *
 * Returns: 0 or -errno.
 */
int rv_host_journal_open(RvRoot *root, const char *path, RvJournal **ret,
                         GError **error) G_GNUC_WARN_UNUSED_RESULT;

/**
 * rv_host_journal_open_flags:
 * @flags: RV_JOURNAL_OPEN_DAMAGED to open a damaged journal for
 *         rv_host_journal_revert() (its damage listed by
 *         rv_host_journal_damage()), RV_JOURNAL_OPEN_FORCE to let that
 *         revert go past the damage
 *
 * As rv_host_journal_open().  Nothing can be recorded in a damaged journal
 * (-EBADMSG).  A file that is no journal is refused with any @flags.
 *
 * Returns: 0 or -errno.
 */
int rv_host_journal_open_flags(RvRoot *root, const char *path, RvJournalOpenFlags flags,
                               RvJournal **ret, GError **error) G_GNUC_WARN_UNUSED_RESULT;

/* What rv_host_journal_peek() read. */
typedef struct {
    bool exists;        /* the file exists */
    int version;        /* as rv_host_journal_format_version() */
    guint n_entries;    /* entries that verify (still to be reverted) */
    guint n_damaged;    /* lines that do not verify */
    bool interrupted;   /* as rv_host_journal_interrupted() */
} RvJournalSummary;

/**
 * rv_host_journal_peek:
 * @path: (nullable): as for rv_host_journal_open()
 * @ret: (out): what the journal holds; a missing file is exists false
 *
 * Reads a journal without locking it or creating anything (`rtvirt
 * status`, while a run may hold the journal).  A run appending at that
 * moment may show as a line cut mid-line.
 *
 * Returns: 0, or -EINVAL when @path is no journal, -errno.
 */
int rv_host_journal_peek(RvRoot *root, const char *path, RvJournalSummary *ret,
                         GError **error) G_GNUC_WARN_UNUSED_RESULT;

/* Format version of the journal file as read: 2 current, 1 old (released
 * format, no checksums), 0 when there was no file (or an empty one). */
int rv_host_journal_format_version(const RvJournal *journal);

/* True when the journal file (version 2) ends in entries after its last
 * commit marker: the command that recorded them was interrupted. */
bool rv_host_journal_interrupted(const RvJournal *journal);

/* Lines of the journal file that did not verify, "line N: what" each
 * (transfer full); empty for an intact journal. */
GPtrArray *rv_host_journal_damage(const RvJournal *journal);

/**
 * rv_host_journal_commit:
 *
 * Appends a commit marker: the changes recorded so far by this process
 * form a completed transaction (e.g. `host apply` ran to its end).  Does
 * nothing when this process recorded nothing since the last marker.
 *
 * Returns: 1 when written, 0 when there was nothing to commit, -errno.
 */
int rv_host_journal_commit(RvJournal *journal, GError **error) G_GNUC_WARN_UNUSED_RESULT;

/**
 * rv_host_journal_sweep_temps:
 * @path: a real path (a journal file, or a file a journal restores)
 *
 * Removes the regular files PATH.rtvirt-XXXXXX beside @path: what a
 * write killed between creating its temporary file and renaming it left.
 * Only that exact name (six mkstemp(3) characters) is touched.
 *
 * Returns: how many were removed.
 */
guint rv_host_journal_sweep_temps(const char *path);

/* Releases the lock and frees; the file stays (with what is still to be
 * reverted).  Accepts NULL. */
void rv_host_journal_close(RvJournal *journal);
G_DEFINE_AUTOPTR_CLEANUP_FUNC(RvJournal, rv_host_journal_close)

/**
 * RvJournalGuard:
 * @user_data: as given to rv_host_journal_set_guard()
 * @error: (optional): why no change may be made now
 *
 * Called before every change to the host (each set_value, set_file,
 * mkdir, set_sched, record_custom that would change something), before it
 * is recorded: a failure stops the change, nothing is written (`rtvirt`
 * re-checks its host lock file here, harness/lock.h).
 *
 * Returns: 0 to go on, -errno to refuse.
 */
typedef int (*RvJournalGuard)(gpointer user_data, GError **error);

/* Sets (or with NULL clears) the guard.  Revert is never guarded. */
void rv_host_journal_set_guard(RvJournal *journal, RvJournalGuard fn, gpointer user_data);

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
 * rv_host_journal_set_symlink:
 * @path: host path of a symbolic link to create, e.g. systemd's enable link
 *        "/etc/systemd/system/multi-user.target.wants/rtvirt-host-apply.service"
 * @target: what it points to, written as given (an absolute @target is a
 *          host path: on a fixture root it resolves inside the root, as
 *          the host would read it)
 * @error: (optional): RV_ERROR_FAILED -EEXIST when @path exists and is not
 *         a link to @target (nothing is changed: rtvirt does not replace
 *         what it did not make), or naming the file and errno
 *
 * Records @path's absence (a "file" entry with "absent": revert unlinks
 * it, which removes a link as it removes a file; missing parent
 * directories are journaled mkdirs), then creates the link.
 *
 * Returns: 1 when created, 0 when it already was a link to @target, -errno.
 */
int rv_host_journal_set_symlink(RvJournal *journal, const char *path, const char *target,
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
 * Restores every thread's scheduling first (newest first), then every
 * other entry newest first: a switch that starts kernel threads (THP,
 * KSM) must find kthreadd's affinity restored, or the new threads inherit
 * the pinned one.  Restoring kthreadd's affinity also moves the kernel
 * threads it forked meanwhile (unjournaled, with exactly its pinned
 * affinity: khugepaged after a partial revert) back with it, in a note.
 * A restored affinity is read back; a difference fails that entry.
 * Entries that fail are kept (the
 * journal is rewritten atomically with only them) and the others are
 * dropped; after a complete revert the journal file is removed.  Reverting
 * when there is no journal file does nothing and succeeds.
 *
 * A damaged journal (opened with RV_JOURNAL_OPEN_DAMAGED): every entry
 * that verifies is restored, then RV_ERROR_CHECK -EBADMSG names each line
 * that did not and how many entries were restored (@ret_restored and
 * @ret_notes are written then too).  Without RV_JOURNAL_OPEN_FORCE the
 * file is left unchanged; with it the damaged bytes are kept as
 * "<path>.damaged" and the journal is ended as after a complete revert.
 * An empty journal file is damage (its entries, if it had any, are lost).
 *
 * Returns: 0, -EBADMSG for a damaged journal, or -errno of the first
 * failure.
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
