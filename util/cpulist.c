/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * util/cpulist.c: CPU sets and the kernel's cpulist / hex mask formats.
 * The parser follows lib/bitmap-str.c (bitmap_parselist(), bitmap_parse())
 * so that a cpulist is judged here as the kernel would judge it.
 */
#include <ctype.h>
#include <errno.h>
#include <string.h>

#include "util/cpulist.h"
#include "util/error.h"

void
rv_cpuset_zero(RvCpuSet *set)
{
    memset(set, 0, sizeof(*set));
}

void
rv_cpuset_set(RvCpuSet *set, unsigned cpu)
{
    if (cpu < RV_CPUSET_MAX)
        set->bits[cpu / 64] |= G_GUINT64_CONSTANT(1) << (cpu % 64);
}

void
rv_cpuset_set_range(RvCpuSet *set, unsigned first, unsigned last)
{
    for (unsigned c = first; c <= last && c < RV_CPUSET_MAX; c++)
        rv_cpuset_set(set, c);
}

void
rv_cpuset_clear(RvCpuSet *set, unsigned cpu)
{
    if (cpu < RV_CPUSET_MAX)
        set->bits[cpu / 64] &= ~(G_GUINT64_CONSTANT(1) << (cpu % 64));
}

bool
rv_cpuset_isset(const RvCpuSet *set, unsigned cpu)
{
    return cpu < RV_CPUSET_MAX && (set->bits[cpu / 64] >> (cpu % 64)) & 1;
}

unsigned
rv_cpuset_count(const RvCpuSet *set)
{
    unsigned n = 0;

    for (size_t i = 0; i < G_N_ELEMENTS(set->bits); i++)
        n += __builtin_popcountll(set->bits[i]);
    return n;
}

bool
rv_cpuset_is_empty(const RvCpuSet *set)
{
    for (size_t i = 0; i < G_N_ELEMENTS(set->bits); i++)
        if (set->bits[i])
            return false;
    return true;
}

int
rv_cpuset_next(const RvCpuSet *set, int from)
{
    if (from < 0)
        from = 0;
    for (unsigned w = from / 64; w < G_N_ELEMENTS(set->bits); w++) {
        guint64 word = set->bits[w];

        if (w == (unsigned) from / 64)
            word &= ~G_GUINT64_CONSTANT(0) << (from % 64);
        if (word)
            return w * 64 + __builtin_ctzll(word);
    }
    return -1;
}

int
rv_cpuset_last(const RvCpuSet *set)
{
    for (int w = G_N_ELEMENTS(set->bits) - 1; w >= 0; w--)
        if (set->bits[w])
            return w * 64 + 63 - __builtin_clzll(set->bits[w]);
    return -1;
}

void
rv_cpuset_and(RvCpuSet *ret, const RvCpuSet *a, const RvCpuSet *b)
{
    for (size_t i = 0; i < G_N_ELEMENTS(ret->bits); i++)
        ret->bits[i] = a->bits[i] & b->bits[i];
}

void
rv_cpuset_or(RvCpuSet *ret, const RvCpuSet *a, const RvCpuSet *b)
{
    for (size_t i = 0; i < G_N_ELEMENTS(ret->bits); i++)
        ret->bits[i] = a->bits[i] | b->bits[i];
}

void
rv_cpuset_andnot(RvCpuSet *ret, const RvCpuSet *a, const RvCpuSet *b)
{
    for (size_t i = 0; i < G_N_ELEMENTS(ret->bits); i++)
        ret->bits[i] = a->bits[i] & ~b->bits[i];
}

bool
rv_cpuset_equal(const RvCpuSet *a, const RvCpuSet *b)
{
    return memcmp(a->bits, b->bits, sizeof(a->bits)) == 0;
}

bool
rv_cpuset_intersects(const RvCpuSet *a, const RvCpuSet *b)
{
    for (size_t i = 0; i < G_N_ELEMENTS(a->bits); i++)
        if (a->bits[i] & b->bits[i])
            return true;
    return false;
}

bool
rv_cpuset_is_subset(const RvCpuSet *sub, const RvCpuSet *super)
{
    for (size_t i = 0; i < G_N_ELEMENTS(sub->bits); i++)
        if (sub->bits[i] & ~super->bits[i])
            return false;
    return true;
}

