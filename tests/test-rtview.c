/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * tests/test-rtview.c: host/facts/rtview.h, the RT priority view of the CPUs
 * that carry RT vCPUs, on a /proc tree written here: stat lines in the
 * kernel's format (proc(5): field 9 flags with PF_KTHREAD 0x00200000, 39
 * processor, 40 rt_priority, 41 policy; the other fields those of a real
 * line of this machine), status Cpus_allowed_list, comm and a QEMU command
 * line as libvirt starts it ("-name guest=NAME,debug-threads=on").
 *
 * Two VMs: "rt1" (QEMU 100) with vCPU 1 FIFO 50 pinned to CPU 3, its vhost
 * worker and an I/O thread pinned there too; "rt2" (QEMU 200) whose vCPU 0
 * is SCHED_OTHER (as libvirt leaves it on this machine) and not RT: the
 * loader leaves it out; the builder, given it, flags what outranks it.
 */
#include <errno.h>

#include "host/facts/rtview.h"
#include "host/facts/threads.h"
#include "util/error.h"
#include "tests/testutil.h"

#define KT 0x00208040u   /* PF_KTHREAD | PF_NOFREEZE | PF_FORKNOEXEC */
#define UT 0x00400040u

/* a /proc/PID/stat line with @flags, @cpu, @prio, @policy */
static char *
stat_line(int pid, const char *comm, guint flags, int cpu, int prio, int policy)
{
    return g_strdup_printf("%d (%s) S 2 0 0 0 -1 %u 0 0 0 0 0 0 0 0 %d 0 1 0 100 0 0 "
                           "18446744073709551615 0 0 0 0 0 0 0 2147483647 0 0 0 0 17 %d %d %d "
                           "0 0 0 0 0 0 0 0 0 0 0\n",
                           pid, comm, flags, policy ? -prio - 1 : 20, cpu, prio, policy);
}

static void
put_task(const char *root, const char *dir, int pid, const char *comm, guint flags, int cpu,
         int prio, int policy, const char *allowed)
{
    g_autofree char *st = stat_line(pid, comm, flags, cpu, prio, policy);
    g_autofree char *status = g_strdup_printf("Name:\t%s\nKthread:\t%d\nCpus_allowed_list:\t%s\n",
                                              comm, (flags & 0x00200000u) ? 1 : 0, allowed);
    g_autofree char *c = g_strdup_printf("%s\n", comm);
    g_autofree char *p1 = g_strdup_printf("%s/stat", dir);
    g_autofree char *p2 = g_strdup_printf("%s/status", dir);
    g_autofree char *p3 = g_strdup_printf("%s/comm", dir);

    rv_test_put(root, p1, st);
    rv_test_put(root, p2, status);
    rv_test_put(root, p3, c);
}

/* a kernel thread /proc/PID (and its task/PID) */
static void
put_kthread(const char *root, int pid, const char *comm, int cpu, int prio, int policy,
            const char *allowed)
{
    g_autofree char *d = g_strdup_printf("proc/%d", pid);
    g_autofree char *t = g_strdup_printf("proc/%d/task/%d", pid, pid);

    put_task(root, d, pid, comm, KT, cpu, prio, policy, allowed);
    put_task(root, t, pid, comm, KT, cpu, prio, policy, allowed);
}

static void
put_thread(const char *root, int tgid, int tid, const char *comm, int cpu, int prio, int policy,
           const char *allowed)
{
    g_autofree char *t = g_strdup_printf("proc/%d/task/%d", tgid, tid);

    put_task(root, t, tid, comm, UT, cpu, prio, policy, allowed);
    if (tid == tgid) {
        g_autofree char *d = g_strdup_printf("proc/%d", tgid);

        put_task(root, d, tid, comm, UT, cpu, prio, policy, allowed);
    }
}

