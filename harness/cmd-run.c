/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * harness/cmd-run.c: `rtvirt run MATRIX`, the main job.
 *
 * Order of work, so that bad input never touches the host:
 *   1. load the matrix, every guest profile, and place every scenario's
 *      guests on this host's CPUs (errors: exit 2, host unchanged);
 *   2. take the host lock, read the host facts, decide per scenario whether
 *      this host can run it (SKIPPED with the exact reason otherwise);
 *   3. create the results store, copy the profiles, write the plan;
 *   4. for every run of the plan: apply the scenario's settings through the
 *      run journal, snapshot /proc counters, boot the guests, verify their
 *      placement (and core cookies), start neighbour load and host probes,
 *      measure in the RT guests, snapshot again, tear down, revert the
 *      journal, and commit run.json;
 *   5. on the end, an error, SIGINT/SIGTERM: revert, destroy, commit.
 * A SIGKILL leaves the run journal behind: `rtvirt host revert` restores
 * it, and the domains die with our libvirt connection (transient,
 * auto-destroyed).
 * Admission and the plan of --plan are harness/run-plan.c, the reboot
 * handover harness/run-reboot.c, the state they share
 * harness/cmd-run-priv.h; one repetition is harness/run.c.
 */
#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include <glib/gstdio.h>

#include "guest/session.h"
#include "harness/cmd-common.h"
#include "harness/cmd-run-priv.h"
#include "harness/commands.h"
#include "harness/lock.h"
#include "harness/log.h"
#include "harness/matrix.h"
#include "harness/plan.h"
#include "harness/progress.h"
#include "harness/reboot.h"
#include "harness/run.h"
#include "harness/signals.h"
#include "host/facts/context.h"
#include "host/tune/coresched.h"
#include "host/fsroot.h"
#include "host/tune/journal.h"
#include "host/tune/smt.h"
#include "host/facts/snapshot.h"
#include "host/facts/state.h"
#include "results/store.h"
#include "results/untrusted.h"
#include "util/error.h"
#include "util/profile-path.h"
#include "util/runner.h"
#include "util/units.h"

static char *arg_out = NULL;
static char *arg_seed = NULL;
static char *arg_warmup = NULL;
static int arg_repetitions = -1;   /* -1: the matrix's */
static gboolean arg_plan_only = FALSE;
static int arg_wait_lock = 0;
static char *arg_resume = NULL;    /* --resume STORE (harness/reboot.h) */
static char *arg_abort = NULL;     /* --abort STORE */

/* Test hook: RV_TEST_KILL_AT=PHASE[:N[:SIG]] raises SIGKILL (SIG "INT" or
 * "TERM": that signal, as Ctrl-C or `kill` would send it) the N-th time
 * (default 1st) the run reaches PHASE ("locked", "applied", "booted",
 * "measured", "torn-down", "committed", "installed": a boot's arguments
 * and the resume unit installed, the reboot command not run yet), so
 * tests/t-run-kill.sh can crash the run at each point and check that
 * `rtvirt host revert` restores the host, and tests/t-run-interrupt.sh
 * can stop it there.  After SIGINT/SIGTERM the hook returns once the
 * signal watch (harness/signals.h) has seen it, so the run's next check
 * of a stop request is deterministic; without the watch the signal's
 * default action ends the process. */
void
rv_cmd_run_test_point(const char *phase)
{
    static GHashTable *counts;
    const char *spec = g_getenv("RV_TEST_KILL_AT");
    g_auto(GStrv) parts = NULL;
    guint n, want;
    int sig = SIGKILL;

    if (!spec || !*spec)
        return;
    parts = g_strsplit(spec, ":", 3);
    if (strcmp(parts[0], phase) != 0)
        return;
    want = parts[1] ? (guint) g_ascii_strtoull(parts[1], NULL, 10) : 1;
    if (parts[1] && parts[2])
        sig = strcmp(parts[2], "INT") == 0 ? SIGINT : strcmp(parts[2], "TERM") == 0 ? SIGTERM
                                                                                     : SIGKILL;
    if (!counts)
        counts = g_hash_table_new(g_str_hash, g_str_equal);
    n = GPOINTER_TO_UINT(g_hash_table_lookup(counts, phase)) + 1;
    g_hash_table_insert(counts, (gpointer) phase, GUINT_TO_POINTER(n));
    if (n != want)
        return;
    rv_log_info("RV_TEST_KILL_AT=%s: %s now", spec, sig == SIGKILL ? "SIGKILL"
                                                    : sig == SIGINT ? "SIGINT" : "SIGTERM");
    kill(getpid(), sig);
    /* bounded: 10 s for the watch's thread to take it */
    for (int i = 0; i < 1000 && !rv_harness_signals_received(); i++)
        g_usleep(10000);
}

static void
ctx_clear(RvRunCtx *c)
{
    if (c->journal) {
        g_autoptr(GError) err = NULL;

        rv_host_smt_journal_register(c->journal);
        rv_harness_run_journal_register(c->journal);
        if (rv_host_journal_revert(c->journal, NULL, NULL, &err) < 0)
            rv_log_error("Failed to revert host settings of the run (run 'rtvirt host revert'): %s",
                         err->message);
        rv_host_journal_close(c->journal);
    }
    rv_harness_run_env_free(c->env);
    rv_harness_progress_free(c->progress);
    g_free(c->cmdline);
    g_free(c->boot_fail);
    rv_harness_reboot_state_free(c->resume);
    if (c->store)
        rv_harness_run_reserve_release(rv_result_store_get_dir(c->store));
    rv_result_store_free(c->store);
    rv_guest_host_cpus_free(c->host_cpus);
    if (c->profiles)
        g_ptr_array_unref(c->profiles);
    if (c->skip)
        g_ptr_array_unref(c->skip);
    if (c->placements)
        g_ptr_array_unref(c->placements);
    if (c->unplaced)
        g_ptr_array_unref(c->unplaced);
    if (c->memory_short)
        g_ptr_array_unref(c->memory_short);
    if (c->vcpus_short)
        g_ptr_array_unref(c->vcpus_short);
    rv_harness_plan_free(c->plan);
    rv_harness_matrix_free(c->matrix);
    rv_host_root_free(c->root);
    g_free(c->virt);
    g_free(c->memory_note);
    g_free(c->count_note);
}

/* Host facts for run.json: what `host show` knows that a reader of the
 * results needs to judge them. */
static JsonNode *
host_facts(RvRunCtx *c)
{
    g_autoptr(JsonBuilder) b = json_builder_new();
    g_autoptr(RvHostState) st = NULL;
    g_autoptr(GError) err = NULL;
    g_autofree char *hostname = NULL;

    json_builder_begin_object(b);
    hostname = g_strdup(g_get_host_name());
    json_builder_set_member_name(b, "hostname");
    json_builder_add_string_value(b, hostname);
    json_builder_set_member_name(b, "root");
    json_builder_add_string_value(b, rv_host_root_path(c->root));
    if (rv_host_state_load(c->root, c->host_cpus->nr_cpu_ids, &st, &err) == 0) {
        g_autofree char *online = st->online.known ? rv_cpulist_format(&st->online.set) : NULL;
        g_autofree char *iso = st->isolated.known ? rv_cpulist_format(&st->isolated.set) : NULL;
        g_autofree char *nohz = st->nohz_full.known ? rv_cpulist_format(&st->nohz_full.set) : NULL;

#define STR(k, v) do { json_builder_set_member_name(b, k); \
        if (v) json_builder_add_string_value(b, v); else json_builder_add_null_value(b); } while (0)
#define TRI(k, v) do { json_builder_set_member_name(b, k); \
        if ((v) == RV_TRI_UNKNOWN) json_builder_add_null_value(b); \
        else json_builder_add_boolean_value(b, (v) == RV_TRI_YES); } while (0)
        STR("kernel_release", st->kernel_release);
        STR("kernel_version", st->kernel_version);
        STR("preempt_model", st->preempt_model);
        TRI("preempt_rt", st->preempt_rt);
        STR("cpus_online", online);
        STR("cpus_isolated", iso);
        STR("cpus_nohz_full", nohz);
        STR("smt_control", st->smt_control);
        TRI("smt_active", st->smt_active);
        STR("coresched", rv_host_coresched_state_to_string(st->coresched));
        if (st->coresched_errno)
            STR("coresched_reason", rv_host_coresched_reason(st->coresched_errno));
        TRI("rt_group_trap", st->rt_group_trap);
        json_builder_set_member_name(b, "sched_rt_runtime_us");
        if (st->rt_runtime_us.known)
            json_builder_add_int_value(b, st->rt_runtime_us.value);
        else
            json_builder_add_null_value(b);
        json_builder_set_member_name(b, "timer_migration");
        if (st->timer_migration.known)
            json_builder_add_int_value(b, st->timer_migration.value);
        else
            json_builder_add_null_value(b);
