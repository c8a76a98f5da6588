/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * host/profile/partition.c: whole-core CPU partition (see host/profile/partition.h).
 */
#include <errno.h>
#include <string.h>

#include "host/profile/partition.h"
#include "util/error.h"

void
rv_host_partition_free(RvHostPartition *part)
{
    if (!part)
        return;
    g_free(part->how);
    if (part->notes)
        g_ptr_array_unref(part->notes);
    g_free(part);
}

static const RvCore *
core_at(const RvTopology *topo, guint i)
{
    return &g_array_index(topo->cores, RvCore, i);
}

static bool
core_online(const RvTopology *topo, const RvCore *core)
{
    return rv_cpuset_intersects(&core->threads, &topo->online);
}

static char *
core_name(const RvCore *core)
{
    g_autofree char *threads = rv_cpulist_format(&core->threads);

    return g_strdup_printf("core %d/%d (CPUs %s)", core->package, core->core_id, threads);
}

/* Rounds @given up to whole cores; a note per core that grew. */
static void
round_up(const RvTopology *topo, const RvCpuSet *given, const char *what, RvCpuSet *ret,
         GPtrArray *notes)
{
    rv_cpuset_zero(ret);
    for (guint i = 0; i < topo->cores->len; i++) {
        const RvCore *core = core_at(topo, i);
        RvCpuSet added;

        if (!rv_cpuset_intersects(&core->threads, given))
            continue;
        rv_cpuset_or(ret, ret, &core->threads);
        rv_cpuset_andnot(&added, &core->threads, given);
        rv_cpuset_and(&added, &added, &topo->online);
        if (!rv_cpuset_is_empty(&added)) {
            g_autofree char *a = rv_cpulist_format(&added);
            g_autofree char *g = NULL;
            RvCpuSet in_core;

            rv_cpuset_and(&in_core, &core->threads, given);
            g = rv_cpulist_format(&in_core);
            g_ptr_array_add(notes, g_strdup_printf("CPUs %s join %s: SMT siblings of CPUs %s",
                                                   a, what, g));
        }
    }
    /* CPUs of unknown core are kept as given */
    for (int c = rv_cpuset_next(given, 0); c >= 0; c = rv_cpuset_next(given, c + 1))
        if (!rv_host_topology_core_of(topo, (unsigned) c))
            rv_cpuset_set(ret, (unsigned) c);
}

/* All cores with an online thread, minus @taken. */
static void
cores_except(const RvTopology *topo, const RvCpuSet *taken, RvCpuSet *ret)
{
    rv_cpuset_zero(ret);
    for (guint i = 0; i < topo->cores->len; i++) {
        const RvCore *core = core_at(topo, i);

        if (core_online(topo, core) && !rv_cpuset_intersects(&core->threads, taken))
            rv_cpuset_or(ret, ret, &core->threads);
    }
}

static int
check_online(const RvHostProfile *profile, const RvTopology *topo, const RvCpuSet *set,
             const char *key, GError **error)
{
    RvCpuSet off;

    rv_cpuset_andnot(&off, set, &topo->online);
    if (!rv_cpuset_is_empty(&off)) {
        g_autofree char *l = rv_cpulist_format(&off);
        return rv_error_set(error, RV_ERROR_INVALID, EINVAL,
                            "%s: [cpus] %s names CPUs %s, which are not online on this host",
                            profile->path ? profile->path : "profile", key, l);
    }
    return 0;
}

static int
partition_explicit(const RvHostProfile *profile, const RvTopology *topo, RvHostPartition *p,
                   GError **error)
{
    int r;

    if (profile->has_isolated && (r = check_online(profile, topo, &profile->isolated,
                                                   "isolated", error)) < 0)
        return r;
    if (profile->has_housekeeping && (r = check_online(profile, topo, &profile->housekeeping,
                                                       "housekeeping", error)) < 0)
        return r;

    if (profile->has_isolated && profile->has_housekeeping) {
        g_autofree char *i = rv_cpulist_format(&profile->isolated);
        g_autofree char *h = rv_cpulist_format(&profile->housekeeping);

        for (guint k = 0; k < topo->cores->len; k++) {
            const RvCore *core = core_at(topo, k);

            if (rv_cpuset_intersects(&core->threads, &profile->isolated) &&
                rv_cpuset_intersects(&core->threads, &profile->housekeeping)) {
                g_autofree char *name = core_name(core);
                return rv_error_set(error, RV_ERROR_INVALID, EINVAL,
                                    "%s: [cpus] isolated = %s and housekeeping = %s split %s: "
                                    "an isolated CPU's SMT sibling must not do housekeeping",
                                    profile->path ? profile->path : "profile", i, h, name);
            }
        }
        p->how = g_strdup_printf("explicit housekeeping=%s isolated=%s", h, i);
        round_up(topo, &profile->housekeeping, "housekeeping", &p->housekeeping, p->notes);
        round_up(topo, &profile->isolated, "the isolated CPUs", &p->isolated, p->notes);
    } else if (profile->has_housekeeping) {
        g_autofree char *h = rv_cpulist_format(&profile->housekeeping);

        p->how = g_strdup_printf("explicit housekeeping=%s, the other cores isolated", h);
        round_up(topo, &profile->housekeeping, "housekeeping", &p->housekeeping, p->notes);
        cores_except(topo, &p->housekeeping, &p->isolated);
    } else {
        g_autofree char *i = rv_cpulist_format(&profile->isolated);

        p->how = g_strdup_printf("explicit isolated=%s, the other cores housekeeping", i);
        round_up(topo, &profile->isolated, "the isolated CPUs", &p->isolated, p->notes);
        cores_except(topo, &p->isolated, &p->housekeeping);
    }
    return 0;
}

