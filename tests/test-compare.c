/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * tests/test-compare.c: `rtvirt compare` on stores in tests/data/compare.
 *
 * welch/: per-repetition max_us of baseline and pinned are the two samples
 * of the published Welch example (Wikipedia "Welch's t-test", Example 1:
 * t = -2.46, df = 24.99, p = 0.021), "noisy" is baseline +-0.3 (inside the
 * noise); each baseline repetition carries the histogram {10 us: 9000,
 * 20 us: 990, 50 us: 9, 100 us: 1}, so the merged percentiles are by hand
 * p50 = 10, p99 = 20, p99.9 = 20 (rank 149850 is the last 20), p99.99 = 50.
 * tcg/: virt=tcg records, a SKIPPED scenario with its reason, a failed
 * repetition, an untrusted store, and a second (kvm) store with a scenario
 * of the same name.
 *
 * Golden outputs NAME.{txt,json,csv} beside them; RV_REGENERATE=1 rewrites.
 */
#include <errno.h>
#include <math.h>
#include <string.h>

#include <json-glib/json-glib.h>

#include "results/budget.h"
#include "results/compare.h"
#include "results/store.h"
#include "util/error.h"
#include "tests/testutil.h"

static char *
data_dir(void)
{
    return rv_test_data_path("compare", NULL);
}

static char *
rtvirt_bin(void)
{
    return g_build_filename(rv_test_build_dir(), "rtvirt", NULL);
}

/* runs rtvirt compare in tests/data/compare (relative paths keep the
 * output independent of the checkout) */
static int
run_compare(const char *const *args, char **ret_out, char **ret_err)
{
    g_autofree char *dir = data_dir();
    g_autofree char *bin = rtvirt_bin();
    g_autoptr(GPtrArray) argv = g_ptr_array_new();
    g_autoptr(GError) err = NULL;
    int status;

    g_ptr_array_add(argv, bin);
    g_ptr_array_add(argv, (char *) "compare");
    for (int i = 0; args[i]; i++)
        g_ptr_array_add(argv, (char *) args[i]);
    g_ptr_array_add(argv, NULL);
    if (!g_spawn_sync(dir, (char **) argv->pdata, NULL, 0, NULL, NULL,
                      ret_out, ret_err, &status, &err))
        g_error("%s: %s", bin, err->message);
    return WIFEXITED(status) ? WEXITSTATUS(status) : 128;
}

typedef struct {
    const char *name;          /* golden file, without extension */
    const char *ext;
    const char *args[6];
} Golden;

static const Golden goldens[] = {
    { "welch", "txt", { "welch/20261130-140000-demo", NULL } },
    { "welch", "json", { "--json", "welch/20261130-140000-demo", NULL } },
    { "welch", "csv", { "--csv", "welch/20261130-140000-demo", NULL } },
    { "welch-mann-whitney", "txt", { "--test", "mann-whitney", "welch/20261130-140000-demo", NULL } },
    { "welch-baseline-pinned", "txt", { "--baseline", "pinned", "welch/20261130-140000-demo", NULL } },
    { "tcg", "txt", { "tcg/20261130-141500-demo", NULL } },
    { "tcg", "json", { "--json", "tcg/20261130-141500-demo", NULL } },
    { "tcg", "csv", { "--csv", "tcg/20261130-141500-demo", NULL } },
    { "tcg-two-stores", "txt", { "tcg/20261130-141500-demo", "tcg/20261130-150000-kvmhost",
                                 "--baseline", "20261130-150000-kvmhost/baseline", NULL } },
};

static void
test_golden(gconstpointer data)
{
    const Golden *g = data;
    g_autofree char *out = NULL, *err = NULL;
    g_autofree char *dir = data_dir();
    g_autofree char *fname = g_strdup_printf("%s.%s", g->name, g->ext);
    g_autofree char *path = g_build_filename(dir, fname, NULL);

    g_assert_cmpint(run_compare(g->args, &out, &err), ==, 0);
    g_assert_cmpstr(err, ==, "");
    rv_test_compare_expected(path, out);
}

static RvComparison *
build(const char *const *dirs, const char *baseline, RvStatsTest test)
{
    g_autofree char *d = data_dir();
    g_autoptr(GPtrArray) stores = g_ptr_array_new_with_free_func((GDestroyNotify) rv_result_store_free);
    g_autoptr(GError) err = NULL;
    RvComparison *c = NULL;

    for (int i = 0; dirs[i]; i++) {
        g_autofree char *p = g_build_filename(d, dirs[i], NULL);
        RvStore *st = NULL;
        if (rv_result_store_open(p, &st, &err) < 0)
            g_error("%s", err->message);
        g_ptr_array_add(stores, st);
    }
    if (rv_result_compare_build(stores, baseline, test, &c, &err) < 0)
        g_error("%s", err->message);
    return c;
}

static JsonObject *
json_row(JsonObject *root, guint group, const char *metric, const char *scenario)
{
    JsonArray *groups = json_object_get_array_member(root, "groups");
    JsonObject *g = json_array_get_object_element(groups, group);
    JsonArray *metrics = json_object_get_array_member(g, "metrics");

    for (guint i = 0; i < json_array_get_length(metrics); i++) {
        JsonObject *m = json_array_get_object_element(metrics, i);
        JsonArray *rows;
        if (!g_str_equal(json_object_get_string_member(m, "name"), metric))
            continue;
        rows = json_object_get_array_member(m, "rows");
        for (guint k = 0; k < json_array_get_length(rows); k++) {
            JsonObject *r = json_array_get_object_element(rows, k);
            if (g_str_equal(json_object_get_string_member(r, "scenario"), scenario))
                return r;
        }
    }
    g_error("no row %s/%s", metric, scenario);
}

static void
test_welch_values(void)
{
    static const char *const dirs[] = { "welch/20261130-140000-demo", NULL };
    g_autoptr(RvComparison) c = build(dirs, NULL, RV_STATS_WELCH);
    g_autofree char *json = rv_result_compare_format(c, RV_COMPARE_JSON);
    g_autofree char *text = rv_result_compare_format(c, RV_COMPARE_TEXT);
    g_autoptr(JsonParser) p = json_parser_new();
    JsonObject *root, *row, *lat;

    g_assert_true(json_parser_load_from_data(p, json, -1, NULL));
    root = json_node_get_object(json_parser_get_root(p));
    g_assert_cmpstr(json_object_get_string_member(root, "baseline"), ==, "baseline");
    g_assert_cmpstr(json_object_get_string_member(root, "test_name"), ==, "Welch's t-test");

    row = json_row(root, 0, "max_us", "baseline");
    g_assert_cmpint(json_object_get_int_member(row, "n"), ==, 15);
    g_assert_cmpfloat_with_epsilon(json_object_get_double_member(row, "mean"), 20.82, 1e-9);
    g_assert_true(json_node_is_null(json_object_get_member(row, "p")));

    row = json_row(root, 0, "max_us", "pinned");
    g_assert_cmpfloat_with_epsilon(json_object_get_double_member(row, "statistic"), 2.455356, 1e-6);
    g_assert_cmpfloat_with_epsilon(json_object_get_double_member(row, "df"), 24.98853, 1e-5);
    g_assert_cmpfloat_with_epsilon(json_object_get_double_member(row, "p"), 0.021378, 1e-6);
    g_assert_true(json_object_get_boolean_member(row, "significant"));
    /* +10.4 %: (22.98667 - 20.82) / 20.82 */
    g_assert_cmpfloat_with_epsilon(json_object_get_double_member(row, "change_pct"),
                                   100 * (22.986666666666668 - 20.82) / 20.82, 1e-9);

    row = json_row(root, 0, "max_us", "noisy");     /* inside the noise */
    g_assert_false(json_object_get_boolean_member(row, "significant"));
    g_assert_cmpfloat(json_object_get_double_member(row, "p"), >, 0.9);

    lat = json_array_get_object_element(json_object_get_array_member(
              json_array_get_object_element(json_object_get_array_member(root, "groups"), 0),
              "latency"), 0);
    g_assert_cmpstr(json_object_get_string_member(lat, "scenario"), ==, "baseline");
    g_assert_cmpint(json_object_get_int_member(lat, "samples"), ==, 150000);
    g_assert_cmpint(json_object_get_int_member(lat, "p50"), ==, 10);
    g_assert_cmpint(json_object_get_int_member(lat, "p99"), ==, 20);
    g_assert_cmpint(json_object_get_int_member(lat, "p99_9"), ==, 20);
    g_assert_cmpint(json_object_get_int_member(lat, "p99_99"), ==, 50);
    g_assert_cmpint(json_object_get_int_member(lat, "max"), ==, 100);

    g_assert_nonnull(strstr(text, "significance: Welch's t-test"));
    g_assert_nonnull(strstr(text, "0.0214 *"));
    g_assert_nonnull(strstr(text, "0.985 ~"));
    g_assert_null(strstr(text, "virt=tcg"));
    /* CSV marks percentiles beyond the histogram range as the text does */
    {
        g_autofree char *csv = rv_result_compare_format(c, RV_COMPARE_CSV);
        /* numbers only in numeric columns("<=35725" was
         * there); the bound column names the bounded percentiles */
        g_assert_nonnull(strstr(csv, ",700,700,p99_9 p99_99,yes\n"));
        g_assert_null(strstr(csv, "<="));
    }
}

