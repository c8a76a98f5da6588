/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * guest/placement.c: vCPU and emulator placement of a guest on a host
 * (rules in guest/placement.h).
 */
#include <errno.h>
#include <sched.h>
#include <string.h>

#include "guest/placement.h"
#include "util/error.h"
#include "util/escape.h"

/* --- host CPUs ----------------------------------------------------------- */

RvGuestHostCpus *
rv_guest_host_cpus_new(unsigned nr_cpu_ids)
{
    RvGuestHostCpus *host = g_new0(RvGuestHostCpus, 1);

    host->nr_cpu_ids = nr_cpu_ids;
    host->cores = g_array_new(FALSE, TRUE, sizeof(RvCpuSet));
    host->groups = g_array_new(FALSE, TRUE, sizeof(RvCpuGroup));
    host->isolated_source = g_strdup("/sys/devices/system/cpu/isolated");
    return host;
}

void
rv_guest_host_cpus_free(RvGuestHostCpus *host)
{
    if (!host)
        return;
    g_free(host->isolated_source);
    if (host->cores)
        g_array_unref(host->cores);
    if (host->groups)
        g_array_unref(host->groups);
    if (host->hugepage_pools)
        g_array_unref(host->hugepage_pools);
    g_free(host);
}

static gint
core_cmp(gconstpointer a, gconstpointer b)
{
    int x = rv_cpuset_next(a, 0), y = rv_cpuset_next(b, 0);

    return (x > y) - (x < y);
}

void
rv_guest_host_cpus_add_core(RvGuestHostCpus *host, const RvCpuSet *threads)
{
    if (rv_cpuset_is_empty(threads))
        return;
    /* cores mostly come in CPU order: sort only when this one does not
     * (a sort per core made loading an 8192-CPU host quadratic) */
    if (host->cores->len &&
        core_cmp(&g_array_index(host->cores, RvCpuSet, host->cores->len - 1), threads) > 0) {
        g_array_append_vals(host->cores, threads, 1);
        g_array_sort(host->cores, core_cmp);
    } else {
        g_array_append_vals(host->cores, threads, 1);
    }
    rv_cpuset_or(&host->online, &host->online, threads);
    rv_cpuset_andnot(&host->housekeeping, &host->online, &host->isolated);
    if ((unsigned) rv_cpuset_last(&host->online) >= host->nr_cpu_ids)
        host->nr_cpu_ids = rv_cpuset_last(&host->online) + 1;
}

int *
rv_guest_host_cpus_core_index(const RvGuestHostCpus *host)
{
    int *idx = g_new(int, RV_CPUSET_MAX);

    for (unsigned c = 0; c < RV_CPUSET_MAX; c++)
        idx[c] = -1;
    for (guint k = 0; host && k < host->cores->len; k++)
        rv_cpuset_foreach(c, &g_array_index(host->cores, RvCpuSet, k))
            idx[c] = (int) k;
    return idx;
}

void
rv_guest_host_cpus_set_isolated(RvGuestHostCpus *host, const RvCpuSet *isolated,
                                const char *source)
{
    host->isolated = *isolated;
    rv_cpuset_andnot(&host->housekeeping, &host->online, isolated);
    g_free(host->isolated_source);
    host->isolated_source = g_strdup(source);
}

int
rv_guest_host_cpus_from_topology(const RvTopology *topo, RvGuestHostCpus **ret)
{
    g_autoptr(RvGuestHostCpus) host = rv_guest_host_cpus_new(topo->nr_cpu_ids);
    RvCpuSet seen;

    rv_cpuset_zero(&seen);
    for (guint i = 0; i < topo->cores->len; i++) {
        const RvCore *c = &g_array_index(topo->cores, RvCore, i);
        RvCpuSet t;

        rv_cpuset_and(&t, &c->threads, &topo->online);
        rv_cpuset_andnot(&t, &t, &seen);
        rv_cpuset_or(&seen, &seen, &t);
        rv_guest_host_cpus_add_core(host, &t);
    }
    /* locality groups: NUMA nodes where the source knows them, else packages */
    {
        bool nodes = topo->nodes && topo->nodes->len > 1;
        const GArray *src = nodes ? topo->nodes : topo->packages;

        host->groups_are_nodes = nodes;
        for (guint i = 0; src && i < src->len; i++) {
            RvCpuGroup g = g_array_index(src, RvCpuGroup, i);

            rv_cpuset_and(&g.cpus, &g.cpus, &topo->online);
            if (!rv_cpuset_is_empty(&g.cpus))
                g_array_append_val(host->groups, g);
        }
    }
    /* online CPUs of unknown core: each its own core */
    rv_cpuset_andnot(&seen, &topo->online, &seen);
    rv_cpuset_foreach(cpu, &seen) {
        RvCpuSet one;

        rv_cpuset_zero(&one);
        rv_cpuset_set(&one, cpu);
        rv_guest_host_cpus_add_core(host, &one);
    }
    *ret = g_steal_pointer(&host);
    return 0;
}

void
rv_guest_host_cpus_apply_partition(RvGuestHostCpus *host, const RvHostPartition *part,
                                   const char *source)
{
    RvCpuSet iso;

    rv_cpuset_and(&iso, &part->isolated_online, &host->online);
    rv_guest_host_cpus_set_isolated(host, &iso, source);
    rv_cpuset_and(&host->housekeeping, &part->housekeeping_online, &host->online);
    /* the host's SMT policy keeps these idle whatever the guest says */
    rv_cpuset_and(&host->kept_idle, &part->idle_siblings, &iso);
}

int
rv_guest_host_cpus_from_root(RvRoot *root, RvGuestHostCpus **ret, GError **error)
{
    static const char isolated_path[] = "/sys/devices/system/cpu/isolated";
    g_autoptr(RvTopology) topo = NULL;
    g_autoptr(RvGuestHostCpus) host = NULL;
    RvCpuSet isolated;
    int r;

    r = rv_host_topology_load(root, &topo, error);
    if (r < 0)
        return r;
    r = rv_guest_host_cpus_from_topology(topo, &host);
    if (r < 0)
        return r;
    rv_cpuset_zero(&isolated);
    if (rv_host_root_exists(root, isolated_path)) {
        g_autofree char *value = NULL;

        r = rv_host_root_read_value(root, isolated_path, &value, error);
        if (r < 0)
            return r;
        r = rv_cpulist_parse(value, 0, &isolated, error);
        if (r < 0) {
            /* the host's bytes, quoted: escaped (util/escape.h) */
            g_autofree char *v = rv_escape_value(value);

            g_prefix_error(error, "Invalid cpulist '%s' in '%s': ", v, isolated_path);
            return r;
        }
    }
    rv_cpuset_and(&isolated, &isolated, &host->online);
    rv_guest_host_cpus_set_isolated(host, &isolated, isolated_path);
    *ret = g_steal_pointer(&host);
    return 0;
}

