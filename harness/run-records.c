/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * harness/run-records.c: what one repetition (harness/run.c) leaves in the
 * results store: the record of every workload (parsed by its ops table,
 * or failed with the reason), the raw outputs, the verifications of the
 * guests' sessions and cgroups, the host-counters record and the lines
 * `rtvirt run` prints about them.
 */
#include <errno.h>
#include <math.h>
#include <string.h>

#include "harness/log.h"
#include "harness/run-priv.h"
#include "host/facts/cgroup.h"
#include "results/store.h"
#include "util/error.h"
#include "util/escape.h"
#include "util/file.h"

/* The most bytes of a tool's stderr quoted in a record's reason: untrusted
 * text as one line (util/escape.h rv_escape_line()), the reason stays one
 * line of run.json and of the run's log. */
#define TOOL_STDERR_MAX 200

/* Each reason once in run.json, not once per repetition. */
void
rv_harness_run_set_untrusted_once(RvRunEnv *env, RvStore *store, const char *why)
{
    /* the same cause names another pid, tid or size in every repetition:
     * compare with every digit run folded into one '#' */
    g_autoptr(GString) key = g_string_new(NULL);

    for (const char *p = why; *p; p++) {
        if (g_ascii_isdigit(*p)) {
            while (g_ascii_isdigit(p[1]))
                p++;
            g_string_append_c(key, '#');
        } else {
            g_string_append_c(key, *p);
        }
    }
    if (g_hash_table_contains(env->untrusted_said, key->str))
        return;
    g_hash_table_add(env->untrusted_said, g_string_free(g_steal_pointer(&key), FALSE));
    rv_result_store_set_untrusted(store, why);
}

/* The session's live verification (guest/verify.h) and findings, into
 * the store; a FAIL makes the store untrusted (the guest did not run as
 * the scenario says). */
void
rv_harness_run_record_session(RvRunEnv *env, RvRunRepetition *rep, RvRunGuest *g)
{
    RvGuestSession *se = g->session;

    env->failed_starts += se->failed_starts;
    env->learned_starts += se->limits_learned ? 1 : 0;

    if (se->verification) {
        for (guint i = 0; i < se->verification->checks->len; i++) {
            const RvGuestCheck *ck = se->verification->checks->pdata[i];
            g_autofree char *what = g_strdup_printf("guest %s %s", g->mg->name, ck->what);
            g_autofree char *detail = g_strdup_printf("expected %s, found %s", ck->expected,
                                                      ck->actual);

            rv_result_store_add_verification(rep->store, rep->cell, rep->repetition, what,
                                             ck->pass ? "PASS" : "FAIL", detail);
            if (!ck->pass) {
                g_autofree char *why = g_strdup_printf("%s: %s", what, detail);

                rv_harness_run_set_untrusted_once(env, rep->store, why);
            }
        }
    }
    for (guint i = 0; se->findings && i < se->findings->len; i++) {
        g_autofree char *what = g_strdup_printf("guest %s", g->mg->name);

        rv_result_store_add_verification(rep->store, rep->cell, rep->repetition, what, "NOTE",
                                         se->findings->pdata[i]);
        if (se->untrusted) {
            g_autofree char *why = g_strdup_printf("guest %s: %s", g->mg->name,
                                                   (char *) se->findings->pdata[i]);

            rv_harness_run_set_untrusted_once(env, rep->store, why);
        }
    }
}

void
rv_harness_run_note_failure(RvRunRepetition *rep, const char *why)
{
    rep->n_failed++;
    if (!rep->first_failure)
        rep->first_failure = g_strdup(why);
}

int
rv_harness_run_write_raw(RvRunRepetition *rep, RvStoreRecord *rec, const char *name,
                         const char *data, gsize len)
{
    g_autofree char *file = g_strdup(name);
    g_autofree char *rel = NULL;
    g_autoptr(GError) err = NULL;
    int r;

    g_strdelimit(file, "@", '-');
    r = rv_result_store_write_raw(rep->store, file, data, len, &rel, &err);
    if (r == 0) {
        rv_result_store_record_add_raw(rec, rel);
        return 0;
    }
    /* the record keeps what was parsed; run.json says which file is missing */
    {
        g_autofree char *d = g_strdup_printf("raw/%s not written: %s", file, err->message);

        rv_harness_progress_clear(rep->progress);
        rv_log_warn("%s", d);
        rv_result_store_add_verification(rep->store, rep->cell, rep->repetition, "raw output",
                                         "FAIL", d);
        if (!rep->store_error)
            rep->store_error = g_steal_pointer(&d);
    }
    return r;
}

