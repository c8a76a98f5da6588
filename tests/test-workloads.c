/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * tests/test-workloads.c: the workload tables (workloads/workload.h) and
 * their parsers on real outputs (tests/data/workloads: rtvirt-linpack,
 * rtvirt-gemm and rtvirt-pipe as built here, Debian's sysbench 1.0.20, run
 * once on this 2-CPU machine and saved); garbage and cut outputs refused
 * with the reason; the [load:NAME] keys checked at matrix load naming
 * FILE:LINE; host cpu% from /proc/stat.
 */
#include <errno.h>
#include <math.h>
#include <string.h>

#include "guest/disk-image.h"
#include "guest/image.h"
#include "harness/matrix.h"
#include "host/facts/cpustat.h"
#include "util/error.h"
#include "workloads/workload.h"
#include "tests/testutil.h"

#define DATA "tests/data/matrix"

typedef struct {
    RvStoreRecord *rec;
    RvWorkloadResult res;
} Parsed;

static int
parse_text(const RvWorkloadOps *ops, const char *name, const char *text, gsize len,
           Parsed *ret, GError **error)
{
    RvWorkloadParams p = { .where = RV_WORKLOAD_NEIGHBOUR };

    ret->rec = rv_result_store_record_new("s", 1, ops->name, "guest:g");
    ret->res.rec = ret->rec;
    return ops->parse(&p, name, text, len, &ret->res, error);
}

static void
parsed_clear(Parsed *p)
{
    rv_workload_result_clear(&p->res);
    rv_result_store_record_free(p->rec);
}

static void
parse_fixture(const RvWorkloadOps *ops, const char *file, Parsed *ret)
{
    g_autofree char *path = rv_test_data_path("workloads", file);
    g_autofree char *text = NULL;
    g_autoptr(GError) err = NULL;
    gsize len;

    g_assert_true(g_file_get_contents(path, &text, &len, NULL));
    if (parse_text(ops, file, text, len, ret, &err) < 0)
        g_error("%s: %s", file, err->message);
}

static void
assert_metric(const RvStoreRecord *rec, const char *name, double value, const char *unit,
              RvStoreBetter better, RvStoreAggregate aggregate)
{
    const RvStoreMetric *m = rv_result_store_record_get_metric(rec, name);

    if (!m)
        g_error("no metric %s", name);
    g_assert_cmpfloat_with_epsilon(m->value, value, fabs(value) * 1e-9 + 1e-12);
    g_assert_cmpstr(m->unit, ==, unit);
    g_assert_cmpint(m->better, ==, better);
    g_assert_cmpint(m->aggregate, ==, aggregate);
}

static void
test_linpack(void)
{
    Parsed p = { 0 };
    JsonObject *d;

    parse_fixture(&rv_workload_linpack, "linpack-n200-r4.txt", &p);
    /* the summary line of the fixture */
    assert_metric(p.rec, "gflops", 0.1493, "GFLOPS", RV_STORE_BETTER_HIGHER,
                  RV_STORE_AGGREGATE_HMEAN);
    assert_metric(p.rec, "gflops_max", 0.5997, "GFLOPS", RV_STORE_BETTER_HIGHER,
                  RV_STORE_AGGREGATE_MAX);
    assert_metric(p.rec, "resid_max", 0.00393868, NULL, RV_STORE_BETTER_LOWER,
                  RV_STORE_AGGREGATE_MAX);
    assert_metric(p.rec, "iterations", 4, "count", RV_STORE_BETTER_HIGHER,
                  RV_STORE_AGGREGATE_SUM);
    d = json_node_get_object(p.rec->details);
    g_assert_cmpstr(json_object_get_string_member(d, "openblas_core"), ==, "Zen");
    g_assert_cmpstr(p.res.summary, ==, "0.149 GFLOPS (N = 200)");
    g_assert_cmpint(rv_result_store_record_check(p.rec, NULL), ==, 0);
    parsed_clear(&p);
}

