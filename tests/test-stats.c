/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * tests/test-stats.c: summaries and two-sample tests against values found
 * independently: a published example (Welch's t-test, Wikipedia "Welch's
 * t-test", Example 1: t = -2.46, df = 24.99, p = 0.021; the six-digit values
 * below were recomputed in pure Python with Simpson integration of the t
 * density, no GSL), and second methods computed here: numerical integration
 * of the t density for p-values, full enumeration of rank assignments for
 * the exact Mann-Whitney distribution, two-pass formulas for the summary,
 * a sorted array of raw samples for histogram percentiles.
 */
#include <errno.h>
#include <math.h>
#include <string.h>

#include "results/histogram.h"
#include "results/stats.h"
#include "util/error.h"

static const double A1[] = { 27.5, 21.0, 19.0, 23.6, 17.0, 17.9, 16.9, 20.1,
                             21.9, 22.6, 23.1, 19.6, 19.0, 21.7, 21.4 };
static const double A2[] = { 27.1, 22.0, 20.8, 23.4, 23.4, 23.5, 25.8, 22.0,
                             24.8, 20.2, 21.9, 22.1, 22.9, 20.5, 24.4 };

static void
assert_rel(double got, double want, double rel)
{
    if (!(fabs(got - want) <= rel * fabs(want)))
        g_error("got %.10g, want %.10g (relative tolerance %g)", got, want, rel);
}

static void
test_summary(void)
{
    RvStatsSummary s;
    double m = 0, v = 0;
    /* large offset: a naive sum-of-squares loses every digit here */
    double big[] = { 1e9 + 4, 1e9 + 7, 1e9 + 13, 1e9 + 16 };

    g_assert_cmpint(rv_result_stats_summary(A1, G_N_ELEMENTS(A1), &s, NULL), ==, 0);
    for (guint i = 0; i < G_N_ELEMENTS(A1); i++)
        m += A1[i];
    m /= G_N_ELEMENTS(A1);
    for (guint i = 0; i < G_N_ELEMENTS(A1); i++)
        v += (A1[i] - m) * (A1[i] - m);
    v /= G_N_ELEMENTS(A1) - 1;
    g_assert_cmpuint(s.n, ==, 15);
    assert_rel(s.mean, 20.82, 1e-12);
    assert_rel(s.mean, m, 1e-12);
    assert_rel(s.stddev, sqrt(v), 1e-12);
    assert_rel(s.sem, sqrt(v) / sqrt(15), 1e-12);
    g_assert_cmpfloat(s.min, ==, 16.9);
    g_assert_cmpfloat(s.max, ==, 27.5);

    g_assert_cmpint(rv_result_stats_summary(big, 4, &s, NULL), ==, 0);
    assert_rel(s.mean, 1e9 + 10, 1e-15);
    assert_rel(s.stddev, sqrt(30.0), 1e-9);   /* deviations -6,-3,3,6: 90/3 */

    g_assert_cmpint(rv_result_stats_summary(big, 1, &s, NULL), ==, 0);
    g_assert_true(isnan(s.stddev) && isnan(s.sem));
    g_assert_cmpint(rv_result_stats_summary(big, 0, &s, NULL), ==, -ENODATA);
    {
        double bad[] = { 1, NAN };
        g_autoptr(GError) err = NULL;
        g_assert_cmpint(rv_result_stats_summary(bad, 2, &s, &err), ==, -EINVAL);
        g_assert_error(err, RV_ERROR, RV_ERROR_INVALID);
    }
}

static void
test_welch_published(void)
{
    RvStatsTestResult r;

    g_assert_cmpint(rv_result_stats_welch(A1, 15, A2, 15, &r, NULL), ==, 0);
    g_assert_cmpint(r.test, ==, RV_STATS_WELCH);
    assert_rel(r.statistic, -2.45535639828601, 1e-9);
    assert_rel(r.df, 24.98852929023142, 1e-9);
    assert_rel(r.p, 0.02137800146286618, 1e-5);
    g_assert_cmpstr(rv_result_stats_test_name(r.test), ==, "Welch's t-test");
    /* symmetric */
    g_assert_cmpint(rv_result_stats_welch(A2, 15, A1, 15, &r, NULL), ==, 0);
    assert_rel(r.statistic, 2.45535639828601, 1e-9);
    assert_rel(r.p, 0.02137800146286618, 1e-5);
}

