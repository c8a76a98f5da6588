/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * harness/run.c: one repetition of a matrix scenario (see harness/run.h).
 *
 * Guests are transient libvirt domains started with
 * VIR_DOMAIN_START_AUTODESTROY (guest/libvirt.h): if rtvirt dies, even by
 * SIGKILL, libvirtd destroys them when our connection drops.  Commands run
 * inside the guests through qemu-guest-agent (guest/agent.h); everything a
 * guest sends back is bounded in size and time and parsed strictly
 * (results/cyclictest.h): a guest that hangs or sends garbage fails its
 * record with the reason, and the matrix goes on.
 */
#include <errno.h>
#include <sched.h>
#include <string.h>
#include <unistd.h>

#include "guest/agent.h"
#include "guest/domain-xml.h"
#include "guest/image.h"
#include "guest/libvirt.h"
#include "guest/profile.h"
#include "harness/log.h"
#include "harness/run.h"
#include "host/check.h"
#include "host/coresched.h"
#include "host/profile.h"
#include "results/cyclictest.h"
#include "util/error.h"
#include "util/runner.h"

/* Output we accept from one in-guest command, per stream. */
#define RUN_MAX_OUTPUT (8u << 20)
/* How long a probe guest may take to answer under KVM before we call KVM
 * unusable for QEMU here (a KVM boot of the embedded guest takes ~2 s). */
#define RUN_KVM_PROBE_MS 25000

struct RvRunEnv {
    virConnectPtr conn;
    RvGuestImage *image;
    RvGuestVirtType virt;
    char *virt_reason;           /* why tcg, for the log */
    GPtrArray *running;          /* virDomainPtr still to destroy */
    GMutex lock;
    guint64 boot_estimate_us;
};

char *
rv_harness_run_journal_path(RvRoot *root)
{
    return rv_host_root_resolve(root, RV_HARNESS_RUN_JOURNAL);
}

void
rv_harness_run_unpin(RvGuestPlacement *pl, const RvCpuSet *online)
{
    for (unsigned i = 0; i < pl->n_vcpus; i++) {
        RvGuestVcpuPlacement *v = &pl->vcpus[i];

        v->pinned = false;
        v->cpuset = *online;
        v->policy = RV_GUEST_SCHED_OTHER;
        v->priority = 0;
        v->rt = false;
    }
    pl->emulator_pinned = false;
    pl->emulator = *online;
    rv_cpuset_zero(&pl->idle_siblings);
    rv_cpuset_zero(&pl->rt_cpus);
}

char *
rv_harness_run_libvirt_sched_core_missing(RvRoot *root)
{
    g_autofree char *conf = NULL;
    g_auto(GStrv) lines = NULL;

    if (rv_host_root_read(root, "/etc/libvirt/qemu.conf", &conf, NULL) < 0)
        return g_strdup("/etc/libvirt/qemu.conf is unreadable");
    lines = g_strsplit(conf, "\n", -1);
    for (guint i = 0; lines[i]; i++) {
        char *l = g_strstrip(lines[i]);

        if (g_str_has_prefix(l, "sched_core") && strchr(l, '=')) {
            char *v = g_strstrip(strchr(l, '=') + 1);

            if (strcmp(v, "\"none\"") != 0)
                return NULL;
        }
    }
    return g_strdup("/etc/libvirt/qemu.conf sets no sched_core (libvirt >= 8.9; "
                    "qemu.conf(5)): apply a host profile with [libvirt] sched_core first");
}

int
rv_harness_run_trust(RvRoot *root, const RvMatrix *m, RvStore *store, GError **error)
{
    g_autoptr(RvHostProfile) hp = NULL;
    g_autoptr(RvCheckReport) report = NULL;
    g_autoptr(GError) local = NULL;
    int r;

    if (!m->host_profile) {
        rv_result_store_set_untrusted(store,
                                      "the matrix names no host_profile: nothing checked "
                                      "that the host was tuned for real-time guests");
        return 0;
    }
    r = rv_host_profile_load(m->host_profile, &hp, error);
    if (r < 0)
        return r;
    r = rv_host_check_run(root, hp, &report, &local);
    if (r < 0) {
        g_autofree char *why = g_strdup_printf("host check against %s failed: %s",
                                               m->host_profile, local->message);

        rv_result_store_set_untrusted(store, why);
        return 0;
    }
    for (guint i = 0; i < report->findings->len; i++) {
        const RvCheckFinding *f = report->findings->pdata[i];
        g_autofree char *why = NULL;

        rv_result_store_add_verification(store, "*", 0, f->id,
                                         rv_host_check_level_name(f->level), f->message);
        if (f->level != RV_CHECK_FAIL)
            continue;
        why = g_strdup_printf("host not as %s requires: %s (%s)", m->host_profile, f->message,
                              f->id);
        rv_result_store_set_untrusted(store, why);
    }
    return 0;
}

/* ---- environment ------------------------------------------------------- */