/* One number, or "N" for the last CPU: lib/bitmap-str.c bitmap_getnum(). */
static const char *
cpulist_getnum(const char *p, unsigned nr_cpu_ids, unsigned *ret, int *err)
{
    unsigned long long v = 0;
    const char *start = p;

    if (*p == 'N') {
        if (nr_cpu_ids == 0) {
            *err = -EINVAL;
            return NULL;
        }
        *ret = nr_cpu_ids - 1;
        return p + 1;
    }
    while (g_ascii_isdigit(*p)) {
        v = v * 10 + (*p - '0');
        if (v > G_MAXUINT) {
            *err = -ERANGE;
            return NULL;
        }
        p++;
    }
    if (p == start) {
        *err = -EINVAL;
        return NULL;
    }
    *ret = (unsigned) v;
    return p;
}

static int
cpulist_fail(GError **error, int err, const char *str, const char *item_start,
             const char *why)
{
    const char *end = strchr(item_start, ',');
    g_autofree char *item = end ? g_strndup(item_start, end - item_start)
                                : g_strdup(item_start);

    return rv_error_set(error, RV_ERROR_INVALID, -err,
                        "Invalid cpulist '%s': item '%s' %s", str,
                        g_strstrip(item), why);
}

int
rv_cpulist_parse(const char *str, unsigned nr_cpu_ids, RvCpuSet *ret,
                      GError **error)
{
    RvCpuSet set;
    const char *p = str;
    unsigned limit = nr_cpu_ids ? MIN(nr_cpu_ids, RV_CPUSET_MAX) : RV_CPUSET_MAX;

    rv_cpuset_zero(&set);
    if (!str)
        return rv_error_set(error, RV_ERROR_INVALID, EINVAL, "Invalid cpulist: no value");

    for (;;) {
        const char *item = NULL;
        unsigned start, end, used = 1, group = 1;
        int err = 0;

        while (*p && g_ascii_isspace(*p))
            p++;
        if (!*p)
            break;
        item = p;
        if (*p == ',')
            return cpulist_fail(error, -EINVAL, str, item, "is empty");

        if (g_ascii_strncasecmp(p, "all", 3) == 0) {
            if (nr_cpu_ids == 0)
                return cpulist_fail(error, -EINVAL, str, item,
                                    "needs the number of possible CPUs");
            start = 0;
            end = nr_cpu_ids - 1;
            p += 3;
        } else {
            p = cpulist_getnum(p, nr_cpu_ids, &start, &err);
            if (!p)
                return cpulist_fail(error, err, str, item,
                                    err == -ERANGE ? "is out of range"
                                                   : "is not a CPU number");
            end = start;
            if (*p == '-') {
                p = cpulist_getnum(p + 1, nr_cpu_ids, &end, &err);
                if (!p)
                    return cpulist_fail(error, err, str, item,
                                        "has no valid range end");
            }
        }
        if (*p == ':') {
            p = cpulist_getnum(p + 1, 0, &used, &err);
            if (!p || *p != '/')
                return cpulist_fail(error, -EINVAL, str, item,
                                    "has a malformed 'used/group' part");
            p = cpulist_getnum(p + 1, 0, &group, &err);
            if (!p)
                return cpulist_fail(error, -EINVAL, str, item,
                                    "has a malformed 'used/group' part");
        }
        while (*p && g_ascii_isspace(*p) && *p != '\n')
            p++;
        if (*p && *p != ',' && *p != '\n')
            return cpulist_fail(error, -EINVAL, str, item, "has trailing garbage");

        /* bitmap_check_region() */
        if (start > end)
            return cpulist_fail(error, -EINVAL, str, item, "has start > end");
        if (group == 0 || used > group || used == 0)
            return cpulist_fail(error, -EINVAL, str, item,
                                "has an invalid 'used/group' (need 0 < used <= group)");
        if (end >= limit) {
            /* name the bound: "beyond" alone leaves the user to find it */
            g_autofree char *why = limit > 1
                ? g_strdup_printf("names CPU ids beyond the possible CPUs (0-%u)", limit - 1)
                : g_strdup("names CPU ids beyond the possible CPUs (0)");

            return cpulist_fail(error, -ERANGE, str, item, why);
        }

        for (unsigned c = start; c <= end; c++)
            if ((c - start) % group < used)
                rv_cpuset_set(&set, c);

        if (*p == ',') {
            p++;
            while (*p && g_ascii_isspace(*p))
                p++;
            if (!*p)
                return cpulist_fail(error, -EINVAL, str, item, "is followed by an empty item");
            continue;
        }
        if (*p == '\n')
            p++;
    }
    *ret = set;
    return 0;
}

