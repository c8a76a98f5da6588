/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * host/check.c: the findings engine of `rtvirt host check`.
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
 *   rtgroup.trap  rtgroup.avoided  rtgroup.none  rtgroup.unknown
 *   rt-throttling  timer_migration  numa_balancing  nmi_watchdog  thp  ksm
 *   workqueue.cpumask  governor  governor.no-cpufreq  idle.deep-states  idle.no-cpuidle
 *   kthread.priority  kthread.absent
 *   sysctl  sysctl.absent  module.param  module.absent
 *   libvirt.sched-core  libvirt.sched-core-unsupported  libvirt.cgroup-controllers
 *   libvirt.qemu-conf-unknown  state.problem
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
#include <sched.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

#include "host/bootargs.h"
#include "host/check.h"
#include "host/report.h"
#include "host/cmdline.h"
#include "host/partition.h"
#include "host/qemu-conf.h"
#include "host/irq.h"
#include "host/state.h"
#include "host/threads.h"
#include "host/topology.h"
#include "util/error.h"

typedef struct {
    RvRoot *root;
    const RvHostProfile *p;
    RvTopology *topo;
    RvCmdline *cmd;          /* NULL when /proc/cmdline is unreadable */
    RvHostState *st;
    RvCheckReport *rep;
    RvHostPartition *plan;   /* whole-core plan of the profile, NULL when invalid */
    GArray *tasks;           /* RvTask per process (/proc/PID/stat), lazily read */
    bool smt_active;         /* some core has two online threads */
    RvCpuSet iso_actual;     /* isolated now: sysfs isolated | nohz_full */
    bool iso_actual_known;
    RvQemuConf *qemu_conf;   /* NULL when unreadable or refused by libvirt's parser */
    char *qemu_conf_error;
} Ctx;

static const char * const level_names[] = { "PASS", "NOTE", "WARN", "FAIL" };

const char *
rv_host_check_level_name(RvCheckLevel level)
{
    return level <= RV_CHECK_FAIL ? level_names[level] : "?";
}

static void
finding_free(gpointer data)
{
    RvCheckFinding *f = data;

    g_free(f->id);
    g_free(f->message);
    g_free(f->fix);
    g_free(f->expected);
    g_free(f->actual);
    g_free(f);
}

void
rv_host_check_report_free(RvCheckReport *rep)
{
    if (!rep)
        return;
    g_free(rep->profile_path);
    g_free(rep->profile_name);
    g_free(rep->root);
    g_free(rep->kernel_release);
    if (rep->findings)
        g_ptr_array_unref(rep->findings);
    g_free(rep);
}

/* Adds a finding; @cpus may be NULL; @expected/@actual/@fix may be NULL. */
static RvCheckFinding *
add(Ctx *c, RvCheckLevel level, const char *id, const RvCpuSet *cpus,
    const char *expected, const char *actual, const char *fix, const char *fmt, ...)
    G_GNUC_PRINTF(8, 9);

static RvCheckFinding *
add(Ctx *c, RvCheckLevel level, const char *id, const RvCpuSet *cpus,
    const char *expected, const char *actual, const char *fix, const char *fmt, ...)
{
    RvCheckFinding *f = g_new0(RvCheckFinding, 1);
    va_list ap;

    f->level = level;
    f->id = g_strdup(id);
    va_start(ap, fmt);
    f->message = g_strdup_vprintf(fmt, ap);
    va_end(ap);
    f->fix = g_strdup(fix);
    if (cpus) {
        f->has_cpus = true;
        f->cpus = *cpus;
    }
    f->expected = g_strdup(expected);
    f->actual = g_strdup(actual);
    g_ptr_array_add(c->rep->findings, f);
    c->rep->counts[level]++;
    return f;
}

static char *
fmt_cpus(const RvCpuSet *s)
{
    char *l = rv_cpulist_format(s);

    if (!*l) {
        g_free(l);
        return g_strdup("(none)");
    }
    return l;
}

/* ---- small readers -------------------------------------------------- */

/* Every process from /proc/PID/stat, parsed by host/threads.h: a profile
 * may name any kthread, not only the RT-relevant ones
 * rv_host_rt_threads_load() keeps, and daemons (irqbalance) matter too. */
static GArray *
read_tasks(RvRoot *root)
{
    g_autoptr(GPtrArray) names = NULL;
    GArray *out = g_array_new(FALSE, TRUE, sizeof(RvTask));

    g_array_set_clear_func(out, (GDestroyNotify) rv_host_task_clear);
    if (rv_host_root_list(root, "/proc", &names, NULL) < 0)
        return out;
    for (guint i = 0; i < names->len; i++) {
        const char *n = names->pdata[i];
        g_autofree char *path = NULL, *text = NULL;
        RvTask t = { 0 };
        gint64 pid;

        if (!g_ascii_string_to_signed(n, 10, 1, G_MAXINT, &pid, NULL))
            continue;
        path = g_strdup_printf("/proc/%s/stat", n);
        if (rv_host_root_read(root, path, &text, NULL) < 0)
            continue;
        if (rv_host_parse_proc_stat(text, &t) < 0)
            continue;
        g_array_append_val(out, t);
    }
    return out;
}

static GArray *
tasks(Ctx *c)
{
    if (!c->tasks)
        c->tasks = read_tasks(c->root);
    return c->tasks;
}

static char *
sched_name(int policy, int prio)
{
    switch (policy) {
    case SCHED_FIFO: return g_strdup_printf("fifo:%d", prio);
    case SCHED_RR: return g_strdup_printf("rr:%d", prio);
    case SCHED_OTHER: return g_strdup("other");
    case SCHED_BATCH: return g_strdup("batch");
    case SCHED_IDLE: return g_strdup("idle");
    default: return g_strdup_printf("policy%d:%d", policy, prio);
    }
}

/* ---- partition and isolation ------------------------------------------ */

static void
check_coresplit(Ctx *c, const RvCpuSet *iso)
{
    RvCpuSet bad, hk_sib;

    rv_cpuset_zero(&bad);
    rv_cpuset_zero(&hk_sib);
    rv_cpuset_foreach(cpu, iso) {
        RvCpuSet sib;

        if (rv_host_topology_siblings(c->topo, cpu, &sib) < 0)
            continue;
        rv_cpuset_and(&sib, &sib, &c->topo->online);
        rv_cpuset_andnot(&sib, &sib, iso);
        if (!rv_cpuset_is_empty(&sib)) {
            rv_cpuset_set(&bad, cpu);
            rv_cpuset_or(&hk_sib, &hk_sib, &sib);
        }
    }
    if (!rv_cpuset_is_empty(&bad)) {
        g_autofree char *b = fmt_cpus(&bad), *h = fmt_cpus(&hk_sib);
        /* WARN: the sources' verdict ("a validator should warn 'housekeeping
         * CPU 0 shares a core with isolated CPU 36'", tuned realtime-variables
         * .source.txt); a profile's whole-core intent not met is the FAIL of
         * isolation.mismatch */
        add(c, RV_CHECK_WARN, "isolation.sibling-housekeeping", &bad, NULL, h,
            "isolate whole cores: add the siblings to the isolated set, or move the isolated "
            "CPUs' cores out of it (rtvirt host bootargs computes whole-core lists)",
            "isolated CPUs %s share a core with housekeeping CPUs %s (SMT siblings): "
            "interrupts and kernel threads on the sibling steal the core's pipeline and caches",
            b, h);
    } else if (c->smt_active && !rv_cpuset_is_empty(iso)) {
        add(c, RV_CHECK_PASS, "isolation.smt-clean", iso, NULL, NULL, NULL,
            "every isolated CPU's SMT siblings are isolated too (whole cores)");
    }
}

