/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * host/tune/tune.c: runtime knobs of a host profile, journaled (see host/tune/tune.h).
 */
#include <errno.h>
#include <fcntl.h>
#include <sys/stat.h>
#include <sched.h>
#include <signal.h>
#include <stdarg.h>
#include <string.h>
#include <unistd.h>

#include "host/tune/coresched.h"
#include "host/tune/persist.h"
#include "host/facts/qemu-conf.h"
#include "host/tune/smt.h"
#include "host/tune/tune.h"
#include "util/error.h"

#define PF_KTHREAD 0x00200000   /* include/linux/sched.h */
#define DAEMON_TIMEOUT_MS (60 * 1000)

typedef enum {
    CMP_STRING,   /* normalized text */
    CMP_LIST,     /* kernel cpulist */
    CMP_MASK,     /* kernel hex mask */
} CmpKind;

typedef struct {
    RvRoot *root;
    RvJournal *journal;
    const RvHostProfile *profile;
    const RvHostPartition *part;
    RvRunner *runner;
    bool dry_run;
    RvTuneReport *report;
    RvCpuSet online;
} Ctx;

void
rv_host_tune_report_free(RvTuneReport *report)
{
    if (!report)
        return;
    if (report->items)
        g_ptr_array_unref(report->items);
    g_free(report);
}

static void
item_free(RvTuneItem *item)
{
    g_free(item->knob);
    g_free(item->old_value);
    g_free(item->value);
    g_free(item->message);
    g_free(item);
}

const char *
rv_host_tune_status_name(RvTuneStatus status, bool dry_run)
{
    switch (status) {
    case RV_TUNE_CHANGED:
        return dry_run ? "would change" : "changed";
    case RV_TUNE_ALREADY:
        return "already";
    case RV_TUNE_SKIPPED:
        return "skipped";
    case RV_TUNE_FAILED:
        return "failed";
    }
    return "?";
}

static void add_item(Ctx *ctx, RvTuneStatus status, const char *knob, const char *old_value,
                     const char *value, const char *fmt, ...) G_GNUC_PRINTF(6, 7);

static void
add_item(Ctx *ctx, RvTuneStatus status, const char *knob, const char *old_value,
         const char *value, const char *fmt, ...)
{
    RvTuneItem *item = g_new0(RvTuneItem, 1);

    item->status = status;
    item->knob = g_strdup(knob);
    item->old_value = g_strdup(old_value);
    item->value = g_strdup(value);
    if (fmt) {
        va_list ap;
        va_start(ap, fmt);
        item->message = g_strdup_vprintf(fmt, ap);
        va_end(ap);
    }
    g_ptr_array_add(ctx->report->items, item);
    ctx->report->counts[status]++;
}

static bool
values_equal(const char *cur, const char *want, CmpKind cmp)
{
    RvCpuSet a, b;

    switch (cmp) {
    case CMP_STRING:
        if (strcmp(cur, want) == 0)
            return true;
        /* bool module parameters read back as Y/N (kernel/params.c
         * param_get_bool()) and accept 0/1/y/n/Y/N */
        if ((strcmp(cur, "Y") == 0 || strcmp(cur, "N") == 0) && strlen(want) == 1 &&
            strchr("01yYnN", want[0]))
            return (cur[0] == 'Y') == (strchr("1yY", want[0]) != NULL);
        return false;
    case CMP_LIST:
        return rv_cpulist_parse(cur, 0, &a, NULL) == 0 &&
               rv_cpulist_parse(want, 0, &b, NULL) == 0 && rv_cpuset_equal(&a, &b);
    case CMP_MASK:
        return rv_cpumask_parse(cur, &a, NULL) == 0 &&
               rv_cpumask_parse(want, &b, NULL) == 0 && rv_cpuset_equal(&a, &b);
    }
    return false;
}

/* Sets one attribute through the journal.  Returns 0 (an item was added),
 * or -errno when the journal could not be written (abort). */
