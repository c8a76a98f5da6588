/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * tests/test-guest-report.c: the per-vCPU cyclictest table of `rtvirt guest
 * run` (guest/report.h) for real cyclictest outputs of tests/data/cases:
 * tests/data/guest-report/NAME.txt is the expected table (RV_REGENERATE=1
 * rewrites); percentile cells beyond the histogram range print "<=MAX".
 */
#include <math.h>
#include <string.h>

#include "guest/report.h"
#include "results/cyclictest.h"
#include "tests/testutil.h"

typedef struct {
    const char *name;       /* tests/data/guest-report/NAME.txt */
    const char *cyclictest; /* tests/data/cases/cyclictest/FILE */
    guint run;              /* which run of the file */
    const char *profile;    /* guest profile, relative to RV_TOP */
} ReportCase;

static const ReportCase cases[] = {
    /* run 1: -h60, 604 overflows of 2999425 samples (0.02 %): p99.99 falls
     * among the overflows, bounded by Max 1475 (source.txt) */
    { "kvm-guest-hist60-overflows-rt-demo", "kvm-guest-1thread-hist60-overflows-others.txt", 0,
      "profiles/guests/rt-demo.ini" },
    /* run 2: 0 overflows, max 12 (source.txt): every cell a histogram value */
    { "kvm-guest-hist60-run2-rt-demo", "kvm-guest-1thread-hist60-overflows-others.txt", 1,
      "profiles/guests/rt-demo.ini" },
};

static void
test_case(gconstpointer data)
{
    const ReportCase *c = data;
    g_autofree char *path = g_build_filename(rv_test_cases_dir(), "cyclictest", c->cyclictest, NULL);
    g_autofree char *file = g_strdup_printf("%s.txt", c->name);
    g_autofree char *expected = rv_test_data_path("guest-report", file);
    g_autoptr(RvGuestProfile) profile = rv_test_load_guest_profile(c->profile);
    g_autoptr(GPtrArray) runs = NULL;
    g_autoptr(GError) err = NULL;
    g_autofree char *table = NULL;

    g_assert_cmpint(rv_result_cyclictest_parse_file(path, &runs, &err), >, 0);
    g_assert_no_error(err);
    g_assert_cmpuint(runs->len, >, c->run);
    table = rv_guest_report_cyclictest_table(profile, runs->pdata[c->run]);
    rv_test_compare_expected(expected, table);
}

/* The cell rules on hand-made histograms: no histogram, in range, beyond
 * with the max known (upper bound) and unknown (lower bound). */
static void
test_cells(void)
{
    g_autoptr(RvHistogram) h = rv_result_histogram_new(10);
    g_autofree char *none = rv_guest_report_percentile_cell(NULL, 99);
    g_autofree char *empty = rv_guest_report_percentile_cell(h, 99);

    g_assert_cmpstr(none, ==, "-");
    g_assert_cmpstr(empty, ==, "-");
    for (int i = 0; i < 98; i++)
        rv_result_histogram_add(h, 3, 1);
    rv_result_histogram_add(h, 27615, 2);   /* 2 % beyond the 10 us range */
    h->max_us = 27615;
    {
        g_autofree char *p50 = rv_guest_report_percentile_cell(h, 50);
        g_autofree char *p99 = rv_guest_report_percentile_cell(h, 99);

        g_assert_cmpstr(p50, ==, "3");
        g_assert_cmpstr(p99, ==, "<=27615");
    }
    h->max_us = -1;
    {
        g_autofree char *p99 = rv_guest_report_percentile_cell(h, 99);

        g_assert_cmpstr(p99, ==, ">10");
    }
}

int
main(int argc, char **argv)
{
    g_test_init(&argc, &argv, NULL);
    for (guint i = 0; i < G_N_ELEMENTS(cases); i++) {
        g_autofree char *p = g_strdup_printf("/guest-report/case/%s", cases[i].name);

        g_test_add_data_func(p, &cases[i], test_case);
    }
    g_test_add_func("/guest-report/cells", test_cells);
    return g_test_run();
}
