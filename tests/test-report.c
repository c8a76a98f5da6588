/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * tests/test-report.c: `rtvirt report`'s writer (results/report.h) on the
 * synthetic compare stores (tests/data/compare/tcg: two stores, virt=tcg,
 * untrusted, a SKIPPED scenario, a failed repetition) and on a store with
 * a throughput workload written here: which plots it asks gnuplot for and
 * with which command lines (a dry-run runner), what the page says, and
 * that store text is escaped in the page and quoted in the data files.
 * With gnuplot installed, the plots are drawn for real and checked to be
 * SVG (tests/t-report.sh renders the page in Chromium).
 */
#include <errno.h>
#include <string.h>

#include <glib/gstdio.h>

#include "results/report.h"
#include "results/store.h"
#include "util/error.h"
#include "tests/testutil.h"

static GPtrArray *
open_stores(const char *const *dirs)
{
    GPtrArray *stores = g_ptr_array_new_with_free_func((GDestroyNotify) rv_result_store_free);

    for (guint i = 0; dirs[i]; i++) {
        g_autofree char *d = rv_test_data_path("compare", dirs[i]);
        g_autoptr(GError) err = NULL;
        RvStore *st = NULL;

        if (rv_result_store_open(d, &st, &err) < 0)
            g_error("%s", err->message);
        g_ptr_array_add(stores, st);
    }
    return stores;
}

static gboolean
log_has(RvRunner *runner, const char *needle)
{
    GPtrArray *log = rv_runner_get_log(runner);

    for (guint i = 0; i < log->len; i++)
        if (strstr(log->pdata[i], needle))
            return TRUE;
    return FALSE;
}

static void
test_tcg_two_stores(void)
{
    static const char *const dirs[] = { "tcg/20261130-141500-demo", "tcg/20261130-150000-kvmhost",
                                        NULL };
    g_autoptr(GPtrArray) stores = open_stores(dirs);
    g_autofree char *tmp = g_dir_make_tmp("rv-report-XXXXXX", NULL);
    g_autofree char *out = g_build_filename(tmp, "r", NULL);
    g_autofree char *page = NULL, *index = NULL, *dat = NULL, *cmd = NULL;
    g_autoptr(RvRunner) runner = rv_runner_new(true);
    g_autoptr(GError) err = NULL;

    g_assert_cmpint(rv_result_report_write(stores, out, NULL, runner, NULL, &err), ==, 0);
    g_assert_no_error(err);
    /* one latency group: histogram, percentiles, spread; nothing else */
    g_assert_cmpuint(rv_runner_get_log(runner)->len, ==, 3);
    cmd = g_strdup_printf("gnuplot -c %s/plot/g1-hist.gp %s/g1-hist.svg %s/plot/g1-hist.dat 3",
                          out, out, out);
    g_assert_true(log_has(runner, cmd));
    g_assert_true(log_has(runner, "/g1-pct.svg"));
    g_assert_true(log_has(runner, "/plot/g1-spread-2.dat 3"));
    index = g_build_filename(out, "index.html", NULL);
    page = rv_test_read_file(index);
    g_assert_nonnull(strstr(page, "UNTRUSTED"));
    g_assert_nonnull(strstr(page, "virt=tcg"));
    g_assert_nonnull(strstr(page, "host not as profile requires: isolcpus missing"));
    /* a significant change is coloured: 25 us better, p<0.001 */
    g_assert_nonnull(strstr(page, "<td class=\"n good\" data-v=\"35\">35 -25 better ***</td>"));
    /* scenarios of both stores side by side, labelled by store */
    g_assert_nonnull(strstr(page, "20261130-141500-demo/baseline"));
    g_assert_nonnull(strstr(page, "20261130-150000-kvmhost/baseline"));
    g_assert_nonnull(strstr(page, "SKIPPED"));
    g_assert_nonnull(strstr(page, "no budget"));
    g_assert_null(strstr(page, "<script"));
    /* the data a script reads: labels quoted, one block per scenario */
    dat = g_strdup_printf("%s/plot/g1-hist.dat", out);
    g_clear_pointer(&page, g_free);
    page = rv_test_read_file(dat);
    g_assert_true(g_str_has_prefix(page, "\"20261130-141500-demo/baseline\"\n"));
    rv_test_rm_rf(tmp);
}

/* a store with RT latency and a throughput neighbour, written as
 * rtvirt run writes one */
