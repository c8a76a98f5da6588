/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * util/wait.h: sleeping that a GCancellable ends at once, without waking
 * up in between.
 *
 * Why: a measurement tool must not disturb what it measures.
 *  A "sleep 100 ms, check the flag" loop wakes its thread ten
 * times a second for the whole measured window; these sleep in one
 * ppoll(2) on the cancellable's file descriptor (g_cancellable_make_pollfd(),
 * an eventfd that g_cancellable_cancel() makes readable, from any thread)
 * until the deadline, so the thread runs again only when the time is up or
 * when someone cancels.
 */
#pragma once

#include <stdbool.h>
#include <gio/gio.h>

/**
 * rv_wait_until:
 * @deadline: CLOCK_MONOTONIC time in us (g_get_monotonic_time()) to sleep
 *            until; one in the past returns at once
 * @cancellable: (nullable): ends the sleep when cancelled (also when it
 *               was cancelled before the call); NULL = a plain sleep
 *
 * Sleeps until @deadline or until @cancellable is cancelled, whichever
 * comes first; a signal handler that interrupts the sleep (EINTR) does
 * not end it.
 *
 * Returns: false when @cancellable is cancelled, else true.
 */
bool rv_wait_until(gint64 deadline, GCancellable *cancellable);

/**
 * rv_wait_us:
 * @us: how long to sleep, us
 * @cancellable: (nullable): as for rv_wait_until()
 *
 * rv_wait_until(now + @us, @cancellable).
 *
 * Returns: false when @cancellable is cancelled, else true.
 */
bool rv_wait_us(guint64 us, GCancellable *cancellable);
