/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * harness/cmd-pert.c: `rtvirt pert`, the perturbation probe.
 */
#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include <json-glib/json-glib.h>

#include "harness/cmd-common.h"
#include "harness/commands.h"
#include "harness/log.h"
#include "host/trace/pert.h"
#include "results/pert.h"
#include "util/error.h"
#include "util/json.h"
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
    bool text;           /* the per-second lines on stdout */
} PrintCtx;

static void
print_second(const RvPertSecond *s, gpointer user_data)
{
    PrintCtx *ctx = user_data;
    if (ctx->text) {
        g_autofree char *line = rv_result_pert_format_second(s);

        printf("%s\n", line);
        fflush(stdout);
    }
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

static int arg_cpu = G_MININT, arg_prio = G_MININT;   /* G_MININT: not given */
static char *arg_threshold, *arg_output, *arg_old_duration;
static gboolean arg_histogram, arg_raw;

static const RvCmdSpec pert_spec = {
    .params = "- perturbation probe on one CPU",
    .description =
        "Spins on CPU reading the TSC (or CLOCK_MONOTONIC_RAW where the TSC is not\n"
        "usable) and counts every gap above the threshold as a perturbation. Each\n"
        "second it prints\n"
        "  pert/s: N >Xus: K min: A max: B avg: C sum/s: Sus overhead: P%\n"
        "(perturbations; how many were longer than X = mean + 3 stddev of all\n"
        "earlier ones; their min/max/avg length in us; time stolen; its share).\n"
        "--json prints only the JSON document (schema_version, seconds, summary)\n"
        "on stdout; --output FILE writes it to FILE beside the text.  The old\n"
        "spellings -D TIME and --json FILE still work.",
    .exit_status = "0 done, 2 error (bad CPU, option).",
    .common = RV_COMMON_JSON | RV_COMMON_DURATION,
    .duration_help = "How long: 10s, 1m, 500ms (default 10s)",
};

/* The spellings before doc/cli.md: `--json FILE` (and -j FILE, --json=FILE)
 * wrote the document to FILE; `--json -` wrote a file named '-'.  Now
 * --json is stdout and --output FILE the file: rewrite the old form in
 * place (harness/run.c and scripts still use it). */
static void
rewrite_old_json(int argc, char **argv)
{
    for (int i = 1; i < argc; i++) {
        if (g_str_has_prefix(argv[i], "--json=")) {
            argv[i] = g_strdup_printf("--output=%s", argv[i] + 7);   /* lives as argv */
        } else if ((strcmp(argv[i], "--json") == 0 || strcmp(argv[i], "-j") == 0) &&
                   i + 1 < argc) {
            if (strcmp(argv[i + 1], "-") == 0) {
                argv[i] = (char *) "--json";
                argv[i + 1] = (char *) "--json";   /* stdout, given twice */
            } else if (argv[i + 1][0] != '-') {
                argv[i] = (char *) "--output";
            }
        }
    }
}

/* Options into @opt and @dur_us; a bad one is logged, exit 2. */
static int
check_options(const char *prog, RvPertOptions *opt, guint64 *dur_us)
{
    const char *duration = rv_cmd_common.duration ? rv_cmd_common.duration : arg_old_duration;

    if (arg_cpu == G_MININT) {
        rv_log_error("%s: -c CPU is required", prog);
        return RV_EXIT_ERROR;
    }
    if (arg_cpu < 0) {
        rv_log_error("%s: invalid CPU %d: expected a CPU number >= 0", prog, arg_cpu);
        return RV_EXIT_ERROR;
    }
    if (duration && (rv_parse_duration_us(duration, dur_us) < 0 || *dur_us == 0)) {
        rv_log_error("%s: invalid duration '%s': expected e.g. 10s, 1m, 500ms", prog, duration);
        return RV_EXIT_ERROR;
    }
    if (arg_threshold && strcmp(arg_threshold, "auto") != 0) {
        char *end = NULL;
        double v = g_ascii_strtod(arg_threshold, &end);

        if (end == arg_threshold || *end || !(v > 0) || v > 1e6) {
            rv_log_error("%s: invalid threshold '%s': expected microseconds > 0 or 'auto'",
                         prog, arg_threshold);
            return RV_EXIT_ERROR;
        }
        opt->threshold_us = v;
    }
    if (arg_prio != G_MININT && (arg_prio < 1 || arg_prio > 99)) {
        rv_log_error("%s: invalid priority %d: expected 1-99 (omit -p to leave the scheduling "
                     "policy)", prog, arg_prio);
        return RV_EXIT_ERROR;
    }
    if (arg_output) {
        /* g_file_set_contents() writes a temporary file in the directory
         * and renames it: the directory must exist and be writable, checked
         * now rather than after the whole measurement */
        g_autofree char *dir = g_path_get_dirname(arg_output);

        if (g_file_test(arg_output, G_FILE_TEST_IS_DIR)) {
            rv_log_error("%s: invalid --output '%s': a directory", prog, arg_output);
            return RV_EXIT_ERROR;
        }
        if (!g_file_test(dir, G_FILE_TEST_IS_DIR)) {
            rv_log_error("%s: invalid --output '%s': directory '%s' does not exist", prog,
                         arg_output, dir);
            return RV_EXIT_ERROR;
        }
        if (access(dir, W_OK | X_OK) < 0) {
            rv_log_error("%s: invalid --output '%s': directory '%s' is not writable: %s", prog,
                         arg_output, dir, g_strerror(errno));
            return RV_EXIT_ERROR;
        }
    }
    opt->cpu = arg_cpu;
    opt->duration_ns = *dur_us * 1000;
    opt->fifo_prio = arg_prio == G_MININT ? 0 : arg_prio;
    opt->force_raw_clock = arg_raw;
    opt->stop = &pert_stop;
    return 0;
}

static void
print_summary(const RvPertSummary *sum)
{
    printf("# total: pert: %" G_GUINT64_FORMAT " min: %.2f max: %.2f avg: %.2f stddev: %.2f "
           "sum: %.0fus in %.3fs overhead: %.3f%%\n",
           sum->count, sum->min_us, sum->max_us, sum->count ? sum->sum_us / sum->count : 0,
           sum->stddev_us, sum->sum_us, sum->duration_us / 1e6,
           sum->duration_us > 0 ? 100 * sum->sum_us / sum->duration_us : 0);
    if (arg_histogram) {
        printf("# histogram: length_us count\n");
        for (unsigned i = 0; i < RV_PERT_HIST_US; i++)
            if (sum->hist[i])
                printf("%6u %" G_GUINT64_FORMAT "\n", i, sum->hist[i]);
        printf("# overflows (>= %d us): %" G_GUINT64_FORMAT "\n", RV_PERT_HIST_US,
               sum->hist_overflow);
    }
}

/* Ends the document @json began with "seconds": the setup and summary. */
static JsonNode *
finish_json(JsonBuilder *json, const RvPertOptions *opt, const RvPertSetup *setup,
            const RvPertSummary *sum)
{
    json_builder_end_array(json);
    json_builder_set_member_name(json, "schema_version");
    json_builder_add_int_value(json, 1);
    json_builder_set_member_name(json, "tool");
    json_builder_add_string_value(json, "rtvirt pert");
    json_builder_set_member_name(json, "cpu");
    json_builder_add_int_value(json, opt->cpu);
    json_builder_set_member_name(json, "clock");
    json_builder_add_string_value(json, setup->clock == RV_PERT_CLOCK_TSC ? "tsc"
                                                                          : "monotonic_raw");
    json_builder_set_member_name(json, "clock_reason");
    json_builder_add_string_value(json, setup->clock_reason);
    json_builder_set_member_name(json, "tsc_hz");
    json_builder_add_double_value(json, setup->tsc_hz);
    json_builder_set_member_name(json, "resolution_ns");
    json_builder_add_double_value(json, setup->resolution_ns);
    json_builder_set_member_name(json, "loop_period_ns");
    json_builder_add_double_value(json, setup->loop_ns);
    json_builder_set_member_name(json, "threshold_us");
    json_builder_add_double_value(json, setup->threshold_us);
    json_builder_set_member_name(json, "warnings");
    json_builder_begin_array(json);
    for (guint i = 0; i < setup->warnings->len; i++)
        json_builder_add_string_value(json, setup->warnings->pdata[i]);
    json_builder_end_array(json);
    json_builder_set_member_name(json, "summary");
    json_builder_begin_object(json);
    rv_result_pert_summary_to_json(sum, TRUE, json);
    json_builder_end_object(json);
    json_builder_end_object(json);
    return json_builder_get_root(json);
}

int
rv_cmd_pert(int argc, char **argv)
{
    const GOptionEntry entries[] = {
        { "cpu", 'c', 0, G_OPTION_ARG_INT, &arg_cpu, "CPU to measure (required)", "CPU" },
        { "threshold", 't', 0, G_OPTION_ARG_STRING, &arg_threshold,
          "Detection threshold in us, or 'auto' (10 x loop period, at least 0.25 us; default)",
          "US|auto" },
        { "prio", 'p', 0, G_OPTION_ARG_INT, &arg_prio,
          "Run as SCHED_FIFO with this priority, 1-99 (default: leave the scheduling policy)", "N" },
        { "output", 'o', 0, G_OPTION_ARG_FILENAME, &arg_output,
          "Also write the JSON document to FILE (the text stays on stdout)", "FILE" },
        { "histogram", 0, 0, G_OPTION_ARG_NONE, &arg_histogram,
          "Print a histogram of perturbation lengths (1 us buckets)", NULL },
        { "raw-clock", 0, 0, G_OPTION_ARG_NONE, &arg_raw,
          "Use CLOCK_MONOTONIC_RAW even where the TSC is usable", NULL },
        { "old-duration", 'D', G_OPTION_FLAG_HIDDEN, G_OPTION_ARG_STRING, &arg_old_duration,
          "Old spelling of --duration", "TIME" },
        { NULL }
    };
    g_autoptr(GError) err = NULL;
    g_autoptr(RvRoot) root = NULL;
    g_autoptr(RvPertAccount) acct = NULL;
    g_autoptr(JsonBuilder) json = NULL;
    g_autoptr(JsonNode) node = NULL;
    g_auto(RvPertSetup) setup = { 0 };
    RvPertOptions opt = { 0 };
    RvPertSummary sum;
    PrintCtx pctx = { 0 };
    guint64 dur_us = 10000000;
    struct sigaction sa = { .sa_handler = on_signal };
    bool text;

    rewrite_old_json(argc, argv);
    if (rv_cmd_parse(&pert_spec, entries, &argc, &argv) < 0)
        return RV_EXIT_ERROR;
    if (argc > 1) {
        rv_log_error("%s: unexpected argument '%s'", argv[0], argv[1]);
        return RV_EXIT_ERROR;
    }
    if (check_options(argv[0], &opt, &dur_us) != 0)
        return RV_EXIT_ERROR;
    text = !rv_cmd_common.json;   /* --json: stdout is the document alone */

    if (rv_host_root_open("/", &root, &err) < 0)
        return rv_log_gerror(err, NULL);
    if (rv_host_pert_prepare(root, &opt, &setup, &err) < 0)
        return rv_log_gerror(err, NULL);
    for (guint i = 0; i < setup.warnings->len; i++)
        rv_log_warn("%s", (const char *) setup.warnings->pdata[i]);

    if (text) {
        printf("# rtvirt pert: CPU %d, %s", opt.cpu, setup.clock_reason);
        if (setup.clock == RV_PERT_CLOCK_TSC)
            printf(", %.3f GHz", setup.tsc_hz / 1e9);
        printf(", resolution %.2f ns\n", setup.resolution_ns);
        printf("# loop period %.1f ns (min %.1f ns), threshold %.2f us%s, duration %.1f s\n",
               setup.loop_ns, setup.loop_min_ns, setup.threshold_us,
               setup.threshold_auto ? " (auto)" : "", dur_us / 1e6);
        fflush(stdout);
    }

    sigaction(SIGINT, &sa, NULL);
    sigaction(SIGTERM, &sa, NULL);
    if (arg_output || rv_cmd_common.json) {
        json = json_builder_new();
        json_builder_begin_object(json);
        json_builder_set_member_name(json, "seconds");
        json_builder_begin_array(json);
        pctx.json = json;
    }
    pctx.text = text;
    acct = rv_result_pert_new(1000000000ull);
    (void) rv_host_pert_run(&setup, &opt, acct, print_second, &pctx);
    rv_result_pert_summary(acct, &sum);
    if (text)
        print_summary(&sum);
    if (!json)
        return RV_EXIT_OK;
    node = finish_json(json, &opt, &setup, &sum);
    if (arg_output) {
        g_autofree char *doc = rv_json_to_text(node);

        if (!g_file_set_contents(arg_output, doc, -1, &err)) {
            rv_log_error("Failed to write '%s': %s", arg_output, err->message);
            return RV_EXIT_ERROR;
        }
    }
    if (rv_cmd_common.json && rv_cmd_print_json(node) < 0)
        return RV_EXIT_ERROR;
    return RV_EXIT_OK;
}
