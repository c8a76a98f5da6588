/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * host/check/check-libvirt.c: `host check` judges of libvirt's qemu.conf as
 * host/facts/qemu-conf.h reads it (the first statement of a key, as libvirt),
 * and of the RT-group trap that qemu.conf's cgroup_controllers can avoid
 * (host/check/check-priv.h).
 *
 * Ids: rtgroup.trap  rtgroup.cgroup2  rtgroup.avoided  rtgroup.none  rtgroup.unknown
 *   libvirt.sched-core  libvirt.sched-core-unsupported
 *   libvirt.cgroup-controllers  libvirt.qemu-conf-unknown
 *
 * Sources: Documentation/scheduler/sched-rt-group.rst (the RT-group trap),
 * libvirt src/qemu/qemu_conf.c (sched_core: "SCHED_CORE not supported by
 * kernel" makes the QEMU driver refuse qemu.conf; cgroup_controllers).
 */
#include <string.h>

#include "host/check/check-priv.h"

static const char *
qemu_conf_get(RvCheckCtx *c, const char *key)
{
    return rv_host_qemu_conf_get_text(c->facts->qemu_conf, key);
}

/* cgroup v2 with CONFIG_RT_GROUP_SCHED: the cpu controller can only be
 * enabled while every RT task is in the root cgroup
 * (Documentation/admin-guide/cgroup-v2.rst, CPU); a group under it has no
 * RT runtime and v2 no cpu.rt_runtime_us to give it one, so
 * sched_setscheduler(SCHED_FIFO) fails with EPERM in every group that
 * the controller reaches (__sched_setscheduler(), kernel/sched/core.c,
 * kernel/sched/syscalls.c since 6.10), unless RT bandwidth control is off
 * (sched_rt_runtime_us = -1: rt_bandwidth_enabled() is false and the check
 * is skipped).  True when it judged. */
static bool
check_rtgroup_cgroup2(RvCheckCtx *c)
{
    const RvHostState *st = c->st;
    g_autofree char *where = NULL;

    if (st->cgroup_v1_cpu != RV_TRI_NO || st->config_rt_group_sched != RV_TRI_YES ||
        st->cgroup2_cpu != RV_TRI_YES || (st->rt_runtime_us.known && st->rt_runtime_us.value < 0))
        return false;
    where = g_strdup_printf("%s/cgroup.subtree_control", st->cgroup2_mount);
    rv_findings_add(c->rep->findings, RV_FINDING_FAIL, "rtgroup.cgroup2", NULL, NULL, where,
                    "boot a kernel without CONFIG_RT_GROUP_SCHED (the usual distribution build), keep "
                    "the cpu controller out of the cgroup v2 hierarchy (no unit with CPUWeight=/CPUQuota=, "
                    "DefaultCPUAccounting=no), or turn RT throttling off (kernel.sched_rt_runtime_us = -1, "
                    "which skips the check)",
                    "the kernel %s has CONFIG_RT_GROUP_SCHED and cgroup v2 enables the cpu controller (%s): "
                    "groups it reaches have no RT runtime and v2 has no cpu.rt_runtime_us to give them "
                    "one, so making vCPUs (or any task in them) SCHED_FIFO fails with \"Operation not "
                    "permitted\"", st->kernel_release ? st->kernel_release : "(release unknown)", where);
    return true;
}

/* Why no RT group blocks SCHED_FIFO, for rtgroup.none. */
static const char *
rtgroup_none_why(const RvHostState *st)
{
    if (st->rt_group_sched == RV_TRI_YES)
        return "no cgroup v1 cpu hierarchy";
    if (st->config_rt_group_sched != RV_TRI_YES)
        return "no CONFIG_RT_GROUP_SCHED";
    if (st->rt_runtime_us.known && st->rt_runtime_us.value < 0)
        return "CONFIG_RT_GROUP_SCHED, but RT throttling is off (sched_rt_runtime_us = -1): groups "
               "without RT runtime are not checked";
    return "CONFIG_RT_GROUP_SCHED, but the cgroup v2 cpu controller is not enabled";
}

void
rv_check_rtgroup(RvCheckCtx *c)
{
    const char *ctl;
    bool cpu_used;

    /* a profile that asks nothing of RT vCPUs does not care */
    if (!rv_check_profile_wants_rt(c->p))
        return;
    if (check_rtgroup_cgroup2(c))
        return;
    switch (c->st->rt_group_trap) {
    case RV_TRI_NO:
        rv_findings_add(c->rep->findings, RV_FINDING_PASS, "rtgroup.none", NULL, NULL, NULL, NULL,
                        "no RT-group trap: libvirt can give vCPUs SCHED_FIFO (%s)", rtgroup_none_why(c->st));
        return;
    case RV_TRI_UNKNOWN:
        rv_findings_add(c->rep->findings, RV_FINDING_NOTE, "rtgroup.unknown", NULL, NULL, "unknown", NULL,
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
        rv_findings_add(c->rep->findings, RV_FINDING_PASS, "rtgroup.avoided", NULL, NULL, ctl, NULL,
                        "RT group scheduling on cgroup v1 (%s), but qemu.conf cgroup_controllers leaves "
                        "out \"cpu\", so vCPU threads stay in a group with RT runtime",
                        c->st->cgroup_v1_cpu_mount ? c->st->cgroup_v1_cpu_mount : "cpu controller");
        return;
    }
    rv_findings_add(c->rep->findings, RV_FINDING_FAIL, "rtgroup.trap", NULL, NULL,
                    ctl ? ctl : "(libvirt default, with cpu)",
                    "leave \"cpu\" out of qemu.conf cgroup_controllers ([libvirt] cgroup_controllers in the "
                    "profile; rtvirt host apply writes it and restarts libvirtd), or boot with cgroup v2 "
                    "(cgroup_no_v1=all) or a kernel without CONFIG_RT_GROUP_SCHED",
                    "the kernel has CONFIG_RT_GROUP_SCHED and a cgroup v1 cpu hierarchy (%s): the groups "
                    "libvirt creates for a VM start with cpu.rt_runtime_us = 0, so making vCPUs SCHED_FIFO "
                    "fails with \"Cannot set scheduler parameters ... Operation not permitted\"",
                    c->st->cgroup_v1_cpu_mount ? c->st->cgroup_v1_cpu_mount : "mount point unknown");
}

void
rv_check_libvirt(RvCheckCtx *c)
{
    const RvHostProfile *p = c->p;
    const char *sc;

    if (!p->libvirt_sched_core && !p->libvirt_cgroup_controllers)
        return;
    if (!c->facts->qemu_conf) {
        rv_findings_add(c->rep->findings, RV_FINDING_NOTE, "libvirt.qemu-conf-unknown", NULL, NULL,
                        "unknown", NULL,
                        "%s", c->facts->qemu_conf_error);
        return;
    }
    sc = qemu_conf_get(c, "sched_core");
    if (sc && strcmp(sc, "none") != 0 && c->st->coresched == RV_CORESCHED_UNSUPPORTED) {
        rv_findings_add(c->rep->findings, RV_FINDING_FAIL, "libvirt.sched-core-unsupported", NULL, "none", sc,
                        "set sched_core = \"none\" in qemu.conf (or boot a kernel with CONFIG_SCHED_CORE)",
                        "qemu.conf sets sched_core = \"%s\" but the kernel has no core scheduling: libvirt's "
                        "QEMU driver refuses the file (\"SCHED_CORE not supported by kernel\")", sc);
    } else if (p->libvirt_sched_core) {
        const char *have = sc ? sc : "none";

        if (strcmp(have, p->libvirt_sched_core) == 0)
            rv_findings_add(c->rep->findings, RV_FINDING_PASS, "libvirt.sched-core", NULL,
                            p->libvirt_sched_core, have, NULL,
                            "qemu.conf sched_core = \"%s\"", have);
        else if (c->st->coresched == RV_CORESCHED_UNSUPPORTED)
            rv_findings_add(c->rep->findings, RV_FINDING_NOTE, "libvirt.sched-core", NULL,
                            p->libvirt_sched_core, have, NULL,
                            "qemu.conf sched_core stays \"%s\": the kernel has no core scheduling, and "
                            "libvirt would refuse \"%s\"", have, p->libvirt_sched_core);
        else
            rv_findings_add(c->rep->findings, c->smt_active ? RV_FINDING_FAIL : RV_FINDING_NOTE,
                            "libvirt.sched-core", NULL,
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
            rv_findings_add(c->rep->findings, RV_FINDING_PASS, "libvirt.cgroup-controllers", NULL,
                            want, have, NULL,
                            "qemu.conf cgroup_controllers = %s", have);
        else
            rv_findings_add(c->rep->findings, RV_FINDING_FAIL, "libvirt.cgroup-controllers", NULL, want,
                            have ? have : "(libvirt default)", "rtvirt host apply PROFILE",
                            "qemu.conf cgroup_controllers is %s, the profile wants %s",
                            have ? have : "the default", want);
    }
}
