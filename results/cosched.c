/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * results/cosched.c: co-scheduling stats per VM from sched_switch
 * timelines (see results/cosched.h).
 */
#include <errno.h>
#include <string.h>

#include "results/cosched.h"
#include "results/attribution.h"
#include "util/error.h"

#define RV_CS_UNKNOWN ((pid_t)-1)

static guint
vm_of(GHashTable *tid_vm, pid_t pid)
{
    if (pid <= 0)
        return 0;
    return GPOINTER_TO_UINT(g_hash_table_lookup(tid_vm, GINT_TO_POINTER(pid)));
}

/* Charge [t0, t1) of every CPU running a VM thread to that VM. */
static void
charge(const pid_t *cur, const int *sibling, guint n_cpus, GHashTable *tid_vm,
       guint64 t0, guint64 t1, RvCoschedShare *ret)
{
    guint64 d = t1 - t0;

    if (d == 0)
        return;
    for (guint c = 0; c < n_cpus; c++) {
        guint v = cur[c] == RV_CS_UNKNOWN ? 0 : vm_of(tid_vm, cur[c]);
        RvCoschedShare *s;
        pid_t other;

        if (v == 0)
            continue;
        s = &ret[v - 1];
        s->run_ns += d;
        other = sibling[c] < 0 || (guint)sibling[c] >= n_cpus ? RV_CS_UNKNOWN
                                                              : cur[sibling[c]];
        if (other == RV_CS_UNKNOWN)
            s->unknown_ns += d;
        else if (other == 0)
            s->idle_ns += d;
        else if (vm_of(tid_vm, other) == v)
            s->same_ns += d;
        else
            s->foreign_ns += d;
    }
}

static int
check_vms(GHashTable *tid_vm, guint n_vms, GError **error)
{
    GHashTableIter it;
    gpointer k, v;

    g_hash_table_iter_init(&it, tid_vm);
    while (g_hash_table_iter_next(&it, &k, &v))
        if (GPOINTER_TO_UINT(v) == 0 || GPOINTER_TO_UINT(v) > n_vms)
            return rv_error_set(error, RV_ERROR_INVALID, EINVAL,
                                "cosched: thread %d maps to VM %u of %u",
                                GPOINTER_TO_INT(k), GPOINTER_TO_UINT(v), n_vms);
    return 0;
}

int
rv_result_cosched_compute(const GArray *events, const int *sibling, guint n_cpus,
                          GHashTable *tid_vm, guint n_vms, guint64 start_ns,
                          guint64 end_ns, RvCoschedShare *ret, GError **error)
{
    g_autofree pid_t *cur = g_new(pid_t, n_cpus ? n_cpus : 1);
    guint64 now = start_ns, last = 0;
    int r;

    memset(ret, 0, sizeof(*ret) * n_vms);
    if (end_ns < start_ns)
        return rv_error_set(error, RV_ERROR_INVALID, EINVAL,
                            "cosched: window end %" G_GUINT64_FORMAT " ns before start %"
                            G_GUINT64_FORMAT " ns", end_ns, start_ns);
    if ((r = check_vms(tid_vm, n_vms, error)) < 0)
        return r;
    for (guint c = 0; c < n_cpus; c++)
        cur[c] = RV_CS_UNKNOWN;
    /* Initial state: the prev_pid of each CPU's first switch. */
    for (guint i = 0; i < events->len; i++) {
        const RvAttrEvent *e = &g_array_index(events, RvAttrEvent, i);

        if (e->kind != RV_ATTR_SWITCH)
            continue;
        if (e->cpu >= n_cpus)
            return rv_error_set(error, RV_ERROR_INVALID, EINVAL,
                                "cosched: event %u on CPU %u of %u", i, e->cpu, n_cpus);
        if (e->ts_ns < last)
            return rv_error_set(error, RV_ERROR_INVALID, EINVAL,
                                "cosched: event %u at %" G_GUINT64_FORMAT
                                " ns before the previous one", i, e->ts_ns);
        last = e->ts_ns;
        if (cur[e->cpu] == RV_CS_UNKNOWN)
            cur[e->cpu] = e->prev_pid;
    }
    for (guint i = 0; i < events->len; i++) {
        const RvAttrEvent *e = &g_array_index(events, RvAttrEvent, i);
        guint64 t = CLAMP(e->ts_ns, start_ns, end_ns);

        if (e->kind != RV_ATTR_SWITCH)
            continue;
        charge(cur, sibling, n_cpus, tid_vm, now, t, ret);
        now = t;
        cur[e->cpu] = e->next_pid;
    }
    charge(cur, sibling, n_cpus, tid_vm, now, end_ns, ret);
    return 0;
}

double
rv_result_cosched_pct(guint64 part, guint64 run_ns)
{
    return run_ns ? 100.0 * (double)part / (double)run_ns : 0.0;
}
