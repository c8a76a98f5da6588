/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * harness/plan.c: matrix -> ordered runs (see harness/plan.h).
 */
#include <errno.h>
#include <string.h>

#include "harness/plan.h"
#include "harness/run.h"
#include "util/error.h"

/* SplitMix64 (Steele, Lea, Flood: "Fast splittable pseudorandom number
 * generators", OOPSLA 2014; constants as in Vigna's reference code).
 * Our own so that a recorded seed replays the same order everywhere. */
static guint64
splitmix64(guint64 *state)
{
    guint64 z = (*state += 0x9e3779b97f4a7c15ULL);

    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
    return z ^ (z >> 31);
}

/* Uniform in [0, bound) without modulo bias (rejection sampling). */
static guint64
bounded(guint64 *state, guint64 bound)
{
    guint64 limit = G_MAXUINT64 - G_MAXUINT64 % bound;
    guint64 x;

    do
        x = splitmix64(state);
    while (x >= limit);
    return x % bound;
}

static void
run_free(gpointer p)
{
    RvPlanRun *r = p;

    if (!r)
        return;
    g_free(r->cell_name);
    g_free(r);
}

static void
boot_free(gpointer p)
{
    RvPlanBoot *b = p;

    if (!b)
        return;
    g_strfreev(b->bootargs);
    g_free(b->key);
    g_free(b);
}

void
rv_harness_plan_free(RvPlan *plan)
{
    if (!plan)
        return;
    g_ptr_array_unref(plan->boots);
    g_ptr_array_unref(plan->runs);
    g_ptr_array_unref(plan->cell_names);
    g_free(plan);
}

guint64
rv_harness_plan_draw_seed(void)
{
    return ((guint64) g_random_int() << 32) | g_random_int();
}

RvPlan *
rv_harness_plan_new(const RvMatrix *m, guint64 seed)
{
    RvPlan *plan = g_new0(RvPlan, 1);
    unsigned nloads = m->loads->len;
    g_autofree unsigned *order = NULL;
    g_autofree unsigned *boot_of = NULL;
    guint64 state = seed;

    plan->seed = seed;
    plan->order = m->order;
    plan->ncells = m->scenarios->len * nloads;
    plan->repetitions = m->repetitions;
    plan->runs = g_ptr_array_new_with_free_func(run_free);
    plan->cell_names = g_ptr_array_new_with_free_func(g_free);
    plan->boots = g_ptr_array_new_with_free_func(boot_free);

    for (unsigned c = 0; c < plan->ncells; c++) {
        const RvMatrixScenario *s = m->scenarios->pdata[c / nloads];
        const RvMatrixLoad *l = m->loads->pdata[c % nloads];

        g_ptr_array_add(plan->cell_names,
                        nloads == 1 ? g_strdup(s->name)
                                    : g_strdup_printf("%s@%s", s->name, l->name));
    }

    /* the boots: the host's first (when a scenario needs no bootargs),
     * then each distinct key in file order */
    boot_of = g_new(unsigned, m->scenarios->len);
    for (int pass = 0; pass < 2; pass++)
        for (guint s = 0; s < m->scenarios->len; s++) {
            const RvMatrixScenario *sc = m->scenarios->pdata[s];
            RvPlanBoot *b = NULL;

            if ((pass == 0) != (sc->boot_key == NULL))
                continue;
            for (guint k = 0; k < plan->boots->len && !b; k++) {
                RvPlanBoot *o = plan->boots->pdata[k];

                if (g_strcmp0(o->key, sc->boot_key) == 0)
                    b = o;
            }
            if (!b) {
                b = g_new0(RvPlanBoot, 1);
                b->index = plan->boots->len;
                b->key = g_strdup(sc->boot_key);
                b->bootargs = g_strdupv(sc->bootargs);
                plan->n_reboots += b->key != NULL;
                g_ptr_array_add(plan->boots, b);
            }
            boot_of[s] = b->index;
        }

    order = g_new(unsigned, plan->ncells);
    for (guint bi = 0; bi < plan->boots->len; bi++) {
        RvPlanBoot *b = plan->boots->pdata[bi];
        unsigned n = 0;

        b->first_run = plan->runs->len;
        for (unsigned r = 0; r < m->repetitions; r++) {
            n = 0;
            for (unsigned c = 0; c < plan->ncells; c++)
                if (boot_of[c / nloads] == bi)
                    order[n++] = c;
            if (m->order == RV_MATRIX_ORDER_RANDOM)
                for (unsigned i = n; i > 1; i--) {
                    unsigned j = bounded(&state, i);
                    unsigned t = order[i - 1];

                    order[i - 1] = order[j];
                    order[j] = t;
                }
            for (unsigned c = 0; c < n; c++) {
                RvPlanRun *run = g_new0(RvPlanRun, 1);

                run->index = plan->runs->len;
                run->round = r;
                run->cell = order[c];
                run->scenario = order[c] / nloads;
                run->load = order[c] % nloads;
                run->cell_name = g_strdup(plan->cell_names->pdata[order[c]]);
                run->boot = bi;
                g_ptr_array_add(plan->runs, run);
            }
        }
        b->n_runs = plan->runs->len - b->first_run;
    }
    return plan;
}

