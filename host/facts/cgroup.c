/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * host/facts/cgroup.c: the cpu cgroups of a process's threads (host/facts/cgroup.h).
 */
#include <errno.h>
#include <string.h>

#include "host/facts/cgroup.h"
#include "util/error.h"

/* The cpu cgroup of one /proc/.../cgroup text, or NULL. */
static char *
cpu_path(const char *text)
{
    g_auto(GStrv) lines = g_strsplit(text, "\n", -1);
    const char *v2 = NULL;

    for (guint i = 0; lines[i]; i++) {
        g_auto(GStrv) f = g_strsplit(lines[i], ":", 3);
        g_auto(GStrv) ctl = NULL;

        if (g_strv_length(f) != 3)
            continue;
        if (strcmp(f[0], "0") == 0 && !*f[1]) {
            v2 = strchr(strchr(lines[i], ':') + 1, ':') + 1;
            continue;
        }
        ctl = g_strsplit(f[1], ",", -1);
        if (g_strv_contains((const char * const *) ctl, "cpu"))
            return g_strdup(f[2]);
    }
    return v2 ? g_strdup(v2) : NULL;
}

int
rv_host_cgroup_cpu_of_threads(RvRoot *root, pid_t pid, GHashTable **ret_paths, GError **error)
{
    g_autofree char *dir = g_strdup_printf("/proc/%d/task", (int) pid);
    g_autoptr(GPtrArray) tids = NULL;
    g_autoptr(GHashTable) paths = g_hash_table_new_full(g_str_hash, g_str_equal, g_free, NULL);
    int n = 0, r;

    r = rv_host_root_list(root, dir, &tids, error);
    if (r < 0)
        return r;
    for (guint i = 0; i < tids->len; i++) {
        g_autofree char *f = g_strdup_printf("%s/%s/cgroup", dir, (char *) tids->pdata[i]);
        g_autofree char *text = NULL;
        g_autofree char *p = NULL;
        g_autoptr(GError) local = NULL;
        guint c;

        if (rv_host_root_read(root, f, &text, &local) < 0) {
            if (g_error_matches(local, RV_ERROR, RV_ERROR_FAILED) &&
                !rv_host_root_exists(root, f))
                continue;   /* the thread ended */
            g_propagate_error(error, g_steal_pointer(&local));
            return -EIO;
        }
        p = cpu_path(text);
        if (!p)
            return rv_error_set(error, RV_ERROR_INVALID, EINVAL,
                                "%s: no cpu cgroup line (cgroups(7))", f);
        c = GPOINTER_TO_UINT(g_hash_table_lookup(paths, p));
        g_hash_table_replace(paths, g_steal_pointer(&p), GUINT_TO_POINTER(c + 1));
        n++;
    }
    *ret_paths = g_steal_pointer(&paths);
    return n;
}

char *
rv_host_cgroup_common(GHashTable *paths)
{
    g_autofree char *common = NULL;
    GHashTableIter it;
    gpointer key;

    g_hash_table_iter_init(&it, paths);
    while (g_hash_table_iter_next(&it, &key, NULL)) {
        const char *p = key;
        size_t n = 0, last = 0;

        if (!common) {
            common = g_strdup(p);
            continue;
        }
        /* the longest shared prefix that ends at a '/' boundary */
        while (common[n] && p[n] && common[n] == p[n]) {
            n++;
            if (common[n] == '/' || (!common[n] && (!p[n] || p[n] == '/')))
                last = n;
        }
        if (!common[n] && (!p[n] || p[n] == '/'))
            last = n;
        common[last] = '\0';
    }
    if (!common || !*common)
        return g_strdup("/");
    return g_steal_pointer(&common);
}