#undef STR
#undef TRI
    } else {
        json_builder_set_member_name(b, "state_error");
        json_builder_add_string_value(b, err->message);
    }
    json_builder_set_member_name(b, "virt");
    if (c->virt)
        json_builder_add_string_value(b, c->virt);
    else
        json_builder_add_null_value(b);
    json_builder_end_object(b);
    return json_builder_get_root(b);
}

/* The plan as a raw file, and a NOTE that says how to replay the order. */
static int
record_plan(RvRunCtx *c, GError **error)
{
    g_autofree char *text = rv_harness_plan_format(c->plan);
    g_autofree char *runs = rv_harness_plan_runs_text(c->plan, c->skip);
    g_autofree char *body = g_strdup_printf("# rtvirt run plan: matrix %s, order %s, seed %"
                                            G_GUINT64_FORMAT "\n# INDEX ROUND CELL\n%s",
                                            c->matrix->name,
                                            rv_harness_matrix_order_name(c->plan->order),
                                            c->plan->seed, text);
    g_autofree char *detail = g_strdup_printf("order %s, seed %" G_GUINT64_FORMAT
                                              " (replay: rtvirt run --seed %" G_GUINT64_FORMAT
                                              "), %s: raw/plan.txt",
                                              rv_harness_matrix_order_name(c->plan->order),
                                              c->plan->seed, c->plan->seed, runs);

    if (rv_result_store_write_raw(c->store, "plan.txt", body, strlen(body), NULL, error) < 0)
        return -EIO;
    rv_result_store_add_verification(c->store, "*", 0, "run order", "NOTE", detail);
    if (c->count_note)
        rv_result_store_add_verification(c->store, "*", 0, "guest count", "NOTE",
                                         c->count_note);
    if (c->memory_note)
        rv_result_store_add_verification(c->store, "*", 0, "guest memory", "NOTE",
                                         c->memory_note);
    return 0;
}

/* Step 4a: the scenario's host settings, each through the journal. */
static int
apply_scenario(RvRunCtx *c, const RvMatrixScenario *sc, GError **error)
{
    int r;

    if (sc->smt != RV_MATRIX_SMT_KEEP) {
        r = rv_host_smt_set(c->root, c->journal, sc->smt == RV_MATRIX_SMT_ON, error);
        if (r < 0)
            return r;
    }
    if (sc->has_rt_runtime_us) {
        g_autofree char *v = g_strdup_printf("%" G_GINT64_FORMAT, sc->rt_runtime_us);

        r = rv_host_journal_set_value(c->journal, "/proc/sys/kernel/sched_rt_runtime_us", v,
                                      error);
        if (r < 0)
            return r;
    }
    if (sc->timer_migration >= 0) {
        r = rv_host_journal_set_value(c->journal, "/proc/sys/kernel/timer_migration",
                                      sc->timer_migration ? "1" : "0", error);
        if (r < 0)
            return r;
    }
    /* the scenario's settings are complete: a journal cut after this marker
     * is known to hold the whole scenario (host/tune/journal.h) */
    r = rv_host_journal_commit(c->journal, error);
    return r < 0 ? r : 0;
}

int
rv_cmd_run_revert_scenario(RvRunCtx *c, GError **error)
{
    g_autoptr(GPtrArray) notes = NULL;
    guint n = 0;
    int r;

    rv_host_smt_journal_register(c->journal);
    rv_harness_run_journal_register(c->journal);
    r = rv_host_journal_revert(c->journal, &n, &notes, error);
    for (guint i = 0; notes && i < notes->len; i++)
        rv_log_debug("revert: %s", (char *) notes->pdata[i]);
    if (r == 0 && n)
        rv_log_debug("Reverted %u host setting(s)", n);
    return r;
}

/* Before a repetition starts, run.json says it runs: a run killed now
 * (SIGKILL) leaves a store that names the repetition it lost.  The NOTE
 * is rewritten when the repetition ends (transfer none: the store's). */
static RvStoreVerification *
note_running(RvRunCtx *c, const RvPlanRun *run, GError **error)
{
    GPtrArray *vs;
    g_autoptr(GDateTime) now = g_date_time_new_now_utc();
    g_autofree char *iso = g_date_time_format_iso8601(now);
    g_autofree char *d = g_strdup_printf("running since %s; when this note stays, rtvirt was "
                                         "killed during this repetition and its records are "
                                         "lost", iso);

    rv_result_store_add_verification(c->store, run->cell_name, run->round + 1, "repetition",
                                     "NOTE", d);
    if (rv_result_store_commit(c->store, error) < 0)
        return NULL;
    vs = rv_result_store_get_verifications(c->store);
    return vs->pdata[vs->len - 1];
}

static void
note_ran(RvStoreVerification *v, int r, const RvRunRepetition *rep)
{
    g_free(v->detail);
    v->detail = g_strdup_printf("%s: %.1f s wall time (boot to teardown), %.1f s warm-up and "
                                "measurement", r == -ECANCELED ? "interrupted" : "ran",
                                (double) rep->wall_us / G_USEC_PER_SEC,
                                (double) rep->measure_us / G_USEC_PER_SEC);
}

/* The host-counters record of one repetition: the /proc counters taken
 * @before and now, its window (harness/run.h), the diff as a raw file. */
static void
record_counters(RvRunCtx *c, const RvPlanRun *run, RvRunRepetition *rep, int r,
                const RvHostSnapshot *before, GDateTime *started)
{
    g_autoptr(RvHostSnapshot) after = NULL;
    g_autoptr(JsonNode) diff = NULL;
    g_autoptr(GError) derr = NULL;
    g_autoptr(GDateTime) now = NULL;
    g_autoptr(RvStoreRecord) rec = NULL;
    g_autoptr(JsonGenerator) gen = json_generator_new();
    g_autofree char *text = NULL, *name = NULL;

    if (rv_host_snapshot_take(c->root, &after, NULL) < 0)
        return;
    if (rv_host_snapshot_diff(before, after, &diff, &derr) < 0) {
        rv_harness_progress_clear(c->progress);
        rv_log_warn("%s", derr->message);
        return;
    }
    /* not ok when interrupted or failed: its window differs */
    now = g_date_time_new_now_utc();
    rec = rv_harness_run_counters_record(run->cell_name, run->round + 1, diff, r, rep, started,
                                         now);
    json_generator_set_root(gen, diff);
    json_generator_set_pretty(gen, TRUE);
    text = json_generator_to_data(gen, NULL);
    name = g_strdup_printf("%s-r%02u-host-counters.json", run->cell_name, run->round + 1);
    (void) rv_harness_run_write_raw(rep, rec, name, text, strlen(text));
    rv_result_store_add_record(c->store, g_steal_pointer(&rec));
}

