/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * tpcc/db.c: MariaDB Connector/C connections and queries for rtvirt-tpcc.
 */
#include <errmsg.h>
#include <mysqld_error.h>

#include "tpcc/db.h"

G_DEFINE_QUARK(rv-tpcc-db-error-quark, rv_tpcc_db_error)

char *
rv_tpcc_server_name(const RvTpccConnOpts *o)
{
    if (o->socket)
        return g_strdup_printf("MariaDB at unix socket %s", o->socket);
    if (!o->host || g_str_equal(o->host, "localhost"))     /* the client library takes its default socket */
        return g_strdup("MariaDB at localhost (the client library's default unix socket)");
    return g_strdup_printf("MariaDB at %s:%d", o->host ? o->host : "localhost", o->port ? o->port : 3306);
}

MYSQL *
rv_tpcc_connect(const RvTpccConnOpts *o, bool with_db, GError **error)
{
    g_autoptr(MYSQL) m = mysql_init(NULL);
    unsigned int connect_timeout = 10, rw_timeout = 300;
    g_autofree char *server = rv_tpcc_server_name(o);

    if (!m) {
        g_set_error(error, RV_TPCC_DB_ERROR, CR_OUT_OF_MEMORY, "Failed to set up a connection to %s: out of memory", server);
        return NULL;
    }
    mysql_options(m, MYSQL_OPT_CONNECT_TIMEOUT, &connect_timeout);
    mysql_options(m, MYSQL_OPT_READ_TIMEOUT, &rw_timeout);
    mysql_options(m, MYSQL_OPT_WRITE_TIMEOUT, &rw_timeout);
    if (!mysql_real_connect(m, o->socket ? NULL : o->host, o->user, o->password,
                            with_db ? o->database : NULL, (unsigned)o->port, o->socket,
                            CLIENT_MULTI_STATEMENTS)) {
        g_set_error(error, RV_TPCC_DB_ERROR, (int)mysql_errno(m), "Failed to connect to %s%s%s: %s", server,
                    with_db ? ", database " : "", with_db ? o->database : "", mysql_error(m));
        return NULL;
    }
    if (mysql_autocommit(m, 0) != 0) {
        g_set_error(error, RV_TPCC_DB_ERROR, (int)mysql_errno(m), "Failed to turn autocommit off on %s: %s",
                    server, mysql_error(m));
        return NULL;
    }
    return g_steal_pointer(&m);
}

static int
vexec(MYSQL *m, GError **error, const char *fmt, va_list ap)
{
    g_autofree char *sql = g_strdup_vprintf(fmt, ap);
    if (mysql_real_query(m, sql, strlen(sql)) != 0) {
        g_set_error(error, RV_TPCC_DB_ERROR, (int)mysql_errno(m), "%s (in: %.160s)", mysql_error(m), sql);
        return -1;
    }
    return 0;
}

int
rv_tpcc_exec(MYSQL *m, GError **error, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    int rc = vexec(m, error, fmt, ap);
    va_end(ap);
    if (rc == 0) {
        MYSQL_RES *res = mysql_store_result(m);
        if (res)
            mysql_free_result(res);
    }
    return rc;
}

static MYSQL_RES *
vquery(MYSQL *m, GError **error, const char *fmt, va_list ap)
{
    if (vexec(m, error, fmt, ap) < 0)
        return NULL;
    MYSQL_RES *res = mysql_store_result(m);
    if (!res)
        g_set_error(error, RV_TPCC_DB_ERROR, (int)mysql_errno(m), "Failed to read a result: %s",
                    mysql_errno(m) ? mysql_error(m) : "the statement returned none");
    return res;
}

MYSQL_RES *
rv_tpcc_query(MYSQL *m, GError **error, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    MYSQL_RES *res = vquery(m, error, fmt, ap);
    va_end(ap);
    return res;
}

MYSQL_ROW
rv_tpcc_query_row(MYSQL *m, MYSQL_RES **ret_res, const char *what, GError **error, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    MYSQL_RES *res = vquery(m, error, fmt, ap);
    va_end(ap);
    if (*ret_res)
        mysql_free_result(*ret_res);
    *ret_res = res;
    if (!res)
        return NULL;
    MYSQL_ROW row = mysql_fetch_row(res);
    if (!row)
        g_set_error(error, RV_TPCC_DB_ERROR, RV_TPCC_DB_NOROW, "no row for %s: the database is not a complete TPC-C load", what);
    return row;
}

static void
free_result(gpointer res)
{
    if (res)
        mysql_free_result(res);
}

GPtrArray *
rv_tpcc_multi(MYSQL *m, GError **error, const char *fmt, ...)
{
    g_autoptr(GPtrArray) results = g_ptr_array_new_with_free_func(free_result);
    va_list ap;
    va_start(ap, fmt);
    int rc = vexec(m, error, fmt, ap);
    va_end(ap);
    if (rc < 0)
        return NULL;
    for (int more = 0; more == 0; more = mysql_next_result(m)) {
        MYSQL_RES *res = mysql_store_result(m);
        if (!res && mysql_field_count(m) != 0)
            break;
        g_ptr_array_add(results, res);
    }
    if (mysql_errno(m) != 0) {
        g_set_error(error, RV_TPCC_DB_ERROR, (int)mysql_errno(m), "%s (in statement %u of a batch)", mysql_error(m),
                    results->len + 1);
        /* drain what the server may still send */
        while (mysql_more_results(m) && mysql_next_result(m) == 0)
            free_result(mysql_store_result(m));
        return NULL;
    }
    return g_steal_pointer(&results);
}

MYSQL_ROW
rv_tpcc_multi_row(GPtrArray *results, guint i, const char *what, GError **error)
{
    MYSQL_RES *res = i < results->len ? g_ptr_array_index(results, i) : NULL;
    MYSQL_ROW row = res ? mysql_fetch_row(res) : NULL;
    if (!row)
        g_set_error(error, RV_TPCC_DB_ERROR, RV_TPCC_DB_NOROW, "no row for %s: the database is not a complete TPC-C load", what);
    return row;
}

bool
rv_tpcc_db_retryable(const GError *e)
{
    return e && e->domain == RV_TPCC_DB_ERROR && (e->code == ER_LOCK_DEADLOCK || e->code == ER_LOCK_WAIT_TIMEOUT);
}

bool
rv_tpcc_db_lost(const GError *e)
{
    return e && e->domain == RV_TPCC_DB_ERROR &&
           (e->code == CR_SERVER_GONE_ERROR || e->code == CR_SERVER_LOST || e->code == CR_CONNECTION_ERROR ||
            e->code == CR_CONN_HOST_ERROR || e->code == ER_CONNECTION_KILLED || e->code == ER_SERVER_SHUTDOWN ||
            e->code == CR_SERVER_LOST_EXTENDED);
}
