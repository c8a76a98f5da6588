/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * host/tune/bootargs.c: boot arguments of a host profile (see host/tune/bootargs.h).
 */
#include <errno.h>
#include <string.h>

#include "host/tune/bootargs.h"
#include "host/tune/journal.h"
#include "util/error.h"

#define TOOL_TIMEOUT_MS (5 * 60 * 1000)

char *
rv_host_bootargs_dropin(char **args, const char *profile_name)
{
    g_autofree char *header =
        g_strdup_printf("# Written by 'rtvirt host bootargs --install' for host profile %s.\n"
                        "# 'rtvirt host bootargs --remove' restores the previous state.\n",
                        profile_name ? profile_name : "?");

    return rv_host_bootargs_dropin_with(args, header);
}

char *
rv_host_bootargs_dropin_with(char **args, const char *header)
{
    g_autofree char *joined = g_strjoinv(" ", args);

    return g_strdup_printf("%sGRUB_CMDLINE_LINUX_DEFAULT=\"$GRUB_CMDLINE_LINUX_DEFAULT %s\"\n",
                           header, joined);
}

int
rv_host_bootargs_check(char **args, GError **error)
{
    for (char **a = args; a && *a; a++) {
        if (!**a)
            return rv_error_set(error, RV_ERROR_INVALID, EINVAL, "Empty boot argument");
        for (const char *c = *a; *c; c++)
            if (!g_ascii_isalnum(*c) && !strchr("_.,=:/+-", *c))
                return rv_error_set(error, RV_ERROR_INVALID, EINVAL,
                                    "Boot argument '%s' holds '%c': only letters, digits "
                                    "and _.,=:/+- can be written to the boot loader "
                                    "configuration", *a, *c);
    }
    return 0;
}

static bool
use_grubby(RvRoot *root)
{
    g_autofree char *grubby = NULL;

    if (!rv_host_root_is_live(root))
        return false;
    grubby = g_find_program_in_path("grubby");
    return grubby != NULL;
}

static int
run_update_grub(RvRunner *runner, GError **error)
{
    const char *argv[] = { "update-grub", NULL };

    return rv_runner_run_check(runner, argv, TOOL_TIMEOUT_MS, NULL, error);
}

/* "args=\"...\"" from `grubby --info=DEFAULT`. */
static char **
grubby_current_args(RvRunner *runner, GError **error, int *ret_r)
{
    const char *argv[] = { "grubby", "--info=DEFAULT", NULL };
    g_autofree char *out = NULL;
    g_auto(GStrv) lines = NULL;

    *ret_r = rv_runner_run_check(runner, argv, TOOL_TIMEOUT_MS, &out, error);
    if (*ret_r < 0)
        return NULL;
    lines = g_strsplit(out ? out : "", "\n", -1);
    for (char **l = lines; *l; l++) {
        if (g_str_has_prefix(*l, "args=")) {
            g_autofree char *v = g_strdup(*l + 5);
            g_strstrip(v);
            if (*v == '"')
                memmove(v, v + 1, strlen(v));
            if (*v && v[strlen(v) - 1] == '"')
                v[strlen(v) - 1] = '\0';
            return g_strsplit_set(v, " ", -1);
        }
    }
    return g_new0(char *, 1);
}

static char *
arg_key(const char *arg)
{
    const char *eq = strchr(arg, '=');

    return eq ? g_strndup(arg, eq - arg) : g_strdup(arg);
}

/* Custom journal entry "grubby": data is "remove=K1 K2\nrestore=A1 A2". */
static int
grubby_restore(RvRoot *root, const char *key, const char *data, gpointer user_data,
               GError **error)
{
    RvRunner *runner = user_data;
    g_auto(GStrv) lines = g_strsplit(data ? data : "", "\n", -1);
    int r;

    (void) root;
    (void) key;
    for (char **l = lines; *l; l++) {
        if (g_str_has_prefix(*l, "remove=") && (*l)[7]) {
            g_autofree char *opt = g_strdup_printf("--remove-args=%s", *l + 7);
            const char *argv[] = { "grubby", "--update-kernel=ALL", opt, NULL };
            r = rv_runner_run_check(runner, argv, TOOL_TIMEOUT_MS, NULL, error);
            if (r < 0)
                return r;
        }
    }
    for (char **l = lines; *l; l++) {
        if (g_str_has_prefix(*l, "restore=") && (*l)[8]) {
            g_autofree char *opt = g_strdup_printf("--args=%s", *l + 8);
            const char *argv[] = { "grubby", "--update-kernel=ALL", opt, NULL };
            r = rv_runner_run_check(runner, argv, TOOL_TIMEOUT_MS, NULL, error);
            if (r < 0)
                return r;
        }
    }
    return 0;
}

static int
install_grubby(RvJournal *journal, char **args, RvRunner *runner, GError **error)
{
    g_autoptr(GString) remove = g_string_new(NULL);
    g_autoptr(GString) restore = g_string_new(NULL);
    g_autofree char *data = NULL;
    g_autofree char *joined = NULL;
    g_autofree char *opt = NULL;
    g_auto(GStrv) current = NULL;
    int r;

    current = grubby_current_args(runner, error, &r);
    if (!current)
        return r;
    for (char **a = args; *a; a++) {
        g_autofree char *k = arg_key(*a);
        bool same = false;

        for (char **c = current; *c; c++) {
            g_autofree char *ck = arg_key(*c);
            if (strcmp(ck, k) != 0)
                continue;
            if (strcmp(*c, *a) == 0)
                same = true;
            else
                g_string_append_printf(restore, "%s%s", restore->len ? " " : "", *c);
        }
        if (!same)
            g_string_append_printf(remove, "%s%s", remove->len ? " " : "", k);
    }
    if (!remove->len)
        return 0;
    data = g_strdup_printf("remove=%s\nrestore=%s", remove->str, restore->str);
    r = rv_host_journal_record_custom(journal, "grubby", "args", data, error);
    if (r < 0)
        return r;
    joined = g_strjoinv(" ", args);
    opt = g_strdup_printf("--args=%s", joined);
    {
        const char *argv[] = { "grubby", "--update-kernel=ALL", opt, NULL };
        return rv_runner_run_check(runner, argv, TOOL_TIMEOUT_MS, NULL, error);
    }
}

