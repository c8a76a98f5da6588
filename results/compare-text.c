/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * results/compare-text.c: the terminal table of `rtvirt compare` (see
 * rv_result_compare_format_opts() in compare.h for the layout).
 *
 * Two rules shape every line here.  It fits: no line is wider than the
 * limit (120 columns by default; a reason is wrapped at spaces, blocks of
 * metric columns are split), except where one word is longer (a path).
 * It is said once: a store's untrusted reasons, a SKIPPED scenario, a
 * NOTE are printed in the head, once for the whole output, and rows only
 * carry a mark ("!" untrusted, "?" n too small) that the head explains.
 * Every header is printed with the same width as the values under it
 * (tests/test-compare.c checks the columns line by line).
 */
#include <errno.h>
#include <math.h>
#include <string.h>

#include "results/attribution.h"
#include "results/cosched.h"
#include "results/compare-priv.h"
#include "results/untrusted.h"
#include "util/escape.h"

typedef struct {
    const RvComparison *c;
    const RvCompareOptions *opts;
    guint width;              /* the limit, G_MAXINT with --wide */
    int w;                    /* label column width */
    GHashTable *seen;         /* lines printed by once(): never twice */
} Text;

/* a summary column group: " %10s (%7s) %-3s" */
#define SUM_VALUE 10
#define SUM_CHANGE 8
#define SUM_WORD 6
#define SUM_GROUP (1 + SUM_VALUE + 2 + SUM_CHANGE + 1 + 1 + 3 + 1 + SUM_WORD)

/* the row prefix: "  LABEL    n virt    !" */
static int
prefix_width(const Text *t)
{
    return 2 + t->w + 5 + 8 + 2;
}

static void
row_prefix(GString *o, const Text *t, const char *label, guint n, const char *virt,
           gboolean untrusted)
{
    g_string_append_printf(o, "  %-*s %4u %-7s %s", t->w, label, n, virt,
                           untrusted ? "!" : " ");
}

static void
head_prefix(GString *o, const Text *t, const char *title)
{
    g_string_append_printf(o, "%-*s %4s %-7s %s", t->w + 2, title, "n", "virt", "!");
}

/* the end of a line: no trailing blanks (they are noise, and would hide
 * the width of a line from the tests) */
static void
end_line(GString *o)
{
    while (o->len && o->str[o->len - 1] == ' ')
        g_string_truncate(o, o->len - 1);
    g_string_append_c(o, '\n');
}

/* @text after @first, wrapped at spaces to the width limit, continuation
 * lines indented by @indent */
static void
wrapped(GString *o, const Text *t, const char *first, const char *text, int indent)
{
    g_auto(GStrv) words = g_strsplit(text ? text : "", " ", -1);
    gsize col = strlen(first);

    g_string_append(o, first);
    for (guint i = 0; words[i]; i++) {
        gsize l = strlen(words[i]);
        if (i > 0 && col + 1 + l > t->width && col > (gsize) indent) {
            end_line(o);
            g_string_append_printf(o, "%*s", indent, "");
            col = indent;
        } else if (i > 0) {
            g_string_append_c(o, ' ');
            col++;
        }
        g_string_append(o, words[i]);
        col += l;
    }
    end_line(o);
}

/* prints @line (wrapped) unless it was printed before */
static void
once(GString *o, Text *t, const char *first, const char *text, int indent)
{
    g_autofree char *key = g_strconcat(first, text, NULL);

    if (g_hash_table_contains(t->seen, key))
        return;
    g_hash_table_add(t->seen, g_steal_pointer(&key));
    wrapped(o, t, first, text, indent);
}

/* a number in @width columns: two decimals when they fit, else none,
 * else 3 significant digits */
static void
fmt_num(GString *s, int width, double v)
{
    char buf[64];

    if (!isfinite(v)) {
        g_string_append_printf(s, " %*s", width, "-");
        return;
    }
    if (v != 0 && fabs(v) < 0.01)
        g_snprintf(buf, sizeof(buf), "%.3g", v);
    else if (g_snprintf(buf, sizeof(buf), "%.2f", v) > width &&
             g_snprintf(buf, sizeof(buf), "%.0f", v) > width)
        g_snprintf(buf, sizeof(buf), "%.3g", v);
    g_string_append_printf(s, " %*s", width, buf);
}

static void
fmt_pct(GString *s, int width, double v, gboolean sign)
{
    g_autofree char *b = !isfinite(v) ? g_strdup("-")
                       : sign ? g_strdup_printf("%+.1f%%", v) : g_strdup_printf("%.1f%%", v);

    g_string_append_printf(s, " %*s", width, b);
}

static gboolean
untrusted(const RvComparison *c, guint s)
{
    const Scen *sc = c->scens->pdata[s];

    return !rv_result_store_get_trusted(c->stores->pdata[sc->store]);
}

static gboolean
is_throughput(const Group *gr, const char *metric)
{
    return GPOINTER_TO_INT(g_hash_table_lookup(gr->better, metric)) - 1 == RV_STORE_BETTER_HIGHER;
}

static gboolean
values_any(const RvComparison *c, guint g, guint s, const char *metric)
{
    GArray *v = g_hash_table_lookup(rv_result_compare_cell(c, g, s)->values, metric);

    return v && v->len;
}

/* a scenario of a matrix with load levels: its records are its cells' */
static gboolean
has_cells(const RvComparison *c, guint s)
{
    const Scen *sc = c->scens->pdata[s];

    for (guint i = 0; !sc->load && i < c->scens->len; i++) {
        const Scen *o = c->scens->pdata[i];

        if (o->load && o->store == sc->store && g_str_equal(o->base, sc->name))
            return TRUE;
    }
    return FALSE;
}

static char *
metric_title(const Group *gr, const char *metric)
{
    const char *unit = g_hash_table_lookup(gr->units, metric);

    return unit && *unit ? g_strdup_printf("%s [%s]", metric, unit) : g_strdup(metric);
}

/* ---- the head ---- */

static gboolean
any_row(const RvComparison *c, gboolean (*pred)(const RvComparison *, guint, guint))
{
    for (guint g = 0; g < c->groups->len; g++)
        for (guint s = 0; s < c->scens->len; s++)
            if (pred(c, g, s))
                return TRUE;
    return FALSE;
}

