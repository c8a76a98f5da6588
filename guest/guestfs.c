/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * guest/guestfs.c: base images customised with libguestfs (guest/guestfs.h).
 */
#include <errno.h>
#include <stdbool.h>
#include <string.h>
#include <sys/stat.h>

#include <guestfs.h>
#include <glib/gstdio.h>
#include <json-glib/json-glib.h>

#include "guest/guestfs.h"
#include "util/error.h"
#include "util/runner.h"

static void
gfs_close(guestfs_h *g)
{
    if (g)
        guestfs_close(g);
}
typedef guestfs_h RvGuestfs;
G_DEFINE_AUTOPTR_CLEANUP_FUNC(RvGuestfs, gfs_close)

static void
strv_free(char **v)
{
    for (char **p = v; p && *p; p++)
        free(*p);
    free(v);
}

/* libguestfs' last error for @call, as RV_ERROR_FAILED. */
static int
gfs_error(guestfs_h *g, GError **error, const char *call, const char *arg)
{
    const char *msg = guestfs_last_error(g);

    return rv_error_set(error, RV_ERROR_FAILED, EIO, "libguestfs %s(%s) failed: %s", call,
                        arg ? arg : "", msg ? msg : "unknown error");
}

/* The backing file's format from `qemu-img info --output=json`. */
static int
image_format(const char *path, char **ret, GError **error)
{
    g_autoptr(RvRunner) run = rv_runner_new(false);
    g_autoptr(JsonParser) parser = json_parser_new();
    g_autofree char *out = NULL;
    const char *argv[] = { "qemu-img", "info", "--output=json", "--", path, NULL };
    JsonNode *root;
    const char *fmt;
    int r;

    r = rv_runner_run_check(run, argv, 60000, &out, error);
    if (r < 0)
        return r;
    if (!json_parser_load_from_data(parser, out, -1, NULL) ||
        !(root = json_parser_get_root(parser)) || !JSON_NODE_HOLDS_OBJECT(root) ||
        !(fmt = json_object_get_string_member_with_default(json_node_get_object(root), "format",
                                                           NULL)) ||
        (strcmp(fmt, "qcow2") != 0 && strcmp(fmt, "raw") != 0))
        return rv_error_set(error, RV_ERROR_INVALID, EINVAL,
                            "invalid base_image '%s': qemu-img reports no qcow2 or raw image", path);
    *ret = g_strdup(fmt);
    return 0;
}

static gint
mp_cmp(gconstpointer a, gconstpointer b)
{
    return (int) strlen(*(char * const *) a) - (int) strlen(*(char * const *) b);
}

/* Step 1: inspect and mount the one Linux root. */
static int
inspect_and_mount(guestfs_h *g, const char *path, char **ret_root, GError **error)
{
    g_autoptr(GPtrArray) mps = g_ptr_array_new();
    char **roots = guestfs_inspect_os(g), **map = NULL;
    g_autofree char *type = NULL;
    int r = 0;

    if (!roots)
        return gfs_error(g, error, "guestfs_inspect_os", path);
    if (!roots[0] || roots[1]) {
        bool none = !roots[0];

        strv_free(roots);
        return rv_error_set(error, RV_ERROR_INVALID, EINVAL,
                            "invalid base_image '%s': inspection found %s operating system",
                            path, none ? "no" : "more than one");
    }
    {
        char *t = guestfs_inspect_get_type(g, roots[0]);

        type = g_strdup(t ? t : "unknown");
        free(t);
    }
    if (strcmp(type, "linux") != 0) {
        strv_free(roots);
        return rv_error_set(error, RV_ERROR_INVALID, EINVAL,
                            "invalid base_image '%s': a %s guest, rtvirt customises Linux only",
                            path, type);
    }
    map = guestfs_inspect_get_mountpoints(g, roots[0]);
    if (!map) {
        r = gfs_error(g, error, "guestfs_inspect_get_mountpoints", roots[0]);
        strv_free(roots);
        return r;
    }
    for (guint i = 0; map[i] && map[i + 1]; i += 2)
        g_ptr_array_add(mps, map + i);
    g_ptr_array_sort(mps, mp_cmp);   /* "/" before "/boot" */
    for (guint i = 0; r == 0 && i < mps->len; i++) {
        char **pair = mps->pdata[i];

        if (guestfs_mount(g, pair[1], pair[0]) < 0)
            r = gfs_error(g, error, "guestfs_mount", pair[1]);
    }
    strv_free(map);
    if (r == 0)
        *ret_root = g_strdup(roots[0]);
    strv_free(roots);
    return r;
}