char *
rv_harness_plan_format(const RvPlan *plan)
{
    GString *out = g_string_new(NULL);
    bool headed = plan->n_reboots > 0;

    for (guint i = 0; i < plan->runs->len; i++) {
        const RvPlanRun *r = plan->runs->pdata[i];
        const RvPlanBoot *b = plan->boots->pdata[r->boot];

        if (headed && b->first_run == i) {
            g_autofree char *what = rv_harness_plan_boot_text(b);

            g_string_append_printf(out, "# boot %u: %s (%u run%s)\n", b->index, what, b->n_runs,
                                   b->n_runs == 1 ? "" : "s");
        }
        g_string_append_printf(out, "%u %u %s\n", r->index, r->round, r->cell_name);
    }
    return g_string_free(out, FALSE);
}

char *
rv_harness_plan_boot_text(const RvPlanBoot *b)
{
    g_autofree char *joined = NULL;

    if (!b->bootargs)
        return g_strdup("as booted");
    joined = g_strjoinv(" ", b->bootargs);
    return g_strdup_printf("reboot with %s", joined);
}

char *
rv_harness_plan_runs_text(const RvPlan *plan, GPtrArray *skip)
{
    unsigned runnable = 0;

    for (guint i = 0; i < plan->runs->len; i++) {
        const RvPlanRun *r = plan->runs->pdata[i];

        if (!skip || r->scenario >= skip->len || !skip->pdata[r->scenario])
            runnable++;
    }
    if (runnable == plan->runs->len)
        return g_strdup_printf("%u run%s", runnable, runnable == 1 ? "" : "s");
    return g_strdup_printf("%u run%s (%u planned, %u skipped)", runnable,
                           runnable == 1 ? "" : "s", plan->runs->len,
                           plan->runs->len - runnable);
}

char *
rv_harness_plan_baseline_note(const RvMatrix *m, GPtrArray *skip)
{
    const RvMatrixScenario *instead = NULL;
    guint base = m->scenarios->len;

    if (!skip || !m->baseline)
        return NULL;
    for (guint i = 0; i < m->scenarios->len && i < skip->len; i++) {
        const RvMatrixScenario *sc = m->scenarios->pdata[i];

        if (strcmp(sc->name, m->baseline) == 0)
            base = i;
        else if (!skip->pdata[i] && !instead)
            instead = sc;
    }
    if (base >= skip->len || !skip->pdata[base])
        return NULL;
    if (!instead)
        return g_strdup_printf("NOTE: baseline scenario '%s' is SKIPPED on this host and no "
                               "other scenario runs: nothing to compare", m->baseline);
    return g_strdup_printf("NOTE: baseline scenario '%s' is SKIPPED on this host: rtvirt "
                           "compare will use '%s' (the first scenario that runs) as the "
                           "baseline instead", m->baseline, instead->name);
}

static int
matrix_guest_index(const RvMatrix *m, const RvMatrixGuest *g)
{
    for (guint i = 0; i < m->guests->len; i++)
        if (m->guests->pdata[i] == g)
            return (int) i;
    g_assert_not_reached();
}

