/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * host/check/check-runtime.c: `host check` judges of what the running kernel
 * does: core scheduling, IRQ placement, the kernel build, runtime knobs,
 * sysctls and module parameters (host/check/check-priv.h).
 *
 * Ids: coresched.available  coresched.no-smt  coresched.unavailable  coresched.unknown
 *   irq.default-affinity  irq.on-isolated  irq.ok  irq.irqbalance  state.problem
 *   kernel.not-preempt-rt  kernel.preempt-rt
 *   rt-throttling  timer_migration  numa_balancing  nmi_watchdog  ksm  mce.ignore_ce
 *   thp  workqueue.cpumask  governor  governor.no-cpufreq  idle.deep-states  idle.no-cpuidle
 *   sysctl  sysctl.absent  module.param  module.absent  rps.on-isolated
 *
 * Sources: Documentation/admin-guide/hw-vuln/core-scheduling.rst,
 * Documentation/core-api/irq/irq-affinity.rst,
 * Documentation/admin-guide/kernel-per-CPU-kthreads.rst,
 * Documentation/admin-guide/sysctl/kernel.rst, Documentation/admin-guide/
 * mm/transhuge.rst and ksm.rst, Documentation/core-api/workqueue.rst,
 * Documentation/admin-guide/pm/cpufreq.rst and cpuidle.rst, tuned v2.28
 * realtime profiles ([irqbalance] banned_cpus).
 */
#include <stdio.h>
#include <string.h>

#include "host/check/check-priv.h"

bool
rv_check_profile_wants_rt(const RvHostProfile *p)
{
    return p->has_isolated || p->has_housekeeping || p->isolcpus != RV_HOST_TRI_UNSET ||
           p->nohz_full != RV_HOST_TRI_UNSET || p->rcu_nocbs != RV_HOST_TRI_UNSET ||
           p->irqaffinity != RV_HOST_TRI_UNSET || p->smt != RV_HOST_SMT_UNSET ||
           p->core_scheduling != RV_HOST_CORESCHED_UNSET || (p->kthreads && p->kthreads->len) ||
           p->rt_runtime_us.set || p->libvirt_sched_core || p->libvirt_cgroup_controllers;
}

/* "5.4.0-100-generic" older than 5.14, the release that brought core
 * scheduling (prctl PR_SCHED_CORE, Documentation/admin-guide/hw-vuln/
 * core-scheduling.rst): there EINVAL means "too old", not a config choice. */
static bool
kernel_before_5_14(const char *release)
{
    unsigned major = 0, minor = 0;

    if (!release || sscanf(release, "%u.%u", &major, &minor) != 2)
        return false;
    return major < 5 || (major == 5 && minor < 14);
}

