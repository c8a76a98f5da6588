/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * host/facts/threads.c: RT-relevant kernel threads and the tasks that last ran
 * on given CPUs, from /proc through an RvRoot.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "host/facts/threads.h"
#include "util/error.h"

#define RV_PF_KTHREAD 0x00200000u   /* include/linux/sched.h */

void
rv_host_task_clear(RvTask *t)
{
    if (!t)
        return;
    g_free(t->comm);
    g_free(t->affinity_list);
    t->comm = t->affinity_list = NULL;
}

static void
task_array_clear(gpointer p)
{
    rv_host_task_clear(p);
}

const char *
rv_host_sched_policy_name(int policy)
{
    static char buf[8][24];
    static unsigned n;

    switch (policy) {
    case 0: return "OTHER";
    case 1: return "FIFO";
    case 2: return "RR";
    case 3: return "BATCH";
    case 5: return "IDLE";
    case 6: return "DEADLINE";
    default:
        /* small rotating buffer: only for unusual values in messages */
        n = (n + 1) % G_N_ELEMENTS(buf);
        g_snprintf(buf[n], sizeof(buf[n]), "policy-%d", policy);
        return buf[n];
    }
}

static bool
to_int(const char *s, gint64 min, gint64 max, gint64 *ret)
{
    char *end;
    gint64 v;

    if (!s || !*s)
        return false;
    errno = 0;
    v = g_ascii_strtoll(s, &end, 10);
    if (*end || errno || v < min || v > max)
        return false;
    *ret = v;
    return true;
}

int
rv_host_parse_proc_stat(const char *line, RvTask *ret)
{
    const char *open, *close;
    g_auto(GStrv) tok = NULL;
    RvTask t = { 0 };
    gint64 pid, flags, nice, cpu, prio, policy;

    if (!line)
        return -EINVAL;
    open = strchr(line, '(');
    close = strrchr(line, ')');    /* comm may hold ')' and spaces */
    if (!open || !close || close < open || close[1] != ' ')
        return -EINVAL;
    {
        g_autofree char *p = g_strndup(line, open - line);
        if (!to_int(g_strstrip(p), 1, G_MAXINT, &pid))
            return -EINVAL;
    }
    tok = g_strsplit(close + 2, " ", -1);
    if (g_strv_length(tok) < 39)
        return -EINVAL;
    g_strstrip(tok[38]);
    if (!to_int(tok[6], 0, G_MAXUINT32, &flags) ||
        !to_int(tok[16], -20, 19, &nice) ||
        !to_int(tok[36], 0, RV_CPUSET_MAX - 1, &cpu) ||
        !to_int(tok[37], 0, 99, &prio) ||
        !to_int(tok[38], 0, 16, &policy))
        return -EINVAL;
    t.pid = (int) pid;
    t.tgid = (int) pid;
    t.comm = g_strndup(open + 1, close - open - 1);
    t.kthread = (flags & RV_PF_KTHREAD) != 0;
    t.nice = (int) nice;
    t.last_cpu = (int) cpu;
    t.rt_priority = (int) prio;
    t.policy = (int) policy;
    *ret = t;
    return 0;
}

/* Cpus_allowed_list from /proc/.../status */
static void
read_affinity(RvRoot *root, const char *dir, RvTask *t)
{
    g_autofree char *path = g_strdup_printf("%s/status", dir);
    g_autofree char *text = NULL;
    g_auto(GStrv) lines = NULL;

    if (rv_host_root_read(root, path, &text, NULL) < 0)
        return;
    lines = g_strsplit(text, "\n", -1);
    for (guint i = 0; lines[i]; i++) {
        if (g_str_has_prefix(lines[i], "Cpus_allowed_list:")) {
            g_autofree char *v = g_strstrip(g_strdup(lines[i] + 18));

            if (rv_cpulist_parse(v, 0, &t->affinity, NULL) == 0) {
                t->has_affinity = true;
                t->affinity_list = g_steal_pointer(&v);
            }
        } else if (g_str_has_prefix(lines[i], "Kthread:")) {
            t->kthread = t->kthread || atoi(lines[i] + 8) == 1;
        }
    }
}

