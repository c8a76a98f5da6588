/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * tests/test-cyclictest.c: the cyclictest parser on real outputs.
 *
 * Two layers:
 *  1. explicit assertions of the values each tests/data/cases/cyclictest/
 *     NAME.source.txt states (written by hand from those notes; never
 *     regenerated);
 *  2. data-driven golden dumps: every input in tests/data/cases/cyclictest
 *     and the .txt/.json files in tests/data/cyclictest -> tests/data/cyclictest/
 *     NAME.expected (full parse, every field).  RV_REGENERATE=1 rewrites
 *     the .expected files; review such diffs line by line.
 */
#include <errno.h>
#include <math.h>
#include <string.h>

#include "results/cyclictest.h"
#include "util/error.h"
#include "tests/testutil.h"

static char *
case_path(const char *name)
{
    return g_build_filename(rv_test_cases_dir(), "cyclictest", name, NULL);
}

static char *
data_path(const char *name)
{
    return rv_test_data_path("cyclictest", name);
}

static GPtrArray *
parse_ok(const char *path)
{
    g_autoptr(GError) err = NULL;
    GPtrArray *runs = NULL;
    int r = rv_result_cyclictest_parse_file(path, &runs, &err);

    if (r < 0)
        g_error("%s: %s", path, err->message);
    g_assert_cmpint(r, ==, (int) runs->len);
    return runs;
}

#define RUN(runs, i) ((RvCyclictestRun *) (runs)->pdata[i])
#define THR(run, i) ((RvCyclictestThread *) (run)->threads->pdata[i])

static gboolean
has_note(const RvCyclictestRun *run, const char *needle)
{
    for (guint i = 0; i < run->notes->len; i++)
        if (strstr(run->notes->pdata[i], needle))
            return TRUE;
    return FALSE;
}

/* ---- 1. the .source.txt statements ---- */

static void
test_kvm_guest(void)
{
    g_autofree char *p = case_path("kvm-guest-1thread-hist60-overflows-others.txt");
    g_autoptr(GPtrArray) runs = parse_ok(p);
    RvCyclictestRun *r1, *r2;
    RvCyclictestThread *t;
    gint64 us;
    gboolean beyond;
    static const guint64 first_cycles[] = { 4405, 8373, 14643, 18371, 24881 };

    g_assert_cmpuint(runs->len, ==, 2);         /* two runs in one file */
    r1 = RUN(runs, 0);
    r2 = RUN(runs, 1);
    g_assert_cmpint(r1->form, ==, RV_CYCLICTEST_FORM_HISTOGRAM);
    g_assert_cmpstr(r1->policy, ==, "fifo");
    g_assert_cmpstr(r1->cmdline, ==, "cyclictest -m -n -p95 -h60 -i200 -D 10m");
    g_assert_cmpuint(r1->threads->len, ==, 1);
    t = THR(r1, 0);
    g_assert_cmpint(t->tid, ==, 2404);
    g_assert_cmpint(t->priority, ==, 95);
    g_assert_cmpint(t->interval_us, ==, 200);
    g_assert_cmpint(t->cycles, ==, 2999375);    /* last status line */
    g_assert_cmpint(t->min_us, ==, 5);
    g_assert_cmpint(t->act_us, ==, 22);
    g_assert_cmpfloat(t->avg_us, ==, 16);
    g_assert_cmpint(t->max_us, ==, 1475);
    g_assert_nonnull(t->histogram);
    g_assert_cmpuint(t->histogram->n_buckets, ==, 60);   /* -h60: 0..59 */
    g_assert_cmpuint(rv_result_histogram_get(t->histogram, 17), ==, 1248460); /* 7 digits */
    g_assert_cmpuint(rv_result_histogram_get(t->histogram, 5), ==, 3);
    g_assert_cmpuint(rv_result_histogram_get(t->histogram, 59), ==, 2);
    g_assert_cmpint(t->histogram_total, ==, 2998821);
    g_assert_true(t->histogram_complete);
    g_assert_cmpuint(t->histogram->overflows, ==, 604);
    g_assert_cmpint(t->histogram->max_us, ==, 1475);
    g_assert_cmpuint(t->overflow_cycles->len, ==, 60);
    for (guint i = 0; i < G_N_ELEMENTS(first_cycles); i++)
        g_assert_cmpuint(g_array_index(t->overflow_cycles, guint64, i), ==, first_cycles[i]);
    g_assert_cmpuint(g_array_index(t->overflow_cycles, guint64, 59), ==, 260340);
    g_assert_cmpuint(t->overflow_others, ==, 544);
    g_assert_cmpuint(t->overflow_cycles->len + t->overflow_others, ==, 604);
    /* Total + overflows = 2999425 > C: the status line came before the end */
    g_assert_cmpint(t->histogram_total + (gint64) t->histogram->overflows, ==, 2999425);
    /* p100 lies beyond the 60-us range: the max is the honest answer */
    g_assert_cmpint(rv_result_histogram_percentile(t->histogram, 100, &us, &beyond, NULL), ==, 0);
    g_assert_true(beyond);
    g_assert_cmpint(us, ==, 1475);
    g_assert_cmpint(rv_result_cyclictest_run_max_us(r1), ==, 1475); /* FAIL 20 us */

    g_assert_cmpuint(r2->threads->len, ==, 1);
    t = THR(r2, 0);
    g_assert_cmpint(t->tid, ==, 2440);
    g_assert_cmpint(t->cycles, ==, 2999967);
    g_assert_cmpint(t->min_us, ==, 6);
    g_assert_cmpint(t->max_us, ==, 12);          /* PASS 20 us */
    g_assert_cmpint(t->histogram_total, ==, 3000000);
    g_assert_cmpuint(t->histogram->overflows, ==, 0);
    g_assert_cmpuint(t->overflow_cycles->len, ==, 0);
    g_assert_cmpuint(t->overflow_others, ==, 0);
    /* rows 14..59 elided with "...": what remains adds up to Total */
    g_assert_true(t->histogram_complete);
    g_assert_cmpuint(t->histogram->n_buckets, ==, 60);
    g_assert_cmpuint(rv_result_histogram_get(t->histogram, 8), ==, 2790777);
    g_assert_true(has_note(r2, "elided"));
    g_assert_cmpint(rv_result_cyclictest_run_max_us(r2), ==, 12);
}

