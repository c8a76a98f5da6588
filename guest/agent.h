/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * guest/agent.h: run a command inside a guest through qemu-guest-agent.
 *
 * Protocol: QEMU Guest Agent protocol reference (qemu-ga-ref(7)):
 * guest-ping, guest-exec {path, arg, capture-output} -> {pid},
 * guest-exec-status {pid} -> {exited, exitcode, signal, out-data, err-data,
 * out-truncated, err-truncated}, out-data/err-data base64 (RFC 4648).
 * Transport: virDomainQemuAgentCommand() (libvirt-qemu), which frames the
 * JSON over the virtio-serial channel org.qemu.guest_agent.0.
 *
 * Everything the guest sends is untrusted: replies are size-checked before
 * parsing, base64 is validated character by character before decoding,
 * the decoded output is bounded, and every wait is bounded in time.
 * The JSON is parsed and built with json-glib.
 */
#pragma once

#include <stdbool.h>
#include <gio/gio.h>
#include <libvirt/libvirt.h>

/* Replies larger than this are refused before parsing (qemu-ga's own
 * guest-exec buffer is 16 MiB per stream, base64 makes it 4/3). */
#define RV_GUEST_AGENT_MAX_REPLY (48u << 20)

typedef struct {
    int exit_status;     /* exit code, or 128+signal when killed by one */
    bool exited;         /* false after a timeout */
    bool timed_out;
    bool truncated;      /* qemu-ga or our bound cut the output */
    char *out;           /* NUL-terminated stdout (binary may contain NULs) */
    gsize out_len;
    char *err;           /* NUL-terminated stderr */
    gsize err_len;
} RvGuestExecResult;

void rv_guest_exec_result_clear(RvGuestExecResult *res);
G_DEFINE_AUTO_CLEANUP_CLEAR_FUNC(RvGuestExecResult, rv_guest_exec_result_clear)

/* How replies reach the parser: the real agent (virDomainQemuAgentCommand)
 * or a test double.  Returns the reply JSON or NULL with @error set. */
typedef char *(*RvGuestAgentTransport)(gpointer user_data, const char *cmd, int timeout_s,
                                       GError **error);

typedef struct RvGuestAgent RvGuestAgent;

/* An agent on @dom (not owned; must outlive the agent). */
RvGuestAgent *rv_guest_agent_new(virDomainPtr dom);
/* An agent over a custom transport (tests). */
RvGuestAgent *rv_guest_agent_new_with_transport(RvGuestAgentTransport fn, gpointer user_data);
void rv_guest_agent_free(RvGuestAgent *agent);
G_DEFINE_AUTOPTR_CLEANUP_FUNC(RvGuestAgent, rv_guest_agent_free)

/* Seconds libvirt waits for one reply of guest-exec and guest-exec-status
 * (virDomainQemuAgentCommand's timeout; past it libvirt reports "Guest
 * agent is not responding: Guest agent not available for now"): 10 s
 * under KVM; RV_GUEST_AGENT_CMD_TIMEOUT_TCG_S under TCG, where a guest
 * nested under TCG in a TCG host (the lab host, `make lab-host-check`)
 * beside a busy neighbour took longer than 10 s to answer. */
#define RV_GUEST_AGENT_CMD_TIMEOUT_S 10
#define RV_GUEST_AGENT_CMD_TIMEOUT_TCG_S 120

/* Sets that reply timeout, s (<= 0: the default). */
void rv_guest_agent_set_command_timeout(RvGuestAgent *agent, int timeout_s);

/**
 * rv_guest_agent_wait:
 * @timeout_ms: how long to keep trying guest-ping
 * @cancellable: (nullable): stops the wait (Ctrl-C)
 * @error: (optional): RV_ERROR_TIMEOUT "The guest agent did not answer
 *         within N ms: LAST-ERROR"; G_IO_ERROR_CANCELLED when cancelled
 *
 * Polls guest-ping every 50 ms until the agent answers.
 *
 * Returns: 0 or -errno (-ETIMEDOUT, -ECANCELED).
 */
int rv_guest_agent_wait(RvGuestAgent *agent, guint timeout_ms, GCancellable *cancellable,
                        GError **error) G_GNUC_WARN_UNUSED_RESULT;

/* guest-exec-status timing of rv_guest_agent_exec(), ms: the first status
 * request RV_GUEST_AGENT_EXEC_MARGIN_MS after the expected end (the
 * command's start in the guest), then one every RV_GUEST_AGENT_POLL_MS;
 * every RV_GUEST_AGENT_POLL_UNKNOWN_MS from the start when the duration
 * is not known.  Both short: the host sees the command's end only at the
 * status that finds it exited, and that delay widens the spike
 * attribution's alignment error (results/attribution.h: half the exec
 * window's slack). */
#define RV_GUEST_AGENT_EXEC_MARGIN_MS 20
#define RV_GUEST_AGENT_POLL_MS 20
#define RV_GUEST_AGENT_POLL_UNKNOWN_MS 100

/**
 * rv_guest_agent_exec:
 * @argv: NULL-terminated; argv[0] is looked up in the guest's PATH
 * @timeout_ms: wall-clock limit for the command in ms
 * @expect_ms: how long the command runs by itself, ms (its own duration:
 *             cyclictest -D, sysbench --time); 0 = not known
 * @max_output: limit per stream in bytes after decoding; more is cut and
 *              @ret->truncated set
 * @cancellable: (nullable): ends the wait at once (Ctrl-C; guest/session.h
 *               cancels it when the domain stops or libvirt is lost)
 * @ret: (out): the result, also filled after a timeout (exited = false)
 * @error: (optional): RV_ERROR_FAILED for a refused command or a malformed
 *         reply (naming the field), RV_ERROR_TIMEOUT after @timeout_ms,
 *         G_IO_ERROR_CANCELLED when cancelled
 *
 * guest-exec with capture-output, then guest-exec-status.  With
 * @expect_ms the thread sleeps (util/wait.h: no wake-up, no agent round
 * trip through libvirtd, QEMU and qemu-ga while the guest measures) until
 * @expect_ms + RV_GUEST_AGENT_EXEC_MARGIN_MS after guest-exec, then asks
 * every RV_GUEST_AGENT_POLL_MS; without, it asks every
 * RV_GUEST_AGENT_POLL_UNKNOWN_MS from the start; never past @timeout_ms.
 * A command that ends before @expect_ms is seen at the expected end only.
 * qemu-ga has no way to kill the process: after a timeout the caller
 * tears the guest down.  A non-zero exit is not an error.
 *
 * Returns: 0 or -errno (-ETIMEDOUT, -ECANCELED, -EIO, -EPROTO).
 */
int rv_guest_agent_exec(RvGuestAgent *agent, const char * const *argv, guint timeout_ms,
                        guint expect_ms, gsize max_output, GCancellable *cancellable,
                        RvGuestExecResult *ret, GError **error) G_GNUC_WARN_UNUSED_RESULT;

/**
 * rv_guest_agent_parse_status:
 * @reply: a guest-exec-status reply ({"return": {...}})
 * @max_output: decoded bytes kept per stream
 * @ret_exited: (out): whether the process has exited
 * @ret: (out): filled when exited
 * @error: (optional): RV_ERROR_FAILED "Malformed guest-exec-status reply:
 *         WHY"
 *
 * The pure part of rv_guest_agent_exec(), for tests and fuzzing.
 *
 * Returns: 0 or -EPROTO.
 */
int rv_guest_agent_parse_status(const char *reply, gsize max_output, bool *ret_exited,
                                RvGuestExecResult *ret, GError **error) G_GNUC_WARN_UNUSED_RESULT;
