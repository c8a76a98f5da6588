/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * guest/session.c: boot, verify, exec, tear down (guest/session.h).
 */
#include <errno.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/utsname.h>
#include <unistd.h>

#include <glib/gstdio.h>
#include <json-glib/json-glib.h>
#include <libxml/parser.h>
#include <libxml/tree.h>
#include <libxml/xpath.h>
#include <libvirt/virterror.h>

#include "guest/libvirt.h"
#include "guest/limits.h"
#include "guest/session.h"
#include "host/facts/kvm.h"
#include "host/facts/state.h"
#include "util/error.h"

#define DEFAULT_BOOT_TCG_MS 120000
#define DEFAULT_BOOT_KVM_MS 60000
#define DEFAULT_KVM_PROBE_MS 30000

const char *
rv_guest_session_virt_label(RvGuestVirtType virt)
{
    return virt == RV_GUEST_VIRT_KVM ? "kvm" : "tcg";
}

/* ---------------------------------------------------------------- watch */

/* What libvirt's callbacks (in the event thread) share with the session:
 * refcounted, since libvirt may call the free function after the session
 * is gone. */
struct RvGuestSessionWatch {
    gint refs;
    GMutex lock;
    char *ended;                /* why the domain or the connection ended */
    bool conn_lost;
    GCancellable *cancel;       /* the session's cancellable (a ref) */
};
typedef struct RvGuestSessionWatch Watch;

static Watch *
watch_ref(Watch *w)
{
    g_atomic_int_inc(&w->refs);
    return w;
}

static void
watch_unref(void *data)
{
    Watch *w = data;

    if (!w || !g_atomic_int_dec_and_test(&w->refs))
        return;
    g_free(w->ended);
    g_clear_object(&w->cancel);
    g_mutex_clear(&w->lock);
    g_free(w);
}

/* Records the first reason and cancels the session's waits. */
static void
watch_end(Watch *w, bool conn_lost, char *why)
{
    g_mutex_lock(&w->lock);
    if (!w->ended)
        w->ended = g_steal_pointer(&why);
    w->conn_lost |= conn_lost;
    g_mutex_unlock(&w->lock);
    g_free(why);
    g_cancellable_cancel(w->cancel);
}

/* The reason, or NULL while the domain runs (transfer full). */
static char *
watch_reason(Watch *w, bool *ret_conn_lost)
{
    char *why;

    if (!w)
        return NULL;
    g_mutex_lock(&w->lock);
    why = g_strdup(w->ended);
    if (ret_conn_lost)
        *ret_conn_lost = w->conn_lost;
    g_mutex_unlock(&w->lock);
    return why;
}

static void
on_connection_closed(virConnectPtr conn, int reason, void *opaque)
{
    static const char *const why[] = {
        [VIR_CONNECT_CLOSE_REASON_ERROR] = "a socket error",
        [VIR_CONNECT_CLOSE_REASON_EOF] = "libvirtd closed it (EOF: the daemon died or restarted)",
        [VIR_CONNECT_CLOSE_REASON_KEEPALIVE] = "libvirtd stopped answering keepalives",
        [VIR_CONNECT_CLOSE_REASON_CLIENT] = "closed by rtvirt",
    };
    const char *w = reason >= 0 && reason < (int) G_N_ELEMENTS(why) && why[reason]
        ? why[reason] : "unknown reason";

    (void) conn;
    watch_end(opaque, true, g_strdup_printf("libvirt connection lost: %s", w));
}

/* VIR_DOMAIN_EVENT_STOPPED_* details (libvirt-domain.h). */
static const char *
stopped_detail(int detail)
{
    switch (detail) {
    case VIR_DOMAIN_EVENT_STOPPED_SHUTDOWN: return "shut down by the guest";
    case VIR_DOMAIN_EVENT_STOPPED_DESTROYED: return "destroyed (virsh destroy or another client)";
    case VIR_DOMAIN_EVENT_STOPPED_CRASHED: return "crashed";
    case VIR_DOMAIN_EVENT_STOPPED_MIGRATED: return "migrated away";
    case VIR_DOMAIN_EVENT_STOPPED_SAVED: return "saved";
    case VIR_DOMAIN_EVENT_STOPPED_FAILED: return "failed (QEMU died: killed, or an error)";
    default: return "stopped";
    }
}

static int
on_lifecycle(virConnectPtr conn, virDomainPtr dom, int event, int detail, void *opaque)
{
    const char *name = virDomainGetName(dom);

    (void) conn;
    if (event == VIR_DOMAIN_EVENT_STOPPED)
        watch_end(opaque, false, g_strdup_printf("domain '%s' stopped: %s (libvirt lifecycle "
                                                 "event)", name, stopped_detail(detail)));
    else if (event == VIR_DOMAIN_EVENT_CRASHED)
        watch_end(opaque, false, g_strdup_printf("domain '%s' crashed: the guest panicked "
                                                 "(libvirt lifecycle event)", name));
    else if (event == VIR_DOMAIN_EVENT_SHUTDOWN)
        watch_end(opaque, false, g_strdup_printf("domain '%s' is shutting down (libvirt "
                                                 "lifecycle event)", name));
    return 0;
}

