/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * host/trace/attrtrace.c: the tracefs instance of spike attribution
 * (host/trace/attrtrace.h).
 */
#include <errno.h>
#include <fcntl.h>
#include <string.h>
#include <unistd.h>
#include <glib/gstdio.h>

#include "host/trace/attrtrace.h"
#include "util/error.h"

static const char *const attr_events[] = {
    "irq/irq_handler_entry", "irq/irq_handler_exit", "irq/softirq_entry", "irq/softirq_exit",
    "sched/sched_switch", "sched/sched_wakeup", "power/cpu_idle",
    "timer/hrtimer_expire_entry", "timer/hrtimer_expire_exit", "kvm/kvm_exit", NULL,
};

struct RvAttrTrace {
    RvRoot *root;
    char *dir;                /* ".../instances/rtvirt-attr" (host path) */
    char *unavailable;
    RvCpuSet cpus;
    bool stopped;
};

static int
iwrite(RvAttrTrace *t, const char *file, const char *value, GError **error)
{
    g_autofree char *p = g_strdup_printf("%s/%s", t->dir, file);

    return rv_host_root_write(t->root, p, value, error);
}

static void
remove_instance(RvAttrTrace *t)
{
    g_autofree char *real = rv_host_root_resolve(t->root, t->dir);

    (void) iwrite(t, "tracing_on", "0", NULL);
    if (real)
        (void) g_rmdir(real);
}

void
rv_host_attrtrace_free(RvAttrTrace *t)
{
    if (!t)
        return;
    remove_instance(t);
    g_free(t->dir);
    g_free(t->unavailable);
    g_free(t);
}

const char *
rv_host_attrtrace_unavailable(const RvAttrTrace *t)
{
    return t->unavailable;
}

int
rv_host_attrtrace_start(RvRoot *root, const RvCpuSet *cpus, guint buffer_kb,
                        RvAttrTrace **ret, GError **error)
{
    return rv_host_attrtrace_start_instance(root, RV_HOST_ATTRTRACE_INSTANCE, attr_events, cpus,
                                            buffer_kb, ret, error);
}

int
rv_host_attrtrace_start_instance(RvRoot *root, const char *instance, const char *const *events,
                                 const RvCpuSet *cpus, guint buffer_kb, RvAttrTrace **ret,
                                 GError **error)
{
    static const char *const dirs[] = { "/sys/kernel/tracing", "/sys/kernel/debug/tracing" };
    const char *base = NULL;
    g_autoptr(GString) missing = g_string_new(NULL);
    g_autofree char *real = NULL, *mask = NULL, *kb = NULL;
    RvAttrTrace *t;
    int r, last = -1;

    for (guint i = 0; i < G_N_ELEMENTS(dirs) && !base; i++) {
        g_autofree char *p = g_strdup_printf("%s/instances", dirs[i]);

        if (rv_host_root_exists(root, p))
            base = dirs[i];
    }
    if (!base)
        return rv_error_set(error, RV_ERROR_UNSUPPORTED, ENOENT,
                            "No tracefs with instances/ under '%s' or '%s' (tracefs not "
                            "mounted: mount -t tracefs nodev /sys/kernel/tracing)", dirs[0],
                            dirs[1]);
    t = g_new0(RvAttrTrace, 1);
    t->root = root;
    t->cpus = *cpus;
    t->dir = g_strdup_printf("%s/instances/%s", base, instance);
    real = rv_host_root_resolve(root, t->dir);
    if (!real || g_mkdir(real, 0700) < 0) {
        int e = real ? errno : EINVAL;

        g_free(t->dir);
        g_free(t);
        if (e == EEXIST)
            return rv_error_set(error, RV_ERROR_FAILED, EBUSY,
                                "tracefs instance '%s/instances/%s' exists: another rtvirt is "
                                "tracing (or a stale one: rmdir it)", base, instance);
        return rv_error_set(error, RV_ERROR_FAILED, e, "Failed to create '%s/instances/%s': %s",
                            base, instance, g_strerror(e));
    }
    rv_cpuset_foreach(c, cpus) last = c;
    mask = rv_cpumask_format(cpus, (unsigned) last + 1);
    kb = g_strdup_printf("%u", buffer_kb);
    if ((r = iwrite(t, "tracing_on", "0", error)) < 0 ||
        (r = iwrite(t, "trace_clock", "mono", error)) < 0 ||
        (r = iwrite(t, "buffer_size_kb", kb, error)) < 0 ||
        (r = iwrite(t, "tracing_cpumask", mask, error)) < 0)
        goto fail;
    for (guint i = 0; events[i]; i++) {
        g_autofree char *f = g_strdup_printf("events/%s/enable", events[i]);
        g_autofree char *p = g_strdup_printf("%s/%s", t->dir, f);

        if (!rv_host_root_exists(root, p)) {
            g_string_append_printf(missing, "%s%s", missing->len ? "," : "", events[i]);
            continue;
        }
        if ((r = iwrite(t, f, "1", error)) < 0)
            goto fail;
    }
    if ((r = iwrite(t, "tracing_on", "1", error)) < 0)
        goto fail;
    t->unavailable = g_string_free(g_steal_pointer(&missing), FALSE);
    *ret = t;
    return 0;
fail:
    rv_host_attrtrace_free(t);
    return r;
}

