/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * results/cosched.c: co-scheduling stats per VM from sched_switch
 * timelines (see results/cosched.h).
 */
#include <errno.h>
#include <math.h>
#include <string.h>

#include "results/cosched.h"
#include "results/attribution.h"
#include "results/stats.h"
#include "results/store.h"
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

void
rv_result_cosched_summary_free(RvCoschedSummary *s)
{
    if (!s)
        return;
    g_free(s->vm);
    g_free(s);
}

/* A share member of a stored VM entry: a number in 0..100, else false. */
static bool
share_member(JsonObject *v, const char *name, double *ret)
{
    JsonNode *n = json_object_get_member(v, name);
    GType t;

    if (!n || !JSON_NODE_HOLDS_VALUE(n))
        return false;
    t = json_node_get_value_type(n);
    if (t != G_TYPE_DOUBLE && t != G_TYPE_INT64)
        return false;
    *ret = json_node_get_double(n);
    return *ret >= 0 && *ret <= 100;
}

typedef struct {
    RvCoschedSummary *s;
    GArray *foreign;         /* double per repetition */
} Acc;

GPtrArray *
rv_result_cosched_scenario(GPtrArray *records, const char *scenario, const char **ret_skipped)
{
    GPtrArray *out = g_ptr_array_new_with_free_func((GDestroyNotify) rv_result_cosched_summary_free);
    g_autoptr(GArray) acc = g_array_new(FALSE, FALSE, sizeof(Acc));

    if (ret_skipped)
        *ret_skipped = NULL;
    for (guint i = 0; records && i < records->len; i++) {
        const RvStoreRecord *r = records->pdata[i];
        JsonObject *co;
        JsonNode *node;
        JsonArray *vms;

        if (g_strcmp0(r->scenario, scenario) != 0 || g_strcmp0(r->workload, "host-counters") != 0 ||
            !r->details || !JSON_NODE_HOLDS_OBJECT(r->details))
            continue;
        node = json_object_get_member(json_node_get_object(r->details), "cosched");
        if (!node || !JSON_NODE_HOLDS_OBJECT(node))
            continue;
        co = json_node_get_object(node);
        node = json_object_get_member(co, "skipped");
        if (node && JSON_NODE_HOLDS_VALUE(node) && json_node_get_value_type(node) == G_TYPE_STRING &&
            ret_skipped && !*ret_skipped)
            *ret_skipped = json_node_get_string(node);
        node = json_object_get_member(co, "vms");
        if (!node || !JSON_NODE_HOLDS_ARRAY(node))
            continue;
        vms = json_node_get_array(node);
        for (guint k = 0; k < json_array_get_length(vms); k++) {
            JsonNode *e = json_array_get_element(vms, k);
            JsonObject *v;
            JsonNode *name;
            double same, idle, foreign, unknown, run = 0;
            Acc *a = NULL;

            if (!JSON_NODE_HOLDS_OBJECT(e))
                continue;
            v = json_node_get_object(e);
            name = json_object_get_member(v, "name");
            if (!name || !JSON_NODE_HOLDS_VALUE(name) ||
                json_node_get_value_type(name) != G_TYPE_STRING ||
                !share_member(v, "same_pct", &same) || !share_member(v, "idle_pct", &idle) ||
                !share_member(v, "foreign_pct", &foreign) ||
                !share_member(v, "unknown_pct", &unknown))
                continue;
            node = json_object_get_member(v, "run_s");
            if (node && JSON_NODE_HOLDS_VALUE(node) &&
                (json_node_get_value_type(node) == G_TYPE_DOUBLE ||
                 json_node_get_value_type(node) == G_TYPE_INT64))
                run = json_node_get_double(node);
            for (guint j = 0; j < acc->len && !a; j++)
                if (g_str_equal(g_array_index(acc, Acc, j).s->vm, json_node_get_string(name)))
                    a = &g_array_index(acc, Acc, j);
            if (!a) {
                Acc n = { g_new0(RvCoschedSummary, 1), g_array_new(FALSE, FALSE, sizeof(double)) };

                n.s->vm = g_strdup(json_node_get_string(name));
                g_ptr_array_add(out, n.s);
                g_array_append_val(acc, n);
                a = &g_array_index(acc, Acc, acc->len - 1);
            }
            a->s->n++;
            a->s->same_pct += same;
            a->s->idle_pct += idle;
            a->s->foreign_pct += foreign;
            a->s->unknown_pct += unknown;
            a->s->run_s += run;
            g_array_append_val(a->foreign, foreign);
        }
    }
    for (guint j = 0; j < acc->len; j++) {
        Acc *a = &g_array_index(acc, Acc, j);
        RvStatsSummary st;

        a->s->same_pct /= a->s->n;
        a->s->idle_pct /= a->s->n;
        a->s->foreign_pct /= a->s->n;
        a->s->unknown_pct /= a->s->n;
        a->s->run_s /= a->s->n;
        a->s->foreign_sd = rv_result_stats_summary((double *) (void *) a->foreign->data,
                                                   a->foreign->len, &st, NULL) == 0
                               ? st.stddev : NAN;
        g_array_unref(a->foreign);
    }
    return out;
}
