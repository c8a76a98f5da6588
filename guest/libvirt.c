/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * guest/libvirt.c: libvirt connection, transient domains, daemon setup.
 */
#include <errno.h>
#include <stdarg.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/un.h>
#include <unistd.h>

#include <glib/gstdio.h>
#include <json-glib/json-glib.h>
#include <libxml/parser.h>
#include <libxml/tree.h>
#include <libvirt/libvirt-qemu.h>
#include <libvirt/virterror.h>
#include <libvirt-glib/libvirt-glib-event.h>

#include "guest/libvirt.h"
#include "util/error.h"

static void
silent_error_func(void *user_data, virErrorPtr err)
{
    (void) user_data;
    (void) err;
}

static void
silence_libvirt(void)
{
    static gsize once;

    if (g_once_init_enter(&once)) {
        virSetErrorFunc(NULL, silent_error_func);
        g_once_init_leave(&once, 1);
    }
}

int
rv_guest_libvirt_error(GError **error, int errnum, const char *fmt, ...)
{
    g_autofree char *what = NULL;
    const char *msg = virGetLastErrorMessage();
    va_list ap;
    int r;

    va_start(ap, fmt);
    what = g_strdup_vprintf(fmt, ap);
    va_end(ap);
    r = rv_error_set(error, RV_ERROR_FAILED, errnum, "%s: %s", what,
                     msg && *msg ? msg : "unknown libvirt error");
    virResetLastError();
    return r;
}

/* ---------------------------------------------------------- event loop */

static gpointer
events_thread(gpointer data)
{
    GMainLoop *loop = data;

    /* runs for the rest of the process: libvirt may call into the event
     * implementation from any connection at any time */
    g_main_loop_run(loop);
    return NULL;
}

void
rv_guest_libvirt_events_start(void)
{
    static gsize once;

    if (g_once_init_enter(&once)) {
        /* gvir_event_register() hands libvirt (virEventRegisterImpl()) an
         * implementation whose handles and timeouts are GSources of the
         * default GMainContext; nothing else in rtvirt iterates that
         * context, so this thread owns it. */
        gvir_event_register();
        g_thread_unref(g_thread_new("rv-libvirt-ev", events_thread,
                                    g_main_loop_new(g_main_context_default(), FALSE)));
        g_once_init_leave(&once, 1);
    }
}

const char *
rv_guest_libvirt_uri(const char *uri)
{
    if (!uri)
        uri = g_getenv("RTVIRT_LIBVIRT_URI");
    if (!uri || !*uri)
        uri = RV_GUEST_LIBVIRT_URI;
    return uri;
}

void
rv_guest_libvirt_keepalive(virConnectPtr conn, unsigned int count)
{
    if (virConnectSetKeepAlive(conn, RV_GUEST_LIBVIRT_KEEPALIVE_S, count) < 0)
        virResetLastError();
}

int
rv_guest_libvirt_connect(const char *uri, virConnectPtr *ret, GError **error)
{
    int r = rv_guest_libvirt_connect_later_keepalive(uri, ret, error);

    /* A daemon that hangs (rather than dies, which closes the socket at
     * once) is noticed after RV_GUEST_LIBVIRT_KEEPALIVE_S *
     * (RV_GUEST_LIBVIRT_KEEPALIVE_COUNT + 1) s. */
    if (r == 0)
        rv_guest_libvirt_keepalive(*ret, RV_GUEST_LIBVIRT_KEEPALIVE_COUNT);
    return r;
}

int
rv_guest_libvirt_connect_later_keepalive(const char *uri, virConnectPtr *ret, GError **error)
{
    virConnectPtr conn;

    silence_libvirt();
    rv_guest_libvirt_events_start();
    uri = rv_guest_libvirt_uri(uri);
    conn = virConnectOpen(uri);
    if (!conn)
        return rv_guest_libvirt_error(error, ECONNREFUSED,
                                      "Failed to connect to '%s' (is libvirtd running? try 'rtvirt setup')",
                                      uri);
    *ret = conn;
    return 0;
}

