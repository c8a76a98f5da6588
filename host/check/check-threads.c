/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * host/check/check-threads.c: `host check` judges of threads: kernel thread
 * priorities the profile names ([kthreads]) and user threads that run on
 * isolated CPUs (host/check/check-priv.h), from host/facts/threads.h's facts.
 *
 * Ids: kthread.priority  kthread.absent  isolation.stray-tasks
 *      isolation.stray-kthreads  isolation.threads-stacked
 *
 * Sources: Documentation/admin-guide/kernel-per-CPU-kthreads.rst, tuned
 * v2.28 realtime ([scheduler] isolated_cores moves user threads off).
 */
#include <sched.h>
#include <string.h>

#include "host/check/check-priv.h"

static void check_stray_kthreads(RvCheckCtx *c, const GArray *ts);
static void check_stacked_threads(RvCheckCtx *c, const GArray *ts);

/* User threads that last ran on an isolated CPU although their affinity
 * also allows housekeeping CPUs: not placed there on purpose (a vCPU pinned
 * to isolated CPUs is), so the isolation leaks (tuned realtime's
 * [scheduler] isolated_cores moves them off). */
void
rv_check_stray_tasks(RvCheckCtx *c)
{
    const GArray *ts = c->facts->on_isolated;
    g_autoptr(GString) list = g_string_new(NULL);
    RvCpuSet hit;
    unsigned n = 0;

    if (rv_cpuset_is_empty(&c->iso_actual) || !ts)
        return;
    rv_cpuset_zero(&hit);
    for (guint i = 0; i < ts->len; i++) {
        const RvTask *t = &g_array_index(ts, RvTask, i);

        if (t->kthread || (t->has_affinity && rv_cpuset_is_subset(&t->affinity, &c->iso_actual)))
            continue;
        n++;
        rv_cpuset_set(&hit, t->last_cpu);
        if (n <= 8)
            g_string_append_printf(list, "%s%s(%d) on CPU %d", list->len ? ", " : "", t->comm,
                                   t->pid, t->last_cpu);
    }
    if (n) {
        g_autofree char *h = rv_check_fmt_cpus(&hit);
        rv_findings_add(c->rep->findings, RV_FINDING_WARN, "isolation.stray-tasks", &hit, NULL, list->str,
                        "restrict their affinity to housekeeping CPUs (taskset -a -p), or boot with "
                        "isolcpus= (domain) so the scheduler does not place them there",
                        "%u user thread(s) last ran on isolated CPUs %s though their affinity also allows "
                        "housekeeping CPUs: %s%s", n, h, list->str, n > 8 ? ", ..." : "");
    }
    check_stray_kthreads(c, ts);
    check_stacked_threads(c, ts);
}

/* Kernel threads that are not bound to one CPU (unbound kworkers, kcompactd,
 * khugepaged...) and last ran on an isolated CPU: isolcpus=domain keeps the
 * scheduler from placing them there, nohz_full/rcu_nocbs alone do not, and
 * the workqueue cpumask (/sys/devices/virtual/workqueue/cpumask) decides for
 * unbound kworkers (Documentation/admin-guide/kernel-per-CPU-kthreads.rst).
 * Per-CPU kthreads bound to that one CPU (ksoftirqd/N) belong there. */
static void
check_stray_kthreads(RvCheckCtx *c, const GArray *ts)
{
    g_autoptr(GString) list = g_string_new(NULL);
    RvCpuSet hit;
    unsigned n = 0;

    rv_cpuset_zero(&hit);
    for (guint i = 0; i < ts->len; i++) {
        const RvTask *t = &g_array_index(ts, RvTask, i);

        if (!t->kthread || !t->has_affinity || rv_cpuset_count(&t->affinity) <= 1)
            continue;
        n++;
        rv_cpuset_set(&hit, t->last_cpu);
        if (n <= 8)
            g_string_append_printf(list, "%s%s(%d) on CPU %d (allowed %s)", list->len ? ", " : "",
                                   t->comm, t->pid, t->last_cpu,
                                   t->affinity_list ? t->affinity_list : "?");
    }
    if (n) {
        g_autofree char *h = rv_check_fmt_cpus(&hit);
        rv_findings_add(c->rep->findings, RV_FINDING_WARN, "isolation.stray-kthreads", &hit, NULL, list->str,
                        "keep unbound kernel threads on housekeeping CPUs: isolcpus=domain,managed_irq, "
                        "the workqueue cpumask (/sys/devices/virtual/workqueue/cpumask = housekeeping) "
                        "and taskset for kthreads that allow it",
                        "%u unbound kernel thread(s) last ran on isolated CPUs %s: %s%s", n, h,
                        list->str, n > 8 ? ", ..." : "");
    }
}

/* Threads of one process whose affinity spans more than one isolated CPU
 * and which ran on the same one: the scheduler does not balance load
 * between isolated CPUs (isolcpus=domain takes them out of the sched
 * domains), so such threads stay stacked on the CPU they started on. */
