/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * host/profile/profile.c: host profile loader on util/ini.h.  See host/profile/profile.h for
 * the sections and keys and where each knob comes from.
 */
#include <errno.h>
#include <stdarg.h>
#include <sched.h>
#include <string.h>

#include "host/profile/profile.h"
#include "util/error.h"
#include "util/ini.h"

static const char * const smt_names[] = { "keep", "off-boot", "off-runtime", "idle-siblings", NULL };
static const char * const coresched_names[] = { "off", "preferred", "required", NULL };
static const char * const thp_names[] = { "always", "madvise", "never", NULL };
/* drivers/cpufreq/cpufreq_NAME.c, Documentation/admin-guide/pm/cpufreq.rst */
const char * const rv_host_cpufreq_governors[] = { "performance", "powersave", "userspace",
                                                   "ondemand", "conservative", "schedutil",
                                                   NULL };
static const char * const libvirt_sched_core_names[] = { "none", "vcpus", "emulator", "full", NULL };

const char *
rv_host_smt_policy_name(RvHostSmtPolicy p)
{
    return p >= 0 && p < (int) G_N_ELEMENTS(smt_names) - 1 ? smt_names[p] : "unset";
}

const char *
rv_host_coresched_name(RvHostCoreSched c)
{
    return c >= 0 && c < (int) G_N_ELEMENTS(coresched_names) - 1 ? coresched_names[c] : "unset";
}

const char *
rv_host_thp_name(RvHostThp t)
{
    return t >= 0 && t < (int) G_N_ELEMENTS(thp_names) - 1 ? thp_names[t] : "unset";
}

static void
kthread_free(gpointer p)
{
    RvHostKthreadPrio *k = p;

    g_free(k->name);
    g_free(k->file);
    g_free(k);
}

static void
knob_free(gpointer p)
{
    RvHostKnob *k = p;

    g_free(k->key);
    g_free(k->value);
    g_free(k->file);
    g_free(k);
}

void
rv_host_profile_free(RvHostProfile *p)
{
    if (!p)
        return;
    g_free(p->path);
    g_free(p->name);
    g_free(p->summary);
    if (p->files)
        g_ptr_array_unref(p->files);
    g_strfreev(p->isolcpus_flags);
    g_free(p->nohz);
    g_strfreev(p->extra_bootargs);
    g_free(p->governor);
    if (p->kthreads)
        g_ptr_array_unref(p->kthreads);
    if (p->sysctls)
        g_ptr_array_unref(p->sysctls);
    if (p->module_params)
        g_ptr_array_unref(p->module_params);
    g_free(p->qemu_conf);
    g_free(p->libvirt_sched_core);
    g_strfreev(p->libvirt_cgroup_controllers);
    g_free(p->isolated_at);
    g_free(p->housekeeping_at);
    g_free(p->workqueue_at);
    g_free(p->irq_at);
    g_free(p->origin);
    if (p->notes)
        g_ptr_array_unref(p->notes);
    g_free(p);
}

RvHostProfile *
rv_host_profile_new(const char *path)
{
    RvHostProfile *p = g_new0(RvHostProfile, 1);
    g_autofree char *base = g_path_get_basename(path);

    p->path = g_strdup(path);
    p->name = g_str_has_suffix(base, ".ini") ? g_strndup(base, strlen(base) - 4)
                                             : g_strdup(base);
    p->files = g_ptr_array_new_with_free_func(g_free);
    p->housekeeping_cores_per_socket = 1;
    p->smt = RV_HOST_SMT_UNSET;
    p->core_scheduling = RV_HOST_CORESCHED_UNSET;
    p->isolcpus = RV_HOST_TRI_UNSET;
    p->nohz_full = RV_HOST_TRI_UNSET;
    p->rcu_nocbs = RV_HOST_TRI_UNSET;
    p->rcu_nocb_poll = RV_HOST_TRI_UNSET;
    p->irqaffinity = RV_HOST_TRI_UNSET;
    p->skew_tick = RV_HOST_TRI_UNSET;
    p->idle_cpus = RV_HOST_CPUSEL_ISOLATED;
    p->kthreads = g_ptr_array_new_with_free_func(kthread_free);
    p->thp = RV_HOST_THP_UNSET;
    p->workqueue_cpumask = RV_HOST_CPUSEL_UNSET;
    p->irq_affinity = RV_HOST_CPUSEL_UNSET;
    p->sysctls = g_ptr_array_new_with_free_func(knob_free);
    p->module_params = g_ptr_array_new_with_free_func(knob_free);
    p->qemu_conf = g_strdup("/etc/libvirt/qemu.conf");
    p->notes = g_ptr_array_new_with_free_func(knob_free);
    return p;
}

void
rv_host_profile_add_note(RvHostProfile *p, const char *kind, const char *file, unsigned line,
                         const char *fmt, ...)
{
    RvHostKnob *k = g_new0(RvHostKnob, 1);
    va_list ap;

    va_start(ap, fmt);
    k->value = g_strdup_vprintf(fmt, ap);
    va_end(ap);
    k->key = g_strdup(kind);
    k->file = g_strdup(file);
    k->line = line;
    g_ptr_array_add(p->notes, k);
}

