/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * tests/test-hostprofile.c: host profiles (host/profile/profile.h).
 *
 * Data-driven:
 *  - every shipped profiles/host/NAME.ini loads, and its effective knobs
 *    (rv_host_profile_format()) equal tests/data/hostprofile/NAME.expected;
 *  - every tests/data/hostprofile/good-*.ini likewise (.expected beside it);
 *  - every tests/data/hostprofile/bad-*.ini is rejected with exactly the
 *    message in bad-*.err (naming file and line);
 *  - every tests/data/hostprofile/host-*.ini meets a 2-CPU host
 *    (rv_host_profile_load_host() with nr_cpu_ids 2, then
 *    rv_host_profile_check_host() with CPUs 0-1 online): rejected with the
 *    message in host-*.err, or, without .err, accepted with the effective
 *    knobs in host-*.expected ("N" resolved to CPU 1).
 * RV_REGENERATE=1 rewrites the expected files (review the diff line by line).
 */
#include <errno.h>
#include <sched.h>
#include <string.h>
#include <unistd.h>

#include "host/profile/profile.h"
#include "util/error.h"
#include "tests/testutil.h"


static void
test_good(gconstpointer data)
{
    const char *path = data;           /* relative to RV_TOP */
    g_autofree char *base = g_path_get_basename(path);
    g_autofree char *stem = g_strndup(base, strlen(base) - 4);
    g_autofree char *exp = g_strdup_printf("tests/data/hostprofile/%s.expected", stem);
    g_autoptr(RvHostProfile) p = NULL;
    g_autoptr(GError) err = NULL;
    g_autofree char *text = NULL;

    if (rv_host_profile_load(path, &p, &err) < 0)
        g_error("%s: %s", path, err->message);
    text = rv_host_profile_format(p);
    rv_test_compare_expected(exp, text);
}

static void
test_bad(gconstpointer data)
{
    const char *path = data;
    g_autofree char *stem = g_strndup(path, strlen(path) - 4);
    g_autofree char *exp = g_strdup_printf("%s.err", stem);
    g_autoptr(RvHostProfile) p = NULL;
    g_autoptr(GError) err = NULL;
    g_autofree char *msg = NULL;

    g_assert_cmpint(rv_host_profile_load(path, &p, &err), <, 0);
    g_assert_null(p);
    g_assert_nonnull(err);
    g_assert_true(g_error_matches(err, RV_ERROR, RV_ERROR_INVALID));
    msg = g_strdup_printf("%s\n", err->message);
    rv_test_compare_expected(exp, msg);
}

static void
test_host(gconstpointer data)
{
    const char *path = data;
    g_autofree char *stem = g_strndup(path, strlen(path) - 4);
    g_autofree char *exp = g_strdup_printf("%s.err", stem);
    g_autofree char *expected = g_strdup_printf("%s.expected", stem);
    g_autoptr(RvHostProfile) p = NULL;
    g_autoptr(GError) err = NULL;
    RvCpuSet online;
    int r;

    /* a 2-CPU host: nr_cpu_ids 2, CPUs 0-1 online */
    g_assert_cmpint(rv_cpulist_parse("0-1", 0, &online, NULL), ==, 0);
    r = rv_host_profile_load_host(path, 2, &p, &err);
    if (r == 0)
        r = rv_host_profile_check_host(p, &online, &err);
    if (g_file_test(exp, G_FILE_TEST_EXISTS)) {
        g_autofree char *msg = NULL;

        g_assert_cmpint(r, ==, -EINVAL);
        g_assert_true(g_error_matches(err, RV_ERROR, RV_ERROR_INVALID));
        msg = g_strdup_printf("%s\n", err->message);
        rv_test_compare_expected(exp, msg);
    } else {
        g_autofree char *text = NULL;

        g_assert_no_error(err);
        g_assert_cmpint(r, ==, 0);
        text = rv_host_profile_format(p);
        rv_test_compare_expected(expected, text);
    }
}

/* Possible but offline CPUs: loaded without a host, then checked against
 * the online ones (CPUs 2-3 of a 4-CPU host with 0-1 online). */
static void
test_check_host_offline(void)
{
    g_autoptr(RvHostProfile) p = NULL;
    g_autoptr(GError) err = NULL;
    RvCpuSet online;

    g_assert_cmpint(rv_host_profile_load_host("tests/data/hostprofile/host-isolated.ini", 4, &p,
                                              &err), ==, 0);
    g_assert_cmpint(rv_cpulist_parse("0-1", 0, &online, NULL), ==, 0);
    g_assert_cmpint(rv_host_profile_check_host(p, &online, &err), ==, -EINVAL);
    g_assert_cmpstr(err->message, ==, "tests/data/hostprofile/host-isolated.ini:3: [cpus] isolated "
                    "names CPUs 2-3 that are not online on this host (online: 0-1)");
}