int
rv_guest_libvirt_destroy_by_uuid(const char *uri, const char *name, const char *uuid,
                                 guint timeout_ms, GError **error)
{
    gint64 deadline = g_get_monotonic_time() + (gint64) timeout_ms * 1000;
    gulong backoff_us = 250 * 1000;
    g_autoptr(GError) last = NULL;
    g_autoptr(virConnect) conn = NULL;
    g_autoptr(virDomain) dom = NULL;
    const char *found;

    for (;;) {
        g_clear_error(&last);
        if (rv_guest_libvirt_connect(uri, &conn, &last) == 0)
            break;
        if (g_get_monotonic_time() + (gint64) backoff_us > deadline)
            return rv_error_set(error, RV_ERROR_FAILED, ECONNREFUSED,
                                "Domain '%s' (uuid %s) may still run: libvirt did not answer "
                                "within %u s: %s", name, uuid, timeout_ms / 1000,
                                last->message);
        g_usleep(backoff_us);
        backoff_us = MIN(backoff_us * 2, 4 * G_USEC_PER_SEC);
    }
    dom = virDomainLookupByUUIDString(conn, uuid);
    if (!dom) {
        virResetLastError();
        return 0;
    }
    found = virDomainGetName(dom);
    /* a UUID is unique per host; a name that differs is not ours */
    if (g_strcmp0(found, name) != 0) {
        virResetLastError();
        return 0;
    }
    if (virDomainDestroy(dom) < 0) {
        if (virDomainIsActive(dom) == 0) {
            virResetLastError();
            return 0;
        }
        return rv_guest_libvirt_error(error, EIO, "Failed to destroy domain '%s' (uuid %s)",
                                      name, uuid);
    }
    return 1;
}

bool
rv_guest_libvirt_has_virt_type(virConnectPtr conn, const char *virttype)
{
    g_autofree char *caps = virConnectGetDomainCapabilities(conn, NULL, "x86_64", NULL,
                                                            virttype, 0);

    virResetLastError();
    return caps != NULL;
}

bool
rv_guest_libvirt_is_rt_sched_error(const char *message)
{
    return message && strstr(message, "Cannot set scheduler parameters") &&
           strstr(message, "Operation not permitted");
}

const char *
rv_guest_libvirt_rt_sched_explanation(void)
{
    return "libvirt could not give the vCPU threads SCHED_FIFO: this kernel has "
           "CONFIG_RT_GROUP_SCHED and libvirt puts each vCPU thread in its own cgroup v1 "
           "'cpu' group, whose cpu.rt_runtime_us is 0, so sched_setscheduler() fails with "
           "EPERM (Documentation/scheduler/sched-rt-group.rst). Fix: remove \"cpu\" from "
           "cgroup_controllers in /etc/libvirt/qemu.conf and restart libvirtd, or give the "
           "machine cgroup RT runtime (cpu.rt_runtime_us of the parent groups, which "
           "'rtvirt host apply' offers), or boot with cgroup v2 / a kernel without "
           "CONFIG_RT_GROUP_SCHED";
}

bool
rv_guest_libvirt_is_memlock_error(const char *message)
{
    return message && strstr(message, "cannot limit locked memory") &&
           strstr(message, "Operation not permitted");
}

const char *
rv_guest_libvirt_memlock_explanation(void)
{
    return "libvirt could not lock the guest memory: for <memoryBacking><locked/> it raises "
           "QEMU's RLIMIT_MEMLOCK, which needs CAP_SYS_RESOURCE, and this environment "
           "(a container?) does not grant it to libvirtd. Fix: run libvirtd with "
           "CAP_SYS_RESOURCE (a privileged container or the host), or raise the hard "
           "RLIMIT_MEMLOCK of libvirtd before it starts (ulimit -l unlimited)";
}

/* The domain name of @xml, or NULL. */
static char *
xml_domain_name(const char *xml)
{
    xmlDocPtr doc = xmlReadMemory(xml, (int) strlen(xml), "domain.xml", NULL, XML_PARSE_NONET);
    xmlNodePtr root = doc ? xmlDocGetRootElement(doc) : NULL;
    char *name = NULL;

    for (xmlNodePtr n = root ? root->children : NULL; n; n = n->next) {
        if (n->type == XML_ELEMENT_NODE && xmlStrEqual(n->name, (const xmlChar *) "name")) {
            xmlChar *c = xmlNodeGetContent(n);

            name = g_strdup((const char *) c);
            xmlFree(c);
            break;
        }
    }
    xmlFreeDoc(doc);
    return name;
}

static char *
qemu_log_path(const char *name)
{
    const char *dir = g_getenv("RTVIRT_LIBVIRT_QEMU_LOG_DIR");

    return g_strdup_printf("%s/%s.log", dir && *dir ? dir : "/var/log/libvirt/qemu", name);
}

static goffset
file_size(const char *path)
{
    GStatBuf st;

    return g_stat(path, &st) == 0 ? (goffset) st.st_size : 0;
}

