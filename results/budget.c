/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * results/budget.c: budget expressions and the matrix's [budget] (see
 * budget.h for the grammar).
 */
#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "results/budget.h"
#include "util/error.h"

void
rv_result_budget_free(RvBudget *b)
{
    if (!b)
        return;
    g_free(b->name);
    g_free(b->text);
    g_free(b->source);
    g_free(b->guest);
    g_free(b->scenario);
    g_free(b->metric);
    g_free(b);
}

const char *
rv_result_budget_op_name(RvBudgetOp op)
{
    static const char *const names[] = { "<=", "<", ">=", ">" };

    return names[op];
}

gboolean
rv_result_budget_holds(const RvBudget *b, double value)
{
    switch (b->op) {
    case RV_BUDGET_LE: return value <= b->limit;
    case RV_BUDGET_LT: return value < b->limit;
    case RV_BUDGET_GE: return value >= b->limit;
    case RV_BUDGET_GT: default: return value > b->limit;
    }
}

static gboolean
metric_name_ok(const char *m)
{
    if (!*m)
        return FALSE;
    for (const char *p = m; *p; p++)
        if (!g_ascii_isalnum(*p) && !strchr("_.-", *p))
            return FALSE;
    return TRUE;
}

/* "p99.99_us" -> 99.99; -1 when @m is no percentile name */
static double
percentile_of(const char *m)
{
    g_autofree char *num = NULL;
    char *end;
    double p;

    if (m[0] != 'p' || !g_str_has_suffix(m, "_us") || !g_ascii_isdigit(m[1]))
        return -1;
    num = g_strndup(m + 1, strlen(m) - 4);
    p = g_ascii_strtod(num, &end);
    if (*end || !isfinite(p) || p < 0 || p > 100)
        return -1;
    return p;
}

static int
parse_where(RvBudget *b, const char *where, GError **error)
{
    g_auto(GStrv) words = g_strsplit(where, ",", -1);

    for (guint i = 0; words[i]; i++) {
        char *w = g_strstrip(words[i]);
        if (g_str_has_prefix(w, "guest=") && w[6] && !b->guest)
            b->guest = g_strdup(w + 6);
        else if (g_str_equal(w, "host"))
            b->host = TRUE;
        else if (g_str_has_prefix(w, "scenario=") && w[9] && !b->scenario)
            b->scenario = g_strdup(w + 9);
        else
            return rv_error_set(error, RV_ERROR_INVALID, EINVAL,
                                "invalid budget '%s': '%s' is not guest=NAME, host or "
                                "scenario=NAME (each at most once)", b->text, w);
    }
    if (b->host && b->guest)
        return rv_error_set(error, RV_ERROR_INVALID, EINVAL,
                            "invalid budget '%s': guest= and host exclude each other", b->text);
    return 0;
}

int
rv_result_budget_parse(const char *text, const char *name, const char *source,
                       RvBudget **ret, GError **error)
{
    g_autoptr(RvBudget) b = g_new0(RvBudget, 1);
    g_autofree char *expr = NULL, *lhs = NULL, *rhs = NULL;
    const char *colon, *op;
    char *end;
    int r;

    b->text = g_strstrip(g_strdup(text));
    b->name = g_strdup(name ? name : b->text);
    b->source = g_strdup(source);
    b->pct = -1;
    colon = strchr(b->text, ':');
    if (colon) {
        g_autofree char *where = g_strndup(b->text, colon - b->text);
        if ((r = parse_where(b, where, error)) < 0)
            return r;
        expr = g_strdup(colon + 1);
    } else {
        expr = g_strdup(b->text);
    }
    op = strpbrk(expr, "<>=!");
    if (!op)
        goto bad;
    if (g_str_has_prefix(op, "<=")) b->op = RV_BUDGET_LE;
    else if (g_str_has_prefix(op, ">=")) b->op = RV_BUDGET_GE;
    else if (op[0] == '<' && op[1] != '<' && op[1] != '>') b->op = RV_BUDGET_LT;
    else if (op[0] == '>' && op[1] != '>' && op[1] != '<') b->op = RV_BUDGET_GT;
    else
        goto bad;
    lhs = g_strstrip(g_strndup(expr, op - expr));
    rhs = g_strstrip(g_strdup(op + ((b->op == RV_BUDGET_LE || b->op == RV_BUDGET_GE) ? 2 : 1)));
    if (!metric_name_ok(lhs) || !*rhs || strpbrk(rhs, "<>="))
        goto bad;
    b->metric = g_steal_pointer(&lhs);
    b->pct = percentile_of(b->metric);
    if (g_str_has_suffix(rhs, "%")) {
        b->relative = TRUE;
        rhs[strlen(rhs) - 1] = '\0';
        g_strchomp(rhs);
    }
    b->limit = g_ascii_strtod(rhs, &end);
    if (end == rhs || *end || !isfinite(b->limit))
        return rv_error_set(error, RV_ERROR_INVALID, EINVAL,
                            "invalid budget '%s': limit '%s' is not a finite number%s",
                            b->text, rhs, b->relative ? " before '%'" : "");
    if (b->relative && b->pct >= 0)
        return rv_error_set(error, RV_ERROR_INVALID, EINVAL,
                            "invalid budget '%s': a percentile budget is absolute (us), not a "
                            "change in %%", b->text);
    *ret = g_steal_pointer(&b);
    return 0;

bad:
    return rv_error_set(error, RV_ERROR_INVALID, EINVAL,
                        "invalid budget '%s': expected [WHERE:] METRIC OP NUMBER[%%] with OP "
                        "one of <= < >= > (e.g. 'max_us <= 40', 'guest=rt0: p99.99_us <= 20', "
                        "'nopm >= -10%%')", b->text);
}

int
rv_result_budget_load_ini(RvIni *ini, GPtrArray *budgets, GError **error)
{
    g_autoptr(GPtrArray) entries = rv_ini_entries(ini, "budget");
    int n = 0;

    for (guint i = 0; entries && i < entries->len; i++) {
        RvIniEntry *e = entries->pdata[i];
        g_autofree char *where = g_strdup_printf("%s:%u", e->file, e->line);
        g_autoptr(GError) err = NULL;
        RvBudget *b = NULL;

        e->used = true;
        if (rv_result_budget_parse(e->value, e->key, where, &b, &err) < 0)
            return rv_ini_entry_error(e, error, "[budget] %s: %s", e->key, err->message);
        if (budgets)
            g_ptr_array_add(budgets, b);
        else
            rv_result_budget_free(b);
        n++;
    }
    return n;
}

int
rv_result_budget_load_store(const char *dir, const char *matrix, GPtrArray *budgets,
                            GError **error)
{
    g_autofree char *base = matrix ? g_strdup_printf("%s.ini", matrix) : NULL;
    g_autofree char *copy = base ? g_build_filename(dir, "profiles", base, NULL) : NULL;
    g_autofree char *text = NULL;
    g_autoptr(RvIni) ini = NULL;
    g_autoptr(GError) err = NULL;
    int r;

    if (!copy || !g_file_test(copy, G_FILE_TEST_IS_REGULAR))
        return 0;
    if (!g_file_get_contents(copy, &text, NULL, &err))
        return rv_error_set(error, RV_ERROR_FAILED, EIO, "Failed to read '%s': %s", copy,
                            err->message);
    /* a copy whose includes are not beside it (they are copied under
     * their own names) matters only when it has budgets */
    if (!strstr(text, "[budget]"))
        return 0;
    if ((r = rv_ini_load(copy, &ini, error)) < 0)
        return r;
    return rv_result_budget_load_ini(ini, budgets, error);
}
