/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * tests/test-bootargs.c: boot arguments of profiles/host/realtime-virtual-host.ini
 * for every topology in tests/data/cases/topology (expected files in
 * tests/data/bootargs/<case>.args, RV_REGENERATE=1 rewrites them; facts from
 * the .source.txt notes asserted directly), the arguments for this machine,
 * and --install/--remove on throw-away roots holding Debian 12's real
 * /etc/default/grub (tests/data/grub/, update-grub in the runner's dry-run
 * log; the drop-in is sourced by /bin/sh the way grub-mkconfig does).
 */
#include <errno.h>
#include <string.h>
#include <sys/stat.h>

#include <glib/gstdio.h>

#include "host/tune/bootargs.h"
#include "host/profile/partition.h"
#include "host/profile/profile.h"
#include "host/facts/topology.h"
#include "util/error.h"
#include "tests/testutil.h"

static void
sh(const char *fmt, const char *a, const char *b)
{
    g_autofree char *cmd = g_strdup_printf(fmt, a, b);
    g_assert_cmpint(system(cmd), ==, 0);
}

/* Arguments of @profile_rel on @t, joined; NULL when the partition is
 * refused. */
static char *
args_for(const char *profile_rel, const RvTopology *t, char ***ret_args)
{
    g_autoptr(RvHostProfile) profile = rv_test_load_host_profile(profile_rel);
    g_autoptr(RvHostPartition) part = NULL;
    g_autoptr(GError) err = NULL;
    char **args = NULL;

    if (rv_host_partition_compute(profile, t, &part, &err) < 0)
        return NULL;
    g_assert_cmpint(rv_host_kargs_compute(profile, part, &args, &err), >=, 0);
    g_assert_no_error(err);
    if (ret_args) {
        *ret_args = args;
        return g_strjoinv(" ", args);
    }
    {
        char *s = g_strjoinv(" ", args);
        g_strfreev(args);
        return s;
    }
}

typedef struct {
    const char *name;
    const char *must_contain[4];   /* arguments from the .source.txt facts */
} Fact;

static const Fact facts[] = {
    /* interleaved sockets: "socket 0 minus core 0" and its siblings; the
     * contiguous guess isolcpus=2-35 would leave siblings 38-71 out */
    { "hwloc-Intel-Skylake-2xXeon6140.xml",
      { "isolcpus=managed_irq,domain,2-35,38-71", "nohz_full=2-35,38-71",
        "irqaffinity=0-1,36-37", NULL } },
    /* the author's own reservation: reserved 0-1,64-65 */
    { "lscpu-extended-amd-2socket-n-n64-elided.txt", { "irqaffinity=0-1,64-65", NULL } },
    /* 32-111 possible but not present: never named */
    { "sysfs-2socket-intel-ht-n-n16-offline32-111.txt",
      { "isolcpus=managed_irq,domain,1-7,9-15,17-23,25-31", "irqaffinity=0,8,16,24", NULL } },
    /* whole SMT8 cores, offline threads included so onlining them cannot
     * split a core */
    { "ppc64_cpu-info-power8-smt8-half-offline-xmrstak6.txt",
      { "rcu_nocbs=8-31", "irqaffinity=0-7", NULL } },
    /* CPU 0 offline: housekeeping starts at CPU 1 */
    { "lscpu-s390-lpar.txt", { "irqaffinity=1,3,8,11,15-16,19", NULL } },
    /* P-core 0 (CPUs 0-1) housekeeping, E-cores isolated */
    { "sysfs-intel-hybrid-alderlake-adjacent-siblings.txt", { "nohz_full=2-19", NULL } },
    { "sysfs-power-smt4-256cpu.txt", { "isolcpus=managed_irq,domain,4-255", NULL } },
};

