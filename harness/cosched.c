/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * harness/cosched.c: co-scheduling stats of one repetition
 * (harness/cosched.h).
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "harness/cosched.h"
#include "host/trace/attrtrace.h"
#include "host/facts/threads.h"
#include "host/tune/coresched.h"
#include "host/facts/topology.h"
#include "results/attribution.h"
#include "results/cosched.h"
#include "util/error.h"

#define COSCHED_MAX_TRACE_BYTES (64u << 20)

static const char *const cosched_events[] = { "sched/sched_switch", NULL };

typedef struct {
    char *name;
    pid_t pid;
    GArray *tids;             /* pid_t: listed at start, then at stop */
    double forceidle0_ms;     /* sum over @tids at start; < 0: not reported */
    double forceidle_ms;      /* delta over the window; < 0: not reported */
} CoVm;

struct RvHarnessCosched {
    RvRoot *root;
    char *skip;
    char *cpus;               /* traced CPUs, cpulist */
    char *siblings;           /* how the sibling map was made */
    int *sibling;             /* [n_cpus] */
    guint n_cpus;
    guint buffer_kb;
    RvAttrTrace *trace;
    GArray *vms;              /* CoVm */
    guint64 start_ns, end_ns; /* CLOCK_MONOTONIC (the trace's "mono") */
    guint64 overrun;
    guint lost, n_events;
    gboolean truncated;
    RvCoschedShare *share;    /* [vms->len] once computed */
};

static void
covm_clear(gpointer p)
{
    CoVm *v = p;

    g_free(v->name);
    if (v->tids)
        g_array_unref(v->tids);
}

void
rv_harness_cosched_free(RvHarnessCosched *c)
{
    if (!c)
        return;
    rv_host_attrtrace_free(c->trace);
    g_free(c->skip);
    g_free(c->cpus);
    g_free(c->siblings);
    g_free(c->sibling);
    if (c->vms)
        g_array_unref(c->vms);
    g_free(c->share);
    g_free(c);
}

const char *
rv_harness_cosched_skip_reason(const RvHarnessCosched *c)
{
    return c->skip;
}

/* The test hook's "A:B,C:D" into @c->sibling; false for a malformed one. */
static bool
parse_pairs(RvHarnessCosched *c, const char *spec)
{
    g_auto(GStrv) pairs = g_strsplit(spec, ",", -1);

    for (guint i = 0; pairs[i]; i++) {
        char *end;
        unsigned long a = strtoul(pairs[i], &end, 10), b;

        if (*end != ':')
            return false;
        b = strtoul(end + 1, &end, 10);
        if (*end || a >= c->n_cpus || b >= c->n_cpus || a == b)
            return false;
        c->sibling[a] = (int) b;
        c->sibling[b] = (int) a;
    }
    return true;
}

/* Sum of core_forceidle_sum (ms) over @tids from /proc/TID/sched; -1 when
 * no thread reports it (kernel without CONFIG_SCHED_CORE, schedstats off). */
static double
forceidle_ms(RvRoot *root, const GArray *tids)
{
    double sum = 0;
    bool any = false;

    for (guint i = 0; i < tids->len; i++) {
        g_autofree char *p = g_strdup_printf("/proc/%d/sched", (int) g_array_index(tids, pid_t, i));
        g_autofree char *text = NULL;
        const char *l;

        if (rv_host_root_read(root, p, &text, NULL) < 0 ||
            !(l = strstr(text, "\ncore_forceidle_sum")) || !(l = strchr(l, ':')))
            continue;
        sum += g_ascii_strtod(l + 1, NULL);
        any = true;
    }
    return any ? sum : -1;
}

/* The VM's threads now, merged into v->tids. */
static void
list_threads(RvHarnessCosched *c, CoVm *v)
{
    g_autoptr(GArray) now = NULL;

    if (rv_host_process_threads_list(c->root, v->pid, &now, NULL, NULL) < 0)
        return;
    for (guint i = 0; i < now->len; i++) {
        pid_t t = g_array_index(now, pid_t, i);
        bool have = false;

        for (guint j = 0; j < v->tids->len && !have; j++)
            have = g_array_index(v->tids, pid_t, j) == t;
        if (!have)
            g_array_append_val(v->tids, t);
    }
}

