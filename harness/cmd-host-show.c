/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * harness/cmd-host-show.c: `rtvirt host show [--json] [--root DIR]` and
 * `rtvirt host capture DIR`.
 */
#include <stdio.h>

#include "harness/commands.h"
#include "harness/log.h"
#include "host/capture.h"
#include "host/fsroot.h"
#include "host/report.h"
#include "util/error.h"
#include "util/json.h"

int
rv_cmd_host_show(int argc, char **argv)
{
    g_autofree char *arg_root = NULL;
    gboolean arg_json = FALSE;
    GOptionEntry entries[] = {
        { "root", 0, 0, G_OPTION_ARG_FILENAME, &arg_root,
          "Read /sys and /proc under DIR (a fixture tree from 'rtvirt host capture'); default /", "DIR" },
        { "json", 0, 0, G_OPTION_ARG_NONE, &arg_json,
          "Print the report as JSON (stable keys, \"schema_version\": 1)", NULL },
        { NULL },
    };
    g_autoptr(GOptionContext) ctx = g_option_context_new(NULL);
    g_autoptr(GError) err = NULL;
    g_autoptr(RvRoot) root = NULL;
    g_autoptr(RvHostReport) rep = NULL;

    g_option_context_set_summary(ctx,
        "Report what the host really is and does: topology with SMT siblings\n"
        "(packages, NUMA nodes, cores, online/offline CPUs), the kernel command\n"
        "line as the kernel judges it (isolcpus flags, nohz_full, rcu_nocbs,\n"
        "irqaffinity, hugepages, idle and power arguments), the effective state\n"
        "(isolated and nohz_full CPUs, SMT, core scheduling, PREEMPT_RT, RT\n"
        "throttling and the cgroup v1 RT-group trap, governors and idle states,\n"
        "THP, KSM, NUMA balancing, NMI watchdog, workqueue mask), RT kernel\n"
        "threads with policy, priority and affinity, tasks that last ran on\n"
        "isolated CPUs and IRQs that touch them.");
    g_option_context_set_description(ctx,
        "Unreadable files are reported as unknown.  Exit status: 0 report printed;\n"
        "2 error (no such root, no CPU under it, a malformed sysfs/proc value:\n"
        "the report is still printed and each bad value is named with its file).");
    g_option_context_add_main_entries(ctx, entries, NULL);
    if (!g_option_context_parse(ctx, &argc, &argv, &err)) {
        rv_log_error("%s: %s", argv[0], err->message);
        return RV_EXIT_ERROR;
    }
    if (argc != 1) {
        rv_log_error("%s: unexpected argument '%s'; see --help", argv[0], argv[1]);
        return RV_EXIT_ERROR;
    }
    if (rv_host_root_open(arg_root, &root, &err) < 0)
        return rv_log_gerror(err, "Failed to open the root");
    if (rv_host_report_load(root, &rep, &err) < 0)
        return rv_log_gerror(err, "Failed to read the host");

    if (arg_json) {
        g_autoptr(JsonNode) node = rv_host_report_to_json(rep);
        g_autofree char *text = rv_json_to_text(node);

        fputs(text, stdout);
    } else {
        g_autofree char *text = rv_host_report_to_text(rep);

        fputs(text, stdout);
    }
    fflush(stdout);
    for (guint i = 0; i < rep->bad_values->len; i++)
        rv_log_error("Malformed value: %s", (char *) rep->bad_values->pdata[i]);
    return rep->bad_values->len ? RV_EXIT_ERROR : RV_EXIT_OK;
}

int
rv_cmd_host_capture(int argc, char **argv)
{
    g_autofree char *arg_root = NULL;
    GOptionEntry entries[] = {
        { "root", 0, 0, G_OPTION_ARG_FILENAME, &arg_root,
          "Capture from DIR instead of the live host (re-capture a fixture)", "DIR" },
        { NULL },
    };
    g_autoptr(GOptionContext) ctx = g_option_context_new("DIR");
    g_autoptr(GError) err = NULL;
    g_autoptr(RvRoot) root = NULL;
    unsigned files = 0;

    g_option_context_set_summary(ctx,
        "Copy the /sys and /proc files rtvirt reads into DIR (a new or empty\n"
        "directory), like hwloc-gather-topology, so that\n"
        "'rtvirt host show --root DIR' and 'rtvirt host check PROFILE --root DIR'\n"
        "reproduce this host's report elsewhere.  Only what rtvirt reads is\n"
        "copied; the core-scheduling probe result is recorded in DIR/rtvirt/coresched.");
    g_option_context_set_description(ctx, "Exit status: 0 captured, 2 error.");
    g_option_context_add_main_entries(ctx, entries, NULL);
    if (!g_option_context_parse(ctx, &argc, &argv, &err)) {
        rv_log_error("%s: %s", argv[0], err->message);
        return RV_EXIT_ERROR;
    }
    if (argc != 2) {
        rv_log_error("%s: expected one DIR argument; see --help", argv[0]);
        return RV_EXIT_ERROR;
    }
    if (rv_host_root_open(arg_root, &root, &err) < 0)
        return rv_log_gerror(err, "Failed to open the root");
    if (rv_host_capture(root, argv[1], &files, &err) < 0)
        return rv_log_gerror(err, "Failed to capture the host");
    rv_log_info("Captured %u files into '%s'", files, argv[1]);
    return RV_EXIT_OK;
}
