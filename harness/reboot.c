/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * harness/reboot.c: the resume state and the boot checks of reboot-resume
 * (see harness/reboot.h).
 */
#include <errno.h>
#include <string.h>
#include <glib/gstdio.h>
#include <json-glib/json-glib.h>

#include "harness/reboot.h"
#include "util/cpulist.h"
#include "util/error.h"
#include "util/json.h"

void
rv_harness_reboot_state_free(RvRebootState *st)
{
    if (!st)
        return;
    g_free(st->matrix);
    g_free(st->matrix_sha256);
    g_free(st->cmdline_before);
    g_free(st->updated);
    g_free(st->installed_boot_id);
    g_free(st);
}

static char *
state_path(const char *store_dir)
{
    return g_build_filename(store_dir, RV_HARNESS_REBOOT_STATE, NULL);
}

int
rv_harness_reboot_state_write(const char *store_dir, const RvRebootState *st, GError **error)
{
    g_autoptr(JsonBuilder) b = json_builder_new();
    g_autoptr(JsonNode) root = NULL;
    g_autofree char *path = state_path(store_dir);
    g_autofree char *seed = g_strdup_printf("%" G_GUINT64_FORMAT, st->seed);
    g_autofree char *text = NULL;
    g_autoptr(GError) local = NULL;

    json_builder_begin_object(b);
    json_builder_set_member_name(b, "schema_version");
    json_builder_add_int_value(b, 1);
    json_builder_set_member_name(b, "matrix");
    json_builder_add_string_value(b, st->matrix);
    json_builder_set_member_name(b, "matrix_sha256");
    json_builder_add_string_value(b, st->matrix_sha256);
    json_builder_set_member_name(b, "seed");
    json_builder_add_string_value(b, seed);
    json_builder_set_member_name(b, "repetitions");
    json_builder_add_int_value(b, st->repetitions);
    json_builder_set_member_name(b, "duration_us");
    json_builder_add_int_value(b, (gint64) st->duration_us);
    json_builder_set_member_name(b, "warmup_us");
    json_builder_add_int_value(b, (gint64) st->warmup_us);
    json_builder_set_member_name(b, "timeout_us");
    json_builder_add_int_value(b, (gint64) st->timeout_us);
    json_builder_set_member_name(b, "boot");
    json_builder_add_int_value(b, st->boot);
    json_builder_set_member_name(b, "boots");
    json_builder_add_int_value(b, st->boots);
    json_builder_set_member_name(b, "cmdline_before");
    json_builder_add_string_value(b, st->cmdline_before);
    json_builder_set_member_name(b, "ok_runs");
    json_builder_add_int_value(b, st->ok_runs);
    json_builder_set_member_name(b, "failed_runs");
    json_builder_add_int_value(b, st->failed_runs);
    json_builder_set_member_name(b, "runs_total");
    json_builder_add_int_value(b, st->runs_total);
    json_builder_set_member_name(b, "runs_done");
    json_builder_add_int_value(b, st->runs_done);
    json_builder_set_member_name(b, "run_us");
    json_builder_add_int_value(b, (gint64) st->run_us);
    if (st->updated) {
        json_builder_set_member_name(b, "updated");
        json_builder_add_string_value(b, st->updated);
    }
    if (st->installed_boot_id) {
        json_builder_set_member_name(b, "installed_boot_id");
        json_builder_add_string_value(b, st->installed_boot_id);
    }
    json_builder_end_object(b);
    root = json_builder_get_root(b);
    text = rv_json_to_text(root);
    if (!g_file_set_contents(path, text, -1, &local))
        return rv_error_set(error, RV_ERROR_FAILED, EIO, "Failed to write '%s': %s", path,
                            local->message);
    return 0;
}

/* One member of resume.json: a string, or an integer in [0, max]. */
static int
get_str(JsonObject *o, const char *path, const char *key, char **ret, GError **error)
{
    JsonNode *n = json_object_get_member(o, key);

    if (!n || !JSON_NODE_HOLDS_VALUE(n) || json_node_get_value_type(n) != G_TYPE_STRING)
        return rv_error_set(error, RV_ERROR_INVALID, EINVAL, "%s: \"%s\": expected a string",
                            path, key);
    *ret = g_strdup(json_node_get_string(n));
    return 0;
}

static int
get_uint(JsonObject *o, const char *path, const char *key, gint64 max, guint64 *ret,
         GError **error)
{
    JsonNode *n = json_object_get_member(o, key);
    gint64 v;

    if (!n || !JSON_NODE_HOLDS_VALUE(n) || json_node_get_value_type(n) != G_TYPE_INT64 ||
        (v = json_node_get_int(n)) < 0 || v > max)
        return rv_error_set(error, RV_ERROR_INVALID, EINVAL,
                            "%s: \"%s\": expected an integer 0-%" G_GINT64_FORMAT, path, key,
                            max);
    *ret = (guint64) v;
    return 0;
}

