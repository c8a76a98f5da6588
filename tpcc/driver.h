/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * tpcc/driver.h: the two commands of rtvirt-tpcc (load, run) and what they
 * share: the metadata row the load leaves (tpcc_meta) and the options.
 */
#pragma once

#include "tpcc/db.h"
#include "tpcc/tpcc.h"

#define RV_TPCC_SCHEMA_VERSION 1        /* of the tables and of tpcc_meta */
#define RV_TPCC_JSON_SCHEMA_VERSION 1   /* of the --json document */

/**
 * RvTpccMeta: the row of tpcc_meta: which scale and how many warehouses
 * were loaded, with which NURand constants, and whether the load finished.
 */
typedef struct {
    int schema_version;
    char scale[16];
    int warehouses;
    RvTpccNurandC c;
    bool complete;
} RvTpccMeta;

typedef struct {
    RvTpccConnOpts conn;
    const RvTpccScale *scale;
    int warehouses;
    int threads;                /* load: loader threads */
    int users;                  /* run: virtual users */
    double duration_s, warmup_s;
    char *json;                 /* run: --json FILE, "-" for stdout */
    uint64_t seed;
    bool seed_set;
} RvTpccOpts;

/**
 * rv_tpcc_meta_read: the tpcc_meta row of the database @m is connected to.
 * Errors name @server: no such table (no TPC-C schema there), no row or an
 * unfinished load.
 */
int rv_tpcc_meta_read(MYSQL *m, const char *server, RvTpccMeta *ret_meta, GError **error) G_GNUC_WARN_UNUSED_RESULT;
/** rv_tpcc_load: `rtvirt-tpcc load`; prints its report; returns the exit code. */
int rv_tpcc_load(const RvTpccOpts *o);
/** rv_tpcc_run: `rtvirt-tpcc run`; prints and writes its report; returns the exit code. */
int rv_tpcc_run(const RvTpccOpts *o);