static int
set_knob(Ctx *ctx, const char *knob, const char *path, const char *value, CmpKind cmp,
         bool eio_is_managed, GError **error)
{
    g_autofree char *raw = NULL;
    g_autofree char *cur = NULL;
    g_autoptr(GError) err = NULL;
    gssize n;
    int r;

    n = rv_host_root_read(ctx->root, path, &raw, &err);
    if (n == -ENOENT) {
        add_item(ctx, RV_TUNE_SKIPPED, knob, NULL, value, "'%s' does not exist %s", path,
                 rv_host_root_is_live(ctx->root) ? "on this host" : "in this root");
        return 0;
    }
    if (n < 0) {
        add_item(ctx, RV_TUNE_FAILED, knob, NULL, value, "%s", err->message);
        return 0;
    }
    cur = rv_host_journal_normalize_value(raw);
    if (values_equal(cur, value, cmp)) {
        add_item(ctx, RV_TUNE_ALREADY, knob, cur, value, NULL);
        return 0;
    }
    if (ctx->dry_run) {
        add_item(ctx, RV_TUNE_CHANGED, knob, cur, value, NULL);
        return 0;
    }
    r = rv_host_journal_set_value(ctx->journal, path, value, &err);
    if (r >= 0) {
        add_item(ctx, RV_TUNE_CHANGED, knob, cur, value, NULL);
        return 0;
    }
    if (!rv_host_journal_has_path(ctx->journal, path)) {
        /* the record could not be written: nothing may change without it */
        g_propagate_error(error, g_steal_pointer(&err));
        return r;
    }
    if (r == -EIO && eio_is_managed)
        add_item(ctx, RV_TUNE_SKIPPED, knob, cur, value,
                 "managed IRQ: the kernel keeps its affinity (EIO); isolcpus=managed_irq "
                 "keeps it off isolated CPUs at boot");
    else if (eio_is_managed)
        /* kernel/irq/proc.c write_irq_affinity(): the irqchip or the
         * vector domain refuses (per-CPU, or no affinity support) */
        add_item(ctx, RV_TUNE_SKIPPED, knob, cur, value,
                 "the kernel does not let this IRQ move (%s); not fought", g_strerror(-r));
    else if (r == -EACCES || r == -EPERM)
        add_item(ctx, RV_TUNE_SKIPPED, knob, cur, value,
                 "read-only at runtime (%s)", g_strerror(-r));
    else
        add_item(ctx, RV_TUNE_FAILED, knob, cur, value, "%s", err->message);
    return 0;
}

static int
set_int_knob(Ctx *ctx, const char *knob, const char *path, const RvHostOptInt *v,
             GError **error)
{
    g_autofree char *s = NULL;

    if (!v->set)
        return 0;
    s = g_strdup_printf("%" G_GINT64_FORMAT, v->value);
    return set_knob(ctx, knob, path, s, CMP_STRING, false, error);
}

/* ---- sysctls, mm, modules ---------------------------------------------- */

static int
apply_sysctls(Ctx *ctx, GError **error)
{
    const RvHostProfile *p = ctx->profile;
    int r;

    if ((r = set_int_knob(ctx, "sysctl kernel.sched_rt_runtime_us",
                          "/proc/sys/kernel/sched_rt_runtime_us", &p->rt_runtime_us, error)) < 0 ||
        (r = set_int_knob(ctx, "sysctl kernel.timer_migration",
                          "/proc/sys/kernel/timer_migration", &p->timer_migration, error)) < 0 ||
        (r = set_int_knob(ctx, "sysctl kernel.numa_balancing",
                          "/proc/sys/kernel/numa_balancing", &p->numa_balancing, error)) < 0 ||
        (r = set_int_knob(ctx, "sysctl kernel.nmi_watchdog",
                          "/proc/sys/kernel/nmi_watchdog", &p->nmi_watchdog, error)) < 0)
        return r;
    for (guint i = 0; p->sysctls && i < p->sysctls->len; i++) {
        const RvHostKnob *k = p->sysctls->pdata[i];
        g_autofree char *rel = g_strdup(k->key);
        g_autofree char *path = NULL;
        g_autofree char *knob = g_strdup_printf("sysctl %s", k->key);

        g_strdelimit(rel, ".", '/');
        path = g_strdup_printf("/proc/sys/%s", rel);
        if ((r = set_knob(ctx, knob, path, k->value, CMP_STRING, false, error)) < 0)
            return r;
    }
    return 0;
}

static int
apply_mm(Ctx *ctx, GError **error)
{
    const RvHostProfile *p = ctx->profile;
    int r;

    if (p->thp != RV_HOST_THP_UNSET &&
        (r = set_knob(ctx, "transparent_hugepage", "/sys/kernel/mm/transparent_hugepage/enabled",
                      rv_host_thp_name(p->thp), CMP_STRING, false, error)) < 0)
        return r;
    return set_int_knob(ctx, "ksm run", "/sys/kernel/mm/ksm/run", &p->ksm_run, error);
}

