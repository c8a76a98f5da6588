/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * results/compare.c: scenario comparison tables (see compare.h).
 */
#include <errno.h>
#include <math.h>
#include <string.h>

#include <json-glib/json-glib.h>

#include "results/attribution.h"
#include "results/cosched.h"
#include "results/compare-priv.h"
#include "results/context.h"
#include "util/error.h"
#include "util/escape.h"
#include "util/json.h"

static void
scen_free(Scen *s)
{
    g_free(s->label);
    g_free(s->name);
    g_free(s->status);
    g_free(s->reason);
    g_free(s->base);
    g_free(s->load);
    g_free(s->description);
    g_free(s);
}

static void
group_free(Group *g)
{
    g_free(g->workload);
    g_free(g->target);
    g_ptr_array_unref(g->metrics);
    g_hash_table_unref(g->units);
    g_hash_table_unref(g->better);
    g_hash_table_unref(g->aggregate);
    g_free(g);
}

void
rv_result_compare_free(RvComparison *c)
{
    if (!c)
        return;
    if (c->cells) {
        for (guint i = 0; i < c->groups->len * c->scens->len; i++) {
            if (c->cells[i].values)
                g_hash_table_unref(c->cells[i].values);
            rv_result_histogram_free(c->cells[i].hist);
        }
        g_free(c->cells);
    }
    g_ptr_array_unref(c->stores);
    g_ptr_array_unref(c->scens);
    g_ptr_array_unref(c->groups);
    if (c->hosts)
        g_ptr_array_unref(c->hosts);
    if (c->context_notes)
        g_ptr_array_unref(c->context_notes);
    if (c->verdicts)
        g_ptr_array_unref(c->verdicts);
    if (c->budgets)
        g_ptr_array_unref(c->budgets);
    g_free(c->baseline_note);
    g_free(c);
}

Cell *
rv_result_compare_cell(const RvComparison *c, guint g, guint s)
{
    return &c->cells[g * c->scens->len + s];
}

GPtrArray *
rv_result_compare_stories(const RvComparison *c, guint s, const char **ret_skipped)
{
    const Scen *sc = c->scens->pdata[s];

    *ret_skipped = NULL;
    return rv_result_attr_scenario_stories(rv_result_store_get_records(c->stores->pdata[sc->store]),
                                           sc->name, RV_COMPARE_STORIES, ret_skipped);
}

GPtrArray *
rv_result_compare_cosched(const RvComparison *c, guint s, const char **ret_skipped)
{
    const Scen *sc = c->scens->pdata[s];

    return rv_result_cosched_scenario(rv_result_store_get_records(c->stores->pdata[sc->store]),
                                      sc->name, ret_skipped);
}

static int
find_scen(const RvComparison *c, guint store, const char *name)
{
    for (guint i = 0; i < c->scens->len; i++) {
        const Scen *s = c->scens->pdata[i];
        if (s->store == store && g_str_equal(s->name, name))
            return i;
    }
    return -1;
}

static void
add_scen(RvComparison *c, guint store, const char *name, const char *status,
         const char *reason)
{
    Scen *s;
    const char *at = strchr(name, '@');

    if (find_scen(c, store, name) >= 0)
        return;
    s = g_new0(Scen, 1);
    s->name = g_strdup(name);
    s->store = store;
    s->status = g_strdup(status);
    s->reason = g_strdup(reason);
    /* harness/plan.h: a cell of a matrix with load levels is SCENARIO@LOAD */
    s->base = at ? g_strndup(name, at - name) : g_strdup(name);
    s->load = at && at[1] ? g_strdup(at + 1) : NULL;
    s->order = G_MAXUINT;
    g_ptr_array_add(c->scens, s);
}

/* each scenario's declared description and position in its store */
static void
describe_scenarios(RvComparison *c, GPtrArray *stores)
{
    for (guint i = 0; i < c->scens->len; i++) {
        Scen *s = c->scens->pdata[i];
        GPtrArray *decl = rv_result_store_get_scenarios(stores->pdata[s->store]);

        for (guint k = 0; k < decl->len; k++) {
            const RvStoreScenario *d = decl->pdata[k];

            if (g_str_equal(d->name, s->base)) {
                s->order = k;
                s->description = g_strdup(d->description);
                break;
            }
        }
    }
}

static int
cmp_by_cell(gconstpointer a, gconstpointer b)
{
    const Scen *x = *(Scen * const *) a, *y = *(Scen * const *) b;
    g_autofree char *kx = NULL, *ky = NULL;

    if (x->store != y->store)
        return x->store < y->store ? -1 : 1;
    if (x->order != y->order)
        return x->order < y->order ? -1 : 1;
    if (!x->load || !y->load)
        return (x->load != NULL) - (y->load != NULL);
    /* t2 before t16: the file-name collation orders the numbers in names */
    kx = g_utf8_collate_key_for_filename(x->load, -1);
    ky = g_utf8_collate_key_for_filename(y->load, -1);
    return strcmp(kx, ky);
}

static int
find_group(const RvComparison *c, const char *workload, const char *target)
{
    for (guint i = 0; i < c->groups->len; i++) {
        const Group *g = c->groups->pdata[i];
        if (g_str_equal(g->workload, workload) && g_str_equal(g->target, target))
            return i;
    }
    return -1;
}

/* max_us, avg_us, min_us first (what latency readers look for), then the
 * rest in the order first seen; "cycles" is bookkeeping, not a result. */
static int
metric_rank(const char *m)
{
    return g_str_equal(m, "max_us") ? 0 : g_str_equal(m, "avg_us") ? 1
         : g_str_equal(m, "min_us") ? 2 : 3;
}

static void
group_add_metric(Group *g, const RvStoreMetric *m)
{
    const char *name = m->name;
    guint pos;

    if (g_str_equal(name, "cycles") || g_hash_table_contains(g->units, name))
        return;
    g_hash_table_insert(g->units, g_strdup(name), g_strdup(m->unit ? m->unit : ""));
    /* the first record's direction and aggregate stand for the metric
     * (contract 1: one workload writes one metric one way) */
    g_hash_table_insert(g->better, g_strdup(name), GINT_TO_POINTER(m->better + 1));
    g_hash_table_insert(g->aggregate, g_strdup(name), GINT_TO_POINTER(m->aggregate + 1));
    for (pos = 0; pos < g->metrics->len; pos++)
        if (metric_rank(name) < metric_rank(g->metrics->pdata[pos]))
            break;
    g_ptr_array_insert(g->metrics, pos, g_strdup(name));
}

static char *
store_base(const RvStore *st)
{
    g_autofree char *d = g_strdup(rv_result_store_get_dir(st));
    gsize l = strlen(d);

    while (l > 1 && d[l - 1] == '/')
        d[--l] = '\0';
    return g_path_get_basename(d);
}

/* the scenario has at least one successful repetition in some group */
static gboolean
scen_ran(const RvComparison *c, guint s)
{
    for (guint gi = 0; gi < c->groups->len; gi++)
        if (rv_result_compare_cell(c, gi, s)->ok > 0)
            return TRUE;
    return FALSE;
}

/* scenarios (declared order first, then those only records name) and the
 * workload groups; returns the number of records */