/* Facts the shipped profile must carry, from tuned's realtime-virtual-host
 * and its parents (the .source.txt files in tests/data/cases/tuned), asserted on the
 * model rather than on the .expected text. */
static void
test_realtime_virtual_host_covers_tuned(void)
{
    g_autoptr(RvHostProfile) p = NULL;
    g_autoptr(GError) err = NULL;
    static const struct { const char *name; int prio; } kt[] = {
        { "ksoftirqd", 2 }, { "ktimers", 2 }, { "rcuc", 4 }, { "rcub", 4 }, { "ktimersoftd", 3 },
    };
    static const char * const extra[] = { "tsc=reliable", "rcupdate.rcu_normal_after_boot=1",
                                          "rcutree.nohz_full_patience_delay=1000",
                                          "nosoftlockup" };

    g_assert_cmpint(rv_host_profile_load("profiles/host/realtime-virtual-host.ini", &p, &err), ==, 0);
    /* realtime-virtual-host [bootloader]: nohz=on nohz_full rcu_nocbs irqaffinity */
    g_assert_cmpstr(p->nohz, ==, "on");
    g_assert_cmpint(p->nohz_full, ==, RV_HOST_TRI_YES);
    g_assert_cmpint(p->rcu_nocbs, ==, RV_HOST_TRI_YES);
    g_assert_cmpint(p->irqaffinity, ==, RV_HOST_TRI_YES);
    /* realtime: isolcpus=managed_irq,domain,... (isolate_managed_irq=Y) */
    g_assert_cmpint(p->isolcpus, ==, RV_HOST_TRI_YES);
    g_assert_true(g_strv_contains((const char * const *) p->isolcpus_flags, "managed_irq"));
    g_assert_true(g_strv_contains((const char * const *) p->isolcpus_flags, "domain"));
    /* network-latency: skew_tick=1 and friends */
    g_assert_cmpint(p->skew_tick, ==, RV_HOST_TRI_YES);
    for (size_t i = 0; i < G_N_ELEMENTS(extra); i++)
        g_assert_true(g_strv_contains((const char * const *) p->extra_bootargs, extra[i]));
    /* [scheduler] groups */
    g_assert_cmpuint(p->kthreads->len, ==, G_N_ELEMENTS(kt));
    for (size_t i = 0; i < G_N_ELEMENTS(kt); i++) {
        const RvHostKthreadPrio *k = p->kthreads->pdata[i];
        g_assert_cmpstr(k->name, ==, kt[i].name);
        g_assert_cmpint(k->policy, ==, SCHED_FIFO);
        g_assert_cmpint(k->priority, ==, kt[i].prio);
    }
    /* realtime [sysctl] kernel.sched_rt_runtime_us = -1; network-latency sysctls */
    g_assert_true(p->rt_runtime_us.set && p->rt_runtime_us.value == -1);
    g_assert_true(p->timer_migration.set && p->timer_migration.value == 0);
    g_assert_true(p->nmi_watchdog.set && p->nmi_watchdog.value == 0);
    g_assert_true(p->numa_balancing.set && p->numa_balancing.value == 0);
    g_assert_cmpint(p->thp, ==, RV_HOST_THP_NEVER);
    /* realtime-virtual-host [sysfs] ksm/run = 2 */
    g_assert_true(p->ksm_run.set && p->ksm_run.value == 2);
    /* realtime [sysfs] workqueue cpumask = not isolated; irqbalance banned = isolated */
    g_assert_cmpint(p->workqueue_cpumask, ==, RV_HOST_CPUSEL_HOUSEKEEPING);
    g_assert_cmpint(p->irq_affinity, ==, RV_HOST_CPUSEL_HOUSEKEEPING);
    /* realtime machinecheck ignore_ce = 1 */
    g_assert_true(p->mce_ignore_ce.set && p->mce_ignore_ce.value == 1);
    /* latency-performance governor=performance */
    g_assert_cmpstr(p->governor, ==, "performance");
    /* what tuned misses: whole cores, SMT policy, core scheduling */
    g_assert_false(p->has_isolated);
    g_assert_cmpuint(p->housekeeping_cores_per_socket, ==, 1);
    g_assert_cmpint(p->smt, !=, RV_HOST_SMT_UNSET);
    g_assert_cmpint(p->core_scheduling, !=, RV_HOST_CORESCHED_UNSET);
    g_assert_cmpstr(p->libvirt_sched_core, ==, "vcpus");
    /* both files recorded, top first */
    g_assert_cmpuint(p->files->len, ==, 2);
    g_assert_true(g_str_has_suffix(p->files->pdata[1], "rt-base.ini"));
}

