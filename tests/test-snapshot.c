/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * tests/test-snapshot.c: host/facts/snapshot.h on captured /proc files.
 *
 * Each directory under tests/data/snapshot/ holds interrupts.{before,after},
 * softirqs.{before,after}, optionally schedstat.{before,after}, a
 * source.txt saying where they come from and what the diff must show, and
 * expected.json (RV_REGENERATE=1 rewrites it; review the diff by hand).
 */
#include <errno.h>
#include <string.h>
#include <glib/gstdio.h>

#include "host/fsroot.h"
#include "host/facts/snapshot.h"
#include "util/error.h"
#include "tests/testutil.h"

#define DATA "tests/data/snapshot"

static char *
read_opt(const char *dir, const char *name)
{
    g_autofree char *path = g_build_filename(dir, name, NULL);
    char *text = NULL;

    if (!g_file_get_contents(path, &text, NULL, NULL))
        return NULL;
    return text;
}

static RvHostSnapshot *
load(const char *dir, const char *when)
{
    g_autofree char *i = g_strdup_printf("interrupts.%s", when);
    g_autofree char *s = g_strdup_printf("softirqs.%s", when);
    g_autofree char *c = g_strdup_printf("schedstat.%s", when);
    g_autofree char *ti = read_opt(dir, i), *ts = read_opt(dir, s), *tc = read_opt(dir, c);
    g_autoptr(GError) err = NULL;
    RvHostSnapshot *snap = NULL;

    g_assert_nonnull(ti);
    if (rv_host_snapshot_parse(ti, ts, tc, &snap, &err) < 0)
        g_error("%s/%s: %s", dir, i, err->message);
    return snap;
}

static void
test_dir(gconstpointer data)
{
    g_autofree char *dir = g_build_filename(DATA, (const char *) data, NULL);
    g_autofree char *exp_path = g_build_filename(dir, "expected.json", NULL);
    g_autoptr(RvHostSnapshot) before = load(dir, "before");
    g_autoptr(RvHostSnapshot) after = load(dir, "after");
    g_autoptr(JsonNode) diff = NULL;
    g_autoptr(JsonGenerator) gen = json_generator_new();
    g_autoptr(GError) err = NULL;
    g_autofree char *text = NULL, *actual = NULL;

    if (rv_host_snapshot_diff(before, after, &diff, &err) < 0)
        g_error("%s", err->message);
    json_generator_set_pretty(gen, TRUE);
    json_generator_set_root(gen, diff);
    text = json_generator_to_data(gen, NULL);
    actual = g_strdup_printf("%s\n", text);
    rv_test_compare_expected(exp_path, actual);
}

/* The facts the source.txt notes name, checked directly (they do not
 * depend on the golden file being right). */
static void
test_known_values(void)
{
    g_autoptr(RvHostSnapshot) b = load(DATA "/schedstat-v15", "before");
    g_autoptr(RvHostSnapshot) a = load(DATA "/schedstat-v15", "after");
    g_autoptr(JsonNode) diff = NULL;
    g_autoptr(GError) err = NULL;
    JsonObject *o, *irq, *loc, *soft, *sched;
    JsonArray *cpus, *per_cpu;

    g_assert_cmpint(rv_host_snapshot_diff(b, a, &diff, &err), ==, 0);
    o = json_node_get_object(diff);
    cpus = json_object_get_array_member(o, "cpus");
    g_assert_cmpuint(json_array_get_length(cpus), ==, 3);   /* CPU2 went offline */
    g_assert_cmpint(json_array_get_int_element(cpus, 2), ==, 3);
    irq = json_object_get_object_member(o, "interrupts");
    loc = json_object_get_object_member(irq, "LOC");
    per_cpu = json_object_get_array_member(loc, "per_cpu");
    g_assert_cmpint(json_array_get_int_element(per_cpu, 0), ==, 200);
    g_assert_cmpint(json_array_get_int_element(per_cpu, 1), ==, 16);   /* 32-bit wrap */
    g_assert_cmpint(json_array_get_int_element(per_cpu, 2), ==, 200);
    g_assert_cmpstr(json_object_get_string_member(loc, "description"), ==,
                    "Local timer interrupts");
    g_assert_false(json_object_has_member(irq, "RES"));       /* unchanged: left out */
    g_assert_true(json_object_has_member(irq, "30"));         /* allocated during the run */
    g_assert_cmpint(json_object_get_int_member(json_object_get_object_member(irq, "ERR"),
                                               "total"), ==, 2);
    g_assert_false(json_object_has_member(json_object_get_object_member(irq, "ERR"),
                                          "per_cpu"));
    soft = json_object_get_object_member(o, "softirqs");
    g_assert_cmpint(json_object_get_int_member(json_object_get_object_member(soft, "TIMER"),
                                               "total"), ==, 60);
    sched = json_object_get_object_member(o, "schedstat");
    g_assert_cmpint(json_object_get_int_member(json_object_get_object_member(sched,
                                                                             "sched_count"),
                                               "total"), ==, 600);
}