/* Host CPU utilisation over a window, in % of all CPUs (host/facts/cpustat.h);
 * NAN when unknown. */
static double
window_cpu_pct(const RvRunRepetition *rep)
{
    return rep->cpu_pct_known ? rep->cpu_pct : NAN;
}

/* details.attribution of an RT guest's cyclictest record, and the host
 * trace it was told from as a raw file beside it (harness/attribution.h). */
static void
record_attribution(RvRunRepetition *rep, RvRunGuest *g, RvStoreRecord *rec)
{
    gsize len = 0;
    const char *text = g->attr ? rv_harness_attr_trace_text(g->attr, &len) : NULL;

    rv_harness_attr_attach(rec, g->attribution);
    if (text && len <= RV_RUN_ATTR_RAW_MAX) {
        g_autofree char *name = g_strdup_printf("%s-r%02u-%s-host-trace.txt", rep->cell,
                                                rep->repetition, g->mg->name);

        (void) rv_harness_run_write_raw(rep, rec, name, text, len);
    }
}

/* The record of guest @g's measured workload (cyclictest in an RT guest,
 * linpack, sysbench... in a neighbour): the output parsed by its ops
 * table, or the reason it failed. */
static void
record_workload(RvRunEnv *env, RvRunRepetition *rep, RvRunGuest *g)
{
    const RvWorkloadOps *ops = g->ops;
    g_autofree char *target = g_strdup_printf("guest:%s", g->mg->name);
    g_autoptr(RvStoreRecord) rec = rv_result_store_record_new(rep->cell, rep->repetition,
                                                              ops->name, target);
    g_autofree char *why = NULL;

    if (rv_harness_run_env_virt(env))
        rv_result_store_record_set_virt(rec, rv_harness_run_env_virt(env));
    if (!rep->load->builtin)
        rv_result_store_record_set_load(rec, rep->load->name);
    rv_result_store_record_set_times(rec, g->t_start, g->t_end);
    if (g->boot_error) {
        why = g_strdup(g->boot_error);
    } else if (g->exec_error) {
        why = g->res.timed_out || g_error_matches(g->exec_error, RV_ERROR, RV_ERROR_TIMEOUT)
            ? g_strdup_printf("guest did not finish %s within %u s: %s", ops->name,
                              g->timeout_ms / 1000, g->exec_error->message)
            : g_strdup_printf("%s in the guest: %s", ops->name, g->exec_error->message);
    } else {
        g_autofree char *name = g_strdup_printf("%s-r%02u-%s-%s.txt", rep->cell,
                                                rep->repetition, g->mg->name, ops->name);
        RvWorkloadResult res = { .rec = rec };
        g_autoptr(GError) perr = NULL;

        (void) rv_harness_run_write_raw(rep, rec, name, g->res.out, g->res.out_len);
        g_strdelimit(name, "@", '-');
        if (g->res.exit_status != 0) {
            g_autofree char *err1 = rv_escape_line(g->res.err, TOOL_STDERR_MAX);

            why = g_strdup_printf("%s exited with status %d in the guest: %s", ops->name,
                                  g->res.exit_status, err1);
        } else if (g->res.truncated) {
            why = g_strdup_printf("%s output exceeded %" G_GSIZE_FORMAT " bytes: cut, not parsed",
                                  ops->name, ops->max_output);
        } else if (ops->parse(&g->params, name, g->ct_rest ? g->ct_rest : g->res.out,
                              g->ct_rest ? strlen(g->ct_rest) : g->res.out_len, &res,
                              &perr) < 0) {
            why = g_strdup_printf("%s output rejected: %s", ops->name, perr->message);
        } else {
            g_autofree char *what = g_strdup_printf("%s priority", ops->name);

            for (guint i = 0; res.findings && i < res.findings->len; i++)
                rv_result_store_add_verification(rep->store, rep->cell, rep->repetition, what,
                                                 "FAIL", res.findings->pdata[i]);
            if (!rep->summary && res.summary)
                rep->summary = g_strdup_printf("%s %s", g->mg->name, res.summary);
            if (g->attribution)
                record_attribution(rep, g, rec);
            if (g->mg->role == RV_MATRIX_ROLE_NEIGHBOUR)
                rv_result_store_record_add_metric_full(rec, RV_STORE_METRIC_CPU_PCT,
                                                       window_cpu_pct(rep), "%",
                                                       RV_STORE_BETTER_LOWER,
                                                       RV_STORE_AGGREGATE_MEAN);
        }
        rv_workload_result_clear(&res);
    }
    if (why) {
        /* what a failed parser left is not a measurement */
        g_ptr_array_set_size(rec->metrics, 0);
        g_ptr_array_set_size(rec->histograms, 0);
        rv_result_store_record_set_status(rec, "failed", why);
        rv_harness_run_note_failure(rep, why);
    }
    rv_result_store_add_record(rep->store, g_steal_pointer(&rec));
}

