/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * tests/test-limits.c: host limits learned per libvirt daemon instance
 * (guest/limits.h): the instance key from a PID file and /proc/PID/stat
 * (field 22, after a comm that holds spaces and parentheses), learning and
 * loading, a file of another instance or a broken file counting as empty.
 * The stat lines are real: libvirtd and virtlogd on this project's machine
 * (2026-12-01).
 */
#include <glib.h>
#include <glib/gstdio.h>

#include "guest/limits.h"
#include "host/fsroot.h"
#include "tests/testutil.h"

#define LIBVIRTD_STAT                                                                          \
    "2042 (libvirtd) S 1 2041 2041 0 -1 4194368 61280 27868 19 1 803 706 51 61 20 0 19 0 "    \
    "972687 1252560896 7624 18446744073709551615 94456607715328 94456607949325 "              \
    "140730191176960 0 0 0 0 4096 16391 0 0 0 17 1 0 0 0 0 0 94456608085200 94456608115146 "  \
    "94456726487040 140730191178290 140730191178312 140730191178312 140730191179749 0\n"

typedef struct {
    char *dir;     /* the fixture root */
    char *run_dir; /* where libvirt-limits.json goes */
} Fixture;

static void
fx_setup(Fixture *f, gconstpointer data)
{
    (void) data;
    f->dir = g_dir_make_tmp("rtvirt-limits-XXXXXX", NULL);
    g_assert_nonnull(f->dir);
    f->run_dir = g_build_filename(f->dir, "rtvirt-run", NULL);
}

static void
fx_teardown(Fixture *f, gconstpointer data)
{
    (void) data;
    rv_test_rm_rf(f->dir);
    g_free(f->dir);
    g_free(f->run_dir);
}

static char *
key_of(Fixture *f)
{
    g_autoptr(RvRoot) root = NULL;

    g_assert_cmpint(rv_host_root_open(f->dir, &root, NULL), ==, 0);
    return rv_guest_limits_daemon_key(root);
}

static void
test_key_libvirtd(Fixture *f, gconstpointer data)
{
    g_autofree char *key = NULL;

    (void) data;
    rv_test_put(f->dir, "run/libvirtd.pid", "2042\n");
    rv_test_put(f->dir, "proc/2042/stat", LIBVIRTD_STAT);
    key = key_of(f);
    g_assert_cmpstr(key, ==, "libvirtd pid=2042 start=972687");
}

static void
test_key_comm_with_parens(Fixture *f, gconstpointer data)
{
    g_autofree char *key = NULL;

    (void) data;
    /* a comm of "a) (b": only the last ')' ends it (proc(5)) */
    rv_test_put(f->dir, "run/virtqemud.pid", "77");
    rv_test_put(f->dir, "proc/77/stat",
                "77 (a) (b) S 1 76 76 0 -1 4194368 1 0 0 0 6 7 0 0 20 0 1 0 555 1 2 3\n");
    key = key_of(f);
    g_assert_cmpstr(key, ==, "virtqemud pid=77 start=555");
}

static void
test_key_missing(Fixture *f, gconstpointer data)
{
    g_autofree char *k1 = NULL, *k2 = NULL, *k3 = NULL;

    (void) data;
    /* no PID file */
    k1 = key_of(f);
    g_assert_null(k1);
    /* a PID file whose process is gone */
    rv_test_put(f->dir, "run/libvirtd.pid", "2042\n");
    k2 = key_of(f);
    g_assert_null(k2);
    /* a PID file that holds no number */
    rv_test_put(f->dir, "run/libvirtd.pid", "2042x\n");
    rv_test_put(f->dir, "proc/2042/stat", LIBVIRTD_STAT);
    k3 = key_of(f);
    g_assert_null(k3);
}

static void
test_learn_load(Fixture *f, gconstpointer data)
{
    const char *key = "libvirtd pid=2042 start=972687";
    g_autoptr(RvGuestLimits) none = NULL, one = NULL, two = NULL, again = NULL;
    g_autoptr(GError) err = NULL;

    (void) data;
    none = rv_guest_limits_load(f->run_dir, key);
    g_assert_false(none->known[RV_GUEST_LIMIT_FIFO]);
    g_assert_false(none->known[RV_GUEST_LIMIT_MEMLOCK]);

    g_assert_cmpint(rv_guest_limits_learn(f->run_dir, key, RV_GUEST_LIMIT_FIFO,
                                          "Cannot set scheduler parameters", &err), ==, 0);
    g_assert_no_error(err);
    one = rv_guest_limits_load(f->run_dir, key);
    g_assert_true(one->known[RV_GUEST_LIMIT_FIFO]);
    g_assert_false(one->known[RV_GUEST_LIMIT_MEMLOCK]);
    g_assert_cmpstr(one->reason[RV_GUEST_LIMIT_FIFO], ==, "Cannot set scheduler parameters");
    g_assert_true(g_str_has_suffix(one->learned[RV_GUEST_LIMIT_FIFO], "Z"));

    /* a second limit adds to the first; learning one again keeps its first reason */
    g_assert_cmpint(rv_guest_limits_learn(f->run_dir, key, RV_GUEST_LIMIT_MEMLOCK,
                                          "cannot limit locked memory", NULL), ==, 0);
    g_assert_cmpint(rv_guest_limits_learn(f->run_dir, key, RV_GUEST_LIMIT_FIFO, "other", NULL),
                    ==, 0);
    two = rv_guest_limits_load(f->run_dir, key);
    g_assert_true(two->known[RV_GUEST_LIMIT_FIFO]);
    g_assert_true(two->known[RV_GUEST_LIMIT_MEMLOCK]);
    g_assert_cmpstr(two->reason[RV_GUEST_LIMIT_FIFO], ==, "Cannot set scheduler parameters");
    g_assert_cmpstr(two->reason[RV_GUEST_LIMIT_MEMLOCK], ==, "cannot limit locked memory");

    /* a restarted daemon is a new instance: nothing learned applies */
    again = rv_guest_limits_load(f->run_dir, "libvirtd pid=2042 start=999999");
    g_assert_false(again->known[RV_GUEST_LIMIT_FIFO]);
    g_assert_false(again->known[RV_GUEST_LIMIT_MEMLOCK]);
}