static void
on_parent_cancelled(GCancellable *parent, gpointer data)
{
    (void) parent;
    g_cancellable_cancel(data);
}

/* The session's own cancellable, cancelled by the caller's and by the
 * watch; the close callback on the connection. */
static void
watch_start(RvGuestSession *s, GCancellable *parent)
{
    Watch *w = g_new0(Watch, 1);

    w->refs = 1;
    g_mutex_init(&w->lock);
    s->cancellable = g_cancellable_new();
    w->cancel = g_object_ref(s->cancellable);
    s->watch = w;
    s->lifecycle_id = -1;
    if (parent) {
        s->parent_cancellable = g_object_ref(parent);
        s->parent_handler = g_cancellable_connect(parent, G_CALLBACK(on_parent_cancelled),
                                                  g_object_ref(s->cancellable), g_object_unref);
    }
}

/* After virConnectOpen(): learn of a dead or hung daemon. */
static void
watch_connection(RvGuestSession *s)
{
    if (virConnectRegisterCloseCallback(s->conn, on_connection_closed, watch_ref(s->watch),
                                        watch_unref) == 0) {
        s->close_registered = true;
    } else {
        watch_unref(s->watch);
        virResetLastError();
    }
}

/* After virDomainCreateXML(): learn of a stop or crash. */
static void
watch_domain(RvGuestSession *s)
{
    s->lifecycle_id = virConnectDomainEventRegisterAny(s->conn, s->dom,
                                                       VIR_DOMAIN_EVENT_ID_LIFECYCLE,
                                                       VIR_DOMAIN_EVENT_CALLBACK(on_lifecycle),
                                                       watch_ref(s->watch), watch_unref);
    if (s->lifecycle_id < 0) {
        watch_unref(s->watch);
        virResetLastError();
        return;
    }
    /* it may have stopped before the callback was there */
    if (virDomainIsActive(s->dom) == 0)
        watch_end(s->watch, false, g_strdup_printf("domain '%s' stopped right after its start",
                                                   s->domain_name));
}

static void
unwatch_domain(RvGuestSession *s)
{
    if (s->lifecycle_id >= 0 && s->conn &&
        virConnectDomainEventDeregisterAny(s->conn, s->lifecycle_id) < 0)
        virResetLastError();
    s->lifecycle_id = -1;
}

/* Before the next boot of the same session (kvm probe -> TCG): a stop of
 * the previous domain is no reason to end the new one. */
static void
watch_rearm(RvGuestSession *s)
{
    bool lost = false;
    g_autofree char *why = watch_reason(s->watch, &lost);

    if (!why || lost || (s->parent_cancellable &&
                         g_cancellable_is_cancelled(s->parent_cancellable)))
        return;
    g_mutex_lock(&s->watch->lock);
    g_clear_pointer(&s->watch->ended, g_free);
    g_mutex_unlock(&s->watch->lock);
    g_cancellable_reset(s->cancellable);
}

/* An error of a wait that the watch ended: the watch's reason instead of
 * "cancelled" (the caller's own cancel stays G_IO_ERROR_CANCELLED). */
static int
watch_error(RvGuestSession *s, int r, GError **error)
{
    bool lost = false;
    g_autofree char *why = watch_reason(s->watch, &lost);

    if (!why || (s->parent_cancellable && g_cancellable_is_cancelled(s->parent_cancellable)))
        return r;
    if (error && *error) {
        g_autoptr(GError) orig = g_steal_pointer(error);

        if (g_error_matches(orig, G_IO_ERROR, G_IO_ERROR_CANCELLED))
            return rv_error_set(error, RV_ERROR_FAILED, lost ? ECONNRESET : ESHUTDOWN,
                                "%s", why);
        return rv_error_set(error, RV_ERROR_FAILED, lost ? ECONNRESET : ESHUTDOWN,
                            "%s (%s)", why, orig->message);
    }
    return -(lost ? ECONNRESET : ESHUTDOWN);
}

/* Destroys s->dom: on its connection, or after a lost one on a new one. */
static void
destroy_domain(RvGuestSession *s)
{
    bool lost = false;
    g_autofree char *why = watch_reason(s->watch, &lost);
    g_autoptr(GError) err = NULL;

    unwatch_domain(s);
    if (!lost && virDomainDestroy(s->dom) == 0)
        return;
    virResetLastError();
    if (!lost && virConnectIsAlive(s->conn) == 1) {
        /* gone already (stopped, crashed, destroyed by someone else) */
        return;
    }
    if (!s->uuid)
        return;
    if (rv_guest_libvirt_destroy_by_uuid(s->uri, s->domain_name, s->uuid,
                                         RV_GUEST_SESSION_RECONNECT_MS, &err) < 0) {
        g_free(s->teardown_error);
        s->teardown_error = g_strdup(err->message);
    }
}

