/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * tests/test-guest-verify.c: live verification (guest/verify.h) over /proc
 * files captured from a real QEMU on the build machine
 * (tests/data/verify/tcg-2vcpu.source.txt), against several domain XMLs:
 * NAME.xml -> NAME.expected (one line per check: PASS|FAIL, what,
 * expected, actual); RV_REGENERATE=1 rewrites the expected files.
 */
#include <json-glib/json-glib.h>

#include "guest/domain-xml.h"
#include "guest/verify.h"
#include "util/error.h"
#include "tests/testutil.h"

static const char *cases[] = { "tcg-2vcpu-placed", "tcg-2vcpu-live", "tcg-2vcpu-wrong-pins" };

static char *
data_path(const char *name)
{
    return rv_test_data_path("verify", name);
}

static GArray *
load_tids(void)
{
    g_autofree char *path = data_path("tcg-2vcpu-query-cpus-fast.json");
    g_autoptr(JsonParser) parser = json_parser_new();
    g_autoptr(GError) err = NULL;
    JsonArray *a;
    GArray *tids = g_array_new(FALSE, TRUE, sizeof(int));

    json_parser_load_from_file(parser, path, &err);
    g_assert_no_error(err);
    a = json_object_get_array_member(json_node_get_object(json_parser_get_root(parser)), "return");
    g_array_set_size(tids, json_array_get_length(a));
    for (guint i = 0; i < json_array_get_length(a); i++) {
        JsonObject *o = json_array_get_object_element(a, i);

        g_array_index(tids, int, json_object_get_int_member(o, "cpu-index")) =
            (int) json_object_get_int_member(o, "thread-id");
    }
    return tids;
}

static void
test_case(gconstpointer data)
{
    const char *name = data;
    g_autofree char *xml_name = g_strconcat(name, ".xml", NULL);
    g_autofree char *exp_name = g_strconcat(name, ".expected", NULL);
    g_autofree char *xml_path = data_path(xml_name);
    g_autofree char *exp_path = data_path(exp_name);
    g_autofree char *root_path = data_path("tcg-2vcpu-root");
    g_autofree char *xml = NULL;
    g_autoptr(GError) err = NULL;
    g_autoptr(RvGuestPlacement) expect = NULL;
    g_autoptr(RvGuestVerification) v = NULL;
    g_autoptr(RvRoot) root = NULL;
    g_autoptr(GArray) tids = load_tids();
    g_autoptr(GString) got = g_string_new(NULL);
    int nfail, m;

    g_file_get_contents(xml_path, &xml, NULL, &err);
    g_assert_no_error(err);
    g_assert_cmpint(rv_guest_domain_xml_read_placement(xml, xml_name, &expect, &err), ==, 0);
    g_assert_no_error(err);
    g_assert_cmpint(rv_host_root_open(root_path, &root, &err), ==, 0);
    nfail = rv_guest_verify_threads(root, expect, (const int *) tids->data, tids->len, &v, &err);
    g_assert_no_error(err);
    g_assert_cmpint(nfail, >=, 0);
    g_assert_cmpint(v->qemu_pid, ==, 4368);
    m = rv_guest_verify_locked_memory(root, v, 256u << 20, &err);
    g_assert_no_error(err);
    g_assert_cmpint(m, ==, 1);   /* VmLck 0 kB in the capture */
    g_assert_cmpuint(v->n_fail, ==, (guint) nfail + 1);

    for (guint i = 0; i < v->checks->len; i++) {
        const RvGuestCheck *c = v->checks->pdata[i];

        g_string_append_printf(got, "%s\t%s\t%s\t%s\n", c->pass ? "PASS" : "FAIL", c->what,
                               c->expected, c->actual);
    }
    rv_test_compare_expected(exp_path, got->str);
}

/* A vanished thread is an error naming the file, not a PASS. */
static void
test_missing_thread(void)
{
    g_autofree char *root_path = data_path("tcg-2vcpu-root");
    g_autoptr(RvGuestPlacement) expect = rv_guest_placement_new(1);
    g_autoptr(RvGuestVerification) v = NULL;
    g_autoptr(RvRoot) root = NULL;
    g_autoptr(GError) err = NULL;
    int tid = 999999;

    g_assert_cmpint(rv_host_root_open(root_path, &root, &err), ==, 0);
    g_assert_cmpint(rv_guest_verify_threads(root, expect, &tid, 1, &v, &err), <, 0);
    g_assert_nonnull(err);
    g_assert_nonnull(strstr(err->message, "/proc/999999/status"));
    g_assert_null(v);
}