/* One run of the plan.  Returns 0 when it ran (its records say ok or
 * failed), -ECANCELED when a signal stopped it, or another -errno for a
 * failure of the host side that must stop the matrix (journal I/O), or
 * of the store (-ENOSPC...: it cannot keep what the next ones measure). */
static int
run_one(RvRunCtx *c, const RvPlanRun *run, GError **error)
{
    const RvMatrixScenario *sc = c->matrix->scenarios->pdata[run->scenario];
    const RvMatrixLoad *load = c->matrix->loads->pdata[run->load];
    GPtrArray *pls = c->placements->pdata[run->scenario];
    g_autoptr(RvHostSnapshot) before = NULL;
    g_autoptr(GError) local = NULL;
    g_autoptr(GDateTime) started = g_date_time_new_now_utc();
    g_autoptr(GDateTime) finished = NULL;
    g_autofree char *status = NULL;
    RvRunRepetition rep = { 0 };
    RvStoreVerification *running;
    int r;

    running = note_running(c, run, error);
    if (!running)
        return -EIO;
    rv_harness_progress_begin(c->progress, run->cell_name, run->round + 1,
                              c->matrix->repetitions);
    rv_harness_progress_phase(c->progress, "applying host settings", 0);
    r = apply_scenario(c, sc, &local);
    if (r < 0) {
        /* The host refused a setting it claimed to support: this run fails,
         * the host goes back, the matrix goes on. */
        g_autoptr(GError) rev = NULL;

        status = g_strdup_printf("FAILED: %s", local->message);
        g_free(running->detail);
        running->detail = g_strdup("not run: the host settings failed");
        rv_result_store_add_verification(c->store, run->cell_name, run->round + 1,
                                         "host settings", "FAIL", local->message);
        if (rv_cmd_run_revert_scenario(c, &rev) < 0) {
            rv_harness_progress_end(c->progress, status, false);
            g_propagate_error(error, g_steal_pointer(&rev));
            return -EIO;
        }
        c->failed_runs++;
        rv_harness_progress_end(c->progress, status, false);
        return 0;
    }
    rv_cmd_run_test_point("applied");

    if (rv_host_snapshot_take(c->root, &before, &local) < 0) {
        rv_harness_progress_clear(c->progress);
        rv_log_warn("%s", local->message);
        g_clear_error(&local);
    }

    rep.matrix = c->matrix;
    rep.scenario = sc;
    rep.load = load;
    rep.cell = run->cell_name;
    rep.repetition = run->round + 1;
    rep.profiles = c->profiles;
    rep.placements = pls;
    rep.root = c->root;
    rep.store = c->store;
    rep.journal = c->journal;
    rep.progress = c->progress;
    rep.cancellable = rv_harness_signals_cancellable();
    rep.kill_point = rv_cmd_run_test_point;
    r = rv_harness_run_repetition(c->env, &rep, &local);

    if (before)
        record_counters(c, run, &rep, r, before, started);

    {
        g_autoptr(GError) rev = NULL;

        rv_harness_progress_phase(c->progress, "reverting host settings", 0);
        if (rv_cmd_run_revert_scenario(c, &rev) < 0) {
            if (!local)
                local = g_steal_pointer(&rev);
            else
                rv_log_error("%s", rev->message);
            r = -EIO;
        }
    }
    finished = g_date_time_new_now_utc();
    (void) finished;
    note_ran(running, r, &rep);

    if (r == -ECANCELED) {
        rv_harness_progress_end(c->progress, "INTERRUPTED", false);
        rv_harness_run_repetition_clear(&rep);
        return r;
    }
    if (r == -EIO) {
        rv_harness_progress_end(c->progress, "FAILED: host settings not reverted", false);
        g_propagate_error(error, g_steal_pointer(&local));
        return r;
    }
    if (rep.n_failed) {
        c->failed_runs++;
    } else {
        GPtrArray *vs = rv_result_store_get_verifications(c->store);

        c->ok_runs++;
        for (guint i = 0; vs && i < vs->len; i++) {
            const RvStoreVerification *v = vs->pdata[i];

            if (v->repetition == (int) run->round + 1 && strcmp(v->status, "FAIL") == 0 &&
                g_strcmp0(v->scenario, run->cell_name) == 0) {
                c->ok_with_fail++;
                break;
            }
        }
    }
    status = rv_harness_run_status_line(&rep, rep.virt);
    if (rep.virt && !c->virt) {
        /* the first guest decided kvm or tcg (guest/session.h probe) */
        JsonNode *facts;

        c->virt = g_strdup(rep.virt);
        if (strcmp(c->virt, "tcg") == 0)
            rv_result_store_set_untrusted(c->store,
                                          "virt=tcg: QEMU emulates the guests without KVM; "
                                          "latencies measured this way are no real-time results");
        facts = host_facts(c);
        rv_result_store_set_host(c->store, facts);
        json_node_unref(facts);
    }
    rv_harness_progress_end(c->progress, status, true);
    if (rep.store_error) {
        /* the disk is full (or failing): what the next repetitions
         * measure could not be kept either */
        rv_error_set(error, RV_ERROR_FAILED, ENOSPC,
                     "Results store %s cannot be written (%s): matrix stopped after this "
                     "repetition", rv_result_store_get_dir(c->store), rep.store_error);
        rv_harness_run_repetition_clear(&rep);
        return -ENOSPC;
    }
    rv_harness_run_repetition_clear(&rep);
    return 0;
}

static void
print_summary(RvRunCtx *c)
{
    const char *dir = rv_result_store_get_dir(c->store);
    g_autofree char *runs = rv_harness_run_summary_runs(c->ok_runs, c->failed_runs,
                                                        c->ok_with_fail);

    printf("Results: %s\n", dir);
    printf("Runs: %s", runs);
    for (guint s = 0; s < c->matrix->scenarios->len; s++)
        if (c->skip->pdata[s])
            printf("; %s SKIPPED", ((RvMatrixScenario *) c->matrix->scenarios->pdata[s])->name);
    printf("\n");
    if (c->failed_starts || c->learned_starts)
        /* the host limit costs one failed start per libvirt
         * daemon, not one per guest start (guest/limits.h) */
        printf("Guest starts: %u refused by libvirt for a host limit and retried without "
               "the element; %u started without it right away (limit learned for this "
               "libvirtd: rtvirt setup lists it)\n", c->failed_starts, c->learned_starts);
    if (!rv_result_store_get_trusted(c->store)) {
        /* virt=tcg first: it makes every latency of the store meaningless */
        g_autoptr(GPtrArray) why = rv_harness_run_reasons_ordered(
            rv_result_store_get_untrusted_reasons(c->store));
        guint kinds = 0, n = rv_result_untrusted_count(why, &kinds);

        /* counted as `rtvirt compare` counts them (results/untrusted.h) */
        printf("Trusted: no (%u reason%s of %u kind%s in run.json)\n", n, n == 1 ? "" : "s",
               kinds, kinds == 1 ? "" : "s");
        for (guint i = 0; why && i < why->len && i < 4; i++)
            printf("  - %.160s%s\n", (char *) why->pdata[i],
                   strlen(why->pdata[i]) > 160 ? "..." : "");
    } else {
        printf("Trusted: yes\n");
    }
    if (rv_result_store_get_records(c->store)->len)
        printf("Compare: rtvirt compare %s\n", dir);
    else
        /* compare would only say "No records ...: nothing to compare" */
        printf("Compare: nothing to compare: no repetition was measured%s\n",
               c->runnable ? "" : " (every scenario SKIPPED)");
    fflush(stdout);
}

/* Does any scenario boot a guest?  A matrix that measures only on the
 * host may run with --root DIR (a throw-away tree for its /proc and /sys
 * writes, tests/t-run-reboot.sh); its probes still run on this machine. */
