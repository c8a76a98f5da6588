/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * guest/domain-xml.c: libvirt domain XML of an RT guest (libxml2 tree API),
 * and the <cputune> of any domain read back as a placement.
 *
 * Element reference: https://libvirt.org/formatdomain.html; RT choices:
 * https://libvirt.org/kbase/kvm-realtime.html (vcpupin 1:1, emulatorpin on
 * housekeeping CPUs, vcpusched fifo, locked hugepage memory, pmu off, no
 * memballoon).
 */
#include <errno.h>
#include <string.h>

#include <libxml/parser.h>
#include <libxml/tree.h>
#include <libxml/xmlsave.h>

#include "guest/domain-xml.h"
#include "util/error.h"
#include "util/xml.h"

G_DEFINE_AUTOPTR_CLEANUP_FUNC(xmlDoc, xmlFreeDoc)
G_DEFINE_AUTOPTR_CLEANUP_FUNC(xmlBuffer, xmlBufferFree)

#define BAD_X(s) ((const xmlChar *) (s))

const char *
rv_guest_virt_type_name(RvGuestVirtType virt)
{
    return virt == RV_GUEST_VIRT_KVM ? "kvm" : "qemu";
}

/* --- building -------------------------------------------------------------- */

static xmlNodePtr
child(xmlNodePtr parent, const char *name)
{
    return xmlNewChild(parent, NULL, BAD_X(name), NULL);
}

/* A child with escaped text content. */
static xmlNodePtr
text_child(xmlNodePtr parent, const char *name, const char *text)
{
    return xmlNewTextChild(parent, NULL, BAD_X(name), BAD_X(text));
}

static void
prop(xmlNodePtr node, const char *name, const char *value)
{
    xmlNewProp(node, BAD_X(name), BAD_X(value));
}

static void G_GNUC_PRINTF(3, 4)
propf(xmlNodePtr node, const char *name, const char *fmt, ...)
{
    g_autofree char *v = NULL;
    va_list ap;

    va_start(ap, fmt);
    v = g_strdup_vprintf(fmt, ap);
    va_end(ap);
    prop(node, name, v);
}

static void
add_cputune(xmlNodePtr dom, const RvGuestPlacement *pl)
{
    xmlNodePtr tune = child(dom, "cputune");

    for (unsigned i = 0; i < pl->n_vcpus; i++) {
        const RvGuestVcpuPlacement *vp = &pl->vcpus[i];
        g_autofree char *l = NULL;
        xmlNodePtr n;

        if (!vp->pinned)
            continue;
        l = rv_cpulist_format(&vp->cpuset);
        n = child(tune, "vcpupin");
        propf(n, "vcpu", "%u", vp->vcpu);
        prop(n, "cpuset", l);
    }
    if (pl->emulator_pinned) {
        g_autofree char *l = rv_cpulist_format(&pl->emulator);
        xmlNodePtr n = child(tune, "emulatorpin");

        prop(n, "cpuset", l);
    }
    /* One vcpusched per RT vCPU, as SEAPATH and OpenStack nova write it:
     * easy to read back vCPU by vCPU. */
    for (unsigned i = 0; i < pl->n_vcpus; i++) {
        const RvGuestVcpuPlacement *vp = &pl->vcpus[i];
        xmlNodePtr n;

        if (vp->policy == RV_GUEST_SCHED_OTHER)
            continue;
        n = child(tune, "vcpusched");
        propf(n, "vcpus", "%u", vp->vcpu);
        prop(n, "scheduler", rv_guest_sched_policy_name(vp->policy));
        if (vp->policy == RV_GUEST_SCHED_FIFO || vp->policy == RV_GUEST_SCHED_RR)
            propf(n, "priority", "%d", vp->priority);
    }
}