static void
test_lava(void)
{
    g_autofree char *p = case_path("lava-cyclictest-2threads-prio48-linaro642.txt");
    g_autoptr(GPtrArray) runs = parse_ok(p);
    RvCyclictestRun *r = RUN(runs, 0);
    static const struct { int tid, interval; gint64 cycles, min, act, avg, max; } want[] = {
        { 437, 1000, 540000, 4, 5, 18, 217 },
        { 438, 1500, 360000, 4, 9, 17, 340 },
    };

    g_assert_cmpuint(runs->len, ==, 1);  /* wrapper lines are not a run */
    g_assert_cmpint(r->form, ==, RV_CYCLICTEST_FORM_STATUS);
    g_assert_cmpuint(r->threads->len, ==, 2);
    for (guint i = 0; i < 2; i++) {
        RvCyclictestThread *t = THR(r, i);
        g_assert_cmpint(t->index, ==, (int) i);
        g_assert_cmpint(t->tid, ==, want[i].tid);
        g_assert_cmpint(t->priority, ==, 48);   /* what ran: not 98 */
        g_assert_cmpint(t->interval_us, ==, want[i].interval);
        g_assert_cmpint(t->cycles, ==, want[i].cycles);
        g_assert_cmpint(t->min_us, ==, want[i].min);
        g_assert_cmpint(t->act_us, ==, want[i].act);
        g_assert_cmpfloat(t->avg_us, ==, want[i].avg);
        g_assert_cmpint(t->max_us, ==, want[i].max);
        g_assert_null(t->histogram);
    }
    g_assert_cmpint(rv_result_cyclictest_run_max_us(r), ==, 340);
}

