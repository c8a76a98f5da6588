/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * util/profile-path.c: profiles by name (util/profile-path.h).
 */
#include <errno.h>
#include <string.h>

#include "util/error.h"
#include "util/profile-path.h"
#include "util/suggest.h"

static const char *const kind_dirs[RV_PROFILE_N_KINDS] = { "host", "guests", "matrix" };
static const char *const kind_names[RV_PROFILE_N_KINDS] = { "host", "guest", "matrix" };

const char *
rv_profile_kind_dir(RvProfileKind kind)
{
    return kind_dirs[kind];
}

const char *
rv_profile_kind_name(RvProfileKind kind)
{
    return kind_names[kind];
}

static void
dir_free(gpointer p)
{
    RvProfileDir *d = p;

    g_free(d->dir);
    g_free(d);
}

static void
add_dir(GPtrArray *a, char *dir, const char *source)
{
    RvProfileDir *d = g_new0(RvProfileDir, 1);

    d->dir = dir;
    d->source = source;
    g_ptr_array_add(a, d);
}

GPtrArray *
rv_profile_dirs(void)
{
    GPtrArray *a = g_ptr_array_new_with_free_func(dir_free);
    g_autofree char *cwd = g_get_current_dir();
    g_autofree char *exe = g_file_read_link("/proc/self/exe", NULL);

    add_dir(a, g_build_filename(cwd, "profiles", NULL), "source tree");
    /* g_get_user_config_dir(): $XDG_CONFIG_HOME, else ~/.config */
    add_dir(a, g_build_filename(g_get_user_config_dir(), "rtvirt", NULL), "user");
    add_dir(a, g_strdup("/etc/rtvirt"), "system");
    if (exe) {
        g_autofree char *bindir = g_path_get_dirname(exe);
        g_autofree char *prefix = g_path_get_dirname(bindir);

        add_dir(a, g_build_filename(prefix, "share", "rtvirt", "profiles", NULL), "installed");
    }
    return a;
}

int
rv_profile_find(RvProfileKind kind, const char *name, char **ret_path, GError **error)
{
    g_autoptr(GPtrArray) dirs = NULL;
    g_autoptr(GString) tried = NULL;

    if (strchr(name, '/') || g_file_test(name, G_FILE_TEST_EXISTS) || !*name) {
        *ret_path = g_strdup(name);
        return 0;
    }
    dirs = rv_profile_dirs();
    tried = g_string_new(NULL);
    for (guint i = 0; i < dirs->len; i++) {
        const RvProfileDir *d = dirs->pdata[i];
        g_autofree char *ini = g_strdup_printf("%s.ini", name);
        g_autofree char *p1 = g_build_filename(d->dir, kind_dirs[kind], ini, NULL);
        g_autofree char *p2 = g_build_filename(d->dir, kind_dirs[kind], name, NULL);

        if (g_file_test(p1, G_FILE_TEST_IS_REGULAR)) {
            *ret_path = g_steal_pointer(&p1);
            return 0;
        }
        if (g_file_test(p2, G_FILE_TEST_IS_REGULAR)) {
            *ret_path = g_steal_pointer(&p2);
            return 0;
        }
        g_string_append_printf(tried, "%s%s/%s", i ? ", " : "", d->dir, kind_dirs[kind]);
    }
    {
        g_autoptr(GPtrArray) list = rv_profile_list();
        g_autoptr(GPtrArray) names = g_ptr_array_new();
        g_autofree char *hint = NULL;

        for (guint i = 0; i < list->len; i++) {
            const RvProfileEntry *e = list->pdata[i];

            if (e->kind == kind)
                g_ptr_array_add(names, e->name);
        }
        g_ptr_array_add(names, NULL);
        hint = rv_suggest_hint(name, (const char * const *) names->pdata);
        /* "demo" is looked up as demo.ini and demo, "demo.ini" as itself */
        return rv_error_set(error, RV_ERROR_INVALID, ENOENT,
                            "No %s profile named '%s'%s: not a file, and no %s%s in %s "
                            "(see 'rtvirt profiles')", kind_names[kind], name, hint, name,
                            g_str_has_suffix(name, ".ini") ? "" : ".ini", tried->str);
    }
}

static void
entry_free(gpointer p)
{
    RvProfileEntry *e = p;

    g_free(e->name);
    g_free(e->path);
    g_free(e);
}

static gint
compare_str(gconstpointer a, gconstpointer b)
{
    return strcmp(*(char *const *) a, *(char *const *) b);
}

GPtrArray *
rv_profile_list(void)
{
    GPtrArray *out = g_ptr_array_new_with_free_func(entry_free);
    g_autoptr(GPtrArray) dirs = rv_profile_dirs();
    g_autoptr(GHashTable) seen = g_hash_table_new_full(g_str_hash, g_str_equal, g_free, NULL);

    for (guint i = 0; i < dirs->len; i++) {
        const RvProfileDir *d = dirs->pdata[i];

        for (int k = 0; k < RV_PROFILE_N_KINDS; k++) {
            g_autofree char *sub = g_build_filename(d->dir, kind_dirs[k], NULL);
            g_autoptr(GDir) dir = g_dir_open(sub, 0, NULL);
            g_autoptr(GPtrArray) names = g_ptr_array_new_with_free_func(g_free);
            const char *n;

            if (!dir)
                continue;
            while ((n = g_dir_read_name(dir)))
                if (g_str_has_suffix(n, ".ini"))
                    g_ptr_array_add(names, g_strndup(n, strlen(n) - 4));
            g_ptr_array_sort(names, compare_str);
            for (guint j = 0; j < names->len; j++) {
                RvProfileEntry *e = g_new0(RvProfileEntry, 1);
                g_autofree char *file = g_strdup_printf("%s.ini", (char *) names->pdata[j]);
                char *key = g_strdup_printf("%d/%s", k, (char *) names->pdata[j]);

                e->kind = (RvProfileKind) k;
                e->name = g_strdup(names->pdata[j]);
                e->path = g_build_filename(sub, file, NULL);
                e->source = d->source;
                e->shadowed = !g_hash_table_add(seen, key);
                g_ptr_array_add(out, e);
            }
        }
    }
    return out;
}
