/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * harness/cmd-result.c: `rtvirt result check FILE...`: judge cyclictest,
 * oslat and `rtvirt pert` outputs someone already has.
 *
 * Parses each file (results/cyclictest.h), loads the facts of the host it
 * ran on when --root is given (host/ topology, state, RT threads), feeds
 * both to the judge (results/judge.h) and prints the findings in `host
 * check`'s form, or one JSON document.  Exit 0 without FAIL, 1 with a FAIL
 * (a broken --budget is one), 2 when a file cannot be read or parsed (the
 * message names FILE:LINE) or an option is bad.
 */
#include <errno.h>
#include <stdio.h>
#include <string.h>

#include "harness/cmd-common.h"
#include "harness/commands.h"
#include "harness/log.h"
#include "host/fsroot.h"
#include "host/facts/state.h"
#include "host/facts/threads.h"
#include "host/facts/topology.h"
#include "results/cyclictest.h"
#include "results/judge.h"
#include "util/cpulist.h"
#include "util/error.h"
#include "util/escape.h"
#include "util/finding.h"
#include "util/json.h"
#include "util/units.h"

/* JSON schema of `result check --json`; bumped on incompatible change. */
#define RESULT_CHECK_SCHEMA_VERSION 1

static char *arg_cmdline;
static int arg_priority = -1;
static char *arg_cpus;
static char *arg_budget;

static const RvCmdSpec result_check_spec = {
    .params = "FILE...",
    .summary =
        "Judge cyclictest output (status lines, -q, -h histograms, --json of rt-tests\n"
        "1.x-2.x), oslat (text or --json), hwlatdetect, rtla timerlat/osnoise top and\n"
        "hist (with timerlat's auto-analysis), stress-ng's cyclic report and rtvirt\n"
        "pert --json files.\n"
        "\n"
        "Each finding is PASS, NOTE, WARN or FAIL with a stable id, where (FILE:LINE)\n"
        "and a fix: a run that was not real-time (P:0, policy other), at another\n"
        "priority than asked or below the threaded IRQs, cyclictest's 'defaulting\n"
        "realtime priority' notice, CPUs that should have been measured and were not\n"
        "(-S on an isolated host), the main thread on a measured CPU or its SMT sibling,\n"
        "maxima beyond the histogram, a non-RT kernel with timer_migration=1, a run\n"
        "that stopped early or lasted under a minute, cyclictest without -m, a raised\n"
        "hwlatdetect threshold, statistics over part of the run, a run in a VM.",
    .description =
        "With --root DIR the files are judged against that host (a capture or /):\n"
        "isolated CPUs, SMT siblings, threaded-IRQ and kthread priorities, PREEMPT_RT,\n"
        "timer_migration and the idle states of the measured CPUs.  Several runs in\n"
        "one file are judged one by one.",
    .exit_status =
        "0 no FAIL, 1 a FAIL (a --budget broken), 2 a file that cannot be read or\n"
        "parsed (truncated or invalid JSON: FILE:LINE named) or a bad option.",
    .common = RV_COMMON_JSON | RV_COMMON_ROOT,
    .json_help = "Print the findings as JSON (schema_version 1)",
    .root_help = "Judge against the host captured in DIR (or / for this host)",
    .verbose_help = "List PASS findings too",
};

