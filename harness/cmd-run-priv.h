/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * harness/cmd-run-priv.h: the state of one `rtvirt run`, shared by its
 * parts: harness/cmd-run.c (the inputs, the store, the loop, the end),
 * harness/run-plan.c (admission of each scenario on this host and the
 * plan `--plan` prints) and harness/run-reboot.c (the handover to the next
 * boot of a matrix with boot arguments, and its end).  Internal to them.
 */
#pragma once

#include <stdbool.h>
#include <glib.h>
#include <json-glib/json-glib.h>

#include "guest/placement.h"
#include "harness/lock.h"
#include "harness/matrix.h"
#include "harness/plan.h"
#include "harness/progress.h"
#include "harness/reboot.h"
#include "harness/run.h"
#include "host/fsroot.h"
#include "host/facts/state.h"
#include "host/tune/journal.h"
#include "results/store.h"

/* One `rtvirt run` from its inputs to its exit status. */
typedef struct {
    bool plan_only;             /* --plan: nothing changes, nothing is measured */
    const char *seed_source;    /* "--seed", "the matrix", "drawn now" or "the store" */
    const char *matrix_arg;     /* MATRIX as given (the command --plan prints) */
    RvMatrix *matrix;
    RvPlan *plan;
    RvRoot *root;
    RvJournal *journal;
    RvStore *store;
    RvProgress *progress;
    RvGuestHostCpus *host_cpus;
    RvRunEnv *env;              /* guests: libvirt connection, image (harness/run.h) */
    guint failed_starts;        /* from env at the end: rv_harness_run_env_starts() */
    guint learned_starts;
    GPtrArray *profiles;        /* RvGuestProfile*, index = matrix guest index */
    GPtrArray *skip;            /* char* per scenario: skip reason or NULL */
    GPtrArray *placements;      /* per scenario: GPtrArray of RvGuestPlacement*
                                 * (index = position in scenario->guests;
                                 * empty where @unplaced says why) */
    GPtrArray *memory_short;    /* char* per scenario: "short of memory: ..."
                                 * or NULL (harness/plan.h) */
    GPtrArray *vcpus_short;     /* char* per scenario: a guest's vcpus = too
                                 * large for this host, or NULL (harness/plan.h) */
    GPtrArray *unplaced;        /* char* per scenario: why this host cannot
                                 * place its guests, or NULL (harness/plan.h) */
    bool rt_group_trap;         /* host/facts/state.h rt_group_trap == YES */
    int coresched_errno;        /* host/facts/state.h coresched probe (or fixture record) */
    RvCoreSchedState coresched_state;
    unsigned runnable;          /* scenarios this host can run */
    unsigned n_runs;            /* runs of the plan that are not SKIPPED */
    unsigned failed_runs;
    unsigned ok_runs;
    unsigned ok_with_fail;      /* of ok_runs: with a verification FAIL (untrusted) */
    char *virt;                 /* "kvm" | "tcg" once known */
    char *memory_note;          /* count guests given less memory (harness/plan.h) */
    char *count_note;           /* count = node... sections sized (harness/matrix.h) */
    /* reboot-resume (harness/reboot.h), with plan->n_reboots > 0 */
    unsigned boot;              /* the boot measured now (plan->boots index) */
    char *cmdline;              /* /proc/cmdline of this boot */
    char *boot_fail;            /* why this boot did not take its arguments, or NULL */
    RvRebootState *resume;      /* the state this run carries over its reboots */
    bool locked;                /* the host lock taken: a failure may restore the boot loader */
} RvRunCtx;

/* The untrusted reasons of a run that stopped: `run --resume` removes them. */
#define RV_CMD_RUN_INTERRUPTED "interrupted by a signal: the matrix is incomplete"
#define RV_CMD_RUN_FAILED "the run failed before its end"

