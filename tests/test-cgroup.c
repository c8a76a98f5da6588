/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * tests/test-cgroup.c: host/facts/cgroup.h on fixture trees: a QEMU whose threads
 * libvirt put in its scope's emulator and vcpuN children (cgroup v1 cpu
 * line among others, as on the build machine; and cgroup v2), the common
 * cgroup of them, a thread file without a cpu line.
 */
#include <errno.h>
#include <string.h>
#include <glib/gstdio.h>

#include "host/facts/cgroup.h"
#include "util/error.h"
#include "tests/testutil.h"

#define SCOPE "/machine.slice/machine-qemu\\x2d3\\x2drtvirt\\x2dsemi\\x2d01.scope"

static char *
make_tree(const char *const *files)
{
    g_autoptr(GError) err = NULL;
    char *dir = g_dir_make_tmp("rv-cgroup-XXXXXX", &err);

    g_assert_no_error(err);
    for (guint i = 0; files[i]; i += 2) {
        g_autofree char *path = g_build_filename(dir, files[i], NULL);
        g_autofree char *parent = g_path_get_dirname(path);

        g_assert_cmpint(g_mkdir_with_parents(parent, 0755), ==, 0);
        g_assert_true(g_file_set_contents(path, files[i + 1], -1, &err));
    }
    return dir;
}

static void
check_tree(const char *const *files, int want_n, const char *want_common, const char *want_path,
           guint want_count)
{
    g_autofree char *dir = make_tree(files);
    g_autoptr(RvRoot) root = NULL;
    g_autoptr(GHashTable) paths = NULL;
    g_autoptr(GError) err = NULL;
    g_autofree char *common = NULL;

    g_assert_cmpint(rv_host_root_open(dir, &root, &err), ==, 0);
    g_assert_cmpint(rv_host_cgroup_cpu_of_threads(root, 1234, &paths, &err), ==, want_n);
    g_assert_no_error(err);
    common = rv_host_cgroup_common(paths);
    g_assert_cmpstr(common, ==, want_common);
    g_assert_cmpuint(GPOINTER_TO_UINT(g_hash_table_lookup(paths, want_path)), ==, want_count);
    rv_test_rm_rf(dir);
}

static void
test_v1(void)
{
    static const char *const files[] = {
        "proc/1234/task/1234/cgroup", "4:memory:/x\n1:cpu,cpuacct:" SCOPE "/libvirt/emulator\n0::/\n",
        "proc/1234/task/1240/cgroup", "4:memory:/x\n1:cpu,cpuacct:" SCOPE "/libvirt/emulator\n",
        "proc/1234/task/1241/cgroup", "1:cpu,cpuacct:" SCOPE "/libvirt/vcpu0\n",
        NULL,
    };

    check_tree(files, 3, SCOPE "/libvirt", SCOPE "/libvirt/emulator", 2);
}

static void
test_v2(void)
{
    static const char *const files[] = {
        "proc/1234/task/1234/cgroup", "0::" SCOPE "/libvirt/emulator\n",
        "proc/1234/task/1300/cgroup", "0::" SCOPE "\n",
        NULL,
    };

    /* a prefix ends at a '/': .../scope, not .../scop */
    check_tree(files, 2, SCOPE, SCOPE, 1);
}

static void
test_no_cpu_line(void)
{
    static const char *const files[] = {
        "proc/1234/task/1234/cgroup", "4:memory:/x\n",
        NULL,
    };
    g_autofree char *dir = make_tree(files);
    g_autoptr(RvRoot) root = NULL;
    g_autoptr(GHashTable) paths = NULL;
    g_autoptr(GError) err = NULL;

    g_assert_cmpint(rv_host_root_open(dir, &root, &err), ==, 0);
    g_assert_cmpint(rv_host_cgroup_cpu_of_threads(root, 1234, &paths, &err), ==, -EINVAL);
    g_assert_nonnull(strstr(err->message, "/proc/1234/task/1234/cgroup: no cpu cgroup line"));
    g_assert_null(paths);
    rv_test_rm_rf(dir);
}

int
main(int argc, char **argv)
{
    g_test_init(&argc, &argv, NULL);
    g_test_add_func("/cgroup/v1", test_v1);
    g_test_add_func("/cgroup/v2", test_v2);
    g_test_add_func("/cgroup/no-cpu-line", test_no_cpu_line);
    return g_test_run();
}
