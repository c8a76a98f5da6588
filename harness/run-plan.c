/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * harness/run-plan.c: what `rtvirt run` decides before anything changes
 * (harness/cmd-run-priv.h): the inputs validated against this host, each
 * scenario admitted or SKIPPED with the reason, and the plan `--plan`
 * prints (text and --json).
 */
#include <errno.h>
#include <stdio.h>
#include <string.h>

#include "guest/placement.h"
#include "guest/profile.h"
#include "harness/cmd-common.h"
#include "harness/cmd-run-priv.h"
#include "harness/log.h"
#include "host/facts/state.h"
#include "host/profile/profile.h"
#include "host/tune/coresched.h"
#include "host/tune/smt.h"
#include "util/error.h"
#include "util/json.h"
#include "workloads/workload.h"

static guint
scenario_index(const RvMatrix *m, const RvMatrixScenario *sc)
{
    for (guint i = 0; i < m->scenarios->len; i++)
        if (m->scenarios->pdata[i] == sc)
            return i;
    g_assert_not_reached();
}

/* MemTotal of /proc/meminfo (proc(5)) in bytes, 0 when unknown (a fixture
 * root without it). */
guint64
rv_cmd_run_host_mem_total(RvRoot *root)
{
    g_autofree char *text = NULL;
    const char *line;

    if (rv_host_root_read(root, "/proc/meminfo", &text, NULL) < 0)
        return 0;
    line = strstr(text, "MemTotal:");
    return line ? g_ascii_strtoull(line + strlen("MemTotal:"), NULL, 10) * 1024 : 0;
}

/* Step 1: everything that can be wrong with the input, before the host
 * changes: guest profiles load, every scenario's guests fit on this host. */
int
rv_cmd_run_validate(RvRunCtx *c, GError **error)
{
    RvMatrix *m = c->matrix;
    int r;

    r = rv_guest_host_cpus_from_root(c->root, &c->host_cpus, error);
    if (r < 0)
        return r;
    {
        /* count = node*M/K sections become their guests first: the guest
         * profiles below are loaded per guest (harness/matrix.h) */
        RvCpuSet node;
        g_autofree char *what = rv_harness_plan_node(c->host_cpus, &node);

        r = rv_harness_matrix_size_counts(m, rv_cpuset_count(&node), what, &c->count_note,
                                          error);
        if (r < 0)
            return r;
    }
    c->profiles = g_ptr_array_new_with_free_func((GDestroyNotify) rv_guest_profile_free);
    for (guint i = 0; i < m->guests->len; i++) {
        const RvMatrixGuest *g = m->guests->pdata[i];
        RvGuestProfile *p = NULL;

        r = rv_guest_profile_load(g->profile, &p, error);
        if (r < 0) {
            /* context only: the loader's code and errno survive */
            g_prefix_error(error, "%s:%u: [guest:%s]: ", g->file, g->line, g->name);
            return r;
        }
        if (g->role == RV_MATRIX_ROLE_RT && g->workload == &rv_workload_cyclictest &&
            rv_cpuset_is_empty(&p->rt_vcpus))
            rv_log_warn("%s:%u: [guest:%s] measures cyclictest on all vCPUs: profile %s has no RT vCPU",
                        g->file, g->line, g->name, g->profile);
        g_ptr_array_add(c->profiles, p);
    }

    /* vcpus = / memory = of the guest sections, count guests' memory,
     * from this host's topology and memory (harness/plan.h) */
    r = rv_harness_plan_size_guests(m, c->profiles, c->host_cpus, &c->vcpus_short, error);
    if (r < 0)
        return r;
    r = rv_harness_plan_size_memory(m, c->profiles, rv_cmd_run_host_mem_total(c->root),
                                    &c->memory_note, &c->memory_short, error);
    if (r < 0)
        return r;

    /* The host profile against this host's CPUs ("N", "all", ids beyond
     * the last possible CPU): refused now, not after the store exists. */
    if (m->host_profile) {
        g_autoptr(RvHostProfile) hp = NULL;

        r = rv_host_profile_load_host(m->host_profile, c->host_cpus->nr_cpu_ids, &hp, error);
        if (r < 0) {
            /* context only: the loader's code and errno survive */
            g_prefix_error(error, "%s: host_profile: ", m->host_profile_at);
            return r;
        }
    }

    /* every scenario's guests as they run together (harness/plan.h); a
     * scenario this host lacks the CPUs for is SKIPPED with the reason
     * (scenario_skip_reason()), so --plan still shows the whole plan */
    return rv_harness_plan_place(m, c->profiles, c->host_cpus, &c->placements, &c->unplaced,
                                 error);
}

