/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * results/cyclictest.c: cyclictest output parser (see cyclictest.h).
 *
 * Formats as printed by rt-tests 2.4 src/cyclictest/cyclictest.c
 * (print_stat: "T:%2d (%5d) P:%2d I:%ld C:%7lu Min:%7ld Act:%5ld Avg:%5ld
 * Max:%8ld" [" SMI:%8ld"]; print_hist: "%06d " rows with "%06lu" columns
 * joined by TABs, "# Total:" " %09llu", "# Min/Avg/Max Latencies:" " %05lu",
 * "# Histogram Overflows:", "# Histogram Overflow at cycle number:",
 * "# Thread %d:" " %05lu"... " # %05lu others"; with -H an extra
 * all-threads column in rows, Total, Max and Overflows but not in Min/Avg),
 * and src/lib/rt-utils.c rt_write_json() + cyclictest write_stats() for
 * --json.  rt-tests 1.x prints the same lines.
 */
#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include <json-glib/json-glib.h>

#include "util/cpulist.h"
#include "results/cyclictest.h"
#include "results/cyclictest-priv.h"
#include "results/latency-readers.h"
#include "results/store.h"
#include "util/error.h"
#include "util/file.h"

static void
thread_free(RvCyclictestThread *t)
{
    if (!t)
        return;
    rv_result_histogram_free(t->histogram);
    if (t->overflow_cycles)
        g_array_unref(t->overflow_cycles);
    g_free(t);
}

static RvCyclictestThread *
thread_new(int index)
{
    RvCyclictestThread *t = g_new0(RvCyclictestThread, 1);

    t->index = index;
    t->tid = t->priority = t->interval_us = t->cpu = t->node = -1;
    t->cycles = t->min_us = t->act_us = t->max_us = t->smi_count = -1;
    t->avg_us = NAN;
    t->histogram_total = -1;
    t->overflow_cycles = g_array_new(FALSE, FALSE, sizeof(guint64));
    return t;
}

void
rv_result_cyclictest_run_free(RvCyclictestRun *run)
{
    if (!run)
        return;
    g_free(run->version);
    g_free(run->cmdline);
    g_free(run->policy);
    g_free(run->tool);
    g_free(run->kernel_release);
    g_free(run->cmdline_prefix);
    g_free(run->stopped);
    g_free(run->cpu_list);
    g_free(run->mode);
    if (run->threads)
        g_ptr_array_unref(run->threads);
    if (run->notes)
        g_ptr_array_unref(run->notes);
    g_free(run);
}

RvCyclictestRun *
rv_result_cyclictest_run_new(int first_line)
{
    RvCyclictestRun *run = g_new0(RvCyclictestRun, 1);

    run->form = RV_CYCLICTEST_FORM_STATUS;
    run->first_line = first_line;
    run->last_line = first_line;
    run->tool = g_strdup("cyclictest");
    run->defaulted_priority = run->dma_latency_us = run->realtime = -1;
    run->duration_s = run->duration_asked_s = run->coverage = -1;
    run->threshold_us = run->below_us = run->exceeding = -1;
    run->window_us = run->width_us = run->samples_kept = -1;
    run->main_cpu = -1;
    run->threads = g_ptr_array_new_with_free_func((GDestroyNotify) thread_free);
    run->notes = g_ptr_array_new_with_free_func(g_free);
    return run;
}

RvCyclictestThread *
rv_result_cyclictest_run_thread(RvCyclictestRun *run, int index)
{
    while ((int) run->threads->len <= index)
        g_ptr_array_add(run->threads, thread_new(run->threads->len));
    return run->threads->pdata[index];
}

void
rv_result_cyclictest_run_note(RvCyclictestRun *run, const char *fmt, ...)
{
    va_list ap;

    va_start(ap, fmt);
    g_ptr_array_add(run->notes, g_strdup_vprintf(fmt, ap));
    va_end(ap);
}

/* ---- small scanners over a NUL-terminated line ---- */

static void
skip_ws(const char **p)
{
    while (**p == ' ' || **p == '\t')
        (*p)++;
}

gboolean
rv_result_cyclictest_scan_u64(const char **p, guint64 *ret)
{
    const char *s = *p;
    guint64 v = 0;

    skip_ws(&s);
    if (!g_ascii_isdigit(*s))
        return FALSE;
    while (g_ascii_isdigit(*s)) {
        guint d = *s - '0';
        if (v > (G_MAXUINT64 - d) / 10)
            return FALSE;
        v = v * 10 + d;
        s++;
    }
    *p = s;
    *ret = v;
    return TRUE;
}

static gboolean
scan_i64(const char **p, gint64 *ret)
{
    const char *s = *p;
    gboolean neg = FALSE;
    guint64 v;

    skip_ws(&s);
    if (*s == '-') {
        neg = TRUE;
        s++;
    }
    if (!rv_result_cyclictest_scan_u64(&s, &v) || v > G_MAXINT64)
        return FALSE;
    *p = s;
    *ret = neg ? -(gint64) v : (gint64) v;
    return TRUE;
}

static gboolean
scan_int(const char **p, int *ret)
{
    gint64 v;

    if (!scan_i64(p, &v) || v < G_MININT || v > G_MAXINT)
        return FALSE;
    *ret = (int) v;
    return TRUE;
}

static gboolean
scan_lit(const char **p, const char *lit)
{
    const char *s = *p;
    size_t n = strlen(lit);

    skip_ws(&s);
    if (strncmp(s, lit, n) != 0)
        return FALSE;
    *p = s + n;
    return TRUE;
}

static gboolean
at_end(const char *p)
{
    skip_ws(&p);
    return *p == '\0';
}

/* Parses a whole line of unsigned numbers; FALSE when anything else is in it. */
static gboolean
scan_u64_list(const char *p, GArray *out)
{
    guint64 v;

    while (!at_end(p)) {
        if (!rv_result_cyclictest_scan_u64(&p, &v))
            return FALSE;
        if (*p && *p != ' ' && *p != '\t')
            return FALSE;
        g_array_append_val(out, v);
    }
    return TRUE;
}

/* ---- text form ---- */

