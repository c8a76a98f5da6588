/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * host/facts/report.c: `rtvirt host show` data: load every part once, render as
 * JSON (json-glib JsonBuilder) or text.  No printing here.
 */
#include <errno.h>
#include <string.h>

#include "host/facts/report.h"
#include "util/error.h"
#include "util/escape.h"
#include "util/json.h"

void
rv_host_report_free(RvHostReport *r)
{
    if (!r)
        return;
    g_free(r->root_path);
    rv_host_topology_free(r->topo);
    rv_host_cmdline_free(r->cmdline);
    g_free(r->cmdline_unknown);
    rv_host_state_free(r->state);
    g_free(r->isolated_source);
    if (r->rt_threads)
        g_array_unref(r->rt_threads);
    if (r->tasks_on_isolated)
        g_array_unref(r->tasks_on_isolated);
    if (r->rt_vcpus)
        g_ptr_array_unref(r->rt_vcpus);
    rv_host_irq_table_free(r->irqs);
    if (r->bad_values)
        g_ptr_array_unref(r->bad_values);
    g_free(r);
}

int
rv_host_report_load(RvRoot *root, RvHostReport **ret, GError **error)
{
    g_autoptr(RvHostReport) r = g_new0(RvHostReport, 1);
    g_autoptr(GError) err = NULL;
    unsigned skipped = 0;
    int k;

    r->root_path = g_strdup(rv_host_root_path(root));
    r->live = rv_host_root_is_live(root);
    r->bad_values = g_ptr_array_new_with_free_func(g_free);

    k = rv_host_topology_load(root, &r->topo, error);
    if (k < 0)
        return k;

    if (rv_host_cmdline_load(root, r->topo->nr_cpu_ids, &r->cmdline, &err) < 0) {
        r->cmdline_unknown = g_strdup(err->message);
        g_clear_error(&err);
    }

    k = rv_host_state_load(root, r->topo->nr_cpu_ids, &r->state, error);
    if (k < 0)
        return k;
    for (guint i = 0; i < r->state->problems->len; i++)
        g_ptr_array_add(r->bad_values, g_strdup(r->state->problems->pdata[i]));

    /* The CPUs to watch: what the kernel says is isolated, else what the
     * command line asks for. */
    rv_cpuset_zero(&r->isolated);
    if (r->state->isolated.known || r->state->nohz_full.known) {
        g_autoptr(GString) src = g_string_new(NULL);

        if (r->state->isolated.known) {
            rv_cpuset_or(&r->isolated, &r->isolated, &r->state->isolated.set);
            g_string_append(src, "/sys/devices/system/cpu/isolated");
        }
        if (r->state->nohz_full.known) {
            rv_cpuset_or(&r->isolated, &r->isolated, &r->state->nohz_full.set);
            g_string_append_printf(src, "%s/sys/devices/system/cpu/nohz_full", src->len ? " + " : "");
        }
        r->isolated_source = g_string_free(g_steal_pointer(&src), FALSE);
    } else if (r->cmdline) {
        rv_cpuset_or(&r->isolated, &r->cmdline->isolcpus.effective, &r->cmdline->nohz_full.effective);
        r->isolated_source = g_strdup("/proc/cmdline isolcpus= + nohz_full= (sysfs files unreadable)");
    } else {
        r->isolated_source = g_strdup("unknown");
    }

    if (rv_host_rt_threads_load(root, &r->rt_threads, &skipped, NULL) < 0)
        r->rt_threads = NULL;
    if (rv_host_tasks_on_cpus(root, &r->isolated, &r->tasks_on_isolated, NULL) < 0)
        r->tasks_on_isolated = NULL;
    if (rv_host_rt_view_load(root, &r->rt_vcpus, NULL) < 0)
        r->rt_vcpus = NULL;
    if (rv_host_irqs_load(root, r->topo->nr_cpu_ids, &r->irqs, NULL) < 0)
        r->irqs = NULL;
    if (r->irqs)
        for (guint i = 0; i < r->irqs->problems->len; i++)
            g_ptr_array_add(r->bad_values, g_strdup(r->irqs->problems->pdata[i]));

    *ret = g_steal_pointer(&r);
    return 0;
}

/* ---- JSON ------------------------------------------------------------- */

static void
add_set(JsonBuilder *b, const char *key, const RvCpuSet *set)
{
    g_autofree char *l = rv_cpulist_format(set);

    json_builder_set_member_name(b, key);
    json_builder_add_string_value(b, l);
}

static void
add_int(JsonBuilder *b, const char *key, gint64 v)
{
    json_builder_set_member_name(b, key);
    json_builder_add_int_value(b, v);
}

static void
add_bool(JsonBuilder *b, const char *key, bool v)
{
    json_builder_set_member_name(b, key);
    json_builder_add_boolean_value(b, v);
}

static void
add_state_int(JsonBuilder *b, const char *key, const RvStateInt *v)
{
    json_builder_set_member_name(b, key);
    if (v->known)
        json_builder_add_int_value(b, v->value);
    else
        json_builder_add_null_value(b);
}

static void
add_tri(JsonBuilder *b, const char *key, RvTristate t)
{
    json_builder_set_member_name(b, key);
    if (t == RV_TRI_UNKNOWN)
        json_builder_add_null_value(b);
    else
        json_builder_add_boolean_value(b, t == RV_TRI_YES);
}