static int
get_tristate(RvIni *ini, const char *section, const char *key, RvHostTristate *ret,
             GError **error)
{
    bool b = false;
    int r;

    if (!rv_ini_lookup(ini, section, key))
        return 0;
    r = rv_ini_get_bool(ini, section, key, &b, error);
    if (r < 0)
        return r;
    *ret = b ? RV_HOST_TRI_YES : RV_HOST_TRI_NO;
    return 0;
}

static int
get_opt_int(RvIni *ini, const char *section, const char *key, gint64 min, gint64 max,
            RvHostOptInt *ret, GError **error)
{
    gint64 v = 0;
    int r;

    if (!rv_ini_lookup(ini, section, key))
        return 0;
    r = rv_ini_get_int(ini, section, key, min, max, &v, error);
    if (r < 0)
        return r;
    ret->set = true;
    ret->value = v;
    return 0;
}

/* "N" (the last CPU) and "all" resolve against a host's CPUs
 * (Documentation/admin-guide/kernel-parameters.rst "cpu lists"); a profile
 * is loaded before it meets a host. */
#define N_HINT " ('N' and 'all' are only resolvable on a host: a profile names CPU numbers, " \
               "e.g. 1-3 instead of 1-N)"

static bool
needs_host(const char *value)
{
    return strchr(value, 'N') || strstr(value, "all");
}

/* [cpus] isolated/housekeeping: a cpulist, with the hint above for N. */
static int
get_cpus_list(RvIni *ini, unsigned nr_cpu_ids, const char *key, RvCpuSet *ret, char **ret_at,
              GError **error)
{
    const RvIniEntry *e = rv_ini_lookup(ini, "cpus", key);
    g_autoptr(GError) local = NULL;
    RvCpuSet set;

    if (rv_cpulist_parse(e->value, nr_cpu_ids, &set, &local) < 0)
        return rv_ini_entry_error(e, error, "in [cpus] %s: %s%s", key, local->message,
                                  !nr_cpu_ids && needs_host(e->value) ? N_HINT : "");
    *ret = set;
    g_free(*ret_at);
    *ret_at = g_strdup_printf("%s:%u", e->file, e->line);
    return 0;
}

/* One of the words allowed by @allowed (1 << RvHostCpuSel), or a cpulist
 * when RV_HOST_CPUSEL_LIST is allowed. */
static int
get_cpusel(RvIni *ini, unsigned nr_cpu_ids, const char *section, const char *key,
           unsigned allowed, RvHostCpuSel *ret_sel, RvCpuSet *ret_set, char **ret_at,
           GError **error)
{
    static const char * const words[] = { "housekeeping", "isolated", "all" };
    const RvIniEntry *e = rv_ini_lookup(ini, section, key);
    g_autoptr(GError) local = NULL;
    g_autoptr(GString) expect = g_string_new(NULL);
    RvCpuSet set;

    if (!e)
        return 0;
    for (int i = 0; i < (int) G_N_ELEMENTS(words); i++) {
        if (!(allowed & (1u << i)))
            continue;
        if (strcmp(e->value, words[i]) == 0) {
            *ret_sel = i;
            return 0;
        }
        g_string_append_printf(expect, "%s%s", expect->len ? ", " : "", words[i]);
    }
    if (!(allowed & (1u << RV_HOST_CPUSEL_LIST)))
        return rv_ini_entry_error(e, error, "invalid %s '%s' in [%s]: expected %s",
                                  e->key, e->value, e->section, expect->str);
    if (rv_cpulist_parse(e->value, nr_cpu_ids, &set, &local) < 0)
        return rv_ini_entry_error(e, error,
                                  "invalid %s '%s' in [%s]: expected %s or a cpulist: %s%s",
                                  e->key, e->value, e->section, expect->str, local->message,
                                  !nr_cpu_ids && needs_host(e->value) ? N_HINT : "");
    if (rv_cpuset_is_empty(&set))
        return rv_ini_entry_error(e, error, "invalid %s '%s' in [%s]: empty cpulist",
                                  e->key, e->value, e->section);
    *ret_sel = RV_HOST_CPUSEL_LIST;
    *ret_set = set;
    g_free(*ret_at);
    *ret_at = g_strdup_printf("%s:%u", e->file, e->line);
    return 0;
}

/* [cpus] KEY = N, a per-socket core count (1-4096), into *ret_n; 0 where
 * the key is absent or an explicit isolated/housekeeping cpulist of an
 * including profile overrides it (both in one file contradict each
 * other: an error). */
static int
get_cores_per_socket(RvIni *ini, const RvHostProfile *p, const char *key, unsigned *ret_n,
                     GError **error)
{
    const RvIniEntry *e = rv_ini_lookup(ini, "cpus", key);
    gint64 n = 0;
    int r;

    *ret_n = 0;
    if (!e)
        return 0;
    if (p->has_isolated || p->has_housekeeping) {
        const RvIniEntry *list = rv_ini_lookup(ini, "cpus", p->has_isolated ? "isolated"
                                                                            : "housekeeping");

        if (strcmp(list->file, e->file) == 0)
            return rv_ini_entry_error(e, error, "%s and an explicit isolated/housekeeping "
                                      "cpulist exclude each other in [cpus]", key);
        return 0;
    }
    r = rv_ini_get_int(ini, "cpus", key, 1, 4096, &n, error);
    if (r < 0)
        return r;
    *ret_n = (unsigned) n;
    return 0;
}

