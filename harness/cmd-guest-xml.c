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

#include "guest/check.h"
#include "guest/domain-xml.h"
#include "guest/image.h"
#include "guest/placement.h"
#include "guest/profile.h"
#include "harness/cmd-common.h"
#include "harness/commands.h"
#include "harness/log.h"
#include "host/profile/partition.h"
#include "guest/session.h"
#include "host/facts/kvm.h"
#include "host/profile/profile.h"
#include "host/facts/topology.h"
#include "util/error.h"
#include "util/file.h"
#include "util/finding.h"
#include "util/json.h"
#include "util/profile-path.h"

/*
 * The domain type: kvm where the host offers hardware-assisted KVM
 * (host/facts/kvm.h: /dev/kvm opens and is not PVM; a fixture root with
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

static char *arg_virt, *arg_kernel, *arg_initrd, *arg_disk, *arg_name, *arg_agent;
static char *arg_serial_log, *arg_check;
static gboolean arg_show_placement;

/* --check's JSON: {schema_version, domain_xml, verdict, summary, failures,
 * findings: [{level, id, message, fix, cpus, expected, actual}]} */
static JsonNode *
report_to_json(const char *file, const RvGuestCheckReport *rep)
{
    g_autoptr(JsonBuilder) b = json_builder_new();

    rv_cmd_json_begin(b, RV_GUEST_CHECK_SCHEMA_VERSION);
    rv_json_add_string_or_null(b, "domain_xml", file);
    rv_guest_check_findings_to_json(b, rep);
    json_builder_end_object(b);
    return json_builder_get_root(b);
}

/* `--check FILE|-`: a domain's <cputune> and <topology> read back
 * (guest/check.h) and judged against the host's CPUs. */
static int
check_domain(const char *prog, const char *path, const char *root_dir, int argc)
{
    g_autoptr(GError) error = NULL;
    g_autoptr(RvRoot) root = NULL;
    g_autoptr(RvGuestHostCpus) host = NULL;
    g_autoptr(RvGuestDomain) dom = NULL;
    g_autoptr(RvGuestCheckReport) rep = NULL;
    g_autofree char *xml = NULL;
    const char *name = strcmp(path, "-") == 0 ? "<stdin>" : path;
    gssize n;

    if (argc != 1) {
        rv_log_error("%s: --check takes no guest profile", prog);
        return RV_EXIT_ERROR;
    }
    n = strcmp(path, "-") == 0 ? rv_file_read_fd(STDIN_FILENO, name, RV_FILE_READ_MAX, &xml, &error)
                               : rv_file_read(path, RV_FILE_READ_MAX, &xml, &error);
    if (n < 0)
        return rv_log_gerror(error, "Failed to read the domain XML");
    if (rv_guest_domain_load(xml, name, &dom, &error) < 0)
        return rv_log_gerror(error, "Failed to read the domain's CPU tuning");
    if (rv_host_root_open(root_dir, &root, &error) < 0)
        return rv_log_gerror(error, "Failed to open the host root");
    if (rv_guest_host_cpus_from_root(root, &host, &error) < 0)
        return rv_log_gerror(error, "Failed to read the host CPUs");
    rv_guest_host_memory_load(root, host);
    if (rv_guest_check_judge(dom, host, NULL, NULL, &rep, &error) < 0)
        return rv_log_gerror(error, "Failed to judge the domain");
    if (rv_cmd_common.json) {
        g_autoptr(JsonNode) node = report_to_json(name, rep);

        if (rv_cmd_print_json(node) < 0)
            return RV_EXIT_ERROR;
    } else {
        g_autofree char *text = rv_guest_check_format(rep);

        fputs(text, stdout);
    }
    return rep->findings->counts[RV_FINDING_FAIL] ? RV_EXIT_CHECK : RV_EXIT_OK;
}

/* The CPUs to place on: the host profile's partition (--host-profile, a
 * NOTE when the host is not booted that way yet) or the host's now. */
