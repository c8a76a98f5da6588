/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * harness/cmd-guest-image.c: `rtvirt guest image PROFILE`: build (or find
 * in the cache) the disk image of a guest profile with [image] type = disk
 * (guest/disk-image.h).
 */
#include <stdio.h>
#include <string.h>

#include <json-glib/json-glib.h>

#include "guest/disk-image.h"
#include "guest/image.h"
#include "guest/profile.h"
#include "harness/cmd-common.h"
#include "harness/commands.h"
#include "harness/guest-tools.h"
#include "harness/log.h"
#include "util/error.h"
#include "util/profile-path.h"

/* rtvirt's own programs for disk guests beyond the guest image list:
 * the TPC-C driver and the perturbation probe. */
static const char * const extra_tools[] = { RV_GUEST_DISK_IMAGE_EXTRA_TOOLS };

void
rv_harness_disk_image_options(RvGuestDiskImageOptions *opts)
{
    static RvGuestDiskTool tools[32];
    static const char *packages[32];
    static GPtrArray *keep;
    static guint n = 0;

    if (!keep) {
        g_autofree char *dir = rv_guest_image_tools_dir();
        guint nb = 0, np = 0;
        const RvGuestImageBinary *bins = rv_guest_image_binaries(&nb);

        keep = g_ptr_array_new_with_free_func(g_free);
        /* the same list as the embedded image (contract 3): packaged
         * programs as their packages, rtvirt's tools as files */
        for (guint i = 0; i < nb && n < G_N_ELEMENTS(tools) - G_N_ELEMENTS(extra_tools); i++) {
            g_autofree char *base = g_path_get_basename(bins[i].path);
            g_autofree char *p = NULL;

            if (!bins[i].tool) {
                if (bins[i].package && np < G_N_ELEMENTS(packages) - 1)
                    packages[np++] = bins[i].package;
                continue;
            }
            p = dir ? g_build_filename(dir, base, NULL) : NULL;
            if (!p || !g_file_test(p, G_FILE_TEST_IS_EXECUTABLE))
                continue;
            g_ptr_array_add(keep, g_steal_pointer(&base));
            tools[n].name = g_ptr_array_index(keep, keep->len - 1);
            g_ptr_array_add(keep, g_steal_pointer(&p));
            tools[n].host_path = g_ptr_array_index(keep, keep->len - 1);
            n++;
        }
        for (guint i = 0; dir && i < G_N_ELEMENTS(extra_tools); i++) {
            g_autofree char *p = g_build_filename(dir, extra_tools[i], NULL);

            if (!g_file_test(p, G_FILE_TEST_IS_EXECUTABLE))
                continue;
            tools[n].name = extra_tools[i];
            g_ptr_array_add(keep, g_steal_pointer(&p));
            tools[n].host_path = g_ptr_array_index(keep, keep->len - 1);
            n++;
        }
        packages[np] = NULL;
    }
    opts->tools = tools;
    opts->n_tools = n;
    opts->packages = packages;
}

static const RvCmdSpec guest_image_spec = {
    .params = "PROFILE - build the disk image of a guest profile",
    .description = "PROFILE has [image] type = disk without path: mmdebstrap builds a Debian "
                   "root file system from the host's apt sources (packages = ...), or "
                   "libguestfs customises base_image = PATH on an overlay.  Cached by a hash "
                   "of every input; --force rebuilds.  --json prints {schema_version, profile, "
                   "image, cached, method, base, kernel, initrd, root, cmdline, build_ms, "
                   "disk_bytes, seconds}.",
    .exit_status = "0 built (or found in the cache), 2 error (bad profile, a tool missing, a "
                   "failed build: nothing is left in the cache).",
    .common = RV_COMMON_JSON,
};