static bool
is_pid_name(const char *n)
{
    if (!*n)
        return false;
    for (const char *p = n; *p; p++)
        if (!g_ascii_isdigit(*p))
            return false;
    return strlen(n) < 11;
}

static const char *const rt_prefixes[] = {
    "rcuc/", "rcub/", "rcuop/", "rcuos/", "rcuog/", "rcu_preempt", "rcu_sched", "rcu_exp",
    "rcu_tasks", "ksoftirqd/", "ktimers/", "irq/", "irq_work/", "migration/", "watchdog/",
    "cpuhp/", "idle_inject/", "posixcputmr/", "kthreadd",
};

static bool
is_rt_relevant(const RvTask *t)
{
    if (!t->kthread)
        return false;
    if (t->policy == 1 || t->policy == 2 || t->policy == 6)
        return true;
    for (size_t i = 0; i < G_N_ELEMENTS(rt_prefixes); i++)
        if (g_str_has_prefix(t->comm, rt_prefixes[i]))
            return true;
    return false;
}

static gint
rt_cmp(gconstpointer a, gconstpointer b)
{
    const RvTask *x = a, *y = b;

    if (x->rt_priority != y->rt_priority)
        return y->rt_priority - x->rt_priority;
    return g_strcmp0(x->comm, y->comm) ?: x->pid - y->pid;
}

static bool
read_stat(RvRoot *root, const char *dir, RvTask *ret)
{
    g_autofree char *path = g_strdup_printf("%s/stat", dir);
    g_autofree char *line = NULL;

    if (rv_host_root_read(root, path, &line, NULL) < 0)
        return false;
    return rv_host_parse_proc_stat(line, ret) == 0;
}

/* The one walk over /proc/PID/stat: every process, or (@rt_only) the
 * RT-relevant ones with their affinity; a process gone meanwhile is skipped,
 * one still there whose stat does not parse is counted in @ret_skipped. */
static int
load_tasks(RvRoot *root, bool rt_only, GArray **ret, unsigned *ret_skipped, GError **error)
{
    g_autoptr(GPtrArray) names = NULL;
    g_autoptr(GArray) out = g_array_new(FALSE, TRUE, sizeof(RvTask));
    unsigned skipped = 0;
    int r;

    g_array_set_clear_func(out, task_array_clear);
    r = rv_host_root_list(root, "/proc", &names, error);
    if (r < 0)
        return r;
    for (guint i = 0; i < names->len; i++) {
        g_autofree char *dir = NULL;
        RvTask t = { 0 };

        if (!is_pid_name(names->pdata[i]))
            continue;
        dir = g_strdup_printf("/proc/%s", (char *) names->pdata[i]);
        if (!read_stat(root, dir, &t)) {
            /* gone meanwhile, or unparsable */
            if (rv_host_root_exists(root, dir))
                skipped++;
            continue;
        }
        if (rt_only) {
            read_affinity(root, dir, &t);
            if (!is_rt_relevant(&t)) {
                rv_host_task_clear(&t);
                continue;
            }
        }
        g_array_append_val(out, t);
    }
    if (ret_skipped)
        *ret_skipped = skipped;
    *ret = g_steal_pointer(&out);
    return 0;
}

int
rv_host_rt_threads_load(RvRoot *root, GArray **ret, unsigned *ret_skipped, GError **error)
{
    int r = load_tasks(root, true, ret, ret_skipped, error);

    if (r < 0)
        return r;
    g_array_sort(*ret, rt_cmp);
    return 0;
}

int
rv_host_tasks_load(RvRoot *root, GArray **ret, GError **error)
{
    return load_tasks(root, false, ret, NULL, error);
}

