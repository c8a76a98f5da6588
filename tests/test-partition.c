/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * tests/test-partition.c: the whole-core CPU partition of
 * profiles/host/realtime-virtual-host.ini (1 housekeeping core per package,
 * smt = idle-siblings) on every topology in tests/data/cases/topology,
 * compared with tests/data/partition/<case>.plan (RV_REGENERATE=1 rewrites
 * them), plus the facts from each case's .source.txt checked one by one,
 * plus explicit-list profiles (written inline) on the Skylake
 * case.
 */
#include <errno.h>
#include <string.h>

#include <glib/gstdio.h>

#include "host/profile/partition.h"
#include "host/profile/profile.h"
#include "host/facts/topology.h"
#include "util/error.h"
#include "tests/testutil.h"

/* The invariant of the module: no core is split between the sets. */
static void
assert_whole_cores(const RvTopology *t, const RvHostPartition *p)
{
    g_assert_false(rv_cpuset_intersects(&p->housekeeping, &p->isolated));
    for (guint i = 0; i < t->cores->len; i++) {
        const RvCore *c = &g_array_index(t->cores, RvCore, i);
        bool h = rv_cpuset_intersects(&c->threads, &p->housekeeping);
        bool iso = rv_cpuset_intersects(&c->threads, &p->isolated);

        g_assert_false(h && iso);
        if (h)
            g_assert_true(rv_cpuset_is_subset(&c->threads, &p->housekeeping));
        if (iso)
            g_assert_true(rv_cpuset_is_subset(&c->threads, &p->isolated));
    }
    g_assert_true(rv_cpuset_is_subset(&p->rt_cpus, &p->isolated_online));
}

static void
assert_list(const RvCpuSet *set, const char *want)
{
    g_autofree char *got = rv_cpulist_format(set);
    g_assert_cmpstr(got, ==, want);
}

/* Facts from the .source.txt notes: which CPUs do housekeeping with one
 * whole core per package (the lowest core of each package). */
typedef struct {
    const char *name;
    const char *housekeeping_online;
    const char *isolated_online;   /* NULL: only checked through the .plan */
    const char *rt_cpus;           /* NULL: idem */
    const char *error_part;        /* the partition is refused: part of the message */
} Fact;

static const Fact facts[] = {
    /* PU 0 + PU 36 is core 0 of package 0 (even CPUs), 1 + 37 core 0 of
     * package 1: the source's "socket 0 minus core 0" is 2,4,..,34,38,..,70 */
    { "hwloc-Intel-Skylake-2xXeon6140.xml", "0-1,36-37", "2-35,38-71", "2-35" },
    /* siblings N/N+48, package 0 = 0-23,48-71 */
    { "hwloc-AMD-Zen-2xEpyc-7451.xml", "0,24,48,72", NULL, NULL },
    { "lscpu-x86_64-epyc_7451.txt", "0,24,48,72", NULL, NULL },
    /* 1 socket, siblings 0,2 and 1,3 */
    { "lscpu-e-and-siblings-4cpu-rinha398.txt", "0,2", "1,3", "1" },
    /* the author's own reservation 0-1,64-65 (whole cores, one per socket) */
    { "lscpu-extended-amd-2socket-n-n64-elided.txt", "0-1,64-65", NULL, NULL },
    /* pHyp LPAR: the logical section shows 4 sockets of 1 core each (the
     * physical Socket column is '-'): one housekeeping core per socket
     * leaves nothing to isolate, which is refused rather than guessed */
    { "lscpu-ppc64-POWER7.txt", NULL, NULL, NULL,
      "leaves no CPU to isolate on this host (16 online CPUs in 4 cores)" },
    /* CPU 0 is OFFLINE: housekeeping starts at CPU 1; the logical section
     * has 7 sockets (0: 1-2, 1: 3-5, 2: 8-10, 3: 11-14, 4: 15, 5: 16-18,
     * 6: 19), no SMT */
    { "lscpu-s390-lpar.txt", "1,3,8,11,15-16,19", "2,4-5,9-10,12-14,17-18",
      "2,4-5,9-10,12-14,17-18" },
    /* 4 sockets interleaved round-robin, siblings N/N+32 */
    { "lscpu-x86_64-64cpu.txt", "0-3,32-35", "4-31,36-63", "4-31" },
    /* SMT8 with 4 threads online per core: online 0-3,8-11,16-19,24-27 */
    { "ppc64_cpu-info-power8-smt8-half-offline-xmrstak6.txt", "0-3", "8-11,16-19,24-27",
      "8,16,24" },
    /* siblings N/N+16, package 0 = 0-7,16-23; 32-111 possible, not present */
    { "sysfs-2socket-intel-ht-n-n16-offline32-111.txt", "0,8,16,24",
      "1-7,9-15,17-23,25-31", "1-7,9-15" },
    /* offline 2,5,13,14; pkg0 = 0,4,8,12; pkg1 = 1,9; pkg2 = 6,10; pkg3 = 3,7,11,15 */
    { "sysfs-4socket-xeon-ht-offline-cpus-hexmask.txt", "0-1,3,6,8-9,11", "4,7,10,12,15",
      "4,7,10" },
    { "hwloc-16em64t-4s2c2t-offlines.xml", "0-1,3,6,8-9,11", "4,7,10,12,15", "4,7,10" },
    /* P-cores adjacent siblings 0-1 ...; E-cores 12-19 without SMT */
    { "sysfs-intel-hybrid-alderlake-adjacent-siblings.txt", "0-1", "2-19",
      "2,4,6,8,10,12-19" },
    /* pseries: package -1 everywhere = one package; SMT4 adjacent */
    { "sysfs-power-smt4-256cpu.txt", "0-3", "4-255", NULL },
};

