/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * harness/cmd-pert.c: `rtvirt pert`, the perturbation probe (issue 5).
 */
#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include <json-glib/json-glib.h>

#include "harness/commands.h"
#include "harness/log.h"
#include "host/pert.h"
#include "results/pert.h"
#include "util/error.h"
#include "util/units.h"

static volatile sig_atomic_t pert_stop;

static void
on_signal(int sig)
{
    (void) sig;
    pert_stop = 1;
}

typedef struct {
    JsonBuilder *json;   /* nullable */
} PrintCtx;

static void
print_second(const RvPertSecond *s, gpointer user_data)
{
    PrintCtx *ctx = user_data;
    g_autofree char *line = rv_result_pert_format_second(s);

    printf("%s\n", line);
    fflush(stdout);
    if (!ctx->json)
        return;
    json_builder_begin_object(ctx->json);
    json_builder_set_member_name(ctx->json, "second");
    json_builder_add_int_value(ctx->json, (gint64) s->index);
    json_builder_set_member_name(ctx->json, "count");
    json_builder_add_int_value(ctx->json, (gint64) s->count);
    json_builder_set_member_name(ctx->json, "outlier_threshold_us");
    json_builder_add_double_value(ctx->json, s->outlier_us);
    json_builder_set_member_name(ctx->json, "outliers");
    json_builder_add_int_value(ctx->json, (gint64) s->outliers);
    json_builder_set_member_name(ctx->json, "min_us");
    json_builder_add_double_value(ctx->json, s->min_us);
    json_builder_set_member_name(ctx->json, "max_us");
    json_builder_add_double_value(ctx->json, s->max_us);
    json_builder_set_member_name(ctx->json, "sum_us");
    json_builder_add_double_value(ctx->json, s->sum_us);
    json_builder_set_member_name(ctx->json, "window_us");
    json_builder_add_double_value(ctx->json, s->window_us);
    json_builder_end_object(ctx->json);
}

