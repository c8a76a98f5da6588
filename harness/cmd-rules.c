/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * harness/cmd-rules.c: `rtvirt rules [ID...]`: the rule catalogue
 * (util/rules.h), every finding id that host check, guest check, guest
 * xml --check and result check can print, with its levels, commands,
 * meaning, source and fix; as text, --json, or --markdown (doc/rules.md is
 * that output: `make doc/rules.md`).
 */
#include <stdio.h>
#include <string.h>

#include "harness/cmd-common.h"
#include "harness/commands.h"
#include "harness/log.h"
#include "util/error.h"
#include "util/finding.h"
#include "util/json.h"
#include "util/rules.h"

/* JSON schema of `rules --json`; bumped on incompatible change. */
#define RULES_SCHEMA_VERSION 1

static gboolean arg_markdown;

static const RvCmdSpec rules_spec = {
    .params = "[ID...] - list the finding ids the checks can print",
    .summary =
        "Every finding id that host check, guest check, guest xml --check and result\n"
        "check can print: the levels it can take, the commands that print it, what it\n"
        "means, the source of the rule (kernel documentation and section, tool source,\n"
        "libvirt page) and the usual fix.  An ID argument lists the rules whose id is\n"
        "ID or starts with ID (\"smt.\" lists every SMT rule).",
    .description = "--json prints {schema_version, rules: [{id, levels, commands, meaning,\n"
                   "source, fix}]}; --markdown the Markdown of doc/rules.md.",
    .exit_status = "0 listed, 2 an ID that matches no rule, or a bad option.",
    .common = RV_COMMON_JSON,
    .json_help = "Print the rules as JSON (schema_version 1)",
};

static bool
selected(const RvRule *r, int argc, char **argv)
{
    if (argc < 2)
        return true;
    for (int i = 1; i < argc; i++)
        if (g_str_has_prefix(r->id, argv[i]))
            return true;
    return false;
}

/* "PASS|FAIL" (@sep between the level names). */
static char *
levels_text(const RvRule *r, const char *sep)
{
    GString *s = g_string_new(NULL);

    for (unsigned l = 0; l < RV_FINDING_N_LEVELS; l++)
        if (r->levels & RV_RULE_LEVEL(l))
            g_string_append_printf(s, "%s%s", s->len ? sep : "", rv_finding_level_name(l));
    return g_string_free(s, FALSE);
}

static char *
commands_text(const RvRule *r)
{
    GString *s = g_string_new(NULL);

    for (unsigned c = 0; c < RV_RULE_N_COMMANDS; c++)
        if (r->commands & (1u << c))
            g_string_append_printf(s, "%s%s", s->len ? ", " : "",
                                   rv_rule_command_name((RvRuleCommand) (1u << c)));
    return g_string_free(s, FALSE);
}

static void
print_text(const RvRule *rules, guint n, int argc, char **argv)
{
    for (guint i = 0; i < n; i++) {
        const RvRule *r = &rules[i];
        g_autofree char *levels = NULL, *commands = NULL;

        if (!selected(r, argc, argv))
            continue;
        levels = levels_text(r, "|");
        commands = commands_text(r);
        printf("%s  %s  (%s)\n    %s\n    source: %s\n", r->id, levels, commands, r->meaning,
               r->source);
        if (r->fix)
            printf("    fix: %s\n", r->fix);
    }
}

static int
print_json(const RvRule *rules, guint n, int argc, char **argv)
{
    g_autoptr(JsonBuilder) b = json_builder_new();
    g_autoptr(JsonNode) node = NULL;

    rv_cmd_json_begin(b, RULES_SCHEMA_VERSION);
    json_builder_set_member_name(b, "rules");
    json_builder_begin_array(b);
    for (guint i = 0; i < n; i++) {
        const RvRule *r = &rules[i];

        if (!selected(r, argc, argv))
            continue;
        json_builder_begin_object(b);
        rv_json_add_string_or_null(b, "id", r->id);
        json_builder_set_member_name(b, "levels");
        json_builder_begin_array(b);
        for (unsigned l = 0; l < RV_FINDING_N_LEVELS; l++)
            if (r->levels & RV_RULE_LEVEL(l))
                json_builder_add_string_value(b, rv_finding_level_name(l));
        json_builder_end_array(b);
        json_builder_set_member_name(b, "commands");
        json_builder_begin_array(b);
        for (unsigned c = 0; c < RV_RULE_N_COMMANDS; c++)
            if (r->commands & (1u << c))
                json_builder_add_string_value(b, rv_rule_command_name((RvRuleCommand) (1u << c)));
        json_builder_end_array(b);
        rv_json_add_string_or_null(b, "meaning", r->meaning);
        rv_json_add_string_or_null(b, "source", r->source);
        rv_json_add_string_or_null(b, "fix", r->fix);
        json_builder_end_object(b);
    }
    json_builder_end_array(b);
    json_builder_end_object(b);
    node = json_builder_get_root(b);
    return rv_cmd_print_json(node) < 0 ? RV_EXIT_ERROR : RV_EXIT_OK;
}

