/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * tests/test-guest-check.c: the judge of `guest check` / `guest xml
 * --check` (guest/check.h).
 *
 * Static cases: tests/data/guest-check/NAME.xml (hand-written domains, see
 * README there) on the 4-CPU host of tests/data/cases/topology/
 * lscpu-e-and-siblings-4cpu-rinha398.txt (SMT siblings 0,2 and 1,3) with
 * CPUs 1-3 isolated, judged alone or with neighbour domains; the text
 * report is compared with NAME.expected (RV_REGENERATE=1 rewrites them),
 * and the finding each case exists for is asserted by id and level.
 * Live cases: the /proc capture of a real TCG guest (tests/data/verify/
 * tcg-2vcpu.source.txt), whose vCPU 1 could not get SCHED_FIFO.
 */
#include "guest/check.h"
#include "guest/domain-xml.h"
#include "host/facts/topology.h"
#include "util/error.h"
#include "tests/testutil.h"

static RvGuestDomain *
load_domain_file(const char *path)
{
    g_autofree char *xml = NULL, *base = g_path_get_basename(path);
    g_autoptr(GError) err = NULL;
    RvGuestDomain *d = NULL;

    g_assert_true(g_file_get_contents(path, &xml, NULL, &err));
    int r = rv_guest_domain_load(xml, base, &d, &err);

    g_assert_no_error(err);
    g_assert_cmpint(r, ==, 0);
    return d;
}

static RvGuestDomain *
load_domain(const char *name)
{
    g_autofree char *file = g_strconcat(name, ".xml", NULL);
    g_autofree char *path = rv_test_data_path("guest-check", file);

    return load_domain_file(path);
}

/* rinha398: 4 CPUs, cores {0,2} and {1,3}; CPUs 1-3 isolated */
static RvGuestHostCpus *
rinha_host(void)
{
    g_autoptr(RvTopology) topo = rv_test_load_topology_case("lscpu-e-and-siblings-4cpu-rinha398.txt");
    RvGuestHostCpus *host = NULL;
    RvCpuSet iso;

    g_assert_cmpint(rv_guest_host_cpus_from_topology(topo, &host), ==, 0);
    rv_cpuset_zero(&iso);
    rv_cpuset_set_range(&iso, 1, 3);
    rv_guest_host_cpus_set_isolated(host, &iso, "isolcpus=1-3");
    return host;
}

static const struct {
    const char *name;
    const char *neighbour;     /* judged beside it, or NULL */
    const char *id;            /* the finding the case is about */
    RvFindingLevel level;
    guint fails;
} cases[] = {
    { "smt-ok", NULL, "topology.smt-siblings", RV_FINDING_PASS, 0 },
    { "smt-split", NULL, "topology.smt-siblings", RV_FINDING_FAIL, 1 },
    { "smt-unpinned", NULL, "topology.smt-siblings", RV_FINDING_WARN, 0 },
    { "count", NULL, "topology.vcpu-count", RV_FINDING_FAIL, 1 },
    { "hidden", NULL, "topology.hidden-siblings", RV_FINDING_NOTE, 0 },
    { "rt-one", NULL, "placement.isolated", RV_FINDING_PASS, 0 },
    { "rt-one", "neighbour", "topology.foreign-vcpu-cpu", RV_FINDING_FAIL, 1 },
    { "rt-one", "neighbour", "topology.foreign-vcpu-sibling", RV_FINDING_WARN, 1 },
    { "neighbour", "rt-one", "placement.no-rt", RV_FINDING_PASS, 0 },
};