void
rv_guest_session_stop(RvGuestSession *s)
{
    if (!s)
        return;
    g_clear_pointer(&s->agent, rv_guest_agent_free);
    if (s->dom) {
        destroy_domain(s);
        virDomainFree(s->dom);
        s->dom = NULL;
    }
    if (s->conn) {
        if (s->close_registered &&
            virConnectUnregisterCloseCallback(s->conn, on_connection_closed) < 0)
            virResetLastError();
        s->close_registered = false;
        virConnectClose(s->conn);
        s->conn = NULL;
    }
}

void
rv_guest_session_free(RvGuestSession *s)
{
    if (!s)
        return;
    rv_guest_session_stop(s);
    g_free(s->virt_reason);
    g_free(s->domain_name);
    g_free(s->xml);
    g_free(s->placed_xml);
    rv_guest_placement_free(s->expect);
    rv_guest_verification_free(s->verification);
    rv_guest_image_free(s->image);
    rv_guest_disk_image_free(s->disk_image);
    if (s->overlay)
        (void) g_unlink(s->overlay);
    g_free(s->overlay);
    if (s->findings)
        g_ptr_array_unref(s->findings);
    if (s->placement_notes)
        g_ptr_array_unref(s->placement_notes);
    if (s->parent_handler)
        g_cancellable_disconnect(s->parent_cancellable, s->parent_handler);
    g_clear_object(&s->parent_cancellable);
    g_clear_object(&s->cancellable);
    watch_unref(s->watch);
    g_free(s->uuid);
    g_free(s->uri);
    g_free(s->daemon_key);
    g_free(s->run_dir);
    g_free(s->teardown_error);
    g_free(s);
}

/* The domain XML without the elements @xpath selects (libxml2 tree edit);
 * @ret_n (nullable): how many were removed. */
static int
strip_elements(const char *xml, const char *xpath, char **ret, guint *ret_n, GError **error)
{
    xmlDocPtr doc = xmlReadMemory(xml, (int) strlen(xml), "domain.xml", NULL,
                                  XML_PARSE_NONET | XML_PARSE_NOBLANKS);
    xmlXPathContextPtr ctx = NULL;
    xmlXPathObjectPtr obj = NULL;
    xmlChar *out = NULL;
    int len = 0, r = 0;

    if (!doc)
        return rv_error_set(error, RV_ERROR_FAILED, EINVAL, "Failed to parse the domain XML");
    ctx = xmlXPathNewContext(doc);
    obj = ctx ? xmlXPathEvalExpression((const xmlChar *) xpath, ctx) : NULL;
    if (!obj) {
        r = rv_error_set(error, RV_ERROR_FAILED, ENOMEM, "Failed to search the domain XML");
        goto cleanup;
    }
    for (int i = 0; obj->nodesetval && i < obj->nodesetval->nodeNr; i++) {
        xmlNodePtr n = obj->nodesetval->nodeTab[i];

        xmlUnlinkNode(n);
        xmlFreeNode(n);
        obj->nodesetval->nodeTab[i] = NULL;
    }
    if (ret_n)
        *ret_n = obj->nodesetval ? (guint) obj->nodesetval->nodeNr : 0;
    xmlDocDumpFormatMemory(doc, &out, &len, 1);
    *ret = g_strndup((const char *) out, len);

cleanup:
    xmlFree(out);
    xmlXPathFreeObject(obj);
    xmlXPathFreeContext(ctx);
    xmlFreeDoc(doc);
    return r;
}

/* ------------------------------------------------------ kvm probe cache */

static char *
probe_key(const RvGuestSession *s)
{
    struct utsname u;
    struct stat st;
    g_autofree char *qemu = g_find_program_in_path("qemu-system-x86_64");

    if (uname(&u) < 0)
        return NULL;
    if (!qemu || stat(qemu, &st) < 0)
        return NULL;
    return g_strdup_printf("qemu=%s:%lld:%lld kernel=%s image=%s", qemu,
                           (long long) st.st_size, (long long) st.st_mtime, u.release,
                           s->image ? s->image->hash
                                    : s->disk_image ? s->disk_image->hash : "disk");
}

static char *
probe_path(const char *cache_dir)
{
    return g_build_filename(cache_dir, "virt-probe.json", NULL);
}

