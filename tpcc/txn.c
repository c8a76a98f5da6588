/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * tpcc/txn.c: the five transactions of TPC-C clause 2 as SQL on InnoDB:
 * New-Order (2.4), Payment (2.5), Order-Status (2.6), Delivery (2.7, run
 * at once rather than deferred: one database transaction for the ten
 * districts) and Stock-Level (2.8).  The statements of a transaction go in
 * as few round trips as their data dependencies allow: Payment,
 * Order-Status, Delivery and Stock-Level as one compound statement each,
 * New-Order as two; the commit in the last one.  Every string put into SQL is a generated
 * a-string or last name: letters and digits only.
 */
#include <stdio.h>
#include <stdlib.h>

#include "tpcc/txn.h"

static int
other_warehouse(RvTpccUser *u)
{
    int w = (int)rv_tpcc_rand_int(&u->r, 1, u->warehouses - 1);
    return w >= u->w_id ? w + 1 : w;
}

static void
customer_input(RvTpccUser *u, RvTpccInput *in)
{
    in->by_name = rv_tpcc_rand_int(&u->r, 1, 100) <= 60;
    if (in->by_name)
        rv_tpcc_last_name((int)rv_tpcc_nurand(&u->r, 255, u->c.c_last, 0, u->scale->last_names - 1), in->c_last);
    else
        in->c_id = (int)rv_tpcc_nurand(&u->r, 1023, u->c.c_id, 1, u->scale->customers);
}

static void
new_order_input(RvTpccUser *u, RvTpccInput *in)
{
    in->c_id = (int)rv_tpcc_nurand(&u->r, 1023, u->c.c_id, 1, u->scale->customers);
    in->ol_cnt = (int)rv_tpcc_rand_int(&u->r, 5, 15);
    bool rollback = rv_tpcc_rand_int(&u->r, 1, 100) == 1;
    in->all_local = true;
    for (int i = 0; i < in->ol_cnt; i++) {
        in->i_id[i] = (int)rv_tpcc_nurand(&u->r, 8191, u->c.ol_i_id, 1, u->scale->items);
        if (rollback && i == in->ol_cnt - 1)
            in->i_id[i] = u->scale->items + 1;  /* an unused item: the 1 % rollback */
        in->supply_w_id[i] = u->w_id;
        if (u->warehouses > 1 && rv_tpcc_rand_int(&u->r, 1, 100) == 1) {
            in->supply_w_id[i] = other_warehouse(u);
            in->all_local = false;
        }
        in->quantity[i] = (int)rv_tpcc_rand_int(&u->r, 1, 10);
    }
    /* items in I_ID order: stock rows are locked in one order by every
       user, fewer deadlocks; the unused item stays last */
    for (int i = 1; i < in->ol_cnt; i++)
        for (int k = i; k > 0 && in->i_id[k - 1] > in->i_id[k]; k--) {
            int t = in->i_id[k]; in->i_id[k] = in->i_id[k - 1]; in->i_id[k - 1] = t;
            t = in->supply_w_id[k]; in->supply_w_id[k] = in->supply_w_id[k - 1]; in->supply_w_id[k - 1] = t;
            t = in->quantity[k]; in->quantity[k] = in->quantity[k - 1]; in->quantity[k - 1] = t;
        }
}

void
rv_tpcc_txn_input(RvTpccUser *u, RvTpccTxn type, RvTpccInput *ret_in)
{
    RvTpccInput *in = ret_in;
    memset(in, 0, sizeof(*in));
    in->type = type;
    in->d_id = (int)rv_tpcc_rand_int(&u->r, 1, RV_TPCC_DISTRICTS);
    switch (type) {
    case RV_TPCC_NEW_ORDER:
        new_order_input(u, in);
        break;
    case RV_TPCC_PAYMENT:
        in->c_d_id = in->d_id;
        in->c_w_id = u->w_id;
        if (u->warehouses > 1 && rv_tpcc_rand_int(&u->r, 1, 100) > 85) {
            in->c_d_id = (int)rv_tpcc_rand_int(&u->r, 1, RV_TPCC_DISTRICTS);
            in->c_w_id = other_warehouse(u);
        }
        customer_input(u, in);
        in->amount = rv_tpcc_rand_int(&u->r, 100, 500000) / 100.0;
        break;
    case RV_TPCC_ORDER_STATUS:
        customer_input(u, in);
        break;
    case RV_TPCC_DELIVERY:
        in->carrier_id = (int)rv_tpcc_rand_int(&u->r, 1, 10);
        break;
    case RV_TPCC_STOCK_LEVEL:
        in->d_id = u->stock_d_id;
        in->threshold = (int)rv_tpcc_rand_int(&u->r, 10, 20);
        break;
    default:
        break;
    }
}


