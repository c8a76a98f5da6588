/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * host/check/check.c: the findings engine of `rtvirt host check`: loads the
 * facts through the readers, runs the judges of host/check/check-boot.c,
 * check-runtime.c, check-threads.c and check-libvirt.c on them (see
 * host/check/check-priv.h), and prints the findings as text or JSON.
 *
 * Finding ids (stable; FAIL/WARN/NOTE/PASS depends on the case):
 *   partition.plan  partition.invalid  partition.housekeeping-cores
 *   isolation.none  isolation.mismatch  isolation.sibling-housekeeping
 *   isolation.smt-clean  isolation.unknown  isolation.stray-tasks
 *   smt.absent  smt.active  smt.off  smt.nosmt-missing  smt.idle-siblings  smt.shared-cores
 *   coresched.available  coresched.no-smt  coresched.unavailable  coresched.unknown
 *   cmdline.unknown  cmdline.problem
 *   bootarg.ok  bootarg.missing  bootarg.mismatch  bootarg.ignored  bootarg.not-in-effect
 *   mce.ignore_ce  irq.irqbalance
 *   nohz_full.mismatch-isolcpus  nohz_full.unsupported  rcu_nocbs.mismatch-nohz_full
 *   irqaffinity.missing  irqaffinity.overlaps-isolated
 *   irq.default-affinity  irq.on-isolated  irq.ok
 *   kernel.not-preempt-rt  kernel.preempt-rt
 *   nohz_full.missing  skew_tick.missing  rcu_nocb_poll.missing  watchdog.on-isolated
 *   idle.max-cstate-ignored  idle.poll-smt  clocksource.slow
 *   rtgroup.trap  rtgroup.avoided  rtgroup.none  rtgroup.unknown
 *   rt-throttling  timer_migration  numa_balancing  nmi_watchdog  thp  ksm
 *   workqueue.cpumask  governor  governor.no-cpufreq  idle.deep-states  idle.no-cpuidle
 *   kthread.priority  kthread.absent
 *   sysctl  sysctl.absent  module.param  module.absent
 *   libvirt.sched-core  libvirt.sched-core-unsupported  libvirt.cgroup-controllers
 *   libvirt.qemu-conf-unknown  state.problem
 *   tuned.profile  tuned.unmapped  tuned.approximated (a tuned profile, host/tuned/tuned.h)
 *   tuned.running  tuned.active-profile  tuned.conflict  tuned.overlap (host/tuned/tuned-state.c)
 *
 * Levels: a knob the profile sets and the host does not have is FAIL (the
 * profile's intent is not met; `rtvirt host apply` or `host bootargs` fixes
 * it).  Reasoning beyond the profile's words (no irqaffinity= while CPUs are
 * isolated, a non-PREEMPT_RT kernel) is WARN.  A value that cannot be read
 * is NOTE "... unknown": never guessed.
 *
 * Sources of the rules: Documentation/admin-guide/kernel-parameters.txt
 * (isolcpus, nohz_full, rcu_nocbs, irqaffinity, skew_tick, nosmt),
 * Documentation/admin-guide/kernel-per-CPU-kthreads.rst,
 * Documentation/timers/no_hz.rst, Documentation/core-api/irq/irq-affinity.rst,
 * Documentation/scheduler/sched-rt-group.rst (the RT-group trap),
 * Documentation/admin-guide/hw-vuln/core-scheduling.rst, libvirt
 * src/qemu/qemu_conf.c (sched_core: "SCHED_CORE not supported by kernel"
 * makes the QEMU driver refuse qemu.conf), tuned v2.28 realtime profiles.
 */
#include <errno.h>
#include <string.h>

#include "host/check/check-priv.h"
#include "host/facts/report.h"
#include "host/facts/threads.h"
#include "util/error.h"
#include "util/json.h"

void
rv_host_check_report_free(RvCheckReport *rep)
{
    if (!rep)
        return;
    g_free(rep->profile_path);
    g_free(rep->profile_name);
    g_free(rep->root);
    g_free(rep->kernel_release);
    rv_findings_free(rep->findings);
    g_free(rep);
}

char *
rv_check_fmt_cpus(const RvCpuSet *s)
{
    char *l = rv_cpulist_format(s);

    if (!*l) {
        g_free(l);
        return g_strdup("(none)");
    }
    return l;
}

/* ---- facts: everything read before judging ------------------------------- */

static void
facts_clear(RvCheckFacts *f)
{
    g_clear_pointer(&f->topo, rv_host_topology_free);
    g_clear_pointer(&f->cmd, rv_host_cmdline_free);
    g_clear_pointer(&f->st, rv_host_state_free);
    g_clear_pointer(&f->irqs, rv_host_irq_table_free);
    g_clear_pointer(&f->tasks, g_array_unref);
    g_clear_pointer(&f->on_isolated, g_array_unref);
    g_clear_pointer(&f->irqbalance, rv_host_irqbalance_free);
    g_clear_pointer(&f->qemu_conf, rv_host_qemu_conf_free);
    g_clear_pointer(&f->qemu_conf_error, g_free);
}

