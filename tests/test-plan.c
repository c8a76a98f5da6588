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
 * Then what `rtvirt run` says about a plan on a host that skips scenarios
 * (runs counted, the baseline note), and the pieces of one repetition
 * that must stay honest (harness/run.h): the host-counters record of an
 * interrupted or failed repetition is not ok, virt=tcg shows on the
 * progress line and first among the untrusted reasons, and the summary
 * says when ok repetitions had a verification FAIL.
 */
#include <errno.h>
#include <string.h>
#include <glib/gstdio.h>

#include "harness/matrix.h"
#include "harness/plan.h"
#include "harness/run.h"
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
        if (sc->bootargs) {
            g_autofree char *words = g_strjoinv(" ", sc->bootargs);

            g_string_append_printf(s, " bootargs [%s] key [%s]", words, sc->boot_key);
        }
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

/* The scenario's guest names, space-separated. */
static char *
scenario_guests(const RvMatrix *m, guint s)
{
    const RvMatrixScenario *sc = m->scenarios->pdata[s];
    GString *out = g_string_new(NULL);

    for (guint j = 0; j < sc->guests->len; j++)
        g_string_append_printf(out, "%s%s", j ? " " : "",
                               ((RvMatrixGuest *) sc->guests->pdata[j])->name);
    return g_string_free(out, FALSE);
}

/* count = node*M/K (harness/matrix.h): one placeholder until the host is
 * known, then NAME-01..NAME-N in the matrix and in each scenario taking
 * the section, in place; the reference's 96 on a 36-thread node; a node
 * that makes none, or more than 1024, refused naming FILE:LINE; a name
 * another section took refused; sizing twice changes nothing. */