/* Student t density and its upper tail by Simpson's rule (second method). */
static double
t_pdf(double x, double n)
{
    return exp(lgamma((n + 1) / 2) - lgamma(n / 2)) / sqrt(n * M_PI) *
           pow(1 + x * x / n, -(n + 1) / 2);
}

static double
t_tail(double t, double n)
{
    const int N = 200000;
    double s = 0;
    for (int i = 0; i <= N; i++) {
        double u = (double) i / N * (1 - 1e-12);
        double x = t + u / (1 - u), w = 1 / ((1 - u) * (1 - u));
        int c = (i == 0 || i == N) ? 1 : (i % 2 ? 4 : 2);
        s += c * t_pdf(x, n) * w;
    }
    return s * (1 - 1e-12) / N / 3;
}

static void
test_welch_second_method(void)
{
    /* unequal sizes and variances: p from GSL vs the integrated density */
    static const double a[] = { 12.1, 14.3, 11.8, 15.2, 13.9, 12.7 };
    static const double b[] = { 16.4, 19.8, 13.2, 21.5, 17.1, 15.9, 22.3, 18.0, 14.6 };
    RvStatsTestResult r;
    RvStatsSummary sa, sb;
    double va, vb, t, df;

    g_assert_cmpint(rv_result_stats_welch(a, 6, b, 9, &r, NULL), ==, 0);
    g_assert_cmpint(rv_result_stats_summary(a, 6, &sa, NULL), ==, 0);
    g_assert_cmpint(rv_result_stats_summary(b, 9, &sb, NULL), ==, 0);
    va = sa.stddev * sa.stddev / 6;
    vb = sb.stddev * sb.stddev / 9;
    t = (sa.mean - sb.mean) / sqrt(va + vb);
    df = (va + vb) * (va + vb) / (va * va / 5 + vb * vb / 8);
    assert_rel(r.statistic, t, 1e-12);
    assert_rel(r.df, df, 1e-12);
    assert_rel(r.p, 2 * t_tail(fabs(t), df), 1e-5);
    g_assert_cmpfloat(r.p, <, 0.05);

    /* an effect inside the noise: not significant */
    {
        static const double c[] = { 10, 30, 12, 28, 15, 25 };
        static const double d[] = { 11, 31, 13, 29, 16, 26 };
        g_assert_cmpint(rv_result_stats_welch(c, 6, d, 6, &r, NULL), ==, 0);
        assert_rel(r.p, 2 * t_tail(fabs(r.statistic), r.df), 1e-5);
        g_assert_cmpfloat(r.p, >, 0.5);
    }
}

static void
test_welch_edges(void)
{
    static const double same[] = { 5, 5, 5 };
    static const double other[] = { 7, 7, 7 };
    RvStatsTestResult r;
    g_autoptr(GError) err = NULL;

    g_assert_cmpint(rv_result_stats_welch(same, 3, same, 3, &r, NULL), ==, 0);
    g_assert_cmpfloat(r.p, ==, 1);
    g_assert_cmpint(rv_result_stats_welch(same, 3, other, 3, &r, NULL), ==, 0);
    g_assert_cmpfloat(r.p, ==, 0);
    g_assert_true(isinf(r.statistic) && r.statistic < 0);
    g_assert_cmpint(rv_result_stats_welch(same, 1, other, 3, &r, &err), ==, -ENODATA);
    g_assert_error(err, RV_ERROR, RV_ERROR_INVALID);
}

/* 1e100 us in one repetition (a corrupt store): GSL's gamma function gave
 * up and its default handler called abort(); now an error, no abort */
static void
test_welch_absurd(void)
{
    static const double huge[] = { 1e100, 15 };
    static const double small[] = { 11, 12 };
    RvStatsTestResult r = { 0 };
    g_autoptr(GError) err = NULL;
    int rc;

    rc = rv_result_stats_welch(huge, 2, small, 2, &r, &err);
    if (rc == 0) {
        g_assert_true(isfinite(r.p) && r.p >= 0 && r.p <= 1);
    } else {
        g_assert_cmpint(rc, ==, -EDOM);
        g_assert_error(err, RV_ERROR, RV_ERROR_INVALID);
    }
}

