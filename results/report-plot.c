/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * results/report-plot.c: the report's plots: data files, gnuplot scripts
 * and the gnuplot runs (results/report.h says what is safe where).
 */
#include <errno.h>
#include <math.h>
#include <string.h>

#include "results/report-priv.h"
#include "util/error.h"

const double rv_report_curve_pcts[RV_REPORT_N_CURVE] = { 50, 90, 99, 99.9, 99.99, 99.999 };

/* every script starts so: SVG without script or mouse code, no enhanced
 * text (a label's '_' or '^' stays as it is), white background */
static const char preamble[] =
    "# written by rtvirt report; run as: gnuplot -c THIS.gp OUT.svg DATA...\n"
    "set terminal svg size 860,420 font 'Sans,12' noenhanced background rgb 'white'\n"
    "set output ARG1\n"
    "set datafile missing '?'\n"
    "set grid ytics lc rgb '#dddddd'\n"
    "set border 3 lc rgb '#444444'\n"
    "set tics nomirror\n"
    "set key outside right top box lc rgb '#cccccc'\n"
    "set colorsequence classic\n";

char *
rv_result_report_plot_label(const char *text)
{
    GString *s = g_string_new("\"");

    for (const char *p = text ? text : ""; *p; p++) {
        unsigned char c = (unsigned char) *p;

        g_string_append_c(s, (c < 0x20 || c == 0x7f || c == '"' || c == '\\') ? '_' : (char) c);
    }
    g_string_append_c(s, '"');
    return g_string_free(s, FALSE);
}

void
rv_report_plot_free(RPlot *p)
{
    if (!p)
        return;
    g_free(p->file);
    g_free(p->title);
    g_free(p->caption);
    g_free(p);
}

static int
write_file(const char *path, const char *text, GError **error)
{
    g_autoptr(GError) local = NULL;

    if (!g_file_set_contents(path, text, -1, &local))
        return rv_error_set(error, RV_ERROR_FAILED, EIO, "Failed to write '%s': %s", path,
                            local->message);
    return 0;
}

/*
 * Writes plot/NAME.gp (@script after the preamble) and the data files
 * @data[i] as plot/NAME.dat, plot/NAME-2.dat ..., then runs
 *   gnuplot -c plot/NAME.gp NAME.svg DATA... EXTRA...
 * and adds the plot to @plots.  @extra: up to 4 strings the script reads
 * as ARGs after the data files (labels from the store travel so: gnuplot
 * does not evaluate a string variable's contents).
 */
static int
run_plot(Report *rp, RvRunner *runner, const char *name, const char *script,
         GString **data, guint n_data, const char *const *extra, const char *title,
         char *caption, GPtrArray *plots, GError **error)
{
    g_autofree char *gp = g_strdup_printf("%s/plot/%s.gp", rp->dir, name);
    g_autofree char *svg = g_strdup_printf("%s/%s.svg", rp->dir, name);
    g_autofree char *text = g_strconcat(preamble, script, NULL);
    g_autoptr(GPtrArray) argv = g_ptr_array_new_with_free_func(g_free);
    g_auto(RvRunResult) res = { 0 };
    RPlot *plot;
    int r;

    g_ptr_array_add(argv, g_strdup("gnuplot"));
    g_ptr_array_add(argv, g_strdup("-c"));
    g_ptr_array_add(argv, g_strdup(gp));
    g_ptr_array_add(argv, g_strdup(svg));
    r = write_file(gp, text, error);
    for (guint i = 0; r == 0 && i < n_data; i++) {
        char *dat = i ? g_strdup_printf("%s/plot/%s-%u.dat", rp->dir, name, i + 1)
                      : g_strdup_printf("%s/plot/%s.dat", rp->dir, name);

        g_ptr_array_add(argv, dat);
        r = write_file(dat, data[i]->str, error);
    }
    if (r < 0) {
        g_free(caption);
        return r;
    }
    for (guint i = 0; extra && extra[i]; i++)
        g_ptr_array_add(argv, g_strdup(extra[i]));
    g_ptr_array_add(argv, NULL);
    r = rv_runner_run(runner, (const char *const *) argv->pdata, NULL, rp->timeout_ms,
                      64u << 10, &res, error);
    if (r == 0 && res.exit_status != 0) {
        g_auto(GStrv) lines = g_strsplit(res.err ? res.err : "", "\n", 2);

        r = rv_error_set(error, RV_ERROR_FAILED, EIO, "gnuplot -c %s exited with status %d: %s",
                         gp, res.exit_status, lines[0] ? lines[0] : "");
    }
    if (r < 0) {
        g_free(caption);
        return r;
    }
    plot = g_new0(RPlot, 1);
    plot->file = g_strdup_printf("%s.svg", name);
    plot->title = g_strdup(title);
    plot->caption = caption;
    g_ptr_array_add(plots, plot);
    return 0;
}