/* Returns the cached outcome ("kvm"/"tcg") with its reason, or NULL. */
static char *
probe_cache_read(const char *cache_dir, const char *key, char **ret_reason)
{
    g_autofree char *path = probe_path(cache_dir);
    g_autoptr(JsonParser) parser = json_parser_new();
    JsonNode *root;
    JsonObject *o;
    const char *k, *virt;

    if (!key || !json_parser_load_from_file(parser, path, NULL))
        return NULL;
    root = json_parser_get_root(parser);
    if (!root || !JSON_NODE_HOLDS_OBJECT(root))
        return NULL;
    o = json_node_get_object(root);
    k = json_object_get_string_member_with_default(o, "key", NULL);
    virt = json_object_get_string_member_with_default(o, "virt", NULL);
    if (!k || !virt || strcmp(k, key) != 0 ||
        (strcmp(virt, "kvm") != 0 && strcmp(virt, "tcg") != 0))
        return NULL;
    *ret_reason = g_strdup(json_object_get_string_member_with_default(o, "reason", ""));
    return g_strdup(virt);
}

static void
probe_cache_write(const char *cache_dir, const char *key, const char *virt, const char *reason)
{
    g_autofree char *path = probe_path(cache_dir);
    g_autoptr(JsonBuilder) b = json_builder_new();
    g_autoptr(JsonGenerator) gen = json_generator_new();
    g_autoptr(JsonNode) root = NULL;
    g_autofree char *data = NULL;

    if (!key)
        return;
    json_builder_begin_object(b);
    json_builder_set_member_name(b, "key");
    json_builder_add_string_value(b, key);
    json_builder_set_member_name(b, "virt");
    json_builder_add_string_value(b, virt);
    json_builder_set_member_name(b, "reason");
    json_builder_add_string_value(b, reason);
    json_builder_end_object(b);
    root = json_builder_get_root(b);
    json_generator_set_root(gen, root);
    data = json_generator_to_data(gen, NULL);
    (void) g_mkdir_with_parents(cache_dir, 0755);
    /* A cache: failure to write only costs the next session a probe. */
    (void) g_file_set_contents(path, data, -1, NULL);
}

/* ------------------------------------------------- learned host limits */

static const char *const limit_xpath[RV_GUEST_LIMIT_N] = {
    [RV_GUEST_LIMIT_FIFO] = "/domain/cputune/vcpusched",
    [RV_GUEST_LIMIT_MEMLOCK] = "/domain/memoryBacking/locked",
};
static const char *const limit_consequence[RV_GUEST_LIMIT_N] = {
    [RV_GUEST_LIMIT_FIFO] = "the guest runs WITHOUT SCHED_FIFO vCPUs: its latencies are not RT "
                            "results (see the vCPU scheduler FAILs)",
    [RV_GUEST_LIMIT_MEMLOCK] = "the guest memory is NOT locked: page faults may add latency "
                               "(see the locked memory FAIL)",
};

/* The limits an earlier start against this libvirt daemon ran into
 * (guest/limits.h): their elements come out of @xml before the first
 * start, with findings that say so, so the start does not fail again. */
static int
strip_learned_limits(RvGuestSession *s, const RvGuestSessionOptions *opts, char **xml,
                     GError **error)
{
    g_autoptr(RvGuestLimits) l = NULL;

    if (!opts->allow_no_fifo || !s->daemon_key)
        return 0;
    l = rv_guest_limits_load(s->run_dir, s->daemon_key);
    for (guint k = 0; k < RV_GUEST_LIMIT_N; k++) {
        g_autofree char *stripped = NULL;
        bool *dropped = k == RV_GUEST_LIMIT_FIFO ? &s->fifo_dropped : &s->memlock_dropped;
        guint n = 0;
        int r;

        if (!l->known[k] || *dropped)
            continue;
        r = strip_elements(*xml, limit_xpath[k], &stripped, &n, error);
        if (r < 0)
            return r;
        if (n == 0)
            continue;
        g_free(*xml);
        *xml = g_steal_pointer(&stripped);
        *dropped = true;
        s->untrusted = true;
        s->limits_learned++;
        g_ptr_array_add(s->findings,
                        g_strdup_printf("started without %s right away: %s refused it at an "
                                        "earlier start (%s, learned %s): %s",
                                        k == RV_GUEST_LIMIT_FIFO ? "<vcpusched>"
                                                                 : "<memoryBacking><locked/>",
                                        s->daemon_key, rv_guest_limit_name(k), l->learned[k],
                                        l->reason[k]));
        g_ptr_array_add(s->findings, g_strdup(limit_consequence[k]));
    }
    return 0;
}

/* ------------------------------------------------------------ one boot */

/* Builds the XML for @virt, starts it (RT-group fallback), waits for the
 * agent up to @wait_ms.  On failure the domain is gone. */
