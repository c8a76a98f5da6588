/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * host/facts/rtview.h: the RT priority view across host and guests:
 * for each CPU that carries an RT vCPU, the RT threads that may
 * run there with policy and priority, and the inversions the kernel lists
 * keep finding:
 *   above: a kernel thread allowed on the vCPU's CPU at a higher priority
 *          that can run long (rcuc/N running RCU callbacks with IRQs off
 *          for ~10 us next to a vCPU; rcub/N boosting; ktimers/N, irq/N-*
 *          threaded handlers, RT ksoftirqd);
 *   below: a thread the vCPU's guest depends on that can run only on that
 *          CPU at a lower priority than a FIFO/RR vCPU (ksoftirqd/N of
 *          the CPU, the VM's vhost worker or QEMU I/O thread pinned
 *          there): it runs only when the vCPU halts.
 * Priority ranks: SCHED_DEADLINE above every FIFO/RR, FIFO/RR by
 * rt_priority (1-99), SCHED_OTHER/BATCH/IDLE 0 (sched(7)).
 * Pure over RvTask arrays (host/facts/threads.h), so fixture trees and tests
 * drive it; host show and `rtvirt run` (run.json) load the threads.
 */
#pragma once

#include <glib.h>
#include <json-glib/json-glib.h>

#include "host/fsroot.h"
#include "host/facts/threads.h"

typedef enum {
    RV_RT_INVERSION_ABOVE,   /* a thread above the vCPU that can run long */
    RV_RT_INVERSION_BELOW,   /* a thread the guest needs, below the vCPU */
} RvRtInversionKind;

typedef struct {
    RvRtInversionKind kind;
    int pid;
    char *comm;
    int policy, rt_priority;
    char *why;               /* one sentence: what it does to the vCPU */
} RvRtInversion;

typedef struct {
    unsigned cpu;            /* the vCPU's CPU: its one allowed CPU, or
                              * where it last ran when not pinned */
    bool pinned;             /* the vCPU may run on @cpu only */
    char *vm;                /* VM name (libvirt domain), or "qemu PID" */
    RvTask vcpu;             /* the vCPU thread ("CPU 1/KVM") */
    GArray *threads;         /* RvTask: RT threads allowed on @cpu and the
                              * kernel threads bound to it, highest first */
    GPtrArray *inversions;   /* RvRtInversion* */
} RvRtCpuView;

void rv_host_rt_view_free(RvRtCpuView *v);
G_DEFINE_AUTOPTR_CLEANUP_FUNC(RvRtCpuView, rv_host_rt_view_free)

/* Rank of a policy and priority as above: DEADLINE 100, FIFO/RR 1-99,
 * others 0. */
int rv_host_rt_rank(int policy, int rt_priority);

/**
 * rv_host_rt_view_build:
 * @vcpu: the vCPU thread, with affinity (rv_host_thread_load())
 * @vm: (nullable): the VM's name; NULL gives "qemu <vcpu->tgid>"
 * @host_threads: RvTask from rv_host_rt_view_host_threads() (kernel
 *                threads named RT-relevant or at an RT policy, and user
 *                threads at an RT policy, with affinity)
 * @vm_threads: (nullable): RvTask of the VM's non-vCPU threads and vhost
 *              workers, with affinity
 *
 * Returns: (transfer full): the view of @vcpu's CPU.
 */
RvRtCpuView *rv_host_rt_view_build(const RvTask *vcpu, const char *vm, const GArray *host_threads,
                                   const GArray *vm_threads);

/**
 * rv_host_rt_view_host_threads:
 * @ret: (out): RvTask: rv_host_rt_threads_load()'s kernel threads, then
 *       rv_host_rt_user_threads_load()'s user threads at an RT policy
 *
 * Returns: 0 or -errno.
 */
int rv_host_rt_view_host_threads(RvRoot *root, GArray **ret, GError **error) G_GNUC_WARN_UNUSED_RESULT;

/**
 * rv_host_rt_view_load:
 * @root: live host or fixture tree
 * @ret: (out): RvRtCpuView*, one per QEMU vCPU thread at an RT policy
 *       (rv_host_vcpu_threads_load()), with the VM's name from its
 *       command line ("-name guest=NAME,..."), the QEMU process's other
 *       threads and its vhost-PID workers
 *
 * Returns: 0 or -errno (only when /proc cannot be listed).
 */
int rv_host_rt_view_load(RvRoot *root, GPtrArray **ret, GError **error) G_GNUC_WARN_UNUSED_RESULT;

/**
 * rv_host_rt_view_vm_threads:
 * @pid: a QEMU process
 * @ret: (out): RvTask with affinity: its threads that are no vCPU thread,
 *       and its vhost workers (rv_host_process_threads_list())
 *
 * Returns: 0 or -errno (-ENOENT: no such process).
 */
int rv_host_rt_view_vm_threads(RvRoot *root, int pid, GArray **ret) G_GNUC_WARN_UNUSED_RESULT;

/* Adds @v as a JSON object: {cpu, pinned, vm, vcpu: {tid, comm, policy,
 * rt_priority, allowed}, threads: [{pid, comm, policy, rt_priority,
 * allowed}], inversions: [{kind: "above"|"below", pid, comm, policy,
 * rt_priority, why}]}; policy as rv_host_sched_policy_name() names it. */
void rv_host_rt_view_to_json(JsonBuilder *b, const RvRtCpuView *v);

/* Appends @v as text: a heading line, one line per thread, one line per
 * inversion ("  INVERSION above: ..."). */
void rv_host_rt_view_format(GString *s, const RvRtCpuView *v);
