/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * host/tune/smt.h: SMT on/off at runtime, journaled so that it is reverted
 * exactly.
 *
 * Interface: /sys/devices/system/cpu/smt/control and smt/active
 * (Documentation/ABI/testing/sysfs-devices-system-cpu, "smt/control";
 * Documentation/admin-guide/hw-vuln/l1tf.rst, "SMT control").  control
 * reads "on", "off", "forceoff" (nosmt=force: cannot be turned on before a
 * reboot), "notsupported" (the CPU has no SMT) or "notimplemented"; the file
 * is absent on kernels without CONFIG_HOTPLUG_SMT.  Writing "off" takes
 * every secondary thread offline; writing "on" brings EVERY present CPU
 * online (kernel/cpu.c cpuhp_smt_enable()), also CPUs that were offline
 * before SMT went off.  So rv_host_smt_set(off) records, before the change,
 * each CPU that is offline already (journal entry type
 * RV_HOST_SMT_JOURNAL_TYPE), and revert takes those CPUs offline again after
 * smt/control is restored: the online mask comes back exactly.
 *
 * Whoever reverts a journal (`rtvirt host revert`, `rtvirt run` on exit)
 * must call rv_host_smt_journal_register() on it first.
 */
#pragma once

#include <stdbool.h>
#include <glib.h>

#include "util/cpulist.h"
#include "host/fsroot.h"
#include "host/tune/journal.h"

/* Custom journal entry: key "cpuN", data "0": CPU N was offline. */
#define RV_HOST_SMT_JOURNAL_TYPE "smt-offline-cpu"

typedef struct {
    char *control;         /* smt/control, NULL when the file is absent */
    int active;            /* smt/active: 1, 0, or -1 when absent */
    RvCpuSet present;      /* /sys/devices/system/cpu/present */
    RvCpuSet online;       /* /sys/devices/system/cpu/online */
    unsigned nr_cpu_ids;   /* last possible CPU + 1 */
} RvSmtState;

void rv_host_smt_state_clear(RvSmtState *st);
G_DEFINE_AUTO_CLEANUP_CLEAR_FUNC(RvSmtState, rv_host_smt_state_clear)

/**
 * rv_host_smt_state_read:
 * @root: live host or fixture tree
 * @ret: (out): the state, written only on success (clear it with
 *       rv_host_smt_state_clear())
 * @error: (optional): RV_ERROR_FAILED / RV_ERROR_INVALID naming the file
 *         when present or online cannot be read or parsed
 *
 * Returns: 0 or -errno.
 */
int rv_host_smt_state_read(RvRoot *root, RvSmtState *ret, GError **error) G_GNUC_WARN_UNUSED_RESULT;

/* "control=on active=1 present=0-3 online=0-3": one line, stable, so two
 * states compare by string. */
char *rv_host_smt_state_format(const RvSmtState *st);

/**
 * rv_host_smt_unavailable_reason:
 * @st: a state
 * @enable: the change wanted (true = SMT on)
 *
 * Returns: (transfer none) (nullable): why smt/control cannot make the
 * change ("kernel without CONFIG_HOTPLUG_SMT: no smt/control",
 * "the CPU has no SMT (smt/control = notsupported)", "SMT was forced off at
 * boot (nosmt=force, smt/control = forceoff): on needs a reboot", ...), or
 * NULL when it can.
 */
const char *rv_host_smt_unavailable_reason(const RvSmtState *st, bool enable);

/**
 * rv_host_smt_set:
 * @root: the host (a fixture root works for the journal logic, but its
 *        files do not react like sysfs)
 * @journal: where old values go (host/tune/journal.h)
 * @enable: true writes "on", false writes "off"
 * @error: (optional): RV_ERROR_UNSUPPORTED with
 *         rv_host_smt_unavailable_reason(); RV_ERROR_FAILED for a failed
 *         write; RV_ERROR_CHECK when afterwards smt/active or the online
 *         mask is not what the change must give (off: exactly one online
 *         thread per core that had one; on: every sibling of an online
 *         thread online), naming what was read
 *
 * Off: journals each offline present CPU (see above), then smt/control
 * through rv_host_journal_set_value().  On: smt/control only.
 *
 * Returns: 1 when changed, 0 when SMT already was so, or -errno.
 */
int rv_host_smt_set(RvRoot *root, RvJournal *journal, bool enable,
                    GError **error) G_GNUC_WARN_UNUSED_RESULT;

/**
 * rv_host_smt_journal_register:
 * @journal: a journal about to be reverted
 *
 * Installs the restore handler of RV_HOST_SMT_JOURNAL_TYPE entries (write
 * "0" to /sys/devices/system/cpu/cpuN/online when it is online).
 */
void rv_host_smt_journal_register(RvJournal *journal);