static void
test_static(gconstpointer data)
{
    guint i = GPOINTER_TO_UINT(data);
    g_autoptr(RvGuestHostCpus) host = rinha_host();
    g_autoptr(RvGuestDomain) d = load_domain(cases[i].name);
    g_autoptr(GPtrArray) nb = g_ptr_array_new_with_free_func((GDestroyNotify) rv_guest_domain_free);
    g_autoptr(RvGuestCheckReport) rep = NULL;
    g_autoptr(GError) err = NULL;
    g_autofree char *text = NULL, *exp_name = NULL, *exp_path = NULL;
    const RvFinding *f;
    int r;

    if (cases[i].neighbour)
        g_ptr_array_add(nb, load_domain(cases[i].neighbour));
    r = rv_guest_check_judge(d, host, nb, NULL, &rep, &err);
    g_assert_no_error(err);
    g_assert_cmpint(r, ==, (int) cases[i].fails);
    g_assert_cmpuint(rep->findings->counts[RV_FINDING_FAIL], ==, cases[i].fails);
    f = rv_findings_find(rep->findings, cases[i].id);
    g_assert_nonnull(f);
    g_assert_cmpint(f->level, ==, cases[i].level);
    /* a finding that is not PASS says how to fix it */
    for (guint k = 0; k < rep->findings->items->len; k++) {
        const RvFinding *g = rep->findings->items->pdata[k];

        if (g->level == RV_FINDING_FAIL || g->level == RV_FINDING_WARN)
            g_assert_nonnull(g->fix);
    }
    text = rv_guest_check_format(rep);
    exp_name = cases[i].neighbour ? g_strdup_printf("%s+%s.expected", cases[i].name, cases[i].neighbour)
                                  : g_strdup_printf("%s.expected", cases[i].name);
    exp_path = rv_test_data_path("guest-check", exp_name);
    rv_test_compare_expected(exp_path, text);
}

/* The shared libvirt cases keep the verdicts of tests/data/domainxml/
 * libvirt/NAME.check, now with ids; SEAPATH's <topology> 1x1x4x1 = <vcpu> 4. */
static void
test_shared_libvirt(void)
{
    static const char *const names[] = { "libvirt-formatdomain-cputune-example.xml",
                                         "seapath-ssc600sw-rendered-example.xml" };

    for (guint i = 0; i < G_N_ELEMENTS(names); i++) {
        g_autofree char *path = g_build_filename(rv_test_cases_dir(), "libvirt", names[i], NULL);
        g_autoptr(RvGuestDomain) d = load_domain_file(path);
        g_autoptr(RvGuestCheckReport) rep = NULL;
        g_autoptr(GPtrArray) lines = rv_guest_placement_check(d->placement, NULL);
        g_autoptr(GError) err = NULL;
        int r = rv_guest_check_judge(d, NULL, NULL, NULL, &rep, &err);

        g_assert_no_error(err);
        g_assert_cmpint(r, ==, (int) rv_guest_placement_check_failures(lines));
        g_assert_cmpint(r, ==, i == 0 ? 9 : 0);
        for (guint k = 0; k < rep->findings->items->len; k++)
            g_assert_cmpstr(((RvFinding *) rep->findings->items->pdata[k])->id, !=, "placement.rule");
        if (i == 0) {
            g_assert_nonnull(rv_findings_find(rep->findings, "placement.emulator-on-rt"));
            g_assert_null(rv_findings_find(rep->findings, "topology.vcpu-count"));   /* no <topology> */
        } else {
            g_assert_cmpint(rv_findings_find(rep->findings, "topology.vcpu-count")->level, ==, RV_FINDING_PASS);
        }
    }
}

/* A libvirt status file: the <domain> inside, the QEMU pid and the vCPU
 * thread ids (libvirt src/qemu/qemu_domain.c qemuDomainObjPrivateXMLFormatVcpus). */
