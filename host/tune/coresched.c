/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * host/tune/coresched.c: core scheduling cookies for whole VMs (see coresched.h).
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>

#include "host/facts/threads.h"
#include "host/tune/coresched.h"
#include "util/error.h"

/* <linux/prctl.h> of older build hosts may lack these (added in 5.14). */
#ifndef PR_SCHED_CORE
#define PR_SCHED_CORE 62
#endif
#ifndef PR_SCHED_CORE_GET
#define PR_SCHED_CORE_GET 0
#define PR_SCHED_CORE_CREATE 1
#define PR_SCHED_CORE_SHARE_TO 2
#define PR_SCHED_CORE_SHARE_FROM 3
#endif

#define TAG_ROUNDS 3

static int
sc_prctl(unsigned long cmd, pid_t pid, RvCoreSchedScope scope, unsigned long uaddr)
{
    if (prctl(PR_SCHED_CORE, cmd, (unsigned long) pid, (unsigned long) scope, uaddr) < 0)
        return -errno;
    return 0;
}

const char *
rv_host_coresched_reason(int errnum)
{
    switch (errnum) {
    case EINVAL:
        return "kernel without CONFIG_SCHED_CORE (prctl(PR_SCHED_CORE) answers EINVAL)";
    case ENODEV:
        return "no SMT sibling online: SMT is off or absent (prctl(PR_SCHED_CORE) answers ENODEV)";
    case EPERM:
        return "not permitted: the ptrace access check on the task failed, run as root "
               "or as the VM's user (prctl(PR_SCHED_CORE) answers EPERM)";
    case ESRCH:
        return "no such task (prctl(PR_SCHED_CORE) answers ESRCH)";
    case ENOMEM:
        return "out of memory allocating a core cookie (prctl(PR_SCHED_CORE) answers ENOMEM)";
    case EOPNOTSUPP:
        return "core cookies exist only on the live host, not in a fixture root";
    default:
        return "prctl(PR_SCHED_CORE) failed";
    }
}

/* Capability errnos are UNSUPPORTED (a scenario is SKIPPED with the
 * reason); a vanished task or no memory are failures. */
static RvErrorCode
code_of(int errnum)
{
    switch (errnum) {
    case EINVAL:
    case ENODEV:
    case EPERM:
    case EOPNOTSUPP:
        return RV_ERROR_UNSUPPORTED;
    default:
        return RV_ERROR_FAILED;
    }
}

static int
fail(GError **error, int r, const char *what, pid_t pid)
{
    return rv_error_set(error, code_of(-r), -r, "Core scheduling: %s %d: %s (%s)",
                        what, (int) pid, rv_host_coresched_reason(-r), g_strerror(-r));
}

static int
need_live(RvRoot *root, GError **error)
{
    if (root && !rv_host_root_is_live(root))
        return rv_error_set(error, RV_ERROR_UNSUPPORTED, EOPNOTSUPP,
                            "Core scheduling: root '%s' is a fixture tree: %s",
                            rv_host_root_path(root), rv_host_coresched_reason(EOPNOTSUPP));
    return 0;
}

int
rv_host_coresched_check(RvRoot *root, GError **error)
{
    guint64 cookie = 0;
    int r;

    r = need_live(root, error);
    if (r < 0)
        return r;
    r = sc_prctl(PR_SCHED_CORE_GET, 0, RV_CORESCHED_SCOPE_THREAD, (unsigned long) &cookie);
    if (r < 0)
        return rv_error_set(error, code_of(-r), -r, "Core scheduling unavailable: %s",
                            rv_host_coresched_reason(-r));
    return 0;
}

int
rv_host_coresched_get(pid_t tid, guint64 *ret_cookie, GError **error)
{
    guint64 cookie = 0;
    int r;

    r = sc_prctl(PR_SCHED_CORE_GET, tid, RV_CORESCHED_SCOPE_THREAD, (unsigned long) &cookie);
    if (r < 0)
        return fail(error, r, "reading the cookie of thread", tid);
    *ret_cookie = cookie;
    return 0;
}