static const char *
scen_label(const Report *rp, const RLat *l)
{
    return ((const RScen *) rp->scens->pdata[l->scen])->label;
}

/* a scenario's label in a data file: with its store's host when the
 * stores come from several hosts (a fleet) */
char *
rv_report_plot_scen_label(const Report *rp, const char *label)
{
    for (guint i = 0; rp->multi_host && i < rp->scens->len; i++) {
        const RScen *s = rp->scens->pdata[i];

        if (g_strcmp0(s->label, label) == 0 && s->host) {
            g_autofree char *t = g_strdup_printf("%s (%s)", label, s->host);

            return rv_result_report_plot_label(t);
        }
    }
    return rv_result_report_plot_label(label);
}

static int
plot_histogram(Report *rp, RGroup *g, RvRunner *runner, GPtrArray *plots, GError **error)
{
    g_autoptr(GString) d = g_string_new(NULL);
    g_autoptr(GString) cap = g_string_new("Samples per 1-us bucket of every ok repetition "
                                          "merged, log scale.");
    g_autofree char *name = g_strconcat(g->slug, "-hist", NULL);
    g_autofree char *n = NULL;
    g_autofree char *title = g_strdup_printf("Latency histogram: %s on %s", g->workload,
                                             g->target);
    guint blocks = 0;

    for (guint i = 0; i < g->lats->len; i++) {
        const RLat *l = g->lats->pdata[i];
        g_autofree char *lab = NULL;
        gint64 last;

        if (!l->hist)
            continue;
        if (l->hist->overflows)
            g_string_append_printf(cap, " %s: %" G_GUINT64_FORMAT " of %" G_GUINT64_FORMAT
                                   " samples beyond the histogram's %u us%s.",
                                   scen_label(rp, l), l->hist->overflows,
                                   rv_result_histogram_total(l->hist), l->hist->n_buckets,
                                   l->hist->max_us >= 0 ? "" : " (max unknown)");
        /* every sample beyond the histogram (guests nested under TCG: all
         * of them 100 ms and more): no point to draw, and gnuplot fails
         * when no block has one ("Skipping data file with no valid
         * points", exit 1) */
        if (rv_result_histogram_n_bins(l->hist) == 0)
            continue;
        lab = rv_report_plot_scen_label(rp, scen_label(rp, l));
        if (blocks++)
            g_string_append(d, "\n\n");
        g_string_append_printf(d, "%s\n", lab);
        last = rv_result_histogram_last(l->hist);
        /* zero buckets are missing points: log scale has no 0.  One "?"
         * after a bin whose next bucket is empty breaks the line as well as
         * a "?" per empty bucket would, and keeps the data in proportion to
         * the bins (a hostile store may declare 2^24 buckets). */
        for (guint k = 0; k < rv_result_histogram_n_bins(l->hist); k++) {
            const RvHistogramBin *bin = rv_result_histogram_bin(l->hist, k);
            if (k == 0 && bin->us > 0)
                g_string_append(d, "0 ?\n");
            g_string_append_printf(d, "%u %" G_GUINT64_FORMAT "\n", bin->us, bin->count);
            if (k + 1 < rv_result_histogram_n_bins(l->hist) &&
                rv_result_histogram_bin(l->hist, k + 1)->us > bin->us + 1)
                g_string_append_printf(d, "%u ?\n", bin->us + 1);
        }
        if (last < 0)
            g_string_append(d, "0 ?\n");
    }
    if (!blocks)
        return 0;
    n = g_strdup_printf("%u", blocks);
    {
        static const char script[] =
            "set logscale y\n"
            "set xlabel 'latency [us]'\n"
            "set ylabel 'samples'\n"
            "set xrange [0:*]\n"
            "plot for [i=0:int(ARG3)-1] ARG2 index i using 1:2 with linespoints pt 7 ps 0.35 "
            "lw 1.5 title columnheader(1)\n";
        const char *extra[] = { n, NULL };

        return run_plot(rp, runner, name, script, (GString *[]) { d }, 1, extra, title,
                        g_string_free(g_steal_pointer(&cap), FALSE), plots, error);
    }
}

