/* SPDX-License-Identifier: GPL-2.0-or-later */
#include <stdio.h>

#include "harness/log.h"
#include "util/error.h"

int rv_harness_verbosity;

static void
vlog(const char *level, const char *fmt, va_list ap)
{
    g_autofree char *msg = g_strdup_vprintf(fmt, ap);

    fprintf(stderr, "rtvirt: %s%s\n", level, msg);
}

void
rv_log_error(const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    vlog("", fmt, ap);
    va_end(ap);
}

void
rv_log_warn(const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    vlog("warning: ", fmt, ap);
    va_end(ap);
}

void
rv_log_info(const char *fmt, ...)
{
    va_list ap;

    if (rv_harness_verbosity < 0)   /* -q */
        return;
    va_start(ap, fmt);
    vlog("", fmt, ap);
    va_end(ap);
}

void
rv_log_debug(const char *fmt, ...)
{
    va_list ap;

    if (rv_harness_verbosity < 1)
        return;
    va_start(ap, fmt);
    vlog("debug: ", fmt, ap);
    va_end(ap);
}

int
rv_log_gerror(const GError *error, const char *fallback)
{
    if (error)
        rv_log_error("%s", error->message);
    else
        rv_log_error("%s", fallback ? fallback : "Failed (no reason given)");
    return error ? rv_error_exit_code(error) : 2;
}
