/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * workloads/stress.c: busy loops as neighbour load: neighbour_workers
 * `while :; do :; done` shells under busybox timeout for the whole
 * repetition.  Load only.
 */
#include "workloads/workload.h"

static const char * const needs[] = { "busybox", NULL };

static char **
stress_argv(const RvWorkloadParams *p)
{
    guint64 seconds = p->duration_us / G_USEC_PER_SEC;
    gint64 workers = p->value[RV_WORKLOAD_PARAM_THREADS] ? p->value[RV_WORKLOAD_PARAM_THREADS] : 1;
    g_autofree char *script = g_strdup_printf(
        "i=0; while [ $i -lt %" G_GINT64_FORMAT " ]; do "
        "timeout %" G_GUINT64_FORMAT " sh -c 'while :; do :; done' & "
        "i=$((i+1)); done; wait; echo stress-workers %" G_GINT64_FORMAT,
        workers, seconds, workers);

    return g_strdupv((char *[]) { "sh", "-c", script, NULL });
}

const RvWorkloadOps rv_workload_stress = {
    .name = "stress",
    .description = "busy-loop shells (neighbour_workers of them) for the whole repetition",
    .where = RV_WORKLOAD_NEIGHBOUR,
    .needs = needs,
    .max_output = 64u << 10,
    .uses_neighbour_workers = true,
    .argv = stress_argv,
};