void
rv_check_coresched(RvCheckCtx *c)
{
    const RvHostProfile *p = c->p;
    const char *state = rv_host_coresched_state_to_string(c->st->coresched);
    RvFindingLevel missing;
    bool too_old;

    if (p->core_scheduling == RV_HOST_CORESCHED_UNSET && !rv_check_profile_wants_rt(p))
        return;

    switch (c->st->coresched) {
    case RV_CORESCHED_USABLE:
        rv_findings_add(c->rep->findings, RV_FINDING_PASS, "coresched.available", NULL, NULL, state, NULL,
                        "core scheduling is usable (prctl PR_SCHED_CORE works)");
        return;
    case RV_CORESCHED_NO_SMT:
        rv_findings_add(c->rep->findings, RV_FINDING_NOTE, "coresched.no-smt", NULL, NULL, state, NULL,
                        "the kernel has core scheduling but no SMT sibling is online (prctl: ENODEV): "
                        "no core is shared, nothing to protect");
        return;
    case RV_CORESCHED_UNKNOWN:
        rv_findings_add(c->rep->findings, RV_FINDING_NOTE, "coresched.unknown", NULL, NULL, state, NULL,
                        "whether core scheduling works is unknown (%s)",
                        c->st->coresched_source ? c->st->coresched_source : "no probe on a fixture root");
        return;
    case RV_CORESCHED_UNSUPPORTED:
        break;
    }
    /* kernel without CONFIG_SCHED_CORE, or older than core scheduling */
    too_old = kernel_before_5_14(c->st->kernel_release);
    if (!c->smt_active)
        missing = RV_FINDING_NOTE;
    else if (p->core_scheduling == RV_HOST_CORESCHED_REQUIRED)
        missing = RV_FINDING_FAIL;
    else if (p->core_scheduling == RV_HOST_CORESCHED_PREFERRED)
        missing = RV_FINDING_WARN;
    else
        missing = RV_FINDING_NOTE;
    if (too_old)
        rv_findings_add(c->rep->findings, missing, "coresched.unavailable", NULL,
                        p->core_scheduling >= RV_HOST_CORESCHED_PREFERRED ? "usable" : NULL, state,
                        c->smt_active ? "boot a kernel >= 5.14 built with CONFIG_SCHED_CORE, or turn "
                                        "SMT off (smt = off-runtime / off-boot in the profile)"
                                      : NULL,
                        "kernel too old for core scheduling: %s predates Linux 5.14, which added "
                        "prctl PR_SCHED_CORE (EINVAL here)%s", c->st->kernel_release,
                        c->smt_active ? ": vCPUs of different VMs can share a core"
                                      : "; without SMT no core is shared, so nothing is lost here");
    else
        rv_findings_add(c->rep->findings, missing, "coresched.unavailable", NULL,
                        p->core_scheduling >= RV_HOST_CORESCHED_PREFERRED ? "usable" : NULL, state,
                        c->smt_active ? "boot a kernel built with CONFIG_SCHED_CORE, or turn SMT off "
                                        "(smt = off-runtime / off-boot in the profile)"
                                      : NULL,
                        "the kernel has no core scheduling (CONFIG_SCHED_CORE off: prctl PR_SCHED_CORE "
                        "fails with EINVAL)%s",
                        c->smt_active ? ": vCPUs of different VMs can share a core"
                                      : "; without SMT no core is shared, so nothing is lost here");
}

/* A running irqbalance and what it bans (host/facts/irqbalance.h): by
 * itself it keeps IRQs off the isolated and nohz_full CPUs; a banned-CPU
 * variable in its environment replaces that, so a list that forgets the
 * isolated CPUs hands them back (irqbalance cputree.c setup_banned_cpus()). */
static void
check_irqbalance(RvCheckCtx *c)
{
    const RvIrqbalance *ib = c->facts->irqbalance;
    g_autofree char *iso = rv_check_fmt_cpus(&c->iso_actual);
    g_autofree char *act = NULL;
    RvCpuSet open;

    if (!ib)
        return;
    act = ib->value ? g_strdup_printf("%s=%s", rv_host_irqbalance_ban_name(ib->ban), ib->value)
                    : g_strdup_printf("irqbalance pid %d, %s ban", ib->pid,
                                      rv_host_irqbalance_ban_name(ib->ban));
    if (ib->ban == RV_IRQBALANCE_BAN_AUTO) {
        rv_findings_add(c->rep->findings, RV_FINDING_NOTE, "irq.irqbalance", &c->iso_actual, NULL, act, NULL,
                        "irqbalance is running (pid %d) without a banned-CPU variable: it bans the "
                        "isolated and nohz_full CPUs %s itself (irqbalance 1.1.0 and later), but "
                        "cannot move managed IRQs", ib->pid, iso);
        return;
    }
    if (ib->ban == RV_IRQBALANCE_BAN_UNKNOWN || !ib->banned_known) {
        rv_findings_add(c->rep->findings, RV_FINDING_WARN, "irq.irqbalance", &c->iso_actual, NULL, act,
                        "stop irqbalance, or set IRQBALANCE_BANNED_CPULIST to the isolated CPUs in "
                        "/etc/default/irqbalance and restart it",
                        "irqbalance is running (pid %d): it moves IRQs onto isolated CPUs %s unless "
                        "they are banned in its configuration%s%s", ib->pid, iso,
                        ib->problem ? ": " : "", ib->problem ? ib->problem : "");
        return;
    }
    rv_cpuset_andnot(&open, &c->iso_actual, &ib->banned);
    if (!rv_cpuset_is_empty(&open)) {
        g_autofree char *o = rv_check_fmt_cpus(&open);
        g_autofree char *b = rv_check_fmt_cpus(&ib->banned);
        rv_findings_add(c->rep->findings, RV_FINDING_WARN, "irq.irqbalance", &open, iso, act,
                        "list every isolated CPU in IRQBALANCE_BANNED_CPULIST (or remove the variable: "
                        "irqbalance then bans the isolated and nohz_full CPUs itself) and restart "
                        "irqbalance",
                        "irqbalance runs with %s, which replaces its own ban of the isolated CPUs: it "
                        "bans only %s and may place IRQs on isolated CPUs %s%s", act, b, o,
                        ib->value && !*ib->value
                            ? " (an empty list bans no CPU since irqbalance commit 8929e4d; older "
                              "versions took it for unset)" : "");
        return;
    }
    rv_findings_add(c->rep->findings, RV_FINDING_NOTE, "irq.irqbalance", &c->iso_actual, NULL, act, NULL,
                    "irqbalance is running with %s, which covers the isolated CPUs %s%s", act, iso,
                    ib->ban == RV_IRQBALANCE_BAN_CPUS ? " (IRQBALANCE_BANNED_CPUS is deprecated since "
                    "irqbalance 1.8.0: use IRQBALANCE_BANNED_CPULIST)" : "");
}

