/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * harness/lock.h: one `rtvirt run` per host at a time.
 *
 * An flock(2) on a lock file (default /run/rtvirt.lock; RTVIRT_LOCK_FILE
 * overrides it, for tests).  The kernel drops the lock when the process
 * dies, SIGKILL included, so a crashed run never blocks the next one.  The
 * file holds the owner's pid as text, for the error message only.
 */
#pragma once

#include <gio/gio.h>

#define RV_HARNESS_LOCK_DEFAULT "/run/rtvirt.lock"

typedef struct RvLock RvLock;

/**
 * rv_harness_lock_acquire:
 * @path: (nullable): lock file; NULL = $RTVIRT_LOCK_FILE or
 *        RV_HARNESS_LOCK_DEFAULT
 * @ret: (out): the held lock, written only on success
 * @error: (optional): RV_ERROR_FAILED "Another rtvirt run (pid N) holds
 *         '/run/rtvirt.lock'" when taken (does not wait), or the open error
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

/* Releases the lock (the file stays; an empty file is not a lock). */
void rv_harness_lock_release(RvLock *lock);
G_DEFINE_AUTOPTR_CLEANUP_FUNC(RvLock, rv_harness_lock_release)
