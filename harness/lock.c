/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * harness/lock.c: flock(2)-based host lock, see harness/lock.h.
 */
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <string.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <unistd.h>

#include "harness/lock.h"
#include "harness/log.h"
#include "util/error.h"

struct RvLock {
    int fd;
    int dir_fd;
    char *path;
    dev_t dev;
    ino_t ino;
};

char *
rv_harness_lock_path(const char *path)
{
    if (!path)
        path = g_getenv("RTVIRT_LOCK_FILE");
    if (!path || !*path)
        path = RV_HARNESS_LOCK_DEFAULT;
    return g_strdup(path);
}

void
rv_harness_lock_info_clear(RvLockInfo *info)
{
    g_clear_pointer(&info->command, g_free);
    g_clear_pointer(&info->since, g_free);
}

/* The pid holding a FLOCK on (@dev, @ino) according to /proc/locks
 * (Documentation/filesystems/proc.rst: "1: FLOCK ADVISORY WRITE PID
 * MAJ:MIN:INODE START END", major and minor in hex), 0 when none. */
static pid_t
flock_holder(const char *proc_locks, dev_t dev, ino_t ino)
{
    g_auto(GStrv) lines = g_strsplit(proc_locks ? proc_locks : "", "\n", -1);

    for (char **l = lines; *l; l++) {
        unsigned maj, min;
        unsigned long long i;
        long pid;
        char kind[16];

        if (sscanf(*l, "%*d: %15s %*s %*s %ld %x:%x:%llu", kind, &pid, &maj, &min, &i) != 5)
            continue;
        if (strcmp(kind, "FLOCK") == 0 && maj == major(dev) && min == minor(dev) &&
            i == (unsigned long long) ino)
            return (pid_t) pid;
    }
    return 0;
}

static bool
pid_alive(pid_t pid)
{
    return pid > 0 && (kill(pid, 0) == 0 || errno == EPERM);
}

int
rv_harness_lock_info(const char *path, const char *proc_locks, RvLockInfo *ret, GError **error)
{
    g_autofree char *lpath = rv_harness_lock_path(path);
    g_autofree char *dir = g_path_get_dirname(lpath);
    g_autofree char *locks = NULL;
    g_autofree char *text = NULL;
    g_auto(GStrv) lines = NULL;
    struct stat st, dst;
    RvLockInfo info = { 0 };

    if (!proc_locks) {
        if (!g_file_get_contents("/proc/locks", &locks, NULL, NULL))
            locks = g_strdup("");
        proc_locks = locks;
    }
    if (stat(dir, &dst) == 0)
        info.holder = flock_holder(proc_locks, dst.st_dev, dst.st_ino);
    if (stat(lpath, &st) < 0) {
        if (errno != ENOENT)
            return rv_error_set(error, RV_ERROR_FAILED, errno, "Failed to read lock file '%s': %s",
                                lpath, g_strerror(errno));
        *ret = info;
        return 0;
    }
    info.exists = true;
    if (!info.holder)
        info.holder = flock_holder(proc_locks, st.st_dev, st.st_ino);
    if (g_file_get_contents(lpath, &text, NULL, NULL)) {
        lines = g_strsplit(text, "\n", 4);
        if (lines[0] && *lines[0])
            info.pid = (pid_t) g_ascii_strtoll(lines[0], NULL, 10);
        if (lines[0] && lines[1] && *lines[1])
            info.command = g_strdup(lines[1]);
        if (lines[0] && lines[1] && lines[2] && *lines[2])
            info.since = g_strdup(lines[2]);
    }
    info.stale = info.pid > 0 && !info.holder && !pid_alive(info.pid);
    *ret = info;
    return 0;
}

/* "(pid 123)", and " since T ('CMD')" when the file names the holder */
static char *
describe(const RvLockInfo *info)
{
    pid_t pid = info->holder ? info->holder : info->pid;

    if (pid == info->pid && info->since && info->command)
        return g_strdup_printf("(pid %d) since %s ('%s')", (int) pid, info->since,
                               info->command);
    return g_strdup_printf("(pid %d)", (int) pid);
}

static char *
self_command(void)
{
    g_autofree char *raw = NULL;
    gsize len = 0;

    if (!g_file_get_contents("/proc/self/cmdline", &raw, &len, NULL) || len == 0)
        return g_strdup(g_get_prgname() ? g_get_prgname() : "rtvirt");
    for (gsize i = 0; i + 1 < len; i++)
        if (raw[i] == '\0' || raw[i] == '\n')
            raw[i] = ' ';
    return g_strdup(raw);
}

static int
busy_error(const char *lpath, const char *what, GError **error)
{
    g_auto(RvLockInfo) info = { 0 };
    g_autofree char *who = NULL;

    if (rv_harness_lock_info(lpath, NULL, &info, NULL) < 0 || (!info.holder && !info.pid))
        return rv_error_set(error, RV_ERROR_FAILED, EBUSY,
                            "Another rtvirt run holds %s'%s': one run per host at a time",
                            what, lpath);
    who = describe(&info);
    return rv_error_set(error, RV_ERROR_FAILED, EBUSY,
                        "Another rtvirt run %s holds %s'%s': one run per host at a time",
                        who, what, lpath);
}

