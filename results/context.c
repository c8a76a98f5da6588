/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * results/context.c: the host context of a store (see context.h for the
 * layout and where each fact comes from).
 */
#include <errno.h>
#include <stddef.h>
#include <string.h>

#include "results/context.h"
#include "util/error.h"
#include "util/json.h"

typedef enum { F_TEXT, F_INT, F_BOOL } FieldType;

/* One member of "context": its group, its key and where it lives in the
 * struct.  Reader, writer, copy and free walk this one table. */
typedef struct {
    const char *group;
    const char *key;
    FieldType type;
    size_t offset;
    const char *label;         /* for rv_result_context_differences(), or NULL */
} Field;

#define TEXT(g, k, m, l) { g, k, F_TEXT, offsetof(RvStoreContext, m), l }
#define INT(g, k, m, l) { g, k, F_INT, offsetof(RvStoreContext, m), l }
#define BOOL(g, k, m, l) { g, k, F_BOOL, offsetof(RvStoreContext, m), l }

static const Field fields[] = {
    TEXT("kernel", "release", kernel_release, "kernel release"),
    TEXT("kernel", "version", kernel_version, NULL),
    TEXT("kernel", "cmdline", kernel_cmdline, "kernel command line"),
    TEXT("cpu", "vendor", cpu_vendor, "CPU vendor"),
    TEXT("cpu", "model_name", cpu_model_name, "CPU model"),
    INT("cpu", "family", cpu_family, "CPU family"),
    INT("cpu", "model", cpu_model, "CPU model number"),
    INT("cpu", "stepping", cpu_stepping, "CPU stepping"),
    TEXT("cpu", "microcode", cpu_microcode, "microcode"),
    TEXT("smt", "control", smt_control, "SMT control"),
    BOOL("smt", "active", smt_active, "SMT active"),
    TEXT("dmi", "sys_vendor", dmi_sys_vendor, "system vendor"),
    TEXT("dmi", "product_name", dmi_product_name, "system product"),
    TEXT("dmi", "product_version", dmi_product_version, NULL),
    TEXT("dmi", "bios_vendor", dmi_bios_vendor, NULL),
    TEXT("dmi", "bios_version", dmi_bios_version, "BIOS version"),
    TEXT("dmi", "bios_date", dmi_bios_date, NULL),
    TEXT("versions", "rtvirt", ver_rtvirt, NULL),
    TEXT("versions", "qemu", ver_qemu, NULL),
    TEXT("versions", "libvirt", ver_libvirt, NULL),
    TEXT("versions", "rt_tests", ver_rt_tests, NULL),
    TEXT("versions", "cyclictest", ver_cyclictest, NULL),
};

static const char *const groups[] = { "kernel", "cpu", "smt", "dmi", "versions" };

#define AT(ctx, f, T) ((T *) (void *) ((char *) (ctx) + (f)->offset))
#define AT_C(ctx, f, T) ((const T *) (const void *) ((const char *) (ctx) + (f)->offset))

RvStoreContext *
rv_result_context_new(void)
{
    RvStoreContext *ctx = g_new0(RvStoreContext, 1);

    for (gsize i = 0; i < G_N_ELEMENTS(fields); i++) {
        if (fields[i].type == F_INT)
            *AT(ctx, &fields[i], gint64) = -1;
        else if (fields[i].type == F_BOOL)
            *AT(ctx, &fields[i], int) = -1;
    }
    return ctx;
}

void
rv_result_context_free(RvStoreContext *ctx)
{
    if (!ctx)
        return;
    for (gsize i = 0; i < G_N_ELEMENTS(fields); i++)
        if (fields[i].type == F_TEXT)
            g_free(*AT(ctx, &fields[i], char *));
    g_free(ctx);
}

RvStoreContext *
rv_result_context_copy(const RvStoreContext *ctx)
{
    RvStoreContext *c;

    if (!ctx)
        return NULL;
    c = g_memdup2(ctx, sizeof(*ctx));
    for (gsize i = 0; i < G_N_ELEMENTS(fields); i++)
        if (fields[i].type == F_TEXT)
            *AT(c, &fields[i], char *) = g_strdup(*AT_C(ctx, &fields[i], char *));
    return c;
}

