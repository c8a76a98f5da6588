/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * results/rtla.c: rtla timerlat / osnoise top and hist output and
 * timerlat's auto-analysis (see latency-readers.h).
 *
 * Formats, as Linux tools/tracing/rtla prints them and
 * Documentation/tools/rtla/rtla-{timerlat,osnoise}-{top,hist}.rst shows:
 *  - timerlat top: "Timer Latency", then "  0 00:00:12   |  IRQ Timer
 *    Latency (us)  |  Thread Timer Latency (us)" [| "Ret user Timer
 *    Latency"], "CPU COUNT | cur min avg max | cur min avg max", and one
 *    row per CPU "  1 #12322 |  0  0  1  15 |  10  3  9  31"; without -q
 *    the screen is redrawn (escape codes), so the last table wins;
 *  - osnoise top (and hwnoise): "Operating System Noise", "duration:   0
 *    00:01:00 | time is in us", "CPU Period Runtime Noise % CPU Aval Max
 *    Noise Max Single HW NMI IRQ Softirq Thread", rows "  0 #59  53100000
 *    304896  99.42580  6978  56  549 0 53111 1590 13";
 *  - hist: "# RTLA timerlat histogram" / "# RTLA osnoise histogram", "#
 *    Time unit is microseconds (us)" or "nanoseconds (ns)", "# Duration:
 *    0 00:10:00", "Index IRQ-000 Thr-000 ..." (osnoise "CPU-000"), bucket
 *    rows, then "over:", "count:", "min:", "avg:", "max:" rows; a later
 *    "ALL:" block sums the CPUs and is skipped;
 *  - auto-analysis: "rtla timerlat hit stop tracing", "## CPU 23 hit stop
 *    tracing, analyzing it ##", "Thread latency: 41.96 us (100%)", "Max
 *    timerlat IRQ latency from idle: 17.48 us in cpu 4".
 * timerlat's measurement is the Thread latency (what a woken task sees);
 * osnoise's the longest single noise ("Max Single").
 */
#include <errno.h>
#include <math.h>
#include <string.h>

#include "results/cyclictest-priv.h"
#include "results/latency-readers.h"
#include "util/error.h"

