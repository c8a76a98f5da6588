/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * host/facts/capture.c: a fixture tree of exactly the files rtvirt reads.
 */
#include <errno.h>
#include <string.h>
#include <sys/stat.h>

#include <libxml/parser.h>
#include <libxml/tree.h>

#include "host/facts/capture.h"
#include "host/facts/state.h"
#include "host/facts/threads.h"
#include "util/error.h"

typedef struct {
    RvRoot *root;
    const char *dir;
    unsigned files;
    GError *error;     /* first write error */
} Cap;

static void
put(Cap *c, const char *path, const char *contents, gssize len)
{
    g_autofree char *file = NULL, *parent = NULL;
    g_autoptr(GError) err = NULL;

    if (c->error)
        return;
    file = g_build_filename(c->dir, path, NULL);
    parent = g_path_get_dirname(file);
    if (g_mkdir_with_parents(parent, 0755) < 0) {
        int e = errno;
        rv_error_set(&c->error, RV_ERROR_FAILED, e, "Failed to create '%s': %s", parent, g_strerror(e));
        return;
    }
    if (!g_file_set_contents(file, contents, len, &err)) {
        rv_error_set(&c->error, RV_ERROR_FAILED, EIO, "Failed to write '%s': %s", file, err->message);
        return;
    }
    c->files++;
}

static void
copy(Cap *c, const char *path)
{
    g_autofree char *text = NULL;
    gssize n = rv_host_root_read(c->root, path, &text, NULL);

    if (n >= 0)
        put(c, path, text, n);
}

static void
copyf(Cap *c, const char *fmt, ...) G_GNUC_PRINTF(2, 3);

static void
copyf(Cap *c, const char *fmt, ...)
{
    va_list ap;
    g_autofree char *p = NULL;

    va_start(ap, fmt);
    p = g_strdup_vprintf(fmt, ap);
    va_end(ap);
    copy(c, p);
}

static bool
numbered(const char *name, const char *prefix)
{
    size_t l = strlen(prefix);

    if (strncmp(name, prefix, l) != 0 || !name[l])
        return false;
    for (const char *p = name + l; *p; p++)
        if (!g_ascii_isdigit(*p))
            return false;
    return true;
}

static void
capture_cpus(Cap *c)
{
    static const char *const top[] = {
        "possible", "present", "online", "offline", "isolated", "nohz_full", "kernel_max",
        "smt/control", "smt/active", "cpuidle/current_driver", "cpuidle/current_governor",
        "cpuidle/current_governor_ro",
    };
    static const char *const topo[] = {
        "physical_package_id", "die_id", "core_id", "cluster_id", "core_cpus_list",
        "thread_siblings_list", "core_cpus", "thread_siblings", "core_siblings_list",
        "package_cpus_list", "die_cpus_list", "cluster_cpus_list",
    };
    g_autoptr(GPtrArray) names = NULL;

    for (size_t i = 0; i < G_N_ELEMENTS(top); i++)
        copyf(c, "/sys/devices/system/cpu/%s", top[i]);
    if (rv_host_root_list(c->root, "/sys/devices/system/cpu", &names, NULL) < 0)
        return;
    for (guint i = 0; i < names->len; i++) {
        const char *n = names->pdata[i];
        g_autofree char *idir = NULL;
        g_autoptr(GPtrArray) states = NULL;

        if (!numbered(n, "cpu"))
            continue;
        copyf(c, "/sys/devices/system/cpu/%s/online", n);
        for (size_t k = 0; k < G_N_ELEMENTS(topo); k++)
            copyf(c, "/sys/devices/system/cpu/%s/topology/%s", n, topo[k]);
        copyf(c, "/sys/devices/system/cpu/%s/cpufreq/scaling_governor", n);
        copyf(c, "/sys/devices/system/cpu/%s/cpufreq/scaling_driver", n);
        idir = g_strdup_printf("/sys/devices/system/cpu/%s/cpuidle", n);
        if (rv_host_root_list(c->root, idir, &states, NULL) < 0)
            continue;
        for (guint k = 0; k < states->len; k++) {
            if (!numbered(states->pdata[k], "state"))
                continue;
            copyf(c, "%s/%s/name", idir, (char *) states->pdata[k]);
            copyf(c, "%s/%s/latency", idir, (char *) states->pdata[k]);
            copyf(c, "%s/%s/disable", idir, (char *) states->pdata[k]);
        }
    }
}