static void
test_case(gconstpointer data)
{
    const char *name = data;
    g_autoptr(RvTopology) t = rv_test_load_topology_case(name);
    g_autoptr(RvHostProfile) profile = rv_test_load_host_profile("profiles/host/realtime-virtual-host.ini");
    g_autoptr(RvHostPartition) p = NULL;
    g_autoptr(GError) err = NULL;
    g_autofree char *plan = NULL;
    g_autofree char *exp_path = NULL;
    bool found = false;
    int r;

    exp_path = g_strdup_printf("%s/tests/data/partition/%s.plan", rv_test_top_dir(), name);
    r = rv_host_partition_compute(profile, t, &p, &err);
    for (size_t i = 0; i < G_N_ELEMENTS(facts); i++) {
        if (strcmp(facts[i].name, name) != 0)
            continue;
        found = true;
        if (facts[i].error_part) {
            g_autofree char *msg = NULL;

            g_assert_cmpint(r, ==, -EINVAL);
            g_assert_error(err, RV_ERROR, RV_ERROR_INVALID);
            g_assert_nonnull(strstr(err->message, facts[i].error_part));
            msg = g_strdup_printf("error: %s\n", strstr(err->message, "profiles/host/"));
            rv_test_compare_expected(exp_path, msg);
            return;
        }
        g_assert_no_error(err);
        g_assert_cmpint(r, ==, 0);
        assert_whole_cores(t, p);
        assert_list(&p->housekeeping_online, facts[i].housekeeping_online);
        if (facts[i].isolated_online)
            assert_list(&p->isolated_online, facts[i].isolated_online);
        if (facts[i].rt_cpus)
            assert_list(&p->rt_cpus, facts[i].rt_cpus);
    }
    g_assert_true(found);   /* every case has its facts written down */

    plan = rv_host_partition_format(p, t);
    rv_test_compare_expected(exp_path, plan);
}

/* Explicit lists on the Skylake case (siblings N/N+36). */
typedef struct {
    const char *cpus_section;
    const char *housekeeping;    /* expected, or NULL when rejected */
    const char *isolated;
    const char *error_part;      /* substring of the error */
} ExplicitCase;

static const ExplicitCase explicit_cases[] = {
    /* tuned's mistake: CPU 0 alone does housekeeping; its sibling 36 joins */
    { "housekeeping = 0\n", "0,36", "1-35,37-71", NULL },
    /* isolating 2-35 isolates their siblings 38-71 too */
    { "isolated = 2-35\n", "0-1,36-37", "2-35,38-71", NULL },
    /* whole cores given explicitly: kept as they are */
    { "housekeeping = 0-1,36-37\nisolated = 2-35,38-71\n", "0-1,36-37", "2-35,38-71", NULL },
    /* both lists, core 0 split: rejected, naming the core */
    { "housekeeping = 0\nisolated = 1-71\n", NULL, NULL, "split core 0/0 (CPUs 0,36)" },
    /* CPU 72 does not exist on this host */
    { "isolated = 2-72\n", NULL, NULL, "not online" },
};

