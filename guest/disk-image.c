/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * guest/disk-image.c: disk guests built by rtvirt (see guest/disk-image.h).
 */
#include <errno.h>
#include <grp.h>
#include <fcntl.h>
#include <signal.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include <gio/gio.h>
#include <glib/gstdio.h>
#include <json-glib/json-glib.h>

#include "guest/disk-image.h"
#include "guest/disk-image-priv.h"
#include "guest/guestfs.h"
#include "guest/image.h"
#include "guest/image-priv.h"
#include "util/error.h"
#include "util/file.h"
#include "util/json.h"
#include "util/runner.h"

#define MANIFEST "manifest.json"
/* mmdebstrap downloads and installs: generous, a slow mirror is no error. */
#define MMDEBSTRAP_TIMEOUT_MS (3u * 3600u * 1000u)
#define STEP_TIMEOUT_MS (3600u * 1000u)

/* ------------------------------------------------------------- hashing */

void
rv_guest_disk_blob_free(RvGuestDiskBlob *blob)
{
    if (!blob)
        return;
    g_free(blob->name);
    if (blob->data)
        g_bytes_unref(blob->data);
    g_free(blob);
}

static void
hash_field(GChecksum *ck, const char *tag, const void *data, gsize len)
{
    guint64 n = len;

    g_checksum_update(ck, (const guchar *) tag, strlen(tag) + 1);
    g_checksum_update(ck, (const guchar *) &n, sizeof(n));
    if (len)
        g_checksum_update(ck, data, len);
}

static void
hash_str(GChecksum *ck, const char *tag, const char *s)
{
    hash_field(ck, tag, s ? s : "", s ? strlen(s) : 0);
}

static gint
str_cmp(gconstpointer a, gconstpointer b)
{
    return strcmp(*(const char * const *) a, *(const char * const *) b);
}

static void
hash_blobs(GChecksum *ck, const char *tag, const GPtrArray *blobs)
{
    for (guint i = 0; blobs && i < blobs->len; i++) {
        const RvGuestDiskBlob *b = blobs->pdata[i];
        gsize len = 0;
        const void *p = b->data ? g_bytes_get_data(b->data, &len) : NULL;

        hash_str(ck, tag, b->name);
        hash_field(ck, "bytes", p, len);
    }
}

GPtrArray *
rv_guest_disk_package_set(const char * const *packages)
{
    g_autoptr(GPtrArray) all = g_ptr_array_new_with_free_func(g_free);
    static const char * const base[] = { RV_GUEST_DISK_IMAGE_BASE_PACKAGES, NULL };

    for (guint i = 0; base[i]; i++)
        g_ptr_array_add(all, g_strdup(base[i]));
    for (guint i = 0; packages && packages[i]; i++)
        g_ptr_array_add(all, g_strdup(packages[i]));
    g_ptr_array_sort(all, str_cmp);
    for (guint i = 1; i < all->len;)
        if (strcmp(all->pdata[i - 1], all->pdata[i]) == 0)
            g_ptr_array_remove_index(all, i);
        else
            i++;
    return g_steal_pointer(&all);
}

char *
rv_guest_disk_image_hash(const RvGuestDiskInputs *in)
{
    g_autoptr(GChecksum) ck = g_checksum_new(G_CHECKSUM_SHA256);
    g_autoptr(GPtrArray) pk = rv_guest_disk_package_set(in->packages);
    char num[64];

    hash_str(ck, "format", RV_GUEST_DISK_IMAGE_FORMAT);
    hash_str(ck, "suite", in->suite);
    for (guint i = 0; i < pk->len; i++)
        hash_str(ck, "package", pk->pdata[i]);
    hash_str(ck, "cmdline", in->cmdline);
    g_snprintf(num, sizeof(num), "%" G_GUINT64_FORMAT, in->size_bytes);
    hash_str(ck, "size", num);
    g_snprintf(num, sizeof(num), "%u", in->tpcc_warehouses);
    hash_str(ck, "tpcc_warehouses", num);
    hash_str(ck, "tpcc_scale", in->tpcc_warehouses ? in->tpcc_scale : NULL);
    hash_blobs(ck, "source", in->sources);
    hash_blobs(ck, "tool", in->tools);
    hash_str(ck, "base_image", in->base_image_id);
    return g_strdup(g_checksum_get_string(ck));
}

/* ---------------------------------------------------------- host facts */

static char *
host_suite(const char *sysroot, GError **error)
{
    g_autofree char *path = g_build_filename(sysroot, "etc/os-release", NULL);
    g_autofree char *text = NULL;
    g_auto(GStrv) lines = NULL;

    if (rv_file_read(path, 1u << 16, &text, error) < 0)
        return NULL;
    lines = g_strsplit(text, "\n", -1);
    for (guint i = 0; lines[i]; i++) {
        if (g_str_has_prefix(lines[i], "VERSION_CODENAME=")) {
            g_autofree char *v = g_strdup(lines[i] + 17);

            g_strstrip(v);
            if (*v == '"' || *v == '\'') {
                memmove(v, v + 1, strlen(v));
                if (*v)
                    v[strlen(v) - 1] = '\0';
            }
            if (*v && strspn(v, "abcdefghijklmnopqrstuvwxyz0123456789-") == strlen(v))
                return g_steal_pointer(&v);
        }
    }
    rv_error_set(error, RV_ERROR_UNSUPPORTED, ENOENT,
                 "%s names no VERSION_CODENAME: mmdebstrap needs the release to install", path);
    return NULL;
}