static void
test_mann_whitney(void)
{
    static const char *const dirs[] = { "welch/20261130-140000-demo", NULL };
    g_autoptr(RvComparison) c = build(dirs, NULL, RV_STATS_MANN_WHITNEY);
    g_autofree char *text = rv_result_compare_format(c, RV_COMPARE_TEXT);

    g_assert_nonnull(strstr(text, "significance: Mann-Whitney U test"));
}

static void
test_tcg(void)
{
    static const char *const dirs[] = { "tcg/20261130-141500-demo", NULL };
    g_autoptr(RvComparison) c = build(dirs, NULL, RV_STATS_WELCH);
    g_autofree char *text = rv_result_compare_format(c, RV_COMPARE_TEXT);
    g_autofree char *csv = rv_result_compare_format(c, RV_COMPARE_CSV);

    g_assert_nonnull(strstr(text, "== cyclictest on guest:rt0 [virt=tcg] =="));
    g_assert_nonnull(strstr(text, "NOTE: virt=tcg"));
    g_assert_nonnull(strstr(text, "SKIPPED: SMT not available: /sys/devices/system/cpu/smt/control is 'notsupported'"));
    g_assert_nonnull(strstr(text, "UNTRUSTED: host not as profile requires: isolcpus missing"));
    g_assert_nonnull(strstr(text, "(1 failed)"));
    /* the latency rows carry the mark as the other rows do */
    /* the latency rows carry the untrusted mark in its column, not a
     * suffix("(UNTRUSTED store)" ended every row) */
    g_assert_nonnull(strstr(text, "  baseline      4 tcg     !        4000        0       30       60       60       60       60\n"));
    g_assert_null(strstr(text, "(UNTRUSTED store)"));
    g_assert_nonnull(strstr(csv, ",tcg,"));
    /* every CSV line has the header's 27 fields (no reason here has a comma) */
    {
        g_auto(GStrv) lines = g_strsplit(csv, "\n", -1);
        for (guint i = 0; lines[i] && *lines[i]; i++) {
            g_auto(GStrv) f = g_strsplit(lines[i], ",", -1);
            g_assert_cmpuint(g_strv_length(f), ==, 27);
        }
    }
}

/* stores that must be refused (exit 2, the message names the file, the
 * record index and the field); tests/data/compare/bad/README.source.txt */
typedef struct {
    const char *dir;
    const char *msg;
} BadStore;

static const BadStore bad_stores[] = {
    { "bad/metric-huge", "bad/metric-huge/run.json: records[0].metrics.max_us.value" },
    { "bad/metric-negative", "bad/metric-negative/run.json: records[2].metrics.max_us.value" },
    { "bad/metric-string", "bad/metric-string/run.json: records[1].metrics.max_us.value" },
    { "bad/no-metrics", "bad/no-metrics/run.json: records[3].metrics" },
    { "bad/undeclared-scenario", "bad/undeclared-scenario/run.json: records[4].scenario" },
    { "bad/hist-total", "bad/hist-total/run.json: records[1].histograms.latency.total" },
};

static void
test_bad_store(gconstpointer data)
{
    const BadStore *b = data;
    const char *const args[] = { b->dir, NULL };
    g_autofree char *out = NULL, *err = NULL;

    g_assert_cmpint(run_compare(args, &out, &err), ==, 2);
    if (!strstr(err, b->msg))
        g_error("stderr '%s' lacks '%s'", err, b->msg);
    g_assert_cmpstr(out, ==, "");
}

/* `[` x 100000 then `]` x 100000: json-glib recurses once per level and
 * overflowed the stack (SIGSEGV); the depth check refuses it first */
static void
test_deep_nesting(void)
{
    g_autofree char *tmp = g_dir_make_tmp("rv-compare-XXXXXX", NULL);
    g_autofree char *file = g_build_filename(tmp, "run.json", NULL);
    GString *text = g_string_new(NULL);
    const char *args[] = { tmp, NULL };
    g_autofree char *out = NULL, *err = NULL;

    g_assert_nonnull(tmp);
    for (int i = 0; i < 100000; i++)
        g_string_append_c(text, '[');
    for (int i = 0; i < 100000; i++)
        g_string_append_c(text, ']');
    g_assert_true(g_file_set_contents(file, text->str, text->len, NULL));
    g_string_free(text, TRUE);
    g_assert_cmpint(run_compare(args, &out, &err), ==, 2);
    if (!strstr(err, file) || !strstr(err, "nested deeper than 64"))
        g_error("stderr '%s' lacks the file and the depth", err);
    rv_test_rm_rf(tmp);
}

/* trusted: true but the records ran under TCG: not trustworthy */
static void
test_tcg_untrusted(void)
{
    static const char *const args[] = { "honesty/20261130-160000-tcgtrusted", NULL };
    static const char *const csv_args[] = { "--csv", "honesty/20261130-160000-tcgtrusted", NULL };
    g_autofree char *out = NULL, *err = NULL, *csv = NULL, *err2 = NULL;
    g_autoptr(RvStore) st = NULL;
    g_autofree char *dir = data_dir();
    g_autofree char *p = g_build_filename(dir, "honesty/20261130-160000-tcgtrusted", NULL);
    GPtrArray *why;

    g_assert_cmpint(rv_result_store_open(p, &st, NULL), ==, 0);
    g_assert_false(rv_result_store_get_trusted(st));
    why = rv_result_store_get_untrusted_reasons(st);
    g_assert_cmpuint(why->len, ==, 1);
    g_assert_cmpstr(why->pdata[0], ==, "virt=tcg");

    g_assert_cmpint(run_compare(args, &out, &err), ==, 0);
    g_assert_nonnull(strstr(out, "(matrix tcgtrusted, UNTRUSTED)"));
    g_assert_nonnull(strstr(out, "  UNTRUSTED: virt=tcg\n"));
    g_assert_cmpint(run_compare(csv_args, &csv, &err2), ==, 0);
    {
        g_auto(GStrv) lines = g_strsplit(csv, "\n", -1);
        g_assert_true(g_str_has_suffix(lines[0], ",trusted"));
        for (guint i = 1; lines[i] && *lines[i]; i++)
            g_assert_true(g_str_has_suffix(lines[i], ",no"));
    }
}

/* --baseline of a SKIPPED scenario is an error; without --baseline the
 * first scenario that ran is the baseline, and one NOTE says why */
static void
test_skipped_baseline(void)
{
    static const char *const explicit[] = { "--baseline", "pinned-fifo",
                                             "honesty/20261130-161000-skipbase", NULL };
    static const char *const dflt[] = { "honesty/20261130-161000-skipbase", NULL };
    g_autofree char *o1 = NULL, *e1 = NULL, *o2 = NULL, *e2 = NULL;
    const char *p;
    guint n = 0;

    g_assert_cmpint(run_compare(explicit, &o1, &e1), ==, 2);
    if (!strstr(e1, "baseline 'pinned-fifo' was SKIPPED: vCPU SCHED_FIFO refused by libvirt"))
        g_error("stderr '%s'", e1);
    g_assert_cmpint(run_compare(dflt, &o2, &e2), ==, 0);
    g_assert_nonnull(strstr(o2, "baseline: baseline\n"));
    g_assert_nonnull(strstr(o2, "NOTE: the first scenario 'pinned-fifo' was SKIPPED"));
    g_assert_null(strstr(o2, "no baseline data"));
    /* the skip reason once for the one workload section, not per metric */
    for (p = o2; (p = strstr(p, "vCPU SCHED_FIFO refused by libvirt")); p++)
        n++;
    g_assert_cmpuint(n, ==, 1);
}

