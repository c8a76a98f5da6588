/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * tests/test-tpcc.c: the pure parts of rtvirt-tpcc (tpcc/rand.c, mix.c,
 * hist.c) against the TPC-C specification (revision 5.11) and second
 * methods computed here:
 *  - NURand (clause 2.1.6): every draw in [x, y] for the three A of the
 *    spec; the frequencies of 10^6 draws against the exact distribution
 *    enumerated over all (random(0, A), random(x, y)) pairs; C_LAST's run
 *    constant obeys the delta rule of clause 2.1.6.1 for every load C;
 *  - the mix (clause 5.2.3): 10^6 draws within 1 % of the targets, the
 *    targets at or above the clause's minimums, every deck exact;
 *  - last names (clause 4.3.2.3) with the spec's examples;
 *  - data rules (clause 4.3.3.1): ORIGINAL in ~10 % of I_DATA/S_DATA,
 *    string lengths and character sets, zip codes, O_C_ID permutations,
 *    C_LAST of the first customers;
 *  - the latency histogram: bucket layout, percentiles against a sorted
 *    array of the raw samples (nearest rank), merge, the empty case;
 *  - the password off the command line: --password VALUE overwritten in
 *    argv, the password file's first line, its limits and mode.
 */
#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include "tpcc/secret.h"
#include "tpcc/tpcc.h"

#define DRAWS 1000000

static void
test_nurand_range(void)
{
    static const struct { int a; int64_t x, y; } uses[] = {
        { 255, 0, 999 }, { 1023, 1, 3000 }, { 8191, 1, 100000 }, { 255, 0, 99 }, { 1023, 1, 300 }, { 8191, 1, 10000 },
    };
    RvTpccRand r;
    rv_tpcc_rand_seed(&r, 42);
    for (size_t u = 0; u < G_N_ELEMENTS(uses); u++) {
        int c = (int)rv_tpcc_rand_int(&r, 0, uses[u].a);
        int64_t lo = INT64_MAX, hi = INT64_MIN;
        for (int i = 0; i < 200000; i++) {
            int64_t v = rv_tpcc_nurand(&r, uses[u].a, c, uses[u].x, uses[u].y);
            g_assert_cmpint(v, >=, uses[u].x);
            g_assert_cmpint(v, <=, uses[u].y);
            lo = MIN(lo, v);
            hi = MAX(hi, v);
        }
        /* the whole range is reached, not a part of it */
        g_assert_cmpint(lo, <=, uses[u].x + (uses[u].y - uses[u].x) / 100);
        g_assert_cmpint(hi, >=, uses[u].y - (uses[u].y - uses[u].x) / 100);
    }
    for (int i = 0; i < 100000; i++) {
        int64_t v = rv_tpcc_rand_int(&r, -3, 3);
        g_assert_cmpint(v, >=, -3);
        g_assert_cmpint(v, <=, 3);
    }
}

static void
test_nurand_distribution(void)
{
    enum { A = 255, X = 0, Y = 999, N = Y - X + 1 };
    const int c = 123;
    g_autofree double *exact = g_new0(double, N);
    g_autofree uint64_t *seen = g_new0(uint64_t, N);
    RvTpccRand r;

    /* the exact distribution: every pair (random(0, A), random(x, y)) */
    for (int a = 0; a <= A; a++)
        for (int b = X; b <= Y; b++)
            exact[((a | b) + c) % N + X - X] += 1.0 / ((A + 1.0) * N);
    rv_tpcc_rand_seed(&r, 7);
    for (int i = 0; i < DRAWS; i++)
        seen[rv_tpcc_nurand(&r, A, c, X, Y) - X]++;
    double lo = 1, hi = 0, chi2 = 0;
    for (int v = 0; v < N; v++) {
        double e = exact[v] * DRAWS;
        chi2 += (seen[v] - e) * (seen[v] - e) / e;
        lo = MIN(lo, exact[v]);
        hi = MAX(hi, exact[v]);
    }
    /* 999 degrees of freedom: mean 999, sd 44.7; 6 sd above is never reached by chance */
    g_assert_cmpfloat(chi2, <, 999 + 6 * 44.7);
    /* non-uniform, as it must be: some names are many times likelier than others */
    g_assert_cmpfloat(hi / lo, >, 4);
    /* the same draws with C shifted are the distribution shifted by C */
    uint64_t shifted = 0;
    rv_tpcc_rand_seed(&r, 7);
    for (int i = 0; i < 1000; i++) {
        RvTpccRand r2 = r;
        int64_t v0 = rv_tpcc_nurand(&r, A, 0, X, Y);
        int64_t v1 = rv_tpcc_nurand(&r2, A, c, X, Y);
        shifted += (v0 + c) % N == v1;
    }
    g_assert_cmpuint(shifted, ==, 1000);
}

