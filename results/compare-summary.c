/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * results/compare-summary.c: the answer a comparison opens with (see
 * rv_result_compare_summary_new() in compare-priv.h): per scenario the RT
 * guests' tail latency, each neighbour's throughput and the host cpu%,
 * each against the baseline at the same load level with its direction
 * (better / worse) and whether the test finds it outside the noise; then
 * one sentence per option.
 *
 * The RT columns come from the cyclictest histograms: per repetition the
 * RT guests' "latency" histograms merged (all their vCPUs: what an RT
 * user sees is the worst guest), its p99.99 and max, tested repetition
 * against repetition like every other metric; the figure shown is that
 * of all repetitions merged, as the latency table's.  Memory: one
 * repetition's histogram at a time beside the scenario's merged one.
 */
#include <math.h>
#include <string.h>
#include <sys/stat.h>

#include <glib/gstdio.h>
#include <json-glib/json-glib.h>

#include "results/compare-priv.h"
#include "util/ini.h"
#include "util/json.h"

struct RvCompareSummary {
    GPtrArray *cols;          /* SumCol* */
    guint nscens;
    SumSeries *rt;            /* cols->len x nscens; NULL entries for metric columns */
};

static void
series_clear(SumSeries *se)
{
    if (se->p9999)
        g_array_unref(se->p9999);
    if (se->max)
        g_array_unref(se->max);
    rv_result_histogram_free(se->merged);
}

static void
col_free(SumCol *col)
{
    g_free(col->title);
    g_free(col->who);
    g_free(col->what);
    g_free(col->key);
    g_free(col->unit);
    g_free(col);
}

void
rv_result_compare_summary_free(RvCompareSummary *sum)
{
    if (!sum)
        return;
    for (guint i = 0; sum->rt && i < sum->cols->len * sum->nscens; i++)
        series_clear(&sum->rt[i]);
    g_free(sum->rt);
    g_ptr_array_unref(sum->cols);
    g_free(sum);
}

/* a group the RT columns read: a guest's latency histograms */
static gboolean
group_is_rt(const RvComparison *c, guint g)
{
    const Group *gr = c->groups->pdata[g];

    if (!g_str_has_prefix(gr->target, "guest:"))
        return FALSE;
    for (guint s = 0; s < c->scens->len; s++)
        if (rv_result_compare_cell(c, g, s)->hist)
            return TRUE;
    return FALSE;
}

static gboolean
record_in(const RvComparison *c, const RvStoreRecord *r, const Scen *sc, int group)
{
    const char *target = r->target ? r->target : "-";

    if (!g_str_equal(r->status, "ok") || !g_str_equal(r->scenario, sc->name))
        return FALSE;
    for (guint g = 0; g < c->groups->len; g++) {
        const Group *gr = c->groups->pdata[g];

        if (g_str_equal(gr->workload, r->workload) && g_str_equal(gr->target, target))
            return group >= 0 ? (int) g == group : group_is_rt(c, g);
    }
    return FALSE;
}

static int
cmp_int(gconstpointer a, gconstpointer b)
{
    int x = *(const int *) a, y = *(const int *) b;

    return (x > y) - (x < y);
}

/* p99.99 and max per repetition of scenario @s, of the RT groups merged
 * (@group < 0) or of one */
static void
series_fill(const RvComparison *c, guint s, int group, SumSeries *se)
{
    const Scen *sc = c->scens->pdata[s];
    GPtrArray *recs = rv_result_store_get_records(c->stores->pdata[sc->store]);
    g_autoptr(GArray) reps = g_array_new(FALSE, FALSE, sizeof(int));

    se->p9999 = g_array_new(FALSE, FALSE, sizeof(double));
    se->max = g_array_new(FALSE, FALSE, sizeof(double));
    for (guint i = 0; i < recs->len; i++) {
        const RvStoreRecord *r = recs->pdata[i];
        gboolean seen = FALSE;

        if (!record_in(c, r, sc, group) || !rv_result_store_record_get_histogram(r, "latency"))
            continue;
        for (guint k = 0; k < reps->len && !seen; k++)
            seen = g_array_index(reps, int, k) == r->repetition;
        if (!seen)
            g_array_append_val(reps, r->repetition);
    }
    g_array_sort(reps, cmp_int);
    for (guint k = 0; k < reps->len; k++) {
        g_autoptr(RvHistogram) h = rv_result_histogram_new(0);
        gint64 us;
        double v;

        for (guint i = 0; i < recs->len; i++) {
            const RvStoreRecord *r = recs->pdata[i];

            if (r->repetition == g_array_index(reps, int, k) && record_in(c, r, sc, group) &&
                rv_result_store_record_get_histogram(r, "latency"))
                rv_result_histogram_merge(h, rv_result_store_record_get_histogram(r, "latency"));
        }
        if (rv_result_histogram_percentile(h, 99.99, &us, NULL, NULL) < 0)
            continue;
        v = (double) us;
        g_array_append_val(se->p9999, v);
        if (h->max_us >= 0) {
            v = (double) h->max_us;
            g_array_append_val(se->max, v);
        }
        if (!se->merged)
            se->merged = rv_result_histogram_new(0);
        rv_result_histogram_merge(se->merged, h);
    }
}

