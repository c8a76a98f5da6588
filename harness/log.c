/* SPDX-License-Identifier: GPL-2.0-or-later */
#include <errno.h>
#include <stdio.h>
#include <string.h>

#include "harness/log.h"
#include "util/error.h"
#include "util/escape.h"

int rv_harness_verbosity;
static gint stderr_gone;   /* atomic: stderr is a pipe nobody reads any more */

static void
vlog(const char *level, const char *fmt, va_list ap)
{
    g_autofree char *msg = NULL;

    /* With SIGPIPE ignored (harness/signals.h) a closed pipe is EPIPE:
     * stop printing there, never stop the caller (a run still has to
     * revert the host and destroy its domains). */
    if (g_atomic_int_get(&stderr_gone))
        return;
    /* a message may quote a value from the command line, a file, the host
     * or a guest: no raw control byte reaches the terminal (util/escape.h) */
    msg = rv_escape_text(g_strdup_vprintf(fmt, ap));
    /* one prefix: a message that names its command first ("rtvirt run:
     * ...", from argv[0]) gets no "rtvirt: " in front of it */
    const char *colon = g_str_has_prefix(msg, "rtvirt ") ? strstr(msg, ": ") : NULL;
    int r = colon && colon - msg < 40 && !memchr(msg, '\'', (size_t) (colon - msg))
                ? fprintf(stderr, "%.*s: %s%s\n", (int) (colon - msg), msg, level, colon + 2)
                : fprintf(stderr, "rtvirt: %s%s\n", level, msg);

    if ((r < 0 || fflush(stderr) == EOF) &&
        errno == EPIPE) {
        g_atomic_int_set(&stderr_gone, 1);
        clearerr(stderr);
    }
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