static guint
collect_scenarios(RvComparison *c, GPtrArray *stores)
{
    guint nrec = 0;

    for (guint si = 0; si < stores->len; si++) {
        const RvStore *st = stores->pdata[si];
        GPtrArray *decl = rv_result_store_get_scenarios(st);
        GPtrArray *recs = rv_result_store_get_records(st);

        for (guint i = 0; i < decl->len; i++) {
            const RvStoreScenario *sc = decl->pdata[i];
            add_scen(c, si, sc->name, sc->status, sc->reason);
        }
        for (guint i = 0; i < recs->len; i++) {
            const RvStoreRecord *r = recs->pdata[i];
            add_scen(c, si, r->scenario, "ran", NULL);
            if (find_group(c, r->workload, r->target ? r->target : "-") < 0) {
                Group *g = g_new0(Group, 1);
                g->workload = g_strdup(r->workload);
                g->target = g_strdup(r->target ? r->target : "-");
                g->metrics = g_ptr_array_new_with_free_func(g_free);
                g->units = g_hash_table_new_full(g_str_hash, g_str_equal, g_free, g_free);
                g->better = g_hash_table_new_full(g_str_hash, g_str_equal, g_free, NULL);
                g->aggregate = g_hash_table_new_full(g_str_hash, g_str_equal, g_free, NULL);
                g_ptr_array_add(c->groups, g);
            }
            nrec++;
        }
    }
    return nrec;
}

static char *
store_parent(const RvStore *st)
{
    g_autofree char *d = g_strdup(rv_result_store_get_dir(st));
    gsize l = strlen(d);
    g_autofree char *up = NULL;

    while (l > 1 && d[l - 1] == '/')
        d[--l] = '\0';
    up = g_path_get_dirname(d);
    return g_path_get_basename(up);
}

static char *
store_hostname(const RvStore *st)
{
    JsonNode *h = rv_result_store_get_host(st);
    JsonObject *o = h && JSON_NODE_HOLDS_OBJECT(h) ? json_node_get_object(h) : NULL;
    JsonNode *n = o ? json_object_get_member(o, "hostname") : NULL;

    if (n && JSON_NODE_HOLDS_VALUE(n) && json_node_get_value_type(n) == G_TYPE_STRING &&
        *json_node_get_string(n))
        return g_strdup(json_node_get_string(n));
    return NULL;
}

/* the host label of each store (see rv_result_compare_build_by()) */
static void
label_hosts(RvComparison *c, GPtrArray *stores)
{
    c->hosts = g_ptr_array_new_with_free_func(g_free);
    for (guint i = 0; i < stores->len; i++) {
        char *h = store_hostname(stores->pdata[i]);
        g_ptr_array_add(c->hosts, h ? h : store_base(stores->pdata[i]));
    }
    for (int pass = 0; pass < 2; pass++) {
        /* every store of a shared name is renamed, not all but the last */
        g_autofree gboolean *dup = g_new0(gboolean, stores->len);
        for (guint i = 0; i < stores->len; i++)
            for (guint j = 0; j < stores->len; j++)
                dup[i] |= j != i && g_str_equal(c->hosts->pdata[i], c->hosts->pdata[j]);
        for (guint i = 0; i < stores->len; i++) {
            if (!dup[i])
                continue;
            g_free(c->hosts->pdata[i]);
            c->hosts->pdata[i] = pass == 0 ? store_parent(stores->pdata[i])
                                           : store_base(stores->pdata[i]);
        }
    }
}

/* Two stores of one host name whose contexts differ (another kernel,
 * command line, microcode, BIOS) are not silently "the same host":
 * one NOTE per such pair. */
static void
note_contexts(RvComparison *c, GPtrArray *stores)
{
    c->context_notes = g_ptr_array_new_with_free_func(g_free);
    for (guint i = 0; i < stores->len; i++) {
        g_autofree char *hi = store_hostname(stores->pdata[i]);

        for (guint j = i + 1; hi && j < stores->len; j++) {
            g_autofree char *hj = store_hostname(stores->pdata[j]);
            g_autofree char *diff = NULL;

            if (!hj || !g_str_equal(hi, hj))
                continue;
            diff = rv_result_context_differences(rv_result_store_get_context(stores->pdata[i]),
                                                 rv_result_store_get_context(stores->pdata[j]));
            if (diff)
                g_ptr_array_add(c->context_notes,
                                g_strdup_printf("stores %u and %u both come from host %s, but "
                                                "not from the same setup: %s",
                                                i + 1, j + 1, hi, diff));
        }
    }
}

static int
cmp_by_scenario(gconstpointer a, gconstpointer b, gpointer data)
{
    GHashTable *first = data;
    const Scen *x = *(Scen * const *) a, *y = *(Scen * const *) b;
    int fx = GPOINTER_TO_INT(g_hash_table_lookup(first, x->name));
    int fy = GPOINTER_TO_INT(g_hash_table_lookup(first, y->name));

    return fx != fy ? fx - fy : (int) x->store - (int) y->store;
}

/* --by scenario: all hosts of a scenario together, scenarios in the order
 * first seen (g_ptr_array_sort_with_data is stable) */
static void
order_scenarios(RvComparison *c)
{
    g_autoptr(GHashTable) first = g_hash_table_new(g_str_hash, g_str_equal);

    if (c->by != RV_COMPARE_BY_SCENARIO)
        return;
    for (guint i = 0; i < c->scens->len; i++) {
        const Scen *s = c->scens->pdata[i];
        if (!g_hash_table_contains(first, s->name))
            g_hash_table_insert(first, s->name, GINT_TO_POINTER(i));
    }
    g_ptr_array_sort_with_data(c->scens, cmp_by_scenario, first);
}

/* labels: a name used by several stores is qualified by its store, or
 * with --by by its host */
static void
label_scenarios(RvComparison *c, GPtrArray *stores)
{
    for (guint i = 0; i < c->scens->len; i++) {
        Scen *s = c->scens->pdata[i];
        gboolean dup = FALSE;

        if (c->by != RV_COMPARE_BY_NONE && stores->len > 1) {
            s->label = g_strdup_printf("%s/%s", (char *) c->hosts->pdata[s->store], s->name);
            continue;
        }
        for (guint j = 0; j < c->scens->len; j++) {
            const Scen *o = c->scens->pdata[j];
            if (j != i && g_str_equal(o->name, s->name))
                dup = TRUE;
        }
        if (dup) {
            g_autofree char *b = store_base(stores->pdata[s->store]);
            s->label = g_strdup_printf("%s/%s", b, s->name);
        } else {
            s->label = g_strdup(s->name);
        }
    }
}

/* one ok record's metrics and "latency" histogram into its cell */
static void
cell_add_record(Group *g, Cell *ce, const RvStoreRecord *r)
{
    const RvHistogram *h;

    ce->ok++;
    if (g_strcmp0(r->virt, "kvm") == 0)
        ce->kvm = TRUE;
    else if (g_strcmp0(r->virt, "tcg") == 0)
        ce->tcg = TRUE;
    for (guint k = 0; k < r->metrics->len; k++) {
        const RvStoreMetric *m = r->metrics->pdata[k];
        GArray *vals;
        if (!isfinite(m->value))
            continue;
        group_add_metric(g, m);
        vals = g_hash_table_lookup(ce->values, m->name);
        if (!vals) {
            vals = g_array_new(FALSE, FALSE, sizeof(double));
            g_hash_table_insert(ce->values, g_strdup(m->name), vals);
        }
        g_array_append_val(vals, m->value);
    }
    h = rv_result_store_record_get_histogram(r, "latency");
    if (h) {
        if (!ce->hist)
            ce->hist = rv_result_histogram_new(0);
        rv_result_histogram_merge(ce->hist, h);
        ce->hist_reps++;
    } else {
        ce->hist_missing++;
    }
}