static gint
cpu_cmp(gconstpointer a, gconstpointer b)
{
    const RvTask *x = a, *y = b;

    if (x->last_cpu != y->last_cpu)
        return x->last_cpu - y->last_cpu;
    return x->pid - y->pid;
}


int
rv_host_thread_load(RvRoot *root, int tgid, int tid, RvTask *ret)
{
    g_autofree char *dir = tgid == tid ? g_strdup_printf("/proc/%d", tid)
                                       : g_strdup_printf("/proc/%d/task/%d", tgid, tid);
    RvTask t = { 0 };

    if (!read_stat(root, dir, &t))
        return rv_host_root_exists(root, dir) ? -EINVAL : -ENOENT;
    t.pid = tid;
    t.tgid = tgid;
    read_affinity(root, dir, &t);
    *ret = t;
    return 0;
}

int
rv_host_vcpu_index(const char *comm)
{
    const char *slash;
    gint64 v;

    if (!comm || !g_str_has_prefix(comm, "CPU ") || !(slash = strchr(comm + 4, '/')) ||
        (strcmp(slash, "/KVM") != 0 && strcmp(slash, "/TCG") != 0))
        return -1;
    {
        g_autofree char *n = g_strndup(comm + 4, slash - comm - 4);

        if (!to_int(n, 0, G_MAXINT, &v))
            return -1;
    }
    return (int) v;
}

/* Every thread of /proc/PID/task/TID that @keep accepts (read with
 * affinity), in /proc order. */
static int
load_threads_where(RvRoot *root, bool (*keep)(const RvTask *, gconstpointer), gconstpointer data,
                   GArray **ret, GError **error)
{
    g_autoptr(GPtrArray) names = NULL;
    g_autoptr(GArray) out = g_array_new(FALSE, TRUE, sizeof(RvTask));
    int r;

    g_array_set_clear_func(out, task_array_clear);
    r = rv_host_root_list(root, "/proc", &names, error);
    if (r < 0)
        return r;
    for (guint i = 0; i < names->len; i++) {
        g_autofree char *tdir = NULL;
        g_autoptr(GPtrArray) tids = NULL;

        if (!is_pid_name(names->pdata[i]))
            continue;
        tdir = g_strdup_printf("/proc/%s/task", (char *) names->pdata[i]);
        if (rv_host_root_list(root, tdir, &tids, NULL) < 0)
            continue;
        for (guint k = 0; k < tids->len; k++) {
            g_autofree char *dir = NULL;
            RvTask t = { 0 };

            if (!is_pid_name(tids->pdata[k]))
                continue;
            dir = g_strdup_printf("%s/%s", tdir, (char *) tids->pdata[k]);
            if (!read_stat(root, dir, &t))
                continue;
            t.tgid = atoi(names->pdata[i]);
            if (!keep(&t, data)) {
                rv_host_task_clear(&t);
                continue;
            }
            read_affinity(root, dir, &t);
            g_array_append_val(out, t);
        }
    }
    *ret = g_steal_pointer(&out);
    return 0;
}

/* the stat comm is the same 15-character TASK_COMM_LEN name as comm */
static bool
keep_vcpu(const RvTask *t, gconstpointer data)
{
    (void) data;
    return rv_host_vcpu_index(t->comm) >= 0;
}

static bool
keep_rt_user(const RvTask *t, gconstpointer data)
{
    (void) data;
    return !t->kthread && (t->policy == 1 || t->policy == 2 || t->policy == 6);
}

/* @data: the RvCpuSet of rv_host_tasks_on_cpus() */
static bool
keep_on_cpus(const RvTask *t, gconstpointer data)
{
    return rv_cpuset_isset(data, t->last_cpu);
}

int
rv_host_vcpu_threads_load(RvRoot *root, GArray **ret, GError **error)
{
    return load_threads_where(root, keep_vcpu, NULL, ret, error);
}

int
rv_host_rt_user_threads_load(RvRoot *root, GArray **ret, GError **error)
{
    return load_threads_where(root, keep_rt_user, NULL, ret, error);
}

