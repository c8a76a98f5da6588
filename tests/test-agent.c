/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * tests/test-agent.c: qemu-guest-agent replies (guest/agent.h).
 *
 * Real replies captured from qemu-ga 7.2 in the embedded guest
 * (tests/data/agent/, see agent.source.txt), hand-broken ones beside
 * them (bad-*.json) for what a hostile or broken guest can send, and the
 * exec/wait loops over a scripted transport: a mock only for what a real
 * agent cannot be made to do on demand (never exit, refuse, lie).
 */
#include <errno.h>
#include <string.h>

#include <json-glib/json-glib.h>

#include "guest/agent.h"
#include "util/error.h"
#include "tests/testutil.h"

static char *
read_data(const char *name)
{
    g_autofree char *path = rv_test_data_path("agent", name);

    return rv_test_read_file(path);
}

static void
parse_ok(const char *name, gsize max, bool *exited, RvGuestExecResult *res)
{
    g_autofree char *reply = read_data(name);
    g_autoptr(GError) err = NULL;

    g_assert_cmpint(rv_guest_agent_parse_status(reply, max, exited, res, &err), ==, 0);
    g_assert_no_error(err);
}

static void
test_real_cyclictest(void)
{
    g_auto(RvGuestExecResult) res = { 0 };
    bool exited = false;

    parse_ok("cyclictest-hist20.json", 1 << 20, &exited, &res);
    g_assert_true(exited);
    g_assert_cmpint(res.exit_status, ==, 0);
    g_assert_false(res.truncated);
    g_assert_cmpuint(res.out_len, ==, strlen(res.out));
    g_assert_nonnull(strstr(res.out, "# Histogram\n"));
    g_assert_nonnull(strstr(res.out, "# Max Latencies:"));
    g_assert_cmpuint(res.err_len, ==, 0);
}

static void
test_real_running(void)
{
    g_auto(RvGuestExecResult) res = { 0 };
    bool exited = true;

    parse_ok("cyclictest-hist20-running.json", 1 << 20, &exited, &res);
    g_assert_false(exited);
    g_assert_null(res.out);
}

static void
test_real_exit3(void)
{
    g_auto(RvGuestExecResult) res = { 0 };
    bool exited = false;

    parse_ok("exit3-stderr.json", 1 << 20, &exited, &res);
    g_assert_true(exited);
    g_assert_cmpint(res.exit_status, ==, 3);
    g_assert_cmpstr(res.out, ==, "to-stdout\n");
    g_assert_cmpstr(res.err, ==, "to-stderr\n");
}

static void
test_real_killed(void)
{
    g_auto(RvGuestExecResult) res = { 0 };
    bool exited = false;

    parse_ok("killed.json", 1 << 20, &exited, &res);
    g_assert_true(exited);
    g_assert_cmpint(res.exit_status, ==, 128 + 9);
}

/* Our own bound: only max_output bytes survive, flagged truncated. */
static void
test_bound(void)
{
    g_auto(RvGuestExecResult) full = { 0 };
    g_auto(RvGuestExecResult) cut = { 0 };
    bool exited = false;

    parse_ok("cyclictest-hist20.json", 1 << 20, &exited, &full);
    for (gsize max = 0; max < 12; max++) {
        g_auto(RvGuestExecResult) r = { 0 };

        parse_ok("cyclictest-hist20.json", max, &exited, &r);
        g_assert_cmpuint(r.out_len, ==, max);
        g_assert_true(r.truncated);
        g_assert_cmpint(memcmp(r.out, full.out, max), ==, 0);
        g_assert_cmpint(r.out[max], ==, '\0');
    }
    parse_ok("cyclictest-hist20.json", full.out_len, &exited, &cut);
    g_assert_false(cut.truncated);
    g_assert_cmpstr(cut.out, ==, full.out);
}

/* Each broken reply is refused with a message naming what is wrong. */
static const struct {
    const char *file;
    const char *message;
} bad[] = {
    { "bad-base64.json", "\"out-data\" is not base64" },
    { "bad-base64-padding.json", "\"err-data\" is not base64" },
    { "bad-out-data-number.json", "\"out-data\" is not a string" },
    { "bad-no-exited.json", "no boolean \"exited\"" },
    { "bad-exitcode-300.json", "guest-exec-status reply: return.exitcode: 300 is out of range (0..255)" },
    { "bad-no-exitcode.json", "exited without exitcode or signal" },
    { "bad-return-array.json", "\"return\" is not an object" },
    { "bad-not-json.json", "not a JSON object" },
    { "bad-error-reply.json", "Guest agent refused guest-exec-status: Invalid parameter 'pid'" },
    { "bad-exitcode-fraction.json", "guest-exec-status reply: return.exitcode: 1.5 is not an integer" },
    { "bad-exitcode-huge.json", "not a JSON object" },
    { "bad-signal-string.json", "return.signal: expected an integer, got a string" },
    { "bad-error-desc-control.json", "refused guest-exec-status: \\033[2J\\033]0;owned\\007 gone" },
};

