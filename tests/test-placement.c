/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * tests/test-placement.c: guest vCPU placement over the captured topologies
 * (tests/data/cases/topology, tests/data/domainxml/topology), golden
 * placements tests/data/domainxml/NAME.placement (RV_REGENERATE=1 rewrites),
 * the rules checked on every placement, and refusals with their reason.
 */
#include "tests/guest-cases.h"

/* The rules of guest/placement.h, checked on every successful placement so
 * that a regenerated golden file cannot hide a broken rule. */
static void
check_rules(const GcResult *res)
{
    const RvGuestPlacement *p = res->placement;
    const RvGuestProfile *prof = res->profile;
    RvCpuSet rt_cpus, nonrt_cpus;

    rv_cpuset_zero(&rt_cpus);
    rv_cpuset_zero(&nonrt_cpus);
    g_assert_cmpuint(p->n_vcpus, ==, prof->vcpus);
    for (unsigned i = 0; i < p->n_vcpus; i++) {
        const RvGuestVcpuPlacement *v = &p->vcpus[i];

        g_assert_cmpuint(v->vcpu, ==, i);
        g_assert_true(v->pinned);
        g_assert_cmpint(v->rt, ==, rv_cpuset_isset(&prof->rt_vcpus, i));
        if (v->rt) {
            int cpu = rv_cpuset_next(&v->cpuset, 0);

            /* 1:1, never shared by two RT vCPUs, FIFO at the profile's priority */
            g_assert_cmpuint(rv_cpuset_count(&v->cpuset), ==, 1);
            g_assert_false(rv_cpuset_isset(&rt_cpus, cpu));
            rv_cpuset_set(&rt_cpus, cpu);
            g_assert_cmpint(v->policy, ==, RV_GUEST_SCHED_FIFO);
            g_assert_cmpint(v->priority, ==, prof->rt_priority);
        } else {
            g_assert_cmpint(v->policy, ==, RV_GUEST_SCHED_OTHER);
            g_assert_cmpint(v->priority, ==, 0);
            rv_cpuset_or(&nonrt_cpus, &nonrt_cpus, &v->cpuset);
        }
    }
    g_assert_true(rv_cpuset_equal(&rt_cpus, &p->rt_cpus));
    /* nothing else runs where an RT vCPU or an idle sibling is */
    g_assert_false(rv_cpuset_intersects(&rt_cpus, &nonrt_cpus));
    g_assert_false(rv_cpuset_intersects(&rt_cpus, &p->emulator));
    g_assert_false(rv_cpuset_intersects(&p->idle_siblings, &p->emulator));
    g_assert_false(rv_cpuset_intersects(&p->idle_siblings, &nonrt_cpus));
    g_assert_false(rv_cpuset_intersects(&p->idle_siblings, &rt_cpus));
    g_assert_true(p->emulator_pinned);
    g_assert_false(rv_cpuset_is_empty(&p->emulator));

    /* the RT judge agrees with the placer: no FAIL but the "not isolated"
     * of the no-isolation fallback, a WARN only where a NOTE said the core
     * is shared */
    {
        g_autoptr(GPtrArray) f = rv_guest_placement_check(p, res->host);
        bool fallback = false, shared = false;

        for (guint i = 0; i < p->notes->len; i++) {
            fallback |= strstr(p->notes->pdata[i], "the CPU is not isolated") != NULL;
            shared |= strstr(p->notes->pdata[i], "shares its") != NULL;
        }
        for (guint i = 0; i < f->len; i++) {
            const char *line = f->pdata[i];

            if (g_str_has_prefix(line, "FAIL") && !(fallback && strstr(line, "which is not isolated")))
                g_test_message("%s: unexpected %s", res->name, line);
            g_assert_true(!g_str_has_prefix(line, "FAIL") || (fallback && strstr(line, "which is not isolated")));
            g_assert_true(!g_str_has_prefix(line, "WARN") || shared);
        }
    }

    /* guest SMT siblings on host SMT siblings: consecutive RT vCPUs of a
     * guest core sit on distinct CPUs of ONE host core (checked in the
     * golden files: here, at least distinct and ordered) */
    if (prof->threads_per_core > 1)
        for (unsigned k = 0; k < prof->vcpus / prof->threads_per_core; k++) {
            unsigned first = k * prof->threads_per_core;

            if (!p->vcpus[first].rt)
                continue;
            for (unsigned t = 1; t < prof->threads_per_core; t++)
                g_assert_cmpint(rv_cpuset_next(&p->vcpus[first + t].cpuset, 0), >,
                                rv_cpuset_next(&p->vcpus[first + t - 1].cpuset, 0));
        }
}