static void
fill_cells(RvComparison *c, GPtrArray *stores)
{
    c->cells = g_new0(Cell, c->groups->len * c->scens->len);
    for (guint i = 0; i < c->groups->len * c->scens->len; i++)
        c->cells[i].values = g_hash_table_new_full(g_str_hash, g_str_equal, g_free,
                                                   (GDestroyNotify) g_array_unref);

    for (guint si = 0; si < stores->len; si++) {
        GPtrArray *recs = rv_result_store_get_records(stores->pdata[si]);
        for (guint i = 0; i < recs->len; i++) {
            const RvStoreRecord *r = recs->pdata[i];
            guint gi = find_group(c, r->workload, r->target ? r->target : "-");
            Cell *ce = rv_result_compare_cell(c, gi, find_scen(c, si, r->scenario));

            if (g_str_equal(r->status, "skipped")) {
                ce->skipped++;
                continue;
            }
            if (!g_str_equal(r->status, "ok")) {
                if (!ce->failed++)
                    ce->first_failure = r->reason;
                continue;
            }
            cell_add_record(c->groups->pdata[gi], ce, r);
        }
    }
}

/* The names --baseline is offered in its error: the labels of the
 * scenarios that hold data (a successful repetition), so with load levels
 * the SCENARIO@LOAD cells, not the bare scenario beside them (which holds
 * none, and stands for its cells at every level). */
static char *
baseline_offers(const RvComparison *c)
{
    g_autoptr(GString) names = g_string_new(NULL);
    gboolean loads = FALSE;

    for (guint i = 0; i < c->scens->len; i++) {
        const Scen *s = c->scens->pdata[i];

        if (!scen_ran(c, i))
            continue;
        g_string_append_printf(names, "%s%s", names->len ? ", " : "", s->label);
        loads = loads || s->load;
    }
    if (!names->len)
        g_string_append(names, "none holds data");
    if (loads)
        g_string_append(names, " (a scenario's name alone means it at every load level)");
    return g_string_free(g_steal_pointer(&names), FALSE);
}

/* --baseline NAME: a label, or a scenario name of exactly one store; with
 * load levels SCENARIO and SCENARIO@LOAD both mean SCENARIO at each level
 * (rv_result_compare_baseline_of()) */
static int
find_baseline(const RvComparison *c, const char *baseline, GError **error)
{
    int matches = 0, base = -1;

    for (guint i = 0; i < c->scens->len; i++) {
        const Scen *s = c->scens->pdata[i];

        if (g_str_equal(s->label, baseline)) {
            base = i;
            matches = 1;
            break;
        }
        if (g_str_equal(s->name, baseline)) {
            base = i;
            matches++;
        }
    }
    if (matches != 1) {
        g_autofree char *offers = baseline_offers(c);

        return rv_error_set(error, RV_ERROR_INVALID, EINVAL,
                            "Baseline '%s' is %s; scenarios with data: %s", baseline,
                            matches ? "ambiguous (in several stores)" : "not a scenario",
                            offers);
    }
    /* NAME of a matrix with load levels: its first cell that ran */
    for (guint i = 0; !scen_ran(c, base) && i < c->scens->len; i++) {
        const Scen *s = c->scens->pdata[i], *b = c->scens->pdata[base];

        if (s->load && s->store == b->store && g_str_equal(s->base, b->name) && scen_ran(c, i))
            base = i;
    }
    if (!scen_ran(c, base)) {
        const Scen *s = c->scens->pdata[base];
        if (g_strcmp0(s->status, "skipped") == 0)
            return rv_error_set(error, RV_ERROR_INVALID, EINVAL,
                                "baseline '%s' was SKIPPED: %s", baseline,
                                s->reason ? s->reason : "(no reason recorded)");
        return rv_error_set(error, RV_ERROR_INVALID, ENODATA,
                            "baseline '%s' has no successful repetition", baseline);
    }
    return base;
}

/* no --baseline: the first scenario that ran, with a note when that is not
 * the first one */
static int
default_baseline(RvComparison *c)
{
    int base = -1;

    for (guint i = 0; i < c->scens->len && base < 0; i++)
        if (scen_ran(c, i))
            base = i;
    if (base < 0)
        base = 0;
    /* a matrix with load levels: the first scenario's first cell */
    if (base > 0 && !g_str_equal(((Scen *) c->scens->pdata[base])->base,
                                 ((Scen *) c->scens->pdata[0])->name)) {
        const Scen *first = c->scens->pdata[0], *b = c->scens->pdata[base];
        /* the skip reason is listed in each workload section */
        c->baseline_note = g_strdup_printf(
            "the first scenario '%s' %s; the baseline is '%s', the first that ran",
            first->label,
            g_strcmp0(first->status, "skipped") == 0 ? "was SKIPPED"
                                                     : "has no successful repetition",
            b->label);
    }
    return base;
}

int
rv_result_compare_build(GPtrArray *stores, const char *baseline, RvStatsTest test,
                        RvComparison **ret, GError **error)
{
    return rv_result_compare_build_by(stores, baseline, test, RV_COMPARE_BY_NONE, ret, error);
}

int
rv_result_compare_build_by(GPtrArray *stores, const char *baseline, RvStatsTest test,
                           RvCompareBy by, RvComparison **ret, GError **error)
{
    g_autoptr(RvComparison) c = g_new0(RvComparison, 1);
    int base;

    c->by = by;

    c->stores = g_ptr_array_ref(stores);
    c->scens = g_ptr_array_new_with_free_func((GDestroyNotify) scen_free);
    c->groups = g_ptr_array_new_with_free_func((GDestroyNotify) group_free);
    c->test = test;

    if (collect_scenarios(c, stores) == 0) {
        /* a store whose scenarios were all SKIPPED: say the first reason */
        const Scen *sk = NULL;

        for (guint s = 0; s < c->scens->len && !sk; s++)
            if (g_strcmp0(((Scen *) c->scens->pdata[s])->status, "skipped") == 0)
                sk = c->scens->pdata[s];
        return rv_error_set(error, RV_ERROR_INVALID, ENODATA,
                            "No records in %u results store(s): nothing to compare%s%s%s%s%s",
                            stores->len, sk ? " (scenarios SKIPPED, e.g. " : "",
                            sk ? sk->name : "", sk ? ": " : "",
                            sk ? (sk->reason ? sk->reason : "no reason recorded") : "", sk ? ")" : "");
    }
    label_hosts(c, stores);
    note_contexts(c, stores);
    describe_scenarios(c, stores);
    rv_result_compare_note_no_smt(c);
    /* the cells of a matrix with load levels come in the run's (random)
     * order: in the matrix's scenario order, each by load level */
    g_ptr_array_sort(c->scens, cmp_by_cell);
    order_scenarios(c);
    label_scenarios(c, stores);
    fill_cells(c, stores);
    base = baseline ? find_baseline(c, baseline, error) : default_baseline(c);
    if (base < 0)
        return base;
    c->baseline = base;
    *ret = g_steal_pointer(&c);
    return 0;
}

/* ---- per-row numbers ---- */

static GArray *
values_of(const RvComparison *c, guint g, guint s, const char *metric)
{
    return g_hash_table_lookup(rv_result_compare_cell(c, g, s)->values, metric);
}

