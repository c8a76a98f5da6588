/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * workloads/tpcc.c: rtvirt-tpcc (tpcc/README.md) in a TPC-C disk guest
 * (profiles/guests/tpcc-guest.ini): the database was loaded when the image
 * was built (guest/disk-image.h, [image] tpcc_warehouses), mariadbd
 * starts at boot; the driver runs for the repetition's duration and its
 * JSON document (--json -, on stdout) is the result: NOPM, TPM, tps and
 * the New-Order latency percentiles.  Test mode (no keying or think time).
 */
#include <errno.h>
#include <string.h>

#include <json-glib/json-glib.h>

#include "util/error.h"
#include "util/json.h"
#include "workloads/workload.h"

static const char * const needs[] = { "rtvirt-tpcc", NULL };

static const RvWorkloadKey keys[] = {
    { "tpcc_users", RV_WORKLOAD_PARAM_THREADS, 1, 1024,
      "rtvirt-tpcc virtual users, one connection each (default 2)" },
    { NULL },
};

static const RvWorkloadMetric metrics[] = {
    /* rates over the measured time: repetitions by their harmonic mean */
    { "nopm", "NOPM", RV_STORE_BETTER_HIGHER, RV_STORE_AGGREGATE_HMEAN },
    { "tpm", "TPM", RV_STORE_BETTER_HIGHER, RV_STORE_AGGREGATE_HMEAN },
    { "tps", "tx/s", RV_STORE_BETTER_HIGHER, RV_STORE_AGGREGATE_HMEAN },
    { "new_order_p50_ms", "ms", RV_STORE_BETTER_LOWER, RV_STORE_AGGREGATE_MEAN },
    { "new_order_p90_ms", "ms", RV_STORE_BETTER_LOWER, RV_STORE_AGGREGATE_MEAN },
    { "new_order_p95_ms", "ms", RV_STORE_BETTER_LOWER, RV_STORE_AGGREGATE_MEAN },
    { "new_order_p99_ms", "ms", RV_STORE_BETTER_LOWER, RV_STORE_AGGREGATE_MEAN },
    { "new_order_max_ms", "ms", RV_STORE_BETTER_LOWER, RV_STORE_AGGREGATE_MAX },
    { "deadlocks", "count", RV_STORE_BETTER_LOWER, RV_STORE_AGGREGATE_SUM },
    { NULL },
};

/* The guest's mariadbd (Debian's unit and socket); `systemctl start`
 * returns once it is ready (Type=notify), so the run never races the boot.
 * The shell text is constants and numbers only. */
static char **
tpcc_argv(const RvWorkloadParams *p)
{
    gint64 users = p->value[RV_WORKLOAD_PARAM_THREADS] ? p->value[RV_WORKLOAD_PARAM_THREADS] : 2;
    unsigned w = p->profile && p->profile->tpcc_warehouses ? p->profile->tpcc_warehouses : 1;
    const char *scale = p->profile && p->profile->tpcc_scale &&
                        strcmp(p->profile->tpcc_scale, "standard") == 0 ? "standard" : "small";
    g_autofree char *cmd = g_strdup_printf(
        "systemctl start mariadb.service && exec rtvirt-tpcc run --socket "
        "/run/mysqld/mysqld.sock --warehouses %u --scale %s --users %" G_GINT64_FORMAT
        " --duration %.3f --warmup 0 --json -",
        w, scale, users, (double) p->duration_us / G_USEC_PER_SEC);

    return g_strdupv((char *[]) { "sh", "-c", cmd, NULL });
}

static int
get_number(JsonObject *o, const char *name, const char *key, double max, double *ret,
           GError **error)
{
    JsonNode *n = json_object_get_member(o, key);

    if (!n || !JSON_NODE_HOLDS_VALUE(n) ||
        (json_node_get_value_type(n) != G_TYPE_DOUBLE && json_node_get_value_type(n) != G_TYPE_INT64))
        return rv_error_set(error, RV_ERROR_INVALID, EINVAL, "%s: no number '%s'", name, key);
    *ret = json_node_get_double(n);
    if (!(*ret >= 0 && *ret <= max))
        return rv_error_set(error, RV_ERROR_INVALID, EINVAL, "%s: '%s' %g is out of range 0..%g",
                            name, key, *ret, max);
    return 0;
}