/* The profile's [sysctl] or [modules] keys, NULL-terminated (borrowed). */
static const char **
knob_keys(const GPtrArray *knobs)
{
    const char **keys = g_new0(const char *, knobs->len + 1);

    for (guint i = 0; i < knobs->len; i++)
        keys[i] = ((const RvHostKnob *) knobs->pdata[i])->key;
    return keys;
}

/* The readers, in one place; only a host without CPU topology, a profile
 * naming CPUs it lacks, or an unexpected /proc/cmdline error fails. */
static int
facts_load(RvRoot *root, const RvHostProfile *profile, RvCheckFacts *f, GError **error)
{
    g_autoptr(GError) local = NULL;
    g_autofree const char **sysctls = knob_keys(profile->sysctls);
    g_autofree const char **modules = knob_keys(profile->module_params);
    int r;

    r = rv_host_topology_load(root, &f->topo, error);
    if (r < 0)
        return r;
    /* a profile naming CPUs this host does not have is bad input (exit 2) */
    r = rv_host_profile_check_host(profile, &f->topo->online, error);
    if (r < 0)
        return r;
    r = rv_host_state_load(root, f->topo->nr_cpu_ids, &f->st, error);
    if (r < 0)
        return r;
    rv_host_state_load_knobs(f->st, root, sysctls, modules);
    r = rv_host_cmdline_load(root, f->topo->nr_cpu_ids, &f->cmd, &local);
    if (r < 0 && r != -ENOENT && r != -EACCES && !g_error_matches(local, RV_ERROR, RV_ERROR_FAILED)) {
        g_propagate_error(error, g_steal_pointer(&local));
        return r;
    }
    g_clear_error(&local);
    if (rv_host_irqs_load(root, f->topo->nr_cpu_ids, &f->irqs, NULL) < 0)
        f->irqs = NULL;
    if (rv_host_tasks_load(root, &f->tasks, NULL) < 0)
        f->tasks = g_array_new(FALSE, TRUE, sizeof(RvTask));
    (void) rv_host_irqbalance_load(root, f->tasks, f->topo->nr_cpu_ids, &f->irqbalance);
    if (rv_host_qemu_conf_load(root, profile->qemu_conf, &f->qemu_conf, NULL, &local) < 0)
        f->qemu_conf_error = g_strdup_printf("libvirt settings not checked: %s", local->message);
    return 0;
}

/* What the facts imply before any judge runs: SMT in use, CPUs isolated now. */
static void
derive(RvCheckCtx *c)
{
    const RvTopology *topo = c->topo;
    const RvHostState *st = c->st;

    for (guint i = 0; i < topo->cores->len && !c->smt_active; i++) {
        const RvCore *core = &g_array_index(topo->cores, RvCore, i);
        RvCpuSet on;

        rv_cpuset_and(&on, &core->threads, &topo->online);
        c->smt_active = rv_cpuset_count(&on) > 1;
    }
    rv_cpuset_zero(&c->iso_actual);
    if (st->isolated.known) {
        rv_cpuset_or(&c->iso_actual, &c->iso_actual, &st->isolated.set);
        c->iso_actual_known = true;
    }
    if (st->nohz_full.known) {
        rv_cpuset_or(&c->iso_actual, &c->iso_actual, &st->nohz_full.set);
        c->iso_actual_known = true;
    }
    /* offline CPUs may stay listed; nothing runs there */
    rv_cpuset_and(&c->iso_actual, &c->iso_actual, &topo->online);
}

/* Every judge, in report order. */
static void
judge(RvCheckCtx *c)
{
    rv_check_partition(c);
    rv_check_smt(c);
    rv_check_coresched(c);
    rv_check_bootargs(c);
    rv_check_irqs(c);
    rv_check_rps(c);
    rv_check_stray_tasks(c);
    rv_check_kernel(c);
    rv_check_rtgroup(c);
    rv_check_runtime(c);
    rv_check_jitter(c);
    rv_check_kthreads(c);
    rv_check_knobs(c);
    rv_check_libvirt(c);
    for (guint i = 0; i < c->st->problems->len; i++)
        rv_findings_add(c->rep->findings, RV_FINDING_WARN, "state.problem", NULL, NULL, NULL, NULL, "%s",
                        (char *) c->st->problems->pdata[i]);
    /* a profile read from another format (host/tuned/tuned.h): what it could not map */
    for (guint i = 0; c->p->notes && i < c->p->notes->len; i++) {
        const RvHostKnob *k = c->p->notes->pdata[i];

        if (k->line)
            rv_findings_add(c->rep->findings, RV_FINDING_NOTE, k->key, NULL, NULL, NULL, NULL, "%s:%u: %s",
                            k->file, k->line, k->value);
        else
            rv_findings_add(c->rep->findings, RV_FINDING_NOTE, k->key, NULL, NULL, NULL, NULL, "%s: %s",
                            k->file ? k->file : c->p->path, k->value);
    }
}

/* ---- entry points -------------------------------------------------------- */