typedef enum {
    H_NONE,       /* no histogram in the current run (yet) */
    H_ROWS,       /* after "# Histogram" */
    H_SUMMARY,    /* after "# Total:" or another summary line */
    H_OUTLIERS,   /* after "# Histogram Overflow at cycle number:" */
    H_DONE,
} HistState;

typedef struct {
    const char *name;
    GPtrArray *runs;
    RvCyclictestRun *cur;
    gboolean foreign_since_t;   /* a non-cyclictest line since the last T: */
    int lineno;

    HistState hstate;
    int hist_line;
    int hist_requested;         /* -h/-H N from the command line, 0 = no */
    gboolean hist_elided;
    int elided_line;
    guint ncols;                /* columns per histogram row */
    GPtrArray *cols;            /* GArray<guint64> per column, by row index */
    guint n_rows;               /* highest row index + 1 */
    GArray *total, *min, *avg, *max, *ovf;  /* guint64 per column */
    GPtrArray *outliers;        /* GArray<guint64> per "# Thread N:" */
    GArray *others;             /* guint64 per "# Thread N:" */
    GPtrArray *vcounts;         /* -v samples: GArray<guint64> by latency, per
                                 * thread index of the current run (or NULL),
                                 * dense while parsing (MAX_CELLS bounds it),
                                 * folded into the sparse histograms at the
                                 * run's end: adding samples in a hostile
                                 * order to a sparse histogram would cost
                                 * a memmove each */
} Parser;

static void
hist_reset(Parser *ps)
{
    ps->hstate = H_NONE;
    ps->hist_elided = FALSE;
    ps->ncols = 0;
    ps->n_rows = 0;
    g_ptr_array_set_size(ps->cols, 0);
    g_array_set_size(ps->total, 0);
    g_array_set_size(ps->min, 0);
    g_array_set_size(ps->avg, 0);
    g_array_set_size(ps->max, 0);
    g_array_set_size(ps->ovf, 0);
    g_ptr_array_set_size(ps->outliers, 0);
    g_array_set_size(ps->others, 0);
}