static int
load_cpus(RvIni *ini, RvHostProfile *p, GError **error)
{
    const RvIniEntry *hk_cores, *iso_cores;
    int r, v;

    if (rv_ini_lookup(ini, "cpus", "isolated")) {
        r = get_cpus_list(ini, p->nr_cpu_ids, "isolated", &p->isolated, &p->isolated_at, error);
        if (r < 0)
            return r;
        p->has_isolated = true;
    }
    if (rv_ini_lookup(ini, "cpus", "housekeeping")) {
        r = get_cpus_list(ini, p->nr_cpu_ids, "housekeeping", &p->housekeeping, &p->housekeeping_at, error);
        if (r < 0)
            return r;
        p->has_housekeeping = true;
        if (rv_cpuset_is_empty(&p->housekeeping))
            return rv_ini_entry_error(rv_ini_lookup(ini, "cpus", "housekeeping"), error,
                                      "invalid housekeeping '' in [cpus]: the kernel needs "
                                      "at least one housekeeping CPU");
    }
    if (p->has_isolated && p->has_housekeeping &&
        rv_cpuset_intersects(&p->isolated, &p->housekeeping)) {
        RvCpuSet both;
        g_autofree char *s = NULL;

        rv_cpuset_and(&both, &p->isolated, &p->housekeeping);
        s = rv_cpulist_format(&both);
        return rv_ini_entry_error(rv_ini_lookup(ini, "cpus", "housekeeping"), error,
                                  "isolated and housekeeping overlap on CPUs %s in [cpus]", s);
    }
    iso_cores = rv_ini_lookup(ini, "cpus", "isolated_cores_per_socket");
    hk_cores = rv_ini_lookup(ini, "cpus", "housekeeping_cores_per_socket");
    if (iso_cores && hk_cores && strcmp(iso_cores->file, hk_cores->file) == 0)
        return rv_ini_entry_error(iso_cores, error,
                                  "isolated_cores_per_socket and housekeeping_cores_per_socket "
                                  "exclude each other in [cpus]");
    r = get_cores_per_socket(ini, p, "isolated_cores_per_socket", &p->isolated_cores_per_socket,
                             error);
    if (r < 0)
        return r;
    if (!p->isolated_cores_per_socket) {
        /* isolated_cores_per_socket overrides an included profile's
         * housekeeping_cores_per_socket */
        unsigned n = 0;

        r = get_cores_per_socket(ini, p, "housekeeping_cores_per_socket", &n, error);
        if (r < 0)
            return r;
        if (n)
            p->housekeeping_cores_per_socket = n;
    }
    v = p->smt;
    r = rv_ini_get_enum(ini, "cpus", "smt", smt_names, &v, error);
    if (r < 0)
        return r;
    p->smt = v;
    v = p->core_scheduling;
    r = rv_ini_get_enum(ini, "cpus", "core_scheduling", coresched_names, &v, error);
    if (r < 0)
        return r;
    p->core_scheduling = v;
    return 0;
}

/* isolcpus flags: kernel/sched/isolation.c housekeeping_isolcpus_setup(). */
static int
load_bootargs(RvIni *ini, RvHostProfile *p, GError **error)
{
    static const char * const flags[] = { "nohz", "domain", "managed_irq", NULL };
    const RvIniEntry *e;
    int r;

    if ((r = get_tristate(ini, "bootargs", "isolcpus", &p->isolcpus, error)) < 0 ||
        (r = get_tristate(ini, "bootargs", "nohz_full", &p->nohz_full, error)) < 0 ||
        (r = get_tristate(ini, "bootargs", "rcu_nocbs", &p->rcu_nocbs, error)) < 0 ||
        (r = get_tristate(ini, "bootargs", "rcu_nocb_poll", &p->rcu_nocb_poll, error)) < 0 ||
        (r = get_tristate(ini, "bootargs", "irqaffinity", &p->irqaffinity, error)) < 0 ||
        (r = get_tristate(ini, "bootargs", "skew_tick", &p->skew_tick, error)) < 0)
        return r;

    e = rv_ini_lookup(ini, "bootargs", "isolcpus_flags");
    if (e) {
        r = rv_ini_get_strv(ini, "bootargs", "isolcpus_flags", &p->isolcpus_flags, error);
        if (r < 0)
            return r;
        for (int i = 0; p->isolcpus_flags[i]; i++)
            if (!g_strv_contains(flags, p->isolcpus_flags[i]))
                return rv_ini_entry_error(e, error,
                                          "invalid isolcpus_flags '%s' in [bootargs]: unknown "
                                          "flag '%s', expected nohz, domain, managed_irq",
                                          e->value, p->isolcpus_flags[i]);
    }
    e = rv_ini_lookup(ini, "bootargs", "nohz");
    if (e) {
        if (strcmp(e->value, "on") != 0 && strcmp(e->value, "off") != 0)
            return rv_ini_entry_error(e, error, "invalid nohz '%s' in [bootargs]: expected on or off",
                                      e->value);
        p->nohz = g_strdup(e->value);
    }
    e = rv_ini_lookup(ini, "bootargs", "extra");
    if (e) {
        g_auto(GStrv) words = g_strsplit_set(e->value, " \t", -1);
        g_autoptr(GPtrArray) out = g_ptr_array_new_with_free_func(g_free);

        for (int i = 0; words[i]; i++) {
            if (!*words[i])
                continue;
            if (words[i][0] == '=' || g_str_has_suffix(words[i], "="))
                return rv_ini_entry_error(e, error,
                                          "invalid extra '%s' in [bootargs]: '%s' is not "
                                          "'name' or 'name=value'", e->value, words[i]);
            g_ptr_array_add(out, g_strdup(words[i]));
        }
        g_ptr_array_add(out, NULL);
        p->extra_bootargs = (char **) g_ptr_array_free(g_steal_pointer(&out), FALSE);
    }
    return 0;
}