static gboolean
cell_tcg(const RvComparison *c, guint g, guint s)
{
    return rv_result_compare_cell(c, g, s)->tcg;
}

static gboolean
cell_has_hist(const RvComparison *c, guint g, guint s)
{
    return rv_result_compare_cell(c, g, s)->hist != NULL;
}

static gboolean
cell_too_small(const RvComparison *c, guint g, guint s)
{
    const Group *gr = c->groups->pdata[g];

    for (guint m = 0; m < gr->metrics->len; m++) {
        Row row;
        rv_result_compare_row(c, g, s, gr->metrics->pdata[m], &row);
        if (row.too_small)
            return TRUE;
    }
    return FALSE;
}

static gboolean
cell_beyond(const RvComparison *c, guint g, guint s)
{
    const Cell *ce = rv_result_compare_cell(c, g, s);

    for (guint k = 0; ce->hist && k < RV_COMPARE_N_PCTS; k++) {
        gint64 us;
        gboolean beyond;
        if (rv_result_histogram_percentile(ce->hist, rv_result_compare_pcts[k], &us,
                                           &beyond, NULL) == 0 && beyond)
            return TRUE;
    }
    return FALSE;
}

static void
text_stores(GString *o, Text *t)
{
    const RvComparison *c = t->c;

    for (guint i = 0; i < c->stores->len; i++) {
        const RvStore *st = c->stores->pdata[i];
        g_autofree char *first = c->stores->len > 1 ? g_strdup_printf("store %u: ", i + 1)
                                                    : g_strdup("store: ");
        g_autofree char *host = c->by != RV_COMPARE_BY_NONE
                                ? g_strdup_printf(", host %s", (char *) c->hosts->pdata[i])
                                : g_strdup("");
        g_autofree char *what = g_strdup_printf(
            "%s (matrix %s%s%s%s)", rv_result_store_get_dir(st),
            rv_result_store_get_matrix(st) ? rv_result_store_get_matrix(st) : "?", host,
            rv_result_store_get_complete(st) ? "" : ", INCOMPLETE",
            rv_result_store_get_trusted(st) ? "" : ", UNTRUSTED");
        wrapped(o, t, first, what, 4);
    }
}

static void
gstring_free(gpointer s)
{
    g_string_free(s, TRUE);
}

/* Each kind of untrusted reason once, the first of its kind as written,
 * with how many reasons of the stores it stands for; the stores it
 * concerns where there are several. */
static void
text_untrusted(GString *o, Text *t)
{
    const RvComparison *c = t->c;
    g_autoptr(GPtrArray) kinds = g_ptr_array_new_with_free_func(g_free);
    g_autoptr(GPtrArray) firsts = g_ptr_array_new();
    g_autoptr(GArray) counts = g_array_new(FALSE, TRUE, sizeof(guint));
    g_autoptr(GPtrArray) which = g_ptr_array_new_with_free_func(gstring_free);
    guint total = 0;

    for (guint i = 0; i < c->stores->len; i++) {
        GPtrArray *why = rv_result_store_get_untrusted_reasons(c->stores->pdata[i]);

        /* counted as `rtvirt run`'s summary counts them (results/untrusted.h) */
        total += rv_result_untrusted_count(why, NULL);
        for (guint k = 0; k < why->len; k++) {
            g_autofree char *kind = rv_result_untrusted_kind(why->pdata[k]);
            guint j;

            for (j = 0; j < kinds->len && !g_str_equal(kinds->pdata[j], kind); j++)
                ;
            if (j == kinds->len) {
                guint zero = 0;

                g_ptr_array_add(kinds, g_steal_pointer(&kind));
                g_ptr_array_add(firsts, (gpointer) rv_result_untrusted_cause(why->pdata[k]));
                g_array_append_val(counts, zero);
                g_ptr_array_add(which, g_string_new(NULL));
            }
            g_array_index(counts, guint, j)++;
            if (c->stores->len > 1) {
                GString *w = which->pdata[j];
                g_autofree char *num = g_strdup_printf("%u", i + 1);
                g_autofree char *tail = g_strdup_printf(", %s", num);

                if (!w->len)
                    g_string_append(w, num);
                else if (!g_str_has_suffix(w->str, tail) && !g_str_equal(w->str, num))
                    g_string_append(w, tail);
            }
        }
    }
    if (!total)
        return;
    if (kinds->len < total)
        g_string_append_printf(o, "untrusted: %u reasons of %u kinds, each kind once:\n", total,
                               kinds->len);
    for (guint j = 0; j < kinds->len; j++) {
        guint n = g_array_index(counts, guint, j);
        GString *w = which->pdata[j];
        g_autofree char *first = n > 1 ? g_strdup_printf("  UNTRUSTED x%u: ", n)
                                       : g_strdup("  UNTRUSTED: ");
        g_autofree char *text = w->len ? g_strdup_printf("%s (store %s)", (char *) firsts->pdata[j],
                                                         w->str)
                                       : g_strdup(firsts->pdata[j]);

        wrapped(o, t, first, text, 6);
    }
}

