/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * tests/test-cmdline.c: every command line in ../shared/cases/cmdline,
 * parsed against the machine its .source.txt describes, compared with
 * tests/data/cmdline/<case>[.<nr>].expected (RV_REGENERATE=1 rewrites them),
 * and the facts of each .source.txt asserted one by one.
 */
#include <errno.h>
#include <string.h>

#include "host/cmdline.h"
#include "util/error.h"
#include "tests/testutil.h"

/* The kernel command line a case file stands for: a .cmdline as is, a Nix
 * list's quoted strings joined with spaces (NixOS boot.kernelParams), a
 * MachineConfig's spec.kernelArguments items joined (OpenShift). */
static char *
case_cmdline(const char *name)
{
    g_autofree char *path = g_build_filename(rv_test_cases_dir(), "cmdline", name, NULL);
    g_autofree char *text = NULL;
    g_autoptr(GError) err = NULL;
    g_auto(GStrv) lines = NULL;
    g_autoptr(GPtrArray) words = g_ptr_array_new_with_free_func(g_free);
    bool in_args = false;

    g_file_get_contents(path, &text, NULL, &err);
    g_assert_no_error(err);
    if (!g_str_has_suffix(name, ".nix") && !g_str_has_suffix(name, ".yaml"))
        return g_steal_pointer(&text);
    lines = g_strsplit(text, "\n", -1);
    for (guint i = 0; lines[i]; i++) {
        g_autofree char *l = g_strstrip(g_strdup(lines[i]));

        if (g_str_has_suffix(name, ".nix")) {
            if (l[0] == '"' && g_str_has_suffix(l, "\"") && strlen(l) >= 2)
                g_ptr_array_add(words, g_strndup(l + 1, strlen(l) - 2));
        } else {
            if (g_str_has_prefix(l, "kernelArguments:")) {
                in_args = true;
                continue;
            }
            if (in_args && g_str_has_prefix(l, "- "))
                g_ptr_array_add(words, g_strdup(g_strstrip(l + 2)));
            else if (in_args && *l)
                in_args = false;
        }
    }
    g_ptr_array_add(words, NULL);
    return g_strjoinv(" ", (char **) words->pdata);
}

static RvCmdline *
parse(const char *text, unsigned nr)
{
    g_autoptr(GError) err = NULL;
    RvCmdline *cmd = NULL;

    g_assert_cmpint(rv_host_cmdline_parse(text, nr, &cmd, &err), ==, 0);
    g_assert_no_error(err);
    return cmd;
}

static void
check_expected(const char *key, const RvCmdline *cmd)
{
    g_autofree char *got = rv_host_cmdline_format(cmd);
    g_autofree char *exp_path = g_strdup_printf("%s/tests/data/cmdline/%s.expected", rv_test_top_dir(), key);

    rv_test_compare_expected(exp_path, got);
}

static void
assert_set(const RvCpuSet *set, const char *expected)
{
    g_autofree char *got = rv_cpulist_format(set);
    g_assert_cmpstr(got, ==, expected);
}

static bool
has_problem(const RvCmdline *cmd, const char *needle)
{
    for (guint i = 0; i < cmd->problems->len; i++)
        if (strstr(cmd->problems->pdata[i], needle))
            return true;
    return false;
}

static void
assert_hugepages(const RvCmdline *cmd, guint i, const char *size, gint64 count)
{
    const RvCmdlineHugepages *h;

    g_assert_cmpuint(cmd->hugepages->len, >, i);
    h = &g_array_index(cmd->hugepages, RvCmdlineHugepages, i);
    g_assert_cmpstr(h->size, ==, size);
    g_assert_cmpint(h->count, ==, count);
}