static void
test_explicit(void)
{
    g_autoptr(RvTopology) t = rv_test_load_topology_case("hwloc-Intel-Skylake-2xXeon6140.xml");

    for (size_t i = 0; i < G_N_ELEMENTS(explicit_cases); i++) {
        const ExplicitCase *c = &explicit_cases[i];
        g_autofree char *text = g_strdup_printf("[cpus]\n%ssmt = keep\n", c->cpus_section);
        g_autoptr(RvHostProfile) profile = NULL;
        g_autoptr(RvHostPartition) p = NULL;
        g_autoptr(GError) err = NULL;
        int r;

        g_assert_cmpint(rv_host_profile_load_data("explicit.ini", text, &profile, &err), ==, 0);
        g_assert_no_error(err);
        r = rv_host_partition_compute(profile, t, &p, &err);
        if (!c->housekeeping) {
            g_assert_cmpint(r, ==, -EINVAL);
            g_assert_error(err, RV_ERROR, RV_ERROR_INVALID);
            g_assert_nonnull(strstr(err->message, c->error_part));
            continue;
        }
        g_assert_no_error(err);
        g_assert_cmpint(r, ==, 0);
        assert_whole_cores(t, p);
        assert_list(&p->housekeeping, c->housekeeping);
        assert_list(&p->isolated, c->isolated);
        /* smt = keep: every isolated thread may run RT work */
        assert_list(&p->rt_cpus, c->isolated);
    }
}

/* A 2-CPU host of one package: CPUs 0-1 as one core of two SMT threads
 * (@smt) or as two one-thread cores. */
static RvTopology *
two_cpu_topology(bool smt)
{
    RvTopology *t = g_new0(RvTopology, 1);

    t->nr_cpu_ids = 2;
    rv_cpuset_set_range(&t->online, 0, 1);
    t->possible = t->present = t->online;
    t->cores = g_array_new(FALSE, TRUE, sizeof(RvCore));
    t->packages = g_array_new(FALSE, TRUE, sizeof(RvCpuGroup));
    t->nodes = g_array_new(FALSE, TRUE, sizeof(RvCpuGroup));
    t->cpu_core = g_new0(int, 2);
    for (unsigned c = 0; c < (smt ? 1u : 2u); c++) {
        RvCore core = { .package = 0, .die = -1, .core_id = (int) c, .node = -1 };

        if (smt)
            rv_cpuset_set_range(&core.threads, 0, 1);
        else
            rv_cpuset_set(&core.threads, c);
        g_array_append_val(t->cores, core);
        t->cpu_core[c] = (int) c;
    }
    return t;
}

/* One core per package and one housekeeping core per package leaves
 * nothing to isolate: an error, not an empty isolcpus=. */
static void
test_nothing_to_isolate(void)
{
    g_autoptr(RvHostProfile) profile = NULL;
    g_autoptr(RvTopology) t = two_cpu_topology(true);   /* one core, 2 threads */
    g_autoptr(RvHostPartition) p = NULL;
    g_autoptr(GError) err = NULL;

    g_assert_cmpint(rv_host_profile_load_data("x.ini", "[cpus]\nhousekeeping_cores_per_socket = 1\n",
                                              &profile, &err), ==, 0);
    g_assert_cmpint(rv_host_partition_compute(profile, t, &p, &err), ==, -EINVAL);
    g_assert_error(err, RV_ERROR, RV_ERROR_INVALID);
    g_assert_nonnull(strstr(err->message, "no CPU to isolate"));
}

/* isolated_cores_per_socket = 3 on the Skylake case: the last 3 cores of
 * each package (30,32,34 and 31,33,35 with their siblings 66-71) isolated,
 * the other 30 cores housekeeping; the RT CPUs one thread per isolated
 * core.  On a 2-core package asking 4: one isolated, one housekeeping
 * core kept, said in a note. */
