/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * harness/cmd-profiles.c: `rtvirt profiles`: the profiles a name finds
 * (util/profile-path.h) and where they are.
 */
#include <stdio.h>

#include "harness/cmd-common.h"
#include "harness/commands.h"
#include "harness/log.h"
#include "util/error.h"
#include "util/escape.h"
#include "util/json.h"
#include "util/profile-path.h"

static const RvCmdSpec profiles_spec = {
    .params = "- list the profiles found by name",
    .summary =
        "A profile argument (rtvirt host check NAME, guest xml NAME, run NAME) that\n"
        "has no '/' and is no existing file is a name, looked up as KIND/NAME.ini in\n"
        "./profiles (a source tree), $XDG_CONFIG_HOME/rtvirt, /etc/rtvirt, and the\n"
        "installed PREFIX/share/rtvirt/profiles beside the binary; the first wins.",
    .description = "Prints the directories searched, then one line per profile: KIND NAME\n"
                   "PATH (SOURCE), '(shadowed)' where an earlier directory has the same\n"
                   "name.  --json prints {schema_version, dirs, profiles}.",
    .exit_status = "0 listed (also when none is found), 2 bad option.",
    .common = RV_COMMON_JSON,
};

/* The profile's one line of description: [main] description (guest and
 * matrix profiles) or [main] summary (host profiles, as tuned.conf), read
 * without its includes; NULL when it has none or cannot be read (the list
 * still shows it: `rtvirt host check` etc. say what is wrong with it). */
static char *
profile_description(const char *path)
{
    g_autoptr(GKeyFile) kf = g_key_file_new();
    char *d;

    if (!g_key_file_load_from_file(kf, path, G_KEY_FILE_NONE, NULL))
        return NULL;
    d = g_key_file_get_string(kf, "main", "description", NULL);
    if (!d)
        d = g_key_file_get_string(kf, "main", "summary", NULL);
    if (d)
        g_strstrip(d);
    return d;
}

static int
print_json(GPtrArray *dirs, GPtrArray *list)
{
    g_autoptr(JsonBuilder) b = json_builder_new();
    g_autoptr(JsonNode) node = NULL;

    rv_cmd_json_begin(b, 1);
    json_builder_set_member_name(b, "dirs");
    json_builder_begin_array(b);
    for (guint i = 0; i < dirs->len; i++) {
        const RvProfileDir *d = dirs->pdata[i];

        json_builder_begin_object(b);
        json_builder_set_member_name(b, "dir");
        json_builder_add_string_value(b, d->dir);
        json_builder_set_member_name(b, "source");
        json_builder_add_string_value(b, d->source);
        json_builder_set_member_name(b, "exists");
        json_builder_add_boolean_value(b, g_file_test(d->dir, G_FILE_TEST_IS_DIR));
        json_builder_end_object(b);
    }
    json_builder_end_array(b);
    json_builder_set_member_name(b, "profiles");
    json_builder_begin_array(b);
    for (guint i = 0; i < list->len; i++) {
        const RvProfileEntry *e = list->pdata[i];

        json_builder_begin_object(b);
        json_builder_set_member_name(b, "kind");
        json_builder_add_string_value(b, rv_profile_kind_name(e->kind));
        json_builder_set_member_name(b, "name");
        json_builder_add_string_value(b, e->name);
        json_builder_set_member_name(b, "path");
        json_builder_add_string_value(b, e->path);
        json_builder_set_member_name(b, "source");
        json_builder_add_string_value(b, e->source);
        json_builder_set_member_name(b, "shadowed");
        json_builder_add_boolean_value(b, e->shadowed);
        {
            g_autofree char *desc = profile_description(e->path);

            rv_json_add_string_or_null(b, "description", desc);
        }
        json_builder_end_object(b);
    }
    json_builder_end_array(b);
    json_builder_end_object(b);
    node = json_builder_get_root(b);
    return rv_cmd_print_json(node) < 0 ? RV_EXIT_ERROR : RV_EXIT_OK;
}

int
rv_cmd_profiles(int argc, char **argv)
{
    g_autoptr(GPtrArray) dirs = NULL;
    g_autoptr(GPtrArray) list = NULL;

    if (rv_cmd_parse(&profiles_spec, NULL, &argc, &argv) < 0)
        return RV_EXIT_ERROR;
    if (argc > 1) {
        rv_log_error("%s: unexpected argument '%s'", argv[0], argv[1]);
        return RV_EXIT_ERROR;
    }
    dirs = rv_profile_dirs();
    list = rv_profile_list();
    if (rv_cmd_common.json)
        return print_json(dirs, list);
    printf("# searched, in order:\n");
    for (guint i = 0; i < dirs->len; i++) {
        const RvProfileDir *d = dirs->pdata[i];

        printf("#   %s (%s%s)\n", d->dir, d->source,
               g_file_test(d->dir, G_FILE_TEST_IS_DIR) ? "" : ", absent");
    }
    for (guint i = 0; i < list->len; i++) {
        const RvProfileEntry *e = list->pdata[i];

        g_autofree char *desc = profile_description(e->path);
        g_autofree char *safe = desc ? rv_escape_text(g_steal_pointer(&desc)) : NULL;

        printf("%-6s %-24s %s (%s)%s\n", rv_profile_kind_name(e->kind), e->name, e->path,
               e->source, e->shadowed ? " (shadowed)" : "");
        if (safe && *safe)
            printf("       %s\n", safe);
    }
    if (fflush(stdout) != 0) {
        rv_log_error("Failed to write to stdout");
        return RV_EXIT_ERROR;
    }
    return RV_EXIT_OK;
}