static int
apply_modules(Ctx *ctx, GError **error)
{
    const RvHostProfile *p = ctx->profile;

    for (guint i = 0; p->module_params && i < p->module_params->len; i++) {
        const RvHostKnob *k = p->module_params->pdata[i];
        const char *dot = strchr(k->key, '.');
        g_autofree char *mod = NULL;
        g_autofree char *path = NULL;
        g_autofree char *moddir = NULL;
        g_autofree char *knob = g_strdup_printf("module %s", k->key);
        int r;

        if (!dot)
            continue;   /* the profile loader rejects these */
        mod = g_strndup(k->key, dot - k->key);
        moddir = g_strdup_printf("/sys/module/%s", mod);
        if (!rv_host_root_exists(ctx->root, moddir)) {
            add_item(ctx, RV_TUNE_SKIPPED, knob, NULL, k->value,
                     "module %s is not loaded: set it at module load (/etc/modprobe.d)", mod);
            continue;
        }
        path = g_strdup_printf("/sys/module/%s/parameters/%s", mod, dot + 1);
        /* a parameter the module exposes read-only (0444, e.g.
         * kvm.kvmclock_periodic_sync) changes only at module load: planned
         * as persist + reload/reboot, never as a runtime write that fails */
        {
            bool ro = rv_host_module_param_readonly(ctx->root, mod, dot + 1);
            g_autofree char *cur = NULL;

            if (ro && rv_host_root_read_value(ctx->root, path, &cur, NULL) == 0 &&
                strcmp(cur, k->value) != 0 &&
                /* bool parameters read back as Y/N (kernel/params.c param_get_bool) */
                !(strcmp(cur, "N") == 0 && strchr("0nN", k->value[0]) && !k->value[1]) &&
                !(strcmp(cur, "Y") == 0 && strchr("1yY", k->value[0]) && !k->value[1])) {
                add_item(ctx, RV_TUNE_SKIPPED, knob, cur, k->value,
                         "read-only parameter (0444): persist it in /etc/modprobe.d "
                         "(options %s %s=%s; `host apply --persist` writes it) and reload "
                         "the module or reboot", mod, dot + 1, k->value);
                continue;
            }
        }
        if ((r = set_knob(ctx, knob, path, k->value, CMP_STRING, false, error)) < 0)
            return r;
    }
    return 0;
}

/* ---- workqueues and IRQs ----------------------------------------------- */

static const RvCpuSet *
select_cpus(Ctx *ctx, RvHostCpuSel sel, const RvCpuSet *list)
{
    switch (sel) {
    case RV_HOST_CPUSEL_LIST:
        return list;
    case RV_HOST_CPUSEL_ISOLATED:
        return &ctx->part->isolated_online;
    case RV_HOST_CPUSEL_ALL:
        return &ctx->online;
    case RV_HOST_CPUSEL_HOUSEKEEPING:
    case RV_HOST_CPUSEL_UNSET:
    default:
        return &ctx->part->housekeeping_online;
    }
}

/* Corrected machine-check errors are polled by a per-CPU timer unless
 * ignore_ce is set (Documentation/arch/x86/x86_64/machinecheck.rst). */
static int
apply_mce(Ctx *ctx, GError **error)
{
    g_autoptr(GPtrArray) names = NULL;
    g_autofree char *value = NULL;
    int r;

    if (!ctx->profile->mce_ignore_ce.set)
        return 0;
    value = g_strdup_printf("%" G_GINT64_FORMAT, ctx->profile->mce_ignore_ce.value);
    if (rv_host_root_list(ctx->root, "/sys/devices/system/machinecheck", &names, NULL) < 0) {
        add_item(ctx, RV_TUNE_SKIPPED, "mce ignore_ce", NULL, value,
                 "no /sys/devices/system/machinecheck (no x86 MCE or a virtual machine)");
        return 0;
    }
    for (guint i = 0; i < names->len; i++) {
        const char *mc = names->pdata[i];
        g_autofree char *path = NULL;
        g_autofree char *knob = NULL;

        if (!g_str_has_prefix(mc, "machinecheck"))
            continue;
        path = g_strdup_printf("/sys/devices/system/machinecheck/%s/ignore_ce", mc);
        knob = g_strdup_printf("mce %s ignore_ce", mc);
        if ((r = set_knob(ctx, knob, path, value, CMP_STRING, false, error)) < 0)
            return r;
    }
    return 0;
}

static int
apply_workqueue(Ctx *ctx, GError **error)
{
    const RvCpuSet *cpus;
    g_autofree char *mask = NULL;

    if (ctx->profile->workqueue_cpumask == RV_HOST_CPUSEL_UNSET)
        return 0;
    cpus = select_cpus(ctx, ctx->profile->workqueue_cpumask, &ctx->profile->workqueue_cpus);
    mask = rv_cpumask_format(cpus, 0);
    return set_knob(ctx, "workqueue cpumask", "/sys/devices/virtual/workqueue/cpumask", mask,
                    CMP_MASK, false, error);
}

