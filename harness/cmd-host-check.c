/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * harness/cmd-host-check.c: `rtvirt host check PROFILE [--json] [--root DIR]`.
 *
 * Loads the host profile, runs the findings engine (host/check/check.h) on the
 * live host or a fixture root, prints the human report or the JSON
 * document, and exits 0 without FAIL, 1 with FAIL, 2 on error.
 */
#include <stdio.h>
#include <string.h>

#include "harness/cmd-common.h"
#include "harness/commands.h"
#include "util/profile-path.h"
#include "harness/log.h"
#include "host/check/check.h"
#include "host/fsroot.h"
#include "host/profile/profile.h"
#include "host/facts/topology.h"
#include "host/tuned/tuned.h"
#include "util/error.h"
#include "util/json.h"

static const RvCmdSpec host_check_spec = {
    .params = "PROFILE",
    .summary =
        "Check the host against a host profile (profiles/host/NAME.ini).\n"
        "\n"
        "Each finding is PASS, NOTE, WARN or FAIL with a stable id, the CPUs or\n"
        "values involved and how to fix it.  The check reads topology, the kernel\n"
        "command line and the effective state together: an isolated CPU whose\n"
        "SMT sibling does housekeeping, a boot argument written but not in effect,\n"
        "irqaffinity= overlapping isolated CPUs, the RT-group trap, and every\n"
        "runtime knob the profile sets.",
    .description = "PROFILE is a file or a name ('rtvirt profiles' lists them), or a tuned\n"
                   "profile: a directory with a tuned.conf (/usr/lib/tuned/realtime-virtual-host)\n"
                   "or the tuned.conf itself.  A tuned profile is read as tuned reads it (include=,\n"
                   "[variables] and its *-variables.conf, ${f:...} functions on this host or\n"
                   "--root) and mapped to the host profile's keys; each line that has no\n"
                   "rtvirt key is a NOTE tuned.unmapped naming FILE:LINE.",
    .exit_status =
        "0 no FAIL, 1 at least one FAIL, 2 error (bad profile, a profile\n"
        "naming CPUs this host does not have, unreadable host, a malformed sysfs/proc\n"
        "value: the findings are still printed, each bad value named with its file).",
    .common = RV_COMMON_JSON | RV_COMMON_ROOT,
    .json_help = "Print the findings as JSON (schema_version 1)",
    .verbose_help = "List PASS findings too",
};

int
rv_cmd_host_check(int argc, char **argv)
{
    g_autoptr(GError) err = NULL;
    g_autoptr(RvHostProfile) profile = NULL;
    g_autoptr(RvRoot) root = NULL;
    g_autoptr(RvCheckReport) rep = NULL;
    g_autofree char *path = NULL;

    if (rv_cmd_parse(&host_check_spec, NULL, &argc, &argv) < 0)
        return RV_EXIT_ERROR;
    if (argc != 2) {
        rv_log_error("%s: expected one PROFILE argument (e.g. profiles/host/realtime-virtual-host.ini); "
                     "see --help", argv[0]);
        return RV_EXIT_ERROR;
    }
    /* a tuned profile (DIR with tuned.conf, or a tuned.conf): host/tuned/tuned.h */
    if (rv_host_tuned_is_profile(argv[1])) {
        if (rv_host_root_open(rv_cmd_common.root, &root, &err) < 0)
            return rv_log_gerror(err, "Failed to open the root");
        if (rv_host_tuned_load(root, argv[1], &profile, &err) < 0)
            return rv_log_gerror(err, "Failed to load the tuned profile");
    } else if (rv_profile_find(RV_PROFILE_HOST, argv[1], &path, &err) < 0) {
        return rv_log_gerror(err, NULL);
    } else if (rv_host_root_open(rv_cmd_common.root, &root, &err) < 0) {
        return rv_log_gerror(err, "Failed to open the root");
    }
    /* "N"/"all" in the profile's cpulists: this host's CPUs */
    if (!profile) {
        g_autoptr(RvTopology) topo = NULL;

        if (rv_host_topology_load(root, &topo, &err) < 0)
            return rv_log_gerror(err, "Failed to check the host");
        if (rv_host_profile_load_host(path, topo->nr_cpu_ids, &profile, &err) < 0)
            return rv_log_gerror(err, "Failed to load the host profile");
    }
    if (rv_host_check_run(root, profile, &rep, &err) < 0)
        return rv_log_gerror(err, "Failed to check the host");
    /* tuned interop: whether tuned runs, its profile, the knobs both set */
    {
        g_autoptr(RvTunedState) tuned = NULL;

        rv_host_tuned_state_load(root, &tuned);
        rv_host_tuned_judge(rep, profile, tuned);
    }
    /* fixes that run as pasted: the profile as given, or tuned-adm */
    {
        g_autofree char *tuned_name = NULL;

        if (rv_host_tuned_is_profile(argv[1])) {
            g_autofree char *dir = g_str_has_suffix(argv[1], "tuned.conf") ? g_path_get_dirname(argv[1])
                                                                           : g_strdup(argv[1]);
            g_autofree char *trimmed = g_strdup(dir);

            while (strlen(trimmed) > 1 && g_str_has_suffix(trimmed, "/"))
                trimmed[strlen(trimmed) - 1] = '\0';
            tuned_name = g_path_get_basename(trimmed);
        }
        rv_host_check_name_fixes(rep, argv[1], tuned_name);
    }

    if (rv_cmd_common.json) {
        g_autoptr(JsonNode) node = rv_host_check_to_json(rep);

        if (rv_cmd_print_json(node) < 0)
            return RV_EXIT_ERROR;
    } else {
        g_autofree char *text = rv_host_check_format(rep, rv_cmd_common.verbose > 0);
        g_autoptr(GString) fixes = g_string_new(NULL);

        fputs(text, stdout);
        rv_findings_format_fixes(fixes, rep->findings);
        if (fixes->len)
            printf("\n%s", fixes->str);
    }
    fflush(stdout);
    /* a malformed sysfs/proc value: the host could not be read as it is
     * (exit 2, as `host show`); the findings are printed all the same */
    {
        unsigned bad = 0;

        for (guint i = 0; i < rep->findings->items->len; i++) {
            const RvFinding *f = rep->findings->items->pdata[i];

            if (strcmp(f->id, "state.problem") == 0) {
                rv_log_error("Malformed value: %s", f->message);
                bad++;
            }
        }
        if (bad)
            return RV_EXIT_ERROR;
    }
    return rv_host_check_trusted(rep) ? RV_EXIT_OK : RV_EXIT_CHECK;
}
