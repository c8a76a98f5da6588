/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * tests/test-store.c: the run store written the way `rtvirt run` writes it
 * (real cyclictest outputs from tests/data/cases and tests/data/cyclictest
 * parsed and recorded), read back field by field; atomic rewrite; bad
 * stores rejected with file and key named.
 */
#include <errno.h>
#include <math.h>
#include <string.h>
#include <sys/stat.h>

#include <glib/gstdio.h>

#include "host/facts/context.h"
#include "host/fsroot.h"
#include "results/context.h"
#include "results/cyclictest.h"
#include "results/histogram.h"
#include "results/untrusted.h"
#include "results/pert.h"
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
    g_assert_cmpuint(rv_result_untrusted_count(v, NULL), ==, 2);
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
        g_assert_cmpuint(th->n_buckets, ==, ct->histogram->n_buckets);
        g_assert_cmpuint(rv_result_histogram_n_bins(th), ==,
                         rv_result_histogram_n_bins(ct->histogram));
        for (guint k = 0; k < rv_result_histogram_n_bins(th); k++) {
            g_assert_cmpuint(rv_result_histogram_bin(th, k)->us, ==,
                             rv_result_histogram_bin(ct->histogram, k)->us);
            g_assert_cmpuint(rv_result_histogram_bin(th, k)->count, ==,
                             rv_result_histogram_bin(ct->histogram, k)->count);
        }
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

/* ---- hostile guest values ---- */

/* commit, then the reader compare uses: run.json is valid UTF-8 JSON
 * (parsed by json-glib on its own too) and rv_result_store_open() takes it */
static RvStore *
commit_and_reopen(RvStore *st)
{
    g_autoptr(GError) err = NULL;
    g_autofree char *path = g_build_filename(rv_result_store_get_dir(st), "run.json", NULL);
    g_autofree char *text = NULL;
    g_autoptr(JsonParser) p = json_parser_new();
    RvStore *back = NULL;
    gsize len;

    g_assert_cmpint(rv_result_store_commit(st, &err), ==, 0);
    g_assert_true(g_file_get_contents(path, &text, &len, NULL));
    g_assert_true(g_utf8_validate(text, len, NULL));
    if (!json_parser_load_from_data(p, text, len, &err))
        g_error("%s: %s", path, err->message);
    if (rv_result_store_open(rv_result_store_get_dir(st), &back, &err) < 0)
        g_error("%s", err->message);
    return back;
}

typedef struct {
    const char *file;      /* tests/data/cyclictest/ */
    const char *reason;
} Hostile;

static const Hostile hostile[] = {
    /* the reproducer of the issue */
    { "hostile-max-1e17.txt", "thread 0 reported Max 100000000000000000 us: out of range" },
    { "hostile-min-negative.txt", "thread 0 reported Min -7 us: a latency cannot be negative" },
    { "hostile-max-over-1e12.txt", "thread 1 reported Max 1000000000001 us: out of range" },
    { "hostile-cycles-sum.txt", "the threads' cycles add up to more than 1e+12" },
};

/* parse -> record add -> store -> compare's reader, as rtvirt run does it:
 * the adder refuses, the harness fails that repetition with the reason,
 * the store reads back with the repetitions that were fine */
static void
test_hostile(gconstpointer data)
{
    const Hostile *h = data;
    g_autofree char *tmp = g_dir_make_tmp("rv-store-XXXXXX", NULL);
    g_autofree char *path = data_file(h->file);
    g_autofree char *good = data_file("rt-tests-2.40-quiet-2threads.txt");
    g_autoptr(GPtrArray) runs = NULL, good_runs = NULL;
    g_autoptr(RvStore) st = NULL, back = NULL;
    g_autoptr(GError) err = NULL;
    g_autoptr(RvStoreRecord) rec = rv_result_store_record_new("a", 1, "cyclictest", "guest:rt0");
    RvCyclictestRun *run = parse_first(path, &runs);
    RvStoreRecord *ok;
    const RvStoreRecord *got;
    g_autofree char *why = NULL;

    g_assert_cmpint(rv_result_cyclictest_record_add(rec, run, &err), ==, -ERANGE);
    g_assert_error(err, RV_ERROR, RV_ERROR_INVALID);
    if (!strstr(err->message, h->reason))
        g_error("'%s' lacks '%s'", err->message, h->reason);
    /* nothing half-added */
    g_assert_cmpuint(rec->metrics->len, ==, 0);
    g_assert_cmpuint(rec->histograms->len, ==, 0);
    g_assert_null(rec->details);

    /* what harness/run-records.c does with the error */
    why = g_strdup_printf("cyclictest output rejected: %s", err->message);
    rv_result_store_record_set_status(rec, "failed", why);
    g_assert_cmpint(rv_result_store_create(tmp, "m", NULL, &st, &err), ==, 0);
    rv_result_store_add_record(st, g_steal_pointer(&rec));
    ok = rv_result_store_record_new("a", 2, "cyclictest", "guest:rt0");
    g_assert_cmpint(rv_result_cyclictest_record_add(ok, parse_first(good, &good_runs), &err), ==, 0);
    rv_result_store_add_record(st, ok);

    back = commit_and_reopen(st);
    g_assert_cmpuint(rv_result_store_get_records(back)->len, ==, 2);
    got = rv_result_store_get_records(back)->pdata[0];
    g_assert_cmpstr(got->status, ==, "failed");
    g_assert_cmpstr(got->reason, ==, why);
    g_assert_cmpuint(got->metrics->len, ==, 0);
    got = rv_result_store_get_records(back)->pdata[1];
    g_assert_cmpstr(got->status, ==, "ok");
    g_assert_cmpfloat(rv_result_store_record_get_metric(got, "max_us")->value, ==, 1262);
    rv_test_rm_rf(tmp);
}