int
rv_host_coresched_create(pid_t pid, RvCoreSchedScope scope, GError **error)
{
    int r = sc_prctl(PR_SCHED_CORE_CREATE, pid, scope, 0);

    if (r < 0)
        return fail(error, r, scope == RV_CORESCHED_SCOPE_THREAD ? "creating a cookie for thread"
                              : scope == RV_CORESCHED_SCOPE_THREAD_GROUP ? "creating a cookie for process"
                              : "creating a cookie for process group", pid);
    return 0;
}

typedef struct {
    pid_t from;
    pid_t to;
    RvCoreSchedScope scope;
    int r;
    const char *step;
} ShareJob;

/* Runs in its own thread: the cookie it takes dies with it. */
static gpointer
share_thread(gpointer data)
{
    ShareJob *job = data;

    if (job->from >= 0) {
        job->step = "copying the cookie of thread";
        job->r = sc_prctl(PR_SCHED_CORE_SHARE_FROM, job->from, RV_CORESCHED_SCOPE_THREAD, 0);
        if (job->r < 0)
            return NULL;
    }
    job->step = "giving the cookie to";
    job->r = sc_prctl(PR_SCHED_CORE_SHARE_TO, job->to, job->scope, 0);
    return NULL;
}

int
rv_host_coresched_share(pid_t from_tid, pid_t to_pid, RvCoreSchedScope scope, GError **error)
{
    ShareJob job = { .from = from_tid, .to = to_pid, .scope = scope };
    GThread *t;

    t = g_thread_try_new("rv-coresched", share_thread, &job, error);
    if (!t)
        return -EAGAIN;
    g_thread_join(t);
    if (job.r < 0)
        return fail(error, job.r, job.step,
                    job.step[0] == 'c' ? from_tid : to_pid);
    return 0;
}

static bool
array_has(const GArray *a, pid_t tid)
{
    for (guint i = 0; i < a->len; i++)
        if (g_array_index(a, pid_t, i) == tid)
            return true;
    return false;
}

static void
thread_clear(gpointer p)
{
    RvCoreSchedThread *t = p;

    g_free(t->comm);
}

void
rv_host_coresched_vm_free(RvCoreSchedVm *vm)
{
    if (!vm)
        return;
    g_free(vm->name);
    if (vm->threads)
        g_array_unref(vm->threads);
    g_free(vm);
}

static char *
thread_comm(RvRoot *root, pid_t pid, pid_t tid)
{
    g_autofree char *path = g_strdup_printf("/proc/%d/task/%d/comm", (int) pid, (int) tid);
    char *comm = NULL;

    if (rv_host_root_read_value(root, path, &comm, NULL) < 0) {
        g_free(path);
        path = g_strdup_printf("/proc/%d/comm", (int) tid);
        if (rv_host_root_read_value(root, path, &comm, NULL) < 0)
            comm = g_strdup("?");
    }
    return comm;
}

int
rv_host_coresched_read_vm(RvRoot *root, pid_t pid, const char *name,
                          RvCoreSchedVm **ret, GError **error)
{
    g_autoptr(RvCoreSchedVm) vm = g_new0(RvCoreSchedVm, 1);
    g_autoptr(GArray) tids = NULL;
    g_autoptr(GArray) kthreads = NULL;
    bool first = true, same = true;
    int r;

    r = need_live(root, error);
    if (r < 0)
        return r;
    r = rv_host_process_threads_list(root, pid, &tids, &kthreads, error);
    if (r < 0)
        return r;

    vm->pid = pid;
    vm->name = g_strdup(name);
    vm->threads = g_array_new(FALSE, TRUE, sizeof(RvCoreSchedThread));
    g_array_set_clear_func(vm->threads, thread_clear);
    for (guint i = 0; i < tids->len; i++) {
        RvCoreSchedThread t = { .tid = g_array_index(tids, pid_t, i) };

        r = sc_prctl(PR_SCHED_CORE_GET, t.tid, RV_CORESCHED_SCOPE_THREAD, (unsigned long) &t.cookie);
        if (r == -ESRCH)
            continue;           /* exited since listed */
        if (r < 0)
            return fail(error, r, "reading the cookie of thread", t.tid);
        t.kthread = array_has(kthreads, t.tid);
        t.comm = thread_comm(root, pid, t.tid);
        if (first)
            vm->cookie = t.cookie;
        else if (t.cookie != vm->cookie)
            same = false;
        first = false;
        g_array_append_val(vm->threads, t);
    }
    if (!same)
        vm->cookie = 0;
    *ret = g_steal_pointer(&vm);
    return 0;
}

