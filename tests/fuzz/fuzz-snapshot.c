/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * tests/fuzz/fuzz-snapshot.c: libFuzzer target for host/facts/snapshot.h: the
 * input is split at the first two NUL bytes into /proc/interrupts,
 * /proc/softirqs and /proc/schedstat texts (missing parts = file absent),
 * parsed, and diffed against itself.  Invariants: parse succeeds or fails
 * with an error and no snapshot; a snapshot diffed with itself succeeds and
 * lists no interrupt row (every delta is 0).
 * Seeds: tests/data/snapshot/NAME/interrupts.before.
 */
#include <stdint.h>
#include <string.h>

#include "host/facts/snapshot.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    g_autofree char *buf = NULL;
    char *parts[3] = { NULL, NULL, NULL };
    g_autoptr(RvHostSnapshot) snap = NULL;
    g_autoptr(GError) err = NULL;
    size_t n = 0;

    if (size > 65536)
        return 0;
    buf = g_malloc(size + 1);
    memcpy(buf, data, size);
    buf[size] = '\0';
    parts[n++] = buf;
    for (size_t i = 0; i < size && n < 3; i++)
        if (buf[i] == '\0')
            parts[n++] = buf + i + 1;
    if (rv_host_snapshot_parse(parts[0], parts[1], parts[2], &snap, &err) == 0) {
        g_autoptr(JsonNode) diff = NULL;
        JsonObject *irq;

        if (!snap || err)
            __builtin_trap();
        if (rv_host_snapshot_diff(snap, snap, &diff, NULL) < 0)
            __builtin_trap();
        irq = json_object_get_object_member(json_node_get_object(diff), "interrupts");
        if (!irq || json_object_get_size(irq) != 0)
            __builtin_trap();
    } else if (snap || !err) {
        __builtin_trap();
    }
    return 0;
}