/* isolated_cores_per_socket = N: in every package the last N cores with
 * an online thread are isolated, the others do housekeeping; a package
 * keeps one housekeeping core however small it is (noted). */
static gint
compare_package_keys(gconstpointer a, gconstpointer b)
{
    return GPOINTER_TO_INT(a) - GPOINTER_TO_INT(b);
}

static void
partition_isolated_per_package(const RvHostProfile *profile, const RvTopology *topo,
                               RvHostPartition *p)
{
    unsigned n = profile->isolated_cores_per_socket;
    g_autoptr(GHashTable) online = g_hash_table_new(g_direct_hash, g_direct_equal);
    g_autoptr(GHashTable) seen = g_hash_table_new(g_direct_hash, g_direct_equal);
    g_autoptr(GList) packages = NULL;

    p->how = g_strdup_printf("%u isolated core%s per package, the other cores housekeeping",
                             n, n == 1 ? "" : "s");
    for (guint i = 0; i < topo->cores->len; i++) {
        const RvCore *core = core_at(topo, i);
        gpointer key = GINT_TO_POINTER(core->package < 0 ? -1 : core->package);

        if (core_online(topo, core))
            g_hash_table_insert(online, key,
                                GUINT_TO_POINTER(GPOINTER_TO_UINT(g_hash_table_lookup(online, key)) + 1));
    }
    /* cores are sorted by lowest thread id: isolated once past count - N */
    for (guint i = 0; i < topo->cores->len; i++) {
        const RvCore *core = core_at(topo, i);
        gpointer key = GINT_TO_POINTER(core->package < 0 ? -1 : core->package);
        unsigned total = GPOINTER_TO_UINT(g_hash_table_lookup(online, key));
        unsigned have = GPOINTER_TO_UINT(g_hash_table_lookup(seen, key));
        unsigned iso = MIN(n, total ? total - 1 : 0);

        if (!core_online(topo, core))
            continue;
        g_hash_table_insert(seen, key, GUINT_TO_POINTER(have + 1));
        if (have >= total - iso)
            rv_cpuset_or(&p->isolated, &p->isolated, &core->threads);
        else
            rv_cpuset_or(&p->housekeeping, &p->housekeeping, &core->threads);
    }
    packages = g_hash_table_get_keys(online);
    packages = g_list_sort(packages, compare_package_keys);
    for (GList *l = packages; l; l = l->next) {
        unsigned total = GPOINTER_TO_UINT(g_hash_table_lookup(online, l->data));

        if (total <= n)
            g_ptr_array_add(p->notes,
                            g_strdup_printf("package %d has %u core%s with an online thread: "
                                            "%u isolated, not %u, one keeps housekeeping",
                                            GPOINTER_TO_INT(l->data), total,
                                            total == 1 ? "" : "s", total ? total - 1 : 0, n));
    }
}

static void
partition_per_package(const RvHostProfile *profile, const RvTopology *topo, RvHostPartition *p)
{
    unsigned n = profile->housekeeping_cores_per_socket;
    g_autoptr(GHashTable) taken = g_hash_table_new(g_direct_hash, g_direct_equal);

    p->how = g_strdup_printf("%u housekeeping core%s per package, the other cores isolated",
                             n, n == 1 ? "" : "s");
    /* cores are sorted by lowest thread id: the first N of each package */
    for (guint i = 0; i < topo->cores->len; i++) {
        const RvCore *core = core_at(topo, i);
        gpointer key = GINT_TO_POINTER(core->package < 0 ? -1 : core->package);
        unsigned have = GPOINTER_TO_UINT(g_hash_table_lookup(taken, key));

        if (!core_online(topo, core))
            continue;
        if (have < n) {
            rv_cpuset_or(&p->housekeeping, &p->housekeeping, &core->threads);
            g_hash_table_insert(taken, key, GUINT_TO_POINTER(have + 1));
        } else {
            rv_cpuset_or(&p->isolated, &p->isolated, &core->threads);
        }
    }
}

