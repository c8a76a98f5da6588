/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * harness/cmd-common.h: the command-line contract every command shares
 * (doc/cli.md).
 *
 * The options below mean the same in every command that has them and are
 * spelled one way: --json (the result as JSON on stdout, with
 * schema_version), --root DIR, --duration/-d TIME, --host-profile/-H
 * PROFILE, --verbose/-v (repeatable) and --quiet/-q.  A command names which
 * of the first four it takes (RV_COMMON_*); -v and -q are always there.
 * They live in one GOptionGroup, made the context's main group, so `--help`
 * lists them beside the command's own options.  Every --help ends with the
 * command's exit statuses.
 */
#pragma once

#include <stdbool.h>
#include <glib.h>
#include <json-glib/json-glib.h>

typedef enum {
    RV_COMMON_JSON = 1 << 0,
    RV_COMMON_ROOT = 1 << 1,
    RV_COMMON_DURATION = 1 << 2,
    RV_COMMON_HOST_PROFILE = 1 << 3,
} RvCommonOption;

/* The values of the common options after rv_cmd_parse(); NULL/FALSE/0 when
 * not given. */
typedef struct {
    gboolean json;
    char *root;
    char *duration;
    char *host_profile;
    int verbose;       /* times -v was given */
    gboolean quiet;
} RvCommonArgs;

extern RvCommonArgs rv_cmd_common;

/* What a command tells rv_cmd_parse(): its parameter string and texts.
 * The *_help fields override the default help line of a common option
 * where a command qualifies it (same meaning, e.g. "only with --plan"). */
typedef struct {
    const char *params;        /* "PROFILE", "MATRIX - run a scenario matrix" */
    const char *summary;       /* nullable */
    const char *description;   /* nullable; printed before the exit statuses */
    const char *exit_status;   /* "0 pass, 1 ..., 2 error": ends every --help */
    unsigned common;           /* RvCommonOption bits */
    const char *json_help;
    const char *root_help;
    const char *duration_help;
    const char *host_profile_help;
    const char *verbose_help;
} RvCmdSpec;

/**
 * rv_cmd_parse:
 * @spec: the command's texts and common options
 * @entries: the command's own options (nullable), NULL-terminated
 * @argc, @argv: in/out as g_option_context_parse(); argv[0] is the command
 *               ("rtvirt host check")
 *
 * Parses the command line.  --help prints the help (ending with "Exit
 * status: ...") and exits 0 inside GLib.  Sets rv_harness_verbosity from
 * -v/-q (-q: -1, info lines off).
 *
 * Returns: 0, or -EINVAL after logging a bad option or -v with -q (the
 * caller exits RV_EXIT_ERROR, 2).
 */
int rv_cmd_parse(const RvCmdSpec *spec, const GOptionEntry *entries, int *argc, char ***argv)
    G_GNUC_WARN_UNUSED_RESULT;

/**
 * rv_cmd_json_begin:
 * @b: a new builder
 * @schema_version: the document's version (each document has its own,
 *        documented beside its command; doc/cli.md: every JSON document
 *        carries one)
 *
 * Opens the top-level object of a command's --json document with its
 * "schema_version" member first.  The caller adds its members, ends the
 * object and prints it with rv_cmd_print_json().
 */
void rv_cmd_json_begin(JsonBuilder *b, gint64 schema_version);

/**
 * rv_cmd_print_json:
 * @node: a JSON object that already carries "schema_version"
 *
 * Prints @node pretty to stdout with a final newline and flushes.
 *
 * Returns: 0, or RV_EXIT_ERROR after logging when stdout cannot be written.
 */
int rv_cmd_print_json(JsonNode *node) G_GNUC_WARN_UNUSED_RESULT;
