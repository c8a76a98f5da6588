/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * host/check/check-jitter.c: `host check` judges of the per-CPU work the
 * kernel documents as jitter on isolated CPUs, and of the boot arguments
 * that are written but do not do what their writer meant
 * (host/check/check-priv.h).
 *
 * Ids: nohz_full.missing  skew_tick.missing  rcu_nocb_poll.missing
 *   watchdog.on-isolated  idle.max-cstate-ignored  idle.poll-smt
 *   clocksource.slow
 *
 * Sources: Documentation/timers/no_hz.rst (adaptive ticks, nohz_full=),
 * Documentation/admin-guide/kernel-per-CPU-kthreads.rst (ksoftirqd:
 * SCHED_SOFTIRQ and RCU_SOFTIRQ want nohz_full=),
 * Documentation/admin-guide/kernel-parameters.txt (skew_tick=,
 * rcu_nocb_poll, nowatchdog, nosoftlockup, processor.max_cstate=,
 * intel_idle.max_cstate=, idle=, tsc=, clocksource=),
 * Documentation/admin-guide/sysctl/kernel.rst (watchdog, soft_watchdog,
 * nmi_watchdog, watchdog_cpumask), Documentation/admin-guide/
 * lockup-watchdogs.rst, Documentation/arch/x86/x86_64/boot-options.rst
 * (idle=poll and hyperthreading), Documentation/admin-guide/pm/cpuidle.rst
 * (intel_idle and acpi_idle are different drivers).
 */
#include <string.h>

#include "host/check/check-priv.h"

#define BOOTARGS_FIX "rtvirt host bootargs PROFILE --install, then reboot"

/* Isolated CPUs without adaptive ticks: the scheduling-clock tick keeps
 * firing at HZ on them (each one a VM exit under a running vCPU). */
static void
check_nohz_full(RvCheckCtx *c, const RvCpuSet *iso)
{
    const RvCmdline *cmd = c->cmd;
    RvCpuSet ticking;
    g_autofree char *t = NULL;

    if (c->p->nohz_full != RV_HOST_TRI_UNSET)
        return;   /* the profile decided; bootarg.* judges it */
    ticking = *iso;
    if (cmd->nohz_full.present && !cmd->nohz_full.ignored)
        rv_cpuset_andnot(&ticking, &ticking, &cmd->nohz_full.effective);
    if (c->st->nohz_full.known)
        rv_cpuset_andnot(&ticking, &ticking, &c->st->nohz_full.set);
    if (rv_cpuset_is_empty(&ticking))
        return;
    t = rv_check_fmt_cpus(&ticking);
    /* a profile that asks for isolcpus= and leaves nohz_full out chose
     * isolation without adaptive ticks: told, not warned */
    rv_findings_add(c->rep->findings, c->p->isolcpus == RV_HOST_TRI_YES ? RV_FINDING_NOTE : RV_FINDING_WARN,
                    "nohz_full.missing", &ticking, "nohz_full", NULL,
                    "add nohz_full=<isolated CPUs> and rcu_nocbs=<isolated CPUs> beside isolcpus= "
                    "(a kernel built with CONFIG_NO_HZ_FULL), then reboot",
                    "isolated CPUs %s are not nohz_full: the scheduling-clock tick keeps interrupting "
                    "them at HZ even with one task running%s", t,
                    c->st->nohz_full.exists ? ""
                                            : " (and this kernel shows no /sys/devices/system/cpu/nohz_full: "
                                              "built without CONFIG_NO_HZ_FULL?)");
}

/* skew_tick=1 and rcu_nocb_poll: advice of kernel-parameters.txt (skew_tick=
 * for jitter-sensitive loads; rcu_nocb_poll relieves offloaded CPUs of
 * waking their rcuo kthreads), NOTE only. */