static int
host_cpus_for(RvRoot *root, RvTopology *topo, RvGuestHostCpus **ret_host)
{
    g_autoptr(RvHostProfile) hp = NULL;
    g_autoptr(RvHostPartition) part = NULL;
    g_autoptr(RvGuestHostCpus) host = NULL, now = NULL;
    g_autoptr(GError) error = NULL;
    g_autofree char *path = NULL, *source = NULL, *base = NULL;

    if (!rv_cmd_common.host_profile) {
        if (rv_guest_host_cpus_from_root(root, ret_host, &error) < 0)
            return rv_log_gerror(error, "Failed to read the host CPUs");
        return 0;
    }
    if (rv_profile_find(RV_PROFILE_HOST, rv_cmd_common.host_profile, &path, &error) < 0)
        return rv_log_gerror(error, NULL);
    base = g_path_get_basename(path);
    if (rv_host_profile_load(path, &hp, &error) < 0)
        return rv_log_gerror(error, "Failed to load the host profile");
    if (rv_host_partition_compute(hp, topo, &part, &error) < 0)
        return rv_log_gerror(error, "Failed to compute the host profile's CPU partition");
    if (rv_guest_host_cpus_from_topology(topo, &host) < 0)
        return RV_EXIT_ERROR;
    source = g_strdup_printf("the isolated set of host profile %s", base);
    rv_guest_host_cpus_apply_partition(host, part, source);
    /* the profile is intent: say when the host is not there yet */
    if (rv_guest_host_cpus_from_root(root, &now, NULL) == 0 &&
        !rv_cpuset_equal(&now->isolated, &host->isolated)) {
        g_autofree char *want = rv_cpulist_format(&host->isolated);
        g_autofree char *have = rv_cpulist_format(&now->isolated);

        rv_log_info("NOTE %s isolates CPUs %s, the host has %s%s isolated now "
                    "(rtvirt host bootargs %s --install, then reboot)",
                    base, want, *have ? "CPUs " : "none", have, path);
    }
    *ret_host = g_steal_pointer(&host);
    return 0;
}

/* --virt, the probe for auto, the image files and the names into @opts. */
static int
domain_options(const char *prog, RvRoot *root, const RvGuestProfile *profile,
               RvGuestDomainOptions *opts, RvGuestImage **ret_image)
{
    g_autoptr(GError) error = NULL;
    RvGuestVirtRequest req;

    if (rv_guest_virt_request_parse(arg_virt, &req, NULL) < 0) {
        rv_log_error("%s: invalid --virt '%s': expected auto, kvm, tcg (alias qemu)",
                     prog, arg_virt);
        return RV_EXIT_ERROR;
    }
    if (req == RV_GUEST_VIRT_REQUEST_KVM) {
        opts->virt = RV_GUEST_VIRT_KVM;
    } else if (req == RV_GUEST_VIRT_REQUEST_TCG) {
        opts->virt = RV_GUEST_VIRT_QEMU;
    } else {
        g_autofree char *why = NULL;

        opts->virt = probe_virt(root, &why);
        if (opts->virt == RV_GUEST_VIRT_QEMU)
            rv_log_info("NOTE %s: domain type 'qemu' (TCG), virt=tcg", why);
    }
    if (profile->image == RV_GUEST_IMAGE_EMBEDDED && !arg_kernel) {
        if (rv_guest_image_build(NULL, ret_image, &error) < 0)
            return rv_log_gerror(error, "Failed to find the embedded guest image");
        opts->kernel = (*ret_image)->kernel;
        opts->initrd = (*ret_image)->initrd;
    } else {
        opts->kernel = arg_kernel;
        opts->initrd = arg_initrd;
    }
    opts->disk = arg_disk;
    opts->name = arg_name;
    opts->agent_socket = arg_agent;
    opts->serial_log = arg_serial_log;
    return 0;
}

/* --json without --check: the XML and the placement in one document. */
static int
print_xml_json(const char *profile_path, const RvGuestPlacement *placement, const char *xml,
               RvGuestVirtType virt)
{
    g_autoptr(JsonBuilder) b = json_builder_new();
    g_autoptr(JsonNode) node = NULL;
    g_autofree char *pl = rv_guest_placement_format(placement);
    g_auto(GStrv) lines = g_strsplit(pl, "\n", -1);

    rv_cmd_json_begin(b, 1);
    json_builder_set_member_name(b, "profile");
    json_builder_add_string_value(b, profile_path);
    json_builder_set_member_name(b, "domain_type");
    json_builder_add_string_value(b, virt == RV_GUEST_VIRT_KVM ? "kvm" : "qemu");
    json_builder_set_member_name(b, "placement");
    json_builder_begin_array(b);
    for (guint i = 0; lines[i]; i++)
        if (*lines[i])
            json_builder_add_string_value(b, lines[i]);
    json_builder_end_array(b);
    json_builder_set_member_name(b, "xml");
    json_builder_add_string_value(b, xml);
    json_builder_end_object(b);
    node = json_builder_get_root(b);
    return rv_cmd_print_json(node) < 0 ? RV_EXIT_ERROR : 0;
}

