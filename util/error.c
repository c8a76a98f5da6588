/* SPDX-License-Identifier: GPL-2.0-or-later */
#include <errno.h>

#include "util/error.h"

G_DEFINE_QUARK(rv-error-quark, rv_error)

int
rv_error_set(GError **error, RvErrorCode code, int errnum, const char *fmt, ...)
{
    va_list ap;

    if (error) {
        va_start(ap, fmt);
        g_autofree char *msg = g_strdup_vprintf(fmt, ap);
        va_end(ap);
        g_set_error_literal(error, RV_ERROR, code, msg);
    }
    return errnum > 0 ? -errnum : (errnum < 0 ? errnum : -EIO);
}

int
rv_error_exit_code(const GError *error)
{
    if (!error)
        return RV_EXIT_OK;
    if (error->domain == RV_ERROR) {
        switch ((RvErrorCode) error->code) {
        case RV_ERROR_CHECK:
            return RV_EXIT_CHECK;
        case RV_ERROR_UNSUPPORTED:
            return RV_EXIT_SKIP;
        default:
            break;
        }
    }
    return RV_EXIT_ERROR;
}