RvGuestHostCpus *
rv_guest_host_cpus_primaries(const RvGuestHostCpus *h)
{
    RvGuestHostCpus *n = rv_guest_host_cpus_new(h->nr_cpu_ids);
    RvCpuSet iso;

    for (guint i = 0; i < h->cores->len; i++) {
        const RvCpuSet *threads = &g_array_index(h->cores, RvCpuSet, i);
        RvCpuSet first;
        int cpu = rv_cpuset_next(threads, 0);

        if (cpu < 0)
            continue;
        rv_cpuset_zero(&first);
        rv_cpuset_set(&first, (unsigned) cpu);
        rv_guest_host_cpus_add_core(n, &first);
    }
    rv_cpuset_and(&iso, &h->isolated, &n->online);
    rv_guest_host_cpus_set_isolated(n, &iso, h->isolated_source);
    rv_cpuset_and(&n->housekeeping, &h->housekeeping, &n->online);
    rv_cpuset_and(&n->reserved, &h->reserved, &n->online);
    rv_cpuset_and(&n->kept_idle, &h->kept_idle, &n->online);
    n->groups_are_nodes = h->groups_are_nodes;
    for (guint i = 0; h->groups && i < h->groups->len; i++) {
        RvCpuGroup g = g_array_index(h->groups, RvCpuGroup, i);

        rv_cpuset_and(&g.cpus, &g.cpus, &n->online);
        if (!rv_cpuset_is_empty(&g.cpus))
            g_array_append_val(n->groups, g);
    }
    return n;
}

/* --- placement ------------------------------------------------------------ */

const char *
rv_guest_sched_policy_name(RvGuestSchedPolicy policy)
{
    switch (policy) {
    case RV_GUEST_SCHED_OTHER: return "other";
    case RV_GUEST_SCHED_BATCH: return "batch";
    case RV_GUEST_SCHED_IDLE: return "idle";
    case RV_GUEST_SCHED_FIFO: return "fifo";
    case RV_GUEST_SCHED_RR: return "rr";
    }
    return "?";
}

int
rv_guest_sched_policy_to_linux(RvGuestSchedPolicy policy)
{
    switch (policy) {
    case RV_GUEST_SCHED_OTHER: return SCHED_OTHER;
    case RV_GUEST_SCHED_BATCH: return SCHED_BATCH;
    case RV_GUEST_SCHED_IDLE: return SCHED_IDLE;
    case RV_GUEST_SCHED_FIFO: return SCHED_FIFO;
    case RV_GUEST_SCHED_RR: return SCHED_RR;
    }
    return -1;
}

RvGuestPlacement *
rv_guest_placement_new(unsigned n_vcpus)
{
    RvGuestPlacement *p = g_new0(RvGuestPlacement, 1);

    p->n_vcpus = n_vcpus;
    p->vcpus = g_new0(RvGuestVcpuPlacement, n_vcpus ? n_vcpus : 1);
    for (unsigned i = 0; i < n_vcpus; i++)
        p->vcpus[i].vcpu = i;
    p->threads_per_core = 1;
    p->notes = g_ptr_array_new_with_free_func(g_free);
    p->has_numa_node = false;
    return p;
}

void
rv_guest_placement_free(RvGuestPlacement *placement)
{
    if (!placement)
        return;
    g_free(placement->vcpus);
    if (placement->notes)
        g_ptr_array_unref(placement->notes);
    g_free(placement);
}

static void G_GNUC_PRINTF(2, 3)
add_note(RvGuestPlacement *p, const char *fmt, ...)
{
    va_list ap;

    va_start(ap, fmt);
    g_ptr_array_add(p->notes, g_strdup_vprintf(fmt, ap));
    va_end(ap);
}

/* "s" for a plural count (messages read "1 RT vCPU", "3 RT vCPUs"). */
#define PL(n) ((n) == 1 ? "" : "s")

static char *
fmt_list(const RvCpuSet *set)
{
    char *s = rv_cpulist_format(set);

    if (*s)
        return s;
    g_free(s);
    return g_strdup("none");
}

/* One host core usable for RT vCPUs: its candidate threads. */
typedef struct {
    RvCpuSet threads;   /* all online threads of the core */
    RvCpuSet usable;    /* threads that are candidates */
    bool whole;         /* every online thread is a candidate */
} CoreCand;

/* Why pick_rt() found no room. */
typedef enum {
    PICK_OK,
    PICK_SHORT_CPUS,   /* fewer candidate CPUs than RT vCPUs */
    PICK_SHORT_CORES,  /* enough CPUs, not enough suitable (whole / T-thread) cores */
} PickResult;

/*
 * Picks host CPUs for the RT vCPUs among @candidates, in host core order:
 * fills their cpusets, @p->rt_cpus, @p->idle_siblings and NOTEs.  On
 * failure *ret_have is the number of candidate CPUs (PICK_SHORT_CPUS) or of
 * suitable cores (PICK_SHORT_CORES), and *ret_split the threads that keep
 * candidate cores from being whole; @p is then in an unspecified state.
 */