static void
test_size_counts(void)
{
    static const char text[] =
        "[guest:rt]\nprofile = ../guest-a.ini\n"
        "[guest:semi]\nprofile = ../guest-a.ini\nrole = neighbour\nworkload = semi-idle\n"
        "count = node*8/3\n"
        "[guest:last]\nprofile = ../guest-a.ini\nrole = neighbour\nworkload = semi-idle\n"
        "[scenario:all]\nsmt = keep\n"
        "[scenario:some]\nguests = semi, rt\n"
        "[scenario:none]\nguests = rt, last\n";
    g_autoptr(GError) err = NULL;
    g_autoptr(RvMatrix) m = NULL;
    g_autofree char *note = NULL, *all = NULL, *some = NULL, *none = NULL;
    const RvMatrixGuest *g;

    g_assert_cmpint(rv_harness_matrix_load_data(DATA "/ok/inline.ini", text, &m, &err), ==, 0);
    g_assert_no_error(err);
    g_assert_cmpuint(m->guests->len, ==, 3);
    g = m->guests->pdata[1];
    g_assert_cmpstr(g->name, ==, "semi");
    g_assert_cmpuint(g->count, ==, 0);
    g_assert_cmpuint(g->count_node_mul, ==, 8);
    g_assert_cmpuint(g->count_node_div, ==, 3);

    g_assert_cmpint(rv_harness_matrix_size_counts(m, 36, "NUMA node 0 of this host", &note, &err), ==, 0);
    g_assert_no_error(err);
    g_assert_cmpstr(note, ==, "NOTE guest count: [guest:semi] count = node*8/3: 96 guests "
                    "(NUMA node 0 of this host: 36 online CPUs)");
    g_assert_cmpuint(m->guests->len, ==, 98);
    g_assert_cmpstr(((RvMatrixGuest *) m->guests->pdata[1])->name, ==, "semi-01");
    g_assert_cmpstr(((RvMatrixGuest *) m->guests->pdata[96])->name, ==, "semi-96");
    g_assert_cmpuint(((RvMatrixGuest *) m->guests->pdata[96])->count, ==, 96);
    g_assert_cmpuint(((RvMatrixGuest *) m->guests->pdata[96])->index, ==, 96);
    g_assert_cmpstr(((RvMatrixGuest *) m->guests->pdata[97])->name, ==, "last");
    g_assert_true(rv_harness_matrix_guest(m, "semi-50") != NULL);
    g_assert_null(rv_harness_matrix_guest(m, "semi"));
    all = scenario_guests(m, 0);
    some = scenario_guests(m, 1);
    none = scenario_guests(m, 2);
    g_assert_true(g_str_has_prefix(all, "rt semi-01 semi-02 "));
    g_assert_true(g_str_has_suffix(all, " semi-95 semi-96 last"));
    g_assert_true(g_str_has_prefix(some, "semi-01 "));
    g_assert_true(g_str_has_suffix(some, " semi-96 rt"));
    g_assert_cmpstr(none, ==, "rt last");

    /* again: nothing left to size */
    g_clear_pointer(&note, g_free);
    g_assert_cmpint(rv_harness_matrix_size_counts(m, 8, "package 0 of this host", &note, &err), ==, 0);
    g_assert_null(note);
    g_assert_cmpuint(m->guests->len, ==, 98);
    g_clear_pointer(&m, rv_harness_matrix_free);

    /* a smaller node: fewer guests, the same ratio (8 * 8 / 3 = 21) */
    g_assert_cmpint(rv_harness_matrix_load_data(DATA "/ok/inline.ini", text, &m, &err), ==, 0);
    g_assert_cmpint(rv_harness_matrix_size_counts(m, 8, "package 0 of this host", NULL, &err), ==, 0);
    g_assert_cmpuint(m->guests->len, ==, 23);
    g_assert_cmpstr(((RvMatrixGuest *) m->guests->pdata[21])->name, ==, "semi-21");
    g_clear_pointer(&m, rv_harness_matrix_free);

    /* one CPU makes 2; node/2 of one CPU makes none: refused */
    g_assert_cmpint(rv_harness_matrix_load_data(DATA "/ok/inline.ini",
                                                "[guest:semi]\nprofile = ../guest-a.ini\n"
                                                "count = node/2\n[scenario:a]\nsmt = keep\n",
                                                &m, &err), ==, 0);
    g_assert_cmpint(rv_harness_matrix_size_counts(m, 1, "this host", &note, &err), ==, -ENOSPC);
    g_assert_error(err, RV_ERROR, RV_ERROR_UNSUPPORTED);
    g_assert_cmpstr(err->message, ==, "tests/data/matrix/ok/inline.ini:2: [guest:semi] count = "
                    "node/2: this host has 1 online CPU, which makes 0 guests (1 to 1024 can "
                    "run)");
    g_clear_error(&err);
    /* 2 CPUs: one guest, named as the section */
    g_assert_cmpint(rv_harness_matrix_size_counts(m, 2, "this host", NULL, &err), ==, 0);
    g_assert_cmpuint(m->guests->len, ==, 1);
    g_assert_cmpstr(((RvMatrixGuest *) m->guests->pdata[0])->name, ==, "semi");
    g_assert_cmpuint(((RvMatrixGuest *) m->guests->pdata[0])->count, ==, 1);
    g_clear_pointer(&m, rv_harness_matrix_free);

    /* node*64 of 17 CPUs: 1088 > 1024 */
    g_assert_cmpint(rv_harness_matrix_load_data(DATA "/ok/inline.ini",
                                                "[guest:semi]\nprofile = ../guest-a.ini\n"
                                                "count = node*64\n[scenario:a]\nsmt = keep\n",
                                                &m, &err), ==, 0);
    g_assert_cmpint(rv_harness_matrix_size_counts(m, 17, "NUMA node 0 of this host", NULL, &err), ==,
                    -ENOSPC);
    g_assert_true(strstr(err->message, "makes 1088 guests (1 to 1024 can run)") != NULL);
    g_clear_error(&err);
    g_clear_pointer(&m, rv_harness_matrix_free);

    /* a name another section took */
    g_assert_cmpint(rv_harness_matrix_load_data(DATA "/ok/inline.ini",
                                                "[guest:semi]\nprofile = ../guest-a.ini\n"
                                                "count = node\n[guest:semi-03]\n"
                                                "profile = ../guest-a.ini\n"
                                                "[scenario:a]\nsmt = keep\n",
                                                &m, &err), ==, 0);
    g_assert_cmpint(rv_harness_matrix_size_counts(m, 4, "package 0 of this host", NULL, &err), ==, -EINVAL);
    g_assert_error(err, RV_ERROR, RV_ERROR_INVALID);
    g_assert_cmpstr(err->message, ==, "tests/data/matrix/ok/inline.ini:2: [guest:semi] count = "
                    "node: guest name 'semi-03' is taken by [guest:semi-03]");
}

/* boot-groups.ini (isol-a, baseline, nosmt, isol-b; isol-a and isol-b
 * one boot): for many seeds the host's boot comes first, every boot's runs
 * are consecutive and hold all repetitions of its cells in rounds, and
 * the order within a boot still depends on the seed. */