static RvStore *
throughput_store(const char *parent, const char *evil)
{
    g_autoptr(GError) err = NULL;
    RvStore *st = NULL;
    const char *scen[] = { "baseline", evil };

    g_assert_cmpint(rv_result_store_create(parent, "tput", NULL, &st, &err), ==, 0);
    for (guint s = 0; s < 2; s++) {
        rv_result_store_add_scenario(st, scen[s], NULL);
        rv_result_store_set_scenario_status(st, scen[s], "ran", NULL);
        for (int rep = 1; rep <= 3; rep++) {
            RvStoreRecord *rec = rv_result_store_record_new(scen[s], rep, "cyclictest", "guest:rt");
            g_autoptr(RvHistogram) h = rv_result_histogram_new(100);

            rv_result_histogram_add(h, 5 + s, 1000);
            rv_result_histogram_add(h, 20 + 10 * s + rep, 3);
            h->max_us = 20 + 10 * s + rep;
            rv_result_store_record_set_virt(rec, "kvm");
            rv_result_store_record_add_metric(rec, "max_us", h->max_us, "us");
            rv_result_store_record_add_histogram(rec, "latency", h);
            rv_result_store_add_record(st, rec);
            rec = rv_result_store_record_new(scen[s], rep, "sysbench", "guest:tp");
            rv_result_store_record_set_virt(rec, "kvm");
            rv_result_store_record_add_metric_full(rec, "events_per_s", 1000.0 - 100 * s + rep,
                                                   "events/s", RV_STORE_BETTER_HIGHER,
                                                   RV_STORE_AGGREGATE_HMEAN);
            /* lower is better: plotted, but no throughput in the trade-off */
            rv_result_store_record_add_metric_full(rec, RV_STORE_METRIC_CPU_PCT, 10.0 * rep, "%",
                                                   RV_STORE_BETTER_LOWER,
                                                   RV_STORE_AGGREGATE_MEAN);
            rv_result_store_add_record(st, rec);
        }
    }
    g_assert_cmpint(rv_result_store_commit(st, &err), ==, 0);
    return st;
}

static void
test_throughput_and_escaping(void)
{
    static const char evil[] = "<i>x</i>&\"q\"`id`";
    g_autofree char *tmp = g_dir_make_tmp("rv-report-XXXXXX", NULL);
    g_autofree char *out = g_build_filename(tmp, "r", NULL);
    g_autofree char *page = NULL, *path = NULL, *dat = NULL, *svg = NULL;
    g_autoptr(GPtrArray) stores = g_ptr_array_new_with_free_func((GDestroyNotify) rv_result_store_free);
    g_autofree char *gnuplot = g_find_program_in_path("gnuplot");
    gboolean real = gnuplot != NULL;
    g_autoptr(RvRunner) runner = rv_runner_new(!real);
    g_autoptr(GError) err = NULL;

    g_ptr_array_add(stores, throughput_store(tmp, evil));
    if (rv_result_report_write(stores, out, NULL, runner, NULL, &err) < 0)
        g_error("%s", err->message);
    /* latency: 3 plots; sysbench: one per metric (2); the trade-off */
    g_assert_cmpuint(rv_runner_get_log(runner)->len, ==, 6);
    g_assert_true(log_has(runner, "/g2-m1.svg"));
    g_assert_true(log_has(runner, "/g2-m2.svg"));
    g_assert_true(log_has(runner, "/tradeoff.svg"));
    path = g_build_filename(out, "index.html", NULL);
    page = rv_test_read_file(path);
    g_assert_nonnull(strstr(page, "Every store is trusted."));
    g_assert_nonnull(strstr(page, "virt=kvm"));
    g_assert_nonnull(strstr(page, "&lt;i&gt;x&lt;/i&gt;&amp;&quot;q&quot;`id`"));
    g_assert_null(strstr(page, "<i>x"));
    g_assert_nonnull(strstr(page, "src=\"tradeoff.svg\""));
    g_assert_nonnull(strstr(page, "data-metric=\"events_per_s\" data-scenario=\"baseline\""));
    /* cpu_pct of the baseline: the mean of 10, 20, 30 */
    g_assert_nonnull(strstr(page, "data-metric=\"cpu_pct\" data-scenario=\"baseline\""));
    g_assert_nonnull(strstr(page, "data-v=\"20\">20</td>"));
    dat = g_strdup_printf("%s/plot/tradeoff.dat", out);
    g_clear_pointer(&page, g_free);
    page = rv_test_read_file(dat);
    /* the baseline at 0 % change, the other at -9.98 %; p99.99 of each:
     * rank ceil(0.9999 * 3009) = 3009, the largest sample, 23 us */
    g_assert_nonnull(strstr(page, "\"sysbench events_per_s\"\n0 23 \"baseline\"\n"));
    g_assert_nonnull(strstr(page, "\"<i>x</i>&_q_`id`\""));
    g_assert_null(strstr(page, "cpu_pct"));
    if (real) {
        g_clear_pointer(&page, g_free);
        svg = g_build_filename(out, "g1-hist.svg", NULL);
        page = rv_test_read_file(svg);
        g_assert_nonnull(strstr(page, "<svg"));
        g_assert_nonnull(strstr(page, "<path"));
        g_assert_null(strstr(page, "<script"));
    }
    rv_test_rm_rf(tmp);
}

