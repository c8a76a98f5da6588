/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * tests/test-topology.c: every topology in tests/data/cases/topology, loaded
 * through the loader that fits its format, compared with
 * tests/data/topology/<case>.expected (RV_REGENERATE=1 rewrites those), and
 * the facts its .source.txt states, written down in
 * tests/data/topology/<case>.facts, checked one by one.
 *
 * The shape is libvirt's tests/virhostcputest.c (one nodeData[] row per
 * fixture, each compared with its expected output), with the row moved into
 * a file beside the expected output: a field case becomes a fixture, a
 * .facts file and an .expected file, without new C.  Every case must have a
 * .facts file and every .facts file a case.
 *
 * A .facts file holds one fact per line, "KEY [ARG] VALUE" ('#' starts a
 * comment).  VALUE is compared as text with what the loader gives; a CPU
 * set is written as rv_cpulist_format() writes it, "(empty)" for none:
 *   online|offline|possible|present LIST   the topology's CPU sets
 *   online-count N                         CPUs online
 *   online-has CPU yes|no                  CPU in the online set
 *   packages|cores|nodes N                 number of groups
 *   threads-per-core N, min-threads-per-core N, nr-cpu-ids N
 *   smt yes|no, has-possible yes|no
 *   siblings CPU LIST                      SMT siblings of CPU (CPU included)
 *   sibling-of CPU N                       rv_host_topology_sibling_map()'s
 *                                          entry for CPU (-1: none)
 *   with-sibling N                         CPUs that have one, nr_cpu_ids map
 *   pairs STRIDE                           siblings of N and N+STRIDE are
 *                                          "N,N+STRIDE" for N < STRIDE
 *   package ID LIST, node ID LIST          the CPUs of package/node ID
 *   package-at INDEX LIST                  the CPUs of the INDEX-th package
 *   package-of CPU ID, node-of CPU ID      -1 when unknown
 *   core-id CPU ID|none                    core_id of CPU's core, none: no core
 *   source-prefix TEXT, source-suffix TEXT where the topology says it came from
 */
#include <errno.h>
#include <glib/gstdio.h>
#include <string.h>

#include <hwloc.h>

#include "host/facts/topology.h"
#include "util/error.h"
#include "tests/testutil.h"

static char *
set_text(const RvCpuSet *set)
{
    char *s = rv_cpulist_format(set);

    if (*s)
        return s;
    g_free(s);
    return g_strdup("(empty)");
}

static const RvCpuGroup *
group_by_id(GArray *groups, int id)
{
    for (guint i = 0; i < groups->len; i++) {
        const RvCpuGroup *g = &g_array_index(groups, RvCpuGroup, i);
        if (g->id == id)
            return g;
    }
    return NULL;
}

static char *
siblings_text(const RvTopology *t, unsigned cpu)
{
    RvCpuSet s;

    if (rv_host_topology_siblings(t, cpu, &s) != 0)
        return g_strdup("(error)");
    return set_text(&s);
}

static const char *
yes_no(bool b)
{
    return b ? "yes" : "no";
}

/* What the topology says for @key with argument @arg (NULL for keys
 * without one); NULL for an unknown key. */