/* the values of one cell combined as the metric says: the harmonic mean
 * for rates (mmtests: the mean rate over equal work), the arithmetic mean
 * by default; @v holds finite values (cell_add_record) */
static double
aggregate_values(RvStoreAggregate how, const GArray *v)
{
    double acc = 0, best = -INFINITY;

    if (!v || v->len == 0)
        return NAN;
    for (guint i = 0; i < v->len; i++) {
        double x = g_array_index(v, double, i);
        if (how == RV_STORE_AGGREGATE_HMEAN) {
            if (x <= 0)
                return 0;    /* a zero rate: the harmonic mean is 0 */
            acc += 1 / x;
        } else {
            acc += x;
        }
        best = MAX(best, x);
    }
    switch (how) {
    case RV_STORE_AGGREGATE_HMEAN: return v->len / acc;
    case RV_STORE_AGGREGATE_MAX: return best;
    case RV_STORE_AGGREGATE_SUM: return acc;
    case RV_STORE_AGGREGATE_MEAN: default: {
        /* Welford's mean (rv_result_stats_summary), as the mean column */
        RvStatsSummary sum;
        return rv_result_stats_summary((const double *) v->data, v->len, &sum, NULL) == 0
               ? sum.mean : NAN;
    }
    }
}

static double
aggregate_of(const RvComparison *c, guint g, const char *metric, const GArray *v)
{
    gpointer a = g_hash_table_lookup(((Group *) c->groups->pdata[g])->aggregate, metric);

    return aggregate_values(a ? GPOINTER_TO_INT(a) - 1 : RV_STORE_AGGREGATE_MEAN, v);
}

guint
rv_result_compare_baseline_of(const RvComparison *c, guint s)
{
    const Scen *sc = c->scens->pdata[s], *b = c->scens->pdata[c->baseline];

    if (!sc->load)
        return c->baseline;
    for (guint i = 0; i < c->scens->len; i++) {
        const Scen *o = c->scens->pdata[i];

        if (o->store == b->store && g_strcmp0(o->load, sc->load) == 0 &&
            g_str_equal(o->base, b->base))
            return i;
    }
    return c->baseline;
}

gboolean
rv_result_compare_is_baseline(const RvComparison *c, guint s)
{
    return rv_result_compare_baseline_of(c, s) == s;
}

gboolean
rv_result_compare_test(const RvComparison *c, const GArray *v, const GArray *b,
                       RvStatsTestResult *ret, gboolean *ret_too_small)
{
    *ret_too_small = FALSE;
    if (!v || !b || !v->len || !b->len)
        return FALSE;
    /* a test that cannot go below alpha at these n says nothing: with
     * 2 + 2 repetitions Mann-Whitney's smallest p is 0.333 */
    if (rv_result_stats_min_p(c->test, v->len, b->len) >= RV_COMPARE_ALPHA) {
        *ret_too_small = TRUE;
        return FALSE;
    }
    if (c->test == RV_STATS_WELCH)
        return rv_result_stats_welch((double *) v->data, v->len, (double *) b->data,
                                     b->len, ret, NULL) == 0;
    return rv_result_stats_mann_whitney((double *) v->data, v->len, (double *) b->data,
                                        b->len, ret, NULL) == 0;
}

void
rv_result_compare_row(const RvComparison *c, guint g, guint s, const char *metric, Row *row)
{
    rv_result_compare_row_vs(c, g, s, rv_result_compare_baseline_of(c, s), metric, row);
}

void
rv_result_compare_row_vs(const RvComparison *c, guint g, guint s, guint ref,
                         const char *metric, Row *row)
{
    gpointer metric_agg;
    GArray *v = values_of(c, g, s, metric);
    GArray *b = values_of(c, g, ref, metric);
    RvStatsSummary bs;
    int r;

    memset(row, 0, sizeof(*row));
    row->change = NAN;
    row->agg = NAN;
    row->untested = "no data";
    if (!v || v->len == 0)
        return;
    row->has = rv_result_stats_summary((double *) v->data, v->len, &row->sum, NULL) == 0;
    row->agg = aggregate_of(c, g, metric, v);
    metric_agg = g_hash_table_lookup(((Group *) c->groups->pdata[g])->better, metric);
    row->higher_better = GPOINTER_TO_INT(metric_agg) - 1 == RV_STORE_BETTER_HIGHER;
    row->std_pct = row->sem_pct = NAN;
    if (row->has && v->len > 1 && row->sum.mean != 0) {
        row->std_pct = 100 * row->sum.stddev / fabs(row->sum.mean);
        row->sem_pct = 100 * row->sum.sem / fabs(row->sum.mean);
    }
    if (s == ref) {
        row->untested = "baseline";
        return;
    }
    if (!b || b->len == 0) {
        row->untested = "no baseline data";
        return;
    }
    if (rv_result_stats_summary((double *) b->data, b->len, &bs, NULL) == 0)
        row->change = rv_result_stats_change_pct(aggregate_of(c, g, metric, b), row->agg);
    /* a test that cannot go below alpha at these n says nothing: with
     * 2 + 2 repetitions Mann-Whitney's smallest p is 0.333 */
    if (rv_result_stats_min_p(c->test, v->len, b->len) >= RV_COMPARE_ALPHA) {
        row->too_small = TRUE;
        row->untested = "n too small";
        return;
    }
    /* scenario first: t > 0 (U above n_a n_b / 2) when it is larger than
     * the baseline, the same sign as the change */
    if (c->test == RV_STATS_WELCH)
        r = rv_result_stats_welch((double *) v->data, v->len, (double *) b->data,
                                  b->len, &row->t, NULL);
    else
        r = rv_result_stats_mann_whitney((double *) v->data, v->len,
                                         (double *) b->data, b->len, &row->t, NULL);
    row->tested = r == 0;
    row->untested = row->tested ? NULL : r == -ENODATA ? "n<2" : "no result";
}

const char *
rv_result_compare_sig_mark(const Row *row)
{
    if (row->too_small)
        return "?";
    if (!row->tested)
        return "";
    return row->t.p < 0.001 ? "***" : row->t.p < 0.01 ? "**"
         : row->t.p < RV_COMPARE_ALPHA ? "*" : "~";
}

const char *
rv_result_compare_virt(const Cell *ce)
{
    return ce->kvm && ce->tcg ? "kvm+tcg" : ce->tcg ? "tcg" : ce->kvm ? "kvm" : "-";
}

const double rv_result_compare_pcts[RV_COMPARE_N_PCTS] = { 50, 99, 99.9, 99.99 };
const char *const rv_result_compare_pct_keys[RV_COMPARE_N_PCTS] = { "p50", "p99", "p99_9", "p99_99" };
const char *const rv_result_compare_pct_names[RV_COMPARE_N_PCTS] = { "p50", "p99", "p99.9", "p99.99" };

/* ---- JSON ---- */

void
rv_result_compare_json_num(JsonBuilder *b, const char *key, double v)
{
    json_builder_set_member_name(b, key);
    rv_result_store_json_add_double(b, v);
}

/* "percentiles": [{p, value_us, bound}]: value_us a number (null for an
 * empty histogram), bound TRUE where the rank lies beyond the histogram
 * range and value_us is the largest latency seen (an upper bound) */