/* Exact two-sided p of U by enumerating every split of ranks 1..n. */
static double
mw_brute(guint na, guint nb, double u_obs)
{
    guint n = na + nb;
    guint64 le = 0, ge = 0, total = 0;

    for (guint64 mask = 0; mask < (1ull << n); mask++) {
        double ra = 0;
        if ((guint) __builtin_popcountll(mask) != na)
            continue;
        for (guint i = 0; i < n; i++)
            if (mask & (1ull << i))
                ra += i + 1;
        double u = ra - na * (na + 1) / 2.0;
        total++;
        le += u <= u_obs;
        ge += u >= u_obs;
    }
    return MIN(1.0, 2.0 * MIN((double) le / total, (double) ge / total));
}

static void
test_mann_whitney_exact(void)
{
    static const double a[] = { 19, 22, 16, 29, 24 };
    static const double b[] = { 20, 11, 17, 12 };
    static const double c[] = { 3.1, 7.4, 1.2, 9.9, 5.5, 8.8, 0.4 };
    static const double d[] = { 2.2, 6.6, 4.4, 10.5, 11.7, 12.9, 13.3, 14.1 };
    RvStatsTestResult r;

    /* ranks of a: 3,5,7,8,9 -> R = 32, U = 32 - 15 = 17 (by hand) */
    g_assert_cmpint(rv_result_stats_mann_whitney(a, 5, b, 4, &r, NULL), ==, 0);
    g_assert_cmpfloat(r.statistic, ==, 17);
    g_assert_true(r.exact);
    assert_rel(r.p, mw_brute(5, 4, 17), 1e-12);
    g_assert_cmpstr(rv_result_stats_test_name(r.test), ==, "Mann-Whitney U test");

    g_assert_cmpint(rv_result_stats_mann_whitney(c, 7, d, 8, &r, NULL), ==, 0);
    g_assert_true(r.exact);
    assert_rel(r.p, mw_brute(7, 8, r.statistic), 1e-12);

    /* complete separation of 5 vs 5: p = 2/252 */
    {
        static const double lo[] = { 1, 2, 3, 4, 5 }, hi[] = { 6, 7, 8, 9, 10 };
        g_assert_cmpint(rv_result_stats_mann_whitney(lo, 5, hi, 5, &r, NULL), ==, 0);
        g_assert_cmpfloat(r.statistic, ==, 0);
        assert_rel(r.p, 2.0 / 252, 1e-12);
    }
}

static void
test_mann_whitney_ties(void)
{
    /* ties: normal approximation; compare with the textbook formula worked
     * by hand: a = {1,2,2,3}, b = {2,3,4,5,5}; mid-ranks 1, 3,3,3 (three
     * 2s), 5.5,5.5 (two 3s), 7, 8.5,8.5 -> R_a = 1+3+3+5.5 = 12.5,
     * U = 12.5 - 10 = 2.5; mu = 10, tie term = (27-3)+(8-2)+(8-2) = 36,
     * var = 20/12 * (10 - 36/72) = 15.8333; z = (7.5 - 0.5)/3.9791 = 1.7592 */
    static const double a[] = { 1, 2, 2, 3 };
    static const double b[] = { 2, 3, 4, 5, 5 };
    RvStatsTestResult r;

    g_assert_cmpint(rv_result_stats_mann_whitney(a, 4, b, 5, &r, NULL), ==, 0);
    g_assert_false(r.exact);
    g_assert_cmpfloat(r.statistic, ==, 2.5);
    /* 2 * Q(1.759188) = 0.078548 (erfc(1.759188/sqrt 2)) */
    assert_rel(r.p, erfc(7.0 / sqrt(20.0 / 12 * 9.5) / sqrt(2)), 1e-9);
}

static void
test_change(void)
{
    g_assert_cmpfloat(rv_result_stats_change_pct(10, 15), ==, 50);
    g_assert_cmpfloat(rv_result_stats_change_pct(-10, -5), ==, 50);
    g_assert_true(isnan(rv_result_stats_change_pct(0, 5)));
}

static int
cmp_i64(gconstpointer a, gconstpointer b)
{
    gint64 x = *(const gint64 *) a, y = *(const gint64 *) b;
    return x < y ? -1 : x > y;
}

/* Histogram percentiles against a sorted array of the same samples
 * (second method: the nearest-rank definition applied to raw values). */