/* the same store twice would be compared against itself */
static void
test_duplicate_store(void)
{
    static const char *const twice[] = { "welch/20261130-140000-demo",
                                          "welch/20261130-140000-demo/", NULL };
    static const char *const json[] = { "welch/20261130-140000-demo",
                                         "welch/../welch/20261130-140000-demo/run.json", NULL };
    g_autofree char *o1 = NULL, *e1 = NULL, *o2 = NULL, *e2 = NULL;

    g_assert_cmpint(run_compare(twice, &o1, &e1), ==, 2);
    g_assert_nonnull(strstr(e1, "given twice"));
    g_assert_cmpint(run_compare(json, &o2, &e2), ==, 2);
    g_assert_nonnull(strstr(e2, "given twice"));
    g_assert_cmpstr(o1, ==, "");
}

static void
test_cli_errors(void)
{
    static const char *const ambiguous[] = { "tcg/20261130-141500-demo",
                                              "tcg/20261130-150000-kvmhost", "--baseline",
                                              "baseline", NULL };
    static const char *const unknown[] = { "--baseline", "nope", "welch/20261130-140000-demo", NULL };
    static const char *const missing[] = { "does-not-exist", NULL };
    static const char *const none[] = { NULL };
    static const char *const both[] = { "--json", "--csv", "welch/20261130-140000-demo", NULL };
    g_autofree char *o1 = NULL, *e1 = NULL, *o2 = NULL, *e2 = NULL, *o3 = NULL, *e3 = NULL;
    g_autofree char *o4 = NULL, *e4 = NULL, *o5 = NULL, *e5 = NULL;

    g_assert_cmpint(run_compare(ambiguous, &o1, &e1), ==, 2);
    g_assert_nonnull(strstr(e1, "Baseline 'baseline' is ambiguous"));
    g_assert_cmpint(run_compare(unknown, &o2, &e2), ==, 2);
    g_assert_nonnull(strstr(e2, "Baseline 'nope' is not a scenario; scenarios with data: baseline, pinned, noisy\n"));
    g_assert_cmpint(run_compare(missing, &o3, &e3), ==, 2);
    g_assert_nonnull(strstr(e3, "does-not-exist/run.json"));
    g_assert_cmpint(run_compare(none, &o4, &e4), ==, 2);
    g_assert_cmpint(run_compare(both, &o5, &e5), ==, 2);
    g_assert_cmpstr(o1, ==, "");
}

/* a failure reason that quotes guest output with terminal escapes: the
 * table shows them escaped, never raw */
static void
test_control_bytes(void)
{
    g_autofree char *tmp = g_dir_make_tmp("rv-cmp-XXXXXX", NULL);
    g_autoptr(RvStore) st = NULL, back = NULL;
    g_autoptr(RvComparison) cmp = NULL;
    g_autoptr(GPtrArray) stores = g_ptr_array_new();
    g_autoptr(GError) err = NULL;
    g_autofree char *text = NULL;
    RvStoreRecord *rec;

    g_assert_cmpint(rv_result_store_create(tmp, "m", NULL, &st, &err), ==, 0);
    rec = rv_result_store_record_new("a", 1, "cyclictest", "guest:rt0");
    rv_result_store_record_set_status(rec, "failed", "guest printed '\033[2J\a'");
    rv_result_store_add_record(st, rec);
    g_assert_cmpint(rv_result_store_commit(st, &err), ==, 0);
    g_assert_cmpint(rv_result_store_open(rv_result_store_get_dir(st), &back, &err), ==, 0);
    g_ptr_array_add(stores, back);
    g_assert_cmpint(rv_result_compare_build(stores, NULL, RV_STATS_WELCH, &cmp, &err), ==, 0);
    text = rv_result_compare_format(cmp, RV_COMPARE_TEXT);
    g_assert_null(strchr(text, '\033'));
    g_assert_null(strchr(text, '\a'));
    g_assert_nonnull(strstr(text, "first: guest printed '\\033[2J\\007'"));
    rv_test_rm_rf(tmp);
}

/* a store whose every scenario was SKIPPED has no record: the error says
 * why, not only that there is nothing */
static void
test_all_skipped(void)
{
    g_autofree char *tmp = g_dir_make_tmp("rv-cmp-XXXXXX", NULL);
    g_autoptr(RvStore) st = NULL, back = NULL;
    g_autoptr(RvComparison) cmp = NULL;
    g_autoptr(GPtrArray) stores = g_ptr_array_new();
    g_autoptr(GError) err = NULL;

    g_assert_cmpint(rv_result_store_create(tmp, "m", NULL, &st, &err), ==, 0);
    rv_result_store_add_scenario(st, "nosmt", NULL);
    rv_result_store_set_scenario_status(st, "nosmt", "skipped",
                                        "smt = off: the CPU has no SMT (smt/control = notsupported)");
    g_assert_cmpint(rv_result_store_commit(st, &err), ==, 0);
    g_assert_cmpint(rv_result_store_open(rv_result_store_get_dir(st), &back, &err), ==, 0);
    g_ptr_array_add(stores, back);
    g_assert_cmpint(rv_result_compare_build(stores, NULL, RV_STATS_WELCH, &cmp, &err), ==, -ENODATA);
    g_assert_cmpstr(err->message, ==, "No records in 1 results store(s): nothing to compare "
                    "(scenarios SKIPPED, e.g. nosmt: smt = off: the CPU has no SMT "
                    "(smt/control = notsupported))");
    rv_test_rm_rf(tmp);
}

/* ---- the layout: fits, said once, headers over their data ---- */

/* the cells of a header line: words, where a unit in brackets belongs to
 * the words around it ("max_us [us]", "latency [us] guest:rt" are one
 * cell each) */
typedef struct {
    gsize start, end;        /* columns, end inclusive */
} Span;

static GArray *
header_cells(const char *line)
{
    GArray *a = g_array_new(FALSE, FALSE, sizeof(Span));
    gsize len = strlen(line);

    for (gsize i = 0; i < len; ) {
        Span sp;
        while (i < len && line[i] == ' ')
            i++;
        if (i >= len)
            break;
        sp.start = i;
        while (i < len && !(line[i] == ' ' && (i + 1 >= len || line[i + 1] == ' ' ||
                                               (line[i + 1] != '[' && line[i - 1] != ']'))))
            i++;
        sp.end = i - 1;
        g_array_append_val(a, sp);
    }
    return a;
}

/* a data row's cell under the header cell @sp: empty, or ending where the
 * header ends (right-aligned), or starting where it starts (left-aligned) */
static gboolean
cell_aligned(const char *row, const Span *sp)
{
    gsize len = strlen(row);
    gboolean blank = TRUE;

    for (gsize i = sp->start; i <= sp->end && i < len; i++)
        blank &= row[i] == ' ';
    if (blank)
        return TRUE;
    if (sp->end < len && row[sp->end] != ' ' && (sp->end + 1 >= len || row[sp->end + 1] == ' '))
        return TRUE;
    return sp->start < len && row[sp->start] != ' ' && (sp->start == 0 || row[sp->start - 1] == ' ');
}

/* every line within @width columns, no non-blank line twice, and in every
 * table (a line ending in a header cell "!" up to the next blank line)
 * each header cell is aligned with the cells under it */
static void
check_layout(const char *what, const char *text, gsize width)
{
    g_auto(GStrv) lines = g_strsplit(text, "\n", -1);
    g_autoptr(GHashTable) seen = g_hash_table_new(g_str_hash, g_str_equal);
    guint tables = 0;

    for (guint i = 0; lines[i]; i++) {
        if (g_utf8_strlen(lines[i], -1) > (glong) width)
            g_error("%s: line %u has %ld columns (> %zu): '%s'", what, i + 1,
                    g_utf8_strlen(lines[i], -1), width, lines[i]);
        if (*lines[i] && !g_hash_table_add(seen, lines[i]))
            g_error("%s: line %u printed twice: '%s'", what, i + 1, lines[i]);
    }
    for (guint i = 0; lines[i]; i++) {
        g_autoptr(GArray) cells = NULL;
        gboolean table = FALSE;

        if (lines[i][0] == ' ' || !strstr(lines[i], " n virt "))
            continue;
        cells = header_cells(lines[i]);
        for (guint k = 0; k < cells->len; k++) {
            const Span *sp = &g_array_index(cells, Span, k);
            table |= sp->start == sp->end && lines[i][sp->start] == '!';
        }
        if (!table)
            continue;
        tables++;
        for (guint r = i + 1; lines[r] && *lines[r]; r++) {
            /* the label column starts 2 columns right of its title */
            if (strncmp(lines[r], "  ", 2) != 0 || lines[r][2] == ' ')
                g_error("%s: line %u: row '%s' does not start in column 3", what, r + 1, lines[r]);
            for (guint k = 1; k < cells->len; k++) {
                const Span *sp = &g_array_index(cells, Span, k);
                if (!cell_aligned(lines[r], sp))
                    g_error("%s: line %u: header '%.*s' (columns %zu-%zu) is not over its "
                            "data in '%s'", what, r + 1, (int) (sp->end - sp->start + 1),
                            lines[i] + sp->start, sp->start + 1, sp->end + 1, lines[r]);
            }
        }
    }
    g_assert_cmpuint(tables, >, 0);
}