static PickResult
pick_rt(const RvGuestProfile *profile, RvGuestSiblingPolicy sibling, const RvGuestHostCpus *host,
        const RvCpuSet *candidates, const RvCpuSet *kept_idle, unsigned need_cores,
        RvGuestPlacement *p, unsigned *ret_have, RvCpuSet *ret_split)
{
    g_autoptr(GArray) cands = g_array_new(FALSE, TRUE, sizeof(CoreCand));
    unsigned T = p->threads_per_core;
    unsigned n_rt = rv_cpuset_count(&profile->rt_vcpus), n_usable = 0, have = 0;
    /* whole cores: idle siblings, or siblings left to the neighbours */
    bool idle = sibling != RV_GUEST_SIBLING_USE;
    bool shared = sibling == RV_GUEST_SIBLING_SHARED;
    RvCpuSet free_or_idle;

    rv_cpuset_zero(ret_split);
    rv_cpuset_or(&free_or_idle, candidates, kept_idle);
    for (guint i = 0; i < host->cores->len; i++) {
        const RvCpuSet *c = &g_array_index(host->cores, RvCpuSet, i);
        RvCpuSet other;
        CoreCand cc;

        cc.threads = *c;
        rv_cpuset_and(&cc.usable, c, candidates);
        if (rv_cpuset_is_empty(&cc.usable))
            continue;
        rv_cpuset_andnot(&other, c, &free_or_idle);
        cc.whole = rv_cpuset_is_empty(&other);
        rv_cpuset_or(ret_split, ret_split, &other);
        n_usable += rv_cpuset_count(&cc.usable);
        if ((idle ? cc.whole : true) && rv_cpuset_count(&cc.usable) >= T)
            have++;
        g_array_append_val(cands, cc);
    }
    if (n_usable < n_rt) {
        *ret_have = n_usable;
        return PICK_SHORT_CPUS;
    }

    rv_cpuset_zero(&p->rt_cpus);
    rv_cpuset_zero(&p->idle_siblings);
    rv_cpuset_zero(&p->shared_siblings);
    if (T == 1 && !idle) {
        /* Pack RT vCPUs onto candidate threads, whole cores first. */
        int vcpu = rv_cpuset_next(&profile->rt_vcpus, 0);

        for (int pass = 0; pass < 2 && vcpu >= 0; pass++) {
            for (guint i = 0; i < cands->len && vcpu >= 0; i++) {
                const CoreCand *cc = &g_array_index(cands, CoreCand, i);

                if (cc->whole != (pass == 0))
                    continue;
                rv_cpuset_foreach(cpu, &cc->usable) {
                    if (vcpu < 0)
                        break;
                    rv_cpuset_zero(&p->vcpus[vcpu].cpuset);
                    rv_cpuset_set(&p->vcpus[vcpu].cpuset, cpu);
                    rv_cpuset_set(&p->rt_cpus, cpu);
                    if (!cc->whole) {
                        RvCpuSet other;
                        g_autofree char *ol = NULL;

                        rv_cpuset_andnot(&other, &cc->threads, candidates);
                        ol = rv_cpulist_format(&other);
                        add_note(p, "NOTE vCPU%d on CPU %d shares its core with non-isolated CPUs %s",
                                 vcpu, cpu, ol);
                    }
                    vcpu = rv_cpuset_next(&profile->rt_vcpus, vcpu + 1);
                }
            }
        }
        return PICK_OK;
    }

    /* Whole host cores per guest core (T == 1: one RT vCPU per core with
     * idle siblings; T > 1: the guest core's T vCPUs on T threads of one
     * host core, guest SMT siblings = host SMT siblings). */
    if (have < need_cores) {
        *ret_have = have;
        return PICK_SHORT_CORES;
    }
    for (unsigned k = 0, ci = 0; k < profile->vcpus / T; k++) {
        const CoreCand *cc = NULL;
        int cpu;

        if (!rv_cpuset_isset(&profile->rt_vcpus, k * T))
            continue;
        for (; ci < cands->len; ci++) {
            cc = &g_array_index(cands, CoreCand, ci);
            if ((idle ? cc->whole : true) && rv_cpuset_count(&cc->usable) >= T)
                break;
        }
        g_assert(ci < cands->len);
        cc = &g_array_index(cands, CoreCand, ci++);
        cpu = rv_cpuset_next(&cc->usable, 0);
        for (unsigned t = 0; t < T; t++, cpu = rv_cpuset_next(&cc->usable, cpu + 1)) {
            rv_cpuset_zero(&p->vcpus[k * T + t].cpuset);
            rv_cpuset_set(&p->vcpus[k * T + t].cpuset, cpu);
            rv_cpuset_set(&p->rt_cpus, cpu);
        }
        if (idle) {
            RvCpuSet rest;

            rv_cpuset_andnot(&rest, &cc->threads, &p->rt_cpus);
            if (shared)
                rv_cpuset_or(&p->shared_siblings, &p->shared_siblings, &rest);
            else
                rv_cpuset_or(&p->idle_siblings, &p->idle_siblings, &rest);
        } else if (!cc->whole) {
            RvCpuSet other;
            g_autofree char *ol = NULL;

            rv_cpuset_andnot(&other, &cc->threads, candidates);
            ol = rv_cpulist_format(&other);
            add_note(p, "NOTE guest core %u shares its host core with non-isolated CPUs %s", k, ol);
        }
    }
    return PICK_OK;
}

/* "node 1" / "package 1" / "nodes 0-1", for NOTEs. */
static char *
groups_spanned(const RvGuestHostCpus *host, const RvCpuSet *cpus, unsigned *ret_n)
{
    RvCpuSet ids;
    g_autofree char *l = NULL;
    unsigned n;

    rv_cpuset_zero(&ids);
    for (guint i = 0; i < host->groups->len; i++) {
        const RvCpuGroup *g = &g_array_index(host->groups, RvCpuGroup, i);

        if (g->id >= 0 && rv_cpuset_intersects(&g->cpus, cpus))
            rv_cpuset_set(&ids, (unsigned) g->id);
    }
    n = rv_cpuset_count(&ids);
    *ret_n = n;
    l = rv_cpulist_format(&ids);
    return g_strdup_printf("%s%s %s", host->groups_are_nodes ? "NUMA node" : "package",
                           n == 1 ? "" : "s", l);
}

/* What the phases of rv_guest_place() share. */
typedef struct {
    const RvGuestProfile *profile;
    const RvGuestHostCpus *host;
    const char *base;          /* the profile's file name, for messages */
    unsigned n_rt;             /* RT vCPUs */
    unsigned T;                /* guest threads per core */
    unsigned need_cores;       /* guest cores holding RT vCPUs */
    RvGuestSiblingPolicy sibling; /* the profile's host_sibling, or the scenario's */
    bool idle;                 /* whole cores: host_sibling = idle | shared */
    bool fallback;             /* nothing isolated: outside the boot CPU's core */
    RvCpuSet candidates;       /* CPUs RT vCPUs may take */
    RvCpuSet housekeeping;     /* CPUs of the emulator threads and non-RT vCPUs */
    RvCpuSet kept_idle;        /* isolated CPUs the host keeps idle */
} Place;

