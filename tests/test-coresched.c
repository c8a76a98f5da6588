/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * tests/test-coresched.c: host/tune/coresched.h where this machine allows.
 *
 * The build machines run a kernel without CONFIG_SCHED_CORE and have no
 * SMT, so what is real here is the "unavailable" path (prctl answers
 * EINVAL, or ENODEV on a kernel with core scheduling but no SMT), the
 * process/thread enumeration, and the pure verification.  Tagging itself is
 * tested for real in the lab VM (tests/lab, `make lab-check`).
 */
#include <errno.h>
#include <string.h>
#include <sys/prctl.h>
#include <glib/gstdio.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "host/facts/threads.h"
#include "host/tune/coresched.h"
#include "util/error.h"
#include "tests/testutil.h"

#ifndef PR_SCHED_CORE
#define PR_SCHED_CORE 62
#endif

/* The errno this kernel gives PR_SCHED_CORE_GET on the calling thread,
 * asked directly (0 when core scheduling works here). */
static int
kernel_errno(void)
{
    unsigned long long cookie;

    if (prctl(PR_SCHED_CORE, 0 /* GET */, 0, 0 /* PIDTYPE_PID */, (unsigned long) &cookie) < 0)
        return errno;
    return 0;
}

static void
test_reason(void)
{
    static const struct { int errnum; const char *needle; } cases[] = {
        { EINVAL, "CONFIG_SCHED_CORE" },
        { EINVAL, "EINVAL" },
        { ENODEV, "SMT is off or absent" },
        { ENODEV, "ENODEV" },
        { EPERM, "ptrace access check" },
        { EPERM, "EPERM" },
        { ESRCH, "ESRCH" },
        { ENOMEM, "ENOMEM" },
        { EOPNOTSUPP, "fixture root" },
        { EIO, "prctl(PR_SCHED_CORE) failed" },
    };

    for (size_t i = 0; i < G_N_ELEMENTS(cases); i++) {
        const char *r = rv_host_coresched_reason(cases[i].errnum);

        g_test_message("errno %d: %s", cases[i].errnum, r);
        g_assert_nonnull(strstr(r, cases[i].needle));
    }
}

/* The live check agrees with the kernel and names the reason. */
static void
test_check_live(void)
{
    g_autoptr(RvRoot) root = NULL;
    g_autoptr(GError) err = NULL;
    int e = kernel_errno();
    int r;

    g_assert_cmpint(rv_host_root_open("/", &root, NULL), ==, 0);
    r = rv_host_coresched_check(root, &err);
    g_assert_cmpint(r, ==, -e);
    if (e == 0) {
        g_test_message("core scheduling is usable on this kernel");
        g_assert_no_error(err);
        return;
    }
    g_test_message("%s", err->message);
    g_assert_nonnull(strstr(err->message, rv_host_coresched_reason(e)));
    if (e == EINVAL || e == ENODEV || e == EPERM)
        g_assert_error(err, RV_ERROR, RV_ERROR_UNSUPPORTED);
    g_assert_cmpint(rv_error_exit_code(err), ==, e == EINVAL || e == ENODEV || e == EPERM ? 77 : 2);
}

/* Tagging a real process where core scheduling is unavailable fails
 * with the same reason (this is the path `rtvirt run` takes here). */
static void
test_tag_unavailable(void)
{
    g_autoptr(RvRoot) root = NULL;
    g_autoptr(GError) err = NULL;
    g_autoptr(RvCoreSchedVm) vm = NULL;
    int e = kernel_errno();
    int status;
    pid_t child;
    int r;

    if (e == 0) {
        g_test_skip("core scheduling works on this kernel: tagging is tested in the lab");
        return;
    }
    g_assert_cmpint(rv_host_root_open("/", &root, NULL), ==, 0);
    child = fork();
    g_assert_cmpint(child, >=, 0);
    if (child == 0) {
        pause();
        _exit(0);
    }
    r = rv_host_coresched_tag_vm(root, child, "child", &vm, &err);
    g_assert_cmpint(r, ==, -e);
    g_assert_null(vm);
    g_test_message("%s", err->message);
    g_assert_nonnull(strstr(err->message, rv_host_coresched_reason(e)));
    g_clear_error(&err);
    r = rv_host_coresched_read_vm(root, child, "child", &vm, &err);
    g_assert_cmpint(r, ==, -e);
    g_clear_error(&err);
    r = rv_host_coresched_snapshot(root, NULL, &err);
    g_assert_cmpint(r, ==, -e);
    kill(child, SIGKILL);
    g_assert_cmpint(waitpid(child, &status, 0), ==, child);
}

