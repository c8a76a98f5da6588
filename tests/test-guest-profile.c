/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * tests/test-guest-profile.c: guest profiles: the shipped ones, the nova
 * realtime mask syntax, the guest kernel command line (tuned
 * realtime-virtual-guest), the in-guest cyclictest argv, and every bad
 * profile of tests/data/guests/bad/NAME.ini refused with the message in
 * NAME.err (RV_REGENERATE=1 rewrites them).
 */
#include <errno.h>
#include <string.h>

#include <glib.h>

#include "guest/profile.h"
#include "util/error.h"
#include "tests/testutil.h"

static char *
fmt(const RvCpuSet *s)
{
    return rv_cpulist_format(s);
}

static void
test_rt_demo(void)
{
    g_autoptr(RvGuestProfile) p = rv_test_load_guest_profile("profiles/guests/rt-demo.ini");
    g_autofree char *rt = fmt(&p->rt_vcpus);

    g_assert_cmpstr(p->name, ==, "rt-demo");
    g_assert_cmpuint(p->vcpus, ==, 2);
    g_assert_cmpuint(p->threads_per_core, ==, 1);
    g_assert_cmpstr(rt, ==, "1");
    g_assert_cmpint(p->rt_priority, ==, 1);
    g_assert_cmpuint(p->memory_bytes, ==, 256u << 20);
    g_assert_false(p->hugepages);
    g_assert_true(p->locked);
    g_assert_true(p->nosharepages);
    g_assert_false(p->require_isolated);
    g_assert_cmpint(p->image, ==, RV_GUEST_IMAGE_EMBEDDED);
    g_assert_cmpint(p->emulator, ==, RV_GUEST_EMULATOR_HOUSEKEEPING);
    g_assert_cmpint(p->host_sibling, ==, RV_GUEST_SIBLING_IDLE);
    g_assert_false(p->pmu);
}

static void
test_rt_guest(void)
{
    g_autoptr(RvGuestProfile) p = rv_test_load_guest_profile("profiles/guests/rt-guest.ini");
    g_autofree char *rt = fmt(&p->rt_vcpus);
    g_autofree char *cmdline = rv_guest_profile_kernel_cmdline(p);

    g_assert_cmpuint(p->vcpus, ==, 4);
    g_assert_cmpstr(rt, ==, "1-3");
    g_assert_true(p->hugepages);
    g_assert_cmpuint(p->hugepage_bytes, ==, G_GUINT64_CONSTANT(1) << 30);
    g_assert_cmpuint(p->memory_bytes, ==, G_GUINT64_CONSTANT(4) << 30);
    g_assert_true(p->require_isolated);
    g_assert_cmpint(p->cpu_mode, ==, RV_GUEST_CPU_HOST_PASSTHROUGH);
    /* tests/data/cases/tuned/realtime-virtual-guest .source.txt: "For a
     * 4-vCPU guest with isolated_cores=1-3: 'isolcpus=managed_irq,domain,1-3
     * nohz=on nohz_full=1-3 rcu_nocbs=1-3 irqaffinity=0'" */
    g_assert_true(g_str_has_suffix(cmdline,
                                   " isolcpus=managed_irq,domain,1-3 nohz=on nohz_full=1-3 rcu_nocbs=1-3 irqaffinity=0"));
    g_assert_true(g_str_has_prefix(cmdline, "console=ttyS0 "));
}

/* include= of the shipped profile with one key changed. */
static void
test_include(void)
{
    g_autoptr(RvGuestProfile) p = rv_test_load_guest_profile("tests/data/guests/rt-guest-use.ini");
    g_autofree char *rt = fmt(&p->rt_vcpus);

    g_assert_cmpstr(p->name, ==, "rt-guest-use");
    g_assert_cmpint(p->host_sibling, ==, RV_GUEST_SIBLING_USE);
    g_assert_cmpstr(rt, ==, "1-3");
    g_assert_cmpuint(p->vcpus, ==, 4);
}

static void
test_rt_mask(void)
{
    static const struct { const char *spec; unsigned vcpus; const char *want; } good[] = {
        /* nova flavors doc: hw:cpu_realtime_mask=^0-1 -> vCPUs 0-1 not RT */
        { "^0", 4, "1-3" }, { "^0-1", 4, "2-3" }, { "^0,2", 4, "1,3" },
        { "1-3", 4, "1-3" }, { "2", 4, "2" }, { "none", 4, "" }, { "all", 3, "0-2" },
        { " ^0 ", 2, "1" },
    };
    static const struct { const char *spec; unsigned vcpus; } bad[] = {
        { "^", 4 }, { "^4", 4 }, { "4", 4 }, { "x", 4 }, { "^0-", 4 }, { "", 4 }, { "1-0", 4 },
    };

    for (guint i = 0; i < G_N_ELEMENTS(good); i++) {
        RvCpuSet s;
        g_autofree char *f = NULL;
        g_autoptr(GError) err = NULL;

        g_assert_cmpint(rv_guest_profile_parse_rt_mask(good[i].spec, good[i].vcpus, &s, &err), ==, 0);
        g_assert_no_error(err);
        f = fmt(&s);
        g_assert_cmpstr(f, ==, good[i].want);
    }
    for (guint i = 0; i < G_N_ELEMENTS(bad); i++) {
        RvCpuSet s;
        g_autoptr(GError) err = NULL;

        g_assert_cmpint(rv_guest_profile_parse_rt_mask(bad[i].spec, bad[i].vcpus, &s, &err), ==, -EINVAL);
        g_assert_error(err, RV_ERROR, RV_ERROR_INVALID);
        g_assert_nonnull(strstr(err->message, "invalid RT vCPU mask"));
    }
}

