/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * tests/test-hostcheck.c: `host check` findings on fixture roots.
 *
 * Each directory tests/data/check/CASE/ holds:
 *   case.conf     [case] topology = KIND:PATH, cmdline = PATH, profile = PATH, tree = PATH
 *                 - topology: "hwloc:FILE" / "text:FILE" / "sysfs:FILE" (a
 *                   `grep -H` dump written as it is; relative to RV_CASES,
 *                   i.e. tests/data/cases) or "synthetic:SxCxT" (S packages x C
 *                   cores x T threads, Linux's usual numbering: thread t of
 *                   core c of package s is CPU t*S*C + s*C + c);
 *                   the test writes the sysfs topology files of a root from it
 *                   and checks that they read back as the same topology;
 *                 - cmdline: a tests/data/cases file copied to /proc/cmdline
 *                   as it is (optional);
 *                 - tree: a directory in tests/data (a captured root, e.g.
 *                   tests/data/hosts/NAME) used INSTEAD of topology/cmdline;
 *                   with a files.dump beside, a copy of it with the dump
 *                   applied on top (a captured host in another state);
 *                 - profile: relative to the repository (or "profile.ini"
 *                   in the case directory, or "tuned:NAME" for the tuned
 *                   profile tests/data/cases/tuned/NAME read against the
 *                   root, host/tuned/tuned.h; its file names print as CASES/...)
 *                 - qemu_conf: a file in the case directory copied to
 *                   /etc/libvirt/qemu.conf of the root as it is (optional;
 *                   tests/test-qemuconf.c reads the same file);
 *   files.dump    optional, `grep -H` lines "/path:value" written into the
 *                 root (a path repeated appends a line), for the effective
 *                 state: /sys/devices/system/cpu/isolated, /proc/irq/...,
 *                 /etc/libvirt/qemu.conf;
 *   expected.txt  rv_host_check_format(verbose) with the root path as ROOT;
 *   expected.json the JSON document, same substitution;
 *   source.txt    where the case comes from and the verdict it must reach;
 *   verdict       the worst level ("WARN") the case must reach, asserted
 *                 independently of the expected files;
 *   must          "LEVEL ID" lines that must be among the findings, and
 *                 "NONE ID" lines for ids that must not appear (from source.txt).
 * RV_REGENERATE=1 rewrites expected.txt/expected.json (review the diff).
 */
#include <errno.h>
#include <string.h>
#include <unistd.h>
#include <glib/gstdio.h>

#include "host/check/check.h"
#include "host/fsroot.h"
#include "host/profile/profile.h"
#include "host/facts/topology.h"
#include "host/tuned/tuned.h"
#include "util/error.h"
#include "tests/testutil.h"

static const char *cases_dir;

static void
write_file(const char *root, const char *hpath, const char *value, bool append)
{
    g_autofree char *file = g_build_filename(root, hpath, NULL);
    g_autofree char *parent = g_path_get_dirname(file);
    g_autoptr(GError) err = NULL;
    FILE *f;

    g_assert_cmpint(g_mkdir_with_parents(parent, 0755), ==, 0);
    f = fopen(file, append ? "ae" : "we");
    g_assert_nonnull(f);
    fprintf(f, "%s\n", value);
    fclose(f);
}

static void
write_set(const char *root, const char *hpath, const RvCpuSet *set)
{
    g_autofree char *l = rv_cpulist_format(set);

    write_file(root, hpath, l, false);
}

