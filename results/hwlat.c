/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * results/hwlat.c: hwlatdetect's output (see latency-readers.h).
 *
 * rt-tests 2.x src/hwlatdetect/hwlatdetect.py prints "hwlatdetect:  test
 * duration %d seconds", "   detector: tracer", "   parameters:", "CPU
 * list:", "Latency threshold: %dus", "Sample window:     %dus", "Sample
 * width:      %dus", "Non-sampling period:  %dus", "Output File:",
 * "Starting test", "interrupted" (SIGINT), "test finished", "Max Latency:
 * Below threshold" or "Max Latency: %dus", "Samples recorded: %d",
 * "Samples exceeding threshold: %d", "%d SMIs occured on cpu %d", "SMIs
 * during run: %d", then one "ts: %s, inner:%d, outer:%d" line per sample
 * (later versions add ", cpu:%d").  A Python traceback instead of
 * "test finished" is a run without a result.
 */
#include <errno.h>
#include <string.h>

#include "results/cyclictest-priv.h"
#include "results/latency-readers.h"
#include "util/error.h"

#define ERR(error, name, line, fmt, ...) \
    rv_error_set(error, RV_ERROR_INVALID, EINVAL, "%s:%d: " fmt, (name), (line), ##__VA_ARGS__)

/* "Latency threshold: 10us" -> 10; -1 when the value is not "N" or "Nus" */
static gint64
value_us(const char *line, const char *label)
{
    const char *p = strstr(line, label);
    double d;

    if (!p)
        return -1;
    p += strlen(label);
    if (!rv_result_scan_decimal(&p, &d) || d > (double) RV_READER_MAX_US)
        return -1;
    return (gint64) d;
}

/* "ts: 1470836488.206734548, inner:9, outer:9[, cpu:3]": the larger */
static gint64
sample_us(const char *line)
{
    gint64 in = value_us(line, "inner:"), out = value_us(line, "outer:");

    return MAX(in, out);
}

int
rv_result_hwlat_parse(const char *name, const char *data, gsize len, GPtrArray **ret_runs,
                      GError **error)
{
    g_autoptr(GPtrArray) lines = NULL;
    g_autoptr(GPtrArray) runs =
        g_ptr_array_new_with_free_func((GDestroyNotify) rv_result_cyclictest_run_free);
    g_autoptr(RvCyclictestRun) run = rv_result_cyclictest_run_new(1);
    RvCyclictestThread *t = rv_result_cyclictest_run_thread(run, 0);
    gboolean seen = FALSE, finished = FALSE, traceback = FALSE;
    gint64 v, sample_max = -1, smis = -1;

    if (rv_result_text_lines(name, data, len, &lines, error) < 0)
        return -EINVAL;
    g_free(run->tool);
    run->tool = g_strdup("hwlatdetect");
    for (guint i = 0; i < lines->len; i++) {
        const char *line = lines->pdata[i], *s = line;
        int lineno = (int) i + 1;

        while (*s == ' ' || *s == '\t')
            s++;
        if (g_str_has_prefix(s, "hwlatdetect:")) {
            if (seen)
                return ERR(error, name, lineno, "a second hwlatdetect run: one run per file");
            seen = TRUE;
            run->first_line = lineno;
            if ((v = value_us(s, "test duration")) >= 0)
                run->duration_asked_s = (double) v;
        } else if (!seen) {
            continue;
        } else if (g_str_has_prefix(s, "CPU list:")) {
            const char *l = s + strlen("CPU list:");
            while (*l == ' ' || *l == '\t')
                l++;
            g_clear_pointer(&run->cpu_list, g_free);
            if (*l && !g_str_equal(l, "None"))
                run->cpu_list = g_strdup(l);
        } else if (g_str_has_prefix(s, "Latency threshold:")) {
            run->threshold_us = value_us(s, "Latency threshold:");
        } else if (g_str_has_prefix(s, "Sample window:")) {
            run->window_us = value_us(s, "Sample window:");
        } else if (g_str_has_prefix(s, "Sample width:")) {
            run->width_us = value_us(s, "Sample width:");
        } else if (g_str_equal(s, "interrupted")) {
            g_free(run->stopped);
            run->stopped = g_strdup("hwlatdetect was interrupted before its duration");
            run->stopped_line = lineno;
        } else if (g_str_equal(s, "test finished")) {
            finished = TRUE;
        } else if (g_str_has_prefix(s, "Max Latency:")) {
            if (strstr(s, "Below threshold"))
                run->below_us = run->threshold_us;
            else if ((v = value_us(s, "Max Latency:")) >= 0)
                t->max_us = v;
            else
                return ERR(error, name, lineno, "hwlatdetect 'Max Latency:' without a value");
        } else if (g_str_has_prefix(s, "Samples recorded:")) {
            t->cycles = value_us(s, "Samples recorded:");
        } else if (g_str_has_prefix(s, "Samples exceeding threshold:")) {
            run->exceeding = value_us(s, "Samples exceeding threshold:");
        } else if (g_str_has_prefix(s, "SMIs during run:")) {
            smis = value_us(s, "SMIs during run:");
        } else if (g_str_has_prefix(s, "ts: ")) {
            sample_max = MAX(sample_max, sample_us(s));
        } else if (g_str_has_prefix(s, "Traceback (most recent call last)")) {
            traceback = TRUE;
            run->stopped_line = lineno;
        } else if (traceback && !g_str_has_prefix(line, " ") && *s) {
            /* the exception's own line ends a traceback */
            g_free(run->stopped);
            run->stopped = g_strdup_printf("hwlatdetect failed: %s", s);
        } else {
            continue;
        }
        run->last_line = lineno;
    }
    if (!seen)
        return rv_error_set(error, RV_ERROR_INVALID, EINVAL,
                            "%s: no hwlatdetect output (no 'hwlatdetect:' line)", name);
    if (traceback && !run->stopped)
        run->stopped = g_strdup("hwlatdetect failed with a Python traceback");
    if (!finished) {
        run->no_result = TRUE;
        if (!run->stopped)
            run->stopped = g_strdup("the output ends before 'test finished'");
    } else if (!run->stopped || g_str_has_prefix(run->stopped, "hwlatdetect was")) {
        /* the detector ran its whole duration unless interrupted */
        if (!run->stopped)
            run->duration_s = run->duration_asked_s;
    }
    /* the samples listed are the ones above the threshold: their max is
     * the max when "Max Latency" was lost */
    if (t->max_us < 0 && sample_max >= 0)
        t->max_us = sample_max;
    t->smi_count = smis;
    if (t->max_us >= 0)
        t->min_us = -1;
    g_ptr_array_add(runs, g_steal_pointer(&run));
    *ret_runs = g_steal_pointer(&runs);
    return 1;
}