static int
boot_once(RvGuestSession *s, const RvGuestSessionOptions *opts,
          const RvGuestPlacement *placement, RvGuestVirtType virt, guint wait_ms,
          GError **error)
{
    RvGuestDomainOptions dopts = { 0 };
    g_autofree char *xml = NULL, *cmdline = NULL;
    g_autoptr(GError) local = NULL;
    gint64 t0;
    int r;

    dopts.virt = virt;
    dopts.name = s->domain_name;
    dopts.uuid = s->uuid;
    if (s->image) {
        dopts.kernel = s->image->kernel;
        dopts.initrd = s->image->initrd;
    }
    if (s->disk_image) {
        /* every boot (a kvm probe, then TCG) starts from the clean base */
        (void) g_unlink(s->overlay);
        r = rv_guest_disk_image_overlay(s->disk_image, s->overlay, error);
        if (r < 0)
            return r;
        cmdline = rv_guest_disk_image_cmdline(s->disk_image, opts->profile);
        dopts.kernel = s->disk_image->kernel;
        dopts.initrd = s->disk_image->initrd;
        dopts.cmdline = cmdline;
        dopts.disk = s->overlay;
        dopts.disk_writable = true;
    }
    r = rv_guest_domain_xml_build(opts->profile, placement, &dopts, &xml, error);
    if (r < 0)
        return r;
    g_free(s->placed_xml);
    s->placed_xml = g_strdup(xml);

    r = strip_learned_limits(s, opts, &xml, error);
    if (r < 0)
        return r;

    /* Known environment limits: start again without the element, loudly
     * (finding + untrusted), when the caller allows it, and learn the
     * limit for this daemon (guest/limits.h).  At most one retry per
     * limit. */
    for (guint attempt = 0;; attempt++) {
        const char *why = NULL, *xpath = NULL, *consequence = NULL;
        g_autofree char *stripped = NULL;

        t0 = g_get_monotonic_time();
        watch_rearm(s);
        r = rv_guest_libvirt_start(s->conn, xml, &s->dom, &local);
        if (r == 0) {
            watch_domain(s);
            break;
        }
        if (r == -EPERM) {
            why = rv_guest_libvirt_rt_sched_explanation();
            xpath = "/domain/cputune/vcpusched";
            consequence = "the guest runs WITHOUT SCHED_FIFO vCPUs: its latencies are not RT "
                          "results (see the vCPU scheduler FAILs)";
        } else if (r == -EACCES) {
            why = rv_guest_libvirt_memlock_explanation();
            xpath = "/domain/memoryBacking/locked";
            consequence = "the guest memory is NOT locked: page faults may add latency "
                          "(see the locked memory FAIL)";
        }
        if (!why || attempt >= 2) {
            g_propagate_error(error, g_steal_pointer(&local));
            return r;
        }
        if (!opts->allow_no_fifo)
            return rv_error_set(error, RV_ERROR_FAILED, -r, "%s. %s", local->message, why);
        s->failed_starts++;
        {
            g_autofree char *reason = g_strdup_printf("%s. %s", local->message, why);

            /* a cache: when it cannot be written, the next start pays again */
            (void) rv_guest_limits_learn(s->run_dir, s->daemon_key,
                                         r == -EPERM ? RV_GUEST_LIMIT_FIFO
                                                     : RV_GUEST_LIMIT_MEMLOCK,
                                         reason, NULL);
        }
        if (r == -EPERM && !s->fifo_dropped) {
            s->fifo_dropped = true;
            g_ptr_array_add(s->findings, g_strdup_printf("%s. %s", local->message, why));
            g_ptr_array_add(s->findings, g_strdup(consequence));
        } else if (r == -EACCES && !s->memlock_dropped) {
            s->memlock_dropped = true;
            g_ptr_array_add(s->findings, g_strdup_printf("%s. %s", local->message, why));
            g_ptr_array_add(s->findings, g_strdup(consequence));
        }
        s->untrusted = true;
        g_clear_error(&local);
        r = strip_elements(xml, xpath, &stripped, NULL, error);
        if (r < 0)
            return r;
        g_free(xml);
        xml = g_steal_pointer(&stripped);
    }
    g_free(s->xml);
    s->xml = g_steal_pointer(&xml);

    s->agent = rv_guest_agent_new(s->dom);
    if (virt == RV_GUEST_VIRT_QEMU)
        rv_guest_agent_set_command_timeout(s->agent, RV_GUEST_AGENT_CMD_TIMEOUT_TCG_S);
    r = rv_guest_agent_wait(s->agent, wait_ms, s->cancellable, error);
    if (r < 0) {
        r = watch_error(s, r, error);
        g_clear_pointer(&s->agent, rv_guest_agent_free);
        destroy_domain(s);
        g_clear_pointer(&s->dom, virDomainFree);
        return r;
    }
    s->boot_ms = (guint64) ((g_get_monotonic_time() - t0) / 1000);
    s->virt = virt;
    return 0;
}