static void
test_fixture_root_refused(void)
{
    g_autofree char *dir = g_dir_make_tmp("rv-coresched-XXXXXX", NULL);
    g_autoptr(RvRoot) root = NULL;
    g_autoptr(GError) err = NULL;
    g_autoptr(RvCoreSchedVm) vm = NULL;

    g_assert_cmpint(rv_host_root_open(dir, &root, NULL), ==, 0);
    g_assert_cmpint(rv_host_coresched_check(root, &err), ==, -EOPNOTSUPP);
    g_assert_error(err, RV_ERROR, RV_ERROR_UNSUPPORTED);
    g_clear_error(&err);
    g_assert_cmpint(rv_host_coresched_tag_vm(root, 1, NULL, &vm, &err), ==, -EOPNOTSUPP);
    g_assert_null(vm);
    g_rmdir(dir);
}

typedef struct {
    pid_t tid;
    GMutex lock;
    GCond cond;
    bool ready, quit;
} Worker;

static gpointer
worker(gpointer data)
{
    Worker *w = data;

    prctl(PR_SET_NAME, "rv-worker", 0, 0, 0);
    g_mutex_lock(&w->lock);
    w->tid = gettid();
    w->ready = true;
    g_cond_broadcast(&w->cond);
    while (!w->quit)
        g_cond_wait(&w->cond, &w->lock);
    g_mutex_unlock(&w->lock);
    return NULL;
}

/* Enumeration on this very process: every thread we start is listed. */
static void
test_list_threads_self(void)
{
    g_autoptr(RvRoot) root = NULL;
    g_autoptr(GArray) tids = NULL;
    g_autoptr(GArray) kthreads = NULL;
    Worker w[3];
    GThread *t[3];
    int r;

    g_assert_cmpint(rv_host_root_open("/", &root, NULL), ==, 0);
    for (int i = 0; i < 3; i++) {
        memset(&w[i], 0, sizeof(w[i]));
        g_mutex_init(&w[i].lock);
        g_cond_init(&w[i].cond);
        t[i] = g_thread_new("rv-worker", worker, &w[i]);
        g_mutex_lock(&w[i].lock);
        while (!w[i].ready)
            g_cond_wait(&w[i].cond, &w[i].lock);
        g_mutex_unlock(&w[i].lock);
    }

    r = rv_host_process_threads_list(root, getpid(), &tids, &kthreads, NULL);
    g_assert_cmpint(r, >=, 4);
    g_assert_cmpint(r, ==, (int) tids->len);
    g_assert_cmpuint(kthreads->len, ==, 0);
    for (guint i = 1; i < tids->len; i++)
        g_assert_cmpint(g_array_index(tids, pid_t, i - 1), <, g_array_index(tids, pid_t, i));
    for (int i = 0; i < 4; i++) {
        pid_t want = i == 0 ? getpid() : w[i - 1].tid;
        bool found = false;

        for (guint j = 0; j < tids->len; j++)
            found |= g_array_index(tids, pid_t, j) == want;
        g_assert_true(found);
    }

    for (int i = 0; i < 3; i++) {
        g_mutex_lock(&w[i].lock);
        w[i].quit = true;
        g_cond_broadcast(&w[i].cond);
        g_mutex_unlock(&w[i].lock);
        g_thread_join(t[i]);
        g_mutex_clear(&w[i].lock);
        g_cond_clear(&w[i].cond);
    }

    g_assert_cmpint(rv_host_process_threads_list(root, 0x7ffffff0, &tids, NULL, NULL), ==, -ENOENT);
}

