/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * tests/test-topology.c: every topology in ../shared/cases/topology, loaded
 * through the loader that fits its format, compared with
 * tests/data/topology/<case>.expected (RV_REGENERATE=1 rewrites those), and
 * the facts each case's .source.txt states checked one by one.
 */
#include <errno.h>
#include <glib/gstdio.h>
#include <string.h>

#include <hwloc.h>

#include "host/topology.h"
#include "util/error.h"
#include "tests/testutil.h"

static void
check_expected(const char *name, const RvTopology *t)
{
    g_autofree char *got = rv_host_topology_format(t);
    g_autofree char *exp_path = g_strdup_printf("%s/tests/data/topology/%s.expected",
                                                rv_test_top_dir(), name);

    rv_test_compare_expected(exp_path, got);
}

static void
assert_set(const RvCpuSet *set, const char *expected)
{
    g_autofree char *got = rv_cpulist_format(set);
    g_assert_cmpstr(got, ==, expected);
}

static void
assert_siblings(const RvTopology *t, unsigned cpu, const char *expected)
{
    RvCpuSet s;

    g_assert_cmpint(rv_host_topology_siblings(t, cpu, &s), ==, 0);
    assert_set(&s, expected);
}

static void
assert_package(const RvTopology *t, int id, const char *expected)
{
    for (guint i = 0; i < t->packages->len; i++) {
        const RvCpuGroup *g = &g_array_index(t->packages, RvCpuGroup, i);
        if (g->id == id) {
            assert_set(&g->cpus, expected);
            return;
        }
    }
    g_assert_not_reached();
}

static void
assert_node(const RvTopology *t, int id, const char *expected)
{
    for (guint i = 0; i < t->nodes->len; i++) {
        const RvCpuGroup *g = &g_array_index(t->nodes, RvCpuGroup, i);
        if (g->id == id) {
            assert_set(&g->cpus, expected);
            return;
        }
    }
    g_assert_not_reached();
}

/* Siblings are N and N+@stride for N in [0, @stride). */
static void
assert_pairs(const RvTopology *t, unsigned stride)
{
    for (unsigned n = 0; n < stride; n++) {
        g_autofree char *exp = g_strdup_printf("%u,%u", n, n + stride);
        assert_siblings(t, n, exp);
        assert_siblings(t, n + stride, exp);
    }
}

/* ---- one function per case: the facts of its .source.txt ------------- */

static void
test_hwloc_offlines(void)
{
    const char *name = "hwloc-16em64t-4s2c2t-offlines.xml";
    g_autoptr(RvTopology) t = rv_test_load_topology_case(name);

    assert_set(&t->online, "0-1,3-4,6-12,15");
    assert_set(&t->possible, "0-15");
    assert_set(&t->offline, "2,5,13-14");
    g_assert_cmpuint(t->packages->len, ==, 4);
    g_assert_cmpuint(t->cores->len, ==, 7);
    g_assert_cmpuint(rv_cpuset_count(&t->online), ==, 12);
    assert_siblings(t, 0, "0,8");
    assert_siblings(t, 4, "4,12");
    assert_siblings(t, 1, "1,9");
    assert_siblings(t, 3, "3,11");
    assert_siblings(t, 7, "7,15");
    assert_siblings(t, 6, "6");
    assert_siblings(t, 10, "10");
    g_assert_cmpint(rv_host_topology_package_of(t, 6), ==, 2);
    g_assert_cmpint(rv_host_topology_package_of(t, 10), ==, 2);
    g_assert_cmpint(rv_host_topology_package_of(t, 11), ==, 3);
    g_assert_null(rv_host_topology_core_of(t, 2));
    check_expected(name, t);
}

static void
test_hwloc_epyc(void)
{
    const char *name = "hwloc-AMD-Zen-2xEpyc-7451.xml";
    g_autoptr(RvTopology) t = rv_test_load_topology_case(name);

    g_assert_cmpuint(rv_cpuset_count(&t->online), ==, 96);
    g_assert_cmpuint(t->packages->len, ==, 2);
    g_assert_cmpuint(t->cores->len, ==, 48);
    g_assert_cmpuint(t->threads_per_core, ==, 2);
    assert_pairs(t, 48);
    assert_package(t, 0, "0-23,48-71");
    assert_package(t, 1, "24-47,72-95");
    /* core ids skip: 3 of 4 cores per CCX enabled */
    g_assert_cmpint(rv_host_topology_core_of(t, 0)->core_id, ==, 0);
    g_assert_cmpint(rv_host_topology_core_of(t, 2)->core_id, ==, 2);
    g_assert_cmpint(rv_host_topology_core_of(t, 3)->core_id, ==, 4);
    check_expected(name, t);
}

