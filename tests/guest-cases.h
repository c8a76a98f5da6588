/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * tests/guest-cases.h: placement cases shared by test-placement.c and
 * test-domainxml.c.
 *
 * A case is tests/data/domainxml/NAME.case (util/ini.h format):
 *
 *   [case]
 *   topology = cases:FILE | data:FILE  # tests/data/cases/topology/FILE or
 *                                      # tests/data/domainxml/topology/FILE;
 *                                      # sysfs-*.txt dumps become a fixture
 *                                      # tree read by rv_guest_host_cpus_from_root()
 *   isolated = CPULIST                 # the host's /sys/devices/system/cpu/isolated
 *                                      # (written into the tree), from the
 *                                      # topology's .source.txt verdicts
 *   host_profile = PATH                # instead: a host profile's partition
 *   reserved = CPULIST                 # CPUs other guests hold
 *   guest = PATH                       # guest profile, relative to RV_TOP
 *   virt = kvm | qemu                  # domain type (default kvm)
 *   xml = yes | no                     # build the domain (default yes)
 *
 * Expected: NAME.placement (rv_guest_placement_format(), or "refused
 * (CODE): MESSAGE") and NAME.xml; RV_REGENERATE=1 rewrites them.
 */
#pragma once

#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include <glib.h>

#include "guest/domain-xml.h"
#include "guest/placement.h"
#include "guest/profile.h"
#include "host/profile/partition.h"
#include "host/profile/profile.h"
#include "host/facts/topology.h"
#include "util/error.h"
#include "util/ini.h"
#include "tests/testutil.h"

static inline char *
gc_data_path(const char *rel)
{
    return g_build_filename(rv_test_top_dir(), "tests/data/domainxml", rel, NULL);
}

/* Sorted NAME list of tests/data/domainxml/NAME.case. */
static inline GPtrArray *
gc_list_cases(void)
{
    g_autofree char *dir = gc_data_path(NULL);
    g_autoptr(GDir) d = g_dir_open(dir, 0, NULL);
    GPtrArray *names = g_ptr_array_new_with_free_func(g_free);
    const char *n;

    g_assert_nonnull(d);
    while ((n = g_dir_read_name(d)))
        if (g_str_has_suffix(n, ".case"))
            g_ptr_array_add(names, g_strndup(n, strlen(n) - 5));
    g_ptr_array_sort(names, rv_test_cmp_names);
    return names;
}

typedef struct {
    char *name;
    RvGuestProfile *profile;
    RvGuestPlacement *placement;   /* NULL when refused */
    RvGuestHostCpus *host;         /* the host it was placed on */
    GError *refused;               /* the reason, when refused */
    RvGuestVirtType virt;
    bool xml;
} GcResult;

static inline void
gc_result_free(GcResult *r)
{
    if (!r)
        return;
    g_free(r->name);
    rv_guest_profile_free(r->profile);
    rv_guest_placement_free(r->placement);
    rv_guest_host_cpus_free(r->host);
    g_clear_error(&r->refused);
    g_free(r);
}
G_DEFINE_AUTOPTR_CLEANUP_FUNC(GcResult, gc_result_free)

/* Loads the topology of @spec ("cases:FILE" / "data:FILE") into host CPUs,
 * with the host's isolated set @isolated (NULL = the fixture's own). */
static inline RvGuestHostCpus *
gc_load_host(const char *spec, const char *isolated, RvTopology **ret_topo)
{
    g_autoptr(GError) err = NULL;
    g_autofree char *path = NULL;
    g_autoptr(RvTopology) topo = NULL;
    RvGuestHostCpus *host = NULL;
    const char *file;
    int r;

    if (g_str_has_prefix(spec, "cases:")) {
        file = spec + 6;
        path = g_build_filename(rv_test_cases_dir(), "topology", file, NULL);
    } else {
        g_assert_true(g_str_has_prefix(spec, "data:"));
        file = spec + 5;
        path = g_build_filename(rv_test_top_dir(), "tests/data/domainxml/topology", file, NULL);
    }

    if (g_str_has_prefix(file, "sysfs-")) {
        g_autofree char *tmp = g_dir_make_tmp("rv-place-XXXXXX", &err);
        g_autoptr(RvRoot) root = NULL;

        g_assert_no_error(err);
        r = rv_host_sysfs_dump_to_tree(path, tmp, &err);
        g_assert_no_error(err);
        g_assert_cmpint(r, >, 0);
        if (isolated) {
            g_autofree char *iso = g_build_filename(tmp, "sys/devices/system/cpu/isolated", NULL);
            g_autofree char *text = g_strdup_printf("%s\n", isolated);

            g_file_set_contents(iso, text, -1, &err);
            g_assert_no_error(err);
        }
        r = rv_host_root_open(tmp, &root, &err);
        g_assert_no_error(err);
        r = rv_guest_host_cpus_from_root(root, &host, &err);
        g_assert_no_error(err);
        g_assert_cmpint(r, ==, 0);
        r = rv_host_topology_load(root, &topo, &err);
        g_assert_no_error(err);
        rv_test_rm_rf(tmp);
    } else {
        r = rv_host_topology_load_file(path, &topo, &err);
        g_assert_no_error(err);
        g_assert_cmpint(r, ==, 0);
        g_assert_cmpint(rv_guest_host_cpus_from_topology(topo, &host), ==, 0);
        if (isolated) {
            RvCpuSet set;

            g_assert_cmpint(rv_cpulist_parse(isolated, 0, &set, &err), ==, 0);
            rv_cpuset_and(&set, &set, &host->online);
            rv_guest_host_cpus_set_isolated(host, &set, "/sys/devices/system/cpu/isolated");
        }
    }
    *ret_topo = g_steal_pointer(&topo);
    return host;
}

/* Runs case @name: placement, or the refusal. */
static inline GcResult *
gc_run_case(const char *name)
{
    g_autofree char *case_path = g_strdup_printf("%s/tests/data/domainxml/%s.case", rv_test_top_dir(), name);
    g_autoptr(RvIni) ini = NULL;
    g_autoptr(GError) err = NULL;
    g_autoptr(GcResult) res = g_new0(GcResult, 1);
    g_autoptr(RvGuestHostCpus) host = NULL;
    g_autoptr(RvTopology) topo = NULL;
    g_autofree char *guest = NULL;
    const char *topo_spec, *isolated, *host_profile, *reserved, *virt;
    bool xml = true;

    g_assert_cmpint(rv_ini_load(case_path, &ini, &err), ==, 0);
    g_assert_no_error(err);
    res->name = g_strdup(name);
    topo_spec = rv_ini_get(ini, "case", "topology");
    isolated = rv_ini_get(ini, "case", "isolated");
    host_profile = rv_ini_get(ini, "case", "host_profile");
    reserved = rv_ini_get(ini, "case", "reserved");
    virt = rv_ini_get(ini, "case", "virt");
    g_assert_cmpint(rv_ini_get_bool(ini, "case", "xml", &xml, &err), ==, 0);
    guest = g_build_filename(rv_test_top_dir(), rv_ini_get(ini, "case", "guest"), NULL);
    g_assert_cmpint(rv_ini_check_unused(ini, NULL, &err), ==, 0);
    g_assert_nonnull(topo_spec);

    res->xml = xml;
    res->virt = virt && strcmp(virt, "qemu") == 0 ? RV_GUEST_VIRT_QEMU : RV_GUEST_VIRT_KVM;
    host = gc_load_host(topo_spec, isolated, &topo);
    if (host_profile) {
        g_autofree char *hp_path = g_build_filename(rv_test_top_dir(), host_profile, NULL);
        g_autofree char *base = g_path_get_basename(hp_path);
        g_autofree char *source = g_strdup_printf("the isolated set of host profile %s", base);
        g_autoptr(RvHostProfile) hp = NULL;
        g_autoptr(RvHostPartition) part = NULL;

        g_assert_cmpint(rv_host_profile_load(hp_path, &hp, &err), ==, 0);
        g_assert_no_error(err);
        g_assert_cmpint(rv_host_partition_compute(hp, topo, &part, &err), ==, 0);
        g_assert_no_error(err);
        rv_guest_host_cpus_apply_partition(host, part, source);
    }
    if (reserved) {
        RvCpuSet set;

        g_assert_cmpint(rv_cpulist_parse(reserved, 0, &set, &err), ==, 0);
        rv_cpuset_or(&host->reserved, &host->reserved, &set);
    }
    g_assert_cmpint(rv_guest_profile_load(guest, &res->profile, &err), ==, 0);
    g_assert_no_error(err);
    if (rv_guest_place(res->profile, host, &res->placement, &res->refused) < 0)
        g_assert_nonnull(res->refused);
    else
        g_assert_null(res->refused);
    res->host = g_steal_pointer(&host);
    return g_steal_pointer(&res);
}

/* Compares @got with tests/data/domainxml/@file, or writes it under
 * RV_REGENERATE=1. */
static inline void
gc_check_golden(const char *file, const char *got)
{
    g_autofree char *path = gc_data_path(file);

    rv_test_compare_expected(path, got);
}

/* Exact text of a refusal as the golden files hold it. */
static inline char *
gc_refusal_text(const GError *e)
{
    static const char * const codes[] = { "failed", "invalid", "unsupported", "timeout", "check" };

    return g_strdup_printf("refused (%s, exit %d): %s\n",
                           e->code >= 0 && e->code < (int) G_N_ELEMENTS(codes) ? codes[e->code] : "?",
                           rv_error_exit_code(e), e->message);
}