typedef struct {
    const char *name;
    const char *args[6];
} Layout;

static const Layout layouts[] = {
    { "demo", { "demo/20261201-222234-demo", NULL } },
    { "demo-mann-whitney", { "--test", "mann-whitney", "demo/20261201-222234-demo", NULL } },
    { "welch", { "welch/20261130-140000-demo", NULL } },
    { "tcg", { "tcg/20261130-141500-demo", NULL } },
    { "tcg-mann-whitney", { "--test", "mann-whitney", "tcg/20261130-141500-demo", NULL } },
    { "two-stores", { "tcg/20261130-141500-demo", "tcg/20261130-150000-kvmhost",
                      "--baseline", "20261130-150000-kvmhost/baseline", NULL } },
    { "skipbase", { "honesty/20261130-161000-skipbase", NULL } },
};

static void
test_layout(gconstpointer data)
{
    const Layout *l = data;
    g_autofree char *out = NULL, *err = NULL;

    g_assert_cmpint(run_compare(l->args, &out, &err), ==, 0);
    check_layout(l->name, out, 120);
}

/* the demo store (a real `make demo` run under TCG, raw/ left out): every
 * SKIPPED reason and every untrusted cause once, the untrusted mark in its
 * column instead of a suffix, and with 2 + 2 repetitions Mann-Whitney
 * says that it cannot judge instead of printing p = 0.333 */
static void
test_demo(void)
{
    static const char *const welch[] = { "demo/20261201-222234-demo", NULL };
    static const char *const mwu[] = { "--test", "mann-whitney", "demo/20261201-222234-demo", NULL };
    g_autofree char *o1 = NULL, *e1 = NULL, *o2 = NULL, *e2 = NULL;
    const char *p;
    guint n = 0;

    g_assert_cmpint(run_compare(welch, &o1, &e1), ==, 0);
    for (p = o1; (p = strstr(p, "SKIPPED: smt = off")); p++)
        n++;
    g_assert_cmpuint(n, ==, 1);
    n = 0;
    for (p = o1; (p = strstr(p, "virt=tcg")); p++)
        n++;
    /* the store line's cause, the NOTE, and the two section heads */
    g_assert_cmpuint(n, ==, 1 + 1 + 1);
    g_assert_null(strstr(o1, "UNTRUSTED store"));
    /* counted as the run's summary counts them: the 7 reasons run.json
     * holds (the reader adds no second virt=tcg to the two the run wrote;
     * results/untrusted.h) */
    g_assert_nonnull(strstr(o1, "\nuntrusted: 7 reasons of 6 kinds, each kind once:\n"));
    g_assert_nonnull(strstr(o1, "\n  UNTRUSTED x2: virt=tcg\n"));
    g_assert_nonnull(strstr(o1, "! a store that is not trusted"));
    g_assert_null(strstr(o1, "n too small"));
    if (!g_regex_match_simple("^  pinned +2 tcg +! +10612\\.00 \\( +-12\\.6%\\) better ~", o1,
                              G_REGEX_MULTILINE, 0))
        g_error("no summary row for pinned in '%s'", o1);

    g_assert_cmpint(run_compare(mwu, &o2, &e2), ==, 0);
    g_assert_nonnull(strstr(o2, "NOTE: n too small for Mann-Whitney U test (needs n >= 4): with 3 and 3 "
                                "repetitions its smallest p is 0.1"));
    g_assert_null(strstr(o2, "0.333"));
    g_assert_nonnull(strstr(o2, "  n small ?"));
}

/* ---- budgets ---- */

typedef struct {
    const char *text;
    const char *metric;       /* NULL: must be refused with @err */
    RvBudgetOp op;
    double limit;
    gboolean relative;
    const char *guest, *scenario;
    double pct;
    const char *err;
} BudgetCase;

static const BudgetCase budget_cases[] = {
    { "max_us <= 40", "max_us", RV_BUDGET_LE, 40, FALSE, NULL, NULL, -1, NULL },
    { "max_us<40", "max_us", RV_BUDGET_LT, 40, FALSE, NULL, NULL, -1, NULL },
    { " guest=rt0: p99.99_us <= 20 ", "p99.99_us", RV_BUDGET_LE, 20, FALSE, "rt0", NULL, 99.99, NULL },
    { "nopm >= -10%", "nopm", RV_BUDGET_GE, -10, TRUE, NULL, NULL, -1, NULL },
    { "scenario=coresched,guest=db: gflops > -5 %", "gflops", RV_BUDGET_GT, -5, TRUE, "db", "coresched", -1, NULL },
    { "max_us =< 40", NULL, 0, 0, FALSE, NULL, NULL, -1, "expected [WHERE:] METRIC OP NUMBER" },
    { "max_us <= forty", NULL, 0, 0, FALSE, NULL, NULL, -1, "limit 'forty' is not a finite number" },
    { "max_us <= inf", NULL, 0, 0, FALSE, NULL, NULL, -1, "is not a finite number" },
    { "vm=rt0: max_us <= 4", NULL, 0, 0, FALSE, NULL, NULL, -1, "'vm=rt0' is not guest=NAME" },
    { "<= 40", NULL, 0, 0, FALSE, NULL, NULL, -1, "expected [WHERE:]" },
    { "p99_us <= 5%", NULL, 0, 0, FALSE, NULL, NULL, -1, "a percentile budget is absolute" },
    { "max_us == 4", NULL, 0, 0, FALSE, NULL, NULL, -1, "expected [WHERE:]" },
};

static void
test_budget_parse(void)
{
    for (guint i = 0; i < G_N_ELEMENTS(budget_cases); i++) {
        const BudgetCase *bc = &budget_cases[i];
        g_autoptr(RvBudget) b = NULL;
        g_autoptr(GError) err = NULL;
        int r = rv_result_budget_parse(bc->text, NULL, "--budget", &b, &err);

        if (!bc->metric) {
            g_assert_cmpint(r, ==, -EINVAL);
            if (!strstr(err->message, bc->err))
                g_error("'%s': '%s' lacks '%s'", bc->text, err->message, bc->err);
            g_assert_null(b);
            continue;
        }
        if (r < 0)
            g_error("'%s': %s", bc->text, err->message);
        g_assert_cmpstr(b->metric, ==, bc->metric);
        g_assert_cmpint(b->op, ==, bc->op);
        g_assert_cmpfloat(b->limit, ==, bc->limit);
        g_assert_cmpint(b->relative, ==, bc->relative);
        g_assert_cmpstr(b->guest, ==, bc->guest);
        g_assert_cmpstr(b->scenario, ==, bc->scenario);
        g_assert_cmpfloat_with_epsilon(b->pct, bc->pct, 1e-9);
    }
}

/* the issue's "done when": 'max_us<=50' exits 1 on a TCG store and says
 * why; on a trusted store whose values pass, exit 0 */
static void
test_budget_tcg(void)
{
    static const char *const args[] = { "--budget", "max_us<=50", "demo/20261201-222234-demo", NULL };
    g_autofree char *out = NULL, *err = NULL;

    g_assert_cmpint(run_compare(args, &out, &err), ==, 1);
    g_assert_nonnull(strstr(out, "  NOT JUDGED max_us<=50 on guest:rt, unpinned: 12850 (the worst of 2 repetition(s)): "
                                 "the store is not trusted\n"));
    g_assert_nonnull(strstr(out, "\nNOT JUDGED: the store is not trusted: virt=tcg (and 6 more reason(s)"));
    g_assert_null(strstr(out, "  PASS "));
    g_assert_nonnull(strstr(out, "budgets: 0 PASS, 0 FAIL, 2 NOT JUDGED"));
    check_layout("budget-tcg", out, 120);
}