static int
verify(RvGuestSession *s, const RvGuestProfile *profile, RvRoot *root, GError **error)
{
    g_autoptr(GArray) tids = NULL;
    g_autofree char *name = g_strdup_printf("domain %s", s->domain_name);
    int r;

    r = rv_guest_domain_xml_read_placement(s->placed_xml, name, &s->expect, error);
    if (r < 0)
        return r;
    r = rv_guest_libvirt_vcpu_tids(s->dom, &tids, error);
    if (r < 0)
        return r;
    r = rv_guest_verify_threads(root, s->expect, (const int *) tids->data, tids->len,
                                &s->verification, error);
    if (r < 0)
        return r;
    if (profile->locked) {
        int m = rv_guest_verify_locked_memory(root, s->verification, profile->memory_bytes, error);

        if (m < 0)
            return m;
        r += m;
    }
    if (r > 0) {
        s->untrusted = true;
        g_ptr_array_add(s->findings,
                        g_strdup_printf("live verification: %d check(s) FAIL: the guest does not "
                                        "run as its domain XML asks", r));
    }
    return 0;
}

int
rv_guest_virt_request_parse(const char *word, RvGuestVirtRequest *ret, GError **error)
{
    if (!word || !*word || strcmp(word, "auto") == 0)
        *ret = RV_GUEST_VIRT_REQUEST_AUTO;
    else if (strcmp(word, "kvm") == 0)
        *ret = RV_GUEST_VIRT_REQUEST_KVM;
    else if (strcmp(word, "tcg") == 0 || strcmp(word, "qemu") == 0)
        *ret = RV_GUEST_VIRT_REQUEST_TCG;
    else
        return rv_error_set(error, RV_ERROR_INVALID, EINVAL,
                            "invalid virt '%s': expected auto, kvm, tcg (alias qemu)", word);
    return 0;
}

/* What rv_guest_session_start() decided to try, and why. */
typedef struct {
    bool try_kvm, try_tcg;
    bool probing;               /* kvm unknown on this host: a probe boot */
    bool cache_tcg;             /* cache "tcg" once the TCG boot worked */
    char *key;                  /* the probe cache's key */
    char *cache_dir;
} VirtChoice;

/* Phase 1: the embedded image and the placement (unless given). */
static int
session_prepare(RvGuestSession *s, const RvGuestSessionOptions *opts, RvRoot *root,
                const char *cache_dir, RvGuestPlacement **ret_own_placement, GError **error)
{
    const RvGuestPlacement *placement = opts->placement;
    g_autoptr(RvGuestPlacement) own = NULL;
    int r;

    if (opts->profile->image == RV_GUEST_IMAGE_EMBEDDED) {
        /* once per process: a run's guests boot the image its first guest
         * got, without hashing the inputs again per guest start */
        RvGuestImageOptions iopts = { .cache_dir = cache_dir, .needs = opts->image_needs,
                                      .once_per_process = true };

        r = rv_guest_image_build(&iopts, &s->image, error);
        if (r < 0)
            return r;
    }
    if (rv_guest_profile_builds_image(opts->profile)) {
        RvGuestDiskImageOptions dio = { 0 };
        g_autofree char *dir = g_build_filename(cache_dir, "overlays", NULL);
        g_autofree char *name = g_strdup_printf("%s.qcow2", s->domain_name);

        if (opts->disk_image)
            dio = *opts->disk_image;
        dio.cache_dir = cache_dir;
        r = rv_guest_disk_image_build(opts->profile, &dio, &s->disk_image, error);
        if (r < 0)
            return r;
        if (g_mkdir_with_parents(dir, 0755) < 0)
            return rv_error_set(error, RV_ERROR_FAILED, errno, "Failed to create '%s': %s", dir,
                                g_strerror(errno));
        s->overlay = g_build_filename(dir, name, NULL);
        /* the profile's rule for guest disks: under the cache or allow_path */
        if (!rv_guest_profile_disk_allowed(opts->profile, s->overlay) &&
            !g_str_has_prefix(s->overlay, cache_dir))
            return rv_error_set(error, RV_ERROR_INVALID, EPERM,
                                "%s: overlay '%s' is outside the image cache and allow_path",
                                opts->profile->path, s->overlay);
    }
    if (!placement) {
        g_autoptr(RvGuestHostCpus) host = NULL;

        r = rv_guest_host_cpus_from_root(root, &host, error);
        if (r < 0)
            return r;
        r = rv_guest_place(opts->profile, host, &own, error);
        if (r < 0)
            return r;
        placement = own;
    }
    for (guint i = 0; placement->notes && i < placement->notes->len; i++)
        g_ptr_array_add(s->placement_notes, g_strdup(placement->notes->pdata[i]));
    *ret_own_placement = g_steal_pointer(&own);
    return 0;
}

