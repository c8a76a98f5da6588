/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * results/judge.c: judge a latency measurement (see judge.h).
 *
 * Readers load, this judges, harness/cmd-result.c prints.  The rules:
 *  - cyclictest's threads run SCHED_FIFO only with -p N (N > 0); P:0 or
 *    "policy: other" is a SCHED_OTHER run, whose numbers say nothing about
 *    real-time latency;
 *  - with FIFO/RR and priority 0 cyclictest prints "defaulting realtime
 *    priority to N" (N = threads + 1) on stderr (rt-tests 2.x
 *    process_options()), e.g. after "-smp -p 98": getopt bundles -s -m -p
 *    and takes the next word, "-p", as -p's value, which atoi() makes 0;
 *  - threaded IRQ handlers run at FIFO 50 (kernel/irq/manage.c
 *    setup_irq_thread(): sched_set_fifo(), MAX_RT_PRIO / 2); a measurement
 *    at or below them is preempted by every interrupt on its CPU;
 *  - -a LIST pins thread i to the i-th CPU of LIST (round robin); -S and -a
 *    without a list use the process's affinity mask, which isolcpus=
 *    shrinks to the housekeeping CPUs, so "-S" on an isolated host never
 *    measures the isolated CPUs; without -a the threads are not pinned;
 *  - without --mainaffinity (rt-tests >= 2.2) the main thread is restricted
 *    to the -a mask too ("Restrict the main pid to the affinity specified
 *    by the user"), i.e. it shares the measured CPUs;
 *  - cyclictest -h N counts samples >= N us as overflows; the max of such
 *    a run is only in "# Max Latencies" (the parser takes it from there);
 *  - on a kernel without PREEMPT_RT, timer_migration=1 lets the timer of
 *    a measured CPU be queued elsewhere and pulled back
 *    (Documentation/admin-guide/sysctl/kernel.rst, timer_migration);
 *  - cyclictest writes 0 to /dev/cpu_dma_latency while it runs ("#
 *    /dev/cpu_dma_latency set to 0us"), which keeps CPUs out of idle
 *    states with an exit latency (Documentation/power/pm_qos_interface.rst).
 */
#include <errno.h>
#include <math.h>
#include <string.h>

#include "results/judge.h"
#include "util/cpulist.h"
#include "util/error.h"

/* kernel/irq/manage.c setup_irq_thread(): MAX_RT_PRIO / 2 */
#define IRQ_THREAD_DEFAULT_PRIO 50
/* an idle state exiting slower than this is worth a finding */
#define IDLE_EXIT_WARN_US 10
/* a run shorter than this is judged too short to show a worst case */
#define RUN_SHORT_S 60
/* kernel/trace/trace_hwlat.c DEFAULT_LAT_THRESHOLD (us) */
#define HWLAT_DEFAULT_THRESHOLD_US 10
/* OpenShift cnf-tests hwlatdetect-runner: --threshold 20 --hardlimit 20 */
#define HWLAT_COMMON_THRESHOLD_US 20

typedef struct {
    const RvCyclictestRun *run;
    const char *file;
    const RvJudgeWant *want;
    const RvJudgeHost *host;
    bool has_args;
    RvCyclictestArgs args;
    RvFindings *out;
    int min_prio;             /* lowest P: > 0 over the threads, -1 none */
    bool measured_known;
    RvCpuSet measured;
    char *measured_how;       /* "-a 2,4", "JSON \"cpu\"", ... */
    bool allowed_known;       /* the threads could only run on these */
    RvCpuSet allowed;
} Judge;

void
rv_result_judge_kthread_free(RvJudgeKthread *k)
{
    if (!k)
        return;
    g_free(k->comm);
    g_free(k);
}

void
rv_result_judge_host_clear(RvJudgeHost *h)
{
    if (!h)
        return;
    if (h->cores)
        g_array_unref(h->cores);
    if (h->idle) {
        for (guint i = 0; i < h->idle->len; i++)
            g_free(g_array_index(h->idle, RvJudgeIdle, i).name);
        g_array_unref(h->idle);
    }
    if (h->rt_kthreads)
        g_ptr_array_unref(h->rt_kthreads);
    g_free(h->irq_thread_name);
    memset(h, 0, sizeof(*h));
}

/* Where a finding was seen: FILE:LINE, the run's first line when @line is 0. */
static void
at_line(const Judge *j, RvFinding *f, int line)
{
    rv_finding_set_where(f, "%s:%d", j->file, line > 0 ? line : j->run->first_line);
}

static const char *
policy_word(const Judge *j)
{
    const char *p = j->run->policy ? j->run->policy : j->args.policy;

    if (p && g_ascii_strcasecmp(p, "rr") == 0)
        return "RR";
    return "FIFO";
}

static void
check_input(Judge *j, guint nruns)
{
    const RvCyclictestRun *run = j->run;

    if (nruns > 1)
        rv_findings_add(j->out, RV_FINDING_NOTE, "input.multiple-runs", NULL, NULL, NULL, NULL,
            "%u result sets in one file: each is judged on its own (this one starts "
            "at line %d)", nruns, run->first_line);
    if (run->histogram_absent)
        at_line(j, rv_findings_add(j->out, RV_FINDING_WARN, "output.histogram-absent", NULL, NULL,
                                   NULL, "keep the whole output: with -h the histogram is printed "
                                   "when the run ends (-D, or SIGINT); a pasted status line "
                                   "alone is a truncated result",
                                   "histogram requested (-h %d) but absent: the output was cut "
                                   "or the run interrupted; the max comes from the last status "
                                   "line only", run->histogram_requested),
                run->last_line);
    guint incomplete = 0;
    for (guint i = 0; i < run->notes->len; i++) {
        const char *n = run->notes->pdata[i];

        if (run->histogram_absent && g_str_has_prefix(n, "histogram requested"))
            continue;
        /* one line for all threads of an edited paste, not one per thread */
        if (g_str_has_prefix(n, "thread ") && strstr(n, ": histogram incomplete")) {
            incomplete++;
            continue;
        }
        rv_findings_add(j->out, RV_FINDING_NOTE, "input.note", NULL, NULL, NULL, NULL, "%s", n);
    }
    if (incomplete)
        rv_findings_add(j->out, RV_FINDING_NOTE, "input.note", NULL, NULL, NULL, NULL,
            "the histogram rows of %u thread(s) do not add up to '# Total' (rows elided): "
            "no percentiles from it", incomplete);
}

/* P:0 / "policy: other" / --policy other */
static void
check_policy(Judge *j)
{
    const RvCyclictestRun *run = j->run;
    g_autoptr(GString) zero = g_string_new(NULL);
    const char *pol = run->policy ? run->policy : j->args.policy;

    for (guint i = 0; i < run->threads->len; i++) {
        const RvCyclictestThread *t = run->threads->pdata[i];
        if (t->priority == 0)
            g_string_append_printf(zero, "%sT%d", zero->len ? ", " : "", t->index);
    }
    if ((pol && (g_ascii_strcasecmp(pol, "other") == 0 || g_ascii_strcasecmp(pol, "normal") == 0 ||
                 g_ascii_strcasecmp(pol, "batch") == 0 || g_ascii_strcasecmp(pol, "idle") == 0)) ||
        zero->len)
        rv_findings_add(j->out, RV_FINDING_FAIL, "rt.policy-other", NULL, NULL, NULL,
            "run cyclictest with -p N (SCHED_FIFO, N above the threaded IRQs, e.g. 95)",
            "measurement not real-time: %s%s%s; SCHED_OTHER latencies say nothing about "
            "RT latency",
            pol ? "policy " : "", pol ? pol : "",
            zero->len ? (pol ? ", threads at P:0" : "threads at P:0") : "");
}

static int
wanted_priority(const Judge *j)
{
    if (j->want->priority >= 0)
        return j->want->priority;
    if (j->has_args && j->args.priority > 0 && j->run->defaulted_priority < 0)
        return j->args.priority;
    return -1;
}

static void
check_priority(Judge *j)
{
    const RvCyclictestRun *run = j->run;
    g_autoptr(GString) off = g_string_new(NULL);
    int want = wanted_priority(j);
    guint known = 0;

    if (run->defaulted_priority >= 0)
        at_line(j, rv_findings_add(j->out, RV_FINDING_WARN, "rt.priority-defaulted", NULL, NULL, NULL,
                                   "give -p N as its own word (e.g. '-S -m -p 98', not '-smp -p 98')",
                                   "cyclictest printed 'defaulting realtime priority to %d': -p "
                                   "was missing, 0 or not a number (a bundle like '-smp -p 98' "
                                   "makes getopt take the word '-p' as -p's value), so the "
                                   "threads ran at %s %d%s%s", run->defaulted_priority,
                                   policy_word(j), run->defaulted_priority,
                                   j->has_args && j->args.priority_arg ? ", -p value " : "",
                                   j->has_args && j->args.priority_arg ? j->args.priority_arg : ""),
                run->defaulted_line);
    else if (j->has_args && j->args.priority_arg && !g_ascii_isdigit(j->args.priority_arg[0]))
        rv_findings_add(j->out, RV_FINDING_WARN, "rt.priority-defaulted", NULL, NULL, NULL,
            "give -p N as its own word (e.g. '-S -m -p 98', not '-smp -p 98')",
            "the command line gives -p the value '%s', which cyclictest reads as 0: it "
            "ran at its default priority (threads + 1), not the one intended",
            j->args.priority_arg);

    j->min_prio = -1;
    for (guint i = 0; i < run->threads->len; i++) {
        const RvCyclictestThread *t = run->threads->pdata[i];
        if (t->priority < 0)
            continue;
        known++;
        if (t->priority > 0 && (j->min_prio < 0 || t->priority < j->min_prio))
            j->min_prio = t->priority;
        if (want >= 0 && t->priority != want)
            g_string_append_printf(off, "%sT%d at %d", off->len ? ", " : "", t->index,
                                   t->priority);
    }
    if (!known) {
        if (run->defaulted_priority > 0)
            j->min_prio = run->defaulted_priority;
        else if (j->has_args && j->args.priority > 0)
            j->min_prio = j->args.priority;
        rv_findings_add(j->out, RV_FINDING_NOTE, "rt.priority-unknown", NULL, NULL, NULL, NULL,
            "the output shows no P: priority (quiet histogram, JSON or %s)%s",
            run->tool, want >= 0 ? ": the requested priority is not verified" : "");
        return;
    }
    if (off->len)
        rv_findings_add(j->out, RV_FINDING_WARN, "rt.priority-mismatch", NULL, NULL, NULL,
            "check the priority the wrapper passes to cyclictest -p (a job's scheduling "
            "priority is not the test's RT priority)",
            "measurement threads at %s %d, asked %d (%s)", policy_word(j), j->min_prio,
            want, off->str);
    else if (want >= 0)
        rv_findings_add(j->out, RV_FINDING_PASS, "rt.priority-mismatch", NULL, NULL, NULL, NULL,
            "%u thread(s) at priority %d as asked", known, want);
}

/* the threaded IRQs and other RT kthreads against the measurement's priority */
static void
check_preemptors(Judge *j)
{
    const RvJudgeHost *h = j->host;
    int ref = IRQ_THREAD_DEFAULT_PRIO;
    const char *who = "the kernel's default for threaded IRQs";
    g_autoptr(GString) above = g_string_new(NULL);
    RvCpuSet cpus;

    if (j->min_prio <= 0)
        return;
    if (h && h->irq_thread_prio == 0)
        ref = -1;    /* the host has no threaded IRQs */
    else if (h && h->irq_thread_prio > 0) {
        ref = h->irq_thread_prio;
        who = h->irq_thread_name ? h->irq_thread_name : "threaded IRQs";
    }
    if (ref > 0 && j->min_prio <= ref)
        rv_findings_add(j->out, RV_FINDING_WARN, "rt.priority-below-irq", NULL, NULL, NULL,
            "run the measurement above the threaded IRQs (cyclictest -p 95; rtvirt uses "
            "FIFO 95 for vCPUs and probes)",
            "measurement threads at %s %d, not above the threaded IRQs (FIFO %d, %s): "
            "every interrupt on a measured CPU preempts them", policy_word(j), j->min_prio,
            ref, who);
    if (!h || !h->rt_kthreads || !j->measured_known)
        return;
    rv_cpuset_zero(&cpus);
    for (guint i = 0; i < h->rt_kthreads->len; i++) {
        const RvJudgeKthread *k = h->rt_kthreads->pdata[i];

        if (k->priority <= j->min_prio || !rv_cpuset_intersects(&k->affinity, &j->measured))
            continue;
        if (above->len < 400)
            g_string_append_printf(above, "%s%s (FIFO %d)", above->len ? ", " : "", k->comm,
                                   k->priority);
        RvCpuSet both;
        rv_cpuset_and(&both, &k->affinity, &j->measured);
        rv_cpuset_or(&cpus, &cpus, &both);
    }
    if (above->len)
        rv_findings_add(j->out, RV_FINDING_WARN, "rt.kthread-above", &cpus, NULL, NULL,
            "raise the measurement's priority or move/lower those kthreads (host profile "
            "[kthreads])",
            "kernel threads above the measurement (%s %d) may run on the measured CPUs: %s",
            policy_word(j), j->min_prio, above->str);
}

/* The process's affinity mask: taskset -c LIST, else what isolcpus= leaves
 * (online minus isolated) when the host is known. */
static bool
process_mask(const Judge *j, RvCpuSet *ret, const char **ret_how)
{
    if (j->has_args && j->args.taskset_list &&
        rv_cpulist_parse(j->args.taskset_list, 0, ret, NULL) == 0) {
        *ret_how = "taskset -c";
        return true;
    }
    if (j->host && j->host->has_online) {
        *ret = j->host->online;
        if (j->host->has_isolated)
            rv_cpuset_andnot(ret, &j->host->online, &j->host->isolated);
        *ret_how = "the affinity mask, which isolcpus= shrinks to the housekeeping CPUs";
        return true;
    }
    return false;
}

/* Which CPUs the threads measured, from JSON "cpu" or the command line. */
static void
find_measured(Judge *j)
{
    const RvCyclictestRun *run = j->run;
    guint n = run->threads->len, with_cpu = 0;
    RvCpuSet mask;
    const char *how = NULL;

    rv_cpuset_zero(&j->measured);
    if (g_strcmp0(run->tool, "hwlatdetect") == 0) {
        /* one kthread that moves across its CPU list (hwlatdetect
         * --cpu-list, tracing_cpumask): every CPU of it was watched */
        const char *l = run->cpu_list ? run->cpu_list : j->has_args ? j->args.affinity_list : NULL;
        if (l && rv_cpulist_parse(l, 0, &j->measured, NULL) == 0) {
            j->measured_known = j->allowed_known = true;
            j->allowed = j->measured;
            j->measured_how = g_strdup_printf("hwlatdetect CPU list %s", l);
        }
        return;
    }
    for (guint i = 0; i < n; i++) {
        const RvCyclictestThread *t = run->threads->pdata[i];
        if (t->cpu >= 0 && t->cpu < RV_CPUSET_MAX) {
            rv_cpuset_set(&j->measured, t->cpu);
            with_cpu++;
        }
    }
    if (n && with_cpu == n) {
        j->measured_known = j->allowed_known = true;
        j->allowed = j->measured;
        j->measured_how = g_strdup(run->form == RV_CYCLICTEST_FORM_JSON
                                   ? "the JSON \"cpu\" of each thread"
                                   : "the CPU of each column or row of the output");
        return;
    }
    if (!n && run->cpu_list && rv_cpulist_parse(run->cpu_list, 0, &j->measured, NULL) == 0) {
        /* oslat stopped before its summary: the CPU list it was given */
        j->measured_known = j->allowed_known = true;
        j->allowed = j->measured;
        j->measured_how = g_strdup_printf("%s CPU list %s", run->tool, run->cpu_list);
        return;
    }
    if (!j->has_args)
        return;
    if (j->args.affinity && j->args.affinity_list) {
        g_autofree int *order = NULL;
        RvCpuSet list;
        guint k = 0;

        if (rv_cpulist_parse(j->args.affinity_list, 0, &list, NULL) < 0)
            return;
        order = g_new(int, rv_cpuset_count(&list) + 1);
        for (int c = rv_cpuset_next(&list, 0); c >= 0; c = rv_cpuset_next(&list, c + 1))
            order[k++] = c;
        /* thread i on the i-th CPU of the list, round robin */
        for (guint i = 0; i < n && k; i++)
            rv_cpuset_set(&j->measured, order[i % k]);
        j->measured_known = j->allowed_known = true;
        j->allowed = j->measured;
        j->measured_how = g_strdup_printf("-a %s", j->args.affinity_list);
        return;
    }
    if (process_mask(j, &mask, &how)) {
        j->allowed_known = true;
        j->allowed = mask;
        if (j->args.smp || j->args.affinity || rv_cpuset_count(&mask) == 1) {
            /* -S / -a: one thread per CPU of the mask, in order */
            guint k = 0;
            for (int c = rv_cpuset_next(&mask, 0); c >= 0 && k < MAX(n, 1u);
                 c = rv_cpuset_next(&mask, c + 1), k++)
                rv_cpuset_set(&j->measured, c);
            j->measured_known = true;
            j->measured_how = g_strdup_printf("%s: %s", j->args.smp ? "-S" : j->args.affinity
                                              ? "-a without a list" : "one CPU allowed", how);
            return;
        }
    }
    if (!j->args.smp && !j->args.affinity && n && g_str_equal(run->tool, "cyclictest"))
        rv_findings_add(j->out, RV_FINDING_WARN, "cpus.unpinned", NULL, NULL, NULL,
            "pin the threads: cyclictest -a LIST -t N (one thread per measured CPU)",
            "the threads were not pinned (no -a, no -S): they ran wherever the scheduler "
            "put them, so the measured CPUs are unknown%s",
            j->allowed_known ? " (only within the process's affinity mask)" : "");
}

static void
check_cpus(Judge *j)
{
    const RvJudgeHost *h = j->host;
    RvCpuSet expect, missing, outside;
    bool from_isolated = false;
    g_autofree char *m = NULL, *e = NULL;

    if (j->want->has_cpus) {
        expect = j->want->cpus;
    } else if (h && h->has_isolated && !rv_cpuset_is_empty(&h->isolated)) {
        expect = h->isolated;
        from_isolated = true;
    } else {
        return;
    }
    e = rv_cpulist_format(&expect);
    if (!j->measured_known) {
        if (j->allowed_known && !rv_cpuset_intersects(&j->allowed, &expect)) {
            g_autofree char *a = rv_cpulist_format(&j->allowed);
            rv_findings_add(j->out, RV_FINDING_FAIL, "cpus.not-measured", &expect, NULL, NULL,
                "pin the threads to the CPUs to measure: cyclictest -a LIST -t N",
                "CPUs %s%s were not measured: the threads could only run on CPUs %s", e,
                from_isolated ? " (isolated)" : "", a);
        } else {
            rv_findings_add(j->out, RV_FINDING_NOTE, "cpus.unknown", &expect, NULL, NULL, NULL,
                "the output does not tell which CPUs were measured (only --json does, or "
                "-a in the command line: give --cmdline): CPUs %s not verified", e);
        }
        return;
    }
    m = rv_cpulist_format(&j->measured);
    rv_cpuset_andnot(&missing, &expect, &j->measured);
    rv_cpuset_andnot(&outside, &j->measured, &expect);
    if (from_isolated && !rv_cpuset_intersects(&expect, &j->measured)) {
        rv_findings_add(j->out, RV_FINDING_FAIL, "cpus.not-measured", &expect, NULL, NULL,
            "measure the isolated CPUs: cyclictest -a LIST -t N with LIST the isolated "
            "CPUs (-S alone uses the affinity mask, which isolcpus= shrinks)",
            "the isolated CPUs %s were never measured: the threads ran on CPUs %s (%s)", e,
            m, j->measured_how);
    } else if (!rv_cpuset_is_empty(&missing)) {
        g_autofree char *x = rv_cpulist_format(&missing);
        rv_findings_add(j->out, from_isolated ? RV_FINDING_NOTE : RV_FINDING_FAIL,
            "cpus.not-measured", &missing, NULL, NULL,
            "pin one thread to each CPU to measure: cyclictest -a LIST -t N",
            "CPUs %s%s were not measured: the threads ran on CPUs %s (%s)", x,
            from_isolated ? " (isolated)" : "", m, j->measured_how);
    } else {
        rv_findings_add(j->out, RV_FINDING_PASS, "cpus.not-measured", &expect, NULL, NULL, NULL,
            "CPUs %s measured (%s)", e, j->measured_how);
    }
    if (!from_isolated && !rv_cpuset_is_empty(&outside)) {
        g_autofree char *o = rv_cpulist_format(&outside);
        rv_findings_add(j->out, RV_FINDING_WARN, "cpus.outside", &outside, NULL, NULL,
            "pin the threads to the CPUs to measure only",
            "threads also ran on CPUs %s, outside %s (%s)", o, e, j->measured_how);
    }
}

/* the siblings of @cpus (the other threads of their cores) */
static void
siblings_of(const RvJudgeHost *h, const RvCpuSet *cpus, RvCpuSet *ret)
{
    rv_cpuset_zero(ret);
    for (guint i = 0; h->cores && i < h->cores->len; i++) {
        const RvCpuSet *core = &g_array_index(h->cores, RvCpuSet, i);
        if (rv_cpuset_intersects(core, cpus))
            rv_cpuset_or(ret, ret, core);
    }
    rv_cpuset_andnot(ret, ret, cpus);
}

static void
check_smt(Judge *j)
{
    const RvJudgeHost *h = j->host;
    RvCpuSet main_cpus, sib, both;
    const char *main_how;

    if (!j->measured_known)
        return;
    if (h && h->cores)
        siblings_of(h, &j->measured, &sib);
    else
        rv_cpuset_zero(&sib);
    if (j->has_args && j->args.main_affinity &&
        rv_cpulist_parse(j->args.main_affinity, 0, &main_cpus, NULL) == 0) {
        main_how = "--mainaffinity";
    } else if (j->run->main_cpu >= 0 && j->run->main_cpu < RV_CPUSET_MAX) {
        rv_cpuset_zero(&main_cpus);
        rv_cpuset_set(&main_cpus, j->run->main_cpu);
        main_how = "oslat 'CPU for main thread'";
    } else if (j->has_args && j->args.affinity_list &&
               g_strcmp0(j->args.tool, "cyclictest") == 0 &&
               rv_cpulist_parse(j->args.affinity_list, 0, &main_cpus, NULL) == 0) {
        main_how = "-a without --mainaffinity restricts it to the -a mask";
    } else {
        main_how = NULL;
    }
    if (main_how) {
        rv_cpuset_and(&both, &main_cpus, &j->measured);
        if (!rv_cpuset_is_empty(&both)) {
            g_autofree char *b = rv_cpulist_format(&both);
            rv_findings_add(j->out, RV_FINDING_WARN, "smt.sibling-main-thread", &both, NULL, NULL,
                "put the main thread on a housekeeping CPU: cyclictest --mainaffinity=CPU (rt-tests >= 2.2), oslat -C CPU",
                "the main thread may run on measured CPU(s) %s (%s)", b, main_how);
        }
        rv_cpuset_and(&both, &main_cpus, &sib);
        if (!rv_cpuset_is_empty(&both)) {
            g_autofree char *b = rv_cpulist_format(&both);
            rv_findings_add(j->out, RV_FINDING_WARN, "smt.sibling-main-thread", &both, NULL, NULL,
                "put the main thread on a CPU of another core: cyclictest --mainaffinity=CPU, oslat -C CPU",
                "the main thread ran on CPU(s) %s, the SMT sibling of a measured CPU (%s): "
                "they share the core's execution units", b, main_how);
        }
    }
    if (h && h->cores && h->has_isolated) {
        rv_cpuset_andnot(&both, &sib, &h->isolated);
        if (!rv_cpuset_is_empty(&both)) {
            g_autofree char *b = rv_cpulist_format(&both);
            rv_findings_add(j->out, RV_FINDING_WARN, "smt.sibling-load", &both, NULL, NULL,
                "isolate whole cores (both siblings), or switch SMT off (nosmt)",
                "the SMT sibling(s) %s of the measured CPUs are housekeeping CPUs: any load "
                "there shared the measured cores", b);
        }
    }
}

static void
check_histogram(Judge *j)
{
    const RvCyclictestRun *run = j->run;
    guint64 over = 0;
    guint nthr = 0, range = 0;
    const RvCyclictestThread *worst = NULL;

    for (guint i = 0; i < run->threads->len; i++) {
        const RvCyclictestThread *t = run->threads->pdata[i];
        const RvHistogram *hg = t->histogram;

        if (!hg)
            continue;
        range = MAX(range, (guint) hg->n_buckets);
        if (hg->overflows > 0 || (t->max_us >= 0 && (guint64) t->max_us >= hg->n_buckets)) {
            over += hg->overflows;
            nthr++;
            if (!worst || t->max_us > worst->max_us)
                worst = t;
        }
    }
    if (!nthr)
        return;
    if (worst->max_us >= 0)
        rv_findings_add(j->out, RV_FINDING_WARN, "histogram.beyond-range", NULL, NULL, NULL,
            "size the histogram past the budget (-h 1000): percentiles of a run with "
            "overflows are unknown beyond the range",
            "%" G_GUINT64_FORMAT " sample(s) on %u thread(s) beyond the %u us histogram; "
            "max %" G_GINT64_FORMAT " us (thread %d) is from '# Max Latencies', not the "
            "last bucket", over, nthr, range, worst->max_us, worst->index);
    else
        rv_findings_add(j->out, RV_FINDING_WARN, "histogram.beyond-range", NULL, NULL, NULL,
            "keep the '# Max Latencies' line, or size the histogram past the budget",
            "%" G_GUINT64_FORMAT " sample(s) beyond the %u us histogram and no '# Max "
            "Latencies': the max is unknown", over, range);
}

static void
check_kernel(Judge *j)
{
    const RvJudgeHost *h = j->host;
    int rt = h && h->preempt_rt >= 0 ? h->preempt_rt : j->run->realtime;

    if (rt != 0)
        return;
    if (h && h->timer_migration == 1)
        rv_findings_add(j->out, RV_FINDING_WARN, "kernel.timer-migration", NULL, NULL, NULL,
            "sysctl kernel.timer_migration=0 (host profile [sysctl]), or a PREEMPT_RT kernel",
            "non-RT kernel with timer_migration=1: timers armed on the measured CPUs can be "
            "queued on other CPUs and their expiry pulled back, which these latencies include");
    else
        rv_findings_add(j->out, RV_FINDING_NOTE, "kernel.not-rt", NULL, NULL, NULL, NULL,
            "measured on a kernel without PREEMPT_RT%s%s%s", j->run->kernel_release ? " (" : "",
            j->run->kernel_release ? j->run->kernel_release : "",
            j->run->kernel_release ? ")" : "");
}

static void
check_idle(Judge *j)
{
    const RvJudgeHost *h = j->host;
    g_autoptr(GString) deep = g_string_new(NULL);
    RvCpuSet cpus;
    bool qos = j->run->dma_latency_us == 0;

    if (!h || !h->idle || !j->measured_known)
        return;
    rv_cpuset_zero(&cpus);
    for (guint i = 0; i < h->idle->len; i++) {
        const RvJudgeIdle *s = &g_array_index(h->idle, RvJudgeIdle, i);

        if (s->cpu >= RV_CPUSET_MAX || !rv_cpuset_isset(&j->measured, s->cpu) ||
            s->latency_us <= IDLE_EXIT_WARN_US)
            continue;
        rv_cpuset_set(&cpus, s->cpu);
        if (deep->len < 400)
            g_string_append_printf(deep, "%sCPU %u %s (%" G_GINT64_FORMAT " us)",
                                   deep->len ? ", " : "", s->cpu, s->name, s->latency_us);
    }
    if (!deep->len)
        return;
    rv_findings_add(j->out, qos ? RV_FINDING_NOTE : RV_FINDING_WARN, "idle.deep-states", &cpus,
        NULL, NULL,
        "disable the deep idle states of the isolated CPUs (host profile [cpu] "
        "idle_max_latency_us), or keep /dev/cpu_dma_latency at 0 while measuring",
        "measured CPUs may enter idle states with a long exit latency: %s%s", deep->str,
        qos ? "; cyclictest held /dev/cpu_dma_latency at 0, which keeps them out while "
              "it runs, but not the workload it stands for" : "");
}

static void
check_budget(Judge *j)
{
    const RvCyclictestRun *run = j->run;
    const RvCyclictestThread *worst = NULL;
    gint64 b = j->want->budget_us;

    if (b < 0)
        return;
    for (guint i = 0; i < run->threads->len; i++) {
        const RvCyclictestThread *t = run->threads->pdata[i];
        if (t->max_us >= 0 && (!worst || t->max_us > worst->max_us))
            worst = t;
    }
    if (!worst && run->below_us > 0 && run->below_us <= b)
        rv_findings_add(j->out, RV_FINDING_PASS, "latency.budget", NULL, NULL, NULL, NULL,
            "no sample above the %" G_GINT64_FORMAT " us threshold <= budget %" G_GINT64_FORMAT
            " us", run->below_us, b);
    else if (!worst && run->below_us > 0)
        rv_findings_add(j->out, RV_FINDING_FAIL, "latency.budget", NULL, NULL, NULL,
            "rerun with the threshold at or below the budget (hwlatdetect --threshold)",
            "the max is only known to be below the %" G_GINT64_FORMAT " us threshold: budget %"
            G_GINT64_FORMAT " us not verified", run->below_us, b);
    else if (!worst)
        rv_findings_add(j->out, RV_FINDING_FAIL, "latency.budget", NULL, NULL, NULL,
            "keep the summary lines or '# Max Latencies' in the output",
            "no max latency in the output: budget %" G_GINT64_FORMAT " us not verified", b);
    else if (worst->max_us > b)
        rv_findings_add(j->out, RV_FINDING_FAIL, "latency.budget", NULL, NULL, NULL,
            "find what ran on the CPU: rtvirt host check, tracing (rtla timerlat)",
            "max %" G_GINT64_FORMAT " us on thread %d > budget %" G_GINT64_FORMAT " us",
            worst->max_us, worst->index, b);
    else
        rv_findings_add(j->out, RV_FINDING_PASS, "latency.budget", NULL, NULL, NULL, NULL,
            "max %" G_GINT64_FORMAT " us on thread %d <= budget %" G_GINT64_FORMAT " us",
            worst->max_us, worst->index, b);
}

/* A measured duration: the tool's own, else cycles x interval (cyclictest
 * status lines); -1 unknown. */
static double
measured_s(const Judge *j)
{
    const RvCyclictestRun *run = j->run;
    double d = -1;

    if (run->duration_s >= 0)
        return run->duration_s;
    for (guint i = 0; i < run->threads->len; i++) {
        const RvCyclictestThread *t = run->threads->pdata[i];
        int iv = t->interval_us > 0 ? t->interval_us : j->has_args ? j->args.interval_us : -1;
        /* a quiet histogram has no C:, its "# Total:" counts the cycles */
        gint64 cycles = t->cycles > 0 ? t->cycles
                      : t->histogram_total >= 0 && t->histogram
                        ? t->histogram_total + (gint64) MIN(t->histogram->overflows, (guint64) G_MAXINT32)
                        : -1;
        if (iv <= 0 && j->has_args && g_strcmp0(j->args.tool, "cyclictest") == 0)
            iv = 1000;   /* cyclictest's default -i */
        if (cycles > 0 && iv > 0)
            d = MAX(d, (double) cycles * iv / 1e6);
    }
    return d;
}

/* The duration asked: the output's, else -D/-d, else -l x -i; -1 unknown. */
static double
asked_s(const Judge *j)
{
    if (j->run->duration_asked_s >= 0)
        return j->run->duration_asked_s;
    if (!j->has_args)
        return -1;
    if (j->args.duration_s > 0)
        return j->args.duration_s;
    if (j->args.loops > 0)
        return (double) j->args.loops * (j->args.interval_us > 0 ? j->args.interval_us : 1000) / 1e6;
    return -1;
}

/* run.stopped, run.short: statistics of a run that ended early, or of a
 * run too short to meet the rare events a worst case is made of, are not
 * comparable with a full run's. */
static void
check_run_length(Judge *j)
{
    const RvCyclictestRun *run = j->run;
    double d = measured_s(j), a = asked_s(j), len;

    if (run->no_result) {
        at_line(j, rv_findings_add(j->out, RV_FINDING_FAIL, "run.stopped", NULL, NULL, NULL,
                                   "rerun until the tool prints its result; keep its whole output",
                                   "no result: %s ended before printing its statistics (%s)",
                                   run->tool, run->stopped ? run->stopped : "output cut"),
                run->stopped_line);
        return;
    }
    if (run->stopped)
        at_line(j, rv_findings_add(j->out, RV_FINDING_WARN, "run.stopped", NULL, NULL, NULL,
                                   "measure without a stop threshold (cyclictest -b, oslat -T, "
                                   "rtla -a/-T/-s) for a figure; keep those for tracing a spike",
                                   "the run ended early: %s; its statistics cover only the time "
                                   "before the stop and are not comparable with full runs",
                                   run->stopped),
                run->stopped_line);
    /* cycles x interval undercounts a run whose wakeups overran (cyclictest
     * skips the periods it missed): only a large gap is taken as a cut */
    else if (a > 0 && d >= 0 && d < (run->duration_s >= 0 ? 0.9 : 0.5) * a)
        rv_findings_add(j->out, RV_FINDING_WARN, "run.stopped", NULL, NULL, NULL,
            "let the run reach its duration (no Ctrl-C, no timeout shorter than -D)",
            "%s measured %.0f s of the %.0f s asked: interrupted or cut, the rest of the "
            "run is not in these statistics", run->tool, d, a);
    len = d >= 0 ? d : a;
    if (len >= 0 && len < RUN_SHORT_S)
        rv_findings_add(j->out, RV_FINDING_WARN, "run.short", NULL, NULL, NULL,
            "measure for minutes at least (cyclictest -D 10m, oslat -D 10m, rtla -d 10m); "
            "hours for a release figure",
            "%s %s %.1f s: a worst case is made of rare events (SMIs, timer and RCU work, "
            "housekeeping bursts) that a run under %d s rarely meets", run->tool,
            d >= 0 ? "measured" : "was asked to run", len, RUN_SHORT_S);
}

/* mem.not-locked: cyclictest locks its memory only with -m (rt-tests
 * src/cyclictest/cyclictest.c: mlockall() under "if (lockall)"); oslat
 * always does (oslat.c main()). */
static void
check_memlock(Judge *j)
{
    if (!j->has_args || g_strcmp0(j->args.tool, "cyclictest") != 0 || j->args.mlockall)
        return;
    rv_findings_add(j->out, RV_FINDING_WARN, "mem.not-locked", NULL, NULL, NULL,
        "add -m (--mlockall) to the cyclictest command line",
        "cyclictest ran without -m/--mlockall: its pages were not locked, so page faults "
        "and reclaim during the run are in these latencies");
}

/* threshold.raised, hwlat.exceeded: hwlatdetect records only gaps above
 * tracing_thresh (kernel/trace/trace_hwlat.c DEFAULT_LAT_THRESHOLD, 10
 * us) and exits non-zero only above --hardlimit (default the threshold). */
static void
check_hwlat(Judge *j)
{
    const RvCyclictestRun *run = j->run;
    const RvCyclictestThread *t = run->threads->len ? run->threads->pdata[0] : NULL;
    gint64 thr = run->threshold_us >= 0 ? run->threshold_us : j->has_args ? j->args.threshold_us : -1;

    if (g_strcmp0(run->tool, "hwlatdetect") != 0)
        return;
    /* a threshold above the budget (or, without one, above what RT
     * deployments use: OpenShift's hwlatdetect runs at 20 us) hides the
     * gaps that matter */
    gint64 limit = j->want->budget_us >= 0 ? MAX(j->want->budget_us, HWLAT_DEFAULT_THRESHOLD_US)
                                           : HWLAT_COMMON_THRESHOLD_US;
    if (thr > limit)
        rv_findings_add(j->out, RV_FINDING_WARN, "threshold.raised", NULL, NULL, NULL,
            "run hwlatdetect with its default threshold (10 us) or the budget, not above it",
            "hwlatdetect's threshold is %" G_GINT64_FORMAT " us (the kernel's default is %d "
            "us, %s %" G_GINT64_FORMAT " us): gaps below it were not recorded, so '%s' says only "
            "that no gap reached %" G_GINT64_FORMAT " us", thr, HWLAT_DEFAULT_THRESHOLD_US,
            j->want->budget_us >= 0 ? "the budget" : "RT deployments use at most", limit,
            run->below_us > 0 ? "Below threshold" : "the max", thr);
    if (j->has_args && j->args.hardlimit_us > MAX(thr, limit))
        rv_findings_add(j->out, RV_FINDING_WARN, "threshold.raised", NULL, NULL, NULL,
            "drop --hardlimit: hwlatdetect's exit status is the verdict CI sees",
            "--hardlimit %" G_GINT64_FORMAT " us: hwlatdetect exits 0 for gaps up to that",
            j->args.hardlimit_us);
    if (t && (t->max_us > 0 || run->exceeding > 0))
        rv_findings_add(j->out, RV_FINDING_FAIL, "hwlat.exceeded", NULL, NULL, NULL,
            "find the firmware or hardware source (SMIs: BIOS power and thermal settings, "
            "cyclictest --smi), or use hardware that does not stall",
            "%" G_GINT64_FORMAT " sample(s) above the %" G_GINT64_FORMAT " us threshold, max %"
            G_GINT64_FORMAT " us: the CPUs were stalled with interrupts off, by firmware "
            "(SMIs) or hardware, which no tuning of Linux removes",
            run->exceeding, thr, t->max_us);
}

/* stats.partial: statistics that sampled part of the run */
static void
check_coverage(Judge *j)
{
    const RvCyclictestRun *run = j->run;

    if (g_strcmp0(run->tool, "hwlatdetect") == 0 && run->window_us > 0 && run->width_us > 0 &&
        run->width_us < run->window_us) {
        guint ncpu = j->measured_known ? rv_cpuset_count(&j->measured) : 0;
        double share = (double) run->width_us / run->window_us;
        g_autofree char *each = ncpu > 1 ? g_strdup_printf("%.1f%%", share * 100 / ncpu) : NULL;
        /* below hwlatdetect's own 50% (0.5 s of every 1 s) the run sees
         * too little of the time to bound a stall */
        rv_findings_add(j->out, share < 0.5 ? RV_FINDING_WARN : RV_FINDING_NOTE, "stats.partial",
            NULL, NULL, NULL,
            share < 0.5 ? "sample most of every window: hwlatdetect --window 1000000us --width "
                          "950000us (width/window >= 0.5)" : NULL,
            "hwlatdetect sampled %" G_GINT64_FORMAT " us of every %" G_GINT64_FORMAT " us "
            "window (%.0f%% of the run)%s%s: a stall in the other time was not seen",
            run->width_us, run->window_us, share * 100,
            ncpu > 1 ? ", one CPU at a time: each of the CPUs about " : "",
            each ? each : "");
    } else if (run->mode && g_str_has_prefix(run->mode, "osnoise") && run->coverage >= 0 &&
               run->coverage < 0.95) {
        rv_findings_add(j->out, RV_FINDING_NOTE, "stats.partial", NULL, NULL, NULL, NULL,
            "osnoise sampled %.0f%% of the run's time (runtime below the period, rtla -r/-p): "
            "noise in the rest was not measured", run->coverage * 100);
    } else if (g_strcmp0(run->tool, "stress-ng") == 0 && run->samples_kept > 0) {
        double cov = run->coverage;
        const RvCyclictestThread *t = run->threads->pdata[0];
        double d = measured_s(j) >= 0 && run->duration_s >= 0 ? run->duration_s : asked_s(j);

        double floor_ = 0.99;   /* stress-ng's own count of the samples needed */

        if (cov < 0 && d > 0 && t->interval_us > 0) {
            /* samples x delay undercounts (each wakeup also takes its
             * latency): only a large gap is taken for the cap */
            cov = MIN(1.0, (double) run->samples_kept * t->interval_us / 1e6 / d);
            floor_ = 0.5;
        }
        if (cov >= 0 && cov < floor_)
            rv_findings_add(j->out, RV_FINDING_WARN, "stats.partial", NULL, NULL, NULL,
                "raise --cyclic-samples to the run's wakeups (duration / delay), or shorten "
                "the run to what the samples hold",
                "stress-ng cyclic kept the first %" G_GINT64_FORMAT " samples only (about %.2g%% "
                "of the run): its min, max, mean and percentiles say nothing about the rest",
                run->samples_kept, cov * 100);
    }
}

/* vm.guest: a measurement inside a guest includes the host's scheduling
 * of its vCPUs; hwlatdetect there measures that, not the hardware. */
static void
check_vm(Judge *j)
{
    bool hw = g_strcmp0(j->run->tool, "hwlatdetect") == 0;

    if (!j->host || j->host->virtualized != 1)
        return;
    rv_findings_add(j->out, hw ? RV_FINDING_WARN : RV_FINDING_NOTE, "vm.guest", NULL, NULL, NULL,
        hw ? "run hwlatdetect on the host (bare metal), not in a guest" : NULL,
        hw ? "hwlatdetect ran inside a virtual machine: its gaps are the host's preemption of "
             "the vCPU (exits, host IRQs, other threads), not the hardware's or firmware's"
           : "measured inside a virtual machine: the latencies include the host's scheduling "
             "of the vCPUs; compare with guest runs only");
}

int
rv_result_judge_run(const RvCyclictestRun *run, const char *file, guint nruns,
                    const RvJudgeWant *want, const RvJudgeHost *host,
                    RvFindings **ret_findings, GError **error)
{
    g_autoptr(RvFindings) out = rv_findings_new();
    Judge j = { .run = run, .file = file, .want = want, .host = host, .out = out,
                .min_prio = -1 };
    /* policy and priority are judged for the tools whose measurement is
     * an RT thread's wakeup: cyclictest, rtla timerlat, stress-ng cyclic;
     * not for busy loops that count every interruption as noise (oslat,
     * rtla osnoise, hwlatdetect, rtvirt pert) */
    bool busy_loop = !(g_str_equal(run->tool, "cyclictest") || g_str_equal(run->tool, "stress-ng") ||
                  (g_str_equal(run->tool, "rtla") && run->mode &&
                   g_str_has_prefix(run->mode, "timerlat")));

    /* the command line the file shows wins over --cmdline */
    if (run->cmdline) {
        g_autofree char *full = g_strjoin(" ", run->cmdline_prefix ? run->cmdline_prefix : "",
                                          run->cmdline, NULL);
        j.has_args = rv_result_cyclictest_args_parse(full, &j.args, NULL) == 0;
    }
    if (!j.has_args && want->cmdline) {
        if (rv_result_cyclictest_args_parse(want->cmdline, &j.args, error) < 0)
            return -EINVAL;
        j.has_args = true;
    }

    check_input(&j, nruns);
    if (!busy_loop) {
        check_policy(&j);
        check_priority(&j);
    }
    find_measured(&j);
    if (!busy_loop)
        check_preemptors(&j);
    check_cpus(&j);
    check_smt(&j);
    check_histogram(&j);
    check_kernel(&j);
    check_idle(&j);
    check_run_length(&j);
    check_memlock(&j);
    check_hwlat(&j);
    check_coverage(&j);
    check_vm(&j);
    check_budget(&j);

    /* every finding says where: the run's first line unless it named one */
    for (guint i = 0; i < out->items->len; i++) {
        RvFinding *f = out->items->pdata[i];

        if (!f->where)
            at_line(&j, f, 0);
    }
    rv_result_cyclictest_args_clear(&j.args);
    g_free(j.measured_how);
    *ret_findings = g_steal_pointer(&out);
    return (int) rv_findings_worst(*ret_findings);
}