static void
test_gemm(void)
{
    Parsed p = { 0 };
    JsonObject *d;

    parse_fixture(&rv_workload_gemm, "gemm-n128-t2.txt", &p);
    assert_metric(p.rec, "gflops", 7.6258, "GFLOPS", RV_STORE_BETTER_HIGHER,
                  RV_STORE_AGGREGATE_HMEAN);
    d = json_node_get_object(p.rec->details);
    g_assert_cmpstr(json_object_get_string_member(d, "openblas_core"), ==, "Zen");
    g_assert_cmpstr(json_object_get_string_member(d, "openblas_config"), ==,
                    "OpenBLAS 0.3.21 NO_LAPACKE DYNAMIC_ARCH NO_AFFINITY Zen MAX_THREADS=64");
    g_assert_cmpint(json_object_get_int_member(d, "threads"), ==, 2);
    parsed_clear(&p);
}

static void
test_pipe(void)
{
    Parsed p = { 0 };
    g_autoptr(GError) err = NULL;
    const char *one = "pipe same cpus 0,0 roundtrips 10 seconds 0.001 ns_per_roundtrip 100000.0\n"
                      "pipe cross skipped: 1 CPU online\n";

    parse_fixture(&rv_workload_pipe, "pipe-c20000.txt", &p);
    assert_metric(p.rec, "same_cpu_ns", 8916.9, "ns", RV_STORE_BETTER_LOWER,
                  RV_STORE_AGGREGATE_MEAN);
    assert_metric(p.rec, "cross_cpu_ns", 383535.9, "ns", RV_STORE_BETTER_LOWER,
                  RV_STORE_AGGREGATE_MEAN);
    parsed_clear(&p);
    /* a 1-vCPU guest: no cross-CPU figure, not an error */
    g_assert_cmpint(parse_text(&rv_workload_pipe, "one", one, strlen(one), &p, &err), ==, 0);
    g_assert_null(rv_result_store_record_get_metric(p.rec, "cross_cpu_ns"));
    parsed_clear(&p);
}

static void
test_sysbench(void)
{
    Parsed p = { 0 };

    parse_fixture(&rv_workload_sysbench, "sysbench-1.0.20-cpu-2threads.txt", &p);
    assert_metric(p.rec, "events_per_s", 808.87, "events/s", RV_STORE_BETTER_HIGHER,
                  RV_STORE_AGGREGATE_HMEAN);
    assert_metric(p.rec, "latency_p95_ms", 24.38, "ms", RV_STORE_BETTER_LOWER,
                  RV_STORE_AGGREGATE_MEAN);
    assert_metric(p.rec, "latency_avg_ms", 2.45, "ms", RV_STORE_BETTER_LOWER,
                  RV_STORE_AGGREGATE_MEAN);
    parsed_clear(&p);
}

/* sysbench threads prints no rate: events / total time */
static void
test_sysbench_threads(void)
{
    g_autofree char *path = rv_test_data_path("workloads", "sysbench-1.0.20-threads-2threads.txt");
    g_autofree char *text = NULL;
    Parsed p = { 0 };
    double events = 0, secs = 0;
    const char *l;

    g_assert_true(g_file_get_contents(path, &text, NULL, NULL));
    l = strstr(text, "total number of events:");
    g_assert_nonnull(l);
    events = g_ascii_strtod(l + strlen("total number of events:"), NULL);
    l = strstr(text, "total time:");
    secs = g_ascii_strtod(l + strlen("total time:"), NULL);
    g_assert_cmpfloat(events, >, 0);
    parse_fixture(&rv_workload_sysbench_threads, "sysbench-1.0.20-threads-2threads.txt", &p);
    assert_metric(p.rec, "events_per_s", events / secs, "events/s", RV_STORE_BETTER_HIGHER,
                  RV_STORE_AGGREGATE_HMEAN);
    parsed_clear(&p);
}

typedef struct {
    const RvWorkloadOps *ops;
    const char *fixture;     /* NULL: text alone */
    const char *text;        /* replaces the fixture, or is appended with '+' first */
    const char *reason;
} Bad;