static void
test_nurand_constants(void)
{
    RvTpccRand r;
    rv_tpcc_rand_seed(&r, 3);
    g_assert_true(rv_tpcc_c_delta_ok(0, 65));
    g_assert_true(rv_tpcc_c_delta_ok(0, 119));
    g_assert_true(rv_tpcc_c_delta_ok(200, 100));
    g_assert_false(rv_tpcc_c_delta_ok(0, 64));
    g_assert_false(rv_tpcc_c_delta_ok(0, 120));
    g_assert_false(rv_tpcc_c_delta_ok(10, 106));        /* delta 96 */
    g_assert_false(rv_tpcc_c_delta_ok(130, 18));        /* delta 112 */
    g_assert_false(rv_tpcc_c_delta_ok(200, 300));       /* C outside [0, 255] */
    for (int load = 0; load <= 255; load++) {
        RvTpccNurandC l = { load, 17, 4000 }, run;
        int distinct[256] = { 0 }, n = 0;
        for (int i = 0; i < 200; i++) {
            rv_tpcc_nurand_c_run(&r, &l, &run);
            int d = abs(run.c_last - load);
            g_assert_cmpint(d, >=, 65);
            g_assert_cmpint(d, <=, 119);
            g_assert_cmpint(d, !=, 96);
            g_assert_cmpint(d, !=, 112);
            g_assert_cmpint(run.c_id, ==, 17);
            g_assert_cmpint(run.ol_i_id, ==, 4000);
            n += !distinct[run.c_last]++;
        }
        g_assert_cmpint(n, >, 10);      /* picked at random, not one fixed value */
    }
    for (int i = 0; i < 1000; i++) {
        RvTpccNurandC c;
        rv_tpcc_nurand_c_load(&r, &c);
        g_assert_true(c.c_last >= 0 && c.c_last <= 255);
        g_assert_true(c.c_id >= 0 && c.c_id <= 1023);
        g_assert_true(c.ol_i_id >= 0 && c.ol_i_id <= 8191);
    }
}

static void
test_mix(void)
{
    /* clause 5.2.3: minimum shares; New-Order takes what is left */
    static const double minimum[RV_TPCC_N_TXN] = { 0, 0.43, 0.04, 0.04, 0.04 };
    uint64_t count[RV_TPCC_N_TXN] = { 0 }, deck[RV_TPCC_N_TXN] = { 0 };
    RvTpccMix m;
    RvTpccRand r;
    double sum = 0;

    for (int t = 0; t < RV_TPCC_N_TXN; t++) {
        g_assert_cmpfloat(rv_tpcc_mix_target(t), >=, minimum[t]);
        sum += rv_tpcc_mix_target(t);
    }
    g_assert_cmpfloat(fabs(sum - 1), <, 1e-12);
    rv_tpcc_rand_seed(&r, 11);
    rv_tpcc_mix_init(&m);
    for (int i = 0; i < DRAWS; i++) {
        RvTpccTxn t = rv_tpcc_mix_next(&m, &r);
        g_assert_cmpint(t, <, RV_TPCC_N_TXN);
        count[t]++;
        deck[t]++;
        if ((i + 1) % RV_TPCC_DECK == 0) {
            for (int k = 0; k < RV_TPCC_N_TXN; k++) {
                g_assert_cmpuint(deck[k], ==, (uint64_t)llround(rv_tpcc_mix_target(k) * RV_TPCC_DECK));
                deck[k] = 0;
            }
        }
    }
    for (int t = 0; t < RV_TPCC_N_TXN; t++) {
        double share = (double)count[t] / DRAWS;
        g_test_message("%s: %.4f (target %.2f)", rv_tpcc_txn_name(t), share, rv_tpcc_mix_target(t));
        g_assert_cmpfloat(fabs(share - rv_tpcc_mix_target(t)), <=, 0.01);
    }
    g_assert_cmpstr(rv_tpcc_txn_name(RV_TPCC_NEW_ORDER), ==, "New-Order");
    g_assert_cmpstr(rv_tpcc_txn_key(RV_TPCC_STOCK_LEVEL), ==, "stock_level");
}

