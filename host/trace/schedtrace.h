/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * host/trace/schedtrace.h: record sched_switch through tracefs and check that SMT
 * siblings never ran tasks of two different core cookies at once.
 *
 * Recording: tracefs at /sys/kernel/tracing (or /sys/kernel/debug/tracing),
 * Documentation/trace/ftrace.rst and events.rst: events/sched/sched_switch,
 * trace_clock "global" (the default "local" clock is not comparable across
 * CPUs, and this check compares CPUs), buffer_size_kb, tracing_on; the text
 * of "trace" is read after tracing stops.  Every setting changed is put
 * back when the recording stops (orig_* kept as rtla does).
 *
 * Analysis: a pure function over parsed events, so it runs on captured
 * traces in unit tests.  Each task carries a label (its core cookie read
 * back with PR_SCHED_CORE_GET, or any grouping the caller wants to test, such
 * as "VM A / VM B / other" for a run WITHOUT cookies); pid 0 (idle) is
 * compatible with every label.  A "mixed" overlap is a stretch of time in
 * which two siblings of one core both run non-idle tasks of different
 * labels.
 *
 * Core scheduling cannot make siblings switch at the same instant: the CPU
 * doing the core-wide pick switches first and sends the sibling a
 * reschedule IPI (kernel/sched/core.c pick_next_task()), so the sibling runs
 * its old task until it takes the IPI, and a sibling may re-pick before the
 * first one took its IPI.  Such "handover" overlaps last as long as an IPI
 * takes to be served: microseconds on hardware, up to a host time slice in
 * a TCG lab VM whose vCPU threads share few host CPUs.  Siblings that run
 * two cookies without core scheduling overlap for whole time slices and
 * longer.  So an overlap longer than a grace time is a violation; the
 * report gives the counts, the longest of each kind, and the share of the
 * time both siblings were busy that was mixed.
 */
#pragma once

#include <stdbool.h>
#include <sys/types.h>
#include <glib.h>

#include "host/fsroot.h"

/* One sched_switch event (include/trace/events/sched.h). */
typedef struct {
    guint64 ts_ns;     /* trace timestamp, ns (printed as s.us: us resolution) */
    guint cpu;
    pid_t prev_pid;
    pid_t next_pid;
    char prev_comm[16];  /* TASK_COMM_LEN, truncated */
    char next_comm[16];
} RvSchedSwitch;

/* A (tid, label) pair; a sorted GArray of them labels the tasks. */
typedef struct {
    pid_t tid;
    guint64 label;     /* core cookie, or a group id; 0 = untagged */
} RvSchedLabel;

/* One mixed overlap on two siblings. */
typedef struct {
    guint cpu_a, cpu_b;     /* the CPU whose switch began it, and its sibling */
    pid_t pid_a, pid_b;     /* tasks when it began */
    guint64 label_a, label_b;
    guint64 start_ns, end_ns;
    bool violation;
} RvSchedOverlap;

typedef struct {
    guint n_events;         /* sched_switch events analysed */
    guint64 span_ns;        /* first to last event */
    guint64 both_busy_ns;   /* time two siblings of a core both ran non-idle tasks */
    guint64 mixed_ns;       /* of which with different labels */
    guint n_overlaps;       /* mixed overlaps */
    guint n_handovers;      /* ... that were handovers */
    guint n_violations;     /* ... that were violations */
    guint64 longest_handover_ns;
    guint64 longest_violation_ns;
    GArray *violations;     /* RvSchedOverlap: up to 32 violations (the first to end), by start */
} RvSchedReport;

void rv_host_schedtrace_report_free(RvSchedReport *rep);
G_DEFINE_AUTOPTR_CLEANUP_FUNC(RvSchedReport, rv_host_schedtrace_report_free)