static void
test_budget_matrix(void)
{
    static const char *const pass[] = { "budget/20261130-140000-demo", NULL };
    static const char *const fail[] = { "budget/20261130-140000-demo", "--budget", "max_us <= 20", NULL };
    static const char *const rel[] = { "welch/20261130-140000-demo", "--budget", "avg_us <= 5%", "--json", NULL };
    static const char *const none[] = { "welch/20261130-140000-demo", "--budget", "nopm >= -10%", NULL };
    static const char *const bad[] = { "welch/20261130-140000-demo", "--budget", "max_us => 3", NULL };
    g_autofree char *o1 = NULL, *e1 = NULL, *o2 = NULL, *e2 = NULL, *o3 = NULL, *e3 = NULL;
    g_autofree char *o4 = NULL, *e4 = NULL, *o5 = NULL, *e5 = NULL;
    g_autoptr(JsonParser) p = json_parser_new();
    JsonArray *verdicts;
    guint fails = 0;

    /* [budget] of the matrix copy in the store's profiles/, with its line */
    g_assert_cmpint(run_compare(pass, &o1, &e1), ==, 0);
    g_assert_nonnull(strstr(o1, "from: budget/20261130-140000-demo/profiles/demo.ini\n"));
    g_assert_nonnull(strstr(o1, "  PASS       rt-max: max_us <= 30 on guest:rt0, baseline: 27.5 (the worst of 15 repetition(s))"));
    g_assert_nonnull(strstr(o1, "rt-p9999: guest=rt0: p99.99_us <= 700 on guest:rt0, pinned: 700 (p99.99 of the merged"));
    g_assert_nonnull(strstr(o1, "budgets: 6 PASS, 0 FAIL, 0 NOT JUDGED\n"));
    check_layout("budget-pass", o1, 120);

    g_assert_cmpint(run_compare(fail, &o2, &e2), ==, 1);
    g_assert_nonnull(strstr(o2, "  FAIL       max_us <= 20 on guest:rt0, noisy: 27.2 (the worst of 15 repetition(s))"));
    g_assert_nonnull(strstr(o2, "budgets: 6 PASS, 3 FAIL, 0 NOT JUDGED"));

    /* a change against the baseline: pinned +10.4 %, noisy -0.1 % */
    g_assert_cmpint(run_compare(rel, &o3, &e3), ==, 1);
    g_assert_true(json_parser_load_from_data(p, o3, -1, NULL));
    verdicts = json_object_get_array_member(json_node_get_object(json_parser_get_root(p)), "budgets");
    g_assert_cmpuint(json_array_get_length(verdicts), ==, 2);
    for (guint i = 0; i < 2; i++) {
        JsonObject *v = json_array_get_object_element(verdicts, i);
        const char *sc = json_object_get_string_member(v, "scenario");
        const char *verdict = json_object_get_string_member(v, "verdict");
        g_assert_cmpstr(verdict, ==, g_str_equal(sc, "pinned") ? "FAIL" : "PASS");
        fails += g_str_equal(verdict, "FAIL");
        g_assert_true(json_object_get_boolean_member(v, "relative"));
        if (g_str_equal(sc, "pinned"))
            g_assert_cmpfloat_with_epsilon(json_object_get_double_member(v, "value"),
                                           100 * (22.986666666666668 - 20.82) / 20.82, 1e-6);
    }
    g_assert_cmpuint(fails, ==, 1);

    /* nothing to judge is no PASS */
    g_assert_cmpint(run_compare(none, &o4, &e4), ==, 1);
    g_assert_nonnull(strstr(o4, "  NOT JUDGED nopm >= -10%: no change of nopm value to judge"));
    /* a bad expression is an error before anything is printed */
    g_assert_cmpint(run_compare(bad, &o5, &e5), ==, 2);
    g_assert_nonnull(strstr(e5, "invalid budget 'max_us => 3'"));
    g_assert_cmpstr(o5, ==, "");
}

/* ---- throughput on a generated store ---- */

static const double gflops[2][3] = { { 100, 110, 120 }, { 90, 95, 100 } };

static char *
throughput_store(void)
{
    g_autofree char *tmp = g_dir_make_tmp("rv-cmp-thr-XXXXXX", NULL);
    g_autoptr(RvStore) st = NULL;
    g_autoptr(GError) err = NULL;
    static const char *const scen[] = { "baseline", "coresched" };

    g_assert_cmpint(rv_result_store_create(tmp, "thr", NULL, &st, &err), ==, 0);
    for (guint s = 0; s < 2; s++)
        rv_result_store_add_scenario(st, scen[s], NULL);
    for (int r = 1; r <= 3; r++)
        for (guint s = 0; s < 2; s++) {
            RvStoreRecord *rt = rv_result_store_record_new(scen[s], r, "cyclictest", "guest:rt0");
            RvStoreRecord *lp = rv_result_store_record_new(scen[s], r, "linpack", "guest:lp0");
            g_autoptr(RvHistogram) h = rv_result_histogram_new(100);

            rv_result_histogram_add(h, 5 + s, 9999);
            rv_result_histogram_add(h, 20 + 10 * s + r, 1);
            h->max_us = 20 + 10 * s + r;
            rv_result_store_record_set_virt(rt, "kvm");
            rv_result_store_record_add_metric(rt, "max_us", h->max_us, "us");
            rv_result_store_record_add_histogram(rt, "latency", h);
            rv_result_store_add_record(st, rt);
            rv_result_store_record_set_virt(lp, "kvm");
            rv_result_store_record_add_metric_full(lp, "gflops", gflops[s][r - 1], "GFLOPS",
                                                   RV_STORE_BETTER_HIGHER, RV_STORE_AGGREGATE_HMEAN);
            rv_result_store_record_add_metric_full(lp, RV_STORE_METRIC_CPU_PCT, 50 + 10 * s, "%",
                                                   RV_STORE_BETTER_LOWER, RV_STORE_AGGREGATE_MEAN);
            rv_result_store_add_record(st, lp);
        }
    g_assert_cmpint(rv_result_store_commit(st, &err), ==, 0);
    return g_strdup(rv_result_store_get_dir(st));
}

static void
test_throughput(void)
{
    g_autofree char *dir = throughput_store();
    const char *args[] = { dir, NULL };
    const char *jargs[] = { "--json", dir, NULL };
    g_autofree char *out = NULL, *err = NULL, *jout = NULL, *jerr = NULL;
    g_autofree char *want = NULL, *row = NULL;
    g_autoptr(JsonParser) p = json_parser_new();
    double hb = 3 / (1 / 100.0 + 1 / 110.0 + 1 / 120.0), hc = 3 / (1 / 90.0 + 1 / 95.0 + 1 / 100.0);
    double change = 100 * (hc - hb) / hb;
    g_autofree char *parent = g_path_get_dirname(dir);

    g_assert_cmpint(run_compare(args, &out, &err), ==, 0);
    check_layout("throughput", out, 120);
    /* the answer: RT p99.99 and max beside the throughput and cpu%, each
     * change with its direction, and the sentence */
    g_assert_nonnull(strstr(out, "== the answer: each scenario against the baseline"));
    if (!g_regex_match_simple("^ +RT +RT +lp0 +host\n"
                              "scenario +n virt +! +p99.99 \\[us\\] +max \\[us\\] +gflops \\[GFLOPS\\] +cpu%$",
                              out, G_REGEX_MULTILINE, 0))
        g_error("no answer header in '%s'", out);
    row = g_strdup_printf("^  coresched +3 +6 \\+1 worse.* +33 \\+10 worse.* +%.1f %+.1f%% worse [~*]* +60\\.0 \\+10\\.0 worse",
                          hc, change);
    if (!g_regex_match_simple(row, out, G_REGEX_MULTILINE, 0))
        g_error("no answer row '%s' in '%s'", row, out);
    if (!g_regex_match_simple("^  coresched vs baseline: RT p99.99 1 us worse \\(.*\\), RT max 10 us "
                              "worse \\(.*\\), lp0 gflops 13\\.[0-9] % worse \\(p", out,
                              G_REGEX_MULTILINE, 0))
        g_error("no answer sentence in '%s'", out);
    /* the detail table of a rate shows its harmonic mean */
    if (!g_regex_match_simple("^gflops \\[GFLOPS\\] +n virt +! +hmean +stddev", out, G_REGEX_MULTILINE, 0))
        g_error("no hmean column in '%s'", out);
    want = g_strdup_printf("%9.2f", hc);
    g_assert_nonnull(strstr(out, want));

    g_assert_cmpint(run_compare(jargs, &jout, &jerr), ==, 0);
    g_assert_true(json_parser_load_from_data(p, jout, -1, NULL));
    {
        JsonObject *r = json_row(json_node_get_object(json_parser_get_root(p)), 1, "gflops", "coresched");
        g_assert_cmpfloat_with_epsilon(json_object_get_double_member(r, "change_pct"), change, 1e-9);
    }
    rv_test_rm_rf(parent);
}

