/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * harness/cmd-guest.c: `rtvirt guest build`, `rtvirt guest run`, `rtvirt setup`.
 */
#include <stdio.h>

#include <gio/gio.h>

#include "guest/image.h"
#include "harness/commands.h"
#include "harness/log.h"
#include "util/error.h"

int
rv_cmd_guest_build(int argc, char **argv)
{
    g_autofree char *arg_out = NULL, *arg_cache = NULL, *arg_kernel = NULL;
    GOptionEntry entries[] = {
        { "out", 'o', 0, G_OPTION_ARG_FILENAME, &arg_out,
          "Also copy vmlinuz and initramfs.img into DIR", "DIR" },
        { "cache-dir", 0, 0, G_OPTION_ARG_FILENAME, &arg_cache,
          "Image cache (default: $RTVIRT_CACHE_DIR, /var/cache/rtvirt for root, else $XDG_CACHE_HOME/rtvirt)",
          "DIR" },
        { "kernel", 0, 0, G_OPTION_ARG_STRING, &arg_kernel,
          "Kernel release from /boot (default: the newest with modules)", "VERSION" },
        { NULL },
    };
    g_autoptr(GOptionContext) ctx = g_option_context_new("- build the embedded default guest");
    g_autoptr(GError) error = NULL;
    g_autoptr(RvGuestImage) img = NULL;
    RvGuestImageOptions opts = { 0 };

    g_option_context_add_main_entries(ctx, entries, NULL);
    if (!g_option_context_parse(ctx, &argc, &argv, &error)) {
        rv_log_error("%s: %s", argv[0], error->message);
        return RV_EXIT_ERROR;
    }
    if (argc > 1) {
        rv_log_error("%s: unexpected argument '%s'", argv[0], argv[1]);
        return RV_EXIT_ERROR;
    }
    opts.cache_dir = arg_cache;
    opts.kernel_release = arg_kernel;
    if (rv_guest_image_build(&opts, &img, &error) < 0)
        return rv_log_gerror(error, "Failed to build the embedded guest");
    if (arg_out && rv_guest_image_export(img, arg_out, &error) < 0)
        return rv_log_gerror(error, "Failed to export the embedded guest");

    printf("image    %s (%s)\n", img->hash, img->cached ? "cached" : "built");
    printf("kernel   %s (%s)\n", img->kernel, img->kernel_release);
    printf("initrd   %s (%" G_GUINT64_FORMAT " bytes, %u entries)\n",
           img->initrd, img->initrd_bytes, img->n_files);
    if (arg_out)
        printf("exported %s/vmlinuz %s/initramfs.img\n", arg_out, arg_out);
    return RV_EXIT_OK;
}

int
rv_cmd_guest_run(int argc, char **argv)
{
    (void) argc;
    rv_log_error("%s: not implemented yet", argv[0]);
    return RV_EXIT_ERROR;
}

int
rv_cmd_setup(int argc, char **argv)
{
    (void) argc;
    rv_log_error("%s: not implemented yet", argv[0]);
    return RV_EXIT_ERROR;
}