static void
add_state_cpus(JsonBuilder *b, const char *key, const RvStateCpus *c)
{
    json_builder_set_member_name(b, key);
    if (!c->known) {
        json_builder_add_null_value(b);
        return;
    }
    g_autofree char *l = rv_cpulist_format(&c->set);
    json_builder_add_string_value(b, l);
}

static void
add_groups(JsonBuilder *b, const char *key, GArray *groups)
{
    json_builder_set_member_name(b, key);
    json_builder_begin_array(b);
    for (guint i = 0; i < groups->len; i++) {
        const RvCpuGroup *g = &g_array_index(groups, RvCpuGroup, i);

        json_builder_begin_object(b);
        add_int(b, "id", g->id);
        add_set(b, "cpus", &g->cpus);
        json_builder_end_object(b);
    }
    json_builder_end_array(b);
}

static void
json_topology(JsonBuilder *b, const RvTopology *t)
{
    json_builder_set_member_name(b, "topology");
    json_builder_begin_object(b);
    rv_json_add_string_or_null(b, "source", t->source);
    add_int(b, "nr_cpu_ids", t->nr_cpu_ids);
    add_set(b, "possible", &t->possible);
    add_set(b, "present", &t->present);
    add_set(b, "online", &t->online);
    add_set(b, "offline", &t->offline);
    add_bool(b, "smt", t->smt);
    add_int(b, "threads_per_core", t->threads_per_core);
    add_int(b, "min_threads_per_core", t->min_threads_per_core);
    add_groups(b, "packages", t->packages);
    add_groups(b, "numa_nodes", t->nodes);
    json_builder_set_member_name(b, "cores");
    json_builder_begin_array(b);
    for (guint i = 0; i < t->cores->len; i++) {
        const RvCore *c = &g_array_index(t->cores, RvCore, i);

        json_builder_begin_object(b);
        add_int(b, "package", c->package);
        add_int(b, "die", c->die);
        add_int(b, "core_id", c->core_id);
        add_int(b, "node", c->node);
        add_set(b, "threads", &c->threads);
        json_builder_end_object(b);
    }
    json_builder_end_array(b);
    json_builder_end_object(b);
}

static void
json_cmd_cpus(JsonBuilder *b, const char *key, const RvCmdlineCpus *c)
{
    json_builder_set_member_name(b, key);
    json_builder_begin_object(b);
    add_bool(b, "present", c->present);
    rv_json_add_string_or_null(b, "value", c->value);
    json_builder_set_member_name(b, "requested");
    if (c->present && !c->parse_error) {
        g_autofree char *l = rv_cpulist_format(&c->requested);
        json_builder_add_string_value(b, l);
    } else {
        json_builder_add_null_value(b);
    }
    add_set(b, "effective", &c->effective);
    add_bool(b, "ignored", c->ignored);
    rv_json_add_string_or_null(b, "note", c->note);
    json_builder_end_object(b);
}

