/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * guest/profile.h: guest profiles (profiles/guests/NAME.ini).
 *
 * A guest profile says what an RT guest looks like, independent of the
 * host: vCPU count and guest topology, which vCPUs are real-time, their
 * SCHED_FIFO priority, where the emulator threads go, memory backing, CPU
 * model, guest kernel arguments, the image, and the cyclictest run inside.
 * Placement on a given host is guest/placement.h; the libvirt domain is
 * guest/domain-xml.h.
 *
 * File format (util/ini.h, tuned-style INI; every key optional unless said):
 *
 *   [main]
 *   name = rt-demo                 # domain name; default: file name sans .ini
 *   description = ...
 *
 *   [cpu]
 *   vcpus = 2                      # 1-1024, required
 *   threads_per_core = 1           # guest SMT: <topology threads=...>, 1-8;
 *                                  # vcpus must be a multiple of it
 *   rt_vcpus = ^0                  # nova hw:cpu_realtime_mask syntax: "^LIST"
 *                                  # = every vCPU except LIST; or a plain
 *                                  # cpulist of vCPU ids; "none" = no RT
 *                                  # vCPU (throughput guest).  Default "^0".
 *   rt_priority = 1                # SCHED_FIFO priority of RT vCPU threads
 *                                  # on the host, 1-99 (libvirt vcpusched)
 *   host_sibling = idle            # idle: an RT vCPU gets a whole isolated
 *                                  # host core, its SMT siblings stay idle;
 *                                  # use: RT vCPUs may share a host core
 *   emulator = housekeeping        # housekeeping | nonrt-vcpus | CPULIST
 *                                  # (host CPUs; nova hw:emulator_threads_policy)
 *   mode = host-passthrough        # host-passthrough | host-model | custom
 *                                  # (libvirt <cpu mode>); under TCG the
 *                                  # domain uses mode='maximum' instead of
 *                                  # host-passthrough / host-model
 *   model = Skylake-Client       # <cpu><model> for mode = custom: a libvirt
 *                                  # cpu_map name (virsh cpu-models x86_64)
 *   pmu = false                    # <features><pmu state='on|off'/>
 *
 *   [memory]
 *   size = 512M                    # required (util/ini.h sizes)
 *   hugepages = false              # <memoryBacking><hugepages>
 *   hugepage_size = 2M             # 0/absent = the host's default size
 *   locked = true                  # <memoryBacking><locked/>
 *   nosharepages = true            # <memoryBacking><nosharepages/>
 *
 *   [placement]
 *   require_isolated = true        # false: on a host with no isolated CPU,
 *                                  # RT vCPUs go to the CPUs outside the
 *                                  # boot CPU's core, with a NOTE
 *
 *   [kernel]
 *   cmdline = console=ttyS0 ...    # guest kernel arguments
 *   isolate_rt_vcpus = true        # append isolcpus=/nohz_full=/rcu_nocbs=
 *                                  # for the RT vCPUs and irqaffinity= for
 *                                  # the others to the guest command line
 *
 *   [image]
 *   type = embedded                # embedded (rtvirt guest build) | disk
 *   path = /var/lib/rtvirt/x.qcow2 # for type = disk, required then
 *   format = qcow2                 # qcow2 | raw (disk)
 *   allow_path = /srv/rtvirt       # directories a disk may live in, besides
 *                                  # the image cache (rv_guest_image_default_
 *                                  # cache_dir()); not /, /etc, /usr, /boot,
 *                                  # /proc, /sys, /dev, /run, /root, /home
 *   readonly = true                # attach the disk read-only (default);
 *                                  # false lets the guest write it
 *   packages = mariadb-server      # type = disk without path: `rtvirt guest
 *                                  # image` builds the disk with mmdebstrap
 *                                  # from the host's apt sources, these
 *                                  # Debian packages added (guest/disk-image.h)
 *   base_image = /srv/cloud.qcow2  # type = disk: customise this image with
 *                                  # libguestfs on an overlay instead
 *   size = 2G                      # built root file system size; 0 = the
 *                                  # tree's size plus room to write
 *   tpcc_warehouses = 1            # load a TPC-C database (rtvirt-tpcc) into
 *                                  # the image when it is built; 0 = none
 *   tpcc_scale = small             # small | standard (tpcc/README.md)
 *
 *   [cyclictest]                   # rt-tests 2.x cyclictest(8), in the guest
 *   duration = 30s                 # -D, default run length
 *   priority = 95                  # -p, SCHED_FIFO inside the guest, 1-99
 *   interval = 1000us              # -i, in us
 *   histogram = 1000               # -h, buckets of 1 us; 0 = no histogram
 *   extra_args = --mlockall        # appended as given (words)
 */