/* Why this kernel cannot give scenario @sc (coresched = vm|vcpu) its core
 * cookies, or NULL when it can. */
static char *
coresched_missing(RvRunCtx *c, const RvMatrixScenario *sc)
{
    g_autoptr(GError) cs = NULL;

    /* a fixture root has no prctl: its captured record speaks for it */
    if (!rv_host_root_is_live(c->root)) {
        if (c->coresched_state == RV_CORESCHED_UNKNOWN)
            return g_strdup_printf("coresched = %s: the fixture root has no core "
                                   "scheduling record (rtvirt/coresched)",
                                   rv_harness_matrix_coresched_name(sc->coresched));
        if (c->coresched_errno)
            return g_strdup_printf("coresched = %s: Core scheduling unavailable: %s",
                                   rv_harness_matrix_coresched_name(sc->coresched),
                                   rv_host_coresched_reason(c->coresched_errno));
    } else if (rv_host_coresched_check(c->root, &cs) < 0)
        return g_strdup_printf("coresched = %s: %s",
                               rv_harness_matrix_coresched_name(sc->coresched), cs->message);
    return NULL;
}

/* Why this host cannot run scenario @sc, or NULL when it can. */
static char *
scenario_skip_reason(RvRunCtx *c, const RvMatrixScenario *sc)
{
    g_auto(RvSmtState) smt = { 0 };
    g_autoptr(GError) err = NULL;
    bool smt_read = rv_host_smt_state_read(c->root, &smt, &err) == 0;

    if (sc->smt != RV_MATRIX_SMT_KEEP) {
        bool enable = sc->smt == RV_MATRIX_SMT_ON;
        const char *why;

        if (!smt_read)
            return g_strdup_printf("SMT state unreadable: %s", err->message);
        why = rv_host_smt_unavailable_reason(&smt, enable);
        if (why) {
            /* a host may lack both SMT and core scheduling: say both, or a
             * user who finds an SMT host learns of the kernel only there */
            g_autofree char *cs = sc->coresched == RV_MATRIX_CORESCHED_VM ||
                                          sc->coresched == RV_MATRIX_CORESCHED_VCPU
                                      ? coresched_missing(c, sc)
                                      : NULL;

            return g_strdup_printf("smt = %s: %s%s%s", enable ? "on" : "off", why,
                                   cs ? "; also " : "", cs ? cs : "");
        }
        if (!enable && smt.control &&
            (strcmp(smt.control, "off") == 0 || strcmp(smt.control, "forceoff") == 0))
            return g_strdup_printf("smt = off: SMT is already off on this host "
                                   "(smt/control = %s): the scenario would measure the "
                                   "baseline again", smt.control);
    }
    for (guint g = 0; g < sc->guests->len; g++) {
        const RvMatrixGuest *mg = sc->guests->pdata[g];

        if (mg->workload_missing)
            return g_strdup_printf("guest %s: workload '%s' is not in this rtvirt yet",
                                   mg->name, mg->workload_missing);
    }
    /* the [host] workload's CPUs, every one online: rtvirt pert refuses
     * an offline CPU (every repetition FAILED), the pipe would measure
     * others than those named */
    if (c->matrix->host_workload && !c->matrix->host_cpus_isolated &&
        !rv_cpuset_is_subset(&c->matrix->host_cpus, &c->host_cpus->online)) {
        RvCpuSet missing;
        g_autofree char *want = rv_cpulist_format(&c->matrix->host_cpus);
        g_autofree char *online = rv_cpulist_format(&c->host_cpus->online);
        g_autofree char *miss = NULL;

        rv_cpuset_andnot(&missing, &c->matrix->host_cpus, &c->host_cpus->online);
        miss = rv_cpulist_format(&missing);
        return g_strdup_printf("[host] cpus = %s: not online on this host: %s (online CPUs: "
                               "%s)", want, miss, online);
    }
    if (sc->coresched == RV_MATRIX_CORESCHED_VM || sc->coresched == RV_MATRIX_CORESCHED_VCPU) {
        char *why = coresched_missing(c, sc);

        if (why)
            return why;
        /* Cookies only matter with an SMT sibling online; a scenario that
         * turns SMT on makes siblings appear, one that keeps it needs them. */
        if (smt_read && sc->smt == RV_MATRIX_SMT_KEEP && smt.active == 0)
            return g_strdup_printf("coresched = %s: SMT is not active on this host "
                                   "(smt/active = 0): no SMT siblings to keep apart",
                                   rv_harness_matrix_coresched_name(sc->coresched));
    }
    if (sc->coresched == RV_MATRIX_CORESCHED_LIBVIRT) {
        g_autofree char *why = rv_harness_run_libvirt_sched_core_missing(c->root);

        if (why)
            return g_strdup_printf("coresched = libvirt: %s", why);
    }
    /* libvirt cannot make vCPUs SCHED_FIFO under RT group scheduling on a
     * cgroup v1 cpu hierarchy: every such guest would fail to start. */
    if (c->rt_group_trap) {
        GPtrArray *pls = c->placements->pdata[scenario_index(c->matrix, sc)];

        for (guint g = 0; g < pls->len; g++) {
            const RvGuestPlacement *pl = pls->pdata[g];

            for (unsigned v = 0; v < pl->n_vcpus; v++)
                if (pl->vcpus[v].policy == RV_GUEST_SCHED_FIFO ||
                    pl->vcpus[v].policy == RV_GUEST_SCHED_RR)
                    return g_strdup_printf(
                        "guest %s needs SCHED_FIFO vCPUs, which libvirt cannot set on this host: "
                        "RT group scheduling (CONFIG_RT_GROUP_SCHED) with a cgroup v1 cpu "
                        "hierarchy gives each new group cpu.rt_runtime_us = 0, so "
                        "sched_setscheduler() fails with EPERM (use vcpu_sched = other, or "
                        "qemu.conf cgroup_controllers without \"cpu\")",
                        ((RvMatrixGuest *) sc->guests->pdata[g])->name);
        }
    }
    if (c->vcpus_short && c->vcpus_short->pdata[scenario_index(c->matrix, sc)])
        return g_strdup(c->vcpus_short->pdata[scenario_index(c->matrix, sc)]);
    if (c->memory_short && c->memory_short->pdata[scenario_index(c->matrix, sc)])
        return g_strdup(c->memory_short->pdata[scenario_index(c->matrix, sc)]);
    if (c->unplaced && c->unplaced->pdata[scenario_index(c->matrix, sc)])
        return g_strdup(c->unplaced->pdata[scenario_index(c->matrix, sc)]);
    {
        /* huge pages its guests need and the host has not reserved */
        char *hp = rv_cmd_run_short_reason(c, scenario_index(c->matrix, sc));

        if (hp)
            return hp;
    }
    if (sc->has_rt_runtime_us &&
        !rv_host_root_exists(c->root, "/proc/sys/kernel/sched_rt_runtime_us"))
        return g_strdup("rt_runtime_us: /proc/sys/kernel/sched_rt_runtime_us does not exist");
    if (sc->timer_migration >= 0 &&
        !rv_host_root_exists(c->root, "/proc/sys/kernel/timer_migration"))
        return g_strdup("timer_migration: /proc/sys/kernel/timer_migration does not exist "
                        "(kernel without CONFIG_NO_HZ_COMMON)");
    return NULL;
}