static void
add_memory(xmlNodePtr dom, const RvGuestProfile *profile)
{
    guint64 kib = profile->memory_bytes / 1024;
    g_autofree char *s = g_strdup_printf("%" G_GUINT64_FORMAT, kib);
    xmlNodePtr n;

    n = text_child(dom, "memory", s);
    prop(n, "unit", "KiB");
    n = text_child(dom, "currentMemory", s);
    prop(n, "unit", "KiB");
    if (profile->hugepages || profile->nosharepages || profile->locked) {
        xmlNodePtr mb = child(dom, "memoryBacking");

        if (profile->hugepages) {
            xmlNodePtr hp = child(mb, "hugepages");

            if (profile->hugepage_bytes) {
                xmlNodePtr page = child(hp, "page");

                propf(page, "size", "%" G_GUINT64_FORMAT, profile->hugepage_bytes / 1024);
                prop(page, "unit", "KiB");
            }
        }
        if (profile->nosharepages)
            child(mb, "nosharepages");
        if (profile->locked)
            child(mb, "locked");
    }
}

static bool
every_vcpu_dedicated(const RvGuestPlacement *pl)
{
    for (unsigned i = 0; i < pl->n_vcpus; i++)
        if (!pl->vcpus[i].pinned || rv_cpuset_count(&pl->vcpus[i].cpuset) != 1)
            return false;
    return true;
}

static void
add_cpu(xmlNodePtr dom, const RvGuestProfile *profile, RvGuestVirtType virt)
{
    xmlNodePtr cpu = child(dom, "cpu"), topo;
    unsigned T = profile->threads_per_core ? profile->threads_per_core : 1;

    switch (profile->cpu_mode) {
    case RV_GUEST_CPU_HOST_PASSTHROUGH:
    case RV_GUEST_CPU_HOST_MODEL:
        /* TCG cannot pass the host CPU through; 'maximum' (libvirt >= 7.1)
         * is the closest: every feature TCG emulates */
        if (virt == RV_GUEST_VIRT_QEMU) {
            prop(cpu, "mode", "maximum");
        } else if (profile->cpu_mode == RV_GUEST_CPU_HOST_PASSTHROUGH) {
            prop(cpu, "mode", "host-passthrough");
            prop(cpu, "migratable", "off");
        } else {
            prop(cpu, "mode", "host-model");
        }
        prop(cpu, "check", "none");
        break;
    case RV_GUEST_CPU_CUSTOM:
        prop(cpu, "mode", "custom");
        prop(cpu, "match", "exact");
        prop(cpu, "check", "none");
        text_child(cpu, "model", profile->cpu_model);
        break;
    }
    topo = child(cpu, "topology");
    prop(topo, "sockets", "1");
    prop(topo, "dies", "1");
    propf(topo, "cores", "%u", profile->vcpus / T);
    propf(topo, "threads", "%u", T);
    /* the guest's LAPIC timer in TSC-deadline mode, KVM-emulated without
     * a VM exit per programming (kbase kvm-realtime: "<feature
     * policy='require' name='tsc-deadline'/>"); TCG is no RT target */
    if (virt == RV_GUEST_VIRT_KVM) {
        xmlNodePtr f = child(cpu, "feature");

        prop(f, "policy", "require");
        prop(f, "name", "tsc-deadline");
    }
}

static void
add_features(xmlNodePtr dom, const RvGuestProfile *profile, const RvGuestPlacement *pl,
             RvGuestVirtType virt)
{
    xmlNodePtr f = child(dom, "features"), n;

    child(f, "acpi");
    child(f, "apic");
    n = child(f, "pmu");
    prop(n, "state", profile->pmu ? "on" : "off");
    /* KVM_HINTS_REALTIME: the guest may spin instead of halting when every
     * vCPU owns a host CPU (formatdomain "hint-dedicated"; libvirt accepts
     * it only with host-passthrough) */
    if (virt == RV_GUEST_VIRT_KVM && profile->cpu_mode == RV_GUEST_CPU_HOST_PASSTHROUGH &&
        every_vcpu_dedicated(pl)) {
        xmlNodePtr kvm = child(f, "kvm");

        n = child(kvm, "hint-dedicated");
        prop(n, "state", "on");
    }
}

/* A PCI address on the root complex, bus 0 (formatdomain "Device
 * Addresses"): on q35 libvirt puts every PCI device it addresses itself
 * behind a pcie-root-port of its own and adds a spare one; a device given
 * slot @slot of pcie.0 is an integrated endpoint and needs none
 * (doc/domain-xml.md: two root ports fewer for the guest's firmware and
 * kernel to enumerate). */
