/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * host/facts/cpustat.c: host CPU utilisation from /proc/stat (see cpustat.h).
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "host/facts/cpustat.h"
#include "util/error.h"

int
rv_host_cpustat_parse(const char *text, RvHostCpuTimes *ret, GError **error)
{
    const char *p = text;
    guint64 f[10] = { 0 };
    guint n = 0;

    /* the aggregate line comes first; "cpu0 ..." are the per-CPU ones */
    while (p && strncmp(p, "cpu ", 4) != 0) {
        p = strchr(p, '\n');
        if (p)
            p++;
    }
    if (!p)
        return rv_error_set(error, RV_ERROR_INVALID, EINVAL, "/proc/stat has no 'cpu' line");
    p += 4;
    while (n < G_N_ELEMENTS(f)) {
        char *end;
        guint64 v;

        while (*p == ' ')
            p++;
        if (*p == '\n' || !*p)
            break;
        if (!g_ascii_isdigit(*p))
            return rv_error_set(error, RV_ERROR_INVALID, EINVAL,
                                "/proc/stat 'cpu' line: field %u is not a number", n + 1);
        errno = 0;
        v = g_ascii_strtoull(p, &end, 10);
        if (errno)
            return rv_error_set(error, RV_ERROR_INVALID, EINVAL,
                                "/proc/stat 'cpu' line: field %u is out of range", n + 1);
        f[n++] = v;
        p = end;
    }
    if (n < 4)
        return rv_error_set(error, RV_ERROR_INVALID, EINVAL,
                            "/proc/stat 'cpu' line has %u fields, expected at least 4", n);
    /* user nice system idle iowait irq softirq steal [guest guest_nice:
     * inside user and nice already] */
    ret->busy = f[0] + f[1] + f[2] + f[5] + f[6] + f[7];
    ret->idle = f[3] + f[4];
    return 0;
}

int
rv_host_cpustat_read(RvRoot *root, RvHostCpuTimes *ret, GError **error)
{
    g_autofree char *text = NULL;
    gssize n = rv_host_root_read(root, "/proc/stat", &text, error);

    if (n < 0)
        return (int) n;
    return rv_host_cpustat_parse(text, ret, error);
}

double
rv_host_cpustat_pct(const RvHostCpuTimes *before, const RvHostCpuTimes *after)
{
    guint64 busy, idle;

    if (after->busy < before->busy || after->idle < before->idle)
        return -1;
    busy = after->busy - before->busy;
    idle = after->idle - before->idle;
    if (busy + idle == 0)
        return -1;
    return 100.0 * (double) busy / (double) (busy + idle);
}