/* Per-socket intent met by the host's present isolation? */
static bool
per_socket_satisfied(Ctx *c, const RvCpuSet *iso, GString *why)
{
    const RvHostProfile *p = c->p;

    for (guint i = 0; i < c->topo->packages->len; i++) {
        const RvCpuGroup *g = &g_array_index(c->topo->packages, RvCpuGroup, i);
        unsigned hk = 0, isol = 0;

        for (guint j = 0; j < c->topo->cores->len; j++) {
            const RvCore *core = &g_array_index(c->topo->cores, RvCore, j);
            RvCpuSet on;

            if (core->package != g->id)
                continue;
            rv_cpuset_and(&on, &core->threads, &c->topo->online);
            if (rv_cpuset_is_empty(&on))
                continue;
            if (rv_cpuset_is_subset(&on, iso)) {
                isol++;
            } else if (rv_cpuset_intersects(&on, iso)) {
                g_autofree char *l = fmt_cpus(&on);
                g_string_append_printf(why, "%score %s split between isolated and housekeeping",
                                       why->len ? "; " : "", l);
                return false;
            } else {
                hk++;
            }
        }
        g_string_append_printf(why, "%spackage %d: %u housekeeping, %u isolated cores",
                               why->len ? "; " : "", g->id, hk, isol);
        if (hk < p->housekeeping_cores_per_socket)
            return false;
    }
    return true;
}

static void
check_partition(Ctx *c)
{
    const RvHostProfile *p = c->p;
    RvHostPartition *plan = NULL;
    g_autoptr(GError) err = NULL;
    bool per_socket = !p->has_isolated && !p->has_housekeeping;
    bool wants_isolation = p->isolcpus == RV_HOST_TRI_YES || p->nohz_full == RV_HOST_TRI_YES ||
                           p->rcu_nocbs == RV_HOST_TRI_YES || p->has_isolated ||
                           p->has_housekeeping;

    if (rv_host_partition_compute(p, c->topo, &plan, &err) < 0) {
        add(c, RV_CHECK_FAIL, "partition.invalid", NULL, NULL, NULL,
            "fix [cpus] in the profile for this host's topology",
            "the profile's CPU partition does not fit this host: %s", err->message);
    } else {
        c->plan = plan;
        c->rep->has_partition = true;
        c->rep->isolated = plan->isolated_online;
        c->rep->housekeeping = plan->housekeeping_online;
    }

    if (!c->iso_actual_known) {
        add(c, RV_CHECK_NOTE, "isolation.unknown", NULL, NULL, "unknown", NULL,
            "the isolated CPUs are unknown: neither /sys/devices/system/cpu/isolated nor "
            "nohz_full could be read");
        if (c->rep->has_partition)
            check_coresplit(c, &c->rep->isolated);
        return;
    }

    /* A host already isolated by whole cores with at least N housekeeping
     * cores per package meets a per-socket profile even when it picked
     * other cores than the plan would: check against what it has. */
    if (per_socket && !rv_cpuset_is_empty(&c->iso_actual)) {
        g_autoptr(GString) why = g_string_new(NULL);

        if (per_socket_satisfied(c, &c->iso_actual, why)) {
            c->rep->has_partition = true;
            rv_cpuset_and(&c->rep->isolated, &c->iso_actual, &c->topo->online);
            rv_cpuset_andnot(&c->rep->housekeeping, &c->topo->online, &c->rep->isolated);
            add(c, RV_CHECK_PASS, "partition.housekeeping-cores", NULL, NULL, why->str, NULL,
                "the isolation in effect keeps at least %u housekeeping core(s) per package (%s)",
                p->housekeeping_cores_per_socket, why->str);
        } else if (c->rep->has_partition) {
            g_autofree char *e = fmt_cpus(&c->rep->isolated), *a = fmt_cpus(&c->iso_actual);
            add(c, RV_CHECK_FAIL, "isolation.mismatch", &c->iso_actual, e, a,
                "boot with the profile's arguments: rtvirt host bootargs PROFILE --install, then reboot",
                "the isolation in effect does not leave %u whole housekeeping core(s) per "
                "package: %s", p->housekeeping_cores_per_socket, why->str);
        }
    }

    if (c->rep->has_partition) {
        g_autofree char *i = fmt_cpus(&c->rep->isolated), *h = fmt_cpus(&c->rep->housekeeping);
        add(c, RV_CHECK_PASS, "partition.plan", &c->rep->isolated, NULL, NULL, NULL,
            "partition checked against: isolated %s, housekeeping %s (%s)", i, h,
            plan ? plan->how : "the host's isolation");
    }

    if (wants_isolation && rv_cpuset_is_empty(&c->iso_actual)) {
        g_autofree char *e = c->rep->has_partition ? fmt_cpus(&c->rep->isolated) : NULL;
        add(c, RV_CHECK_FAIL, "isolation.none", NULL, e, "(none)",
            "rtvirt host bootargs PROFILE --install, then reboot",
            "no CPU is isolated: /sys/devices/system/cpu/isolated is %s and nohz_full is %s",
            c->st->isolated.known ? "empty" : "unreadable",
            c->st->nohz_full.known ? "empty" : "absent (kernel without CONFIG_NO_HZ_FULL?)");
    } else if (!per_socket && c->rep->has_partition &&
               !rv_cpuset_equal(&c->iso_actual, &c->rep->isolated)) {
        g_autofree char *e = fmt_cpus(&c->rep->isolated), *a = fmt_cpus(&c->iso_actual);
        RvCpuSet diff, d2;

        rv_cpuset_andnot(&diff, &c->rep->isolated, &c->iso_actual);
        rv_cpuset_andnot(&d2, &c->iso_actual, &c->rep->isolated);
        rv_cpuset_or(&diff, &diff, &d2);
        add(c, RV_CHECK_FAIL, "isolation.mismatch", &diff, e, a,
            "rtvirt host bootargs PROFILE --install, then reboot",
            "the isolated CPUs in effect differ from the profile's");
    }
    check_coresplit(c, &c->iso_actual);
}

/* ---- SMT and core scheduling -------------------------------------------- */

static void
check_smt(Ctx *c)
{
    const RvHostProfile *p = c->p;
    const char *ctl = c->st->smt_control;
    bool hw_smt = c->topo->smt || (ctl && (strcmp(ctl, "off") == 0 || strcmp(ctl, "forceoff") == 0));

    if (!hw_smt) {
        add(c, RV_CHECK_NOTE, "smt.absent", NULL, NULL, ctl ? ctl : "unknown", NULL,
            "no SMT on this host (%u thread per core, smt/control %s): sibling checks do not apply",
            c->topo->threads_per_core, ctl ? ctl : "unknown");
        return;
    }
    switch (p->smt) {
    case RV_HOST_SMT_OFF_BOOT:
        if (c->cmd && !c->cmd->nosmt)
            add(c, RV_CHECK_FAIL, "smt.nosmt-missing", NULL, "nosmt", NULL,
                "rtvirt host bootargs PROFILE --install, then reboot",
                "the profile wants SMT off at boot but the command line has no nosmt");
        G_GNUC_FALLTHROUGH;
    case RV_HOST_SMT_OFF_RUNTIME:
        if (c->smt_active)
            add(c, RV_CHECK_FAIL, "smt.active", NULL, "off", ctl ? ctl : "unknown",
                p->smt == RV_HOST_SMT_OFF_RUNTIME ? "rtvirt host apply PROFILE (writes off to "
                "/sys/devices/system/cpu/smt/control)" : "boot with nosmt",
                "SMT is active (siblings online) but the profile wants it off (%s)",
                rv_host_smt_policy_name(p->smt));
        else
            add(c, RV_CHECK_PASS, "smt.off", NULL, "off", ctl ? ctl : "unknown", NULL,
                "SMT is off (smt/control %s)", ctl ? ctl : "unknown");
        break;
    case RV_HOST_SMT_IDLE_SIBLINGS:
        if (c->smt_active)
            add(c, RV_CHECK_PASS, "smt.idle-siblings", NULL, NULL, NULL, NULL,
                "SMT is on: place one vCPU per isolated core and keep the siblings idle");
        break;
    case RV_HOST_SMT_KEEP:
    case RV_HOST_SMT_UNSET:
        if (c->smt_active)
            add(c, RV_CHECK_NOTE, "smt.shared-cores", NULL, NULL, NULL, NULL,
                "SMT is on and vCPUs may use both siblings of a core: they share its pipeline "
                "and caches, so one vCPU's load shows up in the other's latency");
        break;
    }
}

