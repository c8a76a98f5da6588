/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * tpcc/rand.c: the random rules of TPC-C: the generator, random(x, y)
 * (clause 2.1.4), NURand and its constants (clause 2.1.6), the a-/n-strings,
 * zip codes, last names and ORIGINAL data of clause 4.3.2 and 4.3.3.1, and
 * the two scales.
 */
#include <string.h>

#include "tpcc/tpcc.h"

static const RvTpccScale scales[] = {
    { "standard", true, 100000, 3000, 900, 1000 },
    /* CI: a tenth of the items and customers, names 0..99 */
    { "small", false, 10000, 300, 90, 100 },
};

const RvTpccScale *
rv_tpcc_scale_lookup(const char *name)
{
    for (size_t i = 0; i < G_N_ELEMENTS(scales); i++)
        if (g_strcmp0(scales[i].name, name) == 0)
            return &scales[i];
    return NULL;
}

static inline uint64_t
rotl(uint64_t x, int k)
{
    return (x << k) | (x >> (64 - k));
}

static uint64_t
splitmix64(uint64_t *x)
{
    uint64_t z = (*x += 0x9e3779b97f4a7c15ULL);
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
    return z ^ (z >> 31);
}

void
rv_tpcc_rand_seed(RvTpccRand *r, uint64_t seed)
{
    for (int i = 0; i < 4; i++)
        r->s[i] = splitmix64(&seed);
}

uint64_t
rv_tpcc_rand_u64(RvTpccRand *r)
{
    uint64_t *s = r->s;
    uint64_t result = rotl(s[1] * 5, 7) * 9;
    uint64_t t = s[1] << 17;
    s[2] ^= s[0];
    s[3] ^= s[1];
    s[1] ^= s[2];
    s[0] ^= s[3];
    s[2] ^= t;
    s[3] = rotl(s[3], 45);
    return result;
}

int64_t
rv_tpcc_rand_int(RvTpccRand *r, int64_t lo, int64_t hi)
{
    uint64_t span = (uint64_t)(hi - lo) + 1;
    /* Lemire's multiply-shift; the bias (span / 2^64) is far below anything measurable */
    unsigned __int128 m = (unsigned __int128)rv_tpcc_rand_u64(r) * span;
    return lo + (int64_t)(m >> 64);
}

int64_t
rv_tpcc_nurand(RvTpccRand *r, int a, int c, int64_t x, int64_t y)
{
    int64_t v = (rv_tpcc_rand_int(r, 0, a) | rv_tpcc_rand_int(r, x, y)) + c;
    return v % (y - x + 1) + x;
}

void
rv_tpcc_nurand_c_load(RvTpccRand *r, RvTpccNurandC *ret_c)
{
    ret_c->c_last = (int)rv_tpcc_rand_int(r, 0, 255);
    ret_c->c_id = (int)rv_tpcc_rand_int(r, 0, 1023);
    ret_c->ol_i_id = (int)rv_tpcc_rand_int(r, 0, 8191);
}

bool
rv_tpcc_c_delta_ok(int load, int run)
{
    int d = load > run ? load - run : run - load;
    return run >= 0 && run <= 255 && d >= 65 && d <= 119 && d != 96 && d != 112;
}

void
rv_tpcc_nurand_c_run(RvTpccRand *r, const RvTpccNurandC *load, RvTpccNurandC *ret_c)
{
    int ok[256], n = 0;

    for (int c = 0; c <= 255; c++)
        if (rv_tpcc_c_delta_ok(load->c_last, c))
            ok[n++] = c;
    *ret_c = *load;
    /* every C_load in [0, 255] has at least 53 valid C_run (see the test) */
    ret_c->c_last = n ? ok[rv_tpcc_rand_int(r, 0, n - 1)] : load->c_last;
}

char *
rv_tpcc_last_name(int num, char *buf)
{
    static const char *const syl[10] = {
        "BAR", "OUGHT", "ABLE", "PRI", "PRES", "ESE", "ANTI", "CALLY", "ATION", "EING",
    };
    num = CLAMP(num, 0, 999);
    g_snprintf(buf, RV_TPCC_LAST_MAX, "%s%s%s", syl[num / 100], syl[num / 10 % 10], syl[num % 10]);
    return buf;
}

static int
random_string(RvTpccRand *r, int lo, int hi, char *buf, const char *set, int nset)
{
    int len = (int)rv_tpcc_rand_int(r, lo, hi);
    for (int i = 0; i < len; i++)
        buf[i] = set[rv_tpcc_rand_int(r, 0, nset - 1)];
    buf[len] = '\0';
    return len;
}

int
rv_tpcc_astring(RvTpccRand *r, int lo, int hi, char *buf)
{
    static const char set[] = "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789";
    return random_string(r, lo, hi, buf, set, (int)sizeof(set) - 1);
}

int
rv_tpcc_nstring(RvTpccRand *r, int lo, int hi, char *buf)
{
    return random_string(r, lo, hi, buf, "0123456789", 10);
}

void
rv_tpcc_zip(RvTpccRand *r, char *buf)
{
    rv_tpcc_nstring(r, 4, 4, buf);
    memcpy(buf + 4, "11111", 6);
}

bool
rv_tpcc_data_original(RvTpccRand *r, char *buf)
{
    int len = rv_tpcc_astring(r, 26, 50, buf);
    if (rv_tpcc_rand_int(r, 1, 10) != 1)
        return false;
    memcpy(buf + rv_tpcc_rand_int(r, 0, len - 8), "ORIGINAL", 8);
    return true;
}

void
rv_tpcc_permutation(RvTpccRand *r, int *ret, int n)
{
    for (int i = 0; i < n; i++)
        ret[i] = i + 1;
    for (int i = n - 1; i > 0; i--) {
        int j = (int)rv_tpcc_rand_int(r, 0, i);
        int t = ret[i];
        ret[i] = ret[j];
        ret[j] = t;
    }
}

int
rv_tpcc_customer_last_num(RvTpccRand *r, const RvTpccScale *s, int c, int c_id)
{
    if (c_id <= s->last_names)
        return c_id - 1;
    return (int)rv_tpcc_nurand(r, 255, c, 0, s->last_names - 1);
}
