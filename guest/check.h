/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * guest/check.h: `rtvirt guest check` and `guest xml --check`: judge a
 * libvirt domain, from its XML alone or with the threads of its running
 * QEMU, as findings (util/finding.h: stable id, level, message, fix).
 *
 * Three sources of facts, each loaded by a reader here, judged by
 * rv_guest_check_judge():
 *  - the domain XML (rv_guest_domain_load()): <cputune> (through
 *    guest/domain-xml.h rv_guest_domain_xml_read_placement()), <vcpu>,
 *    <cpu><topology>, <memory>, <memoryBacking>, <iothreadpin>, the guest
 *    kernel's isolcpus=/nohz_full= in <os><cmdline>; a libvirt status file
 *    (/run/libvirt/qemu/NAME.xml, <domstatus pid=...><vcpus><vcpu id pid>
 *    around the <domain>) is read the same way and also gives the QEMU pid
 *    and the vCPU thread ids;
 *  - the host's CPUs (guest/placement.h RvGuestHostCpus: isolated CPUs,
 *    SMT siblings);
 *  - the live threads (guest/verify.h), when the domain runs on that root.
 * The other domains judged together, or running beside it, are its
 * neighbours: an RT vCPU that shares its host CPU or core with one of
 * their vCPUs is a finding.
 *
 * Finding ids (stable):
 *   placement.offline-cpu  placement.rt-unpinned  placement.rt-multi-cpu
 *   placement.cpu-shared  placement.emulator-unpinned  placement.emulator-on-rt
 *   placement.not-isolated  placement.sibling-busy  placement.note
 *   placement.emulator-apart  placement.emulator-housekeeping
 *   placement.rt-pinned  placement.isolated  placement.no-rt
 *     (guest/placement.h rv_guest_placement_check(), its lines given ids)
 *   topology.vcpu-count  topology.smt-siblings  topology.hidden-siblings
 *   topology.foreign-vcpu-cpu  topology.foreign-vcpu-sibling
 *   vcpu.isolated-not-rt
 *   vcpu.threads  vcpu.affinity  vcpu.scheduler
 *   vcpu.isolated-not-fifo  emulator.affinity  iothread.affinity
 *   kthread.placement  memory.locked  memory.hugepages
 *   vcpu.pin-past  vcpu.priority-range  iothread.rt-cpu
 *   memory.numa-node  memory.numa-rt-node  memory.hugepage-size
 *   memory.not-locked  cputune.resctrl  (guest/check-memory.c)
 *
 * The XML is read as libvirt 9.0 reads it, and what libvirt refuses is
 * refused (RV_ERROR_INVALID, exit 2) naming libvirt's reason: cpusets as
 * virBitmapParse() (left to right, ids < 16384), no <vcpu> = 1 vCPU,
 * <vcpu cpuset> the affinity of unpinned vCPUs, emulator and I/O threads,
 * a <vcpupin> past <vcpu> ignored (WARN vcpu.pin-past), duplicate pins
 * and overlapping <vcpusched>/<iothreadsched> refused, memory units as
 * virScaleInteger(), <numatune>/<memnode>/<page nodeset> as
 * numa_conf.c and domain_validate.c.  Stricter than libvirt on purpose,
 * as findings: a FIFO/RR priority outside 1-99 (FAIL vcpu.priority-range:
 * libvirt reads it, cannot start the domain), <topology> against <vcpu>
 * (FAIL topology.vcpu-count: libvirt's QEMU driver refuses it at define).
 * tests/t-libvirt-corpus.sh holds this against libvirt's own test corpus.
 *
 * Rules beyond guest/placement.h (libvirt formatdomain "CPU model and
 * topology": sockets x dies x clusters x cores x threads = the maximum vCPU
 * count; QEMU numbers vCPUs thread-first, so vCPUs kT..kT+T-1 are the
 * threads of one guest core, hw/core/machine.c):
 *  - the topology product differs from <vcpu>: FAIL;
 *  - the vCPUs of one guest core (threads = T > 1) pinned to CPUs of more
 *    than one host core: FAIL (the guest believes they share a core's
 *    caches and its scheduler balances by that); unpinned: WARN;
 *  - threads = 1 and two vCPUs pinned 1:1 to SMT siblings of one host
 *    core: NOTE (the guest does not know they share a core);
 *  - an RT vCPU's host CPU pinned for a neighbour's vCPU: FAIL; its SMT
 *    sibling pinned for a neighbour's vCPU: WARN (Documentation/admin-guide/
 *    hw-vuln/core-scheduling.rst: siblings share the core's execution units);
 *  - a vCPU that the guest kernel isolates (isolcpus=/nohz_full= of its
 *    <os><cmdline>) is meant for real-time work: without a FIFO/RR
 *    <vcpusched> WARN, and live, a thread that is not FIFO/RR FAIL (what
 *    `guest run` leaves when libvirt refused SCHED_FIFO, the RT-group trap).
 */
#pragma once

#include <stdbool.h>
#include <glib.h>
#include <json-glib/json-glib.h>

#include "guest/placement.h"
#include "guest/verify.h"
#include "host/fsroot.h"
#include "util/finding.h"

#define RV_GUEST_CHECK_SCHEMA_VERSION 1

/* One I/O thread of a domain (<iothreads>, <iothreadids>). */
typedef struct {
    unsigned id;
    bool pinned;               /* an <iothreadpin> of its own */
    RvCpuSet cpuset;           /* its pin, when pinned */
    bool sched_set;            /* an <iothreadsched> names it */
    RvGuestSchedPolicy policy;
    int priority;
} RvGuestIothread;

/* One <memoryBacking><hugepages><page>. */
typedef struct {
    guint64 size_kib;          /* 0: <hugepages/> alone, the host's default size */
    bool has_nodeset;
    RvCpuSet nodeset;          /* the guest NUMA cells it backs */
} RvGuestHugepage;

/* What rtvirt reads of one domain XML. */
typedef struct {
    char *source;              /* file path, "domain NAME", for messages */
    char *name;                /* <name>, or NULL */
    RvGuestPlacement *placement;
    bool has_topology;
    unsigned sockets, dies, clusters, cores, threads;
    guint64 memory_bytes;      /* <memory> (unit attribute honoured), 0 unknown */
    bool hugepages;            /* <memoryBacking><hugepages> */
    bool locked;               /* <memoryBacking><locked> */
    bool nosharepages;         /* <memoryBacking><nosharepages> */
    bool pmu_off;              /* <features><pmu state='off'/> */
    GArray *pages;             /* RvGuestHugepage; empty without <hugepages> */
    char *numa_mode;           /* <numatune><memory mode>, NULL without one */
    bool numa_auto;            /* its placement='auto' (numad) */
    bool has_numa_nodeset;
    RvCpuSet numa_nodeset;     /* its host NUMA nodes */
    unsigned cachetunes, memorytunes;   /* <cputune><cachetune>, <memorytune> */
    unsigned memnodes;         /* <numatune><memnode>: guest cells bound one by one */
    GArray *iothreadpins;      /* RvGuestIothreadPin */
    GArray *iothreads;         /* RvGuestIothread, every I/O thread */
    RvCpuSet guest_isolated;   /* vCPUs isolcpus=/nohz_full= of <os><cmdline> name */
    int status_pid;            /* libvirt status file: <domstatus pid>, else 0 */
    GArray *status_tids;       /* libvirt status file: int per vCPU, else NULL */
} RvGuestDomain;

void rv_guest_domain_free(RvGuestDomain *d);

/**
 * rv_guest_libvirt_scale:
 * @value: the number
 * @unit: (nullable): its unit attribute; NULL or "" = KiB (<memory>'s
 *        default scale 1024)
 * @ret: (out): @value in bytes, written only on success
 *
 * libvirt's virScaleInteger() (src/util/virutil.c), which
 * virDomainParseMemory() uses: units case-insensitive; "b", "byte",
 * "bytes" = 1; a letter k, m, g, t, p, e alone or with "iB" = powers of
 * 1024, with "B" = powers of 1000 ("KB", "mb", "MiB", "g", "TiB", "eb").
 *
 * Returns: 0, -EINVAL for an unknown unit, -ERANGE past 2^64-1 bytes.
 */
int rv_guest_libvirt_scale(guint64 value, const char *unit, guint64 *ret) G_GNUC_WARN_UNUSED_RESULT;
G_DEFINE_AUTOPTR_CLEANUP_FUNC(RvGuestDomain, rv_guest_domain_free)

/**
 * rv_guest_domain_load:
 * @xml: a domain XML document, or a libvirt status file (<domstatus>)
 * @source: its name for messages (a file path, "domain rt-demo")
 * @ret: (out): the facts, written only on success
 * @error: (optional): RV_ERROR_INVALID "SOURCE: ..." as
 *         rv_guest_domain_xml_read_placement(), or naming a bad <topology>,
 *         <memory> or <iothreadpin> value and its line
 *
 * Returns: 0 or -EINVAL.
 */
int rv_guest_domain_load(const char *xml, const char *source, RvGuestDomain **ret,
                         GError **error) G_GNUC_WARN_UNUSED_RESULT;

/**
 * rv_guest_host_memory_load:
 * @root: the host or a capture
 * @host: fills its nodes (/sys/devices/system/node/online; nodes_known
 *        false when absent) and hugepage_pools (/sys/kernel/mm/hugepages
 *        and each node's hugepages/, Documentation/admin-guide/mm/
 *        hugetlbpage.rst; NULL, unknown, when the root lacks
 *        /sys/kernel/mm/hugepages); unreadable files leave a pool at 0
 *
 * Best effort: never fails.
 */
void rv_guest_host_memory_load(RvRoot *root, RvGuestHostCpus *host);

/* The I/O thread @id of @d, or NULL. */
RvGuestIothread *rv_guest_domain_iothread(const RvGuestDomain *d, unsigned id);

/* The live side of one running domain, for rv_guest_check_judge(). */
typedef struct {
    RvRoot *root;              /* where its /proc is (transfer none) */
    int qemu_pid;
    const int *vcpu_tids;      /* host thread id per vCPU */
    guint n_tids;
    const char *where;         /* "this host", "root DIR": for messages */
} RvGuestLive;

typedef struct {
    char *domain;              /* the domain's source */
    char *name;                /* its <name>, or NULL */
    bool running;              /* live threads were judged */
    int qemu_pid;              /* or -1 */
    RvFindings *findings;      /* FAIL first, then WARN, NOTE, PASS */
} RvGuestCheckReport;

void rv_guest_check_report_free(RvGuestCheckReport *rep);
G_DEFINE_AUTOPTR_CLEANUP_FUNC(RvGuestCheckReport, rv_guest_check_report_free)

/**
 * rv_guest_check_judge:
 * @dom: the domain to judge
 * @host: (nullable): the host's CPUs; NULL leaves out every rule that needs
 *        them (isolation, SMT siblings)
 * @neighbours: (nullable) (element-type RvGuestDomain): the other domains
 *        on that host (judged together, or running beside it)
 * @live: (nullable): the running domain's threads; NULL judges the XML alone
 * @ret: (out): the report, written only on success
 * @error: (optional): RV_ERROR_FAILED when a live thread cannot be read
 *         (the guest went away)
 *
 * Returns: the number of FAIL findings (>= 0), or -errno.
 */
int rv_guest_check_judge(const RvGuestDomain *dom, const RvGuestHostCpus *host,
                         const GPtrArray *neighbours, const RvGuestLive *live,
                         RvGuestCheckReport **ret, GError **error) G_GNUC_WARN_UNUSED_RESULT;

/**
 * rv_guest_check_format:
 * @rep: a report
 *
 * Returns: (transfer full): every finding, PASS too, in util/finding.h's
 * text form ("FAIL  vcpu.scheduler: ...", then its "wanted:"/"found:" and
 * "fix:" lines), then the summary line "FAIL: 1 fail, 0 warn, 2 note, 5
 * pass".
 */
char *rv_guest_check_format(const RvGuestCheckReport *rep);

/**
 * rv_guest_check_findings_to_json:
 * @b: a builder inside an object: adds "verdict", "summary" {pass, note,
 *     warn, fail}, "failures" (= fail) and "findings": [{level, id, message,
 *     where, fix, cpus, expected, actual}] (util/finding.h's JSON form)
 */
void rv_guest_check_findings_to_json(JsonBuilder *b, const RvGuestCheckReport *rep);