static void
test_bad(gconstpointer data)
{
    guint i = GPOINTER_TO_UINT(data);
    g_autofree char *reply = read_data(bad[i].file);
    g_auto(RvGuestExecResult) res = { 0 };
    g_autoptr(GError) err = NULL;
    bool exited = false;

    g_assert_cmpint(rv_guest_agent_parse_status(reply, 1 << 20, &exited, &res, &err), <, 0);
    g_assert_nonnull(err);
    if (!strstr(err->message, bad[i].message))
        g_error("%s: got '%s', want '%s'", bad[i].file, err->message, bad[i].message);
    g_assert_null(res.out);
}

/* A hostile guest's reply nested 100000 levels deep is refused before
 * json-glib parses it (its parser recurses per level: SIGSEGV before). */
static void
test_deep(void)
{
    g_autoptr(GString) reply = g_string_new("{\"return\":");
    g_auto(RvGuestExecResult) res = { 0 };
    g_autoptr(GError) err = NULL;
    bool exited = false;

    for (int i = 0; i < 100000; i++)
        g_string_append_c(reply, '[');
    for (int i = 0; i < 100000; i++)
        g_string_append_c(reply, ']');
    g_string_append_c(reply, '}');
    g_assert_cmpint(rv_guest_agent_parse_status(reply->str, 1 << 20, &exited, &res, &err), <, 0);
    g_assert_nonnull(strstr(err->message, "not a JSON object"));
    g_assert_null(res.out);
}

/* ------------------------------------------------- scripted transport */

typedef struct {
    GPtrArray *sent;       /* commands received */
    const char **replies;  /* NULL entry: fail with an error; cycles on the last */
    guint n, next;
    gint64 at[8];          /* g_get_monotonic_time() of the first 8 commands */
    int timeout_s[8];      /* the reply timeout each of them was sent with */
} Script;

static char *
scripted(gpointer user_data, const char *cmd, int timeout_s, GError **error)
{
    Script *s = user_data;
    const char *r = s->replies[MIN(s->next, s->n - 1)];

    g_assert_cmpint(timeout_s, >, 0);
    if (s->next < G_N_ELEMENTS(s->at)) {
        s->at[s->next] = g_get_monotonic_time();
        s->timeout_s[s->next] = timeout_s;
    }
    g_ptr_array_add(s->sent, g_strdup(cmd));
    s->next++;
    if (!r) {
        rv_error_set(error, RV_ERROR_FAILED, EIO, "QEMU guest agent is not connected");
        return NULL;
    }
    return g_strdup(r);
}

static void
test_exec_script(void)
{
    const char *replies[] = {
        "{\"return\":{\"pid\":7}}",
        "{\"return\":{\"exited\":false}}",
        "{\"return\":{\"exited\":true,\"exitcode\":0,\"out-data\":\"aGVsbG8K\"}}",
    };
    Script s = { g_ptr_array_new_with_free_func(g_free), replies, 3, 0 };
    g_autoptr(RvGuestAgent) agent = rv_guest_agent_new_with_transport(scripted, &s);
    g_auto(RvGuestExecResult) res = { 0 };
    g_autoptr(GError) err = NULL;
    g_autoptr(JsonParser) p = json_parser_new();
    const char *argv[] = { "cyclictest", "-q", "a \"quoted\" arg", NULL };
    JsonObject *args;

    g_assert_cmpint(rv_guest_agent_exec(agent, argv, 60000, 0, 1024, NULL, &res, &err), ==, 0);
    g_assert_no_error(err);
    g_assert_cmpstr(res.out, ==, "hello\n");
    g_assert_cmpuint(s.sent->len, ==, 3);
    /* The command is real JSON, built with json-glib: quotes survive. */
    g_assert_true(json_parser_load_from_data(p, s.sent->pdata[0], -1, NULL));
    g_assert_cmpstr(json_object_get_string_member(json_node_get_object(json_parser_get_root(p)),
                                                  "execute"), ==, "guest-exec");
    args = json_object_get_object_member(json_node_get_object(json_parser_get_root(p)), "arguments");
    g_assert_cmpstr(json_object_get_string_member(args, "path"), ==, "cyclictest");
    g_assert_cmpstr(json_array_get_string_element(json_object_get_array_member(args, "arg"), 1),
                    ==, "a \"quoted\" arg");
    g_assert_true(json_object_get_boolean_member(args, "capture-output"));
    g_assert_nonnull(strstr(s.sent->pdata[1], "\"pid\":7"));
    g_ptr_array_unref(s.sent);
}

