/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * tpcc/txn.c: the five transactions of TPC-C clause 2 as SQL on InnoDB:
 * New-Order (2.4), Payment (2.5), Order-Status (2.6), Delivery (2.7, run
 * at once rather than deferred: one database transaction for the ten
 * districts) and Stock-Level (2.8).  Every string put into SQL is a
 * generated a-string or last name: letters and digits only.
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

#define ROW(what, ...) (row = rv_tpcc_query_row(u->m, &res, what, error, __VA_ARGS__))
#define EXEC(...) (rv_tpcc_exec(u->m, error, __VA_ARGS__) == 0)

static int
new_order_line(RvTpccUser *u, const RvTpccInput *in, int i, int o_id, GString *lines, double *total, GError **error)
{
    g_autoptr(MYSQL_RES) res = NULL;
    MYSQL_ROW row;

    res = rv_tpcc_query(u->m, error, "SELECT i_price, i_name, i_data FROM item WHERE i_id=%d", in->i_id[i]);
    if (!res)
        return -1;
    row = mysql_fetch_row(res);
    if (!row)
        return 1;               /* "not-found": roll back (clause 2.4.2.3) */
    double price = g_ascii_strtod(row[0], NULL);
    bool original = strstr(row[2], "ORIGINAL") != NULL;
    if (!ROW("stock", "SELECT s_quantity, s_data, s_dist_%02d FROM stock WHERE s_i_id=%d AND s_w_id=%d FOR UPDATE",
             in->d_id, in->i_id[i], in->supply_w_id[i]))
        return -1;
    int q = atoi(row[0]);
    q = q >= in->quantity[i] + 10 ? q - in->quantity[i] : q - in->quantity[i] + 91;
    original = original && strstr(row[1], "ORIGINAL");  /* brand-generic 'B' */
    (void)original;
    double amount = in->quantity[i] * price;
    *total += amount;
    g_string_append_printf(lines, "%s(%d,%d,%d,%d,%d,%d,NULL,%d,%.2f,'%s')", i ? "," : "", o_id, in->d_id, u->w_id,
                           i + 1, in->i_id[i], in->supply_w_id[i], in->quantity[i], amount, row[2]);
    if (!EXEC("UPDATE stock SET s_quantity=%d, s_ytd=s_ytd+%d, s_order_cnt=s_order_cnt+1,"
              " s_remote_cnt=s_remote_cnt+%d WHERE s_i_id=%d AND s_w_id=%d",
              q, in->quantity[i], in->supply_w_id[i] != u->w_id, in->i_id[i], in->supply_w_id[i]))
        return -1;
    return 0;
}

static int
new_order(RvTpccUser *u, const RvTpccInput *in, GError **error)
{
    g_autoptr(MYSQL_RES) res = NULL;
    g_autoptr(GString) lines = g_string_new("INSERT INTO order_line VALUES ");
    MYSQL_ROW row;
    double total = 0;

    if (!ROW("warehouse", "SELECT w_tax FROM warehouse WHERE w_id=%d", u->w_id))
        return -1;
    double w_tax = g_ascii_strtod(row[0], NULL);
    if (!ROW("district", "SELECT d_tax, d_next_o_id FROM district WHERE d_w_id=%d AND d_id=%d FOR UPDATE", u->w_id,
             in->d_id))
        return -1;
    double d_tax = g_ascii_strtod(row[0], NULL);
    int o_id = atoi(row[1]);
    if (!EXEC("UPDATE district SET d_next_o_id=%d WHERE d_w_id=%d AND d_id=%d", o_id + 1, u->w_id, in->d_id))
        return -1;
    if (!ROW("customer", "SELECT c_discount, c_last, c_credit FROM customer WHERE c_w_id=%d AND c_d_id=%d AND c_id=%d",
             u->w_id, in->d_id, in->c_id))
        return -1;
    double discount = g_ascii_strtod(row[0], NULL);
    if (!EXEC("INSERT INTO orders VALUES (%d,%d,%d,%d,NOW(),NULL,%d,%d)", o_id, in->d_id, u->w_id, in->c_id,
              in->ol_cnt, in->all_local) ||
        !EXEC("INSERT INTO new_order VALUES (%d,%d,%d)", o_id, in->d_id, u->w_id))
        return -1;
    for (int i = 0; i < in->ol_cnt; i++) {
        int rc = new_order_line(u, in, i, o_id, lines, &total, error);
        if (rc != 0)
            return rc;
    }
    total *= (1 - discount) * (1 + w_tax + d_tax);
    (void)total;                /* the terminal would display it */
    return EXEC("%s", lines->str) ? 0 : -1;
}

