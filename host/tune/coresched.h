/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * host/tune/coresched.h: core scheduling cookies for whole VMs.
 *
 * Core scheduling (Documentation/admin-guide/hw-vuln/core-scheduling.rst,
 * kernel/sched/core_sched.c) lets SMT siblings run at the same time only
 * tasks that share a cookie (idle counts as compatible with every cookie;
 * an untagged task has cookie 0, which is a cookie too).  rtvirt gives each
 * VM's QEMU process and ALL its threads (vCPUs, emulator/main loop,
 * iothreads, RCU and worker threads, and vhost workers) one cookie, then
 * reads every thread's cookie back: each VM must be one non-zero cookie and
 * two VMs must differ.  `rtvirt run` (coresched scenarios) and the lab VM
 * (tests/lab) use these same functions.
 *
 * The interface is prctl(PR_SCHED_CORE, CMD, pid, scope, uaddr):
 *  - CREATE on pid with scope THREAD_GROUP (PIDTYPE_TGID) gives a new cookie
 *    to every thread of the process in one call;
 *  - SHARE_FROM (scope THREAD only) copies a task's cookie to the caller,
 *    SHARE_TO pushes the caller's cookie to a task or thread group: rtvirt
 *    does both from a short-lived thread of its own, so rtvirt itself never
 *    carries a VM's cookie;
 *  - GET (scope THREAD only) reads a task's cookie as an opaque non-zero
 *    64-bit id (a hash of the kernel pointer; 0 = no cookie).
 * New threads inherit their creator's cookie (sched_core_fork()), so
 * threads QEMU starts after tagging are covered.
 *
 * Errors of prctl(PR_SCHED_CORE) and what they mean (kernel 5.14..6.x):
 *   EINVAL  kernel built without CONFIG_SCHED_CORE (the prctl is unknown)
 *   ENODEV  no SMT sibling is online: SMT off (smt/control), nosmt, or a
 *           CPU without SMT (static key sched_smt_present)
 *   EPERM   the ptrace access check (PTRACE_MODE_READ_REALCREDS) failed
 *   ESRCH   no such task
 *   ENOMEM  the cookie could not be allocated
 */
#pragma once

#include <stdbool.h>
#include <sys/types.h>
#include <glib.h>

#include "host/fsroot.h"

/* Scopes of prctl(PR_SCHED_CORE): equal to the kernel's PIDTYPE_PID,
 * PIDTYPE_TGID and PIDTYPE_PGID (and PR_SCHED_CORE_SCOPE_*). */
typedef enum {
    RV_CORESCHED_SCOPE_THREAD = 0,
    RV_CORESCHED_SCOPE_THREAD_GROUP = 1,
    RV_CORESCHED_SCOPE_PROCESS_GROUP = 2,
} RvCoreSchedScope;

/* One thread of a VM and the cookie read back from it. */
typedef struct {
    pid_t tid;
    char *comm;        /* /proc/PID/task/TID/comm ("CPU 0/KVM", "qemu-system-x86", "vhost-1234") */
    bool kthread;      /* a vhost worker kernel thread outside the thread group */
    guint64 cookie;    /* PR_SCHED_CORE_GET id; 0 = untagged */
} RvCoreSchedThread;

/* A VM's QEMU process and every thread's cookie. */
typedef struct {
    pid_t pid;
    char *name;        /* caller's label (domain name), may be NULL */
    GArray *threads;   /* RvCoreSchedThread, sorted by tid */
    guint64 cookie;    /* the cookie every thread holds, 0 when they disagree or none */
} RvCoreSchedVm;

void rv_host_coresched_vm_free(RvCoreSchedVm *vm);
G_DEFINE_AUTOPTR_CLEANUP_FUNC(RvCoreSchedVm, rv_host_coresched_vm_free)

/* A (tid, cookie) pair, for whole-system snapshots. */
typedef struct {
    pid_t tid;
    guint64 cookie;
} RvTaskCookie;

/**
 * rv_host_coresched_reason:
 * @errnum: a positive errno returned by prctl(PR_SCHED_CORE)
 *
 * Returns: (transfer none): why core scheduling cannot be used, one phrase
 * naming the errno ("kernel without CONFIG_SCHED_CORE (prctl(PR_SCHED_CORE)
 * answers EINVAL)", "no SMT sibling online: SMT is off or absent
 * (prctl(PR_SCHED_CORE) answers ENODEV)", ...); a generic phrase for other
 * errnos.  For SKIPPED records and log lines.
 */
const char *rv_host_coresched_reason(int errnum);

/**
 * rv_host_coresched_check:
 * @root: the host; core scheduling can only be probed on the live host
 * @error: (optional): RV_ERROR_UNSUPPORTED with rv_host_coresched_reason()
 *         (ENODEV, EINVAL, EPERM) or for a fixture root (-EOPNOTSUPP)
 *
 * Probes with PR_SCHED_CORE_GET on the calling thread.
 *
 * Returns: 0 when core cookies can be created here, else -errno.
 */
int rv_host_coresched_check(RvRoot *root, GError **error) G_GNUC_WARN_UNUSED_RESULT;

/**
 * rv_host_coresched_get:
 * @tid: a thread id (0 = the calling thread)
 * @ret_cookie: (out): the cookie id, 0 when the thread has none
 * @error: (optional): RV_ERROR_UNSUPPORTED (EINVAL, ENODEV) or
 *         RV_ERROR_FAILED (ESRCH, EPERM) naming @tid and the reason
 *
 * Returns: 0 or -errno.
 */
int rv_host_coresched_get(pid_t tid, guint64 *ret_cookie, GError **error) G_GNUC_WARN_UNUSED_RESULT;

