/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * harness/main.c: `rtvirt` entry point, git-style subcommands.
 */
#include <locale.h>
#include <stdbool.h>
#include <stdio.h>
#include <string.h>

#include "harness/commands.h"
#include "harness/log.h"
#include "util/error.h"
#include "util/suggest.h"

/* The release number comes from one place, RV_RELEASE in the Makefile;
 * RV_GIT is `git describe --always --dirty` when built from a git tree. */
#ifndef RV_RELEASE
#define RV_RELEASE "0.0.0"
#endif
#ifndef RV_GIT
#define RV_GIT ""
#endif

typedef struct {
    const char *group;   /* "host", "guest" or NULL for a top-level command */
    const char *name;
    int (*fn)(int argc, char **argv);
    const char *summary;
} RvCommand;

static const RvCommand commands[] = {
    { "host", "show", rv_cmd_host_show,
      "Report topology, SMT siblings, isolation, RT threads and IRQs" },
    { "host", "check", rv_cmd_host_check,
      "Check the host against a host profile (PASS/NOTE/WARN/FAIL)" },
    { "host", "capture", rv_cmd_host_capture,
      "Copy the /sys and /proc files rtvirt reads into a fixture tree" },
    { "host", "apply", rv_cmd_host_apply,
      "Apply a host profile's runtime knobs, journaled (--persist: also at boot)" },
    { "host", "revert", rv_cmd_host_revert,
      "Restore every value recorded in the journal, newest first" },
    { "host", "bootargs", rv_cmd_host_bootargs,
      "Print or install the boot arguments of a host profile" },
    { "host", "export-tuned", rv_cmd_host_export_tuned,
      "Write a tuned profile equivalent to a host profile" },
    { "guest", "build", rv_cmd_guest_build,
      "Build the embedded default guest (kernel + initramfs)" },
    { "guest", "image", rv_cmd_guest_image,
      "Build the disk image of a guest profile (mmdebstrap or libguestfs), cached" },
    { "guest", "xml", rv_cmd_guest_xml,
      "Print the libvirt domain XML of a guest profile" },
    { "guest", "run", rv_cmd_guest_run,
      "Boot a guest, verify its placement, run cyclictest inside, tear down" },
    { "guest", "check", rv_cmd_guest_check,
      "Judge a libvirt domain: its XML and, running, its threads" },
    { NULL, "run", rv_cmd_run,
      "Run a scenario matrix (baseline / nosmt / coresched) into a results store" },
    { "result", "check", rv_cmd_result_check,
      "Judge cyclictest / oslat / rtvirt pert output files (PASS/NOTE/WARN/FAIL)" },
    { NULL, "compare", rv_cmd_compare,
      "Compare results stores: n, mean, stddev, SEM, percentiles, significance" },
    { NULL, "report", rv_cmd_report,
      "Write a static HTML report (gnuplot SVG plots) of results stores" },
    { NULL, "pert", rv_cmd_pert,
      "Perturbation probe: a tight TSC loop on one CPU" },
    { NULL, "status", rv_cmd_status,
      "Who holds the host lock, journals still to revert, rtvirt-* domains" },
    { NULL, "setup", rv_cmd_setup,
      "Start virtlogd and libvirtd (as systemd units where systemd runs)" },
    { NULL, "profiles", rv_cmd_profiles,
      "List the host, guest and matrix profiles found by name, and where" },
    { NULL, "rules", rv_cmd_rules,
      "List every finding id the checks print: levels, meaning, source, fix" },
};

static const char exit_statuses[] =
    "Exit status: 0 pass, 1 a check failed, 2 error, 3 rebooting (run), 77 skipped (missing capability).\n";

static void
usage(FILE *f)
{
    fprintf(f,
            "Usage: rtvirt [--version] [--help] COMMAND [ARGS...]\n"
            "\n"
            "Tune a Linux KVM host for real-time guests and measure what it bought.\n"
            "\n"
            "Commands:\n");
    for (size_t i = 0; i < G_N_ELEMENTS(commands); i++) {
        g_autofree char *name = commands[i].group
            ? g_strdup_printf("%s %s", commands[i].group, commands[i].name)
            : g_strdup(commands[i].name);
        fprintf(f, "  %-18s %s\n", name, commands[i].summary);
    }
    fprintf(f,
            "\n"
            "'rtvirt help COMMAND' (or 'rtvirt COMMAND --help') describes a command's\n"
            "options; 'rtvirt --version' the release; see rtvirt(1) and doc/cli.md.\n"
            "%s", exit_statuses);
}

/* `rtvirt host --help`: the commands of one group */
static void
group_usage(FILE *f, const char *group)
{
    fprintf(f, "Usage: rtvirt %s COMMAND [ARGS...]\n\nCommands:\n", group);
    for (size_t i = 0; i < G_N_ELEMENTS(commands); i++)
        if (g_strcmp0(commands[i].group, group) == 0)
            fprintf(f, "  %-13s %s\n", commands[i].name, commands[i].summary);
    fprintf(f,
            "\n'rtvirt %s COMMAND --help' describes a command's options; see rtvirt(1).\n"
            "%s", group, exit_statuses);
}

/* `rtvirt --list-commands` (hidden): one command per line, for the
 * completion and tests/t-cli.sh, from the same table as the usage. */
