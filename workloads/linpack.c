/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * workloads/linpack.c: rtvirt-linpack (guest-tools/linpack.c), LU solves
 * with OpenBLAS's dgetrf/dgetrs for the duration, each checked with HPL's
 * scaled residual; the rate is GFLOPS with HPL's operation count.
 */
#include <errno.h>
#include <string.h>

#include "util/error.h"
#include "workloads/workload.h"

static const char * const needs[] = { "rtvirt-linpack", NULL };

static const RvWorkloadKey keys[] = {
    { "linpack_n", RV_WORKLOAD_PARAM_SIZE, 2, 20000, "matrix order N (default 200)" },
    { "linpack_threads", RV_WORKLOAD_PARAM_THREADS, 1, 1024,
      "OpenBLAS threads (default: every vCPU)" },
    { NULL },
};

static const RvWorkloadMetric metrics[] = {
    /* total operations over total time: the harmonic mean of the iterations */
    { "gflops", "GFLOPS", RV_STORE_BETTER_HIGHER, RV_STORE_AGGREGATE_HMEAN },
    { "gflops_max", "GFLOPS", RV_STORE_BETTER_HIGHER, RV_STORE_AGGREGATE_MAX },
    { "resid_max", NULL, RV_STORE_BETTER_LOWER, RV_STORE_AGGREGATE_MAX },
    { "iterations", "count", RV_STORE_BETTER_HIGHER, RV_STORE_AGGREGATE_SUM },
    { NULL },
};

static char **
linpack_argv(const RvWorkloadParams *p)
{
    gint64 n = p->value[RV_WORKLOAD_PARAM_SIZE] ? p->value[RV_WORKLOAD_PARAM_SIZE] : 200;
    g_autofree char *ns = g_strdup_printf("%" G_GINT64_FORMAT, n);
    g_autofree char *secs = g_strdup_printf("%.3f", (double) p->duration_us / G_USEC_PER_SEC);
    g_autofree char *threads = NULL;

    if (p->value[RV_WORKLOAD_PARAM_THREADS]) {
        threads = g_strdup_printf("OPENBLAS_NUM_THREADS=%" G_GINT64_FORMAT,
                                  p->value[RV_WORKLOAD_PARAM_THREADS]);
        return g_strdupv((char *[]) { "env", threads, "rtvirt-linpack", "-n", ns, "-r", "0",
                                      "-t", secs, NULL });
    }
    return g_strdupv((char *[]) { "rtvirt-linpack", "-n", ns, "-r", "0", "-t", secs, NULL });
}

#define BAD(fmt, ...) \
    rv_error_set(error, RV_ERROR_INVALID, EINVAL, "%s: line %u: " fmt, name, i + 1, ##__VA_ARGS__)

static int
linpack_parse(const RvWorkloadParams *p, const char *name, const char *out, gsize len,
              RvWorkloadResult *res, GError **error)
{
    g_auto(GStrv) lines = NULL;
    g_autofree char *core = NULL;
    guint iters = 0, i;
    bool summary = false;
    int n_lines = rv_workload_output_lines(name, out, len, &lines, error);

    (void) p;
    if (n_lines < 0)
        return n_lines;
    for (i = 0; lines[i]; i++) {
        g_auto(GStrv) t = rv_workload_tokens(lines[i]);
        double n, secs, gf, gfmax, resid, k;

        if (!t[0] || summary)
            return BAD("unexpected '%.40s'", lines[i]);
        if (strcmp(t[0], "rtvirt-linpack") == 0) {
            if (i != 0 || g_strv_length(t) != 5 || strcmp(t[1], "n") != 0 ||
                strcmp(t[3], "core") != 0 || strlen(t[4]) > 64)
                return BAD("not the header 'rtvirt-linpack n N core CORE'");
            core = g_strdup(t[4]);
        } else if (strcmp(t[0], "iter") == 0) {
            if (g_strv_length(t) != 11 ||
                (strcmp(t[10], "PASSED") != 0 && strcmp(t[10], "FAILED") != 0) ||
                rv_workload_line_number(t, "n", 2, 20000, &n) < 0 ||
                rv_workload_line_number(t, "seconds", 0, 1e7, &secs) < 0 ||
                rv_workload_line_number(t, "gflops", 0, 1e7, &gf) < 0 ||
                rv_workload_line_number(t, "resid", -1, 1e300, &resid) < 0)
                return BAD("not 'iter I n N seconds S gflops G resid R PASSED|FAILED'");
            iters++;
        } else if (strcmp(t[0], "summary") == 0) {
            if (g_strv_length(t) != 14 ||
                rv_workload_line_number(t, "iterations", 1, 1e9, &k) < 0 ||
                rv_workload_line_number(t, "n", 2, 20000, &n) < 0 ||
                rv_workload_line_number(t, "seconds", 0, 1e7, &secs) < 0 ||
                rv_workload_line_number(t, "gflops", 0, 1e7, &gf) < 0 ||
                rv_workload_line_number(t, "gflops_max", 0, 1e7, &gfmax) < 0 ||
                rv_workload_line_number(t, "resid_max", -1, 1e300, &resid) < 0)
                return BAD("not 'summary iterations K n N seconds S gflops G gflops_max G "
                           "resid_max R PASSED|FAILED'");
            if ((guint) k != iters)
                return BAD("summary counts %.0f iterations, the output has %u", k, iters);
            if (strcmp(t[13], "PASSED") != 0 || resid < 0)
                return BAD("the HPL residual check failed: resid_max %g is not below 16",
                           resid);
            if (gf > gfmax * (1 + 1e-6) + 1e-4)
                return BAD("gflops %g exceeds gflops_max %g", gf, gfmax);
            rv_workload_add_metric(&rv_workload_linpack, res->rec, "gflops", gf);
            rv_workload_add_metric(&rv_workload_linpack, res->rec, "gflops_max", gfmax);
            rv_workload_add_metric(&rv_workload_linpack, res->rec, "resid_max", resid);
            rv_workload_add_metric(&rv_workload_linpack, res->rec, "iterations", k);
            res->summary = g_strdup_printf("%.3g GFLOPS (N = %.0f)", gf, n);
            summary = true;
        } else {
            return BAD("unexpected '%.40s'", lines[i]);
        }
    }
    if (!summary)
        return rv_error_set(error, RV_ERROR_INVALID, EINVAL,
                            "%s: no 'summary' line (%u iterations): cut short?", name, iters);
    if (core) {
        g_autoptr(JsonBuilder) b = json_builder_new();
        g_autoptr(JsonNode) d = NULL;

        json_builder_begin_object(b);
        json_builder_set_member_name(b, "openblas_core");
        json_builder_add_string_value(b, core);
        json_builder_end_object(b);
        d = json_builder_get_root(b);
        rv_result_store_record_set_details(res->rec, d);
    }
    return 0;
}

const RvWorkloadOps rv_workload_linpack = {
    .name = "linpack",
    .description = "rtvirt-linpack: LU solves (LAPACK dgetrf + dgetrs on OpenBLAS), HPL residual "
                   "check, GFLOPS",
    .where = RV_WORKLOAD_NEIGHBOUR,
    .needs = needs,
    .keys = keys,
    .metrics = metrics,
    .max_output = 4u << 20,
    .argv = linpack_argv,
    .parse = linpack_parse,
};