static void
check_coresched(Ctx *c)
{
    const RvHostProfile *p = c->p;
    const char *state = rv_host_coresched_state_to_string(c->st->coresched);
    RvCheckLevel missing;

    switch (c->st->coresched) {
    case RV_CORESCHED_USABLE:
        add(c, RV_CHECK_PASS, "coresched.available", NULL, NULL, state, NULL,
            "core scheduling is usable (prctl PR_SCHED_CORE works)");
        return;
    case RV_CORESCHED_NO_SMT:
        add(c, RV_CHECK_NOTE, "coresched.no-smt", NULL, NULL, state, NULL,
            "the kernel has core scheduling but no SMT sibling is online (prctl: ENODEV): "
            "no core is shared, nothing to protect");
        return;
    case RV_CORESCHED_UNKNOWN:
        add(c, RV_CHECK_NOTE, "coresched.unknown", NULL, NULL, state, NULL,
            "whether core scheduling works is unknown (%s)",
            c->st->coresched_source ? c->st->coresched_source : "no probe on a fixture root");
        return;
    case RV_CORESCHED_UNSUPPORTED:
        break;
    }
    /* kernel without CONFIG_SCHED_CORE */
    if (!c->smt_active)
        missing = RV_CHECK_NOTE;
    else if (p->core_scheduling == RV_HOST_CORESCHED_REQUIRED)
        missing = RV_CHECK_FAIL;
    else if (p->core_scheduling == RV_HOST_CORESCHED_PREFERRED)
        missing = RV_CHECK_WARN;
    else
        missing = RV_CHECK_NOTE;
    add(c, missing, "coresched.unavailable", NULL,
        p->core_scheduling >= RV_HOST_CORESCHED_PREFERRED ? "usable" : NULL, state,
        c->smt_active ? "boot a kernel built with CONFIG_SCHED_CORE, or turn SMT off "
                        "(smt = off-runtime / off-boot in the profile)"
                      : NULL,
        "the kernel has no core scheduling (CONFIG_SCHED_CORE off: prctl PR_SCHED_CORE "
        "fails with EINVAL)%s",
        c->smt_active ? ": vCPUs of different VMs can share a core"
                      : "; without SMT no core is shared, so nothing is lost here");
}

/* ---- boot arguments ------------------------------------------------------ */

static void
check_cpulist_arg(Ctx *c, const char *name, const RvCmdlineCpus *arg, bool wanted,
                  const RvCpuSet *want, const char *want_prefix)
{
    g_autofree char *w = fmt_cpus(want);
    g_autofree char *expect = g_strdup_printf("%s=%s%s", name, want_prefix ? want_prefix : "", w);
    g_autofree char *found = arg->present ? g_strdup_printf("%s=%s", name, arg->value ? arg->value : "")
                                          : NULL;
    RvCpuSet eff_on, want_on;

    if (!wanted)
        return;
    if (!arg->present) {
        add(c, RV_CHECK_FAIL, "bootarg.missing", want, expect, NULL,
            "rtvirt host bootargs PROFILE --install, then reboot",
            "%s= is not on the kernel command line", name);
        return;
    }
    if (arg->parse_error || arg->ignored) {
        add(c, RV_CHECK_FAIL, "bootarg.ignored", NULL, expect, found,
            "rtvirt host bootargs PROFILE --install, then reboot",
            "%s=%s is ignored by the kernel: %s", name, arg->value,
            arg->note ? arg->note : "invalid cpulist");
        return;
    }
    /* compared on online CPUs: the kernel keeps known-offline CPUs in the
     * lists (host bootargs writes whole cores, offline threads included) */
    rv_cpuset_and(&eff_on, &arg->effective, &c->topo->online);
    rv_cpuset_and(&want_on, want, &c->topo->online);
    if (!rv_cpuset_equal(&eff_on, &want_on)) {
        g_autofree char *a = fmt_cpus(&arg->effective);
        add(c, RV_CHECK_FAIL, "bootarg.mismatch", want, expect, found,
            "rtvirt host bootargs PROFILE --install, then reboot",
            "%s= covers CPUs %s, the profile wants %s", name, a, w);
        return;
    }
    if (strcmp(name, "isolcpus") == 0 && c->p->isolcpus_flags) {
        g_autoptr(GString) lack = g_string_new(NULL);

        for (int i = 0; c->p->isolcpus_flags[i]; i++) {
            const char *fl = c->p->isolcpus_flags[i];
            unsigned bit = strcmp(fl, "domain") == 0 ? RV_ISOL_DOMAIN
                         : strcmp(fl, "nohz") == 0 ? RV_ISOL_NOHZ : RV_ISOL_MANAGED_IRQ;

            if (!(c->cmd->isolcpus_flags & bit))
                g_string_append_printf(lack, "%s%s", lack->len ? "," : "", fl);
        }
        if (lack->len) {
            add(c, RV_CHECK_FAIL, "bootarg.mismatch", NULL, expect, found,
                "rtvirt host bootargs PROFILE --install, then reboot",
                "isolcpus= names the right CPUs but lacks the flag(s) %s%s", lack->str,
                strstr(lack->str, "managed_irq")
                    ? " (managed IRQs, e.g. NVMe queues, then keep firing on isolated CPUs)" : "");
            return;
        }
    }
    add(c, RV_CHECK_PASS, "bootarg.ok", want, expect, found, NULL,
        "%s=%s as the profile wants", name, arg->value);
}

static void
check_flag_arg(Ctx *c, const char *name, const char *want_value)
{
    const char *v = rv_host_cmdline_get(c->cmd, name);
    g_autofree char *expect = want_value ? g_strdup_printf("%s=%s", name, want_value)
                                         : g_strdup(name);

    if (!v && strcmp(name, "cpufreq.default_governor") == 0) {
        /* the [cpu] governor is a runtime knob (checked under "governor");
         * the boot argument only makes it the default from boot on */
        add(c, RV_CHECK_NOTE, "bootarg.missing", NULL, expect, NULL,
            "rtvirt host bootargs PROFILE --install, then reboot",
            "%s is not on the kernel command line: the governor is set at runtime only",
            expect);
    } else if (!v) {
        add(c, RV_CHECK_FAIL, "bootarg.missing", NULL, expect, NULL,
            "rtvirt host bootargs PROFILE --install, then reboot",
            "%s is not on the kernel command line", expect);
    } else if (want_value && strcmp(v, want_value) != 0) {
        g_autofree char *act = g_strdup_printf("%s=%s", name, v);
        add(c, RV_CHECK_FAIL, "bootarg.mismatch", NULL, expect, act,
            "rtvirt host bootargs PROFILE --install, then reboot",
            "the kernel command line has %s, the profile wants %s", act, expect);
    } else {
        add(c, RV_CHECK_PASS, "bootarg.ok", NULL, expect, expect, NULL,
            "%s is on the kernel command line", expect);
    }
}

static void
check_in_effect(Ctx *c, const char *name, const RvCmdlineCpus *arg, const RvStateCpus *eff,
                const char *file)
{
    if (!arg->present || arg->parse_error || arg->ignored)
        return;
    if (!eff->known) {
        add(c, RV_CHECK_NOTE, "bootarg.not-in-effect", NULL, arg->value, "unknown", NULL,
            "whether %s=%s took effect is unknown: %s unreadable", name, arg->value, file);
        return;
    }
    if (!rv_cpuset_equal(&eff->set, &arg->effective)) {
        g_autofree char *w = fmt_cpus(&arg->effective), *a = fmt_cpus(&eff->set);
        add(c, RV_CHECK_FAIL, "bootarg.not-in-effect", &arg->effective, w, a,
            "check dmesg for the kernel's reason (a kernel without the feature, CPUs "
            "not possible at boot), and that the running kernel was booted with this line",
            "%s=%s is on the command line but %s holds '%s'", name, arg->value, file,
            eff->raw ? eff->raw : "");
    }
}

