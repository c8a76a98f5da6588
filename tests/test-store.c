/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * tests/test-store.c: the run store written the way `rtvirt run` writes it
 * (real cyclictest outputs from ../shared/cases and tests/data/cyclictest
 * parsed and recorded), read back field by field; atomic rewrite; bad
 * stores rejected with file and key named.
 */
#include <errno.h>
#include <math.h>
#include <string.h>
#include <sys/stat.h>

#include <glib/gstdio.h>

#include "results/cyclictest.h"
#include "results/store.h"
#include "util/error.h"
#include "util/json.h"
#include "tests/testutil.h"

static char *
cases_file(const char *name)
{
    return g_build_filename(rv_test_cases_dir(), "cyclictest", name, NULL);
}

static char *
data_file(const char *name)
{
    return rv_test_data_path("cyclictest", name);
}

static RvCyclictestRun *
parse_first(const char *path, GPtrArray **keep)
{
    g_autoptr(GError) err = NULL;

    if (rv_result_cyclictest_parse_file(path, keep, &err) < 0)
        g_error("%s", err->message);
    return (*keep)->pdata[0];
}

static void
test_roundtrip(void)
{
    g_autofree char *tmp = g_dir_make_tmp("rv-store-XXXXXX", NULL);
    g_autoptr(GDateTime) when = g_date_time_new_utc(2026, 11, 30, 14, 30, 5);
    g_autoptr(RvStore) st = NULL, back = NULL, st2 = NULL;
    g_autoptr(GError) err = NULL;
    g_autoptr(GPtrArray) runs_a = NULL, runs_b = NULL;
    g_autofree char *ct_a = data_file("rt-tests-2.40-quiet-hist-2threads-h50.txt");
    g_autofree char *ct_b = cases_file("kvm-guest-1thread-hist60-overflows-others.txt");
    g_autofree char *profile = g_build_filename(tmp, "demo.ini", NULL);
    g_autofree char *expect_dir = g_build_filename(tmp, "20261130-143005-demo", NULL);
    g_autofree char *raw = NULL, *rawdata = NULL, *copy = NULL;
    g_autoptr(JsonParser) hp = json_parser_new();
    RvCyclictestRun *ra = parse_first(ct_a, &runs_a);
    RvCyclictestRun *rb = parse_first(ct_b, &runs_b);
    RvStoreRecord *rec;
    const RvStoreRecord *got;
    const RvHistogram *h;
    GPtrArray *v;
    gsize len;

    g_assert_true(g_file_set_contents(profile, "[matrix]\nname = demo\n", -1, NULL));
    g_assert_cmpint(rv_result_store_create(tmp, "demo", when, &st, &err), ==, 0);
    g_assert_cmpstr(rv_result_store_get_dir(st), ==, expect_dir);
    /* a second store in the same second gets a suffix, not the same dir */
    g_assert_cmpint(rv_result_store_create(tmp, "demo", when, &st2, &err), ==, 0);
    g_assert_cmpstr(rv_result_store_get_dir(st2), !=, expect_dir);
    g_assert_true(g_str_has_suffix(rv_result_store_get_dir(st2), "-demo-2"));

    g_assert_true(json_parser_load_from_data(hp, "{\"cpus\": \"0-1\", \"smt\": \"notsupported\"}", -1, NULL));
    rv_result_store_set_host(st, json_parser_get_root(hp));
    g_assert_cmpint(rv_result_store_add_profile(st, "matrix", profile, &err), ==, 0);
    rv_result_store_add_scenario(st, "baseline", "no pinning");
    rv_result_store_add_scenario(st, "pinned", "vCPUs pinned");
    rv_result_store_add_scenario(st, "nosmt", "SMT off");
    rv_result_store_set_scenario_status(st, "nosmt", "skipped",
                                        "SMT not available: smt/control is notsupported");
    rv_result_store_set_untrusted(st, "isolcpus missing from /proc/cmdline");
    rv_result_store_set_untrusted(st, "isolcpus missing from /proc/cmdline"); /* once */
    rv_result_store_add_verification(st, "pinned", 1, "vcpu0 affinity", "PASS", "1 == 1");

    /* repetition 1: real cyclictest output (2 threads, histograms) */
    rec = rv_result_store_record_new("baseline", 1, "cyclictest", "guest:rt0");
    rv_result_store_record_set_virt(rec, "tcg");
    rv_result_store_record_set_times(rec, when, when);
    g_assert_cmpint(rv_result_cyclictest_record_add(rec, ra, &err), ==, 0);
    g_assert_true(g_file_get_contents(ct_a, &rawdata, &len, NULL));
    g_assert_cmpint(rv_result_store_write_raw(st, "baseline-r01-rt0-cyclictest.txt",
                                              rawdata, len, &raw, &err), ==, 0);
    g_assert_cmpstr(raw, ==, "raw/baseline-r01-rt0-cyclictest.txt");
    rv_result_store_record_add_raw(rec, raw);
    rv_result_store_add_record(st, rec);
    g_assert_cmpint(rv_result_store_commit(st, &err), ==, 0);

    /* repetition 2, then a failed one, then rep 2 replaced */
    rec = rv_result_store_record_new("baseline", 2, "cyclictest", "guest:rt0");
    rv_result_store_record_set_virt(rec, "tcg");
    g_assert_cmpint(rv_result_cyclictest_record_add(rec, rb, &err), ==, 0);
    rv_result_store_add_record(st, rec);
    rec = rv_result_store_record_new("pinned", 1, "cyclictest", "guest:rt0");
    rv_result_store_record_set_status(rec, "failed", "guest sent garbage: line 3 malformed");
    rv_result_store_add_record(st, rec);
    g_assert_cmpint(rv_result_store_commit(st, &err), ==, 0);
    rec = rv_result_store_record_new("baseline", 2, "cyclictest", "guest:rt0");
    rv_result_store_record_set_virt(rec, "kvm");
    g_assert_cmpint(rv_result_cyclictest_record_add(rec, rb, &err), ==, 0);
    rv_result_store_add_record(st, rec);
    rv_result_store_set_complete(st, TRUE);
    g_assert_cmpint(rv_result_store_commit(st, &err), ==, 0);

    /* no temp file left behind */
    {
        g_autofree char *t = g_build_filename(expect_dir, "run.json.tmp", NULL);
        g_assert_false(g_file_test(t, G_FILE_TEST_EXISTS));
    }

    g_assert_cmpint(rv_result_store_open(expect_dir, &back, &err), ==, 0);
    g_assert_cmpstr(rv_result_store_get_matrix(back), ==, "demo");
    g_assert_false(rv_result_store_get_trusted(back));
    g_assert_true(rv_result_store_get_complete(back));
    v = rv_result_store_get_untrusted_reasons(back);
    /* repetition 1 ran under TCG: the reader adds "virt=tcg" */
    g_assert_cmpuint(v->len, ==, 2);
    g_assert_cmpstr(v->pdata[0], ==, "isolcpus missing from /proc/cmdline");
    g_assert_cmpstr(v->pdata[1], ==, "virt=tcg");
    g_assert_cmpstr(json_object_get_string_member(json_node_get_object(rv_result_store_get_host(back)), "smt"),
                    ==, "notsupported");
    v = rv_result_store_get_scenarios(back);
    g_assert_cmpuint(v->len, ==, 3);
    g_assert_cmpstr(((RvStoreScenario *) v->pdata[2])->status, ==, "skipped");
    g_assert_cmpstr(((RvStoreScenario *) v->pdata[2])->reason, ==,
                    "SMT not available: smt/control is notsupported");
    g_assert_cmpstr(((RvStoreScenario *) v->pdata[0])->description, ==, "no pinning");
    v = rv_result_store_get_verifications(back);
    g_assert_cmpuint(v->len, ==, 1);
    g_assert_cmpstr(((RvStoreVerification *) v->pdata[0])->status, ==, "PASS");

    v = rv_result_store_get_records(back);
    g_assert_cmpuint(v->len, ==, 3);       /* rep 2 replaced, not added */
    got = v->pdata[0];
    g_assert_cmpstr(got->scenario, ==, "baseline");
    g_assert_cmpint(got->repetition, ==, 1);
    g_assert_cmpstr(got->virt, ==, "tcg");
    g_assert_cmpstr(got->started, ==, "2026-11-30T14:30:05Z");
    g_assert_cmpstr(got->raw->pdata[0], ==, "raw/baseline-r01-rt0-cyclictest.txt");
    /* values of the fixture's .source.txt */
    g_assert_cmpfloat(rv_result_store_record_get_metric(got, "max_us")->value, ==, 906);
    g_assert_cmpfloat(rv_result_store_record_get_metric(got, "min_us")->value, ==, 23);
    g_assert_cmpstr(rv_result_store_record_get_metric(got, "max_us")->unit, ==, "us");
    h = rv_result_store_record_get_histogram(got, "latency");
    g_assert_nonnull(h);
    g_assert_cmpuint(h->n_buckets, ==, 50);
    g_assert_cmpuint(h->overflows, ==, 1249 + 1693);
    g_assert_cmpuint(rv_result_histogram_total(h), ==, 751 + 307 + 1249 + 1693);
    g_assert_cmpint(h->max_us, ==, 906);
    for (guint t = 0; t < 2; t++) {
        g_autofree char *n = g_strdup_printf("latency.t%u", t);
        const RvHistogram *th = rv_result_store_record_get_histogram(got, n);
        const RvCyclictestThread *ct = ra->threads->pdata[t];
        g_assert_nonnull(th);
        g_assert_cmpmem(th->buckets, th->n_buckets * 8, ct->histogram->buckets,
                        ct->histogram->n_buckets * 8);
    }
    g_assert_nonnull(got->details);
    g_assert_cmpuint(json_array_get_length(json_object_get_array_member(
                         json_node_get_object(got->details), "threads")), ==, 2);
    got = v->pdata[1];
    g_assert_cmpstr(got->virt, ==, "kvm");
    g_assert_cmpfloat(rv_result_store_record_get_metric(got, "max_us")->value, ==, 1475);
    g_assert_cmpfloat(rv_result_store_record_get_metric(got, "cycles")->value, ==, 2999375);
    g_assert_cmpuint(rv_result_store_record_get_histogram(got, "latency")->overflows, ==, 604);
    got = v->pdata[2];
    g_assert_cmpstr(got->status, ==, "failed");
    g_assert_cmpstr(got->reason, ==, "guest sent garbage: line 3 malformed");

    /* the profile copy is byte-identical and its hash is recorded */
    copy = g_build_filename(expect_dir, "profiles", "demo.ini", NULL);
    {
        g_autofree char *c = NULL, *json = NULL, *runjson = g_build_filename(expect_dir, "run.json", NULL);
        g_autofree char *sum = g_compute_checksum_for_string(G_CHECKSUM_SHA256,
                                                             "[matrix]\nname = demo\n", -1);
        g_assert_true(g_file_get_contents(copy, &c, NULL, NULL));
        g_assert_cmpstr(c, ==, "[matrix]\nname = demo\n");
        g_assert_true(g_file_get_contents(runjson, &json, NULL, NULL));
        g_assert_nonnull(strstr(json, sum));
        g_assert_nonnull(strstr(json, "\"schema_version\" : 1"));
    }
    rv_test_rm_rf(tmp);
}

