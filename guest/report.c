/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * guest/report.c: the per-vCPU cyclictest table (guest/report.h).
 */
#include "guest/report.h"

static const double percentiles[] = { 50, 90, 99, 99.9, 99.99 };
static const char * const percentile_names[] = { "p50", "p90", "p99", "p99.9", "p99.99" };

int
rv_guest_report_thread_vcpu(const RvGuestProfile *profile, int index)
{
    RvCpuSet measured = profile->rt_vcpus;
    int cpu = -1;

    if (rv_cpuset_is_empty(&measured))
        rv_cpuset_set_range(&measured, 0, profile->vcpus - 1);
    for (int i = 0; i <= index; i++) {
        cpu = rv_cpuset_next(&measured, cpu + 1);
        if (cpu < 0)
            return -1;
    }
    return cpu;
}

char *
rv_guest_report_percentile_cell(const RvHistogram *hist, double p)
{
    gint64 v = -1;
    gboolean beyond = FALSE;

    if (!hist || rv_result_histogram_percentile(hist, p, &v, &beyond, NULL) < 0)
        return g_strdup("-");
    if (!beyond)
        return g_strdup_printf("%" G_GINT64_FORMAT, v);
    /* among the overflows: v is max_us when known (upper bound), else the
     * range n_buckets (lower bound) */
    if (hist->max_us >= 0)
        return g_strdup_printf("<=%" G_GINT64_FORMAT, hist->max_us);
    return g_strdup_printf(">%" G_GINT64_FORMAT, v);
}

char *
rv_guest_report_cyclictest_table(const RvGuestProfile *profile, const RvCyclictestRun *run)
{
    GString *o = g_string_new(NULL);

    g_string_append_printf(o, "  %-5s %-6s %10s %8s %8s %8s", "vCPU", "thread", "samples", "min",
                           "avg", "max");
    for (guint p = 0; p < G_N_ELEMENTS(percentiles); p++)
        g_string_append_printf(o, " %8s", percentile_names[p]);
    g_string_append(o, "   (us)\n");
    for (guint i = 0; i < run->threads->len; i++) {
        const RvCyclictestThread *t = run->threads->pdata[i];
        gint64 samples = t->histogram ? (gint64) rv_result_histogram_total(t->histogram)
                                      : t->cycles;

        g_string_append_printf(o, "  %-5d %-6d %10" G_GINT64_FORMAT " %8" G_GINT64_FORMAT
                               " %8.1f %8" G_GINT64_FORMAT,
                               rv_guest_report_thread_vcpu(profile, t->index), t->index, samples,
                               t->min_us, t->avg_us, t->max_us);
        for (guint p = 0; p < G_N_ELEMENTS(percentiles); p++) {
            g_autofree char *cell = rv_guest_report_percentile_cell(t->histogram, percentiles[p]);

            g_string_append_printf(o, " %8s", cell);
        }
        g_string_append_c(o, '\n');
    }
    return g_string_free(o, FALSE);
}
