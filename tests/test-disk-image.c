/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * tests/test-disk-image.c: the disk-image cache (guest/disk-image.h):
 *  - the content hash: stable, blind to package order and duplicates,
 *    changed by every input (packages, kernel arguments, size, TPC-C
 *    settings, apt sources, a guest program's bytes, the format);
 *  - whole builds into a temporary cache with a stub mmdebstrap
 *    ($RTVIRT_MMDEBSTRAP: it writes a tiny tree) and the real mkfs.ext4 -d
 *    and qemu-img: the image read back with debugfs (fstab, the guest
 *    program, the agent's wants link), the cache hit, --force, a failed
 *    build leaving nothing behind, a killed builder's directory reaped,
 *    the overlay's backing file, the direct-boot command line.
 */
#include <errno.h>
#include <ftw.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include <glib/gstdio.h>
#include <json-glib/json-glib.h>

#include "guest/disk-image.h"
#include "guest/disk-image-priv.h"
#include "util/error.h"
#include "util/ini.h"
#include "util/runner.h"
#include "tests/testutil.h"

static RvGuestDiskBlob *
blob(const char *name, const char *text)
{
    RvGuestDiskBlob *b = g_new0(RvGuestDiskBlob, 1);

    b->name = g_strdup(name);
    b->data = g_bytes_new(text, strlen(text));
    return b;
}

typedef struct {
    RvGuestDiskInputs in;
    GPtrArray *sources, *tools;
} Inputs;

static void
inputs_init(Inputs *x, const char * const *packages)
{
    memset(x, 0, sizeof(*x));
    x->sources = g_ptr_array_new_with_free_func((GDestroyNotify) rv_guest_disk_blob_free);
    x->tools = g_ptr_array_new_with_free_func((GDestroyNotify) rv_guest_disk_blob_free);
    g_ptr_array_add(x->sources, blob("/etc/apt/sources.list.d/debian.sources",
                                     "Types: deb\nURIs: http://deb.debian.org/debian\n"));
    g_ptr_array_add(x->tools, blob("rtvirt-tpcc", "\177ELF driver"));
    x->in.suite = "bookworm";
    x->in.packages = packages;
    x->in.cmdline = "console=ttyS0 quiet";
    x->in.sources = x->sources;
    x->in.tools = x->tools;
}

static void
inputs_clear(Inputs *x)
{
    g_ptr_array_unref(x->sources);
    g_ptr_array_unref(x->tools);
}

static void
test_hash(void)
{
    static const char * const pk1[] = { "mariadb-server", "sysbench", NULL };
    static const char * const pk2[] = { "sysbench", "mariadb-server", "sysbench", "udev", NULL };
    static const char * const pk3[] = { "mariadb-server", NULL };
    Inputs a, b;
    g_autofree char *h1 = NULL, *h2 = NULL, *h = NULL;

    inputs_init(&a, pk1);
    inputs_init(&b, pk2);
    h1 = rv_guest_disk_image_hash(&a.in);
    g_assert_cmpuint(strlen(h1), ==, 64);
    h2 = rv_guest_disk_image_hash(&a.in);
    g_assert_cmpstr(h1, ==, h2);
    g_clear_pointer(&h2, g_free);
    /* order and duplicates do not matter; udev is a base package anyway */
    h2 = rv_guest_disk_image_hash(&b.in);
    g_assert_cmpstr(h1, ==, h2);

#define CHANGED(stmt, restore)                         \
    do {                                               \
        stmt;                                          \
        h = rv_guest_disk_image_hash(&a.in);           \
        g_assert_cmpstr(h, !=, h1);                    \
        g_clear_pointer(&h, g_free);                   \
        restore;                                       \
    } while (0)
    CHANGED(a.in.packages = pk3, a.in.packages = pk1);
    CHANGED(a.in.cmdline = "console=ttyS0", a.in.cmdline = "console=ttyS0 quiet");
    CHANGED(a.in.suite = "trixie", a.in.suite = "bookworm");
    CHANGED(a.in.size_bytes = 1, a.in.size_bytes = 0);
    CHANGED((a.in.tpcc_warehouses = 1, a.in.tpcc_scale = "small"), a.in.tpcc_warehouses = 0);
    CHANGED(a.in.base_image_id = "/srv/x.qcow2:1:2:3", a.in.base_image_id = NULL);
    CHANGED(g_ptr_array_add(a.tools, blob("rtvirt-pert", "x")),
            g_ptr_array_remove_index(a.tools, a.tools->len - 1));
    CHANGED(g_ptr_array_add(a.sources, blob("/etc/apt/sources.list", "deb x y")),
            g_ptr_array_remove_index(a.sources, a.sources->len - 1));
    /* one byte of a guest program */
    g_ptr_array_remove_index(a.tools, 0);
    g_ptr_array_add(a.tools, blob("rtvirt-tpcc", "\177ELF drivEr"));
    h = rv_guest_disk_image_hash(&a.in);
    g_assert_cmpstr(h, !=, h1);
    g_clear_pointer(&h, g_free);
    /* the scale counts only with a database */
    g_ptr_array_remove_index(a.tools, 0);
    g_ptr_array_add(a.tools, blob("rtvirt-tpcc", "\177ELF driver"));
    a.in.tpcc_scale = "standard";
    h = rv_guest_disk_image_hash(&a.in);
    g_assert_cmpstr(h, ==, h1);
#undef CHANGED
    inputs_clear(&a);
    inputs_clear(&b);
}

static void
test_package_set(void)
{
    static const char * const pk[] = { "zstd", "mariadb-server", "rt-tests", NULL };
    g_autoptr(GPtrArray) set = rv_guest_disk_package_set(pk);
    g_autofree char *joined = NULL;

    g_ptr_array_add(set, NULL);
    joined = g_strjoinv(" ", (char **) set->pdata);
    g_assert_cmpstr(joined, ==, "linux-image-amd64 mariadb-server qemu-guest-agent rt-tests "
                                "systemd-sysv udev zstd");
}

static void
test_fs_size(void)
{
    g_assert_cmpuint(rv_guest_disk_fs_size(0, 0), ==, 512ull << 20);
    g_assert_cmpuint(rv_guest_disk_fs_size(400ull << 20, 0), ==, (500ull + 512) << 20);
    /* rounded up to MiB */
    g_assert_cmpuint(rv_guest_disk_fs_size(1, 0), ==, (512ull + 1) << 20);
    g_assert_cmpuint(rv_guest_disk_fs_size(400ull << 20, 3ull << 30), ==, 3ull << 30);
}

/* ------------------------------------------------------ stub builds */

static const char stub_mmdebstrap[] =
    "#!/bin/sh\n"
    "# test stub: the tree mmdebstrap would leave, in miniature\n"
    "[ -n \"$STUB_FAIL\" ] && { echo 'E: stub: apt failed for a reason' >&2; exit 3; }\n"
    "for a; do case $a in */root) t=$a;; --include=*) inc=$a;; esac; done\n"
    "mkdir -p \"$t/boot\" \"$t/etc\" \"$t/lib/systemd/system\" \"$t/usr/bin\"\n"
    "echo kernel > \"$t/boot/vmlinuz-6.1.0-test\"\n"
    "echo initrd > \"$t/boot/initrd.img-6.1.0-test\"\n"
    "echo '[Unit]' > \"$t/lib/systemd/system/qemu-guest-agent.service\"\n"
    "echo \"$inc\" > \"$t/etc/included\"\n"
    "echo \"$@\" > \"$t/etc/args\"\n";

typedef struct {
    char *dir;        /* temporary root of the test */
    char *cache;
    char *sysroot;
    char *tool;
    RvGuestDiskTool tools[1];
    RvGuestDiskImageOptions opts;
} Fix;

static void
fix_init(Fix *f)
{
    g_autofree char *stub = NULL;

    memset(f, 0, sizeof(*f));
    f->dir = g_dir_make_tmp("rtvirt-disk-XXXXXX", NULL);
    g_assert_nonnull(f->dir);
    f->cache = g_build_filename(f->dir, "cache", NULL);
    f->sysroot = g_build_filename(f->dir, "sys", NULL);
    rv_test_put(f->sysroot, "etc/os-release", "NAME=\"Debian GNU/Linux\"\nVERSION_CODENAME=bookworm\n");
    rv_test_put(f->sysroot, "etc/apt/sources.list.d/debian.sources",
                "Types: deb\nURIs: http://deb.debian.org/debian\nSuites: bookworm\n");
    rv_test_put(f->sysroot, "etc/apt/sources.list.d/ignored.disabled", "deb http://x y z\n");
    rv_test_put(f->dir, "bin/mmdebstrap", stub_mmdebstrap);
    rv_test_put(f->dir, "bin/rtvirt-tool", "#!/bin/sh\necho guest tool\n");
    stub = g_build_filename(f->dir, "bin/mmdebstrap", NULL);
    g_assert_cmpint(chmod(stub, 0755), ==, 0);
    g_setenv("RTVIRT_MMDEBSTRAP", stub, TRUE);
    f->tool = g_build_filename(f->dir, "bin/rtvirt-tool", NULL);
    f->tools[0].name = "rtvirt-tool";
    f->tools[0].host_path = f->tool;
    f->opts.cache_dir = f->cache;
    f->opts.sysroot = f->sysroot;
    f->opts.tools = f->tools;
    f->opts.n_tools = 1;
}

static void
fix_clear(Fix *f)
{
    g_unsetenv("RTVIRT_MMDEBSTRAP");
    g_unsetenv("STUB_FAIL");
    rv_test_rm_rf(f->dir);
    g_free(f->dir);
    g_free(f->cache);
    g_free(f->sysroot);
    g_free(f->tool);
}

static RvGuestProfile *
profile(const char *image_keys)
{
    g_autofree char *text = g_strdup_printf("[cpu]\nvcpus = 1\nrt_vcpus = none\n[memory]\n"
                                            "size = 256M\n[kernel]\ncmdline = quiet\n"
                                            "[image]\ntype = disk\n%s", image_keys);
    g_autoptr(RvIni) ini = NULL;
    g_autoptr(GError) err = NULL;
    RvGuestProfile *p = NULL;

    g_assert_cmpint(rv_ini_load_data("disk.ini", text, &ini, &err), ==, 0);
    g_assert_cmpint(rv_guest_profile_from_ini(ini, &p, &err), ==, 0);
    g_assert_no_error(err);
    return p;
}

/* debugfs -R "cat PATH" on a raw copy of @qcow2 (the ext4 as built). */
static char *
image_cat(const char *dir, const char *qcow2, const char *path)
{
    g_autoptr(RvRunner) run = rv_runner_new(false);
    g_autoptr(GError) err = NULL;
    g_autofree char *raw = g_build_filename(dir, "check.raw", NULL);
    g_autofree char *cmd = g_strdup_printf("cat %s", path);
    const char *conv[] = { "qemu-img", "convert", "-O", "raw", qcow2, raw, NULL };
    const char *cat[] = { "debugfs", "-R", cmd, raw, NULL };
    char *out = NULL;

    g_assert_cmpint(rv_runner_run_check(run, conv, 60000, NULL, &err), ==, 0);
    g_assert_cmpint(rv_runner_run_check(run, cat, 60000, &out, &err), ==, 0);
    g_assert_no_error(err);
    (void) g_unlink(raw);
    return out;
}

static guint
count_entries(const char *dir, const char *prefix)
{
    g_autoptr(GDir) d = g_dir_open(dir, 0, NULL);
    const char *n;
    guint c = 0;

    while (d && (n = g_dir_read_name(d)))
        if (g_str_has_prefix(n, prefix))
            c++;
    return c;
}

static void
test_build_cache(void)
{
    g_autoptr(RvGuestProfile) p = profile("packages = sysbench\n");
    g_autoptr(RvGuestDiskImage) img = NULL, again = NULL, forced = NULL;
    g_autoptr(GError) err = NULL;
    g_autofree char *images = NULL, *fstab = NULL, *tool = NULL, *inc = NULL, *args = NULL;
    g_autofree char *kernel = NULL, *cl = NULL;
    Fix f;

    fix_init(&f);
    images = g_build_filename(f.cache, "disk-images", NULL);
    g_assert_cmpint(rv_guest_disk_image_build(p, &f.opts, &img, &err), ==, 0);
    g_assert_no_error(err);
    g_assert_false(img->cached);
    g_assert_cmpstr(img->method, ==, "mmdebstrap");
    g_assert_cmpstr(img->root, ==, "/dev/vda");
    g_assert_true(rv_guest_disk_image_complete(img));
    g_assert_true(g_str_has_prefix(img->dir, images));
    g_assert_cmpuint(img->disk_bytes, >, 0);
    kernel = rv_test_read_file(img->kernel);
    g_assert_cmpstr(kernel, ==, "kernel\n");
    /* nothing but the image: no temporary directory, no raw file */
    g_assert_cmpuint(count_entries(images, ".tmp-"), ==, 0);
    {
        g_autofree char *raw = g_build_filename(img->dir, "root.raw", NULL);
        g_autofree char *root = g_build_filename(img->dir, "root", NULL);

        g_assert_false(g_file_test(raw, G_FILE_TEST_EXISTS));
        g_assert_false(g_file_test(root, G_FILE_TEST_EXISTS));
    }

    /* what went into the ext4 file system */
    fstab = image_cat(f.dir, img->base, "/etc/fstab");
    g_assert_nonnull(strstr(fstab, "/dev/vda / ext4"));
    tool = image_cat(f.dir, img->base, "/usr/local/bin/rtvirt-tool");
    g_assert_cmpstr(tool, ==, "#!/bin/sh\necho guest tool\n");
    inc = image_cat(f.dir, img->base, "/etc/included");
    g_assert_cmpstr(inc, ==, "--include=linux-image-amd64,qemu-guest-agent,rt-tests,sysbench,"
                             "systemd-sysv,udev\n");
    args = image_cat(f.dir, img->base, "/etc/args");
    /* the host's release and its own source files, no mirror URL */
    g_assert_nonnull(strstr(args, " bookworm "));
    g_assert_true(g_str_has_suffix(g_strstrip(args), "etc/apt/sources.list.d/debian.sources"));
    g_assert_null(strstr(args, "ignored.disabled"));
    g_assert_null(strstr(args, "http"));

    cl = rv_guest_disk_image_cmdline(img, p);
    g_assert_cmpstr(cl, ==, "root=/dev/vda rw console=ttyS0 quiet");

    /* the second build is a cache hit: same image, nothing written */
    g_assert_cmpint(rv_guest_disk_image_build(p, &f.opts, &again, &err), ==, 0);
    g_assert_cmpstr(again->hash, ==, img->hash);
    g_assert_true(again->cached);
    g_assert_cmpstr(again->hash, ==, img->hash);
    g_assert_cmpuint(again->build_ms, ==, img->build_ms);
    g_assert_cmpuint(again->disk_bytes, ==, img->disk_bytes);

    /* --force rebuilds into the same place */
    f.opts.force = true;
    g_assert_cmpint(rv_guest_disk_image_build(p, &f.opts, &forced, &err), ==, 0);
    g_assert_false(forced->cached);
    g_assert_cmpstr(forced->dir, ==, img->dir);
    g_assert_true(rv_guest_disk_image_complete(forced));
    g_assert_cmpuint(count_entries(images, ""), ==, 1);
    fix_clear(&f);
}

static void
test_build_failure(void)
{
    g_autoptr(RvGuestProfile) p = profile("packages = sysbench\n");
    g_autoptr(RvGuestProfile) other = profile("packages = hpcc\n");
    g_autoptr(RvGuestDiskImage) img = NULL, ok = NULL;
    g_autoptr(GError) err = NULL;
    g_autofree char *images = NULL, *stale = NULL, *live = NULL, *pid = NULL;
    Fix f;

    fix_init(&f);
    images = g_build_filename(f.cache, "disk-images", NULL);
    /* a killed builder's directory (its pid is gone) and a live one */
    rv_test_put(images, ".tmp-killed/builder.pid", "2147483646\n");
    rv_test_put(images, ".tmp-killed/root/etc/x", "half a tree\n");
    pid = g_strdup_printf("%ld\n", (long) getpid());
    rv_test_put(images, ".tmp-live/builder.pid", pid);
    stale = g_build_filename(images, ".tmp-killed", NULL);
    live = g_build_filename(images, ".tmp-live", NULL);

    g_setenv("STUB_FAIL", "1", TRUE);
    g_assert_cmpint(rv_guest_disk_image_build(p, &f.opts, &img, &err), <, 0);
    g_assert_error(err, RV_ERROR, RV_ERROR_FAILED);
    g_assert_nonnull(strstr(err->message, "Building the root file system failed"));
    g_assert_nonnull(strstr(err->message, "E: stub: apt failed for a reason"));
    g_assert_null(img);
    g_clear_error(&err);
    /* nothing half-built: only the live builder's directory is left */
    g_assert_cmpuint(count_entries(images, ""), ==, 1);
    g_assert_false(g_file_test(stale, G_FILE_TEST_EXISTS));
    g_assert_true(g_file_test(live, G_FILE_TEST_IS_DIR));

    /* the next build of the same profile builds (nothing was cached) */
    g_unsetenv("STUB_FAIL");
    g_assert_cmpint(rv_guest_disk_image_build(p, &f.opts, &ok, &err), ==, 0);
    g_assert_false(ok->cached);
    g_clear_pointer(&ok, rv_guest_disk_image_free);
    /* a profile that builds another image; one that builds none is refused */
    g_assert_cmpint(rv_guest_disk_image_build(other, &f.opts, &ok, &err), ==, 0);
    g_assert_false(ok->cached);
    g_clear_pointer(&ok, rv_guest_disk_image_free);
    {
        g_autoptr(RvGuestProfile) emb = NULL;
        g_autoptr(RvIni) ini = NULL;

        g_assert_cmpint(rv_ini_load_data("e.ini", "[cpu]\nvcpus = 1\n[memory]\nsize = 64M\n",
                                         &ini, &err), ==, 0);
        g_assert_cmpint(rv_guest_profile_from_ini(ini, &emb, &err), ==, 0);
        g_assert_cmpint(rv_guest_disk_image_build(emb, &f.opts, &ok, &err), ==, -EINVAL);
        g_assert_error(err, RV_ERROR, RV_ERROR_INVALID);
        g_clear_error(&err);
    }
    fix_clear(&f);
}

static void
test_overlay(void)
{
    g_autoptr(RvGuestProfile) p = profile("");
    g_autoptr(RvGuestDiskImage) img = NULL;
    g_autoptr(GError) err = NULL;
    g_autoptr(RvRunner) run = rv_runner_new(false);
    g_autoptr(JsonParser) parser = json_parser_new();
    g_autofree char *ov = NULL, *out = NULL, *base_before = NULL, *base_after = NULL;
    JsonObject *o;
    Fix f;

    fix_init(&f);
    g_assert_cmpint(rv_guest_disk_image_build(p, &f.opts, &img, &err), ==, 0);
    ov = g_build_filename(f.dir, "guest.qcow2", NULL);
    base_before = rv_test_read_file(img->base);
    g_assert_cmpint(rv_guest_disk_image_overlay(img, ov, &err), ==, 0);
    g_assert_no_error(err);
    /* a guest's whole root file system: readable by no other user */
    {
        GStatBuf st;
        g_assert_cmpint(g_stat(img->base, &st), ==, 0);
        g_assert_cmpint(st.st_mode & 07, ==, 0);
        g_assert_cmpint(g_stat(ov, &st), ==, 0);
        g_assert_cmpint(st.st_mode & 07, ==, 0);
    }
    {
        const char *argv[] = { "qemu-img", "info", "--output=json", ov, NULL };

        g_assert_cmpint(rv_runner_run_check(run, argv, 60000, &out, &err), ==, 0);
    }
    g_assert_true(json_parser_load_from_data(parser, out, -1, NULL));
    o = json_node_get_object(json_parser_get_root(parser));
    g_assert_cmpstr(json_object_get_string_member(o, "format"), ==, "qcow2");
    g_assert_cmpstr(json_object_get_string_member(o, "backing-filename"), ==, img->base);
    g_assert_cmpstr(json_object_get_string_member(o, "backing-filename-format"), ==, "qcow2");
    /* an existing overlay is not overwritten silently */
    g_assert_cmpint(rv_guest_disk_image_overlay(img, ov, &err), <, 0);
    g_clear_error(&err);
    base_after = rv_test_read_file(img->base);
    g_assert_cmpstr(base_before, ==, base_after);

    /* a foreign manifest is no image */
    rv_test_put(img->dir, "manifest.json", "{\"format\": \"other\", \"root\": \"/dev/vda\"}");
    g_assert_cmpint(rv_guest_disk_manifest_read(img, &err), <, 0);
    g_assert_nonnull(strstr(err->message, "not a rtvirt-disk-"));
    fix_clear(&f);
}

/* Whether @name is on PATH. */
static gboolean
have_program(const char *name)
{
    g_autofree char *path = g_find_program_in_path(name);

    return path != NULL;
}

int
main(int argc, char **argv)
{
    g_test_init(&argc, &argv, NULL);
    g_test_add_func("/disk-image/hash", test_hash);
    g_test_add_func("/disk-image/package-set", test_package_set);
    g_test_add_func("/disk-image/fs-size", test_fs_size);
    if (have_program("mkfs.ext4") && have_program("qemu-img") && have_program("debugfs")) {
        g_test_add_func("/disk-image/build-cache", test_build_cache);
        g_test_add_func("/disk-image/build-failure", test_build_failure);
        g_test_add_func("/disk-image/overlay", test_overlay);
    }
    return g_test_run();
}