void
rv_check_irqs(RvCheckCtx *c)
{
    const RvIrqTable *irqs = c->facts->irqs;
    g_autoptr(GString) on_iso = g_string_new(NULL);
    g_autoptr(GString) eff_iso = g_string_new(NULL);
    RvFindingLevel level = c->p->irq_affinity != RV_HOST_CPUSEL_UNSET ? RV_FINDING_FAIL
                                                                    : RV_FINDING_WARN;
    RvCpuSet cpus_hit;
    unsigned n_eff = 0, n_set = 0;

    if (rv_cpuset_is_empty(&c->iso_actual) || !irqs)
        return;
    if (irqs->has_default) {
        RvCpuSet def;

        rv_cpuset_and(&def, &irqs->default_affinity, &c->topo->online);
        if (rv_cpuset_intersects(&def, &c->iso_actual)) {
            RvCpuSet o;
            g_autofree char *os = NULL, *ds = rv_check_fmt_cpus(&def);

            rv_cpuset_and(&o, &def, &c->iso_actual);
            os = rv_check_fmt_cpus(&o);
            rv_findings_add(c->rep->findings, level, "irq.default-affinity", &o, NULL, ds,
                            "rtvirt host apply PROFILE ([kernel] irq_affinity = housekeeping), or boot "
                            "with irqaffinity=",
                            "/proc/irq/default_smp_affinity (CPUs %s) includes isolated CPUs %s: new IRQs "
                            "start there", ds, os);
        }
    }
    rv_cpuset_zero(&cpus_hit);
    for (guint i = 0; i < irqs->irqs->len; i++) {
        const RvIrq *q = &g_array_index(irqs->irqs, RvIrq, i);

        /* effective_affinity_list (since 4.15) is where the IRQ is delivered;
         * without it, smp_affinity_list is what can be known */
        if (q->has_effective) {
            if (rv_cpuset_intersects(&q->effective, &c->iso_actual)) {
                RvCpuSet e;

                n_eff++;
                g_string_append_printf(eff_iso, "%s%u", eff_iso->len ? "," : "", q->irq);
                rv_cpuset_and(&e, &q->effective, &c->iso_actual);
                rv_cpuset_or(&cpus_hit, &cpus_hit, &e);
            }
        } else if (q->has_affinity && rv_cpuset_intersects(&q->affinity, &c->iso_actual)) {
            n_set++;
            g_string_append_printf(on_iso, "%s%u", on_iso->len ? "," : "", q->irq);
        }
    }
    if (irqs->irqs->len == 0)
        return;
    if (n_eff) {
        g_autofree char *hit = rv_check_fmt_cpus(&cpus_hit);
        rv_findings_add(c->rep->findings, level, "irq.on-isolated", &cpus_hit, NULL, eff_iso->str,
                        "rtvirt host apply PROFILE moves them; managed IRQs (NVMe queues) stay unless "
                        "isolcpus=managed_irq,... is booted; an IRQ's effective affinity changes at its "
                        "next interrupt",
                        "%u of %u IRQs are delivered to isolated CPUs %s (effective_affinity_list): IRQ %s",
                        n_eff, irqs->irqs->len, hit, eff_iso->str);
    } else if (n_set) {
        rv_findings_add(c->rep->findings, RV_FINDING_WARN, "irq.on-isolated", NULL, NULL, on_iso->str,
                        "rtvirt host apply PROFILE",
                        "%u of %u IRQs may be delivered to isolated CPUs (smp_affinity_list): IRQ %s",
                        n_set, irqs->irqs->len, on_iso->str);
    } else {
        rv_findings_add(c->rep->findings, RV_FINDING_PASS, "irq.ok", NULL, NULL, NULL, NULL,
                        "none of %u IRQs is delivered to an isolated CPU", irqs->irqs->len);
    }
    for (guint i = 0; i < irqs->problems->len; i++)
        rv_findings_add(c->rep->findings, RV_FINDING_WARN, "state.problem", NULL, NULL, NULL, NULL, "%s",
                        (char *) irqs->problems->pdata[i]);

    check_irqbalance(c);
}