static SumCol *
col_new(SumKind kind, int group, const char *metric, char *title, const char *unit,
        gboolean higher, gboolean pct)
{
    SumCol *col = g_new0(SumCol, 1);

    col->kind = kind;
    col->group = group;
    col->metric = metric;
    col->title = title;
    col->who = g_strndup(title, strcspn(title, " "));
    col->what = g_strdup(title[strlen(col->who)] ? title + strlen(col->who) + 1 : "");
    col->unit = g_strdup(unit);
    col->higher_better = higher;
    col->change_pct = pct;
    col->key = g_strdup(title);
    g_strdelimit(col->key, " ", '_');
    return col;
}

static const char *
target_name(const Group *gr)
{
    return g_str_has_prefix(gr->target, "guest:") ? gr->target + 6 : gr->target;
}

/* the RT columns of @group (-1: merged) */
static void
add_rt_cols(RvCompareSummary *sum, int group, const char *who)
{
    g_ptr_array_add(sum->cols, col_new(SUM_RT_P9999, group, NULL,
                                       g_strdup_printf("%s p99.99", who), "us", FALSE, FALSE));
    g_ptr_array_add(sum->cols, col_new(SUM_RT_MAX, group, NULL,
                                       g_strdup_printf("%s max", who), "us", FALSE, FALSE));
}

RvCompareSummary *
rv_result_compare_summary_new(const RvComparison *c, gboolean per_guest)
{
    RvCompareSummary *sum = g_new0(RvCompareSummary, 1);
    int cpu_group = -1;
    guint n_rt = 0;

    sum->cols = g_ptr_array_new_with_free_func((GDestroyNotify) col_free);
    sum->nscens = c->scens->len;
    for (guint g = 0; g < c->groups->len; g++)
        n_rt += group_is_rt(c, g);
    if (n_rt && (!per_guest || n_rt == 1))
        add_rt_cols(sum, -1, "RT");
    for (guint g = 0; per_guest && n_rt > 1 && g < c->groups->len; g++)
        if (group_is_rt(c, g))
            add_rt_cols(sum, (int) g, target_name(c->groups->pdata[g]));
    for (guint g = 0; g < c->groups->len; g++) {
        const Group *gr = c->groups->pdata[g];

        for (guint m = 0; m < gr->metrics->len; m++) {
            const char *metric = gr->metrics->pdata[m];
            gboolean higher = GPOINTER_TO_INT(g_hash_table_lookup(gr->better, metric)) - 1 ==
                              RV_STORE_BETTER_HIGHER;

            if (higher)
                g_ptr_array_add(sum->cols, col_new(SUM_METRIC, (int) g, metric,
                                                   g_strdup_printf("%s %s", target_name(gr),
                                                                   metric),
                                                   g_hash_table_lookup(gr->units, metric),
                                                   TRUE, TRUE));
            else if (cpu_group < 0 && g_str_equal(metric, RV_STORE_METRIC_CPU_PCT))
                cpu_group = (int) g;
        }
    }
    /* every neighbour record of a repetition carries the same window's
     * host cpu%: one column */
    if (cpu_group >= 0)
        g_ptr_array_add(sum->cols, col_new(SUM_METRIC, cpu_group, RV_STORE_METRIC_CPU_PCT,
                                           g_strdup("host cpu%"), "%", FALSE, FALSE));
    sum->rt = g_new0(SumSeries, sum->cols->len * sum->nscens);
    for (guint k = 0; k < sum->cols->len; k++) {
        const SumCol *col = sum->cols->pdata[k];

        /* p99.99 and max share one series (the max column reads it) */
        if (col->kind != SUM_RT_P9999)
            continue;
        for (guint s = 0; s < sum->nscens; s++)
            series_fill(c, s, col->group, &sum->rt[k * sum->nscens + s]);
    }
    return sum;
}

