/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * tests/test-cosched.c: results/cosched.h on a hand-written trace whose
 * shares are worked out by hand in tests/data/cosched/hand.trace.
 */
#include <errno.h>

#include "results/attribution.h"
#include "results/cosched.h"
#include "util/error.h"
#include "tests/testutil.h"

#define MS 1000000ull

static GArray *
hand_events(void)
{
    g_autofree char *p = rv_test_data_path("cosched", "hand.trace");
    g_autofree char *text = rv_test_read_file(p);
    g_autoptr(GError) err = NULL;
    GArray *ev = NULL;

    g_assert_cmpint(rv_result_attr_parse_trace(text, &ev, NULL, &err), ==, 5);
    g_assert_no_error(err);
    return ev;
}

static GHashTable *
hand_vms(void)
{
    GHashTable *h = g_hash_table_new(NULL, NULL);

    g_hash_table_insert(h, GINT_TO_POINTER(101), GUINT_TO_POINTER(1));
    g_hash_table_insert(h, GINT_TO_POINTER(102), GUINT_TO_POINTER(1));
    g_hash_table_insert(h, GINT_TO_POINTER(201), GUINT_TO_POINTER(2));
    return h;
}

/* VM 1: CPU0 101 [0,4) ms: 2 same, 1 idle, 1 foreign (300); CPU1 102 [0,2):
 * 2 same; CPU1 101 [5,10): 1 foreign (201), 4 idle.  VM 2: CPU0 201 [4,6):
 * 1 foreign (300), 1 foreign (101). */
static void
test_hand(void)
{
    g_autoptr(GArray) ev = hand_events();
    g_autoptr(GHashTable) vms = hand_vms();
    g_autoptr(GError) err = NULL;
    int sib[2] = { 1, 0 };
    RvCoschedShare s[2];

    g_assert_cmpint(rv_result_cosched_compute(ev, sib, 2, vms, 2, 10000 * MS, 10010 * MS,
                                              s, &err), ==, 0);
    g_assert_no_error(err);
    g_assert_cmpuint(s[0].run_ns, ==, 11 * MS);
    g_assert_cmpuint(s[0].same_ns, ==, 4 * MS);
    g_assert_cmpuint(s[0].idle_ns, ==, 5 * MS);
    g_assert_cmpuint(s[0].foreign_ns, ==, 2 * MS);
    g_assert_cmpuint(s[0].unknown_ns, ==, 0);
    g_assert_cmpuint(s[1].run_ns, ==, 2 * MS);
    g_assert_cmpuint(s[1].foreign_ns, ==, 2 * MS);
    g_assert_cmpfloat_with_epsilon(rv_result_cosched_pct(s[0].same_ns, s[0].run_ns),
                                   100.0 * 4 / 11, 1e-9);
    /* A clipped window: [10.003, 10.005) -> VM 1 only CPU0 101 [3,4): foreign. */
    g_assert_cmpint(rv_result_cosched_compute(ev, sib, 2, vms, 2, 10003 * MS, 10005 * MS,
                                              s, &err), ==, 0);
    g_assert_cmpuint(s[0].run_ns, ==, 1 * MS);
    g_assert_cmpuint(s[0].foreign_ns, ==, 1 * MS);
    g_assert_cmpuint(s[1].run_ns, ==, 1 * MS);
}

static void
test_refused(void)
{
    g_autoptr(GArray) ev = hand_events();
    g_autoptr(GHashTable) vms = hand_vms();
    int sib[2] = { 1, 0 };
    RvCoschedShare s[2];
    GError *err = NULL;

    /* An event on CPU 1 with only one CPU known. */
    g_assert_cmpint(rv_result_cosched_compute(ev, sib, 1, vms, 2, 0, 1, s, &err), ==, -EINVAL);
    g_assert_error(err, RV_ERROR, RV_ERROR_INVALID);
    g_clear_error(&err);
    /* VM index 2 with one VM. */
    g_assert_cmpint(rv_result_cosched_compute(ev, sib, 2, vms, 1, 0, 1, s, &err), ==, -EINVAL);
    g_clear_error(&err);
    /* End before start. */
    g_assert_cmpint(rv_result_cosched_compute(ev, sib, 2, vms, 2, 5, 1, s, &err), ==, -EINVAL);
    g_clear_error(&err);
}

int
main(int argc, char **argv)
{
    g_test_init(&argc, &argv, NULL);
    g_test_add_func("/cosched/hand", test_hand);
    g_test_add_func("/cosched/refused", test_refused);
    return g_test_run();
}