/* The reply timeout of guest-exec and guest-exec-status: 10 s, what the
 * session sets under TCG (120 s), and back to 10 s for <= 0. */
static void
test_exec_command_timeout(void)
{
    const char *replies[] = {
        "{\"return\":{\"pid\":7}}",
        "{\"return\":{\"exited\":true,\"exitcode\":0}}",
    };
    const char *argv[] = { "true", NULL };
    const int set[] = { 0, RV_GUEST_AGENT_CMD_TIMEOUT_TCG_S, -1 };
    const int want[] = { 10, 120, 10 };

    for (guint i = 0; i < G_N_ELEMENTS(set); i++) {
        Script s = { g_ptr_array_new_with_free_func(g_free), replies, 2, 0 };
        g_autoptr(RvGuestAgent) agent = rv_guest_agent_new_with_transport(scripted, &s);
        g_auto(RvGuestExecResult) res = { 0 };
        g_autoptr(GError) err = NULL;

        if (i)
            rv_guest_agent_set_command_timeout(agent, set[i]);
        g_assert_cmpint(rv_guest_agent_exec(agent, argv, 60000, 0, 1024, NULL, &res, &err), ==, 0);
        g_assert_no_error(err);
        g_assert_cmpuint(s.sent->len, ==, 2);
        g_assert_cmpint(s.timeout_s[0], ==, want[i]);
        g_assert_cmpint(s.timeout_s[1], ==, want[i]);
        g_ptr_array_unref(s.sent);
    }
}

/* A guest command that never ends: RV_ERROR_TIMEOUT, result marked. */
static void
test_exec_timeout(void)
{
    const char *replies[] = { "{\"return\":{\"pid\":9}}", "{\"return\":{\"exited\":false}}" };
    Script s = { g_ptr_array_new_with_free_func(g_free), replies, 2, 0 };
    g_autoptr(RvGuestAgent) agent = rv_guest_agent_new_with_transport(scripted, &s);
    g_auto(RvGuestExecResult) res = { 0 };
    g_autoptr(GError) err = NULL;
    const char *argv[] = { "sleep", "1000", NULL };

    g_assert_cmpint(rv_guest_agent_exec(agent, argv, 0, 0, 1024, NULL, &res, &err), ==, -ETIMEDOUT);
    g_assert_error(err, RV_ERROR, RV_ERROR_TIMEOUT);
    g_assert_true(res.timed_out);
    g_assert_false(res.exited);
    g_ptr_array_unref(s.sent);
}

/* A guest that returns a bogus pid is refused before any status poll. */
static void
test_exec_bad_pid(void)
{
    const char *replies[] = { "{\"return\":{\"pid\":-1}}" };
    Script s = { g_ptr_array_new_with_free_func(g_free), replies, 1, 0 };
    g_autoptr(RvGuestAgent) agent = rv_guest_agent_new_with_transport(scripted, &s);
    g_auto(RvGuestExecResult) res = { 0 };
    g_autoptr(GError) err = NULL;
    const char *argv[] = { "true", NULL };

    g_assert_cmpint(rv_guest_agent_exec(agent, argv, 1000, 0, 1024, NULL, &res, &err), <, 0);
    g_assert_error(err, RV_ERROR, RV_ERROR_FAILED);
    g_assert_nonnull(strstr(err->message, "no valid \"pid\""));
    g_assert_cmpuint(s.sent->len, ==, 1);
    g_ptr_array_unref(s.sent);
}

/* A command of known duration: no guest-exec-status before its expected
 * end plus the margin (the agent sleeps through the measured window),
 * then polls until it has exited. */
static void
test_exec_expected_end(void)
{
    const char *replies[] = {
        "{\"return\":{\"pid\":7}}",
        "{\"return\":{\"exited\":false}}",
        "{\"return\":{\"exited\":true,\"exitcode\":0}}",
    };
    Script s = { g_ptr_array_new_with_free_func(g_free), replies, 3, 0 };
    g_autoptr(RvGuestAgent) agent = rv_guest_agent_new_with_transport(scripted, &s);
    g_auto(RvGuestExecResult) res = { 0 };
    g_autoptr(GError) err = NULL;
    const char *argv[] = { "cyclictest", "-D1", NULL };

    g_assert_cmpint(rv_guest_agent_exec(agent, argv, 60000, 300, 1024, NULL, &res, &err), ==, 0);
    g_assert_no_error(err);
    g_assert_true(res.exited);
    g_assert_cmpuint(s.sent->len, ==, 3);
    /* the first status came after the expected end, not before; the
     * next one RV_GUEST_AGENT_POLL_MS later (lower bounds only) */
    g_assert_cmpint(s.at[1] - s.at[0], >=, (300 + RV_GUEST_AGENT_EXEC_MARGIN_MS) * 1000);
    g_assert_cmpint(s.at[2] - s.at[1], >=, RV_GUEST_AGENT_POLL_MS * 1000);
    g_ptr_array_unref(s.sent);
}