/* budgets as compare judges them: a trusted store passes or fails */
static void
test_budgets(void)
{
    g_autofree char *tmp = g_dir_make_tmp("rv-report-XXXXXX", NULL);
    g_autofree char *out = g_build_filename(tmp, "r", NULL);
    g_autofree char *path = g_build_filename(out, "index.html", NULL);
    g_autofree char *page = NULL;
    g_autoptr(GPtrArray) stores = g_ptr_array_new_with_free_func((GDestroyNotify) rv_result_store_free);
    g_autoptr(RvRunner) runner = rv_runner_new(true);
    g_autoptr(GError) err = NULL;
    const char *pass[] = { "max_us <= 40", "events_per_s >= -15%", NULL };
    const char *fail[] = { "guest=rt: max_us <= 30", NULL };
    const char *bad[] = { "max_us =< 3", NULL };
    RvReportOptions opts = { 0 };
    guint not_passed = 99;

    g_ptr_array_add(stores, throughput_store(tmp, "other"));
    opts.budgets = pass;
    g_assert_cmpint(rv_result_report_write(stores, out, &opts, runner, &not_passed, &err), ==, 0);
    g_assert_cmpuint(not_passed, ==, 0);
    page = rv_test_read_file(path);
    g_assert_nonnull(strstr(page, "<code>events_per_s &gt;= -15%</code> (--budget)"));
    g_assert_nonnull(strstr(page, "<strong>PASS</strong>"));
    g_assert_null(strstr(page, "<strong>FAIL</strong>"));
    g_clear_pointer(&page, g_free);
    /* max_us of the other scenario's repetitions: 31, 32, 33 */
    opts.budgets = fail;
    g_assert_cmpint(rv_result_report_write(stores, out, &opts, runner, &not_passed, &err), ==, 0);
    g_assert_cmpuint(not_passed, ==, 1);
    page = rv_test_read_file(path);
    g_assert_nonnull(strstr(page, "<strong>FAIL</strong>"));
    opts.budgets = bad;
    g_assert_cmpint(rv_result_report_write(stores, out, &opts, runner, &not_passed, &err), ==,
                    -EINVAL);
    g_assert_error(err, RV_ERROR, RV_ERROR_INVALID);
    g_assert_nonnull(strstr(err->message, "max_us =< 3"));
    rv_test_rm_rf(tmp);
}

/* The flagship's CI store (tests/data/compare/flagship-ci, run for real
 * under TCG): the page opens with the answer, whose cells carry the
 * text's figures and marks ("34861 -29077 better ~" is the text's RT max
 * cell of siblings-idle@t2), the sentences, the per-level tables, and the
 * metric tables the direction and the mark of each row. */