int
rv_host_attrtrace_stop(RvAttrTrace *t, gsize max_bytes, char **ret_text, guint64 *ret_overrun,
                       gboolean *ret_truncated, GError **error)
{
    g_autofree char *tp = NULL;
    g_autoptr(GByteArray) buf = g_byte_array_new();
    guint64 overrun = 0;
    char chunk[65536];
    int fd, r;

    if (t->stopped)
        return rv_error_set(error, RV_ERROR_FAILED, EALREADY, "trace already stopped");
    t->stopped = true;
    if ((r = iwrite(t, "tracing_on", "0", error)) < 0)
        return r;
    rv_cpuset_foreach(c, &t->cpus) {
        g_autofree char *p = g_strdup_printf("%s/per_cpu/cpu%d/stats", t->dir, c);
        g_autofree char *stats = NULL;
        const char *o;

        if (rv_host_root_read(t->root, p, &stats, NULL) >= 0 && (o = strstr(stats, "overrun: ")))
            overrun += g_ascii_strtoull(o + 9, NULL, 10);
    }
    tp = g_strdup_printf("%s/trace", t->dir);
    fd = rv_host_root_openat(t->root, tp, O_RDONLY | O_CLOEXEC, 0);
    if (fd < 0)
        return rv_error_set(error, RV_ERROR_FAILED, -fd, "Failed to open '%s': %s", tp,
                            g_strerror(-fd));
    *ret_truncated = FALSE;
    for (;;) {
        ssize_t n = read(fd, chunk, sizeof(chunk));

        if (n < 0 && errno == EINTR)
            continue;
        if (n < 0) {
            int e = errno;

            close(fd);
            return rv_error_set(error, RV_ERROR_FAILED, e, "Failed to read '%s': %s", tp,
                                g_strerror(e));
        }
        if (n == 0)
            break;
        if (buf->len + (gsize) n > max_bytes) {
            g_byte_array_append(buf, (guint8 *) chunk, (guint) (max_bytes - buf->len));
            *ret_truncated = TRUE;
            break;
        }
        g_byte_array_append(buf, (guint8 *) chunk, (guint) n);
    }
    close(fd);
    g_byte_array_append(buf, (guint8 *) "", 1);
    *ret_overrun = overrun;
    *ret_text = (char *) g_byte_array_free(g_steal_pointer(&buf), FALSE);
    return 0;
}

int
rv_host_attrtrace_task_policy(RvRoot *root, pid_t pid, int *ret_policy, int *ret_rt_priority)
{
    g_autofree char *p = g_strdup_printf("/proc/%d/stat", (int) pid);
    g_autofree char *stat = NULL;
    g_auto(GStrv) f = NULL;
    const char *rp;
    gssize n = rv_host_root_read(root, p, &stat, NULL);

    if (n < 0)
        return (int) n;
    /* fields after the comm's closing parenthesis start at field 3 */
    rp = strrchr(stat, ')');
    if (!rp)
        return -EINVAL;
    f = g_strsplit(rp + 2, " ", -1);
    if (g_strv_length(f) < 39)
        return -EINVAL;
    *ret_rt_priority = (int) g_ascii_strtoll(f[40 - 3], NULL, 10);
    *ret_policy = (int) g_ascii_strtoll(f[41 - 3], NULL, 10);
    return 0;
}