static int
load_cpu(RvIni *ini, RvHostProfile *p, GError **error)
{
    const RvIniEntry *e = rv_ini_lookup(ini, "cpu", "governor");
    int r;

    if (e) {
        for (const char *c = e->value; *c; c++)
            if (!g_ascii_isalnum(*c) && *c != '_' && *c != '-')
                return rv_ini_entry_error(e, error, "invalid governor '%s' in [cpu]: "
                                          "expected a cpufreq governor name", e->value);
        if (!*e->value)
            return rv_ini_entry_error(e, error, "invalid governor '' in [cpu]: empty");
        if (!g_strv_contains(rv_host_cpufreq_governors, e->value)) {
            g_autofree char *all = g_strjoinv(", ", (char **) rv_host_cpufreq_governors);

            return rv_ini_entry_error(e, error, "invalid governor '%s' in [cpu]: not a "
                                      "cpufreq governor of the kernel (%s)", e->value, all);
        }
        p->governor = g_strdup(e->value);
    }
    r = get_opt_int(ini, "cpu", "idle_max_latency_us", 0, 10000000, &p->idle_max_latency_us, error);
    if (r < 0)
        return r;
    return get_cpusel(ini, p->nr_cpu_ids, "cpu", "idle_cpus",
                      (1u << RV_HOST_CPUSEL_ISOLATED) | (1u << RV_HOST_CPUSEL_ALL),
                      &p->idle_cpus, NULL, NULL, error);
}

/* [kthreads] NAME = fifo:PRIO | rr:PRIO | other (chrt(1) words). */
static int
load_kthreads(RvIni *ini, RvHostProfile *p, GError **error)
{
    g_autoptr(GPtrArray) entries = rv_ini_entries(ini, "kthreads");

    for (guint i = 0; i < entries->len; i++) {
        const RvIniEntry *e = rv_ini_lookup(ini, "kthreads", ((RvIniEntry *) entries->pdata[i])->key);
        g_autofree char *pol = g_ascii_strdown(e->value, -1);
        char *colon = strchr(pol, ':');
        RvHostKthreadPrio *k;
        int policy;
        gint64 prio = 0;

        if (colon)
            *colon = '\0';
        if (strcmp(pol, "fifo") == 0)
            policy = SCHED_FIFO;
        else if (strcmp(pol, "rr") == 0)
            policy = SCHED_RR;
        else if (strcmp(pol, "other") == 0)
            policy = SCHED_OTHER;
        else
            return rv_ini_entry_error(e, error, "invalid %s '%s' in [kthreads]: expected "
                                      "fifo:PRIO, rr:PRIO or other", e->key, e->value);
        if (policy != SCHED_OTHER) {
            if (!colon || !g_ascii_string_to_signed(colon + 1, 10, 1, 99, &prio, NULL))
                return rv_ini_entry_error(e, error, "invalid %s '%s' in [kthreads]: expected "
                                          "a priority from 1 to 99 after '%s:'",
                                          e->key, e->value, pol);
        } else if (colon) {
            return rv_ini_entry_error(e, error, "invalid %s '%s' in [kthreads]: SCHED_OTHER "
                                      "takes no priority", e->key, e->value);
        }
        k = g_new0(RvHostKthreadPrio, 1);
        k->name = g_strdup(e->key);
        k->policy = policy;
        k->priority = (int) prio;
        k->file = g_strdup(e->file);
        k->line = e->line;
        g_ptr_array_add(p->kthreads, k);
    }
    return 0;
}

#define HK_OR_LIST ((1u << RV_HOST_CPUSEL_HOUSEKEEPING) | (1u << RV_HOST_CPUSEL_LIST))

