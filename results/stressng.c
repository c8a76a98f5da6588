/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * results/stressng.c: the report of stress-ng's cyclic stressor (see
 * latency-readers.h).
 *
 * stress-ng stress-cyclic.c prints, per instance, through pr_inf()
 * ("stress-ng: info:  [PID] "): "cyclic: sched SCHED_FIFO: %lu ns delay,
 * %zu samples", "cyclic:   mean: %.2f ns, mode: %ld ns", "cyclic:   min:
 * %ld ns, max: %ld ns, std.dev. %.2f", "cyclic: latency percentiles:"
 * and, since 2023, "cyclic: Note: --cyclic-samples needed to be %zu to
 * capture all the data for this run".  Every statistic, min and max
 * included, comes from the latencies array, which keeps the first
 * --cyclic-samples wakeups (default DEFAULT_SAMPLES, 10000) and drops the
 * rest: a run longer than that is judged on its first samples only.
 * The run's own lines: "setting to a %d second (...) run per stressor",
 * "successful run completed in %.2fs".
 */
#include <errno.h>
#include <math.h>
#include <string.h>

#include "results/cyclictest-priv.h"
#include "results/latency-readers.h"
#include "util/error.h"

#define ERR(error, name, line, fmt, ...) \
    rv_error_set(error, RV_ERROR_INVALID, EINVAL, "%s:%d: " fmt, (name), (line), ##__VA_ARGS__)

/* the number after @key in @s, -1 when absent or out of range */
static double
after(const char *s, const char *key)
{
    const char *p = strstr(s, key);
    double v;

    if (!p)
        return -1;
    p += strlen(key);
    if (!rv_result_scan_decimal(&p, &v) || v > 1e15)
        return -1;
    return v;
}

int
rv_result_stressng_parse(const char *name, const char *data, gsize len, GPtrArray **ret_runs,
                         GError **error)
{
    g_autoptr(GPtrArray) lines = NULL;
    g_autoptr(GPtrArray) runs =
        g_ptr_array_new_with_free_func((GDestroyNotify) rv_result_cyclictest_run_free);
    g_autoptr(RvCyclictestRun) run = rv_result_cyclictest_run_new(1);
    RvCyclictestThread *t = NULL;
    double needed = -1;

    if (rv_result_text_lines(name, data, len, &lines, error) < 0)
        return -EINVAL;
    g_free(run->tool);
    run->tool = g_strdup("stress-ng");
    for (guint i = 0; i < lines->len; i++) {
        const char *line = lines->pdata[i];
        const char *c = strstr(line, "cyclic:");
        int lineno = (int) i + 1;
        double v;

        if (g_str_has_prefix(line, "^C")) {
            g_free(run->stopped);
            run->stopped = g_strdup("stress-ng was interrupted (^C)");
            run->stopped_line = lineno;
            line += 2;
        }
        if (!strstr(line, "stress-ng: ")) {
            /* the command line, when pasted with the output ("cgexec ...
             * stress-ng --cyclic 1 ..."); its program word on */
            const char *w = strstr(line, "stress-ng ");
            if (w && (w == line || w[-1] == ' ' || w[-1] == '/') && strstr(w, "--cyclic") &&
                !run->cmdline)
                run->cmdline = g_strdup(w);
            continue;
        } else if (strstr(line, "run per stressor") && (v = after(line, "setting to a ")) >= 0) {
            run->duration_asked_s = strstr(line, " min") && !strstr(line, " second") ? v * 60 : v;
        } else if (strstr(line, "run completed in") && (v = after(line, "completed in ")) >= 0) {
            run->duration_s = v;
        } else if (!c) {
            continue;
        } else if (strstr(c, " ns delay, ")) {
            /* "cyclic: sched SCHED_FIFO: 20000 ns delay, 10000 samples" */
            const char *pol = strstr(c, "sched ");
            double delay = after(c, ": "), samples = after(c, "delay, ");

            if (run->threads->len >= RV_READER_MAX_CPUS)
                return ERR(error, name, lineno, "stress-ng: more instances than rtvirt reads");
            t = rv_result_cyclictest_run_thread(run, run->threads->len);
            if (pol && !run->policy) {
                pol += strlen("sched ");
                run->policy = g_str_has_prefix(pol, "SCHED_FIFO") ? g_strdup("fifo")
                            : g_str_has_prefix(pol, "SCHED_RR") ? g_strdup("rr")
                            : g_str_has_prefix(pol, "SCHED_DEADLINE") ? g_strdup("deadline")
                            : g_strdup("other");
            }
            delay = after(strstr(c, "SCHED") ? strstr(c, "SCHED") : c, ": ");
            if (delay >= 0)
                t->interval_us = (int) MIN(delay / 1000, (double) G_MAXINT);
            if (samples >= 0) {
                t->cycles = (gint64) samples;
                run->samples_kept = (gint64) samples;
            }
        } else if (!t) {
            continue;
        } else if (strstr(c, "mean:") && (v = after(c, "mean: ")) >= 0) {
            t->avg_us = v / 1000;
        } else if (strstr(c, "min:") && strstr(c, "max:")) {
            double mn = after(c, "min: "), mx = after(c, "max: ");
            if (mn < 0 || mx < 0 || mx / 1000 > (double) RV_READER_MAX_US ||
                mn / 1000 > (double) RV_READER_MAX_US)
                return ERR(error, name, lineno, "stress-ng cyclic: bad min/max");
            t->min_us = (gint64) floor(mn / 1000);
            t->max_us = (gint64) ceil(mx / 1000);
        } else if ((v = after(c, "needed to be ")) >= 0) {
            needed = v;
        } else {
            continue;
        }
        run->last_line = lineno;
    }
    if (!run->threads->len)
        return rv_error_set(error, RV_ERROR_INVALID, EINVAL,
                            "%s: no stress-ng cyclic report (no 'cyclic: sched ...' line)", name);
    if (needed > 0 && run->samples_kept >= 0 && needed > run->samples_kept)
        run->coverage = (double) run->samples_kept / needed;
    g_ptr_array_add(runs, g_steal_pointer(&run));
    *ret_runs = g_steal_pointer(&runs);
    return 1;
}
