/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * host/trace/attrtrace.h: the host trace behind spike attribution,
 * in the tracefs instance "instances/rtvirt-attr" so it never
 * touches the top-level buffer or another helper's instance
 * (Documentation/trace/ftrace.rst "Instances": mkdir creates a private
 * buffer with its own events/, tracing_cpumask, buffer_size_kb and
 * trace_clock; rmdir frees it, so nothing of the host is left changed).
 *
 * Events (enabled where they exist, else listed as unavailable):
 * irq/irq_handler_entry, irq/irq_handler_exit, irq/softirq_entry,
 * irq/softirq_exit, sched/sched_switch, sched/sched_wakeup, power/cpu_idle,
 * timer/hrtimer_expire_entry, timer/hrtimer_expire_exit, kvm/kvm_exit.
 * Clock "mono" (CLOCK_MONOTONIC: g_get_monotonic_time() times compare).
 * The buffer is read once at the end ("trace"), bounded; the ring buffer
 * overwrites its oldest events when full, counted per CPU as "overrun:"
 * in per_cpu/cpuN/stats.
 */
#pragma once

#include <sys/types.h>
#include <glib.h>

#include "host/fsroot.h"
#include "util/cpulist.h"

#define RV_HOST_ATTRTRACE_INSTANCE "rtvirt-attr"

typedef struct RvAttrTrace RvAttrTrace;

/**
 * rv_host_attrtrace_start:
 * @root: the live host
 * @cpus: host CPUs to trace (tracing_cpumask); not empty
 * @buffer_kb: per-CPU ring buffer, KiB (> 0)
 * @ret: (out): the recording
 * @error: RV_ERROR_UNSUPPORTED when no tracefs with instances/ is mounted
 *         (mount -t tracefs nodev /sys/kernel/tracing); -EBUSY
 *         (RV_ERROR_FAILED) when the instance exists already (another
 *         rtvirt traces, or a stale one: rmdir it); RV_ERROR_FAILED for a
 *         failed write (the instance is removed again)
 *
 * Returns: 0 or -errno.
 */
int rv_host_attrtrace_start(RvRoot *root, const RvCpuSet *cpus, guint buffer_kb,
                            RvAttrTrace **ret, GError **error) G_GNUC_WARN_UNUSED_RESULT;

/**
 * rv_host_attrtrace_start_instance:
 * @instance: the instance's name under instances/ (one per consumer:
 *            RV_HOST_ATTRTRACE_INSTANCE, harness/cosched.h's "rtvirt-cosched")
 * @events: NULL-terminated "system/event" names to enable where they exist
 *          (the others listed by rv_host_attrtrace_unavailable())
 *
 * rv_host_attrtrace_start() with another instance and event list; same
 * clock (mono), errors and cleanup.
 *
 * Returns: 0 or -errno.
 */
int rv_host_attrtrace_start_instance(RvRoot *root, const char *instance,
                                     const char *const *events, const RvCpuSet *cpus,
                                     guint buffer_kb, RvAttrTrace **ret,
                                     GError **error) G_GNUC_WARN_UNUSED_RESULT;
/* The events of the list above that this kernel lacks, comma separated
 * ("kvm/kvm_exit"), or "" when it has all. */
const char *rv_host_attrtrace_unavailable(const RvAttrTrace *t);

/**
 * rv_host_attrtrace_stop:
 * @t: a recording
 * @max_bytes: read at most this much of "trace" (the rest is dropped,
 *             @ret_truncated set)
 * @ret_text: (out): the text of "trace"
 * @ret_overrun: (out): events the ring buffer overwrote, all CPUs
 * @ret_truncated: (out): whether @max_bytes cut the text
 *
 * Stops tracing and reads the buffer; the instance is removed by
 * rv_host_attrtrace_free().  A second call fails with -EALREADY.
 *
 * Returns: 0 or -errno.
 */
int rv_host_attrtrace_stop(RvAttrTrace *t, gsize max_bytes, char **ret_text,
                           guint64 *ret_overrun, gboolean *ret_truncated,
                           GError **error) G_GNUC_WARN_UNUSED_RESULT;

/* Stops tracing and removes the instance; accepts NULL. */
void rv_host_attrtrace_free(RvAttrTrace *t);
G_DEFINE_AUTOPTR_CLEANUP_FUNC(RvAttrTrace, rv_host_attrtrace_free)

/**
 * rv_host_attrtrace_task_policy:
 * @pid: a thread id
 * @ret_policy: (out): SCHED_* number (/proc/PID/stat field 41)
 * @ret_rt_priority: (out): field 40 (1-99 for FIFO/RR)
 *
 * Returns: 0 or -errno (-ENOENT: the thread is gone).
 */
int rv_host_attrtrace_task_policy(RvRoot *root, pid_t pid, int *ret_policy,
                                  int *ret_rt_priority) G_GNUC_WARN_UNUSED_RESULT;
