/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * tests/test-plan.c: matrix profiles (harness/matrix.h) and the run plan
 * (harness/plan.h).
 *
 * Data-driven: every tests/data/matrix/ok/NAME.ini is loaded, dumped (the
 * model, then the plan with the matrix's seed) and compared with NAME.plan;
 * every tests/data/matrix/bad/NAME.ini must fail with the message in
 * NAME.err (file and line named).  RV_REGENERATE=1 rewrites the expected
 * files; review such diffs line by line.
 * Besides the golden files, properties of the plan that must hold for any
 * seed: every cell exactly once per round, same seed same order.
 */
#include <errno.h>
#include <string.h>
#include <glib/gstdio.h>

#include "harness/matrix.h"
#include "harness/plan.h"
#include "util/error.h"

#define DATA "tests/data/matrix"

static bool regenerate;

static char *
dump(const RvMatrix *m, const RvPlan *plan)
{
    GString *s = g_string_new(NULL);
    g_autofree char *plan_text = rv_harness_plan_format(plan);

    g_string_append_printf(s, "name %s\n", m->name);
    g_string_append_printf(s, "duration_us %" G_GUINT64_FORMAT " warmup_us %" G_GUINT64_FORMAT
                           " timeout_us %" G_GUINT64_FORMAT "\n",
                           m->duration_us, m->warmup_us, m->timeout_us);
    g_string_append_printf(s, "repetitions %u order %s seed %s%" G_GUINT64_FORMAT "\n",
                           m->repetitions, rv_harness_matrix_order_name(m->order),
                           m->has_seed ? "" : "(drawn) ", m->seed);
    g_string_append_printf(s, "baseline %s\n", m->baseline);
    g_string_append_printf(s, "cyclictest interval_us %" G_GUINT64_FORMAT " priority %u histogram %u\n",
                           m->cyclictest_interval_us, m->cyclictest_priority,
                           m->cyclictest_histogram);
    g_string_append_printf(s, "host workload %s cpus %s\n",
                           rv_harness_matrix_workload_name(m->host_workload),
                           m->host_cpus_isolated ? "isolated" : "list");
    for (guint i = 0; i < m->guests->len; i++) {
        const RvMatrixGuest *g = m->guests->pdata[i];
        g_autofree char *base = g_path_get_basename(g->profile);

        g_string_append_printf(s, "guest %s profile %s role %s workload %s line %u\n", g->name,
                               base, rv_harness_matrix_role_name(g->role),
                               rv_harness_matrix_workload_name(g->workload), g->line);
    }
    for (guint i = 0; i < m->loads->len; i++) {
        const RvMatrixLoad *l = m->loads->pdata[i];

        g_string_append_printf(s, "load %s neighbour_workers %u\n", l->name,
                               l->neighbour_workers);
    }
    for (guint i = 0; i < m->scenarios->len; i++) {
        const RvMatrixScenario *sc = m->scenarios->pdata[i];

        g_string_append_printf(s, "scenario %s smt %s coresched %s placement %s%s guests",
                               sc->name, rv_harness_matrix_smt_name(sc->smt),
                               rv_harness_matrix_coresched_name(sc->coresched),
                               rv_harness_matrix_placement_name(sc->placement),
                               sc->vcpu_sched_other ? " vcpu_sched other" : "");
        for (guint j = 0; j < sc->guests->len; j++)
            g_string_append_printf(s, " %s", ((RvMatrixGuest *) sc->guests->pdata[j])->name);
        g_string_append_c(s, '\n');
    }
    g_string_append_printf(s, "plan %u runs of %u cells\n", plan->runs->len, plan->ncells);
    g_string_append(s, plan_text);
    return g_string_free(s, FALSE);
}

static void
compare_or_write(const char *path, const char *actual)
{
    g_autofree char *expected = NULL;
    g_autoptr(GError) err = NULL;

    if (regenerate) {
        g_assert_true(g_file_set_contents(path, actual, -1, &err));
        return;
    }
    if (!g_file_get_contents(path, &expected, NULL, &err))
        g_error("%s: %s (RV_REGENERATE=1 writes it)", path, err->message);
    g_assert_cmpstr(actual, ==, expected);
}

static void
test_ok(gconstpointer data)
{
    const char *stem = data;
    g_autofree char *ini = g_strdup_printf(DATA "/ok/%s.ini", stem);
    g_autofree char *exp = g_strdup_printf(DATA "/ok/%s.plan", stem);
    g_autoptr(GError) err = NULL;
    g_autoptr(RvMatrix) m = NULL;
    g_autoptr(RvPlan) plan = NULL;
    g_autofree char *text = NULL;

    if (rv_harness_matrix_load(ini, &m, &err) < 0)
        g_error("%s", err->message);
    g_assert_true(m->has_seed);
    plan = rv_harness_plan_new(m, m->seed);
    text = dump(m, plan);
    compare_or_write(exp, text);
}

static void
test_bad(gconstpointer data)
{
    const char *stem = data;
    g_autofree char *ini = g_strdup_printf(DATA "/bad/%s.ini", stem);
    g_autofree char *exp = g_strdup_printf(DATA "/bad/%s.err", stem);
    g_autoptr(GError) err = NULL;
    g_autoptr(RvMatrix) m = NULL;
    g_autofree char *msg = NULL;

    g_assert_cmpint(rv_harness_matrix_load(ini, &m, &err), <, 0);
    g_assert_null(m);
    g_assert_nonnull(err);
    g_assert_true(g_error_matches(err, RV_ERROR, RV_ERROR_INVALID));
    /* every error names the file it is about */
    g_assert_nonnull(strstr(err->message, ".ini"));
    msg = g_strdup_printf("%s\n", err->message);
    compare_or_write(exp, msg);
}

/* For many seeds: each round is a permutation of the cells, the round
 * numbers ascend, and the same seed replays the same order. */
static void
test_plan_properties(void)
{
    g_autoptr(GError) err = NULL;
    g_autoptr(RvMatrix) m = NULL;
    unsigned differs = 0;

    if (rv_harness_matrix_load(DATA "/ok/three-by-two.ini", &m, &err) < 0)
        g_error("%s", err->message);
    for (guint64 seed = 0; seed < 200; seed++) {
        g_autoptr(RvPlan) a = rv_harness_plan_new(m, seed * 0x9e3779b97f4a7c15ULL);
        g_autoptr(RvPlan) b = rv_harness_plan_new(m, seed * 0x9e3779b97f4a7c15ULL);
        g_autoptr(RvPlan) first = rv_harness_plan_new(m, 0);
        g_autofree char *ta = rv_harness_plan_format(a);
        g_autofree char *tb = rv_harness_plan_format(b);
        g_autofree char *tf = rv_harness_plan_format(first);

        g_assert_cmpstr(ta, ==, tb);
        differs += strcmp(ta, tf) != 0;
        g_assert_cmpuint(a->ncells, ==, 6);
        g_assert_cmpuint(a->runs->len, ==, 6 * 4);
        for (unsigned r = 0; r < 4; r++) {
            guint seen = 0;

            for (unsigned c = 0; c < 6; c++) {
                const RvPlanRun *run = a->runs->pdata[r * 6 + c];

                g_assert_cmpuint(run->round, ==, r);
                g_assert_cmpuint(run->index, ==, r * 6 + c);
                g_assert_cmpuint(run->cell, ==, run->scenario * 2 + run->load);
                g_assert_false(seen & (1u << run->cell));
                seen |= 1u << run->cell;
            }
            g_assert_cmpuint(seen, ==, 0x3f);
        }
    }
    /* the order really depends on the seed */
    g_assert_cmpuint(differs, >, 150);
}

/* Every position of a round sees every cell about equally often over many
 * seeds: the shuffle is not biased toward file order. */
static void
test_shuffle_uniform(void)
{
    g_autoptr(GError) err = NULL;
    g_autoptr(RvMatrix) m = NULL;
    unsigned count[6][6] = { { 0 } };
    const unsigned n = 6000;

    if (rv_harness_matrix_load(DATA "/ok/three-by-two.ini", &m, &err) < 0)
        g_error("%s", err->message);
    for (unsigned i = 0; i < n; i++) {
        g_autoptr(RvPlan) p = rv_harness_plan_new(m, i);

        for (unsigned pos = 0; pos < 6; pos++)
            count[pos][((RvPlanRun *) p->runs->pdata[pos])->cell]++;
    }
    /* expected n*4/6 = 4000 per (position, cell) over 4 rounds... here
     * round 0 only: n/6 = 1000; binomial sd ~29, allow 6 sd */
    for (unsigned pos = 0; pos < 6; pos++)
        for (unsigned c = 0; c < 6; c++) {
            g_assert_cmpuint(count[pos][c], >, 1000 - 175);
            g_assert_cmpuint(count[pos][c], <, 1000 + 175);
        }
}

static void
test_load_data_relative(void)
{
    g_autoptr(GError) err = NULL;
    g_autoptr(RvMatrix) m = NULL;

    /* guest profiles resolve against the matrix file's directory */
    g_assert_cmpint(rv_harness_matrix_load_data(DATA "/ok/inline.ini",
                                                "[guest:g]\nprofile = ../guest-a.ini\n"
                                                "[scenario:s]\nplacement = unpinned\n",
                                                &m, &err), ==, 0);
    g_assert_no_error(err);
    g_assert_cmpstr(m->name, ==, "inline");
    g_assert_false(m->has_seed);
    g_assert_cmpuint(m->repetitions, ==, 3);
    g_assert_cmpstr(m->baseline, ==, "s");
    g_assert_cmpuint(m->loads->len, ==, 1);
    g_assert_cmpstr(((RvMatrixLoad *) m->loads->pdata[0])->name, ==, "idle");
}

static void
add_dir_tests(const char *dir, const char *prefix, GTestDataFunc fn)
{
    g_autoptr(GDir) d = g_dir_open(dir, 0, NULL);
    g_autoptr(GPtrArray) names = g_ptr_array_new();
    const char *n;

    g_assert_nonnull(d);
    while ((n = g_dir_read_name(d)))
        if (g_str_has_suffix(n, ".ini"))
            g_ptr_array_add(names, g_strndup(n, strlen(n) - 4));
    g_ptr_array_sort(names, (GCompareFunc) g_strcmp0);
    g_assert_cmpuint(names->len, >, 0);
    for (guint i = 0; i < names->len; i++) {
        g_autofree char *path = g_strdup_printf("%s/%s", prefix, (char *) names->pdata[i]);

        g_test_add_data_func_full(path, names->pdata[i], fn, g_free);
    }
}

int
main(int argc, char **argv)
{
    const char *top = g_getenv("RV_TOP");

    g_test_init(&argc, &argv, NULL);
    if (top && g_chdir(top) < 0)
        g_error("chdir %s failed", top);
    regenerate = g_strcmp0(g_getenv("RV_REGENERATE"), "1") == 0;
    add_dir_tests(DATA "/ok", "/matrix/ok", test_ok);
    add_dir_tests(DATA "/bad", "/matrix/bad", test_bad);
    g_test_add_func("/plan/properties", test_plan_properties);
    g_test_add_func("/plan/shuffle-uniform", test_shuffle_uniform);
    g_test_add_func("/matrix/load-data-relative", test_load_data_relative);
    return g_test_run();
}
