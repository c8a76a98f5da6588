/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * workloads/pipe.c: rtvirt-pipe (guest-tools/pipe.c), pipe-test-1m from the
 * hrtimer regression thread: 10^6 one-byte round trips between two tasks
 * through two pipes, on one CPU and across two CPUs (every wake-up a
 * rescheduling IPI; in a guest a VM exit).  Time per round trip, in ns; the
 * host's IPI and timer counters of the same repetition are in its
 * host-counters record.  As the [host] workload it runs on the host's
 * measured CPUs ([host] cpus: the first for "same", the first two for
 * "cross"), the rtvirt-pipe installed beside rtvirt, and its record also
 * carries the rescheduling / function-call IPIs and local timer
 * interrupts those CPUs took during it (harness/run-records.c).
 */
#include <errno.h>
#include <string.h>

#include "util/error.h"
#include "workloads/workload.h"

static const char * const needs[] = { "rtvirt-pipe", NULL };

static const RvWorkloadKey keys[] = {
    { "pipe_roundtrips", RV_WORKLOAD_PARAM_COUNT, 1, 1000000000,
      "round trips per placement (default 1000000)" },
    { NULL },
};

static const RvWorkloadMetric metrics[] = {
    { "same_cpu_ns", "ns", RV_STORE_BETTER_LOWER, RV_STORE_AGGREGATE_MEAN },
    { "cross_cpu_ns", "ns", RV_STORE_BETTER_LOWER, RV_STORE_AGGREGATE_MEAN },
    /* on the host: /proc/interrupts RES, CAL and LOC deltas of its CPUs */
    { "resched_ipis", "count", RV_STORE_BETTER_LOWER, RV_STORE_AGGREGATE_MEAN },
    { "call_ipis", "count", RV_STORE_BETTER_LOWER, RV_STORE_AGGREGATE_MEAN },
    { "local_timer_irqs", "count", RV_STORE_BETTER_LOWER, RV_STORE_AGGREGATE_MEAN },
    { NULL },
};

/* In a guest: "rtvirt-pipe -c N" (the image's tool, its CPUs 0 and 1);
 * on the host: DIR/rtvirt-pipe -c N -a A -b B, DIR that of @p->self, A and
 * B the first two CPUs of @p->cpus (B = A for one CPU: no cross run). */
static char **
pipe_argv(const RvWorkloadParams *p)
{
    g_autofree char *count = g_strdup_printf("%" G_GINT64_FORMAT,
                                             p->value[RV_WORKLOAD_PARAM_COUNT]
                                             ? p->value[RV_WORKLOAD_PARAM_COUNT] : 1000000);

    if (p->where == RV_WORKLOAD_HOST) {
        g_autofree char *dir = g_path_get_dirname(p->self ? p->self : "rtvirt");
        g_autofree char *tool = g_build_filename(dir, "rtvirt-pipe", NULL);
        int a = rv_cpuset_next(&p->cpus, 0), b = a >= 0 ? rv_cpuset_next(&p->cpus, a + 1) : -1;
        g_autofree char *as = g_strdup_printf("%d", a < 0 ? 0 : a);
        g_autofree char *bs = g_strdup_printf("%d", b >= 0 ? b : a < 0 ? 0 : a);

        return g_strdupv((char *[]) { tool, "-c", count, "-a", as, "-b", bs, NULL });
    }
    return g_strdupv((char *[]) { "rtvirt-pipe", "-c", count, NULL });
}

static int
pipe_parse(const RvWorkloadParams *p, const char *name, const char *out, gsize len,
           RvWorkloadResult *res, GError **error)
{
    g_auto(GStrv) lines = NULL;
    double ns[2] = { -1, -1 };
    int r = rv_workload_output_lines(name, out, len, &lines, error);

    (void) p;
    if (r < 0)
        return r;
    for (guint i = 0; lines[i]; i++) {
        g_auto(GStrv) t = rv_workload_tokens(lines[i]);
        int which;
        double c, secs;

        if (!t[0] || strcmp(t[0], "pipe") != 0 || !t[1] ||
            (which = strcmp(t[1], "same") == 0 ? 0 : strcmp(t[1], "cross") == 0 ? 1 : -1) < 0)
            return rv_error_set(error, RV_ERROR_INVALID, EINVAL,
                                "%s: line %u: unexpected '%.40s'", name, i + 1, lines[i]);
        if (which == 1 && t[2] && strcmp(t[2], "skipped:") == 0)
            continue;
        if (ns[which] >= 0 || g_strv_length(t) != 10 ||
            rv_workload_line_number(t, "roundtrips", 1, 1e12, &c) < 0 ||
            rv_workload_line_number(t, "seconds", 0, 1e7, &secs) < 0 ||
            rv_workload_line_number(t, "ns_per_roundtrip", 0, 1e12, &ns[which]) < 0)
            return rv_error_set(error, RV_ERROR_INVALID, EINVAL,
                                "%s: line %u: not 'pipe same|cross cpus A,B roundtrips N "
                                "seconds S ns_per_roundtrip X' (once each)", name, i + 1);
    }
    if (ns[0] < 0)
        return rv_error_set(error, RV_ERROR_INVALID, EINVAL,
                            "%s: no 'pipe same' line: cut short?", name);
    rv_workload_add_metric(&rv_workload_pipe, res->rec, "same_cpu_ns", ns[0]);
    if (ns[1] >= 0)
        rv_workload_add_metric(&rv_workload_pipe, res->rec, "cross_cpu_ns", ns[1]);
    res->summary = ns[1] >= 0
        ? g_strdup_printf("pipe %.0f ns same CPU, %.0f ns across", ns[0], ns[1])
        : g_strdup_printf("pipe %.0f ns same CPU", ns[0]);
    return 0;
}

const RvWorkloadOps rv_workload_pipe = {
    .name = "pipe",
    .description = "rtvirt-pipe: pipe-test-1m round trips on one CPU and across CPUs, ns each",
    .where = RV_WORKLOAD_RT_GUEST | RV_WORKLOAD_NEIGHBOUR | RV_WORKLOAD_HOST,
    .needs = needs,
    .keys = keys,
    .metrics = metrics,
    .max_output = 64u << 10,
    .untimed = true,
    .argv = pipe_argv,
    .parse = pipe_parse,
};
