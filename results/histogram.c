/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * results/histogram.c: 1-us latency histograms (see histogram.h).
 */
#include <errno.h>
#include <math.h>
#include <string.h>

#include "results/histogram.h"
#include "util/error.h"

RvHistogram *
rv_result_histogram_new(guint n_buckets)
{
    RvHistogram *h = g_new0(RvHistogram, 1);

    h->n_buckets = n_buckets;
    h->buckets = g_new0(guint64, MAX(n_buckets, 1));
    h->max_us = -1;
    return h;
}

void
rv_result_histogram_free(RvHistogram *h)
{
    if (!h)
        return;
    g_free(h->buckets);
    g_free(h);
}

RvHistogram *
rv_result_histogram_copy(const RvHistogram *h)
{
    RvHistogram *c = rv_result_histogram_new(h->n_buckets);

    memcpy(c->buckets, h->buckets, sizeof(guint64) * h->n_buckets);
    c->overflows = h->overflows;
    c->max_us = h->max_us;
    return c;
}

/* counts saturate at G_MAXUINT64 instead of wrapping to a small number:
 * a hostile count stays visibly absurd, and the store's rules
 * (results/store.h, RV_STORE_COUNT_MAX) refuse it */
static inline void
add_sat(guint64 *into, guint64 n)
{
    if (!g_uint64_checked_add(into, *into, n))
        *into = G_MAXUINT64;
}

void
rv_result_histogram_add(RvHistogram *h, guint64 us, guint64 count)
{
    if (us < h->n_buckets)
        add_sat(&h->buckets[us], count);
    else
        add_sat(&h->overflows, count);
}

void
rv_result_histogram_grow(RvHistogram *h, guint n_buckets)
{
    if (n_buckets <= h->n_buckets)
        return;
    h->buckets = g_renew(guint64, h->buckets, n_buckets);
    memset(h->buckets + h->n_buckets, 0,
           sizeof(guint64) * (n_buckets - h->n_buckets));
    h->n_buckets = n_buckets;
}

void
rv_result_histogram_merge(RvHistogram *into, const RvHistogram *from)
{
    /* Overflows of @into were beyond its old range; they stay overflows
     * even though the range grows: their bucket is unknown.  That keeps
     * every count, at the price of percentiles landing "beyond" a little
     * more often than with equal ranges. */
    rv_result_histogram_grow(into, from->n_buckets);
    for (guint i = 0; i < from->n_buckets; i++)
        add_sat(&into->buckets[i], from->buckets[i]);
    add_sat(&into->overflows, from->overflows);
    if (from->max_us > into->max_us)
        into->max_us = from->max_us;
}

guint64
rv_result_histogram_total(const RvHistogram *h)
{
    guint64 t = h->overflows;

    for (guint i = 0; i < h->n_buckets; i++)
        add_sat(&t, h->buckets[i]);
    return t;
}

int
rv_result_histogram_percentile(const RvHistogram *h, double p,
                               gint64 *ret_us, gboolean *ret_beyond,
                               GError **error)
{
    guint64 total = rv_result_histogram_total(h);
    guint64 rank, cum = 0;

    if (!(p >= 0.0 && p <= 100.0))
        return rv_error_set(error, RV_ERROR_INVALID, EINVAL,
                            "Percentile %g is outside [0, 100]", p);
    if (total == 0)
        return rv_error_set(error, RV_ERROR_INVALID, ENODATA,
                            "Cannot take percentile %g of an empty histogram", p);

    /* Nearest rank: the ceil(p/100 * N)-th smallest sample, at least the
     * first.  Computed in long double so that p99.99 of 10^9 samples does
     * not round to the neighbour rank. */
    {
        /* p arrives as a binary double (99.9 is 99.900000000000006), so an
         * exact integer product can come out a hair above it; snap to the
         * integer when within rounding error before taking the ceiling. */
        long double x = (long double) p / 100.0L * (long double) total;
        long double r = roundl(x);
        rank = (guint64) (fabsl(x - r) <= 1e-9L * (x > 1 ? x : 1) ? r : ceill(x));
    }
    if (rank < 1)
        rank = 1;

    for (guint i = 0; i < h->n_buckets; i++) {
        cum += h->buckets[i];
        if (cum >= rank) {
            *ret_us = i;
            if (ret_beyond)
                *ret_beyond = FALSE;
            return 0;
        }
    }
    *ret_us = h->max_us >= 0 ? h->max_us : (gint64) h->n_buckets;
    if (ret_beyond)
        *ret_beyond = TRUE;
    return 0;
}

double
rv_result_histogram_mean(const RvHistogram *h)
{
    long double sum = 0;
    guint64 n = 0;

    for (guint i = 0; i < h->n_buckets; i++) {
        sum += (long double) i * h->buckets[i];
        n += h->buckets[i];
    }
    return n ? (double) (sum / n) : NAN;
}
