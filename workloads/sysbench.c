/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * workloads/sysbench.c: Debian's sysbench (1.0.20), `sysbench cpu` (prime
 * sieve events, no AVX) and `sysbench threads` (mutex/yield events), at
 * sysbench_threads threads and an optional --rate cap for the duration:
 * events per second and the 95th-percentile event latency.  The text it
 * prints ("events per second:", "total time:", "total number of events:",
 * "95th percentile:" under "Latency (ms):") is read line by line; other
 * lines are sysbench's chatter and are skipped, but each needed figure must
 * come exactly once.
 */
#include <errno.h>
#include <string.h>

#include "util/error.h"
#include "workloads/workload.h"

static const char * const needs[] = { "sysbench", NULL };

static const RvWorkloadKey keys[] = {
    { "sysbench_threads", RV_WORKLOAD_PARAM_THREADS, 1, 4096, "--threads (default 1)" },
    { "sysbench_rate", RV_WORKLOAD_PARAM_RATE, 0, 1000000000,
      "--rate: events per second over all threads, 0 = unlimited (default)" },
    { NULL },
};

static const RvWorkloadMetric metrics[] = {
    { "events_per_s", "events/s", RV_STORE_BETTER_HIGHER, RV_STORE_AGGREGATE_HMEAN },
    { "latency_p95_ms", "ms", RV_STORE_BETTER_LOWER, RV_STORE_AGGREGATE_MEAN },
    { "latency_avg_ms", "ms", RV_STORE_BETTER_LOWER, RV_STORE_AGGREGATE_MEAN },
    { NULL },
};

static char **
argv_for(const char *test, const RvWorkloadParams *p)
{
    guint64 secs = MAX((p->duration_us + G_USEC_PER_SEC - 1) / G_USEC_PER_SEC, (guint64) 1);
    g_autofree char *threads = g_strdup_printf("--threads=%" G_GINT64_FORMAT,
                                               p->value[RV_WORKLOAD_PARAM_THREADS]
                                               ? p->value[RV_WORKLOAD_PARAM_THREADS] : 1);
    g_autofree char *rate = g_strdup_printf("--rate=%" G_GINT64_FORMAT,
                                            p->value[RV_WORKLOAD_PARAM_RATE]);
    g_autofree char *time = g_strdup_printf("--time=%" G_GUINT64_FORMAT, secs);

    return g_strdupv((char *[]) { "sysbench", (char *) test, threads, rate, time,
                                  "--percentile=95", "run", NULL });
}

static char **
sysbench_cpu_argv(const RvWorkloadParams *p)
{
    return argv_for("cpu", p);
}

static char **
sysbench_threads_argv(const RvWorkloadParams *p)
{
    return argv_for("threads", p);
}

/* "LABEL: NUMBER[s]" -> the number; -ENOENT when the line is another */
static int
labelled(const char *line, const char *label, double max, double *ret, bool *seen)
{
    const char *p = line;
    char *end;
    double v;

    while (*p == ' ' || *p == '\t')
        p++;
    if (!g_str_has_prefix(p, label))
        return -ENOENT;
    p += strlen(label);
    if (*seen)
        return -EEXIST;
    while (*p == ' ' || *p == '\t')
        p++;
    errno = 0;
    v = g_ascii_strtod(p, &end);
    if (end == p || (gsize) (end - p) != rv_workload_decimal_span(p) || errno || !(v >= 0 && v <= max) || (*end && strcmp(end, "s") != 0))
        return -ERANGE;
    *ret = v;
    *seen = true;
    return 0;
}

static int
sysbench_parse(const RvWorkloadParams *p, const char *name, const char *out, gsize len,
               RvWorkloadResult *res, GError **error)
{
    static const char * const labels[] = { "events per second:", "total time:",
                                           "total number of events:", "95th percentile:",
                                           "avg:" };
    g_auto(GStrv) lines = NULL;
    double v[G_N_ELEMENTS(labels)] = { 0 };
    bool seen[G_N_ELEMENTS(labels)] = { 0 };
    bool in_latency = false;
    int r = rv_workload_output_lines(name, out, len, &lines, error);

    (void) p;
    if (r < 0)
        return r;
    for (guint i = 0; lines[i]; i++) {
        if (strstr(lines[i], "Latency (ms):"))
            in_latency = true;
        for (guint k = 0; k < G_N_ELEMENTS(labels); k++) {
            /* min/avg/max appear under "Latency (ms):" only in 1.0 */
            if (k >= 3 && !in_latency)
                continue;
            r = labelled(lines[i], labels[k], 1e12, &v[k], &seen[k]);
            if (r == -EEXIST)
                return rv_error_set(error, RV_ERROR_INVALID, EINVAL,
                                    "%s: line %u: '%s' a second time", name, i + 1, labels[k]);
            if (r == -ERANGE)
                return rv_error_set(error, RV_ERROR_INVALID, EINVAL,
                                    "%s: line %u: '%s' is not followed by a number: '%.40s'",
                                    name, i + 1, labels[k], lines[i]);
        }
    }
    for (guint k = 1; k < 4; k++)
        if (!seen[k])
            return rv_error_set(error, RV_ERROR_INVALID, EINVAL,
                                "%s: no '%s' line: not sysbench's report, or cut short", name,
                                labels[k]);
    if (!(v[1] > 0))
        return rv_error_set(error, RV_ERROR_INVALID, EINVAL, "%s: total time %g s", name, v[1]);
    /* sysbench threads prints no rate: events over the time */
    rv_workload_add_metric(&rv_workload_sysbench, res->rec, "events_per_s",
                           seen[0] ? v[0] : v[2] / v[1]);
    rv_workload_add_metric(&rv_workload_sysbench, res->rec, "latency_p95_ms", v[3]);
    if (seen[4])
        rv_workload_add_metric(&rv_workload_sysbench, res->rec, "latency_avg_ms", v[4]);
    res->summary = g_strdup_printf("%.1f events/s, p95 %.2f ms", seen[0] ? v[0] : v[2] / v[1],
                                   v[3]);
    return 0;
}

const RvWorkloadOps rv_workload_sysbench = {
    .name = "sysbench",
    .description = "sysbench cpu: prime-sieve events (no AVX) at sysbench_threads, "
                   "events/s and p95 latency",
    .where = RV_WORKLOAD_NEIGHBOUR,
    .needs = needs,
    .keys = keys,
    .metrics = metrics,
    .max_output = 256u << 10,
    .argv = sysbench_cpu_argv,
    .parse = sysbench_parse,
};

const RvWorkloadOps rv_workload_sysbench_threads = {
    .name = "sysbench-threads",
    .description = "sysbench threads: mutex and yield events at sysbench_threads, "
                   "events/s and p95 latency",
    .where = RV_WORKLOAD_NEIGHBOUR,
    .needs = needs,
    .keys = keys,
    .metrics = metrics,
    .max_output = 256u << 10,
    .argv = sysbench_threads_argv,
    .parse = sysbench_parse,
};