#pragma once

#include <stdbool.h>
#include <glib.h>

#include "util/cpulist.h"
#include "util/ini.h"

typedef enum {
    RV_GUEST_EMULATOR_HOUSEKEEPING,  /* every housekeeping CPU of the host */
    RV_GUEST_EMULATOR_NONRT_VCPUS,   /* the CPUs of the non-RT vCPUs (nova "share") */
    RV_GUEST_EMULATOR_CPULIST,       /* the explicit host cpulist emulator_cpus */
} RvGuestEmulatorPolicy;

typedef enum {
    RV_GUEST_SIBLING_IDLE,  /* RT vCPU's host SMT siblings stay idle */
    RV_GUEST_SIBLING_USE,   /* other RT vCPUs may use them */
    RV_GUEST_SIBLING_SHARED,/* a whole core per RT vCPU, its other threads
                             * left to neighbour guests: never written in a
                             * guest profile, set by a matrix scenario's
                             * host_sibling = shared (harness/matrix.h) */
} RvGuestSiblingPolicy;

typedef enum {
    RV_GUEST_CPU_HOST_PASSTHROUGH,
    RV_GUEST_CPU_HOST_MODEL,
    RV_GUEST_CPU_CUSTOM,
} RvGuestCpuMode;

typedef enum {
    RV_GUEST_IMAGE_EMBEDDED,  /* kernel + initramfs from `rtvirt guest build` */
    RV_GUEST_IMAGE_DISK,      /* a disk image (libguestfs-built) */
} RvGuestImageKind;

typedef struct {
    char *name;               /* domain name */
    char *path;               /* the profile file as given */
    char *description;        /* may be NULL */

    /* [cpu] */
    unsigned vcpus;
    unsigned threads_per_core;
    RvCpuSet rt_vcpus;        /* guest vCPU ids, each < vcpus */
    char *rt_vcpus_spec;      /* as written ("^0"), for messages */
    int rt_priority;          /* host SCHED_FIFO priority, 1-99 */
    RvGuestSiblingPolicy host_sibling;
    RvGuestEmulatorPolicy emulator;
    RvCpuSet emulator_cpus;   /* host CPUs, for RV_GUEST_EMULATOR_CPULIST */
    RvGuestCpuMode cpu_mode;
    char *cpu_model;          /* for RV_GUEST_CPU_CUSTOM, else NULL */
    bool pmu;

    /* [memory] */
    guint64 memory_bytes;
    bool hugepages;
    guint64 hugepage_bytes;   /* 0 = host default */
    bool locked;
    bool nosharepages;

    /* [placement] */
    bool require_isolated;

    /* [kernel] */
    char *cmdline;            /* as written, may be "" */
    bool isolate_rt_vcpus;

    /* [image] */
    RvGuestImageKind image;
    char *disk_path;          /* RV_GUEST_IMAGE_DISK */
    char *disk_format;        /* "qcow2" | "raw" */
    char **disk_allow;        /* canonical allow_path dirs, NULL-terminated */
    bool disk_readonly;       /* <readonly/> on the disk (default true) */
    char **image_packages;    /* packages = ..., NULL-terminated, never NULL */
    char *base_image;         /* base_image = PATH or NULL */
    guint64 image_size_bytes; /* size = ..., 0 = automatic */
    unsigned tpcc_warehouses; /* 0 = no TPC-C database in the image */
    char *tpcc_scale;         /* "small" | "standard" */

    /* [cyclictest] */
    guint64 ct_duration_us;
    int ct_priority;
    guint64 ct_interval_us;
    unsigned ct_histogram;    /* buckets (us), 0 = none */
    char **ct_extra_args;     /* NULL-terminated, never NULL */
} RvGuestProfile;

void rv_guest_profile_free(RvGuestProfile *profile);
G_DEFINE_AUTOPTR_CLEANUP_FUNC(RvGuestProfile, rv_guest_profile_free)

