/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * host/facts/topology.h: CPU topology of a host: packages, NUMA nodes, cores and
 * their SMT sibling threads, possible/present/online/offline CPUs.
 *
 * Sources, all reduced to the same RvTopology:
 *  - sysfs through an RvRoot (live host or fixture tree):
 *    Documentation/ABI/stable/sysfs-devices-system-cpu and
 *    Documentation/admin-guide/cputopology.rst: cpuN/topology/
 *    {thread_siblings_list|core_cpus_list|thread_siblings, core_id,
 *    physical_package_id, die_id}, cpu/{possible,present,online,offline},
 *    node/nodeN/cpulist.  Old kernels (hex masks only, no *_list, no
 *    top-level online file) and pseries (physical_package_id = -1) included.
 *  - hwloc XML exports (lstopo --of xml, hwloc 2.x), through hwloc.
 *  - text dumps as users paste them: `lscpu -e`, `lscpu -p`, `ppc64_cpu
 *    --info`, and `grep -H . /sys/devices/system/cpu/...` (converted to a
 *    fixture tree by rv_host_sysfs_dump_to_tree()).
 *
 * CPU ids are Linux logical CPU numbers (hwloc PU os_index).
 */
#pragma once

#include <stdbool.h>
#include <glib.h>

#include "util/cpulist.h"
#include "host/fsroot.h"

/* One physical core and its hardware threads (SMT siblings). */
typedef struct {
    int package;       /* physical_package_id; -1 where the platform has none (pseries) */
    int die;           /* die_id, -1 unknown */
    int core_id;       /* kernel core_id: unique within a package, NOT contiguous; -1 unknown */
    int node;          /* NUMA node of the core's first thread, -1 unknown */
    RvCpuSet threads;  /* all threads of the core: online ones, and offline ones
                        * where the source knows them (ppc64_cpu, hwloc
                        * complete_cpuset); never empty */
} RvCore;

/* A package (socket) or a NUMA node: an id and its CPUs. */
typedef struct {
    int id;            /* physical_package_id / node id (-1: package unknown) */
    RvCpuSet cpus;     /* online CPUs of the group, plus known offline ones */
} RvCpuGroup;

typedef struct {
    char *source;          /* "sysfs:/", "sysfs:tests/data/...", "hwloc-xml:FILE", "lscpu:FILE" */
    unsigned nr_cpu_ids;   /* last possible CPU + 1 (what "N"/"all" resolve against) */
    RvCpuSet possible;     /* cpu/possible, or every CPU the source names */
    RvCpuSet present;      /* cpu/present, or = possible when unknown */
    RvCpuSet online;       /* cpu/online, or CPUs marked online */
    RvCpuSet offline;      /* possible & ~online */
    bool has_possible;     /* possible/present came from the source, not inferred */
    GArray *cores;         /* RvCore, sorted by lowest thread id */
    GArray *packages;      /* RvCpuGroup, sorted by id */
    GArray *nodes;         /* RvCpuGroup, sorted by id; empty when unknown */
    unsigned threads_per_core; /* the most threads of any core (1 = no SMT) */
    unsigned min_threads_per_core; /* the fewest (hybrid CPUs: 1 while max is 2) */
    bool smt;              /* some core has more than one thread */
    int *cpu_core;         /* [nr_cpu_ids]: index into cores, -1 when the CPU's core is unknown */
} RvTopology;

void rv_host_topology_free(RvTopology *topo);
G_DEFINE_AUTOPTR_CLEANUP_FUNC(RvTopology, rv_host_topology_free)

/**
 * rv_host_topology_load:
 * @root: live host or fixture tree
 * @ret: (out): the topology, written only on success
 * @error: (optional): RV_ERROR_INVALID naming the file and value for a
 *         malformed sysfs value; RV_ERROR_FAILED when no CPU can be found
 *
 * Reads /sys/devices/system/cpu and /sys/devices/system/node through @root.
 * Offline CPUs have no topology/ directory: they appear in possible/offline
 * but in no core unless an online sibling's mask names them.
 *
 * Returns: 0 or -errno.
 */
int rv_host_topology_load(RvRoot *root, RvTopology **ret, GError **error) G_GNUC_WARN_UNUSED_RESULT;

/**
 * rv_host_topology_load_hwloc_xml:
 * @path: an hwloc XML export (hwloc 1.x or 2.x format)
 *
 * Package/Core/PU/NUMANode objects; a PU in the root complete_cpuset but not
 * in its cpuset is offline.
 *
 * Returns: 0 or -errno (RV_ERROR_INVALID when hwloc rejects the file).
 */
