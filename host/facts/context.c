/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * host/facts/context.c: the host context of a results store (host/facts/context.h).
 */
#include <errno.h>
#include <string.h>
#include <sys/utsname.h>

#include "host/facts/context.h"
#include "util/error.h"

#ifndef RV_VERSION
#define RV_VERSION "0.1"
#endif

/* every version program gets this long and this much output */
#define VERSION_TIMEOUT_MS 5000
#define VERSION_OUTPUT_MAX (64u << 10)

static char *
read_value(RvRoot *root, const char *path)
{
    char *v = NULL;

    if (rv_host_root_read_value(root, path, &v, NULL) < 0)
        return NULL;
    if (!*v) {
        g_free(v);
        return NULL;
    }
    return v;
}

static gint64
parse_small_int(const char *v)
{
    guint64 n;

    if (!v || !g_ascii_string_to_unsigned(v, 10, 0, 65535, &n, NULL))
        return -1;
    return (gint64) n;
}

void
rv_host_context_parse_cpuinfo(const char *text, RvStoreContext *ctx)
{
    g_auto(GStrv) lines = g_strsplit(text ? text : "", "\n", -1);
    gboolean seen = FALSE;

    for (guint i = 0; lines[i]; i++) {
        char *colon = strchr(lines[i], ':');
        const char *p = lines[i];
        g_autofree char *key = NULL, *value = NULL;

        while (g_ascii_isspace(*p))
            p++;
        if (!*p && seen)
            break;          /* the end of the first processor's block */
        if (!colon)
            continue;
        key = g_strstrip(g_strndup(lines[i], colon - lines[i]));
        value = g_strstrip(g_strdup(colon + 1));
        seen = TRUE;
        if (strcmp(key, "vendor_id") == 0 && !ctx->cpu_vendor)
            ctx->cpu_vendor = g_steal_pointer(&value);
        else if (strcmp(key, "model name") == 0 && !ctx->cpu_model_name)
            ctx->cpu_model_name = g_steal_pointer(&value);
        else if (strcmp(key, "cpu family") == 0)
            ctx->cpu_family = parse_small_int(value);
        else if (strcmp(key, "model") == 0)
            ctx->cpu_model = parse_small_int(value);
        else if (strcmp(key, "stepping") == 0)
            ctx->cpu_stepping = parse_small_int(value);
        else if (strcmp(key, "microcode") == 0 && !ctx->cpu_microcode)
            ctx->cpu_microcode = g_steal_pointer(&value);
    }
}

char *
rv_host_context_parse_version(const char *tool, const char *output)
{
    static const struct {
        const char *tool;
        const char *prefix;     /* the text before the version on its line */
    } forms[] = {
        { "qemu", "QEMU emulator version " },
        { "libvirt", "(libvirt) " },
        { "cyclictest", "cyclictest V " },
    };
    g_auto(GStrv) lines = NULL;

    if (!output)
        return NULL;
    lines = g_strsplit(output, "\n", 8);
    for (gsize f = 0; f < G_N_ELEMENTS(forms); f++) {
        if (strcmp(forms[f].tool, tool) != 0)
            continue;
        for (guint i = 0; lines[i]; i++) {
            const char *p = strstr(lines[i], forms[f].prefix);
            gsize n;

            if (!p)
                continue;
            p += strlen(forms[f].prefix);
            n = strcspn(p, " \t\r()");
            if (n)
                return g_strndup(p, n);
        }
    }
    return NULL;
}

/* The first line of a program's output (stdout, else stderr), or NULL when
 * it cannot run. */
static char *
run_output(RvRunner *runner, const char *const *argv, gboolean need_zero)
{
    g_auto(RvRunResult) res = { 0 };

    if (rv_runner_run(runner, argv, NULL, VERSION_TIMEOUT_MS, VERSION_OUTPUT_MAX, &res,
                      NULL) < 0)
        return NULL;
    if (need_zero && res.exit_status != 0)
        return NULL;
    if (res.out && *res.out)
        return g_strdup(res.out);
    return g_strdup(res.err);
}