/* Sysfs topology files (Documentation/admin-guide/cputopology.rst). */
static void
write_topology(const char *root, const RvTopology *t)
{
    write_set(root, "/sys/devices/system/cpu/possible", &t->possible);
    write_set(root, "/sys/devices/system/cpu/present", &t->present);
    write_set(root, "/sys/devices/system/cpu/online", &t->online);
    write_set(root, "/sys/devices/system/cpu/offline", &t->offline);
    for (guint i = 0; i < t->cores->len; i++) {
        const RvCore *core = &g_array_index(t->cores, RvCore, i);

        rv_cpuset_foreach(cpu, &core->threads) {
            g_autofree char *dir = g_strdup_printf("/sys/devices/system/cpu/cpu%d/topology", cpu);
            g_autofree char *p1 = g_strdup_printf("%s/thread_siblings_list", dir);
            g_autofree char *p2 = g_strdup_printf("%s/core_cpus_list", dir);
            g_autofree char *p3 = g_strdup_printf("%s/core_id", dir);
            g_autofree char *p4 = g_strdup_printf("%s/physical_package_id", dir);
            g_autofree char *v3 = g_strdup_printf("%d", core->core_id);
            g_autofree char *v4 = g_strdup_printf("%d", core->package);
            RvCpuSet on;

            if (!rv_cpuset_isset(&t->online, cpu))
                continue;
            rv_cpuset_and(&on, &core->threads, &t->online);
            write_set(root, p1, &on);
            write_set(root, p2, &on);
            write_file(root, p3, v3, false);
            write_file(root, p4, v4, false);
        }
    }
    for (guint i = 0; i < t->nodes->len; i++) {
        const RvCpuGroup *g = &g_array_index(t->nodes, RvCpuGroup, i);
        g_autofree char *p = g_strdup_printf("/sys/devices/system/node/node%d/cpulist", g->id);
        RvCpuSet on;

        rv_cpuset_and(&on, &g->cpus, &t->online);
        write_set(root, p, &on);
    }
}

/* synthetic:SxCxT */
static void
write_synthetic(const char *root, const char *spec)
{
    unsigned s, c, th;

    g_assert_cmpint(sscanf(spec, "%ux%ux%u", &s, &c, &th), ==, 3);
    {
        unsigned n = s * c * th;
        RvCpuSet all;

        rv_cpuset_zero(&all);
        rv_cpuset_set_range(&all, 0, n - 1);
        write_set(root, "/sys/devices/system/cpu/possible", &all);
        write_set(root, "/sys/devices/system/cpu/present", &all);
        write_set(root, "/sys/devices/system/cpu/online", &all);
        write_file(root, "/sys/devices/system/cpu/offline", "", false);
        for (unsigned cpu = 0; cpu < n; cpu++) {
            unsigned pkg = (cpu % (s * c)) / c, core = cpu % c;
            g_autofree char *dir = g_strdup_printf("/sys/devices/system/cpu/cpu%u/topology", cpu);
            g_autofree char *p1 = g_strdup_printf("%s/thread_siblings_list", dir);
            g_autofree char *p2 = g_strdup_printf("%s/core_cpus_list", dir);
            g_autofree char *p3 = g_strdup_printf("%s/core_id", dir);
            g_autofree char *p4 = g_strdup_printf("%s/physical_package_id", dir);
            g_autofree char *v3 = g_strdup_printf("%u", core);
            g_autofree char *v4 = g_strdup_printf("%u", pkg);
            RvCpuSet sib;

            rv_cpuset_zero(&sib);
            for (unsigned t = 0; t < th; t++)
                rv_cpuset_set(&sib, t * s * c + pkg * c + core);
            write_set(root, p1, &sib);
            write_set(root, p2, &sib);
            write_file(root, p3, v3, false);
            write_file(root, p4, v4, false);
        }
    }
}

static void
apply_dump(const char *root, const char *dump)
{
    g_autofree char *text = NULL;
    g_auto(GStrv) lines = NULL;
    g_autoptr(GHashTable) seen = g_hash_table_new_full(g_str_hash, g_str_equal, g_free, NULL);

    if (!g_file_get_contents(dump, &text, NULL, NULL))
        return;
    lines = g_strsplit(text, "\n", -1);
    for (guint i = 0; lines[i]; i++) {
        const char *colon = strchr(lines[i], ':');
        g_autofree char *path = NULL;
        bool again;

        if (!*lines[i] || lines[i][0] == '#')
            continue;
        if (lines[i][0] != '/' || !colon)
            g_error("%s:%u: expected '/path:value'", dump, i + 1);
        path = g_strndup(lines[i], colon - lines[i]);
        again = g_hash_table_contains(seen, path);
        write_file(root, path, colon + 1, again);
        g_hash_table_add(seen, g_steal_pointer(&path));
    }
}

