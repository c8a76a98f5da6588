/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * host/facts/state.h: the effective state of a host, as the running kernel
 * reports it (not what the command line asked for).
 *
 * Every value has a "known" state: a file that is missing or unreadable is
 * unknown (never guessed); a file that is present but malformed is unknown
 * too and recorded in ->problems naming the file and the value.
 *
 * Sources: Documentation/ABI/testing/sysfs-devices-system-cpu
 * (isolated, nohz_full, smt/control, smt/active), Documentation/admin-guide/
 * hw-vuln/core-scheduling.rst (prctl PR_SCHED_CORE), Documentation/scheduler/
 * sched-rt-group.rst (sched_rt_runtime_us, cpu.rt_runtime_us),
 * Documentation/admin-guide/sysctl/kernel.rst (timer_migration,
 * numa_balancing, nmi_watchdog), Documentation/admin-guide/mm/transhuge.rst,
 * Documentation/admin-guide/mm/ksm.rst, Documentation/core-api/workqueue.rst
 * (/sys/devices/virtual/workqueue/cpumask), Documentation/admin-guide/pm/
 * cpufreq.rst and cpuidle.rst.
 */
#pragma once

#include <stdbool.h>
#include <glib.h>

#include "util/cpulist.h"
#include "host/fsroot.h"

typedef enum {
    RV_TRI_UNKNOWN = -1,
    RV_TRI_NO = 0,
    RV_TRI_YES = 1,
} RvTristate;

/* A CPU set read from a file. */
typedef struct {
    bool known;            /* read and parsed */
    char *path;            /* host path it came from */
    char *raw;             /* value as read (stripped), NULL when unreadable */
    bool exists;           /* the file exists (readable or not) */
    RvCpuSet set;          /* valid when known */
} RvStateCpus;

/* An integer read from a file. */
typedef struct {
    bool known;
    gint64 value;
} RvStateInt;

typedef enum {
    RV_CORESCHED_UNKNOWN = 0,   /* fixture root without a record, or unexpected errno */
    RV_CORESCHED_USABLE,        /* PR_SCHED_CORE_GET succeeded */
    RV_CORESCHED_NO_SMT,        /* ENODEV: kernel has it, SMT is off/absent */
    RV_CORESCHED_UNSUPPORTED,   /* EINVAL: kernel built without CONFIG_SCHED_CORE */
} RvCoreSchedState;

/* One cpuidle state of one CPU (cpuN/cpuidle/stateK/). */
typedef struct {
    unsigned index;        /* K */
    char *name;            /* "C1", "POLL", "C6" */
    RvStateInt latency_us; /* exit latency, us */
    RvTristate disabled;   /* "disable" attribute */
} RvIdleState;

/* /sys/devices/system/machinecheck/machinecheckN/ignore_ce of one CPU
 * (Documentation/arch/x86/x86_64/machinecheck.rst). */
typedef struct {
    char *name;            /* "machinecheck3" */
    gint64 ignore_ce;
} RvStateMce;

/* A sysctl or module parameter named by a profile ([sysctl], [modules]),
 * read by rv_host_state_load_knobs(). */
typedef struct {
    char *key;             /* "vm.stat_interval", "kvm.halt_poll_ns" */
    char *path;            /* /proc/sys/vm/stat_interval, /sys/module/kvm/parameters/halt_poll_ns */
    char *value;           /* stripped, NULL when absent or unreadable */
    bool module_loaded;    /* module parameters: /sys/module/MODULE exists */
} RvStateKnob;

/* The receive packet steering mask of one receive queue
 * (/sys/class/net/DEV/queues/rx-N/rps_cpus), or the default one new
 * devices start with (/proc/sys/net/core/rps_default_mask, Linux 6.2+):
 * the CPUs the kernel hands that queue's packets to, in softirq context
 * (Documentation/networking/scaling.rst, RPS Configuration). */
typedef struct {
    char *path;            /* host path */
    RvCpuSet cpus;         /* the mask; empty = RPS off for the queue */
} RvStateRps;

