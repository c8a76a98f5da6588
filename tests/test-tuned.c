/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * tests/test-tuned.c: tuned profiles read as host profiles (host/tuned/tuned.h).
 *
 * /tuned/cases: every profile of tests/data/cases/tuned (tuned v2.28) read
 * against a small fixture root (2 packages x 2 cores, no SMT, GenuineIntel)
 * whose /etc/tuned holds the *-variables.conf files of the cases, as the
 * tuned package installs them.  The effective profile
 * (rv_host_profile_format()) and its notes are compared with
 * tests/data/tuned/NAME.expected (RV_REGENERATE=1 rewrites them); the knobs
 * each .source.txt names are asserted on their own.
 * /tuned/expand: tuned's variable and function semantics (variables.py,
 * functions.py) on small inputs; /tuned/parse: the ConfigParser dialect;
 * /tuned/assert: a profile whose isolated_cores is unset is refused as tuned
 * refuses it.
 */
#include <errno.h>
#include <sched.h>
#include <string.h>

#include "host/fsroot.h"
#include "host/profile/profile.h"
#include "host/tuned/tuned.h"
#include "host/tuned/tuned-priv.h"
#include "util/error.h"
#include "tests/testutil.h"

static const char * const case_names[] = {
    "cpu-partitioning", "latency-performance", "network-latency", "realtime",
    "realtime-virtual-guest", "realtime-virtual-host",
};

/* 2 packages x 2 cores x 1 thread: package of CPU c is c / 2 */
static char *
make_root(bool with_variables)
{
    g_autoptr(GError) err = NULL;
    char *root = g_dir_make_tmp("rv-tuned-XXXXXX", &err);

    g_assert_no_error(err);
    rv_test_put(root, "sys/devices/system/cpu/possible", "0-3\n");
    rv_test_put(root, "sys/devices/system/cpu/present", "0-3\n");
    rv_test_put(root, "sys/devices/system/cpu/online", "0-3\n");
    rv_test_put(root, "sys/devices/system/cpu/offline", "\n");
    for (int cpu = 0; cpu < 4; cpu++) {
        g_autofree char *d = g_strdup_printf("sys/devices/system/cpu/cpu%d/topology", cpu);
        g_autofree char *self = g_strdup_printf("%d\n", cpu);
        g_autofree char *pkg = g_strdup_printf("%d\n", cpu / 2);
        g_autofree char *core = g_strdup_printf("%d\n", cpu % 2);
        g_autofree char *p1 = g_build_filename(d, "thread_siblings_list", NULL);
        g_autofree char *p2 = g_build_filename(d, "core_cpus_list", NULL);
        g_autofree char *p3 = g_build_filename(d, "core_id", NULL);
        g_autofree char *p4 = g_build_filename(d, "physical_package_id", NULL);

        rv_test_put(root, p1, self);
        rv_test_put(root, p2, self);
        rv_test_put(root, p3, core);
        rv_test_put(root, p4, pkg);
    }
    rv_test_put(root, "proc/cpuinfo", "processor\t: 0\nvendor_id\t: GenuineIntel\n");
    for (size_t i = 0; with_variables && i < G_N_ELEMENTS(case_names); i++) {
        g_autofree char *name = g_strdup_printf("%s-variables.conf", case_names[i]);
        g_autofree char *src = g_build_filename(rv_test_cases_dir(), "tuned", case_names[i],
                                                name, NULL);
        g_autofree char *dst = g_build_filename("etc/tuned", name, NULL);
        g_autofree char *text = NULL;

        if (g_file_get_contents(src, &text, NULL, NULL))
            rv_test_put(root, dst, text);
    }
    return root;
}

static char *
replace_all(const char *text, const char *what, const char *with)
{
    g_auto(GStrv) parts = g_strsplit(text, what, -1);

    return g_strjoinv(with, parts);
}

static RvHostProfile *
load_case(const char *root_dir, const char *name)
{
    g_autofree char *path = g_build_filename(rv_test_cases_dir(), "tuned", name, NULL);
    g_autoptr(RvRoot) root = NULL;
    g_autoptr(GError) err = NULL;
    RvHostProfile *p = NULL;

    g_assert_cmpint(rv_host_root_open(root_dir, &root, &err), ==, 0);
    if (rv_host_tuned_load(root, path, &p, &err) < 0)
        g_error("%s: %s", name, err->message);
    return p;
}

