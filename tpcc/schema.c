/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * tpcc/schema.c: the nine tables of TPC-C clause 1.3 with the columns,
 * primary keys of clause 1.3 and the secondary indexes the transactions
 * need (customer by last name, clause 2.5.2.2/2.6.2.2; an order by its
 * customer, clause 2.6.2.2), InnoDB; plus tpcc_meta, rtvirt-tpcc's own.
 */
#include <mysqld_error.h>

#include "tpcc/driver.h"
#include "tpcc/load-priv.h"

static const char *const ddl[] = {
    "CREATE TABLE warehouse (w_id INT NOT NULL, w_name VARCHAR(10), w_street_1 VARCHAR(20),"
    " w_street_2 VARCHAR(20), w_city VARCHAR(20), w_state CHAR(2), w_zip CHAR(9),"
    " w_tax DECIMAL(4,4), w_ytd DECIMAL(12,2), PRIMARY KEY (w_id)) ENGINE=InnoDB",
    "CREATE TABLE district (d_id TINYINT NOT NULL, d_w_id INT NOT NULL, d_name VARCHAR(10),"
    " d_street_1 VARCHAR(20), d_street_2 VARCHAR(20), d_city VARCHAR(20), d_state CHAR(2), d_zip CHAR(9),"
    " d_tax DECIMAL(4,4), d_ytd DECIMAL(12,2), d_next_o_id INT, PRIMARY KEY (d_w_id, d_id)) ENGINE=InnoDB",
    "CREATE TABLE customer (c_id INT NOT NULL, c_d_id TINYINT NOT NULL, c_w_id INT NOT NULL,"
    " c_first VARCHAR(16), c_middle CHAR(2), c_last VARCHAR(16), c_street_1 VARCHAR(20),"
    " c_street_2 VARCHAR(20), c_city VARCHAR(20), c_state CHAR(2), c_zip CHAR(9), c_phone CHAR(16),"
    " c_since DATETIME, c_credit CHAR(2), c_credit_lim DECIMAL(12,2), c_discount DECIMAL(4,4),"
    " c_balance DECIMAL(12,2), c_ytd_payment DECIMAL(12,2), c_payment_cnt SMALLINT,"
    " c_delivery_cnt SMALLINT, c_data VARCHAR(500), PRIMARY KEY (c_w_id, c_d_id, c_id),"
    " KEY idx_customer_last (c_w_id, c_d_id, c_last, c_first)) ENGINE=InnoDB",
    /* clause 1.3: HISTORY has no primary key (InnoDB adds a hidden one) */
    "CREATE TABLE history (h_c_id INT, h_c_d_id TINYINT, h_c_w_id INT, h_d_id TINYINT, h_w_id INT,"
    " h_date DATETIME, h_amount DECIMAL(6,2), h_data VARCHAR(24)) ENGINE=InnoDB",
    "CREATE TABLE new_order (no_o_id INT NOT NULL, no_d_id TINYINT NOT NULL, no_w_id INT NOT NULL,"
    " PRIMARY KEY (no_w_id, no_d_id, no_o_id)) ENGINE=InnoDB",
    "CREATE TABLE orders (o_id INT NOT NULL, o_d_id TINYINT NOT NULL, o_w_id INT NOT NULL, o_c_id INT,"
    " o_entry_d DATETIME, o_carrier_id TINYINT, o_ol_cnt TINYINT, o_all_local TINYINT,"
    " PRIMARY KEY (o_w_id, o_d_id, o_id), KEY idx_orders_customer (o_w_id, o_d_id, o_c_id, o_id)) ENGINE=InnoDB",
    "CREATE TABLE order_line (ol_o_id INT NOT NULL, ol_d_id TINYINT NOT NULL, ol_w_id INT NOT NULL,"
    " ol_number TINYINT NOT NULL, ol_i_id INT, ol_supply_w_id INT, ol_delivery_d DATETIME,"
    " ol_quantity TINYINT, ol_amount DECIMAL(6,2), ol_dist_info CHAR(24),"
    " PRIMARY KEY (ol_w_id, ol_d_id, ol_o_id, ol_number)) ENGINE=InnoDB",
    "CREATE TABLE item (i_id INT NOT NULL, i_im_id INT, i_name VARCHAR(24), i_price DECIMAL(5,2),"
    " i_data VARCHAR(50), PRIMARY KEY (i_id)) ENGINE=InnoDB",
    "CREATE TABLE stock (s_i_id INT NOT NULL, s_w_id INT NOT NULL, s_quantity SMALLINT,"
    " s_dist_01 CHAR(24), s_dist_02 CHAR(24), s_dist_03 CHAR(24), s_dist_04 CHAR(24), s_dist_05 CHAR(24),"
    " s_dist_06 CHAR(24), s_dist_07 CHAR(24), s_dist_08 CHAR(24), s_dist_09 CHAR(24), s_dist_10 CHAR(24),"
    " s_ytd INT, s_order_cnt SMALLINT, s_remote_cnt SMALLINT, s_data VARCHAR(50),"
    " PRIMARY KEY (s_w_id, s_i_id)) ENGINE=InnoDB",
    "CREATE TABLE tpcc_meta (schema_version INT NOT NULL, scale VARCHAR(16) NOT NULL,"
    " warehouses INT NOT NULL, c_last_load INT NOT NULL, c_id INT NOT NULL, ol_i_id INT NOT NULL,"
    " complete TINYINT NOT NULL, loaded_at DATETIME) ENGINE=InnoDB",
};