static void
text_head(GString *o, Text *t)
{
    const RvComparison *c = t->c;
    const Scen *bs = c->scens->pdata[c->baseline];
    g_autoptr(GString) marks = g_string_new("* p<0.05, ** p<0.01, *** p<0.001, "
                                            "~ not significant (the difference is inside the noise)");
    gboolean small = any_row(c, cell_too_small);

    text_untrusted(o, t);
    for (guint i = 0; i < c->context_notes->len; i++)
        wrapped(o, t, "NOTE: ", c->context_notes->pdata[i], 6);
    if (bs->load) {
        /* every level's baseline cell, not the first alone */
        g_autoptr(GString) levels = g_string_new(NULL);

        for (guint i = 0; i < c->scens->len; i++) {
            const Scen *s = c->scens->pdata[i];

            if (s->load && s->store == bs->store && g_strcmp0(s->base, bs->base) == 0)
                g_string_append_printf(levels, "%s%s: %s", levels->len ? ", " : "", s->load,
                                       s->label);
        }
        g_string_append_printf(o, "baseline: %s at each load level (%s)\n", bs->base,
                               levels->str);
    } else
        g_string_append_printf(o, "baseline: %s\n", bs->label);
    if (c->baseline_note)
        wrapped(o, t, "NOTE: ", c->baseline_note, 6);
    g_string_append_printf(o, "significance: %s, two-sided, per-repetition values vs the baseline\n",
                           rv_result_stats_test_name(c->test));
    if (small)
        g_string_append(marks, ", ? n too small");
    wrapped(o, t, "marks: ", marks->str, 7);
    for (guint s = 0; s < c->scens->len; s++)
        if (untrusted(c, s)) {
            g_string_append(o, "marks: ! a store that is not trusted (reasons above)\n");
            break;
        }
    if (small) {
        guint k = rv_result_stats_min_n(c->test, RV_COMPARE_ALPHA);
        g_autofree char *why = g_strdup_printf(
            "n too small for %s (needs n >= %u): with %u and %u repetitions its "
            "smallest p is %.3g, so rows marked ? have no p-value",
            rv_result_stats_test_name(c->test), k, k - 1, k - 1,
            rv_result_stats_min_p(c->test, k - 1, k - 1));
        wrapped(o, t, "NOTE: ", why, 6);
    }
    if (any_row(c, cell_tcg))
        wrapped(o, t, "NOTE: ", "virt=tcg: the guest ran under QEMU's TCG emulator, not KVM; "
                "its latencies measure emulation, not what an RT guest would see on a "
                "KVM host", 6);
    if (any_row(c, cell_has_hist))
        g_string_append(o, "latency: percentiles of the histograms of all repetitions merged "
                        "(1 us buckets, nearest rank)\n");
    if (any_row(c, cell_beyond))
        wrapped(o, t, "NOTE: ", "<=N: the percentile lies beyond the histogram range; "
                "N is the largest latency seen, its upper bound", 6);
    /* SKIPPED scenarios once for the whole output */
    for (guint s = 0; s < c->scens->len; s++) {
        const Scen *sc = c->scens->pdata[s];
        gboolean all = c->groups->len > 0;
        for (guint g = 0; g < c->groups->len; g++)
            all &= rv_result_compare_skipped(c, g, s);
        if (g_strcmp0(sc->status, "skipped") == 0 && all) {
            g_autofree char *first = g_strdup_printf("  %-*s SKIPPED: ", t->w, sc->label);
            once(o, t, first, sc->reason ? sc->reason : "(no reason recorded)", 6);
        }
    }
}

/* ---- one (workload, target) section ---- */

static void
text_group_head(GString *o, Text *t, guint g)
{
    const RvComparison *c = t->c;
    const Group *gr = c->groups->pdata[g];
    gboolean tcg = FALSE;

    for (guint s = 0; s < c->scens->len; s++)
        tcg |= rv_result_compare_cell(c, g, s)->tcg;
    g_string_append_printf(o, "\n== %s on %s%s ==\n", gr->workload, gr->target,
                           tcg ? " [virt=tcg]" : "");
    if (gr->metrics->len == 0) {
        /* no repetition of this workload succeeded anywhere */
        g_string_append(o, "no values:\n");
        for (guint s = 0; s < c->scens->len; s++) {
            const Scen *sc = c->scens->pdata[s];
            const Cell *ce = rv_result_compare_cell(c, g, s);
            if (ce->failed) {
                g_autofree char *first = g_strdup_printf("  %-*s %u repetition(s) failed, first: ",
                                                         t->w, sc->label, ce->failed);
                wrapped(o, t, first, ce->first_failure ? ce->first_failure
                                                       : "(no reason recorded)", 6);
            }
        }
    }
    /* failed repetitions once per section, with the first reason */
    for (guint s = 0; gr->metrics->len && s < c->scens->len; s++) {
        const Scen *sc = c->scens->pdata[s];
        const Cell *ce = rv_result_compare_cell(c, g, s);
        if (ce->failed) {
            g_autofree char *first = g_strdup_printf("  %-*s (%u failed) first: ", t->w,
                                                     sc->label, ce->failed);
            wrapped(o, t, first, ce->first_failure ? ce->first_failure
                                                   : "(no reason recorded)", 6);
        }
    }
    /* a scenario SKIPPED for this workload only (not listed in the head) */
    for (guint s = 0; s < c->scens->len; s++) {
        const Scen *sc = c->scens->pdata[s];
        if (rv_result_compare_skipped(c, g, s)) {
            g_autofree char *first = g_strdup_printf("  %-*s SKIPPED: ", t->w, sc->label);
            once(o, t, first, sc->reason ? sc->reason : "(no reason recorded)", 6);
        }
    }
}

/* the summary: scenarios as rows, a column group "mean (change%) better|worse
 * mark" per metric, in blocks that fit the width */
static void
text_summary(GString *o, Text *t, guint g)
{
    const RvComparison *c = t->c;
    const Group *gr = c->groups->pdata[g];
    guint per = MAX(1, ((int) t->width - prefix_width(t)) / SUM_GROUP);

    for (guint m0 = 0; m0 < gr->metrics->len; m0 += per) {
        guint m1 = MIN(gr->metrics->len, m0 + per);

        g_string_append_c(o, '\n');
        head_prefix(o, t, gr->target);
        for (guint m = m0; m < m1; m++) {
            g_autofree char *title = metric_title(gr, gr->metrics->pdata[m]);
            int tw = SUM_GROUP - 5 - 1 - SUM_WORD;

            /* over its value and change: without the unit where it is too
             * long ("events_per_s [events/s]"), the detail table has it */
            if ((int) strlen(title) > tw) {
                g_free(title);
                title = g_strndup(gr->metrics->pdata[m], tw);
            }
            g_string_append_printf(o, " %*s%*s", tw, title, 4 + 1 + SUM_WORD, "");
        }
        end_line(o);
        for (guint s = 0; s < c->scens->len; s++) {
            const Cell *ce = rv_result_compare_cell(c, g, s);
            if (rv_result_compare_skipped(c, g, s) || (ce->ok == 0 && ce->failed == 0))
                continue;
            row_prefix(o, t, ((Scen *) c->scens->pdata[s])->label, ce->ok,
                       rv_result_compare_virt(ce), untrusted(c, s));
            for (guint m = m0; m < m1; m++) {
                Row row;
                g_autofree char *ch = NULL;
                rv_result_compare_row(c, g, s, gr->metrics->pdata[m], &row);
                fmt_num(o, SUM_VALUE, row.has ? row.agg : NAN);
                ch = rv_result_compare_is_baseline(c, s) ? g_strdup("base")
                   : isfinite(row.change) ? g_strdup_printf("%+.1f%%", row.change) : g_strdup("-");
                g_string_append_printf(o, " (%*s) %-*s %-3s", SUM_CHANGE, ch, SUM_WORD,
                                       !row.has || !isfinite(row.change) || row.change == 0 ? ""
                                       : (row.change > 0) == row.higher_better ? "better"
                                                                               : "worse",
                                       rv_result_compare_sig_mark(&row));
            }
            end_line(o);
        }
    }
}