static int
cmp_irq(gconstpointer a, gconstpointer b)
{
    return (int) (g_ascii_strtoll(*(char * const *) a, NULL, 10) -
                  g_ascii_strtoll(*(char * const *) b, NULL, 10));
}

static int
apply_irqs(Ctx *ctx, GError **error)
{
    const RvCpuSet *hk;
    g_autoptr(GPtrArray) names = NULL;
    g_autofree char *mask = NULL;
    g_autoptr(GError) err = NULL;
    int r;

    if (ctx->profile->irq_affinity == RV_HOST_CPUSEL_UNSET)
        return 0;
    hk = select_cpus(ctx, ctx->profile->irq_affinity, &ctx->profile->irq_cpus);
    mask = rv_cpumask_format(hk, 0);
    r = set_knob(ctx, "irq default_smp_affinity", "/proc/irq/default_smp_affinity", mask,
                 CMP_MASK, false, error);
    if (r < 0)
        return r;
    if (rv_host_root_list(ctx->root, "/proc/irq", &names, &err) < 0) {
        add_item(ctx, RV_TUNE_SKIPPED, "irq affinity", NULL, NULL, "%s", err->message);
        return 0;
    }
    g_ptr_array_sort(names, cmp_irq);
    for (guint i = 0; i < names->len; i++) {
        const char *irq = names->pdata[i];
        g_autofree char *path = NULL;
        g_autofree char *cur = NULL;
        g_autofree char *want = NULL;
        g_autofree char *knob = NULL;
        RvCpuSet cur_set, keep;

        if (!g_ascii_isdigit(irq[0]))
            continue;
        path = g_strdup_printf("/proc/irq/%s/smp_affinity_list", irq);
        if (rv_host_root_read_value(ctx->root, path, &cur, NULL) < 0 ||
            rv_cpulist_parse(cur, 0, &cur_set, NULL) < 0)
            continue;
        /* only IRQs that reach an isolated CPU; keep the part of their
         * affinity that is housekeeping (per-queue spreading) */
        if (!rv_cpuset_intersects(&cur_set, &ctx->part->isolated))
            continue;
        rv_cpuset_and(&keep, &cur_set, hk);
        want = rv_cpulist_format(rv_cpuset_is_empty(&keep) ? hk : &keep);
        knob = g_strdup_printf("irq %s", irq);
        r = set_knob(ctx, knob, path, want, CMP_LIST, true, error);
        if (r < 0)
            return r;
    }
    return 0;
}

/* ---- kernel threads ---------------------------------------------------- */

typedef struct {
    pid_t pid;
    char *comm;
    guint64 flags;
} KThread;

static void
kthread_free(KThread *k)
{
    g_free(k->comm);
    g_free(k);
}

static GPtrArray *
list_kthreads(RvRoot *root)
{
    g_autoptr(GPtrArray) names = NULL;
    GPtrArray *ret = g_ptr_array_new_with_free_func((GDestroyNotify) kthread_free);

    if (rv_host_root_list(root, "/proc", &names, NULL) < 0)
        return ret;
    for (guint i = 0; i < names->len; i++) {
        const char *name = names->pdata[i];
        g_autofree char *path = NULL;
        g_autofree char *stat = NULL;
        g_auto(GStrv) fields = NULL;
        const char *open, *close;
        KThread *k;

        if (!g_ascii_isdigit(name[0]))
            continue;
        path = g_strdup_printf("/proc/%s/stat", name);
        if (rv_host_root_read(root, path, &stat, NULL) < 0)
            continue;
        open = strchr(stat, '(');
        close = strrchr(stat, ')');
        if (!open || !close || close < open || !close[1])
            continue;
        /* fields from 3 (state): flags is field 9 (proc(5)) */
        fields = g_strsplit(close + 2, " ", 8);
        if (g_strv_length(fields) < 7)
            continue;
        k = g_new0(KThread, 1);
        k->pid = (pid_t) g_ascii_strtoll(name, NULL, 10);
        k->comm = g_strndup(open + 1, close - open - 1);
        k->flags = g_ascii_strtoull(fields[6], NULL, 10);
        if (!(k->flags & PF_KTHREAD)) {
            kthread_free(k);
            continue;
        }
        g_ptr_array_add(ret, k);
    }
    return ret;
}

static const RvHostKthreadPrio *
kthread_rule(const RvHostProfile *p, const char *comm)
{
    for (guint i = 0; p->kthreads && i < p->kthreads->len; i++) {
        const RvHostKthreadPrio *k = p->kthreads->pdata[i];
        size_t len = strlen(k->name);

        if (strncmp(comm, k->name, len) == 0 && (comm[len] == '/' || comm[len] == '\0'))
            return k;
    }
    return NULL;
}

