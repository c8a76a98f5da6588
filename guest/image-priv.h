/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * guest/image-priv.h: internals of guest/image.c that tests exercise.
 */
#pragma once

#include <glib.h>

/**
 * rv_guest_elf_deps:
 * @data: an ELF file's bytes
 * @len: their length
 * @name: file name for messages
 * @ret_interp: (out) (nullable): PT_INTERP ("/lib64/ld-linux-x86-64.so.2"),
 *              NULL for a static binary
 * @ret_needed: (out): DT_NEEDED sonames in file order (may be empty)
 * @error: (optional): RV_ERROR_FAILED "'NAME' is not a 64-bit little-endian
 *         ELF file" or "... is truncated/corrupt: WHY"
 *
 * Reads the program headers and the SHT_DYNAMIC section (System V ABI,
 * elf(5)) of a 64-bit little-endian ELF file, every offset bounds-checked.
 *
 * Returns: 0 or -errno (-ENOEXEC).
 */
int rv_guest_elf_deps(const guint8 *data, gsize len, const char *name,
                      char **ret_interp, GPtrArray **ret_needed,
                      GError **error) G_GNUC_WARN_UNUSED_RESULT;

/**
 * rv_guest_modules_order:
 * @modules_dep: contents of /lib/modules/VER/modules.dep
 * @modules_builtin: (nullable): contents of modules.builtin
 * @wanted: NULL-terminated module names ("virtio_console"); '-' and '_'
 *          are the same (kmod)
 * @ret_paths: (out): module paths relative to /lib/modules/VER, each one
 *             after its dependencies (insmod order); built-in modules are
 *             left out
 * @error: (optional): RV_ERROR_UNSUPPORTED "Kernel module 'NAME' is neither
 *         in modules.dep nor built in"
 *
 * Returns: 0 or -errno.
 */
int rv_guest_modules_order(const char *modules_dep, const char *modules_builtin,
                           const char * const *wanted, GPtrArray **ret_paths,
                           GError **error) G_GNUC_WARN_UNUSED_RESULT;

/* cpio "newc" writer (Documentation/driver-api/early-userspace/buffer-format.rst). */
typedef struct RvCpio RvCpio;
RvCpio *rv_guest_cpio_new(void);
void rv_guest_cpio_free(RvCpio *cpio);
G_DEFINE_AUTOPTR_CLEANUP_FUNC(RvCpio, rv_guest_cpio_free)
/* @mode includes the file type bits (S_IFREG | 0755, S_IFDIR, S_IFLNK,
 * S_IFCHR); @data is the content or the symlink target. */
void rv_guest_cpio_add(RvCpio *cpio, const char *path, guint32 mode,
                       guint32 rdev_major, guint32 rdev_minor,
                       const void *data, gsize len);
/* Appends the TRAILER!!! entry and returns the archive. */
GBytes *rv_guest_cpio_finish(RvCpio *cpio);
