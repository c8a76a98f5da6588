/* SPDX-License-Identifier: GPL-2.0-or-later */
#include <errno.h>
#include <math.h>
#include <string.h>

#include "results/pert.h"
#include "util/error.h"
#include "util/json.h"

struct RvPertAccount {
    guint64 window_ns;
    guint64 cur_index;      /* window being filled */
    RvPertSecond cur;
    /* Totals, with Welford's running mean and M2 of every length added so
     * far.  A window's outlier threshold is taken from them when the window
     * opens, so it only uses what was seen before that window began. */
    RvPertSummary total;
    double m2_total;
};

static double
outlier_threshold(const RvPertAccount *a)
{
    if (a->total.count < 2)
        return 0;
    return a->total.mean_us + 3 * sqrt(a->m2_total / (a->total.count - 1));
}

static void
open_window(RvPertAccount *a, guint64 index)
{
    memset(&a->cur, 0, sizeof(a->cur));
    a->cur.index = index;
    a->cur.window_us = a->window_ns / 1000.0;
    a->cur.outlier_us = outlier_threshold(a);
    a->cur_index = index;
}

RvPertAccount *
rv_result_pert_new(guint64 window_ns)
{
    RvPertAccount *a = g_new0(RvPertAccount, 1);

    a->window_ns = window_ns ? window_ns : G_GUINT64_CONSTANT(1000000000);
    open_window(a, 0);
    return a;
}

void
rv_result_pert_free(RvPertAccount *acct)
{
    g_free(acct);
}

static void
close_window(RvPertAccount *a, GArray *out, double window_us)
{
    a->cur.window_us = window_us;
    if (out)
        g_array_append_val(out, a->cur);
}

void
rv_result_pert_advance(RvPertAccount *a, guint64 t_ns, gboolean final, GArray *out)
{
    guint64 idx = t_ns / a->window_ns;

    while (a->cur_index < idx) {
        close_window(a, out, a->window_ns / 1000.0);
        open_window(a, a->cur_index + 1);
    }
    if (final) {
        double part = (t_ns - a->cur_index * a->window_ns) / 1000.0;

        if (part > 0) {
            close_window(a, out, part);
            open_window(a, a->cur_index + 1);
        }
        a->total.duration_us = t_ns / 1000.0;
    } else if (t_ns / 1000.0 > a->total.duration_us) {
        a->total.duration_us = t_ns / 1000.0;
    }
}

void
rv_result_pert_add(RvPertAccount *a, guint64 t_ns, guint64 gap_ns, GArray *out)
{
    double us = gap_ns / 1000.0, delta;
    RvPertSecond *c;

    if (t_ns / a->window_ns > a->cur_index)
        rv_result_pert_advance(a, t_ns, FALSE, out);
    c = &a->cur;
    if (c->count == 0 || us < c->min_us)
        c->min_us = us;
    if (us > c->max_us)
        c->max_us = us;
    c->count++;
    c->sum_us += us;
    if (c->outlier_us > 0 && us > c->outlier_us)
        c->outliers++;

    RvPertSummary *t = &a->total;
    if (t->count == 0 || us < t->min_us)
        t->min_us = us;
    if (us > t->max_us)
        t->max_us = us;
    t->count++;
    t->sum_us += us;
    delta = us - t->mean_us;
    t->mean_us += delta / t->count;
    a->m2_total += delta * (us - t->mean_us);
    if (us < RV_PERT_HIST_US)
        t->hist[(unsigned) us]++;
    else
        t->hist_overflow++;
    if ((t_ns + gap_ns) / 1000.0 > t->duration_us)
        t->duration_us = (t_ns + gap_ns) / 1000.0;
}

void
rv_result_pert_summary(const RvPertAccount *a, RvPertSummary *ret)
{
    *ret = a->total;
    ret->stddev_us = a->total.count > 1 ? sqrt(a->m2_total / (a->total.count - 1)) : 0;
}