static gpointer
cancel_soon(gpointer data)
{
    g_usleep(20 * 1000);
    g_cancellable_cancel(data);
    return NULL;
}

/* Ctrl-C (or the domain stopping) while the agent sleeps towards a
 * 10-minute command's end: the wait ends at once, G_IO_ERROR_CANCELLED,
 * and no status was asked meanwhile. */
static void
test_exec_cancel_asleep(void)
{
    const char *replies[] = { "{\"return\":{\"pid\":9}}", "{\"return\":{\"exited\":false}}" };
    Script s = { g_ptr_array_new_with_free_func(g_free), replies, 2, 0 };
    g_autoptr(RvGuestAgent) agent = rv_guest_agent_new_with_transport(scripted, &s);
    g_autoptr(GCancellable) c = g_cancellable_new();
    g_auto(RvGuestExecResult) res = { 0 };
    g_autoptr(GError) err = NULL;
    const char *argv[] = { "cyclictest", "-D600", NULL };
    GThread *t = g_thread_new("cancel", cancel_soon, c);

    g_assert_cmpint(rv_guest_agent_exec(agent, argv, 700000, 600000, 1024, c, &res, &err), ==,
                    -ECANCELED);
    g_thread_join(t);
    g_assert_error(err, G_IO_ERROR, G_IO_ERROR_CANCELLED);
    g_assert_cmpuint(s.sent->len, ==, 1);
    g_assert_nonnull(strstr(s.sent->pdata[0], "guest-exec"));
    g_ptr_array_unref(s.sent);
}

static void
test_wait(void)
{
    const char *replies[] = { NULL, NULL, "{\"return\":{}}" };
    Script s = { g_ptr_array_new_with_free_func(g_free), replies, 3, 0 };
    g_autoptr(RvGuestAgent) agent = rv_guest_agent_new_with_transport(scripted, &s);
    g_autoptr(GError) err = NULL;

    g_assert_cmpint(rv_guest_agent_wait(agent, 600000, NULL, &err), ==, 0);
    g_assert_no_error(err);
    g_assert_cmpuint(s.sent->len, ==, 3);
    g_assert_nonnull(strstr(s.sent->pdata[0], "guest-ping"));
    g_ptr_array_unref(s.sent);
}

static void
test_wait_timeout_and_cancel(void)
{
    const char *replies[] = { NULL };
    Script s = { g_ptr_array_new_with_free_func(g_free), replies, 1, 0 };
    g_autoptr(RvGuestAgent) agent = rv_guest_agent_new_with_transport(scripted, &s);
    g_autoptr(GCancellable) c = g_cancellable_new();
    g_autoptr(GError) err = NULL;

    g_assert_cmpint(rv_guest_agent_wait(agent, 0, NULL, &err), ==, -ETIMEDOUT);
    g_assert_error(err, RV_ERROR, RV_ERROR_TIMEOUT);
    g_assert_nonnull(strstr(err->message, "QEMU guest agent is not connected"));
    g_clear_error(&err);
    g_cancellable_cancel(c);
    g_assert_cmpint(rv_guest_agent_wait(agent, 600000, c, &err), ==, -ECANCELED);
    g_assert_error(err, G_IO_ERROR, G_IO_ERROR_CANCELLED);
    g_ptr_array_unref(s.sent);
}

int
main(int argc, char **argv)
{
    g_test_init(&argc, &argv, NULL);
    g_test_add_func("/agent/real/cyclictest", test_real_cyclictest);
    g_test_add_func("/agent/real/running", test_real_running);
    g_test_add_func("/agent/real/exit3-stderr", test_real_exit3);
    g_test_add_func("/agent/bad/deep-nesting", test_deep);
    g_test_add_func("/agent/real/killed", test_real_killed);
    g_test_add_func("/agent/bound", test_bound);
    for (guint i = 0; i < G_N_ELEMENTS(bad); i++) {
        g_autofree char *path = g_strdup_printf("/agent/bad/%s", bad[i].file);

        g_test_add_data_func(path, GUINT_TO_POINTER(i), test_bad);
    }
    g_test_add_func("/agent/exec/script", test_exec_script);
    g_test_add_func("/agent/exec/timeout", test_exec_timeout);
    g_test_add_func("/agent/exec/command-timeout", test_exec_command_timeout);
    g_test_add_func("/agent/exec/bad-pid", test_exec_bad_pid);
    g_test_add_func("/agent/exec/expected-end", test_exec_expected_end);
    g_test_add_func("/agent/exec/cancel-asleep", test_exec_cancel_asleep);
    g_test_add_func("/agent/wait", test_wait);
    g_test_add_func("/agent/wait/timeout-cancel", test_wait_timeout_and_cancel);
    return g_test_run();
}
