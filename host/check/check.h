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
 * Finding ids are stable (tests, JSON consumers and results records match
 * on them); the list of ids is in check.c's header comment and rtvirt(1).
 */
#pragma once

#include <stdbool.h>
#include <glib.h>
#include <json-glib/json-glib.h>

#include "util/cpulist.h"
#include "host/fsroot.h"
#include "host/profile/profile.h"

/* JSON schema of rv_host_check_to_json(); bumped on incompatible change. */
#define RV_HOST_CHECK_SCHEMA_VERSION 1

typedef enum {
    RV_CHECK_PASS = 0,   /* the host does what the profile wants */
    RV_CHECK_NOTE,       /* worth knowing, no effect on RT latency expected */
    RV_CHECK_WARN,       /* likely to cost latency or to surprise */
    RV_CHECK_FAIL,       /* the profile's intent is not met: exit 1 */
} RvCheckLevel;

typedef struct {
    RvCheckLevel level;
    char *id;            /* stable id, e.g. "isolation.sibling-housekeeping" */
    char *message;       /* one sentence: what was found */
    char *fix;           /* how to fix it; NULL for PASS (and some NOTEs) */
    bool has_cpus;
    RvCpuSet cpus;       /* the CPUs involved (valid when has_cpus) */
    char *expected;      /* value the profile wants, or NULL */
    char *actual;        /* value found on the host, or NULL ("unknown" when unreadable) */
} RvCheckFinding;

/**
 * rv_host_check_finding_free:
 * @data: (nullable): an RvCheckFinding (a gpointer, so that it serves as a
 *        GPtrArray's free function for every findings list: host check,
 *        guest check)
 *
 * Frees the finding and its strings.
 */
void rv_host_check_finding_free(gpointer data);

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
    GPtrArray *findings;     /* RvCheckFinding *, in check order */
    unsigned counts[RV_CHECK_FAIL + 1];
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
 * rv_host_check_worst().
 */
int rv_host_check_run(RvRoot *root, const RvHostProfile *profile,
                      RvCheckReport **ret_report, GError **error) G_GNUC_WARN_UNUSED_RESULT;

/**
 * rv_host_check_report_add:
 * @rep: a report of rv_host_check_run()
 * @cpus: (nullable): @expected, @actual, @fix: (nullable)
 *
 * Appends a finding (judges outside the engine: host/tuned/tuned.h's tuned
 * interop) and counts it.
 */
void rv_host_check_report_add(RvCheckReport *rep, RvCheckLevel level, const char *id,
                              const RvCpuSet *cpus, const char *expected, const char *actual,
                              const char *fix, const char *fmt, ...) G_GNUC_PRINTF(8, 9);

/* The worst level among the findings (PASS when there are none). */
RvCheckLevel rv_host_check_worst(const RvCheckReport *report);

/* True when no finding is FAIL: results measured on this host can be
 * trusted to have run under the profile (helper for results records). */
bool rv_host_check_trusted(const RvCheckReport *report);

/* The first finding with @id, or NULL. */
const RvCheckFinding *rv_host_check_find(const RvCheckReport *report, const char *id);

/* "PASS", "NOTE", "WARN", "FAIL". */
const char *rv_host_check_level_name(RvCheckLevel level);

/**
 * rv_host_check_to_json:
 *
 * Returns: (transfer full): {"schema_version": 1, "profile": PATH,
 * "profile_name": NAME, "root": DIR, "live": BOOL, "kernel_release": STR|null,
 * "partition": {"isolated": CPULIST, "housekeeping": CPULIST} | null,
 * "summary": {"pass": N, "note": N, "warn": N, "fail": N},
 * "verdict": "PASS"|"NOTE"|"WARN"|"FAIL",
 * "findings": [{"level": "WARN", "id": ID, "message": STR, "fix": STR|null,
 *               "cpus": CPULIST|null, "expected": STR|null,
 *               "actual": STR|null}, ...]}
 */
JsonNode *rv_host_check_to_json(const RvCheckReport *report);

/**
 * rv_host_check_format:
 * @verbose: include PASS findings
 *
 * Returns: (transfer full): the human report, one block per finding:
 * "WARN  irqaffinity.missing  CPUs 1-23: ...\n      fix: ...\n", then a
 * summary line.
 */
char *rv_host_check_format(const RvCheckReport *report, bool verbose);