/**
 * rv_host_coresched_create:
 * @pid: a thread id (scope THREAD), a process id (THREAD_GROUP) or a
 *       process group id (PROCESS_GROUP)
 * @scope: what gets the new cookie
 *
 * PR_SCHED_CORE_CREATE: a new unique cookie for @pid's @scope (for
 * "one cookie per vCPU", give each vCPU thread its own with scope THREAD).
 *
 * Returns: 0 or -errno (errors as rv_host_coresched_get()).
 */
int rv_host_coresched_create(pid_t pid, RvCoreSchedScope scope,
                             GError **error) G_GNUC_WARN_UNUSED_RESULT;

/**
 * rv_host_coresched_share:
 * @from_tid: thread whose cookie is copied (0 cookie = untag)
 * @to_pid: target thread / process / process group
 * @scope: scope at @to_pid
 *
 * Copies @from_tid's cookie to @to_pid: a helper thread of the calling
 * process does SHARE_FROM @from_tid then SHARE_TO @to_pid, and exits, so
 * the caller's own cookie never changes.  With @from_tid = -1 the helper
 * keeps no cookie and the target is untagged (cookie 0).
 *
 * Returns: 0 or -errno.
 */
int rv_host_coresched_share(pid_t from_tid, pid_t to_pid, RvCoreSchedScope scope,
                            GError **error) G_GNUC_WARN_UNUSED_RESULT;

/**
 * rv_host_coresched_read_vm:
 * @root: the live host
 * @pid: the VM's QEMU process
 * @name: (nullable): label for messages (libvirt domain name)
 * @ret: (out): every thread (rv_host_process_threads_list()) with its
 *       cookie read back by PR_SCHED_CORE_GET; ret->cookie is the common
 *       cookie or 0.  Threads that exit while being read are left out.
 *
 * Returns: 0 or -errno (RV_ERROR_UNSUPPORTED with the reason when core
 * scheduling is unavailable).
 */
int rv_host_coresched_read_vm(RvRoot *root, pid_t pid, const char *name,
                              RvCoreSchedVm **ret, GError **error) G_GNUC_WARN_UNUSED_RESULT;

/**
 * rv_host_coresched_tag_vm:
 * @root: the live host
 * @pid: the VM's QEMU process
 * @name: (nullable): label for messages
 * @ret: (out) (optional): the VM read back after tagging (as
 *       rv_host_coresched_read_vm())
 * @error: (optional): RV_ERROR_UNSUPPORTED with the reason (ENODEV: SMT
 *         off; EINVAL: no CONFIG_SCHED_CORE; EPERM), RV_ERROR_CHECK when,
 *         after 3 rounds, a thread still holds another cookie
 *
 * Gives the whole VM one new cookie: CREATE on @pid with scope
 * THREAD_GROUP, then SHARE_TO every vhost kthread and every thread found
 * with another cookie (a thread created during the CREATE), then reads
 * every thread back (rv_host_coresched_verify_vm()).
 *
 * Returns: 0 or -errno.
 */
int rv_host_coresched_tag_vm(RvRoot *root, pid_t pid, const char *name,
                             RvCoreSchedVm **ret, GError **error) G_GNUC_WARN_UNUSED_RESULT;

/**
 * rv_host_coresched_untag_vm:
 *
 * Gives every thread of the VM (@pid's thread group and its vhost kthreads)
 * cookie 0 again, as rv_host_coresched_share() with @from_tid = -1.
 *
 * Returns: 0 or -errno.
 */
int rv_host_coresched_untag_vm(RvRoot *root, pid_t pid, GError **error) G_GNUC_WARN_UNUSED_RESULT;

/**
 * rv_host_coresched_verify_vm:
 * @vm: a VM read back
 * @error: (optional): RV_ERROR_CHECK naming the VM, the thread (tid and
 *         comm) and both cookies: "VM 'rt1' (pid 123): thread 130 (CPU
 *         1/KVM) has cookie 0x0, thread 123 (qemu-system-x86) 0x5e..."
 *
 * Pure: checks that the VM has threads and all hold one non-zero cookie.
 *
 * Returns: 0 or -EPROTO.
 */
int rv_host_coresched_verify_vm(const RvCoreSchedVm *vm, GError **error) G_GNUC_WARN_UNUSED_RESULT;

/**
 * rv_host_coresched_verify_vms:
 * @vms: VMs read back
 * @n_vms: number of @vms
 * @error: (optional): RV_ERROR_CHECK for the first VM failing
 *         rv_host_coresched_verify_vm(), or naming two VMs that share a
 *         cookie
 *
 * Pure: each VM is one non-zero cookie and no two VMs share one.
 *
 * Returns: 0 or -EPROTO.
 */
int rv_host_coresched_verify_vms(RvCoreSchedVm * const *vms, guint n_vms,
                                 GError **error) G_GNUC_WARN_UNUSED_RESULT;

/**
 * rv_host_coresched_snapshot:
 * @root: the live host
 * @ret: (out): RvTaskCookie for every thread of every process in /proc
 *       (kernel threads included), sorted by tid; threads that cannot be
 *       read (gone, EPERM) are left out
 *
 * For labelling a sched_switch trace (host/trace/schedtrace.h) with cookies.
 *
 * Returns: the number of entries or -errno (RV_ERROR_UNSUPPORTED when core
 * scheduling is unavailable).
 */
int rv_host_coresched_snapshot(RvRoot *root, GArray **ret, GError **error) G_GNUC_WARN_UNUSED_RESULT;

/* Cookie of @tid in a sorted RvTaskCookie array (snapshot), 0 when absent. */
guint64 rv_host_coresched_lookup(const GArray *snapshot, pid_t tid);