static void
capture_nodes(Cap *c)
{
    g_autoptr(GPtrArray) names = NULL;

    if (rv_host_root_list(c->root, "/sys/devices/system/node", &names, NULL) < 0)
        return;
    for (guint i = 0; i < names->len; i++)
        if (numbered(names->pdata[i], "node"))
            copyf(c, "/sys/devices/system/node/%s/cpulist", (char *) names->pdata[i]);
}

static void
capture_cgroup(Cap *c)
{
    g_autoptr(RvHostState) st = NULL;

    if (rv_host_state_load(c->root, 0, &st, NULL) < 0)
        return;
    /* what rtgroup.cgroup2 reads: the v2 root's controllers and the kernel's
     * config, the only place a v2-only host shows CONFIG_RT_GROUP_SCHED */
    if (st->cgroup2_mount) {
        g_autofree char *p = g_build_filename(st->cgroup2_mount, "cgroup.subtree_control", NULL);
        copy(c, p);
    }
    if (st->kernel_release) {
        g_autofree char *p = g_strdup_printf("/boot/config-%s", st->kernel_release);
        copy(c, p);
    }
    if (!st->cgroup_v1_cpu_mount)
        return;
    static const char *const files[] = {
        "cpu.rt_runtime_us", "cpu.rt_period_us", "cpu.shares",
        "machine/cpu.rt_runtime_us", "machine.slice/cpu.rt_runtime_us",
    };
    for (size_t i = 0; i < G_N_ELEMENTS(files); i++) {
        g_autofree char *p = g_build_filename(st->cgroup_v1_cpu_mount, files[i], NULL);
        copy(c, p);
    }
}

static void
capture_irqs(Cap *c)
{
    g_autoptr(GPtrArray) names = NULL;

    copy(c, "/proc/irq/default_smp_affinity");
    copy(c, "/proc/interrupts");
    if (rv_host_root_list(c->root, "/proc/irq", &names, NULL) < 0)
        return;
    for (guint i = 0; i < names->len; i++) {
        if (!numbered(names->pdata[i], ""))
            continue;
        copyf(c, "/proc/irq/%s/smp_affinity_list", (char *) names->pdata[i]);
        copyf(c, "/proc/irq/%s/effective_affinity_list", (char *) names->pdata[i]);
    }
}

/* status trimmed to the lines rtvirt reads */
static void
copy_status(Cap *c, const char *dir)
{
    g_autofree char *path = g_strdup_printf("%s/status", dir);
    g_autofree char *text = NULL;
    g_auto(GStrv) lines = NULL;
    GString *out;

    if (rv_host_root_read(c->root, path, &text, NULL) < 0)
        return;
    out = g_string_new(NULL);
    lines = g_strsplit(text, "\n", -1);
    for (guint i = 0; lines[i]; i++) {
        static const char *const keep[] = { "Name:", "Tgid:", "Pid:", "PPid:", "Kthread:",
                                            "Cpus_allowed_list:" };

        for (size_t k = 0; k < G_N_ELEMENTS(keep); k++)
            if (g_str_has_prefix(lines[i], keep[k]))
                g_string_append_printf(out, "%s\n", lines[i]);
    }
    put(c, path, out->str, out->len);
    g_string_free(out, TRUE);
}