void
rv_check_kernel(RvCheckCtx *c)
{
    if (!rv_check_profile_wants_rt(c->p))
        return;
    if (c->st->preempt_rt == RV_TRI_YES)
        rv_findings_add(c->rep->findings, RV_FINDING_PASS, "kernel.preempt-rt", NULL, "PREEMPT_RT",
                        "PREEMPT_RT", NULL,
                        "the kernel is PREEMPT_RT");
    else if (c->st->preempt_rt == RV_TRI_NO)
        rv_findings_add(c->rep->findings, RV_FINDING_WARN, "kernel.not-preempt-rt", NULL, "PREEMPT_RT",
                        c->st->preempt_model ? c->st->preempt_model : "unknown",
                        "boot a PREEMPT_RT kernel (Debian: linux-image-rt-amd64)",
                        "the kernel is not PREEMPT_RT (%s): worst-case latencies of RT guests are not bounded",
                        c->st->preempt_model ? c->st->preempt_model : "preemption model unknown");
}

static void
check_int(RvCheckCtx *c, const char *id, const char *what, const RvHostOptInt *want,
          const RvStateInt *have, const char *fix)
{
    g_autofree char *w = NULL, *h = NULL;

    if (!want->set)
        return;
    w = g_strdup_printf("%" G_GINT64_FORMAT, want->value);
    if (!have->known) {
        rv_findings_add(c->rep->findings, RV_FINDING_NOTE, id, NULL, w, "unknown", NULL,
                        "%s is unknown (unreadable)", what);
        return;
    }
    h = g_strdup_printf("%" G_GINT64_FORMAT, have->value);
    if (have->value != want->value)
        rv_findings_add(c->rep->findings, RV_FINDING_FAIL, id, NULL, w, h, fix,
                        "%s is %s, the profile wants %s", what, h, w);
    else
        rv_findings_add(c->rep->findings, RV_FINDING_PASS, id, NULL, w, h, NULL, "%s is %s", what, h);
}

/* [kernel] mce_ignore_ce: every machinecheckN/ignore_ce the state holds. */
static void
check_mce(RvCheckCtx *c, const char *apply)
{
    const RvHostProfile *p = c->p;
    g_autoptr(GString) bad = g_string_new(NULL);
    g_autofree char *w = g_strdup_printf("%" G_GINT64_FORMAT, p->mce_ignore_ce.value);
    unsigned n = c->st->mce->len;

    for (guint i = 0; i < n; i++) {
        const RvStateMce *m = &g_array_index(c->st->mce, RvStateMce, i);

        if (m->ignore_ce != p->mce_ignore_ce.value)
            g_string_append_printf(bad, "%s%s", bad->len ? "," : "",
                                   m->name + (g_str_has_prefix(m->name, "machinecheck")
                                              ? strlen("machinecheck") : 0));
    }
    if (n == 0)
        rv_findings_add(c->rep->findings, RV_FINDING_NOTE, "mce.ignore_ce", NULL, w,
                        c->rep->live ? "none" : "unknown", NULL,
                        "no /sys/devices/system/machinecheck/machinecheckN/ignore_ce %s",
                        c->rep->live ? "on this host (no x86 MCE)" : "in this root");
    else if (bad->len)
        rv_findings_add(c->rep->findings, RV_FINDING_FAIL, "mce.ignore_ce", NULL, w, bad->str, apply,
                        "machine-check ignore_ce differs from %s on CPUs %s: corrected-error polling "
                        "timers still fire", w, bad->str);
    else
        rv_findings_add(c->rep->findings, RV_FINDING_PASS, "mce.ignore_ce", NULL, w, w, NULL,
                        "machine-check ignore_ce = %s on all %u CPUs", w, n);
}

