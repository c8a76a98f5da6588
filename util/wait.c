/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * util/wait.c: cancellable sleeps in one ppoll(2) (util/wait.h).
 */
#include <errno.h>
#include <poll.h>
#include <time.h>

#include "util/wait.h"

bool
rv_wait_until(gint64 deadline, GCancellable *cancellable)
{
    GPollFD gfd = { .fd = -1 };
    bool have_fd = cancellable && g_cancellable_make_pollfd(cancellable, &gfd);

    for (;;) {
        gint64 left = deadline - g_get_monotonic_time();
        struct pollfd pfd = { .fd = gfd.fd, .events = POLLIN };
        struct timespec ts;

        if (g_cancellable_is_cancelled(cancellable) || left <= 0)
            break;
        /* without an fd (NULL; GLib has one on every Unix) a cancellable
         * is looked at every 100 ms */
        if (cancellable && !have_fd)
            left = MIN(left, (gint64) 100000);
        ts.tv_sec = (time_t) (left / G_USEC_PER_SEC);
        ts.tv_nsec = (long) (left % G_USEC_PER_SEC) * 1000;
        /* readable = cancelled (the loop's check says so); EINTR: a
         * signal handler ran, sleep on; -1 fds are ignored by ppoll */
        if (ppoll(&pfd, 1, &ts, NULL) < 0 && errno != EINTR)
            (void) nanosleep(&ts, NULL);   /* ENOMEM: sleep without the fd */
    }
    if (have_fd)
        g_cancellable_release_fd(cancellable);
    return !g_cancellable_is_cancelled(cancellable);
}

bool
rv_wait_us(guint64 us, GCancellable *cancellable)
{
    return rv_wait_until(g_get_monotonic_time() + (gint64) MIN(us, (guint64) G_MAXINT64 / 2),
                         cancellable);
}