/* the widths of a detail table; min and max go when they do not fit */
static gboolean
detail_minmax(const Text *t)
{
    return prefix_width(t) + 3 * 10 + 2 * 7 + 2 * 10 + 9 + 14 <= (int) t->width;
}

/* one metric's table: a row per scenario */
static void
text_metric(GString *o, Text *t, guint g, const char *metric, gboolean qualify)
{
    const RvComparison *c = t->c;
    const Group *gr = c->groups->pdata[g];
    g_autofree char *t0 = metric_title(gr, metric);
    g_autofree char *title = qualify ? g_strdup_printf("%s %s", t0, gr->target) : g_strdup(t0);
    gboolean minmax = detail_minmax(t);
    g_autoptr(GString) notes = g_string_new(NULL);
    static const char *const agg_names[] = { "mean", "hmean", "max", "sum" };
    gpointer agg = g_hash_table_lookup(gr->aggregate, metric);

    g_string_append_c(o, '\n');
    head_prefix(o, t, title);
    /* the first column is the repetitions' aggregate (contract 1: the
     * harmonic mean of a rate), stddev/SEM those of the values */
    g_string_append_printf(o, " %9s %9s %9s %6s %6s",
                           agg ? agg_names[GPOINTER_TO_INT(agg) - 1] : "mean",
                           "stddev", "SEM", "std%", "sem%");
    if (minmax)
        g_string_append_printf(o, " %9s %9s", "min", "max");
    g_string_append_printf(o, " %8s %9s %-3s", "change", "p", "sig");
    end_line(o);
    for (guint s = 0; s < c->scens->len; s++) {
        const Scen *sc = c->scens->pdata[s];
        const Cell *ce = rv_result_compare_cell(c, g, s);
        Row row;

        if (rv_result_compare_skipped(c, g, s))
            continue;   /* listed once in the head */
        rv_result_compare_row(c, g, s, metric, &row);
        if (!row.has && has_cells(c, s))
            continue;   /* its cells SCENARIO@LOAD are the rows */
        if (!row.has) {
            g_string_append_printf(notes, "  %s: no values of %s%s\n", sc->label, title,
                                   ce->failed ? " (its repetitions failed)" : "");
            continue;
        }
        row_prefix(o, t, sc->label, row.sum.n, rv_result_compare_virt(ce), untrusted(c, s));
        fmt_num(o, 9, row.agg);
        fmt_num(o, 9, row.sum.stddev);
        fmt_num(o, 9, row.sum.sem);
        fmt_pct(o, 6, row.std_pct, FALSE);
        fmt_pct(o, 6, row.sem_pct, FALSE);
        if (minmax) {
            fmt_num(o, 9, row.sum.min);
            fmt_num(o, 9, row.sum.max);
        }
        if (rv_result_compare_is_baseline(c, s))
            g_string_append_printf(o, " %8s", "(base)");
        else
            fmt_pct(o, 8, row.change, TRUE);
        if (row.tested)
            g_string_append_printf(o, " %9.3g %-3s", row.t.p, rv_result_compare_sig_mark(&row));
        else if (row.too_small)
            g_string_append_printf(o, " %9s %-3s", "n small", "?");
        else
            g_string_append_printf(o, " %9s %-3s", rv_result_compare_is_baseline(c, s) ? "" : row.untested, "");
        end_line(o);
    }
    if (notes->len)
        g_string_append_printf(o, "\n%s", notes->str);
}

/* "latency [us]", with the target when several groups have histograms
 * (so that no header line is printed twice) */
static char *
latency_title(const RvComparison *c, guint g)
{
    guint with_hist = 0;

    for (guint o = 0; o < c->groups->len; o++)
        for (guint s = 0; s < c->scens->len; s++)
            if (rv_result_compare_cell(c, o, s)->hist) {
                with_hist++;
                break;
            }
    return with_hist > 1 ? g_strdup_printf("latency [us] %s",
                                           ((Group *) c->groups->pdata[g])->target)
                         : g_strdup("latency [us]");
}

/* --within: the share of samples below each threshold (latencytest's
 * report), from the merged histograms */
static void
text_within(GString *o, Text *t, guint g)
{
    const RvComparison *c = t->c;
    g_autofree char *lt = latency_title(c, g);
    /* "within [%]", with the target where the latency title has it */
    g_autofree char *title = g_strdup_printf("within [%%]%s", lt + strlen("latency [us]"));

    if (!t->opts->n_within)
        return;
    g_string_append_c(o, '\n');
    head_prefix(o, t, title);
    for (guint k = 0; k < t->opts->n_within; k++) {
        g_autofree char *h = g_strdup_printf("<%gus", t->opts->within_us[k]);
        g_string_append_printf(o, " %9s", h);
    }
    end_line(o);
    for (guint s = 0; s < c->scens->len; s++) {
        const Cell *ce = rv_result_compare_cell(c, g, s);
        if (!ce->hist)
            continue;
        row_prefix(o, t, ((Scen *) c->scens->pdata[s])->label, ce->hist_reps,
                   rv_result_compare_virt(ce), untrusted(c, s));
        for (guint k = 0; k < t->opts->n_within; k++) {
            gboolean bound;
            double pct = rv_result_compare_within(ce->hist, t->opts->within_us[k], &bound);
            g_autofree char *v = !isfinite(pct) ? g_strdup("-")
                               : g_strdup_printf("%s%.3f", bound ? ">=" : "", pct);
            g_string_append_printf(o, " %9s", v);
        }
        end_line(o);
    }
}