static int
print_json(const RvGuestProfile *p, const RvGuestDiskImage *img, const char *cmdline,
           double seconds)
{
    g_autoptr(JsonBuilder) b = json_builder_new();
    g_autoptr(JsonNode) node = NULL;

    rv_cmd_json_begin(b, 1);
    json_builder_set_member_name(b, "profile");
    json_builder_add_string_value(b, p->path);
    json_builder_set_member_name(b, "image");
    json_builder_add_string_value(b, img->hash);
    json_builder_set_member_name(b, "cached");
    json_builder_add_boolean_value(b, img->cached);
    json_builder_set_member_name(b, "method");
    json_builder_add_string_value(b, img->method);
    json_builder_set_member_name(b, "base");
    json_builder_add_string_value(b, img->base);
    json_builder_set_member_name(b, "kernel");
    json_builder_add_string_value(b, img->kernel);
    json_builder_set_member_name(b, "initrd");
    json_builder_add_string_value(b, img->initrd);
    json_builder_set_member_name(b, "root");
    json_builder_add_string_value(b, img->root);
    json_builder_set_member_name(b, "cmdline");
    json_builder_add_string_value(b, cmdline);
    json_builder_set_member_name(b, "build_ms");
    json_builder_add_int_value(b, (gint64) img->build_ms);
    json_builder_set_member_name(b, "disk_bytes");
    json_builder_add_int_value(b, (gint64) img->disk_bytes);
    json_builder_set_member_name(b, "seconds");
    json_builder_add_double_value(b, seconds);
    json_builder_end_object(b);
    node = json_builder_get_root(b);
    return rv_cmd_print_json(node) < 0 ? RV_EXIT_ERROR : RV_EXIT_OK;
}

int
rv_cmd_guest_image(int argc, char **argv)
{
    static char *arg_cache;
    static gboolean arg_force;
    const GOptionEntry entries[] = {
        { "force", 0, 0, G_OPTION_ARG_NONE, &arg_force,
          "Rebuild even when the image is in the cache", NULL },
        { "cache-dir", 0, 0, G_OPTION_ARG_FILENAME, &arg_cache,
          "Image cache (default: $RTVIRT_CACHE_DIR, /var/cache/rtvirt for root, else $XDG_CACHE_HOME/rtvirt)",
          "DIR" },
        { NULL },
    };
    g_autoptr(GError) error = NULL;
    g_autoptr(RvGuestProfile) profile = NULL;
    g_autoptr(RvGuestDiskImage) img = NULL;
    g_autofree char *path = NULL, *cmdline = NULL;
    RvGuestDiskImageOptions opts = { 0 };
    gint64 t0;
    double seconds;

    if (rv_cmd_parse(&guest_image_spec, entries, &argc, &argv) < 0)
        return RV_EXIT_ERROR;
    if (argc != 2) {
        rv_log_error("%s: expected one guest profile (e.g. profiles/guests/tpcc-guest.ini)",
                     argv[0]);
        return RV_EXIT_ERROR;
    }
    if (rv_profile_find(RV_PROFILE_GUEST, argv[1], &path, &error) < 0)
        return rv_log_gerror(error, NULL);
    if (rv_guest_profile_load(path, &profile, &error) < 0)
        return rv_log_gerror(error, "Failed to load the guest profile");
    if (!rv_guest_profile_builds_image(profile)) {
        rv_log_error("%s: builds no disk image: 'guest image' needs [image] type = disk without "
                     "path (packages = ... or base_image = PATH)", path);
        return RV_EXIT_ERROR;
    }
    rv_harness_disk_image_options(&opts);
    opts.cache_dir = arg_cache;
    opts.force = arg_force;
    t0 = g_get_monotonic_time();
    if (!rv_cmd_common.json)
        rv_log_info("Building the disk image of '%s' (cached when nothing changed) ...",
                    profile->name);
    if (rv_guest_disk_image_build(profile, &opts, &img, &error) < 0)
        return rv_log_gerror(error, "Failed to build the disk image");
    seconds = (g_get_monotonic_time() - t0) / 1e6;
    cmdline = rv_guest_disk_image_cmdline(img, profile);
    if (rv_cmd_common.json)
        return print_json(profile, img, cmdline, seconds);
    printf("image    %s (%s, %s)\n", img->hash, img->cached ? "cached" : "built", img->method);
    printf("base     %s (%" G_GUINT64_FORMAT " bytes)\n", img->base, img->disk_bytes);
    printf("kernel   %s\n", img->kernel);
    printf("initrd   %s\n", img->initrd);
    printf("cmdline  %s\n", cmdline);
    printf("time     %.2f s (build %.1f s)\n", seconds, img->build_ms / 1000.0);
    return RV_EXIT_OK;
}