RvHarnessCosched *
rv_harness_cosched_start(RvRoot *root, const char *const *names, const pid_t *pids,
                         guint n_vms, guint64 duration_us)
{
    RvHarnessCosched *c = g_new0(RvHarnessCosched, 1);
    g_autoptr(RvTopology) topo = NULL;
    g_autoptr(GError) err = NULL;
    const char *pairs = g_getenv(RV_HARNESS_COSCHED_PAIRS_ENV);
    guint64 secs = duration_us / G_USEC_PER_SEC + 2;
    guint with;

    c->root = root;
    c->vms = g_array_new(FALSE, TRUE, sizeof(CoVm));
    g_array_set_clear_func(c->vms, covm_clear);
    for (guint i = 0; i < n_vms; i++) {
        CoVm v = { .name = g_strdup(names[i]), .pid = pids[i],
                   .tids = g_array_new(FALSE, FALSE, sizeof(pid_t)) };

        if (pids[i] <= 0) {
            covm_clear(&v);
            continue;
        }
        g_array_append_val(c->vms, v);
        list_threads(c, &g_array_index(c->vms, CoVm, c->vms->len - 1));
    }
    if (c->vms->len == 0) {
        c->skip = g_strdup("no VM with a known QEMU process");
        return c;
    }
    if (rv_host_topology_load(root, &topo, &err) < 0) {
        c->skip = g_strdup_printf("host topology unknown: %s", err->message);
        return c;
    }
    c->n_cpus = topo->nr_cpu_ids;
    c->sibling = g_new(int, c->n_cpus + 1);
    with = rv_host_topology_sibling_map(topo, c->sibling, c->n_cpus);
    c->siblings = g_strdup("host topology (thread_siblings_list)");
    if (pairs && *pairs) {
        for (guint i = 0; i < c->n_cpus; i++)
            c->sibling[i] = -1;
        if (!parse_pairs(c, pairs)) {
            c->skip = g_strdup_printf("%s='%s': not CPU:CPU pairs of CPUs below %u",
                                      RV_HARNESS_COSCHED_PAIRS_ENV, pairs, c->n_cpus);
            return c;
        }
        g_free(c->siblings);
        c->siblings = g_strdup_printf("%s=%s (a test's pretended pairs, not the host's SMT: "
                                      "no co-scheduling figure)", RV_HARNESS_COSCHED_PAIRS_ENV,
                                      pairs);
        with = 1;
    }
    if (with == 0) {
        c->skip = g_strdup(topo->smt ? "SMT is off: no CPU has an online sibling"
                                     : "host has no SMT: no sibling shares a core");
        return c;
    }
    c->cpus = rv_cpulist_format(&topo->online);
    /* sched_switch only: a busy CPU switches some 10^4 times a second,
     * ~50 bytes each in the ring buffer */
    c->buffer_kb = (guint) CLAMP(secs * 512, (guint64) 1024, (guint64) 32768);
    for (guint i = 0; i < c->vms->len; i++) {
        CoVm *v = &g_array_index(c->vms, CoVm, i);

        v->forceidle0_ms = forceidle_ms(root, v->tids);
    }
    c->start_ns = (guint64) g_get_monotonic_time() * 1000;
    if (rv_host_attrtrace_start_instance(root, RV_HARNESS_COSCHED_INSTANCE, cosched_events,
                                         &topo->online, c->buffer_kb, &c->trace, &err) < 0)
        c->skip = g_strdup_printf("sched_switch trace not taken: %s", err->message);
    else if (*rv_host_attrtrace_unavailable(c->trace))
        c->skip = g_strdup_printf("this kernel has no tracepoint %s",
                                  rv_host_attrtrace_unavailable(c->trace));
    if (c->skip)
        g_clear_pointer(&c->trace, rv_host_attrtrace_free);
    return c;
}

/* With events lost to the ring buffer's overwrite, a CPU's timeline starts
 * at its first kept event: the window starts at the latest such start. */
static guint64
first_full_ns(const GArray *ev, guint n_cpus, guint64 start_ns)
{
    g_autofree guint64 *first = g_new0(guint64, n_cpus + 1);
    guint64 latest = start_ns;

    for (guint i = 0; i < ev->len; i++) {
        const RvAttrEvent *e = &g_array_index(ev, RvAttrEvent, i);

        if (e->cpu < n_cpus && !first[e->cpu])
            first[e->cpu] = e->ts_ns;
    }
    for (guint c = 0; c < n_cpus; c++)
        latest = MAX(latest, first[c]);
    return latest;
}

