/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * tests/test-pert.c: the perturbation accounting (results/pert.h) on
 * synthetic gap sequences: gaps in, per-second lines out.
 */
#include <math.h>
#include <string.h>

#include "results/pert.h"

#define MS 1000000ull
#define S  1000000000ull

static GArray *
feed_pattern(RvPertAccount *a, guint64 base_ns, GArray *done)
{
    /* 1000 tick-like gaps of 1.90 us, one per ms, and one 16.22 us gap */
    for (int i = 0; i < 1000; i++) {
        rv_result_pert_add(a, base_ns + i * MS, 1900, done);
        if (i == 500)
            rv_result_pert_add(a, base_ns + i * MS + 500000, 16220, done);
    }
    return done;
}

static void
test_lines(void)
{
    g_autoptr(RvPertAccount) a = rv_result_pert_new(S);
    g_autoptr(GArray) done = g_array_new(FALSE, TRUE, sizeof(RvPertSecond));
    RvPertSummary sum;
    double mean, m2 = 0, thr;
    g_autofree char *l0 = NULL, *l1 = NULL, *l2 = NULL, *l3 = NULL, *want1 = NULL;

    feed_pattern(a, 0, done);
    g_assert_cmpuint(done->len, ==, 0);          /* second 0 still open */
    feed_pattern(a, S, done);
    g_assert_cmpuint(done->len, ==, 1);          /* the first gap of second 1 closed second 0 */
    rv_result_pert_add(a, 3 * S + 100 * MS, 10000, done);  /* second 2 had none */
    rv_result_pert_advance(a, 3 * S + 500 * MS, TRUE, done);
    g_assert_cmpuint(done->len, ==, 4);

    l0 = rv_result_pert_format_second(&g_array_index(done, RvPertSecond, 0));
    g_assert_cmpstr(l0, ==, "pert/s: 1001 >0.00us: 0 min: 1.90 max: 16.22 avg: 1.91 "
                            "sum/s: 1916us overhead: 0.19%");

    /* second 1's outlier threshold: mean + 3 sd of second 0's 1001 lengths,
     * computed here the two-pass way */
    mean = (1000 * 1.9 + 16.22) / 1001;
    m2 = 1000 * (1.9 - mean) * (1.9 - mean) + (16.22 - mean) * (16.22 - mean);
    thr = mean + 3 * sqrt(m2 / 1000);
    g_assert_cmpfloat_with_epsilon(g_array_index(done, RvPertSecond, 1).outlier_us, thr, 1e-9);
    want1 = g_strdup_printf("pert/s: 1001 >%.2fus: 1 min: 1.90 max: 16.22 avg: 1.91 "
                            "sum/s: 1916us overhead: 0.19%%", thr);
    l1 = rv_result_pert_format_second(&g_array_index(done, RvPertSecond, 1));
    g_assert_cmpstr(l1, ==, want1);

    l2 = rv_result_pert_format_second(&g_array_index(done, RvPertSecond, 2));
    g_assert_true(g_str_has_prefix(l2, "pert/s: 0 >"));
    g_assert_true(g_str_has_suffix(l2, "min: 0.00 max: 0.00 avg: 0.00 sum/s: 0us overhead: 0.00%"));

    /* the last, partial window: 10 us in 0.5 s */
    g_assert_cmpfloat_with_epsilon(g_array_index(done, RvPertSecond, 3).window_us, 500000, 1e-6);
    l3 = rv_result_pert_format_second(&g_array_index(done, RvPertSecond, 3));
    g_assert_true(g_str_has_suffix(l3, "sum/s: 10us overhead: 0.00%"));
    g_assert_true(g_str_has_prefix(l3, "pert/s: 1 >"));

    rv_result_pert_summary(a, &sum);
    g_assert_cmpuint(sum.count, ==, 2003);
    g_assert_cmpfloat_with_epsilon(sum.sum_us, 2 * (1900 + 16.22) + 10, 1e-6);
    g_assert_cmpfloat_with_epsilon(sum.duration_us, 3.5e6, 1e-6);
    g_assert_cmpfloat_with_epsilon(sum.min_us, 1.9, 1e-9);
    g_assert_cmpfloat_with_epsilon(sum.max_us, 16.22, 1e-9);
    g_assert_cmpuint(sum.hist[1], ==, 2000);
    g_assert_cmpuint(sum.hist[16], ==, 2);
    g_assert_cmpuint(sum.hist[10], ==, 1);
    g_assert_cmpuint(sum.hist_overflow, ==, 0);
}

static void
test_tick_cost(void)
{
    /* The kernel-list figure: 1000 ticks of 14.4 us each per second on one
     * kernel is 1.44 % of the CPU; 1000 of 1.9 us is 0.19 %. */
    static const struct { guint64 gap_ns; const char *overhead; } k[] = {
        { 14400, "overhead: 1.44%" }, { 1900, "overhead: 0.19%" },
    };

    for (size_t i = 0; i < G_N_ELEMENTS(k); i++) {
        g_autoptr(RvPertAccount) a = rv_result_pert_new(S);
        g_autoptr(GArray) done = g_array_new(FALSE, TRUE, sizeof(RvPertSecond));
        g_autofree char *line = NULL;

        for (int t = 0; t < 1000; t++)
            rv_result_pert_add(a, t * MS, k[i].gap_ns, done);
        rv_result_pert_advance(a, S, TRUE, done);
        g_assert_cmpuint(done->len, ==, 1);
        line = rv_result_pert_format_second(&g_array_index(done, RvPertSecond, 0));
        g_assert_true(g_str_has_suffix(line, k[i].overhead));
    }
}

static void
test_overflow_and_json(void)
{
    g_autoptr(RvPertAccount) a = rv_result_pert_new(S);
    g_autoptr(JsonBuilder) b = json_builder_new();
    g_autoptr(JsonNode) root = NULL;
    RvPertSummary sum;
    JsonObject *o;

    rv_result_pert_add(a, 0, 2500 * 1000, NULL);     /* 2.5 ms: overflow */
    rv_result_pert_add(a, 10 * MS, 999 * 1000 + 999, NULL);
    rv_result_pert_advance(a, S, TRUE, NULL);
    rv_result_pert_summary(a, &sum);
    g_assert_cmpuint(sum.hist_overflow, ==, 1);
    g_assert_cmpuint(sum.hist[999], ==, 1);

    json_builder_begin_object(b);
    rv_result_pert_summary_to_json(&sum, TRUE, b);
    json_builder_end_object(b);
    root = json_builder_get_root(b);
    o = json_node_get_object(root);
    g_assert_cmpint(json_object_get_int_member(o, "count"), ==, 2);
    g_assert_cmpint(json_object_get_int_member(o, "overflows"), ==, 1);
    g_assert_cmpuint(json_array_get_length(json_object_get_array_member(o, "histogram_us")), ==, 1);
    g_assert_cmpfloat_with_epsilon(json_object_get_double_member(o, "overhead_pct"),
                                   100.0 * (2500 + 999.999) / 1e6, 1e-9);
}

int
main(int argc, char **argv)
{
    g_test_init(&argc, &argv, NULL);
    g_test_add_func("/pert/lines", test_lines);
    g_test_add_func("/pert/tick-cost", test_tick_cost);
    g_test_add_func("/pert/overflow-json", test_overflow_and_json);
    return g_test_run();
}