/* the deck is shuffled: two decks in a row are not dealt in the same order */
static void
test_mix_shuffled(void)
{
    RvTpccTxn a[RV_TPCC_DECK], b[RV_TPCC_DECK];
    RvTpccMix m;
    RvTpccRand r;
    int runs = 0;

    rv_tpcc_rand_seed(&r, 5);
    rv_tpcc_mix_init(&m);
    for (int i = 0; i < RV_TPCC_DECK; i++)
        a[i] = rv_tpcc_mix_next(&m, &r);
    for (int i = 0; i < RV_TPCC_DECK; i++)
        b[i] = rv_tpcc_mix_next(&m, &r);
    g_assert_true(memcmp(a, b, sizeof(a)) != 0);
    for (int i = 1; i < RV_TPCC_DECK; i++)
        runs += a[i] != a[i - 1];
    g_assert_cmpint(runs, >, 20);       /* not sorted by type: 4 changes if it were */
}

static void
test_last_name(void)
{
    char buf[RV_TPCC_LAST_MAX];
    g_autoptr(GHashTable) names = g_hash_table_new_full(g_str_hash, g_str_equal, g_free, NULL);

    /* clause 4.3.2.3's examples */
    g_assert_cmpstr(rv_tpcc_last_name(371, buf), ==, "PRICALLYOUGHT");
    g_assert_cmpstr(rv_tpcc_last_name(40, buf), ==, "BARPRESBAR");
    g_assert_cmpstr(rv_tpcc_last_name(0, buf), ==, "BARBARBAR");
    g_assert_cmpstr(rv_tpcc_last_name(999, buf), ==, "EINGEINGEING");
    g_assert_cmpstr(rv_tpcc_last_name(825, buf), ==, "ATIONABLEESE");
    for (int i = 0; i < 1000; i++) {
        rv_tpcc_last_name(i, buf);
        g_assert_cmpuint(strlen(buf), >=, 9);
        g_assert_cmpuint(strlen(buf), <=, 15);
        g_hash_table_add(names, g_strdup(buf));
    }
    g_assert_cmpuint(g_hash_table_size(names), ==, 1000);
}

static bool
all_of(const char *s, const char *set)
{
    return strspn(s, set) == strlen(s);
}

static void
test_data_rules(void)
{
    static const char alnum[] = "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789";
    RvTpccRand r;
    char buf[512];
    int original = 0, len_seen[51] = { 0 };
    const int n = 100000;

    rv_tpcc_rand_seed(&r, 99);
    for (int i = 0; i < n; i++) {
        bool put = rv_tpcc_data_original(&r, buf);
        size_t len = strlen(buf);
        g_assert_cmpuint(len, >=, 26);
        g_assert_cmpuint(len, <=, 50);
        len_seen[len]++;
        g_assert_cmpint(put, ==, strstr(buf, "ORIGINAL") != NULL);
        original += put;
    }
    g_test_message("ORIGINAL in %d of %d", original, n);
    g_assert_cmpint(original, >=, n * 9 / 100);
    g_assert_cmpint(original, <=, n * 11 / 100);
    g_assert_cmpint(len_seen[26], >, 0);
    g_assert_cmpint(len_seen[50], >, 0);

    for (int i = 0; i < 10000; i++) {
        int len = rv_tpcc_astring(&r, 300, 500, buf);
        g_assert_cmpint(len, ==, (int)strlen(buf));
        g_assert_true(len >= 300 && len <= 500);
        g_assert_true(all_of(buf, alnum));
        len = rv_tpcc_nstring(&r, 16, 16, buf);
        g_assert_cmpint(len, ==, 16);
        g_assert_true(all_of(buf, "0123456789"));
        rv_tpcc_zip(&r, buf);
        g_assert_cmpuint(strlen(buf), ==, 9);
        g_assert_true(all_of(buf, "0123456789"));
        g_assert_cmpstr(buf + 4, ==, "11111");
    }

    const int cust = 3000;
    g_autofree int *perm = g_new(int, cust);
    g_autofree int *hit = g_new0(int, cust + 1);
    rv_tpcc_permutation(&r, perm, cust);
    int fixed = 0;
    for (int i = 0; i < cust; i++) {
        g_assert_true(perm[i] >= 1 && perm[i] <= cust);
        g_assert_cmpint(hit[perm[i]]++, ==, 0);
        fixed += perm[i] == i + 1;
    }
    g_assert_cmpint(fixed, <, 20);      /* shuffled: about one fixed point expected */

    const RvTpccScale *std = rv_tpcc_scale_lookup("standard"), *small = rv_tpcc_scale_lookup("small");
    g_assert_nonnull(std);
    g_assert_nonnull(small);
    g_assert_null(rv_tpcc_scale_lookup("huge"));
    g_assert_true(std->standard);
    g_assert_false(small->standard);
    g_assert_cmpint(std->items, ==, 100000);
    g_assert_cmpint(std->customers, ==, 3000);
    g_assert_cmpint(std->customers - std->new_orders + 1, ==, 2101);
    g_assert_cmpint(std->last_names, ==, 1000);
    for (int c = 1; c <= cust; c++) {
        int num = rv_tpcc_customer_last_num(&r, std, 77, c);
        if (c <= 1000)
            g_assert_cmpint(num, ==, c - 1);
        g_assert_true(num >= 0 && num <= 999);
    }
    for (int c = 1; c <= small->customers; c++) {
        int num = rv_tpcc_customer_last_num(&r, small, 77, c);
        g_assert_true(num >= 0 && num < small->last_names);
    }
}

