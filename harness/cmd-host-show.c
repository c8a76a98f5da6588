/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * harness/cmd-host-show.c: `rtvirt host show [--json] [--root DIR]` and
 * `rtvirt host capture DIR`.
 */
#include <stdio.h>

#include "harness/cmd-common.h"
#include "harness/commands.h"
#include "harness/log.h"
#include "host/facts/capture.h"
#include "host/fsroot.h"
#include "host/facts/report.h"
#include "util/error.h"
#include "util/json.h"
#include "host/tuned/tuned.h"

static const RvCmdSpec host_show_spec = {
    .params = NULL,
    .summary =
        "Report what the host really is and does: topology with SMT siblings\n"
        "(packages, NUMA nodes, cores, online/offline CPUs), the kernel command\n"
        "line as the kernel judges it (isolcpus flags, nohz_full, rcu_nocbs,\n"
        "irqaffinity, hugepages, idle and power arguments), the effective state\n"
        "(isolated and nohz_full CPUs, SMT, core scheduling, PREEMPT_RT, RT\n"
        "throttling and the cgroup v1 RT-group trap, governors and idle states,\n"
        "THP, KSM, NUMA balancing, NMI watchdog, workqueue mask), RT kernel\n"
        "threads with policy, priority and affinity, tasks that last ran on\n"
        "isolated CPUs and IRQs that touch them.",
    .description = "Unreadable files are reported as unknown.",
    .exit_status =
        "0 report printed; 2 error (no such root, no CPU under it, a malformed\n"
        "sysfs/proc value: the report is still printed and each bad value is named\n"
        "with its file).",
    .common = RV_COMMON_JSON | RV_COMMON_ROOT,
    .json_help = "Print the report as JSON (stable keys, \"schema_version\": 1)",
};

int
rv_cmd_host_show(int argc, char **argv)
{
    g_autoptr(GError) err = NULL;
    g_autoptr(RvRoot) root = NULL;
    g_autoptr(RvHostReport) rep = NULL;
    g_autoptr(RvTunedState) tuned = NULL;

    if (rv_cmd_parse(&host_show_spec, NULL, &argc, &argv) < 0)
        return RV_EXIT_ERROR;
    if (argc != 1) {
        rv_log_error("%s: unexpected argument '%s'; see --help", argv[0], argv[1]);
        return RV_EXIT_ERROR;
    }
    if (rv_host_root_open(rv_cmd_common.root, &root, &err) < 0)
        return rv_log_gerror(err, "Failed to open the root");
    rv_host_tuned_state_load(root, &tuned);
    if (rv_host_report_load(root, &rep, &err) < 0)
        return rv_log_gerror(err, "Failed to read the host");

    if (rv_cmd_common.json) {
        g_autoptr(JsonNode) node = rv_host_report_to_json(rep);

        /* tuned interop (host/tuned/tuned.h): whether it runs, with which profile */
        json_object_set_member(json_node_get_object(node), "tuned",
                               rv_host_tuned_state_to_json(tuned));

        if (rv_cmd_print_json(node) < 0)
            return RV_EXIT_ERROR;
    } else {
        g_autofree char *text = rv_host_report_to_text(rep);
        g_autofree char *t = rv_host_tuned_state_describe(tuned);

        fputs(text, stdout);
        printf("tuned: %s\n", t);
    }
    fflush(stdout);
    for (guint i = 0; i < rep->bad_values->len; i++)
        rv_log_error("Malformed value: %s", (char *) rep->bad_values->pdata[i]);
    return rep->bad_values->len ? RV_EXIT_ERROR : RV_EXIT_OK;
}

static const RvCmdSpec host_capture_spec = {
    .params = "DIR",
    .summary =
        "Copy the /sys and /proc files rtvirt reads into DIR (a new or empty\n"
        "directory), like hwloc-gather-topology, so that\n"
        "'rtvirt host show --root DIR' and 'rtvirt host check PROFILE --root DIR'\n"
        "reproduce this host's report elsewhere.  Only what rtvirt reads is\n"
        "copied; the core-scheduling probe result is recorded in DIR/rtvirt/coresched.",
    .exit_status = "0 captured, 2 error.",
    .common = RV_COMMON_JSON | RV_COMMON_ROOT,
    .root_help = "Capture from DIR instead of the live host (re-capture a fixture)",
    .json_help = "Print what was captured as JSON (schema_version, dir, files)",
};

int
rv_cmd_host_capture(int argc, char **argv)
{
    g_autoptr(GError) err = NULL;
    g_autoptr(RvRoot) root = NULL;
    unsigned files = 0;

    if (rv_cmd_parse(&host_capture_spec, NULL, &argc, &argv) < 0)
        return RV_EXIT_ERROR;
    if (argc != 2) {
        rv_log_error("%s: expected one DIR argument; see --help", argv[0]);
        return RV_EXIT_ERROR;
    }
    if (rv_host_root_open(rv_cmd_common.root, &root, &err) < 0)
        return rv_log_gerror(err, "Failed to open the root");
    if (rv_host_capture(root, argv[1], &files, &err) < 0)
        return rv_log_gerror(err, "Failed to capture the host");
    if (rv_cmd_common.json) {
        g_autoptr(JsonBuilder) b = json_builder_new();
        g_autoptr(JsonNode) node = NULL;

        rv_cmd_json_begin(b, 1);
        json_builder_set_member_name(b, "dir");
        json_builder_add_string_value(b, argv[1]);
        json_builder_set_member_name(b, "files");
        json_builder_add_int_value(b, files);
        json_builder_end_object(b);
        node = json_builder_get_root(b);
        return rv_cmd_print_json(node) < 0 ? RV_EXIT_ERROR : RV_EXIT_OK;
    }
    rv_log_info("Captured %u files into '%s'", files, argv[1]);
    return RV_EXIT_OK;
}