/* The error helper proper: "NAME:LINE: message". */
#define PERR(ps, error, line, fmt, ...) \
    rv_error_set(error, RV_ERROR_INVALID, EINVAL, "%s:%d: " fmt, \
                 (ps)->name, (line), ##__VA_ARGS__)

/* Moves the histogram collected so far into the current run's threads. */
static int
hist_finish(Parser *ps, GError **error)
{
    RvCyclictestRun *run = ps->cur;
    guint nthreads;
    guint n_buckets;

    if (ps->hstate == H_NONE || ps->hstate == H_DONE)
        return 0;
    if (ps->hstate == H_ROWS)
        return PERR(ps, error, ps->lineno,
                    "truncated cyclictest histogram: '# Histogram' at line %d "
                    "is not followed by '# Total:' or '# Max Latencies:'",
                    ps->hist_line);
    if (ps->hstate == H_OUTLIERS && ps->outliers->len < ps->min->len)
        return PERR(ps, error, ps->lineno,
                    "truncated cyclictest histogram: %u of %u '# Thread N:' "
                    "overflow lines", ps->outliers->len, ps->min->len);

    /* Min/Avg never carry the -H all-threads column; rows, Total, Max and
     * Overflows do (print_hist). */
    nthreads = ps->min->len ? ps->min->len : ps->avg->len ? ps->avg->len
             : ps->outliers->len ? ps->outliers->len : ps->ncols;
    if (nthreads == 0 || nthreads > MAX_THREADS)
        return PERR(ps, error, ps->hist_line,
                    "cyclictest histogram without threads");
    if (ps->ncols && ps->ncols != nthreads && ps->ncols != nthreads + 1)
        return PERR(ps, error, ps->hist_line,
                    "cyclictest histogram has %u columns but %u threads",
                    ps->ncols, nthreads);
#define CHECK_LEN(arr, what) \
    if ((arr)->len && (arr)->len != nthreads && (arr)->len != nthreads + 1) \
        return PERR(ps, error, ps->hist_line, \
                    "cyclictest histogram: '%s' has %u values but %u threads", \
                    what, (arr)->len, nthreads)
    CHECK_LEN(ps->total, "# Total:");
    CHECK_LEN(ps->max, "# Max Latencies:");
    CHECK_LEN(ps->ovf, "# Histogram Overflows:");
    CHECK_LEN(ps->avg, "# Avg Latencies:");
#undef CHECK_LEN

    n_buckets = ps->n_rows;
    if (ps->hist_requested > 0 && (guint) ps->hist_requested > n_buckets &&
        (guint64) ps->hist_requested * nthreads <= MAX_CELLS)
        n_buckets = ps->hist_requested;
    if ((guint64) n_buckets * nthreads > MAX_CELLS)
        return PERR(ps, error, ps->hist_line, "histogram of %u threads x %u us is "
                    "larger than rtvirt accepts", nthreads, n_buckets);

    for (guint j = 0; j < nthreads; j++) {
        RvCyclictestThread *t = rv_result_cyclictest_run_thread(run, j);
        RvHistogram *h = rv_result_histogram_new(n_buckets);
        guint64 sum = 0;

        if (j < ps->cols->len) {
            GArray *col = ps->cols->pdata[j];
            for (guint i = 0; i < col->len; i++) {
                rv_result_histogram_add(h, i, g_array_index(col, guint64, i));
                sum += g_array_index(col, guint64, i);
            }
        }
        if (j < ps->ovf->len)
            h->overflows = g_array_index(ps->ovf, guint64, j);
        if (j < ps->max->len) {
            h->max_us = MIN(g_array_index(ps->max, guint64, j), (guint64) G_MAXINT64);
            t->max_us = h->max_us;
        }
        if (j < ps->min->len)
            t->min_us = MIN(g_array_index(ps->min, guint64, j), (guint64) G_MAXINT64);
        if (j < ps->avg->len)
            t->avg_us = (double) g_array_index(ps->avg, guint64, j);
        if (j < ps->total->len) {
            t->histogram_total = MIN(g_array_index(ps->total, guint64, j), (guint64) G_MAXINT64);
            t->histogram_complete = sum == (guint64) t->histogram_total;
        } else {
            t->histogram_complete = !ps->hist_elided;
        }
        if (j < ps->outliers->len) {
            GArray *o = ps->outliers->pdata[j];
            g_array_set_size(t->overflow_cycles, 0);
            g_array_append_vals(t->overflow_cycles, o->data, o->len);
            t->overflow_others = g_array_index(ps->others, guint64, j);
        }
        rv_result_histogram_free(t->histogram);
        t->histogram = h;
        if (!t->histogram_complete)
            rv_result_cyclictest_run_note(run, "thread %u: histogram incomplete: its rows add up to "
                     "%" G_GUINT64_FORMAT " of %" G_GINT64_FORMAT " samples"
                     " (rows elided)", j, sum, t->histogram_total);
    }
    if (ps->hist_elided)
        rv_result_cyclictest_run_note(run, "histogram rows elided at line %d (non-numeric line "
                 "inside the histogram)", ps->elided_line);
    run->form = RV_CYCLICTEST_FORM_HISTOGRAM;
    ps->hstate = H_DONE;
    return 0;
}

static gboolean
run_has_content(const RvCyclictestRun *run)
{
    return run && run->threads->len > 0;
}

/* Folds the -v samples of the current run into its threads' histograms,
 * in ascending order (each an append). */
static void
verbose_finish(Parser *ps)
{
    for (guint j = 0; j < ps->vcounts->len; j++) {
        GArray *c = ps->vcounts->pdata[j];
        RvHistogram *h;

        if (!c)
            continue;
        h = rv_result_cyclictest_run_thread(ps->cur, j)->histogram;
        for (guint us = 0; h && us < c->len; us++)
            rv_result_histogram_add(h, us, g_array_index(c, guint64, us));
    }
    g_ptr_array_set_size(ps->vcounts, 0);
}

/* Closes the current run (if it has anything) and starts a new one lazily. */
static int
run_finish(Parser *ps, GError **error)
{
    RvCyclictestRun *run = ps->cur;
    int r;

    if (!run)
        return 0;
    verbose_finish(ps);
    r = hist_finish(ps, error);
    if (r < 0)
        return r;
    if (run_has_content(run)) {
        gboolean has_hist = run->form == RV_CYCLICTEST_FORM_HISTOGRAM;
        run->histogram_requested = ps->hist_requested;
        if (ps->hist_requested > 0 && !has_hist) {
            run->histogram_absent = TRUE;
            rv_result_cyclictest_run_note(run, "histogram requested (-h %d) but absent: output cut "
                     "or run interrupted", ps->hist_requested);
        }
        g_ptr_array_add(ps->runs, run);
    } else {
        rv_result_cyclictest_run_free(run);
    }
    ps->cur = NULL;
    ps->foreign_since_t = FALSE;
    ps->hist_requested = 0;
    hist_reset(ps);
    return 0;
}

static RvCyclictestRun *
cur_run(Parser *ps)
{
    if (!ps->cur)
        ps->cur = rv_result_cyclictest_run_new(ps->lineno);
    return ps->cur;
}

/* Starts a new run when the current one already holds results. */
static int
boundary(Parser *ps, GError **error)
{
    if (run_has_content(ps->cur) || (ps->cur && ps->hstate != H_NONE))
        return run_finish(ps, error);
    return 0;
}

/* A command line: a token whose basename is exactly "cyclictest".  Returns
 * the text from that token on, or NULL. */
static char *
find_cmdline(const char *line)
{
    const char *p = line;

    while ((p = strstr(p, "cyclictest")) != NULL) {
        const char *end = p + strlen("cyclictest");
        gboolean start_ok = p == line || p[-1] == ' ' || p[-1] == '\t' ||
                            p[-1] == '/' || p[-1] == '#' || p[-1] == '$' ||
                            p[-1] == '"';
        if (start_ok && (*end == '\0' || *end == ' ' || *end == '\t')) {
            const char *s = p;
            while (s > line && s[-1] != ' ' && s[-1] != '\t' && s[-1] != '"')
                s--;
            return g_strstrip(g_strdup(s));
        }
        p = end;
    }
    return NULL;
}

/* "taskset -c 3 cyclictest ...": the words from "taskset" to the program,
 * which set the process's affinity mask, or NULL. */
static char *
find_cmdline_prefix(const char *line)
{
    const char *c = strstr(line, "cyclictest"), *ts;

    if (!c)
        return NULL;
    ts = g_strstr_len(line, c - line, "taskset");
    if (!ts || !(ts == line || ts[-1] == ' ' || ts[-1] == '/' || ts[-1] == '\t'))
        return NULL;
    while (ts > line && ts[-1] != ' ' && ts[-1] != '\t')
        ts--;
    while (c > ts && c[-1] != ' ' && c[-1] != '\t')
        c--;
    return g_strstrip(g_strndup(ts, c - ts));
}

/* -h N / -hN / --histogram=N / --histogram N and -H likewise; sets
 * *ret_nsecs for -N / --nsecs. */
int
rv_result_cyclictest_cmdline_histogram(const char *cmdline, gboolean *ret_nsecs)
{
    g_auto(GStrv) argv = g_strsplit_set(cmdline, " \t", -1);
    int hist = 0;

    *ret_nsecs = FALSE;
    for (int i = 0; argv[i]; i++) {
        const char *a = argv[i], *val = NULL;

        if (g_str_equal(a, "-N") || g_str_equal(a, "--nsecs"))
            *ret_nsecs = TRUE;
        if (g_str_equal(a, "-h") || g_str_equal(a, "-H") ||
            g_str_equal(a, "--histogram") || g_str_equal(a, "--histofall"))
            val = argv[i + 1];
        else if ((g_str_has_prefix(a, "-h") || g_str_has_prefix(a, "-H")) &&
                 g_ascii_isdigit(a[2]))
            val = a + 2;
        else if (g_str_has_prefix(a, "--histogram="))
            val = a + strlen("--histogram=");
        else if (g_str_has_prefix(a, "--histofall="))
            val = a + strlen("--histofall=");
        if (val && g_ascii_isdigit(*val)) {
            guint64 v = g_ascii_strtoull(val, NULL, 10);
            hist = v > MAX_BUCKETS ? (int) MAX_BUCKETS : (int) v;
        }
    }
    return hist;
}

/* "T: 0 ( 2404) P:95 I:200 C:2999375 Min: 5 Act: 22 Avg: 16 Max: 1475" */
static int
parse_status(Parser *ps, const char *line, GError **error)
{
    const char *p = line;
    int idx, tid, prio, interval;
    gint64 cycles, min, act, avg, max, smi = -1;
    RvCyclictestThread *t;
    RvCyclictestRun *run;
    int r;

    if (!(scan_lit(&p, "T:") && scan_int(&p, &idx) &&
          scan_lit(&p, "(") && scan_int(&p, &tid) && scan_lit(&p, ")") &&
          scan_lit(&p, "P:") && scan_int(&p, &prio) &&
          scan_lit(&p, "I:") && scan_int(&p, &interval) &&
          scan_lit(&p, "C:") && scan_i64(&p, &cycles) &&
          scan_lit(&p, "Min:") && scan_i64(&p, &min) &&
          scan_lit(&p, "Act:") && scan_i64(&p, &act) &&
          scan_lit(&p, "Avg:") && scan_i64(&p, &avg) &&
          scan_lit(&p, "Max:") && scan_i64(&p, &max)))
        return PERR(ps, error, ps->lineno,
                    "malformed or truncated cyclictest status line at column %d: '%s'",
                    (int) (p - line) + 1, line);
    if (scan_lit(&p, "SMI:") && !scan_i64(&p, &smi))
        return PERR(ps, error, ps->lineno, "malformed SMI count: '%s'", line);
    if (!at_end(p))
        return PERR(ps, error, ps->lineno,
                    "unexpected text after cyclictest status line at column %d: '%s'",
                    (int) (p - line) + 1, line);
    if (idx < 0 || idx >= MAX_THREADS)
        return PERR(ps, error, ps->lineno, "thread index %d out of range", idx);

    /* A thread seen again after foreign text, or after the histogram that
     * ends a run, starts the next run (two invocations in one file). */
    if (ps->cur && (ps->hstate != H_NONE ||
                    ((guint) idx < ps->cur->threads->len && ps->foreign_since_t &&
                     ((RvCyclictestThread *) ps->cur->threads->pdata[idx])->tid >= 0))) {
        r = run_finish(ps, error);
        if (r < 0)
            return r;
    }
    run = cur_run(ps);
    t = rv_result_cyclictest_run_thread(run, idx);
    t->tid = tid;
    t->priority = prio;
    t->interval_us = interval;
    t->cycles = cycles;
    t->act_us = act;
    t->smi_count = smi;
    if (cycles > 0) {
        t->min_us = min;
        t->avg_us = avg;
        t->max_us = max;
    } else {
        /* before the first cycle Min is its initial 1000000 */
        t->min_us = t->max_us = t->act_us = -1;
        t->avg_us = NAN;
    }
    ps->foreign_since_t = FALSE;
    return 0;
}

/* -v prints every sample as "thread:cycle:latency" and no status line:
 * fold the samples into the thread's counters and a histogram that grows
 * with the largest latency, not with the number of samples. */
static int
parse_verbose(Parser *ps, int idx, gint64 lat, GError **error)
{
    RvCyclictestThread *t;

    if (idx < 0 || idx >= MAX_THREADS)
        return PERR(ps, error, ps->lineno, "thread index %d out of range", idx);
    if (lat < 0 || lat >= MAX_BUCKETS)
        return PERR(ps, error, ps->lineno, "sample latency %" G_GINT64_FORMAT
                    " us out of range", lat);
    t = rv_result_cyclictest_run_thread(cur_run(ps), idx);
    if (t->tid >= 0)
        return 0;   /* a status line says it better */
    if ((guint64) (lat + 1) * ps->cur->threads->len > MAX_CELLS)
        return PERR(ps, error, ps->lineno, "sample latency %" G_GINT64_FORMAT
                    " us of %u threads is more than rtvirt accepts", lat,
                    ps->cur->threads->len);
    if (!t->histogram) {
        t->histogram = rv_result_histogram_new(0);
        t->histogram_complete = TRUE;
        t->cycles = 0;
        t->avg_us = 0;
        t->histogram_total = 0;
    }
    if ((guint64) lat >= t->histogram->n_buckets)
        rv_result_histogram_grow(t->histogram, MIN(MAX((guint) lat + 1, t->histogram->n_buckets * 2), MAX_BUCKETS));
    {
        GArray *c;
        if ((guint) idx >= ps->vcounts->len)
            g_ptr_array_set_size(ps->vcounts, idx + 1);
        if (!(c = ps->vcounts->pdata[idx]))
            c = ps->vcounts->pdata[idx] = g_array_new(FALSE, TRUE, sizeof(guint64));
        if ((guint) lat >= c->len)
            g_array_set_size(c, lat + 1);
        g_array_index(c, guint64, lat)++;
    }
    t->avg_us = (t->avg_us * t->cycles + lat) / (t->cycles + 1);
    t->cycles++;
    t->histogram_total++;
    t->min_us = t->min_us < 0 ? lat : MIN(t->min_us, lat);
    t->max_us = MAX(t->max_us, lat);
    t->histogram->max_us = t->max_us;
    t->act_us = lat;
    ps->cur->form = RV_CYCLICTEST_FORM_HISTOGRAM;
    return 0;
}

static GArray *
summary_array(Parser *ps, const char *key)
{
    if (g_str_equal(key, "Total"))
        return ps->total;
    if (g_str_equal(key, "Min Latencies"))
        return ps->min;
    if (g_str_equal(key, "Avg Latencies"))
        return ps->avg;
    if (g_str_equal(key, "Max Latencies"))
        return ps->max;
    if (g_str_equal(key, "Histogram Overflows"))
        return ps->ovf;
    return NULL;
}

/* A "# ..." line while a histogram is open.  Returns 1 when consumed. */
static int
parse_hist_comment(Parser *ps, const char *line, GError **error)
{
    const char *p = line + 1;
    const char *colon;
    g_autofree char *key = NULL;
    GArray *arr;

    skip_ws(&p);
    if (g_str_has_prefix(p, "Histogram Overflow at cycle number:")) {
        ps->hstate = H_OUTLIERS;
        return 1;
    }
    if (g_str_has_prefix(p, "Thread ") && ps->hstate == H_OUTLIERS) {
        int n;
        guint64 v, others = 0;
        GArray *list;

        p += strlen("Thread");
        if (!scan_int(&p, &n) || !scan_lit(&p, ":"))
            return PERR(ps, error, ps->lineno, "malformed overflow line: '%s'", line);
        if (n != (int) ps->outliers->len)
            return PERR(ps, error, ps->lineno,
                        "overflow line for thread %d, expected thread %u",
                        n, ps->outliers->len);
        list = g_array_new(FALSE, FALSE, sizeof(guint64));
        g_ptr_array_add(ps->outliers, list);
        while (!at_end(p)) {
            if (scan_lit(&p, "#")) {
                if (!rv_result_cyclictest_scan_u64(&p, &others) || !scan_lit(&p, "others") || !at_end(p))
                    return PERR(ps, error, ps->lineno,
                                "malformed '# NNNNN others' in: '%s'", line);
                break;
            }
            if (!rv_result_cyclictest_scan_u64(&p, &v))
                return PERR(ps, error, ps->lineno,
                            "malformed overflow cycle number at column %d: '%s'",
                            (int) (p - line) + 1, line);
            g_array_append_val(list, v);
        }
        g_array_append_val(ps->others, others);
        if (ps->min->len && ps->outliers->len == ps->min->len)
            return hist_finish(ps, error) < 0 ? -EINVAL : 1;
        return 1;
    }
    colon = strchr(p, ':');
    if (!colon)
        return 0;
    key = g_strndup(p, colon - p);
    arr = summary_array(ps, key);
    if (g_str_equal(key, "SMIs"))
        return 1;
    if (!arr)
        return 0;
    g_array_set_size(arr, 0);
    if (!scan_u64_list(colon + 1, arr))
        return PERR(ps, error, ps->lineno, "malformed '# %s:' line: '%s'", key, line);
    if (arr->len > MAX_THREADS + 1)
        return PERR(ps, error, ps->lineno, "too many values in '# %s:'", key);
    if (ps->hstate == H_ROWS)
        ps->hstate = H_SUMMARY;
    return 1;
}

static int
parse_hist_row(Parser *ps, const char *line, GError **error)
{
    g_autoptr(GArray) vals = g_array_new(FALSE, FALSE, sizeof(guint64));
    guint64 row;

    if (!scan_u64_list(line, vals) || vals->len < 2)
        return 0;
    row = g_array_index(vals, guint64, 0);
    if (row >= MAX_BUCKETS)
        return PERR(ps, error, ps->lineno, "histogram row %" G_GUINT64_FORMAT
                    " beyond %u us", row, MAX_BUCKETS);
    if ((guint64) (row + 1) * (vals->len - 1) > MAX_CELLS)
        return PERR(ps, error, ps->lineno, "histogram of %u columns up to row %"
                    G_GUINT64_FORMAT " is larger than rtvirt accepts", vals->len - 1, row);
    if (ps->ncols == 0) {
        ps->ncols = vals->len - 1;
        if (ps->ncols > MAX_THREADS + 1)
            return PERR(ps, error, ps->lineno, "too many histogram columns");
        for (guint j = 0; j < ps->ncols; j++)
            g_ptr_array_add(ps->cols, g_array_new(FALSE, TRUE, sizeof(guint64)));
    } else if (vals->len - 1 != ps->ncols) {
        return PERR(ps, error, ps->lineno,
                    "histogram row has %u columns, expected %u (truncated line?)",
                    vals->len - 1, ps->ncols);
    }
    for (guint j = 0; j < ps->ncols; j++) {
        GArray *col = ps->cols->pdata[j];
        if (col->len <= row)
            g_array_set_size(col, row + 1);
        g_array_index(col, guint64, row) = g_array_index(vals, guint64, j + 1);
    }
    ps->n_rows = MAX(ps->n_rows, (guint) row + 1);
    return 1;
}

/* Strips "\r", ANSI cursor moves ("\033[4A") and log prefixes ("| "). */
static char *
clean_line(const char *s, gsize n)
{
    GString *out = g_string_sized_new(n);
    char *r;

    for (gsize i = 0; i < n; i++) {
        if (s[i] == '\033') {
            i++;
            if (i < n && s[i] == '[') {
                i++;
                while (i < n && (g_ascii_isdigit(s[i]) || s[i] == ';'))
                    i++;
            }
            continue;  /* skips the final letter too */
        }
        if (s[i] == '\r' || s[i] == '\0')
            continue;
        g_string_append_c(out, s[i]);
    }
    r = g_strstrip(g_string_free(out, FALSE));
    if (r[0] == '|' && (r[1] == ' ' || r[1] == '\0'))
        memmove(r, r + 1, strlen(r));
    return g_strstrip(r);
}

static int
parse_line(Parser *ps, const char *line, GError **error)
{
    int r;

    if (line[0] == '\0') {
        if (ps->hstate == H_OUTLIERS)
            return hist_finish(ps, error);
        return 0;
    }

    if (ps->hstate == H_ROWS || ps->hstate == H_SUMMARY || ps->hstate == H_OUTLIERS) {
        if (line[0] == '#' && !g_str_equal(line, "# Histogram")) {
            r = parse_hist_comment(ps, line, error);
            if (r != 0)
                return r < 0 ? r : 0;
        }
        if (ps->hstate == H_ROWS && g_ascii_isdigit(line[0])) {
            r = parse_hist_row(ps, line, error);
            if (r != 0)
                return r < 0 ? r : 0;
        }
        if (ps->hstate == H_ROWS && line[0] != '#' && !g_str_has_prefix(line, "T:")) {
            /* "..." or "More histogram entries ..." edited into a paste */
            if (!ps->hist_elided)
                ps->elided_line = ps->lineno;
            ps->hist_elided = TRUE;
            return 0;
        }
        r = hist_finish(ps, error);
        if (r < 0)
            return r;
    }

    if (g_str_has_prefix(line, "T:"))
        return parse_status(ps, line, error);

    if (g_str_equal(line, "# Histogram")) {
        /* follows the status lines of its own run; a second one is the
         * next run */
        if (ps->hstate != H_NONE) {
            r = run_finish(ps, error);
            if (r < 0)
                return r;
        }
        cur_run(ps);
        ps->hstate = H_ROWS;
        ps->hist_line = ps->lineno;
        return 0;
    }
    if (g_str_has_prefix(line, "# /dev/cpu_dma_latency")) {
        /* printed once at the start of every invocation:
         * "# /dev/cpu_dma_latency set to %dus" (set_latency_target()) */
        const char *p = line + strlen("# /dev/cpu_dma_latency");
        int us;

        r = boundary(ps, error);
        if (r < 0)
            return r;
        cur_run(ps);
        if (scan_lit(&p, "set to") && scan_int(&p, &us) && us >= 0)
            ps->cur->dma_latency_us = us;
        return 0;
    }
    if (g_str_has_prefix(line, "# Break thread:") && ps->cur) {
        /* -b USEC: main() prints "# Break thread: %d" and "# Break value:
         * %llu" when a thread stopped the run above USEC */
        g_free(ps->cur->stopped);
        ps->cur->stopped = g_strdup_printf("cyclictest -b stopped the run (%s)", line + 2);
        ps->cur->stopped_line = ps->lineno;
        return 0;
    }
    if (g_str_has_prefix(line, "defaulting realtime priority to ")) {
        /* process_options() on stderr when the policy is FIFO/RR and the
         * priority 0: -p was absent, 0, or not a number */
        const char *p = line + strlen("defaulting realtime priority to");
        int prio;

        r = boundary(ps, error);
        if (r < 0)
            return r;
        if (scan_int(&p, &prio)) {
            cur_run(ps)->defaulted_priority = prio;
            ps->cur->defaulted_line = ps->lineno;
        }
        return 0;
    }
    if (g_str_has_prefix(line, "cyclictest V ")) {
        r = boundary(ps, error);
        if (r < 0)
            return r;
        g_free(cur_run(ps)->version);
        ps->cur->version = g_strstrip(g_strdup(line + strlen("cyclictest V ")));
        return 0;
    }
    if (g_str_has_prefix(line, "policy:")) {
        /* live mode repeats it on every refresh: not a boundary */
        g_auto(GStrv) f = g_strsplit(line, ":", 3);
        RvCyclictestRun *run = cur_run(ps);
        if (f[1] && !run->policy)
            run->policy = g_strstrip(g_strdup(f[1]));
        return 0;
    }
    {
        /* -v: "%8d:%8lu:%8ld" thread:cycle:latency, one per sample */
        const char *p = line;
        int a;
        gint64 b;
        gint64 lat;
        if (scan_int(&p, &a) && scan_lit(&p, ":") && scan_i64(&p, &b) &&
            scan_lit(&p, ":") && scan_i64(&p, &lat) && at_end(p))
            return parse_verbose(ps, a, lat, error);
    }
    if (g_str_has_prefix(line, "Thread ") && strstr(line, " Interval:")) {
        /* -v header: "Thread 0 Interval: 1500" */
        const char *p = line + strlen("Thread");
        int idx, iv;
        if (scan_int(&p, &idx) && scan_lit(&p, "Interval:") && scan_int(&p, &iv) &&
            at_end(p) && idx >= 0 && idx < MAX_THREADS) {
            rv_result_cyclictest_run_thread(cur_run(ps), idx)->interval_us = iv;
            return 0;
        }
    }
    {
        g_autofree char *cmd = find_cmdline(line);
        if (cmd) {
            gboolean nsecs;
            int hist = rv_result_cyclictest_cmdline_histogram(cmd, &nsecs);
            if (nsecs)
                return PERR(ps, error, ps->lineno,
                            "cyclictest ran with -N/--nsecs: values are ns, "
                            "not supported: '%s'", cmd);
            r = boundary(ps, error);
            if (r < 0)
                return r;
            g_free(cur_run(ps)->cmdline);
            ps->cur->cmdline = g_steal_pointer(&cmd);
            g_free(ps->cur->cmdline_prefix);
            ps->cur->cmdline_prefix = find_cmdline_prefix(line);
            ps->hist_requested = hist;
        }
    }
    ps->foreign_since_t = TRUE;
    return 0;
}

static int
parse_text(const char *name, const char *data, gsize len, GPtrArray **ret_runs,
           GError **error)
{
    Parser ps = { .name = name };
    g_autoptr(GPtrArray) runs =
        g_ptr_array_new_with_free_func((GDestroyNotify) rv_result_cyclictest_run_free);
    gsize pos = 0;
    int r = 0;

    ps.runs = runs;
    ps.cols = g_ptr_array_new_with_free_func((GDestroyNotify) g_array_unref);
    ps.outliers = g_ptr_array_new_with_free_func((GDestroyNotify) g_array_unref);
    ps.total = g_array_new(FALSE, FALSE, sizeof(guint64));
    ps.min = g_array_new(FALSE, FALSE, sizeof(guint64));
    ps.avg = g_array_new(FALSE, FALSE, sizeof(guint64));
    ps.max = g_array_new(FALSE, FALSE, sizeof(guint64));
    ps.ovf = g_array_new(FALSE, FALSE, sizeof(guint64));
    ps.others = g_array_new(FALSE, FALSE, sizeof(guint64));
    ps.vcounts = g_ptr_array_new_with_free_func((GDestroyNotify) g_array_unref);

    while (pos < len) {
        const char *nl = memchr(data + pos, '\n', len - pos);
        gsize n = nl ? (gsize) (nl - (data + pos)) : len - pos;
        g_autofree char *line = clean_line(data + pos, n);

        ps.lineno++;
        r = parse_line(&ps, line, error);
        if (r < 0)
            goto out;
        if (ps.cur && line[0])
            ps.cur->last_line = ps.lineno;
        pos += n + 1;
    }
    r = run_finish(&ps, error);
    if (r < 0)
        goto out;
    if (runs->len == 0) {
        r = rv_error_set(error, RV_ERROR_INVALID, EINVAL,
                         "%s: no cyclictest output (no status line, histogram "
                         "or JSON) in %d lines", name, ps.lineno);
        goto out;
    }
    r = runs->len;
    *ret_runs = g_steal_pointer(&runs);
out:
    rv_result_cyclictest_run_free(ps.cur);
    g_ptr_array_unref(ps.cols);
    g_ptr_array_unref(ps.outliers);
    g_array_unref(ps.total);
    g_array_unref(ps.min);
    g_array_unref(ps.avg);
    g_array_unref(ps.max);
    g_array_unref(ps.ovf);
    g_array_unref(ps.others);
    g_ptr_array_unref(ps.vcounts);
    return r;
}

int
rv_result_cyclictest_parse(const char *name, const char *data, gsize len,
                           GPtrArray **ret_runs, GError **error)
{
    gsize i = 0;

    while (i < len && g_ascii_isspace(data[i]))
        i++;
    if (i < len && data[i] == '{')
        return rv_result_cyclictest_parse_json(name, data, len, ret_runs, error);
    switch (rv_result_latency_form(data, len)) {
    case RV_LATENCY_FORM_OSLAT:
        return rv_result_oslat_parse(name, data, len, ret_runs, error);
    case RV_LATENCY_FORM_HWLAT:
        return rv_result_hwlat_parse(name, data, len, ret_runs, error);
    case RV_LATENCY_FORM_RTLA:
        return rv_result_rtla_parse(name, data, len, ret_runs, error);
    case RV_LATENCY_FORM_STRESSNG:
        return rv_result_stressng_parse(name, data, len, ret_runs, error);
    case RV_LATENCY_FORM_CYCLICTEST:
        break;
    }
    return parse_text(name, data, len, ret_runs, error);
}

int
rv_result_cyclictest_parse_file(const char *path, GPtrArray **ret_runs,
                                GError **error)
{
    g_autofree char *data = NULL;
    gssize len;

    /* rv_file_read(), not mmap: a directory, a device or a FIFO gets a
     * plain "Failed to read 'PATH': Is a directory" instead of mmap's
     * garbled message (or a hang) */
    len = rv_file_read(path, MAX_FILE, &data, error);
    if (len < 0)
        return (int) len;
    return rv_result_cyclictest_parse(path, data, (gsize) len, ret_runs, error);
}

gint64
rv_result_cyclictest_run_max_us(const RvCyclictestRun *run)
{
    gint64 m = -1;

    for (guint i = 0; i < run->threads->len; i++) {
        const RvCyclictestThread *t = run->threads->pdata[i];
        m = MAX(m, t->max_us);
    }
    return m;
}

int
rv_result_cyclictest_run_histogram(const RvCyclictestRun *run,
                                   RvHistogram **ret_hist, GError **error)
{
    g_autoptr(RvHistogram) h = rv_result_histogram_new(0);

    for (guint i = 0; i < run->threads->len; i++) {
        const RvCyclictestThread *t = run->threads->pdata[i];
        if (!t->histogram)
            return rv_error_set(error, RV_ERROR_INVALID, ENODATA,
                                "cyclictest thread %d has no histogram", t->index);
        if (!t->histogram_complete)
            return rv_error_set(error, RV_ERROR_INVALID, ENODATA,
                                "cyclictest thread %d has an incomplete histogram "
                                "(rows elided)", t->index);
        rv_result_histogram_merge(h, t->histogram);
    }
    if (run->threads->len == 0)
        return rv_error_set(error, RV_ERROR_INVALID, ENODATA,
                            "cyclictest run has no threads");
    *ret_hist = g_steal_pointer(&h);
    return 0;
}

/* ---- one run into a store record ---- */

/* One thread against the value rules of results/store.h, before anything
 * of the run is added: cyclictest's -1 means "not shown". */
static int
check_thread(const RvCyclictestThread *t, GError **error)
{
    const struct { const char *label; gint64 us; } lat[] = {
        { "Min", t->min_us }, { "Act", t->act_us }, { "Max", t->max_us },
    };
    g_autoptr(GError) e = NULL;

    for (guint i = 0; i < G_N_ELEMENTS(lat); i++) {
        if (lat[i].us < -1)
            return rv_error_set(error, RV_ERROR_INVALID, ERANGE,
                                "thread %d reported %s %" G_GINT64_FORMAT " us: a latency "
                                "cannot be negative", t->index, lat[i].label, lat[i].us);
        if ((double) lat[i].us > RV_STORE_METRIC_MAX)
            return rv_error_set(error, RV_ERROR_INVALID, ERANGE,
                                "thread %d reported %s %" G_GINT64_FORMAT " us: out of range "
                                "(0 to %g us)", t->index, lat[i].label, lat[i].us,
                                RV_STORE_METRIC_MAX);
    }
    if (!isnan(t->avg_us) && (!isfinite(t->avg_us) || t->avg_us < 0 ||
                              t->avg_us > RV_STORE_METRIC_MAX))
        return rv_error_set(error, RV_ERROR_INVALID, ERANGE,
                            "thread %d reported Avg %g us: out of range (0 to %g us)",
                            t->index, t->avg_us, RV_STORE_METRIC_MAX);
    if (t->cycles < -1 || (double) t->cycles > RV_STORE_METRIC_MAX)
        return rv_error_set(error, RV_ERROR_INVALID, ERANGE,
                            "thread %d reported C %" G_GINT64_FORMAT " cycles: out of range "
                            "(0 to %g)", t->index, t->cycles, RV_STORE_METRIC_MAX);
    if (t->histogram_total < -1 || t->histogram_total > RV_STORE_COUNT_MAX)
        return rv_error_set(error, RV_ERROR_INVALID, ERANGE,
                            "thread %d reported a histogram Total of %" G_GINT64_FORMAT
                            ": out of range (0 to %" G_GINT64_FORMAT ")", t->index,
                            t->histogram_total, RV_STORE_COUNT_MAX);
    if (t->histogram && rv_result_store_check_histogram(t->histogram, &e) < 0)
        return rv_error_set(error, RV_ERROR_INVALID, ERANGE,
                            "thread %d histogram: %s", t->index, e->message);
    return 0;
}

/* What the record gets from the run's threads, computed (and checked)
 * before the record is touched. */
typedef struct {
    gint64 max, min, cycles, wcycles;
    long double wsum;
    guint64 merged_total;
    gboolean all_hist;
} RecordSums;

static int
sum_threads(const RvCyclictestRun *run, RecordSums *sums, GError **error)
{
    memset(sums, 0, sizeof(*sums));
    sums->max = sums->min = -1;
    sums->all_hist = TRUE;
    for (guint i = 0; i < run->threads->len; i++) {
        const RvCyclictestThread *t = run->threads->pdata[i];
        gint64 n = 0;
        int r = check_thread(t, error);

        if (r < 0)
            return r;
        if (t->max_us > sums->max)
            sums->max = t->max_us;
        if (t->min_us >= 0 && (sums->min < 0 || t->min_us < sums->min))
            sums->min = t->min_us;
        /* -q -h output has no "C:"; the histogram counts every cycle.  Each
         * term is within the rules (check_thread), the sums are checked. */
        if (t->cycles > 0)
            n = t->cycles;
        else if (t->histogram && t->histogram_total >= 0 &&
                 __builtin_add_overflow(t->histogram_total, (gint64) t->histogram->overflows, &n))
            n = G_MAXINT64;
        if (__builtin_add_overflow(sums->cycles, n, &sums->cycles) ||
            (double) sums->cycles > RV_STORE_METRIC_MAX)
            return rv_error_set(error, RV_ERROR_INVALID, ERANGE,
                                "the threads' cycles add up to more than %g (thread %d)",
                                RV_STORE_METRIC_MAX, t->index);
        if (n > 0 && isfinite(t->avg_us)) {
            sums->wsum += (long double) t->avg_us * n;
            sums->wcycles += n;   /* <= cycles: cannot overflow */
        }
        if (t->histogram && t->histogram_complete) {
            /* each total <= 2^53 (check_thread): the sum cannot wrap */
            sums->merged_total += rv_result_histogram_total(t->histogram);
            if (sums->merged_total > (guint64) RV_STORE_COUNT_MAX)
                return rv_error_set(error, RV_ERROR_INVALID, ERANGE,
                                    "the threads' histograms add up to more than %"
                                    G_GINT64_FORMAT " samples (thread %d)",
                                    RV_STORE_COUNT_MAX, t->index);
        } else {
            sums->all_hist = FALSE;
        }
    }
    return 0;
}

static void
thread_details(JsonBuilder *b, const RvCyclictestThread *t)
{
    json_builder_begin_object(b);
#define INT_MEMBER(k, v) do { json_builder_set_member_name(b, k); \
    if ((v) >= 0) json_builder_add_int_value(b, (v)); \
    else json_builder_add_null_value(b); } while (0)
    INT_MEMBER("index", t->index);
    INT_MEMBER("tid", t->tid);
    INT_MEMBER("priority", t->priority);
    INT_MEMBER("interval_us", t->interval_us);
    INT_MEMBER("cycles", t->cycles);
    INT_MEMBER("min_us", t->min_us);
    json_builder_set_member_name(b, "avg_us");
    rv_result_store_json_add_number(b, t->avg_us);
    INT_MEMBER("max_us", t->max_us);
    INT_MEMBER("cpu", t->cpu);
    INT_MEMBER("overflows", t->histogram ? (gint64) t->histogram->overflows : -1);
#undef INT_MEMBER
    json_builder_set_member_name(b, "histogram_complete");
    json_builder_add_boolean_value(b, t->histogram && t->histogram_complete);
    json_builder_end_object(b);
}