static void
test_status_file(void)
{
    static const char xml[] =
        "<domstatus state='running' reason='booted' pid='4368'>\n"
        "  <vcpus>\n    <vcpu id='0' pid='4375'/>\n    <vcpu id='1' pid='4376'/>\n  </vcpus>\n"
        "  <domain type='qemu' id='58'>\n    <name>d1probe</name>\n"
        "    <memory unit='KiB'>262144</memory>\n    <vcpu placement='static'>2</vcpu>\n"
        "    <iothreads>1</iothreads>\n"
        "    <cputune>\n      <vcpupin vcpu='1' cpuset='1'/>\n"
        "      <iothreadpin iothread='1' cpuset='0'/>\n    </cputune>\n"
        "    <os><cmdline>quiet isolcpus=managed_irq,domain,1 nohz_full=1</cmdline></os>\n"
        "  </domain>\n</domstatus>\n";
    g_autoptr(RvGuestDomain) d = NULL;
    g_autoptr(GError) err = NULL;

    g_assert_cmpint(rv_guest_domain_load(xml, "d1probe.xml", &d, &err), ==, 0);
    g_assert_no_error(err);
    g_assert_cmpstr(d->name, ==, "d1probe");
    g_assert_cmpint(d->status_pid, ==, 4368);
    g_assert_nonnull(d->status_tids);
    g_assert_cmpint(g_array_index(d->status_tids, int, 1), ==, 4376);
    g_assert_cmpuint(d->memory_bytes, ==, 256u << 20);
    g_assert_cmpuint(d->iothreadpins->len, ==, 1);
    g_assert_true(rv_cpuset_isset(&d->guest_isolated, 1));
    g_assert_false(rv_cpuset_isset(&d->guest_isolated, 0));
    g_assert_true(d->placement->vcpus[1].pinned);

    /* a domain still starting: libvirt wrote the status file before it knew
     * vCPU 0's thread; the thread ids are not used, and nothing crashes
     * (it read the array after freeing it: SIGSEGV in `guest check --root`
     * on captures taken while a guest boots) */
    {
        g_autoptr(RvGuestDomain) s = NULL;
        g_autofree char *starting = g_strdup(xml);
        char *p0 = strstr(starting, "<vcpu id='0' pid='4375'/>");

        g_assert_nonnull(p0);
        memcpy(p0, "<vcpu id='0'           />", strlen("<vcpu id='0' pid='4375'/>"));
        g_assert_cmpint(rv_guest_domain_load(starting, "starting.xml", &s, NULL), ==, 0);
        g_assert_null(s->status_tids);
        g_assert_cmpint(s->status_pid, ==, 4368);
    }

    /* bad values are named with their line */
    {
        static const struct { const char *xml, *msg; } bad[] = {
            { "<domain><vcpu>2</vcpu><cpu><topology sockets='0'/></cpu></domain>",
              "b.xml: line 1: invalid sockets='0' in <topology>" },
            { "<domain><vcpu>2</vcpu><memory unit='parsec'>1</memory></domain>",
              "b.xml: line 1: invalid <memory unit='parsec'>1</memory> (units as libvirt's virScaleInteger" },
            { "<domain><vcpu>2</vcpu><cputune><iothreadpin iothread='1'/></cputune></domain>",
              "b.xml: line 1: invalid <iothreadpin iothread='1' cpuset=''>" },
            { "<domstatus pid='1'/>", "b.xml: a libvirt status file without <domain>" },
            /* libvirt refuses these (virDomainIOThreadPinDefParseXML()) */
            { "<domain><iothreads>1</iothreads><cputune><iothreadpin iothread='2' cpuset='0'/></cputune></domain>",
              "b.xml: line 1: <iothreadpin iothread='2'> names an I/O thread the domain does not have" },
            { "<domain><iothreads>1</iothreads><cputune><iothreadpin iothread='1' cpuset='0'/>"
              "<iothreadpin iothread='1' cpuset='1'/></cputune></domain>",
              "b.xml: line 1: a second <iothreadpin iothread='1'>: libvirt refuses the domain" },
            /* and these (numa_conf.c, domain_validate.c) */
            { "<domain><numatune><memory mode='strict'/></numatune></domain>",
              "b.xml: line 1: <numatune><memory> with static placement and no nodeset: libvirt refuses it" },
            { "<domain><numatune><memory nodeset='0'/><memnode cellid='0' nodeset='0'/></numatune></domain>",
              "b.xml: line 1: <memnode>: libvirt refuses it (\"Element 'memnode' is invalid without any guest NUMA cells\")" },
            { "<domain><memoryBacking><hugepages><page size='2048' nodeset='1'/></hugepages></memoryBacking>"
              "<cpu><numa><cell id='0' cpus='0' memory='1'/></numa></cpu></domain>",
              "b.xml: <hugepages>: libvirt refuses it (\"hugepages: node 1 not found\")" },
            { "<domain><memory unit='mib'>1</memory><numatune><memory placement='auto'/></numatune></domain>", NULL },
        };

        for (guint i = 0; i < G_N_ELEMENTS(bad); i++) {
            g_autoptr(RvGuestDomain) b = NULL;
            g_autoptr(GError) e = NULL;

            if (!bad[i].msg) {   /* libvirt takes it: so does rtvirt (units case-insensitive) */
                g_assert_cmpint(rv_guest_domain_load(bad[i].xml, "b.xml", &b, &e), ==, 0);
                g_assert_cmpuint(b->memory_bytes, ==, 1u << 20);
                continue;
            }
            g_assert_cmpint(rv_guest_domain_load(bad[i].xml, "b.xml", &b, &e), ==, -EINVAL);
            g_assert_error(e, RV_ERROR, RV_ERROR_INVALID);
            if (!g_str_has_prefix(e->message, bad[i].msg))
                g_assert_cmpstr(e->message, ==, bad[i].msg);
        }
    }
}