/* the limit itself is a value: Max 1e12 us is stored and reads back exact */
static void
test_hostile_edge(void)
{
    g_autofree char *tmp = g_dir_make_tmp("rv-store-XXXXXX", NULL);
    g_autoptr(RvStore) st = NULL, back = NULL;
    g_autoptr(GError) err = NULL;
    RvStoreRecord *rec = rv_result_store_record_new("a", 1, "cyclictest", "host");
    const RvStoreRecord *got;

    g_assert_cmpint(rv_result_store_check_metric("max_us", 1e12, "us", NULL), ==, 0);
    g_assert_cmpint(rv_result_store_check_metric("max_us", 1e12 + 1, "us", &err), ==, -ERANGE);
    g_assert_cmpstr(err->message, ==, "1e+12 is outside +-1e+12");
    g_clear_error(&err);
    g_assert_cmpint(rv_result_store_check_metric("max_us", -1, NULL, &err), ==, -ERANGE);
    g_assert_cmpstr(err->message, ==, "-1: a latency cannot be negative");
    g_clear_error(&err);
    g_assert_cmpint(rv_result_store_check_metric("delta", -1, "%", NULL), ==, 0);
    g_assert_cmpint(rv_result_store_check_metric("max_us", NAN, "us", NULL), ==, 0);
    g_assert_cmpint(rv_result_store_check_metric("max_us", INFINITY, "us", NULL), ==, -ERANGE);

    g_assert_cmpint(rv_result_store_create(tmp, "m", NULL, &st, &err), ==, 0);
    rv_result_store_record_add_metric(rec, "max_us", 1e12, "us");
    rv_result_store_record_add_metric(rec, "cycles", 999999999999, NULL);
    rv_result_store_record_add_metric(rec, "avg_us", 3e-05, "us");
    rv_result_store_add_record(st, rec);
    back = commit_and_reopen(st);
    got = rv_result_store_get_records(back)->pdata[0];
    g_assert_cmpstr(got->status, ==, "ok");
    g_assert_cmpfloat(rv_result_store_record_get_metric(got, "max_us")->value, ==, 1e12);
    g_assert_cmpfloat(rv_result_store_record_get_metric(got, "cycles")->value, ==, 999999999999);
    g_assert_cmpfloat_with_epsilon(rv_result_store_record_get_metric(got, "avg_us")->value,
                                   3e-05, 1e-18);
    rv_test_rm_rf(tmp);
}

/* a writer that bypasses the record adders (rtvirt run's pert and
 * host-counters records): rv_result_store_add_record refuses the values,
 * keeps the record as failed with the reason; numbers in details are
 * written as valid JSON; the store reads back */
static void
test_hostile_backstop(void)
{
    g_autofree char *tmp = g_dir_make_tmp("rv-store-XXXXXX", NULL);
    g_autoptr(RvStore) st = NULL, back = NULL;
    g_autoptr(GError) err = NULL;
    g_autoptr(RvHistogram) hist = rv_result_histogram_new(4);
    g_autoptr(JsonBuilder) b = json_builder_new();
    g_autoptr(JsonNode) details = NULL;
    RvStoreRecord *rec = rv_result_store_record_new("a", 1, "pert", "host:cpu1");
    const RvStoreRecord *got;
    JsonObject *d;

    g_assert_cmpint(rv_result_store_create(tmp, "m", NULL, &st, &err), ==, 0);
    rv_result_store_record_add_metric(rec, "max_us", 1e17, "us");
    rv_result_store_add_record(st, rec);

    rec = rv_result_store_record_new("a", 2, "pert", "host:cpu1");
    rv_result_histogram_add(hist, 1, RV_STORE_COUNT_MAX);
    rv_result_histogram_add(hist, 2, 1);             /* the total breaks the rule */
    rv_result_store_record_add_histogram(rec, "perturbation", hist);
    rv_result_store_record_set_status(rec, "ok", "kept");
    rv_result_store_add_record(st, rec);

    rec = rv_result_store_record_new("a", 3, "pert", "host:cpu1");
    json_builder_begin_object(b);
    json_builder_set_member_name(b, "big");
    json_builder_add_double_value(b, 1e17);
    json_builder_set_member_name(b, "huge");
    json_builder_add_double_value(b, 1e300);
    json_builder_set_member_name(b, "tiny");
    json_builder_add_double_value(b, 3e-05);
    json_builder_set_member_name(b, "k\xff");
    json_builder_add_string_value(b, "caf\xe9");
    json_builder_end_object(b);
    details = json_builder_get_root(b);
    rv_result_store_record_set_details(rec, details);
    rv_result_store_record_add_metric(rec, "count", 3, "count");
    rv_result_store_record_set_status(rec, "ok", "reason \xc3");
    rv_result_store_add_record(st, rec);

    back = commit_and_reopen(st);
    got = rv_result_store_get_records(back)->pdata[0];
    g_assert_cmpstr(got->status, ==, "failed");
    g_assert_cmpstr(got->reason, ==, "refused by the store: metrics.max_us.value: "
                    "1e+17 is outside +-1e+12");
    g_assert_cmpuint(got->metrics->len, ==, 0);
    got = rv_result_store_get_records(back)->pdata[1];
    g_assert_cmpstr(got->status, ==, "failed");
    g_assert_cmpstr(got->reason, ==, "kept; refused by the store: histograms.perturbation: "
                    "total of the counts exceeds 9007199254740991 at bucket 2");
    g_assert_cmpuint(got->histograms->len, ==, 0);
    got = rv_result_store_get_records(back)->pdata[2];
    g_assert_cmpstr(got->status, ==, "ok");
    g_assert_cmpstr(got->reason, ==, "reason \\xC3");
    d = json_node_get_object(got->details);
    g_assert_cmpint(json_object_get_int_member(d, "big"), ==, G_GINT64_CONSTANT(100000000000000000));
    g_assert_true(json_object_get_null_member(d, "huge"));
    g_assert_cmpfloat_with_epsilon(json_object_get_double_member(d, "tiny"), 3e-05, 1e-18);
    g_assert_cmpstr(json_object_get_string_member(d, "k\\xFF"), ==, "caf\\xE9");
    rv_test_rm_rf(tmp);
}