static int
add_blob(GPtrArray *blobs, const char *name, const char *path, GError **error)
{
    g_autoptr(GError) local = NULL;
    RvGuestDiskBlob *b;
    char *data = NULL;
    gsize len = 0;

    if (!g_file_get_contents(path, &data, &len, &local))
        return rv_error_set(error, RV_ERROR_FAILED, EIO, "Failed to read '%s': %s", path,
                            local->message);
    b = g_new0(RvGuestDiskBlob, 1);
    b->name = g_strdup(name);
    b->data = g_bytes_new_take(data, len);
    g_ptr_array_add(blobs, b);
    return 0;
}

/* The host's apt source files, sorted: sources.list, then sources.list.d/
 * *.list and *.sources (sources.list(5)); other names are ignored as apt does. */
static int
host_sources(const char *sysroot, GPtrArray *blobs, GPtrArray *paths, GError **error)
{
    g_autofree char *list = g_build_filename(sysroot, "etc/apt/sources.list", NULL);
    g_autofree char *dpath = g_build_filename(sysroot, "etc/apt/sources.list.d", NULL);
    g_autoptr(GPtrArray) names = g_ptr_array_new_with_free_func(g_free);
    g_autoptr(GDir) d = g_dir_open(dpath, 0, NULL);
    GStatBuf st;
    const char *n;
    int r;

    if (g_stat(list, &st) == 0 && S_ISREG(st.st_mode) && st.st_size > 0) {
        if ((r = add_blob(blobs, list, list, error)) < 0)
            return r;
        g_ptr_array_add(paths, g_strdup(list));
    }
    while (d && (n = g_dir_read_name(d)))
        if (g_str_has_suffix(n, ".list") || g_str_has_suffix(n, ".sources"))
            g_ptr_array_add(names, g_build_filename(dpath, n, NULL));
    g_ptr_array_sort(names, str_cmp);
    for (guint i = 0; i < names->len; i++) {
        if ((r = add_blob(blobs, names->pdata[i], names->pdata[i], error)) < 0)
            return r;
        g_ptr_array_add(paths, g_strdup(names->pdata[i]));
    }
    if (!paths->len)
        return rv_error_set(error, RV_ERROR_UNSUPPORTED, ENOENT,
                            "The host has no apt sources (%s, %s/*.list, *.sources): "
                            "mmdebstrap installs from them", list, dpath);
    return 0;
}

/* ---------------------------------------------------------- the cache */

void
rv_guest_disk_image_free(RvGuestDiskImage *image)
{
    if (!image)
        return;
    g_free(image->hash);
    g_free(image->dir);
    g_free(image->base);
    g_free(image->kernel);
    g_free(image->initrd);
    g_free(image->root);
    g_free(image->method);
    g_free(image);
}

static RvGuestDiskImage *
image_at(const char *images, const char *hash)
{
    RvGuestDiskImage *img = g_new0(RvGuestDiskImage, 1);

    img->hash = g_strdup(hash);
    img->dir = g_build_filename(images, hash, NULL);
    img->base = g_build_filename(img->dir, "base.qcow2", NULL);
    img->kernel = g_build_filename(img->dir, "vmlinuz", NULL);
    img->initrd = g_build_filename(img->dir, "initrd.img", NULL);
    return img;
}

int
rv_guest_disk_manifest_read(RvGuestDiskImage *img, GError **error)
{
    g_autofree char *path = g_build_filename(img->dir, MANIFEST, NULL);
    g_autoptr(JsonParser) parser = json_parser_new();
    g_autofree char *text = NULL;
    const RvJsonAt at = { path, NULL };
    g_autofree char *root = NULL, *method = NULL, *format = NULL;
    gint64 ms = 0, bytes = 0;
    JsonNode *node = NULL;
    JsonObject *o;
    gssize n;
    int r;

    /* the cache may be shared: read as untrusted */
    n = rv_file_read(path, 1u << 20, &text, error);
    if (n < 0)
        return (int) n;
    r = rv_json_parse_untrusted(parser, path, text, (gsize) n, RV_JSON_MAX_DEPTH, &node, error);
    if (r < 0)
        return r;
    if (!node || !JSON_NODE_HOLDS_OBJECT(node))
        return rv_error_set(error, RV_ERROR_FAILED, EINVAL, "'%s' is not a JSON object", path);
    o = json_node_get_object(node);
    format = g_strdup(json_object_get_string_member_with_default(o, "format", ""));
    root = g_strdup(json_object_get_string_member_with_default(o, "root", ""));
    method = g_strdup(json_object_get_string_member_with_default(o, "method", ""));
    if (strcmp(format, RV_GUEST_DISK_IMAGE_FORMAT) != 0 || !*root || strchr(root, ' '))
        return rv_error_set(error, RV_ERROR_FAILED, EINVAL,
                            "'%s': not a %s manifest with a root device", path,
                            RV_GUEST_DISK_IMAGE_FORMAT);
    if ((r = rv_json_get_int_opt(o, &at, "build_ms", 0, G_MAXINT64, &ms, error)) < 0 ||
        (r = rv_json_get_int_opt(o, &at, "disk_bytes", 0, G_MAXINT64, &bytes, error)) < 0)
        return r;
    g_free(img->root);
    img->root = g_steal_pointer(&root);
    g_free(img->method);
    img->method = g_steal_pointer(&method);
    img->build_ms = (guint64) ms;
    img->disk_bytes = (guint64) bytes;
    return 0;
}