static char *
fact_value(const RvTopology *t, const char *where, const char *key, const char *arg)
{
    if (!arg) {
        if (!strcmp(key, "online")) return set_text(&t->online);
        if (!strcmp(key, "offline")) return set_text(&t->offline);
        if (!strcmp(key, "possible")) return set_text(&t->possible);
        if (!strcmp(key, "present")) return set_text(&t->present);
        if (!strcmp(key, "online-count")) return g_strdup_printf("%u", rv_cpuset_count(&t->online));
        if (!strcmp(key, "packages")) return g_strdup_printf("%u", t->packages->len);
        if (!strcmp(key, "cores")) return g_strdup_printf("%u", t->cores->len);
        if (!strcmp(key, "nodes")) return g_strdup_printf("%u", t->nodes->len);
        if (!strcmp(key, "threads-per-core")) return g_strdup_printf("%u", t->threads_per_core);
        if (!strcmp(key, "min-threads-per-core")) return g_strdup_printf("%u", t->min_threads_per_core);
        if (!strcmp(key, "nr-cpu-ids")) return g_strdup_printf("%u", t->nr_cpu_ids);
        if (!strcmp(key, "smt")) return g_strdup(yes_no(t->smt));
        if (!strcmp(key, "has-possible")) return g_strdup(yes_no(t->has_possible));
        if (!strcmp(key, "with-sibling")) {
            g_autofree int *map = g_new(int, t->nr_cpu_ids + 1);

            return g_strdup_printf("%u", rv_host_topology_sibling_map(t, map, t->nr_cpu_ids));
        }
        if (!strcmp(key, "source-prefix") || !strcmp(key, "source-suffix")) return g_strdup(t->source);
        return NULL;
    }
    if (!strcmp(key, "siblings"))
        return siblings_text(t, rv_test_fact_uint(where, arg));
    if (!strcmp(key, "sibling-of")) {
        g_autofree int *map = g_new(int, t->nr_cpu_ids + 1);
        guint cpu = rv_test_fact_uint(where, arg);

        rv_host_topology_sibling_map(t, map, t->nr_cpu_ids);
        return cpu < t->nr_cpu_ids ? g_strdup_printf("%d", map[cpu]) : g_strdup("(out of range)");
    }
    if (!strcmp(key, "online-has"))
        return g_strdup(yes_no(rv_cpuset_isset(&t->online, rv_test_fact_uint(where, arg))));
    if (!strcmp(key, "package") || !strcmp(key, "node")) {
        const RvCpuGroup *g = group_by_id(!strcmp(key, "node") ? t->nodes : t->packages,
                                          (int) rv_test_fact_uint(where, arg));
        return g ? set_text(&g->cpus) : g_strdup("(no such group)");
    }
    if (!strcmp(key, "package-at")) {
        unsigned i = rv_test_fact_uint(where, arg);

        return i < t->packages->len ? set_text(&g_array_index(t->packages, RvCpuGroup, i).cpus)
                                    : g_strdup("(no such package)");
    }
    if (!strcmp(key, "package-of"))
        return g_strdup_printf("%d", rv_host_topology_package_of(t, rv_test_fact_uint(where, arg)));
    if (!strcmp(key, "node-of"))
        return g_strdup_printf("%d", rv_host_topology_node_of(t, rv_test_fact_uint(where, arg)));
    if (!strcmp(key, "core-id")) {
        const RvCore *c = rv_host_topology_core_of(t, rv_test_fact_uint(where, arg));

        return c ? g_strdup_printf("%d", c->core_id) : g_strdup("none");
    }
    return NULL;
}

static void
check_fact_text(const char *where, const char *key, const char *got, const char *want)
{
    bool ok = !strcmp(key, "source-prefix") ? g_str_has_prefix(got, want)
            : !strcmp(key, "source-suffix") ? g_str_has_suffix(got, want)
            : strcmp(got, want) == 0;

    if (!ok)
        g_test_message("%s: the loader gives '%s'", where, got);
    if (!strcmp(key, "source-prefix") || !strcmp(key, "source-suffix"))
        g_assert_true(ok);
    else
        g_assert_cmpstr(got, ==, want);
}

/* pairs STRIDE: the siblings of N and N+STRIDE are "N,N+STRIDE" */
static void
check_pairs(const RvTopology *t, const char *where, unsigned stride)
{
    for (unsigned n = 0; n < stride; n++) {
        g_autofree char *exp = g_strdup_printf("%u,%u", n, n + stride);
        g_autofree char *a = siblings_text(t, n);
        g_autofree char *b = siblings_text(t, n + stride);

        check_fact_text(where, "pairs", a, exp);
        check_fact_text(where, "pairs", b, exp);
    }
}