int
rv_harness_reboot_state_read(const char *store_dir, RvRebootState **ret, GError **error)
{
    g_autofree char *path = state_path(store_dir);
    g_autofree char *text = NULL, *seed = NULL;
    g_autoptr(GError) local = NULL;
    g_autoptr(JsonParser) parser = json_parser_new();
    g_autoptr(RvRebootState) st = g_new0(RvRebootState, 1);
    gsize len = 0;
    JsonObject *o;
    guint64 v = 0, ver = 0;
    char *end = NULL;

    if (!g_file_test(store_dir, G_FILE_TEST_IS_DIR))
        return rv_error_set(error, RV_ERROR_INVALID, ENOENT,
                            "%s: no such results store (not a directory)", store_dir);
    if (!g_file_get_contents(path, &text, &len, &local)) {
        /* any stopped run keeps resume.json, not only one between boots */
        if (g_error_matches(local, G_FILE_ERROR, G_FILE_ERROR_NOENT))
            return rv_error_set(error, RV_ERROR_INVALID, ENOENT,
                                "%s: no %s: no stopped or rebooting `rtvirt run` to resume in "
                                "this store", store_dir, RV_HARNESS_REBOOT_STATE);
        return rv_error_set(error, RV_ERROR_FAILED, EIO, "Failed to read '%s': %s", path,
                            local->message);
    }
    /* bounded, no text of the file echoed, empty refused (json-glib gives
     * an empty file no root: a GLib CRITICAL below) */
    if (rv_json_parse_untrusted(parser, path, text, len, RV_JSON_MAX_DEPTH, NULL, error) < 0)
        return -EINVAL;
    if (!JSON_NODE_HOLDS_OBJECT(json_parser_get_root(parser)))
        return rv_error_set(error, RV_ERROR_INVALID, EINVAL, "%s: not a JSON object", path);
    o = json_node_get_object(json_parser_get_root(parser));
    if (get_uint(o, path, "schema_version", G_MAXINT32, &ver, error) < 0)
        return -EINVAL;
    if (ver != 1)
        return rv_error_set(error, RV_ERROR_INVALID, EINVAL,
                            "%s: schema_version %" G_GUINT64_FORMAT " is not supported (this "
                            "rtvirt reads 1)", path, ver);
    if (get_str(o, path, "matrix", &st->matrix, error) < 0 ||
        get_str(o, path, "matrix_sha256", &st->matrix_sha256, error) < 0 ||
        get_str(o, path, "seed", &seed, error) < 0 ||
        get_str(o, path, "cmdline_before", &st->cmdline_before, error) < 0)
        return -EINVAL;
    errno = 0;
    st->seed = g_ascii_strtoull(seed, &end, 10);
    if (errno || end == seed || *end)
        return rv_error_set(error, RV_ERROR_INVALID, EINVAL,
                            "%s: \"seed\": '%s' is not an unsigned 64-bit number", path, seed);
    if (get_uint(o, path, "repetitions", 1000, &v, error) < 0)
        return -EINVAL;
    st->repetitions = (unsigned) v;
    if (get_uint(o, path, "duration_us", G_MAXINT64, &st->duration_us, error) < 0 ||
        get_uint(o, path, "warmup_us", G_MAXINT64, &st->warmup_us, error) < 0 ||
        get_uint(o, path, "timeout_us", G_MAXINT64, &st->timeout_us, error) < 0)
        return -EINVAL;
    if (get_uint(o, path, "boots", 100000, &v, error) < 0)
        return -EINVAL;
    st->boots = (unsigned) v;
    if (get_uint(o, path, "boot", st->boots ? st->boots - 1 : 0, &v, error) < 0)
        return -EINVAL;
    st->boot = (unsigned) v;
    if (get_uint(o, path, "ok_runs", G_MAXINT32, &v, error) < 0)
        return -EINVAL;
    st->ok_runs = (unsigned) v;
    if (get_uint(o, path, "failed_runs", G_MAXINT32, &v, error) < 0)
        return -EINVAL;
    st->failed_runs = (unsigned) v;
    /* progress: optional (a store of an older rtvirt has none) */
    if (json_object_has_member(o, "runs_total")) {
        if (get_uint(o, path, "runs_total", G_MAXINT32, &v, error) < 0)
            return -EINVAL;
        st->runs_total = (unsigned) v;
        if (get_uint(o, path, "runs_done", st->runs_total, &v, error) < 0)
            return -EINVAL;
        st->runs_done = (unsigned) v;
        if (get_uint(o, path, "run_us", G_MAXINT64, &st->run_us, error) < 0)
            return -EINVAL;
    }
    if (json_object_has_member(o, "updated") &&
        get_str(o, path, "updated", &st->updated, error) < 0)
        return -EINVAL;
    if (json_object_has_member(o, "installed_boot_id") &&
        get_str(o, path, "installed_boot_id", &st->installed_boot_id, error) < 0)
        return -EINVAL;
    *ret = g_steal_pointer(&st);
    return 0;
}