/**
 * rv_host_schedtrace_parse:
 * @text: the text of tracefs "trace" (or trace-cmd report / a captured
 *        copy): comment lines ('#'), other events and blank lines are
 *        skipped; "CPU:N [LOST M EVENTS]" lines are counted
 * @ret_events: (out): RvSchedSwitch in file order (time order)
 * @ret_lost: (out) (optional): events the ring buffer dropped
 * @error: (optional): RV_ERROR_INVALID naming the line number and text of
 *         a sched_switch line that does not parse
 *
 * Line format (kernel 4.x..6.x, include/trace/events/sched.h):
 *   "<comm>-<pid> [(<tgid>)] [<cpu>] [<flags>] <s>.<us>: sched_switch:
 *    prev_comm=<comm> prev_pid=<pid> prev_prio=<n> prev_state=<S> ==>
 *    next_comm=<comm> next_pid=<pid> next_prio=<n>"
 *
 * Returns: the number of events or -errno.
 */
int rv_host_schedtrace_parse(const char *text, GArray **ret_events, guint *ret_lost,
                             GError **error) G_GNUC_WARN_UNUSED_RESULT;

/**
 * rv_host_schedtrace_analyze:
 * @events: RvSchedSwitch in time order (rv_host_schedtrace_parse())
 * @cpu_core: [@n_cpus] core index of each CPU (CPUs with equal values are
 *            SMT siblings; -1 = unknown, left out)
 * @n_cpus: length of @cpu_core; events on CPUs >= @n_cpus are ignored
 * @labels: RvSchedLabel sorted by tid; a task not in it has label 0
 * @grace_ns: a mixed overlap longer than this (ns) is a violation; 0 =
 *            every mixed overlap is one
 * @ret: (out): the report
 *
 * Pure.  A CPU's running task is unknown until its first event (then it is
 * that event's next_pid); pairs with an unknown CPU are not judged.
 *
 * Returns: 0 or -EINVAL (RV_ERROR_INVALID) when timestamps go backwards.
 */
int rv_host_schedtrace_analyze(const GArray *events, const int *cpu_core, guint n_cpus,
                               const GArray *labels, guint64 grace_ns,
                               RvSchedReport **ret, GError **error) G_GNUC_WARN_UNUSED_RESULT;

/* Multi-line text of a report: totals, then one line per violation. */
char *rv_host_schedtrace_report_format(const RvSchedReport *rep);

/* A recording in progress. */
typedef struct RvSchedTrace RvSchedTrace;

/**
 * rv_host_schedtrace_start:
 * @root: the live host (tracefs files written through it)
 * @buffer_kb: per-CPU ring buffer size in KiB (0 keeps the current one;
 *             the kernel rounds a written size up to whole 4080-byte
 *             data pages, so the restored size may read 2 KiB more, e.g.
 *             1408 -> 1410)
 * @ret: (out): the recording
 * @error: (optional): RV_ERROR_UNSUPPORTED when no tracefs with
 *         events/sched/sched_switch is mounted ("mount -t tracefs nodev
 *         /sys/kernel/tracing"), RV_ERROR_FAILED for a failed write
 *
 * Saves tracing_on, trace_clock, buffer_size_kb and the sched_switch enable
 * flag, clears the buffer and starts tracing sched_switch only (current_tracer
 * is left alone; it must be "nop", else -EBUSY: someone else is tracing).
 *
 * Returns: 0 or -errno.
 */
int rv_host_schedtrace_start(RvRoot *root, guint buffer_kb, RvSchedTrace **ret,
                             GError **error) G_GNUC_WARN_UNUSED_RESULT;

/**
 * rv_host_schedtrace_stop:
 * @trace: a recording
 * @ret_text: (out): the text of "trace"
 *
 * Stops tracing, reads the buffer, restores every saved setting (also when
 * reading fails).  A second call fails with -EALREADY.
 *
 * Returns: 0 or -errno.
 */
int rv_host_schedtrace_stop(RvSchedTrace *trace, char **ret_text,
                            GError **error) G_GNUC_WARN_UNUSED_RESULT;

/* Restores the settings when not stopped yet; accepts NULL. */
void rv_host_schedtrace_free(RvSchedTrace *trace);
G_DEFINE_AUTOPTR_CLEANUP_FUNC(RvSchedTrace, rv_host_schedtrace_free)
