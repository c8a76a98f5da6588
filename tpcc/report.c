/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * tpcc/report.c: the figures of a run: NOPM (committed New-Orders per
 * minute of the measured interval), TPM (all committed transactions per
 * minute), tps, per transaction type the count, mix share and latency
 * percentiles, deadlocks and rollbacks; as text and as a JSON document
 * (schema_version RV_TPCC_JSON_SCHEMA_VERSION).  No figure is called tpmC:
 * see tpcc/README.md.
 */
#include <errno.h>
#include <stdio.h>

#include <json-glib/json-glib.h>

#include "tpcc/run-priv.h"

typedef struct {
    double seconds;
    uint64_t count[RV_TPCC_N_TXN], total, committed, new_orders, rollbacks, deadlocks, delivery_skipped;
    RvTpccHist hist[RV_TPCC_N_TXN];
} Summary;

static const double percentiles[] = { 50, 90, 95, 99 };

static Summary *
summarize(RvTpccRun *run)
{
    Summary *s = g_new0(Summary, 1);
    for (int i = 0; run->workers && i < run->o->users; i++) {
        RvTpccWorker *w = &run->workers[i];
        g_mutex_lock(&w->lock);
        for (int t = 0; t < RV_TPCC_N_TXN; t++) {
            s->count[t] += w->count[t];
            rv_tpcc_hist_merge(&s->hist[t], &w->hist[t]);
        }
        s->rollbacks += w->rollbacks;
        s->deadlocks += w->deadlocks;
        s->delivery_skipped += w->user.delivery_skipped;
        g_mutex_unlock(&w->lock);
    }
    for (int t = 0; t < RV_TPCC_N_TXN; t++)
        s->total += s->count[t];
    s->committed = s->total - s->rollbacks;
    s->new_orders = s->count[RV_TPCC_NEW_ORDER] - s->rollbacks;
    if (run->workers && run->measure_end_us > run->measure_start_us)
        s->seconds = (run->measure_end_us - run->measure_start_us) / 1e6;
    return s;
}

static double
per_minute(const Summary *s, uint64_t n)
{
    return s->seconds > 0 ? n * 60.0 / s->seconds : 0;
}

void
rv_tpcc_report_text(RvTpccRun *run, FILE *out)
{
    g_autofree Summary *s = summarize(run);

    if (!run->workers)
        return;
    fprintf(out, "rtvirt-tpcc: %s%s, %.1f s measured, %d users, %d warehouse(s)%s\n",
            run->error ? "STOPPED EARLY" : "done", run->error ? " (see the error above)" : "", s->seconds,
            run->o->users, run->warehouses, run->tag);
    fprintf(out, "  NOPM %.0f   TPM %.0f   tps %.1f   (test mode; not tpmC)%s\n", per_minute(s, s->new_orders),
            per_minute(s, s->committed), s->seconds > 0 ? s->committed / s->seconds : 0, run->tag);
    fprintf(out, "  %-13s %9s %7s %9s %9s %9s %9s %9s\n", "transaction", "count", "share", "p50 ms", "p90 ms",
            "p95 ms", "p99 ms", "max ms");
    for (int t = 0; t < RV_TPCC_N_TXN; t++) {
        fprintf(out, "  %-13s %9" G_GUINT64_FORMAT " %6.2f%%", rv_tpcc_txn_name(t), s->count[t],
                s->total ? 100.0 * s->count[t] / s->total : 0);
        for (size_t p = 0; p < G_N_ELEMENTS(percentiles); p++)
            fprintf(out, " %9.2f", rv_tpcc_hist_percentile(&s->hist[t], percentiles[p]) / 1000.0);
        fprintf(out, " %9.2f\n", s->hist[t].max_us / 1000.0);
    }
    fprintf(out, "  deadlocks (retried) %" G_GUINT64_FORMAT "   rollbacks (New-Order, 1 %% by the spec) %" G_GUINT64_FORMAT
            "   delivery districts skipped %" G_GUINT64_FORMAT "\n", s->deadlocks, s->rollbacks, s->delivery_skipped);
}

static void
add_latency(JsonBuilder *b, const RvTpccHist *h)
{
    static const char *const keys[] = { "p50", "p90", "p95", "p99" };
    json_builder_set_member_name(b, "latency_ms");
    json_builder_begin_object(b);
    for (size_t p = 0; p < G_N_ELEMENTS(percentiles); p++) {
        json_builder_set_member_name(b, keys[p]);
        json_builder_add_double_value(b, rv_tpcc_hist_percentile(h, percentiles[p]) / 1000.0);
    }
    json_builder_set_member_name(b, "max");
    json_builder_add_double_value(b, h->max_us / 1000.0);
    json_builder_set_member_name(b, "mean");
    json_builder_add_double_value(b, h->count ? h->sum_us / 1000.0 / h->count : 0);
    json_builder_end_object(b);
}

static void
member_int(JsonBuilder *b, const char *name, gint64 v)
{
    json_builder_set_member_name(b, name);
    json_builder_add_int_value(b, v);
}

static void
member_double(JsonBuilder *b, const char *name, double v)
{
    json_builder_set_member_name(b, name);
    json_builder_add_double_value(b, v);
}

