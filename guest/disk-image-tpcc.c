/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * guest/disk-image-tpcc.c: the TPC-C database loaded into a disk image
 * while it is built (guest/disk-image-priv.h).  Loading inside a TCG guest
 * takes tens of minutes; on the host against the tree it takes one.
 */
#include <errno.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <gio/gio.h>
#include <glib/gstdio.h>

#include "guest/disk-image-priv.h"
#include "util/error.h"
#include "util/runner.h"

/* mariadbd drops to the tree's mysql user: its files in a directory of
 * that user's (the guest's /run/mysqld is made by tmpfiles at boot) */
#define DIR_IN_TREE "/run/rtvirt-load"
#define SOCK_IN_TREE DIR_IN_TREE "/mysqld.sock"
#define LOG_IN_TREE DIR_IN_TREE "/mysqld.err"
#define START_WAIT_MS 120000
#define LOAD_TIMEOUT_MS (2u * 3600u * 1000u)

static char *
log_tail(const char *tree)
{
    g_autofree char *path = g_build_filename(tree, LOG_IN_TREE, NULL);
    g_autofree char *text = NULL;
    gsize len = 0;

    if (!g_file_get_contents(path, &text, &len, NULL))
        return g_strdup("(no server log)");
    return g_strstrip(g_strdup(len > 800 ? text + len - 800 : text));
}

static int
run_checked(const char * const *argv, guint timeout_ms, const char *what, GError **error)
{
    g_autoptr(RvRunner) run = rv_runner_new(false);
    g_auto(RvRunResult) res = { 0 };
    int r;

    r = rv_runner_run(run, argv, NULL, timeout_ms, 1u << 16, &res, error);
    if (r < 0)
        return r;
    if (res.exit_status != 0) {
        g_autofree char *cmd = rv_runner_argv_to_string(argv);

        return rv_error_set(error, RV_ERROR_FAILED, EIO, "%s failed: '%s' exited with status %d: %s",
                            what, cmd, res.exit_status,
                            g_strstrip(res.err && *res.err ? res.err : res.out ? res.out : ""));
    }
    return 0;
}

/* uid and gid of @user in @tree/etc/passwd (passwd(5)), not the host's. */
static int
tree_user(const char *tree, const char *user, uid_t *ret_uid, gid_t *ret_gid, GError **error)
{
    g_autofree char *path = g_build_filename(tree, "etc/passwd", NULL);
    g_autofree char *text = NULL;
    g_auto(GStrv) lines = NULL;

    if (!g_file_get_contents(path, &text, NULL, NULL))
        return rv_error_set(error, RV_ERROR_FAILED, ENOENT, "Failed to read '%s'", path);
    lines = g_strsplit(text, "\n", -1);
    for (guint i = 0; lines[i]; i++) {
        g_auto(GStrv) f = g_strsplit(lines[i], ":", 5);

        if (g_strv_length(f) >= 4 && strcmp(f[0], user) == 0) {
            *ret_uid = (uid_t) strtoul(f[2], NULL, 10);
            *ret_gid = (gid_t) strtoul(f[3], NULL, 10);
            return 0;
        }
    }
    return rv_error_set(error, RV_ERROR_FAILED, ENOENT,
                        "%s has no user '%s': mariadb-server did not install", path, user);
}

/* Debian's postinst initialises /var/lib/mysql; do it when it did not. */
static int
ensure_datadir(const char *tree, GError **error)
{
    g_autofree char *sys = g_build_filename(tree, "var/lib/mysql/mysql", NULL);
    const char *argv[] = { "chroot", tree, "mariadb-install-db", "--user=mysql",
                           "--skip-test-db", NULL };

    if (g_file_test(sys, G_FILE_TEST_IS_DIR))
        return 0;
    return run_checked(argv, 600000, "Initialising the image's MariaDB data directory", error);
}

/* The server lives only during the load: a GSubprocess, since the runner
 * (util/runner.h) waits for its programs to end. */