/* A crash during a rewrite leaves run.json.tmp: the last committed
 * run.json is what a reader sees. */
static void
test_crash_leftover(void)
{
    g_autofree char *tmp = g_dir_make_tmp("rv-store-XXXXXX", NULL);
    g_autoptr(RvStore) st = NULL, back = NULL;
    g_autoptr(GError) err = NULL;
    g_autofree char *leftover = NULL;
    RvStoreRecord *rec;

    g_assert_cmpint(rv_result_store_create(tmp, "m", NULL, &st, &err), ==, 0);
    rec = rv_result_store_record_new("a", 1, "cyclictest", "host");
    rv_result_store_record_add_metric(rec, "max_us", 12, "us");
    rv_result_store_add_record(st, rec);
    g_assert_cmpint(rv_result_store_commit(st, &err), ==, 0);
    leftover = g_build_filename(rv_result_store_get_dir(st), "run.json.tmp", NULL);
    g_assert_true(g_file_set_contents(leftover, "{\"schema_version\": 1, \"rec", -1, NULL));
    g_assert_cmpint(rv_result_store_open(rv_result_store_get_dir(st), &back, &err), ==, 0);
    g_assert_cmpuint(rv_result_store_get_records(back)->len, ==, 1);
    /* the next commit replaces the leftover */
    g_assert_cmpint(rv_result_store_commit(st, &err), ==, 0);
    g_assert_false(g_file_test(leftover, G_FILE_TEST_EXISTS));
    rv_test_rm_rf(tmp);
}