/* x position of percentile p on the "nines" axis: p50 0.3, p99 2, p99.99 4 */
static double
nines(double p)
{
    return -log10(1.0 - p / 100.0);
}

static int
plot_percentiles(Report *rp, RGroup *g, RvRunner *runner, GPtrArray *plots, GError **error)
{
    g_autoptr(GString) d = g_string_new(NULL);
    g_autofree char *name = g_strconcat(g->slug, "-pct", NULL);
    g_autofree char *n = NULL;
    g_autofree char *title = g_strdup_printf("Latency percentiles: %s on %s", g->workload,
                                             g->target);
    gboolean any_beyond = FALSE;
    guint blocks = 0;

    for (guint i = 0; i < g->lats->len; i++) {
        const RLat *l = g->lats->pdata[i];
        g_autofree char *lab = NULL;

        if (!l->hist || rv_result_histogram_total(l->hist) == 0)
            continue;
        lab = rv_report_plot_scen_label(rp, scen_label(rp, l));
        if (blocks++)
            g_string_append(d, "\n\n");
        g_string_append_printf(d, "%s\n", lab);
        for (guint k = 0; k < RV_REPORT_N_CURVE; k++) {
            gint64 us;
            gboolean beyond = FALSE;

            if (rv_result_histogram_percentile(l->hist, rv_report_curve_pcts[k], &us, &beyond,
                                               NULL) < 0)
                continue;
            any_beyond |= beyond;
            g_string_append_printf(d, "%.6f %" G_GINT64_FORMAT " %d\n",
                                   nines(rv_report_curve_pcts[k]), us, beyond ? 1 : 0);
        }
        if (l->hist->max_us >= 0)
            g_string_append_printf(d, "6 %" G_GINT64_FORMAT " 0\n", l->hist->max_us);
    }
    if (!blocks)
        return 0;
    n = g_strdup_printf("%u", blocks);
    {
        static const char script[] =
            "set logscale y\n"
            "set xlabel 'percentile'\n"
            "set ylabel 'latency [us]'\n"
            "set xrange [0:6.4]\n"
            "set xtics ('p50' 0.30103, 'p90' 1, 'p99' 2, 'p99.9' 3, 'p99.99' 4, "
            "'p99.999' 5, 'max' 6)\n"
            "plot for [i=0:int(ARG3)-1] ARG2 index i using 1:2 with linespoints pt 7 ps 0.8 "
            "lw 1.5 title columnheader(1), \\\n"
            "     for [i=0:int(ARG3)-1] ARG2 index i using 1:($3 > 0 ? $2 : 1/0) with points "
            "pt 6 ps 2 lc rgb '#000000' notitle\n";
        const char *extra[] = { n, NULL };
        char *cap = g_strdup_printf("Nearest-rank percentiles of the merged histograms; the "
                                    "axis spaces p50, p90, p99 ... by their nines.%s",
                                    any_beyond ? " A ringed point lies beyond the histogram's "
                                    "range: the value shown is the recorded max, an upper "
                                    "bound (compare prints it as <=MAX)." : "");

        return run_plot(rp, runner, name, script, (GString *[]) { d }, 1, extra, title, cap,
                        plots, error);
    }
}

