/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * workloads/cyclictest.c: rt-tests' cyclictest(8), the latency probe of RT
 * guests and of isolated host CPUs.  The text it prints with -q and -h is
 * parsed by results/cyclictest.h (real outputs in tests/data/cyclictest).
 */
#include "results/cyclictest.h"
#include "workloads/workload.h"

static const char * const needs[] = { "cyclictest", NULL };

/* compare's Welch test treats each repetition's max as one sample: the
 * mean over repetitions, as before the attributes existed */
static const RvWorkloadMetric metrics[] = {
    { "max_us", "us", RV_STORE_BETTER_LOWER, RV_STORE_AGGREGATE_MEAN },
    { "min_us", "us", RV_STORE_BETTER_LOWER, RV_STORE_AGGREGATE_MEAN },
    { "avg_us", "us", RV_STORE_BETTER_LOWER, RV_STORE_AGGREGATE_MEAN },
    { "cycles", NULL, RV_STORE_BETTER_LOWER, RV_STORE_AGGREGATE_MEAN },
    { NULL },
};

/* In a guest: the profile's [cyclictest] with the matrix's overrides
 * (guest/profile.h builds it); on the host: -a CPUS -t N. */
static char **
cyclictest_argv(const RvWorkloadParams *p)
{
    if (p->where == RV_WORKLOAD_HOST) {
        g_autofree char *cpus = rv_cpulist_format(&p->cpus);
        guint64 secs = (p->duration_us + G_USEC_PER_SEC - 1) / G_USEC_PER_SEC;
        g_autofree char *prio = g_strdup_printf("%u", p->ct_priority ? p->ct_priority : 95);
        g_autofree char *interval = g_strdup_printf("%" G_GUINT64_FORMAT,
                                                    p->ct_interval_us ? p->ct_interval_us : 1000);
        g_autofree char *dur = g_strdup_printf("%" G_GUINT64_FORMAT "s", secs);
        g_autofree char *hist = g_strdup_printf("%u", p->ct_histogram ? p->ct_histogram : 1000);
        g_autofree char *threads = g_strdup_printf("%u", rv_cpuset_count(&p->cpus));

        return g_strdupv((char *[]) { "cyclictest", "-m", "-q", "-p", prio, "-i", interval,
                                      "-D", dur, "-h", hist, "-a", cpus, "-t", threads,
                                      NULL });
    } else {
        RvGuestProfile tmp = *p->profile;   /* shallow: only the numbers change */

        if (p->ct_interval_us)
            tmp.ct_interval_us = p->ct_interval_us;
        if (p->ct_priority)
            tmp.ct_priority = (int) p->ct_priority;
        if (p->ct_histogram)
            tmp.ct_histogram = p->ct_histogram;
        return rv_guest_profile_cyclictest_argv(&tmp, p->duration_us);
    }
}

static int
cyclictest_parse(const RvWorkloadParams *p, const char *name, const char *out, gsize len,
                 RvWorkloadResult *res, GError **error)
{
    g_autoptr(GPtrArray) runs = NULL;
    const RvCyclictestRun *run;
    int want_prio, r;

    r = rv_result_cyclictest_parse(name, out, len, &runs, error);
    if (r < 0)
        return r;
    run = runs->pdata[runs->len - 1];
    r = rv_result_cyclictest_record_add(res->rec, run, error);
    if (r < 0)
        return r;
    /* what really ran: the priority of every thread */
    want_prio = p->ct_priority ? (int) p->ct_priority
                               : p->profile ? p->profile->ct_priority : 95;
    for (guint t = 0; t < run->threads->len; t++) {
        const RvCyclictestThread *th = run->threads->pdata[t];

        if (th->priority >= 0 && th->priority != want_prio) {
            if (!res->findings)
                res->findings = g_ptr_array_new_with_free_func(g_free);
            g_ptr_array_add(res->findings, g_strdup_printf("thread %d ran at P:%d, asked %d",
                                                           th->index, th->priority,
                                                           want_prio));
        }
    }
    res->summary = g_strdup_printf("max %" G_GINT64_FORMAT " us",
                                   rv_result_cyclictest_run_max_us(run));
    return 0;
}

const RvWorkloadOps rv_workload_cyclictest = {
    .name = "cyclictest",
    .description = "rt-tests cyclictest: wake-up latency histogram of the RT vCPUs or host CPUs",
    .where = RV_WORKLOAD_RT_GUEST | RV_WORKLOAD_HOST,
    .needs = needs,
    .metrics = metrics,
    .max_output = 8u << 20,
    .argv = cyclictest_argv,
    .parse = cyclictest_parse,
};