static bool
has_note(const RvHostProfile *p, const char *kind, const char *needle)
{
    for (guint i = 0; i < p->notes->len; i++) {
        const RvHostKnob *k = p->notes->pdata[i];

        if (strcmp(k->key, kind) == 0 && strstr(k->value, needle))
            return true;
    }
    return false;
}

static const char *
sysctl(const RvHostProfile *p, const char *key)
{
    for (guint i = 0; i < p->sysctls->len; i++) {
        const RvHostKnob *k = p->sysctls->pdata[i];

        if (strcmp(k->key, key) == 0)
            return k->value;
    }
    return NULL;
}

static bool
has_extra(const RvHostProfile *p, const char *word)
{
    return p->extra_bootargs && g_strv_contains((const char * const *) p->extra_bootargs, word);
}

static void
assert_kthread(const RvHostProfile *p, const char *name, int prio)
{
    for (guint i = 0; i < p->kthreads->len; i++) {
        const RvHostKthreadPrio *k = p->kthreads->pdata[i];

        if (strcmp(k->name, name) == 0) {
            g_assert_cmpint(k->policy, ==, SCHED_FIFO);
            g_assert_cmpint(k->priority, ==, prio);
            return;
        }
    }
    g_error("no [kthreads] %s", name);
}

/* what each case's .source.txt says a parser must extract (on the fixture:
 * calc_isolated_cores:1 keeps CPUs 0 and 2, isolates 1 and 3) */