const char *
rv_cmd_run_describe_settings(const RvMatrixScenario *sc, char *buf, size_t len)
{
    g_autofree char *boot = sc->bootargs ? g_strjoinv(" ", sc->bootargs) : NULL;

    g_snprintf(buf, len, "smt=%s coresched=%s placement=%s%s%s%s%s",
               rv_harness_matrix_smt_name(sc->smt),
               rv_harness_matrix_coresched_name(sc->coresched),
               rv_harness_matrix_placement_name(sc->placement),
               sc->placement == RV_MATRIX_PLACEMENT_PINNED && sc->vcpu_sched_other
                   ? " vcpu_sched=other" : "",
               sc->host_sibling == RV_MATRIX_SIBLING_PROFILE ? ""
               : sc->host_sibling == RV_MATRIX_SIBLING_IDLE ? " host_sibling=idle"
                                                            : " host_sibling=shared",
               boot ? " bootargs=" : "", boot ? boot : "");
    return buf;
}

/* Step 2b: the host facts that decide, per scenario, whether it runs
 * (c->skip: the reason or NULL), and the counts of what does. */
void
rv_cmd_run_judge_host(RvRunCtx *c)
{
    g_autoptr(RvHostState) st = NULL;

    if (rv_host_state_load(c->root, c->host_cpus->nr_cpu_ids, &st, NULL) == 0) {
        c->rt_group_trap = st->rt_group_trap == RV_TRI_YES;
        c->coresched_state = st->coresched;
        if (st->coresched == RV_CORESCHED_UNSUPPORTED)
            c->coresched_errno = st->coresched_errno ? st->coresched_errno : EINVAL;
        else if (st->coresched == RV_CORESCHED_NO_SMT)
            c->coresched_errno = st->coresched_errno ? st->coresched_errno : ENODEV;
    }
    c->skip = g_ptr_array_new_with_free_func(g_free);
    for (guint s = 0; s < c->matrix->scenarios->len; s++) {
        const RvMatrixScenario *sc = c->matrix->scenarios->pdata[s];
        char *why = scenario_skip_reason(c, sc);

        g_ptr_array_add(c->skip, why);
        if (!why)
            c->runnable++;
    }
    for (guint i = 0; i < c->plan->runs->len; i++) {
        const RvPlanRun *run = c->plan->runs->pdata[i];

        if (!c->skip->pdata[run->scenario] && (c->plan_only || run->boot == c->boot))
            c->n_runs++;
    }
}