char *
rv_result_pert_format_second(const RvPertSecond *s)
{
    double avg = s->count ? s->sum_us / s->count : 0;
    double overhead = s->window_us > 0 ? 100.0 * s->sum_us / s->window_us : 0;

    return g_strdup_printf("pert/s: %" G_GUINT64_FORMAT " >%.2fus: %" G_GUINT64_FORMAT
                           " min: %.2f max: %.2f avg: %.2f sum/s: %.0fus overhead: %.2f%%",
                           s->count, s->outlier_us, s->outliers, s->min_us, s->max_us, avg,
                           s->sum_us, overhead);
}

void
rv_result_pert_summary_to_json(const RvPertSummary *s, gboolean histogram, JsonBuilder *b)
{
    json_builder_set_member_name(b, "count");
    json_builder_add_int_value(b, (gint64) s->count);
    json_builder_set_member_name(b, "min_us");
    json_builder_add_double_value(b, s->min_us);
    json_builder_set_member_name(b, "max_us");
    json_builder_add_double_value(b, s->max_us);
    json_builder_set_member_name(b, "avg_us");
    json_builder_add_double_value(b, s->count ? s->sum_us / s->count : 0);
    json_builder_set_member_name(b, "stddev_us");
    json_builder_add_double_value(b, s->stddev_us);
    json_builder_set_member_name(b, "sum_us");
    json_builder_add_double_value(b, s->sum_us);
    json_builder_set_member_name(b, "duration_us");
    json_builder_add_double_value(b, s->duration_us);
    json_builder_set_member_name(b, "overhead_pct");
    json_builder_add_double_value(b, s->duration_us > 0 ? 100.0 * s->sum_us / s->duration_us : 0);
    if (!histogram)
        return;
    json_builder_set_member_name(b, "histogram_us");
    json_builder_begin_array(b);
    for (unsigned i = 0; i < RV_PERT_HIST_US; i++) {
        if (!s->hist[i])
            continue;
        json_builder_begin_array(b);
        json_builder_add_int_value(b, i);
        json_builder_add_int_value(b, (gint64) s->hist[i]);
        json_builder_end_array(b);
    }
    json_builder_end_array(b);
    json_builder_set_member_name(b, "overflows");
    json_builder_add_int_value(b, (gint64) s->hist_overflow);
}

/* ---- the probe's JSON into a store record ---- */

