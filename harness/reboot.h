/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * harness/reboot.h: reboot-resume for matrices whose scenarios set
 * bootargs = ... (harness/matrix.h, the boots of harness/plan.h).
 *
 * `rtvirt run MATRIX` measures the boot the host has (boot 0, when some
 * scenario sets no bootargs), then for each further boot:
 *   1. writes STORE/resume.json (RV_HARNESS_REBOOT_STATE, below): the
 *      matrix, its SHA-256, the seed and the effective overrides (so the
 *      same plan is made again after the boot), the boot to come, the
 *      /proc/cmdline the run started under, and the counts so far;
 *   2. installs the boot's arguments through the boot loader in the run's
 *      own drop-in RV_HARNESS_REBOOT_DROPIN (grubby where present), with
 *      the journal RV_HARNESS_REBOOT_BOOTARGS_JOURNAL: the previous boot's
 *      arguments are removed first, `host bootargs --install`'s drop-in is
 *      left alone (both apply);
 *   3. installs rtvirt-run-resume.service and its enable link
 *      (host/tune/persist.h) through RV_HARNESS_REBOOT_UNIT_JOURNAL;
 *   4. runs the reboot command, $RTVIRT_REBOOT_CMD (split as a shell
 *      would, no shell run; default `systemctl reboot`), and exits with
 *      RV_HARNESS_REBOOT_EXIT ("rebooting").
 * After the boot the unit runs `rtvirt run --resume STORE`: the same plan,
 * the boot's arguments checked against /proc/cmdline and their effect in
 * sysfs (rv_harness_reboot_verify()) before anything is measured; a boot
 * that did not take them fails its cells with the reason and the run goes
 * on to the next boot.  After the last boot both journals are reverted
 * (the original boot arguments back in the boot loader, the unit gone;
 * the host keeps running the last boot's command line until its next
 * reboot) and resume.json is removed.  `rtvirt run --abort STORE` does
 * that at any point.  A run that stops before its end (Ctrl-C, SIGTERM, a
 * failure; also before the reboot command of a handover) reverts both
 * journals as well, so that no reboot resumes it unasked, but keeps
 * resume.json: `run --resume STORE` continues at the same boot, installing
 * its arguments and rebooting first when the host does not run them
 * (installed_boot_id, below).  Every journal path is inside the run's
 * --root.
 */
#pragma once

#include <stdbool.h>
#include <glib.h>

#include "host/fsroot.h"

#define RV_HARNESS_REBOOT_STATE "resume.json"
#define RV_HARNESS_REBOOT_DROPIN "/etc/default/grub.d/rtvirt-run.cfg"
#define RV_HARNESS_REBOOT_BOOTARGS_JOURNAL "/var/lib/rtvirt/run-bootargs.journal"
#define RV_HARNESS_REBOOT_UNIT_JOURNAL "/var/lib/rtvirt/run-resume.journal"
/* A UUID the kernel draws at each boot (Documentation/admin-guide/sysctl/
 * kernel.rst, "random"): tells a reboot from none. */
#define RV_HARNESS_REBOOT_BOOT_ID "/proc/sys/kernel/random/boot_id"
/* `rtvirt run`'s exit status when it hands over to a reboot. */
#define RV_HARNESS_REBOOT_EXIT 3

/* STORE/resume.json: {schema_version 1, matrix, matrix_sha256, seed (a
 * string: 64 bits), repetitions, duration_us, warmup_us, timeout_us, boot,
 * boots, cmdline_before, ok_runs, failed_runs, and optionally runs_total,
 * runs_done, run_us, updated, installed_boot_id}.  Every `rtvirt run`
 * keeps one in its store until the matrix completes (or `run --abort`):
 * `rtvirt run --resume STORE` makes the same plan from it after a reboot,
 * a crash, SIGKILL or Ctrl-C.
 *
 * installed_boot_id is the kernel's boot_id (RV_HARNESS_REBOOT_BOOT_ID)
 * under which `boot`'s arguments were installed in the boot loader ("" when
 * the host has no readable boot_id: counted as rebooted since); absent
 * while they are not there (the host's own boot 0, or a run that stopped:
 * Ctrl-C, SIGTERM or a failure restores the boot loader).  A --resume
 * whose kernel does not show `boot`'s arguments tells by it what happened:
 * the same boot_id (SIGKILL between the install and the reboot) or none
 * (restored at a stop): the host never booted with them, so they are
 * installed again and the host reboots; another boot_id: the host booted
 * with them in the boot loader and the kernel did not take them, so the
 * boot's repetitions fail with the reason. */