/* The neighbours' CPU budget of scenario @s: the CPUs its neighbour
 * guests may use under the scenario's option.  The hook of the plan
 * printers (text: "#   neighbours' CPU budget: TEXT" under the scenario;
 * --json: the scenario's "neighbour_budget"); NULL shows none. */
char *
rv_cmd_run_plan_neighbour_budget(RvRunCtx *c, guint s)
{
    (void) c;
    (void) s;
    return NULL;
}

/* Does any core of this host have two online threads? */
static bool
host_has_siblings(const RvRunCtx *c)
{
    for (guint i = 0; c->host_cpus->cores && i < c->host_cpus->cores->len; i++)
        if (rv_cpuset_count(&g_array_index(c->host_cpus->cores, RvCpuSet, i)) > 1)
            return true;
    return false;
}

/* The same guests, in the same order. */
static bool
same_guests(const RvMatrixScenario *a, const RvMatrixScenario *b)
{
    if (a->guests->len != b->guests->len)
        return false;
    for (guint i = 0; i < a->guests->len; i++)
        if (a->guests->pdata[i] != b->guests->pdata[i])
            return false;
    return true;
}

/* What this host gives scenario @s where it differs from what the
 * scenario's settings suggest: host_sibling = idle | shared with SMT kept
 * as it is, on a host with no SMT sibling online, changes nothing (the
 * flagship's baseline and siblings-idle differ only in name there).
 * NULL when it runs as written (or is SKIPPED). */
