/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * host/profile/partition.h: the CPU partition of a host profile on a topology:
 * housekeeping CPUs and isolated CPUs, by WHOLE cores.
 *
 * Rules (the point of the module, see
 * Documentation/admin-guide/kernel-per-CPU-kthreads.rst):
 *  - an isolated CPU's SMT sibling is never a housekeeping CPU: isolation
 *    is decided per core (RvCore.threads, host/facts/topology.h);
 *  - "N housekeeping cores per socket": in every package, the N cores with
 *    the lowest CPU ids that have an online thread do housekeeping (all their
 *    threads); the other cores with an online thread are isolated.  A
 *    platform without package ids (pseries, s390: package -1) is one
 *    package.  CPU 0 is not assumed online (s390 LPARs run without it);
 *  - "N isolated cores per socket" (isolated_cores_per_socket): in every
 *    package the N cores with the highest CPU ids that have an online
 *    thread are isolated, the others do housekeeping; a package with N
 *    cores or fewer keeps its lowest core for housekeeping (a note says
 *    so).  For RT guests beside throughput neighbours: the neighbours'
 *    vCPUs float over the housekeeping CPUs, which is most of the host;
 *  - explicit lists: a profile giving only housekeeping= has it rounded up
 *    to whole cores (siblings join housekeeping), one giving only
 *    isolated= has it rounded up (siblings join the isolated set); a
 *    profile giving both must already be whole cores, or it is rejected;
 *  - threads of a core that are offline but known (ppc64 SMT=4 on SMT8
 *    hardware, hwloc complete_cpuset) go with their core, so that bringing
 *    them online later cannot split a core; CPUs whose core is unknown
 *    (possible but not present) belong to neither set;
 *  - SMT policy: rt CPUs are the isolated CPUs where real-time work
 *    (vCPUs) may run.  smt=keep: all online isolated CPUs; idle-siblings,
 *    off-boot, off-runtime: the first online thread of each isolated core,
 *    the others are idle siblings (kept idle, or offline without SMT).
 */
#pragma once

#include <stdbool.h>
#include <glib.h>

#include "util/cpulist.h"
#include "host/profile/profile.h"
#include "host/facts/topology.h"

typedef struct {
    RvCpuSet housekeeping;   /* whole cores, online and known-offline threads */
    RvCpuSet isolated;       /* whole cores, online and known-offline threads */
    RvCpuSet housekeeping_online;  /* housekeeping & online */
    RvCpuSet isolated_online;      /* isolated & online */
    RvCpuSet rt_cpus;        /* online isolated CPUs for RT work (see SMT policy) */
    RvCpuSet idle_siblings;  /* online isolated CPUs kept idle (isolated_online - rt_cpus) */
    RvCpuSet unassigned;     /* online CPUs of unknown core: in neither set */
    RvHostSmtPolicy smt;     /* the profile's policy (UNSET treated as keep) */
    char *how;               /* one line: "1 housekeeping core per package" or
                              * "explicit housekeeping=0 isolated=1" */
    GPtrArray *notes;        /* char *: adjustments made, e.g. "CPU 36 joins
                              * housekeeping: SMT sibling of CPU 0" */
} RvHostPartition;

/* Frees a partition; accepts NULL. */
void rv_host_partition_free(RvHostPartition *part);
G_DEFINE_AUTOPTR_CLEANUP_FUNC(RvHostPartition, rv_host_partition_free)

/**
 * rv_host_partition_compute:
 * @profile: a host profile ([cpus] section)
 * @topo: the host's topology
 * @ret: (out): the partition, written only on success
 * @error: (optional): RV_ERROR_INVALID when explicit lists split a core,
 *         name CPUs that are not online, or when no CPU is left for
 *         housekeeping or for isolation (e.g. one core per package and one
 *         housekeeping core per package)
 *
 * Returns: 0 or -errno.
 */
int rv_host_partition_compute(const RvHostProfile *profile, const RvTopology *topo,
                              RvHostPartition **ret, GError **error) G_GNUC_WARN_UNUSED_RESULT;

/**
 * rv_host_partition_format:
 *
 * Returns: (transfer full): the plan printed by `host apply --dry-run` and
 * used as expected output by tests: "key: value" lines (how, smt,
 * housekeeping, isolated, their online parts, rt_cpus, idle_siblings,
 * unassigned, then one "package P: housekeeping L isolated L" line per
 * package and one "note: ..." line per note), cpulists in canonical form.
 */
char *rv_host_partition_format(const RvHostPartition *part, const RvTopology *topo);