int
rv_cmd_pert(int argc, char **argv)
{
    int arg_cpu = G_MININT, arg_prio = G_MININT;   /* G_MININT: not given */
    g_autofree char *arg_duration = NULL, *arg_threshold = NULL, *arg_json = NULL;
    gboolean arg_histogram = FALSE, arg_raw = FALSE;
    GOptionEntry entries[] = {
        { "cpu", 'c', 0, G_OPTION_ARG_INT, &arg_cpu, "CPU to measure (required)", "CPU" },
        { "duration", 'D', 0, G_OPTION_ARG_STRING, &arg_duration,
          "How long: 10s, 1m, 500ms (default 10s)", "DURATION" },
        { "threshold", 't', 0, G_OPTION_ARG_STRING, &arg_threshold,
          "Detection threshold in us, or 'auto' (10 x loop period, at least 0.25 us; default)",
          "US|auto" },
        { "prio", 'p', 0, G_OPTION_ARG_INT, &arg_prio,
          "Run as SCHED_FIFO with this priority, 1-99 (default: leave the scheduling policy)", "N" },
        { "json", 'j', 0, G_OPTION_ARG_FILENAME, &arg_json, "Write per-second records and the "
          "summary as JSON to FILE", "FILE" },
        { "histogram", 'H', 0, G_OPTION_ARG_NONE, &arg_histogram,
          "Print a histogram of perturbation lengths (1 us buckets)", NULL },
        { "raw-clock", 0, 0, G_OPTION_ARG_NONE, &arg_raw,
          "Use CLOCK_MONOTONIC_RAW even where the TSC is usable", NULL },
        { NULL }
    };
    g_autoptr(GOptionContext) ctx = g_option_context_new("- perturbation probe on one CPU");
    g_autoptr(GError) err = NULL;
    g_autoptr(RvRoot) root = NULL;
    g_autoptr(RvPertAccount) acct = NULL;
    g_autoptr(JsonBuilder) json = NULL;
    g_auto(RvPertSetup) setup = { 0 };
    RvPertOptions opt = { 0 };
    RvPertSummary sum;
    PrintCtx pctx = { 0 };
    guint64 dur_us = 10000000;
    struct sigaction sa = { .sa_handler = on_signal };

    g_option_context_add_main_entries(ctx, entries, NULL);
    g_option_context_set_description(ctx,
        "Spins on CPU reading the TSC (or CLOCK_MONOTONIC_RAW where the TSC is not\n"
        "usable) and counts every gap above the threshold as a perturbation. Each\n"
        "second it prints\n"
        "  pert/s: N >Xus: K min: A max: B avg: C sum/s: Sus overhead: P%\n"
        "(perturbations; how many were longer than X = mean + 3 stddev of all\n"
        "earlier ones; their min/max/avg length in us; time stolen; its share).\n"
        "Exit status: 0 done, 2 error (bad CPU, option).");
    if (!g_option_context_parse(ctx, &argc, &argv, &err))
        return rv_log_gerror(err, NULL);
    if (argc > 1) {
        rv_log_error("%s: unexpected argument '%s'", argv[0], argv[1]);
        return RV_EXIT_ERROR;
    }
    if (arg_cpu == G_MININT) {
        rv_log_error("%s: -c CPU is required", argv[0]);
        return RV_EXIT_ERROR;
    }
    if (arg_cpu < 0) {
        rv_log_error("%s: invalid CPU %d: expected a CPU number >= 0", argv[0], arg_cpu);
        return RV_EXIT_ERROR;
    }
    if (arg_duration && (rv_parse_duration_us(arg_duration, &dur_us) < 0 || dur_us == 0)) {
        rv_log_error("%s: invalid duration '%s': expected e.g. 10s, 1m, 500ms", argv[0],
                     arg_duration);
        return RV_EXIT_ERROR;
    }
    if (arg_threshold && strcmp(arg_threshold, "auto") != 0) {
        char *end = NULL;
        double v = g_ascii_strtod(arg_threshold, &end);

        if (end == arg_threshold || *end || !(v > 0) || v > 1e6) {
            rv_log_error("%s: invalid threshold '%s': expected microseconds > 0 or 'auto'",
                         argv[0], arg_threshold);
            return RV_EXIT_ERROR;
        }
        opt.threshold_us = v;
    }
    if (arg_prio != G_MININT && (arg_prio < 1 || arg_prio > 99)) {
        rv_log_error("%s: invalid priority %d: expected 1-99 (omit -p to leave the scheduling "
                     "policy)", argv[0], arg_prio);
        return RV_EXIT_ERROR;
    }
    if (arg_json) {
        /* g_file_set_contents() writes a temporary file in the directory
         * and renames it: the directory must exist and be writable, checked
         * now rather than after the whole measurement */
        g_autofree char *dir = g_path_get_dirname(arg_json);

        if (g_file_test(arg_json, G_FILE_TEST_IS_DIR)) {
            rv_log_error("%s: invalid --json '%s': a directory", argv[0], arg_json);
            return RV_EXIT_ERROR;
        }
        if (!g_file_test(dir, G_FILE_TEST_IS_DIR)) {
            rv_log_error("%s: invalid --json '%s': directory '%s' does not exist", argv[0],
                         arg_json, dir);
            return RV_EXIT_ERROR;
        }
        if (access(dir, W_OK | X_OK) < 0) {
            rv_log_error("%s: invalid --json '%s': directory '%s' is not writable: %s", argv[0],
                         arg_json, dir, g_strerror(errno));
            return RV_EXIT_ERROR;
        }
    }
    opt.cpu = arg_cpu;
    opt.duration_ns = dur_us * 1000;
    opt.fifo_prio = arg_prio == G_MININT ? 0 : arg_prio;
    opt.force_raw_clock = arg_raw;
    opt.stop = &pert_stop;

    if (rv_host_root_open("/", &root, &err) < 0)
        return rv_log_gerror(err, NULL);
    if (rv_host_pert_prepare(root, &opt, &setup, &err) < 0)
        return rv_log_gerror(err, NULL);
    for (guint i = 0; i < setup.warnings->len; i++)
        rv_log_warn("%s", (const char *) setup.warnings->pdata[i]);

    printf("# rtvirt pert: CPU %d, %s", opt.cpu, setup.clock_reason);
    if (setup.clock == RV_PERT_CLOCK_TSC)
        printf(", %.3f GHz", setup.tsc_hz / 1e9);
    printf(", resolution %.2f ns\n", setup.resolution_ns);
    printf("# loop period %.1f ns (min %.1f ns), threshold %.2f us%s, duration %.1f s\n",
           setup.loop_ns, setup.loop_min_ns, setup.threshold_us,
           setup.threshold_auto ? " (auto)" : "", dur_us / 1e6);
    fflush(stdout);

    sigaction(SIGINT, &sa, NULL);
    sigaction(SIGTERM, &sa, NULL);
    if (arg_json) {
        json = json_builder_new();
        json_builder_begin_object(json);
        json_builder_set_member_name(json, "seconds");
        json_builder_begin_array(json);
        pctx.json = json;
    }
    acct = rv_result_pert_new(1000000000ull);
    (void) rv_host_pert_run(&setup, &opt, acct, print_second, &pctx);
    rv_result_pert_summary(acct, &sum);

    printf("# total: pert: %" G_GUINT64_FORMAT " min: %.2f max: %.2f avg: %.2f stddev: %.2f "
           "sum: %.0fus in %.3fs overhead: %.3f%%\n",
           sum.count, sum.min_us, sum.max_us, sum.count ? sum.sum_us / sum.count : 0,
           sum.stddev_us, sum.sum_us, sum.duration_us / 1e6,
           sum.duration_us > 0 ? 100 * sum.sum_us / sum.duration_us : 0);
    if (arg_histogram) {
        printf("# histogram: length_us count\n");
        for (unsigned i = 0; i < RV_PERT_HIST_US; i++)
            if (sum.hist[i])
                printf("%6u %" G_GUINT64_FORMAT "\n", i, sum.hist[i]);
        printf("# overflows (>= %d us): %" G_GUINT64_FORMAT "\n", RV_PERT_HIST_US,
               sum.hist_overflow);
    }

    if (json) {
        g_autoptr(JsonGenerator) gen = json_generator_new();
        g_autoptr(JsonNode) node = NULL;
        g_autofree char *text = NULL;

        json_builder_end_array(json);
        json_builder_set_member_name(json, "schema_version");
        json_builder_add_int_value(json, 1);
        json_builder_set_member_name(json, "tool");
        json_builder_add_string_value(json, "rtvirt pert");
        json_builder_set_member_name(json, "cpu");
        json_builder_add_int_value(json, opt.cpu);
        json_builder_set_member_name(json, "clock");
        json_builder_add_string_value(json, setup.clock == RV_PERT_CLOCK_TSC ? "tsc"
                                                                             : "monotonic_raw");
        json_builder_set_member_name(json, "clock_reason");
        json_builder_add_string_value(json, setup.clock_reason);
        json_builder_set_member_name(json, "tsc_hz");
        json_builder_add_double_value(json, setup.tsc_hz);
        json_builder_set_member_name(json, "resolution_ns");
        json_builder_add_double_value(json, setup.resolution_ns);
        json_builder_set_member_name(json, "loop_period_ns");
        json_builder_add_double_value(json, setup.loop_ns);
        json_builder_set_member_name(json, "threshold_us");
        json_builder_add_double_value(json, setup.threshold_us);
        json_builder_set_member_name(json, "warnings");
        json_builder_begin_array(json);
        for (guint i = 0; i < setup.warnings->len; i++)
            json_builder_add_string_value(json, setup.warnings->pdata[i]);
        json_builder_end_array(json);
        json_builder_set_member_name(json, "summary");
        json_builder_begin_object(json);
        rv_result_pert_summary_to_json(&sum, TRUE, json);
        json_builder_end_object(json);
        json_builder_end_object(json);
        node = json_builder_get_root(json);
        json_generator_set_root(gen, node);
        json_generator_set_pretty(gen, TRUE);
        text = json_generator_to_data(gen, NULL);
        if (!g_file_set_contents(arg_json, text, -1, &err)) {
            rv_log_error("Failed to write '%s': %s", arg_json, err->message);
            return RV_EXIT_ERROR;
        }
    }
    return RV_EXIT_OK;
}