static char *
journal_file(RvRoot *root, const char *journal_path)
{
    return journal_path ? g_strdup(journal_path)
                        : rv_host_root_resolve(root, RV_HOST_JOURNAL_BOOTARGS_PATH);
}

/* Without grubby, /etc/default/grub must exist for a grub.d drop-in:
 * 0, or -ENOENT (RV_ERROR_UNSUPPORTED) naming where it was looked for. */
static int
need_grub(RvRoot *root, GError **error)
{
    g_autofree char *where = NULL;

    if (rv_host_root_exists(root, "/etc/default/grub"))
        return 0;
    where = rv_host_root_resolve(root, "/etc/default/grub");
    return rv_error_set(error, RV_ERROR_UNSUPPORTED, ENOENT,
                        "Cannot install boot arguments: neither '%s' nor grubby found; "
                        "add them to the boot loader by hand", where);
}

int
rv_host_bootargs_install(RvRoot *root, const char *journal_path, char **args,
                         const char *profile_name, RvRunner *runner,
                         const char **ret_method, GError **error)
{
    g_autofree char *content = rv_host_bootargs_dropin(args, profile_name);

    return rv_host_bootargs_install_dropin(root, journal_path, RV_HOST_BOOTARGS_DROPIN, content,
                                           args, runner, ret_method, error);
}

int
rv_host_bootargs_install_dropin(RvRoot *root, const char *journal_path, const char *dropin,
                                const char *content, char **args, RvRunner *runner,
                                const char **ret_method, GError **error)
{
    g_autoptr(RvJournal) journal = NULL;
    g_autofree char *jpath = journal_file(root, journal_path);
    int r;

    r = rv_host_bootargs_check(args, error);
    if (r < 0)
        return r;
    if (use_grubby(root)) {
        r = rv_host_journal_open(root, jpath, &journal, error);
        if (r < 0)
            return r;
        r = install_grubby(journal, args, runner, error);
        if (r < 0)
            return r;
        r = rv_host_journal_commit(journal, error);
        if (r < 0)
            return r;
        if (ret_method)
            *ret_method = "grubby";
        return 0;
    }
    r = need_grub(root, error);
    if (r < 0)
        return r;
    r = rv_host_journal_open(root, jpath, &journal, error);
    if (r < 0)
        return r;
    r = rv_host_journal_set_file(journal, dropin, content, -1, 0644, error);
    if (r < 0)
        return r;
    r = run_update_grub(runner, error);
    if (r < 0)
        return r;
    /* the drop-in and the regenerated grub.cfg are one completed change */
    r = rv_host_journal_commit(journal, error);
    if (r < 0)
        return r;
    if (ret_method)
        *ret_method = "grub.d drop-in + update-grub";
    return 0;
}

int
rv_host_bootargs_describe_install(RvRoot *root, char **args, const char *profile_name, GString *out,
                                  const char **ret_method, GError **error)
{
    g_autofree char *joined = NULL;
    int r;

    r = rv_host_bootargs_check(args, error);
    if (r < 0)
        return r;
    joined = g_strjoinv(" ", args);
    if (use_grubby(root)) {
        g_string_append_printf(out, "would record the arguments grubby replaces in the journal, then run: "
                               "grubby --update-kernel=ALL --args=%s\n", joined);
        if (ret_method)
            *ret_method = "grubby";
        return 0;
    }
    r = need_grub(root, error);
    if (r < 0)
        return r;
    {
        g_autofree char *content = rv_host_bootargs_dropin(args, profile_name);
        g_auto(GStrv) lines = g_strsplit(content, "\n", -1);

        g_string_append_printf(out, "would write %s (its previous state journaled first):\n",
                               RV_HOST_BOOTARGS_DROPIN);
        for (char **l = lines; *l; l++)
            if (**l)
                g_string_append_printf(out, "    %s\n", *l);
        g_string_append(out, "would run: update-grub\n");
    }
    if (ret_method)
        *ret_method = "grub.d drop-in + update-grub";
    return 0;
}

int
rv_host_bootargs_remove(RvRoot *root, const char *journal_path, RvRunner *runner,
                        GError **error)
{
    g_autoptr(RvJournal) journal = NULL;
    g_autofree char *jpath = journal_file(root, journal_path);
    guint restored = 0;
    int r;

    r = rv_host_journal_open(root, jpath, &journal, error);
    if (r < 0)
        return r;
    if (rv_host_journal_n_entries(journal) == 0)
        return 0;
    rv_host_journal_set_custom_handler(journal, "grubby", grubby_restore, runner);
    r = rv_host_journal_revert(journal, &restored, NULL, error);
    if (r < 0)
        return r;
    if (rv_host_root_exists(root, "/etc/default/grub") && !use_grubby(root)) {
        r = run_update_grub(runner, error);
        if (r < 0)
            return r;
    }
    return (int) restored;
}
