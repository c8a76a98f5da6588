/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * util/cpulist.h: CPU sets, the kernel's cpulist syntax and hex masks.
 *
 * Formats:
 *  - cpulist: Documentation/admin-guide/kernel-parameters.rst, "cpu lists"
 *    (lib/bitmap-str.c bitmap_parselist()): comma-separated items, each
 *    "a", "a-b" or "a-b:used/group", where "N" stands for the last CPU
 *    (nr_cpu_ids - 1) and "all" for 0-N.  Empty string = empty set.
 *  - hex mask: comma-separated 32-bit hex words, most significant first,
 *    as in /proc/irq/N/smp_affinity and old sysfs "cpumap" files
 *    (lib/bitmap-str.c bitmap_parse()).
 */
#pragma once

#include <sched.h>
#include <stdbool.h>
#include <glib.h>

/* CPU ids a set can hold: libvirt's VIR_DOMAIN_CPUMASK_LEN
 * (src/conf/domain_conf.h, 16384), the bound of every cpuset a domain XML
 * may name; the kernel's own NR_CPUS bound on x86_64 is lower (8192,
 * CONFIG_MAXSMP), so a host CPU always fits. */
#define RV_CPUSET_MAX 16384

/* A set of CPU ids 0..RV_CPUSET_MAX-1, plain value type (2 KiB). */
typedef struct {
    guint64 bits[RV_CPUSET_MAX / 64];
} RvCpuSet;

void rv_cpuset_zero(RvCpuSet *set);
void rv_cpuset_set(RvCpuSet *set, unsigned cpu);
void rv_cpuset_set_range(RvCpuSet *set, unsigned first, unsigned last);
void rv_cpuset_clear(RvCpuSet *set, unsigned cpu);
bool rv_cpuset_isset(const RvCpuSet *set, unsigned cpu);
unsigned rv_cpuset_count(const RvCpuSet *set);
bool rv_cpuset_is_empty(const RvCpuSet *set);
/* Lowest CPU >= @from in @set, or -1 when none. */
int rv_cpuset_next(const RvCpuSet *set, int from);
/* Highest CPU in @set, or -1 when empty. */
int rv_cpuset_last(const RvCpuSet *set);
void rv_cpuset_and(RvCpuSet *ret, const RvCpuSet *a, const RvCpuSet *b);
void rv_cpuset_or(RvCpuSet *ret, const RvCpuSet *a, const RvCpuSet *b);
/* ret = a & ~b */
void rv_cpuset_andnot(RvCpuSet *ret, const RvCpuSet *a, const RvCpuSet *b);
bool rv_cpuset_equal(const RvCpuSet *a, const RvCpuSet *b);
bool rv_cpuset_intersects(const RvCpuSet *a, const RvCpuSet *b);
/* True when every CPU of @sub is in @super. */
bool rv_cpuset_is_subset(const RvCpuSet *sub, const RvCpuSet *super);

#define rv_cpuset_foreach(cpu, set) \
    for (int cpu = rv_cpuset_next((set), 0); cpu >= 0; cpu = rv_cpuset_next((set), cpu + 1))

/**
 * rv_cpulist_parse:
 * @str: a cpulist ("0-3,8", "1-N", "all", "0-15:2/4"); leading/trailing
 *       whitespace and a trailing newline are ignored, as the kernel does
 * @nr_cpu_ids: number of possible CPUs, used to resolve "N" and "all" and
 *       to reject ids beyond it as the kernel would (-ERANGE); 0 means
 *       unknown: "N"/"all" are then rejected and only RV_CPUSET_MAX bounds ids
 * @ret: (out): the set, written only on success
 * @error: (optional): RV_ERROR_INVALID naming the value and the offending item
 *
 * Returns: 0, -EINVAL for bad syntax (start > end, used > group, group 0,
 * garbage), -ERANGE for a CPU id >= @nr_cpu_ids (or >= RV_CPUSET_MAX).
 */
int rv_cpulist_parse(const char *str, unsigned nr_cpu_ids, RvCpuSet *ret,
                          GError **error) G_GNUC_WARN_UNUSED_RESULT;

/**
 * rv_cpumask_parse:
 * @str: hex mask "ff,ffffffff" (32-bit words, most significant first,
 *       optional "0x" per word is NOT accepted, like the kernel)
 * @ret: (out): the set, written only on success
 * @error: (optional): RV_ERROR_INVALID naming the value
 *
 * Returns: 0, -EINVAL on a non-hex digit or a word wider than 8 digits,
 * -ERANGE when bits beyond RV_CPUSET_MAX are set.
 */
int rv_cpumask_parse(const char *str, RvCpuSet *ret,
                          GError **error) G_GNUC_WARN_UNUSED_RESULT;

/**
 * rv_cpulist_format:
 * @set: a set
 *
 * Returns: (transfer full): the canonical cpulist, ranges of 2 or more CPUs
 * collapsed ("0-3,8,10-11"), "" for the empty set.
 */
char *rv_cpulist_format(const RvCpuSet *set);

/**
 * rv_cpumask_format:
 * @set: a set
 * @nbits: width of the mask in CPUs (rounded up to 32-bit words); 0 = just
 *         wide enough for the highest CPU
 *
 * Returns: (transfer full): the mask as /proc/irq/N/smp_affinity writes it,
 * e.g. "00000000,0000000f".
 */
char *rv_cpumask_format(const RvCpuSet *set, unsigned nbits);

/* The byte size of a sched_setaffinity(2) mask of RV_CPUSET_MAX CPUs
 * (CPU_ALLOC_SIZE), for rv_cpuset_to_mask() and rv_cpuset_from_mask(). */
#define RV_CPUSET_MASK_SIZE CPU_ALLOC_SIZE(RV_CPUSET_MAX)

/* @set as a new glibc mask of RV_CPUSET_MAX CPUs (CPU_ALLOC; free it
 * with CPU_FREE), for sched_setaffinity(2) with RV_CPUSET_MASK_SIZE. */
cpu_set_t *rv_cpuset_to_mask(const RvCpuSet *set);

/* @mask (RV_CPUSET_MASK_SIZE bytes, from sched_getaffinity(2)) as a set. */
void rv_cpuset_from_mask(const cpu_set_t *mask, RvCpuSet *ret);
