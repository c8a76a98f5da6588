/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * results/compare-priv.h: the comparison's internals, shared by
 * results/compare.c (build, JSON, CSV) and results/compare-text.c (the
 * terminal table).  Not for other modules.
 */
#pragma once

#include "results/budget.h"
#include "results/compare.h"

typedef struct {
    char *label;              /* unique display name */
    char *name;               /* scenario name inside its store */
    guint store;              /* index into cmp->stores */
    char *status;             /* planned / ran / skipped (from the store) */
    char *reason;
    char *base;               /* the matrix scenario: @name without "@LOAD" */
    char *load;               /* the load level of a "SCENARIO@LOAD" cell, or NULL */
    char *description;        /* the store's description of @base, or NULL */
    guint order;              /* position of @base among the store's declared
                               * scenarios (G_MAXUINT: not declared) */
} Scen;

typedef struct {
    char *workload;
    char *target;             /* "guest:rt0", "host", or "-" */
    GPtrArray *metrics;       /* char*: metric names, display order */
    GHashTable *units;        /* metric -> unit (or "") */
    GHashTable *better;       /* metric -> GINT_TO_POINTER(RvStoreBetter + 1) */
    GHashTable *aggregate;    /* metric -> GINT_TO_POINTER(RvStoreAggregate + 1) */
} Group;

typedef enum {
    RV_VERDICT_PASS,
    RV_VERDICT_FAIL,
    RV_VERDICT_NOT_JUDGED,
} RvVerdictStatus;

/* one budget judged on one (group, scenario), or on nothing (g, s < 0) */
typedef struct {
    const RvBudget *budget;   /* owned by cmp->budgets */
    int group, scen;          /* -1: the budget matched no value */
    RvVerdictStatus status;
    double value;             /* what was judged, NAN when nothing */
    char *what;               /* "worst of 5 repetitions", "p99.99 of the merged histogram" */
    char *reason;             /* why not judged, or NULL */
} Verdict;

typedef struct {
    GHashTable *values;       /* metric -> GArray<double> (one per repetition) */
    guint ok, failed, skipped;
    const char *first_failure; /* reason of the first failed repetition */
    RvHistogram *hist;        /* "latency" of every ok repetition merged */
    guint hist_reps;
    guint hist_missing;       /* ok repetitions without a "latency" histogram */
    gboolean kvm, tcg;
} Cell;

struct RvComparison {
    GPtrArray *stores;        /* RvStore*, borrowed (caller keeps them) */
    GPtrArray *scens;         /* Scen* */
    GPtrArray *groups;        /* Group* */
    Cell *cells;              /* groups->len x scens->len */
    guint baseline;           /* index into scens */
    char *baseline_note;      /* why the default baseline is not the first
                               * scenario, or NULL */
    RvStatsTest test;
    RvCompareBy by;
    GPtrArray *hosts;         /* char*: the host label of each store */
    GPtrArray *context_notes; /* char*: "stores 1 and 2 both come from host
                               * H, but: kernel release A vs B", one per
                               * pair of one host name whose context differs
                               * (rv_result_context_differences()) */
    GPtrArray *budgets;       /* RvBudget*, or NULL: not judged */
    GPtrArray *verdicts;      /* Verdict* */
};

/* one metric of one cell, against the baseline's cell */
typedef struct {
    gboolean has;             /* at least one value */
    RvStatsSummary sum;
    double std_pct, sem_pct;  /* stddev and SEM in % of |mean|; NAN for n < 2 */
    double agg;               /* the repetitions combined by the metric's
                               * aggregate (mean, harmonic mean, max, sum) */
    double change;            /* % of agg vs the baseline's agg, NAN when none */
    gboolean higher_better;   /* the metric's better is "higher" */
    gboolean tested;
    RvStatsTestResult t;
    gboolean too_small;       /* the test cannot reach alpha at these n */
    const char *untested;     /* why no test: "baseline", "n<2", ... */
} Row;

/* the latency percentiles compare reports (of merged histograms) */
#define RV_COMPARE_N_PCTS 4
extern const double rv_result_compare_pcts[RV_COMPARE_N_PCTS];
extern const char *const rv_result_compare_pct_keys[RV_COMPARE_N_PCTS];
extern const char *const rv_result_compare_pct_names[RV_COMPARE_N_PCTS];

/** rv_result_compare_cell: the cell of group @g and scenario @s. */
Cell *rv_result_compare_cell(const RvComparison *c, guint g, guint s);

/* Spike stories shown per scenario, in the text and in --json alike. */
#define RV_COMPARE_STORIES 3