static void
json_percentiles(JsonBuilder *b, const RvHistogram *h)
{
    json_builder_set_member_name(b, "percentiles");
    json_builder_begin_array(b);
    for (guint k = 0; k < RV_COMPARE_N_PCTS; k++) {
        gint64 us;
        gboolean beyond = FALSE;
        json_builder_begin_object(b);
        rv_result_compare_json_num(b, "p", rv_result_compare_pcts[k]);
        json_builder_set_member_name(b, "value_us");
        if (rv_result_histogram_percentile(h, rv_result_compare_pcts[k], &us, &beyond, NULL) < 0)
            json_builder_add_null_value(b);
        else
            json_builder_add_int_value(b, us);
        json_builder_set_member_name(b, "bound");
        json_builder_add_boolean_value(b, beyond);
        json_builder_end_object(b);
    }
    json_builder_end_array(b);
}

/* "histogram": the merged buckets, non-zero ones only, as the store keeps
 * them: {bucket_width_us 1, buckets N (the range in us), overflows (samples
 * >= N us), max_us (null: unknown), counts [[us, count], ...]} */
static void
json_histogram(JsonBuilder *b, const RvHistogram *h)
{
    json_builder_set_member_name(b, "histogram");
    json_builder_begin_object(b);
    json_builder_set_member_name(b, "bucket_width_us");
    json_builder_add_int_value(b, 1);
    json_builder_set_member_name(b, "buckets");
    json_builder_add_int_value(b, h->n_buckets);
    json_builder_set_member_name(b, "overflows");
    json_builder_add_int_value(b, MIN(h->overflows, (guint64) RV_STORE_COUNT_MAX));
    json_builder_set_member_name(b, "max_us");
    if (h->max_us >= 0)
        json_builder_add_int_value(b, h->max_us);
    else
        json_builder_add_null_value(b);
    json_builder_set_member_name(b, "counts");
    json_builder_begin_array(b);
    for (guint i = 0; i < rv_result_histogram_n_bins(h); i++) {
        const RvHistogramBin *bin = rv_result_histogram_bin(h, i);
        json_builder_begin_array(b);
        json_builder_add_int_value(b, bin->us);
        json_builder_add_int_value(b, MIN(bin->count, (guint64) RV_STORE_COUNT_MAX));
        json_builder_end_array(b);
    }
    json_builder_end_array(b);
    json_builder_end_object(b);
}

/* "within": [{us, pct, bound}] for --within (bound: a lower bound) */
static void
json_within(JsonBuilder *b, const RvHistogram *h, const RvCompareOptions *opts)
{
    if (!opts->n_within)
        return;
    json_builder_set_member_name(b, "within");
    json_builder_begin_array(b);
    for (guint k = 0; k < opts->n_within; k++) {
        gboolean bound;
        double pct = rv_result_compare_within(h, opts->within_us[k], &bound);
        json_builder_begin_object(b);
        rv_result_compare_json_num(b, "us", opts->within_us[k]);
        rv_result_compare_json_num(b, "pct", pct);
        json_builder_set_member_name(b, "bound");
        json_builder_add_boolean_value(b, bound);
        json_builder_end_object(b);
    }
    json_builder_end_array(b);
}

/* "outliers": only with several stores */
static void
json_outliers(JsonBuilder *b, const RvComparison *c)
{
    g_autoptr(GPtrArray) out = rv_result_compare_outliers(c);

    if (c->stores->len < 2)
        return;
    json_builder_set_member_name(b, "outliers");
    json_builder_begin_array(b);
    for (guint i = 0; i < out->len; i++) {
        const Outlier *o = out->pdata[i];
        const Scen *sc = c->scens->pdata[o->scen];
        json_builder_begin_object(b);
        rv_json_add_string_or_null(b, "host", c->hosts->pdata[sc->store]);
        rv_json_add_string_or_null(b, "target", ((Group *) c->groups->pdata[o->group])->target);
        rv_json_add_string_or_null(b, "scenario", sc->name);
        rv_json_add_string_or_null(b, "metric", o->metric);
        rv_result_compare_json_num(b, "value", o->value);
        rv_result_compare_json_num(b, "others_min", o->lo);
        rv_result_compare_json_num(b, "others_max", o->hi);
        json_builder_set_member_name(b, "other_hosts");
        json_builder_add_int_value(b, o->others);
        json_builder_end_object(b);
    }
    json_builder_end_array(b);
}

/* "attribution": only when a scenario's records have any (the worst
 * RV_COMPARE_STORIES per scenario, as the text prints them): [{scenario, repetition, target,
 * latency_us, story}] and [{scenario, skipped}] where only reasons exist. */
static void
json_attribution(JsonBuilder *b, const RvComparison *c)
{
    gboolean head = FALSE;

    for (guint s = 0; s < c->scens->len; s++) {
        const Scen *sc = c->scens->pdata[s];
        const char *skipped;
        g_autoptr(GPtrArray) st = rv_result_compare_stories(c, s, &skipped);

        if (!st->len && !skipped)
            continue;
        if (!head) {
            json_builder_set_member_name(b, "attribution");
            json_builder_begin_array(b);
            head = TRUE;
        }
        if (!st->len) {
            json_builder_begin_object(b);
            rv_json_add_string_or_null(b, "scenario", sc->label);
            rv_json_add_string_or_null(b, "skipped", skipped);
            json_builder_end_object(b);
        }
        for (guint i = 0; i < st->len; i++) {
            const RvAttrStory *a = st->pdata[i];

            json_builder_begin_object(b);
            rv_json_add_string_or_null(b, "scenario", sc->label);
            json_builder_set_member_name(b, "repetition");
            json_builder_add_int_value(b, a->repetition);
            rv_json_add_string_or_null(b, "target", a->target);
            json_builder_set_member_name(b, "latency_us");
            json_builder_add_int_value(b, a->latency_us);
            rv_json_add_string_or_null(b, "story", a->story);
            json_builder_end_object(b);
        }
    }
    if (head)
        json_builder_end_array(b);
}

/* "cosched": only when a scenario's records have co-scheduling stats or a
 * reason: [{scenario, vm, n, same_pct, idle_pct, foreign_pct, foreign_sd
 * (null for n < 2), unknown_pct, run_s}] and [{scenario, skipped}]. */
static void
json_cosched(JsonBuilder *b, const RvComparison *c)
{
    gboolean head = FALSE;

    for (guint s = 0; s < c->scens->len; s++) {
        const Scen *sc = c->scens->pdata[s];
        const char *skipped;
        g_autoptr(GPtrArray) vm = rv_result_compare_cosched(c, s, &skipped);

        if (!vm->len && !skipped)
            continue;
        if (!head) {
            json_builder_set_member_name(b, "cosched");
            json_builder_begin_array(b);
            head = TRUE;
        }
        if (!vm->len) {
            json_builder_begin_object(b);
            rv_json_add_string_or_null(b, "scenario", sc->label);
            rv_json_add_string_or_null(b, "skipped", skipped);
            json_builder_end_object(b);
        }
        for (guint i = 0; i < vm->len; i++) {
            const RvCoschedSummary *v = vm->pdata[i];
            static const char *const names[] = { "same_pct", "idle_pct", "foreign_pct",
                                                 "unknown_pct", "run_s" };
            const double vals[] = { v->same_pct, v->idle_pct, v->foreign_pct, v->unknown_pct,
                                    v->run_s };

            json_builder_begin_object(b);
            rv_json_add_string_or_null(b, "scenario", sc->label);
            rv_json_add_string_or_null(b, "vm", v->vm);
            json_builder_set_member_name(b, "n");
            json_builder_add_int_value(b, v->n);
            for (guint k = 0; k < G_N_ELEMENTS(names); k++) {
                json_builder_set_member_name(b, names[k]);
                json_builder_add_double_value(b, vals[k]);
            }
            json_builder_set_member_name(b, "foreign_sd");
            if (isnan(v->foreign_sd))
                json_builder_add_null_value(b);
            else
                json_builder_add_double_value(b, v->foreign_sd);
            json_builder_end_object(b);
        }
    }
    if (head)
        json_builder_end_array(b);
}