/* Phase 1: candidate and housekeeping CPUs, with the no-isolation fallback. */
static int
place_cpu_sets(Place *pc, GError **error)
{
    const RvGuestHostCpus *host = pc->host;
    unsigned n_rt = pc->n_rt;

    rv_cpuset_and(&pc->candidates, &host->isolated, &host->online);
    rv_cpuset_and(&pc->housekeeping, &host->housekeeping, &host->online);
    rv_cpuset_andnot(&pc->housekeeping, &pc->housekeeping, &pc->candidates);

    if (n_rt > 0 && rv_cpuset_is_empty(&pc->candidates)) {
        if (pc->profile->require_isolated)
            return rv_error_set(error, RV_ERROR_UNSUPPORTED, ENOSPC,
                                "%s: %u RT vCPU%s need%s %u isolated CPU%s, host has 0 (%s is empty)",
                                pc->base, n_rt, PL(n_rt), n_rt == 1 ? "s" : "", n_rt, PL(n_rt),
                                host->isolated_source);
        if (host->cores->len < 2)
            return rv_error_set(error, RV_ERROR_UNSUPPORTED, ENOSPC,
                                "%s: %u RT vCPU%s need%s a CPU outside the boot CPU's core, host has %u online core%s",
                                pc->base, n_rt, PL(n_rt), n_rt == 1 ? "s" : "", host->cores->len,
                                PL(host->cores->len));
        /* No isolation at all: the boot CPU's core (the first online
         * core: CPU 0 may be offline, as on s390) keeps the housekeeping,
         * every other online CPU is a candidate, each with a NOTE. */
        pc->fallback = true;
        pc->housekeeping = g_array_index(host->cores, RvCpuSet, 0);
        rv_cpuset_andnot(&pc->candidates, &host->online, &pc->housekeeping);
    }
    rv_cpuset_andnot(&pc->candidates, &pc->candidates, &host->reserved);
    rv_cpuset_and(&pc->kept_idle, &host->kept_idle, &pc->candidates);
    rv_cpuset_andnot(&pc->candidates, &pc->candidates, &pc->kept_idle);

    if (rv_cpuset_is_empty(&pc->housekeeping)) {
        g_autofree char *l = fmt_list(&host->isolated);

        return rv_error_set(error, RV_ERROR_UNSUPPORTED, ENOSPC,
                            "%s: no housekeeping CPU left for the emulator threads and non-RT vCPUs (isolated: %s)",
                            pc->base, l);
    }
    return 0;
}

/* Phase 2: guest cores: with T > 1 a guest core must be all RT or all non-RT. */
static int
place_guest_cores(Place *pc, GError **error)
{
    const RvGuestProfile *profile = pc->profile;
    unsigned T = pc->T;

    pc->need_cores = 0;
    for (unsigned k = 0; k < profile->vcpus / T; k++) {
        RvCpuSet gc, rt_in;

        rv_cpuset_zero(&gc);
        rv_cpuset_set_range(&gc, k * T, k * T + T - 1);
        rv_cpuset_and(&rt_in, &gc, &profile->rt_vcpus);
        if (!rv_cpuset_is_empty(&rt_in) && !rv_cpuset_equal(&rt_in, &gc)) {
            g_autofree char *l = rv_cpulist_format(&gc);

            return rv_error_set(error, RV_ERROR_INVALID, EINVAL,
                                "%s: guest core %u (vCPUs %s) mixes RT and non-RT vCPUs; with threads_per_core = %u make rt_vcpus whole guest cores",
                                pc->base, k, l, T);
        }
        pc->need_cores += !rv_cpuset_is_empty(&rt_in);
    }
    return 0;
}

/* Why pick_rt() found too few CPUs (@r PICK_SHORT_*): @have candidate CPUs
 * or suitable cores, @split_sib the threads that keep cores from being whole. */
static int
place_rt_short(const Place *pc, PickResult r, unsigned have, const RvCpuSet *split_sib,
               GError **error)
{
    const RvGuestHostCpus *host = pc->host;
    unsigned n_rt = pc->n_rt, need_cores = pc->need_cores, T = pc->T;
    g_autofree char *l = fmt_list(&pc->candidates);

    if (r == PICK_SHORT_CPUS && pc->fallback) {
        /* Nothing isolated: the candidates are the non-isolated CPUs
         * outside the boot CPU's core; never count them as isolated. */
        g_autofree char *res = NULL;
        RvCpuSet held;

        rv_cpuset_andnot(&held, &host->online, &pc->housekeeping);
        rv_cpuset_and(&held, &held, &host->reserved);
        res = rv_cpulist_format(&held);
        return rv_error_set(error, RV_ERROR_UNSUPPORTED, ENOSPC,
                            "%s: %u RT vCPU%s need%s %u isolated CPU%s, host has 0 (%s is empty; without isolation %u CPU%s outside the boot CPU's core: %s)%s%s%s",
                            pc->base, n_rt, PL(n_rt), n_rt == 1 ? "s" : "", n_rt, PL(n_rt),
                            host->isolated_source, have, PL(have), l,
                            *res ? "; " : "", *res ? res : "",
                            *res ? " held by other guests" : "");
    }
    if (r == PICK_SHORT_CPUS) {
        g_autofree char *res = NULL;
        RvCpuSet held;

        rv_cpuset_and(&held, &host->reserved, &host->isolated);
        res = rv_cpulist_format(&held);
        return rv_error_set(error, RV_ERROR_UNSUPPORTED, ENOSPC,
                            "%s: %u RT vCPU%s need%s %u isolated CPU%s, host has %u (%s)%s%s%s",
                            pc->base, n_rt, PL(n_rt), n_rt == 1 ? "s" : "", n_rt, PL(n_rt), have, l,
                            *res ? "; " : "", *res ? res : "",
                            *res ? " held by other guests" : "");
    }
    {
        g_autofree char *sl = rv_cpulist_format(split_sib);
        g_autofree char *why = *sl && pc->idle
            ? g_strdup_printf("; their SMT siblings %s are not isolated or are held", sl)
            : g_strdup("");
        bool shared = pc->sibling == RV_GUEST_SIBLING_SHARED;

        if (T == 1)
            return rv_error_set(error, RV_ERROR_UNSUPPORTED, ENOSPC,
                                "%s: %u RT vCPU%s need%s %u whole isolated core%s (%s), host has %u (isolated CPUs %s)%s",
                                pc->base, n_rt, PL(n_rt), n_rt == 1 ? "s" : "", need_cores, PL(need_cores),
                                shared ? "host_sibling = shared: SMT siblings isolated too, left to neighbour guests"
                                       : "host_sibling = idle: SMT siblings isolated too, kept idle",
                                have, l, why);
        return rv_error_set(error, RV_ERROR_UNSUPPORTED, ENOSPC,
                            "%s: %u RT guest core%s of %u threads need%s %u isolated host core%s with %u SMT threads each%s, host has %u (isolated CPUs %s)%s",
                            pc->base, need_cores, PL(need_cores), T, need_cores == 1 ? "s" : "", need_cores, PL(need_cores), T,
                            !pc->idle ? "" : shared ? " (whole cores, host_sibling = shared)"
                                                    : " (whole cores, host_sibling = idle)",
                            have, l, why);
    }
}

/* Phase 3: host CPUs for the RT vCPUs, in one locality group when one can
 * hold them (*ret_group, else NULL); *pp may be replaced. */