static void
add_root_address(xmlNodePtr dev, unsigned slot)
{
    xmlNodePtr a = child(dev, "address");

    prop(a, "type", "pci");
    prop(a, "domain", "0x0000");
    prop(a, "bus", "0x00");
    propf(a, "slot", "0x%02x", slot);
    prop(a, "function", "0x0");
}

/* pcie.0 slots of rtvirt's devices: 0 is the host bridge, 0x1f the ICH9
 * LPC/SATA/SMBus functions q35 always has */
enum { RV_SLOT_VIRTIO_SERIAL = 0x02, RV_SLOT_DISK = 0x03 };

static void
add_devices(xmlNodePtr dom, const RvGuestProfile *profile, const RvGuestDomainOptions *o,
            const char *disk)
{
    xmlNodePtr dev = child(dom, "devices"), n, m;

    if (o->emulator)
        text_child(dev, "emulator", o->emulator);
    if (profile->image == RV_GUEST_IMAGE_DISK) {
        n = child(dev, "disk");
        prop(n, "type", "file");
        prop(n, "device", "disk");
        m = child(n, "driver");
        prop(m, "name", "qemu");
        prop(m, "type", profile->disk_format ? profile->disk_format : "qcow2");
        /* no host page cache, native AIO: the host does not add latency
         * jitter through writeback */
        prop(m, "cache", "none");
        prop(m, "io", "native");
        m = child(n, "source");
        prop(m, "file", disk);
        m = child(n, "target");
        prop(m, "dev", "vda");
        prop(m, "bus", "virtio");
        /* the profile must say readonly = false for the guest to write it */
        if (profile->disk_readonly && !o->disk_writable)
            child(n, "readonly");
        add_root_address(n, RV_SLOT_DISK);
    }
    /* no USB controller: nothing polls it */
    n = child(dev, "controller");
    prop(n, "type", "usb");
    prop(n, "model", "none");
    /* the agent channel's controller, on pcie.0 rather than behind a root
     * port libvirt would add */
    n = child(dev, "controller");
    prop(n, "type", "virtio-serial");
    prop(n, "index", "0");
    add_root_address(n, RV_SLOT_VIRTIO_SERIAL);

    n = child(dev, "serial");
    prop(n, "type", "pty");
    if (o->serial_log) {
        m = child(n, "log");
        prop(m, "file", o->serial_log);
        prop(m, "append", "off");
    }
    m = child(n, "target");
    prop(m, "port", "0");
    n = child(dev, "console");
    prop(n, "type", "pty");
    m = child(n, "target");
    prop(m, "type", "serial");
    prop(m, "port", "0");

    n = child(dev, "channel");
    prop(n, "type", "unix");
    if (o->agent_socket) {
        m = child(n, "source");
        prop(m, "mode", "bind");
        prop(m, "path", o->agent_socket);
    }
    m = child(n, "target");
    prop(m, "type", "virtio");
    prop(m, "name", "org.qemu.guest_agent.0");

    n = child(dev, "memballoon");
    prop(n, "model", "none");
}