typedef GPtrArray Batch;
G_DEFINE_AUTOPTR_CLEANUP_FUNC(Batch, g_ptr_array_unref)

#define MULTI(...) rv_tpcc_multi(u->m, error, __VA_ARGS__)
#define RES(b, i) ((MYSQL_RES *)g_ptr_array_index((b), (i)))

/* the distinct supply warehouses of @in into @ret_w; their count */
static int
supply_warehouses(const RvTpccInput *in, int *ret_w)
{
    int n = 0;
    for (int i = 0; i < in->ol_cnt; i++) {
        int k = 0;
        while (k < n && ret_w[k] != in->supply_w_id[i])
            k++;
        if (k == n)
            ret_w[n++] = in->supply_w_id[i];
    }
    return n;
}

/* the items of @in supplied by @w, as an SQL list; whether one is there twice */
static bool
items_of(const RvTpccInput *in, int w, GString *ret_list)
{
    bool twice = false;
    g_string_truncate(ret_list, 0);
    for (int i = 0; i < in->ol_cnt; i++)
        if (in->supply_w_id[i] == w) {
            for (int k = 0; k < i; k++)
                twice |= in->supply_w_id[k] == w && in->i_id[k] == in->i_id[i];
            g_string_append_printf(ret_list, "%s%d", ret_list->len ? "," : "", in->i_id[i]);
        }
    return twice;
}

/* the row of item @i_id in @res (first column the id), NULL if absent */
static MYSQL_ROW
find_row(MYSQL_RES *res, int i_id)
{
    MYSQL_ROW row;
    mysql_data_seek(res, 0);
    while ((row = mysql_fetch_row(res)))
        if (atoi(row[0]) == i_id)
            return row;
    return NULL;
}

/*
 * S_QUANTITY, S_YTD, S_ORDER_CNT, S_REMOTE_CNT of clause 2.4.2.2 in SQL: one
 * UPDATE per supply warehouse, or one per line where an item is there twice
 * (the second line sees the first's update).
 */
static void
stock_updates(RvTpccUser *u, const RvTpccInput *in, const int *ws, int nw, GString *sql)
{
    g_autoptr(GString) list = g_string_new(NULL);
    for (int k = 0; k < nw; k++) {
        int remote = ws[k] != u->w_id;
        if (items_of(in, ws[k], list)) {
            for (int i = 0; i < in->ol_cnt; i++)
                if (in->supply_w_id[i] == ws[k])
                    g_string_append_printf(sql, "UPDATE stock SET s_quantity=IF(s_quantity>=%d, s_quantity-%d,"
                                           " s_quantity-%d+91), s_ytd=s_ytd+%d, s_order_cnt=s_order_cnt+1,"
                                           " s_remote_cnt=s_remote_cnt+%d WHERE s_w_id=%d AND s_i_id=%d;",
                                           in->quantity[i] + 10, in->quantity[i], in->quantity[i], in->quantity[i],
                                           remote, ws[k], in->i_id[i]);
            continue;
        }
        g_autoptr(GString) q = g_string_new("s_quantity=CASE s_i_id");
        g_autoptr(GString) ytd = g_string_new("s_ytd=s_ytd+CASE s_i_id");
        for (int i = 0; i < in->ol_cnt; i++)
            if (in->supply_w_id[i] == ws[k]) {
                int n = in->quantity[i];
                g_string_append_printf(q, " WHEN %d THEN IF(s_quantity>=%d, s_quantity-%d, s_quantity-%d+91)",
                                       in->i_id[i], n + 10, n, n);
                g_string_append_printf(ytd, " WHEN %d THEN %d", in->i_id[i], n);
            }
        g_string_append_printf(sql, "UPDATE stock SET %s END, %s END, s_order_cnt=s_order_cnt+1,"
                               " s_remote_cnt=s_remote_cnt+%d WHERE s_w_id=%d AND s_i_id IN (%s);",
                               q->str, ytd->str, remote, ws[k], list->str);
    }
}

