/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * harness/cmd-compare.c: `rtvirt compare DIR [DIR...] [--baseline NAME]
 * [--json|--csv] [--test welch|mann-whitney]`.
 *
 * Reads results stores (results/store.h) only: no host access, no daemon.
 * The table comes from results/compare.c; this file parses options, opens
 * the stores, prints, and maps errors to exit codes (2 bad input).
 */
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "harness/cmd-common.h"
#include "harness/commands.h"
#include "harness/log.h"
#include "results/budget.h"
#include "results/compare.h"
#include "results/store.h"
#include "util/error.h"

static const RvCmdSpec compare_spec = {
    .params = "DIR [DIR...]",
    .summary =
        "Compare the scenarios of one or more results stores (results/DATE-MATRIX/):\n"
        "n, mean, stddev, SEM, min, max per metric, change against the baseline,\n"
        "a significance test, and latency percentiles from merged histograms.",
    .exit_status = "0 compared (every budget PASS), 1 a budget FAILed or could not be judged\n"
                   "(a store that is not trusted, no value), 2 error (no such store, a store\n"
                   "given twice, a bad budget or option).",
    .common = RV_COMMON_JSON,
    .json_help = "Print JSON (stable keys, schema_version)",
};

/* --within 10us,20us,50us: thresholds in us ("us" or "ms" suffix, or none:
 * us), ascending, > 0 */
static int
parse_within(const char *cmd, const char *text, GArray **ret)
{
    g_auto(GStrv) words = g_strsplit(text, ",", -1);
    g_autoptr(GArray) a = g_array_new(FALSE, FALSE, sizeof(double));

    for (guint i = 0; words[i]; i++) {
        char *w = g_strstrip(words[i]), *end;
        double v = g_ascii_strtod(w, &end), scale = 1;

        if (g_str_equal(end, "ms"))
            scale = 1000;
        else if (*end && !g_str_equal(end, "us"))
            end = NULL;
        if (end == w || !end || !isfinite(v) || v <= 0 || v * scale > 1e12 ||
            (a->len && v * scale <= g_array_index(a, double, a->len - 1))) {
            rv_log_error("%s: invalid --within '%s': '%s' is not a threshold above the one "
                         "before it (e.g. 10us,20us,50us)", cmd, text, w);
            return -EINVAL;
        }
        v *= scale;
        g_array_append_val(a, v);
    }
    *ret = g_steal_pointer(&a);
    return 0;
}