static void
check_tick_advice(RvCheckCtx *c)
{
    const RvCmdline *cmd = c->cmd;
    bool nohz = cmd->nohz_full.present && !cmd->nohz_full.ignored &&
                !rv_cpuset_is_empty(&cmd->nohz_full.effective);

    if (nohz && c->p->skew_tick == RV_HOST_TRI_UNSET && cmd->skew_tick != 1)
        rv_findings_add(c->rep->findings, RV_FINDING_NOTE, "skew_tick.missing", NULL, "skew_tick=1",
                        cmd->skew_tick < 0 ? NULL : "skew_tick=0", NULL,
                        "no skew_tick=1: the housekeeping CPUs' ticks fire at the same instant and "
                        "contend on the timekeeping and RCU locks (the kernel documents it for "
                        "jitter-sensitive RT/HPC loads)");
    if (cmd->rcu_nocbs.present && !cmd->rcu_nocbs.ignored && !rv_cpuset_is_empty(&cmd->rcu_nocbs.effective) &&
        c->p->rcu_nocb_poll == RV_HOST_TRI_UNSET && !cmd->rcu_nocb_poll)
        rv_findings_add(c->rep->findings, RV_FINDING_NOTE, "rcu_nocb_poll.missing",
                        &cmd->rcu_nocbs.effective, "rcu_nocb_poll", NULL, NULL,
                        "rcu_nocbs= without rcu_nocb_poll: the offloaded CPUs still wake their rcuog "
                        "kthreads themselves when they queue callbacks; rcu_nocb_poll moves that to "
                        "polling on the housekeeping CPUs (at the cost of their power)");
}

/* The lockup detectors' hrtimer runs on every CPU of watchdog_cpumask
 * while either detector is on (kernel/watchdog.c: the soft lockup timer
 * also feeds the hard lockup check); nohz_full= shrinks the mask to the
 * housekeeping CPUs by default, isolcpus= alone does not. */
static void
check_watchdog(RvCheckCtx *c, const RvCpuSet *iso)
{
    const RvHostState *st = c->st;
    RvCpuSet on;
    g_autofree char *o = NULL, *m = NULL;
    bool soft = st->soft_watchdog.known && st->soft_watchdog.value == 1;
    bool hard = st->nmi_watchdog.known && st->nmi_watchdog.value == 1;

    if (!st->watchdog_cpumask.known || (st->watchdog.known && st->watchdog.value == 0) ||
        (!soft && !hard))
        return;
    rv_cpuset_and(&on, &st->watchdog_cpumask.set, iso);
    if (rv_cpuset_is_empty(&on))
        return;
    o = rv_check_fmt_cpus(&on);
    m = g_strdup_printf("watchdog_cpumask %s, soft_watchdog %s, nmi_watchdog %s",
                        st->watchdog_cpumask.raw, soft ? "1" : "0", hard ? "1" : "0");
    rv_findings_add(c->rep->findings, RV_FINDING_WARN, "watchdog.on-isolated", &on, NULL, m,
                    "boot with nowatchdog (or nosoftlockup and nmi_watchdog=0), or write the "
                    "housekeeping CPUs to /proc/sys/kernel/watchdog_cpumask",
                    "the lockup watchdog runs on isolated CPUs %s (%s): its hrtimer fires on each of "
                    "them every few seconds%s", o, m,
                    hard ? ", and the NMI hard-lockup check with it" : "");
}

/* processor.max_cstate= limits the ACPI processor driver (acpi_idle);
 * intel_idle.max_cstate= limits intel_idle, and 0 switches it off, which
 * leaves acpi_idle with every C-state the firmware lists.  Each limit
 * binds one driver only: judged against the driver in charge. */
