/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * host/facts/snapshot.h: per-CPU interrupt, softirq and scheduler counters,
 * taken before and after each run and diffed, so a run's record says what
 * disturbed each CPU while it measured (a timer tick on an isolated CPU,
 * an IRQ that was not moved, a CPU that went idle less often).
 *
 * Sources, all read through an RvRoot (host/fsroot.h):
 *  - /proc/interrupts (Documentation/filesystems/proc.rst, "1.2 ... interrupts";
 *    fs/proc/interrupts.c + arch show_interrupts()): a header of "CPUn"
 *    columns (online CPUs only), then one row per IRQ "N:" or per
 *    architecture counter "LOC:", "NMI:", ...  with one count per column
 *    and a free-text description; "ERR:" and "MIS:" carry one global count.
 *  - /proc/softirqs (fs/proc/softirqs.c): the same header, one row per
 *    softirq ("TIMER:", "NET_RX:", "SCHED:", ...).
 *  - /proc/schedstat (Documentation/scheduler/sched-stats.rst, versions
 *    15-17): "cpuN" lines with 9 fields: yld_count, legacy 0, sched_count,
 *    sched_goidle, ttwu_count, ttwu_local, rq_cpu_time (ns), run_delay (ns),
 *    pcount.  Absent without CONFIG_SCHEDSTATS: the snapshot records why.
 */
#pragma once

#include <glib.h>
#include <json-glib/json-glib.h>

#include "host/fsroot.h"

typedef struct RvHostSnapshot RvHostSnapshot;

/**
 * rv_host_snapshot_take:
 * @root: host root
 * @ret: (out): the counters, written only on success
 * @error: (optional): RV_ERROR_FAILED when /proc/interrupts cannot be read,
 *         RV_ERROR_INVALID naming the file and line of a malformed row
 *
 * /proc/softirqs and /proc/schedstat are optional: when missing, the
 * snapshot records "unavailable: <reason>" for them instead of failing.
 *
 * Returns: 0 or -errno.
 */
int rv_host_snapshot_take(RvRoot *root, RvHostSnapshot **ret,
                          GError **error) G_GNUC_WARN_UNUSED_RESULT;

/* Parses the file texts directly (tests, fuzzing); @schedstat and
 * @softirqs may be NULL (unavailable). */
int rv_host_snapshot_parse(const char *interrupts, const char *softirqs,
                           const char *schedstat, RvHostSnapshot **ret,
                           GError **error) G_GNUC_WARN_UNUSED_RESULT;

void rv_host_snapshot_free(RvHostSnapshot *snap);
G_DEFINE_AUTOPTR_CLEANUP_FUNC(RvHostSnapshot, rv_host_snapshot_free)

/**
 * rv_host_snapshot_diff:
 * @before: snapshot before the run
 * @after: snapshot after the run
 * @ret: (out): a JSON object, written only on success:
 *   { "cpus": [0, 1, ...],
 *     "interrupts": { "LOC": { "description": "Local timer interrupts",
 *                              "per_cpu": [d0, d1, ...], "total": D }, ... },
 *     "softirqs":   { "TIMER": { "per_cpu": [...], "total": D }, ... },
 *     "schedstat":  { "sched_count": { "per_cpu": [...], "total": D }, ... }
 *                   or { "unavailable": "REASON" } }
 *   per_cpu follows "cpus" (the CPUs online in both snapshots); rows whose
 *   delta is zero on every CPU are left out; a row present on one side only
 *   (an IRQ freed or allocated during the run) counts from 0.
 * @error: (optional): RV_ERROR_INVALID when a counter went backwards by
 *   more than a 32-bit wrap explains (the kernel keeps per-CPU IRQ and
 *   schedstat event counts in unsigned int; a drop of a value above 2^32
 *   means the snapshots are not of the same boot), unless the value before
 *   was a 64-bit sum wrapped below zero (above 2^63: schedstat's
 *   nanosecond sums where the clock stepped back), counted modulo 2^64
 *
 * Returns: 0 or -errno.
 */
int rv_host_snapshot_diff(const RvHostSnapshot *before, const RvHostSnapshot *after,
                          JsonNode **ret, GError **error) G_GNUC_WARN_UNUSED_RESULT;
