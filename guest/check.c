/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * guest/check.c: the judge of `rtvirt guest check` and `guest xml --check`
 * (guest/check.h): domain XML facts, placement and topology rules, live
 * threads, all as host check findings.
 */
#include <errno.h>
#include <sched.h>
#include <string.h>

#include <libxml/parser.h>
#include <libxml/tree.h>

#include "guest/check.h"
#include "guest/check-priv.h"
#include "guest/domain-xml.h"
#include "host/facts/cmdline.h"
#include "util/error.h"
#include "util/xml.h"
#include "util/json.h"

#define BAD_X(s) ((const xmlChar *) (s))

G_DEFINE_AUTOPTR_CLEANUP_FUNC(xmlDoc, xmlFreeDoc)

/* ------------------------------------------------------------------ */
/* Reading the domain                                                  */

void
rv_guest_domain_free(RvGuestDomain *d)
{
    if (!d)
        return;
    g_free(d->source);
    g_free(d->name);
    rv_guest_placement_free(d->placement);
    if (d->iothreadpins)
        g_array_unref(d->iothreadpins);
    if (d->iothreads)
        g_array_unref(d->iothreads);
    if (d->pages)
        g_array_unref(d->pages);
    g_free(d->numa_mode);
    if (d->status_tids)
        g_array_unref(d->status_tids);
    g_free(d);
}

static char *
text_of(xmlNodePtr n)
{
    xmlChar *c = n ? xmlNodeGetContent(n) : NULL;
    char *s = c ? g_strstrip(g_strdup((const char *) c)) : NULL;

    xmlFree(c);
    return s;
}

/* libvirt's virScaleInteger() (src/util/virutil.c); guest/check.h. */
int
rv_guest_libvirt_scale(guint64 value, const char *unit, guint64 *ret)
{
    guint64 scale = 1, base;

    if (!unit || !*unit) {
        scale = 1024;
    } else if (g_ascii_strcasecmp(unit, "b") == 0 || g_ascii_strcasecmp(unit, "byte") == 0 ||
               g_ascii_strcasecmp(unit, "bytes") == 0) {
        scale = 1;
    } else {
        const char *order = "kmgtpe", *at;

        if (!unit[1] || g_ascii_strcasecmp(unit + 1, "iB") == 0)
            base = 1024;
        else if (g_ascii_tolower(unit[1]) == 'b' && !unit[2])
            base = 1000;
        else
            return -EINVAL;
        at = strchr(order, g_ascii_tolower(unit[0]));
        if (!unit[0] || !at)
            return -EINVAL;
        for (const char *o = order; o <= at; o++)
            scale *= base;
    }
    if (value && value > G_MAXUINT64 / scale)
        return -ERANGE;
    *ret = value * scale;
    return 0;
}

/* <memory unit='...'>N</memory> in bytes (formatdomain "Memory
 * Allocation"; rv_guest_libvirt_scale()). */
static int
read_memory(xmlNodePtr dom, const char *source, guint64 *ret, GError **error)
{
    xmlNodePtr m = rv_xml_child(dom, "memory");
    g_autofree char *v = text_of(m), *unit = m ? rv_xml_prop(m, "unit") : NULL;
    guint64 n;

    *ret = 0;
    if (!m)
        return 0;
    if (!v || !g_ascii_string_to_unsigned(v, 10, 0, G_MAXUINT64, &n, NULL) ||
        rv_guest_libvirt_scale(n, unit, ret) < 0)
        return rv_error_set(error, RV_ERROR_INVALID, EINVAL,
                            "%s: line %ld: invalid <memory unit='%s'>%s</memory> (units as libvirt's "
                            "virScaleInteger: b, KiB/k, KB, MiB/M, MB, ... case-insensitive)", source,
                            (long) xmlGetLineNo(m), unit ? unit : "", v ? v : "");
    return 0;
}

static int
read_topology(RvGuestDomain *d, xmlNodePtr dom, GError **error)
{
    xmlNodePtr t = rv_xml_child(rv_xml_child(dom, "cpu"), "topology");
    static const char *const attrs[] = { "sockets", "dies", "clusters", "cores", "threads" };
    unsigned *fields[] = { &d->sockets, &d->dies, &d->clusters, &d->cores, &d->threads };

    for (size_t i = 0; i < G_N_ELEMENTS(attrs); i++)
        *fields[i] = 1;
    if (!t)
        return 0;
    d->has_topology = true;
    for (size_t i = 0; i < G_N_ELEMENTS(attrs); i++) {
        g_autofree char *v = rv_xml_prop(t, attrs[i]);
        guint64 n;

        if (!v)
            continue;
        if (!g_ascii_string_to_unsigned(v, 10, 1, 16384, &n, NULL))
            return rv_error_set(error, RV_ERROR_INVALID, EINVAL,
                                "%s: line %ld: invalid %s='%s' in <topology>", d->source,
                                (long) xmlGetLineNo(t), attrs[i], v);
        *fields[i] = (unsigned) n;
    }
    return 0;
}

/* The domain's I/O thread ids: <iothreadids><iothread id>, filled up to
 * <iothreads>N</iothreads> with the lowest unused ids (libvirt
 * src/conf/domain_conf.c virDomainIOThreadIDDefArrayInit()). */
static void
read_iothread_ids(RvGuestDomain *d, xmlNodePtr dom)
{
    g_autofree char *count = text_of(rv_xml_child(dom, "iothreads"));
    guint64 want = 0, next = 1;

    d->iothreads = g_array_new(FALSE, TRUE, sizeof(RvGuestIothread));
    for (xmlNodePtr n = rv_xml_child(dom, "iothreadids") ? rv_xml_child(dom, "iothreadids")->children : NULL; n;
         n = n->next) {
        g_autofree char *id = NULL;
        RvGuestIothread t = { 0 };
        guint64 v;

        if (n->type != XML_ELEMENT_NODE || xmlStrcmp(n->name, BAD_X("iothread")) != 0)
            continue;
        id = rv_xml_prop(n, "id");
        if (id && g_ascii_string_to_unsigned(id, 10, 1, G_MAXUINT, &v, NULL)) {
            t.id = (unsigned) v;
            g_array_append_val(d->iothreads, t);
        }
    }
    if (count)
        g_ascii_string_to_unsigned(count, 10, 0, 16384, &want, NULL);
    while (d->iothreads->len < want) {
        RvGuestIothread t = { .id = (unsigned) next };

        if (!rv_guest_domain_iothread(d, t.id))
            g_array_append_val(d->iothreads, t);
        next++;
    }
}