static void
test_case(gconstpointer data)
{
    const char *name = data;
    g_autoptr(GcResult) res = gc_run_case(name);
    g_autofree char *file = g_strdup_printf("%s.placement", name);
    g_autofree char *text = NULL;

    if (res->placement) {
        check_rules(res);
        text = rv_guest_placement_format(res->placement);
    } else {
        text = gc_refusal_text(res->refused);
    }
    gc_check_golden(file, text);
}

/* Builds a host by hand: @cores as cpulists ("0,2" "1,3"), @isolated. */
static RvGuestHostCpus *
make_host(const char * const *cores, const char *isolated)
{
    RvGuestHostCpus *host = rv_guest_host_cpus_new(0);
    RvCpuSet set;

    for (int i = 0; cores[i]; i++) {
        g_assert_cmpint(rv_cpulist_parse(cores[i], 0, &set, NULL), ==, 0);
        rv_guest_host_cpus_add_core(host, &set);
    }
    g_assert_cmpint(rv_cpulist_parse(isolated, 0, &set, NULL), ==, 0);
    rv_guest_host_cpus_set_isolated(host, &set, "/sys/devices/system/cpu/isolated");
    return host;
}

static RvGuestProfile *
load_shipped(const char *name)
{
    g_autofree char *rel = g_build_filename("profiles/guests", name, NULL);

    return rv_test_load_guest_profile(rel);
}

/* The brief's example, word for word: one isolated CPU (2) on a 4-CPU host. */
static void
test_refuse_message(void)
{
    static const char * const cores[] = { "0,2", "1,3", NULL };
    g_autoptr(RvGuestHostCpus) host = make_host(cores, "2");
    g_autoptr(RvGuestProfile) prof = load_shipped("rt-guest.ini");
    g_autoptr(RvGuestPlacement) p = NULL;
    g_autoptr(GError) err = NULL;

    g_assert_cmpint(rv_guest_place(prof, host, &p, &err), ==, -ENOSPC);
    g_assert_error(err, RV_ERROR, RV_ERROR_UNSUPPORTED);
    g_assert_cmpstr(err->message, ==, "rt-guest.ini: 3 RT vCPUs need 3 isolated CPUs, host has 1 (2)");
    g_assert_null(p);
}

/* Every online CPU isolated: nothing left for the emulator. */
static void
test_refuse_no_housekeeping(void)
{
    static const char * const cores[] = { "0", "1", "2", "3", NULL };
    g_autoptr(RvGuestHostCpus) host = make_host(cores, "0-3");
    g_autoptr(RvGuestProfile) prof = load_shipped("rt-guest.ini");
    g_autoptr(RvGuestPlacement) p = NULL;
    g_autoptr(GError) err = NULL;

    g_assert_cmpint(rv_guest_place(prof, host, &p, &err), ==, -ENOSPC);
    g_assert_error(err, RV_ERROR, RV_ERROR_UNSUPPORTED);
    g_assert_nonnull(strstr(err->message, "no housekeeping CPU left"));
}