static char *
host_gives(RvRunCtx *c, guint s)
{
    const RvMatrixScenario *sc = c->matrix->scenarios->pdata[s];

    if (c->skip->pdata[s] || sc->smt != RV_MATRIX_SMT_KEEP ||
        sc->host_sibling == RV_MATRIX_SIBLING_PROFILE || host_has_siblings(c))
        return NULL;
    return g_strdup_printf("on this host: no core has an SMT sibling online, so host_sibling = "
                           "%s changes nothing (no sibling to %s)",
                           sc->host_sibling == RV_MATRIX_SIBLING_IDLE ? "idle" : "shared",
                           sc->host_sibling == RV_MATRIX_SIBLING_IDLE ? "keep idle" : "share");
}

/* "NOTE: this host has no SMT: baseline and siblings-idle differ only in
 * name" for the runnable scenarios that host_gives() levels, grouped by
 * their other settings; NULL when none are alike. */
static char *
host_alike_note(RvRunCtx *c)
{
    g_autoptr(GString) o = g_string_new(NULL);
    g_autofree bool *said = g_new0(bool, c->matrix->scenarios->len);

    for (guint s = 0; s < c->matrix->scenarios->len; s++) {
        RvMatrixScenario a = *(RvMatrixScenario *) c->matrix->scenarios->pdata[s];
        g_autofree char *gives = host_gives(c, s);
        g_autoptr(GString) names = NULL;
        char abuf[512];

        if (!gives || said[s])
            continue;
        a.host_sibling = RV_MATRIX_SIBLING_PROFILE;
        rv_cmd_run_describe_settings(&a, abuf, sizeof(abuf));
        names = g_string_new(a.name);
        for (guint r = s + 1; r < c->matrix->scenarios->len; r++) {
            RvMatrixScenario b = *(RvMatrixScenario *) c->matrix->scenarios->pdata[r];
            g_autofree char *gb = host_gives(c, r);
            char bbuf[512];

            if (!gb || said[r] || !same_guests(&a, &b))
                continue;
            b.host_sibling = RV_MATRIX_SIBLING_PROFILE;
            if (strcmp(abuf, rv_cmd_run_describe_settings(&b, bbuf, sizeof(bbuf))) != 0)
                continue;
            said[r] = true;
            g_string_append_printf(names, " and %s", b.name);
        }
        if (strstr(names->str, " and "))
            g_string_append_printf(o, "%sNOTE: this host has no SMT: %s differ only in name here",
                                   o->len ? "\n# " : "", names->str);
    }
    return o->len ? g_strdup(o->str) : NULL;
}

/* "the seed N (from --seed): 'rtvirt run --seed N MATRIX' runs this order". */
static char *
seed_text(RvRunCtx *c)
{
    bool drawn = !c->seed_source || g_strcmp0(c->seed_source, "drawn now") == 0;

    return g_strdup_printf("seed %" G_GUINT64_FORMAT " (%s%s): 'rtvirt run --seed %"
                           G_GUINT64_FORMAT " %s' runs this order", c->plan->seed,
                           drawn ? "drawn now, another at each run without --seed" : "from ",
                           drawn ? "" : c->seed_source,
                           c->plan->seed, c->matrix_arg ? c->matrix_arg : c->matrix->name);
}

/* The [host] workload and the CPUs it measures, the same in every scenario,
 * or NULL without one: *ret_cpus its cpulist ("" with cpus = isolated on
 * a host without isolated CPUs). */
static const char *
host_workload(RvRunCtx *c, char **ret_cpus)
{
    const RvMatrix *m = c->matrix;

    *ret_cpus = NULL;
    if (!m->host_workload)
        return NULL;
    *ret_cpus = rv_cpulist_format(m->host_cpus_isolated ? &c->host_cpus->isolated
                                                        : &m->host_cpus);
    return rv_harness_matrix_workload_name(m->host_workload);
}