static void
test_case(gconstpointer data)
{
    const char *name = data;
    g_autoptr(RvTopology) t = rv_test_load_topology_case(name);
    g_autofree char *args = args_for("profiles/host/realtime-virtual-host.ini", t, NULL);
    g_autofree char *exp_path = g_strdup_printf("%s/tests/data/bootargs/%s.args", rv_test_top_dir(), name);
    g_autofree char *got = NULL;

    for (size_t i = 0; i < G_N_ELEMENTS(facts); i++) {
        if (strcmp(facts[i].name, name) != 0)
            continue;
        g_assert_nonnull(args);
        for (const char *const *m = facts[i].must_contain; *m; m++) {
            g_autofree char *word = g_strdup_printf(" %s ", *m);
            g_autofree char *padded = g_strdup_printf(" %s ", args);
            g_assert_nonnull(strstr(padded, word));
        }
    }
    if (args) {
        /* the words every case shares, in their order */
        g_assert_true(g_str_has_prefix(args, "isolcpus=managed_irq,domain,"));
        g_assert_nonnull(strstr(args, " nohz=on nohz_full="));
        g_assert_nonnull(strstr(args, " skew_tick=1 cpufreq.default_governor=performance "
                                      "tsc=reliable"));
        g_assert_null(strstr(args, "nosmt"));   /* smt = idle-siblings keeps SMT */
    }
    got = g_strdup_printf("%s\n", args ? args : "(no partition: nothing to isolate)");
    rv_test_compare_expected(exp_path, got);
}

/* Profile variations: nosmt at boot, idle limits on all CPUs, no flags. */
static void
test_variants(void)
{
    g_autoptr(RvTopology) t = rv_test_load_topology_case("lscpu-e-and-siblings-4cpu-rinha398.txt");
    static const struct {
        const char *text;
        const char *want;
    } cases[] = {
        { "[cpus]\nsmt = off-boot\n[bootargs]\nisolcpus = yes\nnohz_full = yes\n",
          "isolcpus=1,3 nohz_full=1,3 nosmt" },
        { "[cpus]\nhousekeeping = 0,2\n[bootargs]\nrcu_nocbs = yes\nrcu_nocb_poll = yes\n"
          "irqaffinity = yes\n[cpu]\nidle_max_latency_us = 0\nidle_cpus = all\n",
          "rcu_nocbs=1,3 rcu_nocb_poll irqaffinity=0,2 idle=poll" },
        { "[cpu]\nidle_max_latency_us = 10\nidle_cpus = all\n",
          "intel_idle.max_cstate=1 processor.max_cstate=1" },
        /* per-CPU idle limits are runtime only */
        { "[cpu]\nidle_max_latency_us = 10\nidle_cpus = isolated\n", "" },
    };

    for (size_t i = 0; i < G_N_ELEMENTS(cases); i++) {
        g_autoptr(RvHostProfile) profile = NULL;
        g_autoptr(RvHostPartition) part = NULL;
        g_autoptr(GError) err = NULL;
        g_auto(GStrv) args = NULL;
        g_autofree char *joined = NULL;

        g_assert_cmpint(rv_host_profile_load_data("v.ini", cases[i].text, &profile, &err), ==, 0);
        g_assert_no_error(err);
        g_assert_cmpint(rv_host_partition_compute(profile, t, &part, &err), ==, 0);
        g_assert_cmpint(rv_host_kargs_compute(profile, part, &args, &err), >=, 0);
        joined = g_strjoinv(" ", args);
        g_assert_cmpstr(joined, ==, cases[i].want);
    }
}

/* This machine (Done-when): the build machines have 2 CPUs without SMT. */
static void
test_live(void)
{
    g_autoptr(RvRoot) root = NULL;
    g_autoptr(RvTopology) t = NULL;
    g_autoptr(GError) err = NULL;
    g_autofree char *args = NULL;

    g_assert_cmpint(rv_host_root_open("/", &root, &err), ==, 0);
    g_assert_cmpint(rv_host_topology_load(root, &t, &err), ==, 0);
    args = args_for("profiles/host/realtime-virtual-host.ini", t, NULL);
    if (t->smt || rv_cpuset_count(&t->online) != 2 || !rv_cpuset_isset(&t->online, 0)) {
        g_test_skip("not a 2-CPU host without SMT");
        return;
    }
    g_assert_cmpstr(args, ==,
                    "isolcpus=managed_irq,domain,1 nohz=on nohz_full=1 rcu_nocbs=1 irqaffinity=0 "
                    "skew_tick=1 cpufreq.default_governor=performance tsc=reliable "
                    "rcupdate.rcu_normal_after_boot=1 rcutree.nohz_full_patience_delay=1000 "
                    "nosoftlockup");
}

