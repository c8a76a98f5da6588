/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * results/oslat.c: oslat's text output (see latency-readers.h).
 *
 * rt-tests 2.x src/oslat/oslat.c: dump_globals() prints "oslat V 2.40",
 * "Total runtime: \t\t%d seconds", "Thread priority: \tSCHED_FIFO:%d" or
 * "default", "CPU list: \t\t%s", "CPU for main thread: \t%d"; a run
 * stopped by -T prints "oslat: Trace threshold (%d us) triggered on cpu
 * %d with %ld us!" and "Stopping the test." and no summary; write_summary()
 * prints putfield() rows "%12s:\t" then one value per core: "Core",
 * "CPU Freq" (2.1) / "Counter Freq" (2.4), "%03d (us)" buckets (the last
 * "(including overflows)", "    ..." for rows -z omits), "Minimum",
 * "Average", "Maximum", "Max-Min" in us and "Duration" in s.  -q prints
 * the version and the summary only.
 */
#include <errno.h>
#include <math.h>
#include <string.h>

#include "results/cyclictest-priv.h"
#include "results/latency-readers.h"
#include "util/error.h"

#define ERR(error, name, line, fmt, ...) \
    rv_error_set(error, RV_ERROR_INVALID, EINVAL, "%s:%d: " fmt, (name), (line), ##__VA_ARGS__)

/* "    Maximum:\t 37 38 (us)": the label and the values after it */
static gboolean
split_field(const char *line, char **ret_label, const char **ret_values)
{
    const char *colon = strchr(line, ':');
    const char *s = line, *v;

    if (!colon)
        return FALSE;
    v = colon + 1;
    while (*v == ' ')
        v++;
    if (*v != '\t')
        return FALSE;   /* putfield() and dump_globals() put a TAB there */
    while (*s == ' ')
        s++;
    *ret_label = g_strndup(s, colon - s);
    *ret_values = v + 1;
    return TRUE;
}

/* the numbers of a summary row, as many as there are cores */
static int
row_values(const char *name, int lineno, const char *p, guint n, double *out, GError **error)
{
    for (guint i = 0; i < n; i++)
        if (!rv_result_scan_decimal(&p, &out[i]) || out[i] > (double) RV_READER_MAX_US * 1000)
            return ERR(error, name, lineno, "oslat summary row: expected %u values", n);
    return 0;
}

static int
parse_summary(const char *name, RvCyclictestRun *run, const char *label, const char *vals,
              int lineno, GError **error)
{
    guint n = run->threads->len;
    g_autofree double *v = NULL;

    if (g_str_equal(label, "Core")) {
        const char *p = vals;
        double c;

        if (n)
            return ERR(error, name, lineno, "a second oslat summary: one run per file");
        while (rv_result_scan_decimal(&p, &c)) {
            RvCyclictestThread *t;
            if (run->threads->len >= RV_READER_MAX_CPUS || c >= RV_READER_MAX_CPUS)
                return ERR(error, name, lineno, "oslat: more cores than rtvirt reads");
            t = rv_result_cyclictest_run_thread(run, run->threads->len);
            t->cpu = (int) c;
            t->cycles = 0;
        }
        if (!run->threads->len)
            return ERR(error, name, lineno, "oslat 'Core:' row without cores");
        return 0;
    }
    if (!n)
        return 0;   /* not in a summary */
    v = g_new0(double, n);
    if (strstr(label, " (us)")) {
        /* a bucket: counts of samples */
        if (row_values(name, lineno, vals, n, v, error) < 0)
            return -EINVAL;
        for (guint i = 0; i < n; i++) {
            RvCyclictestThread *t = run->threads->pdata[i];
            t->cycles += (gint64) v[i];
        }
        return 0;
    }
    if (!g_str_equal(label, "Minimum") && !g_str_equal(label, "Average") &&
        !g_str_equal(label, "Maximum") && !g_str_equal(label, "Duration"))
        return 0;
    if (row_values(name, lineno, vals, n, v, error) < 0)
        return -EINVAL;
    for (guint i = 0; i < n; i++) {
        RvCyclictestThread *t = run->threads->pdata[i];

        if (v[i] > (double) RV_READER_MAX_US)
            return ERR(error, name, lineno, "oslat '%s:' value out of range", label);
        if (g_str_equal(label, "Minimum"))
            t->min_us = (gint64) floor(v[i]);
        else if (g_str_equal(label, "Average"))
            t->avg_us = v[i];
        else if (g_str_equal(label, "Maximum"))
            t->max_us = (gint64) ceil(v[i]);
        else
            run->duration_s = MAX(run->duration_s, v[i]);
    }
    return 0;
}

/* dump_globals() lines */
static void
parse_global(RvCyclictestRun *run, const char *label, const char *vals)
{
    const char *p = vals;
    double d;

    while (*vals == '\t' || *vals == ' ')
        vals++;
    if (g_str_equal(label, "Total runtime") && rv_result_scan_decimal(&p, &d)) {
        run->duration_asked_s = d;
    } else if (g_str_equal(label, "Thread priority")) {
        g_free(run->policy);
        run->policy = g_str_has_prefix(vals, "SCHED_FIFO") ? g_strdup("fifo") : g_strdup("other");
    } else if (g_str_equal(label, "CPU list")) {
        g_free(run->cpu_list);
        run->cpu_list = g_str_has_prefix(vals, "(all") ? NULL : g_strstrip(g_strdup(vals));
    } else if (g_str_equal(label, "CPU for main thread") && rv_result_scan_decimal(&p, &d) &&
               d < RV_READER_MAX_CPUS) {
        run->main_cpu = (int) d;
    }
}

int
rv_result_oslat_parse(const char *name, const char *data, gsize len, GPtrArray **ret_runs,
                      GError **error)
{
    g_autoptr(GPtrArray) lines = NULL;
    g_autoptr(GPtrArray) runs =
        g_ptr_array_new_with_free_func((GDestroyNotify) rv_result_cyclictest_run_free);
    g_autoptr(RvCyclictestRun) run = rv_result_cyclictest_run_new(1);
    gboolean started = FALSE, seen = FALSE;

    if (rv_result_text_lines(name, data, len, &lines, error) < 0)
        return -EINVAL;
    g_free(run->tool);
    run->tool = g_strdup("oslat");
    for (guint i = 0; i < lines->len; i++) {
        const char *line = lines->pdata[i];
        g_autofree char *label = NULL;
        const char *vals;
        int lineno = (int) i + 1;

        if (g_str_has_prefix(line, "oslat V ")) {
            if (seen)
                return ERR(error, name, lineno, "a second oslat run: one run per file");
            seen = TRUE;
            run->first_line = lineno;
            run->version = g_strstrip(g_strdup(line + strlen("oslat V ")));
        } else if (g_str_equal(line, "Test starts...")) {
            started = TRUE;
        } else if (g_str_has_prefix(line, "oslat: Trace threshold")) {
            g_free(run->stopped);
            run->stopped = g_strdup_printf("oslat -T: %s", line + strlen("oslat: "));
            run->stopped_line = lineno;
        } else if (g_str_has_prefix(line, "WARNING: ")) {
            rv_result_cyclictest_run_note(run, "oslat: %s", line + strlen("WARNING: "));
        } else if (split_field(line, &label, &vals)) {
            if (!seen && !g_str_equal(label, "Core") && !run->threads->len)
                seen = TRUE;
            parse_global(run, label, vals);
            if (parse_summary(name, run, label, vals, lineno, error) < 0)
                return -EINVAL;
        } else {
            continue;
        }
        run->last_line = lineno;
    }
    if (!seen && !run->threads->len)
        return rv_error_set(error, RV_ERROR_INVALID, EINVAL,
                            "%s: no oslat output (no 'oslat V' line or summary)", name);
    if (!run->threads->len && (started || run->stopped))
        run->no_result = TRUE;
    for (guint i = 0; i < run->threads->len; i++) {
        RvCyclictestThread *t = run->threads->pdata[i];
        if (t->max_us < 0)
            return ERR(error, name, run->last_line, "oslat summary without 'Maximum:' "
                       "(cut output)");
    }
    g_ptr_array_add(runs, g_steal_pointer(&run));
    *ret_runs = g_steal_pointer(&runs);
    return 1;
}
