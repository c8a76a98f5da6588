/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * tests/test-wait.c: cancellable sleeps (util/wait.h).  Only what can be
 * told without a clock assertion: which way a wait ended, and that a
 * cancel from another thread ends a 10-minute wait (this test would hang
 * otherwise; prove's run shows it).
 */
#include "util/wait.h"

/* Already cancelled: false at once; a deadline in the past: true. */
static void
test_immediate(void)
{
    g_autoptr(GCancellable) c = g_cancellable_new();

    g_assert_true(rv_wait_until(g_get_monotonic_time() - 1, c));
    g_assert_true(rv_wait_us(0, NULL));
    g_assert_true(rv_wait_us(1000, NULL));
    g_cancellable_cancel(c);
    g_assert_false(rv_wait_us(600 * G_USEC_PER_SEC, c));
    g_assert_false(rv_wait_until(g_get_monotonic_time() - 1, c));
    /* reset: a fresh wait runs to its deadline */
    g_cancellable_reset(c);
    g_assert_true(rv_wait_us(1000, c));
}

/* The deadline is kept: the wait does not return before it. */
static void
test_deadline(void)
{
    g_autoptr(GCancellable) c = g_cancellable_new();
    gint64 end = g_get_monotonic_time() + 30 * 1000;

    g_assert_true(rv_wait_until(end, c));
    g_assert_cmpint(g_get_monotonic_time(), >=, end);
}

static gpointer
cancel_soon(gpointer data)
{
    g_usleep(20 * 1000);
    g_cancellable_cancel(data);
    return NULL;
}

/* SIGINT's path: another thread cancels; the sleeper wakes. */
static void
test_cancel_from_thread(void)
{
    g_autoptr(GCancellable) c = g_cancellable_new();
    GThread *t = g_thread_new("cancel", cancel_soon, c);

    g_assert_false(rv_wait_us(600 * G_USEC_PER_SEC, c));
    g_thread_join(t);
    g_assert_true(g_cancellable_is_cancelled(c));
}

int
main(int argc, char **argv)
{
    g_test_init(&argc, &argv, NULL);
    g_test_add_func("/wait/immediate", test_immediate);
    g_test_add_func("/wait/deadline", test_deadline);
    g_test_add_func("/wait/cancel-from-thread", test_cancel_from_thread);
    return g_test_run();
}
