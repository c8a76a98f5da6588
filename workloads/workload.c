/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * workloads/workload.c: the table of workloads (see workloads/workload.h).
 */
#include <errno.h>
#include <math.h>
#include <string.h>

#include "util/error.h"

#include "workloads/workload.h"

/* In the order `rtvirt-profiles(5)` lists them. */
static const RvWorkloadOps * const workloads[] = {
    &rv_workload_cyclictest,
    &rv_workload_pert,
    &rv_workload_hackbench,
    &rv_workload_stress,
    &rv_workload_linpack,
    &rv_workload_gemm,
    &rv_workload_sysbench,
    &rv_workload_sysbench_threads,
    &rv_workload_pipe,
    &rv_workload_semi_idle,
    &rv_workload_tpcc,
    NULL,
};

const RvWorkloadOps * const *
rv_workload_all(void)
{
    return workloads;
}

const RvWorkloadOps *
rv_workload_find(const char *name)
{
    for (guint i = 0; name && workloads[i]; i++)
        if (strcmp(workloads[i]->name, name) == 0)
            return workloads[i];
    return NULL;
}

const RvWorkloadKey *
rv_workload_find_key(const char *key, const RvWorkloadOps **ret_ops)
{
    for (guint i = 0; key && workloads[i]; i++)
        for (const RvWorkloadKey *k = workloads[i]->keys; k && k->key; k++)
            if (strcmp(k->key, key) == 0) {
                if (ret_ops)
                    *ret_ops = workloads[i];
                return k;
            }
    return NULL;
}

const RvWorkloadMetric *
rv_workload_metric(const RvWorkloadOps *ops, const char *name)
{
    for (const RvWorkloadMetric *m = ops->metrics; m && m->name; m++)
        if (strcmp(m->name, name) == 0)
            return m;
    return NULL;
}

void
rv_workload_add_metric(const RvWorkloadOps *ops, RvStoreRecord *rec, const char *name,
                       double value)
{
    const RvWorkloadMetric *m = rv_workload_metric(ops, name);

    if (!m) {
        g_critical("workload %s declares no metric '%s'", ops->name, name);
        rv_result_store_record_add_metric(rec, name, value, NULL);
        return;
    }
    rv_result_store_record_add_metric_full(rec, m->name, value, m->unit, m->better,
                                           m->aggregate);
}

void
rv_workload_result_clear(RvWorkloadResult *res)
{
    if (res->findings)
        g_ptr_array_unref(res->findings);
    res->findings = NULL;
    g_clear_pointer(&res->summary, g_free);
}

const char *
rv_workload_where_name(RvWorkloadWhere where)
{
    switch (where) {
    case RV_WORKLOAD_RT_GUEST:
        return "rt";
    case RV_WORKLOAD_NEIGHBOUR:
        return "neighbour";
    case RV_WORKLOAD_HOST:
        return "host";
    }
    return "?";
}

int
rv_workload_output_lines(const char *name, const char *out, gsize len, char ***ret_lines,
                         GError **error)
{
    const char *bad = NULL;
    char **lines;
    guint n;

    if (!out || len == 0)
        return rv_error_set(error, RV_ERROR_INVALID, EINVAL, "%s: empty output", name);
    /* a NUL or invalid UTF-8 is not a program's text: random bytes, a
     * binary, a broken guest */
    if (memchr(out, '\0', len))
        bad = memchr(out, '\0', len);
    else if (!g_utf8_validate(out, (gssize) len, &bad))
        ;
    else
        bad = NULL;
    if (bad)
        return rv_error_set(error, RV_ERROR_INVALID, EINVAL,
                            "%s: byte %" G_GSIZE_FORMAT " is not text (a NUL or invalid UTF-8)",
                            name, (gsize) (bad - out));
    /* nor is a control character but tab and the line ends: an ESC
     * sequence in a value would reach a terminal through a message or the
     * store's details */
    for (gsize i = 0; i < len; i++) {
        guchar c = (guchar) out[i];
        if ((c < 0x20 && c != '\t' && c != '\n' && c != '\r') || c == 0x7f)
            return rv_error_set(error, RV_ERROR_INVALID, EINVAL,
                                "%s: byte %" G_GSIZE_FORMAT " is control character 0x%02x, "
                                "not text", name, i, c);
    }
    {
        g_autofree char *text = g_strndup(out, len);

        lines = g_strsplit(text, "\n", -1);
    }
    n = g_strv_length(lines);
    for (guint i = 0; i < n; i++)
        g_strchomp(lines[i]);
    /* the split of a final newline */
    if (n && !*lines[n - 1]) {
        g_free(lines[n - 1]);
        lines[--n] = NULL;
    }
    *ret_lines = lines;
    return (int) MIN(n, (guint) G_MAXINT);
}

char **
rv_workload_tokens(const char *line)
{
    g_auto(GStrv) parts = g_strsplit_set(line, " \t", -1);
    GPtrArray *words = g_ptr_array_new();

    for (guint i = 0; parts[i]; i++)
        if (*parts[i])
            g_ptr_array_add(words, g_strdup(parts[i]));
    g_ptr_array_add(words, NULL);
    return (char **) g_ptr_array_free(words, FALSE);
}

gsize
rv_workload_decimal_span(const char *s)
{
    const char *p = s;
    bool digits = false;

    if (*p == '+' || *p == '-')
        p++;
    while (g_ascii_isdigit(*p)) {
        p++;
        digits = true;
    }
    if (*p == '.') {
        p++;
        while (g_ascii_isdigit(*p)) {
            p++;
            digits = true;
        }
    }
    if (!digits)
        return 0;
    if (*p == 'e' || *p == 'E') {
        const char *q = p + 1;
        if (*q == '+' || *q == '-')
            q++;
        if (g_ascii_isdigit(*q)) {
            while (g_ascii_isdigit(*q))
                q++;
            p = q;
        }
    }
    return (gsize) (p - s);
}

int
rv_workload_line_number(char **tokens, const char *key, double min, double max, double *ret)
{
    for (guint i = 0; tokens[i]; i++) {
        char *end = NULL;
        double v;

        if (strcmp(tokens[i], key) != 0)
            continue;
        if (!tokens[i + 1])
            return -ENOENT;
        /* decimal only: strtod(3) also reads hex floats (0x1p4), inf, nan */
        if (rv_workload_decimal_span(tokens[i + 1]) != strlen(tokens[i + 1]))
            return -ERANGE;
        errno = 0;
        v = g_ascii_strtod(tokens[i + 1], &end);
        if (!*tokens[i + 1] || *end || errno || !isfinite(v) || v < min || v > max)
            return -ERANGE;
        *ret = v;
        return 0;
    }
    return -ENOENT;
}