static const RvCmdSpec guest_xml_spec = {
    .params = "PROFILE - print the libvirt domain XML of a guest profile",
    .description =
        "RT vCPUs go 1:1 on isolated CPUs, non-RT vCPUs and emulator threads on\n"
        "housekeeping CPUs.  PROFILE is a file or a name ('rtvirt profiles').\n"
        "--json prints {schema_version, profile, domain_type, placement, xml}, with\n"
        "--check FILE|- judges an existing domain XML (stdin for -): its <cputune>,\n"
        "<topology> against <vcpu> and the host's SMT siblings, in host check's form\n"
        "(LEVEL  id: message, fix: lines; ids in rtvirt(1) under guest check); --json\n"
        "then prints {schema_version, domain_xml, verdict, summary, failures,\n"
        "findings: [{level, id, message, fix, cpus, expected, actual}]}.",
    .exit_status = "0, 1 a --check FAIL, 2 bad input, 77 this host lacks the\n"
                   "CPUs the profile needs.",
    .common = RV_COMMON_JSON | RV_COMMON_ROOT | RV_COMMON_HOST_PROFILE,
    .root_help = "Read /sys and /proc under DIR (a captured fixture tree)",
    .host_profile_help = "Place on the CPU partition of this host profile (whole cores) "
                         "instead of the host's current isolcpus",
};

int
rv_cmd_guest_xml(int argc, char **argv)
{
    const GOptionEntry entries[] = {
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
          "Instead of building: judge an existing domain XML FILE (- for stdin) against this host: <cputune>, <topology>, SMT siblings (exit 1 on FAIL)",
          "FILE" },
        { NULL },
    };
    g_autoptr(GError) error = NULL;
    g_autoptr(RvGuestProfile) profile = NULL;
    g_autoptr(RvRoot) root = NULL;
    g_autoptr(RvTopology) topo = NULL;
    g_autoptr(RvGuestHostCpus) host = NULL;
    g_autoptr(RvGuestPlacement) placement = NULL;
    g_autoptr(RvGuestImage) image = NULL;
    g_autofree char *xml = NULL, *path = NULL;
    RvGuestDomainOptions opts = { 0 };

    if (rv_cmd_parse(&guest_xml_spec, entries, &argc, &argv) < 0)
        return RV_EXIT_ERROR;
    if (arg_check)
        return check_domain(argv[0], arg_check, rv_cmd_common.root, argc);
    if (argc != 2) {
        rv_log_error("%s: expected one guest profile, e.g. profiles/guests/rt-demo.ini", argv[0]);
        return RV_EXIT_ERROR;
    }
    if (!!arg_kernel != !!arg_initrd) {
        rv_log_error("%s: --kernel and --initrd go together", argv[0]);
        return RV_EXIT_ERROR;
    }
    if (arg_name && !rv_guest_profile_name_valid(arg_name)) {
        rv_log_error("%s: invalid --name '%s': expected 1-64 characters of A-Z a-z 0-9 _ . -",
                     argv[0], arg_name);
        return RV_EXIT_ERROR;
    }
    if (rv_guest_virt_request_parse(arg_virt, &(RvGuestVirtRequest) { 0 }, NULL) < 0) {
        rv_log_error("%s: invalid --virt '%s': expected auto, kvm, tcg (alias qemu)",
                     argv[0], arg_virt);
        return RV_EXIT_ERROR;
    }
    if (rv_profile_find(RV_PROFILE_GUEST, argv[1], &path, &error) < 0)
        return rv_log_gerror(error, NULL);
    if (rv_guest_profile_load(path, &profile, &error) < 0)
        return rv_log_gerror(error, "Failed to load the guest profile");
    if (rv_host_root_open(rv_cmd_common.root, &root, &error) < 0)
        return rv_log_gerror(error, "Failed to open the host root");
    if (rv_host_topology_load(root, &topo, &error) < 0)
        return rv_log_gerror(error, "Failed to read the host topology");
    if (host_cpus_for(root, topo, &host) != 0)
        return RV_EXIT_ERROR;

    if (rv_guest_place(profile, host, &placement, &error) < 0)
        return rv_log_gerror(error, "Failed to place the guest");
    for (guint i = 0; i < placement->notes->len; i++)
        rv_log_info("%s", (const char *) placement->notes->pdata[i]);
    if (arg_show_placement) {
        g_autofree char *s = rv_guest_placement_format(placement);

        fputs(s, stderr);
    }
    if (domain_options(argv[0], root, profile, &opts, &image) != 0)
        return RV_EXIT_ERROR;
    if (rv_guest_domain_xml_build(profile, placement, &opts, &xml, &error) < 0)
        return rv_log_gerror(error, "Failed to build the domain XML");
    if (rv_cmd_common.json)
        return print_xml_json(path, placement, xml, opts.virt);
    fputs(xml, stdout);
    if (fflush(stdout) != 0) {
        rv_log_error("Failed to write the domain XML: %s", g_strerror(errno));
        return RV_EXIT_ERROR;
    }
    return RV_EXIT_OK;
}
