/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * harness/cmd-guest-xml.c: `rtvirt guest xml PROFILE [--host-profile P]
 * [--root DIR]`: place a guest profile on a host and print its libvirt
 * domain XML.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "guest/domain-xml.h"
#include "guest/image.h"
#include "guest/placement.h"
#include "guest/profile.h"
#include "harness/commands.h"
#include "harness/log.h"
#include "host/partition.h"
#include "guest/session.h"
#include "host/kvm.h"
#include "host/profile.h"
#include "host/topology.h"
#include "util/error.h"

/*
 * The domain type: kvm where the host offers hardware-assisted KVM
 * (host/kvm.h: /dev/kvm opens and is not PVM; a fixture root with
 * /sys/module/kvm, or without /sys/module at all, counts as a KVM host),
 * else qemu (TCG).  `rtvirt guest
 * run` also probes that QEMU really boots a KVM guest.
 */
static RvGuestVirtType
probe_virt(RvRoot *root, char **ret_reason)
{
    return rv_host_kvm_detect(root, ret_reason) == RV_HOST_KVM_HW ? RV_GUEST_VIRT_KVM
                                                                  : RV_GUEST_VIRT_QEMU;
}

/* `--check FILE`: a domain's <cputune> read back (guest/domain-xml.h) and
 * judged by rv_guest_placement_check() against the host's CPUs. */
static int
check_domain(const char *prog, const char *path, const char *root_dir, int argc)
{
    g_autoptr(GError) error = NULL;
    g_autoptr(RvRoot) root = NULL;
    g_autoptr(RvGuestHostCpus) host = NULL;
    g_autoptr(RvGuestPlacement) placement = NULL;
    g_autoptr(GPtrArray) findings = NULL;
    g_autofree char *xml = NULL;

    if (argc != 1) {
        rv_log_error("%s: --check takes no guest profile", prog);
        return RV_EXIT_ERROR;
    }
    if (!g_file_get_contents(path, &xml, NULL, &error))
        return rv_log_gerror(error, "Failed to read the domain XML");
    if (rv_guest_domain_xml_read_placement(xml, path, &placement, &error) < 0)
        return rv_log_gerror(error, "Failed to read the domain's CPU tuning");
    if (rv_host_root_open(root_dir, &root, &error) < 0)
        return rv_log_gerror(error, "Failed to open the host root");
    if (rv_guest_host_cpus_from_root(root, &host, &error) < 0)
        return rv_log_gerror(error, "Failed to read the host CPUs");
    findings = rv_guest_placement_check(placement, host);
    for (guint i = 0; i < findings->len; i++)
        printf("%s\n", (const char *) findings->pdata[i]);
    return rv_guest_placement_check_failures(findings) ? RV_EXIT_CHECK : RV_EXIT_OK;
}