static void
check_max_cstate(RvCheckCtx *c)
{
    const RvCmdline *cmd = c->cmd;
    const char *drv = c->st->cpuidle_driver;
    g_autofree char *w = NULL;

    if (cmd->processor_max_cstate >= 0 && cmd->intel_idle_max_cstate < 0 &&
        g_strcmp0(drv, "intel_idle") == 0) {
        w = g_strdup_printf("processor.max_cstate=%d", cmd->processor_max_cstate);
        rv_findings_add(c->rep->findings, RV_FINDING_WARN, "idle.max-cstate-ignored", NULL,
                        "intel_idle.max_cstate", w,
                        "limit the states intel_idle uses: disable the deep states of the isolated CPUs "
                        "([cpu] idle_max_latency_us, rtvirt host apply PROFILE) or boot with "
                        "intel_idle.max_cstate=N as well",
                        "%s is on the command line but the idle driver is intel_idle: that limit "
                        "belongs to the ACPI processor driver (acpi_idle), so the CPUs still enter every "
                        "C-state intel_idle knows", w);
    } else if (cmd->intel_idle_max_cstate == 0 && cmd->processor_max_cstate < 0 &&
               g_strcmp0(drv, "acpi_idle") == 0) {
        rv_findings_add(c->rep->findings, RV_FINDING_WARN, "idle.max-cstate-ignored", NULL,
                        "processor.max_cstate", "intel_idle.max_cstate=0",
                        "boot with processor.max_cstate=1 as well, or disable the deep states of the "
                        "isolated CPUs ([cpu] idle_max_latency_us, rtvirt host apply PROFILE)",
                        "intel_idle.max_cstate=0 switched intel_idle off and acpi_idle took over "
                        "without a limit: the CPUs enter every C-state the firmware's _CST lists");
    }
}

/* idle=poll keeps every idle SMT thread spinning on its core's execution
 * units, beside the RT sibling. */
static void
check_idle_poll(RvCheckCtx *c)
{
    if (g_strcmp0(c->cmd->idle, "poll") != 0 || !c->smt_active)
        return;
    rv_findings_add(c->rep->findings, RV_FINDING_WARN, "idle.poll-smt", NULL, NULL, "idle=poll",
                    "drop idle=poll while SMT is on: keep the isolated CPUs out of deep C-states "
                    "with [cpu] idle_max_latency_us (or /dev/cpu_dma_latency), or turn SMT off",
                    "idle=poll with SMT on: every idle thread spins on the core it shares with its "
                    "sibling, taking issue slots and power headroom from the RT thread beside it");
}

/* A clocksource other than the TSC on x86 (hpet, acpi_pm): each clock
 * read is an uncached device access, and the kernel fell back to it
 * because it distrusts the TSC. */
static void
check_clocksource(RvCheckCtx *c)
{
    static const char *const slow[] = { "hpet", "acpi_pm", "jiffies", "refined-jiffies", "pit", NULL };
    const char *cs = c->st->clocksource;

    if (!cs || !g_strv_contains(slow, cs))
        return;
    rv_findings_add(c->rep->findings, RV_FINDING_WARN, "clocksource.slow", NULL, "tsc", cs,
                    "find why the TSC was refused (dmesg | grep -i -e tsc -e clocksource); when the "
                    "TSC is invariant and the firmware leaves it alone, boot with tsc=reliable "
                    "(clocksource=tsc alone is refused once the TSC is marked unstable)",
                    "the clocksource is %s, not tsc: every clock read (timers, clock_gettime, "
                    "cyclictest's own clock) goes to a slow device, and the kernel chose it because it "
                    "marked the TSC unstable or was told to", cs);
}

void
rv_check_jitter(RvCheckCtx *c)
{
    bool rt = rv_check_profile_wants_rt(c->p);

    if (c->cmd) {
        if (!rv_cpuset_is_empty(&c->iso_actual))
            check_nohz_full(c, &c->iso_actual);
        if (rt || !rv_cpuset_is_empty(&c->iso_actual)) {
            check_tick_advice(c);
            check_max_cstate(c);
            check_idle_poll(c);
        }
    }
    if (!rv_cpuset_is_empty(&c->iso_actual))
        check_watchdog(c, &c->iso_actual);
    if (rt || !rv_cpuset_is_empty(&c->iso_actual))
        check_clocksource(c);
}
