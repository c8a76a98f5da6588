/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * harness/log.h: the only place rtvirt prints diagnostics.  One message per
 * event, one grep-able line, to stderr, prefixed "rtvirt: ".  When stderr
 * is a closed pipe (EPIPE, SIGPIPE ignored: harness/signals.h), printing
 * stops and the caller goes on.
 */
#pragma once

#include <stdbool.h>
#include <glib.h>

extern int rv_harness_verbosity;  /* -1 -q (no info lines), 0 default, 1 -v, 2 -vv */

void rv_log_error(const char *fmt, ...) G_GNUC_PRINTF(1, 2);
void rv_log_warn(const char *fmt, ...) G_GNUC_PRINTF(1, 2);
void rv_log_info(const char *fmt, ...) G_GNUC_PRINTF(1, 2);
void rv_log_debug(const char *fmt, ...) G_GNUC_PRINTF(1, 2);

/* Logs @error's message (or @fallback) and returns the exit code for it
 * (util/error.h rv_error_exit_code()). */
int rv_log_gerror(const GError *error, const char *fallback);
