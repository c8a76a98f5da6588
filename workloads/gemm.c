/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * workloads/gemm.c: rtvirt-gemm (guest-tools/gemm.c), an OpenBLAS dgemm
 * load at gemm_threads threads for the duration; GFLOPS, and which
 * OpenBLAS kernel ran (details.openblas_core: "SkylakeX" is the AVX-512
 * one) and its build (details.openblas_config).
 */
#include <errno.h>
#include <string.h>

#include "util/error.h"
#include "workloads/workload.h"

static const char * const needs[] = { "rtvirt-gemm", NULL };

static const RvWorkloadKey keys[] = {
    { "gemm_threads", RV_WORKLOAD_PARAM_THREADS, 1, 1024, "dgemm threads (default 1)" },
    { "gemm_n", RV_WORKLOAD_PARAM_SIZE, 2, 20000, "matrix order N (default 256)" },
    { NULL },
};

static const RvWorkloadMetric metrics[] = {
    { "gflops", "GFLOPS", RV_STORE_BETTER_HIGHER, RV_STORE_AGGREGATE_HMEAN },
    { NULL },
};

static char **
gemm_argv(const RvWorkloadParams *p)
{
    g_autofree char *n = g_strdup_printf("%" G_GINT64_FORMAT, p->value[RV_WORKLOAD_PARAM_SIZE]
                                         ? p->value[RV_WORKLOAD_PARAM_SIZE] : 256);
    g_autofree char *threads = g_strdup_printf("%" G_GINT64_FORMAT,
                                               p->value[RV_WORKLOAD_PARAM_THREADS]
                                               ? p->value[RV_WORKLOAD_PARAM_THREADS] : 1);
    g_autofree char *secs = g_strdup_printf("%.3f", (double) p->duration_us / G_USEC_PER_SEC);

    return g_strdupv((char *[]) { "rtvirt-gemm", "-n", n, "-T", threads, "-t", secs, NULL });
}

static int
gemm_parse(const RvWorkloadParams *p, const char *name, const char *out, gsize len,
           RvWorkloadResult *res, GError **error)
{
    g_auto(GStrv) lines = NULL;
    const char *core = NULL, *config = NULL;
    double gf = -1, n = 0, threads = 0;
    int r = rv_workload_output_lines(name, out, len, &lines, error);

    (void) p;
    if (r < 0)
        return r;
    for (guint i = 0; lines[i]; i++) {
        const char *l = lines[i];

        if (g_str_has_prefix(l, "core ") && !core && strlen(l) < 5 + 64) {
            core = l + 5;
        } else if (g_str_has_prefix(l, "config ") && !config && strlen(l) < 7 + 512) {
            config = l + 7;
        } else if (g_str_has_prefix(l, "gemm ") && gf < 0) {
            g_auto(GStrv) t = rv_workload_tokens(l);
            double k, secs;

            if (g_strv_length(t) != 11 ||
                rv_workload_line_number(t, "n", 2, 20000, &n) < 0 ||
                rv_workload_line_number(t, "threads", 1, 1024, &threads) < 0 ||
                rv_workload_line_number(t, "iterations", 1, 1e12, &k) < 0 ||
                rv_workload_line_number(t, "seconds", 0, 1e7, &secs) < 0 ||
                rv_workload_line_number(t, "gflops", 0, 1e7, &gf) < 0)
                return rv_error_set(error, RV_ERROR_INVALID, EINVAL,
                                    "%s: line %u: not 'gemm n N threads T iterations K seconds "
                                    "S gflops G'", name, i + 1);
        } else {
            return rv_error_set(error, RV_ERROR_INVALID, EINVAL, "%s: line %u: unexpected "
                                "'%.40s'", name, i + 1, l);
        }
    }
    if (gf < 0 || !core)
        return rv_error_set(error, RV_ERROR_INVALID, EINVAL,
                            "%s: no '%s' line: cut short?", name, core ? "gemm" : "core");
    rv_workload_add_metric(&rv_workload_gemm, res->rec, "gflops", gf);
    {
        g_autoptr(JsonBuilder) b = json_builder_new();
        g_autoptr(JsonNode) d = NULL;

        json_builder_begin_object(b);
        json_builder_set_member_name(b, "openblas_core");
        json_builder_add_string_value(b, core);
        json_builder_set_member_name(b, "openblas_config");
        json_builder_add_string_value(b, config ? config : "");
        json_builder_set_member_name(b, "threads");
        json_builder_add_int_value(b, (gint64) threads);
        json_builder_set_member_name(b, "n");
        json_builder_add_int_value(b, (gint64) n);
        json_builder_end_object(b);
        d = json_builder_get_root(b);
        rv_result_store_record_set_details(res->rec, d);
    }
    res->summary = g_strdup_printf("%.3g GFLOPS dgemm (%s)", gf, core);
    return 0;
}

const RvWorkloadOps rv_workload_gemm = {
    .name = "gemm",
    .description = "rtvirt-gemm: OpenBLAS dgemm at gemm_threads threads, GFLOPS and the kernel",
    .where = RV_WORKLOAD_NEIGHBOUR,
    .needs = needs,
    .keys = keys,
    .metrics = metrics,
    .max_output = 64u << 10,
    .argv = gemm_argv,
    .parse = gemm_parse,
};
