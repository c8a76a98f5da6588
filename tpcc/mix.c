/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * tpcc/mix.c: the transaction mix of clause 5.2.3 dealt from a shuffled
 * deck (clause 5.2.4.2): 45 New-Order, 43 Payment, 4 Order-Status, 4
 * Delivery, 4 Stock-Level per 100 cards.
 */
#include "tpcc/tpcc.h"

static const struct {
    const char *name, *key;
    int cards;
} txns[RV_TPCC_N_TXN] = {
    [RV_TPCC_NEW_ORDER] = { "New-Order", "new_order", 45 },
    [RV_TPCC_PAYMENT] = { "Payment", "payment", 43 },
    [RV_TPCC_ORDER_STATUS] = { "Order-Status", "order_status", 4 },
    [RV_TPCC_DELIVERY] = { "Delivery", "delivery", 4 },
    [RV_TPCC_STOCK_LEVEL] = { "Stock-Level", "stock_level", 4 },
};

G_STATIC_ASSERT(45 + 43 + 4 + 4 + 4 == RV_TPCC_DECK);

const char *
rv_tpcc_txn_name(RvTpccTxn t)
{
    return t < RV_TPCC_N_TXN ? txns[t].name : "?";
}

const char *
rv_tpcc_txn_key(RvTpccTxn t)
{
    return t < RV_TPCC_N_TXN ? txns[t].key : "?";
}

double
rv_tpcc_mix_target(RvTpccTxn t)
{
    return t < RV_TPCC_N_TXN ? (double)txns[t].cards / RV_TPCC_DECK : 0;
}

void
rv_tpcc_mix_init(RvTpccMix *m)
{
    int k = 0;
    for (int t = 0; t < RV_TPCC_N_TXN; t++)
        for (int i = 0; i < txns[t].cards; i++)
            m->cards[k++] = (RvTpccTxn)t;
    m->next = RV_TPCC_DECK;
}

RvTpccTxn
rv_tpcc_mix_next(RvTpccMix *m, RvTpccRand *r)
{
    if (m->next >= RV_TPCC_DECK) {
        for (int i = RV_TPCC_DECK - 1; i > 0; i--) {
            int j = (int)rv_tpcc_rand_int(r, 0, i);
            RvTpccTxn t = m->cards[i];
            m->cards[i] = m->cards[j];
            m->cards[j] = t;
        }
        m->next = 0;
    }
    return m->cards[m->next++];
}