static void
json_cmdline(JsonBuilder *b, const RvHostReport *r)
{
    const RvCmdline *c = r->cmdline;

    json_builder_set_member_name(b, "cmdline");
    if (!c) {
        json_builder_add_null_value(b);
        return;
    }
    json_builder_begin_object(b);
    rv_json_add_string_or_null(b, "raw", c->raw);
    add_int(b, "nr_cpu_ids", c->nr_cpu_ids);
    add_int(b, "boot_cpu", c->boot_cpu);
    json_builder_set_member_name(b, "params");
    json_builder_begin_array(b);
    for (guint i = 0; i < c->params->len; i++) {
        const RvCmdlineParam *p = &g_array_index(c->params, RvCmdlineParam, i);

        json_builder_begin_object(b);
        rv_json_add_string_or_null(b, "name", p->name);
        rv_json_add_string_or_null(b, "value", p->value);
        add_bool(b, "known", p->known);
        rv_json_add_string_or_null(b, "suggestion", p->suggestion);
        json_builder_end_object(b);
    }
    json_builder_end_array(b);
    json_builder_set_member_name(b, "init_args");
    json_builder_begin_array(b);
    for (guint i = 0; c->init_args[i]; i++)
        json_builder_add_string_value(b, c->init_args[i]);
    json_builder_end_array(b);
    json_cmd_cpus(b, "isolcpus", &c->isolcpus);
    json_builder_set_member_name(b, "isolcpus_flags");
    json_builder_begin_array(b);
    if (c->isolcpus_flags & RV_ISOL_DOMAIN)
        json_builder_add_string_value(b, "domain");
    if (c->isolcpus_flags & RV_ISOL_NOHZ)
        json_builder_add_string_value(b, "nohz");
    if (c->isolcpus_flags & RV_ISOL_MANAGED_IRQ)
        json_builder_add_string_value(b, "managed_irq");
    json_builder_end_array(b);
    json_builder_set_member_name(b, "isolcpus_unknown_flags");
    json_builder_begin_array(b);
    for (guint i = 0; c->isolcpus_unknown_flags && c->isolcpus_unknown_flags[i]; i++)
        json_builder_add_string_value(b, c->isolcpus_unknown_flags[i]);
    json_builder_end_array(b);
    json_cmd_cpus(b, "nohz_full", &c->nohz_full);
    json_cmd_cpus(b, "rcu_nocbs", &c->rcu_nocbs);
    json_cmd_cpus(b, "irqaffinity", &c->irqaffinity);
    json_cmd_cpus(b, "kthread_cpus", &c->kthread_cpus);
    json_builder_set_member_name(b, "housekeeping");
    if (c->nr_cpu_ids) {
        g_autofree char *l = rv_cpulist_format(&c->housekeeping);
        json_builder_add_string_value(b, l);
    } else {
        json_builder_add_null_value(b);
    }
    add_bool(b, "rcu_nocb_poll", c->rcu_nocb_poll);
    rv_json_add_string_or_null(b, "nosmt", c->nosmt == 2 ? "force" : c->nosmt ? "yes" : NULL);
    json_builder_set_member_name(b, "skew_tick");
    if (c->skew_tick >= 0)
        json_builder_add_int_value(b, c->skew_tick);
    else
        json_builder_add_null_value(b);
    rv_json_add_string_or_null(b, "idle", c->idle);
    rv_json_add_string_or_null(b, "intel_pstate", c->intel_pstate);
    rv_json_add_string_or_null(b, "amd_pstate", c->amd_pstate);
    json_builder_set_member_name(b, "processor.max_cstate");
    if (c->processor_max_cstate >= 0)
        json_builder_add_int_value(b, c->processor_max_cstate);
    else
        json_builder_add_null_value(b);
    json_builder_set_member_name(b, "intel_idle.max_cstate");
    if (c->intel_idle_max_cstate >= 0)
        json_builder_add_int_value(b, c->intel_idle_max_cstate);
    else
        json_builder_add_null_value(b);
    rv_json_add_string_or_null(b, "tsc", c->tsc);
    rv_json_add_string_or_null(b, "mitigations", c->mitigations);
    rv_json_add_string_or_null(b, "nohz", c->nohz);
    rv_json_add_string_or_null(b, "transparent_hugepage", c->transparent_hugepage);
    rv_json_add_string_or_null(b, "numa_balancing", c->numa_balancing);
    rv_json_add_string_or_null(b, "nmi_watchdog", c->nmi_watchdog);
    add_bool(b, "nosoftlockup", c->nosoftlockup);
    add_bool(b, "threadirqs", c->threadirqs);
    rv_json_add_string_or_null(b, "preempt", c->preempt);
    rv_json_add_string_or_null(b, "default_hugepagesz", c->default_hugepagesz);
    json_builder_set_member_name(b, "hugepages");
    json_builder_begin_array(b);
    for (guint i = 0; i < c->hugepages->len; i++) {
        const RvCmdlineHugepages *h = &g_array_index(c->hugepages, RvCmdlineHugepages, i);

        json_builder_begin_object(b);
        rv_json_add_string_or_null(b, "size", h->size);
        json_builder_set_member_name(b, "count");
        if (h->count >= 0)
            json_builder_add_int_value(b, h->count);
        else
            json_builder_add_null_value(b);
        json_builder_end_object(b);
    }
    json_builder_end_array(b);
    json_builder_set_member_name(b, "problems");
    json_builder_begin_array(b);
    for (guint i = 0; i < c->problems->len; i++)
        json_builder_add_string_value(b, c->problems->pdata[i]);
    json_builder_end_array(b);
    json_builder_end_object(b);
}

static void
json_state(JsonBuilder *b, const RvHostState *s)
{
    json_builder_set_member_name(b, "state");
    json_builder_begin_object(b);
    add_state_cpus(b, "possible", &s->possible);
    add_state_cpus(b, "present", &s->present);
    add_state_cpus(b, "online", &s->online);
    add_state_cpus(b, "offline", &s->offline);
    add_state_cpus(b, "isolated", &s->isolated);
    add_state_cpus(b, "nohz_full", &s->nohz_full);
    add_state_cpus(b, "workqueue_cpumask", &s->workqueue_cpumask);
    json_builder_set_member_name(b, "smt");
    json_builder_begin_object(b);
    rv_json_add_string_or_null(b, "control", s->smt_control);
    add_tri(b, "active", s->smt_active);
    json_builder_end_object(b);
    json_builder_set_member_name(b, "core_scheduling");
    json_builder_begin_object(b);
    rv_json_add_string_or_null(b, "state", rv_host_coresched_state_to_string(s->coresched));
    json_builder_set_member_name(b, "errno");
    if (s->coresched_errno)
        json_builder_add_string_value(b, s->coresched_errno == EINVAL ? "EINVAL"
                                      : s->coresched_errno == ENODEV ? "ENODEV"
                                      : g_strerror(s->coresched_errno));
    else
        json_builder_add_null_value(b);
    rv_json_add_string_or_null(b, "source", s->coresched_source);
    json_builder_end_object(b);
    json_builder_set_member_name(b, "kernel");
    json_builder_begin_object(b);
    rv_json_add_string_or_null(b, "release", s->kernel_release);
    rv_json_add_string_or_null(b, "version", s->kernel_version);
    rv_json_add_string_or_null(b, "preempt_model", s->preempt_model);
    add_tri(b, "preempt_rt", s->preempt_rt);
    json_builder_end_object(b);
    json_builder_set_member_name(b, "rt_throttling");
    json_builder_begin_object(b);
    add_state_int(b, "sched_rt_runtime_us", &s->rt_runtime_us);
    add_state_int(b, "sched_rt_period_us", &s->rt_period_us);
    json_builder_end_object(b);
    json_builder_set_member_name(b, "rt_group_sched");
    json_builder_begin_object(b);
    add_tri(b, "cgroup_v1_cpu", s->cgroup_v1_cpu);
    rv_json_add_string_or_null(b, "cgroup_v1_cpu_mount", s->cgroup_v1_cpu_mount);
    add_tri(b, "config_rt_group_sched", s->rt_group_sched);
    add_state_int(b, "root_rt_runtime_us", &s->cgroup_rt_runtime_us);
    add_state_int(b, "machine_rt_runtime_us", &s->machine_rt_runtime_us);
    add_tri(b, "libvirt_fifo_blocked", s->rt_group_trap);
    json_builder_end_object(b);
    add_state_int(b, "timer_migration", &s->timer_migration);
    add_state_int(b, "numa_balancing", &s->numa_balancing);
    add_state_int(b, "nmi_watchdog", &s->nmi_watchdog);
    rv_json_add_string_or_null(b, "thp_enabled", s->thp_enabled);
    rv_json_add_string_or_null(b, "thp_defrag", s->thp_defrag);
    add_state_int(b, "ksm_run", &s->ksm_run);
    rv_json_add_string_or_null(b, "cpuidle_driver", s->cpuidle_driver);
    rv_json_add_string_or_null(b, "cpuidle_governor", s->cpuidle_governor);
    json_builder_set_member_name(b, "cpus");
    json_builder_begin_array(b);
    for (guint i = 0; i < s->cpus->len; i++) {
        const RvCpuPower *p = &g_array_index(s->cpus, RvCpuPower, i);

        json_builder_begin_object(b);
        add_int(b, "cpu", p->cpu);
        rv_json_add_string_or_null(b, "governor", p->governor);
        rv_json_add_string_or_null(b, "driver", p->driver);
        json_builder_set_member_name(b, "idle_states");
        json_builder_begin_array(b);
        for (guint k = 0; k < p->idle_states->len; k++) {
            const RvIdleState *is = &g_array_index(p->idle_states, RvIdleState, k);

            json_builder_begin_object(b);
            add_int(b, "index", is->index);
            rv_json_add_string_or_null(b, "name", is->name);
            add_state_int(b, "latency_us", &is->latency_us);
            add_tri(b, "disabled", is->disabled);
            json_builder_end_object(b);
        }
        json_builder_end_array(b);
        json_builder_end_object(b);
    }
    json_builder_end_array(b);
    json_builder_end_object(b);
}

