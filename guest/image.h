/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * guest/image.h: the embedded default guest.
 *
 * A bootable guest with no download: the host's packaged kernel
 * (/boot/vmlinuz-VERSION from Debian's linux-image-amd64) plus an initramfs
 * that rtvirt assembles itself from packaged binaries:
 *   - busybox (busybox-static) as shell and tools,
 *   - rt-tests' cyclictest, oslat, hackbench, sysbench (Debian's),
 *   - rtvirt's own guest tools (guest-tools/, built by the Makefile next to
 *     rtvirt: rtvirt-linpack, rtvirt-gemm, rtvirt-pipe; workloads/),
 *   - qemu-ga (qemu-guest-agent), the in-guest command channel over the
 *     virtio-serial port "org.qemu.guest_agent.0",
 *   - the kernel modules for virtio-pci and virtio-serial (virtio_console)
 *     that this kernel has as modules (modules.builtin tells the built-in
 *     ones), with their dependencies from modules.dep, loaded deps first,
 *   - the shared libraries each binary needs (ELF PT_INTERP and DT_NEEDED,
 *     read from the files, resolved like ld.so's default directories),
 *   - an /init script.
 * The archive is cpio "newc" (Documentation/driver-api/early-userspace/
 * buffer-format.rst), gzip-compressed, written deterministically (mtime 0,
 * uid/gid 0), so the same inputs give the same bytes.
 *
 * Images are cached by content hash: SHA-256 over the format version, the
 * kernel and every archive member (path, mode, content).  A rebuild with
 * nothing changed finds the cached directory and writes nothing.
 *
 * The /init prints "rtvirt: ready" on the console right before it starts
 * qemu-ga (bench/boot.sh waits for that line on a raw QEMU boot).
 */
#pragma once

#include <stdbool.h>
#include <glib.h>

/* Bumped whenever the archive layout or /init changes. */
#define RV_GUEST_IMAGE_FORMAT "rtvirt-embedded-4"

/* Console line /init prints when the agent is about to start. */
#define RV_GUEST_IMAGE_READY_MARK "rtvirt: ready"

typedef struct {
    const char *sysroot;       /* where /boot, /lib/modules, /usr come from; NULL = "/" */
    const char *cache_dir;     /* NULL = rv_guest_image_default_cache_dir() */
    const char *kernel_release;/* NULL = newest /boot/vmlinuz-* with /lib/modules/<ver> */
    const char *tools_dir;     /* rtvirt's guest tools; NULL = rv_guest_image_tools_dir() */
    const char * const *needs; /* NULL-terminated program names ("rtvirt-linpack") the
                                * guest's workload needs (workloads/workload.h): the
                                * extra entries of rv_guest_image_binaries() named
                                * here go in too; NULL = the base set */
    bool once_per_process;     /* the first image built or found with these
                                * options is the answer for the rest of the
                                * process (rtvirt run: every guest of every
                                * repetition boots the same bytes, and a guest
                                * start does not read and hash the inputs
                                * again); see rv_guest_image_build() */
} RvGuestImageOptions;

/* One program of the guest images: the embedded image holds every one;
 * disk images install the same list (contract 3 of the helpers' notes). */
typedef struct {
    const char *path;          /* where it is in the guest (and, packaged, on the host) */
    const char *package;       /* Debian package, or NULL for rtvirt's own tools */
    bool tool;                 /* rtvirt's own (guest-tools/): read from the tools
                                * directory, not from the sysroot */
    bool extra;                /* only in images whose options name it in needs
                                * (large: OpenBLAS, sysbench's libraries) */
} RvGuestImageBinary;

/**
 * rv_guest_image_binaries:
 * @ret_n: (out): the number of entries
 *
 * The programs rtvirt's guest images contain (the extra ones where a
 * workload needs them), with the shared libraries each needs (resolved
 * from its ELF DT_NEEDED when the image is built).
 *
 * Returns: (transfer none): a static array of @ret_n entries.
 */
const RvGuestImageBinary *rv_guest_image_binaries(guint *ret_n);

/**
 * rv_guest_image_tools_dir:
 *
 * Where rtvirt's guest tools are: $RTVIRT_GUEST_TOOLS_DIR when set, else
 * the directory of the running binary (the build directory, or $(BINDIR)
 * where `make install` puts them beside rtvirt), else its parent when the
 * tools are there (the unit tests run from $(O)/tests/).
 *
 * Returns: (transfer full) (nullable): the directory; NULL when
 * /proc/self/exe cannot be read.
 */
char *rv_guest_image_tools_dir(void);

typedef struct {
    char *hash;            /* hex SHA-256 of the inputs (see above) */
    char *dir;             /* cache directory of this image */
    char *kernel;          /* DIR/vmlinuz */
    char *initrd;          /* DIR/initramfs.img (gzip'd cpio newc) */
    char *kernel_release;  /* e.g. "6.1.0-57-amd64" */
    guint64 initrd_bytes;  /* compressed size */
    guint n_files;         /* archive members (files, dirs, links, nodes) */
    bool cached;           /* found in the cache, nothing written */
} RvGuestImage;

void rv_guest_image_free(RvGuestImage *image);
G_DEFINE_AUTOPTR_CLEANUP_FUNC(RvGuestImage, rv_guest_image_free)

/**
 * rv_guest_image_default_cache_dir:
 *
 * $RTVIRT_CACHE_DIR when set; else /var/cache/rtvirt for root (libvirt's
 * QEMU user must read the kernel and initramfs: the directories are made
 * 0755, the files 0644); else $XDG_CACHE_HOME/rtvirt.
 *
 * Returns: (transfer full): the directory (not created here).
 */
char *rv_guest_image_default_cache_dir(void);

/**
 * rv_guest_image_build:
 * @opts: (nullable): options, NULL for the defaults
 * @ret: (out): the image, written only on success
 * @error: (optional): RV_ERROR_UNSUPPORTED when a needed package is not
 *         installed (no /boot/vmlinuz-*, no busybox, cyclictest or qemu-ga),
 *         naming the file and the Debian package; RV_ERROR_INVALID (bad
 *         input, exit 2) when @opts->kernel_release has no
 *         /boot/vmlinuz-VERSION, naming it and listing the releases /boot
 *         has; RV_ERROR_FAILED for I/O errors and unreadable ELF files
 *
 * Builds the embedded guest into CACHE/images/HASH/ unless that directory
 * already holds it.  Safe against concurrent builders (write to a temporary
 * directory, rename).  With @opts->once_per_process, a later call with the
 * same options (sysroot, cache, kernel release, tools, needs) in the same
 * process returns the first call's image, cached = true, while its
 * directory still holds vmlinuz, initramfs.img and manifest.json (about
 * 0.15 s of CPU per guest start on the 2-CPU build machine, on the
 * critical path of every guest boot); thread-safe.
 *
 * Returns: 0 or -errno.
 */
int rv_guest_image_build(const RvGuestImageOptions *opts, RvGuestImage **ret,
                         GError **error) G_GNUC_WARN_UNUSED_RESULT;

/**
 * rv_guest_image_export:
 * @image: a built image
 * @out_dir: directory to create or fill: vmlinuz, initramfs.img
 *
 * Copies the kernel and initramfs (`rtvirt guest build --out DIR`).
 *
 * Returns: 0 or -errno with RV_ERROR_FAILED naming the file.
 */
int rv_guest_image_export(const RvGuestImage *image, const char *out_dir,
                          GError **error) G_GNUC_WARN_UNUSED_RESULT;