static int
load_sched_mm_kernel(RvIni *ini, RvHostProfile *p, GError **error)
{
    int r, v;

    /* sched_rt_runtime_us: -1 or 0..sched_rt_period_us (max 2^31-1);
     * Documentation/scheduler/sched-rt-group.rst */
    if ((r = get_opt_int(ini, "sched", "rt_runtime_us", -1, G_MAXINT32, &p->rt_runtime_us, error)) < 0 ||
        (r = get_opt_int(ini, "sched", "timer_migration", 0, 1, &p->timer_migration, error)) < 0 ||
        (r = get_opt_int(ini, "sched", "numa_balancing", 0, 1, &p->numa_balancing, error)) < 0 ||
        (r = get_opt_int(ini, "mm", "ksm_run", 0, 2, &p->ksm_run, error)) < 0 ||
        (r = get_opt_int(ini, "kernel", "nmi_watchdog", 0, 1, &p->nmi_watchdog, error)) < 0 ||
        (r = get_opt_int(ini, "kernel", "mce_ignore_ce", 0, 1, &p->mce_ignore_ce, error)) < 0)
        return r;
    v = p->thp;
    r = rv_ini_get_enum(ini, "mm", "transparent_hugepage", thp_names, &v, error);
    if (r < 0)
        return r;
    p->thp = v;
    r = get_cpusel(ini, p->nr_cpu_ids, "kernel", "workqueue_cpumask", HK_OR_LIST, &p->workqueue_cpumask,
                   &p->workqueue_cpus, &p->workqueue_at, error);
    if (r < 0)
        return r;
    return get_cpusel(ini, p->nr_cpu_ids, "kernel", "irq_affinity", HK_OR_LIST, &p->irq_affinity,
                      &p->irq_cpus, &p->irq_at, error);
}

/* Sysctls whose /proc/sys file takes integers only (kernel proc_dointvec*,
 * proc_doulongvec*, proc_dou8vec_minmax handlers): all of vm.* (mm/,
 * Documentation/admin-guide/sysctl/vm.rst) and these
 * (Documentation/admin-guide/sysctl/kernel.rst, net.rst, ip-sysctl.rst). */
static const char * const numeric_sysctls[] = {
    "kernel.hung_task_timeout_secs", "kernel.hung_task_panic", "kernel.hung_task_warnings",
    "kernel.hung_task_check_count", "kernel.sched_rt_runtime_us", "kernel.sched_rt_period_us",
    "kernel.sched_rr_timeslice_ms", "kernel.timer_migration", "kernel.numa_balancing",
    "kernel.nmi_watchdog", "kernel.watchdog", "kernel.soft_watchdog", "kernel.watchdog_thresh",
    "kernel.softlockup_panic", "kernel.panic", "kernel.panic_on_oops", "kernel.sched_autogroup_enabled",
    "kernel.sched_schedstats", "kernel.perf_event_paranoid", "kernel.perf_event_max_sample_rate",
    "kernel.perf_cpu_time_max_percent", "kernel.printk_ratelimit", "kernel.randomize_va_space",
    "kernel.sysrq", "kernel.threads-max", "kernel.pid_max", "kernel.shmmax", "kernel.shmall",
    "kernel.shmmni", "kernel.msgmax", "kernel.msgmnb", "kernel.msgmni",
    "net.core.busy_read", "net.core.busy_poll", "net.core.netdev_budget",
    "net.core.netdev_budget_usecs", "net.core.netdev_max_backlog", "net.core.rmem_max",
    "net.core.wmem_max", "net.core.rmem_default", "net.core.wmem_default",
    "net.core.somaxconn", "net.core.dev_weight", "net.ipv4.tcp_fastopen",
    "net.ipv4.tcp_low_latency", "net.ipv4.tcp_timestamps", "net.ipv4.tcp_sack",
    "net.ipv4.ip_forward", "net.ipv4.tcp_fin_timeout", "net.ipv4.tcp_max_syn_backlog",
    "net.ipv4.tcp_tw_reuse", "net.ipv4.tcp_slow_start_after_idle",
    NULL
};

static bool
is_integer_words(const char *value)
{
    g_auto(GStrv) words = g_strsplit_set(value, " \t", -1);
    bool any = false;

    for (int i = 0; words[i]; i++) {
        gint64 v;

        if (!*words[i])
            continue;
        if (!g_ascii_string_to_signed(words[i], 10, G_MININT64, G_MAXINT64, &v, NULL))
            return false;
        any = true;
    }
    return any;
}

/* A [sysctl] or [modules] value is written as it is into one /proc/sys or
 * /sys/module file: no sysctl or module parameter takes control characters
 * (a newline would end the write early); the numeric sysctls above take
 * (whitespace-separated) decimal integers only. */
static int
check_knob_value(const RvIniEntry *e, bool module, GError **error)
{
    for (const char *c = e->value; *c; c++)
        if (g_ascii_iscntrl(*c)) {
            g_autofree char *esc = g_strescape(e->value, NULL);

            return rv_ini_entry_error(e, error, "invalid %s '%s' in [%s]: control character "
                                      "in the value", e->key, esc, module ? "modules" : "sysctl");
        }
    if (!module && (g_str_has_prefix(e->key, "vm.") || g_strv_contains(numeric_sysctls, e->key)) &&
        !is_integer_words(e->value)) {
        g_autofree char *file = g_strdelimit(g_strdup(e->key), ".", '/');

        return rv_ini_entry_error(e, error, "invalid %s '%s' in [sysctl]: /proc/sys/%s takes "
                                  "decimal integers only", e->key, e->value, file);
    }
    return 0;
}