static void
json_tasks(JsonBuilder *b, const char *key, GArray *tasks)
{
    json_builder_set_member_name(b, key);
    if (!tasks) {
        json_builder_add_null_value(b);
        return;
    }
    json_builder_begin_array(b);
    for (guint i = 0; i < tasks->len; i++) {
        const RvTask *t = &g_array_index(tasks, RvTask, i);

        json_builder_begin_object(b);
        add_int(b, "pid", t->pid);
        add_int(b, "tgid", t->tgid);
        rv_json_add_string_or_null(b, "comm", t->comm);
        add_bool(b, "kthread", t->kthread);
        rv_json_add_string_or_null(b, "policy", rv_host_sched_policy_name(t->policy));
        add_int(b, "rt_priority", t->rt_priority);
        add_int(b, "nice", t->nice);
        add_int(b, "last_cpu", t->last_cpu);
        rv_json_add_string_or_null(b, "affinity", t->affinity_list);
        json_builder_end_object(b);
    }
    json_builder_end_array(b);
}

static bool
irq_touches(const RvIrq *irq, const RvCpuSet *iso)
{
    return (irq->has_affinity && rv_cpuset_intersects(&irq->affinity, iso)) ||
           (irq->has_effective && rv_cpuset_intersects(&irq->effective, iso)) ||
           rv_host_irq_count_on(irq, iso) > 0;
}

static void
json_irqs(JsonBuilder *b, const RvHostReport *r)
{
    json_builder_set_member_name(b, "irqs");
    if (!r->irqs) {
        json_builder_add_null_value(b);
        return;
    }
    json_builder_begin_object(b);
    json_builder_set_member_name(b, "default_smp_affinity");
    if (r->irqs->has_default) {
        g_autofree char *l = rv_cpulist_format(&r->irqs->default_affinity);
        json_builder_add_string_value(b, l);
    } else {
        json_builder_add_null_value(b);
    }
    add_int(b, "total", r->irqs->irqs->len);
    json_builder_set_member_name(b, "touching_isolated");
    json_builder_begin_array(b);
    for (guint i = 0; i < r->irqs->irqs->len; i++) {
        const RvIrq *irq = &g_array_index(r->irqs->irqs, RvIrq, i);

        if (!irq_touches(irq, &r->isolated))
            continue;
        json_builder_begin_object(b);
        add_int(b, "irq", irq->irq);
        rv_json_add_string_or_null(b, "name", irq->name);
        rv_json_add_string_or_null(b, "chip", irq->chip);
        json_builder_set_member_name(b, "smp_affinity_list");
        if (irq->has_affinity) {
            g_autofree char *l = rv_cpulist_format(&irq->affinity);
            json_builder_add_string_value(b, l);
        } else {
            json_builder_add_null_value(b);
        }
        json_builder_set_member_name(b, "effective_affinity_list");
        if (irq->has_effective) {
            g_autofree char *l = rv_cpulist_format(&irq->effective);
            json_builder_add_string_value(b, l);
        } else {
            json_builder_add_null_value(b);
        }
        add_int(b, "count_on_isolated", (gint64) rv_host_irq_count_on(irq, &r->isolated));
        json_builder_end_object(b);
    }
    json_builder_end_array(b);
    json_builder_end_object(b);
}