static int
place_rt(const Place *pc, RvGuestPlacement **pp, const RvCpuGroup **ret_group, GError **error)
{
    const RvGuestProfile *profile = pc->profile;
    const RvGuestHostCpus *host = pc->host;
    const RvCpuGroup *group = NULL;
    PickResult r = PICK_OK;
    RvCpuSet split_sib;
    unsigned have = 0;

    *ret_group = NULL;
    if (pc->n_rt == 0)
        return 0;
    /* One NUMA node (or package) for all RT vCPUs when one can hold
     * them: shared last-level cache and local memory (kbase
     * kvm-realtime places the whole guest on one host node). */
    for (guint i = 0; host->groups && host->groups->len > 1 && i < host->groups->len; i++) {
        const RvCpuGroup *g = &g_array_index(host->groups, RvCpuGroup, i);
        g_autoptr(RvGuestPlacement) tryp = rv_guest_placement_new(profile->vcpus);
        RvCpuSet cand_g, split_g;
        unsigned have_g;

        rv_cpuset_and(&cand_g, &pc->candidates, &g->cpus);
        if (rv_cpuset_is_empty(&cand_g))
            continue;
        tryp->threads_per_core = pc->T;
        if (pick_rt(profile, pc->sibling, host, &cand_g, &pc->kept_idle, pc->need_cores, tryp, &have_g,
                    &split_g) == PICK_OK) {
            rv_guest_placement_free(*pp);
            *pp = g_steal_pointer(&tryp);
            group = g;
            break;
        }
    }
    if (!group)
        r = pick_rt(profile, pc->sibling, host, &pc->candidates, &pc->kept_idle, pc->need_cores, *pp, &have,
                    &split_sib);
    if (r != PICK_OK)
        return place_rt_short(pc, r, have, &split_sib, error);
    if (!group && host->groups && host->groups->len > 1) {
        unsigned n;
        g_autofree char *span = groups_spanned(host, &(*pp)->rt_cpus, &n);

        if (n > 1)
            add_note(*pp, "NOTE the RT vCPUs span %s: no single one has enough isolated CPUs", span);
    }
    *ret_group = group;
    return 0;
}

/* Phase 4: emulator threads and non-RT vCPUs near the RT vCPUs when that
 * node has housekeeping CPUs (kbase: emulatorpin on the guest's node). */
static void
place_near_group(Place *pc, RvGuestPlacement *p, const RvCpuGroup *group)
{
    const RvGuestHostCpus *host = pc->host;
    RvCpuSet local;

    rv_cpuset_and(&local, &pc->housekeeping, &group->cpus);
    if (!rv_cpuset_is_empty(&local)) {
        pc->housekeeping = local;
    } else {
        g_autofree char *hl = rv_cpulist_format(&pc->housekeeping);

        add_note(p, "NOTE %s %d of the RT vCPUs has no housekeeping CPU: emulator threads on CPUs %s",
                 host->groups_are_nodes ? "NUMA node" : "package", group->id, hl);
    }
    if (host->groups_are_nodes && group->id >= 0) {
        p->has_numa_node = true;
        p->numa_node = (unsigned) group->id;
    }
}

/* Phase 5: the vCPUs' pinning and scheduling. */
static void
place_vcpus(const Place *pc, RvGuestPlacement *p)
{
    const RvGuestProfile *profile = pc->profile;
    RvCpuSet all_vcpus, nonrt_vcpus;

    rv_cpuset_zero(&all_vcpus);
    rv_cpuset_set_range(&all_vcpus, 0, profile->vcpus - 1);
    rv_cpuset_andnot(&nonrt_vcpus, &all_vcpus, &profile->rt_vcpus);

    rv_cpuset_foreach(vcpu, &profile->rt_vcpus) {
        RvGuestVcpuPlacement *vp = &p->vcpus[vcpu];

        vp->rt = true;
        vp->pinned = true;
        vp->policy = RV_GUEST_SCHED_FIFO;
        vp->priority = profile->rt_priority;
        if (pc->fallback)
            add_note(p, "NOTE vCPU%d on CPU %d: the CPU is not isolated (%s is empty); its latency includes host housekeeping noise",
                     vcpu, rv_cpuset_next(&vp->cpuset, 0), pc->host->isolated_source);
    }
    rv_cpuset_foreach(vcpu, &nonrt_vcpus) {
        RvGuestVcpuPlacement *vp = &p->vcpus[vcpu];

        vp->pinned = true;
        vp->cpuset = pc->housekeeping;
        vp->policy = RV_GUEST_SCHED_OTHER;
        vp->priority = 0;
    }
}

/* Phase 6: the emulator threads. */
static int
place_emulator(const Place *pc, RvGuestPlacement *p, GError **error)
{
    const RvGuestProfile *profile = pc->profile;
    const RvGuestHostCpus *host = pc->host;

    p->emulator_pinned = true;
    switch (profile->emulator) {
    case RV_GUEST_EMULATOR_HOUSEKEEPING:
    case RV_GUEST_EMULATOR_NONRT_VCPUS:
        /* non-RT vCPUs float over the housekeeping CPUs, so nova's
         * "share" (emulator with the ordinary vCPUs) is the same set */
        p->emulator = pc->housekeeping;
        break;
    case RV_GUEST_EMULATOR_CPULIST: {
        RvCpuSet bad;
        g_autofree char *l = rv_cpulist_format(&profile->emulator_cpus);

        rv_cpuset_andnot(&bad, &profile->emulator_cpus, &host->online);
        if (!rv_cpuset_is_empty(&bad)) {
            g_autofree char *b = rv_cpulist_format(&bad);

            return rv_error_set(error, RV_ERROR_INVALID, EINVAL,
                                "%s: emulator CPUs %s: CPUs %s are not online", pc->base, l, b);
        }
        rv_cpuset_or(&bad, &p->rt_cpus, &p->idle_siblings);
        rv_cpuset_and(&bad, &bad, &profile->emulator_cpus);
        if (!rv_cpuset_is_empty(&bad)) {
            g_autofree char *b = rv_cpulist_format(&bad);

            return rv_error_set(error, RV_ERROR_INVALID, EINVAL,
                                "%s: unsafe: emulator CPUs %s overlap CPUs %s of the RT vCPUs (or their idle SMT siblings)",
                                pc->base, l, b);
        }
        rv_cpuset_and(&bad, &profile->emulator_cpus, &host->isolated);
        if (!rv_cpuset_is_empty(&bad)) {
            g_autofree char *b = rv_cpulist_format(&bad);

            add_note(p, "NOTE emulator threads on isolated CPUs %s (a dedicated emulator CPU, nova's emulator_threads_policy=isolate)", b);
        }
        p->emulator = profile->emulator_cpus;
        break;
    }
    }
    return 0;
}

int
rv_guest_place(const RvGuestProfile *profile, const RvGuestHostCpus *host,
               RvGuestPlacement **ret, GError **error)
{
    return rv_guest_place_sibling(profile, profile->host_sibling, host, ret, error);
}