/* Sum of /proc/interrupts row @row over @cpus in a host/facts/snapshot.h diff
 * (a row absent from the diff did not change: 0). */
static double
irq_row_sum(JsonNode *diff, const char *row, const RvCpuSet *cpus)
{
    JsonObject *o = diff && JSON_NODE_HOLDS_OBJECT(diff) ? json_node_get_object(diff) : NULL;
    JsonObject *irqs = o && json_object_has_member(o, "interrupts")
        ? json_object_get_object_member(o, "interrupts") : NULL;
    JsonArray *cl = o && json_object_has_member(o, "cpus") ? json_object_get_array_member(o, "cpus")
                                                            : NULL;
    JsonArray *pc;
    double sum = 0;

    if (!irqs || !cl || !json_object_has_member(irqs, row))
        return 0;
    pc = json_object_get_array_member(json_object_get_object_member(irqs, row), "per_cpu");
    for (guint i = 0; pc && i < json_array_get_length(pc) && i < json_array_get_length(cl); i++)
        if (rv_cpuset_isset(cpus, (unsigned) json_array_get_int_element(cl, i)))
            sum += (double) json_array_get_int_element(pc, i);
    return sum;
}

/* One record per CPU: workload "pert", target "host:cpuN", the summary of
 * the probe's JSON (count, max, mean, stolen time, overhead) and its
 * histogram of perturbation lengths. */
static void
record_pert(RvRunRepetition *rep, RvRunPertJob *j)
{
    g_autofree char *target = g_strdup_printf("host:cpu%d", j->cpu);
    g_autoptr(RvStoreRecord) rec = rv_result_store_record_new(rep->cell, rep->repetition,
                                                              "pert", target);
    g_autofree char *why = NULL, *text = NULL;
    gsize len = 0;
    gssize n = -1;
    g_autoptr(GError) err = NULL;
    g_autofree char *perr = rv_escape_line(j->res.err, TOOL_STDERR_MAX);

    rv_result_store_record_set_times(rec, j->t_start, j->t_end);
    if (j->error) {
        why = g_strdup_printf("rtvirt pert on CPU %d: %s", j->cpu, j->error->message);
    } else if (j->res.exit_status != 0) {
        why = g_strdup_printf("rtvirt pert on CPU %d exited with status %d: %s", j->cpu,
                              j->res.exit_status, perr);
    } else if ((n = rv_file_read(j->json_path, RV_FILE_READ_MAX, &text, &err)) < 0) {
        why = g_strdup_printf("rtvirt pert on CPU %d wrote no JSON: %s", j->cpu, err->message);
    } else {
        g_autofree char *name = g_strdup_printf("%s-r%02u-host-cpu%d-pert.json", rep->cell,
                                                rep->repetition, j->cpu);

        len = (gsize) n;
        (void) rv_harness_run_write_raw(rep, rec, name, text, len);
        g_strdelimit(name, "@", '-');
        RvWorkloadParams p = { .where = RV_WORKLOAD_HOST };
        RvWorkloadResult res = { .rec = rec };

        /* untrusted, read by the store's value rules (workloads/pert.c) */
        if (rv_workload_pert.parse(&p, name, text, len, &res, &err) < 0)
            why = g_strdup_printf("rtvirt pert JSON of CPU %d refused: %s", j->cpu,
                                  err->message);
    }
    if (why) {
        rv_result_store_record_set_status(rec, "failed", why);
        rv_harness_run_note_failure(rep, why);
    }
    rv_result_store_add_record(rep->store, g_steal_pointer(&rec));
}

