/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * host/check/check.h: `rtvirt host check`: compare a host with a host profile
 * (host/profile/profile.h) and report findings.
 *
 * The engine reasons from topology (host/facts/topology.h), the kernel command
 * line (host/facts/cmdline.h) and the effective state (host/facts/state.h) together,
 * plus kernel threads (/proc/PID/stat), IRQ affinities (/proc/irq) and
 * libvirt's qemu.conf, all read through one RvRoot.  Examples:
 *  - an isolated CPU whose SMT sibling is a housekeeping CPU
 *    ("isolation.sibling-housekeeping");
 *  - a boot argument written but not in effect: isolcpus=2-3 on the
 *    command line, /sys/devices/system/cpu/isolated empty
 *    ("bootarg.not-in-effect");
 *  - irqaffinity= overlapping isolated CPUs ("irqaffinity.overlaps-isolated");
 *  - RT group scheduling on a cgroup v1 cpu hierarchy, so libvirt cannot
 *    make vCPUs SCHED_FIFO ("rtgroup.trap").
 *
 * Findings are util/finding.h's; their ids are stable (tests, JSON
 * consumers and results records match on them); the list of ids is in
 * check.c's header comment and rtvirt(1).
 */
#pragma once

#include <stdbool.h>
#include <glib.h>
#include <json-glib/json-glib.h>

#include "util/cpulist.h"
#include "util/finding.h"
#include "host/fsroot.h"
#include "host/profile/profile.h"

/* JSON schema of rv_host_check_to_json(); bumped on incompatible change. */
#define RV_HOST_CHECK_SCHEMA_VERSION 1

typedef struct {
    char *profile_path;
    char *profile_name;
    char *root;              /* rv_host_root_path() */
    bool live;               /* the live host */
    char *kernel_release;    /* or NULL */
    /* The partition the check used: from the profile's explicit lists, or
     * computed by whole cores from housekeeping_cores_per_socket. */
    bool has_partition;
    RvCpuSet isolated;
    RvCpuSet housekeeping;
    RvCpuSet online;
    RvFindings *findings;    /* in check order */
} RvCheckReport;

void rv_host_check_report_free(RvCheckReport *report);
G_DEFINE_AUTOPTR_CLEANUP_FUNC(RvCheckReport, rv_host_check_report_free)

/**
 * rv_host_check_run:
 * @root: live host or fixture tree
 * @profile: the host profile (rv_host_profile_load())
 * @ret_report: (out): the findings, written only on success
 * @error: (optional): RV_ERROR_FAILED/INVALID when the host cannot be read
 *         at all (no CPU topology); RV_ERROR_INVALID when the profile's
 *         explicit cpulists name CPUs this host does not have
 *
 * Reads topology, /proc/cmdline, effective state, kernel threads, IRQs and
 * qemu.conf through @root, and checks every knob @profile sets.  Values
 * that cannot be read are reported as findings ("... unknown"), never
 * guessed and never an error.
 *
 * Returns: 0 or -errno.  A failing host is not an error: see
 * rv_findings_worst(report->findings) and rv_host_check_trusted().
 */
int rv_host_check_run(RvRoot *root, const RvHostProfile *profile,
                      RvCheckReport **ret_report, GError **error) G_GNUC_WARN_UNUSED_RESULT;

/* True when no finding is FAIL: results measured on this host can be
 * trusted to have run under the profile (helper for results records). */
bool rv_host_check_trusted(const RvCheckReport *report);

/**
 * rv_host_check_to_json:
 *
 * Returns: (transfer full): {"schema_version": 1, "profile": PATH,
 * "profile_name": NAME, "root": DIR, "live": BOOL, "kernel_release": STR|null,
 * "partition": {"isolated": CPULIST, "housekeeping": CPULIST} | null,
 * "summary": {"pass": N, "note": N, "warn": N, "fail": N},
 * "verdict": "PASS"|"NOTE"|"WARN"|"FAIL", "trusted": BOOL,
 * "findings": [...]} (util/finding.h's JSON form)
 */
JsonNode *rv_host_check_to_json(const RvCheckReport *report);

/**
 * rv_host_check_name_fixes:
 * @report: a report of rv_host_check_run(); its fixes are rewritten
 * @profile_arg: the profile as the user gave it (a name or a path)
 * @tuned_name: (nullable): the tuned profile's name when @profile_arg is a
 *              tuned profile, else NULL
 *
 * The judges write fixes with the placeholder PROFILE and "then reboot";
 * this names the profile (shell-quoted where it needs it) and joins the
 * reboot with "&&", so a fix runs as pasted.  For a tuned profile the
 * tool is tuned's: `tuned-adm profile NAME` applies its runtime knobs and,
 * through tuned's bootloader plugin, its boot arguments (tuned
 * plugins/plugin_bootloader.py), so "rtvirt host apply PROFILE" and
 * "rtvirt host bootargs PROFILE --install" both become it.
 */
void rv_host_check_name_fixes(RvCheckReport *report, const char *profile_arg, const char *tuned_name);

/**
 * rv_host_check_format:
 * @verbose: include PASS findings
 *
 * Returns: (transfer full): the human report: a header, one block per
 * finding in util/finding.h's text form ("WARN  irqaffinity.missing: CPUs
 * 1-23 ...\n      fix: ...\n"), then a summary line.
 */
char *rv_host_check_format(const RvCheckReport *report, bool verbose);
