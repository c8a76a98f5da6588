/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * results/cyclictest-json.c: the --json reader of cyclictest, oslat and
 * `rtvirt pert` (see cyclictest.h).
 *
 * Format: rt-tests src/lib/rt-utils.c rt_write_json() with cyclictest's
 * write_stats() and oslat's write_summary_json(); harness/cmd-pert.c for
 * rtvirt pert.
 */
#include <errno.h>
#include <math.h>
#include <string.h>

#include <json-glib/json-glib.h>

#include "results/cyclictest.h"
#include "results/cyclictest-priv.h"
#include "util/error.h"
#include "util/json.h"

/* rt_write_json() prints cmdline with "%s" (no escaping) and avg with
 * "%.2f" (nan/-nan for 0 cycles): make such a file valid JSON.  The cmdline
 * is kept aside verbatim and the line becomes "cmdline:": null; bare nan /
 * inf outside strings become null.  A line that does not end the way
 * rt_write_json ends it is left alone so that a truncated file stays
 * invalid. */
static char *
json_sanitize(const char *data, gsize len, char **ret_cmdline)
{
    GString *out = g_string_sized_new(len + 16);
    gboolean in_str = FALSE;
    gsize i = 0;

    *ret_cmdline = NULL;
    while (i < len) {
        const char *nl = memchr(data + i, '\n', len - i);
        gsize n = nl ? (gsize) (nl - (data + i)) : len - i;
        g_autofree char *line = g_strndup(data + i, n);
        const char *s = line;
        gsize sl;

        while (*s == ' ' || *s == '\t')
            s++;
        sl = strlen(s);
        if (!in_str && g_str_has_prefix(s, "\"cmdline:\": \"")) {
            const char *v = s + strlen("\"cmdline:\": \"");
            const char *e = s + sl;
            while (e > v && (e[-1] == ' ' || e[-1] == '\t' || e[-1] == '\r'))
                e--;
            gboolean comma = e > v && e[-1] == ',';
            if (comma)
                e--;
            if (e > v && e[-1] == '"') {
                g_free(*ret_cmdline);
                *ret_cmdline = g_strndup(v, e - 1 - v);
                g_string_append_len(out, line, s - line);
                g_string_append(out, comma ? "\"cmdline:\": null," : "\"cmdline:\": null");
                if (nl)
                    g_string_append_c(out, '\n');
                i += n + 1;
                continue;
            }
        }
        for (gsize k = 0; k < n; k++) {
            char c = line[k];
            if (c == '\0')
                c = ' ';
            if (in_str) {
                if (c == '\\' && k + 1 < n) {
                    g_string_append_c(out, c);
                    c = line[++k];
                } else if (c == '"') {
                    in_str = FALSE;
                }
                g_string_append_c(out, c);
                continue;
            }
            if (c == '"') {
                in_str = TRUE;
            } else if ((c == '-' || c == 'n' || c == 'N' || c == 'i' || c == 'I')) {
                const char *w = line + k + (c == '-');
                size_t wl = g_ascii_strncasecmp(w, "nan", 3) == 0 ? 3
                          : g_ascii_strncasecmp(w, "inf", 3) == 0 ? 3 : 0;
                if (wl && !g_ascii_isalnum(w[wl]) && (k == 0 || !g_ascii_isalnum(line[k - 1]))) {
                    g_string_append(out, "null");
                    k = (w - line) + wl - 1;
                    continue;
                }
            }
            g_string_append_c(out, c);
        }
        if (nl)
            g_string_append_c(out, '\n');
        i += n + 1;
    }
    return g_string_free(out, FALSE);
}

/* util/json.h's rule for an untrusted integer; the caller names the key
 * in its own message (the callers' ranges are checked by the record adder
 * against the store's rules) */
static gboolean
json_get_int(JsonObject *o, const char *key, gint64 *ret)
{
    return rv_json_node_get_int(json_object_get_member(o, key), key, G_MININT64, G_MAXINT64,
                                ret, NULL) == 0;
}