static void
capture_tasks(Cap *c)
{
    g_autoptr(GArray) rt = NULL;
    g_autoptr(GArray) on = NULL;
    g_autoptr(RvHostState) st = NULL;
    RvCpuSet iso;

    if (rv_host_rt_threads_load(c->root, &rt, NULL, NULL) == 0) {
        for (guint i = 0; i < rt->len; i++) {
            g_autofree char *dir = g_strdup_printf("/proc/%d", g_array_index(rt, RvTask, i).pid);
            g_autofree char *stat = g_strdup_printf("%s/stat", dir);

            copy(c, stat);
            copy_status(c, dir);
        }
    }
    rv_cpuset_zero(&iso);
    if (rv_host_state_load(c->root, 0, &st, NULL) == 0) {
        if (st->isolated.known)
            rv_cpuset_or(&iso, &iso, &st->isolated.set);
        if (st->nohz_full.known)
            rv_cpuset_or(&iso, &iso, &st->nohz_full.set);
    }
    if (!rv_cpuset_is_empty(&iso) && rv_host_tasks_on_cpus(c->root, &iso, &on, NULL) == 0) {
        for (guint i = 0; i < on->len; i++) {
            const RvTask *t = &g_array_index(on, RvTask, i);
            g_autofree char *pdir = g_strdup_printf("/proc/%d", t->tgid);
            g_autofree char *tdir = g_strdup_printf("/proc/%d/task/%d", t->tgid, t->pid);
            g_autofree char *pstat = g_strdup_printf("%s/stat", pdir);
            g_autofree char *tstat = g_strdup_printf("%s/stat", tdir);

            copy(c, pstat);
            copy(c, tstat);
            copy_status(c, tdir);
        }
    }
}

/* Every file under @path, recursively (a name that cannot be listed is
 * taken as a file; unreadable files, e.g. write-only sysctls, are left out). */
static void
copy_tree(Cap *c, const char *path, unsigned depth)
{
    g_autoptr(GPtrArray) names = NULL;

    if (c->error)
        return;
    if (depth > 8 || rv_host_root_list(c->root, path, &names, NULL) < 0) {
        copy(c, path);
        return;
    }
    for (guint i = 0; i < names->len; i++) {
        g_autofree char *p = g_strdup_printf("%s/%s", path, (char *) names->pdata[i]);

        copy_tree(c, p, depth + 1);
    }
}

/* Every /proc/PID/stat (host check judges any kernel thread and daemon a
 * profile names, host/check/check.c read_tasks()) with its status trimmed. */
static void
capture_all_tasks(Cap *c)
{
    g_autoptr(GPtrArray) names = NULL;

    if (rv_host_root_list(c->root, "/proc", &names, NULL) < 0)
        return;
    for (guint i = 0; i < names->len; i++) {
        g_autofree char *dir = NULL, *stat = NULL;

        if (!numbered(names->pdata[i], ""))
            continue;
        dir = g_strdup_printf("/proc/%s", (char *) names->pdata[i]);
        stat = g_strdup_printf("%s/stat", dir);
        copy(c, stat);
        copy_status(c, dir);
    }
}

/* A libvirt status file without the secrets it may carry: every attribute
 * named passwd (<graphics passwd=...>, formatdomain "Graphical framebuffers")
 * is dropped. */
static void
drop_passwords(xmlNodePtr n)
{
    for (; n; n = n->next) {
        if (n->type != XML_ELEMENT_NODE)
            continue;
        xmlUnsetProp(n, (const xmlChar *) "passwd");
        drop_passwords(n->children);
    }
}

static void
copy_status_xml(Cap *c, const char *path)
{
    g_autofree char *text = NULL;
    xmlDocPtr doc;
    xmlChar *out = NULL;
    int len = 0;

    if (rv_host_root_read(c->root, path, &text, NULL) < 0)
        return;
    doc = xmlReadMemory(text, (int) strlen(text), path, NULL,
                        XML_PARSE_NONET | XML_PARSE_NOWARNING | XML_PARSE_NOERROR);
    if (!doc)
        return;
    drop_passwords(xmlDocGetRootElement(doc));
    xmlDocDumpMemory(doc, &out, &len);
    if (out)
        put(c, path, (const char *) out, len);
    xmlFree(out);
    xmlFreeDoc(doc);
}

/* The running libvirt QEMU domains (`rtvirt guest check NAME --root DIR`):
 * /run/libvirt/qemu/NAME.pid and the status file NAME.xml (the live domain
 * XML inside <domstatus>, with the vCPU thread ids), and for the QEMU
 * process its stat, full status (VmLck, HugetlbPages) and every thread's
 * stat and status, under /proc/PID/task/TID and /proc/TID as the kernel
 * shows them.  The kvm-pit/PID and vhost-PID kthreads come with every
 * task (capture_all_tasks()). */
