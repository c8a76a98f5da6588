/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * host/tune/tune.h: `rtvirt host apply`: make a host profile's runtime knobs
 * true, every change journaled (host/tune/journal.h) so `host revert` undoes it.
 *
 * Knobs, in the order applied (each one only when the profile sets it):
 *  - sysctls: kernel.sched_rt_runtime_us (RT throttling,
 *    Documentation/scheduler/sched-rt-group.rst), kernel.timer_migration,
 *    kernel.numa_balancing, kernel.nmi_watchdog, and [sysctl] NAME=VALUE
 *    (/proc/sys/NAME with dots as slashes);
 *  - /sys/kernel/mm/transparent_hugepage/enabled, /sys/kernel/mm/ksm/run
 *    (Documentation/admin-guide/mm/transhuge.rst, ksm.rst);
 *  - [modules] M.P = V in /sys/module/M/parameters/P (a read-only parameter
 *    is reported: it is set at module load, in /etc/modprobe.d);
 *  - /sys/devices/system/machinecheck/machinecheckN/ignore_ce;
 *  - the unbound workqueue cpumask /sys/devices/virtual/workqueue/cpumask
 *    (Documentation/core-api/workqueue.rst);
 *  - IRQ affinity: /proc/irq/default_smp_affinity and every
 *    /proc/irq/N/smp_affinity_list that reaches an isolated CPU
 *    (Documentation/core-api/irq/irq-affinity.rst).  A managed IRQ answers
 *    EIO: reported, not fought (isolcpus=managed_irq handles those);
 *  - kernel threads (live host only): SCHED_FIFO/RR priorities by comm prefix
 *    ("rcuc" matches rcuc/3, not rcucx), and unbound kernel threads whose
 *    affinity reaches isolated CPUs moved to the housekeeping CPUs (per-CPU
 *    threads refuse with EINVAL: PF_NO_SETAFFINITY, counted, not fought)
 *    (Documentation/admin-guide/kernel-per-CPU-kthreads.rst);
 *  - cpufreq scaling_governor of every online CPU;
 *  - cpuidle: stateN/disable = 1 for states whose latency (us) exceeds
 *    idle_max_latency_us on the CPUs the profile names
 *    (Documentation/admin-guide/pm/cpuidle.rst);
 *  - libvirt's qemu.conf: sched_core (only where core scheduling works, or
 *    FAILED when the profile requires it) and cgroup_controllers, then a
 *    libvirt daemon restart, journaled so revert restarts it again after
 *    restoring the file.
 * cgroup v2 cpuset partitions are reported, not created: vCPUs and
 * emulator threads of one domain live in one machine.slice cgroup and need
 * both isolated and housekeeping CPUs, which an exclusive partition forbids.
 */
#pragma once

#include <stdbool.h>
#include <glib.h>

#include "host/fsroot.h"
#include "host/tune/journal.h"
#include "host/profile/partition.h"
#include "host/profile/profile.h"
#include "util/runner.h"

typedef enum {
    RV_TUNE_CHANGED = 0,  /* changed (or would change, in a dry run) */
    RV_TUNE_ALREADY,      /* already had the value */
    RV_TUNE_SKIPPED,      /* not available here: the message says why */
    RV_TUNE_FAILED,       /* the host refused: the message says how */
} RvTuneStatus;

typedef struct {
    RvTuneStatus status;
    char *knob;      /* "sysctl kernel.sched_rt_runtime_us", "irq 24", "kthread rcuc/1 (pid 17)" */
    char *old_value; /* or NULL */
    char *value;     /* the value wanted, or NULL */
    char *message;   /* why skipped/failed, or a detail; NULL otherwise */
} RvTuneItem;

typedef struct {
    GPtrArray *items;          /* RvTuneItem *, in apply order */
    unsigned counts[RV_TUNE_FAILED + 1];
    bool dry_run;
} RvTuneReport;

/* Frees a report; accepts NULL. */
void rv_host_tune_report_free(RvTuneReport *report);
G_DEFINE_AUTOPTR_CLEANUP_FUNC(RvTuneReport, rv_host_tune_report_free)

/* "changed" ("would change" in a dry run), "already", "skipped", "failed". */
const char *rv_host_tune_status_name(RvTuneStatus status, bool dry_run);

/**
 * rv_host_tune_apply:
 * @root: the host (a writable fixture tree in tests)
 * @journal: (nullable): where each change is recorded first; NULL only for
 *           a dry run
 * @profile: the host profile
 * @part: its partition on this host (rv_host_partition_compute())
 * @runner: runs the libvirt daemon restart; a dry-run runner on fixture roots
 * @dry_run: read only: report what would change
 * @ret: (out): one item per knob, written only on success
 * @error: (optional): RV_ERROR_FAILED when the journal cannot be written
 *         (nothing is changed without its record); a knob the host refuses
 *         is a FAILED item, not an error
 *
 * Returns: 0 or -errno.
 */
int rv_host_tune_apply(RvRoot *root, RvJournal *journal, const RvHostProfile *profile,
                       const RvHostPartition *part, RvRunner *runner, bool dry_run,
                       RvTuneReport **ret, GError **error) G_GNUC_WARN_UNUSED_RESULT;

/**
 * rv_host_tune_set_handlers:
 * @journal: a journal about to be reverted
 * @runner: runs daemon restarts (a dry-run runner on fixture roots)
 *
 * Registers the restore handlers of the custom entries host/tune/tune.c records
 * ("libvirt-restart"), so that any revert (`host revert`, the end of
 * `rtvirt run`, a signal) can undo them.
 */
void rv_host_tune_set_handlers(RvJournal *journal, RvRunner *runner);

