/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * tests/fuzz/fuzz-domain-status.c: libFuzzer target for the reader of a
 * domain XML and of libvirt's status file (/run/libvirt/qemu/NAME.xml,
 * <domstatus pid=...>), rv_guest_domain_load(): what `guest check
 * FILE.xml --root` reads from a captured root while libvirt may be
 * rewriting it.
 *
 *   make fuzz O=build-fuzz
 *   UBSAN_OPTIONS=halt_on_error=1 nice -n 10 build-fuzz/fuzz/fuzz-domain-status \
 *       -max_total_time=600 CORPUS tests/data/guest-check
 */
#include <stdint.h>
#include <stdlib.h>

#include <glib.h>

#include "guest/check.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    char *xml = g_strndup((const char *) data, size);
    RvGuestDomain *d = NULL;
    GError *err = NULL;

    if (rv_guest_domain_load(xml, "fuzz.xml", &d, &err) < 0)
        g_clear_error(&err);
    else
        rv_guest_domain_free(d);
    g_free(xml);
    return 0;
}