/* The "coresched vs nosmt" sentence finds its scenarios by what they set
 * in the store's matrix copy (smt = off; coresched = vm), not by their
 * names or descriptions: here "cookie" and "halved" with descriptions that
 * name no setting (a store whose descriptions differ from the run's), and
 * "decoy" whose description says "smt=off coresched=vm" in its free text
 * but whose matrix section sets neither. */
static void
test_answer_by_settings(void)
{
    g_autofree char *tmp = g_dir_make_tmp("rv-cmp-set-XXXXXX", NULL);
    g_autofree char *mx = g_build_filename(tmp, "renamed.ini", NULL);
    g_autofree char *out = NULL, *err = NULL;
    g_autoptr(RvStore) st = NULL;
    g_autoptr(GError) gerr = NULL;
    static const char *const scen[] = { "plain", "cookie", "halved", "decoy" };
    static const char *const desc[] = { "as it came", "tagged VMs", "threads halved",
                                        "looks like smt=off coresched=vm but is not" };

    g_assert_true(g_file_set_contents(mx, "[main]\nname = renamed\n[guest:rt0]\nprofile = rt-demo\n"
                                          "[scenario:plain]\nsmt = keep\n[scenario:cookie]\nsmt = on\n"
                                          "coresched = vm\n[scenario:halved]\nsmt = off\n"
                                          "[scenario:decoy]\nsmt = keep\n", -1, NULL));
    g_assert_cmpint(rv_result_store_create(tmp, "renamed", NULL, &st, &gerr), ==, 0);
    g_assert_cmpint(rv_result_store_add_profile(st, "matrix", mx, &gerr), ==, 0);
    for (guint s = 0; s < G_N_ELEMENTS(scen); s++)
        rv_result_store_add_scenario(st, scen[s], desc[s]);
    for (int r = 1; r <= 3; r++)
        for (guint s = 0; s < G_N_ELEMENTS(scen); s++) {
            RvStoreRecord *rt = rv_result_store_record_new(scen[s], r, "cyclictest", "guest:rt0");
            g_autoptr(RvHistogram) h = rv_result_histogram_new(100);

            rv_result_histogram_add(h, 5 + s, 9999);
            rv_result_histogram_add(h, 20 + 10 * s + r, 1);
            h->max_us = 20 + 10 * s + r;
            rv_result_store_record_set_virt(rt, "kvm");
            rv_result_store_record_add_metric(rt, "max_us", h->max_us, "us");
            rv_result_store_record_add_histogram(rt, "latency", h);
            rv_result_store_add_record(st, rt);
        }
    g_assert_cmpint(rv_result_store_commit(st, &gerr), ==, 0);
    {
        const char *args[] = { rv_result_store_get_dir(st), NULL };

        g_assert_cmpint(run_compare(args, &out, &err), ==, 0);
    }
    if (!g_regex_match_simple("^  cookie vs halved: RT p99.99 1 us better \\(", out, G_REGEX_MULTILINE, 0))
        g_error("no 'cookie vs halved' answer in '%s'", out);
    /* each option against the baseline, and only the one pair */
    g_assert_nonnull(strstr(out, "\n  decoy vs plain: "));
    g_assert_null(strstr(out, "decoy vs halved"));
    g_assert_null(strstr(out, "vs decoy"));
    /* with SMT off as the baseline, the pair is said once, not again as
     * the kernel thread's question */
    {
        const char *args[] = { "--baseline", "halved", rv_result_store_get_dir(st), NULL };
        g_autofree char *out2 = NULL, *err2 = NULL;
        const char *p;
        int n = 0;

        g_assert_cmpint(run_compare(args, &out2, &err2), ==, 0);
        for (p = out2; (p = strstr(p, "\n  cookie vs halved: ")); p++)
            n++;
        if (n != 1)
            g_error("'cookie vs halved' said %d times with --baseline halved: '%s'", n, out2);
    }
    rv_test_rm_rf(tmp);
}

/* Two RT guests: the answer's RT columns merge their histograms per
 * repetition (rt0: 9999 samples at 5 us and one at 20; rt1: 9999 at 7 and
 * one at 30: merged 20000 samples, the nearest rank of p99.99 is 19998,
 * 7 us; max 30), --per-guest gives a pair per guest (rt0 5 / 20, rt1 7 /
 * 30). */
static void
test_per_guest(void)
{
    g_autofree char *tmp = g_dir_make_tmp("rv-cmp-pg-XXXXXX", NULL);
    g_autoptr(RvStore) st = NULL;
    g_autoptr(GError) err = NULL;
    g_autofree char *out = NULL, *e1 = NULL, *pout = NULL, *e2 = NULL;

    g_assert_cmpint(rv_result_store_create(tmp, "pg", NULL, &st, &err), ==, 0);
    rv_result_store_add_scenario(st, "baseline", NULL);
    for (int r = 1; r <= 3; r++)
        for (guint gi = 0; gi < 2; gi++) {
            RvStoreRecord *rec = rv_result_store_record_new("baseline", r, "cyclictest",
                                                            gi ? "guest:rt1" : "guest:rt0");
            g_autoptr(RvHistogram) h = rv_result_histogram_new(100);

            rv_result_histogram_add(h, gi ? 7 : 5, 9999);
            rv_result_histogram_add(h, gi ? 30 : 20, 1);
            h->max_us = gi ? 30 : 20;
            rv_result_store_record_set_virt(rec, "kvm");
            rv_result_store_record_add_metric(rec, "max_us", h->max_us, "us");
            rv_result_store_record_add_histogram(rec, "latency", h);
            rv_result_store_add_record(st, rec);
        }
    g_assert_cmpint(rv_result_store_commit(st, &err), ==, 0);
    {
        const char *args[] = { rv_result_store_get_dir(st), NULL };
        const char *pargs[] = { "--per-guest", rv_result_store_get_dir(st), NULL };

        g_assert_cmpint(run_compare(args, &out, &e1), ==, 0);
        g_assert_cmpint(run_compare(pargs, &pout, &e2), ==, 0);
    }
    if (!g_regex_match_simple("^ +RT +RT\n.*\n  baseline +3 +7 \\(base\\) +30 \\(base\\)$", out,
                              G_REGEX_MULTILINE, 0))
        g_error("no merged RT columns in '%s'", out);
    if (!g_regex_match_simple("^ +rt0 +rt0 +rt1 +rt1\n.*\n  baseline +3 +5 \\(base\\) +20 \\(base\\) "
                              "+7 \\(base\\) +30 \\(base\\)$", pout, G_REGEX_MULTILINE, 0))
        g_error("no per-guest RT columns in '%s'", pout);
    rv_test_rm_rf(tmp);
}

/* --baseline NAME on a store with load levels (flagship-ci/): an unknown
 * name is offered the cells that hold data, not the bare scenarios beside
 * them nor the SKIPPED ones; the bare name is accepted and means the
 * scenario at every level, as SCENARIO@LOAD does (doc/rtvirt.1). */