static void
check_openshift(const char *name, const gint64 *max, const guint64 *ovf,
                const gint64 *total, const guint *n_out, const guint64 out[][2])
{
    g_autofree char *p = case_path(name);
    g_autoptr(GPtrArray) runs = parse_ok(p);
    RvCyclictestRun *r = RUN(runs, 0);
    g_autoptr(GError) err = NULL;
    RvHistogram *merged = NULL;
    guint64 sum_ovf = 0;

    g_assert_cmpuint(runs->len, ==, 1);
    g_assert_cmpint(r->form, ==, RV_CYCLICTEST_FORM_HISTOGRAM);
    g_assert_cmpuint(r->threads->len, ==, 16);
    g_assert_true(g_str_has_prefix(r->cmdline, "cyclictest -q -D 10m -p 1 -t 16"));
    for (guint i = 0; i < 16; i++) {
        RvCyclictestThread *t = THR(r, i);
        g_assert_cmpint(t->tid, ==, -1);         /* -q -h: no status lines */
        g_assert_cmpint(t->priority, ==, -1);
        g_assert_cmpint(t->min_us, ==, 2);
        g_assert_cmpfloat(t->avg_us, ==, 2);
        g_assert_cmpint(t->max_us, ==, max[i]);
        g_assert_cmpint(t->histogram->max_us, ==, max[i]);
        g_assert_cmpuint(t->histogram->overflows, ==, ovf[i]);
        g_assert_cmpint(t->histogram_total, ==, total[i]);
        g_assert_cmpuint(t->histogram->n_buckets, ==, 30);   /* -h 30 */
        /* "More histogram entries ...": rows 3..29 gone */
        g_assert_false(t->histogram_complete);
        g_assert_cmpuint(t->overflow_cycles->len, ==, n_out[i]);
        for (guint k = 0; k < n_out[i]; k++)
            g_assert_cmpuint(g_array_index(t->overflow_cycles, guint64, k), ==, out[i][k]);
        sum_ovf += t->histogram->overflows;
    }
    /* an incomplete histogram gives no percentiles */
    g_assert_cmpint(rv_result_cyclictest_run_histogram(r, &merged, &err), ==, -ENODATA);
    g_assert_null(merged);
    g_assert_true(has_note(r, "incomplete"));
    if (ovf[0])
        g_assert_cmpuint(sum_ovf, ==, 19);
    else
        g_assert_cmpuint(sum_ovf, ==, 0);
}

static void
test_openshift_bad(void)
{
    static const gint64 max[16] = { 493, 387, 271, 619, 541, 513, 9, 389, 252, 215, 539, 498, 363, 204, 68, 520 };
    static const guint64 ovf[16] = { 1, 1, 1, 2, 2, 1, 0, 1, 1, 1, 2, 1, 1, 1, 1, 2 };
    static const gint64 total[16] = { 599999, 599999, 599999, 599997, 599997, 599998, 599998,
        599997, 599997, 599996, 599995, 599996, 599995, 599995, 599995, 599993 };
    static const guint n_out[16] = { 1, 1, 1, 2, 2, 1, 0, 1, 1, 1, 2, 1, 1, 1, 1, 2 };
    static const guint64 out[16][2] = {
        { 155922 }, { 110064 }, { 110064 }, { 110063, 155921 }, { 110063, 155921 },
        { 155920 }, { 0 }, { 110062 }, { 110062 }, { 155919 }, { 110061, 155919 },
        { 155918 }, { 155918 }, { 110060 }, { 110060 }, { 110059, 155917 } };
    g_autofree char *p = case_path("openshift-cnf-16threads-hist-bad-overflows.txt");
    g_autoptr(GPtrArray) runs = parse_ok(p);

    check_openshift("openshift-cnf-16threads-hist-bad-overflows.txt", max, ovf, total, n_out, out);
    /* the trap: max from '# Max Latencies', not from rows (<= 29) */
    g_assert_cmpint(rv_result_cyclictest_run_max_us(RUN(runs, 0)), ==, 619);
    /* Total + Overflows = 600000 for thread 0 */
    g_assert_cmpint(THR(RUN(runs, 0), 0)->histogram_total +
                    (gint64) THR(RUN(runs, 0), 0)->histogram->overflows, ==, 600000);
}