/* bytes that are not UTF-8 in what the guest printed (cmdline, policy):
 * stored escaped, the store reads back */
static void
test_hostile_non_utf8(void)
{
    g_autofree char *tmp = g_dir_make_tmp("rv-store-XXXXXX", NULL);
    g_autofree char *path = data_file("hostile-non-utf8.txt");
    g_autoptr(GPtrArray) runs = NULL;
    g_autoptr(RvStore) st = NULL, back = NULL;
    g_autoptr(GError) err = NULL;
    RvStoreRecord *rec = rv_result_store_record_new("a", 1, "cyclictest", "guest:rt0");
    RvCyclictestRun *run = parse_first(path, &runs);
    const RvStoreRecord *got;
    JsonObject *d;
    g_autofree char *esc = rv_result_store_text_escape("ok \xe2\x82\xac \xe2\x82 x\xff");

    g_assert_cmpstr(esc, ==, "ok \xe2\x82\xac \\xE2\\x82 x\\xFF");   /* a valid euro sign kept */
    g_assert_false(g_utf8_validate(run->cmdline, -1, NULL));
    g_assert_cmpint(rv_result_cyclictest_record_add(rec, run, &err), ==, 0);
    g_assert_cmpint(rv_result_store_create(tmp, "m", NULL, &st, &err), ==, 0);
    rv_result_store_add_record(st, rec);
    back = commit_and_reopen(st);
    got = rv_result_store_get_records(back)->pdata[0];
    g_assert_cmpstr(got->status, ==, "ok");
    g_assert_cmpfloat(rv_result_store_record_get_metric(got, "max_us")->value, ==, 40);
    d = json_node_get_object(got->details);
    g_assert_cmpstr(json_object_get_string_member(d, "cmdline"), ==,
                    "/usr/bin/cyclictest -q -p 95 -t 1 --label=caf\\xE9\\xFF");
    g_assert_cmpstr(json_object_get_string_member(d, "policy"), ==, "fi\\xC3fo");
    rv_test_rm_rf(tmp);
}

/* a hostile store (written by hand, not by rtvirt): counts that would
 * wrap a guint64 when summed are refused by name */
static void
test_bad_counts(void)
{
    expect_bad("{\"schema_version\": 1, \"scenarios\": [{\"name\": \"a\"}], \"records\": [{\"scenario\": \"a\", \"repetition\": 1,"
               " \"workload\": \"w\", \"status\": \"ok\", \"metrics\": {}, \"histograms\": {\"latency\":"
               " {\"buckets\": 2, \"overflows\": 0, \"counts\": [[0, 9007199254740991], [0, 9007199254740991]]}}}]}",
               "records[0].histograms.latency: bucket 0 us count 18014398509481982 is outside");
    expect_bad("{\"schema_version\": 1, \"scenarios\": [{\"name\": \"a\"}], \"records\": [{\"scenario\": \"a\", \"repetition\": 1,"
               " \"workload\": \"w\", \"status\": \"ok\", \"metrics\": {}, \"histograms\": {\"latency\":"
               " {\"buckets\": 2, \"overflows\": 0, \"counts\": [[0, 1e300]]}}}]}",
               "records[0].histograms.latency: histogram counts[0] is not [us, count] of integers");
    expect_bad("{\"schema_version\": 1, \"scenarios\": [{\"name\": \"a\"}], \"records\": [{\"scenario\": \"a\", \"repetition\": 1,"
               " \"workload\": \"w\", \"status\": \"ok\", \"metrics\": {\"max_us\": {\"value\": 1e17}}}]}",
               "records[0].metrics.max_us.value: 1e+17 is outside +-1e+12 (a corrupt store)");
}

/* the probe's JSON (as `rtvirt pert --json` writes it, possibly from inside
 * a guest) into a record; hostile values refused, the record untouched */