/* Phase 2: kvm, TCG, or kvm with a TCG fallback (the module comment). */
static void
choose_virt(RvGuestSession *s, const RvGuestSessionOptions *opts, RvRoot *root, VirtChoice *c)
{
    g_autofree char *kvm_reason = NULL;

    switch (opts->virt) {
    case RV_GUEST_VIRT_REQUEST_KVM:
        c->try_kvm = true;
        s->virt_reason = g_strdup("kvm requested");
        return;
    case RV_GUEST_VIRT_REQUEST_TCG:
        c->try_tcg = true;
        s->virt_reason = g_strdup("tcg requested");
        return;
    default:
        break;
    }
    c->try_tcg = true;
    if (rv_host_kvm_detect(root, &kvm_reason) == RV_HOST_KVM_PVM) {
        /* No probe: a PVM guest kernel does not boot in useful time. */
        s->virt_reason = g_strdup_printf("%s: TCG", kvm_reason);
    } else if (!rv_guest_libvirt_has_virt_type(s->conn, "kvm")) {
        s->virt_reason = g_strdup("libvirt's domain capabilities offer no kvm domain "
                                  "(no usable /dev/kvm): TCG");
    } else {
        g_autofree char *cached_reason = NULL;
        g_autofree char *cached = NULL;

        c->key = probe_key(s);
        cached = probe_cache_read(c->cache_dir, c->key, &cached_reason);
        if (cached) {
            c->try_kvm = strcmp(cached, "kvm") == 0;
            s->virt_reason = g_strdup_printf("%s (cached probe)", cached_reason);
        } else {
            c->try_kvm = true;
            c->probing = true;
        }
    }
}

/* Phase 3a: the kvm boot (or probe).  Returns 0 when the guest runs or
 * TCG is to be tried (c->try_tcg), -errno when the session fails. */
static int
boot_kvm(RvGuestSession *s, const RvGuestSessionOptions *opts,
         const RvGuestPlacement *placement, VirtChoice *c, guint boot_ms, guint probe_ms,
         GError **error)
{
    g_autoptr(GError) kerr = NULL;
    int r;

    r = boot_once(s, opts, placement, RV_GUEST_VIRT_KVM, c->probing ? probe_ms : boot_ms,
                  c->try_tcg && c->probing ? &kerr : error);
    if (r == 0) {
        if (c->probing) {
            g_free(s->virt_reason);
            s->virt_reason = g_strdup("kvm probe: the guest booted under KVM");
            probe_cache_write(c->cache_dir, c->key, "kvm", s->virt_reason);
        }
        c->try_tcg = false;
        return 0;
    }
    if (!c->probing || g_error_matches(kerr, G_IO_ERROR, G_IO_ERROR_CANCELLED) || r == -EPERM) {
        if (kerr)
            g_propagate_error(error, g_steal_pointer(&kerr));
        return r;
    }
    g_free(s->virt_reason);
    if (g_error_matches(kerr, RV_ERROR, RV_ERROR_TIMEOUT)) {
        /* Started, never booted: /dev/kvm opens but guests hang (nested
         * setups).  That is a property of this host: cache it. */
        s->virt_reason = g_strdup_printf("kvm probe: the guest started under KVM but did "
                                         "not boot (%s): TCG", kerr->message);
        c->cache_tcg = true;   /* once the same guest boots under TCG */
    } else {
        /* Did not start under KVM for another reason: try TCG, cache nothing. */
        s->virt_reason = g_strdup_printf("kvm start failed (%s): TCG", kerr->message);
    }
    return 0;
}

/* Phase 3b: the TCG boot, marked untrusted. */
static int
boot_tcg(RvGuestSession *s, const RvGuestSessionOptions *opts,
         const RvGuestPlacement *placement, const VirtChoice *c, guint boot_ms, GError **error)
{
    int r = boot_once(s, opts, placement, RV_GUEST_VIRT_QEMU, boot_ms, error);

    if (r < 0)
        return r;
    /* Only now is "KVM hangs, TCG boots" a fact about this host rather
     * than a broken image. */
    if (c->cache_tcg)
        probe_cache_write(c->cache_dir, c->key, "tcg", s->virt_reason);
    s->untrusted = true;
    g_ptr_array_add(s->findings,
                    g_strdup("virt=tcg: QEMU emulates the guest CPU (no working KVM); "
                             "latencies are emulation artefacts, not RT results"));
    return 0;
}

/* After the RT-group fallback: cross-check the cause with the host
 * inspector (host/facts/state.h). */
