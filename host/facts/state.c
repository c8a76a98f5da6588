/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * host/facts/state.c: the effective state of a host (see host/facts/state.h for the
 * sources of each value).  Unreadable = unknown; malformed = unknown plus a
 * problem naming the file and the value.
 */
#include <errno.h>
#include <string.h>
#include <sys/prctl.h>

#include "host/facts/state.h"
#include "util/error.h"
#include "util/escape.h"

#ifndef PR_SCHED_CORE
#define PR_SCHED_CORE 62
#endif
#ifndef PR_SCHED_CORE_GET
#define PR_SCHED_CORE_GET 0
#endif
#define RV_PIDTYPE_PID 0   /* include/linux/pid.h enum pid_type */

#define SYSCPU "/sys/devices/system/cpu"

static void
cpus_clear(RvStateCpus *c)
{
    g_free(c->path);
    g_free(c->raw);
}

void
rv_host_state_free(RvHostState *st)
{
    if (!st)
        return;
    RvStateCpus *sets[] = { &st->possible, &st->present, &st->online, &st->offline,
                            &st->isolated, &st->nohz_full, &st->workqueue_cpumask,
                            &st->watchdog_cpumask };
    for (size_t i = 0; i < G_N_ELEMENTS(sets); i++)
        cpus_clear(sets[i]);
    g_free(st->smt_control);
    g_free(st->coresched_source);
    g_free(st->kernel_release);
    g_free(st->kernel_version);
    g_free(st->preempt_model);
    g_free(st->cgroup_v1_cpu_mount);
    g_free(st->cgroup2_mount);
    g_free(st->thp_enabled);
    g_free(st->thp_defrag);
    g_free(st->cpuidle_driver);
    g_free(st->clocksource);
    g_free(st->cpuidle_governor);
    if (st->cpus) {
        for (guint i = 0; i < st->cpus->len; i++) {
            RvCpuPower *p = &g_array_index(st->cpus, RvCpuPower, i);

            g_free(p->governor);
            g_free(p->driver);
            for (guint k = 0; p->idle_states && k < p->idle_states->len; k++)
                g_free(g_array_index(p->idle_states, RvIdleState, k).name);
            if (p->idle_states)
                g_array_unref(p->idle_states);
        }
        g_array_unref(st->cpus);
    }
    if (st->mce)
        g_array_unref(st->mce);
    if (st->rps)
        g_ptr_array_unref(st->rps);
    if (st->sysctls)
        g_ptr_array_unref(st->sysctls);
    if (st->module_params)
        g_ptr_array_unref(st->module_params);
    if (st->problems)
        g_ptr_array_unref(st->problems);
    g_free(st);
}

static void
add_problem(RvHostState *st, RvRoot *root, const char *path, const char *value, const char *why)
{
    g_autofree char *where = rv_host_root_resolve(root, path);

    /* a corrupt file may hold any bytes: never echo control characters
     * (util/escape.h, the rule that started here) */
    g_ptr_array_add(st->problems, rv_problem_new(where, value, why));
}

static char *
read_str(RvRoot *root, const char *path)
{
    char *v = NULL;

    if (rv_host_root_read_value(root, path, &v, NULL) < 0)
        return NULL;
    return v;
}

static void
read_cpus(RvHostState *st, RvRoot *root, const char *path, unsigned nr, bool hexmask, RvStateCpus *ret)
{
    g_autoptr(GError) err = NULL;
    int r;

    ret->path = g_strdup(path);
    ret->raw = read_str(root, path);
    ret->exists = ret->raw || rv_host_root_exists(root, path);
    if (!ret->raw)
        return;
    /* "%*pbl" of a cpumask pointer that was never allocated prints
     * "(null)" (lib/vsprintf.c): e.g. nohz_full with CONFIG_NO_HZ_FULL but
     * no nohz_full= at boot (kernel/time/tick-sched.c tick_nohz_full_mask).
     * The feature is not active: an empty set, not a malformed value. */
    if (strcmp(ret->raw, "(null)") == 0) {
        rv_cpuset_zero(&ret->set);
        ret->known = true;
        return;
    }
    r = hexmask ? rv_cpumask_parse(ret->raw, &ret->set, &err)
                : rv_cpulist_parse(ret->raw, nr, &ret->set, &err);
    if (r < 0) {
        add_problem(st, root, path, ret->raw, err->message);
        return;
    }
    ret->known = true;
}