static void
copy_tree(const char *from, const char *to)
{
    if (g_file_test(from, G_FILE_TEST_IS_SYMLINK)) {
        g_autofree char *target = g_file_read_link(from, NULL);

        g_assert_nonnull(target);
        g_assert_cmpint(symlink(target, to), ==, 0);
    } else if (g_file_test(from, G_FILE_TEST_IS_DIR)) {
        g_autoptr(GDir) d = g_dir_open(from, 0, NULL);
        const char *n;

        g_assert_cmpint(g_mkdir_with_parents(to, 0755), ==, 0);
        while (d && (n = g_dir_read_name(d))) {
            g_autofree char *a = g_build_filename(from, n, NULL);
            g_autofree char *b = g_build_filename(to, n, NULL);
            copy_tree(a, b);
        }
    } else {
        g_autofree char *data = NULL;
        gsize len = 0;

        g_assert_true(g_file_get_contents(from, &data, &len, NULL));
        g_assert_true(g_file_set_contents(to, data, len, NULL));
    }
}

static char *
replace_all(const char *text, const char *what, const char *with)
{
    g_auto(GStrv) parts = g_strsplit(text, what, -1);

    return g_strjoinv(with, parts);
}

static void
test_case(gconstpointer data)
{
    const char *dir = data;
    g_autofree char *conf = g_build_filename(dir, "case.conf", NULL);
    g_autoptr(GKeyFile) kf = g_key_file_new();
    g_autoptr(GError) err = NULL;
    g_autofree char *topo_spec = NULL, *cmdline = NULL, *prof = NULL, *tree = NULL;
    g_autofree char *tmp = NULL, *root_dir = NULL, *dump = NULL, *verdict_path = NULL;
    g_autofree char *verdict = NULL, *text = NULL, *human = NULL, *json = NULL;
    g_autofree char *exp_txt = NULL, *exp_json = NULL, *qconf = NULL;
    g_autoptr(RvHostProfile) profile = NULL;
    g_autoptr(RvRoot) root = NULL;
    g_autoptr(RvCheckReport) rep = NULL;

    g_assert_true(g_key_file_load_from_file(kf, conf, 0, &err));
    topo_spec = g_key_file_get_string(kf, "case", "topology", NULL);
    cmdline = g_key_file_get_string(kf, "case", "cmdline", NULL);
    prof = g_key_file_get_string(kf, "case", "profile", &err);
    g_assert_no_error(err);
    tree = g_key_file_get_string(kf, "case", "tree", NULL);

    if (tree && !g_file_test(dump = g_build_filename(dir, "files.dump", NULL), G_FILE_TEST_EXISTS)) {
        root_dir = g_strdup(tree);
    } else if (tree) {
        /* a captured tree with changes on top: copy, then apply files.dump */
        tmp = g_dir_make_tmp("rv-hostcheck-XXXXXX", &err);
        g_assert_no_error(err);
        root_dir = g_build_filename(tmp, "root", NULL);
        copy_tree(tree, root_dir);
        apply_dump(root_dir, dump);
    } else {
        tmp = g_dir_make_tmp("rv-hostcheck-XXXXXX", &err);
        g_assert_no_error(err);
        root_dir = g_build_filename(tmp, "root", NULL);
        g_assert_cmpint(g_mkdir_with_parents(root_dir, 0755), ==, 0);
        g_assert_nonnull(topo_spec);
        if (g_str_has_prefix(topo_spec, "synthetic:")) {
            write_synthetic(root_dir, topo_spec + 10);
        } else if (g_str_has_prefix(topo_spec, "sysfs:")) {
            /* a `grep -H` sysfs dump from the cases, as it is */
            g_autofree char *path = g_build_filename(cases_dir, topo_spec + 6, NULL);

            g_assert_cmpint(rv_host_sysfs_dump_to_tree(path, root_dir, &err), >, 0);
            g_assert_no_error(err);
        } else {
            g_autoptr(RvTopology) src = NULL, back = NULL;
            g_autoptr(RvRoot) r = NULL;
            g_autofree char *path = g_build_filename(cases_dir, strchr(topo_spec, ':') + 1, NULL);
            g_autofree char *a = NULL, *b = NULL;

            g_assert_cmpint(rv_host_topology_load_file(path, &src, &err), ==, 0);
            g_assert_no_error(err);
            write_topology(root_dir, src);
            /* the written tree reads back as the same machine */
            g_assert_cmpint(rv_host_root_open(root_dir, &r, &err), ==, 0);
            g_assert_cmpint(rv_host_topology_load(r, &back, &err), ==, 0);
            a = rv_host_topology_format(src);
            b = rv_host_topology_format(back);
            {
                /* the source line differs by construction */
                char *na = strchr(a, '\n'), *nb = strchr(b, '\n');
                g_assert_cmpstr(g_str_has_prefix(a, "source") ? na : a, ==,
                                g_str_has_prefix(b, "source") ? nb : b);
            }
        }
        if (cmdline) {
            g_autofree char *path = g_build_filename(cases_dir, cmdline, NULL);
            g_autofree char *line = NULL;

            g_assert_true(g_file_get_contents(path, &line, NULL, &err));
            write_file(root_dir, "/proc/cmdline", g_strchomp(line), false);
        }
        g_free(dump);
        dump = g_build_filename(dir, "files.dump", NULL);
        apply_dump(root_dir, dump);
    }

    qconf = g_key_file_get_string(kf, "case", "qemu_conf", NULL);
    if (qconf) {
        g_autofree char *src = g_build_filename(dir, qconf, NULL);
        g_autofree char *contents = NULL;

        if (!tmp) {
            /* a tree used as it is: copy it, the fixture stays untouched */
            tmp = g_dir_make_tmp("rv-hostcheck-XXXXXX", &err);
            g_assert_no_error(err);
            g_free(root_dir);
            root_dir = g_build_filename(tmp, "root", NULL);
            copy_tree(tree, root_dir);
        }
        g_assert_true(g_file_get_contents(src, &contents, NULL, &err));
        rv_test_put(root_dir, "etc/libvirt/qemu.conf", contents);
    }

    if (g_str_has_prefix(prof, "tuned:")) {
        /* a tuned profile of tests/data/cases/tuned, read against the root */
        g_autofree char *p = g_build_filename(cases_dir, "tuned", prof + 6, NULL);
        g_autoptr(RvRoot) r = NULL;

        g_assert_cmpint(rv_host_root_open(root_dir, &r, &err), ==, 0);
        if (rv_host_tuned_load(r, p, &profile, &err) < 0)
            g_error("%s: %s", dir, err->message);
    } else if (strcmp(prof, "profile.ini") == 0) {
        g_autofree char *p = g_build_filename(dir, prof, NULL);
        g_assert_cmpint(rv_host_profile_load(p, &profile, &err), ==, 0);
    } else {
        g_assert_cmpint(rv_host_profile_load(prof, &profile, &err), ==, 0);
    }
    g_assert_no_error(err);
    g_assert_cmpint(rv_host_root_open(root_dir, &root, &err), ==, 0);
    if (rv_host_check_run(root, profile, &rep, &err) < 0)
        g_error("%s: %s", dir, err->message);

    text = rv_host_check_format(rep, true);
    human = replace_all(text, root_dir, "ROOT");
    if (g_str_has_prefix(prof, "tuned:")) {
        /* tuned profiles name their files under the cases */
        char *h = replace_all(human, cases_dir, "CASES");

        g_free(human);
        human = h;
    }
    {
        g_autoptr(JsonNode) node = rv_host_check_to_json(rep);
        g_autoptr(JsonGenerator) gen = json_generator_new();
        g_autofree char *j = NULL;

        json_generator_set_pretty(gen, TRUE);
        json_generator_set_root(gen, node);
        j = json_generator_to_data(gen, NULL);
        json = g_strdup_printf("%s\n", j);
        g_free(j);
        j = replace_all(json, root_dir, "ROOT");
        g_free(json);
        json = g_str_has_prefix(prof, "tuned:") ? replace_all(j, cases_dir, "CASES")
                                                : g_strdup(j);
        g_clear_pointer(&j, g_free);
    }
    exp_txt = g_build_filename(dir, "expected.txt", NULL);
    exp_json = g_build_filename(dir, "expected.json", NULL);
    rv_test_compare_expected(exp_txt, human);
    rv_test_compare_expected(exp_json, json);

    /* the verdict written from source.txt, independent of the expected files */
    verdict_path = g_build_filename(dir, "verdict", NULL);
    g_assert_true(g_file_get_contents(verdict_path, &verdict, NULL, &err));
    g_assert_cmpstr(g_strstrip(verdict), ==, rv_finding_level_name(rv_findings_worst(rep->findings)));
    {
        g_autofree char *must = g_build_filename(dir, "must", NULL);
        g_autofree char *m = NULL;

        /* "LEVEL ID" lines that must be among the findings */
        if (g_file_get_contents(must, &m, NULL, NULL)) {
            g_auto(GStrv) lines = g_strsplit(m, "\n", -1);

            for (guint i = 0; lines[i]; i++) {
                g_auto(GStrv) w = g_strsplit(g_strstrip(lines[i]), " ", 2);
                bool found = false;

                if (!w[0] || !*w[0] || w[0][0] == '#')
                    continue;
                g_assert_nonnull(w[1]);
                if (strcmp(w[0], "NONE") == 0) {
                    /* "NONE ID": no finding with that id at any level */
                    if (rv_findings_find(rep->findings, w[1]))
                        g_error("%s: unexpected finding '%s'", dir, w[1]);
                    continue;
                }
                for (guint k = 0; k < rep->findings->items->len && !found; k++) {
                    const RvFinding *f = rep->findings->items->pdata[k];
                    found = strcmp(f->id, w[1]) == 0 &&
                            strcmp(rv_finding_level_name(f->level), w[0]) == 0;
                }
                if (!found)
                    g_error("%s: no finding '%s %s'", dir, w[0], w[1]);
            }
        }
    }
    if (tmp)
        rv_test_rm_rf(tmp);
}

int
main(int argc, char **argv)
{
    const char *top = g_getenv("RV_TOP");
    g_autoptr(GDir) d = NULL;
    g_autoptr(GPtrArray) names = g_ptr_array_new_with_free_func(g_free);
    const char *n;

    g_test_init(&argc, &argv, NULL);
    if (top && chdir(top) < 0)
        g_error("chdir %s: %s", top, g_strerror(errno));
    cases_dir = rv_test_cases_dir();
    d = g_dir_open("tests/data/check", 0, NULL);
    g_assert_nonnull(d);
    while ((n = g_dir_read_name(d))) {
        g_autofree char *conf = g_build_filename("tests/data/check", n, "case.conf", NULL);

        if (g_file_test(conf, G_FILE_TEST_EXISTS))
            g_ptr_array_add(names, g_strdup(n));
    }
    g_ptr_array_sort(names, rv_test_cmp_names);
    for (guint i = 0; i < names->len; i++) {
        char *dir = g_build_filename("tests/data/check", names->pdata[i], NULL);
        g_autofree char *tp = g_strdup_printf("/hostcheck/%s", (char *) names->pdata[i]);

        g_test_add_data_func_full(tp, dir, test_case, g_free);
    }
    return g_test_run();
}