/* Ampere Altra (Q80: 80 CPUs, no SMT). */
static void
test_csit_altra(void)
{
    g_autofree char *text = case_cmdline("csit-ampere-altra-aarch64.cmdline");
    g_autoptr(RvCmdline) cmd = parse(text, 80);

    assert_set(&cmd->isolcpus.effective, "1-10,29-38");
    g_assert_cmpuint(rv_cpuset_count(&cmd->isolcpus.effective), ==, 20);
    g_assert_cmpuint(cmd->isolcpus_flags, ==, RV_ISOL_DOMAIN);
    assert_set(&cmd->nohz_full.effective, "1-10,29-38");
    assert_set(&cmd->rcu_nocbs.effective, "1-10,29-38");
    g_assert_cmpint(cmd->processor_max_cstate, ==, 1);
    g_assert_cmpstr(rv_host_cmdline_get(cmd, "iommu.passthrough"), ==, "1");
    g_assert_cmpstr(rv_host_cmdline_get(cmd, "console"), ==, "ttyAMA0,115200n8");
    g_assert_cmpstr(cmd->default_hugepagesz, ==, "2M");
    g_assert_cmpuint(cmd->hugepages->len, ==, 2);
    assert_hugepages(cmd, 0, "1G", 32);
    assert_hugepages(cmd, 1, "2M", 32768);
    g_assert_cmpuint(cmd->problems->len, ==, 0);
    check_expected("csit-ampere-altra-aarch64.cmdline", cmd);
}

static void
check_csit_x86(const char *name, unsigned nr, const char *isol, unsigned n_isol, const char *hk)
{
    g_autofree char *text = case_cmdline(name);
    g_autoptr(RvCmdline) cmd = parse(text, nr);

    assert_set(&cmd->isolcpus.effective, isol);
    g_assert_cmpuint(rv_cpuset_count(&cmd->isolcpus.effective), ==, n_isol);
    g_assert_cmpuint(cmd->isolcpus_flags, ==, RV_ISOL_DOMAIN);  /* no flags => domain */
    g_assert_false(cmd->isolcpus.ignored);
    g_assert_false(cmd->nohz_full.ignored);   /* same masks: no "must match" conflict */
    assert_set(&cmd->nohz_full.effective, isol);
    assert_set(&cmd->rcu_nocbs.effective, isol);
    assert_set(&cmd->housekeeping, hk);
    g_assert_cmpstr(cmd->default_hugepagesz, ==, "2M");
    g_assert_cmpuint(cmd->hugepages->len, ==, 2);
    assert_hugepages(cmd, 0, "1G", 32);
    assert_hugepages(cmd, 1, "2M", 32768);
    g_assert_cmpint(cmd->intel_idle_max_cstate, ==, 1);
    g_assert_cmpint(cmd->processor_max_cstate, ==, 1);
    g_assert_cmpstr(cmd->intel_pstate, ==, "disable");
    g_assert_cmpstr(rv_host_cmdline_get(cmd, "hpet"), ==, "disable");
    g_assert_cmpstr(cmd->tsc, ==, "reliable");
    g_assert_cmpstr(cmd->nmi_watchdog, ==, "0");
    g_assert_true(cmd->nosoftlockup);
    g_assert_cmpstr(rv_host_cmdline_get(cmd, "mce"), ==, "off");
    g_assert_cmpstr(rv_host_cmdline_get(cmd, "audit"), ==, "0");
    g_assert_cmpstr(cmd->numa_balancing, ==, "disable");
    g_assert_cmpstr(rv_host_cmdline_get(cmd, "intel_iommu"), ==, "on");
    g_assert_cmpstr(rv_host_cmdline_get(cmd, "iommu"), ==, "pt");
    /* not present */
    g_assert_false(cmd->irqaffinity.present);
    g_assert_false(cmd->rcu_nocb_poll);
    g_assert_cmpint(cmd->skew_tick, ==, -1);
    g_assert_null(cmd->idle);
    g_assert_false(cmd->isolcpus_flags & RV_ISOL_MANAGED_IRQ);
    g_assert_cmpuint(cmd->problems->len, ==, 0);
    check_expected(name, cmd);
}

static void
test_csit_cascadelake(void)
{
    check_csit_x86("csit-cascadelake-2s-ht.cmdline", 96, "1-23,25-47,49-71,73-95", 92, "0,24,48,72");
}

static void
test_csit_icelake(void)
{
    check_csit_x86("csit-icelake-2s-ht.cmdline", 128, "1-31,33-63,65-95,97-127", 124, "0,32,64,96");
}

