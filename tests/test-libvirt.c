/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * tests/test-libvirt.c: guest/libvirt.h against libvirt's own test driver
 * (test:///default, libvirt.org/drvtest.html: a real libvirt connection
 * whose domains live in the process; every connection to test:///default
 * of one process shares them).
 *
 * rv_guest_libvirt_destroy_by_uuid() on a new connection destroys the
 * domain that has that UUID and that name, leaves one with another name
 * alone, and says 0 for a UUID no domain has; a URI that does not answer
 * fails after its timeout, naming the domain.  Lifecycle events arrive
 * through the GLib event loop (libvirt-glib) without the caller iterating
 * anything.
 */
#include <errno.h>
#include <string.h>
#include <glib/gstdio.h>
#include <libvirt/virterror.h>

#include "guest/libvirt.h"
#include "util/error.h"

#define UUID "8f0e7c2a-3d61-4b59-9a43-0c6f2b1d5e77"
#define XML "<domain type='test'><name>rtvirt-t-rt</name><uuid>" UUID "</uuid>" \
            "<memory>65536</memory><os><type>hvm</type></os></domain>"

static void
test_destroy_by_uuid(void)
{
    g_autoptr(GError) err = NULL;
    g_autoptr(virConnect) conn = NULL;
    g_autoptr(virDomain) dom = NULL;

    g_assert_cmpint(rv_guest_libvirt_connect("test:///default", &conn, &err), ==, 0);
    dom = virDomainCreateXML(conn, XML, 0);
    g_assert_nonnull(dom);
    g_assert_cmpint(virDomainIsActive(dom), ==, 1);

    /* same UUID, another name: not ours */
    g_assert_cmpint(rv_guest_libvirt_destroy_by_uuid("test:///default", "rtvirt-t-other", UUID,
                                                     1000, &err), ==, 0);
    g_assert_no_error(err);
    g_assert_cmpint(virDomainIsActive(dom), ==, 1);

    g_assert_cmpint(rv_guest_libvirt_destroy_by_uuid("test:///default", "rtvirt-t-rt", UUID,
                                                     1000, &err), ==, 1);
    g_assert_no_error(err);
    /* transient: gone with its destroy */
    g_assert_null(virDomainLookupByUUIDString(conn, UUID));
    virResetLastError();

    /* nothing left to destroy */
    g_assert_cmpint(rv_guest_libvirt_destroy_by_uuid("test:///default", "rtvirt-t-rt", UUID,
                                                     1000, &err), ==, 0);
    g_assert_no_error(err);
}

static int
on_lifecycle(virConnectPtr conn, virDomainPtr dom, int event, int detail, void *opaque)
{
    (void) conn;
    (void) dom;
    if (event == VIR_DOMAIN_EVENT_STOPPED && detail == VIR_DOMAIN_EVENT_STOPPED_DESTROYED)
        g_atomic_int_set((gint *) opaque, 1);
    return 0;
}

/* The event loop of rv_guest_libvirt_events_start() (libvirt-glib on a
 * GLib main loop in its own thread) delivers a lifecycle event while the
 * caller does something else. */
static void
test_lifecycle_event(void)
{
    g_autoptr(GError) err = NULL;
    g_autoptr(virConnect) conn = NULL;
    g_autoptr(virDomain) dom = NULL;
    gint stopped = 0;
    int id;

    g_assert_cmpint(rv_guest_libvirt_connect("test:///default", &conn, &err), ==, 0);
    dom = virDomainCreateXML(conn, XML, 0);
    g_assert_nonnull(dom);
    id = virConnectDomainEventRegisterAny(conn, dom, VIR_DOMAIN_EVENT_ID_LIFECYCLE,
                                          VIR_DOMAIN_EVENT_CALLBACK(on_lifecycle), &stopped, NULL);
    g_assert_cmpint(id, >=, 0);
    g_assert_cmpint(virDomainDestroy(dom), ==, 0);
    /* no timing asserted: wait as long as it takes (the test harness's
     * timeout ends a test that hangs) */
    while (!g_atomic_int_get(&stopped))
        g_usleep(10 * 1000);
    g_assert_cmpint(virConnectDomainEventDeregisterAny(conn, id), ==, 0);
}

static void
test_destroy_unreachable(void)
{
    g_autoptr(GError) err = NULL;
    g_autofree char *dir = g_dir_make_tmp("rv-libvirt-XXXXXX", NULL);
    g_autofree char *uri = g_strdup_printf("qemu:///session?socket=%s/none-sock", dir);
    int r = rv_guest_libvirt_destroy_by_uuid(uri, "rtvirt-t-rt", UUID, 600, &err);

    g_assert_cmpint(r, ==, -ECONNREFUSED);
    g_assert_nonnull(err);
    g_assert_nonnull(strstr(err->message, "Domain 'rtvirt-t-rt' (uuid " UUID ") may still run"));
    g_rmdir(dir);
}

int
main(int argc, char **argv)
{
    g_test_init(&argc, &argv, NULL);
    g_test_add_func("/libvirt/destroy-by-uuid", test_destroy_by_uuid);
    g_test_add_func("/libvirt/destroy-unreachable", test_destroy_unreachable);
    g_test_add_func("/libvirt/lifecycle-event", test_lifecycle_event);
    return g_test_run();
}