int
rv_guest_domain_xml_build(const RvGuestProfile *profile, const RvGuestPlacement *placement,
                          const RvGuestDomainOptions *options, char **ret_xml,
                          GError **error)
{
    g_autoptr(xmlDoc) doc = NULL;
    g_autoptr(xmlBuffer) buf = NULL;
    xmlNodePtr dom, os, n;
    xmlSaveCtxtPtr save;
    const char *disk = options->disk ? options->disk : profile->disk_path;
    const char *name = options->name ? options->name : profile->name;

    if (placement->n_vcpus != profile->vcpus)
        return rv_error_set(error, RV_ERROR_INVALID, EINVAL,
                            "%s: placement has %u vCPUs, the profile %u",
                            profile->path, placement->n_vcpus, profile->vcpus);
    if (profile->image == RV_GUEST_IMAGE_EMBEDDED && (!options->kernel || !options->initrd))
        return rv_error_set(error, RV_ERROR_INVALID, EINVAL,
                            "%s: the embedded image needs a kernel and an initrd (rtvirt guest build)",
                            profile->path);
    if (profile->image == RV_GUEST_IMAGE_DISK && !disk)
        return rv_error_set(error, RV_ERROR_INVALID, EINVAL,
                            "%s: type = disk needs a disk image path ([image] path)",
                            profile->path);

    doc = xmlNewDoc(BAD_X("1.0"));
    dom = xmlNewNode(NULL, BAD_X("domain"));
    xmlDocSetRootElement(doc, dom);
    prop(dom, "type", rv_guest_virt_type_name(options->virt));

    text_child(dom, "name", name);
    if (options->uuid)
        text_child(dom, "uuid", options->uuid);
    if (profile->description)
        text_child(dom, "description", profile->description);
    add_memory(dom, profile);

    {
        g_autofree char *s = g_strdup_printf("%u", profile->vcpus);

        n = text_child(dom, "vcpu", s);
        prop(n, "placement", "static");
    }
    add_cputune(dom, placement);
    if (placement->has_numa_node) {
        /* guest memory from the RT vCPUs' node only (formatdomain "NUMA
         * Node Tuning"; kbase kvm-realtime: hugepages of that node) */
        xmlNodePtr nt = child(dom, "numatune"), m = child(nt, "memory");

        prop(m, "mode", "strict");
        propf(m, "nodeset", "%u", placement->numa_node);
    }

    os = child(dom, "os");
    n = text_child(os, "type", "hvm");
    prop(n, "arch", "x86_64");
    prop(n, "machine", "q35");
    if (profile->image == RV_GUEST_IMAGE_EMBEDDED) {
        g_autofree char *cmdline = rv_guest_profile_kernel_cmdline(profile);

        text_child(os, "kernel", options->kernel);
        text_child(os, "initrd", options->initrd);
        text_child(os, "cmdline", cmdline);
    } else if (options->kernel && options->initrd && options->cmdline) {
        text_child(os, "kernel", options->kernel);
        text_child(os, "initrd", options->initrd);
        text_child(os, "cmdline", options->cmdline);
    } else {
        n = child(os, "boot");
        prop(n, "dev", "hd");
    }

    add_features(dom, profile, placement, options->virt);
    add_cpu(dom, profile, options->virt);

    n = child(dom, "clock");
    prop(n, "offset", "utc");
    {
        xmlNodePtr t;

        t = child(n, "timer");
        prop(t, "name", "rtc");
        prop(t, "tickpolicy", "catchup");
        t = child(n, "timer");
        prop(t, "name", "pit");
        prop(t, "tickpolicy", "delay");
        t = child(n, "timer");
        prop(t, "name", "hpet");
        prop(t, "present", "no");
        if (options->virt == RV_GUEST_VIRT_KVM) {
            t = child(n, "timer");
            prop(t, "name", "kvmclock");
            prop(t, "present", "yes");
        }
    }
    /* a guest run is one boot: reboot and crash end it */
    text_child(dom, "on_poweroff", "destroy");
    text_child(dom, "on_reboot", "destroy");
    text_child(dom, "on_crash", "destroy");

    add_devices(dom, profile, options, disk);

    buf = xmlBufferCreate();
    save = xmlSaveToBuffer(buf, "UTF-8", XML_SAVE_FORMAT | XML_SAVE_NO_DECL);
    if (!save || xmlSaveDoc(save, doc) < 0) {
        if (save)
            xmlSaveClose(save);
        return rv_error_set(error, RV_ERROR_FAILED, ENOMEM,
                            "%s: failed to serialise the domain XML", profile->path);
    }
    xmlSaveClose(save);
    *ret_xml = g_strndup((const char *) xmlBufferContent(buf), xmlBufferLength(buf));
    return 0;
}

/* --- reading --------------------------------------------------------------- */

/* libvirt's virSkipSpaces() (src/util/virstring.c): C-locale isspace(). */
static const char *
skip_spaces(const char *p)
{
    while (g_ascii_isspace(*p))
        p++;
    return p;
}

/* libvirt's virStrToLong_i() as virBitmapParseInternal() uses it: strtol
 * (leading spaces and a sign allowed), an int, no digits = error. */
