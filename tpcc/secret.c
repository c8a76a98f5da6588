/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * tpcc/secret.c: the server password off the command line (secret.h).
 */
#include <errno.h>
#include <fcntl.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "tpcc/secret.h"

#define SECRET_ERROR (g_quark_from_static_string("rv-tpcc-secret"))

char *
rv_tpcc_argv_take_password(int argc, char **argv)
{
    char *found = NULL;

    for (int i = 1; i < argc; i++) {
        char *v = NULL;

        if (g_str_equal(argv[i], "--"))
            break;
        if (g_str_equal(argv[i], "--password") && i + 1 < argc)
            v = argv[++i];
        else if (g_str_has_prefix(argv[i], "--password="))
            v = argv[i] + strlen("--password=");
        if (!v)
            continue;
        g_free(found);
        found = g_strdup(v);
        memset(v, 'x', strlen(v));
    }
    return found;
}

int
rv_tpcc_password_read(const char *path, char **ret_password,
                      gboolean *ret_others_read, GError **error)
{
    gboolean std_in = g_str_equal(path, "-");
    int fd = std_in ? STDIN_FILENO : open(path, O_RDONLY | O_CLOEXEC | O_NOCTTY);
    g_autoptr(GString) s = g_string_new(NULL);
    struct stat st;
    char buf[512];
    int r = 0;

    if (fd < 0) {
        r = -errno;
        g_set_error(error, SECRET_ERROR, -r, "--password-file '%s': %s", path, g_strerror(-r));
        return r;
    }
    if (fstat(fd, &st) < 0 || !(S_ISREG(st.st_mode) || S_ISFIFO(st.st_mode) || S_ISCHR(st.st_mode))) {
        r = S_ISDIR(st.st_mode) ? -EISDIR : -EINVAL;
        g_set_error(error, SECRET_ERROR, -r, "--password-file '%s': not a file or a pipe", path);
        goto out;
    }
    for (;;) {
        ssize_t n = read(fd, buf, sizeof(buf));
        if (n < 0 && errno == EINTR)
            continue;
        if (n < 0) {
            r = -errno;
            g_set_error(error, SECRET_ERROR, -r, "--password-file '%s': %s", path, g_strerror(-r));
            goto out;
        }
        if (n == 0)
            break;
        g_string_append_len(s, buf, n);
        if (s->len > RV_TPCC_PASSWORD_FILE_MAX) {
            r = -EFBIG;
            g_set_error(error, SECRET_ERROR, -r, "--password-file '%s': more than %d bytes: "
                        "expected one line, the password", path, RV_TPCC_PASSWORD_FILE_MAX);
            goto out;
        }
    }
    {
        char *nl = memchr(s->str, '\n', s->len);
        if (nl)
            g_string_truncate(s, nl - s->str);
        if (s->len && s->str[s->len - 1] == '\r')
            g_string_truncate(s, s->len - 1);
    }
    if (ret_others_read)
        *ret_others_read = S_ISREG(st.st_mode) && (st.st_mode & (S_IRGRP | S_IROTH));
    *ret_password = g_string_free(g_steal_pointer(&s), FALSE);
out:
    if (s)
        memset(s->str, 0, s->allocated_len);
    memset(buf, 0, sizeof(buf));
    if (!std_in)
        close(fd);
    return r;
}