int
rv_guest_disk_image_protect(const char *path)
{
    struct group *gr = getgrnam(RV_GUEST_DISK_IMAGE_GROUP);
    int r = 0;

    /* the group first: a moment of 0644 never happens, only of 0600 */
    if (chmod(path, 0600) < 0)
        return -errno;
    if (gr && geteuid() == 0 && chown(path, (uid_t) -1, gr->gr_gid) < 0)
        r = -errno;
    if (gr && r == 0 && chmod(path, 0640) < 0)
        r = -errno;
    return r;
}

bool
rv_guest_disk_image_complete(const RvGuestDiskImage *img)
{
    g_autofree char *m = g_build_filename(img->dir, MANIFEST, NULL);

    return g_file_test(m, G_FILE_TEST_IS_REGULAR) &&
           g_file_test(img->base, G_FILE_TEST_IS_REGULAR) &&
           g_file_test(img->kernel, G_FILE_TEST_IS_REGULAR) &&
           g_file_test(img->initrd, G_FILE_TEST_IS_REGULAR);
}

static int
write_manifest(const RvGuestDiskImage *img, const char *dir, const GPtrArray *packages,
               GError **error)
{
    g_autoptr(JsonBuilder) jb = json_builder_new();
    g_autoptr(JsonGenerator) gen = json_generator_new();
    g_autoptr(JsonNode) root = NULL;
    g_autoptr(GError) local = NULL;
    g_autofree char *path = g_build_filename(dir, MANIFEST, NULL);
    g_autofree char *json = NULL;

    json_builder_begin_object(jb);
    json_builder_set_member_name(jb, "format");
    json_builder_add_string_value(jb, RV_GUEST_DISK_IMAGE_FORMAT);
    json_builder_set_member_name(jb, "hash");
    json_builder_add_string_value(jb, img->hash);
    json_builder_set_member_name(jb, "method");
    json_builder_add_string_value(jb, img->method);
    json_builder_set_member_name(jb, "root");
    json_builder_add_string_value(jb, img->root);
    json_builder_set_member_name(jb, "build_ms");
    json_builder_add_int_value(jb, (gint64) img->build_ms);
    json_builder_set_member_name(jb, "disk_bytes");
    json_builder_add_int_value(jb, (gint64) img->disk_bytes);
    json_builder_set_member_name(jb, "packages");
    json_builder_begin_array(jb);
    for (guint i = 0; packages && i < packages->len; i++)
        json_builder_add_string_value(jb, packages->pdata[i]);
    json_builder_end_array(jb);
    json_builder_end_object(jb);
    root = json_builder_get_root(jb);
    json_generator_set_root(gen, root);
    json_generator_set_pretty(gen, TRUE);
    json = json_generator_to_data(gen, NULL);
    if (!g_file_set_contents(path, json, -1, &local))
        return rv_error_set(error, RV_ERROR_FAILED, EIO, "Failed to write '%s': %s", path,
                            local->message);
    (void) chmod(path, 0644);
    return 0;
}

/* rm -rf without crossing into a mount a killed mmdebstrap left behind. */
static void
remove_tree(const char *dir)
{
    g_autoptr(RvRunner) run = rv_runner_new(false);
    g_auto(RvRunResult) res = { 0 };
    const char *argv[] = { "rm", "-rf", "--one-file-system", "--", dir, NULL };

    /* best effort: what is left is reaped by the next build */
    if (rv_runner_run(run, argv, NULL, STEP_TIMEOUT_MS, 4096, &res, NULL) < 0)
        return;
}

void
rv_guest_disk_reap_stale(const char *images)
{
    g_autoptr(GDir) d = g_dir_open(images, 0, NULL);
    const char *n;

    while (d && (n = g_dir_read_name(d))) {
        g_autofree char *dir = NULL, *pidf = NULL, *text = NULL;
        long pid;

        if (!g_str_has_prefix(n, ".tmp-"))
            continue;
        dir = g_build_filename(images, n, NULL);
        pidf = g_build_filename(dir, "builder.pid", NULL);
        if (!g_file_get_contents(pidf, &text, NULL, NULL))
            continue;   /* being set up right now, or not ours */
        pid = strtol(text, NULL, 10);
        if (pid <= 0 || (kill((pid_t) pid, 0) < 0 && errno == ESRCH))
            remove_tree(dir);
    }
}

/* ------------------------------------------------------------ one step */

static int
run_step(const char * const *argv, guint timeout_ms, const char *what, char **ret_out,
         GError **error)
{
    g_autoptr(RvRunner) run = rv_runner_new(false);
    g_auto(RvRunResult) res = { 0 };
    g_autofree char *cmd = rv_runner_argv_to_string(argv);
    int r;

    r = rv_runner_run(run, argv, NULL, timeout_ms, 1u << 20, &res, error);
    if (r < 0)
        return r;
    if (res.exit_status != 0) {
        g_autofree char *tail = NULL;
        const char *e = res.err && *res.err ? res.err : (res.out ? res.out : "");
        gsize len = strlen(e);

        /* the last lines say what failed (apt, dpkg, mke2fs) */
        tail = g_strstrip(g_strdup(len > 1500 ? e + len - 1500 : e));
        return rv_error_set(error, RV_ERROR_FAILED, EIO, "%s failed: '%s' exited with status %d: %s",
                            what, cmd, res.exit_status, tail);
    }
    if (ret_out)
        *ret_out = g_strdup(res.out ? res.out : "");
    return 0;
}