static void
test_baseline_levels(void)
{
    static const char *const nope[] = { "--baseline", "nope",
                                        "flagship-ci/20261204-183604-coresched-vs-nosmt-ci", NULL };
    static const char *const bare[] = { "--baseline", "siblings-idle",
                                        "flagship-ci/20261204-183604-coresched-vs-nosmt-ci", NULL };
    static const char *const cell[] = { "--baseline", "siblings-idle@t2",
                                        "flagship-ci/20261204-183604-coresched-vs-nosmt-ci", NULL };
    g_autofree char *o1 = NULL, *e1 = NULL, *o2 = NULL, *e2 = NULL, *o3 = NULL, *e3 = NULL;

    g_assert_cmpint(run_compare(nope, &o1, &e1), ==, 2);
    g_assert_cmpstr(o1, ==, "");
    g_assert_nonnull(strstr(e1, "Baseline 'nope' is not a scenario; scenarios with data: "
                                "baseline@t1, baseline@t2, siblings-idle@t1, siblings-idle@t2 "
                                "(a scenario's name alone means it at every load level)\n"));
    g_assert_cmpint(run_compare(bare, &o2, &e2), ==, 0);
    g_assert_cmpint(run_compare(cell, &o3, &e3), ==, 0);
    g_assert_nonnull(strstr(o2, "\nbaseline: siblings-idle at each load level "
                                "(t1: siblings-idle@t1, t2: siblings-idle@t2)\n"));
    g_assert_cmpstr(o2, ==, o3);
}

/* The flagship's CI version run for real under TCG on the 2-CPU build
 * machine (flagship-ci/, README.source.txt): baseline and siblings-idle at
 * two load levels beside sysbench and gemm neighbours, nosmt and
 * coresched SKIPPED.  The answer opens the output: per cell RT latency
 * and each neighbour's throughput side by side with better/worse and the
 * noise marks, the sentences, the scenarios' descriptions; the untrusted
 * reasons come after it, each kind once with its count; the per-level
 * table keeps mean [std% / sem%] change cpu%. */
static void
test_flagship(void)
{
    static const char *const args[] = { "flagship-ci/20261204-183604-coresched-vs-nosmt-ci", NULL };
    static const char *const jargs[] = { "--json", "flagship-ci/20261204-183604-coresched-vs-nosmt-ci",
                                         NULL };
    g_autofree char *out = NULL, *err = NULL, *jout = NULL, *jerr = NULL;
    g_autoptr(JsonParser) p = json_parser_new();
    const char *answer, *untrusted, *skipped, *levels;
    JsonObject *sum;
    JsonArray *rows;

    g_assert_cmpint(run_compare(args, &out, &err), ==, 0);
    check_layout("flagship-ci", out, 120);
    answer = strstr(out, "== the answer");
    untrusted = strstr(out, "\n  UNTRUSTED");
    skipped = strstr(out, "SKIPPED: smt = off");
    levels = strstr(out, "events_per_s [events/s] of guest:sb per load level: mean [std% / sem%] change cpu%");
    g_assert_nonnull(answer);
    g_assert_nonnull(untrusted);
    g_assert_nonnull(levels);
    /* the answer before everything but the store line */
    g_assert_true(answer < untrusted && answer < skipped && answer < levels);
    g_assert_null(strstr(out, "NOTE: the first scenario"));
    if (!g_regex_match_simple("^ +RT +RT +sb$", out, G_REGEX_MULTILINE, 0) ||
        !g_regex_match_simple("^ +gm +host$", out, G_REGEX_MULTILINE, 0))
        g_error("no answer columns for RT, sb, gm, host in '%s'", out);
    if (!g_regex_match_simple("^  baseline@t1 +2 +! +<=[0-9]+ \\(base\\) +[0-9]+ \\(base\\) +[0-9.]+ \\(base\\)$",
                              out, G_REGEX_MULTILINE, 0))
        g_error("no baseline@t1 answer row in '%s'", out);
    if (!g_regex_match_simple("^  siblings-idle@t2 +2 +! +<=[0-9]+ [-+][0-9]+ (better|worse) [~*?]+ .* "
                              "[0-9.]+ [-+][0-9.]+% (better|worse) [~*?]+$", out, G_REGEX_MULTILINE, 0))
        g_error("no siblings-idle@t2 answer row in '%s'", out);
    if (!g_regex_match_simple("^  siblings-idle@t1 vs baseline@t1: RT p99.99 [0-9]+ us (better|worse) \\(p=",
                              out, G_REGEX_MULTILINE, 0))
        g_error("no answer sentence in '%s'", out);
    {
        /* the SKIPPED options in the answer, before their reasons */
        const char *said = strstr(out, "\n  nosmt: not measured (SKIPPED; the reason below)\n");

        g_assert_nonnull(said);
        g_assert_true(said < skipped && said < untrusted);
    }
    g_assert_nonnull(strstr(out, "sb events_per_s"));
    g_assert_nonnull(strstr(out, "gm gflops"));
    g_assert_nonnull(strstr(out, "\n  siblings-idle         SMT on, no core scheduling, the RT vCPUs' siblings idle\n"));
    /* the run wrote four reasons that name virt=tcg (rt, sb, gm, the store) */
    g_assert_nonnull(strstr(out, "  UNTRUSTED x4: virt=tcg\n"));
    g_assert_nonnull(strstr(out, "SKIPPED: smt = on: the CPU has no SMT"));
    /* the host had no SMT: baseline and siblings-idle differ only in name */
    g_assert_nonnull(strstr(out, "\nNOTE: store 1's host has no SMT sibling online: host_sibling = shared "
                                 "(baseline) and idle (siblings-idle) gave"));
    /* every load level's baseline, not t1's alone */
    g_assert_nonnull(strstr(out, "\nbaseline: baseline at each load level (t1: baseline@t1, t2: baseline@t2)\n"));
    if (!g_regex_match_simple("^  t1 +[0-9.]+ \\[ *[0-9.]+%/ *[0-9.]+%\\] +base +100\\.0% +[0-9.]+ \\[ *[0-9.]+%/ *[0-9.]+%\\] +[-+][0-9.]+% (better|worse|same) +[~*?]* +100\\.0%$",
                              levels, G_REGEX_MULTILINE, 0))
        g_error("no t1 level row in '%s'", levels);

    g_assert_cmpint(run_compare(jargs, &jout, &jerr), ==, 0);
    g_assert_true(json_parser_load_from_data(p, jout, -1, NULL));
    sum = json_object_get_object_member(json_node_get_object(json_parser_get_root(p)), "summary");
    rows = json_object_get_array_member(sum, "rows");
    g_assert_cmpuint(json_array_get_length(rows), ==, 4);
    /* two options measured against the baseline, then the two this host
     * could not run: no answer, said in the answer */
    g_assert_cmpuint(json_array_get_length(json_object_get_array_member(sum, "answers")), ==, 4);
    g_assert_cmpstr(json_array_get_string_element(json_object_get_array_member(sum, "answers"), 2), ==,
                    "nosmt: not measured (SKIPPED; the reason below)");
    g_assert_cmpstr(json_array_get_string_element(json_object_get_array_member(sum, "answers"), 3), ==,
                    "coresched: not measured (SKIPPED; the reason below)");
    {
        JsonObject *r = json_array_get_object_element(rows, 3);
        JsonObject *cells = json_object_get_object_member(r, "cells");

        g_assert_cmpstr(json_object_get_string_member(r, "scenario"), ==, "siblings-idle@t2");
        g_assert_cmpstr(json_object_get_string_member(r, "baseline"), ==, "baseline@t2");
        g_assert_cmpstr(json_object_get_string_member(r, "load"), ==, "t2");
        g_assert_true(json_object_has_member(cells, "gm_gflops"));
        g_assert_nonnull(json_object_get_string_member(json_object_get_object_member(cells, "RT_max"),
                                                       "direction"));
    }
}

/* --within: shares under thresholds from the merged
 * histograms; by hand from README.source.txt's welch histograms: baseline
 * 0 % < 10 us, 90 % < 20 us, 99.9 % < 50 us; pinned 100 of 101 samples
 * at 5 us and one overflow beyond 30 us with max 700: 99.01 % < 50 us is a
 * lower bound, < 1000 us all of them */
