/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * harness/cmd-guest.c: `rtvirt guest build`, `rtvirt guest run`, `rtvirt setup`.
 */
#include <stdio.h>

#include <gio/gio.h>

#include <math.h>
#include <string.h>

#include <json-glib/json-glib.h>

#include "guest/image.h"
#include "guest/libvirt.h"
#include "guest/limits.h"
#include "guest/placement.h"
#include "guest/report.h"
#include "guest/session.h"
#include "harness/cmd-common.h"
#include "harness/commands.h"
#include "harness/guest-tools.h"
#include "harness/log.h"
#include "harness/signals.h"
#include "results/cyclictest.h"
#include "util/error.h"
#include "util/json.h"
#include "util/runner.h"
#include "util/units.h"
#include "util/profile-path.h"

static const RvCmdSpec guest_build_spec = {
    .params = "- build the embedded default guest",
    .description = "--json prints {schema_version, image, cached, kernel, kernel_release, "
                   "initrd, initrd_bytes, entries, exported}.",
    .exit_status = "0 built (or found in the cache), 2 error (no kernel, a tool missing).",
    .common = RV_COMMON_JSON,
};

/* `guest build --json` */
static int
print_image_json(const RvGuestImage *img, const char *out)
{
    g_autoptr(JsonBuilder) b = json_builder_new();
    g_autoptr(JsonNode) node = NULL;

    rv_cmd_json_begin(b, 1);
    json_builder_set_member_name(b, "image");
    json_builder_add_string_value(b, img->hash);
    json_builder_set_member_name(b, "cached");
    json_builder_add_boolean_value(b, img->cached);
    json_builder_set_member_name(b, "kernel");
    json_builder_add_string_value(b, img->kernel);
    json_builder_set_member_name(b, "kernel_release");
    json_builder_add_string_value(b, img->kernel_release);
    json_builder_set_member_name(b, "initrd");
    json_builder_add_string_value(b, img->initrd);
    json_builder_set_member_name(b, "initrd_bytes");
    json_builder_add_int_value(b, (gint64) img->initrd_bytes);
    json_builder_set_member_name(b, "entries");
    json_builder_add_int_value(b, img->n_files);
    json_builder_set_member_name(b, "exported");
    if (out)
        json_builder_add_string_value(b, out);
    else
        json_builder_add_null_value(b);
    json_builder_end_object(b);
    node = json_builder_get_root(b);
    return rv_cmd_print_json(node) < 0 ? RV_EXIT_ERROR : RV_EXIT_OK;
}

int
rv_cmd_guest_build(int argc, char **argv)
{
    static char *arg_out, *arg_cache, *arg_kernel;
    const GOptionEntry entries[] = {
        { "output", 'o', 0, G_OPTION_ARG_FILENAME, &arg_out,
          "Also copy vmlinuz and initramfs.img into DIR", "DIR" },
        /* the old spelling, still accepted (-o is --output in every command) */
        { "out", 0, G_OPTION_FLAG_HIDDEN, G_OPTION_ARG_FILENAME, &arg_out, NULL, "DIR" },
        { "cache-dir", 0, 0, G_OPTION_ARG_FILENAME, &arg_cache,
          "Image cache (default: $RTVIRT_CACHE_DIR, /var/cache/rtvirt for root, else $XDG_CACHE_HOME/rtvirt)",
          "DIR" },
        { "kernel", 0, 0, G_OPTION_ARG_STRING, &arg_kernel,
          "Kernel release from /boot (default: the newest with modules)", "VERSION" },
        { NULL },
    };
    g_autoptr(GError) error = NULL;
    g_autoptr(RvGuestImage) img = NULL;
    RvGuestImageOptions opts = { 0 };

    if (rv_cmd_parse(&guest_build_spec, entries, &argc, &argv) < 0)
        return RV_EXIT_ERROR;
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
    if (rv_cmd_common.json)
        return print_image_json(img, arg_out);

    printf("image    %s (%s)\n", img->hash, img->cached ? "cached" : "built");
    printf("kernel   %s (%s)\n", img->kernel, img->kernel_release);
    printf("initrd   %s (%" G_GUINT64_FORMAT " bytes, %u entries)\n",
           img->initrd, img->initrd_bytes, img->n_files);
    if (arg_out)
        printf("exported %s/vmlinuz %s/initramfs.img\n", arg_out, arg_out);
    return RV_EXIT_OK;
}