static int
start_domain(RvRunEnv *env, const RvGuestProfile *p, const RvGuestPlacement *pl,
             const char *name, RvGuestVirtType virt, virDomainPtr *ret, GError **error)
{
    RvGuestDomainOptions o = { 0 };
    g_autofree char *xml = NULL;
    virDomainPtr dom = NULL;
    int r;

    o.virt = virt;
    o.name = name;
    o.kernel = env->image->kernel;
    o.initrd = env->image->initrd;
    r = rv_guest_domain_xml_build(p, pl, &o, &xml, error);
    if (r < 0)
        return r;
    r = rv_guest_libvirt_start(env->conn, xml, &dom, error);
    if (r < 0)
        return r;
    g_mutex_lock(&env->lock);
    g_ptr_array_add(env->running, dom);
    g_mutex_unlock(&env->lock);
    *ret = dom;
    return 0;
}

static void
destroy_domain(RvRunEnv *env, virDomainPtr dom)
{
    if (!dom)
        return;
    rv_guest_libvirt_destroy(dom);
    g_mutex_lock(&env->lock);
    g_ptr_array_remove(env->running, dom);
    g_mutex_unlock(&env->lock);
    virDomainFree(dom);
}

/* Does QEMU really run KVM guests here?  /dev/kvm opening and libvirt
 * offering type='kvm' is not enough on nested setups: boot a small guest
 * and wait for its agent. */
static void
probe_virt(RvRunEnv *env, const RvGuestProfile *p, const RvCpuSet *online)
{
    const char *force = g_getenv("RTVIRT_VIRT");
    g_autoptr(RvGuestPlacement) pl = NULL;
    g_autoptr(GError) err = NULL;
    g_autoptr(RvGuestAgent) agent = NULL;
    g_autofree char *name = g_strdup_printf("rtvirt-virt-probe-%d", (int) getpid());
    virDomainPtr dom = NULL;
    gint64 t0;

    if (force && strcmp(force, "tcg") == 0) {
        env->virt = RV_GUEST_VIRT_QEMU;
        env->virt_reason = g_strdup("RTVIRT_VIRT=tcg");
        return;
    }
    if (!rv_guest_libvirt_has_virt_type(env->conn, "kvm")) {
        env->virt = RV_GUEST_VIRT_QEMU;
        env->virt_reason = g_strdup("libvirt offers no type='kvm' domains on this host "
                                    "(no /dev/kvm or QEMU without KVM)");
        return;
    }
    if (force && strcmp(force, "kvm") == 0) {
        env->virt = RV_GUEST_VIRT_KVM;
        return;
    }
    pl = rv_guest_placement_new(p->vcpus);
    rv_harness_run_unpin(pl, online);
    t0 = g_get_monotonic_time();
    if (start_domain(env, p, pl, name, RV_GUEST_VIRT_KVM, &dom, &err) == 0) {
        agent = rv_guest_agent_new(dom);
        if (rv_guest_agent_wait(agent, RUN_KVM_PROBE_MS, NULL, &err) == 0) {
            env->virt = RV_GUEST_VIRT_KVM;
            env->boot_estimate_us = g_get_monotonic_time() - t0;
            g_clear_pointer(&agent, rv_guest_agent_free);
            destroy_domain(env, dom);
            return;
        }
        g_clear_pointer(&agent, rv_guest_agent_free);
        destroy_domain(env, dom);
    }
    env->virt = RV_GUEST_VIRT_QEMU;
    env->virt_reason = g_strdup_printf("a probe guest did not come up under KVM within %u s (%s)",
                                       RUN_KVM_PROBE_MS / 1000,
                                       err ? err->message : "no answer");
}

int
rv_harness_run_env_new(const RvMatrix *m, RvRoot *root, RvRunEnv **ret, GError **error)
{
    RvRunEnv *env = g_new0(RvRunEnv, 1);
    g_autoptr(RvGuestProfile) probe = NULL;
    g_autoptr(RvGuestHostCpus) cpus = NULL;
    int r;

    g_mutex_init(&env->lock);
    env->running = g_ptr_array_new();
    env->boot_estimate_us = 30 * G_USEC_PER_SEC;
    r = rv_guest_libvirt_connect(NULL, &env->conn, error);
    if (r < 0)
        goto fail;
    r = rv_guest_image_build(NULL, &env->image, error);
    if (r < 0)
        goto fail;
    r = rv_guest_host_cpus_from_root(root, &cpus, error);
    if (r < 0)
        goto fail;
    if (m->guests->len) {
        r = rv_guest_profile_load(((RvMatrixGuest *) m->guests->pdata[0])->profile, &probe, error);
        if (r < 0)
            goto fail;
        probe_virt(env, probe, &cpus->online);
    } else {
        env->virt = rv_guest_libvirt_has_virt_type(env->conn, "kvm") ? RV_GUEST_VIRT_KVM
                                                                      : RV_GUEST_VIRT_QEMU;
    }
    if (env->virt == RV_GUEST_VIRT_QEMU) {
        rv_log_warn("Guests run under TCG (virt=tcg): %s; their latencies are no real-time results",
                    env->virt_reason ? env->virt_reason : "KVM unavailable");
        env->boot_estimate_us = MAX(env->boot_estimate_us, 30 * G_USEC_PER_SEC);
    }
    *ret = env;
    return 0;

fail:
    rv_harness_run_env_free(env);
    return r;
}