/* [sysctl] and [modules]: free-form keys, validated by shape. */
static int
load_knobs(RvIni *ini, const char *section, GPtrArray *out, GError **error)
{
    g_autoptr(GPtrArray) entries = rv_ini_entries(ini, section);
    bool modules = strcmp(section, "modules") == 0;

    for (guint i = 0; i < entries->len; i++) {
        const RvIniEntry *e = rv_ini_lookup(ini, section, ((RvIniEntry *) entries->pdata[i])->key);
        const char *dot = strchr(e->key, '.');
        RvHostKnob *k;

        if (!dot || dot == e->key || !dot[1] || (modules && strchr(dot + 1, '.')) ||
            strchr(e->key, ':') || strstr(e->key, ".."))
            return rv_ini_entry_error(e, error, "invalid key '%s' in [%s]: expected %s",
                                      e->key, section,
                                      modules ? "MODULE.PARAMETER (e.g. kvm.nx_huge_pages)"
                                              : "a sysctl name with dots (e.g. vm.stat_interval)");
        if (!*e->value)
            return rv_ini_entry_error(e, error, "invalid %s '' in [%s]: empty value", e->key,
                                      section);
        if (check_knob_value(e, modules, error) < 0)
            return -EINVAL;
        k = g_new0(RvHostKnob, 1);
        k->key = g_strdup(e->key);
        k->value = g_strdup(e->value);
        k->file = g_strdup(e->file);
        k->line = e->line;
        g_ptr_array_add(out, k);
    }
    return 0;
}

static int
load_libvirt(RvIni *ini, RvHostProfile *p, GError **error)
{
    const RvIniEntry *e;
    int r, v = -1;

    e = rv_ini_lookup(ini, "libvirt", "qemu_conf");
    if (e) {
        if (!g_path_is_absolute(e->value))
            return rv_ini_entry_error(e, error, "invalid qemu_conf '%s' in [libvirt]: "
                                      "expected an absolute path", e->value);
        g_free(p->qemu_conf);
        p->qemu_conf = g_strdup(e->value);
    }
    r = rv_ini_get_enum(ini, "libvirt", "sched_core", libvirt_sched_core_names, &v, error);
    if (r < 0)
        return r;
    if (v >= 0)
        p->libvirt_sched_core = g_strdup(libvirt_sched_core_names[v]);
    /* qemu.conf cgroup_controllers: libvirt's controller names */
    e = rv_ini_lookup(ini, "libvirt", "cgroup_controllers");
    if (e) {
        static const char * const known[] = { "cpu", "cpuacct", "cpuset", "memory", "devices",
                                              "freezer", "blkio", "net_cls", "perf_event",
                                              "name=systemd", NULL };
        r = rv_ini_get_strv(ini, "libvirt", "cgroup_controllers",
                            &p->libvirt_cgroup_controllers, error);
        if (r < 0)
            return r;
        for (int i = 0; p->libvirt_cgroup_controllers[i]; i++)
            if (!g_strv_contains(known, p->libvirt_cgroup_controllers[i]))
                return rv_ini_entry_error(e, error, "invalid cgroup_controllers '%s' in "
                                          "[libvirt]: unknown controller '%s'", e->value,
                                          p->libvirt_cgroup_controllers[i]);
    }
    return 0;
}

static int
profile_from_ini(RvIni *ini, const char *path, unsigned nr_cpu_ids, RvHostProfile **ret,
                 GError **error)
{
    static const char * const sections[] = { "main", "cpus", "bootargs", "cpu", "kthreads",
                                             "sched", "mm", "kernel", "sysctl", "modules",
                                             "libvirt", NULL };
    g_autoptr(RvHostProfile) p = rv_host_profile_new(path);
    GPtrArray *files = rv_ini_files(ini);
    const char *summary;
    int r;

    p->nr_cpu_ids = nr_cpu_ids;
    for (guint i = 0; i < files->len; i++)
        g_ptr_array_add(p->files, g_strdup(files->pdata[i]));
    summary = rv_ini_get(ini, "main", "summary");
    p->summary = g_strdup(summary);

    if ((r = load_cpus(ini, p, error)) < 0 ||
        (r = load_bootargs(ini, p, error)) < 0 ||
        (r = load_cpu(ini, p, error)) < 0 ||
        (r = load_kthreads(ini, p, error)) < 0 ||
        (r = load_sched_mm_kernel(ini, p, error)) < 0 ||
        (r = load_knobs(ini, "sysctl", p->sysctls, error)) < 0 ||
        (r = load_knobs(ini, "modules", p->module_params, error)) < 0 ||
        (r = load_libvirt(ini, p, error)) < 0 ||
        (r = rv_ini_check_unused(ini, sections, error)) < 0)
        return r;

    *ret = g_steal_pointer(&p);
    return 0;
}