GPtrArray *
rv_result_compare_summary_cols(const RvCompareSummary *sum)
{
    return sum->cols;
}

static const SumSeries *
series_of(const RvCompareSummary *sum, guint k, guint s)
{
    const SumCol *col = sum->cols->pdata[k];

    return &sum->rt[(col->kind == SUM_RT_MAX ? k - 1 : k) * sum->nscens + s];
}

/* the figure of an RT column: of all repetitions merged */
static gboolean
rt_value(const SumCol *col, const SumSeries *se, double *ret, gboolean *ret_beyond)
{
    gint64 us;

    *ret_beyond = FALSE;
    if (!se->merged)
        return FALSE;
    if (col->kind == SUM_RT_MAX) {
        if (se->merged->max_us < 0)
            return FALSE;
        *ret = (double) se->merged->max_us;
        return TRUE;
    }
    if (rv_result_histogram_percentile(se->merged, 99.99, &us, ret_beyond, NULL) < 0)
        return FALSE;
    *ret = (double) us;
    return TRUE;
}

void
rv_result_compare_summary_cell(const RvComparison *c, const RvCompareSummary *sum, guint k,
                               guint s, guint ref, SumCell *cell)
{
    const SumCol *col = sum->cols->pdata[k];
    double delta;

    memset(cell, 0, sizeof(*cell));
    cell->value = cell->change = cell->p = NAN;
    cell->is_ref = s == ref;
    if (col->kind == SUM_METRIC) {
        Row row, rr;

        rv_result_compare_row_vs(c, (guint) col->group, s, ref, col->metric, &row);
        if (!row.has)
            return;
        cell->has = TRUE;
        cell->value = row.agg;
        cell->n = row.sum.n;
        if (cell->is_ref)
            return;
        rv_result_compare_row_vs(c, (guint) col->group, ref, ref, col->metric, &rr);
        cell->change = col->change_pct ? row.change : row.agg - rr.agg;
        delta = row.agg - rr.agg;
        cell->tested = row.tested;
        cell->too_small = row.too_small;
        cell->p = row.tested ? row.t.p : NAN;
    } else {
        const SumSeries *se = series_of(sum, k, s), *sr = series_of(sum, k, ref);
        const GArray *v = col->kind == SUM_RT_MAX ? se->max : se->p9999;
        const GArray *b = col->kind == SUM_RT_MAX ? sr->max : sr->p9999;
        double rv;
        gboolean rb;
        RvStatsTestResult t;

        if (!rt_value(col, se, &cell->value, &cell->beyond))
            return;
        cell->has = TRUE;
        cell->n = v->len;
        if (cell->is_ref || !rt_value(col, sr, &rv, &rb))
            return;
        cell->change = delta = cell->value - rv;
        cell->tested = rv_result_compare_test(c, v, b, &t, &cell->too_small);
        cell->p = cell->tested ? t.p : NAN;
    }
    if (!isfinite(delta) || delta == 0)
        cell->direction = 0;
    else
        cell->direction = (delta > 0) == col->higher_better ? 1 : -1;
    cell->significant = cell->tested && cell->p < RV_COMPARE_ALPHA;
}

const char *
rv_result_compare_summary_word(const SumCell *cell)
{
    if (!cell->has || cell->is_ref || !isfinite(cell->change))
        return "";
    return cell->direction > 0 ? "better" : cell->direction < 0 ? "worse" : "same";
}

const char *
rv_result_compare_summary_mark(const SumCell *cell)
{
    if (!cell->has || cell->is_ref || !isfinite(cell->change))
        return "";
    if (cell->too_small)
        return "?";
    if (!cell->tested)
        return "";
    return cell->p < 0.001 ? "***" : cell->p < 0.01 ? "**" : cell->p < RV_COMPARE_ALPHA ? "*" : "~";
}

char *
rv_result_compare_summary_p(const SumCell *cell)
{
    if (cell->too_small)
        return g_strdup("too few repetitions for a test");
    if (!cell->tested)
        return g_strdup("not tested");
    if (cell->p < 0.001)
        return g_strdup("p<0.001");
    return g_strdup_printf("p=%.2g%s", cell->p, cell->significant ? "" : ", within the noise");
}

/* The most of a matrix copy read: a matrix is a few KiB (the flagship's
 * 5 KiB); the store is untrusted. */
#define MATRIX_COPY_MAX (1u << 20)