void
rv_harness_run_env_free(RvRunEnv *env)
{
    if (!env)
        return;
    while (env->running->len)
        destroy_domain(env, env->running->pdata[env->running->len - 1]);
    g_ptr_array_unref(env->running);
    if (env->conn)
        virConnectClose(env->conn);
    rv_guest_image_free(env->image);
    g_free(env->virt_reason);
    g_mutex_clear(&env->lock);
    g_free(env);
}

const char *
rv_harness_run_env_virt(const RvRunEnv *env)
{
    return env->virt == RV_GUEST_VIRT_KVM ? "kvm" : "tcg";
}

guint64
rv_harness_run_estimate_us(const RvRunEnv *env, const RvMatrix *m)
{
    return env->boot_estimate_us + m->warmup_us + m->duration_us + 2 * G_USEC_PER_SEC;
}

/* ---- one repetition ---------------------------------------------------- */

void
rv_harness_run_repetition_clear(RvRunRepetition *rep)
{
    g_clear_pointer(&rep->first_failure, g_free);
    g_clear_pointer(&rep->summary, g_free);
    g_clear_pointer(&rep->virt, g_free);
}

typedef struct {
    const RvMatrixGuest *mg;
    const RvGuestProfile *profile;
    const RvGuestPlacement *placement;
    char *domain_name;
    virDomainPtr dom;
    RvGuestAgent *agent;
    char *boot_error;           /* why it is not running */
    pid_t qemu_pid;
    GArray *vcpu_tids;

    /* workload thread */
    GThread *thread;
    char **argv;
    guint64 delay_us;           /* warm-up before starting */
    guint timeout_ms;
    GCancellable *cancellable;
    RvGuestExecResult res;
    GError *exec_error;
    bool started;
    GDateTime *t_start, *t_end;
} Guest;

static void
guest_clear(RvRunEnv *env, Guest *g)
{
    if (g->thread)
        g_thread_join(g->thread);
    g_clear_pointer(&g->agent, rv_guest_agent_free);
    if (g->dom)
        destroy_domain(env, g->dom);
    g->dom = NULL;
    g_free(g->domain_name);
    g_free(g->boot_error);
    if (g->vcpu_tids)
        g_array_unref(g->vcpu_tids);
    g_strfreev(g->argv);
    rv_guest_exec_result_clear(&g->res);
    g_clear_error(&g->exec_error);
    if (g->t_start)
        g_date_time_unref(g->t_start);
    if (g->t_end)
        g_date_time_unref(g->t_end);
}

/* Sleeps @us unless cancelled; returns false when cancelled. */
static bool
sleep_cancellable(guint64 us, GCancellable *cancellable)
{
    gint64 end = g_get_monotonic_time() + (gint64) us;

    while (g_get_monotonic_time() < end) {
        if (g_cancellable_is_cancelled(cancellable))
            return false;
        g_usleep(MIN((gint64) 100000, end - g_get_monotonic_time()));
    }
    return !g_cancellable_is_cancelled(cancellable);
}

static gpointer
workload_thread(gpointer data)
{
    Guest *g = data;

    if (!sleep_cancellable(g->delay_us, g->cancellable)) {
        g_set_error_literal(&g->exec_error, G_IO_ERROR, G_IO_ERROR_CANCELLED, "cancelled");
        return NULL;
    }
    g->started = true;
    g->t_start = g_date_time_new_now_utc();
    if (rv_guest_agent_exec(g->agent, (const char * const *) g->argv, g->timeout_ms,
                            RUN_MAX_OUTPUT, g->cancellable, &g->res, &g->exec_error) < 0) {
        /* exec_error says why */
    }
    g->t_end = g_date_time_new_now_utc();
    return NULL;
}

static int
read_tgid(RvRoot *root, pid_t tid, pid_t *ret)
{
    g_autofree char *path = g_strdup_printf("/proc/%d/status", (int) tid);
    g_autofree char *text = NULL;
    const char *p;

    if (rv_host_root_read(root, path, &text, NULL) < 0)
        return -ESRCH;
    p = strstr(text, "\nTgid:");
    if (!p)
        return -EPROTO;
    *ret = (pid_t) g_ascii_strtoll(p + 6, NULL, 10);
    return 0;
}

/* Live verification (issue 3 item 8): each vCPU thread's affinity, policy
 * and priority against the placement the domain was built from. */
