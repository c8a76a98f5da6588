/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * harness/cmd-common.c: the shared options and --help shape of every
 * command (harness/cmd-common.h, doc/cli.md).
 */
#include <errno.h>
#include <stdio.h>
#include <string.h>

#include "harness/cmd-common.h"
#include "harness/log.h"
#include "util/error.h"
#include "util/json.h"
#include "util/suggest.h"

RvCommonArgs rv_cmd_common;

static gboolean
on_verbose(const char *name, const char *value, gpointer data, GError **error)
{
    (void) name; (void) value; (void) data; (void) error;
    rv_cmd_common.verbose++;
    return TRUE;
}

/* The common group: only the options @spec asks for, plus -v and -q. */
static GOptionGroup *
common_group(const RvCmdSpec *spec)
{
    GOptionGroup *g = g_option_group_new("common", "Options", "Show the options", NULL, NULL);
    const GOptionEntry all[] = {
        { "json", 0, 0, G_OPTION_ARG_NONE, &rv_cmd_common.json,
          spec->json_help ? spec->json_help
                          : "Print the result as JSON on stdout (with schema_version)", NULL },
        { "root", 0, 0, G_OPTION_ARG_FILENAME, &rv_cmd_common.root,
          spec->root_help ? spec->root_help
                          : "Read /sys and /proc under DIR (a fixture tree from 'rtvirt host "
                            "capture'; default /)", "DIR" },
        { "duration", 'd', 0, G_OPTION_ARG_STRING, &rv_cmd_common.duration,
          spec->duration_help ? spec->duration_help
                              : "How long to measure: 10s, 1m, 500ms", "TIME" },
        { "host-profile", 'H', 0, G_OPTION_ARG_FILENAME, &rv_cmd_common.host_profile,
          spec->host_profile_help ? spec->host_profile_help
                                  : "Host profile (a name or a file, see 'rtvirt profiles')",
          "PROFILE" },
    };
    const GOptionEntry always[] = {
        { "verbose", 'v', G_OPTION_FLAG_NO_ARG, G_OPTION_ARG_CALLBACK, (gpointer) on_verbose,
          spec->verbose_help ? spec->verbose_help : "More log lines (repeat for debug lines)",
          NULL },
        { "quiet", 'q', 0, G_OPTION_ARG_NONE, &rv_cmd_common.quiet,
          "Only errors and warnings on stderr", NULL },
        { NULL }
    };
    static const unsigned bits[] = {
        RV_COMMON_JSON, RV_COMMON_ROOT, RV_COMMON_DURATION, RV_COMMON_HOST_PROFILE,
    };

    for (guint i = 0; i < G_N_ELEMENTS(bits); i++)
        if (spec->common & bits[i]) {
            GOptionEntry one[2] = { all[i], { NULL } };

            g_option_group_add_entries(g, one);
        }
    g_option_group_add_entries(g, always);
    return g;
}

/* GLib takes "--flag=VALUE" for a G_OPTION_ARG_NONE option and drops the
 * value: "--json=FILE" would print on stdout and write no file.  Refuse a
 * value given to a flag of @entries (or to --json/--quiet), naming it. */
static bool
flag_with_value(const GOptionEntry *entries, int argc, char **argv)
{
    for (int i = 1; i < argc; i++) {
        const char *a = argv[i], *eq;
        g_autofree char *name = NULL;
        bool flag = false;

        if (!strcmp(a, "--"))
            break;
        if (!g_str_has_prefix(a, "--") || !(eq = strchr(a, '=')))
            continue;
        name = g_strndup(a + 2, (gsize) (eq - a - 2));
        if (!strcmp(name, "json") || !strcmp(name, "quiet") || !strcmp(name, "verbose"))
            flag = true;
        for (const GOptionEntry *e = entries; e && e->long_name; e++)
            if (!strcmp(e->long_name, name) &&
                (e->arg == G_OPTION_ARG_NONE || (e->flags & G_OPTION_FLAG_NO_ARG)))
                flag = true;
        if (flag) {
            rv_log_error("%s: option --%s takes no value (got '%s')%s", argv[0], name, eq + 1,
                         !strcmp(name, "json") ? ": --json prints JSON on stdout" : "");
            return true;
        }
    }
    return false;
}

/* GOptionContext's errors in rtvirt's words, with "did you mean" for an
 * unknown option (the candidates: @entries and the common options).  The
 * GLib texts matched are those of glib/goption.c (2.74): "Unknown option
 * %s", "Cannot parse integer value “%s” for %s", "Integer value “%s” for
 * %s out of range", "Cannot parse double value “%s” for %s", "Double value
 * “%s” for %s out of range", "Missing argument for %s"; anything else is
 * passed on as GLib said it. */