static void
test_within(void)
{
    static const char *const args[] = { "--json", "--within", "10us,20us,0.05ms,1000",
                                         "welch/20261130-140000-demo", NULL };
    static const char *const text[] = { "--within", "10us,20us,0.05ms,1000",
                                        "welch/20261130-140000-demo", NULL };
    static const char *const bad[] = { "--within", "20us,10us", "welch/20261130-140000-demo", NULL };
    static const double want[2][4] = { { 0, 90, 99.9, 100 }, { 100 / 1.01, 100 / 1.01, 100 / 1.01, 100 } };
    static const gboolean bound[2][4] = { { FALSE, FALSE, FALSE, FALSE }, { FALSE, FALSE, TRUE, FALSE } };
    g_autofree char *out = NULL, *err = NULL, *o2 = NULL, *e2 = NULL, *o3 = NULL, *e3 = NULL;
    g_autoptr(JsonParser) p = json_parser_new();
    JsonArray *lat;

    g_assert_cmpint(run_compare(args, &out, &err), ==, 0);
    g_assert_true(json_parser_load_from_data(p, out, -1, NULL));
    lat = json_object_get_array_member(json_array_get_object_element(json_object_get_array_member(
              json_node_get_object(json_parser_get_root(p)), "groups"), 0), "latency");
    for (guint s = 0; s < 2; s++) {
        JsonArray *w = json_object_get_array_member(json_array_get_object_element(lat, s), "within");
        g_assert_cmpuint(json_array_get_length(w), ==, 4);
        for (guint k = 0; k < 4; k++) {
            JsonObject *e = json_array_get_object_element(w, k);
            g_assert_cmpfloat_with_epsilon(json_object_get_double_member(e, "pct"), want[s][k], 1e-9);
            g_assert_cmpint(json_object_get_boolean_member(e, "bound"), ==, bound[s][k]);
        }
    }
    g_assert_cmpint(run_compare(text, &o2, &e2), ==, 0);
    g_assert_nonnull(strstr(o2, "  baseline     15 kvm           0.000    90.000    99.900   100.000\n"));
    g_assert_nonnull(strstr(o2, ">=99.010"));
    check_layout("within", o2, 120);
    g_assert_cmpint(run_compare(bad, &o3, &e3), ==, 2);
    g_assert_nonnull(strstr(e3, "invalid --within '20us,10us'"));
}

/* ---- many hosts ---- */

/* a store under PARENT/SUB/ for host @hostname with max_us values @v */
static char *
host_store(const char *parent, const char *sub, const char *hostname, const double *v)
{
    g_autofree char *dir = g_build_filename(parent, sub, NULL);
    g_autoptr(RvStore) st = NULL;
    g_autoptr(GError) err = NULL;
    g_autoptr(JsonNode) host = json_from_string("{}", NULL);

    json_object_set_string_member(json_node_get_object(host), "hostname", hostname);
    g_assert_cmpint(rv_result_store_create(dir, "fleet", NULL, &st, &err), ==, 0);
    rv_result_store_set_host(st, host);
    rv_result_store_add_scenario(st, "baseline", NULL);
    rv_result_store_add_scenario(st, "coresched", NULL);
    for (int r = 0; r < 3; r++)
        for (int s = 0; s < 2; s++) {
            RvStoreRecord *rec = rv_result_store_record_new(s ? "coresched" : "baseline", r + 1,
                                                            "cyclictest", "guest:rt0");
            rv_result_store_record_set_virt(rec, "kvm");
            rv_result_store_record_add_metric(rec, "max_us", v[r] + s, "us");
            rv_result_store_add_record(st, rec);
        }
    g_assert_cmpint(rv_result_store_commit(st, &err), ==, 0);
    return g_strdup(rv_result_store_get_dir(st));
}

static void
test_by_host(void)
{
    g_autofree char *tmp = g_dir_make_tmp("rv-cmp-fleet-XXXXXX", NULL);
    static const double a[] = { 10, 11, 12 }, b[] = { 11, 12, 13 }, c3[] = { 30, 31, 32 };
    g_autofree char *sa = host_store(tmp, "hostA", "alpha", a);
    g_autofree char *sb = host_store(tmp, "hostB", "bravo", b);
    /* two inventory hosts on one machine: the same hostname, told apart
     * by the directory the collect role put them in */
    g_autofree char *sc = host_store(tmp, "node-c", "bravo", c3);
    const char *by_host[] = { "--by", "host", sa, sb, sc, NULL };
    const char *by_scen[] = { "--by", "scenario", "--json", sa, sb, sc, NULL };
    const char *bad[] = { "--by", "rack", sa, sb, NULL };
    g_autofree char *o1 = NULL, *e1 = NULL, *o2 = NULL, *e2 = NULL, *o3 = NULL, *e3 = NULL;
    g_autoptr(JsonParser) p = json_parser_new();
    JsonObject *root;
    JsonArray *scens, *outl;
    const char *labels[] = { "alpha/baseline", "hostB/baseline", "node-c/baseline",
                             "alpha/coresched", "hostB/coresched", "node-c/coresched" };

    g_assert_cmpint(run_compare(by_host, &o1, &e1), ==, 0);
    check_layout("by-host", o1, 120);
    /* one table with all hosts, a host's scenarios together */
    if (!g_regex_match_simple("^  alpha/baseline +3 kvm +11\\.00 .*\\n  alpha/coresched +3 kvm .*\\n"
                              "  hostB/baseline +3 ", o1, G_REGEX_MULTILINE, 0))
        g_error("rows not grouped by host in '%s'", o1);
    g_assert_nonnull(strstr(o1, "== outliers across hosts ==\n"));
    g_assert_nonnull(strstr(o1, "  node-c: max_us [us] of guest:rt0 in baseline is 31, outside the 2 other "
                                "host(s)' 10 .. 13\n"));
    g_assert_null(strstr(o1, "  alpha: max_us"));

    g_assert_cmpint(run_compare(by_scen, &o2, &e2), ==, 0);
    g_assert_true(json_parser_load_from_data(p, o2, -1, NULL));
    root = json_node_get_object(json_parser_get_root(p));
    scens = json_object_get_array_member(root, "scenarios");
    g_assert_cmpuint(json_array_get_length(scens), ==, 6);
    for (guint i = 0; i < 6; i++)
        g_assert_cmpstr(json_object_get_string_member(json_array_get_object_element(scens, i), "label"),
                        ==, labels[i]);
    outl = json_object_get_array_member(root, "outliers");
    g_assert_cmpuint(json_array_get_length(outl), ==, 2);   /* node-c in both scenarios */
    for (guint i = 0; i < 2; i++)
        g_assert_cmpstr(json_object_get_string_member(json_array_get_object_element(outl, i), "host"),
                        ==, "node-c");

    g_assert_cmpint(run_compare(bad, &o3, &e3), ==, 2);
    g_assert_nonnull(strstr(e3, "unknown --by 'rack'"));
    rv_test_rm_rf(tmp);
}

int
main(int argc, char **argv)
{
    g_test_init(&argc, &argv, NULL);
    g_test_add_func("/compare/control-bytes", test_control_bytes);
    g_test_add_func("/compare/all-skipped", test_all_skipped);
    g_test_add_func("/compare/welch-values", test_welch_values);
    g_test_add_func("/compare/mann-whitney", test_mann_whitney);
    g_test_add_func("/compare/tcg", test_tcg);
    g_test_add_func("/compare/cli-errors", test_cli_errors);
    g_test_add_func("/compare/deep-nesting", test_deep_nesting);
    g_test_add_func("/compare/tcg-untrusted", test_tcg_untrusted);
    g_test_add_func("/compare/skipped-baseline", test_skipped_baseline);
    g_test_add_func("/compare/duplicate-store", test_duplicate_store);
    for (guint i = 0; i < G_N_ELEMENTS(bad_stores); i++) {
        g_autofree char *p = g_strdup_printf("/compare/%s", bad_stores[i].dir);
        g_test_add_data_func(p, &bad_stores[i], test_bad_store);
    }
    g_test_add_func("/compare/demo", test_demo);
    g_test_add_func("/compare/throughput", test_throughput);
    g_test_add_func("/compare/flagship-ci", test_flagship);
    g_test_add_func("/compare/baseline-levels", test_baseline_levels);
    g_test_add_func("/compare/answer-by-settings", test_answer_by_settings);
    g_test_add_func("/compare/per-guest", test_per_guest);
    g_test_add_func("/compare/within", test_within);
    g_test_add_func("/compare/by-host", test_by_host);
    g_test_add_func("/compare/budget/parse", test_budget_parse);
    g_test_add_func("/compare/budget/tcg", test_budget_tcg);
    g_test_add_func("/compare/budget/matrix", test_budget_matrix);
    for (guint i = 0; i < G_N_ELEMENTS(layouts); i++) {
        g_autofree char *p = g_strdup_printf("/compare/layout/%s", layouts[i].name);
        g_test_add_data_func(p, &layouts[i], test_layout);
    }
    for (guint i = 0; i < G_N_ELEMENTS(goldens); i++) {
        g_autofree char *p = g_strdup_printf("/compare/golden/%s.%s", goldens[i].name, goldens[i].ext);
        g_test_add_data_func(p, &goldens[i], test_golden);
    }
    return g_test_run();
}