static bool
str_to_int(const char *p, const char **ret_end, gint64 *ret)
{
    char *end;
    gint64 v;

    errno = 0;
    v = g_ascii_strtoll(p, &end, 10);
    if (end == p || errno || v < G_MININT || v > G_MAXINT)
        return false;
    *ret_end = end;
    *ret = v;
    return true;
}

int
rv_guest_libvirt_cpuset_parse(const char *str, RvCpuSet *ret, GError **error)
{
    const char *cur = skip_spaces(str);
    RvCpuSet set;

    rv_cpuset_zero(&set);
    if (!*cur)
        goto bad;
    /* virBitmapParseInternal() (src/util/virbitmap.c), item by item, left
     * to right: "N" sets, "N-M" sets a range, "^N" clears N from what the
     * items before it set; ids bounded by VIR_DOMAIN_CPUMASK_LEN */
    while (*cur) {
        bool neg = false;
        gint64 start, last;

        if (*cur == '^') {
            cur++;
            neg = true;
        }
        if (!g_ascii_isdigit(*cur) || !str_to_int(cur, &cur, &start) || start >= RV_CPUSET_MAX)
            goto bad;
        cur = skip_spaces(cur);
        if (*cur == ',' || !*cur) {
            if (neg)
                rv_cpuset_clear(&set, (unsigned) start);
            else
                rv_cpuset_set(&set, (unsigned) start);
        } else if (*cur == '-') {
            if (neg)
                goto bad;
            cur = skip_spaces(cur + 1);
            if (!str_to_int(cur, &cur, &last) || last < start || last >= RV_CPUSET_MAX)
                goto bad;
            rv_cpuset_set_range(&set, (unsigned) start, (unsigned) last);
            cur = skip_spaces(cur);
        }
        if (*cur == ',')
            cur = skip_spaces(cur + 1);
        else if (*cur)
            goto bad;
    }
    /* the callers (virDomainVcpuPinDefParseXML() and the others) refuse an
     * empty set: "Invalid value of 'cpuset'" */
    if (rv_cpuset_is_empty(&set))
        goto bad;
    *ret = set;
    return 0;
bad:
    return rv_error_set(error, RV_ERROR_INVALID, EINVAL,
                        "invalid cpuset '%s': expected CPU ids 0-%d, ranges a-b and ^N exclusions, "
                        "read left to right, not empty (libvirt virBitmapParse)",
                        str, RV_CPUSET_MAX - 1);
}

static char *
get_prop(xmlNodePtr n, const char *name)
{
    xmlChar *v = xmlGetProp(n, BAD_X(name));
    char *s = v ? g_strdup((const char *) v) : NULL;

    xmlFree(v);
    return s;
}

static int
parse_uint_prop(xmlNodePtr n, const char *attr, const char *name, guint64 max,
                guint64 *ret, GError **error)
{
    g_autofree char *v = get_prop(n, attr);

    if (!v || !g_ascii_string_to_unsigned(v, 10, 0, max, ret, NULL))
        return rv_error_set(error, RV_ERROR_INVALID, EINVAL,
                            "%s: line %ld: invalid %s='%s' in <%s>", name,
                            (long) xmlGetLineNo(n), attr, v ? v : "", (const char *) n->name);
    return 0;
}

static const char * const sched_names[] = { "other", "batch", "idle", "fifo", "rr", NULL };

/* What the steps of rv_guest_domain_xml_read_placement() share. */
typedef struct {
    const char *name;
    xmlNodePtr root, vcpu, tune;
    guint64 n_vcpus;
    RvGuestPlacement *p;
    bool *pinned_here;         /* per vCPU: a <vcpupin> of its own */
    bool *sched_here;          /* per vCPU: a <vcpusched> names it */
} Reader;

/* A libvirt documentation excerpt: "..." text directly in <domain>. */
static bool
is_excerpt(xmlNodePtr root)
{
    for (xmlNodePtr n = root->children; n; n = n->next)
        if (n->type == XML_TEXT_NODE && n->content && strstr((const char *) n->content, "..."))
            return true;
    return false;
}

/* <vcpu>: the vCPU count.  libvirt's virDomainVcpuParse()
 * (src/conf/domain_conf.c): absent, the domain has 1 vCPU.  A
 * documentation excerpt ("...") leaves it out while naming more: there,
 * as many vCPUs as the highest id <cputune> names. */
