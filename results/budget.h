/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * results/budget.h: latency and throughput budgets that gate CI, as
 * KubeVirt's and OpenShift's latency checks do ("max 40 us").
 *
 * A budget is one expression:
 *     [WHERE ':'] METRIC OP NUMBER['%']
 *   WHERE   comma-separated guest=NAME | host | scenario=NAME (default:
 *           every guest and the host, every scenario that ran)
 *   METRIC  a metric of the store ("max_us", "avg_us", "nopm", "gflops")
 *           or a percentile of the merged latency histogram: pNN_us,
 *           e.g. p99_us, p99.9_us, p99.99_us
 *   OP      <=  <  >=  >
 *   NUMBER  a limit in the metric's unit; with '%' a limit on the change
 *           of the scenario's aggregate (mean, or the metric's aggregate)
 *           against the baseline scenario in %, so "nopm >= -10%" allows
 *           10 % less than the baseline
 * Spaces are allowed around the tokens.  Examples: "max_us <= 40",
 * "guest=rt0: p99.99_us <= 20", "scenario=coresched: nopm >= -10%".
 *
 * In a matrix:
 *     [budget]
 *     rt-max = max_us <= 40         NAME = EXPRESSION
 * validated when the matrix loads (FILE:LINE on error), and read back by
 * `rtvirt compare` from the copy of the matrix in the store's profiles/.
 *
 * How a budget is judged per (workload target, scenario): an absolute
 * limit holds when every repetition meets it (the worst repetition is
 * judged: the largest value of a lower-is-better metric, the smallest of a
 * higher-is-better one); a percentile is read from the merged histogram
 * (beyond the histogram range it is the max, an upper bound); a '%'
 * limit judges the change of the aggregate against the baseline.  A budget
 * on a store that is not trusted is never a PASS: it is "not judged" with
 * the reason, as is a budget that no scenario has the metric for.
 */
#pragma once

#include <glib.h>

#include "util/ini.h"

typedef enum {
    RV_BUDGET_LE,
    RV_BUDGET_LT,
    RV_BUDGET_GE,
    RV_BUDGET_GT,
} RvBudgetOp;

typedef struct {
    char *name;          /* the [budget] key, or the expression itself */
    char *text;          /* the expression as written */
    char *source;        /* "FILE:LINE" or "--budget" */
    char *guest;         /* guest=NAME, or NULL */
    gboolean host;       /* host: only the host's workloads */
    char *scenario;      /* scenario=NAME, or NULL */
    char *metric;        /* "max_us", "p99.99_us" (percentile: pct >= 0) */
    double pct;          /* the percentile of a pNN_us metric, else -1 */
    RvBudgetOp op;
    double limit;
    gboolean relative;   /* limit in % change against the baseline */
} RvBudget;

void rv_result_budget_free(RvBudget *b);
G_DEFINE_AUTOPTR_CLEANUP_FUNC(RvBudget, rv_result_budget_free)

/**
 * rv_result_budget_parse:
 * @text: one expression (grammar at the top of this file)
 * @name: (nullable): the budget's name; NULL: @text
 * @source: (nullable): where it was written, for messages ("FILE:LINE")
 * @ret: (out) (transfer full): the budget, written only on success
 *
 * Returns: 0, or -EINVAL (RV_ERROR_INVALID) naming the part that is wrong:
 * "invalid budget 'max_us =< 40': expected METRIC OP NUMBER[%] with OP one
 * of <= < >= >", an unknown WHERE word, a limit that is not a finite number.
 */
int rv_result_budget_parse(const char *text, const char *name, const char *source,
                           RvBudget **ret, GError **error) G_GNUC_WARN_UNUSED_RESULT;

/**
 * rv_result_budget_load_ini:
 * @ini: a loaded matrix
 * @budgets: (nullable): receives RvBudget* (transfer full) of [budget], in
 *           file order; NULL only validates
 *
 * Reads every key of [budget] (NAME = EXPRESSION) and marks it used.
 *
 * Returns: the number of budgets, or -EINVAL with "FILE:LINE: invalid
 * budget ..." for the first bad one.
 */
int rv_result_budget_load_ini(RvIni *ini, GPtrArray *budgets, GError **error)
    G_GNUC_WARN_UNUSED_RESULT;

/**
 * rv_result_budget_load_store:
 * @dir: a results store directory
 * @matrix: (nullable): the store's matrix name (its copy is
 *          DIR/profiles/MATRIX.ini, as `rtvirt run` writes it)
 * @budgets: receives RvBudget* (transfer full)
 *
 * The [budget] of the matrix copy in the store.  A store without a copy
 * (or with a copy that has no [budget]) has no budgets.
 *
 * Returns: the number of budgets added, or -errno naming the copy's
 * FILE:LINE when its [budget] is bad or it cannot be read.
 */
int rv_result_budget_load_store(const char *dir, const char *matrix, GPtrArray *budgets,
                                GError **error) G_GNUC_WARN_UNUSED_RESULT;

/** rv_result_budget_op_name: "<=", "<", ">=", ">". */
const char *rv_result_budget_op_name(RvBudgetOp op);

/** rv_result_budget_holds: @value OP @limit. */
gboolean rv_result_budget_holds(const RvBudget *b, double value);
