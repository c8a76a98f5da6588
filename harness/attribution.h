/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * harness/attribution.h: spike attribution of one repetition:
 * the host trace (host/trace/attrtrace.h) around the measurement, the
 * RT guests' cyclictest -v samples and the stories (results/attribution.h),
 * into the RT guest's record details as "attribution" (DESIGN.md).
 */
#pragma once

#include <glib.h>
#include <json-glib/json-glib.h>

#include "host/fsroot.h"
#include "results/store.h"
#include "util/cpulist.h"

#define RV_HARNESS_ATTR_WORST 5          /* spikes told per RT guest */
#define RV_HARNESS_ATTR_MARGIN_US 1000   /* window margin on each side */

typedef struct RvHarnessAttr RvHarnessAttr;

/* Starts the trace on @cpus for a measurement of @duration_us; never
 * fails: a trace that cannot be taken keeps its reason
 * (rv_harness_attr_skip_reason()). */
RvHarnessAttr *rv_harness_attr_start(RvRoot *root, const RvCpuSet *cpus, guint64 duration_us);

/* NULL while tracing works, else why there is no attribution. */
const char *rv_harness_attr_skip_reason(const RvHarnessAttr *a);

/* Stops and parses the trace (keeps a failure as the skip reason). */
void rv_harness_attr_stop(RvHarnessAttr *a);

/* The raw trace text (NULL when none) for the store. */
const char *rv_harness_attr_trace_text(const RvHarnessAttr *a, gsize *ret_len);

/**
 * rv_harness_attr_guest:
 * @a: a stopped trace (or one skipped)
 * @out, @len: the RT guest's cyclictest output with -v lines
 * @interval_us: cyclictest -i
 * @ct_cpus: the guest CPUs of cyclictest's threads, in thread order (-a)
 * @vcpu_tids: (nullable): int tid per vCPU id
 * @mono_start_us, @mono_end_us: CLOCK_MONOTONIC before the agent started
 *     cyclictest and after it saw it end
 * @ret_rest: (out): @out without the sample lines (NULL when they were
 *     not split off: parse @out)
 *
 * Returns: (transfer full): the "attribution" object: {alignment_error_us,
 *     window_margin_us, trace: {...}, spikes: [{latency_us, time, vcpu,
 *     cpu, story, events}]} or {skipped: reason}.
 */
JsonNode *rv_harness_attr_guest(RvHarnessAttr *a, const char *out, gsize len,
                                guint64 interval_us, const GArray *ct_cpus,
                                const GArray *vcpu_tids, gint64 mono_start_us,
                                gint64 mono_end_us, char **ret_rest);

/* A skipped attribution: {skipped: @reason}. */
JsonNode *rv_harness_attr_skipped(const char *reason);

/* Sets details.attribution of @rec (details created when absent). */
void rv_harness_attr_attach(RvStoreRecord *rec, JsonNode *attribution);

/* The guest CPUs of cyclictest's threads from its argv ("-aLIST" or
 * "-a LIST"), in order; NULL when absent. */
GArray *rv_harness_attr_ct_cpus(char **argv);

void rv_harness_attr_free(RvHarnessAttr *a);
G_DEFINE_AUTOPTR_CLEANUP_FUNC(RvHarnessAttr, rv_harness_attr_free)