int
rv_cmd_compare(int argc, char **argv)
{
    static char *arg_baseline, *arg_test, *arg_hist_csv, *arg_within, *arg_by;
    static char **arg_budget;
    static gboolean arg_csv, arg_wide, arg_per_guest;
    const GOptionEntry entries[] = {
        { "baseline", 'b', 0, G_OPTION_ARG_STRING, &arg_baseline,
          "Scenario the others are compared with (default: the first that ran; "
          "SCENARIO or SCENARIO@LOAD: that scenario at each load level)", "NAME" },
        { "csv", 0, 0, G_OPTION_ARG_NONE, &arg_csv, "Print CSV (RFC 4180)", NULL },
        { "budget", 0, 0, G_OPTION_ARG_STRING_ARRAY, &arg_budget,
          "Judge a budget, e.g. 'max_us <= 40', 'guest=rt0: p99.99_us <= 20', "
          "'nopm >= -10%' (repeatable; with the matrix's [budget])", "EXPR" },
        { "histogram-csv", 0, 0, G_OPTION_ARG_FILENAME, &arg_hist_csv,
          "Also write the merged latency histograms as CSV to FILE (for gnuplot)", "FILE" },
        { "by", 0, 0, G_OPTION_ARG_STRING, &arg_by,
          "Group the rows of several stores by host or by scenario (labels HOST/SCENARIO)", "host|scenario" },
        { "within", 0, 0, G_OPTION_ARG_STRING, &arg_within,
          "Share of samples under each threshold, e.g. 10us,20us,50us (us, or ms)", "LIST" },
        { "wide", 0, 0, G_OPTION_ARG_NONE, &arg_wide,
          "Do not fit the table into 120 columns (one block of metric columns)", NULL },
        { "per-guest", 0, 0, G_OPTION_ARG_NONE, &arg_per_guest,
          "The answer's RT p99.99 and max per RT guest, not of all RT guests merged", NULL },
        { "test", 0, 0, G_OPTION_ARG_STRING, &arg_test,
          "Significance test: welch (default) or mann-whitney", "TEST" },
        { NULL },
    };
    g_autoptr(GError) error = NULL;
    g_autoptr(GPtrArray) stores = g_ptr_array_new_with_free_func((GDestroyNotify) rv_result_store_free);
    g_autoptr(RvComparison) cmp = NULL;
    g_autofree char *out = NULL;
    RvStatsTest test = RV_STATS_WELCH;
    RvCompareOptions opts = { 0 };
    g_autoptr(GPtrArray) budgets = g_ptr_array_new_with_free_func((GDestroyNotify) rv_result_budget_free);
    guint budget_failures = 0;
    g_autoptr(GArray) within = NULL;
    RvCompareBy by = RV_COMPARE_BY_NONE;
    gboolean arg_json;

    if (rv_cmd_parse(&compare_spec, entries, &argc, &argv) < 0)
        return RV_EXIT_ERROR;
    arg_json = rv_cmd_common.json;
    if (argc < 2) {
        rv_log_error("%s: no results directory given (usage: rtvirt compare DIR [DIR...])", argv[0]);
        return RV_EXIT_ERROR;
    }
    if (arg_json && arg_csv) {
        rv_log_error("%s: --json and --csv exclude each other", argv[0]);
        return RV_EXIT_ERROR;
    }
    if (arg_test) {
        if (g_str_equal(arg_test, "welch"))
            test = RV_STATS_WELCH;
        else if (g_str_equal(arg_test, "mann-whitney") || g_str_equal(arg_test, "mwu"))
            test = RV_STATS_MANN_WHITNEY;
        else {
            rv_log_error("%s: unknown --test '%s' (welch or mann-whitney)", argv[0], arg_test);
            return RV_EXIT_ERROR;
        }
    }
    for (int i = 1; i < argc; i++) {
        RvStore *st = NULL;
        if (rv_result_store_open(argv[i], &st, &error) < 0)
            return rv_log_gerror(error, "Failed to open results store");
        g_ptr_array_add(stores, st);
        /* the same store twice would be compared against itself */
        g_autofree char *real = realpath(rv_result_store_get_dir(st), NULL);
        for (int k = 1; real && k < i; k++) {
            g_autofree char *other = realpath(rv_result_store_get_dir(stores->pdata[k - 1]), NULL);
            if (other && g_str_equal(real, other)) {
                rv_log_error("%s: results store '%s' given twice (as '%s' and '%s')",
                             argv[0], real, argv[k], argv[i]);
                return RV_EXIT_ERROR;
            }
        }
    }
    if (arg_by) {
        if (g_str_equal(arg_by, "host"))
            by = RV_COMPARE_BY_HOST;
        else if (g_str_equal(arg_by, "scenario"))
            by = RV_COMPARE_BY_SCENARIO;
        else {
            rv_log_error("%s: unknown --by '%s' (host or scenario)", argv[0], arg_by);
            return RV_EXIT_ERROR;
        }
    }
    if (rv_result_compare_build_by(stores, arg_baseline, test, by, &cmp, &error) < 0)
        return rv_log_gerror(error, "Failed to compare");
    /* budgets: the matrix copies' [budget] of every store, then --budget */
    for (guint i = 0; i < stores->len; i++) {
        const RvStore *st = stores->pdata[i];
        if (rv_result_budget_load_store(rv_result_store_get_dir(st), rv_result_store_get_matrix(st),
                                        budgets, &error) < 0)
            return rv_log_gerror(error, "Failed to read the budgets of the store's matrix");
    }
    for (guint i = 0; arg_budget && arg_budget[i]; i++) {
        RvBudget *b = NULL;
        if (rv_result_budget_parse(arg_budget[i], NULL, "--budget", &b, &error) < 0)
            return rv_log_gerror(error, "--budget");
        g_ptr_array_add(budgets, b);
    }
    if (budgets->len)
        budget_failures = rv_result_compare_judge(cmp, budgets);
    if (arg_hist_csv) {
        g_autofree char *h = rv_result_compare_histogram_csv(cmp);
        g_autofree char *dir = g_path_get_dirname(arg_hist_csv);

        /* g_file_set_contents() would name its temporary file, not FILE */
        if (!g_file_test(dir, G_FILE_TEST_IS_DIR)) {
            rv_log_error("Failed to write '%s' (--histogram-csv): no directory '%s'",
                         arg_hist_csv, dir);
            return RV_EXIT_ERROR;
        }
        if (!g_file_set_contents(arg_hist_csv, h, -1, &error))
            return rv_log_gerror(error, "Failed to write the histogram CSV");
    }
    if (arg_within && parse_within(argv[0], arg_within, &within) < 0)
        return RV_EXIT_ERROR;
    opts.within_us = within ? (const double *) within->data : NULL;
    opts.n_within = within ? within->len : 0;
    opts.wide = arg_wide;
    opts.per_guest = arg_per_guest;
    out = rv_result_compare_format_opts(cmp, arg_json ? RV_COMPARE_JSON
                                             : arg_csv ? RV_COMPARE_CSV : RV_COMPARE_TEXT,
                                        &opts);
    fputs(out, stdout);
    if (fflush(stdout) != 0) {
        rv_log_error("Failed to write the comparison to stdout");
        return RV_EXIT_ERROR;
    }
    return budget_failures ? RV_EXIT_CHECK : RV_EXIT_OK;
}