static void
test_openshift_good(void)
{
    static const gint64 max[16] = { 5, 5, 4, 5, 4, 4, 5, 5, 6, 5, 4, 5, 4, 4, 5, 4 };
    static const guint64 ovf[16] = { 0 };
    static const gint64 total[16] = { 600000, 600000, 600000, 599999, 599999, 599999, 599998,
        599998, 599998, 599997, 599997, 599996, 599996, 599995, 599995, 599995 };
    static const guint n_out[16] = { 0 };
    static const guint64 out[16][2] = { { 0 } };
    g_autofree char *p = case_path("openshift-cnf-16threads-hist-good.txt");
    g_autoptr(GPtrArray) runs = parse_ok(p);

    check_openshift("openshift-cnf-16threads-hist-good.txt", max, ovf, total, n_out, out);
    g_assert_cmpint(rv_result_cyclictest_run_max_us(RUN(runs, 0)), ==, 6);
    g_assert_cmpuint(rv_result_histogram_get(THR(RUN(runs, 0), 8)->histogram, 2), ==, 582350);
}

static void
test_orangepi(void)
{
    g_autofree char *p = case_path("orangepi-smp-4threads-rt-vs-default.txt");
    g_autoptr(GPtrArray) runs = parse_ok(p);
    static const gint64 max[2][4] = { { 271, 183, 275, 300 }, { 2807, 2588, 2886, 10533 } };
    static const gint64 cycles0[4] = { 173333, 173298, 173261, 173223 };

    g_assert_cmpuint(runs->len, ==, 2);  /* two blocks kept apart */
    for (guint b = 0; b < 2; b++) {
        RvCyclictestRun *r = RUN(runs, b);
        g_assert_cmpuint(r->threads->len, ==, 4);
        for (guint i = 0; i < 4; i++) {
            g_assert_cmpint(THR(r, i)->priority, ==, 80);
            g_assert_cmpint(THR(r, i)->interval_us, ==, 200);
            g_assert_cmpint(THR(r, i)->max_us, ==, max[b][i]);
            if (b == 0)
                g_assert_cmpint(THR(r, i)->cycles, ==, cycles0[i]);
        }
    }
    g_assert_cmpint(rv_result_cyclictest_run_max_us(RUN(runs, 0)), ==, 300);
    g_assert_cmpint(rv_result_cyclictest_run_max_us(RUN(runs, 1)), ==, 10533);
    g_assert_cmpint(THR(RUN(runs, 1), 0)->tid, ==, 2969);
}

static void
test_stress_ng(void)
{
    g_autofree char *p = case_path("stress-ng-271-cyclictest-v2.40-one-thread-hist-missing.txt");
    g_autoptr(GPtrArray) runs = parse_ok(p);
    RvCyclictestRun *r = RUN(runs, 0);
    RvCyclictestThread *t;

    g_assert_cmpuint(runs->len, ==, 1);
    g_assert_cmpstr(r->version, ==, "2.40");
    g_assert_cmpuint(r->threads->len, ==, 1);
    t = THR(r, 0);
    g_assert_cmpint(t->tid, ==, 2604);
    g_assert_cmpint(t->priority, ==, 95);
    g_assert_cmpint(t->interval_us, ==, 1000);
    g_assert_cmpint(t->cycles, ==, 349868);
    g_assert_cmpint(t->min_us, ==, 4);
    g_assert_cmpint(t->act_us, ==, 6);
    g_assert_cmpfloat(t->avg_us, ==, 5);
    g_assert_cmpint(t->max_us, ==, 35);
    g_assert_null(t->histogram);
    g_assert_true(has_note(r, "histogram requested (-h 60) but absent"));
}

static void
test_json_truncated(void)
{
    g_autofree char *p = case_path("json-rt-tests-2.2-truncated-linaro311.json");
    g_autoptr(GError) err = NULL;
    GPtrArray *runs = NULL;

    g_assert_cmpint(rv_result_cyclictest_parse_file(p, &runs, &err), ==, -EINVAL);
    g_assert_null(runs);   /* no partial numbers */
    g_assert_error(err, RV_ERROR, RV_ERROR_INVALID);
    /* names the file and where it broke: the cmdline string of line 3 is
     * still open at the end of the file (line 4, column 1) */
    g_assert_nonnull(strstr(err->message, "json-rt-tests-2.2-truncated-linaro311.json:4:1:"));
    g_assert_nonnull(strstr(err->message, "unterminated string"));
    g_assert_nonnull(strstr(err->message, "truncated or invalid cyclictest JSON"));
}