static void
test_new_instance_replaces(Fixture *f, gconstpointer data)
{
    g_autoptr(RvGuestLimits) old = NULL, cur = NULL;

    (void) data;
    g_assert_cmpint(rv_guest_limits_learn(f->run_dir, "libvirtd pid=1 start=1",
                                          RV_GUEST_LIMIT_FIFO, "old", NULL), ==, 0);
    g_assert_cmpint(rv_guest_limits_learn(f->run_dir, "libvirtd pid=2 start=2",
                                          RV_GUEST_LIMIT_MEMLOCK, "new", NULL), ==, 0);
    old = rv_guest_limits_load(f->run_dir, "libvirtd pid=1 start=1");
    cur = rv_guest_limits_load(f->run_dir, "libvirtd pid=2 start=2");
    g_assert_false(old->known[RV_GUEST_LIMIT_FIFO]);
    g_assert_false(cur->known[RV_GUEST_LIMIT_FIFO]);
    g_assert_true(cur->known[RV_GUEST_LIMIT_MEMLOCK]);
}

static void
test_broken_file(Fixture *f, gconstpointer data)
{
    static const char *const bad[] = {
        "",
        "{",
        "[]",
        "{\"schema_version\": 2, \"daemon\": \"d\", \"limits\": [{\"limit\": \"fifo\"}]}",
        "{\"schema_version\": 1, \"daemon\": \"d\", \"limits\": {\"limit\": \"fifo\"}}",
        "{\"schema_version\": 1, \"daemon\": \"d\", \"limits\": [\"fifo\", 3, {\"limit\": \"x\"}]}",
    };

    (void) data;
    for (guint i = 0; i < G_N_ELEMENTS(bad); i++) {
        g_autoptr(RvGuestLimits) l = NULL;

        rv_test_put(f->run_dir, "libvirt-limits.json", bad[i]);
        l = rv_guest_limits_load(f->run_dir, "d");
        g_assert_false(l->known[RV_GUEST_LIMIT_FIFO]);
        g_assert_false(l->known[RV_GUEST_LIMIT_MEMLOCK]);
    }
    /* learning over a broken file writes a good one */
    g_assert_cmpint(rv_guest_limits_learn(f->run_dir, "d", RV_GUEST_LIMIT_FIFO, "r", NULL), ==,
                    0);
    {
        g_autoptr(RvGuestLimits) l = rv_guest_limits_load(f->run_dir, "d");
        g_assert_true(l->known[RV_GUEST_LIMIT_FIFO]);
    }
}

static void
test_no_daemon(Fixture *f, gconstpointer data)
{
    g_autoptr(RvGuestLimits) l = NULL;
    g_autofree char *path = g_build_filename(f->run_dir, "libvirt-limits.json", NULL);

    (void) data;
    /* no local daemon: nothing is written, nothing is known */
    g_assert_cmpint(rv_guest_limits_learn(f->run_dir, NULL, RV_GUEST_LIMIT_FIFO, "r", NULL), ==,
                    0);
    g_assert_false(g_file_test(path, G_FILE_TEST_EXISTS));
    l = rv_guest_limits_load(f->run_dir, NULL);
    g_assert_false(l->known[RV_GUEST_LIMIT_FIFO]);
}

static void
test_unwritable(Fixture *f, gconstpointer data)
{
    g_autoptr(GError) err = NULL;
    g_autofree char *file = g_build_filename(f->dir, "a-file", NULL);
    g_autofree char *under = g_build_filename(file, "run", NULL);

    (void) data;
    rv_test_put(f->dir, "a-file", "x");
    g_assert_cmpint(rv_guest_limits_learn(under, "d", RV_GUEST_LIMIT_FIFO, "r", &err), <, 0);
    g_assert_nonnull(err);
    g_assert_nonnull(strstr(err->message, under));
}

int
main(int argc, char **argv)
{
    g_test_init(&argc, &argv, NULL);
#define T(name, fn) g_test_add("/limits/" name, Fixture, NULL, fx_setup, fn, fx_teardown)
    T("key-libvirtd", test_key_libvirtd);
    T("key-comm-with-parens", test_key_comm_with_parens);
    T("key-missing", test_key_missing);
    T("learn-load", test_learn_load);
    T("new-instance-replaces", test_new_instance_replaces);
    T("broken-file", test_broken_file);
    T("no-daemon", test_no_daemon);
    T("unwritable", test_unwritable);
    return g_test_run();
}