/* One guest of @sc on @hc with the scenario's sibling policy. */
static int
place_one(const RvMatrixScenario *sc, const RvMatrixGuest *g, const RvGuestProfile *p,
          const RvGuestHostCpus *hc, RvGuestPlacement **ret, GError **error)
{
    RvGuestSiblingPolicy sib = p->host_sibling;
    g_autoptr(GError) local = NULL;

    if (sc->host_sibling == RV_MATRIX_SIBLING_IDLE)
        sib = RV_GUEST_SIBLING_IDLE;
    else if (sc->host_sibling == RV_MATRIX_SIBLING_SHARED)
        sib = RV_GUEST_SIBLING_SHARED;
    if (rv_guest_place_sibling(p, sib, hc, ret, &local) < 0) {
        RvErrorCode code = local->domain == RV_ERROR ? local->code : RV_ERROR_INVALID;

        if (code != RV_ERROR_UNSUPPORTED)
            code = RV_ERROR_INVALID;
        /* RV_ERROR_UNSUPPORTED: the scenario's SKIPPED reason, or the
         * error with its FILE:LINE (rv_harness_plan_place()) */
        if (code == RV_ERROR_UNSUPPORTED)
            return rv_error_set(error, code, EINVAL, "guest '%s' cannot be placed on this host: %s",
                                g->name, local->message);
        return rv_error_set(error, code, EINVAL,
                            "%s:%u: [scenario:%s]: guest '%s' cannot be placed on this host: %s",
                            sc->file, sc->line, sc->name, g->name, local->message);
    }
    return 0;
}

/* The budget of @sc on @hc (the primary threads already, for smt = off). */
static void
budget_on(const RvMatrix *m, const RvMatrixScenario *sc, GPtrArray *pls,
          const RvGuestHostCpus *hc, RvPlanBudget *b)
{
    RvCpuSet shared, off_balance;

    memset(b, 0, sizeof(*b));
    rv_cpuset_zero(&shared);
    for (guint i = 0; i < sc->guests->len; i++)
        b->n_neighbours += ((RvMatrixGuest *) sc->guests->pdata[i])->role != RV_MATRIX_ROLE_RT;
    b->primaries_only = sc->smt == RV_MATRIX_SMT_OFF;
    b->unpinned = sc->placement == RV_MATRIX_PLACEMENT_UNPINNED;
    b->cpus = hc->online;
    if (b->unpinned) {
        b->floating = b->cpus;
        return;
    }
    for (guint i = 0; i < pls->len; i++) {
        const RvGuestPlacement *pl = pls->pdata[i];

        if (!pl || rv_cpuset_is_empty(&pl->rt_cpus))
            continue;
        rv_cpuset_or(&b->rt_cpus, &b->rt_cpus, &pl->rt_cpus);
        rv_cpuset_or(&b->siblings, &b->siblings, &pl->idle_siblings);
        rv_cpuset_or(&b->siblings, &b->siblings, &pl->shared_siblings);
        rv_cpuset_or(&shared, &shared, &pl->shared_siblings);
    }
    b->siblings_given = !rv_cpuset_is_empty(&shared);
    rv_cpuset_andnot(&b->cpus, &b->cpus, &b->rt_cpus);
    rv_cpuset_andnot(&b->cpus, &b->cpus, &b->siblings);
    rv_cpuset_or(&b->cpus, &b->cpus, &shared);
    rv_cpuset_andnot(&b->cpus, &b->cpus, &hc->kept_idle);
    /* a [host] workload's CPUs are the host's, not the neighbours' */
    if (m->host_workload)
        rv_cpuset_andnot(&b->cpus, &b->cpus, m->host_cpus_isolated ? &hc->isolated
                                                                   : &m->host_cpus);
    /* isolcpus=domain CPUs are outside load balancing: a vCPU free to run
     * there and on housekeeping CPUs would never be moved there */
    rv_cpuset_or(&off_balance, &hc->isolated, &shared);
    rv_cpuset_and(&b->dealt_pool, &b->cpus, &off_balance);
    rv_cpuset_andnot(&b->floating, &b->cpus, &b->dealt_pool);
}

void
rv_harness_plan_budget(const RvMatrix *m, const RvMatrixScenario *sc, GPtrArray *pls,
                       const RvGuestHostCpus *host, RvPlanBudget *ret)
{
    g_autoptr(RvGuestHostCpus) primaries = NULL;

    if (sc->smt == RV_MATRIX_SMT_OFF)
        primaries = rv_guest_host_cpus_primaries(host);
    budget_on(m, sc, pls, primaries ? primaries : host, ret);
}

