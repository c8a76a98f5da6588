/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * results/report.c: `rtvirt report`: the model (compare's document plus
 * the stores' histograms) and the HTML page (results/report.h).
 *
 * Every piece of text from a store reaches the page through
 * g_markup_printf_escaped() or g_markup_escape_text(); nothing is
 * concatenated raw.
 */
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>

#include "results/budget.h"
#include "results/compare.h"
#include "results/attribution.h"
#include "results/cosched.h"
#include "results/report-priv.h"
#include "util/error.h"
#include "util/file.h"

#define REPORT_PLOT_TIMEOUT_MS 30000
/* a raw file larger than this is linked in its store, not copied */
#define REPORT_COPY_MAX (64u << 20)

static const char *const latency_workloads[] = { "cyclictest", "pert", "oslat" };
/* workloads whose metrics are no throughput (host counter snapshots) */
static const char *const other_workloads[] = { "host-counters" };

static gboolean
in_list(const char *s, const char *const *list, gsize n)
{
    for (gsize i = 0; i < n; i++)
        if (g_strcmp0(s, list[i]) == 0)
            return TRUE;
    return FALSE;
}

double
rv_report_num(JsonObject *o, const char *key)
{
    JsonNode *n = o ? json_object_get_member(o, key) : NULL;
    GType t;

    if (!n || !JSON_NODE_HOLDS_VALUE(n))
        return NAN;
    t = json_node_get_value_type(n);
    if (t == G_TYPE_INT64 || t == G_TYPE_DOUBLE)
        return json_node_get_double(n);
    return NAN;
}

static const char *
str_member(JsonObject *o, const char *key)
{
    JsonNode *n = o ? json_object_get_member(o, key) : NULL;

    if (!n || !JSON_NODE_HOLDS_VALUE(n) || json_node_get_value_type(n) != G_TYPE_STRING)
        return NULL;
    return json_node_get_string(n);
}

static JsonArray *
arr_member(JsonObject *o, const char *key)
{
    JsonNode *n = o ? json_object_get_member(o, key) : NULL;

    return n && JSON_NODE_HOLDS_ARRAY(n) ? json_node_get_array(n) : NULL;
}

JsonObject *
rv_report_row(const RGroup *g, const char *metric, const char *label)
{
    JsonArray *metrics = arr_member(g->json, "metrics");

    for (guint m = 0; metrics && m < json_array_get_length(metrics); m++) {
        JsonObject *mo = json_array_get_object_element(metrics, m);
        JsonArray *rows;

        if (g_strcmp0(str_member(mo, "name"), metric) != 0)
            continue;
        rows = arr_member(mo, "rows");
        for (guint i = 0; rows && i < json_array_get_length(rows); i++) {
            JsonObject *row = json_array_get_object_element(rows, i);

            if (g_strcmp0(str_member(row, "scenario"), label) == 0)
                return row;
        }
    }
    return NULL;
}

gboolean
rv_report_metric_higher(const Report *rp, const RGroup *g, const char *metric)
{
    for (guint i = 0; i < rp->stores->len; i++) {
        GPtrArray *recs = rv_result_store_get_records(rp->stores->pdata[i]);

        for (guint k = 0; k < recs->len; k++) {
            const RvStoreRecord *r = recs->pdata[k];
            const RvStoreMetric *m;

            if (g_strcmp0(r->workload, g->workload) != 0 ||
                g_strcmp0(r->target ? r->target : "-", g->target) != 0 ||
                g_strcmp0(r->status, "ok") != 0 ||
                !(m = rv_result_store_record_get_metric(r, metric)))
                continue;
            if (m->better == RV_STORE_BETTER_HIGHER)
                return TRUE;
        }
    }
    return FALSE;
}

static const char *host_str(JsonNode *host, const char *key);

/* ---- the model ---- */

static void
rscen_free(RScen *s)
{
    if (!s)
        return;
    g_free(s->label);
    g_free(s->name);
    g_free(s->status);
    g_free(s->reason);
    g_free(s->description);
    g_free(s);
}

static void
rlat_free(RLat *l)
{
    if (!l)
        return;
    rv_result_histogram_free(l->hist);
    g_array_unref(l->rep_max);
    g_free(l);
}

static void
rgroup_free(RGroup *g)
{
    if (!g)
        return;
    g_free(g->workload);
    g_free(g->target);
    g_free(g->slug);
    g_ptr_array_unref(g->lats);
    g_free(g);
}

static void
report_clear(Report *rp)
{
    if (rp->cmp)
        json_node_unref(rp->cmp);
    g_clear_pointer(&rp->scens, g_ptr_array_unref);
    g_clear_pointer(&rp->groups, g_ptr_array_unref);
    g_clear_pointer(&rp->store_dirs, g_ptr_array_unref);
    g_free(rp->dir);
}

/* the ok records of one scenario in one group, as compare collects them:
 * "latency" histograms merged, max_us of each repetition */
static RLat *
collect_lat(const Report *rp, const RGroup *g, guint scen)
{
    const RScen *s = rp->scens->pdata[scen];
    GPtrArray *recs = rv_result_store_get_records(rp->stores->pdata[s->store]);
    RLat *l = g_new0(RLat, 1);

    l->scen = scen;
    l->rep_max = g_array_new(FALSE, FALSE, sizeof(double));
    for (guint i = 0; i < recs->len; i++) {
        const RvStoreRecord *r = recs->pdata[i];
        const RvHistogram *h;
        const RvStoreMetric *m;

        if (g_strcmp0(r->scenario, s->name) != 0 || g_strcmp0(r->workload, g->workload) != 0 ||
            g_strcmp0(r->target ? r->target : "-", g->target) != 0 ||
            g_strcmp0(r->status, "ok") != 0)
            continue;
        if ((h = rv_result_store_record_get_histogram(r, "latency"))) {
            if (!l->hist)
                l->hist = rv_result_histogram_new(0);
            rv_result_histogram_merge(l->hist, h);
        }
        if ((m = rv_result_store_record_get_metric(r, "max_us")) && isfinite(m->value))
            g_array_append_val(l->rep_max, m->value);
    }
    return l;
}

static guint
find_scen(const Report *rp, const char *label)
{
    for (guint i = 0; i < rp->scens->len; i++)
        if (g_strcmp0(((RScen *) rp->scens->pdata[i])->label, label) == 0)
            return i;
    return G_MAXUINT;
}

static void
build_group(Report *rp, JsonObject *go, guint index)
{
    RGroup *g = g_new0(RGroup, 1);
    JsonArray *lat = arr_member(go, "latency");

    g->workload = g_strdup(str_member(go, "workload"));
    g->target = g_strdup(str_member(go, "target") ? str_member(go, "target") : "-");
    g->json = go;
    g->slug = g_strdup_printf("g%u", index + 1);
    g->lats = g_ptr_array_new_with_free_func((GDestroyNotify) rlat_free);
    g->latency = in_list(g->workload, latency_workloads, G_N_ELEMENTS(latency_workloads)) &&
                 lat && json_array_get_length(lat) > 0;
    g->throughput = !g->latency &&
                    !in_list(g->workload, latency_workloads, G_N_ELEMENTS(latency_workloads)) &&
                    !in_list(g->workload, other_workloads, G_N_ELEMENTS(other_workloads));
    for (guint i = 0; g->latency && i < json_array_get_length(lat); i++) {
        JsonObject *lo = json_array_get_object_element(lat, i);
        guint s = find_scen(rp, str_member(lo, "scenario"));
        RLat *l;

        if (s == G_MAXUINT)
            continue;
        l = collect_lat(rp, g, s);
        l->lat = lo;
        g_ptr_array_add(g->lats, l);
    }
    g_ptr_array_add(rp->groups, g);
}

/* the stores' [budget] and the options' budgets, judged as compare does */
static int
judge_budgets(Report *rp, RvComparison *cmp, const RvReportOptions *opts, GError **error)
{
    g_autoptr(GPtrArray) budgets = g_ptr_array_new_with_free_func((GDestroyNotify) rv_result_budget_free);

    for (guint i = 0; i < rp->stores->len; i++) {
        RvStore *st = rp->stores->pdata[i];
        int r = rv_result_budget_load_store(rv_result_store_get_dir(st),
                                            rv_result_store_get_matrix(st), budgets, error);

        if (r < 0)
            return r;
    }
    for (guint i = 0; opts->budgets && opts->budgets[i]; i++) {
        RvBudget *b = NULL;
        int r = rv_result_budget_parse(opts->budgets[i], NULL, "--budget", &b, error);

        if (r < 0)
            return r;
        g_ptr_array_add(budgets, b);
    }
    if (budgets->len)
        rp->not_passed = rv_result_compare_judge(cmp, budgets);
    return 0;
}

static int
build_model(Report *rp, const RvReportOptions *opts, GError **error)
{
    g_autoptr(RvComparison) cmp = NULL;
    g_autofree char *json = NULL;
    g_autoptr(JsonParser) parser = json_parser_new();
    g_autoptr(GError) local = NULL;
    JsonObject *root;
    JsonArray *arr;
    int r;

    r = rv_result_compare_build(rp->stores, opts->baseline, opts->test, &cmp, error);
    if (r < 0)
        return r;
    r = judge_budgets(rp, cmp, opts, error);
    if (r < 0)
        return r;
    json = rv_result_compare_format(cmp, RV_COMPARE_JSON);
    if (!json_parser_load_from_data(parser, json, -1, &local))
        return rv_error_set(error, RV_ERROR_FAILED, EINVAL,
                            "compare's JSON document does not parse: %s", local->message);
    rp->cmp = json_node_copy(json_parser_get_root(parser));
    root = json_node_get_object(rp->cmp);
    rp->scens = g_ptr_array_new_with_free_func((GDestroyNotify) rscen_free);
    rp->groups = g_ptr_array_new_with_free_func((GDestroyNotify) rgroup_free);
    arr = arr_member(root, "scenarios");
    for (guint i = 0; arr && i < json_array_get_length(arr); i++) {
        JsonObject *so = json_array_get_object_element(arr, i);
        RScen *s = g_new0(RScen, 1);
        double store = rv_report_num(so, "store");

        s->label = g_strdup(str_member(so, "label"));
        s->name = g_strdup(str_member(so, "name"));
        s->status = g_strdup(str_member(so, "status"));
        s->reason = g_strdup(str_member(so, "reason"));
        s->description = g_strdup(str_member(so, "description"));
        s->store = isfinite(store) && store >= 0 && store < rp->stores->len ? (guint) store : 0;
        s->host = host_str(rv_result_store_get_host(rp->stores->pdata[s->store]), "hostname");
        g_ptr_array_add(rp->scens, s);
    }
    for (guint i = 1; i < rp->stores->len; i++)
        rp->multi_host |= g_strcmp0(host_str(rv_result_store_get_host(rp->stores->pdata[0]),
                                             "hostname"),
                                    host_str(rv_result_store_get_host(rp->stores->pdata[i]),
                                             "hostname")) != 0;
    arr = arr_member(root, "groups");
    for (guint i = 0; arr && i < json_array_get_length(arr); i++)
        build_group(rp, json_array_get_object_element(arr, i), i);
    return 0;
}

/* ---- copies of the stores ---- */

/* "raw/NAME" as rv_result_store_write_raw() makes it, nothing else: a
 * relpath from run.json is untrusted ("../../etc/shadow") */
static gboolean
raw_relpath_ok(const char *rel)
{
    const char *name;

    if (!rel || !g_str_has_prefix(rel, "raw/"))
        return FALSE;
    name = rel + 4;
    if (!*name || name[0] == '.')
        return FALSE;
    for (const char *p = name; *p; p++)
        if (!g_ascii_isalnum(*p) && *p != '.' && *p != '_' && *p != '-')
            return FALSE;
    return TRUE;
}

static int
copy_file(const char *from, const char *to, GError **error)
{
    g_autofree char *data = NULL;
    gssize n = rv_file_read(from, REPORT_COPY_MAX, &data, error);
    g_autoptr(GError) local = NULL;

    if (n < 0)
        return (int) n;
    if (!g_file_set_contents(to, data, n, &local))
        return rv_error_set(error, RV_ERROR_FAILED, EIO, "Failed to write '%s': %s", to,
                            local->message);
    return 0;
}

/* stores/N-BASE/{run.json,raw/...}: what the page links to */
static int
copy_stores(Report *rp, GError **error)
{
    rp->store_dirs = g_ptr_array_new_with_free_func(g_free);
    for (guint i = 0; i < rp->stores->len; i++) {
        RvStore *st = rp->stores->pdata[i];
        g_autofree char *base = g_path_get_basename(rv_result_store_get_dir(st));
        char *rel = g_strdup_printf("stores/%u-%s", i + 1, base);
        g_autofree char *raw = g_strdup_printf("%s/%s/raw", rp->dir, rel);
        g_autofree char *from = g_build_filename(rv_result_store_get_dir(st), "run.json", NULL);
        g_autofree char *to = g_strdup_printf("%s/%s/run.json", rp->dir, rel);
        GPtrArray *recs = rv_result_store_get_records(st);
        int r;

        g_ptr_array_add(rp->store_dirs, rel);
        if (g_mkdir_with_parents(raw, 0755) < 0)
            return rv_error_set(error, RV_ERROR_FAILED, errno, "Failed to create '%s': %s",
                                raw, g_strerror(errno));
        r = copy_file(from, to, error);
        if (r < 0)
            return r;
        for (guint k = 0; k < recs->len; k++) {
            const RvStoreRecord *rec = recs->pdata[k];

            for (guint j = 0; j < rec->raw->len; j++) {
                const char *rr = rec->raw->pdata[j];
                g_autofree char *src = NULL, *dst = NULL;
                g_autoptr(GError) miss = NULL;

                if (!raw_relpath_ok(rr))
                    continue;
                src = g_build_filename(rv_result_store_get_dir(st), rr, NULL);
                dst = g_strdup_printf("%s/%s/%s", rp->dir, rel, rr);
                /* a raw file the store lost is shown unlinked, not fatal */
                (void) copy_file(src, dst, &miss);
            }
        }
    }
    return 0;
}

/* ---- the page ---- */

static const char page_style[] =
    "body{font-family:sans-serif;max-width:1100px;margin:1em auto;padding:0 1em;color:#222}"
    "h1{font-size:1.6em}h2{border-bottom:1px solid #ccc;padding-bottom:.2em;margin-top:1.6em}"
    "table{border-collapse:collapse;margin:.5em 0}"
    "td,th{border:1px solid #ccc;padding:.2em .5em;text-align:left;vertical-align:top}"
    "td.n{text-align:right;font-variant-numeric:tabular-nums}"
    "th{background:#f2f2f2}.bad{background:#fde2e1;border:2px solid #c0392b;padding:.6em}"
    ".good{background:#e3f4e3;border:1px solid #2e7d32;padding:.6em}"
    ".note{background:#fff7d6;border:1px solid #c9a400;padding:.4em}"
    "figure{margin:1em 0}figcaption{color:#555;font-size:.92em;max-width:860px}"
    "img{border:1px solid #ddd;max-width:100%}code{font-size:.92em}";

static void
add(GString *o, const char *fmt, ...) G_GNUC_PRINTF(2, 3);

/* appends @fmt with every string argument escaped for HTML */
static void
add(GString *o, const char *fmt, ...)
{
    va_list ap;
    g_autofree char *s = NULL;

    va_start(ap, fmt);
    s = g_markup_vprintf_escaped(fmt, ap);
    va_end(ap);
    g_string_append(o, s);
}

/* a number for a table cell: the text rounded, data-v exact */
static void
add_num(GString *o, double v, const char *prefix)
{
    char exact[G_ASCII_DTOSTR_BUF_SIZE];

    if (!isfinite(v)) {
        g_string_append(o, "<td class=\"n\">-</td>");
        return;
    }
    g_ascii_formatd(exact, sizeof(exact), "%.17g", v);
    if (fabs(v) >= 100 || v == floor(v))
        add(o, "<td class=\"n\" data-v=\"%s\">%s%.0f</td>", exact, prefix ? prefix : "", v);
    else
        add(o, "<td class=\"n\" data-v=\"%s\">%s%.2f</td>", exact, prefix ? prefix : "", v);
}

static const char *
host_str(JsonNode *host, const char *key)
{
    return host && JSON_NODE_HOLDS_OBJECT(host) ? str_member(json_node_get_object(host), key)
                                                : NULL;
}

static void
kv(GString *o, const char *key, const char *value)
{
    add(o, "<tr><th>%s</th><td>%s</td></tr>\n", key, value ? value : "unknown");
}

/* virt of a store's records: "kvm", "tcg", "kvm+tcg" or NULL */
static const char *
store_virt(RvStore *st)
{
    GPtrArray *recs = rv_result_store_get_records(st);
    gboolean kvm = FALSE, tcg = FALSE;

    for (guint i = 0; i < recs->len; i++) {
        const RvStoreRecord *r = recs->pdata[i];

        kvm |= g_strcmp0(r->virt, "kvm") == 0;
        tcg |= g_strcmp0(r->virt, "tcg") == 0;
    }
    return kvm && tcg ? "kvm+tcg" : tcg ? "tcg" : kvm ? "kvm" : NULL;
}

static void
page_store(GString *o, const Report *rp, guint i)
{
    RvStore *st = rp->stores->pdata[i];
    JsonNode *host = rv_result_store_get_host(st);
    const RvStoreContext *c = rv_result_store_get_context(st);
    GPtrArray *why = rv_result_store_get_untrusted_reasons(st);
    g_autofree char *base = g_path_get_basename(rv_result_store_get_dir(st));
    g_autofree char *cpu = NULL, *smt = NULL, *iso = NULL, *dmi = NULL, *vers = NULL;
    const char *virt = store_virt(st);

    add(o, "<h3 id=\"store%u\">Store %u: %s</h3>\n<table>\n", i + 1, i + 1, base);
    add(o, "<tr><th>run.json</th><td><a href=\"%s/run.json\">%s/run.json</a> (copy of %s)"
        "</td></tr>\n", (char *) rp->store_dirs->pdata[i], (char *) rp->store_dirs->pdata[i],
        rv_result_store_get_dir(st));
    kv(o, "matrix", rv_result_store_get_matrix(st));
    kv(o, "host", host_str(host, "hostname"));
    kv(o, "kernel", c && c->kernel_release ? c->kernel_release : host_str(host, "kernel_release"));
    kv(o, "kernel command line", c ? c->kernel_cmdline : NULL);
    if (c && (c->cpu_model_name || c->cpu_family >= 0))
        cpu = g_strdup_printf("%s (%s family %" G_GINT64_FORMAT " model %" G_GINT64_FORMAT
                              " stepping %" G_GINT64_FORMAT ", microcode %s)",
                              c->cpu_model_name ? c->cpu_model_name : "?",
                              c->cpu_vendor ? c->cpu_vendor : "?", c->cpu_family, c->cpu_model,
                              c->cpu_stepping, c->cpu_microcode ? c->cpu_microcode : "?");
    kv(o, "CPU", cpu);
    smt = g_strdup_printf("control %s, active %s",
                          c && c->smt_control ? c->smt_control
                                              : host_str(host, "smt_control") ?: "?",
                          c && c->smt_active >= 0 ? (c->smt_active ? "yes" : "no") : "?");
    kv(o, "SMT", smt);
    iso = g_strdup_printf("isolated: %s; nohz_full: %s; online: %s",
                          host_str(host, "cpus_isolated") && *host_str(host, "cpus_isolated")
                              ? host_str(host, "cpus_isolated") : "none",
                          host_str(host, "cpus_nohz_full") ?: "none",
                          host_str(host, "cpus_online") ?: "?");
    kv(o, "isolation", iso);
    add(o, "<tr><th>virt</th><td><strong>virt=%s</strong>%s</td></tr>\n", virt ? virt : "-",
        g_strcmp0(virt, "kvm") == 0 ? "" : " (QEMU emulation without KVM: no real-time figures)");
    if (c && (c->dmi_sys_vendor || c->dmi_product_name || c->dmi_bios_version))
        dmi = g_strdup_printf("%s %s, BIOS %s %s", c->dmi_sys_vendor ?: "?",
                              c->dmi_product_name ?: "?", c->dmi_bios_version ?: "?",
                              c->dmi_bios_date ?: "");
    kv(o, "system (DMI)", dmi);
    if (c)
        vers = g_strdup_printf("rtvirt %s, QEMU %s, libvirt %s, rt-tests %s (cyclictest %s)",
                               c->ver_rtvirt ?: "?", c->ver_qemu ?: "?", c->ver_libvirt ?: "?",
                               c->ver_rt_tests ?: "?", c->ver_cyclictest ?: "?");
    kv(o, "versions", vers);
    kv(o, "complete", rv_result_store_get_complete(st) ? "yes" : "no: the matrix did not end");
    if (rv_result_store_get_trusted(st)) {
        add(o, "<tr><th>trusted</th><td>yes</td></tr>\n");
    } else {
        add(o, "<tr><th>trusted</th><td><strong>NO, untrusted</strong>, because:<ul>");
        for (guint k = 0; k < why->len; k++)
            add(o, "<li>%s</li>", (char *) why->pdata[k]);
        add(o, "</ul></td></tr>\n");
    }
    g_string_append(o, "</table>\n");
}

/* two stores of one host name whose contexts differ: say so, once */
static void
page_same_host_notes(GString *o, const Report *rp)
{
    for (guint i = 0; i < rp->stores->len; i++)
        for (guint k = i + 1; k < rp->stores->len; k++) {
            RvStore *a = rp->stores->pdata[i], *b = rp->stores->pdata[k];
            const char *ha = host_str(rv_result_store_get_host(a), "hostname");
            const char *hb = host_str(rv_result_store_get_host(b), "hostname");
            g_autofree char *diff = NULL;

            if (!ha || g_strcmp0(ha, hb) != 0)
                continue;
            diff = rv_result_context_differences(rv_result_store_get_context(a),
                                                  rv_result_store_get_context(b));
            if (diff)
                add(o, "<p class=\"note\">NOTE: stores %u and %u both ran on host %s, but not "
                    "on the same host setup: %s.</p>\n", i + 1, k + 1, ha, diff);
        }
}

/* one cell of the answer: "value change word mark", as the text has it */
/* " bad" or " good" for a change the test finds outside the noise (its
 * mark has a '*'), "" for one within the noise, too few repetitions or
 * none: a colour says "this changed", which noise did not. */
static const char *
change_class(const char *direction, const char *mark)
{
    if (!mark || !strchr(mark, '*'))
        return "";
    return g_strcmp0(direction, "worse") == 0 ? " bad"
         : g_strcmp0(direction, "better") == 0 ? " good" : "";
}

static void
answer_cell(GString *o, JsonObject *col, JsonObject *cell)
{
    double v = rv_report_num(cell, "value"), ch = rv_report_num(cell, "change");
    gboolean pct = g_strcmp0(str_member(col, "change"), "percent") == 0;
    gboolean lat = g_strcmp0(str_member(col, "unit"), "us") == 0;
    const char *dir = str_member(cell, "direction"), *mark = str_member(cell, "mark");
    JsonNode *bn = json_object_get_member(cell, "bound");
    char exact[G_ASCII_DTOSTR_BUF_SIZE];
    g_autofree char *val = NULL, *chg = NULL;

    if (!isfinite(v)) {
        g_string_append(o, "<td class=\"n\">-</td>");
        return;
    }
    g_ascii_formatd(exact, sizeof(exact), "%.17g", v);
    val = g_strdup_printf(lat || fabs(v) >= 1000 ? "%s%.0f" : fabs(v) >= 10 ? "%s%.1f" : "%s%.3g",
                          bn && JSON_NODE_HOLDS_VALUE(bn) && json_node_get_boolean(bn) ? "&lt;=" : "",
                          v);
    chg = !isfinite(ch) ? g_strdup(dir ? "" : " (base)")
        : pct ? g_strdup_printf(" %+.1f%%", ch)
        : lat ? g_strdup_printf(" %+.0f", ch) : g_strdup_printf(" %+.1f", ch);
    /* val holds no store text: numbers and the escaped "<=" only */
    g_string_append_printf(o, "<td class=\"n%s\" data-v=\"%s\">%s", change_class(dir, mark), exact,
                           val);
    add(o, "%s%s%s%s%s</td>", chg, dir ? " " : "", dir ?: "", mark && *mark ? " " : "",
        mark ?: "");
}

/* The answer the page opens with (compare's "summary"): per scenario the
 * RT latency, the neighbours' throughput and cpu% against the baseline,
 * marked as the text marks them, the sentences, what each scenario is. */
static void
page_answer(GString *o, const Report *rp)
{
    JsonObject *root = json_node_get_object(rp->cmp);
    JsonNode *sn = json_object_get_member(root, "summary");
    JsonObject *sum = sn && JSON_NODE_HOLDS_OBJECT(sn) ? json_node_get_object(sn) : NULL;
    JsonArray *cols = sum ? arr_member(sum, "columns") : NULL;
    JsonArray *rows = sum ? arr_member(sum, "rows") : NULL;
    JsonArray *answers = sum ? arr_member(sum, "answers") : NULL;

    if (!cols || !rows || !json_array_get_length(cols))
        return;
    g_string_append(o, "<h2 id=\"answer\">The answer</h2>\n<table class=\"answer\">\n"
                    "<tr><th>scenario</th>");
    for (guint k = 0; k < json_array_get_length(cols); k++) {
        JsonObject *col = json_array_get_object_element(cols, k);
        const char *unit = str_member(col, "unit");

        add(o, "<th>%s%s%s%s</th>", str_member(col, "title") ?: "?",
            unit && *unit && g_strcmp0(unit, "%") ? " [" : "",
            unit && *unit && g_strcmp0(unit, "%") ? unit : "",
            unit && *unit && g_strcmp0(unit, "%") ? "]" : "");
    }
    g_string_append(o, "</tr>\n");
    for (guint i = 0; i < json_array_get_length(rows); i++) {
        JsonObject *row = json_array_get_object_element(rows, i);
        JsonNode *cn = json_object_get_member(row, "cells");
        JsonObject *cells = cn && JSON_NODE_HOLDS_OBJECT(cn) ? json_node_get_object(cn) : NULL;

        add(o, "<tr data-scenario=\"%s\"><td>%s</td>", str_member(row, "scenario") ?: "?",
            str_member(row, "scenario") ?: "?");
        for (guint k = 0; k < json_array_get_length(cols); k++) {
            JsonObject *col = json_array_get_object_element(cols, k);
            const char *key = str_member(col, "key");
            JsonNode *c = cells && key ? json_object_get_member(cells, key) : NULL;

            if (c && JSON_NODE_HOLDS_OBJECT(c))
                answer_cell(o, col, json_node_get_object(c));
            else
                g_string_append(o, "<td class=\"n\">-</td>");
        }
        g_string_append(o, "</tr>\n");
    }
    g_string_append(o, "</table>\n<p>better / worse: the change against the baseline at the "
                    "same load level (lower latency and cpu% are better, higher throughput is "
                    "better; latency in us, cpu% in points, throughput in %); * p&lt;0.05, "
                    "** p&lt;0.01, *** p&lt;0.001: significant; ~ within the noise; ? too few "
                    "repetitions for the test; coloured only where significant.</p>\n"
                    "<ul class=\"answers\">\n");
    for (guint i = 0; answers && i < json_array_get_length(answers); i++)
        add(o, "<li>%s</li>\n", json_array_get_string_element(answers, i));
    g_string_append(o, "</ul>\n");
}

/* the index of @v in @list (char*), appended when absent */
static guint
index_of(GPtrArray *list, const char *v)
{
    for (guint i = 0; i < list->len; i++)
        if (g_str_equal(list->pdata[i], v))
            return i;
    g_ptr_array_add(list, g_strdup(v));
    return list->len - 1;
}

/* one level table: rows the load levels, per scenario "mean [std% / sem%]
 * change mark cpu%", as compare's text has it */
static void
page_level_table(GString *o, const RGroup *g, const char *metric,
                 const RGroup *cpu, GPtrArray *bases, GPtrArray *loads, GPtrArray *labels)
{
    add(o, "<h3>%s of %s per load level</h3>\n<table class=\"levels\">\n<tr><th>level</th>",
        metric, g->target);
    for (guint b = 0; b < bases->len; b++)
        add(o, "<th>%s: mean [std%% / sem%%] change cpu%%</th>", (char *) bases->pdata[b]);
    g_string_append(o, "</tr>\n");
    for (guint l = 0; l < loads->len; l++) {
        add(o, "<tr><td>%s</td>", (char *) loads->pdata[l]);
        for (guint b = 0; b < bases->len; b++) {
            const char *label = labels->pdata[b * loads->len + l];
            JsonObject *row = label ? rv_report_row(g, metric, label) : NULL;
            JsonObject *cr = label && cpu ? rv_report_row(cpu, RV_STORE_METRIC_CPU_PCT, label) : NULL;
            double v = row ? rv_report_num(row, "aggregate") : NAN;
            double ch = row ? rv_report_num(row, "change_pct") : NAN;
            double cp = cr ? rv_report_num(cr, "aggregate") : NAN;
            g_autofree char *txt = NULL;
            char exact[G_ASCII_DTOSTR_BUF_SIZE];

            if (!isfinite(v)) {
                g_string_append(o, "<td class=\"n\">-</td>");
                continue;
            }
            g_ascii_formatd(exact, sizeof(exact), "%.17g", v);
            txt = g_strdup_printf(fabs(v) >= 10 ? "%.1f [%.1f%% / %.1f%%]" : "%.3g [%.1f%% / %.1f%%]",
                                  v, isfinite(rv_report_num(row, "std_pct")) ? rv_report_num(row, "std_pct") : 0,
                                  isfinite(rv_report_num(row, "sem_pct")) ? rv_report_num(row, "sem_pct") : 0);
            add(o, "<td class=\"n%s\" data-v=\"%s\">%s",
                change_class(str_member(row, "direction"), str_member(row, "mark")), exact, txt);
            if (isfinite(ch))
                add(o, " %+.1f%% %s %s", ch, str_member(row, "direction") ?: "",
                    str_member(row, "mark") ?: "");
            else
                g_string_append(o, " base");
            if (isfinite(cp))
                add(o, " %.1f%%", cp);
            g_string_append(o, "</td>");
        }
        g_string_append(o, "</tr>\n");
    }
    g_string_append(o, "</table>\n");
}

/* With load levels: per throughput metric the levels as rows (the
 * core-scheduling series' sysbench/gemm tables). */
static void
page_levels(GString *o, const Report *rp)
{
    JsonArray *scens = arr_member(json_node_get_object(rp->cmp), "scenarios");
    g_autoptr(GPtrArray) bases = g_ptr_array_new_with_free_func(g_free);
    g_autoptr(GPtrArray) loads = g_ptr_array_new_with_free_func(g_free);
    g_autoptr(GPtrArray) labels = g_ptr_array_new();
    const RGroup *cpu = NULL;
    gboolean head = FALSE;

    for (guint i = 0; scens && i < json_array_get_length(scens); i++) {
        JsonObject *so = json_array_get_object_element(scens, i);
        const char *load = str_member(so, "load"), *name = str_member(so, "name");

        if (load && name && json_object_get_int_member_with_default(so, "store", 0) == 0) {
            g_autofree char *base = g_strndup(name, strcspn(name, "@"));

            index_of(bases, base);
            index_of(loads, load);
        }
    }
    if (!loads->len)
        return;
    g_ptr_array_set_size(labels, bases->len * loads->len);
    for (guint i = 0; i < json_array_get_length(scens); i++) {
        JsonObject *so = json_array_get_object_element(scens, i);
        const char *load = str_member(so, "load"), *name = str_member(so, "name");

        if (load && name && json_object_get_int_member_with_default(so, "store", 0) == 0) {
            g_autofree char *base = g_strndup(name, strcspn(name, "@"));

            labels->pdata[index_of(bases, base) * loads->len + index_of(loads, load)] =
                (gpointer) str_member(so, "label");
        }
    }
    for (guint i = 0; i < rp->groups->len && !cpu; i++) {
        JsonArray *ms = arr_member(((RGroup *) rp->groups->pdata[i])->json, "metrics");

        for (guint m = 0; ms && m < json_array_get_length(ms); m++)
            if (g_strcmp0(str_member(json_array_get_object_element(ms, m), "name"),
                          RV_STORE_METRIC_CPU_PCT) == 0)
                cpu = rp->groups->pdata[i];
    }
    for (guint i = 0; i < rp->groups->len; i++) {
        const RGroup *g = rp->groups->pdata[i];
        JsonArray *ms = arr_member(g->json, "metrics");

        for (guint m = 0; ms && m < json_array_get_length(ms); m++) {
            JsonObject *mo = json_array_get_object_element(ms, m);

            if (g_strcmp0(str_member(mo, "better"), "higher") != 0)
                continue;
            if (!head)
                g_string_append(o, "<h2 id=\"levels\">Per load level</h2>\n<p>Change against "
                                "the baseline at the same level; cpu%: the host's.</p>\n");
            head = TRUE;
            page_level_table(o, g, str_member(mo, "name"), cpu, bases, loads, labels);
        }
    }
}

/* The distinct baselines of the answer's rows, in order ("baseline@t1,
 * baseline@t2" at two load levels), or NULL when the summary has none. */
static char *
page_baselines(JsonObject *root)
{
    JsonNode *sn = json_object_get_member(root, "summary");
    JsonArray *rows = sn && JSON_NODE_HOLDS_OBJECT(sn) ? arr_member(json_node_get_object(sn), "rows")
                                                      : NULL;
    g_autoptr(GPtrArray) seen = g_ptr_array_new();

    for (guint i = 0; rows && i < json_array_get_length(rows); i++) {
        const char *b = str_member(json_array_get_object_element(rows, i), "baseline");

        if (b && !g_ptr_array_find_with_equal_func(seen, b, g_str_equal, NULL))
            g_ptr_array_add(seen, (char *) b);
    }
    if (!seen->len)
        return NULL;
    g_ptr_array_add(seen, NULL);
    return g_strjoinv(", ", (char **) seen->pdata);
}

static void
page_head(GString *o, const Report *rp, const RvReportOptions *opts)
{
    g_autoptr(GString) title = g_string_new(opts->title);
    JsonObject *root = json_node_get_object(rp->cmp);
    guint untrusted = 0;

    if (!opts->title) {
        g_string_append(title, "rtvirt report:");
        for (guint i = 0; i < rp->stores->len; i++)
            g_string_append_printf(title, " %s", rv_result_store_get_matrix(rp->stores->pdata[i])
                                   ?: "?");
    }
    add(o, "<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n"
        "<title>%s</title>\n<style>%s</style>\n</head>\n<body>\n<h1>%s</h1>\n",
        title->str, page_style, title->str);
    for (guint i = 0; i < rp->stores->len; i++)
        untrusted += !rv_result_store_get_trusted(rp->stores->pdata[i]);
    if (untrusted)
        add(o, "<p class=\"bad\" id=\"trust\"><strong>UNTRUSTED</strong>: %u of %u store(s) "
            "are untrusted (the reasons are below, per store); their figures show the machinery, "
            "not real-time latencies.</p>\n", untrusted, rp->stores->len);
    else
        add(o, "<p class=\"good\" id=\"trust\">Every store is trusted.</p>\n");
    page_answer(o, rp);
    page_levels(o, rp);
    g_string_append(o, "<ul id=\"summary\">\n");
    for (guint i = 0; i < rp->stores->len; i++) {
        RvStore *st = rp->stores->pdata[i];
        const char *virt = store_virt(st);

        add(o, "<li><a href=\"#store%u\">Store %u</a>: matrix %s on host %s, <strong>virt=%s"
            "</strong>, %s</li>\n", i + 1, i + 1, rv_result_store_get_matrix(st) ?: "?",
            host_str(rv_result_store_get_host(st), "hostname") ?: "?", virt ? virt : "-",
            rv_result_store_get_trusted(st) ? "trusted" : "UNTRUSTED");
    }
    g_string_append(o, "</ul>\n");
    {
        /* each load level's baseline cell, not the first alone */
        g_autofree char *bases = page_baselines(root);

        add(o, "<p>Baseline: <strong>%s</strong>; test: %s.%s%s</p>\n",
            bases ? bases : str_member(root, "baseline") ?: "?",
            str_member(root, "test_name") ?: "?", str_member(root, "baseline_note") ? " " : "",
            str_member(root, "baseline_note") ?: "");
    }
    {
        /* compare's NOTEs on the stores' setups, as its text prints them */
        JsonArray *notes = arr_member(root, "context_notes");

        for (guint i = 0; notes && i < json_array_get_length(notes); i++)
            add(o, "<p class=\"note\">NOTE: %s</p>\n", json_array_get_string_element(notes, i));
    }
    g_string_append(o, "<h2 id=\"what\">What ran</h2>\n");
    for (guint i = 0; i < rp->stores->len; i++)
        page_store(o, rp, i);
    page_same_host_notes(o, rp);
    g_string_append(o, "<h3>Scenarios</h3>\n<table>\n<tr><th>scenario</th><th>store</th>"
                    "<th>host</th><th>status</th><th>reason</th><th>description</th></tr>\n");
    for (guint i = 0; i < rp->scens->len; i++) {
        const RScen *s = rp->scens->pdata[i];

        add(o, "<tr><td>%s</td><td>%u</td><td>%s</td><td>%s</td><td>%s</td><td>%s</td></tr>\n",
            s->label, s->store + 1, s->host ?: "?",
            g_strcmp0(s->status, "skipped") == 0 ? "SKIPPED" : s->status ?: "?",
            s->reason ?: "", s->description ?: "");
    }
    g_string_append(o, "</table>\n");
}

static void
page_plots(GString *o, GPtrArray *plots, guint from)
{
    for (guint i = from; i < plots->len; i++) {
        const RPlot *p = plots->pdata[i];

        add(o, "<figure><img src=\"%s\" alt=\"%s\" width=\"860\" height=\"420\">"
            "<figcaption><strong>%s.</strong> %s</figcaption></figure>\n", p->file, p->title,
            p->title, p->caption ?: "");
    }
}

/* the percentile table of a latency group, from compare's document */
static void
page_latency_table(GString *o, const Report *rp, const RGroup *g)
{
    static const char *const keys[] = { "p50", "p99", "p99_9", "p99_99" };

    add(o, "<table class=\"lat\" data-group=\"%s %s\">\n<tr><th>scenario</th><th>repetitions"
        "</th><th>samples</th><th>overflows</th><th>p50</th><th>p99</th><th>p99.9</th>"
        "<th>p99.99</th><th>max</th></tr>\n", g->workload, g->target);
    for (guint i = 0; i < g->lats->len; i++) {
        const RLat *l = g->lats->pdata[i];

        add(o, "<tr data-scenario=\"%s\"><td>%s</td>",
            ((RScen *) rp->scens->pdata[l->scen])->label,
            ((RScen *) rp->scens->pdata[l->scen])->label);
        add_num(o, rv_report_num(l->lat, "repetitions"), NULL);
        add_num(o, rv_report_num(l->lat, "samples"), NULL);
        add_num(o, rv_report_num(l->lat, "overflows"), NULL);
        for (guint k = 0; k < G_N_ELEMENTS(keys); k++) {
            g_autofree char *bk = g_strconcat(keys[k], "_beyond_range", NULL);
            JsonNode *bn = json_object_get_member(l->lat, bk);
            gboolean beyond = bn && JSON_NODE_HOLDS_VALUE(bn) &&
                              json_node_get_value_type(bn) == G_TYPE_BOOLEAN &&
                              json_node_get_boolean(bn);

            add_num(o, rv_report_num(l->lat, keys[k]), beyond ? "<=" : NULL);
        }
        add_num(o, rv_report_num(l->lat, "max"), NULL);
        g_string_append(o, "</tr>\n");
    }
    g_string_append(o, "</table>\n<p>Latencies in us; \"&lt;=\" marks a percentile beyond "
                    "the histogram's range (the max is its upper bound).</p>\n");
}

/* every metric of a group as compare has it: n, mean, stddev, SEM, ... */
static void
page_metric_table(GString *o, const RGroup *g)
{
    static const char *const cols[] = { "n", "failed", "mean", "stddev", "sem", "min", "max",
                                        "change_pct", "p" };
    JsonArray *metrics = arr_member(g->json, "metrics");

    add(o, "<table class=\"metrics\" data-group=\"%s %s\">\n<tr><th>metric</th><th>scenario"
        "</th><th>virt</th><th>n</th><th>failed</th><th>mean</th><th>stddev</th><th>SEM</th>"
        "<th>min</th><th>max</th><th>change %%</th><th>p</th><th></th><th>sig</th></tr>\n",
        g->workload, g->target);
    for (guint m = 0; metrics && m < json_array_get_length(metrics); m++) {
        JsonObject *mo = json_array_get_object_element(metrics, m);
        JsonArray *rows = arr_member(mo, "rows");
        const char *unit = str_member(mo, "unit");

        for (guint i = 0; rows && i < json_array_get_length(rows); i++) {
            JsonObject *row = json_array_get_object_element(rows, i);
            const char *cls;

            if (rv_report_num(row, "n") == 0 && rv_report_num(row, "failed") == 0)
                continue;     /* SKIPPED: listed with its reason above */
            add(o, "<tr data-metric=\"%s\" data-scenario=\"%s\"><td>%s%s%s%s</td><td>%s</td>"
                "<td>%s</td>", str_member(mo, "name") ?: "?", str_member(row, "scenario") ?: "?",
                str_member(mo, "name") ?: "?", unit ? " [" : "", unit ?: "", unit ? "]" : "",
                str_member(row, "scenario") ?: "?", str_member(row, "virt") ?: "-");
            for (guint k = 0; k < G_N_ELEMENTS(cols); k++)
                add_num(o, rv_report_num(row, cols[k]), NULL);
            cls = change_class(str_member(row, "direction"), str_member(row, "mark"));
            add(o, "<td class=\"%s\">%s</td><td>%s</td></tr>\n", *cls ? cls + 1 : "",
                str_member(row, "direction") ?: "", str_member(row, "mark") ?: "");
        }
    }
    g_string_append(o, "</table>\n");
}

/* compare's verdicts ("budgets" of its document), or "no budget" */
static void
page_budgets(GString *o, const Report *rp)
{
    JsonArray *bs = arr_member(json_node_get_object(rp->cmp), "budgets");

    g_string_append(o, "<h2 id=\"budgets\">Budgets</h2>\n");
    if (!bs || json_array_get_length(bs) == 0) {
        g_string_append(o, "<p class=\"note\">no budget: no [budget] in the stores' "
                        "matrices and no --budget, so nothing was judged.</p>\n");
        return;
    }
    g_string_append(o, "<table class=\"budgets\">\n<tr><th>budget</th><th>expression</th>"
                    "<th>target</th><th>scenario</th><th>value</th><th>verdict</th>"
                    "<th>reason</th></tr>\n");
    for (guint i = 0; i < json_array_get_length(bs); i++) {
        JsonObject *b = json_array_get_object_element(bs, i);
        const char *verdict = str_member(b, "verdict");

        add(o, "<tr><td>%s</td><td><code>%s</code> (%s)</td><td>%s</td><td>%s</td>",
            str_member(b, "name") ?: "", str_member(b, "expression") ?: "",
            str_member(b, "source") ?: "?", str_member(b, "target") ?: "",
            str_member(b, "scenario") ?: "");
        add_num(o, rv_report_num(b, "value"), NULL);
        add(o, "<td class=\"%s\"><strong>%s</strong></td><td>%s</td></tr>\n",
            g_strcmp0(verdict, "PASS") == 0 ? "good" : "bad", verdict ?: "?",
            str_member(b, "reason") ?: "");
    }
    g_string_append(o, "</table>\n");
}

/* The scenario names of @recs, each once, in record order (borrowed). */
static GPtrArray *
store_scenarios(GPtrArray *recs)
{
    GPtrArray *out = g_ptr_array_new();
    g_autoptr(GHashTable) seen = g_hash_table_new(g_str_hash, g_str_equal);

    for (guint k = 0; k < recs->len; k++) {
        const RvStoreRecord *r = recs->pdata[k];

        if (r->scenario && g_hash_table_add(seen, r->scenario))
            g_ptr_array_add(out, r->scenario);
    }
    return out;
}

/* The stories of the worst spikes per store and scenario
 * (results/attribution.h), when a store has any. */
static void
page_attribution(GString *o, const Report *rp)
{
    gboolean head = FALSE;

    for (guint i = 0; i < rp->stores->len; i++) {
        GPtrArray *recs = rv_result_store_get_records(rp->stores->pdata[i]);
        g_autoptr(GPtrArray) scen = store_scenarios(recs);

        for (guint k = 0; k < scen->len; k++) {
            const char *scenario = scen->pdata[k];
            const char *skipped = NULL;
            g_autoptr(GPtrArray) st = NULL;

            st = rv_result_attr_scenario_stories(recs, scenario, 5, &skipped);
            if (!st->len && !skipped)
                continue;
            if (!head)
                g_string_append(o, "<h2 id=\"attribution\">Spike attribution</h2>\n"
                                "<p class=\"note\">The worst latencies of the RT guests and "
                                "what ran on the host CPU of their vCPU around them (host "
                                "trace, window and alignment error in run.json).</p>\n"
                                "<table>\n<tr><th>store</th><th>scenario</th><th>rep</th>"
                                "<th>target</th><th>latency us</th><th>story</th></tr>\n");
            head = TRUE;
            if (!st->len)
                add(o, "<tr><td>%u</td><td>%s</td><td></td><td></td><td></td>"
                    "<td>skipped: %s</td></tr>\n", i + 1, scenario, skipped);
            for (guint j = 0; j < st->len; j++) {
                const RvAttrStory *a = st->pdata[j];
                g_autofree char *lat = g_strdup_printf("%" G_GINT64_FORMAT, a->latency_us);
                g_autofree char *rep = g_strdup_printf("%d", a->repetition);

                add(o, "<tr><td>%u</td><td>%s</td><td>%s</td><td>%s</td><td class=\"n\">%s</td>"
                    "<td>%s</td></tr>\n", i + 1, scenario, rep, a->target ?: "", lat,
                    a->story);
            }
        }
    }
    if (head)
        g_string_append(o, "</table>\n");
}

/* The co-scheduling shares per store, scenario and VM (results/cosched.h),
 * when a store has any or their reason. */
static void
page_cosched(GString *o, const Report *rp)
{
    gboolean head = FALSE;

    for (guint i = 0; i < rp->stores->len; i++) {
        GPtrArray *recs = rv_result_store_get_records(rp->stores->pdata[i]);
        g_autoptr(GPtrArray) scen = store_scenarios(recs);

        for (guint k = 0; k < scen->len; k++) {
            const char *scenario = scen->pdata[k];
            const char *skipped = NULL;
            g_autoptr(GPtrArray) vm = NULL;

            vm = rv_result_cosched_scenario(recs, scenario, &skipped);
            if (!vm->len && !skipped)
                continue;
            if (!head)
                g_string_append(o, "<h2 id=\"cosched\">Co-scheduling</h2>\n"
                                "<p class=\"note\">What the SMT sibling ran while a VM's "
                                "threads ran, % of their running time, mean over the "
                                "repetitions (sched_switch on every CPU; run.json "
                                "details.cosched).</p>\n"
                                "<table>\n<tr><th>store</th><th>scenario</th><th>VM</th>"
                                "<th>n</th><th>same VM %</th><th>idle %</th><th>foreign %</th>"
                                "<th>foreign sd</th><th>unknown %</th></tr>\n");
            head = TRUE;
            if (!vm->len)
                add(o, "<tr><td>%u</td><td>%s</td><td colspan=\"7\">skipped: %s</td></tr>\n",
                    i + 1, scenario, skipped);
            for (guint j = 0; j < vm->len; j++) {
                const RvCoschedSummary *v = vm->pdata[j];
                g_autofree char *n = g_strdup_printf("%u", v->n);

                add(o, "<tr><td>%u</td><td>%s</td><td>%s</td><td class=\"n\">%s</td>", i + 1,
                    scenario, v->vm, n);
                add_num(o, v->same_pct, NULL);
                add_num(o, v->idle_pct, NULL);
                add_num(o, v->foreign_pct, NULL);
                add_num(o, v->foreign_sd, NULL);
                add_num(o, v->unknown_pct, NULL);
                g_string_append(o, "</tr>\n");
            }
        }
    }
    if (head)
        g_string_append(o, "</table>\n");
}

static void
page_raw(GString *o, const Report *rp)
{
    g_string_append(o, "<h2 id=\"raw\">Raw outputs</h2>\n<ul>\n");
    for (guint i = 0; i < rp->stores->len; i++) {
        RvStore *st = rp->stores->pdata[i];
        GPtrArray *recs = rv_result_store_get_records(st);
        const char *sd = rp->store_dirs->pdata[i];

        for (guint k = 0; k < recs->len; k++) {
            const RvStoreRecord *r = recs->pdata[k];

            for (guint j = 0; j < r->raw->len; j++) {
                const char *rel = r->raw->pdata[j];
                g_autofree char *copy = g_strdup_printf("%s/%s/%s", rp->dir, sd, rel);

                if (raw_relpath_ok(rel) && g_file_test(copy, G_FILE_TEST_IS_REGULAR))
                    add(o, "<li>store %u, %s repetition %d, %s on %s: <a href=\"%s/%s\">%s</a>"
                        "</li>\n", i + 1, r->scenario, r->repetition, r->workload,
                        r->target ?: "-", sd, rel, rel);
                else
                    add(o, "<li>store %u, %s repetition %d: %s (not in the store)</li>\n",
                        i + 1, r->scenario, r->repetition, rel);
            }
        }
    }
    g_string_append(o, "</ul>\n");
}

static int
page_body(GString *o, Report *rp, RvRunner *runner, GError **error)
{
    g_autoptr(GPtrArray) plots = g_ptr_array_new_with_free_func((GDestroyNotify) rv_report_plot_free);
    gboolean any_tput = FALSE;
    int r;

    for (guint i = 0; i < rp->groups->len; i++) {
        RGroup *g = rp->groups->pdata[i];
        guint from = plots->len;

        add(o, "<h2 id=\"%s\">%s on %s</h2>\n", g->slug, g->workload, g->target);
        r = rv_report_plot_group(rp, g, runner, plots, error);
        if (r < 0)
            return r;
        if (g->latency)
            page_latency_table(o, rp, g);
        page_plots(o, plots, from);
        page_metric_table(o, g);
        any_tput |= g->throughput;
    }
    if (any_tput) {
        guint from = plots->len;

        g_string_append(o, "<h2 id=\"tradeoff\">Trade-off</h2>\n");
        r = rv_report_plot_tradeoff(rp, runner, plots, error);
        if (r < 0)
            return r;
        if (plots->len == from)
            g_string_append(o, "<p>No scenario has both a throughput change and an RT p99.99."
                            "</p>\n");
        page_plots(o, plots, from);
    }
    page_attribution(o, rp);
    page_cosched(o, rp);
    page_budgets(o, rp);
    page_raw(o, rp);
    return 0;
}

int
rv_result_report_write(GPtrArray *stores, const char *dir, const RvReportOptions *opts,
                       RvRunner *runner, guint *ret_not_passed, GError **error)
{
    static const RvReportOptions defaults = { NULL, NULL, RV_STATS_WELCH, 0, NULL };
    Report rp = { 0 };
    g_autoptr(GString) page = g_string_new(NULL);
    g_autofree char *plotdir = g_build_filename(dir, "plot", NULL);
    g_autofree char *index = g_build_filename(dir, "index.html", NULL);
    g_autofree char *tmp = g_build_filename(dir, ".index.html.tmp", NULL);
    g_autoptr(GError) local = NULL;
    int r;

    if (!opts)
        opts = &defaults;
    rp.stores = stores;
    rp.dir = g_strdup(dir);
    rp.timeout_ms = opts->plot_timeout_ms ? opts->plot_timeout_ms : REPORT_PLOT_TIMEOUT_MS;
    if ((mkdir(dir, 0755) < 0 && errno != EEXIST) || g_mkdir_with_parents(plotdir, 0755) < 0) {
        r = rv_error_set(error, RV_ERROR_FAILED, errno, "Failed to create '%s': %s", dir,
                         g_strerror(errno));
        goto cleanup;
    }
    r = build_model(&rp, opts, error);
    if (r == 0)
        r = copy_stores(&rp, error);
    if (r < 0)
        goto cleanup;
    page_head(page, &rp, opts);
    r = page_body(page, &rp, runner, error);
    if (r < 0)
        goto cleanup;
    g_string_append(page, "<p><small>" RV_REPORT_SIGNATURE ". Plots: gnuplot (scripts and "
                    "data in plot/).</small></p>\n</body>\n</html>\n");
    if (!g_file_set_contents(tmp, page->str, page->len, &local) || rename(tmp, index) < 0) {
        r = rv_error_set(error, RV_ERROR_FAILED, EIO, "Failed to write '%s': %s", index,
                         local ? local->message : g_strerror(errno));
        goto cleanup;
    }
    r = 0;
    if (ret_not_passed)
        *ret_not_passed = rp.not_passed;
cleanup:
    report_clear(&rp);
    return r;
}