static void
verify_placement(RvRunRepetition *rep, Guest *g)
{
    const RvGuestPlacement *pl = g->placement;
    bool all_ok = true;

    for (guint i = 0; i < g->vcpu_tids->len && i < pl->n_vcpus; i++) {
        const RvGuestVcpuPlacement *v = &pl->vcpus[i];
        pid_t tid = g_array_index(g->vcpu_tids, int, i);
        cpu_set_t mask;
        struct sched_param sp = { 0 };
        int policy;
        RvCpuSet got;
        g_autofree char *want_s = NULL, *got_s = NULL, *what = NULL, *detail = NULL;
        bool ok;

        what = g_strdup_printf("guest %s vcpu%u", g->mg->name, i);
        if (sched_getaffinity(tid, sizeof(mask), &mask) < 0 ||
            (policy = sched_getscheduler(tid)) < 0 || sched_getparam(tid, &sp) < 0) {
            detail = g_strdup_printf("thread %d: %s", (int) tid, g_strerror(errno));
            rv_result_store_add_verification(rep->store, rep->cell, rep->repetition, what,
                                             "FAIL", detail);
            all_ok = false;
            continue;
        }
        rv_cpuset_zero(&got);
        for (int c = 0; c < CPU_SETSIZE && c < RV_CPUSET_MAX; c++)
            if (CPU_ISSET(c, &mask))
                rv_cpuset_set(&got, c);
        got_s = rv_host_cpulist_format(&got);
        want_s = rv_host_cpulist_format(&v->cpuset);
        ok = (!v->pinned || rv_cpuset_equal(&got, &v->cpuset)) &&
             policy == rv_guest_sched_policy_to_linux(v->policy) &&
             (v->priority == 0 || sp.sched_priority == v->priority);
        detail = g_strdup_printf("thread %d: CPUs %s (want %s%s), %s:%d (want %s:%d)", (int) tid,
                                 got_s, want_s, v->pinned ? "" : ", unpinned",
                                 policy == SCHED_FIFO ? "fifo" : policy == SCHED_RR ? "rr" : "other",
                                 sp.sched_priority, rv_guest_sched_policy_name(v->policy),
                                 v->priority);
        rv_result_store_add_verification(rep->store, rep->cell, rep->repetition, what,
                                         ok ? "PASS" : "FAIL", detail);
        if (!ok) {
            g_autofree char *why = g_strdup_printf("%s %s: %s", rep->cell, what, detail);

            all_ok = false;
            rv_result_store_set_untrusted(rep->store, why);
        }
    }
    if (pl->emulator_pinned && g->qemu_pid > 0) {
        cpu_set_t mask;
        RvCpuSet got;
        g_autofree char *got_s = NULL, *want_s = NULL, *detail = NULL, *what = NULL;
        bool ok;

        what = g_strdup_printf("guest %s emulator", g->mg->name);
        if (sched_getaffinity(g->qemu_pid, sizeof(mask), &mask) == 0) {
            rv_cpuset_zero(&got);
            for (int c = 0; c < CPU_SETSIZE && c < RV_CPUSET_MAX; c++)
                if (CPU_ISSET(c, &mask))
                    rv_cpuset_set(&got, c);
            got_s = rv_host_cpulist_format(&got);
            want_s = rv_host_cpulist_format(&pl->emulator);
            ok = rv_cpuset_equal(&got, &pl->emulator);
            detail = g_strdup_printf("QEMU main thread %d: CPUs %s (want %s)", (int) g->qemu_pid,
                                     got_s, want_s);
            rv_result_store_add_verification(rep->store, rep->cell, rep->repetition, what,
                                             ok ? "PASS" : "FAIL", detail);
            all_ok &= ok;
        }
    }
    (void) all_ok;
}