RvGuestIothread *
rv_guest_domain_iothread(const RvGuestDomain *d, unsigned id)
{
    for (guint i = 0; d->iothreads && i < d->iothreads->len; i++)
        if (g_array_index(d->iothreads, RvGuestIothread, i).id == id)
            return &g_array_index(d->iothreads, RvGuestIothread, i);
    return NULL;
}

/* <iothreadpin iothread cpuset>: virDomainIOThreadPinDefParseXML():
 * the I/O thread must exist and be pinned once. */
static int
read_iothreadpin(RvGuestDomain *d, xmlNodePtr n, bool excerpt, GError **error)
{
    g_autofree char *id = rv_xml_prop(n, "iothread"), *cs = rv_xml_prop(n, "cpuset");
    g_autoptr(GError) local = NULL;
    RvGuestIothreadPin pin = { 0 };
    RvGuestIothread *t;
    guint64 v;

    if (!id || !g_ascii_string_to_unsigned(id, 10, 1, G_MAXUINT, &v, NULL) || !cs ||
        rv_guest_libvirt_cpuset_parse(cs, &pin.cpuset, &local) < 0)
        return rv_error_set(error, RV_ERROR_INVALID, EINVAL,
                            "%s: line %ld: invalid <iothreadpin iothread='%s' cpuset='%s'>",
                            d->source, (long) xmlGetLineNo(n), id ? id : "", cs ? cs : "");
    if (!(t = rv_guest_domain_iothread(d, (unsigned) v)) && excerpt) {
        RvGuestIothread add = { .id = (unsigned) v };

        g_array_append_val(d->iothreads, add);
        t = rv_guest_domain_iothread(d, (unsigned) v);
    }
    if (!t)
        return rv_error_set(error, RV_ERROR_INVALID, EINVAL,
                            "%s: line %ld: <iothreadpin iothread='%s'> names an I/O thread the domain "
                            "does not have (<iothreads>/<iothreadids>): libvirt refuses it",
                            d->source, (long) xmlGetLineNo(n), id);
    if (t->pinned)
        return rv_error_set(error, RV_ERROR_INVALID, EINVAL,
                            "%s: line %ld: a second <iothreadpin iothread='%s'>: libvirt refuses the "
                            "domain (\"duplicate iothreadpin for same iothread\")",
                            d->source, (long) xmlGetLineNo(n), id);
    t->pinned = true;
    t->cpuset = pin.cpuset;
    pin.id = (unsigned) v;
    g_array_append_val(d->iothreadpins, pin);
    return 0;
}

/* <iothreadsched iothreads scheduler priority>: as <vcpusched>
 * (virDomainThreadSchedParseHelper()); an id the domain lacks or named
 * twice is refused by libvirt. */
static int
read_iothreadsched(RvGuestDomain *d, xmlNodePtr n, bool excerpt, GError **error)
{
    static const char *const names[] = { "other", "batch", "idle", "fifo", "rr" };
    g_autofree char *ids = rv_xml_prop(n, "iothreads"), *sched = rv_xml_prop(n, "scheduler");
    g_autofree char *prio = rv_xml_prop(n, "priority");
    RvCpuSet set;
    gint64 pr = 0;
    int pol = -1;

    for (int i = 0; sched && i < (int) G_N_ELEMENTS(names); i++)
        if (strcmp(sched, names[i]) == 0)
            pol = i;
    if (!ids || rv_guest_libvirt_cpuset_parse(ids, &set, NULL) < 0 || pol < 0 ||
        ((pol == RV_GUEST_SCHED_FIFO || pol == RV_GUEST_SCHED_RR) &&
         (!prio || !g_ascii_string_to_signed(prio, 10, G_MININT, G_MAXINT, &pr, NULL))))
        return rv_error_set(error, RV_ERROR_INVALID, EINVAL,
                            "%s: line %ld: invalid <iothreadsched iothreads='%s' scheduler='%s' priority='%s'>",
                            d->source, (long) xmlGetLineNo(n), ids ? ids : "", sched ? sched : "",
                            prio ? prio : "");
    rv_cpuset_foreach(i, &set) {
        RvGuestIothread *t = rv_guest_domain_iothread(d, (unsigned) i);

        if (!t && excerpt) {
            RvGuestIothread add = { .id = (unsigned) i };

            g_array_append_val(d->iothreads, add);
            t = rv_guest_domain_iothread(d, (unsigned) i);
        }
        if (!t || t->sched_set)
            return rv_error_set(error, RV_ERROR_INVALID, EINVAL,
                                "%s: line %ld: <iothreadsched iothreads='%s'>: I/O thread %d %s: libvirt "
                                "refuses the domain", d->source, (long) xmlGetLineNo(n), ids, i,
                                t ? "named twice" : "does not exist");
        t->sched_set = true;
        t->policy = pol;
        t->priority = (int) pr;
    }
    return 0;
}

/* A documentation excerpt ("..." text in <domain>) leaves <iothreads>
 * out: the I/O threads it names exist there. */
static bool
is_excerpt(xmlNodePtr dom)
{
    for (xmlNodePtr n = dom->children; n; n = n->next)
        if (n->type == XML_TEXT_NODE && n->content && strstr((const char *) n->content, "..."))
            return true;
    return false;
}

