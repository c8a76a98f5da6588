/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * guest/verify.h: prove that a running guest got the placement its domain
 * XML asked for.
 *
 * For each vCPU thread (host thread ids from QMP query-cpus-fast) and each
 * other thread of the QEMU process (the emulator threads: main loop, RCU,
 * monitor I/O thread, workers), read from /proc through an RvRoot:
 *   /proc/TID/status    Cpus_allowed_list, Tgid   (proc(5))
 *   /proc/TID/stat      field 40 rt_priority, field 41 policy (proc(5))
 * and compare with the expectation read back from the domain XML
 * (guest/domain-xml.h rv_guest_domain_xml_read_placement()): vcpupin
 * cpuset, vcpusched scheduler/priority, emulatorpin cpuset.  Any difference
 * is a FAIL; nothing is fixed up.
 */
#pragma once

#include <stdbool.h>
#include <glib.h>

#include "guest/placement.h"
#include "host/fsroot.h"

typedef struct {
    bool pass;
    const char *id;   /* stable id (static string): "vcpu.affinity", "vcpu.scheduler",
                       * "vcpu.threads", "emulator.affinity", "iothread.affinity",
                       * "kthread.placement", "memory.locked", "memory.hugepages" */
    char *thread;     /* the thread's comm, escaped ("CPU 1/KVM"), or NULL */
    int tid;          /* the thread id, or 0 */
    char *what;       /* "vCPU 1 (tid 4242) affinity", "emulator thread 4240 (qemu-system-x86) affinity" */
    char *expected;   /* "1", "fifo 1" */
    char *actual;     /* "0-1", "other 0" */
} RvGuestCheck;

typedef struct {
    int qemu_pid;
    GPtrArray *checks;    /* RvGuestCheck*, vCPUs first, then emulator threads */
    guint n_fail;
} RvGuestVerification;

void rv_guest_verification_free(RvGuestVerification *v);
G_DEFINE_AUTOPTR_CLEANUP_FUNC(RvGuestVerification, rv_guest_verification_free)

/**
 * rv_guest_verify_threads:
 * @root: the live host ("/") or a fixture tree with /proc/TID files
 * @expect: what the domain XML asks (n_vcpus entries)
 * @vcpu_tids: host thread id per vCPU (index = vCPU id), @n_tids entries
 * @n_tids: must equal @expect->n_vcpus, else a FAIL check says so
 * @ret: (out): the checks, written only on success
 * @error: (optional): RV_ERROR_FAILED naming the /proc file that could not
 *         be read or parsed (a thread that vanished is an error: the guest
 *         is gone)
 *
 * Policies are compared as sched(7) numbers (SCHED_OTHER 0, FIFO 1, RR 2,
 * BATCH 3, IDLE 5), priorities as rt_priority (0 for non-RT policies).
 * A vCPU without vcpupin, or emulator threads without emulatorpin, have no
 * affinity expectation and get no check.  Threads that are not emulator
 * threads are left to their own checks: libvirt's I/O threads ("IO
 * iothreadN", QEMU iothread.c names them "IO " + the object id) to
 * rv_guest_verify_iothreads(), vhost workers ("vhost-PID", threads of the
 * QEMU process since Linux 6.4's vhost_task) to rv_guest_verify_helpers().
 *
 * Returns: the number of FAIL checks (>= 0), or -errno.
 */
int rv_guest_verify_threads(RvRoot *root, const RvGuestPlacement *expect, const int *vcpu_tids,
                            guint n_tids, RvGuestVerification **ret,
                            GError **error) G_GNUC_WARN_UNUSED_RESULT;

/* "other", "fifo", "rr", "batch", "idle", "deadline" or the number. */
const char *rv_guest_linux_policy_name(int policy);

/**
 * rv_guest_verify_locked_memory:
 * @root: as for rv_guest_verify_threads()
 * @v: a verification whose qemu_pid is known; one check is appended
 * @min_bytes: guest memory that <memoryBacking><locked/> must keep locked
 * @error: (optional): RV_ERROR_FAILED naming /proc/PID/status
 *
 * Compares VmLck of the QEMU process (/proc/PID/status, proc(5)) with
 * @min_bytes: less is a FAIL (memory not locked, page faults possible).
 *
 * Returns: 1 when the check FAILs, 0 when it passes, or -errno.
 */