static void
member_string(JsonBuilder *b, const char *name, const char *v)
{
    json_builder_set_member_name(b, name);
    if (v)
        json_builder_add_string_value(b, v);
    else
        json_builder_add_null_value(b);
}

static void
add_config(JsonBuilder *b, RvTpccRun *run)
{
    const RvTpccOpts *o = run->o;
    member_string(b, "server", run->server);
    member_string(b, "database", o->conn.database);
    member_string(b, "scale", o->scale->name);
    json_builder_set_member_name(b, "standard_scale");
    json_builder_add_boolean_value(b, o->scale->standard);
    member_string(b, "note", o->scale->standard
                                 ? "test mode: no keying or think time; NOPM is not tpmC"
                                 : "NON-STANDARD scale 'small' (CI): not a TPC-C database; test mode: no keying or"
                                   " think time; NOPM is not tpmC");
    member_string(b, "mode", "test (no keying or think time)");
    member_int(b, "warehouses", run->warehouses);
    member_int(b, "users", o->users);
    member_double(b, "warmup_s", o->warmup_s);
    member_double(b, "duration_s", o->duration_s);
    json_builder_set_member_name(b, "nurand_c");
    json_builder_begin_object(b);
    member_int(b, "c_last_load", run->meta.c.c_last);
    member_int(b, "c_last_run", run->c.c_last);
    member_int(b, "c_id", run->c.c_id);
    member_int(b, "ol_i_id", run->c.ol_i_id);
    json_builder_end_object(b);
}

static void
add_seconds(JsonBuilder *b, RvTpccRun *run)
{
    json_builder_set_member_name(b, "per_second");
    json_builder_begin_array(b);
    for (guint i = 0; i < run->seconds->len; i++) {
        const RvTpccSecond *s = &g_array_index(run->seconds, RvTpccSecond, i);
        json_builder_begin_object(b);
        member_int(b, "t", s->t);
        json_builder_set_member_name(b, "warmup");
        json_builder_add_boolean_value(b, s->warmup);
        member_int(b, "transactions", (gint64)s->txns);
        member_int(b, "new_orders", (gint64)s->new_orders);
        member_int(b, "errors", (gint64)s->errors);
        json_builder_end_object(b);
    }
    json_builder_end_array(b);
}

static JsonNode *
build_json(RvTpccRun *run)
{
    g_autoptr(JsonBuilder) b = json_builder_new();
    g_autofree Summary *s = summarize(run);

    json_builder_begin_object(b);
    member_int(b, "schema_version", RV_TPCC_JSON_SCHEMA_VERSION);
    member_string(b, "tool", "rtvirt-tpcc");
    json_builder_set_member_name(b, "completed");
    json_builder_add_boolean_value(b, run->error == NULL);
    member_string(b, "error", run->error);
    add_config(b, run);
    member_double(b, "measured_s", s->seconds);
    member_double(b, "nopm", per_minute(s, s->new_orders));
    member_double(b, "tpm", per_minute(s, s->committed));
    member_double(b, "tps", s->seconds > 0 ? s->committed / s->seconds : 0);
    member_int(b, "committed", (gint64)s->committed);
    member_int(b, "new_orders", (gint64)s->new_orders);
    member_int(b, "deadlocks", (gint64)s->deadlocks);
    member_int(b, "rollbacks", (gint64)s->rollbacks);
    member_int(b, "delivery_skipped", (gint64)s->delivery_skipped);
    json_builder_set_member_name(b, "transactions");
    json_builder_begin_object(b);
    for (int t = 0; t < RV_TPCC_N_TXN; t++) {
        json_builder_set_member_name(b, rv_tpcc_txn_key(t));
        json_builder_begin_object(b);
        member_int(b, "count", (gint64)s->count[t]);
        member_double(b, "share", s->total ? (double)s->count[t] / s->total : 0);
        member_double(b, "target_share", rv_tpcc_mix_target(t));
        add_latency(b, &s->hist[t]);
        json_builder_end_object(b);
    }
    json_builder_end_object(b);
    add_seconds(b, run);
    json_builder_end_object(b);
    return json_builder_get_root(b);
}

int
rv_tpcc_report_json(RvTpccRun *run, const char *path)
{
    g_autoptr(JsonNode) root = build_json(run);
    g_autoptr(JsonGenerator) gen = json_generator_new();
    g_autoptr(GError) e = NULL;
    gsize len;

    json_generator_set_root(gen, root);
    json_generator_set_pretty(gen, TRUE);
    g_autofree char *text = json_generator_to_data(gen, &len);
    if (g_str_equal(path, "-")) {
        if (fwrite(text, 1, len, stdout) != len || fputc('\n', stdout) == EOF || fflush(stdout) != 0) {
            fprintf(stderr, "rtvirt-tpcc: Failed to write the JSON document to stdout: %s\n", g_strerror(errno));
            return -1;
        }
        return 0;
    }
    g_autofree char *data = g_strconcat(text, "\n", NULL);
    if (!g_file_set_contents(path, data, -1, &e)) {
        fprintf(stderr, "rtvirt-tpcc: Failed to write the JSON document: %s\n", e->message);
        return -1;
    }
    return 0;
}
