/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * tests/test-guest-image.c: the embedded guest's building blocks
 * (guest/image-priv.h) and one real build (guest/image.h):
 *  - ELF PT_INTERP / DT_NEEDED of the real packaged binaries, and refusal
 *    of truncated or foreign files;
 *  - insmod order from the real modules.dep of Debian's 6.1 kernel
 *    (tests/data/image/debian-6.1.0-57-amd64.source.txt);
 *  - cpio newc read back by GNU cpio;
 *  - a real build into a temporary cache, rebuilt from the cache.
 */
#include <errno.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include <glib/gstdio.h>

#include "guest/image.h"
#include "guest/image-priv.h"
#include "util/error.h"
#include "util/runner.h"
#include "tests/testutil.h"

static char *
data_path(const char *name)
{
    return rv_test_data_path("image", name);
}

static GBytes *
read_or_skip(const char *path)
{
    char *data = NULL;
    gsize len = 0;

    if (!g_file_get_contents(path, &data, &len, NULL))
        return NULL;
    return g_bytes_new_take(data, len);
}

/* rt-tests 2.5 (Debian 12): cyclictest is linked against librt,
 * libpthread, libnuma, libc (readelf -d /usr/bin/cyclictest). */
static void
test_elf_cyclictest(void)
{
    g_autoptr(GBytes) b = read_or_skip("/usr/bin/cyclictest");
    g_autofree char *interp = NULL;
    g_autoptr(GPtrArray) needed = NULL;
    g_autoptr(GError) err = NULL;
    gsize len;
    const guint8 *d;

    if (!b) {
        g_test_skip("rt-tests is not installed");
        return;
    }
    d = g_bytes_get_data(b, &len);
    g_assert_cmpint(rv_guest_elf_deps(d, len, "cyclictest", &interp, &needed, &err), ==, 0);
    g_assert_no_error(err);
    g_assert_cmpstr(interp, ==, "/lib64/ld-linux-x86-64.so.2");
    g_assert_cmpuint(needed->len, ==, 4);
    g_assert_cmpstr(needed->pdata[0], ==, "librt.so.1");
    g_assert_cmpstr(needed->pdata[1], ==, "libpthread.so.0");
    g_assert_cmpstr(needed->pdata[2], ==, "libnuma.so.1");
    g_assert_cmpstr(needed->pdata[3], ==, "libc.so.6");

    /* Every prefix is refused or parsed without reading past its end (ASan). */
    for (gsize cut = 0; cut < MIN(len, 8192); cut += 7) {
        g_autofree char *i2 = NULL;
        g_autoptr(GPtrArray) n2 = NULL;
        g_autoptr(GError) e2 = NULL;
        g_autofree guint8 *copy = g_memdup2(d, cut);

        if (rv_guest_elf_deps(copy, cut, "cut", &i2, &n2, &e2) < 0)
            g_assert_error(e2, RV_ERROR, RV_ERROR_FAILED);
    }
}

static void
test_elf_static_busybox(void)
{
    g_autoptr(GBytes) b = read_or_skip("/bin/busybox");
    g_autofree char *interp = NULL;
    g_autoptr(GPtrArray) needed = NULL;
    g_autoptr(GError) err = NULL;
    gsize len;
    const guint8 *d;

    if (!b) {
        g_test_skip("busybox-static is not installed");
        return;
    }
    d = g_bytes_get_data(b, &len);
    g_assert_cmpint(rv_guest_elf_deps(d, len, "busybox", &interp, &needed, &err), ==, 0);
    g_assert_null(interp);
    g_assert_cmpuint(needed->len, ==, 0);
}

static void
test_elf_not_elf(void)
{
    const char text[] = "#!/bin/sh\necho not an ELF file\n";
    g_autoptr(GPtrArray) needed = NULL;
    g_autoptr(GError) err = NULL;
    char *interp = NULL;

    g_assert_cmpint(rv_guest_elf_deps((const guint8 *) text, sizeof(text), "script", &interp,
                                      &needed, &err), ==, -ENOEXEC);
    g_assert_error(err, RV_ERROR, RV_ERROR_FAILED);
    g_assert_cmpstr(err->message, ==, "'script' is not a 64-bit little-endian ELF file");
    g_assert_null(needed);
}

static char *
load(const char *name)
{
    g_autofree char *p = data_path(name);

    return rv_test_read_file(p);
}

