/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * tpcc/txn.h: the five TPC-C transactions of clause 2 for one virtual
 * user.  The inputs are drawn once per business transaction
 * (rv_tpcc_txn_input) so that a retry after a deadlock repeats the same
 * transaction.
 */
#pragma once

#include "tpcc/db.h"

#define RV_TPCC_OL_MAX 15

typedef struct {
    MYSQL *m;
    RvTpccRand r;
    int w_id;                   /* the home warehouse */
    int stock_d_id;             /* Stock-Level's fixed district (clause 2.8.1.1) */
    int warehouses;
    const RvTpccScale *scale;
    RvTpccNurandC c;            /* the run's constants */
    uint64_t delivery_skipped;  /* districts with no new order (clause 2.7.4.2) */
} RvTpccUser;

typedef struct {
    RvTpccTxn type;
    int d_id, c_id, c_d_id, c_w_id;
    bool by_name;
    char c_last[RV_TPCC_LAST_MAX];
    double amount;              /* Payment: H_AMOUNT */
    int carrier_id;             /* Delivery */
    int threshold;              /* Stock-Level */
    int ol_cnt;                 /* New-Order */
    bool all_local;
    int i_id[RV_TPCC_OL_MAX], supply_w_id[RV_TPCC_OL_MAX], quantity[RV_TPCC_OL_MAX];
} RvTpccInput;

/** rv_tpcc_txn_input: draw the inputs of a @type transaction for @u (clauses 2.4.1-2.8.1). */
void rv_tpcc_txn_input(RvTpccUser *u, RvTpccTxn type, RvTpccInput *ret_in);
/**
 * rv_tpcc_txn_execute: run @in as one database transaction and commit it.
 * Returns 0 committed, 1 rolled back as the input asked (New-Order's unused
 * item, clause 2.4.2.3), -1 with @error (the transaction is rolled back by
 * the caller).
 */
int rv_tpcc_txn_execute(RvTpccUser *u, const RvTpccInput *in, GError **error) G_GNUC_WARN_UNUSED_RESULT;
