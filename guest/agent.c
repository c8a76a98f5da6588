/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * guest/agent.c: in-guest commands through qemu-guest-agent (guest/agent.h).
 */
#include <errno.h>
#include <string.h>

#include <json-glib/json-glib.h>
#include <libvirt/libvirt-qemu.h>
#include <libvirt/virterror.h>

#include "guest/agent.h"
#include "guest/libvirt.h"
#include "util/error.h"
#include "util/escape.h"
#include "util/json.h"
#include "util/wait.h"

struct RvGuestAgent {
    RvGuestAgentTransport fn;
    gpointer user_data;
    int cmd_timeout_s;          /* seconds libvirt waits for one reply */
};

static char *
libvirt_transport(gpointer user_data, const char *cmd, int timeout_s, GError **error)
{
    virDomainPtr dom = user_data;
    /* Every libvirt call resets the last error: take the name first. */
    g_autofree char *name = g_strdup(virDomainGetName(dom));
    char *reply = virDomainQemuAgentCommand(dom, cmd, timeout_s, 0);

    if (!reply)
        rv_guest_libvirt_error(error, EIO, "Guest agent command failed in domain '%s'", name);
    return reply;
}

RvGuestAgent *
rv_guest_agent_new(virDomainPtr dom)
{
    return rv_guest_agent_new_with_transport(libvirt_transport, dom);
}

RvGuestAgent *
rv_guest_agent_new_with_transport(RvGuestAgentTransport fn, gpointer user_data)
{
    RvGuestAgent *a = g_new0(RvGuestAgent, 1);

    a->fn = fn;
    a->user_data = user_data;
    a->cmd_timeout_s = RV_GUEST_AGENT_CMD_TIMEOUT_S;
    return a;
}

void
rv_guest_agent_set_command_timeout(RvGuestAgent *agent, int timeout_s)
{
    agent->cmd_timeout_s = timeout_s > 0 ? timeout_s : RV_GUEST_AGENT_CMD_TIMEOUT_S;
}

void
rv_guest_agent_free(RvGuestAgent *agent)
{
    g_free(agent);
}

void
rv_guest_exec_result_clear(RvGuestExecResult *res)
{
    g_clear_pointer(&res->out, g_free);
    g_clear_pointer(&res->err, g_free);
    res->out_len = res->err_len = 0;
}

static char *
build_cmd(const char *execute, JsonNode *arguments)
{
    g_autoptr(JsonBuilder) b = json_builder_new();
    g_autoptr(JsonGenerator) gen = json_generator_new();
    g_autoptr(JsonNode) root = NULL;

    json_builder_begin_object(b);
    json_builder_set_member_name(b, "execute");
    json_builder_add_string_value(b, execute);
    if (arguments) {
        json_builder_set_member_name(b, "arguments");
        json_builder_add_value(b, arguments);   /* takes ownership */
    }
    json_builder_end_object(b);
    root = json_builder_get_root(b);
    json_generator_set_root(gen, root);
    return json_generator_to_data(gen, NULL);
}

