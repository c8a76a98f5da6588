/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * harness/plan.h: a matrix turned into the ordered list of runs.
 *
 * A cell is one scenario at one load level; the plan runs every cell
 * `repetitions` times.  Runs are grouped in rounds (a randomised complete
 * block design): round r holds every cell exactly once, so slow drift of
 * the host (thermal, background jobs, page cache) spreads evenly over all
 * scenarios instead of landing on the ones that happened to run last.
 * Within a round the cells keep file order (order = interleaved) or are
 * shuffled (order = random) with a Fisher-Yates shuffle driven by
 * SplitMix64 from the recorded seed, so the same seed gives the same order
 * on every machine and GLib version.
 */
#pragma once

#include <glib.h>

#include "harness/matrix.h"

typedef struct {
    unsigned index;        /* 0-based position in execution order */
    unsigned round;        /* 0-based round = repetition index of this cell */
    unsigned cell;         /* 0-based: scenario * nloads + load */
    unsigned scenario;     /* index into matrix->scenarios */
    unsigned load;         /* index into matrix->loads */
    char *cell_name;       /* "SCENARIO" with one load level, else "SCENARIO@LOAD" */
} RvPlanRun;

typedef struct {
    guint64 seed;
    RvMatrixOrder order;
    unsigned ncells;
    unsigned repetitions;
    GPtrArray *runs;       /* RvPlanRun*, execution order */
    GPtrArray *cell_names; /* char*, cell order */
} RvPlan;

/**
 * rv_harness_plan_new:
 * @matrix: a loaded matrix
 * @seed: the shuffle seed (used only for order = random; recorded always)
 *
 * Returns: (transfer full): ncells x repetitions runs in execution order.
 * Cannot fail: the matrix was validated when loaded.
 */
RvPlan *rv_harness_plan_new(const RvMatrix *matrix, guint64 seed);
void rv_harness_plan_free(RvPlan *plan);
G_DEFINE_AUTOPTR_CLEANUP_FUNC(RvPlan, rv_harness_plan_free)

/* A fresh seed from the kernel's CSPRNG (g_random), for a matrix without
 * seed = ...; it is recorded in the store so the order can be replayed. */
guint64 rv_harness_plan_draw_seed(void);

/**
 * rv_harness_plan_format:
 * Returns: (transfer full): the plan as text, one run a line:
 * "INDEX ROUND CELL_NAME\n" (for `rtvirt run --plan` and the tests).
 */
char *rv_harness_plan_format(const RvPlan *plan);

/**
 * rv_harness_plan_runs_text:
 * @plan: the plan
 * @skip: (nullable): per matrix scenario (same index) the reason this host
 *        cannot run it (char*), or NULL when it runs
 *
 * How many runs the plan holds, counting only the runnable ones: "4 runs",
 * or "4 runs (10 planned, 6 skipped)" when skipped scenarios take some.
 *
 * Returns: (transfer full): the text.
 */
char *rv_harness_plan_runs_text(const RvPlan *plan, GPtrArray *skip);

/**
 * rv_harness_plan_baseline_note:
 * @matrix: the matrix
 * @skip: (nullable): as for rv_harness_plan_runs_text()
 *
 * When the matrix's baseline scenario is SKIPPED on this host, the note
 * that says so and which scenario `rtvirt compare` uses instead: the first
 * scenario in file order that runs (results/compare.h falls back to the
 * first scenario that ran).
 *
 * Returns: (transfer full) (nullable): "NOTE: ...", or NULL when the
 * baseline runs.
 */
char *rv_harness_plan_baseline_note(const RvMatrix *matrix, GPtrArray *skip);
