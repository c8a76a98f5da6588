/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * guest/disk-image-priv.h: internals of guest/disk-image.c that tests use.
 */
#pragma once

#include <stdbool.h>
#include <glib.h>

#include "guest/disk-image.h"

/* RV_GUEST_DISK_IMAGE_BASE_PACKAGES plus @packages, sorted, each once. */
GPtrArray *rv_guest_disk_package_set(const char * const *packages);

/* Root file system size in bytes for a tree of @tree bytes: @wanted when
 * not 0, else the tree plus a quarter plus 512 MiB, rounded up to MiB. */
guint64 rv_guest_disk_fs_size(guint64 tree, guint64 wanted);

/* Whether @img->dir holds a complete image (manifest, base, kernel, initrd). */
bool rv_guest_disk_image_complete(const RvGuestDiskImage *img);

/* Reads @img->dir/manifest.json into @img (root, method, build_ms,
 * disk_bytes); RV_ERROR_FAILED for a malformed or foreign manifest. */
int rv_guest_disk_manifest_read(RvGuestDiskImage *img, GError **error) G_GNUC_WARN_UNUSED_RESULT;

/* Removes IMAGES/.tmp-* directories whose builder.pid names no process. */
void rv_guest_disk_reap_stale(const char *images);

/**
 * rv_guest_disk_tpcc_load:
 * @tree: an mmdebstrap tree with mariadb-server installed
 * @driver: the host's rtvirt-tpcc
 * @warehouses: W, >= 1
 * @scale: "small" | "standard"
 * @error: (optional): RV_ERROR_FAILED naming the step (mariadbd start, the
 *         load, the shutdown) with the server's last log lines
 *
 * Starts the tree's own mariadbd (`chroot TREE mariadbd --user=mysql
 * --skip-networking`, a private socket under TREE/run), runs
 * `rtvirt-tpcc load` from the host against it, and shuts the server down
 * cleanly (SIGTERM, waits), so the guest's /var/lib/mysql holds the
 * database at boot.
 *
 * Returns: 0 or -errno.
 */
int rv_guest_disk_tpcc_load(const char *tree, const char *driver, unsigned warehouses,
                            const char *scale, GError **error) G_GNUC_WARN_UNUSED_RESULT;
