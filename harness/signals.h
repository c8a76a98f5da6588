/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * harness/signals.h: SIGINT / SIGTERM / SIGHUP (and SIGPIPE) during `rtvirt run`.
 *
 * The first signal asks the run to stop: the flag is set and a
 * GCancellable is cancelled, so the run loop stops at its next check and
 * blocking waits that take the cancellable return at once.  The run then
 * reverts its journal, destroys its domains and leaves the results store
 * consistent (the repetition in flight is recorded as interrupted).  A
 * second signal only repeats the notice: cleanup is never cut short by
 * another Ctrl-C; SIGKILL is what `rtvirt host revert` is for.
 *
 * SIGUSR1 and SIGUSR2, whose default action also kills, are stop requests
 * like SIGTERM.
 *
 * Signals are received by GLib's unix signal sources in a private thread
 * (g_unix_signal_source_new(), GLib >= 2.30), so nothing unsafe runs in a
 * signal handler.
 *
 * SIGPIPE and SIGXFSZ are ignored (rv_harness_signals_ignore_faults()):
 * their default action kills the process with no revert, on the first
 * write to a closed pipe (`rtvirt run M | head`), to libvirtd's socket after
 * the daemon died, or past RLIMIT_FSIZE.  Ignored, the write fails with
 * EPIPE or EFBIG instead: harness/log.h stops printing, the store reports
 * the failed write, and the run's cleanup goes on.
 */
#pragma once

#include <stdbool.h>
#include <gio/gio.h>

/**
 * rv_harness_signals_install:
 *
 * Starts watching SIGINT, SIGTERM, SIGHUP, SIGUSR1 and SIGUSR2, and ignores
 * SIGPIPE and SIGXFSZ.  Call once, early.
 */
void rv_harness_signals_install(void);

/**
 * rv_harness_signals_ignore_faults:
 *
 * Sets SIGPIPE and SIGXFSZ to SIG_IGN (signal(7): both terminate by
 * default), so that a broken pipe or a file-size limit becomes an error
 * return of write(2) (EPIPE, EFBIG).  Idempotent; rv_harness_signals_install()
 * calls it; commands that change the host call it first thing.
 */
void rv_harness_signals_ignore_faults(void);

/* Stops watching; the default dispositions come back. */
void rv_harness_signals_uninstall(void);

/* The first signal received so far, or 0. */
int rv_harness_signals_received(void);

/* Cancelled when the first signal arrives (transfer none; never NULL once
 * installed). */
GCancellable *rv_harness_signals_cancellable(void);