/* [memory] thp: the selected transparent_hugepage/enabled mode. */
static void
check_thp(RvCheckCtx *c, const char *apply)
{
    const RvHostProfile *p = c->p;
    const char *w = rv_host_thp_name(p->thp);

    if (!c->st->thp_enabled)
        rv_findings_add(c->rep->findings, RV_FINDING_NOTE, "thp", NULL, w, "unknown", NULL,
                        "transparent_hugepage/enabled is unknown");
    else if (strcmp(c->st->thp_enabled, w) != 0)
        rv_findings_add(c->rep->findings, RV_FINDING_FAIL, "thp", NULL, w, c->st->thp_enabled, apply,
                        "transparent hugepages are '%s', the profile wants '%s' (khugepaged and "
                        "compaction stalls)", c->st->thp_enabled, w);
    else
        rv_findings_add(c->rep->findings, RV_FINDING_PASS, "thp", NULL, w, w, NULL,
                        "transparent hugepages are '%s'", w);
}

/* [kernel] workqueue_cpumask: unbound workqueues on the housekeeping (or listed) CPUs. */
static void
check_workqueue(RvCheckCtx *c, const char *apply)
{
    const RvHostProfile *p = c->p;
    const RvCpuSet *want = p->workqueue_cpumask == RV_HOST_CPUSEL_LIST ? &p->workqueue_cpus
                                                                     : &c->rep->housekeeping;
    g_autofree char *w = rv_check_fmt_cpus(want);

    if (!c->st->workqueue_cpumask.known) {
        rv_findings_add(c->rep->findings, RV_FINDING_NOTE, "workqueue.cpumask", NULL, w, "unknown", NULL,
                        "/sys/devices/virtual/workqueue/cpumask is unknown");
    } else {
        RvCpuSet have;
        g_autofree char *h = NULL;

        rv_cpuset_and(&have, &c->st->workqueue_cpumask.set, &c->topo->online);
        h = rv_check_fmt_cpus(&have);
        if (!rv_cpuset_equal(&have, want)) {
            RvCpuSet bad;

            rv_cpuset_and(&bad, &have, &c->rep->isolated);
            rv_findings_add(c->rep->findings, RV_FINDING_FAIL, "workqueue.cpumask", &bad, w, h, apply,
                            "unbound workqueues may run on CPUs %s, the profile wants %s", h, w);
        } else {
            rv_findings_add(c->rep->findings, RV_FINDING_PASS, "workqueue.cpumask", NULL, w, h, NULL,
                            "unbound workqueues run on CPUs %s", h);
        }
    }
}

/* [cpu] governor: cpufreq scaling_governor of every CPU with cpufreq. */
static void
check_governor(RvCheckCtx *c, const char *apply)
{
    const RvHostProfile *p = c->p;
    RvCpuSet bad, none;
    g_autoptr(GString) seen = g_string_new(NULL);

    rv_cpuset_zero(&bad);
    rv_cpuset_zero(&none);
    for (guint i = 0; i < c->st->cpus->len; i++) {
        const RvCpuPower *pw = &g_array_index(c->st->cpus, RvCpuPower, i);

        if (!pw->governor)
            rv_cpuset_set(&none, pw->cpu);
        else if (strcmp(pw->governor, p->governor) != 0) {
            rv_cpuset_set(&bad, pw->cpu);
            if (!strstr(seen->str, pw->governor))
                g_string_append_printf(seen, "%s%s", seen->len ? "," : "", pw->governor);
        }
    }
    if (!rv_cpuset_is_empty(&bad)) {
        g_autofree char *b = rv_check_fmt_cpus(&bad);
        rv_findings_add(c->rep->findings, RV_FINDING_FAIL, "governor", &bad, p->governor, seen->str, apply,
                        "CPUs %s run cpufreq governor %s, the profile wants %s", b, seen->str, p->governor);
    } else if (c->st->cpus->len && rv_cpuset_count(&none) == c->st->cpus->len) {
        rv_findings_add(c->rep->findings, RV_FINDING_NOTE, "governor.no-cpufreq", NULL, p->governor,
                        c->rep->live ? "none" : "unknown", NULL,
                        c->rep->live ? "no cpufreq on this host (firmware or hypervisor sets the "
                                       "frequency): governor %s cannot be set"
                                     : "no cpufreq files in this root (no cpufreq driver, or not "
                                       "captured): governor %s not checked", p->governor);
    } else if (c->st->cpus->len) {
        rv_findings_add(c->rep->findings, RV_FINDING_PASS, "governor", NULL, p->governor, p->governor, NULL,
                        "every CPU with cpufreq runs governor %s", p->governor);
    }
}