/* cyclictest --json text comes from inside a guest: 100000 nested arrays
 * overflowed json-glib's recursive parser (SIGSEGV); refused by depth */
static void
test_json_deep(void)
{
    GString *text = g_string_new("{\"thread\": ");
    g_autoptr(GError) err = NULL;
    GPtrArray *runs = NULL;

    for (int i = 0; i < 100000; i++)
        g_string_append_c(text, '[');
    for (int i = 0; i < 100000; i++)
        g_string_append_c(text, ']');
    g_string_append(text, "}\n");
    g_assert_cmpint(rv_result_cyclictest_parse("guest-rt0.json", text->str, text->len,
                                               &runs, &err), ==, -EINVAL);
    g_string_free(text, TRUE);
    g_assert_null(runs);
    g_assert_error(err, RV_ERROR, RV_ERROR_INVALID);
    g_assert_nonnull(strstr(err->message, "guest-rt0.json"));
    g_assert_nonnull(strstr(err->message, "nested deeper than 64"));
}

/* ---- real cyclictest 2.40 output captured on this machine ---- */

static void
test_json_real(void)
{
    g_autofree char *p = data_path("rt-tests-2.40-json-2threads-h50.json");
    g_autoptr(GPtrArray) runs = parse_ok(p);
    RvCyclictestRun *r = RUN(runs, 0);

    g_assert_cmpint(r->form, ==, RV_CYCLICTEST_FORM_JSON);
    g_assert_cmpstr(r->version, ==, "2.40");
    g_assert_nonnull(r->cmdline);
    g_assert_cmpuint(r->threads->len, ==, 2);
    for (guint i = 0; i < 2; i++) {
        RvCyclictestThread *t = THR(r, i);
        g_assert_cmpint(t->cpu, ==, (int) i);    /* -a 0-1 */
        g_assert_nonnull(t->histogram);
        g_assert_cmpuint(t->histogram->n_buckets, ==, 50);
        /* every cycle is in a bucket or an overflow */
        g_assert_cmpuint(rv_result_histogram_total(t->histogram), ==, (guint64) t->cycles);
    }
}


/* ---- 2. golden dumps of every input ---- */

static char *
dump_runs(GPtrArray *runs)
{
    GString *s = g_string_new(NULL);
    static const char *forms[] = { "status", "histogram", "json" };

    for (guint i = 0; i < runs->len; i++) {
        RvCyclictestRun *r = runs->pdata[i];
        g_string_append_printf(s, "run %u: form=%s line=%d version=%s policy=%s\n",
                               i + 1, forms[r->form], r->first_line,
                               r->version ? r->version : "-", r->policy ? r->policy : "-");
        g_string_append_printf(s, "  cmdline: %s\n", r->cmdline ? r->cmdline : "-");
        for (guint j = 0; j < r->threads->len; j++) {
            RvCyclictestThread *t = r->threads->pdata[j];
            g_string_append_printf(s, "  T%d tid=%d P=%d I=%d C=%" G_GINT64_FORMAT
                                   " min=%" G_GINT64_FORMAT " act=%" G_GINT64_FORMAT
                                   " avg=%.2f max=%" G_GINT64_FORMAT " cpu=%d node=%d"
                                   " smi=%" G_GINT64_FORMAT "\n",
                                   t->index, t->tid, t->priority, t->interval_us, t->cycles,
                                   t->min_us, t->act_us, t->avg_us, t->max_us, t->cpu,
                                   t->node, t->smi_count);
            if (t->histogram) {
                RvHistogram *h = t->histogram;
                g_string_append_printf(s, "    hist buckets=%u overflows=%" G_GUINT64_FORMAT
                                       " max=%" G_GINT64_FORMAT " total=%" G_GINT64_FORMAT
                                       " complete=%d\n    counts:", h->n_buckets, h->overflows,
                                       h->max_us, t->histogram_total, t->histogram_complete);
                for (guint b = 0; b < rv_result_histogram_n_bins(h); b++)
                    g_string_append_printf(s, " %u:%" G_GUINT64_FORMAT,
                                           rv_result_histogram_bin(h, b)->us,
                                           rv_result_histogram_bin(h, b)->count);
                g_string_append_printf(s, "\n    overflow cycles (%u):", t->overflow_cycles->len);
                for (guint k = 0; k < t->overflow_cycles->len; k++)
                    g_string_append_printf(s, " %" G_GUINT64_FORMAT,
                                           g_array_index(t->overflow_cycles, guint64, k));
                g_string_append_printf(s, " others=%" G_GUINT64_FORMAT "\n", t->overflow_others);
            }
        }
        for (guint k = 0; k < r->notes->len; k++)
            g_string_append_printf(s, "  note: %s\n", (char *) r->notes->pdata[k]);
    }
    return g_string_free(s, FALSE);
}

