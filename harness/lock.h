/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * harness/lock.h: one rtvirt changing a host at a time.
 *
 * Two flock(2)s, both on file descriptors kept open until the command ends:
 * one on the lock file (default /run/rtvirt.lock; RTVIRT_LOCK_FILE
 * overrides it, for tests; `host apply` on a fixture root uses
 * ROOT/var/lib/rtvirt/rtvirt.lock) and one on the directory that holds it.
 * The kernel drops both when the process dies, SIGKILL included, so a
 * crashed run never blocks the next one.  The directory lock is what makes
 * the lock file safe to lose: with /run/rtvirt.lock removed or replaced
 * while a run holds it, a second rtvirt would lock a new file beside the
 * run; the directory is still locked, so it is refused.  The holder
 * re-checks its lock file by inode (fstat of its fd against stat of the
 * path) before every host change (rv_harness_lock_guard(), a journal
 * guard): a removed or replaced lock file stops it before the change.
 *
 * The file holds three lines, for messages and `rtvirt status` only: the
 * holder's pid, its command line, and since when (ISO 8601, UTC).  The
 * kernel, not the file, says who holds the lock (/proc/locks): a file that
 * names a dead pid is stale (left by a killed rtvirt) and the lock is free;
 * the file is never to be deleted by hand.
 */
#pragma once

#include <stdbool.h>
#include <sys/types.h>
#include <gio/gio.h>

#define RV_HARNESS_LOCK_DEFAULT "/run/rtvirt.lock"

typedef struct RvLock RvLock;

/* What a lock file says and what the kernel says about it. */
typedef struct {
    bool exists;       /* the lock file exists */
    pid_t pid;         /* pid written in the file, 0 when none */
    char *command;     /* (nullable) command line written in the file */
    char *since;       /* (nullable) ISO 8601 UTC time written in the file */
    pid_t holder;      /* pid holding a flock on the file or its directory
                        * (/proc/locks), 0 when free */
    bool stale;        /* the file names a pid that is gone, and no one holds the lock */
} RvLockInfo;

/* Frees the strings of @info (not @info itself). */
void rv_harness_lock_info_clear(RvLockInfo *info);
G_DEFINE_AUTO_CLEANUP_CLEAR_FUNC(RvLockInfo, rv_harness_lock_info_clear)

/**
 * rv_harness_lock_path:
 * @path: (nullable): an explicit lock file
 *
 * Returns: (transfer full): @path, or $RTVIRT_LOCK_FILE, or
 * RV_HARNESS_LOCK_DEFAULT.
 */
char *rv_harness_lock_path(const char *path);

/**
 * rv_harness_lock_acquire:
 * @path: (nullable): lock file; NULL = $RTVIRT_LOCK_FILE or
 *        RV_HARNESS_LOCK_DEFAULT
 * @ret: (out): the held lock, written only on success
 * @error: (optional): RV_ERROR_FAILED -EBUSY "Another rtvirt (pid N, 'CMD',
 *         since T) holds '/run/rtvirt.lock'..." when taken (does not
 *         wait), "... holds the lock directory ..." when the file was
 *         removed or replaced under a holder, or the open error
 *
 * Takes the directory lock, then the file lock; writes pid, command line
 * (/proc/self/cmdline) and time into the file.  A stale file (a dead pid, nobody holding the
 * lock) is logged as stale and taken over.
 *
 * Returns: 0, -EBUSY when another process holds it, or -errno.
 */
int rv_harness_lock_acquire(const char *path, RvLock **ret,
                            GError **error) G_GNUC_WARN_UNUSED_RESULT;

/**
 * rv_harness_lock_acquire_wait:
 * @timeout_s: how long to wait for another run to end, in seconds (0: do
 *             not wait, as rv_harness_lock_acquire())
 * @cancellable: (nullable): stops the wait
 *
 * As rv_harness_lock_acquire(), retrying once a second while another
 * process holds the lock.
 *
 * Returns: 0, -EBUSY when still held after @timeout_s, -ECANCELED, -errno.
 */
int rv_harness_lock_acquire_wait(const char *path, guint timeout_s, GCancellable *cancellable,
                                 RvLock **ret, GError **error) G_GNUC_WARN_UNUSED_RESULT;

/**
 * rv_harness_lock_check:
 * @lock: a held lock
 * @error: (optional): RV_ERROR_FAILED -ESTALE "Lock file '/run/rtvirt.lock'
 *         was removed while this rtvirt held it: stopping before the next
 *         host change ..." (or "... was replaced ...")
 *
 * Compares the inode of the lock's fd with that of the path now.
 *
 * Returns: 0 when the lock file is still the one held, -ESTALE, -errno.
 */
int rv_harness_lock_check(RvLock *lock, GError **error) G_GNUC_WARN_UNUSED_RESULT;

/* A journal guard (host/tune/journal.h RvJournalGuard) that calls
 * rv_harness_lock_check() on @user_data, an RvLock. */
int rv_harness_lock_guard(gpointer user_data, GError **error);

/**
 * rv_harness_lock_info:
 * @path: (nullable): as for rv_harness_lock_acquire()
 * @proc_locks: (nullable): text of /proc/locks (NULL: read it)
 * @ret: (out): what the file says and who holds the lock
 *
 * Reads, never takes, the lock (a status query must not make a run that
 * starts at that moment find the lock busy).
 *
 * Returns: 0 or -errno (a missing lock file is not an error: exists false).
 */
int rv_harness_lock_info(const char *path, const char *proc_locks, RvLockInfo *ret,
                         GError **error) G_GNUC_WARN_UNUSED_RESULT;

/* Releases the lock (the file stays, emptied; an empty file is no holder). */
void rv_harness_lock_release(RvLock *lock);
G_DEFINE_AUTOPTR_CLEANUP_FUNC(RvLock, rv_harness_lock_release)