/* [cpu] idle_max_latency_us: no enabled idle state slower to leave, on the checked CPUs. */
static void
check_idle(RvCheckCtx *c, const char *apply)
{
    const RvHostProfile *p = c->p;
    RvCpuSet scope, bad, without;
    g_autoptr(GString) states = g_string_new(NULL);
    g_autofree char *w = g_strdup_printf("exit latency <= %" G_GINT64_FORMAT " us",
                                         p->idle_max_latency_us.value);
    const char *idle = c->cmd ? c->cmd->idle : NULL;

    scope = p->idle_cpus == RV_HOST_CPUSEL_ALL || !c->rep->has_partition
            ? c->topo->online : c->rep->isolated;
    rv_cpuset_zero(&bad);
    rv_cpuset_zero(&without);
    for (guint i = 0; i < c->st->cpus->len; i++) {
        const RvCpuPower *pw = &g_array_index(c->st->cpus, RvCpuPower, i);

        if (!rv_cpuset_isset(&scope, pw->cpu))
            continue;
        if (pw->idle_states->len == 0)
            rv_cpuset_set(&without, pw->cpu);
        for (guint k = 0; k < pw->idle_states->len; k++) {
            const RvIdleState *s = &g_array_index(pw->idle_states, RvIdleState, k);

            if (s->latency_us.known && s->latency_us.value > p->idle_max_latency_us.value &&
                s->disabled != RV_TRI_YES) {
                g_autofree char *tag = g_strdup_printf("%s(%" G_GINT64_FORMAT "us)",
                                                       s->name ? s->name : "?",
                                                       s->latency_us.value);
                rv_cpuset_set(&bad, pw->cpu);
                if (!strstr(states->str, tag))
                    g_string_append_printf(states, "%s%s", states->len ? "," : "", tag);
            }
        }
    }
    if (idle && strcmp(idle, "poll") == 0) {
        rv_findings_add(c->rep->findings, RV_FINDING_PASS, "idle.deep-states", NULL, w, "idle=poll", NULL,
                        "idle=poll: CPUs never enter idle states");
    } else if (!rv_cpuset_is_empty(&bad) && c->st->cpu_dma_latency_us.known &&
               c->st->cpu_dma_latency_us.value <= p->idle_max_latency_us.value) {
        /* the cpuidle governors skip states whose exit latency is above
         * the CPU latency QoS target (drivers/cpuidle/governors/menu.c,
         * teo.c: cpuidle_governor_latency_req()): how tuned's
         * force_latency holds every CPU while it runs */
        g_autofree char *q = g_strdup_printf("/dev/cpu_dma_latency = %" G_GINT64_FORMAT " us",
                                             c->st->cpu_dma_latency_us.value);

        rv_findings_add(c->rep->findings, RV_FINDING_PASS, "idle.deep-states", NULL, w, q, NULL,
                        "idle states %s are enabled but the CPU latency QoS target (%s) keeps the "
                        "cpuidle governor out of them while its holder runs", states->str, q);
    } else if (!rv_cpuset_is_empty(&bad)) {
        g_autofree char *b = rv_check_fmt_cpus(&bad);
        rv_findings_add(c->rep->findings, RV_FINDING_FAIL, "idle.deep-states", &bad, w, states->str, apply,
                        "CPUs %s may enter idle states %s, slower to leave than the profile's %"
                        G_GINT64_FORMAT " us", b, states->str, p->idle_max_latency_us.value);
    } else if (!rv_cpuset_is_empty(&scope) && rv_cpuset_equal(&without, &scope)) {
        rv_findings_add(c->rep->findings, RV_FINDING_NOTE, "idle.no-cpuidle", NULL, w,
                        c->rep->live ? "none" : "unknown",
                        NULL, c->rep->live ? "no cpuidle states are exposed for the checked CPUs"
                                           : "no cpuidle files in this root for the checked CPUs "
                                             "(no cpuidle, or not captured)");
    } else if (!rv_cpuset_is_empty(&scope)) {
        rv_findings_add(c->rep->findings, RV_FINDING_PASS, "idle.deep-states", NULL, w, NULL, NULL,
                        "no enabled idle state slower than %" G_GINT64_FORMAT " us on the checked CPUs",
                        p->idle_max_latency_us.value);
    }
}

