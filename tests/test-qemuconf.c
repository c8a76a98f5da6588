/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * tests/test-qemuconf.c: host/facts/qemu-conf.h, the one qemu.conf reader, and
 * that `host check`, `rtvirt run` and `host apply` see the same value
 * through it.
 *
 * The grammar cases follow libvirt's src/util/virconf.c (virConfParse(),
 * virConfGetValue()): the first statement of a key wins; a '#' inside a
 * list, an unquoted word or an unterminated string fails the whole file.
 * The fixture tests/data/check/qemu-conf-two-sched-core/qemu.conf sets
 * sched_core twice ("none" first, 'vcpus' last); test-hostcheck runs the
 * full check report on it.
 */
#include <errno.h>
#include <string.h>
#include <unistd.h>
#include <glib/gstdio.h>

#include "harness/run.h"
#include "host/check/check.h"
#include "host/profile/partition.h"
#include "host/profile/profile.h"
#include "host/facts/qemu-conf.h"
#include "host/facts/topology.h"
#include "host/tune/tune.h"
#include "util/error.h"
#include "util/runner.h"
#include "tests/testutil.h"

#define FIXTURE "tests/data/check/qemu-conf-two-sched-core"
#define TREE "tests/data/hosts/debian12-2cpu-nosmt-rtgroup"

typedef struct {
    const char *name;
    const char *text;
    const char *key;
    const char *want;       /* ->text of the first statement; NULL: unset */
    unsigned error_line;    /* 0: parses; else the line the error names */
    const char *error_word; /* part of the message */
} SyntaxCase;

static const SyntaxCase syntax_cases[] = {
    { "first-wins", "a = \"x\"\na = \"y\"\n", "a", "x", 0, NULL },
    { "single-quotes", "a = 'x y'\n", "a", "x y", 0, NULL },
    { "triple-quotes", "a = \"\"\"two\nlines\"\"\"\nb = 1\n", "b", "1", 0, NULL },
    { "trailing-comment", "a = \"x\"   # note \"quoted\"\n", "a", "x", 0, NULL },
    { "commented-out", "#a = \"x\"\n  # a = 1\n", "a", NULL, 0, NULL },
    { "semicolon", "a = 1; b = -2\n", "b", "-2", 0, NULL },
    { "list-lines", "l = [ \"a\",\n  'b' ,\n  3, ]\n", "l", "a,b,3", 0, NULL },
    { "empty-list", "l = [ ]\n", "l", "", 0, NULL },
    { "no-newline-at-end", "a = \"x\"", "a", "x", 0, NULL },
    { "crlf", "a = 1\r\nb = 2\r\n", "b", "2", 0, NULL },
    { "comment-in-list", "x = 1\nl = [ \"a\", # no\n \"b\" ]\n", "l", NULL, 2,
      "expecting a value" },
    { "comment-before-comma", "l = [ \"a\" # no\n, \"b\" ]\n", "l", NULL, 1,
      "expecting a separator in list" },
    { "bare-word", "\nsched_core = vcpus\n", "sched_core", NULL, 2, "expecting a value" },
    { "unterminated", "a = \"x\nb = 1\n", "a", NULL, 1, "unterminated string" },
    { "two-on-a-line", "a = 1 b = 2\n", "a", NULL, 1, "expecting a separator" },
    { "no-assignment", "a 1\n", "a", NULL, 1, "expecting an assignment" },
    { "bad-name", "_a = 1\n", "a", NULL, 1, "expecting a name" },
    { "open-list", "l = [ \"a\"\n", "l", NULL, 2, "list is not closed with ]" },
};

static void
test_syntax(gconstpointer data)
{
    const SyntaxCase *c = data;
    g_autoptr(RvQemuConf) conf = NULL;
    g_autoptr(GError) err = NULL;
    int r = rv_host_qemu_conf_parse(c->text, "/etc/libvirt/qemu.conf", &conf, &err);

    if (c->error_line) {
        g_autofree char *prefix = g_strdup_printf("/etc/libvirt/qemu.conf:%u: ", c->error_line);

        g_assert_cmpint(r, ==, -EINVAL);
        g_assert_error(err, RV_ERROR, RV_ERROR_INVALID);
        g_assert_null(conf);
        if (!g_str_has_prefix(err->message, prefix) || !strstr(err->message, c->error_word))
            g_error("%s: got '%s', want '%s%s'", c->name, err->message, prefix, c->error_word);
        return;
    }
    g_assert_no_error(err);
    g_assert_cmpint(r, ==, 0);
    g_assert_cmpstr(rv_host_qemu_conf_get_text(conf, c->key), ==, c->want);
}