static bool
matrix_has_guests(const RvMatrix *m)
{
    for (guint s = 0; s < m->scenarios->len; s++)
        if (((RvMatrixScenario *) m->scenarios->pdata[s])->guests->len)
            return true;
    return false;
}

/* Step 1: the matrix, the command-line overrides, the root and every
 * guest's placement, before anything changes (errors: exit 2). */
static int
run_load_inputs(RvRunCtx *c, const char *matrix, GError **error)
{
    const char *arg_duration = rv_cmd_common.duration, *arg_root = rv_cmd_common.root;
    g_autofree char *path = NULL;
    guint64 seed;

    if (c->resume) {
        /* the same plan as before the reboot, the crash or the signal: the
         * matrix and profiles as they were, the overrides and the seed it
         * ran with */
        g_autofree char *sum = rv_harness_reboot_file_sha256(c->resume->matrix);

        if (rv_result_store_open(arg_resume, &c->store, error) < 0)
            return -EIO;
        if (rv_cmd_run_resume_check(c, "matrix", c->resume->matrix, error) < 0)
            return -EINVAL;
        if (g_strcmp0(sum, c->resume->matrix_sha256) != 0)
            return rv_error_set(error, RV_ERROR_INVALID, EINVAL,
                                "%s: the matrix %s %s since the run started: its plan cannot "
                                "be made again ('rtvirt run --abort %s' ends the run)", arg_resume,
                                c->resume->matrix, sum ? "changed" : "cannot be read", arg_resume);
        if (rv_harness_matrix_load(c->resume->matrix, &c->matrix, error) < 0)
            return -EINVAL;
        c->matrix->duration_us = c->resume->duration_us;
        c->matrix->warmup_us = c->resume->warmup_us;
        c->matrix->timeout_us = c->resume->timeout_us;
        c->matrix->repetitions = c->resume->repetitions;
        if (rv_host_root_open(arg_root, &c->root, error) < 0 || rv_cmd_run_validate(c, error) < 0)
            return -EINVAL;
        for (guint i = 1; i < c->matrix->files->len; i++)
            if (rv_cmd_run_resume_check(c, "matrix-include", c->matrix->files->pdata[i],
                                        error) < 0)
                return -EINVAL;
        for (guint i = 0; i < c->matrix->guests->len; i++) {
            const RvMatrixGuest *g = c->matrix->guests->pdata[i];
            g_autofree char *role = g_strdup_printf("guest:%s", g->name);

            if (rv_cmd_run_resume_check(c, role, g->profile, error) < 0)
                return -EINVAL;
        }
        if (c->matrix->host_profile &&
            rv_cmd_run_resume_check(c, "host", c->matrix->host_profile, error) < 0)
            return -EINVAL;
        c->plan = rv_harness_plan_new(c->matrix, c->resume->seed);
        c->seed_source = "the store";
        if (c->plan->boots->len != c->resume->boots)
            return rv_error_set(error, RV_ERROR_INVALID, EINVAL,
                                "%s: the plan has %u boots, %s says %u", arg_resume,
                                c->plan->boots->len, RV_HARNESS_REBOOT_STATE, c->resume->boots);
        c->boot = c->resume->boot;
        c->ok_runs = c->resume->ok_runs;
        c->failed_runs = c->resume->failed_runs;
        return 0;
    }
    if (rv_profile_find(RV_PROFILE_MATRIX, matrix, &path, error) < 0)
        return -ENOENT;
    if (rv_harness_matrix_load(path, &c->matrix, error) < 0)
        return -EINVAL;
    if (arg_duration && (rv_parse_duration_us(arg_duration, &c->matrix->duration_us) < 0 ||
                         c->matrix->duration_us < G_USEC_PER_SEC))
        return rv_error_set(error, RV_ERROR_INVALID, EINVAL,
                            "--duration '%s': expected a time of at least 1s", arg_duration);
    if (arg_warmup && rv_parse_duration_us(arg_warmup, &c->matrix->warmup_us) < 0)
        return rv_error_set(error, RV_ERROR_INVALID, EINVAL, "--warmup '%s': expected a time",
                            arg_warmup);
    if (arg_duration || arg_warmup)
        c->matrix->timeout_us = MAX(c->matrix->timeout_us,
                                    c->matrix->duration_us + c->matrix->warmup_us +
                                    120 * G_USEC_PER_SEC);
    if (arg_repetitions != -1) {
        if (arg_repetitions < 1 || arg_repetitions > 1000)
            return rv_error_set(error, RV_ERROR_INVALID, EINVAL,
                                "--repetitions %d: expected 1-1000", arg_repetitions);
        c->matrix->repetitions = arg_repetitions;
    }
    if (arg_seed) {
        char *end = NULL;

        errno = 0;
        seed = g_ascii_strtoull(arg_seed, &end, 0);
        if (errno || end == arg_seed || *end || arg_seed[0] == '-')
            return rv_error_set(error, RV_ERROR_INVALID, EINVAL,
                                "--seed '%s': expected an unsigned 64-bit number", arg_seed);
    } else {
        seed = c->matrix->has_seed ? c->matrix->seed : rv_harness_plan_draw_seed();
    }
    c->seed_source = arg_seed ? "--seed" : c->matrix->has_seed ? "the matrix" : "drawn now";
    {
        /* $RTVIRT_VIRT is judged here too, so --plan refuses a typo as the
         * run does (harness/run.c) */
        RvGuestVirtRequest virt;

        if (rv_guest_virt_request_parse(g_getenv("RTVIRT_VIRT"), &virt, error) < 0) {
            g_prefix_error(error, "$RTVIRT_VIRT: ");
            return -EINVAL;
        }
    }
    if (rv_host_root_open(arg_root, &c->root, error) < 0)
        return -EINVAL;
    if (!arg_plan_only && !rv_host_root_is_live(c->root) && matrix_has_guests(c->matrix))
        return rv_error_set(error, RV_ERROR_INVALID, EINVAL,
                            "--root %s: a matrix runs guests on the live host; use --root only "
                            "with --plan or a matrix without guests", arg_root);
    if (rv_cmd_run_validate(c, error) < 0)
        return -EINVAL;
    c->plan = rv_harness_plan_new(c->matrix, seed);
    if (!arg_plan_only) {
        /* what `run --resume` needs to make this plan again: after a
         * reboot into the next boot, a crash, SIGKILL or Ctrl-C */
        c->resume = g_new0(RvRebootState, 1);
        c->resume->matrix = g_canonicalize_filename(path, NULL);
        c->resume->matrix_sha256 = rv_harness_reboot_file_sha256(path);
        c->resume->seed = seed;
        c->resume->repetitions = c->matrix->repetitions;
        c->resume->duration_us = c->matrix->duration_us;
        c->resume->warmup_us = c->matrix->warmup_us;
        c->resume->timeout_us = c->matrix->timeout_us;
        c->resume->boots = c->plan->boots->len;
        c->resume->cmdline_before = rv_harness_reboot_cmdline(c->root);
        if (!c->resume->cmdline_before && !c->plan->n_reboots)
            c->resume->cmdline_before = g_strdup("");
        if (!c->resume->cmdline_before)
            return rv_error_set(error, RV_ERROR_FAILED, EIO,
                                "Failed to read '/proc/cmdline' of --root %s: the boots of "
                                "bootargs scenarios are checked against it",
                                arg_root ? arg_root : "/");
    }
    return 0;
}

