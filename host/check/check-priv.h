/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * host/check/check-priv.h: the engine of `rtvirt host check` (host/check/check.c) and
 * its judges, one file per family of findings:
 *   host/check/check-boot.c     partition, isolation, SMT, boot arguments
 *   host/check/check-runtime.c  core scheduling, IRQs, kernel, runtime knobs,
 *                         sysctls and module parameters
 *   host/check/check-threads.c  kernel thread priorities, stray user threads
 *   host/check/check-libvirt.c  libvirt's qemu.conf and the RT-group trap
 *   host/check/check-jitter.c   per-CPU jitter the kernel documents (ticks,
 *                         watchdog, idle, clocksource) and boot arguments that
 *                         do not do what they seem to
 *
 * Readers read, judges judge: rv_host_check_run() loads every fact first
 * through the readers (host/facts/topology.h, host/facts/cmdline.h, host/facts/state.h,
 * host/facts/irq.h, host/facts/threads.h, host/facts/qemu-conf.h) into an RvCheckFacts; a
 * judge sees only the facts, the profile and the findings so far, never
 * the host root, so a fixture and the live host are judged alike.  Judges
 * run in a fixed order (the order of the findings in the report).
 */
#pragma once

#include <stdbool.h>
#include <glib.h>

#include "host/check/check.h"
#include "host/facts/cmdline.h"
#include "host/facts/irq.h"
#include "host/facts/irqbalance.h"
#include "host/profile/partition.h"
#include "host/facts/qemu-conf.h"
#include "host/facts/state.h"
#include "host/facts/threads.h"
#include "host/facts/topology.h"

/* What the readers found; NULL members were unreadable. */
typedef struct {
    RvTopology *topo;
    RvCmdline *cmd;          /* NULL when /proc/cmdline is unreadable */
    RvHostState *st;         /* with ->sysctls and ->module_params of the profile */
    RvIrqTable *irqs;        /* NULL when /proc/irq cannot be listed */
    GArray *tasks;           /* RvTask of every process (rv_host_tasks_load()); empty
                              * when /proc cannot be listed */
    GArray *on_isolated;     /* RvTask of every thread that last ran on an isolated CPU
                              * (rv_host_tasks_on_cpus()); NULL when none is isolated or
                              * /proc cannot be listed */
    RvIrqbalance *irqbalance; /* the running irqbalance, NULL when none runs */
    RvQemuConf *qemu_conf;   /* NULL when unreadable or refused by libvirt's parser */
    char *qemu_conf_error;   /* why, when qemu_conf is NULL */
} RvCheckFacts;

/* One check: the facts, what they imply, and the report being written. */
typedef struct {
    const RvHostProfile *p;
    const RvCheckFacts *facts;
    const RvTopology *topo;  /* = facts->topo */
    const RvCmdline *cmd;    /* = facts->cmd */
    const RvHostState *st;   /* = facts->st */
    RvCheckReport *rep;
    RvHostPartition *plan;   /* whole-core plan of the profile, NULL when invalid */
    bool smt_active;         /* some core has two online threads */
    RvCpuSet iso_actual;     /* isolated now: sysfs isolated | nohz_full, online only */
    bool iso_actual_known;
} RvCheckCtx;

/* Judges add their findings to c->rep->findings with rv_findings_add()
 * (util/finding.h). */

/* A cpulist for messages, "(none)" when empty. */
char *rv_check_fmt_cpus(const RvCpuSet *s);

/* host/check/check-boot.c: partition.*, isolation.* (sets c->rep->isolated,
 * ->housekeeping and c->plan), smt.*, cmdline.*, bootarg.*, nohz_full.*,
 * rcu_nocbs.*, irqaffinity.* */
void rv_check_partition(RvCheckCtx *c);
void rv_check_smt(RvCheckCtx *c);
void rv_check_bootargs(RvCheckCtx *c);

/* host/check/check-runtime.c: coresched.*, irq.* (irq.irqbalance from the
 * tasks), kernel.*, rt-throttling ... idle.*, mce.ignore_ce, sysctl*,
 * module.* */
void rv_check_coresched(RvCheckCtx *c);
/* True when the profile sets any key of an RT partition (cpus, isolation
 * boot arguments, smt, core scheduling, kthreads, RT throttling, libvirt):
 * findings about RT vCPUs (rtgroup.*, kernel.*, smt.*, coresched.*) are
 * only for such profiles; an absent key means "does not care". */
bool rv_check_profile_wants_rt(const RvHostProfile *p);
void rv_check_irqs(RvCheckCtx *c);
void rv_check_rps(RvCheckCtx *c);
void rv_check_kernel(RvCheckCtx *c);
void rv_check_runtime(RvCheckCtx *c);
void rv_check_knobs(RvCheckCtx *c);

/* host/check/check-threads.c: isolation.stray-tasks, kthread.* */
void rv_check_stray_tasks(RvCheckCtx *c);
void rv_check_kthreads(RvCheckCtx *c);

/* host/check/check-jitter.c: nohz_full.missing, skew_tick.missing,
 * rcu_nocb_poll.missing, watchdog.on-isolated, idle.max-cstate-ignored,
 * idle.poll-smt, clocksource.slow */
void rv_check_jitter(RvCheckCtx *c);

/* host/check/check-libvirt.c: rtgroup.* (v1 trap, cgroup v2), libvirt.* */
void rv_check_rtgroup(RvCheckCtx *c);
void rv_check_libvirt(RvCheckCtx *c);
