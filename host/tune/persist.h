/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * host/tune/persist.h: `rtvirt host apply --persist`: a host profile's runtime
 * knobs also written where the system reads them at boot, every file
 * journaled (host/tune/journal.h: its old content or its absence) so that
 * `rtvirt host revert` restores or removes it.
 *
 *   RV_HOST_PERSIST_SYSCTL    the profile's sysctls ([sched], [kernel]
 *                             nmi_watchdog, [sysctl]), read at boot by
 *                             systemd-sysctl.service (sysctl.d(5));
 *   RV_HOST_PERSIST_MODPROBE  [modules] as "options MODULE PARAM=VALUE",
 *                             read by modprobe at module load
 *                             (modprobe.d(5)); a parameter the module
 *                             exposes read-only (0444) is noted as taking
 *                             effect at a module reload or a reboot;
 *   RV_HOST_PERSIST_UNIT      for what has no boot-time file (sysfs knobs:
 *                             THP, KSM, machine-check ignore_ce, workqueue
 *                             cpumask, cpufreq governor, cpuidle states; IRQ
 *                             affinities; kernel thread priorities): a
 *                             Type=oneshot systemd service running
 *                             `RTVIRT host apply PROFILE` (both absolute
 *                             paths) at boot (systemd.service(5)), and
 *   RV_HOST_PERSIST_UNIT_LINK its enable link in multi-user.target.wants/,
 *                             as `systemctl enable` makes it (systemctl is
 *                             not called: systemd reads both at the next
 *                             boot, or at a daemon-reload).
 * Boot arguments are not persisted here: `rtvirt host bootargs --install`
 * writes them to the boot loader, with its own journal.
 */
#pragma once

#include <stdbool.h>
#include <glib.h>

#include "host/fsroot.h"
#include "host/tune/journal.h"
#include "host/profile/profile.h"

#define RV_HOST_PERSIST_SYSCTL    "/etc/sysctl.d/60-rtvirt.conf"
#define RV_HOST_PERSIST_MODPROBE  "/etc/modprobe.d/rtvirt.conf"
#define RV_HOST_PERSIST_UNIT_NAME "rtvirt-host-apply.service"
#define RV_HOST_PERSIST_UNIT      "/etc/systemd/system/" RV_HOST_PERSIST_UNIT_NAME
#define RV_HOST_PERSIST_UNIT_LINK \
    "/etc/systemd/system/multi-user.target.wants/" RV_HOST_PERSIST_UNIT_NAME

/* `rtvirt run` between the boots of a matrix whose scenarios set bootargs
 * (harness/reboot.h): a oneshot unit that resumes the run after the boot. */
#define RV_HOST_RESUME_UNIT_NAME "rtvirt-run-resume.service"
#define RV_HOST_RESUME_UNIT      "/etc/systemd/system/" RV_HOST_RESUME_UNIT_NAME
#define RV_HOST_RESUME_UNIT_LINK \
    "/etc/systemd/system/multi-user.target.wants/" RV_HOST_RESUME_UNIT_NAME

/* One file `--persist` wrote (or, in a dry run, would write). */
typedef struct {
    char *path;      /* host path, e.g. RV_HOST_PERSIST_SYSCTL */
    char *target;    /* a link's target, or NULL for a regular file */
    char *what;      /* "13 sysctls", "3 module parameters (1 read-only: ...)" */
    bool changed;    /* written (would be written); false: already so */
} RvPersistFile;

void rv_host_persist_file_free(RvPersistFile *f);

/**
 * rv_host_persist_sysctl_conf:
 * @profile: a loaded host profile (its name and path go into the header)
 * @ret_text: (out): the sysctl.d(5) file, "NAME = VALUE" lines with a
 *            header comment; NULL when the profile sets no sysctl
 * @ret_count: (out) (optional): the number of sysctls written
 * @error: (optional): RV_ERROR_INVALID "FILE:LINE: ..." for a [sysctl]
 *         value that would not read back
 *
 * Returns: 0 or -EINVAL.
 */
int rv_host_persist_sysctl_conf(const RvHostProfile *profile, char **ret_text,
                                guint *ret_count, GError **error) G_GNUC_WARN_UNUSED_RESULT;

/**
 * rv_host_persist_modprobe_conf:
 * @profile: a loaded host profile
 * @readonly: (nullable): NULL-terminated "MODULE.PARAM" keys of [modules]
 *            that the running module exposes read-only (0444): noted as
 *            needing a module reload or a reboot
 * @ret_text: (out): the modprobe.d(5) file, one "options MODULE PARAM=VALUE"
 *            line per parameter, in profile order; NULL when [modules] is empty
 * @ret_count: (out) (optional): the number of parameters written
 * @error: (optional): RV_ERROR_INVALID "FILE:LINE: ..." for a value with
 *         whitespace (modprobe would split it)
 *
 * Returns: 0 or -EINVAL.
 */
