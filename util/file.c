/* SPDX-License-Identifier: GPL-2.0-or-later */
#include <errno.h>
#include <fcntl.h>
#include <string.h>
#include <unistd.h>

#include "util/error.h"
#include "util/file.h"

gssize
rv_file_read_fd(int fd, const char *name, gsize max, char **ret_contents, GError **error)
{
    g_autofree char *buf = NULL;
    gsize len = 0, cap = MIN(max, (gsize) 4096);

    buf = g_malloc(cap + 1);
    for (;;) {
        ssize_t n;

        if (len == cap) {
            /* one byte past @max tells "exactly max" from "larger" */
            if (cap > max)
                return rv_error_set(error, RV_ERROR_INVALID, EFBIG,
                                    "Failed to read '%s': larger than %" G_GSIZE_FORMAT
                                    " bytes", name, max);
            cap = cap >= max ? max + 1 : MIN(cap * 2, max + 1);
            buf = g_realloc(buf, cap + 1);
        }
        n = read(fd, buf + len, cap - len);
        if (n < 0) {
            int e = errno;

            if (e == EINTR)
                continue;
            return rv_error_set(error, RV_ERROR_FAILED, e, "Failed to read '%s': %s", name,
                                g_strerror(e));
        }
        if (n == 0)
            break;
        len += (gsize) n;
    }
    if (len > max)
        return rv_error_set(error, RV_ERROR_INVALID, EFBIG,
                            "Failed to read '%s': larger than %" G_GSIZE_FORMAT " bytes",
                            name, max);
    buf[len] = '\0';
    *ret_contents = g_steal_pointer(&buf);
    return (gssize) len;
}

gssize
rv_file_read(const char *path, gsize max, char **ret_contents, GError **error)
{
    /* O_NONBLOCK only for open(2): a FIFO without a writer (a hostile
     * store's run.json) would block open() for ever; cleared at once, so a
     * pipe with a writer (bash's <(...)) is read to its EOF, and a FIFO
     * without one reads as empty. */
    int fd = open(path, O_RDONLY | O_CLOEXEC | O_NOCTTY | O_NONBLOCK);
    gssize n;

    if (fd >= 0 && fcntl(fd, F_SETFL, fcntl(fd, F_GETFL) & ~O_NONBLOCK) < 0) {
        int e = errno;

        close(fd);
        errno = e;
        fd = -1;
    }
    if (fd < 0) {
        int e = errno;

        return rv_error_set(error, RV_ERROR_FAILED, e, "Failed to read '%s': %s", path,
                            g_strerror(e));
    }
    n = rv_file_read_fd(fd, path, max, ret_contents, error);
    close(fd);
    return n;
}

int
rv_file_check_text(const char *name, const char *data, gsize len, GError **error)
{
    const char *end = NULL;
    const char *nul = memchr(data, '\0', len);

    if (!g_utf8_validate(data, (gssize) len, &end) || nul) {
        gsize off = (gsize) ((nul && (!end || nul < end) ? nul : end) - data);

        return rv_error_set(error, RV_ERROR_INVALID, EINVAL,
                            "%s: not UTF-8 text (byte %" G_GSIZE_FORMAT ")", name, off);
    }
    return 0;
}