static char *
join(GPtrArray *a)
{
    GString *s = g_string_new(NULL);

    for (guint i = 0; i < a->len; i++)
        g_string_append_printf(s, "%s\n", (char *) a->pdata[i]);
    return g_string_free(s, FALSE);
}

static void
test_modules_order(void)
{
    g_autofree char *dep = load("debian-6.1.0-57-amd64-virtio.modules.dep");
    g_autofree char *builtin = load("debian-6.1.0-57-amd64-serial.modules.builtin");
    const char *wanted[] = { "virtio_pci", "virtio-console", NULL };
    g_autoptr(GPtrArray) paths = NULL;
    g_autoptr(GError) err = NULL;
    g_autofree char *got = NULL;

    g_assert_cmpint(rv_guest_modules_order(dep, builtin, wanted, &paths, &err), ==, 0);
    g_assert_no_error(err);
    got = join(paths);
    g_assert_cmpstr(got, ==,
                    "kernel/drivers/virtio/virtio_ring.ko\n"
                    "kernel/drivers/virtio/virtio.ko\n"
                    "kernel/drivers/virtio/virtio_pci_modern_dev.ko\n"
                    "kernel/drivers/virtio/virtio_pci_legacy_dev.ko\n"
                    "kernel/drivers/virtio/virtio_pci.ko\n"
                    "kernel/drivers/char/virtio_console.ko\n");
}

static void
test_modules_builtin_and_missing(void)
{
    g_autofree char *dep = load("debian-6.1.0-57-amd64-virtio.modules.dep");
    g_autofree char *builtin = load("debian-6.1.0-57-amd64-serial.modules.builtin");
    const char *serial[] = { "8250", NULL };
    const char *missing[] = { "virtio_pci", "no_such_module", NULL };
    g_autoptr(GPtrArray) paths = NULL;
    g_autoptr(GPtrArray) none = NULL;
    g_autoptr(GError) err = NULL;

    /* Built in (CONFIG_SERIAL_8250=y): nothing to load. */
    g_assert_cmpint(rv_guest_modules_order(dep, builtin, serial, &paths, &err), ==, 0);
    g_assert_cmpuint(paths->len, ==, 0);
    g_assert_cmpint(rv_guest_modules_order(dep, builtin, missing, &none, &err), ==, -ENOENT);
    g_assert_error(err, RV_ERROR, RV_ERROR_UNSUPPORTED);
    g_assert_cmpstr(err->message, ==,
                    "Kernel module 'no_such_module' is neither in modules.dep nor built in");
    g_assert_null(none);
}

static char *
cpio_list(GBytes *archive, const char *extra_arg)
{
    g_autoptr(RvRunner) runner = rv_runner_new(false);
    g_auto(RvRunResult) res = { 0 };
    g_autoptr(GError) err = NULL;
    g_autofree char *path = NULL;
    int fd = g_file_open_tmp("rv-cpio-XXXXXX", &path, &err);
    /* The archive holds NULs: hand it over as a file, not as stdin text. */
    const char *argv[] = { "cpio", "-it", "--quiet", "-F", path, extra_arg, NULL };

    g_assert_no_error(err);
    close(fd);
    g_file_set_contents(path, g_bytes_get_data(archive, NULL), g_bytes_get_size(archive), &err);
    g_assert_no_error(err);
    g_assert_cmpint(rv_runner_run(runner, argv, NULL, 60000, 1 << 20, &res, &err), ==, 0);
    g_assert_no_error(err);
    unlink(path);
    g_assert_cmpint(res.exit_status, ==, 0);
    return g_strdup(res.out);
}

static void
test_cpio(void)
{
    g_autoptr(RvCpio) c = rv_guest_cpio_new();
    g_autoptr(GBytes) a = NULL;
    g_autofree char *list = NULL, *verbose = NULL;
    g_autofree char *cpio = g_find_program_in_path("cpio");

    if (!cpio) {
        g_test_fail_printf("cpio not found (Debian package cpio, build-aux/debian-packages.txt)");
        return;
    }
    rv_guest_cpio_add(c, "/bin", S_IFDIR | 0755, 0, 0, NULL, 0);
    rv_guest_cpio_add(c, "/bin/hello", S_IFREG | 0755, 0, 0, "hi\n", 3);
    rv_guest_cpio_add(c, "/bin/sh", S_IFLNK | 0777, 0, 0, "busybox", 7);
    rv_guest_cpio_add(c, "/dev", S_IFDIR | 0755, 0, 0, NULL, 0);
    rv_guest_cpio_add(c, "/dev/console", S_IFCHR | 0600, 5, 1, NULL, 0);
    a = rv_guest_cpio_finish(c);
    g_assert_cmpuint(g_bytes_get_size(a) % 4, ==, 0);
    list = cpio_list(a, NULL);
    g_assert_cmpstr(list, ==, "bin\nbin/hello\nbin/sh\ndev\ndev/console\n");
    verbose = cpio_list(a, "-v");
    g_assert_nonnull(strstr(verbose, "bin/sh -> busybox"));
    g_assert_nonnull(strstr(verbose, "crw-------"));
    g_assert_nonnull(strstr(verbose, "5,"));
}