int rv_host_persist_modprobe_conf(const RvHostProfile *profile, const char *const *readonly,
                                  char **ret_text, guint *ret_count,
                                  GError **error) G_GNUC_WARN_UNUSED_RESULT;

/**
 * rv_host_persist_unit:
 * @profile: a loaded host profile
 * @rtvirt_path: absolute path of the rtvirt binary to run at boot
 * @profile_path: absolute path of the profile file to apply at boot
 * @ret_text: (out): the systemd unit (systemd.service(5)); NULL when the
 *            profile sets none of the knobs only a runtime write sets
 * @error: (optional): RV_ERROR_INVALID for a relative path or one with a
 *         control character
 *
 * Returns: 0 or -EINVAL.
 */
int rv_host_persist_unit(const RvHostProfile *profile, const char *rtvirt_path,
                         const char *profile_path, char **ret_text,
                         GError **error) G_GNUC_WARN_UNUSED_RESULT;

/**
 * rv_host_module_param_readonly:
 * @module: e.g. "kvm"; @param: e.g. "kvmclock_periodic_sync"
 *
 * Returns: true when /sys/module/MODULE/parameters/PARAM exists in @root
 * and has no write bit (the module declared it 0444: it changes only at
 * module load, include/linux/moduleparam.h).
 */
bool rv_host_module_param_readonly(RvRoot *root, const char *module, const char *param);

/**
 * rv_host_persist_check_trusted:
 * @what: what @path is, for the message ("profile", "rtvirt binary")
 * @path: a file or directory a boot unit runs or reads as root
 *
 * Checks @path and every directory above it, as given and resolved
 * (realpath(3)): each owned by root, none writable by group or others,
 * except a directory with the sticky bit (only a file's owner may replace
 * it there, and the file is checked too).  Reads the real file system
 * (not a --root tree): the unit runs on this host.
 *
 * Returns: 0, or -EPERM (RV_ERROR_INVALID) naming @path, the component and
 * why, with where a trusted copy goes; -errno (RV_ERROR_FAILED) when a
 * component cannot be examined.
 */
int rv_host_persist_check_trusted(const char *what, const char *path,
                                  GError **error) G_GNUC_WARN_UNUSED_RESULT;

/**
 * rv_host_persist_apply:
 * @root: the host (a writable fixture tree in tests)
 * @journal: (nullable): where each file's old content or absence is
 *           recorded first; NULL only for a dry run
 * @profile: the host profile (its path is made absolute for the unit)
 * @rtvirt_path: absolute path of the running rtvirt, for the unit
 * @dry_run: write nothing: list what would be written
 * @ret_files: (out): RvPersistFile *, in the order written; written only on
 *             success
 * @error: (optional): RV_ERROR_INVALID for a value no boot-time file can
 *         hold, RV_ERROR_FAILED for a file or the journal that could not be
 *         written (what was written before is in the journal), -EEXIST for
 *         an enable link rtvirt did not make
 *
 * Writes RV_HOST_PERSIST_SYSCTL, RV_HOST_PERSIST_MODPROBE, the unit and
 * its link, each only when the profile has something for it.  A file that
 * already holds the contents is left (changed false).
 *
 * Returns: 0 or -errno.
 */
int rv_host_persist_apply(RvRoot *root, RvJournal *journal, const RvHostProfile *profile,
                          const char *rtvirt_path, bool dry_run, GPtrArray **ret_files,
                          GError **error) G_GNUC_WARN_UNUSED_RESULT;

/**
 * rv_host_persist_resume_unit:
 * @rtvirt_path: absolute path of the rtvirt binary to run after the boot
 * @store_dir: absolute path of the results store to resume
 * @ret_text: (out): the unit (systemd.service(5)): Type=oneshot, no start
 *            timeout (a run takes as long as its matrix), after the
 *            libvirt daemons and rtvirt-host-apply.service, ExecStart=
 *            `RTVIRT run --resume STORE` (words quoted as for
 *            rv_host_persist_unit()), WantedBy=multi-user.target
 * @error: (optional): RV_ERROR_INVALID for a relative path
 *
 * Returns: 0 or -EINVAL.
 */
int rv_host_persist_resume_unit(const char *rtvirt_path, const char *store_dir, char **ret_text,
                                GError **error) G_GNUC_WARN_UNUSED_RESULT;

/**
 * rv_host_persist_resume_install:
 * @journal: where the unit's and its link's absence (or old content) are
 *           recorded first
 *
 * Writes RV_HOST_RESUME_UNIT (rv_host_persist_resume_unit()) and its
 * enable link RV_HOST_RESUME_UNIT_LINK, as rv_host_persist_apply() writes
 * its unit; reverting @journal removes both.
 *
 * Returns: 0 or -errno (-EEXIST: a link rtvirt did not make).
 */
int rv_host_persist_resume_install(RvJournal *journal, const char *rtvirt_path,
                                   const char *store_dir, GError **error) G_GNUC_WARN_UNUSED_RESULT;