char *
rv_harness_plan_budget_text(const RvPlanBudget *b)
{
    g_autofree char *cpus = rv_cpulist_format(&b->cpus);
    g_autofree char *rt = rv_cpulist_format(&b->rt_cpus);
    g_autofree char *sib = rv_cpulist_format(&b->siblings);
    g_autofree char *pool = rv_cpulist_format(&b->dealt_pool);
    GString *o = g_string_new(NULL);
    unsigned n = rv_cpuset_count(&b->cpus);

    g_string_append_printf(o, "CPU%s %s (%u)", n == 1 ? "" : "s", n ? cpus : "none", n);
    if (b->unpinned) {
        g_string_append(o, ": every online CPU, every vCPU floats (placement = unpinned)");
        return g_string_free(o, FALSE);
    }
    if (rv_cpuset_is_empty(&b->rt_cpus))
        g_string_append(o, ": every online CPU (no RT vCPU)");
    else
        g_string_append_printf(o, ": all but the RT vCPUs' CPUs %s", rt);
    if (!rv_cpuset_is_empty(&b->siblings))
        g_string_append_printf(o, b->siblings_given ? ", with the RT cores' SMT siblings %s"
                                                    : ", without the RT cores' SMT siblings %s "
                                                      "(kept idle)", sib);
    if (b->primaries_only)
        g_string_append(o, ", primary threads only (smt = off)");
    if (!rv_cpuset_is_empty(&b->dealt_pool))
        g_string_append_printf(o, "; one vCPU each on %s (outside load balancing)", pool);
    return g_string_free(o, FALSE);
}

/* Layer @k of @pool: the k-th online thread of every core that is in it
 * (layer 0 one thread per core, then the second threads...): the order in
 * which the scheduler fills idle cores, so that no topology numbering
 * puts two neighbour vCPUs on one core while a whole core is free. */
static bool
pool_layer(const RvGuestHostCpus *hc, const RvCpuSet *pool, unsigned k, RvCpuSet *ret)
{
    bool more = false;

    rv_cpuset_zero(ret);
    for (guint i = 0; i < hc->cores->len; i++) {
        const RvCpuSet *core = &g_array_index(hc->cores, RvCpuSet, i);
        unsigned t = 0;

        rv_cpuset_foreach(cpu, core) {
            if (t++ != k)
                continue;
            more = true;
            if (rv_cpuset_isset(pool, cpu))
                rv_cpuset_set(ret, cpu);
        }
    }
    return more;
}

static void
json_cpus(JsonBuilder *b, const char *key, const RvCpuSet *set)
{
    g_autofree char *l = rv_cpuset_is_empty(set) ? g_strdup("") : rv_cpulist_format(set);

    json_builder_set_member_name(b, key);
    json_builder_add_string_value(b, l);
}

static void
json_bool(JsonBuilder *b, const char *key, bool v)
{
    json_builder_set_member_name(b, key);
    json_builder_add_boolean_value(b, v);
}

void
rv_harness_plan_budget_json(JsonBuilder *b, const RvPlanBudget *bu)
{
    g_autofree char *text = rv_harness_plan_budget_text(bu);

    json_builder_set_member_name(b, "neighbour_budget");
    if (!bu->n_neighbours) {
        json_builder_add_null_value(b);
        return;
    }
    json_builder_begin_object(b);
    json_cpus(b, "cpus", &bu->cpus);
    json_builder_set_member_name(b, "count");
    json_builder_add_int_value(b, rv_cpuset_count(&bu->cpus));
    json_cpus(b, "rt_cpus", &bu->rt_cpus);
    json_cpus(b, "rt_siblings", &bu->siblings);
    json_bool(b, "rt_siblings_given", bu->siblings_given);
    json_bool(b, "primaries_only", bu->primaries_only);
    json_bool(b, "unpinned", bu->unpinned);
    json_cpus(b, "one_vcpu_each", &bu->dealt_pool);
    json_cpus(b, "floating", &bu->floating);
    json_builder_set_member_name(b, "text");
    json_builder_add_string_value(b, text);
    json_builder_end_object(b);
}

/* The neighbours of @sc into its budget: one vCPU each on the CPUs outside
 * load balancing, the shared siblings first, then the others core by core;
 * the remaining vCPUs float over the rest of the budget. */
