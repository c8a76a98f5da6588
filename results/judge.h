/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * results/judge.h: judge a latency measurement someone already has
 * (`rtvirt result check FILE`): a parsed cyclictest / oslat / `rtvirt pert`
 * run (results/cyclictest.h), what was asked (priority, CPUs, budget, the
 * command line when the file does not show it) and, optionally, facts of
 * the host it ran on (read by host/ and handed in here: this judge reads
 * nothing itself).
 *
 * Findings are util/finding.h's: a stable id, a level, one sentence, where
 * (FILE:LINE), a fix, the CPUs involved.
 * Stable ids (each declared in the rule catalogue, util/rules.c):
 *   input.multiple-runs        NOTE  several invocations in one file
 *   input.note                 NOTE  what the parser noticed (elided rows...)
 *   output.histogram-absent    WARN  -h N asked, no histogram: output cut
 *   rt.policy-other            FAIL  SCHED_OTHER ("policy: other", P:0)
 *   rt.priority-defaulted      WARN  "defaulting realtime priority to N", or
 *                                    -p with a value that is not a number
 *   rt.priority-mismatch       WARN  P: differs from --priority / -p
 *   rt.priority-below-irq      WARN  below the threaded IRQs (host or FIFO 50)
 *   rt.priority-unknown        NOTE  the output shows no P:
 *   rt.kthread-above           WARN  an RT kthread allowed on a measured CPU
 *                                    preempts the measurement
 *   cpus.not-measured          FAIL  CPUs that should have been measured were not
 *   cpus.outside               WARN  threads also ran outside those CPUs
 *   cpus.unpinned              WARN  threads not pinned: the CPUs are unknown
 *   cpus.unknown               NOTE  the measured CPUs cannot be told
 *   smt.sibling-main-thread    WARN  main thread on a measured CPU or its sibling
 *   smt.sibling-load           WARN  a measured CPU's SMT sibling is a
 *                                    housekeeping CPU (runs other load)
 *   histogram.beyond-range     WARN  samples beyond the histogram (max from
 *                                    "# Max Latencies", not the last bucket)
 *   kernel.timer-migration     WARN  non-RT kernel with timer_migration=1
 *   kernel.not-rt              NOTE  non-RT kernel (JSON sysinfo or host)
 *   idle.deep-states           WARN  a measured CPU may enter an idle state
 *                                    with a long exit latency
 *   latency.budget             FAIL/PASS  max against --budget
 *   run.stopped                WARN/FAIL  the run ended early (a threshold,
 *                                    an interruption) or gave no result
 *   run.short                  WARN  under a minute measured
 *   mem.not-locked             WARN  cyclictest without -m/--mlockall
 *   threshold.raised           WARN  hwlatdetect threshold or hardlimit
 *                                    above the kernel's 10 us
 *   hwlat.exceeded             FAIL  hwlatdetect recorded samples
 *   stats.partial              NOTE/WARN  the statistics sampled part of
 *                                    the run (hwlat width/window, osnoise
 *                                    runtime/period, stress-ng's sample cap)
 *   vm.guest                   NOTE/WARN  measured inside a VM
 */
#pragma once

#include <stdbool.h>
#include <glib.h>

#include "util/cpulist.h"
#include "util/finding.h"
#include "results/cyclictest.h"

/* The deepest enabled idle state of one CPU. */
typedef struct {
    unsigned cpu;
    char *name;          /* "C6" */
    gint64 latency_us;   /* exit latency */
} RvJudgeIdle;

/* Facts of the host the measurement ran on; everything optional. */
typedef struct {
    bool has_online;
    RvCpuSet online;
    bool has_isolated;
    RvCpuSet isolated;        /* isolcpus domain (cpu/isolated) */
    GArray *cores;            /* RvCpuSet: the threads of each core; NULL unknown */
    int irq_thread_prio;      /* highest FIFO priority of irq/N-name threads;
                               * 0 none, -1 unknown */
    char *irq_thread_name;    /* that thread's comm */
    GPtrArray *rt_kthreads;   /* RvJudgeKthread*: RT kthreads other than irq/ */
    int preempt_rt;           /* 1 PREEMPT_RT, 0 not, -1 unknown */
    int timer_migration;      /* -1 unknown */
    GArray *idle;             /* RvJudgeIdle of CPUs that have cpuidle; NULL */
    int virtualized;          /* 1 a guest (/proc/cpuinfo "hypervisor" flag),
                               * 0 not, -1 unknown */
} RvJudgeHost;

typedef struct {
    char *comm;
    int pid;
    int priority;
    RvCpuSet affinity;
} RvJudgeKthread;

void rv_result_judge_host_clear(RvJudgeHost *h);
void rv_result_judge_kthread_free(RvJudgeKthread *k);

typedef struct {
    int priority;             /* --priority N, -1: the -p of the command line */
    bool has_cpus;
    RvCpuSet cpus;            /* --cpus: what should have been measured */
    gint64 budget_us;         /* --budget, -1 none */
    const char *cmdline;      /* --cmdline, used when the file shows none */
} RvJudgeWant;

/**
 * rv_result_judge_run:
 * @run: one parsed run
 * @file: its file name, for "where"
 * @nruns: runs in that file (> 1: input.multiple-runs)
 * @want: what was asked
 * @host: (nullable): facts of the host, or NULL when unknown
 * @ret_findings: (out) (transfer full): the findings, each with its where
 *                (FILE:LINE, the run's first line unless a rule names one)
 * @error: RV_ERROR_INVALID when @want->cmdline is not a cyclictest/oslat
 *         command line
 *
 * The rules and their sources are listed beside each check in judge.c
 * (rt-tests 2.x cyclictest.c process_options() and main(), kernel
 * kernel/irq/manage.c setup_irq_thread(): threaded IRQs at FIFO 50).
 *
 * Returns: the worst level (an RvFindingLevel, >= 0), or -EINVAL.
 */
int rv_result_judge_run(const RvCyclictestRun *run, const char *file, guint nruns,
                        const RvJudgeWant *want, const RvJudgeHost *host,
                        RvFindings **ret_findings, GError **error) G_GNUC_WARN_UNUSED_RESULT;
