/* SPDX-License-Identifier: GPL-2.0-or-later */
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <sched.h>
#include <signal.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include <gio/gio.h>
#include <gio/gunixinputstream.h>
#include <gio/gunixoutputstream.h>

#include "util/cpulist.h"
#include "util/error.h"
#include "util/runner.h"

struct RvRunner {
    bool dry_run;
    GPtrArray *log;
    cpu_set_t *child_cpus;      /* rv_runner_set_child_cpus(), or NULL */
};

void
rv_run_result_clear(RvRunResult *res)
{
    g_clear_pointer(&res->out, g_free);
    g_clear_pointer(&res->err, g_free);
    res->out_len = 0;
}

RvRunner *
rv_runner_new(bool dry_run)
{
    RvRunner *r = g_new0(RvRunner, 1);

    r->dry_run = dry_run;
    r->log = g_ptr_array_new_with_free_func(g_free);
    return r;
}

void
rv_runner_free(RvRunner *runner)
{
    if (!runner)
        return;
    g_ptr_array_unref(runner->log);
    if (runner->child_cpus)
        CPU_FREE(runner->child_cpus);
    g_free(runner);
}

GPtrArray *
rv_runner_get_log(RvRunner *runner)
{
    return runner->log;
}

char *
rv_runner_argv_to_string(const char * const *argv)
{
    GString *s = g_string_new(NULL);

    for (size_t i = 0; argv[i]; i++) {
        const char *a = argv[i];
        bool plain = *a && strspn(a, "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ"
                                     "0123456789-_./=:,+@%") == strlen(a);

        if (i)
            g_string_append_c(s, ' ');
        if (plain) {
            g_string_append(s, a);
        } else {
            g_autofree char *q = g_shell_quote(a);
            g_string_append(s, q);
        }
    }
    return g_string_free(s, FALSE);
}

static gint64
now_ms(void)
{
    return g_get_monotonic_time() / 1000;
}

/* In the child between fork and exec: only the async-signal-safe
 * sched_setaffinity(2); a refusal leaves the inherited mask (the child's
 * own check then names the CPU). */
static void
child_setup(gpointer data)
{
    const RvRunner *runner = data;

    (void) sched_setaffinity(0, RV_CPUSET_MASK_SIZE, runner->child_cpus);
}

void
rv_runner_set_child_cpus(RvRunner *runner, const RvCpuSet *cpus)
{
    if (runner->child_cpus)
        CPU_FREE(runner->child_cpus);
    runner->child_cpus = NULL;
    if (!cpus)
        return;
    runner->child_cpus = rv_cpuset_to_mask(cpus);
}

