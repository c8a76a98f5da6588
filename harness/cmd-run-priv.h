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
                                 * (index = position in scenario->guests) */
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
} RvRunCtx;

/* ---- harness/cmd-run.c ---------------------------------------------------- */

/* Step 2: the host lock (--wait-lock); 0 or -errno with @error set. */
int rv_cmd_run_take_lock(RvLock **ret_lock, GError **error) G_GNUC_WARN_UNUSED_RESULT;
/* The run journal reverted (scenario settings, domains); 0 or -errno. */
int rv_cmd_run_revert_scenario(RvRunCtx *c, GError **error) G_GNUC_WARN_UNUSED_RESULT;

/* ---- harness/run-plan.c: admission and the plan --------------------------- */

/* Step 1: guest profiles loaded, counts and sizes from this host, every
 * scenario's guests placed; 0 or -errno (bad input: exit 2). */
int rv_cmd_run_validate(RvRunCtx *c, GError **error) G_GNUC_WARN_UNUSED_RESULT;
/* Step 2b: c->skip (the reason per scenario, or NULL), c->runnable and
 * c->n_runs from the host's facts. */
void rv_cmd_run_judge_host(RvRunCtx *c);
/* "smt=... coresched=... placement=..." of scenario @sc in @buf. */
const char *rv_cmd_run_describe_settings(const RvMatrixScenario *sc, char *buf, size_t len);
/* Step 2c, --plan: the plan as text on stdout. */
void rv_cmd_run_print_plan(RvRunCtx *c);
/* Step 2c, --plan --json: the plan as one JSON document; an exit status. */
int rv_cmd_run_print_plan_json(RvRunCtx *c);

/* ---- harness/run-reboot.c: boots of a matrix with boot arguments ---------- */

/* The boot a repetition ran under, as a verification of the store. */
void rv_cmd_run_boot_note(RvRunCtx *c, const RvPlanRun *run);
/* Did an earlier invocation under this boot finish this repetition? */
bool rv_cmd_run_boot_rep_done(RvRunCtx *c, const RvPlanRun *run);
/* A repetition of a boot that did not take its arguments: failed, 1. */
int rv_cmd_run_boot_failed(RvRunCtx *c, const RvPlanRun *run);
/* Step 4b: hand over to boot @next; RV_HARNESS_REBOOT_EXIT or -errno. */
int rv_cmd_run_handover(RvRunCtx *c, unsigned next, GError **error) G_GNUC_WARN_UNUSED_RESULT;
/* The boot loader and the resume unit as before the run; 0 or -errno. */
int rv_cmd_run_boots_end(RvRunCtx *c, const char *why, GError **error) G_GNUC_WARN_UNUSED_RESULT;
/* `rtvirt run --abort STORE`; an exit status. */
int rv_cmd_run_abort(const char *store_dir);
