/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * tpcc/db.h: the MariaDB side of rtvirt-tpcc: connection options, one
 * connection per thread, queries that report failures as GError in
 * RV_TPCC_DB_ERROR with the server's error number as the code.
 */
#pragma once

#include <mysql.h>

#include "tpcc/tpcc.h"

#define RV_TPCC_DB_ERROR (rv_tpcc_db_error_quark())
/* codes of our own, beside the server's and the client library's numbers */
#define RV_TPCC_DB_NOROW (-1)   /* a row the TPC-C data guarantees is missing */

/**
 * RvTpccConnOpts: where the server is, as the mariadb client's options:
 * @socket wins over @host/@port when set; NULL fields take the client
 * library's defaults.
 */
typedef struct {
    char *host;
    int port;
    char *socket;
    char *user;
    char *password;
    char *database;
} RvTpccConnOpts;

GQuark rv_tpcc_db_error_quark(void);
G_DEFINE_AUTOPTR_CLEANUP_FUNC(MYSQL, mysql_close)
G_DEFINE_AUTOPTR_CLEANUP_FUNC(MYSQL_RES, mysql_free_result)

/**
 * rv_tpcc_server_name: "MariaDB at unix socket PATH", "MariaDB at
 * HOST:PORT" or, for localhost without --socket, "MariaDB at localhost
 * (the client library's default unix socket)", for messages (transfer full).
 */
char *rv_tpcc_server_name(const RvTpccConnOpts *o);
/**
 * rv_tpcc_connect: a connection to @o, into @o->database when @with_db;
 * autocommit off.  Errors: RV_TPCC_DB_ERROR with the client's code and a
 * message naming the server.
 */
MYSQL *rv_tpcc_connect(const RvTpccConnOpts *o, bool with_db, GError **error) G_GNUC_WARN_UNUSED_RESULT;
/** rv_tpcc_exec: run one statement, discarding any result. 0 or -1 with @error. */
int rv_tpcc_exec(MYSQL *m, GError **error, const char *fmt, ...) G_GNUC_PRINTF(3, 4) G_GNUC_WARN_UNUSED_RESULT;
/**
 * rv_tpcc_query: run one query and store its result (transfer full), NULL
 * with @error on failure.
 */
MYSQL_RES *rv_tpcc_query(MYSQL *m, GError **error, const char *fmt, ...) G_GNUC_PRINTF(3, 4) G_GNUC_WARN_UNUSED_RESULT;
/**
 * rv_tpcc_query_row: rv_tpcc_query() and its first row; a missing row is
 * the error RV_TPCC_DB_NOROW naming @what.  The row lives in *@ret_res.
 */
MYSQL_ROW rv_tpcc_query_row(MYSQL *m, MYSQL_RES **ret_res, const char *what, GError **error,
                            const char *fmt, ...) G_GNUC_PRINTF(5, 6) G_GNUC_WARN_UNUSED_RESULT;
/**
 * rv_tpcc_multi: run the statements of @fmt (';'-separated, the
 * connection has CLIENT_MULTI_STATEMENTS) in one round trip; returns one
 * element per statement, its stored result or NULL for a statement without
 * one (transfer full), NULL with @error when one failed (the server stops
 * at the first failure).
 */
GPtrArray *rv_tpcc_multi(MYSQL *m, GError **error, const char *fmt, ...) G_GNUC_PRINTF(3, 4) G_GNUC_WARN_UNUSED_RESULT;
/** rv_tpcc_multi_row: the first row of statement @i of @results, or NULL with RV_TPCC_DB_NOROW naming @what. */
MYSQL_ROW rv_tpcc_multi_row(GPtrArray *results, guint i, const char *what, GError **error);
/** rv_tpcc_db_retryable: whether @e is a deadlock or a lock wait timeout (retry the transaction). */
bool rv_tpcc_db_retryable(const GError *e);
/** rv_tpcc_db_lost: whether @e says the connection to the server is gone. */
bool rv_tpcc_db_lost(const GError *e);
