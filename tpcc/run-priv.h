/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * tpcc/run-priv.h: the state of one `rtvirt-tpcc run`, shared by the
 * users (tpcc/run.c) and the report (tpcc/report.c).
 */
#pragma once

#include "tpcc/driver.h"
#include "tpcc/txn.h"

enum { RV_TPCC_PHASE_WARMUP, RV_TPCC_PHASE_MEASURE, RV_TPCC_PHASE_STOP };

typedef struct {
    int t;                      /* seconds since the start, warm-up included */
    bool warmup;
    uint64_t txns, new_orders, errors;
} RvTpccSecond;

typedef struct RvTpccRun RvTpccRun;

typedef struct {
    RvTpccRun *run;
    int index;
    GThread *thread;
    RvTpccUser user;
    /* this second's counts, taken (and zeroed) by the clock */
    gint txns_now, new_orders_now, errors_now;
    /* the measured interval, under @lock */
    GMutex lock;
    uint64_t count[RV_TPCC_N_TXN];      /* completed, rolled-back New-Orders included */
    uint64_t rollbacks, deadlocks;
    RvTpccHist hist[RV_TPCC_N_TXN];
} RvTpccWorker;

struct RvTpccRun {
    const RvTpccOpts *o;
    char *server;
    const char *tag;            /* "" or the non-standard mark */
    RvTpccMeta meta;
    RvTpccNurandC c;            /* the run's NURand constants */
    int warehouses;
    RvTpccWorker *workers;
    gint phase;
    gint64 users_start_us, measure_start_us, measure_end_us;
    GArray *seconds;            /* of RvTpccSecond */
    GMutex lock;
    char *error;                /* why the run stopped early, under @lock */
    gint64 error_at_us;
};

/** rv_tpcc_report_text: the summary of @run on @out (NOPM, TPM, tps, per type, latencies). */
void rv_tpcc_report_text(RvTpccRun *run, FILE *out);
/**
 * rv_tpcc_report_json: the JSON document of @run (json-glib) written to
 * @path, "-" for stdout.  -1 (with a message on stderr) when it cannot be
 * written.
 */
int rv_tpcc_report_json(RvTpccRun *run, const char *path);