static int
plot_spread(Report *rp, RGroup *g, RvRunner *runner, GPtrArray *plots, GError **error)
{
    g_autoptr(GString) reps = g_string_new(NULL);
    g_autoptr(GString) means = g_string_new(NULL);
    g_autofree char *name = g_strconcat(g->slug, "-spread", NULL);
    g_autofree char *n = NULL;
    g_autofree char *title = g_strdup_printf("Max latency of each repetition: %s on %s",
                                             g->workload, g->target);
    guint cols = 0;

    for (guint i = 0; i < g->lats->len; i++) {
        const RLat *l = g->lats->pdata[i];
        g_autofree char *lab = rv_report_plot_scen_label(rp, scen_label(rp, l));
        JsonObject *row = rv_report_row(g, "max_us", scen_label(rp, l));
        double mean = row ? rv_report_num(row, "mean") : NAN;

        if (!l->rep_max->len)
            continue;
        for (guint k = 0; k < l->rep_max->len; k++) {
            /* a small spread in x so that equal values stay visible */
            double dx = l->rep_max->len > 1 ? 0.24 * ((double) k / (l->rep_max->len - 1) - 0.5)
                                            : 0;
            g_string_append_printf(reps, "%.4f %.17g\n", cols + dx,
                                   g_array_index(l->rep_max, double, k));
        }
        if (isfinite(mean))
            g_string_append_printf(means, "%u %.17g %s\n", cols, mean, lab);
        else
            g_string_append_printf(means, "%u ? %s\n", cols, lab);
        cols++;
    }
    if (!cols)
        return 0;
    n = g_strdup_printf("%u", cols);
    {
        static const char script[] =
            "set xrange [-0.6:int(ARG4)-0.4]\n"
            "set yrange [0:*]\n"
            "set ylabel 'max latency [us]'\n"
            "set xtics rotate by -20\n"
            "plot ARG2 using 1:2 with points pt 7 ps 1.1 lc rgb '#1f77b4' "
            "title 'max of one repetition', \\\n"
            "     ARG3 using 1:2:xtic(3) with points pt 3 ps 3 lw 2 lc rgb '#d62728' "
            "title 'mean (compare)'\n";
        const char *extra[] = { n, NULL };
        char *cap = g_strdup("Each dot is one repetition's max_us; the cross is the mean "
                             "compare reports.  Dots far apart: the tail is not stable "
                             "between repetitions; more repetitions or longer runs help.");

        return run_plot(rp, runner, name, script, (GString *[]) { reps, means }, 2, extra,
                        title, cap, plots, error);
    }
}

/* one plot per metric: mean with SEM error bars per scenario */
static int
plot_throughput(Report *rp, RGroup *g, RvRunner *runner, GPtrArray *plots, GError **error)
{
    JsonArray *metrics = json_object_get_array_member(g->json, "metrics");

    for (guint m = 0; metrics && m < json_array_get_length(metrics); m++) {
        JsonObject *mo = json_array_get_object_element(metrics, m);
        JsonArray *rows = json_object_get_array_member(mo, "rows");
        const char *metric = json_object_get_string_member_with_default(mo, "name", "?");
        const char *unit = json_object_get_string_member_with_default(mo, "unit", NULL);
        g_autoptr(GString) d = g_string_new(NULL);
        g_autofree char *name = g_strdup_printf("%s-m%u", g->slug, m + 1);
        g_autofree char *title = g_strdup_printf("%s of %s on %s: mean +- SEM", metric,
                                                 g->workload, g->target);
        g_autofree char *ylabel = unit ? g_strdup_printf("%s [%s]", metric, unit)
                                       : g_strdup(metric);
        g_autofree char *n = NULL;
        guint cols = 0;
        int r;

        for (guint i = 0; rows && i < json_array_get_length(rows); i++) {
            JsonObject *row = json_array_get_object_element(rows, i);
            double mean = rv_report_num(row, "mean"), sem = rv_report_num(row, "sem");
            g_autofree char *lab = rv_report_plot_scen_label(
                rp, json_object_get_string_member_with_default(row, "scenario", ""));

            if (!isfinite(mean))
                continue;
            g_string_append_printf(d, "%u %.17g %.17g %s\n", cols++, mean,
                                   isfinite(sem) ? sem : 0.0, lab);
        }
        if (!cols)
            continue;
        n = g_strdup_printf("%u", cols);
        {
            static const char script[] =
                "set xrange [-0.6:int(ARG3)-0.4]\n"
                "set ylabel ARG4\n"
                "set xtics rotate by -20\n"
                "set key off\n"
                "set offsets 0, 0, graph 0.1, graph 0.1\n"
                "plot ARG2 using 1:2:3:xtic(4) with yerrorbars pt 7 ps 1.4 lw 2 "
                "lc rgb '#1f77b4'\n";
            const char *extra[] = { n, ylabel, NULL };

            r = run_plot(rp, runner, name, script, (GString *[]) { d }, 1, extra, title,
                         g_strdup("Dots: compare's figure over the ok repetitions (the mean, "
                                  "or the metric's aggregate); whiskers: +- one standard error "
                                  "of the mean (compare's SEM; none for n < 2).  The y axis "
                                  "does not start at 0."),
                         plots, error);
        }
        if (r < 0)
            return r;
    }
    return 0;
}

