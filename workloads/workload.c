/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * workloads/workload.c: the table of workloads (see workloads/workload.h).
 */
#include <string.h>

#include "workloads/workload.h"

/* In the order `rtvirt-profiles(5)` lists them. */
static const RvWorkloadOps * const workloads[] = {
    &rv_workload_cyclictest,
    &rv_workload_pert,
    &rv_workload_hackbench,
    &rv_workload_stress,
    NULL,
};

const RvWorkloadOps * const *
rv_workload_all(void)
{
    return workloads;
}

const RvWorkloadOps *
rv_workload_find(const char *name)
{
    for (guint i = 0; name && workloads[i]; i++)
        if (strcmp(workloads[i]->name, name) == 0)
            return workloads[i];
    return NULL;
}

const RvWorkloadKey *
rv_workload_find_key(const char *key, const RvWorkloadOps **ret_ops)
{
    for (guint i = 0; key && workloads[i]; i++)
        for (const RvWorkloadKey *k = workloads[i]->keys; k && k->key; k++)
            if (strcmp(k->key, key) == 0) {
                if (ret_ops)
                    *ret_ops = workloads[i];
                return k;
            }
    return NULL;
}

const RvWorkloadMetric *
rv_workload_metric(const RvWorkloadOps *ops, const char *name)
{
    for (const RvWorkloadMetric *m = ops->metrics; m && m->name; m++)
        if (strcmp(m->name, name) == 0)
            return m;
    return NULL;
}

void
rv_workload_add_metric(const RvWorkloadOps *ops, RvStoreRecord *rec, const char *name,
                       double value)
{
    const RvWorkloadMetric *m = rv_workload_metric(ops, name);

    if (!m) {
        g_critical("workload %s declares no metric '%s'", ops->name, name);
        rv_result_store_record_add_metric(rec, name, value, NULL);
        return;
    }
    rv_result_store_record_add_metric_full(rec, m->name, value, m->unit, m->better,
                                           m->aggregate);
}

void
rv_workload_result_clear(RvWorkloadResult *res)
{
    if (res->findings)
        g_ptr_array_unref(res->findings);
    res->findings = NULL;
    g_clear_pointer(&res->summary, g_free);
}

const char *
rv_workload_where_name(RvWorkloadWhere where)
{
    switch (where) {
    case RV_WORKLOAD_RT_GUEST:
        return "rt";
    case RV_WORKLOAD_NEIGHBOUR:
        return "neighbour";
    case RV_WORKLOAD_HOST:
        return "host";
    }
    return "?";
}