static void
record_host(RvRunRepetition *rep, RvRunHostJob *h, const char *precondition_failure)
{
    const RvWorkloadOps *ops = rep->matrix->host_workload;
    const char *wl = rv_harness_matrix_workload_name(ops);
    g_autoptr(RvStoreRecord) rec = rv_result_store_record_new(rep->cell, rep->repetition, wl,
                                                              "host");
    RvWorkloadParams p;
    RvWorkloadResult res = { .rec = rec };
    g_autofree char *why = NULL;

    rv_harness_run_host_params(rep, &h->cpus, NULL, &p);
    rv_result_store_record_set_times(rec, h->t_start, h->t_end);
    if (precondition_failure) {
        why = g_strdup(precondition_failure);
    } else if (h->error) {
        why = g_strdup_printf("host %s: %s", wl, h->error->message);
    } else if (h->res.exit_status != 0) {
        g_autofree char *herr = rv_escape_line(h->res.err, TOOL_STDERR_MAX);

        why = g_strdup_printf("host %s exited with status %d: %s", wl, h->res.exit_status, herr);
    } else {
        g_autofree char *name = g_strdup_printf("%s-r%02u-host-%s.txt", rep->cell,
                                                rep->repetition, wl);
        g_autoptr(GError) perr = NULL;

        (void) rv_harness_run_write_raw(rep, rec, name, h->res.out, h->res.out_len);
        g_strdelimit(name, "@", '-');
        if (ops->parse(&p, name, h->res.out, h->res.out_len, &res, &perr) < 0)
            why = g_strdup_printf("host %s output rejected: %s", wl, perr->message);
    }
    if (!why && ops == &rv_workload_pipe && h->irq_diff) {
        /* RES / CAL / LOC rows of /proc/interrupts (arch/x86/kernel/irq.c
         * arch_show_interrupts()) on the pipe's CPUs during its run */
        rv_workload_add_metric(ops, rec, "resched_ipis", irq_row_sum(h->irq_diff, "RES", &h->cpus));
        rv_workload_add_metric(ops, rec, "call_ipis", irq_row_sum(h->irq_diff, "CAL", &h->cpus));
        rv_workload_add_metric(ops, rec, "local_timer_irqs",
                               irq_row_sum(h->irq_diff, "LOC", &h->cpus));
    }
    rv_workload_result_clear(&res);
    if (why) {
        rv_result_store_record_set_status(rec, "failed", why);
        rv_harness_run_note_failure(rep, why);
    }
    rv_result_store_add_record(rep->store, g_steal_pointer(&rec));
}

/* The cpu cgroup of guest @g's QEMU and its threads, into run.json
 * (verification "cgroup", NOTE): libvirt's per-domain cgroup. */
void
rv_harness_run_record_cgroup(RvRunRepetition *rep, RvRunGuest *g)
{
    g_autoptr(GHashTable) paths = NULL;
    g_autoptr(GError) err = NULL;
    g_autoptr(GString) d = g_string_new(NULL);
    g_autoptr(GList) keys = NULL;
    int n = rv_host_cgroup_cpu_of_threads(rep->root, g->qemu_pid, &paths, &err);

    if (n < 0) {
        rv_result_store_add_verification(rep->store, rep->cell, rep->repetition, "cgroup",
                                         "WARN", err->message);
        return;
    }
    g->cgroup = rv_host_cgroup_common(paths);
    g_string_append_printf(d, "guest %s: QEMU %d and its %d threads in cpu cgroup %s", g->mg->name,
                           (int) g->qemu_pid, n, g->cgroup);
    keys = g_list_sort(g_hash_table_get_keys(paths), (GCompareFunc) strcmp);
    for (GList *k = keys; k; k = k->next)
        g_string_append_printf(d, "%s%s x%u", k == keys ? " (" : ", ",
                               (char *) k->data + strlen(g->cgroup),
                               GPOINTER_TO_UINT(g_hash_table_lookup(paths, k->data)));
    if (keys)
        g_string_append(d, ")");
    rv_result_store_add_verification(rep->store, rep->cell, rep->repetition, "cgroup", "NOTE",
                                     d->str);
}

