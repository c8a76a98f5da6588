/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * results/compare.h: compare scenarios across one or more run stores.
 *
 * Per (workload, target) group and per metric (max_us, avg_us, min_us, any
 * other scalar a record carries), per scenario: n repetitions, mean,
 * stddev, SEM, min, max of the per-repetition values, the change of the
 * mean against the baseline scenario in %, and a two-sided test of the
 * per-repetition values against the baseline's (Welch's t-test or
 * Mann-Whitney U) with its p-value and mark.  Per scenario, the latency
 * percentiles p50/p99/p99.9/p99.99 and the max come from the histograms of
 * all its repetitions merged (memory: one bucket array per scenario and
 * group, never the samples).  Records carry virt=kvm|tcg; the output names
 * it.  Pure: reads RvStore objects, returns text.
 */
#pragma once

#include <glib.h>

#include "results/stats.h"
#include "results/store.h"

typedef enum {
    RV_COMPARE_TEXT,
    RV_COMPARE_JSON,
    RV_COMPARE_CSV,
} RvCompareFormat;

#define RV_COMPARE_ALPHA 0.05

typedef struct RvComparison RvComparison;

/* How the rows of several stores are grouped (`compare --by`). */
typedef enum {
    RV_COMPARE_BY_NONE,       /* stores in command-line order, STOREDIR/ labels
                               * only where a name repeats */
    RV_COMPARE_BY_HOST,       /* HOST/scenario, all scenarios of a host together */
    RV_COMPARE_BY_SCENARIO,   /* HOST/scenario, all hosts of a scenario together */
} RvCompareBy;

/**
 * rv_result_compare_build_by:
 * @by: the grouping of rows
 *
 * As rv_result_compare_build().  With @by HOST or SCENARIO every label is
 * "HOST/scenario": HOST is the store's host facts' "hostname", or where
 * several stores share it (two inventory hosts on one machine) the name of
 * the directory that holds the store (Ansible's collect role puts each in
 * results/INVENTORY_HOSTNAME/), else the store's directory name.  With
 * several stores the text and JSON name outliers: a host whose aggregate
 * of a metric in a scenario lies outside the range of the other hosts'
 * repetitions of that scenario (at least 2 other hosts: with one, each
 * would be "outside" the other).
 */
int rv_result_compare_build_by(GPtrArray *stores, const char *baseline,
                               RvStatsTest test, RvCompareBy by,
                               RvComparison **ret, GError **error) G_GNUC_WARN_UNUSED_RESULT;

/**
 * rv_result_compare_build:
 * @stores: RvStore* (at least one), in command-line order
 * @baseline: (nullable): scenario to compare against; NULL = the first
 *            scenario of the first store that has records.  A scenario name
 *            that occurs in several stores is labelled "STOREDIR/scenario"
 *            (STOREDIR = the directory's base name); @baseline may use
 *            either form when it is unambiguous.
 * @test: RV_STATS_WELCH or RV_STATS_MANN_WHITNEY
 * @ret: (out) (transfer full)
 *
 * A @baseline that was SKIPPED is an error ("baseline 'NAME' was SKIPPED:
 * REASON"), as is one without a successful repetition.  Without @baseline,
 * when the first scenario has no successful repetition (e.g. skipped),
 * the first one that has is the baseline and a one-line note says so
 * (text "NOTE: ...", JSON "baseline_note").
 *
 * Returns: 0, or -EINVAL (RV_ERROR_INVALID) for an unknown, ambiguous or
 * skipped baseline (the message lists the scenarios, or gives the skip
 * reason), -ENODATA when no store has any record or the baseline has no
 * successful repetition.
 */
int rv_result_compare_build(GPtrArray *stores, const char *baseline,
                            RvStatsTest test, RvComparison **ret,
                            GError **error) G_GNUC_WARN_UNUSED_RESULT;

