/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * tests/test-schedtrace.c: the sched_switch parser and the SMT-sibling
 * cookie analysis of host/trace/schedtrace.h, on traces in
 * tests/data/schedtrace (see README.source.txt there): NAME.trace +
 * NAME.labels + NAME.case -> NAME.expected (the report text).
 * RV_REGENERATE=1 rewrites the expected files; review the diff.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "host/trace/schedtrace.h"
#include "util/error.h"
#include "tests/testutil.h"

static char *
data_path(const char *name)
{
    return rv_test_data_path("schedtrace", name);
}

static char *
read_data(const char *name)
{
    g_autofree char *p = data_path(name);

    return rv_test_read_file(p);
}

static void
compare_or_regenerate(const char *name, const char *got)
{
    g_autofree char *p = data_path(name);

    rv_test_compare_expected(p, got);
}

static void
test_parse_formats(void)
{
    g_autofree char *text = read_data("formats.trace");
    g_autoptr(GArray) ev = NULL;
    g_autoptr(GError) err = NULL;
    g_autoptr(GString) s = g_string_new(NULL);
    guint lost = 0;
    int r;

    r = rv_host_schedtrace_parse(text, &ev, &lost, &err);
    g_assert_no_error(err);
    g_assert_cmpint(r, ==, 6);
    g_assert_cmpuint(lost, ==, 17);
    g_string_append_printf(s, "lost %u\n", lost);
    for (guint i = 0; i < ev->len; i++) {
        const RvSchedSwitch *e = &g_array_index(ev, RvSchedSwitch, i);

        g_string_append_printf(s, "cpu %u ts %" G_GUINT64_FORMAT " prev %d '%s' next %d '%s'\n",
                               e->cpu, e->ts_ns, (int) e->prev_pid, e->prev_comm,
                               (int) e->next_pid, e->next_comm);
    }
    compare_or_regenerate("formats.events", s->str);
}

static void
test_parse_errors(void)
{
    static const struct { const char *text; const char *needle; } cases[] = {
        { "# tracer: nop\n"
          "  sh-1 [000] d..2. 1.000000: sched_switch: prev_comm=sh prev_pid=1 prev_prio=120\n",
          "sched_switch trace line 2 does not parse" },
        { "  sh-1 [000] d..2. 1.000000: sched_switch: prev_comm=sh prev_pid=x prev_prio=120 "
          "prev_state=S ==> next_comm=a next_pid=2 next_prio=120\n",
          "line 1" },
    };

    for (size_t i = 0; i < G_N_ELEMENTS(cases); i++) {
        g_autoptr(GArray) ev = NULL;
        g_autoptr(GError) err = NULL;

        g_assert_cmpint(rv_host_schedtrace_parse(cases[i].text, &ev, NULL, &err), ==, -EINVAL);
        g_assert_error(err, RV_ERROR, RV_ERROR_INVALID);
        g_assert_null(ev);
        g_test_message("%s", err->message);
        g_assert_nonnull(strstr(err->message, cases[i].needle));
    }
}

static int
cmp_label(gconstpointer a, gconstpointer b)
{
    pid_t x = ((const RvSchedLabel *) a)->tid, y = ((const RvSchedLabel *) b)->tid;

    return (x > y) - (x < y);
}