static int
need_program(const char *prog, const char *package, char **ret_path, GError **error)
{
    g_autofree char *p = g_find_program_in_path(prog);

    if (!p)
        return rv_error_set(error, RV_ERROR_UNSUPPORTED, ENOENT,
                            "'%s' not found: building disk images needs it (install the Debian "
                            "package %s)", prog, package);
    if (ret_path)
        *ret_path = g_steal_pointer(&p);
    return 0;
}

static int
write_text(const char *path, const char *text, guint mode, GError **error)
{
    g_autoptr(GError) local = NULL;
    g_autofree char *dir = g_path_get_dirname(path);

    if (g_mkdir_with_parents(dir, 0755) < 0)
        return rv_error_set(error, RV_ERROR_FAILED, errno, "Failed to create '%s': %s", dir,
                            g_strerror(errno));
    if (!g_file_set_contents(path, text, -1, &local))
        return rv_error_set(error, RV_ERROR_FAILED, EIO, "Failed to write '%s': %s", path,
                            local->message);
    if (chmod(path, mode) < 0)
        return rv_error_set(error, RV_ERROR_FAILED, errno, "Failed to chmod '%s': %s", path,
                            g_strerror(errno));
    return 0;
}

static int
copy_into(const char *from, const char *to, guint mode, GError **error)
{
    g_autoptr(GFile) src = g_file_new_for_path(from);
    g_autoptr(GFile) dst = g_file_new_for_path(to);
    g_autoptr(GError) local = NULL;
    g_autofree char *dir = g_path_get_dirname(to);

    (void) g_mkdir_with_parents(dir, 0755);
    if (!g_file_copy(src, dst, G_FILE_COPY_OVERWRITE, NULL, NULL, NULL, &local))
        return rv_error_set(error, RV_ERROR_FAILED, EIO, "Failed to copy '%s' to '%s': %s",
                            from, to, local->message);
    if (chmod(to, mode) < 0)
        return rv_error_set(error, RV_ERROR_FAILED, errno, "Failed to chmod '%s': %s", to,
                            g_strerror(errno));
    return 0;
}

/* ----------------------------------------------------------- the build */

typedef struct {
    const RvGuestProfile *profile;
    const RvGuestDiskImageOptions *opts;
    const char *sysroot;
    char *suite;
    GPtrArray *source_paths;   /* char* */
    GPtrArray *packages;       /* char*: the full sorted set */
    char *tmp;                 /* CACHE/disk-images/.tmp-XXXXXX */
    char *tree;                /* TMP/root */
    char **hash_packages;      /* profile + option packages (container only) */
} Build;

static void
build_clear(Build *b)
{
    g_free(b->suite);
    if (b->source_paths)
        g_ptr_array_unref(b->source_paths);
    if (b->packages)
        g_ptr_array_unref(b->packages);
    g_free(b->tmp);
    g_free(b->tree);
    g_free(b->hash_packages);
}

static const char * const unused_modules[] = {
    "--dpkgopt=path-exclude=/lib/modules/*/kernel/drivers/gpu/*",
    "--dpkgopt=path-exclude=/lib/modules/*/kernel/drivers/media/*",
    "--dpkgopt=path-exclude=/lib/modules/*/kernel/drivers/net/wireless/*",
    "--dpkgopt=path-exclude=/lib/modules/*/kernel/drivers/infiniband/*",
    "--dpkgopt=path-exclude=/lib/modules/*/kernel/drivers/staging/*",
    "--dpkgopt=path-exclude=/lib/modules/*/kernel/drivers/bluetooth/*",
    "--dpkgopt=path-exclude=/lib/modules/*/kernel/sound/*",
    "--dpkgopt=path-exclude=/lib/modules/*/kernel/net/wireless/*",
    "--dpkgopt=path-exclude=/lib/modules/*/kernel/net/mac80211/*",
};

/* Step 1: mmdebstrap into TMP/root.  The setup hook puts the initramfs
 * configuration in place before linux-image-amd64 runs update-initramfs. */
static int
step_mmdebstrap(Build *b, GError **error)
{
    g_autofree char *hookdir = g_build_filename(b->tmp, "hook", NULL);
    g_autofree char *conf = g_build_filename(hookdir, "etc/initramfs-tools/conf.d/rtvirt.conf", NULL);
    g_autofree char *mods = g_build_filename(hookdir, "etc/initramfs-tools/modules", NULL);
    g_autofree char *include = NULL, *hook = NULL, *prog = NULL;
    g_autoptr(GPtrArray) argv = g_ptr_array_new();
    const char *env = g_getenv("RTVIRT_MMDEBSTRAP");
    int r;

    if (env && *env)
        prog = g_strdup(env);
    else if ((r = need_program("mmdebstrap", "mmdebstrap", &prog, error)) < 0)
        return r;
    if ((r = write_text(conf, "# rtvirt: only what a virtio guest needs to mount its root\n"
                        "MODULES=list\nCOMPRESS=gzip\n", 0644, error)) < 0 ||
        (r = write_text(mods, "virtio_pci\nvirtio_blk\next4\n", 0644, error)) < 0)
        return r;
    g_ptr_array_add(b->packages, NULL);
    {
        g_autofree char *names = g_strjoinv(",", (char **) b->packages->pdata);

        g_ptr_array_remove_index(b->packages, b->packages->len - 1);
        include = g_strdup_printf("--include=%s", names);
    }
    hook = g_strdup_printf("--setup-hook=sync-in %s /", hookdir);

    g_ptr_array_add(argv, prog);
    g_ptr_array_add(argv, "--mode=root");
    g_ptr_array_add(argv, "--variant=essential");
    g_ptr_array_add(argv, include);
    g_ptr_array_add(argv, hook);
    g_ptr_array_add(argv, "--dpkgopt=path-exclude=/usr/share/doc/*");
    g_ptr_array_add(argv, "--dpkgopt=path-exclude=/usr/share/man/*");
    g_ptr_array_add(argv, "--dpkgopt=path-exclude=/usr/share/locale/*");
    /* hardware a virtio guest never has: a third of the module tree */
    for (guint i = 0; i < G_N_ELEMENTS(unused_modules); i++)
        g_ptr_array_add(argv, (gpointer) unused_modules[i]);
    g_ptr_array_add(argv, b->suite);
    g_ptr_array_add(argv, b->tree);
    for (guint i = 0; i < b->source_paths->len; i++)
        g_ptr_array_add(argv, b->source_paths->pdata[i]);
    g_ptr_array_add(argv, NULL);
    return run_step((const char * const *) argv->pdata, MMDEBSTRAP_TIMEOUT_MS,
                    "Building the root file system", NULL, error);
}