int
rv_host_tasks_on_cpus(RvRoot *root, const RvCpuSet *cpus, GArray **ret, GError **error)
{
    int r;

    if (rv_cpuset_is_empty(cpus)) {
        g_autoptr(GPtrArray) names = NULL;
        GArray *out;

        /* as with CPUs: an unreadable /proc is an error */
        r = rv_host_root_list(root, "/proc", &names, error);
        if (r < 0)
            return r;
        out = g_array_new(FALSE, TRUE, sizeof(RvTask));
        g_array_set_clear_func(out, task_array_clear);
        *ret = out;
        return 0;
    }
    r = load_threads_where(root, keep_on_cpus, cpus, ret, error);
    if (r < 0)
        return r;
    g_array_sort(*ret, cpu_cmp);
    return 0;
}

int
rv_host_pid_cmp(gconstpointer a, gconstpointer b)
{
    pid_t x = *(const pid_t *) a, y = *(const pid_t *) b;

    return (x > y) - (x < y);
}

bool
rv_host_pid_parse(const char *s, pid_t *ret)
{
    char *end = NULL;
    long v;

    if (!g_ascii_isdigit(s[0]))
        return false;
    errno = 0;
    v = strtol(s, &end, 10);
    if (errno || *end || v <= 0 || v > G_MAXINT32)
        return false;
    *ret = (pid_t) v;
    return true;
}

static bool
pid_in(const GArray *a, pid_t tid)
{
    for (guint i = 0; i < a->len; i++)
        if (g_array_index(a, pid_t, i) == tid)
            return true;
    return false;
}

int
rv_host_process_threads_list(RvRoot *root, pid_t pid, GArray **ret_tids,
                             GArray **ret_kthreads, GError **error)
{
    g_autoptr(GArray) tids = g_array_new(FALSE, FALSE, sizeof(pid_t));
    g_autoptr(GArray) kthreads = g_array_new(FALSE, FALSE, sizeof(pid_t));
    g_autoptr(GPtrArray) names = NULL;
    g_autoptr(GPtrArray) procs = NULL;
    g_autofree char *taskdir = g_strdup_printf("/proc/%d/task", (int) pid);
    g_autofree char *vhost = g_strdup_printf("vhost-%d", (int) pid);
    int r;

    r = rv_host_root_list(root, taskdir, &names, NULL);
    if (r < 0)
        return rv_error_set(error, RV_ERROR_FAILED, -r,
                            "Cannot list the threads of process %d ('%s'): %s",
                            (int) pid, taskdir, g_strerror(-r));
    for (guint i = 0; i < names->len; i++) {
        pid_t tid;

        if (rv_host_pid_parse(names->pdata[i], &tid))
            g_array_append_val(tids, tid);
    }

    /* vhost workers of kernels < 6.4 are kthreads named vhost-<owner pid> */
    r = rv_host_root_list(root, "/proc", &procs, error);
    if (r < 0)
        return r;
    for (guint i = 0; i < procs->len; i++) {
        g_autofree char *path = NULL;
        g_autofree char *comm = NULL;
        pid_t p;

        if (!rv_host_pid_parse(procs->pdata[i], &p) || p == pid)
            continue;
        path = g_strdup_printf("/proc/%d/comm", (int) p);
        if (rv_host_root_read_value(root, path, &comm, NULL) < 0)
            continue;
        if (strcmp(comm, vhost) != 0 || pid_in(tids, p))
            continue;
        g_array_append_val(tids, p);
        g_array_append_val(kthreads, p);
    }

    g_array_sort(tids, rv_host_pid_cmp);
    g_array_sort(kthreads, rv_host_pid_cmp);
    r = (int) tids->len;
    *ret_tids = g_steal_pointer(&tids);
    if (ret_kthreads)
        *ret_kthreads = g_steal_pointer(&kthreads);
    return r;
}