static void
test_histogram_percentiles(void)
{
    g_autoptr(RvHistogram) h = rv_result_histogram_new(128);
    g_autoptr(GArray) raw = g_array_new(FALSE, FALSE, sizeof(gint64));
    static const double ps[] = { 0, 1, 25, 50, 90, 99, 99.9, 99.99, 100 };
    guint32 seed = 12345;

    for (int i = 0; i < 100000; i++) {
        gint64 v;
        seed = seed * 1103515245u + 12345u;           /* fixed LCG: reproducible */
        v = (seed >> 16) % 97;
        if (i % 20000 == 0)
            v = 97 + i / 20000;                          /* a few in the tail */
        rv_result_histogram_add(h, v, 1);
        g_array_append_val(raw, v);
    }
    g_array_sort(raw, cmp_i64);
    for (guint k = 0; k < G_N_ELEMENTS(ps); k++) {
        gint64 us;
        gboolean beyond;
        guint64 rank = (guint64) ceil(ps[k] / 100 * raw->len - 1e-9);
        if (rank < 1)
            rank = 1;
        g_assert_cmpint(rv_result_histogram_percentile(h, ps[k], &us, &beyond, NULL), ==, 0);
        g_assert_false(beyond);
        g_assert_cmpint(us, ==, g_array_index(raw, gint64, rank - 1));
    }
    g_assert_cmpuint(rv_result_histogram_total(h), ==, 100000);
    g_assert_cmpint(rv_result_histogram_percentile(h, 100.5, NULL, NULL, NULL), ==, -EINVAL);
}

static void
test_histogram_merge(void)
{
    g_autoptr(RvHistogram) a = rv_result_histogram_new(10);
    g_autoptr(RvHistogram) b = rv_result_histogram_new(50);
    g_autoptr(RvHistogram) e = rv_result_histogram_new(0);
    gint64 us;
    gboolean beyond;

    rv_result_histogram_add(a, 5, 10);
    rv_result_histogram_add(a, 30, 2);    /* beyond 10: overflow */
    a->max_us = 30;
    rv_result_histogram_add(b, 5, 1);
    rv_result_histogram_add(b, 40, 3);
    b->max_us = 40;
    rv_result_histogram_merge(a, b);
    g_assert_cmpuint(a->n_buckets, ==, 50);
    g_assert_cmpuint(rv_result_histogram_get(a, 5), ==, 11);
    g_assert_cmpuint(rv_result_histogram_get(a, 40), ==, 3);
    g_assert_cmpuint(a->overflows, ==, 2);   /* stays an overflow: bucket unknown */
    g_assert_cmpuint(rv_result_histogram_total(a), ==, 16);
    g_assert_cmpint(a->max_us, ==, 40);
    /* rank 16 of 16 is an overflow: bounded by the max */
    g_assert_cmpint(rv_result_histogram_percentile(a, 100, &us, &beyond, NULL), ==, 0);
    g_assert_true(beyond);
    g_assert_cmpint(us, ==, 40);
    g_assert_cmpint(rv_result_histogram_percentile(a, 50, &us, &beyond, NULL), ==, 0);
    g_assert_false(beyond);
    g_assert_cmpint(us, ==, 5);
    g_assert_cmpint(rv_result_histogram_percentile(e, 50, &us, NULL, NULL), ==, -ENODATA);
    g_assert_true(isnan(rv_result_histogram_mean(e)));
}

int
main(int argc, char **argv)
{
    g_test_init(&argc, &argv, NULL);
    g_test_add_func("/stats/summary", test_summary);
    g_test_add_func("/stats/welch/published", test_welch_published);
    g_test_add_func("/stats/welch/second-method", test_welch_second_method);
    g_test_add_func("/stats/welch/absurd", test_welch_absurd);
    g_test_add_func("/stats/welch/edges", test_welch_edges);
    g_test_add_func("/stats/mann-whitney/exact", test_mann_whitney_exact);
    g_test_add_func("/stats/mann-whitney/ties", test_mann_whitney_ties);
    g_test_add_func("/stats/change", test_change);
    g_test_add_func("/histogram/percentiles", test_histogram_percentiles);
    g_test_add_func("/histogram/merge", test_histogram_merge);
    return g_test_run();
}