/* Step 2: what rtvirt adds to the tree: fstab, hostname, the guest
 * programs, the kernel arguments for the record; the agent checked. */
static int
step_customise(Build *b, GError **error)
{
    g_autofree char *fstab = g_build_filename(b->tree, "etc/fstab", NULL);
    g_autofree char *host = g_build_filename(b->tree, "etc/hostname", NULL);
    g_autofree char *cmdl = g_build_filename(b->tree, "etc/rtvirt/cmdline", NULL);
    g_autofree char *unit = g_build_filename(b->tree, "lib/systemd/system/qemu-guest-agent.service",
                                             NULL);
    g_autofree char *wants = g_build_filename(b->tree, "etc/systemd/system/multi-user.target.wants",
                                              NULL);
    g_autofree char *link = g_build_filename(wants, "qemu-guest-agent.service", NULL);
    g_autofree char *cl = rv_guest_profile_kernel_cmdline(b->profile);
    g_autofree char *cl_nl = g_strdup_printf("%s\n", cl);
    int r;

    if ((r = write_text(fstab, "# rtvirt disk guest\n/dev/vda / ext4 rw,noatime,errors=remount-ro 0 1\n",
                        0644, error)) < 0 ||
        (r = write_text(host, "rtvirt-guest\n", 0644, error)) < 0 ||
        (r = write_text(cmdl, cl_nl, 0644, error)) < 0)
        return r;
    for (guint i = 0; i < b->opts->n_tools; i++) {
        g_autofree char *to = g_build_filename(b->tree, "usr/local/bin", b->opts->tools[i].name, NULL);

        if ((r = copy_into(b->opts->tools[i].host_path, to, 0755, error)) < 0)
            return r;
    }
    if (!g_file_test(unit, G_FILE_TEST_EXISTS))
        return rv_error_set(error, RV_ERROR_FAILED, ENOENT,
                            "The built tree has no %s: qemu-guest-agent was not installed", unit);
    /* udev starts the agent when its port appears (60-qemu-guest-agent.rules);
     * the wants link also starts it when the port was there before udev. */
    (void) g_mkdir_with_parents(wants, 0755);
    (void) g_unlink(link);
    if (symlink("/lib/systemd/system/qemu-guest-agent.service", link) < 0)
        return rv_error_set(error, RV_ERROR_FAILED, errno, "Failed to create '%s': %s", link,
                            g_strerror(errno));
    return 0;
}

/* Newest TREE/boot/PREFIX-VERSION (strverscmp). */
static char *
newest_boot_file(const char *tree, const char *prefix)
{
    g_autofree char *boot = g_build_filename(tree, "boot", NULL);
    g_autoptr(GDir) d = g_dir_open(boot, 0, NULL);
    g_autofree char *best = NULL;
    gsize pl = strlen(prefix);
    const char *n;

    while (d && (n = g_dir_read_name(d)))
        if (strncmp(n, prefix, pl) == 0 && n[pl] && (!best || strverscmp(n, best) > 0)) {
            g_free(best);
            best = g_strdup(n);
        }
    return best ? g_build_filename(boot, best, NULL) : NULL;
}

/* Step 4: the tree's kernel and initramfs beside the image. */
static int
step_kernel(Build *b, GError **error)
{
    g_autofree char *k = newest_boot_file(b->tree, "vmlinuz-");
    g_autofree char *i = newest_boot_file(b->tree, "initrd.img-");
    g_autofree char *kd = g_build_filename(b->tmp, "vmlinuz", NULL);
    g_autofree char *id = g_build_filename(b->tmp, "initrd.img", NULL);
    int r;

    if (!k || !i)
        return rv_error_set(error, RV_ERROR_FAILED, ENOENT,
                            "The built tree has no %s/boot/%s: linux-image-amd64 did not install",
                            b->tree, k ? "initrd.img-*" : "vmlinuz-*");
    if ((r = copy_into(k, kd, 0644, error)) < 0)
        return r;
    return copy_into(i, id, 0644, error);
}