void
rv_check_runtime(RvCheckCtx *c)
{
    const RvHostProfile *p = c->p;
    const char *apply = "rtvirt host apply PROFILE";

    check_int(c, "rt-throttling", "kernel.sched_rt_runtime_us", &p->rt_runtime_us,
              &c->st->rt_runtime_us, apply);
    check_int(c, "timer_migration", "kernel.timer_migration", &p->timer_migration,
              &c->st->timer_migration, apply);
    check_int(c, "numa_balancing", "kernel.numa_balancing", &p->numa_balancing,
              &c->st->numa_balancing, apply);
    check_int(c, "nmi_watchdog", "kernel.nmi_watchdog", &p->nmi_watchdog,
              &c->st->nmi_watchdog, apply);
    check_int(c, "ksm", "/sys/kernel/mm/ksm/run", &p->ksm_run, &c->st->ksm_run, apply);
    if (p->mce_ignore_ce.set)
        check_mce(c, apply);
    if (p->thp != RV_HOST_THP_UNSET)
        check_thp(c, apply);
    if (p->workqueue_cpumask != RV_HOST_CPUSEL_UNSET && c->rep->has_partition)
        check_workqueue(c, apply);
    if (p->governor)
        check_governor(c, apply);
    if (p->idle_max_latency_us.set)
        check_idle(c, apply);
}

/* Receive packet steering onto isolated CPUs: a queue whose rps_cpus
 * names an isolated CPU has its packets processed there in NET_RX softirq,
 * whatever the IRQ affinity.  OpenShift's performance profile steers RPS to
 * the reserved CPUs (cluster-node-tuning-operator assets/performanceprofile/
 * configs/99-default-rps-mask.conf, scripts/set-rps-mask.sh); Documentation/
 * networking/scaling.rst (RPS Configuration: rps_cpus, 0 = off). */
void
rv_check_rps(RvCheckCtx *c)
{
    g_autoptr(GString) hit = g_string_new(NULL);
    RvCpuSet cpus;
    unsigned n = 0, on = 0;

    if (rv_cpuset_is_empty(&c->iso_actual) || !c->st->rps || !c->st->rps->len)
        return;
    rv_cpuset_zero(&cpus);
    for (guint i = 0; i < c->st->rps->len; i++) {
        const RvStateRps *r = c->st->rps->pdata[i];
        RvCpuSet o;

        if (!rv_cpuset_is_empty(&r->cpus))
            on++;
        rv_cpuset_and(&o, &r->cpus, &c->iso_actual);
        if (rv_cpuset_is_empty(&o))
            continue;
        rv_cpuset_or(&cpus, &cpus, &o);
        if (n++ < 4)
            g_string_append_printf(hit, "%s%s", hit->len ? ", " : "", r->path);
    }
    if (n) {
        g_autofree char *cs = rv_check_fmt_cpus(&cpus);

        if (n > 4)
            g_string_append_printf(hit, " and %u more", n - 4);
        rv_findings_add(c->rep->findings, RV_FINDING_WARN, "rps.on-isolated", &cpus, NULL, hit->str,
                        "write a mask of housekeeping CPUs (or 0) to each rps_cpus and to "
                        "net.core.rps_default_mask, e.g. from a udev rule as OpenShift's performance "
                        "profile does",
                        "%u of %u receive packet steering masks include isolated CPUs %s: packets of "
                        "those queues are processed there in softirq: %s", n, c->st->rps->len, cs,
                        hit->str);
    } else {
        rv_findings_add(c->rep->findings, RV_FINDING_PASS, "rps.on-isolated", NULL, NULL, NULL, NULL,
                        "no receive packet steering mask includes an isolated CPU (%u masks, %u set)",
                        c->st->rps->len, on);
    }
}