/* What the scenarios of store @st set, from the store's copy of its matrix
 * (profiles/MATRIX.ini, as `rtvirt run` copied it, with the includes
 * copied beside it): "NAME" -> "smt=VALUE coresched=VALUE" with the
 * matrix's defaults (harness/matrix.h: smt = keep, coresched = off) for
 * keys not set.  NULL when the store has no such copy, or it is too large
 * or does not parse (then the descriptions' settings speak). */
static GHashTable *
matrix_settings(const RvStore *st)
{
    const char *matrix = rv_result_store_get_matrix(st);
    g_autofree char *base = matrix ? g_strdup_printf("%s.ini", matrix) : NULL;
    g_autofree char *copy = base && !strchr(base, '/')
                            ? g_build_filename(rv_result_store_get_dir(st), "profiles", base, NULL)
                            : NULL;
    g_autofree char *text = NULL;
    g_autoptr(RvIni) ini = NULL;
    g_autoptr(GPtrArray) sections = NULL;
    GHashTable *out;
    GStatBuf sb;
    gsize len = 0;

    if (!copy || g_stat(copy, &sb) < 0 || !S_ISREG(sb.st_mode) || sb.st_size > MATRIX_COPY_MAX ||
        !g_file_get_contents(copy, &text, &len, NULL) || len > MATRIX_COPY_MAX ||
        rv_ini_load_data(copy, text, &ini, NULL) < 0)
        return NULL;
    out = g_hash_table_new_full(g_str_hash, g_str_equal, g_free, g_free);
    sections = rv_ini_sections(ini);
    for (guint i = 0; i < sections->len; i++) {
        const char *sec = sections->pdata[i];
        const char *smt, *cs;

        if (!g_str_has_prefix(sec, "scenario:"))
            continue;
        smt = rv_ini_get(ini, sec, "smt");
        cs = rv_ini_get(ini, sec, "coresched");
        g_hash_table_insert(out, g_strdup(sec + strlen("scenario:")),
                            g_strdup_printf("smt=%s coresched=%s", smt ? smt : "keep",
                                            cs ? cs : "off"));
    }
    return out;
}

/* a GPtrArray's free function for entries that may be NULL */
static void
table_unref(gpointer t)
{
    if (t)
        g_hash_table_unref(t);
}

/* Does @settings ("smt=off coresched=off placement=...") hold @word? */
static gboolean
settings_have(const char *settings, const char *word)
{
    g_auto(GStrv) words = settings ? g_strsplit(settings, " ", -1) : NULL;

    for (guint i = 0; words && words[i]; i++)
        if (g_str_equal(words[i], word))
            return TRUE;
    return FALSE;
}

/* What scenario @sc sets: its matrix section in the store's matrix copy
 * (@by_store: matrix_settings() per store, NULL entries where there is
 * none); else the settings `rtvirt run` appends to the description it
 * records, "DESCRIPTION (smt=off coresched=off ...)" (harness/cmd-run.c):
 * the last parenthesised group, never the free text before it. */
static const char *
scen_settings(GPtrArray *by_store, const Scen *sc, char **ret_owned)
{
    GHashTable *m = sc->store < by_store->len ? by_store->pdata[sc->store] : NULL;
    const char *v = m ? g_hash_table_lookup(m, sc->base) : NULL;
    const char *open, *close;

    *ret_owned = NULL;
    if (v)
        return v;
    open = sc->description ? strrchr(sc->description, '(') : NULL;
    close = open ? strchr(open, ')') : NULL;
    if (!close || close[1])
        return NULL;
    *ret_owned = g_strndup(open + 1, close - open - 1);
    return *ret_owned;
}

static gboolean
has_setting(GPtrArray *by_store, const Scen *sc, const char *word)
{
    g_autofree char *owned = NULL;

    return settings_have(scen_settings(by_store, sc, &owned), word);
}

static gboolean
is_coresched(GPtrArray *by_store, const Scen *sc)
{
    return has_setting(by_store, sc, "coresched=vm") || has_setting(by_store, sc, "coresched=vcpu") ||
           has_setting(by_store, sc, "coresched=libvirt");
}

/* a scenario with values in some column */
static gboolean
scen_has_values(const RvComparison *c, const RvCompareSummary *sum, guint s)
{
    for (guint k = 0; k < sum->cols->len; k++) {
        SumCell cell;

        rv_result_compare_summary_cell(c, sum, k, s, s, &cell);
        if (cell.has)
            return TRUE;
    }
    return FALSE;
}