#define PERR(error, code, name, fmt, ...) \
    rv_error_set(error, RV_ERROR_INVALID, code, "%s: " fmt, (name), ##__VA_ARGS__)

/* a count by the store's rule (results/store.h): an integer in
 * 0..RV_STORE_COUNT_MAX, util/json.h's rule for untrusted integers */
static int
node_count(const char *name, const char *key, JsonNode *n, guint64 *ret, GError **error)
{
    g_autofree char *what = g_strdup_printf("%s: %s", name, key);
    gint64 v;
    int r = rv_json_node_get_int(n, what, 0, RV_STORE_COUNT_MAX, &v, error);

    if (r < 0)
        return r;
    *ret = (guint64) v;
    return 0;
}

static int
pert_histogram(const char *name, JsonObject *sum, double max_us, RvHistogram **ret,
               GError **error)
{
    JsonNode *an = json_object_get_member(sum, "histogram_us");
    g_autoptr(RvHistogram) h = rv_result_histogram_new(RV_PERT_HIST_US);
    g_autoptr(GError) e = NULL;
    JsonArray *a;
    int r;

    if (!JSON_NODE_HOLDS_ARRAY(an))
        return PERR(error, EINVAL, name, "summary.histogram_us is not an array");
    a = json_node_get_array(an);
    for (guint i = 0; i < json_array_get_length(a); i++) {
        JsonNode *pn = json_array_get_element(a, i);
        g_autofree char *k0 = g_strdup_printf("summary.histogram_us[%u][0]", i);
        g_autofree char *k1 = g_strdup_printf("summary.histogram_us[%u][1]", i);
        JsonArray *pair;
        guint64 us, count;

        if (!JSON_NODE_HOLDS_ARRAY(pn) || json_array_get_length(pair = json_node_get_array(pn)) != 2)
            return PERR(error, EINVAL, name, "summary.histogram_us[%u] is not [us, count]", i);
        if ((r = node_count(name, k0, json_array_get_element(pair, 0), &us, error)) < 0 ||
            (r = node_count(name, k1, json_array_get_element(pair, 1), &count, error)) < 0)
            return r;
        rv_result_histogram_add(h, us, count);   /* saturates; checked below */
    }
    if (json_object_has_member(sum, "overflows")) {
        guint64 ovf;
        r = node_count(name, "summary.overflows", json_object_get_member(sum, "overflows"),
                       &ovf, error);
        if (r < 0)
            return r;
        rv_result_histogram_add(h, RV_PERT_HIST_US, ovf);
    }
    if (!isnan(max_us))
        h->max_us = (gint64) max_us;   /* checked: 0..RV_STORE_METRIC_MAX */
    if (rv_result_store_check_histogram(h, &e) < 0)
        return PERR(error, ERANGE, name, "summary.histogram_us: %s", e->message);
    *ret = g_steal_pointer(&h);
    return 0;
}

int
rv_result_pert_record_add(RvStoreRecord *rec, const char *name, const char *text,
                          gsize len, GError **error)
{
    static const struct { const char *key, *metric, *unit; } m[] = {
        { "count", "count", "count" }, { "max_us", "max_us", "us" },
        { "avg_us", "avg_us", "us" }, { "sum_us", "stolen_us", "us" },
        { "overhead_pct", "overhead_pct", "%" },
    };
    g_autoptr(JsonParser) parser = json_parser_new_immutable();
    g_autoptr(RvHistogram) hist = NULL;
    const RvJsonAt at = { name, "summary" };
    double values[G_N_ELEMENTS(m)];
    JsonNode *root = NULL, *sn;
    JsonObject *sum;
    int r;

    /* depth, 64-bit integer literals, then json-glib (util/json.h) */
    r = rv_json_parse_untrusted(parser, name, text, len, RV_JSON_MAX_DEPTH, &root, error);
    if (r < 0)
        return r;
    if (!root || !JSON_NODE_HOLDS_OBJECT(root) ||
        !(sn = json_object_get_member(json_node_get_object(root), "summary")) ||
        !JSON_NODE_HOLDS_OBJECT(sn))
        return PERR(error, EINVAL, name, "no \"summary\" object");
    sum = json_node_get_object(sn);
    for (guint i = 0; i < G_N_ELEMENTS(m); i++) {
        g_autoptr(GError) e = NULL;
        gint64 count;

        values[i] = NAN;
        /* util/json.h's rule (finite, a number, the metric range), then the
         * store's (a latency is never negative) */
        if (i == 0)
            r = rv_json_get_int_opt(sum, &at, m[i].key, 0, (gint64) RV_STORE_METRIC_MAX,
                                    &count, error);
        else
            r = rv_json_get_double_opt(sum, &at, m[i].key, -RV_STORE_METRIC_MAX,
                                       RV_STORE_METRIC_MAX, &values[i], error);
        if (r < 0)
            return r;
        if (r == 0)
            continue;
        if (i == 0)
            values[i] = (double) count;
        if (rv_result_store_check_metric(m[i].metric, values[i], m[i].unit, &e) < 0)
            return PERR(error, ERANGE, name, "summary.%s: %s", m[i].key, e->message);
    }
    if (json_object_has_member(sum, "histogram_us")) {
        r = pert_histogram(name, sum, values[1], &hist, error);
        if (r < 0)
            return r;
    }
    for (guint i = 0; i < G_N_ELEMENTS(m); i++)
        if (!isnan(values[i]))
            rv_result_store_record_add_metric(rec, m[i].metric, values[i], m[i].unit);
    if (hist)
        rv_result_store_record_add_histogram(rec, "perturbation", hist);
    return 0;
}