/* Step 2: one run per host; from here on the host may change. */
int
rv_cmd_run_take_lock(RvLock **ret_lock, GError **error)
{
    g_autoptr(GError) busy = NULL;
    int r;

    if (arg_wait_lock < 0)
        return rv_error_set(error, RV_ERROR_INVALID, EINVAL,
                            "--wait-lock %d: expected seconds >= 0", arg_wait_lock);
    if (arg_wait_lock > 0) {
        /* Ctrl-C must end the wait */
        rv_harness_signals_install();
    }
    r = rv_harness_lock_acquire(NULL, ret_lock, &busy);
    if (r == -EBUSY && arg_wait_lock > 0) {
        rv_log_info("%s; waiting up to %d s for it to end", busy->message, arg_wait_lock);
        r = rv_harness_lock_acquire_wait(NULL, (guint) arg_wait_lock,
                                         rv_harness_signals_cancellable(), ret_lock, error);
    } else if (r < 0) {
        g_propagate_error(error, g_steal_pointer(&busy));
    }
    if (r < 0)
        return r;
    rv_cmd_run_test_point("locked");
    return 0;
}

static void
store_set_host_facts(RvRunCtx *c)
{
    JsonNode *facts = host_facts(c);
    g_autoptr(RvRunner) runner = rv_runner_new(false);
    g_autoptr(RvStoreContext) context = NULL;

    rv_result_store_set_host(c->store, facts);
    json_node_unref(facts);
    /* kernel, CPU, DMI and tool versions (host/facts/context.h), once per store */
    if (!rv_result_store_get_context(c->store) &&
        rv_host_context_load(c->root, runner, &context) == 0)
        rv_result_store_set_context(c->store, context);
}

/* RV_HARNESS_RUN_CURRENT inside the root names the store of the run that
 * has not completed (`rtvirt status` reads its resume.json); removed when
 * the matrix completes.  Best effort: a warning when it cannot be written. */
static void
current_store_set(RvRunCtx *c, bool set)
{
    g_autofree char *path = rv_host_root_resolve(c->root, RV_HARNESS_RUN_CURRENT);
    g_autofree char *dir = g_canonicalize_filename(rv_result_store_get_dir(c->store), NULL);
    g_autofree char *text = g_strdup_printf("%s\n", dir);
    g_autoptr(GError) err = NULL;

    if (!set) {
        (void) g_unlink(path);
        return;
    }
    if (!g_file_set_contents(path, text, -1, &err))
        rv_log_warn("Failed to write '%s' (rtvirt status will not find this run): %s", path,
                    err->message);
}

/* The plan's runnable repetitions, over every boot. */
static unsigned
progress_total(RvRunCtx *c)
{
    unsigned n = 0;

    for (guint i = 0; i < c->plan->runs->len; i++)
        n += !c->skip->pdata[((RvPlanRun *) c->plan->runs->pdata[i])->scenario];
    return n;
}

/* Of them, those the store holds as ended (rv_cmd_run_boot_rep_done()). */
static unsigned
progress_done(RvRunCtx *c)
{
    unsigned n = 0;

    for (guint i = 0; i < c->plan->runs->len; i++) {
        const RvPlanRun *run = c->plan->runs->pdata[i];

        n += !c->skip->pdata[run->scenario] && rv_cmd_run_boot_rep_done(c, run);
    }
    return n;
}

/* STORE/resume.json as of now: the counts, the progress `rtvirt status`
 * shows and the mean wall time of a repetition (or the estimate). */
static int
progress_write(RvRunCtx *c, GError **error)
{
    g_autoptr(GDateTime) now = g_date_time_new_now_utc();

    c->resume->ok_runs = c->ok_runs;
    c->resume->failed_runs = c->failed_runs;
    if (!c->resume->run_us)
        c->resume->run_us = rv_harness_run_estimate_us(c->env, c->matrix);
    g_free(c->resume->updated);
    c->resume->updated = g_date_time_format_iso8601(now);
    return rv_harness_reboot_state_write(rv_result_store_get_dir(c->store), c->resume, error);
}

/* --out DIR: not a symlink (a link into /etc put the store there), and not
 * in a system directory once the links of its existing part are resolved. */
/* Where stores go: --output, else ./results, except in rtvirt's own
 * source tree, where results/ holds the results layer's sources
 * (results/store.h beside it): there ./stores, which holds none. */
static const char *
default_out_dir(void)
{
    if (arg_out)
        return arg_out;
    if (g_file_test("results/store.h", G_FILE_TEST_EXISTS) &&
        g_file_test("harness/cmd-run.c", G_FILE_TEST_EXISTS))
        return "stores";
    return "results";
}

static int
check_out_dir(const char *out, GError **error)
{
    static const char *const system_dirs[] = { "/etc", "/usr", "/boot", "/proc", "/sys" };
    g_autofree char *probe = g_strdup(out);
    g_autofree char *real = NULL;
    struct stat st;

    while (lstat(probe, &st) < 0) {
        char *up = g_path_get_dirname(probe);

        if (strcmp(up, probe) == 0) {
            g_free(up);
            break;
        }
        g_free(probe);
        probe = up;
    }
    if (S_ISLNK(st.st_mode))
        return rv_error_set(error, RV_ERROR_INVALID, EINVAL,
                            "--output '%s': '%s' is a symbolic link: give the real directory",
                            out, probe);
    real = realpath(probe, NULL);
    for (size_t i = 0; real && i < G_N_ELEMENTS(system_dirs); i++) {
        gsize n = strlen(system_dirs[i]);

        if (strncmp(real, system_dirs[i], n) == 0 && (real[n] == '/' || real[n] == '\0'))
            return rv_error_set(error, RV_ERROR_INVALID, EINVAL,
                                "--output '%s': '%s' is in the system directory %s: "
                                "results go elsewhere", out, real, system_dirs[i]);
    }
    return 0;
}

/* Step 3: the results store with the profiles, scenarios, the plan and the
 * trust notes of this host. */