/* What QEMU's log gained since @from (at most 64 KiB), or NULL. */
static char *
log_since(const char *path, goffset from)
{
    g_autofree char *all = NULL;
    gsize len = 0;

    if (!g_file_get_contents(path, &all, &len, NULL) || (gsize) from >= len)
        return NULL;
    if (len - (gsize) from > 65536)
        from = (goffset) (len - 65536);
    return g_strndup(all + from, len - (gsize) from);
}

int
rv_guest_libvirt_start(virConnectPtr conn, const char *xml, virDomainPtr *ret, GError **error)
{
    g_autofree char *name = xml_domain_name(xml);
    g_autofree char *log = name ? qemu_log_path(name) : NULL;
    goffset log_from = log ? file_size(log) : 0;
    virDomainPtr dom = virDomainCreateXML(conn, xml, VIR_DOMAIN_START_AUTODESTROY);

    if (!dom) {
        const char *msg = virGetLastErrorMessage();
        int errnum = rv_guest_libvirt_is_rt_sched_error(msg) ? EPERM
                   : rv_guest_libvirt_is_memlock_error(msg) ? EACCES : EIO;

        /* libvirt reads the child's error from QEMU's log asynchronously:
         * "Process exited prior to exec" sometimes comes without it.  The
         * log itself (libvirt.org/kbase/debuglogs.html) has the line. */
        if (errnum == EIO && log && msg && strstr(msg, "prior to exec")) {
            g_autofree char *tail = log_since(log, log_from);
            g_autofree char *copy = g_strdup(msg);

            if (rv_guest_libvirt_is_memlock_error(tail) || rv_guest_libvirt_is_rt_sched_error(tail)) {
                const char *line = strstr(tail, "error : ");
                g_autofree char *why = line ? g_strndup(line + 8, strcspn(line + 8, "\n"))
                                            : g_strdup("(see the QEMU log)");

                errnum = rv_guest_libvirt_is_rt_sched_error(tail) ? EPERM : EACCES;
                virResetLastError();
                return rv_error_set(error, RV_ERROR_FAILED, errnum,
                                    "Failed to start the domain: %s %s", copy, g_strstrip(why));
            }
        }
        return rv_guest_libvirt_error(error, errnum, "Failed to start the domain");
    }
    *ret = dom;
    return 0;
}

void
rv_guest_libvirt_destroy(virDomainPtr dom)
{
    if (!dom)
        return;
    if (virDomainDestroy(dom) < 0)
        virResetLastError();
}

int
rv_guest_libvirt_vcpu_tids(virDomainPtr dom, GArray **ret_tids, GError **error)
{
    g_autofree char *reply = NULL;
    g_autoptr(JsonParser) parser = json_parser_new();
    g_autoptr(GArray) tids = g_array_new(FALSE, TRUE, sizeof(int));
    JsonNode *root, *retn;
    JsonArray *cpus;
    const char *name = virDomainGetName(dom);

    if (virDomainQemuMonitorCommand(dom, "{\"execute\":\"query-cpus-fast\"}", &reply, 0) < 0)
        return rv_guest_libvirt_error(error, EIO,
                                      "Failed to query the vCPU threads of domain '%s'", name);
    if (!json_parser_load_from_data(parser, reply, -1, NULL) ||
        !(root = json_parser_get_root(parser)) || !JSON_NODE_HOLDS_OBJECT(root) ||
        !(retn = json_object_get_member(json_node_get_object(root), "return")) ||
        !JSON_NODE_HOLDS_ARRAY(retn))
        return rv_error_set(error, RV_ERROR_FAILED, EPROTO,
                            "Domain '%s': unexpected query-cpus-fast reply: %.200s", name, reply);
    cpus = json_node_get_array(retn);
    g_array_set_size(tids, json_array_get_length(cpus));
    for (guint i = 0; i < json_array_get_length(cpus); i++) {
        JsonNode *n = json_array_get_element(cpus, i);
        JsonObject *o = JSON_NODE_HOLDS_OBJECT(n) ? json_node_get_object(n) : NULL;
        gint64 idx, tid;

        if (!o || !json_object_has_member(o, "cpu-index") || !json_object_has_member(o, "thread-id"))
            return rv_error_set(error, RV_ERROR_FAILED, EPROTO,
                                "Domain '%s': query-cpus-fast entry %u lacks cpu-index/thread-id",
                                name, i);
        idx = json_object_get_int_member(o, "cpu-index");
        tid = json_object_get_int_member(o, "thread-id");
        if (idx < 0 || idx >= (gint64) tids->len || tid <= 0 || tid > G_MAXINT)
            return rv_error_set(error, RV_ERROR_FAILED, EPROTO,
                                "Domain '%s': query-cpus-fast: bad cpu-index %" G_GINT64_FORMAT
                                " / thread-id %" G_GINT64_FORMAT, name, idx, tid);
        g_array_index(tids, int, idx) = (int) tid;
    }
    *ret_tids = g_steal_pointer(&tids);
    return (int) (*ret_tids)->len;
}

