/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * guest/session.h: one RT guest from boot to teardown, as a library.
 *
 *   rv_guest_session_start()  build/find the embedded image (or the built
 *                             disk image and a fresh overlay), place the
 *                             guest, choose kvm or TCG, start a transient
 *                             auto-destroyed domain, wait for the agent,
 *                             verify the vCPU/emulator threads
 *   rv_guest_session_exec()   run a workload command inside, bounded
 *   rv_guest_session_free()   destroy the domain, close the connection
 *
 * `rtvirt guest run` and each repetition of `rtvirt run` use it.  Nothing
 * here prints: what a user should know is in the session's fields
 * (virt_reason, findings, verification, untrusted).
 *
 * Virtualization type (virt=kvm|tcg): with RV_GUEST_VIRT_REQUEST_AUTO,
 * kvm is tried when libvirt's domain capabilities offer it; a kvm guest
 * that does not answer the agent within the probe time (nested setups
 * where /dev/kvm opens but guests hang) is destroyed and the guest starts
 * again under TCG.  The outcome is cached per QEMU binary, host kernel and
 * image in CACHE/virt-probe.json, so only the first session pays the probe.
 * Under TCG the latencies are emulation artefacts (milliseconds): the
 * session is marked untrusted with that finding, never presented as RT.
 *
 * Faults end a session at once, with the reason, instead of a timeout:
 * libvirt's events run in a GLib main loop (guest/libvirt.h
 * rv_guest_libvirt_events_start()); a lifecycle event (virConnectDomain
 * EventRegisterAny(), VIR_DOMAIN_EVENT_ID_LIFECYCLE: stopped, crashed,
 * shut down) or the connection's close callback (virConnectRegister
 * CloseCallback(): libvirtd died, or missed its keepalives) cancels the
 * session's agent waits, and rv_guest_session_exec() fails with "domain
 * 'NAME' stopped: crashed" or "libvirt connection lost: ...".  After a
 * lost connection rv_guest_session_stop() reconnects with backoff
 * (rv_guest_libvirt_destroy_by_uuid()) and destroys the domain by its
 * UUID: a restarted libvirtd keeps the running QEMU, and the auto-destroy
 * belonged to the lost connection.  With an event loop the client answers
 * the daemon's keepalive probes, so libvirtd also closes the connection of
 * an rtvirt that stops answering (SIGSTOP) for longer than its
 * keepalive_interval * (keepalive_count + 1) (libvirtd.conf, 30 s by
 * default), and destroys its auto-destroy domains: a stopped run does not
 * leave guests behind.
 *
 * RT-group trap: when libvirt cannot give vCPU threads SCHED_FIFO
 * (guest/libvirt.h rv_guest_libvirt_is_rt_sched_error()), the session
 * fails with the cause and fix, or, with allow_no_fifo, starts the domain
 * once more without <vcpusched>, records the explanation as a finding and
 * marks the session untrusted; the verification, which compares against
 * the domain XML as placed (with FIFO), then reports the vCPU policy
 * mismatch as FAIL.  Never silently.  The same holds for locked memory
 * where libvirt may not raise RLIMIT_MEMLOCK (no CAP_SYS_RESOURCE): the
 * domain starts without <locked/>, and the verification's locked-memory
 * check (VmLck of the QEMU process, proc(5)) FAILs.
 */
#pragma once

#include <stdbool.h>
#include <gio/gio.h>
#include <libvirt/libvirt.h>

#include "guest/agent.h"
#include "guest/disk-image.h"
#include "guest/domain-xml.h"
#include "guest/image.h"
#include "guest/placement.h"
#include "guest/profile.h"
#include "guest/verify.h"
#include "host/fsroot.h"

typedef enum {
    RV_GUEST_VIRT_REQUEST_AUTO,  /* kvm where it really boots, else TCG */
    RV_GUEST_VIRT_REQUEST_KVM,   /* kvm or fail */
    RV_GUEST_VIRT_REQUEST_TCG,   /* type='qemu' */
} RvGuestVirtRequest;

/**
 * rv_guest_virt_request_parse:
 * @word: "auto", "kvm", "tcg" or its alias "qemu" (libvirt's domain type for
 *        TCG, formatdomain.html "Element and attribute overview"); NULL or
 *        "" mean auto
 * @ret: (out): the request, written only on success
 *
 * The one spelling of --virt and $RTVIRT_VIRT for every command.
 *
 * Returns: 0, or -EINVAL with RV_ERROR_INVALID "invalid virt 'WORD':
 * expected auto, kvm, tcg (alias qemu)".
 */
int rv_guest_virt_request_parse(const char *word, RvGuestVirtRequest *ret,
                                GError **error) G_GNUC_WARN_UNUSED_RESULT;