/* Checks every fact of @facts_path; returns how many there were. */
static guint
check_facts(const RvTopology *t, const char *facts_path)
{
    g_autofree char *text = rv_test_read_file(facts_path);
    g_auto(GStrv) lines = g_strsplit(text, "\n", -1);
    guint n = 0;

    for (guint ln = 0; lines[ln]; ln++) {
        g_autofree char *where = g_strdup_printf("%s:%u", facts_path, ln + 1);
        g_autofree char *line = g_strstrip(g_strdup(lines[ln]));
        g_auto(GStrv) tok = NULL;
        g_autofree char *got = NULL;
        const char *arg, *want;
        guint nt;

        if (!*line || line[0] == '#')
            continue;
        tok = g_strsplit_set(line, " \t", -1);
        {   /* drop empty tokens: runs of blanks */
            guint j = 0;

            for (guint i = 0; tok[i]; i++) {
                if (*tok[i])
                    tok[j++] = tok[i];
                else
                    g_free(tok[i]);
            }
            tok[j] = NULL;
            nt = j;
        }
        if (nt < 2 || nt > 3)
            g_test_message("%s: not 'KEY [ARG] VALUE': '%s'", where, line);
        g_assert_true(nt == 2 || nt == 3);
        n++;
        if (!strcmp(tok[0], "pairs") && nt == 2) {
            check_pairs(t, where, rv_test_fact_uint(where, tok[1]));
            continue;
        }
        arg = nt == 3 ? tok[1] : NULL;
        want = tok[nt - 1];
        got = fact_value(t, where, tok[0], arg);
        if (!got)
            g_test_message("%s: unknown fact '%s'", where, line);
        g_assert_nonnull(got);
        check_fact_text(where, tok[0], got, want);
    }
    return n;
}

/* One case: its .facts, then the whole topology against its .expected. */
static void
test_case(gconstpointer data)
{
    const char *name = data;
    g_autoptr(RvTopology) t = rv_test_load_topology_case(name);
    g_autofree char *facts = g_strdup_printf("%s/tests/data/topology/%s.facts", rv_test_top_dir(), name);
    g_autofree char *got = rv_host_topology_format(t);
    g_autofree char *exp_path = g_strdup_printf("%s/tests/data/topology/%s.expected",
                                                rv_test_top_dir(), name);

    g_assert_cmpuint(check_facts(t, facts), >, 0);
    rv_test_compare_expected(exp_path, got);
}

/* Every case has its .facts, and every .facts file its case. */
static void
test_all_cases_covered(void)
{
    g_autoptr(GPtrArray) names = rv_test_case_names("topology");
    g_autofree char *dir = g_build_filename(rv_test_top_dir(), "tests", "data", "topology", NULL);
    g_autoptr(GDir) d = g_dir_open(dir, 0, NULL);
    guint n_facts = 0;

    g_assert_nonnull(d);
    for (guint i = 0; i < names->len; i++) {
        g_autofree char *f = g_strdup_printf("%s/%s.facts", dir, (char *) names->pdata[i]);

        if (!g_file_test(f, G_FILE_TEST_EXISTS))
            g_test_message("topology case without facts: %s", f);
        g_assert_true(g_file_test(f, G_FILE_TEST_EXISTS));
    }
    for (const char *n; (n = g_dir_read_name(d));) {
        g_autofree char *c = NULL;
        bool found = false;

        if (!g_str_has_suffix(n, ".facts"))
            continue;
        n_facts++;
        c = g_strndup(n, strlen(n) - strlen(".facts"));
        for (guint i = 0; i < names->len; i++)
            found = found || !strcmp(names->pdata[i], c);
        if (!found)
            g_test_message("facts without a topology case: %s", n);
        g_assert_true(found);
    }
    g_assert_cmpuint(n_facts, ==, names->len);
}