int
rv_host_coresched_tag_vm(RvRoot *root, pid_t pid, const char *name,
                         RvCoreSchedVm **ret, GError **error)
{
    g_autoptr(RvCoreSchedVm) vm = NULL;
    int r;

    r = need_live(root, error);
    if (r < 0)
        return r;
    r = rv_host_coresched_create(pid, RV_CORESCHED_SCOPE_THREAD_GROUP, error);
    if (r < 0)
        return r;

    /* A thread cloned during the CREATE may have inherited the old cookie,
     * and vhost kthreads are outside the thread group: give each straggler
     * the leader's cookie, and read back until all agree. */
    for (int round = 0; round < TAG_ROUNDS; round++) {
        guint64 want = 0;
        guint fixed = 0;

        g_clear_pointer(&vm, rv_host_coresched_vm_free);
        r = rv_host_coresched_read_vm(root, pid, name, &vm, error);
        if (r < 0)
            return r;
        r = rv_host_coresched_get(pid, &want, error);
        if (r < 0)
            return r;
        for (guint i = 0; i < vm->threads->len; i++) {
            const RvCoreSchedThread *t = &g_array_index(vm->threads, RvCoreSchedThread, i);

            if (t->cookie == want && want != 0)
                continue;
            r = rv_host_coresched_share(pid, t->tid, RV_CORESCHED_SCOPE_THREAD, error);
            if (r == -ESRCH) {
                g_clear_error(error);
                continue;
            }
            if (r < 0)
                return r;
            fixed++;
        }
        if (fixed == 0)
            break;
    }

    g_clear_pointer(&vm, rv_host_coresched_vm_free);
    r = rv_host_coresched_read_vm(root, pid, name, &vm, error);
    if (r < 0)
        return r;
    r = rv_host_coresched_verify_vm(vm, error);
    if (r < 0)
        return r;
    if (ret)
        *ret = g_steal_pointer(&vm);
    return 0;
}

int
rv_host_coresched_untag_vm(RvRoot *root, pid_t pid, GError **error)
{
    g_autoptr(GArray) tids = NULL;
    g_autoptr(GArray) kthreads = NULL;
    int r;

    r = need_live(root, error);
    if (r < 0)
        return r;
    r = rv_host_process_threads_list(root, pid, &tids, &kthreads, error);
    if (r < 0)
        return r;
    r = rv_host_coresched_share(-1, pid, RV_CORESCHED_SCOPE_THREAD_GROUP, error);
    if (r < 0)
        return r;
    for (guint i = 0; i < kthreads->len; i++) {
        r = rv_host_coresched_share(-1, g_array_index(kthreads, pid_t, i),
                                    RV_CORESCHED_SCOPE_THREAD, error);
        if (r == -ESRCH) {
            g_clear_error(error);
            continue;
        }
        if (r < 0)
            return r;
    }
    return 0;
}

static char *
vm_label(const RvCoreSchedVm *vm)
{
    return vm->name ? g_strdup_printf("VM '%s' (pid %d)", vm->name, (int) vm->pid)
                    : g_strdup_printf("VM pid %d", (int) vm->pid);
}