/* Power management of one CPU. */
typedef struct {
    unsigned cpu;
    char *governor;        /* cpufreq scaling_governor, NULL unknown/no cpufreq */
    char *driver;          /* cpufreq scaling_driver */
    GArray *idle_states;   /* RvIdleState, by index; empty = no cpuidle dir */
} RvCpuPower;

typedef struct {
    RvStateCpus possible, present, online, offline;
    RvStateCpus isolated;      /* /sys/devices/system/cpu/isolated (isolcpus domain) */
    RvStateCpus nohz_full;     /* /sys/devices/system/cpu/nohz_full (absent: no CONFIG_NO_HZ_FULL) */
    RvStateCpus workqueue_cpumask; /* /sys/devices/virtual/workqueue/cpumask (hex mask) */

    char *smt_control;         /* on, off, forceoff, notsupported, notimplemented; NULL unknown */
    RvTristate smt_active;

    RvCoreSchedState coresched;
    int coresched_errno;       /* errno of the probe, 0 when it worked or was not run */
    char *coresched_source;    /* "prctl(PR_SCHED_CORE_GET)", "fixture record", NULL */

    char *kernel_release;      /* /proc/sys/kernel/osrelease */
    char *kernel_version;      /* /proc/sys/kernel/version ("#1 SMP PREEMPT_RT ...") */
    RvTristate preempt_rt;     /* /sys/kernel/realtime == 1, or PREEMPT_RT in version */
    char *preempt_model;       /* "PREEMPT_RT", "PREEMPT_DYNAMIC", "PREEMPT", "none"... from version */

    RvStateInt rt_runtime_us;  /* /proc/sys/kernel/sched_rt_runtime_us (-1 = no throttling) */
    RvStateInt rt_period_us;   /* /proc/sys/kernel/sched_rt_period_us */
    RvTristate cgroup_v1_cpu;  /* a cgroup v1 hierarchy with the cpu controller is mounted */
    char *cgroup_v1_cpu_mount; /* its mount point, NULL when none */
    RvTristate rt_group_sched; /* CONFIG_RT_GROUP_SCHED: cpu.rt_runtime_us exists in a v1 cpu hierarchy */
    RvStateInt cgroup_rt_runtime_us; /* root group's cpu.rt_runtime_us */
    RvStateInt machine_rt_runtime_us; /* cpu.rt_runtime_us of libvirt's "machine" (or
                                * machine.slice) group under that hierarchy: 0 there is
                                * the trap itself */
    char *cgroup2_mount;       /* the cgroup v2 mount point, NULL when none */
    RvTristate cgroup2_cpu;    /* "cpu" in the v2 root's cgroup.subtree_control */
    RvTristate config_rt_group_sched; /* CONFIG_RT_GROUP_SCHED in /boot/config-RELEASE
                                * (the only place a v2-only host shows it) */
    RvTristate rt_group_trap;  /* YES: RT group scheduling on a v1 cpu hierarchy, so a new
                                * child group starts with rt_runtime_us = 0 and libvirt
                                * cannot make vCPUs SCHED_FIFO (EPERM) */

    RvStateInt timer_migration;  /* /proc/sys/kernel/timer_migration */
    RvStateInt numa_balancing;   /* /proc/sys/kernel/numa_balancing */
    RvStateInt nmi_watchdog;     /* /proc/sys/kernel/nmi_watchdog */
    RvStateInt watchdog;         /* /proc/sys/kernel/watchdog (soft or hard lockup detector on) */
    RvStateInt soft_watchdog;    /* /proc/sys/kernel/soft_watchdog (0 after nosoftlockup) */
    RvStateCpus watchdog_cpumask; /* /proc/sys/kernel/watchdog_cpumask: where the lockup
                                  * detectors' per-CPU hrtimer runs (housekeeping CPUs by
                                  * default when nohz_full= is booted) */
    char *clocksource;           /* /sys/devices/system/clocksource/clocksource0/
                                  * current_clocksource ("tsc", "hpet", "kvm-clock") */
    char *thp_enabled;           /* selected [value] of transparent_hugepage/enabled */
    char *thp_defrag;            /* selected [value] of transparent_hugepage/defrag */
    RvStateInt ksm_run;          /* /sys/kernel/mm/ksm/run */
    RvStateInt cpu_dma_latency_us; /* /dev/cpu_dma_latency: the CPU latency PM QoS target
                                  * in effect (the smallest request of every holder, e.g.
                                  * tuned's force_latency), us; 2000000000 = no request */
    char *cpuidle_driver;        /* /sys/devices/system/cpu/cpuidle/current_driver */
    char *cpuidle_governor;      /* .../cpuidle/current_governor(_ro) */

    GArray *cpus;                /* RvCpuPower per online CPU, by cpu */
    GArray *mce;                 /* RvStateMce per readable machinecheckN/ignore_ce, in
                                  * directory order; empty without x86 MCE */
    GPtrArray *rps;              /* RvStateRps * of every readable rps_cpus (at most 256
                                  * devices x 256 queues, in directory order) and of
                                  * rps_default_mask; empty without /sys/class/net */

    /* filled by rv_host_state_load_knobs() only */
    GPtrArray *sysctls;          /* RvStateKnob * */
    GPtrArray *module_params;    /* RvStateKnob * */
    bool sys_module;             /* /sys/module exists */

    GPtrArray *problems;         /* char *: "'<path>' holds 'value': <why>" per malformed file */
} RvHostState;