int
rv_tpcc_schema_create(MYSQL *m, const char *database, GError **error)
{
    if (rv_tpcc_exec(m, error, "CREATE DATABASE IF NOT EXISTS `%s`", database) < 0 ||
        rv_tpcc_exec(m, error, "USE `%s`", database) < 0 ||
        rv_tpcc_exec(m, error, "DROP TABLE IF EXISTS tpcc_meta, warehouse, district, customer, history,"
                               " new_order, orders, order_line, item, stock") < 0)
        return -1;
    for (size_t i = 0; i < G_N_ELEMENTS(ddl); i++)
        if (rv_tpcc_exec(m, error, "%s", ddl[i]) < 0)
            return -1;
    return 0;
}

int
rv_tpcc_meta_read(MYSQL *m, const char *server, RvTpccMeta *ret_meta, GError **error)
{
    g_autoptr(GError) e = NULL;
    g_autoptr(MYSQL_RES) res = NULL;
    MYSQL_ROW row = rv_tpcc_query_row(m, &res, "tpcc_meta", &e,
                                      "SELECT schema_version, scale, warehouses, c_last_load, c_id, ol_i_id, complete"
                                      " FROM tpcc_meta");
    if (!row) {
        if (e->code == ER_NO_SUCH_TABLE || e->code == RV_TPCC_DB_NOROW)
            g_set_error(error, RV_TPCC_DB_ERROR, e->code,
                        "%s: no rtvirt-tpcc schema in this database (tpcc_meta: %s); run 'rtvirt-tpcc load' first",
                        server, e->message);
        else
            g_set_error(error, RV_TPCC_DB_ERROR, e->code, "%s: failed to read tpcc_meta: %s", server, e->message);
        return -1;
    }
    ret_meta->schema_version = atoi(row[0]);
    g_strlcpy(ret_meta->scale, row[1], sizeof(ret_meta->scale));
    ret_meta->warehouses = atoi(row[2]);
    ret_meta->c.c_last = atoi(row[3]);
    ret_meta->c.c_id = atoi(row[4]);
    ret_meta->c.ol_i_id = atoi(row[5]);
    ret_meta->complete = atoi(row[6]) != 0;
    if (!ret_meta->complete) {
        g_set_error(error, RV_TPCC_DB_ERROR, RV_TPCC_DB_NOROW,
                    "%s: the rtvirt-tpcc load did not finish (tpcc_meta.complete = 0); load again", server);
        return -1;
    }
    if (ret_meta->schema_version != RV_TPCC_SCHEMA_VERSION) {
        g_set_error(error, RV_TPCC_DB_ERROR, RV_TPCC_DB_NOROW,
                    "%s: schema version %d, this rtvirt-tpcc knows %d; load again", server,
                    ret_meta->schema_version, RV_TPCC_SCHEMA_VERSION);
        return -1;
    }
    return 0;
}