int
rv_result_cyclictest_record_add(RvStoreRecord *rec,
                                      const RvCyclictestRun *run,
                                      GError **error)
{
    g_autoptr(JsonBuilder) b = json_builder_new();
    g_autoptr(RvHistogram) merged = rv_result_histogram_new(0);
    g_autoptr(JsonNode) details = NULL;
    RecordSums sums;
    int r;

    if (run->threads->len == 0)
        return rv_error_set(error, RV_ERROR_INVALID, ENODATA,
                            "cyclictest run has no threads to record");
    r = sum_threads(run, &sums, error);
    if (r < 0)
        return r;

    json_builder_begin_object(b);
    json_builder_set_member_name(b, "version");
    json_builder_add_string_value(b, run->version);
    json_builder_set_member_name(b, "policy");
    json_builder_add_string_value(b, run->policy);
    json_builder_set_member_name(b, "cmdline");
    json_builder_add_string_value(b, run->cmdline);
    json_builder_set_member_name(b, "threads");
    json_builder_begin_array(b);
    for (guint i = 0; i < run->threads->len; i++) {
        const RvCyclictestThread *t = run->threads->pdata[i];

        thread_details(b, t);
        if (t->histogram && t->histogram_complete) {
            g_autofree char *hname = g_strdup_printf("latency.t%d", t->index);
            rv_result_store_record_add_histogram(rec, hname, t->histogram);
            rv_result_histogram_merge(merged, t->histogram);
        }
    }
    json_builder_end_array(b);
    json_builder_set_member_name(b, "notes");
    json_builder_begin_array(b);
    for (guint i = 0; i < run->notes->len; i++)
        json_builder_add_string_value(b, run->notes->pdata[i]);
    json_builder_end_array(b);
    json_builder_end_object(b);

    if (sums.max >= 0)
        rv_result_store_record_add_metric(rec, "max_us", sums.max, "us");
    if (sums.min >= 0)
        rv_result_store_record_add_metric(rec, "min_us", sums.min, "us");
    if (sums.wcycles > 0)
        rv_result_store_record_add_metric(rec, "avg_us",
                                          (double) (sums.wsum / sums.wcycles), "us");
    if (sums.cycles > 0)
        rv_result_store_record_add_metric(rec, "cycles", sums.cycles, NULL);
    if (sums.all_hist)
        rv_result_store_record_add_histogram(rec, "latency", merged);
    details = json_builder_get_root(b);
    rv_result_store_record_set_details(rec, details);
    return 0;
}