static void
check_stacked_threads(RvCheckCtx *c, const GArray *ts)
{
    g_autoptr(GHashTable) seen = g_hash_table_new_full(g_str_hash, g_str_equal, g_free, NULL);
    g_autoptr(GString) list = g_string_new(NULL);
    RvCpuSet hit;
    unsigned groups = 0;

    rv_cpuset_zero(&hit);
    for (guint i = 0; i < ts->len; i++) {
        const RvTask *a = &g_array_index(ts, RvTask, i);
        g_autoptr(GString) names = NULL;
        RvCpuSet span;
        unsigned same = 1;
        char *key;

        if (a->kthread || !a->has_affinity)
            continue;
        rv_cpuset_and(&span, &a->affinity, &c->iso_actual);
        if (rv_cpuset_count(&span) < 2)
            continue;
        key = g_strdup_printf("%d/%d", a->tgid, a->last_cpu);
        if (!g_hash_table_add(seen, key))
            continue;
        names = g_string_new(NULL);
        g_string_append_printf(names, "%s(%d)", a->comm, a->pid);
        for (guint k = i + 1; k < ts->len; k++) {
            const RvTask *b = &g_array_index(ts, RvTask, k);
            RvCpuSet bspan;

            if (b->kthread || !b->has_affinity || b->tgid != a->tgid || b->last_cpu != a->last_cpu)
                continue;
            rv_cpuset_and(&bspan, &b->affinity, &c->iso_actual);
            if (rv_cpuset_count(&bspan) < 2)
                continue;
            same++;
            if (same <= 8)
                g_string_append_printf(names, ", %s(%d)", b->comm, b->pid);
        }
        if (same < 2)
            continue;
        groups++;
        rv_cpuset_set(&hit, a->last_cpu);
        g_autofree char *aff = rv_check_fmt_cpus(&a->affinity);
        g_string_append_printf(list, "%s%u threads of process %d all on CPU %d (allowed %s): %s",
                               list->len ? "; " : "", same, a->tgid, a->last_cpu, aff, names->str);
    }
    if (groups) {
        g_autofree char *h = rv_check_fmt_cpus(&hit);
        rv_findings_add(c->rep->findings, RV_FINDING_FAIL, "isolation.threads-stacked", &hit, NULL, list->str,
                        "pin each thread 1:1 to its own isolated CPU (libvirt <vcpupin> per vCPU, "
                        "taskset -p CPU TID per thread): isolated CPUs are not load-balanced",
                        "threads whose affinity spans several isolated CPUs ran stacked on isolated CPU "
                        "%s: %s", h, list->str);
    }
}

static char *
sched_name(int policy, int prio)
{
    switch (policy) {
    case SCHED_FIFO: return g_strdup_printf("fifo:%d", prio);
    case SCHED_RR: return g_strdup_printf("rr:%d", prio);
    case SCHED_OTHER: return g_strdup("other");
    case SCHED_BATCH: return g_strdup("batch");
    case SCHED_IDLE: return g_strdup("idle");
    default: return g_strdup_printf("policy%d:%d", policy, prio);
    }
}

static bool
kthread_matches(const char *comm, const char *name)
{
    size_t n = strlen(name);

    return strncmp(comm, name, n) == 0 && (comm[n] == '\0' || comm[n] == '/');
}

void
rv_check_kthreads(RvCheckCtx *c)
{
    GArray *kts;

    if (c->p->kthreads->len == 0)
        return;
    kts = c->facts->tasks;
    if (kts->len == 0) {
        rv_findings_add(c->rep->findings, RV_FINDING_NOTE, "kthread.priority", NULL, NULL, "unknown", NULL,
                        "no kernel threads readable under /proc: priorities not checked");
        return;
    }
    for (guint i = 0; i < c->p->kthreads->len; i++) {
        const RvHostKthreadPrio *want = c->p->kthreads->pdata[i];
        g_autofree char *w = sched_name(want->policy, want->priority);
        g_autoptr(GString) wrong = g_string_new(NULL);
        unsigned n = 0, nbad = 0;

        for (guint k = 0; k < kts->len; k++) {
            const RvTask *t = &g_array_index(kts, RvTask, k);

            if (!t->kthread || !kthread_matches(t->comm, want->name))
                continue;
            n++;
            if (t->policy != want->policy ||
                (want->policy != SCHED_OTHER && t->rt_priority != want->priority)) {
                g_autofree char *h = sched_name(t->policy, t->rt_priority);

                nbad++;
                if (nbad <= 8)
                    g_string_append_printf(wrong, "%s%s=%s", wrong->len ? " " : "", t->comm, h);
            }
        }
        if (n == 0)
            rv_findings_add(c->rep->findings, RV_FINDING_NOTE, "kthread.absent", NULL, w, NULL, NULL,
                            "no %s kernel threads on this kernel (%s)", want->name,
                            strcmp(want->name, "ktimers") == 0 || strcmp(want->name, "ktimersoftd") == 0
                                ? "PREEMPT_RT kernels have them"
                                : strcmp(want->name, "rcuc") == 0 || strcmp(want->name, "rcub") == 0
                                ? "PREEMPT_RT or rcutree.use_softirq=0 kernels have them"
                                : "not created by this kernel");
        else if (nbad)
            rv_findings_add(c->rep->findings, RV_FINDING_FAIL, "kthread.priority", NULL, w, wrong->str,
                            "rtvirt host apply PROFILE", "%u of %u %s threads do not run at %s: %s%s",
                            nbad, n, want->name, w, wrong->str, nbad > 8 ? " ..." : "");
        else
            rv_findings_add(c->rep->findings, RV_FINDING_PASS, "kthread.priority", NULL, w, w, NULL,
                            "all %u %s threads run at %s", n, want->name, w);
    }
}
