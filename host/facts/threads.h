/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * host/facts/threads.h: kernel threads that matter for real-time (rcuc, rcub,
 * rcuop, ksoftirqd, ktimers, irq/N-name, migration, ... and every kernel thread
 * with an RT policy) with policy, priority and affinity, and the tasks that
 * last ran on given (isolated) CPUs.
 *
 * Sources: /proc/PID/stat (Documentation/filesystems/proc.rst, table 1-4:
 * field 9 flags, 39 processor, 40 rt_priority, 41 policy), /proc/PID/status
 * (Cpus_allowed_list, Kthread), /proc/PID/task/TID/stat.
 */
#pragma once

#include <stdbool.h>
#include <sys/types.h>
#include <glib.h>

#include "util/cpulist.h"
#include "host/fsroot.h"

typedef struct {
    int pid;              /* thread id */
    int tgid;             /* process id (= pid for kernel threads) */
    char *comm;           /* "ksoftirqd/3", "irq/24-ACPI:Ged" */
    bool kthread;         /* PF_KTHREAD (0x00200000) in stat flags, or child of kthreadd */
    int policy;           /* SCHED_OTHER 0, FIFO 1, RR 2, BATCH 3, IDLE 5, DEADLINE 6 */
    int rt_priority;      /* 1..99 for FIFO/RR, 0 otherwise */
    int nice;
    int last_cpu;         /* stat field 39: CPU it last ran on */
    bool has_affinity;
    RvCpuSet affinity;    /* Cpus_allowed_list */
    char *affinity_list;  /* as the kernel printed it */
} RvTask;

void rv_host_task_clear(RvTask *t);

/* "FIFO", "RR", "OTHER", "BATCH", "IDLE", "DEADLINE", or "policy-N". */
const char *rv_host_sched_policy_name(int policy);

/**
 * rv_host_rt_threads_load:
 * @root: live host or fixture tree
 * @ret: (out): GArray of RvTask: kernel threads named like the RT-relevant
 *       ones or running FIFO/RR, sorted by rt_priority (highest first), then name
 *
 * Processes that vanish while being read are skipped; a stat line that
 * cannot be parsed is skipped and counted in @ret_skipped (optional).
 *
 * Returns: 0 or -errno (only when /proc cannot be listed).
 */
int rv_host_rt_threads_load(RvRoot *root, GArray **ret, unsigned *ret_skipped,
                            GError **error) G_GNUC_WARN_UNUSED_RESULT;

/**
 * rv_host_tasks_load:
 * @root: live host or fixture tree
 * @ret: (out): GArray of RvTask: every process (/proc/PID/stat: the main
 *       thread), kernel threads and daemons alike, in /proc order; without
 *       affinity (->has_affinity false)
 *
 * Processes that vanish while being read, and stat lines that cannot be
 * parsed, are skipped.
 *
 * Returns: 0 or -errno (only when /proc cannot be listed).
 */
int rv_host_tasks_load(RvRoot *root, GArray **ret, GError **error) G_GNUC_WARN_UNUSED_RESULT;

/**
 * rv_host_tasks_on_cpus:
 * @cpus: the CPUs of interest (isolated/nohz_full)
 * @ret: (out): GArray of RvTask for every thread (/proc/PID/task/TID) whose
 *       last CPU is in @cpus, sorted by CPU then pid.  Per-CPU kernel
 *       threads bound to that one CPU (ksoftirqd/N, migration/N) are
 *       included; callers tell them apart with ->kthread and ->affinity.
 *
 * Returns: 0 or -errno.
 */
int rv_host_tasks_on_cpus(RvRoot *root, const RvCpuSet *cpus, GArray **ret,
                          GError **error) G_GNUC_WARN_UNUSED_RESULT;

/**
 * rv_host_thread_load:
 * @tgid: the process (for a kernel thread, its own pid)
 * @tid: the thread
 * @ret: (out): the thread from /proc/@tgid/task/@tid/{stat,status}, with
 *       affinity; ret->tgid = @tgid
 *
 * Returns: 0, -ENOENT when the thread is gone, -EINVAL for a stat line
 * that does not parse.
 */
int rv_host_thread_load(RvRoot *root, int tgid, int tid, RvTask *ret) G_GNUC_WARN_UNUSED_RESULT;

/**
 * rv_host_vcpu_threads_load:
 * @ret: (out): GArray of RvTask, with affinity: every thread named as
 *       QEMU names its vCPU threads, "CPU N/KVM" or "CPU N/TCG"
 *       (accel/kvm/kvm-accel-ops.c, accel/tcg/tcg-accel-ops-mttcg.c:
 *       "CPU %d/KVM"), in /proc order; ->tgid is the QEMU process
 *
 * Returns: 0 or -errno (only when /proc cannot be listed).
 */
int rv_host_vcpu_threads_load(RvRoot *root, GArray **ret, GError **error) G_GNUC_WARN_UNUSED_RESULT;

/**
 * rv_host_rt_user_threads_load:
 * @ret: (out): GArray of RvTask, with affinity: every thread of a user
 *       process (not a kernel thread) at SCHED_FIFO, SCHED_RR or
 *       SCHED_DEADLINE, from /proc/PID/task/TID, in /proc order
 *
 * Returns: 0 or -errno (only when /proc cannot be listed).
 */
int rv_host_rt_user_threads_load(RvRoot *root, GArray **ret, GError **error) G_GNUC_WARN_UNUSED_RESULT;

/* The vCPU index of a QEMU vCPU thread name ("CPU 3/KVM" -> 3), or -1. */
int rv_host_vcpu_index(const char *comm);

/* Exposed for the fuzzer and tests: parses one /proc/PID/stat line. */
int rv_host_parse_proc_stat(const char *line, RvTask *ret);

/* Compares two pid_t (g_array_sort() order: ascending). */
int rv_host_pid_cmp(gconstpointer a, gconstpointer b);

/* Parses a /proc directory entry as a pid: decimal digits only, 1..2^31-1.
 * Returns: false (and @ret untouched) for anything else ("self", "0"). */
bool rv_host_pid_parse(const char *s, pid_t *ret);

/**
 * rv_host_process_threads_list:
 * @root: host root (fixture roots work: only /proc is read)
 * @pid: a process id
 * @ret_tids: (out): sorted thread ids (pid_t) of /proc/@pid/task, plus the
 *            vhost worker kernel threads of @pid: on kernels before 6.4
 *            these are kthreads named "vhost-@pid" outside the thread group
 *            (drivers/vhost/vhost.c vhost_dev_set_owner()); from 6.4 on they
 *            are threads of the process and listed under task/ already
 * @ret_kthreads: (out) (optional): the subset of @ret_tids that are such
 *            kernel threads
 * @error: (optional): RV_ERROR_FAILED with -ENOENT when @pid does not exist
 *         (no /proc/@pid/task)
 *
 * Returns: the number of threads or -errno.
 */
int rv_host_process_threads_list(RvRoot *root, pid_t pid, GArray **ret_tids,
                                 GArray **ret_kthreads,
                                 GError **error) G_GNUC_WARN_UNUSED_RESULT;