/* The verification line of a neighbour's load (or its boot failure). */
static void
record_neighbour(RvRunRepetition *rep, RvRunGuest *g)
{
    g_autofree char *what = NULL, *d = NULL;
    bool ok;

    if (g->boot_error) {
        rv_harness_run_note_failure(rep, g->boot_error);
        rv_result_store_add_verification(rep->store, rep->cell, rep->repetition,
                                         "neighbour load", "FAIL", g->boot_error);
        return;
    }
    if (!g->argv)
        return;
    what = g_strdup_printf("guest %s %s load", g->mg->name, g->ops->name);
    d = g->exec_error ? g_strdup(g->exec_error->message)
                      : g_strdup_printf("exit %d: %.100s", g->res.exit_status,
                                        g->res.out ? g_strstrip(g->res.out) : "");
    ok = !g->exec_error && g->res.exit_status == 0;
    rv_result_store_add_verification(rep->store, rep->cell, rep->repetition, what,
                                     ok ? "PASS" : "FAIL", d);
    if (!ok) {
        g_autofree char *why = g_strdup_printf("%s: %s", what, d);

        rv_harness_run_note_failure(rep, why);
    }
}

/* An optional guest whose workload this rtvirt lacks: a "skipped" record
 * with the reason, not a failure. */
static void
record_skipped(RvRunRepetition *rep, RvRunGuest *g)
{
    g_autofree char *target = g_strdup_printf("guest:%s", g->mg->name);
    g_autoptr(RvStoreRecord) rec = rv_result_store_record_new(rep->cell, rep->repetition,
                                                              g->mg->workload_name, target);

    if (!rep->load->builtin)
        rv_result_store_record_set_load(rec, rep->load->name);
    rv_result_store_record_set_status(rec, "skipped", g->mg->skip_reason);
    rv_result_store_add_record(rep->store, g_steal_pointer(&rec));
}

/* Phase 4: one record per workload. */
void
rv_harness_run_record_all(RvRunRep *r)
{
    RvRunRepetition *rep = r->rep;
    const RvMatrix *m = rep->matrix;

    for (guint i = 0; i < r->n; i++) {
        RvRunGuest *g = &r->guests[i];

        if (g->mg->skip_reason)
            record_skipped(rep, g);
        else if (g->mg->workload && g->mg->workload->parse)
            record_workload(r->env, rep, g);
        else
            record_neighbour(rep, g);
    }
    if ((m->host_workload && m->host_workload != &rv_workload_pert) ||
        (m->host_workload == &rv_workload_pert && r->host_skip))
        record_host(rep, &r->host, r->host_skip);
    for (guint i = 0; i < r->perts->len; i++)
        record_pert(rep, r->perts->pdata[i]);
}

/* run.json's per-repetition "provision" object (DESIGN.md): guests, pool,
 * first_alone, boot_ms, teardown_ms (wall clock, monotonic). */
static JsonObject *
provision_object(const RvRunRepetition *rep)
{
    JsonObject *p = json_object_new();

    json_object_set_int_member(p, "guests", rep->provision_guests);
    json_object_set_int_member(p, "pool", rep->provision_pool);
    json_object_set_boolean_member(p, "first_alone", rep->provision_first_alone);
    json_object_set_int_member(p, "boot_ms", (gint64) (rep->boot_us / 1000));
    json_object_set_int_member(p, "teardown_ms", (gint64) (rep->teardown_us / 1000));
    return p;
}