/* Bytes under @dir, not following links, this file system only. */
static guint64
tree_bytes(const char *dir)
{
    g_autofree char *out = NULL;
    const char *argv[] = { "du", "-sx", "--block-size=1", "--", dir, NULL };

    if (run_step(argv, STEP_TIMEOUT_MS, "Sizing the tree", &out, NULL) < 0)
        return 0;
    return g_ascii_strtoull(out, NULL, 10);
}

guint64
rv_guest_disk_fs_size(guint64 tree, guint64 wanted)
{
    guint64 size;

    if (wanted)
        return wanted;
    /* ext4 metadata and room to write (a database's logs, the journal) */
    size = tree + tree / 4 + (512ull << 20);
    return (size + (1ull << 20) - 1) & ~((1ull << 20) - 1);
}

/* Step 5: ext4 from the tree (no loop mount), then qcow2. */
static int
step_filesystem(Build *b, GError **error)
{
    g_autofree char *raw = g_build_filename(b->tmp, "root.raw", NULL);
    g_autofree char *qcow = g_build_filename(b->tmp, "base.qcow2", NULL);
    g_autofree char *size = NULL;
    guint64 bytes = rv_guest_disk_fs_size(tree_bytes(b->tree), b->profile->image_size_bytes);
    int fd, r;

    if ((r = need_program("mkfs.ext4", "e2fsprogs", NULL, error)) < 0 ||
        (r = need_program("qemu-img", "qemu-utils", NULL, error)) < 0)
        return r;
    fd = g_open(raw, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0644);
    if (fd < 0 || ftruncate(fd, (off_t) bytes) < 0) {
        int e = errno;

        if (fd >= 0)
            close(fd);
        return rv_error_set(error, RV_ERROR_FAILED, e, "Failed to create '%s': %s", raw,
                            g_strerror(e));
    }
    close(fd);
    size = g_strdup_printf("%" G_GUINT64_FORMAT "k", bytes >> 10);
    {
        const char *mkfs[] = { "mkfs.ext4", "-q", "-F", "-L", "rtvirt-root", "-E",
                               "root_owner=0:0", "-d", b->tree, raw, size, NULL };
        const char *conv[] = { "qemu-img", "convert", "-f", "raw", "-O", "qcow2", raw, qcow, NULL };

        if ((r = run_step(mkfs, STEP_TIMEOUT_MS, "Writing the ext4 file system", NULL, error)) < 0 ||
            (r = run_step(conv, STEP_TIMEOUT_MS, "Converting to qcow2", NULL, error)) < 0)
            return r;
    }
    (void) g_unlink(raw);
    (void) rv_guest_disk_image_protect(qcow);
    return 0;
}

/* The Debian packages that hold the shared libraries of the guest
 * programs on this host (ELF DT_NEEDED, `dpkg-query -S`), added to @out
 * (strings owned by @keep).  Scripts and unknown libraries add nothing:
 * apt resolves the rest from those packages' own dependencies. */
static void
tool_packages(const RvGuestDiskImageOptions *o, GPtrArray *out)
{
    static const char * const libdirs[] = { "/lib/x86_64-linux-gnu", "/usr/lib/x86_64-linux-gnu",
                                            "/lib64", "/usr/lib64", "/lib", "/usr/lib" };
    static GPtrArray *keep;

    if (!keep)
        keep = g_ptr_array_new_with_free_func(g_free);
    for (guint i = 0; i < o->n_tools; i++) {
        g_autofree char *data = NULL;
        g_autoptr(GPtrArray) needed = NULL;
        gsize len = 0;

        if (!g_file_get_contents(o->tools[i].host_path, &data, &len, NULL) ||
            rv_guest_elf_deps((const guint8 *) data, len, o->tools[i].host_path, NULL, &needed,
                              NULL) < 0)
            continue;
        for (guint j = 0; j < needed->len; j++) {
            for (guint d = 0; d < G_N_ELEMENTS(libdirs); d++) {
                g_autofree char *lib = g_build_filename(libdirs[d], needed->pdata[j], NULL);
                g_autofree char *res = NULL;
                const char *argv[] = { "dpkg-query", "-S", lib, NULL };
                char *colon;

                if (!g_file_test(lib, G_FILE_TEST_EXISTS) ||
                    run_step(argv, 60000, "dpkg-query", &res, NULL) < 0)
                    continue;
                colon = strchr(res, ':');
                if (!colon)
                    continue;
                *colon = '\0';
                g_strstrip(res);
                if (res[0] && !strchr(res, ' ') && !strchr(res, ',')) {
                    g_ptr_array_add(out, res);
                    g_ptr_array_add(keep, g_steal_pointer(&res));
                }
                break;
            }
        }
    }
}