/* The captured TCG guest: its XML asked FIFO for vCPU 1 (placed) or the
 * guest isolates vCPU 1 without it (live + isolcpus): FAIL naming the
 * thread 'CPU 1/TCG'; a kvm-pit kthread floating over the host is a WARN. */
static void
test_live(void)
{
    g_autofree char *src = rv_test_data_path("verify", "tcg-2vcpu-root");
    g_autofree char *tmp = g_dir_make_tmp("rv-gcheck-XXXXXX", NULL);
    g_autofree char *root_path = g_build_filename(tmp, "root", NULL);
    g_autofree char *cmd = g_strdup_printf("cp -a '%s' '%s'", src, root_path);
    g_autofree char *placed = rv_test_data_path("verify", "tcg-2vcpu-placed.xml");
    g_autofree char *live_xml = rv_test_data_path("verify", "tcg-2vcpu-live.xml");
    g_autofree char *xml = NULL, *iso = NULL;
    g_autoptr(RvRoot) root = NULL;
    g_autoptr(GError) err = NULL;
    g_autoptr(RvGuestHostCpus) host = rv_guest_host_cpus_new(2);
    int tids[] = { 4375, 4376 };
    RvGuestLive live = { .qemu_pid = 4368, .vcpu_tids = tids, .n_tids = 2, .where = "fixture" };
    RvCpuSet one;

    g_assert_true(g_spawn_command_line_sync(cmd, NULL, NULL, NULL, &err));
    g_assert_no_error(err);
    /* kvm-pit/4368 on both CPUs, SCHED_OTHER (a kthread: its own tgid) */
    rv_test_put(root_path, "proc/5000/stat",
                "5000 (kvm-pit/4368) S 2 0 0 0 -1 2129984 0 0 0 0 0 0 0 0 20 0 1 0 166400 0 0 "
                "18446744073709551615 0 0 0 0 0 0 0 2147483647 0 0 0 0 17 1 0 0 0 0 0 0 0 0 0 0 0 0 0\n");
    rv_test_put(root_path, "proc/5000/status",
                "Name:\tkvm-pit/4368\nTgid:\t5000\nPid:\t5000\nPPid:\t2\nKthread:\t1\nCpus_allowed_list:\t0-1\n");
    g_assert_cmpint(rv_host_root_open(root_path, &root, &err), ==, 0);
    live.root = root;
    for (unsigned c = 0; c < 2; c++) {
        rv_cpuset_zero(&one);
        rv_cpuset_set(&one, c);
        rv_guest_host_cpus_add_core(host, &one);
    }
    rv_cpuset_zero(&one);
    rv_cpuset_set(&one, 1);
    rv_guest_host_cpus_set_isolated(host, &one, "test");

    {
        g_autoptr(RvGuestDomain) d = load_domain_file(placed);
        g_autoptr(RvGuestCheckReport) rep = NULL;
        const RvFinding *f;

        g_assert_cmpint(rv_guest_check_judge(d, host, NULL, &live, &rep, &err), ==, 1);
        g_assert_no_error(err);
        g_assert_true(rep->running);
        f = rv_findings_find(rep->findings, "vcpu.scheduler");
        g_assert_nonnull(f);
        g_assert_cmpint(f->level, ==, RV_FINDING_FAIL);
        g_assert_nonnull(strstr(f->message, "thread 4376 'CPU 1/TCG'"));
        g_assert_cmpstr(f->expected, ==, "fifo 1");
        g_assert_cmpstr(f->actual, ==, "other 0");
        g_assert_null(rv_findings_find(rep->findings, "memory.locked"));   /* no <locked/> there */
        f = rv_findings_find(rep->findings, "kthread.placement");
        g_assert_nonnull(f);
        g_assert_cmpint(f->level, ==, RV_FINDING_WARN);
        g_assert_nonnull(strstr(f->message, "kvm-pit/4368"));
    }
    /* no <vcpusched> (what guest run leaves after the RT-group trap), the
     * guest isolating vCPU 1: the thread is named in a FAIL */
    g_assert_true(g_file_get_contents(live_xml, &xml, NULL, &err));
    {
        g_auto(GStrv) parts = g_strsplit(xml, "panic=-1 quiet", 2);

        g_assert_cmpuint(g_strv_length(parts), ==, 2);
        iso = g_strjoinv("panic=-1 quiet isolcpus=managed_irq,domain,1 nohz_full=1", parts);
    }
    {
        g_autoptr(RvGuestDomain) d = NULL;
        g_autoptr(RvGuestCheckReport) rep = NULL;
        const RvFinding *f;

        g_assert_cmpint(rv_guest_domain_load(iso, "live-iso.xml", &d, &err), ==, 0);
        g_assert_cmpint(rv_guest_check_judge(d, host, NULL, &live, &rep, &err), >=, 1);
        g_assert_no_error(err);
        f = rv_findings_find(rep->findings, "vcpu.isolated-not-fifo");
        g_assert_nonnull(f);
        g_assert_cmpint(f->level, ==, RV_FINDING_FAIL);
        g_assert_nonnull(strstr(f->message, "vCPU 1 thread 4376 'CPU 1/TCG' runs other 0"));
        g_assert_cmpint(rv_findings_find(rep->findings, "vcpu.isolated-not-rt")->level, ==, RV_FINDING_WARN);
        g_assert_cmpint(rv_findings_find(rep->findings, "vcpu.scheduler")->level, ==, RV_FINDING_PASS);
    }
    /* the same XML without isolcpus: nothing says RT, no such FAIL */
    {
        g_autoptr(RvGuestDomain) d = load_domain_file(live_xml);
        g_autoptr(RvGuestCheckReport) rep = NULL;

        g_assert_cmpint(rv_guest_check_judge(d, host, NULL, &live, &rep, &err), ==, 0);   /* no <locked/>: no VmLck check */
        g_assert_null(rv_findings_find(rep->findings, "vcpu.isolated-not-fifo"));
    }
    rv_test_rm_rf(tmp);
}

