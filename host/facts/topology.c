/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * host/facts/topology.c: CPU topology from sysfs (through an RvRoot), hwloc XML
 * exports and pasted text dumps, all reduced to one RvTopology.
 *
 * The live/fixture loader reads sysfs itself rather than through hwloc's
 * Linux backend.  hwloc 2.9 only takes its root from the process-global
 * HWLOC_FSROOT environment variable, and on the trees made from the pasted
 * dumps in tests/data/cases/topology it either aborts ("[hwloc/linux] failed
 * to find sysfs cpu topology directory, aborting linux discovery": 3 of 4
 * trees, tried with lstopo 2.9.0) or drops the packages (hex-mask tree).
 * The kernel files are the ground truth hwloc reads anyway
 * (Documentation/admin-guide/cputopology.rst); tests/test-topology.c
 * checks the live result against hwloc's own PU and core counts.  hwloc
 * reads the XML exports.
 */
#include <errno.h>
#include <fcntl.h>
#include <ftw.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include <hwloc.h>

#include "host/facts/topology.h"
#include "util/error.h"
#include "util/file.h"

#define SYSCPU "/sys/devices/system/cpu"

/* What a source knows about one CPU before cores are formed. */
typedef struct {
    bool listed;        /* the source names this CPU */
    bool online;
    bool has_topo;      /* package/core known */
    int package, die, core_id, node;
    bool has_siblings;
    RvCpuSet siblings;
} CpuRec;

typedef struct {
    unsigned n;         /* records 0..n-1 */
    CpuRec *cpus;
} CpuRecs;

static void
recs_init(CpuRecs *r, unsigned n)
{
    r->n = n;
    r->cpus = g_new0(CpuRec, n);
    for (unsigned i = 0; i < n; i++) {
        r->cpus[i].package = r->cpus[i].die = r->cpus[i].core_id = r->cpus[i].node = -1;
    }
}

static CpuRec *
recs_get(CpuRecs *r, unsigned cpu)
{
    if (cpu >= r->n) {
        unsigned n = MAX(cpu + 1, r->n * 2);

        n = MIN(n, RV_CPUSET_MAX);
        r->cpus = g_renew(CpuRec, r->cpus, n);
        memset(r->cpus + r->n, 0, (n - r->n) * sizeof(CpuRec));
        for (unsigned i = r->n; i < n; i++)
            r->cpus[i].package = r->cpus[i].die = r->cpus[i].core_id = r->cpus[i].node = -1;
        r->n = n;
    }
    return &r->cpus[cpu];
}

void
rv_host_topology_free(RvTopology *topo)
{
    if (!topo)
        return;
    g_free(topo->source);
    if (topo->cores)
        g_array_unref(topo->cores);
    if (topo->packages)
        g_array_unref(topo->packages);
    if (topo->nodes)
        g_array_unref(topo->nodes);
    g_free(topo->cpu_core);
    g_free(topo);
}

static RvTopology *
topology_new(const char *source)
{
    RvTopology *t = g_new0(RvTopology, 1);

    t->source = g_strdup(source);
    t->cores = g_array_new(FALSE, TRUE, sizeof(RvCore));
    t->packages = g_array_new(FALSE, TRUE, sizeof(RvCpuGroup));
    t->nodes = g_array_new(FALSE, TRUE, sizeof(RvCpuGroup));
    return t;
}

static gint
group_cmp(gconstpointer a, gconstpointer b)
{
    const RvCpuGroup *ga = a, *gb = b;

    return (ga->id > gb->id) - (ga->id < gb->id);
}

static RvCpuGroup *
group_get(GArray *groups, int id)
{
    RvCpuGroup g = { .id = id };

    for (guint i = 0; i < groups->len; i++)
        if (g_array_index(groups, RvCpuGroup, i).id == id)
            return &g_array_index(groups, RvCpuGroup, i);
    g_array_append_val(groups, g);
    return &g_array_index(groups, RvCpuGroup, groups->len - 1);
}

/* Cores, packages and per-CPU lookups from the records.  possible/online
 * must be set in @t already. */
static void
topology_build(RvTopology *t, CpuRecs *r)
{
    RvCpuSet assigned;

    rv_cpuset_zero(&assigned);
    for (unsigned cpu = 0; cpu < r->n; cpu++) {
        CpuRec *c = &r->cpus[cpu];
        RvCore core = { .package = c->package, .die = c->die,
                        .core_id = c->core_id, .node = c->node };

        if (!c->listed || !(c->has_topo || c->has_siblings) || rv_cpuset_isset(&assigned, cpu))
            continue;
        rv_cpuset_zero(&core.threads);
        if (c->has_siblings) {
            core.threads = c->siblings;
        } else if (c->core_id >= 0) {
            for (unsigned o = cpu; o < r->n; o++) {
                CpuRec *oc = &r->cpus[o];

                if (oc->listed && oc->has_topo && !oc->has_siblings &&
                    oc->package == c->package && oc->die == c->die &&
                    oc->core_id == c->core_id)
                    rv_cpuset_set(&core.threads, o);
            }
        }
        rv_cpuset_set(&core.threads, cpu);
        /* a CPU already placed in an earlier core stays there */
        rv_cpuset_andnot(&core.threads, &core.threads, &assigned);
        rv_cpuset_or(&assigned, &assigned, &core.threads);
        g_array_append_val(t->cores, core);
    }

    t->cpu_core = g_new(int, MAX(t->nr_cpu_ids, 1));
    for (unsigned i = 0; i < MAX(t->nr_cpu_ids, 1); i++)
        t->cpu_core[i] = -1;
    t->threads_per_core = 0;
    t->min_threads_per_core = 0;
    for (guint i = 0; i < t->cores->len; i++) {
        RvCore *core = &g_array_index(t->cores, RvCore, i);
        unsigned n = rv_cpuset_count(&core->threads);

        rv_cpuset_foreach(cpu, &core->threads) {
            if ((unsigned) cpu < t->nr_cpu_ids)
                t->cpu_core[cpu] = i;
        }
        t->threads_per_core = MAX(t->threads_per_core, n);
        t->min_threads_per_core = t->min_threads_per_core ? MIN(t->min_threads_per_core, n) : n;
    }
    t->smt = t->threads_per_core > 1;

    /* packages: every listed CPU with a known topology */
    for (unsigned cpu = 0; cpu < r->n; cpu++) {
        CpuRec *c = &r->cpus[cpu];

        if (c->listed && c->has_topo)
            rv_cpuset_set(&group_get(t->packages, c->package)->cpus, cpu);
    }
    /* threads named by a sibling mask but without a record of their own */
    for (guint i = 0; i < t->cores->len; i++) {
        RvCore *core = &g_array_index(t->cores, RvCore, i);

        if (core->package != -1 || t->packages->len)
            rv_cpuset_or(&group_get(t->packages, core->package)->cpus,
                         &group_get(t->packages, core->package)->cpus, &core->threads);
    }
    g_array_sort(t->packages, group_cmp);
    g_array_sort(t->nodes, group_cmp);
    for (guint i = 0; i < t->cores->len; i++) {
        RvCore *core = &g_array_index(t->cores, RvCore, i);
        int first = rv_cpuset_next(&core->threads, 0);

        if (core->node < 0 && first >= 0)
            core->node = rv_host_topology_node_of(t, first);
    }
}