static void
run_case(gconstpointer data)
{
    const char *name = data;
    g_autofree char *tname = g_strdup_printf("%s.trace", name);
    g_autofree char *lname = g_strdup_printf("%s.labels", name);
    g_autofree char *cname = g_strdup_printf("%s.case", name);
    g_autofree char *ename = g_strdup_printf("%s.expected", name);
    g_autofree char *text = read_data(tname);
    g_autofree char *ltext = read_data(lname);
    g_autofree char *ctext = read_data(cname);
    g_auto(GStrv) llines = g_strsplit(ltext, "\n", -1);
    g_auto(GStrv) clines = g_strsplit(ctext, "\n", -1);
    g_autoptr(GArray) labels = g_array_new(FALSE, FALSE, sizeof(RvSchedLabel));
    g_autoptr(GArray) cores = g_array_new(FALSE, FALSE, sizeof(int));
    g_autoptr(GArray) ev = NULL;
    g_autoptr(RvSchedReport) rep = NULL;
    g_autoptr(GError) err = NULL;
    g_autofree char *got = NULL;
    guint64 grace_us = 0;
    guint lost = 0;

    for (guint i = 0; llines[i]; i++) {
        RvSchedLabel l;
        char *end;

        if (!*llines[i])
            continue;
        l.tid = (pid_t) strtol(llines[i], &end, 10);
        l.label = g_ascii_strtoull(end, NULL, 0);
        g_array_append_val(labels, l);
    }
    g_array_sort(labels, cmp_label);
    for (guint i = 0; clines[i]; i++) {
        if (g_str_has_prefix(clines[i], "cores ")) {
            g_auto(GStrv) w = g_strsplit(clines[i] + 6, " ", -1);

            for (guint j = 0; w[j]; j++) {
                int c = atoi(w[j]);

                g_array_append_val(cores, c);
            }
        } else if (g_str_has_prefix(clines[i], "grace_us ")) {
            grace_us = g_ascii_strtoull(clines[i] + 9, NULL, 10);
        }
    }
    g_assert_cmpuint(cores->len, >, 0);

    g_assert_cmpint(rv_host_schedtrace_parse(text, &ev, &lost, &err), >=, 0);
    g_assert_no_error(err);
    g_assert_cmpuint(lost, ==, 0);
    g_assert_cmpint(rv_host_schedtrace_analyze(ev, (const int *) cores->data, cores->len,
                                               labels, grace_us * 1000, &rep, &err), ==, 0);
    g_assert_no_error(err);
    got = rv_host_schedtrace_report_format(rep);
    g_test_message("%s:\n%s", name, got);
    compare_or_regenerate(ename, got);

    /* the counts agree with each other whatever the case */
    g_assert_cmpuint(rep->n_overlaps, ==, rep->n_handovers + rep->n_violations);
    g_assert_cmpuint(rep->mixed_ns, <=, rep->both_busy_ns);
    g_assert_cmpuint(rep->violations->len, ==, MIN(rep->n_violations, 32));
}

static void
test_backwards(void)
{
    RvSchedSwitch e[2] = {
        { .ts_ns = 2000, .cpu = 0, .prev_pid = 0, .next_pid = 5 },
        { .ts_ns = 1000, .cpu = 1, .prev_pid = 0, .next_pid = 6 },
    };
    static const int cores[] = { 0, 0 };
    g_autoptr(GArray) ev = g_array_new(FALSE, FALSE, sizeof(RvSchedSwitch));
    g_autoptr(RvSchedReport) rep = NULL;
    g_autoptr(GError) err = NULL;

    g_array_append_vals(ev, e, 2);
    g_assert_cmpint(rv_host_schedtrace_analyze(ev, cores, 2, NULL, 0, &rep, &err), ==, -EINVAL);
    g_assert_error(err, RV_ERROR, RV_ERROR_INVALID);
    g_assert_nonnull(strstr(err->message, "trace clock"));
    g_assert_null(rep);
}

static char *
get(const char *dir, const char *rel)
{
    g_autofree char *path = g_build_filename(dir, rel, NULL);
    char *s = NULL;

    g_assert_true(g_file_get_contents(path, &s, NULL, NULL));
    return g_strstrip(s);
}

/* Recording on a tree shaped like tracefs (the build machines have no
 * tracefs mounted; the real one is exercised in the lab VM): what is saved
 * is put back, someone else's tracer is left alone, a missing tracefs is
 * "unsupported" with the mount command. */