static void
deal_neighbours(const RvMatrix *m, const RvMatrixScenario *sc, GPtrArray *pls,
                const RvGuestHostCpus *hc, const RvCpuSet *shared, RvCpuSet *dealt,
                int *ret_last)
{
    RvPlanBudget b;
    RvCpuSet rest, layer;

    budget_on(m, sc, pls, hc, &b);
    rv_cpuset_andnot(&rest, &b.dealt_pool, shared);
    for (unsigned k = 0; ; k++) {
        bool more = k == 0 || pool_layer(hc, &rest, k - 1, &layer);

        if (!more)
            break;
        for (guint i = 0; i < sc->guests->len; i++) {
            RvGuestPlacement *pl = pls->pdata[i];

            if (!rv_cpuset_is_empty(&pl->rt_cpus) || !pl->n_vcpus)
                continue;
            if (rv_guest_placement_deal(pl, k == 0 ? shared : &layer, dealt) && k == 0)
                *ret_last = (int) i;
        }
    }
    for (guint i = 0; i < sc->guests->len && !rv_cpuset_is_empty(&b.floating); i++) {
        RvGuestPlacement *pl = pls->pdata[i];

        if (!rv_cpuset_is_empty(&pl->rt_cpus))
            continue;
        for (unsigned v = 0; v < pl->n_vcpus; v++) {
            RvGuestVcpuPlacement *vp = &pl->vcpus[v];

            if (vp->rt || (rv_cpuset_count(&vp->cpuset) == 1 &&
                           rv_cpuset_intersects(&vp->cpuset, dealt)))
                continue;
            vp->cpuset = b.floating;
        }
    }
}

/* The guests of one scenario: RT ones first (pass 0), then the others,
 * which get the neighbour budget dealt. */
static int
place_scenario(const RvMatrix *m, const RvMatrixScenario *sc, GPtrArray *profiles,
               RvGuestHostCpus *hc, GPtrArray *pls, GError **error)
{
    RvCpuSet shared, dealt;
    int last_neighbour = -1;

    rv_cpuset_zero(&shared);
    rv_cpuset_zero(&dealt);
    g_ptr_array_set_size(pls, sc->guests->len);
    for (int pass = 0; pass < 2; pass++)
        for (guint i = 0; i < sc->guests->len; i++) {
            const RvMatrixGuest *g = sc->guests->pdata[i];
            const RvGuestProfile *p = profiles->pdata[matrix_guest_index(m, g)];
            bool has_rt = !rv_cpuset_is_empty(&p->rt_vcpus);
            RvGuestPlacement *pl = NULL;

            if (has_rt != (pass == 0))
                continue;
            if (place_one(sc, g, p, hc, &pl, error) < 0)
                return -EINVAL;
            pls->pdata[i] = pl;
            if (sc->placement == RV_MATRIX_PLACEMENT_UNPINNED) {
                rv_harness_run_unpin(pl, &hc->online);
                continue;
            }
            if (sc->vcpu_sched_other)
                for (unsigned v = 0; v < pl->n_vcpus; v++) {
                    pl->vcpus[v].policy = RV_GUEST_SCHED_OTHER;
                    pl->vcpus[v].priority = 0;
                }
            rv_cpuset_or(&hc->reserved, &hc->reserved, &pl->rt_cpus);
            rv_cpuset_or(&shared, &shared, &pl->shared_siblings);
        }
    if (sc->placement != RV_MATRIX_PLACEMENT_UNPINNED)
        deal_neighbours(m, sc, pls, hc, &shared, &dealt, &last_neighbour);
    if (last_neighbour >= 0 && !rv_cpuset_is_subset(&shared, &dealt)) {
        RvGuestPlacement *pl = pls->pdata[last_neighbour];
        RvCpuSet idle, on;
        g_autofree char *l = NULL;

        rv_cpuset_andnot(&idle, &shared, &dealt);
        rv_cpuset_and(&on, &shared, &dealt);
        l = rv_cpulist_format(&idle);
        g_ptr_array_add(pl->notes,
                        g_strdup_printf("NOTE shared SMT siblings %s carry no neighbour vCPU: "
                                        "the neighbours have %u vCPUs for %u siblings", l,
                                        rv_cpuset_count(&on), rv_cpuset_count(&shared)));
    }
    return 0;
}

