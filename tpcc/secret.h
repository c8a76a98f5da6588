/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * tpcc/secret.h: where rtvirt-tpcc takes the server password from without
 * leaving it in /proc/PID/cmdline (readable by every local user, shown by
 * ps): a file (--password-file FILE, '-' for standard input), or the
 * environment's MYSQL_PWD (the variable the mariadb client reads;
 * /proc/PID/environ is readable by the owner only).  The old --password
 * VALUE still works, warned about, and is overwritten in argv at once
 * (as the mariadb client does in its get_one_option()).
 * Pure: no database, no printing.
 */
#pragma once

#include <glib.h>

/* The longest password file rtvirt-tpcc reads (a password is one line). */
#define RV_TPCC_PASSWORD_FILE_MAX 4096

/**
 * rv_tpcc_argv_take_password:
 * @argc, @argv: main()'s arguments, before option parsing
 *
 * Finds "--password VALUE" and "--password=VALUE" (before a "--") and
 * overwrites each VALUE in place with 'x's, so that /proc/PID/cmdline no
 * longer shows it; the option parser then sees the x's.
 *
 * Returns: (transfer full) (nullable): a copy of the last VALUE, NULL when
 * there is none.
 */
char *rv_tpcc_argv_take_password(int argc, char **argv);

/**
 * rv_tpcc_password_read:
 * @path: the file, or "-" for standard input
 * @ret_password: (out) (transfer full): its first line, without the line
 *   end (\n or \r\n); an empty file gives ""
 * @ret_others_read: (out) (optional): TRUE when @path is a file that group
 *   or others may read (the caller warns)
 *
 * Returns: 0, or -errno with @error set: ENOENT/EACCES (open), EISDIR or
 * EINVAL (not a regular file or pipe), EFBIG (more than
 * RV_TPCC_PASSWORD_FILE_MAX bytes), each message naming @path.
 */
int rv_tpcc_password_read(const char *path, char **ret_password,
                          gboolean *ret_others_read, GError **error) G_GNUC_WARN_UNUSED_RESULT;