int
rv_report_plot_group(Report *rp, RGroup *g, RvRunner *runner, GPtrArray *plots,
                     GError **error)
{
    int r = 0;

    if (g->latency) {
        r = plot_histogram(rp, g, runner, plots, error);
        if (r == 0)
            r = plot_percentiles(rp, g, runner, plots, error);
        if (r == 0)
            r = plot_spread(rp, g, runner, plots, error);
    } else if (g->throughput) {
        r = plot_throughput(rp, g, runner, plots, error);
    }
    return r;
}

/* p99.99 of scenario @label in the first latency group, NAN when none */
static double
rt_p9999(const Report *rp, const char *label)
{
    for (guint i = 0; i < rp->groups->len; i++) {
        const RGroup *g = rp->groups->pdata[i];

        if (!g->latency)
            continue;
        for (guint k = 0; k < g->lats->len; k++) {
            const RLat *l = g->lats->pdata[k];

            if (l->lat && strcmp(scen_label(rp, l), label) == 0)
                return rv_report_num(l->lat, "p99_99");
        }
        return NAN;
    }
    return NAN;
}

int
rv_report_plot_tradeoff(Report *rp, RvRunner *runner, GPtrArray *plots, GError **error)
{
    g_autoptr(GString) d = g_string_new(NULL);
    g_autofree char *n = NULL;
    guint blocks = 0;

    for (guint i = 0; i < rp->groups->len; i++) {
        const RGroup *g = rp->groups->pdata[i];
        JsonArray *metrics;

        if (!g->throughput)
            continue;
        metrics = json_object_get_array_member(g->json, "metrics");
        for (guint m = 0; metrics && m < json_array_get_length(metrics); m++) {
            JsonObject *mo = json_array_get_object_element(metrics, m);
            JsonArray *rows = json_object_get_array_member(mo, "rows");
            const char *mname = json_object_get_string_member_with_default(mo, "name", "?");
            g_autofree char *series = NULL;
            g_autofree char *lab = NULL;
            guint points = 0;

            /* rates only (better "higher"): a time or cpu_pct is no throughput */
            if (!rv_report_metric_higher(rp, g, mname))
                continue;
            series = g_strdup_printf("%s %s", g->workload, mname);
            lab = rv_result_report_plot_label(series);
            for (guint k = 0; rows && k < json_array_get_length(rows); k++) {
                JsonObject *row = json_array_get_object_element(rows, k);
                const char *scen = json_object_get_string_member_with_default(row, "scenario", "");
                double change = rv_report_num(row, "change_pct");
                double y = rt_p9999(rp, scen);
                g_autofree char *sl = rv_report_plot_scen_label(rp, scen);

                /* the baseline is the origin of the change axis */
                if (!isfinite(change) && isfinite(rv_report_num(row, "mean")) &&
                    g_strcmp0(json_object_get_string_member_with_default(row, "untested", NULL),
                              "baseline") == 0)
                    change = 0;
                if (!isfinite(change) || !isfinite(y))
                    continue;
                if (!points++)
                    g_string_append_printf(d, "%s%s\n", blocks++ ? "\n\n" : "", lab);
                g_string_append_printf(d, "%.17g %.17g %s\n", change, y, sl);
            }
        }
    }
    if (!blocks)
        return 0;
    n = g_strdup_printf("%u", blocks);
    {
        static const char script[] =
            "set xlabel 'throughput change vs baseline [%]'\n"
            "set ylabel 'RT p99.99 [us]'\n"
            "set offsets graph 0.15, graph 0.15, graph 0.15, graph 0.15\n"
            "plot for [i=0:int(ARG3)-1] ARG2 index i using 1:2 with points pt 7 ps 1.5 "
            "title columnheader(1), \\\n"
            "     for [i=0:int(ARG3)-1] ARG2 index i using 1:2:3 with labels offset 1,1 left "
            "notitle\n";
        const char *extra[] = { n, NULL };

        return run_plot(rp, runner, "tradeoff", script, (GString *[]) { d }, 1, extra,
                        "Trade-off: throughput change vs RT tail latency",
                        g_strdup("One point per scenario and throughput metric: x is the "
                                 "change of the metric's mean against the baseline (compare's "
                                 "change), y the RT guest's p99.99 of the first latency group. "
                                 "Lower is better on y; on x it depends on the metric."),
                        plots, error);
    }
}