/* One resource the guests need against what the host has (--plan). */
typedef struct {
    char *what;                 /* "vCPUs", "RT vCPUs", "memory", "huge pages 1 GiB" */
    int node;                   /* NUMA node, -1: the whole host */
    guint64 need, have;         /* in @unit */
    bool known;                 /* the host's side was read */
    bool ok;                    /* need <= have (or unknown; vCPUs: always) */
    bool overcommitted;         /* vCPUs: more than online CPUs (not short) */
    const char *unit;           /* "online CPUs", "MiB", "free pages" */
    const char *scenario;       /* the scenario that needs the most */
} RvRunResource;

/* What `run --plan` says before anything runs (harness/run-truth.c). */
typedef struct {
    bool tcg;                   /* guests under TCG: boots scaled to it */
    guint64 run_us;             /* one repetition (the longest), estimated */
    guint64 boot_us;            /* its guests' boot, assumed */
    unsigned boot_guests;       /* its guests */
    guint64 reboot_us;          /* one reboot, assumed */
    guint64 total_us;           /* every runnable repetition and reboot */
    unsigned n_runs;            /* runnable repetitions */
    unsigned *scenario_runs;    /* per matrix scenario */
    guint64 *scenario_us;
    GPtrArray *changes;         /* char*: each host change and its restore */
    GPtrArray *journals;        /* char*: where they are recorded */
    const char *profile;        /* the matrix's host_profile, or NULL */
    const char *verdict;        /* PASS, WARN, FAIL, NONE (no profile), ERROR */
    unsigned n_fail, n_warn;
    GPtrArray *reasons;         /* char*: the first FAIL findings (untrusted) */
    GPtrArray *resources;       /* RvRunResource* */
    bool resources_short;       /* some resource is short */
    bool resources_all;         /* no scenario runs: @resources are every
                                 * (SKIPPED) scenario's */
} RvRunTruth;

/* ---- harness/cmd-run.c ---------------------------------------------------- */

/* Test hook RV_TEST_KILL_AT=PHASE[:N[:SIG]] (harness/cmd-run.c). */
void rv_cmd_run_test_point(const char *phase);
/* Step 2: the host lock (--wait-lock); 0 or -errno with @error set. */
int rv_cmd_run_take_lock(RvLock **ret_lock, GError **error) G_GNUC_WARN_UNUSED_RESULT;
/* The run journal reverted (scenario settings, domains); 0 or -errno. */
int rv_cmd_run_revert_scenario(RvRunCtx *c, GError **error) G_GNUC_WARN_UNUSED_RESULT;

/* ---- harness/run-plan.c: admission and the plan --------------------------- */

/* Step 1: guest profiles loaded, counts and sizes from this host, every
 * scenario's guests placed; 0 or -errno (bad input: exit 2). */
int rv_cmd_run_validate(RvRunCtx *c, GError **error) G_GNUC_WARN_UNUSED_RESULT;

/* MemTotal of @root's /proc/meminfo (proc(5)) in bytes, 0 when unknown (a
 * fixture root without it): the plan's memory sizing and resource check. */
guint64 rv_cmd_run_host_mem_total(RvRoot *root);
/* Step 2b: c->skip (the reason per scenario, or NULL), c->runnable and
 * c->n_runs from the host's facts. */
void rv_cmd_run_judge_host(RvRunCtx *c);
/* "smt=... coresched=... placement=..." of scenario @sc in @buf. */
const char *rv_cmd_run_describe_settings(const RvMatrixScenario *sc, char *buf, size_t len);
/* Step 2c, --plan: the plan as text on stdout. */
void rv_cmd_run_print_plan(RvRunCtx *c);
/* Step 2c, --plan --json: the plan as one JSON document; an exit status. */
int rv_cmd_run_print_plan_json(RvRunCtx *c);

/* The neighbours' CPU budget of scenario @s as the plan shows it, or
 * NULL when the plan has none to show (harness/run-plan.c). */
char *rv_cmd_run_plan_neighbour_budget(RvRunCtx *c, guint s);