static int
read_iothreads(RvGuestDomain *d, xmlNodePtr dom, GError **error)
{
    bool excerpt = is_excerpt(dom);
    int r = 0;

    d->iothreadpins = g_array_new(FALSE, TRUE, sizeof(RvGuestIothreadPin));
    read_iothread_ids(d, dom);
    for (xmlNodePtr n = rv_xml_child(dom, "cputune") ? rv_xml_child(dom, "cputune")->children : NULL; n && r >= 0;
         n = n->next) {
        if (n->type != XML_ELEMENT_NODE)
            continue;
        if (xmlStrcmp(n->name, BAD_X("iothreadpin")) == 0)
            r = read_iothreadpin(d, n, excerpt, error);
        else if (xmlStrcmp(n->name, BAD_X("iothreadsched")) == 0)
            r = read_iothreadsched(d, n, excerpt, error);
    }
    return r;
}

/* The vCPUs the guest kernel isolates: isolcpus= and nohz_full= of
 * <os><cmdline> as the kernel takes them (host/facts/cmdline.h). */
static void
read_guest_isolated(RvGuestDomain *d, xmlNodePtr dom)
{
    g_autofree char *cmdline = text_of(rv_xml_child(rv_xml_child(dom, "os"), "cmdline"));
    g_autoptr(RvCmdline) cmd = NULL;

    rv_cpuset_zero(&d->guest_isolated);
    if (!cmdline || rv_host_cmdline_parse(cmdline, d->placement->n_vcpus, &cmd, NULL) < 0)
        return;
    rv_cpuset_or(&d->guest_isolated, &cmd->isolcpus.effective, &cmd->nohz_full.effective);
}

/* libvirt's status file: <domstatus pid='N'><vcpus><vcpu id='0' pid='T'/> */
static void
read_status(RvGuestDomain *d, xmlNodePtr st)
{
    g_autofree char *pid = rv_xml_prop(st, "pid");
    guint64 v;

    if (pid && g_ascii_string_to_unsigned(pid, 10, 1, G_MAXINT, &v, NULL))
        d->status_pid = (int) v;
    d->status_tids = g_array_new(FALSE, TRUE, sizeof(int));
    g_array_set_size(d->status_tids, d->placement->n_vcpus);
    for (xmlNodePtr n = rv_xml_child(st, "vcpus") ? rv_xml_child(st, "vcpus")->children : NULL; n; n = n->next) {
        g_autofree char *id = NULL, *tid = NULL;
        guint64 i, t;

        if (n->type != XML_ELEMENT_NODE || xmlStrcmp(n->name, BAD_X("vcpu")) != 0)
            continue;
        id = rv_xml_prop(n, "id");
        tid = rv_xml_prop(n, "pid");
        if (id && tid && g_ascii_string_to_unsigned(id, 10, 0, d->placement->n_vcpus - 1, &i, NULL) &&
            g_ascii_string_to_unsigned(tid, 10, 1, G_MAXINT, &t, NULL))
            g_array_index(d->status_tids, int, i) = (int) t;
    }
    /* incomplete (a domain still starting: libvirt writes the status file
     * before it knows every vCPU's thread): not used */
    for (guint i = 0; i < d->status_tids->len; i++)
        if (g_array_index(d->status_tids, int, i) <= 0) {
            g_clear_pointer(&d->status_tids, g_array_unref);
            break;
        }
}

int
rv_guest_domain_load(const char *xml, const char *source, RvGuestDomain **ret, GError **error)
{
    g_autoptr(RvGuestDomain) d = g_new0(RvGuestDomain, 1);
    g_autoptr(xmlDoc) doc = NULL;
    g_autofree char *inner = NULL;
    xmlNodePtr root, dom, status = NULL;
    int r;

    d->source = g_strdup(source);
    doc = xmlReadMemory(xml, (int) strlen(xml), source, NULL,
                        XML_PARSE_NONET | XML_PARSE_NOWARNING | XML_PARSE_NOERROR);
    root = doc ? xmlDocGetRootElement(doc) : NULL;
    dom = root;
    if (root && xmlStrcmp(root->name, BAD_X("domstatus")) == 0) {
        status = root;
        dom = rv_xml_child(root, "domain");
        if (!dom)
            return rv_error_set(error, RV_ERROR_INVALID, EINVAL,
                                "%s: a libvirt status file without <domain>", source);
        {
            xmlBufferPtr buf = xmlBufferCreate();

            xmlNodeDump(buf, doc, dom, 0, 0);
            inner = g_strdup((const char *) xmlBufferContent(buf));
            xmlBufferFree(buf);
        }
    }
    /* the placement reader names XML errors and a root that is no <domain> */
    if ((r = rv_guest_domain_xml_read_placement(inner ? inner : xml, source, &d->placement,
                                                error)) < 0)
        return r;
    d->name = text_of(rv_xml_child(dom, "name"));
    if ((r = read_topology(d, dom, error)) < 0 || (r = read_memory(dom, source, &d->memory_bytes, error)) < 0 ||
        (r = read_iothreads(d, dom, error)) < 0)
        return r;
    if ((r = rv_guest_domain_read_memory_tuning(d, dom, error)) < 0)
        return r;
    d->hugepages = rv_xml_child(rv_xml_child(dom, "memoryBacking"), "hugepages") != NULL;
    d->locked = rv_xml_child(rv_xml_child(dom, "memoryBacking"), "locked") != NULL;
    d->nosharepages = rv_xml_child(rv_xml_child(dom, "memoryBacking"), "nosharepages") != NULL;
    {
        g_autofree char *pmu = rv_xml_prop(rv_xml_child(rv_xml_child(dom, "features"), "pmu"), "state");

        d->pmu_off = pmu && strcmp(pmu, "off") == 0;
    }
    read_guest_isolated(d, dom);
    if (status)
        read_status(d, status);
    *ret = g_steal_pointer(&d);
    return 0;
}

/* ------------------------------------------------------------------ */
/* Findings                                                            */

