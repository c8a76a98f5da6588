/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * harness/cmd-report.c: `rtvirt report STORE [STORE...] -o DIR
 * [--baseline NAME] [--test welch|mann-whitney] [--title TEXT]`.
 *
 * Reads results stores only (no host access, no daemon) and writes the
 * static HTML report of results/report.h into DIR; gnuplot draws the plots.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "harness/cmd-common.h"
#include "harness/commands.h"
#include "harness/log.h"
#include "results/report.h"
#include "results/store.h"
#include "util/error.h"
#include "util/runner.h"

static const RvCmdSpec report_spec = {
    .params = "STORE [STORE...]",
    .summary =
        "Write a static HTML report of one or more results stores into DIR:\n"
        "DIR/index.html with gnuplot SVG plots (latency histograms, percentile\n"
        "curves, the spread of each repetition's max, throughput mean +- SEM, the\n"
        "trade-off), what ran and whether it is trusted, and the raw outputs.\n"
        "The numbers are those of 'rtvirt compare --json'.  Needs gnuplot.",
    .exit_status = "0 written (every budget PASS), 1 written, but a budget FAILed or\n"
                   "could not be judged, 2 error (no such store, a store given twice, a bad\n"
                   "budget or option, gnuplot missing or failing, DIR not writable).",
};

int
rv_cmd_report(int argc, char **argv)
{
    static char *arg_out, *arg_baseline, *arg_test, *arg_title;
    static char **arg_budget;
    static gboolean arg_force;
    const GOptionEntry entries[] = {
        { "force", 'f', 0, G_OPTION_ARG_NONE, &arg_force,
          "Replace DIR/index.html even when rtvirt report did not write it", NULL },
        { "output", 'o', 0, G_OPTION_ARG_FILENAME, &arg_out,
          "Directory for index.html and the plots (created; required)", "DIR" },
        { "baseline", 'b', 0, G_OPTION_ARG_STRING, &arg_baseline,
          "Scenario the others are compared with (default: the first that ran; "
          "SCENARIO or SCENARIO@LOAD: that scenario at each load level)", "NAME" },
        { "test", 0, 0, G_OPTION_ARG_STRING, &arg_test,
          "Significance test: welch (default) or mann-whitney", "TEST" },
        { "title", 0, 0, G_OPTION_ARG_STRING, &arg_title, "The page's title", "TEXT" },
        { "budget", 0, 0, G_OPTION_ARG_STRING_ARRAY, &arg_budget,
          "Judge a budget as compare --budget does, e.g. 'max_us <= 40' (repeatable; "
          "with the matrix's [budget])", "EXPR" },
        { NULL },
    };
    g_autoptr(GError) error = NULL;
    g_autoptr(GPtrArray) stores = g_ptr_array_new_with_free_func((GDestroyNotify) rv_result_store_free);
    g_autoptr(RvRunner) runner = rv_runner_new(false);
    RvReportOptions opts = { 0 };
    g_autofree char *index = NULL;
    guint not_passed = 0;

    if (rv_cmd_parse(&report_spec, entries, &argc, &argv) < 0)
        return RV_EXIT_ERROR;
    if (argc < 2) {
        rv_log_error("%s: no results store given (usage: rtvirt report STORE... -o DIR)", argv[0]);
        return RV_EXIT_ERROR;
    }
    if (!arg_out || !*arg_out) {
        rv_log_error("%s: no output directory given (-o DIR)", argv[0]);
        return RV_EXIT_ERROR;
    }
    /* a report rewrites its own page; someone else's index.html (a web
     * root, another tool's report) is not overwritten without --force */
    {
        g_autofree char *old_index = g_build_filename(arg_out, "index.html", NULL);
        g_autofree char *old = NULL;
        gsize old_len = 0;

        if (!arg_force && g_file_test(old_index, G_FILE_TEST_EXISTS) &&
            (!g_file_get_contents(old_index, &old, &old_len, NULL) ||
             !g_strstr_len(old, old_len, RV_REPORT_SIGNATURE))) {
            rv_log_error("%s: '%s' exists and was not written by rtvirt report: not "
                         "overwritten (another -o DIR, or --force to replace it)", argv[0],
                         old_index);
            return RV_EXIT_ERROR;
        }
    }
    opts.test = RV_STATS_WELCH;
    if (arg_test) {
        if (g_str_equal(arg_test, "welch"))
            opts.test = RV_STATS_WELCH;
        else if (g_str_equal(arg_test, "mann-whitney") || g_str_equal(arg_test, "mwu"))
            opts.test = RV_STATS_MANN_WHITNEY;
        else {
            rv_log_error("%s: unknown --test '%s' (welch or mann-whitney)", argv[0], arg_test);
            return RV_EXIT_ERROR;
        }
    }
    opts.baseline = arg_baseline;
    opts.title = arg_title;
    opts.budgets = (const char *const *) arg_budget;
    for (int i = 1; i < argc; i++) {
        RvStore *st = NULL;
        g_autofree char *real = NULL;

        if (rv_result_store_open(argv[i], &st, &error) < 0)
            return rv_log_gerror(error, "Failed to open results store");
        g_ptr_array_add(stores, st);
        /* the same store twice would be compared against itself */
        real = realpath(rv_result_store_get_dir(st), NULL);
        for (int k = 1; real && k < i; k++) {
            g_autofree char *other = realpath(rv_result_store_get_dir(stores->pdata[k - 1]), NULL);

            if (other && g_str_equal(real, other)) {
                rv_log_error("%s: results store '%s' given twice (as '%s' and '%s')",
                             argv[0], real, argv[k], argv[i]);
                return RV_EXIT_ERROR;
            }
        }
    }
    if (rv_result_report_write(stores, arg_out, &opts, runner, &not_passed, &error) < 0)
        return rv_log_gerror(error, "Failed to write the report");
    index = g_build_filename(arg_out, "index.html", NULL);
    printf("Report: %s\n", index);
    if (fflush(stdout) != 0) {
        rv_log_error("Failed to write to stdout");
        return RV_EXIT_ERROR;
    }
    if (not_passed)
        rv_log_error("%u budget verdict(s) not PASS: see the page's Budgets", not_passed);
    return not_passed ? RV_EXIT_CHECK : RV_EXIT_OK;
}