/* A decimal integer from @min to @max (the values the kernel file can
 * hold, from its documentation; a value outside is a corrupt file). */
static void
read_int_range(RvHostState *st, RvRoot *root, const char *path, gint64 min, gint64 max,
               RvStateInt *ret)
{
    g_autofree char *v = read_str(root, path);
    char *end;
    gint64 n;

    if (!v)
        return;
    errno = 0;
    n = g_ascii_strtoll(v, &end, 10);
    if (!*v || *end) {
        add_problem(st, root, path, v, "not a decimal integer");
        return;
    }
    if (errno == ERANGE || n < min || n > max) {
        g_autofree char *why = g_strdup_printf("out of range (%" G_GINT64_FORMAT "..%"
                                               G_GINT64_FORMAT ")", min, max);

        add_problem(st, root, path, v, why);
        return;
    }
    ret->known = true;
    ret->value = n;
}

static void
read_int(RvHostState *st, RvRoot *root, const char *path, RvStateInt *ret)
{
    read_int_range(st, root, path, G_MININT64, G_MAXINT64, ret);
}

/* "always [madvise] never" -> "madvise"; the selected word must be one of
 * @modes (Documentation/admin-guide/mm/transhuge.rst) */
static char *
read_selected(RvHostState *st, RvRoot *root, const char *path, const char *const *modes)
{
    g_autofree char *v = read_str(root, path);
    const char *a, *b;

    if (!v)
        return NULL;
    a = strchr(v, '[');
    b = a ? strchr(a, ']') : NULL;
    if (!a || !b) {
        add_problem(st, root, path, v, "no [selected] value");
        return NULL;
    }
    {
        g_autofree char *sel = g_strndup(a + 1, b - a - 1);

        if (!g_strv_contains(modes, sel)) {
            g_autofree char *all = g_strjoinv(", ", (char **) modes);
            g_autofree char *esc = g_strescape(sel, NULL);
            g_autofree char *why = g_strdup_printf("[%s] is not a mode (%s)", esc, all);

            add_problem(st, root, path, v, why);
            return NULL;
        }
        return g_steal_pointer(&sel);
    }
}

const char *
rv_host_coresched_state_to_string(RvCoreSchedState s)
{
    switch (s) {
    case RV_CORESCHED_USABLE: return "usable";
    case RV_CORESCHED_NO_SMT: return "no-smt";
    case RV_CORESCHED_UNSUPPORTED: return "unsupported";
    case RV_CORESCHED_UNKNOWN: default: return "unknown";
    }
}

RvCoreSchedState
rv_host_coresched_probe(int *ret_errno)
{
    unsigned long cookie = 0;
    int e = 0;
    RvCoreSchedState s;

    if (prctl(PR_SCHED_CORE, PR_SCHED_CORE_GET, 0, RV_PIDTYPE_PID, (unsigned long) &cookie) == 0)
        s = RV_CORESCHED_USABLE;
    else if ((e = errno) == ENODEV)
        s = RV_CORESCHED_NO_SMT;
    else if (e == EINVAL)
        s = RV_CORESCHED_UNSUPPORTED;
    else
        s = RV_CORESCHED_UNKNOWN;
    if (ret_errno)
        *ret_errno = e;
    return s;
}

/* A v1 hierarchy with the cpu controller, from /proc/mounts:
 * "cgroup /sys/fs/cgroup/cpu cgroup rw,relatime,cpu 0 0" (also "cpu,cpuacct"). */
static char *
find_v1_cpu_mount(const char *mounts)
{
    g_auto(GStrv) lines = g_strsplit(mounts, "\n", -1);

    for (guint i = 0; lines[i]; i++) {
        g_auto(GStrv) f = g_strsplit(lines[i], " ", -1);
        g_auto(GStrv) opts = NULL;

        if (g_strv_length(f) < 4 || strcmp(f[2], "cgroup") != 0)
            continue;
        opts = g_strsplit(f[3], ",", -1);
        for (guint k = 0; opts[k]; k++)
            if (strcmp(opts[k], "cpu") == 0)
                return g_strcompress(f[1]);   /* octal escapes like \040 */
    }
    return NULL;
}