/* possible/online/offline/nr_cpu_ids once the records are in */
static void
topology_finish_sets(RvTopology *t, CpuRecs *r, bool have_possible, bool have_online)
{
    if (!have_possible) {
        rv_cpuset_zero(&t->possible);
        for (unsigned cpu = 0; cpu < r->n; cpu++)
            if (r->cpus[cpu].listed)
                rv_cpuset_set(&t->possible, cpu);
        t->present = t->possible;
    }
    if (!have_online) {
        rv_cpuset_zero(&t->online);
        for (unsigned cpu = 0; cpu < r->n; cpu++)
            if (r->cpus[cpu].listed && r->cpus[cpu].online)
                rv_cpuset_set(&t->online, cpu);
    }
    rv_cpuset_andnot(&t->offline, &t->possible, &t->online);
    t->has_possible = have_possible;
    t->nr_cpu_ids = (unsigned) (rv_cpuset_last(&t->possible) + 1);
}

/* ---- sysfs ------------------------------------------------------------ */

static int
read_cpulist_file(RvRoot *root, const char *path, unsigned nr, RvCpuSet *ret,
                  bool *ret_found, GError **error)
{
    g_autofree char *val = NULL;
    g_autoptr(GError) perr = NULL;
    int r = rv_host_root_read_value(root, path, &val, NULL);

    if (r < 0) {
        *ret_found = false;
        return 0;
    }
    r = rv_cpulist_parse(val, nr, ret, &perr);
    if (r < 0) {
        g_autofree char *where = rv_host_root_resolve(root, path);
        g_autofree char *v = g_strescape(val, "\"");
        g_autofree char *m = g_strescape(perr->message, "\"'");

        return rv_error_set(error, RV_ERROR_INVALID, -r, "Malformed cpulist in '%s': '%s' (%s)",
                            where, v, m);
    }
    *ret_found = true;
    return 0;
}

static int
bad_id(RvRoot *root, const char *path, int v, GError **error)
{
    g_autofree char *where = rv_host_root_resolve(root, path);

    return rv_error_set(error, RV_ERROR_INVALID, ERANGE,
                        "Value out of range in '%s': '%d' (an id is -1 or more)", where, v);
}

static int
beyond_possible(RvRoot *root, const char *path, const RvCpuSet *set, const RvCpuSet *possible,
                GError **error)
{
    g_autofree char *where = rv_host_root_resolve(root, path);
    g_autofree char *s = rv_cpulist_format(set);
    g_autofree char *ps = rv_cpulist_format(possible);

    return rv_error_set(error, RV_ERROR_INVALID, ERANGE,
                        "Malformed cpulist in '%s': '%s' names CPUs beyond the possible CPUs %s",
                        where, s, ps);
}

static int
read_int_opt(RvRoot *root, const char *path, int *ret, bool *ret_found, GError **error)
{
    gint64 v;
    int r;

    if (!rv_host_root_exists(root, path)) {
        *ret_found = false;
        return 0;
    }
    r = rv_host_root_read_int(root, path, &v, error);
    if (r == -EINVAL)
        return r;
    if (r < 0) {
        g_clear_error(error);
        *ret_found = false;
        return 0;
    }
    if (v < G_MININT || v > G_MAXINT) {
        g_autofree char *where = rv_host_root_resolve(root, path);
        return rv_error_set(error, RV_ERROR_INVALID, ERANGE, "Value out of range in '%s': '%" G_GINT64_FORMAT "'",
                            where, v);
    }
    *ret = (int) v;
    *ret_found = true;
    return 0;
}

static bool
parse_cpu_dirname(const char *name, const char *prefix, unsigned *ret)
{
    size_t pl = strlen(prefix);
    guint64 v;
    char *end;

    if (strncmp(name, prefix, pl) != 0 || !g_ascii_isdigit(name[pl]))
        return false;
    v = g_ascii_strtoull(name + pl, &end, 10);
    if (*end || v >= RV_CPUSET_MAX)
        return false;
    *ret = (unsigned) v;
    return true;
}

