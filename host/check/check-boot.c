/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * host/check/check-boot.c: `host check` judges of the CPU partition, isolation,
 * SMT and the kernel command line (host/check/check-priv.h).
 *
 * Ids: partition.plan  partition.invalid  partition.housekeeping-cores
 *   isolation.none  isolation.mismatch  isolation.sibling-housekeeping
 *   isolation.smt-clean  isolation.unknown
 *   smt.absent  smt.active  smt.off  smt.nosmt-missing  smt.idle-siblings  smt.shared-cores
 *   cmdline.unknown  cmdline.problem
 *   bootarg.ok  bootarg.missing  bootarg.mismatch  bootarg.ignored  bootarg.not-in-effect
 *   bootarg.boot-cpu
 *   nohz_full.mismatch-isolcpus  nohz_full.unsupported  rcu_nocbs.mismatch-nohz_full
 *   irqaffinity.missing  irqaffinity.overlaps-isolated
 *
 * Sources: Documentation/admin-guide/kernel-parameters.txt (isolcpus,
 * nohz_full, rcu_nocbs, irqaffinity, skew_tick, nosmt),
 * Documentation/timers/no_hz.rst, drivers/base/cpu.c print_cpus_isolated(),
 * tuned v2.28 realtime profiles.
 */
#include <string.h>

#include "host/profile/kargs.h"
#include "host/check/check-priv.h"

static void
check_coresplit(RvCheckCtx *c, const RvCpuSet *iso)
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
        g_autofree char *b = rv_check_fmt_cpus(&bad), *h = rv_check_fmt_cpus(&hk_sib);
        /* WARN: the sources' verdict ("a validator should warn 'housekeeping
         * CPU 0 shares a core with isolated CPU 36'", tuned realtime-variables
         * .source.txt); a profile's whole-core intent not met is the FAIL of
         * isolation.mismatch */
        rv_findings_add(c->rep->findings, RV_FINDING_WARN, "isolation.sibling-housekeeping", &bad, NULL, h,
                        "isolate whole cores: add the siblings to the isolated set, or move the isolated "
                        "CPUs' cores out of it (rtvirt host bootargs computes whole-core lists)",
                        "isolated CPUs %s share a core with housekeeping CPUs %s (SMT siblings): "
                        "interrupts and kernel threads on the sibling steal the core's pipeline and caches",
                        b, h);
    } else if (c->smt_active && !rv_cpuset_is_empty(iso)) {
        rv_findings_add(c->rep->findings, RV_FINDING_PASS, "isolation.smt-clean", iso, NULL, NULL, NULL,
                        "every isolated CPU's SMT siblings are isolated too (whole cores)");
    }
}

/* Per-socket intent met by the host's present isolation? */
static bool
per_socket_satisfied(RvCheckCtx *c, const RvCpuSet *iso, GString *why)
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
                g_autofree char *l = rv_check_fmt_cpus(&on);
                g_string_append_printf(why, "%score %s split between isolated and housekeeping",
                                       why->len ? "; " : "", l);
                return false;
            } else {
                hk++;
            }
        }
        g_string_append_printf(why, "%spackage %d: %u housekeeping, %u isolated cores",
                               why->len ? "; " : "", g->id, hk, isol);
        if (p->isolated_cores_per_socket) {
            /* host/profile/partition.h: one housekeeping core kept per package */
            if (!hk || isol < MIN(p->isolated_cores_per_socket, hk + isol - 1))
                return false;
        } else if (hk < p->housekeeping_cores_per_socket) {
            return false;
        }
    }
    return true;
}

/* The per-socket rule of the profile, for messages: "at least 1 whole
 * housekeeping core(s) per package" or "at least 3 whole isolated core(s)
 * per package and one housekeeping core" (more isolated cores than the
 * profile's serve its RT guests as well; host/profile/partition.h says which the
 * profile would pick). */
static char *
per_socket_rule(const RvHostProfile *p)
{
    if (p->isolated_cores_per_socket)
        return g_strdup_printf("at least %u whole isolated core(s) per package and one "
                               "housekeeping core", p->isolated_cores_per_socket);
    return g_strdup_printf("at least %u whole housekeeping core(s) per package",
                           p->housekeeping_cores_per_socket);
}