static void
test_schedstat_unavailable(void)
{
    g_autoptr(RvHostSnapshot) b = load(DATA "/debian12-2cpu", "before");
    g_autoptr(RvHostSnapshot) a = load(DATA "/debian12-2cpu", "after");
    g_autoptr(JsonNode) diff = NULL;
    g_autoptr(GError) err = NULL;
    JsonObject *sched;

    g_assert_cmpint(rv_host_snapshot_diff(b, a, &diff, &err), ==, 0);
    sched = json_object_get_object_member(json_node_get_object(diff), "schedstat");
    g_assert_nonnull(strstr(json_object_get_string_member(sched, "unavailable"),
                            "CONFIG_SCHEDSTATS"));
}

static void
test_bad_input(void)
{
    static const struct { const char *text; const char *msg; } cases[] = {
        { "", "/proc/interrupts:1: empty file" },
        { "  CPU0 CPUx\n", "expected a 'CPUn' column header, got 'CPUx'" },
        { "  CPU0\n 24 1 IO-APIC\n", "/proc/interrupts:2: expected 'NAME: counts...'" },
        { "  CPU0\n 24: IO-APIC\n", "/proc/interrupts:2: row '24' has no counts" },
    };
    for (guint i = 0; i < G_N_ELEMENTS(cases); i++) {
        g_autoptr(GError) err = NULL;
        RvHostSnapshot *s = NULL;

        g_assert_cmpint(rv_host_snapshot_parse(cases[i].text, NULL, NULL, &s, &err), ==,
                        -EINVAL);
        g_assert_null(s);
        g_assert_true(g_error_matches(err, RV_ERROR, RV_ERROR_INVALID));
        if (!strstr(err->message, cases[i].msg))
            g_error("case %u: '%s' lacks '%s'", i, err->message, cases[i].msg);
    }
    /* an unknown schedstat version is recorded, not guessed */
    {
        g_autoptr(RvHostSnapshot) s = NULL, t = NULL;
        g_autoptr(JsonNode) diff = NULL;
        const char *why;

        g_assert_cmpint(rv_host_snapshot_parse("  CPU0\nLOC: 1 x\n", NULL,
                                               "version 14\ncpu0 1 2 3 4 5 6 7 8 9 10 11 12\n",
                                               &s, NULL), ==, 0);
        g_assert_cmpint(rv_host_snapshot_parse("  CPU0\nLOC: 2 x\n", NULL,
                                               "version 14\ncpu0 1 2 3 4 5 6 7 8 9 10 11 12\n",
                                               &t, NULL), ==, 0);
        g_assert_cmpint(rv_host_snapshot_diff(s, t, &diff, NULL), ==, 0);
        why = json_object_get_string_member(
            json_object_get_object_member(json_node_get_object(diff), "schedstat"),
            "unavailable");
        g_assert_cmpstr(why, ==, "/proc/schedstat version 14 not understood (15-17 are)");
    }
}

