/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * tests/test-judge.c: results/judge.h, the judge behind `rtvirt result
 * check`, on
 *  1. every tests/data/cases/cyclictest/ file, with the verdict its
 *     .source.txt gives (budget, priority and CPUs as the source states
 *     them: what was asked against what ran);
 *  2. small outputs written here for each rule the real files do not show
 *     (P:0, the "defaulting realtime priority" notice, "-smp -p 98", -S on
 *     an isolated host, the main thread on a measured CPU's sibling,
 *     timer_migration on a non-RT kernel, deep idle states), with host
 *     facts built here as `result check --root` would load them;
 *  3. the command-line reader (cyclictest's getopt rules).
 */
#include <errno.h>
#include <string.h>

#include "results/cyclictest.h"
#include "results/latency-readers.h"
#include "results/judge.h"
#include "util/error.h"
#include "tests/testutil.h"

#define RUN(runs, i) ((RvCyclictestRun *) (runs)->pdata[i])

static GPtrArray *
parse_case(const char *name)
{
    g_autofree char *path = g_build_filename(rv_test_cases_dir(), "cyclictest", name, NULL);
    g_autoptr(GError) err = NULL;
    GPtrArray *runs = NULL;

    if (rv_result_cyclictest_parse_file(path, &runs, &err) < 0)
        g_error("%s: %s", path, err->message);
    return runs;
}

static GPtrArray *
parse_text(const char *text)
{
    g_autoptr(GError) err = NULL;
    GPtrArray *runs = NULL;

    if (rv_result_cyclictest_parse("t.txt", text, strlen(text), &runs, &err) < 0)
        g_error("%s", err->message);
    return runs;
}

static RvJudgeWant
want_default(void)
{
    RvJudgeWant w = { .priority = -1, .budget_us = -1 };
    return w;
}

static RvFindings *
judge(const RvCyclictestRun *run, guint nruns, const RvJudgeWant *w, const RvJudgeHost *h,
      int *ret_worst)
{
    g_autoptr(GError) err = NULL;
    RvFindings *f = NULL;
    int r = rv_result_judge_run(run, "t.txt", nruns, w, h, &f, &err);

    if (r < 0)
        g_error("judge: %s", err->message);
    if (ret_worst)
        *ret_worst = r;
    return f;
}

static const RvFinding *
find(RvFindings *f, const char *id)
{
    return rv_findings_find(f, id);
}

/* The first finding @id has @level and, when @needle is given, says it. */
static void
assert_finding(RvFindings *f, const char *id, RvFindingLevel level, const char *needle)
{
    const RvFinding *x = find(f, id);

    if (!x)
        g_error("no finding %s", id);
    g_assert_cmpstr(rv_finding_level_name(x->level), ==, rv_finding_level_name(level));
    if (needle && !strstr(x->message, needle))
        g_error("%s: '%s' lacks '%s'", id, x->message, needle);
}

/* ---- 1. the shared cases ---- */

static void
test_case_kvm(void)
{
    g_autoptr(GPtrArray) runs = parse_case("kvm-guest-1thread-hist60-overflows-others.txt");
    RvJudgeWant w = want_default();
    g_autoptr(RvFindings) f1 = NULL, f2 = NULL;
    int w1, w2;

    w.budget_us = 20;
    g_assert_cmpuint(runs->len, ==, 2);
    f1 = judge(RUN(runs, 0), 2, &w, NULL, &w1);
    f2 = judge(RUN(runs, 1), 2, &w, NULL, &w2);
    /* run 1 FAIL (1475 us), run 2 PASS for 20 us */
    g_assert_cmpint(w1, ==, RV_FINDING_FAIL);
    assert_finding(f1, "latency.budget", RV_FINDING_FAIL, "max 1475 us");
    assert_finding(f1, "histogram.beyond-range", RV_FINDING_WARN, "604 sample(s)");
    assert_finding(f1, "input.multiple-runs", RV_FINDING_NOTE, NULL);
    assert_finding(f2, "latency.budget", RV_FINDING_PASS, "max 12 us");
    g_assert_cmpint(w2, <, RV_FINDING_WARN);
    g_assert_null(find(f2, "histogram.beyond-range"));
    /* "taskset -c 3 cyclictest ...": one thread, one CPU allowed */
    g_assert_null(find(f1, "cpus.unpinned"));
}

static void
test_case_lava(void)
{
    g_autoptr(GPtrArray) runs = parse_case("lava-cyclictest-2threads-prio48-linaro642.txt");
    RvJudgeWant w = want_default();
    g_autoptr(RvFindings) f = NULL, f98 = NULL;
    int worst;

    w.budget_us = 100;
    f = judge(RUN(runs, 0), 1, &w, NULL, &worst);
    /* WARN 'measurement threads at FIFO 48' and FAIL for 100 us */
    assert_finding(f, "rt.priority-below-irq", RV_FINDING_WARN, "measurement threads at FIFO 48");
    assert_finding(f, "latency.budget", RV_FINDING_FAIL, "max 340 us on thread 1");
    g_assert_cmpint(worst, ==, RV_FINDING_FAIL);
    /* the intended 98 */
    w.priority = 98;
    f98 = judge(RUN(runs, 0), 1, &w, NULL, NULL);
    assert_finding(f98, "rt.priority-mismatch", RV_FINDING_WARN,
                   "measurement threads at FIFO 48, asked 98");
}

static void
test_case_openshift(void)
{
    g_autoptr(GPtrArray) bad = parse_case("openshift-cnf-16threads-hist-bad-overflows.txt");
    g_autoptr(GPtrArray) good = parse_case("openshift-cnf-16threads-hist-good.txt");
    RvJudgeWant w = want_default();
    g_autoptr(RvFindings) fb = NULL, fg = NULL;
    int wb, wg;

    w.budget_us = 20;
    fb = judge(RUN(bad, 0), 1, &w, NULL, &wb);
    fg = judge(RUN(good, 0), 1, &w, NULL, &wg);
    /* FAIL (max 619 us > 20 us; 19 samples beyond histogram) */
    g_assert_cmpint(wb, ==, RV_FINDING_FAIL);
    assert_finding(fb, "latency.budget", RV_FINDING_FAIL, "max 619 us on thread 3");
    assert_finding(fb, "histogram.beyond-range", RV_FINDING_WARN, "19 sample(s)");
    assert_finding(fb, "histogram.beyond-range", RV_FINDING_WARN, "30 us histogram");
    /* PASS for 20 us (max 6 us); -p 1 is still below the threaded IRQs */
    assert_finding(fg, "latency.budget", RV_FINDING_PASS, "max 6 us on thread 8");
    g_assert_cmpint(wg, <, RV_FINDING_FAIL);
    g_assert_null(find(fg, "histogram.beyond-range"));
    assert_finding(fg, "rt.priority-below-irq", RV_FINDING_WARN, "FIFO 1");
    /* -a LIST without --mainaffinity: the main thread shares the CPUs */
    assert_finding(fg, "smt.sibling-main-thread", RV_FINDING_WARN, "2,4,6");
}

static void
test_case_orangepi(void)
{
    g_autoptr(GPtrArray) runs = parse_case("orangepi-smp-4threads-rt-vs-default.txt");
    RvJudgeWant w = want_default();

    w.budget_us = 100;
    g_assert_cmpuint(runs->len, ==, 2);
    for (guint i = 0; i < 2; i++) {
        g_autoptr(RvFindings) f = NULL;
        int worst;

        f = judge(RUN(runs, i), 2, &w, NULL, &worst);
        g_assert_cmpint(worst, ==, RV_FINDING_FAIL);
        assert_finding(f, "latency.budget", RV_FINDING_FAIL, i ? "max 10533 us" : "max 300 us");
        assert_finding(f, "input.multiple-runs", RV_FINDING_NOTE, "2 result sets");
    }
}

static void
test_case_stress_ng(void)
{
    g_autoptr(GPtrArray) runs = parse_case("stress-ng-271-cyclictest-v2.40-one-thread-hist-missing.txt");
    RvJudgeWant w = want_default();
    g_autoptr(RvFindings) f = NULL;

    w.budget_us = 100;
    f = judge(RUN(runs, 0), 1, &w, NULL, NULL);
    assert_finding(f, "output.histogram-absent", RV_FINDING_WARN, "-h 60");
    assert_finding(f, "latency.budget", RV_FINDING_PASS, "max 35 us");
    /* -a 7 --mainaffinity=2: the main thread is elsewhere */
    g_assert_null(find(f, "smt.sibling-main-thread"));
    g_assert_null(find(f, "cpus.unpinned"));
}

static void
test_case_json_truncated(void)
{
    g_autofree char *path = g_build_filename(rv_test_cases_dir(), "cyclictest",
                                             "json-rt-tests-2.2-truncated-linaro311.json", NULL);
    g_autoptr(GError) err = NULL;
    GPtrArray *runs = NULL;

    g_assert_cmpint(rv_result_cyclictest_parse_file(path, &runs, &err), ==, -EINVAL);
    g_assert_null(runs);
    g_assert_nonnull(strstr(err->message, "truncated or invalid cyclictest JSON"));
    g_assert_nonnull(strstr(err->message, "linaro311.json:"));
}

/* What was asked against what ran (the cases of the cyclictest parser's
 * former judge): priority, placement and budget as the .source.txt
 * verdicts give them. */
static void
test_case_asked(void)
{
    g_autoptr(GPtrArray) lava = parse_case("lava-cyclictest-2threads-prio48-linaro642.txt");
    g_autoptr(GPtrArray) kvm = parse_case("kvm-guest-1thread-hist60-overflows-others.txt");
    g_autofree char *jpath = rv_test_data_path("cyclictest", "rt-tests-2.40-json-2threads-h50.json");
    g_autoptr(GPtrArray) json = NULL;
    g_autoptr(RvFindings) fl = NULL, fk1 = NULL, fk2 = NULL, fj = NULL, fj1 = NULL;
    g_autoptr(GError) err = NULL;
    RvJudgeWant w = want_default();

    /* LAVA asked 98 on CPU 0 under 100 us: threads at 48, 340 us on T1, and
     * the text output does not say where the threads ran: a NOTE, not a PASS */
    w.priority = 98;
    w.budget_us = 100;
    w.has_cpus = true;
    g_assert_cmpint(rv_cpulist_parse("0", 0, &w.cpus, NULL), ==, 0);
    fl = judge(RUN(lava, 0), 1, &w, NULL, NULL);
    assert_finding(fl, "rt.priority-mismatch", RV_FINDING_WARN, "at FIFO 48, asked 98");
    assert_finding(fl, "latency.budget", RV_FINDING_FAIL, "max 340 us on thread 1 > budget 100 us");
    assert_finding(fl, "cpus.unknown", RV_FINDING_NOTE, "CPUs 0 not verified");
    g_assert_null(find(fl, "cpus.not-measured"));

    /* kvm-guest: P:95 FIFO as asked; run 1 over 20 us (1475), run 2 within */
    w = want_default();
    w.priority = 95;
    w.budget_us = 20;
    fk1 = judge(RUN(kvm, 0), 2, &w, NULL, NULL);
    fk2 = judge(RUN(kvm, 1), 2, &w, NULL, NULL);
    assert_finding(fk1, "latency.budget", RV_FINDING_FAIL, "max 1475 us");
    assert_finding(fk1, "rt.priority-mismatch", RV_FINDING_PASS, "at priority 95 as asked");
    g_assert_null(find(fk1, "rt.policy-other"));
    assert_finding(fk2, "latency.budget", RV_FINDING_PASS, "max 12 us");
    assert_finding(fk2, "rt.priority-mismatch", RV_FINDING_PASS, "at priority 95 as asked");

    /* JSON tells the CPUs (-a 0-1): 0-1 measured; asked 1, CPU 0 is outside */
    if (rv_result_cyclictest_parse_file(jpath, &json, &err) < 0)
        g_error("%s", err->message);
    w = want_default();
    w.has_cpus = true;
    g_assert_cmpint(rv_cpulist_parse("0-1", 0, &w.cpus, NULL), ==, 0);
    fj = judge(RUN(json, 0), 1, &w, NULL, NULL);
    assert_finding(fj, "cpus.not-measured", RV_FINDING_PASS, "CPUs 0-1 measured");
    g_assert_null(find(fj, "cpus.outside"));
    g_assert_cmpint(rv_cpulist_parse("1", 0, &w.cpus, NULL), ==, 0);
    fj1 = judge(RUN(json, 0), 1, &w, NULL, NULL);
    assert_finding(fj1, "cpus.outside", RV_FINDING_WARN, "threads also ran on CPUs 0, outside 1");
    assert_finding(fj1, "cpus.not-measured", RV_FINDING_PASS, "CPUs 1 measured");
}

/* ---- 2. each rule ---- */

static void
test_policy_other(void)
{
    g_autoptr(GPtrArray) runs = parse_text(
        "policy: other: loadavg: 0.00 0.01 0.03 1/129 2407\n"
        "T: 0 ( 2404) P: 0 I:1000 C:   1000 Min:      5 Act:   22 Avg:   16 Max:      75\n");
    RvJudgeWant w = want_default();
    g_autoptr(RvFindings) f = NULL;
    int worst;

    f = judge(RUN(runs, 0), 1, &w, NULL, &worst);
    g_assert_cmpint(worst, ==, RV_FINDING_FAIL);
    assert_finding(f, "rt.policy-other", RV_FINDING_FAIL, "not real-time");
}

static void
test_priority_defaulted(void)
{
    g_autoptr(GPtrArray) runs = parse_text(
        "$ cyclictest -smp -p 98 -q\n"
        "defaulting realtime priority to 2\n"
        "# /dev/cpu_dma_latency set to 0us\n"
        "T: 0 ( 2404) P: 2 I:1000 C:   1000 Min:      5 Act:   22 Avg:   16 Max:      75\n");
    RvJudgeWant w = want_default();
    g_autoptr(RvFindings) f = NULL;

    g_assert_cmpint(RUN(runs, 0)->defaulted_priority, ==, 2);
    g_assert_cmpint(RUN(runs, 0)->dma_latency_us, ==, 0);
    w.priority = 98;
    f = judge(RUN(runs, 0), 1, &w, NULL, NULL);
    assert_finding(f, "rt.priority-defaulted", RV_FINDING_WARN, "defaulting realtime priority to 2");
    assert_finding(f, "rt.priority-defaulted", RV_FINDING_WARN, "-p value -p");
    assert_finding(f, "rt.priority-mismatch", RV_FINDING_WARN, "FIFO 2, asked 98");
    assert_finding(f, "rt.priority-below-irq", RV_FINDING_WARN, "FIFO 2");
}

/* 4 CPUs, cores {0,2} {1,3} (Linux numbering), isolated 1,3 */
static void
host_smt4(RvJudgeHost *h)
{
    RvCpuSet a, b;

    memset(h, 0, sizeof(*h));
    h->has_online = true;
    rv_cpuset_zero(&h->online);
    rv_cpuset_set_range(&h->online, 0, 3);
    h->has_isolated = true;
    rv_cpuset_zero(&h->isolated);
    rv_cpuset_set(&h->isolated, 1);
    rv_cpuset_set(&h->isolated, 3);
    h->cores = g_array_new(FALSE, FALSE, sizeof(RvCpuSet));
    rv_cpuset_zero(&a);
    rv_cpuset_set(&a, 0);
    rv_cpuset_set(&a, 2);
    rv_cpuset_zero(&b);
    rv_cpuset_set(&b, 1);
    rv_cpuset_set(&b, 3);
    g_array_append_val(h->cores, a);
    g_array_append_val(h->cores, b);
    h->irq_thread_prio = 50;
    h->irq_thread_name = g_strdup("irq/24-ahci");
    h->preempt_rt = 1;
    h->timer_migration = 0;
}

static void
test_smp_on_isolated_host(void)
{
    g_autoptr(GPtrArray) runs = parse_text(
        "# cyclictest --smp -m -p 95 -q\n"
        "T: 0 ( 2404) P:95 I:1000 C:   1000 Min:      5 Act:   22 Avg:   16 Max:      15\n"
        "T: 1 ( 2405) P:95 I:1000 C:   1000 Min:      5 Act:   22 Avg:   16 Max:      14\n");
    RvJudgeWant w = want_default();
    RvJudgeHost h;
    g_autoptr(RvFindings) f = NULL;
    int worst;

    host_smt4(&h);
    f = judge(RUN(runs, 0), 1, &w, &h, &worst);
    g_assert_cmpint(worst, ==, RV_FINDING_FAIL);
    assert_finding(f, "cpus.not-measured", RV_FINDING_FAIL, "isolated CPUs 1,3 were never measured");
    assert_finding(f, "cpus.not-measured", RV_FINDING_FAIL, "-S");
    /* measured 0,2: siblings of each other, both housekeeping */
    g_assert_null(find(f, "rt.priority-below-irq"));
    rv_result_judge_host_clear(&h);
}

static void
test_sibling_main_thread(void)
{
    g_autoptr(GPtrArray) runs = parse_text(
        "cyclictest -m -a 3 -t 1 -p 95 --mainaffinity=1 -q\n"
        "T: 0 ( 2404) P:95 I:1000 C:   1000 Min:      5 Act:   22 Avg:   16 Max:      15\n");
    g_autoptr(GPtrArray) runs2 = parse_text(
        "cyclictest -m -a 2 -t 1 -p 95 --mainaffinity=0 -q\n"
        "T: 0 ( 2404) P:95 I:1000 C:   1000 Min:      5 Act:   22 Avg:   16 Max:      15\n");
    RvJudgeWant w = want_default();
    RvJudgeHost h;
    g_autoptr(RvFindings) f = NULL, f2 = NULL;

    host_smt4(&h);
    f = judge(RUN(runs, 0), 1, &w, &h, NULL);
    assert_finding(f, "smt.sibling-main-thread", RV_FINDING_WARN, "CPU(s) 1, the SMT sibling");
    /* CPU 1 measured? no: isolated CPU 1 is a NOTE, 3 was measured */
    assert_finding(f, "cpus.not-measured", RV_FINDING_NOTE, "CPUs 1 (isolated)");
    g_assert_null(find(f, "smt.sibling-load"));
    f2 = judge(RUN(runs2, 0), 1, &w, &h, NULL);
    assert_finding(f2, "smt.sibling-main-thread", RV_FINDING_WARN, "CPU(s) 0");
    assert_finding(f2, "smt.sibling-load", RV_FINDING_WARN, "sibling(s) 0");
    assert_finding(f2, "cpus.not-measured", RV_FINDING_FAIL, "never measured");
    rv_result_judge_host_clear(&h);
}

static void
test_kernel_and_idle(void)
{
    const char *out =
        "cyclictest -m -a 3 -t 1 -p 95 --mainaffinity=0 -q\n"
        "T: 0 ( 2404) P:95 I:1000 C:   1000 Min:      5 Act:   22 Avg:   16 Max:      15\n";
    g_autoptr(GPtrArray) runs = parse_text(out);
    g_autofree char *qos_text = g_strconcat("# /dev/cpu_dma_latency set to 0us\n", out, NULL);
    g_autoptr(GPtrArray) qos = parse_text(qos_text);
    RvJudgeWant w = want_default();
    RvJudgeHost h;
    RvJudgeIdle c6 = { .cpu = 3, .name = g_strdup("C6"), .latency_us = 133 };
    g_autoptr(RvFindings) f = NULL, fq = NULL;

    host_smt4(&h);
    h.preempt_rt = 0;
    h.timer_migration = 1;
    h.idle = g_array_new(FALSE, FALSE, sizeof(RvJudgeIdle));
    g_array_append_val(h.idle, c6);
    f = judge(RUN(runs, 0), 1, &w, &h, NULL);
    assert_finding(f, "kernel.timer-migration", RV_FINDING_WARN, "timer_migration=1");
    assert_finding(f, "idle.deep-states", RV_FINDING_WARN, "CPU 3 C6 (133 us)");
    fq = judge(RUN(qos, 0), 1, &w, &h, NULL);
    assert_finding(fq, "idle.deep-states", RV_FINDING_NOTE, "cpu_dma_latency");
    h.timer_migration = 0;
    g_clear_pointer(&f, rv_findings_free);
    f = judge(RUN(runs, 0), 1, &w, &h, NULL);
    g_assert_null(find(f, "kernel.timer-migration"));
    assert_finding(f, "kernel.not-rt", RV_FINDING_NOTE, NULL);
    rv_result_judge_host_clear(&h);
}

static void
test_json_forms(void)
{
    /* rt-tests 2.x: trailing colons, -nan for a thread without cycles */
    const char *ct =
        "{\n  \"file_version\": 1,\n  \"cmdline:\": \"cyclictest -q -p 95 -a 0-1 -t 2 --json=x.json\",\n"
        "  \"rt_test_version:\": \"2.50\",\n  \"start_time\": \"x\",\n  \"end_time\": \"y\",\n"
        "  \"return_code\": 0,\n  \"sysinfo\": {\"sysname\": \"Linux\", \"release\": \"6.1.0-13-amd64\",\n"
        "    \"realtime\": 0},\n  \"num_threads\": 2,\n  \"resolution_in_ns\": 1,\n  \"thread\": {\n"
        "    \"0\": {\"histogram\": {}, \"cycles\": 100, \"min\": 2, \"max\": 9, \"avg\": 3.00, \"cpu\": 0, \"node\": 0},\n"
        "    \"1\": {\"histogram\": {}, \"cycles\": 0, \"min\": 0, \"max\": 0, \"avg\": -nan, \"cpu\": 0, \"node\": 0}\n"
        "  }\n}\n";
    const char *os =
        "{\n  \"file_version\": 1,\n  \"cmdline:\": \"oslat --cpu-list 1 -D 10 --json=o.json\",\n"
        "  \"rt_test_version:\": \"2.50\",\n  \"num_threads\": 1,\n  \"thread\": {\n"
        "    \"0\": {\"cpu\": 1, \"freq\": 2400, \"min\": 1, \"avg\": 1.2, \"max\": 21,\n"
        "      \"duration\": 10.0, \"histogram\": {\"1\": 9000, \"2\": 90, \"21\": 1}}\n  }\n}\n";
    const char *pe =
        "{\"seconds\": [], \"schema_version\": 1, \"tool\": \"rtvirt pert\", \"cpu\": 1,\n"
        " \"warnings\": [\"CPU 1 is not isolated\"],\n"
        " \"summary\": {\"count\": 12, \"min_us\": 0.5, \"max_us\": 14.2, \"avg_us\": 1.1}}\n";
    g_autoptr(GPtrArray) rc = NULL, ro = NULL, rp = NULL;
    g_autoptr(RvFindings) f = NULL, fo = NULL, fp = NULL;
    g_autoptr(GError) err = NULL;
    RvJudgeWant w = want_default();

    g_assert_cmpint(rv_result_cyclictest_parse("c.json", ct, strlen(ct), &rc, &err), ==, 1);
    g_assert_cmpint(RUN(rc, 0)->realtime, ==, 0);
    g_assert_cmpstr(RUN(rc, 0)->kernel_release, ==, "6.1.0-13-amd64");
    g_assert_cmpint(RUN(rc, 0)->histogram_requested, ==, 0);
    g_assert_cmpint(rv_cpulist_parse("0-1", 0, &w.cpus, NULL), ==, 0);
    w.has_cpus = true;
    f = judge(RUN(rc, 0), 1, &w, NULL, NULL);
    /* both threads ran on CPU 0 (JSON "cpu"): CPU 1 was not measured */
    assert_finding(f, "cpus.not-measured", RV_FINDING_FAIL, "CPUs 1 were not measured");
    assert_finding(f, "kernel.not-rt", RV_FINDING_NOTE, "6.1.0-13-amd64");

    g_assert_cmpint(rv_result_cyclictest_parse("o.json", os, strlen(os), &ro, &err), ==, 1);
    g_assert_cmpstr(RUN(ro, 0)->tool, ==, "oslat");
    g_assert_cmpint(rv_result_cyclictest_run_max_us(RUN(ro, 0)), ==, 21);
    g_assert_cmpint(((RvCyclictestThread *) RUN(ro, 0)->threads->pdata[0])->cycles, ==, 9091);
    w.budget_us = 20;
    fo = judge(RUN(ro, 0), 1, &w, NULL, NULL);
    assert_finding(fo, "latency.budget", RV_FINDING_FAIL, "max 21 us");
    assert_finding(fo, "cpus.not-measured", RV_FINDING_FAIL, "CPUs 0 were not measured");

    g_assert_cmpint(rv_result_cyclictest_parse("p.json", pe, strlen(pe), &rp, &err), ==, 1);
    g_assert_cmpstr(RUN(rp, 0)->tool, ==, "rtvirt pert");
    g_assert_cmpint(rv_result_cyclictest_run_max_us(RUN(rp, 0)), ==, 15);
    fp = judge(RUN(rp, 0), 1, &w, NULL, NULL);
    assert_finding(fp, "latency.budget", RV_FINDING_PASS, "max 15 us");
    g_assert_null(find(fp, "rt.priority-unknown"));
    assert_finding(fp, "input.note", RV_FINDING_NOTE, "not isolated");
}

/* ---- 3. the command line ---- */

static void
test_args(void)
{
    RvCyclictestArgs a;
    g_autoptr(GError) err = NULL;

    g_assert_cmpint(rv_result_cyclictest_args_parse("cyclictest -smp -p 98", &a, NULL), ==, 0);
    g_assert_cmpint(a.priority, ==, 0);
    g_assert_cmpstr(a.priority_arg, ==, "-p");
    g_assert_false(a.smp);
    rv_result_cyclictest_args_clear(&a);

    g_assert_cmpint(rv_result_cyclictest_args_parse(
        "sudo cyclictest --mlockall --smp --priority=80 --interval=200 --distance=0", &a, NULL), ==, 0);
    g_assert_true(a.smp);
    g_assert_cmpint(a.priority, ==, 80);
    g_assert_cmpint(a.interval_us, ==, 200);
    g_assert_false(a.affinity);
    rv_result_cyclictest_args_clear(&a);

    g_assert_cmpint(rv_result_cyclictest_args_parse(
        "taskset -c 3 /usr/bin/cyclictest -m -n -p95 -h60 -i200 -a -t", &a, NULL), ==, 0);
    g_assert_cmpstr(a.taskset_list, ==, "3");
    g_assert_cmpint(a.priority, ==, 95);
    g_assert_cmpint(a.histogram, ==, 60);
    g_assert_cmpint(a.interval_us, ==, 200);
    g_assert_true(a.affinity);
    g_assert_null(a.affinity_list);
    g_assert_cmpint(a.threads, ==, 0);
    rv_result_cyclictest_args_clear(&a);

    g_assert_cmpint(rv_result_cyclictest_args_parse(
        "cyclictest -q -a 2,4 -t 2 --mainaffinity 0 --policy=rr -p 90", &a, NULL), ==, 0);
    g_assert_cmpstr(a.affinity_list, ==, "2,4");
    g_assert_cmpint(a.threads, ==, 2);
    g_assert_cmpstr(a.main_affinity, ==, "0");
    g_assert_cmpstr(a.policy, ==, "rr");
    rv_result_cyclictest_args_clear(&a);

    g_assert_cmpint(rv_result_cyclictest_args_parse("./cyclictest.sh -p 48", &a, &err), ==, -EINVAL);
    g_assert_nonnull(strstr(err->message, "not a cyclictest"));
}

/* the other tools' command lines and cyclictest's options of comparability */
static void
test_args_tools(void)
{
    RvCyclictestArgs a;

    g_assert_cmpint(rv_result_cyclictest_args_parse(
        "cyclictest -q -D 12h -p 95 -t 2 -a 2-3 -b 50 -l 1000 -m", &a, NULL), ==, 0);
    g_assert_true(a.mlockall);
    g_assert_cmpfloat(a.duration_s, ==, 12 * 3600);
    g_assert_cmpint(a.breaktrace_us, ==, 50);
    g_assert_cmpint(a.loops, ==, 1000);
    rv_result_cyclictest_args_clear(&a);

    /* rtla: tracer and mode, -P policy:priority, -c, -H, -d, stop thresholds;
     * timerlat's default is FIFO 95, its -s is --stack */
    g_assert_cmpint(rv_result_cyclictest_args_parse(
        "rtla timerlat hist -P o:0 -c 1-23 -H 0 -d 10m -T 40 -s 30", &a, NULL), ==, 0);
    g_assert_cmpstr(a.tool, ==, "rtla");
    g_assert_cmpstr(a.mode, ==, "timerlat hist");
    g_assert_cmpstr(a.policy, ==, "other");
    g_assert_cmpint(a.priority, ==, 0);
    g_assert_cmpstr(a.affinity_list, ==, "1-23");
    g_assert_cmpstr(a.main_affinity, ==, "0");
    g_assert_cmpfloat(a.duration_s, ==, 600);
    g_assert_cmpint(a.stop_us, ==, 40);
    rv_result_cyclictest_args_clear(&a);
    g_assert_cmpint(rv_result_cyclictest_args_parse("timerlat -a 40 -c 1-23 -q", &a, NULL), ==, 0);
    g_assert_cmpstr(a.mode, ==, "timerlat top");
    g_assert_cmpstr(a.policy, ==, "fifo");
    g_assert_cmpint(a.priority, ==, 95);
    g_assert_cmpint(a.stop_us, ==, 40);
    rv_result_cyclictest_args_clear(&a);
    g_assert_cmpint(rv_result_cyclictest_args_parse(
        "rtla osnoise top -P F:1 -c 0-3 -r 900000 -d 1M -T 5 -s 30", &a, NULL), ==, 0);
    g_assert_cmpstr(a.mode, ==, "osnoise top");
    g_assert_cmpstr(a.policy, ==, "fifo");
    g_assert_cmpint(a.priority, ==, 1);
    g_assert_cmpfloat(a.duration_s, ==, 60);
    g_assert_cmpint(a.stop_us, ==, 30);
    rv_result_cyclictest_args_clear(&a);

    /* hwlatdetect: long options only, values with units */
    g_assert_cmpint(rv_result_cyclictest_args_parse(
        "hwlatdetect --threshold 20 --hardlimit=900000 --duration 15s --window 1000000us "
        "--cpu-list 2-5", &a, NULL), ==, 0);
    g_assert_cmpint(a.threshold_us, ==, 20);
    g_assert_cmpint(a.hardlimit_us, ==, 900000);
    g_assert_cmpfloat(a.duration_s, ==, 15);
    g_assert_cmpstr(a.affinity_list, ==, "2-5");
    rv_result_cyclictest_args_clear(&a);

    /* oslat: its own table (-m takes a size there, -f is the FIFO priority) */
    g_assert_cmpint(rv_result_cyclictest_args_parse(
        "oslat --cpu-list 1,3 --cpu-main-thread 0 -f 1 -m 4K -D 5m -T 100", &a, NULL), ==, 0);
    g_assert_cmpstr(a.affinity_list, ==, "1,3");
    g_assert_cmpstr(a.main_affinity, ==, "0");
    g_assert_cmpint(a.priority, ==, 1);
    g_assert_false(a.mlockall);
    g_assert_cmpfloat(a.duration_s, ==, 300);
    g_assert_cmpint(a.stop_us, ==, 100);
    rv_result_cyclictest_args_clear(&a);

    g_assert_cmpint(rv_result_cyclictest_args_parse(
        "cgexec -g cpuset:rt stress-ng --cyclic 1 --cyclic-policy fifo --cyclic-prio 95 -t 600s",
        &a, NULL), ==, 0);
    g_assert_cmpstr(a.tool, ==, "stress-ng");
    g_assert_cmpint(a.priority, ==, 95);
    g_assert_cmpfloat(a.duration_s, ==, 600);
    rv_result_cyclictest_args_clear(&a);
}

/* readers of the other tools on inputs the fuzzer found or that bound them */
static void
test_readers_bounds(void)
{
    g_autoptr(GPtrArray) runs = NULL;
    g_autoptr(GError) err = NULL;
    /* a hist column header with no "# RTLA ... histogram" before it
     * (fuzz-latency-readers: it used to crash on the missing mode) */
    const char *index_only = "# RTiLtA merlat histogram\nIndex   IRQ-000   Thr-000\n0  5  6\n";
    const char *huge_max = "oslat V 2.40\n        Core:\t 1\n     Maximum:\t 9999999999 (us)\n";

    /* a top table between a hist header and its summary rows (fuzz: the
     * summary indexed the top table's freed threads) */
    const char *mixed = "# RTLA osnoise histogram\nIndex   CPU-000   CPU-001\n0  5  6\n"
                        "Operating System Noise\nmax:  30  40\n";

    g_assert_cmpint(rv_result_rtla_parse("z", mixed, strlen(mixed), &runs, &err), ==, 1);
    g_assert_cmpuint(((RvCyclictestRun *) runs->pdata[0])->threads->len, ==, 0);
    g_clear_pointer(&runs, g_ptr_array_unref);
    g_assert_cmpint(rv_result_rtla_parse("x", index_only, strlen(index_only), &runs, &err), ==,
                    -EINVAL);
    g_assert_nonnull(strstr(err->message, "no rtla output"));
    g_clear_error(&err);
    g_assert_cmpint(rv_result_oslat_parse("y", huge_max, strlen(huge_max), &runs, &err), ==,
                    -EINVAL);
    g_assert_nonnull(strstr(err->message, "y:3: oslat 'Maximum:' value out of range"));
    g_assert_null(runs);
}

int
main(int argc, char **argv)
{
    g_test_init(&argc, &argv, NULL);
    g_test_add_func("/judge/case/kvm-guest", test_case_kvm);
    g_test_add_func("/judge/case/lava", test_case_lava);
    g_test_add_func("/judge/case/openshift", test_case_openshift);
    g_test_add_func("/judge/case/orangepi", test_case_orangepi);
    g_test_add_func("/judge/case/stress-ng", test_case_stress_ng);
    g_test_add_func("/judge/case/json-truncated", test_case_json_truncated);
    g_test_add_func("/judge/case/asked", test_case_asked);
    g_test_add_func("/judge/policy-other", test_policy_other);
    g_test_add_func("/judge/priority-defaulted", test_priority_defaulted);
    g_test_add_func("/judge/smp-on-isolated-host", test_smp_on_isolated_host);
    g_test_add_func("/judge/sibling-main-thread", test_sibling_main_thread);
    g_test_add_func("/judge/kernel-and-idle", test_kernel_and_idle);
    g_test_add_func("/judge/json-forms", test_json_forms);
    g_test_add_func("/judge/args", test_args);
    g_test_add_func("/judge/args-tools", test_args_tools);
    g_test_add_func("/judge/readers-bounds", test_readers_bounds);
    return g_test_run();
}
