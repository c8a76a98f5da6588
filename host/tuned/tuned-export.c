/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * host/tuned/tuned-export.c: an rtvirt host profile written as a tuned profile
 * (`rtvirt host export-tuned`), the inverse of host/tuned/tuned.c's mapping, so
 * that rv_host_tuned_load() of the result is the same profile again.  See
 * host/tuned/tuned.h.
 */
#include <errno.h>
#include <sched.h>
#include <string.h>

#include "host/tune/bootargs.h"
#include "host/tuned/tuned.h"
#include "host/tuned/tuned-priv.h"
#include "util/error.h"
#include "util/ini.h"

typedef struct {
    RvIniWriter *w;
    GError **error;
    int r;
} Out;

static void
set(Out *o, const char *section, const char *key, const char *value)
{
    if (o->r == 0)
        o->r = rv_ini_writer_set(o->w, section, key, value, o->error);
}

static void G_GNUC_PRINTF(4, 5)
setf(Out *o, const char *section, const char *key, const char *fmt, ...)
{
    g_autofree char *v = NULL;
    va_list ap;

    va_start(ap, fmt);
    v = g_strdup_vprintf(fmt, ap);
    va_end(ap);
    set(o, section, key, v);
}

/* Boot arguments the profile implies only on rtvirt's side (from [cpu]):
 * tuned sets the governor and idle limit at runtime. */
static bool
derived_arg(const RvHostProfile *p, const char *arg)
{
    if (p->extra_bootargs && g_strv_contains((const char * const *) p->extra_bootargs, arg))
        return false;
    return g_str_has_prefix(arg, "cpufreq.default_governor=") ||
           g_str_has_prefix(arg, "intel_idle.max_cstate=") ||
           g_str_has_prefix(arg, "processor.max_cstate=") || strcmp(arg, "idle=poll") == 0;
}

/* Does @parent add nothing @p does not set? */
static bool
parent_fits(const RvHostProfile *p, const RvHostProfile *parent, GString *why)
{
    g_autoptr(GPtrArray) mine_order = g_ptr_array_new_with_free_func(g_free);
    g_autoptr(GPtrArray) order = g_ptr_array_new_with_free_func(g_free);
    g_autoptr(GHashTable) mine = rv_tuned_profile_knobs(p, mine_order);
    g_autoptr(GHashTable) theirs = rv_tuned_profile_knobs(parent, order);

    for (guint i = 0; i < order->len; i++) {
        const char *k = order->pdata[i];

        /* the parent's boot arguments are overridden as a whole */
        if (g_str_has_prefix(k, "bootarg "))
            continue;
        if (!g_hash_table_contains(mine, k))
            g_string_append_printf(why, "%s%s", why->len ? ", " : "", k);
    }
    if (parent->kthreads->len && !p->kthreads->len)
        g_string_append_printf(why, "%skernel threads", why->len ? ", " : "");
    return why->len == 0;
}

static void
write_variables(Out *o, const RvHostProfile *p, const RvHostPartition *part)
{
    g_autofree char *iso = rv_cpulist_format(&part->isolated);

    set(o, "variables", "isolated_cores", iso);
    if (!p->has_isolated && !p->has_housekeeping && p->isolated_cores_per_socket)
        setf(o, "variables", "rtvirt_isolated_cores_per_socket", "%u",
             p->isolated_cores_per_socket);
    else if (!p->has_isolated && !p->has_housekeeping)
        setf(o, "variables", "rtvirt_housekeeping_cores_per_socket", "%u",
             p->housekeeping_cores_per_socket);
    if (p->smt != RV_HOST_SMT_UNSET && p->smt != RV_HOST_SMT_OFF_BOOT)
        set(o, "variables", "rtvirt_smt", rv_host_smt_policy_name(p->smt));
    if (p->core_scheduling != RV_HOST_CORESCHED_UNSET)
        set(o, "variables", "rtvirt_core_scheduling", rv_host_coresched_name(p->core_scheduling));
    if (p->idle_max_latency_us.set && p->idle_cpus == RV_HOST_CPUSEL_ALL)
        set(o, "variables", "rtvirt_idle_cpus", "all");
    if (p->libvirt_sched_core)
        set(o, "variables", "rtvirt_libvirt_sched_core", p->libvirt_sched_core);
    if (p->libvirt_cgroup_controllers) {
        g_autofree char *j = g_strjoinv(",", p->libvirt_cgroup_controllers);
        set(o, "variables", "rtvirt_libvirt_cgroup_controllers", j);
    }
    if (strcmp(p->qemu_conf, "/etc/libvirt/qemu.conf") != 0)
        set(o, "variables", "rtvirt_qemu_conf", p->qemu_conf);
}

