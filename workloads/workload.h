/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * workloads/workload.h: what rtvirt runs in guests and on the host, one file
 * per workload behind one ops table (rtla's tool_ops, tools/tracing/rtla:
 * one table per tool says how to start it and how to read what it says).
 *
 * A workload's table says
 *   - where it can run (an RT guest, a neighbour guest, host CPUs);
 *   - which programs the guest image must contain (guest/image.h puts the
 *     embedded image's list together, disk images install the same);
 *   - its argv for a duration and a load level (RvWorkloadParams, filled by
 *     the harness from the matrix: [main] duration, [cyclictest], the
 *     [load:NAME] keys the table declares);
 *   - how its output is parsed: the output is untrusted (it comes out of a
 *     guest), bounded in size by max_output (the in-guest exec cuts it) and
 *     in time (the matrix's timeout); the parser is linear in the input, and
 *     garbage makes it fail with the reason, so that the harness fails that
 *     one repetition and keeps the others;
 *   - the metrics it yields, each with name, unit, whether higher is better
 *     and how repetitions aggregate (results/store.h: harmonic mean for
 *     rates, as mmtests does).
 *
 * Layering: workloads/ sits between guest/ and harness/ (it may use util/,
 * results/, host/, guest/; harness/ uses it).  The parsers use util/ and
 * results/ only.
 *
 * Adding a workload: a file workloads/NAME.c defining
 * `const RvWorkloadOps rv_workload_NAME = { ... };`, its extern below and
 * one line in workloads/workload.c's table.
 */
#pragma once

#include <stdbool.h>
#include <glib.h>

#include "guest/profile.h"
#include "results/store.h"
#include "util/cpulist.h"

/* Where a workload runs (a mask in RvWorkloadOps.where). */
typedef enum {
    RV_WORKLOAD_RT_GUEST = 1u << 0,   /* [guest:NAME] role = rt: measured */
    RV_WORKLOAD_NEIGHBOUR = 1u << 1,  /* [guest:NAME] role = neighbour */
    RV_WORKLOAD_HOST = 1u << 2,       /* [host] workload, on host CPUs */
} RvWorkloadWhere;

/* The numbers a load level ([load:NAME]) can set; 0 = the workload's
 * default. */
typedef enum {
    RV_WORKLOAD_PARAM_THREADS,   /* threads / workers / groups */
    RV_WORKLOAD_PARAM_RATE,      /* events per second cap (sysbench --rate) */
    RV_WORKLOAD_PARAM_SIZE,      /* problem size: matrix order N */
    RV_WORKLOAD_PARAM_INTERVAL,  /* seconds between wake-ups (semi-idle) */
    RV_WORKLOAD_PARAM_COUNT,     /* repetitions inside one run (pipe round trips) */
    RV_WORKLOAD_N_PARAMS
} RvWorkloadParam;

/* One [load:NAME] key a workload reads: "sysbench_threads = 32". */
typedef struct {
    const char *key;             /* [a-z0-9_]+; two tables that share one (sysbench,
                                  * sysbench-threads) mean the same by it */
    RvWorkloadParam param;
    gint64 min, max;             /* accepted range, checked at matrix load */
    const char *doc;             /* one line for rtvirt-profiles(5) */
} RvWorkloadKey;

/* One metric a workload yields (the store's metric attributes). */
typedef struct {
    const char *name;            /* "gflops", "events_per_s", "max_us" */
    const char *unit;            /* "GFLOPS", "events/s", "us" */
    RvStoreBetter better;
    RvStoreAggregate aggregate;
} RvWorkloadMetric;

/* What one run of a workload is asked for. */
typedef struct {
    RvWorkloadWhere where;       /* where this run is */
    guint64 duration_us;         /* the measured time */
    gint64 value[RV_WORKLOAD_N_PARAMS];  /* from the load level; 0 = default */
    const char *load;            /* [load:NAME] name, or NULL (built-in level) */

    /* guest runs */
    const RvGuestProfile *profile;   /* the guest's profile (vCPUs, [cyclictest]) */
    unsigned vcpus;                  /* the guest's vCPUs */

    /* cyclictest: the matrix's [cyclictest] overrides, 0 = the profile's */
    guint64 ct_interval_us;
    unsigned ct_priority;
    unsigned ct_histogram;

    /* host runs */
    RvCpuSet cpus;                   /* host CPUs to measure */
    const char *self;                /* path of this rtvirt binary (pert) */
    const char *output_path;         /* where the program writes its result (pert) */
} RvWorkloadParams;

/* What a parser produced besides the record's metrics. */
typedef struct {
    RvStoreRecord *rec;          /* (transfer none): metrics, histograms, details */
    GPtrArray *findings;         /* char*: verification FAIL details ("thread 0 ran at
                                  * P:1, asked 95"); the harness records them */
    char *summary;               /* one progress line ("max 40 us"), or NULL */
} RvWorkloadResult;

typedef struct RvWorkloadOps {
    const char *name;            /* the matrix's workload = NAME, the record's workload */
    const char *description;
    unsigned where;              /* RvWorkloadWhere mask */
    const char * const *needs;   /* programs the guest image must contain, NULL-terminated */
    const RvWorkloadKey *keys;   /* [load:NAME] keys, terminated by { NULL } (nullable) */
    const RvWorkloadMetric *metrics;  /* terminated by { NULL } (nullable: load only) */
    gsize max_output;            /* bytes accepted per output stream */
    bool result_in_file;         /* the result is output_path's contents, not stdout */
    bool uses_neighbour_workers; /* THREADS := [load:NAME] neighbour_workers; 0 workers:
                                  * not started at that level (the neighbours idle) */
    bool untimed;                /* runs a count of rounds, not for p->duration_us: how
                                  * long it takes is not known in advance, so the agent
                                  * polls for its end from the start (guest/agent.h) */

    /**
     * argv: the command line for @p (NULL-terminated, g_strfreev()).  Runs
     * in the guest through the agent (busybox sh, the image's programs) or
     * on the host through util/runner.h; never through a shell string
     * made of untrusted text.
     */
    char **(*argv)(const RvWorkloadParams *p);

    /**
     * parse: reads the program's output (@out, @len bytes, not
     * NUL-terminated, untrusted; @name names it in errors) into @res.
     * NULL for a load-only workload (no metrics: the harness checks its
     * exit status only).  Returns 0, or -errno with RV_ERROR_INVALID
     * naming @name and what is wrong; on error @res->rec may hold partial
     * metrics that the caller drops.
     */
    int (*parse)(const RvWorkloadParams *p, const char *name, const char *out, gsize len,
                 RvWorkloadResult *res, GError **error);
} RvWorkloadOps;

extern const RvWorkloadOps rv_workload_cyclictest;
extern const RvWorkloadOps rv_workload_pert;
extern const RvWorkloadOps rv_workload_hackbench;
extern const RvWorkloadOps rv_workload_stress;
extern const RvWorkloadOps rv_workload_linpack;
extern const RvWorkloadOps rv_workload_gemm;
extern const RvWorkloadOps rv_workload_sysbench;
extern const RvWorkloadOps rv_workload_sysbench_threads;
extern const RvWorkloadOps rv_workload_pipe;
extern const RvWorkloadOps rv_workload_semi_idle;
extern const RvWorkloadOps rv_workload_tpcc;

/**
 * rv_workload_all:
 * Returns: the workload tables in a fixed order, NULL-terminated (static).
 */
const RvWorkloadOps * const *rv_workload_all(void);

/**
 * rv_workload_find:
 * @name: a workload name ("linpack")
 * Returns: its table, or NULL.
 */
const RvWorkloadOps *rv_workload_find(const char *name);

/**
 * rv_workload_find_key:
 * @key: a [load:NAME] key ("sysbench_threads")
 * @ret_ops: (out) (optional): the workload that declares it
 * Returns: the key's description, or NULL when no workload declares it.
 */
const RvWorkloadKey *rv_workload_find_key(const char *key, const RvWorkloadOps **ret_ops);

/**
 * rv_workload_metric:
 * @ops: a workload
 * @name: one of its metric names
 * Returns: the metric's attributes, or NULL.
 */
const RvWorkloadMetric *rv_workload_metric(const RvWorkloadOps *ops, const char *name);

/**
 * rv_workload_add_metric:
 * @ops: the workload whose table declares @name
 * @rec: the record
 * @name: a metric of @ops (a name it does not declare is a programming
 *        error: g_critical, recorded as lower/mean)
 * @value: the value in the table's unit
 *
 * Adds the metric with the unit, better and aggregate of @ops's table.
 */
void rv_workload_add_metric(const RvWorkloadOps *ops, RvStoreRecord *rec, const char *name,
                            double value);

/**
 * rv_workload_result_clear:
 * Frees what @res owns (findings, summary), not the record.
 */
void rv_workload_result_clear(RvWorkloadResult *res);

/* ---- helpers for the parsers (untrusted text) ---- */

/**
 * rv_workload_output_lines:
 * @name: names the output in errors
 * @out, @len: the output (not NUL-terminated)
 * @ret_lines: (out) (transfer full): its lines, trailing "\r" and spaces
 *             cut, written only on success
 * @error: RV_ERROR_INVALID "NAME: byte N is not text" for a NUL byte or
 *         invalid UTF-8 (random bytes, a binary), "NAME: empty output"
 *
 * Returns: the number of lines, or -EINVAL.
 */
int rv_workload_output_lines(const char *name, const char *out, gsize len, char ***ret_lines,
                             GError **error) G_GNUC_WARN_UNUSED_RESULT;

/**
 * rv_workload_tokens:
 * @line: one line
 * Returns: (transfer full): its words (split at spaces and tabs, none
 * empty), NULL-terminated.
 */
char **rv_workload_tokens(const char *line);

/**
 * rv_workload_decimal_span:
 * @s: text
 *
 * Returns: the length of the decimal number at the start of @s
 * ([+-]digits[.digits][e[+-]digits], at least one digit), 0 when there is
 * none.  The workload parsers accept only such numbers: strtod(3) also
 * takes hex floats ("0x1p4"), "inf" and "nan", which no tool prints.
 */
gsize rv_workload_decimal_span(const char *s);

/**
 * rv_workload_line_number:
 * @tokens: a line's words (rv_workload_tokens())
 * @key: the word the number follows ("gflops" in "... gflops 12.5 ...")
 * @min, @max: the accepted range
 * @ret: (out): the number, written only on success
 *
 * Returns: 0; -ENOENT when @key is not among the tokens or is the last
 * one; -ERANGE when what follows is not a finite number (C locale, the
 * whole token) within @min..@max.
 */
int rv_workload_line_number(char **tokens, const char *key, double min, double max,
                            double *ret) G_GNUC_WARN_UNUSED_RESULT;

/**
 * rv_workload_where_name:
 * Returns: "rt", "neighbour" or "host" for one bit of RvWorkloadWhere.
 */
const char *rv_workload_where_name(RvWorkloadWhere where);