int
rv_harness_plan_place(const RvMatrix *m, GPtrArray *profiles, RvGuestHostCpus *host,
                      GPtrArray **ret, GPtrArray **ret_unplaced, GError **error)
{
    g_autoptr(GPtrArray) all = g_ptr_array_new_with_free_func((GDestroyNotify) g_ptr_array_unref);
    g_autoptr(GPtrArray) unplaced = g_ptr_array_new_with_free_func(g_free);
    RvCpuSet reserved = host->reserved;

    for (guint s = 0; s < m->scenarios->len; s++) {
        const RvMatrixScenario *sc = m->scenarios->pdata[s];
        GPtrArray *pls = g_ptr_array_new_with_free_func((GDestroyNotify) rv_guest_placement_free);
        g_autoptr(RvGuestHostCpus) primaries = NULL;
        RvGuestHostCpus *hc = host;
        g_autoptr(GError) local = NULL;
        int r;

        g_ptr_array_add(all, pls);
        if (sc->smt == RV_MATRIX_SMT_OFF)
            hc = primaries = rv_guest_host_cpus_primaries(host);
        hc->reserved = reserved;
        r = place_scenario(m, sc, profiles, hc, pls, &local);
        host->reserved = reserved;
        if (r < 0 && ret_unplaced && g_error_matches(local, RV_ERROR, RV_ERROR_UNSUPPORTED)) {
            /* this host lacks what the scenario's guests need: the
             * scenario is SKIPPED with the reason, the others placed */
            g_ptr_array_set_size(pls, 0);
            g_ptr_array_add(unplaced, g_strdup(local->message));
            g_clear_error(&local);
            continue;
        }
        if (r < 0) {
            if (g_error_matches(local, RV_ERROR, RV_ERROR_UNSUPPORTED))
                g_prefix_error(&local, "%s:%u: [scenario:%s]: ", sc->file, sc->line, sc->name);
            g_propagate_error(error, g_steal_pointer(&local));
            return r;
        }
        g_ptr_array_add(unplaced, NULL);
    }
    *ret = g_steal_pointer(&all);
    if (ret_unplaced)
        *ret_unplaced = g_steal_pointer(&unplaced);
    return 0;
}

/* MemTotal of /proc/meminfo is the caller's; here only arithmetic. */
static guint64
round_down(guint64 v, guint64 unit)
{
    return unit ? v / unit * unit : v;
}

/* A scenario whose guests do not fit: SKIPPED with @why where the caller
 * takes reasons (@short_of), else the error "FILE:LINE: [scenario:NAME]:
 * WHY" (exit 77). */
static int
memory_short(const RvMatrixScenario *sc, GPtrArray *short_of, guint s, char *why, GError **error)
{
    if (short_of) {
        g_free(short_of->pdata[s]);
        short_of->pdata[s] = why;
        return 0;
    }
    rv_error_set(error, RV_ERROR_UNSUPPORTED, ENOSPC, "%s:%u: [scenario:%s]: %s", sc->file,
                 sc->line, sc->name, why);
    g_free(why);
    return -ENOSPC;
}