/* ------------------------------------------------------------ guest run */

static const double percentiles[] = { 50, 90, 99, 99.9, 99.99 };
static const char * const percentile_names[] = { "p50", "p90", "p99", "p99.9", "p99.99" };

static void
json_add_strings(JsonBuilder *b, const char *name, GPtrArray *strs)
{
    json_builder_set_member_name(b, name);
    json_builder_begin_array(b);
    for (guint i = 0; strs && i < strs->len; i++)
        json_builder_add_string_value(b, strs->pdata[i]);
    json_builder_end_array(b);
}

static char *
verdict_text(const RvGuestSession *s)
{
    if (!s->untrusted)
        return g_strdup("TRUSTED");
    return g_strdup_printf("UNTRUSTED (virt=%s%s%s)", rv_guest_session_virt_label(s->virt),
                           s->fifo_dropped ? ", no SCHED_FIFO vCPUs" : "",
                           s->verification && s->verification->n_fail ? ", verification FAIL" : "");
}

static void
print_text(const RvGuestProfile *profile, const RvGuestSession *s, guint64 duration_us,
           const char * const *ct_argv, const RvCyclictestRun *run, int ct_status)
{
    g_autofree char *cmd = rv_runner_argv_to_string(ct_argv);
    g_autofree char *verdict = verdict_text(s);

    printf("guest         %s (domain %s) virt=%s\n", profile->name, s->domain_name,
           rv_guest_session_virt_label(s->virt));
    printf("virt          %s\n", s->virt_reason ? s->virt_reason : "");
    if (s->image)
        printf("image         %s (kernel %s)\n", s->image->hash, s->image->kernel_release);
    printf("boot          %.1f s to agent ready (%.1f s since start)\n", s->boot_ms / 1000.0,
           s->ready_ms / 1000.0);
    for (guint i = 0; i < s->placement_notes->len; i++)
        printf("placement     %s\n", (char *) s->placement_notes->pdata[i]);

    printf("verification  %u FAIL of %u checks\n", s->verification->n_fail,
           s->verification->checks->len);
    for (guint i = 0; i < s->verification->checks->len; i++) {
        const RvGuestCheck *c = s->verification->checks->pdata[i];

        printf("  %-4s %-48s expected %-10s actual %s\n", c->pass ? "PASS" : "FAIL", c->what,
               c->expected, c->actual);
    }

    printf("cyclictest    %s (%.0f s, exit %d%s%s)\n", cmd, duration_us / 1e6, ct_status,
           run && run->version ? ", rt-tests " : "", run && run->version ? run->version : "");
    if (run) {
        g_autofree char *table = rv_guest_report_cyclictest_table(profile, run);

        fputs(table, stdout);
    }
    for (guint i = 0; i < s->findings->len; i++)
        printf("finding       %s\n", (char *) s->findings->pdata[i]);
    printf("result        %s virt=%s\n", verdict, rv_guest_session_virt_label(s->virt));
}