/* The possible, present and online masks; present falls back to possible. */
static int
load_cpu_masks(RvRoot *root, RvTopology *t, bool *ret_possible, bool *ret_online, GError **error)
{
    bool have_possible = false, have_present = false, have_online = false;
    unsigned nr;
    int r;

    r = read_cpulist_file(root, SYSCPU "/possible", 0, &t->possible, &have_possible, error);
    if (r < 0)
        return r;
    nr = have_possible ? (unsigned) (rv_cpuset_last(&t->possible) + 1) : 0;
    r = read_cpulist_file(root, SYSCPU "/present", nr, &t->present, &have_present, error);
    if (r < 0)
        return r;
    r = read_cpulist_file(root, SYSCPU "/online", nr, &t->online, &have_online, error);
    if (r < 0)
        return r;
    if (have_possible && !have_present)
        t->present = t->possible;
    *ret_possible = have_possible;
    *ret_online = have_online;
    return 0;
}

/* SMT siblings of the CPU at @base: core_cpus_list (5.x) =
 * thread_siblings_list (older name) = thread_siblings hex mask (oldest).
 * @possible: the possible CPUs, NULL when unknown. */
static int
load_cpu_siblings(RvRoot *root, const char *base, const RvCpuSet *possible, CpuRec *c,
                  GError **error)
{
    static const char *const lists[] = { "core_cpus_list", "thread_siblings_list" };
    static const char *const masks[] = { "core_cpus", "thread_siblings" };
    g_autofree char *p = NULL;
    int r;

    for (size_t k = 0; k < G_N_ELEMENTS(lists); k++) {
        RvCpuSet sib;
        bool found_list = false;

        g_free(p);
        p = g_strdup_printf("%s/topology/%s", base, lists[k]);
        r = read_cpulist_file(root, p, 0, &sib, &found_list, error);
        if (r < 0)
            return r;
        if (!found_list)
            continue;
        /* every name of the sibling list must hold CPUs of this host */
        if (possible && !rv_cpuset_is_subset(&sib, possible))
            return beyond_possible(root, p, &sib, possible, error);
        if (!c->has_siblings) {
            c->siblings = sib;
            c->has_siblings = true;
        }
    }
    for (size_t k = 0; k < G_N_ELEMENTS(masks) && !c->has_siblings; k++) {
        g_autofree char *val = NULL;
        g_autoptr(GError) perr = NULL;

        g_free(p);
        p = g_strdup_printf("%s/topology/%s", base, masks[k]);
        if (rv_host_root_read_value(root, p, &val, NULL) < 0)
            continue;
        r = rv_cpumask_parse(val, &c->siblings, &perr);
        if (r < 0) {
            g_autofree char *where = rv_host_root_resolve(root, p);
            g_autofree char *v = g_strescape(val, "\"");
            g_autofree char *m = g_strescape(perr->message, "\"'");

            return rv_error_set(error, RV_ERROR_INVALID, -r, "Malformed CPU mask in '%s': '%s' (%s)",
                                where, v, m);
        }
        c->has_siblings = true;
    }
    /* siblings beyond the possible CPUs: a corrupt file */
    if (c->has_siblings && possible && !rv_cpuset_is_subset(&c->siblings, possible))
        return beyond_possible(root, p, &c->siblings, possible, error);
    /* an empty sibling file says nothing */
    if (c->has_siblings && rv_cpuset_is_empty(&c->siblings))
        c->has_siblings = false;
    if (c->has_siblings)
        c->has_topo = true;
    return 0;
}

/* One cpuN directory: online, package, core and die ids, siblings.
 * @online: the online mask, NULL without /sys/.../cpu/online. */
static int
load_cpu_dir(RvRoot *root, const char *name, const RvCpuSet *possible, const RvCpuSet *online,
             unsigned cpu, CpuRec *c, GError **error)
{
    g_autofree char *base = g_strdup_printf(SYSCPU "/%s", name);
    g_autofree char *p = NULL;
    bool found;
    int is_online;
    int r;

    c->listed = true;
    p = g_strdup_printf("%s/online", base);
    r = read_int_opt(root, p, &is_online, &found, error);
    if (r < 0)
        return r;
    c->online = found ? is_online != 0 : true;   /* cpu0 often has no online file */
    if (online)
        c->online = rv_cpuset_isset(online, cpu);

    g_free(p);
    p = g_strdup_printf("%s/topology/physical_package_id", base);
    r = read_int_opt(root, p, &c->package, &c->has_topo, error);
    if (r < 0)
        return r;
    /* -1 where the firmware gives none (drivers/base/topology.c);
     * nothing below */
    if (c->has_topo && c->package < -1)
        return bad_id(root, p, c->package, error);
    g_free(p);
    p = g_strdup_printf("%s/topology/core_id", base);
    r = read_int_opt(root, p, &c->core_id, &found, error);
    if (r < 0)
        return r;
    c->has_topo = c->has_topo || found;
    g_free(p);
    p = g_strdup_printf("%s/topology/die_id", base);
    r = read_int_opt(root, p, &c->die, &found, error);
    if (r < 0)
        return r;
    return load_cpu_siblings(root, base, possible, c, error);
}

/* NUMA nodes: /sys/devices/system/node/nodeN/cpulist (none is no error) */
static int
load_nodes(RvRoot *root, RvTopology *t, CpuRecs *recs, GError **error)
{
    g_autoptr(GPtrArray) nnames = NULL;
    int r;

    if (rv_host_root_list(root, "/sys/devices/system/node", &nnames, NULL) < 0)
        return 0;
    for (guint i = 0; i < nnames->len; i++) {
        g_autofree char *p = NULL;
        unsigned node;
        RvCpuSet cpus;
        bool found;

        if (!parse_cpu_dirname(nnames->pdata[i], "node", &node))
            continue;
        p = g_strdup_printf("/sys/devices/system/node/%s/cpulist", (char *) nnames->pdata[i]);
        r = read_cpulist_file(root, p, 0, &cpus, &found, error);
        if (r < 0)
            return r;
        if (!found)
            continue;
        group_get(t->nodes, (int) node)->cpus = cpus;
        rv_cpuset_foreach(cpu, &cpus) {
            recs_get(recs, cpu)->node = (int) node;
        }
    }
    return 0;
}

