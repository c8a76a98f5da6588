/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * tests/test-smt.c: host/tune/smt.h on fixture roots made from real sysfs dumps
 * (tests/data/cases/topology, expected values from their .source.txt), and
 * the journal round trip.  A fixture does not react like sysfs (writing
 * "off" to smt/control takes no CPU offline), which is exactly what the
 * post-change verification must catch; the real hotplug runs in the lab VM.
 */
#include <errno.h>
#include <string.h>
#include <glib/gstdio.h>

#include "host/tune/smt.h"
#include "host/facts/topology.h"
#include "util/error.h"
#include "tests/testutil.h"

static char *
fixture_tree(const char *dump)
{
    g_autofree char *src = g_build_filename(rv_test_cases_dir(),
                                            "topology", dump, NULL);
    char *dir = g_dir_make_tmp("rv-smt-XXXXXX", NULL);
    g_autoptr(GError) err = NULL;
    int r;

    r = rv_host_sysfs_dump_to_tree(src, dir, &err);
    g_assert_no_error(err);
    g_assert_cmpint(r, >, 0);
    return dir;
}

static char *
state_of(RvRoot *root)
{
    g_auto(RvSmtState) st = { 0 };
    g_autoptr(GError) err = NULL;

    g_assert_cmpint(rv_host_smt_state_read(root, &st, &err), ==, 0);
    g_assert_no_error(err);
    return rv_host_smt_state_format(&st);
}

/* Expected lines from the fixtures' .source.txt notes. */
static void
test_state_fixtures(void)
{
    static const struct { const char *dump, *want; } cases[] = {
        /* "online=0-31, present=0-31, possible=0-111 ... smt/control=on, smt/active=1" */
        { "sysfs-2socket-intel-ht-n-n16-offline32-111.txt",
          "control=on active=1 present=0-31 online=0-31" },
        { "sysfs-intel-hybrid-alderlake-adjacent-siblings.txt",
          "control=on active=1 present=0-19 online=0-19" },
        /* an old kernel: hex masks only, no top-level possible/online
         * files: an error naming the file, not a guess */
        { "sysfs-4socket-xeon-ht-offline-cpus-hexmask.txt", NULL },
    };

    for (size_t i = 0; i < G_N_ELEMENTS(cases); i++) {
        g_autofree char *dir = fixture_tree(cases[i].dump);
        g_autoptr(RvRoot) root = NULL;
        g_autofree char *got = NULL;

        g_assert_cmpint(rv_host_root_open(dir, &root, NULL), ==, 0);
        if (cases[i].want) {
            got = state_of(root);
            g_test_message("%s: %s", cases[i].dump, got);
            g_assert_cmpstr(got, ==, cases[i].want);
        } else {
            g_auto(RvSmtState) st = { 0 };
            g_autoptr(GError) err = NULL;

            g_assert_cmpint(rv_host_smt_state_read(root, &st, &err), ==, -ENOENT);
            g_test_message("%s: %s", cases[i].dump, err->message);
            g_assert_nonnull(strstr(err->message, "/sys/devices/system/cpu/possible"));
        }
        rv_test_rm_rf(dir);
    }
}

static void
test_reasons(void)
{
    static const struct {
        const char *control;
        bool enable;
        const char *needle;     /* NULL: the change is possible */
    } cases[] = {
        { NULL, false, "CONFIG_HOTPLUG_SMT" },
        { "notsupported", false, "no SMT" },
        { "notsupported", true, "no SMT" },
        { "notimplemented", false, "notimplemented" },
        { "forceoff", true, "nosmt=force" },
        { "forceoff", false, NULL },
        { "on", false, NULL },
        { "on", true, NULL },
        { "off", true, NULL },
        { "off", false, NULL },
        { "bogus", true, "unknown value" },
    };

    for (size_t i = 0; i < G_N_ELEMENTS(cases); i++) {
        RvSmtState st = { .control = (char *) cases[i].control };
        const char *r = rv_host_smt_unavailable_reason(&st, cases[i].enable);

        if (!cases[i].needle) {
            g_assert_null(r);
        } else {
            g_assert_nonnull(r);
            g_assert_nonnull(strstr(r, cases[i].needle));
        }
    }
}

/* This machine: whatever it is, a refused change names the same reason. */
static void
test_live_refusal(void)
{
    g_autoptr(RvRoot) root = NULL;
    g_auto(RvSmtState) st = { 0 };
    g_autoptr(GError) err = NULL;
    const char *reason;

    g_assert_cmpint(rv_host_root_open("/", &root, NULL), ==, 0);
    g_assert_cmpint(rv_host_smt_state_read(root, &st, &err), ==, 0);
    reason = rv_host_smt_unavailable_reason(&st, false);
    if (!reason) {
        g_test_skip("this host can turn SMT off: not touching it in a unit test");
        return;
    }
    {
        g_autofree char *jdir = g_dir_make_tmp("rv-smt-j-XXXXXX", NULL);
        g_autofree char *jpath = g_build_filename(jdir, "journal", NULL);
        g_autoptr(RvJournal) j = NULL;
        int r;

        g_assert_cmpint(rv_host_journal_open(root, jpath, &j, NULL), ==, 0);
        r = rv_host_smt_set(root, j, false, &err);
        g_assert_cmpint(r, ==, -EOPNOTSUPP);
        g_assert_error(err, RV_ERROR, RV_ERROR_UNSUPPORTED);
        g_test_message("%s", err->message);
        g_assert_nonnull(strstr(err->message, reason));
        g_assert_cmpuint(rv_host_journal_n_entries(j), ==, 0);
        g_clear_pointer(&j, rv_host_journal_close);
        rv_test_rm_rf(jdir);
    }
}

