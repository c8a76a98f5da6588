/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * guest/guestfs.h: a user-supplied base image customised with libguestfs
 * (its C API, guestfs(3)) for `[image] base_image = PATH`.
 *
 * The user's file is never written: the build creates TMP/base.qcow2, a
 * qcow2 overlay whose backing file is the user's image (format from
 * `qemu-img info`), and customises the overlay through the libguestfs
 * appliance:
 *   1. inspect the OS (guestfs_inspect_os(); Linux only, one root), mount
 *      its file systems as inspection reports them;
 *   2. upload rtvirt's guest programs to /usr/local/bin (0755);
 *   3. enable qemu-guest-agent (the image must have /usr/sbin/qemu-ga;
 *      libguestfs installs nothing: the appliance has no network):
 *      a multi-user.target.wants link to its unit;
 *   4. set the kernel arguments: /etc/rtvirt/cmdline and
 *      /etc/default/grub.d/rtvirt.cfg (GRUB_CMDLINE_LINUX_DEFAULT, for a
 *      boot through the image's own boot loader after update-grub);
 *   5. download the newest /boot/vmlinuz-* and its initramfs (Debian's
 *      initrd.img-VER, Fedora's initramfs-VER.img) for direct kernel boot,
 *      root=UUID=<the root file system's UUID>.
 * The appliance runs with backend setting force_tcg unless
 * $LIBGUESTFS_BACKEND_SETTINGS says otherwise: in nested setups -cpu host
 * aborts in the appliance, and TCG works everywhere (slower to launch).
 */
#pragma once

#include <glib.h>

#include "guest/disk-image.h"
#include "guest/profile.h"

/**
 * rv_guest_guestfs_build:
 * @profile: a profile with base_image
 * @tools: guest programs to upload, @n_tools of them
 * @n_tools: their number
 * @tmp: the build directory: base.qcow2, vmlinuz, initrd.img land there
 * @ret_root: (out): the root= argument ("UUID=..."), written on success
 * @error: (optional): RV_ERROR_INVALID for a base image that is no Linux
 *         or has no qemu-ga (naming it); RV_ERROR_UNSUPPORTED when rtvirt
 *         was built without libguestfs; RV_ERROR_FAILED with libguestfs'
 *         message naming the failing call
 *
 * Returns: 0 or -errno.
 */
int rv_guest_guestfs_build(const RvGuestProfile *profile, const RvGuestDiskTool *tools,
                           guint n_tools, const char *tmp, char **ret_root,
                           GError **error) G_GNUC_WARN_UNUSED_RESULT;