int
rv_guest_place_sibling(const RvGuestProfile *profile, RvGuestSiblingPolicy sibling,
                       const RvGuestHostCpus *host, RvGuestPlacement **ret, GError **error)
{
    g_autoptr(RvGuestPlacement) p = NULL;
    g_autofree char *base = g_path_get_basename(profile->path ? profile->path : profile->name);
    const RvCpuGroup *group = NULL;
    Place pc = {
        .profile = profile,
        .host = host,
        .base = base,
        .n_rt = rv_cpuset_count(&profile->rt_vcpus),
        .T = profile->threads_per_core ? profile->threads_per_core : 1,
        .sibling = sibling,
        .idle = sibling != RV_GUEST_SIBLING_USE,
    };
    int r;

    p = rv_guest_placement_new(profile->vcpus);
    p->threads_per_core = pc.T;

    if ((r = place_cpu_sets(&pc, error)) < 0 ||
        (r = place_guest_cores(&pc, error)) < 0 ||
        (r = place_rt(&pc, &p, &group, error)) < 0)
        return r;
    if (group)
        place_near_group(&pc, p, group);
    place_vcpus(&pc, p);
    r = place_emulator(&pc, p, error);
    if (r < 0)
        return r;
    *ret = g_steal_pointer(&p);
    return 0;
}

unsigned
rv_guest_placement_deal(RvGuestPlacement *p, const RvCpuSet *pool, RvCpuSet *dealt)
{
    RvCpuSet left;
    unsigned n = 0;
    int cpu;

    rv_cpuset_andnot(&left, pool, dealt);
    cpu = rv_cpuset_next(&left, 0);
    for (unsigned v = 0; v < p->n_vcpus && cpu >= 0; v++) {
        RvGuestVcpuPlacement *vp = &p->vcpus[v];

        /* RT vCPUs, and vCPUs a call before dealt alone onto @dealt */
        if (vp->rt || (rv_cpuset_count(&vp->cpuset) == 1 && rv_cpuset_is_subset(&vp->cpuset, dealt)))
            continue;
        vp->pinned = true;
        rv_cpuset_zero(&vp->cpuset);
        rv_cpuset_set(&vp->cpuset, (unsigned) cpu);
        rv_cpuset_set(dealt, (unsigned) cpu);
        n++;
        cpu = rv_cpuset_next(&left, cpu + 1);
    }
    return n;
}

static bool
is_rt_policy(RvGuestSchedPolicy policy)
{
    return policy == RV_GUEST_SCHED_FIFO || policy == RV_GUEST_SCHED_RR;
}

static void G_GNUC_PRINTF(2, 3)
finding(GPtrArray *list, const char *fmt, ...)
{
    va_list ap;

    va_start(ap, fmt);
    g_ptr_array_add(list, g_strdup_vprintf(fmt, ap));
    va_end(ap);
}

/* What the judges of rv_guest_placement_check() share: the findings by
 * level, and what the earlier ones learnt. */
typedef struct {
    const RvGuestPlacement *pl;
    const RvGuestHostCpus *host;   /* NULL: no host checks */
    GPtrArray *fail, *warn, *ok;
    RvCpuSet rt_cpus;              /* host CPUs of the RT vCPUs */
    RvCpuSet rt_vcpus;             /* the RT vCPUs */
    RvCpuSet other_work;           /* CPUs of non-RT vCPUs and emulator threads */
    bool rt_exact;                 /* every RT vCPU on exactly one CPU of its own */
    int *cpu_core;                 /* [RV_CPUSET_MAX]: index into host->cores, -1 */
} Check;

/* Pins to CPUs the host does not have (not possible or offline): libvirt
 * cannot apply them, nothing else about them holds. */
static void
check_online(Check *c)
{
    const RvGuestPlacement *pl = c->pl;
    const RvGuestHostCpus *host = c->host;
    g_autofree char *ol = fmt_list(&host->online);

    for (unsigned i = 0; i < pl->n_vcpus; i++) {
        const RvGuestVcpuPlacement *v = &pl->vcpus[i];
        RvCpuSet missing;

        if (!v->pinned)
            continue;
        rv_cpuset_andnot(&missing, &v->cpuset, &host->online);
        if (rv_cpuset_is_empty(&missing))
            continue;
        {
            g_autofree char *ml = rv_cpulist_format(&missing);

            finding(c->fail, "FAIL vCPU%u pinned to CPU%s %s, which this host does not have online (online CPUs: %s)",
                    i, rv_cpuset_count(&missing) == 1 ? "" : "s", ml, ol);
        }
        if (is_rt_policy(v->policy))
            c->rt_exact = false;
    }
    if (pl->emulator_pinned) {
        RvCpuSet missing;

        rv_cpuset_andnot(&missing, &pl->emulator, &host->online);
        if (!rv_cpuset_is_empty(&missing)) {
            g_autofree char *ml = rv_cpulist_format(&missing);

            finding(c->fail, "FAIL emulator threads pinned to CPU%s %s, which this host does not have online (online CPUs: %s)",
                    rv_cpuset_count(&missing) == 1 ? "" : "s", ml, ol);
        }
    }
}

/* A pair of vCPUs that may share a host CPU, one of them RT (a < b). */
typedef struct {
    unsigned a, b;
} SharedPair;

static gint
pair_cmp(gconstpointer x, gconstpointer y)
{
    const SharedPair *p = x, *q = y;

    if (p->a != q->a)
        return (p->a > q->a) - (p->a < q->a);
    return (p->b > q->b) - (p->b < q->b);
}

/* The pairs of pinned vCPUs that share a host CPU, at least one of them
 * RT, sorted: each vCPU looks only at the RT vCPUs pinned to its CPUs
 * (per-CPU lists), so 1:1 pins cost O(vCPUs), not O(vCPUs^2). */