/* the customer of a by-name selection: the row at position ceil(n/2) by C_FIRST (clause 2.5.2.2) */
static int
customer_by_name(RvTpccUser *u, int w_id, int d_id, const char *last, GError **error)
{
    g_autoptr(MYSQL_RES) res = rv_tpcc_query(u->m, error,
                                             "SELECT c_id FROM customer WHERE c_w_id=%d AND c_d_id=%d AND c_last='%s'"
                                             " ORDER BY c_first", w_id, d_id, last);
    if (!res)
        return -1;
    my_ulonglong n = mysql_num_rows(res);
    if (n == 0) {
        g_set_error(error, RV_TPCC_DB_ERROR, RV_TPCC_DB_NOROW,
                    "no customer named %s in warehouse %d district %d: the database is not a complete TPC-C load",
                    last, w_id, d_id);
        return -1;
    }
    mysql_data_seek(res, (n - 1) / 2);
    return atoi(mysql_fetch_row(res)[0]);
}

static int
payment(RvTpccUser *u, const RvTpccInput *in, GError **error)
{
    g_autoptr(MYSQL_RES) res = NULL;
    MYSQL_ROW row;
    char w_name[11], hist[25];

    if (!EXEC("UPDATE warehouse SET w_ytd=w_ytd+%.2f WHERE w_id=%d", in->amount, u->w_id) ||
        !ROW("warehouse", "SELECT w_name, w_street_1, w_street_2, w_city, w_state, w_zip FROM warehouse WHERE w_id=%d",
             u->w_id))
        return -1;
    g_strlcpy(w_name, row[0], sizeof(w_name));
    if (!EXEC("UPDATE district SET d_ytd=d_ytd+%.2f WHERE d_w_id=%d AND d_id=%d", in->amount, u->w_id, in->d_id) ||
        !ROW("district", "SELECT d_name, d_street_1, d_street_2, d_city, d_state, d_zip FROM district"
             " WHERE d_w_id=%d AND d_id=%d", u->w_id, in->d_id))
        return -1;
    g_snprintf(hist, sizeof(hist), "%s    %s", w_name, row[0]);
    int c_id = in->by_name ? customer_by_name(u, in->c_w_id, in->c_d_id, in->c_last, error) : in->c_id;
    if (c_id < 0)
        return -1;
    if (!ROW("customer", "SELECT c_first, c_middle, c_last, c_street_1, c_street_2, c_city, c_state, c_zip, c_phone,"
             " c_credit, c_credit_lim, c_discount, c_balance, c_since FROM customer"
             " WHERE c_w_id=%d AND c_d_id=%d AND c_id=%d FOR UPDATE", in->c_w_id, in->c_d_id, c_id))
        return -1;
    bool ok;
    if (g_str_equal(row[9], "BC"))
        ok = EXEC("UPDATE customer SET c_balance=c_balance-%.2f, c_ytd_payment=c_ytd_payment+%.2f,"
                  " c_payment_cnt=c_payment_cnt+1, c_data=SUBSTRING(CONCAT('%d %d %d %d %d %.2f|', c_data), 1, 500)"
                  " WHERE c_w_id=%d AND c_d_id=%d AND c_id=%d",
                  in->amount, in->amount, c_id, in->c_d_id, in->c_w_id, in->d_id, u->w_id, in->amount, in->c_w_id,
                  in->c_d_id, c_id);
    else
        ok = EXEC("UPDATE customer SET c_balance=c_balance-%.2f, c_ytd_payment=c_ytd_payment+%.2f,"
                  " c_payment_cnt=c_payment_cnt+1 WHERE c_w_id=%d AND c_d_id=%d AND c_id=%d",
                  in->amount, in->amount, in->c_w_id, in->c_d_id, c_id);
    if (!ok ||
        !EXEC("INSERT INTO history VALUES (%d,%d,%d,%d,%d,NOW(),%.2f,'%s')", c_id, in->c_d_id, in->c_w_id, in->d_id,
              u->w_id, in->amount, hist))
        return -1;
    return 0;
}