static void
load_versions(RvRunner *runner, RvStoreContext *ctx)
{
    struct utsname u;
    g_autofree char *qemu = NULL, *out = NULL;

    if (uname(&u) == 0) {
        g_autofree char *bin = g_strconcat("qemu-system-", u.machine, NULL);
        const char *argv[] = { bin, "--version", NULL };

        out = run_output(runner, argv, TRUE);
        ctx->ver_qemu = rv_host_context_parse_version("qemu", out);
        g_clear_pointer(&out, g_free);
    }
    {
        /* the monolithic daemon, else the modular QEMU driver's; sbin is
         * not in every PATH */
        static const char *const daemons[] = { "libvirtd", "/usr/sbin/libvirtd", "virtqemud",
                                               "/usr/sbin/virtqemud" };

        for (gsize i = 0; i < G_N_ELEMENTS(daemons) && !ctx->ver_libvirt; i++) {
            const char *argv[] = { daemons[i], "--version", NULL };

            out = run_output(runner, argv, TRUE);
            ctx->ver_libvirt = rv_host_context_parse_version("libvirt", out);
            g_clear_pointer(&out, g_free);
        }
    }
    {
        const char *argv[] = { "dpkg-query", "-W", "-f=${Version}", "rt-tests", NULL };

        out = run_output(runner, argv, TRUE);
        if (out && *g_strstrip(out))
            ctx->ver_rt_tests = g_steal_pointer(&out);
        g_clear_pointer(&out, g_free);
    }
    {
        /* cyclictest has no --version; its help's first line has it */
        const char *argv[] = { "cyclictest", "--help", NULL };

        out = run_output(runner, argv, FALSE);
        ctx->ver_cyclictest = rv_host_context_parse_version("cyclictest", out);
    }
}

int
rv_host_context_load(RvRoot *root, RvRunner *runner, RvStoreContext **ret)
{
    static const struct {
        const char *file;
        size_t offset;
    } dmi[] = {
        { "sys_vendor", G_STRUCT_OFFSET(RvStoreContext, dmi_sys_vendor) },
        { "product_name", G_STRUCT_OFFSET(RvStoreContext, dmi_product_name) },
        { "product_version", G_STRUCT_OFFSET(RvStoreContext, dmi_product_version) },
        { "bios_vendor", G_STRUCT_OFFSET(RvStoreContext, dmi_bios_vendor) },
        { "bios_version", G_STRUCT_OFFSET(RvStoreContext, dmi_bios_version) },
        { "bios_date", G_STRUCT_OFFSET(RvStoreContext, dmi_bios_date) },
    };
    g_autoptr(RvStoreContext) ctx = rv_result_context_new();
    g_autofree char *cpuinfo = NULL, *active = NULL;

    ctx->kernel_release = read_value(root, "/proc/sys/kernel/osrelease");
    ctx->kernel_version = read_value(root, "/proc/sys/kernel/version");
    ctx->kernel_cmdline = read_value(root, "/proc/cmdline");
    if (rv_host_root_read(root, "/proc/cpuinfo", &cpuinfo, NULL) >= 0)
        rv_host_context_parse_cpuinfo(cpuinfo, ctx);
    ctx->smt_control = read_value(root, "/sys/devices/system/cpu/smt/control");
    active = read_value(root, "/sys/devices/system/cpu/smt/active");
    if (active && (strcmp(active, "0") == 0 || strcmp(active, "1") == 0))
        ctx->smt_active = active[0] == '1';
    for (gsize i = 0; i < G_N_ELEMENTS(dmi); i++) {
        g_autofree char *path = g_strconcat("/sys/class/dmi/id/", dmi[i].file, NULL);

        G_STRUCT_MEMBER(char *, ctx, dmi[i].offset) = read_value(root, path);
    }
    ctx->ver_rtvirt = g_strdup(RV_VERSION);
    if (runner && rv_host_root_is_live(root))
        load_versions(runner, ctx);
    *ret = g_steal_pointer(&ctx);
    return 0;
}
