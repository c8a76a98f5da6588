/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * results/compare-budget.c: budgets judged on a comparison
 * (rv_result_compare_judge() in compare.h; the grammar in budget.h).
 */
#include <math.h>
#include <string.h>

#include "results/compare-priv.h"
#include "results/untrusted.h"

const char *
rv_result_compare_verdict_name(RvVerdictStatus st)
{
    return st == RV_VERDICT_PASS ? "PASS" : st == RV_VERDICT_FAIL ? "FAIL" : "NOT JUDGED";
}

static void
verdict_free(Verdict *v)
{
    g_free(v->what);
    g_free(v->reason);
    g_free(v);
}

static gboolean
budget_matches(const RvBudget *b, const Group *gr, const Scen *sc)
{
    if (b->guest) {
        g_autofree char *t = g_strdup_printf("guest:%s", b->guest);
        if (!g_str_equal(gr->target, t))
            return FALSE;
    }
    if (b->host && !g_str_equal(gr->target, "host"))
        return FALSE;
    return !b->scenario || g_str_equal(sc->name, b->scenario) || g_str_equal(sc->label, b->scenario);
}

/* why a store that is not trusted cannot judge: its first cause (virt=tcg
 * when it is one: the clearest) and how many more the head lists */
static char *
untrusted_why(const RvStore *st)
{
    GPtrArray *why = rv_result_store_get_untrusted_reasons(st);
    const char *first = why->len ? why->pdata[0] : "(no reason recorded)";

    for (guint i = 0; i < why->len; i++)
        if (strstr(why->pdata[i], "virt=tcg"))
            first = "virt=tcg";
    /* counted as the head and the run's summary count them */
    if (rv_result_untrusted_count(why, NULL) > 1)
        return g_strdup_printf("the store is not trusted: %s (and %u more reason(s), listed "
                               "with UNTRUSTED at the top)", first,
                               rv_result_untrusted_count(why, NULL) - 1);
    return g_strdup_printf("the store is not trusted: %s", first);
}

/* the value budget @b judges in cell (g, s): FALSE when the cell has none */
static gboolean
budget_value(const RvComparison *c, const RvBudget *b, guint g, guint s, double *ret,
             char **ret_what)
{
    const Group *gr = c->groups->pdata[g];
    const Cell *ce = rv_result_compare_cell(c, g, s);
    GArray *v;

    if (b->pct >= 0 && !g_hash_table_contains(gr->units, b->metric)) {
        gint64 us;
        gboolean beyond;
        if (!ce->hist || rv_result_histogram_percentile(ce->hist, b->pct, &us, &beyond, NULL) < 0)
            return FALSE;
        *ret = us;
        *ret_what = g_strdup_printf("p%g of the merged histogram of %u repetition(s)%s",
                                    b->pct, ce->hist_reps,
                                    beyond ? ", beyond its range: the max, an upper bound" : "");
        return TRUE;
    }
    v = g_hash_table_lookup(ce->values, b->metric);
    if (!v || v->len == 0)
        return FALSE;
    if (b->relative) {
        Row row;
        if (rv_result_compare_is_baseline(c, s))
            return FALSE;    /* the baseline's change against itself */
        rv_result_compare_row(c, g, s, b->metric, &row);
        if (!isfinite(row.change))
            return FALSE;
        *ret = row.change;
        *ret_what = g_strdup_printf("of %g against the baseline", row.agg);
        return TRUE;
    } else {
        gboolean higher = GPOINTER_TO_INT(g_hash_table_lookup(gr->better, b->metric)) - 1 ==
                          RV_STORE_BETTER_HIGHER;
        double worst = g_array_index(v, double, 0);
        for (guint i = 1; i < v->len; i++)
            worst = higher ? MIN(worst, g_array_index(v, double, i))
                           : MAX(worst, g_array_index(v, double, i));
        *ret = worst;
        *ret_what = g_strdup_printf("the worst of %u repetition(s)", v->len);
        return TRUE;
    }
}

guint
rv_result_compare_judge(RvComparison *c, GPtrArray *budgets)
{
    guint bad = 0;

    if (c->verdicts)
        g_ptr_array_unref(c->verdicts);
    if (c->budgets)
        g_ptr_array_unref(c->budgets);
    c->budgets = g_ptr_array_ref(budgets);
    c->verdicts = g_ptr_array_new_with_free_func((GDestroyNotify) verdict_free);
    for (guint i = 0; i < budgets->len; i++) {
        const RvBudget *b = budgets->pdata[i];
        guint judged = 0;

        for (guint g = 0; g < c->groups->len; g++)
            for (guint s = 0; s < c->scens->len; s++) {
                const Scen *sc = c->scens->pdata[s];
                const RvStore *st = c->stores->pdata[sc->store];
                Verdict *v;
                double value;
                char *what = NULL;

                if (!budget_matches(b, c->groups->pdata[g], sc) ||
                    rv_result_compare_skipped(c, g, s) ||
                    !budget_value(c, b, g, s, &value, &what))
                    continue;
                v = g_new0(Verdict, 1);
                v->budget = b;
                v->group = g;
                v->scen = s;
                v->value = value;
                v->what = what;
                if (!rv_result_store_get_trusted(st)) {
                    /* never a PASS on a store that is not trusted */
                    v->status = RV_VERDICT_NOT_JUDGED;
                    v->reason = untrusted_why(st);
                } else {
                    v->status = rv_result_budget_holds(b, value) ? RV_VERDICT_PASS
                                                                 : RV_VERDICT_FAIL;
                }
                bad += v->status != RV_VERDICT_PASS;
                g_ptr_array_add(c->verdicts, v);
                judged++;
            }
        if (!judged) {
            Verdict *v = g_new0(Verdict, 1);
            v->budget = b;
            v->group = v->scen = -1;
            v->value = NAN;
            v->status = RV_VERDICT_NOT_JUDGED;
            v->reason = g_strdup_printf("no %s%s%s value to judge in any scenario that ran%s",
                                        b->relative ? "change of " : "", b->metric,
                                        b->pct >= 0 ? " (percentile of a latency histogram)" : "",
                                        b->guest || b->host || b->scenario
                                        ? " where the budget applies" : "");
            g_ptr_array_add(c->verdicts, v);
            bad++;
        }
    }
    return bad;
}