static int
run_open_store(RvRunCtx *c, GError **error)
{
    g_autofree char *note = NULL;

    if (arg_resume) {
        /* the store of the run before (opened by run_load_inputs()):
         * run.json as committed there; the reasons of its stop go, this
         * run ends it or says its own */
        g_autoptr(GDateTime) now = g_date_time_new_now_utc();
        g_autofree char *iso = g_date_time_format_iso8601(now);
        g_autofree char *what = NULL;

        rv_result_store_remove_untrusted(c->store, RV_CMD_RUN_INTERRUPTED);
        rv_result_store_remove_untrusted(c->store, RV_CMD_RUN_FAILED);
        c->resume->runs_done = progress_done(c);
        c->resume->runs_total = progress_total(c);
        what = g_strdup_printf("resumed at %s by 'rtvirt run --resume' (boot %u of %u): %u of "
                               "%u repetitions kept, the host reverted first", iso, c->boot,
                               c->plan->boots->len, c->resume->runs_done,
                               c->resume->runs_total);
        rv_result_store_add_verification(c->store, "*", 0, "resume", "NOTE", what);
        rv_log_info("%s", what);
        if (rv_harness_run_reserve(rv_result_store_get_dir(c->store), error) < 0)
            return -ENOSPC;
        for (guint s = 0; s < c->matrix->scenarios->len; s++) {
            const RvMatrixScenario *sc = c->matrix->scenarios->pdata[s];
            const RvPlanBoot *b = c->plan->boots->pdata[c->boot];

            if (c->skip->pdata[s] && g_strcmp0(sc->boot_key, b->key) == 0) {
                rv_result_store_set_scenario_status(c->store, sc->name, "skipped",
                                                    c->skip->pdata[s]);
                rv_log_info("Scenario %s: SKIPPED: %s", sc->name, (char *) c->skip->pdata[s]);
            }
        }
        /* the host is judged again under this boot (its reasons join the
         * store's; the same reason once) */
        return rv_harness_run_trust(c->root, c->matrix, c->host_cpus->nr_cpu_ids, c->store,
                                    error);
    }
    if (check_out_dir(default_out_dir(), error) < 0)
        return -EINVAL;
    if (rv_result_store_create(default_out_dir(), c->matrix->name, NULL, &c->store, error) < 0)
        return -EIO;
    /* from now on the run can be resumed (harness/reboot.h) */
    c->resume->runs_total = progress_total(c);
    if (progress_write(c, error) < 0)
        return -EIO;
    /* room for the last run.json on a disk that fills up (harness/run.h) */
    if (rv_harness_run_reserve(rv_result_store_get_dir(c->store), error) < 0)
        return -ENOSPC;
    for (guint i = 0; i < c->matrix->files->len; i++) {
        const char *role = i == 0 ? "matrix" : "matrix-include";

        if (rv_result_store_add_profile(c->store, role, c->matrix->files->pdata[i], error) < 0)
            return -EIO;
    }
    for (guint i = 0; i < c->matrix->guests->len; i++) {
        const RvMatrixGuest *g = c->matrix->guests->pdata[i];
        g_autofree char *role = g_strdup_printf("guest:%s", g->name);

        if (rv_result_store_add_profile(c->store, role, g->profile, error) < 0)
            return -EIO;
    }
    if (c->matrix->host_profile &&
        rv_result_store_add_profile(c->store, "host", c->matrix->host_profile, error) < 0)
        return -EIO;
    for (guint s = 0; s < c->matrix->scenarios->len; s++) {
        const RvMatrixScenario *sc = c->matrix->scenarios->pdata[s];
        char buf[512];
        const char *settings = rv_cmd_run_describe_settings(sc, buf, sizeof(buf));
        g_autofree char *desc = sc->description
            ? g_strdup_printf("%s (%s)", sc->description, settings)
            : g_strdup(settings);

        rv_result_store_add_scenario(c->store, sc->name, desc);
        if (c->skip->pdata[s]) {
            rv_result_store_set_scenario_status(c->store, sc->name, "skipped", c->skip->pdata[s]);
            rv_log_info("Scenario %s: SKIPPED: %s", sc->name, (char *) c->skip->pdata[s]);
        }
    }
    if (record_plan(c, error) < 0)
        return -EIO;
    note = rv_harness_plan_baseline_note(c->matrix, c->skip);
    if (note) {
        rv_log_info("%s", note);
        rv_result_store_add_verification(c->store, "*", 0, "baseline", "NOTE", note);
    }
    return rv_harness_run_trust(c->root, c->matrix, c->host_cpus->nr_cpu_ids, c->store, error);
}

/* Step 3b: the guests' common part (libvirt, the image, virt type), the
 * first commit, and the run journal (a journal left by a killed run is
 * reverted before anything else). */
static int
run_prepare(RvRunCtx *c, GError **error)
{
    g_autofree char *journal_path = NULL;

    if (rv_harness_run_env_new(c->matrix, c->root, &c->env, error) < 0)
        return -EINVAL;
    store_set_host_facts(c);
    if (rv_result_store_commit(c->store, error) < 0)
        return -EIO;
    journal_path = rv_harness_run_journal_path(c->root);
    if (rv_host_journal_open(c->root, journal_path, &c->journal, error) < 0)
        return -EIO;
    current_store_set(c, true);
    if (rv_host_journal_n_entries(c->journal) > 0) {
        rv_log_warn("Run journal '%s' holds %u entr%s from an interrupted run: reverting them first",
                    rv_host_journal_path(c->journal), rv_host_journal_n_entries(c->journal),
                    rv_host_journal_n_entries(c->journal) == 1 ? "y" : "ies");
        if (rv_cmd_run_revert_scenario(c, error) < 0)
            return -EIO;
    }
    return 0;
}

/* Step 4: every runnable run of the plan, committing run.json after each.
 * Sets *interrupted when a signal ended the matrix early. */
static int
run_all(RvRunCtx *c, bool *interrupted, GError **error)
{
    rv_harness_signals_install();
    c->progress = rv_harness_progress_new(c->n_runs, rv_harness_run_estimate_us(c->env, c->matrix),
                                          rv_harness_progress_is_tty());
    rv_log_info("Matrix %s: %u run(s) of %u runnable scenario(s), order %s, seed %" G_GUINT64_FORMAT
                ", results in %s", c->matrix->name, c->n_runs, c->runnable,
                rv_harness_matrix_order_name(c->plan->order), c->plan->seed,
                rv_result_store_get_dir(c->store));

    for (guint i = 0; i < c->plan->runs->len; i++) {
        const RvPlanRun *run = c->plan->runs->pdata[i];
        g_autoptr(GError) cerr = NULL;
        gint64 t0 = g_get_monotonic_time();
        int r;

        if (c->skip->pdata[run->scenario] || run->boot != c->boot)
            continue;
        if (rv_harness_signals_received()) {
            *interrupted = true;
            break;
        }
        if (arg_resume && rv_cmd_run_boot_rep_done(c, run)) {
            rv_log_info("Run %s, repetition %u: measured before the run stopped: kept",
                        run->cell_name, run->round + 1);
            rv_harness_progress_kept(c->progress);
            continue;
        }
        if (arg_resume && rv_result_store_forget_repetition(c->store, run->cell_name,
                                                            (int) run->round + 1))
            /* in flight when the run stopped: what it left goes, it runs again */
            rv_log_info("Run %s, repetition %u: in flight when the run stopped: measured again",
                        run->cell_name, run->round + 1);
        if (c->plan->n_reboots)
            rv_cmd_run_boot_note(c, run);
        r = c->boot_fail ? rv_cmd_run_boot_failed(c, run) : run_one(c, run, error);
        if (r > 0)
            r = 0;
        else if (r == 0) {
            const char *name = ((RvMatrixScenario *) c->matrix->scenarios->pdata[run->scenario])->name;

            rv_result_store_set_scenario_status(c->store, name, "ran", NULL);
            /* a SCENARIO@LOAD cell is a scenario of the store too: not left "planned" */
            if (g_strcmp0(run->cell_name, name) != 0)
                rv_result_store_set_scenario_status(c->store, run->cell_name, "ran", NULL);
        }
        /* a store that cannot be written stops the matrix: it could not
         * keep what the next repetitions measure */
        if (rv_result_store_commit(c->store, &cerr) < 0) {
            if (r == 0) {
                rv_error_set(error, RV_ERROR_FAILED, EIO, "%s: matrix stopped", cerr->message);
                r = -EIO;
            } else {
                rv_log_error("%s", cerr->message);
            }
        }
        if (r != -ECANCELED && !cerr) {
            g_autoptr(GError) perr = NULL;
            guint64 took = (guint64) (g_get_monotonic_time() - t0);

            /* the mean over the repetitions measured so far */
            c->resume->run_us = c->resume->runs_done
                ? (c->resume->run_us * c->resume->runs_done + took) / (c->resume->runs_done + 1)
                : took;
            c->resume->runs_done++;
            if (progress_write(c, &perr) < 0)
                rv_log_warn("%s", perr->message);
        }
        rv_cmd_run_test_point("committed");
        if (r == -ECANCELED) {
            *interrupted = true;
            break;
        }
        if (r < 0)
            return r;
    }
    if (rv_harness_signals_received())
        *interrupted = true;
    return 0;
}