int
rv_host_topology_load(RvRoot *root, RvTopology **ret, GError **error)
{
    g_autoptr(RvTopology) t = NULL;
    g_autoptr(GPtrArray) names = NULL;
    g_autofree char *src = NULL;
    CpuRecs recs;
    bool have_possible = false, have_online = false, any = false;
    int r;

    r = rv_host_root_list(root, SYSCPU, &names, error);
    if (r < 0)
        return r;

    src = g_strdup_printf("sysfs:%s", rv_host_root_path(root));
    t = topology_new(src);
    recs_init(&recs, 64);

    r = load_cpu_masks(root, t, &have_possible, &have_online, error);
    if (r < 0)
        goto out;
    for (guint i = 0; i < names->len; i++) {
        unsigned cpu;

        if (!parse_cpu_dirname(names->pdata[i], "cpu", &cpu))
            continue;
        r = load_cpu_dir(root, names->pdata[i], have_possible ? &t->possible : NULL,
                         have_online ? &t->online : NULL, cpu, recs_get(&recs, cpu), error);
        if (r < 0)
            goto out;
    }
    r = load_nodes(root, t, &recs, error);
    if (r < 0)
        goto out;

    for (unsigned cpu = 0; cpu < recs.n; cpu++)
        any = any || recs.cpus[cpu].listed;
    if (!any && !have_possible) {
        g_autofree char *where = rv_host_root_resolve(root, SYSCPU);
        r = rv_error_set(error, RV_ERROR_FAILED, ENOENT, "No CPU found under '%s'", where);
        goto out;
    }
    /* possible CPUs without a cpuN directory are not present: listed as
     * such only through the possible mask */
    topology_finish_sets(t, &recs, have_possible, have_online);
    topology_build(t, &recs);
    r = 0;
    *ret = g_steal_pointer(&t);
out:
    g_free(recs.cpus);
    return r;
}

/* ---- hwloc XML -------------------------------------------------------- */

static void
bitmap_to_set(hwloc_const_bitmap_t b, RvCpuSet *ret)
{
    unsigned id;

    rv_cpuset_zero(ret);
    if (!b)
        return;
    hwloc_bitmap_foreach_begin(id, b) {
        if (id < RV_CPUSET_MAX)
            rv_cpuset_set(ret, id);
    } hwloc_bitmap_foreach_end();
}

static int
obj_ancestor_index(hwloc_obj_t obj, hwloc_obj_type_t type)
{
    hwloc_obj_t a = hwloc_get_ancestor_obj_by_type(NULL, type, obj);

    /* hwloc_get_ancestor_obj_by_type() ignores its topology argument */
    return a && a->os_index != HWLOC_UNKNOWN_INDEX ? (int) a->os_index : -1;
}

int
rv_host_topology_load_hwloc_xml(const char *path, RvTopology **ret, GError **error)
{
    g_autoptr(RvTopology) t = NULL;
    g_autofree char *src = g_strdup_printf("hwloc-xml:%s", path);
    hwloc_topology_t topo;
    hwloc_obj_t root, obj = NULL;
    CpuRecs recs;
    int e;

    g_autofree char *xml = NULL;
    gsize xml_len = 0;
    gssize n;
    char *v3;

    n = rv_file_read(path, RV_FILE_READ_MAX, &xml, error);
    if (n < 0)
        return (int) n;
    xml_len = (gsize) n;
    /* hwloc 3.x writes <topology version="3.0">, which hwloc 2.x refuses
     * ("cannot import XML version 3.0 > 2") although the objects and
     * cpusets it carries are read the same; read it as 2.0. */
    v3 = strstr(xml, "<topology version=\"3.");
    if (v3)
        v3[19] = '2';
    if (hwloc_topology_init(&topo) < 0)
        return rv_error_set(error, RV_ERROR_FAILED, ENOMEM, "Failed to initialise hwloc");
    if (xml_len > G_MAXINT ||
        hwloc_topology_set_xmlbuffer(topo, xml, (int) xml_len + 1) < 0 ||
        hwloc_topology_load(topo) < 0) {
        e = errno ? errno : EINVAL;
        hwloc_topology_destroy(topo);
        return rv_error_set(error, RV_ERROR_INVALID, e,
                            "Failed to load hwloc XML '%s': %s", path, g_strerror(e));
    }
    t = topology_new(src);
    recs_init(&recs, 64);
    root = hwloc_get_root_obj(topo);
    bitmap_to_set(root->complete_cpuset, &t->possible);
    bitmap_to_set(root->cpuset, &t->online);
    t->present = t->possible;

    while ((obj = hwloc_get_next_obj_by_type(topo, HWLOC_OBJ_PU, obj))) {
        CpuRec *c;
        hwloc_obj_t core;

        if (obj->os_index == HWLOC_UNKNOWN_INDEX || obj->os_index >= RV_CPUSET_MAX)
            continue;
        c = recs_get(&recs, obj->os_index);
        c->listed = true;
        c->online = true;
        c->has_topo = true;
        c->package = obj_ancestor_index(obj, HWLOC_OBJ_PACKAGE);
        c->die = obj_ancestor_index(obj, HWLOC_OBJ_DIE);
        core = hwloc_get_ancestor_obj_by_type(topo, HWLOC_OBJ_CORE, obj);
        if (core) {
            c->core_id = core->os_index != HWLOC_UNKNOWN_INDEX ? (int) core->os_index : -1;
            bitmap_to_set(core->complete_cpuset ? core->complete_cpuset : core->cpuset,
                          &c->siblings);
            c->has_siblings = true;
        }
    }
    obj = NULL;
    while ((obj = hwloc_get_next_obj_by_type(topo, HWLOC_OBJ_NUMANODE, obj))) {
        RvCpuSet cpus;

        if (obj->os_index == HWLOC_UNKNOWN_INDEX)
            continue;
        bitmap_to_set(obj->cpuset, &cpus);
        rv_cpuset_or(&group_get(t->nodes, (int) obj->os_index)->cpus,
                     &group_get(t->nodes, (int) obj->os_index)->cpus, &cpus);
        rv_cpuset_foreach(cpu, &cpus) {
            recs_get(&recs, cpu)->node = (int) obj->os_index;
        }
    }
    hwloc_topology_destroy(topo);

    topology_finish_sets(t, &recs, true, true);
    topology_build(t, &recs);
    g_free(recs.cpus);
    *ret = g_steal_pointer(&t);
    return 0;
}