/* --plan --json's "host_workload": {workload, cpus} or null. */
static void
host_workload_json(RvRunCtx *c, JsonBuilder *b)
{
    g_autofree char *cpus = NULL;
    const char *wl = host_workload(c, &cpus);

    json_builder_set_member_name(b, "host_workload");
    if (!wl) {
        json_builder_add_null_value(b);
        return;
    }
    json_builder_begin_object(b);
    rv_json_add_string_or_null(b, "workload", wl);
    rv_json_add_string_or_null(b, "cpus", cpus);
    json_builder_end_object(b);
}

/* Step 2c, --plan: the plan, the placements and the skip reasons, what
 * the run takes, changes and needs (harness/run-truth.c), the run table
 * under its header. */
void
rv_cmd_run_print_plan(RvRunCtx *c)
{
    g_autofree char *text = rv_harness_plan_format(c->plan);
    g_autofree char *note = rv_harness_plan_baseline_note(c->matrix, c->skip);
    g_autofree char *seed = seed_text(c);
    g_autoptr(RvRunTruth) t = rv_cmd_run_truth_new(c);
    g_autofree char *alike = host_alike_note(c);
    char buf[512];

    printf("# matrix %s: %u scenario(s) x %u load level(s) x %u repetition(s), order %s, seed %"
           G_GUINT64_FORMAT "\n", c->matrix->name, c->matrix->scenarios->len,
           c->matrix->loads->len, c->matrix->repetitions,
           rv_harness_matrix_order_name(c->plan->order), c->plan->seed);
    printf("# %s\n", seed);
    rv_cmd_run_truth_print_estimate(c, t);
    {
        g_autofree char *cpus = NULL;
        const char *wl = host_workload(c, &cpus);

        if (wl && !*cpus)
            /* what each repetition then records (harness/run.c) */
            printf("# host workload: %s: not run: no isolated CPU on this host (set [host] "
                   "cpus = LIST)\n", wl);
        else if (wl)
            printf("# host workload: %s on CPUs %s%s in every scenario\n", wl, cpus,
                   c->matrix->host_cpus_isolated ? " (cpus = isolated)" : "");
    }
    for (guint s = 0; s < c->matrix->scenarios->len; s++) {
        const RvMatrixScenario *sc = c->matrix->scenarios->pdata[s];
        GPtrArray *pls = c->placements->pdata[s];
        g_autofree char *budget = rv_cmd_run_plan_neighbour_budget(c, s);

        printf("# scenario %s (%s): %s%s\n", sc->name,
               rv_cmd_run_describe_settings(sc, buf, sizeof(buf)),
               c->skip->pdata[s] ? "SKIPPED: " : "runs",
               c->skip->pdata[s] ? (char *) c->skip->pdata[s] : "");
        if (sc->description)
            printf("#   %s\n", sc->description);
        if (c->vcpus_short && c->vcpus_short->pdata[s] &&
            g_strcmp0(c->vcpus_short->pdata[s], c->skip->pdata[s]) != 0)
            printf("#   also: %s\n", (char *) c->vcpus_short->pdata[s]);
        if (c->unplaced->pdata[s] && g_strcmp0(c->unplaced->pdata[s], c->skip->pdata[s]) != 0)
            printf("#   also: %s\n", (char *) c->unplaced->pdata[s]);
        {
            g_autofree char *gives = host_gives(c, s);

            if (gives)
                printf("#   %s\n", gives);
        }
        rv_cmd_run_truth_print_scenario(c, t, s);
        if (budget)
            printf("#   neighbours' CPU budget: %s\n", budget);
        {
            /* count guests that read alike as one block (harness/plan.h) */
            g_autoptr(GPtrArray) lines = rv_harness_plan_format_guests(sc, pls);

            for (guint l = 0; l < lines->len; l++)
                printf("#   %s\n", (char *) lines->pdata[l]);
        }
        {
            /* what the neighbours get under this option (harness/plan.h) */
            RvPlanBudget bu;
            g_autofree char *bt = NULL;

            rv_harness_plan_budget(c->matrix, sc, pls, c->host_cpus, &bu);
            bt = bu.n_neighbours && pls->len ? rv_harness_plan_budget_text(&bu) : NULL;
            if (bt)
                printf("#   neighbours' CPU budget: %s\n", bt);
        }
    }
    if (alike)
        printf("# %s\n", alike);
    if (c->count_note)
        printf("# %s\n", c->count_note);
    if (c->memory_note)
        printf("# %s\n", c->memory_note);
    if (note)
        printf("# %s\n", note);
    if (c->plan->n_reboots)
        printf("# %u boot(s), %u reboot(s): the arguments through the boot loader, the run "
               "resumed after each boot by rtvirt-run-resume.service\n", c->plan->boots->len,
               c->plan->n_reboots);
    rv_cmd_run_truth_print_tail(c, t);
    {
        bool any_skipped = false;

        for (guint s = 0; s < c->skip->len; s++)
            any_skipped = any_skipped || c->skip->pdata[s];
        /* the whole table, as the store's raw/plan.txt keeps it: say that
         * the SKIPPED scenarios' rows are not run */
        printf("# run table: INDEX (the order they run%s) ROUND (repetition - 1) CELL "
               "(SCENARIO[@LOAD])\n%s",
               any_skipped ? "; a SKIPPED scenario's rows are listed, not run" : "", text);
    }
}

