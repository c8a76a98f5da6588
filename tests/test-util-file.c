/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * tests/test-util-file.c: util/file.h's one reader and its errno policy:
 * bounded size, -ENOENT for a missing file, the path in every message.
 */
#include <errno.h>
#include <fcntl.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include <glib/gstdio.h>

#include "util/error.h"
#include "util/file.h"

static char *
tmpdir_new(void)
{
    g_autoptr(GError) err = NULL;
    char *d = g_dir_make_tmp("rv-util-file-XXXXXX", &err);

    g_assert_no_error(err);
    return d;
}

static void
write_or_die(const char *path, const char *data, gssize len)
{
    g_autoptr(GError) err = NULL;

    g_assert_true(g_file_set_contents(path, data, len, &err));
}

static void
test_read(void)
{
    g_autofree char *dir = tmpdir_new();
    g_autofree char *path = g_build_filename(dir, "f", NULL);
    g_autofree char *empty = g_build_filename(dir, "empty", NULL);
    g_autofree char *data = NULL;
    g_autoptr(GError) err = NULL;

    write_or_die(path, "a\0b", 3);
    g_assert_cmpint(rv_file_read(path, 3, &data, &err), ==, 3);
    g_assert_no_error(err);
    g_assert_cmpmem(data, 4, "a\0b\0", 4);       /* NUL appended */
    g_clear_pointer(&data, g_free);

    write_or_die(empty, "", 0);
    g_assert_cmpint(rv_file_read(empty, 0, &data, NULL), ==, 0);
    g_assert_cmpstr(data, ==, "");
    g_clear_pointer(&data, g_free);

    g_unlink(path);
    g_unlink(empty);
    g_rmdir(dir);
}

static void
test_bound(void)
{
    g_autofree char *dir = tmpdir_new();
    g_autofree char *path = g_build_filename(dir, "big", NULL);
    g_autofree char *big = g_strnfill(10000, 'x');
    g_autofree char *data = NULL, *want = NULL;
    g_autoptr(GError) err = NULL;

    write_or_die(path, big, 10000);
    /* exactly the bound is fine; one byte more is not */
    g_assert_cmpint(rv_file_read(path, 10000, &data, NULL), ==, 10000);
    g_assert_cmpuint(strlen(data), ==, 10000);
    g_clear_pointer(&data, g_free);
    g_assert_cmpint(rv_file_read(path, 9999, &data, &err), ==, -EFBIG);
    g_assert_null(data);
    g_assert_error(err, RV_ERROR, RV_ERROR_INVALID);
    want = g_strdup_printf("Failed to read '%s': larger than 9999 bytes", path);
    g_assert_cmpstr(err->message, ==, want);
    g_clear_error(&err);
    g_assert_cmpint(rv_file_read(path, 0, &data, &err), ==, -EFBIG);
    g_unlink(path);
    g_rmdir(dir);
}

static void
test_errors(void)
{
    g_autofree char *dir = tmpdir_new();
    g_autofree char *missing = g_build_filename(dir, "missing", NULL);
    g_autofree char *deep = g_build_filename(dir, "no", "such", NULL);
    g_autofree char *data = NULL, *want = NULL;
    g_autoptr(GError) err = NULL;

    g_assert_cmpint(rv_file_read(missing, 100, &data, &err), ==, -ENOENT);
    g_assert_error(err, RV_ERROR, RV_ERROR_FAILED);
    want = g_strdup_printf("Failed to read '%s': %s", missing, g_strerror(ENOENT));
    g_assert_cmpstr(err->message, ==, want);
    g_clear_error(&err);
    g_assert_cmpint(rv_file_read(deep, 100, &data, NULL), ==, -ENOENT);
    g_assert_cmpint(rv_file_read(dir, 100, &data, &err), ==, -EISDIR);
    g_assert_nonnull(strstr(err->message, dir));
    g_assert_null(data);
    g_rmdir(dir);
}

static void
test_fd(void)
{
    int fds[2];
    g_autofree char *data = NULL;

    /* a pipe has no size: read to EOF */
    g_assert_cmpint(pipe2(fds, O_CLOEXEC), ==, 0);
    g_assert_cmpint(write(fds[1], "hello", 5), ==, 5);
    close(fds[1]);
    g_assert_cmpint(rv_file_read_fd(fds[0], "pipe", 100, &data, NULL), ==, 5);
    g_assert_cmpstr(data, ==, "hello");
    close(fds[0]);
}

static void
test_fifo(void)
{
    g_autofree char *dir = tmpdir_new();
    g_autofree char *fifo = g_build_filename(dir, "run.json", NULL);
    g_autofree char *data = NULL;

    /* a FIFO nobody writes (a hostile store) reads as empty instead of
     * blocking open(2) for ever */
    g_assert_cmpint(mkfifo(fifo, 0600), ==, 0);
    g_assert_cmpint(rv_file_read(fifo, 100, &data, NULL), ==, 0);
    g_assert_cmpstr(data, ==, "");
    g_unlink(fifo);
    g_rmdir(dir);
}