static char *
option_error(const RvCmdSpec *spec, const GOptionEntry *entries, const GError *err)
{
    static const struct {
        const char *pattern;   /* GRegex on GLib's message */
        const char *format;    /* \1 the value, \2 the option */
    } words[] = {
        { "^Cannot parse integer value “(.*)” for (.*)$", "invalid value '\\1' for \\2: expected an integer" },
        { "^Integer value “(.*)” for (.*) out of range$", "invalid value '\\1' for \\2: out of range" },
        { "^Cannot parse double value “(.*)” for (.*)$", "invalid value '\\1' for \\2: expected a number" },
        { "^Double value “(.*)” for (.*) out of range$", "invalid value '\\1' for \\2: out of range" },
        { "^Missing argument for (.*)$", "option \\1 needs a value" },
    };

    if (g_error_matches(err, G_OPTION_ERROR, G_OPTION_ERROR_UNKNOWN_OPTION) &&
        g_str_has_prefix(err->message, "Unknown option ")) {
        const char *opt = err->message + strlen("Unknown option ");
        g_autoptr(GPtrArray) names = g_ptr_array_new_with_free_func(g_free);
        static const char *const common[] = { "json", "root", "duration", "host-profile", "verbose",
                                              "quiet", "help" };
        g_autofree char *hint = NULL;

        for (guint i = 0; i < G_N_ELEMENTS(common); i++)
            g_ptr_array_add(names, g_strdup_printf("--%s", common[i]));
        for (const GOptionEntry *e = entries; e && e->long_name; e++)
            g_ptr_array_add(names, g_strdup_printf("--%s", e->long_name));
        g_ptr_array_add(names, NULL);
        hint = rv_suggest_hint(opt, (const char * const *) names->pdata);
        return g_strdup_printf("unknown option %s%s; see --help", opt, hint);
    }
    (void) spec;
    for (guint i = 0; i < G_N_ELEMENTS(words); i++) {
        g_autoptr(GRegex) re = g_regex_new(words[i].pattern, 0, 0, NULL);

        if (re && g_regex_match(re, err->message, 0, NULL))
            return g_regex_replace(re, err->message, -1, 0, words[i].format, 0, NULL);
    }
    return g_strdup(err->message);
}

int
rv_cmd_parse(const RvCmdSpec *spec, const GOptionEntry *entries, int *argc, char ***argv)
{
    g_autoptr(GOptionContext) ctx = g_option_context_new(spec->params);
    g_autoptr(GError) err = NULL;
    g_autofree char *desc = NULL;
    GOptionGroup *main_group = common_group(spec);

    /* the command's own options first, then the common ones, one list */
    g_option_context_set_main_group(ctx, main_group);
    if (entries)
        g_option_context_add_main_entries(ctx, entries, NULL);
    if (spec->summary)
        g_option_context_set_summary(ctx, spec->summary);
    desc = g_strdup_printf("%s%sExit status: %s", spec->description ? spec->description : "",
                           spec->description ? "\n\n" : "", spec->exit_status);
    g_option_context_set_description(ctx, desc);
    if (flag_with_value(entries, *argc, *argv))
        return -EINVAL;
    if (!g_option_context_parse(ctx, argc, argv, &err)) {
        g_autofree char *msg = option_error(spec, entries, err);

        rv_log_error("%s: %s", (*argv)[0], msg);
        return -EINVAL;
    }
    if (rv_cmd_common.quiet && rv_cmd_common.verbose) {
        rv_log_error("%s: --quiet and --verbose exclude each other", (*argv)[0]);
        return -EINVAL;
    }
    if ((spec->common & RV_COMMON_ROOT) && rv_cmd_common.root && !*rv_cmd_common.root) {
        /* an unset shell variable ("--root $ROOT") must not mean the live host */
        rv_log_error("%s: --root '': an empty directory name (omit --root for the live host)",
                     (*argv)[0]);
        return -EINVAL;
    }
    rv_harness_verbosity = rv_cmd_common.quiet ? -1 : rv_cmd_common.verbose;
    return 0;
}

void
rv_cmd_json_begin(JsonBuilder *b, gint64 schema_version)
{
    json_builder_begin_object(b);
    json_builder_set_member_name(b, "schema_version");
    json_builder_add_int_value(b, schema_version);
}

int
rv_cmd_print_json(JsonNode *node)
{
    g_autofree char *text = rv_json_to_text(node);

    fputs(text, stdout);
    if (fflush(stdout) != 0 || ferror(stdout)) {
        rv_log_error("Failed to write the JSON document to stdout");
        return RV_EXIT_ERROR;
    }
    return 0;
}