/* Host facts for the judge, from the host/ loaders. */
static int
load_host(const char *dir, RvJudgeHost *h, GError **error)
{
    g_autoptr(RvRoot) root = NULL;
    g_autoptr(RvTopology) topo = NULL;
    g_autoptr(RvHostState) st = NULL;
    g_autoptr(GArray) thr = NULL;

    if (rv_host_root_open(dir, &root, error) < 0 ||
        rv_host_topology_load(root, &topo, error) < 0 ||
        rv_host_state_load(root, topo->nr_cpu_ids, &st, error) < 0)
        return -EINVAL;
    h->virtualized = -1;
    {
        /* a guest: the CPU flags carry "hypervisor" (arch/x86 cpuid bit
         * 31 of ECX, leaf 1, set by every hypervisor) */
        g_autofree char *cpuinfo = NULL;
        if (rv_host_root_read(root, "/proc/cpuinfo", &cpuinfo, NULL) >= 0)
            h->virtualized = strstr(cpuinfo, " hypervisor") != NULL;
    }
    h->has_online = true;
    h->online = topo->online;
    if (st->isolated.known) {
        h->has_isolated = true;
        h->isolated = st->isolated.set;
    }
    h->cores = g_array_new(FALSE, FALSE, sizeof(RvCpuSet));
    for (guint i = 0; i < topo->cores->len; i++)
        g_array_append_val(h->cores, g_array_index(topo->cores, RvCore, i).threads);
    h->preempt_rt = st->preempt_rt == RV_TRI_UNKNOWN ? -1 : st->preempt_rt == RV_TRI_YES;
    h->timer_migration = st->timer_migration.known ? (int) st->timer_migration.value : -1;
    h->idle = g_array_new(FALSE, FALSE, sizeof(RvJudgeIdle));
    for (guint i = 0; st->cpus && i < st->cpus->len; i++) {
        const RvCpuPower *p = &g_array_index(st->cpus, RvCpuPower, i);
        const RvIdleState *deep = NULL;

        for (guint k = 0; p->idle_states && k < p->idle_states->len; k++) {
            const RvIdleState *s = &g_array_index(p->idle_states, RvIdleState, k);
            if (s->disabled != RV_TRI_YES && s->latency_us.known &&
                (!deep || s->latency_us.value > deep->latency_us.value))
                deep = s;
        }
        if (deep) {
            RvJudgeIdle ji = { .cpu = p->cpu, .name = g_strdup(deep->name ? deep->name : "?"),
                               .latency_us = deep->latency_us.value };
            g_array_append_val(h->idle, ji);
        }
    }
    /* threaded IRQs and the other RT kernel threads */
    h->irq_thread_prio = -1;
    if (rv_host_rt_threads_load(root, &thr, NULL, NULL) == 0) {
        h->irq_thread_prio = 0;
        h->rt_kthreads = g_ptr_array_new_with_free_func((GDestroyNotify) rv_result_judge_kthread_free);
        for (guint i = 0; i < thr->len; i++) {
            const RvTask *t = &g_array_index(thr, RvTask, i);

            if (!t->kthread || (t->policy != 1 && t->policy != 2) || !t->comm)
                continue;
            if (g_str_has_prefix(t->comm, "irq/")) {
                if (t->rt_priority > h->irq_thread_prio) {
                    h->irq_thread_prio = t->rt_priority;
                    g_free(h->irq_thread_name);
                    h->irq_thread_name = g_strdup(t->comm);
                }
            } else if (!g_str_has_prefix(t->comm, "migration/") &&
                       !g_str_has_prefix(t->comm, "watchdog/") &&
                       !g_str_has_prefix(t->comm, "idle_inject/") && t->has_affinity) {
                RvJudgeKthread *k = g_new0(RvJudgeKthread, 1);
                k->comm = g_strdup(t->comm);
                k->pid = t->pid;
                k->priority = t->rt_priority;
                k->affinity = t->affinity;
                g_ptr_array_add(h->rt_kthreads, k);
            }
        }
        for (guint i = 0; i < thr->len; i++)
            rv_host_task_clear(&g_array_index(thr, RvTask, i));
    }
    return 0;
}

static void
print_run(const char *file, guint index, guint nruns, const RvCyclictestRun *run,
          const RvFindings *findings)
{
    gint64 max = rv_result_cyclictest_run_max_us(run);
    g_autofree char *maxs = max >= 0 ? g_strdup_printf("max %" G_GINT64_FORMAT " us", max)
                                     : g_strdup("max unknown");
    GString *s = g_string_new(NULL);
    g_autofree char *text = NULL;

    g_string_append(s, file);
    if (nruns > 1)
        g_string_append_printf(s, " run %u of %u", index + 1, nruns);
    g_string_append_printf(s, " (lines %d-%d): %s%s%s, %u thread(s), %s: %s\n", run->first_line,
                           run->last_line, run->tool, run->version ? " " : "",
                           run->version ? run->version : "", run->threads->len, maxs,
                           rv_finding_level_name(rv_findings_worst(findings)));
    rv_findings_format(s, findings, rv_cmd_common.verbose > 0);
    /* the header quotes the file's own words (tool, version): the text rule */
    text = rv_escape_text(g_string_free(s, FALSE));
    printf("%s\n", text);
}