/**
 * rv_result_compare_stories: the RV_COMPARE_STORIES worst spike stories of
 * scenario @s (RvAttrStory*, results/attribution.h), and in @ret_skipped
 * the first {skipped: reason} of its records (borrowed), or NULL.
 */
GPtrArray *rv_result_compare_stories(const RvComparison *c, guint s, const char **ret_skipped);

/* The co-scheduling shares per VM of scenario @s (RvCoschedSummary*,
 * results/cosched.h), in the text and --json alike; @ret_skipped as for
 * rv_result_compare_stories(). */
GPtrArray *rv_result_compare_cosched(const RvComparison *c, guint s, const char **ret_skipped);

/** rv_result_compare_row: @metric of group @g, scenario @s, into @row. */
void rv_result_compare_row(const RvComparison *c, guint g, guint s,
                           const char *metric, Row *row);

/**
 * rv_result_compare_baseline_of:
 * The baseline scenario @s is compared with: for a cell "NAME@LOAD" of a
 * matrix with load levels, the baseline's cell at the same load level
 * ("BASE@LOAD" of the baseline's store) where it exists, else the baseline.
 */
guint rv_result_compare_baseline_of(const RvComparison *c, guint s);

/** rv_result_compare_is_baseline: @s is its own baseline (a "(base)" row). */
gboolean rv_result_compare_is_baseline(const RvComparison *c, guint s);

/**
 * rv_result_compare_row_vs:
 * As rv_result_compare_row() against scenario @ref instead of the baseline
 * (the answer sentences compare two options with each other).
 */
void rv_result_compare_row_vs(const RvComparison *c, guint g, guint s, guint ref,
                              const char *metric, Row *row);

/**
 * rv_result_compare_test:
 * @v, @b: per-repetition values of a scenario and of its reference
 * @ret: (out): the test's result against the reference, when tested
 * @ret_too_small: (out): the test cannot reach alpha at these n
 *
 * The comparison's test (Welch or Mann-Whitney, two-sided), scenario first.
 *
 * Returns: TRUE when tested.
 */
gboolean rv_result_compare_test(const RvComparison *c, const GArray *v, const GArray *b,
                                RvStatsTestResult *ret, gboolean *ret_too_small);

/** rv_result_compare_sig_mark: "***", "**", "*", "~", "?" (n too small) or "". */
const char *rv_result_compare_sig_mark(const Row *row);

/** rv_result_compare_virt: "kvm", "tcg", "kvm+tcg" or "-". */
const char *rv_result_compare_virt(const Cell *ce);

/** rv_result_compare_skipped: the scenario was SKIPPED and has no ok
 *  repetition in group @g. */
gboolean rv_result_compare_skipped(const RvComparison *c, guint g, guint s);

/** rv_result_compare_format_text: the terminal table (compare-text.c). */
char *rv_result_compare_format_text(const RvComparison *c, const RvCompareOptions *opts);

/** rv_result_compare_verdict_name: "PASS", "FAIL", "NOT JUDGED". */
const char *rv_result_compare_verdict_name(RvVerdictStatus st);

/**
 * rv_result_compare_within:
 * @h: a merged histogram
 * @us: a threshold in us
 * @ret_bound: (out): TRUE when overflows beyond the range may lie under
 *             @us (the share is then a lower bound)
 *
 * Returns: the share of samples below @us in % (buckets 0 .. @us-1; the
 * overflows count when the max is known to be below @us), NAN for an
 * empty histogram.
 */
double rv_result_compare_within(const RvHistogram *h, double us, gboolean *ret_bound);

/* a host whose value lies outside the other hosts' spread */
typedef struct {
    guint group, scen;        /* the outlying cell */
    const char *metric;
    double value;             /* its aggregate */
    double lo, hi;            /* the other hosts' repetitions' range */
    guint others;             /* how many other hosts */
} Outlier;

/** rv_result_compare_outliers: Returns: (transfer full): Outlier* (g_free). */
GPtrArray *rv_result_compare_outliers(const RvComparison *c);

/* ---- the summary the output opens with (compare-summary.c) ---- */

typedef enum {
    SUM_RT_P9999,             /* p99.99 of the RT guests' latency histograms */
    SUM_RT_MAX,               /* their max (always right after its p99.99 column) */
    SUM_METRIC,               /* a metric of one group: a throughput, or cpu% */
} SumKind;

