/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * harness/signals.c: stop requests by signal, see harness/signals.h.
 */
#include <signal.h>
#include <glib-unix.h>

#include "harness/log.h"
#include "harness/signals.h"

static GMainContext *sig_context;
static GMainLoop *sig_loop;
static GThread *sig_thread;
static GCancellable *sig_cancellable;
static gint sig_received;   /* atomic */
static guint sig_sources[5];
static const int sig_numbers[5] = { SIGINT, SIGTERM, SIGHUP, SIGUSR1, SIGUSR2 };

static gboolean
on_signal(gpointer data)
{
    int signo = GPOINTER_TO_INT(data);

    if (g_atomic_int_compare_and_exchange(&sig_received, 0, signo)) {
        rv_log_warn("Received %s: stopping after cleanup (reverting host settings, "
                    "destroying domains)", g_strsignal(signo));
        g_cancellable_cancel(sig_cancellable);
    } else {
        rv_log_warn("Received %s again: already stopping, cleanup must finish "
                    "(after SIGKILL run 'rtvirt host revert')", g_strsignal(signo));
    }
    return G_SOURCE_CONTINUE;
}

static gpointer
sig_thread_main(gpointer data)
{
    (void) data;
    g_main_context_push_thread_default(sig_context);
    g_main_loop_run(sig_loop);
    g_main_context_pop_thread_default(sig_context);
    return NULL;
}

void
rv_harness_signals_ignore_faults(void)
{
    /* before any thread starts: the disposition is per process */
    signal(SIGPIPE, SIG_IGN);
    signal(SIGXFSZ, SIG_IGN);
}

void
rv_harness_signals_install(void)
{
    rv_harness_signals_ignore_faults();
    if (sig_thread)
        return;
    sig_cancellable = g_cancellable_new();
    sig_context = g_main_context_new();
    sig_loop = g_main_loop_new(sig_context, FALSE);
    for (guint i = 0; i < G_N_ELEMENTS(sig_numbers); i++) {
        GSource *src = g_unix_signal_source_new(sig_numbers[i]);

        g_source_set_callback(src, on_signal, GINT_TO_POINTER(sig_numbers[i]), NULL);
        sig_sources[i] = g_source_attach(src, sig_context);
        g_source_unref(src);
    }
    sig_thread = g_thread_new("rv-signals", sig_thread_main, NULL);
}

static gboolean
quit_loop(gpointer data)
{
    g_main_loop_quit(data);
    return G_SOURCE_REMOVE;
}

void
rv_harness_signals_uninstall(void)
{
    if (!sig_thread)
        return;
    for (guint i = 0; i < G_N_ELEMENTS(sig_sources); i++) {
        GSource *src = g_main_context_find_source_by_id(sig_context, sig_sources[i]);

        if (src)
            g_source_destroy(src);
    }
    g_main_context_invoke(sig_context, quit_loop, sig_loop);
    g_thread_join(sig_thread);
    sig_thread = NULL;
    g_main_loop_unref(sig_loop);
    g_main_context_unref(sig_context);
    g_clear_object(&sig_cancellable);
    sig_loop = NULL;
    sig_context = NULL;
}

int
rv_harness_signals_received(void)
{
    return g_atomic_int_get(&sig_received);
}

GCancellable *
rv_harness_signals_cancellable(void)
{
    return sig_cancellable;
}