static const Bad bad[] = {
    { &rv_workload_linpack, NULL, "", "x: empty output" },
    { &rv_workload_linpack, NULL, "rtvirt-linpack n 200 core Zen\n"
      "iter 1 n 200 seconds 0.01 gflops 0.5 resid 0.003 PASSED\n",
      "x: no 'summary' line (1 iterations): cut short?" },
    { &rv_workload_linpack, NULL, "iter 1 n 200 seconds 0.01 gflops 0.5 resid 0.003 PASSED\n"
      "summary iterations 2 n 200 seconds 0.01 gflops 0.5 gflops_max 0.5 resid_max 0.003 PASSED\n",
      "x: line 2: summary counts 2 iterations, the output has 1" },
    { &rv_workload_linpack, NULL, "iter 1 n 200 seconds 0.01 gflops 0.5 resid 17 FAILED\n"
      "summary iterations 1 n 200 seconds 0.01 gflops 0.5 gflops_max 0.5 resid_max 17 FAILED\n",
      "x: line 2: the HPL residual check failed: resid_max 17 is not below 16" },
    { &rv_workload_linpack, NULL, "iter 1 n 200 seconds 0.01 gflops 1e99 resid 0.1 PASSED\n",
      "x: line 1: not 'iter I n N seconds S gflops G resid R PASSED|FAILED'" },
    { &rv_workload_linpack, NULL, "iter 1 n 200 seconds 0.01 gflops nan resid 0.1 PASSED\n",
      "x: line 1: not 'iter I" },
    { &rv_workload_linpack, "linpack-n200-r4.txt", "+iter 5 n 200 seconds 1 gflops 1 resid 0 PASSED\n",
      "x: line 7: unexpected 'iter 5 n 200 seconds 1 gflops 1 resid 0 '" },
    { &rv_workload_gemm, NULL, "core Zen\n", "x: no 'gemm' line: cut short?" },
    { &rv_workload_gemm, NULL, "core Zen\ngemm n 1 threads 1 iterations 1 seconds 1 gflops 1\n",
      "x: line 2: not 'gemm n N" },
    { &rv_workload_sysbench, NULL, "events per second: 12x\n", "x: line 1: 'events per second:' "
      "is not followed by a number: 'events per second: 12x'" },
    { &rv_workload_sysbench, "sysbench-1.0.20-cpu-2threads.txt", "+    total time: 3s\n",
      "'total time:' a second time" },
    { &rv_workload_sysbench, NULL, "CPU speed:\n    events per second:   808.87\n",
      "x: no 'total time:' line: not sysbench's report, or cut short" },
    { &rv_workload_pipe, NULL, "pipe same cpus 0,0 roundtrips 10 seconds 1 ns_per_roundtrip -5\n",
      "x: line 1: not 'pipe same|cross" },
    { &rv_workload_pipe, NULL, "hello\n", "x: line 1: unexpected 'hello'" },
    /* hostile outputs: strtod(3)'s hex floats, and control characters
     * that would reach a terminal through a message or the store */
    { &rv_workload_linpack, NULL, "iter 1 n 200 seconds 0.01 gflops 0x1p4 resid 0.1 PASSED\n",
      "x: line 1: not 'iter I" },
    { &rv_workload_gemm, NULL, "core Zen\ngemm n 200 threads 1 iterations 1 seconds 0x1p0 gflops 1\n",
      "x: line 2: not 'gemm n N" },
    { &rv_workload_sysbench, NULL, "events per second: 0x1.8p10\n", "x: line 1: 'events per second:' "
      "is not followed by a number" },
    { &rv_workload_linpack, NULL, "rtvirt-linpack n 200 core \033]0;pwned\007Zen\n",
      "x: byte 26 is control character 0x1b, not text" },
    { &rv_workload_sysbench, NULL, "CPU speed:\b\n", "x: byte 10 is control character 0x08" },
};