/* A one-core host cannot run rt-demo even without isolation. */
static void
test_refuse_one_core(void)
{
    static const char * const cores[] = { "0", NULL };
    g_autoptr(RvGuestHostCpus) host = make_host(cores, "");
    g_autoptr(RvGuestProfile) prof = load_shipped("rt-demo.ini");
    g_autoptr(RvGuestPlacement) p = NULL;
    g_autoptr(GError) err = NULL;

    g_assert_cmpint(rv_guest_place(prof, host, &p, &err), ==, -ENOSPC);
    g_assert_cmpstr(err->message, ==,
                    "rt-demo.ini: 1 RT vCPU needs a CPU outside the boot CPU's core, host has 1 online core");
}

/* Reserved CPUs that would have fit are named in the refusal. */
static void
test_refuse_reserved(void)
{
    static const char * const cores[] = { "0", "1", "2", "3", "4", NULL };
    g_autoptr(RvGuestHostCpus) host = make_host(cores, "1-4");
    g_autoptr(RvGuestProfile) prof = load_shipped("rt-guest.ini");
    g_autoptr(RvGuestPlacement) p = NULL;
    g_autoptr(GError) err = NULL;

    rv_cpuset_set(&host->reserved, 1);
    rv_cpuset_set(&host->reserved, 2);
    g_assert_cmpint(rv_guest_place(prof, host, &p, &err), ==, -ENOSPC);
    g_assert_cmpstr(err->message, ==,
                    "rt-guest.ini: 3 RT vCPUs need 3 isolated CPUs, host has 2 (3-4); 1-2 held by other guests");
}

/* Host cores given out of order are sorted; placement follows CPU order. */
static void
test_core_order(void)
{
    static const char * const cores[] = { "3,7", "1,5", "2,6", "0,4", NULL };
    g_autoptr(RvGuestHostCpus) host = make_host(cores, "1-3,5-7");
    g_autoptr(RvGuestProfile) prof = load_shipped("rt-guest.ini");
    g_autoptr(RvGuestPlacement) p = NULL;
    g_autoptr(GError) err = NULL;
    g_autofree char *text = NULL;

    g_assert_cmpint(rv_guest_place(prof, host, &p, &err), ==, 0);
    g_assert_no_error(err);
    text = rv_guest_placement_format(p);
    g_assert_cmpstr(text, ==,
                    "vCPU0 -> CPUs 0,4 other\n"
                    "vCPU1 -> CPU 1 fifo:1 RT\n"
                    "vCPU2 -> CPU 2 fifo:1 RT\n"
                    "vCPU3 -> CPU 3 fifo:1 RT\n"
                    "emulator -> CPUs 0,4\n"
                    "idle siblings -> CPUs 5-7\n");
}

/* host_sibling = shared (a scenario's): the RT vCPUs take whole cores as
 * with idle, their siblings are left to neighbours, whose vCPUs are dealt
 * onto them one each; a split core is still refused. */