int
rv_harness_reboot_state_remove(const char *store_dir)
{
    g_autofree char *path = state_path(store_dir);

    if (g_unlink(path) < 0 && errno != ENOENT)
        return -errno;
    return 0;
}

char *
rv_harness_reboot_file_sha256(const char *path)
{
    g_autofree char *text = NULL;
    gsize len = 0;

    if (!g_file_get_contents(path, &text, &len, NULL))
        return NULL;
    return g_compute_checksum_for_data(G_CHECKSUM_SHA256, (const guchar *) text, len);
}

char *
rv_harness_reboot_cmdline(RvRoot *root)
{
    g_autofree char *text = NULL;

    if (rv_host_root_read(root, "/proc/cmdline", &text, NULL) < 0)
        return NULL;
    g_strstrip(text);
    return g_steal_pointer(&text);
}

char *
rv_harness_reboot_boot_id(RvRoot *root)
{
    g_autofree char *text = NULL;

    if (rv_host_root_read(root, RV_HARNESS_REBOOT_BOOT_ID, &text, NULL) < 0)
        return NULL;
    g_strstrip(text);
    if (!*text || strlen(text) > 64)
        return NULL;
    return g_steal_pointer(&text);
}

/* A sysfs cpulist that must equal @want (a kernel cpulist); absent: not
 * judged. */
static void
check_cpulist(RvRoot *root, const char *arg, const char *file, const char *want, GString *why)
{
    g_autofree char *have = NULL;
    RvCpuSet a, b;

    if (rv_host_root_read(root, file, &have, NULL) < 0)
        return;
    g_strstrip(have);
    if (rv_cpulist_parse(want, 0, &a, NULL) < 0)
        return;   /* the kernel's syntax beyond ours: /proc/cmdline had it */
    if (rv_cpulist_parse(have, 0, &b, NULL) == 0 && rv_cpuset_equal(&a, &b))
        return;
    g_string_append_printf(why, "%s%s: %s is '%s'", why->len ? "; " : "", arg, file, have);
}

char *
rv_harness_reboot_verify(RvRoot *root, char **bootargs, const char *cmdline)
{
    g_auto(GStrv) words = g_strsplit_set(cmdline ? cmdline : "", " \t\n", -1);
    g_autoptr(GString) why = g_string_new(NULL);

    for (char **a = bootargs; a && *a; a++) {
        bool found = false;

        /* the kernel's parameters end at "--": the rest is init's
         * (Documentation/admin-guide/kernel-parameters.rst) */
        for (char **w = words; *w && !found && strcmp(*w, "--") != 0; w++)
            found = strcmp(*w, *a) == 0;
        if (!found) {
            g_string_append_printf(why, "%s'%s' is not in /proc/cmdline", why->len ? "; " : "",
                                   *a);
            continue;
        }
        if (strcmp(*a, "nosmt") == 0) {
            g_autofree char *active = NULL;

            if (rv_host_root_read(root, "/sys/devices/system/cpu/smt/active", &active, NULL) >= 0 &&
                strcmp(g_strstrip(active), "0") != 0)
                g_string_append_printf(why, "%snosmt: /sys/devices/system/cpu/smt/active is "
                                       "'%s'", why->len ? "; " : "", active);
        } else if (g_str_has_prefix(*a, "isolcpus=")) {
            /* isolcpus=[flag,...,]LIST: the flags are words, the list starts
             * at the first digit (Documentation/admin-guide/kernel-parameters.txt) */
            const char *list = *a + strlen("isolcpus=");
            const char *p = list;

            while (*p && !g_ascii_isdigit(*p)) {
                const char *comma = strchr(p, ',');

                if (!comma)
                    break;
                p = comma + 1;
            }
            if (g_ascii_isdigit(*p))
                check_cpulist(root, *a, "/sys/devices/system/cpu/isolated", p, why);
        } else if (g_str_has_prefix(*a, "nohz_full=")) {
            check_cpulist(root, *a, "/sys/devices/system/cpu/nohz_full",
                          *a + strlen("nohz_full="), why);
        }
    }
    return why->len ? g_string_free(g_steal_pointer(&why), FALSE) : NULL;
}

int
rv_harness_reboot_command(char ***ret_argv, GError **error)
{
    const char *env = g_getenv("RTVIRT_REBOOT_CMD");
    g_autoptr(GError) local = NULL;
    char **argv = NULL;

    if (!env || !*env) {
        *ret_argv = g_strdupv((char *[]) { (char *) "systemctl", (char *) "reboot", NULL });
        return 0;
    }
    if (!g_shell_parse_argv(env, NULL, &argv, &local))
        return rv_error_set(error, RV_ERROR_INVALID, EINVAL, "$RTVIRT_REBOOT_CMD '%s': %s", env,
                            local->message);
    *ret_argv = argv;
    return 0;
}