static void
test_pert_record(void)
{
    static const char good[] =
        "{\"cpu\": 1, \"summary\": {\"count\": 3, \"min_us\": 1.5, \"max_us\": 1200.25,"
        " \"avg_us\": 402.5, \"stddev_us\": 1.0, \"sum_us\": 1207.5, \"duration_us\": 1000000.0,"
        " \"overhead_pct\": 0.12075, \"histogram_us\": [[1, 2]], \"overflows\": 1}}";
    static const struct { const char *json, *reason; } bad[] = {
        { "{\"summary\": {\"count\": 3, \"max_us\": 1e17}}",
          "p.json: summary.max_us: 1e+17 is out of range (-1e+12..1e+12)" },
        { "{\"summary\": {\"count\": 3, \"max_us\": -2}}",
          "p.json: summary.max_us: -2: a latency cannot be negative" },
        { "{\"summary\": {\"count\": 1.5}}", "p.json: summary.count: 1.5 is not an integer" },
        { "{\"summary\": {\"count\": \"3\"}}", "p.json: summary.count: expected an integer" },
        { "{\"summary\": {\"histogram_us\": [[1, 9007199254740991], [2, 9007199254740991]]}}",
          "p.json: summary.histogram_us: total of the counts exceeds 9007199254740991" },
        { "{\"summary\": {\"histogram_us\": [[1, -1]]}}",
          "p.json: summary.histogram_us[0][1]: -1 is out of range (0..9007199254740991)" },
        { "{\"summary\": 1}", "p.json: no \"summary\" object" },
        { "{\"summary\": {", "p.json:1:" },
    };
    g_autoptr(RvStoreRecord) rec = rv_result_store_record_new("a", 1, "pert", "host:cpu1");
    g_autoptr(GError) err = NULL;
    const RvHistogram *h;

    g_assert_cmpint(rv_result_pert_record_add(rec, "p.json", good, strlen(good), &err), ==, 0);
    g_assert_cmpfloat(rv_result_store_record_get_metric(rec, "count")->value, ==, 3);
    g_assert_cmpfloat(rv_result_store_record_get_metric(rec, "max_us")->value, ==, 1200.25);
    g_assert_cmpfloat(rv_result_store_record_get_metric(rec, "stolen_us")->value, ==, 1207.5);
    g_assert_cmpstr(rv_result_store_record_get_metric(rec, "overhead_pct")->unit, ==, "%");
    h = rv_result_store_record_get_histogram(rec, "perturbation");
    g_assert_nonnull(h);
    g_assert_cmpuint(rv_result_histogram_get(h, 1), ==, 2);
    g_assert_cmpuint(h->overflows, ==, 1);
    g_assert_cmpint(h->max_us, ==, 1200);
    for (guint i = 0; i < G_N_ELEMENTS(bad); i++) {
        g_autoptr(RvStoreRecord) r = rv_result_store_record_new("a", 1, "pert", "host:cpu1");
        g_autoptr(GError) e = NULL;

        g_assert_cmpint(rv_result_pert_record_add(r, "p.json", bad[i].json, strlen(bad[i].json),
                                                  &e), <, 0);
        g_assert_error(e, RV_ERROR, RV_ERROR_INVALID);
        if (!g_str_has_prefix(e->message, bad[i].reason))
            g_error("'%s' does not start with '%s'", e->message, bad[i].reason);
        g_assert_cmpuint(r->metrics->len, ==, 0);
        g_assert_cmpuint(r->histograms->len, ==, 0);
    }
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

/* ---- contract 1: throughput metrics (better, aggregate) and "load" ---- */

static void
test_throughput_roundtrip(void)
{
    g_autofree char *tmp = g_dir_make_tmp("rv-store-XXXXXX", NULL);
    g_autoptr(RvStore) st = NULL, back = NULL;
    g_autoptr(GError) err = NULL;
    g_autofree char *path = NULL, *json = NULL;
    const RvStoreRecord *got;
    const RvStoreMetric *m;
    RvStoreRecord *rec;
    GPtrArray *v;

    g_assert_cmpint(rv_result_store_create(tmp, "tp", NULL, &st, &err), ==, 0);
    rec = rv_result_store_record_new("baseline@l32", 1, "sysbench", "guest:sb0");
    rv_result_store_record_set_load(rec, "l32");
    rv_result_store_record_add_metric_full(rec, "events_per_s", 1234.5, "events/s",
                                           RV_STORE_BETTER_HIGHER, RV_STORE_AGGREGATE_HMEAN);
    rv_result_store_record_add_metric_full(rec, "p95_ms", 2.5, "ms", RV_STORE_BETTER_LOWER,
                                           RV_STORE_AGGREGATE_MAX);
    rv_result_store_record_add_metric_full(rec, RV_STORE_METRIC_CPU_PCT, 99.5, "%",
                                           RV_STORE_BETTER_LOWER, RV_STORE_AGGREGATE_MEAN);
    rv_result_store_record_add_metric_full(rec, "events", 61728, "count",
                                           RV_STORE_BETTER_HIGHER, RV_STORE_AGGREGATE_SUM);
    rv_result_store_add_record(st, rec);
    /* the same cell at another load level is another record */
    rec = rv_result_store_record_new("baseline@l32", 1, "sysbench", "guest:sb0");
    rv_result_store_record_add_metric_full(rec, "events_per_s", 99, "events/s",
                                           RV_STORE_BETTER_HIGHER, RV_STORE_AGGREGATE_HMEAN);
    rv_result_store_add_record(st, rec);
    /* the old adder: lower / mean */
    rec = rv_result_store_record_new("baseline@l32", 1, "cyclictest", "guest:rt0");
    rv_result_store_record_add_metric(rec, "max_us", 40, "us");
    rv_result_store_add_record(st, rec);
    back = commit_and_reopen(st);

    path = g_build_filename(rv_result_store_get_dir(st), "run.json", NULL);
    g_assert_true(g_file_get_contents(path, &json, NULL, NULL));
    g_assert_nonnull(strstr(json, "\"better\" : \"higher\""));
    g_assert_nonnull(strstr(json, "\"aggregate\" : \"hmean\""));
    g_assert_nonnull(strstr(json, "\"load\" : \"l32\""));
    g_assert_nonnull(strstr(json, "\"load\" : null"));

    v = rv_result_store_get_records(back);
    g_assert_cmpuint(v->len, ==, 3);
    got = v->pdata[0];
    g_assert_cmpstr(got->load, ==, "l32");
    m = rv_result_store_record_get_metric(got, "events_per_s");
    g_assert_cmpfloat(m->value, ==, 1234.5);
    g_assert_cmpstr(m->unit, ==, "events/s");
    g_assert_cmpint(m->better, ==, RV_STORE_BETTER_HIGHER);
    g_assert_cmpint(m->aggregate, ==, RV_STORE_AGGREGATE_HMEAN);
    m = rv_result_store_record_get_metric(got, "p95_ms");
    g_assert_cmpint(m->better, ==, RV_STORE_BETTER_LOWER);
    g_assert_cmpint(m->aggregate, ==, RV_STORE_AGGREGATE_MAX);
    m = rv_result_store_record_get_metric(got, "events");
    g_assert_cmpint(m->aggregate, ==, RV_STORE_AGGREGATE_SUM);
    g_assert_cmpfloat(rv_result_store_record_get_metric(got, "cpu_pct")->value, ==, 99.5);
    got = v->pdata[1];
    g_assert_null(got->load);
    g_assert_cmpfloat(rv_result_store_record_get_metric(got, "events_per_s")->value, ==, 99);
    got = v->pdata[2];
    m = rv_result_store_record_get_metric(got, "max_us");
    g_assert_cmpint(m->better, ==, RV_STORE_BETTER_LOWER);
    g_assert_cmpint(m->aggregate, ==, RV_STORE_AGGREGATE_MEAN);
    rv_test_rm_rf(tmp);
}

/* A store written before better/aggregate/load existed reads with the
 * defaults; a value that is not one of the names is a corrupt store. */
static void
test_throughput_old_and_bad(void)
{
    g_autofree char *tmp = g_dir_make_tmp("rv-store-XXXXXX", NULL);
    g_autofree char *path = g_build_filename(tmp, "run.json", NULL);
    g_autoptr(RvStore) st = NULL;
    g_autoptr(GError) err = NULL;
    const RvStoreMetric *m;
    RvStoreBetter b;
    RvStoreAggregate a;

#define REC(METRIC) "{\"schema_version\": 1, \"scenarios\": [{\"name\": \"a\"}], " \
    "\"records\": [{\"scenario\": \"a\", \"repetition\": 1, \"workload\": \"w\", " \
    "\"status\": \"ok\", \"metrics\": {\"x\": " METRIC "}}]}"
    g_assert_true(g_file_set_contents(path, REC("{\"value\": 3, \"unit\": \"us\"}"), -1, NULL));
    g_assert_cmpint(rv_result_store_open(tmp, &st, &err), ==, 0);
    m = rv_result_store_record_get_metric(rv_result_store_get_records(st)->pdata[0], "x");
    g_assert_cmpint(m->better, ==, RV_STORE_BETTER_LOWER);
    g_assert_cmpint(m->aggregate, ==, RV_STORE_AGGREGATE_MEAN);
    g_assert_null(((RvStoreRecord *) rv_result_store_get_records(st)->pdata[0])->load);
    rv_test_rm_rf(tmp);

    expect_bad(REC("{\"value\": 3, \"better\": \"up\"}"),
               "records[0].metrics.x.better: expected \"lower\" or \"higher\"");
    expect_bad(REC("{\"value\": 3, \"better\": 1}"), "records[0].metrics.x.better");
    expect_bad(REC("{\"value\": 3, \"aggregate\": \"median\"}"),
               "records[0].metrics.x.aggregate: expected");
    expect_bad(REC("{\"value\": -3, \"better\": \"higher\", \"aggregate\": \"hmean\"}"),
               "records[0].metrics.x.value: -3: a rate (aggregate hmean) cannot be negative");
    expect_bad("{\"schema_version\": 1, \"scenarios\": [{\"name\": \"a\"}], \"records\": "
               "[{\"scenario\": \"a\", \"repetition\": 1, \"workload\": \"w\", \"status\": "
               "\"ok\", \"metrics\": {\"cpu_pct\": {\"value\": 100.5}}}]}",
               "cpu_pct is outside 0..100");
    expect_bad("{\"schema_version\": 1, \"scenarios\": [{\"name\": \"a\"}], \"records\": "
               "[{\"scenario\": \"a\", \"repetition\": 1, \"workload\": \"w\", \"status\": "
               "\"ok\", \"load\": 7, \"metrics\": {}}]}", "records[0].load: not a string");
#undef REC
    g_assert_cmpint(rv_result_store_better_parse("higher", &b), ==, 0);
    g_assert_cmpint(b, ==, RV_STORE_BETTER_HIGHER);
    g_assert_cmpint(rv_result_store_better_parse(NULL, &b), ==, -EINVAL);
    g_assert_cmpint(rv_result_store_aggregate_parse("sum", &a), ==, 0);
    g_assert_cmpint(a, ==, RV_STORE_AGGREGATE_SUM);
    g_assert_cmpint(rv_result_store_aggregate_parse("Mean", &a), ==, -EINVAL);
    g_assert_cmpstr(rv_result_store_aggregate_name(RV_STORE_AGGREGATE_HMEAN), ==, "hmean");
    g_assert_cmpstr(rv_result_store_better_name(RV_STORE_BETTER_HIGHER), ==, "higher");
}

/* The writer refuses what the reader would: the record is kept failed
 * with the validator's reason, the store reads back. */
static void
test_throughput_writer_refuses(void)
{
    g_autofree char *tmp = g_dir_make_tmp("rv-store-XXXXXX", NULL);
    g_autoptr(RvStore) st = NULL, back = NULL;
    g_autoptr(GError) err = NULL;
    const RvStoreRecord *got;
    RvStoreRecord *rec;

    g_assert_cmpint(rv_result_store_create(tmp, "tp", NULL, &st, &err), ==, 0);
    rec = rv_result_store_record_new("a", 1, "linpack", "guest:lp0");
    rv_result_store_record_add_metric_full(rec, "gflops", -1.5, "GFLOPS",
                                           RV_STORE_BETTER_HIGHER, RV_STORE_AGGREGATE_HMEAN);
    rv_result_store_add_record(st, rec);
    rec = rv_result_store_record_new("a", 1, "cpu", "host");
    rv_result_store_record_add_metric_full(rec, RV_STORE_METRIC_CPU_PCT, 250, "%",
                                           RV_STORE_BETTER_LOWER, RV_STORE_AGGREGATE_MEAN);
    rv_result_store_add_record(st, rec);
    back = commit_and_reopen(st);
    got = rv_result_store_get_records(back)->pdata[0];
    g_assert_cmpstr(got->status, ==, "failed");
    g_assert_cmpstr(got->reason, ==, "refused by the store: metrics.gflops.value: -1.5: a rate "
                    "(aggregate hmean) cannot be negative");
    g_assert_cmpuint(got->metrics->len, ==, 0);
    got = rv_result_store_get_records(back)->pdata[1];
    g_assert_cmpstr(got->status, ==, "failed");
    g_assert_nonnull(strstr(got->reason, "250: cpu_pct is outside 0..100"));
    rv_test_rm_rf(tmp);
}

/* ---- the host context ---- */

static RvStoreContext *
full_context(void)
{
    RvStoreContext *c = rv_result_context_new();

    c->kernel_release = g_strdup("6.1.0-27-rt-amd64");
    c->kernel_version = g_strdup("#1 SMP PREEMPT_RT Debian 6.1.115-1");
    c->kernel_cmdline = g_strdup("BOOT_IMAGE=/vmlinuz isolcpus=2-3 nohz_full=2-3 \"quoted\"");
    c->cpu_vendor = g_strdup("GenuineIntel");
    c->cpu_model_name = g_strdup("Intel(R) Xeon(R) Gold 6140 CPU @ 2.30GHz");
    c->cpu_family = 6;
    c->cpu_model = 85;
    c->cpu_stepping = 4;
    c->cpu_microcode = g_strdup("0x2007006");
    c->smt_control = g_strdup("on");
    c->smt_active = 1;
    c->dmi_sys_vendor = g_strdup("Dell Inc.");
    c->dmi_product_name = g_strdup("PowerEdge R640");
    c->dmi_bios_version = g_strdup("2.19.1");
    c->ver_rtvirt = g_strdup("0.3.0");
    c->ver_qemu = g_strdup("7.2.22");
    c->ver_libvirt = g_strdup("9.0.0");
    c->ver_rt_tests = g_strdup("2.4-1");
    c->ver_cyclictest = g_strdup("2.40");
    return c;
}

static void
test_context_roundtrip(void)
{
    g_autofree char *tmp = g_dir_make_tmp("rv-store-XXXXXX", NULL);
    g_autoptr(RvStore) st = NULL, back = NULL;
    g_autoptr(RvStoreContext) c = full_context();
    g_autoptr(GError) err = NULL;
    g_autofree char *path = NULL, *text = NULL, *diff = NULL;
    g_autoptr(JsonParser) p = json_parser_new();
    const RvStoreContext *got;
    JsonObject *ctx;

    g_assert_cmpint(rv_result_store_create(tmp, "ctx", NULL, &st, &err), ==, 0);
    g_assert_null(rv_result_store_get_context(st));
    rv_result_store_set_context(st, c);
    /* a copy: the caller's context may go */
    g_clear_pointer(&c, rv_result_context_free);
    back = commit_and_reopen(st);
    got = rv_result_store_get_context(back);
    g_assert_nonnull(got);
    g_assert_cmpstr(got->kernel_release, ==, "6.1.0-27-rt-amd64");
    g_assert_cmpstr(got->kernel_cmdline, ==,
                    "BOOT_IMAGE=/vmlinuz isolcpus=2-3 nohz_full=2-3 \"quoted\"");
    g_assert_cmpstr(got->cpu_model_name, ==, "Intel(R) Xeon(R) Gold 6140 CPU @ 2.30GHz");
    g_assert_cmpint(got->cpu_family, ==, 6);
    g_assert_cmpint(got->cpu_model, ==, 85);
    g_assert_cmpint(got->cpu_stepping, ==, 4);
    g_assert_cmpstr(got->cpu_microcode, ==, "0x2007006");
    g_assert_cmpint(got->smt_active, ==, 1);
    g_assert_cmpstr(got->dmi_product_name, ==, "PowerEdge R640");
    g_assert_null(got->dmi_product_version);
    g_assert_null(got->dmi_bios_date);
    g_assert_cmpstr(got->ver_cyclictest, ==, "2.40");
    g_assert_cmpstr(got->ver_rt_tests, ==, "2.4-1");

    /* the documented layout, as any JSON reader sees it */
    path = g_build_filename(rv_result_store_get_dir(st), "run.json", NULL);
    g_assert_true(json_parser_load_from_file(p, path, NULL));
    ctx = json_object_get_object_member(json_node_get_object(json_parser_get_root(p)), "context");
    g_assert_nonnull(ctx);
    g_assert_cmpint(json_object_get_int_member(json_object_get_object_member(ctx, "cpu"),
                                               "family"), ==, 6);
    g_assert_true(json_object_get_boolean_member(json_object_get_object_member(ctx, "smt"),
                                                 "active"));
    g_assert_true(json_object_get_null_member(json_object_get_object_member(ctx, "dmi"),
                                              "bios_date"));
    g_assert_cmpstr(json_object_get_string_member(json_object_get_object_member(ctx, "versions"),
                                                  "qemu"), ==, "7.2.22");

    /* the same context is no difference; another kernel and microcode are */
    g_assert_null(rv_result_context_differences(got, got));
    c = rv_result_context_copy(got);
    g_free(c->kernel_release);
    c->kernel_release = g_strdup("6.1.0-28-rt-amd64");
    g_free(c->cpu_microcode);
    c->cpu_microcode = g_strdup("0x2007108");
    g_clear_pointer(&c->dmi_bios_version, g_free);   /* unknown on one side */
    diff = rv_result_context_differences(got, c);
    g_assert_cmpstr(diff, ==, "kernel release 6.1.0-27-rt-amd64 vs 6.1.0-28-rt-amd64; "
                    "microcode 0x2007006 vs 0x2007108");
    rv_test_rm_rf(tmp);
}

static void
test_context_bad(void)
{
    g_autofree char *tmp = g_dir_make_tmp("rv-store-XXXXXX", NULL);
    g_autofree char *path = g_build_filename(tmp, "run.json", NULL);
    g_autoptr(RvStore) st = NULL;
    g_autoptr(GError) err = NULL;

    /* an old store (no "context") and "context": null read as unknown */
    g_assert_true(g_file_set_contents(path, "{\"schema_version\": 1, \"records\": []}", -1, NULL));
    g_assert_cmpint(rv_result_store_open(tmp, &st, &err), ==, 0);
    g_assert_null(rv_result_store_get_context(st));
    g_clear_pointer(&st, rv_result_store_free);
    g_assert_true(g_file_set_contents(path, "{\"schema_version\": 1, \"context\": null, "
                                      "\"records\": []}", -1, NULL));
    g_assert_cmpint(rv_result_store_open(tmp, &st, &err), ==, 0);
    g_assert_null(rv_result_store_get_context(st));
    g_clear_pointer(&st, rv_result_store_free);
    /* a partial context: the rest unknown, unknown members ignored */
    g_assert_true(g_file_set_contents(path, "{\"schema_version\": 1, \"context\": "
                                      "{\"cpu\": {\"family\": 25, \"new\": 1}, \"future\": {}}, "
                                      "\"records\": []}", -1, NULL));
    g_assert_cmpint(rv_result_store_open(tmp, &st, &err), ==, 0);
    g_assert_cmpint(rv_result_store_get_context(st)->cpu_family, ==, 25);
    g_assert_cmpint(rv_result_store_get_context(st)->cpu_model, ==, -1);
    g_assert_cmpint(rv_result_store_get_context(st)->smt_active, ==, -1);
    g_assert_null(rv_result_store_get_context(st)->kernel_release);
    rv_test_rm_rf(tmp);

    expect_bad("{\"schema_version\": 1, \"context\": [], \"records\": []}",
               "context: expected an object");
    expect_bad("{\"schema_version\": 1, \"context\": {\"cpu\": []}, \"records\": []}",
               "context.cpu");
    expect_bad("{\"schema_version\": 1, \"context\": {\"cpu\": {\"family\": \"6\"}}, "
               "\"records\": []}", "context.cpu.family");
    expect_bad("{\"schema_version\": 1, \"context\": {\"cpu\": {\"stepping\": 1.5}}, "
               "\"records\": []}", "context.cpu.stepping");
    expect_bad("{\"schema_version\": 1, \"context\": {\"cpu\": {\"model\": 70000}}, "
               "\"records\": []}", "context.cpu.model");
    expect_bad("{\"schema_version\": 1, \"context\": {\"kernel\": {\"cmdline\": 1}}, "
               "\"records\": []}", "context.kernel.cmdline");
    expect_bad("{\"schema_version\": 1, \"context\": {\"smt\": {\"active\": 1}}, "
               "\"records\": []}", "context.smt.active");
}

/* a fixture root with this machine's real /proc/cpuinfo block; DMI values
 * as a Dell server has them (sysfs-class-dmi-id) */
static void
test_context_host(void)
{
    g_autofree char *tmp = g_dir_make_tmp("rv-ctxroot-XXXXXX", NULL);
    g_autofree char *cpuinfo_path = rv_test_data_path("context", "amd-epyc-1cpu.cpuinfo");
    g_autofree char *cpuinfo = rv_test_read_file(cpuinfo_path);
    g_autoptr(RvRoot) root = NULL;
    g_autoptr(RvStoreContext) c = NULL;
    g_autoptr(GError) err = NULL;
    g_autoptr(RvRunner) runner = rv_runner_new(true);

    rv_test_put(tmp, "proc/cpuinfo", cpuinfo);
    rv_test_put(tmp, "proc/cmdline", "BOOT_IMAGE=/boot/vmlinuz-6.18 root=/dev/vda ro\n");
    rv_test_put(tmp, "proc/sys/kernel/osrelease", "6.18.44-fc-v1045\n");
    rv_test_put(tmp, "sys/devices/system/cpu/smt/control", "notsupported\n");
    rv_test_put(tmp, "sys/devices/system/cpu/smt/active", "0\n");
    rv_test_put(tmp, "sys/class/dmi/id/sys_vendor", "Dell Inc.\n");
    rv_test_put(tmp, "sys/class/dmi/id/bios_version", "2.19.1\n");
    rv_test_put(tmp, "sys/class/dmi/id/product_name", "\n");     /* empty: unknown */
    g_assert_cmpint(rv_host_root_open(tmp, &root, &err), ==, 0);
    g_assert_cmpint(rv_host_context_load(root, runner, &c), ==, 0);
    g_assert_cmpstr(c->kernel_release, ==, "6.18.44-fc-v1045");
    g_assert_null(c->kernel_version);
    g_assert_cmpstr(c->kernel_cmdline, ==, "BOOT_IMAGE=/boot/vmlinuz-6.18 root=/dev/vda ro");
    g_assert_cmpstr(c->cpu_vendor, ==, "AuthenticAMD");
    g_assert_cmpstr(c->cpu_model_name, ==, "AMD EPYC");
    g_assert_cmpint(c->cpu_family, ==, 25);
    g_assert_cmpint(c->cpu_model, ==, 1);
    g_assert_cmpint(c->cpu_stepping, ==, 1);
    g_assert_cmpstr(c->cpu_microcode, ==, "0x1000065");
    g_assert_cmpstr(c->smt_control, ==, "notsupported");
    g_assert_cmpint(c->smt_active, ==, 0);
    g_assert_cmpstr(c->dmi_sys_vendor, ==, "Dell Inc.");
    g_assert_cmpstr(c->dmi_bios_version, ==, "2.19.1");
    g_assert_null(c->dmi_product_name);
    g_assert_null(c->dmi_bios_date);
    g_assert_nonnull(c->ver_rtvirt);
    /* a fixture root's programs are not this machine's: none started */
    g_assert_cmpuint(rv_runner_get_log(runner)->len, ==, 0);
    g_assert_null(c->ver_qemu);
    g_assert_null(c->ver_cyclictest);
    rv_test_rm_rf(tmp);

    /* a second processor block does not overwrite the first */
    g_clear_pointer(&c, rv_result_context_free);
    c = rv_result_context_new();
    rv_host_context_parse_cpuinfo("processor\t: 0\nmodel\t\t: 85\nstepping\t: 4\n\n"
                                  "processor\t: 1\nmodel\t\t: 99\nstepping\t: x\n", c);
    g_assert_cmpint(c->cpu_model, ==, 85);
    g_assert_cmpint(c->cpu_stepping, ==, 4);
    g_assert_cmpint(c->cpu_family, ==, -1);
}

/* the first lines these programs print on Debian 12 (captured on the build
 * machine: qemu-system-x86_64 --version, libvirtd --version, cyclictest --help) */
static void
test_context_versions(void)
{
    static const struct { const char *tool, *out, *want; } cases[] = {
        { "qemu", "QEMU emulator version 7.2.22 (Debian 1:7.2+dfsg-7+deb12u18+b3)\n"
                  "Copyright (c) 2003-2022 Fabrice Bellard and the QEMU Project developers\n",
          "7.2.22" },
        { "libvirt", "libvirtd (libvirt) 9.0.0\n", "9.0.0" },
        { "libvirt", "virtqemud (libvirt) 10.10.0\n", "10.10.0" },
        { "cyclictest", "cyclictest V 2.40\nUsage:\ncyclictest <options>\n", "2.40" },
        { "cyclictest", "Usage: cyclictest <options>\n", NULL },
        { "qemu", "", NULL },
        { "nosuchtool", "QEMU emulator version 7.2.22\n", NULL },
    };

    for (gsize i = 0; i < G_N_ELEMENTS(cases); i++) {
        g_autofree char *v = rv_host_context_parse_version(cases[i].tool, cases[i].out);

        g_assert_cmpstr(v, ==, cases[i].want);
    }
    g_assert_null(rv_host_context_parse_version("qemu", NULL));
}

/* The run's summary and compare count one store's untrusted reasons alike:
 * a run that wrote a reason naming virt=tcg reads back with as many (the
 * reader adds its own "virt=tcg" only where none says it), and
 * rv_result_untrusted_count() gives the number and the kinds both print. */
static void
test_untrusted_count(void)
{
    g_autofree char *tmp = g_dir_make_tmp("rv-store-XXXXXX", NULL);
    g_autoptr(RvStore) st = NULL, back = NULL;
    g_autoptr(GError) err = NULL;
    RvStoreRecord *rec;
    guint kinds = 0, written;

    g_assert_cmpint(rv_result_store_create(tmp, "demo", NULL, &st, &err), ==, 0);
    rv_result_store_add_scenario(st, "a", NULL);
    rv_result_store_set_untrusted(st, "guest rt: virt=tcg: QEMU emulates the guest CPU");
    rv_result_store_set_untrusted(st, "guest rt QEMU process 14242 locked memory (VmLck): found 0 kB");
    rv_result_store_set_untrusted(st, "guest rt2 QEMU process 14243 locked memory (VmLck): found 0 kB");
    rec = rv_result_store_record_new("a", 1, "cyclictest", "guest:rt");
    rv_result_store_record_set_virt(rec, "tcg");
    rv_result_store_record_add_metric(rec, "max_us", 10, "us");
    rv_result_store_add_record(st, rec);
    g_assert_cmpint(rv_result_store_commit(st, &err), ==, 0);
    written = rv_result_untrusted_count(rv_result_store_get_untrusted_reasons(st), &kinds);
    g_assert_cmpuint(written, ==, 3);
    g_assert_cmpuint(kinds, ==, 2);   /* the two locked-memory reasons are one kind */
    g_assert_cmpint(rv_result_store_open(rv_result_store_get_dir(st), &back, &err), ==, 0);
    g_assert_cmpuint(rv_result_untrusted_count(rv_result_store_get_untrusted_reasons(back), &kinds),
                     ==, written);
    g_assert_cmpuint(kinds, ==, 2);
    rv_test_rm_rf(tmp);
}

int
main(int argc, char **argv)
{
    g_test_init(&argc, &argv, NULL);
    g_test_add_func("/store/roundtrip", test_roundtrip);
    g_test_add_func("/store/untrusted-count", test_untrusted_count);
    g_test_add_func("/store/crash-leftover", test_crash_leftover);
    g_test_add_func("/store/bad", test_bad_stores);
    g_test_add_func("/store/json-depth", test_json_depth);
    for (guint i = 0; i < G_N_ELEMENTS(hostile); i++) {
        g_autofree char *p = g_strdup_printf("/store/hostile/%s", hostile[i].file);
        g_test_add_data_func(p, &hostile[i], test_hostile);
    }
    g_test_add_func("/store/hostile/edge-1e12", test_hostile_edge);
    g_test_add_func("/store/hostile/backstop", test_hostile_backstop);
    g_test_add_func("/store/hostile/non-utf8", test_hostile_non_utf8);
    g_test_add_func("/store/hostile/bad-counts", test_bad_counts);
    g_test_add_func("/store/pert-record", test_pert_record);
    g_test_add_func("/store/throughput/roundtrip", test_throughput_roundtrip);
    g_test_add_func("/store/throughput/old-and-bad", test_throughput_old_and_bad);
    g_test_add_func("/store/throughput/writer-refuses", test_throughput_writer_refuses);
    g_test_add_func("/store/context/roundtrip", test_context_roundtrip);
    g_test_add_func("/store/context/bad", test_context_bad);
    g_test_add_func("/store/context/host", test_context_host);
    g_test_add_func("/store/context/versions", test_context_versions);
    return g_test_run();
}
