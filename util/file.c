/* SPDX-License-Identifier: GPL-2.0-or-later */
#include <errno.h>
#include <fcntl.h>
#include <sys/stat.h>
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

char *
rv_path_join_lexical(const char *dir, const char *path)
{
    g_autofree char *joined = g_path_is_absolute(path) || !dir ? g_strdup(path)
                                                               : g_build_filename(dir, path, NULL);
    g_auto(GStrv) parts = g_strsplit(joined, "/", -1);
    g_autoptr(GPtrArray) keep = g_ptr_array_new();
    gboolean absolute = joined[0] == '/';
    GString *out = g_string_new(absolute ? "/" : "");

    for (char **p = parts; *p; p++) {
        const char *last = keep->len ? keep->pdata[keep->len - 1] : NULL;

        if (!**p || strcmp(*p, ".") == 0)
            continue;
        if (strcmp(*p, "..") == 0 && last && strcmp(last, "..") != 0)
            g_ptr_array_set_size(keep, keep->len - 1);
        else if (strcmp(*p, "..") != 0 || !absolute)
            g_ptr_array_add(keep, *p);
    }
    for (guint i = 0; i < keep->len; i++) {
        if (i)
            g_string_append_c(out, '/');
        g_string_append(out, keep->pdata[i]);
    }
    if (!out->len)
        g_string_append_c(out, '.');
    return g_string_free(out, FALSE);
}

char *
rv_path_join_shown(const char *dir, const char *path)
{
    g_autofree char *plain = g_path_is_absolute(path) || !dir ? g_strdup(path)
                                                              : g_build_filename(dir, path, NULL);
    g_autofree char *lex = rv_path_join_lexical(dir, path);
    struct stat a, b;
    gboolean has_plain = stat(plain, &a) == 0, has_lex = stat(lex, &b) == 0;

    if (has_plain == has_lex && (!has_plain || (a.st_dev == b.st_dev && a.st_ino == b.st_ino)))
        return g_steal_pointer(&lex);
    return g_steal_pointer(&plain);
}