static void
test_bad(gconstpointer data)
{
    const Bad *b = data;
    g_autofree char *text = NULL;
    g_autoptr(GError) err = NULL;
    Parsed p = { 0 };

    if (b->fixture) {
        g_autofree char *path = rv_test_data_path("workloads", b->fixture);
        g_autofree char *f = NULL;

        g_assert_true(g_file_get_contents(path, &f, NULL, NULL));
        text = g_strconcat(f, b->text + 1, NULL);
    } else {
        text = g_strdup(b->text);
    }
    g_assert_cmpint(parse_text(b->ops, "x", text, strlen(text), &p, &err), <, 0);
    g_assert_error(err, RV_ERROR, RV_ERROR_INVALID);
    if (!strstr(err->message, b->reason))
        g_error("'%s' lacks '%s'", err->message, b->reason);
    parsed_clear(&p);
}

/* random bytes after a plausible first line (harness/run.c's
 * RV_TEST_WORKLOAD_GARBAGE hook): every parser refuses them */
static void
test_garbage(void)
{
    GRand *rng = g_rand_new_with_seed(4242);
    GString *g = g_string_new("events per second: 12\n");

    for (guint i = 0; i < 4096; i++)
        g_string_append_c(g, (char) g_rand_int_range(rng, 0, 256));
    for (const RvWorkloadOps * const *w = rv_workload_all(); *w; w++) {
        g_autoptr(GError) err = NULL;
        Parsed p = { 0 };

        if (!(*w)->parse)
            continue;
        g_assert_cmpint(parse_text(*w, "garbage", g->str, g->len, &p, &err), <, 0);
        g_assert_nonnull(err);
        parsed_clear(&p);
    }
    {
        g_autoptr(GError) err = NULL;
        Parsed p = { 0 };

        g_assert_cmpint(parse_text(&rv_workload_sysbench, "garbage", g->str, g->len, &p, &err),
                        ==, -EINVAL);
        g_assert_true(g_str_has_prefix(err->message, "garbage: byte "));
        g_assert_nonnull(strstr(err->message, "is not text (a NUL or invalid UTF-8)"));
        parsed_clear(&p);
    }
    g_string_free(g, TRUE);
    g_rand_free(rng);
}

static char *
joined_argv(const RvWorkloadOps *ops, const RvWorkloadParams *p)
{
    g_auto(GStrv) argv = ops->argv(p);

    return g_strjoinv(" ", argv);
}

static void
test_argv(void)
{
    RvWorkloadParams p = { .where = RV_WORKLOAD_NEIGHBOUR, .duration_us = 2500000 };
    g_autofree char *a = NULL, *b = NULL, *c = NULL, *d = NULL, *e = NULL;

    a = joined_argv(&rv_workload_linpack, &p);
    g_assert_cmpstr(a, ==, "rtvirt-linpack -n 200 -r 0 -t 2.500");
    p.value[RV_WORKLOAD_PARAM_SIZE] = 300;
    p.value[RV_WORKLOAD_PARAM_THREADS] = 2;
    b = joined_argv(&rv_workload_linpack, &p);
    g_assert_cmpstr(b, ==, "env OPENBLAS_NUM_THREADS=2 rtvirt-linpack -n 300 -r 0 -t 2.500");
    p.value[RV_WORKLOAD_PARAM_RATE] = 100;
    c = joined_argv(&rv_workload_sysbench, &p);
    g_assert_cmpstr(c, ==, "sysbench cpu --threads=2 --rate=100 --time=3 --percentile=95 run");
    d = joined_argv(&rv_workload_gemm, &p);
    g_assert_cmpstr(d, ==, "rtvirt-gemm -n 300 -T 2 -t 2.500");
    p.value[RV_WORKLOAD_PARAM_COUNT] = 5000;
    e = joined_argv(&rv_workload_pipe, &p);
    g_assert_cmpstr(e, ==, "rtvirt-pipe -c 5000");
    /* on the host: the rtvirt-pipe beside rtvirt, the first two CPUs */
    {
        g_autofree char *h2 = NULL, *h1 = NULL;

        p.where = RV_WORKLOAD_HOST;
        p.self = "/opt/rtvirt/bin/rtvirt";
        rv_cpuset_zero(&p.cpus);
        rv_cpuset_set(&p.cpus, 2);
        rv_cpuset_set(&p.cpus, 5);
        rv_cpuset_set(&p.cpus, 7);
        h2 = joined_argv(&rv_workload_pipe, &p);
        g_assert_cmpstr(h2, ==, "/opt/rtvirt/bin/rtvirt-pipe -c 5000 -a 2 -b 5");
        rv_cpuset_zero(&p.cpus);
        rv_cpuset_set(&p.cpus, 3);
        h1 = joined_argv(&rv_workload_pipe, &p);
        g_assert_cmpstr(h1, ==, "/opt/rtvirt/bin/rtvirt-pipe -c 5000 -a 3 -b 3");
    }
}