/* ---- pasted text ------------------------------------------------------ */

static int
text_fail(GError **error, const char *path, guint line, const char *text, const char *why)
{
    return rv_error_set(error, RV_ERROR_INVALID, EINVAL, "%s:%u: %s: '%s'", path, line, why, text);
}

static bool
parse_small_int(const char *s, int *ret)
{
    gint64 v;
    char *end;

    if (!s || !*s)
        return false;
    if (strcmp(s, "-") == 0) {
        *ret = -1;
        return true;
    }
    v = g_ascii_strtoll(s, &end, 10);
    if (*end || v < -1 || v > G_MAXINT)
        return false;
    *ret = (int) v;
    return true;
}

/* util-linux lscpu prints strided ranges as "a-b:s" (every s-th CPU); the
 * kernel's cpulist writes the same set as "a-b:1/s". */
static char *
lscpu_stride_to_kernel(const char *v)
{
    g_auto(GStrv) items = g_strsplit(v, ",", -1);

    for (guint i = 0; items[i]; i++) {
        char *colon = strchr(items[i], ':');

        if (colon && !strchr(colon, '/')) {
            char *n = g_strdup_printf("%.*s:1/%s", (int) (colon - items[i]), items[i], colon + 1);
            g_free(items[i]);
            items[i] = n;
        }
    }
    return g_strjoinv(",", items);
}

/* One lscpu / ppc64_cpu text being read. */
typedef struct {
    const char *path;
    RvTopology *t;
    CpuRecs recs;
    /* column indexes of the lscpu -e table or lscpu -p CSV, -1 absent */
    int col_cpu, col_core, col_socket, col_node, col_online;
    enum { TEXT_NONE, TEXT_TABLE, TEXT_CSV, TEXT_CSV_DONE } mode;
    bool have_online, have_offline;
    RvCpuSet online_list, offline_list;
} TextParse;

/* Each line reader returns 1 when the line was its kind, 0 when not,
 * -errno (with @error naming FILE:LINE) when it was but is malformed. */

/* lscpu summary: "On-line CPU(s) list:" / "Off-line CPU(s) list:" */
static int
text_online_line(TextParse *tp, guint ln, const char *line, GError **error)
{
    g_autoptr(GError) perr = NULL;
    bool on;

    if (!g_str_has_prefix(line, "On-line CPU(s) list:") &&
        !g_str_has_prefix(line, "Off-line CPU(s) list:"))
        return 0;
    on = line[1] == 'n';
    if (rv_cpulist_parse(strchr(line, ':') + 1, 0, on ? &tp->online_list : &tp->offline_list,
                         &perr) < 0)
        return text_fail(error, tp->path, ln, line, "malformed cpulist");
    if (on)
        tp->have_online = true;
    else
        tp->have_offline = true;
    return 1;
}

/* lscpu summary: "NUMA node0 CPU(s): 0-5,48-53" (lscpu's stride syntax too) */
static int
text_numa_line(TextParse *tp, guint ln, const char *line, GError **error)
{
    g_autoptr(GError) perr = NULL;
    g_autofree char *kv = NULL;
    unsigned node;
    RvCpuSet cpus;

    if (!g_str_has_prefix(line, "NUMA node") || !strstr(line, "CPU(s):"))
        return 0;
    kv = lscpu_stride_to_kernel(strstr(line, "CPU(s):") + 7);
    if (sscanf(line, "NUMA node%u", &node) != 1 || rv_cpulist_parse(kv, 0, &cpus, &perr) < 0)
        return text_fail(error, tp->path, ln, line, "malformed NUMA line");
    group_get(tp->t->nodes, (int) node)->cpus = cpus;
    return 1;
}

/* ppc64_cpu --info: "Core   0:    0*    1*    2     3" ('*' = online) */
static int
text_ppc64_core_line(TextParse *tp, guint ln, const char *line, GError **error)
{
    g_auto(GStrv) toks = NULL;
    int core_id;
    RvCpuSet sib;

    if (!g_str_has_prefix(line, "Core ") || !strchr(line, ':'))
        return 0;
    if (sscanf(line, "Core %d:", &core_id) != 1)
        return text_fail(error, tp->path, ln, line, "malformed ppc64_cpu line");
    toks = g_strsplit_set(strchr(line, ':') + 1, " \t", -1);
    rv_cpuset_zero(&sib);
    for (guint k = 0; toks[k]; k++) {
        int id;
        bool star = false;
        size_t len = strlen(toks[k]);
        CpuRec *c;

        if (!len)
            continue;
        if (toks[k][len - 1] == '*') {
            star = true;
            toks[k][len - 1] = '\0';
        }
        if (!parse_small_int(toks[k], &id) || id < 0 || id >= RV_CPUSET_MAX)
            return text_fail(error, tp->path, ln, line, "malformed CPU id");
        rv_cpuset_set(&sib, id);
        c = recs_get(&tp->recs, id);
        c->listed = true;
        c->online = star;
        c->has_topo = true;
        c->core_id = core_id;
    }
    rv_cpuset_foreach(id, &sib) {
        recs_get(&tp->recs, id)->siblings = sib;
        recs_get(&tp->recs, id)->has_siblings = true;
    }
    return 1;
}

/* lscpu -p header: "# CPU,Core,Socket,Node,,L1d,L1i"; other '#' lines are
 * comments */