/*
 * Two compound statements: the reads (warehouse, district locked, customer;
 * items; stock locked per supply warehouse), then the writes and the commit.
 */
static int
new_order(RvTpccUser *u, const RvTpccInput *in, GError **error)
{
    g_autoptr(GString) sql = g_string_new(NULL);
    g_autoptr(GString) list = g_string_new(NULL);
    g_autoptr(GString) lines = g_string_new("INSERT INTO order_line VALUES ");
    int ws[RV_TPCC_OL_MAX], nw = supply_warehouses(in, ws);
    MYSQL_ROW row;

    for (int i = 0; i < in->ol_cnt; i++)
        g_string_append_printf(list, "%s%d", i ? "," : "", in->i_id[i]);
    g_string_printf(sql, "BEGIN NOT ATOMIC DECLARE wt, dt, cd DECIMAL(4,4); DECLARE oid INT;"
                    " DECLARE cl VARCHAR(16); DECLARE cc CHAR(2);"
                    "SELECT w_tax INTO wt FROM warehouse WHERE w_id=%d;"
                    "SELECT d_tax, d_next_o_id INTO dt, oid FROM district WHERE d_w_id=%d AND d_id=%d FOR UPDATE;"
                    "SELECT c_discount, c_last, c_credit INTO cd, cl, cc FROM customer WHERE c_w_id=%d AND c_d_id=%d"
                    " AND c_id=%d;"
                    "SELECT wt, dt, oid, cd, cl, cc;"
                    "SELECT i_id, i_price, i_data, i_name FROM item WHERE i_id IN (%s);",
                    u->w_id, u->w_id, in->d_id, u->w_id, in->d_id, in->c_id, list->str);
    for (int k = 0; k < nw; k++) {
        items_of(in, ws[k], list);
        g_string_append_printf(sql, "SELECT s_i_id, s_quantity, s_data, s_dist_%02d FROM stock WHERE s_w_id=%d"
                               " AND s_i_id IN (%s) FOR UPDATE;", in->d_id, ws[k], list->str);
    }
    g_string_append(sql, "END");
    g_autoptr(Batch) b1 = MULTI("%s", sql->str);
    if (!b1 || !(row = rv_tpcc_multi_row(b1, 0, "New-Order", error)))
        return -1;
    if (!row[0] || !row[2] || !row[3]) {
        g_set_error(error, RV_TPCC_DB_ERROR, RV_TPCC_DB_NOROW, "no warehouse %d, district %d or customer %d: the"
                    " database is not a complete TPC-C load", u->w_id, in->d_id, in->c_id);
        return -1;
    }
    int o_id = atoi(row[2]);
    for (int i = 0; i < in->ol_cnt; i++) {
        MYSQL_ROW item = find_row(RES(b1, 1), in->i_id[i]);
        if (!item)
            return 1;           /* "not-found": roll back (clause 2.4.2.3) */
        int k = 0;
        while (ws[k] != in->supply_w_id[i])
            k++;
        MYSQL_ROW stock = (guint)(2 + k) < b1->len ? find_row(RES(b1, 2 + k), in->i_id[i]) : NULL;
        if (!stock) {
            g_set_error(error, RV_TPCC_DB_ERROR, RV_TPCC_DB_NOROW, "no stock row for item %d in warehouse %d: the"
                        " database is not a complete TPC-C load", in->i_id[i], in->supply_w_id[i]);
            return -1;
        }
        /* brand-generic ('B' if I_DATA and S_DATA hold ORIGINAL) and the total are the terminal's to display */
        g_string_append_printf(lines, "%s(%d,%d,%d,%d,%d,%d,NULL,%d,%.2f,'%s')", i ? "," : "", o_id, in->d_id,
                               u->w_id, i + 1, in->i_id[i], in->supply_w_id[i], in->quantity[i],
                               in->quantity[i] * g_ascii_strtod(item[1], NULL), stock[3]);
    }
    g_string_printf(sql, "BEGIN NOT ATOMIC UPDATE district SET d_next_o_id=%d WHERE d_w_id=%d AND d_id=%d;"
                    "INSERT INTO orders VALUES (%d,%d,%d,%d,NOW(),NULL,%d,%d);"
                    "INSERT INTO new_order VALUES (%d,%d,%d);", o_id + 1, u->w_id, in->d_id,
                    o_id, in->d_id, u->w_id, in->c_id, in->ol_cnt, in->all_local, o_id, in->d_id, u->w_id);
    stock_updates(u, in, ws, nw, sql);
    g_string_append_printf(sql, "%s;COMMIT; END", lines->str);
    g_autoptr(Batch) b2 = MULTI("%s", sql->str);
    return b2 ? 0 : -1;
}

