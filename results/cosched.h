/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * results/cosched.h: co-scheduling stats per VM, exact
 * interval arithmetic over the per-CPU sched_switch timelines.  Pure: it
 * works on parsed events (results/attribution.h parses the tracefs text),
 * so tests run it on captured and hand-written traces.
 *
 * Each CPU's timeline is the sequence of its sched_switch events: between
 * two events the CPU ran the previous event's next_pid (before the first,
 * that event's prev_pid, from @start_ns).  For every interval in which a
 * CPU ran a thread of VM v, the interval is charged to v's running time
 * and, by what the CPU's SMT sibling ran at the same time, to same (a
 * thread of v), idle (pid 0), foreign (another VM or the host) or unknown
 * (the sibling has no event in the trace, so its state is not known).
 */
#pragma once

#include <sys/types.h>
#include <glib.h>

/* Times of one VM, ns.  run_ns = same_ns + idle_ns + foreign_ns + unknown_ns. */
typedef struct {
    guint64 run_ns;
    guint64 same_ns;
    guint64 idle_ns;
    guint64 foreign_ns;
    guint64 unknown_ns;
} RvCoschedShare;

/**
 * rv_result_cosched_compute:
 * @events: RvAttrEvent (results/attribution.h) in time order; only
 *          RV_ATTR_SWITCH events are used
 * @sibling: @n_cpus entries: sibling[c] = the SMT sibling of CPU c, or -1
 *           (no sibling: c's intervals are charged to run_ns and unknown_ns)
 * @n_cpus: number of CPUs; an event on a CPU >= @n_cpus is an error
 * @tid_vm: pid/tid (GINT_TO_POINTER) -> VM index + 1 (GUINT_TO_POINTER);
 *          threads not in it are host threads
 * @n_vms: entries of @ret
 * @start_ns, @end_ns: the measurement window on the trace clock, ns;
 *          events outside it clip to it
 * @ret: (out caller-allocates): @n_vms RvCoschedShare, zeroed here
 * @error: RV_ERROR_INVALID: events out of time order, a CPU out of range,
 *         @end_ns < @start_ns or a VM index > @n_vms
 *
 * Returns: 0 or -EINVAL.
 */
int rv_result_cosched_compute(const GArray *events, const int *sibling, guint n_cpus,
                              GHashTable *tid_vm, guint n_vms, guint64 start_ns,
                              guint64 end_ns, RvCoschedShare *ret,
                              GError **error) G_GNUC_WARN_UNUSED_RESULT;

/* @part as a percentage of @run_ns (0.0 when @run_ns is 0). */
double rv_result_cosched_pct(guint64 part, guint64 run_ns);

/* One VM's co-scheduling shares over the repetitions of a scenario, %:
 * mean of the repetitions' *_pct (harness/cosched.h's details.cosched.vms[])
 * and the foreign share's sample standard deviation (NAN for n < 2). */
typedef struct {
    char *vm;                /* VM (libvirt domain) name */
    guint n;                 /* repetitions that measured it */
    double same_pct, idle_pct, foreign_pct, unknown_pct;
    double foreign_sd;
    double run_s;            /* mean running time of its threads, s */
} RvCoschedSummary;

void rv_result_cosched_summary_free(RvCoschedSummary *s);

/**
 * rv_result_cosched_scenario:
 * @records: RvStoreRecord* of one store (rv_result_store_get_records())
 * @scenario: a scenario name
 * @ret_skipped: (out) (optional): the first details.cosched {skipped:
 *     reason} of the scenario's host-counters records, or NULL (borrowed
 *     from @records)
 *
 * Store shapes are untrusted: a VM entry without a string name or with a
 * share that is no number in 0..100 is left out.
 *
 * Returns: (transfer full): RvCoschedSummary*, one per VM in first-seen
 * order, with its free function (empty when none measured).
 */
GPtrArray *rv_result_cosched_scenario(GPtrArray *records, const char *scenario,
                                      const char **ret_skipped);
