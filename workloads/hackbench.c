/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * workloads/hackbench.c: rt-tests' hackbench(8) as neighbour load: N groups
 * of 20 senders and receivers over sockets, round after round for the
 * whole repetition (a busybox sh loop in the guest; the script holds only
 * numbers we formatted).  Load only: its exit status is checked, nothing
 * measured.
 */
#include "workloads/workload.h"

static const char * const needs[] = { "hackbench", NULL };

static char **
hackbench_argv(const RvWorkloadParams *p)
{
    guint64 seconds = p->duration_us / G_USEC_PER_SEC;
    gint64 groups = p->value[RV_WORKLOAD_PARAM_THREADS] ? p->value[RV_WORKLOAD_PARAM_THREADS] : 1;
    g_autofree char *script = g_strdup_printf(
        "end=$(($(date +%%s)+%" G_GUINT64_FORMAT ")); n=0; "
        "while [ $(date +%%s) -lt $end ]; do "
        "hackbench -g %" G_GINT64_FORMAT " -l 200 >/dev/null 2>&1 || exit 1; n=$((n+1)); "
        "done; echo hackbench-rounds $n", seconds, groups);

    return g_strdupv((char *[]) { "sh", "-c", script, NULL });
}

const RvWorkloadOps rv_workload_hackbench = {
    .name = "hackbench",
    .description = "rt-tests hackbench rounds (neighbour_workers groups) for the whole repetition",
    .where = RV_WORKLOAD_NEIGHBOUR,
    .needs = needs,
    .max_output = 64u << 10,
    .uses_neighbour_workers = true,
    .argv = hackbench_argv,
};