int
rv_host_check_run(RvRoot *root, const RvHostProfile *profile, RvCheckReport **ret_report,
                  GError **error)
{
    g_autoptr(RvCheckReport) rep = g_new0(RvCheckReport, 1);
    RvCheckFacts facts = { 0 };
    RvCheckCtx c = { 0 };
    int r;

    r = facts_load(root, profile, &facts, error);
    if (r < 0) {
        facts_clear(&facts);
        return r;
    }
    rep->profile_path = g_strdup(profile->path);
    rep->profile_name = g_strdup(profile->name);
    rep->root = g_strdup(rv_host_root_path(root));
    rep->live = rv_host_root_is_live(root);
    rep->kernel_release = g_strdup(facts.st->kernel_release);
    rep->online = facts.topo->online;
    rep->findings = rv_findings_new();

    c.p = profile;
    c.facts = &facts;
    c.topo = facts.topo;
    c.cmd = facts.cmd;
    c.st = facts.st;
    c.rep = rep;
    derive(&c);
    /* the threads on isolated CPUs: a reader fed by a derived fact */
    if (!rv_cpuset_is_empty(&c.iso_actual) &&
        rv_host_tasks_on_cpus(root, &c.iso_actual, &facts.on_isolated, NULL) < 0)
        facts.on_isolated = NULL;
    judge(&c);

    g_clear_pointer(&c.plan, rv_host_partition_free);
    facts_clear(&facts);
    *ret_report = g_steal_pointer(&rep);
    return 0;
}


bool
rv_host_check_trusted(const RvCheckReport *rep)
{
    return rep->findings->counts[RV_FINDING_FAIL] == 0;
}

JsonNode *
rv_host_check_to_json(const RvCheckReport *rep)
{
    g_autoptr(JsonBuilder) b = json_builder_new();

    json_builder_begin_object(b);
    rv_json_add_int(b, "schema_version", RV_HOST_CHECK_SCHEMA_VERSION);
    rv_json_add_string_or_null(b, "profile", rep->profile_path);
    rv_json_add_string_or_null(b, "profile_name", rep->profile_name);
    rv_json_add_string_or_null(b, "root", rep->root);
    rv_json_add_bool(b, "live", rep->live);
    rv_json_add_string_or_null(b, "kernel_release", rep->kernel_release);
    json_builder_set_member_name(b, "partition");
    if (rep->has_partition) {
        json_builder_begin_object(b);
        rv_json_add_cpuset(b, "isolated", &rep->isolated);
        rv_json_add_cpuset(b, "housekeeping", &rep->housekeeping);
        json_builder_end_object(b);
    } else {
        json_builder_add_null_value(b);
    }
    rv_findings_summary_to_json(b, rep->findings->counts);
    rv_json_add_string_or_null(b, "verdict", rv_finding_level_name(rv_findings_worst(rep->findings)));
    rv_json_add_bool(b, "trusted", rv_host_check_trusted(rep));
    rv_findings_to_json(b, rep->findings);
    json_builder_end_object(b);
    return json_builder_get_root(b);
}

/* @arg as one shell word: unchanged when it is made of characters no
 * shell treats specially, else single-quoted (g_shell_quote()) */
static char *
shell_word(const char *arg)
{
    for (const char *c = arg; *c; c++)
        if (!g_ascii_isalnum(*c) && !strchr("_./:=+-,@%", *c))
            return g_shell_quote(arg);
    return *arg ? g_strdup(arg) : g_shell_quote(arg);
}

void
rv_host_check_name_fixes(RvCheckReport *rep, const char *profile_arg, const char *tuned_name)
{
    g_autofree char *word = shell_word(profile_arg);

    rv_findings_replace_in_fixes(rep->findings, ", then reboot", " && reboot");
    if (tuned_name) {
        g_autofree char *name = shell_word(tuned_name);
        g_autofree char *adm = g_strdup_printf("tuned-adm profile %s", name);

        rv_findings_replace_in_fixes(rep->findings, "rtvirt host bootargs PROFILE --install", adm);
        rv_findings_replace_in_fixes(rep->findings, "rtvirt host apply PROFILE", adm);
    }
    rv_findings_replace_in_fixes(rep->findings, "PROFILE", word);
}

char *
rv_host_check_format(const RvCheckReport *rep, bool verbose)
{
    GString *s = g_string_new(NULL);

    g_string_append_printf(s, "Host check: profile %s (%s) on %s%s\n", rep->profile_name,
                           rep->profile_path, rep->live ? "this host" : "root ", rep->live ? "" : rep->root);
    if (rep->has_partition) {
        g_autofree char *i = rv_check_fmt_cpus(&rep->isolated), *h = rv_check_fmt_cpus(&rep->housekeeping);
        g_string_append_printf(s, "Partition: isolated %s, housekeeping %s\n", i, h);
    }
    g_string_append_c(s, '\n');
    rv_findings_format(s, rep->findings, verbose);
    g_string_append_c(s, '\n');
    rv_findings_format_summary(s, rv_finding_level_name(rv_findings_worst(rep->findings)),
                               rep->findings->counts, verbose);
    return rv_host_text_printable(g_string_free(s, FALSE));
}
