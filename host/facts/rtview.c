/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * host/facts/rtview.c: the RT priority view across host and guests
 * (host/facts/rtview.h).
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "host/facts/threads.h"
#include "host/facts/rtview.h"
#include "util/error.h"

static void
task_copy(RvTask *dst, const RvTask *src)
{
    *dst = *src;
    dst->comm = g_strdup(src->comm);
    dst->affinity_list = g_strdup(src->affinity_list);
}

static void
task_array_clear(gpointer p)
{
    rv_host_task_clear(p);
}

static void
inversion_free(RvRtInversion *i)
{
    g_free(i->comm);
    g_free(i->why);
    g_free(i);
}

void
rv_host_rt_view_free(RvRtCpuView *v)
{
    if (!v)
        return;
    g_free(v->vm);
    rv_host_task_clear(&v->vcpu);
    if (v->threads)
        g_array_unref(v->threads);
    if (v->inversions)
        g_ptr_array_unref(v->inversions);
    g_free(v);
}

int
rv_host_rt_rank(int policy, int rt_priority)
{
    if (policy == 6)
        return 100;
    if (policy == 1 || policy == 2)
        return rt_priority;
    return 0;
}

static int
task_rank(const RvTask *t)
{
    return rv_host_rt_rank(t->policy, t->rt_priority);
}

/* "FIFO 50", "OTHER" */
static char *
pol_text(const RvTask *t)
{
    return task_rank(t) ? g_strdup_printf("%s %d", rv_host_sched_policy_name(t->policy),
                                          t->rt_priority)
                        : g_strdup(rv_host_sched_policy_name(t->policy));
}

static bool
allowed_on(const RvTask *t, unsigned cpu)
{
    return t->has_affinity ? rv_cpuset_isset(&t->affinity, cpu) : (unsigned) t->last_cpu == cpu;
}

static bool
bound_to(const RvTask *t, unsigned cpu)
{
    return t->has_affinity && rv_cpuset_count(&t->affinity) == 1 &&
           rv_cpuset_isset(&t->affinity, cpu);
}

/* Kernel threads that can run long at their priority, and what they do
 * there (Documentation/RCU/, Documentation/timers/no_hz.rst,
 * kernel/irq/manage.c irq_thread(), kernel/softirq.c). */
static const struct {
    const char *prefix;
    const char *why;
} spinners[] = {
    { "rcuc/", "runs CPU %u's RCU callbacks (rcutree.use_softirq=0 / RCU_BOOST) and preempts "
               "the vCPU for as long as they take, with IRQs off in places (the rcuc case of "
               "the kernel lists: ~10 us); rcu_nocbs=%u moves the callbacks off this CPU" },
    { "rcub/", "RCU priority boosting: boosts preempted RCU readers above the vCPU on CPU %u "
               "(rcutree.kthread_prio; %u: the CPU)" },
    { "ktimers/", "runs CPU %u's timer softirq (PREEMPT_RT) above the vCPU; timers queued on "
                  "CPU %u expire here" },
    { "irq/", "a threaded interrupt handler allowed on CPU %u above the vCPU: device "
              "interrupts handled there preempt it; irqaffinity= or the IRQ's smp_affinity "
              "keep it off CPU %u" },
    { "ksoftirqd/", "softirq work of CPU %u at an RT priority above the vCPU (%u: the CPU)" },
    { "irq_work/", "irq_work of CPU %u (PREEMPT_RT) above the vCPU (%u: the CPU)" },
    { "rcu_preempt", "the RCU grace-period kthread, allowed on CPU %u above the vCPU (%u: the "
                     "CPU); rcu_nocbs and kthread_cpus keep it on housekeeping CPUs" },
};

static void
add_inversion(RvRtCpuView *v, RvRtInversionKind kind, const RvTask *t, char *why)
{
    RvRtInversion *i = g_new0(RvRtInversion, 1);

    i->kind = kind;
    i->pid = t->pid;
    i->comm = g_strdup(t->comm);
    i->policy = t->policy;
    i->rt_priority = t->rt_priority;
    i->why = why;
    g_ptr_array_add(v->inversions, i);
}