static void
test_golden(gconstpointer data)
{
    const char *input = data;
    g_autofree char *base = g_path_get_basename(input);
    g_autofree char *expname = g_strconcat(base, ".expected", NULL);
    g_autofree char *exp = data_path(expname);
    g_autoptr(GError) err = NULL;
    g_autofree char *got = NULL;
    GPtrArray *runs = NULL;
    int r = rv_result_cyclictest_parse_file(input, &runs, &err);

    if (r < 0) {
        /* the error text without the directory, which differs per checkout */
        g_autofree char *dir = g_path_get_dirname(input);
        g_autofree char *prefix = g_strconcat(dir, "/", NULL);
        g_autoptr(GString) m = g_string_new(err->message);
        g_string_replace(m, prefix, "", 0);
        got = g_strdup_printf("error: %s\n", m->str);
    } else {
        got = dump_runs(runs);
        g_ptr_array_unref(runs);
    }
    rv_test_compare_expected(exp, got);
}

static void
add_golden(const char *dir, gboolean only_inputs)
{
    g_autoptr(GDir) d = g_dir_open(dir, 0, NULL);
    g_autoptr(GPtrArray) names = g_ptr_array_new_with_free_func(g_free);
    const char *n;

    g_assert_nonnull(d);
    while ((n = g_dir_read_name(d))) {
        if (g_str_has_suffix(n, ".source.txt") || g_str_has_suffix(n, ".expected"))
            continue;
        if (only_inputs && !g_str_has_suffix(n, ".txt") && !g_str_has_suffix(n, ".json"))
            continue;
        g_ptr_array_add(names, g_strdup(n));
    }
    g_ptr_array_sort(names, rv_test_cmp_names);
    for (guint i = 0; i < names->len; i++) {
        g_autofree char *tp = g_strdup_printf("/cyclictest/golden/%s", (char *) names->pdata[i]);
        g_test_add_data_func_full(tp, g_build_filename(dir, names->pdata[i], NULL),
                                  test_golden, g_free);
    }
    g_assert_cmpuint(names->len, >, 0);
}

int
main(int argc, char **argv)
{
    g_autofree char *shared = NULL;
    g_autofree char *local = NULL;

    g_test_init(&argc, &argv, NULL);
    g_test_add_func("/cyclictest/case/kvm-guest", test_kvm_guest);
    g_test_add_func("/cyclictest/case/lava", test_lava);
    g_test_add_func("/cyclictest/case/openshift-bad", test_openshift_bad);
    g_test_add_func("/cyclictest/case/openshift-good", test_openshift_good);
    g_test_add_func("/cyclictest/case/orangepi", test_orangepi);
    g_test_add_func("/cyclictest/case/stress-ng", test_stress_ng);
    g_test_add_func("/cyclictest/case/json-truncated", test_json_truncated);
    g_test_add_func("/cyclictest/json-deep", test_json_deep);
    g_test_add_func("/cyclictest/real/json", test_json_real);

    shared = g_build_filename(rv_test_cases_dir(), "cyclictest", NULL);
    local = data_path("");
    add_golden(shared, FALSE);
    add_golden(local, TRUE);
    return g_test_run();
}