static void
assert_facts(const char *name, const RvHostProfile *p)
{
    g_autofree char *iso = p->has_isolated ? rv_cpulist_format(&p->isolated) : NULL;

    g_assert_cmpstr(p->origin, ==, "tuned");
    g_assert_cmpstr(p->name, ==, name);
    /* latency-performance, inherited by all but itself */
    g_assert_cmpstr(p->governor, ==, "performance");
    g_assert_true(p->idle_max_latency_us.set);
    g_assert_cmpint(p->idle_max_latency_us.value, ==, 3);
    g_assert_cmpstr(sysctl(p, "vm.swappiness"), ==, "10");
    g_assert_cmpstr(sysctl(p, "vm.dirty_ratio"), ==, "10");            /* dirty_bytes=10% */
    g_assert_cmpstr(sysctl(p, "vm.dirty_background_ratio"), ==, "3");  /* dirty_background_bytes=3% */
    g_assert_true(has_note(p, "tuned.unmapped", "min_perf_pct"));
    if (strcmp(name, "latency-performance") == 0) {
        g_assert_false(p->has_isolated);
        return;
    }
    /* network-latency */
    g_assert_cmpint(p->skew_tick, ==, RV_HOST_TRI_YES);
    g_assert_true(has_extra(p, "tsc=reliable"));
    g_assert_true(has_extra(p, "rcupdate.rcu_normal_after_boot=1"));
    g_assert_true(has_extra(p, "rcutree.nohz_full_patience_delay=1000"));
    g_assert_true(p->timer_migration.set && p->timer_migration.value == 0);
    g_assert_true(p->nmi_watchdog.set && p->nmi_watchdog.value == 0);
    g_assert_true(p->numa_balancing.set && p->numa_balancing.value == 0);
    g_assert_cmpstr(sysctl(p, "vm.stat_interval"), ==, "10");
    g_assert_cmpstr(sysctl(p, "kernel.hung_task_timeout_secs"), ==, "600");
    g_assert_cmpstr(sysctl(p, "net.core.busy_poll"), ==, "50");
    g_assert_cmpint(p->thp, ==, RV_HOST_THP_NEVER);
    if (strcmp(name, "network-latency") == 0) {
        g_assert_false(p->has_isolated);
        return;
    }
    /* realtime, realtime-virtual-*, cpu-partitioning: isolated_cores */
    g_assert_cmpstr(iso, ==, "1,3");
    g_assert_true(p->mce_ignore_ce.set && p->mce_ignore_ce.value == 1);
    g_assert_cmpint(p->workqueue_cpumask, ==, RV_HOST_CPUSEL_HOUSEKEEPING);
    g_assert_cmpint(p->irq_affinity, ==, RV_HOST_CPUSEL_HOUSEKEEPING);   /* banned_cpus */
    g_assert_true(has_extra(p, "nosoftlockup"));
    g_assert_true(has_extra(p, "intel_pstate=disable"));
    if (strcmp(name, "cpu-partitioning") == 0) {
        /* no no_balance_cores: no isolcpus=, the mask of CPUs 0,2 */
        g_assert_cmpint(p->isolcpus, ==, RV_HOST_TRI_UNSET);
        g_assert_cmpint(p->nohz_full, ==, RV_HOST_TRI_YES);
        g_assert_cmpint(p->rcu_nocbs, ==, RV_HOST_TRI_YES);
        g_assert_cmpstr(p->nohz, ==, "on");
        g_assert_true(has_extra(p, "tuned.non_isolcpus=00000005"));
        g_assert_true(has_note(p, "tuned.unmapped", "cpu_affinity"));
        g_assert_true(has_note(p, "tuned.unmapped", "runs a program"));   /* ${f:exec:mktemp} */
        return;
    }
    g_assert_cmpint(p->rt_runtime_us.set, ==, TRUE);
    g_assert_cmpint(p->rt_runtime_us.value, ==, -1);
    /* isolate_managed_irq=Y: managed_irq,domain */
    g_assert_cmpint(p->isolcpus, ==, RV_HOST_TRI_YES);
    g_assert_nonnull(p->isolcpus_flags);
    g_assert_cmpstr(p->isolcpus_flags[0], ==, "managed_irq");
    g_assert_cmpstr(p->isolcpus_flags[1], ==, "domain");
    g_assert_true(has_note(p, "tuned.unmapped", "isolated_cores"));
    if (strcmp(name, "realtime") == 0)
        return;
    g_assert_cmpstr(p->nohz, ==, "on");
    g_assert_cmpint(p->nohz_full, ==, RV_HOST_TRI_YES);
    g_assert_cmpint(p->rcu_nocbs, ==, RV_HOST_TRI_YES);
    g_assert_cmpint(p->irqaffinity, ==, RV_HOST_TRI_YES);
    assert_kthread(p, "ksoftirqd", 2);
    assert_kthread(p, "ktimers", 2);
    assert_kthread(p, "rcuc", 4);
    assert_kthread(p, "rcub", 4);
    assert_kthread(p, "ktimersoftd", 3);
    if (strcmp(name, "realtime-virtual-host") == 0) {
        g_assert_true(p->ksm_run.set && p->ksm_run.value == 2);
        /* script.sh: setup_kvm_mod_low_latency read as the kvm module parameters */
        g_assert_true(has_note(p, "tuned.approximated", "setup_kvm_mod_low_latency"));
        g_assert_cmpuint(p->module_params->len, ==, 3);
        g_assert_cmpstr(((RvHostKnob *) p->module_params->pdata[2])->key, ==, "kvm_intel.ple_gap");
        g_assert_cmpstr(((RvHostKnob *) p->module_params->pdata[2])->value, ==, "0");
    } else {
        g_assert_false(p->ksm_run.set);
    }
}

static void
test_case(gconstpointer data)
{
    const char *name = data;
    g_autofree char *root = make_root(true);
    g_autoptr(RvHostProfile) p = load_case(root, name);
    g_autofree char *fmt = rv_host_profile_format(p);
    g_autoptr(GString) got = g_string_new(fmt);
    g_autofree char *golden = NULL, *a = NULL, *b = NULL;
    g_autofree char *exp = g_strdup_printf("%s.expected", name);

    g_string_append(got, "notes:\n");
    for (guint i = 0; i < p->notes->len; i++) {
        const RvHostKnob *k = p->notes->pdata[i];

        g_string_append_printf(got, "%s %s:%u: %s\n", k->key, k->file ? k->file : "", k->line,
                               k->value);
    }
    a = replace_all(got->str, root, "ROOT");
    b = replace_all(a, rv_test_cases_dir(), "CASES");
    golden = rv_test_data_path("tuned", exp);
    rv_test_compare_expected(golden, b);
    assert_facts(name, p);
    rv_test_rm_rf(root);
}

static char *
expand_one(RvTunedExpand *x, const char *v)
{
    char *s = rv_tuned_expand(x, v);

    g_assert_nonnull(s);
    return s;
}