/* A 2-node host for the memory rules: CPUs 0-3 node 0, 4-7 node 1, one
 * thread per core, 2-3 and 6-7 isolated; 2 MiB pools: 512 on node 0, 64
 * on node 1 (576 in all). */
static RvGuestHostCpus *
numa_host(void)
{
    g_autoptr(RvGuestHostCpus) h = rv_guest_host_cpus_new(8);
    RvCpuSet one, iso;

    for (unsigned c = 0; c < 8; c++) {
        rv_cpuset_zero(&one);
        rv_cpuset_set(&one, c);
        rv_guest_host_cpus_add_core(h, &one);
    }
    for (int n = 0; n < 2; n++) {
        RvCpuGroup g = { .id = n };

        rv_cpuset_zero(&g.cpus);
        rv_cpuset_set_range(&g.cpus, n * 4, n * 4 + 3);
        g_array_append_val(h->groups, g);
    }
    h->groups_are_nodes = true;
    h->nodes_known = true;
    rv_cpuset_zero(&h->nodes);
    rv_cpuset_set_range(&h->nodes, 0, 1);
    h->hugepage_pools = g_array_new(FALSE, TRUE, sizeof(RvGuestHugepagePool));
    {
        RvGuestHugepagePool all = { -1, 2048, 576, 576 }, n0 = { 0, 2048, 512, 512 }, n1 = { 1, 2048, 64, 64 };

        g_array_append_val(h->hugepage_pools, all);
        g_array_append_val(h->hugepage_pools, n0);
        g_array_append_val(h->hugepage_pools, n1);
    }
    rv_cpuset_zero(&iso);
    rv_cpuset_set_range(&iso, 2, 3);
    rv_cpuset_set_range(&iso, 6, 7);
    rv_guest_host_cpus_set_isolated(h, &iso, "test");
    return g_steal_pointer(&h);
}