int
rv_cmd_guest_xml(int argc, char **argv)
{
    g_autofree char *arg_host_profile = NULL, *arg_root = NULL, *arg_virt = NULL;
    g_autofree char *arg_kernel = NULL, *arg_initrd = NULL, *arg_disk = NULL;
    g_autofree char *arg_name = NULL, *arg_agent = NULL, *arg_serial_log = NULL;
    g_autofree char *arg_check = NULL;
    gboolean arg_show_placement = FALSE;
    GOptionEntry entries[] = {
        { "host-profile", 'H', 0, G_OPTION_ARG_FILENAME, &arg_host_profile,
          "Place on the CPU partition of this host profile (whole cores) instead of the host's current isolcpus",
          "FILE" },
        { "root", 0, 0, G_OPTION_ARG_FILENAME, &arg_root,
          "Read /sys and /proc under DIR (a captured fixture tree)", "DIR" },
        { "virt", 0, 0, G_OPTION_ARG_STRING, &arg_virt,
          "auto, kvm, tcg (alias qemu): domain type; auto (the default) is kvm where the host offers hardware KVM, else tcg (domain type 'qemu')",
          "TYPE" },
        { "kernel", 0, 0, G_OPTION_ARG_FILENAME, &arg_kernel,
          "Embedded image kernel (default: the cached `rtvirt guest build` image)", "PATH" },
        { "initrd", 0, 0, G_OPTION_ARG_FILENAME, &arg_initrd,
          "Embedded image initramfs (with --kernel)", "PATH" },
        { "disk", 0, 0, G_OPTION_ARG_FILENAME, &arg_disk,
          "Disk image for an [image] type = disk profile", "PATH" },
        { "name", 0, 0, G_OPTION_ARG_STRING, &arg_name,
          "Domain name (default: the profile's)", "NAME" },
        { "agent-socket", 0, 0, G_OPTION_ARG_FILENAME, &arg_agent,
          "Unix socket path of the qemu-guest-agent channel (default: libvirt's)", "PATH" },
        { "serial-log", 0, 0, G_OPTION_ARG_FILENAME, &arg_serial_log,
          "Log the serial console to FILE", "FILE" },
        { "show-placement", 0, 0, G_OPTION_ARG_NONE, &arg_show_placement,
          "Also print the placement, one line per vCPU, on stderr", NULL },
        { "check", 0, 0, G_OPTION_ARG_FILENAME, &arg_check,
          "Instead of building: judge the <cputune> of an existing domain XML FILE against this host (exit 1 on FAIL)",
          "FILE" },
        { NULL },
    };
    g_autoptr(GOptionContext) ctx =
        g_option_context_new("PROFILE - print the libvirt domain XML of a guest profile");
    g_autoptr(GError) error = NULL;
    g_autoptr(RvGuestProfile) profile = NULL;
    g_autoptr(RvRoot) root = NULL;
    g_autoptr(RvTopology) topo = NULL;
    g_autoptr(RvGuestHostCpus) host = NULL;
    g_autoptr(RvGuestPlacement) placement = NULL;
    g_autoptr(RvGuestImage) image = NULL;
    g_autofree char *xml = NULL;
    RvGuestDomainOptions opts = { 0 };

    g_option_context_add_main_entries(ctx, entries, NULL);
    g_option_context_set_description(ctx,
        "RT vCPUs go 1:1 on isolated CPUs, non-RT vCPUs and emulator threads on\n"
        "housekeeping CPUs.  Exit status: 0, 2 bad input, 77 this host lacks the\n"
        "CPUs the profile needs.");
    if (!g_option_context_parse(ctx, &argc, &argv, &error)) {
        rv_log_error("%s: %s", argv[0], error->message);
        return RV_EXIT_ERROR;
    }
    if (arg_check)
        return check_domain(argv[0], arg_check, arg_root, argc);
    if (argc != 2) {
        rv_log_error("%s: expected one guest profile, e.g. profiles/guests/rt-demo.ini", argv[0]);
        return RV_EXIT_ERROR;
    }
    if (!!arg_kernel != !!arg_initrd) {
        rv_log_error("%s: --kernel and --initrd go together", argv[0]);
        return RV_EXIT_ERROR;
    }
    {
        RvGuestVirtRequest req;

        if (rv_guest_virt_request_parse(arg_virt, &req, NULL) < 0) {
            rv_log_error("%s: invalid --virt '%s': expected auto, kvm, tcg (alias qemu)",
                         argv[0], arg_virt);
            return RV_EXIT_ERROR;
        }
        opts.virt = req == RV_GUEST_VIRT_REQUEST_KVM ? RV_GUEST_VIRT_KVM
                  : req == RV_GUEST_VIRT_REQUEST_TCG ? RV_GUEST_VIRT_QEMU
                  : (RvGuestVirtType) -1;   /* auto: probed below */
    }

    if (rv_guest_profile_load(argv[1], &profile, &error) < 0)
        return rv_log_gerror(error, "Failed to load the guest profile");
    if (rv_host_root_open(arg_root, &root, &error) < 0)
        return rv_log_gerror(error, "Failed to open the host root");
    if (rv_host_topology_load(root, &topo, &error) < 0)
        return rv_log_gerror(error, "Failed to read the host topology");

    if (arg_host_profile) {
        g_autoptr(RvHostProfile) hp = NULL;
        g_autoptr(RvHostPartition) part = NULL;
        g_autofree char *source = NULL, *base = g_path_get_basename(arg_host_profile);

        if (rv_host_profile_load(arg_host_profile, &hp, &error) < 0)
            return rv_log_gerror(error, "Failed to load the host profile");
        if (rv_host_partition_compute(hp, topo, &part, &error) < 0)
            return rv_log_gerror(error, "Failed to compute the host profile's CPU partition");
        if (rv_guest_host_cpus_from_topology(topo, &host) < 0)
            return RV_EXIT_ERROR;
        source = g_strdup_printf("the isolated set of host profile %s", base);
        rv_guest_host_cpus_apply_partition(host, part, source);
        {
            g_autoptr(RvGuestHostCpus) now = NULL;

            /* the profile is intent: say when the host is not there yet */
            if (rv_guest_host_cpus_from_root(root, &now, NULL) == 0 &&
                !rv_cpuset_equal(&now->isolated, &host->isolated)) {
                g_autofree char *want = rv_cpulist_format(&host->isolated);
                g_autofree char *have = rv_cpulist_format(&now->isolated);

                rv_log_info("NOTE %s isolates CPUs %s, the host has isolated '%s' now (boot with `rtvirt host bootargs`)",
                            base, want, have);
            }
        }
    } else if (rv_guest_host_cpus_from_root(root, &host, &error) < 0) {
        return rv_log_gerror(error, "Failed to read the host CPUs");
    }

    if (rv_guest_place(profile, host, &placement, &error) < 0)
        return rv_log_gerror(error, "Failed to place the guest");
    for (guint i = 0; i < placement->notes->len; i++)
        rv_log_info("%s", (const char *) placement->notes->pdata[i]);
    if (arg_show_placement) {
        g_autofree char *s = rv_guest_placement_format(placement);

        fputs(s, stderr);
    }

    if ((int) opts.virt < 0) {
        g_autofree char *why = NULL;

        opts.virt = probe_virt(root, &why);
        if (opts.virt == RV_GUEST_VIRT_QEMU)
            rv_log_info("NOTE %s: domain type 'qemu' (TCG), virt=tcg", why);
    }
    if (profile->image == RV_GUEST_IMAGE_EMBEDDED && !arg_kernel) {
        if (rv_guest_image_build(NULL, &image, &error) < 0)
            return rv_log_gerror(error, "Failed to find the embedded guest image");
        opts.kernel = image->kernel;
        opts.initrd = image->initrd;
    } else {
        opts.kernel = arg_kernel;
        opts.initrd = arg_initrd;
    }
    opts.disk = arg_disk;
    opts.name = arg_name;
    opts.agent_socket = arg_agent;
    opts.serial_log = arg_serial_log;

    if (rv_guest_domain_xml_build(profile, placement, &opts, &xml, &error) < 0)
        return rv_log_gerror(error, "Failed to build the domain XML");
    fputs(xml, stdout);
    if (fflush(stdout) != 0) {
        rv_log_error("Failed to write the domain XML: %s", g_strerror(errno));
        return RV_EXIT_ERROR;
    }
    return RV_EXIT_OK;
}