/* Core cookies for coresched = vm | vcpu | libvirt, read back. */
static void
apply_coresched(RvRunRepetition *rep, Guest *guests, guint n)
{
    RvMatrixCoresched mode = rep->scenario->coresched;
    g_autoptr(GPtrArray) vms = g_ptr_array_new_with_free_func((GDestroyNotify) rv_host_coresched_vm_free);
    g_autoptr(GError) err = NULL;
    const char *what = "core cookies";

    for (guint i = 0; i < n; i++) {
        Guest *g = &guests[i];
        RvCoreSchedVm *vm = NULL;

        if (!g->dom || g->qemu_pid <= 0)
            continue;
        if (mode == RV_MATRIX_CORESCHED_VM) {
            if (rv_host_coresched_tag_vm(rep->root, g->qemu_pid, g->domain_name, &vm, &err) < 0)
                break;
        } else if (mode == RV_MATRIX_CORESCHED_VCPU) {
            for (guint v = 0; v < g->vcpu_tids->len && !err; v++)
                if (rv_host_coresched_create(g_array_index(g->vcpu_tids, int, v),
                                             RV_CORESCHED_SCOPE_THREAD, &err) < 0)
                    break;
            if (err)
                break;
            continue;
        } else {
            if (rv_host_coresched_read_vm(rep->root, g->qemu_pid, g->domain_name, &vm, &err) < 0)
                break;
        }
        g_ptr_array_add(vms, vm);
    }
    if (!err && mode == RV_MATRIX_CORESCHED_VCPU) {
        /* every vCPU thread its own non-zero cookie */
        g_autoptr(GHashTable) seen = g_hash_table_new(g_int64_hash, g_int64_equal);
        g_autoptr(GPtrArray) keep = g_ptr_array_new_with_free_func(g_free);

        for (guint i = 0; i < n && !err; i++)
            for (guint v = 0; guests[i].vcpu_tids && v < guests[i].vcpu_tids->len && !err; v++) {
                pid_t tid = g_array_index(guests[i].vcpu_tids, int, v);
                guint64 *cookie = g_new0(guint64, 1);

                g_ptr_array_add(keep, cookie);
                if (rv_host_coresched_get(tid, cookie, &err) < 0)
                    break;
                if (*cookie == 0 || g_hash_table_contains(seen, cookie))
                    rv_error_set(&err, RV_ERROR_CHECK, EPROTO,
                                 "guest %s vCPU%u (thread %d) has cookie 0x%" G_GINT64_MODIFIER
                                 "x, %s", guests[i].mg->name, v, (int) tid, *cookie,
                                 *cookie ? "shared with another vCPU" : "none");
                g_hash_table_add(seen, cookie);
            }
    }
    if (!err && vms->len &&
        rv_host_coresched_verify_vms((RvCoreSchedVm * const *) vms->pdata, vms->len, &err) < 0) {
        /* err says which VM */
    }
    if (err) {
        g_autofree char *why = g_strdup_printf("%s rep %u: core cookies: %s", rep->cell,
                                               rep->repetition, err->message);

        rv_result_store_add_verification(rep->store, rep->cell, rep->repetition, what, "FAIL",
                                         err->message);
        rv_result_store_set_untrusted(rep->store, why);
    } else {
        g_autoptr(GString) d = g_string_new(NULL);

        for (guint i = 0; i < vms->len; i++) {
            RvCoreSchedVm *vm = vms->pdata[i];

            g_string_append_printf(d, "%s%s: %u threads, cookie 0x%" G_GINT64_MODIFIER "x",
                                   d->len ? "; " : "", vm->name ? vm->name : "?",
                                   vm->threads->len, vm->cookie);
        }
        if (mode == RV_MATRIX_CORESCHED_VCPU)
            g_string_append(d, "one distinct cookie per vCPU thread");
        rv_result_store_add_verification(rep->store, rep->cell, rep->repetition, what, "PASS",
                                         d->str);
    }
}

/* The neighbour load, as a busybox sh script inside the guest (argv to the
 * agent; the script holds only numbers we formatted). */
static char **
neighbour_argv(RvMatrixWorkload w, unsigned workers, guint64 seconds)
{
    g_autofree char *script = NULL;

    if (w == RV_MATRIX_WORKLOAD_HACKBENCH)
        /* hackbench(8): N groups of 20 senders/receivers over sockets */
        script = g_strdup_printf("end=$(($(date +%%s)+%" G_GUINT64_FORMAT ")); n=0; "
                                 "while [ $(date +%%s) -lt $end ]; do "
                                 "hackbench -g %u -l 200 >/dev/null 2>&1 || exit 1; n=$((n+1)); "
                                 "done; echo hackbench-rounds $n", seconds, workers);
    else
        script = g_strdup_printf("i=0; while [ $i -lt %u ]; do "
                                 "timeout %" G_GUINT64_FORMAT " sh -c 'while :; do :; done' & "
                                 "i=$((i+1)); done; wait; echo stress-workers %u",
                                 workers, seconds, workers);
    return g_strdupv((char *[]) { "sh", "-c", script, NULL });
}

static char **
cyclictest_argv(const RvMatrix *m, const RvGuestProfile *p)
{
    RvGuestProfile tmp = *p;   /* shallow: only the [cyclictest] numbers change */

    if (m->cyclictest_interval_us)
        tmp.ct_interval_us = m->cyclictest_interval_us;
    if (m->cyclictest_priority)
        tmp.ct_priority = (int) m->cyclictest_priority;
    if (m->cyclictest_histogram)
        tmp.ct_histogram = m->cyclictest_histogram;
    return rv_guest_profile_cyclictest_argv(&tmp, m->duration_us);
}

static void
note_failure(RvRunRepetition *rep, const char *why)
{
    rep->n_failed++;
    if (!rep->first_failure)
        rep->first_failure = g_strdup(why);
}