/* "A vs B: RT p99.99 4 us better (p=0.01), ..." */
static char *
sentence(const RvComparison *c, const RvCompareSummary *sum, guint s, guint ref)
{
    const Scen *a = c->scens->pdata[s], *b = c->scens->pdata[ref];
    GString *o = g_string_new(NULL);
    guint said = 0;

    g_string_append_printf(o, "%s vs %s:", a->label, b->label);
    for (guint k = 0; k < sum->cols->len; k++) {
        const SumCol *col = sum->cols->pdata[k];
        SumCell cell;
        g_autofree char *p = NULL;

        rv_result_compare_summary_cell(c, sum, k, s, ref, &cell);
        if (!cell.has || !isfinite(cell.change))
            continue;
        p = rv_result_compare_summary_p(&cell);
        g_string_append_printf(o, "%s %s", said++ ? "," : "", col->title);
        if (cell.direction == 0)
            g_string_append_printf(o, " the same (%s)", p);
        else if (col->change_pct)
            g_string_append_printf(o, " %.3g %% %s (%s)", fabs(cell.change),
                                   rv_result_compare_summary_word(&cell), p);
        else
            g_string_append_printf(o, fabs(cell.change) >= 100 ? " %.0f %s %s (%s)"
                                                               : " %.3g %s %s (%s)", fabs(cell.change),
                                   g_str_equal(col->unit, "%") ? "points" : col->unit,
                                   rv_result_compare_summary_word(&cell), p);
    }
    if (!said)
        g_string_append(o, " no value to compare");
    return g_string_free(o, FALSE);
}

/* A boolean member of @o, or -1 when absent, null or not a boolean. */
static int
bool_member(JsonObject *o, const char *name)
{
    JsonNode *n = o ? json_object_get_member(o, name) : NULL;

    if (!n || !JSON_NODE_HOLDS_VALUE(n) || json_node_get_value_type(n) != G_TYPE_BOOLEAN)
        return -1;
    return json_node_get_boolean(n);
}

void
rv_result_compare_note_no_smt(RvComparison *c)
{
    for (guint st = 0; st < c->stores->len; st++) {
        JsonNode *hn = rv_result_store_get_host(c->stores->pdata[st]);
        g_autoptr(GString) shared = g_string_new(NULL);
        g_autoptr(GString) idle = g_string_new(NULL);

        if (!hn || !JSON_NODE_HOLDS_OBJECT(hn) ||
            bool_member(json_node_get_object(hn), "smt_active") != 0)
            continue;
        for (guint s = 0; s < c->scens->len; s++) {
            const Scen *sc = c->scens->pdata[s];
            GString *to = NULL;

            if (sc->store != st || sc->load || g_strcmp0(sc->status, "ran") != 0 ||
                !sc->description)
                continue;
            if (strstr(sc->description, "host_sibling=shared"))
                to = shared;
            else if (strstr(sc->description, "host_sibling=idle"))
                to = idle;
            if (to)
                g_string_append_printf(to, "%s%s", to->len ? ", " : "", sc->name);
        }
        if (shared->len && idle->len)
            g_ptr_array_add(c->context_notes, g_strdup_printf(
                "store %u's host has no SMT sibling online: host_sibling = shared (%s) and idle "
                "(%s) gave their guests the same CPUs, so these scenarios differ only in name "
                "there: a difference between them is noise", st + 1, shared->str, idle->str));
    }
}

GPtrArray *
rv_result_compare_answers(const RvComparison *c, const RvCompareSummary *sum)
{
    GPtrArray *out = g_ptr_array_new_with_free_func(g_free);
    g_autoptr(GPtrArray) by_store = NULL;

    /* each option against the baseline at its load level */
    for (guint s = 0; s < c->scens->len; s++) {
        guint ref = rv_result_compare_baseline_of(c, s);

        if (ref != s && scen_has_values(c, sum, s))
            g_ptr_array_add(out, sentence(c, sum, s, ref));
    }
    /* the question of the kernel thread: core scheduling against SMT off,
     * at the same load level in the same store, found by what the
     * scenarios set (a renamed or re-described one still answers); said
     * once where SMT off is itself the baseline (the loop above said it) */
    by_store = g_ptr_array_new_with_free_func(table_unref);
    for (guint i = 0; i < c->stores->len; i++)
        g_ptr_array_add(by_store, matrix_settings(c->stores->pdata[i]));
    for (guint s = 0; s < c->scens->len; s++) {
        const Scen *a = c->scens->pdata[s];

        if (!is_coresched(by_store, a) || !scen_has_values(c, sum, s))
            continue;
        for (guint r = 0; r < c->scens->len; r++) {
            const Scen *b = c->scens->pdata[r];

            if (r != rv_result_compare_baseline_of(c, s) && b->store == a->store &&
                g_strcmp0(b->load, a->load) == 0 &&
                has_setting(by_store, b, "smt=off") && !is_coresched(by_store, b) &&
                scen_has_values(c, sum, r))
                g_ptr_array_add(out, sentence(c, sum, s, r));
        }
    }
    /* an option the host could not run has no answer: say so here, not
     * only in the details below (the flagship without SMT: nosmt and
     * coresched); the reason stays there, said once */
    for (guint s = 0; s < c->scens->len; s++) {
        const Scen *sc = c->scens->pdata[s];

        if (g_strcmp0(sc->status, "skipped") == 0)
            g_ptr_array_add(out, g_strdup_printf("%s: not measured (SKIPPED; the reason below)",
                                                 sc->label));
    }
    return out;
}