static void
test_expand(void)
{
    g_autofree char *root_dir = make_root(false);
    g_autoptr(RvRoot) root = NULL;
    g_autoptr(RvTopology) topo = NULL;
    g_autoptr(GError) err = NULL;
    RvTunedExpand x;
    struct { const char *in, *out; } cases[] = {
        { "${a}", "1-2" },
        { "\\${a}", "${a}" },                            /* escaped: stays, unescaped */
        { "${b}", "${b}" },                              /* unknown: stays */
        { "${f:cpulist_unpack:${a}}", "1,2" },
        { "${f:cpulist_invert:1,2}", "0,3" },            /* over the online CPUs */
        { "${f:cpulist_online:1-7}", "1,2,3" },
        { "${f:cpulist_pack:1,2,3,5}", "1-3,5" },
        { "${f:cpulist2hex:0,1}", "00000003" },
        { "${f:cpulist2hex_invert:1-3}", "00000001" },
        { "${f:hex2cpulist:0x5}", "0,2" },
        { "${f:cpulist_unpack:0-3,^1}", "0,2,3" },
        { "${f:calc_isolated_cores:1}", "1,3" },         /* 2 packages of 2 CPUs */
        { "${f:calc_isolated_cores}", "1,3" },
        { "${f:calc_isolated_cores:0}", "0,1,2,3" },
        { "${f:regex_search_ternary:Y:\\b[y,Y,1,t,T]\\b:managed_irq,domain,:}", "managed_irq,domain," },
        { "${f:regex_search_ternary:N:\\b[y,Y,1,t,T]\\b:managed_irq,domain,:}", "" },
        { "x${f:strip:  a b  }y", "xa by" },
        { "${f:strip:${f:cpulist_unpack:2-3}}", "2,3" }, /* innermost first */
        { "${f:cpuinfo_check:GenuineIntel:intel_pstate=disable:AuthenticAMD:amd_pstate=disable:}",
          "intel_pstate=disable" },
        { "${f:no_such_function:1}", "${f:no_such_function:1}" },
        { "a\\${f:strip:x}b", "a${f:strip:x}b" },        /* escaped function: unescaped, not run */
    };

    g_assert_cmpint(rv_host_root_open(root_dir, &root, &err), ==, 0);
    g_assert_cmpint(rv_host_topology_load(root, &topo, &err), ==, 0);
    rv_tuned_expand_init(&x, root, topo, NULL);
    g_assert_cmpint(rv_tuned_add_variable(&x, "a", "1-2", "t", 1), ==, 0);
    for (size_t i = 0; i < G_N_ELEMENTS(cases); i++) {
        g_autofree char *s = expand_one(&x, cases[i].in);

        if (strcmp(s, cases[i].out) != 0)
            g_error("expand '%s': got '%s', want '%s'", cases[i].in, s, cases[i].out);
    }
    /* a variable is expanded when defined (realtime's isolated_cores = ${isolated_cores}) */
    g_assert_cmpint(rv_tuned_add_variable(&x, "c", "${a},3", "t", 2), ==, 0);
    g_assert_cmpint(rv_tuned_add_variable(&x, "a", "${c}", "t", 3), ==, 0);
    {
        g_autofree char *s = expand_one(&x, "${a}");
        g_assert_cmpstr(s, ==, "1-2,3");
    }
    /* assertions: tuned refuses the profile, naming the line */
    g_assert_cmpint(rv_tuned_add_variable(&x, "ok", "${f:assertion:same:1:1}", "t", 4), ==, 0);
    x.file = "t";
    x.line = 9;
    g_assert_null(rv_tuned_expand(&x, "${f:assertion_non_equal:cores are set:1:1}"));
    g_assert_true(g_error_matches(x.error, RV_ERROR, RV_ERROR_INVALID));
    g_assert_nonnull(strstr(x.error->message, "t:9: tuned assertion 'cores are set' failed"));
    rv_tuned_expand_clear(&x);
    rv_test_rm_rf(root_dir);
}