/* percentiles from merged histograms, when any scenario has one */
static void
text_latency(GString *o, Text *t, guint g)
{
    const RvComparison *c = t->c;
    g_autofree char *title = latency_title(c, g);
    g_autoptr(GString) notes = g_string_new(NULL);
    gboolean any = FALSE;

    for (guint s = 0; s < c->scens->len; s++)
        any |= rv_result_compare_cell(c, g, s)->hist != NULL;
    if (!any)
        return;
    g_string_append_c(o, '\n');
    head_prefix(o, t, title);
    g_string_append_printf(o, " %11s %8s", "samples", "overflow");
    for (guint k = 0; k < RV_COMPARE_N_PCTS; k++)
        g_string_append_printf(o, " %8s", rv_result_compare_pct_names[k]);
    g_string_append_printf(o, " %8s", "max");
    end_line(o);
    for (guint s = 0; s < c->scens->len; s++) {
        const Scen *sc = c->scens->pdata[s];
        const Cell *ce = rv_result_compare_cell(c, g, s);

        if (!ce->hist) {
            if (ce->ok)
                g_string_append_printf(notes, "  %s: no histogram recorded\n", sc->label);
            continue;
        }
        row_prefix(o, t, sc->label, ce->hist_reps, rv_result_compare_virt(ce), untrusted(c, s));
        g_string_append_printf(o, " %11" G_GUINT64_FORMAT " %8" G_GUINT64_FORMAT,
                               rv_result_histogram_total(ce->hist), ce->hist->overflows);
        for (guint k = 0; k < RV_COMPARE_N_PCTS; k++) {
            gint64 us;
            gboolean beyond;
            if (rv_result_histogram_percentile(ce->hist, rv_result_compare_pcts[k], &us,
                                               &beyond, NULL) < 0) {
                g_string_append_printf(o, " %8s", "-");
            } else {
                g_autofree char *b = g_strdup_printf("%s%" G_GINT64_FORMAT,
                                                     beyond ? "<=" : "", us);
                g_string_append_printf(o, " %8s", b);
            }
        }
        if (ce->hist->max_us >= 0)
            g_string_append_printf(o, " %8" G_GINT64_FORMAT, ce->hist->max_us);
        else
            g_string_append_printf(o, " %8s", "-");
        if (ce->hist_missing)
            g_string_append_printf(notes, "  %s: %u of %u repetitions without histogram "
                                   "(n counts those with one)\n", sc->label,
                                   ce->hist_missing, ce->hist_missing + ce->hist_reps);
        end_line(o);
    }
    if (notes->len)
        g_string_append_printf(o, "\n%s", notes->str);
    text_within(o, t, g);
}

/* a metric name in several groups gets the target in its table title, so
 * that no header line is printed twice */
static gboolean
metric_in_other_group(const RvComparison *c, guint g, const char *metric)
{
    for (guint o = 0; o < c->groups->len; o++) {
        const Group *gr = c->groups->pdata[o];
        if (o != g && g_hash_table_contains(gr->units, metric))
            return TRUE;
    }
    return FALSE;
}

static int
label_width(const RvComparison *c)
{
    int w = 8;

    for (guint i = 0; i < c->scens->len; i++)
        w = MAX(w, (int) strlen(((Scen *) c->scens->pdata[i])->label));
    /* the first column's titles, two columns left of the labels */
    for (guint g = 0; g < c->groups->len; g++) {
        const Group *gr = c->groups->pdata[g];
        w = MAX(w, (int) strlen(gr->target) - 2);
        g_autofree char *lt = latency_title(c, g);
        w = MAX(w, (int) strlen(lt) - 2);
        for (guint m = 0; m < gr->metrics->len; m++) {
            const char *metric = gr->metrics->pdata[m];
            g_autofree char *title = metric_title(gr, metric);
            gsize l = strlen(title);
            if (metric_in_other_group(c, g, metric))
                l += 1 + strlen(gr->target);
            w = MAX(w, (int) l - 2);
        }
    }
    return MIN(w, 40);
}

/* ---- the answer: the summary table, the sentences, the scenarios ---- */

/* one summary cell: "41", "44 +3 worse ~", "123.4 -2.1% better *" */
static char *
answer_cell(const SumCol *col, const SumCell *cell)
{
    GString *o = g_string_new(NULL);

    if (!cell->has)
        return g_string_free(o, TRUE), g_strdup("-");
    if (col->kind != SUM_METRIC)
        g_string_append_printf(o, "%s%.0f", cell->beyond ? "<=" : "", cell->value);
    else if (fabs(cell->value) >= 1000)
        g_string_append_printf(o, "%.0f", cell->value);
    else if (fabs(cell->value) >= 10)
        g_string_append_printf(o, "%.1f", cell->value);
    else
        g_string_append_printf(o, "%.3g", cell->value);
    if (cell->is_ref) {
        g_string_append(o, " (base)");
    } else if (isfinite(cell->change)) {
        if (col->change_pct)
            g_string_append_printf(o, " %+.1f%%", cell->change);
        else if (col->kind == SUM_METRIC)
            g_string_append_printf(o, " %+.1f", cell->change);
        else
            g_string_append_printf(o, " %+.0f", cell->change);
        g_string_append_printf(o, " %s", rv_result_compare_summary_word(cell));
        if (*rv_result_compare_summary_mark(cell))
            g_string_append_printf(o, " %s", rv_result_compare_summary_mark(cell));
    }
    return g_string_free(o, FALSE);
}

static gboolean
answer_row(const RvComparison *c, guint s)
{
    gboolean all_skipped = TRUE;
    guint ok = 0;

    for (guint g = 0; g < c->groups->len; g++) {
        ok = MAX(ok, rv_result_compare_cell(c, g, s)->ok);
        all_skipped &= rv_result_compare_skipped(c, g, s);
    }
    return !all_skipped && ok > 0;
}

