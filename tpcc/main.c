/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * tpcc/main.c: rtvirt-tpcc's command line: `load` and `run`, the
 * connection options of the mariadb client, and input checks (bad input:
 * a message naming the option and the value, exit 2).
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "tpcc/driver.h"
#include "tpcc/secret.h"

static char *arg_host, *arg_socket, *arg_user, *arg_password, *arg_password_file, *arg_database;
static char *arg_scale, *arg_json;
/* the --password VALUE taken out of argv before it was overwritten */
static char *argv_password;
static char *arg_duration, *arg_warmup;
static int arg_port, arg_warehouses, arg_threads, arg_users = 1;
static gint64 arg_seed = -1;

static const GOptionEntry conn_entries[] = {
    { "host", 0, 0, G_OPTION_ARG_STRING, &arg_host, "server host (default localhost)", "HOST" },
    { "port", 0, 0, G_OPTION_ARG_INT, &arg_port, "server TCP port (default 3306)", "PORT" },
    { "socket", 0, 0, G_OPTION_ARG_FILENAME, &arg_socket, "server unix socket (wins over --host)", "PATH" },
    { "user", 0, 0, G_OPTION_ARG_STRING, &arg_user, "user name (default: the client library's)", "USER" },
    { "password-file", 0, 0, G_OPTION_ARG_FILENAME, &arg_password_file,
      "read the password from the first line of FILE ('-': standard input); "
      "else MYSQL_PWD from the environment", "FILE" },
    { "password", 0, 0, G_OPTION_ARG_STRING, &arg_password,
      "DEPRECATED: the password on the command line (other users see it in ps "
      "until it is overwritten); use --password-file or MYSQL_PWD", "PASSWORD" },
    { "database", 0, 0, G_OPTION_ARG_STRING, &arg_database, "database (default tpcc)", "NAME" },
    { "warehouses", 0, 0, G_OPTION_ARG_INT, &arg_warehouses,
      "warehouses to load; run: home warehouses used (default: all loaded)", "W" },
    { "scale", 0, 0, G_OPTION_ARG_STRING, &arg_scale,
      "standard (clause 4.3) or small (CI, NON-STANDARD: 10000 items, 300 customers/district)", "SCALE" },
    { "seed", 0, 0, G_OPTION_ARG_INT64, &arg_seed, "random seed (default: from the clock)", "N" },
    { "threads", 0, 0, G_OPTION_ARG_INT, &arg_threads, "load: loader threads (default: CPUs, at most 8)", "N" },
    { "users", 0, 0, G_OPTION_ARG_INT, &arg_users, "run: virtual users (default 1)", "N" },
    { "duration", 0, 0, G_OPTION_ARG_STRING, &arg_duration, "run: measured time, e.g. 300, 5m (default 5m)", "TIME" },
    { "warmup", 0, 0, G_OPTION_ARG_STRING, &arg_warmup, "run: warm-up before it (default 30s)", "TIME" },
    { "json", 0, 0, G_OPTION_ARG_FILENAME, &arg_json, "run: write the JSON document to FILE ('-': stdout)", "FILE" },
    { NULL },
};

/* "300", "300s", "5m", "1h", "1.5m" in seconds; -1 when it is not a time */
static double
parse_time(const char *s)
{
    char *end;
    double v = g_ascii_strtod(s, &end);
    if (end == s || v < 0 || v > 1e7)
        return -1;
    if (*end == '\0' || g_str_equal(end, "s"))
        return v;
    if (g_str_equal(end, "m"))
        return v * 60;
    if (g_str_equal(end, "h"))
        return v * 3600;
    return -1;
}

static int G_GNUC_PRINTF(1, 2)
bad(const char *fmt, ...)
{
    va_list ap;
    fprintf(stderr, "rtvirt-tpcc: ");
    va_start(ap, fmt);
    vfprintf(stderr, fmt, ap);
    va_end(ap);
    fputc('\n', stderr);
    return 2;
}

/* The password: --password-file, else the deprecated --password (warned
 * about; its argv copy is already overwritten), else MYSQL_PWD, else none
 * (the client library's default). */
static int
take_password(char **ret)
{
    if (arg_password_file && arg_password)
        return bad("--password and --password-file: give one (--password-file)");
    if (arg_password_file) {
        g_autoptr(GError) e = NULL;
        gboolean others = FALSE;

        if (rv_tpcc_password_read(arg_password_file, ret, &others, &e) < 0)
            return bad("%s", e->message);
        if (others)
            fprintf(stderr, "rtvirt-tpcc: warning: --password-file '%s' is readable by group "
                    "or others (chmod 600 it)\n", arg_password_file);
        return 0;
    }
    if (arg_password) {
        fprintf(stderr, "rtvirt-tpcc: warning: --password is deprecated: a password in the "
                "command line is visible to every local user (ps, /proc/PID/cmdline) until "
                "rtvirt-tpcc overwrites it; use --password-file FILE or MYSQL_PWD\n");
        *ret = g_strdup(argv_password ? argv_password : arg_password);
        return 0;
    }
    *ret = g_strdup(g_getenv("MYSQL_PWD"));
    return 0;
}