static void
test_hwloc_skylake(void)
{
    const char *name = "hwloc-Intel-Skylake-2xXeon6140.xml";
    g_autoptr(RvTopology) t = rv_test_load_topology_case(name);
    RvCpuSet even, odd;

    g_assert_cmpuint(rv_cpuset_count(&t->online), ==, 72);
    g_assert_cmpuint(t->packages->len, ==, 2);
    g_assert_cmpuint(t->cores->len, ==, 36);
    assert_pairs(t, 36);
    assert_siblings(t, 2, "2,38");
    rv_cpuset_zero(&even);
    rv_cpuset_zero(&odd);
    for (unsigned c = 0; c < 72; c++)
        rv_cpuset_set(c % 2 ? &odd : &even, c);
    g_assert_true(rv_cpuset_equal(&g_array_index(t->packages, RvCpuGroup, 0).cpus, &even));
    g_assert_true(rv_cpuset_equal(&g_array_index(t->packages, RvCpuGroup, 1).cpus, &odd));
    g_assert_cmpint(rv_host_topology_package_of(t, 38), ==, 0);
    check_expected(name, t);
}

static void
test_lscpu_e_rinha(void)
{
    const char *name = "lscpu-e-and-siblings-4cpu-rinha398.txt";
    g_autoptr(RvTopology) t = rv_test_load_topology_case(name);

    g_assert_cmpuint(rv_cpuset_count(&t->online), ==, 4);
    g_assert_cmpuint(t->packages->len, ==, 1);
    g_assert_cmpuint(t->cores->len, ==, 2);
    assert_pairs(t, 2);
    check_expected(name, t);
}

static void
test_lscpu_amd_elided(void)
{
    const char *name = "lscpu-extended-amd-2socket-n-n64-elided.txt";
    g_autoptr(RvTopology) t = rv_test_load_topology_case(name);

    /* rows 7-63 and 71-122 are elided: only the listed rows are known */
    g_assert_cmpuint(t->nr_cpu_ids, ==, 128);
    g_assert_cmpuint(rv_cpuset_count(&t->online), ==, 19);
    g_assert_false(t->has_possible);
    for (unsigned n = 0; n <= 6; n++) {
        g_autofree char *exp = g_strdup_printf("%u,%u", n, n + 64);
        assert_siblings(t, n, exp);
        g_assert_cmpint(rv_host_topology_package_of(t, n), ==, (int) (n % 2));
        g_assert_cmpint(rv_host_topology_node_of(t, n), ==, (int) (n % 2));
    }
    assert_siblings(t, 123, "123");   /* its sibling 59 is elided */
    assert_siblings(t, 127, "127");
    g_assert_cmpint(rv_host_topology_core_of(t, 127)->core_id, ==, 63);
    check_expected(name, t);
}

static void
test_lscpu_power7(void)
{
    const char *name = "lscpu-ppc64-POWER7.txt";
    g_autoptr(RvTopology) t = rv_test_load_topology_case(name);

    g_assert_cmpuint(rv_cpuset_count(&t->online), ==, 16);
    g_assert_cmpuint(t->cores->len, ==, 4);
    g_assert_cmpuint(t->threads_per_core, ==, 4);
    assert_siblings(t, 0, "0-3");
    assert_siblings(t, 5, "4-7");
    assert_siblings(t, 10, "8-11");
    assert_siblings(t, 15, "12-15");
    assert_node(t, 0, "0-15");
    check_expected(name, t);
}

static void
test_lscpu_s390(void)
{
    const char *name = "lscpu-s390-lpar.txt";
    g_autoptr(RvTopology) t = rv_test_load_topology_case(name);

    assert_set(&t->online, "1-5,8-19");
    assert_set(&t->offline, "0,6-7");
    g_assert_cmpuint(t->nr_cpu_ids, ==, 20);
    g_assert_false(t->smt);
    g_assert_cmpuint(t->threads_per_core, ==, 1);
    g_assert_false(rv_cpuset_isset(&t->online, 0));
    g_assert_cmpuint(t->nodes->len, ==, 0);
    check_expected(name, t);
}

