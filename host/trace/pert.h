/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * host/trace/pert.h: the perturbation probe of `rtvirt pert`.
 *
 * A tight loop pinned alone to one CPU reads a clock (the TSC where it is
 * usable, else clock_gettime(CLOCK_MONOTONIC_RAW)) and records every gap
 * longer than a threshold as a perturbation; results/pert.h accounts them.
 * The same code runs on the host and inside guests (the embedded guest
 * carries the rtvirt-pert binary).
 */
#pragma once

#include <signal.h>
#include <stdbool.h>
#include <glib.h>

#include "host/fsroot.h"
#include "results/pert.h"

typedef enum {
    RV_PERT_CLOCK_TSC,
    RV_PERT_CLOCK_MONOTONIC_RAW,
} RvPertClock;

typedef struct {
    int cpu;                 /* CPU to pin to (required, >= 0) */
    guint64 duration_ns;     /* how long to spin */
    double threshold_us;     /* detection threshold in us; <= 0 means auto:
                              * 10 x the median loop period, at least 0.25 us */
    int fifo_prio;           /* SCHED_FIFO priority 1-99; 0 leaves the policy
                              * (`rtvirt pert`: -p omitted; -p 0 is refused) */
    bool force_raw_clock;    /* use CLOCK_MONOTONIC_RAW even with a good TSC */
    volatile sig_atomic_t *stop;  /* (nullable) set non-zero to stop early */
} RvPertOptions;

typedef struct {
    RvPertClock clock;
    char *clock_reason;      /* why this clock: "constant_tsc nonstop_tsc, clocksource tsc" */
    double tsc_hz;           /* calibrated against CLOCK_MONOTONIC_RAW (0 for raw clock) */
    double resolution_ns;    /* one clock tick in ns */
    double loop_min_ns;      /* fastest loop iteration seen during calibration */
    double loop_ns;          /* median loop iteration = the detection floor */
    double threshold_us;     /* the detection threshold in use */
    bool threshold_auto;
    GPtrArray *warnings;     /* char *: not isolated, SMT sibling busy, ... */
} RvPertSetup;

void rv_host_pert_setup_clear(RvPertSetup *setup);
G_DEFINE_AUTO_CLEANUP_CLEAR_FUNC(RvPertSetup, rv_host_pert_setup_clear)

/**
 * rv_host_pert_prepare:
 * @root: the live host (the probe needs the real CPU; a fixture root is
 *        refused with RV_ERROR_UNSUPPORTED)
 * @opt: options; opt->cpu must be online (/sys/devices/system/cpu/online)
 *       and in this process's allowed set (sched_getaffinity)
 * @ret: (out): the chosen clock, calibration and warnings
 *
 * Pins the calling thread to opt->cpu, sets SCHED_FIFO when asked,
 * mlockall()s, picks the clock (TSC needs "constant_tsc" and "nonstop_tsc"
 * in /proc/cpuinfo and "tsc" in
 * /sys/devices/system/clocksource/clocksource0/current_clocksource), then
 * calibrates the TSC against CLOCK_MONOTONIC_RAW over 100 ms and measures
 * the loop's own cost. "auto" threshold = 10 x the median loop period, at
 * least 0.25 us.  Warns when the CPU is not in
 * /sys/devices/system/cpu/isolated or its SMT sibling was busy (> 10 % over
 * 100 ms in /proc/stat).
 *
 * Returns: 0 or -errno; RV_ERROR_INVALID for an offline or disallowed CPU,
 * RV_ERROR_FAILED when pinning / SCHED_FIFO / mlockall fail.
 */
int rv_host_pert_prepare(RvRoot *root, const RvPertOptions *opt, RvPertSetup *ret,
                         GError **error) G_GNUC_WARN_UNUSED_RESULT;

typedef void (*RvPertSecondFn)(const RvPertSecond *second, gpointer user_data);

/**
 * rv_host_pert_run:
 * @setup: from rv_host_pert_prepare() on the same thread
 * @acct: accounting (results/pert.h), window 1 s
 * @fn: (nullable): called after each window closes (outside the timed part)
 *
 * Spins for opt->duration_ns (or until *opt->stop).  Returns: 0.
 */
int rv_host_pert_run(const RvPertSetup *setup, const RvPertOptions *opt, RvPertAccount *acct,
                     RvPertSecondFn fn, gpointer user_data);