static void
test_flagship(void)
{
    static const char *const dirs[] = { "flagship-ci/20261204-183604-coresched-vs-nosmt-ci", NULL };
    g_autoptr(GPtrArray) stores = open_stores(dirs);
    g_autofree char *tmp = g_dir_make_tmp("rv-report-XXXXXX", NULL);
    g_autofree char *out = g_build_filename(tmp, "r", NULL);
    g_autofree char *path = g_build_filename(out, "index.html", NULL);
    g_autofree char *page = NULL;
    g_autoptr(RvRunner) runner = rv_runner_new(true);
    g_autoptr(GError) err = NULL;
    g_auto(GStrv) halves = NULL;

    g_assert_cmpint(rv_result_report_write(stores, out, NULL, runner, NULL, &err), ==, 0);
    page = rv_test_read_file(path);
    /* the answer before what ran */
    halves = g_strsplit(page, "<h2 id=\"what\">", 2);
    g_assert_nonnull(halves[0]);
    g_assert_nonnull(halves[1]);
    g_assert_nonnull(strstr(halves[0], "<h2 id=\"answer\">"));
    g_assert_nonnull(strstr(page, "<th>RT p99.99 [us]</th><th>RT max [us]</th><th>sb events_per_s "
                                  "[events/s]</th><th>gm gflops [GFLOPS]</th><th>host cpu%</th>"));
    g_assert_nonnull(strstr(page, " data-v=\"34861\">34861 -29077 better ~</td>"));
    /* within the noise: not coloured as if it changed (every mark is ~ here) */
    g_assert_nonnull(strstr(page, "<td class=\"n\" data-v=\"34861\">"));
    g_assert_null(strstr(page, "class=\"n good\""));
    g_assert_null(strstr(page, "class=\"n bad\""));
    g_assert_nonnull(strstr(page, "<li>siblings-idle@t1 vs baseline@t1: RT p99.99 "));
    /* compare's NOTE that without SMT baseline and siblings-idle are alike */
    g_assert_nonnull(strstr(page, "<p class=\"note\">NOTE: store 1&apos;s host has no SMT sibling "
                                  "online: host_sibling = shared (baseline) and idle (siblings-idle)"));
    /* each load level's baseline, not t1's alone */
    g_assert_nonnull(strstr(page, "<p>Baseline: <strong>baseline@t1, baseline@t2</strong>;"));
    g_assert_nonnull(strstr(page, "<th>change %</th><th>p</th><th></th><th>sig</th>"));
    g_assert_nonnull(strstr(page, "SMT on, no core scheduling, the RT vCPUs&apos; siblings idle"));
    g_assert_true(log_has(runner, "tradeoff"));
    /* per load level, the text's mean [std% / sem%] change cpu% */
    g_assert_nonnull(strstr(page, "<h3>events_per_s of guest:sb per load level</h3>"));
    g_assert_nonnull(strstr(page, ">201.1 [4.2% / 3.0%] base 100.0%</td>"));
    g_assert_nonnull(strstr(page, ">175.8 [44.7% / 31.6%] -26.8% worse ~ 100.0%</td>"));
    rv_test_rm_rf(tmp);
}

static void
test_plot_label(void)
{
    static const struct { const char *in, *out; } cases[] = {
        { "baseline", "\"baseline\"" },
        { "a\"b\\c", "\"a_b_c\"" },
        { "tab\there\nnl", "\"tab_here_nl\"" },
        { "`rm -rf /` @x $y", "\"`rm -rf /` @x $y\"" },
        { NULL, "\"\"" },
    };

    for (gsize i = 0; i < G_N_ELEMENTS(cases); i++) {
        g_autofree char *got = rv_result_report_plot_label(cases[i].in);

        g_assert_cmpstr(got, ==, cases[i].out);
    }
}

static void
test_errors(void)
{
    static const char *const dirs[] = { "welch/20261130-140000-demo", NULL };
    g_autoptr(GPtrArray) stores = open_stores(dirs);
    g_autoptr(RvRunner) runner = rv_runner_new(true);
    g_autoptr(GError) err = NULL;
    RvReportOptions opts = { .baseline = "no-such-scenario" };
    g_autofree char *tmp = g_dir_make_tmp("rv-report-XXXXXX", NULL);
    g_autofree char *out = g_build_filename(tmp, "r", NULL);

    g_assert_cmpint(rv_result_report_write(stores, out, &opts, runner, NULL, &err), ==, -EINVAL);
    g_assert_error(err, RV_ERROR, RV_ERROR_INVALID);
    g_clear_error(&err);
    g_assert_cmpint(rv_result_report_write(stores, "/nonexistent/dir/r", NULL, runner, NULL, &err),
                    <, 0);
    g_assert_error(err, RV_ERROR, RV_ERROR_FAILED);
    g_assert_nonnull(strstr(err->message, "/nonexistent/dir/r"));
    rv_test_rm_rf(tmp);
}

int
main(int argc, char **argv)
{
    g_test_init(&argc, &argv, NULL);
    g_test_add_func("/report/tcg-two-stores", test_tcg_two_stores);
    g_test_add_func("/report/throughput-and-escaping", test_throughput_and_escaping);
    g_test_add_func("/report/budgets", test_budgets);
    g_test_add_func("/report/flagship-ci", test_flagship);
    g_test_add_func("/report/plot-label", test_plot_label);
    g_test_add_func("/report/errors", test_errors);
    return g_test_run();
}