int
rv_harness_plan_size_memory(const RvMatrix *m, GPtrArray *profiles, guint64 mem_total,
                            char **ret_note, GPtrArray **ret_short, GError **error)
{
    guint64 budget = mem_total / 2;
    g_autofree guint64 *size = NULL;
    g_autoptr(GString) note = g_string_new(NULL);
    g_autoptr(GPtrArray) short_of = NULL;

    if (ret_note)
        *ret_note = NULL;
    if (ret_short) {
        short_of = g_ptr_array_new_with_free_func(g_free);
        g_ptr_array_set_size(short_of, m->scenarios->len);
        *ret_short = NULL;
    }
    if (!mem_total) {
        if (ret_short)
            *ret_short = g_steal_pointer(&short_of);
        return 0;
    }
    size = g_new0(guint64, m->guests->len);
    for (guint i = 0; i < m->guests->len; i++)
        size[i] = ((RvGuestProfile *) profiles->pdata[i])->memory_bytes;

    for (guint s = 0; s < m->scenarios->len; s++) {
        const RvMatrixScenario *sc = m->scenarios->pdata[s];
        guint64 fixed = 0, wanted = 0, each;
        unsigned n_count = 0;
        const RvMatrixGuest *firstc = NULL;

        for (guint i = 0; i < sc->guests->len; i++) {
            const RvMatrixGuest *g = sc->guests->pdata[i];
            const RvGuestProfile *p = profiles->pdata[matrix_guest_index(m, g)];

            if (g->count > 1) {
                n_count++;
                wanted += p->memory_bytes;
                firstc = firstc ? firstc : g;
            } else {
                fixed += p->memory_bytes;
            }
        }
        if (fixed > budget) {
            if (memory_short(sc, short_of, s, g_strdup_printf(
                    "short of memory: its guests need %" G_GUINT64_FORMAT " MiB%s, more than "
                    "half of this host's %" G_GUINT64_FORMAT " MiB", fixed >> 20,
                    n_count ? " without the count guests" : "", mem_total >> 20), error) < 0)
                return -ENOSPC;
            continue;
        }
        if (!n_count || fixed + wanted <= budget)
            continue;
        each = fixed < budget ? (budget - fixed) / n_count : 0;
        if (each < RV_HARNESS_PLAN_MIN_GUEST_MEMORY) {
            if (memory_short(sc, short_of, s, g_strdup_printf(
                    "short of memory: [guest:%s] count = %u (%s:%u): the %u count guests need %"
                    G_GUINT64_FORMAT " MiB each at least, beside %" G_GUINT64_FORMAT " MiB of "
                    "the other guests, and a scenario may take half of this host's %"
                    G_GUINT64_FORMAT " MiB", firstc->group, firstc->count, firstc->file,
                    firstc->line, n_count, (guint64) RV_HARNESS_PLAN_MIN_GUEST_MEMORY >> 20,
                    fixed >> 20, mem_total >> 20), error) < 0)
                return -ENOSPC;
            continue;
        }
        for (guint i = 0; i < sc->guests->len; i++) {
            const RvMatrixGuest *g = sc->guests->pdata[i];
            guint gi = matrix_guest_index(m, g);
            const RvGuestProfile *p = profiles->pdata[gi];
            guint64 v = round_down(each, p->hugepages && p->hugepage_bytes ? p->hugepage_bytes
                                                                           : 16u << 20);

            if (g->count > 1)
                size[gi] = MIN(size[gi], MAX(v, (guint64) RV_HARNESS_PLAN_MIN_GUEST_MEMORY));
        }
    }
    for (guint i = 0; i < m->guests->len; i++) {
        RvGuestProfile *p = profiles->pdata[i];
        const RvMatrixGuest *g = m->guests->pdata[i];

        if (size[i] == p->memory_bytes)
            continue;
        if (g->index == 1)
            g_string_append_printf(note, "%s[guest:%s] %u x %" G_GUINT64_FORMAT " MiB instead "
                                   "of %" G_GUINT64_FORMAT " MiB", note->len ? ", " : "",
                                   g->group, g->count, size[i] >> 20, p->memory_bytes >> 20);
        p->memory_bytes = size[i];
    }
    if (note->len && ret_note)
        *ret_note = g_strdup_printf("NOTE guest memory: %s: a scenario's guests may take half "
                                    "of this host's %" G_GUINT64_FORMAT " MiB", note->str,
                                    mem_total >> 20);
    if (ret_short)
        *ret_short = g_steal_pointer(&short_of);
    return 0;
}

GPtrArray *
rv_harness_plan_format_guests(const RvMatrixScenario *sc, GPtrArray *pls)
{
    GPtrArray *out = g_ptr_array_new_with_free_func(g_free);

    if (pls->len < sc->guests->len)
        return out;   /* not placed on this host (rv_harness_plan_place()) */
    for (guint i = 0; i < sc->guests->len; ) {
        const RvMatrixGuest *g = sc->guests->pdata[i];
        g_autofree char *text = rv_guest_placement_format(pls->pdata[i]);
        g_auto(GStrv) lines = NULL;
        g_autofree char *who = NULL;
        guint j = i + 1;

        /* the run of this section's guests that read alike */
        while (g->count > 1 && j < sc->guests->len) {
            const RvMatrixGuest *h = sc->guests->pdata[j];
            g_autofree char *t = NULL;

            if (h->count <= 1 || strcmp(h->group, g->group) != 0)
                break;
            t = rv_guest_placement_format(pls->pdata[j]);
            if (strcmp(t, text) != 0)
                break;
            j++;
        }
        who = j - i > 1 ? g_strdup_printf("%s..%s (%u guests)", g->name,
                                          ((RvMatrixGuest *) sc->guests->pdata[j - 1])->name,
                                          j - i)
                        : g_strdup(g->name);
        lines = g_strsplit(text, "\n", -1);
        for (guint l = 0; lines[l] && *lines[l]; l++)
            g_ptr_array_add(out, g_strdup_printf("%s: %s", who, lines[l]));
        i = j;
    }
    return out;
}