/* Every table is complete, names and keys unique, and every program a
 * guest workload needs is in the guest images' list. */
static void
test_tables(void)
{
    guint nb = 0;
    const RvGuestImageBinary *bins = rv_guest_image_binaries(&nb);
    g_autoptr(GHashTable) names = g_hash_table_new(g_str_hash, g_str_equal);
    guint n = 0;

    for (const RvWorkloadOps * const *w = rv_workload_all(); *w; w++, n++) {
        const RvWorkloadOps *o = *w;

        g_assert_nonnull(o->name);
        g_assert_false(g_hash_table_contains(names, o->name));
        g_hash_table_add(names, (gpointer) o->name);
        g_assert_true(rv_workload_find(o->name) == o);
        g_assert_nonnull(o->argv);
        g_assert_cmpuint(o->where, !=, 0);
        g_assert_cmpuint(o->max_output, >, 0);
        for (const RvWorkloadMetric *m = o->metrics; m && m->name; m++)
            g_assert_true(rv_workload_metric(o, m->name) == m);
        g_assert_true(!o->metrics || o->parse);
        for (const RvWorkloadKey *k = o->keys; k && k->key; k++) {
            const RvWorkloadOps *owner = NULL;

            g_assert_nonnull(rv_workload_find_key(k->key, &owner));
            g_assert_cmpint(k->min, <=, k->max);
        }
        if (!(o->where & (RV_WORKLOAD_RT_GUEST | RV_WORKLOAD_NEIGHBOUR)))
            continue;
        for (const char * const *need = o->needs; need && *need; need++) {
            static const char * const disk_only[] = { RV_GUEST_DISK_IMAGE_EXTRA_TOOLS };
            bool found = strcmp(*need, "busybox") == 0;

            /* programs only disk guests hold (guest/disk-image.h) */
            for (guint i = 0; i < G_N_ELEMENTS(disk_only) && !found; i++)
                found = strcmp(*need, disk_only[i]) == 0;

            for (guint i = 0; i < nb && !found; i++)
                found = g_str_has_suffix(bins[i].path, *need) &&
                        bins[i].path[strlen(bins[i].path) - strlen(*need) - 1] == '/';
            if (!found)
                g_error("workload %s needs %s, which no guest image holds", o->name, *need);
        }
    }
    g_assert_cmpuint(n, >=, 10);
    g_assert_null(rv_workload_find("nosuch"));
    g_assert_null(rv_workload_find_key("nosuch_threads", NULL));
}

static void
expect_matrix_error(const char *text, const char *want)
{
    g_autoptr(GError) err = NULL;
    g_autoptr(RvMatrix) m = NULL;
    g_autofree char *full = g_strconcat("[guest:g]\nprofile = ../guest-a.ini\nrole = neighbour\n"
                                        "workload = sysbench\n[scenario:s]\nplacement = unpinned\n",
                                        text, NULL);

    g_assert_cmpint(rv_harness_matrix_load_data(DATA "/ok/load.ini", full, &m, &err), ==,
                    -EINVAL);
    g_assert_error(err, RV_ERROR, RV_ERROR_INVALID);
    if (!strstr(err->message, want))
        g_error("'%s' lacks '%s'", err->message, want);
}

