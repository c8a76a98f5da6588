/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * tpcc/hist.c: latency accounting in log-linear buckets (the layout of
 * HdrHistogram with 64 sub-buckets per power of two) and nearest-rank
 * percentiles.
 */
#include <math.h>

#include "tpcc/tpcc.h"

#define SUB RV_TPCC_HIST_SUB
#define SUB_BITS 6              /* log2(SUB) */
#define MAX_US ((UINT64_C(1) << 40) - 1)

size_t
rv_tpcc_hist_bucket(uint64_t us)
{
    if (us > MAX_US)
        us = MAX_US;
    if (us < 2 * SUB)
        return (size_t)us;
    int shift = (63 - __builtin_clzll(us)) - SUB_BITS;  /* us >> shift in [64, 127] */
    return (size_t)(shift + 1) * SUB + (size_t)((us >> shift) - SUB);
}

uint64_t
rv_tpcc_hist_bucket_high(size_t i)
{
    if (i < 2 * SUB)
        return i;
    int shift = (int)(i / SUB) - 1;
    uint64_t m = i % SUB + SUB;
    return ((m + 1) << shift) - 1;
}

void
rv_tpcc_hist_add(RvTpccHist *h, uint64_t us)
{
    h->buckets[rv_tpcc_hist_bucket(us)]++;
    h->count++;
    h->sum_us += us;
    if (us > h->max_us)
        h->max_us = us;
}

void
rv_tpcc_hist_merge(RvTpccHist *dst, const RvTpccHist *src)
{
    for (size_t i = 0; i < RV_TPCC_HIST_BUCKETS; i++)
        dst->buckets[i] += src->buckets[i];
    dst->count += src->count;
    dst->sum_us += src->sum_us;
    dst->max_us = MAX(dst->max_us, src->max_us);
}

uint64_t
rv_tpcc_hist_percentile(const RvTpccHist *h, double p)
{
    if (h->count == 0)
        return 0;
    uint64_t rank = (uint64_t)ceil(p / 100.0 * (double)h->count);
    rank = CLAMP(rank, 1, h->count);
    uint64_t seen = 0;
    for (size_t i = 0; i < RV_TPCC_HIST_BUCKETS; i++) {
        seen += h->buckets[i];
        if (seen >= rank)
            return MIN(rv_tpcc_hist_bucket_high(i), h->max_us);
    }
    return h->max_us;
}
