/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * results/attribution.h: which host event stood behind an RT guest's worst
 * latencies.  Pure: everything here works on text and
 * parsed events, so tests run it on captured files.
 *
 * 1. Samples with time.  cyclictest -v prints one line per sample,
 *    "%8d:%8lu:%8ld\n" = thread index : cycle : latency in us (rt-tests
 *    src/cyclictest/cyclictest.c print_stat(), verbose branch).  It prints
 *    no timestamp, but its schedule is deterministic: the thread takes
 *    now, sets next = now + interval, and after each sample adds the
 *    interval and then "while (now > next) next += interval" (periods a
 *    late wake-up overran are skipped).  Replaying that over the printed
 *    latencies gives each sample's wake-up time relative to the thread's
 *    start, exactly (to the us rounding of the printed latencies).  The
 *    start itself is known on the host clock only within the exec window:
 *    it lies between the host's time before the agent started the command
 *    and the host's time after it saw it end minus the replayed span.
 *    The midpoint is taken; half that slack is the alignment error
 *    (alignment_error_us in run.json).  The guest's own clock is never
 *    used, so no guest-get-time offset enters.
 * 2. Host events: ftrace text lines of the events listed in
 *    rv_result_attr_parse_trace(), with the trace clock "mono"
 *    (CLOCK_MONOTONIC, the clock of g_get_monotonic_time()).
 * 3. Stories: per spike, the events on the host CPU that ran that vCPU in
 *    the window [wake - latency - margin - error, wake + margin + error],
 *    summed per actor (threads that ran instead of the vCPU, IRQs,
 *    softirqs, timers, idle, kvm_exit reasons) and told in one line,
 *    biggest first.
 */
#pragma once

#include <stdbool.h>
#include <sys/types.h>
#include <glib.h>
#include <json-glib/json-glib.h>

/* One cyclictest sample with its time. */
typedef struct {
    guint thread;          /* cyclictest thread index */
    guint64 cycle;
    guint64 latency_us;
    guint64 rel_us;        /* wake-up time after the thread's start, us */
} RvAttrSample;

/**
 * rv_result_attr_split_samples:
 * @data: cyclictest output with -v sample lines (untrusted)
 * @len: its length
 * @interval_us: cyclictest -i (the period), > 0
 * @max_lines: refuse more sample lines than this (bounded work)
 * @ret_samples: (out): RvAttrSample of every thread, rel_us replayed
 * @ret_rest: (out): @data without the sample lines, for the histogram
 *            parser (results/cyclictest.h)
 * @ret_span_us: (out): the largest rel_us
 * @error: RV_ERROR_INVALID naming the line: a malformed sample line,
 *         cycles of a thread not consecutive from 0, a latency over 1e9 us,
 *         more than @max_lines lines, or no sample line at all
 *
 * Returns: the number of samples or -errno.
 */
int rv_result_attr_split_samples(const char *data, gsize len, guint64 interval_us,
                                 guint max_lines, GArray **ret_samples, char **ret_rest,
                                 guint64 *ret_span_us, GError **error) G_GNUC_WARN_UNUSED_RESULT;

/* The @n worst samples of @samples (largest latency first, ties by time):
 * a new array of RvAttrSample. */
GArray *rv_result_attr_worst(const GArray *samples, guint n);

typedef enum {
    RV_ATTR_SWITCH,
    RV_ATTR_WAKEUP,
    RV_ATTR_IRQ_ENTRY,
    RV_ATTR_IRQ_EXIT,
    RV_ATTR_SOFTIRQ_ENTRY,
    RV_ATTR_SOFTIRQ_EXIT,
    RV_ATTR_IDLE,
    RV_ATTR_HRTIMER_ENTRY,
    RV_ATTR_HRTIMER_EXIT,
    RV_ATTR_KVM_EXIT,
} RvAttrKind;

/* One host event (include/trace/events/{sched,irq,power,timer,kvm}.h). */
typedef struct {
    guint64 ts_ns;           /* trace clock, ns (printed as s.us) */
    guint cpu;
    RvAttrKind kind;
    pid_t pid;               /* the task the event happened in ("<comm>-<pid>") */
    char comm[16];           /* its comm ("<idle>" for pid 0) */
    pid_t prev_pid, next_pid;          /* switch; wakeup: next_pid = woken */
    int prev_prio, next_prio;          /* kernel prio: 0-98 = RT 99-1, 100-139 = nice */
    char prev_comm[16], next_comm[16]; /* wakeup: next_comm */
    int num;                 /* irq number, softirq vec, idle state (-1 = exit) */
    char name[32];           /* irq name, softirq action, hrtimer function, kvm_exit reason */
} RvAttrEvent;

