/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * tests/test-kvm.c: host/facts/kvm.h on fixture roots shaped like the module
 * directories of a hardware KVM host, a PVM sandbox (the build machine:
 * /sys/module/{kvm,kvm_pvm}, no kvm_intel), a host without KVM, and an
 * older capture that has no /sys/module at all (assumed hardware KVM).
 */
#include <string.h>

#include <glib/gstdio.h>

#include "host/facts/kvm.h"

static RvHostKvm
detect_with(const char * const *modules, char **ret_reason)
{
    g_autofree char *dir = g_dir_make_tmp("rv-kvm-XXXXXX", NULL);
    g_autoptr(RvRoot) root = NULL;
    RvHostKvm kind;

    g_assert_nonnull(dir);
    for (int i = 0; modules[i]; i++) {
        g_autofree char *p = g_build_filename(dir, "sys/module", modules[i], NULL);
        g_assert_cmpint(g_mkdir_with_parents(p, 0755), ==, 0);
    }
    g_assert_cmpint(rv_host_root_open(dir, &root, NULL), ==, 0);
    kind = rv_host_kvm_detect(root, ret_reason);
    for (int i = 0; modules[i]; i++) {
        g_autofree char *p = g_build_filename(dir, "sys/module", modules[i], NULL);
        g_rmdir(p);
    }
    {
        g_autofree char *m = g_build_filename(dir, "sys/module", NULL);
        g_autofree char *s = g_build_filename(dir, "sys", NULL);
        g_rmdir(m);
        g_rmdir(s);
        g_rmdir(dir);
    }
    return kind;
}

/* a root with /sys (cpu topology only, as tests/data/domainxml/topology/
 * sysfs-build-2cpu-nosmt.txt) but no /sys/module directory */
static void
test_no_module_dir(void)
{
    g_autofree char *dir = g_dir_make_tmp("rv-kvm-XXXXXX", NULL);
    g_autofree char *cpu = g_build_filename(dir, "sys/devices/system/cpu", NULL);
    g_autofree char *why = NULL;
    g_autoptr(RvRoot) root = NULL;

    g_assert_cmpint(g_mkdir_with_parents(cpu, 0755), ==, 0);
    g_assert_cmpint(rv_host_root_open(dir, &root, NULL), ==, 0);
    g_assert_cmpint(rv_host_kvm_detect(root, &why), ==, RV_HOST_KVM_HW);
    g_assert_nonnull(strstr(why, "no /sys/module"));
    g_assert_nonnull(strstr(why, "assumed"));
    {
        g_autofree char *d = g_build_filename(dir, "sys/devices/system", NULL);
        g_autofree char *d2 = g_build_filename(dir, "sys/devices", NULL);
        g_autofree char *d3 = g_build_filename(dir, "sys", NULL);
        g_rmdir(cpu);
        g_rmdir(d);
        g_rmdir(d2);
        g_rmdir(d3);
        g_rmdir(dir);
    }
}

static void
test_kinds(void)
{
    const char * const hw[] = { "kvm", "kvm_intel", NULL };
    const char * const amd[] = { "kvm", "kvm_amd", NULL };
    const char * const pvm[] = { "kvm", "kvm_pvm", NULL };
    const char * const none[] = { "virtio_net", NULL };
    const char * const pvm_only[] = { "kvm_pvm", NULL };
    g_autofree char *why = NULL;

    g_assert_cmpint(detect_with(hw, NULL), ==, RV_HOST_KVM_HW);
    g_assert_cmpint(detect_with(amd, NULL), ==, RV_HOST_KVM_HW);
    g_assert_cmpint(detect_with(none, NULL), ==, RV_HOST_KVM_NONE);
    g_assert_cmpint(detect_with(pvm, &why), ==, RV_HOST_KVM_PVM);
    g_assert_nonnull(strstr(why, "PVM"));
    g_assert_cmpint(detect_with(pvm_only, NULL), ==, RV_HOST_KVM_PVM);
}

int
main(int argc, char **argv)
{
    g_test_init(&argc, &argv, NULL);
    g_test_add_func("/kvm/kinds", test_kinds);
    g_test_add_func("/kvm/no-module-dir", test_no_module_dir);
    return g_test_run();
}