/* Parses @reply and returns its "return" member (owned by @parser). */
static JsonNode *
reply_return(JsonParser *parser, const char *what, const char *reply, GError **error)
{
    JsonNode *root, *ret;
    JsonObject *o;
    gsize len = strlen(reply);

    if (len > RV_GUEST_AGENT_MAX_REPLY) {
        rv_error_set(error, RV_ERROR_FAILED, EMSGSIZE,
                     "Malformed %s reply: %zu bytes, more than the %u allowed", what, len,
                     RV_GUEST_AGENT_MAX_REPLY);
        return NULL;
    }
    /* qemu-ga runs inside the guest: its replies are untrusted (depth,
     * integer literals: util/json.h) */
    if (rv_json_parse_untrusted(parser, what, reply, len, RV_JSON_MAX_DEPTH, &root, NULL) < 0 ||
        !root || !JSON_NODE_HOLDS_OBJECT(root)) {
        rv_error_set(error, RV_ERROR_FAILED, EPROTO, "Malformed %s reply: not a JSON object", what);
        return NULL;
    }
    o = json_node_get_object(root);
    if (json_object_has_member(o, "error")) {
        JsonNode *e = json_object_get_member(o, "error");
        const char *desc = NULL;
        g_autofree char *esc = NULL;

        if (JSON_NODE_HOLDS_OBJECT(e) &&
            rv_json_node_get_string(json_object_get_member(json_node_get_object(e), "desc"),
                                    "desc", &desc, NULL) < 0)
            desc = NULL;
        /* the guest's words: no raw control bytes in our messages */
        esc = desc ? rv_escape_value(desc) : NULL;
        rv_error_set(error, RV_ERROR_FAILED, EIO, "Guest agent refused %s: %s", what,
                     esc ? esc : "(no description)");
        return NULL;
    }
    ret = json_object_get_member(o, "return");
    if (!ret) {
        rv_error_set(error, RV_ERROR_FAILED, EPROTO, "Malformed %s reply: no \"return\"", what);
        return NULL;
    }
    return ret;
}

int
rv_guest_agent_wait(RvGuestAgent *agent, guint timeout_ms, GCancellable *cancellable,
                    GError **error)
{
    gint64 deadline = g_get_monotonic_time() + (gint64) timeout_ms * 1000;
    g_autofree char *cmd = build_cmd("guest-ping", NULL);

    for (;;) {
        g_autoptr(GError) local = NULL;
        g_autofree char *reply = agent->fn(agent->user_data, cmd, 2, &local);

        if (reply) {
            g_autoptr(JsonParser) parser = json_parser_new();

            if (reply_return(parser, "guest-ping", reply, &local))
                return 0;
        }
        if (g_cancellable_set_error_if_cancelled(cancellable, error))
            return -ECANCELED;
        if (g_get_monotonic_time() > deadline)
            return rv_error_set(error, RV_ERROR_TIMEOUT, ETIMEDOUT,
                                "The guest agent did not answer within %u ms: %s", timeout_ms,
                                local ? local->message : "no reply");
        g_usleep(50 * 1000);
    }
}

static bool
base64_valid(const char *s, gsize len)
{
    gsize pad = 0;

    if (len % 4)
        return false;
    for (gsize i = 0; i < len; i++) {
        char c = s[i];

        if (c == '=') {
            pad++;
            continue;
        }
        if (pad || !(g_ascii_isalnum(c) || c == '+' || c == '/'))
            return false;
    }
    return pad <= 2;
}

/* Decodes the base64 member @key of @o into a NUL-terminated buffer of at
 * most @max bytes. */
static int
decode_stream(JsonObject *o, const char *key, gsize max, char **ret, gsize *ret_len,
              bool *truncated, GError **error)
{
    JsonNode *n = json_object_get_member(o, key);
    const char *s;
    gsize len, keep;
    g_autofree char *copy = NULL;
    guchar *bin;
    gsize bin_len = 0;

    if (!n) {
        *ret = g_strdup("");
        *ret_len = 0;
        return 0;
    }
    if (!JSON_NODE_HOLDS_VALUE(n) || json_node_get_value_type(n) != G_TYPE_STRING)
        return rv_error_set(error, RV_ERROR_FAILED, EPROTO,
                            "Malformed guest-exec-status reply: \"%s\" is not a string", key);
    s = json_node_get_string(n);
    len = strlen(s);
    if (!base64_valid(s, len))
        return rv_error_set(error, RV_ERROR_FAILED, EPROTO,
                            "Malformed guest-exec-status reply: \"%s\" is not base64", key);
    keep = len;
    /* Exact decoded size: 3 bytes per 4 chars, less the '=' padding. */
    if (len / 4 * 3 - (len && s[len - 1] == '=') - (len > 1 && s[len - 2] == '=') > max) {
        keep = (max + 2) / 3 * 4;
        *truncated = true;
    }
    if (keep == 0) {   /* g_base64_decode_inplace() wants >= 2 chars */
        *ret = g_strdup("");
        *ret_len = 0;
        return 0;
    }
    copy = g_strndup(s, keep);
    bin = g_base64_decode_inplace(copy, &bin_len);
    if (bin_len > max) {
        bin_len = max;
        *truncated = true;
    }
    *ret = g_malloc(bin_len + 1);
    memcpy(*ret, bin, bin_len);
    (*ret)[bin_len] = '\0';
    *ret_len = bin_len;
    return 0;
}

