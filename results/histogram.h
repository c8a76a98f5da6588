/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * results/histogram.h: latency histograms with 1 us buckets, as cyclictest
 * keeps them (rt-tests src/cyclictest/cyclictest.c: hist_array[diff]++ for
 * diff < histogram, else hist_overflow++).
 *
 * Sparse: only the buckets that hold samples are kept, as (us, count) bins
 * in ascending us.  Memory grows with the number of distinct latencies
 * seen, never with the declared range nor with the number of samples: a
 * store from another host may declare 2^24 buckets with one count in
 * them, and reading it must cost what its text costs, not 128 MiB.
 */
#pragma once

#include <glib.h>

typedef struct {
    guint us;             /* bucket: latency in [us, us+1) us */
    guint64 count;        /* samples in it, > 0 */
} RvHistogramBin;

typedef struct {
    GArray *bins;         /* RvHistogramBin, ascending us, count > 0, us < n_buckets */
    guint n_buckets;      /* histogram range in us (cyclictest -h N: N) */
    guint64 overflows;    /* samples >= n_buckets us (beyond the histogram) */
    gint64 max_us;        /* largest sample in us when known (also beyond the
                           * range, from "# Max Latencies"), else -1 */
} RvHistogram;

/* The i-th non-empty bin of @h (0 <= i < rv_result_histogram_n_bins(h)). */
#define rv_result_histogram_bin(h, i) (&g_array_index((h)->bins, RvHistogramBin, (i)))
#define rv_result_histogram_n_bins(h) ((h)->bins->len)

/**
 * rv_result_histogram_new:
 * @n_buckets: range in us; buckets 0 .. @n_buckets-1, may be 0
 *
 * Allocates nothing per bucket: the range is a number.
 *
 * Returns: (transfer full): an empty histogram, max_us = -1.
 */
RvHistogram *rv_result_histogram_new(guint n_buckets);
void rv_result_histogram_free(RvHistogram *h);
G_DEFINE_AUTOPTR_CLEANUP_FUNC(RvHistogram, rv_result_histogram_free)

/** rv_result_histogram_copy: Returns: (transfer full): a deep copy of @h. */
RvHistogram *rv_result_histogram_copy(const RvHistogram *h);

/**
 * rv_result_histogram_add:
 * @h: histogram
 * @us: bucket (latency in us); >= n_buckets counts as an overflow
 * @count: samples to add (0 adds nothing)
 *
 * O(1) when @us is at or above the highest bin (parsers that walk a
 * histogram in order), O(log n) for an existing bin, O(n) to insert a
 * new bin below the top: a caller adding many bins in no order (a store's
 * counts, a JSON object's members) uses rv_result_histogram_add_bins().
 */
void rv_result_histogram_add(RvHistogram *h, guint64 us, guint64 count);

/**
 * rv_result_histogram_add_bins:
 * @h: histogram
 * @bins: (us, count) pairs in any order, repeats allowed (their counts
 *        add); a us >= n_buckets counts as an overflow
 * @n: number of pairs
 *
 * Sorts a copy and merges it in: O((n + bins) log n) whatever the order.
 */
void rv_result_histogram_add_bins(RvHistogram *h, const RvHistogramBin *bins, guint n);

/**
 * rv_result_histogram_get:
 * Returns: the samples in bucket @us (0 for an empty or out-of-range one).
 */
guint64 rv_result_histogram_get(const RvHistogram *h, guint64 us);

/**
 * rv_result_histogram_last:
 * Returns: the highest bucket that holds a sample, or -1 when none does.
 */
gint64 rv_result_histogram_last(const RvHistogram *h);

/**
 * rv_result_histogram_merge:
 * @into: histogram that receives the counts; grows to @from's range
 * @from: histogram to add
 *
 * Adds bucket by bucket.  Overflows of a shorter histogram stay overflows
 * (we do not know which bucket they belong in), so merging histograms of
 * different ranges keeps every count exactly once; max_us is the larger.
 * Linear in the bins of both.
 */
void rv_result_histogram_merge(RvHistogram *into, const RvHistogram *from);

/**
 * rv_result_histogram_grow:
 * @n_buckets: new range in us; a smaller value does nothing
 *
 * Extends the range with empty buckets (existing overflows stay overflows).
 */
void rv_result_histogram_grow(RvHistogram *h, guint n_buckets);

/** rv_result_histogram_total: Returns: samples in buckets plus overflows
 *  (as every count here, saturating at G_MAXUINT64 rather than wrapping). */
guint64 rv_result_histogram_total(const RvHistogram *h);

/**
 * rv_result_histogram_percentile:
 * @h: histogram
 * @p: percentile in [0, 100], e.g. 99.99
 * @ret_us: (out): the p-th percentile in us: the lowest bucket i such that
 *          at least ceil(p/100 * total) samples are <= i (nearest-rank
 *          definition, NIST/Hyndman-Fan type 1) -- so p99 of a histogram
 *          is a latency that really occurred at 1 us resolution
 * @ret_beyond: (out) (optional): TRUE when the rank falls among the
 *          overflows; *ret_us is then max_us when known (an upper bound
 *          that is exact for p100), else n_buckets (a lower bound)
 *
 * Returns: 0, or -ENODATA (GError RV_ERROR_INVALID) for an empty histogram,
 * -EINVAL for @p outside [0, 100].
 */
int rv_result_histogram_percentile(const RvHistogram *h, double p,
                                   gint64 *ret_us, gboolean *ret_beyond,
                                   GError **error) G_GNUC_WARN_UNUSED_RESULT;

/**
 * rv_result_histogram_mean:
 * Returns: the mean in us of the in-range samples (bucket i counted as i,
 * as cyclictest's integer us values are), NAN when there are none.
 */
double rv_result_histogram_mean(const RvHistogram *h);
