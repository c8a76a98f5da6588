/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * host/tune/confine.h: keep rtvirt's own threads off the CPUs it measures.
 * During a repetition's measurement every thread of
 * this process (the tasks of /proc/self/task: the run thread, the
 * workload and agent threads, GLib's and libvirt's event threads, the
 * trace reader) gets the housekeeping CPUs as its affinity
 * (sched_setaffinity(2) per TID; threads created later inherit the
 * creating thread's mask, sched(7)).  Child processes started after it
 * inherit it too: the host probes (rtvirt-pert, cyclictest -a) pin
 * themselves to the CPU they measure, which sched_setaffinity allows.
 * Linux only; never touches other processes.
 */
#pragma once

#include <stdbool.h>
#include <glib.h>

#include "util/cpulist.h"

/* What one confinement did (run.json: the host-counters record's
 * details.confinement, harness/run.c). */
typedef struct {
    RvCpuSet cpus;          /* the housekeeping CPUs the threads got */
    RvCpuSet original;      /* the calling thread's mask before: restored */
    unsigned threads;       /* tasks of /proc/self/task seen */
    unsigned confined;      /* of them, read back as a subset of @cpus */
    unsigned gone;          /* exited between listing and setting */
    char *stray;            /* "TID comm: CPUs" of the first not confined, or NULL */
} RvHostConfine;

void rv_host_confine_clear(RvHostConfine *c);

/**
 * rv_host_confine_self:
 * @cpus: the housekeeping CPUs (a non-empty subset of the online CPUs)
 * @ret: (out caller-allocates): what was done; rv_host_confine_clear() it
 * @error: RV_ERROR_INVALID when @cpus is empty; RV_ERROR_FAILED with the
 *         errno of opendir("/proc/self/task") or of sched_getaffinity(0)
 *
 * Sets every task of this process to @cpus, then reads each mask back
 * (sched_getaffinity(TID)) and counts the ones inside @cpus.  A task that
 * exits in between (ESRCH) is counted in @gone, not as a failure.  A task
 * the kernel refuses (EINVAL: @cpus holds no CPU it may use, e.g. a
 * cpuset cgroup) is named in @stray.
 *
 * Returns: 0 (also when some tasks stayed stray: compare confined with
 * threads - gone) or -errno.
 */
int rv_host_confine_self(const RvCpuSet *cpus, RvHostConfine *ret, GError **error)
    G_GNUC_WARN_UNUSED_RESULT;

/**
 * rv_host_confine_restore:
 * @c: a confinement rv_host_confine_self() did
 *
 * Gives every task of this process @c->original again (the threads
 * created during the confinement included).  Errors are ignored: a task
 * that exited has nothing to restore.
 */
void rv_host_confine_restore(const RvHostConfine *c);