/* The cgroup v2 mount, from /proc/mounts: "cgroup2 /sys/fs/cgroup cgroup2 ...". */
static char *
find_cgroup2_mount(const char *mounts)
{
    g_auto(GStrv) lines = g_strsplit(mounts, "\n", -1);

    for (guint i = 0; lines[i]; i++) {
        g_auto(GStrv) f = g_strsplit(lines[i], " ", -1);

        if (g_strv_length(f) >= 3 && strcmp(f[2], "cgroup2") == 0)
            return g_strcompress(f[1]);
    }
    return NULL;
}

/* CONFIG_RT_GROUP_SCHED from the kernel's config file in /boot (as
 * Debian, Fedora, RHEL and Amazon Linux install it); unknown without it.
 * On a cgroup v2 host nothing under /sys or /proc shows the option. */
static RvTristate
read_config_rt_group_sched(RvRoot *root, const char *release)
{
    g_autofree char *path = NULL, *text = NULL;

    if (!release)
        return RV_TRI_UNKNOWN;
    path = g_strdup_printf("/boot/config-%s", release);
    if (rv_host_root_read(root, path, &text, NULL) < 0)
        return RV_TRI_UNKNOWN;
    if (strstr(text, "\nCONFIG_RT_GROUP_SCHED=y") || g_str_has_prefix(text, "CONFIG_RT_GROUP_SCHED=y"))
        return RV_TRI_YES;
    return RV_TRI_NO;
}

static void
load_power(RvHostState *st, RvRoot *root)
{
    st->cpus = g_array_new(FALSE, TRUE, sizeof(RvCpuPower));
    if (!st->online.known)
        return;
    rv_cpuset_foreach(cpu, &st->online.set) {
        RvCpuPower p = { .cpu = (unsigned) cpu };
        g_autofree char *gp = g_strdup_printf(SYSCPU "/cpu%d/cpufreq/scaling_governor", cpu);
        g_autofree char *dp = g_strdup_printf(SYSCPU "/cpu%d/cpufreq/scaling_driver", cpu);
        g_autofree char *idir = g_strdup_printf(SYSCPU "/cpu%d/cpuidle", cpu);
        g_autoptr(GPtrArray) names = NULL;

        p.governor = read_str(root, gp);
        p.driver = read_str(root, dp);
        p.idle_states = g_array_new(FALSE, TRUE, sizeof(RvIdleState));
        if (rv_host_root_list(root, idir, &names, NULL) >= 0) {
            for (guint i = 0; i < names->len; i++) {
                const char *n = names->pdata[i];
                RvIdleState is = { .disabled = RV_TRI_UNKNOWN };
                g_autofree char *np = NULL, *lp = NULL, *xp = NULL;
                RvStateInt dis = { 0 };
                guint64 idx;
                char *end;

                if (!g_str_has_prefix(n, "state") || !g_ascii_isdigit(n[5]))
                    continue;
                idx = g_ascii_strtoull(n + 5, &end, 10);
                if (*end || idx > 64)
                    continue;
                is.index = (unsigned) idx;
                np = g_strdup_printf("%s/%s/name", idir, n);
                lp = g_strdup_printf("%s/%s/latency", idir, n);
                xp = g_strdup_printf("%s/%s/disable", idir, n);
                is.name = read_str(root, np);
                read_int(st, root, lp, &is.latency_us);
                read_int(st, root, xp, &dis);
                if (dis.known)
                    is.disabled = dis.value ? RV_TRI_YES : RV_TRI_NO;
                g_array_append_val(p.idle_states, is);
            }
        }
        g_array_append_val(st->cpus, p);
    }
}

static void
mce_clear(gpointer data)
{
    g_free(((RvStateMce *) data)->name);
}

