/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * guest/check-memory.c: the memory side of `guest check` and `guest xml
 * --check` (guest/check.h): the host's NUMA nodes and hugepage pools, a
 * domain's <numatune>, <memoryBacking> and <cachetune>/<memorytune>, and
 * the rules that judge them for an RT guest.
 *
 * Sources: libvirt formatdomain.html (NUMA Node Tuning, Memory Backing,
 * CPU Tuning: cachetune, memorytune); libvirt kbase kvm-realtime.html
 * (<locked/> hugepage memory on the RT vCPUs' node); the kernel's
 * Documentation/admin-guide/mm/hugetlbpage.rst (the pools in sysfs).
 */
#include <errno.h>
#include <string.h>

#include "guest/check.h"
#include "guest/check-priv.h"
#include "guest/domain-xml.h"
#include "util/error.h"
#include "util/xml.h"

#define BAD_X(s) ((const xmlChar *) (s))

/* ------------------------------------------------------------------ */
/* The host                                                            */

/* One pool directory's two counters; 0 when unreadable. */
static void
read_pool(RvRoot *root, const char *dir, const char *name, int node, GArray *pools)
{
    RvGuestHugepagePool pool = { .node = node };
    g_autofree char *nr = g_strdup_printf("%s/%s/nr_hugepages", dir, name);
    g_autofree char *fr = g_strdup_printf("%s/%s/free_hugepages", dir, name);
    gint64 v;

    if (sscanf(name, "hugepages-%" G_GUINT64_FORMAT "kB", &pool.size_kib) != 1 || !pool.size_kib)
        return;
    if (rv_host_root_read_int(root, nr, &v, NULL) >= 0 && v >= 0)
        pool.nr = (guint64) v;
    if (rv_host_root_read_int(root, fr, &v, NULL) >= 0 && v >= 0)
        pool.free = (guint64) v;
    g_array_append_val(pools, pool);
}

static void
read_pools(RvRoot *root, const char *dir, int node, GArray *pools)
{
    g_autoptr(GPtrArray) names = NULL;

    if (rv_host_root_list(root, dir, &names, NULL) < 0)
        return;
    for (guint i = 0; i < names->len; i++)
        if (g_str_has_prefix(names->pdata[i], "hugepages-"))
            read_pool(root, dir, names->pdata[i], node, pools);
}

void
rv_guest_host_memory_load(RvRoot *root, RvGuestHostCpus *host)
{
    g_autofree char *online = NULL;

    g_clear_pointer(&host->hugepage_pools, g_array_unref);
    /* a root without the directory (a capture of CPUs only, a kernel
     * without CONFIG_HUGETLBFS) says nothing about pools: left unknown */
    if (rv_host_root_exists(root, "/sys/kernel/mm/hugepages")) {
        host->hugepage_pools = g_array_new(FALSE, TRUE, sizeof(RvGuestHugepagePool));
        read_pools(root, "/sys/kernel/mm/hugepages", -1, host->hugepage_pools);
    }
    rv_cpuset_zero(&host->nodes);
    host->nodes_known = false;
    if (rv_host_root_read_value(root, "/sys/devices/system/node/online", &online, NULL) < 0 ||
        rv_cpulist_parse(online, 0, &host->nodes, NULL) < 0)
        return;
    host->nodes_known = true;
    rv_cpuset_foreach(n, &host->nodes) {
        g_autofree char *dir = g_strdup_printf("/sys/devices/system/node/node%d/hugepages", n);

        if (host->hugepage_pools)
            read_pools(root, dir, n, host->hugepage_pools);
    }
}

/* ------------------------------------------------------------------ */
/* The domain                                                          */

/* <numatune><memory mode placement nodeset/>: virDomainNumatuneParseXML()
 * (src/conf/numa_conf.c): mode strict (default), preferred, interleave,
 * restrictive; placement static needs a nodeset, auto takes none. */
static int
read_numatune(RvGuestDomain *d, xmlNodePtr dom, bool vcpu_auto, GError **error)
{
    static const char *const modes[] = { "strict", "preferred", "interleave", "restrictive" };
    xmlNodePtr m = rv_xml_child(rv_xml_child(dom, "numatune"), "memory");
    g_autofree char *mode = NULL, *placement = NULL, *nodeset = NULL;
    g_autoptr(GError) local = NULL;
    bool known = false;

    if (!m)
        return 0;
    mode = rv_xml_prop(m, "mode");
    placement = rv_xml_prop(m, "placement");
    nodeset = rv_xml_prop(m, "nodeset");
    for (size_t i = 0; mode && i < G_N_ELEMENTS(modes); i++)
        known |= strcmp(mode, modes[i]) == 0;
    if (mode && !known)
        return rv_error_set(error, RV_ERROR_INVALID, EINVAL,
                            "%s: line %ld: invalid <numatune><memory mode='%s'>: libvirt takes strict, "
                            "preferred, interleave, restrictive", d->source, (long) xmlGetLineNo(m), mode);
    d->numa_mode = g_strdup(mode ? mode : "strict");
    /* virDomainNumatuneSet(): no placement = static with a nodeset, else
     * <vcpu placement>'s; static needs a nodeset */
    if (placement ? strcmp(placement, "auto") == 0 : !nodeset && vcpu_auto) {
        d->numa_auto = true;
        return 0;
    }
    if (!nodeset)
        return rv_error_set(error, RV_ERROR_INVALID, EINVAL,
                            "%s: line %ld: <numatune><memory> with static placement and no nodeset: "
                            "libvirt refuses it (\"nodeset for NUMA memory tuning must be set if "
                            "'placement' is 'static'\")", d->source, (long) xmlGetLineNo(m));
    if (rv_guest_libvirt_cpuset_parse(nodeset, &d->numa_nodeset, &local) < 0)
        return rv_error_set(error, RV_ERROR_INVALID, EINVAL, "%s: line %ld: <numatune><memory nodeset>: %s",
                            d->source, (long) xmlGetLineNo(m), local->message);
    d->has_numa_nodeset = true;
    return 0;
}

/* <memoryBacking><hugepages><page size unit nodeset/>: sizes in KiB
 * (virDomainHugepagesParseXML(), units as virScaleInteger, default KiB);
 * <hugepages/> alone: the host's default size (size_kib 0). */
static int
read_hugepages(RvGuestDomain *d, xmlNodePtr dom, GError **error)
{
    xmlNodePtr hp = rv_xml_child(rv_xml_child(dom, "memoryBacking"), "hugepages");

    d->pages = g_array_new(FALSE, TRUE, sizeof(RvGuestHugepage));
    if (!hp)
        return 0;
    for (xmlNodePtr n = hp->children; n; n = n->next) {
        g_autofree char *size = NULL, *unit = NULL, *nodeset = NULL;
        RvGuestHugepage page = { 0 };
        guint64 v, bytes;

        if (n->type != XML_ELEMENT_NODE || xmlStrcmp(n->name, BAD_X("page")) != 0)
            continue;
        size = rv_xml_prop(n, "size");
        unit = rv_xml_prop(n, "unit");
        nodeset = rv_xml_prop(n, "nodeset");
        if (!size || !g_ascii_string_to_unsigned(size, 10, 1, G_MAXUINT64, &v, NULL) ||
            rv_guest_libvirt_scale(v, unit, &bytes) < 0 || bytes < 1024)
            return rv_error_set(error, RV_ERROR_INVALID, EINVAL,
                                "%s: line %ld: invalid <page size='%s' unit='%s'> in <hugepages>",
                                d->source, (long) xmlGetLineNo(n), size ? size : "", unit ? unit : "");
        page.size_kib = bytes / 1024;
        if (nodeset) {
            if (rv_guest_libvirt_cpuset_parse(nodeset, &page.nodeset, NULL) < 0)
                return rv_error_set(error, RV_ERROR_INVALID, EINVAL,
                                    "%s: line %ld: invalid <page nodeset='%s'> in <hugepages>",
                                    d->source, (long) xmlGetLineNo(n), nodeset);
            page.has_nodeset = true;
        }
        g_array_append_val(d->pages, page);
    }
    if (d->pages->len == 0) {
        RvGuestHugepage page = { 0 };

        g_array_append_val(d->pages, page);
    }
    return 0;
}

/* The guest's NUMA cells: <cpu><numa><cell>. */
static unsigned
guest_cells(xmlNodePtr dom)
{
    unsigned n = 0;

    for (xmlNodePtr c = rv_xml_child(rv_xml_child(dom, "cpu"), "numa") ? rv_xml_child(rv_xml_child(dom, "cpu"), "numa")->children : NULL;
         c; c = c->next)
        n += c->type == XML_ELEMENT_NODE && xmlStrcmp(c->name, BAD_X("cell")) == 0;
    return n;
}

/* <numatune><memnode cellid mode nodeset/>: what
 * virDomainNumatuneNodeParseXML() (src/conf/numa_conf.c) refuses. */
static int
read_memnodes(RvGuestDomain *d, xmlNodePtr dom, GError **error)
{
    unsigned cells = guest_cells(dom);
    g_autofree bool *seen = g_new0(bool, MAX(cells, 1));
    const char *why = NULL;
    xmlNodePtr bad = NULL;

    for (xmlNodePtr n = rv_xml_child(dom, "numatune") ? rv_xml_child(dom, "numatune")->children : NULL; n && !why;
         n = n->next) {
        g_autofree char *cellid = NULL, *mode = NULL, *nodeset = NULL;
        guint64 id;

        if (n->type != XML_ELEMENT_NODE || xmlStrcmp(n->name, BAD_X("memnode")) != 0)
            continue;
        bad = n;
        cellid = rv_xml_prop(n, "cellid");
        mode = rv_xml_prop(n, "mode");
        nodeset = rv_xml_prop(n, "nodeset");
        if (d->numa_auto)
            why = "Per-node binding is not compatible with automatic NUMA placement";
        else if (!cells)
            why = "Element 'memnode' is invalid without any guest NUMA cells";
        else if (!cellid || !g_ascii_string_to_unsigned(cellid, 10, 0, cells - 1, &id, NULL))
            why = "Argument 'cellid' in memnode element must correspond to existing guest's NUMA cell";
        else if (seen[id])
            why = "Multiple memnode elements with cellid";
        else if (d->numa_mode && strcmp(d->numa_mode, "restrictive") == 0 &&
                 (!mode || strcmp(mode, "restrictive") != 0))
            why = "'restrictive' mode is required in memnode element when mode is 'restrictive' in memory element";
        else if (!nodeset)
            why = "Missing required nodeset attribute in memnode element";
        else {
            seen[id] = true;
            d->memnodes++;
        }
    }
    if (why)
        return rv_error_set(error, RV_ERROR_INVALID, EINVAL, "%s: line %ld: <memnode>: libvirt refuses it (\"%s\")",
                            d->source, (long) xmlGetLineNo(bad), why);
    return 0;
}

/* Page nodesets against the guest's NUMA cells, and one default page at
 * most: what virDomainDefMemtuneValidate() (src/conf/domain_validate.c)
 * refuses. */
static int
check_pages(RvGuestDomain *d, xmlNodePtr dom, GError **error)
{
    unsigned cells = guest_cells(dom);
    g_autofree char *why = NULL;

    for (guint i = 0; i < d->pages->len && !why; i++) {
        const RvGuestHugepage *p = &g_array_index(d->pages, RvGuestHugepage, i);

        if (p->has_nodeset && rv_cpuset_last(&p->nodeset) >= (int) cells)
            why = g_strdup_printf("hugepages: node %d not found", rv_cpuset_last(&p->nodeset));
        for (guint j = i + 1; j < d->pages->len && !why; j++) {
            const RvGuestHugepage *q = &g_array_index(d->pages, RvGuestHugepage, j);

            if (p->has_nodeset && q->has_nodeset && rv_cpuset_intersects(&p->nodeset, &q->nodeset))
                why = g_strdup_printf("nodeset attribute of hugepages of sizes %" G_GUINT64_FORMAT
                                      " and %" G_GUINT64_FORMAT " intersect", p->size_kib, q->size_kib);
            else if (!p->has_nodeset && !q->has_nodeset)
                why = g_strdup_printf("two master hugepages detected: %" G_GUINT64_FORMAT " and %"
                                      G_GUINT64_FORMAT, p->size_kib, q->size_kib);
        }
    }
    if (why)
        return rv_error_set(error, RV_ERROR_INVALID, EINVAL, "%s: <hugepages>: libvirt refuses it (\"%s\")",
                            d->source, why);
    return 0;
}

int
rv_guest_domain_read_memory_tuning(RvGuestDomain *d, xmlNodePtr dom, GError **error)
{
    xmlNodePtr tune = rv_xml_child(dom, "cputune");
    int r;

    g_autofree char *vp = rv_xml_prop(rv_xml_child(dom, "vcpu"), "placement");
    bool vcpu_auto = vp && strcmp(vp, "auto") == 0;

    if ((r = read_numatune(d, dom, vcpu_auto, error)) < 0 || (r = read_memnodes(d, dom, error)) < 0 ||
        (r = read_hugepages(d, dom, error)) < 0 || (r = check_pages(d, dom, error)) < 0)
        return r;
    for (xmlNodePtr n = tune ? tune->children : NULL; n; n = n->next) {
        if (n->type != XML_ELEMENT_NODE)
            continue;
        d->cachetunes += xmlStrcmp(n->name, BAD_X("cachetune")) == 0;
        d->memorytunes += xmlStrcmp(n->name, BAD_X("memorytune")) == 0;
    }
    return 0;
}

/* ------------------------------------------------------------------ */
/* The rules                                                           */

/* The host NUMA nodes holding the RT vCPUs' CPUs (needs node groups). */
static bool
rt_nodes(const RvGuestPlacement *pl, const RvGuestHostCpus *host, RvCpuSet *ret)
{
    rv_cpuset_zero(ret);
    if (!host || !host->groups_are_nodes || rv_cpuset_is_empty(&pl->rt_cpus))
        return false;
    for (guint i = 0; i < host->groups->len; i++) {
        const RvCpuGroup *g = &g_array_index(host->groups, RvCpuGroup, i);

        if (g->id >= 0 && rv_cpuset_intersects(&g->cpus, &pl->rt_cpus))
            rv_cpuset_set(ret, (unsigned) g->id);
    }
    return !rv_cpuset_is_empty(ret);
}

/* No <numatune> at all on a host of several NUMA nodes, the RT vCPUs on
 * one of them: the memory follows the default (local) policy of whichever
 * thread first touches it; QEMU preallocates hugepage-backed RAM from its
 * main thread, which runs where <emulatorpin> puts it, so the pages can
 * land on another node than the vCPUs' (mm/mempolicy.c MPOL_LOCAL, the
 * default; libvirt formatdomain "NUMA Node Tuning"; kbase kvm-realtime,
 * Memory configuration).  Automatic placement (numad) and per-cell
 * <memnode> bindings are left alone. */
static void
check_unbound(RvFindings *out, const RvGuestDomain *d, const RvGuestHostCpus *host)
{
    g_autofree char *rl = NULL;
    RvCpuSet rt;

    if (d->numa_auto || d->memnodes || !rt_nodes(d->placement, host, &rt) || rv_cpuset_count(&rt) != 1)
        return;
    rl = rv_cpulist_format(&rt);
    rv_findings_add(out, RV_FINDING_WARN, "memory.numa-rt-node", NULL, rl, "unbound",
        "bind the memory to the RT vCPUs' node: <numatune><memory mode='strict' nodeset='N'/>",
        "no <numatune>: the RT vCPUs run on NUMA node %s of a host with several nodes, but the guest "
        "memory is placed where a thread first touches it (QEMU's main thread when it preallocates), "
        "possibly on another node: guest memory accesses may cross the interconnect", rl);
}

/* <numatune> against the host's nodes and the RT vCPUs' node. */
static void
check_numatune(RvFindings *out, const RvGuestDomain *d, const RvGuestHostCpus *host)
{
    g_autofree char *nl = NULL, *hl = NULL, *rl = NULL;
    RvCpuSet missing, rt;

    if (!d->has_numa_nodeset) {
        check_unbound(out, d, host);
        return;
    }
    nl = rv_cpulist_format(&d->numa_nodeset);
    if (host && host->nodes_known) {
        rv_cpuset_andnot(&missing, &d->numa_nodeset, &host->nodes);
        if (!rv_cpuset_is_empty(&missing)) {
            g_autofree char *ml = rv_cpulist_format(&missing);

            hl = rv_cpulist_format(&host->nodes);
            rv_findings_add(out, RV_FINDING_FAIL, "memory.numa-node", NULL, hl, nl,
                "bind the memory to nodes this host has (numactl -H): <numatune><memory nodeset='N'/>",
                "<numatune> mode %s binds the memory to NUMA node%s %s, which this host does not have "
                "(nodes %s): the domain cannot start", d->numa_mode,
                rv_cpuset_count(&missing) == 1 ? "" : "s", ml, hl);
            return;
        }
    }
    if (!rt_nodes(d->placement, host, &rt))
        return;
    rl = rv_cpulist_format(&rt);
    if (strcmp(d->numa_mode, "interleave") != 0 && rv_cpuset_equal(&d->numa_nodeset, &rt)) {
        rv_findings_add(out, RV_FINDING_PASS, "memory.numa-rt-node", NULL, NULL, NULL, NULL,
                        "<numatune> mode %s on node%s %s, the RT vCPUs' node%s", d->numa_mode,
                        rv_cpuset_count(&rt) == 1 ? "" : "s", nl, rv_cpuset_count(&rt) == 1 ? "" : "s");
        return;
    }
    rv_findings_add(out, RV_FINDING_WARN, "memory.numa-rt-node", NULL, rl, nl,
        "bind the memory to the RT vCPUs' node: <numatune><memory mode='strict' nodeset='N'/>",
        "<numatune> mode %s on node%s %s, the RT vCPUs run on node%s %s: %s",
        d->numa_mode, rv_cpuset_count(&d->numa_nodeset) == 1 ? "" : "s", nl,
        rv_cpuset_count(&rt) == 1 ? "" : "s", rl,
        strcmp(d->numa_mode, "interleave") == 0 ? "interleaved memory is remote for part of every access"
                                                : "guest memory accesses cross the interconnect");
}

/* The pages of @size_kib the host has on @node (-1: all). */
static bool
pool_pages(const RvGuestHostCpus *host, guint64 size_kib, int node, guint64 *ret_nr)
{
    bool found = false;

    *ret_nr = 0;
    for (guint i = 0; i < host->hugepage_pools->len; i++) {
        const RvGuestHugepagePool *p = &g_array_index(host->hugepage_pools, RvGuestHugepagePool, i);

        if (p->size_kib != size_kib || p->node != node)
            continue;
        found = true;
        *ret_nr += p->nr;
    }
    return found;
}

/* The host's default hugepage size: the pool /proc/meminfo Hugepagesize
 * names; without it, the smallest pool (2 MiB on x86_64). */
static guint64
default_size(const RvGuestHostCpus *host)
{
    guint64 min = 0;

    for (guint i = 0; i < host->hugepage_pools->len; i++) {
        const RvGuestHugepagePool *p = &g_array_index(host->hugepage_pools, RvGuestHugepagePool, i);

        if (p->node == -1 && (!min || p->size_kib < min))
            min = p->size_kib;
    }
    return min;
}

/* Hugepage sizes against the host's pools, the domain's memory against the
 * pages reserved (on the bound node when <numatune> binds it strictly). */
static void
check_hugepages(RvFindings *out, const RvGuestDomain *d, const RvGuestHostCpus *host)
{
    if (!host || !host->hugepage_pools || !d->pages || d->pages->len == 0)
        return;
    for (guint i = 0; i < d->pages->len; i++) {
        const RvGuestHugepage *pg = &g_array_index(d->pages, RvGuestHugepage, i);
        guint64 size = pg->size_kib ? pg->size_kib : default_size(host), nr = 0, need;
        int node = -1;

        if (pg->has_nodeset)
            continue;   /* guest NUMA cells: only the whole-domain page is judged */
        if (!size) {
            rv_findings_add(out, RV_FINDING_FAIL, "memory.hugepage-size", NULL, NULL, NULL,
                "reserve hugepages at boot (hugepagesz=SIZE hugepages=N) or through vm.nr_hugepages",
                "<hugepages> of the default size: the host has no hugepage pool at all");
            continue;
        }
        if (!pool_pages(host, size, -1, &nr)) {
            rv_findings_add(out, RV_FINDING_FAIL, "memory.hugepage-size", NULL, NULL, NULL,
                "use a page size the host has (/sys/kernel/mm/hugepages), or boot it with "
                "hugepagesz=SIZE hugepages=N",
                "<hugepages> page size %" G_GUINT64_FORMAT " KiB: the host has no such hugepage pool",
                size);
            continue;
        }
        if (!d->memory_bytes)
            continue;
        need = (d->memory_bytes / 1024 + size - 1) / size;
        if (d->has_numa_nodeset && !d->numa_auto && strcmp(d->numa_mode, "strict") == 0 &&
            rv_cpuset_count(&d->numa_nodeset) == 1 && host->nodes_known) {
            node = rv_cpuset_next(&d->numa_nodeset, 0);
            pool_pages(host, size, node, &nr);
        }
        if (nr < need) {
            g_autofree char *want = g_strdup_printf("%" G_GUINT64_FORMAT " pages", need);
            g_autofree char *have = g_strdup_printf("%" G_GUINT64_FORMAT " pages", nr);
            g_autofree char *where = node >= 0 ? g_strdup_printf(" on node %d", node) : g_strdup("");

            rv_findings_add(out, RV_FINDING_FAIL, "memory.hugepage-size", NULL, want, have,
                "reserve the pages before starting the domain (vm.nr_hugepages or "
                "/sys/devices/system/node/nodeN/hugepages/hugepages-SIZEkB/nr_hugepages)",
                "<memory> needs %" G_GUINT64_FORMAT " pages of %" G_GUINT64_FORMAT " KiB%s, the host "
                "reserves %" G_GUINT64_FORMAT ": the domain cannot start", need, size, where, nr);
        } else {
            g_autofree char *where = node >= 0 ? g_strdup_printf(" on node %d", node) : g_strdup("");

            rv_findings_add(out, RV_FINDING_PASS, "memory.hugepage-size", NULL, NULL, NULL, NULL,
                            "%" G_GUINT64_FORMAT " pages of %" G_GUINT64_FORMAT " KiB reserved%s for "
                            "the guest's %" G_GUINT64_FORMAT, nr, size, where, need);
        }
    }
}

void
rv_guest_check_memory(RvFindings *out, const RvGuestDomain *d, const RvGuestHostCpus *host)
{
    bool rt = !rv_cpuset_is_empty(&d->placement->rt_cpus);

    check_numatune(out, d, host);
    check_hugepages(out, d, host);
    if (rt && !d->locked)
        rv_findings_add(out, RV_FINDING_WARN, "memory.not-locked", NULL, NULL, NULL,
            "add <memoryBacking><locked/></memoryBacking> (libvirt then raises RLIMIT_MEMLOCK)",
            "the domain has RT vCPUs but no <memoryBacking><locked/>: guest memory may be swapped "
            "or migrated, a page fault stalls an RT vCPU for milliseconds");
    else if (rt)
        rv_findings_add(out, RV_FINDING_PASS, "memory.not-locked", NULL, NULL, NULL, NULL,
                        "guest memory locked (<memoryBacking><locked/>)");
    if (d->cachetunes || d->memorytunes)
        rv_findings_add(out, RV_FINDING_NOTE, "cputune.resctrl", NULL, NULL, NULL, NULL,
                        "%u <cachetune> and %u <memorytune> (resctrl cache and memory bandwidth "
                        "allocation): not judged; a CAT partition for the RT vCPUs is worth having, "
                        "check it with `cat /sys/fs/resctrl/*/schemata`", d->cachetunes, d->memorytunes);
}