void
rv_guest_check_report_free(RvGuestCheckReport *rep)
{
    if (!rep)
        return;
    g_free(rep->domain);
    g_free(rep->name);
    rv_findings_free(rep->findings);
    g_free(rep);
}

/* rv_guest_placement_check()'s lines with their ids and fixes: its level
 * word first, then a prefix and a phrase of the line (guest/placement.h). */
static const struct {
    const char *prefix, *contains, *id, *fix;
} placement_ids[] = {
    { "FAIL vCPU", "which this host does not have online", "placement.offline-cpu",
      "pin to CPUs this host has online (lscpu -e): <vcpupin cpuset>" },
    { "FAIL emulator threads pinned to", "does not have online", "placement.offline-cpu",
      "pin to CPUs this host has online (lscpu -e): <emulatorpin cpuset>" },
    { "FAIL vCPU", "not pinned: an RT vCPU", "placement.rt-unpinned",
      "give every RT vCPU <vcpupin vcpu='N' cpuset='CPU'/> with one isolated CPU of its own" },
    { "FAIL vCPU", "an RT vCPU needs exactly one", "placement.rt-multi-cpu",
      "pin each RT vCPU to exactly one isolated host CPU (<vcpupin cpuset='CPU'/>)" },
    { "FAIL host CPU", " shared by ", "placement.cpu-shared",
      "give each RT vCPU a host CPU that no other vCPU may use" },
    { "FAIL emulator threads not pinned", NULL, "placement.emulator-unpinned",
      "add <emulatorpin cpuset='HOUSEKEEPING CPUS'/> to <cputune>" },
    { "FAIL emulator threads on CPUs", "which RT vCPUs use", "placement.emulator-on-rt",
      "move <emulatorpin> to housekeeping CPUs, apart from the RT vCPUs" },
    { "FAIL vCPU", "which is not isolated", "placement.not-isolated",
      "isolate the CPU at boot (`rtvirt host bootargs`) or pin the RT vCPU to an isolated CPU" },
    { "WARN vCPU", "SMT sibling", "placement.sibling-busy",
      "keep the sibling idle (host profile smt = idle-siblings), give the guest the whole core "
      "(threads='2'), or tag the VM with core scheduling" },
    { "NOTE", NULL, "placement.note", NULL },
    { "OK emulator threads on housekeeping", NULL, "placement.emulator-housekeeping", NULL },
    { "OK emulator threads on", NULL, "placement.emulator-apart", NULL },
    { "OK RT vCPUs on isolated", NULL, "placement.isolated", NULL },
    { "OK RT vCPU", "pinned 1:1", "placement.rt-pinned", NULL },
    { "OK no RT vCPU", NULL, "placement.no-rt", NULL },
    { "FAIL", NULL, "placement.rule", NULL },
    { "WARN", NULL, "placement.rule", NULL },
    { "OK", NULL, "placement.rule", NULL },
};

static void
add_placement_findings(RvFindings *out, const RvGuestPlacement *pl, const RvGuestHostCpus *host)
{
    g_autoptr(GPtrArray) lines = rv_guest_placement_check(pl, host);

    for (guint i = 0; i < lines->len; i++) {
        const char *line = lines->pdata[i];
        const char *sp = strchr(line, ' ');
        RvFindingLevel level = g_str_has_prefix(line, "FAIL") ? RV_FINDING_FAIL
                           : g_str_has_prefix(line, "WARN") ? RV_FINDING_WARN
                           : g_str_has_prefix(line, "NOTE") ? RV_FINDING_NOTE : RV_FINDING_PASS;

        for (size_t k = 0; k < G_N_ELEMENTS(placement_ids); k++) {
            if (!g_str_has_prefix(line, placement_ids[k].prefix) ||
                (placement_ids[k].contains && !strstr(line, placement_ids[k].contains)))
                continue;
            rv_findings_add(out, level, placement_ids[k].id, NULL, NULL, NULL,
                            placement_ids[k].fix, "%s", sp ? sp + 1 : line);
            break;
        }
    }
}

/* The host core holding @cpu, or NULL (@idx: rv_guest_host_cpus_core_index()). */
static const RvCpuSet *
core_of(const RvGuestHostCpus *host, const int *idx, int cpu)
{
    if (!host || !idx || cpu < 0 || cpu >= RV_CPUSET_MAX || idx[cpu] < 0)
        return NULL;
    return &g_array_index(host->cores, RvCpuSet, idx[cpu]);
}

/* threads = 1: host SMT siblings the guest does not know about.  Per host
 * CPU the vCPUs pinned to it alone (in vCPU order), so each vCPU looks at
 * its core's other threads only: O(vCPUs x threads per core). */
static gint
uint_cmp(gconstpointer x, gconstpointer y)
{
    unsigned a = *(const unsigned *) x, b = *(const unsigned *) y;

    return (a > b) - (a < b);
}