/* Every machinecheckN/ignore_ce that reads as an integer, in directory order. */
static void
load_mce(RvHostState *st, RvRoot *root)
{
    g_autoptr(GPtrArray) names = NULL;

    st->mce = g_array_new(FALSE, TRUE, sizeof(RvStateMce));
    g_array_set_clear_func(st->mce, mce_clear);
    if (rv_host_root_list(root, "/sys/devices/system/machinecheck", &names, NULL) < 0)
        return;
    for (guint i = 0; i < names->len; i++) {
        g_autofree char *path = g_strdup_printf("/sys/devices/system/machinecheck/%s/ignore_ce",
                                                (char *) names->pdata[i]);
        RvStateMce m = { 0 };

        if (rv_host_root_read_int(root, path, &m.ignore_ce, NULL) < 0)
            continue;
        m.name = g_strdup(names->pdata[i]);
        g_array_append_val(st->mce, m);
    }
}

/* Documentation/power/pm_qos_interface.rst (CPU latency QoS): a read of
 * /dev/cpu_dma_latency returns the aggregated target as a binary s32 in
 * host byte order (kernel/power/qos.c cpu_latency_qos_read()).  A fixture
 * root may hold it as decimal text instead.  Opening the device adds a
 * request at the default value, which does not change the target. */
static void
read_pm_qos(RvHostState *st, RvRoot *root)
{
    g_autofree char *v = NULL;
    gssize n = rv_host_root_read(root, "/dev/cpu_dma_latency", &v, NULL);
    gint64 us;

    if (n == 4 && !g_ascii_isdigit(v[0])) {
        gint32 raw;

        memcpy(&raw, v, sizeof(raw));
        if (raw >= 0) {
            st->cpu_dma_latency_us.known = true;
            st->cpu_dma_latency_us.value = raw;
        }
    } else if (n > 0 && g_ascii_string_to_signed(g_strstrip(v), 10, 0, G_MAXINT32, &us, NULL)) {
        st->cpu_dma_latency_us.known = true;
        st->cpu_dma_latency_us.value = us;
    }
}

static void
rps_free(gpointer data)
{
    RvStateRps *r = data;

    g_free(r->path);
    g_free(r);
}

static void
add_rps(RvHostState *st, RvRoot *root, const char *path)
{
    g_autofree char *v = read_str(root, path);
    g_autoptr(GError) err = NULL;
    RvStateRps *r;
    RvCpuSet set;

    if (!v)
        return;
    if (rv_cpumask_parse(v, &set, &err) < 0) {
        add_problem(st, root, path, v, err->message);
        return;
    }
    r = g_new0(RvStateRps, 1);
    r->path = g_strdup(path);
    r->cpus = set;
    g_ptr_array_add(st->rps, r);
}

/* Documentation/networking/scaling.rst (RPS Configuration): rps_cpus of
 * each receive queue, a hex CPU mask, 0 (off) by default; Documentation/
 * admin-guide/sysctl/net.rst: rps_default_mask.  Bounded: a host with more
 * devices or queues is read in part. */
static void
load_rps(RvHostState *st, RvRoot *root)
{
    g_autoptr(GPtrArray) devs = NULL;

    st->rps = g_ptr_array_new_with_free_func(rps_free);
    add_rps(st, root, "/proc/sys/net/core/rps_default_mask");
    if (rv_host_root_list(root, "/sys/class/net", &devs, NULL) < 0)
        return;
    for (guint i = 0; i < devs->len && i < 256; i++) {
        g_autofree char *qdir = g_strdup_printf("/sys/class/net/%s/queues", (char *) devs->pdata[i]);
        g_autoptr(GPtrArray) queues = NULL;

        if (rv_host_root_list(root, qdir, &queues, NULL) < 0)
            continue;
        for (guint k = 0, n = 0; k < queues->len && n < 256; k++) {
            g_autofree char *f = NULL;

            if (!g_str_has_prefix(queues->pdata[k], "rx-"))
                continue;
            n++;
            f = g_strdup_printf("%s/%s/rps_cpus", qdir, (char *) queues->pdata[k]);
            add_rps(st, root, f);
        }
    }
}

/* RT group scheduling and the cgroup hierarchies it meets: the v1 cpu
 * hierarchy (cpu.rt_runtime_us, libvirt's machine group), the v2 mount and
 * its root's cgroup.subtree_control, CONFIG_RT_GROUP_SCHED from /boot
 * (Documentation/scheduler/sched-rt-group.rst, admin-guide/cgroup-v2.rst). */