static void
test_record_fixture(void)
{
    g_autofree char *dir = g_dir_make_tmp("rv-schedtrace-XXXXXX", NULL);
    g_autoptr(RvRoot) root = NULL;
    g_autoptr(RvSchedTrace) t = NULL;
    g_autoptr(GError) err = NULL;
    g_autofree char *text = NULL;
    const char *T = "sys/kernel/tracing/";
    static const char * const files[][2] = {
        { "current_tracer", "nop" },
        { "tracing_on", "1" },
        { "trace_clock", "[local] global counter uptime perf mono mono_raw boot" },
        { "buffer_size_kb", "7 (expanded: 1408)" },
        { "events/sched/sched_switch/enable", "0" },
        { "trace", "# tracer: nop\n" },
    };

    g_assert_cmpint(rv_host_root_open(dir, &root, NULL), ==, 0);
    g_assert_cmpint(rv_host_schedtrace_start(root, 0, &t, &err), ==, -ENOENT);
    g_assert_error(err, RV_ERROR, RV_ERROR_UNSUPPORTED);
    g_assert_nonnull(strstr(err->message, "mount -t tracefs nodev /sys/kernel/tracing"));
    g_clear_error(&err);

    for (size_t i = 0; i < G_N_ELEMENTS(files); i++) {
        g_autofree char *rel = g_strconcat(T, files[i][0], NULL);

        rv_test_put(dir, rel, files[i][1]);
    }
    {
        g_autofree char *rel = g_strconcat(T, "current_tracer", NULL);

        rv_test_put(dir, rel, "function");
        g_assert_cmpint(rv_host_schedtrace_start(root, 0, &t, &err), ==, -EBUSY);
        g_assert_nonnull(strstr(err->message, "someone else is tracing"));
        g_clear_error(&err);
        rv_test_put(dir, rel, "nop");
    }

    g_assert_cmpint(rv_host_schedtrace_start(root, 4096, &t, &err), ==, 0);
    g_assert_no_error(err);
    {
        g_autofree char *clock = get(dir, "sys/kernel/tracing/trace_clock");
        g_autofree char *on = get(dir, "sys/kernel/tracing/tracing_on");
        g_autofree char *en = get(dir, "sys/kernel/tracing/events/sched/sched_switch/enable");
        g_autofree char *kb = get(dir, "sys/kernel/tracing/buffer_size_kb");
        g_autofree char *tr = get(dir, "sys/kernel/tracing/trace");

        g_assert_cmpstr(clock, ==, "global");
        g_assert_cmpstr(on, ==, "1");
        g_assert_cmpstr(en, ==, "1");
        g_assert_cmpstr(kb, ==, "4096");
        g_assert_cmpstr(tr, ==, "");            /* cleared */
    }
    rv_test_put(dir, "sys/kernel/tracing/trace", "# tracer: nop\n  sh-1 [000] d..2. 1.000000: sched_switch: "
        "prev_comm=sh prev_pid=1 prev_prio=120 prev_state=S ==> next_comm=swapper/0 next_pid=0 next_prio=120\n");
    g_assert_cmpint(rv_host_schedtrace_stop(t, &text, &err), ==, 0);
    g_assert_no_error(err);
    g_assert_nonnull(strstr(text, "sched_switch: prev_comm=sh"));
    g_assert_cmpint(rv_host_schedtrace_stop(t, &text, &err), ==, -EALREADY);
    g_clear_error(&err);
    {
        g_autofree char *clock = get(dir, "sys/kernel/tracing/trace_clock");
        g_autofree char *on = get(dir, "sys/kernel/tracing/tracing_on");
        g_autofree char *en = get(dir, "sys/kernel/tracing/events/sched/sched_switch/enable");
        g_autofree char *kb = get(dir, "sys/kernel/tracing/buffer_size_kb");

        g_assert_cmpstr(clock, ==, "local");    /* the selected clock */
        g_assert_cmpstr(on, ==, "1");
        g_assert_cmpstr(en, ==, "0");
        g_assert_cmpstr(kb, ==, "1408");        /* the expanded size */
    }
    g_clear_pointer(&t, rv_host_schedtrace_free);
    rv_test_rm_rf(dir);
}

int
main(int argc, char **argv)
{
    g_autofree char *dir = data_path("");
    g_autoptr(GDir) d = NULL;
    g_autoptr(GPtrArray) names = g_ptr_array_new_with_free_func(g_free);
    const char *f;

    g_test_init(&argc, &argv, NULL);
    g_test_add_func("/schedtrace/parse-formats", test_parse_formats);
    g_test_add_func("/schedtrace/parse-errors", test_parse_errors);
    g_test_add_func("/schedtrace/backwards", test_backwards);
    g_test_add_func("/schedtrace/record-fixture", test_record_fixture);

    d = g_dir_open(dir, 0, NULL);
    g_assert_nonnull(d);
    while ((f = g_dir_read_name(d)))
        if (g_str_has_suffix(f, ".case"))
            g_ptr_array_add(names, g_strndup(f, strlen(f) - 5));
    g_ptr_array_sort(names, (GCompareFunc) g_strcmp0);
    g_assert_cmpuint(names->len, >=, 4);
    for (guint i = 0; i < names->len; i++) {
        g_autofree char *path = g_strdup_printf("/schedtrace/analyze/%s", (char *) names->pdata[i]);

        g_test_add_data_func(path, names->pdata[i], run_case);
    }
    return g_test_run();
}
