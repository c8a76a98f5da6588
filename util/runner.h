/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * util/runner.h: the one way rtvirt starts external programs.
 *
 * argv arrays only (never a shell string), output bounded in size and the
 * run bounded in time, and a dry-run mode that records the command lines
 * instead of running them, so tests can assert what would have run.
 */
#pragma once

#include <stdbool.h>
#include <glib.h>

#include "util/cpulist.h"

typedef struct RvRunner RvRunner;

typedef struct {
    int exit_status;      /* exit code, or 128+signal when killed */
    bool timed_out;       /* the deadline passed; the child was SIGKILLed */
    bool truncated;       /* stdout or stderr exceeded max_output */
    char *out;            /* NUL-terminated stdout (at most max_output bytes) */
    gsize out_len;
    char *err;            /* NUL-terminated stderr (at most max_output bytes) */
} RvRunResult;

void rv_run_result_clear(RvRunResult *res);
G_DEFINE_AUTO_CLEANUP_CLEAR_FUNC(RvRunResult, rv_run_result_clear)

/* A runner; @dry_run records argv (see rv_runner_get_log()) and returns an
 * empty successful result instead of starting anything. */
RvRunner *rv_runner_new(bool dry_run);

/* Children started by @runner from now on begin with affinity @cpus
 * (sched_setaffinity(2) between fork and exec) instead of the calling
 * thread's mask; NULL: inherit it again.  For the host probes while
 * rtvirt's own threads are confined to housekeeping CPUs
 * (host/tune/confine.h): the probe's CPU must be in its allowed set. */
void rv_runner_set_child_cpus(RvRunner *runner, const RvCpuSet *cpus);
void rv_runner_free(RvRunner *runner);
G_DEFINE_AUTOPTR_CLEANUP_FUNC(RvRunner, rv_runner_free)

/* Command lines run or recorded so far, each argv joined with spaces
 * (shell-quoted where needed), in order. */
GPtrArray *rv_runner_get_log(RvRunner *runner);

/**
 * rv_runner_run:
 * @argv: NULL-terminated argv; argv[0] is looked up in PATH
 * @input: (nullable): bytes written to the child's stdin, then closed
 * @timeout_ms: wall-clock limit in ms (0 = none)
 * @max_output: limit per stream in bytes; the rest is read and dropped
 * @ret: (out): the result, filled also when the program exits non-zero
 * @error: (optional): RV_ERROR_FAILED when it cannot be started,
 *         RV_ERROR_TIMEOUT when the limit ran out
 *
 * A non-zero exit is not an error here: callers judge ret->exit_status.
 *
 * Returns: 0, or -errno (-ETIMEDOUT after a timeout, with @ret filled).
 */
int rv_runner_run(RvRunner *runner, const char * const *argv, const char *input,
                  guint timeout_ms, gsize max_output, RvRunResult *ret,
                  GError **error) G_GNUC_WARN_UNUSED_RESULT;

/* Convenience: run, and fail with RV_ERROR_FAILED "'<cmd>' exited with
 * status N: <first stderr line>" unless the exit status is 0.  Optional
 * @ret_out receives stdout. */
int rv_runner_run_check(RvRunner *runner, const char * const *argv, guint timeout_ms,
                        char **ret_out, GError **error) G_GNUC_WARN_UNUSED_RESULT;

/* argv joined for messages, shell-quoted where needed. */
char *rv_runner_argv_to_string(const char * const *argv);
