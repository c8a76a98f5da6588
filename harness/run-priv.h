/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * harness/run-priv.h: the state of one repetition, shared by its three
 * parts: harness/run.c (the environment, measurement and teardown),
 * harness/run-pool.c (the boot pool) and harness/run-records.c (the
 * records and verifications each repetition leaves in the store).
 * Internal to those files.
 */
#pragma once

#include <stdbool.h>
#include <sys/types.h>

#include "guest/libvirt.h"
#include "guest/profile.h"
#include "guest/session.h"
#include "harness/attribution.h"
#include "harness/cosched.h"
#include "harness/run.h"
#include "util/runner.h"
#include "workloads/workload.h"

/* the host trace of spike attribution kept in the store up to this size */
#define RV_RUN_ATTR_RAW_MAX (16u << 20)

/* The guests' common part of a run (harness/run.h RvRunEnv). */
struct RvRunEnv {
    RvGuestVirtRequest virt_request;   /* AUTO until the first guest decided */
    bool virt_known;
    RvGuestVirtType virt;
    guint64 boot_estimate_us;
    GHashTable *untrusted_said;        /* reasons already in the store */
    guint failed_starts;               /* guest starts refused for a known limit */
    guint learned_starts;              /* starts that left an element out up front */
};

/* One guest of a repetition: its boot, its workload thread, its record. */
typedef struct {
    const RvMatrixGuest *mg;
    const RvGuestProfile *profile;
    const RvGuestPlacement *placement;
    char *domain_name;
    char *uuid;
    RvGuestSession *session;
    char *boot_error;           /* why it is not running */
    pid_t qemu_pid;
    char *cgroup;               /* the cpu cgroup of all QEMU's threads (host/facts/cgroup.h) */
    GArray *vcpu_tids;

    /* workload thread */
    const RvWorkloadOps *ops;   /* what runs in it (NULL: nothing) */
    RvWorkloadParams params;
    bool measured;              /* a record per repetition (else load only) */
    GThread *thread;
    char **argv;
    guint64 delay_us;           /* warm-up before starting */
    guint timeout_ms;
    guint expect_ms;            /* the workload's own duration, 0 = not known */
    GCancellable *cancellable;
    RvGuestExecResult res;
    GError *exec_error;
    bool started;
    GDateTime *t_start, *t_end;

    /* provisioning (rv_harness_run_boot_guests, tear_down) */
    bool boot_cancelled;        /* a signal stopped its boot */
    guint64 boot_us;            /* session start to ready, wall */
    gint64 mono_start, mono_end;    /* CLOCK_MONOTONIC around the exec, us */
    RvHarnessAttr *attr;        /* borrowed: the repetition's trace, or NULL */
    JsonNode *attribution;      /* details.attribution of its record */
    char *ct_rest;              /* the output without cyclictest -v lines */
} RvRunGuest;

/* The [host] workload beside the guests on host CPUs (cyclictest, pipe;
 * pert has its RvRunPertJob per CPU). */
typedef struct {
    RvRunRepetition *rep;
    RvCpuSet cpus;
    RvRunResult res;
    GError *error;
    GDateTime *t_start, *t_end;
    JsonNode *irq_diff;         /* pipe: host/facts/snapshot.h diff over its run */
} RvRunHostJob;

/* `rtvirt pert` (harness/cmd-pert.c) on one host CPU: this same binary,
 * run as a program so that the spin loop owns its CPU. */
typedef struct {
    RvRunRepetition *rep;
    int cpu;
    char *json_path;
    RvRunResult res;
    GError *error;
    GThread *thread;
    GDateTime *t_start, *t_end;
} RvRunPertJob;

/* The state of one repetition between its phases. */
typedef struct {
    RvRunEnv *env;
    RvRunRepetition *rep;
    guint n;
    RvRunGuest *guests;
    RvRunHostJob host;
    GThread *host_th;
    char *host_skip;
    GPtrArray *perts;           /* RvRunPertJob* */
    char *pert_dir;
    RvHarnessAttr *attr;        /* spike attribution's host trace */
    RvHarnessCosched *cosched;  /* co-scheduling stats' trace */
    bool cancelled;
} RvRunRep;

/* ---- harness/run.c -------------------------------------------------------- */

/* What the [host] workload is asked for: the matrix's duration and
 * [cyclictest], the load level's keys of its ops table, @cpus; @self is
 * this binary's path (NULL when only parsing). */
void rv_harness_run_host_params(const RvRunRepetition *rep, const RvCpuSet *cpus,
                                const char *self, RvWorkloadParams *p);

/* ---- harness/run-pool.c --------------------------------------------------- */

/* Phase 1: every guest of @r booted through the provisioning pool; a
 * guest's failure is its boot_error, a signal sets r->cancelled. */
void rv_harness_run_boot_guests(RvRunRep *r);
/* Runs @n guests through @size worker threads, booting them or (with
 * @teardown) destroying their domains, and waits for all of them. */
void rv_harness_run_pool_run(RvRunRep *r, RvRunGuest **guests, guint n, guint size,
                             bool teardown, guint boot_timeout_ms);

/* ---- harness/run-records.c ------------------------------------------------ */

/* rv_result_store_set_untrusted() once per reason (digit runs folded). */
void rv_harness_run_set_untrusted_once(RvRunEnv *env, RvStore *store, const char *why);
/* Counts a failure of @rep; the first one's reason is its status line. */
void rv_harness_run_note_failure(RvRunRepetition *rep, const char *why);
/* The session's live verification and findings of guest @g into the store. */
void rv_harness_run_record_session(RvRunEnv *env, RvRunRepetition *rep, RvRunGuest *g);
/* The cpu cgroup of guest @g's QEMU threads into run.json (sets g->cgroup). */
void rv_harness_run_record_cgroup(RvRunRepetition *rep, RvRunGuest *g);
/* Phase 4: one record per workload of the repetition. */
void rv_harness_run_record_all(RvRunRep *r);