void
rv_result_context_build(JsonBuilder *b, const RvStoreContext *ctx,
                        char *(*escape)(const char *text))
{
    if (!ctx) {
        json_builder_add_null_value(b);
        return;
    }
    json_builder_begin_object(b);
    for (gsize g = 0; g < G_N_ELEMENTS(groups); g++) {
        json_builder_set_member_name(b, groups[g]);
        json_builder_begin_object(b);
        for (gsize i = 0; i < G_N_ELEMENTS(fields); i++) {
            const Field *f = &fields[i];

            if (strcmp(f->group, groups[g]) != 0)
                continue;
            json_builder_set_member_name(b, f->key);
            if (f->type == F_TEXT) {
                g_autofree char *t = escape(*AT_C(ctx, f, char *));

                if (t)
                    json_builder_add_string_value(b, t);
                else
                    json_builder_add_null_value(b);
            } else if (f->type == F_INT) {
                gint64 v = *AT_C(ctx, f, gint64);

                if (v >= 0)
                    json_builder_add_int_value(b, v);
                else
                    json_builder_add_null_value(b);
            } else {
                int v = *AT_C(ctx, f, int);

                if (v >= 0)
                    json_builder_add_boolean_value(b, v != 0);
                else
                    json_builder_add_null_value(b);
            }
        }
        json_builder_end_object(b);
    }
    json_builder_end_object(b);
}

static int
read_field(JsonObject *o, const RvJsonAt *at, const Field *f, RvStoreContext *ctx,
           GError **error)
{
    int r;

    if (f->type == F_TEXT) {
        const char *s = NULL;

        r = rv_json_get_string_opt(o, at, f->key, &s, error);
        if (r > 0)
            *AT(ctx, f, char *) = g_strdup(s);
    } else if (f->type == F_INT) {
        gint64 v = -1;

        r = rv_json_get_int_opt(o, at, f->key, 0, 65535, &v, error);
        *AT(ctx, f, gint64) = v;
    } else {
        bool v = false;

        r = rv_json_get_bool_opt(o, at, f->key, &v, error);
        if (r > 0)
            *AT(ctx, f, int) = v ? 1 : 0;
    }
    /* out of range is malformed too: one error code for a bad store */
    return r < 0 ? -EINVAL : 0;
}

int
rv_result_context_read(JsonNode *node, const char *doc, RvStoreContext **ret,
                       GError **error)
{
    g_autoptr(RvStoreContext) ctx = NULL;
    JsonObject *root;

    if (!node || JSON_NODE_HOLDS_NULL(node)) {
        *ret = NULL;
        return 0;
    }
    if (!JSON_NODE_HOLDS_OBJECT(node))
        return rv_error_set(error, RV_ERROR_INVALID, EINVAL,
                            "%s: context: expected an object", doc);
    root = json_node_get_object(node);
    ctx = rv_result_context_new();
    for (gsize g = 0; g < G_N_ELEMENTS(groups); g++) {
        const RvJsonAt top = { doc, "context" };
        g_autofree char *path = g_strconcat("context.", groups[g], NULL);
        const RvJsonAt at = { doc, path };
        JsonObject *o = NULL;
        int r = rv_json_get_object_opt(root, &top, groups[g], &o, error);

        if (r < 0)
            return -EINVAL;
        if (!o)
            continue;
        for (gsize i = 0; i < G_N_ELEMENTS(fields); i++) {
            if (strcmp(fields[i].group, groups[g]) != 0)
                continue;
            r = read_field(o, &at, &fields[i], ctx, error);
            if (r < 0)
                return r;
        }
    }
    *ret = g_steal_pointer(&ctx);
    return 0;
}

static char *
field_text(const RvStoreContext *ctx, const Field *f)
{
    if (f->type == F_TEXT)
        return g_strdup(*AT_C(ctx, f, char *));
    if (f->type == F_INT)
        return *AT_C(ctx, f, gint64) >= 0
            ? g_strdup_printf("%" G_GINT64_FORMAT, *AT_C(ctx, f, gint64)) : NULL;
    return *AT_C(ctx, f, int) >= 0 ? g_strdup(*AT_C(ctx, f, int) ? "yes" : "no") : NULL;
}

char *
rv_result_context_differences(const RvStoreContext *a, const RvStoreContext *b)
{
    g_autoptr(GString) out = g_string_new(NULL);

    if (!a || !b)
        return NULL;
    for (gsize i = 0; i < G_N_ELEMENTS(fields); i++) {
        const Field *f = &fields[i];
        g_autofree char *x = NULL, *y = NULL;

        if (!f->label)
            continue;
        x = field_text(a, f);
        y = field_text(b, f);
        /* a fact one side does not know is no difference */
        if (!x || !y || strcmp(x, y) == 0)
            continue;
        g_string_append_printf(out, "%s%s %s vs %s", out->len ? "; " : "", f->label, x, y);
    }
    return out->len ? g_string_free(g_steal_pointer(&out), FALSE) : NULL;
}