/* The cyclictest record of RT guest @g. */
static void
record_cyclictest(RvRunEnv *env, RvRunRepetition *rep, Guest *g)
{
    g_autofree char *target = g_strdup_printf("guest:%s", g->mg->name);
    g_autoptr(RvStoreRecord) rec = rv_result_store_record_new(rep->cell, rep->repetition,
                                                              "cyclictest", target);
    g_autofree char *why = NULL;

    rv_result_store_record_set_virt(rec, rv_harness_run_env_virt(env));
    rv_result_store_record_set_times(rec, g->t_start, g->t_end);
    if (g->boot_error) {
        why = g_strdup(g->boot_error);
    } else if (g->exec_error) {
        why = g->res.timed_out || g_error_matches(g->exec_error, RV_ERROR, RV_ERROR_TIMEOUT)
            ? g_strdup_printf("guest did not finish cyclictest within %u s: %s",
                              g->timeout_ms / 1000, g->exec_error->message)
            : g_strdup_printf("cyclictest in the guest: %s", g->exec_error->message);
    } else {
        g_autofree char *name = g_strdup_printf("%s-r%02u-%s-cyclictest.txt", rep->cell,
                                                rep->repetition, g->mg->name);
        g_autofree char *rel = NULL;
        g_autoptr(GPtrArray) runs = NULL;
        g_autoptr(GError) perr = NULL;

        g_strdelimit(name, "@", '-');
        if (rv_result_store_write_raw(rep->store, name, g->res.out, g->res.out_len, &rel,
                                      &perr) == 0)
            rv_result_store_record_add_raw(rec, rel);
        else
            rv_log_warn("%s", perr->message);
        g_clear_error(&perr);
        if (g->res.exit_status != 0) {
            g_autofree char *err1 = g_strndup(g->res.err ? g->res.err : "", 200);

            why = g_strdup_printf("cyclictest exited with status %d in the guest: %s",
                                  g->res.exit_status, g_strstrip(err1));
        } else if (g->res.truncated) {
            why = g_strdup_printf("cyclictest output exceeded %u bytes: cut, not parsed",
                                  RUN_MAX_OUTPUT);
        } else if (rv_result_cyclictest_parse(name, g->res.out, g->res.out_len, &runs,
                                              &perr) < 0) {
            why = g_strdup_printf("cyclictest output rejected: %s", perr->message);
        } else {
            const RvCyclictestRun *run = runs->pdata[runs->len - 1];
            int want_prio = rep->matrix->cyclictest_priority
                ? (int) rep->matrix->cyclictest_priority : g->profile->ct_priority;

            if (rv_result_store_record_add_cyclictest(rec, run, &perr) < 0) {
                why = g_strdup_printf("cyclictest output rejected: %s", perr->message);
            } else {
                /* what really ran: the priority of every thread */
                for (guint t = 0; t < run->threads->len; t++) {
                    const RvCyclictestThread *th = run->threads->pdata[t];

                    if (th->priority >= 0 && th->priority != want_prio) {
                        g_autofree char *d = g_strdup_printf("thread %d ran at P:%d, asked %d",
                                                             th->index, th->priority, want_prio);

                        rv_result_store_add_verification(rep->store, rep->cell,
                                                         rep->repetition,
                                                         "cyclictest priority", "FAIL", d);
                    }
                }
                if (!rep->summary)
                    rep->summary = g_strdup_printf("%s max %" G_GINT64_FORMAT " us",
                                                   g->mg->name,
                                                   rv_result_cyclictest_run_max_us(run));
            }
        }
    }
    if (why) {
        rv_result_store_record_set_status(rec, "failed", why);
        note_failure(rep, why);
    }
    rv_result_store_add_record(rep->store, g_steal_pointer(&rec));
}

/* cyclictest on host CPUs beside the guests ([host] workload). */
typedef struct {
    RvRunRepetition *rep;
    RvCpuSet cpus;
    RvRunResult res;
    GError *error;
    GDateTime *t_start, *t_end;
} HostJob;

static gpointer
host_thread(gpointer data)
{
    HostJob *h = data;
    const RvMatrix *m = h->rep->matrix;
    g_autoptr(RvRunner) runner = rv_runner_new(false);
    g_autofree char *cpus = rv_host_cpulist_format(&h->cpus);
    g_autofree char *prio = g_strdup_printf("%u", m->cyclictest_priority ? m->cyclictest_priority : 95);
    g_autofree char *interval = g_strdup_printf("%" G_GUINT64_FORMAT,
                                                m->cyclictest_interval_us ? m->cyclictest_interval_us : 1000);
    g_autofree char *dur = g_strdup_printf("%" G_GUINT64_FORMAT "s",
                                           (m->duration_us + G_USEC_PER_SEC - 1) / G_USEC_PER_SEC);
    g_autofree char *hist = g_strdup_printf("%u", m->cyclictest_histogram ? m->cyclictest_histogram : 1000);
    g_autofree char *threads = g_strdup_printf("%u", rv_cpuset_count(&h->cpus));
    const char *argv[] = { "cyclictest", "-m", "-q", "-p", prio, "-i", interval, "-D", dur,
                           "-h", hist, "-a", cpus, "-t", threads, NULL };

    if (!sleep_cancellable(m->warmup_us, h->rep->cancellable))
        return NULL;
    h->t_start = g_date_time_new_now_utc();
    if (rv_runner_run(runner, argv, NULL, (guint) (m->timeout_us / 1000), RUN_MAX_OUTPUT,
                      &h->res, &h->error) < 0) {
        /* error says why */
    }
    h->t_end = g_date_time_new_now_utc();
    return NULL;
}

