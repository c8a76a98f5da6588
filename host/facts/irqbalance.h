/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * host/facts/irqbalance.h: a running irqbalance and the CPUs it keeps IRQs
 * away from, decided the way irqbalance decides (irqbalance cputree.c
 * setup_banned_cpus(), v1.8.0 and later):
 *   1. IRQBALANCE_BANNED_CPUS set and not empty in its environment: a hex
 *      cpumask ("00000f0f,ffff0000"), deprecated since v1.8.0;
 *   2. else IRQBALANCE_BANNED_CPULIST set: a cpulist; an empty value bans
 *      no CPU since commit 8929e4d (after v1.9.5), before it the variable
 *      counted as unset (read here as empty: the host cannot tell which);
 *   3. else the CPUs the kernel isolates: /sys/devices/system/cpu/isolated
 *      or-ed with nohz_full (since v1.1.0).
 * A variable REPLACES the automatic ban: a list that forgets the isolated
 * CPUs hands them back to irqbalance.  The environment is irqbalance's own
 * (/proc/PID/environ: what systemd's EnvironmentFile= or the init script
 * gave it), not /etc/default/irqbalance, which may have changed since.
 */
#pragma once

#include <stdbool.h>
#include <glib.h>

#include "util/cpulist.h"
#include "host/fsroot.h"

typedef enum {
    RV_IRQBALANCE_BAN_UNKNOWN = 0, /* environment unreadable */
    RV_IRQBALANCE_BAN_AUTO,        /* no variable: isolated | nohz_full */
    RV_IRQBALANCE_BAN_CPUS,        /* IRQBALANCE_BANNED_CPUS (hex mask) */
    RV_IRQBALANCE_BAN_CPULIST,     /* IRQBALANCE_BANNED_CPULIST */
} RvIrqbalanceBan;

typedef struct {
    int pid;
    RvIrqbalanceBan ban;
    char *value;        /* the variable's value as set, NULL for AUTO/UNKNOWN */
    bool banned_known;  /* ->banned parsed (CPUS, CPULIST) */
    RvCpuSet banned;
    char *problem;      /* why ->value could not be parsed, or NULL */
} RvIrqbalance;

void rv_host_irqbalance_free(RvIrqbalance *ib);
G_DEFINE_AUTOPTR_CLEANUP_FUNC(RvIrqbalance, rv_host_irqbalance_free)

/**
 * rv_host_irqbalance_load:
 * @root: live host or fixture tree
 * @tasks: RvTask of every process (rv_host_tasks_load())
 * @nr_cpu_ids: possible CPUs, for cpulist ranges (0 = unknown)
 * @ret: (out): the running irqbalance, or NULL when none runs
 *
 * Finds the user process named "irqbalance" in @tasks and reads its
 * /proc/PID/environ through @root (entries separated by NUL; a newline is
 * accepted too, for fixture dumps).  At most 64 KiB are read.
 *
 * Returns: 0 (a missing environ is ban UNKNOWN, not an error).
 */
int rv_host_irqbalance_load(RvRoot *root, const GArray *tasks, unsigned nr_cpu_ids,
                            RvIrqbalance **ret);

/* "auto", "IRQBALANCE_BANNED_CPUS", "IRQBALANCE_BANNED_CPULIST", "unknown" */
const char *rv_host_irqbalance_ban_name(RvIrqbalanceBan ban);