static void
test_kernel_doc(void)
{
    g_autofree char *text = case_cmdline("kernel-doc-cpulist-syntax-examples.txt");
    g_auto(GStrv) lines = g_strsplit(g_strchomp(text), "\n", -1);
    RvCpuSet set;

    g_assert_cmpuint(g_strv_length(lines), ==, 4);
    /* line 1 on a 32-CPU machine: ids beyond the possible CPUs, the kernel
     * drops the whole isolcpus= */
    {
        g_autoptr(RvCmdline) cmd = parse(lines[0], 32);

        g_assert_true(cmd->isolcpus.ignored);
        g_assert_cmpint(cmd->isolcpus.parse_error, ==, -ERANGE);
        assert_set(&cmd->isolcpus.effective, "");
        g_assert_true(has_problem(cmd, "beyond the possible CPUs"));
        check_expected("kernel-doc-cpulist-syntax-examples.txt.line1.nr32", cmd);
    }
    /* ... and where CPU 2000 exists: 100,101,125,126,150,151,... */
    {
        g_autoptr(RvCmdline) cmd = parse(lines[0], 2048);

        g_assert_false(cmd->isolcpus.ignored);
        for (unsigned c = 100; c <= 2000; c++)
            g_assert_cmpint(rv_cpuset_isset(&cmd->isolcpus.effective, c), ==, (c - 100) % 25 < 2);
        g_assert_true(rv_cpuset_isset(&cmd->isolcpus.effective, 1));
        g_assert_true(rv_cpuset_isset(&cmd->isolcpus.effective, 10));
        g_assert_true(rv_cpuset_isset(&cmd->isolcpus.effective, 20));
        g_assert_false(rv_cpuset_isset(&cmd->isolcpus.effective, 21));
        check_expected("kernel-doc-cpulist-syntax-examples.txt.line1.nr2048", cmd);
    }
    /* line 2: foo_cpus= is the doc's placeholder, no kernel parameter */
    {
        g_autoptr(RvCmdline) cmd = parse(lines[1], 32);
        const RvCmdlineParam *p = &g_array_index(cmd->params, RvCmdlineParam, 0);
        g_autoptr(GError) err = NULL;

        g_assert_false(p->known);
        g_assert_cmpint(rv_cpulist_parse(p->value, 32, &set, NULL), ==, 0);
        assert_set(&set, "16-31");
        g_assert_cmpint(rv_cpulist_parse(p->value, 4, &set, &err), ==, -EINVAL);
        g_assert_nonnull(strstr(err->message, "start > end"));
    }
    /* lines 3 and 4: nohz_full=all == nohz_full=0-N; the boot CPU stays */
    for (guint i = 2; i < 4; i++) {
        g_autoptr(RvCmdline) cmd = parse(lines[i], 32);

        assert_set(&cmd->nohz_full.requested, "0-31");
        assert_set(&cmd->nohz_full.effective, "1-31");
        assert_set(&cmd->housekeeping, "0");
        assert_set(&cmd->rcu_nocbs.effective, "1-31");
        g_assert_nonnull(strstr(cmd->nohz_full.note, "using boot CPU:0"));
        check_expected(i == 2 ? "kernel-doc-cpulist-syntax-examples.txt.line3.nr32"
                              : "kernel-doc-cpulist-syntax-examples.txt.line4.nr32", cmd);
    }
    /* 'all' is case-tolerant; isolcpus=all is a flag, not a list */
    {
        g_autoptr(RvCmdline) cmd = parse("nohz_full=ALL", 8);
        assert_set(&cmd->nohz_full.effective, "1-7");
    }
    {
        g_autoptr(RvCmdline) cmd = parse("isolcpus=all", 8);
        assert_set(&cmd->isolcpus.effective, "");
        g_assert_cmpstr(cmd->isolcpus_unknown_flags[0], ==, "all");
        g_assert_true(has_problem(cmd, "unknown flag"));
    }
}

