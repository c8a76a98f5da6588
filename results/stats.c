/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * results/stats.c: summaries, Welch's t-test and the Mann-Whitney U test.
 */
#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include <gsl/gsl_cdf.h>
#include <gsl/gsl_errno.h>

#include "results/stats.h"
#include "util/error.h"

/* GSL's default error handler prints and calls abort() (e.g. "gamma.c:
 * x too large to extract fraction part" for absurd inputs): a library must
 * not kill its caller.  Off once, before the first GSL call; results are
 * then checked (a non-finite p is an error). */
static void
gsl_quiet(void)
{
    static gsize once = 0;

    if (g_once_init_enter(&once)) {
        gsl_set_error_handler_off();
        g_once_init_leave(&once, 1);
    }
}

int
rv_result_stats_summary(const double *x, guint n, RvStatsSummary *ret,
                        GError **error)
{
    RvStatsSummary s = { .n = n };
    double mean = 0, m2 = 0;

    if (n == 0)
        return rv_error_set(error, RV_ERROR_INVALID, ENODATA, "No values to summarise");
    s.min = s.max = x[0];
    for (guint i = 0; i < n; i++) {
        double d;
        if (!isfinite(x[i]))
            return rv_error_set(error, RV_ERROR_INVALID, EINVAL,
                                "Value %u is not a finite number", i);
        d = x[i] - mean;
        mean += d / (i + 1);
        m2 += d * (x[i] - mean);
        s.min = MIN(s.min, x[i]);
        s.max = MAX(s.max, x[i]);
    }
    s.mean = mean;
    s.stddev = n > 1 ? sqrt(m2 / (n - 1)) : NAN;
    s.sem = n > 1 ? s.stddev / sqrt(n) : NAN;
    *ret = s;
    return 0;
}

const char *
rv_result_stats_test_name(RvStatsTest test)
{
    return test == RV_STATS_WELCH ? "Welch's t-test" : "Mann-Whitney U test";
}

int
rv_result_stats_welch(const double *a, guint na, const double *b, guint nb,
                      RvStatsTestResult *ret, GError **error)
{
    RvStatsSummary sa, sb;
    RvStatsTestResult r = { .test = RV_STATS_WELCH };
    double va, vb, se2;
    int e;

    if (na < 2 || nb < 2)
        return rv_error_set(error, RV_ERROR_INVALID, ENODATA,
                            "Welch's t-test needs at least 2 values per sample "
                            "(have %u and %u)", na, nb);
    if ((e = rv_result_stats_summary(a, na, &sa, error)) < 0 ||
        (e = rv_result_stats_summary(b, nb, &sb, error)) < 0)
        return e;
    va = sa.stddev * sa.stddev / na;
    vb = sb.stddev * sb.stddev / nb;
    se2 = va + vb;
    if (se2 == 0) {
        r.statistic = sa.mean == sb.mean ? 0 : copysign(INFINITY, sa.mean - sb.mean);
        r.df = na + nb - 2;
        r.p = sa.mean == sb.mean ? 1 : 0;
    } else {
        r.statistic = (sa.mean - sb.mean) / sqrt(se2);
        r.df = se2 * se2 / (va * va / (na - 1) + vb * vb / (nb - 1));
        gsl_quiet();
        r.p = 2 * gsl_cdf_tdist_Q(fabs(r.statistic), r.df);
        if (!isfinite(r.statistic) || !isfinite(r.df) || !isfinite(r.p))
            return rv_error_set(error, RV_ERROR_INVALID, EDOM,
                                "Welch's t-test has no result for these values "
                                "(t = %g, df = %g): values too large or too spread", r.statistic, r.df);
        r.p = MIN(r.p, 1.0);
    }
    r.exact = FALSE;
    *ret = r;
    return 0;
}

typedef struct {
    double v;
    int group;   /* 0 = a, 1 = b */
} Obs;

static int
cmp_obs(const void *x, const void *y)
{
    double a = ((const Obs *) x)->v, b = ((const Obs *) y)->v;
    return a < b ? -1 : a > b;
}

/* Number of arrangements with U = u for sizes m, n: f(m,n,u) =
 * f(m-1,n,u-n) + f(m,n-1,u); returns the CDF P(U <= u) and P(U >= u). */