static int
cmp_u64(const void *a, const void *b)
{
    uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;
    return x < y ? -1 : x > y;
}

static void
test_hist_layout(void)
{
    for (uint64_t v = 0; v < 5000000; v += 1 + v / 97) {
        size_t i = rv_tpcc_hist_bucket(v);
        g_assert_cmpuint(i, <, RV_TPCC_HIST_BUCKETS);
        g_assert_cmpuint(rv_tpcc_hist_bucket_high(i), >=, v);
        g_assert_cmpuint(rv_tpcc_hist_bucket(rv_tpcc_hist_bucket_high(i)), ==, i);
        /* relative width under 1/64: the error bound of the percentiles */
        g_assert_cmpfloat(rv_tpcc_hist_bucket_high(i) - v, <=, v / 64.0 + 1e-9);
        if (i > 0)
            g_assert_cmpuint(rv_tpcc_hist_bucket_high(i - 1), <, v);
    }
    g_assert_cmpuint(rv_tpcc_hist_bucket(UINT64_MAX), <, RV_TPCC_HIST_BUCKETS);
}

static void
test_hist_percentiles(void)
{
    static const double ps[] = { 50, 90, 95, 99, 99.9, 100 };
    const int n = 100000;
    g_autofree uint64_t *raw = g_new(uint64_t, n);
    g_autofree RvTpccHist *h = g_new0(RvTpccHist, 1);
    g_autofree RvTpccHist *a = g_new0(RvTpccHist, 1);
    g_autofree RvTpccHist *b = g_new0(RvTpccHist, 1);
    RvTpccRand r;

    g_assert_cmpuint(rv_tpcc_hist_percentile(h, 50), ==, 0);
    rv_tpcc_rand_seed(&r, 1234);
    for (int i = 0; i < n; i++) {
        /* log-uniform from 10 us to 10 s, as latencies spread */
        raw[i] = (uint64_t)exp(log(10) + (log(1e7) - log(10)) * (rv_tpcc_rand_u64(&r) >> 11) / 9007199254740992.0);
        rv_tpcc_hist_add(h, raw[i]);
        rv_tpcc_hist_add(i % 3 ? a : b, raw[i]);
    }
    qsort(raw, n, sizeof(*raw), cmp_u64);
    for (size_t k = 0; k < G_N_ELEMENTS(ps); k++) {
        uint64_t want = raw[(size_t)ceil(ps[k] / 100 * n) - 1];
        uint64_t got = rv_tpcc_hist_percentile(h, ps[k]);
        g_test_message("p%g: %" G_GUINT64_FORMAT " us, exact %" G_GUINT64_FORMAT, ps[k], got, want);
        g_assert_cmpuint(got, >=, want);
        g_assert_cmpfloat((double)(got - want), <=, want / 64.0);
    }
    g_assert_cmpuint(rv_tpcc_hist_percentile(h, 100), ==, raw[n - 1]);
    g_assert_cmpuint(h->max_us, ==, raw[n - 1]);
    g_assert_cmpuint(h->count, ==, (uint64_t)n);
    rv_tpcc_hist_merge(a, b);
    g_assert_cmpmem(a, sizeof(*a), h, sizeof(*h));

    /* small and exact: 1..100 us */
    memset(h, 0, sizeof(*h));
    for (uint64_t v = 1; v <= 100; v++)
        rv_tpcc_hist_add(h, v);
    g_assert_cmpuint(rv_tpcc_hist_percentile(h, 50), ==, 50);
    g_assert_cmpuint(rv_tpcc_hist_percentile(h, 99), ==, 99);
    g_assert_cmpuint(rv_tpcc_hist_percentile(h, 99.5), ==, 100);
    g_assert_cmpuint(rv_tpcc_hist_percentile(h, 1), ==, 1);
    g_assert_cmpuint(h->sum_us, ==, 5050);
}