static void
test_kvm_guest(void)
{
    const char *name = "kvm-guest-cn-blog-isolcpus-3.cmdline";
    g_autofree char *text = case_cmdline(name);
    g_autoptr(RvCmdline) cmd = parse(text, 4);

    g_assert_nonnull(strstr(text, "3  mce"));   /* the double space is there */
    g_assert_cmpuint(cmd->params->len, ==, 7);   /* and collapses */
    assert_set(&cmd->isolcpus.effective, "3");
    assert_set(&cmd->nohz_full.effective, "3");
    assert_set(&cmd->rcu_nocbs.effective, "3");
    assert_set(&cmd->housekeeping, "0-2");
    g_assert_cmpstr(cmd->idle, ==, "poll");
    g_assert_cmpstr(rv_host_cmdline_get(cmd, "mce"), ==, "off");
    g_assert_cmpstr(cmd->default_hugepagesz, ==, "1G");
    assert_hugepages(cmd, 0, "1G", -1);
    g_assert_true(has_problem(cmd, "hugepagesz=1G without hugepages="));
    g_assert_false(cmd->irqaffinity.present);
    check_expected(name, cmd);
}

static void
test_kvm_host(void)
{
    const char *name = "kvm-host-cn-blog-isolcpus-list.cmdline";
    g_autofree char *text = case_cmdline(name);
    g_autoptr(RvCmdline) cmd = parse(text, 0);   /* machine size not given */
    const RvCmdlineParam *typo = NULL;

    assert_set(&cmd->isolcpus.effective, "20-23");
    g_assert_true(rv_cpuset_equal(&cmd->isolcpus.effective, &cmd->nohz_full.effective));
    g_assert_true(rv_cpuset_equal(&cmd->isolcpus.effective, &cmd->rcu_nocbs.effective));
    g_assert_cmpstr(cmd->isolcpus.value, ==, "20,21,22,23");
    g_assert_cmpstr(cmd->nohz_full.value, ==, "20-23");
    g_assert_cmpstr(rv_host_cmdline_get(cmd, "iommu"), ==, "pt");
    g_assert_cmpstr(rv_host_cmdline_get(cmd, "intel_iommu"), ==, "on");
    g_assert_cmpstr(cmd->default_hugepagesz, ==, "1G");
    assert_hugepages(cmd, 0, "1G", -1);
    g_assert_true(has_problem(cmd, "hugepagesz=1G without hugepages="));
    g_assert_cmpstr(cmd->idle, ==, "poll");
    g_assert_cmpstr(cmd->intel_pstate, ==, "disable");
    g_assert_cmpint(cmd->processor_max_cstate, ==, 1);
    g_assert_cmpstr(cmd->tsc, ==, "reliable");
    for (guint i = 0; i < cmd->params->len; i++)
        if (!strcmp(g_array_index(cmd->params, RvCmdlineParam, i).name, "pcie_asmp"))
            typo = &g_array_index(cmd->params, RvCmdlineParam, i);
    g_assert_nonnull(typo);
    g_assert_false(typo->known);
    g_assert_cmpstr(typo->suggestion, ==, "pcie_aspm");
    g_assert_true(has_problem(cmd, "unknown parameter 'pcie_asmp' (did you mean 'pcie_aspm'?)"));
    check_expected(name, cmd);
}

static void
test_nixos(void)
{
    const char *name = "nixos-kernelParams-nohz_full-all-rcu_nocbs-0-N.nix";
    g_autofree char *text = case_cmdline(name);
    g_autoptr(RvCmdline) cmd = parse(text, 16);   /* a 16-CPU desktop, for the example */

    g_assert_cmpstr(text, ==, "quiet splash loglevel=3 rd.udev.log_level=3 kvm.ignore_msrs=1 "
                    "msr.allow_writes=on cgroup_no_v1=all transparent_hugepage=always "
                    "transparent_hugepage_shmem=within_size transparent_hugepage_tmpfs=within_size "
                    "preempt=full threadirqs nohz_full=all rcu_nocbs=0-N rcutree.enable_rcu_lazy=1 "
                    "log_buf_len=4M split_lock_detect=off panic=-1 randomize_kstack_offset=on "
                    "efi=disable_early_pci_dma");
    assert_set(&cmd->nohz_full.requested, "0-15");
    assert_set(&cmd->nohz_full.effective, "1-15");
    assert_set(&cmd->housekeeping, "0");
    g_assert_nonnull(strstr(cmd->nohz_full.note, "boot CPU 0"));
    assert_set(&cmd->rcu_nocbs.effective, "0-15");
    g_assert_cmpstr(rv_host_cmdline_get(cmd, "cgroup_no_v1"), ==, "all");
    g_assert_cmpstr(cmd->transparent_hugepage, ==, "always");
    g_assert_cmpstr(cmd->preempt, ==, "full");
    g_assert_true(cmd->threadirqs);
    g_assert_cmpuint(cmd->problems->len, ==, 0);
    check_expected(name, cmd);
}