int
rv_runner_run(RvRunner *runner, const char * const *argv, const char *input,
              guint timeout_ms, gsize max_output, RvRunResult *ret, GError **error)
{
    g_autoptr(GSubprocessLauncher) launcher = NULL;
    g_autoptr(GSubprocess) proc = NULL;
    g_autoptr(GError) local = NULL;
    g_autofree char *cmd = rv_runner_argv_to_string(argv);
    GString *bufs[2] = { NULL, NULL };
    bool open_[2] = { true, true };
    int fds[2];
    gint64 deadline = timeout_ms ? now_ms() + timeout_ms : 0;
    RvRunResult res = { 0 };

    g_ptr_array_add(runner->log, g_strdup(cmd));
    if (runner->dry_run) {
        res.out = g_strdup("");
        res.err = g_strdup("");
        *ret = res;
        return 0;
    }

    launcher = g_subprocess_launcher_new(G_SUBPROCESS_FLAGS_STDOUT_PIPE |
                                         G_SUBPROCESS_FLAGS_STDERR_PIPE |
                                         (input ? G_SUBPROCESS_FLAGS_STDIN_PIPE
                                                : G_SUBPROCESS_FLAGS_STDIN_INHERIT));
    if (runner->child_cpus)
        g_subprocess_launcher_set_child_setup(launcher, child_setup, runner, NULL);
    proc = g_subprocess_launcher_spawnv(launcher, argv, &local);
    if (!proc)
        return rv_error_set(error, RV_ERROR_FAILED, ENOENT, "Failed to run '%s': %s",
                            cmd, local->message);

    if (input) {
        GOutputStream *in = g_subprocess_get_stdin_pipe(proc);
        gsize written = 0;

        /* Inputs are small (a config, a script); a child that does not read
         * them gets EPIPE, which is its failure, reported by its status. */
        (void) g_output_stream_write_all(in, input, strlen(input), &written, NULL, NULL);
        (void) g_output_stream_close(in, NULL, NULL);
    }

    fds[0] = g_unix_input_stream_get_fd(G_UNIX_INPUT_STREAM(g_subprocess_get_stdout_pipe(proc)));
    fds[1] = g_unix_input_stream_get_fd(G_UNIX_INPUT_STREAM(g_subprocess_get_stderr_pipe(proc)));
    bufs[0] = g_string_new(NULL);
    bufs[1] = g_string_new(NULL);

    while (open_[0] || open_[1]) {
        struct pollfd pfd[2];
        int nfds = 0, wait_ms = -1, r;
        int map[2];

        for (int i = 0; i < 2; i++) {
            if (!open_[i])
                continue;
            pfd[nfds].fd = fds[i];
            pfd[nfds].events = POLLIN;
            map[nfds++] = i;
        }
        if (deadline) {
            gint64 left = deadline - now_ms();
            if (left <= 0) {
                res.timed_out = true;
                break;
            }
            wait_ms = (int) MIN(left, G_MAXINT);
        }
        r = poll(pfd, nfds, wait_ms);
        if (r < 0 && errno == EINTR)
            continue;
        if (r < 0)
            break;
        for (int k = 0; k < nfds; k++) {
            char chunk[65536];
            ssize_t n;
            int i = map[k];

            if (!(pfd[k].revents & (POLLIN | POLLHUP | POLLERR)))
                continue;
            n = read(fds[i], chunk, sizeof(chunk));
            if (n < 0 && (errno == EINTR || errno == EAGAIN))
                continue;
            if (n <= 0) {
                open_[i] = false;
                continue;
            }
            if (bufs[i]->len < max_output) {
                gsize take = MIN((gsize) n, max_output - bufs[i]->len);
                g_string_append_len(bufs[i], chunk, take);
                if (take < (gsize) n)
                    res.truncated = true;
            } else {
                res.truncated = true;
            }
        }
    }

    if (res.timed_out)
        g_subprocess_force_exit(proc);
    (void) g_subprocess_wait(proc, NULL, NULL);
    if (g_subprocess_get_if_exited(proc))
        res.exit_status = g_subprocess_get_exit_status(proc);
    else if (g_subprocess_get_if_signaled(proc))
        res.exit_status = 128 + g_subprocess_get_term_sig(proc);

    res.out_len = bufs[0]->len;
    res.out = g_string_free(bufs[0], FALSE);
    res.err = g_string_free(bufs[1], FALSE);
    *ret = res;
    if (res.timed_out)
        return rv_error_set(error, RV_ERROR_TIMEOUT, ETIMEDOUT,
                            "'%s' did not finish within %u ms", cmd, timeout_ms);
    return 0;
}

int
rv_runner_run_check(RvRunner *runner, const char * const *argv, guint timeout_ms,
                    char **ret_out, GError **error)
{
    g_auto(RvRunResult) res = { 0 };
    int r = rv_runner_run(runner, argv, NULL, timeout_ms, 16u << 20, &res, error);

    if (r < 0)
        return r;
    if (res.exit_status != 0) {
        g_autofree char *cmd = rv_runner_argv_to_string(argv);
        g_autofree char *first = g_strdup(res.err ? res.err : "");
        char *nl = strchr(first, '\n');

        if (nl)
            *nl = '\0';
        return rv_error_set(error, RV_ERROR_FAILED, EIO, "'%s' exited with status %d: %s",
                            cmd, res.exit_status, *first ? first : "(no message)");
    }
    if (ret_out)
        *ret_out = g_steal_pointer(&res.out);
    return 0;
}
