/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * results/context.h: the host context of a results store, the facts that
 * tell two stores' machines and software apart (rteval records the same in
 * its report's SystemInfo, mmtests in its "environment" files).
 *
 * In run.json (results/store.h) it is the optional object "context", after
 * "host" (old stores have none; every member may be null: unknown):
 *   context {
 *     kernel   {release, version, cmdline},      /proc/sys/kernel/osrelease,
 *                                                /proc/sys/kernel/version,
 *                                                /proc/cmdline
 *     cpu      {vendor, model_name, family, model, stepping, microcode},
 *              /proc/cpuinfo of the first processor (arch/x86/kernel/cpu/
 *              proc.c); family, model, stepping integers 0..65535, the
 *              others text ("0x1000065" for microcode)
 *     smt      {control, active}                  /sys/devices/system/cpu/smt/
 *              (Documentation/ABI/testing/sysfs-devices-system-cpu);
 *              active a boolean
 *     dmi      {sys_vendor, product_name, product_version, bios_vendor,
 *               bios_version, bios_date}          the world-readable files of
 *              /sys/class/dmi/id (Documentation/ABI/testing/sysfs-class-dmi-id;
 *              serial numbers and UUIDs are root-only and never read)
 *     versions {rtvirt, qemu, libvirt, rt_tests, cyclictest}
 *              rtvirt: the build's version; qemu: "QEMU emulator version X"
 *              of qemu-system-ARCH --version; libvirt: libvirtd --version;
 *              rt_tests: the Debian package version (dpkg-query); cyclictest:
 *              "cyclictest V X" of cyclictest --help (the binary the
 *              embedded guest copies from the host)
 *   }
 * A reader refuses a member of the wrong type naming it
 * ("run.json: context.cpu.family: ..."); unknown members are ignored, so a
 * newer writer's additions still read.
 */
#pragma once

#include <glib.h>
#include <json-glib/json-glib.h>

typedef struct {
    char *kernel_release;
    char *kernel_version;
    char *kernel_cmdline;
    char *cpu_vendor;          /* "GenuineIntel", "AuthenticAMD" */
    char *cpu_model_name;
    gint64 cpu_family;         /* -1: unknown */
    gint64 cpu_model;          /* -1: unknown */
    gint64 cpu_stepping;       /* -1: unknown */
    char *cpu_microcode;
    char *smt_control;         /* "on", "off", "forceoff", "notsupported", ... */
    int smt_active;            /* -1 unknown, 0, 1 */
    char *dmi_sys_vendor;
    char *dmi_product_name;
    char *dmi_product_version;
    char *dmi_bios_vendor;
    char *dmi_bios_version;
    char *dmi_bios_date;
    char *ver_rtvirt;
    char *ver_qemu;
    char *ver_libvirt;
    char *ver_rt_tests;
    char *ver_cyclictest;
} RvStoreContext;

/** rv_result_context_new: every member unknown (NULL, -1). */
RvStoreContext *rv_result_context_new(void);
void rv_result_context_free(RvStoreContext *ctx);
G_DEFINE_AUTOPTR_CLEANUP_FUNC(RvStoreContext, rv_result_context_free)

/** rv_result_context_copy: (transfer full) a deep copy; NULL for NULL. */
RvStoreContext *rv_result_context_copy(const RvStoreContext *ctx);

/**
 * rv_result_context_build:
 * @b: a JsonBuilder where a value is expected
 * @ctx: (nullable): the context; NULL is written as JSON null
 * @escape: turns any bytes into valid UTF-8 (rv_result_store_text_escape)
 *
 * Writes the "context" object in the layout above, unknown members as null.
 */
void rv_result_context_build(JsonBuilder *b, const RvStoreContext *ctx,
                             char *(*escape)(const char *text));

/**
 * rv_result_context_read:
 * @node: (nullable): the "context" member of run.json; NULL or JSON null is
 *        "no context" (an old store)
 * @doc: the file name for messages ("DIR/run.json")
 * @ret: (out) (transfer full) (nullable): the context, NULL when absent;
 *       written only on success
 * @error: RV_ERROR_INVALID "DOC: context.cpu.family: ..." for a member of
 *         the wrong type or out of range (util/json.h's rules)
 *
 * Returns: 0, or -EINVAL.
 */
int rv_result_context_read(JsonNode *node, const char *doc, RvStoreContext **ret,
                           GError **error) G_GNUC_WARN_UNUSED_RESULT;

/**
 * rv_result_context_differences:
 * @a, @b: (nullable): the contexts of two stores of one host name
 *
 * What keeps two stores of one host name from being "the same host": a
 * different kernel release or command line, CPU, microcode, SMT state or
 * BIOS version.
 *
 * Returns: (transfer full) (nullable): "kernel release 6.1.0-27-amd64 vs
 * 6.1.0-28-amd64; microcode 0x10 vs 0x11", or NULL when every fact both
 * know agrees.
 */
char *rv_result_context_differences(const RvStoreContext *a, const RvStoreContext *b);