/* @xml judged on @host: the level of finding @id, or -1 when absent. */
static int
level_of(const char *xml, const RvGuestHostCpus *host, const char *id)
{
    g_autoptr(RvGuestDomain) d = NULL;
    g_autoptr(RvGuestCheckReport) rep = NULL;
    g_autoptr(GError) err = NULL;
    const RvFinding *f;

    g_assert_cmpint(rv_guest_domain_load(xml, "m.xml", &d, &err), ==, 0);
    g_assert_cmpint(rv_guest_check_judge(d, host, NULL, NULL, &rep, &err), >=, 0);
    g_assert_no_error(err);
    f = rv_findings_find(rep->findings, id);
    return f ? (int) f->level : -1;
}

#define RT_DOMAIN(MEM, BACKING, TOP, TUNE) \
    "<domain><memory unit='MiB'>" MEM "</memory><memoryBacking>" BACKING "</memoryBacking>" TOP \
    "<vcpu>2</vcpu><cputune><vcpupin vcpu='0' cpuset='0'/><vcpupin vcpu='1' cpuset='2'/>" \
    "<emulatorpin cpuset='0-1'/><vcpusched vcpus='1' scheduler='fifo' priority='1'/>" TUNE \
    "</cputune></domain>"

/* numatune, hugepages per node, locked, I/O threads, priorities, pins past
 * <vcpu>, the SMT-sibling WARN of guests without RT vCPUs. */