static void
check_bootargs(Ctx *c)
{
    const RvHostProfile *p = c->p;
    const RvCmdline *cmd = c->cmd;
    const RvCpuSet *iso = &c->rep->isolated, *hk = &c->rep->housekeeping;
    g_autofree char *flags = NULL;

    if (!cmd) {
        add(c, RV_CHECK_NOTE, "cmdline.unknown", NULL, NULL, "unknown", NULL,
            "/proc/cmdline is unreadable: boot arguments not checked");
        return;
    }
    for (guint i = 0; i < cmd->problems->len; i++)
        add(c, RV_CHECK_WARN, "cmdline.problem", NULL, NULL, NULL,
            "correct the kernel command line", "%s", (char *) cmd->problems->pdata[i]);

    if (c->rep->has_partition) {
        if (p->isolcpus_flags) {
            g_autofree char *j = g_strjoinv(",", p->isolcpus_flags);
            flags = g_strdup_printf("%s,", j);
        }
        check_cpulist_arg(c, "isolcpus", &cmd->isolcpus, p->isolcpus == RV_HOST_TRI_YES, iso, flags);
        check_cpulist_arg(c, "nohz_full", &cmd->nohz_full, p->nohz_full == RV_HOST_TRI_YES, iso, NULL);
        check_cpulist_arg(c, "rcu_nocbs", &cmd->rcu_nocbs, p->rcu_nocbs == RV_HOST_TRI_YES, iso, NULL);
        check_cpulist_arg(c, "irqaffinity", &cmd->irqaffinity, p->irqaffinity == RV_HOST_TRI_YES, hk, NULL);
    }
    /* The other arguments `rtvirt host bootargs` installs for this profile
     * (host/bootargs.h), so that after the reboot check and bootargs agree;
     * the cpulists are compared as sets above, nosmt under smt.*. */
    {
        g_auto(GStrv) args = NULL;

        if (c->plan && rv_host_bootargs_compute(p, c->plan, &args, NULL) >= 0) {
            static const char * const as_sets[] = { "isolcpus", "nohz_full", "rcu_nocbs",
                                                    "irqaffinity", "nosmt", NULL };

            for (int i = 0; args[i]; i++) {
                const char *eq = strchr(args[i], '=');
                g_autofree char *name = eq ? g_strndup(args[i], eq - args[i]) : g_strdup(args[i]);

                if (!g_strv_contains(as_sets, name))
                    check_flag_arg(c, name, eq ? eq + 1 : NULL);
            }
        } else {
            if (p->rcu_nocb_poll == RV_HOST_TRI_YES)
                check_flag_arg(c, "rcu_nocb_poll", NULL);
            if (p->skew_tick == RV_HOST_TRI_YES)
                check_flag_arg(c, "skew_tick", "1");
            if (p->nohz)
                check_flag_arg(c, "nohz", p->nohz);
            for (int i = 0; p->extra_bootargs && p->extra_bootargs[i]; i++) {
                const char *a = p->extra_bootargs[i];
                const char *eq = strchr(a, '=');
                g_autofree char *name = eq ? g_strndup(a, eq - a) : g_strdup(a);

                check_flag_arg(c, name, eq ? eq + 1 : NULL);
            }
        }
    }

    /* written versus in effect; /sys/devices/system/cpu/isolated lists the
     * HK_TYPE_DOMAIN CPUs only (drivers/base/cpu.c print_cpus_isolated()),
     * so isolcpus= without the domain flag leaves it empty */
    if (cmd->isolcpus_flags & RV_ISOL_DOMAIN)
        check_in_effect(c, "isolcpus", &cmd->isolcpus, &c->st->isolated,
                        "/sys/devices/system/cpu/isolated");
    if (cmd->nohz_full.present && !c->st->nohz_full.known &&
        !rv_host_root_exists(c->root, "/sys/devices/system/cpu/nohz_full") &&
        rv_host_root_exists(c->root, "/sys/devices/system/cpu/online"))
        add(c, RV_CHECK_FAIL, "nohz_full.unsupported", &cmd->nohz_full.effective,
            cmd->nohz_full.value, NULL, "boot a kernel built with CONFIG_NO_HZ_FULL",
            "nohz_full=%s is on the command line but the kernel has no "
            "/sys/devices/system/cpu/nohz_full (built without CONFIG_NO_HZ_FULL)",
            cmd->nohz_full.value);
    else
        check_in_effect(c, "nohz_full", &cmd->nohz_full, &c->st->nohz_full,
                        "/sys/devices/system/cpu/nohz_full");

    /* consistency between the isolation arguments */
    if (cmd->isolcpus.present && cmd->nohz_full.present &&
        !cmd->isolcpus.ignored && !cmd->nohz_full.ignored &&
        !rv_cpuset_equal(&cmd->isolcpus.effective, &cmd->nohz_full.effective)) {
        g_autofree char *i = fmt_cpus(&cmd->isolcpus.effective);
        g_autofree char *n = fmt_cpus(&cmd->nohz_full.effective);
        RvCpuSet d1, d2;

        rv_cpuset_andnot(&d1, &cmd->isolcpus.effective, &cmd->nohz_full.effective);
        rv_cpuset_andnot(&d2, &cmd->nohz_full.effective, &cmd->isolcpus.effective);
        rv_cpuset_or(&d1, &d1, &d2);
        add(c, RV_CHECK_WARN, "nohz_full.mismatch-isolcpus", &d1, i, n,
            "use the same cpulist for isolcpus=, nohz_full= and rcu_nocbs=",
            "nohz_full= (%s) and isolcpus= (%s) name different CPUs", n, i);
    }
    if (cmd->nohz_full.present && !cmd->nohz_full.ignored &&
        !rv_cpuset_is_subset(&cmd->nohz_full.effective, &cmd->rcu_nocbs.effective)) {
        RvCpuSet d;
        g_autofree char *ds = NULL;

        rv_cpuset_andnot(&d, &cmd->nohz_full.effective, &cmd->rcu_nocbs.effective);
        ds = fmt_cpus(&d);
        add(c, RV_CHECK_WARN, "rcu_nocbs.mismatch-nohz_full", &d, NULL, NULL,
            "add the nohz_full CPUs to rcu_nocbs=",
            "nohz_full CPUs %s are not RCU-offloaded (rcu_nocbs=): their RCU callbacks run "
            "locally", ds);
    }

    /* irqaffinity reasoning, whatever the profile says */
    if (!rv_cpuset_is_empty(&c->iso_actual)) {
        if (!cmd->irqaffinity.present) {
            if (p->irqaffinity != RV_HOST_TRI_YES)
                add(c, RV_CHECK_WARN, "irqaffinity.missing", NULL, NULL, NULL,
                    "add irqaffinity=<housekeeping CPUs> to the command line, or move IRQs at "
                    "runtime (rtvirt host apply with [kernel] irq_affinity = housekeeping)",
                    "no irqaffinity= on the command line: device IRQs may land on isolated CPUs");
        } else if (!cmd->irqaffinity.ignored &&
                   rv_cpuset_intersects(&cmd->irqaffinity.effective, &c->iso_actual)) {
            RvCpuSet o;
            g_autofree char *os = NULL;

            rv_cpuset_and(&o, &cmd->irqaffinity.effective, &c->iso_actual);
            os = fmt_cpus(&o);
            add(c, RV_CHECK_FAIL, "irqaffinity.overlaps-isolated", &o, NULL, NULL,
                "set irqaffinity= to the housekeeping CPUs only",
                "irqaffinity=%s includes isolated CPUs %s", cmd->irqaffinity.value, os);
        }
    }
}

/* ---- IRQs --------------------------------------------------------------- */