static char *
make_tree(void)
{
    g_autofree char *tmpl = g_build_filename(g_get_tmp_dir(), "rv-rtview-XXXXXX", NULL);
    char *root = g_strdup(g_mkdtemp(tmpl));
    static const char cmd1[] = "/usr/bin/qemu-system-x86_64\0-name\0guest=rt1,debug-threads=on\0-S\0";
    g_autofree char *c1 = g_build_filename(root, "proc/100/cmdline", NULL);

    g_assert_nonnull(root);
    /* host kernel threads */
    put_kthread(root, 10, "rcuc/3", 3, 51, 1, "3");
    put_kthread(root, 11, "ksoftirqd/3", 3, 0, 0, "3");
    put_kthread(root, 12, "migration/3", 3, 99, 1, "3");
    put_kthread(root, 13, "ktimers/3", 3, 1, 1, "3");
    put_kthread(root, 14, "irq/24-virtio0", 0, 50, 1, "0-3");
    put_kthread(root, 15, "irq/30-eth0", 1, 60, 1, "0-3");
    put_kthread(root, 16, "rcuc/1", 1, 1, 1, "1");
    put_kthread(root, 17, "ksoftirqd/1", 1, 0, 0, "1");
    put_kthread(root, 18, "rcuop/3", 0, 0, 0, "0-1");
    put_kthread(root, 19, "kworker/3:1", 3, 0, 0, "3");
    /* VM rt1: QEMU 100, vCPU 0 OTHER on 0-1, vCPU 1 FIFO 50 on CPU 3,
     * an I/O thread pinned to CPU 3, its vhost worker pinned to CPU 3 */
    put_thread(root, 100, 100, "qemu-system-x86", 0, 0, 0, "0-1");
    put_thread(root, 100, 101, "CPU 0/KVM", 0, 0, 0, "0-1");
    put_thread(root, 100, 102, "CPU 1/KVM", 3, 50, 1, "3");
    put_thread(root, 100, 103, "IO iothread1", 3, 0, 0, "3");
    put_kthread(root, 104, "vhost-100", 3, 0, 0, "3");
    g_assert_true(g_file_set_contents(c1, cmd1, sizeof(cmd1) - 1, NULL));
    /* VM rt2: QEMU 200, vCPU 0 SCHED_OTHER on CPU 1; another VM's vhost
     * pinned to CPU 3 is not rt1's */
    put_thread(root, 200, 200, "qemu-system-x86", 1, 0, 0, "0-1");
    put_thread(root, 200, 201, "CPU 0/KVM", 1, 0, 0, "1");
    put_kthread(root, 204, "vhost-200", 3, 0, 0, "3");
    /* user RT threads: a FIFO 60 busy loop allowed on CPU 3 (above), a
     * FIFO 10 one (below, not the guest's: listed only) */
    put_thread(root, 300, 300, "rv-busy", 3, 60, 1, "2-3");
    put_thread(root, 310, 310, "low-rt", 3, 10, 1, "3");
    return root;
}

static const RvRtInversion *
find_inv(const RvRtCpuView *v, const char *comm)
{
    for (guint i = 0; i < v->inversions->len; i++)
        if (g_str_equal(((RvRtInversion *) v->inversions->pdata[i])->comm, comm))
            return v->inversions->pdata[i];
    return NULL;
}

static bool
has_thread(const RvRtCpuView *v, const char *comm)
{
    for (guint i = 0; i < v->threads->len; i++)
        if (g_str_equal(g_array_index(v->threads, RvTask, i).comm, comm))
            return true;
    return false;
}

static void
test_load(void)
{
    g_autofree char *tree = make_tree();
    g_autoptr(RvRoot) root = NULL;
    g_autoptr(GError) err = NULL;
    g_autoptr(GPtrArray) views = NULL;
    g_autoptr(JsonBuilder) b = json_builder_new();
    g_autoptr(GString) text = g_string_new(NULL);
    const RvRtCpuView *v;
    const RvRtInversion *x;

    g_assert_cmpint(rv_host_root_open(tree, &root, &err), ==, 0);
    g_assert_cmpint(rv_host_rt_view_load(root, &views, &err), ==, 0);
    g_assert_no_error(err);
    /* only rt1's vCPU 1 runs at an RT policy */
    g_assert_cmpuint(views->len, ==, 1);
    v = views->pdata[0];
    g_assert_cmpstr(v->vm, ==, "rt1");
    g_assert_cmpuint(v->cpu, ==, 3);
    g_assert_true(v->pinned);
    g_assert_cmpint(v->vcpu.pid, ==, 102);
    /* RT threads allowed on CPU 3 and the kernel threads bound to it,
     * the VM's own threads pinned there; not rcuop/3 (OTHER, on 0-1), not
     * another VM's vhost, not CPU 1's threads */
    g_assert_true(has_thread(v, "rcuc/3") && has_thread(v, "migration/3") &&
                  has_thread(v, "ksoftirqd/3") && has_thread(v, "ktimers/3") &&
                  has_thread(v, "irq/24-virtio0") && has_thread(v, "irq/30-eth0") &&
                  has_thread(v, "vhost-100") && has_thread(v, "IO iothread1"));
    g_assert_false(has_thread(v, "rcuop/3") || has_thread(v, "vhost-200") ||
                   has_thread(v, "rcuc/1") || has_thread(v, "CPU 0/KVM"));
    g_assert_cmpstr(g_array_index(v->threads, RvTask, 0).comm, ==, "migration/3");
    /* above: rcuc/3 FIFO 51, irq/30-eth0 FIFO 60; not migration/3 (the
     * stopper: short), not irq/24 at the vCPU's own 50 */
    x = find_inv(v, "rcuc/3");
    g_assert_nonnull(x);
    g_assert_cmpint(x->kind, ==, RV_RT_INVERSION_ABOVE);
    g_assert_nonnull(strstr(x->why, "rcu_nocbs=3"));
    g_assert_nonnull(strstr(x->why, "rcuc/3 (FIFO 51) above the vCPU (FIFO 50)"));
    x = find_inv(v, "irq/30-eth0");
    g_assert_true(x && x->kind == RV_RT_INVERSION_ABOVE);
    g_assert_null(find_inv(v, "migration/3"));
    g_assert_null(find_inv(v, "irq/24-virtio0"));
    /* below: ksoftirqd/3, ktimers/3 FIFO 1, the VM's vhost and I/O thread */
    x = find_inv(v, "ksoftirqd/3");
    g_assert_true(x && x->kind == RV_RT_INVERSION_BELOW);
    g_assert_nonnull(strstr(x->why, "ksoftirqd/3 (OTHER) below the vCPU (FIFO 50) on CPU 3 only"));
    x = find_inv(v, "ktimers/3");
    g_assert_true(x && x->kind == RV_RT_INVERSION_BELOW);
    x = find_inv(v, "vhost-100");
    g_assert_true(x && x->kind == RV_RT_INVERSION_BELOW);
    g_assert_nonnull(strstr(x->why, "guest's own I/O"));
    g_assert_true(find_inv(v, "IO iothread1") != NULL);
    g_assert_null(find_inv(v, "kworker/3:1"));
    x = find_inv(v, "rv-busy");
    g_assert_true(x && x->kind == RV_RT_INVERSION_ABOVE);
    g_assert_nonnull(strstr(x->why, "user thread of process 300"));
    g_assert_true(has_thread(v, "low-rt"));
    g_assert_null(find_inv(v, "low-rt"));
    g_assert_cmpuint(v->inversions->len, ==, 7);

    json_builder_begin_array(b);
    rv_host_rt_view_to_json(b, v);
    json_builder_end_array(b);
    {
        g_autoptr(JsonNode) n = json_builder_get_root(b);
        JsonObject *o = json_array_get_object_element(json_node_get_array(n), 0);
        JsonObject *vc = json_object_get_object_member(o, "vcpu");

        g_assert_cmpint(json_object_get_int_member(o, "cpu"), ==, 3);
        g_assert_cmpstr(json_object_get_string_member(vc, "policy"), ==, "FIFO");
        g_assert_cmpint(json_object_get_int_member(vc, "rt_priority"), ==, 50);
        g_assert_cmpuint(json_array_get_length(json_object_get_array_member(o, "inversions")), ==, 7);
    }
    rv_host_rt_view_format(text, v);
    g_test_message("%s", text->str);
    g_assert_nonnull(strstr(text->str, "CPU 3: rt1 CPU 1/KVM (tid 102, FIFO 50), 10 thread(s) "
                                       "beside it, 7 inversion(s)"));
    g_assert_nonnull(strstr(text->str, "INVERSION above: rcuc/3 (FIFO 51)"));
    rv_test_rm_rf(tree);
}

