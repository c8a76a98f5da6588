/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * workloads/pert.c: `rtvirt pert` (harness/cmd-pert.c), the perturbation
 * probe, on one host CPU: this same binary run as a program so that its
 * spin loop owns the CPU; its JSON (results/pert.h) is the result.
 */
#include "results/pert.h"
#include "workloads/workload.h"

static const char * const needs[] = { "rtvirt-pert", NULL };

static char **
pert_argv(const RvWorkloadParams *p)
{
    g_autofree char *cpu = g_strdup_printf("%d", rv_cpuset_next(&p->cpus, 0));
    g_autofree char *dur = g_strdup_printf("%" G_GUINT64_FORMAT "ms", p->duration_us / 1000);

    return g_strdupv((char *[]) { (char *) (p->self ? p->self : "rtvirt"), "pert", "--cpu",
                                  cpu, "--duration", dur, "--output",
                                  (char *) (p->output_path ? p->output_path : "-"), NULL });
}

static int
pert_parse(const RvWorkloadParams *p, const char *name, const char *out, gsize len,
           RvWorkloadResult *res, GError **error)
{
    (void) p;
    /* the probe's JSON may come from inside a guest: untrusted, read by
     * the store's value rules */
    return rv_result_pert_record_add(res->rec, name, out, len, error);
}

const RvWorkloadOps rv_workload_pert = {
    .name = "pert",
    .description = "rtvirt pert: perturbations (stolen time) seen by a spin loop on each host CPU",
    .where = RV_WORKLOAD_HOST,
    .needs = needs,
    .max_output = 8u << 20,
    .result_in_file = true,
    .argv = pert_argv,
    .parse = pert_parse,
};