/* Steps 2-4: the programs, the agent, the kernel arguments. */
static int
customise(guestfs_h *g, const RvGuestProfile *profile, const RvGuestDiskTool *tools,
          guint n_tools, GError **error)
{
    static const char * const units[] = { "/lib/systemd/system/qemu-guest-agent.service",
                                          "/usr/lib/systemd/system/qemu-guest-agent.service" };
    const char *wants = "/etc/systemd/system/multi-user.target.wants";
    g_autofree char *cl = rv_guest_profile_kernel_cmdline(profile);
    g_autofree char *cl_file = g_strdup_printf("%s\n", cl);
    g_autofree char *grub = g_strdup_printf("# rtvirt: the profile's kernel arguments\n"
                                            "GRUB_CMDLINE_LINUX_DEFAULT=\"$GRUB_CMDLINE_LINUX_DEFAULT %s\"\n",
                                            cl);
    const char *unit = NULL;

    if (guestfs_mkdir_p(g, "/usr/local/bin") < 0)
        return gfs_error(g, error, "guestfs_mkdir_p", "/usr/local/bin");
    for (guint i = 0; i < n_tools; i++) {
        g_autofree char *to = g_strdup_printf("/usr/local/bin/%s", tools[i].name);

        if (guestfs_upload(g, tools[i].host_path, to) < 0)
            return gfs_error(g, error, "guestfs_upload", to);
        if (guestfs_chmod(g, 0755, to) < 0)
            return gfs_error(g, error, "guestfs_chmod", to);
    }
    if (guestfs_is_file(g, "/usr/sbin/qemu-ga") <= 0 && guestfs_is_file(g, "/usr/bin/qemu-ga") <= 0)
        return rv_error_set(error, RV_ERROR_INVALID, ENOENT,
                            "invalid base_image '%s': it has no qemu-ga (install qemu-guest-agent "
                            "in the image first)", profile->base_image);
    for (guint i = 0; !unit && i < G_N_ELEMENTS(units); i++)
        if (guestfs_is_file(g, units[i]) > 0)
            unit = units[i];
    if (unit) {
        g_autofree char *link = g_strdup_printf("%s/qemu-guest-agent.service", wants);

        if (guestfs_mkdir_p(g, wants) < 0)
            return gfs_error(g, error, "guestfs_mkdir_p", wants);
        (void) guestfs_rm_f(g, link);
        if (guestfs_ln_s(g, unit, link) < 0)
            return gfs_error(g, error, "guestfs_ln_s", link);
    }
    if (guestfs_mkdir_p(g, "/etc/rtvirt") < 0 ||
        guestfs_write(g, "/etc/rtvirt/cmdline", cl_file, strlen(cl_file)) < 0)
        return gfs_error(g, error, "guestfs_write", "/etc/rtvirt/cmdline");
    if (guestfs_is_dir(g, "/etc/default") > 0 &&
        (guestfs_mkdir_p(g, "/etc/default/grub.d") < 0 ||
         guestfs_write(g, "/etc/default/grub.d/rtvirt.cfg", grub, strlen(grub)) < 0))
        return gfs_error(g, error, "guestfs_write", "/etc/default/grub.d/rtvirt.cfg");
    return 0;
}