static void
test_parse(void)
{
    g_autoptr(RvTunedConf) c = NULL;
    g_autoptr(GError) err = NULL;
    const char *text =
        "# comment\n"
        "[main]\n"
        "summary=A # inline comment\n"
        "include = x\n"
        "; other comment\n"
        "[sysctl]\n"
        "a.b=1\n"
        "c.d = long\n"
        "   continued\n"
        "a.b = 2\n"             /* strict=False: the later value, the first position */
        "[main]\n"
        "summary = B#not a comment\n";
    RvTunedUnit *u;

    g_assert_cmpint(rv_tuned_parse("f", text, false, NULL, &c, &err), ==, 0);
    g_assert_no_error(err);
    g_assert_cmpuint(c->units->len, ==, 2);
    u = rv_tuned_unit(c, "main");
    g_assert_cmpstr(rv_tuned_opt(u, "summary")->value, ==, "B#not a comment");
    g_assert_cmpuint(rv_tuned_opt(u, "summary")->line, ==, 12);
    u = rv_tuned_unit(c, "sysctl");
    g_assert_cmpstr(((RvTunedOpt *) u->opts->pdata[0])->key, ==, "a.b");
    g_assert_cmpstr(((RvTunedOpt *) u->opts->pdata[0])->value, ==, "2");
    g_assert_cmpstr(rv_tuned_opt(u, "c.d")->value, ==, "long\ncontinued");
    g_clear_pointer(&c, rv_tuned_conf_free);

    g_assert_cmpint(rv_tuned_parse("f", "x = 1\n", false, NULL, &c, &err), ==, -EINVAL);
    g_assert_nonnull(strstr(err->message, "f:1:"));
    g_clear_error(&err);
    g_assert_cmpint(rv_tuned_parse("f", "[s]\nnovalue\n", false, NULL, &c, &err), ==, -EINVAL);
    g_assert_nonnull(strstr(err->message, "f:2:"));
    g_clear_error(&err);
    /* variables files: a magic header, keys without '=' allowed */
    g_assert_cmpint(rv_tuned_parse("v", "a=1\nflag\n", true, "variables", &c, &err), ==, 0);
    g_assert_null(rv_tuned_opt(rv_tuned_unit(c, "variables"), "flag")->value);
}

static void
test_assert_unset(void)
{
    g_autofree char *root_dir = make_root(false);
    g_autofree char *path = g_build_filename(rv_test_cases_dir(), "tuned",
                                             "realtime-virtual-host", NULL);
    g_autoptr(RvRoot) root = NULL;
    g_autoptr(RvHostProfile) p = NULL;
    g_autoptr(GError) err = NULL;

    /* the variables file without isolated_cores= */
    rv_test_put(root_dir, "etc/tuned/realtime-virtual-host-variables.conf", "# empty\n");
    g_assert_cmpint(rv_host_root_open(root_dir, &root, &err), ==, 0);
    g_assert_cmpint(rv_host_tuned_load(root, path, &p, &err), ==, -EINVAL);
    g_assert_true(g_error_matches(err, RV_ERROR, RV_ERROR_INVALID));
    g_assert_nonnull(strstr(err->message, "tuned assertion 'isolated_cores are set' failed"));
    g_assert_nonnull(strstr(err->message, "tuned.conf:"));
    g_assert_null(p);
    rv_test_rm_rf(root_dir);
}

/* the bus names the PID that connected: tuned --daemon's launcher, gone */
static void
test_bus_owner(void)
{
    g_autofree char *root_dir = make_root(false);
    g_autoptr(RvRoot) root = NULL;
    g_autoptr(GError) err = NULL;
    gint64 pid = -1;

    rv_test_put(root_dir, "proc/4242/comm", "tuned\n");
    g_assert_cmpint(rv_host_root_open(root_dir, &root, &err), ==, 0);
    {
        g_autofree char *s = rv_tuned_bus_owner_describe(root, 4242, &pid);

        g_assert_cmpstr(s, ==, "D-Bus name com.redhat.tuned owned by PID 4242 (tuned)");
        g_assert_cmpint(pid, ==, 4242);
    }
    {
        g_autofree char *s = rv_tuned_bus_owner_describe(root, 4241, &pid);

        g_assert_cmpstr(s, ==, "D-Bus name com.redhat.tuned has an owner; the bus names PID 4241, "
                               "which has exited (tuned --daemon connects before it forks)");
        g_assert_cmpint(pid, ==, 0);
    }
    {
        g_autofree char *s = rv_tuned_bus_owner_describe(root, 0, &pid);

        g_assert_cmpstr(s, ==, "D-Bus name com.redhat.tuned has an owner");
        g_assert_cmpint(pid, ==, 0);
    }
    rv_test_rm_rf(root_dir);
}