static void
test_resolve_partition(void)
{
    g_autoptr(RvHostProfile) p = NULL;
    g_autoptr(GError) err = NULL;
    RvCpuSet online, iso, hk;

    g_assert_cmpint(rv_cpulist_parse("0-1", 0, &online, NULL), ==, 0);
    g_assert_cmpint(rv_host_profile_load("profiles/host/two-cpu.ini", &p, &err), ==, 0);
    g_assert_cmpint(rv_host_profile_resolve_partition(p, &online, &iso, &hk, &err), ==, 0);
    g_assert_cmpuint(rv_cpuset_count(&iso), ==, 1);
    g_assert_true(rv_cpuset_isset(&iso, 1));
    g_assert_true(rv_cpuset_isset(&hk, 0));
    g_clear_pointer(&p, rv_host_profile_free);

    /* per-socket intent: the caller must compute it from topology */
    g_assert_cmpint(rv_host_profile_load("profiles/host/realtime-virtual-host.ini", &p, &err), ==, 0);
    g_assert_cmpint(rv_host_profile_resolve_partition(p, &online, &iso, &hk, &err), ==, -ENODATA);
    g_clear_pointer(&p, rv_host_profile_free);

    /* an isolated list beyond the online CPUs */
    g_assert_cmpint(rv_host_profile_load_data("mem.ini", "[cpus]\nisolated = 1-3\n", &p, &err), ==, 0);
    g_assert_cmpint(rv_host_profile_resolve_partition(p, &online, &iso, &hk, &err), ==, -EINVAL);
    g_assert_true(g_error_matches(err, RV_ERROR, RV_ERROR_INVALID));
    g_assert_nonnull(strstr(err->message, "2-3"));
    g_clear_error(&err);
    g_clear_pointer(&p, rv_host_profile_free);

    /* everything isolated: no housekeeping CPU left */
    g_assert_cmpint(rv_host_profile_load_data("mem.ini", "[cpus]\nisolated = 0-1\n", &p, &err), ==, 0);
    g_assert_cmpint(rv_host_profile_resolve_partition(p, &online, &iso, &hk, &err), ==, -EINVAL);
    g_assert_nonnull(strstr(err->message, "no housekeeping CPU"));
}

static void
add_dir(const char *dir, const char *prefix, bool bad)
{
    g_autoptr(GDir) d = g_dir_open(dir, 0, NULL);
    g_autoptr(GPtrArray) names = g_ptr_array_new_with_free_func(g_free);
    const char *n;

    g_assert_nonnull(d);
    while ((n = g_dir_read_name(d)))
        if (g_str_has_suffix(n, ".ini") && g_str_has_prefix(n, prefix))
            g_ptr_array_add(names, g_strdup(n));
    g_ptr_array_sort(names, rv_test_cmp_names);
    for (guint i = 0; i < names->len; i++) {
        char *path = g_build_filename(dir, names->pdata[i], NULL);
        bool host = g_str_has_prefix(prefix, "host-");
        g_autofree char *tp = g_strdup_printf("/hostprofile/%s/%s",
                                              host ? "host" : bad ? "bad" : "good",
                                              (char *) names->pdata[i]);
        g_test_add_data_func_full(tp, path, host ? test_host : bad ? test_bad : test_good,
                                  g_free);
    }
}

int
main(int argc, char **argv)
{
    const char *top = g_getenv("RV_TOP");

    g_test_init(&argc, &argv, NULL);
    /* paths in messages are relative to the repository */
    if (top && chdir(top) < 0)
        g_error("chdir %s: %s", top, g_strerror(errno));
    add_dir("profiles/host", "", false);
    add_dir("tests/data/hostprofile", "good-", false);
    add_dir("tests/data/hostprofile", "bad-", true);
    add_dir("tests/data/hostprofile", "host-", false);
    g_test_add_func("/hostprofile/realtime-virtual-host-covers-tuned",
                    test_realtime_virtual_host_covers_tuned);
    g_test_add_func("/hostprofile/resolve-partition", test_resolve_partition);
    g_test_add_func("/hostprofile/check-host-offline", test_check_host_offline);
    return g_test_run();
}
