/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * harness/lock.c: flock(2)-based host lock, see harness/lock.h.
 */
#include <errno.h>
#include <fcntl.h>
#include <string.h>
#include <sys/file.h>
#include <unistd.h>

#include "harness/lock.h"
#include "util/error.h"

struct RvLock {
    int fd;
    char *path;
};

int
rv_harness_lock_acquire(const char *path, RvLock **ret, GError **error)
{
    g_autofree char *pid = NULL;
    RvLock *lock;
    int fd;

    if (!path)
        path = g_getenv("RTVIRT_LOCK_FILE");
    if (!path || !*path)
        path = RV_HARNESS_LOCK_DEFAULT;

    fd = open(path, O_RDWR | O_CREAT | O_CLOEXEC | O_NOFOLLOW, 0644);
    if (fd < 0) {
        int e = errno;

        return rv_error_set(error, RV_ERROR_FAILED, e, "Failed to open lock file '%s': %s",
                            path, g_strerror(e));
    }
    if (flock(fd, LOCK_EX | LOCK_NB) < 0) {
        int e = errno;
        char buf[32] = "";
        ssize_t n = pread(fd, buf, sizeof(buf) - 1, 0);

        close(fd);
        if (e == EWOULDBLOCK) {
            g_strstrip(buf);
            return rv_error_set(error, RV_ERROR_FAILED, EBUSY,
                                "Another rtvirt run (pid %s) holds '%s': one run per host at a time",
                                n > 0 && *buf ? buf : "unknown", path);
        }
        return rv_error_set(error, RV_ERROR_FAILED, e, "Failed to lock '%s': %s", path,
                            g_strerror(e));
    }
    pid = g_strdup_printf("%d\n", (int) getpid());
    if (ftruncate(fd, 0) < 0 || pwrite(fd, pid, strlen(pid), 0) < 0) {
        /* the pid is for messages only; the flock is what counts */
    }
    lock = g_new0(RvLock, 1);
    lock->fd = fd;
    lock->path = g_strdup(path);
    *ret = lock;
    return 0;
}

void
rv_harness_lock_release(RvLock *lock)
{
    if (!lock)
        return;
    if (ftruncate(lock->fd, 0) < 0) {
        /* ignore: the file is only informative */
    }
    close(lock->fd);   /* drops the flock */
    g_free(lock->path);
    g_free(lock);
}

int
rv_harness_lock_acquire_wait(const char *path, guint timeout_s, GCancellable *cancellable,
                             RvLock **ret, GError **error)
{
    gint64 end = g_get_monotonic_time() + (gint64) timeout_s * G_USEC_PER_SEC;

    for (;;) {
        g_autoptr(GError) local = NULL;
        int r = rv_harness_lock_acquire(path, ret, &local);

        if (r != -EBUSY || g_get_monotonic_time() >= end) {
            if (r < 0)
                g_propagate_error(error, g_steal_pointer(&local));
            return r;
        }
        if (g_cancellable_is_cancelled(cancellable))
            return rv_error_set(error, RV_ERROR_FAILED, ECANCELED,
                                "Cancelled while waiting for the host lock: %s", local->message);
        g_usleep(G_USEC_PER_SEC);
    }
}
