/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * guest/disk-image.h: disk guests built by rtvirt (`rtvirt guest image`).
 *
 * A guest profile with `[image] type = disk` and no `path` gets its disk
 * built here, one of two ways:
 *
 *   - mmdebstrap (no base_image): a Debian root file system of the host's
 *     own release (VERSION_CODENAME of /etc/os-release) from the host's own
 *     apt sources (/etc/apt/sources.list and sources.list.d/ *.list,
 *     *.sources, handed to mmdebstrap as files: no mirror URL here, it
 *     works wherever apt-get works), variant "essential" plus systemd-sysv,
 *     udev, qemu-guest-agent, rt-tests, linux-image-amd64 and the profile's
 *     `packages`.  The initramfs is made with MODULES=list (virtio_pci,
 *     virtio_blk, ext4: a small one, which TCG unpacks quickly).  rtvirt's
 *     guest-side programs go to /usr/local/bin; with tpcc_warehouses the
 *     TPC-C database is loaded into the tree's /var/lib/mysql by the tree's
 *     own mariadbd (chroot) and the host's rtvirt-tpcc.  The shared
 *     libraries a guest program needs (ELF DT_NEEDED) are installed as the
 *     Debian packages that hold them on the host (dpkg-query -S).  The tree becomes
 *     an ext4 file system without loop mounts (mkfs.ext4 -d, e2fsprogs
 *     >= 1.43), converted to qcow2 (qemu-img convert).
 *   - libguestfs (base_image = PATH; guest/guestfs.h): an overlay of the
 *     user's image, customised through the libguestfs appliance.
 *
 * Either way the guest boots by direct kernel boot (libvirt <os><kernel>,
 * <initrd>, <cmdline>) with the image's own kernel and initramfs, copied
 * beside the image, on "root=ROOT rw console=ttyS0" plus the profile's
 * kernel arguments.  Guests boot from a qcow2 overlay
 * (rv_guest_disk_image_overlay(), backing file the cached base), so a
 * run never changes the base.
 *
 * Cache: CACHE/disk-images/HASH/ with base.qcow2, vmlinuz, initrd.img and
 * manifest.json (written last: a directory without it is no image).  HASH
 * is SHA-256 over everything that goes in (rv_guest_disk_image_hash()):
 * the format version, the release, the sorted package set, the kernel
 * arguments, the size, the TPC-C settings, the apt source files' contents,
 * every guest program's name and bytes, and for base_image the user
 * file's path, size, mtime and inode.  Package versions are not pinned:
 * a new Debian point release reaches an image only through --force.
 * Builds run in CACHE/disk-images/.tmp-XXXXXX (with the builder's pid)
 * and are renamed into place at the end; a failed build removes its
 * temporary directory, and one left by a killed builder (pid gone) is
 * removed by the next build.
 */
#pragma once

#include <stdbool.h>
#include <glib.h>

#include "guest/profile.h"

/* Bumped whenever the image's layout, base packages or boot change. */
#define RV_GUEST_DISK_IMAGE_FORMAT "rtvirt-disk-1"

/* Packages every mmdebstrap-built image gets besides the profile's. */
#define RV_GUEST_DISK_IMAGE_BASE_PACKAGES \
    "systemd-sysv", "udev", "qemu-guest-agent", "rt-tests", "linux-image-amd64"

/* rtvirt's programs that disk images hold beyond the guest image list
 * (rv_guest_image_binaries()): the TPC-C driver.  (Not rtvirt-pert: its
 * bytes carry the git version, every commit would change the image hash.) */
#define RV_GUEST_DISK_IMAGE_EXTRA_TOOLS "rtvirt-tpcc"

/* A guest-side program copied into the image: @name under /usr/local/bin. */
typedef struct {
    const char *name;          /* "rtvirt-tpcc" */
    const char *host_path;     /* the built file on the host */
} RvGuestDiskTool;

/* Everything the hash covers; what rv_guest_disk_image_build() fills from
 * the profile and the host.  Tests build it by hand. */
typedef struct {
    const char *suite;             /* "bookworm" */
    const char * const *packages;  /* NULL-terminated, any order, dups allowed */
    const char *cmdline;           /* the profile's kernel arguments */
    guint64 size_bytes;            /* 0 = automatic */
    unsigned tpcc_warehouses;
    const char *tpcc_scale;        /* NULL when tpcc_warehouses is 0 */
    GPtrArray *sources;            /* RvGuestDiskBlob: apt source files */
    GPtrArray *tools;              /* RvGuestDiskBlob: guest programs */
    const char *base_image_id;     /* "PATH:SIZE:MTIME:INODE" or NULL */
} RvGuestDiskInputs;

/* A named blob of bytes (a file's name and content) for the hash. */
typedef struct {
    char *name;
    GBytes *data;
} RvGuestDiskBlob;

void rv_guest_disk_blob_free(RvGuestDiskBlob *blob);

/* The group that may read rtvirt's disk images: the one QEMU runs in under
 * Debian's qemu:///system (qemu.conf user/group "libvirt-qemu"). */
#define RV_GUEST_DISK_IMAGE_GROUP "libvirt-qemu"

/**
 * rv_guest_disk_image_protect:
 * @path: a disk image rtvirt wrote (a base qcow2, an overlay)
 *
 * A disk image is a guest's whole root file system (its /etc/shadow, its
 * keys): mode 0640, group RV_GUEST_DISK_IMAGE_GROUP when that group
 * exists (QEMU reads a backing file as it), else 0600.  libvirt's DAC
 * driver (dynamic_ownership) gives the top image to QEMU while it runs.
 *
 * Returns: 0 or -errno (chmod(2), chown(2)).
 */
int rv_guest_disk_image_protect(const char *path);

/**
 * rv_guest_disk_image_hash:
 * @in: the inputs
 *
 * SHA-256 over RV_GUEST_DISK_IMAGE_FORMAT and every field of @in, each
 * framed with its length; the package set is sorted and deduplicated
 * first, blobs are taken in the order given (callers sort them by name).
 *
 * Returns: (transfer full): 64 hex digits.
 */
char *rv_guest_disk_image_hash(const RvGuestDiskInputs *in);

typedef struct {
    const char *cache_dir;            /* NULL = rv_guest_image_default_cache_dir() */
    bool force;                       /* rebuild even when cached */
    const RvGuestDiskTool *tools;     /* guest programs; n_tools of them */
    guint n_tools;
    const char *tpcc_driver;          /* host rtvirt-tpcc for the load; NULL =
                                       * the tool named rtvirt-tpcc */
    const char *sysroot;              /* where /etc/apt and /etc/os-release are
                                       * read; NULL = "/" (tests) */
    const char * const *packages;     /* more Debian packages (the packaged
                                       * programs of the guest image list,
                                       * rv_guest_image_binaries()); hashed */
} RvGuestDiskImageOptions;

typedef struct {
    char *hash;
    char *dir;           /* CACHE/disk-images/HASH */
    char *base;          /* DIR/base.qcow2 */
    char *kernel;        /* DIR/vmlinuz */
    char *initrd;        /* DIR/initrd.img */
    char *root;          /* root= argument: "/dev/vda", "UUID=..." */
    char *method;        /* "mmdebstrap" | "libguestfs" */
    guint64 build_ms;    /* build time of this image (from the manifest when cached) */
    guint64 disk_bytes;  /* size of base.qcow2 */
    bool cached;         /* found in the cache, nothing built */
} RvGuestDiskImage;

void rv_guest_disk_image_free(RvGuestDiskImage *image);
G_DEFINE_AUTOPTR_CLEANUP_FUNC(RvGuestDiskImage, rv_guest_disk_image_free)

/**
 * rv_guest_disk_image_build:
 * @profile: a profile with rv_guest_profile_builds_image()
 * @opts: (nullable): options
 * @ret: (out): the image, written only on success
 * @error: (optional): RV_ERROR_INVALID for a profile that builds no image
 *         or a base_image that cannot be read (naming it);
 *         RV_ERROR_UNSUPPORTED when mmdebstrap, mkfs.ext4 or qemu-img is
 *         missing (naming the Debian package); RV_ERROR_FAILED naming the
 *         failing step's command and its last stderr lines
 *
 * Finds the image in the cache or builds it (see above).  $RTVIRT_MMDEBSTRAP
 * replaces the mmdebstrap program (tests: a stub that writes a tiny tree).
 *
 * Returns: 0 or -errno.
 */
int rv_guest_disk_image_build(const RvGuestProfile *profile,
                              const RvGuestDiskImageOptions *opts,
                              RvGuestDiskImage **ret, GError **error) G_GNUC_WARN_UNUSED_RESULT;

/**
 * rv_guest_disk_image_overlay:
 * @image: a built image
 * @path: the overlay to create (must not exist)
 * @error: (optional): RV_ERROR_FAILED naming qemu-img's message
 *
 * `qemu-img create -f qcow2 -F qcow2 -b BASE PATH`: a copy-on-write disk
 * whose writes never reach the base.  Mode 0644.
 *
 * Returns: 0 or -errno.
 */
int rv_guest_disk_image_overlay(const RvGuestDiskImage *image, const char *path,
                                GError **error) G_GNUC_WARN_UNUSED_RESULT;

/**
 * rv_guest_disk_image_cmdline:
 * @image: a built image
 * @profile: its profile
 *
 * The direct-boot command line: "root=ROOT rw", "console=ttyS0" unless
 * the profile names a console, then rv_guest_profile_kernel_cmdline().
 *
 * Returns: (transfer full): the command line.
 */
char *rv_guest_disk_image_cmdline(const RvGuestDiskImage *image,
                                  const RvGuestProfile *profile);