/* Fills @in (and @b's sources and packages) from the profile and the host. */
static int
collect_inputs(Build *b, RvGuestDiskInputs *in, GPtrArray *sources, GPtrArray *tools,
               char **ret_base_id, GError **error)
{
    const RvGuestProfile *p = b->profile;
    int r;

    {
        g_autoptr(GPtrArray) all = g_ptr_array_new();

        for (char **q = p->image_packages; *q; q++)
            g_ptr_array_add(all, *q);
        for (guint i = 0; b->opts->packages && b->opts->packages[i]; i++)
            g_ptr_array_add(all, (char *) b->opts->packages[i]);
        g_ptr_array_add(all, NULL);
        b->hash_packages = (char **) g_ptr_array_free(g_steal_pointer(&all), FALSE);
        in->packages = (const char * const *) b->hash_packages;
    }
    in->cmdline = p->cmdline;
    in->size_bytes = p->image_size_bytes;
    in->tpcc_warehouses = p->tpcc_warehouses;
    in->tpcc_scale = p->tpcc_scale;
    in->sources = sources;
    in->tools = tools;
    for (guint i = 0; i < b->opts->n_tools; i++)
        if ((r = add_blob(tools, b->opts->tools[i].name, b->opts->tools[i].host_path, error)) < 0)
            return r;
    if (p->base_image) {
        GStatBuf st;

        if (g_stat(p->base_image, &st) < 0 || !S_ISREG(st.st_mode))
            return rv_error_set(error, RV_ERROR_INVALID, errno ? errno : EINVAL,
                                "%s: invalid base_image '%s': %s", p->path, p->base_image,
                                errno ? g_strerror(errno) : "not a regular file");
        /* a multi-GB image is not read for its hash: its identity on disk */
        *ret_base_id = g_strdup_printf("%s:%lld:%lld:%llu", p->base_image,
                                       (long long) st.st_size, (long long) st.st_mtime,
                                       (unsigned long long) st.st_ino);
        in->base_image_id = *ret_base_id;
        in->suite = "";
        return 0;
    }
    b->suite = host_suite(b->sysroot, error);
    if (!b->suite)
        return -ENOENT;
    in->suite = b->suite;
    b->source_paths = g_ptr_array_new_with_free_func(g_free);
    r = host_sources(b->sysroot, sources, b->source_paths, error);
    if (r < 0)
        return r;
    {
        /* the TPC-C image needs the server; tpcc_warehouses is in the hash */
        g_autoptr(GPtrArray) with = g_ptr_array_new();

        for (char **q = p->image_packages; *q; q++)
            g_ptr_array_add(with, *q);
        for (guint i = 0; b->opts->packages && b->opts->packages[i]; i++)
            g_ptr_array_add(with, (char *) b->opts->packages[i]);
        if (p->tpcc_warehouses)
            g_ptr_array_add(with, (char *) "mariadb-server");
        g_ptr_array_add(with, NULL);
        b->packages = rv_guest_disk_package_set((const char * const *) with->pdata);
    }
    return 0;
}

/* The mmdebstrap path, steps 1-5, in b->tmp. */
static int
build_mmdebstrap(Build *b, RvGuestDiskImage *img, GError **error)
{
    int r;

    if (geteuid() != 0 && !g_getenv("RTVIRT_MMDEBSTRAP"))
        return rv_error_set(error, RV_ERROR_UNSUPPORTED, EPERM,
                            "Building a disk image needs root: mmdebstrap's root mode, and "
                            "mkfs.ext4 -d keeps the tree's owners");
    b->tree = g_build_filename(b->tmp, "root", NULL);
    {
        /* the tools' library packages: dpkg-query is slow, only when building
         * (the tools' bytes are in the hash already) */
        g_autoptr(GPtrArray) with = g_ptr_array_new();

        for (guint i = 0; i < b->packages->len; i++)
            g_ptr_array_add(with, b->packages->pdata[i]);
        tool_packages(b->opts, with);
        GPtrArray *set;

        g_ptr_array_add(with, NULL);
        set = rv_guest_disk_package_set((const char * const *) with->pdata);
        g_ptr_array_unref(b->packages);
        b->packages = set;
    }
    if ((r = step_mmdebstrap(b, error)) < 0 ||
        (r = step_customise(b, error)) < 0)
        return r;
    if (b->profile->tpcc_warehouses) {
        const char *driver = b->opts->tpcc_driver;

        for (guint i = 0; !driver && i < b->opts->n_tools; i++)
            if (strcmp(b->opts->tools[i].name, "rtvirt-tpcc") == 0)
                driver = b->opts->tools[i].host_path;
        if (!driver)
            return rv_error_set(error, RV_ERROR_UNSUPPORTED, ENOENT,
                                "%s: tpcc_warehouses needs the rtvirt-tpcc driver (make all "
                                "builds it)", b->profile->path);
        r = rv_guest_disk_tpcc_load(b->tree, driver, b->profile->tpcc_warehouses,
                                    b->profile->tpcc_scale, error);
        if (r < 0)
            return r;
    }
    if ((r = step_kernel(b, error)) < 0 ||
        (r = step_filesystem(b, error)) < 0)
        return r;
    remove_tree(b->tree);
    img->root = g_strdup("/dev/vda");
    img->method = g_strdup("mmdebstrap");
    return 0;
}

/* Into place: manifest last, then one rename. */
static int
finish_build(Build *b, RvGuestDiskImage *img, gint64 t0, GError **error)
{
    g_autofree char *qcow = g_build_filename(b->tmp, "base.qcow2", NULL);
    g_autofree char *pidf = g_build_filename(b->tmp, "builder.pid", NULL);
    GStatBuf st;
    int r;

    img->build_ms = (guint64) ((g_get_monotonic_time() - t0) / 1000);
    if (g_stat(qcow, &st) == 0)
        img->disk_bytes = (guint64) st.st_size;
    r = write_manifest(img, b->tmp, b->packages, error);
    if (r < 0)
        return r;
    (void) g_unlink(pidf);
    /* built in a 0700 directory (the root tree must stay private while
     * mmdebstrap fills it); in place, QEMU (libvirt-qemu) must traverse
     * it to open base.qcow2, which keeps its own 0640 */
    if (chmod(b->tmp, 0755) < 0)
        return rv_error_set(error, RV_ERROR_FAILED, errno, "Failed to chmod '%s': %s", b->tmp,
                            g_strerror(errno));
    if (rv_guest_disk_image_complete(img)) {
        /* --force over an existing image: the old one goes first */
        remove_tree(img->dir);
    }
    if (g_rename(b->tmp, img->dir) < 0) {
        int e = errno;

        if (e != EEXIST && e != ENOTEMPTY)
            return rv_error_set(error, RV_ERROR_FAILED, e, "Failed to rename '%s' to '%s': %s",
                                b->tmp, img->dir, g_strerror(e));
        /* a concurrent builder won: its image has the same inputs */
        remove_tree(b->tmp);
    }
    return 0;
}

