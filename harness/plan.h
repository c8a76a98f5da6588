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
 *
 * Boot groups: a scenario with bootargs = ... (harness/matrix.h) runs
 * under another kernel command line, so the runs are grouped by boot to
 * reboot as few times as possible: first the scenarios without bootargs
 * (under the boot the host has), then one group per distinct boot key, in
 * the file order of its first scenario.  Each group holds all repetitions
 * of its cells, in rounds as above (round r of a group holds each of its
 * cells once, shuffled for order = random); one shuffle stream from the
 * seed runs through the groups in order.  Without bootargs there is one
 * group and the plan is as before.
 */
#pragma once

#include <glib.h>
#include <json-glib/json-glib.h>

#include "guest/placement.h"
#include "harness/matrix.h"

typedef struct {
    unsigned index;        /* 0-based position in execution order */
    unsigned round;        /* 0-based round = repetition index of this cell */
    unsigned cell;         /* 0-based: scenario * nloads + load */
    unsigned scenario;     /* index into matrix->scenarios */
    unsigned load;         /* index into matrix->loads */
    char *cell_name;       /* "SCENARIO" with one load level, else "SCENARIO@LOAD" */
    unsigned boot;         /* index into plan->boots */
} RvPlanRun;

/* One boot the plan runs under (see above). */
typedef struct {
    unsigned index;        /* 0-based, the order they boot in */
    char **bootargs;       /* the first scenario's words as written; NULL = the
                            * boot the host has (scenarios without bootargs) */
    char *key;             /* RvMatrixScenario.boot_key; NULL = the host's boot */
    unsigned first_run;    /* index of its first run in plan->runs */
    unsigned n_runs;       /* its runs, consecutive from first_run */
} RvPlanBoot;