JsonNode *
rv_host_report_to_json(const RvHostReport *r)
{
    g_autoptr(JsonBuilder) b = json_builder_new();

    json_builder_begin_object(b);
    add_int(b, "schema_version", RV_HOST_REPORT_SCHEMA_VERSION);
    rv_json_add_string_or_null(b, "root", r->root_path);
    add_bool(b, "live", r->live);
    json_topology(b, r->topo);
    json_cmdline(b, r);
    json_state(b, r->state);
    json_builder_set_member_name(b, "isolated");
    json_builder_begin_object(b);
    add_set(b, "cpus", &r->isolated);
    rv_json_add_string_or_null(b, "source", r->isolated_source);
    json_builder_end_object(b);
    json_tasks(b, "rt_threads", r->rt_threads);
    json_tasks(b, "tasks_on_isolated", r->tasks_on_isolated);
    json_builder_set_member_name(b, "rt_vcpus");
    if (r->rt_vcpus) {
        json_builder_begin_array(b);
        for (guint i = 0; i < r->rt_vcpus->len; i++)
            rv_host_rt_view_to_json(b, r->rt_vcpus->pdata[i]);
        json_builder_end_array(b);
    } else {
        json_builder_add_null_value(b);
    }
    json_irqs(b, r);
    json_builder_set_member_name(b, "problems");
    json_builder_begin_array(b);
    for (guint i = 0; i < r->bad_values->len; i++)
        json_builder_add_string_value(b, r->bad_values->pdata[i]);
    json_builder_end_array(b);
    json_builder_end_object(b);
    return json_builder_get_root(b);
}

/* ---- text ------------------------------------------------------------- */

static char *
set_or_none(const RvCpuSet *s)
{
    return rv_cpuset_is_empty(s) ? g_strdup("none") : rv_cpulist_format(s);
}

static const char *
tri(RvTristate t, const char *yes, const char *no)
{
    return t == RV_TRI_YES ? yes : t == RV_TRI_NO ? no : "unknown";
}

static void
text_state_cpus(GString *s, const char *label, const RvStateCpus *c, const char *if_missing)
{
    if (c->known) {
        g_autofree char *l = set_or_none(&c->set);
        g_string_append_printf(s, "  %-18s %s\n", label, l);
    } else if (c->raw) {
        g_string_append_printf(s, "  %-18s unknown (malformed '%s' in %s)\n", label, c->raw, c->path);
    } else {
        g_string_append_printf(s, "  %-18s unknown (%s unreadable%s%s)\n", label, c->path,
                               if_missing ? ": " : "", if_missing ? if_missing : "");
    }
}

static void
text_int(GString *s, const char *label, const RvStateInt *v, const char *unit)
{
    if (v->known)
        g_string_append_printf(s, "  %-18s %" G_GINT64_FORMAT "%s\n", label, v->value, unit);
    else
        g_string_append_printf(s, "  %-18s unknown\n", label);
}

static void
text_cmd_cpus(GString *s, const char *label, const RvCmdlineCpus *c)
{
    if (!c->present && rv_cpuset_is_empty(&c->effective)) {
        g_string_append_printf(s, "  %-14s (absent)\n", label);
    } else {
        g_autofree char *eff = set_or_none(&c->effective);

        if (c->present)
            g_string_append_printf(s, "  %-14s %s -> %s%s\n", label, c->value ? c->value : "(no value)",
                                   c->ignored ? "IGNORED by the kernel" : eff,
                                   c->ignored ? "" : "");
        else
            g_string_append_printf(s, "  %-14s (not given) -> %s\n", label, eff);
    }
    if (c->note)
        g_string_append_printf(s, "  %-14s   %s\n", "", c->note);
}

static void
text_tasks(GString *s, GArray *tasks)
{
    g_string_append_printf(s, "  %7s %-8s %4s %4s %4s %-12s %s\n",
                           "PID", "POLICY", "PRIO", "NICE", "CPU", "AFFINITY", "COMM");
    for (guint i = 0; i < tasks->len; i++) {
        const RvTask *t = &g_array_index(tasks, RvTask, i);

        g_string_append_printf(s, "  %7d %-8s %4d %4d %4d %-12s %s%s\n", t->pid,
                               rv_host_sched_policy_name(t->policy), t->rt_priority, t->nice,
                               t->last_cpu, t->affinity_list ? t->affinity_list : "?", t->comm,
                               t->kthread ? "" : " (user)");
    }
}

char *
rv_host_text_printable(char *s)
{
    /* the one text rule, util/escape.h */
    return rv_escape_text(s);
}

