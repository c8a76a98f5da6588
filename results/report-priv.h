/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * results/report-priv.h: the report's model, shared by results/report.c
 * (model and page) and results/report-plot.c (gnuplot data, scripts, runs).
 */
#pragma once

#include <json-glib/json-glib.h>

#include "results/histogram.h"
#include "results/report.h"
#include "results/store.h"

/* the percentile curve's points, p50 ... p99.999 (then the max) */
#define RV_REPORT_N_CURVE 6
extern const double rv_report_curve_pcts[RV_REPORT_N_CURVE];

typedef struct {
    char *label;              /* compare's label (unique over all stores) */
    char *name;               /* the scenario's name in its store */
    guint store;
    char *status;
    char *reason;
    char *description;        /* the store's description of the scenario, or NULL */
    const char *host;         /* its store's host name (borrowed), or NULL */
} RScen;

/* one scenario of a latency group */
typedef struct {
    guint scen;               /* index into Report.scens */
    RvHistogram *hist;        /* "latency" of its ok records merged, or NULL */
    GArray *rep_max;          /* double: max_us of each ok repetition */
    JsonObject *lat;          /* compare's latency entry (borrowed), or NULL */
} RLat;

typedef struct {
    char *workload;
    char *target;             /* "-" for none, as compare has it */
    JsonObject *json;         /* compare's group (borrowed) */
    gboolean latency;         /* a latency workload (cyclictest, pert, oslat) */
    gboolean throughput;      /* metrics to plot as mean +- SEM */
    GPtrArray *lats;          /* RLat*: scenarios with ok records, compare's order */
    char *slug;               /* file-name part: "g1" */
} RGroup;

typedef struct {
    char *file;               /* "g1-hist.svg" */
    char *title;
    char *caption;            /* what to read from it, or NULL */
} RPlot;

typedef struct {
    GPtrArray *stores;        /* RvStore*, borrowed */
    JsonNode *cmp;            /* compare's JSON document */
    GPtrArray *scens;         /* RScen* */
    GPtrArray *groups;        /* RGroup* */
    char *dir;
    GPtrArray *store_dirs;    /* char*: "stores/N-BASE" per store */
    guint timeout_ms;
    gboolean multi_host;      /* the stores come from more than one host */
    guint not_passed;         /* budget verdicts that are not PASS */
} Report;

/* compare's row of @metric for scenario @label in group @g, or NULL */
JsonObject *rv_report_row(const RGroup *g, const char *metric, const char *label);

/* @metric of group @g is a rate (better "higher") in some ok record */
gboolean rv_report_metric_higher(const Report *rp, const RGroup *g, const char *metric);

/* a scenario label for a data file: quoted, with the host for fleets */
char *rv_report_plot_scen_label(const Report *rp, const char *label);

/* a number member of @o, NAN when absent or null */
double rv_report_num(JsonObject *o, const char *key);

/* the plots of group @g into @plots (RPlot*): histogram, percentile curve,
 * spread; or mean +- SEM per metric for a throughput group */
int rv_report_plot_group(Report *rp, RGroup *g, RvRunner *runner, GPtrArray *plots,
                         GError **error);

/* the trade-off plot (throughput change vs RT p99.99), when there are both */
int rv_report_plot_tradeoff(Report *rp, RvRunner *runner, GPtrArray *plots, GError **error);

void rv_report_plot_free(RPlot *p);
