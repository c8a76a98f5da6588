/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * tests/test-workload-tpcc.c: the tpcc workload (workloads/tpcc.c) on a
 * real rtvirt-tpcc document (tests/data/workloads/tpcc-small-w1-u2.json:
 * `rtvirt-tpcc run --warehouses 1 --scale small --users 2 --duration 4
 * --warmup 0 --json FILE` against the tpcc-guest image's own mariadbd),
 * its argv, and refusal of garbage, an incomplete run and NOPM > TPM.
 */
#include <errno.h>
#include <math.h>
#include <string.h>

#include "util/error.h"
#include "workloads/workload.h"
#include "tests/testutil.h"

static int
parse(const char *text, gsize len, RvStoreRecord **ret_rec, char **ret_summary, GError **error)
{
    RvWorkloadParams p = { .where = RV_WORKLOAD_NEIGHBOUR };
    RvWorkloadResult res = { 0 };
    int r;

    res.rec = rv_result_store_record_new("s", 1, "tpcc", "guest:db");
    r = rv_workload_tpcc.parse(&p, "tpcc.json", text, len, &res, error);
    *ret_rec = res.rec;
    res.rec = NULL;
    if (ret_summary)
        *ret_summary = g_strdup(res.summary);
    rv_workload_result_clear(&res);
    return r;
}

static void
test_real(void)
{
    g_autofree char *path = rv_test_data_path("workloads", "tpcc-small-w1-u2.json");
    g_autofree char *text = NULL, *summary = NULL;
    g_autoptr(GError) err = NULL;
    RvStoreRecord *rec = NULL;
    const RvStoreMetric *m;
    gsize len;

    g_assert_true(g_file_get_contents(path, &text, &len, NULL));
    g_assert_cmpint(parse(text, len, &rec, &summary, &err), ==, 0);
    g_assert_no_error(err);
    m = rv_result_store_record_get_metric(rec, "nopm");
    g_assert_nonnull(m);
    g_assert_cmpfloat_with_epsilon(m->value, 209.66731039523037, 1e-9);
    g_assert_cmpstr(m->unit, ==, "NOPM");
    g_assert_cmpint(m->better, ==, RV_STORE_BETTER_HIGHER);
    g_assert_cmpint(m->aggregate, ==, RV_STORE_AGGREGATE_HMEAN);
    m = rv_result_store_record_get_metric(rec, "tpm");
    g_assert_cmpfloat_with_epsilon(m->value, 464.26333016086727, 1e-9);
    m = rv_result_store_record_get_metric(rec, "tps");
    g_assert_cmpfloat_with_epsilon(m->value, 7.737722169347788, 1e-12);
    g_assert_cmpint(m->aggregate, ==, RV_STORE_AGGREGATE_HMEAN);
    m = rv_result_store_record_get_metric(rec, "new_order_p99_ms");
    g_assert_cmpfloat_with_epsilon(m->value, 692.976, 1e-9);
    g_assert_cmpint(m->better, ==, RV_STORE_BETTER_LOWER);
    m = rv_result_store_record_get_metric(rec, "new_order_max_ms");
    g_assert_cmpint(m->aggregate, ==, RV_STORE_AGGREGATE_MAX);
    g_assert_cmpstr(summary, ==, "210 NOPM, 7.7 tps");
    rv_result_store_record_free(rec);
}

static void
test_bad(void)
{
    static const char * const bad[] = {
        "garbage", "[1]", "{\"tool\": \"sysbench\"}",
        "{\"tool\": \"rtvirt-tpcc\", \"completed\": false, \"error\": \"lost the connection\"}",
        "{\"tool\": \"rtvirt-tpcc\", \"completed\": true, \"nopm\": 10, \"tpm\": 5, \"tps\": 1,"
        " \"deadlocks\": 0}",
        "{\"tool\": \"rtvirt-tpcc\", \"completed\": true, \"nopm\": -1, \"tpm\": 5, \"tps\": 1,"
        " \"deadlocks\": 0}",
        "{\"tool\": \"rtvirt-tpcc\", \"completed\": true, \"nopm\": 1, \"tpm\": 5, \"tps\": 1,"
        " \"deadlocks\": 0}",
    };
    static const char * const why[] = { "tpcc.json", "not a JSON object", "not an rtvirt-tpcc",
                                        "did not complete: lost the connection",
                                        "NOPM 10 exceeds TPM 5", "out of range",
                                        "no transactions.new_order.latency_ms" };

    for (guint i = 0; i < G_N_ELEMENTS(bad); i++) {
        g_autoptr(GError) err = NULL;
        RvStoreRecord *rec = NULL;

        g_assert_cmpint(parse(bad[i], strlen(bad[i]), &rec, NULL, &err), <, 0);
        g_assert_error(err, RV_ERROR, RV_ERROR_INVALID);
        if (!strstr(err->message, why[i]))
            g_error("case %u: '%s' lacks '%s'", i, err->message, why[i]);
        rv_result_store_record_free(rec);
    }
}

static void
test_argv(void)
{
    RvWorkloadParams p = { .where = RV_WORKLOAD_NEIGHBOUR, .duration_us = 5 * G_USEC_PER_SEC };
    g_auto(GStrv) a = NULL, b = NULL;

    a = rv_workload_tpcc.argv(&p);
    g_assert_cmpstr(a[0], ==, "sh");
    g_assert_cmpstr(a[2], ==, "systemctl start mariadb.service && exec rtvirt-tpcc run --socket "
                              "/run/mysqld/mysqld.sock --warehouses 1 --scale small --users 2 "
                              "--duration 5.000 --warmup 0 --json -");
    p.value[RV_WORKLOAD_PARAM_THREADS] = 8;
    b = rv_workload_tpcc.argv(&p);
    g_assert_nonnull(strstr(b[2], "--users 8 "));
}

int
main(int argc, char **argv)
{
    g_test_init(&argc, &argv, NULL);
    g_test_add_func("/workload-tpcc/real", test_real);
    g_test_add_func("/workload-tpcc/bad", test_bad);
    g_test_add_func("/workload-tpcc/argv", test_argv);
    return g_test_run();
}