/* Topology: packages, NUMA nodes, cores with their SMT siblings. */
static void
text_topology(GString *s, const RvTopology *t)
{
    g_autofree char *on = set_or_none(&t->online), *off = set_or_none(&t->offline);
    g_autofree char *pos = set_or_none(&t->possible);

    g_string_append_printf(s, "Topology (%s)\n", t->source);
    g_string_append_printf(s, "  CPUs: %u online (%s), offline: %s, possible: %s\n",
                           rv_cpuset_count(&t->online), on, off, pos);
    g_string_append_printf(s, "  %u package(s), %u NUMA node(s), %u core(s), %u thread(s) per core%s\n",
                           t->packages->len, t->nodes->len, t->cores->len, t->threads_per_core,
                           t->smt ? " (SMT)" : " (no SMT)");
    if (t->smt && t->min_threads_per_core != t->threads_per_core)
        g_string_append_printf(s, "  mixed cores: from %u to %u threads per core\n",
                               t->min_threads_per_core, t->threads_per_core);
    for (guint i = 0; i < t->packages->len; i++) {
        const RvCpuGroup *g = &g_array_index(t->packages, RvCpuGroup, i);
        g_autofree char *l = rv_cpulist_format(&g->cpus);
        g_string_append_printf(s, "  package %d: %s\n", g->id, l);
    }
    for (guint i = 0; i < t->nodes->len; i++) {
        const RvCpuGroup *g = &g_array_index(t->nodes, RvCpuGroup, i);
        g_autofree char *l = rv_cpulist_format(&g->cpus);
        g_string_append_printf(s, "  node %d: %s\n", g->id, l);
    }
    g_string_append_printf(s, "  %-7s %-7s %-5s %s\n", "PACKAGE", "CORE_ID", "NODE", "THREADS (SMT siblings)");
    for (guint i = 0; i < t->cores->len; i++) {
        const RvCore *c = &g_array_index(t->cores, RvCore, i);
        g_autofree char *l = rv_cpulist_format(&c->threads);
        g_string_append_printf(s, "  %-7d %-7d %-5d %s\n", c->package, c->core_id, c->node, l);
    }
}

/* The kernel command line as the kernel reads it (host/facts/cmdline.c). */
static void
text_cmdline(GString *s, const RvHostReport *r)
{
    const RvCmdline *c = r->cmdline;

    g_string_append(s, "\nKernel command line (/proc/cmdline)\n");
    if (!c) {
        g_string_append_printf(s, "  unknown: %s\n", r->cmdline_unknown);
        return;
    }
    g_string_append_printf(s, "  %s\n", c->raw);
    text_cmd_cpus(s, "isolcpus", &c->isolcpus);
    if (c->isolcpus.present && !c->isolcpus.ignored)
        g_string_append_printf(s, "  %-14s   flags:%s%s%s\n", "",
                               c->isolcpus_flags & RV_ISOL_DOMAIN ? " domain" : "",
                               c->isolcpus_flags & RV_ISOL_NOHZ ? " nohz" : "",
                               c->isolcpus_flags & RV_ISOL_MANAGED_IRQ ? " managed_irq" : "");
    text_cmd_cpus(s, "nohz_full", &c->nohz_full);
    text_cmd_cpus(s, "rcu_nocbs", &c->rcu_nocbs);
    text_cmd_cpus(s, "irqaffinity", &c->irqaffinity);
    text_cmd_cpus(s, "kthread_cpus", &c->kthread_cpus);
    g_string_append_printf(s, "  %-14s %s\n", "rcu_nocb_poll", c->rcu_nocb_poll ? "yes" : "no");
    g_string_append_printf(s, "  %-14s %s\n", "nosmt", c->nosmt == 2 ? "force" : c->nosmt ? "yes" : "no");
    {
        struct { const char *k; const char *v; } kv[] = {
            { "idle", c->idle }, { "intel_pstate", c->intel_pstate }, { "amd_pstate", c->amd_pstate },
            { "tsc", c->tsc }, { "mitigations", c->mitigations }, { "nohz", c->nohz },
            { "transparent_hugepage", c->transparent_hugepage },
            { "numa_balancing", c->numa_balancing }, { "nmi_watchdog", c->nmi_watchdog },
            { "preempt", c->preempt }, { "default_hugepagesz", c->default_hugepagesz },
        };
        for (size_t i = 0; i < G_N_ELEMENTS(kv); i++)
            if (kv[i].v)
                g_string_append_printf(s, "  %-14s %s\n", kv[i].k, kv[i].v);
    }
    if (c->skew_tick >= 0)
        g_string_append_printf(s, "  %-14s %d\n", "skew_tick", c->skew_tick);
    if (c->processor_max_cstate >= 0)
        g_string_append_printf(s, "  %-14s %d\n", "processor.max_cstate", c->processor_max_cstate);
    if (c->intel_idle_max_cstate >= 0)
        g_string_append_printf(s, "  %-14s %d\n", "intel_idle.max_cstate", c->intel_idle_max_cstate);
    for (guint i = 0; i < c->hugepages->len; i++) {
        const RvCmdlineHugepages *h = &g_array_index(c->hugepages, RvCmdlineHugepages, i);
        if (h->count >= 0)
            g_string_append_printf(s, "  %-14s %s x %" G_GINT64_FORMAT "\n", "hugepages",
                                   h->size ? h->size : "default size", h->count);
        else
            g_string_append_printf(s, "  %-14s %s x (no count)\n", "hugepages", h->size ? h->size : "default size");
    }
    for (guint i = 0; i < c->params->len; i++) {
        const RvCmdlineParam *p = &g_array_index(c->params, RvCmdlineParam, i);
        if (!p->known && !p->suggestion)
            g_string_append_printf(s, "  not known to rtvirt: %s\n", p->name);
    }
    if (c->init_args[0]) {
        g_autofree char *j = g_strjoinv(" ", c->init_args);
        g_string_append_printf(s, "  after '--' (for init): %s\n", j);
    }
    for (guint i = 0; i < c->problems->len; i++)
        g_string_append_printf(s, "  problem: %s\n", (char *) c->problems->pdata[i]);
}