static void
check_hidden_siblings(RvFindings *out, const RvGuestPlacement *pl, const RvGuestHostCpus *host,
                      const int *idx)
{
    g_autofree int *first = g_new(int, RV_CPUSET_MAX);
    g_autofree int *last = g_new(int, RV_CPUSET_MAX);
    g_autofree int *next = g_new(int, MAX(pl->n_vcpus, 1));
    g_autofree int *cpu_of = g_new(int, MAX(pl->n_vcpus, 1));

    for (unsigned k = 0; k < RV_CPUSET_MAX; k++)
        first[k] = last[k] = -1;
    for (unsigned a = 0; a < pl->n_vcpus; a++) {
        const RvGuestVcpuPlacement *v = &pl->vcpus[a];
        int cpu = v->pinned && rv_cpuset_count(&v->cpuset) == 1 ? rv_cpuset_next(&v->cpuset, 0) : -1;

        next[a] = -1;
        cpu_of[a] = cpu;
        if (cpu < 0)
            continue;
        if (last[cpu] >= 0)
            next[last[cpu]] = (int) a;
        else
            first[cpu] = (int) a;
        last[cpu] = (int) a;
    }
    for (unsigned a = 0; a < pl->n_vcpus; a++) {
        const RvCpuSet *core = core_of(host, idx, cpu_of[a]);
        g_autoptr(GArray) partners = NULL;

        if (!core)
            continue;
        partners = g_array_new(FALSE, FALSE, sizeof(unsigned));
        rv_cpuset_foreach(cb, core) {
            if (cb == cpu_of[a])
                continue;
            for (int b = first[cb]; b >= 0; b = next[b])
                if ((unsigned) b > a) {
                    unsigned u = (unsigned) b;

                    g_array_append_val(partners, u);
                }
        }
        g_array_sort(partners, uint_cmp);
        for (guint k = 0; k < partners->len; k++) {
            unsigned b = g_array_index(partners, unsigned, k);

            rv_findings_add(out, RV_FINDING_NOTE, "topology.hidden-siblings", NULL, NULL, NULL,
                "set <topology threads='2'> with these vCPUs adjacent, so the guest knows they "
                "share a core",
                "vCPU%u (CPU %d) and vCPU%u (CPU %d) are SMT siblings on the host, separate "
                "cores in the guest (threads=1)", a, cpu_of[a], b, cpu_of[b]);
        }
    }
}

/* <topology> against <vcpu>, and guest SMT siblings on host SMT siblings. */
static void
check_topology(RvFindings *out, const RvGuestDomain *d, const RvGuestHostCpus *host, const int *idx)
{
    const RvGuestPlacement *pl = d->placement;
    unsigned T = d->threads;
    guint64 product = (guint64) d->sockets * d->dies * d->clusters * d->cores * d->threads;

    if (!d->has_topology)
        return;
    /* libvirt refuses to define such a domain (src/qemu/qemu_validate.c
     * "CPU topology doesn't match maximum vcpu count"): a FAIL, so that the
     * rest of the domain is judged too */
    if (product != pl->n_vcpus)
        rv_findings_add(out, RV_FINDING_FAIL, "topology.vcpu-count", NULL, NULL, NULL,
            "make sockets x dies x clusters x cores x threads equal <vcpu> (libvirt's QEMU "
            "driver refuses to define the domain otherwise)",
            "<topology> sockets %u x dies %u x clusters %u x cores %u x threads %u = %" G_GUINT64_FORMAT
            " vCPUs, <vcpu> is %u", d->sockets, d->dies, d->clusters, d->cores, d->threads,
            product, pl->n_vcpus);
    else
        rv_findings_add(out, RV_FINDING_PASS, "topology.vcpu-count", NULL, NULL, NULL, NULL,
            "<topology> sockets %u x dies %u x clusters %u x cores %u x threads %u = <vcpu> %u",
            d->sockets, d->dies, d->clusters, d->cores, d->threads, pl->n_vcpus);
    if (T > 1) {
        for (unsigned first = 0; first < pl->n_vcpus; first += T) {
            unsigned last = MIN(first + T, pl->n_vcpus) - 1;
            RvCpuSet all, cores;
            bool unpinned = false;
            g_autofree char *al = NULL;

            bool rt = false;

            rv_cpuset_zero(&all);
            rv_cpuset_zero(&cores);
            for (unsigned v = first; v <= last; v++) {
                unpinned |= !pl->vcpus[v].pinned;
                rt |= pl->vcpus[v].rt;
                rv_cpuset_or(&all, &all, &pl->vcpus[v].cpuset);
            }
            /* an unpinned guest core without RT vCPUs floats as any
             * guest's vCPUs do: nothing real-time is promised there */
            if (unpinned && !rt)
                continue;
            if (unpinned) {
                rv_findings_add(out, RV_FINDING_WARN, "topology.smt-siblings", NULL, NULL, NULL,
                    "pin the vCPUs of each guest core to the SMT siblings of one host core",
                    "vCPUs %u-%u are SMT siblings of one guest core (threads=%u) but not all pinned: "
                    "the guest balances by a core sharing that the host does not give",
                    first, last, T);
                continue;
            }
            if (!host)
                continue;
            rv_cpuset_foreach(c, &all) {
                const RvCpuSet *core = core_of(host, idx, c);

                if (core)
                    rv_cpuset_set(&cores, rv_cpuset_next(core, 0));
            }
            al = rv_cpulist_format(&all);
            if (rv_cpuset_count(&cores) > 1)
                rv_findings_add(out, RV_FINDING_FAIL, "topology.smt-siblings", &all, NULL, NULL,
                    "pin the vCPUs of each guest core to the SMT siblings of one host core, or set "
                    "<topology threads='1'>",
                    "vCPUs %u-%u are SMT siblings of one guest core (threads=%u), pinned to host CPUs %s "
                    "on %u different host cores", first, last, T, al, rv_cpuset_count(&cores));
            else
                rv_findings_add(out, RV_FINDING_PASS, "topology.smt-siblings", &all, NULL, NULL, NULL,
                    "vCPUs %u-%u (one guest core) on host CPUs %s of one host core", first, last, al);
        }
        return;
    }
    if (host)
        check_hidden_siblings(out, pl, host, idx);
}