typedef struct {
    const RvGuestProfile *profile;       /* required */
    const RvGuestPlacement *placement;   /* NULL: rv_guest_place() on @root's CPUs */
    RvRoot *root;                        /* /proc and /sys; NULL: the live host */
    const char *uri;                     /* NULL: $RTVIRT_LIBVIRT_URI or qemu:///system */
    const char *cache_dir;               /* NULL: rv_guest_image_default_cache_dir() */
    const char * const *image_needs;     /* programs the workload needs in the embedded
                                          * image (RvGuestImageOptions.needs), or NULL */
    RvGuestVirtRequest virt;
    const char *domain_name;             /* NULL: "rtvirt-NAME-PID" */
    bool allow_no_fifo;                  /* see the RT-group and memlock traps above */
    guint boot_timeout_ms;               /* agent wait; 0: 120000 (TCG), 60000 (kvm) */
    guint kvm_probe_timeout_ms;          /* 0: 30000 */
    GCancellable *cancellable;           /* (nullable) Ctrl-C */
    const char *uuid;                    /* the domain's UUID; NULL: a random one
                                          * (g_uuid_string_random()) */
    const RvGuestDiskImageOptions *disk_image; /* a profile that builds its disk
                                          * (guest/disk-image.h): the guest
                                          * programs, --force; NULL: none;
                                          * cache_dir is taken from above */
} RvGuestSessionOptions;

typedef struct {
    /* Read-only results. */
    RvGuestVirtType virt;
    char *virt_reason;            /* why this virt type ("kvm probe: ...") */
    char *domain_name;
    char *xml;                    /* domain XML as started */
    char *placed_xml;             /* domain XML as placed (the expectation) */
    RvGuestPlacement *expect;     /* read back from placed_xml */
    RvGuestVerification *verification;
    RvGuestImage *image;          /* embedded image, NULL for disk images */
    RvGuestDiskImage *disk_image; /* a built disk image (base), or NULL */
    char *overlay;                /* CACHE/overlays/DOMAIN.qcow2 over disk_image's
                                   * base, made fresh for each boot, removed
                                   * with the session */
    guint64 boot_ms;              /* domain create -> agent answers (ms) */
    guint64 ready_ms;             /* rv_guest_session_start() called -> agent
                                   * answers (ms): image lookup, probe, failed
                                   * starts included (bench/boot.sh) */
    bool fifo_dropped;            /* started without <vcpusched> (RT-group trap) */
    bool memlock_dropped;         /* started without <memoryBacking><locked/>
                                   * (no CAP_SYS_RESOURCE for RLIMIT_MEMLOCK) */
    guint failed_starts;          /* starts libvirt refused for a known limit
                                   * (retried without the element) */
    guint limits_learned;         /* elements left out before the first start
                                   * because this libvirt daemon refused them
                                   * before (guest/limits.h) */
    bool untrusted;               /* results must not count as RT results */
    GPtrArray *findings;          /* char*: one sentence each, why untrusted and
                                   * what the user should know */
    GPtrArray *placement_notes;   /* char*: the placement's NOTE lines */

    char *uuid;                   /* the domain's UUID (also across a kvm -> TCG retry) */
    char *teardown_error;         /* set by rv_guest_session_stop() when the domain
                                   * may still run (libvirt unreachable) */

    /* Private. */
    char *uri;
    char *daemon_key;             /* guest/limits.h instance key, or NULL */
    char *run_dir;                /* where the learned limits are kept */
    virConnectPtr conn;
    virDomainPtr dom;
    RvGuestAgent *agent;
    GCancellable *cancellable;    /* the session's: cancelled by the caller's
                                   * cancellable or by the watch */
    GCancellable *parent_cancellable;
    gulong parent_handler;
    struct RvGuestSessionWatch *watch;
    int lifecycle_id;             /* virConnectDomainEventRegisterAny() id, -1 none */
    bool close_registered;
} RvGuestSession;

/**
 * rv_guest_session_start:
 * @opts: options (profile required)
 * @ret: (out): the running session, written only on success
 * @error: (optional): the failing step's error: image build, placement
 *         (refused with the reason), libvirt start (with the RT-group
 *         explanation appended when that is the cause), agent timeout,
 *         G_IO_ERROR_CANCELLED
 *
 * On every failure path the domain is destroyed before returning.
 *
 * Returns: 0 or -errno.
 */
int rv_guest_session_start(const RvGuestSessionOptions *opts, RvGuestSession **ret,
                           GError **error) G_GNUC_WARN_UNUSED_RESULT;

/**
 * rv_guest_session_exec:
 * @session: a started session
 * @argv: command inside the guest
 * @timeout_ms: wall-clock limit in ms
 * @expect_ms: how long @argv runs by itself, ms; 0 = not known (the
 *             agent then polls; guest/agent.h rv_guest_agent_exec())
 * @max_output: bytes kept per stream
 * @ret: (out): the result (see guest/agent.h)
 *
 * Returns: 0 or -errno (a non-zero exit status is not an error).
 */
int rv_guest_session_exec(RvGuestSession *session, const char * const *argv,
                          guint timeout_ms, guint expect_ms, gsize max_output,
                          RvGuestExecResult *ret, GError **error) G_GNUC_WARN_UNUSED_RESULT;

/* Destroys the domain now (idempotent); the report fields stay.  When the
 * connection was lost, reconnects for up to RV_GUEST_SESSION_RECONNECT_MS
 * first; when that fails too, teardown_error says the domain may still run. */
#define RV_GUEST_SESSION_RECONNECT_MS 60000u
void rv_guest_session_stop(RvGuestSession *session);

/* Stops the session and frees it; accepts NULL. */
void rv_guest_session_free(RvGuestSession *session);
G_DEFINE_AUTOPTR_CLEANUP_FUNC(RvGuestSession, rv_guest_session_free)

/* "kvm" or "tcg", as every output reports virt=. */
const char *rv_guest_session_virt_label(RvGuestVirtType virt);