/* Malformed sysfs values name the file and the value. */
static void
test_malformed(void)
{
    g_autoptr(GError) err = NULL;
    g_autofree char *tmp = g_dir_make_tmp("rv-topo-bad-XXXXXX", &err);
    g_autofree char *dump = g_build_filename(tmp, "dump.txt", NULL);
    g_autofree char *tree = g_build_filename(tmp, "tree", NULL);
    g_autoptr(RvRoot) root = NULL;
    RvTopology *t = NULL;
    int r;

    g_assert_no_error(err);
    g_file_set_contents(dump,
                        "/sys/devices/system/cpu/online:0-1\n"
                        "/sys/devices/system/cpu/possible:0-1\n"
                        "/sys/devices/system/cpu/cpu0/topology/core_id:0\n"
                        "/sys/devices/system/cpu/cpu0/topology/thread_siblings_list:0-x\n",
                        -1, &err);
    g_assert_no_error(err);
    g_assert_cmpint(rv_host_sysfs_dump_to_tree(dump, tree, &err), ==, 4);
    r = rv_host_root_open(tree, &root, &err);
    g_assert_no_error(err);
    r = rv_host_topology_load(root, &t, &err);
    g_assert_cmpint(r, ==, -EINVAL);
    g_assert_null(t);
    g_assert_error(err, RV_ERROR, RV_ERROR_INVALID);
    g_assert_nonnull(strstr(err->message, "cpu0/topology/thread_siblings_list"));
    g_assert_nonnull(strstr(err->message, "'0-x'"));
    g_clear_error(&err);
    /* the same through rv_host_topology_load_file(): the loader's error */
    r = rv_host_topology_load_file(dump, &t, &err);
    g_assert_cmpint(r, ==, -EINVAL);
    g_assert_null(t);
    g_assert_error(err, RV_ERROR, RV_ERROR_INVALID);
    g_assert_nonnull(strstr(err->message, "cpu0/topology/thread_siblings_list"));
    g_assert_nonnull(strstr(err->message, "'0-x'"));
    g_clear_error(&err);

    /* a bad dump line names FILE:LINE */
    g_file_set_contents(dump, "/sys/devices/system/cpu/online:0\nbogus\n", -1, &err);
    g_assert_cmpint(rv_host_sysfs_dump_to_tree(dump, tree, &err), ==, -EINVAL);
    g_assert_nonnull(strstr(err->message, "dump.txt:2:"));
    g_clear_error(&err);
    r = rv_host_topology_load_file(dump, &t, &err);
    g_assert_cmpint(r, ==, -EINVAL);
    g_assert_null(t);
    g_assert_error(err, RV_ERROR, RV_ERROR_INVALID);
    g_assert_nonnull(strstr(err->message, "dump.txt:2:"));
    g_clear_error(&err);

    /* a missing file is a failure naming it */
    {
        g_autofree char *missing = g_build_filename(tmp, "missing.txt", NULL);

        r = rv_host_topology_load_file(missing, &t, &err);
        g_assert_cmpint(r, ==, -ENOENT);
        g_assert_null(t);
        g_assert_error(err, RV_ERROR, RV_ERROR_FAILED);
        g_assert_nonnull(strstr(err->message, "missing.txt"));
        g_clear_error(&err);
    }

    /* an empty directory is no host */
    {
        g_autofree char *empty = g_build_filename(tmp, "empty", NULL);
        g_autoptr(RvRoot) eroot = NULL;

        g_mkdir(empty, 0755);
        r = rv_host_root_open(empty, &eroot, &err);
        g_assert_no_error(err);
        r = rv_host_topology_load(eroot, &t, &err);
        g_assert_cmpint(r, <, 0);
        g_assert_nonnull(err);
        g_clear_error(&err);
    }
    rv_test_rm_rf(tmp);
}

/* The live host (this machine or whatever runs the test): loads, every
 * online CPU has a core, and hwloc's own view agrees on the PU count. */
static void
test_live(void)
{
    g_autoptr(RvRoot) root = NULL;
    g_autoptr(RvTopology) t = NULL;
    g_autoptr(GError) err = NULL;
    hwloc_topology_t ht;

    g_assert_cmpint(rv_host_root_open("/", &root, &err), ==, 0);
    g_assert_cmpint(rv_host_topology_load(root, &t, &err), ==, 0);
    g_assert_no_error(err);
    rv_cpuset_foreach(cpu, &t->online) {
        g_assert_nonnull(rv_host_topology_core_of(t, cpu));
    }
    g_assert_cmpint(hwloc_topology_init(&ht), ==, 0);
    g_assert_cmpint(hwloc_topology_load(ht), ==, 0);
    g_assert_cmpint(hwloc_get_nbobjs_by_type(ht, HWLOC_OBJ_PU), ==, (int) rv_cpuset_count(&t->online));
    g_assert_cmpint(hwloc_get_nbobjs_by_type(ht, HWLOC_OBJ_CORE), ==, (int) t->cores->len);
    hwloc_topology_destroy(ht);
}

int
main(int argc, char **argv)
{
    g_autoptr(GPtrArray) names = NULL;

    g_test_init(&argc, &argv, NULL);
    names = rv_test_case_names("topology");
    g_test_add_func("/topology/cases-covered", test_all_cases_covered);
    for (guint i = 0; i < names->len; i++) {
        g_autofree char *path = g_strdup_printf("/topology/case/%s", (char *) names->pdata[i]);

        g_test_add_data_func(path, names->pdata[i], test_case);
    }
    g_test_add_func("/topology/malformed", test_malformed);
    g_test_add_func("/topology/live", test_live);
    return g_test_run();
}