static void
test_matrix_keys(void)
{
    g_autoptr(GError) err = NULL;
    g_autoptr(RvMatrix) m = NULL;
    const RvMatrixLoad *l;

    if (rv_harness_matrix_load_data(
                        DATA "/ok/load.ini",
                        "[guest:g]\nprofile = ../guest-a.ini\nrole = neighbour\n"
                        "workload = sysbench\n[guest:lp]\nprofile = ../guest-a.ini\n"
                        "role = neighbour\nworkload = linpack\n"
                        "[load:l32]\nsysbench_threads = 32\nsysbench_rate = 100\n"
                        "linpack_n = 500\n[scenario:s]\nplacement = unpinned\n", &m, &err) < 0)
        g_error("%s", err->message);
    l = m->loads->pdata[0];
    g_assert_cmpstr(l->name, ==, "l32");
    g_assert_false(l->builtin);
    g_assert_cmpint(rv_harness_matrix_load_value(l, "sysbench_threads"), ==, 32);
    g_assert_cmpint(rv_harness_matrix_load_value(l, "sysbench_rate"), ==, 100);
    g_assert_cmpint(rv_harness_matrix_load_value(l, "linpack_n"), ==, 500);
    g_assert_cmpint(rv_harness_matrix_load_value(l, "gemm_threads"), ==, 0);
    g_assert_true(((RvMatrixGuest *) m->guests->pdata[0])->workload == &rv_workload_sysbench);

    expect_matrix_error("[load:x]\nsysbench_threads = 0\n", "load.ini:8:");
    expect_matrix_error("[load:x]\nsysbench_threads = 0\n", "sysbench_threads");
    expect_matrix_error("[load:x]\ngemm_threads = many\n", "load.ini:8:");
    expect_matrix_error("[load:x]\nlinpack_n = 1\n", "linpack_n");
    expect_matrix_error("[load:x]\nsysbench_thread = 2\n", "load.ini:8:");
    expect_matrix_error("[load:x]\nsysbench_thread = 2\n", "sysbench_thread");
    {
        /* a workload where it cannot run */
        g_autoptr(RvMatrix) m2 = NULL;
        g_clear_error(&err);
        g_assert_cmpint(rv_harness_matrix_load_data(
                            DATA "/ok/load.ini", "[guest:g]\nprofile = ../guest-a.ini\n"
                            "role = rt\nworkload = linpack\n[scenario:s]\nplacement = unpinned\n",
                            &m2, &err), ==, -EINVAL);
        g_assert_nonnull(strstr(err->message, "load.ini:4: invalid workload 'linpack' in "
                                "[guest:g]: expected one of: cyclictest, pipe, none"));
    }
}

/* optional = yes: a workload this rtvirt lacks skips the guest, with the
 * reason; without it the matrix is refused */
static void
test_optional_guest(void)
{
    g_autoptr(GError) err = NULL;
    g_autoptr(RvMatrix) m = NULL;
    const RvMatrixGuest *g;
    const char *text = "[guest:rt]\nprofile = ../guest-a.ini\n"
                       "[guest:tp]\nprofile = ../guest-a.ini\nrole = neighbour\n"
                       "workload = nosuch-tpcc\noptional = yes\n"
                       "[scenario:s]\nplacement = unpinned\n";

    if (rv_harness_matrix_load_data(DATA "/ok/opt.ini", text, &m, &err) < 0)
        g_error("%s", err->message);
    g = rv_harness_matrix_guest(m, "tp");
    g_assert_nonnull(g);
    g_assert_null(g->workload);
    g_assert_cmpstr(g->workload_name, ==, "nosuch-tpcc");
    g_assert_cmpstr(g->skip_reason, ==, "workload 'nosuch-tpcc' is not in this rtvirt's "
                    "workload table (workloads/workload.h): [guest:tp] optional = yes, skipped");
    g_assert_null(rv_harness_matrix_guest(m, "rt")->skip_reason);
    g_clear_pointer(&m, rv_harness_matrix_free);
    {
        g_autofree char *strict = g_strdup(text);
        char *opt = strstr(strict, "optional = yes");

        memcpy(opt, "optional = no ", 14);
        g_assert_cmpint(rv_harness_matrix_load_data(DATA "/ok/opt.ini", strict, &m, &err), ==,
                        -EINVAL);
        g_assert_nonnull(strstr(err->message, "opt.ini:6: invalid workload 'nosuch-tpcc'"));
    }
}