static void
print_json(const RvGuestProfile *profile, const RvGuestSession *s, guint64 duration_us,
           const char * const *ct_argv, const RvCyclictestRun *run, int ct_status)
{
    g_autoptr(JsonBuilder) b = json_builder_new();
    g_autoptr(JsonNode) root = NULL;
    g_autofree char *out = NULL;

    rv_cmd_json_begin(b, 1);
    json_builder_set_member_name(b, "format");
    json_builder_add_string_value(b, "rtvirt-guest-run-1");
    json_builder_set_member_name(b, "profile");
    json_builder_add_string_value(b, profile->path ? profile->path : profile->name);
    json_builder_set_member_name(b, "guest");
    json_builder_add_string_value(b, profile->name);
    json_builder_set_member_name(b, "domain");
    json_builder_add_string_value(b, s->domain_name);
    json_builder_set_member_name(b, "virt");
    json_builder_add_string_value(b, rv_guest_session_virt_label(s->virt));
    json_builder_set_member_name(b, "virt_reason");
    json_builder_add_string_value(b, s->virt_reason ? s->virt_reason : "");
    if (s->image) {
        json_builder_set_member_name(b, "image");
        json_builder_add_string_value(b, s->image->hash);
        json_builder_set_member_name(b, "kernel_release");
        json_builder_add_string_value(b, s->image->kernel_release);
    }
    json_builder_set_member_name(b, "boot_ms");
    json_builder_add_int_value(b, (gint64) s->boot_ms);
    json_builder_set_member_name(b, "ready_ms");
    json_builder_add_int_value(b, (gint64) s->ready_ms);
    json_builder_set_member_name(b, "duration_us");
    json_builder_add_int_value(b, (gint64) duration_us);
    json_builder_set_member_name(b, "untrusted");
    json_builder_add_boolean_value(b, s->untrusted);
    json_builder_set_member_name(b, "fifo_dropped");
    json_builder_add_boolean_value(b, s->fifo_dropped);
    json_builder_set_member_name(b, "memlock_dropped");
    json_builder_add_boolean_value(b, s->memlock_dropped);
    json_add_strings(b, "findings", s->findings);
    json_add_strings(b, "placement_notes", s->placement_notes);

    json_builder_set_member_name(b, "verification");
    json_builder_begin_object(b);
    json_builder_set_member_name(b, "fail");
    json_builder_add_int_value(b, s->verification->n_fail);
    json_builder_set_member_name(b, "qemu_pid");
    json_builder_add_int_value(b, s->verification->qemu_pid);
    json_builder_set_member_name(b, "checks");
    json_builder_begin_array(b);
    for (guint i = 0; i < s->verification->checks->len; i++) {
        const RvGuestCheck *c = s->verification->checks->pdata[i];

        json_builder_begin_object(b);
        json_builder_set_member_name(b, "result");
        json_builder_add_string_value(b, c->pass ? "PASS" : "FAIL");
        json_builder_set_member_name(b, "what");
        json_builder_add_string_value(b, c->what);
        json_builder_set_member_name(b, "expected");
        json_builder_add_string_value(b, c->expected);
        json_builder_set_member_name(b, "actual");
        json_builder_add_string_value(b, c->actual);
        json_builder_end_object(b);
    }
    json_builder_end_array(b);
    json_builder_end_object(b);

    json_builder_set_member_name(b, "cyclictest");
    json_builder_begin_object(b);
    json_builder_set_member_name(b, "argv");
    json_builder_begin_array(b);
    for (guint i = 0; ct_argv[i]; i++)
        json_builder_add_string_value(b, ct_argv[i]);
    json_builder_end_array(b);
    json_builder_set_member_name(b, "exit_status");
    json_builder_add_int_value(b, ct_status);
    if (run && run->version) {
        json_builder_set_member_name(b, "version");
        json_builder_add_string_value(b, run->version);
    }
    json_builder_set_member_name(b, "threads");
    json_builder_begin_array(b);
    for (guint i = 0; run && i < run->threads->len; i++) {
        const RvCyclictestThread *t = run->threads->pdata[i];

        json_builder_begin_object(b);
        json_builder_set_member_name(b, "thread");
        json_builder_add_int_value(b, t->index);
        json_builder_set_member_name(b, "vcpu");
        json_builder_add_int_value(b, rv_guest_report_thread_vcpu(profile, t->index));
        json_builder_set_member_name(b, "samples");
        json_builder_add_int_value(b, t->histogram ? (gint64) rv_result_histogram_total(t->histogram)
                                                   : t->cycles);
        json_builder_set_member_name(b, "min_us");
        json_builder_add_int_value(b, t->min_us);
        json_builder_set_member_name(b, "avg_us");
        if (isnan(t->avg_us))
            json_builder_add_null_value(b);
        else
            json_builder_add_double_value(b, t->avg_us);
        json_builder_set_member_name(b, "max_us");
        json_builder_add_int_value(b, t->max_us);
        json_builder_set_member_name(b, "histogram_buckets");
        json_builder_add_int_value(b, t->histogram ? t->histogram->n_buckets : 0);
        /* Percentiles from the histogram (results/histogram.h, nearest
         * rank).  One that falls among the overflows is listed in
         * percentiles_beyond: its value is then max_us, an upper bound. */
        json_builder_set_member_name(b, "percentiles_us");
        json_builder_begin_object(b);
        for (guint p = 0; t->histogram && p < G_N_ELEMENTS(percentiles); p++) {
            gint64 v = -1;
            gboolean beyond = FALSE;
            g_autoptr(GError) ignored = NULL;

            if (rv_result_histogram_percentile(t->histogram, percentiles[p], &v, &beyond,
                                               &ignored) < 0)
                continue;
            json_builder_set_member_name(b, percentile_names[p]);
            json_builder_add_int_value(b, v);
        }
        json_builder_end_object(b);
        json_builder_set_member_name(b, "percentiles_beyond");
        json_builder_begin_array(b);
        for (guint p = 0; t->histogram && p < G_N_ELEMENTS(percentiles); p++) {
            gint64 v = -1;
            gboolean beyond = FALSE;
            g_autoptr(GError) ignored = NULL;

            if (rv_result_histogram_percentile(t->histogram, percentiles[p], &v, &beyond,
                                               &ignored) == 0 && beyond)
                json_builder_add_string_value(b, percentile_names[p]);
        }
        json_builder_end_array(b);
        json_builder_end_object(b);
    }
    json_builder_end_array(b);
    json_builder_end_object(b);
    json_builder_set_member_name(b, "result");
    json_builder_add_string_value(b, s->untrusted ? "untrusted" : "trusted");
    json_builder_end_object(b);

    root = json_builder_get_root(b);
    out = rv_json_to_text(root);
    fputs(out, stdout);
}