static GArray *
shared_pairs(const Check *c)
{
    const RvGuestPlacement *pl = c->pl;
    g_autofree GArray **owners = g_new0(GArray *, RV_CPUSET_MAX);
    g_autoptr(GHashTable) seen = g_hash_table_new(g_direct_hash, g_direct_equal);
    GArray *pairs = g_array_new(FALSE, FALSE, sizeof(SharedPair));

    for (unsigned i = 0; i < pl->n_vcpus; i++) {
        const RvGuestVcpuPlacement *v = &pl->vcpus[i];

        if (!v->pinned || !is_rt_policy(v->policy))
            continue;
        rv_cpuset_foreach(cpu, &v->cpuset) {
            if (!owners[cpu])
                owners[cpu] = g_array_new(FALSE, FALSE, sizeof(unsigned));
            g_array_append_val(owners[cpu], i);
        }
    }
    for (unsigned j = 0; j < pl->n_vcpus; j++) {
        const RvGuestVcpuPlacement *w = &pl->vcpus[j];
        RvCpuSet mine;

        if (!w->pinned)
            continue;
        rv_cpuset_and(&mine, &w->cpuset, &c->rt_cpus);
        rv_cpuset_foreach(cpu, &mine) {
            for (guint k = 0; owners[cpu] && k < owners[cpu]->len; k++) {
                unsigned i = g_array_index(owners[cpu], unsigned, k);
                SharedPair p = { MIN(i, j), MAX(i, j) };
                gpointer key = GSIZE_TO_POINTER(((gsize) p.a << 32) | p.b);

                if (i == j || g_hash_table_contains(seen, key))
                    continue;
                g_hash_table_add(seen, key);
                g_array_append_val(pairs, p);
            }
        }
    }
    for (unsigned k = 0; k < RV_CPUSET_MAX; k++)
        if (owners[k])
            g_array_unref(owners[k]);
    g_array_sort(pairs, pair_cmp);
    return pairs;
}

/* Every RT vCPU pinned to exactly one host CPU; no host CPU shared by two
 * vCPUs when one of them is RT. */
static void
check_rt_pinning(Check *c)
{
    const RvGuestPlacement *pl = c->pl;
    g_autoptr(GArray) pairs = NULL;

    for (unsigned i = 0; i < pl->n_vcpus; i++) {
        const RvGuestVcpuPlacement *v = &pl->vcpus[i];

        if (!is_rt_policy(v->policy)) {
            if (v->pinned)
                rv_cpuset_or(&c->other_work, &c->other_work, &v->cpuset);
            continue;
        }
        rv_cpuset_set(&c->rt_vcpus, i);
        if (!v->pinned) {
            finding(c->fail, "FAIL vCPU%u not pinned: an RT vCPU needs exactly one host CPU", i);
            c->rt_exact = false;
            continue;
        }
        if (rv_cpuset_count(&v->cpuset) != 1) {
            g_autofree char *l = rv_cpulist_format(&v->cpuset);

            finding(c->fail, "FAIL vCPU%u pinned to host CPUs %s: an RT vCPU needs exactly one", i, l);
            c->rt_exact = false;
        }
        rv_cpuset_or(&c->rt_cpus, &c->rt_cpus, &v->cpuset);
    }
    /* two vCPUs that may run on one host CPU, at least one of them RT */
    pairs = shared_pairs(c);
    for (guint k = 0; k < pairs->len; k++) {
        const SharedPair *p = &g_array_index(pairs, SharedPair, k);
        const RvGuestVcpuPlacement *a = &pl->vcpus[p->a], *b = &pl->vcpus[p->b];
        g_autofree char *l = NULL;
        RvCpuSet both;

        rv_cpuset_and(&both, &a->cpuset, &b->cpuset);
        l = rv_cpulist_format(&both);
        finding(c->fail, "FAIL host CPU%s %s shared by %svCPU%u and %svCPU%u",
                rv_cpuset_count(&both) == 1 ? "" : "s", l,
                is_rt_policy(a->policy) ? "RT " : "", p->a, is_rt_policy(b->policy) ? "RT " : "", p->b);
        c->rt_exact = false;
    }
}

/* The emulator threads apart from the RT vCPUs. */
static void
check_emulator(Check *c)
{
    const RvGuestPlacement *pl = c->pl;

    if (!rv_cpuset_is_empty(&c->rt_vcpus)) {
        g_autofree char *rl = rv_cpulist_format(&c->rt_cpus);

        if (!pl->emulator_pinned) {
            if (rv_cpuset_is_empty(&c->rt_cpus))
                finding(c->fail, "FAIL emulator threads not pinned, nor are the RT vCPUs: both may run on "
                        "any CPU, the emulator beside an RT vCPU");
            else
                finding(c->fail, "FAIL emulator threads not pinned while RT vCPUs are: they may run on CPUs %s", rl);
        } else if (rv_cpuset_intersects(&pl->emulator, &c->rt_cpus)) {
            g_autofree char *el = rv_cpulist_format(&pl->emulator);

            finding(c->fail, "FAIL emulator threads on CPUs %s, which RT vCPUs use (%s)", el, rl);
        } else {
            g_autofree char *el = rv_cpulist_format(&pl->emulator);

            finding(c->ok, "OK emulator threads on CPU%s %s, apart from the RT vCPUs",
                    rv_cpuset_count(&pl->emulator) == 1 ? "" : "s", el);
        }
        if (c->rt_exact) {
            g_autofree char *vl = rv_cpulist_format(&c->rt_vcpus);

            finding(c->ok, "OK RT vCPU%s %s pinned 1:1 to CPU%s %s",
                    rv_cpuset_count(&c->rt_vcpus) == 1 ? "" : "s", vl,
                    rv_cpuset_count(&c->rt_cpus) == 1 ? "" : "s", rl);
        }
    }
    if (pl->emulator_pinned)
        rv_cpuset_or(&c->other_work, &c->other_work, &pl->emulator);
}

/* The SMT siblings of RT vCPU @i's CPU @cpu in @core that are housekeeping
 * or run vCPUs or emulator threads, less the vCPU's own guest siblings. */
static void
busy_siblings(const Check *c, int i, int cpu, const RvCpuSet *core, RvCpuSet *ret_busy)
{
    const RvGuestPlacement *pl = c->pl;
    RvCpuSet sib = *core, busy, used, others = c->rt_cpus, own;
    unsigned T = pl->threads_per_core ? pl->threads_per_core : 1;
    unsigned first = (unsigned) i / T * T;

    rv_cpuset_clear(&sib, cpu);
    /* a sibling that is housekeeping, or runs vCPUs/emulator */
    rv_cpuset_andnot(&busy, &sib, &c->host->isolated);
    rv_cpuset_clear(&others, cpu);
    rv_cpuset_or(&used, &c->other_work, &others);
    rv_cpuset_and(&used, &used, &sib);
    rv_cpuset_or(&busy, &busy, &used);
    /* the vCPU's own guest SMT siblings belong there */
    rv_cpuset_zero(&own);
    for (unsigned t = first; t < first + T && t < pl->n_vcpus; t++)
        if (t != (unsigned) i && is_rt_policy(pl->vcpus[t].policy))
            rv_cpuset_or(&own, &own, &pl->vcpus[t].cpuset);
    rv_cpuset_andnot(ret_busy, &busy, &own);
}

/* RT vCPUs on isolated CPUs whose SMT siblings run nothing else; the
 * emulator threads on housekeeping CPUs. */