static void
expect_bad(const char *json, const char *needle)
{
    g_autofree char *tmp = g_dir_make_tmp("rv-store-XXXXXX", NULL);
    g_autofree char *path = g_build_filename(tmp, "run.json", NULL);
    g_autoptr(GError) err = NULL;
    RvStore *st = NULL;

    g_assert_true(g_file_set_contents(path, json, -1, NULL));
    g_assert_cmpint(rv_result_store_open(tmp, &st, &err), ==, -EINVAL);
    g_assert_null(st);
    g_assert_error(err, RV_ERROR, RV_ERROR_INVALID);
    if (!strstr(err->message, needle) || !strstr(err->message, "run.json"))
        g_error("message '%s' lacks '%s' or the file name", err->message, needle);
    rv_test_rm_rf(tmp);
}

static void
test_bad_stores(void)
{
    g_autoptr(GError) err = NULL;
    RvStore *st = NULL;

    expect_bad("{\"schema_version\": 99, \"records\": []}", "schema_version 99 is not supported");
    expect_bad("{\"records\": []}", "no schema_version");
    expect_bad("{\"schema_version\": 1}", "no records array");
    expect_bad("{\"schema_version\": 1, \"records\": [{\"scenario\": \"a\"}]}", "records[0]");
    expect_bad("{\"schema_version\": 1, \"records\": [{\"scenario\": \"a\", \"repetition\": 1,"
               " \"workload\": \"w\", \"status\": \"ok\", \"histograms\": {\"latency\":"
               " {\"buckets\": 2, \"overflows\": 0, \"counts\": [[5, 1]]}}}]}",
               "records[0].histograms.latency");
    expect_bad("{\"schema_version\": 1, \"rec", "invalid JSON");
    g_assert_cmpint(rv_result_store_open("/nonexistent/rv-store", &st, &err), ==, -ENOENT);
    g_assert_error(err, RV_ERROR, RV_ERROR_FAILED);
    g_clear_error(&err);
    g_assert_cmpint(rv_result_store_create("/tmp", "../evil", NULL, &st, &err), ==, -EINVAL);
}