#define ERR(error, name, line, fmt, ...) \
    rv_error_set(error, RV_ERROR_INVALID, EINVAL, "%s:%d: " fmt, (name), (line), ##__VA_ARGS__)

typedef struct {
    const char *name;
    RvCyclictestRun *run;
    double unit;            /* 1 us, 1000 ns */
    int lineno;
    /* top */
    int thread_group;       /* which "|" group holds the Thread latency */
    gboolean osnoise;
    /* hist */
    GArray *cols;           /* int: CPU of each column taken, -1 skipped */
    gboolean hist_done;
} Rtla;

/* a new table: the threads so far and the hist columns that index them go */
static void
reset_threads(Rtla *r)
{
    g_ptr_array_set_size(r->run->threads, 0);
    g_array_set_size(r->cols, 0);
}

static RvCyclictestThread *
thread_for_cpu(Rtla *r, int cpu)
{
    RvCyclictestThread *t = rv_result_cyclictest_run_thread(r->run, r->run->threads->len);

    t->cpu = cpu;
    return t;
}

/* a value as printed (us, or ns with -n), within the readers' bound once in us */
static gboolean
in_range(double v)
{
    return v >= 0 && v <= (double) RV_READER_MAX_US;
}

/* "  0 00:00:12   |   IRQ Timer Latency (us)  |  Thread Timer Latency (us)" */
static void
top_header(Rtla *r, const char *line)
{
    g_auto(GStrv) groups = g_strsplit(line, "|", 8);
    double d = rv_result_scan_dhms(g_strstrip(groups[0]));

    if (d >= 0)
        r->run->duration_s = d;
    r->unit = strstr(line, "(ns)") ? 1000 : 1;
    r->thread_group = -1;
    for (int g = 1; groups[g]; g++)
        if (strstr(groups[g], "Thread") && r->thread_group < 0)
            r->thread_group = g;
    if (r->thread_group < 0)
        r->thread_group = 1;   /* --no-thread: the IRQ latency */
}

/* "  1 #12322     |        0         0         1        15 |  10  3  9  31" */
static int
top_row(Rtla *r, const char *line, GError **error)
{
    g_auto(GStrv) groups = g_strsplit(line, "|", 8);
    const char *p = groups[0];
    double cpu, count, v[4];

    if (!rv_result_scan_decimal(&p, &cpu) || cpu >= RV_READER_MAX_CPUS)
        return 0;   /* "ALL", separators */
    while (*p == ' ')
        p++;
    if (*p++ != '#' || !rv_result_scan_decimal(&p, &count))
        return ERR(error, r->name, r->lineno, "rtla timerlat top row without '#COUNT'");
    if ((int) g_strv_length(groups) <= r->thread_group)
        return ERR(error, r->name, r->lineno, "rtla timerlat top row with %u column groups",
                   g_strv_length(groups));
    p = groups[r->thread_group];
    for (int k = 0; k < 4; k++)
        if (!rv_result_scan_decimal(&p, &v[k]) || !in_range(v[k] / r->unit))
            return ERR(error, r->name, r->lineno, "rtla timerlat top: expected cur min avg max");
    if (r->run->threads->len >= RV_READER_MAX_CPUS)
        return ERR(error, r->name, r->lineno, "rtla: more CPUs than rtvirt reads");
    RvCyclictestThread *t = thread_for_cpu(r, (int) cpu);
    t->cycles = (gint64) count;
    t->act_us = (gint64) ceil(v[0] / r->unit);
    t->min_us = (gint64) floor(v[1] / r->unit);
    t->avg_us = v[2] / r->unit;
    t->max_us = (gint64) ceil(v[3] / r->unit);
    return 0;
}

/* "  0 #59  53100000  304896  99.42580  6978  56  549  0  53111  1590  13" */
static int
osnoise_row(Rtla *r, const char *line, GError **error)
{
    const char *p = line;
    double cpu, period, v[10];
    RvCyclictestThread *t;

    if (!rv_result_scan_decimal(&p, &cpu) || cpu >= RV_READER_MAX_CPUS)
        return 0;
    while (*p == ' ')
        p++;
    if (*p++ != '#' || !rv_result_scan_decimal(&p, &period))
        return 0;
    for (int k = 0; k < 10; k++)
        if (!rv_result_scan_decimal(&p, &v[k]) || (k != 0 && k != 1 && k < 5 && !in_range(v[k] / r->unit)))
            return ERR(error, r->name, r->lineno, "rtla osnoise top: expected Runtime Noise "
                       "%%CPU-Aval MaxNoise MaxSingle HW NMI IRQ Softirq Thread");
    if (r->run->threads->len >= RV_READER_MAX_CPUS)
        return ERR(error, r->name, r->lineno, "rtla: more CPUs than rtvirt reads");
    t = thread_for_cpu(r, (int) cpu);
    t->cycles = (gint64) period;
    t->max_us = (gint64) ceil(v[4] / r->unit);      /* Max Single */
    t->min_us = -1;
    /* Runtime against the duration: the share of time sampled */
    if (r->run->duration_s > 0) {
        double cov = v[0] / r->unit / 1e6 / r->run->duration_s;
        if (r->run->coverage < 0 || cov < r->run->coverage)
            r->run->coverage = MIN(cov, 1.0);
    }
    return 0;
}

/* "Index   IRQ-000   Thr-000 ...": the columns to take */
static int
hist_header(Rtla *r, const char *line, GError **error)
{
    g_auto(GStrv) w = g_strsplit_set(line, " \t", -1);
    gboolean timerlat = g_str_equal(r->run->mode, "timerlat hist");
    gboolean has_thr = strstr(line, "Thr-") != NULL;

    g_array_set_size(r->cols, 0);
    reset_threads(r);
    for (int i = 1; w[i]; i++) {
        const char *c = w[i], *dash = strchr(c, '-');
        const char *p;
        double cpu;
        int take = -1;

        if (!*c)
            continue;
        p = dash ? dash + 1 : "";
        if (dash && rv_result_scan_decimal(&p, &cpu) && cpu < RV_READER_MAX_CPUS &&
            (timerlat ? g_str_has_prefix(c, has_thr ? "Thr-" : "IRQ-") : g_str_has_prefix(c, "CPU-")))
            take = (int) cpu;
        if (r->cols->len >= RV_READER_MAX_CPUS * 3)
            return ERR(error, r->name, r->lineno, "rtla hist: more columns than rtvirt reads");
        g_array_append_val(r->cols, take);
        if (take >= 0)
            thread_for_cpu(r, take);
    }
    return 0;
}

/* "count:   600002    600002 ...", "max:  16  36 ..." */
static int
hist_summary(Rtla *r, const char *label, const char *p, GError **error)
{
    guint th = 0;

    for (guint i = 0; i < r->cols->len; i++) {
        int cpu = g_array_index(r->cols, int, i);
        double v;
        gboolean ok = rv_result_scan_decimal(&p, &v);

        if (!ok) {
            /* "-" for a column without samples; anything else is not rtla's */
            while (*p == ' ' || *p == '\t')
                p++;
            if (*p != '-')
                return ERR(error, r->name, r->lineno, "rtla hist: value out of range or "
                           "not a number in '%s:' row", label);
            p++;
        } else if (g_str_equal(label, "count") || g_str_equal(label, "over") ? v > 1e15
                   : !in_range(v / r->unit)) {
            return ERR(error, r->name, r->lineno, "rtla hist: value out of range");
        }
        if (cpu < 0)
            continue;
        if (th >= r->run->threads->len)
            return ERR(error, r->name, r->lineno, "rtla hist: '%s:' row without its columns", label);
        RvCyclictestThread *t = r->run->threads->pdata[th++];
        if (!ok)
            continue;
        if (g_str_equal(label, "count"))
            t->cycles = (gint64) v;
        else if (g_str_equal(label, "min"))
            t->min_us = (gint64) floor(v / r->unit);
        else if (g_str_equal(label, "avg"))
            t->avg_us = v / r->unit;
        else if (g_str_equal(label, "max"))
            t->max_us = (gint64) ceil(v / r->unit);
        else if (g_str_equal(label, "over") && v > 0)
            rv_result_cyclictest_run_note(r->run, "rtla hist: %.0f sample(s) of CPU %d beyond "
                                          "the histogram (-E)", v, cpu);
    }
    return 0;
}

/* auto-analysis lines; "## CPU 23 hit stop tracing, analyzing it ##" */
static void
aa_line(Rtla *r, const char *s)
{
    if (strstr(s, "hit stop tracing")) {
        if (!r->run->stopped || g_str_has_prefix(s, "## CPU")) {
            g_free(r->run->stopped);
            r->run->stopped = g_strdup_printf("rtla: %s", s);
            r->run->stopped_line = r->lineno;
        }
    } else if (g_str_has_prefix(s, "Thread latency:") || g_str_has_prefix(s, "IRQ latency:") ||
               g_str_has_prefix(s, "Max timerlat IRQ latency from idle:")) {
        g_autofree char *one = g_strdup(s);
        char *w = one;

        /* the analysis aligns its columns with runs of blanks */
        for (const char *q = one; *q; q++)
            if (*q != ' ' || (w > one && w[-1] != ' '))
                *w++ = *q;
        *w = '\0';
        rv_result_cyclictest_run_note(r->run, "rtla auto-analysis: %s", one);
    }
}

static int
parse_line(Rtla *r, const char *line, GError **error)
{
    const char *s = line;

    while (*s == ' ' || *s == '\t')
        s++;
    if (g_str_equal(s, "Timer Latency")) {
        g_free(r->run->mode);
        r->run->mode = g_strdup("timerlat top");
        reset_threads(r);
    } else if (g_str_equal(s, "Operating System Noise") || g_str_equal(s, "Hardware-related Noise")) {
        g_free(r->run->mode);
        r->run->mode = g_strdup("osnoise top");
        r->osnoise = TRUE;
        reset_threads(r);
        r->run->coverage = -1;
    } else if (g_str_has_prefix(s, "# RTLA ") && strstr(s, "histogram")) {
        g_free(r->run->mode);
        r->run->mode = g_strdup(strstr(s, "osnoise") ? "osnoise hist" : "timerlat hist");
        r->hist_done = FALSE;
        r->osnoise = FALSE;   /* rows are buckets now, not osnoise top rows */
        reset_threads(r);
    } else if (g_str_has_prefix(s, "# Time unit is")) {
        r->unit = strstr(s, "(ns)") ? 1000 : 1;
    } else if (g_str_has_prefix(s, "# Duration:")) {
        g_autofree char *d = g_strstrip(g_strdup(s + strlen("# Duration:")));
        r->run->duration_s = rv_result_scan_dhms(d);
    } else if (g_str_has_prefix(s, "duration:") && r->osnoise) {
        g_auto(GStrv) parts = g_strsplit(s + strlen("duration:"), "|", 2);
        r->run->duration_s = rv_result_scan_dhms(g_strstrip(parts[0]));
        r->unit = parts[1] && strstr(parts[1], "ns") ? 1000 : 1;
    } else if (g_str_has_prefix(s, "Index") && r->run->mode &&
               g_str_has_suffix(r->run->mode, " hist")) {
        /* a column header only after "# RTLA ... histogram" */
        return hist_header(r, s, error);
    } else if (g_str_has_prefix(s, "ALL:") || g_str_has_prefix(s, "ALL ")) {
        r->hist_done = r->cols->len > 0;
    } else if (r->cols->len && !r->hist_done &&
               (g_str_has_prefix(s, "over:") || g_str_has_prefix(s, "count:") ||
                g_str_has_prefix(s, "min:") || g_str_has_prefix(s, "avg:") ||
                g_str_has_prefix(s, "max:"))) {
        g_autofree char *label = g_strndup(s, strchr(s, ':') - s);
        return hist_summary(r, label, strchr(s, ':') + 1, error);
    } else if (g_strcmp0(r->run->mode, "timerlat top") == 0 && strstr(s, "Timer Latency (")) {
        top_header(r, s);
    } else if (g_strcmp0(r->run->mode, "timerlat top") == 0 && strchr(s, '|') &&
               g_ascii_isdigit(*s)) {
        return top_row(r, s, error);
    } else if (r->osnoise && g_ascii_isdigit(*s)) {
        return osnoise_row(r, s, error);
    } else {
        aa_line(r, s);
        return 0;
    }
    return 0;
}

int
rv_result_rtla_parse(const char *name, const char *data, gsize len, GPtrArray **ret_runs,
                     GError **error)
{
    g_autoptr(GPtrArray) lines = NULL;
    g_autoptr(GPtrArray) runs =
        g_ptr_array_new_with_free_func((GDestroyNotify) rv_result_cyclictest_run_free);
    g_autoptr(RvCyclictestRun) run = rv_result_cyclictest_run_new(1);
    g_autoptr(GArray) cols = g_array_new(FALSE, FALSE, sizeof(int));
    Rtla r = { .name = name, .run = run, .unit = 1, .thread_group = 2, .cols = cols };

    if (rv_result_text_lines(name, data, len, &lines, error) < 0)
        return -EINVAL;
    g_free(run->tool);
    run->tool = g_strdup("rtla");
    for (guint i = 0; i < lines->len; i++) {
        const char *line = lines->pdata[i];

        r.lineno = (int) i + 1;
        if (parse_line(&r, line, error) < 0)
            return -EINVAL;
        if (line[0])
            run->last_line = r.lineno;
    }
    if (!run->mode && !run->stopped)
        return rv_error_set(error, RV_ERROR_INVALID, EINVAL,
                            "%s: no rtla output (no top or hist header, no auto-analysis)", name);
    if (!run->mode)
        run->mode = g_strdup("timerlat top");   /* --aa-only: the analysis alone */
    if (!run->threads->len)
        run->no_result = !run->stopped;
    g_ptr_array_add(runs, g_steal_pointer(&run));
    *ret_runs = g_steal_pointer(&runs);
    return 1;
}