/* Step 2c, --plan --json: the same facts as one document. */
int
rv_cmd_run_print_plan_json(RvRunCtx *c)
{
    g_autoptr(JsonBuilder) b = json_builder_new();
    g_autoptr(JsonNode) node = NULL;
    g_autofree char *note = rv_harness_plan_baseline_note(c->matrix, c->skip);
    g_autofree char *seed = g_strdup_printf("%" G_GUINT64_FORMAT, c->plan->seed);
    g_autofree char *seed_line = seed_text(c);
    g_autoptr(RvRunTruth) t = rv_cmd_run_truth_new(c);
    char buf[512];

    rv_cmd_json_begin(b, 1);
    json_builder_set_member_name(b, "matrix");
    json_builder_add_string_value(b, c->matrix->name);
    json_builder_set_member_name(b, "order");
    json_builder_add_string_value(b, rv_harness_matrix_order_name(c->plan->order));
    json_builder_set_member_name(b, "seed");
    json_builder_add_string_value(b, seed);   /* a string: 64 bits do not fit a double */
    rv_json_add_string_or_null(b, "seed_source", c->seed_source);
    rv_json_add_string_or_null(b, "seed_note", seed_line);
    rv_cmd_run_truth_json(c, t, b);
    host_workload_json(c, b);
    json_builder_set_member_name(b, "repetitions");
    json_builder_add_int_value(b, c->matrix->repetitions);
    json_builder_set_member_name(b, "scenarios");
    json_builder_begin_array(b);
    for (guint s = 0; s < c->matrix->scenarios->len; s++) {
        const RvMatrixScenario *sc = c->matrix->scenarios->pdata[s];
        GPtrArray *pls = c->placements->pdata[s];

        json_builder_begin_object(b);
        json_builder_set_member_name(b, "name");
        json_builder_add_string_value(b, sc->name);
        json_builder_set_member_name(b, "settings");
        json_builder_add_string_value(b, rv_cmd_run_describe_settings(sc, buf, sizeof(buf)));
        json_builder_set_member_name(b, "skipped");
        if (c->skip->pdata[s])
            json_builder_add_string_value(b, c->skip->pdata[s]);
        else
            json_builder_add_null_value(b);
        rv_json_add_string_or_null(b, "description", sc->description);
        /* why its guests cannot be placed here (also where "skipped"
         * gives another reason first), or null */
        rv_json_add_string_or_null(b, "not_placed",
                                   c->unplaced->pdata[s] ? c->unplaced->pdata[s]
                                   : c->vcpus_short ? c->vcpus_short->pdata[s] : NULL);
        {
            /* what this host gives where the settings suggest more */
            g_autofree char *gives = host_gives(c, s);

            rv_json_add_string_or_null(b, "on_this_host", gives);
        }
        rv_cmd_run_truth_json_scenario(c, t, s, b);
        {
            g_autofree char *budget = rv_cmd_run_plan_neighbour_budget(c, s);

            rv_json_add_string_or_null(b, "neighbour_budget", budget);
        }
        json_builder_set_member_name(b, "placements");
        json_builder_begin_object(b);
        for (guint g = 0; g < pls->len; g++) {
            g_autofree char *p = rv_guest_placement_format(pls->pdata[g]);
            g_auto(GStrv) lines = g_strsplit(p, "\n", -1);

            json_builder_set_member_name(b, ((RvMatrixGuest *) sc->guests->pdata[g])->name);
            json_builder_begin_array(b);
            for (guint l = 0; lines[l] && *lines[l]; l++)
                json_builder_add_string_value(b, lines[l]);
            json_builder_end_array(b);
        }
        json_builder_end_object(b);
        {
            RvPlanBudget bu;

            rv_harness_plan_budget(c->matrix, sc, pls, c->host_cpus, &bu);
            if (!pls->len)
                bu.n_neighbours = 0;   /* not placed: no budget (null) */
            rv_harness_plan_budget_json(b, &bu);
        }
        json_builder_end_object(b);
    }
    json_builder_end_array(b);
    {
        g_autofree char *alike = host_alike_note(c);

        rv_json_add_string_or_null(b, "host_note", alike);
    }
    json_builder_set_member_name(b, "baseline_note");
    if (note)
        json_builder_add_string_value(b, note);
    else
        json_builder_add_null_value(b);
    json_builder_set_member_name(b, "boots");
    json_builder_begin_array(b);
    for (guint i = 0; i < c->plan->boots->len; i++) {
        const RvPlanBoot *boot = c->plan->boots->pdata[i];

        json_builder_begin_object(b);
        json_builder_set_member_name(b, "index");
        json_builder_add_int_value(b, boot->index);
        json_builder_set_member_name(b, "bootargs");
        if (boot->bootargs) {
            json_builder_begin_array(b);
            for (char **a = boot->bootargs; *a; a++)
                json_builder_add_string_value(b, *a);
            json_builder_end_array(b);
        } else {
            json_builder_add_null_value(b);
        }
        json_builder_set_member_name(b, "first_run");
        json_builder_add_int_value(b, boot->first_run);
        json_builder_set_member_name(b, "runs");
        json_builder_add_int_value(b, boot->n_runs);
        json_builder_end_object(b);
    }
    json_builder_end_array(b);
    json_builder_set_member_name(b, "runs");
    json_builder_begin_array(b);
    for (guint i = 0; i < c->plan->runs->len; i++) {
        const RvPlanRun *run = c->plan->runs->pdata[i];

        json_builder_begin_object(b);
        json_builder_set_member_name(b, "boot");
        json_builder_add_int_value(b, run->boot);
        json_builder_set_member_name(b, "index");
        json_builder_add_int_value(b, run->index);
        json_builder_set_member_name(b, "round");
        json_builder_add_int_value(b, run->round);
        json_builder_set_member_name(b, "cell");
        json_builder_add_string_value(b, run->cell_name);
        json_builder_set_member_name(b, "skipped");
        json_builder_add_boolean_value(b, c->skip->pdata[run->scenario] != NULL);
        json_builder_end_object(b);
    }
    json_builder_end_array(b);
    json_builder_end_object(b);
    node = json_builder_get_root(b);
    return rv_cmd_print_json(node) < 0 ? RV_EXIT_ERROR : RV_EXIT_OK;
}