char *
rv_harness_plan_node(const RvGuestHostCpus *host, RvCpuSet *ret_node)
{
    *ret_node = host->online;
    if (host->groups && host->groups->len) {
        const RvCpuGroup *g0 = &g_array_index(host->groups, RvCpuGroup, 0);

        rv_cpuset_and(ret_node, &g0->cpus, &host->online);
        return g_strdup_printf("%s %d of this host", host->groups_are_nodes ? "NUMA node"
                                                                            : "package", g0->id);
    }
    return g_strdup("this host");
}

/* Guest @g sized too large or too small for this host: every scenario
 * that runs it gets @why (the first reason stays), or the error. */
static int
vcpus_short(const RvMatrix *m, const RvMatrixGuest *g, GPtrArray *short_of, char *why,
            GError **error)
{
    if (!short_of) {
        rv_error_set(error, RV_ERROR_UNSUPPORTED, ENOSPC, "%s", why);
        g_free(why);
        return -ENOSPC;
    }
    for (guint s = 0; s < m->scenarios->len; s++) {
        const RvMatrixScenario *sc = m->scenarios->pdata[s];

        for (guint i = 0; i < sc->guests->len; i++)
            if (sc->guests->pdata[i] == g && !short_of->pdata[s]) {
                short_of->pdata[s] = g_strdup(why);
                break;
            }
    }
    g_free(why);
    return 0;
}

int
rv_harness_plan_size_guests(const RvMatrix *m, GPtrArray *profiles, const RvGuestHostCpus *host,
                            GPtrArray **ret_short, GError **error)
{
    RvCpuSet node;
    g_autofree char *what = rv_harness_plan_node(host, &node);
    g_autoptr(GPtrArray) short_of = NULL;

    if (ret_short) {
        short_of = g_ptr_array_new_with_free_func(g_free);
        g_ptr_array_set_size(short_of, m->scenarios->len);
        *ret_short = NULL;
    }
    for (guint i = 0; i < m->guests->len; i++) {
        const RvMatrixGuest *g = m->guests->pdata[i];
        RvGuestProfile *p = profiles->pdata[i];
        unsigned n = rv_cpuset_count(&node), v = g->vcpus;

        if (g->memory_bytes)
            p->memory_bytes = g->memory_bytes;
        if (!g->vcpus && !g->vcpus_node_div)
            continue;
        if (!rv_cpuset_is_empty(&p->rt_vcpus))
            return rv_error_set(error, RV_ERROR_INVALID, EINVAL,
                                "%s:%u: [guest:%s] vcpus: only for guests without RT vCPUs "
                                "(profile %s has rt_vcpus = %s)", g->file, g->line, g->group,
                                p->path ? p->path : p->name, p->rt_vcpus_spec);
        if (g->vcpus_node_div)
            v = n / g->vcpus_node_div;
        if (v < 1 || v > n) {
            /* in the field's terms: the vCPUs asked against the CPUs there */
            char *why = g->vcpus_node_div
                ? g_strdup_printf("%s: [guest:%s] vcpus = node/%u: %s has %u online CPU%s, "
                                  "%u / %u is no vCPU (the guest needs at least 1)", g->vcpus_at,
                                  g->group, g->vcpus_node_div, what, n, n == 1 ? "" : "s", n,
                                  g->vcpus_node_div)
                : g_strdup_printf("%s: [guest:%s] vcpus = %u: the guest asks %u vCPUs, %s has "
                                  "%u online CPU%s (a guest the matrix sizes gets at most one "
                                  "vCPU per CPU)", g->vcpus_at, g->group, g->vcpus, g->vcpus,
                                  what, n, n == 1 ? "" : "s");

            if (vcpus_short(m, g, short_of, why, error) < 0)
                return -ENOSPC;
            /* its scenarios are SKIPPED; the plan still shows them */
            v = CLAMP(v, 1u, MAX(n, 1u));
        }
        p->vcpus = v;
        p->threads_per_core = 1;
    }
    if (ret_short)
        *ret_short = g_steal_pointer(&short_of);
    return 0;
}