static void
test_plan_boots(void)
{
    g_autoptr(GError) err = NULL;
    g_autoptr(RvMatrix) m = NULL;
    unsigned differs = 0;

    if (rv_harness_matrix_load(DATA "/ok/boot-groups.ini", &m, &err) < 0)
        g_error("%s", err->message);
    g_assert_cmpstr(((RvMatrixScenario *) m->scenarios->pdata[0])->boot_key, ==,
                    "isolcpus=1 nohz_full=1");
    g_assert_cmpstr(((RvMatrixScenario *) m->scenarios->pdata[3])->boot_key, ==,
                    "isolcpus=1 nohz_full=1");
    g_assert_cmpstr(((RvMatrixScenario *) m->scenarios->pdata[3])->bootargs[0], ==, "nohz_full=1");
    g_assert_null(((RvMatrixScenario *) m->scenarios->pdata[1])->bootargs);
    for (guint64 seed = 0; seed < 200; seed++) {
        g_autoptr(RvPlan) p = rv_harness_plan_new(m, seed * 0x9e3779b97f4a7c15ULL);
        g_autoptr(RvPlan) q = rv_harness_plan_new(m, (seed + 1) * 0x9e3779b97f4a7c15ULL);
        const RvPlanBoot *b0, *b1, *b2;
        unsigned seen[4] = { 0 };

        g_assert_cmpuint(p->runs->len, ==, 12);
        g_assert_cmpuint(p->boots->len, ==, 3);
        g_assert_cmpuint(p->n_reboots, ==, 2);
        b0 = p->boots->pdata[0];
        b1 = p->boots->pdata[1];
        b2 = p->boots->pdata[2];
        g_assert_null(b0->bootargs);
        g_assert_cmpuint(b0->first_run, ==, 0);
        g_assert_cmpuint(b0->n_runs, ==, 3);
        g_assert_cmpstr(b1->key, ==, "isolcpus=1 nohz_full=1");  /* isol-a comes first in the file */
        g_assert_cmpstr(b1->bootargs[0], ==, "isolcpus=1");
        g_assert_cmpuint(b1->first_run, ==, 3);
        g_assert_cmpuint(b1->n_runs, ==, 6);
        g_assert_cmpstr(b2->key, ==, "nosmt");
        g_assert_cmpuint(b2->first_run, ==, 9);
        g_assert_cmpuint(b2->n_runs, ==, 3);
        for (guint i = 0; i < p->runs->len; i++) {
            const RvPlanRun *r = p->runs->pdata[i];
            const RvPlanBoot *b = p->boots->pdata[r->boot];
            const RvMatrixScenario *sc = m->scenarios->pdata[r->scenario];

            g_assert_cmpuint(r->index, ==, i);
            g_assert_true(i >= b->first_run && i < b->first_run + b->n_runs);
            g_assert_cmpstr(sc->boot_key, ==, b->key);
            /* rounds within the boot: isol's 6 runs are 3 rounds of 2 */
            g_assert_cmpuint(r->round, ==, (i - b->first_run) / (b->n_runs / 3));
            seen[r->scenario]++;
        }
        for (unsigned s = 0; s < 4; s++)
            g_assert_cmpuint(seen[s], ==, 3);
        for (guint i = 3; i < 9; i++)
            differs += ((RvPlanRun *) p->runs->pdata[i])->cell !=
                       ((RvPlanRun *) q->runs->pdata[i])->cell;
    }
    g_assert_cmpuint(differs, >, 300);
}

/* Without bootargs there is one boot, "as booted", and the text has no
 * boot line: plans of older matrices read as before. */
static void
test_plan_one_boot(void)
{
    g_autoptr(GError) err = NULL;
    g_autoptr(RvMatrix) m = NULL;
    g_autoptr(RvPlan) p = NULL;
    g_autofree char *text = NULL, *what = NULL;

    if (rv_harness_matrix_load(DATA "/ok/three-by-two.ini", &m, &err) < 0)
        g_error("%s", err->message);
    p = rv_harness_plan_new(m, 1);
    g_assert_cmpuint(p->boots->len, ==, 1);
    g_assert_cmpuint(p->n_reboots, ==, 0);
    g_assert_cmpuint(((RvPlanBoot *) p->boots->pdata[0])->n_runs, ==, 24);
    text = rv_harness_plan_format(p);
    g_assert_null(strstr(text, "# boot"));
    what = rv_harness_plan_boot_text(p->boots->pdata[0]);
    g_assert_cmpstr(what, ==, "as booted");
}