void
rv_result_compare_summary_json(JsonBuilder *b, const RvComparison *c,
                               const RvCompareSummary *sum)
{
    g_autoptr(GPtrArray) answers = rv_result_compare_answers(c, sum);

    json_builder_set_member_name(b, "summary");
    json_builder_begin_object(b);
    json_builder_set_member_name(b, "columns");
    json_builder_begin_array(b);
    for (guint k = 0; k < sum->cols->len; k++) {
        const SumCol *col = sum->cols->pdata[k];

        json_builder_begin_object(b);
        rv_json_add_string_or_null(b, "key", col->key);
        rv_json_add_string_or_null(b, "title", col->title);
        rv_json_add_string_or_null(b, "unit", col->unit);
        json_builder_set_member_name(b, "better");
        json_builder_add_string_value(b, col->higher_better ? "higher" : "lower");
        json_builder_set_member_name(b, "change");
        json_builder_add_string_value(b, col->change_pct ? "percent" : "unit");
        json_builder_end_object(b);
    }
    json_builder_end_array(b);
    json_builder_set_member_name(b, "rows");
    json_builder_begin_array(b);
    for (guint s = 0; s < c->scens->len; s++) {
        const Scen *sc = c->scens->pdata[s];
        guint ref = rv_result_compare_baseline_of(c, s);

        if (!scen_has_values(c, sum, s))
            continue;
        json_builder_begin_object(b);
        rv_json_add_string_or_null(b, "scenario", sc->label);
        rv_json_add_string_or_null(b, "load", sc->load);
        rv_json_add_string_or_null(b, "description", sc->description);
        rv_json_add_string_or_null(b, "baseline", ((Scen *) c->scens->pdata[ref])->label);
        json_builder_set_member_name(b, "trusted");
        json_builder_add_boolean_value(b, rv_result_store_get_trusted(c->stores->pdata[sc->store]));
        json_builder_set_member_name(b, "cells");
        json_builder_begin_object(b);
        for (guint k = 0; k < sum->cols->len; k++) {
            const SumCol *col = sum->cols->pdata[k];
            SumCell cell;

            rv_result_compare_summary_cell(c, sum, k, s, ref, &cell);
            json_builder_set_member_name(b, col->key);
            json_builder_begin_object(b);
            rv_result_compare_json_num(b, "value", cell.has ? cell.value : NAN);
            json_builder_set_member_name(b, "bound");
            json_builder_add_boolean_value(b, cell.beyond);
            json_builder_set_member_name(b, "n");
            json_builder_add_int_value(b, cell.n);
            rv_result_compare_json_num(b, "change", cell.change);
            rv_json_add_string_or_null(b, "direction",
                                       *rv_result_compare_summary_word(&cell)
                                       ? rv_result_compare_summary_word(&cell) : NULL);
            rv_result_compare_json_num(b, "p", cell.p);
            json_builder_set_member_name(b, "significant");
            json_builder_add_boolean_value(b, cell.significant);
            rv_json_add_string_or_null(b, "mark", rv_result_compare_summary_mark(&cell));
            json_builder_end_object(b);
        }
        json_builder_end_object(b);
        json_builder_end_object(b);
    }
    json_builder_end_array(b);
    json_builder_set_member_name(b, "answers");
    json_builder_begin_array(b);
    for (guint i = 0; i < answers->len; i++)
        json_builder_add_string_value(b, answers->pdata[i]);
    json_builder_end_array(b);
    json_builder_end_object(b);
}