/* vhost workers of kernels before 6.4 are kthreads "vhost-<qemu pid>"
 * outside the thread group (drivers/vhost/vhost.c, v6.1:
 * kthread_create(vhost_worker, dev, "vhost-%d", current->pid)); from 6.4 on
 * they are threads of the process, named the same.  A /proc tree in a
 * fixture root holds both shapes. */
static void
test_list_threads_vhost(void)
{
    g_autofree char *dir = g_dir_make_tmp("rv-coresched-XXXXXX", NULL);
    g_autoptr(RvRoot) root = NULL;
    g_autoptr(GArray) tids = NULL;
    g_autoptr(GArray) kthreads = NULL;
    static const pid_t want_tids[] = { 2000, 2001, 2002, 2050, 2051 };
    static const pid_t want_k[] = { 2050, 2051 };
    int r;

    rv_test_put(dir, "proc/2000/comm", "qemu-system-x86\n");
    rv_test_put(dir, "proc/2000/task/2000/comm", "qemu-system-x86\n");
    rv_test_put(dir, "proc/2000/task/2001/comm", "CPU 0/KVM\n");
    rv_test_put(dir, "proc/2000/task/2002/comm", "vhost-2000\n");      /* >= 6.4: a thread */
    rv_test_put(dir, "proc/2050/comm", "vhost-2000\n");                /* < 6.4: kthreads */
    rv_test_put(dir, "proc/2051/comm", "vhost-2000\n");
    rv_test_put(dir, "proc/2052/comm", "vhost-20001\n");               /* another VM's */
    rv_test_put(dir, "proc/2053/comm", "kworker/0:1\n");
    rv_test_put(dir, "proc/self/comm", "x\n");
    g_assert_cmpint(rv_host_root_open(dir, &root, NULL), ==, 0);

    r = rv_host_process_threads_list(root, 2000, &tids, &kthreads, NULL);
    g_assert_cmpint(r, ==, G_N_ELEMENTS(want_tids));
    for (guint i = 0; i < G_N_ELEMENTS(want_tids); i++)
        g_assert_cmpint(g_array_index(tids, pid_t, i), ==, want_tids[i]);
    g_assert_cmpuint(kthreads->len, ==, G_N_ELEMENTS(want_k));
    for (guint i = 0; i < G_N_ELEMENTS(want_k); i++)
        g_assert_cmpint(g_array_index(kthreads, pid_t, i), ==, want_k[i]);

    rv_test_rm_rf(dir);
}

/* ---- pure verification ------------------------------------------------ */

typedef struct {
    const char *name;
    guint n_threads;
    guint64 cookies[4];
} VmSpec;

static RvCoreSchedVm *
make_vm(const VmSpec *s, pid_t pid)
{
    RvCoreSchedVm *vm = g_new0(RvCoreSchedVm, 1);

    vm->pid = pid;
    vm->name = g_strdup(s->name);
    vm->threads = g_array_new(FALSE, TRUE, sizeof(RvCoreSchedThread));
    for (guint i = 0; i < s->n_threads; i++) {
        RvCoreSchedThread t = {
            .tid = pid + (pid_t) i,
            .comm = g_strdup(i == 0 ? "qemu-system-x86" : "CPU 0/KVM"),
            .cookie = s->cookies[i],
        };

        g_array_append_val(vm->threads, t);
    }
    vm->cookie = s->n_threads ? s->cookies[0] : 0;
    for (guint i = 1; i < s->n_threads; i++)
        if (s->cookies[i] != vm->cookie)
            vm->cookie = 0;
    return vm;
}

static void
free_vm(RvCoreSchedVm *vm)
{
    for (guint i = 0; vm->threads && i < vm->threads->len; i++)
        g_free(g_array_index(vm->threads, RvCoreSchedThread, i).comm);
    rv_host_coresched_vm_free(vm);
}

