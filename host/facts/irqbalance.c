/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * host/facts/irqbalance.c: a running irqbalance's banned CPUs
 * (host/facts/irqbalance.h).
 *
 * Source: irqbalance cputree.c setup_banned_cpus() (v1.9.5): a non-empty
 * IRQBALANCE_BANNED_CPUS wins, then IRQBALANCE_BANNED_CPULIST, then the
 * kernel's isolated and nohz_full CPUs; irqbalance.1 (ENVIRONMENT).
 */
#include <fcntl.h>
#include <string.h>
#include <unistd.h>

#include "host/facts/irqbalance.h"
#include "host/facts/threads.h"

#define ENVIRON_MAX (64 * 1024)

void
rv_host_irqbalance_free(RvIrqbalance *ib)
{
    if (!ib)
        return;
    g_free(ib->value);
    g_free(ib->problem);
    g_free(ib);
}

const char *
rv_host_irqbalance_ban_name(RvIrqbalanceBan ban)
{
    switch (ban) {
    case RV_IRQBALANCE_BAN_AUTO: return "auto";
    case RV_IRQBALANCE_BAN_CPUS: return "IRQBALANCE_BANNED_CPUS";
    case RV_IRQBALANCE_BAN_CPULIST: return "IRQBALANCE_BANNED_CPULIST";
    case RV_IRQBALANCE_BAN_UNKNOWN: break;
    }
    return "unknown";
}

/* The value of @name in an environ block, NULL when unset (borrowed). */
static const char *
env_get(char **entries, const char *name)
{
    size_t n = strlen(name);
    const char *found = NULL;

    for (guint i = 0; entries[i]; i++)
        if (strncmp(entries[i], name, n) == 0 && entries[i][n] == '=')
            found = entries[i] + n + 1;  /* the last one wins, as with setenv */
    return found;
}

int
rv_host_irqbalance_load(RvRoot *root, const GArray *tasks, unsigned nr_cpu_ids, RvIrqbalance **ret)
{
    g_autoptr(RvIrqbalance) ib = NULL;
    g_autofree char *path = NULL, *raw = NULL;
    g_auto(GStrv) entries = NULL;
    const char *cpus, *list;
    g_autoptr(GError) err = NULL;
    gsize len = 0;
    int fd;

    *ret = NULL;
    for (guint i = 0; tasks && i < tasks->len && !ib; i++) {
        const RvTask *t = &g_array_index(tasks, RvTask, i);

        if (!t->kthread && g_strcmp0(t->comm, "irqbalance") == 0) {
            ib = g_new0(RvIrqbalance, 1);
            ib->pid = t->pid;
        }
    }
    if (!ib)
        return 0;

    path = g_strdup_printf("/proc/%d/environ", ib->pid);
    fd = rv_host_root_openat(root, path, O_RDONLY | O_CLOEXEC, 0);
    if (fd >= 0) {
        raw = g_malloc(ENVIRON_MAX + 1);
        while (len < ENVIRON_MAX) {
            ssize_t n = read(fd, raw + len, ENVIRON_MAX - len);

            if (n <= 0)
                break;
            len += n;
        }
        close(fd);
        raw[len] = '\0';
    }
    if (!raw) {
        *ret = g_steal_pointer(&ib);
        return 0;
    }
    for (gsize i = 0; i < len; i++)
        if (raw[i] == '\0')
            raw[i] = '\n';
    entries = g_strsplit(raw, "\n", -1);

    cpus = env_get(entries, "IRQBALANCE_BANNED_CPUS");
    list = env_get(entries, "IRQBALANCE_BANNED_CPULIST");
    if (cpus && *cpus) {
        ib->ban = RV_IRQBALANCE_BAN_CPUS;
        ib->value = g_strdup(cpus);
        if (rv_cpumask_parse(cpus, &ib->banned, &err) < 0)
            ib->problem = g_strdup(err->message);
        else
            ib->banned_known = true;
    } else if (list) {
        ib->ban = RV_IRQBALANCE_BAN_CPULIST;
        ib->value = g_strdup(list);
        if (!*list) {
            rv_cpuset_zero(&ib->banned);
            ib->banned_known = true;
        } else if (rv_cpulist_parse(list, nr_cpu_ids, &ib->banned, &err) < 0) {
            ib->problem = g_strdup(err->message);
        } else {
            ib->banned_known = true;
        }
    } else {
        ib->ban = RV_IRQBALANCE_BAN_AUTO;
    }
    *ret = g_steal_pointer(&ib);
    return 0;
}