/* "budgets": only when budgets were judged */
static void
json_budgets(JsonBuilder *b, const RvComparison *c)
{
    if (!c->verdicts)
        return;
    json_builder_set_member_name(b, "budgets");
    json_builder_begin_array(b);
    for (guint i = 0; i < c->verdicts->len; i++) {
        const Verdict *v = c->verdicts->pdata[i];
        const RvBudget *bu = v->budget;
        json_builder_begin_object(b);
        rv_json_add_string_or_null(b, "name", bu->name);
        rv_json_add_string_or_null(b, "expression", bu->text);
        rv_json_add_string_or_null(b, "source", bu->source);
        rv_json_add_string_or_null(b, "metric", bu->metric);
        rv_json_add_string_or_null(b, "op", rv_result_budget_op_name(bu->op));
        rv_result_compare_json_num(b, "limit", bu->limit);
        json_builder_set_member_name(b, "relative");
        json_builder_add_boolean_value(b, bu->relative);
        rv_json_add_string_or_null(b, "target", v->group >= 0
                                   ? ((Group *) c->groups->pdata[v->group])->target : NULL);
        rv_json_add_string_or_null(b, "scenario", v->scen >= 0
                                   ? ((Scen *) c->scens->pdata[v->scen])->label : NULL);
        rv_result_compare_json_num(b, "value", v->value);
        rv_json_add_string_or_null(b, "what", v->what);
        rv_json_add_string_or_null(b, "verdict", rv_result_compare_verdict_name(v->status));
        rv_json_add_string_or_null(b, "reason", v->reason);
        json_builder_end_object(b);
    }
    json_builder_end_array(b);
}

/* "rows" of one metric: a row per scenario */
static void
json_metric_rows(JsonBuilder *b, const RvComparison *c, guint g, const char *metric)
{
    json_builder_set_member_name(b, "rows");
    json_builder_begin_array(b);
    for (guint s = 0; s < c->scens->len; s++) {
        const Cell *ce = rv_result_compare_cell(c, g, s);
        Row row;
        rv_result_compare_row(c, g, s, metric, &row);
        json_builder_begin_object(b);
        rv_json_add_string_or_null(b, "scenario", ((Scen *) c->scens->pdata[s])->label);
        rv_json_add_string_or_null(b, "virt", rv_result_compare_virt(ce));
        json_builder_set_member_name(b, "n");
        json_builder_add_int_value(b, row.has ? row.sum.n : 0);
        json_builder_set_member_name(b, "failed");
        json_builder_add_int_value(b, ce->failed);
        rv_result_compare_json_num(b, "mean", row.has ? row.sum.mean : NAN);
        rv_result_compare_json_num(b, "stddev", row.has ? row.sum.stddev : NAN);
        rv_result_compare_json_num(b, "sem", row.has ? row.sum.sem : NAN);
        rv_result_compare_json_num(b, "min", row.has ? row.sum.min : NAN);
        rv_result_compare_json_num(b, "max", row.has ? row.sum.max : NAN);
        rv_result_compare_json_num(b, "aggregate", row.agg);
        rv_result_compare_json_num(b, "std_pct", row.std_pct);
        rv_result_compare_json_num(b, "sem_pct", row.sem_pct);
        rv_result_compare_json_num(b, "change_pct", row.change);
        rv_result_compare_json_num(b, "statistic", row.tested ? row.t.statistic : NAN);
        rv_result_compare_json_num(b, "df", row.tested ? row.t.df : NAN);
        rv_result_compare_json_num(b, "p", row.tested ? row.t.p : NAN);
        json_builder_set_member_name(b, "significant");
        if (row.tested)
            json_builder_add_boolean_value(b, row.t.p < RV_COMPARE_ALPHA);
        else
            json_builder_add_null_value(b);
        rv_json_add_string_or_null(b, "untested", row.untested);
        json_builder_set_member_name(b, "n_too_small");
        json_builder_add_boolean_value(b, row.too_small);
        /* the text's marks: "better"/"worse"/"same" and "*".."~", "?" */
        rv_json_add_string_or_null(b, "direction",
                                   !row.has || !isfinite(row.change) ? NULL
                                   : row.change == 0 ? "same"
                                   : (row.change > 0) == row.higher_better ? "better" : "worse");
        rv_json_add_string_or_null(b, "mark", rv_result_compare_sig_mark(&row));
        json_builder_end_object(b);
    }
    json_builder_end_array(b);
}