static void
load_rt_group(RvHostState *st, RvRoot *root)
{
    g_autofree char *mounts = NULL;

    st->cgroup_v1_cpu = RV_TRI_UNKNOWN;
    st->rt_group_sched = RV_TRI_UNKNOWN;
    st->rt_group_trap = RV_TRI_UNKNOWN;
    st->cgroup2_cpu = RV_TRI_UNKNOWN;
    if (rv_host_root_read(root, "/proc/mounts", &mounts, NULL) >= 0) {
        st->cgroup_v1_cpu_mount = find_v1_cpu_mount(mounts);
        st->cgroup_v1_cpu = st->cgroup_v1_cpu_mount ? RV_TRI_YES : RV_TRI_NO;
        if (st->cgroup_v1_cpu_mount) {
            g_autofree char *p = g_build_filename(st->cgroup_v1_cpu_mount, "cpu.rt_runtime_us", NULL);
            g_autofree char *q = g_build_filename(st->cgroup_v1_cpu_mount, "cpu.shares", NULL);

            if (rv_host_root_exists(root, p)) {
                st->rt_group_sched = RV_TRI_YES;
                read_int(st, root, p, &st->cgroup_rt_runtime_us);
                for (const char *const *g = (const char *const[]) { "machine", "machine.slice", NULL }; *g; g++) {
                    g_autofree char *mp = g_build_filename(st->cgroup_v1_cpu_mount, *g,
                                                           "cpu.rt_runtime_us", NULL);
                    if (rv_host_root_exists(root, mp)) {
                        read_int(st, root, mp, &st->machine_rt_runtime_us);
                        break;
                    }
                }
            } else if (rv_host_root_exists(root, q)) {
                /* the hierarchy is readable and has no RT knob */
                st->rt_group_sched = RV_TRI_NO;
            }
            st->rt_group_trap = st->rt_group_sched;
        } else {
            /* cgroup v2 only: the cpu controller refuses RT group
             * scheduling's per-group budget; libvirt's v2 path does not
             * hit the v1 trap (the v2 one is judged from the fields below) */
            st->rt_group_trap = RV_TRI_NO;
        }
        st->cgroup2_mount = find_cgroup2_mount(mounts);
        st->cgroup2_cpu = RV_TRI_UNKNOWN;
        if (st->cgroup2_mount) {
            g_autofree char *p = g_build_filename(st->cgroup2_mount, "cgroup.subtree_control", NULL);
            g_autofree char *ctl = read_str(root, p);

            if (ctl) {
                g_auto(GStrv) w = g_strsplit(ctl, " ", -1);
                st->cgroup2_cpu = g_strv_contains((const char *const *) w, "cpu") ? RV_TRI_YES : RV_TRI_NO;
            }
        }
    }
    st->config_rt_group_sched = read_config_rt_group_sched(root, st->kernel_release);
}