/*
 * Payment, Order-Status and Delivery are compound statements (MariaDB's
 * BEGIN NOT ATOMIC ... END): one round trip and one result each, the
 * server flushing once instead of once per statement.
 */

/*
 * The by-name customer selection of clause 2.5.2.2 in such a block: the row
 * at position ceil(n/2) of the customers named @last sorted by C_FIRST into
 * the block's variable cid (NULL when there is none).
 */
static void
by_name_sql(GString *sql, int w_id, int d_id, const char *last)
{
    g_string_append_printf(sql, "SELECT COUNT(*) INTO n FROM customer WHERE c_w_id=%d AND c_d_id=%d AND c_last='%s';"
                           "SET cid=NULL; IF n > 0 THEN SET m=(n-1) DIV 2;"
                           " SELECT c_id INTO cid FROM customer WHERE c_w_id=%d AND c_d_id=%d AND c_last='%s'"
                           " ORDER BY c_first LIMIT m,1; END IF;", w_id, d_id, last, w_id, d_id, last);
}

#define CUSTOMER_VARS "DECLARE cid INT DEFAULT %d; DECLARE n, m INT DEFAULT 0;"

static int
no_customer(const RvTpccInput *in, int w_id, int d_id, GError **error)
{
    if (in->by_name)
        g_set_error(error, RV_TPCC_DB_ERROR, RV_TPCC_DB_NOROW, "no customer named %s in warehouse %d district %d:"
                    " the database is not a complete TPC-C load", in->c_last, w_id, d_id);
    else
        g_set_error(error, RV_TPCC_DB_ERROR, RV_TPCC_DB_NOROW, "no customer %d in warehouse %d district %d:"
                    " the database is not a complete TPC-C load", in->c_id, w_id, d_id);
    return -1;
}