/* One line per distinct (governor, driver, idle states), with its CPUs. */
static void
text_power(GString *s, const RvHostState *st)
{
    g_autoptr(GPtrArray) keys = g_ptr_array_new_with_free_func(g_free);
    g_autoptr(GArray) sets = g_array_new(FALSE, TRUE, sizeof(RvCpuSet));

    for (guint i = 0; i < st->cpus->len; i++) {
        const RvCpuPower *p = &g_array_index(st->cpus, RvCpuPower, i);
        GString *is = g_string_new(NULL);
        char *key;
        guint k;

        for (guint j = 0; j < p->idle_states->len; j++) {
            const RvIdleState *x = &g_array_index(p->idle_states, RvIdleState, j);

            g_string_append_printf(is, "%s%s/", is->len ? " " : "", x->name ? x->name : "?");
            if (x->latency_us.known)
                g_string_append_printf(is, "%" G_GINT64_FORMAT, x->latency_us.value);
            else
                g_string_append(is, "?");
            if (x->disabled == RV_TRI_YES)
                g_string_append_c(is, '*');
        }
        key = g_strdup_printf("%-12s %-14s %s", p->governor ? p->governor : "-",
                              p->driver ? p->driver : "-", is->len ? is->str : "-");
        g_string_free(is, TRUE);
        for (k = 0; k < keys->len; k++)
            if (!strcmp(keys->pdata[k], key))
                break;
        if (k == keys->len) {
            RvCpuSet z;

            rv_cpuset_zero(&z);
            g_ptr_array_add(keys, key);
            g_array_append_val(sets, z);
        } else {
            g_free(key);
        }
        rv_cpuset_set(&g_array_index(sets, RvCpuSet, k), p->cpu);
    }
    g_string_append_printf(s, "  %-10s %-12s %-14s %s\n", "CPUS", "GOVERNOR", "FREQ DRIVER",
                           "IDLE STATES (name/exit latency us, * = disabled)");
    for (guint k = 0; k < keys->len; k++) {
        g_autofree char *l = rv_cpulist_format(&g_array_index(sets, RvCpuSet, k));
        g_string_append_printf(s, "  %-10s %s\n", l, (char *) keys->pdata[k]);
    }
}

/* The state the kernel is in now (host/facts/state.c). */
static void
text_state(GString *s, const RvHostReport *r)
{
    const RvHostState *st = r->state;

    g_string_append(s, "\nEffective state\n");
    text_state_cpus(s, "online", &st->online, NULL);
    text_state_cpus(s, "offline", &st->offline, NULL);
    text_state_cpus(s, "isolated", &st->isolated, NULL);
    /* a tree may just not hold the file: only the live host tells the
     * kernel's config by its absence */
    text_state_cpus(s, "nohz_full", &st->nohz_full,
                    r->live ? "kernel without CONFIG_NO_HZ_FULL"
                            : "not in this tree, or a kernel without CONFIG_NO_HZ_FULL");
    text_state_cpus(s, "workqueue cpumask", &st->workqueue_cpumask, NULL);
    g_string_append_printf(s, "  %-18s control=%s active=%s\n", "SMT",
                           st->smt_control ? st->smt_control : "unknown",
                           tri(st->smt_active, "1", "0"));
    {
        const char *why = "";

        switch (st->coresched) {
        case RV_CORESCHED_USABLE: why = "PR_SCHED_CORE works: VMs can get their own core cookie"; break;
        case RV_CORESCHED_NO_SMT: why = "ENODEV: the kernel has it but SMT is off or absent"; break;
        case RV_CORESCHED_UNSUPPORTED: why = "EINVAL: kernel built without CONFIG_SCHED_CORE"; break;
        default: why = r->live ? "the probe failed unexpectedly" : "not recorded in this fixture"; break;
        }
        g_string_append_printf(s, "  %-18s %s (%s)\n", "core scheduling",
                               rv_host_coresched_state_to_string(st->coresched), why);
    }
    g_string_append_printf(s, "  %-18s %s%s%s (PREEMPT_RT: %s, preemption model: %s)\n", "kernel",
                           st->kernel_release ? st->kernel_release : "unknown",
                           st->kernel_version ? " " : "", st->kernel_version ? st->kernel_version : "",
                           tri(st->preempt_rt, "yes", "no"),
                           st->preempt_model ? st->preempt_model : "unknown");
    text_int(s, "sched_rt_runtime", &st->rt_runtime_us, " us");
    text_int(s, "sched_rt_period", &st->rt_period_us, " us");
    if (st->rt_group_trap == RV_TRI_YES) {
        g_string_append_printf(s, "  %-18s CONFIG_RT_GROUP_SCHED with a cgroup v1 cpu controller at %s\n",
                               "RT group sched", st->cgroup_v1_cpu_mount);
        if (st->cgroup_rt_runtime_us.known)
            g_string_append_printf(s, "  %-18s root cpu.rt_runtime_us=%" G_GINT64_FORMAT "%s\n", "",
                                   st->cgroup_rt_runtime_us.value, "");
        if (st->machine_rt_runtime_us.known)
            g_string_append_printf(s, "  %-18s machine cpu.rt_runtime_us=%" G_GINT64_FORMAT "\n", "",
                                   st->machine_rt_runtime_us.value);
        g_string_append_printf(s, "  %-18s => libvirt cannot make vCPUs SCHED_FIFO: each new group starts with "
                               "cpu.rt_runtime_us=0, so sched_setscheduler() fails (\"Cannot set scheduler "
                               "parameters ... Operation not permitted\")\n", "");
    } else {
        g_string_append_printf(s, "  %-18s cgroup v1 cpu: %s, RT group budget: %s, libvirt FIFO blocked: %s\n",
                               "RT group sched", tri(st->cgroup_v1_cpu, "yes", "no"),
                               tri(st->rt_group_sched, "yes", "no"), tri(st->rt_group_trap, "yes", "no"));
    }
    text_int(s, "timer_migration", &st->timer_migration, "");
    text_int(s, "numa_balancing", &st->numa_balancing, "");
    text_int(s, "nmi_watchdog", &st->nmi_watchdog, "");
    g_string_append_printf(s, "  %-18s enabled=%s defrag=%s\n", "THP",
                           st->thp_enabled ? st->thp_enabled : "unknown",
                           st->thp_defrag ? st->thp_defrag : "unknown");
    text_int(s, "KSM run", &st->ksm_run, "");
    g_string_append_printf(s, "  %-18s driver=%s governor=%s\n", "cpuidle",
                           st->cpuidle_driver ? st->cpuidle_driver : "unknown",
                           st->cpuidle_governor ? st->cpuidle_governor : "unknown");
    text_power(s, st);
}