RvStoreRecord *
rv_harness_run_counters_record(const char *cell, unsigned repetition, JsonNode *diff,
                               int run_result, const RvRunRepetition *rep,
                               GDateTime *started, GDateTime *finished)
{
    RvStoreRecord *rec = rv_result_store_record_new(cell, (int) repetition, "host-counters",
                                                    "host");
    JsonObject *o = JSON_NODE_HOLDS_OBJECT(diff) ? json_node_get_object(diff) : NULL;
    const char *srcs[] = { "interrupts", "softirqs" };

    /* totals over all CPUs: the per-CPU split is in details */
    for (guint i = 0; o && i < G_N_ELEMENTS(srcs); i++) {
        JsonObject *t = json_object_has_member(o, srcs[i])
            ? json_object_get_object_member(o, srcs[i]) : NULL;
        gint64 sum = 0;
        GList *members;

        if (!t || json_object_has_member(t, "unavailable"))
            continue;
        members = json_object_get_members(t);
        for (GList *it = members; it; it = it->next)
            sum += json_object_get_int_member(json_object_get_object_member(t, it->data),
                                              "total");
        g_list_free(members);
        rv_result_store_record_add_metric(rec, srcs[i], (double) sum, "count");
    }
    g_autofree char *stretched = NULL;

    if (rep && rep->matrix && o) {
        /* how long the counters' window really was, beside the plan */
        g_autoptr(JsonNode) d = json_node_copy(diff);
        JsonObject *w = json_object_new();
        guint64 planned = rep->matrix->warmup_us + rep->matrix->duration_us;
        guint64 slack = MAX((guint64) RV_HARNESS_RUN_WINDOW_SLACK_US, planned / 2);

        json_object_set_double_member(w, "wall_s", (double) rep->wall_us / G_USEC_PER_SEC);
        json_object_set_double_member(w, "measure_s", (double) rep->measure_us / G_USEC_PER_SEC);
        json_object_set_double_member(w, "planned_s", (double) planned / G_USEC_PER_SEC);
        json_object_set_object_member(json_node_get_object(d), "window", w);
        json_object_set_object_member(json_node_get_object(d), "provision",
                                      provision_object(rep));
        if (rep->confinement)
            json_object_set_object_member(json_node_get_object(d), "confinement",
                                          json_object_ref(rep->confinement));
        if (rep->cosched)
            json_object_set_member(json_node_get_object(d), "cosched",
                                   json_node_copy(rep->cosched));
        if (rep->rt_vcpus)
            json_object_set_member(json_node_get_object(d), "rt_vcpus",
                                   json_node_copy(rep->rt_vcpus));
        rv_result_store_record_set_details(rec, d);
        if (rep->measure_us > planned + slack)
            stretched = g_strdup_printf(
                "window stretched: warm-up and measurement took %.1f s of wall time, planned "
                "%.1f s (rtvirt or the guest was stopped: SIGSTOP, a suspended VM, a stalled "
                "host); the counters cover more than the measured time",
                (double) rep->measure_us / G_USEC_PER_SEC, (double) planned / G_USEC_PER_SEC);
    } else {
        rv_result_store_record_set_details(rec, diff);
    }
    rv_result_store_record_set_times(rec, started, finished);
    if (run_result == -ECANCELED) {
        rv_result_store_record_set_status(rec, "failed",
                                          "interrupted: the repetition was stopped by a "
                                          "signal, the counters cover a cut-short window");
    } else if (run_result < 0 || (rep && rep->n_failed)) {
        g_autofree char *why = g_strdup_printf(
            "repetition failed: %s; the counters do not cover a measured window",
            rep && rep->first_failure ? rep->first_failure : "error");

        rv_result_store_record_set_status(rec, "failed", why);
    } else if (stretched) {
        rv_result_store_record_set_status(rec, "failed", stretched);
    }
    return rec;
}

char *
rv_harness_run_status_line(const RvRunRepetition *rep, const char *virt)
{
    const char *tag = g_strcmp0(virt, "tcg") == 0 ? " (virt=tcg)" : "";

    if (rep->n_failed)
        return g_strdup_printf("FAILED%s: %s", tag,
                               rep->first_failure ? rep->first_failure : "");
    if (rep->summary)
        return g_strdup_printf("ok%s: %s", tag, rep->summary);
    return g_strdup_printf("ok%s", tag);
}

char *
rv_harness_run_summary_runs(unsigned ok, unsigned failed, unsigned ok_with_fail)
{
    if (ok_with_fail)
        return g_strdup_printf("%u ok (measured; %u with verification FAIL, results "
                               "untrusted), %u failed", ok, ok_with_fail, failed);
    return g_strdup_printf("%u ok, %u failed", ok, failed);
}

GPtrArray *
rv_harness_run_reasons_ordered(GPtrArray *reasons)
{
    GPtrArray *out = g_ptr_array_new();

    for (guint pass = 0; pass < 2; pass++)
        for (guint i = 0; reasons && i < reasons->len; i++) {
            const char *r = reasons->pdata[i];
            bool tcg = g_str_has_prefix(r, "virt=tcg");

            if (tcg == (pass == 0))
                g_ptr_array_add(out, reasons->pdata[i]);
        }
    return out;
}