int
rv_host_profile_load(const char *path, RvHostProfile **ret, GError **error)
{
    g_autoptr(RvIni) ini = NULL;
    int r = rv_ini_load(path, &ini, error);

    if (r < 0)
        return r;
    return profile_from_ini(ini, path, 0, ret, error);
}

int
rv_host_profile_load_host(const char *path, unsigned nr_cpu_ids, RvHostProfile **ret,
                          GError **error)
{
    g_autoptr(RvIni) ini = NULL;
    int r = rv_ini_load(path, &ini, error);

    if (r < 0)
        return r;
    return profile_from_ini(ini, path, nr_cpu_ids, ret, error);
}

int
rv_host_profile_load_data(const char *name, const char *text, RvHostProfile **ret,
                          GError **error)
{
    g_autoptr(RvIni) ini = NULL;
    int r = rv_ini_load_data(name, text, &ini, error);

    if (r < 0)
        return r;
    return profile_from_ini(ini, name, 0, ret, error);
}

int
rv_host_profile_resolve_partition(const RvHostProfile *p, const RvCpuSet *online,
                                  RvCpuSet *ret_isolated, RvCpuSet *ret_housekeeping,
                                  GError **error)
{
    RvCpuSet iso, hk, extra;

    if (!p->has_isolated && !p->has_housekeeping)
        return -ENODATA;
    if (p->has_isolated)
        iso = p->isolated;
    else
        rv_cpuset_andnot(&iso, online, &p->housekeeping);
    if (p->has_housekeeping)
        hk = p->housekeeping;
    else
        rv_cpuset_andnot(&hk, online, &p->isolated);

    rv_cpuset_or(&extra, &iso, &hk);
    rv_cpuset_andnot(&extra, &extra, online);
    if (!rv_cpuset_is_empty(&extra)) {
        g_autofree char *s = rv_cpulist_format(&extra);
        return rv_error_set(error, RV_ERROR_INVALID, EINVAL,
                            "%s: [cpus] names CPUs %s that are not online on this host",
                            p->path, s);
    }
    if (rv_cpuset_is_empty(&hk))
        return rv_error_set(error, RV_ERROR_INVALID, EINVAL,
                            "%s: [cpus] leaves no housekeeping CPU on this host", p->path);
    *ret_isolated = iso;
    *ret_housekeeping = hk;
    return 0;
}

static int
check_list(const char *at, const char *what, const RvCpuSet *set, const RvCpuSet *online,
           const char *path, GError **error)
{
    RvCpuSet extra;
    g_autofree char *s = NULL, *o = NULL;

    rv_cpuset_andnot(&extra, set, online);
    if (rv_cpuset_is_empty(&extra))
        return 0;
    s = rv_cpulist_format(&extra);
    o = rv_cpulist_format(online);
    return rv_error_set(error, RV_ERROR_INVALID, EINVAL,
                        "%s: %s names CPU%s %s that %s not online on this host (online: %s)",
                        at ? at : path, what, rv_cpuset_count(&extra) == 1 ? "" : "s", s,
                        rv_cpuset_count(&extra) == 1 ? "is" : "are", o);
}

int
rv_host_profile_check_host(const RvHostProfile *p, const RvCpuSet *online, GError **error)
{
    int r;

    if ((p->has_isolated &&
         (r = check_list(p->isolated_at, "[cpus] isolated", &p->isolated, online, p->path,
                         error)) < 0) ||
        (p->has_housekeeping &&
         (r = check_list(p->housekeeping_at, "[cpus] housekeeping", &p->housekeeping, online,
                         p->path, error)) < 0) ||
        (p->workqueue_cpumask == RV_HOST_CPUSEL_LIST &&
         (r = check_list(p->workqueue_at, "[kernel] workqueue_cpumask", &p->workqueue_cpus,
                         online, p->path, error)) < 0) ||
        (p->irq_affinity == RV_HOST_CPUSEL_LIST &&
         (r = check_list(p->irq_at, "[kernel] irq_affinity", &p->irq_cpus, online, p->path,
                         error)) < 0))
        return r;
    return 0;
}

static const char *
tri_name(RvHostTristate t)
{
    return t == RV_HOST_TRI_YES ? "yes" : "no";
}

static void
format_cpusel(GString *s, const char *key, RvHostCpuSel sel, const RvCpuSet *set)
{
    static const char * const names[] = { "housekeeping", "isolated", "all" };
    g_autofree char *l = NULL;

    if (sel == RV_HOST_CPUSEL_UNSET)
        return;
    if (sel == RV_HOST_CPUSEL_LIST) {
        l = rv_cpulist_format(set);
        g_string_append_printf(s, "%s = %s\n", key, l);
    } else {
        g_string_append_printf(s, "%s = %s\n", key, names[sel]);
    }
}

