/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * guest/libvirt.h: the libvirt C API as rtvirt uses it.
 *
 * One connection to qemu:///system (libvirt.org/uri.html), transient domains
 * started with VIR_DOMAIN_START_AUTODESTROY (libvirt.org/html/
 * libvirt-libvirt-domain.html#virDomainCreateXML): the daemon destroys them
 * when the connection closes, so a crashed rtvirt leaves no VM behind.
 * libvirt errors become GErrors carrying libvirt's own message; libvirt's
 * default error printer is silenced (library layers never print).
 *
 * rv_guest_libvirt_setup() starts virtlogd and libvirtd where no service
 * manager runs (containers, CI): both daemonize (-d) and write pidfiles in
 * /run; a daemon whose socket answers is left alone.
 */
#pragma once

#include <stdbool.h>
#include <glib.h>
#include <libvirt/libvirt.h>

#include "util/runner.h"

G_DEFINE_AUTOPTR_CLEANUP_FUNC(virConnect, virConnectClose)
G_DEFINE_AUTOPTR_CLEANUP_FUNC(virDomain, virDomainFree)

/* Default URI; $RTVIRT_LIBVIRT_URI overrides it. */
#define RV_GUEST_LIBVIRT_URI "qemu:///system"

/* Keepalive of every connection (virConnectSetKeepAlive(), libvirt.org/
 * html/libvirt-libvirt-host.html): a probe every 5 s, the connection
 * closed after 5 unanswered ones (30 s, libvirtd.conf's own default).
 * A guest session whose guests run under TCG allows 23 (120 s, as the
 * guest agent's reply timeout under TCG, guest/agent.h): in the lab host
 * (`make lab-host-check`, guests nested under TCG) the nosmt scenario,
 * one housekeeping CPU for libvirtd, both QEMU main loops and the
 * neighbour's vCPU, lost its connection with "libvirtd stopped answering
 * keepalives". */
#define RV_GUEST_LIBVIRT_KEEPALIVE_S 5
#define RV_GUEST_LIBVIRT_KEEPALIVE_COUNT 5u
#define RV_GUEST_LIBVIRT_KEEPALIVE_COUNT_TCG 23u

/**
 * rv_guest_libvirt_events_start:
 *
 * Drives libvirt's events (keepalive, close callbacks, domain lifecycle
 * events) from a GLib main loop: libvirt-glib's gvir_event_register()
 * (package libvirt-glib-1.0-dev) registers the default GMainContext as
 * libvirt's event implementation, and a thread ("rv-libvirt-ev") runs it
 * for the rest of the process.  Callbacks therefore run in that thread.
 * Only libvirt-glib's event glue is used: libvirt-gconfig, its XML side,
 * stays unused because it has no <cputune> (guest/domain-xml.h builds the
 * XML with libxml2), and libvirt-gobject would wrap the connection that
 * the rest of rtvirt uses through the C API.
 *
 * Idempotent; rv_guest_libvirt_connect() calls it before it opens a
 * connection (libvirt needs the implementation before virConnectOpen()).
 */
void rv_guest_libvirt_events_start(void);

/* @uri, else $RTVIRT_LIBVIRT_URI, else RV_GUEST_LIBVIRT_URI (transfer none). */
const char *rv_guest_libvirt_uri(const char *uri);

/**
 * rv_guest_libvirt_error:
 * @error: (optional): where to store the error
 * @errnum: positive errno
 * @fmt: what failed ("Failed to start domain 'rt-demo'")
 *
 * Sets RV_ERROR_FAILED "@fmt: <libvirt's last error message>" (or
 * "unknown libvirt error") and resets libvirt's last error.
 *
 * Returns: -@errnum.
 */
int rv_guest_libvirt_error(GError **error, int errnum, const char *fmt, ...) G_GNUC_PRINTF(3, 4);

/**
 * rv_guest_libvirt_connect:
 * @uri: (nullable): libvirt URI; NULL = $RTVIRT_LIBVIRT_URI or qemu:///system
 * @ret: (out): the connection, written only on success
 * @error: (optional): RV_ERROR_FAILED "Failed to connect to 'URI': MSG
 *         (is libvirtd running? try 'rtvirt setup')"
 *
 * The connection has keepalive (RV_GUEST_LIBVIRT_KEEPALIVE_S) and libvirt's
 * events run (rv_guest_libvirt_events_start()), so a close callback
 * (virConnectRegisterCloseCallback()) learns of a dead or hung daemon.
 *
 * Returns: 0 or -errno (-ECONNREFUSED).
 */
int rv_guest_libvirt_connect(const char *uri, virConnectPtr *ret, GError **error)
    G_GNUC_WARN_UNUSED_RESULT;

/* rv_guest_libvirt_connect() with no keepalive yet: the caller starts it
 * with rv_guest_libvirt_keepalive() once it knows the accelerator
 * (libvirt starts keepalive once per connection; a second call changes
 * nothing). */
int rv_guest_libvirt_connect_later_keepalive(const char *uri, virConnectPtr *ret,
                                             GError **error) G_GNUC_WARN_UNUSED_RESULT;

/* Starts @conn's keepalive: a probe every RV_GUEST_LIBVIRT_KEEPALIVE_S s,
 * closed after @count unanswered ones; a driver without keepalive
 * (test:///) refuses it, which costs nothing but the detection. */
void rv_guest_libvirt_keepalive(virConnectPtr conn, unsigned int count);

/**
 * rv_guest_libvirt_has_virt_type:
 * @conn: a connection
 * @virttype: "kvm" or "qemu"
 *
 * Asks virConnectGetDomainCapabilities() (libvirt.org/formatdomaincaps.html)
 * whether QEMU on this host offers domains of @virttype for x86_64.  This is
 * what libvirt believes (for kvm: /dev/kvm opens and QEMU has the
 * accelerator); whether a guest really boots is the session's probe.
 *
 * Returns: true when offered.
 */
bool rv_guest_libvirt_has_virt_type(virConnectPtr conn, const char *virttype);

/**
 * rv_guest_libvirt_start:
 * @conn: a connection
 * @xml: domain XML
 * @ret: (out): the running transient domain, written only on success
 * @error: (optional): RV_ERROR_FAILED "Failed to start domain 'NAME': MSG"
 *
 * virDomainCreateXML(VIR_DOMAIN_START_AUTODESTROY).
 *
 * Returns: 0; -EPERM when libvirt could not give vCPU threads their
 * real-time scheduler (rv_guest_libvirt_is_rt_sched_error()); -EACCES when
 * it could not raise the locked-memory limit
 * (rv_guest_libvirt_is_memlock_error()); -EIO else.
 */
int rv_guest_libvirt_start(virConnectPtr conn, const char *xml, virDomainPtr *ret,
                           GError **error) G_GNUC_WARN_UNUSED_RESULT;

/**
 * rv_guest_libvirt_is_rt_sched_error:
 * @message: a libvirt error message
 *
 * True for libvirt's "Cannot set scheduler parameters for pid N: Operation
 * not permitted" (src/util/virprocess.c virProcessSetScheduler()): the
 * vCPU thread sits in a cpu cgroup (v1) with cpu.rt_runtime_us = 0 on a
 * kernel with CONFIG_RT_GROUP_SCHED (Documentation/scheduler/
 * sched-rt-group.rst), so sched_setscheduler(SCHED_FIFO) is refused.
 */
bool rv_guest_libvirt_is_rt_sched_error(const char *message);

/* The cause and the fixes of the RT-group failure, one paragraph for users. */
const char *rv_guest_libvirt_rt_sched_explanation(void);

/**
 * rv_guest_libvirt_is_memlock_error:
 * @message: a libvirt error message
 *
 * True for "cannot limit locked memory of process N to M: Operation not
 * permitted" (src/util/virprocess.c virProcessSetMaxMemLock()): for
 * <memoryBacking><locked/> libvirt raises QEMU's RLIMIT_MEMLOCK, which
 * needs CAP_SYS_RESOURCE (setrlimit(2)); containers often lack it.
 */
bool rv_guest_libvirt_is_memlock_error(const char *message);

/* The cause and the fixes of the memlock failure, one paragraph for users. */
const char *rv_guest_libvirt_memlock_explanation(void);

/**
 * rv_guest_libvirt_destroy:
 * @dom: (nullable): a domain
 *
 * virDomainDestroy(), errors ignored (the domain may be gone already).
 */
void rv_guest_libvirt_destroy(virDomainPtr dom);

/**
 * rv_guest_libvirt_destroy_by_uuid:
 * @uri: (nullable): as for rv_guest_libvirt_connect()
 * @name: the domain's name
 * @uuid: its UUID (RFC 4122 text form, as in the domain XML's <uuid>)
 * @timeout_ms: how long to keep trying to connect: after 0.25 s, then
 *              twice as long each time, at most 4 s apart
 * @error: (optional): RV_ERROR_FAILED with -ECONNREFUSED "Domain 'NAME'
 *         (uuid U) may still run: libvirt did not answer within N s", or
 *         libvirt's message when the destroy fails
 *
 * Destroys the domain with that UUID and that name, on a new connection:
 * for a domain whose connection is gone (libvirtd was killed or
 * restarted: a restarted libvirtd takes the running QEMU back, without
 * the VIR_DOMAIN_START_AUTODESTROY that belonged to the lost connection),
 * or one recorded in a journal by a killed run.  A domain with that UUID
 * but another name is not ours and is left alone.
 *
 * Returns: 1 destroyed, 0 no such domain (or not running), -errno.
 */
int rv_guest_libvirt_destroy_by_uuid(const char *uri, const char *name, const char *uuid,
                                     guint timeout_ms, GError **error) G_GNUC_WARN_UNUSED_RESULT;

/**
 * rv_guest_libvirt_vcpu_tids:
 * @dom: a running domain
 * @ret_tids: (out): host thread id (int) per vCPU, index = vCPU id
 *            (QMP "cpu-index"), written only on success
 * @error: (optional): RV_ERROR_FAILED naming the domain and the reply
 *
 * Asks QEMU with QMP query-cpus-fast (qemu-qmp-ref(7), "thread-id") via
 * virDomainQemuMonitorCommand() (libvirt-qemu; the domain is marked
 * tainted "custom-monitor" in its log, nothing else changes).
 *
 * Returns: the number of vCPUs, or -errno.
 */
int rv_guest_libvirt_vcpu_tids(virDomainPtr dom, GArray **ret_tids, GError **error)
    G_GNUC_WARN_UNUSED_RESULT;

typedef struct {
    bool virtlogd_started;  /* false: was running already */
    bool libvirtd_started;
    bool systemd;           /* systemd runs: started as units (systemctl start) */
    char *uri;
    char *version;          /* hypervisor version, "QEMU 7.2.22" */
} RvGuestSetupReport;

void rv_guest_setup_report_clear(RvGuestSetupReport *report);
G_DEFINE_AUTO_CLEANUP_CLEAR_FUNC(RvGuestSetupReport, rv_guest_setup_report_clear)

/**
 * rv_guest_libvirt_setup:
 * @runner: runs `systemctl start virtlogd.service` and `libvirtd.service`
 *          where systemd runs (/run/systemd/system, sd_booted(3)), else
 *          virtlogd -d and libvirtd -d
 * @uri: (nullable): as for rv_guest_libvirt_connect()
 * @timeout_ms: how long to wait until @uri answers
 * @ret: (out): what was started
 * @error: (optional): RV_ERROR_UNSUPPORTED when libvirtd or virtlogd is not
 *         installed; RV_ERROR_TIMEOUT when the daemon does not answer
 *
 * Idempotent: a daemon whose control socket (/run/libvirt/virtlogd-sock,
 * /run/libvirt/libvirt-sock) accepts a connection is left alone; a stale
 * socket or pidfile from a dead daemon does not stop the start (the
 * daemons replace them).
 *
 * Returns: 0 or -errno.
 */
int rv_guest_libvirt_setup(RvRunner *runner, const char *uri, guint timeout_ms,
                           RvGuestSetupReport *ret, GError **error) G_GNUC_WARN_UNUSED_RESULT;