static const RvCmdSpec guest_run_spec = {
    .params = "PROFILE - boot a guest, verify it, run cyclictest inside, tear down",
    .description = "PROFILE is a file or a name ('rtvirt profiles').  --json prints the\n"
                   "result document (schema_version, format rtvirt-guest-run-1).",
    .exit_status = "0 measured and every verification passed, 1 a verification FAIL,\n"
                   "2 error (bad profile, libvirt, the guest or cyclictest failed),\n"
                   "77 this host lacks the CPUs the profile needs.",
    .common = RV_COMMON_JSON | RV_COMMON_DURATION,
    .duration_help = "cyclictest run length (default: the profile's [cyclictest] duration)",
};

int
rv_cmd_guest_run(int argc, char **argv)
{
    static char *arg_virt, *arg_uri, *arg_cache, *arg_raw, *arg_name;
    static gboolean arg_require_fifo;
    const GOptionEntry entries[] = {
        { "virt", 0, 0, G_OPTION_ARG_STRING, &arg_virt,
          "auto, kvm, tcg (alias qemu): how QEMU runs the guest; auto (the default, or $RTVIRT_VIRT) is kvm where a guest really boots, else tcg",
          "TYPE" },
        { "require-fifo", 0, 0, G_OPTION_ARG_NONE, &arg_require_fifo,
          "Fail when libvirt cannot give vCPUs SCHED_FIFO (default: run without, marked untrusted)",
          NULL },
        { "uri", 0, 0, G_OPTION_ARG_STRING, &arg_uri, "libvirt URI (default qemu:///system)", "URI" },
        { "cache-dir", 0, 0, G_OPTION_ARG_FILENAME, &arg_cache, "Image cache directory", "DIR" },
        { "name", 0, 0, G_OPTION_ARG_STRING, &arg_name,
          "Domain name (default rtvirt-PROFILE-PID)", "NAME" },
        { "raw-output", 0, 0, G_OPTION_ARG_FILENAME, &arg_raw,
          "Also write cyclictest's raw output to FILE", "FILE" },
        { NULL },
    };
    const char *arg_duration;
    g_autofree char *path = NULL;
    g_autoptr(GError) error = NULL;
    g_autoptr(RvGuestProfile) profile = NULL;
    g_autoptr(RvGuestSession) session = NULL;
    g_autoptr(RvRoot) root = NULL;
    g_autoptr(RvGuestHostCpus) host = NULL;
    g_autoptr(RvGuestPlacement) placement = NULL;
    g_autoptr(GPtrArray) runs = NULL;
    g_auto(GStrv) ct_argv = NULL;
    g_auto(RvGuestExecResult) res = { 0 };
    RvGuestSessionOptions opts = { 0 };
    RvGuestDiskImageOptions dio = { 0 };
    const RvCyclictestRun *run = NULL;
    guint64 duration_us = 0;
    guint timeout_ms, expect_ms;
    int r;

    if (rv_cmd_parse(&guest_run_spec, entries, &argc, &argv) < 0)
        return RV_EXIT_ERROR;
    arg_duration = rv_cmd_common.duration;
    if (argc != 2) {
        rv_log_error("%s: expected one guest profile (e.g. profiles/guests/rt-demo.ini)", argv[0]);
        return RV_EXIT_ERROR;
    }
    if (arg_name && !rv_guest_profile_name_valid(arg_name)) {
        rv_log_error("%s: invalid --name '%s': expected 1-64 characters of A-Z a-z 0-9 _ . -",
                     argv[0], arg_name);
        return RV_EXIT_ERROR;
    }
    if (arg_duration && (rv_parse_duration_us(arg_duration, &duration_us) < 0 ||
                         duration_us < 1000000)) {
        rv_log_error("%s: invalid --duration '%s' (at least 1s, e.g. 10s, 2m)", argv[0],
                     arg_duration);
        return RV_EXIT_ERROR;
    }
    if (!arg_virt && g_getenv("RTVIRT_VIRT") && *g_getenv("RTVIRT_VIRT"))
        arg_virt = g_strdup(g_getenv("RTVIRT_VIRT"));   /* as `rtvirt run` */
    if (rv_guest_virt_request_parse(arg_virt, &opts.virt, NULL) < 0) {
        rv_log_error("%s: invalid --virt '%s': expected auto, kvm, tcg (alias qemu)",
                         argv[0], arg_virt);
        return RV_EXIT_ERROR;
    }

    if (rv_profile_find(RV_PROFILE_GUEST, argv[1], &path, &error) < 0)
        return rv_log_gerror(error, NULL);
    if (rv_guest_profile_load(path, &profile, &error) < 0)
        return rv_log_gerror(error, "Failed to load the guest profile");
    if (!duration_us)
        duration_us = profile->ct_duration_us;

    /* Place first (host CPUs now): a guest this host cannot hold is
     * refused before anything is built or booted. */
    if (rv_host_root_open("/", &root, &error) < 0)
        return rv_log_gerror(error, "Failed to open the host root");
    if (rv_guest_host_cpus_from_root(root, &host, &error) < 0)
        return rv_log_gerror(error, "Failed to read the host CPUs");
    if (rv_guest_place(profile, host, &placement, &error) < 0)
        return rv_log_gerror(error, "Failed to place the guest");

    rv_harness_signals_install();
    opts.profile = profile;
    opts.root = root;
    opts.placement = placement;
    opts.uri = arg_uri;
    opts.cache_dir = arg_cache;
    opts.domain_name = arg_name;
    opts.allow_no_fifo = !arg_require_fifo;
    opts.cancellable = rv_harness_signals_cancellable();
    rv_harness_disk_image_options(&dio);
    opts.disk_image = &dio;

    rv_log_info("Booting guest '%s' ...", profile->name);
    if (rv_guest_session_start(&opts, &session, &error) < 0) {
        rv_harness_signals_uninstall();
        return rv_log_gerror(error, "Failed to start the guest");
    }
    rv_log_info("Guest '%s' ready after %.1f s (virt=%s); running cyclictest for %.0f s",
                profile->name, session->boot_ms / 1000.0,
                rv_guest_session_virt_label(session->virt), duration_us / 1e6);

    ct_argv = rv_guest_profile_cyclictest_argv(profile, duration_us);
    /* cyclictest ends by itself after -D; TCG guests start slowly. */
    timeout_ms = (guint) MIN((duration_us / 1000) * 2 + 60000, G_MAXUINT);
    /* the agent sleeps through cyclictest's -D (whole seconds, rounded up
     * by rv_guest_profile_cyclictest_argv()) instead of polling */
    expect_ms = (guint) MIN((duration_us + G_USEC_PER_SEC - 1) / G_USEC_PER_SEC * 1000,
                            G_MAXUINT);
    r = rv_guest_session_exec(session, (const char * const *) ct_argv, timeout_ms, expect_ms,
                              8u << 20, &res, &error);
    rv_guest_session_stop(session);
    rv_harness_signals_uninstall();
    if (r < 0)
        return rv_log_gerror(error, "Failed to run cyclictest in the guest");
    if (arg_raw) {
        g_autoptr(GError) werr = NULL;

        if (!g_file_set_contents(arg_raw, res.out, (gssize) res.out_len, &werr))
            rv_log_warn("Failed to write '%s': %s", arg_raw, werr->message);
    }
    if (res.exit_status != 0) {
        rv_log_error("cyclictest in guest '%s' exited with status %d: %.500s", profile->name,
                     res.exit_status, res.err && *res.err ? res.err : res.out);
        return RV_EXIT_ERROR;
    }
    if (res.truncated) {
        rv_log_error("cyclictest output from guest '%s' was truncated", profile->name);
        return RV_EXIT_ERROR;
    }
    if (rv_result_cyclictest_parse("guest cyclictest output", res.out, res.out_len, &runs,
                                   &error) < 0)
        return rv_log_gerror(error, "Failed to parse the guest's cyclictest output");
    run = runs->pdata[runs->len - 1];

    if (rv_cmd_common.json)
        print_json(profile, session, duration_us, (const char * const *) ct_argv, run,
                   res.exit_status);
    else
        print_text(profile, session, duration_us, (const char * const *) ct_argv, run,
                   res.exit_status);
    if (session->untrusted)
        rv_log_warn("Guest '%s': result UNTRUSTED: %s", profile->name,
                    session->findings->len ? (char *) session->findings->pdata[0] : "see above");
    return session->verification->n_fail ? RV_EXIT_CHECK : RV_EXIT_OK;
}