static void
check_isolation(Check *c)
{
    const RvGuestPlacement *pl = c->pl;
    const RvGuestHostCpus *host = c->host;
    RvCpuSet not_iso;

    rv_cpuset_andnot(&not_iso, &c->rt_cpus, &host->isolated);
    rv_cpuset_and(&not_iso, &not_iso, &host->online);   /* the others FAIL above */
    rv_cpuset_foreach(i, &c->rt_vcpus) {
        const RvGuestVcpuPlacement *v = &pl->vcpus[i];
        int cpu = rv_cpuset_next(&v->cpuset, 0);

        if (!v->pinned || rv_cpuset_count(&v->cpuset) != 1)
            continue;
        if (rv_cpuset_isset(&not_iso, cpu)) {
            g_autofree char *il = fmt_list(&host->isolated);

            finding(c->fail, "FAIL vCPU%d on CPU %d, which is not isolated (isolated CPUs: %s)",
                    i, cpu, il);
        }
        if (cpu >= 0 && c->cpu_core[cpu] >= 0) {
            const RvCpuSet *core = &g_array_index(host->cores, RvCpuSet, c->cpu_core[cpu]);
            RvCpuSet busy;

            busy_siblings(c, i, cpu, core, &busy);
            if (!rv_cpuset_is_empty(&busy)) {
                g_autofree char *bl = rv_cpulist_format(&busy);

                finding(c->warn, "WARN vCPU%d on CPU %d: its SMT sibling%s %s run%s other work",
                        i, cpu, rv_cpuset_count(&busy) == 1 ? "" : "s", bl,
                        rv_cpuset_count(&busy) == 1 ? "s" : "");
            }
        }
    }
    if (rv_cpuset_is_empty(&not_iso) && c->rt_exact) {
        g_autofree char *rl = rv_cpulist_format(&c->rt_cpus);

        finding(c->ok, "OK RT vCPUs on isolated CPU%s %s", rv_cpuset_count(&c->rt_cpus) == 1 ? "" : "s", rl);
    }
    if (pl->emulator_pinned && !rv_cpuset_intersects(&pl->emulator, &host->isolated)) {
        g_autofree char *el = rv_cpulist_format(&pl->emulator);

        finding(c->ok, "OK emulator threads on housekeeping CPU%s %s",
                rv_cpuset_count(&pl->emulator) == 1 ? "" : "s", el);
    }
}

GPtrArray *
rv_guest_placement_check(const RvGuestPlacement *pl, const RvGuestHostCpus *host)
{
    g_autoptr(GPtrArray) fail = g_ptr_array_new_with_free_func(g_free);
    g_autoptr(GPtrArray) warn = g_ptr_array_new_with_free_func(g_free);
    g_autoptr(GPtrArray) ok = g_ptr_array_new_with_free_func(g_free);
    GPtrArray *out = g_ptr_array_new_with_free_func(g_free);
    Check c = { .pl = pl, .host = host, .fail = fail, .warn = warn, .ok = ok, .rt_exact = true };

    rv_cpuset_zero(&c.rt_cpus);
    rv_cpuset_zero(&c.rt_vcpus);
    rv_cpuset_zero(&c.other_work);
    if (host)
        check_online(&c);
    check_rt_pinning(&c);
    check_emulator(&c);
    if (host && !rv_cpuset_is_empty(&c.rt_vcpus)) {
        g_autofree int *cpu_core = rv_guest_host_cpus_core_index(host);

        c.cpu_core = cpu_core;
        check_isolation(&c);
        c.cpu_core = NULL;
    }

    /* FAIL first, then WARN, NOTE (the placement's notes), OK */
    for (guint i = 0; i < fail->len; i++)
        g_ptr_array_add(out, g_strdup(fail->pdata[i]));
    for (guint i = 0; i < warn->len; i++)
        g_ptr_array_add(out, g_strdup(warn->pdata[i]));
    for (guint i = 0; pl->notes && i < pl->notes->len; i++)
        g_ptr_array_add(out, g_strdup(pl->notes->pdata[i]));
    for (guint i = 0; i < ok->len; i++)
        g_ptr_array_add(out, g_strdup(ok->pdata[i]));
    if (out->len == 0)
        g_ptr_array_add(out, g_strdup("OK no RT vCPU"));
    return out;
}

guint
rv_guest_placement_check_failures(const GPtrArray *findings)
{
    guint n = 0;

    for (guint i = 0; i < findings->len; i++)
        n += g_str_has_prefix(findings->pdata[i], "FAIL");
    return n;
}

char *
rv_guest_placement_format(const RvGuestPlacement *placement)
{
    GString *s = g_string_new(NULL);

    for (unsigned i = 0; i < placement->n_vcpus; i++) {
        const RvGuestVcpuPlacement *vp = &placement->vcpus[i];
        g_autofree char *l = rv_cpulist_format(&vp->cpuset);

        g_string_append_printf(s, "vCPU%u -> %s%s %s", vp->vcpu,
                               vp->pinned ? (rv_cpuset_count(&vp->cpuset) == 1 ? "CPU " : "CPUs ") : "",
                               vp->pinned ? l : "unpinned",
                               rv_guest_sched_policy_name(vp->policy));
        if (vp->policy == RV_GUEST_SCHED_FIFO || vp->policy == RV_GUEST_SCHED_RR)
            g_string_append_printf(s, ":%d", vp->priority);
        g_string_append(s, vp->rt ? " RT\n" : "\n");
    }
    if (placement->emulator_pinned) {
        g_autofree char *l = rv_cpulist_format(&placement->emulator);

        g_string_append_printf(s, "emulator -> CPU%s %s\n",
                               rv_cpuset_count(&placement->emulator) == 1 ? "" : "s", l);
    } else {
        g_string_append(s, "emulator -> unpinned\n");
    }
    if (!rv_cpuset_is_empty(&placement->idle_siblings)) {
        g_autofree char *l = rv_cpulist_format(&placement->idle_siblings);

        g_string_append_printf(s, "idle siblings -> CPU%s %s\n",
                               rv_cpuset_count(&placement->idle_siblings) == 1 ? "" : "s", l);
    }
    if (!rv_cpuset_is_empty(&placement->shared_siblings)) {
        g_autofree char *l = rv_cpulist_format(&placement->shared_siblings);

        g_string_append_printf(s, "shared siblings -> CPU%s %s\n",
                               rv_cpuset_count(&placement->shared_siblings) == 1 ? "" : "s", l);
    }
    for (guint i = 0; i < placement->notes->len; i++)
        g_string_append_printf(s, "%s\n", (const char *) placement->notes->pdata[i]);
    return g_string_free(s, FALSE);
}