static void
list_commands(void)
{
    for (size_t i = 0; i < G_N_ELEMENTS(commands); i++)
        printf("%s%s%s\n", commands[i].group ? commands[i].group : "",
               commands[i].group ? " " : "", commands[i].name);
}

static bool
is_group(const char *word)
{
    for (size_t i = 0; i < G_N_ELEMENTS(commands); i++)
        if (g_strcmp0(commands[i].group, word) == 0)
            return true;
    return false;
}

static bool
is_help(const char *word)
{
    return strcmp(word, "--help") == 0 || strcmp(word, "-h") == 0 || strcmp(word, "help") == 0;
}

static int dispatch(int argc, char **argv);

/* `rtvirt help [GROUP] [CMD]`: the same text as `rtvirt [GROUP] CMD --help`. */
static int
help(int argc, char **argv)
{
    g_autoptr(GPtrArray) args = g_ptr_array_new();

    if (argc < 3 || (argc == 3 && strcmp(argv[2], "help") == 0)) {
        /* `rtvirt help` and `rtvirt help help`: the top-level usage */
        usage(stdout);
        return RV_EXIT_OK;
    }
    if (argc > 4 || (argc == 4 && !is_group(argv[2]))) {
        rv_log_error("rtvirt help: unexpected argument '%s'; usage: rtvirt help [GROUP] COMMAND",
                     argv[argc - 1]);
        return RV_EXIT_ERROR;
    }
    g_ptr_array_add(args, argv[0]);
    for (int i = 2; i < argc && i < 4; i++)
        g_ptr_array_add(args, argv[i]);
    g_ptr_array_add(args, (char *) "--help");
    g_ptr_array_add(args, NULL);
    return dispatch((int) args->len - 1, (char **) args->pdata);
}

static int
dispatch(int argc, char **argv)
{
    const char *group = NULL;
    int first;

    if (is_group(argv[1])) {
        group = argv[1];
        if (argc < 3) {
            rv_log_error("'rtvirt %s' needs a subcommand; see 'rtvirt %s --help'", group, group);
            group_usage(stderr, group);
            return RV_EXIT_ERROR;
        }
        if (is_help(argv[2])) {
            group_usage(stdout, group);
            return RV_EXIT_OK;
        }
        first = 2;
    } else {
        first = 1;
    }

    for (size_t i = 0; i < G_N_ELEMENTS(commands); i++) {
        const RvCommand *c = &commands[i];
        g_autofree char *prog = NULL;

        if (g_strcmp0(c->group, group) != 0 || strcmp(c->name, argv[first]) != 0)
            continue;
        prog = group ? g_strdup_printf("rtvirt %s %s", group, c->name)
                     : g_strdup_printf("rtvirt %s", c->name);
        /* argv for the command: its name first, then its own arguments */
        argv[first] = prog;
        g_set_prgname(prog);
        return c->fn(argc - first, argv + first);
    }
    {
        /* did you mean: the commands of @group, or the groups and the
         * top-level commands */
        g_autoptr(GPtrArray) names = g_ptr_array_new();
        g_autofree char *hint = NULL;

        for (size_t i = 0; i < G_N_ELEMENTS(commands); i++) {
            if (g_strcmp0(commands[i].group, group) == 0)
                g_ptr_array_add(names, (gpointer) commands[i].name);
            else if (!group && commands[i].group &&
                     !g_ptr_array_find_with_equal_func(names, commands[i].group, g_str_equal, NULL))
                g_ptr_array_add(names, (gpointer) commands[i].group);
        }
        if (!group)
            g_ptr_array_add(names, (gpointer) "help");
        g_ptr_array_add(names, NULL);
        hint = rv_suggest_hint(argv[first], (const char * const *) names->pdata);
        rv_log_error("Unknown command '%s%s%s'%s; see 'rtvirt --help'",
                     group ? group : "", group ? " " : "", argv[first], hint);
    }
    return RV_EXIT_ERROR;
}

int
main(int argc, char **argv)
{
    setlocale(LC_ALL, "");
    if (argc < 2) {
        usage(stderr);
        return RV_EXIT_ERROR;
    }
    if (strcmp(argv[1], "help") == 0)
        return help(argc, argv);
    if ((is_help(argv[1]) || strcmp(argv[1], "--version") == 0 ||
         strcmp(argv[1], "version") == 0 || strcmp(argv[1], "--list-commands") == 0) &&
        argc > 2) {
        rv_log_error("rtvirt %s: unexpected argument '%s'", argv[1], argv[2]);
        return RV_EXIT_ERROR;
    }
    if (is_help(argv[1])) {
        usage(stdout);
        return RV_EXIT_OK;
    }
    if (strcmp(argv[1], "--version") == 0 || strcmp(argv[1], "version") == 0) {
        printf("rtvirt %s%s%s%s\n", RV_RELEASE, *RV_GIT ? " (git " : "", RV_GIT,
               *RV_GIT ? ")" : "");
        return RV_EXIT_OK;
    }
    if (strcmp(argv[1], "--list-commands") == 0) {
        list_commands();
        return RV_EXIT_OK;
    }
    if (argv[1][0] == '-') {
        rv_log_error("Unknown option '%s'; see 'rtvirt --help'", argv[1]);
        return RV_EXIT_ERROR;
    }
    return dispatch(argc, argv);
}