static void
capture_qemu(Cap *c)
{
    g_autoptr(GPtrArray) names = NULL;

    if (rv_host_root_list(c->root, "/run/libvirt/qemu", &names, NULL) < 0)
        return;
    for (guint i = 0; i < names->len; i++) {
        const char *n = names->pdata[i];
        g_autofree char *pidfile = NULL, *pidtext = NULL, *base = NULL, *taskdir = NULL;
        g_autoptr(GPtrArray) tasks = NULL;
        guint64 pid;

        if (!g_str_has_suffix(n, ".pid"))
            continue;
        base = g_strndup(n, strlen(n) - 4);
        pidfile = g_strdup_printf("/run/libvirt/qemu/%s", n);
        if (rv_host_root_read(c->root, pidfile, &pidtext, NULL) < 0 ||
            !g_ascii_string_to_unsigned(g_strstrip(pidtext), 10, 1, G_MAXINT, &pid, NULL))
            continue;
        copy(c, pidfile);
        {
            g_autofree char *xml = g_strdup_printf("/run/libvirt/qemu/%s.xml", base);

            copy_status_xml(c, xml);
        }
        copyf(c, "/proc/%" G_GUINT64_FORMAT "/stat", pid);
        copyf(c, "/proc/%" G_GUINT64_FORMAT "/status", pid);
        taskdir = g_strdup_printf("/proc/%" G_GUINT64_FORMAT "/task", pid);
        if (rv_host_root_list(c->root, taskdir, &tasks, NULL) < 0)
            continue;
        for (guint k = 0; k < tasks->len; k++) {
            const char *tid = tasks->pdata[k];

            if (!numbered(tid, ""))
                continue;
            copyf(c, "%s/%s/stat", taskdir, tid);
            copyf(c, "%s/%s/status", taskdir, tid);
            copyf(c, "/proc/%s/stat", tid);
            copyf(c, "/proc/%s/status", tid);
        }
    }
}

/* /sys/module: every module directory (host/facts/kvm.h tells KVM flavours by
 * their existence) and every readable parameter ([modules] in profiles). */
static void
capture_modules(Cap *c)
{
    g_autoptr(GPtrArray) names = NULL;

    if (rv_host_root_list(c->root, "/sys/module", &names, NULL) < 0)
        return;
    for (guint i = 0; i < names->len && !c->error; i++) {
        g_autofree char *dir = g_build_filename(c->dir, "sys/module",
                                                (char *) names->pdata[i], NULL);
        g_autofree char *params = g_strdup_printf("/sys/module/%s/parameters",
                                                  (char *) names->pdata[i]);
        g_autoptr(GPtrArray) ps = NULL;

        if (g_mkdir_with_parents(dir, 0755) < 0) {
            int e = errno;
            rv_error_set(&c->error, RV_ERROR_FAILED, e, "Failed to create '%s': %s", dir,
                         g_strerror(e));
            return;
        }
        if (rv_host_root_list(c->root, params, &ps, NULL) < 0)
            continue;
        for (guint k = 0; k < ps->len; k++)
            copyf(c, "%s/%s", params, (char *) ps->pdata[k]);
    }
}

/* machinecheckN/ignore_ce ([kernel] mce_ignore_ce) */
static void
capture_mce(Cap *c)
{
    g_autoptr(GPtrArray) names = NULL;

    if (rv_host_root_list(c->root, "/sys/devices/system/machinecheck", &names, NULL) < 0)
        return;
    for (guint i = 0; i < names->len; i++)
        if (numbered(names->pdata[i], "machinecheck"))
            copyf(c, "/sys/devices/system/machinecheck/%s/ignore_ce", (char *) names->pdata[i]);
}

/* rps_cpus of every receive queue (host check rps.on-isolated), bounded as
 * host/facts/state.c reads them */
static void
capture_rps(Cap *c)
{
    g_autoptr(GPtrArray) devs = NULL;

    if (rv_host_root_list(c->root, "/sys/class/net", &devs, NULL) < 0)
        return;
    for (guint i = 0; i < devs->len && i < 256; i++) {
        g_autofree char *qdir = g_strdup_printf("/sys/class/net/%s/queues", (char *) devs->pdata[i]);
        g_autoptr(GPtrArray) queues = NULL;

        if (rv_host_root_list(c->root, qdir, &queues, NULL) < 0)
            continue;
        for (guint k = 0, n = 0; k < queues->len && n < 256; k++)
            if (g_str_has_prefix(queues->pdata[k], "rx-")) {
                n++;
                copyf(c, "%s/%s/rps_cpus", qdir, (char *) queues->pdata[k]);
            }
    }
}