/* skip reasons per scenario of three-by-two.ini (a, b, c): NULL runs */
static GPtrArray *
skips(const char *a, const char *b, const char *c)
{
    GPtrArray *s = g_ptr_array_new_with_free_func(g_free);

    g_ptr_array_add(s, g_strdup(a));
    g_ptr_array_add(s, g_strdup(b));
    g_ptr_array_add(s, g_strdup(c));
    return s;
}

/* The demo's "10 runs: raw/plan.txt" while 6 of them were skipped. */
static void
test_runs_text(void)
{
    g_autoptr(GError) err = NULL;
    g_autoptr(RvMatrix) m = NULL;
    g_autoptr(RvPlan) plan = NULL;
    g_autoptr(GPtrArray) none = NULL, two = NULL, all = NULL;
    g_autofree char *t0 = NULL, *t1 = NULL, *t2 = NULL, *t3 = NULL;

    if (rv_harness_matrix_load(DATA "/ok/three-by-two.ini", &m, &err) < 0)
        g_error("%s", err->message);
    plan = rv_harness_plan_new(m, m->seed);
    g_assert_cmpuint(plan->runs->len, ==, 24);   /* 3 scenarios x 2 loads x 4 */
    none = skips(NULL, NULL, NULL);
    two = skips(NULL, "smt = off: no SMT", "coresched = vm: no SMT");
    all = skips("x", "y", "z");
    t0 = rv_harness_plan_runs_text(plan, none);
    t1 = rv_harness_plan_runs_text(plan, two);
    t2 = rv_harness_plan_runs_text(plan, all);
    t3 = rv_harness_plan_runs_text(plan, NULL);
    g_assert_cmpstr(t0, ==, "24 runs");
    g_assert_cmpstr(t1, ==, "8 runs (24 planned, 16 skipped)");
    g_assert_cmpstr(t2, ==, "0 runs (24 planned, 24 skipped)");
    g_assert_cmpstr(t3, ==, "24 runs");
}

/* baseline = baseline (the first scenario) in three-by-two.ini; a skipped
 * baseline gets a NOTE naming the scenario compare falls back to (the
 * first that runs). */
static void
test_baseline_note(void)
{
    g_autoptr(GError) err = NULL;
    g_autoptr(RvMatrix) m = NULL;
    g_autoptr(GPtrArray) none = skips(NULL, NULL, NULL);
    g_autoptr(GPtrArray) base = skips("smt = off: SMT not supported", NULL, NULL);
    g_autoptr(GPtrArray) base_next = skips("smt = off: SMT not supported", "y", NULL);
    g_autoptr(GPtrArray) other = skips(NULL, "x", "y");
    g_autoptr(GPtrArray) all = skips("x", "y", "z");
    g_autofree char *n0 = NULL, *n1 = NULL, *n2 = NULL, *n3 = NULL, *n4 = NULL;

    if (rv_harness_matrix_load(DATA "/ok/three-by-two.ini", &m, &err) < 0)
        g_error("%s", err->message);
    g_assert_cmpstr(m->baseline, ==, "baseline");
    n0 = rv_harness_plan_baseline_note(m, none);
    n1 = rv_harness_plan_baseline_note(m, base);
    n2 = rv_harness_plan_baseline_note(m, base_next);
    n3 = rv_harness_plan_baseline_note(m, other);
    n4 = rv_harness_plan_baseline_note(m, all);
    g_assert_null(n0);
    g_assert_cmpstr(n1, ==, "NOTE: baseline scenario 'baseline' is SKIPPED on this host: rtvirt "
                    "compare will use 'nosmt' (the first scenario that runs) as the baseline "
                    "instead");
    g_assert_cmpstr(n2, ==, "NOTE: baseline scenario 'baseline' is SKIPPED on this host: rtvirt "
                    "compare will use 'coresched' (the first scenario that runs) as the "
                    "baseline instead");
    g_assert_null(n3);
    g_assert_cmpstr(n4, ==, "NOTE: baseline scenario 'baseline' is SKIPPED on this host and no "
                    "other scenario runs: nothing to compare");
}

/* A captured counters diff (tests/data/snapshot/debian12-2cpu) as the
 * host-counters record of: a repetition that measured, one stopped by
 * SIGINT, one whose guest did not start. */