int
rv_guest_agent_parse_status(const char *reply, gsize max_output, bool *ret_exited,
                            RvGuestExecResult *ret, GError **error)
{
    g_autoptr(JsonParser) parser = json_parser_new();
    g_auto(RvGuestExecResult) res = { 0 };
    JsonNode *rn = reply_return(parser, "guest-exec-status", reply, error);
    const RvJsonAt at = { "guest-exec-status reply", "return" };
    g_autoptr(GError) local = NULL;
    gint64 sig = -1, code = -1;
    bool exited = false, out_trunc = false, err_trunc = false;
    JsonObject *o;
    int r;

    if (!rn)
        return -EPROTO;
    if (!JSON_NODE_HOLDS_OBJECT(rn))
        return rv_error_set(error, RV_ERROR_FAILED, EPROTO,
                            "Malformed guest-exec-status reply: \"return\" is not an object");
    o = json_node_get_object(rn);
    if (rv_json_get_bool(o, &at, "exited", &exited, NULL) < 0)
        return rv_error_set(error, RV_ERROR_FAILED, EPROTO,
                            "Malformed guest-exec-status reply: no boolean \"exited\"");
    if (!exited) {
        *ret_exited = false;
        return 0;
    }
    res.exited = true;
    /* util/json.h's rule for the guest's numbers (integral, in range; a
     * member of the wrong type is an error, not absent); a malformed reply
     * stays a failed operation (RV_ERROR_FAILED, EPROTO) */
    if ((r = rv_json_get_int_opt(o, &at, "signal", 0, 127, &sig, &local)) < 0 ||
        (r == 0 && rv_json_get_int_opt(o, &at, "exitcode", 0, 255, &code, &local) < 0) ||
        rv_json_get_bool_opt(o, &at, "out-truncated", &out_trunc, &local) < 0 ||
        rv_json_get_bool_opt(o, &at, "err-truncated", &err_trunc, &local) < 0)
        return rv_error_set(error, RV_ERROR_FAILED, EPROTO, "Malformed %s", local->message);
    if (sig >= 0)
        res.exit_status = 128 + (int) sig;
    else if (code >= 0)
        res.exit_status = (int) code;
    else
        return rv_error_set(error, RV_ERROR_FAILED, EPROTO,
                            "Malformed guest-exec-status reply: exited without exitcode or signal");
    res.truncated = out_trunc || err_trunc;
    r = decode_stream(o, "out-data", max_output, &res.out, &res.out_len, &res.truncated, error);
    if (r < 0)
        return r;
    r = decode_stream(o, "err-data", max_output, &res.err, &res.err_len, &res.truncated, error);
    if (r < 0)
        return r;
    *ret_exited = true;
    *ret = res;
    memset(&res, 0, sizeof(res));
    return 0;
}

/* When to ask guest-exec-status next: at the expected end (@start +
 * @expect_ms + the margin) first, then every RV_GUEST_AGENT_POLL_MS; with
 * no expectation every RV_GUEST_AGENT_POLL_UNKNOWN_MS; never past
 * @deadline (where the timeout is told). */