/* ---- harness/run-truth.c: what --plan says before anything runs ----------- */

/* Why scenario @s cannot run for want of huge pages: "short of huge pages
 * 1 GiB on node 1: its guests need 4, 2 free (...)", or NULL (enough, or
 * the root shows no pools).  A SKIPPED reason of rv_cmd_run_judge_host(),
 * so --plan and the run agree; after the placements. */
char *rv_cmd_run_short_reason(RvRunCtx *c, guint s);
/* Estimate, host changes and journals, host-profile verdict, resources of
 * the plan in @c (after rv_cmd_run_judge_host()). */
RvRunTruth *rv_cmd_run_truth_new(RvRunCtx *c);
void rv_cmd_run_truth_free(RvRunTruth *t);
G_DEFINE_AUTOPTR_CLEANUP_FUNC(RvRunTruth, rv_cmd_run_truth_free)
/* "# estimate: ..." after the matrix line. */
void rv_cmd_run_truth_print_estimate(RvRunCtx *c, const RvRunTruth *t);
/* "#   estimate: ..." of scenario @s (nothing for a SKIPPED one). */
void rv_cmd_run_truth_print_scenario(RvRunCtx *c, const RvRunTruth *t, guint s);
/* Host changes, journals, host profile verdict, resources. */
void rv_cmd_run_truth_print_tail(RvRunCtx *c, const RvRunTruth *t);
/* The same as members of the --plan --json object being built in @b:
 * estimate, host_changes, journals, host_profile, resources. */
void rv_cmd_run_truth_json(RvRunCtx *c, const RvRunTruth *t, JsonBuilder *b);
/* Members "repetitions", "estimate_s" of scenario @s's object in @b. */
void rv_cmd_run_truth_json_scenario(RvRunCtx *c, const RvRunTruth *t, guint s, JsonBuilder *b);

/* ---- harness/run-reboot.c: boots of a matrix with boot arguments ---------- */

/* The boot a repetition ran under, as a verification of the store. */
void rv_cmd_run_boot_note(RvRunCtx *c, const RvPlanRun *run);
/* Did an earlier invocation under this boot finish this repetition? */
bool rv_cmd_run_boot_rep_done(RvRunCtx *c, const RvPlanRun *run);
/* A repetition of a boot that did not take its arguments: failed, 1. */
int rv_cmd_run_boot_failed(RvRunCtx *c, const RvPlanRun *run);
/* Step 4b: hand over to boot @next; RV_HARNESS_REBOOT_EXIT, -ECANCELED (a
 * stop request before the reboot command, @error not set) or -errno. */
int rv_cmd_run_handover(RvRunCtx *c, unsigned next, GError **error) G_GNUC_WARN_UNUSED_RESULT;
/* After the last boot: the boot loader and the resume unit as before the
 * run, resume.json removed; 0 or -errno. */
int rv_cmd_run_boots_end(RvRunCtx *c, const char *why, GError **error) G_GNUC_WARN_UNUSED_RESULT;
/* A stop before the end: the same restore, resume.json kept for --resume;
 * 0 or -errno. */
int rv_cmd_run_boots_stop(RvRunCtx *c, const char *why, GError **error) G_GNUC_WARN_UNUSED_RESULT;
/* --resume: must boot c->boot's arguments be installed again and the host
 * rebooted (it never booted with them since they were installed)? */
bool rv_cmd_run_boot_needs_reboot(RvRunCtx *c);
/* --resume: the profile of @role ("matrix", "matrix-include", "guest:NAME",
 * "host") at @path against the store's copy; RV_ERROR_INVALID naming the
 * first line that differs when it changed.  0 or -EINVAL. */
int rv_cmd_run_resume_check(RvRunCtx *c, const char *role, const char *path,
                            GError **error) G_GNUC_WARN_UNUSED_RESULT;
/* `rtvirt run --abort STORE`; an exit status. */
int rv_cmd_run_abort(const char *store_dir);
