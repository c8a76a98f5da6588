/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * guest/verify.h: prove that a running guest got the placement its domain
 * XML asked for (issue 3 item 8).
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
 * affinity expectation and get no check.
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
