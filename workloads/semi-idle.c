/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * workloads/semi-idle.c: a semi-idle VM as in the core-scheduling
 * reference (96 of them per node beside the TPC-C server): it sleeps,
 * wakes every semi_idle_interval seconds, does a little work (a busybox sh
 * count to semi_idle_work) and sleeps again, for the whole repetition.
 * Load only: its exit status is checked.  Many-guest placement (count =
 * N) is the matrix's.
 */
#include "workloads/workload.h"

static const char * const needs[] = { "busybox", NULL };

static const RvWorkloadKey keys[] = {
    { "semi_idle_interval", RV_WORKLOAD_PARAM_INTERVAL, 1, 3600,
      "seconds between wake-ups (default 5)" },
    { "semi_idle_work", RV_WORKLOAD_PARAM_SIZE, 1, 100000000,
      "loop steps per wake-up (default 2000)" },
    { NULL },
};

static char **
semi_idle_argv(const RvWorkloadParams *p)
{
    guint64 seconds = p->duration_us / G_USEC_PER_SEC;
    gint64 interval = p->value[RV_WORKLOAD_PARAM_INTERVAL] ? p->value[RV_WORKLOAD_PARAM_INTERVAL] : 5;
    gint64 work = p->value[RV_WORKLOAD_PARAM_SIZE] ? p->value[RV_WORKLOAD_PARAM_SIZE] : 2000;
    g_autofree char *script = g_strdup_printf(
        "end=$(($(date +%%s)+%" G_GUINT64_FORMAT ")); n=0; "
        "while [ $(date +%%s) -lt $end ]; do i=0; "
        "while [ $i -lt %" G_GINT64_FORMAT " ]; do i=$((i+1)); done; n=$((n+1)); "
        "sleep %" G_GINT64_FORMAT "; done; echo semi-idle-wakeups $n",
        seconds, work, interval);

    return g_strdupv((char *[]) { "sh", "-c", script, NULL });
}

const RvWorkloadOps rv_workload_semi_idle = {
    .name = "semi-idle",
    .description = "wakes every semi_idle_interval s, does a little work, sleeps again",
    .where = RV_WORKLOAD_NEIGHBOUR,
    .needs = needs,
    .keys = keys,
    .max_output = 64u << 10,
    .argv = semi_idle_argv,
};