int
rv_host_state_load(RvRoot *root, unsigned nr_cpu_ids, RvHostState **ret, GError **error)
{
    g_autoptr(RvHostState) st = g_new0(RvHostState, 1);
    RvStateInt smt_active = { 0 }, rt_flag = { 0 };

    (void) error;
    st->problems = g_ptr_array_new_with_free_func(g_free);
    read_cpus(st, root, SYSCPU "/possible", 0, false, &st->possible);
    if (!nr_cpu_ids && st->possible.known)
        nr_cpu_ids = (unsigned) (rv_cpuset_last(&st->possible.set) + 1);
    read_cpus(st, root, SYSCPU "/present", nr_cpu_ids, false, &st->present);
    read_cpus(st, root, SYSCPU "/online", nr_cpu_ids, false, &st->online);
    read_cpus(st, root, SYSCPU "/offline", nr_cpu_ids, false, &st->offline);
    read_cpus(st, root, SYSCPU "/isolated", nr_cpu_ids, false, &st->isolated);
    read_cpus(st, root, SYSCPU "/nohz_full", nr_cpu_ids, false, &st->nohz_full);
    read_cpus(st, root, "/sys/devices/virtual/workqueue/cpumask", 0, true, &st->workqueue_cpumask);

    st->smt_control = read_str(root, SYSCPU "/smt/control");
    read_int_range(st, root, SYSCPU "/smt/active", 0, 1, &smt_active);
    st->smt_active = smt_active.known ? (smt_active.value ? RV_TRI_YES : RV_TRI_NO) : RV_TRI_UNKNOWN;
    if (st->smt_control) {
        static const char *const ok[] = { "on", "off", "forceoff", "notsupported", "notimplemented" };
        bool found = false;

        for (size_t i = 0; i < G_N_ELEMENTS(ok); i++)
            found = found || strcmp(ok[i], st->smt_control) == 0;
        /* Linux 6.6+ also accepts a thread count ("2") */
        if (!found && !g_ascii_isdigit(st->smt_control[0])) {
            add_problem(st, root, SYSCPU "/smt/control", st->smt_control, "not an SMT control state");
            g_clear_pointer(&st->smt_control, g_free);
        }
    }

    if (rv_host_root_is_live(root)) {
        st->coresched = rv_host_coresched_probe(&st->coresched_errno);
        st->coresched_source = g_strdup("prctl(PR_SCHED_CORE, PR_SCHED_CORE_GET)");
    } else {
        g_autofree char *rec = read_str(root, "/rtvirt/coresched");

        if (rec) {
            st->coresched_source = g_strdup("fixture record /rtvirt/coresched");
            if (!strcmp(rec, "usable"))
                st->coresched = RV_CORESCHED_USABLE;
            else if (!strcmp(rec, "ENODEV"))
                st->coresched = RV_CORESCHED_NO_SMT, st->coresched_errno = ENODEV;
            else if (!strcmp(rec, "EINVAL"))
                st->coresched = RV_CORESCHED_UNSUPPORTED, st->coresched_errno = EINVAL;
            else
                add_problem(st, root, "/rtvirt/coresched", rec, "expected usable, ENODEV or EINVAL");
        }
    }

    st->kernel_release = read_str(root, "/proc/sys/kernel/osrelease");
    st->kernel_version = read_str(root, "/proc/sys/kernel/version");
    read_int_range(st, root, "/sys/kernel/realtime", 0, 1, &rt_flag);
    st->preempt_rt = RV_TRI_UNKNOWN;
    if (rt_flag.known && rt_flag.value == 1)
        st->preempt_rt = RV_TRI_YES;
    if (st->kernel_version) {
        /* init/version-timestamp.c UTS_VERSION: "#1 SMP PREEMPT_RT ..." */
        g_auto(GStrv) w = g_strsplit(st->kernel_version, " ", -1);
        const char *model = "none";

        for (guint i = 0; w[i]; i++) {
            /* RT patch sets of 4.x kernels wrote "PREEMPT RT" (RHEL 8's
             * kernel-rt: "#1 SMP PREEMPT RT ...") */
            if (!strcmp(w[i], "PREEMPT_RT") || (!strcmp(w[i], "PREEMPT") && w[i + 1] && !strcmp(w[i + 1], "RT")))
                model = "PREEMPT_RT";
            else if (!strcmp(w[i], "PREEMPT_DYNAMIC") && strcmp(model, "PREEMPT_RT")) model = "PREEMPT_DYNAMIC";
            else if (!strcmp(w[i], "PREEMPT") && !strcmp(model, "none")) model = "PREEMPT";
        }
        st->preempt_model = g_strdup(model);
        if (st->preempt_rt == RV_TRI_UNKNOWN)
            st->preempt_rt = !strcmp(model, "PREEMPT_RT") ? RV_TRI_YES : RV_TRI_NO;
    }

    /* Documentation/scheduler/sched-rt-group.rst: -1 or 0..period, int */
    read_int_range(st, root, "/proc/sys/kernel/sched_rt_runtime_us", -1, G_MAXINT32,
                   &st->rt_runtime_us);
    read_int_range(st, root, "/proc/sys/kernel/sched_rt_period_us", 1, G_MAXINT32,
                   &st->rt_period_us);

    load_rt_group(st, root);

    /* Documentation/admin-guide/sysctl/kernel.rst: timer_migration 0/1,
     * numa_balancing 0..3 (bit 1: memory tiering), nmi_watchdog 0/1;
     * Documentation/admin-guide/mm/ksm.rst: run 0, 1 or 2 */
    read_int_range(st, root, "/proc/sys/kernel/timer_migration", 0, 1, &st->timer_migration);
    read_int_range(st, root, "/proc/sys/kernel/numa_balancing", 0, 3, &st->numa_balancing);
    read_int_range(st, root, "/proc/sys/kernel/nmi_watchdog", 0, 1, &st->nmi_watchdog);
    /* Documentation/admin-guide/sysctl/kernel.rst: watchdog, soft_watchdog
     * 0/1, watchdog_cpumask a cpulist */
    read_int_range(st, root, "/proc/sys/kernel/watchdog", 0, 1, &st->watchdog);
    read_int_range(st, root, "/proc/sys/kernel/soft_watchdog", 0, 1, &st->soft_watchdog);
    read_cpus(st, root, "/proc/sys/kernel/watchdog_cpumask", nr_cpu_ids, false, &st->watchdog_cpumask);
    st->clocksource = read_str(root, "/sys/devices/system/clocksource/clocksource0/current_clocksource");
    st->thp_enabled = read_selected(st, root, "/sys/kernel/mm/transparent_hugepage/enabled",
                                    (const char *const[]) { "always", "madvise", "never", NULL });
    st->thp_defrag = read_selected(st, root, "/sys/kernel/mm/transparent_hugepage/defrag",
                                   (const char *const[]) { "always", "defer", "defer+madvise",
                                                           "madvise", "never", NULL });
    read_int_range(st, root, "/sys/kernel/mm/ksm/run", 0, 2, &st->ksm_run);
    st->cpuidle_driver = read_str(root, SYSCPU "/cpuidle/current_driver");
    st->cpuidle_governor = read_str(root, SYSCPU "/cpuidle/current_governor_ro");
    if (!st->cpuidle_governor)
        st->cpuidle_governor = read_str(root, SYSCPU "/cpuidle/current_governor");
    load_power(st, root);
    load_mce(st, root);
    load_rps(st, root);
    read_pm_qos(st, root);

    *ret = g_steal_pointer(&st);
    return 0;
}