/**
 * rv_guest_profile_name_valid:
 * @name: a guest or domain name ([main] name, `guest xml|run --name`)
 *
 * libvirt accepts almost any domain name, but rtvirt's lands in file
 * names, the journal and log lines: 1-64 characters of A-Z a-z 0-9 _ . -
 *
 * Returns: whether @name follows that rule.
 */
bool rv_guest_profile_name_valid(const char *name);

/**
 * rv_guest_profile_builds_image:
 * @profile: a profile
 *
 * Returns: whether the profile's disk is built by rtvirt (`[image] type =
 * disk` without `path`: mmdebstrap, or libguestfs for base_image).
 */
bool rv_guest_profile_builds_image(const RvGuestProfile *profile);

/**
 * rv_guest_profile_disk_allowed:
 * @profile: a profile
 * @path: a canonical absolute path
 *
 * The allow_path rule of [image]: whether a guest disk may live at @path
 * (under the image cache or one of the profile's allow_path directories).
 *
 * Returns: true when allowed.
 */
bool rv_guest_profile_disk_allowed(const RvGuestProfile *profile, const char *path);

/**
 * rv_guest_profile_load:
 * @path: a guest profile file (format above)
 * @ret: (out): the profile, written only on success
 * @error: (optional): RV_ERROR_INVALID "FILE:LINE: invalid KEY 'VALUE' in
 *         [SECTION]: WHY" for a bad value or an unknown key, "FILE: ..." for
 *         a contradiction between keys (e.g. rt_vcpus naming vCPU 4 of 4);
 *         RV_ERROR_FAILED when the file cannot be read
 *
 * Returns: 0 or -errno (-EINVAL for bad content).
 */
int rv_guest_profile_load(const char *path, RvGuestProfile **ret,
                          GError **error) G_GNUC_WARN_UNUSED_RESULT;

/* As rv_guest_profile_load() from an already loaded INI (tests, embedded
 * profiles); @ini's keys are marked used. */
int rv_guest_profile_from_ini(RvIni *ini, RvGuestProfile **ret,
                              GError **error) G_GNUC_WARN_UNUSED_RESULT;

/**
 * rv_guest_profile_parse_rt_mask:
 * @spec: "^0", "^0-1", "1-3", "all", "none" (nova hw:cpu_realtime_mask:
 *        https://docs.openstack.org/nova/latest/user/flavors.html, with a
 *        plain cpulist and "none" added)
 * @vcpus: number of vCPUs of the guest
 * @ret: (out): the RT vCPU ids, written only on success
 * @error: (optional): RV_ERROR_INVALID naming the value
 *
 * Returns: 0, or -EINVAL (bad syntax, a vCPU id >= @vcpus).
 */
int rv_guest_profile_parse_rt_mask(const char *spec, unsigned vcpus, RvCpuSet *ret,
                                   GError **error) G_GNUC_WARN_UNUSED_RESULT;

/**
 * rv_guest_profile_kernel_cmdline:
 * @profile: a profile
 *
 * The guest kernel command line: [kernel] cmdline, then, with
 * isolate_rt_vcpus and at least one RT vCPU, the guest's own isolation of
 * its RT vCPUs as tuned's realtime-virtual-guest profile writes it
 * (Documentation/admin-guide/kernel-parameters.txt):
 * "isolcpus=managed_irq,domain,LIST nohz=on nohz_full=LIST rcu_nocbs=LIST
 * irqaffinity=NONRT" where LIST are the RT vCPU ids (as guest CPU ids) and
 * NONRT the others.  Arguments already in cmdline are not repeated.
 *
 * Returns: (transfer full): the command line.
 */
char *rv_guest_profile_kernel_cmdline(const RvGuestProfile *profile);

/**
 * rv_guest_profile_cyclictest_argv:
 * @profile: a profile
 * @duration_us: run length in us; 0 = the profile's [cyclictest] duration
 *
 * The in-guest cyclictest command (rt-tests 2.x cyclictest(8)):
 * "cyclictest -m -q -p PRIO -i INTERVAL -D SECONDS [-h BUCKETS] -a LIST
 * -t N --mainaffinity=NONRT [extra_args]", one measuring thread per RT vCPU
 * (all vCPUs when none is RT), pinned with -a to the RT guest CPUs.
 * Durations are rounded up to whole seconds.
 *
 * Returns: (transfer full): NULL-terminated argv.
 */
char **rv_guest_profile_cyclictest_argv(const RvGuestProfile *profile,
                                        guint64 duration_us);