static bool
has_pid(const GArray *a, int pid)
{
    for (guint i = 0; i < a->len; i++)
        if (g_array_index(a, RvTask, i).pid == pid)
            return true;
    return false;
}

static gint
rank_cmp(gconstpointer a, gconstpointer b)
{
    const RvTask *x = a, *y = b;
    int rx = task_rank(x), ry = task_rank(y);

    if (rx != ry)
        return ry - rx;
    return g_strcmp0(x->comm, y->comm) ?: x->pid - y->pid;
}

RvRtCpuView *
rv_host_rt_view_build(const RvTask *vcpu, const char *vm, const GArray *host_threads,
                      const GArray *vm_threads)
{
    RvRtCpuView *v = g_new0(RvRtCpuView, 1);
    int vr = task_rank(vcpu);
    g_autofree char *vpol = NULL;

    task_copy(&v->vcpu, vcpu);
    v->pinned = bound_to(vcpu, vcpu->has_affinity ? (unsigned) rv_cpuset_next(&vcpu->affinity, 0) : 0);
    v->cpu = v->pinned ? (unsigned) rv_cpuset_next(&vcpu->affinity, 0) : (unsigned) vcpu->last_cpu;
    v->vm = vm ? g_strdup(vm) : g_strdup_printf("qemu %d", vcpu->tgid);
    v->threads = g_array_new(FALSE, TRUE, sizeof(RvTask));
    g_array_set_clear_func(v->threads, task_array_clear);
    v->inversions = g_ptr_array_new_with_free_func((GDestroyNotify) inversion_free);
    vpol = pol_text(vcpu);

    for (guint i = 0; host_threads && i < host_threads->len; i++) {
        const RvTask *t = &g_array_index(host_threads, RvTask, i);
        RvTask c;

        if (t->pid == vcpu->pid || !allowed_on(t, v->cpu) ||
            (task_rank(t) == 0 && !bound_to(t, v->cpu)) || has_pid(v->threads, t->pid))
            continue;
        task_copy(&c, t);
        g_array_append_val(v->threads, c);
    }
    for (guint i = 0; vm_threads && i < vm_threads->len; i++) {
        const RvTask *t = &g_array_index(vm_threads, RvTask, i);
        RvTask c;

        if (t->pid == vcpu->pid || !bound_to(t, v->cpu) || has_pid(v->threads, t->pid))
            continue;
        task_copy(&c, t);
        g_array_append_val(v->threads, c);
    }
    g_array_sort(v->threads, rank_cmp);

    for (guint i = 0; i < v->threads->len; i++) {
        const RvTask *t = &g_array_index(v->threads, RvTask, i);
        g_autofree char *vhost = g_strdup_printf("vhost-%d", vcpu->tgid);
        bool own = t->tgid == vcpu->tgid || g_strcmp0(t->comm, vhost) == 0;
        g_autofree char *tpol = pol_text(t);

        if (!t->kthread && task_rank(t) > vr) {
            add_inversion(v, RV_RT_INVERSION_ABOVE, t,
                          g_strdup_printf("%s (%s, user thread of process %d) above the vCPU "
                                          "(%s), allowed on CPU %u: it preempts the vCPU for as "
                                          "long as it runs", t->comm, tpol, t->tgid, vpol,
                                          v->cpu));
        }
        if (t->kthread && task_rank(t) > vr) {
            for (guint k = 0; k < G_N_ELEMENTS(spinners); k++) {
                if (!g_str_has_prefix(t->comm, spinners[k].prefix))
                    continue;
                {
                    g_autofree char *what = g_strdup_printf(spinners[k].why, v->cpu, v->cpu);

                    add_inversion(v, RV_RT_INVERSION_ABOVE, t,
                                  g_strdup_printf("%s (%s) above the vCPU (%s): %s", t->comm,
                                                  tpol, vpol, what));
                }
                break;
            }
        }
        if (vr > 0 && task_rank(t) < vr && bound_to(t, v->cpu) &&
            (own || g_str_has_prefix(t->comm, "ksoftirqd/") || g_str_has_prefix(t->comm, "ktimers/"))) {
            const char *what = own
                ? "the guest's own I/O (vhost worker or QEMU thread) can run only on this CPU, "
                  "so its queues are served only when the vCPU halts"
                : g_str_has_prefix(t->comm, "ktimers/")
                ? "timer expiry of this CPU (PREEMPT_RT's timer softirq thread) waits while the "
                  "vCPU runs: the guest's host-side timers fire late"
                : "softirqs of this CPU deferred to ksoftirqd (network and block completions, "
                  "timers without PREEMPT_RT) wait while the vCPU runs";

            add_inversion(v, RV_RT_INVERSION_BELOW, t,
                          g_strdup_printf("%s (%s) below the vCPU (%s) on CPU %u only: %s",
                                          t->comm, tpol, vpol, v->cpu, what));
        }
    }
    return v;
}