/* The fixture as libvirt reads it, and rewritten by the setter. */
static void
test_fixture_parse(void)
{
    g_autofree char *text = rv_test_read_file(FIXTURE "/qemu.conf");
    g_autofree char *set = NULL;
    g_autoptr(RvQemuConf) conf = NULL, back = NULL;
    g_autoptr(GError) err = NULL;
    const RvQemuConfEntry *sc, *cg;
    static const char *const words[] = { "memory", "devices", "cpuset", NULL };
    static const char *const other[] = { "memory", "devices", "cpu", NULL };
    unsigned n_sched_core = 0;

    g_assert_cmpint(rv_host_qemu_conf_parse(text, "qemu.conf", &conf, &err), ==, 0);
    g_assert_no_error(err);
    for (guint i = 0; i < conf->entries->len; i++)
        n_sched_core += strcmp(((RvQemuConfEntry *) conf->entries->pdata[i])->key,
                               "sched_core") == 0;
    g_assert_cmpuint(n_sched_core, ==, 2);
    sc = rv_host_qemu_conf_get(conf, "sched_core");
    g_assert_nonnull(sc);
    g_assert_cmpint(sc->type, ==, RV_QEMU_CONF_STRING);
    g_assert_cmpstr(sc->text, ==, "none");
    g_assert_cmpuint(sc->line, ==, 4);
    g_assert_true(rv_host_qemu_conf_is_string(sc, "none"));
    g_assert_false(rv_host_qemu_conf_is_string(sc, "vcpus"));
    cg = rv_host_qemu_conf_get(conf, "cgroup_controllers");
    g_assert_nonnull(cg);
    g_assert_cmpint(cg->type, ==, RV_QEMU_CONF_LIST);
    g_assert_cmpstr(cg->text, ==, "cpuset,memory,devices");
    g_assert_true(rv_host_qemu_conf_is_words(cg, words));
    g_assert_false(rv_host_qemu_conf_is_words(cg, other));
    g_assert_cmpstr(rv_host_qemu_conf_get_text(conf, "max_processes"), ==, "+0");
    g_assert_cmpstr(rv_host_qemu_conf_get_text(conf, "user"), ==, "qemu");

    /* the setter changes the statement libvirt uses, keeps its comment and
     * every other byte, and leaves the second statement alone */
    set = rv_host_qemu_conf_set(text, "sched_core", "\"vcpus\"", &err);
    g_assert_no_error(err);
    g_assert_nonnull(strstr(set, "\nsched_core = \"vcpus\"    # the distribution's default"));
    g_assert_nonnull(strstr(set, "\nsched_core = 'vcpus'\n"));
    g_assert_cmpuint(strlen(set), ==, strlen(text) + strlen("\"vcpus\"") - strlen("\"none\""));
    g_assert_cmpint(rv_host_qemu_conf_parse(set, "qemu.conf", &back, &err), ==, 0);
    g_assert_cmpstr(rv_host_qemu_conf_get_text(back, "sched_core"), ==, "vcpus");
    g_assert_cmpstr(rv_host_qemu_conf_get_text(back, "cgroup_controllers"), ==,
                    "cpuset,memory,devices");
    {
        g_autofree char *added = rv_host_qemu_conf_set(text, "namespaces", "[ ]", &err);

        g_assert_true(g_str_has_suffix(added, "'vcpus'\n# Set by rtvirt host apply\nnamespaces = [ ]\n"));
    }
    g_assert_null(rv_host_qemu_conf_set("a = b\n", "a", "1", &err));
    g_assert_error(err, RV_ERROR, RV_ERROR_INVALID);
}

static const RvTuneItem *
tune_item(const RvTuneReport *rep, const char *knob)
{
    for (guint i = 0; i < rep->items->len; i++) {
        const RvTuneItem *it = rep->items->pdata[i];

        if (strcmp(it->knob, knob) == 0)
            return it;
    }
    return NULL;
}

static RvTuneStatus
tune_libvirt_status(RvRoot *root, const RvHostProfile *profile)
{
    g_autoptr(RvTopology) topo = NULL;
    g_autoptr(RvHostPartition) part = NULL;
    g_autoptr(RvTuneReport) rep = NULL;
    g_autoptr(RvRunner) runner = rv_runner_new(true);
    g_autoptr(GError) err = NULL;
    const RvTuneItem *it;

    g_assert_cmpint(rv_host_topology_load(root, &topo, &err), ==, 0);
    g_assert_cmpint(rv_host_partition_compute(profile, topo, &part, &err), ==, 0);
    g_assert_cmpint(rv_host_tune_apply(root, NULL, profile, part, runner, true, &rep, &err), ==, 0);
    g_assert_no_error(err);
    it = tune_item(rep, "libvirt qemu.conf");
    g_assert_nonnull(it);
    return it->status;
}