/* RT vCPUs beside the pinned vCPUs of other domains. */
static void
check_neighbours(RvFindings *out, const RvGuestDomain *d, const RvGuestHostCpus *host,
                 const int *idx, const GPtrArray *neighbours)
{
    const RvGuestPlacement *pl = d->placement;

    for (guint n = 0; neighbours && n < neighbours->len; n++) {
        const RvGuestDomain *o = neighbours->pdata[n];
        const char *oname = o->name ? o->name : o->source;

        for (unsigned i = 0; i < pl->n_vcpus; i++) {
            const RvGuestVcpuPlacement *v = &pl->vcpus[i];

            if (!v->rt || !v->pinned)
                continue;
            for (unsigned j = 0; j < o->placement->n_vcpus; j++) {
                const RvGuestVcpuPlacement *w = &o->placement->vcpus[j];
                RvCpuSet sib, both;

                /* an unpinned vCPU follows the default affinity, which
                 * isolcpus= keeps off isolated CPUs */
                if (!w->pinned)
                    continue;
                rv_cpuset_and(&both, &v->cpuset, &w->cpuset);
                if (!rv_cpuset_is_empty(&both)) {
                    g_autofree char *bl = rv_cpulist_format(&both);

                    rv_findings_add(out, RV_FINDING_FAIL, "topology.foreign-vcpu-cpu", &both, NULL, NULL,
                        "give the RT vCPU a host CPU that no other guest's vCPU is pinned to",
                        "RT vCPU%u on host CPU %s, which vCPU%u of domain %s is pinned to as well",
                        i, bl, j, oname);
                    continue;
                }
                rv_cpuset_zero(&sib);
                rv_cpuset_foreach(c, &v->cpuset) {
                    const RvCpuSet *core = core_of(host, idx, c);

                    if (core)
                        rv_cpuset_or(&sib, &sib, core);
                }
                rv_cpuset_andnot(&sib, &sib, &v->cpuset);
                rv_cpuset_and(&both, &sib, &w->cpuset);
                if (!rv_cpuset_is_empty(&both)) {
                    g_autofree char *bl = rv_cpulist_format(&both), *vl = rv_cpulist_format(&v->cpuset);

                    rv_findings_add(out, RV_FINDING_WARN, "topology.foreign-vcpu-sibling", &both, NULL, NULL,
                        "keep the RT vCPU's SMT sibling idle or for this guest, or give the VMs "
                        "core-scheduling cookies of their own",
                        "RT vCPU%u on host CPU %s: its SMT sibling %s carries vCPU%u of domain %s",
                        i, vl, bl, j, oname);
                }
            }
        }
    }
}

/* vCPUs the guest isolates for RT work without an RT scheduler. */
static void
check_guest_isolated(RvFindings *out, const RvGuestDomain *d)
{
    rv_cpuset_foreach(i, &d->guest_isolated) {
        if ((unsigned) i >= d->placement->n_vcpus || d->placement->vcpus[i].rt)
            continue;
        rv_findings_add(out, RV_FINDING_WARN, "vcpu.isolated-not-rt", NULL, NULL, NULL,
            "add <vcpusched vcpus='N' scheduler='fifo' priority='P'/> for the vCPUs the guest "
            "isolates, or drop them from the guest's isolcpus=/nohz_full=",
            "vCPU%d is isolated by the guest kernel (<os><cmdline> isolcpus=/nohz_full=) but has "
            "no FIFO/RR <vcpusched>: its thread is not real-time on the host", i);
    }
}

/* What OpenStack Nova and KubeVirt write into the domain of every real-time
 * guest, judged where the domain has RT vCPUs (FIFO/RR <vcpusched>):
 * - the virtual PMU off: KubeVirt pkg/virt-launcher/virtwrap/converter/
 *   vcpu/vcpu.go (realtime: Features.PMU state off); Nova's hw:pmu extra
 *   spec (nova/api/validation/extra_specs/hw.py) exists for the same
 *   latency reason.  With a vPMU the guest's perf counters are host perf
 *   events programmed around every VM entry and exit of the RT vCPUs, and
 *   their overflow NMIs interrupt them;
 * - no KSM merging of guest memory: Nova nova/virt/libvirt/driver.py
 *   _get_guest_memory_backing_config() (real-time: locked, sharedpages off);
 *   KubeVirt (realtime with hugepages: NoSharePages).  A merged page is
 *   copied on the guest's next write to it (a copy-on-write fault on an RT
 *   vCPU).  Hugepage memory is never merged by KSM (Documentation/
 *   admin-guide/mm/ksm.rst: anonymous private pages only), so hugepages
 *   alone are enough. */
static void
check_rt_features(RvFindings *out, const RvGuestDomain *d)
{
    g_autoptr(GString) rt = g_string_new(NULL);

    for (unsigned i = 0; i < d->placement->n_vcpus; i++)
        if (d->placement->vcpus[i].rt)
            g_string_append_printf(rt, "%s%u", rt->len ? "," : "", i);
    if (!rt->len)
        return;
    if (d->pmu_off)
        rv_findings_add(out, RV_FINDING_PASS, "features.pmu-rt", NULL, "off", "off", NULL,
                        "the virtual PMU is off for RT vCPUs %s", rt->str);
    else
        rv_findings_add(out, RV_FINDING_WARN, "features.pmu-rt", NULL, "off", "on",
                        "add <pmu state='off'/> to <features>",
                        "RT vCPUs %s run with the virtual PMU on (no <features><pmu state='off'/>): "
                        "guest perf counters are host perf events switched at every VM entry and "
                        "exit, and their overflow NMIs interrupt the RT vCPUs", rt->str);
    if (d->nosharepages || d->hugepages)
        rv_findings_add(out, RV_FINDING_PASS, "memory.rt-shared-pages", NULL, NULL,
                        d->hugepages ? "hugepages" : "nosharepages", NULL,
                        "the RT guest's memory is not merged by KSM (%s)",
                        d->hugepages ? "hugepages" : "<nosharepages/>");
    else
        rv_findings_add(out, RV_FINDING_WARN, "memory.rt-shared-pages", NULL, "nosharepages", NULL,
                        "add <memoryBacking><nosharepages/></memoryBacking> (or back the guest with "
                        "hugepages), or stop KSM on the host (/sys/kernel/mm/ksm/run = 2)",
                        "RT vCPUs %s have memory KSM may merge (no <nosharepages/>, no hugepages): "
                        "the first write to a merged page is a copy-on-write fault on an RT vCPU",
                        rt->str);
}

/* <vcpupin> past <vcpu>: libvirt ignores them (virDomainVcpuPinDefParseXML()
 * "Ignoring vcpupin for missing vcpus", a log line nobody reads); rtvirt
 * warns, since the pin the author meant is not applied. */