static void
test_isolated_per_socket(void)
{
    g_autoptr(RvTopology) t = rv_test_load_topology_case("hwloc-Intel-Skylake-2xXeon6140.xml");
    g_autoptr(RvTopology) small = two_cpu_topology(false);   /* two 1-thread cores */
    g_autoptr(RvHostProfile) profile = NULL;
    g_autoptr(RvHostProfile) four = NULL;
    g_autoptr(RvHostPartition) p = NULL;
    g_autoptr(RvHostPartition) q = NULL;
    g_autoptr(GError) err = NULL;

    g_assert_cmpint(rv_host_profile_load_data("iso.ini", "[cpus]\nisolated_cores_per_socket = 3\n"
                                              "smt = idle-siblings\n", &profile, &err), ==, 0);
    g_assert_cmpuint(profile->isolated_cores_per_socket, ==, 3);
    g_assert_cmpint(rv_host_partition_compute(profile, t, &p, &err), ==, 0);
    g_assert_no_error(err);
    assert_whole_cores(t, p);
    assert_list(&p->isolated_online, "30-35,66-71");
    assert_list(&p->housekeeping_online, "0-29,36-65");
    assert_list(&p->rt_cpus, "30-35");
    assert_list(&p->idle_siblings, "66-71");
    g_assert_cmpstr(p->how, ==, "3 isolated cores per package, the other cores housekeeping");
    g_assert_cmpuint(p->notes->len, ==, 0);

    g_assert_cmpint(rv_host_profile_load_data("four.ini", "[cpus]\nisolated_cores_per_socket = 4\n",
                                              &four, &err), ==, 0);
    g_assert_cmpint(rv_host_partition_compute(four, small, &q, &err), ==, 0);
    g_assert_no_error(err);
    assert_list(&q->isolated_online, "1");
    assert_list(&q->housekeeping_online, "0");
    g_assert_cmpuint(q->notes->len, ==, 1);
    g_assert_cmpstr(q->notes->pdata[0], ==, "package 0 has 2 cores with an online thread: 1 "
                    "isolated, not 4, one keeps housekeeping");
}

/* This machine: whatever it is, the partition is whole cores. */
static void
test_live(void)
{
    g_autoptr(RvRoot) root = NULL;
    g_autoptr(RvTopology) t = NULL;
    g_autoptr(RvHostProfile) profile = rv_test_load_host_profile("profiles/host/realtime-virtual-host.ini");
    g_autoptr(RvHostPartition) p = NULL;
    g_autoptr(GError) err = NULL;
    int r;

    g_assert_cmpint(rv_host_root_open("/", &root, &err), ==, 0);
    g_assert_cmpint(rv_host_topology_load(root, &t, &err), ==, 0);
    r = rv_host_partition_compute(profile, t, &p, &err);
    if (t->cores->len < 2) {
        g_assert_cmpint(r, ==, -EINVAL);
        g_test_skip("single-core host: nothing to isolate");
        return;
    }
    g_assert_no_error(err);
    assert_whole_cores(t, p);
    if (!t->smt && rv_cpuset_count(&t->online) == 2 && rv_cpuset_isset(&t->online, 0)) {
        /* the build machines: 2 CPUs, no SMT */
        assert_list(&p->housekeeping_online, "0");
        assert_list(&p->isolated_online, "1");
        assert_list(&p->rt_cpus, "1");
    }
}

int
main(int argc, char **argv)
{
    g_autoptr(GPtrArray) names = NULL;

    g_test_init(&argc, &argv, NULL);
    names = rv_test_case_names("topology");
    for (guint i = 0; i < names->len; i++) {
        g_autofree char *tp = g_strdup_printf("/partition/case/%s", (char *) names->pdata[i]);
        g_test_add_data_func(tp, names->pdata[i], test_case);
    }
    g_test_add_func("/partition/explicit", test_explicit);
    g_test_add_func("/partition/nothing-to-isolate", test_nothing_to_isolate);
    g_test_add_func("/partition/isolated-per-socket", test_isolated_per_socket);
    g_test_add_func("/partition/live", test_live);
    return g_test_run();
}