/* schedstat's nanosecond sums are u64: one that wrapped below zero (the
 * lab host's CPU under nested TCG read 18446744073709400993 = 2^64 -
 * 150623 before a run and 57441941471 after) counts modulo 2^64, as the
 * kernel adds; a value below 2^63 that drops is still two boots. */
static void
test_schedstat_wrap64(void)
{
    static const char *irq_b = "  CPU0\nLOC: 1 x\n", *irq_a = "  CPU0\nLOC: 2 x\n";
    g_autoptr(RvHostSnapshot) b = NULL, a = NULL, c = NULL;
    g_autoptr(JsonNode) diff = NULL;
    g_autoptr(GError) err = NULL;
    JsonObject *sched, *row;

    g_assert_cmpint(rv_host_snapshot_parse(irq_b, NULL, "version 15\ntimestamp 1\n"
                                           "cpu0 0 0 10 5 5 5 18446744073709400993 100 7\n",
                                           &b, NULL), ==, 0);
    g_assert_cmpint(rv_host_snapshot_parse(irq_a, NULL, "version 15\ntimestamp 2\n"
                                           "cpu0 0 0 20 5 5 5 57441941471 300 9\n",
                                           &a, NULL), ==, 0);
    if (rv_host_snapshot_diff(b, a, &diff, &err) < 0)
        g_error("%s", err->message);
    sched = json_object_get_object_member(json_node_get_object(diff), "schedstat");
    g_assert_nonnull(sched);
    row = json_object_get_object_member(sched, "rq_cpu_time_ns");
    g_assert_nonnull(row);
    g_assert_cmpint(json_object_get_int_member(row, "total"), ==, 57441941471 + 150623);
    /* 57441941471 -> 1000: not a wrap */
    g_assert_cmpint(rv_host_snapshot_parse(irq_a, NULL, "version 15\ntimestamp 3\n"
                                           "cpu0 0 0 30 5 5 5 1000 400 9\n", &c, NULL), ==, 0);
    g_clear_pointer(&diff, json_node_unref);
    g_assert_cmpint(rv_host_snapshot_diff(a, c, &diff, &err), ==, -EINVAL);
    g_assert_nonnull(strstr(err->message, "'rq_cpu_time_ns' went backwards"));
}

/* Through a root: the live host's files, read twice. */
static void
test_live(void)
{
    g_autoptr(RvRoot) root = NULL;
    g_autoptr(RvHostSnapshot) a = NULL, b = NULL;
    g_autoptr(JsonNode) diff = NULL;
    g_autoptr(GError) err = NULL;

    g_assert_cmpint(rv_host_root_open("/", &root, &err), ==, 0);
    g_assert_cmpint(rv_host_snapshot_take(root, &a, &err), ==, 0);
    g_assert_cmpint(rv_host_snapshot_take(root, &b, &err), ==, 0);
    g_assert_cmpint(rv_host_snapshot_diff(a, b, &diff, &err), ==, 0);
    g_assert_no_error(err);
    g_assert_true(json_object_has_member(json_node_get_object(diff), "interrupts"));
}

int
main(int argc, char **argv)
{
    const char *top = g_getenv("RV_TOP");

    g_test_init(&argc, &argv, NULL);
    if (top && g_chdir(top) < 0)
        g_error("chdir %s failed", top);
    g_test_add_data_func("/snapshot/debian12-2cpu", "debian12-2cpu", test_dir);
    g_test_add_data_func("/snapshot/schedstat-v15", "schedstat-v15", test_dir);
    g_test_add_func("/snapshot/known-values", test_known_values);
    g_test_add_func("/snapshot/schedstat-unavailable", test_schedstat_unavailable);
    g_test_add_func("/snapshot/bad-input", test_bad_input);
    g_test_add_func("/snapshot/schedstat-wrap64", test_schedstat_wrap64);
    g_test_add_func("/snapshot/live", test_live);
    return g_test_run();
}