typedef struct {
    SumKind kind;
    int group;                /* SUM_METRIC: its group; RT: -1 = every RT guest
                               * merged, else that guest's group */
    const char *metric;       /* SUM_METRIC: borrowed from the group */
    char *title;              /* "RT p99.99", "rt1 max", "sb events_per_s", "host cpu%" */
    char *who;                /* its first word: "RT", "rt1", "sb", "host" */
    char *what;               /* the rest: "p99.99", "max", "events_per_s", "cpu%" */
    char *key;                /* the title with '_' for ' ': JSON */
    char *unit;               /* "us", the metric's unit, "%" */
    gboolean higher_better;
    gboolean change_pct;      /* the change in % of the reference (throughput),
                               * else in the unit (latency us, cpu% points) */
} SumCol;

/* one RT column's repetitions of one scenario */
typedef struct {
    GArray *p9999;            /* double per repetition: p99.99 of its merged histogram */
    GArray *max;              /* double per repetition: its max */
    RvHistogram *merged;      /* every repetition merged, or NULL */
} SumSeries;

typedef struct {
    gboolean has;             /* a value */
    double value;             /* latency: of the merged histogram; metric: the aggregate */
    gboolean beyond;          /* the percentile lies beyond the histogram range */
    guint n;                  /* repetitions */
    gboolean is_ref;          /* the reference row itself */
    double change;            /* against the reference (SumCol.change_pct), NAN: none */
    int direction;            /* +1 better, -1 worse, 0 the same or unknown */
    gboolean tested, too_small, significant;
    double p;                 /* NAN when not tested */
} SumCell;

typedef struct RvCompareSummary RvCompareSummary;

/**
 * rv_result_compare_summary_new:
 * @per_guest: one p99.99 and max column per RT guest instead of one for
 *             all RT guests merged
 *
 * The columns: RT p99.99 and max (the "latency" histograms of the guest
 * targets, merged per repetition), every metric whose better is "higher"
 * per target, and the host cpu% (RV_STORE_METRIC_CPU_PCT of the first
 * group that has it).
 */
RvCompareSummary *rv_result_compare_summary_new(const RvComparison *c, gboolean per_guest);
void rv_result_compare_summary_free(RvCompareSummary *sum);
G_DEFINE_AUTOPTR_CLEANUP_FUNC(RvCompareSummary, rv_result_compare_summary_free)

/** rv_result_compare_summary_cols: (element-type SumCol) (transfer none) */
GPtrArray *rv_result_compare_summary_cols(const RvCompareSummary *sum);

/** rv_result_compare_summary_cell: column @k of scenario @s against @ref. */
void rv_result_compare_summary_cell(const RvComparison *c, const RvCompareSummary *sum,
                                    guint k, guint s, guint ref, SumCell *cell);

/** "better", "worse", "same", or "" (no change: the reference, no value). */
const char *rv_result_compare_summary_word(const SumCell *cell);
/** "***", "**", "*", "~" (within the noise), "?" (n too small) or "". */
const char *rv_result_compare_summary_mark(const SumCell *cell);
/** "p=0.01", "p<0.001", "p=0.41, within the noise", "too few repetitions for a test". */
char *rv_result_compare_summary_p(const SumCell *cell);

/**
 * rv_result_compare_note_no_smt:
 * Adds to c->context_notes, per store whose host had no SMT sibling online
 * (run.json host.smt_active false) and that ran scenarios with
 * host_sibling = shared and = idle: "store N's host has no SMT sibling
 * online: host_sibling = shared (baseline) and idle (siblings-idle) gave
 * their guests the same CPUs, so these scenarios differ only in name
 * there: a difference between them is noise" (what `run --plan` says
 * before such a run).  Needs the scenarios' descriptions.
 */
void rv_result_compare_note_no_smt(RvComparison *c);

/**
 * rv_result_compare_answers:
 * One sentence per option: every scenario against the baseline at its
 * load level, then every core-scheduling scenario (its description says
 * coresched=vm|vcpu|libvirt) against each smt=off scenario of its store
 * and load level: "coresched vs nosmt: RT p99.99 4 us better (p=0.01),
 * gm gflops 22 % better (p<0.001)"; last every SKIPPED scenario, which
 * has no answer: "nosmt: not measured (SKIPPED; the reason below)"
 * (the output says the reason once, with the scenarios).
 *
 * Returns: (transfer full) (element-type utf8): the sentences.
 */
GPtrArray *rv_result_compare_answers(const RvComparison *c, const RvCompareSummary *sum);

/** rv_result_compare_summary_json: the "summary" member {columns, rows, answers}. */
void rv_result_compare_summary_json(JsonBuilder *b, const RvComparison *c,
                                    const RvCompareSummary *sum);

/** rv_result_compare_json_num: @key: a number, or null when not finite. */
void rv_result_compare_json_num(JsonBuilder *b, const char *key, double v);