/* A SCHED_OTHER vCPU (what libvirt gives on a host without RT group
 * scheduling for vCPUs): every RT kthread that can run long outranks it;
 * nothing is "below" it. */
static void
test_other_vcpu(void)
{
    g_autofree char *tree = make_tree();
    g_autoptr(RvRoot) root = NULL;
    g_autoptr(GArray) host = NULL;
    g_autoptr(RvRtCpuView) v = NULL;
    RvTask vcpu;

    g_assert_cmpint(rv_host_root_open(tree, &root, NULL), ==, 0);
    g_assert_cmpint(rv_host_rt_view_host_threads(root, &host, NULL), ==, 0);
    g_assert_cmpint(rv_host_thread_load(root, 200, 201, &vcpu), ==, 0);
    g_assert_cmpstr(vcpu.comm, ==, "CPU 0/KVM");
    v = rv_host_rt_view_build(&vcpu, NULL, host, NULL);
    g_assert_cmpstr(v->vm, ==, "qemu 200");
    g_assert_cmpuint(v->cpu, ==, 1);
    g_assert_true(find_inv(v, "rcuc/1") && find_inv(v, "irq/30-eth0") && find_inv(v, "irq/24-virtio0"));
    g_assert_null(find_inv(v, "ksoftirqd/1"));
    g_assert_cmpuint(v->inversions->len, ==, 3);
    g_assert_cmpint(rv_host_thread_load(root, 200, 999, &vcpu), ==, -ENOENT);
    rv_host_task_clear(&vcpu);
    rv_test_rm_rf(tree);
}

static void
test_vcpu_index(void)
{
    g_assert_cmpint(rv_host_vcpu_index("CPU 0/KVM"), ==, 0);
    g_assert_cmpint(rv_host_vcpu_index("CPU 12/TCG"), ==, 12);
    g_assert_cmpint(rv_host_vcpu_index("CPU 1/XYZ"), ==, -1);
    g_assert_cmpint(rv_host_vcpu_index("CPU x/KVM"), ==, -1);
    g_assert_cmpint(rv_host_vcpu_index("CPU /KVM"), ==, -1);
    g_assert_cmpint(rv_host_vcpu_index("qemu-system-x86"), ==, -1);
    g_assert_cmpint(rv_host_rt_rank(6, 0), ==, 100);
    g_assert_cmpint(rv_host_rt_rank(2, 7), ==, 7);
    g_assert_cmpint(rv_host_rt_rank(0, 0), ==, 0);
}

int
main(int argc, char **argv)
{
    g_test_init(&argc, &argv, NULL);
    g_test_add_func("/rtview/load", test_load);
    g_test_add_func("/rtview/other-vcpu", test_other_vcpu);
    g_test_add_func("/rtview/vcpu-index", test_vcpu_index);
    return g_test_run();
}