static int
text_comment_line(TextParse *tp, const char *line)
{
    g_auto(GStrv) cols = NULL;

    if (!g_str_has_prefix(line, "# CPU,"))
        return line[0] == '#';
    if (tp->mode == TEXT_CSV || tp->mode == TEXT_CSV_DONE) {
        tp->mode = TEXT_CSV_DONE;   /* the --physical section: kernel ids, not used */
        return 1;
    }
    cols = g_strsplit(line + 2, ",", -1);
    tp->col_cpu = tp->col_core = tp->col_socket = tp->col_node = tp->col_online = -1;
    for (int k = 0; cols[k]; k++) {
        if (!g_ascii_strcasecmp(cols[k], "CPU")) tp->col_cpu = k;
        else if (!g_ascii_strcasecmp(cols[k], "Core")) tp->col_core = k;
        else if (!g_ascii_strcasecmp(cols[k], "Socket")) tp->col_socket = k;
        else if (!g_ascii_strcasecmp(cols[k], "Node")) tp->col_node = k;
    }
    tp->mode = TEXT_CSV;
    return 1;
}

/* lscpu -e header: "CPU NODE SOCKET CORE L1d:L1i:L2:L3 ONLINE ..." */
static int
text_table_header(TextParse *tp, const char *line)
{
    g_auto(GStrv) cols = NULL;
    int k = 0;

    if (!g_str_has_prefix(line, "CPU ") || !strstr(line, "CORE"))
        return 0;
    cols = g_strsplit_set(line, " \t", -1);
    tp->col_cpu = tp->col_core = tp->col_socket = tp->col_node = tp->col_online = -1;
    for (guint i = 0; cols[i]; i++) {
        if (!*cols[i])
            continue;
        if (!strcmp(cols[i], "CPU")) tp->col_cpu = k;
        else if (!strcmp(cols[i], "CORE")) tp->col_core = k;
        else if (!strcmp(cols[i], "SOCKET")) tp->col_socket = k;
        else if (!strcmp(cols[i], "NODE")) tp->col_node = k;
        else if (!strcmp(cols[i], "ONLINE")) tp->col_online = k;
        k++;
    }
    tp->mode = TEXT_TABLE;
    return 1;
}

/* one row of the lscpu -e table or of the lscpu -p CSV */
static int
text_cpu_row(TextParse *tp, guint ln, const char *line, GError **error)
{
    g_auto(GStrv) raw = NULL;
    g_autoptr(GPtrArray) f = g_ptr_array_new();
    int v;
    CpuRec *c;

    if ((tp->mode != TEXT_TABLE && tp->mode != TEXT_CSV) || !g_ascii_isdigit(line[0]))
        return 0;
    raw = tp->mode == TEXT_CSV ? g_strsplit(line, ",", -1) : g_strsplit_set(line, " \t", -1);
    for (guint i = 0; raw[i]; i++)
        if (tp->mode == TEXT_CSV || *raw[i])
            g_ptr_array_add(f, raw[i]);
    /* text pasted after an lscpu -e table (e.g. `cat
     * .../thread_siblings_list` lines "0,2") is no row of it */
    if (tp->mode == TEXT_TABLE && (f->len < (guint) MAX(tp->col_cpu, MAX(tp->col_core, tp->col_socket)) + 1 ||
                                   strchr(line, ',')))
        return 1;
    if (tp->col_cpu < 0 || tp->col_cpu >= (int) f->len ||
        !parse_small_int(f->pdata[tp->col_cpu], &v) || v < 0 || v >= RV_CPUSET_MAX)
        return text_fail(error, tp->path, ln, line, "malformed CPU row");
    c = recs_get(&tp->recs, (unsigned) v);
    c->listed = true;
    c->online = true;
    if (tp->col_online >= 0 && tp->col_online < (int) f->len)
        c->online = strcmp(f->pdata[tp->col_online], "no") != 0;
    if (tp->col_core >= 0 && tp->col_core < (int) f->len) {
        if (!parse_small_int(f->pdata[tp->col_core], &c->core_id))
            return text_fail(error, tp->path, ln, line, "malformed core column");
        c->has_topo = c->core_id >= 0;
    }
    if (tp->col_socket >= 0 && tp->col_socket < (int) f->len &&
        !parse_small_int(f->pdata[tp->col_socket], &c->package))
        return text_fail(error, tp->path, ln, line, "malformed socket column");
    if (tp->col_node >= 0 && tp->col_node < (int) f->len && *(char *) f->pdata[tp->col_node] &&
        !parse_small_int(f->pdata[tp->col_node], &c->node))
        return text_fail(error, tp->path, ln, line, "malformed node column");
    return 1;
}

static int
text_line(TextParse *tp, guint ln, const char *line, GError **error)
{
    int r;

    if ((r = text_online_line(tp, ln, line, error)) != 0 ||
        (r = text_numa_line(tp, ln, line, error)) != 0 ||
        (r = text_ppc64_core_line(tp, ln, line, error)) != 0 ||
        (r = text_comment_line(tp, line)) != 0 ||
        (r = text_table_header(tp, line)) != 0)
        return r;
    return text_cpu_row(tp, ln, line, error);
}

/* The summary's online/offline lists override the rows; nodes from the
 * summary reach the CPUs; then cores are formed. */