/* The real thing: a build from this machine's packages into a private
 * cache, then the same call finds it (same hash, nothing written). */
static void
test_build_and_cache(void)
{
    g_autofree char *cache = g_dir_make_tmp("rv-image-XXXXXX", NULL);
    RvGuestImageOptions opts = { .cache_dir = cache };
    g_autoptr(RvGuestImage) a = NULL, b = NULL;
    g_autoptr(GError) err = NULL;
    g_autoptr(RvRunner) runner = rv_runner_new(false);
    g_autofree char *listing = NULL;
    GStatBuf st1, st2;

    if (rv_guest_image_build(&opts, &a, &err) < 0) {
        if (g_error_matches(err, RV_ERROR, RV_ERROR_UNSUPPORTED)) {
            g_test_skip(err->message);
            return;
        }
        g_assert_no_error(err);
    }
    g_assert_false(a->cached);
    g_assert_cmpuint(strlen(a->hash), ==, 64);
    g_assert_true(g_str_has_prefix(a->dir, cache));
    g_assert_cmpint(g_stat(a->initrd, &st1), ==, 0);
    g_assert_cmpuint(a->initrd_bytes, ==, (guint64) st1.st_size);

    g_assert_cmpint(rv_guest_image_build(&opts, &b, &err), ==, 0);
    g_assert_true(b->cached);
    g_assert_cmpstr(a->hash, ==, b->hash);
    g_assert_cmpuint(a->n_files, ==, b->n_files);
    g_assert_cmpint(g_stat(b->initrd, &st2), ==, 0);
    g_assert_cmpint(st1.st_mtime, ==, st2.st_mtime);

    {
        const char *argv[] = { "sh", "-c", "gzip -dc \"$0\" | cpio -it --quiet", a->initrd, NULL };

        g_assert_cmpint(rv_runner_run_check(runner, argv, 60000, &listing, &err), ==, 0);
        g_assert_no_error(err);
    }
    for (const char * const *want = (const char * const[]) {
             "init\n", "bin/busybox\n", "usr/bin/cyclictest\n", "usr/bin/oslat\n",
             "usr/bin/hackbench\n", "usr/sbin/qemu-ga\n", "lib64/ld-linux-x86-64.so.2\n",
             "dev/console\n", "etc/rtvirt/modules\n", "/kernel/drivers/char/virtio_console.ko\n",
             "/kernel/drivers/virtio/virtio_pci.ko\n", NULL };
         *want; want++)
        if (!strstr(listing, *want))
            g_error("initramfs lacks '%s'", *want);
    {
        const char *rm[] = { "rm", "-rf", cache, NULL };

        g_assert_cmpint(rv_runner_run_check(runner, rm, 60000, NULL, &err), ==, 0);
    }
}

/* once_per_process: the second lookup with the same options returns the
 * first one's image without reading the inputs again (a tool changed in
 * between would give another hash to a fresh lookup, as the lookup without
 * the flag shows); other options are another key; an image whose
 * directory went away is looked up afresh. */