static int
tpcc_parse(const RvWorkloadParams *p, const char *name, const char *out, gsize len,
           RvWorkloadResult *res, GError **error)
{
    static const char * const pct[] = { "p50", "p90", "p95", "p99", "max" };
    g_autoptr(JsonParser) parser = json_parser_new();
    JsonNode *root = NULL;
    JsonObject *o, *txn, *no, *lat;
    double nopm, tpm, tps, dl, v;
    int r;

    (void) p;
    r = rv_json_parse_untrusted(parser, name, out, len, RV_JSON_MAX_DEPTH, &root, error);
    if (r < 0)
        return r;
    if (!root || !JSON_NODE_HOLDS_OBJECT(root))
        return rv_error_set(error, RV_ERROR_INVALID, EINVAL, "%s: not a JSON object", name);
    o = json_node_get_object(root);
    if (g_strcmp0(json_object_get_string_member_with_default(o, "tool", ""), "rtvirt-tpcc") != 0)
        return rv_error_set(error, RV_ERROR_INVALID, EINVAL, "%s: not an rtvirt-tpcc document",
                            name);
    if (!json_object_get_boolean_member_with_default(o, "completed", FALSE)) {
        const char *why = json_object_get_string_member_with_default(o, "error", NULL);

        return rv_error_set(error, RV_ERROR_INVALID, EINVAL, "%s: the run did not complete: %.200s",
                            name, why ? why : "no reason given");
    }
    if ((r = get_number(o, name, "nopm", 1e9, &nopm, error)) < 0 ||
        (r = get_number(o, name, "tpm", 1e9, &tpm, error)) < 0 ||
        (r = get_number(o, name, "tps", 1e8, &tps, error)) < 0 ||
        (r = get_number(o, name, "deadlocks", 1e12, &dl, error)) < 0)
        return r;
    if (nopm > tpm * (1 + 1e-9))
        return rv_error_set(error, RV_ERROR_INVALID, EINVAL, "%s: NOPM %g exceeds TPM %g", name,
                            nopm, tpm);
    txn = json_object_get_member(o, "transactions") &&
          JSON_NODE_HOLDS_OBJECT(json_object_get_member(o, "transactions"))
              ? json_object_get_object_member(o, "transactions") : NULL;
    no = txn && json_object_get_member(txn, "new_order") &&
         JSON_NODE_HOLDS_OBJECT(json_object_get_member(txn, "new_order"))
             ? json_object_get_object_member(txn, "new_order") : NULL;
    lat = no && json_object_get_member(no, "latency_ms") &&
          JSON_NODE_HOLDS_OBJECT(json_object_get_member(no, "latency_ms"))
              ? json_object_get_object_member(no, "latency_ms") : NULL;
    if (!lat)
        return rv_error_set(error, RV_ERROR_INVALID, EINVAL,
                            "%s: no transactions.new_order.latency_ms", name);
    rv_workload_add_metric(&rv_workload_tpcc, res->rec, "nopm", nopm);
    rv_workload_add_metric(&rv_workload_tpcc, res->rec, "tpm", tpm);
    rv_workload_add_metric(&rv_workload_tpcc, res->rec, "tps", tps);
    for (guint i = 0; i < G_N_ELEMENTS(pct); i++) {
        g_autofree char *metric = g_strdup_printf("new_order_%s_ms", pct[i]);

        if ((r = get_number(lat, name, pct[i], 1e9, &v, error)) < 0)
            return r;
        rv_workload_add_metric(&rv_workload_tpcc, res->rec, metric, v);
    }
    rv_workload_add_metric(&rv_workload_tpcc, res->rec, "deadlocks", dl);
    res->summary = g_strdup_printf("%.0f NOPM, %.1f tps", nopm, tps);
    return 0;
}

const RvWorkloadOps rv_workload_tpcc = {
    .name = "tpcc",
    .description = "rtvirt-tpcc: TPC-C-style OLTP on MariaDB in a disk guest (test mode), NOPM, "
                   "TPM, tps, New-Order latency",
    .where = RV_WORKLOAD_NEIGHBOUR,
    .needs = needs,
    .keys = keys,
    .metrics = metrics,
    .max_output = 4u << 20,
    .argv = tpcc_argv,
    .parse = tpcc_parse,
};