int
rv_cpumask_parse(const char *str, RvCpuSet *ret, GError **error)
{
    RvCpuSet set;
    g_auto(GStrv) words = NULL;
    g_autofree char *copy = NULL;
    guint nwords;

    if (!str)
        return rv_error_set(error, RV_ERROR_INVALID, EINVAL, "Invalid CPU mask: no value");
    copy = g_strstrip(g_strdup(str));
    if (!*copy)
        return rv_error_set(error, RV_ERROR_INVALID, EINVAL, "Invalid CPU mask '%s': empty", str);
    words = g_strsplit(copy, ",", -1);
    nwords = g_strv_length(words);
    rv_cpuset_zero(&set);
    for (guint i = 0; i < nwords; i++) {
        const char *w = words[i];
        size_t len = strlen(w);
        guint64 v = 0;
        unsigned base = (nwords - 1 - i) * 32;

        if (len == 0 || len > 8)
            return rv_error_set(error, RV_ERROR_INVALID, EINVAL,
                                "Invalid CPU mask '%s': word '%s' is not 1-8 hex digits",
                                str, w);
        for (size_t j = 0; j < len; j++) {
            if (!g_ascii_isxdigit(w[j]))
                return rv_error_set(error, RV_ERROR_INVALID, EINVAL,
                                    "Invalid CPU mask '%s': '%c' is not a hex digit",
                                    str, w[j]);
            v = v * 16 + g_ascii_xdigit_value(w[j]);
        }
        for (unsigned b = 0; b < 32; b++) {
            if (!((v >> b) & 1))
                continue;
            if (base + b >= RV_CPUSET_MAX)
                return rv_error_set(error, RV_ERROR_INVALID, ERANGE,
                                    "Invalid CPU mask '%s': CPU %u is beyond %d",
                                    str, base + b, RV_CPUSET_MAX);
            rv_cpuset_set(&set, base + b);
        }
    }
    *ret = set;
    return 0;
}

char *
rv_cpulist_format(const RvCpuSet *set)
{
    GString *s = g_string_new(NULL);
    int cpu = rv_cpuset_next(set, 0);

    while (cpu >= 0) {
        int last = cpu;

        while (rv_cpuset_isset(set, last + 1))
            last++;
        if (s->len)
            g_string_append_c(s, ',');
        if (last == cpu)
            g_string_append_printf(s, "%d", cpu);
        else
            g_string_append_printf(s, "%d-%d", cpu, last);
        cpu = rv_cpuset_next(set, last + 1);
    }
    return g_string_free(s, FALSE);
}

char *
rv_cpumask_format(const RvCpuSet *set, unsigned nbits)
{
    GString *s = g_string_new(NULL);
    int last = rv_cpuset_last(set);
    unsigned nwords;

    if (nbits == 0)
        nbits = last < 0 ? 1 : (unsigned) last + 1;
    nwords = (nbits + 31) / 32;
    for (int w = nwords - 1; w >= 0; w--) {
        guint32 v = (guint32) (set->bits[w / 2] >> ((w % 2) * 32));

        g_string_append_printf(s, "%s%08x", s->len ? "," : "", v);
    }
    return g_string_free(s, FALSE);
}

cpu_set_t *
rv_cpuset_to_mask(const RvCpuSet *set)
{
    cpu_set_t *m = CPU_ALLOC(RV_CPUSET_MAX);

    CPU_ZERO_S(RV_CPUSET_MASK_SIZE, m);
    rv_cpuset_foreach(cpu, set)
        CPU_SET_S((size_t) cpu, RV_CPUSET_MASK_SIZE, m);
    return m;
}

void
rv_cpuset_from_mask(const cpu_set_t *mask, RvCpuSet *ret)
{
    rv_cpuset_zero(ret);
    for (unsigned cpu = 0; cpu < RV_CPUSET_MAX; cpu++)
        if (CPU_ISSET_S(cpu, RV_CPUSET_MASK_SIZE, mask))
            rv_cpuset_set(ret, cpu);
}
