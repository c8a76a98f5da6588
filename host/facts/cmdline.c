/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * host/facts/cmdline.c: the kernel command line, judged as the kernel judges it.
 *
 * Rules and their sources:
 *  - tokens: lib/cmdline.c next_arg(); "--" ends the kernel's part
 *    (kernel/params.c parse_args()).
 *  - isolcpus= flags and the housekeeping fallback:
 *    kernel/sched/isolation.c housekeeping_isolcpus_setup() and
 *    housekeeping_setup() (Linux 6.x): a flag is only recognised with its
 *    trailing comma ("nohz,"); an unknown alphabetic word is skipped
 *    ("isolcpus: Skipped unknown flag"); a word with another character
 *    voids the parameter ("isolcpus: Invalid flag"); a list the cpulist
 *    parser rejects voids it ("Housekeeping: nohz_full= or isolcpus=
 *    incorrect CPU range"); a list leaving no present housekeeping CPU gets
 *    the boot CPU back ("Housekeeping: must include one present CPU, using
 *    boot CPU:%d"); a second call whose flags overlap the first must give
 *    the same mask ("Housekeeping: nohz_full= must match isolcpus=").
 *  - nohz_full, after the housekeeping rules: kernel/time/tick-sched.c
 *    tick_nohz_init() clears the boot CPU, which keeps the timekeeping
 *    duty ("NO_HZ: Clearing %d from nohz_full range for timekeeping"; on
 *    kernels with CONFIG_PM_SLEEP_SMP and without
 *    CONFIG_PM_SLEEP_SMP_NONZERO_CPU, which is every x86 distribution
 *    kernel).  start_kernel() calls tick_init() before rcu_init_nohz(),
 *    so the boot CPU is not offloaded on nohz_full's account.
 *  - rcu_nocbs: kernel/rcu/tree_nocb.h rcu_nocb_setup(): a bad list sets
 *    all CPUs; nohz_full CPUs are always offloaded (rcu_init_nohz()).
 *  - irqaffinity: kernel/irq/irqdesc.c irq_affinity_setup(): the items
 *    parsed before an error stay, the boot CPU is always added.
 *  - hugepages: mm/hugetlb.c hugepages_setup(): hugepages= applies to the
 *    preceding hugepagesz= (default size before any).
 *  - kthread_cpus=: not upstream; a RHEL/StarlingX patch ("affine compute
 *    kernel threads", lwn.net/Articles/565932): kthreads start on those CPUs.
 */
#include <ctype.h>
#include <errno.h>
#include <stddef.h>
#include <string.h>

#include "host/facts/cmdline.h"
#include "util/error.h"

/* Kernel parameters rtvirt knows (Documentation/admin-guide/
 * kernel-parameters.txt), plus the words bootloaders and initramfs tools
 * put there for userspace.  Only used to flag typos: a name missing here is
 * reported as "not known to rtvirt", never as wrong. */
static const char *const known_params[] = {
    /* isolation, RCU, timers, IRQs */
    "isolcpus", "nohz_full", "nohz", "rcu_nocbs", "rcu_nocb_poll", "irqaffinity",
    "kthread_cpus", "skew_tick", "housekeeping", "rcutree.kthread_prio",
    "rcutree.enable_rcu_lazy", "rcupdate.rcu_expedited", "rcupdate.rcu_normal_after_boot",
    "rcupdate.rcu_cpu_stall_suppress", "rcupdate.rcu_cpu_stall_cputime",
    "rcutree.rcu_nocb_gp_stride", "threadirqs", "nowatchdog", "nosoftlockup",
    "nmi_watchdog", "watchdog_thresh", "softlockup_panic", "hung_task_panic",
    "timer_migration", "tsc", "clocksource", "hpet", "notsc", "nohpet",
    "preempt", "sched_rt_runtime_us", "workqueue.power_efficient",
    "workqueue.unbound_cpus", "irqpoll", "noirqdebug", "managed_irq",
    /* SMT, power, idle */
    "nosmt", "mitigations", "idle", "intel_pstate", "amd_pstate", "cpufreq.default_governor",
    "processor.max_cstate", "intel_idle.max_cstate", "intel_idle.states_off",
    "cpuidle.off", "cpuidle.governor", "cpuidle_haltpoll.force", "haltpoll.guest_halt_poll_ns",
    "pcie_aspm", "pcie_port_pm", "acpi", "noapic", "nolapic", "maxcpus", "nr_cpus",
    "possible_cpus", "intel_pstate", "cpu0_hotplug", "spectre_v2", "pti", "nopti",
    "spec_store_bypass_disable", "l1tf", "mds", "tsx", "tsx_async_abort", "srbds",
    "retbleed", "split_lock_detect", "nospectre_v1", "nospectre_v2", "kvm-intel.vmentry_l1d_flush",
    /* memory */
    "default_hugepagesz", "hugepagesz", "hugepages", "hugetlb_free_vmemmap",
    "transparent_hugepage", "transparent_hugepage_shmem", "transparent_hugepage_tmpfs",
    "numa_balancing", "numa", "mem", "memmap", "crashkernel", "swiotlb", "cma",
    "page_reporting.page_reporting_order", "init_on_alloc", "init_on_free",
    "page_alloc.shuffle", "randomize_kstack_offset", "deferred_init",
    /* IOMMU, PCI, devices */
    "iommu", "intel_iommu", "amd_iommu", "iommu.passthrough", "iommu.strict",
    "pci", "pcie_acs_override", "vfio-pci.ids", "vfio_iommu_type1.allow_unsafe_interrupts",
    "kvm.ignore_msrs", "kvm.halt_poll_ns", "kvm.nx_huge_pages", "kvm-intel.nested",
    "kvm_amd.nested", "kvm.report_ignored_msrs", "msr.allow_writes", "efi", "noefi",
    "edd", "nomodeset", "modprobe.blacklist", "module_blacklist", "nomodule",
    "random.trust_cpu", "random.trust_bootloader", "i915.enable_rc6", "usbcore.autosuspend",
    /* cgroups, security, audit */
    "cgroup_no_v1", "cgroup_disable", "cgroup_enable", "systemd.unified_cgroup_hierarchy",
    "psi", "audit", "selinux", "apparmor", "security", "lsm", "enforcing", "lockdown",
    "mce", "panic", "oops", "reboot", "pstore.backend",
    /* console, logging, boot */
    "console", "earlycon", "earlyprintk", "quiet", "debug", "loglevel", "ignore_loglevel",
    "log_buf_len", "printk.devkmsg", "printk.time", "root", "rootfstype", "rootflags",
    "rootwait", "rootdelay", "ro", "rw", "init", "rdinit", "initrd", "resume", "noresume",
    "fsck.mode", "fsck.repair", "ip", "nfsroot", "net.ifnames", "biosdevname",
    "elevator", "scsi_mod.use_blk_mq", "raid", "noinitrd", "vsyscall", "vdso",
    "apm", "acpi_osi", "acpi_rsdp", "clearcpuid", "nox2apic", "x2apic_phys",
    "rcupdate.rcu_task_stall_timeout", "ftrace", "trace_buf_size", "trace_event",
    "tp_printk", "kfence.sample_rate", "slub_debug", "page_poison",
};

/* Words bootloaders, initramfs tools and init systems add (passed to init). */
static const char *const userspace_params[] = {
    "BOOT_IMAGE", "splash", "plymouth.enable", "rhgb", "rd.lvm.lv", "rd.luks.uuid",
    "rd.udev.log_level", "rd.systemd.show_status", "rd.break", "rd.shell",
    "systemd.log_level", "systemd.show_status", "systemd.unit", "single", "emergency",
    "vconsole.keymap", "vconsole.font", "LANG", "crashkernel", "boot", "ostree",
    "ignition.platform.id", "ignition.firstboot", "coreos.oem.id", "nvidia-drm.modeset",
};

/* Optimal string alignment distance (Damerau-Levenshtein without
 * overlapping edits): "pcie_asmp" is 1 transposition from "pcie_aspm". */
static unsigned
osa_distance(const char *a, const char *b, unsigned limit)
{
    size_t la = strlen(a), lb = strlen(b);
    unsigned d[33][33];

    /* callers only care about distances up to @limit */
    if (la > 32 || lb > 32 || (la > lb ? la - lb : lb - la) > limit)
        return 99;
    for (size_t i = 0; i <= la; i++)
        d[i][0] = i;
    for (size_t j = 0; j <= lb; j++)
        d[0][j] = j;
    for (size_t i = 1; i <= la; i++) {
        unsigned row_min = 99;

        for (size_t j = 1; j <= lb; j++) {
            unsigned cost = a[i - 1] != b[j - 1];
            unsigned v = MIN(MIN(d[i - 1][j] + 1, d[i][j - 1] + 1), d[i - 1][j - 1] + cost);

            if (i > 1 && j > 1 && a[i - 1] == b[j - 2] && a[i - 2] == b[j - 1])
                v = MIN(v, d[i - 2][j - 2] + 1);
            d[i][j] = v;
            row_min = MIN(row_min, v);
        }
        /* a transposition may lower the next row by one at most */
        if (row_min > limit + 1)
            return 99;
    }
    return d[la][lb];
}

static bool
name_in(const char *name, const char *const *table, size_t n)
{
    for (size_t i = 0; i < n; i++)
        if (strcmp(table[i], name) == 0)
            return true;
    return false;
}

static void
classify_param(RvCmdlineParam *p)
{
    const char *best = NULL;
    unsigned best_d = 99, limit;
    g_autofree char *norm = g_strdup(p->name);

    /* kernel/params.c parameq(): '-' and '_' are the same in module
     * parameters (names with a dot) */
    if (strchr(norm, '.'))
        g_strdelimit(norm, "-", '_');
    if (name_in(norm, known_params, G_N_ELEMENTS(known_params)) ||
        name_in(p->name, known_params, G_N_ELEMENTS(known_params)) ||
        name_in(p->name, userspace_params, G_N_ELEMENTS(userspace_params)) ||
        g_str_has_prefix(p->name, "rd.") || g_str_has_prefix(p->name, "systemd.")) {
        p->known = true;
        return;
    }
    limit = strlen(p->name) <= 5 ? 1 : 2;
    for (size_t i = 0; i < G_N_ELEMENTS(known_params); i++) {
        unsigned d = osa_distance(p->name, known_params[i], limit);

        if (d < best_d) {
            best_d = d;
            best = known_params[i];
        }
    }
    if (best && best_d <= limit)
        p->suggestion = g_strdup(best);
}

void
rv_host_cmdline_free(RvCmdline *cmd)
{
    if (!cmd)
        return;
    g_free(cmd->raw);
    if (cmd->params) {
        for (guint i = 0; i < cmd->params->len; i++) {
            RvCmdlineParam *p = &g_array_index(cmd->params, RvCmdlineParam, i);
            g_free(p->name);
            g_free(p->value);
            g_free(p->suggestion);
        }
        g_array_unref(cmd->params);
    }
    g_strfreev(cmd->init_args);
    RvCmdlineCpus *lists[] = { &cmd->isolcpus, &cmd->nohz_full, &cmd->rcu_nocbs,
                               &cmd->irqaffinity, &cmd->kthread_cpus };
    for (size_t i = 0; i < G_N_ELEMENTS(lists); i++) {
        g_free(lists[i]->value);
        g_free(lists[i]->note);
    }
    g_strfreev(cmd->isolcpus_unknown_flags);
    g_free(cmd->idle);
    g_free(cmd->intel_pstate);
    g_free(cmd->amd_pstate);
    g_free(cmd->tsc);
    g_free(cmd->mitigations);
    g_free(cmd->nohz);
    g_free(cmd->transparent_hugepage);
    g_free(cmd->numa_balancing);
    g_free(cmd->nmi_watchdog);
    g_free(cmd->preempt);
    g_free(cmd->default_hugepagesz);
    if (cmd->hugepages) {
        for (guint i = 0; i < cmd->hugepages->len; i++)
            g_free(g_array_index(cmd->hugepages, RvCmdlineHugepages, i).size);
        g_array_unref(cmd->hugepages);
    }
    if (cmd->problems)
        g_ptr_array_unref(cmd->problems);
    g_free(cmd);
}

static void problem(RvCmdline *cmd, const char *fmt, ...) G_GNUC_PRINTF(2, 3);

static void
problem(RvCmdline *cmd, const char *fmt, ...)
{
    va_list ap;

    va_start(ap, fmt);
    g_ptr_array_add(cmd->problems, g_strdup_vprintf(fmt, ap));
    va_end(ap);
}

static void
set_note(RvCmdlineCpus *c, const char *fmt, ...) G_GNUC_PRINTF(2, 3);

static void
set_note(RvCmdlineCpus *c, const char *fmt, ...)
{
    va_list ap;
    g_autofree char *n = NULL;

    va_start(ap, fmt);
    n = g_strdup_vprintf(fmt, ap);
    va_end(ap);
    if (c->note) {
        char *both = g_strdup_printf("%s; %s", c->note, n);
        g_free(c->note);
        c->note = both;
    } else {
        c->note = g_steal_pointer(&n);
    }
}

static void
cpus_reset(RvCmdlineCpus *c, const char *value)
{
    g_free(c->value);
    g_free(c->note);
    c->value = g_strdup(value);
    c->note = NULL;
    c->present = true;
    c->parse_error = 0;
    c->ignored = false;
    rv_cpuset_zero(&c->requested);
    rv_cpuset_zero(&c->effective);
}

/* the set of possible CPUs, empty when unknown */
static void
possible_set(const RvCmdline *cmd, RvCpuSet *ret)
{
    rv_cpuset_zero(ret);
    if (cmd->nr_cpu_ids)
        rv_cpuset_set_range(ret, 0, cmd->nr_cpu_ids - 1);
}

/* Housekeeping state across isolcpus=/nohz_full= calls, as in
 * kernel/sched/isolation.c: flags already set and the housekeeping mask. */
typedef struct {
    unsigned flags;         /* RvIsolFlags already set up */
    RvCpuSet hk_domain, hk_nohz, hk_managed;
} HkState;

static RvCpuSet *
hk_mask(HkState *hk, unsigned flag)
{
    return flag == RV_ISOL_DOMAIN ? &hk->hk_domain
         : flag == RV_ISOL_NOHZ ? &hk->hk_nohz : &hk->hk_managed;
}

/* housekeeping_setup(); fills @c->effective with the non-housekeeping CPUs
 * the kernel keeps for these flags. */
static void
housekeeping_setup(RvCmdline *cmd, HkState *hk, RvCmdlineCpus *c, const char *pname,
                   const char *list, unsigned flags)
{
    g_autoptr(GError) perr = NULL;
    RvCpuSet non_hk, staging, possible;
    int r;

    r = rv_cpulist_parse(list, cmd->nr_cpu_ids, &non_hk, &perr);
    if (r < 0) {
        c->parse_error = r;
        c->ignored = true;
        set_note(c, "ignored by the kernel: \"Housekeeping: nohz_full= or isolcpus= incorrect CPU range\" (%s)",
                 perr->message);
        problem(cmd, "%s=%s is ignored by the kernel: %s", pname, c->value, perr->message);
        return;
    }
    c->requested = non_hk;
    possible_set(cmd, &possible);
    if (cmd->nr_cpu_ids) {
        rv_cpuset_andnot(&staging, &possible, &non_hk);
        if (rv_cpuset_is_empty(&staging)) {
            rv_cpuset_set(&staging, cmd->boot_cpu);
            rv_cpuset_clear(&non_hk, cmd->boot_cpu);
            set_note(c, "no housekeeping CPU left: the kernel keeps boot CPU %u "
                     "(\"Housekeeping: must include one present CPU, using boot CPU:%u\")",
                     cmd->boot_cpu, cmd->boot_cpu);
        }
    } else if (rv_cpuset_isset(&non_hk, cmd->boot_cpu)) {
        set_note(c, "number of possible CPUs unknown: whether the kernel keeps boot CPU %u "
                 "as housekeeping cannot be judged", cmd->boot_cpu);
    }
    if (rv_cpuset_is_empty(&non_hk)) {
        c->ignored = true;
        set_note(c, "empty CPU list: nothing isolated");
        return;
    }
    rv_cpuset_andnot(&staging, &possible, &non_hk);
    if (hk->flags & flags) {
        for (unsigned f = 1; f <= RV_ISOL_MANAGED_IRQ; f <<= 1) {
            if (!(flags & hk->flags & f) || !cmd->nr_cpu_ids)
                continue;
            if (!rv_cpuset_equal(&staging, hk_mask(hk, f))) {
                c->ignored = true;
                set_note(c, "ignored by the kernel: \"Housekeeping: nohz_full= must match isolcpus=\"");
                problem(cmd, "%s=%s is ignored by the kernel: its CPUs differ from an earlier "
                        "isolcpus=/nohz_full= with the same housekeeping type", pname, c->value);
                return;
            }
        }
    }
    for (unsigned f = 1; f <= RV_ISOL_MANAGED_IRQ; f <<= 1)
        if ((flags & f) && !(hk->flags & f))
            *hk_mask(hk, f) = staging;
    hk->flags |= flags;
    c->effective = non_hk;
}

/* housekeeping_isolcpus_setup(): flags, then the list */
static void
isolcpus_setup(RvCmdline *cmd, HkState *hk, const char *value)
{
    RvCmdlineCpus *c = &cmd->isolcpus;
    g_autoptr(GPtrArray) unknown = g_ptr_array_new_with_free_func(g_free);
    const char *str = value;
    unsigned flags = 0;

    cpus_reset(c, value);
    while (g_ascii_isalpha(*str)) {
        const char *par = str;
        bool illegal = false;
        size_t len = 0;

        if (!strncmp(str, "nohz,", 5)) {
            str += 5;
            flags |= RV_ISOL_NOHZ;
            continue;
        }
        if (!strncmp(str, "domain,", 7)) {
            str += 7;
            flags |= RV_ISOL_DOMAIN;
            continue;
        }
        if (!strncmp(str, "managed_irq,", 12)) {
            str += 12;
            flags |= RV_ISOL_MANAGED_IRQ;
            continue;
        }
        for (; *str && *str != ','; str++, len++)
            if (!g_ascii_isalpha(*str) && *str != '_')
                illegal = true;
        if (illegal) {
            c->ignored = true;
            set_note(c, "ignored by the kernel: \"isolcpus: Invalid flag %.*s\"", (int) len, par);
            problem(cmd, "isolcpus=%s is ignored by the kernel: invalid flag '%.*s'",
                    value, (int) len, par);
            g_strfreev(cmd->isolcpus_unknown_flags);
            g_ptr_array_add(unknown, NULL);
            cmd->isolcpus_unknown_flags = (char **) g_ptr_array_steal(unknown, NULL);
            return;
        }
        g_ptr_array_add(unknown, g_strndup(par, len));
        set_note(c, "\"isolcpus: Skipped unknown flag %.*s\"", (int) len, par);
        problem(cmd, "isolcpus=%s: the kernel skips '%.*s' as an unknown flag%s", value,
                (int) len, par,
                (!strcmp(g_ptr_array_index(unknown, unknown->len - 1), "all") ||
                 !strcmp(g_ptr_array_index(unknown, unknown->len - 1), "N"))
                    ? " (isolcpus= reads a leading word as a flag, not as a cpulist)"
                    : (!*str && (!strcmp(g_ptr_array_index(unknown, unknown->len - 1), "nohz") ||
                                 !strcmp(g_ptr_array_index(unknown, unknown->len - 1), "domain") ||
                                 !strcmp(g_ptr_array_index(unknown, unknown->len - 1), "managed_irq")))
                          ? " (a flag needs a trailing comma and a CPU list after it)" : "");
        if (*str)
            str++;
    }
    g_strfreev(cmd->isolcpus_unknown_flags);
    g_ptr_array_add(unknown, NULL);
    cmd->isolcpus_unknown_flags = (char **) g_ptr_array_steal(unknown, NULL);
    if (!flags)
        flags = RV_ISOL_DOMAIN;
    cmd->isolcpus_flags = flags;
    housekeeping_setup(cmd, hk, c, "isolcpus", str, flags);
    if (c->ignored)
        cmd->isolcpus_flags = 0;
}

/* bitmap_parselist() as irq_affinity_setup() sees it: the items before the
 * first bad one stay set. */
static int
parse_prefix(const char *value, unsigned nr, RvCpuSet *ret, char **ret_msg)
{
    g_auto(GStrv) items = g_strsplit(value, ",", -1);
    RvCpuSet acc;

    rv_cpuset_zero(&acc);
    for (guint i = 0; items[i]; i++) {
        g_autoptr(GError) perr = NULL;
        RvCpuSet one;
        int r = rv_cpulist_parse(items[i], nr, &one, &perr);

        if (r == 0 && !*g_strstrip(items[i]) && (items[i + 1] || i > 0))
            r = rv_cpulist_parse(",", nr, &one, &perr);   /* empty item: -EINVAL */
        if (r < 0) {
            *ret = acc;
            *ret_msg = g_strdup(perr ? perr->message : "malformed");
            return r;
        }
        rv_cpuset_or(&acc, &acc, &one);
    }
    *ret = acc;
    *ret_msg = NULL;
    return 0;
}

static guint64
memparse(const char *s, bool *ok)
{
    char *end;
    guint64 v = g_ascii_strtoull(s, &end, 0);

    *ok = end != s;
    switch (g_ascii_toupper(*end)) {
    case 'G': v <<= 10; /* fallthrough */
    case 'M': v <<= 10; /* fallthrough */
    case 'K': v <<= 10; end++; break;
    default: break;
    }
    if (*end)
        *ok = false;
    return v;
}

static bool
parse_int(const char *s, int *ret)
{
    char *end;
    gint64 v;

    if (!s || !*s)
        return false;
    v = g_ascii_strtoll(s, &end, 0);
    if (*end || v < G_MININT || v > G_MAXINT)
        return false;
    *ret = (int) v;
    return true;
}

static void
replace_str(char **dst, const char *v)
{
    g_free(*dst);
    *dst = g_strdup(v ? v : "");
}

/* One parse in progress: the result, the housekeeping state the kernel
 * keeps across isolcpus=/nohz_full=, and the hugepagesz= a hugepages=
 * applies to. */
typedef struct {
    RvCmdline *cmd;
    HkState hk;
    const char *current_hpsz;    /* last hugepagesz= (owned by cmd->hugepages) */
    bool hp_count_for_current;   /* a hugepages= followed it */
} ParseState;

typedef struct ParamSetup ParamSetup;

/* @value: text after '=', NULL for a bare word */
typedef void (*ParamHandler)(ParseState *st, const ParamSetup *setup, const char *value);

/* One row per parameter rtvirt interprets, as the kernel's __setup()
 * (include/linux/init.h) ties a name to its handler. */
struct ParamSetup {
    const char *name;
    bool needs_eq;          /* __setup("name="): a bare "name" is no such parameter */
    ParamHandler handler;
    size_t str_offset;      /* setup_string(): the char * field of RvCmdline */
};

static void
setup_isolcpus(ParseState *st, const ParamSetup *setup G_GNUC_UNUSED, const char *v)
{
    isolcpus_setup(st->cmd, &st->hk, v);
}

static void
setup_nohz_full(ParseState *st, const ParamSetup *setup G_GNUC_UNUSED, const char *v)
{
    cpus_reset(&st->cmd->nohz_full, v);
    housekeeping_setup(st->cmd, &st->hk, &st->cmd->nohz_full, "nohz_full", v, RV_ISOL_NOHZ);
}

/* rcu_nocb_setup(): a bad list offloads every CPU */
static void
setup_rcu_nocbs(ParseState *st, const ParamSetup *setup G_GNUC_UNUSED, const char *v)
{
    RvCmdline *cmd = st->cmd;
    RvCmdlineCpus *c = &cmd->rcu_nocbs;
    g_autoptr(GError) perr = NULL;
    int r;

    cpus_reset(c, v);
    if (!v) {
        set_note(c, "no list: offloading enabled, no CPU offloaded at boot");
        return;
    }
    r = rv_cpulist_parse(v, cmd->nr_cpu_ids, &c->requested, &perr);
    if (r < 0) {
        c->parse_error = r;
        possible_set(cmd, &c->effective);
        set_note(c, "\"rcu_nocbs= bad CPU range, all CPUs set\" (%s)", perr->message);
        problem(cmd, "rcu_nocbs=%s is malformed: the kernel offloads ALL CPUs (%s)",
                v, perr->message);
    } else {
        c->effective = c->requested;
    }
}

/* irq_affinity_setup(): the items before a bad one stay, plus the boot CPU */
static void
setup_irqaffinity(ParseState *st, const ParamSetup *setup G_GNUC_UNUSED, const char *v)
{
    RvCmdline *cmd = st->cmd;
    RvCmdlineCpus *c = &cmd->irqaffinity;
    g_autofree char *msg = NULL;
    int r;

    cpus_reset(c, v);
    r = parse_prefix(v, cmd->nr_cpu_ids, &c->effective, &msg);
    if (r < 0) {
        c->parse_error = r;
        set_note(c, "malformed list: the kernel keeps the CPUs before the bad item (%s)", msg);
        problem(cmd, "irqaffinity=%s is malformed: %s", v, msg);
    } else {
        c->requested = c->effective;
    }
    if (!rv_cpuset_isset(&c->effective, cmd->boot_cpu))
        set_note(c, "the kernel always adds boot CPU %u", cmd->boot_cpu);
    rv_cpuset_set(&c->effective, cmd->boot_cpu);
}

static void
setup_kthread_cpus(ParseState *st, const ParamSetup *setup G_GNUC_UNUSED, const char *v)
{
    RvCmdline *cmd = st->cmd;
    RvCmdlineCpus *c = &cmd->kthread_cpus;
    g_autoptr(GError) perr = NULL;
    int r;

    cpus_reset(c, v);
    r = rv_cpulist_parse(v, cmd->nr_cpu_ids, &c->requested, &perr);
    if (r < 0) {
        c->parse_error = r;
        c->ignored = true;
        set_note(c, "malformed list (%s)", perr->message);
        problem(cmd, "kthread_cpus=%s is malformed: %s", v, perr->message);
    } else {
        c->effective = c->requested;
    }
    set_note(c, "not an upstream parameter: only kernels carrying the RHEL/StarlingX "
             "kthread_cpus patch honour it");
}

static void
setup_rcu_nocb_poll(ParseState *st, const ParamSetup *setup G_GNUC_UNUSED,
                    const char *v G_GNUC_UNUSED)
{
    st->cmd->rcu_nocb_poll = true;
}

static void
setup_nosmt(ParseState *st, const ParamSetup *setup G_GNUC_UNUSED, const char *v)
{
    st->cmd->nosmt = v && !strcmp(v, "force") ? 2 : 1;
}

static void
setup_skew_tick(ParseState *st, const ParamSetup *setup G_GNUC_UNUSED, const char *v)
{
    if (v && !parse_int(v, &st->cmd->skew_tick))
        problem(st->cmd, "skew_tick=%s is not a number", v);
}

static void
setup_processor_max_cstate(ParseState *st, const ParamSetup *setup G_GNUC_UNUSED, const char *v)
{
    if (!parse_int(v, &st->cmd->processor_max_cstate))
        problem(st->cmd, "processor.max_cstate=%s is not a number", v ? v : "");
}

static void
setup_intel_idle_max_cstate(ParseState *st, const ParamSetup *setup G_GNUC_UNUSED, const char *v)
{
    if (!parse_int(v, &st->cmd->intel_idle_max_cstate))
        problem(st->cmd, "intel_idle.max_cstate=%s is not a number", v ? v : "");
}

static void
setup_nosoftlockup(ParseState *st, const ParamSetup *setup G_GNUC_UNUSED,
                   const char *v G_GNUC_UNUSED)
{
    st->cmd->nosoftlockup = true;
}

static void
setup_threadirqs(ParseState *st, const ParamSetup *setup G_GNUC_UNUSED,
                 const char *v G_GNUC_UNUSED)
{
    st->cmd->threadirqs = true;
}

/* a parameter kept as its text, the last one winning ("" for a bare word) */
static void
setup_string(ParseState *st, const ParamSetup *setup, const char *v)
{
    replace_str((char **) G_STRUCT_MEMBER_P(st->cmd, setup->str_offset), v);
}

static void
setup_default_hugepagesz(ParseState *st, const ParamSetup *setup G_GNUC_UNUSED, const char *v)
{
    bool ok;

    replace_str(&st->cmd->default_hugepagesz, v);
    memparse(v ? v : "", &ok);
    if (!ok)
        problem(st->cmd, "default_hugepagesz=%s is not a size", v ? v : "");
}

/* hugepagesz_setup(): a new size that the next hugepages= counts */
static void
setup_hugepagesz(ParseState *st, const ParamSetup *setup G_GNUC_UNUSED, const char *v)
{
    RvCmdline *cmd = st->cmd;
    RvCmdlineHugepages hp = { .size = g_strdup(v ? v : ""), .count = -1 };
    bool ok;

    if (st->current_hpsz && !st->hp_count_for_current)
        problem(cmd, "hugepagesz=%s without hugepages=: no pages of that size are reserved at boot",
                st->current_hpsz);
    hp.size_bytes = memparse(hp.size, &ok);
    if (!ok) {
        hp.size_bytes = 0;
        problem(cmd, "hugepagesz=%s is not a size", hp.size);
    }
    for (guint i = 0; i < cmd->hugepages->len; i++) {
        RvCmdlineHugepages *o = &g_array_index(cmd->hugepages, RvCmdlineHugepages, i);
        if (o->size && o->size_bytes && o->size_bytes == hp.size_bytes)
            problem(cmd, "hugepagesz=%s is given twice: the kernel ignores the second (\"hugepagesz=%s specified twice, ignoring\")",
                    hp.size, hp.size);
    }
    g_array_append_val(cmd->hugepages, hp);
    st->current_hpsz = g_array_index(cmd->hugepages, RvCmdlineHugepages, cmd->hugepages->len - 1).size;
    st->hp_count_for_current = false;
}

/* hugepages_setup(): the count for the preceding hugepagesz= */
static void
setup_hugepages(ParseState *st, const ParamSetup *setup G_GNUC_UNUSED, const char *v)
{
    RvCmdline *cmd = st->cmd;
    gint64 count;
    char *end;

    count = v ? g_ascii_strtoll(v, &end, 10) : -1;
    if (!v || *end || count < 0) {
        problem(cmd, "hugepages=%s is not a page count", v ? v : "");
    } else if (st->current_hpsz && !st->hp_count_for_current) {
        g_array_index(cmd->hugepages, RvCmdlineHugepages, cmd->hugepages->len - 1).count = count;
        st->hp_count_for_current = true;
    } else if (st->current_hpsz) {
        problem(cmd, "hugepages=%s follows another hugepages= without a hugepagesz= between: "
                "the kernel ignores it", v);
    } else {
        RvCmdlineHugepages hp = { .size = NULL, .count = count };
        g_array_append_val(cmd->hugepages, hp);
    }
}

#define SETUP_STRING(name, field) { name, false, setup_string, offsetof(RvCmdline, field) }

/* The parameters rtvirt interprets; every other known name is only
 * recorded in ->params (rv_host_cmdline_get() finds it there). */
static const ParamSetup param_setups[] = {
    { "isolcpus",              true,  setup_isolcpus, 0 },
    { "nohz_full",             true,  setup_nohz_full, 0 },
    { "rcu_nocbs",             false, setup_rcu_nocbs, 0 },
    { "irqaffinity",           true,  setup_irqaffinity, 0 },
    { "kthread_cpus",          true,  setup_kthread_cpus, 0 },
    { "rcu_nocb_poll",         false, setup_rcu_nocb_poll, 0 },
    { "nosmt",                 false, setup_nosmt, 0 },
    { "skew_tick",             false, setup_skew_tick, 0 },
    SETUP_STRING("idle", idle),
    SETUP_STRING("intel_pstate", intel_pstate),
    SETUP_STRING("amd_pstate", amd_pstate),
    { "processor.max_cstate",  false, setup_processor_max_cstate, 0 },
    { "intel_idle.max_cstate", false, setup_intel_idle_max_cstate, 0 },
    SETUP_STRING("tsc", tsc),
    SETUP_STRING("mitigations", mitigations),
    SETUP_STRING("nohz", nohz),
    SETUP_STRING("transparent_hugepage", transparent_hugepage),
    SETUP_STRING("numa_balancing", numa_balancing),
    SETUP_STRING("nmi_watchdog", nmi_watchdog),
    { "nosoftlockup",          false, setup_nosoftlockup, 0 },
    { "threadirqs",            false, setup_threadirqs, 0 },
    SETUP_STRING("preempt", preempt),
    { "default_hugepagesz",    false, setup_default_hugepagesz, 0 },
    { "hugepagesz",            false, setup_hugepagesz, 0 },
    { "hugepages",             false, setup_hugepages, 0 },
};

static const ParamSetup *
param_setup_find(const char *name)
{
    for (size_t i = 0; i < G_N_ELEMENTS(param_setups); i++)
        if (strcmp(param_setups[i].name, name) == 0)
            return &param_setups[i];
    return NULL;
}

/* next_arg(): the next word at *@p, blanks ending it outside double quotes
 * (the quotes themselves are dropped).  Returns NULL at the end of the line. */
static char *
next_arg(RvCmdline *cmd, const char **p)
{
    GString *tok;
    bool in_quote = false;

    while (**p && g_ascii_isspace(**p))
        (*p)++;
    if (!**p)
        return NULL;
    tok = g_string_new(NULL);
    for (; **p && (in_quote || !g_ascii_isspace(**p)); (*p)++) {
        if (**p == '"') {
            in_quote = !in_quote;
            continue;
        }
        g_string_append_c(tok, **p);
    }
    if (in_quote)
        problem(cmd, "unterminated double quote in '%s': the kernel takes the rest of the line as its value",
                tok->str);
    return g_string_free(tok, FALSE);
}

/* One kernel parameter: recorded in ->params, then handed to its row of
 * param_setups[] (kernel/params.c parse_args() -> obsolete_checksetup()). */
static void
param_handle(ParseState *st, const char *word)
{
    RvCmdline *cmd = st->cmd;
    const char *eq = strchr(word, '=');
    RvCmdlineParam par = { 0 };
    const ParamSetup *setup;

    par.name = eq ? g_strndup(word, eq - word) : g_strdup(word);
    par.value = eq ? g_strdup(eq + 1) : NULL;
    classify_param(&par);
    g_array_append_val(cmd->params, par);

    if (!par.known) {
        if (par.suggestion)
            problem(cmd, "unknown parameter '%s' (did you mean '%s'?): the kernel passes it to init and it has no effect",
                    par.name, par.suggestion);
        return;
    }
    setup = param_setup_find(par.name);
    if (!setup)
        return;
    if (setup->needs_eq && !par.value) {
        /* __setup("isolcpus=") only matches with the '=' */
        problem(cmd, "'%s' without '=' is not the %s= parameter: the kernel passes it to init "
                "and isolates nothing", par.name, par.name);
        return;
    }
    setup->handler(st, setup, par.value);
}

/* What the kernel derives once every parameter is read. */
static void
parse_finish(ParseState *st)
{
    RvCmdline *cmd = st->cmd;
    RvCpuSet nohz;

    if (st->current_hpsz && !st->hp_count_for_current)
        problem(cmd, "hugepagesz=%s without hugepages=: no pages of that size are reserved at boot",
                st->current_hpsz);

    /* isolcpus=nohz,... is nohz_full= (same housekeeping type) */
    if ((cmd->isolcpus_flags & RV_ISOL_NOHZ) && (!cmd->nohz_full.present || cmd->nohz_full.ignored)) {
        cmd->nohz_full.effective = cmd->isolcpus.effective;
        set_note(&cmd->nohz_full, "set by isolcpus=nohz");
    }
    /* tick_nohz_init(): the boot CPU keeps timekeeping (module comment) */
    if (cmd->nr_cpu_ids && rv_cpuset_isset(&cmd->nohz_full.effective, cmd->boot_cpu)) {
        rv_cpuset_clear(&cmd->nohz_full.effective, cmd->boot_cpu);
        set_note(&cmd->nohz_full, "the kernel clears boot CPU %u from nohz_full, it keeps the "
                 "timekeeping duty (\"NO_HZ: Clearing %u from nohz_full range for "
                 "timekeeping\", tick_nohz_init())", cmd->boot_cpu, cmd->boot_cpu);
    }
    /* rcu_init_nohz(): nohz_full CPUs are always RCU-offloaded */
    nohz = cmd->nohz_full.effective;
    if (!rv_cpuset_is_empty(&nohz) && !rv_cpuset_is_subset(&nohz, &cmd->rcu_nocbs.effective)) {
        rv_cpuset_or(&cmd->rcu_nocbs.effective, &cmd->rcu_nocbs.effective, &nohz);
        set_note(&cmd->rcu_nocbs, "nohz_full CPUs are offloaded too (rcu_init_nohz())");
    }
    /* housekeeping = possible minus every isolated/nohz_full CPU */
    possible_set(cmd, &cmd->housekeeping);
    rv_cpuset_andnot(&cmd->housekeeping, &cmd->housekeeping, &cmd->isolcpus.effective);
    rv_cpuset_andnot(&cmd->housekeeping, &cmd->housekeeping, &cmd->nohz_full.effective);
    if (!cmd->nr_cpu_ids) {
        /* unknown size: the CPUs below the highest listed one */
        rv_cpuset_zero(&cmd->housekeeping);
    }
}

int
rv_host_cmdline_parse_full(const char *text, unsigned nr_cpu_ids, unsigned boot_cpu,
                           RvCmdline **ret, GError **error)
{
    g_autoptr(RvCmdline) cmd = NULL;
    g_autoptr(GPtrArray) init_args = g_ptr_array_new_with_free_func(g_free);
    ParseState st = { 0 };
    bool in_init = false;
    const char *p;
    char *word;

    if (!text)
        return rv_error_set(error, RV_ERROR_INVALID, EINVAL, "No kernel command line given");
    if (nr_cpu_ids > RV_CPUSET_MAX)
        return rv_error_set(error, RV_ERROR_INVALID, ERANGE,
                            "Number of possible CPUs %u is beyond %d", nr_cpu_ids, RV_CPUSET_MAX);
    cmd = g_new0(RvCmdline, 1);
    cmd->raw = g_strdup(text);
    g_strchomp(cmd->raw);
    cmd->nr_cpu_ids = nr_cpu_ids;
    cmd->boot_cpu = boot_cpu;
    cmd->params = g_array_new(FALSE, TRUE, sizeof(RvCmdlineParam));
    cmd->hugepages = g_array_new(FALSE, TRUE, sizeof(RvCmdlineHugepages));
    cmd->problems = g_ptr_array_new_with_free_func(g_free);
    cmd->skew_tick = -1;
    cmd->processor_max_cstate = -1;
    cmd->intel_idle_max_cstate = -1;
    st.cmd = cmd;

    /* parse_args(): "--" hands the rest of the line to init */
    p = cmd->raw;
    while ((word = next_arg(cmd, &p))) {
        if (in_init) {
            g_ptr_array_add(init_args, word);
            continue;
        }
        if (strcmp(word, "--") == 0)
            in_init = true;
        else
            param_handle(&st, word);
        g_free(word);
    }
    parse_finish(&st);

    g_ptr_array_add(init_args, NULL);
    cmd->init_args = (char **) g_ptr_array_steal(init_args, NULL);
    *ret = g_steal_pointer(&cmd);
    return 0;
}

int
rv_host_cmdline_parse(const char *text, unsigned nr_cpu_ids, RvCmdline **ret, GError **error)
{
    return rv_host_cmdline_parse_full(text, nr_cpu_ids, 0, ret, error);
}

int
rv_host_cmdline_load(RvRoot *root, unsigned nr_cpu_ids, RvCmdline **ret, GError **error)
{
    g_autofree char *text = NULL;
    gssize r = rv_host_root_read(root, "/proc/cmdline", &text, error);

    if (r < 0)
        return (int) r;
    return rv_host_cmdline_parse(text, nr_cpu_ids, ret, error);
}

const char *
rv_host_cmdline_get(const RvCmdline *cmd, const char *name)
{
    for (guint i = cmd->params->len; i > 0; i--) {
        const RvCmdlineParam *p = &g_array_index(cmd->params, RvCmdlineParam, i - 1);

        if (strcmp(p->name, name) == 0)
            return p->value ? p->value : "";
    }
    return NULL;
}

bool
rv_host_cmdline_has(const RvCmdline *cmd, const char *name)
{
    return rv_host_cmdline_get(cmd, name) != NULL;
}

static void
format_cpus(GString *s, const char *name, const RvCmdlineCpus *c)
{
    g_autofree char *req = NULL, *eff = NULL;

    if (!c->present && rv_cpuset_is_empty(&c->effective)) {
        g_string_append_printf(s, "%s: absent\n", name);
        return;
    }
    req = rv_cpulist_format(&c->requested);
    eff = rv_cpulist_format(&c->effective);
    g_string_append_printf(s, "%s: value=%s%s%s requested=%s effective=%s (%u CPUs)%s%s\n", name,
                           c->present ? "'" : "", c->present ? (c->value ? c->value : "") : "(none)",
                           c->present ? "'" : "",
                           c->parse_error ? "(invalid)" : req, eff, rv_cpuset_count(&c->effective),
                           c->ignored ? " IGNORED" : "", "");
    if (c->note)
        g_string_append_printf(s, "  note: %s\n", c->note);
}

static const char *
str_or_absent(const char *s)
{
    return s ? s : "(absent)";
}

char *
rv_host_cmdline_format(const RvCmdline *cmd)
{
    GString *s = g_string_new(NULL);
    g_autofree char *hk = rv_cpulist_format(&cmd->housekeeping);

    g_string_append_printf(s, "nr_cpu_ids: %u\nboot_cpu: %u\nparams: %u\n",
                           cmd->nr_cpu_ids, cmd->boot_cpu, cmd->params->len);
    format_cpus(s, "isolcpus", &cmd->isolcpus);
    if (cmd->isolcpus.present) {
        g_string_append_printf(s, "isolcpus_flags:%s%s%s\n",
                               cmd->isolcpus_flags & RV_ISOL_DOMAIN ? " domain" : "",
                               cmd->isolcpus_flags & RV_ISOL_NOHZ ? " nohz" : "",
                               cmd->isolcpus_flags & RV_ISOL_MANAGED_IRQ ? " managed_irq" : "");
        for (guint i = 0; cmd->isolcpus_unknown_flags && cmd->isolcpus_unknown_flags[i]; i++)
            g_string_append_printf(s, "isolcpus_unknown_flag: %s\n", cmd->isolcpus_unknown_flags[i]);
    }
    format_cpus(s, "nohz_full", &cmd->nohz_full);
    format_cpus(s, "rcu_nocbs", &cmd->rcu_nocbs);
    format_cpus(s, "irqaffinity", &cmd->irqaffinity);
    format_cpus(s, "kthread_cpus", &cmd->kthread_cpus);
    g_string_append_printf(s, "housekeeping: %s\n", cmd->nr_cpu_ids ? hk : "(unknown)");
    g_string_append_printf(s, "rcu_nocb_poll: %s\n", cmd->rcu_nocb_poll ? "yes" : "no");
    g_string_append_printf(s, "nosmt: %s\n", cmd->nosmt == 2 ? "force" : cmd->nosmt ? "yes" : "no");
    if (cmd->skew_tick >= 0)
        g_string_append_printf(s, "skew_tick: %d\n", cmd->skew_tick);
    else
        g_string_append(s, "skew_tick: (absent)\n");
    g_string_append_printf(s, "idle: %s\n", str_or_absent(cmd->idle));
    g_string_append_printf(s, "intel_pstate: %s\n", str_or_absent(cmd->intel_pstate));
    g_string_append_printf(s, "amd_pstate: %s\n", str_or_absent(cmd->amd_pstate));
    if (cmd->processor_max_cstate >= 0)
        g_string_append_printf(s, "processor.max_cstate: %d\n", cmd->processor_max_cstate);
    else
        g_string_append(s, "processor.max_cstate: (absent)\n");
    if (cmd->intel_idle_max_cstate >= 0)
        g_string_append_printf(s, "intel_idle.max_cstate: %d%s\n", cmd->intel_idle_max_cstate,
                               cmd->intel_idle_max_cstate == 0 ? " (intel_idle disabled)" : "");
    else
        g_string_append(s, "intel_idle.max_cstate: (absent)\n");
    g_string_append_printf(s, "tsc: %s\n", str_or_absent(cmd->tsc));
    g_string_append_printf(s, "mitigations: %s\n", str_or_absent(cmd->mitigations));
    g_string_append_printf(s, "nohz: %s\n", str_or_absent(cmd->nohz));
    g_string_append_printf(s, "transparent_hugepage: %s\n", str_or_absent(cmd->transparent_hugepage));
    g_string_append_printf(s, "numa_balancing: %s\n", str_or_absent(cmd->numa_balancing));
    g_string_append_printf(s, "nmi_watchdog: %s\n", str_or_absent(cmd->nmi_watchdog));
    g_string_append_printf(s, "nosoftlockup: %s\n", cmd->nosoftlockup ? "yes" : "no");
    g_string_append_printf(s, "threadirqs: %s\n", cmd->threadirqs ? "yes" : "no");
    g_string_append_printf(s, "preempt: %s\n", str_or_absent(cmd->preempt));
    g_string_append_printf(s, "default_hugepagesz: %s\n", str_or_absent(cmd->default_hugepagesz));
    for (guint i = 0; i < cmd->hugepages->len; i++) {
        const RvCmdlineHugepages *h = &g_array_index(cmd->hugepages, RvCmdlineHugepages, i);

        if (h->count >= 0)
            g_string_append_printf(s, "hugepages: %s x %" G_GINT64_FORMAT "\n",
                                   h->size ? h->size : "(default size)", h->count);
        else
            g_string_append_printf(s, "hugepages: %s x (none)\n", h->size ? h->size : "(default size)");
    }
    for (guint i = 0; i < cmd->params->len; i++) {
        const RvCmdlineParam *p = &g_array_index(cmd->params, RvCmdlineParam, i);

        if (!p->known)
            g_string_append_printf(s, "unknown: %s%s%s\n", p->name,
                                   p->suggestion ? " (did you mean " : "",
                                   p->suggestion ? p->suggestion : "");
        if (!p->known && p->suggestion)
            g_string_truncate(s, s->len - 1), g_string_append(s, ")\n");
    }
    for (guint i = 0; cmd->init_args[i]; i++)
        g_string_append_printf(s, "init_arg: %s\n", cmd->init_args[i]);
    for (guint i = 0; i < cmd->problems->len; i++)
        g_string_append_printf(s, "problem: %s\n", (char *) cmd->problems->pdata[i]);
    return g_string_free(s, FALSE);
}