static char *
format_json(const RvComparison *c, const RvCompareOptions *opts)
{
    g_autoptr(JsonBuilder) b = json_builder_new();
    g_autoptr(JsonNode) root = NULL;

    json_builder_begin_object(b);
    json_builder_set_member_name(b, "schema_version");
    /* the same key and value as every rtvirt JSON document (was
     * "compare_version", same value) */
    json_builder_add_int_value(b, 1);
    rv_json_add_string_or_null(b, "test", c->test == RV_STATS_WELCH ? "welch" : "mann-whitney");
    rv_json_add_string_or_null(b, "test_name", rv_result_stats_test_name(c->test));
    json_builder_set_member_name(b, "test_min_n");
    json_builder_add_int_value(b, rv_result_stats_min_n(c->test, RV_COMPARE_ALPHA));
    rv_result_compare_json_num(b, "alpha", RV_COMPARE_ALPHA);
    rv_json_add_string_or_null(b, "baseline", ((Scen *) c->scens->pdata[c->baseline])->label);
    rv_json_add_string_or_null(b, "baseline_note", c->baseline_note);
    json_builder_set_member_name(b, "context_notes");
    json_builder_begin_array(b);
    for (guint i = 0; i < c->context_notes->len; i++)
        json_builder_add_string_value(b, c->context_notes->pdata[i]);
    json_builder_end_array(b);
    {
        g_autoptr(RvCompareSummary) sum = rv_result_compare_summary_new(c, opts && opts->per_guest);

        rv_result_compare_summary_json(b, c, sum);
    }

    json_builder_set_member_name(b, "stores");
    json_builder_begin_array(b);
    for (guint i = 0; i < c->stores->len; i++) {
        const RvStore *st = c->stores->pdata[i];
        GPtrArray *why = rv_result_store_get_untrusted_reasons(st);
        json_builder_begin_object(b);
        rv_json_add_string_or_null(b, "dir", rv_result_store_get_dir(st));
        rv_json_add_string_or_null(b, "matrix", rv_result_store_get_matrix(st));
        rv_json_add_string_or_null(b, "host", c->hosts->pdata[i]);
        json_builder_set_member_name(b, "trusted");
        json_builder_add_boolean_value(b, rv_result_store_get_trusted(st));
        json_builder_set_member_name(b, "complete");
        json_builder_add_boolean_value(b, rv_result_store_get_complete(st));
        json_builder_set_member_name(b, "untrusted_reasons");
        json_builder_begin_array(b);
        for (guint k = 0; k < why->len; k++)
            json_builder_add_string_value(b, why->pdata[k]);
        json_builder_end_array(b);
        json_builder_end_object(b);
    }
    json_builder_end_array(b);

    json_builder_set_member_name(b, "scenarios");
    json_builder_begin_array(b);
    for (guint i = 0; i < c->scens->len; i++) {
        const Scen *s = c->scens->pdata[i];
        json_builder_begin_object(b);
        rv_json_add_string_or_null(b, "label", s->label);
        rv_json_add_string_or_null(b, "name", s->name);
        json_builder_set_member_name(b, "store");
        json_builder_add_int_value(b, s->store);
        rv_json_add_string_or_null(b, "status", s->status);
        rv_json_add_string_or_null(b, "reason", s->reason);
        rv_json_add_string_or_null(b, "description", s->description);
        rv_json_add_string_or_null(b, "load", s->load);
        rv_json_add_string_or_null(b, "baseline",
                                   ((Scen *) c->scens->pdata[rv_result_compare_baseline_of(c, i)])->label);
        json_builder_end_object(b);
    }
    json_builder_end_array(b);

    json_builder_set_member_name(b, "groups");
    json_builder_begin_array(b);
    for (guint g = 0; g < c->groups->len; g++) {
        const Group *gr = c->groups->pdata[g];
        json_builder_begin_object(b);
        rv_json_add_string_or_null(b, "workload", gr->workload);
        rv_json_add_string_or_null(b, "target", gr->target);
        json_builder_set_member_name(b, "metrics");
        json_builder_begin_array(b);
        for (guint m = 0; m < gr->metrics->len; m++) {
            const char *metric = gr->metrics->pdata[m];
            const char *unit = g_hash_table_lookup(gr->units, metric);
            json_builder_begin_object(b);
            rv_json_add_string_or_null(b, "name", metric);
            rv_json_add_string_or_null(b, "unit", *unit ? unit : NULL);
            {
                static const char *const agg_names[] = { "mean", "hmean", "max", "sum" };
                gpointer bt = g_hash_table_lookup(gr->better, metric);
                gpointer ag = g_hash_table_lookup(gr->aggregate, metric);
                rv_json_add_string_or_null(b, "better", bt && GPOINTER_TO_INT(bt) - 1 == RV_STORE_BETTER_HIGHER
                                                        ? "higher" : "lower");
                rv_json_add_string_or_null(b, "aggregate", agg_names[ag ? GPOINTER_TO_INT(ag) - 1 : 0]);
            }
            json_metric_rows(b, c, g, metric);
            json_builder_end_object(b);
        }
        json_builder_end_array(b);

        json_builder_set_member_name(b, "latency");
        json_builder_begin_array(b);
        for (guint s = 0; s < c->scens->len; s++) {
            const Cell *ce = rv_result_compare_cell(c, g, s);
            if (!ce->hist)
                continue;
            json_builder_begin_object(b);
            rv_json_add_string_or_null(b, "scenario", ((Scen *) c->scens->pdata[s])->label);
            rv_json_add_string_or_null(b, "unit", "us");
            json_builder_set_member_name(b, "samples");
            json_builder_add_int_value(b, rv_result_histogram_total(ce->hist));
            json_builder_set_member_name(b, "overflows");
            json_builder_add_int_value(b, ce->hist->overflows);
            json_builder_set_member_name(b, "repetitions");
            json_builder_add_int_value(b, ce->hist_reps);
            for (guint k = 0; k < RV_COMPARE_N_PCTS; k++) {
                gint64 us;
                gboolean beyond;
                g_autofree char *bk = g_strdup_printf("%s_beyond_range", rv_result_compare_pct_keys[k]);
                json_builder_set_member_name(b, rv_result_compare_pct_keys[k]);
                if (rv_result_histogram_percentile(ce->hist, rv_result_compare_pcts[k], &us, &beyond, NULL) < 0) {
                    json_builder_add_null_value(b);
                    beyond = FALSE;
                } else {
                    json_builder_add_int_value(b, us);
                }
                json_builder_set_member_name(b, bk);
                json_builder_add_boolean_value(b, beyond);
            }
            json_builder_set_member_name(b, "max");
            if (ce->hist->max_us >= 0)
                json_builder_add_int_value(b, ce->hist->max_us);
            else
                json_builder_add_null_value(b);
            json_percentiles(b, ce->hist);
            json_within(b, ce->hist, opts);
            json_histogram(b, ce->hist);
            json_builder_end_object(b);
        }
        json_builder_end_array(b);
        json_builder_end_object(b);
    }
    json_builder_end_array(b);
    json_outliers(b, c);
    json_attribution(b, c);
    json_cosched(b, c);
    json_budgets(b, c);
    json_builder_end_object(b);

    root = json_builder_get_root(b);
    return rv_json_to_text(root);
}

/* ---- CSV (RFC 4180) ---- */

static void
csv_field(GString *o, const char *raw)
{
    g_autofree char *v = NULL;

    if (o->len && o->str[o->len - 1] != '\n')
        g_string_append_c(o, ',');
    if (!raw)
        return;
    /* store text (scenario names, targets, reasons) is untrusted: an ESC
     * in it must not reach the terminal a CSV is catted to (util/escape.h's
     * text rule: control bytes but newline and tab become \ooo) */
    v = rv_escape_text(g_strdup(raw));
    if (strpbrk(v, ",\"\r\n")) {
        g_string_append_c(o, '"');
        for (const char *p = v; *p; p++) {
            if (*p == '"')
                g_string_append_c(o, '"');
            g_string_append_c(o, *p);
        }
        g_string_append_c(o, '"');
    } else {
        g_string_append(o, v);
    }
}

static void
csv_num(GString *o, double v)
{
    char buf[G_ASCII_DTOSTR_BUF_SIZE];

    if (!isfinite(v)) {
        csv_field(o, "");
        return;
    }
    g_ascii_formatd(buf, sizeof(buf), "%.10g", v);
    csv_field(o, buf);
}

static void
csv_int(GString *o, gint64 v)
{
    char buf[32];

    g_snprintf(buf, sizeof(buf), "%" G_GINT64_FORMAT, v);
    csv_field(o, buf);
}

