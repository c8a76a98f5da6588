/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * results/stats.h: summary statistics and two-sample tests for comparing
 * scenarios, one value per repetition (e.g. cyclictest max_us of each
 * repetition).  Tests use GSL's distribution functions (gsl_cdf_tdist_Q,
 * gsl_cdf_ugaussian_Q).
 */
#pragma once

#include <glib.h>

typedef struct {
    guint n;
    double mean;
    double stddev;   /* sample standard deviation (n-1 denominator); NAN for n < 2 */
    double sem;      /* standard error of the mean, stddev / sqrt(n); NAN for n < 2 */
    double min;
    double max;
} RvStatsSummary;

/**
 * rv_result_stats_summary:
 * @x: values (non-finite values are an error)
 * @n: number of values, >= 1
 * @ret: (out): the summary (Welford's algorithm: stable for large offsets)
 *
 * Returns: 0, -ENODATA for n = 0, -EINVAL for a NaN/inf value.
 */
int rv_result_stats_summary(const double *x, guint n, RvStatsSummary *ret,
                            GError **error) G_GNUC_WARN_UNUSED_RESULT;

typedef enum {
    RV_STATS_WELCH,          /* Welch's unequal-variance t-test */
    RV_STATS_MANN_WHITNEY,   /* Mann-Whitney U (Wilcoxon rank-sum) */
} RvStatsTest;

typedef struct {
    RvStatsTest test;
    double statistic;        /* Welch: t (a - b); Mann-Whitney: U of sample a */
    double df;               /* Welch-Satterthwaite degrees of freedom; NAN for U */
    double p;                /* two-sided p-value */
    gboolean exact;          /* U: exact permutation distribution (no ties,
                              * na, nb <= 50); FALSE: normal approximation with
                              * tie and continuity correction */
} RvStatsTestResult;

/** rv_result_stats_test_name: "Welch's t-test" / "Mann-Whitney U test". */
const char *rv_result_stats_test_name(RvStatsTest test);

/**
 * rv_result_stats_welch:
 * @a, @na, @b, @nb: two samples, each with at least 2 values
 *
 * t = (mean_a - mean_b) / sqrt(s_a^2/n_a + s_b^2/n_b), df by
 * Welch-Satterthwaite, p = 2 * gsl_cdf_tdist_Q(|t|, df).  When both
 * samples have zero variance, p is 1 for equal means and 0 otherwise.
 * (Welch 1947, Biometrika 34:28-35.)
 *
 * GSL's abort-on-error handler is switched off (gsl_set_error_handler_off)
 * before the first GSL call.
 *
 * Returns: 0, or -ENODATA when a sample has fewer than 2 values, -EDOM
 * (RV_ERROR_INVALID) when t, df or p is not finite (absurd values such as
 * 1e100).
 */
int rv_result_stats_welch(const double *a, guint na, const double *b, guint nb,
                          RvStatsTestResult *ret, GError **error)
    G_GNUC_WARN_UNUSED_RESULT;

/**
 * rv_result_stats_mann_whitney:
 * @a, @na, @b, @nb: two samples, each with at least 1 value
 *
 * U_a = R_a - n_a(n_a+1)/2 with mid-ranks for ties.  Exact two-sided p from
 * the permutation distribution of U when there are no ties and both
 * samples have at most 50 values, else the normal approximation with tie
 * correction and continuity correction (Mann & Whitney 1947; Lehmann,
 * Nonparametrics, 1975, ch. 1).
 *
 * Returns: 0, or -ENODATA for an empty sample.
 */
int rv_result_stats_mann_whitney(const double *a, guint na, const double *b,
                                 guint nb, RvStatsTestResult *ret, GError **error)
    G_GNUC_WARN_UNUSED_RESULT;

/**
 * rv_result_stats_change_pct:
 * Returns: 100 * (x - base) / |base|, NAN when base is 0 or not finite.
 */
double rv_result_stats_change_pct(double base, double x);

/**
 * rv_result_stats_min_p:
 * @test: the test
 * @na, @nb: sample sizes
 *
 * The smallest two-sided p-value @test can give at these sizes.
 * Mann-Whitney U (exact, no ties): 2 / C(na + nb, na), the probability of
 * the most extreme arrangement on either side (2 + 2 values: 2/6 = 0.333,
 * so no difference can ever be significant).  Welch's t-test: 0 when both
 * samples have at least 2 values (t is unbounded), else 1 (no test).
 *
 * Returns: the smallest p in [0, 1].
 */
double rv_result_stats_min_p(RvStatsTest test, guint na, guint nb);

/**
 * rv_result_stats_min_n:
 * @test: the test
 * @alpha: significance level, e.g. 0.05
 *
 * Returns: the smallest n such that two samples of n values each can give
 * p < @alpha (rv_result_stats_min_p()): Welch 2, Mann-Whitney 4 at 0.05.
 */
guint rv_result_stats_min_n(RvStatsTest test, double alpha);