/* The CPU latency PM QoS target (idle.deep-states): /dev/cpu_dma_latency
 * reads as a binary s32 (kernel/power/qos.c); the capture keeps it as
 * decimal text, which host/facts/state.c reads too. */
static void
capture_pm_qos(Cap *c)
{
    g_autofree char *v = NULL;
    gssize n = rv_host_root_read(c->root, "/dev/cpu_dma_latency", &v, NULL);

    if (n == 4 && !g_ascii_isdigit(v[0])) {
        gint32 raw;
        g_autofree char *text = NULL;

        memcpy(&raw, v, sizeof(raw));
        text = g_strdup_printf("%d\n", raw);
        put(c, "/dev/cpu_dma_latency", text, -1);
    } else if (n > 0) {
        put(c, "/dev/cpu_dma_latency", v, n);
    }
}

int
rv_host_capture(RvRoot *root, const char *dir, unsigned *ret_files, GError **error)
{
    Cap c = { .root = root, .dir = dir };
    g_autoptr(GDir) d = NULL;

    if (g_file_test(dir, G_FILE_TEST_EXISTS)) {
        d = g_dir_open(dir, 0, NULL);
        if (!d || g_dir_read_name(d))
            return rv_error_set(error, RV_ERROR_INVALID, EEXIST,
                                "Capture directory '%s' exists and is not an empty directory", dir);
    }
    if (g_mkdir_with_parents(dir, 0755) < 0) {
        int e = errno;
        return rv_error_set(error, RV_ERROR_FAILED, e, "Failed to create '%s': %s", dir, g_strerror(e));
    }

    capture_cpus(&c);
    capture_nodes(&c);
    static const char *const files[] = {
        "/sys/devices/virtual/workqueue/cpumask", "/sys/kernel/realtime",
        "/sys/kernel/mm/transparent_hugepage/enabled", "/sys/kernel/mm/transparent_hugepage/defrag",
        "/sys/kernel/mm/ksm/run", "/proc/cmdline", "/proc/mounts",
        "/proc/sys/kernel/osrelease", "/proc/sys/kernel/version",
        "/proc/sys/kernel/sched_rt_runtime_us", "/proc/sys/kernel/sched_rt_period_us",
        "/proc/sys/kernel/timer_migration", "/proc/sys/kernel/numa_balancing",
        "/proc/sys/kernel/nmi_watchdog",
        "/sys/devices/system/clocksource/clocksource0/current_clocksource",
    };
    for (size_t i = 0; i < G_N_ELEMENTS(files); i++)
        copy(&c, files[i]);
    /* every sysctl: [sysctl] in a profile may name any of them */
    copy_tree(&c, "/proc/sys", 0);
    /* libvirt's qemu.conf: host check's [libvirt] findings (the default
     * [libvirt] qemu_conf path) */
    copy(&c, "/etc/libvirt/qemu.conf");
    capture_modules(&c);
    capture_mce(&c);
    capture_rps(&c);
    capture_pm_qos(&c);
    capture_cgroup(&c);
    capture_irqs(&c);
    capture_tasks(&c);
    capture_all_tasks(&c);
    capture_qemu(&c);   /* after: the QEMU process keeps its full status */
    if (rv_host_root_is_live(root)) {
        int e = 0;
        RvCoreSchedState s = rv_host_coresched_probe(&e);
        const char *rec = s == RV_CORESCHED_USABLE ? "usable\n"
                        : s == RV_CORESCHED_NO_SMT ? "ENODEV\n"
                        : s == RV_CORESCHED_UNSUPPORTED ? "EINVAL\n" : NULL;
        if (rec)
            put(&c, "/rtvirt/coresched", rec, -1);
    } else {
        copy(&c, "/rtvirt/coresched");
    }
    if (c.error) {
        int e = c.error->code == RV_ERROR_FAILED ? EIO : EINVAL;
        g_propagate_error(error, c.error);
        return -e;
    }
    if (ret_files)
        *ret_files = c.files;
    return 0;
}