static char *
format_csv(const RvComparison *c)
{
    GString *o = g_string_new("workload,target,metric,unit,scenario,virt,status,reason,"
                              "n,failed,mean,stddev,sem,min,max,change_pct,test,p,"
                              "significant,samples,overflows,p50,p99,p99_9,p99_99,bound,trusted\n");
    const char *test = c->test == RV_STATS_WELCH ? "welch" : "mann-whitney";

    for (guint g = 0; g < c->groups->len; g++) {
        const Group *gr = c->groups->pdata[g];
        for (guint m = 0; m <= gr->metrics->len; m++) {
            gboolean lat = m == gr->metrics->len;
            const char *metric = lat ? "latency" : gr->metrics->pdata[m];
            for (guint s = 0; s < c->scens->len; s++) {
                const Scen *sc = c->scens->pdata[s];
                const Cell *ce = rv_result_compare_cell(c, g, s);
                gboolean skipped = g_strcmp0(sc->status, "skipped") == 0 && ce->ok == 0;
                Row row;

                if (lat && !ce->hist)
                    continue;
                csv_field(o, gr->workload);
                csv_field(o, gr->target);
                csv_field(o, metric);
                csv_field(o, lat ? "us" : g_hash_table_lookup(gr->units, metric));
                csv_field(o, sc->label);
                csv_field(o, rv_result_compare_virt(ce));
                csv_field(o, skipped ? "skipped" : "ran");
                csv_field(o, skipped ? sc->reason : NULL);
                if (lat || skipped) {
                    for (int k = 0; k < 11; k++)
                        csv_field(o, NULL);
                } else {
                    rv_result_compare_row(c, g, s, metric, &row);
                    csv_int(o, row.has ? row.sum.n : 0);
                    csv_int(o, ce->failed);
                    csv_num(o, row.has ? row.sum.mean : NAN);
                    csv_num(o, row.has ? row.sum.stddev : NAN);
                    csv_num(o, row.has ? row.sum.sem : NAN);
                    csv_num(o, row.has ? row.sum.min : NAN);
                    csv_num(o, row.has ? row.sum.max : NAN);
                    csv_num(o, row.change);
                    csv_field(o, row.tested ? test : NULL);
                    csv_num(o, row.tested ? row.t.p : NAN);
                    csv_field(o, row.tested ? (row.t.p < RV_COMPARE_ALPHA ? "yes" : "no") : NULL);
                }
                if (lat) {
                    g_autoptr(GString) bound = g_string_new(NULL);
                    csv_int(o, rv_result_histogram_total(ce->hist));
                    csv_int(o, ce->hist->overflows);
                    for (guint k = 0; k < RV_COMPARE_N_PCTS; k++) {
                        gint64 us;
                        gboolean beyond = FALSE;
                        if (rv_result_histogram_percentile(ce->hist, rv_result_compare_pcts[k], &us, &beyond, NULL) < 0) {
                            csv_field(o, NULL);
                            continue;
                        }
                        /* numbers only in numeric columns: a value beyond
                         * the histogram range (the text's "<=N") is named
                         * in the bound column */
                        csv_int(o, us);
                        if (beyond)
                            g_string_append_printf(bound, "%s%s", bound->len ? " " : "",
                                                   rv_result_compare_pct_keys[k]);
                    }
                    csv_field(o, bound->str);
                } else {
                    for (int k = 0; k < 7; k++)
                        csv_field(o, NULL);
                }
                csv_field(o, rv_result_store_get_trusted(c->stores->pdata[sc->store]) ? "yes" : "no");
                g_string_append_c(o, '\n');
            }
        }
    }
    return g_string_free(o, FALSE);
}

double
rv_result_compare_within(const RvHistogram *h, double us, gboolean *ret_bound)
{
    guint64 total = rv_result_histogram_total(h), under = 0;

    *ret_bound = FALSE;
    if (total == 0)
        return NAN;
    for (guint i = 0; i < rv_result_histogram_n_bins(h); i++) {
        const RvHistogramBin *bin = rv_result_histogram_bin(h, i);
        if (bin->us + 1.0 > us)
            break;
        under += bin->count;
    }
    if (h->overflows && us > h->n_buckets) {
        if (h->max_us >= 0 && h->max_us < us)
            under += h->overflows;     /* all of them below the max */
        else
            *ret_bound = TRUE;         /* somewhere in n_buckets .. max */
    }
    return 100.0 * under / total;
}

/* ---- outliers across hosts ---- */

GPtrArray *
rv_result_compare_outliers(const RvComparison *c)
{
    GPtrArray *out = g_ptr_array_new_with_free_func(g_free);

    if (c->stores->len < 2)
        return out;
    for (guint g = 0; g < c->groups->len; g++) {
        const Group *gr = c->groups->pdata[g];
        for (guint m = 0; m < gr->metrics->len; m++) {
            const char *metric = gr->metrics->pdata[m];
            for (guint s = 0; s < c->scens->len; s++) {
                const Scen *sc = c->scens->pdata[s];
                GArray *mine = g_hash_table_lookup(rv_result_compare_cell(c, g, s)->values, metric);
                double lo = INFINITY, hi = -INFINITY;
                guint nvals = 0, others = 0;
                Row row;

                if (!mine || mine->len == 0)
                    continue;
                for (guint o = 0; o < c->scens->len; o++) {
                    const Scen *os = c->scens->pdata[o];
                    GArray *v;
                    if (os->store == sc->store || !g_str_equal(os->name, sc->name))
                        continue;
                    v = g_hash_table_lookup(rv_result_compare_cell(c, g, o)->values, metric);
                    if (!v || v->len == 0)
                        continue;
                    others++;
                    for (guint i = 0; i < v->len; i++) {
                        lo = MIN(lo, g_array_index(v, double, i));
                        hi = MAX(hi, g_array_index(v, double, i));
                        nvals++;
                    }
                }
                /* with one other host, each is "outside" the other: no
                 * spread to judge by */
                if (nvals < 2 || others < 2)
                    continue;
                rv_result_compare_row(c, g, s, metric, &row);
                if (isfinite(row.agg) && (row.agg < lo || row.agg > hi)) {
                    Outlier *ol = g_new0(Outlier, 1);
                    *ol = (Outlier) { g, s, metric, row.agg, lo, hi, others };
                    g_ptr_array_add(out, ol);
                }
            }
        }
    }
    return out;
}

/* ---- budgets ---- */

char *
rv_result_compare_histogram_csv(const RvComparison *c)
{
    GString *o = g_string_new("workload,target,scenario,bucket_us,count,overflow\n");

    for (guint g = 0; g < c->groups->len; g++) {
        const Group *gr = c->groups->pdata[g];
        for (guint s = 0; s < c->scens->len; s++) {
            const Cell *ce = rv_result_compare_cell(c, g, s);
            const char *label = ((Scen *) c->scens->pdata[s])->label;
            if (!ce->hist)
                continue;
            /* the non-empty bins, then the overflows in a row of their own */
            for (guint i = 0; i <= rv_result_histogram_n_bins(ce->hist); i++) {
                gboolean ovf = i == rv_result_histogram_n_bins(ce->hist);
                guint64 n = ovf ? ce->hist->overflows : rv_result_histogram_bin(ce->hist, i)->count;
                guint us = ovf ? ce->hist->n_buckets : rv_result_histogram_bin(ce->hist, i)->us;
                if (!n)
                    continue;
                csv_field(o, gr->workload);
                csv_field(o, gr->target);
                csv_field(o, label);
                csv_int(o, us);
                csv_int(o, MIN(n, (guint64) G_MAXINT64));
                csv_field(o, ovf ? "1" : "0");
                g_string_append_c(o, '\n');
            }
        }
    }
    return g_string_free(o, FALSE);
}

gboolean
rv_result_compare_skipped(const RvComparison *c, guint g, guint s)
{
    const Scen *sc = c->scens->pdata[s];

    return g_strcmp0(sc->status, "skipped") == 0 && rv_result_compare_cell(c, g, s)->ok == 0;
}

char *
rv_result_compare_format(const RvComparison *c, RvCompareFormat format)
{
    return rv_result_compare_format_opts(c, format, NULL);
}

char *
rv_result_compare_format_opts(const RvComparison *c, RvCompareFormat format,
                              const RvCompareOptions *opts)
{
    static const RvCompareOptions defaults = { 0 };

    if (!opts)
        opts = &defaults;
    switch (format) {
    case RV_COMPARE_JSON:
        return format_json(c, opts);
    case RV_COMPARE_CSV:
        return format_csv(c);
    case RV_COMPARE_TEXT:
    default:
        return rv_result_compare_format_text(c, opts);
    }
}