static void
check_irqs(Ctx *c)
{
    g_autoptr(RvIrqTable) irqs = NULL;
    g_autoptr(GString) on_iso = g_string_new(NULL);
    g_autoptr(GString) eff_iso = g_string_new(NULL);
    RvCheckLevel level = c->p->irq_affinity != RV_HOST_CPUSEL_UNSET ? RV_CHECK_FAIL
                                                                    : RV_CHECK_WARN;
    RvCpuSet cpus_hit;
    unsigned n_eff = 0, n_set = 0;

    if (rv_cpuset_is_empty(&c->iso_actual))
        return;
    if (rv_host_irqs_load(c->root, c->topo->nr_cpu_ids, &irqs, NULL) < 0)
        return;
    if (irqs->has_default) {
        RvCpuSet def;

        rv_cpuset_and(&def, &irqs->default_affinity, &c->topo->online);
        if (rv_cpuset_intersects(&def, &c->iso_actual)) {
            RvCpuSet o;
            g_autofree char *os = NULL, *ds = fmt_cpus(&def);

            rv_cpuset_and(&o, &def, &c->iso_actual);
            os = fmt_cpus(&o);
            add(c, level, "irq.default-affinity", &o, NULL, ds,
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
        g_autofree char *hit = fmt_cpus(&cpus_hit);
        add(c, level, "irq.on-isolated", &cpus_hit, NULL, eff_iso->str,
            "rtvirt host apply PROFILE moves them; managed IRQs (NVMe queues) stay unless "
            "isolcpus=managed_irq,... is booted; an IRQ's effective affinity changes at its "
            "next interrupt",
            "%u of %u IRQs are delivered to isolated CPUs %s (effective_affinity_list): IRQ %s",
            n_eff, irqs->irqs->len, hit, eff_iso->str);
    } else if (n_set) {
        add(c, RV_CHECK_WARN, "irq.on-isolated", NULL, NULL, on_iso->str,
            "rtvirt host apply PROFILE",
            "%u of %u IRQs may be delivered to isolated CPUs (smp_affinity_list): IRQ %s",
            n_set, irqs->irqs->len, on_iso->str);
    } else {
        add(c, RV_CHECK_PASS, "irq.ok", NULL, NULL, NULL, NULL,
            "none of %u IRQs is delivered to an isolated CPU", irqs->irqs->len);
    }
    for (guint i = 0; i < irqs->problems->len; i++)
        add(c, RV_CHECK_WARN, "state.problem", NULL, NULL, NULL, NULL, "%s",
            (char *) irqs->problems->pdata[i]);

    /* tuned realtime bans the isolated CPUs in irqbalance ([irqbalance]
     * banned_cpus); a running irqbalance otherwise spreads IRQs back. */
    for (guint i = 0; i < tasks(c)->len; i++) {
        const RvTask *t = &g_array_index(tasks(c), RvTask, i);

        if (!t->kthread && strcmp(t->comm, "irqbalance") == 0) {
            g_autofree char *iso = fmt_cpus(&c->iso_actual);
            g_autofree char *act = g_strdup_printf("irqbalance pid %d", t->pid);
            add(c, RV_CHECK_WARN, "irq.irqbalance", &c->iso_actual, NULL, act,
                "stop irqbalance, or set IRQBALANCE_BANNED_CPULIST to the isolated CPUs in "
                "/etc/default/irqbalance and restart it",
                "irqbalance is running (pid %d): it moves IRQs onto isolated CPUs %s unless "
                "they are banned in its configuration", t->pid, iso);
            break;
        }
    }
}

/* User threads that last ran on an isolated CPU although their affinity
 * also allows housekeeping CPUs: not placed there on purpose (a vCPU pinned
 * to isolated CPUs is), so the isolation leaks (tuned realtime's
 * [scheduler] isolated_cores moves them off). */
static void
check_stray_tasks(Ctx *c)
{
    g_autoptr(GArray) ts = NULL;
    g_autoptr(GString) list = g_string_new(NULL);
    RvCpuSet hit;
    unsigned n = 0;

    if (rv_cpuset_is_empty(&c->iso_actual))
        return;
    if (rv_host_tasks_on_cpus(c->root, &c->iso_actual, &ts, NULL) < 0)
        return;
    rv_cpuset_zero(&hit);
    for (guint i = 0; i < ts->len; i++) {
        const RvTask *t = &g_array_index(ts, RvTask, i);

        if (t->kthread || (t->has_affinity && rv_cpuset_is_subset(&t->affinity, &c->iso_actual)))
            continue;
        n++;
        rv_cpuset_set(&hit, t->last_cpu);
        if (n <= 8)
            g_string_append_printf(list, "%s%s(%d) on CPU %d", list->len ? ", " : "", t->comm,
                                   t->pid, t->last_cpu);
    }
    if (n) {
        g_autofree char *h = fmt_cpus(&hit);
        add(c, RV_CHECK_WARN, "isolation.stray-tasks", &hit, NULL, list->str,
            "restrict their affinity to housekeeping CPUs (taskset -a -p), or boot with "
            "isolcpus= (domain) so the scheduler does not place them there",
            "%u user thread(s) last ran on isolated CPUs %s though their affinity also allows "
            "housekeeping CPUs: %s%s", n, h, list->str, n > 8 ? ", ..." : "");
    }
}

/* ---- kernel, RT group, runtime knobs ----------------------------------- */

static void
check_kernel(Ctx *c)
{
    if (c->st->preempt_rt == RV_TRI_YES)
        add(c, RV_CHECK_PASS, "kernel.preempt-rt", NULL, "PREEMPT_RT", "PREEMPT_RT", NULL,
            "the kernel is PREEMPT_RT");
    else if (c->st->preempt_rt == RV_TRI_NO)
        add(c, RV_CHECK_WARN, "kernel.not-preempt-rt", NULL, "PREEMPT_RT",
            c->st->preempt_model ? c->st->preempt_model : "unknown",
            "boot a PREEMPT_RT kernel (Debian: linux-image-rt-amd64)",
            "the kernel is not PREEMPT_RT (%s): worst-case latencies of RT guests are not bounded",
            c->st->preempt_model ? c->st->preempt_model : "preemption model unknown");
}

static const char *
qemu_conf_get(Ctx *c, const char *key)
{
    return rv_host_qemu_conf_get_text(c->qemu_conf, key);
}

static void
check_rtgroup(Ctx *c)
{
    const char *ctl;
    bool cpu_used;

    switch (c->st->rt_group_trap) {
    case RV_TRI_NO:
        add(c, RV_CHECK_PASS, "rtgroup.none", NULL, NULL, NULL, NULL,
            "no RT-group trap: libvirt can give vCPUs SCHED_FIFO (%s)",
            c->st->rt_group_sched == RV_TRI_YES ? "no cgroup v1 cpu hierarchy"
                                                : "no CONFIG_RT_GROUP_SCHED");
        return;
    case RV_TRI_UNKNOWN:
        add(c, RV_CHECK_NOTE, "rtgroup.unknown", NULL, NULL, "unknown", NULL,
            "whether RT group scheduling blocks SCHED_FIFO vCPUs is unknown");
        return;
    case RV_TRI_YES:
        break;
    }
    ctl = qemu_conf_get(c, "cgroup_controllers");
    cpu_used = true;
    if (ctl) {
        g_auto(GStrv) words = g_strsplit(ctl, ",", -1);
        cpu_used = g_strv_contains((const char * const *) words, "cpu");
    }
    if (!cpu_used) {
        add(c, RV_CHECK_PASS, "rtgroup.avoided", NULL, NULL, ctl, NULL,
            "RT group scheduling on cgroup v1 (%s), but qemu.conf cgroup_controllers leaves "
            "out \"cpu\", so vCPU threads stay in a group with RT runtime",
            c->st->cgroup_v1_cpu_mount ? c->st->cgroup_v1_cpu_mount : "cpu controller");
        return;
    }
    add(c, RV_CHECK_FAIL, "rtgroup.trap", NULL, NULL, ctl ? ctl : "(libvirt default, with cpu)",
        "leave \"cpu\" out of qemu.conf cgroup_controllers ([libvirt] cgroup_controllers in the "
        "profile; rtvirt host apply writes it and restarts libvirtd), or boot with cgroup v2 "
        "(cgroup_no_v1=all) or a kernel without CONFIG_RT_GROUP_SCHED",
        "the kernel has CONFIG_RT_GROUP_SCHED and a cgroup v1 cpu hierarchy (%s): the groups "
        "libvirt creates for a VM start with cpu.rt_runtime_us = 0, so making vCPUs SCHED_FIFO "
        "fails with \"Cannot set scheduler parameters ... Operation not permitted\"",
        c->st->cgroup_v1_cpu_mount ? c->st->cgroup_v1_cpu_mount : "mount point unknown");
}

static void
check_int(Ctx *c, const char *id, const char *what, const RvHostOptInt *want,
          const RvStateInt *have, const char *fix)
{
    g_autofree char *w = NULL, *h = NULL;

    if (!want->set)
        return;
    w = g_strdup_printf("%" G_GINT64_FORMAT, want->value);
    if (!have->known) {
        add(c, RV_CHECK_NOTE, id, NULL, w, "unknown", NULL, "%s is unknown (unreadable)", what);
        return;
    }
    h = g_strdup_printf("%" G_GINT64_FORMAT, have->value);
    if (have->value != want->value)
        add(c, RV_CHECK_FAIL, id, NULL, w, h, fix, "%s is %s, the profile wants %s", what, h, w);
    else
        add(c, RV_CHECK_PASS, id, NULL, w, h, NULL, "%s is %s", what, h);
}

static void
check_runtime(Ctx *c)
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
    if (p->mce_ignore_ce.set) {
        g_autoptr(GPtrArray) names = NULL;
        g_autoptr(GString) bad = g_string_new(NULL);
        g_autofree char *w = g_strdup_printf("%" G_GINT64_FORMAT, p->mce_ignore_ce.value);
        unsigned n = 0;

        if (rv_host_root_list(c->root, "/sys/devices/system/machinecheck", &names, NULL) >= 0) {
            for (guint i = 0; i < names->len; i++) {
                g_autofree char *path = g_strdup_printf("/sys/devices/system/machinecheck/%s/ignore_ce",
                                                        (char *) names->pdata[i]);
                gint64 v;

                if (rv_host_root_read_int(c->root, path, &v, NULL) < 0)
                    continue;
                n++;
                if (v != p->mce_ignore_ce.value)
                    g_string_append_printf(bad, "%s%s", bad->len ? "," : "",
                                           (char *) names->pdata[i] + strlen("machinecheck"));
            }
        }
        if (n == 0)
            add(c, RV_CHECK_NOTE, "mce.ignore_ce", NULL, w, c->rep->live ? "none" : "unknown", NULL,
                "no /sys/devices/system/machinecheck/machinecheckN/ignore_ce %s",
                c->rep->live ? "on this host (no x86 MCE)" : "in this root");
        else if (bad->len)
            add(c, RV_CHECK_FAIL, "mce.ignore_ce", NULL, w, bad->str, apply,
                "machine-check ignore_ce differs from %s on CPUs %s: corrected-error polling "
                "timers still fire", w, bad->str);
        else
            add(c, RV_CHECK_PASS, "mce.ignore_ce", NULL, w, w, NULL,
                "machine-check ignore_ce = %s on all %u CPUs", w, n);
    }

    if (p->thp != RV_HOST_THP_UNSET) {
        const char *w = rv_host_thp_name(p->thp);

        if (!c->st->thp_enabled)
            add(c, RV_CHECK_NOTE, "thp", NULL, w, "unknown", NULL,
                "transparent_hugepage/enabled is unknown");
        else if (strcmp(c->st->thp_enabled, w) != 0)
            add(c, RV_CHECK_FAIL, "thp", NULL, w, c->st->thp_enabled, apply,
                "transparent hugepages are '%s', the profile wants '%s' (khugepaged and "
                "compaction stalls)", c->st->thp_enabled, w);
        else
            add(c, RV_CHECK_PASS, "thp", NULL, w, w, NULL, "transparent hugepages are '%s'", w);
    }

    if (p->workqueue_cpumask != RV_HOST_CPUSEL_UNSET && c->rep->has_partition) {
        const RvCpuSet *want = p->workqueue_cpumask == RV_HOST_CPUSEL_LIST ? &p->workqueue_cpus
                                                                         : &c->rep->housekeeping;
        g_autofree char *w = fmt_cpus(want);

        if (!c->st->workqueue_cpumask.known) {
            add(c, RV_CHECK_NOTE, "workqueue.cpumask", NULL, w, "unknown", NULL,
                "/sys/devices/virtual/workqueue/cpumask is unknown");
        } else {
            RvCpuSet have;
            g_autofree char *h = NULL;

            rv_cpuset_and(&have, &c->st->workqueue_cpumask.set, &c->topo->online);
            h = fmt_cpus(&have);
            if (!rv_cpuset_equal(&have, want)) {
                RvCpuSet bad;

                rv_cpuset_and(&bad, &have, &c->rep->isolated);
                add(c, RV_CHECK_FAIL, "workqueue.cpumask", &bad, w, h, apply,
                    "unbound workqueues may run on CPUs %s, the profile wants %s", h, w);
            } else {
                add(c, RV_CHECK_PASS, "workqueue.cpumask", NULL, w, h, NULL,
                    "unbound workqueues run on CPUs %s", h);
            }
        }
    }

    if (p->governor) {
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
            g_autofree char *b = fmt_cpus(&bad);
            add(c, RV_CHECK_FAIL, "governor", &bad, p->governor, seen->str, apply,
                "CPUs %s run cpufreq governor %s, the profile wants %s", b, seen->str, p->governor);
        } else if (c->st->cpus->len && rv_cpuset_count(&none) == c->st->cpus->len) {
            add(c, RV_CHECK_NOTE, "governor.no-cpufreq", NULL, p->governor,
                c->rep->live ? "none" : "unknown", NULL,
                c->rep->live ? "no cpufreq on this host (firmware or hypervisor sets the "
                               "frequency): governor %s cannot be set"
                             : "no cpufreq files in this root (no cpufreq driver, or not "
                               "captured): governor %s not checked", p->governor);
        } else if (c->st->cpus->len) {
            add(c, RV_CHECK_PASS, "governor", NULL, p->governor, p->governor, NULL,
                "every CPU with cpufreq runs governor %s", p->governor);
        }
    }

    if (p->idle_max_latency_us.set) {
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
            add(c, RV_CHECK_PASS, "idle.deep-states", NULL, w, "idle=poll", NULL,
                "idle=poll: CPUs never enter idle states");
        } else if (!rv_cpuset_is_empty(&bad)) {
            g_autofree char *b = fmt_cpus(&bad);
            add(c, RV_CHECK_FAIL, "idle.deep-states", &bad, w, states->str, apply,
                "CPUs %s may enter idle states %s, slower to leave than the profile's %"
                G_GINT64_FORMAT " us", b, states->str, p->idle_max_latency_us.value);
        } else if (!rv_cpuset_is_empty(&scope) && rv_cpuset_equal(&without, &scope)) {
            add(c, RV_CHECK_NOTE, "idle.no-cpuidle", NULL, w, c->rep->live ? "none" : "unknown",
                NULL, c->rep->live ? "no cpuidle states are exposed for the checked CPUs"
                                   : "no cpuidle files in this root for the checked CPUs "
                                     "(no cpuidle, or not captured)");
        } else if (!rv_cpuset_is_empty(&scope)) {
            add(c, RV_CHECK_PASS, "idle.deep-states", NULL, w, NULL, NULL,
                "no enabled idle state slower than %" G_GINT64_FORMAT " us on the checked CPUs",
                p->idle_max_latency_us.value);
        }
    }
}