/* The OpenShift performance profile rendered for reserved 0-1, isolated 2-7
 * (tests/data/cases/tuned/openshift-node-performance-example and its -rt
 * and intel-x86 children, .source.txt there) on an 8-CPU one-package root:
 * its kernel thread groups 'NAME.*' are read as [kthreads], the -rt
 * profile's drop= removes network-latency's numa_balancing and busy
 * polling sysctls, and timer_migration stays 1 as the operator wants on the
 * RT kernel. */
static const char * const openshift_names[] = {
    "openshift-node-performance-example", "openshift-node-performance-intel-x86-example",
    "openshift-node-performance-rt-example",
};

static void
test_openshift(void)
{
    g_autoptr(GError) err = NULL;
    g_autofree char *root = g_dir_make_tmp("rv-tuned-XXXXXX", &err);
    g_autoptr(RvHostProfile) p = NULL;
    g_autofree char *iso = NULL;

    g_assert_no_error(err);
    rv_test_put(root, "sys/devices/system/cpu/possible", "0-7\n");
    rv_test_put(root, "sys/devices/system/cpu/present", "0-7\n");
    rv_test_put(root, "sys/devices/system/cpu/online", "0-7\n");
    for (int cpu = 0; cpu < 8; cpu++) {
        g_autofree char *d = g_strdup_printf("sys/devices/system/cpu/cpu%d/topology", cpu);
        g_autofree char *self = g_strdup_printf("%d\n", cpu);
        g_autofree char *p1 = g_build_filename(d, "thread_siblings_list", NULL);
        g_autofree char *p3 = g_build_filename(d, "core_id", NULL);
        g_autofree char *p4 = g_build_filename(d, "physical_package_id", NULL);

        rv_test_put(root, p1, self);
        rv_test_put(root, p3, self);
        rv_test_put(root, p4, "0\n");
    }
    rv_test_put(root, "proc/cpuinfo", "processor\t: 0\nvendor_id\t: GenuineIntel\n");
    p = load_case(root, "openshift-node-performance-example");
    iso = rv_cpulist_format(&p->isolated);
    g_assert_cmpstr(iso, ==, "2-7");
    assert_kthread(p, "ksoftirqd", 11);
    assert_kthread(p, "rcuc", 11);
    assert_kthread(p, "ktimers", 11);
    g_assert_false(p->numa_balancing.set);                 /* dropped by the -rt profile */
    g_assert_null(sysctl(p, "net.core.busy_read"));
    g_assert_null(sysctl(p, "net.core.busy_poll"));
    g_assert_null(sysctl(p, "drop"));                      /* drop= is no option */
    g_assert_true(p->timer_migration.set && p->timer_migration.value == 1);
    g_assert_cmpstr(sysctl(p, "vm.swappiness"), ==, "10");
    g_assert_true(has_extra(p, "rcutree.kthread_prio=11"));
    g_assert_true(has_extra(p, "intel_pstate=active"));
    g_assert_false(has_extra(p, "intel_pstate=disable"));  /* cpu-partitioning's, overridden */
    rv_test_rm_rf(root);
}

int
main(int argc, char **argv)
{
    g_test_init(&argc, &argv, NULL);
    for (size_t i = 0; i < G_N_ELEMENTS(case_names); i++) {
        g_autofree char *t = g_strdup_printf("/tuned/cases/%s", case_names[i]);

        g_test_add_data_func(t, case_names[i], test_case);
    }
    g_test_add_func("/tuned/expand", test_expand);
    g_test_add_func("/tuned/parse", test_parse);
    g_test_add_func("/tuned/assert", test_assert_unset);
    g_test_add_func("/tuned/bus-owner", test_bus_owner);
    g_test_add_func("/tuned/openshift", test_openshift);
    {
        const char *all[G_N_ELEMENTS(case_names) + G_N_ELEMENTS(openshift_names)];

        for (size_t i = 0; i < G_N_ELEMENTS(case_names); i++)
            all[i] = case_names[i];
        for (size_t i = 0; i < G_N_ELEMENTS(openshift_names); i++)
            all[G_N_ELEMENTS(case_names) + i] = openshift_names[i];
        rv_test_assert_cases_covered("tuned", all, G_N_ELEMENTS(all));
    }
    return g_test_run();
}