static int
read_vcpu_count(Reader *rd, GError **error)
{
    int r;

    if (rd->vcpu) {
        xmlChar *c = xmlNodeGetContent(rd->vcpu);
        g_autofree char *s = g_strstrip(g_strdup((const char *) c));

        xmlFree(c);
        if (!g_ascii_string_to_unsigned(s, 10, 1, 16384, &rd->n_vcpus, NULL))
            return rv_error_set(error, RV_ERROR_INVALID, EINVAL,
                                "%s: line %ld: invalid <vcpu> '%s': expected 1-16384 vCPUs", rd->name,
                                (long) xmlGetLineNo(rd->vcpu), s);
        return 0;
    }
    rd->n_vcpus = 1;
    if (!is_excerpt(rd->root))
        return 0;
    for (xmlNodePtr n = rd->tune ? rd->tune->children : NULL; n; n = n->next) {
        g_autofree char *v = NULL;
        RvCpuSet s;
        guint64 id;

        if (n->type != XML_ELEMENT_NODE)
            continue;
        if (xmlStrcmp(n->name, BAD_X("vcpupin")) == 0) {
            if ((r = parse_uint_prop(n, "vcpu", rd->name, 16383, &id, error)) < 0)
                return r;
            rd->n_vcpus = MAX(rd->n_vcpus, id + 1);
        } else if (xmlStrcmp(n->name, BAD_X("vcpusched")) == 0 && (v = get_prop(n, "vcpus")) &&
                   rv_guest_libvirt_cpuset_parse(v, &s, NULL) == 0) {
            rd->n_vcpus = MAX(rd->n_vcpus, (guint64) rv_cpuset_last(&s) + 1);
        }
    }
    return 0;
}

/* <vcpu cpuset='...'>: with placement static (the default), the affinity
 * of every thread that has no pin of its own (virDomainVcpuParse(); used
 * by src/qemu/qemu_process.c qemuProcessSetupPid()). */
static int
read_vcpu_cpuset(Reader *rd, GError **error)
{
    g_autofree char *placement = rd->vcpu ? get_prop(rd->vcpu, "placement") : NULL;
    g_autofree char *cs = rd->vcpu ? get_prop(rd->vcpu, "cpuset") : NULL;
    g_autoptr(GError) local = NULL;

    if (!cs || (placement && strcmp(placement, "auto") == 0))
        return 0;
    if (rv_guest_libvirt_cpuset_parse(cs, &rd->p->vcpu_cpuset, &local) < 0)
        return rv_error_set(error, RV_ERROR_INVALID, EINVAL, "%s: line %ld: <vcpu cpuset>: %s",
                            rd->name, (long) xmlGetLineNo(rd->vcpu), local->message);
    rd->p->has_vcpu_cpuset = true;
    return 0;
}

/* <vcpupin vcpu cpuset>: virDomainVcpuPinDefParseXML(): a second one for
 * a vCPU is refused; one past <vcpu> is ignored (a VIR_WARN). */
static int
read_vcpupin(Reader *rd, xmlNodePtr n, GError **error)
{
    g_autofree char *cs = NULL;
    g_autoptr(GError) local = NULL;
    RvCpuSet set;
    guint64 id;
    int r;

    if ((r = parse_uint_prop(n, "vcpu", rd->name, G_MAXUINT, &id, error)) < 0)
        return r;
    if (id >= rd->n_vcpus) {
        if (rd->p->pins_past_vcpu++ == 0)
            rd->p->first_pin_past = (unsigned) id;
        return 0;
    }
    cs = get_prop(n, "cpuset");
    if (rd->pinned_here[id])
        return rv_error_set(error, RV_ERROR_INVALID, EINVAL,
                            "%s: line %ld: a second <vcpupin vcpu='%u'>: libvirt refuses the domain "
                            "(\"duplicate vcpupin for vcpu\", virDomainVcpuPinDefParseXML)",
                            rd->name, (long) xmlGetLineNo(n), (unsigned) id);
    if (!cs || rv_guest_libvirt_cpuset_parse(cs, &set, &local) < 0)
        return rv_error_set(error, RV_ERROR_INVALID, EINVAL, "%s: line %ld: <vcpupin vcpu='%u'>: %s",
                            rd->name, (long) xmlGetLineNo(n), (unsigned) id,
                            local ? local->message : "no cpuset");
    rd->pinned_here[id] = true;
    rd->p->vcpus[id].pinned = true;
    rd->p->vcpus[id].cpuset = set;
    return 0;
}