static const char *
policy_name(int policy)
{
    switch (policy) {
    case SCHED_OTHER:
        return "other";
    case SCHED_FIFO:
        return "fifo";
    case SCHED_RR:
        return "rr";
    case SCHED_BATCH:
        return "batch";
    case SCHED_IDLE:
        return "idle";
    }
    return "?";
}

/* The journal's own failures (host/tune/journal.c messages): abort, since no
 * change may happen without its record. */
static bool
journal_failed(const GError *err)
{
    return err && (g_str_has_prefix(err->message, "Failed to write journal") ||
                   g_str_has_prefix(err->message, "Failed to open journal"));
}

static int
apply_kthreads(Ctx *ctx, GError **error)
{
    g_autoptr(GPtrArray) kthreads = NULL;
    const RvCpuSet *hk = &ctx->part->housekeeping_online;
    unsigned moved = 0, refused = 0, already = 0;
    bool want_prio = ctx->profile->kthreads && ctx->profile->kthreads->len > 0;

    if (!rv_host_root_is_live(ctx->root)) {
        add_item(ctx, RV_TUNE_SKIPPED, "kthreads", NULL, NULL,
                 "kernel thread scheduling can only be changed on the live host");
        return 0;
    }
    kthreads = list_kthreads(ctx->root);
    for (guint i = 0; i < kthreads->len; i++) {
        const KThread *k = kthreads->pdata[i];
        const RvHostKthreadPrio *rule = want_prio ? kthread_rule(ctx->profile, k->comm) : NULL;
        g_autoptr(GError) err = NULL;
        struct sched_param sp;
        int cur_policy;
        int r;

        if (rule) {
            g_autofree char *knob = g_strdup_printf("kthread %s (pid %d)", k->comm, (int) k->pid);
            g_autofree char *want = g_strdup_printf("%s:%d", policy_name(rule->policy),
                                                    rule->priority);
            g_autofree char *old = NULL;

            cur_policy = sched_getscheduler(k->pid);
            if (cur_policy < 0 || sched_getparam(k->pid, &sp) < 0)
                continue;   /* gone */
            cur_policy &= ~SCHED_RESET_ON_FORK;
            old = g_strdup_printf("%s:%d", policy_name(cur_policy), sp.sched_priority);
            if (cur_policy == rule->policy && sp.sched_priority == rule->priority) {
                add_item(ctx, RV_TUNE_ALREADY, knob, old, want, NULL);
            } else if (ctx->dry_run) {
                add_item(ctx, RV_TUNE_CHANGED, knob, old, want, NULL);
            } else {
                r = rv_host_journal_set_sched(ctx->journal, k->pid, rule->policy,
                                              rule->priority, NULL, &err);
                if (r >= 0)
                    add_item(ctx, RV_TUNE_CHANGED, knob, old, want, NULL);
                else if (r == -ESRCH)
                    continue;
                else if (journal_failed(err))
                    return (g_propagate_error(error, g_steal_pointer(&err)), r);
                else
                    add_item(ctx, RV_TUNE_FAILED, knob, old, want, "%s", err->message);
            }
        }

        /* unbound kernel threads off the isolated CPUs */
        {
            RvCpuSet aff;
            size_t size = CPU_ALLOC_SIZE(RV_CPUSET_MAX);
            cpu_set_t *mask = CPU_ALLOC(RV_CPUSET_MAX);

            r = sched_getaffinity(k->pid, size, mask);
            rv_cpuset_zero(&aff);
            for (unsigned c = 0; r == 0 && c < RV_CPUSET_MAX; c++)
                if (CPU_ISSET_S(c, size, mask))
                    rv_cpuset_set(&aff, c);
            CPU_FREE(mask);
            if (r < 0 || rv_cpuset_count(&aff) < 2 ||
                !rv_cpuset_intersects(&aff, &ctx->part->isolated_online))
                continue;
            if (rv_cpuset_is_subset(&aff, hk)) {
                already++;
                continue;
            }
            if (ctx->dry_run) {
                moved++;
                continue;
            }
            g_clear_error(&err);
            r = rv_host_journal_set_sched(ctx->journal, k->pid, -1, 0, hk, &err);
            if (r >= 0)
                moved++;
            else if (r == -EINVAL || r == -ESRCH)
                refused += r == -EINVAL;
            else if (journal_failed(err))
                return (g_propagate_error(error, g_steal_pointer(&err)), r);
            else
                add_item(ctx, RV_TUNE_FAILED, "kthread affinity", NULL, NULL, "%s", err->message);
        }
    }
    {
        g_autofree char *hl = rv_cpulist_format(hk);

        add_item(ctx, moved ? RV_TUNE_CHANGED : RV_TUNE_ALREADY, "kthread affinity", NULL, hl,
                 "%u unbound kernel threads %s to the housekeeping CPUs; %u refuse "
                 "(PF_NO_SETAFFINITY: per-CPU or workqueue-managed)",
                 moved, ctx->dry_run ? "would move" : "moved", refused);
    }
    return 0;
}