static int
order_status(RvTpccUser *u, const RvTpccInput *in, GError **error)
{
    g_autoptr(MYSQL_RES) res = NULL;
    MYSQL_ROW row;
    int c_id = in->by_name ? customer_by_name(u, u->w_id, in->d_id, in->c_last, error) : in->c_id;

    if (c_id < 0 ||
        !ROW("customer", "SELECT c_balance, c_first, c_middle, c_last FROM customer"
             " WHERE c_w_id=%d AND c_d_id=%d AND c_id=%d", u->w_id, in->d_id, c_id) ||
        !ROW("the customer's last order", "SELECT o_id, o_entry_d, o_carrier_id FROM orders"
             " WHERE o_w_id=%d AND o_d_id=%d AND o_c_id=%d ORDER BY o_id DESC LIMIT 1", u->w_id, in->d_id, c_id))
        return -1;
    int o_id = atoi(row[0]);
    g_clear_pointer(&res, mysql_free_result);
    res = rv_tpcc_query(u->m, error, "SELECT ol_i_id, ol_supply_w_id, ol_quantity, ol_amount, ol_delivery_d"
                        " FROM order_line WHERE ol_w_id=%d AND ol_d_id=%d AND ol_o_id=%d", u->w_id, in->d_id, o_id);
    return res ? 0 : -1;
}

static int
delivery_district(RvTpccUser *u, const RvTpccInput *in, int d, GError **error)
{
    g_autoptr(MYSQL_RES) res = rv_tpcc_query(u->m, error, "SELECT no_o_id FROM new_order WHERE no_w_id=%d AND"
                                             " no_d_id=%d ORDER BY no_o_id LIMIT 1 FOR UPDATE", u->w_id, d);
    MYSQL_ROW row;

    if (!res)
        return -1;
    if (!(row = mysql_fetch_row(res))) {
        u->delivery_skipped++;
        return 0;
    }
    int o_id = atoi(row[0]);
    if (!EXEC("DELETE FROM new_order WHERE no_w_id=%d AND no_d_id=%d AND no_o_id=%d", u->w_id, d, o_id) ||
        !ROW("orders", "SELECT o_c_id FROM orders WHERE o_w_id=%d AND o_d_id=%d AND o_id=%d", u->w_id, d, o_id))
        return -1;
    int c_id = atoi(row[0]);
    if (!EXEC("UPDATE orders SET o_carrier_id=%d WHERE o_w_id=%d AND o_d_id=%d AND o_id=%d", in->carrier_id, u->w_id,
              d, o_id) ||
        !EXEC("UPDATE order_line SET ol_delivery_d=NOW() WHERE ol_w_id=%d AND ol_d_id=%d AND ol_o_id=%d", u->w_id, d,
              o_id) ||
        !ROW("order_line", "SELECT COALESCE(SUM(ol_amount), 0) FROM order_line WHERE ol_w_id=%d AND ol_d_id=%d"
             " AND ol_o_id=%d", u->w_id, d, o_id))
        return -1;
    return EXEC("UPDATE customer SET c_balance=c_balance+%s, c_delivery_cnt=c_delivery_cnt+1"
                " WHERE c_w_id=%d AND c_d_id=%d AND c_id=%d", row[0], u->w_id, d, c_id) ? 0 : -1;
}

static int
delivery(RvTpccUser *u, const RvTpccInput *in, GError **error)
{
    for (int d = 1; d <= RV_TPCC_DISTRICTS; d++)
        if (delivery_district(u, in, d, error) < 0)
            return -1;
    return 0;
}

static int
stock_level(RvTpccUser *u, const RvTpccInput *in, GError **error)
{
    g_autoptr(MYSQL_RES) res = NULL;
    MYSQL_ROW row;

    if (!ROW("district", "SELECT d_next_o_id FROM district WHERE d_w_id=%d AND d_id=%d", u->w_id, in->d_id))
        return -1;
    int next = atoi(row[0]);
    if (!ROW("stock count", "SELECT COUNT(DISTINCT s_i_id) FROM order_line, stock WHERE ol_w_id=%d AND ol_d_id=%d"
             " AND ol_o_id<%d AND ol_o_id>=%d AND s_w_id=%d AND s_i_id=ol_i_id AND s_quantity<%d",
             u->w_id, in->d_id, next, next - 20, u->w_id, in->threshold))
        return -1;
    return 0;
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
    if (rc == 0 && rv_tpcc_exec(u->m, error, "COMMIT") < 0)
        return -1;
    return rc;
}