static void
read_stat(const char *file, RvHostCpuTimes *t)
{
    g_autofree char *path = rv_test_data_path("workloads", file);
    g_autofree char *text = NULL;
    g_autoptr(GError) err = NULL;

    g_assert_true(g_file_get_contents(path, &text, NULL, NULL));
    g_assert_cmpint(rv_host_cpustat_parse(text, t, &err), ==, 0);
}

static void
test_cpustat(void)
{
    RvHostCpuTimes a, b, c;
    g_autoptr(GError) err = NULL;

    /* this machine, one second apart, with every CPU busy (helpers
     * building): idle and iowait did not move */
    read_stat("proc-stat-1.txt", &a);
    read_stat("proc-stat-2.txt", &b);
    g_assert_cmpuint(a.busy, ==, 1057035 + 188709 + 433723 + 0 + 6262 + 36399);
    g_assert_cmpuint(a.idle, ==, 477748 + 9813);
    g_assert_cmpfloat(rv_host_cpustat_pct(&a, &b), ==, 100.0);
    g_assert_cmpfloat(rv_host_cpustat_pct(&b, &a), ==, -1);
    g_assert_cmpfloat(rv_host_cpustat_pct(&a, &a), ==, -1);
    /* iowait counts as idle: 30 busy, 60 idle + 10 iowait */
    g_assert_cmpint(rv_host_cpustat_parse("cpu  10 0 20 60 10 0 0 0 0 0\n", &c, NULL), ==, 0);
    a = (RvHostCpuTimes) { 0, 0 };
    g_assert_cmpfloat(rv_host_cpustat_pct(&a, &c), ==, 30.0);
    g_assert_cmpint(rv_host_cpustat_parse("cpu0 1 2 3 4\n", &c, &err), ==, -EINVAL);
    g_assert_cmpstr(err->message, ==, "/proc/stat has no 'cpu' line");
    g_clear_error(&err);
    g_assert_cmpint(rv_host_cpustat_parse("cpu  1 2 x\n", &c, &err), ==, -EINVAL);
    g_assert_cmpstr(err->message, ==, "/proc/stat 'cpu' line: field 3 is not a number");
}

int
main(int argc, char **argv)
{
    g_test_init(&argc, &argv, NULL);
    g_test_add_func("/workloads/linpack", test_linpack);
    g_test_add_func("/workloads/gemm", test_gemm);
    g_test_add_func("/workloads/pipe", test_pipe);
    g_test_add_func("/workloads/sysbench", test_sysbench);
    g_test_add_func("/workloads/sysbench-threads", test_sysbench_threads);
    for (guint i = 0; i < G_N_ELEMENTS(bad); i++) {
        g_autofree char *n = g_strdup_printf("/workloads/bad/%s/%u", bad[i].ops->name, i);
        g_test_add_data_func(n, &bad[i], test_bad);
    }
    g_test_add_func("/workloads/garbage", test_garbage);
    g_test_add_func("/workloads/argv", test_argv);
    g_test_add_func("/workloads/tables", test_tables);
    g_test_add_func("/workloads/matrix-keys", test_matrix_keys);
    g_test_add_func("/workloads/cpustat", test_cpustat);
    g_test_add_func("/workloads/optional-guest", test_optional_guest);
    return g_test_run();
}
