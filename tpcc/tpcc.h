/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * tpcc/tpcc.h: the pure parts of rtvirt-tpcc, a TPC-C-style OLTP driver:
 * the scale, the random generator and the spec's random rules (clause 2.1.6
 * NURand, clause 4.3.2 strings, last names, the ORIGINAL rule), the
 * transaction mix (clause 5.2.3/5.2.4.2) and the latency histogram.
 *
 * None of this talks to a database; tests/test-tpcc.c links these files
 * (tpcc/rand.c, tpcc/mix.c, tpcc/hist.c) alone.
 *
 * Clause numbers are those of TPC Benchmark C, Standard Specification,
 * Revision 5.11 (February 2010).
 */
#pragma once

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include <glib.h>

/* -------------------------------------------------------------- scale */

/**
 * RvTpccScale:
 * @name: "standard" or "small"
 * @standard: whether the cardinalities are those of clause 1.2/4.3.3.1
 * @items: rows in ITEM and in STOCK per warehouse (spec: 100000)
 * @customers: customers and orders per district (spec: 3000)
 * @new_orders: undelivered orders per district after load (spec: 900)
 * @last_names: C_LAST numbers 0..@last_names-1 (spec: 1000)
 *
 * The orders with O_ID < @customers - @new_orders + 1 (spec: 2101) are
 * delivered at load.  "small" is for CI and is NOT a TPC-C database.
 */
typedef struct {
    const char *name;
    bool standard;
    int items;
    int customers;
    int new_orders;
    int last_names;
} RvTpccScale;

#define RV_TPCC_DISTRICTS 10    /* districts per warehouse, clause 1.2 */

/**
 * rv_tpcc_scale_lookup: the scale called @name ("standard" or "small"),
 * or NULL when there is none of that name.
 */
const RvTpccScale *rv_tpcc_scale_lookup(const char *name);

/* ------------------------------------------------------------- random */

/**
 * RvTpccRand: a xoshiro256** generator; one per thread, never shared.
 */
typedef struct {
    uint64_t s[4];
} RvTpccRand;

/**
 * RvTpccNurandC: the run-time constants C of clause 2.1.6 for the three
 * NURand uses: A = 255 (C_LAST), A = 1023 (C_ID), A = 8191 (OL_I_ID).
 */
typedef struct {
    int c_last;
    int c_id;
    int ol_i_id;
} RvTpccNurandC;

/** rv_tpcc_rand_seed: seed @r from @seed (any value, 0 included). */
void rv_tpcc_rand_seed(RvTpccRand *r, uint64_t seed);
/** rv_tpcc_rand_u64: the next 64 random bits of @r. */
uint64_t rv_tpcc_rand_u64(RvTpccRand *r);
/**
 * rv_tpcc_rand_int: a uniform integer in [@lo, @hi] (both included,
 * @lo <= @hi), the spec's random(x, y) of clause 2.1.4.
 */
int64_t rv_tpcc_rand_int(RvTpccRand *r, int64_t lo, int64_t hi);
/**
 * rv_tpcc_nurand: NURand(A, x, y) = (((random(0, A) | random(x, y)) + C)
 * % (y - x + 1)) + x, clause 2.1.6, with @c the constant for this @a.
 * Returns a value in [@x, @y].
 */
int64_t rv_tpcc_nurand(RvTpccRand *r, int a, int c, int64_t x, int64_t y);
/**
 * rv_tpcc_nurand_c_load: pick the load-time constants: each C uniform in
 * [0, A] (clause 2.1.6).
 */
void rv_tpcc_nurand_c_load(RvTpccRand *r, RvTpccNurandC *ret_c);
/**
 * rv_tpcc_nurand_c_run: the run-time constants for a database loaded with
 * @load: C_ID and OL_I_ID may stay; C_LAST is picked anew in [0, 255] such
 * that |C_run - C_load| is in [65, 119] and neither 96 nor 112 (clause
 * 2.1.6.1).
 */
void rv_tpcc_nurand_c_run(RvTpccRand *r, const RvTpccNurandC *load, RvTpccNurandC *ret_c);
/** rv_tpcc_c_delta_ok: whether C_LAST constants @load and @run obey clause 2.1.6.1. */
bool rv_tpcc_c_delta_ok(int load, int run);

/* ------------------------------------------------------ data (clause 4.3) */

#define RV_TPCC_LAST_MAX 16     /* C_LAST is varchar(16); 3 syllables <= 15 */

/**
 * rv_tpcc_last_name: the customer last name for @num in [0, 999] (clause
 * 4.3.2.3: the syllables BAR OUGHT ABLE PRI PRES ESE ANTI CALLY ATION EING
 * indexed by the three digits), written to @buf (>= RV_TPCC_LAST_MAX bytes).
 * 371 -> "PRICALLYOUGHT", 40 -> "BARPRESBAR".  Returns @buf.
 */
char *rv_tpcc_last_name(int num, char *buf);
/**
 * rv_tpcc_astring: a random a-string (clause 4.3.2.2) of random length in
 * [@lo, @hi] written to @buf (>= @hi + 1 bytes), NUL-terminated; letters
 * and digits only, so it never needs SQL quoting.  Returns its length.
 */