/* --password VALUE and --password=VALUE are overwritten in argv (what
 * /proc/PID/cmdline shows), the last one is returned, "--" ends options */
static void
test_password_argv(void)
{
    char a0[] = "rtvirt-tpcc", a1[] = "run", a2[] = "--password", a3[] = "s3cret",
         a4[] = "--password=t0p", a5[] = "--password-file", a6[] = "/f", a7[] = "--",
         a8[] = "--password=keep";
    char *argv[] = { a0, a1, a2, a3, a4, a5, a6, a7, a8, NULL };
    g_autofree char *pw = rv_tpcc_argv_take_password(8 + 1, argv);

    g_assert_cmpstr(pw, ==, "t0p");
    g_assert_cmpstr(a3, ==, "xxxxxx");
    g_assert_cmpstr(a4, ==, "--password=xxx");
    g_assert_cmpstr(a6, ==, "/f");
    g_assert_cmpstr(a8, ==, "--password=keep");
    {
        char b0[] = "rtvirt-tpcc", b1[] = "--password";   /* no value: left to GOption */
        char *argv2[] = { b0, b1, NULL };
        g_assert_null(rv_tpcc_argv_take_password(2, argv2));
    }
}

/* the password file: first line without \r\n, group/other-readable
 * flagged, a directory and a huge file refused by name */
static void
test_password_file(void)
{
    g_autofree char *dir = g_dir_make_tmp("rv-tpcc-XXXXXX", NULL);
    g_autofree char *f = g_build_filename(dir, "pw", NULL);
    g_autofree char *big = g_build_filename(dir, "big", NULL);
    g_autofree char *huge = g_strnfill(RV_TPCC_PASSWORD_FILE_MAX + 1, 'a');
    g_autoptr(GError) e = NULL;
    char *pw = NULL;
    gboolean others = TRUE;

    g_assert_true(g_file_set_contents(f, "p w\u00e9\r\nsecond line\n", -1, NULL));
    g_assert_cmpint(chmod(f, 0600), ==, 0);
    g_assert_cmpint(rv_tpcc_password_read(f, &pw, &others, &e), ==, 0);
    g_assert_cmpstr(pw, ==, "p w\u00e9");
    g_assert_false(others);
    g_clear_pointer(&pw, g_free);
    g_assert_cmpint(chmod(f, 0644), ==, 0);
    g_assert_cmpint(rv_tpcc_password_read(f, &pw, &others, &e), ==, 0);
    g_assert_true(others);
    g_clear_pointer(&pw, g_free);

    g_assert_cmpint(rv_tpcc_password_read(dir, &pw, NULL, &e), ==, -EISDIR);
    g_assert_nonnull(strstr(e->message, dir));
    g_clear_error(&e);
    g_assert_true(g_file_set_contents(big, huge, -1, NULL));
    g_assert_cmpint(rv_tpcc_password_read(big, &pw, NULL, &e), ==, -EFBIG);
    g_clear_error(&e);
    g_assert_cmpint(rv_tpcc_password_read("/nonexistent/pw", &pw, NULL, &e), ==, -ENOENT);
    g_assert_nonnull(strstr(e->message, "/nonexistent/pw"));
    g_assert_null(pw);
    unlink(f);
    unlink(big);
    rmdir(dir);
}

int
main(int argc, char **argv)
{
    g_test_init(&argc, &argv, NULL);
    g_test_add_func("/tpcc/nurand/range", test_nurand_range);
    g_test_add_func("/tpcc/nurand/distribution", test_nurand_distribution);
    g_test_add_func("/tpcc/nurand/constants", test_nurand_constants);
    g_test_add_func("/tpcc/mix/draws", test_mix);
    g_test_add_func("/tpcc/mix/shuffled", test_mix_shuffled);
    g_test_add_func("/tpcc/last-name", test_last_name);
    g_test_add_func("/tpcc/data-rules", test_data_rules);
    g_test_add_func("/tpcc/hist/layout", test_hist_layout);
    g_test_add_func("/tpcc/hist/percentiles", test_hist_percentiles);
    g_test_add_func("/tpcc/password/argv", test_password_argv);
    g_test_add_func("/tpcc/password/file", test_password_file);
    return g_test_run();
}