static gint64
next_status_time(gint64 start, guint expect_ms, gint64 deadline, bool first)
{
    gint64 t = g_get_monotonic_time();

    if (expect_ms && first)
        t = start + ((gint64) expect_ms + RV_GUEST_AGENT_EXEC_MARGIN_MS) * 1000;
    else if (!first)
        t += (expect_ms ? RV_GUEST_AGENT_POLL_MS : RV_GUEST_AGENT_POLL_UNKNOWN_MS) * 1000;
    return MIN(t, deadline);
}

int
rv_guest_agent_exec(RvGuestAgent *agent, const char * const *argv, guint timeout_ms,
                    guint expect_ms, gsize max_output, GCancellable *cancellable,
                    RvGuestExecResult *ret, GError **error)
{
    g_autoptr(JsonBuilder) b = json_builder_new();
    g_autoptr(JsonParser) parser = json_parser_new();
    g_autofree char *cmd = NULL, *reply = NULL, *status_cmd = NULL;
    gint64 start = g_get_monotonic_time();
    gint64 deadline = start + (gint64) timeout_ms * 1000;
    const RvJsonAt at = { "guest-exec reply", "return" };
    JsonNode *rn;
    gint64 pid;

    json_builder_begin_object(b);
    json_builder_set_member_name(b, "path");
    json_builder_add_string_value(b, argv[0]);
    json_builder_set_member_name(b, "arg");
    json_builder_begin_array(b);
    for (guint i = 1; argv[i]; i++)
        json_builder_add_string_value(b, argv[i]);
    json_builder_end_array(b);
    json_builder_set_member_name(b, "capture-output");
    json_builder_add_boolean_value(b, TRUE);
    json_builder_end_object(b);
    cmd = build_cmd("guest-exec", json_builder_get_root(b));

    reply = agent->fn(agent->user_data, cmd, agent->cmd_timeout_s, error);
    if (!reply)
        return -EIO;
    rn = reply_return(parser, "guest-exec", reply, error);
    if (!rn)
        return -EPROTO;
    if (!JSON_NODE_HOLDS_OBJECT(rn) ||
        rv_json_get_int(json_node_get_object(rn), &at, "pid", 1, G_MAXINT, &pid, NULL) < 0)
        return rv_error_set(error, RV_ERROR_FAILED, EPROTO,
                            "Malformed guest-exec reply: no valid \"pid\"");

    {
        g_autoptr(JsonBuilder) sb = json_builder_new();

        json_builder_begin_object(sb);
        json_builder_set_member_name(sb, "pid");
        json_builder_add_int_value(sb, pid);
        json_builder_end_object(sb);
        status_cmd = build_cmd("guest-exec-status", json_builder_get_root(sb));
    }

    for (bool first = true;; first = false) {
        g_autofree char *st = NULL;
        bool exited = false;
        int r;

        /* asleep until the command should be done: no agent round trip
         * (libvirtd, QEMU's main loop, qemu-ga in the guest) in the
         * measured window; a cancel (Ctrl-C, the domain stopped, libvirt
         * lost) wakes it at once */
        if (!rv_wait_until(next_status_time(start, expect_ms, deadline, first), cancellable)) {
            g_cancellable_set_error_if_cancelled(cancellable, error);
            return -ECANCELED;
        }
        st = agent->fn(agent->user_data, status_cmd, agent->cmd_timeout_s, error);
        if (!st)
            return -EIO;
        r = rv_guest_agent_parse_status(st, max_output, &exited, ret, error);
        if (r < 0)
            return r;
        if (exited)
            return 0;
        if (g_cancellable_set_error_if_cancelled(cancellable, error))
            return -ECANCELED;
        if (g_get_monotonic_time() > deadline) {
            memset(ret, 0, sizeof(*ret));
            ret->timed_out = true;
            ret->exit_status = -1;
            return rv_error_set(error, RV_ERROR_TIMEOUT, ETIMEDOUT,
                                "Guest command '%s' (pid %" G_GINT64_FORMAT ") did not finish within %u ms",
                                argv[0], pid, timeout_ms);
        }
    }
}