/* <emulatorpin cpuset>: libvirt takes one (virDomainDefTunablesParse():
 * "only one emulatorpin is supported"). */
static int
read_emulatorpin(Reader *rd, xmlNodePtr n, GError **error)
{
    g_autofree char *cs = get_prop(n, "cpuset");
    g_autoptr(GError) local = NULL;
    RvCpuSet set;

    if (rd->p->emulator_pinned)
        return rv_error_set(error, RV_ERROR_INVALID, EINVAL,
                            "%s: line %ld: a second <emulatorpin>: libvirt refuses the domain "
                            "(\"only one emulatorpin is supported\")", rd->name, (long) xmlGetLineNo(n));
    if (!cs || rv_guest_libvirt_cpuset_parse(cs, &set, &local) < 0)
        return rv_error_set(error, RV_ERROR_INVALID, EINVAL, "%s: line %ld: <emulatorpin>: %s",
                            rd->name, (long) xmlGetLineNo(n), local ? local->message : "no cpuset");
    rd->p->emulator_pinned = true;
    rd->p->emulator = set;
    return 0;
}

/* <vcpusched vcpus scheduler priority>: virDomainThreadSchedParseHelper():
 * every vCPU named must exist, two elements must not name one vCPU, a
 * fifo/rr scheduler needs an integer priority (any int: the range is
 * checked only when the domain starts, virProcessSetScheduler(); the judge
 * names it, vcpu.priority-range). */
static int
read_vcpusched(Reader *rd, xmlNodePtr n, GError **error)
{
    g_autofree char *sched = get_prop(n, "scheduler");
    g_autofree char *prio = get_prop(n, "priority");
    g_autofree char *cs = get_prop(n, "vcpus");
    g_autoptr(GError) local = NULL;
    gint64 pr = 0;
    RvCpuSet set;
    int pol = -1;

    if (!cs || rv_guest_libvirt_cpuset_parse(cs, &set, &local) < 0)
        return rv_error_set(error, RV_ERROR_INVALID, EINVAL, "%s: line %ld: <vcpusched>: %s",
                            rd->name, (long) xmlGetLineNo(n), local ? local->message : "no vcpus");
    if (rv_cpuset_last(&set) >= (int) rd->n_vcpus)
        return rv_error_set(error, RV_ERROR_INVALID, EINVAL,
                            "%s: line %ld: <vcpusched vcpus='%s'> names vCPU %d, the domain has %u",
                            rd->name, (long) xmlGetLineNo(n), cs, rv_cpuset_last(&set),
                            (unsigned) rd->n_vcpus);
    for (int i = 0; sched && sched_names[i]; i++)
        if (strcmp(sched, sched_names[i]) == 0)
            pol = i;
    if (pol < 0)
        return rv_error_set(error, RV_ERROR_INVALID, EINVAL,
                            "%s: line %ld: invalid scheduler='%s' in <vcpusched>",
                            rd->name, (long) xmlGetLineNo(n), sched ? sched : "");
    if ((pol == RV_GUEST_SCHED_FIFO || pol == RV_GUEST_SCHED_RR) &&
        (!prio || !g_ascii_string_to_signed(prio, 10, G_MININT, G_MAXINT, &pr, NULL)))
        return rv_error_set(error, RV_ERROR_INVALID, EINVAL,
                            "%s: line %ld: invalid priority='%s' in <vcpusched>: expected 1-99",
                            rd->name, (long) xmlGetLineNo(n), prio ? prio : "");
    rv_cpuset_foreach(v, &set) {
        if (rd->sched_here[v])
            return rv_error_set(error, RV_ERROR_INVALID, EINVAL,
                                "%s: line %ld: <vcpusched vcpus='%s'> names vCPU %d again: libvirt refuses "
                                "the domain (\"'vcpusched' attributes 'vcpus' must not overlap\")",
                                rd->name, (long) xmlGetLineNo(n), cs, v);
        rd->sched_here[v] = true;
        rd->p->vcpus[v].policy = pol;
        rd->p->vcpus[v].priority = (int) pr;
        rd->p->vcpus[v].rt = pol == RV_GUEST_SCHED_FIFO || pol == RV_GUEST_SCHED_RR;
    }
    return 0;
}