static int
write_bootloader(Out *o, const RvHostProfile *p, const RvHostPartition *part,
                 const RvTunedConf *parent)
{
    g_auto(GStrv) args = NULL;
    g_autoptr(GString) line = g_string_new("+");
    RvTunedUnit *u = parent ? rv_tuned_unit(parent, "bootloader") : NULL;

    if (rv_host_kargs_compute(p, part, &args, o->error) < 0)
        return -EINVAL;
    /* the parent's command line is replaced: its cmdline keys emptied */
    for (guint i = 0; u && i < u->opts->len; i++) {
        const RvTunedOpt *opt = u->opts->pdata[i];

        if (g_str_has_prefix(opt->key, "cmdline"))
            set(o, "bootloader", opt->key, "");
    }
    for (int i = 0; args[i]; i++)
        if (!derived_arg(p, args[i]))
            g_string_append_printf(line, "%s%s", line->len > 1 ? " " : "", args[i]);
    if (line->len > 1)
        set(o, "bootloader", "cmdline_rtvirt", line->str);
    return 0;
}

static void
write_runtime(Out *o, const RvHostProfile *p, const RvHostPartition *part, const RvTopology *topo)
{
    struct { const char *key; const RvHostOptInt *v; } sysctls[] = {
        { "kernel.sched_rt_runtime_us", &p->rt_runtime_us },
        { "kernel.timer_migration", &p->timer_migration },
        { "kernel.numa_balancing", &p->numa_balancing },
        { "kernel.nmi_watchdog", &p->nmi_watchdog },
    };
    static const char * const thp[] = { "always", "madvise", "never" };

    for (size_t i = 0; i < G_N_ELEMENTS(sysctls); i++)
        if (sysctls[i].v->set)
            setf(o, "sysctl", sysctls[i].key, "%" G_GINT64_FORMAT, sysctls[i].v->value);
    for (guint i = 0; i < p->sysctls->len; i++) {
        const RvHostKnob *k = p->sysctls->pdata[i];
        set(o, "sysctl", k->key, k->value);
    }
    if (p->ksm_run.set)
        setf(o, "sysfs", "/sys/kernel/mm/ksm/run", "%" G_GINT64_FORMAT, p->ksm_run.value);
    if (p->workqueue_cpumask != RV_HOST_CPUSEL_UNSET) {
        const RvCpuSet *s = p->workqueue_cpumask == RV_HOST_CPUSEL_LIST ? &p->workqueue_cpus
                                                                       : &part->housekeeping_online;
        g_autofree char *mask = rv_cpumask_format(s, topo->nr_cpu_ids);

        set(o, "sysfs", "/sys/devices/virtual/workqueue/cpumask", mask);
    }
    if (p->mce_ignore_ce.set)
        setf(o, "sysfs", "/sys/devices/system/machinecheck/machinecheck*/ignore_ce",
             "%" G_GINT64_FORMAT, p->mce_ignore_ce.value);
    if (p->thp != RV_HOST_THP_UNSET)
        set(o, "vm", "transparent_hugepages", thp[p->thp]);
    if (p->governor)
        set(o, "cpu", "governor", p->governor);
    if (p->idle_max_latency_us.set)
        setf(o, "cpu", "force_latency", "%" G_GINT64_FORMAT, p->idle_max_latency_us.value);
    for (guint i = 0; i < p->kthreads->len; i++) {
        const RvHostKthreadPrio *k = p->kthreads->pdata[i];
        g_autofree char *key = g_strdup_printf("group.%s", k->name);
        const char *pol = k->policy == SCHED_FIFO ? "f" : k->policy == SCHED_RR ? "r" : "o";

        setf(o, "scheduler", key, "0:%s:%d:*:^\\[%s", pol, k->priority, k->name);
    }
    if (p->irq_affinity != RV_HOST_CPUSEL_UNSET) {
        RvCpuSet banned;
        g_autofree char *l = NULL;

        if (p->irq_affinity == RV_HOST_CPUSEL_LIST)
            rv_cpuset_andnot(&banned, &topo->online, &p->irq_cpus);
        else
            banned = part->isolated_online;
        l = rv_cpulist_format(&banned);
        set(o, "irqbalance", "banned_cpus", l);
    }
    /* [modules] MODULE = +r P=V ...: modprobe.d options, module reloaded */
    for (guint i = 0; i < p->module_params->len; i++) {
        const RvHostKnob *k = p->module_params->pdata[i];
        g_autofree char *mod = g_strndup(k->key, strcspn(k->key, "."));
        g_autoptr(GString) v = g_string_new("+r");

        for (guint j = 0; j < p->module_params->len; j++) {
            const RvHostKnob *m = p->module_params->pdata[j];

            if (strncmp(m->key, mod, strlen(mod)) == 0 && m->key[strlen(mod)] == '.') {
                if (j < i)
                    goto next;    /* the module was written with its first parameter */
                g_string_append_printf(v, " %s=%s", m->key + strlen(mod) + 1, m->value);
            }
        }
        set(o, "modules", mod, v->str);
next:
        ;
    }
}