static void
u_exact(guint m, guint n, double u, double *ret_le, double *ret_ge)
{
    guint umax = m * n;
    /* f[i][j][*] computed row by row over i (a values) with j (b values) */
    g_autofree double *prev = g_new0(double, (gsize) (n + 1) * (umax + 1));
    g_autofree double *cur = g_new0(double, (gsize) (n + 1) * (umax + 1));
    double total = 0, le = 0, ge = 0;

#define F(arr, j, k) (arr)[(gsize) (j) * (umax + 1) + (k)]
    /* i = 0: U is always 0 */
    for (guint j = 0; j <= n; j++)
        F(prev, j, 0) = 1;
    for (guint i = 1; i <= m; i++) {
        memset(cur, 0, sizeof(double) * (n + 1) * (umax + 1));
        F(cur, 0, 0) = 1;
        for (guint j = 1; j <= n; j++)
            for (guint k = 0; k <= i * j; k++) {
                /* the largest value is from a (adds j to U) or from b */
                double v = F(cur, j - 1, k);
                if (k >= j)
                    v += F(prev, j, k - j);
                F(cur, j, k) = v;
            }
        double *t = prev;
        prev = cur;
        cur = t;
    }
    for (guint k = 0; k <= umax; k++) {
        double c = F(prev, n, k);
        total += c;
        if (k <= u + 1e-9)
            le += c;
        if (k >= u - 1e-9)
            ge += c;
    }
#undef F
    *ret_le = le / total;
    *ret_ge = ge / total;
}

int
rv_result_stats_mann_whitney(const double *a, guint na, const double *b, guint nb,
                             RvStatsTestResult *ret, GError **error)
{
    RvStatsTestResult r = { .test = RV_STATS_MANN_WHITNEY, .df = NAN };
    guint n = na + nb;
    g_autofree Obs *obs = NULL;
    double ra = 0, tie_sum = 0;
    gboolean ties = FALSE;

    if (na == 0 || nb == 0)
        return rv_error_set(error, RV_ERROR_INVALID, ENODATA,
                            "Mann-Whitney U test needs values in both samples "
                            "(have %u and %u)", na, nb);
    obs = g_new(Obs, n);
    for (guint i = 0; i < na; i++)
        obs[i] = (Obs) { a[i], 0 };
    for (guint i = 0; i < nb; i++)
        obs[na + i] = (Obs) { b[i], 1 };
    for (guint i = 0; i < n; i++)
        if (!isfinite(obs[i].v))
            return rv_error_set(error, RV_ERROR_INVALID, EINVAL,
                                "Value %u is not a finite number", i);
    qsort(obs, n, sizeof(Obs), cmp_obs);
    for (guint i = 0; i < n; ) {
        guint j = i;
        double rank;
        while (j + 1 < n && obs[j + 1].v == obs[i].v)
            j++;
        rank = (i + j) / 2.0 + 1;      /* mid-rank of ranks i+1 .. j+1 */
        if (j > i) {
            double t = j - i + 1;
            ties = TRUE;
            tie_sum += t * t * t - t;
        }
        for (guint k = i; k <= j; k++)
            if (obs[k].group == 0)
                ra += rank;
        i = j + 1;
    }
    r.statistic = ra - na * (na + 1) / 2.0;

    if (!ties && na <= 50 && nb <= 50) {
        double le, ge;
        u_exact(na, nb, r.statistic, &le, &ge);
        r.p = MIN(1.0, 2 * MIN(le, ge));
        r.exact = TRUE;
    } else {
        double mu = na * (double) nb / 2;
        double var = na * (double) nb / 12 * ((n + 1) - tie_sum / ((double) n * (n - 1)));
        double d = fabs(r.statistic - mu) - 0.5;
        if (var <= 0) {
            r.p = 1;
        } else {
            double z = MAX(d, 0) / sqrt(var);
            gsl_quiet();
            r.p = 2 * gsl_cdf_ugaussian_Q(z);
            if (!isfinite(r.p))
                return rv_error_set(error, RV_ERROR_INVALID, EDOM,
                                    "Mann-Whitney U test has no result (z = %g)", z);
            r.p = MIN(1.0, r.p);
        }
        r.exact = FALSE;
    }
    *ret = r;
    return 0;
}

double
rv_result_stats_change_pct(double base, double x)
{
    if (!isfinite(base) || !isfinite(x) || base == 0)
        return NAN;
    return 100.0 * (x - base) / fabs(base);
}

double
rv_result_stats_min_p(RvStatsTest test, guint na, guint nb)
{
    double log_c;

    if (test == RV_STATS_WELCH)
        return na >= 2 && nb >= 2 ? 0 : 1;
    if (na == 0 || nb == 0)
        return 1;
    /* log C(na + nb, na) through lgamma: exact enough, never overflows */
    log_c = lgamma(na + nb + 1.0) - lgamma(na + 1.0) - lgamma(nb + 1.0);
    return MIN(1.0, 2 * exp(-log_c));
}

guint
rv_result_stats_min_n(RvStatsTest test, double alpha)
{
    for (guint n = 1; n < 1000; n++)
        if (rv_result_stats_min_p(test, n, n) < alpha)
            return n;
    return 1000;
}
