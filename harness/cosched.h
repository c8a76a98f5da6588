/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * harness/cosched.h: co-scheduling stats of one repetition:
 * sched_switch on every online CPU in the tracefs instance
 * "instances/rtvirt-cosched" (host/trace/attrtrace.h) while the workloads run,
 * then per VM the share of its threads' running time during which the SMT
 * sibling ran a thread of the same VM, idle, or a foreign thread
 * (results/cosched.h), and the forced-idle time the kernel reports
 * (/proc/TID/sched core_forceidle_sum, kernel/sched/debug.c: printed in ms
 * on CONFIG_SCHED_CORE kernels while kernel.sched_schedstats is 1).  Into
 * the host-counters record's details as "cosched" (doc/design-notes.md).
 *
 * A VM's threads are its QEMU process's threads and its vhost workers
 * (rv_host_process_threads_list()), listed at the start and again at the
 * end so threads QEMU creates meanwhile count too.  Cost: one event per
 * context switch on every CPU; bench/cosched-trace.sh measures it.
 */
#pragma once

#include <sys/types.h>
#include <glib.h>
#include <json-glib/json-glib.h>

#include "host/fsroot.h"

#define RV_HARNESS_COSCHED_INSTANCE "rtvirt-cosched"
/* Test hook: "A:B,C:D" makes CPUs A,B and C,D siblings for the analysis on
 * a host without SMT (the pipeline test, tests/t-attribution.sh); run.json
 * says so and what it measured is no co-scheduling figure. */
#define RV_HARNESS_COSCHED_PAIRS_ENV "RTVIRT_TEST_SMT_PAIRS"

typedef struct RvHarnessCosched RvHarnessCosched;

/**
 * rv_harness_cosched_start:
 * @root: the live host
 * @names: @n_vms VM names (libvirt domain names)
 * @pids: @n_vms QEMU process ids (<= 0: the VM is left out)
 * @n_vms: VMs
 * @duration_us: the planned warm-up + measurement, us (sizes the per-CPU
 *               ring buffer: 512 KiB per second, 1-32 MiB)
 *
 * Never fails: a host without SMT, no VM, or a trace that cannot be taken
 * keeps its reason (rv_harness_cosched_skip_reason()).
 */
RvHarnessCosched *rv_harness_cosched_start(RvRoot *root, const char *const *names,
                                           const pid_t *pids, guint n_vms, guint64 duration_us);

/* NULL while the stats are taken, else why not. */
const char *rv_harness_cosched_skip_reason(const RvHarnessCosched *c);

/* Stops the trace, reads it (bounded, 64 MiB) and computes the shares over
 * the window from start to this call; a failure becomes the skip reason. */
void rv_harness_cosched_stop(RvHarnessCosched *c);

/**
 * rv_harness_cosched_json:
 *
 * Returns: (transfer full): {window_s, siblings, trace: {instance, cpus,
 *     buffer_kb, events, overrun, lost, truncated}, vms: [{name, pid,
 *     threads, run_s, same_pct, idle_pct, foreign_pct, unknown_pct,
 *     forceidle_ms (null: not reported, see forceidle_note)}]} or {skipped}.
 */
JsonNode *rv_harness_cosched_json(const RvHarnessCosched *c);

/* Removes the trace instance (when still there) and frees; accepts NULL. */
void rv_harness_cosched_free(RvHarnessCosched *c);
G_DEFINE_AUTOPTR_CLEANUP_FUNC(RvHarnessCosched, rv_harness_cosched_free)