static int
check_options(bool load, RvTpccOpts *o)
{
    char *password = NULL;
    int r;

    if ((r = take_password(&password)))
        return r;
    if (!(o->scale = rv_tpcc_scale_lookup(arg_scale ? arg_scale : "standard")))
        return bad("--scale '%s': expected standard or small", arg_scale);
    if (arg_port < 0 || arg_port > 65535)
        return bad("--port %d: expected 1-65535", arg_port);
    if (arg_warehouses < (load ? 1 : 0) || arg_warehouses > 100000)
        return bad("--warehouses %d: expected 1-100000", arg_warehouses);
    if (arg_users < 1 || arg_users > 4096)
        return bad("--users %d: expected 1-4096", arg_users);
    if (arg_threads < 0 || arg_threads > 64)
        return bad("--threads %d: expected 1-64", arg_threads);
    o->duration_s = parse_time(arg_duration ? arg_duration : "5m");
    if (o->duration_s <= 0)
        return bad("--duration '%s': expected seconds > 0, or a number with s, m or h", arg_duration);
    o->warmup_s = parse_time(arg_warmup ? arg_warmup : "30s");
    if (o->warmup_s < 0)
        return bad("--warmup '%s': expected seconds, or a number with s, m or h", arg_warmup);
    o->conn = (RvTpccConnOpts){ arg_host, arg_port, arg_socket, arg_user, password,
                                arg_database ? arg_database : "tpcc" };
    for (const char *p = o->conn.database; *p; p++)
        if (!g_ascii_isalnum(*p) && *p != '_')
            return bad("--database '%s': letters, digits and '_' only", o->conn.database);
    o->warehouses = arg_warehouses;
    o->users = arg_users;
    o->threads = arg_threads ? arg_threads : (int)CLAMP(g_get_num_processors(), 1, 8);
    if (arg_json && strcmp(arg_json, "-") != 0) {
        /* checked before measuring: a run's figures must not be lost at its
         * end to a typo in the path */
        g_autofree char *dir = g_path_get_dirname(arg_json);

        if (g_file_test(arg_json, G_FILE_TEST_IS_DIR))
            return bad("--json '%s': a directory, expected a file", arg_json);
        if (!g_file_test(dir, G_FILE_TEST_IS_DIR))
            return bad("--json '%s': directory '%s' does not exist", arg_json, dir);
        if (access(dir, W_OK) != 0)
            return bad("--json '%s': directory '%s' is not writable: %s", arg_json, dir,
                       g_strerror(errno));
    }
    o->json = arg_json;
    o->seed = arg_seed >= 0 ? (uint64_t)arg_seed : (uint64_t)g_get_real_time();
    return 0;
}

int
main(int argc, char **argv)
{
    g_autoptr(GOptionContext) ctx = g_option_context_new("load|run - a TPC-C-style OLTP driver for MariaDB");
    g_autoptr(GError) e = NULL;
    RvTpccOpts o = { 0 };

    g_option_context_set_summary(ctx,
        "  load --warehouses W   create the TPC-C schema and load W warehouses (clause 4.3)\n"
        "  run  --users N        run the five transactions in the clause 5.2.3 mix, test mode:\n"
        "                        no keying or think time.  Figures: NOPM and TPM, never tpmC.\n"
        "Exit status: 0 done, 2 bad input or a failure (refused connection, no or another\n"
        "schema, a lost connection: the JSON keeps what was measured, with the reason).");
    g_option_context_add_main_entries(ctx, conn_entries, NULL);
    /* before anything else: the shorter the time the password is in
     * /proc/PID/cmdline, the better */
    argv_password = rv_tpcc_argv_take_password(argc, argv);
    if (!g_option_context_parse(ctx, &argc, &argv, &e)) {
        fprintf(stderr, "rtvirt-tpcc: %s\n", e->message);
        return 2;
    }
    if (argc != 2 || (!g_str_equal(argv[1], "load") && !g_str_equal(argv[1], "run"))) {
        if (argc >= 2)
            fprintf(stderr, "rtvirt-tpcc: unknown command '%s' (or more than one): expected "
                    "load or run (see --help)\n", argv[1]);
        else
            fprintf(stderr, "rtvirt-tpcc: expected one command, load or run (see --help)\n");
        return 2;
    }
    bool load = g_str_equal(argv[1], "load");
    int rc = check_options(load, &o);
    if (rc)
        return rc;
    if (mysql_library_init(0, NULL, NULL) != 0) {
        fprintf(stderr, "rtvirt-tpcc: Failed to initialise the MariaDB client library\n");
        return 2;
    }
    rc = load ? rv_tpcc_load(&o) : rv_tpcc_run(&o);
    mysql_library_end();
    return rc;
}