/* The isolated CPUs and the tasks and kernel threads that matter on them. */
static void
text_threads(GString *s, const RvHostReport *r)
{
    {
        g_autofree char *iso = set_or_none(&r->isolated);

        g_string_append_printf(s, "\nIsolated CPUs: %s (from %s)\n", iso, r->isolated_source);
    }
    if (r->rt_threads) {
        g_string_append_printf(s, "\nRT-relevant kernel threads (%u)\n", r->rt_threads->len);
        text_tasks(s, r->rt_threads);
    } else {
        g_string_append(s, "\nRT-relevant kernel threads: unknown (/proc unreadable)\n");
    }
    if (!r->tasks_on_isolated) {
        g_string_append(s, "\nTasks that last ran on isolated CPUs: unknown\n");
    } else if (rv_cpuset_is_empty(&r->isolated)) {
        g_string_append(s, "\nTasks that last ran on isolated CPUs: none (no CPU is isolated)\n");
    } else {
        g_string_append_printf(s, "\nTasks that last ran on isolated CPUs (%u)\n", r->tasks_on_isolated->len);
        text_tasks(s, r->tasks_on_isolated);
    }
    if (!r->rt_vcpus) {
        g_string_append(s, "\nRT vCPUs: unknown (/proc unreadable)\n");
    } else if (r->rt_vcpus->len == 0) {
        g_string_append(s, "\nRT vCPUs: none (no QEMU vCPU thread 'CPU n/KVM' runs at FIFO, RR "
                           "or DEADLINE)\n");
    } else {
        g_string_append_printf(s, "\nRT vCPUs and the RT threads of their CPUs (%u)\n",
                               r->rt_vcpus->len);
        for (guint i = 0; i < r->rt_vcpus->len; i++)
            rv_host_rt_view_format(s, r->rt_vcpus->pdata[i]);
    }
}

/* IRQs whose affinity or counts touch the isolated CPUs. */
static void
text_irqs(GString *s, const RvHostReport *r)
{
    if (!r->irqs) {
        g_string_append(s, "\nIRQs: unknown (/proc/irq unreadable)\n");
    } else {
        guint n = 0;

        for (guint i = 0; i < r->irqs->irqs->len; i++)
            n += irq_touches(&g_array_index(r->irqs->irqs, RvIrq, i), &r->isolated);
        g_string_append_printf(s, "\nIRQs touching isolated CPUs: %u of %u", n, r->irqs->irqs->len);
        if (r->irqs->has_default) {
            g_autofree char *d = rv_cpulist_format(&r->irqs->default_affinity);
            g_string_append_printf(s, " (default_smp_affinity %s)", d);
        }
        g_string_append_c(s, '\n');
        if (n) {
            g_string_append_printf(s, "  %5s %-12s %-12s %10s %s\n", "IRQ", "AFFINITY", "EFFECTIVE", "ON ISOL.", "NAME");
            for (guint i = 0; i < r->irqs->irqs->len; i++) {
                const RvIrq *irq = &g_array_index(r->irqs->irqs, RvIrq, i);
                g_autofree char *a = NULL, *e = NULL;

                if (!irq_touches(irq, &r->isolated))
                    continue;
                a = irq->has_affinity ? rv_cpulist_format(&irq->affinity) : g_strdup("?");
                e = irq->has_effective ? rv_cpulist_format(&irq->effective) : g_strdup("?");
                g_string_append_printf(s, "  %5u %-12s %-12s %10" G_GUINT64_FORMAT " %s\n", irq->irq, a, e,
                                       rv_host_irq_count_on(irq, &r->isolated),
                                       irq->name ? irq->name : "");
            }
        }
    }
}

char *
rv_host_report_to_text(const RvHostReport *r)
{
    GString *s = g_string_new(NULL);

    g_string_append_printf(s, "Host: %s%s\n\n", r->root_path, r->live ? " (live host)" : " (fixture tree)");
    text_topology(s, r->topo);
    text_cmdline(s, r);
    text_state(s, r);
    text_threads(s, r);
    text_irqs(s, r);
    if (r->bad_values->len) {
        g_string_append(s, "\nMalformed values\n");
        for (guint i = 0; i < r->bad_values->len; i++)
            g_string_append_printf(s, "  %s\n", (char *) r->bad_values->pdata[i]);
    }
    return rv_host_text_printable(g_string_free(s, FALSE));
}