static void
note_rt_group_trap(RvGuestSession *s, RvRoot *root)
{
    g_autoptr(RvHostState) st = NULL;
    g_autoptr(GError) ignored = NULL;

    if (rv_host_state_load(root, 0, &st, &ignored) < 0 || st->rt_group_trap != RV_TRI_YES)
        return;
    g_ptr_array_add(s->findings,
                    g_strdup_printf("host state confirms the RT-group trap: cgroup v1 cpu "
                                    "hierarchy at %s with CONFIG_RT_GROUP_SCHED, machine "
                                    "group cpu.rt_runtime_us = %s",
                                    st->cgroup_v1_cpu_mount ? st->cgroup_v1_cpu_mount : "?",
                                    st->machine_rt_runtime_us.known
                                        ? (st->machine_rt_runtime_us.value == 0 ? "0" : "non-zero")
                                        : "unknown"));
}

int
rv_guest_session_start(const RvGuestSessionOptions *opts, RvGuestSession **ret, GError **error)
{
    g_autoptr(RvGuestSession) s = g_new0(RvGuestSession, 1);
    g_autoptr(RvRoot) own_root = NULL;
    g_autoptr(RvGuestPlacement) own_placement = NULL;
    g_autofree char *cache_dir = NULL;
    RvRoot *root = opts->root;
    guint boot_tcg_ms = opts->boot_timeout_ms ? opts->boot_timeout_ms : DEFAULT_BOOT_TCG_MS;
    guint boot_kvm_ms = opts->boot_timeout_ms ? opts->boot_timeout_ms : DEFAULT_BOOT_KVM_MS;
    guint probe_ms = opts->kvm_probe_timeout_ms ? opts->kvm_probe_timeout_ms : DEFAULT_KVM_PROBE_MS;
    VirtChoice c = { 0 };
    gint64 t_start = g_get_monotonic_time();
    int r;

    s->findings = g_ptr_array_new_with_free_func(g_free);
    s->placement_notes = g_ptr_array_new_with_free_func(g_free);
    watch_start(s, opts->cancellable);
    s->uuid = opts->uuid ? g_strdup(opts->uuid) : g_uuid_string_random();
    s->uri = g_strdup(rv_guest_libvirt_uri(opts->uri));
    /* limits are learned for the local system daemon only: its PID file
     * names the instance (guest/limits.h) */
    if (g_strcmp0(s->uri, "qemu:///system") == 0) {
        s->daemon_key = rv_guest_limits_daemon_key(opts->root);
        s->run_dir = rv_guest_limits_run_dir();
    }
    s->domain_name = opts->domain_name ? g_strdup(opts->domain_name)
                                       : g_strdup_printf("rtvirt-%s-%d", opts->profile->name,
                                                         (int) getpid());
    cache_dir = opts->cache_dir ? g_strdup(opts->cache_dir) : rv_guest_image_default_cache_dir();
    if (!root) {
        r = rv_host_root_open("/", &own_root, error);
        if (r < 0)
            return r;
        root = own_root;
    }
    r = session_prepare(s, opts, root, cache_dir, &own_placement, error);
    if (r < 0)
        return r;
    r = rv_guest_libvirt_connect_later_keepalive(s->uri, &s->conn, error);
    if (r < 0)
        return r;
    watch_connection(s);

    c.cache_dir = cache_dir;
    choose_virt(s, opts, root, &c);
    /* a daemon serving guests under TCG answers slowly (guest/libvirt.h) */
    rv_guest_libvirt_keepalive(s->conn, c.try_kvm ? RV_GUEST_LIBVIRT_KEEPALIVE_COUNT
                                                  : RV_GUEST_LIBVIRT_KEEPALIVE_COUNT_TCG);
    r = 0;
    if (c.try_kvm)
        r = boot_kvm(s, opts, opts->placement ? opts->placement : own_placement, &c,
                     boot_kvm_ms, probe_ms, error);
    if (r == 0 && c.try_tcg)
        r = boot_tcg(s, opts, opts->placement ? opts->placement : own_placement, &c,
                     boot_tcg_ms, error);
    g_free(c.key);
    if (r < 0)
        return r;

    s->ready_ms = (guint64) ((g_get_monotonic_time() - t_start) / 1000);
    if (s->fifo_dropped)
        note_rt_group_trap(s, root);
    r = verify(s, opts->profile, root, error);
    if (r < 0)
        return r;   /* s is freed: the domain is destroyed */
    *ret = g_steal_pointer(&s);
    return 0;
}


int
rv_guest_session_exec(RvGuestSession *s, const char * const *argv, guint timeout_ms,
                      guint expect_ms, gsize max_output, RvGuestExecResult *ret, GError **error)
{
    int r;

    if (!s->agent)
        return rv_error_set(error, RV_ERROR_FAILED, ENOTCONN,
                            "Domain '%s' is not running", s->domain_name);
    r = rv_guest_agent_exec(s->agent, argv, timeout_ms, expect_ms, max_output, s->cancellable, ret,
                            error);
    if (r < 0)
        r = watch_error(s, r, error);
    return r;
}
