/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * harness/matrix.h: scenario matrix profiles (profiles/matrix/NAME.ini).
 *
 * A matrix says which guests run (RT guests measured with cyclictest, and
 * neighbour guests that only make load), which scenarios to compare (host
 * settings: SMT on/off, core scheduling off / one cookie per VM / per vCPU
 * / libvirt's sched_core, vCPU placement pinned or not, runtime knobs),
 * which load levels, how long and how often, and in which order.
 *
 * File format (util/ini.h, tuned-style INI):
 *
 *   [main]
 *   name = demo                  results/<date>-<name>/ (default: file stem)
 *   description = ...
 *   duration = 10s               measured time per repetition
 *   warmup = 2s                  time the guests run before measuring
 *   repetitions = 3              per scenario x load cell, 1-1000
 *   order = random               interleaved | random (default random)
 *   seed = 12345                 random order seed; absent = drawn, recorded
 *   baseline = baseline          scenario the others are compared to
 *                                (default: the first scenario)
 *   loads = idle, busy           load levels (names of [load:*]); default
 *                                one built-in level "idle"
 *   timeout = 3m                 per repetition: a guest that has not
 *                                answered by then fails the repetition
 *                                (default duration + warmup + 120s)
 *   host_profile = ../host/x.ini optional: the host profile the results
 *                                are trusted against (host/check/check.h);
 *                                loaded and validated with the matrix
 *                                (host/profile/profile.h), so a bad value or a
 *                                missing include is an error of the load
 *                                ("N"/"all" in its cpulists resolve on
 *                                the host: rtvirt run checks them there)
 *
 *   [cyclictest]                 overrides of every guest profile's
 *                                [cyclictest] (default: the profile's;
 *                                for [host] cyclictest 1000us / 95 / 1000)
 *   interval = 1000us            -i, in us
 *   priority = 95                -p, SCHED_FIFO 1-99
 *   histogram = 1000             -h, buckets of 1 us
 *
 *   [host]
 *   workload = none              none | cyclictest | pipe | pert: measured
 *                                on host CPUs beside the guests, after the
 *                                warm-up, for the duration: cyclictest -a
 *                                CPUS -t N (one record, target "host"),
 *                                rtvirt-pipe -a A -b B on the first two
 *                                CPUs (one record with the RES/CAL/LOC
 *                                interrupts of those CPUs during it), or
 *                                `rtvirt pert --cpu C` on each CPU (one
 *                                record per CPU, target "host:cpuC")
 *   cpus = isolated              isolated | a cpulist (default isolated)
 *
 *   [guest:NAME]                 one per VM, NAME = the domain name suffix
 *   profile = ../guests/rt-demo.ini   guest profile (guest/profile.h),
 *                                relative to this file
 *   role = rt                    rt (measured) | neighbour (load only)
 *   workload = cyclictest        rt: cyclictest | pipe | none;
 *                                neighbour: hackbench | stress | linpack | gemm |
 *                                sysbench | sysbench-threads | pipe | semi-idle |
 *                                none (workloads/workload.h)
 *   optional = no                yes: a workload this rtvirt does not have
 *                                (a matrix written for a newer one) skips
 *                                this guest with the reason instead of
 *                                refusing the matrix
 *   count = 96                   1-1024 VMs of this section (default 1):
 *                                with count > 1 they are NAME-01 ..
 *                                NAME-96 (two digits at least), each its
 *                                own guest; `guests = NAME` in a scenario
 *                                names all of them; count guests of a
 *                                small host get less memory than the
 *                                profile's (harness/plan.h)
 *   count = node*8/3             or sized at run time from the online
 *                                CPUs of the host's first NUMA node
 *                                (package where nodes are unknown):
 *                                node, node*M, node/K or node*M/K (M, K
 *                                1-64, rounded down; 96 on a 36-thread
 *                                node); such a section is named by NAME
 *                                only in `guests =`, and a node that
 *                                gives fewer than 1 or more than 1024
 *                                guests is refused
 *   vcpus = node/3               the guest's vCPUs instead of the
 *                                profile's (guests without RT vCPUs
 *                                only): N (1-1024), or node/K = the
 *                                online CPUs of the host's first NUMA node
 *                                (package where nodes are unknown) / K,
 *                                sized at run time; a host whose node is
 *                                smaller than N, or than K, is refused
 *   memory = 32G                 the guest's memory instead of the profile's
 *
 *   [load:NAME]
 *   neighbour_workers = 2        hackbench groups / stress workers in each
 *                                neighbour guest (0 = neighbours idle)
 *   sysbench_threads = 32 ...    the keys the workloads declare
 *                                (workloads/NAME.c: RvWorkloadKey), each an
 *                                integer in its range: sysbench_threads,
 *                                sysbench_rate, gemm_threads, gemm_n,
 *                                linpack_n, semi_idle_interval, ...
 *
 *   [budget]                     budgets `rtvirt compare` judges (exit 1
 *   NAME = EXPRESSION            when one is not a PASS), e.g.
 *                                rt-max = max_us <= 40; the grammar is in
 *                                results/budget.h; checked at load
 *
 *   [scenario:NAME]              in file order; NAME is what compare shows
 *                                (with several load levels: NAME@LOAD).
 *                                A section needs at least one key (an
 *                                empty one is invisible to util/ini.h)
 *   description = ...
 *   smt = keep                   keep | on | off (off: smt/control through
 *                                the journal)
 *   coresched = off              off | vm | vcpu | libvirt
 *   placement = pinned           pinned | unpinned (vCPUs floating over
 *                                all online CPUs, SCHED_OTHER, no
 *                                emulatorpin: a default libvirt guest)
 *   vcpu_sched = profile         profile (RT vCPUs SCHED_FIFO at the guest
 *                                profile's rt_priority) | other (pinned,
 *                                but SCHED_OTHER: for hosts where libvirt
 *                                cannot give vCPUs FIFO)
 *   host_sibling = shared        idle | shared (default: each guest
 *                                profile's host_sibling): where RT vCPUs
 *                                sit on SMT cores, shared leaves their
 *                                siblings to the neighbour guests (their
 *                                vCPUs are dealt onto them, one each:
 *                                guest/placement.h), idle keeps them idle;
 *                                refused with smt = off (no sibling online)
 *                                and with placement = unpinned; either way
 *                                the neighbours get the scenario's CPU
 *                                budget (RvPlanBudget, harness/plan.h)
 *   bootargs = nosmt isolcpus=2,3   kernel boot arguments this scenario
 *                                runs under, added to the host's own
 *                                (words of letters, digits and _.,=:/+-,
 *                                each once; host/tune/bootargs.h): `rtvirt
 *                                run` groups the runs by boot (the words
 *                                sorted), installs each group's
 *                                arguments through the boot loader and
 *                                reboots between groups, resuming after
 *                                the boot (harness/reboot.h); scenarios
 *                                without it run first, under the boot
 *                                the host has
 *   guests = rt0, busy0          subset of guests (default all; empty:
 *                                host workload only)
 *   rt_runtime_us = -1           optional runtime knob
 *                                (/proc/sys/kernel/sched_rt_runtime_us)
 *   timer_migration = 0          optional runtime knob (0|1)
 *
 * Every key is checked: an unknown key, a missing guest profile, a host
 * profile that does not load, or an undefined name is an RV_ERROR_INVALID
 * "FILE:LINE: ..." error, raised
 * before anything on the host changes.
 */
#pragma once

#include <stdbool.h>
#include <glib.h>

#include "util/cpulist.h"
#include "workloads/workload.h"

typedef enum {
    RV_MATRIX_ORDER_INTERLEAVED,   /* round r runs every cell once, in file order */
    RV_MATRIX_ORDER_RANDOM,        /* round r runs every cell once, shuffled */
} RvMatrixOrder;

typedef enum {
    RV_MATRIX_SMT_KEEP,
    RV_MATRIX_SMT_ON,
    RV_MATRIX_SMT_OFF,
} RvMatrixSmt;

typedef enum {
    RV_MATRIX_CORESCHED_OFF,
    RV_MATRIX_CORESCHED_VM,        /* one cookie per VM (all QEMU threads) */
    RV_MATRIX_CORESCHED_VCPU,      /* one cookie per vCPU thread */
    RV_MATRIX_CORESCHED_LIBVIRT,   /* libvirt's qemu.conf sched_core */
} RvMatrixCoresched;

typedef enum {
    RV_MATRIX_PLACEMENT_PINNED,
    RV_MATRIX_PLACEMENT_UNPINNED,
} RvMatrixPlacement;

typedef enum {
    RV_MATRIX_SIBLING_PROFILE,     /* each guest profile's host_sibling */
    RV_MATRIX_SIBLING_IDLE,        /* RT vCPUs' SMT siblings stay idle */
    RV_MATRIX_SIBLING_SHARED,      /* ... run the neighbour guests' vCPUs */
} RvMatrixSibling;

typedef enum {
    RV_MATRIX_ROLE_RT,
    RV_MATRIX_ROLE_NEIGHBOUR,
} RvMatrixRole;

typedef struct {
    char *name;
    char *profile;          /* path of the guest profile, resolved */
    RvMatrixRole role;
    const RvWorkloadOps *workload;  /* workloads/workload.h; NULL = none */
    bool optional;          /* optional = yes */
    char *skip_reason;      /* optional guest whose workload this rtvirt lacks: never
                             * booted, a "skipped" record with this reason */
    char *workload_name;    /* the workload it named then */
    char *file;             /* where [guest:NAME] was defined */
    unsigned line;
    char *group;            /* the section's NAME; = name unless count > 1 */
    unsigned vcpus;         /* vcpus = N, 0 = the profile's */
    unsigned vcpus_node_div;/* vcpus = node/K: K, 0 = not so */
    char *vcpus_at;         /* "FILE:LINE" of vcpus =, NULL without it */
    guint64 memory_bytes;   /* memory = SIZE, 0 = the profile's */
    const char *workload_missing; /* a workload announced but not built in
                                   * yet ("tpcc"): its scenarios are SKIPPED */
    unsigned count;         /* the section's count (1 = a single guest;
                             * 0 = not sized yet: count = node..., see
                             * rv_harness_matrix_size_counts()) */
    unsigned index;         /* 1-based position in the section's count */
    unsigned count_node_mul;/* count = node*M/K: M; 0 = count = N */
    unsigned count_node_div;/* ... K (1 without /K) */
} RvMatrixGuest;

typedef struct {
    char *name;
    unsigned neighbour_workers;
    bool builtin;           /* the built-in "idle" level (no [load:*] section) */
    GHashTable *values;     /* char* key -> gint64*: the workloads' keys set in
                             * the section (workloads/workload.h), or NULL */
} RvMatrixLoad;

typedef struct {
    char *name;
    char *description;
    RvMatrixSmt smt;
    RvMatrixCoresched coresched;
    RvMatrixPlacement placement;
    RvMatrixSibling host_sibling;
    bool vcpu_sched_other;  /* vcpu_sched = other */
    char **bootargs;        /* bootargs = ...: NULL-terminated words as written,
                             * NULL = the boot the host has */
    char *boot_key;         /* the words sorted, space-separated: scenarios with
                             * the same key share a boot; NULL without bootargs */
    GPtrArray *guests;      /* RvMatrixGuest* (owned by the matrix), the ones taking part */
    bool has_rt_runtime_us;
    gint64 rt_runtime_us;
    int timer_migration;    /* -1 = keep */
    char *file;
    unsigned line;
} RvMatrixScenario;

typedef struct {
    char *path;             /* the matrix file */
    char *name;
    char *description;
    guint64 duration_us;
    guint64 warmup_us;
    guint64 timeout_us;
    unsigned repetitions;
    RvMatrixOrder order;
    bool has_seed;
    guint64 seed;
    /* [main] cosched_stats = yes|no (default yes): the co-scheduling
     * stats' sched_switch trace on hosts with SMT (harness/cosched.h) */
    bool cosched_stats;
    char *baseline;         /* a scenario name */
    char *host_profile;     /* nullable, resolved path */
    char *host_profile_at;  /* "FILE:LINE" of host_profile = ..., or NULL */

    guint64 cyclictest_interval_us;  /* 0 = the guest profile's */
    unsigned cyclictest_priority;    /* 0 = the guest profile's */
    unsigned cyclictest_histogram;   /* 0 = the guest profile's */

    const RvWorkloadOps *host_workload;  /* NULL (none), cyclictest, pipe or pert */
    bool host_cpus_isolated;         /* true: the host's isolated CPUs */
    RvCpuSet host_cpus;              /* when !host_cpus_isolated */

    GPtrArray *guests;      /* RvMatrixGuest* */
    GPtrArray *loads;       /* RvMatrixLoad*, at least one */
    GPtrArray *scenarios;   /* RvMatrixScenario*, at least one */
    GPtrArray *files;       /* char*: every file read (matrix + includes) */
} RvMatrix;

/**
 * rv_harness_matrix_load:
 * @path: a matrix profile (format above)
 * @ret: (out): the matrix, written only on success
 * @error: (optional): RV_ERROR_INVALID "FILE:LINE: ..." for bad or unknown
 *         keys, undefined guests/loads/scenarios, missing guest profiles,
 *         a host_profile that rv_host_profile_load() rejects;
 *         RV_ERROR_FAILED when the file cannot be read
 *
 * Reads and validates the file only; the host is not looked at.
 *
 * Returns: 0 or -errno.
 */
int rv_harness_matrix_load(const char *path, RvMatrix **ret,
                           GError **error) G_GNUC_WARN_UNUSED_RESULT;

/* As rv_harness_matrix_load() on text, as if read from @name (tests).
 * Relative guest profile paths resolve against @name's directory. */
int rv_harness_matrix_load_data(const char *name, const char *text, RvMatrix **ret,
                                GError **error) G_GNUC_WARN_UNUSED_RESULT;

void rv_harness_matrix_free(RvMatrix *matrix);
G_DEFINE_AUTOPTR_CLEANUP_FUNC(RvMatrix, rv_harness_matrix_free)

/**
 * rv_harness_matrix_size_counts:
 * @matrix: a loaded matrix; its `count = node...` sections (one guest with
 *          count 0 each until now) become their guests NAME-01..NAME-N,
 *          in place, in the matrix and in every scenario that takes them
 * @node_cpus: the online CPUs of the node the matrix is sized from (the
 *             first NUMA node, or package: rv_harness_plan_node())
 * @node_what: "NUMA node 0 of this host" ... (rv_harness_plan_node()), for
 *             the messages
 * @ret_note: (out) (optional) (nullable): "NOTE guest count: [guest:semi]
 *            count = node*8/3: 21 guests (package 0 of this host: 8 online
 *            CPUs)" for
 *            `run --plan` and the store, or NULL when no section is sized
 * @error: (optional): RV_ERROR_UNSUPPORTED (ENOSPC) "FILE:LINE:
 *         [guest:NAME] count = node*M/K: ..." when the node gives fewer
 *         than 1 or more than 1024 guests; RV_ERROR_INVALID (EINVAL) when
 *         a guest name it makes is taken by another section
 *
 * Sized from the topology at run time as `vcpus = node/K` is, so that a
 * reference matrix keeps its ratio of vCPUs to hardware threads (the
 * core-scheduling v2 series: 96 semi-idle VMs beside a 12-vCPU server on
 * a 36-thread node, 3 vCPUs per thread) on hosts of another size.
 * Calling it again changes nothing.
 *
 * Returns: 0 or -errno.
 */
int rv_harness_matrix_size_counts(RvMatrix *matrix, unsigned node_cpus, const char *node_what,
                                  char **ret_note, GError **error) G_GNUC_WARN_UNUSED_RESULT;

/* "node", "node*8", "node/3" or "node*8/3" of a count = node... section
 * (@g->count_node_mul != 0). */
char *rv_harness_matrix_count_spec(const RvMatrixGuest *g);

/* The value of a workload's [load:NAME] key (workloads/workload.h), 0 when
 * the level does not set it. */
gint64 rv_harness_matrix_load_value(const RvMatrixLoad *load, const char *key);

/* Lookups by name; NULL when absent. */
const RvMatrixScenario *rv_harness_matrix_scenario(const RvMatrix *matrix, const char *name);
const RvMatrixGuest *rv_harness_matrix_guest(const RvMatrix *matrix, const char *name);

/* Names of the enum values as written in the profile ("off", "vm", ...). */
const char *rv_harness_matrix_smt_name(RvMatrixSmt smt);
const char *rv_harness_matrix_coresched_name(RvMatrixCoresched cs);
const char *rv_harness_matrix_placement_name(RvMatrixPlacement p);
const char *rv_harness_matrix_sibling_name(RvMatrixSibling s);   /* "profile", "idle", "shared" */
const char *rv_harness_matrix_role_name(RvMatrixRole role);
/* "none" for NULL */
const char *rv_harness_matrix_workload_name(const RvWorkloadOps *w);
const char *rv_harness_matrix_order_name(RvMatrixOrder order);