static void
json_run(JsonBuilder *b, const RvCyclictestRun *run, const RvFindings *findings)
{
    gint64 max = rv_result_cyclictest_run_max_us(run);

    json_builder_begin_object(b);
    rv_json_add_int(b, "first_line", run->first_line);
    rv_json_add_int(b, "last_line", run->last_line);
    rv_json_add_string_or_null(b, "tool", run->tool);
    rv_json_add_string_or_null(b, "version", run->version);
    rv_json_add_string_or_null(b, "cmdline", run->cmdline);
    rv_json_add_int(b, "threads", run->threads->len);
    json_builder_set_member_name(b, "max_us");
    if (max >= 0)
        json_builder_add_int_value(b, max);
    else
        json_builder_add_null_value(b);
    rv_json_add_string_or_null(b, "verdict", rv_finding_level_name(rv_findings_worst(findings)));
    rv_findings_to_json(b, findings);
    json_builder_end_object(b);
}

/* One file: parse, judge every run, print.  Returns the worst level, or
 * -1 when the file could not be read or parsed (logged, exit 2). */
static int
check_file(const char *file, const RvJudgeWant *want, const RvJudgeHost *host,
           JsonBuilder *b, unsigned counts[RV_FINDING_N_LEVELS])
{
    g_autoptr(GPtrArray) runs = NULL;
    g_autoptr(GError) err = NULL;
    int worst = RV_FINDING_PASS;

    if (b) {
        json_builder_begin_object(b);
        rv_json_add_string_or_null(b, "file", file);
    }
    if (rv_result_cyclictest_parse_file(file, &runs, &err) < 0) {
        rv_log_gerror(err, NULL);
        if (b) {
            rv_json_add_string_or_null(b, "error", err->message);
            json_builder_set_member_name(b, "runs");
            json_builder_begin_array(b);
            json_builder_end_array(b);
            json_builder_end_object(b);
        }
        return -1;
    }
    if (b) {
        rv_json_add_string_or_null(b, "error", NULL);
        json_builder_set_member_name(b, "runs");
        json_builder_begin_array(b);
    }
    for (guint i = 0; i < runs->len; i++) {
        const RvCyclictestRun *run = runs->pdata[i];
        g_autoptr(RvFindings) findings = NULL;
        int w = rv_result_judge_run(run, file, runs->len, want, host, &findings, &err);

        if (w < 0) {
            /* a bad --cmdline is the same for every file: an option error */
            rv_log_gerror(err, NULL);
            return -2;
        }
        for (unsigned l = 0; l < RV_FINDING_N_LEVELS; l++)
            counts[l] += findings->counts[l];
        if (b)
            json_run(b, run, findings);
        else
            print_run(file, i, runs->len, run, findings);
        worst = MAX(worst, w);
    }
    if (b) {
        json_builder_end_array(b);
        json_builder_end_object(b);
    }
    return worst;
}

static int
parse_options(RvJudgeWant *want, GError **error)
{
    want->priority = arg_priority;
    want->budget_us = -1;
    want->cmdline = arg_cmdline;
    if (arg_priority > 99 || arg_priority == 0 || arg_priority < -1)
        return rv_error_set(error, RV_ERROR_INVALID, EINVAL,
                            "--priority %d: an RT priority is 1..99", arg_priority);
    if (arg_cpus) {
        if (rv_cpulist_parse(arg_cpus, 0, &want->cpus, error) < 0) {
            if (error && *error)
                g_prefix_error(error, "--cpus: ");
            return -EINVAL;
        }
        want->has_cpus = true;
    }
    if (arg_budget) {
        guint64 us;
        /* a bare number is us here: cyclictest's unit */
        g_autofree char *s = g_ascii_isdigit(arg_budget[strlen(arg_budget) ? strlen(arg_budget) - 1 : 0])
                             ? g_strconcat(arg_budget, "us", NULL) : g_strdup(arg_budget);
        if (rv_parse_duration_us(s, &us) < 0 || us > (guint64) G_MAXINT64)
            return rv_error_set(error, RV_ERROR_INVALID, EINVAL,
                                "--budget '%s': expected a latency such as 100us or 1ms",
                                arg_budget);
        want->budget_us = (gint64) us;
    }
    if (arg_cmdline) {
        RvCyclictestArgs a;
        if (rv_result_cyclictest_args_parse(arg_cmdline, &a, error) < 0)
            return -EINVAL;
        rv_result_cyclictest_args_clear(&a);
    }
    return 0;
}

