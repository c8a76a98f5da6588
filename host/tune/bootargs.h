/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * host/tune/bootargs.h: the installation of a host profile's kernel boot
 * arguments in the boot loader configuration.
 *
 * The arguments come from host/profile/kargs.h.
 *
 * Installation:
 *  - Debian (/etc/default/grub in the root): a drop-in
 *    /etc/default/grub.d/rtvirt.cfg appending the arguments to
 *    GRUB_CMDLINE_LINUX_DEFAULT (grub-mkconfig sources grub.d/NAME.cfg after
 *    /etc/default/grub), then `update-grub`;
 *  - grubby (Fedora/RHEL BLS) where present on the live host:
 *    `grubby --update-kernel=ALL --args=...`.
 * The previous state goes to the journal RV_HOST_JOURNAL_BOOTARGS_PATH, so
 * --remove restores it exactly (the drop-in's old content or absence; for
 * grubby, the arguments it replaced).
 */
#pragma once

#include <stdbool.h>
#include <glib.h>

#include "host/fsroot.h"
#include "host/profile/kargs.h"
#include "util/runner.h"

/* The drop-in written on Debian, a host path. */
#define RV_HOST_BOOTARGS_DROPIN "/etc/default/grub.d/rtvirt.cfg"

/**
 * rv_host_bootargs_dropin:
 * @args: the arguments
 * @profile_name: for the comment line
 *
 * Returns: (transfer full): the content of RV_HOST_BOOTARGS_DROPIN: a
 * comment and GRUB_CMDLINE_LINUX_DEFAULT="$GRUB_CMDLINE_LINUX_DEFAULT ARGS"
 * (arguments are words without quotes or shell metacharacters; others are
 * rejected by rv_host_bootargs_install()).
 */
char *rv_host_bootargs_dropin(char **args, const char *profile_name);

/* As rv_host_bootargs_dropin() with @header (comment lines, each ending
 * in '\n') instead of host bootargs' own. */
char *rv_host_bootargs_dropin_with(char **args, const char *header);

/**
 * rv_host_bootargs_check:
 * @args: (nullable): NULL-terminated argument words
 * @error: (optional): RV_ERROR_INVALID "Boot argument 'W' holds 'C': ..."
 *         for an empty word or one with a character other than letters,
 *         digits and _.,=:/+- (the drop-in is a shell assignment that
 *         grub-mkconfig sources)
 *
 * Returns: 0 or -EINVAL.
 */
int rv_host_bootargs_check(char **args, GError **error) G_GNUC_WARN_UNUSED_RESULT;

/**
 * rv_host_bootargs_install:
 * @root: the host (a throw-away root in tests)
 * @journal_path: (nullable): journal file (NULL: RV_HOST_JOURNAL_BOOTARGS_PATH
 *                inside @root)
 * @args: the arguments
 * @profile_name: for the drop-in comment
 * @runner: runs update-grub / grubby (pass a dry-run runner for a
 *          fixture root: the commands would act on the live host)
 * @ret_method: (out) (optional): "grub.d drop-in + update-grub" or "grubby"
 * @error: (optional): RV_ERROR_UNSUPPORTED when neither /etc/default/grub
 *         nor grubby is found; RV_ERROR_INVALID for an argument with shell
 *         metacharacters; RV_ERROR_FAILED when the tool fails
 *
 * Returns: 0 or -errno.
 */
int rv_host_bootargs_install(RvRoot *root, const char *journal_path, char **args,
                             const char *profile_name, RvRunner *runner,
                             const char **ret_method, GError **error) G_GNUC_WARN_UNUSED_RESULT;

/**
 * rv_host_bootargs_install_dropin:
 * @dropin: host path of the grub.d drop-in to write (another file than
 *          RV_HOST_BOOTARGS_DROPIN keeps `host bootargs --install`'s
 *          arguments: grub-mkconfig sources every grub.d/NAME.cfg)
 * @content: the drop-in's text (comment lines and the
 *           GRUB_CMDLINE_LINUX_DEFAULT assignment, as
 *           rv_host_bootargs_dropin() writes it)
 * @args: the arguments (checked; with grubby they are what is added)
 *
 * As rv_host_bootargs_install() with its own drop-in and text; the other
 * arguments and errors are the same.
 *
 * Returns: 0 or -errno.
 */
int rv_host_bootargs_install_dropin(RvRoot *root, const char *journal_path, const char *dropin,
                                    const char *content, char **args, RvRunner *runner,
                                    const char **ret_method,
                                    GError **error) G_GNUC_WARN_UNUSED_RESULT;

/**
 * rv_host_bootargs_describe_install:
 * @root: the host
 * @args: the arguments (checked as by rv_host_bootargs_install())
 * @profile_name: for the drop-in comment
 * @out: appended with what --install would do, one "would ..." line per
 *       step: the drop-in's path and text, or the grubby command, and
 *       update-grub
 * @ret_method: (out) (optional): as for rv_host_bootargs_install()
 * @error: (optional): as for rv_host_bootargs_install(), but no tool runs
 *
 * The dry run of rv_host_bootargs_install(): reads the root to pick the
 * boot loader and writes nothing anywhere (no drop-in, no journal, no
 * lock file).
 *
 * Returns: 0 or -errno.
 */
int rv_host_bootargs_describe_install(RvRoot *root, char **args, const char *profile_name, GString *out,
                                      const char **ret_method, GError **error) G_GNUC_WARN_UNUSED_RESULT;

/**
 * rv_host_bootargs_remove:
 *
 * @journal_path: (nullable): as for rv_host_bootargs_install()
 *
 * Reverts the boot-arguments journal (restoring the drop-in's previous
 * content or absence, or the arguments grubby replaced) and regenerates the
 * boot loader configuration.  Idempotent: nothing installed, nothing done.
 *
 * Returns: the number of journal entries restored, or -errno.
 */
int rv_host_bootargs_remove(RvRoot *root, const char *journal_path, RvRunner *runner,
                            GError **error) G_GNUC_WARN_UNUSED_RESULT;