int
rv_host_rt_view_vm_threads(RvRoot *root, int pid, GArray **ret)
{
    g_autoptr(GArray) tids = NULL, kthreads = NULL;
    g_autoptr(GArray) out = g_array_new(FALSE, TRUE, sizeof(RvTask));
    int r;

    g_array_set_clear_func(out, task_array_clear);
    r = rv_host_process_threads_list(root, pid, &tids, &kthreads, NULL);
    if (r < 0)
        return r;
    for (guint i = 0; i < tids->len; i++) {
        int tid = g_array_index(tids, pid_t, i);
        bool kt = false;
        RvTask t;

        for (guint k = 0; k < kthreads->len && !kt; k++)
            kt = g_array_index(kthreads, pid_t, k) == tid;
        if (rv_host_thread_load(root, kt ? tid : pid, tid, &t) < 0)
            continue;
        if (rv_host_vcpu_index(t.comm) >= 0) {
            rv_host_task_clear(&t);
            continue;
        }
        g_array_append_val(out, t);
    }
    *ret = g_steal_pointer(&out);
    return 0;
}

/* "-name guest=NAME,debug-threads=on" or "-name NAME" of /proc/PID/cmdline
 * (NUL-separated; qemu-options.hx), or NULL. */
static char *
qemu_name(RvRoot *root, int pid)
{
    g_autofree char *p = g_strdup_printf("/proc/%d/cmdline", pid);
    g_autofree char *text = NULL;
    gssize n = rv_host_root_read(root, p, &text, NULL);

    for (gssize off = 0; n > 0 && off < n;) {
        const char *arg = text + off;
        gsize len = strlen(arg);

        if (strcmp(arg, "-name") == 0 && off + (gssize) len + 1 < n) {
            const char *v = arg + len + 1;
            const char *g = g_str_has_prefix(v, "guest=") ? v + 6 : v;
            const char *comma = strchr(g, ',');

            return comma ? g_strndup(g, comma - g) : g_strdup(g);
        }
        off += (gssize) len + 1;
    }
    return NULL;
}

int
rv_host_rt_view_host_threads(RvRoot *root, GArray **ret, GError **error)
{
    g_autoptr(GArray) k = NULL, u = NULL;
    int r;

    if ((r = rv_host_rt_threads_load(root, &k, NULL, error)) < 0 ||
        (r = rv_host_rt_user_threads_load(root, &u, error)) < 0)
        return r;
    for (guint i = 0; i < u->len; i++) {
        RvTask c;

        task_copy(&c, &g_array_index(u, RvTask, i));
        g_array_append_val(k, c);
    }
    *ret = g_steal_pointer(&k);
    return 0;
}

int
rv_host_rt_view_load(RvRoot *root, GPtrArray **ret, GError **error)
{
    g_autoptr(GArray) vcpus = NULL, host = NULL;
    g_autoptr(GPtrArray) out = g_ptr_array_new_with_free_func((GDestroyNotify) rv_host_rt_view_free);
    int r;

    r = rv_host_vcpu_threads_load(root, &vcpus, error);
    if (r < 0)
        return r;
    for (guint i = 0; i < vcpus->len; i++) {
        const RvTask *t = &g_array_index(vcpus, RvTask, i);
        g_autoptr(GArray) vmt = NULL;
        g_autofree char *name = NULL;

        if (task_rank(t) == 0)
            continue;
        if (!host && (r = rv_host_rt_view_host_threads(root, &host, error)) < 0)
            return r;
        if (rv_host_rt_view_vm_threads(root, t->tgid, &vmt) < 0)
            vmt = NULL;
        name = qemu_name(root, t->tgid);
        g_ptr_array_add(out, rv_host_rt_view_build(t, name, host, vmt));
    }
    *ret = g_steal_pointer(&out);
    return 0;
}