/* Fewer vCPU threads than the domain has is a FAIL of its own. */
static void
test_count_mismatch(void)
{
    g_autofree char *root_path = data_path("tcg-2vcpu-root");
    g_autoptr(RvGuestPlacement) expect = rv_guest_placement_new(3);
    g_autoptr(RvGuestVerification) v = NULL;
    g_autoptr(RvRoot) root = NULL;
    g_autoptr(GError) err = NULL;
    int tids[] = { 4375, 4376 };

    g_assert_cmpint(rv_host_root_open(root_path, &root, &err), ==, 0);
    g_assert_cmpint(rv_guest_verify_threads(root, expect, tids, 2, &v, &err), ==, 1);
    g_assert_no_error(err);
    g_assert_cmpstr(((RvGuestCheck *) v->checks->pdata[0])->what, ==, "vCPU thread count");
}

/* A thread's comm is whatever it named itself (prctl PR_SET_NAME): control
 * bytes in it reach the check's text escaped (util/escape.h), never raw. */
static void
test_comm_escaped(void)
{
    g_autofree char *src = data_path("tcg-2vcpu-root");
    g_autofree char *tmp = g_dir_make_tmp("rv-verify-XXXXXX", NULL);
    g_autofree char *stat_path = g_build_filename(tmp, "root/proc/4374/stat", NULL);
    g_autofree char *root_path = g_build_filename(tmp, "root", NULL);
    g_autofree char *stat = NULL, *xml = NULL, *xml_path = data_path("tcg-2vcpu-placed.xml");
    g_autofree char *cmd = g_strdup_printf("cp -a '%s' '%s/root'", src, tmp);
    g_autoptr(RvGuestPlacement) expect = NULL;
    g_autoptr(RvGuestVerification) v = NULL;
    g_autoptr(RvRoot) root = NULL;
    g_autoptr(GError) err = NULL;
    g_autoptr(GArray) tids = load_tids();
    gchar **parts;
    bool seen = false;

    g_assert_true(g_spawn_command_line_sync(cmd, NULL, NULL, NULL, &err));
    g_assert_true(g_file_get_contents(stat_path, &stat, NULL, &err));
    parts = g_strsplit(stat, "(IO mon_iothread)", 2);
    g_assert_cmpuint(g_strv_length(parts), ==, 2);
    g_free(stat);
    stat = g_strjoinv("(IO\033[2J\n)", parts);
    g_strfreev(parts);
    g_assert_true(g_file_set_contents(stat_path, stat, -1, &err));

    g_assert_true(g_file_get_contents(xml_path, &xml, NULL, &err));
    g_assert_cmpint(rv_guest_domain_xml_read_placement(xml, "placed.xml", &expect, &err), ==, 0);
    g_assert_cmpint(rv_host_root_open(root_path, &root, &err), ==, 0);
    g_assert_cmpint(rv_guest_verify_threads(root, expect, (const int *) tids->data, tids->len,
                                            &v, &err), >=, 0);
    for (guint i = 0; i < v->checks->len; i++) {
        const RvGuestCheck *c = v->checks->pdata[i];

        for (const char *p = c->what; *p; p++)
            g_assert_false(g_ascii_iscntrl(*p));
        seen |= strcmp(c->what, "emulator thread 4374 (IO\\033[2J\\n) affinity") == 0;
    }
    g_assert_true(seen);
    rv_test_rm_rf(tmp);
}

int
main(int argc, char **argv)
{
    g_test_init(&argc, &argv, NULL);
    for (guint i = 0; i < G_N_ELEMENTS(cases); i++) {
        g_autofree char *path = g_strdup_printf("/guest/verify/%s", cases[i]);

        g_test_add_data_func(path, cases[i], test_case);
    }
    g_test_add_func("/guest/verify/missing-thread", test_missing_thread);
    g_test_add_func("/guest/verify/count-mismatch", test_count_mismatch);
    g_test_add_func("/guest/verify/comm-escaped", test_comm_escaped);
    return g_test_run();
}
