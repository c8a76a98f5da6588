/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * results/report.h: `rtvirt report`, a static HTML report of one or more
 * run stores.
 *
 * Layout of DIR (written by rv_result_report_write()):
 *   index.html        the page: no script, no network, one inline style
 *   *.svg             the plots, drawn by gnuplot's svg terminal
 *   plot/NAME.gp      the gnuplot script of each plot (our text only: the
 *                     store's strings never reach a script; file names come
 *                     in as gnuplot -c arguments ARG1.., labels through the
 *                     data files, which gnuplot does not evaluate)
 *   plot/NAME.dat     its data (whitespace-separated columns, labels quoted)
 *   stores/N-BASE/    a copy of each store's run.json and raw/ files, which
 *                     the page links to (so that DIR alone can be archived)
 *
 * The numbers: every n, mean, stddev, SEM, min, max, change and p of the
 * page and the percentiles of the merged histograms come from
 * rv_result_compare_build() and its JSON document (rv_result_compare_format
 * with RV_COMPARE_JSON, the one `rtvirt compare --json` prints), so the
 * page and `compare --json` agree by construction; the plots' histograms
 * and percentile curves merge the "latency" histograms of the ok records
 * with rv_result_histogram_merge() and read them with
 * rv_result_histogram_percentile(), as compare does.  Each table cell
 * holding a number carries it exactly in a data-v attribute ("%.17g") for
 * tests and scripts.
 */
#pragma once

#include <glib.h>

/* Words every page rtvirt report writes carries (its footer): `report -o
 * DIR` replaces an index.html that has them, and refuses one that lacks
 * them (someone else's page) unless --force. */
#define RV_REPORT_SIGNATURE "Written by rtvirt report"


#include "results/stats.h"
#include "util/runner.h"

typedef struct {
    const char *title;        /* (nullable): the page's title; NULL: from the matrices */
    const char *baseline;     /* (nullable): as compare --baseline */
    RvStatsTest test;
    guint plot_timeout_ms;    /* per gnuplot run; 0: 30 s */
    const char *const *budgets; /* (nullable): NULL-terminated budget expressions
                               * (results/budget.h), judged with the [budget]
                               * of each store's matrix copy */
} RvReportOptions;

/**
 * rv_result_report_write:
 * @stores: RvStore* (at least one), in command-line order
 * @dir: the output directory; created when missing (its parent must
 *       exist); files of an earlier report in it are overwritten
 * @opts: (nullable): options; NULL for the defaults (Welch)
 * @runner: runs gnuplot (util/runner.h); a dry-run runner writes the page
 *          and the scripts but no SVG
 * @ret_not_passed: (out) (optional): the number of budget verdicts that are
 *         not PASS (rv_result_compare_judge()), 0 without budgets
 * @error: RV_ERROR_FAILED naming the file that cannot be written or the
 *         gnuplot run that failed (its first stderr line), RV_ERROR_INVALID
 *         as rv_result_compare_build() for a bad baseline, or for a bad
 *         budget (the expression, or the store's matrix copy FILE:LINE)
 *
 * Budgets: those of each store's matrix copy ([budget],
 * rv_result_budget_load_store()) and @opts->budgets are judged as
 * `compare --budget` judges them; the page lists every verdict.
 *
 * Returns: 0, or -errno (-ENOENT when gnuplot is not installed).
 */
int rv_result_report_write(GPtrArray *stores, const char *dir, const RvReportOptions *opts,
                           RvRunner *runner, guint *ret_not_passed, GError **error)
    G_GNUC_WARN_UNUSED_RESULT;

/**
 * rv_result_report_plot_label:
 * @text: (nullable): a scenario label or other store text
 *
 * The form store text takes in a gnuplot data file: double-quoted, with
 * '"', '\' and control bytes replaced by '_' (gnuplot reads a quoted
 * string in a data file as it is; it evaluates nothing there).
 *
 * Returns: (transfer full): the quoted label.
 */
char *rv_result_report_plot_label(const char *text);
