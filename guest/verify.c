/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * guest/verify.c: live verification of vCPU and emulator threads (guest/verify.h).
 */
#include <errno.h>
#include <sched.h>
#include <stdlib.h>
#include <string.h>

#include "guest/verify.h"
#include "host/facts/threads.h"
#include "util/cpulist.h"
#include "util/error.h"
#include "util/escape.h"

typedef struct {
    int tgid;
    RvCpuSet allowed;
    char *allowed_str;
    int policy;
    int rt_priority;
    char *comm;
} ThreadInfo;

static void
thread_info_clear(ThreadInfo *t)
{
    g_clear_pointer(&t->allowed_str, g_free);
    g_clear_pointer(&t->comm, g_free);
}

static void
check_free(RvGuestCheck *c)
{
    if (!c)
        return;
    g_free(c->thread);
    g_free(c->what);
    g_free(c->expected);
    g_free(c->actual);
    g_free(c);
}

void
rv_guest_verification_free(RvGuestVerification *v)
{
    if (!v)
        return;
    if (v->checks)
        g_ptr_array_unref(v->checks);
    g_free(v);
}

const char *
rv_guest_linux_policy_name(int policy)
{
    switch (policy) {
    case SCHED_OTHER: return "other";
    case SCHED_FIFO: return "fifo";
    case SCHED_RR: return "rr";
    case SCHED_BATCH: return "batch";
    case SCHED_IDLE: return "idle";
    case 6: return "deadline";
    default: return "unknown";
    }
}

static int
read_thread(RvRoot *root, int tid, ThreadInfo *ret, GError **error)
{
    g_autofree char *sp = g_strdup_printf("/proc/%d/status", tid);
    g_autofree char *tp = g_strdup_printf("/proc/%d/stat", tid);
    g_autofree char *status = NULL, *stat = NULL;
    g_auto(GStrv) lines = NULL;
    g_auto(GStrv) fields = NULL;
    ThreadInfo t = { .tgid = -1, .policy = -1, .rt_priority = -1 };
    const char *close_paren, *open_paren;
    int r;

    if ((r = (int) rv_host_root_read(root, sp, &status, error)) < 0)
        return r;
    if ((r = (int) rv_host_root_read(root, tp, &stat, error)) < 0)
        return r;
    lines = g_strsplit(status, "\n", -1);
    for (guint i = 0; lines[i]; i++) {
        if (g_str_has_prefix(lines[i], "Tgid:"))
            t.tgid = atoi(lines[i] + 5);
        else if (g_str_has_prefix(lines[i], "Cpus_allowed_list:")) {
            t.allowed_str = g_strstrip(g_strdup(lines[i] + 18));
            if (rv_cpulist_parse(t.allowed_str, 0, &t.allowed, error) < 0) {
                thread_info_clear(&t);
                return -EINVAL;
            }
        }
    }
    /* comm may hold spaces and parentheses ("CPU 0/KVM"): it ends at the
     * last ')' (proc(5)). */
    open_paren = strchr(stat, '(');
    close_paren = strrchr(stat, ')');
    if (t.tgid <= 0 || !t.allowed_str || !open_paren || !close_paren || close_paren < open_paren) {
        thread_info_clear(&t);
        return rv_error_set(error, RV_ERROR_FAILED, EPROTO,
                            "Failed to parse '%s' / '%s': no Tgid, Cpus_allowed_list or comm",
                            sp, tp);
    }
    t.comm = g_strndup(open_paren + 1, close_paren - open_paren - 1);
    {
        g_autofree char *rest = g_strstrip(g_strdup(close_paren + 1));

        fields = g_strsplit(rest, " ", -1);
    }
    /* Fields after ')' start at field 3 (state): field N is fields[N-3]. */
    if (g_strv_length(fields) < 41 - 2) {
        thread_info_clear(&t);
        return rv_error_set(error, RV_ERROR_FAILED, EPROTO,
                            "Failed to parse '%s': fewer than 41 fields", tp);
    }
    t.rt_priority = atoi(fields[40 - 3]);
    t.policy = atoi(fields[41 - 3]);
    *ret = t;
    return 0;
}

