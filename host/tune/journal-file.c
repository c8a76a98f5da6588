/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * host/tune/journal-file.c: how the journal writes a file it changes or
 * restores: atomically (a temporary FILE.rtvirt-XXXXXX beside it, fsync,
 * rename, fsync of the directory), and how revert removes the temporaries
 * a kill left (see host/tune/journal.h).
 */
#include <errno.h>
#include <fcntl.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include <glib/gstdio.h>

#include "host/tune/journal-entry.h"
#include "util/error.h"

int
rv_host_journal_fsync_dir(const char *path)
{
    g_autofree char *dir = g_path_get_dirname(path);
    int fd = open(dir, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
    int r = 0;

    if (fd < 0)
        return -errno;
    if (fsync(fd) < 0)
        r = -errno;
    close(fd);
    return r;
}

int
rv_host_journal_write_all(int fd, const char *buf, gsize len)
{
    while (len > 0) {
        ssize_t n = write(fd, buf, len);

        if (n < 0) {
            if (errno == EINTR)
                continue;
            return -errno;
        }
        buf += n;
        len -= n;
    }
    return 0;
}


/* Is @name exactly @base + ".rtvirt-" + six mkstemp(3) characters? */
static bool
is_temp_of(const char *name, const char *base)
{
    gsize bl = strlen(base), il = strlen(TEMP_INFIX);

    if (strncmp(name, base, bl) != 0 || strncmp(name + bl, TEMP_INFIX, il) != 0 ||
        strlen(name + bl + il) != 6)
        return false;
    for (const char *c = name + bl + il; *c; c++)
        if (!g_ascii_isalnum(*c))
            return false;
    return true;
}

/* Removes the regular files FILE.rtvirt-XXXXXX beside @real (leftovers of
 * an atomic_replace() that was killed before its rename).  Returns how
 * many were removed. */
guint
rv_host_journal_sweep_temps(const char *real)
{
    g_autofree char *dir = g_path_get_dirname(real);
    g_autofree char *base = g_path_get_basename(real);
    g_autoptr(GDir) d = g_dir_open(dir, 0, NULL);
    const char *name;
    guint n = 0;

    while (d && (name = g_dir_read_name(d))) {
        g_autofree char *p = NULL;
        struct stat st;

        if (!is_temp_of(name, base))
            continue;
        p = g_build_filename(dir, name, NULL);
        if (lstat(p, &st) == 0 && S_ISREG(st.st_mode) && unlink(p) == 0)
            n++;
    }
    if (n)
        (void) rv_host_journal_fsync_dir(real);
    return n;
}


/* Replace @real atomically: temporary file beside it, fsync, rename.
 * @mtime: (nullable): the modification time to give it (a restored file
 * keeps the one it had). */
int
rv_host_journal_atomic_replace(const char *real, const char *data, gsize len, guint mode,
               gint64 uid, gint64 gid, const struct timespec *mtime, GError **error)
{
    g_autofree char *tmp = g_strdup_printf("%s" TEMP_INFIX "XXXXXX", real);
    int fd = g_mkstemp_full(tmp, O_WRONLY | O_CLOEXEC, mode & 07777);
    int r;

    if (fd < 0) {
        int e = errno;
        return rv_error_set(error, RV_ERROR_FAILED, e, "Failed to create '%s': %s",
                            tmp, g_strerror(e));
    }
    rv_host_journal_test_point("temp-created");
    r = rv_host_journal_write_all(fd, data, len);
    if (r == 0 && fchmod(fd, mode & 07777) < 0)
        r = -errno;
    if (r == 0 && uid >= 0 && geteuid() == 0 && fchown(fd, (uid_t) uid, (gid_t) gid) < 0)
        r = -errno;
    if (r == 0 && mtime) {
        struct timespec times[2] = { { .tv_nsec = UTIME_OMIT }, *mtime };
        if (futimens(fd, times) < 0)
            r = -errno;
    }
    if (r == 0 && fsync(fd) < 0)
        r = -errno;
    if (close(fd) < 0 && r == 0)
        r = -errno;
    if (r == 0)
        rv_host_journal_test_point("temp-written");
    if (r == 0 && rename(tmp, real) < 0)
        r = -errno;
    if (r < 0) {
        (void) unlink(tmp);
        return rv_error_set(error, RV_ERROR_FAILED, -r, "Failed to write '%s': %s",
                            real, g_strerror(-r));
    }
    (void) rv_host_journal_fsync_dir(real);
    return 0;
}