static int
server_start(const char *tree, GSubprocess **ret, GError **error)
{
    g_autofree char *sock = g_build_filename(tree, SOCK_IN_TREE, NULL);
    g_autoptr(GError) local = NULL;
    g_autoptr(GSubprocess) p = NULL;
    const char *argv[] = { "chroot", tree, "/usr/sbin/mariadbd", "--user=mysql",
                           "--skip-networking", "--skip-grant-tables",
                           "--socket=" SOCK_IN_TREE, "--pid-file=" DIR_IN_TREE "/mysqld.pid",
                           "--log-error=" LOG_IN_TREE, "--innodb-flush-log-at-trx-commit=2",
                           NULL };

    {
        g_autofree char *dir = g_build_filename(tree, DIR_IN_TREE, NULL);
        uid_t uid = 0;
        gid_t gid = 0;
        int r = tree_user(tree, "mysql", &uid, &gid, error);

        if (r < 0)
            return r;
        if (g_mkdir_with_parents(dir, 0755) < 0 || chown(dir, uid, gid) < 0)
            return rv_error_set(error, RV_ERROR_FAILED, errno, "Failed to prepare '%s': %s", dir,
                                g_strerror(errno));
    }
    (void) g_unlink(sock);
    p = g_subprocess_newv(argv, G_SUBPROCESS_FLAGS_STDOUT_SILENCE | G_SUBPROCESS_FLAGS_STDERR_SILENCE,
                          &local);
    if (!p)
        return rv_error_set(error, RV_ERROR_FAILED, EIO, "Failed to start the image's mariadbd: %s",
                            local->message);
    /* GLib's worker thread reaps the child: no identifier once it exited */
    for (guint waited = 0; !g_file_test(sock, G_FILE_TEST_EXISTS); waited += 200) {
        if (!g_subprocess_get_identifier(p) || waited >= START_WAIT_MS) {
            g_autofree char *tail = log_tail(tree);

            g_subprocess_force_exit(p);
            (void) g_subprocess_wait(p, NULL, NULL);
            return rv_error_set(error, RV_ERROR_FAILED, EIO,
                                "The image's mariadbd (chroot %s) did not start: %s", tree, tail);
        }
        g_usleep(200 * 1000);
    }
    *ret = g_steal_pointer(&p);
    return 0;
}

/* SIGTERM is mariadbd's clean shutdown (InnoDB flushed); wait for it. */
static int
server_stop(const char *tree, GSubprocess *p, GError **error)
{
    g_autoptr(GError) local = NULL;

    g_subprocess_send_signal(p, SIGTERM);
    if (!g_subprocess_wait(p, NULL, &local))
        return rv_error_set(error, RV_ERROR_FAILED, EIO, "Waiting for the image's mariadbd: %s",
                            local->message);
    if (!g_subprocess_get_if_exited(p) || g_subprocess_get_exit_status(p) != 0) {
        g_autofree char *tail = log_tail(tree);

        return rv_error_set(error, RV_ERROR_FAILED, EIO,
                            "The image's mariadbd did not shut down cleanly: %s", tail);
    }
    return 0;
}

int
rv_guest_disk_tpcc_load(const char *tree, const char *driver, unsigned warehouses,
                        const char *scale, GError **error)
{
    g_autofree char *sock = g_build_filename(tree, SOCK_IN_TREE, NULL);
    g_autofree char *w = g_strdup_printf("%u", warehouses);
    g_autoptr(GSubprocess) server = NULL;
    g_autoptr(GError) stop_error = NULL;
    const char *argv[] = { driver, "load", "--socket", sock, "--warehouses", w, "--scale",
                           scale ? scale : "small", NULL };
    int r;

    if ((r = ensure_datadir(tree, error)) < 0 ||
        (r = server_start(tree, &server, error)) < 0)
        return r;
    r = run_checked(argv, LOAD_TIMEOUT_MS, "Loading the TPC-C database into the image", error);
    if (server_stop(tree, server, r < 0 ? NULL : &stop_error) < 0 && r >= 0) {
        g_propagate_error(error, g_steal_pointer(&stop_error));
        r = -EIO;
    }
    {
        g_autofree char *dir = g_build_filename(tree, DIR_IN_TREE, NULL);
        const char *rm[] = { "rm", "-rf", "--one-file-system", "--", dir, NULL };
        g_autoptr(GError) ignored = NULL;

        if (run_checked(rm, 60000, "Removing the load's run directory", &ignored) < 0)
            g_debug("%s", ignored->message);
    }
    return r;
}