/**
 * rv_result_attr_parse_trace:
 * @text: tracefs "trace" text (untrusted)
 * @ret_events: (out): RvAttrEvent in file order
 * @ret_lost: (out) (optional): "LOST N EVENTS" summed
 * @error: RV_ERROR_INVALID naming the line of a known event whose fields
 *         do not parse
 *
 * Events: sched_switch, sched_wakeup, irq_handler_entry/exit,
 * softirq_entry/exit, cpu_idle, hrtimer_expire_entry/exit, kvm_exit; other
 * events, comments and blank lines are skipped.  Line shape:
 * "<comm>-<pid> [(<tgid>)] [<cpu>] [<flags>] <s>.<us>: <event>: <fields>".
 *
 * Returns: the number of events or -errno.
 */
int rv_result_attr_parse_trace(const char *text, GArray **ret_events, guint *ret_lost,
                               GError **error) G_GNUC_WARN_UNUSED_RESULT;

/* What rtvirt knows of a host task beyond the trace (policy from
 * /proc/PID/stat field 41, read while tracing stopped). */
typedef struct {
    pid_t pid;
    char policy[8];          /* "FIFO", "RR", "OTHER", "BATCH", "IDLE", "DL" */
    int rt_priority;         /* 1-99, 0 for non-RT */
} RvAttrTask;

/* One spike to tell. */
typedef struct {
    guint64 latency_us;
    guint64 wake_ns;         /* when the guest saw it, trace clock ns */
    guint64 window_lo_ns, window_hi_ns;
    guint vcpu;
    pid_t vcpu_tid;
    int cpu;                 /* host CPU that ran the vCPU; -1: not found */
} RvAttrSpike;

/**
 * rv_result_attr_story:
 * @events: RvAttrEvent in time order
 * @spike: the spike; its cpu is looked up when -1 (the CPU the vCPU
 *         thread last switched in on before the window's end)
 * @tasks: (nullable): RvAttrTask (any order) for policies
 * @ret_events: (out) (optional): the events of that CPU in the window,
 *              as a JSON array of short strings ("+1.234 ms switch
 *              CPU 0/TCG/812 -> rv-busy/900 prio 49"), at most 64
 *
 * Pure.  The vCPU thread's own running time is not "preemption"; idle
 * (pid 0) is told as idle.  Intervals are clipped to the window.  The
 * running task is also read from each event's context ("<comm>-<pid>"):
 * a kernel that leaves out some sched_switch events (this PVM host
 * records none whose prev is the idle task) still shows who ran; such an
 * unseen switch is placed at the CPU's previous event.
 *
 * Returns: (transfer full): the story, e.g. "vCPU0 on CPU 1 preempted
 *          20.1 ms by rv-busy/1234 (FIFO 50), IRQ 24 virtio0 12 us".
 */
char *rv_result_attr_story(const GArray *events, RvAttrSpike *spike, const GArray *tasks,
                           JsonNode **ret_events);

/* "FIFO 50", "RT 50" (policy unknown), "nice 0" from a kernel prio and an
 * optional task entry. */
char *rv_result_attr_prio_label(int kernel_prio, const RvAttrTask *task);

/* One told spike as a store keeps it (details.attribution.spikes[]). */
typedef struct {
    int repetition;
    char *target;            /* "guest:rt" */
    gint64 latency_us;
    char *story;
} RvAttrStory;

void rv_result_attr_story_free(RvAttrStory *s);

/**
 * rv_result_attr_scenario_stories:
 * @records: RvStoreRecord* of one store (rv_result_store_get_records())
 * @scenario: a scenario name
 * @n: at most this many
 * @ret_skipped: (out) (optional): the first {skipped: reason} found, or NULL
 *     (borrowed from @records)
 *
 * The worst spikes of every repetition of @scenario that has an
 * attribution, worst first (ties by repetition).  Shapes in the store are
 * untrusted: members of the wrong type are left out.
 *
 * Returns: (transfer full): RvAttrStory*, with its free function.
 */
GPtrArray *rv_result_attr_scenario_stories(GPtrArray *records, const char *scenario, guint n,
                                           const char **ret_skipped);