static void
check_pins_past(RvFindings *out, const RvGuestDomain *d)
{
    const RvGuestPlacement *pl = d->placement;

    if (!pl->pins_past_vcpu)
        return;
    rv_findings_add(out, RV_FINDING_WARN, "vcpu.pin-past", NULL, NULL, NULL,
        "drop the <vcpupin> or raise <vcpu>",
        "%u <vcpupin> name%s a vCPU past <vcpu> %u (the first: vcpu='%u'): libvirt ignores %s, "
        "so that pin is never applied", pl->pins_past_vcpu, pl->pins_past_vcpu == 1 ? "s" : "",
        pl->n_vcpus, pl->first_pin_past, pl->pins_past_vcpu == 1 ? "it" : "them");
}

/* FIFO/RR priority outside 1-99: libvirt reads any integer but cannot
 * start the domain (src/util/virprocess.c virProcessSetScheduler():
 * "Scheduler priority %d out of range [1, 99]"); rtvirt says so before. */
static void
check_priorities(RvFindings *out, const RvGuestDomain *d)
{
    const RvGuestPlacement *pl = d->placement;

    for (unsigned i = 0; i < pl->n_vcpus; i++) {
        const RvGuestVcpuPlacement *v = &pl->vcpus[i];

        if (!v->rt || (v->priority >= 1 && v->priority <= 99))
            continue;
        rv_findings_add(out, RV_FINDING_FAIL, "vcpu.priority-range", NULL, "1-99", NULL,
            "give <vcpusched> a priority of 1-99 (sched(7) SCHED_FIFO/SCHED_RR)",
            "vCPU%u: %s priority %d: libvirt accepts the XML but cannot start the domain "
            "(sched_setscheduler(2) takes 1-99)", i, rv_guest_sched_policy_name(v->policy), v->priority);
        return;
    }
}

/* I/O threads against the RT vCPUs' host CPUs.  An unpinned I/O thread
 * is not with the emulator: libvirt 9.0 gives it <vcpu cpuset>, else
 * every online CPU (src/qemu/qemu_process.c qemuProcessSetupPid(),
 * qemuProcessGetAllCpuAffinity()), which isolcpus= does not stop. */
static void
check_iothreads(RvFindings *out, const RvGuestDomain *d, const RvGuestHostCpus *host)
{
    const RvGuestPlacement *pl = d->placement;

    if (rv_cpuset_is_empty(&pl->rt_cpus) || !d->iothreads)
        return;
    for (guint i = 0; i < d->iothreads->len; i++) {
        const RvGuestIothread *t = &g_array_index(d->iothreads, RvGuestIothread, i);
        bool rt = t->policy == RV_GUEST_SCHED_FIFO || t->policy == RV_GUEST_SCHED_RR;
        g_autofree char *sched = rt ? g_strdup_printf(" at %s %d", rv_guest_sched_policy_name(t->policy),
                                                      t->priority) : g_strdup("");
        RvCpuSet cpus, both;
        const char *how;

        if (t->pinned) {
            cpus = t->cpuset;
            how = "pinned to";
        } else if (pl->has_vcpu_cpuset) {
            cpus = pl->vcpu_cpuset;
            how = "unpinned, so on <vcpu cpuset>";
        } else {
            if (host)
                cpus = host->online;
            else
                cpus = pl->rt_cpus;
            how = "unpinned, so on every online CPU (libvirt qemuProcessSetupPid()):";
        }
        rv_cpuset_and(&both, &cpus, &pl->rt_cpus);
        if (rv_cpuset_is_empty(&both)) {
            g_autofree char *cl = rv_cpulist_format(&cpus);

            rv_findings_add(out, RV_FINDING_PASS, "iothread.rt-cpu", &cpus, NULL, NULL, NULL,
                            "I/O thread %u%s on CPUs %s, apart from the RT vCPUs", t->id, sched, cl);
            continue;
        }
        {
            g_autofree char *cl = rv_cpulist_format(&cpus), *bl = rv_cpulist_format(&both);

            rv_findings_add(out, RV_FINDING_FAIL, "iothread.rt-cpu", &both, NULL, NULL,
                "pin every I/O thread to housekeeping CPUs: <iothreadpin iothread='N' cpuset='CPUS'/>",
                "I/O thread %u%s %s CPUs %s, which include the RT vCPUs' CPUs %s", t->id, sched, how,
                cl, bl);
        }
    }
}

/* ------------------------------------------------------------------ */
/* Live threads                                                        */

static const char *
check_fix(const char *id)
{
    static const struct { const char *id, *fix; } fixes[] = {
        { "vcpu.threads", "the domain's vCPU threads do not match its XML: is this the right domain?" },
        { "vcpu.affinity", "libvirt applies <vcpupin> at start: `virsh vcpupin DOMAIN N CPU` or restart the domain" },
        { "vcpu.scheduler", "libvirt applies <vcpusched> at start; when it cannot (RT-group trap: "
                            "`rtvirt host check` rtgroup.trap) fix the host and restart the domain" },
        { "emulator.affinity", "`virsh emulatorpin DOMAIN CPUS` or restart the domain" },
        { "iothread.affinity", "`virsh iothreadpin DOMAIN ID CPUS` or restart the domain" },
        { "kthread.placement", "pin it to housekeeping CPUs (`taskset -pc CPUS TID`), or raise it above "
                               "the RT vCPUs (`chrt -f -p PRIO TID`; tuned realtime-virtual-host does)" },
        { "memory.locked", "libvirt needs CAP_SYS_RESOURCE to raise RLIMIT_MEMLOCK for <locked/>" },
        { "memory.hugepages", "reserve hugepages on the host (vm.nr_hugepages, hugepages= at boot) "
                              "before starting the domain" },
    };

    for (size_t i = 0; i < G_N_ELEMENTS(fixes); i++)
        if (strcmp(fixes[i].id, id) == 0)
            return fixes[i].fix;
    return NULL;
}