static void
json_task(JsonBuilder *b, const RvTask *t, const char *id)
{
    json_builder_set_member_name(b, id);
    json_builder_add_int_value(b, t->pid);
    json_builder_set_member_name(b, "comm");
    json_builder_add_string_value(b, t->comm);
    json_builder_set_member_name(b, "policy");
    json_builder_add_string_value(b, rv_host_sched_policy_name(t->policy));
    json_builder_set_member_name(b, "rt_priority");
    json_builder_add_int_value(b, t->rt_priority);
    json_builder_set_member_name(b, "allowed");
    if (t->affinity_list)
        json_builder_add_string_value(b, t->affinity_list);
    else
        json_builder_add_null_value(b);
}

void
rv_host_rt_view_to_json(JsonBuilder *b, const RvRtCpuView *v)
{
    json_builder_begin_object(b);
    json_builder_set_member_name(b, "cpu");
    json_builder_add_int_value(b, v->cpu);
    json_builder_set_member_name(b, "pinned");
    json_builder_add_boolean_value(b, v->pinned);
    json_builder_set_member_name(b, "vm");
    json_builder_add_string_value(b, v->vm);
    json_builder_set_member_name(b, "vcpu");
    json_builder_begin_object(b);
    json_task(b, &v->vcpu, "tid");
    json_builder_end_object(b);
    json_builder_set_member_name(b, "threads");
    json_builder_begin_array(b);
    for (guint i = 0; i < v->threads->len; i++) {
        json_builder_begin_object(b);
        json_task(b, &g_array_index(v->threads, RvTask, i), "pid");
        json_builder_end_object(b);
    }
    json_builder_end_array(b);
    json_builder_set_member_name(b, "inversions");
    json_builder_begin_array(b);
    for (guint i = 0; i < v->inversions->len; i++) {
        const RvRtInversion *x = v->inversions->pdata[i];

        json_builder_begin_object(b);
        json_builder_set_member_name(b, "kind");
        json_builder_add_string_value(b, x->kind == RV_RT_INVERSION_ABOVE ? "above" : "below");
        json_builder_set_member_name(b, "pid");
        json_builder_add_int_value(b, x->pid);
        json_builder_set_member_name(b, "comm");
        json_builder_add_string_value(b, x->comm);
        json_builder_set_member_name(b, "policy");
        json_builder_add_string_value(b, rv_host_sched_policy_name(x->policy));
        json_builder_set_member_name(b, "rt_priority");
        json_builder_add_int_value(b, x->rt_priority);
        json_builder_set_member_name(b, "why");
        json_builder_add_string_value(b, x->why);
        json_builder_end_object(b);
    }
    json_builder_end_array(b);
    json_builder_end_object(b);
}

static void
format_task(GString *s, const RvTask *t)
{
    g_autofree char *pol = pol_text(t);

    g_string_append_printf(s, "    %-8d %-20s %-12s allowed %s\n", t->pid, t->comm, pol,
                           t->affinity_list ? t->affinity_list : "?");
}

void
rv_host_rt_view_format(GString *s, const RvRtCpuView *v)
{
    g_autofree char *pol = pol_text(&v->vcpu);

    g_string_append_printf(s, "  CPU %u: %s %s (tid %d, %s)%s, %u thread(s) beside it, %u "
                              "inversion(s)\n", v->cpu, v->vm, v->vcpu.comm, v->vcpu.pid, pol,
                           v->pinned ? "" : " not pinned: where it last ran",
                           v->threads->len, v->inversions->len);
    for (guint i = 0; i < v->threads->len; i++)
        format_task(s, &g_array_index(v->threads, RvTask, i));
    for (guint i = 0; i < v->inversions->len; i++) {
        const RvRtInversion *x = v->inversions->pdata[i];

        g_string_append_printf(s, "    INVERSION %s: %s\n",
                               x->kind == RV_RT_INVERSION_ABOVE ? "above" : "below", x->why);
    }
}