/* ---- cpufreq and cpuidle ----------------------------------------------- */

static int
apply_governor(Ctx *ctx, GError **error)
{
    if (!ctx->profile->governor)
        return 0;
    rv_cpuset_foreach(cpu, &ctx->online) {
        g_autofree char *path = g_strdup_printf(
            "/sys/devices/system/cpu/cpu%d/cpufreq/scaling_governor", cpu);
        g_autofree char *knob = g_strdup_printf("cpu%d governor", cpu);
        int r;

        if (!rv_host_root_exists(ctx->root, path)) {
            add_item(ctx, RV_TUNE_SKIPPED, "cpufreq governor", NULL, ctx->profile->governor,
                     "no cpufreq driver: /sys/devices/system/cpu/cpu%d/cpufreq is absent", cpu);
            return 0;
        }
        if ((r = set_knob(ctx, knob, path, ctx->profile->governor, CMP_STRING, false,
                          error)) < 0)
            return r;
    }
    return 0;
}

static int
apply_idle(Ctx *ctx, GError **error)
{
    const RvCpuSet *cpus;
    gint64 max = ctx->profile->idle_max_latency_us.value;

    if (!ctx->profile->idle_max_latency_us.set)
        return 0;
    cpus = ctx->profile->idle_cpus == RV_HOST_CPUSEL_ALL ? &ctx->online
                                                          : &ctx->part->isolated_online;
    rv_cpuset_foreach(cpu, cpus) {
        g_autofree char *dir = g_strdup_printf("/sys/devices/system/cpu/cpu%d/cpuidle", cpu);
        g_autoptr(GPtrArray) states = NULL;

        if (rv_host_root_list(ctx->root, dir, &states, NULL) < 0) {
            add_item(ctx, RV_TUNE_SKIPPED, "cpuidle", NULL, NULL,
                     "no cpuidle driver: %s is absent", dir);
            return 0;
        }
        guint over = 0;

        for (guint i = 0; i < states->len; i++) {
            const char *st = states->pdata[i];
            g_autofree char *lat_path = g_strdup_printf("%s/%s/latency", dir, st);
            g_autofree char *name_path = g_strdup_printf("%s/%s/name", dir, st);
            g_autofree char *dis_path = g_strdup_printf("%s/%s/disable", dir, st);
            g_autofree char *name = NULL;
            g_autofree char *knob = NULL;
            gint64 lat;
            int r;

            if (!g_str_has_prefix(st, "state") ||
                rv_host_root_read_int(ctx->root, lat_path, &lat, NULL) < 0 || lat <= max)
                continue;
            over++;
            if (rv_host_root_read_value(ctx->root, name_path, &name, NULL) < 0)
                name = g_strdup(st);
            knob = g_strdup_printf("cpu%d idle %s (%s, %" G_GINT64_FORMAT " us)", cpu, st,
                                   name, lat);
            if ((r = set_knob(ctx, knob, dis_path, "1", CMP_STRING, false, error)) < 0)
                return r;
        }
        if (over == 0) {
            g_autofree char *knob = g_strdup_printf("cpu%d idle states", cpu);
            g_autofree char *want = g_strdup_printf("exit latency <= %" G_GINT64_FORMAT " us", max);
            add_item(ctx, RV_TUNE_ALREADY, knob, NULL, want, NULL);
        }
    }
    return 0;
}

/* ---- cgroup v2 cpuset -------------------------------------------------- */

static void
report_cpuset(Ctx *ctx)
{
    g_autofree char *controllers = NULL;

    if (rv_host_root_read_value(ctx->root, "/sys/fs/cgroup/cgroup.controllers",
                                &controllers, NULL) < 0) {
        add_item(ctx, RV_TUNE_SKIPPED, "cgroup v2 cpuset partition", NULL, NULL,
                 "no cgroup v2 hierarchy at /sys/fs/cgroup (cgroup v1): isolation relies on "
                 "isolcpus= and the affinities above");
        return;
    }
    add_item(ctx, RV_TUNE_SKIPPED, "cgroup v2 cpuset partition", NULL, NULL,
             "not created: a domain's vCPUs and emulator threads share machine.slice and need "
             "both isolated and housekeeping CPUs, which an exclusive partition forbids");
}

/* ---- libvirt ----------------------------------------------------------- */

static bool
pid_alive(pid_t pid)
{
    return kill(pid, 0) == 0 || errno == EPERM;
}