static void
test_counters_record(void)
{
    g_autoptr(GError) err = NULL;
    g_autoptr(JsonParser) parser = json_parser_new();
    g_autoptr(GDateTime) t0 = g_date_time_new_utc(2026, 11, 30, 12, 0, 0);
    g_autoptr(GDateTime) t1 = g_date_time_new_utc(2026, 11, 30, 12, 0, 8);
    RvRunRepetition ok = { 0 }, failed = { 0 };
    g_autoptr(RvStoreRecord) r_ok = NULL, r_int = NULL, r_fail = NULL;
    const RvStoreMetric *irq;

    if (!json_parser_load_from_file(parser, "tests/data/snapshot/debian12-2cpu/expected.json",
                                    &err))
        g_error("%s", err->message);
    failed.n_failed = 1;
    failed.first_failure = (char *) "guest rt did not start: boom";

    r_ok = rv_harness_run_counters_record("a", 1, json_parser_get_root(parser), 0, &ok, t0, t1);
    g_assert_cmpstr(r_ok->status, ==, "ok");
    g_assert_null(r_ok->reason);
    g_assert_cmpstr(r_ok->workload, ==, "host-counters");
    g_assert_cmpstr(r_ok->target, ==, "host");
    g_assert_nonnull(r_ok->finished);
    irq = rv_result_store_record_get_metric(r_ok, "interrupts");
    g_assert_nonnull(irq);
    g_assert_cmpfloat(irq->value, >, 0);

    /* SIGINT: the window is cut short; never ok */
    r_int = rv_harness_run_counters_record("a", 2, json_parser_get_root(parser), -ECANCELED,
                                           &ok, t0, t1);
    g_assert_cmpstr(r_int->status, !=, "ok");
    g_assert_cmpstr(r_int->status, ==, "failed");
    g_assert_true(g_str_has_prefix(r_int->reason, "interrupted"));

    /* a guest that did not start: no measured window; never ok */
    r_fail = rv_harness_run_counters_record("a", 3, json_parser_get_root(parser), 0, &failed,
                                            t0, t1);
    g_assert_cmpstr(r_fail->status, ==, "failed");
    g_assert_nonnull(strstr(r_fail->reason, "guest rt did not start: boom"));
}

/* The counters' window beside the plan: a repetition whose measured phase
 * took as long as planned is ok with details.window; one stopped for a
 * minute (SIGSTOP) is "window stretched"; a failed one keeps its reason. */
static void
test_counters_window(void)
{
    g_autoptr(GError) err = NULL;
    g_autoptr(JsonParser) parser = json_parser_new();
    g_autoptr(GDateTime) t0 = g_date_time_new_utc(2026, 11, 30, 12, 0, 0);
    g_autoptr(GDateTime) t1 = g_date_time_new_utc(2026, 11, 30, 12, 1, 30);
    RvMatrix m = { 0 };
    RvRunRepetition ok = { 0 }, stopped = { 0 }, failed = { 0 };
    g_autoptr(RvStoreRecord) r_ok = NULL, r_stop = NULL, r_fail = NULL;
    JsonObject *w;

    if (!json_parser_load_from_file(parser, "tests/data/snapshot/debian12-2cpu/expected.json",
                                    &err))
        g_error("%s", err->message);
    m.warmup_us = 1 * G_USEC_PER_SEC;
    m.duration_us = 3 * G_USEC_PER_SEC;
    ok.matrix = stopped.matrix = failed.matrix = &m;
    ok.measure_us = 6 * G_USEC_PER_SEC;
    ok.wall_us = 40 * G_USEC_PER_SEC;
    stopped.measure_us = 76 * G_USEC_PER_SEC;
    stopped.wall_us = 110 * G_USEC_PER_SEC;
    failed = stopped;
    failed.n_failed = 1;
    failed.first_failure = (char *) "guest rt did not start: boom";

    r_ok = rv_harness_run_counters_record("a", 1, json_parser_get_root(parser), 0, &ok, t0, t1);
    g_assert_cmpstr(r_ok->status, ==, "ok");
    w = json_object_get_object_member(json_node_get_object(r_ok->details), "window");
    g_assert_nonnull(w);
    g_assert_cmpfloat(json_object_get_double_member(w, "planned_s"), ==, 4.0);
    g_assert_cmpfloat(json_object_get_double_member(w, "measure_s"), ==, 6.0);
    g_assert_cmpfloat(json_object_get_double_member(w, "wall_s"), ==, 40.0);
    /* the counters themselves are still there */
    g_assert_true(json_object_has_member(json_node_get_object(r_ok->details), "interrupts"));

    r_stop = rv_harness_run_counters_record("a", 2, json_parser_get_root(parser), 0, &stopped,
                                            t0, t1);
    g_assert_cmpstr(r_stop->status, ==, "failed");
    g_assert_true(g_str_has_prefix(r_stop->reason, "window stretched"));
    g_assert_nonnull(strstr(r_stop->reason, "76.0 s"));

    r_fail = rv_harness_run_counters_record("a", 3, json_parser_get_root(parser), 0, &failed,
                                            t0, t1);
    g_assert_true(g_str_has_prefix(r_fail->reason, "repetition failed"));
}