/* Step 5: the newest kernel and its initramfs, downloaded beside the image. */
static int
fetch_kernel(guestfs_h *g, const char *base, const char *tmp, GError **error)
{
    char **names = guestfs_ls(g, "/boot");
    g_autofree char *kernel = NULL, *ver = NULL, *initrd = NULL;
    g_autofree char *kd = g_build_filename(tmp, "vmlinuz", NULL);
    g_autofree char *id = g_build_filename(tmp, "initrd.img", NULL);

    if (!names)
        return gfs_error(g, error, "guestfs_ls", "/boot");
    for (char **n = names; *n; n++)
        if (g_str_has_prefix(*n, "vmlinuz-") && (!ver || strverscmp(*n + 8, ver) > 0)) {
            g_free(ver);
            ver = g_strdup(*n + 8);
        }
    strv_free(names);
    if (!ver)
        return rv_error_set(error, RV_ERROR_INVALID, ENOENT,
                            "invalid base_image '%s': no /boot/vmlinuz-* to boot", base);
    kernel = g_strdup_printf("/boot/vmlinuz-%s", ver);
    initrd = g_strdup_printf("/boot/initrd.img-%s", ver);
    if (guestfs_is_file(g, initrd) <= 0) {
        g_free(initrd);
        initrd = g_strdup_printf("/boot/initramfs-%s.img", ver);
    }
    if (guestfs_download(g, kernel, kd) < 0)
        return gfs_error(g, error, "guestfs_download", kernel);
    if (guestfs_download(g, initrd, id) < 0)
        return gfs_error(g, error, "guestfs_download", initrd);
    (void) chmod(kd, 0644);
    (void) chmod(id, 0644);
    return 0;
}

int
rv_guest_guestfs_build(const RvGuestProfile *profile, const RvGuestDiskTool *tools,
                       guint n_tools, const char *tmp, char **ret_root, GError **error)
{
    g_autofree char *overlay = g_build_filename(tmp, "base.qcow2", NULL);
    g_autofree char *fmt = NULL, *root_dev = NULL;
    g_autoptr(RvGuestfs) g = NULL;
    g_autoptr(RvRunner) run = rv_runner_new(false);
    char *uuid;
    int r;

    r = image_format(profile->base_image, &fmt, error);
    if (r < 0)
        return r;
    {
        const char *argv[] = { "qemu-img", "create", "-q", "-f", "qcow2", "-F", fmt, "-b",
                               profile->base_image, overlay, NULL };

        r = rv_runner_run_check(run, argv, 60000, NULL, error);
        if (r < 0)
            return r;
        (void) rv_guest_disk_image_protect(overlay);
    }
    g = guestfs_create();
    if (!g)
        return rv_error_set(error, RV_ERROR_FAILED, ENOMEM, "guestfs_create() failed");
    if (!g_getenv("LIBGUESTFS_BACKEND_SETTINGS")) {
        char *settings[] = { (char *) "force_tcg", NULL };

        if (guestfs_set_backend_settings(g, settings) < 0)
            return gfs_error(g, error, "guestfs_set_backend_settings", "force_tcg");
    }
    if (guestfs_add_drive_opts(g, overlay, GUESTFS_ADD_DRIVE_OPTS_FORMAT, "qcow2", -1) < 0)
        return gfs_error(g, error, "guestfs_add_drive_opts", overlay);
    if (guestfs_launch(g) < 0)
        return gfs_error(g, error, "guestfs_launch", overlay);
    if ((r = inspect_and_mount(g, profile->base_image, &root_dev, error)) < 0 ||
        (r = customise(g, profile, tools, n_tools, error)) < 0 ||
        (r = fetch_kernel(g, profile->base_image, tmp, error)) < 0)
        return r;
    uuid = guestfs_vfs_uuid(g, root_dev);
    if (!uuid || !*uuid) {
        free(uuid);
        return gfs_error(g, error, "guestfs_vfs_uuid", root_dev);
    }
    *ret_root = g_strdup_printf("UUID=%s", uuid);
    free(uuid);
    if (guestfs_shutdown(g) < 0)
        return gfs_error(g, error, "guestfs_shutdown", overlay);
    return 0;
}