static void
test_openshift(void)
{
    const char *name = "openshift-machineconfig-kernelArguments-worker-rt.yaml";
    g_autofree char *text = case_cmdline(name);
    g_autoptr(RvCmdline) cmd = parse(text, 16);

    g_assert_cmpstr(text, ==, "default_hugepagesz=1G hugepagesz=1G hugepages=32 isolcpus=2-15 "
                    "nohz=on nohz_full=2-15 rcu_nocbs=2-15 nosoftlockup nmi_watchdog=0 audit=0 "
                    "mce=off kthread_cpus=0 irqaffinity=0 skew_tick=1 processor.max_cstate=1 "
                    "idle=poll intel_pstate=disable intel_idle.max_cstate=0 intel_iommu=on iommu=pt");
    assert_set(&cmd->isolcpus.effective, "2-15");
    assert_set(&cmd->nohz_full.effective, "2-15");
    assert_set(&cmd->rcu_nocbs.effective, "2-15");
    assert_set(&cmd->kthread_cpus.effective, "0");
    assert_set(&cmd->irqaffinity.effective, "0");
    assert_set(&cmd->housekeeping, "0-1");
    g_assert_cmpint(cmd->skew_tick, ==, 1);
    g_assert_cmpint(cmd->intel_idle_max_cstate, ==, 0);
    g_assert_cmpint(cmd->processor_max_cstate, ==, 1);
    g_assert_cmpstr(cmd->idle, ==, "poll");
    g_assert_cmpstr(cmd->nohz, ==, "on");
    assert_hugepages(cmd, 0, "1G", 32);
    g_assert_cmpuint(cmd->hugepages->len, ==, 1);
    g_assert_cmpuint(cmd->problems->len, ==, 0);
    check_expected(name, cmd);
}