/* The progress line of a TCG repetition says virt=tcg; a KVM one does not. */
static void
test_status_line(void)
{
    RvRunRepetition ok = { 0 }, failed = { 0 }, bare = { 0 };
    g_autofree char *a = NULL, *b = NULL, *c = NULL, *d = NULL, *e = NULL;

    ok.summary = (char *) "rt max 39050 us";
    failed.n_failed = 1;
    failed.first_failure = (char *) "guest rt did not start";
    a = rv_harness_run_status_line(&ok, "tcg");
    b = rv_harness_run_status_line(&ok, "kvm");
    c = rv_harness_run_status_line(&failed, "tcg");
    d = rv_harness_run_status_line(&bare, NULL);
    e = rv_harness_run_status_line(&failed, NULL);
    g_assert_cmpstr(a, ==, "ok (virt=tcg): rt max 39050 us");
    g_assert_cmpstr(b, ==, "ok: rt max 39050 us");
    g_assert_cmpstr(c, ==, "FAILED (virt=tcg): guest rt did not start");
    g_assert_cmpstr(d, ==, "ok");
    g_assert_cmpstr(e, ==, "FAILED: guest rt did not start");
}

/* The summary's reasons: virt=tcg first, whatever order the store has. */
static void
test_reasons_ordered(void)
{
    g_autoptr(GPtrArray) in = g_ptr_array_new();
    g_autoptr(GPtrArray) out = NULL;
    g_autoptr(GPtrArray) empty = NULL;

    g_ptr_array_add(in, (gpointer) "the matrix names no host_profile: nothing checked");
    g_ptr_array_add(in, (gpointer) "host not as x.ini requires: y");
    g_ptr_array_add(in, (gpointer) "guest rt: memory not locked");
    g_ptr_array_add(in, (gpointer) "a");
    g_ptr_array_add(in, (gpointer) "b");
    g_ptr_array_add(in, (gpointer) "virt=tcg: QEMU emulates the guests without KVM");
    g_ptr_array_add(in, (gpointer) "c");
    out = rv_harness_run_reasons_ordered(in);
    g_assert_cmpuint(out->len, ==, in->len);
    g_assert_cmpstr(out->pdata[0], ==, "virt=tcg: QEMU emulates the guests without KVM");
    g_assert_cmpstr(out->pdata[1], ==, "the matrix names no host_profile: nothing checked");
    g_assert_cmpstr(out->pdata[6], ==, "c");
    empty = rv_harness_run_reasons_ordered(NULL);
    g_assert_cmpuint(empty->len, ==, 0);
}

/* "Runs: 4 ok" while every repetition had a verification FAIL. */
static void
test_summary_runs(void)
{
    g_autofree char *a = rv_harness_run_summary_runs(4, 0, 4);
    g_autofree char *b = rv_harness_run_summary_runs(4, 1, 0);
    g_autofree char *c = rv_harness_run_summary_runs(3, 1, 2);

    g_assert_cmpstr(a, ==, "4 ok (measured; 4 with verification FAIL, results untrusted), 0 failed");
    g_assert_cmpstr(b, ==, "4 ok, 1 failed");
    g_assert_cmpstr(c, ==, "3 ok (measured; 2 with verification FAIL, results untrusted), 1 failed");
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
    g_test_add_func("/plan/boots", test_plan_boots);
    g_test_add_func("/plan/one-boot", test_plan_one_boot);
    g_test_add_func("/matrix/load-data-relative", test_load_data_relative);
    g_test_add_func("/matrix/size-counts", test_size_counts);
    g_test_add_func("/plan/runs-text", test_runs_text);
    g_test_add_func("/plan/baseline-note", test_baseline_note);
    g_test_add_func("/run/counters-record", test_counters_record);
    g_test_add_func("/run/counters-window", test_counters_window);
    g_test_add_func("/run/status-line", test_status_line);
    g_test_add_func("/run/reasons-ordered", test_reasons_ordered);
    g_test_add_func("/run/summary-runs", test_summary_runs);
    return g_test_run();
}