/* Returns: whether a cell is marked "?" (n too small). */
static gboolean
text_answer_table(GString *o, Text *t, const RvCompareSummary *sum)
{
    const RvComparison *c = t->c;
    GPtrArray *cols = rv_result_compare_summary_cols(sum);
    guint nc = cols->len, c0 = 0;
    g_autoptr(GPtrArray) texts = g_ptr_array_new_with_free_func(g_free);
    g_autofree int *widths = g_new0(int, nc + 1);
    g_autofree char **titles = g_new0(char *, nc + 1);
    gboolean small = FALSE;

    for (guint k = 0; k < nc; k++) {
        const SumCol *col = cols->pdata[k];

        /* one word a header cell, the guest above it (tests/test-compare.c
         * reads a header's words as its cells) */
        titles[k] = col->unit && *col->unit && !g_str_equal(col->unit, "%")
                    ? g_strdup_printf("%s [%s]", col->what, col->unit) : g_strdup(col->what);
        widths[k] = MAX(strlen(titles[k]), strlen(col->who));
    }
    for (guint s = 0; s < c->scens->len; s++)
        for (guint k = 0; k < nc; k++) {
            SumCell cell;
            char *txt;

            rv_result_compare_summary_cell(c, sum, k, s, rv_result_compare_baseline_of(c, s), &cell);
            txt = answer_cell(cols->pdata[k], &cell);
            small |= answer_row(c, s) && g_str_equal(rv_result_compare_summary_mark(&cell), "?");
            widths[k] = MAX(widths[k], (int) strlen(txt));
            g_ptr_array_add(texts, txt);
        }
    while (c0 < nc) {
        int used = prefix_width(t);
        guint c1 = c0;

        while (c1 < nc && (c1 == c0 || used + 2 + widths[c1] <= (int) t->width))
            used += 2 + widths[c1++];
        g_string_append_c(o, '\n');
        g_string_append_printf(o, "%*s", prefix_width(t), "");
        for (guint k = c0; k < c1; k++)
            g_string_append_printf(o, "  %*s", widths[k],
                                   ((SumCol *) cols->pdata[k])->who);
        end_line(o);
        head_prefix(o, t, "scenario");
        for (guint k = c0; k < c1; k++)
            g_string_append_printf(o, "  %*s", widths[k], titles[k]);
        end_line(o);
        for (guint s = 0; s < c->scens->len; s++) {
            guint ok = 0;

            if (!answer_row(c, s))
                continue;
            for (guint g = 0; g < c->groups->len; g++)
                ok = MAX(ok, rv_result_compare_cell(c, g, s)->ok);
            row_prefix(o, t, ((Scen *) c->scens->pdata[s])->label, ok, "", untrusted(c, s));
            for (guint k = c0; k < c1; k++)
                g_string_append_printf(o, "  %*s", widths[k],
                                       (char *) texts->pdata[s * nc + k]);
            end_line(o);
        }
        c0 = c1;
    }
    for (guint k = 0; k < nc; k++)
        g_free(titles[k]);
    return small;
}

/* The head of the output: the answer first (the summary, the sentences,
 * what each scenario is), the details after it. */
static void
text_answer(GString *o, Text *t)
{
    const RvComparison *c = t->c;
    g_autoptr(RvCompareSummary) sum = rv_result_compare_summary_new(c, t->opts->per_guest);
    g_autoptr(GPtrArray) answers = NULL;
    g_autoptr(GString) legend = g_string_new(
        "better / worse: the change against the baseline (lower latency and cpu% are better, "
        "higher throughput is better; latency in us, cpu% in points, throughput in %); * p<0.05, "
        "** p<0.01, *** p<0.001: significant; ~ within the noise");
    gboolean any = FALSE;

    if (!rv_result_compare_summary_cols(sum)->len)
        return;
    g_string_append(o, "\n== the answer: each scenario against the baseline at its load level ==\n");
    if (text_answer_table(o, t, sum))
        g_string_append(legend, "; ? too few repetitions for the test");
    for (guint s = 0; s < c->scens->len; s++)
        if (answer_row(c, s) && untrusted(c, s)) {
            g_string_append(legend, "; ! an untrusted store");
            break;
        }
    g_string_append_c(o, '\n');
    wrapped(o, t, "marks: ", legend->str, 7);
    answers = rv_result_compare_answers(c, sum);
    for (guint i = 0; i < answers->len; i++)
        wrapped(o, t, "  ", answers->pdata[i], 4);
    /* what each scenario of the matrix is, once */
    for (guint s = 0; s < c->scens->len; s++) {
        const Scen *sc = c->scens->pdata[s];
        g_autofree char *first = NULL, *key = NULL;

        if (!sc->description || sc->load)
            continue;
        if (!any)
            g_string_append(o, "scenarios:\n");
        any = TRUE;
        first = g_strdup_printf("  %-*s ", t->w, sc->name);
        /* the settings rtvirt run adds, "(smt=on coresched=vm ...)", are in
         * --json and `run --plan`; here the author's words */
        key = g_strdup(sc->description);
        if (strstr(key, " (smt=") && g_str_has_suffix(key, ")"))
            *strstr(key, " (smt=") = '\0';
        once(o, t, first, key, 6);
    }
}

/* ---- per load level: mean [std% / sem%] change cpu% ---- */

static gboolean
any_load(const RvComparison *c)
{
    for (guint s = 0; s < c->scens->len; s++)
        if (((Scen *) c->scens->pdata[s])->load)
            return TRUE;
    return FALSE;
}

/* the cell of scenario @base at load @load of store @store, or -1 */
static int
cell_at(const RvComparison *c, guint store, const char *base, const char *load)
{
    for (guint s = 0; s < c->scens->len; s++) {
        const Scen *sc = c->scens->pdata[s];

        if (sc->store == store && g_strcmp0(sc->load, load) == 0 && g_str_equal(sc->base, base))
            return (int) s;
    }
    return -1;
}

/* one metric: rows the load levels, per scenario "mean [std% / sem%]
 * change cpu%" (the layout of the core-scheduling series' sysbench/gemm
 * tables) */