static void
test_lscpu_64cpu(void)
{
    const char *name = "lscpu-x86_64-64cpu.txt";
    g_autoptr(RvTopology) t = rv_test_load_topology_case(name);

    g_assert_cmpuint(rv_cpuset_count(&t->online), ==, 64);
    g_assert_cmpuint(t->packages->len, ==, 4);
    g_assert_cmpuint(t->cores->len, ==, 32);
    assert_pairs(t, 32);
    for (unsigned c = 0; c < 8; c++)
        g_assert_cmpint(rv_host_topology_package_of(t, c), ==, (int) (c % 4));
    g_assert_cmpuint(t->nodes->len, ==, 3);
    assert_node(t, 0, "0,2,4,6,8,10,12,14,16,18,20,22,24,26,28,30,32,34,36,38,40,42,44,46,48,50,52,54,56,58,60,62");
    assert_node(t, 2, "1,5,9,13,17,21,25,29,33,37,41,45,49,53,57,61");
    assert_node(t, 3, "3,7,11,15,19,23,27,31,35,39,43,47,51,55,59,63");
    check_expected(name, t);
}

static void
test_lscpu_epyc(void)
{
    const char *name = "lscpu-x86_64-epyc_7451.txt";
    g_autoptr(RvTopology) t = rv_test_load_topology_case(name);

    g_assert_cmpuint(rv_cpuset_count(&t->online), ==, 96);
    g_assert_cmpuint(t->packages->len, ==, 2);
    g_assert_cmpuint(t->cores->len, ==, 48);
    g_assert_cmpuint(t->nodes->len, ==, 8);
    assert_pairs(t, 48);
    assert_node(t, 0, "0-5,48-53");
    assert_node(t, 7, "42-47,90-95");
    check_expected(name, t);
}

static void
test_ppc64_cpu_smt8(void)
{
    const char *name = "ppc64_cpu-info-power8-smt8-half-offline-xmrstak6.txt";
    g_autoptr(RvTopology) t = rv_test_load_topology_case(name);

    g_assert_cmpuint(t->cores->len, ==, 4);
    g_assert_cmpuint(t->threads_per_core, ==, 8);
    assert_set(&t->online, "0-3,8-11,16-19,24-27");
    assert_set(&t->offline, "4-7,12-15,20-23,28-31");
    assert_siblings(t, 0, "0-7");
    assert_siblings(t, 5, "0-7");   /* offline threads are known here */
    assert_siblings(t, 27, "24-31");
    check_expected(name, t);
}

static void
test_sysfs_n16_offline(void)
{
    const char *name = "sysfs-2socket-intel-ht-n-n16-offline32-111.txt";
    g_autoptr(RvTopology) t = rv_test_load_topology_case(name);

    assert_set(&t->online, "0-31");
    assert_set(&t->present, "0-31");
    assert_set(&t->possible, "0-111");
    assert_set(&t->offline, "32-111");
    g_assert_cmpuint(t->nr_cpu_ids, ==, 112);
    g_assert_cmpuint(t->cores->len, ==, 16);
    assert_pairs(t, 16);
    assert_package(t, 0, "0-7,16-23");
    assert_package(t, 1, "8-15,24-31");
    g_assert_null(rv_host_topology_core_of(t, 40));
    check_expected(name, t);
}

static void
test_sysfs_hexmask(void)
{
    const char *name = "sysfs-4socket-xeon-ht-offline-cpus-hexmask.txt";
    g_autoptr(RvTopology) t = rv_test_load_topology_case(name);

    assert_set(&t->online, "0-1,3-4,6-12,15");
    assert_set(&t->offline, "2,5,13-14");
    assert_siblings(t, 0, "0,8");
    assert_siblings(t, 1, "1,9");
    assert_siblings(t, 3, "3,11");
    assert_siblings(t, 4, "4,12");
    assert_siblings(t, 7, "7,15");
    assert_siblings(t, 6, "6");
    assert_siblings(t, 10, "10");
    assert_package(t, 0, "0,4,8,12");
    assert_package(t, 1, "1,9");
    assert_package(t, 2, "6,10");
    assert_package(t, 3, "3,7,11,15");
    check_expected(name, t);
}

