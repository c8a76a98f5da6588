/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * host/facts/report.h: everything `rtvirt host show` reports about one host,
 * loaded once, rendered as stable JSON (json-glib) or readable text.
 *
 * JSON schema (schema_version 1), top-level keys: schema_version, root,
 * live, topology, cmdline, state, isolated, rt_threads, tasks_on_isolated,
 * irqs, problems.  CPU sets are cpulist strings ("0-3,8"); unknown values
 * are JSON null; keys are never removed within a schema version.
 */
#pragma once

#include <glib.h>
#include <json-glib/json-glib.h>

#include "host/facts/cmdline.h"
#include "host/fsroot.h"
#include "host/facts/irq.h"
#include "host/facts/state.h"
#include "host/facts/rtview.h"
#include "host/facts/threads.h"
#include "host/facts/topology.h"

#define RV_HOST_REPORT_SCHEMA_VERSION 1

typedef struct {
    char *root_path;
    bool live;
    RvTopology *topo;          /* never NULL in a loaded report */
    RvCmdline *cmdline;        /* NULL when /proc/cmdline is unreadable */
    char *cmdline_unknown;     /* why cmdline is NULL */
    RvHostState *state;
    RvCpuSet isolated;         /* CPUs treated as isolated below */
    char *isolated_source;     /* which files/arguments gave them */
    GArray *rt_threads;        /* RvTask, NULL when /proc cannot be read */
    GArray *tasks_on_isolated; /* RvTask, NULL when unknown */
    GPtrArray *rt_vcpus;       /* RvRtCpuView* (host/facts/rtview.h): QEMU vCPU threads at
                                * an RT policy and the RT threads of their CPUs;
                                * NULL when /proc cannot be read */
    RvIrqTable *irqs;          /* NULL when /proc/irq cannot be read */
    GPtrArray *bad_values;     /* char *: malformed files ("'<path>' holds '<v>': why") */
} RvHostReport;

void rv_host_report_free(RvHostReport *r);
G_DEFINE_AUTOPTR_CLEANUP_FUNC(RvHostReport, rv_host_report_free)

/**
 * rv_host_report_load:
 * @root: live host or fixture tree
 * @ret: (out): the report, written only on success
 * @error: (optional): RV_ERROR_INVALID when the topology files are
 *         malformed (file and value named), RV_ERROR_FAILED when no CPU
 *         can be found under @root
 *
 * Malformed state/IRQ files do not fail the load: they land in
 * ->bad_values (the caller decides the exit status).
 *
 * Returns: 0 or -errno.
 */
int rv_host_report_load(RvRoot *root, RvHostReport **ret, GError **error) G_GNUC_WARN_UNUSED_RESULT;

/* (transfer full) the JSON document described above. */
JsonNode *rv_host_report_to_json(const RvHostReport *r);

/* (transfer full) the readable report. */
char *rv_host_report_to_text(const RvHostReport *r);

/**
 * rv_host_text_printable:
 * @s: (transfer full): a text report
 *
 * A corrupt sysfs/proc file may hold any bytes, and reports quote values:
 * every control character but newline and tab (and DEL) becomes a C
 * escape "\ooo" (as g_strescape()), so nothing raw reaches a terminal.
 *
 * Returns: (transfer full): the text, @s itself when nothing was escaped.
 */
char *rv_host_text_printable(char *s);
