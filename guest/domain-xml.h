/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * guest/domain-xml.h: the libvirt domain XML of an RT guest, and reading
 * a domain's <cputune> back as a verification expectation.
 *
 * Format: https://libvirt.org/formatdomain.html (CPU Tuning, Memory Backing,
 * CPU model and topology, Hypervisor features, Direct kernel boot, Channel);
 * RT recommendations: https://libvirt.org/kbase/kvm-realtime.html.
 * Built with the libxml2 tree API (libvirt-gconfig has no <cputune>), never
 * by string concatenation.  Validated in tests with
 * `virt-xml-validate FILE domain` (libvirt's domain.rng).
 */
#pragma once

#include <stdbool.h>
#include <glib.h>

#include "guest/placement.h"
#include "guest/profile.h"

typedef enum {
    RV_GUEST_VIRT_KVM,   /* <domain type='kvm'>: /dev/kvm works for QEMU */
    RV_GUEST_VIRT_QEMU,  /* <domain type='qemu'>: TCG, same code path, slow */
} RvGuestVirtType;

/* "kvm" | "qemu" (the domain type attribute). */
const char *rv_guest_virt_type_name(RvGuestVirtType virt);

/* Where the built domain gets what the profile does not say.  Every field
 * may be NULL/0 unless noted. */
typedef struct {
    RvGuestVirtType virt;
    const char *name;          /* domain name; NULL = profile->name */
    const char *uuid;          /* NULL = none (libvirt makes one) */
    const char *kernel;        /* embedded image: <os><kernel>, required then */
    const char *initrd;        /* embedded image: <os><initrd>, required then */
    const char *disk;          /* disk image: overrides profile->disk_path */
    const char *cmdline;       /* disk image: with kernel and initrd, direct
                                * kernel boot with this whole <cmdline>
                                * (rv_guest_disk_image_cmdline()); NULL =
                                * boot from the disk */
    bool disk_writable;        /* a throwaway overlay: no <readonly/> whatever
                                * the profile's readonly says */
    const char *emulator;      /* QEMU binary (<devices><emulator>); NULL = libvirt's */
    const char *agent_socket;  /* <channel type='unix'> source path for
                                * org.qemu.guest_agent.0; NULL = libvirt picks */
    const char *serial_log;    /* file that receives the serial console
                                * (<serial type='file'>); NULL = pty */
} RvGuestDomainOptions;

/**
 * rv_guest_domain_xml_build:
 * @profile: the guest profile
 * @placement: its placement on this host (rv_guest_place())
 * @options: virt type, image paths, names
 * @ret_xml: (out): the domain XML document (UTF-8, with XML declaration
 *           left out, two-space indent, trailing newline), written only on
 *           success
 * @error: (optional): RV_ERROR_INVALID when a required option is missing
 *         (kernel/initrd for an embedded image, a disk path for a disk
 *         image) or @placement does not match @profile's vCPU count
 *
 * The domain holds: <vcpu placement='static'>; <cputune> with one vcpupin
 * per pinned vCPU, emulatorpin, one vcpusched per RT vCPU (fifo, priority);
 * <numatune><memory mode='strict' nodeset='N'/> when the RT vCPUs sit on
 * host NUMA node N of several;
 * <memory>/<currentMemory> in KiB; <memoryBacking> (hugepages [page size],
 * nosharepages, locked) as the profile asks; <os> with q35 and, for the
 * embedded image, <kernel>/<initrd>/<cmdline>
 * (rv_guest_profile_kernel_cmdline()), for a disk image with a kernel and
 * initrd and cmdline given the same with options->cmdline (a built disk image's own
 * kernel, guest/disk-image.h), else <boot dev='hd'/>; <features> acpi, apic, pmu
 * on/off, and for kvm <kvm><hint-dedicated state='on'/></kvm> when every
 * vCPU is pinned to one CPU; <cpu> with mode (host-passthrough /
 * host-model / custom model; 'maximum' under TCG for the host modes),
 * <topology sockets='1' dies='1' cores='vcpus/T' threads='T'> and, for kvm,
 * <feature policy='require' name='tsc-deadline'/>; <clock> with
 * kvm-clock; devices: the disk (virtio, cache none, io native) for a disk
 * image, a serial console, <channel type='unix'> with target virtio
 * name='org.qemu.guest_agent.0', and <memballoon model='none'/>.
 *
 * Returns: 0 or -EINVAL.
 */
int rv_guest_domain_xml_build(const RvGuestProfile *profile,
                              const RvGuestPlacement *placement,
                              const RvGuestDomainOptions *options,
                              char **ret_xml, GError **error) G_GNUC_WARN_UNUSED_RESULT;

/**
 * rv_guest_domain_xml_read_placement:
 * @xml: a domain XML document (ours, `virsh dumpxml`, or a template)
 * @name: the document's name for messages (a file path, "domain rt-demo")
 * @ret: (out): the expectation: per vCPU its vcpupin cpuset (pinned=false
 *       when none), vcpusched policy/priority (SCHED_OTHER/0 when none),
 *       and the emulatorpin cpuset; threads_per_core from <cpu><topology>
 *       (1 when absent); idle_siblings/rt_cpus empty; written only on success
 * @error: (optional): RV_ERROR_INVALID "NAME: ..." for unparsable XML, an
 *         invalid <vcpu>, a vcpusched naming a vCPU beyond it, a bad
 *         cpuset or scheduler, and what libvirt refuses: a second
 *         <vcpupin> for a vCPU, a second <emulatorpin>, <vcpusched>
 *         naming a vCPU twice
 *
 * Read as libvirt 9.0's src/conf/domain_conf.c does: no <vcpu> = 1 vCPU
 * (virDomainVcpuParse(); a documentation excerpt with "..." text: as many
 * as <cputune> names); <vcpu cpuset> (placement static) pins the vCPUs
 * without a <vcpupin> and, without <emulatorpin>, the emulator
 * (qemuProcessSetupPid()); a <vcpupin> past <vcpu> is ignored and counted
 * (pins_past_vcpu; virDomainVcpuPinDefParseXML()); a fifo/rr priority is
 * any integer (the judge FAILs one outside 1-99).  cpusets use
 * rv_guest_libvirt_cpuset_parse().  A vCPU is RT when its scheduler is
 * fifo or rr.  Other elements (iothreadpin, cachetune) are not read here.
 *
 * Returns: 0 or -EINVAL.
 */
int rv_guest_domain_xml_read_placement(const char *xml, const char *name,
                                       RvGuestPlacement **ret,
                                       GError **error) G_GNUC_WARN_UNUSED_RESULT;

/**
 * rv_guest_libvirt_cpuset_parse:
 * @str: libvirt cpuset, e.g. "1-4,^2" or "0,4"
 * @ret: (out): the set, written only on success
 * @error: (optional): RV_ERROR_INVALID naming the value
 *
 * libvirt's virBitmapParse() (src/util/virbitmap.c
 * virBitmapParseInternal()): comma separated CPU ids and ranges "a-b",
 * and "^N" items that remove N from what the items before it set (left to
 * right: "^2,1-2" is 1-2); spaces around items; a trailing comma; ids up
 * to VIR_DOMAIN_CPUMASK_LEN - 1 = 16383; an empty result is refused, as
 * every caller of it in domain_conf.c does.
 *
 * Returns: 0 or -EINVAL.
 */
int rv_guest_libvirt_cpuset_parse(const char *str, RvCpuSet *ret,
                                  GError **error) G_GNUC_WARN_UNUSED_RESULT;
