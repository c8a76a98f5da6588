/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * host/fsroot.h: every /sys and /proc access goes through an RvRoot.
 *
 * An RvRoot is a directory standing for "/": the live host ("/") or a
 * fixture tree captured from another machine (`rtvirt host capture`),
 * like hwloc's fsroot.  Paths are given as the host would see them
 * ("/sys/devices/system/cpu/online"); they are resolved inside the root
 * with openat2(RESOLVE_IN_ROOT), so absolute symlinks in a fixture tree
 * stay inside it.
 */
#pragma once

#include <stdbool.h>
#include <sys/types.h>
#include <glib.h>

typedef struct RvRoot RvRoot;

/* Largest file rtvirt reads whole through a root: sysfs attributes are one
 * page; /proc/interrupts on a 8192-CPU host is a few MiB. */
#define RV_ROOT_READ_MAX (16u << 20)

/**
 * rv_host_root_open:
 * @path: directory standing for "/" (NULL or "/" for the live host)
 * @ret: (out): the root, written only on success
 * @error: (optional): RV_ERROR_INVALID when @path is no directory
 *
 * Returns: 0 or -errno.
 */
int rv_host_root_open(const char *path, RvRoot **ret, GError **error) G_GNUC_WARN_UNUSED_RESULT;
void rv_host_root_free(RvRoot *root);
G_DEFINE_AUTOPTR_CLEANUP_FUNC(RvRoot, rv_host_root_free)

/* The directory given to rv_host_root_open() ("/" for the live host). */
const char *rv_host_root_path(const RvRoot *root);
/* True when the root is the live host, so syscalls (prctl, sched_*) about
 * this machine may be used besides files. */
bool rv_host_root_is_live(const RvRoot *root);

/**
 * rv_host_root_openat:
 * @path: host path, e.g. "/proc/irq/24/smp_affinity_list"
 * @flags: open(2) flags; O_CLOEXEC is always added
 *
 * Returns: a file descriptor or -errno.
 */
int rv_host_root_openat(RvRoot *root, const char *path, int flags, mode_t mode);

/**
 * rv_host_root_read:
 * @path: host path
 * @ret_contents: (out): NUL-terminated contents (at most RV_ROOT_READ_MAX bytes)
 * @error: (optional): RV_ERROR_FAILED "Failed to read '<root><path>': <strerror>",
 *         RV_ERROR_INVALID "... larger than N bytes" past RV_ROOT_READ_MAX
 *
 * Reads with util/file.h's rv_file_read_fd(): one errno policy for every
 * file rtvirt reads.
 *
 * Returns: the length read, or -errno (-ENOENT for a missing file, -EFBIG
 * past RV_ROOT_READ_MAX).
 */
gssize rv_host_root_read(RvRoot *root, const char *path, char **ret_contents,
                         GError **error) G_GNUC_WARN_UNUSED_RESULT;

/* As rv_host_root_read(), with surrounding whitespace stripped: for
 * one-value sysfs attributes. */
int rv_host_root_read_value(RvRoot *root, const char *path, char **ret_value,
                            GError **error) G_GNUC_WARN_UNUSED_RESULT;

/* Reads a one-value attribute holding a decimal integer. Returns 0 or -errno;
 * -EINVAL (RV_ERROR_INVALID naming file and value) when it is not a number. */
int rv_host_root_read_int(RvRoot *root, const char *path, gint64 *ret_value,
                          GError **error) G_GNUC_WARN_UNUSED_RESULT;

/**
 * rv_host_root_write:
 * @path: host path
 * @value: bytes to write in one write(2) (sysfs takes one value per write)
 *
 * Writes without creating: sysfs/procfs semantics.  Changes to the host go
 * through the journal (host/tune/journal.h), which calls this.
 *
 * Returns: 0 or -errno, with "Failed to write '<path>': <strerror>".
 */
int rv_host_root_write(RvRoot *root, const char *path, const char *value,
                       GError **error) G_GNUC_WARN_UNUSED_RESULT;

bool rv_host_root_exists(RvRoot *root, const char *path);

/**
 * rv_host_root_list:
 * @path: host directory
 * @ret_names: (out): sorted entry names, "." and ".." left out
 *
 * Returns: the number of entries or -errno.
 */
int rv_host_root_list(RvRoot *root, const char *path, GPtrArray **ret_names,
                      GError **error) G_GNUC_WARN_UNUSED_RESULT;

/* "<root><path>" for messages and for tools that need a real path. */
char *rv_host_root_resolve(const RvRoot *root, const char *path);