void rv_host_state_free(RvHostState *st);
G_DEFINE_AUTOPTR_CLEANUP_FUNC(RvHostState, rv_host_state_free)

/**
 * rv_host_state_load:
 * @root: live host or fixture tree
 * @nr_cpu_ids: possible CPUs (RvTopology.nr_cpu_ids), for cpulist ranges; 0 = unknown
 * @ret: (out): the state, written only on success
 * @error: (optional): only for failures that leave nothing to report
 *
 * Reads every source listed above through @root.  On the live host only,
 * probes core scheduling with prctl(PR_SCHED_CORE, PR_SCHED_CORE_GET, 0,
 * PIDTYPE_PID, &cookie) on the calling thread; on a fixture root, reads the
 * record "/rtvirt/coresched" ("usable", "ENODEV", "EINVAL") written by
 * `rtvirt host capture`, else unknown.
 *
 * Returns: 0 or -errno.  Malformed or unreadable files are not errors.
 */
int rv_host_state_load(RvRoot *root, unsigned nr_cpu_ids, RvHostState **ret,
                       GError **error) G_GNUC_WARN_UNUSED_RESULT;

/**
 * rv_host_state_load_knobs:
 * @st: a state from rv_host_state_load() on @root
 * @sysctls: (nullable): sysctl names with dots ("vm.stat_interval"), read
 *           from /proc/sys/vm/stat_interval
 * @module_params: (nullable): "MODULE.PARAM" names, read from
 *                 /sys/module/MODULE/parameters/PARAM
 *
 * Fills @st->sysctls, @st->module_params (in the order given) and
 * @st->sys_module.  A file that is absent or unreadable has value NULL:
 * whether it is absent from the kernel or from a fixture root is the
 * caller's call (rv_host_root_is_live()).
 */
void rv_host_state_load_knobs(RvHostState *st, RvRoot *root, const char *const *sysctls,
                              const char *const *module_params);

/* "usable", "no-smt", "unsupported", "unknown" (stable JSON words). */
const char *rv_host_coresched_state_to_string(RvCoreSchedState s);

/**
 * rv_host_coresched_probe:
 *
 * The live probe alone: prctl(PR_SCHED_CORE, PR_SCHED_CORE_GET) on the
 * calling thread (Documentation/admin-guide/hw-vuln/core-scheduling.rst).
 * @ret_errno (optional) gets the errno (0 on success).
 */
RvCoreSchedState rv_host_coresched_probe(int *ret_errno);