static int
payment(RvTpccUser *u, const RvTpccInput *in, GError **error)
{
    g_autoptr(GString) sql = g_string_new(NULL);
    MYSQL_ROW row;

    g_string_printf(sql, "BEGIN NOT ATOMIC " CUSTOMER_VARS
                    " DECLARE wn, dn, cf, cm, cl, ccr VARCHAR(16); DECLARE ws1, ws2, wc, ds1, ds2, dc, cs1, cs2, cc"
                    " VARCHAR(20); DECLARE wst, wz, dst, dz, cst, cz, cp VARCHAR(16);"
                    " DECLARE clim, cdisc, cbal DECIMAL(12,4); DECLARE csince DATETIME;"
                    "UPDATE warehouse SET w_ytd=w_ytd+%.2f WHERE w_id=%d;"
                    "SELECT w_name, w_street_1, w_street_2, w_city, w_state, w_zip INTO wn, ws1, ws2, wc, wst, wz"
                    " FROM warehouse WHERE w_id=%d;"
                    "UPDATE district SET d_ytd=d_ytd+%.2f WHERE d_w_id=%d AND d_id=%d;"
                    "SELECT d_name, d_street_1, d_street_2, d_city, d_state, d_zip INTO dn, ds1, ds2, dc, dst, dz"
                    " FROM district WHERE d_w_id=%d AND d_id=%d;", in->c_id, in->amount, u->w_id, u->w_id, in->amount,
                    u->w_id, in->d_id, u->w_id, in->d_id);
    if (in->by_name)
        by_name_sql(sql, in->c_w_id, in->c_d_id, in->c_last);
    g_string_append_printf(sql, "SET cf=NULL; SELECT c_first, c_middle, c_last, c_street_1, c_street_2, c_city, c_state,"
                           " c_zip, c_phone, c_credit, c_credit_lim, c_discount, c_balance, c_since"
                           " INTO cf, cm, cl, cs1, cs2, cc, cst, cz, cp, ccr, clim, cdisc, cbal, csince FROM customer"
                           " WHERE c_w_id=%d AND c_d_id=%d AND c_id=cid FOR UPDATE;", in->c_w_id, in->c_d_id);
    /* C_DATA of a bad-credit customer: the payment prepended, 500 characters kept (clause 2.5.2.2) */
    g_string_append_printf(sql, "IF cf IS NOT NULL AND wn IS NOT NULL AND dn IS NOT NULL THEN"
                           " UPDATE customer SET c_balance=c_balance-%.2f, c_ytd_payment=c_ytd_payment+%.2f,"
                           " c_payment_cnt=c_payment_cnt+1, c_data=IF(c_credit='BC',"
                           " SUBSTRING(CONCAT(cid, ' %d %d %d %d %.2f|', c_data), 1, 500), c_data)"
                           " WHERE c_w_id=%d AND c_d_id=%d AND c_id=cid;"
                           "INSERT INTO history VALUES (cid,%d,%d,%d,%d,NOW(),%.2f, CONCAT(wn, '    ', dn));"
                           "COMMIT; END IF; SELECT cid, cf IS NOT NULL, wn IS NOT NULL AND dn IS NOT NULL; END",
                           in->amount, in->amount, in->c_d_id, in->c_w_id, in->d_id, u->w_id, in->amount, in->c_w_id,
                           in->c_d_id, in->c_d_id, in->c_w_id, in->d_id, u->w_id, in->amount);
    g_autoptr(Batch) b = MULTI("%s", sql->str);
    if (!b || !(row = rv_tpcc_multi_row(b, 0, "Payment", error)))
        return -1;
    if (!row[2] || atoi(row[2]) == 0) {
        g_set_error(error, RV_TPCC_DB_ERROR, RV_TPCC_DB_NOROW, "no warehouse %d or district %d: the database is not"
                    " a complete TPC-C load", u->w_id, in->d_id);
        return -1;
    }
    return row[0] && atoi(row[1]) ? 0 : no_customer(in, in->c_w_id, in->c_d_id, error);
}

static int
order_status(RvTpccUser *u, const RvTpccInput *in, GError **error)
{
    g_autoptr(GString) sql = g_string_new(NULL);
    MYSQL_ROW row;

    g_string_printf(sql, "BEGIN NOT ATOMIC " CUSTOMER_VARS " DECLARE cbal DECIMAL(12,2); DECLARE cf, cm, cl"
                    " VARCHAR(16); DECLARE oid, car INT; DECLARE oent DATETIME;", in->c_id);
    if (in->by_name)
        by_name_sql(sql, u->w_id, in->d_id, in->c_last);
    g_string_append_printf(sql, "SELECT c_balance, c_first, c_middle, c_last INTO cbal, cf, cm, cl FROM customer"
                           " WHERE c_w_id=%d AND c_d_id=%d AND c_id=cid;"
                           "SELECT o_id, o_entry_d, o_carrier_id INTO oid, oent, car FROM orders WHERE o_w_id=%d"
                           " AND o_d_id=%d AND o_c_id=cid ORDER BY o_id DESC LIMIT 1;"
                           "SELECT cid, cf IS NOT NULL, oid, cbal, cf, cm, cl, oent, car;"
                           "SELECT ol_i_id, ol_supply_w_id, ol_quantity, ol_amount, ol_delivery_d FROM order_line"
                           " WHERE ol_w_id=%d AND ol_d_id=%d AND ol_o_id=oid; COMMIT; END",
                           u->w_id, in->d_id, u->w_id, in->d_id, u->w_id, in->d_id);
    g_autoptr(Batch) b = MULTI("%s", sql->str);
    if (!b || !(row = rv_tpcc_multi_row(b, 0, "Order-Status", error)))
        return -1;
    if (!row[0] || atoi(row[1]) == 0)
        return no_customer(in, u->w_id, in->d_id, error);
    if (!row[2]) {
        g_set_error(error, RV_TPCC_DB_ERROR, RV_TPCC_DB_NOROW, "customer %s of warehouse %d district %d has no"
                    " order: the database is not a complete TPC-C load", row[0], u->w_id, in->d_id);
        return -1;
    }
    return 0;
}

