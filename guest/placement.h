/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * guest/placement.h: where a guest's vCPU and emulator threads run on a host.
 *
 * Rules (libvirt kbase "KVM real time",
 * https://libvirt.org/kbase/kvm-realtime.html; nova's
 * hw:cpu_realtime_mask / hw:emulator_threads_policy):
 *  - every RT vCPU is pinned 1:1 to its own isolated host CPU and runs
 *    SCHED_FIFO at the profile's rt_priority;
 *  - with host_sibling = idle an RT vCPU takes a whole isolated core (every
 *    online thread isolated) and its SMT siblings stay idle; a split core is
 *    never used;
 *  - with host_sibling = shared (a matrix scenario's, never a profile's) an
 *    RT vCPU takes a whole isolated core as with idle, and its SMT siblings
 *    are left to neighbour guests (shared_siblings): rtvirt run deals the
 *    neighbours' vCPUs onto them (rv_guest_placement_deal()), which is what
 *    an SMT host without core scheduling does to RT guests, and what core
 *    scheduling makes safe (one cookie per VM);
 *  - with guest threads_per_core = T > 1 every guest core (vCPUs kT..kT+T-1)
 *    of RT vCPUs lands on the threads of one host core (guest SMT siblings
 *    are host SMT siblings); a guest core mixing RT and non-RT vCPUs is
 *    refused;
 *  - all RT vCPUs on one NUMA node (or package, where nodes are unknown)
 *    when one can hold them, else spread with a NOTE; the first such node
 *    in CPU order wins;
 *  - non-RT vCPUs and emulator threads float over the housekeeping CPUs
 *    (SCHED_OTHER), those of the RT vCPUs' node when it has any;
 *  - on a host with no isolated CPU, a profile with require_isolated = false
 *    still places: housekeeping = the first online core (the boot CPU's),
 *    RT candidates = the other online CPUs, with a NOTE per RT vCPU that its
 *    CPU is not isolated.
 * An impossible or unsafe placement is refused with the reason.
 *
 * Unlike the kbase, which pins even the non-RT vCPU 1:1 to an isolated CPU,
 * rtvirt keeps non-RT vCPUs with the emulator threads on housekeeping CPUs:
 * an isolated CPU is worth more than a vCPU doing guest I/O.
 *
 * The result is also the verification expectation: what libvirt must have
 * applied to each vCPU thread and to the emulator threads.
 * guest/domain-xml.h reads a domain's <cputune> back into the same shape.
 */
#pragma once

#include <stdbool.h>
#include <glib.h>

#include "guest/profile.h"
#include "util/cpulist.h"
#include "host/fsroot.h"
#include "host/profile/partition.h"
#include "host/facts/topology.h"

/*
 * The host as placement sees it.  Filled by rv_guest_host_cpus_from_root()
 * or by hand (tests, other topology sources) with rv_guest_host_cpus_new()
 * and rv_guest_host_cpus_add_core().
 */
typedef struct {
    unsigned nr_cpu_ids;    /* possible CPUs (bound for cpulists) */
    RvCpuSet online;
    RvCpuSet isolated;      /* CPUs set aside for RT vCPUs */
    RvCpuSet housekeeping;  /* CPUs for emulator threads and non-RT vCPUs;
                             * default: online minus isolated */
    RvCpuSet reserved;      /* CPUs other guests already hold: never used for
                             * RT vCPUs of this guest (rtvirt run fills it) */
    RvCpuSet kept_idle;     /* isolated CPUs the HOST keeps idle (host
                             * profile smt = idle-siblings): never given to
                             * a vCPU, yet they leave their core whole */
    char *isolated_source;  /* where @isolated came from, for messages:
                             * "/sys/devices/system/cpu/isolated", "host
                             * profile rt-host.ini" */
    GArray *cores;          /* RvCpuSet per core: its ONLINE threads (SMT
                             * siblings), ordered by lowest CPU */
    GArray *groups;         /* RvCpuGroup (host/facts/topology.h): locality
                             * groups, online CPUs only: NUMA nodes where
                             * there are several, else packages; may be empty */
    bool groups_are_nodes;
    /* memory (rv_guest_host_memory_load(), guest/check.h): */
    bool nodes_known;       /* /sys/devices/system/node/online was read */
    RvCpuSet nodes;         /* the host's online NUMA node ids */
    GArray *hugepage_pools; /* RvGuestHugepagePool; NULL = not read */
} RvGuestHostCpus;

/* One hugepage pool of the host: /sys/kernel/mm/hugepages/hugepages-SIZEkB
 * (node -1) or /sys/devices/system/node/nodeN/hugepages/hugepages-SIZEkB
 * (Documentation/admin-guide/mm/hugetlbpage.rst). */
typedef struct {
    int node;               /* -1: the whole host */
    guint64 size_kib;
    guint64 nr;             /* nr_hugepages */
    guint64 free;           /* free_hugepages */
} RvGuestHugepagePool;

RvGuestHostCpus *rv_guest_host_cpus_new(unsigned nr_cpu_ids);
void rv_guest_host_cpus_free(RvGuestHostCpus *host);
G_DEFINE_AUTOPTR_CLEANUP_FUNC(RvGuestHostCpus, rv_guest_host_cpus_free)

/* Adds one core with its online @threads (they are also added to online).
 * Cores may be added in any order. */
void rv_guest_host_cpus_add_core(RvGuestHostCpus *host, const RvCpuSet *threads);

/* A new array of RV_CPUSET_MAX ints: for each CPU the index of its core in
 * @host->cores, -1 for none (g_free it).  One lookup instead of a scan of
 * every core per CPU. */
int *rv_guest_host_cpus_core_index(const RvGuestHostCpus *host);

/* Sets @isolated (and housekeeping = online - isolated) with its source. */
void rv_guest_host_cpus_set_isolated(RvGuestHostCpus *host, const RvCpuSet *isolated,
                                     const char *source);

/**
 * rv_guest_host_cpus_from_root:
 * @root: the host or a fixture tree
 * @ret: (out): the host CPUs, written only on success
 * @error: (optional): RV_ERROR_FAILED / RV_ERROR_INVALID naming the file
 *
 * The topology through rv_host_topology_load() (host/facts/topology.h), the
 * isolated CPUs from /sys/devices/system/cpu/isolated (absent = none;
 * Documentation/ABI/testing/sysfs-devices-system-cpu), housekeeping =
 * online - isolated.
 *
 * Returns: 0 or -errno.
 */
int rv_guest_host_cpus_from_root(RvRoot *root, RvGuestHostCpus **ret,
                                 GError **error) G_GNUC_WARN_UNUSED_RESULT;

/* The online threads of each core of @topo (CPUs of unknown core count as
 * one-thread cores); nothing isolated yet.  Returns 0. */
int rv_guest_host_cpus_from_topology(const RvTopology *topo, RvGuestHostCpus **ret);

/* Takes isolated/housekeeping from a host profile's partition
 * (host/profile/partition.h: whole cores) instead of the host's current state;
 * the partition's idle SMT siblings are @host->kept_idle.  @source names
 * it for messages ("host profile rt-host.ini"). */
void rv_guest_host_cpus_apply_partition(RvGuestHostCpus *host, const RvHostPartition *part,
                                        const char *source);

typedef enum {
    RV_GUEST_SCHED_OTHER,
    RV_GUEST_SCHED_BATCH,
    RV_GUEST_SCHED_IDLE,
    RV_GUEST_SCHED_FIFO,
    RV_GUEST_SCHED_RR,
} RvGuestSchedPolicy;

/* libvirt's vcpusched scheduler names: "other", "batch", "idle", "fifo", "rr". */
const char *rv_guest_sched_policy_name(RvGuestSchedPolicy policy);
/* The SCHED_* value of sched(7), for comparison with sched_getscheduler(). */
int rv_guest_sched_policy_to_linux(RvGuestSchedPolicy policy);

typedef struct {
    unsigned vcpu;               /* guest vCPU id */
    bool rt;
    bool pinned;                 /* false: no vcpupin (may run anywhere) */
    RvCpuSet cpuset;             /* host CPUs the vCPU thread may run on */
    RvGuestSchedPolicy policy;
    int priority;                /* 1-99 for FIFO/RR, 0 otherwise */
} RvGuestVcpuPlacement;

typedef struct {
    unsigned n_vcpus;
    RvGuestVcpuPlacement *vcpus; /* n_vcpus entries, index = vCPU id */
    bool emulator_pinned;        /* false: no emulatorpin */
    RvCpuSet emulator;           /* host CPUs of the emulator threads */
    RvCpuSet idle_siblings;      /* host CPUs kept idle for RT vCPUs */
    RvCpuSet shared_siblings;    /* SMT siblings of the RT vCPUs left to
                                  * neighbour guests (host_sibling = shared) */
    RvCpuSet rt_cpus;            /* host CPUs taken by RT vCPUs */
    unsigned threads_per_core;   /* guest topology */
    GPtrArray *notes;            /* "NOTE ..." lines (char *), never NULL */
    bool has_numa_node;          /* the RT vCPUs sit on one host NUMA node of several */
    unsigned numa_node;          /* that node: guest memory comes from it */
    /* read back from a domain XML (guest/domain-xml.h) only: */
    bool has_vcpu_cpuset;        /* <vcpu cpuset='...'> (placement static) */
    RvCpuSet vcpu_cpuset;        /* libvirt's affinity of every vCPU, emulator
                                  * and I/O thread without a pin of its own
                                  * (qemuProcessSetupPid()); such vCPUs and
                                  * the emulator are read as pinned to it */
    bool emulator_from_vcpu_cpuset; /* emulator pinned by <vcpu cpuset> alone */
    unsigned pins_past_vcpu;     /* <vcpupin>s naming a vCPU past <vcpu>,
                                  * which libvirt ignores */
    unsigned first_pin_past;     /* the vcpu attribute of the first one */
} RvGuestPlacement;

/* An empty placement of @n_vcpus unpinned SCHED_OTHER vCPUs. */
RvGuestPlacement *rv_guest_placement_new(unsigned n_vcpus);
void rv_guest_placement_free(RvGuestPlacement *placement);
G_DEFINE_AUTOPTR_CLEANUP_FUNC(RvGuestPlacement, rv_guest_placement_free)

/**
 * rv_guest_place:
 * @profile: the guest profile
 * @host: the host CPUs (isolated / housekeeping / reserved / SMT cores)
 * @ret: (out): the placement, written only on success
 * @error: (optional): the reason a placement is refused, prefixed with the
 *         profile file's base name, e.g.
 *         "rt-guest.ini: 3 RT vCPUs need 3 isolated CPUs, host has 1 (2)";
 *         RV_ERROR_UNSUPPORTED when this host lacks the CPUs (exit 77),
 *         RV_ERROR_INVALID when the profile contradicts itself or the host
 *         (an emulator cpulist on isolated or offline CPUs, a guest core
 *         mixing RT and non-RT vCPUs) (exit 2)
 *
 * Returns: 0, -ENOSPC (not enough CPUs) or -EINVAL.
 */
int rv_guest_place(const RvGuestProfile *profile, const RvGuestHostCpus *host,
                   RvGuestPlacement **ret, GError **error) G_GNUC_WARN_UNUSED_RESULT;

/**
 * rv_guest_place_sibling:
 * @profile: the guest profile
 * @sibling: the SMT sibling policy instead of the profile's host_sibling
 *           (a matrix scenario's host_sibling = idle | shared)
 * @host: as for rv_guest_place()
 * @ret: (out): the placement, written only on success
 * @error: (optional): as for rv_guest_place()
 *
 * rv_guest_place() with @sibling for the RT vCPUs' host cores.
 *
 * Returns: 0, -ENOSPC or -EINVAL.
 */
int rv_guest_place_sibling(const RvGuestProfile *profile, RvGuestSiblingPolicy sibling,
                           const RvGuestHostCpus *host, RvGuestPlacement **ret,
                           GError **error) G_GNUC_WARN_UNUSED_RESULT;

/**
 * rv_guest_placement_deal:
 * @placement: the placement of a guest without RT vCPUs (a neighbour)
 * @pool: host CPUs to deal its vCPUs onto: the shared_siblings of the RT
 *        guests placed beside it (host_sibling = shared)
 * @dealt: (inout): the CPUs of @pool that already carry a dealt vCPU
 *
 * Pins the guest's vCPUs one each, in vCPU order, to the CPUs of @pool
 * not yet in @dealt, lowest CPU first, until either runs out; the other
 * vCPUs keep their CPUs (the housekeeping CPUs), the emulator threads too.
 * A vCPU already alone on a CPU of @dealt (an earlier call's) is skipped,
 * so that a second pool deals the vCPUs the first left.
 * One vCPU per CPU, not a cpuset over all of them: isolated CPUs are
 * outside the scheduler's load balancing (isolcpus=domain,
 * Documentation/admin-guide/kernel-parameters.txt), so a vCPU free to run
 * on housekeeping CPUs and siblings would never be moved to a sibling.
 *
 * Returns: the number of vCPUs dealt.
 */
unsigned rv_guest_placement_deal(RvGuestPlacement *placement, const RvCpuSet *pool,
                                 RvCpuSet *dealt);

/**
 * rv_guest_host_cpus_primaries:
 * @host: the host CPUs with SMT on
 *
 * The host's CPUs as smt/control = off leaves them: one thread per core
 * online, the primary thread (the lowest CPU of the core: kernel/cpu.c
 * cpuhp_smt_disable(), topology_is_primary_thread()), isolated and
 * housekeeping restricted to them, the locality groups kept.
 *
 * Returns: (transfer full): the new host CPUs.
 */
RvGuestHostCpus *rv_guest_host_cpus_primaries(const RvGuestHostCpus *host);

/**
 * rv_guest_placement_check:
 * @placement: a placement: ours, or one read from any domain's <cputune>
 *             (rv_guest_domain_xml_read_placement())
 * @host: (nullable): the host's CPUs, for the isolation and SMT checks
 *
 * Judges a placement with the RT rules above (libvirt kbase kvm-realtime):
 * "FAIL vCPU1 not pinned: an RT vCPU needs exactly one host CPU",
 * "FAIL vCPU0 pinned to host CPUs 1,3-4: an RT vCPU needs exactly one",
 * "FAIL host CPUs 4 shared by RT vCPU0 and vCPU3",
 * "FAIL emulator threads on CPUs 1-3, which RT vCPUs use (1-4)",
 * "FAIL emulator threads not pinned while RT vCPUs are",
 * with @host also "FAIL vCPU1 pinned to CPU 99, which this host does not
 * have online (online CPUs: 0-1)" (any vCPU, and the emulator threads),
 * "FAIL vCPU1 on CPU 1, which is not isolated (isolated CPUs: none)",
 * "WARN vCPU1 on CPU 1: its SMT siblings 17 run other work",
 * and "OK ..." lines for what holds: one line each, FAIL first, then WARN,
 * NOTE (the placement's notes), OK.
 *
 * Returns: (transfer full) (element-type utf8): the findings, never empty.
 */
GPtrArray *rv_guest_placement_check(const RvGuestPlacement *placement,
                                    const RvGuestHostCpus *host);

/* Number of "FAIL" lines in the result of rv_guest_placement_check(). */
guint rv_guest_placement_check_failures(const GPtrArray *findings);

/**
 * rv_guest_placement_format:
 * @placement: a placement
 *
 * Human-readable summary, one line per vCPU ("vCPU1 -> CPU 1 fifo:1 RT"),
 * then "emulator -> CPUs 0", "idle siblings -> ...", "shared siblings ->
 * ..." and the notes.
 *
 * Returns: (transfer full): the text, each line ending in '\n'.
 */
char *rv_guest_placement_format(const RvGuestPlacement *placement);