static void
test_shared_siblings(void)
{
    static const char * const cores[] = { "0,4", "1,5", "2,6", "3,7", NULL };
    g_autoptr(RvGuestHostCpus) host = make_host(cores, "1-3,5-7");
    g_autoptr(RvGuestProfile) rt = load_shipped("rt-guest.ini");
    g_autoptr(RvGuestProfile) busy = load_shipped("busy-guest.ini");
    g_autoptr(RvGuestPlacement) p = NULL, b1 = NULL, b2 = NULL;
    g_autoptr(GError) err = NULL;
    g_autofree char *text = NULL, *t1 = NULL, *t2 = NULL;
    RvCpuSet dealt;

    g_assert_cmpint(rv_guest_place_sibling(rt, RV_GUEST_SIBLING_SHARED, host, &p, &err), ==, 0);
    g_assert_no_error(err);
    text = rv_guest_placement_format(p);
    g_assert_cmpstr(text, ==,
                    "vCPU0 -> CPUs 0,4 other\n"
                    "vCPU1 -> CPU 1 fifo:1 RT\n"
                    "vCPU2 -> CPU 2 fifo:1 RT\n"
                    "vCPU3 -> CPU 3 fifo:1 RT\n"
                    "emulator -> CPUs 0,4\n"
                    "shared siblings -> CPUs 5-7\n");
    g_assert_true(rv_cpuset_is_empty(&p->idle_siblings));

    rv_cpuset_zero(&dealt);
    g_assert_cmpint(rv_guest_place(busy, host, &b1, &err), ==, 0);
    g_assert_cmpint(rv_guest_place(busy, host, &b2, &err), ==, 0);
    g_assert_cmpuint(rv_guest_placement_deal(b1, &p->shared_siblings, &dealt), ==, 3);
    g_assert_cmpuint(rv_guest_placement_deal(b2, &p->shared_siblings, &dealt), ==, 0);
    t1 = rv_guest_placement_format(b1);
    t2 = rv_guest_placement_format(b2);
    g_assert_cmpstr(t1, ==,
                    "vCPU0 -> CPU 5 other\n"
                    "vCPU1 -> CPU 6 other\n"
                    "vCPU2 -> CPU 7 other\n"
                    "vCPU3 -> CPUs 0,4 other\n"
                    "emulator -> CPUs 0,4\n");
    g_assert_cmpstr(t2, ==,
                    "vCPU0 -> CPUs 0,4 other\n"
                    "vCPU1 -> CPUs 0,4 other\n"
                    "vCPU2 -> CPUs 0,4 other\n"
                    "vCPU3 -> CPUs 0,4 other\n"
                    "emulator -> CPUs 0,4\n");

    /* CPU 7 not isolated: core 3,7 is split, shared needs whole cores too */
    {
        static const char * const c2[] = { "0,4", "1,5", "2,6", "3,7", NULL };
        g_autoptr(RvGuestHostCpus) h2 = make_host(c2, "1-3,5-6");
        g_autoptr(RvGuestPlacement) p2 = NULL;
        g_autoptr(GError) e2 = NULL;

        g_assert_cmpint(rv_guest_place_sibling(rt, RV_GUEST_SIBLING_SHARED, h2, &p2, &e2), ==, -ENOSPC);
        g_assert_nonnull(strstr(e2->message, "host_sibling = shared"));
    }
}

/* smt = off: the primary threads only, groups kept. */
static void
test_primaries(void)
{
    static const char * const cores[] = { "0,4", "1,5", "2,6", "3,7", NULL };
    g_autoptr(RvGuestHostCpus) host = make_host(cores, "1-3,5-7");
    g_autoptr(RvGuestHostCpus) prim = rv_guest_host_cpus_primaries(host);
    g_autofree char *online = rv_cpulist_format(&prim->online);
    g_autofree char *iso = rv_cpulist_format(&prim->isolated);
    g_autofree char *hk = rv_cpulist_format(&prim->housekeeping);

    g_assert_cmpstr(online, ==, "0-3");
    g_assert_cmpstr(iso, ==, "1-3");
    g_assert_cmpstr(hk, ==, "0");
    g_assert_cmpuint(prim->cores->len, ==, 4);
}

int
main(int argc, char **argv)
{
    g_autoptr(GPtrArray) cases = NULL;

    g_test_init(&argc, &argv, NULL);
    cases = gc_list_cases();
    g_assert_cmpuint(cases->len, >=, 15);
    for (guint i = 0; i < cases->len; i++) {
        g_autofree char *path = g_strdup_printf("/placement/case/%s", (char *) cases->pdata[i]);

        g_test_add_data_func(path, cases->pdata[i], test_case);
    }
    g_test_add_func("/placement/refuse/message", test_refuse_message);
    g_test_add_func("/placement/refuse/no-housekeeping", test_refuse_no_housekeeping);
    g_test_add_func("/placement/refuse/one-core", test_refuse_one_core);
    g_test_add_func("/placement/refuse/reserved", test_refuse_reserved);
    g_test_add_func("/placement/core-order", test_core_order);
    g_test_add_func("/placement/shared-siblings", test_shared_siblings);
    g_test_add_func("/placement/primaries", test_primaries);
    return g_test_run();
}