/* @comm: the thread's own name (raw; escaped here), or NULL */
static void
add_thread_check(RvGuestVerification *v, const char *id, int tid, const char *comm, bool pass,
                 char *what, char *expected, char *actual)
{
    RvGuestCheck *c = g_new0(RvGuestCheck, 1);

    c->id = id;
    c->tid = tid;
    c->thread = comm ? rv_escape_value(comm) : NULL;
    c->pass = pass;
    c->what = what;
    c->expected = expected;
    c->actual = actual;
    if (!pass)
        v->n_fail++;
    g_ptr_array_add(v->checks, c);
}

static void
add_check(RvGuestVerification *v, const char *id, bool pass, char *what, char *expected,
          char *actual)
{
    add_thread_check(v, id, 0, NULL, pass, what, expected, actual);
}

/* Threads with checks of their own (rv_guest_verify_iothreads(),
 * rv_guest_verify_helpers()), not emulator threads. */
static bool
is_iothread(const char *comm)
{
    return g_str_has_prefix(comm, "IO iothread");
}

static bool
is_vhost(const char *comm, int qemu_pid)
{
    g_autofree char *want = g_strdup_printf("vhost-%d", qemu_pid);

    return strcmp(comm, want) == 0;
}

int
rv_guest_verify_threads(RvRoot *root, const RvGuestPlacement *expect, const int *vcpu_tids,
                        guint n_tids, RvGuestVerification **ret, GError **error)
{
    g_autoptr(RvGuestVerification) v = g_new0(RvGuestVerification, 1);
    g_autoptr(GHashTable) vcpu_set = g_hash_table_new(g_direct_hash, g_direct_equal);
    g_autoptr(GPtrArray) tasks = NULL;
    g_autofree char *taskdir = NULL;
    int r;

    v->checks = g_ptr_array_new_with_free_func((GDestroyNotify) check_free);
    v->qemu_pid = -1;
    if (n_tids != expect->n_vcpus)
        add_check(v, "vcpu.threads", false, g_strdup("vCPU thread count"),
                  g_strdup_printf("%u", expect->n_vcpus), g_strdup_printf("%u", n_tids));

    for (guint i = 0; i < n_tids && i < expect->n_vcpus; i++) {
        const RvGuestVcpuPlacement *vp = &expect->vcpus[i];
        int want_policy = rv_guest_sched_policy_to_linux(vp->policy);
        bool rt = want_policy == SCHED_FIFO || want_policy == SCHED_RR;
        ThreadInfo t = { 0 };

        r = read_thread(root, vcpu_tids[i], &t, error);
        if (r < 0)
            return r;
        g_hash_table_add(vcpu_set, GINT_TO_POINTER(vcpu_tids[i]));
        if (v->qemu_pid < 0)
            v->qemu_pid = t.tgid;
        if (vp->pinned)
            add_thread_check(v, "vcpu.affinity", vcpu_tids[i], t.comm,
                             rv_cpuset_equal(&vp->cpuset, &t.allowed),
                      g_strdup_printf("vCPU %u (tid %d) affinity", i, vcpu_tids[i]),
                      rv_cpulist_format(&vp->cpuset), g_strdup(t.allowed_str));
        add_thread_check(v, "vcpu.scheduler", vcpu_tids[i], t.comm,
                         t.policy == want_policy && (!rt || t.rt_priority == vp->priority),
                  g_strdup_printf("vCPU %u (tid %d) scheduler", i, vcpu_tids[i]),
                  g_strdup_printf("%s %d", rv_guest_linux_policy_name(want_policy),
                                  rt ? vp->priority : 0),
                  g_strdup_printf("%s %d", rv_guest_linux_policy_name(t.policy), t.rt_priority));
        thread_info_clear(&t);
    }

    if (v->qemu_pid > 0 && expect->emulator_pinned) {
        taskdir = g_strdup_printf("/proc/%d/task", v->qemu_pid);
        r = rv_host_root_list(root, taskdir, &tasks, error);
        if (r < 0)
            return r;
        for (guint i = 0; i < tasks->len; i++) {
            int tid = atoi(tasks->pdata[i]);
            ThreadInfo t = { 0 };
            g_autoptr(GError) gone = NULL;

            if (tid <= 0 || g_hash_table_contains(vcpu_set, GINT_TO_POINTER(tid)))
                continue;
            /* Short-lived worker threads may exit between list and read. */
            if (read_thread(root, tid, &t, &gone) < 0)
                continue;
            if (is_iothread(t.comm) || is_vhost(t.comm, v->qemu_pid)) {
                thread_info_clear(&t);
                continue;
            }
            {
                /* comm is whatever the thread named itself (prctl): escaped */
                g_autofree char *comm = rv_escape_value(t.comm);

                add_thread_check(v, "emulator.affinity", tid, t.comm,
                                 rv_cpuset_equal(&expect->emulator, &t.allowed),
                          g_strdup_printf("emulator thread %d (%s) affinity", tid, comm),
                          rv_cpulist_format(&expect->emulator), g_strdup(t.allowed_str));
            }
            thread_info_clear(&t);
        }
    }
    r = (int) v->n_fail;
    *ret = g_steal_pointer(&v);
    return r;
}

