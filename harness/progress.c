/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * harness/progress.c: live progress line / plain log lines.
 */
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "harness/log.h"
#include "harness/progress.h"

struct RvProgress {
    GMutex lock;
    bool live;
    unsigned total;
    unsigned done;
    unsigned timed_done;
    guint64 timed_sum_us;
    guint64 estimate_us;
    char *cell;
    unsigned rep, reps;
    char *phase;
    guint64 phase_us;
    gint64 phase_start;
    gint64 run_start;
    bool in_run;
    bool line_shown;
    GThread *ticker;
    GCond cond;
    bool stop;
};

char *
rv_harness_progress_format_eta(guint64 us)
{
    guint64 s = (us + G_USEC_PER_SEC / 2) / G_USEC_PER_SEC;

    if (s >= 3600)
        return g_strdup_printf("%" G_GUINT64_FORMAT "h%02" G_GUINT64_FORMAT "m", s / 3600,
                               (s % 3600) / 60);
    if (s >= 60)
        return g_strdup_printf("%" G_GUINT64_FORMAT "m%02" G_GUINT64_FORMAT "s", s / 60,
                               s % 60);
    return g_strdup_printf("%" G_GUINT64_FORMAT "s", s);
}

bool
rv_harness_progress_is_tty(void)
{
    const char *term = g_getenv("TERM");

    return isatty(STDERR_FILENO) && term && *term && strcmp(term, "dumb") != 0;
}

/* Time left in us: the current run's remainder plus the runs not started. */
static guint64
eta_locked(RvProgress *p)
{
    guint64 per_run = p->timed_done ? p->timed_sum_us / p->timed_done : p->estimate_us;
    unsigned left = p->total - p->done;
    guint64 eta;

    if (!p->in_run)
        return per_run * left;
    eta = per_run * (left - 1);
    {
        guint64 spent = g_get_monotonic_time() - p->run_start;

        eta += spent < per_run ? per_run - spent : 0;
    }
    return eta;
}

static void
draw_locked(RvProgress *p)
{
    g_autofree char *eta = rv_harness_progress_format_eta(eta_locked(p));
    g_autofree char *timing = NULL;
    int width = (int) g_snprintf(NULL, 0, "%u", p->total);

    if (p->phase_us) {
        guint64 el = g_get_monotonic_time() - p->phase_start;
        g_autofree char *a = rv_harness_progress_format_eta(MIN(el, p->phase_us));
        g_autofree char *b = rv_harness_progress_format_eta(p->phase_us);

        timing = g_strdup_printf(" %s/%s", a, b);
    }
    fprintf(stderr, "\r\033[K[%*u/%u] %s rep %u/%u: %s%s  ETA %s", width, p->done + 1,
            p->total, p->cell ? p->cell : "", p->rep, p->reps, p->phase ? p->phase : "",
            timing ? timing : "", eta);
    fflush(stderr);
    p->line_shown = true;
}

static void
clear_line_locked(RvProgress *p)
{
    if (p->line_shown) {
        fputs("\r\033[K", stderr);
        fflush(stderr);
        p->line_shown = false;
    }
}

static gpointer
ticker_main(gpointer data)
{
    RvProgress *p = data;

    g_mutex_lock(&p->lock);
    while (!p->stop) {
        gint64 until = g_get_monotonic_time() + G_USEC_PER_SEC;

        g_cond_wait_until(&p->cond, &p->lock, until);
        if (!p->stop && p->in_run)
            draw_locked(p);
    }
    g_mutex_unlock(&p->lock);
    return NULL;
}

RvProgress *
rv_harness_progress_new(unsigned total, guint64 estimate_us, bool live)
{
    RvProgress *p = g_new0(RvProgress, 1);

    g_mutex_init(&p->lock);
    g_cond_init(&p->cond);
    p->total = total;
    p->estimate_us = estimate_us;
    p->live = live;
    if (live)
        p->ticker = g_thread_new("rv-progress", ticker_main, p);
    return p;
}

void
rv_harness_progress_free(RvProgress *p)
{
    if (!p)
        return;
    if (p->ticker) {
        g_mutex_lock(&p->lock);
        p->stop = true;
        g_cond_signal(&p->cond);
        g_mutex_unlock(&p->lock);
        g_thread_join(p->ticker);
    }
    g_mutex_lock(&p->lock);
    clear_line_locked(p);
    g_mutex_unlock(&p->lock);
    g_mutex_clear(&p->lock);
    g_cond_clear(&p->cond);
    g_free(p->cell);
    g_free(p->phase);
    g_free(p);
}

void
rv_harness_progress_begin(RvProgress *p, const char *cell, unsigned rep, unsigned reps)
{
    g_mutex_lock(&p->lock);
    g_free(p->cell);
    p->cell = g_strdup(cell);
    p->rep = rep;
    p->reps = reps;
    g_clear_pointer(&p->phase, g_free);
    p->phase_us = 0;
    p->in_run = true;
    p->run_start = p->phase_start = g_get_monotonic_time();
    if (p->live) {
        draw_locked(p);
    } else {
        g_autofree char *eta = rv_harness_progress_format_eta(eta_locked(p));

        rv_log_info("Run %u/%u: %s, repetition %u/%u (ETA %s)", p->done + 1, p->total, cell,
                    rep, reps, eta);
    }
    g_mutex_unlock(&p->lock);
}

void
rv_harness_progress_phase(RvProgress *p, const char *phase, guint64 phase_us)
{
    g_mutex_lock(&p->lock);
    g_free(p->phase);
    p->phase = g_strdup(phase);
    p->phase_us = phase_us;
    p->phase_start = g_get_monotonic_time();
    if (p->live)
        draw_locked(p);
    else
        rv_log_debug("Run %u/%u: %s rep %u/%u: %s", p->done + 1, p->total, p->cell, p->rep,
                     p->reps, phase);
    g_mutex_unlock(&p->lock);
}

void
rv_harness_progress_end(RvProgress *p, const char *status, bool timed)
{
    g_mutex_lock(&p->lock);
    if (timed) {
        p->timed_sum_us += g_get_monotonic_time() - p->run_start;
        p->timed_done++;
    }
    p->in_run = false;
    clear_line_locked(p);
    /* The outcome of every run stays in the log, tty or not. */
    rv_log_info("Run %u/%u: %s, repetition %u/%u: %s", p->done + 1, p->total,
                p->cell ? p->cell : "", p->rep, p->reps, status);
    p->done = MIN(p->done + 1, p->total);
    g_mutex_unlock(&p->lock);
}

void
rv_harness_progress_kept(RvProgress *p)
{
    g_mutex_lock(&p->lock);
    p->done = MIN(p->done + 1, p->total);
    g_mutex_unlock(&p->lock);
}

void
rv_harness_progress_clear(RvProgress *p)
{
    if (!p)
        return;
    g_mutex_lock(&p->lock);
    clear_line_locked(p);
    g_mutex_unlock(&p->lock);
}