/* What <vcpu cpuset> gives the threads without a pin of their own. */
static void
apply_vcpu_cpuset(RvGuestPlacement *p)
{
    if (!p->has_vcpu_cpuset)
        return;
    for (unsigned i = 0; i < p->n_vcpus; i++)
        if (!p->vcpus[i].pinned) {
            p->vcpus[i].pinned = true;
            p->vcpus[i].cpuset = p->vcpu_cpuset;
        }
    if (!p->emulator_pinned) {
        p->emulator_pinned = true;
        p->emulator_from_vcpu_cpuset = true;
        p->emulator = p->vcpu_cpuset;
    }
}

int
rv_guest_domain_xml_read_placement(const char *xml, const char *name, RvGuestPlacement **ret,
                                   GError **error)
{
    g_autoptr(xmlDoc) doc = NULL;
    g_autoptr(RvGuestPlacement) p = NULL;
    g_autofree bool *pinned_here = NULL, *sched_here = NULL;
    Reader rd = { .name = name };
    xmlNodePtr cpu;
    int r;

    doc = xmlReadMemory(xml, strlen(xml), name, NULL,
                        XML_PARSE_NONET | XML_PARSE_NOWARNING | XML_PARSE_NOERROR);
    if (!doc) {
        const xmlError *e = xmlGetLastError();

        return rv_error_set(error, RV_ERROR_INVALID, EINVAL, "%s: line %d: not well-formed XML: %s",
                            name, e ? e->line : 0, e && e->message ? g_strchomp(e->message) : "?");
    }
    rd.root = xmlDocGetRootElement(doc);
    if (!rd.root || xmlStrcmp(rd.root->name, BAD_X("domain")) != 0)
        return rv_error_set(error, RV_ERROR_INVALID, EINVAL,
                            "%s: the root element is not <domain>", name);
    rd.tune = rv_xml_child(rd.root, "cputune");
    rd.vcpu = rv_xml_child(rd.root, "vcpu");
    if ((r = read_vcpu_count(&rd, error)) < 0)
        return r;

    rd.p = p = rv_guest_placement_new((unsigned) rd.n_vcpus);
    rd.pinned_here = pinned_here = g_new0(bool, rd.n_vcpus);
    rd.sched_here = sched_here = g_new0(bool, rd.n_vcpus);
    if ((r = read_vcpu_cpuset(&rd, error)) < 0)
        return r;
    for (xmlNodePtr n = rd.tune ? rd.tune->children : NULL; n; n = n->next) {
        if (n->type != XML_ELEMENT_NODE)
            continue;
        if (xmlStrcmp(n->name, BAD_X("vcpupin")) == 0)
            r = read_vcpupin(&rd, n, error);
        else if (xmlStrcmp(n->name, BAD_X("emulatorpin")) == 0)
            r = read_emulatorpin(&rd, n, error);
        else if (xmlStrcmp(n->name, BAD_X("vcpusched")) == 0)
            r = read_vcpusched(&rd, n, error);
        if (r < 0)
            return r;
    }
    apply_vcpu_cpuset(p);

    cpu = rv_xml_child(rv_xml_child(rd.root, "cpu"), "topology");
    if (cpu) {
        g_autofree char *t = get_prop(cpu, "threads");
        guint64 th;

        if (t && g_ascii_string_to_unsigned(t, 10, 1, 64, &th, NULL))
            p->threads_per_core = (unsigned) th;
    }
    for (unsigned i = 0; i < p->n_vcpus; i++)
        if (p->vcpus[i].rt)
            rv_cpuset_or(&p->rt_cpus, &p->rt_cpus, &p->vcpus[i].cpuset);

    *ret = g_steal_pointer(&p);
    return 0;
}