int
rv_guest_verify_locked_memory(RvRoot *root, RvGuestVerification *v, guint64 min_bytes,
                              GError **error)
{
    g_autofree char *path = g_strdup_printf("/proc/%d/status", v->qemu_pid);
    g_autofree char *status = NULL;
    g_auto(GStrv) lines = NULL;
    gint64 kb = -1;
    bool pass;

    if (v->qemu_pid <= 0)
        return rv_error_set(error, RV_ERROR_FAILED, ESRCH, "QEMU process id unknown");
    if (rv_host_root_read(root, path, &status, error) < 0)
        return -EIO;
    lines = g_strsplit(status, "\n", -1);
    for (guint i = 0; lines[i]; i++)
        if (g_str_has_prefix(lines[i], "VmLck:"))
            kb = g_ascii_strtoll(lines[i] + 6, NULL, 10);
    if (kb < 0)
        return rv_error_set(error, RV_ERROR_FAILED, EPROTO, "No VmLck line in '%s'", path);
    pass = (guint64) kb * 1024 >= min_bytes;
    add_check(v, "memory.locked", pass,
              g_strdup_printf("QEMU process %d locked memory (VmLck)", v->qemu_pid),
              g_strdup_printf(">= %" G_GUINT64_FORMAT " kB", min_bytes / 1024),
              g_strdup_printf("%" G_GINT64_FORMAT " kB", kb));
    return pass ? 0 : 1;
}

/* "KEY:   N kB" of /proc/@pid/status, in kB; -1 when absent. */
static int
status_kb(RvRoot *root, int pid, const char *key, gint64 *ret_kb, GError **error)
{
    g_autofree char *path = g_strdup_printf("/proc/%d/status", pid);
    g_autofree char *status = NULL;
    g_auto(GStrv) lines = NULL;
    size_t kl = strlen(key);

    if (pid <= 0)
        return rv_error_set(error, RV_ERROR_FAILED, ESRCH, "QEMU process id unknown");
    if (rv_host_root_read(root, path, &status, error) < 0)
        return -EIO;
    *ret_kb = -1;
    lines = g_strsplit(status, "\n", -1);
    for (guint i = 0; lines[i]; i++)
        if (strncmp(lines[i], key, kl) == 0 && lines[i][kl] == ':')
            *ret_kb = g_ascii_strtoll(lines[i] + kl + 1, NULL, 10);
    return 0;
}