static void
test_verify(void)
{
    static const struct {
        VmSpec vms[2];
        guint n;
        const char *error;      /* NULL = passes; else a substring of the message */
    } cases[] = {
        { { { "rt1", 3, { 0x11, 0x11, 0x11 } } }, 1, NULL },
        { { { "rt1", 3, { 0x11, 0x11, 0x11 } }, { "rt2", 2, { 0x22, 0x22 } } }, 2, NULL },
        { { { "rt1", 0, { 0 } } }, 1, "VM 'rt1' (pid 100): no threads found" },
        { { { "rt1", 2, { 0, 0 } } }, 1, "VM 'rt1' (pid 100): thread 100 (qemu-system-x86) has no core cookie" },
        { { { "rt1", 3, { 0x11, 0, 0x11 } } }, 1, "thread 101 (CPU 0/KVM) has no core cookie" },
        { { { "rt1", 3, { 0x11, 0x11, 0x12 } } }, 1,
          "thread 102 (CPU 0/KVM) has cookie 0x12, thread 100 (qemu-system-x86) 0x11" },
        { { { "rt1", 2, { 0x11, 0x11 } }, { "rt2", 2, { 0x11, 0x11 } } }, 2,
          "VM 'rt1' (pid 100) and VM 'rt2' (pid 200) share core cookie 0x11" },
        { { { "rt1", 2, { 0x11, 0x11 } }, { "rt2", 2, { 0x22, 0 } } }, 2,
          "VM 'rt2' (pid 200): thread 201 (CPU 0/KVM) has no core cookie" },
    };

    for (size_t i = 0; i < G_N_ELEMENTS(cases); i++) {
        RvCoreSchedVm *vms[2] = { NULL, NULL };
        g_autoptr(GError) err = NULL;
        int r;

        for (guint j = 0; j < cases[i].n; j++)
            vms[j] = make_vm(&cases[i].vms[j], 100 * (pid_t) (j + 1));
        r = rv_host_coresched_verify_vms(vms, cases[i].n, &err);
        if (!cases[i].error) {
            g_assert_no_error(err);
            g_assert_cmpint(r, ==, 0);
        } else {
            g_assert_cmpint(r, ==, -EPROTO);
            g_assert_error(err, RV_ERROR, RV_ERROR_CHECK);
            g_test_message("case %zu: %s", i, err->message);
            g_assert_nonnull(strstr(err->message, cases[i].error));
        }
        for (guint j = 0; j < cases[i].n; j++)
            free_vm(vms[j]);
    }
}

static void
test_lookup(void)
{
    static const RvTaskCookie tc[] = { { 1, 0 }, { 5, 0x55 }, { 9, 0x99 }, { 12, 0xcc } };
    g_autoptr(GArray) a = g_array_new(FALSE, FALSE, sizeof(RvTaskCookie));

    g_array_append_vals(a, tc, G_N_ELEMENTS(tc));
    g_assert_cmphex(rv_host_coresched_lookup(a, 5), ==, 0x55);
    g_assert_cmphex(rv_host_coresched_lookup(a, 9), ==, 0x99);
    g_assert_cmphex(rv_host_coresched_lookup(a, 12), ==, 0xcc);
    g_assert_cmphex(rv_host_coresched_lookup(a, 1), ==, 0);
    g_assert_cmphex(rv_host_coresched_lookup(a, 6), ==, 0);
    g_assert_cmphex(rv_host_coresched_lookup(a, 13), ==, 0);
    g_assert_cmphex(rv_host_coresched_lookup(NULL, 5), ==, 0);
}

int
main(int argc, char **argv)
{
    g_test_init(&argc, &argv, NULL);
    g_test_add_func("/coresched/reason", test_reason);
    g_test_add_func("/coresched/check-live", test_check_live);
    g_test_add_func("/coresched/tag-unavailable", test_tag_unavailable);
    g_test_add_func("/coresched/fixture-root-refused", test_fixture_root_refused);
    g_test_add_func("/coresched/list-threads-self", test_list_threads_self);
    g_test_add_func("/coresched/list-threads-vhost", test_list_threads_vhost);
    g_test_add_func("/coresched/verify", test_verify);
    g_test_add_func("/coresched/lookup", test_lookup);
    return g_test_run();
}