/* A kernel that does not act on "off" is caught; revert restores. */
static void
test_set_and_revert(void)
{
    g_autofree char *dir = fixture_tree("sysfs-2socket-intel-ht-n-n16-offline32-111.txt");
    g_autofree char *jpath = g_build_filename(dir, "journal", NULL);
    g_autofree char *ctl = g_build_filename(dir, "sys/devices/system/cpu/smt/control", NULL);
    g_autofree char *before = NULL;
    g_autofree char *after = NULL;
    g_autofree char *cur = NULL;
    g_autoptr(RvRoot) root = NULL;
    g_autoptr(RvJournal) j = NULL;
    g_autoptr(GError) err = NULL;
    guint restored = 0;
    int r;

    g_assert_cmpint(rv_host_root_open(dir, &root, NULL), ==, 0);
    before = state_of(root);
    g_assert_cmpint(rv_host_journal_open(root, jpath, &j, NULL), ==, 0);

    /* already on: nothing to do, nothing journaled */
    g_assert_cmpint(rv_host_smt_set(root, j, true, &err), ==, 0);
    g_assert_no_error(err);
    g_assert_cmpuint(rv_host_journal_n_entries(j), ==, 0);

    r = rv_host_smt_set(root, j, false, &err);
    g_assert_cmpint(r, ==, -EPROTO);
    g_assert_error(err, RV_ERROR, RV_ERROR_CHECK);
    g_test_message("%s", err->message);
    g_assert_nonnull(strstr(err->message, "smt/active still reads 1"));
    g_clear_error(&err);
    g_assert_true(g_file_get_contents(ctl, &cur, NULL, NULL));
    g_assert_cmpstr(cur, ==, "off");
    g_assert_cmpuint(rv_host_journal_n_entries(j), ==, 1);
    g_assert_true(rv_host_journal_has_path(j, "/sys/devices/system/cpu/smt/control"));

    rv_host_smt_journal_register(j);
    g_assert_cmpint(rv_host_journal_revert(j, &restored, NULL, &err), ==, 0);
    g_assert_no_error(err);
    g_assert_cmpuint(restored, ==, 1);
    after = state_of(root);
    g_assert_cmpstr(after, ==, before);
    g_clear_pointer(&j, rv_host_journal_close);
    rv_test_rm_rf(dir);
}

/* A present CPU offline before SMT off is journaled, and offline again
 * after revert although "on" onlines every present CPU (simulated here by
 * writing its online file, as cpuhp_smt_enable() would). */
static void
test_offline_cpu_restored(void)
{
    g_autofree char *dir = fixture_tree("sysfs-2socket-intel-ht-n-n16-offline32-111.txt");
    g_autofree char *jpath = g_build_filename(dir, "journal", NULL);
    g_autofree char *online = g_build_filename(dir, "sys/devices/system/cpu/online", NULL);
    g_autofree char *cpu31 = g_build_filename(dir, "sys/devices/system/cpu/cpu31/online", NULL);
    g_autoptr(RvRoot) root = NULL;
    g_autoptr(RvJournal) j = NULL;
    g_autoptr(GError) err = NULL;
    g_autofree char *cur = NULL;
    guint restored = 0;

    g_assert_true(g_file_set_contents(online, "0-30\n", -1, NULL));
    g_assert_true(g_file_set_contents(cpu31, "0\n", -1, NULL));
    g_assert_cmpint(rv_host_root_open(dir, &root, NULL), ==, 0);
    g_assert_cmpint(rv_host_journal_open(root, jpath, &j, NULL), ==, 0);
    g_assert_cmpint(rv_host_smt_set(root, j, false, &err), ==, -EPROTO);
    g_clear_error(&err);
    g_assert_cmpuint(rv_host_journal_n_entries(j), ==, 2);

    /* what the kernel does on "on" */
    g_assert_true(g_file_set_contents(cpu31, "1\n", -1, NULL));

    g_clear_pointer(&j, rv_host_journal_close);
    /* a new process reverts (as `rtvirt host revert` after a crash) */
    g_assert_cmpint(rv_host_journal_open(root, jpath, &j, NULL), ==, 0);
    g_assert_cmpuint(rv_host_journal_n_entries(j), ==, 2);
    rv_host_smt_journal_register(j);
    g_assert_cmpint(rv_host_journal_revert(j, &restored, NULL, &err), ==, 0);
    g_assert_no_error(err);
    g_assert_cmpuint(restored, ==, 2);
    g_assert_true(g_file_get_contents(cpu31, &cur, NULL, NULL));
    g_assert_cmpstr(g_strstrip(cur), ==, "0");
    g_clear_pointer(&j, rv_host_journal_close);
    rv_test_rm_rf(dir);
}

int
main(int argc, char **argv)
{
    g_test_init(&argc, &argv, NULL);
    g_test_add_func("/smt/state-fixtures", test_state_fixtures);
    g_test_add_func("/smt/reasons", test_reasons);
    g_test_add_func("/smt/live-refusal", test_live_refusal);
    g_test_add_func("/smt/set-and-revert", test_set_and_revert);
    g_test_add_func("/smt/offline-cpu-restored", test_offline_cpu_restored);
    return g_test_run();
}