static void
test_once_per_process(void)
{
    g_autofree char *cache = g_dir_make_tmp("rv-image-XXXXXX", NULL);
    g_autofree char *tools = g_dir_make_tmp("rv-tools-XXXXXX", NULL);
    g_autofree char *real_tools = rv_guest_image_tools_dir();
    g_autofree char *pipe = g_build_filename(tools, "rtvirt-pipe", NULL);
    g_autofree char *src = g_build_filename(real_tools, "rtvirt-pipe", NULL);
    g_autofree char *data = NULL;
    gsize len = 0;
    RvGuestImageOptions once = { .cache_dir = cache, .tools_dir = tools, .once_per_process = true };
    RvGuestImageOptions fresh = { .cache_dir = cache, .tools_dir = tools };
    g_autoptr(RvGuestImage) a = NULL, b = NULL, c = NULL, d = NULL;
    g_autoptr(GError) err = NULL;
    FILE *f;

    if (!g_file_get_contents(src, &data, &len, NULL)) {
        g_test_skip("no rtvirt-pipe in the tools directory (build it first)");
        return;
    }
    g_assert_true(g_file_set_contents(pipe, data, (gssize) len, NULL));
    g_assert_cmpint(g_chmod(pipe, 0755), ==, 0);
    if (rv_guest_image_build(&once, &a, &err) < 0) {
        if (g_error_matches(err, RV_ERROR, RV_ERROR_UNSUPPORTED)) {
            g_test_skip(err->message);
            return;
        }
        g_assert_no_error(err);
    }
    g_assert_false(a->cached);

    /* the tool changes: a fresh lookup sees it, the once lookup does not */
    f = fopen(pipe, "ab");
    g_assert_nonnull(f);
    fputc(0, f);
    fclose(f);
    g_assert_cmpint(rv_guest_image_build(&once, &b, &err), ==, 0);
    g_assert_true(b->cached);
    g_assert_cmpstr(b->hash, ==, a->hash);
    g_assert_cmpstr(b->initrd, ==, a->initrd);
    g_assert_cmpuint(b->n_files, ==, a->n_files);
    g_assert_cmpint(rv_guest_image_build(&fresh, &c, &err), ==, 0);
    g_assert_cmpstr(c->hash, !=, a->hash);

    /* the remembered image's directory gone: looked up again (the changed
     * tool: the fresh lookup's image, already built) */
    rv_test_rm_rf(a->dir);
    g_assert_cmpint(rv_guest_image_build(&once, &d, &err), ==, 0);
    g_assert_cmpstr(d->hash, ==, c->hash);
    rv_test_rm_rf(cache);
    rv_test_rm_rf(tools);
}

/* --kernel VERSION that /boot lacks: bad input (exit 2) naming it and
 * listing what /boot has, before anything is read or built. */
static void
test_kernel_not_in_boot(void)
{
    g_autofree char *root = g_dir_make_tmp("rv-image-root-XXXXXX", NULL);
    g_autofree char *cache = g_dir_make_tmp("rv-image-XXXXXX", NULL);
    g_autofree char *want = NULL;
    RvGuestImageOptions opts = { .cache_dir = cache, .sysroot = root,
                                 .kernel_release = "9.9.9-bogus" };
    g_autoptr(RvGuestImage) img = NULL;
    g_autoptr(GError) err = NULL;

    rv_test_put(root, "boot/vmlinuz-6.1.0-57-amd64", "");
    rv_test_put(root, "boot/vmlinuz-6.1.0-9-amd64", "");
    rv_test_put(root, "boot/config-6.1.0-57-amd64", "");
    rv_test_put(root, "lib/modules/6.1.0-57-amd64/modules.dep", "");
    g_assert_cmpint(rv_guest_image_build(&opts, &img, &err), ==, -ENOENT);
    g_assert_error(err, RV_ERROR, RV_ERROR_INVALID);
    g_assert_cmpint(rv_error_exit_code(err), ==, 2);
    want = g_strdup_printf("invalid --kernel '9.9.9-bogus': no %s/boot/vmlinuz-9.9.9-bogus; "
                           "%s/boot has: 6.1.0-9-amd64, 6.1.0-57-amd64", root, root);
    g_assert_cmpstr(err->message, ==, want);
    g_assert_null(img);
    rv_test_rm_rf(root);
    rv_test_rm_rf(cache);
}

int
main(int argc, char **argv)
{
    g_test_init(&argc, &argv, NULL);
    g_test_add_func("/guest/image/elf/cyclictest", test_elf_cyclictest);
    g_test_add_func("/guest/image/elf/static-busybox", test_elf_static_busybox);
    g_test_add_func("/guest/image/elf/not-elf", test_elf_not_elf);
    g_test_add_func("/guest/image/modules/order", test_modules_order);
    g_test_add_func("/guest/image/modules/builtin-and-missing", test_modules_builtin_and_missing);
    g_test_add_func("/guest/image/cpio", test_cpio);
    g_test_add_func("/guest/image/build-and-cache", test_build_and_cache);
    g_test_add_func("/guest/image/once-per-process", test_once_per_process);
    g_test_add_func("/guest/image/kernel-not-in-boot", test_kernel_not_in_boot);
    return g_test_run();
}