static void
record_host(RvRunRepetition *rep, HostJob *h, const char *precondition_failure)
{
    g_autoptr(RvStoreRecord) rec = rv_result_store_record_new(rep->cell, rep->repetition,
                                                              "cyclictest", "host");
    g_autofree char *why = NULL;

    rv_result_store_record_set_times(rec, h->t_start, h->t_end);
    if (precondition_failure) {
        why = g_strdup(precondition_failure);
    } else if (h->error) {
        why = g_strdup_printf("host cyclictest: %s", h->error->message);
    } else if (h->res.exit_status != 0) {
        why = g_strdup_printf("host cyclictest exited with status %d: %.200s", h->res.exit_status,
                              h->res.err ? h->res.err : "");
    } else {
        g_autofree char *name = g_strdup_printf("%s-r%02u-host-cyclictest.txt", rep->cell,
                                                rep->repetition);
        g_autofree char *rel = NULL;
        g_autoptr(GPtrArray) runs = NULL;
        g_autoptr(GError) perr = NULL;

        g_strdelimit(name, "@", '-');
        if (rv_result_store_write_raw(rep->store, name, h->res.out, h->res.out_len, &rel, &perr) == 0)
            rv_result_store_record_add_raw(rec, rel);
        g_clear_error(&perr);
        if (rv_result_cyclictest_parse(name, h->res.out, h->res.out_len, &runs, &perr) < 0 ||
            rv_result_store_record_add_cyclictest(rec, runs->pdata[runs->len - 1], &perr) < 0)
            why = g_strdup_printf("host cyclictest output rejected: %s", perr->message);
    }
    if (why) {
        rv_result_store_record_set_status(rec, "failed", why);
        note_failure(rep, why);
    }
    rv_result_store_add_record(rep->store, g_steal_pointer(&rec));
}

