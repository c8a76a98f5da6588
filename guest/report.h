/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * guest/report.h: the per-vCPU cyclictest table of `rtvirt guest run`.
 *
 * Percentiles come from the thread's histogram (results/histogram.h,
 * nearest rank).  One whose rank falls among the overflows (samples beyond
 * the -h range) is not a histogram value: it is printed "<=MAX", bounded by
 * the thread's max, as `rtvirt compare` (results/compare.c) prints it.
 */
#pragma once

#include <glib.h>

#include "guest/profile.h"
#include "results/cyclictest.h"
#include "results/histogram.h"

/**
 * rv_guest_report_thread_vcpu:
 * @profile: the guest profile
 * @index: cyclictest thread index (0 ..)
 *
 * cyclictest threads are pinned with -a to the measured vCPUs in ascending
 * order (rv_guest_profile_cyclictest_argv(): the RT vCPUs, or all vCPUs
 * when the profile has none).
 *
 * Returns: the guest vCPU id of thread @index, -1 beyond the measured ones.
 */
int rv_guest_report_thread_vcpu(const RvGuestProfile *profile, int index);

/**
 * rv_guest_report_percentile_cell:
 * @hist: (nullable): a thread's histogram
 * @p: percentile in [0, 100], e.g. 99.9
 *
 * Returns: (transfer full): "17" (us, within the histogram range), "<=1475"
 * when the rank falls among the overflows and the max is known (an upper
 * bound: the max), ">60" when the max is unknown (a lower bound: the range),
 * "-" without a histogram or samples.
 */
char *rv_guest_report_percentile_cell(const RvHistogram *hist, double p);

/**
 * rv_guest_report_cyclictest_table:
 * @profile: the guest profile (thread -> vCPU)
 * @run: one parsed cyclictest run
 *
 * The table of `guest run`'s text output: a header line, then one line per
 * thread: vCPU, thread, samples (histogram total incl. overflows, else
 * cycles), min, avg, max and p50 p90 p99 p99.9 p99.99 (cells as
 * rv_guest_report_percentile_cell()), all in us.
 *
 * Returns: (transfer full): the text, each line indented by two spaces and
 * ending in '\n'.
 */
char *rv_guest_report_cyclictest_table(const RvGuestProfile *profile,
                                       const RvCyclictestRun *run);