static void
test_text(void)
{
    g_autoptr(GError) err = NULL;

    g_assert_cmpint(rv_file_check_text("p.ini", "caf\xc3\xa9\n", 6, NULL), ==, 0);
    g_assert_cmpint(rv_file_check_text("p.ini", "ab\0c", 4, &err), ==, -EINVAL);
    g_assert_cmpstr(err->message, ==, "p.ini: not UTF-8 text (byte 2)");
    g_clear_error(&err);
    g_assert_cmpint(rv_file_check_text("p.ini", "abc\xff", 4, &err), ==, -EINVAL);
    g_assert_cmpstr(err->message, ==, "p.ini: not UTF-8 text (byte 3)");
}

/* A profile's path as a user reads it: "." and "NAME/.." dropped by the
 * text, links not followed (compared with Python's os.path.normpath()). */
static void
test_join_lexical(void)
{
    static const struct {
        const char *dir, *path, *out;
    } cases[] = {
        { "profiles/matrix", "../host/realtime-virtual-host.ini",
          "profiles/host/realtime-virtual-host.ini" },
        { "/usr/share/rtvirt/profiles/matrix", "../guests/rt-demo.ini",
          "/usr/share/rtvirt/profiles/guests/rt-demo.ini" },
        { "profiles/matrix", "/etc/rtvirt/host/x.ini", "/etc/rtvirt/host/x.ini" },
        { ".", "../x/./y//z.ini", "../x/y/z.ini" },
        { "a", "../../b", "../b" },
        { "/", "../../etc", "/etc" },
        { "a/./b/", "./c", "a/b/c" },
        { "a", "..", "." },
        { NULL, "p/../../q", "../q" },
    };

    for (gsize i = 0; i < G_N_ELEMENTS(cases); i++) {
        g_autofree char *p = rv_path_join_lexical(cases[i].dir, cases[i].path);

        g_assert_cmpstr(p, ==, cases[i].out);
    }
}

/* The lexical path where it names the file the plain join names; the plain
 * join where a directory link on the way leads elsewhere:
 * DIR/profiles/matrix/../host/h.ini and DIR/lnk/../host/h.ini with lnk ->
 * profiles/matrix (the kernel opens DIR/profiles/host/h.ini for both). */
static void
test_join_shown(void)
{
    g_autofree char *dir = tmpdir_new();
    g_autofree char *matrix = g_build_filename(dir, "profiles", "matrix", NULL);
    g_autofree char *host = g_build_filename(dir, "profiles", "host", NULL);
    g_autofree char *h = g_build_filename(host, "h.ini", NULL);
    g_autofree char *lnk = g_build_filename(dir, "lnk", NULL);
    g_autofree char *want_lnk = g_build_filename(dir, "lnk", "..", "host", "h.ini", NULL);
    g_autofree char *a = NULL, *b = NULL, *c = NULL;

    g_assert_cmpint(g_mkdir_with_parents(matrix, 0755), ==, 0);
    g_assert_cmpint(g_mkdir_with_parents(host, 0755), ==, 0);
    write_or_die(h, "[main]\n", -1);
    g_assert_cmpint(symlink("profiles/matrix", lnk), ==, 0);

    a = rv_path_join_shown(matrix, "../host/h.ini");
    b = rv_path_join_shown(lnk, "../host/h.ini");
    c = rv_path_join_shown(matrix, "../host/missing.ini");
    g_assert_cmpstr(a, ==, h);
    g_assert_cmpstr(b, ==, want_lnk);                /* not DIR/host/h.ini */
    g_assert_true(g_str_has_suffix(c, "/profiles/host/missing.ini"));

    g_unlink(h);
    g_unlink(lnk);
    g_rmdir(host);
    g_rmdir(matrix);
    {
        g_autofree char *profiles = g_path_get_dirname(host);

        g_rmdir(profiles);
    }
    g_rmdir(dir);
}

int
main(int argc, char **argv)
{
    g_test_init(&argc, &argv, NULL);
    g_test_add_func("/util/file/read", test_read);
    g_test_add_func("/util/file/bound", test_bound);
    g_test_add_func("/util/file/errors", test_errors);
    g_test_add_func("/util/file/fd", test_fd);
    g_test_add_func("/util/file/fifo", test_fifo);
    g_test_add_func("/util/file/text", test_text);
    g_test_add_func("/util/file/join-lexical", test_join_lexical);
    g_test_add_func("/util/file/join-shown", test_join_shown);
    return g_test_run();
}
