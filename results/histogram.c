/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * results/histogram.c: 1-us latency histograms, sparse (see histogram.h).
 */
#include <errno.h>
#include <math.h>
#include <string.h>

#include "results/histogram.h"
#include "util/error.h"

#define BIN(h, i) g_array_index((h)->bins, RvHistogramBin, (i))

RvHistogram *
rv_result_histogram_new(guint n_buckets)
{
    RvHistogram *h = g_new0(RvHistogram, 1);

    h->n_buckets = n_buckets;
    h->bins = g_array_new(FALSE, FALSE, sizeof(RvHistogramBin));
    h->max_us = -1;
    return h;
}

void
rv_result_histogram_free(RvHistogram *h)
{
    if (!h)
        return;
    g_array_unref(h->bins);
    g_free(h);
}

RvHistogram *
rv_result_histogram_copy(const RvHistogram *h)
{
    RvHistogram *c = rv_result_histogram_new(h->n_buckets);

    g_array_append_vals(c->bins, h->bins->data, h->bins->len);
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

/* index of the first bin with us >= @us (bins->len when none) */
static guint
lower_bound(const RvHistogram *h, guint64 us)
{
    guint lo = 0, hi = h->bins->len;

    while (lo < hi) {
        guint mid = lo + (hi - lo) / 2;
        if (BIN(h, mid).us < us)
            lo = mid + 1;
        else
            hi = mid;
    }
    return lo;
}

void
rv_result_histogram_add(RvHistogram *h, guint64 us, guint64 count)
{
    guint i;

    if (!count)
        return;
    if (us >= h->n_buckets) {
        add_sat(&h->overflows, count);
        return;
    }
    i = h->bins->len && BIN(h, h->bins->len - 1).us < us ? h->bins->len
        : lower_bound(h, us);
    if (i < h->bins->len && BIN(h, i).us == us) {
        add_sat(&BIN(h, i).count, count);
    } else {
        RvHistogramBin b = { .us = (guint) us, .count = count };
        g_array_insert_val(h->bins, i, b);
    }
}

static int
bin_cmp(gconstpointer a, gconstpointer b)
{
    guint x = ((const RvHistogramBin *) a)->us, y = ((const RvHistogramBin *) b)->us;

    return x < y ? -1 : x > y;
}

/* Merges the sorted bins @b (n of them, repeats allowed) into @h's in one
 * linear pass. */
static void
merge_sorted(RvHistogram *h, const RvHistogramBin *b, guint n)
{
    GArray *out = g_array_sized_new(FALSE, FALSE, sizeof(RvHistogramBin), h->bins->len + n);
    guint i = 0, j = 0;

    while (i < h->bins->len || j < n) {
        RvHistogramBin next;

        if (j >= n || (i < h->bins->len && BIN(h, i).us <= b[j].us))
            next = BIN(h, i++);
        else
            next = b[j++];
        if (!next.count)
            continue;
        if (out->len && g_array_index(out, RvHistogramBin, out->len - 1).us == next.us)
            add_sat(&g_array_index(out, RvHistogramBin, out->len - 1).count, next.count);
        else
            g_array_append_val(out, next);
    }
    g_array_unref(h->bins);
    h->bins = out;
}

void
rv_result_histogram_add_bins(RvHistogram *h, const RvHistogramBin *bins, guint n)
{
    g_autoptr(GArray) in = g_array_sized_new(FALSE, FALSE, sizeof(RvHistogramBin), n);

    for (guint i = 0; i < n; i++) {
        if (!bins[i].count)
            continue;
        if (bins[i].us >= h->n_buckets)
            add_sat(&h->overflows, bins[i].count);
        else
            g_array_append_val(in, bins[i]);
    }
    g_array_sort(in, bin_cmp);
    merge_sorted(h, (const RvHistogramBin *) (gpointer) in->data, in->len);
}

guint64
rv_result_histogram_get(const RvHistogram *h, guint64 us)
{
    guint i = lower_bound(h, us);

    return i < h->bins->len && BIN(h, i).us == us ? BIN(h, i).count : 0;
}

gint64
rv_result_histogram_last(const RvHistogram *h)
{
    return h->bins->len ? (gint64) BIN(h, h->bins->len - 1).us : -1;
}

void
rv_result_histogram_grow(RvHistogram *h, guint n_buckets)
{
    if (n_buckets > h->n_buckets)
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
    merge_sorted(into, (const RvHistogramBin *) (gpointer) from->bins->data, from->bins->len);
    add_sat(&into->overflows, from->overflows);
    if (from->max_us > into->max_us)
        into->max_us = from->max_us;
}

guint64
rv_result_histogram_total(const RvHistogram *h)
{
    guint64 t = h->overflows;

    for (guint i = 0; i < h->bins->len; i++)
        add_sat(&t, BIN(h, i).count);
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

    for (guint i = 0; i < h->bins->len; i++) {
        add_sat(&cum, BIN(h, i).count);
        if (cum >= rank) {
            *ret_us = BIN(h, i).us;
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

    for (guint i = 0; i < h->bins->len; i++) {
        sum += (long double) BIN(h, i).us * BIN(h, i).count;
        n += BIN(h, i).count;
    }
    return n ? (double) (sum / n) : NAN;
}