void
rv_check_partition(RvCheckCtx *c)
{
    const RvHostProfile *p = c->p;
    RvHostPartition *plan = NULL;
    g_autoptr(GError) err = NULL;
    bool per_socket = !p->has_isolated && !p->has_housekeeping;
    bool wants_isolation = p->isolcpus == RV_HOST_TRI_YES || p->nohz_full == RV_HOST_TRI_YES ||
                           p->rcu_nocbs == RV_HOST_TRI_YES || p->has_isolated ||
                           p->has_housekeeping;

    if (rv_host_partition_compute(p, c->topo, &plan, &err) < 0) {
        rv_findings_add(c->rep->findings, RV_FINDING_FAIL, "partition.invalid", NULL, NULL, NULL,
                        "fix [cpus] in the profile for this host's topology",
                        "the profile's CPU partition does not fit this host: %s", err->message);
    } else {
        c->plan = plan;
        c->rep->has_partition = true;
        c->rep->isolated = plan->isolated_online;
        c->rep->housekeeping = plan->housekeeping_online;
    }

    if (!c->iso_actual_known) {
        rv_findings_add(c->rep->findings, RV_FINDING_NOTE, "isolation.unknown", NULL, NULL, "unknown", NULL,
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
        g_autofree char *rule = per_socket_rule(p);

        if (per_socket_satisfied(c, &c->iso_actual, why)) {
            c->rep->has_partition = true;
            rv_cpuset_and(&c->rep->isolated, &c->iso_actual, &c->topo->online);
            rv_cpuset_andnot(&c->rep->housekeeping, &c->topo->online, &c->rep->isolated);
            rv_findings_add(c->rep->findings, RV_FINDING_PASS, "partition.housekeeping-cores", NULL,
                            NULL, why->str, NULL,
                            "the isolation in effect keeps %s (%s)", rule, why->str);
        } else if (c->rep->has_partition) {
            g_autofree char *e = rv_check_fmt_cpus(&c->rep->isolated);
            g_autofree char *a = rv_check_fmt_cpus(&c->iso_actual);
            rv_findings_add(c->rep->findings, RV_FINDING_FAIL, "isolation.mismatch", &c->iso_actual, e, a,
                            "boot with the profile's arguments: rtvirt host bootargs PROFILE --install, "
                            "then reboot",
                            "the isolation in effect does not keep %s: %s", rule, why->str);
        }
    }

    if (c->rep->has_partition) {
        g_autofree char *i = rv_check_fmt_cpus(&c->rep->isolated);
        g_autofree char *h = rv_check_fmt_cpus(&c->rep->housekeeping);
        rv_findings_add(c->rep->findings, RV_FINDING_PASS, "partition.plan", &c->rep->isolated,
                        NULL, NULL, NULL,
                        "partition checked against: isolated %s, housekeeping %s (%s)", i, h,
                        plan ? plan->how : "the host's isolation");
    }

    if (wants_isolation && rv_cpuset_is_empty(&c->iso_actual)) {
        g_autofree char *e = c->rep->has_partition ? rv_check_fmt_cpus(&c->rep->isolated) : NULL;
        rv_findings_add(c->rep->findings, RV_FINDING_FAIL, "isolation.none", NULL, e, "(none)",
                        "rtvirt host bootargs PROFILE --install, then reboot",
                        "no CPU is isolated: /sys/devices/system/cpu/isolated is %s and nohz_full is %s",
                        c->st->isolated.known ? "empty" : "unreadable",
                        c->st->nohz_full.known ? "empty" : "absent (kernel without CONFIG_NO_HZ_FULL?)");
    } else if (!per_socket && c->rep->has_partition &&
               !rv_cpuset_equal(&c->iso_actual, &c->rep->isolated)) {
        g_autofree char *e = rv_check_fmt_cpus(&c->rep->isolated), *a = rv_check_fmt_cpus(&c->iso_actual);
        RvCpuSet diff, d2;

        rv_cpuset_andnot(&diff, &c->rep->isolated, &c->iso_actual);
        rv_cpuset_andnot(&d2, &c->iso_actual, &c->rep->isolated);
        rv_cpuset_or(&diff, &diff, &d2);
        rv_findings_add(c->rep->findings, RV_FINDING_FAIL, "isolation.mismatch", &diff, e, a,
                        "rtvirt host bootargs PROFILE --install, then reboot",
                        "the isolated CPUs in effect differ from the profile's");
    }
    check_coresplit(c, &c->iso_actual);
}

void
rv_check_smt(RvCheckCtx *c)
{
    const RvHostProfile *p = c->p;
    const char *ctl = c->st->smt_control;
    bool hw_smt = c->topo->smt || (ctl && (strcmp(ctl, "off") == 0 || strcmp(ctl, "forceoff") == 0));

    if (p->smt == RV_HOST_SMT_UNSET && !rv_check_profile_wants_rt(p))
        return;
    if (!hw_smt) {
        rv_findings_add(c->rep->findings, RV_FINDING_NOTE, "smt.absent", NULL, NULL,
                        ctl ? ctl : "unknown", NULL,
                        "no SMT on this host (%u thread per core, smt/control %s): sibling checks do not apply",
                        c->topo->threads_per_core, ctl ? ctl : "unknown");
        return;
    }
    switch (p->smt) {
    case RV_HOST_SMT_OFF_BOOT:
        if (c->cmd && !c->cmd->nosmt)
            rv_findings_add(c->rep->findings, RV_FINDING_FAIL, "smt.nosmt-missing", NULL, "nosmt", NULL,
                            "rtvirt host bootargs PROFILE --install, then reboot",
                            "the profile wants SMT off at boot but the command line has no nosmt");
        G_GNUC_FALLTHROUGH;
    case RV_HOST_SMT_OFF_RUNTIME:
        if (c->smt_active)
            rv_findings_add(c->rep->findings, RV_FINDING_FAIL, "smt.active", NULL, "off",
                            ctl ? ctl : "unknown",
                            p->smt == RV_HOST_SMT_OFF_RUNTIME ? "rtvirt host apply PROFILE (writes off to "
                            "/sys/devices/system/cpu/smt/control)" : "boot with nosmt",
                            "SMT is active (siblings online) but the profile wants it off (%s)",
                            rv_host_smt_policy_name(p->smt));
        else
            rv_findings_add(c->rep->findings, RV_FINDING_PASS, "smt.off", NULL, "off",
                            ctl ? ctl : "unknown", NULL,
                            "SMT is off (smt/control %s)", ctl ? ctl : "unknown");
        break;
    case RV_HOST_SMT_IDLE_SIBLINGS:
        if (c->smt_active)
            rv_findings_add(c->rep->findings, RV_FINDING_PASS, "smt.idle-siblings", NULL, NULL, NULL, NULL,
                            "SMT is on: place one vCPU per isolated core and keep the siblings idle");
        break;
    case RV_HOST_SMT_KEEP:
    case RV_HOST_SMT_UNSET:
        if (c->smt_active)
            rv_findings_add(c->rep->findings, RV_FINDING_NOTE, "smt.shared-cores", NULL, NULL, NULL, NULL,
                            "SMT is on and vCPUs may use both siblings of a core: they share its pipeline "
                            "and caches, so one vCPU's load shows up in the other's latency");
        break;
    }
}

static void
check_cpulist_arg(RvCheckCtx *c, const char *name, const RvCmdlineCpus *arg, bool wanted,
                  const RvCpuSet *want, const char *want_prefix)
{
    g_autofree char *w = rv_check_fmt_cpus(want);
    g_autofree char *expect = g_strdup_printf("%s=%s%s", name, want_prefix ? want_prefix : "", w);
    g_autofree char *found = arg->present ? g_strdup_printf("%s=%s", name, arg->value ? arg->value : "")
                                          : NULL;
    RvCpuSet eff_on, want_on;

    if (!wanted)
        return;
    if (!arg->present) {
        /* /sys/devices/system/cpu/nohz_full exists only in a kernel built
         * with CONFIG_NO_HZ_FULL (drivers/base/cpu.c): on one without it
         * the boot argument alone changes nothing (timers/no_hz.rst) */
        bool no_config = strcmp(name, "nohz_full") == 0 && !c->st->nohz_full.known;

        rv_findings_add(c->rep->findings, RV_FINDING_FAIL, "bootarg.missing", want, expect, NULL,
                        no_config ? "boot a kernel built with CONFIG_NO_HZ_FULL=y (Debian's linux-image-amd64 "
                                    "and linux-image-rt-amd64 are), then rtvirt host bootargs PROFILE "
                                    "--install, then reboot"
                                  : "rtvirt host bootargs PROFILE --install, then reboot",
                        "%s= is not on the kernel command line%s", name,
                        no_config ? " and this kernel has no CONFIG_NO_HZ_FULL "
                                    "(/sys/devices/system/cpu/nohz_full is absent)" : "");
        return;
    }
    if (arg->parse_error || arg->ignored) {
        rv_findings_add(c->rep->findings, RV_FINDING_FAIL, "bootarg.ignored", NULL, expect, found,
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
        g_autofree char *a = rv_check_fmt_cpus(&arg->effective);
        rv_findings_add(c->rep->findings, RV_FINDING_FAIL, "bootarg.mismatch", want, expect, found,
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
            rv_findings_add(c->rep->findings, RV_FINDING_FAIL, "bootarg.mismatch", NULL, expect, found,
                            "rtvirt host bootargs PROFILE --install, then reboot",
                            "isolcpus= names the right CPUs but lacks the flag(s) %s%s", lack->str,
                            strstr(lack->str, "managed_irq")
                                ? " (managed IRQs, e.g. NVMe queues, then keep firing on isolated CPUs)" : "");
            return;
        }
    }
    rv_findings_add(c->rep->findings, RV_FINDING_PASS, "bootarg.ok", want, expect, found, NULL,
                    "%s=%s as the profile wants", name, arg->value);
}

static void
check_flag_arg(RvCheckCtx *c, const char *name, const char *want_value)
{
    const char *v = rv_host_cmdline_get(c->cmd, name);
    g_autofree char *expect = want_value ? g_strdup_printf("%s=%s", name, want_value)
                                         : g_strdup(name);

    if (!v && strcmp(name, "cpufreq.default_governor") == 0) {
        /* the [cpu] governor is a runtime knob (checked under "governor");
         * the boot argument only makes it the default from boot on */
        rv_findings_add(c->rep->findings, RV_FINDING_NOTE, "bootarg.missing", NULL, expect, NULL,
                        "rtvirt host bootargs PROFILE --install, then reboot",
                        "%s is not on the kernel command line: the governor is set at runtime only",
                        expect);
    } else if (!v) {
        rv_findings_add(c->rep->findings, RV_FINDING_FAIL, "bootarg.missing", NULL, expect, NULL,
                        "rtvirt host bootargs PROFILE --install, then reboot",
                        "%s is not on the kernel command line", expect);
    } else if (want_value && strcmp(v, want_value) != 0) {
        g_autofree char *act = g_strdup_printf("%s=%s", name, v);
        rv_findings_add(c->rep->findings, RV_FINDING_FAIL, "bootarg.mismatch", NULL, expect, act,
                        "rtvirt host bootargs PROFILE --install, then reboot",
                        "the kernel command line has %s, the profile wants %s", act, expect);
    } else {
        rv_findings_add(c->rep->findings, RV_FINDING_PASS, "bootarg.ok", NULL, expect, expect, NULL,
                        "%s is on the kernel command line", expect);
    }
}

static void
check_in_effect(RvCheckCtx *c, const char *name, const RvCmdlineCpus *arg, const RvStateCpus *eff,
                const char *file)
{
    if (!arg->present || arg->parse_error || arg->ignored)
        return;
    if (!eff->known) {
        rv_findings_add(c->rep->findings, RV_FINDING_NOTE, "bootarg.not-in-effect", NULL,
                        arg->value, "unknown", NULL,
                        "whether %s=%s took effect is unknown: %s unreadable", name, arg->value, file);
        return;
    }
    if (!rv_cpuset_equal(&eff->set, &arg->effective)) {
        g_autofree char *w = rv_check_fmt_cpus(&arg->effective), *a = rv_check_fmt_cpus(&eff->set);
        rv_findings_add(c->rep->findings, RV_FINDING_FAIL, "bootarg.not-in-effect", &arg->effective, w, a,
                        "check dmesg for the kernel's reason (a kernel without the feature, CPUs "
                        "not possible at boot), and that the running kernel was booted with this line",
                        "%s=%s is on the command line but %s holds '%s'", name, arg->value, file,
                        eff->raw ? eff->raw : "");
    }
}

/* The other arguments `rtvirt host bootargs` installs for this profile
 * (host/tune/bootargs.h), so that after the reboot check and bootargs agree;
 * the cpulists are compared as sets by check_cpulist_arg(), nosmt under
 * smt.*. */
static void
check_other_args(RvCheckCtx *c)
{
    const RvHostProfile *p = c->p;
    g_auto(GStrv) args = NULL;

    if (c->plan && rv_host_kargs_compute(p, c->plan, &args, NULL) >= 0) {
        static const char * const as_sets[] = { "isolcpus", "nohz_full", "rcu_nocbs",
                                                "irqaffinity", "nosmt", NULL };

        for (int i = 0; args[i]; i++) {
            const char *eq = strchr(args[i], '=');
            g_autofree char *name = eq ? g_strndup(args[i], eq - args[i]) : g_strdup(args[i]);

            if (!g_strv_contains(as_sets, name))
                check_flag_arg(c, name, eq ? eq + 1 : NULL);
        }
        return;
    }
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

/* A list naming the boot CPU that the kernel does not take for it: say
 * why, in the kernel's words (host/facts/cmdline.c keeps them in the note:
 * housekeeping_setup() gives it back when no housekeeping CPU is left,
 * tick_nohz_init() clears it from nohz_full for timekeeping). */
static void
check_boot_cpu(RvCheckCtx *c, const char *name, const RvCmdlineCpus *arg)
{
    unsigned boot = c->cmd->boot_cpu;
    RvCpuSet one;

    if (!arg->present || arg->parse_error || arg->ignored ||
        !rv_cpuset_isset(&arg->requested, boot) || rv_cpuset_isset(&arg->effective, boot))
        return;
    rv_cpuset_zero(&one);
    rv_cpuset_set(&one, boot);
    rv_findings_add(c->rep->findings, RV_FINDING_WARN, "bootarg.boot-cpu", &one, NULL, NULL,
                    "leave the boot CPU out of isolcpus=/nohz_full= (it stays a housekeeping CPU) "
                    "and isolate another CPU instead",
                    "%s=%s names boot CPU %u, which the kernel keeps for itself: %s", name,
                    arg->value, boot, arg->note ? arg->note : "see dmesg");
}

/* Written versus in effect; /sys/devices/system/cpu/isolated lists the
 * HK_TYPE_DOMAIN CPUs only (drivers/base/cpu.c print_cpus_isolated()),
 * so isolcpus= without the domain flag leaves it empty. */
static void
check_args_in_effect(RvCheckCtx *c)
{
    const RvCmdline *cmd = c->cmd;

    check_boot_cpu(c, "isolcpus", &cmd->isolcpus);
    check_boot_cpu(c, "nohz_full", &cmd->nohz_full);
    if (cmd->isolcpus_flags & RV_ISOL_DOMAIN)
        check_in_effect(c, "isolcpus", &cmd->isolcpus, &c->st->isolated,
                        "/sys/devices/system/cpu/isolated");
    if (cmd->nohz_full.present && !c->st->nohz_full.known &&
        !c->st->nohz_full.exists && c->st->online.exists)
        rv_findings_add(c->rep->findings, RV_FINDING_FAIL, "nohz_full.unsupported", &cmd->nohz_full.effective,
                        cmd->nohz_full.value, NULL, "boot a kernel built with CONFIG_NO_HZ_FULL",
                        "nohz_full=%s is on the command line but the kernel has no "
                        "/sys/devices/system/cpu/nohz_full (built without CONFIG_NO_HZ_FULL)",
                        cmd->nohz_full.value);
    else
        check_in_effect(c, "nohz_full", &cmd->nohz_full, &c->st->nohz_full,
                        "/sys/devices/system/cpu/nohz_full");
}

/* Consistency between the isolation arguments. */
static void
check_args_consistent(RvCheckCtx *c)
{
    const RvCmdline *cmd = c->cmd;

    if (cmd->isolcpus.present && cmd->nohz_full.present &&
        !cmd->isolcpus.ignored && !cmd->nohz_full.ignored &&
        !rv_cpuset_equal(&cmd->isolcpus.effective, &cmd->nohz_full.effective)) {
        g_autofree char *i = rv_check_fmt_cpus(&cmd->isolcpus.effective);
        g_autofree char *n = rv_check_fmt_cpus(&cmd->nohz_full.effective);
        RvCpuSet d1, d2;

        rv_cpuset_andnot(&d1, &cmd->isolcpus.effective, &cmd->nohz_full.effective);
        rv_cpuset_andnot(&d2, &cmd->nohz_full.effective, &cmd->isolcpus.effective);
        rv_cpuset_or(&d1, &d1, &d2);
        rv_findings_add(c->rep->findings, RV_FINDING_WARN, "nohz_full.mismatch-isolcpus", &d1, i, n,
                        "use the same cpulist for isolcpus=, nohz_full= and rcu_nocbs=",
                        "nohz_full= (%s) and isolcpus= (%s) name different CPUs", n, i);
    }
    if (cmd->nohz_full.present && !cmd->nohz_full.ignored &&
        !rv_cpuset_is_subset(&cmd->nohz_full.effective, &cmd->rcu_nocbs.effective)) {
        RvCpuSet d;
        g_autofree char *ds = NULL;

        rv_cpuset_andnot(&d, &cmd->nohz_full.effective, &cmd->rcu_nocbs.effective);
        ds = rv_check_fmt_cpus(&d);
        rv_findings_add(c->rep->findings, RV_FINDING_WARN, "rcu_nocbs.mismatch-nohz_full", &d, NULL, NULL,
                        "add the nohz_full CPUs to rcu_nocbs=",
                        "nohz_full CPUs %s are not RCU-offloaded (rcu_nocbs=): their RCU callbacks run "
                        "locally", ds);
    }
}

/* irqaffinity= reasoning, whatever the profile says. */
static void
check_irqaffinity(RvCheckCtx *c)
{
    const RvCmdline *cmd = c->cmd;

    if (rv_cpuset_is_empty(&c->iso_actual))
        return;
    if (!cmd->irqaffinity.present) {
        /* a profile that moves IRQs at runtime (tuned's [irqbalance]
         * banned_cpus, OpenShift's performance profile, [kernel]
         * irq_affinity) does without the boot argument: irq.on-isolated
         * judges where the IRQs are; only those set up before it ran
         * started on every CPU */
        if (c->p->irqaffinity != RV_HOST_TRI_YES && c->p->irq_affinity != RV_HOST_CPUSEL_UNSET)
            rv_findings_add(c->rep->findings, RV_FINDING_NOTE, "irqaffinity.missing", NULL, NULL, NULL,
                            "add irqaffinity=<housekeeping CPUs> to the command line to keep IRQs off the "
                            "isolated CPUs from boot",
                            "no irqaffinity= on the command line; the profile moves IRQs at runtime "
                            "([kernel] irq_affinity), so IRQs set up before that start on every CPU");
        else if (c->p->irqaffinity != RV_HOST_TRI_YES)
            rv_findings_add(c->rep->findings, RV_FINDING_WARN, "irqaffinity.missing", NULL, NULL, NULL,
                            "add irqaffinity=<housekeeping CPUs> to the command line, or move IRQs at "
                            "runtime (rtvirt host apply with [kernel] irq_affinity = housekeeping)",
                            "no irqaffinity= on the command line: device IRQs may land on isolated CPUs");
    } else if (!cmd->irqaffinity.ignored &&
               rv_cpuset_intersects(&cmd->irqaffinity.effective, &c->iso_actual)) {
        RvCpuSet o;
        g_autofree char *os = NULL;

        rv_cpuset_and(&o, &cmd->irqaffinity.effective, &c->iso_actual);
        os = rv_check_fmt_cpus(&o);
        rv_findings_add(c->rep->findings, RV_FINDING_FAIL, "irqaffinity.overlaps-isolated", &o, NULL, NULL,
                        "set irqaffinity= to the housekeeping CPUs only",
                        "irqaffinity=%s includes isolated CPUs %s", cmd->irqaffinity.value, os);
    }
}

void
rv_check_bootargs(RvCheckCtx *c)
{
    const RvHostProfile *p = c->p;
    const RvCmdline *cmd = c->cmd;
    const RvCpuSet *iso = &c->rep->isolated, *hk = &c->rep->housekeeping;
    g_autofree char *flags = NULL;

    if (!cmd) {
        rv_findings_add(c->rep->findings, RV_FINDING_NOTE, "cmdline.unknown", NULL, NULL, "unknown", NULL,
                        "/proc/cmdline is unreadable: boot arguments not checked");
        return;
    }
    for (guint i = 0; i < cmd->problems->len; i++)
        rv_findings_add(c->rep->findings, RV_FINDING_WARN, "cmdline.problem", NULL, NULL, NULL,
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
    check_other_args(c);
    check_args_in_effect(c);
    check_args_consistent(c);
    check_irqaffinity(c);
}