static void
knob_free(gpointer data)
{
    RvStateKnob *k = data;

    g_free(k->key);
    g_free(k->path);
    g_free(k->value);
    g_free(k);
}

void
rv_host_state_load_knobs(RvHostState *st, RvRoot *root, const char *const *sysctls,
                         const char *const *module_params)
{
    g_clear_pointer(&st->sysctls, g_ptr_array_unref);
    g_clear_pointer(&st->module_params, g_ptr_array_unref);
    st->sysctls = g_ptr_array_new_with_free_func(knob_free);
    st->module_params = g_ptr_array_new_with_free_func(knob_free);
    st->sys_module = rv_host_root_exists(root, "/sys/module");
    for (size_t i = 0; sysctls && sysctls[i]; i++) {
        RvStateKnob *k = g_new0(RvStateKnob, 1);
        g_autofree char *rel = g_strdelimit(g_strdup(sysctls[i]), ".", '/');

        k->key = g_strdup(sysctls[i]);
        k->path = g_strdup_printf("/proc/sys/%s", rel);
        k->value = read_str(root, k->path);
        g_ptr_array_add(st->sysctls, k);
    }
    for (size_t i = 0; module_params && module_params[i]; i++) {
        RvStateKnob *k = g_new0(RvStateKnob, 1);
        const char *dot = strchr(module_params[i], '.');
        g_autofree char *mod = dot ? g_strndup(module_params[i], dot - module_params[i])
                                   : g_strdup(module_params[i]);
        g_autofree char *mdir = g_strdup_printf("/sys/module/%s", mod);

        k->key = g_strdup(module_params[i]);
        k->path = g_strdup_printf("%s/parameters/%s", mdir, dot ? dot + 1 : "");
        k->module_loaded = rv_host_root_exists(root, mdir);
        k->value = k->module_loaded && dot ? read_str(root, k->path) : NULL;
        g_ptr_array_add(st->module_params, k);
    }
}