static void
test_rules(void)
{
    g_autoptr(RvGuestHostCpus) h = numa_host();

    /* RT vCPU on CPU 2 = node 0 */
    g_assert_cmpint(level_of(RT_DOMAIN("512", "<locked/>", "<numatune><memory nodeset='0'/></numatune>", ""),
                             h, "memory.numa-rt-node"), ==, RV_FINDING_PASS);
    g_assert_cmpint(level_of(RT_DOMAIN("512", "<locked/>", "<numatune><memory nodeset='1'/></numatune>", ""),
                             h, "memory.numa-rt-node"), ==, RV_FINDING_WARN);
    g_assert_cmpint(level_of(RT_DOMAIN("512", "<locked/>", "<numatune><memory mode='interleave' nodeset='0'/></numatune>", ""),
                             h, "memory.numa-rt-node"), ==, RV_FINDING_WARN);
    g_assert_cmpint(level_of(RT_DOMAIN("512", "<locked/>", "<numatune><memory nodeset='3'/></numatune>", ""),
                             h, "memory.numa-node"), ==, RV_FINDING_FAIL);
    /* 512 MiB = 256 pages of 2 MiB: node 0 has 512, node 1 64 */
    g_assert_cmpint(level_of(RT_DOMAIN("512", "<hugepages/><locked/>", "<numatune><memory nodeset='0'/></numatune>", ""),
                             h, "memory.hugepage-size"), ==, RV_FINDING_PASS);
    g_assert_cmpint(level_of(RT_DOMAIN("512", "<hugepages/><locked/>", "<numatune><memory nodeset='1'/></numatune>", ""),
                             h, "memory.hugepage-size"), ==, RV_FINDING_FAIL);
    g_assert_cmpint(level_of(RT_DOMAIN("512", "<hugepages><page size='1' unit='G'/></hugepages><locked/>", "", ""),
                             h, "memory.hugepage-size"), ==, RV_FINDING_FAIL);
    g_assert_cmpint(level_of(RT_DOMAIN("2048", "<hugepages><page size='2' unit='mib'/></hugepages><locked/>", "", ""),
                             h, "memory.hugepage-size"), ==, RV_FINDING_FAIL);   /* 1024 > 576 */
    /* <locked/> for RT guests */
    g_assert_cmpint(level_of(RT_DOMAIN("512", "", "", ""), h, "memory.not-locked"), ==, RV_FINDING_WARN);
    g_assert_cmpint(level_of(RT_DOMAIN("512", "<locked/>", "", ""), h, "memory.not-locked"), ==, RV_FINDING_PASS);
    /* I/O threads: pinned on the RT vCPU's CPU, unpinned (every online
     * CPU in libvirt 9.0), unpinned with <vcpu cpuset>-less emulatorpin */
    g_assert_cmpint(level_of(RT_DOMAIN("512", "<locked/>", "<iothreads>1</iothreads>", "<iothreadpin iothread='1' cpuset='2'/>"),
                             h, "iothread.rt-cpu"), ==, RV_FINDING_FAIL);
    g_assert_cmpint(level_of(RT_DOMAIN("512", "<locked/>", "<iothreads>1</iothreads>", ""),
                             h, "iothread.rt-cpu"), ==, RV_FINDING_FAIL);
    g_assert_cmpint(level_of(RT_DOMAIN("512", "<locked/>", "<iothreads>1</iothreads>",
                                       "<iothreadpin iothread='1' cpuset='1'/><iothreadsched iothreads='1' scheduler='fifo' priority='99'/>"),
                             h, "iothread.rt-cpu"), ==, RV_FINDING_PASS);
    g_assert_cmpint(level_of(RT_DOMAIN("512", "<locked/>", "<iothreads>1</iothreads>",
                                       "<iothreadsched iothreads='1' scheduler='fifo' priority='99'/>"),
                             h, "iothread.rt-cpu"), ==, RV_FINDING_FAIL);
    /* FIFO priority 0: libvirt reads it, cannot start it */
    g_assert_cmpint(level_of("<domain><vcpu>1</vcpu><cputune><vcpupin vcpu='0' cpuset='2'/><emulatorpin cpuset='0'/>"
                             "<vcpusched vcpus='0' scheduler='fifo' priority='0'/></cputune></domain>",
                             h, "vcpu.priority-range"), ==, RV_FINDING_FAIL);
    /* a pin past <vcpu>: ignored by libvirt, warned here */
    g_assert_cmpint(level_of("<domain><vcpu>1</vcpu><cputune><vcpupin vcpu='1' cpuset='2'/></cputune></domain>",
                             h, "vcpu.pin-past"), ==, RV_FINDING_WARN);
    /* <vcpu cpuset> keeps the emulator off the RT vCPU: no emulator-unpinned */
    g_assert_cmpint(level_of("<domain><vcpu cpuset='0-1'>2</vcpu><cputune><vcpupin vcpu='1' cpuset='2'/>"
                             "<vcpusched vcpus='1' scheduler='fifo' priority='1'/></cputune></domain>",
                             h, "placement.emulator-unpinned"), ==, -1);
    g_assert_cmpint(level_of("<domain><vcpu cpuset='0-2'>2</vcpu><cputune><vcpupin vcpu='1' cpuset='2'/>"
                             "<vcpusched vcpus='1' scheduler='fifo' priority='1'/></cputune></domain>",
                             h, "placement.emulator-on-rt"), ==, RV_FINDING_FAIL);
    /* an unpinned guest without RT vCPUs: no SMT-sibling WARN */
    g_assert_cmpint(level_of("<domain><vcpu>4</vcpu><cpu><topology sockets='1' dies='1' cores='2' threads='2'/></cpu></domain>",
                             h, "topology.smt-siblings"), ==, -1);
    /* CPU ids up to 16383 are read (an offline CPU here, as libvirt reads it) */
    g_assert_cmpint(level_of("<domain><vcpu>1</vcpu><cputune><vcpupin vcpu='0' cpuset='16383'/></cputune></domain>",
                             h, "placement.offline-cpu"), ==, RV_FINDING_FAIL);
}

int
main(int argc, char **argv)
{
    g_test_init(&argc, &argv, NULL);
    for (guint i = 0; i < G_N_ELEMENTS(cases); i++) {
        g_autofree char *path = g_strdup_printf("/guest/check/%s%s%s/%s", cases[i].name,
                                                cases[i].neighbour ? "+" : "",
                                                cases[i].neighbour ? cases[i].neighbour : "",
                                                cases[i].id);

        g_test_add_data_func(path, GUINT_TO_POINTER(i), test_static);
    }
    g_test_add_func("/guest/check/shared-libvirt", test_shared_libvirt);
    g_test_add_func("/guest/check/status-file", test_status_file);
    g_test_add_func("/guest/check/live", test_live);
    g_test_add_func("/guest/check/rules", test_rules);
    return g_test_run();
}
