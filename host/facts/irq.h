/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * host/facts/irq.h: IRQ placement: /proc/irq/N/{smp_affinity_list,
 * effective_affinity_list}, /proc/irq/default_smp_affinity and the
 * per-CPU counts and names of /proc/interrupts
 * (Documentation/core-api/irq/irq-affinity.rst, Documentation/filesystems/proc.rst).
 */
#pragma once

#include <stdbool.h>
#include <glib.h>

#include "util/cpulist.h"
#include "host/fsroot.h"

typedef struct {
    unsigned irq;
    char *name;                  /* action names from /proc/interrupts ("virtio2-input.0"), or NULL */
    char *chip;                  /* "IO-APIC 5-edge", "PCI-MSIX-0000:00:01.0 0-edge" */
    bool has_affinity;
    RvCpuSet affinity;           /* smp_affinity_list */
    bool has_effective;
    RvCpuSet effective;          /* effective_affinity_list (absent on some chips) */
    GArray *counts;              /* guint64 per CPU column of /proc/interrupts, or NULL */
    GArray *count_cpus;          /* guint: the CPU id of each column */
} RvIrq;

typedef struct {
    GArray *irqs;                /* RvIrq by number */
    bool has_default;
    RvCpuSet default_affinity;   /* /proc/irq/default_smp_affinity (hex mask) */
    GPtrArray *problems;         /* "'<file>' holds '<value>': <why>" */
} RvIrqTable;

void rv_host_irq_table_free(RvIrqTable *t);
G_DEFINE_AUTOPTR_CLEANUP_FUNC(RvIrqTable, rv_host_irq_table_free)

/**
 * rv_host_irqs_load:
 * @nr_cpu_ids: for the cpulists (0 = unknown)
 *
 * Returns: 0 or -errno (only when /proc/irq cannot be listed: -ENOENT on a
 * fixture without IRQs).  Malformed files land in ->problems.
 */
int rv_host_irqs_load(RvRoot *root, unsigned nr_cpu_ids, RvIrqTable **ret,
                      GError **error) G_GNUC_WARN_UNUSED_RESULT;

/* Sum of @irq's counts on the CPUs of @cpus (0 when counts are unknown). */
guint64 rv_host_irq_count_on(const RvIrq *irq, const RvCpuSet *cpus);