#define JERR(error, name, fmt, ...) \
    rv_error_set(error, RV_ERROR_INVALID, EINVAL, "%s: " fmt, (name), ##__VA_ARGS__)

/* The basename of a command line's first word ("/usr/bin/oslat" -> "oslat"). */
static char *
cmdline_tool(const char *cmdline)
{
    g_auto(GStrv) w = g_strsplit_set(cmdline, " \t", 2);

    return w[0] && *w[0] ? g_path_get_basename(w[0]) : NULL;
}

/* rt_write_json()'s "sysinfo": {"release": uname -r, "realtime": 0|1, ...} */
static gboolean
is_pert_json(JsonObject *root)
{
    JsonNode *node = json_object_get_member(root, "tool");

    return node && JSON_NODE_HOLDS_VALUE(node) &&
           json_node_get_value_type(node) == G_TYPE_STRING &&
           g_strcmp0(json_node_get_string(node), "rtvirt pert") == 0;
}

/* ...and the tool: oslat writes the same document (rt_write_json()) */
static void
json_sysinfo(RvCyclictestRun *run, JsonObject *root, const char *cmdline)
{
    JsonNode *node = json_object_get_member(root, "sysinfo");
    g_autofree char *tool = cmdline ? cmdline_tool(cmdline) : NULL;
    JsonObject *si;
    gint64 rt;

    if (tool && g_str_equal(tool, "oslat")) {
        g_free(run->tool);
        run->tool = g_steal_pointer(&tool);
    }

    if (!node || !JSON_NODE_HOLDS_OBJECT(node))
        return;
    si = json_node_get_object(node);
    if (json_get_int(si, "realtime", &rt) && (rt == 0 || rt == 1))
        run->realtime = (int) rt;
    if ((node = json_object_get_member(si, "release")) && JSON_NODE_HOLDS_VALUE(node) &&
        json_node_get_value_type(node) == G_TYPE_STRING)
        run->kernel_release = g_strdup(json_node_get_string(node));
}

/* `rtvirt pert --json` (harness/cmd-pert.c): one probe thread on "cpu";
 * its "summary" (results/pert.h) gives the longest perturbation. */
static int
parse_pert_json(const char *name, JsonObject *root, GPtrArray **ret_runs, GError **error)
{
    g_autoptr(GPtrArray) runs =
        g_ptr_array_new_with_free_func((GDestroyNotify) rv_result_cyclictest_run_free);
    g_autoptr(RvCyclictestRun) run = rv_result_cyclictest_run_new(1);
    RvCyclictestThread *t = rv_result_cyclictest_run_thread(run, 0);
    JsonNode *node = json_object_get_member(root, "summary");
    JsonObject *sum;
    gint64 v;
    double d;

    if (!node || !JSON_NODE_HOLDS_OBJECT(node))
        return JERR(error, name, "rtvirt pert JSON has no \"summary\" object");
    sum = json_node_get_object(node);
    g_free(run->tool);
    run->tool = g_strdup("rtvirt pert");
    run->form = RV_CYCLICTEST_FORM_JSON;
    if (json_get_int(root, "cpu", &v) && v >= 0 && v <= G_MAXINT)
        t->cpu = (int) v;
    if (json_get_int(sum, "count", &v) && v >= 0)
        t->cycles = v;
    if (rv_json_node_get_double(json_object_get_member(sum, "max_us"), "summary.max_us",
                                0, 1e12, &d, NULL) == 0)
        t->max_us = (gint64) ceil(d);
    if (rv_json_node_get_double(json_object_get_member(sum, "min_us"), "summary.min_us",
                                0, 1e12, &d, NULL) == 0)
        t->min_us = (gint64) floor(d);
    if (rv_json_node_get_double(json_object_get_member(sum, "avg_us"), "summary.avg_us",
                                0, 1e12, &d, NULL) == 0)
        t->avg_us = d;
    if ((node = json_object_get_member(root, "warnings")) && JSON_NODE_HOLDS_ARRAY(node)) {
        JsonArray *a = json_node_get_array(node);
        for (guint i = 0; i < json_array_get_length(a); i++) {
            JsonNode *w = json_array_get_element(a, i);
            if (JSON_NODE_HOLDS_VALUE(w) && json_node_get_value_type(w) == G_TYPE_STRING)
                rv_result_cyclictest_run_note(run, "rtvirt pert: %s", json_node_get_string(w));
        }
    }
    g_ptr_array_add(runs, g_steal_pointer(&run));
    *ret_runs = g_steal_pointer(&runs);
    return 1;
}

/* Thread @i's "histogram" object @ho (non-zero buckets only) into
 * @t->histogram; @cells counts the buckets of all threads against
 * MAX_CELLS.  Returns 0 or -EINVAL. */
static int
json_thread_histogram(const char *name, JsonObject *ho, int i, int hist_req, guint64 *cells,
                      RvCyclictestThread *t, GError **error)
{
    g_autoptr(GList) members = json_object_get_members(ho);
    guint64 sum = 0;
    guint top = 0;
    RvHistogram *h;
    gint64 v;

    for (GList *l = members; l; l = l->next) {
        const char *k = l->data, *e = k;
        guint64 b;
        if (!rv_result_cyclictest_scan_u64(&e, &b) || *e || b >= MAX_BUCKETS)
            return JERR(error, name, "cyclictest JSON: thread %d: bad "
                        "histogram bucket \"%s\"", i, k);
        top = MAX(top, (guint) b + 1);
    }
    *cells += MAX(top, (guint) hist_req);
    if (*cells > MAX_CELLS)
        return JERR(error, name, "cyclictest JSON: histograms larger than "
                    "rtvirt accepts (thread %d)", i);
    h = rv_result_histogram_new(MAX(top, (guint) hist_req));
    t->histogram = h;
    {
        /* members come in any order: sorted once, not inserted one
         * by one */
        g_autoptr(GArray) bins = g_array_new(FALSE, FALSE, sizeof(RvHistogramBin));
        for (GList *l = members; l; l = l->next) {
            RvHistogramBin bin = { .us = (guint) g_ascii_strtoull(l->data, NULL, 10) };
            if (!json_get_int(ho, l->data, &v) || v < 0)
                return JERR(error, name, "cyclictest JSON: thread %d: bad "
                            "count for histogram bucket \"%s\"", i,
                            (const char *) l->data);
            bin.count = (guint64) v;
            g_array_append_val(bins, bin);
            sum += v;
        }
        rv_result_histogram_add_bins(h, (const RvHistogramBin *) (gpointer) bins->data,
                                     bins->len);
    }
    /* write_stats() prints no overflow count: every cycle lands in a
     * bucket or in hist_overflow, so the difference is the overflows. */
    if (t->cycles == -1)
        t->cycles = (gint64) sum;
    h->overflows = (guint64) t->cycles > sum ? (guint64) t->cycles - sum : 0;
    h->max_us = t->max_us;
    t->histogram_total = sum;
    t->histogram_complete = TRUE;
    return 0;
}

int
rv_result_cyclictest_parse_json(const char *name, const char *data, gsize len,
                                GPtrArray **ret_runs, GError **error)
{
    g_autofree char *cmdline = NULL;
    g_autofree char *clean = json_sanitize(data, len, &cmdline);
    g_autoptr(JsonParser) parser = json_parser_new();
    g_autoptr(GError) jerr = NULL;
    g_autoptr(GPtrArray) runs =
        g_ptr_array_new_with_free_func((GDestroyNotify) rv_result_cyclictest_run_free);
    g_autoptr(RvCyclictestRun) run = rv_result_cyclictest_run_new(1);
    JsonObject *root, *threads;
    JsonNode *node;
    gint64 num_threads, rc;
    int hist_req = 0;

    /* the text comes from inside a guest: refuse nesting that would
     * overflow json-glib's recursive parser */
    if (rv_json_check_untrusted(name, clean, strlen(clean), RV_JSON_MAX_DEPTH, error) < 0)
        return -EINVAL;
    if (!json_parser_load_from_data(parser, clean, -1, &jerr)) {
        const char *m = jerr->message;
        if (g_str_has_prefix(m, "<data>:"))
            m += strlen("<data>:");
        return rv_error_set(error, RV_ERROR_INVALID, EINVAL,
                            "%s:%s (truncated or invalid cyclictest JSON, %"
                            G_GSIZE_FORMAT " bytes)", name, m, len);
    }
    node = json_parser_get_root(parser);
    if (!node || !JSON_NODE_HOLDS_OBJECT(node))
        return JERR(error, name, "cyclictest JSON is not an object");
    root = json_node_get_object(node);

    run->form = RV_CYCLICTEST_FORM_JSON;
    if ((node = json_object_get_member(root, "rt_test_version:")) ||
        (node = json_object_get_member(root, "rt_test_version"))) {
        if (JSON_NODE_HOLDS_VALUE(node) && json_node_get_value_type(node) == G_TYPE_STRING)
            run->version = g_strdup(json_node_get_string(node));
    }
    if (is_pert_json(root))
        return parse_pert_json(name, root, ret_runs, error);
    json_sysinfo(run, root, cmdline);
    if (cmdline) {
        gboolean nsecs;
        hist_req = rv_result_cyclictest_cmdline_histogram(cmdline, &nsecs);
        if (nsecs)
            return JERR(error, name, "cyclictest ran with -N/--nsecs: values "
                        "are ns, not supported: '%s'", cmdline);
        run->cmdline = g_steal_pointer(&cmdline);
    }
    if (json_get_int(root, "return_code", &rc) && rc != 0)
        rv_result_cyclictest_run_note(run, "cyclictest return_code %" G_GINT64_FORMAT, rc);

    node = json_object_get_member(root, "thread");
    if (!node || !JSON_NODE_HOLDS_OBJECT(node))
        return JERR(error, name, "cyclictest JSON has no \"thread\" object");
    threads = json_node_get_object(node);
    if (!json_get_int(root, "num_threads", &num_threads) ||
        num_threads < 1 || num_threads > MAX_THREADS)
        return JERR(error, name, "cyclictest JSON: missing or bad \"num_threads\"");
    if (json_object_get_size(threads) != (guint) num_threads)
        return JERR(error, name, "cyclictest JSON: num_threads %" G_GINT64_FORMAT
                    " but %u thread objects", num_threads,
                    json_object_get_size(threads));

    guint64 cells = 0;

    for (int i = 0; i < num_threads; i++) {
        char key[16];
        JsonObject *to, *ho = NULL;
        RvCyclictestThread *t = rv_result_cyclictest_run_thread(run, i);
        gint64 cycles, min, max, v;

        g_snprintf(key, sizeof(key), "%d", i);
        node = json_object_get_member(threads, key);
        if (!node || !JSON_NODE_HOLDS_OBJECT(node))
            return JERR(error, name, "cyclictest JSON: thread \"%s\" missing", key);
        to = json_node_get_object(node);
        /* oslat's write_summary_json() has no cycle count: its histogram
         * counts every sample */
        if (!json_get_int(to, "cycles", &cycles))
            cycles = g_str_equal(run->tool, "oslat") ? -1 : -2;
        if (cycles < -1 ||
            !json_get_int(to, "min", &min) || !json_get_int(to, "max", &max))
            return JERR(error, name, "%s JSON: thread %d lacks cycles/min/max",
                        run->tool, i);
        t->cycles = cycles;
        if (cycles > 0 || cycles == -1) {
            t->min_us = min;
            t->max_us = max;
        } else {
            rv_result_cyclictest_run_note(run, "thread %d ran 0 cycles", i);
        }
        node = json_object_get_member(to, "avg");
        if (node && JSON_NODE_HOLDS_VALUE(node) &&
            (json_node_get_value_type(node) == G_TYPE_DOUBLE ||
             json_node_get_value_type(node) == G_TYPE_INT64))
            t->avg_us = json_node_get_double(node);
        if (json_get_int(to, "cpu", &v) && v >= 0 && v <= G_MAXINT)
            t->cpu = (int) v;
        if (json_get_int(to, "node", &v) && v >= 0 && v <= G_MAXINT)
            t->node = (int) v;

        node = json_object_get_member(to, "histogram");
        if (node && JSON_NODE_HOLDS_OBJECT(node))
            ho = json_node_get_object(node);
        if (ho && (json_object_get_size(ho) > 0 || hist_req > 0) &&
            json_thread_histogram(name, ho, i, hist_req, &cells, t, error) < 0)
            return -EINVAL;
    }
    run->histogram_requested = hist_req;
    g_ptr_array_add(runs, g_steal_pointer(&run));
    *ret_runs = g_steal_pointer(&runs);
    return 1;
}