char *
rv_host_profile_format(const RvHostProfile *p)
{
    GString *s = g_string_new(NULL);
    struct { const char *key; RvHostTristate v; } tris[] = {
        { "bootargs.isolcpus", p->isolcpus }, { "bootargs.nohz_full", p->nohz_full },
        { "bootargs.rcu_nocbs", p->rcu_nocbs }, { "bootargs.rcu_nocb_poll", p->rcu_nocb_poll },
        { "bootargs.irqaffinity", p->irqaffinity }, { "bootargs.skew_tick", p->skew_tick },
    };
    struct { const char *key; const RvHostOptInt *v; } ints[] = {
        { "cpu.idle_max_latency_us", &p->idle_max_latency_us },
        { "sched.rt_runtime_us", &p->rt_runtime_us },
        { "sched.timer_migration", &p->timer_migration },
        { "sched.numa_balancing", &p->numa_balancing },
        { "mm.ksm_run", &p->ksm_run },
        { "kernel.nmi_watchdog", &p->nmi_watchdog },
        { "kernel.mce_ignore_ce", &p->mce_ignore_ce },
    };

    g_string_append_printf(s, "name = %s\n", p->name);
    if (p->summary)
        g_string_append_printf(s, "summary = %s\n", p->summary);
    if (p->has_isolated) {
        g_autofree char *l = rv_cpulist_format(&p->isolated);
        g_string_append_printf(s, "cpus.isolated = %s\n", l);
    }
    if (p->has_housekeeping) {
        g_autofree char *l = rv_cpulist_format(&p->housekeeping);
        g_string_append_printf(s, "cpus.housekeeping = %s\n", l);
    }
    if (!p->has_isolated && !p->has_housekeeping && p->isolated_cores_per_socket)
        g_string_append_printf(s, "cpus.isolated_cores_per_socket = %u\n",
                               p->isolated_cores_per_socket);
    else if (!p->has_isolated && !p->has_housekeeping)
        g_string_append_printf(s, "cpus.housekeeping_cores_per_socket = %u\n",
                               p->housekeeping_cores_per_socket);
    if (p->smt != RV_HOST_SMT_UNSET)
        g_string_append_printf(s, "cpus.smt = %s\n", rv_host_smt_policy_name(p->smt));
    if (p->core_scheduling != RV_HOST_CORESCHED_UNSET)
        g_string_append_printf(s, "cpus.core_scheduling = %s\n",
                               rv_host_coresched_name(p->core_scheduling));
    for (size_t i = 0; i < G_N_ELEMENTS(tris); i++)
        if (tris[i].v != RV_HOST_TRI_UNSET)
            g_string_append_printf(s, "%s = %s\n", tris[i].key, tri_name(tris[i].v));
    if (p->isolcpus_flags) {
        g_autofree char *j = g_strjoinv(",", p->isolcpus_flags);
        g_string_append_printf(s, "bootargs.isolcpus_flags = %s\n", j);
    }
    if (p->nohz)
        g_string_append_printf(s, "bootargs.nohz = %s\n", p->nohz);
    if (p->extra_bootargs) {
        g_autofree char *j = g_strjoinv(" ", p->extra_bootargs);
        g_string_append_printf(s, "bootargs.extra = %s\n", j);
    }
    if (p->governor)
        g_string_append_printf(s, "cpu.governor = %s\n", p->governor);
    for (size_t i = 0; i < G_N_ELEMENTS(ints); i++)
        if (ints[i].v->set)
            g_string_append_printf(s, "%s = %" G_GINT64_FORMAT "\n", ints[i].key,
                                   ints[i].v->value);
    if (p->idle_max_latency_us.set)
        format_cpusel(s, "cpu.idle_cpus", p->idle_cpus, NULL);
    for (guint i = 0; i < p->kthreads->len; i++) {
        const RvHostKthreadPrio *k = p->kthreads->pdata[i];

        if (k->policy == SCHED_OTHER)
            g_string_append_printf(s, "kthreads.%s = other\n", k->name);
        else
            g_string_append_printf(s, "kthreads.%s = %s:%d\n", k->name,
                                   k->policy == SCHED_FIFO ? "fifo" : "rr", k->priority);
    }
    if (p->thp != RV_HOST_THP_UNSET)
        g_string_append_printf(s, "mm.transparent_hugepage = %s\n", rv_host_thp_name(p->thp));
    format_cpusel(s, "kernel.workqueue_cpumask", p->workqueue_cpumask, &p->workqueue_cpus);
    format_cpusel(s, "kernel.irq_affinity", p->irq_affinity, &p->irq_cpus);
    for (guint i = 0; i < p->sysctls->len; i++) {
        const RvHostKnob *k = p->sysctls->pdata[i];
        g_string_append_printf(s, "sysctl.%s = %s\n", k->key, k->value);
    }
    for (guint i = 0; i < p->module_params->len; i++) {
        const RvHostKnob *k = p->module_params->pdata[i];
        g_string_append_printf(s, "modules.%s = %s\n", k->key, k->value);
    }
    g_string_append_printf(s, "libvirt.qemu_conf = %s\n", p->qemu_conf);
    if (p->libvirt_sched_core)
        g_string_append_printf(s, "libvirt.sched_core = %s\n", p->libvirt_sched_core);
    if (p->libvirt_cgroup_controllers) {
        g_autofree char *j = g_strjoinv(",", p->libvirt_cgroup_controllers);
        g_string_append_printf(s, "libvirt.cgroup_controllers = %s\n", j);
    }
    return g_string_free(s, FALSE);
}