/* Step 5: the end: revert, the last commit, the summary, the exit status. */
static int
run_finish(RvRunCtx *c, bool interrupted, GError **error)
{
    rv_harness_progress_free(g_steal_pointer(&c->progress));
    /* the guest start counts outlive the environment (print_summary) */
    rv_harness_run_env_starts(c->env, &c->failed_starts, &c->learned_starts);
    rv_harness_run_env_free(g_steal_pointer(&c->env));
    if (rv_cmd_run_revert_scenario(c, error) < 0)
        return -EIO;
    if (c->plan->n_reboots && !interrupted && rv_cmd_run_boots_end(c, "the last boot measured",
                                                                   error) < 0)
        return -EIO;
    if (c->plan->n_reboots && interrupted && rv_cmd_run_boots_stop(c, "interrupted", error) < 0)
        return -EIO;
    rv_result_store_set_complete(c->store, !interrupted);
    if (interrupted)
        rv_result_store_set_untrusted(c->store, RV_CMD_RUN_INTERRUPTED);
    if (rv_result_store_commit(c->store, error) < 0)
        return -EIO;
    if (!interrupted && !c->plan->n_reboots &&
        rv_harness_reboot_state_remove(rv_result_store_get_dir(c->store)) < 0)
        rv_log_warn("Failed to remove %s/%s", rv_result_store_get_dir(c->store),
                    RV_HARNESS_REBOOT_STATE);
    if (!interrupted)
        current_store_set(c, false);
    print_summary(c);
    rv_harness_signals_uninstall();
    if (interrupted) {
        rv_log_error("Interrupted: host settings reverted, domains destroyed, results so far in "
                     "%s ('rtvirt run --resume %s' continues)", rv_result_store_get_dir(c->store),
                     rv_result_store_get_dir(c->store));
        return RV_EXIT_ERROR;
    }
    return c->failed_runs ? RV_EXIT_CHECK : RV_EXIT_OK;
}

/* Every runnable scenario SKIPPED: the store says why, exit 77. */
static int
run_nothing(RvRunCtx *c, const char *matrix, GError **error)
{
    store_set_host_facts(c);
    rv_result_store_set_complete(c->store, TRUE);
    if (rv_result_store_commit(c->store, error) < 0)
        return -EIO;
    (void) rv_harness_reboot_state_remove(rv_result_store_get_dir(c->store));
    rv_log_error("No scenario of %s can run on this host (every one SKIPPED)", matrix);
    print_summary(c);
    return RV_EXIT_SKIP;
}

/* A failure of any step: log it, mark the store untrusted, revert. */
static int
run_fail(RvRunCtx *c, const GError *err)
{
    int ret = rv_log_gerror(err, NULL);

    rv_harness_progress_free(g_steal_pointer(&c->progress));
    if (c->store) {
        g_autoptr(GError) cerr = NULL;

        rv_harness_run_env_free(g_steal_pointer(&c->env));
        rv_result_store_set_untrusted(c->store, RV_CMD_RUN_FAILED);
        if (c->resume && c->plan && c->plan->n_reboots && c->root && c->locked) {
            /* no boot after this one resumes a failed run by itself;
             * `run --resume` does, from resume.json.  Without the lock
             * (another rtvirt holds the host) the boot loader is not
             * ours to touch: the unit stays, the next boot resumes. */
            g_autoptr(GError) berr = NULL;

            if (rv_cmd_run_boots_stop(c, "the run failed", &berr) < 0)
                rv_log_error("Failed to restore the boot arguments (run 'rtvirt run --abort %s'): %s",
                             rv_result_store_get_dir(c->store), berr->message);
        }
        /* a full disk: the reserve makes room for this run.json, with
         * every record so far */
        rv_harness_run_reserve_release(rv_result_store_get_dir(c->store));
        if (rv_result_store_commit(c->store, &cerr) < 0)
            rv_log_error("%s", cerr->message);
    }
    rv_harness_signals_uninstall();
    ctx_clear(c);   /* reverts the journal */
    return ret;
}

/* A stop requested before the reboot command of a handover
 * (rv_cmd_run_handover() -ECANCELED): ended as interrupted, which restores
 * the boot loader and keeps resume.json at the boot to come. */
static int
handover_stopped(RvRunCtx *c)
{
    g_autoptr(GError) err = NULL;
    int ret;

    ret = run_finish(c, true, &err);
    if (ret < 0)
        return run_fail(c, err);
    ctx_clear(c);
    return ret;
}

/* --resume of a store whose run completed (the resume unit after the last
 * boot, or an earlier --resume, ended it): nothing to do, said, exit 0, so
 * that a resume after each reboot may race the unit (the fleet's run role). */
static bool
resume_complete(const char *store_dir)
{
    g_autoptr(RvStore) store = NULL;

    if (rv_result_store_open(store_dir, &store, NULL) < 0 || !rv_result_store_get_complete(store))
        return false;
    printf("Results: %s\nComplete: the run of this store ended before this --resume: nothing "
           "to resume\n", rv_result_store_get_dir(store));
    return true;
}

static const RvCmdSpec run_spec = {
    .params = "MATRIX - run a scenario matrix",
    .description =
        "Runs every scenario of MATRIX (profiles/matrix/NAME.ini, or a name: 'rtvirt\n"
        "profiles') the matrix's number of times, interleaved or in a random order\n"
        "from a recorded seed, and writes the results store RESULTS/<date>-<name>/\n"
        "run.json after every repetition.\n"
        "Scenarios this host cannot run are SKIPPED with the reason.  Host settings go\n"
        "through the run journal and are reverted after every run, on exit and on\n"
        "SIGINT/SIGTERM; after a crash 'rtvirt host revert' restores them.\n"
        "A repetition is ok when it measured: a\n"
        "verification FAIL (memory not locked, vCPU not SCHED_FIFO, placement) or\n"
        "virt=tcg leaves it ok but marks the results untrusted, which the summary\n"
        "says (\"Runs: 4 ok (measured; 4 with verification FAIL, results untrusted)\",\n"
        "\"Trusted: no\" with the reasons, virt=tcg first).  This differs from\n"
        "'rtvirt guest run', a single check of one guest, which exits 1 on any\n"
        "verification FAIL.\n"
        "--plan changes nothing and says what the run would do: the estimated\n"
        "wall time (in all and per scenario), every host change and the journals\n"
        "that undo it, the host profile's verdict (UNTRUSTED results where it\n"
        "fails), the resources the guests need against the host's (CPUs, memory,\n"
        "huge pages per size and NUMA node), the seed and the run table.  Without\n"
        "--seed (or a seed in the matrix) each run draws its own seed: 'run --seed N'\n"
        "runs the order '--plan --seed N' shows.  --plan --json prints it as\n"
        "{schema_version, matrix, order, seed, seed_source, seed_note, estimate,\n"
        "host_changes, journals, host_profile, resources, repetitions, scenarios,\n"
        "baseline_note, boots, runs}.\n"
        "Scenarios with bootargs = run in boots: the host's first, then each set of\n"
        "arguments installed through the boot loader, rtvirt-run-resume.service and\n"
        "a reboot ($RTVIRT_REBOOT_CMD, default 'systemctl reboot'); after the boot\n"
        "'run --resume STORE' checks /proc/cmdline and sysfs, then measures;\n"
        "'run --abort STORE' restores the boot arguments and removes the unit;\n"
        "so does Ctrl-C or SIGTERM, which keeps the run resumable.\n"
        "Every run keeps STORE/resume.json until its matrix completes: 'run --resume\n"
        "STORE' continues one that stopped (Ctrl-C, SIGKILL, a crash, a power cut)\n"
        "with the same plan and seed, after reverting the host (and, in a matrix\n"
        "with bootargs, installing the boot's arguments and rebooting first when\n"
        "the host does not run them): repetitions that\n"
        "ended are kept, the one in flight is measured again; a matrix or profile\n"
        "changed since is refused, naming the first line that differs.  --resume of\n"
        "a store that completed says so and exits 0.  'rtvirt status' shows a run's\n"
        "progress and the time left.",
    .exit_status =
        "0 every runnable repetition measured, 1 some failed (a guest did\n"
        "not start, a workload hung or sent garbage, a boot did not take its\n"
        "arguments), 2 error or interrupted, 3 the host reboots into the next boot\n"
        "of a matrix with bootargs (the run goes on after it: --resume), 77 no\n"
        "scenario can run on this host.  --plan: 0, 2 bad input, 77 no scenario\n"
        "can run on this host.  A scenario the host cannot run (SMT, core\n"
        "scheduling, CPUs to place its guests or the [host] workload, memory,\n"
        "free huge pages) is SKIPPED with the reason by --plan and the run alike.",
    .common = RV_COMMON_JSON | RV_COMMON_ROOT | RV_COMMON_DURATION,
    .json_help = "With --plan: print the plan as JSON (schema_version) instead of text",
    .root_help = "Host root for /sys, /proc and /etc (default /; with --plan, or a matrix without guests)",
    .duration_help = "Measured time per repetition (overrides [main] duration)",
};

