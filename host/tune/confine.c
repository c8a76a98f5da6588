/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * host/tune/confine.c: rtvirt's own threads on the housekeeping CPUs (see
 * confine.h).
 */
#include <dirent.h>
#include <errno.h>
#include <sched.h>
#include <stdlib.h>
#include <string.h>
#include <sys/types.h>

#include "host/tune/confine.h"
#include "util/error.h"

static int
mask_get(pid_t tid, RvCpuSet *ret)
{
    cpu_set_t *m = CPU_ALLOC(RV_CPUSET_MAX);
    int r = sched_getaffinity(tid, RV_CPUSET_MASK_SIZE, m) < 0 ? -errno : 0;

    if (r == 0)
        rv_cpuset_from_mask(m, ret);
    else
        rv_cpuset_zero(ret);
    CPU_FREE(m);
    return r;
}

/* every TID of /proc/self/task, or NULL with errno */
static GArray *
list_tasks(void)
{
    DIR *d = opendir("/proc/self/task");
    GArray *tids;
    struct dirent *e;

    if (!d)
        return NULL;
    tids = g_array_new(FALSE, FALSE, sizeof(pid_t));
    while ((e = readdir(d))) {
        char *end;
        long v = strtol(e->d_name, &end, 10);

        if (e->d_name[0] != '.' && !*end && v > 0) {
            pid_t tid = (pid_t) v;

            g_array_append_val(tids, tid);
        }
    }
    closedir(d);
    return tids;
}

static char *
task_comm(pid_t tid)
{
    g_autofree char *path = g_strdup_printf("/proc/self/task/%d/comm", (int) tid);
    char *comm = NULL;

    if (!g_file_get_contents(path, &comm, NULL, NULL))
        return g_strdup("?");
    return g_strchomp(comm);
}

void
rv_host_confine_clear(RvHostConfine *c)
{
    g_clear_pointer(&c->stray, g_free);
}

int
rv_host_confine_self(const RvCpuSet *cpus, RvHostConfine *ret, GError **error)
{
    g_autoptr(GArray) tids = NULL;
    cpu_set_t *m;
    int r;

    memset(ret, 0, sizeof(*ret));
    if (rv_cpuset_is_empty(cpus))
        return rv_error_set(error, RV_ERROR_INVALID, EINVAL,
                            "no housekeeping CPU to confine rtvirt's threads to");
    r = mask_get(0, &ret->original);
    if (r < 0)
        return rv_error_set(error, RV_ERROR_FAILED, -r, "sched_getaffinity: %s", g_strerror(-r));
    tids = list_tasks();
    if (!tids)
        return rv_error_set(error, RV_ERROR_FAILED, errno, "/proc/self/task: %s",
                            g_strerror(errno));
    ret->cpus = *cpus;
    m = rv_cpuset_to_mask(cpus);
    for (guint i = 0; i < tids->len; i++) {
        pid_t tid = g_array_index(tids, pid_t, i);
        RvCpuSet now;
        int err = sched_setaffinity(tid, RV_CPUSET_MASK_SIZE, m) < 0 ? errno : 0;

        ret->threads++;
        if (err == ESRCH || (err == 0 && mask_get(tid, &now) == -ESRCH)) {
            ret->gone++;
            continue;
        }
        if (err == 0 && rv_cpuset_is_subset(&now, cpus)) {
            ret->confined++;
        } else if (!ret->stray) {
            g_autofree char *comm = task_comm(tid);
            g_autofree char *l = err ? NULL : rv_cpulist_format(&now);

            ret->stray = g_strdup_printf("%d %s: %s", (int) tid, comm,
                                         err ? g_strerror(err) : l);
        }
    }
    CPU_FREE(m);
    return 0;
}

void
rv_host_confine_restore(const RvHostConfine *c)
{
    g_autoptr(GArray) tids = list_tasks();
    cpu_set_t *m;

    if (!tids || rv_cpuset_is_empty(&c->original))
        return;
    m = rv_cpuset_to_mask(&c->original);
    for (guint i = 0; i < tids->len; i++)
        (void) sched_setaffinity(g_array_index(tids, pid_t, i), RV_CPUSET_MASK_SIZE, m);
    CPU_FREE(m);
}