int rv_host_topology_load_hwloc_xml(const char *path, RvTopology **ret,
                                    GError **error) G_GNUC_WARN_UNUSED_RESULT;

/**
 * rv_host_topology_load_text:
 * @path: a pasted text dump: `lscpu -e`/`lscpu --extended` table (rows may
 *        be elided), `lscpu -p` CSV (the first, logical section is used),
 *        or `ppc64_cpu --info` ('*' marks online threads)
 *
 * Returns: 0 or -errno (RV_ERROR_INVALID naming FILE:LINE when nothing
 * usable is found or a row is malformed).
 */
int rv_host_topology_load_text(const char *path, RvTopology **ret,
                               GError **error) G_GNUC_WARN_UNUSED_RESULT;

/**
 * rv_host_sysfs_dump_to_tree:
 * @dump_path: text in `grep -H . FILES` form: "/sys/...:value" per line
 *             ("/sys/...:" for an empty file)
 * @dir: directory to create the files under (created as needed)
 *
 * Turns a pasted sysfs dump into a fixture tree that rv_host_root_open()
 * and rv_host_topology_load() read like a live host.
 *
 * Returns: the number of files written or -errno (RV_ERROR_INVALID with
 * FILE:LINE for a line that is not "/path:value").
 */
int rv_host_sysfs_dump_to_tree(const char *dump_path, const char *dir,
                               GError **error) G_GNUC_WARN_UNUSED_RESULT;

/**
 * rv_host_topology_load_file:
 * @path: a topology file in any of the formats above, told apart by its
 *        first non-blank character:
 *        '<': an hwloc XML export (`lstopo --of xml`), read by
 *             rv_host_topology_load_hwloc_xml();
 *        '/': a `grep -H . /sys/devices/system/cpu/...` dump, converted by
 *             rv_host_sysfs_dump_to_tree() into a temporary fixture tree
 *             (g_dir_make_tmp(), removed again before returning, also on
 *             failure) and read by rv_host_topology_load(); the topology's
 *             source is then "sysfs-dump:@path";
 *        anything else: `lscpu -e`/`lscpu -p`/`ppc64_cpu --info` text, read
 *             by rv_host_topology_load_text().
 * @ret: (out): the topology, written only on success
 * @error: (optional): RV_ERROR_FAILED when @path cannot be read or the
 *         temporary tree cannot be created or removed; otherwise the error
 *         of the loader that the format picked (RV_ERROR_INVALID naming
 *         FILE:LINE or the value for malformed input)
 *
 * Returns: 0 or -errno.
 */
int rv_host_topology_load_file(const char *path, RvTopology **ret,
                               GError **error) G_GNUC_WARN_UNUSED_RESULT;

/* The core holding @cpu, or NULL when unknown (offline CPU, out of range). */
const RvCore *rv_host_topology_core_of(const RvTopology *topo, unsigned cpu);
/* @cpu's SMT siblings including @cpu itself (its core's threads); returns
 * 0, or -ENOENT when the core of @cpu is unknown (ret untouched). */
int rv_host_topology_siblings(const RvTopology *topo, unsigned cpu, RvCpuSet *ret);
/**
 * rv_host_topology_sibling_map:
 * @topo: a topology
 * @ret: (out caller-allocates): @n entries: ret[c] = the first other SMT
 *       thread of CPU c's core (sysfs thread_siblings_list order), or -1
 *       where c has no sibling (no SMT, SMT off, c offline or >= nr_cpu_ids)
 * @n: entries of @ret (nr_cpu_ids for the co-scheduling stats,
 *     results/cosched.h, which take one sibling per CPU: on SMT4/SMT8 cores
 *     (POWER) the other threads are not all seen)
 *
 * Returns: the number of CPUs that have a sibling (0 on a host without SMT).
 */
guint rv_host_topology_sibling_map(const RvTopology *topo, int *ret, guint n);
/* Package id of @cpu; -1 when unknown or the platform has none. */
int rv_host_topology_package_of(const RvTopology *topo, unsigned cpu);
/* NUMA node of @cpu; -1 when unknown. */
int rv_host_topology_node_of(const RvTopology *topo, unsigned cpu);
/* Every sibling of a CPU in @cpus (the whole cores touched by @cpus). */
void rv_host_topology_expand_cores(const RvTopology *topo, const RvCpuSet *cpus,
                                   RvCpuSet *ret);

/**
 * rv_host_topology_format:
 *
 * Returns: (transfer full): a canonical multi-line text description
 * (cpus, packages, nodes, one line per core "core P/C node N threads L"),
 * stable across sources; used by tests as the expected-output format.
 */
char *rv_host_topology_format(const RvTopology *topo);
