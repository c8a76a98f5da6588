/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * host/profile/profile.h: host profiles (profiles/host/NAME.ini), the INTENT for a
 * real-time KVM host: which CPUs are isolated and which do housekeeping,
 * what to do with SMT, core scheduling, the boot arguments that follow from
 * the partition, and the runtime knobs.
 *
 * A profile only states intent.  It does not know the topology:
 *  - the CPU partition is either explicit (cpulists) or "N housekeeping
 *    cores per socket", which host/partition.[ch] turns into CPUs by whole
 *    cores on a given topology;
 *  - the boot arguments are derived from the partition (isolcpus=,
 *    nohz_full=, rcu_nocbs=, irqaffinity=) plus literal extra arguments;
 *  - `host check` (host/check/check.h) compares the intent with a host,
 *    `host apply` / `host bootargs` (host/tune/tune.h) make it true.
 *
 * File format: util/ini.h (tuned.conf(5)-like, include= in [main]).
 * Sections and keys (all optional unless said; an absent key means "the
 * profile does not care", checks are skipped and nothing is applied):
 *
 *   [main]      summary = TEXT; include = NAME[,NAME]
 *   [cpus]      isolated = CPULIST             explicit isolated CPUs
 *               housekeeping = CPULIST         explicit housekeeping CPUs
 *               housekeeping_cores_per_socket = N   (default 1 when neither
 *                                              list is given; whole cores)
 *               isolated_cores_per_socket = N   instead: the last N cores
 *                                              of each package isolated, the
 *                                              others housekeeping (RT guests
 *                                              beside throughput neighbours)
 *               smt = keep | off-boot | off-runtime | idle-siblings
 *               core_scheduling = off | preferred | required
 *   [bootargs]  isolcpus = yes|no              isolcpus=FLAGS,<isolated>
 *               isolcpus_flags = WORDS         e.g. "managed_irq,domain"
 *               nohz_full = yes|no             nohz_full=<isolated>
 *               nohz = on|off                  literal nohz= (tuned: on)
 *               rcu_nocbs = yes|no             rcu_nocbs=<isolated>
 *               rcu_nocb_poll = yes|no
 *               irqaffinity = yes|no           irqaffinity=<housekeeping>
 *               skew_tick = yes|no             skew_tick=1
 *               extra = ARGS                   literal args expected on the
 *                                              command line ("tsc=reliable
 *                                              nosoftlockup ...")
 *   [cpu]       governor = NAME                cpufreq scaling_governor
 *               idle_max_latency_us = N        idle states with exit latency
 *                                              above N us disabled
 *               idle_cpus = isolated | all     where idle_max_latency_us applies
 *   [kthreads]  NAME = fifo:PRIO | rr:PRIO | other    NAME is a kernel thread
 *               comm prefix: rcuc, rcub, ksoftirqd, ktimers, ktimersoftd, ...
 *   [sched]     rt_runtime_us = N | -1         /proc/sys/kernel/sched_rt_runtime_us
 *               timer_migration = 0|1
 *               numa_balancing = 0|1
 *   [mm]        transparent_hugepage = always | madvise | never
 *               ksm_run = 0|1|2                /sys/kernel/mm/ksm/run
 *   [kernel]    nmi_watchdog = 0|1
 *               workqueue_cpumask = housekeeping | CPULIST
 *               irq_affinity = housekeeping | CPULIST   runtime IRQ affinity
 *                                              (default_smp_affinity and every
 *                                              movable IRQ)
 *               mce_ignore_ce = 0|1            /sys/devices/system/machinecheck/
 *                                              machinecheckN/ignore_ce (no
 *                                              corrected-error polling timer)
 *   [sysctl]    NAME = VALUE                   any other sysctl (dots), as
 *                                              tuned [sysctl]
 *   [modules]   MODULE.PARAM = VALUE           /sys/module/M/parameters/P
 *                                              (tuned script.sh kvm options)
 *   [libvirt]   qemu_conf = PATH               default /etc/libvirt/qemu.conf
 *               sched_core = none | vcpus | emulator | full   (libvirt >= 8.9)
 *               cgroup_controllers = WORDS     qemu.conf cgroup_controllers;
 *                                              without "cpu" avoids the
 *                                              RT-group trap on cgroup v1
 *
 * Sources: tuned v2.28 profiles realtime-virtual-host -> realtime ->
 * network-latency -> latency-performance (tests/data/cases/tuned);
 * Documentation/admin-guide/kernel-parameters.txt (isolcpus, nohz_full,
 * rcu_nocbs, irqaffinity, skew_tick); Documentation/scheduler/sched-rt-group.rst;
 * Documentation/admin-guide/mm/transhuge.rst, ksm.rst; libvirt qemu.conf
 * (sched_core, cgroup_controllers).
 */
#pragma once

#include <stdbool.h>
#include <glib.h>

#include "util/cpulist.h"

/* An optional integer knob: @set false means "the profile does not care". */
typedef struct {
    bool set;
    gint64 value;
} RvHostOptInt;

/* An optional yes/no knob. */
typedef enum {
    RV_HOST_TRI_UNSET = -1,
    RV_HOST_TRI_NO = 0,
    RV_HOST_TRI_YES = 1,
} RvHostTristate;

typedef enum {
    RV_HOST_SMT_UNSET = -1,      /* the profile does not care */
    RV_HOST_SMT_KEEP = 0,        /* SMT stays on, siblings may both be used */
    RV_HOST_SMT_OFF_BOOT,        /* "nosmt" on the kernel command line */
    RV_HOST_SMT_OFF_RUNTIME,     /* smt/control = off at runtime */
    RV_HOST_SMT_IDLE_SIBLINGS,   /* SMT on; an isolated CPU's sibling is isolated
                                  * too and kept idle (no vCPU placed on it) */
} RvHostSmtPolicy;

typedef enum {
    RV_HOST_CORESCHED_UNSET = -1,
    RV_HOST_CORESCHED_OFF = 0,       /* not used */
    RV_HOST_CORESCHED_PREFERRED,     /* used where available, NOTE when not */
    RV_HOST_CORESCHED_REQUIRED,      /* FAIL when unavailable */
} RvHostCoreSched;

typedef enum {
    RV_HOST_CPUSEL_UNSET = -1,
    RV_HOST_CPUSEL_HOUSEKEEPING = 0, /* the housekeeping CPUs of the partition */
    RV_HOST_CPUSEL_ISOLATED,         /* the isolated CPUs of the partition */
    RV_HOST_CPUSEL_ALL,              /* every online CPU */
    RV_HOST_CPUSEL_LIST,             /* the explicit cpulist beside it */
} RvHostCpuSel;

typedef enum {
    RV_HOST_THP_UNSET = -1,
    RV_HOST_THP_ALWAYS = 0,
    RV_HOST_THP_MADVISE,
    RV_HOST_THP_NEVER,
} RvHostThp;

/* A scheduling policy wanted for kernel threads whose comm starts with @name
 * (per-CPU threads "rcuc/3", "ksoftirqd/3", "ktimers/3" match "rcuc" etc.). */
typedef struct {
    char *name;      /* comm prefix, e.g. "rcuc" */
    int policy;      /* SCHED_FIFO, SCHED_RR or SCHED_OTHER (<sched.h>) */
    int priority;    /* 1..99 for FIFO/RR, 0 for OTHER */
    char *file;      /* where it was set, for messages */
    unsigned line;
} RvHostKthreadPrio;

/* A literal "key = value" knob: [sysctl], [modules]. */
typedef struct {
    char *key;       /* "vm.stat_interval", "kvm.nx_huge_pages" */
    char *value;
    char *file;
    unsigned line;
} RvHostKnob;

typedef struct {
    char *path;      /* the top profile file */
    char *name;      /* its basename without ".ini" */
    char *summary;   /* [main] summary, or NULL */
    GPtrArray *files;  /* char *: every file read, top first (for records) */

    /* [cpus]: the partition intent.  When @has_isolated and/or
     * @has_housekeeping, the lists are explicit (one implies the other as
     * its complement over the online CPUs); otherwise
     * @housekeeping_cores_per_socket whole cores per package do
     * housekeeping (host/profile/partition.h), the rest is isolated. */
    bool has_isolated;
    RvCpuSet isolated;
    bool has_housekeeping;
    RvCpuSet housekeeping;
    unsigned housekeeping_cores_per_socket;   /* default 1 */
    /* isolated_cores_per_socket = N: the last N cores of each package are
     * isolated, the others housekeeping (host/profile/partition.h); 0 = not set.
     * Precedence between files: explicit lists, then this, then
     * housekeeping_cores_per_socket; two of them in one file are refused. */
    unsigned isolated_cores_per_socket;
    RvHostSmtPolicy smt;
    RvHostCoreSched core_scheduling;

    /* [bootargs] */
    RvHostTristate isolcpus;          /* isolcpus=<flags>,<isolated> */
    char **isolcpus_flags;            /* NULL-terminated, e.g. {"managed_irq","domain"}; NULL = none */
    RvHostTristate nohz_full;         /* nohz_full=<isolated> */
    char *nohz;                       /* "on"/"off" or NULL */
    RvHostTristate rcu_nocbs;         /* rcu_nocbs=<isolated> */
    RvHostTristate rcu_nocb_poll;
    RvHostTristate irqaffinity;       /* irqaffinity=<housekeeping> */
    RvHostTristate skew_tick;         /* skew_tick=1 */
    char **extra_bootargs;            /* literal "key=value"/"flag" words, NULL-terminated or NULL */

    /* [cpu] */
    char *governor;                   /* NULL = do not care */
    RvHostOptInt idle_max_latency_us; /* disable idle states with latency > this (us) */
    RvHostCpuSel idle_cpus;           /* ISOLATED (default) or ALL */

    /* [kthreads]: RvHostKthreadPrio *, in file order */
    GPtrArray *kthreads;

    /* [sched] */
    RvHostOptInt rt_runtime_us;       /* -1 = throttling off */
    RvHostOptInt timer_migration;
    RvHostOptInt numa_balancing;

    /* [mm] */
    RvHostThp thp;
    RvHostOptInt ksm_run;             /* 0, 1 or 2 */

    /* [kernel] */
    RvHostOptInt nmi_watchdog;
    RvHostCpuSel workqueue_cpumask;   /* HOUSEKEEPING or LIST */
    RvCpuSet workqueue_cpus;          /* when LIST */
    RvHostCpuSel irq_affinity;        /* HOUSEKEEPING or LIST */
    RvCpuSet irq_cpus;                /* when LIST */
    RvHostOptInt mce_ignore_ce;       /* machinecheckN/ignore_ce (tuned realtime: 1) */

    /* [sysctl], [modules]: RvHostKnob *, in file order */
    GPtrArray *sysctls;
    GPtrArray *module_params;

    /* [libvirt] */
    char *qemu_conf;                  /* default "/etc/libvirt/qemu.conf" */
    char *libvirt_sched_core;         /* "none"/"vcpus"/"emulator"/"full" or NULL */
    char **libvirt_cgroup_controllers;  /* NULL = do not care */

    /* "FILE:LINE" of each explicit cpulist above (NULL when not set), for
     * rv_host_profile_check_host() messages */
    char *isolated_at;
    char *housekeeping_at;
    char *workqueue_at;
    char *irq_at;

    /* the host's nr_cpu_ids that "N"/"all" in cpulists were resolved
     * against (rv_host_profile_load_host()); 0 = loaded without a host */
    unsigned nr_cpu_ids;

    /* Where the profile came from: NULL for an rtvirt profile, "tuned" for
     * a tuned profile read by host/tuned/tuned.h. */
    char *origin;
    /* RvHostKnob *: lines of the source that were not mapped to a key
     * above, or only approximately (key = "tuned.unmapped" or
     * "tuned.approximated", value = the sentence saying what and why,
     * file/line = where); `host check` reports each as a NOTE. */
    GPtrArray *notes;
} RvHostProfile;

/**
 * rv_host_profile_new:
 * @path: the profile's file (or tuned profile directory), for messages
 *
 * Returns: (transfer full): a profile that sets nothing ("does not care"
 * everywhere), named after @path's basename without ".ini"; for loaders of
 * other formats (host/tuned/tuned.h).
 */
RvHostProfile *rv_host_profile_new(const char *path);

/**
 * rv_host_profile_add_note:
 * @kind: "tuned.unmapped" or "tuned.approximated"
 * @file: (nullable): the source file; @line: its line (0 = unknown)
 * @fmt: the sentence
 *
 * Records a line of the source that the profile could not express.
 */
void rv_host_profile_add_note(RvHostProfile *profile, const char *kind, const char *file,
                              unsigned line, const char *fmt, ...) G_GNUC_PRINTF(5, 6);

/**
 * rv_host_profile_load:
 * @path: a host profile file (profiles/host/NAME.ini)
 * @ret: (out): the profile, written only on success
 * @error: (optional): RV_ERROR_INVALID "FILE:LINE: invalid KEY 'VALUE' in
 *         [SECTION]: WHY" for a bad value or an unknown key/section
 *         (rv_ini_check_unused()); RV_ERROR_FAILED when unreadable
 *
 * Cpulists are parsed without knowing the host (nr_cpu_ids = 0: "N" and
 * "all" are rejected, the message says they resolve only on a host, see
 * rv_host_profile_load_host(); ids are bounded by RV_CPUSET_MAX).
 * Explicit isolated and housekeeping lists must not overlap.
 *
 * Returns: 0 or -errno.
 */
int rv_host_profile_load(const char *path, RvHostProfile **ret,
                         GError **error) G_GNUC_WARN_UNUSED_RESULT;

/**
 * rv_host_profile_load_host:
 * @path: a host profile file
 * @nr_cpu_ids: the host's last possible CPU + 1 (RvTopology.nr_cpu_ids)
 * @ret: (out): the profile, written only on success
 * @error: (optional): as rv_host_profile_load(); a cpulist naming a CPU at
 *         or beyond @nr_cpu_ids is RV_ERROR_INVALID "FILE:LINE: ... is out
 *         of range"
 *
 * As rv_host_profile_load() for a profile about to meet a host (`host
 * apply`, `host bootargs`, `host check`): "N" (the last CPU) and "all" in
 * cpulists resolve against @nr_cpu_ids as on the kernel command line
 * (Documentation/admin-guide/kernel-parameters.rst, "cpu lists"), so
 * "isolated = 1-N" means CPUs 1 to the host's last one.
 *
 * Returns: 0 or -errno.
 */
int rv_host_profile_load_host(const char *path, unsigned nr_cpu_ids, RvHostProfile **ret,
                              GError **error) G_GNUC_WARN_UNUSED_RESULT;

/* As rv_host_profile_load() from @text, named @name (tests). Includes are
 * resolved relative to the current directory. */
int rv_host_profile_load_data(const char *name, const char *text,
                              RvHostProfile **ret,
                              GError **error) G_GNUC_WARN_UNUSED_RESULT;

void rv_host_profile_free(RvHostProfile *profile);
G_DEFINE_AUTOPTR_CLEANUP_FUNC(RvHostProfile, rv_host_profile_free)

/**
 * rv_host_profile_resolve_partition:
 * @profile: a loaded profile
 * @online: online CPUs of the host
 * @ret_isolated: (out): isolated CPUs (cpulist)
 * @ret_housekeeping: (out): housekeeping CPUs
 * @error: (optional): RV_ERROR_INVALID naming the profile when an explicit
 *         list names CPUs that are not online
 *
 * Resolves the EXPLICIT lists only: when the profile gives isolated and/or
 * housekeeping, the missing one is the complement over @online.  For
 * "N housekeeping cores per socket" profiles it returns -ENODATA (0 CPUs
 * written): the caller computes the partition by whole cores
 * (host/profile/partition.h) from topology.
 *
 * Returns: 0, -ENODATA (no explicit lists) or -EINVAL.
 */
int rv_host_profile_resolve_partition(const RvHostProfile *profile,
                                      const RvCpuSet *online,
                                      RvCpuSet *ret_isolated,
                                      RvCpuSet *ret_housekeeping,
                                      GError **error) G_GNUC_WARN_UNUSED_RESULT;

/**
 * rv_host_profile_check_host:
 * @profile: a loaded profile
 * @online: online CPUs of the host (cpulist, /sys/devices/system/cpu/online)
 * @error: (optional): RV_ERROR_INVALID "FILE:LINE: [SECTION] KEY names CPUs
 *         LIST that are not online on this host (online: LIST)"
 *
 * Checks, before anything is planned or changed on a host, that every
 * explicit cpulist of @profile ([cpus] isolated/housekeeping, [kernel]
 * workqueue_cpumask/irq_affinity) names only CPUs of this host.  `host
 * apply`, `host bootargs` and `host check` call it first.
 *
 * Returns: 0 or -EINVAL.
 */
int rv_host_profile_check_host(const RvHostProfile *profile, const RvCpuSet *online,
                               GError **error) G_GNUC_WARN_UNUSED_RESULT;

/* The cpufreq governors of the kernel (drivers/cpufreq: performance,
 * powersave, userspace, ondemand, conservative, schedutil), NULL-terminated;
 * [cpu] governor must be one of them. */
extern const char * const rv_host_cpufreq_governors[];

/* Names of the enums as written in profiles ("off-boot", "required",
 * "never"...); "unset" for the UNSET values. */
const char *rv_host_smt_policy_name(RvHostSmtPolicy p);
const char *rv_host_coresched_name(RvHostCoreSched c);
const char *rv_host_thp_name(RvHostThp t);

/**
 * rv_host_profile_format:
 *
 * Returns: (transfer full): the effective profile, one "section.key = value"
 * line per knob the profile sets (after includes and overrides), in a fixed
 * order; for records and tests.
 */
char *rv_host_profile_format(const RvHostProfile *profile);