/* Every file under @dir but rtvirt's state directory: "path mode sha256" lines. */
static void
walk(const char *dir, const char *rel, GString *out)
{
    g_autofree char *path = rel ? g_build_filename(dir, rel, NULL) : g_strdup(dir);
    g_autoptr(GDir) d = g_dir_open(path, 0, NULL);
    g_autoptr(GPtrArray) names = g_ptr_array_new_with_free_func(g_free);

    g_assert_nonnull(d);
    for (const char *n; (n = g_dir_read_name(d));)
        g_ptr_array_add(names, g_strdup(n));
    g_ptr_array_sort(names, rv_test_cmp_names);
    for (guint i = 0; i < names->len; i++) {
        g_autofree char *r = rel ? g_build_filename(rel, names->pdata[i], NULL)
                                 : g_strdup(names->pdata[i]);
        g_autofree char *full = g_build_filename(dir, r, NULL);
        struct stat st;

        /* rtvirt's own state directory (journals, lock files) stays */
        if (strcmp(r, "var") == 0 || strcmp(r, "var/lib") == 0 || strcmp(r, "var/lib/rtvirt") == 0)
            continue;
        g_assert_cmpint(lstat(full, &st), ==, 0);
        if (S_ISDIR(st.st_mode)) {
            g_string_append_printf(out, "%s/ %o\n", r, st.st_mode & 07777);
            walk(dir, r, out);
        } else {
            g_autofree char *data = NULL;
            gsize len = 0;
            g_autofree char *sum = NULL;

            g_assert_true(g_file_get_contents(full, &data, &len, NULL));
            sum = g_compute_checksum_for_data(G_CHECKSUM_SHA256, (const guchar *) data, len);
            g_string_append_printf(out, "%s %o %s\n", r, st.st_mode & 07777, sum);
        }
    }
}

static char *
tree(const char *dir)
{
    GString *s = g_string_new(NULL);

    walk(dir, NULL, s);
    return g_string_free(s, FALSE);
}

static char *
sourced_cmdline(const char *dir)
{
    const char *argv[] = { "/bin/sh", "-c",
                           ". ./etc/default/grub; for x in ./etc/default/grub.d/*.cfg; do "
                           "if [ -e \"$x\" ]; then . \"$x\"; fi; done; "
                           "printf %s \"$GRUB_CMDLINE_LINUX_DEFAULT\"", NULL };
    g_autoptr(GError) err = NULL;
    char *out = NULL;
    int status = 0;

    g_assert_true(g_spawn_sync(dir, (char **) argv, NULL, G_SPAWN_STDERR_TO_DEV_NULL, NULL, NULL,
                               &out, NULL, &status, &err));
    g_assert_no_error(err);
    return out;
}

static void
test_install_remove(gconstpointer data)
{
    const char *layout = data;
    g_autoptr(GError) err = NULL;
    g_autofree char *src = g_build_filename(rv_test_top_dir(), "tests/data/grub", layout, NULL);
    g_autofree char *tmp = g_dir_make_tmp("rv-grub-XXXXXX", &err);
    g_autoptr(RvTopology) t = rv_test_load_topology_case("hwloc-Intel-Skylake-2xXeon6140.xml");
    g_autoptr(RvTopology) t2 = rv_test_load_topology_case("lscpu-e-and-siblings-4cpu-rinha398.txt");
    g_auto(GStrv) args = NULL;
    g_auto(GStrv) args2 = NULL;
    g_autofree char *joined = args_for("profiles/host/realtime-virtual-host.ini", t, &args);
    g_autofree char *joined2 = args_for("profiles/host/realtime-virtual-host.ini", t2, &args2);
    g_autofree char *before = NULL;
    g_autofree char *after = NULL;
    g_autofree char *cmdline_before = NULL;
    g_autofree char *cmdline = NULL;
    g_autofree char *want = NULL;
    g_autofree char *dropin = NULL;
    g_autofree char *exp_path = NULL;
    g_autoptr(RvRoot) root = NULL;
    const char *method = NULL;

    g_assert_no_error(err);
    sh("cp -a '%s/.' '%s'", src, tmp);
    before = tree(tmp);
    cmdline_before = sourced_cmdline(tmp);
    g_assert_cmpint(rv_host_root_open(tmp, &root, &err), ==, 0);

    {
        g_autoptr(RvRunner) runner = rv_runner_new(true);

        g_assert_cmpint(rv_host_bootargs_install(root, NULL, args, "realtime-virtual-host",
                                                 runner, &method, &err), ==, 0);
        g_assert_no_error(err);
        g_assert_cmpstr(method, ==, "grub.d drop-in + update-grub");
        g_assert_cmpuint(rv_runner_get_log(runner)->len, ==, 1);
        g_assert_cmpstr(rv_runner_get_log(runner)->pdata[0], ==, "update-grub");
    }
    dropin = g_build_filename(tmp, RV_HOST_BOOTARGS_DROPIN, NULL);
    {
        g_autofree char *text = NULL;

        g_assert_true(g_file_get_contents(dropin, &text, NULL, NULL));
        exp_path = g_strdup_printf("%s/tests/data/grub/rtvirt.cfg.expected", rv_test_top_dir());
        rv_test_compare_expected(exp_path, text);
    }
    /* what grub-mkconfig will see: the old arguments, then ours */
    cmdline = sourced_cmdline(tmp);
    if (strcmp(layout, "debian12") == 0) {
        g_assert_cmpstr(cmdline_before, ==, "quiet");
        want = g_strdup_printf("quiet %s", joined);
    } else {
        g_assert_cmpstr(cmdline_before, ==, "quiet console=ttyS0,115200 isolcpus=3");
        want = g_strdup_printf("quiet console=ttyS0,115200 %s", joined);
    }
    g_assert_cmpstr(cmdline, ==, want);

    /* a second install (another profile/topology) keeps the first original */
    {
        g_autoptr(RvRunner) runner = rv_runner_new(true);
        g_assert_cmpint(rv_host_bootargs_install(root, NULL, args2, "other", runner, NULL, &err),
                        ==, 0);
    }
    {
        g_autoptr(RvRunner) runner = rv_runner_new(true);

        g_assert_cmpint(rv_host_bootargs_remove(root, NULL, runner, &err), >, 0);
        g_assert_no_error(err);
        g_assert_cmpuint(rv_runner_get_log(runner)->len, ==, 1);
        g_assert_cmpstr(rv_runner_get_log(runner)->pdata[0], ==, "update-grub");
    }
    after = tree(tmp);
    g_assert_cmpstr(after, ==, before);
    {
        g_autofree char *c = sourced_cmdline(tmp);
        g_assert_cmpstr(c, ==, cmdline_before);
    }
    /* idempotent: nothing installed, nothing run */
    {
        g_autoptr(RvRunner) runner = rv_runner_new(true);

        g_assert_cmpint(rv_host_bootargs_remove(root, NULL, runner, &err), ==, 0);
        g_assert_cmpuint(rv_runner_get_log(runner)->len, ==, 0);
    }
    rv_test_rm_rf(tmp);
}