int
rv_host_coresched_verify_vm(const RvCoreSchedVm *vm, GError **error)
{
    g_autofree char *label = vm_label(vm);
    const RvCoreSchedThread *t0;

    if (!vm->threads || vm->threads->len == 0)
        return rv_error_set(error, RV_ERROR_CHECK, EPROTO, "%s: no threads found", label);
    t0 = &g_array_index(vm->threads, RvCoreSchedThread, 0);
    for (guint i = 0; i < vm->threads->len; i++) {
        const RvCoreSchedThread *t = &g_array_index(vm->threads, RvCoreSchedThread, i);

        if (t->cookie == 0)
            return rv_error_set(error, RV_ERROR_CHECK, EPROTO,
                                "%s: thread %d (%s) has no core cookie",
                                label, (int) t->tid, t->comm ? t->comm : "?");
        if (t->cookie != t0->cookie)
            return rv_error_set(error, RV_ERROR_CHECK, EPROTO,
                                "%s: thread %d (%s) has cookie 0x%" G_GINT64_MODIFIER "x, "
                                "thread %d (%s) 0x%" G_GINT64_MODIFIER "x",
                                label, (int) t->tid, t->comm ? t->comm : "?", t->cookie,
                                (int) t0->tid, t0->comm ? t0->comm : "?", t0->cookie);
    }
    return 0;
}

int
rv_host_coresched_verify_vms(RvCoreSchedVm * const *vms, guint n_vms, GError **error)
{
    for (guint i = 0; i < n_vms; i++) {
        int r = rv_host_coresched_verify_vm(vms[i], error);

        if (r < 0)
            return r;
    }
    for (guint i = 0; i < n_vms; i++)
        for (guint j = i + 1; j < n_vms; j++) {
            g_autofree char *a = NULL;
            g_autofree char *b = NULL;

            if (vms[i]->cookie != vms[j]->cookie)
                continue;
            a = vm_label(vms[i]);
            b = vm_label(vms[j]);
            return rv_error_set(error, RV_ERROR_CHECK, EPROTO,
                                "%s and %s share core cookie 0x%" G_GINT64_MODIFIER "x",
                                a, b, vms[i]->cookie);
        }
    return 0;
}

static int
cmp_task_cookie(gconstpointer a, gconstpointer b)
{
    return rv_host_pid_cmp(&((const RvTaskCookie *) a)->tid, &((const RvTaskCookie *) b)->tid);
}

int
rv_host_coresched_snapshot(RvRoot *root, GArray **ret, GError **error)
{
    g_autoptr(GArray) out = g_array_new(FALSE, FALSE, sizeof(RvTaskCookie));
    g_autoptr(GPtrArray) procs = NULL;
    int r;

    r = rv_host_coresched_check(root, error);
    if (r < 0)
        return r;
    r = rv_host_root_list(root, "/proc", &procs, error);
    if (r < 0)
        return r;
    for (guint i = 0; i < procs->len; i++) {
        g_autoptr(GPtrArray) tasks = NULL;
        g_autofree char *dir = NULL;
        pid_t pid;

        if (!rv_host_pid_parse(procs->pdata[i], &pid))
            continue;
        dir = g_strdup_printf("/proc/%d/task", (int) pid);
        if (rv_host_root_list(root, dir, &tasks, NULL) < 0)
            continue;           /* exited */
        for (guint j = 0; j < tasks->len; j++) {
            RvTaskCookie tc = { 0 };

            if (!rv_host_pid_parse(tasks->pdata[j], &tc.tid))
                continue;
            if (sc_prctl(PR_SCHED_CORE_GET, tc.tid, RV_CORESCHED_SCOPE_THREAD,
                         (unsigned long) &tc.cookie) < 0)
                continue;       /* exited, or not ours to read */
            g_array_append_val(out, tc);
        }
    }
    g_array_sort(out, cmp_task_cookie);
    r = (int) out->len;
    *ret = g_steal_pointer(&out);
    return r;
}

guint64
rv_host_coresched_lookup(const GArray *snapshot, pid_t tid)
{
    guint lo = 0, hi = snapshot ? snapshot->len : 0;

    while (lo < hi) {
        guint mid = lo + (hi - lo) / 2;
        const RvTaskCookie *tc = &g_array_index(snapshot, RvTaskCookie, mid);

        if (tc->tid == tid)
            return tc->cookie;
        if (tc->tid < tid)
            lo = mid + 1;
        else
            hi = mid;
    }
    return 0;
}
