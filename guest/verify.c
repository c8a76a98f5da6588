/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * guest/verify.c: live verification of vCPU and emulator threads (guest/verify.h).
 */
#include <errno.h>
#include <sched.h>
#include <stdlib.h>
#include <string.h>

#include "guest/verify.h"
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

static void
add_check(RvGuestVerification *v, bool pass, char *what, char *expected, char *actual)
{
    RvGuestCheck *c = g_new0(RvGuestCheck, 1);

    c->pass = pass;
    c->what = what;
    c->expected = expected;
    c->actual = actual;
    if (!pass)
        v->n_fail++;
    g_ptr_array_add(v->checks, c);
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
        add_check(v, false, g_strdup("vCPU thread count"),
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
            add_check(v, rv_cpuset_equal(&vp->cpuset, &t.allowed),
                      g_strdup_printf("vCPU %u (tid %d) affinity", i, vcpu_tids[i]),
                      rv_cpulist_format(&vp->cpuset), g_strdup(t.allowed_str));
        add_check(v, t.policy == want_policy && (!rt || t.rt_priority == vp->priority),
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
            {
                /* comm is whatever the thread named itself (prctl): escaped */
                g_autofree char *comm = rv_escape_value(t.comm);

                add_check(v, rv_cpuset_equal(&expect->emulator, &t.allowed),
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
    add_check(v, pass, g_strdup_printf("QEMU process %d locked memory (VmLck)", v->qemu_pid),
              g_strdup_printf(">= %" G_GUINT64_FORMAT " kB", min_bytes / 1024),
              g_strdup_printf("%" G_GINT64_FORMAT " kB", kb));
    return pass ? 0 : 1;
}
