/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * results/latency-readers.h: readers of the latency and noise tools users
 * pair with cyclictest, each giving the same #RvCyclictestRun as the
 * cyclictest reader (results/cyclictest.h) so that one judge
 * (results/judge.h) weighs them all.  rv_result_cyclictest_parse() picks
 * the reader from the text (rv_result_latency_form()).
 *
 * Forms (each documented beside its reader):
 *  - oslat's text output (rt-tests src/oslat/oslat.c dump_globals(),
 *    write_summary()): one thread per "Core:" column;
 *  - hwlatdetect's output (rt-tests src/hwlatdetect/hwlatdetect.py): one
 *    thread, the hwlat kthread that moves across the CPU list;
 *  - rtla timerlat/osnoise top and hist, and timerlat's auto-analysis
 *    (Linux tools/tracing/rtla, Documentation/tools/rtla/): one thread per
 *    CPU row or column (timerlat: the Thread latency; osnoise: the longest
 *    single noise);
 *  - stress-ng's cyclic stressor report (stress-ng stress-cyclic.c).
 *
 * All input is untrusted: at most RV_READER_MAX_LINES lines of at most
 * RV_READER_MAX_LINE bytes (longer lines are cut), RV_READER_MAX_CPUS
 * columns or rows, latencies up to RV_READER_MAX_US; control characters
 * other than TAB are dropped.  Values in ns are turned into us (max
 * rounded up, min down).
 */
#pragma once

#include <glib.h>

#include "results/cyclictest.h"

#define RV_READER_MAX_LINES  (4u << 20)
#define RV_READER_MAX_LINE   4096u
#define RV_READER_MAX_CPUS   4096
#define RV_READER_MAX_US     ((gint64) 1000000000)   /* 1000 s */

typedef enum {
    RV_LATENCY_FORM_CYCLICTEST,   /* cyclictest text, or JSON of any tool */
    RV_LATENCY_FORM_OSLAT,
    RV_LATENCY_FORM_HWLAT,
    RV_LATENCY_FORM_RTLA,
    RV_LATENCY_FORM_STRESSNG,
} RvLatencyForm;

/**
 * rv_result_latency_form:
 * @data: (array length=len): the output
 *
 * Which reader a text is for, from its first 200 lines: "oslat V" or
 * oslat's "Core:" row, "hwlatdetect:", rtla's "Timer Latency", "Operating
 * System Noise", "# RTLA ... histogram" or "hit stop tracing", stress-ng's
 * "cyclic:" lines; anything else is cyclictest's.
 */
RvLatencyForm rv_result_latency_form(const char *data, gsize len);

/**
 * rv_result_oslat_parse / rv_result_hwlat_parse / rv_result_rtla_parse /
 * rv_result_stressng_parse:
 * @name: what the data is called in messages (file name)
 * @data: (array length=len): the output, need not be NUL-terminated
 * @ret_runs: (out) (transfer full): GPtrArray of one RvCyclictestRun*
 * @error: RV_ERROR_INVALID naming @name, the line and what is wrong
 *
 * Returns: 1, or -EINVAL (no such output, a value out of bounds, too many
 * lines or CPUs).
 */
int rv_result_oslat_parse(const char *name, const char *data, gsize len,
                          GPtrArray **ret_runs, GError **error) G_GNUC_WARN_UNUSED_RESULT;
int rv_result_hwlat_parse(const char *name, const char *data, gsize len,
                          GPtrArray **ret_runs, GError **error) G_GNUC_WARN_UNUSED_RESULT;
int rv_result_rtla_parse(const char *name, const char *data, gsize len,
                         GPtrArray **ret_runs, GError **error) G_GNUC_WARN_UNUSED_RESULT;
int rv_result_stressng_parse(const char *name, const char *data, gsize len,
                             GPtrArray **ret_runs, GError **error) G_GNUC_WARN_UNUSED_RESULT;

/* ---- shared by the readers ---- */

/**
 * rv_result_text_lines:
 * Splits @data into cleaned lines (see above): NUL-terminated strings in
 * a GPtrArray that frees them.  Returns: the number of lines, or -EINVAL
 * past RV_READER_MAX_LINES.
 */
int rv_result_text_lines(const char *name, const char *data, gsize len,
                         GPtrArray **ret_lines, GError **error) G_GNUC_WARN_UNUSED_RESULT;

/* Skips blanks and reads "123", "1.5" (no sign, exponent, hex, inf/nan)
 * into *@ret, advancing *@p; FALSE (and *@p unchanged) otherwise or past
 * 1e15. */
gboolean rv_result_scan_decimal(const char **p, double *ret);

/* "0 00:10:00" (days hh:mm:ss, rtla) in seconds, -1 if not that. */
double rv_result_scan_dhms(const char *s);
