/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * results/cyclictest-priv.h: what the cyclictest readers share between
 * the text reader (cyclictest.c) and the JSON reader (cyclictest-json.c).
 * Not part of the results library's interface.
 */
#pragma once

#include <glib.h>

#include "results/cyclictest.h"

/* Bounds that keep a hostile or corrupt file from costing memory out of
 * proportion to its size. */
#define MAX_THREADS  4096
#define MAX_BUCKETS  (1u << 20)       /* 1 s of 1-us buckets per thread */
#define MAX_CELLS    (1u << 24)       /* buckets of all threads of a run: 128 MiB */
#define MAX_FILE     (256u << 20)

/* A run starting at 1-based line @first_line: tool "cyclictest", form
 * status, every unknown -1; free with rv_result_cyclictest_run_free(). */
RvCyclictestRun *rv_result_cyclictest_run_new(int first_line);

/* Thread @index of @run, adding threads 0..@index as needed. */
RvCyclictestThread *rv_result_cyclictest_run_thread(RvCyclictestRun *run, int index);

/* Appends a note (printf-like) to @run->notes. */
void rv_result_cyclictest_run_note(RvCyclictestRun *run, const char *fmt, ...)
    G_GNUC_PRINTF(2, 3);

/* Skips blanks, reads a decimal unsigned 64-bit number and advances *@p past
 * it; FALSE (and *@p unchanged) on no digit or overflow. */
gboolean rv_result_cyclictest_scan_u64(const char **p, guint64 *ret);

/* The -h/-H/--histogram/--histofall N of a command line (0: none, capped
 * at MAX_BUCKETS); sets *@ret_nsecs when -N/--nsecs is given. */
int rv_result_cyclictest_cmdline_histogram(const char *cmdline, gboolean *ret_nsecs);

/**
 * rv_result_cyclictest_parse_json:
 *
 * The --json form of rv_result_cyclictest_parse() (cyclictest, oslat and
 * `rtvirt pert --json`), called when the data's first non-blank byte is
 * '{'.  Returns: 1 (one run), or -EINVAL.
 */
int rv_result_cyclictest_parse_json(const char *name, const char *data, gsize len,
                                    GPtrArray **ret_runs, GError **error)
    G_GNUC_WARN_UNUSED_RESULT;

/* cyclictest -D / oslat -D / rtla -d / hwlatdetect --duration: "90",
 * "10m", "2h", "1d", "1w" in seconds; -1 when not such a value. */
double rv_result_args_seconds(const char *s);