int
rv_harness_run_repetition(RvRunEnv *env, RvRunRepetition *rep, GError **error)
{
    const RvMatrix *m = rep->matrix;
    const RvMatrixScenario *sc = rep->scenario;
    guint n = sc->guests->len;
    g_autofree Guest *guests = g_new0(Guest, n);
    HostJob host = { 0 };
    GThread *host_th = NULL;
    g_autofree char *host_skip = NULL;
    guint boot_timeout_ms = (guint) MIN(m->timeout_us / 1000, (guint64) G_MAXUINT);
    bool cancelled = false;

    rep->virt = g_strdup(rv_harness_run_env_virt(env));

    /* boot every guest, one after the other */
    for (guint i = 0; i < n && !cancelled; i++) {
        Guest *g = &guests[i];
        g_autoptr(GError) err = NULL;
        g_autofree char *phase = NULL;
        int idx = -1;

        g->mg = sc->guests->pdata[i];
        for (guint j = 0; j < m->guests->len; j++)
            if (m->guests->pdata[j] == g->mg)
                idx = (int) j;
        g->profile = rep->profiles->pdata[idx];
        g->placement = rep->placements->pdata[i];
        g->domain_name = g_strdup_printf("rtvirt-%s-%s", m->name, g->mg->name);
        g->cancellable = rep->cancellable;
        phase = g_strdup_printf("booting %s", g->mg->name);
        rv_harness_progress_phase(rep->progress, phase, 0);
        if (start_domain(env, g->profile, g->placement, g->domain_name, env->virt, &g->dom,
                         &err) < 0) {
            g->boot_error = g_strdup_printf("guest %s did not start: %s%s%s", g->mg->name,
                                            err->message,
                                            rv_guest_libvirt_is_rt_sched_error(err->message) ? " -- " : "",
                                            rv_guest_libvirt_is_rt_sched_error(err->message)
                                                ? rv_guest_libvirt_rt_sched_explanation() : "");
            continue;
        }
        g->agent = rv_guest_agent_new(g->dom);
        if (rv_guest_agent_wait(g->agent, boot_timeout_ms, rep->cancellable, &err) < 0) {
            if (g_cancellable_is_cancelled(rep->cancellable)) {
                cancelled = true;
                break;
            }
            g->boot_error = g_strdup_printf("guest %s booted but its agent did not answer: %s",
                                            g->mg->name, err->message);
            continue;
        }
        if (rv_guest_libvirt_vcpu_tids(g->dom, &g->vcpu_tids, &err) < 0) {
            g->boot_error = g_strdup_printf("guest %s: vCPU threads unknown: %s", g->mg->name,
                                            err->message);
            continue;
        }
        if (g->vcpu_tids->len)
            (void) read_tgid(rep->root, g_array_index(g->vcpu_tids, int, 0), &g->qemu_pid);
        verify_placement(rep, g);
    }
    if (rep->kill_point)
        rep->kill_point("booted");

    if (!cancelled && sc->coresched != RV_MATRIX_CORESCHED_OFF)
        apply_coresched(rep, guests, n);

    /* workloads, side by side: neighbours now, measurements after warm-up */
    if (!cancelled) {
        guint64 total_s = (m->warmup_us + m->duration_us) / G_USEC_PER_SEC + 5;

        for (guint i = 0; i < n; i++) {
            Guest *g = &guests[i];

            if (!g->dom || g->boot_error)
                continue;
            if (g->mg->role == RV_MATRIX_ROLE_NEIGHBOUR) {
                if (g->mg->workload == RV_MATRIX_WORKLOAD_NONE || rep->load->neighbour_workers == 0)
                    continue;
                g->argv = neighbour_argv(g->mg->workload, rep->load->neighbour_workers, total_s);
                g->delay_us = 0;
            } else {
                if (g->mg->workload != RV_MATRIX_WORKLOAD_CYCLICTEST)
                    continue;
                g->argv = cyclictest_argv(m, g->profile);
                g->delay_us = m->warmup_us;
            }
            g->timeout_ms = (guint) MIN(m->timeout_us / 1000, (guint64) G_MAXUINT);
            g->thread = g_thread_new("rv-guest", workload_thread, g);
        }
        if (m->host_workload == RV_MATRIX_WORKLOAD_CYCLICTEST) {
            g_autoptr(RvGuestHostCpus) hc = NULL;
            g_autoptr(GError) err = NULL;

            host.rep = rep;
            if (!m->host_cpus_isolated) {
                host.cpus = m->host_cpus;
            } else if (rv_guest_host_cpus_from_root(rep->root, &hc, &err) == 0) {
                host.cpus = hc->isolated;
            }
            if (rv_cpuset_is_empty(&host.cpus))
                host_skip = g_strdup("host cyclictest: no isolated CPU on this host "
                                     "(set [host] cpus = LIST)");
            else
                host_th = g_thread_new("rv-host", host_thread, &host);
        } else if (m->host_workload == RV_MATRIX_WORKLOAD_PERT) {
            host_skip = g_strdup("host workload pert: not wired into rtvirt run yet "
                                 "(run 'rtvirt pert' by hand)");
        }
        if (m->warmup_us) {
            rv_harness_progress_phase(rep->progress, "warm-up", m->warmup_us);
            cancelled = !sleep_cancellable(m->warmup_us, rep->cancellable);
        }
        if (!cancelled)
            rv_harness_progress_phase(rep->progress, "measuring", m->duration_us);
        for (guint i = 0; i < n; i++)
            if (guests[i].thread) {
                g_thread_join(guests[i].thread);
                guests[i].thread = NULL;
            }
        if (host_th)
            g_thread_join(host_th);
        cancelled |= g_cancellable_is_cancelled(rep->cancellable);
    }
    if (rep->kill_point)
        rep->kill_point("measured");

    if (!cancelled) {
        for (guint i = 0; i < n; i++) {
            Guest *g = &guests[i];

            if (g->mg->role == RV_MATRIX_ROLE_RT && g->mg->workload == RV_MATRIX_WORKLOAD_CYCLICTEST) {
                record_cyclictest(env, rep, g);
            } else if (g->boot_error) {
                note_failure(rep, g->boot_error);
                rv_result_store_add_verification(rep->store, rep->cell, rep->repetition,
                                                 "neighbour load", "FAIL", g->boot_error);
            } else if (g->argv) {
                g_autofree char *what = g_strdup_printf("guest %s %s load", g->mg->name,
                                                        rv_harness_matrix_workload_name(g->mg->workload));
                g_autofree char *d = g->exec_error
                    ? g_strdup(g->exec_error->message)
                    : g_strdup_printf("exit %d: %.100s", g->res.exit_status,
                                      g->res.out ? g_strstrip(g->res.out) : "");
                bool ok = !g->exec_error && g->res.exit_status == 0;

                rv_result_store_add_verification(rep->store, rep->cell, rep->repetition, what,
                                                 ok ? "PASS" : "FAIL", d);
                if (!ok) {
                    g_autofree char *why = g_strdup_printf("%s: %s", what, d);

                    note_failure(rep, why);
                }
            }
        }
        if (m->host_workload != RV_MATRIX_WORKLOAD_NONE)
            record_host(rep, &host, host_skip);
    }

    rv_harness_progress_phase(rep->progress, "tearing down", 0);
    for (guint i = 0; i < n; i++)
        guest_clear(env, &guests[i]);
    rv_run_result_clear(&host.res);
    g_clear_error(&host.error);
    g_clear_pointer(&host.t_start, g_date_time_unref);
    g_clear_pointer(&host.t_end, g_date_time_unref);
    if (rep->kill_point)
        rep->kill_point("torn-down");
    if (cancelled)
        return rv_error_set(error, RV_ERROR_FAILED, ECANCELED, "Interrupted");
    return 0;
}
