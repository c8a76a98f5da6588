/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * util/error.h: rtvirt's GError domain and the exit-code convention.
 *
 * Library layers (host/, guest/, results/) return 0 or a count on success
 * and a negative errno on failure, and describe the failure in a GError
 * with one of the codes below.  harness/ maps the code to an exit status
 * (rv_error_exit_code()) and logs the message once.
 */
#pragma once

#include <glib.h>

#define RV_ERROR (rv_error_quark())
GQuark rv_error_quark(void);

typedef enum {
    RV_ERROR_FAILED,       /* an operation failed (I/O, daemon, guest): exit 2 */
    RV_ERROR_INVALID,      /* bad input: file, line, value named: exit 2 */
    RV_ERROR_UNSUPPORTED,  /* missing capability of this host: exit 77 */
    RV_ERROR_TIMEOUT,      /* a bounded wait ran out: exit 2 */
    RV_ERROR_CHECK,        /* a check or budget failed: exit 1 */
} RvErrorCode;

/* Exit codes (hwloc/automake convention, see doc/hacking.md). */
enum {
    RV_EXIT_OK = 0,
    RV_EXIT_CHECK = 1,
    RV_EXIT_ERROR = 2,
    RV_EXIT_SKIP = 77,
};

/**
 * rv_error_set:
 * @error: (out) (optional): where to store the error, or NULL
 * @code: an #RvErrorCode
 * @errnum: the positive errno this failure stands for (EINVAL, ENOENT, ...)
 * @fmt: printf-like message: one grep-able sentence with the object named,
 *       e.g. "Failed to read '/sys/devices/system/cpu/online': No such file"
 *
 * Returns: -@errnum, so that a caller can `return rv_error_set(...)`.
 */
int rv_error_set(GError **error, RvErrorCode code, int errnum,
                 const char *fmt, ...) G_GNUC_PRINTF(4, 5);

/**
 * rv_error_exit_code:
 * @error: an error from any layer, or NULL
 *
 * Returns: the process exit status for @error: 0 for NULL, 1 for
 * RV_ERROR_CHECK, 77 for RV_ERROR_UNSUPPORTED, 2 for everything else.
 */
int rv_error_exit_code(const GError *error);