/* Restarts whichever libvirt daemon runs the QEMU driver, so it reads
 * qemu.conf again. */
static int
restart_libvirt(RvRoot *root, RvRunner *runner, GError **error)
{
    static const char *const daemons[] = { "virtqemud", "libvirtd" };

    if (!rv_host_root_is_live(root))
        return 0;
    if (g_file_test("/run/systemd/system", G_FILE_TEST_IS_DIR)) {
        const char *argv[] = { "systemctl", "try-restart", "virtqemud.service",
                               "libvirtd.service", NULL };
        return rv_runner_run_check(runner, argv, DAEMON_TIMEOUT_MS, NULL, error);
    }
    for (size_t i = 0; i < G_N_ELEMENTS(daemons); i++) {
        g_autofree char *pidfile = g_strdup_printf("/run/%s.pid", daemons[i]);
        g_autofree char *s = NULL;
        pid_t pid;

        if (!g_file_get_contents(pidfile, &s, NULL, NULL))
            continue;
        pid = (pid_t) g_ascii_strtoll(s, NULL, 10);
        if (pid <= 1 || !pid_alive(pid))
            continue;
        if (kill(pid, SIGTERM) < 0) {
            int e = errno;
            return rv_error_set(error, RV_ERROR_FAILED, e, "Failed to stop %s (pid %d): %s",
                                daemons[i], (int) pid, g_strerror(e));
        }
        /* bounded wait for the daemon to exit (not a timing assertion) */
        for (int t = 0; t < 300 && pid_alive(pid); t++)
            g_usleep(100 * 1000);
        {
            const char *argv[] = { daemons[i], "-d", NULL };
            return rv_runner_run_check(runner, argv, DAEMON_TIMEOUT_MS, NULL, error);
        }
    }
    return 0;   /* not running: it reads qemu.conf when it starts */
}

static int
libvirt_restart_restore(RvRoot *root, const char *key, const char *data, gpointer user_data,
                        GError **error)
{
    (void) key;
    (void) data;
    return restart_libvirt(root, user_data, error);
}

void
rv_host_tune_set_handlers(RvJournal *journal, RvRunner *runner)
{
    rv_host_journal_set_custom_handler(journal, "libvirt-restart", libvirt_restart_restore,
                                       runner);
    /* SMT off by `rtvirt run` journals CPUs that were offline before
     * (host/tune/smt.h): `host revert` after a crash must put them back */
    rv_host_smt_journal_register(journal);
}

