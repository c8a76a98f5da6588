/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * results/pert.h: accounting of the perturbation probe (`rtvirt pert`).
 *
 * Pure functions: gaps in, per-second lines and a summary out, so the
 * accounting is tested on synthetic gap sequences without a CPU to spin on.
 *
 * A perturbation is one gap of the probe's spin loop longer than the
 * detection threshold: something (tick, IRQ, IPI, SMI, another task, a
 * vCPU exit) took the CPU away for that long.  Per second the probe prints
 *
 *   pert/s: 1000 >14.27us: 1 min: 1.86 max: 16.22 avg: 1.90 sum/s: 1903us overhead: 0.19%
 *
 * pert/s    perturbations in that second
 * >Xus: N   perturbations in that second longer than X, where X is the
 *           outlier threshold: mean + 3 standard deviations of all
 *           perturbation lengths seen before that second (rtvirt's
 *           definition; 0 until the second second)
 * min/max/avg  lengths in us
 * sum/s     total length in us (time stolen in that second)
 * overhead  sum/s as a share of the window
 * (format of the tight TSC-loop probe quoted on the kernel lists for the
 * nohz_full tick cost comparison.)
 */
#pragma once

#include <glib.h>
#include <json-glib/json-glib.h>

#include "results/store.h"

/* Histogram of perturbation lengths: 1 us buckets, 0..RV_PERT_HIST_US-1 us,
 * longer ones counted as overflows. */
#define RV_PERT_HIST_US 1000

typedef struct {
    guint64 index;          /* window number, 0-based */
    guint64 count;          /* perturbations */
    guint64 outliers;       /* longer than outlier_us */
    double outlier_us;      /* threshold X of ">Xus" (0 = not yet known) */
    double min_us, max_us;  /* 0 when count == 0 */
    double sum_us;
    double window_us;       /* length of the window (1e6 except the last) */
} RvPertSecond;

typedef struct {
    guint64 count;
    double min_us, max_us, sum_us;
    double duration_us;     /* time covered */
    double mean_us, stddev_us;
    guint64 hist[RV_PERT_HIST_US];
    guint64 hist_overflow;
} RvPertSummary;

typedef struct RvPertAccount RvPertAccount;

/**
 * rv_result_pert_new:
 * @window_ns: length of one reporting window in ns (1000000000 for pert/s)
 *
 * Returns: (transfer full): an empty account.
 */
RvPertAccount *rv_result_pert_new(guint64 window_ns);
void rv_result_pert_free(RvPertAccount *acct);
G_DEFINE_AUTOPTR_CLEANUP_FUNC(RvPertAccount, rv_result_pert_free)

/**
 * rv_result_pert_add:
 * @t_ns: when the gap began, ns since the start of the run (non-decreasing)
 * @gap_ns: its length in ns (already known to be above the detection
 *          threshold)
 * @ret_done: (out): windows completed before @t_ns are appended (RvPertSecond)
 *
 * A gap is accounted to the window in which it began.
 */
void rv_result_pert_add(RvPertAccount *acct, guint64 t_ns, guint64 gap_ns, GArray *ret_done);

/* Closes every window up to @t_ns (e.g. at each second's end with no gap,
 * or at the end of the run: then the last, partial window is closed too
 * when @final). */
void rv_result_pert_advance(RvPertAccount *acct, guint64 t_ns, gboolean final, GArray *ret_done);

/* Totals over everything added so far. */
void rv_result_pert_summary(const RvPertAccount *acct, RvPertSummary *ret);

/* The per-second line, without newline (format above). */
char *rv_result_pert_format_second(const RvPertSecond *s);

/* Adds the summary (and histogram when @histogram) to @b as members of the
 * current object: count, min_us, max_us, avg_us, stddev_us, sum_us,
 * duration_us, overhead_pct, histogram_us: [[us, count]...], overflows. */
void rv_result_pert_summary_to_json(const RvPertSummary *s, gboolean histogram, JsonBuilder *b);

/**
 * rv_result_pert_record_add:
 * @rec: record of workload "pert" (results/store.h)
 * @name: what the JSON is called in messages (its file name)
 * @text: what `rtvirt pert --json FILE` wrote (need not be NUL-terminated);
 *        untrusted: it may come from inside a guest
 * @len: bytes of @text
 * @error: RV_ERROR_INVALID naming @name and the key
 *
 * Reads the document's "summary" object (rv_result_pert_summary_to_json())
 * into @rec: metrics count (unit "count"), max_us, avg_us, stolen_us (from
 * sum_us; all "us") and overhead_pct ("%"), each when present; histogram
 * "perturbation" (RV_PERT_HIST_US 1-us buckets from "histogram_us"
 * [[us, count], ...], "overflows" and the max) when "histogram_us" is
 * there.  The text is parsed with rv_json_parse_untrusted() and read with
 * util/json.h's typed getters; every value must follow the store's value
 * rules (results/store.h): numbers finite, metrics within
 * +-RV_STORE_METRIC_MAX and latencies >= 0, count and histogram counts
 * integers (count within 0..1e12, the others 0..RV_STORE_COUNT_MAX);
 * otherwise nothing is added.
 *
 * Returns: 0; -EINVAL for JSON that is malformed, has no "summary" object
 * or a member of the wrong type; -ERANGE for a value outside the rules
 * ("NAME: summary.max_us: 1e+17 is out of range (-1e+12..1e+12)"); -E2BIG
 * for nesting too deep.  @rec is untouched on error.
 */
int rv_result_pert_record_add(RvStoreRecord *rec, const char *name, const char *text,
                              gsize len, GError **error) G_GNUC_WARN_UNUSED_RESULT;