/* ---------------------------------------------------------------- setup */

void
rv_guest_setup_report_clear(RvGuestSetupReport *report)
{
    g_clear_pointer(&report->uri, g_free);
    g_clear_pointer(&report->version, g_free);
}

/* True when something accepts connections on the unix socket @path. */
static bool
socket_answers(const char *path)
{
    struct sockaddr_un sa = { .sun_family = AF_UNIX };
    int fd;
    bool ok;

    if (strlen(path) >= sizeof(sa.sun_path))
        return false;
    strcpy(sa.sun_path, path);
    fd = socket(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0);
    if (fd < 0)
        return false;
    ok = connect(fd, (struct sockaddr *) &sa, sizeof(sa)) == 0;
    close(fd);
    return ok;
}

/* Under systemd (sd_booted(3): /run/systemd/system exists) a daemon is
 * started as its unit, PROG.service (libvirt's own units: virtlogd.service,
 * libvirtd.service, which pull in their sockets), so that systemd owns it:
 * its cgroup, its restart, its stop at shutdown.  A daemon forked by
 * rtvirt would live in the caller's cgroup and die with its unit. */
static int
start_daemon_unit(RvRunner *runner, const char *prog, GError **error)
{
    g_autofree char *unit = g_strconcat(prog, ".service", NULL);
    const char *argv[] = { "systemctl", "start", unit, NULL };

    if (rv_runner_run_check(runner, argv, 90000, NULL, error) < 0)
        return -EIO;
    return 0;
}

static int
start_daemon(RvRunner *runner, const char *prog, const char *sock, bool systemd,
             bool *ret_started, GError **error)
{
    const char *argv[] = { prog, "-d", NULL };
    g_autofree char *path = NULL;
    int r;

    if (socket_answers(sock)) {
        *ret_started = false;
        return 0;
    }
    if (systemd) {
        if ((r = start_daemon_unit(runner, prog, error)) < 0)
            return r;
        *ret_started = true;
        return 0;
    }
    path = g_find_program_in_path(prog);
    if (!path) {
        g_autofree char *sbin = g_strconcat("/usr/sbin/", prog, NULL);

        if (!g_file_test(sbin, G_FILE_TEST_IS_EXECUTABLE))
            return rv_error_set(error, RV_ERROR_UNSUPPORTED, ENOENT,
                                "'%s' is not installed (Debian package libvirt-daemon-system)",
                                prog);
        path = g_steal_pointer(&sbin);
    }
    argv[0] = path;
    if (rv_runner_run_check(runner, argv, 30000, NULL, error) < 0)
        return -EIO;
    *ret_started = true;
    return 0;
}

int
rv_guest_libvirt_setup(RvRunner *runner, const char *uri, guint timeout_ms,
                       RvGuestSetupReport *ret, GError **error)
{
    g_auto(RvGuestSetupReport) rep = { 0 };
    gint64 deadline = g_get_monotonic_time() + (gint64) timeout_ms * 1000;
    g_autoptr(GError) last = NULL;
    int r;

    rep.systemd = g_file_test("/run/systemd/system", G_FILE_TEST_IS_DIR);
    r = start_daemon(runner, "virtlogd", "/run/libvirt/virtlogd-sock", rep.systemd,
                     &rep.virtlogd_started, error);
    if (r < 0)
        return r;
    r = start_daemon(runner, "libvirtd", "/run/libvirt/libvirt-sock", rep.systemd,
                     &rep.libvirtd_started, error);
    if (r < 0)
        return r;

    for (;;) {
        g_autoptr(virConnect) conn = NULL;

        g_clear_error(&last);
        if (rv_guest_libvirt_connect(uri, &conn, &last) == 0) {
            unsigned long v = 0;

            rep.uri = virConnectGetURI(conn);
            if (virConnectGetVersion(conn, &v) == 0)
                rep.version = g_strdup_printf("%s %lu.%lu.%lu", virConnectGetType(conn),
                                              v / 1000000, v / 1000 % 1000, v % 1000);
            virResetLastError();
            break;
        }
        if (g_get_monotonic_time() > deadline)
            return rv_error_set(error, RV_ERROR_TIMEOUT, ETIMEDOUT,
                                "libvirtd did not answer within %u ms: %s", timeout_ms,
                                last->message);
        g_usleep(100 * 1000);
    }
    *ret = rep;
    memset(&rep, 0, sizeof(rep));
    return 0;
}