static void
test_install_refusals(void)
{
    g_autoptr(GError) err = NULL;
    g_autofree char *tmp = g_dir_make_tmp("rv-grub-XXXXXX", &err);
    g_autoptr(RvRoot) root = NULL;
    g_autoptr(RvRunner) runner = rv_runner_new(true);
    char *bad[] = { "isolcpus=1", "foo=\"$(reboot)\"", NULL };
    char *good[] = { "isolcpus=1", NULL };

    g_assert_cmpint(rv_host_root_open(tmp, &root, &err), ==, 0);
    /* shell metacharacters never reach a file the shell sources */
    g_assert_cmpint(rv_host_bootargs_install(root, NULL, bad, "x", runner, NULL, &err), ==, -EINVAL);
    g_assert_error(err, RV_ERROR, RV_ERROR_INVALID);
    g_assert_nonnull(strstr(err->message, "foo=\"$(reboot)\""));
    g_clear_error(&err);
    /* no /etc/default/grub and not the live host: nothing to install into */
    g_assert_cmpint(rv_host_bootargs_install(root, NULL, good, "x", runner, NULL, &err), ==,
                    -ENOENT);
    g_assert_error(err, RV_ERROR, RV_ERROR_UNSUPPORTED);
    g_assert_cmpuint(rv_runner_get_log(runner)->len, ==, 0);
    rv_test_rm_rf(tmp);
}

int
main(int argc, char **argv)
{
    g_autoptr(GPtrArray) names = NULL;

    g_test_init(&argc, &argv, NULL);
    names = rv_test_case_names("topology");
    for (guint i = 0; i < names->len; i++) {
        g_autofree char *tp = g_strdup_printf("/bootargs/case/%s", (char *) names->pdata[i]);
        g_test_add_data_func(tp, names->pdata[i], test_case);
    }
    g_test_add_func("/bootargs/variants", test_variants);
    g_test_add_func("/bootargs/live", test_live);
    g_test_add_data_func("/bootargs/install-remove/debian12", "debian12", test_install_remove);
    g_test_add_data_func("/bootargs/install-remove/debian12-dropins", "debian12-dropins",
                         test_install_remove);
    g_test_add_func("/bootargs/install-refusals", test_install_refusals);
    return g_test_run();
}