int rv_tpcc_astring(RvTpccRand *r, int lo, int hi, char *buf);
/** rv_tpcc_nstring: a random n-string (digits) of length in [@lo, @hi]; as rv_tpcc_astring(). */
int rv_tpcc_nstring(RvTpccRand *r, int lo, int hi, char *buf);
/**
 * rv_tpcc_zip: a zip code (clause 4.3.2.7): a random n-string of 4 digits
 * followed by "11111", into @buf (>= 10 bytes).
 */
void rv_tpcc_zip(RvTpccRand *r, char *buf);
/**
 * rv_tpcc_data_original: I_DATA or S_DATA (clause 4.3.3.1): an a-string of
 * length [26, 50]; in 10 % of the rows, chosen at random, "ORIGINAL" at a
 * random position.  @buf >= 51 bytes.  Returns whether ORIGINAL went in.
 */
bool rv_tpcc_data_original(RvTpccRand *r, char *buf);
/**
 * rv_tpcc_permutation: a random permutation of 1..@n into @ret (n ints),
 * for O_C_ID (clause 4.3.3.1, Fisher-Yates).
 */
void rv_tpcc_permutation(RvTpccRand *r, int *ret, int n);
/**
 * rv_tpcc_customer_last_num: the C_LAST number of customer @c_id (1-based)
 * at load: the first @s->last_names customers in order, the others
 * NURand(255, 0, last_names - 1) with @c (clause 4.3.3.1).
 */
int rv_tpcc_customer_last_num(RvTpccRand *r, const RvTpccScale *s, int c, int c_id);

/* ----------------------------------------------------------------- mix */

typedef enum {
    RV_TPCC_NEW_ORDER,
    RV_TPCC_PAYMENT,
    RV_TPCC_ORDER_STATUS,
    RV_TPCC_DELIVERY,
    RV_TPCC_STOCK_LEVEL,
    RV_TPCC_N_TXN,
} RvTpccTxn;

#define RV_TPCC_DECK 100        /* cards in one deck */

/**
 * RvTpccMix: a shuffled deck of RV_TPCC_DECK cards, 45 New-Order, 43
 * Payment, 4 each of Order-Status, Delivery and Stock-Level (the minimum
 * shares of clause 5.2.3, New-Order taking the rest), dealt one card per
 * transaction and reshuffled when empty: the card-deck method clause
 * 5.2.4.2 allows.
 */
typedef struct {
    RvTpccTxn cards[RV_TPCC_DECK];
    int next;
} RvTpccMix;

/** rv_tpcc_txn_name: "New-Order", "Payment", ... (the spec's names). */
const char *rv_tpcc_txn_name(RvTpccTxn t);
/** rv_tpcc_txn_key: "new_order", "payment", ... (the JSON keys). */
const char *rv_tpcc_txn_key(RvTpccTxn t);
/** rv_tpcc_mix_target: the target share of @t in [0, 1] (0.45, 0.43, 0.04...). */
double rv_tpcc_mix_target(RvTpccTxn t);
/** rv_tpcc_mix_init: an empty deck; the first rv_tpcc_mix_next() shuffles. */
void rv_tpcc_mix_init(RvTpccMix *m);
/** rv_tpcc_mix_next: deal the next transaction type. */
RvTpccTxn rv_tpcc_mix_next(RvTpccMix *m, RvTpccRand *r);

/* ----------------------------------------------------------- histogram */

#define RV_TPCC_HIST_SUB 64     /* sub-buckets per power of two: < 1.6 % error */
#define RV_TPCC_HIST_BUCKETS ((40 - 5) * RV_TPCC_HIST_SUB)  /* up to 2^40 us */

/**
 * RvTpccHist: latencies in microseconds in log-linear buckets (as
 * HdrHistogram: exact below 128 us, then 64 buckets per power of two, a
 * relative error under 1/64), plus the exact count, sum and maximum.
 */
typedef struct {
    uint64_t buckets[RV_TPCC_HIST_BUCKETS];
    uint64_t count;
    uint64_t sum_us;
    uint64_t max_us;
} RvTpccHist;

/** rv_tpcc_hist_add: count one latency of @us microseconds. */
void rv_tpcc_hist_add(RvTpccHist *h, uint64_t us);
/** rv_tpcc_hist_merge: add every count of @src to @dst. */
void rv_tpcc_hist_merge(RvTpccHist *dst, const RvTpccHist *src);
/**
 * rv_tpcc_hist_percentile: the nearest-rank @p-th percentile (0 < p <= 100)
 * in microseconds: the upper edge of the bucket holding rank ceil(p/100 *
 * count), never above the exact maximum; 0 for an empty histogram.
 */
uint64_t rv_tpcc_hist_percentile(const RvTpccHist *h, double p);
/** rv_tpcc_hist_bucket: the bucket index of @us (exposed for the tests). */
size_t rv_tpcc_hist_bucket(uint64_t us);
/** rv_tpcc_hist_bucket_high: the highest value counted in bucket @i. */
uint64_t rv_tpcc_hist_bucket_high(size_t i);