int
rv_cmd_result_check(int argc, char **argv)
{
    const GOptionEntry entries[] = {
        { "cmdline", 0, 0, G_OPTION_ARG_STRING, &arg_cmdline,
          "What was run, when the file does not show it ('cyclictest -p 95 -a 2-5 -t 4')",
          "'cyclictest ARGS'" },
        { "priority", 0, 0, G_OPTION_ARG_INT, &arg_priority,
          "The RT priority the threads should have run at (1-99)", "N" },
        { "cpus", 0, 0, G_OPTION_ARG_STRING, &arg_cpus,
          "The CPUs that should have been measured (default with --root: the isolated ones)",
          "LIST" },
        { "budget", 0, 0, G_OPTION_ARG_STRING, &arg_budget,
          "Latency budget: FAIL (exit 1) when a max is above it (100us, 1ms; bare: us)",
          "LATENCY" },
        { NULL },
    };
    g_autoptr(GError) err = NULL;
    g_autoptr(JsonBuilder) b = NULL;
    RvJudgeWant want = { 0 };
    RvJudgeHost host = { 0 };
    unsigned counts[RV_FINDING_N_LEVELS] = { 0 };
    int worst = RV_FINDING_PASS;
    bool bad = false;

    if (rv_cmd_parse(&result_check_spec, entries, &argc, &argv) < 0)
        return RV_EXIT_ERROR;
    if (rv_cmd_common.root && load_host(rv_cmd_common.root, &host, &err) < 0) {
        rv_result_judge_host_clear(&host);
        return rv_log_gerror(err, "Failed to read the host");
    }
    if (argc < 2) {
        rv_result_judge_host_clear(&host);
        rv_log_error("%s: expected one or more FILE arguments (cyclictest, oslat or rtvirt "
                     "pert output); see --help", argv[0]);
        return RV_EXIT_ERROR;
    }
    if (parse_options(&want, &err) < 0) {
        rv_result_judge_host_clear(&host);
        return rv_log_gerror(err, NULL);
    }
    if (rv_cmd_common.json) {
        b = json_builder_new();
        rv_cmd_json_begin(b, RESULT_CHECK_SCHEMA_VERSION);
        rv_json_add_string_or_null(b, "root", rv_cmd_common.root);
        json_builder_set_member_name(b, "files");
        json_builder_begin_array(b);
    }
    for (int i = 1; i < argc; i++) {
        int w = check_file(argv[i], &want, rv_cmd_common.root ? &host : NULL, b, counts);

        if (w == -2) {
            rv_result_judge_host_clear(&host);
            return RV_EXIT_ERROR;
        }
        if (w < 0)
            bad = true;
        else
            worst = MAX(worst, w);
    }
    rv_result_judge_host_clear(&host);
    if (b) {
        g_autoptr(JsonNode) node = NULL;

        json_builder_end_array(b);
        rv_findings_summary_to_json(b, counts);
        rv_json_add_string_or_null(b, "verdict", bad ? "ERROR" : rv_finding_level_name(worst));
        json_builder_end_object(b);
        node = json_builder_get_root(b);
        if (rv_cmd_print_json(node) < 0)
            return RV_EXIT_ERROR;
    } else {
        g_autoptr(GString) s = g_string_new(NULL);

        rv_findings_format_summary(s, bad ? "ERROR" : rv_finding_level_name(worst), counts,
                                   rv_cmd_common.verbose > 0);
        fputs(s->str, stdout);
        fflush(stdout);
    }
    if (bad)
        return RV_EXIT_ERROR;
    return worst == RV_FINDING_FAIL ? RV_EXIT_CHECK : RV_EXIT_OK;
}