/* rv_json_check_depth: brackets inside strings (and escaped quotes) do
 * not count; 64 levels pass, 65 do not */
static void
test_json_depth(void)
{
    static const struct { const char *text; int ok; } cases[] = {
        { "{\"a\": [1, 2, {\"b\": null}]}", 1 },
        { "\"[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[\"", 1 },
        { "[\"\\\"[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[\"]", 1 },
        { "]]]][", 1 },   /* malformed, but shallow: the JSON parser says why */
    };
    g_autoptr(GString) deep = g_string_new(NULL);

    for (guint i = 0; i < G_N_ELEMENTS(cases); i++) {
        g_autoptr(GError) err = NULL;
        g_assert_cmpint(rv_json_check_depth("t.json", cases[i].text, strlen(cases[i].text),
                                            RV_JSON_MAX_DEPTH, &err), ==, 0);
    }
    for (int i = 0; i < 64; i++)
        g_string_append(deep, i % 2 ? "{\"k\":" : "[");
    g_assert_cmpint(rv_json_check_depth("t.json", deep->str, deep->len, 64, NULL), ==, 0);
    g_string_append_c(deep, '[');
    {
        g_autoptr(GError) err = NULL;
        g_assert_cmpint(rv_json_check_depth("t.json", deep->str, deep->len, 64, &err), ==, -E2BIG);
        g_assert_error(err, RV_ERROR, RV_ERROR_INVALID);
        g_assert_cmpstr(err->message, ==, "t.json: JSON nested deeper than 64 levels "
                        "(byte 192): refused before parsing");
    }
}

int
main(int argc, char **argv)
{
    g_test_init(&argc, &argv, NULL);
    g_test_add_func("/store/roundtrip", test_roundtrip);
    g_test_add_func("/store/crash-leftover", test_crash_leftover);
    g_test_add_func("/store/bad", test_bad_stores);
    g_test_add_func("/store/json-depth", test_json_depth);
    return g_test_run();
}
