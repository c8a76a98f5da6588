/* SPDX-License-Identifier: GPL-2.0-or-later */
#include <math.h>
#include <string.h>

#include "results/pert.h"

struct RvPertAccount {
    guint64 window_ns;
    guint64 cur_index;      /* window being filled */
    RvPertSecond cur;
    /* Totals, with Welford's running mean and M2 of every length added so
     * far.  A window's outlier threshold is taken from them when the window
     * opens, so it only uses what was seen before that window began. */
    RvPertSummary total;
    double m2_total;
};

static double
outlier_threshold(const RvPertAccount *a)
{
    if (a->total.count < 2)
        return 0;
    return a->total.mean_us + 3 * sqrt(a->m2_total / (a->total.count - 1));
}

static void
open_window(RvPertAccount *a, guint64 index)
{
    memset(&a->cur, 0, sizeof(a->cur));
    a->cur.index = index;
    a->cur.window_us = a->window_ns / 1000.0;
    a->cur.outlier_us = outlier_threshold(a);
    a->cur_index = index;
}

RvPertAccount *
rv_result_pert_new(guint64 window_ns)
{
    RvPertAccount *a = g_new0(RvPertAccount, 1);

    a->window_ns = window_ns ? window_ns : G_GUINT64_CONSTANT(1000000000);
    open_window(a, 0);
    return a;
}

void
rv_result_pert_free(RvPertAccount *acct)
{
    g_free(acct);
}

static void
close_window(RvPertAccount *a, GArray *out, double window_us)
{
    a->cur.window_us = window_us;
    if (out)
        g_array_append_val(out, a->cur);
}

void
rv_result_pert_advance(RvPertAccount *a, guint64 t_ns, gboolean final, GArray *out)
{
    guint64 idx = t_ns / a->window_ns;

    while (a->cur_index < idx) {
        close_window(a, out, a->window_ns / 1000.0);
        open_window(a, a->cur_index + 1);
    }
    if (final) {
        double part = (t_ns - a->cur_index * a->window_ns) / 1000.0;

        if (part > 0) {
            close_window(a, out, part);
            open_window(a, a->cur_index + 1);
        }
        a->total.duration_us = t_ns / 1000.0;
    } else if (t_ns / 1000.0 > a->total.duration_us) {
        a->total.duration_us = t_ns / 1000.0;
    }
}

void
rv_result_pert_add(RvPertAccount *a, guint64 t_ns, guint64 gap_ns, GArray *out)
{
    double us = gap_ns / 1000.0, delta;
    RvPertSecond *c;

    if (t_ns / a->window_ns > a->cur_index)
        rv_result_pert_advance(a, t_ns, FALSE, out);
    c = &a->cur;
    if (c->count == 0 || us < c->min_us)
        c->min_us = us;
    if (us > c->max_us)
        c->max_us = us;
    c->count++;
    c->sum_us += us;
    if (c->outlier_us > 0 && us > c->outlier_us)
        c->outliers++;

    RvPertSummary *t = &a->total;
    if (t->count == 0 || us < t->min_us)
        t->min_us = us;
    if (us > t->max_us)
        t->max_us = us;
    t->count++;
    t->sum_us += us;
    delta = us - t->mean_us;
    t->mean_us += delta / t->count;
    a->m2_total += delta * (us - t->mean_us);
    if (us < RV_PERT_HIST_US)
        t->hist[(unsigned) us]++;
    else
        t->hist_overflow++;
    if ((t_ns + gap_ns) / 1000.0 > t->duration_us)
        t->duration_us = (t_ns + gap_ns) / 1000.0;
}

void
rv_result_pert_summary(const RvPertAccount *a, RvPertSummary *ret)
{
    *ret = a->total;
    ret->stddev_us = a->total.count > 1 ? sqrt(a->m2_total / (a->total.count - 1)) : 0;
}

char *
rv_result_pert_format_second(const RvPertSecond *s)
{
    double avg = s->count ? s->sum_us / s->count : 0;
    double overhead = s->window_us > 0 ? 100.0 * s->sum_us / s->window_us : 0;

    return g_strdup_printf("pert/s: %" G_GUINT64_FORMAT " >%.2fus: %" G_GUINT64_FORMAT
                           " min: %.2f max: %.2f avg: %.2f sum/s: %.0fus overhead: %.2f%%",
                           s->count, s->outlier_us, s->outliers, s->min_us, s->max_us, avg,
                           s->sum_us, overhead);
}

void
rv_result_pert_summary_to_json(const RvPertSummary *s, gboolean histogram, JsonBuilder *b)
{
    json_builder_set_member_name(b, "count");
    json_builder_add_int_value(b, (gint64) s->count);
    json_builder_set_member_name(b, "min_us");
    json_builder_add_double_value(b, s->min_us);
    json_builder_set_member_name(b, "max_us");
    json_builder_add_double_value(b, s->max_us);
    json_builder_set_member_name(b, "avg_us");
    json_builder_add_double_value(b, s->count ? s->sum_us / s->count : 0);
    json_builder_set_member_name(b, "stddev_us");
    json_builder_add_double_value(b, s->stddev_us);
    json_builder_set_member_name(b, "sum_us");
    json_builder_add_double_value(b, s->sum_us);
    json_builder_set_member_name(b, "duration_us");
    json_builder_add_double_value(b, s->duration_us);
    json_builder_set_member_name(b, "overhead_pct");
    json_builder_add_double_value(b, s->duration_us > 0 ? 100.0 * s->sum_us / s->duration_us : 0);
    if (!histogram)
        return;
    json_builder_set_member_name(b, "histogram_us");
    json_builder_begin_array(b);
    for (unsigned i = 0; i < RV_PERT_HIST_US; i++) {
        if (!s->hist[i])
            continue;
        json_builder_begin_array(b);
        json_builder_add_int_value(b, i);
        json_builder_add_int_value(b, (gint64) s->hist[i]);
        json_builder_end_array(b);
    }
    json_builder_end_array(b);
    json_builder_set_member_name(b, "overflows");
    json_builder_add_int_value(b, (gint64) s->hist_overflow);
}