int
rv_cmd_run(int argc, char **argv)
{
    static const GOptionEntry entries[] = {
        { "output", 'o', 0, G_OPTION_ARG_FILENAME, &arg_out,
          "Directory that holds the results stores (default: results; stores in rtvirt's source tree)", "DIR" },
        /* the old spelling, still accepted (-o is --output in every command) */
        { "out", 0, G_OPTION_FLAG_HIDDEN, G_OPTION_ARG_FILENAME, &arg_out, NULL, "DIR" },
        { "seed", 0, 0, G_OPTION_ARG_STRING, &arg_seed,
          "Seed of the random run order (overrides the matrix's seed)", "N" },
        { "warmup", 0, 0, G_OPTION_ARG_STRING, &arg_warmup,
          "Warm-up time per repetition (overrides [main] warmup)", "TIME" },
        { "repetitions", 0, 0, G_OPTION_ARG_INT, &arg_repetitions,
          "Repetitions per scenario (overrides [main] repetitions)", "N" },
        { "wait-lock", 0, 0, G_OPTION_ARG_INT, &arg_wait_lock,
          "Wait up to SECONDS for another rtvirt run on this host to end (default: refuse)",
          "SECONDS" },
        { "plan", 0, 0, G_OPTION_ARG_NONE, &arg_plan_only,
          "Validate, print the plan and the skip reasons, change nothing", NULL },
        { "resume", 0, 0, G_OPTION_ARG_FILENAME, &arg_resume,
          "Continue the run of STORE: after a reboot into its next boot (what "
          "rtvirt-run-resume.service runs), Ctrl-C, SIGKILL, a crash or a power cut", "STORE" },
        { "abort", 0, 0, G_OPTION_ARG_FILENAME, &arg_abort,
          "End the run of STORE between its boots: the original boot arguments back, "
          "rtvirt-run-resume.service removed", "STORE" },
        { NULL }
    };
    g_autoptr(GError) err = NULL;
    g_autoptr(RvLock) lock = NULL;
    RvRunCtx c = { 0 };
    bool interrupted = false, reboot_first = false;
    int ret;

    /* a closed pipe (`rtvirt run M | head`) or libvirtd's closed socket
     * must not kill the run before it reverts: harness/signals.h */
    rv_harness_signals_ignore_faults();
    if (rv_cmd_parse(&run_spec, entries, &argc, &argv) < 0)
        return RV_EXIT_ERROR;
    if ((arg_resume || arg_abort) && (argc != 1 || arg_plan_only || (arg_resume && arg_abort))) {
        rv_log_error("%s: --resume STORE and --abort STORE take no MATRIX, no --plan and not each "
                     "other; see '%s --help'", argv[0], argv[0]);
        return RV_EXIT_ERROR;
    }
    if (arg_abort)
        return rv_cmd_run_abort(arg_abort);
    if (arg_resume && rv_harness_reboot_state_read(arg_resume, &c.resume, &err) == -ENOENT &&
        resume_complete(arg_resume))
        return RV_EXIT_OK;
    if (arg_resume && !c.resume)
        return run_fail(&c, err);
    if (!arg_resume && argc != 2) {
        rv_log_error("%s: expected one MATRIX profile; see '%s --help'", argv[0], argv[0]);
        return RV_EXIT_ERROR;
    }
    if (rv_cmd_common.json && !arg_plan_only) {
        rv_log_error("%s: --json goes with --plan (a run's document is RESULTS/.../run.json)",
                     argv[0]);
        return RV_EXIT_ERROR;
    }

    c.plan_only = arg_plan_only;
    c.matrix_arg = arg_resume ? NULL : argv[1];
    if (run_load_inputs(&c, arg_resume ? NULL : argv[1], &err) < 0)
        return run_fail(&c, err);
    if (!arg_plan_only && rv_cmd_run_take_lock(&lock, &err) < 0)
        return run_fail(&c, err);
    c.locked = lock != NULL;
    rv_cmd_run_judge_host(&c);
    if (arg_plan_only) {
        ret = RV_EXIT_OK;
        if (rv_cmd_common.json)
            ret = rv_cmd_run_print_plan_json(&c);
        else
            rv_cmd_run_print_plan(&c);
        if (ret == RV_EXIT_OK && c.runnable == 0) {
            /* as the run would: nothing here can run */
            rv_log_error("No scenario of %s can run on this host (every one SKIPPED)",
                         c.matrix->name);
            ret = RV_EXIT_SKIP;
        }
        ctx_clear(&c);
        return ret;
    }
    if (run_open_store(&c, &err) < 0)
        return run_fail(&c, err);
    if (c.runnable == 0) {
        ret = run_nothing(&c, argv[1], &err);
        if (ret < 0)
            return run_fail(&c, err);
        ctx_clear(&c);
        return ret;
    }
    if (c.plan->n_reboots) {
        /* which boot this is, and whether it took its arguments */
        const RvPlanBoot *b = c.plan->boots->pdata[c.boot];

        c.cmdline = rv_harness_reboot_cmdline(c.root);
        if (arg_resume)
            c.boot_fail = rv_harness_reboot_verify(c.root, b->bootargs, c.cmdline);
        if (arg_resume && rv_cmd_run_boot_needs_reboot(&c)) {
            rv_log_info("Boot %u of %u: the host has not booted with its arguments since they "
                        "were installed (%s): installing them again and rebooting", c.boot,
                        c.plan->boots->len, c.boot_fail);
            g_clear_pointer(&c.boot_fail, g_free);
            reboot_first = true;
        } else if (c.boot_fail)
            rv_log_warn("Boot %u of %u did not take its arguments: %s: its runs fail",
                        c.boot, c.plan->boots->len, c.boot_fail);
    }
    if (run_prepare(&c, &err) < 0)
        return run_fail(&c, err);
    /* before every host change: is our lock file still the one at the path? */
    rv_host_journal_set_guard(c.journal, rv_harness_lock_guard, lock);
    if ((c.resume && !arg_resume && ((RvPlanBoot *) c.plan->boots->pdata[0])->bootargs) ||
        reboot_first) {
        /* no scenario runs under the boot the host has: reboot first */
        ret = rv_cmd_run_handover(&c, c.boot, &err);
        if (ret == -ECANCELED)
            return handover_stopped(&c);
        if (ret < 0)
            return run_fail(&c, err);
        ctx_clear(&c);
        return ret;
    }
    if (run_all(&c, &interrupted, &err) < 0)
        return run_fail(&c, err);
    if (c.resume && !interrupted && c.boot + 1 < c.plan->boots->len) {
        ret = rv_cmd_run_handover(&c, c.boot + 1, &err);
        if (ret == -ECANCELED)
            return handover_stopped(&c);
        if (ret < 0)
            return run_fail(&c, err);
        ctx_clear(&c);
        return ret;
    }
    ret = run_finish(&c, interrupted, &err);
    if (ret < 0)
        return run_fail(&c, err);
    ctx_clear(&c);
    return ret;
}