/**
 * rv_result_compare_format:
 * Returns: (transfer full): the comparison as a human table, as JSON
 * (stable keys, "schema_version": 1 first; it was "compare_version"
 * before 0.3, with the same value; per latency entry "percentiles"
 * [{p, value_us, bound}] and the merged "histogram" {bucket_width_us,
 * buckets, overflows, max_us, counts [[us, count]...]}) or as CSV (RFC
 * 4180, header line; numbers only in numeric columns: a percentile beyond
 * the histogram range, the table's "<=MAX", is MAX with its column name
 * in the "bound" column; the last column "trusted" is yes/no per the
 * scenario's store).  The
 * table lists a SKIPPED scenario with its reason once per workload
 * section and marks rows of an untrusted store "(UNTRUSTED store)".
 * Reasons and names in the table may quote what a guest printed: its
 * control bytes but newline and tab come out as "\ooo"
 * (rv_escape_text(), util/escape.h); JSON escapes them itself.
 */
char *rv_result_compare_format(const RvComparison *cmp, RvCompareFormat format);

/**
 * rv_result_compare_judge:
 * @budgets: RvBudget* (results/budget.h); the comparison keeps a reference
 *
 * Judges every budget on every (workload target, scenario) it applies to
 * that has its value (budget.h says how), and keeps the verdicts for
 * the formats: text "== budgets ==" (one line per verdict), JSON
 * "budgets" [{name, expression, source, target, scenario, value, what,
 * verdict "PASS"|"FAIL"|"NOT JUDGED", reason}].  A budget on a store that
 * is not trusted is "NOT JUDGED" with the store's reasons; a budget that
 * finds no value anywhere is one "NOT JUDGED" saying so.  Judging again
 * replaces the verdicts.
 *
 * Returns: the number of verdicts that are not PASS (the caller's exit
 * status 1 when > 0).
 */
guint rv_result_compare_judge(RvComparison *cmp, GPtrArray *budgets);

/**
 * rv_result_compare_histogram_csv:
 *
 * The merged latency histograms for plotting (gnuplot: `set datafile
 * separator ","`), RFC 4180 with a header line
 * "workload,target,scenario,bucket_us,count,overflow": one line per
 * non-empty 1-us bucket (bucket_us = its lower edge), and per histogram
 * with overflows one line with bucket_us = the histogram range N (the
 * overflows are >= N us) and overflow = 1.  Numbers only in bucket_us,
 * count and overflow.
 *
 * Returns: (transfer full): the CSV text.
 */
char *rv_result_compare_histogram_csv(const RvComparison *cmp);

/* The text table's default width limit in columns (`compare --wide` lifts it). */
#define RV_COMPARE_WIDTH 120

typedef struct {
    gboolean wide;            /* no width limit: one block of columns */
    guint width;              /* 0: RV_COMPARE_WIDTH */
    const double *within_us;  /* --within thresholds in us, ascending, or NULL */
    guint n_within;
    gboolean per_guest;       /* the summary's RT columns per RT guest, not merged */
} RvCompareOptions;

/**
 * rv_result_compare_format_opts:
 * @opts: (nullable): layout options; NULL for the defaults
 *
 * As rv_result_compare_format().  The text layout (mmtests'
 * compare-kernels as the model): a head that names each store once, its
 * untrusted reasons once (the same reason repeated by several guests
 * once), the baseline, the test, the legend of the marks and every
 * SKIPPED scenario with its reason once; then per (workload, target) a
 * summary table, scenarios as rows and metrics as column groups
 * "mean (change%) mark", split into blocks of at most @opts->width
 * columns; per metric a table of n, mean, stddev, SEM, std%, sem%, min,
 * max, change and p; the percentiles of the merged histograms.  A row of
 * an untrusted store carries "!" in the column headed "!".  Where the test
 * cannot go below alpha at the rows' n, the row says "n too small" and
 * the head says once "n too small for TEST (needs n >= K)".  Long
 * reasons are wrapped, so that no line is wider than @opts->width unless
 * a single word is (a path).
 *
 * Returns: (transfer full): the text.
 */
char *rv_result_compare_format_opts(const RvComparison *cmp, RvCompareFormat format,
                                    const RvCompareOptions *opts);

void rv_result_compare_free(RvComparison *cmp);
G_DEFINE_AUTOPTR_CLEANUP_FUNC(RvComparison, rv_result_compare_free)
