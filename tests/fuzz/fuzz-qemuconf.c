/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * tests/fuzz/fuzz-qemuconf.c: libFuzzer target for rv_host_qemu_conf_parse()
 * and rv_host_qemu_conf_set() (host/facts/qemu-conf.h): qemu.conf comes from the
 * host, or from a captured root.  Invariants: a parse either fails with
 * RV_ERROR_INVALID "PATH:LINE: ..." or gives entries whose byte spans lie
 * in the text and start with their key; setting the first key to 1 gives a
 * text that parses again and answers 1 for it.
 * Seeds: tests/data/check/qemu-conf-two-sched-core/qemu.conf,
 * tests/data/apply-root/etc/libvirt/qemu.conf.
 */
#include <stdint.h>
#include <string.h>

#include "host/facts/qemu-conf.h"
#include "util/error.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    g_autofree char *s = NULL;
    g_autofree char *set = NULL;
    g_autoptr(RvQemuConf) conf = NULL, back = NULL;
    g_autoptr(GError) err = NULL;
    const RvQemuConfEntry *first;
    size_t len;

    if (size > 65536)
        return 0;
    s = g_strndup((const char *) data, size);
    len = strlen(s);
    if (rv_host_qemu_conf_parse(s, "q", &conf, &err) < 0) {
        if (!g_error_matches(err, RV_ERROR, RV_ERROR_INVALID) || !g_str_has_prefix(err->message, "q:"))
            __builtin_trap();
        return 0;
    }
    for (guint i = 0; i < conf->entries->len; i++) {
        const RvQemuConfEntry *e = conf->entries->pdata[i];

        if (e->start >= e->end || e->end > len || strncmp(s + e->start, e->key, strlen(e->key)) != 0 ||
            !e->text || (e->type == RV_QEMU_CONF_LIST) != (e->items != NULL))
            __builtin_trap();
    }
    if (!conf->entries->len)
        return 0;
    first = conf->entries->pdata[0];
    set = rv_host_qemu_conf_set(s, first->key, "1", NULL);
    if (!set || rv_host_qemu_conf_parse(set, "q", &back, NULL) < 0 ||
        g_strcmp0(rv_host_qemu_conf_get_text(back, first->key), "1") != 0)
        __builtin_trap();
    return 0;
}