static void
text_levels_metric(GString *o, Text *t, guint g, const char *metric, int cpu_group)
{
    const RvComparison *c = t->c;
    const Group *gr = c->groups->pdata[g];
    g_autoptr(GPtrArray) bases = g_ptr_array_new();   /* Scen* of each scenario, first cell */
    g_autoptr(GPtrArray) loads = g_ptr_array_new();   /* char* */
    const Scen *ref0 = c->scens->pdata[c->baseline];
    g_autofree char *title = metric_title(gr, metric);
    const int cw = 44;
    guint per = MAX(1, ((int) t->width - t->w - 2) / (cw + 2));

    for (guint s = 0; s < c->scens->len; s++) {
        const Scen *sc = c->scens->pdata[s];
        gboolean seen_b = FALSE, seen_l = FALSE;

        if (!sc->load || sc->store != ref0->store || !values_any(c, g, s, metric))
            continue;
        for (guint i = 0; i < bases->len; i++)
            seen_b |= g_str_equal(((Scen *) bases->pdata[i])->base, sc->base);
        for (guint i = 0; i < loads->len; i++)
            seen_l |= g_str_equal(loads->pdata[i], sc->load);
        if (!seen_b)
            g_ptr_array_add(bases, (gpointer) sc);
        if (!seen_l)
            g_ptr_array_add(loads, sc->load);
    }
    if (!bases->len)
        return;
    g_string_append_printf(o, "\n%s of %s per load level: mean [std%% / sem%%] change cpu%%\n",
                           title, gr->target);
    for (guint b0 = 0; b0 < bases->len; b0 += per) {
        guint b1 = MIN(bases->len, b0 + per);

        /* the metric heads its level column: no header line twice */
        g_string_append_printf(o, "  %-*.*s", t->w, t->w, metric);
        for (guint i = b0; i < b1; i++)
            g_string_append_printf(o, "  %*s", cw, ((Scen *) bases->pdata[i])->base);
        end_line(o);
        for (guint l = 0; l < loads->len; l++) {
            g_string_append_printf(o, "  %-*s", t->w, (char *) loads->pdata[l]);
            for (guint i = b0; i < b1; i++) {
                const Scen *bs = bases->pdata[i];
                int s = cell_at(c, bs->store, bs->base, loads->pdata[l]);
                g_autoptr(GString) cell = g_string_new(NULL);
                Row row, cpu;

                if (s < 0) {
                    g_string_append_printf(o, "  %*s", cw, "-");
                    continue;
                }
                rv_result_compare_row(c, g, (guint) s, metric, &row);
                if (!row.has) {
                    g_string_append_printf(o, "  %*s", cw, "-");
                    continue;
                }
                g_string_append_printf(cell, fabs(row.agg) >= 10 ? "%.1f [%4.1f%%/%4.1f%%]"
                                                                 : "%.3g [%4.1f%%/%4.1f%%]", row.agg,
                                       isfinite(row.std_pct) ? row.std_pct : 0,
                                       isfinite(row.sem_pct) ? row.sem_pct : 0);
                if (rv_result_compare_is_baseline(c, (guint) s))
                    g_string_append(cell, "    base           ");
                else if (isfinite(row.change))
                    g_string_append_printf(cell, " %+6.1f%% %-6s %-3s", row.change,
                                           row.change == 0 ? "same"
                                           : (row.change > 0) == row.higher_better ? "better"
                                                                                   : "worse",
                                           rv_result_compare_sig_mark(&row));
                if (cpu_group >= 0) {
                    rv_result_compare_row(c, (guint) cpu_group, (guint) s,
                                          RV_STORE_METRIC_CPU_PCT, &cpu);
                    if (cpu.has)
                        g_string_append_printf(cell, " %5.1f%%", cpu.agg);
                }
                g_string_append_printf(o, "  %*s", cw, cell->str);
            }
            end_line(o);
        }
    }
}

static void
text_levels(GString *o, Text *t)
{
    const RvComparison *c = t->c;
    int cpu_group = -1;

    if (!any_load(c))
        return;
    for (guint g = 0; g < c->groups->len && cpu_group < 0; g++)
        if (g_hash_table_contains(((Group *) c->groups->pdata[g])->units, RV_STORE_METRIC_CPU_PCT))
            cpu_group = (int) g;
    g_string_append(o, "\n== per load level (change against the baseline at the level; "
                       "cpu%: the host's) ==\n");
    for (guint g = 0; g < c->groups->len; g++) {
        const Group *gr = c->groups->pdata[g];

        for (guint m = 0; m < gr->metrics->len; m++)
            if (is_throughput(gr, gr->metrics->pdata[m]))
                text_levels_metric(o, t, g, gr->metrics->pdata[m], cpu_group);
    }
}

/* hosts outside the others' spread, one line each */
static void
text_outliers(GString *o, Text *t)
{
    const RvComparison *c = t->c;
    g_autoptr(GPtrArray) out = NULL;

    if (c->stores->len < 2)
        return;
    out = rv_result_compare_outliers(c);
    g_string_append(o, "\n== outliers across hosts ==\n");
    if (!out->len)
        g_string_append(o, "  none named (a host is one when its value lies outside the "
                        "repetitions of at least 2 other hosts)\n");
    for (guint i = 0; i < out->len; i++) {
        const Outlier *ol = out->pdata[i];
        const Scen *sc = c->scens->pdata[ol->scen];
        const Group *gr = c->groups->pdata[ol->group];
        g_autofree char *title = metric_title(gr, ol->metric);
        g_autofree char *first = g_strdup_printf("  %s: ", (char *) c->hosts->pdata[sc->store]);
        g_autofree char *text = g_strdup_printf(
            "%s of %s in %s is %g, outside the %u other host(s)' %g .. %g", title, gr->target,
            sc->name, ol->value, ol->others, ol->lo, ol->hi);
        wrapped(o, t, first, text, 6);
    }
}

/* The stories of the worst spikes per scenario (results/attribution.h),
 * when a store has any: what ran on the vCPU's host CPU around them. */
static void
text_attribution(GString *o, Text *t)
{
    const RvComparison *c = t->c;
    gboolean head = FALSE;

    for (guint s = 0; s < c->scens->len; s++) {
        const Scen *sc = c->scens->pdata[s];
        const char *skipped;
        g_autoptr(GPtrArray) st = rv_result_compare_stories(c, s, &skipped);

        if (!st->len && !skipped)
            continue;
        if (!head)
            g_string_append_printf(o, "\n== spike attribution (worst %d per scenario: host "
                                   "events on the vCPU's host CPU around them) ==\n",
                                   RV_COMPARE_STORIES);
        head = TRUE;
        if (!st->len) {
            g_autofree char *first = g_strdup_printf("  %s: ", sc->label);

            wrapped(o, t, first, skipped, 6);
        }
        for (guint i = 0; i < st->len; i++) {
            const RvAttrStory *a = st->pdata[i];
            g_autofree char *first = g_strdup_printf("  %s r%d %s %" G_GINT64_FORMAT " us: ",
                                                     sc->label, a->repetition, a->target,
                                                     a->latency_us);

            wrapped(o, t, first, a->story, 6);
        }
    }
}