void
rv_harness_cosched_stop(RvHarnessCosched *c)
{
    g_autoptr(GError) err = NULL;
    g_autoptr(GArray) ev = NULL;
    g_autoptr(GHashTable) tid_vm = NULL;
    g_autofree char *text = NULL;
    guint64 start;

    if (!c->trace)
        return;
    c->end_ns = (guint64) g_get_monotonic_time() * 1000;
    if (rv_host_attrtrace_stop(c->trace, COSCHED_MAX_TRACE_BYTES, &text, &c->overrun,
                               &c->truncated, &err) < 0) {
        c->skip = g_strdup_printf("sched_switch trace not read: %s", err->message);
        goto out;
    }
    if (rv_result_attr_parse_trace(text, &ev, &c->lost, &err) < 0) {
        c->skip = g_strdup_printf("sched_switch trace refused: %s", err->message);
        goto out;
    }
    c->n_events = ev->len;
    if (c->truncated) {
        /* the text is in time order per CPU only up to the cut */
        c->skip = g_strdup_printf("sched_switch trace over %u MiB: not analysed",
                                  COSCHED_MAX_TRACE_BYTES >> 20);
        goto out;
    }
    tid_vm = g_hash_table_new(NULL, NULL);
    for (guint i = 0; i < c->vms->len; i++) {
        CoVm *v = &g_array_index(c->vms, CoVm, i);
        double fi;

        list_threads(c, v);
        for (guint j = 0; j < v->tids->len; j++)
            g_hash_table_insert(tid_vm, GINT_TO_POINTER(g_array_index(v->tids, pid_t, j)),
                                GUINT_TO_POINTER(i + 1));
        fi = forceidle_ms(c->root, v->tids);
        v->forceidle_ms = v->forceidle0_ms >= 0 && fi >= 0 ? MAX(fi - v->forceidle0_ms, 0) : -1;
    }
    /* tracefs prints each CPU's events in order and merges the CPUs by
     * time: results/cosched.c wants them in time order, as printed */
    start = c->overrun || c->lost ? first_full_ns(ev, c->n_cpus, c->start_ns) : c->start_ns;
    c->share = g_new0(RvCoschedShare, c->vms->len);
    if (rv_result_cosched_compute(ev, c->sibling, c->n_cpus, tid_vm, c->vms->len,
                                  MIN(start, c->end_ns), c->end_ns, c->share, &err) < 0) {
        c->skip = g_strdup_printf("sched_switch trace refused: %s", err->message);
        g_clear_pointer(&c->share, g_free);
    } else {
        c->start_ns = MIN(start, c->end_ns);
    }
out:
    g_clear_pointer(&c->trace, rv_host_attrtrace_free);
}

static void
add_pct(JsonBuilder *b, const char *name, guint64 part, guint64 run)
{
    json_builder_set_member_name(b, name);
    json_builder_add_double_value(b, rv_result_cosched_pct(part, run));
}

JsonNode *
rv_harness_cosched_json(const RvHarnessCosched *c)
{
    g_autoptr(JsonBuilder) b = json_builder_new();
    bool fi_missing = false;

    json_builder_begin_object(b);
    if (c->skip || !c->share) {
        json_builder_set_member_name(b, "skipped");
        json_builder_add_string_value(b, c->skip ? c->skip : "not measured (interrupted)");
        json_builder_end_object(b);
        return json_builder_get_root(b);
    }
    json_builder_set_member_name(b, "window_s");
    json_builder_add_double_value(b, (double) (c->end_ns - c->start_ns) / 1e9);
    json_builder_set_member_name(b, "siblings");
    json_builder_add_string_value(b, c->siblings);
    json_builder_set_member_name(b, "trace");
    json_builder_begin_object(b);
    json_builder_set_member_name(b, "instance");
    json_builder_add_string_value(b, "instances/" RV_HARNESS_COSCHED_INSTANCE);
    json_builder_set_member_name(b, "cpus");
    json_builder_add_string_value(b, c->cpus);
    json_builder_set_member_name(b, "buffer_kb");
    json_builder_add_int_value(b, c->buffer_kb);
    json_builder_set_member_name(b, "events");
    json_builder_add_int_value(b, c->n_events);
    json_builder_set_member_name(b, "overrun");
    json_builder_add_int_value(b, (gint64) c->overrun);
    json_builder_set_member_name(b, "lost");
    json_builder_add_int_value(b, c->lost);
    json_builder_end_object(b);
    json_builder_set_member_name(b, "vms");
    json_builder_begin_array(b);
    for (guint i = 0; i < c->vms->len; i++) {
        const CoVm *v = &g_array_index(c->vms, CoVm, i);
        const RvCoschedShare *s = &c->share[i];

        json_builder_begin_object(b);
        json_builder_set_member_name(b, "name");
        json_builder_add_string_value(b, v->name);
        json_builder_set_member_name(b, "pid");
        json_builder_add_int_value(b, v->pid);
        json_builder_set_member_name(b, "threads");
        json_builder_add_int_value(b, v->tids->len);
        json_builder_set_member_name(b, "run_s");
        json_builder_add_double_value(b, (double) s->run_ns / 1e9);
        add_pct(b, "same_pct", s->same_ns, s->run_ns);
        add_pct(b, "idle_pct", s->idle_ns, s->run_ns);
        add_pct(b, "foreign_pct", s->foreign_ns, s->run_ns);
        add_pct(b, "unknown_pct", s->unknown_ns, s->run_ns);
        json_builder_set_member_name(b, "forceidle_ms");
        if (v->forceidle_ms >= 0) {
            json_builder_add_double_value(b, v->forceidle_ms);
        } else {
            json_builder_add_null_value(b);
            fi_missing = true;
        }
        json_builder_end_object(b);
    }
    json_builder_end_array(b);
    if (fi_missing) {
        json_builder_set_member_name(b, "forceidle_note");
        json_builder_add_string_value(b, "/proc/TID/sched has no core_forceidle_sum: kernel "
                                         "without CONFIG_SCHED_CORE, or kernel.sched_schedstats "
                                         "is 0 (rtvirt does not turn it on)");
    }
    json_builder_end_object(b);
    return json_builder_get_root(b);
}