/* check, run and apply on one root with the fixture's qemu.conf. */
static void
test_three_readers_agree(void)
{
    g_autoptr(GError) err = NULL;
    g_autofree char *tmp = g_dir_make_tmp("rv-qemuconf-XXXXXX", &err);
    g_autofree char *root_dir = g_build_filename(tmp, "root", NULL);
    g_autofree char *text = rv_test_read_file(FIXTURE "/qemu.conf");
    g_autofree char *missing = NULL;
    g_autofree char *none_ini = g_build_filename(tmp, "none.ini", NULL);
    g_autoptr(RvRoot) root = NULL;
    g_autoptr(RvHostProfile) vcpus = NULL, none = NULL;
    g_autoptr(RvCheckReport) rep = NULL;
    const RvFinding *f;
    const char *cp[] = { "cp", "-a", TREE, root_dir, NULL };
    gint status = -1;

    g_assert_no_error(err);
    g_assert_true(g_spawn_sync(NULL, (char **) cp, NULL, G_SPAWN_SEARCH_PATH, NULL, NULL, NULL,
                               NULL, &status, &err));
    g_assert_no_error(err);
    g_assert_cmpint(status, ==, 0);
    rv_test_put(root_dir, "etc/libvirt/qemu.conf", text);
    g_assert_cmpint(rv_host_root_open(root_dir, &root, &err), ==, 0);
    g_assert_cmpint(rv_host_profile_load(FIXTURE "/profile.ini", &vcpus, &err), ==, 0);
    g_assert_no_error(err);

    /* host check: the first sched_core, "none" */
    g_assert_cmpint(rv_host_check_run(root, vcpus, &rep, &err), ==, 0);
    f = rv_findings_find(rep->findings, "libvirt.sched-core");
    g_assert_nonnull(f);
    g_assert_cmpstr(f->actual, ==, "none");
    g_assert_null(rv_findings_find(rep->findings, "libvirt.sched-core-unsupported"));

    /* rtvirt run: "none" is no sched_core for scenario coresched = libvirt */
    missing = rv_harness_run_libvirt_sched_core_missing(root);
    g_assert_nonnull(missing);
    g_assert_nonnull(strstr(missing, "sets no sched_core"));

    /* host apply: wanting "vcpus" changes the file, wanting "none" does not */
    g_assert_cmpint(tune_libvirt_status(root, vcpus), ==, RV_TUNE_CHANGED);
    rv_test_put(tmp, "none.ini", "[libvirt]\nsched_core = none\n"
                                 "cgroup_controllers = devices cpuset memory\n");
    g_assert_cmpint(rv_host_profile_load(none_ini, &none, &err), ==, 0);
    g_assert_cmpint(tune_libvirt_status(root, none), ==, RV_TUNE_ALREADY);

    /* the other order: 'vcpus' first, so all three see a sched_core */
    {
        g_auto(GStrv) parts = g_strsplit(text, "sched_core = \"none\"", 2);
        g_autofree char *swapped = g_strjoinv("sched_core = 'vcpus'", parts);
        g_autoptr(RvCheckReport) rep2 = NULL;

        rv_test_put(root_dir, "etc/libvirt/qemu.conf", swapped);
        g_assert_cmpint(rv_host_check_run(root, vcpus, &rep2, &err), ==, 0);
        f = rv_findings_find(rep2->findings, "libvirt.sched-core-unsupported");
        g_assert_nonnull(f);
        g_assert_cmpstr(f->actual, ==, "vcpus");
        g_assert_null(rv_harness_run_libvirt_sched_core_missing(root));
        g_assert_cmpint(tune_libvirt_status(root, none), ==, RV_TUNE_CHANGED);
    }

    /* a file libvirt refuses: each reader says so, none guesses */
    {
        g_autoptr(RvCheckReport) rep3 = NULL;
        g_autofree char *why = NULL;

        rv_test_put(root_dir, "etc/libvirt/qemu.conf", "sched_core = vcpus\n");
        g_assert_cmpint(rv_host_check_run(root, vcpus, &rep3, &err), ==, 0);
        f = rv_findings_find(rep3->findings, "libvirt.qemu-conf-unknown");
        g_assert_nonnull(f);
        g_assert_nonnull(strstr(f->message, "qemu.conf:1: expecting a value"));
        why = rv_harness_run_libvirt_sched_core_missing(root);
        g_assert_nonnull(why);
        g_assert_nonnull(strstr(why, "qemu.conf:1: expecting a value"));
        g_assert_cmpint(tune_libvirt_status(root, vcpus), ==, RV_TUNE_FAILED);
    }
    rv_test_rm_rf(tmp);
}

int
main(int argc, char **argv)
{
    const char *top = g_getenv("RV_TOP");

    g_test_init(&argc, &argv, NULL);
    if (top && chdir(top) < 0)
        g_error("chdir %s: %s", top, g_strerror(errno));
    for (size_t i = 0; i < G_N_ELEMENTS(syntax_cases); i++) {
        g_autofree char *p = g_strdup_printf("/qemuconf/syntax/%s", syntax_cases[i].name);

        g_test_add_data_func(p, &syntax_cases[i], test_syntax);
    }
    g_test_add_func("/qemuconf/fixture", test_fixture_parse);
    g_test_add_func("/qemuconf/check-run-apply-agree", test_three_readers_agree);
    return g_test_run();
}