/* sysfs prints bool module parameters as Y/N; profiles write 0/1 too. */
static bool
values_equal(const char *a, const char *b)
{
    static const char * const yes[] = { "1", "Y", "y", "yes", "on", "true", NULL };
    static const char * const no[] = { "0", "N", "n", "no", "off", "false", NULL };
    g_auto(GStrv) wa = g_strsplit_set(a, " \t", -1);
    g_auto(GStrv) wb = g_strsplit_set(b, " \t", -1);
    g_autofree char *ja = NULL, *jb = NULL;
    GPtrArray *pa = g_ptr_array_new(), *pb = g_ptr_array_new();

    for (int i = 0; wa[i]; i++)
        if (*wa[i])
            g_ptr_array_add(pa, wa[i]);
    for (int i = 0; wb[i]; i++)
        if (*wb[i])
            g_ptr_array_add(pb, wb[i]);
    g_ptr_array_add(pa, NULL);
    g_ptr_array_add(pb, NULL);
    ja = g_strjoinv(" ", (char **) pa->pdata);
    jb = g_strjoinv(" ", (char **) pb->pdata);
    g_ptr_array_free(pa, TRUE);
    g_ptr_array_free(pb, TRUE);
    if (strcmp(ja, jb) == 0)
        return true;
    return (g_strv_contains(yes, ja) && g_strv_contains(yes, jb)) ||
           (g_strv_contains(no, ja) && g_strv_contains(no, jb));
}

void
rv_check_knobs(RvCheckCtx *c)
{
    /* c->st->sysctls and ->module_params hold the profile's, in its order */
    for (guint i = 0; i < c->p->sysctls->len; i++) {
        const RvHostKnob *k = c->p->sysctls->pdata[i];
        const RvStateKnob *have = c->st->sysctls->pdata[i];
        const char *path = have->path, *v = have->value;

        if (!v && c->rep->live)
            rv_findings_add(c->rep->findings, RV_FINDING_NOTE, "sysctl.absent", NULL, k->value, NULL, NULL,
                            "sysctl %s does not exist on this kernel (%s)", k->key, path);
        else if (!v)
            rv_findings_add(c->rep->findings, RV_FINDING_NOTE, "sysctl", NULL, k->value, "unknown", NULL,
                            "sysctl %s is unknown: %s is not in this root", k->key, path);
        else if (!values_equal(v, k->value))
            rv_findings_add(c->rep->findings, RV_FINDING_FAIL, "sysctl", NULL, k->value, v,
                            "rtvirt host apply PROFILE",
                            "sysctl %s is %s, the profile wants %s", k->key, v, k->value);
        else
            rv_findings_add(c->rep->findings, RV_FINDING_PASS, "sysctl", NULL, k->value, v, NULL,
                            "sysctl %s is %s", k->key, v);
    }
    for (guint i = 0; i < c->p->module_params->len; i++) {
        const RvHostKnob *k = c->p->module_params->pdata[i];
        const RvStateKnob *have = c->st->module_params->pdata[i];
        const char *dot = strchr(k->key, '.');
        g_autofree char *mod = g_strndup(k->key, dot - k->key);
        const char *v = have->value;

        if (!c->rep->live && !c->st->sys_module)
            rv_findings_add(c->rep->findings, RV_FINDING_NOTE, "module.param", NULL, k->value,
                            "unknown", NULL,
                            "module parameter %s is unknown: /sys/module is not in this root", k->key);
        else if (!have->module_loaded)
            rv_findings_add(c->rep->findings, RV_FINDING_NOTE, "module.absent", NULL, k->value, NULL, NULL,
                            "module %s is not loaded: %s not checked", mod, k->key);
        else if (!v)
            rv_findings_add(c->rep->findings, RV_FINDING_NOTE, "module.absent", NULL, k->value, NULL, NULL,
                            "module %s has no parameter %s on this kernel", mod, dot + 1);
        else if (!values_equal(v, k->value))
            rv_findings_add(c->rep->findings, RV_FINDING_FAIL, "module.param", NULL, k->value, v,
                            "set it in /etc/modprobe.d and reload the module (or reboot)",
                            "module parameter %s is %s, the profile wants %s", k->key, v, k->value);
        else
            rv_findings_add(c->rep->findings, RV_FINDING_PASS, "module.param", NULL, k->value, v, NULL,
                            "module parameter %s is %s", k->key, v);
    }
}
