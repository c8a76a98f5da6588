/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * host/facts/cpustat.h: host CPU utilisation from /proc/stat, for the cpu% of a
 * load level (the "cpu" line: user nice system idle iowait irq softirq
 * steal guest guest_nice in USER_HZ ticks, proc(5); guest and guest_nice
 * are already counted in user and nice, so they are not added again).
 * Idle is idle + iowait, as the reference measurements count it.
 */
#pragma once

#include <glib.h>

#include "host/fsroot.h"

typedef struct {
    guint64 busy;     /* user + nice + system + irq + softirq + steal */
    guint64 idle;     /* idle + iowait */
} RvHostCpuTimes;

/**
 * rv_host_cpustat_parse:
 * @text: the contents of /proc/stat (NUL-terminated)
 * @ret: (out): the totals of its "cpu " line, written only on success
 * @error: RV_ERROR_INVALID naming what is missing
 *
 * Returns: 0, or -EINVAL when there is no well-formed "cpu " line with at
 * least the four fields of Linux 2.4 (user nice system idle).
 */
int rv_host_cpustat_parse(const char *text, RvHostCpuTimes *ret, GError **error)
    G_GNUC_WARN_UNUSED_RESULT;

/**
 * rv_host_cpustat_read:
 * @root: the host root (/proc/stat inside it)
 * @ret: (out): the totals now
 *
 * Returns: 0 or -errno (RV_ERROR_FAILED when unreadable, RV_ERROR_INVALID
 * when malformed).
 */
int rv_host_cpustat_read(RvRoot *root, RvHostCpuTimes *ret, GError **error)
    G_GNUC_WARN_UNUSED_RESULT;

/**
 * rv_host_cpustat_pct:
 * @before, @after: two readings, @after later
 *
 * Returns: busy ticks in % of all ticks between them (0..100), or -1 when
 * no tick passed or the counters went backwards.
 */
double rv_host_cpustat_pct(const RvHostCpuTimes *before, const RvHostCpuTimes *after);