static int
apply_libvirt(Ctx *ctx, GError **error)
{
    const RvHostProfile *p = ctx->profile;
    const char *conf = p->qemu_conf ? p->qemu_conf : "/etc/libvirt/qemu.conf";
    g_autofree char *text = NULL;
    g_autofree char *new_text = NULL;
    g_autoptr(RvQemuConf) qc = NULL;
    g_autoptr(GError) err = NULL;
    g_autoptr(GString) what = g_string_new(NULL);
    int r;

    if (!p->libvirt_sched_core && !p->libvirt_cgroup_controllers)
        return 0;
    /* read as libvirt reads it (host/facts/qemu-conf.h): the first statement of
     * a key is the one to change; a file libvirt refuses is not touched */
    r = rv_host_qemu_conf_load(ctx->root, conf, &qc, &text, &err);
    if (r < 0) {
        add_item(ctx, r == -ENOENT ? RV_TUNE_SKIPPED : RV_TUNE_FAILED, "libvirt qemu.conf",
                 NULL, NULL, "%s", err->message);
        return 0;
    }
    new_text = g_strdup(text);
    if (p->libvirt_sched_core) {
        bool use = true;

        if (strcmp(p->libvirt_sched_core, "none") != 0 &&
            p->core_scheduling != RV_HOST_CORESCHED_OFF && rv_host_root_is_live(ctx->root)) {
            g_autoptr(GError) cerr = NULL;

            r = rv_host_coresched_check(ctx->root, &cerr);
            if (r < 0) {
                use = false;
                add_item(ctx, p->core_scheduling == RV_HOST_CORESCHED_REQUIRED
                                  ? RV_TUNE_FAILED : RV_TUNE_SKIPPED,
                         "libvirt qemu.conf sched_core", NULL, p->libvirt_sched_core,
                         "core scheduling is not available: %s", cerr->message);
            }
        }
        if (use) {
            g_autofree char *v = g_strdup_printf("\"%s\"", p->libvirt_sched_core);

            if (!rv_host_qemu_conf_is_string(rv_host_qemu_conf_get(qc, "sched_core"),
                                             p->libvirt_sched_core)) {
                g_autofree char *t = rv_host_qemu_conf_set(new_text, "sched_core", v, error);

                if (!t)
                    return -EINVAL;
                g_free(new_text);
                new_text = g_steal_pointer(&t);
            }
            g_string_append_printf(what, "sched_core = %s", v);
        }
    }
    if (p->libvirt_cgroup_controllers) {
        g_autoptr(GString) v = g_string_new("[ ");
        g_autofree char *t = NULL;

        for (char **c = p->libvirt_cgroup_controllers; *c; c++)
            g_string_append_printf(v, "%s\"%s\"", c == p->libvirt_cgroup_controllers ? "" : ", ", *c);
        g_string_append(v, " ]");
        if (!rv_host_qemu_conf_is_words(rv_host_qemu_conf_get(qc, "cgroup_controllers"),
                                        (const char *const *) p->libvirt_cgroup_controllers)) {
            t = rv_host_qemu_conf_set(new_text, "cgroup_controllers", v->str, error);
            if (!t)
                return -EINVAL;
            g_free(new_text);
            new_text = g_steal_pointer(&t);
        }
        g_string_append_printf(what, "%scgroup_controllers = %s", what->len ? "; " : "", v->str);
    }
    if (!what->len)
        return 0;
    if (strcmp(new_text, text) == 0) {
        add_item(ctx, RV_TUNE_ALREADY, "libvirt qemu.conf", NULL, what->str, NULL);
        return 0;
    }
    if (ctx->dry_run) {
        add_item(ctx, RV_TUNE_CHANGED, "libvirt qemu.conf", NULL, what->str,
                 "libvirt daemon restart");
        return 0;
    }
    /* recorded BEFORE the file: revert restores the file, then restarts */
    r = rv_host_journal_record_custom(ctx->journal, "libvirt-restart", conf, NULL, error);
    if (r < 0)
        return r;
    r = rv_host_journal_set_file(ctx->journal, conf, new_text, -1, 0600, &err);
    if (r < 0) {
        if (!rv_host_journal_has_path(ctx->journal, conf))
            return (g_propagate_error(error, g_steal_pointer(&err)), r);
        add_item(ctx, RV_TUNE_FAILED, "libvirt qemu.conf", NULL, what->str, "%s", err->message);
        return 0;
    }
    r = restart_libvirt(ctx->root, ctx->runner, &err);
    if (r < 0)
        add_item(ctx, RV_TUNE_FAILED, "libvirt qemu.conf", NULL, what->str,
                 "written, but the daemon restart failed: %s", err->message);
    else
        add_item(ctx, RV_TUNE_CHANGED, "libvirt qemu.conf", NULL, what->str,
                 rv_host_root_is_live(ctx->root) ? "libvirt daemon restarted"
                                                 : "daemon restart skipped: not the live host");
    return 0;
}

int
rv_host_tune_apply(RvRoot *root, RvJournal *journal, const RvHostProfile *profile,
                   const RvHostPartition *part, RvRunner *runner, bool dry_run,
                   RvTuneReport **ret, GError **error)
{
    g_autoptr(RvTuneReport) report = g_new0(RvTuneReport, 1);
    g_autofree char *online = NULL;
    Ctx ctx = {
        .root = root,
        .journal = journal,
        .profile = profile,
        .part = part,
        .runner = runner,
        .dry_run = dry_run,
    };
    int r;

    g_return_val_if_fail(journal || dry_run, -EINVAL);
    report->items = g_ptr_array_new_with_free_func((GDestroyNotify) item_free);
    report->dry_run = dry_run;
    ctx.report = report;
    if (rv_host_root_read_value(root, "/sys/devices/system/cpu/online", &online, NULL) < 0 ||
        rv_cpulist_parse(online, 0, &ctx.online, NULL) < 0)
        rv_cpuset_or(&ctx.online, &part->housekeeping_online, &part->isolated_online);
    if (journal)
        rv_host_tune_set_handlers(journal, runner);

    if ((r = apply_sysctls(&ctx, error)) < 0 ||
        (r = apply_mm(&ctx, error)) < 0 ||
        (r = apply_modules(&ctx, error)) < 0 ||
        (r = apply_mce(&ctx, error)) < 0 ||
        (r = apply_workqueue(&ctx, error)) < 0 ||
        (r = apply_irqs(&ctx, error)) < 0 ||
        (r = apply_kthreads(&ctx, error)) < 0 ||
        (r = apply_governor(&ctx, error)) < 0 ||
        (r = apply_idle(&ctx, error)) < 0 ||
        (r = apply_libvirt(&ctx, error)) < 0)
        return r;
    report_cpuset(&ctx);
    *ret = g_steal_pointer(&report);
    return 0;
}