/* The kernel's rules that the cases do not reach. */
static void
test_kernel_rules(void)
{
    /* flags need their comma; managed_irq; nohz flag feeds nohz_full */
    {
        g_autoptr(RvCmdline) cmd = parse("isolcpus=nohz,domain,managed_irq,2-3", 4);
        g_assert_cmpuint(cmd->isolcpus_flags, ==, RV_ISOL_DOMAIN | RV_ISOL_NOHZ | RV_ISOL_MANAGED_IRQ);
        assert_set(&cmd->isolcpus.effective, "2-3");
        assert_set(&cmd->nohz_full.effective, "2-3");
        assert_set(&cmd->rcu_nocbs.effective, "2-3");
    }
    {
        g_autoptr(RvCmdline) cmd = parse("isolcpus=managed_irq,1", 4);
        g_assert_cmpuint(cmd->isolcpus_flags, ==, RV_ISOL_MANAGED_IRQ);   /* no domain then */
    }
    {
        g_autoptr(RvCmdline) cmd = parse("isolcpus=foo,1-2", 4);
        assert_set(&cmd->isolcpus.effective, "1-2");
        g_assert_cmpstr(cmd->isolcpus_unknown_flags[0], ==, "foo");
    }
    {
        g_autoptr(RvCmdline) cmd = parse("isolcpus=N-3", 4);   /* "Invalid flag N-3" */
        g_assert_true(cmd->isolcpus.ignored);
        g_assert_true(has_problem(cmd, "invalid flag 'N-3'"));
    }
    {
        g_autoptr(RvCmdline) cmd = parse("isolcpus=1-N", 4);
        assert_set(&cmd->isolcpus.effective, "1-3");
    }
    {
        g_autoptr(RvCmdline) cmd = parse("isolcpus=nohz,1-3 nohz_full=2-3", 4);
        g_assert_true(cmd->nohz_full.ignored);   /* must match isolcpus= */
        assert_set(&cmd->nohz_full.effective, "1-3");
    }
    {
        g_autoptr(RvCmdline) cmd = parse("isolcpus=1-3 nohz_full=2-3", 4);
        g_assert_false(cmd->nohz_full.ignored);  /* different types: no conflict */
    }
    {
        g_autoptr(RvCmdline) cmd = parse("rcu_nocbs=1-x", 4);
        assert_set(&cmd->rcu_nocbs.effective, "0-3");   /* bad range: all CPUs */
        g_assert_true(has_problem(cmd, "ALL CPUs"));
    }
    {
        g_autoptr(RvCmdline) cmd = parse("irqaffinity=2,5-x", 4);
        assert_set(&cmd->irqaffinity.effective, "0,2");   /* prefix + boot CPU */
    }
    /* quotes protect blanks; "--" hands the rest to init */
    {
        g_autoptr(RvCmdline) cmd = parse("a=\"x y\" isolcpus=1 -- --init-flag isolcpus=2", 4);
        g_assert_cmpstr(rv_host_cmdline_get(cmd, "a"), ==, "x y");
        assert_set(&cmd->isolcpus.effective, "1");
        g_assert_cmpstr(cmd->init_args[0], ==, "--init-flag");
        g_assert_cmpstr(cmd->init_args[1], ==, "isolcpus=2");
    }
    {
        g_autoptr(RvCmdline) cmd = parse("isolcpus nohz_full=", 4);
        g_assert_false(cmd->isolcpus.present);
        g_assert_true(has_problem(cmd, "'isolcpus' without '='"));
        g_assert_true(cmd->nohz_full.ignored);   /* empty list */
    }
    /* another boot CPU */
    {
        g_autoptr(RvCmdline) cmd = NULL;
        g_assert_cmpint(rv_host_cmdline_parse_full("nohz_full=all", 8, 3, &cmd, NULL), ==, 0);
        assert_set(&cmd->nohz_full.effective, "0-2,4-7");
    }
    {
        g_autoptr(RvCmdline) cmd = parse("nosmt=force hugepages=8 hugepagesz=2M hugepages=4 hugepages=5", 4);
        g_assert_cmpint(cmd->nosmt, ==, 2);
        assert_hugepages(cmd, 0, NULL, 8);
        assert_hugepages(cmd, 1, "2M", 4);
        g_assert_true(has_problem(cmd, "hugepages=5 follows another"));
    }
}

static void
test_cases_covered(void)
{
    static const char *const covered[] = {
        "csit-ampere-altra-aarch64.cmdline", "csit-cascadelake-2s-ht.cmdline",
        "csit-icelake-2s-ht.cmdline", "kernel-doc-cpulist-syntax-examples.txt",
        "kvm-guest-cn-blog-isolcpus-3.cmdline", "kvm-host-cn-blog-isolcpus-list.cmdline",
        "nixos-kernelParams-nohz_full-all-rcu_nocbs-0-N.nix",
        "openshift-machineconfig-kernelArguments-worker-rt.yaml",
    };

    rv_test_assert_cases_covered("cmdline", covered, G_N_ELEMENTS(covered));
}

int
main(int argc, char **argv)
{
    g_test_init(&argc, &argv, NULL);
    g_test_add_func("/cmdline/cases-covered", test_cases_covered);
    g_test_add_func("/cmdline/csit-altra", test_csit_altra);
    g_test_add_func("/cmdline/csit-cascadelake", test_csit_cascadelake);
    g_test_add_func("/cmdline/csit-icelake", test_csit_icelake);
    g_test_add_func("/cmdline/kernel-doc-examples", test_kernel_doc);
    g_test_add_func("/cmdline/kvm-guest-double-space", test_kvm_guest);
    g_test_add_func("/cmdline/kvm-host-typo", test_kvm_host);
    g_test_add_func("/cmdline/nixos-nohz-full-all", test_nixos);
    g_test_add_func("/cmdline/openshift-kargs", test_openshift);
    g_test_add_func("/cmdline/kernel-rules", test_kernel_rules);
    return g_test_run();
}