/* Arguments the profile already has are not repeated. */
static void
test_cmdline_no_repeat(void)
{
    g_autoptr(RvIni) ini = NULL;
    g_autoptr(RvGuestProfile) p = NULL;
    g_autoptr(GError) err = NULL;
    g_autofree char *cmdline = NULL;

    g_assert_cmpint(rv_ini_load_data("inline.ini",
                                     "[cpu]\nvcpus = 3\n[memory]\nsize = 256M\n"
                                     "[kernel]\ncmdline = console=ttyS0  nohz_full=2 quiet\n"
                                     "isolate_rt_vcpus = true\n",
                                     &ini, &err), ==, 0);
    g_assert_cmpint(rv_guest_profile_from_ini(ini, &p, &err), ==, 0);
    g_assert_no_error(err);
    cmdline = rv_guest_profile_kernel_cmdline(p);
    g_assert_cmpstr(cmdline, ==,
                    "console=ttyS0 nohz_full=2 quiet isolcpus=managed_irq,domain,1-2 nohz=on rcu_nocbs=1-2 irqaffinity=0");
    /* no file name to take the domain name from: "inline" */
    g_assert_cmpstr(p->name, ==, "inline");
}

static void
test_cyclictest_argv(void)
{
    g_autoptr(RvGuestProfile) p = rv_test_load_guest_profile("profiles/guests/rt-guest.ini");
    g_autoptr(RvGuestProfile) tp = rv_test_load_guest_profile("tests/data/guests/tp-disk.ini");
    g_auto(GStrv) argv = rv_guest_profile_cyclictest_argv(p, 0);
    g_auto(GStrv) argv2 = rv_guest_profile_cyclictest_argv(p, 1500000);
    g_auto(GStrv) argv3 = rv_guest_profile_cyclictest_argv(tp, 10 * G_USEC_PER_SEC);
    g_autofree char *s = g_strjoinv(" ", argv);
    g_autofree char *s2 = g_strjoinv(" ", argv2);
    g_autofree char *s3 = g_strjoinv(" ", argv3);

    g_assert_cmpstr(s, ==, "cyclictest -m -q -p95 -i200 -D60 -h1000 -a1-3 -t3 --mainaffinity=0");
    /* 1.5 s rounds up to 2 s */
    g_assert_cmpstr(s2, ==, "cyclictest -m -q -p95 -i200 -D2 -h1000 -a1-3 -t3 --mainaffinity=0");
    /* no RT vCPU: every vCPU measured, no main affinity */
    g_assert_cmpstr(s3, ==, "cyclictest -m -q -p95 -i1000 -D10 -h1000 -a0-1 -t2");
}

static void
test_bad(gconstpointer data)
{
    const char *name = data;
    g_autofree char *rel = g_strdup_printf("tests/data/guests/bad/%s.ini", name);
    g_autofree char *path = g_build_filename(rv_test_top_dir(), rel, NULL);
    g_autofree char *err_path = g_strdup_printf("%s/tests/data/guests/bad/%s.err", rv_test_top_dir(), name);
    g_autoptr(RvGuestProfile) p = NULL;
    g_autoptr(GError) err = NULL;
    g_autofree char *got = NULL;
    const char *msg;

    g_assert_cmpint(rv_guest_profile_load(path, &p, &err), ==, -EINVAL);
    g_assert_error(err, RV_ERROR, RV_ERROR_INVALID);
    g_assert_null(p);
    /* messages name the file as given: keep only the part from the
     * repository-relative path on, so golden files do not hold RV_TOP */
    msg = strstr(err->message, rel);
    g_assert_nonnull(msg);
    got = g_strdup_printf("%s\n", msg);
    rv_test_compare_expected(err_path, got);
}

int
main(int argc, char **argv)
{
    g_autofree char *bad_dir = NULL;
    g_autoptr(GDir) d = NULL;
    g_autoptr(GPtrArray) names = g_ptr_array_new_with_free_func(g_free);
    const char *n;

    /* the disk rule names the image cache: the same one for every user */
    g_setenv("RTVIRT_CACHE_DIR", "/var/cache/rtvirt", TRUE);

    g_test_init(&argc, &argv, NULL);
    g_test_add_func("/guest-profile/rt-demo", test_rt_demo);
    g_test_add_func("/guest-profile/rt-guest", test_rt_guest);
    g_test_add_func("/guest-profile/include", test_include);
    g_test_add_func("/guest-profile/rt-mask", test_rt_mask);
    g_test_add_func("/guest-profile/cmdline-no-repeat", test_cmdline_no_repeat);
    g_test_add_func("/guest-profile/cyclictest-argv", test_cyclictest_argv);

    bad_dir = g_build_filename(rv_test_top_dir(), "tests/data/guests/bad", NULL);
    d = g_dir_open(bad_dir, 0, NULL);
    g_assert_nonnull(d);
    while ((n = g_dir_read_name(d)))
        if (g_str_has_suffix(n, ".ini"))
            g_ptr_array_add(names, g_strndup(n, strlen(n) - 4));
    g_assert_cmpuint(names->len, >=, 10);
    for (guint i = 0; i < names->len; i++) {
        g_autofree char *path = g_strdup_printf("/guest-profile/bad/%s", (char *) names->pdata[i]);

        g_test_add_data_func(path, names->pdata[i], test_bad);
    }
    return g_test_run();
}