static bool
kthread_matches(const char *comm, const char *name)
{
    size_t n = strlen(name);

    return strncmp(comm, name, n) == 0 && (comm[n] == '\0' || comm[n] == '/');
}

static void
check_kthreads(Ctx *c)
{
    GArray *kts;

    if (c->p->kthreads->len == 0)
        return;
    kts = tasks(c);
    if (kts->len == 0) {
        add(c, RV_CHECK_NOTE, "kthread.priority", NULL, NULL, "unknown", NULL,
            "no kernel threads readable under /proc: priorities not checked");
        return;
    }
    for (guint i = 0; i < c->p->kthreads->len; i++) {
        const RvHostKthreadPrio *want = c->p->kthreads->pdata[i];
        g_autofree char *w = sched_name(want->policy, want->priority);
        g_autoptr(GString) wrong = g_string_new(NULL);
        unsigned n = 0, nbad = 0;

        for (guint k = 0; k < kts->len; k++) {
            const RvTask *t = &g_array_index(kts, RvTask, k);

            if (!t->kthread || !kthread_matches(t->comm, want->name))
                continue;
            n++;
            if (t->policy != want->policy ||
                (want->policy != SCHED_OTHER && t->rt_priority != want->priority)) {
                g_autofree char *h = sched_name(t->policy, t->rt_priority);

                nbad++;
                if (nbad <= 8)
                    g_string_append_printf(wrong, "%s%s=%s", wrong->len ? " " : "", t->comm, h);
            }
        }
        if (n == 0)
            add(c, RV_CHECK_NOTE, "kthread.absent", NULL, w, NULL, NULL,
                "no %s kernel threads on this kernel (%s)", want->name,
                strcmp(want->name, "ktimers") == 0 || strcmp(want->name, "ktimersoftd") == 0
                    ? "PREEMPT_RT kernels have them"
                    : strcmp(want->name, "rcuc") == 0 || strcmp(want->name, "rcub") == 0
                    ? "PREEMPT_RT or rcutree.use_softirq=0 kernels have them"
                    : "not created by this kernel");
        else if (nbad)
            add(c, RV_CHECK_FAIL, "kthread.priority", NULL, w, wrong->str, "rtvirt host apply PROFILE",
                "%u of %u %s threads do not run at %s: %s%s", nbad, n, want->name, w, wrong->str,
                nbad > 8 ? " ..." : "");
        else
            add(c, RV_CHECK_PASS, "kthread.priority", NULL, w, w, NULL,
                "all %u %s threads run at %s", n, want->name, w);
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

static void
check_knobs(Ctx *c)
{
    for (guint i = 0; i < c->p->sysctls->len; i++) {
        const RvHostKnob *k = c->p->sysctls->pdata[i];
        g_autofree char *rel = g_strdelimit(g_strdup(k->key), ".", '/');
        g_autofree char *path = g_strdup_printf("/proc/sys/%s", rel);
        g_autofree char *v = NULL;

        if (rv_host_root_read_value(c->root, path, &v, NULL) < 0 && c->rep->live)
            add(c, RV_CHECK_NOTE, "sysctl.absent", NULL, k->value, NULL, NULL,
                "sysctl %s does not exist on this kernel (%s)", k->key, path);
        else if (!v)
            add(c, RV_CHECK_NOTE, "sysctl", NULL, k->value, "unknown", NULL,
                "sysctl %s is unknown: %s is not in this root", k->key, path);
        else if (!values_equal(v, k->value))
            add(c, RV_CHECK_FAIL, "sysctl", NULL, k->value, v, "rtvirt host apply PROFILE",
                "sysctl %s is %s, the profile wants %s", k->key, v, k->value);
        else
            add(c, RV_CHECK_PASS, "sysctl", NULL, k->value, v, NULL, "sysctl %s is %s", k->key, v);
    }
    for (guint i = 0; i < c->p->module_params->len; i++) {
        const RvHostKnob *k = c->p->module_params->pdata[i];
        const char *dot = strchr(k->key, '.');
        g_autofree char *mod = g_strndup(k->key, dot - k->key);
        g_autofree char *mdir = g_strdup_printf("/sys/module/%s", mod);
        g_autofree char *path = g_strdup_printf("/sys/module/%s/parameters/%s", mod, dot + 1);
        g_autofree char *v = NULL;

        if (!c->rep->live && !rv_host_root_exists(c->root, "/sys/module"))
            add(c, RV_CHECK_NOTE, "module.param", NULL, k->value, "unknown", NULL,
                "module parameter %s is unknown: /sys/module is not in this root", k->key);
        else if (!rv_host_root_exists(c->root, mdir))
            add(c, RV_CHECK_NOTE, "module.absent", NULL, k->value, NULL, NULL,
                "module %s is not loaded: %s not checked", mod, k->key);
        else if (rv_host_root_read_value(c->root, path, &v, NULL) < 0)
            add(c, RV_CHECK_NOTE, "module.absent", NULL, k->value, NULL, NULL,
                "module %s has no parameter %s on this kernel", mod, dot + 1);
        else if (!values_equal(v, k->value))
            add(c, RV_CHECK_FAIL, "module.param", NULL, k->value, v,
                "set it in /etc/modprobe.d and reload the module (or reboot)",
                "module parameter %s is %s, the profile wants %s", k->key, v, k->value);
        else
            add(c, RV_CHECK_PASS, "module.param", NULL, k->value, v, NULL,
                "module parameter %s is %s", k->key, v);
    }
}

static void
check_libvirt(Ctx *c)
{
    const RvHostProfile *p = c->p;
    const char *sc;

    if (!p->libvirt_sched_core && !p->libvirt_cgroup_controllers)
        return;
    if (!c->qemu_conf) {
        add(c, RV_CHECK_NOTE, "libvirt.qemu-conf-unknown", NULL, NULL, "unknown", NULL,
            "%s", c->qemu_conf_error);
        return;
    }
    sc = qemu_conf_get(c, "sched_core");
    if (sc && strcmp(sc, "none") != 0 && c->st->coresched == RV_CORESCHED_UNSUPPORTED) {
        add(c, RV_CHECK_FAIL, "libvirt.sched-core-unsupported", NULL, "none", sc,
            "set sched_core = \"none\" in qemu.conf (or boot a kernel with CONFIG_SCHED_CORE)",
            "qemu.conf sets sched_core = \"%s\" but the kernel has no core scheduling: libvirt's "
            "QEMU driver refuses the file (\"SCHED_CORE not supported by kernel\")", sc);
    } else if (p->libvirt_sched_core) {
        const char *have = sc ? sc : "none";

        if (strcmp(have, p->libvirt_sched_core) == 0)
            add(c, RV_CHECK_PASS, "libvirt.sched-core", NULL, p->libvirt_sched_core, have, NULL,
                "qemu.conf sched_core = \"%s\"", have);
        else if (c->st->coresched == RV_CORESCHED_UNSUPPORTED)
            add(c, RV_CHECK_NOTE, "libvirt.sched-core", NULL, p->libvirt_sched_core, have, NULL,
                "qemu.conf sched_core stays \"%s\": the kernel has no core scheduling, and "
                "libvirt would refuse \"%s\"", have, p->libvirt_sched_core);
        else
            add(c, c->smt_active ? RV_CHECK_FAIL : RV_CHECK_NOTE, "libvirt.sched-core", NULL,
                p->libvirt_sched_core, have, "rtvirt host apply PROFILE (writes qemu.conf and "
                "restarts libvirtd)",
                "qemu.conf sched_core is \"%s\", the profile wants \"%s\"", have,
                p->libvirt_sched_core);
    }
    if (p->libvirt_cgroup_controllers) {
        g_autofree char *want = g_strjoinv(",", p->libvirt_cgroup_controllers);
        const char *have = qemu_conf_get(c, "cgroup_controllers");
        bool same = false;

        if (have) {
            g_auto(GStrv) hw = g_strsplit(have, ",", -1);

            same = g_strv_length(hw) == g_strv_length(p->libvirt_cgroup_controllers);
            for (int i = 0; same && hw[i]; i++)
                same = g_strv_contains((const char * const *) p->libvirt_cgroup_controllers, hw[i]);
        }
        if (same)
            add(c, RV_CHECK_PASS, "libvirt.cgroup-controllers", NULL, want, have, NULL,
                "qemu.conf cgroup_controllers = %s", have);
        else
            add(c, RV_CHECK_FAIL, "libvirt.cgroup-controllers", NULL, want,
                have ? have : "(libvirt default)", "rtvirt host apply PROFILE",
                "qemu.conf cgroup_controllers is %s, the profile wants %s",
                have ? have : "the default", want);
    }
}

/* ---- entry points -------------------------------------------------------- */

int
rv_host_check_run(RvRoot *root, const RvHostProfile *profile, RvCheckReport **ret_report,
                  GError **error)
{
    g_autoptr(RvTopology) topo = NULL;
    g_autoptr(RvCmdline) cmd = NULL;
    g_autoptr(RvHostState) st = NULL;
    g_autoptr(RvCheckReport) rep = g_new0(RvCheckReport, 1);
    g_autoptr(RvQemuConf) qconf = NULL;
    g_autoptr(GError) local = NULL;
    g_autofree char *qerr = NULL;
    Ctx c = { 0 };
    int r;

    r = rv_host_topology_load(root, &topo, error);
    if (r < 0)
        return r;
    /* a profile naming CPUs this host does not have is bad input (exit 2) */
    r = rv_host_profile_check_host(profile, &topo->online, error);
    if (r < 0)
        return r;
    r = rv_host_state_load(root, topo->nr_cpu_ids, &st, error);
    if (r < 0)
        return r;
    r = rv_host_cmdline_load(root, topo->nr_cpu_ids, &cmd, &local);
    if (r < 0 && r != -ENOENT && r != -EACCES && !g_error_matches(local, RV_ERROR, RV_ERROR_FAILED)) {
        g_propagate_error(error, g_steal_pointer(&local));
        return r;
    }
    g_clear_error(&local);
    if (rv_host_qemu_conf_load(root, profile->qemu_conf, &qconf, NULL, &local) < 0)
        qerr = g_strdup_printf("libvirt settings not checked: %s", local->message);

    rep->profile_path = g_strdup(profile->path);
    rep->profile_name = g_strdup(profile->name);
    rep->root = g_strdup(rv_host_root_path(root));
    rep->live = rv_host_root_is_live(root);
    rep->kernel_release = g_strdup(st->kernel_release);
    rep->online = topo->online;
    rep->findings = g_ptr_array_new_with_free_func(finding_free);

    c.root = root;
    c.p = profile;
    c.topo = topo;
    c.cmd = cmd;
    c.st = st;
    c.rep = rep;
    c.qemu_conf = qconf;
    c.qemu_conf_error = qerr;
    for (guint i = 0; i < topo->cores->len && !c.smt_active; i++) {
        const RvCore *core = &g_array_index(topo->cores, RvCore, i);
        RvCpuSet on;

        rv_cpuset_and(&on, &core->threads, &topo->online);
        c.smt_active = rv_cpuset_count(&on) > 1;
    }
    rv_cpuset_zero(&c.iso_actual);
    if (st->isolated.known) {
        rv_cpuset_or(&c.iso_actual, &c.iso_actual, &st->isolated.set);
        c.iso_actual_known = true;
    }
    if (st->nohz_full.known) {
        rv_cpuset_or(&c.iso_actual, &c.iso_actual, &st->nohz_full.set);
        c.iso_actual_known = true;
    }
    /* offline CPUs may stay listed; nothing runs there */
    rv_cpuset_and(&c.iso_actual, &c.iso_actual, &topo->online);

    check_partition(&c);
    check_smt(&c);
    check_coresched(&c);
    check_bootargs(&c);
    check_irqs(&c);
    check_stray_tasks(&c);
    check_kernel(&c);
    check_rtgroup(&c);
    check_runtime(&c);
    check_kthreads(&c);
    check_knobs(&c);
    check_libvirt(&c);
    for (guint i = 0; i < st->problems->len; i++)
        add(&c, RV_CHECK_WARN, "state.problem", NULL, NULL, NULL, NULL, "%s",
            (char *) st->problems->pdata[i]);

    g_clear_pointer(&c.plan, rv_host_partition_free);
    g_clear_pointer(&c.tasks, g_array_unref);
    *ret_report = g_steal_pointer(&rep);
    return 0;
}

RvCheckLevel
rv_host_check_worst(const RvCheckReport *rep)
{
    for (int l = RV_CHECK_FAIL; l > RV_CHECK_PASS; l--)
        if (rep->counts[l])
            return l;
    return RV_CHECK_PASS;
}

bool
rv_host_check_trusted(const RvCheckReport *rep)
{
    return rep->counts[RV_CHECK_FAIL] == 0;
}

const RvCheckFinding *
rv_host_check_find(const RvCheckReport *rep, const char *id)
{
    for (guint i = 0; i < rep->findings->len; i++) {
        const RvCheckFinding *f = rep->findings->pdata[i];

        if (strcmp(f->id, id) == 0)
            return f;
    }
    return NULL;
}

static void
json_str_or_null(JsonBuilder *b, const char *member, const char *v)
{
    json_builder_set_member_name(b, member);
    if (v)
        json_builder_add_string_value(b, v);
    else
        json_builder_add_null_value(b);
}

JsonNode *
rv_host_check_to_json(const RvCheckReport *rep)
{
    g_autoptr(JsonBuilder) b = json_builder_new();
    static const char * const lower[] = { "pass", "note", "warn", "fail" };

    json_builder_begin_object(b);
    json_builder_set_member_name(b, "schema_version");
    json_builder_add_int_value(b, RV_HOST_CHECK_SCHEMA_VERSION);
    json_str_or_null(b, "profile", rep->profile_path);
    json_str_or_null(b, "profile_name", rep->profile_name);
    json_str_or_null(b, "root", rep->root);
    json_builder_set_member_name(b, "live");
    json_builder_add_boolean_value(b, rep->live);
    json_str_or_null(b, "kernel_release", rep->kernel_release);
    json_builder_set_member_name(b, "partition");
    if (rep->has_partition) {
        g_autofree char *i = rv_cpulist_format(&rep->isolated);
        g_autofree char *h = rv_cpulist_format(&rep->housekeeping);

        json_builder_begin_object(b);
        json_str_or_null(b, "isolated", i);
        json_str_or_null(b, "housekeeping", h);
        json_builder_end_object(b);
    } else {
        json_builder_add_null_value(b);
    }
    json_builder_set_member_name(b, "summary");
    json_builder_begin_object(b);
    for (int l = RV_CHECK_PASS; l <= RV_CHECK_FAIL; l++) {
        json_builder_set_member_name(b, lower[l]);
        json_builder_add_int_value(b, rep->counts[l]);
    }
    json_builder_end_object(b);
    json_str_or_null(b, "verdict", rv_host_check_level_name(rv_host_check_worst(rep)));
    json_builder_set_member_name(b, "trusted");
    json_builder_add_boolean_value(b, rv_host_check_trusted(rep));
    json_builder_set_member_name(b, "findings");
    json_builder_begin_array(b);
    for (guint i = 0; i < rep->findings->len; i++) {
        const RvCheckFinding *f = rep->findings->pdata[i];
        g_autofree char *cpus = f->has_cpus ? rv_cpulist_format(&f->cpus) : NULL;

        json_builder_begin_object(b);
        json_str_or_null(b, "level", rv_host_check_level_name(f->level));
        json_str_or_null(b, "id", f->id);
        json_str_or_null(b, "message", f->message);
        json_str_or_null(b, "fix", f->fix);
        json_str_or_null(b, "cpus", cpus);
        json_str_or_null(b, "expected", f->expected);
        json_str_or_null(b, "actual", f->actual);
        json_builder_end_object(b);
    }
    json_builder_end_array(b);
    json_builder_end_object(b);
    return json_builder_get_root(b);
}

char *
rv_host_check_format(const RvCheckReport *rep, bool verbose)
{
    GString *s = g_string_new(NULL);
    RvCheckLevel worst = rv_host_check_worst(rep);

    g_string_append_printf(s, "Host check: profile %s (%s) on %s%s\n", rep->profile_name,
                           rep->profile_path, rep->live ? "this host" : "root ", rep->live ? "" : rep->root);
    if (rep->has_partition) {
        g_autofree char *i = fmt_cpus(&rep->isolated), *h = fmt_cpus(&rep->housekeeping);
        g_string_append_printf(s, "Partition: isolated %s, housekeeping %s\n", i, h);
    }
    g_string_append_c(s, '\n');
    for (guint i = 0; i < rep->findings->len; i++) {
        const RvCheckFinding *f = rep->findings->pdata[i];

        if (f->level == RV_CHECK_PASS && !verbose)
            continue;
        g_string_append_printf(s, "%-4s  %s: %s\n", rv_host_check_level_name(f->level), f->id,
                               f->message);
        if (f->expected && f->actual)
            g_string_append_printf(s, "      wanted: %s   found: %s\n", f->expected, f->actual);
        else if (f->expected)
            g_string_append_printf(s, "      wanted: %s\n", f->expected);
        if (f->fix && f->level != RV_CHECK_PASS)
            g_string_append_printf(s, "      fix: %s\n", f->fix);
    }
    g_string_append_printf(s, "\n%s: %u fail, %u warn, %u note, %u pass%s\n",
                           rv_host_check_level_name(worst), rep->counts[RV_CHECK_FAIL],
                           rep->counts[RV_CHECK_WARN], rep->counts[RV_CHECK_NOTE],
                           rep->counts[RV_CHECK_PASS],
                           verbose || !rep->counts[RV_CHECK_PASS] ? "" : " (--verbose lists PASS)");
    return rv_host_text_printable(g_string_free(s, FALSE));
}