static int
make_tmp(Build *b, const char *images, GError **error)
{
    g_autofree char *pidf = NULL, *pid = g_strdup_printf("%ld\n", (long) getpid());

    if (g_mkdir_with_parents(images, 0755) < 0)
        return rv_error_set(error, RV_ERROR_FAILED, errno, "Failed to create '%s': %s", images,
                            g_strerror(errno));
    rv_guest_disk_reap_stale(images);
    b->tmp = g_build_filename(images, ".tmp-XXXXXX", NULL);
    if (!g_mkdtemp_full(b->tmp, 0700))
        return rv_error_set(error, RV_ERROR_FAILED, errno, "Failed to create '%s': %s", b->tmp,
                            g_strerror(errno));
    pidf = g_build_filename(b->tmp, "builder.pid", NULL);
    return write_text(pidf, pid, 0644, error);
}

int
rv_guest_disk_image_build(const RvGuestProfile *profile, const RvGuestDiskImageOptions *opts,
                          RvGuestDiskImage **ret, GError **error)
{
    static const RvGuestDiskImageOptions defaults = { 0 };
    g_autoptr(GPtrArray) sources = g_ptr_array_new_with_free_func((GDestroyNotify) rv_guest_disk_blob_free);
    g_autoptr(GPtrArray) tools = g_ptr_array_new_with_free_func((GDestroyNotify) rv_guest_disk_blob_free);
    g_autoptr(RvGuestDiskImage) img = NULL;
    g_autofree char *cache = NULL, *images = NULL, *hash = NULL, *base_id = NULL;
    RvGuestDiskInputs in = { 0 };
    Build b = { 0 };
    gint64 t0 = g_get_monotonic_time();
    int r;

    if (!rv_guest_profile_builds_image(profile))
        return rv_error_set(error, RV_ERROR_INVALID, EINVAL,
                            "%s: builds no disk image: it needs [image] type = disk without path",
                            profile->path);
    b.profile = profile;
    b.opts = opts ? opts : &defaults;
    b.sysroot = b.opts->sysroot ? b.opts->sysroot : "/";
    r = collect_inputs(&b, &in, sources, tools, &base_id, error);
    if (r < 0)
        goto out;
    hash = rv_guest_disk_image_hash(&in);
    cache = b.opts->cache_dir ? g_strdup(b.opts->cache_dir) : rv_guest_image_default_cache_dir();
    images = g_build_filename(cache, "disk-images", NULL);
    img = image_at(images, hash);
    if (!b.opts->force && rv_guest_disk_image_complete(img)) {
        r = rv_guest_disk_manifest_read(img, error);
        if (r < 0)
            goto out;
        img->cached = true;
        (void) rv_guest_disk_image_protect(img->base);
        (void) chmod(img->dir, 0755);   /* one left 0700 by an older build */
        *ret = g_steal_pointer(&img);
        goto out;
    }
    (void) g_mkdir_with_parents(cache, 0755);
    (void) chmod(cache, 0755);
    r = make_tmp(&b, images, error);
    if (r < 0)
        goto out;
    if (profile->base_image)
        r = rv_guest_guestfs_build(profile, b.opts->tools, b.opts->n_tools, b.tmp, &img->root,
                                   error);
    else
        r = build_mmdebstrap(&b, img, error);
    if (r >= 0 && !img->method)
        img->method = g_strdup("libguestfs");
    if (r >= 0)
        r = finish_build(&b, img, t0, error);
    if (r < 0) {
        remove_tree(b.tmp);
        goto out;
    }
    *ret = g_steal_pointer(&img);
out:
    build_clear(&b);
    return r < 0 ? r : 0;
}

int
rv_guest_disk_image_overlay(const RvGuestDiskImage *image, const char *path, GError **error)
{
    const char *argv[] = { "qemu-img", "create", "-q", "-f", "qcow2", "-F", "qcow2", "-b",
                           image->base, path, NULL };
    int r;

    /* qemu-img create would truncate an overlay a running guest uses */
    if (g_file_test(path, G_FILE_TEST_EXISTS))
        return rv_error_set(error, RV_ERROR_FAILED, EEXIST, "Overlay '%s' exists already", path);
    r = run_step(argv, 60000, "Creating the guest's overlay", NULL, error);
    if (r < 0)
        return r;
    (void) rv_guest_disk_image_protect(path);
    return 0;
}

char *
rv_guest_disk_image_cmdline(const RvGuestDiskImage *image, const RvGuestProfile *profile)
{
    g_autofree char *cl = rv_guest_profile_kernel_cmdline(profile);
    GString *s = g_string_new(NULL);

    g_string_append_printf(s, "root=%s rw", image->root ? image->root : "/dev/vda");
    if (!strstr(cl, "console="))
        g_string_append(s, " console=ttyS0");
    if (*cl)
        g_string_append_printf(s, " %s", cl);
    return g_string_free(s, FALSE);
}