static void
test_sysfs_alderlake(void)
{
    const char *name = "sysfs-intel-hybrid-alderlake-adjacent-siblings.txt";
    g_autoptr(RvTopology) t = rv_test_load_topology_case(name);

    assert_set(&t->online, "0-19");
    assert_set(&t->offline, "");
    g_assert_cmpuint(t->packages->len, ==, 1);
    for (unsigned c = 0; c < 12; c += 2) {
        g_autofree char *exp = g_strdup_printf("%u-%u", c, c + 1);
        assert_siblings(t, c, exp);
        g_assert_cmpint(rv_host_topology_core_of(t, c)->core_id, ==, (int) (c * 2));
    }
    for (unsigned c = 12; c < 20; c++) {
        g_autofree char *exp = g_strdup_printf("%u", c);
        assert_siblings(t, c, exp);
    }
    g_assert_cmpuint(t->threads_per_core, ==, 2);
    g_assert_cmpuint(t->min_threads_per_core, ==, 1);
    check_expected(name, t);
}

static void
test_sysfs_power_smt4(void)
{
    const char *name = "sysfs-power-smt4-256cpu.txt";
    g_autoptr(RvTopology) t = rv_test_load_topology_case(name);

    g_assert_cmpuint(rv_cpuset_count(&t->online), ==, 256);
    g_assert_cmpuint(t->cores->len, ==, 64);
    g_assert_cmpuint(t->threads_per_core, ==, 4);
    assert_siblings(t, 0, "0-3");
    assert_siblings(t, 10, "8-11");
    assert_siblings(t, 255, "252-255");
    g_assert_cmpint(rv_host_topology_package_of(t, 10), ==, -1);
    g_assert_cmpint(rv_host_topology_core_of(t, 10)->core_id, ==, 8);
    /* the temporary tree is gone: the source names the dump */
    g_assert_true(g_str_has_prefix(t->source, "sysfs-dump:"));
    g_assert_true(g_str_has_suffix(t->source, "/topology/sysfs-power-smt4-256cpu.txt"));
    check_expected(name, t);
}

/* Every file of the case directory must have a test above. */
static const char *const covered[] = {
    "hwloc-16em64t-4s2c2t-offlines.xml",
    "hwloc-AMD-Zen-2xEpyc-7451.xml",
    "hwloc-Intel-Skylake-2xXeon6140.xml",
    "lscpu-e-and-siblings-4cpu-rinha398.txt",
    "lscpu-extended-amd-2socket-n-n64-elided.txt",
    "lscpu-ppc64-POWER7.txt",
    "lscpu-s390-lpar.txt",
    "lscpu-x86_64-64cpu.txt",
    "lscpu-x86_64-epyc_7451.txt",
    "ppc64_cpu-info-power8-smt8-half-offline-xmrstak6.txt",
    "sysfs-2socket-intel-ht-n-n16-offline32-111.txt",
    "sysfs-4socket-xeon-ht-offline-cpus-hexmask.txt",
    "sysfs-intel-hybrid-alderlake-adjacent-siblings.txt",
    "sysfs-power-smt4-256cpu.txt",
};

static void
test_all_cases_covered(void)
{
    rv_test_assert_cases_covered("topology", covered, G_N_ELEMENTS(covered));
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
    g_test_init(&argc, &argv, NULL);
    g_test_add_func("/topology/cases-covered", test_all_cases_covered);
    g_test_add_func("/topology/hwloc-offlines", test_hwloc_offlines);
    g_test_add_func("/topology/hwloc-epyc", test_hwloc_epyc);
    g_test_add_func("/topology/hwloc-skylake-interleaved", test_hwloc_skylake);
    g_test_add_func("/topology/lscpu-e-rinha", test_lscpu_e_rinha);
    g_test_add_func("/topology/lscpu-amd-elided", test_lscpu_amd_elided);
    g_test_add_func("/topology/lscpu-power7-smt4", test_lscpu_power7);
    g_test_add_func("/topology/lscpu-s390-cpu0-offline", test_lscpu_s390);
    g_test_add_func("/topology/lscpu-64cpu-stride-nodes", test_lscpu_64cpu);
    g_test_add_func("/topology/lscpu-epyc", test_lscpu_epyc);
    g_test_add_func("/topology/ppc64-cpu-smt8-half-offline", test_ppc64_cpu_smt8);
    g_test_add_func("/topology/sysfs-n16-offline", test_sysfs_n16_offline);
    g_test_add_func("/topology/sysfs-hexmask-offline", test_sysfs_hexmask);
    g_test_add_func("/topology/sysfs-alderlake-adjacent", test_sysfs_alderlake);
    g_test_add_func("/topology/sysfs-power-smt4", test_sysfs_power_smt4);
    g_test_add_func("/topology/malformed", test_malformed);
    g_test_add_func("/topology/live", test_live);
    return g_test_run();
}