static int
text_finish(TextParse *tp, GError **error)
{
    RvTopology *t = tp->t;
    CpuRecs *recs = &tp->recs;
    bool any = false;

    for (unsigned cpu = 0; cpu < recs->n; cpu++) {
        CpuRec *c = &recs->cpus[cpu];

        if (tp->have_online && (c->listed || rv_cpuset_isset(&tp->online_list, cpu))) {
            c = recs_get(recs, cpu);
            c->online = rv_cpuset_isset(&tp->online_list, cpu);
        }
    }
    if (tp->have_online || tp->have_offline) {
        RvCpuSet all;

        rv_cpuset_or(&all, &tp->online_list, &tp->offline_list);
        rv_cpuset_foreach(cpu, &all) {
            CpuRec *c = recs_get(recs, cpu);

            c->listed = true;
            c->online = rv_cpuset_isset(&tp->online_list, cpu);
        }
    }
    for (unsigned cpu = 0; cpu < recs->n; cpu++)
        any = any || recs->cpus[cpu].listed;
    if (!any)
        return rv_error_set(error, RV_ERROR_INVALID, EINVAL,
                            "%s: no lscpu table, lscpu -p section or ppc64_cpu --info lines found",
                            tp->path);
    for (guint i = 0; i < t->nodes->len; i++) {
        RvCpuGroup *g = &g_array_index(t->nodes, RvCpuGroup, i);

        rv_cpuset_foreach(cpu, &g->cpus) {
            if ((unsigned) cpu < recs->n && recs->cpus[cpu].node < 0)
                recs->cpus[cpu].node = g->id;
        }
    }
    topology_finish_sets(t, recs, false, false);
    topology_build(t, recs);
    /* lscpu -e/-p name nodes per CPU: collect them when no summary did */
    if (t->nodes->len == 0) {
        for (unsigned cpu = 0; cpu < recs->n; cpu++)
            if (recs->cpus[cpu].listed && recs->cpus[cpu].node >= 0)
                rv_cpuset_set(&group_get(t->nodes, recs->cpus[cpu].node)->cpus, cpu);
        g_array_sort(t->nodes, group_cmp);
    }
    return 0;
}

int
rv_host_topology_load_text(const char *path, RvTopology **ret, GError **error)
{
    g_autofree char *text = NULL;
    gssize n;
    g_auto(GStrv) lines = NULL;
    g_autoptr(RvTopology) t = NULL;
    g_autofree char *src = g_strdup_printf("text:%s", path);
    TextParse tp = {
        .path = path,
        .col_cpu = -1, .col_core = -1, .col_socket = -1, .col_node = -1, .col_online = -1,
        .mode = TEXT_NONE,
    };
    int r = 0;

    n = rv_file_read(path, RV_FILE_READ_MAX, &text, error);
    if (n < 0)
        return (int) n;

    t = topology_new(src);
    tp.t = t;
    recs_init(&tp.recs, 64);
    rv_cpuset_zero(&tp.online_list);
    rv_cpuset_zero(&tp.offline_list);
    lines = g_strsplit(text, "\n", -1);
    for (guint ln = 0; lines[ln]; ln++) {
        g_autofree char *line = g_strstrip(g_strdup(lines[ln]));

        if (!*line)
            continue;
        r = text_line(&tp, ln + 1, line, error);
        if (r < 0)
            goto out;
    }
    r = text_finish(&tp, error);
    if (r < 0)
        goto out;
    *ret = g_steal_pointer(&t);
    r = 0;
out:
    g_free(tp.recs.cpus);
    return r;
}

/* ---- grep -H dump to tree --------------------------------------------- */

int
rv_host_sysfs_dump_to_tree(const char *dump_path, const char *dir, GError **error)
{
    g_autofree char *text = NULL;
    gssize n_read;
    g_autoptr(GError) ferr = NULL;
    g_auto(GStrv) lines = NULL;
    int n = 0;

    n_read = rv_file_read(dump_path, RV_FILE_READ_MAX, &text, error);
    if (n_read < 0)
        return (int) n_read;
    lines = g_strsplit(text, "\n", -1);
    for (guint ln = 0; lines[ln]; ln++) {
        const char *line = lines[ln];
        const char *colon;
        g_autofree char *hpath = NULL, *file = NULL, *parent = NULL, *value = NULL;

        if (!*line)
            continue;
        colon = strchr(line, ':');
        if (line[0] != '/' || !colon)
            return rv_error_set(error, RV_ERROR_INVALID, EINVAL,
                                "%s:%u: not a 'grep -H' line ('/path:value'): '%s'",
                                dump_path, ln + 1, line);
        hpath = g_strndup(line, colon - line);
        if (strstr(hpath, "/../") || g_str_has_suffix(hpath, "/..") ||
            !(g_str_has_prefix(hpath, "/sys/") || g_str_has_prefix(hpath, "/proc/")))
            return rv_error_set(error, RV_ERROR_INVALID, EINVAL,
                                "%s:%u: path outside /sys and /proc: '%s'",
                                dump_path, ln + 1, hpath);
        file = g_build_filename(dir, hpath, NULL);
        parent = g_path_get_dirname(file);
        if (g_mkdir_with_parents(parent, 0755) < 0) {
            int e = errno;
            return rv_error_set(error, RV_ERROR_FAILED, e, "Failed to create '%s': %s",
                                parent, g_strerror(e));
        }
        value = g_strdup_printf("%s%s", colon + 1, colon[1] ? "\n" : "");
        if (!g_file_set_contents(file, value, -1, &ferr))
            return rv_error_set(error, RV_ERROR_FAILED, EIO, "Failed to write '%s': %s",
                                file, ferr->message);
        n++;
    }
    return n;
}

/* ---- any of the above, by content ------------------------------------ */

static int
remove_entry(const char *path, const struct stat *st, int flag, struct FTW *ftw)
{
    (void) st;
    (void) flag;
    (void) ftw;
    return remove(path) < 0 ? -1 : 0;
}