typedef struct {
    char *matrix;           /* absolute path of the matrix file */
    char *matrix_sha256;    /* of its content when the run started */
    guint64 seed;
    unsigned repetitions;
    guint64 duration_us, warmup_us, timeout_us;
    unsigned boot;          /* the boot the host reboots into (plan->boots index) */
    unsigned boots;         /* plan->boots->len, checked against the plan made again */
    char *cmdline_before;   /* /proc/cmdline when the run started */
    unsigned ok_runs, failed_runs;  /* over the boots measured so far */
    /* progress, for `rtvirt status` (optional on read: 0 / NULL) */
    unsigned runs_total;    /* runnable repetitions of the plan */
    unsigned runs_done;     /* of them, committed */
    guint64 run_us;         /* wall time of one repetition so far (mean), or the estimate */
    char *updated;          /* ISO 8601 UTC of the last write */
    char *installed_boot_id;    /* see above; NULL: not installed */
} RvRebootState;

void rv_harness_reboot_state_free(RvRebootState *st);
G_DEFINE_AUTOPTR_CLEANUP_FUNC(RvRebootState, rv_harness_reboot_state_free)

/**
 * rv_harness_reboot_state_write:
 * @store_dir: the results store
 * @error: (optional): RV_ERROR_FAILED naming the file
 *
 * Writes STORE/resume.json atomically (g_file_set_contents).
 *
 * Returns: 0 or -EIO.
 */
int rv_harness_reboot_state_write(const char *store_dir, const RvRebootState *st,
                                  GError **error) G_GNUC_WARN_UNUSED_RESULT;

/**
 * rv_harness_reboot_state_read:
 * @ret: (out): written only on success
 * @error: (optional): RV_ERROR_INVALID "STORE/resume.json: ..." naming the
 *         member for bad content, "STORE: no resume.json: no stopped or
 *         rebooting `rtvirt run` to resume in this store" when absent,
 *         "STORE: no such results store (not a directory)" when STORE is
 *         not a directory
 *
 * Returns: 0 or -errno (-ENOENT when absent).
 */
int rv_harness_reboot_state_read(const char *store_dir, RvRebootState **ret,
                                 GError **error) G_GNUC_WARN_UNUSED_RESULT;

/* Removes STORE/resume.json; absent is fine.  Returns 0 or -errno. */
int rv_harness_reboot_state_remove(const char *store_dir);

/**
 * rv_harness_reboot_file_sha256:
 * Returns: (transfer full) (nullable): the hex SHA-256 of @path's content,
 * NULL when it cannot be read.
 */
char *rv_harness_reboot_file_sha256(const char *path);

/**
 * rv_harness_reboot_cmdline:
 * @root: the host
 * Returns: (transfer full) (nullable): /proc/cmdline without its trailing
 * newline, NULL when unreadable.
 */
char *rv_harness_reboot_cmdline(RvRoot *root);

/**
 * rv_harness_reboot_boot_id:
 * @root: the host
 * Returns: (transfer full) (nullable): RV_HARNESS_REBOOT_BOOT_ID without
 * its newline, NULL when unreadable, empty or longer than 64 bytes (a
 * fixture root without it).
 */
char *rv_harness_reboot_boot_id(RvRoot *root);

/**
 * rv_harness_reboot_verify:
 * @root: the host, booted (or, in a test, its fixture rewritten)
 * @bootargs: (nullable): the words the boot should have (NULL: none)
 * @cmdline: /proc/cmdline (rv_harness_reboot_cmdline())
 *
 * Every word must be a word of @cmdline before a "--" (the kernel keeps
 * unknown ones too; what follows "--" goes to init), and where the
 * kernel shows its effect in sysfs it must show it:
 * nosmt -> /sys/devices/system/cpu/smt/active "0"; isolcpus=[FLAGS,]LIST
 * -> /sys/devices/system/cpu/isolated LIST; nohz_full=LIST ->
 * /sys/devices/system/cpu/nohz_full LIST (files that are absent are not
 * judged: a kernel without the interface).
 *
 * Returns: (transfer full) (nullable): NULL when the boot took them, else
 * the reason ("'nosmt' is not in /proc/cmdline", "nosmt: ... smt/active
 * is 1"), "; "-separated.
 */
char *rv_harness_reboot_verify(RvRoot *root, char **bootargs, const char *cmdline);

/**
 * rv_harness_reboot_command:
 * @ret_argv: (out): $RTVIRT_REBOOT_CMD split by g_shell_parse_argv(), or
 *            {"systemctl", "reboot"}
 * @error: (optional): RV_ERROR_INVALID "$RTVIRT_REBOOT_CMD '...': ..."
 *
 * Returns: 0 or -EINVAL.
 */
int rv_harness_reboot_command(char ***ret_argv, GError **error) G_GNUC_WARN_UNUSED_RESULT;