/* Co-scheduling shares per scenario and VM (results/cosched.h): what the
 * SMT sibling ran while the VM's threads ran, mean over the repetitions. */
static void
text_cosched(GString *o, Text *t)
{
    const RvComparison *c = t->c;
    gboolean head = FALSE;

    for (guint s = 0; s < c->scens->len; s++) {
        const Scen *sc = c->scens->pdata[s];
        const char *skipped;
        g_autoptr(GPtrArray) vm = rv_result_compare_cosched(c, s, &skipped);

        if (!vm->len && !skipped)
            continue;
        if (!head)
            g_string_append(o, "\n== co-scheduling (what the SMT sibling ran while a VM's "
                               "threads ran, % of their running time, mean of n) ==\n");
        head = TRUE;
        if (!vm->len) {
            g_autofree char *first = g_strdup_printf("  %s: ", sc->label);

            wrapped(o, t, first, skipped, 6);
            continue;
        }
        for (guint i = 0; i < vm->len; i++) {
            const RvCoschedSummary *v = vm->pdata[i];
            g_autofree char *sd = isnan(v->foreign_sd) ? g_strdup("")
                                                       : g_strdup_printf(" (sd %.2f)", v->foreign_sd);

            g_string_append_printf(o, "  %s %s n=%u: same VM %.2f %%, idle %.2f %%, foreign "
                                      "%.2f %%%s, unknown %.2f %%; running %.3f s\n",
                                   sc->label, v->vm, v->n, v->same_pct, v->idle_pct,
                                   v->foreign_pct, sd, v->unknown_pct, v->run_s);
        }
    }
}

/* one line per verdict (wrapped), then the count */
static void
text_budgets(GString *o, Text *t)
{
    const RvComparison *c = t->c;
    guint n[3] = { 0 };

    if (!c->verdicts)
        return;
    g_string_append(o, "\n== budgets ==\n");
    /* where they were written, each file once */
    for (guint i = 0; c->budgets && i < c->budgets->len; i++) {
        const RvBudget *b = c->budgets->pdata[i];
        g_autofree char *file = b->source ? g_strdup(b->source) : NULL;
        char *colon = file ? strrchr(file, ':') : NULL;
        if (colon && colon != file && g_ascii_isdigit(colon[1]))
            *colon = '\0';
        if (file)
            once(o, t, "from: ", file, 6);
    }
    for (guint i = 0; i < c->verdicts->len; i++) {
        const Verdict *v = c->verdicts->pdata[i];
        const RvBudget *b = v->budget;
        g_autofree char *first = g_strdup_printf("  %-10s ", rv_result_compare_verdict_name(v->status));
        g_autoptr(GString) text = g_string_new(NULL);

        n[v->status]++;
        if (!g_str_equal(b->name, b->text))
            g_string_append_printf(text, "%s: ", b->name);
        g_string_append(text, b->text);
        if (v->group >= 0) {
            const Group *gr = c->groups->pdata[v->group];
            const Scen *sc = c->scens->pdata[v->scen];
            g_string_append_printf(text, " on %s, %s: ", gr->target, sc->label);
            if (b->relative)
                g_string_append_printf(text, "%+.1f%%", v->value);
            else
                g_string_append_printf(text, "%g", v->value);
            g_string_append_printf(text, " (%s)", v->what);
        }
        /* the store's reason is the same for each of its verdicts: once,
         * after them */
        if (v->reason && g_str_has_prefix(v->reason, "the store is not trusted"))
            g_string_append(text, ": the store is not trusted");
        else if (v->reason)
            g_string_append_printf(text, ": %s", v->reason);
        wrapped(o, t, first, text->str, 13);
    }
    for (guint i = 0; i < c->verdicts->len; i++) {
        const Verdict *v = c->verdicts->pdata[i];
        if (v->reason && g_str_has_prefix(v->reason, "the store is not trusted"))
            once(o, t, "NOT JUDGED: ", v->reason, 6);
    }
    g_string_append_printf(o, "budgets: %u PASS, %u FAIL, %u NOT JUDGED%s\n",
                           n[RV_VERDICT_PASS], n[RV_VERDICT_FAIL], n[RV_VERDICT_NOT_JUDGED],
                           n[RV_VERDICT_FAIL] + n[RV_VERDICT_NOT_JUDGED]
                           ? " (a budget that is not a PASS fails the comparison: exit 1)" : "");
}

char *
rv_result_compare_format_text(const RvComparison *c, const RvCompareOptions *opts)
{
    GString *o = g_string_new(NULL);
    Text t = {
        .c = c,
        .opts = opts,
        .width = opts->wide ? G_MAXINT : opts->width ? opts->width : RV_COMPARE_WIDTH,
        .w = label_width(c),
        .seen = g_hash_table_new_full(g_str_hash, g_str_equal, g_free, NULL),
    };
    gboolean cpu_table_done = FALSE;

    text_stores(o, &t);
    text_answer(o, &t);
    text_head(o, &t);
    text_levels(o, &t);
    for (guint g = 0; g < c->groups->len; g++) {
        const Group *gr = c->groups->pdata[g];

        text_group_head(o, &t, g);
        text_summary(o, &t, g);
        for (guint m = 0; m < gr->metrics->len; m++) {
            const char *metric = gr->metrics->pdata[m];

            /* every neighbour of a repetition carries the same window's
             * host cpu%: its table once, under the first */
            if (g_str_equal(metric, RV_STORE_METRIC_CPU_PCT) && cpu_table_done)
                continue;
            cpu_table_done |= g_str_equal(metric, RV_STORE_METRIC_CPU_PCT);
            text_metric(o, &t, g, metric, metric_in_other_group(c, g, metric));
        }
        text_latency(o, &t, g);
    }
    text_outliers(o, &t);
    text_attribution(o, &t);
    text_cosched(o, &t);
    text_budgets(o, &t);
    g_hash_table_unref(t.seen);
    /* scenario names, reasons and store paths may quote what a guest
     * printed: no raw control bytes to the terminal (util/escape.h) */
    return rv_escape_text(g_string_free(o, FALSE));
}