int
rv_guest_verify_hugepages(RvRoot *root, RvGuestVerification *v, guint64 min_bytes,
                          GError **error)
{
    gint64 kb = -1;
    bool pass;
    int r;

    if ((r = status_kb(root, v->qemu_pid, "HugetlbPages", &kb, error)) < 0)
        return r;
    if (kb < 0)
        return rv_error_set(error, RV_ERROR_FAILED, EPROTO,
                            "No HugetlbPages line in '/proc/%d/status' (Linux 4.4+)", v->qemu_pid);
    pass = (guint64) kb * 1024 >= min_bytes;
    add_check(v, "memory.hugepages", pass,
              g_strdup_printf("QEMU process %d hugepage memory (HugetlbPages)", v->qemu_pid),
              g_strdup_printf(">= %" G_GUINT64_FORMAT " kB", min_bytes / 1024),
              g_strdup_printf("%" G_GINT64_FORMAT " kB", kb));
    return pass ? 0 : 1;
}

int
rv_guest_verify_iothreads(RvRoot *root, RvGuestVerification *v, const GArray *pins,
                          const RvGuestPlacement *expect, const RvCpuSet *online, GError **error)
{
    g_autofree char *taskdir = g_strdup_printf("/proc/%d/task", v->qemu_pid);
    g_autoptr(GPtrArray) tasks = NULL;
    int r, n = 0;

    if (v->qemu_pid <= 0)
        return rv_error_set(error, RV_ERROR_FAILED, ESRCH, "QEMU process id unknown");
    if ((r = rv_host_root_list(root, taskdir, &tasks, error)) < 0)
        return r;
    for (guint i = 0; i < tasks->len; i++) {
        int tid = atoi(tasks->pdata[i]);
        ThreadInfo t = { 0 };
        g_autoptr(GError) gone = NULL;
        const RvCpuSet *want = NULL;
        g_autofree char *comm = NULL;
        guint64 id = 0;
        bool pass;

        if (tid <= 0 || read_thread(root, tid, &t, &gone) < 0)
            continue;
        if (!is_iothread(t.comm)) {
            thread_info_clear(&t);
            continue;
        }
        g_ascii_string_to_unsigned(t.comm + strlen("IO iothread"), 10, 0, G_MAXUINT, &id, NULL);
        for (guint k = 0; pins && k < pins->len; k++)
            if (g_array_index(pins, RvGuestIothreadPin, k).id == id)
                want = &g_array_index(pins, RvGuestIothreadPin, k).cpuset;
        /* libvirt's qemuProcessSetupPid(): <vcpu cpuset>, else all online CPUs */
        if (!want)
            want = expect->has_vcpu_cpuset ? &expect->vcpu_cpuset : online;
        if (want) {
            comm = rv_escape_value(t.comm);
            pass = rv_cpuset_equal(want, &t.allowed);
            n += !pass;
            add_thread_check(v, "iothread.affinity", tid, t.comm, pass,
                             g_strdup_printf("I/O thread %d (%s) affinity", tid, comm),
                             rv_cpulist_format(want), g_strdup(t.allowed_str));
        }
        thread_info_clear(&t);
    }
    return n;
}