int
rv_host_partition_compute(const RvHostProfile *profile, const RvTopology *topo,
                          RvHostPartition **ret, GError **error)
{
    g_autoptr(RvHostPartition) p = g_new0(RvHostPartition, 1);
    RvCpuSet assigned;
    int r;

    p->notes = g_ptr_array_new_with_free_func(g_free);
    p->smt = profile->smt == RV_HOST_SMT_UNSET ? RV_HOST_SMT_KEEP : profile->smt;

    if (profile->has_isolated || profile->has_housekeeping) {
        r = partition_explicit(profile, topo, p, error);
        if (r < 0)
            return r;
    } else if (profile->isolated_cores_per_socket) {
        partition_isolated_per_package(profile, topo, p);
    } else {
        partition_per_package(profile, topo, p);
    }

    rv_cpuset_and(&p->housekeeping_online, &p->housekeeping, &topo->online);
    rv_cpuset_and(&p->isolated_online, &p->isolated, &topo->online);
    rv_cpuset_or(&assigned, &p->housekeeping, &p->isolated);
    rv_cpuset_andnot(&p->unassigned, &topo->online, &assigned);
    if (!rv_cpuset_is_empty(&p->unassigned)) {
        g_autofree char *u = rv_cpulist_format(&p->unassigned);
        g_ptr_array_add(p->notes, g_strdup_printf("CPUs %s have no known core: neither "
                                                  "housekeeping nor isolated", u));
    }
    if (rv_cpuset_is_empty(&p->housekeeping_online))
        return rv_error_set(error, RV_ERROR_INVALID, EINVAL,
                            "%s: the partition (%s) leaves no online housekeeping CPU",
                            profile->path ? profile->path : "profile", p->how);
    if (rv_cpuset_is_empty(&p->isolated_online))
        return rv_error_set(error, RV_ERROR_INVALID, EINVAL,
                            "%s: the partition (%s) leaves no CPU to isolate on this host "
                            "(%u online CPUs in %u cores)",
                            profile->path ? profile->path : "profile", p->how,
                            rv_cpuset_count(&topo->online), topo->cores->len);

    /* RT CPUs: all isolated threads with SMT kept, else one per core. */
    if (p->smt == RV_HOST_SMT_KEEP) {
        p->rt_cpus = p->isolated_online;
    } else {
        rv_cpuset_zero(&p->rt_cpus);
        for (guint i = 0; i < topo->cores->len; i++) {
            const RvCore *core = core_at(topo, i);
            RvCpuSet on;
            int first;

            if (!rv_cpuset_intersects(&core->threads, &p->isolated))
                continue;
            rv_cpuset_and(&on, &core->threads, &topo->online);
            first = rv_cpuset_next(&on, 0);
            if (first >= 0)
                rv_cpuset_set(&p->rt_cpus, (unsigned) first);
        }
        /* isolated CPUs of unknown core (explicit lists) count as RT CPUs */
        for (int c = rv_cpuset_next(&p->isolated_online, 0); c >= 0;
             c = rv_cpuset_next(&p->isolated_online, c + 1))
            if (!rv_host_topology_core_of(topo, (unsigned) c))
                rv_cpuset_set(&p->rt_cpus, (unsigned) c);
    }
    rv_cpuset_andnot(&p->idle_siblings, &p->isolated_online, &p->rt_cpus);
    *ret = g_steal_pointer(&p);
    return 0;
}

static void
add_line(GString *s, const char *key, const RvCpuSet *set)
{
    g_autofree char *l = rv_cpulist_format(set);

    g_string_append_printf(s, "%s: %s\n", key, l);
}

char *
rv_host_partition_format(const RvHostPartition *p, const RvTopology *topo)
{
    GString *s = g_string_new(NULL);

    g_string_append_printf(s, "how: %s\n", p->how);
    g_string_append_printf(s, "smt: %s\n", rv_host_smt_policy_name(p->smt));
    add_line(s, "housekeeping", &p->housekeeping);
    add_line(s, "isolated", &p->isolated);
    add_line(s, "housekeeping_online", &p->housekeeping_online);
    add_line(s, "isolated_online", &p->isolated_online);
    add_line(s, "rt_cpus", &p->rt_cpus);
    add_line(s, "idle_siblings", &p->idle_siblings);
    add_line(s, "unassigned", &p->unassigned);
    for (guint i = 0; topo->packages && i < topo->packages->len; i++) {
        const RvCpuGroup *g = &g_array_index(topo->packages, RvCpuGroup, i);
        RvCpuSet h, iso;
        g_autofree char *hl = NULL;
        g_autofree char *il = NULL;

        rv_cpuset_and(&h, &g->cpus, &p->housekeeping);
        rv_cpuset_and(&iso, &g->cpus, &p->isolated);
        hl = rv_cpulist_format(&h);
        il = rv_cpulist_format(&iso);
        g_string_append_printf(s, "package %d: housekeeping %s isolated %s\n", g->id,
                               *hl ? hl : "-", *il ? il : "-");
    }
    for (guint i = 0; i < p->notes->len; i++)
        g_string_append_printf(s, "note: %s\n", (const char *) p->notes->pdata[i]);
    return g_string_free(s, FALSE);
}