typedef struct {
    guint64 seed;
    RvMatrixOrder order;
    unsigned ncells;
    unsigned repetitions;
    GPtrArray *runs;       /* RvPlanRun*, execution order */
    GPtrArray *cell_names; /* char*, cell order */
    GPtrArray *boots;      /* RvPlanBoot*, boot order; at least one */
    unsigned n_reboots;    /* boots that need a reboot: those with bootargs */
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

/**
 * rv_harness_plan_place:
 * @matrix: a loaded matrix
 * @profiles: (element-type RvGuestProfile): the guest profiles, index =
 *            matrix guest index
 * @host: the host CPUs; its reserved set is used while placing and is as
 *        before on return
 * @ret: (out) (element-type GPtrArray): per scenario (same index) the
 *       GPtrArray of RvGuestPlacement*, index = position in the scenario's
 *       guests; empty for a scenario this host cannot place (see
 *       @ret_unplaced); written only on success
 * @ret_unplaced: (out) (optional) (element-type utf8): per scenario (same
 *       index) "guest 'G' cannot be placed on this host: REASON" where the
 *       host lacks the CPUs its guests need (too few, none isolated), or
 *       NULL where they are placed: `run` and `run --plan` show such a
 *       scenario SKIPPED with the reason and place the others; written
 *       only on success.  Without it, such a host is an error.
 * @error: (optional): "FILE:LINE: [scenario:NAME]: guest 'G' cannot be
 *         placed on this host: REASON", RV_ERROR_UNSUPPORTED where the
 *         host lacks the CPUs (exit 77; only without @ret_unplaced), else
 *         RV_ERROR_INVALID (exit 2)
 *
 * Places every scenario's guests as they run together:
 *  - smt = off: on the primary threads only (rv_guest_host_cpus_primaries());
 *  - guests with RT vCPUs first, in scenario order, each taking its RT
 *    CPUs (and their siblings) away from the next;
 *  - their SMT siblings by the scenario's host_sibling (else each
 *    profile's): idle or shared;
 *  - the guests without RT vCPUs (the neighbours) in the scenario's
 *    neighbour CPU budget (RvPlanBudget): its CPUs outside load balancing
 *    (the shared siblings first, then isolated CPUs no RT vCPU owns) get
 *    their vCPUs dealt, one each, in scenario order
 *    (rv_guest_placement_deal()); their other vCPUs float over the rest of
 *    the budget; every emulator thread stays on the housekeeping CPUs; a
 *    shared sibling left without a vCPU gets a NOTE on the last neighbour;
 *  - placement = unpinned: rv_harness_run_unpin(); vcpu_sched = other:
 *    the RT vCPUs pinned but SCHED_OTHER.
 *
 * Returns: 0 or -errno.
 */
int rv_harness_plan_place(const RvMatrix *matrix, GPtrArray *profiles, RvGuestHostCpus *host,
                          GPtrArray **ret, GPtrArray **ret_unplaced,
                          GError **error) G_GNUC_WARN_UNUSED_RESULT;

/*
 * The neighbours' CPU budget of one scenario: what the guests without RT
 * vCPUs get in production under the scenario's option.  Everything the RT
 * vCPUs do not own (their CPUs, and CPUs kept idle for them or by the host
 * profile); with the RT cores' SMT siblings where host_sibling = shared
 * (baseline, coresched: the siblings run neighbour vCPUs), without them
 * where host_sibling = idle (siblings-idle); on the primary threads only
 * with smt = off (nosmt); the CPUs of a [host] workload stay out.
 * Within it the CPUs the scheduler does not balance onto (isolated CPUs,
 * the shared siblings among them first) get one neighbour vCPU each
 * (rv_guest_placement_deal()), the other vCPUs float over the rest.
 */
typedef struct {
    RvCpuSet cpus;          /* the budget */
    RvCpuSet dealt_pool;    /* its CPUs outside load balancing: one vCPU each */
    RvCpuSet floating;      /* cpus - dealt_pool: where the other vCPUs float */
    RvCpuSet rt_cpus;       /* what the RT vCPUs own */
    RvCpuSet siblings;      /* the RT cores' SMT siblings (shared or idle) */
    bool siblings_given;    /* true: @siblings are in the budget (shared) */
    bool primaries_only;    /* smt = off */
    bool unpinned;          /* placement = unpinned: every vCPU floats over all */
    unsigned n_neighbours;  /* the scenario's guests without RT vCPUs */
} RvPlanBudget;

/**
 * rv_harness_plan_budget:
 * @matrix: a loaded matrix (its [host] workload CPUs stay out)
 * @scenario: the scenario
 * @placements: its placements, index = position in its guests; only the
 *              guests with RT vCPUs are read (NULL entries are skipped)
 * @host: the host CPUs with SMT on (the primary threads are taken here
 *        for smt = off)
 * @ret: (out): the budget
 *
 * The rule above, computed from the RT guests' placements
 * (rv_harness_plan_place() deals the neighbours into it; `run --plan`
 * prints it per scenario).
 */
void rv_harness_plan_budget(const RvMatrix *matrix, const RvMatrixScenario *scenario,
                            GPtrArray *placements, const RvGuestHostCpus *host,
                            RvPlanBudget *ret);

/**
 * rv_harness_plan_budget_text:
 * Returns: (transfer full): the budget in one line, e.g. "CPUs 0,4,8-15
 * (10): all but the RT vCPUs' CPUs 1-3,5-7, with the RT cores' SMT
 * siblings 9-11,13-15"; "..., without the RT cores' SMT siblings 9-11 (kept
 * idle)"; "..., primary threads only (smt = off)".
 */
char *rv_harness_plan_budget_text(const RvPlanBudget *budget);

/**
 * rv_harness_plan_budget_json:
 * Adds the member "neighbour_budget" to the object @b is building: null
 * when the scenario has no neighbour, else {cpus, count, rt_cpus,
 * rt_siblings, rt_siblings_given, primaries_only, unpinned, one_vcpu_each,
 * floating, text} (cpulists as strings, "" for none; text as
 * rv_harness_plan_budget_text()).
 */
void rv_harness_plan_budget_json(JsonBuilder *b, const RvPlanBudget *budget);

/**
 * rv_harness_plan_node:
 * @host: the host CPUs
 * @ret_node: (out): the online CPUs of the host's first locality group
 *            (NUMA node, or package where nodes are unknown), or all online
 *            CPUs without groups: what `vcpus = node/K` and `count =
 *            node*M/K` of a matrix are sized from (harness/matrix.h)
 *
 * Returns: (transfer full): "NUMA node 0 of this host", "package 0 of this
 * host" or "this host", for messages.
 */
char *rv_harness_plan_node(const RvGuestHostCpus *host, RvCpuSet *ret_node);

/**
 * rv_harness_plan_size_guests:
 * @matrix: a loaded matrix
 * @profiles: (element-type RvGuestProfile): index = matrix guest index;
 *            vcpus and memory_bytes set from the guest sections' vcpus =
 *            and memory = (harness/matrix.h)
 * @host: the host CPUs (with SMT as it is: its first locality group is
 *        "node")
 * @ret_short: (out) (optional) (element-type utf8): per scenario (same
 *            index) "FILE:LINE: [guest:NAME] vcpus = node/3: package 0 of
 *            this host has 2 online CPUs, too few" where a guest it runs
 *            does not fit the host's node, else NULL: `run` and `run
 *            --plan` SKIP such a scenario with the reason (that guest is
 *            given 1 to the node's CPUs to show the plan); written only on
 *            success
 * @error: (optional): without @ret_short, RV_ERROR_UNSUPPORTED that
 *         message when the host's node is too small; RV_ERROR_INVALID for
 *         vcpus = on a guest with RT vCPUs
 *
 * Returns: 0 or -errno.
 */
int rv_harness_plan_size_guests(const RvMatrix *matrix, GPtrArray *profiles,
                                const RvGuestHostCpus *host, GPtrArray **ret_short,
                                GError **error) G_GNUC_WARN_UNUSED_RESULT;

/* The least memory a count guest is given on a small host: the embedded
 * image's kernel and initramfs boot in it. */
#define RV_HARNESS_PLAN_MIN_GUEST_MEMORY (128u << 20)

/**
 * rv_harness_plan_size_memory:
 * @matrix: a loaded matrix
 * @profiles: (element-type RvGuestProfile): the guest profiles, index =
 *            matrix guest index; the memory_bytes of guests of a section
 *            with count > 1 may be lowered
 * @mem_total: the host's MemTotal in bytes (/proc/meminfo), 0 = unknown
 *             (nothing changes)
 * @ret_note: (out) (optional) (nullable): "NOTE ..." naming the sections
 *            whose guests got less memory and why, or NULL
 * @ret_short: (out) (optional) (element-type utf8): per scenario (same
 *            index) "short of memory: its guests need N MiB, more than
 *            half of this host's M MiB" (or of a count section: "short of
 *            memory: [guest:NAME] count = N (FILE:LINE): ...") where they
 *            do not fit, else NULL: `run` and `run --plan` SKIP such a
 *            scenario with the reason; written only on success
 * @error: (optional): without @ret_short, RV_ERROR_UNSUPPORTED
 *         "FILE:LINE: [scenario:NAME]: short of memory: ..." for the first
 *         scenario that does not fit (even RV_HARNESS_PLAN_MIN_GUEST_MEMORY
 *         for each count guest)
 *
 * The guests of one scenario run together; they may take half of the
 * host's memory (the rest is the host's and QEMU's).  Where the profiles'
 * sizes do not fit, the guests of count sections share what the single
 * guests leave, equally, in whole 16 MiB (or the profile's hugepage size),
 * never more than their profile says and never under the minimum.
 *
 * Returns: 0 or -ENOSPC.
 */
int rv_harness_plan_size_memory(const RvMatrix *matrix, GPtrArray *profiles, guint64 mem_total,
                                char **ret_note, GPtrArray **ret_short,
                                GError **error) G_GNUC_WARN_UNUSED_RESULT;

/**
 * rv_harness_plan_format_guests:
 * @scenario: the scenario
 * @placements: its placements (as rv_harness_plan_place() gives them)
 *
 * The placement lines of `run --plan`, "NAME: LINE" per line of
 * rv_guest_placement_format(); the guests of one count section whose
 * placements read alike are one "semi-01..semi-96 (96 guests): LINE" block.
 * None for a scenario that was not placed (@placements empty).
 *
 * Returns: (transfer full) (element-type utf8): the lines, without '\n'.
 */
GPtrArray *rv_harness_plan_format_guests(const RvMatrixScenario *scenario,
                                         GPtrArray *placements);

/* A fresh seed from the kernel's CSPRNG (g_random), for a matrix without
 * seed = ...; it is recorded in the store so the order can be replayed. */
guint64 rv_harness_plan_draw_seed(void);

/**
 * rv_harness_plan_format:
 * Returns: (transfer full): the plan as text, one run a line:
 * "INDEX ROUND CELL_NAME\n" (for `rtvirt run --plan` and the tests).
 * When some scenario sets bootargs, each boot group's runs follow a line
 * "# boot N: as booted (K runs)" or "# boot N: reboot with ARGS (K runs)".
 */
char *rv_harness_plan_format(const RvPlan *plan);

/* "as booted", or "reboot with ARGS" (the words joined by spaces). */
char *rv_harness_plan_boot_text(const RvPlanBoot *boot);

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