int
rv_host_tuned_export(const RvHostProfile *p, const RvHostPartition *part, const RvTopology *topo,
                     const char *parent, char **ret_text, bool *ret_included, GError **error)
{
    g_autoptr(RvIniWriter) w = rv_ini_writer_new();
    g_autoptr(RvTunedConf) pconf = NULL;
    g_autoptr(GString) why = g_string_new(NULL);
    g_autofree char *pname = parent ? g_path_get_basename(parent) : NULL;
    Out o = { .w = w, .error = error };
    bool include = false;

    if (parent && rv_tuned_load_merged(parent, &pconf, NULL) == 0) {
        g_autoptr(RvHostProfile) pp = NULL;
        g_autoptr(RvRoot) live = NULL;

        /* the parent's knobs, read on this machine: which ones it sets */
        if (rv_host_root_open(NULL, &live, NULL) == 0 &&
            rv_host_tuned_load(live, parent, &pp, NULL) == 0)
            include = parent_fits(p, pp, why);
        if (!include)
            g_clear_pointer(&pconf, rv_tuned_conf_free);
    }
    rv_ini_writer_comment(w, NULL, "tuned profile written by `rtvirt host export-tuned` from the "
                                   "rtvirt host profile");
    {
        g_autofree char *c = g_strdup_printf("%s (%s); isolated CPUs of this host: %s", p->name,
                                             p->path, part->how);
        rv_ini_writer_comment(w, NULL, c);
    }
    if (parent && !include) {
        g_autofree char *c = g_strdup_printf("not include=%s: it also sets %s, which %s does "
                                             "not", pname, why->len ? why->str : "(unreadable)",
                                             p->name);
        rv_ini_writer_comment(w, NULL, c);
    }
    set(&o, "main", "summary", p->summary ? p->summary : p->name);
    if (include)
        set(&o, "main", "include", pname);
    write_variables(&o, p, part);
    if (o.r == 0 && write_bootloader(&o, p, part, pconf) < 0)
        return -EINVAL;
    write_runtime(&o, p, part, topo);
    if (o.r < 0)
        return o.r;
    *ret_text = rv_ini_writer_to_data(w);
    if (ret_included)
        *ret_included = include;
    return 0;
}