/* The verification's checks as findings; the thread named. */
static void
add_verification(RvFindings *out, const RvGuestVerification *v)
{
    for (guint i = 0; i < v->checks->len; i++) {
        const RvGuestCheck *c = v->checks->pdata[i];
        RvFindingLevel level = c->pass ? RV_FINDING_PASS
                           : strcmp(c->id, "kthread.placement") == 0 ? RV_FINDING_WARN : RV_FINDING_FAIL;

        if (c->thread)
            rv_findings_add(out, level, c->id, NULL, c->expected, c->actual, check_fix(c->id),
                            "%s: thread %d '%s'", c->what, c->tid, c->thread);
        else
            rv_findings_add(out, level, c->id, NULL, c->expected, c->actual, check_fix(c->id),
                            "%s", c->what);
    }
}

/* A vCPU the guest isolates whose thread is not FIFO/RR: not RT. */
static void
check_live_isolated(RvFindings *out, const RvGuestDomain *d, const RvGuestVerification *v)
{
    for (guint i = 0; i < v->checks->len; i++) {
        const RvGuestCheck *c = v->checks->pdata[i];
        unsigned vcpu;

        if (strcmp(c->id, "vcpu.scheduler") != 0 || sscanf(c->what, "vCPU %u", &vcpu) != 1 ||
            !rv_cpuset_isset(&d->guest_isolated, vcpu) || d->placement->vcpus[vcpu].rt)
            continue;
        if (g_str_has_prefix(c->actual, "fifo ") || g_str_has_prefix(c->actual, "rr "))
            continue;
        rv_findings_add(out, RV_FINDING_FAIL, "vcpu.isolated-not-fifo", NULL, "fifo or rr", c->actual,
                        "give the vCPU <vcpusched scheduler='fifo'>; when libvirt refuses it "
                        "(\"Cannot set scheduler parameters\": the RT-group trap, `rtvirt host "
                        "check` rtgroup.trap) fix the host first",
                        "vCPU %u thread %d '%s' runs %s, but the guest isolates vCPU %u for "
                        "real-time work: its latencies are not real-time",
                        vcpu, c->tid, c->thread ? c->thread : "?", c->actual, vcpu);
    }
}

static int
judge_live(RvFindings *out, const RvGuestDomain *d, const RvGuestHostCpus *host,
           const RvGuestLive *live, int *ret_pid, GError **error)
{
    g_autoptr(RvGuestVerification) v = NULL;
    RvCpuSet hk;
    int r;

    r = rv_guest_verify_threads(live->root, d->placement, live->vcpu_tids, live->n_tids, &v, error);
    if (r < 0)
        return r;
    if (v->qemu_pid <= 0)
        v->qemu_pid = live->qemu_pid;
    *ret_pid = v->qemu_pid;
    if ((r = rv_guest_verify_iothreads(live->root, v, d->iothreadpins, d->placement,
                                       host ? &host->online : NULL, error)) < 0)
        return r;
    if (host) {
        hk = host->housekeeping;
        if ((r = rv_guest_verify_helpers(live->root, v, d->placement, &hk, error)) < 0)
            return r;
    }
    if (d->locked && d->memory_bytes &&
        (r = rv_guest_verify_locked_memory(live->root, v, d->memory_bytes, error)) < 0)
        return r;
    if (d->hugepages && d->memory_bytes &&
        (r = rv_guest_verify_hugepages(live->root, v, d->memory_bytes, error)) < 0)
        return r;
    check_live_isolated(out, d, v);
    add_verification(out, v);
    return 0;
}

/* ------------------------------------------------------------------ */

int
rv_guest_check_judge(const RvGuestDomain *dom, const RvGuestHostCpus *host,
                     const GPtrArray *neighbours, const RvGuestLive *live,
                     RvGuestCheckReport **ret, GError **error)
{
    g_autoptr(RvGuestCheckReport) rep = g_new0(RvGuestCheckReport, 1);
    g_autofree int *idx = NULL;
    RvFindings *out;
    int r;

    rep->domain = g_strdup(dom->source);
    rep->name = g_strdup(dom->name);
    rep->qemu_pid = -1;
    rep->findings = out = rv_findings_new();
    add_placement_findings(out, dom->placement, host);
    idx = host ? rv_guest_host_cpus_core_index(host) : NULL;
    check_topology(out, dom, host, idx);
    check_neighbours(out, dom, host, idx, neighbours);
    check_guest_isolated(out, dom);
    check_rt_features(out, dom);
    check_pins_past(out, dom);
    check_priorities(out, dom);
    check_iothreads(out, dom, host);
    rv_guest_check_memory(out, dom, host);
    if (live) {
        if ((r = judge_live(out, dom, host, live, &rep->qemu_pid, error)) < 0)
            return r;
        rep->running = true;
    }
    /* stable: FAIL first, then WARN, NOTE, PASS, each in check order */
    rv_findings_sort_by_level(out);
    r = (int) out->counts[RV_FINDING_FAIL];
    *ret = g_steal_pointer(&rep);
    return r;
}

char *
rv_guest_check_format(const RvGuestCheckReport *rep)
{
    GString *s = g_string_new(NULL);

    rv_findings_format(s, rep->findings, true);
    rv_findings_format_summary(s, rv_finding_level_name(rv_findings_worst(rep->findings)),
                               rep->findings->counts, true);
    return g_string_free(s, FALSE);
}

void
rv_guest_check_findings_to_json(JsonBuilder *b, const RvGuestCheckReport *rep)
{
    rv_json_add_string_or_null(b, "verdict",
                               rv_finding_level_name(rv_findings_worst(rep->findings)));
    rv_findings_summary_to_json(b, rep->findings->counts);
    rv_json_add_int(b, "failures", rep->findings->counts[RV_FINDING_FAIL]);
    rv_findings_to_json(b, rep->findings);
}
