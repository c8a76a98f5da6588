/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * harness/progress.h: what `rtvirt run` is doing and how long it still takes.
 *
 * On a terminal (stderr is a tty and TERM is not "dumb"): one live line,
 * redrawn every second,
 *   "[ 3/12] nosmt@busy rep 2/3: measuring 4s/10s  ETA 1m52s"
 * Otherwise (logs, CI): one plain log line per phase change, nothing else.
 *
 * The ETA is the runs left times the mean wall time of the runs finished so
 * far (their boot, warm-up, measurement and teardown); before the first run
 * ends it is the matrix's own estimate (duration + warm-up + a boot guess).
 * Skipped runs count as done and take no time.
 */
#pragma once

#include <stdbool.h>
#include <glib.h>

typedef struct RvProgress RvProgress;

/**
 * rv_harness_progress_new:
 * @total: number of runs in the plan
 * @estimate_us: expected wall time of one run in us, for the first ETA
 * @live: TRUE for the live line, FALSE for plain log lines; see
 *        rv_harness_progress_is_tty()
 */
RvProgress *rv_harness_progress_new(unsigned total, guint64 estimate_us, bool live);
/* Ends the live line (newline) and frees. */
void rv_harness_progress_free(RvProgress *p);
G_DEFINE_AUTOPTR_CLEANUP_FUNC(RvProgress, rv_harness_progress_free)

/* True when stderr is a terminal that can redraw a line. */
bool rv_harness_progress_is_tty(void);

/* A run starts: @cell is the scenario (and load) name, @rep 1-based of @reps. */
void rv_harness_progress_begin(RvProgress *p, const char *cell, unsigned rep, unsigned reps);

/* The phase of the current run ("booting", "warm-up", "measuring", ...);
 * @phase_us > 0 shows elapsed/total for timed phases. */
void rv_harness_progress_phase(RvProgress *p, const char *phase, guint64 phase_us);

/* The run ends with @status ("ok", "FAILED: reason", "SKIPPED: reason");
 * @timed: whether it took wall time that should feed the ETA. */
void rv_harness_progress_end(RvProgress *p, const char *status, bool timed);

/* A run measured before a stopped run was resumed (`run --resume`) and kept:
 * it counts as done, takes no time, and the next run is numbered after it
 * ("Run 3/8" after two kept, not "Run 1/8" again). */
void rv_harness_progress_kept(RvProgress *p);

/* Clears the live line so that a log line can be printed on its own; the
 * next tick draws it again.  No-op for plain log lines. */
void rv_harness_progress_clear(RvProgress *p);

/* "1h02m", "3m05s", "42s": @us rounded to seconds. Transfer full. */
char *rv_harness_progress_format_eta(guint64 us);