int
rv_harness_lock_acquire(const char *path, RvLock **ret, GError **error)
{
    g_autofree char *lpath = rv_harness_lock_path(path);
    g_autofree char *dir = g_path_get_dirname(lpath);
    g_autofree char *cmd = NULL;
    g_autofree char *content = NULL;
    g_autoptr(GDateTime) now = g_date_time_new_now_utc();
    g_autofree char *since = g_date_time_format(now, "%Y-%m-%dT%H:%M:%SZ");
    g_auto(RvLockInfo) prev = { 0 };
    struct stat st, pst;
    RvLock *lock;
    int fd, dir_fd;

    fd = open(lpath, O_RDWR | O_CREAT | O_CLOEXEC | O_NOFOLLOW, 0644);
    if (fd < 0) {
        int e = errno;
        return rv_error_set(error, RV_ERROR_FAILED, e, "Failed to open lock file '%s': %s",
                            lpath, g_strerror(e));
    }
    if (flock(fd, LOCK_EX | LOCK_NB) < 0) {
        int e = errno;

        close(fd);
        if (e == EWOULDBLOCK)
            return busy_error(lpath, "", error);
        return rv_error_set(error, RV_ERROR_FAILED, e, "Failed to lock '%s': %s", lpath,
                            g_strerror(e));
    }
    /* the file lock is free; the directory's is not when a holder's lock
     * file was removed or replaced under it */
    dir_fd = open(dir, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
    if (dir_fd < 0) {
        int e = errno;

        close(fd);
        return rv_error_set(error, RV_ERROR_FAILED, e, "Failed to open lock directory '%s': %s",
                            dir, g_strerror(e));
    }
    if (flock(dir_fd, LOCK_EX | LOCK_NB) < 0) {
        int e = errno;

        close(dir_fd);
        close(fd);
        if (e == EWOULDBLOCK) {
            g_autofree char *what = g_strdup_printf("the lock directory '%s' (its lock file "
                                                    "removed or replaced) of ", dir);
            return busy_error(lpath, what, error);
        }
        return rv_error_set(error, RV_ERROR_FAILED, e, "Failed to lock '%s': %s", dir,
                            g_strerror(e));
    }
    /* the file we locked must still be the one at the path */
    if (fstat(fd, &st) < 0 || stat(lpath, &pst) < 0 || st.st_ino != pst.st_ino ||
        st.st_dev != pst.st_dev) {
        close(fd);
        close(dir_fd);
        return rv_error_set(error, RV_ERROR_FAILED, EBUSY,
                            "Lock file '%s' changed while it was being locked: try again", lpath);
    }
    if (rv_harness_lock_info(lpath, "", &prev, NULL) == 0 && prev.pid > 0 &&
        prev.pid != getpid() && !pid_alive(prev.pid)) {
        g_autofree char *who = describe(&prev);
        rv_log_info("Lock file '%s' is stale: the rtvirt it names %s is gone (killed); the "
                    "kernel released its lock, this rtvirt takes it over (`rtvirt host "
                    "revert` restores what a killed run left changed)", lpath, who);
    }
    cmd = self_command();
    content = g_strdup_printf("%d\n%s\n%s\n", (int) getpid(), cmd, since);
    if (ftruncate(fd, 0) < 0 || pwrite(fd, content, strlen(content), 0) < 0) {
        /* the contents are for messages only; the flocks are what counts */
    }
    lock = g_new0(RvLock, 1);
    lock->fd = fd;
    lock->dir_fd = dir_fd;
    lock->path = g_steal_pointer(&lpath);
    lock->dev = st.st_dev;
    lock->ino = st.st_ino;
    *ret = lock;
    return 0;
}

int
rv_harness_lock_check(RvLock *lock, GError **error)
{
    struct stat st;

    if (stat(lock->path, &st) < 0) {
        int e = errno;

        if (e == ENOENT)
            return rv_error_set(error, RV_ERROR_FAILED, ESTALE,
                                "Lock file '%s' was removed while this rtvirt held it: stopping "
                                "before the next host change (the lock file must stay; a stale "
                                "one is taken over by the next rtvirt)", lock->path);
        return rv_error_set(error, RV_ERROR_FAILED, e, "Failed to check lock file '%s': %s",
                            lock->path, g_strerror(e));
    }
    if (st.st_ino != lock->ino || st.st_dev != lock->dev)
        return rv_error_set(error, RV_ERROR_FAILED, ESTALE,
                            "Lock file '%s' was replaced while this rtvirt held it: stopping "
                            "before the next host change (the lock file must stay; a stale "
                            "one is taken over by the next rtvirt)", lock->path);
    return 0;
}

int
rv_harness_lock_guard(gpointer user_data, GError **error)
{
    return rv_harness_lock_check(user_data, error);
}

void
rv_harness_lock_release(RvLock *lock)
{
    if (!lock)
        return;
    /* empty the file only while it still is ours */
    if (rv_harness_lock_check(lock, NULL) == 0 && ftruncate(lock->fd, 0) < 0) {
        /* ignore: the file is only informative */
    }
    close(lock->fd);       /* drops the flocks */
    close(lock->dir_fd);
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