/* One kvm-pit/vhost helper thread judged (rv_guest_verify_helpers()). */
static bool
helper_check(RvGuestVerification *v, const ThreadInfo *t, int tid, const RvGuestPlacement *expect,
             const RvCpuSet *housekeeping)
{
    RvCpuSet vcpu_cpus, rt_cpus;
    int max_rt_prio = 0;
    bool pass, rt = t->policy == SCHED_FIFO || t->policy == SCHED_RR;
    g_autofree char *comm = rv_escape_value(t->comm);
    g_autofree char *hk = rv_cpulist_format(housekeeping), *vc = NULL;

    rv_cpuset_zero(&vcpu_cpus);
    rv_cpuset_zero(&rt_cpus);
    for (unsigned i = 0; i < expect->n_vcpus; i++) {
        const RvGuestVcpuPlacement *vp = &expect->vcpus[i];

        if (!vp->pinned)
            continue;
        rv_cpuset_or(&vcpu_cpus, &vcpu_cpus, &vp->cpuset);
        if (vp->rt) {
            rv_cpuset_or(&rt_cpus, &rt_cpus, &vp->cpuset);
            max_rt_prio = MAX(max_rt_prio, vp->priority);
        }
    }
    vc = rv_cpulist_format(&vcpu_cpus);
    if (rv_cpuset_is_subset(&t->allowed, housekeeping))
        pass = true;
    else if (!rv_cpuset_is_empty(&vcpu_cpus) && rv_cpuset_is_subset(&t->allowed, &vcpu_cpus))
        pass = !rv_cpuset_intersects(&t->allowed, &rt_cpus) || (rt && t->rt_priority > max_rt_prio);
    else
        pass = false;
    add_thread_check(v, "kthread.placement", tid, t->comm, pass,
                     g_strdup_printf("helper thread %d (%s) placement", tid, comm),
                     g_strdup_printf("housekeeping CPUs %s, or the vCPUs' CPUs %s%s", hk,
                                     *vc ? vc : "(none pinned)",
                                     rv_cpuset_is_empty(&rt_cpus) ? ""
                                         : " at a FIFO priority above the RT vCPUs'"),
                     g_strdup_printf("CPUs %s, %s %d", t->allowed_str,
                                     rv_guest_linux_policy_name(t->policy), t->rt_priority));
    return pass;
}

int
rv_guest_verify_helpers(RvRoot *root, RvGuestVerification *v, const RvGuestPlacement *expect,
                        const RvCpuSet *housekeeping, GError **error)
{
    g_autoptr(GArray) procs = NULL;
    g_autofree char *pit = NULL, *vhost = NULL, *taskdir = NULL;
    g_autoptr(GPtrArray) tasks = NULL;
    int r, n = 0;

    if (v->qemu_pid <= 0)
        return rv_error_set(error, RV_ERROR_FAILED, ESRCH, "QEMU process id unknown");
    pit = g_strdup_printf("kvm-pit/%d", v->qemu_pid);
    vhost = g_strdup_printf("vhost-%d", v->qemu_pid);
    /* kthreads (kvm-pit, vhost before 6.4) are processes of their own */
    if ((r = rv_host_tasks_load(root, &procs, error)) < 0)
        return r;
    for (guint i = 0; i < procs->len; i++) {
        const RvTask *p = &g_array_index(procs, RvTask, i);
        ThreadInfo t = { 0 };
        g_autoptr(GError) gone = NULL;

        if (!p->comm || (strcmp(p->comm, pit) != 0 && strcmp(p->comm, vhost) != 0))
            continue;
        if (p->tgid == v->qemu_pid || read_thread(root, p->pid, &t, &gone) < 0)
            continue;
        n += !helper_check(v, &t, p->pid, expect, housekeeping);
        thread_info_clear(&t);
    }
    /* vhost_task workers (6.4+) are threads of the QEMU process */
    taskdir = g_strdup_printf("/proc/%d/task", v->qemu_pid);
    if (rv_host_root_list(root, taskdir, &tasks, NULL) < 0)
        return n;
    for (guint i = 0; i < tasks->len; i++) {
        int tid = atoi(tasks->pdata[i]);
        ThreadInfo t = { 0 };
        g_autoptr(GError) gone = NULL;

        if (tid <= 0 || tid == v->qemu_pid || read_thread(root, tid, &t, &gone) < 0)
            continue;
        if (is_vhost(t.comm, v->qemu_pid))
            n += !helper_check(v, &t, tid, expect, housekeeping);
        thread_info_clear(&t);
    }
    return n;
}
