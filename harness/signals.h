/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * harness/signals.h: SIGINT / SIGTERM / SIGHUP during `rtvirt run`.
 *
 * The first signal asks the run to stop: the flag is set and a
 * GCancellable is cancelled, so the run loop stops at its next check and
 * blocking waits that take the cancellable return at once.  The run then
 * reverts its journal, destroys its domains and leaves the results store
 * consistent (the repetition in flight is recorded as interrupted).  A
 * second signal only repeats the notice: cleanup is never cut short by
 * another Ctrl-C; SIGKILL is what `rtvirt host revert` is for.
 *
 * Signals are received by GLib's unix signal sources in a private thread
 * (g_unix_signal_source_new(), GLib >= 2.30), so nothing unsafe runs in a
 * signal handler.
 */
#pragma once

#include <stdbool.h>
#include <gio/gio.h>

/**
 * rv_harness_signals_install:
 *
 * Starts watching SIGINT, SIGTERM and SIGHUP.  Call once, early.
 */
void rv_harness_signals_install(void);

/* Stops watching; the default dispositions come back. */
void rv_harness_signals_uninstall(void);

/* The first signal received so far, or 0. */
int rv_harness_signals_received(void);

/* Cancelled when the first signal arrives (transfer none; never NULL once
 * installed). */
GCancellable *rv_harness_signals_cancellable(void);