/* A Markdown table cell: '|' escaped, never a line break. */
static char *
cell(const char *s)
{
    GString *o = g_string_new(NULL);

    for (const char *p = s ? s : ""; *p; p++) {
        if (*p == '|')
            g_string_append(o, "\\|");
        else if (*p == '\n')
            g_string_append_c(o, ' ');
        else
            g_string_append_c(o, *p);
    }
    return g_string_free(o, FALSE);
}

/* doc/rules.md: one table per command, each rule under the first command
 * that prints it (its commands column names the others). */
static void
print_markdown(const RvRule *rules, guint n, int argc, char **argv)
{
    printf("<!-- SPDX-License-Identifier: GPL-2.0-or-later -->\n"
           "<!-- Generated by `rtvirt rules --markdown` from util/rules.c: edit that\n"
           "     table, then `make doc/rules.md`.  tests/t-rules.sh fails when this file\n"
           "     differs from what the binary prints. -->\n"
           "# Rules: every finding id rtvirt can print\n\n"
           "Each finding of `rtvirt host check`, `guest check`, `guest xml --check` and\n"
           "`result check` has one of these ids (util/finding.h: level, id, message,\n"
           "where, fix, CPUs, wanted, found).  `rtvirt rules` prints the same table;\n"
           "`rtvirt rules --json` as JSON.  Levels: PASS the check holds, NOTE worth\n"
           "knowing (or a value that could not be read), WARN likely to cost latency,\n"
           "FAIL the intent is not met (exit 1).  The fix column is the usual remedy;\n"
           "a finding names its own CPUs, values and profile.\n");
    for (unsigned c = 0; c < RV_RULE_N_COMMANDS; c++) {
        bool header = false;

        for (guint i = 0; i < n; i++) {
            const RvRule *r = &rules[i];
            g_autofree char *levels = NULL, *commands = NULL, *m = NULL, *s = NULL, *f = NULL;

            /* the lowest command bit of the rule is this section's */
            if (!selected(r, argc, argv) || (r->commands & -r->commands) != (1u << c))
                continue;
            if (!header) {
                printf("\n## %s\n\n| id | levels | commands | meaning | source | fix |\n"
                       "|---|---|---|---|---|---|\n",
                       rv_rule_command_name((RvRuleCommand) (1u << c)));
                header = true;
            }
            levels = levels_text(r, ", ");
            commands = commands_text(r);
            m = cell(r->meaning);
            s = cell(r->source);
            f = cell(r->fix ? r->fix : "");
            printf("| `%s` | %s | %s | %s | %s | %s |\n", r->id, levels, commands, m, s, f);
        }
    }
}

int
rv_cmd_rules(int argc, char **argv)
{
    const GOptionEntry entries[] = {
        { "markdown", 0, 0, G_OPTION_ARG_NONE, &arg_markdown,
          "Print the catalogue as the Markdown of doc/rules.md", NULL },
        { NULL },
    };
    guint n;
    const RvRule *rules = rv_rules(&n);

    if (rv_cmd_parse(&rules_spec, entries, &argc, &argv) < 0)
        return RV_EXIT_ERROR;
    if (arg_markdown && rv_cmd_common.json) {
        rv_log_error("%s: --json and --markdown are two outputs: give one", argv[0]);
        return RV_EXIT_ERROR;
    }
    for (int i = 1; i < argc; i++) {
        bool any = false;

        for (guint k = 0; k < n && !any; k++)
            any = g_str_has_prefix(rules[k].id, argv[i]);
        if (!any) {
            rv_log_error("%s: no rule id is or starts with '%s' (rtvirt rules lists them)",
                         argv[0], argv[i]);
            return RV_EXIT_ERROR;
        }
    }
    if (rv_cmd_common.json)
        return print_json(rules, n, argc, argv);
    if (arg_markdown)
        print_markdown(rules, n, argc, argv);
    else
        print_text(rules, n, argc, argv);
    if (fflush(stdout) != 0) {
        rv_log_error("Failed to write to stdout");
        return RV_EXIT_ERROR;
    }
    return RV_EXIT_OK;
}