int
rv_host_topology_load_file(const char *path, RvTopology **ret, GError **error)
{
    g_autofree char *text = NULL;
    g_autofree char *tmp = NULL;
    g_autoptr(GError) ferr = NULL;
    gssize n;
    g_autoptr(RvRoot) root = NULL;
    g_autoptr(RvTopology) t = NULL;
    const char *p;
    int r;

    n = rv_file_read(path, RV_FILE_READ_MAX, &text, error);
    if (n < 0)
        return (int) n;
    for (p = text; g_ascii_isspace(*p); p++)
        ;
    if (*p == '<')
        return rv_host_topology_load_hwloc_xml(path, ret, error);
    if (*p != '/')
        return rv_host_topology_load_text(path, ret, error);

    tmp = g_dir_make_tmp("rv-topology-XXXXXX", &ferr);
    if (!tmp)
        return rv_error_set(error, RV_ERROR_FAILED, EIO,
                            "Failed to create a temporary directory for '%s': %s",
                            path, ferr->message);
    r = rv_host_sysfs_dump_to_tree(path, tmp, error);
    if (r >= 0)
        r = rv_host_root_open(tmp, &root, error);
    if (r >= 0)
        r = rv_host_topology_load(root, &t, error);
    g_clear_pointer(&root, rv_host_root_free);
    if (nftw(tmp, remove_entry, 16, FTW_DEPTH | FTW_PHYS) < 0 && r >= 0) {
        int e = errno;

        return rv_error_set(error, RV_ERROR_FAILED, e, "Failed to remove '%s': %s",
                            tmp, g_strerror(e));
    }
    if (r < 0)
        return r;
    /* the tree is gone: name the dump the topology came from */
    g_free(t->source);
    t->source = g_strdup_printf("sysfs-dump:%s", path);
    *ret = g_steal_pointer(&t);
    return 0;
}

/* ---- lookups ---------------------------------------------------------- */

const RvCore *
rv_host_topology_core_of(const RvTopology *topo, unsigned cpu)
{
    if (!topo || cpu >= topo->nr_cpu_ids || topo->cpu_core[cpu] < 0)
        return NULL;
    return &g_array_index(topo->cores, RvCore, topo->cpu_core[cpu]);
}

int
rv_host_topology_siblings(const RvTopology *topo, unsigned cpu, RvCpuSet *ret)
{
    const RvCore *core = rv_host_topology_core_of(topo, cpu);

    if (!core)
        return -ENOENT;
    *ret = core->threads;
    return 0;
}

guint
rv_host_topology_sibling_map(const RvTopology *topo, int *ret, guint n)
{
    guint with = 0;

    for (guint c = 0; c < n; c++) {
        const RvCore *core = rv_host_topology_core_of(topo, c);

        ret[c] = -1;
        if (!core)
            continue;
        rv_cpuset_foreach(t, &core->threads) {
            if ((guint) t != c) {
                ret[c] = t;
                with++;
                break;
            }
        }
    }
    return with;
}

int
rv_host_topology_package_of(const RvTopology *topo, unsigned cpu)
{
    const RvCore *core = rv_host_topology_core_of(topo, cpu);

    if (core)
        return core->package;
    for (guint i = 0; topo && i < topo->packages->len; i++)
        if (rv_cpuset_isset(&g_array_index(topo->packages, RvCpuGroup, i).cpus, cpu))
            return g_array_index(topo->packages, RvCpuGroup, i).id;
    return -1;
}

int
rv_host_topology_node_of(const RvTopology *topo, unsigned cpu)
{
    for (guint i = 0; topo && i < topo->nodes->len; i++)
        if (rv_cpuset_isset(&g_array_index(topo->nodes, RvCpuGroup, i).cpus, cpu))
            return g_array_index(topo->nodes, RvCpuGroup, i).id;
    return -1;
}

void
rv_host_topology_expand_cores(const RvTopology *topo, const RvCpuSet *cpus, RvCpuSet *ret)
{
    RvCpuSet out = *cpus;

    rv_cpuset_foreach(cpu, cpus) {
        const RvCore *core = rv_host_topology_core_of(topo, cpu);

        if (core)
            rv_cpuset_or(&out, &out, &core->threads);
    }
    *ret = out;
}

char *
rv_host_topology_format(const RvTopology *topo)
{
    GString *s = g_string_new(NULL);
    g_autofree char *possible = rv_cpulist_format(&topo->possible);
    g_autofree char *present = rv_cpulist_format(&topo->present);
    g_autofree char *online = rv_cpulist_format(&topo->online);
    g_autofree char *offline = rv_cpulist_format(&topo->offline);

    g_string_append_printf(s, "nr_cpu_ids: %u\n", topo->nr_cpu_ids);
    g_string_append_printf(s, "possible: %s%s\n", possible, topo->has_possible ? "" : " (inferred)");
    g_string_append_printf(s, "present: %s\n", present);
    g_string_append_printf(s, "online: %s (%u CPUs)\n", online, rv_cpuset_count(&topo->online));
    g_string_append_printf(s, "offline: %s\n", offline);
    g_string_append_printf(s, "cores: %u\n", topo->cores->len);
    g_string_append_printf(s, "threads_per_core: %u", topo->threads_per_core);
    if (topo->min_threads_per_core != topo->threads_per_core)
        g_string_append_printf(s, " (min %u)", topo->min_threads_per_core);
    g_string_append_printf(s, "\nsmt: %s\n", topo->smt ? "yes" : "no");
    for (guint i = 0; i < topo->packages->len; i++) {
        const RvCpuGroup *g = &g_array_index(topo->packages, RvCpuGroup, i);
        g_autofree char *l = rv_cpulist_format(&g->cpus);

        g_string_append_printf(s, "package %d: %s\n", g->id, l);
    }
    for (guint i = 0; i < topo->nodes->len; i++) {
        const RvCpuGroup *g = &g_array_index(topo->nodes, RvCpuGroup, i);
        g_autofree char *l = rv_cpulist_format(&g->cpus);

        g_string_append_printf(s, "node %d: %s\n", g->id, l);
    }
    for (guint i = 0; i < topo->cores->len; i++) {
        const RvCore *c = &g_array_index(topo->cores, RvCore, i);
        g_autofree char *l = rv_cpulist_format(&c->threads);

        g_string_append_printf(s, "core package=%d core_id=%d node=%d threads=%s\n",
                               c->package, c->core_id, c->node, l);
    }
    return g_string_free(s, FALSE);
}