static int
delivery(RvTpccUser *u, const RvTpccInput *in, GError **error)
{
    MYSQL_ROW row;
    int w = u->w_id;
    g_autoptr(Batch) b = MULTI(
        "BEGIN NOT ATOMIC DECLARE d INT DEFAULT 1; DECLARE o, c INT; DECLARE skipped INT DEFAULT 0;"
        " DECLARE amount DECIMAL(12,2);"
        "WHILE d <= %d DO"
        " SET o=NULL;"
        " SELECT no_o_id INTO o FROM new_order WHERE no_w_id=%d AND no_d_id=d ORDER BY no_o_id LIMIT 1 FOR UPDATE;"
        " IF o IS NULL THEN SET skipped=skipped+1;"
        " ELSE"
        "  DELETE FROM new_order WHERE no_w_id=%d AND no_d_id=d AND no_o_id=o;"
        "  SELECT o_c_id INTO c FROM orders WHERE o_w_id=%d AND o_d_id=d AND o_id=o;"
        "  UPDATE orders SET o_carrier_id=%d WHERE o_w_id=%d AND o_d_id=d AND o_id=o;"
        "  UPDATE order_line SET ol_delivery_d=NOW() WHERE ol_w_id=%d AND ol_d_id=d AND ol_o_id=o;"
        "  SELECT COALESCE(SUM(ol_amount), 0) INTO amount FROM order_line WHERE ol_w_id=%d AND ol_d_id=d AND ol_o_id=o;"
        "  UPDATE customer SET c_balance=c_balance+amount, c_delivery_cnt=c_delivery_cnt+1"
        "   WHERE c_w_id=%d AND c_d_id=d AND c_id=c;"
        " END IF;"
        " SET d=d+1;"
        "END WHILE; COMMIT; SELECT skipped; END",
        RV_TPCC_DISTRICTS, w, w, w, in->carrier_id, w, w, w, w);
    if (!b || !(row = rv_tpcc_multi_row(b, 0, "Delivery", error)))
        return -1;
    /* districts without an undelivered order (clause 2.7.4.2) */
    u->delivery_skipped += (uint64_t)atoi(row[0]);
    return 0;
}

static int
stock_level(RvTpccUser *u, const RvTpccInput *in, GError **error)
{
    g_autoptr(Batch) b = MULTI("BEGIN NOT ATOMIC SELECT COUNT(DISTINCT s_i_id) FROM district, order_line, stock"
                               " WHERE d_w_id=%d AND d_id=%d AND ol_w_id=d_w_id AND ol_d_id=d_id"
                               " AND ol_o_id<d_next_o_id AND ol_o_id>=d_next_o_id-20"
                               " AND s_w_id=%d AND s_i_id=ol_i_id AND s_quantity<%d; COMMIT; END",
                               u->w_id, in->d_id, u->w_id, in->threshold);
    return b && rv_tpcc_multi_row(b, 0, "stock count", error) ? 0 : -1;
}

int
rv_tpcc_txn_execute(RvTpccUser *u, const RvTpccInput *in, GError **error)
{
    int rc = -1;
    switch (in->type) {
    case RV_TPCC_NEW_ORDER: rc = new_order(u, in, error); break;
    case RV_TPCC_PAYMENT: rc = payment(u, in, error); break;
    case RV_TPCC_ORDER_STATUS: rc = order_status(u, in, error); break;
    case RV_TPCC_DELIVERY: rc = delivery(u, in, error); break;
    case RV_TPCC_STOCK_LEVEL: rc = stock_level(u, in, error); break;
    default: g_assert_not_reached();
    }
    if (rc == 1)
        return rv_tpcc_exec(u->m, error, "ROLLBACK") == 0 ? 1 : -1;
    return rc;
}