int rv_guest_verify_locked_memory(RvRoot *root, RvGuestVerification *v, guint64 min_bytes,
                                  GError **error) G_GNUC_WARN_UNUSED_RESULT;

/* One <iothreadpin iothread='ID' cpuset='...'/> (libvirt formatdomain,
 * "CPU Tuning"). */
typedef struct {
    unsigned id;
    RvCpuSet cpuset;
} RvGuestIothreadPin;

/**
 * rv_guest_verify_iothreads:
 * @root: as for rv_guest_verify_threads()
 * @v: a verification whose qemu_pid is known; one check per I/O thread
 * @pins: (nullable): RvGuestIothreadPin per pinned I/O thread
 * @expect: the domain's placement: an I/O thread without iothreadpin is
 *          expected on its <vcpu cpuset> when it has one
 * @online: (nullable): the host's online CPUs: without <vcpu cpuset> an
 *          unpinned I/O thread is expected on all of them; NULL = no check
 *          of unpinned I/O threads then.  libvirt 9.0
 *          src/qemu/qemu_process.c qemuProcessSetupPid(): cpumask = the
 *          thread's pin, else (placement auto: numad's), else
 *          def->cpumask (<vcpu cpuset>), else
 *          qemuProcessGetAllCpuAffinity() = virHostCPUGetOnlineBitmap();
 *          never the emulator's <emulatorpin>
 * @error: (optional): RV_ERROR_FAILED when /proc/PID/task cannot be listed
 *
 * The I/O threads are the tasks of the QEMU process named "IO iothreadN"
 * (libvirt names the objects "iothreadN", QEMU's iothread.c names the
 * thread "IO " + the object id; debug-threads=on).
 *
 * Returns: the number of FAIL checks added (>= 0), or -errno.
 */
int rv_guest_verify_iothreads(RvRoot *root, RvGuestVerification *v, const GArray *pins,
                              const RvGuestPlacement *expect, const RvCpuSet *online,
                              GError **error) G_GNUC_WARN_UNUSED_RESULT;

/**
 * rv_guest_verify_helpers:
 * @root: as for rv_guest_verify_threads()
 * @v: a verification whose qemu_pid is known; one check per helper thread
 * @expect: the domain's placement (the vCPUs' and RT vCPUs' host CPUs)
 * @housekeeping: the host's housekeeping CPUs (online minus isolated)
 * @error: (optional): RV_ERROR_FAILED when /proc cannot be listed
 *
 * The kernel's helpers of this guest: "kvm-pit/PID" (the in-kernel PIT's
 * kthread, arch/x86/kvm/i8254.c) and "vhost-PID" (vhost workers: kthreads
 * before Linux 6.4, threads of the QEMU process since), PID = the QEMU
 * process.  Each must run on housekeeping CPUs, or co-located with the
 * vCPUs it serves (its CPUs within the guest's vCPU CPUs); co-located
 * with an RT vCPU it must itself be FIFO/RR at a priority above the
 * vCPU's, else the FIFO vCPU starves it (tuned realtime-virtual-host
 * raises kvm-pit for this reason).
 *
 * Returns: the number of FAIL checks added (>= 0), or -errno.
 */
int rv_guest_verify_helpers(RvRoot *root, RvGuestVerification *v, const RvGuestPlacement *expect,
                            const RvCpuSet *housekeeping, GError **error) G_GNUC_WARN_UNUSED_RESULT;

/**
 * rv_guest_verify_hugepages:
 * @root: as for rv_guest_verify_threads()
 * @v: a verification whose qemu_pid is known; one check is appended
 * @min_bytes: guest memory that <memoryBacking><hugepages/> must back
 * @error: (optional): RV_ERROR_FAILED naming /proc/PID/status
 *
 * Compares HugetlbPages of the QEMU process (/proc/PID/status, proc(5),
 * Linux 4.4+) with @min_bytes: less is a FAIL.
 *
 * Returns: 1 when the check FAILs, 0 when it passes, or -errno.
 */
int rv_guest_verify_hugepages(RvRoot *root, RvGuestVerification *v, guint64 min_bytes,
                              GError **error) G_GNUC_WARN_UNUSED_RESULT;