/* ---------------------------------------------------------------- setup */

static const RvCmdSpec setup_spec = {
    .params = "- start virtlogd and libvirtd (as systemd units where systemd runs)",
    .description = "--json prints {schema_version, virtlogd, libvirtd, uri, version}.",
    .exit_status = "0 libvirtd answers, 2 error (a daemon did not start or answer in time).",
    .common = RV_COMMON_JSON,
};

int
rv_cmd_setup(int argc, char **argv)
{
    static char *arg_uri;
    static gint arg_timeout = 30;
    const GOptionEntry entries[] = {
        { "uri", 0, 0, G_OPTION_ARG_STRING, &arg_uri, "libvirt URI to wait for", "URI" },
        { "timeout", 0, 0, G_OPTION_ARG_INT, &arg_timeout,
          "Seconds to wait until libvirtd answers (default 30)", "S" },
        { NULL },
    };
    g_autoptr(GError) error = NULL;
    g_autoptr(RvRunner) runner = rv_runner_new(false);
    g_auto(RvGuestSetupReport) rep = { 0 };
    g_autofree char *daemon = NULL, *run_dir = NULL;
    g_autoptr(RvGuestLimits) learned = NULL;

    if (rv_cmd_parse(&setup_spec, entries, &argc, &argv) < 0)
        return RV_EXIT_ERROR;
    if (argc > 1 || arg_timeout <= 0) {
        rv_log_error("%s: unexpected argument or bad --timeout", argv[0]);
        return RV_EXIT_ERROR;
    }
    if (rv_guest_libvirt_setup(runner, arg_uri, (guint) arg_timeout * 1000, &rep, &error) < 0)
        return rv_log_gerror(error, "Failed to start the libvirt daemons");
    /* what earlier guest starts learned about this daemon (guest/limits.h) */
    daemon = g_strcmp0(rep.uri, "qemu:///system") == 0 ? rv_guest_limits_daemon_key(NULL) : NULL;
    run_dir = rv_guest_limits_run_dir();
    learned = rv_guest_limits_load(run_dir, daemon);
    if (rv_cmd_common.json) {
        g_autoptr(JsonBuilder) b = json_builder_new();
        g_autoptr(JsonNode) node = NULL;

        rv_cmd_json_begin(b, 1);
        json_builder_set_member_name(b, "virtlogd");
        json_builder_add_string_value(b, rep.virtlogd_started ? "started" : "already running");
        json_builder_set_member_name(b, "libvirtd");
        json_builder_add_string_value(b, rep.libvirtd_started ? "started" : "already running");
        json_builder_set_member_name(b, "systemd");
        json_builder_add_boolean_value(b, rep.systemd);
        json_builder_set_member_name(b, "uri");
        json_builder_add_string_value(b, rep.uri);
        json_builder_set_member_name(b, "version");
        json_builder_add_string_value(b, rep.version);
        rv_json_add_string_or_null(b, "daemon", daemon);
        json_builder_set_member_name(b, "learned");
        json_builder_begin_array(b);
        for (guint k = 0; k < RV_GUEST_LIMIT_N; k++) {
            if (!learned->known[k])
                continue;
            json_builder_begin_object(b);
            json_builder_set_member_name(b, "limit");
            json_builder_add_string_value(b, rv_guest_limit_name(k));
            json_builder_set_member_name(b, "reason");
            json_builder_add_string_value(b, learned->reason[k]);
            json_builder_set_member_name(b, "learned");
            json_builder_add_string_value(b, learned->learned[k]);
            json_builder_end_object(b);
        }
        json_builder_end_array(b);
        json_builder_end_object(b);
        node = json_builder_get_root(b);
        return rv_cmd_print_json(node) < 0 ? RV_EXIT_ERROR : RV_EXIT_OK;
    }
    printf("virtlogd  %s\n", !rep.virtlogd_started ? "already running"
                              : rep.systemd ? "started (systemctl start virtlogd.service)" : "started");
    printf("libvirtd  %s\n", !rep.libvirtd_started ? "already running"
                              : rep.systemd ? "started (systemctl start libvirtd.service)" : "started");
    printf("uri       %s (%s)\n", rep.uri ? rep.uri : "?", rep.version ? rep.version : "?");
    for (guint k = 0; k < RV_GUEST_LIMIT_N; k++)
        if (learned->known[k])
            printf("learned   %s refused by %s since %s: guests start without it (untrusted)\n",
                   k == RV_GUEST_LIMIT_FIFO ? "SCHED_FIFO vCPUs (<vcpusched>)"
                                            : "locked memory (<memoryBacking><locked/>)",
                   daemon, learned->learned[k]);
    return RV_EXIT_OK;
}
