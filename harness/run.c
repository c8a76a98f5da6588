/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * harness/run.c: one repetition of a matrix scenario (see harness/run.h):
 * the environment, the phases in order, measurement and teardown.  The
 * boot pool is harness/run-pool.c, the records harness/run-records.c,
 * their shared state harness/run-priv.h.
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
#include <fcntl.h>
#include <math.h>
#include <sched.h>
#include <string.h>
#include <unistd.h>
#include <glib/gstdio.h>

#include "guest/agent.h"
#include "guest/domain-xml.h"
#include "guest/image.h"
#include "guest/libvirt.h"
#include "guest/session.h"
#include "guest/profile.h"
#include "harness/log.h"
#include "harness/run.h"
#include "harness/run-priv.h"
#include "harness/attribution.h"
#include "harness/cosched.h"
#include "host/facts/rtview.h"
#include "host/facts/snapshot.h"
#include "host/check/check.h"
#include "host/tune/coresched.h"
#include "host/tune/confine.h"
#include "host/facts/cpustat.h"
#include "host/profile/profile.h"
#include "host/facts/qemu-conf.h"
#include "results/cyclictest.h"
#include "results/histogram.h"
#include "results/pert.h"
#include "util/error.h"
#include "util/json.h"
#include "util/runner.h"
#include "util/wait.h"
#include "workloads/workload.h"

/* Output we accept from one in-guest command, per stream. */
#define RUN_MAX_OUTPUT (8u << 20)

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
    /* the placement's notes were about pinned CPUs */
    if (pl->notes)
        g_ptr_array_set_size(pl->notes, 0);
}

char *
rv_harness_run_libvirt_sched_core_missing(RvRoot *root)
{
    g_autoptr(RvQemuConf) conf = NULL;
    g_autoptr(GError) err = NULL;
    const RvQemuConfEntry *sc;
    int r;

    /* host/facts/qemu-conf.h reads it as libvirt does: the first sched_core wins */
    r = rv_host_qemu_conf_load(root, RV_QEMU_CONF_PATH, &conf, NULL, &err);
    if (r == -EINVAL)
        return g_strdup_printf("%s: libvirt's QEMU driver refuses this file", err->message);
    if (r < 0)
        return g_strdup("/etc/libvirt/qemu.conf is unreadable");
    sc = rv_host_qemu_conf_get(conf, "sched_core");
    if (sc && !(sc->type == RV_QEMU_CONF_STRING && strcmp(sc->text, "none") == 0))
        return NULL;
    return g_strdup("/etc/libvirt/qemu.conf sets no sched_core (libvirt >= 8.9; "
                    "qemu.conf(5)): apply a host profile with [libvirt] sched_core first");
}

int
rv_harness_run_trust(RvRoot *root, const RvMatrix *m, unsigned nr_cpu_ids, RvStore *store,
                     GError **error)
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
    r = rv_host_profile_load_host(m->host_profile, nr_cpu_ids, &hp, error);
    if (r < 0)
        return r;
    r = rv_host_check_run(root, hp, &report, &local);
    if (r < 0) {
        g_autofree char *why = g_strdup_printf("host check against %s failed: %s",
                                               m->host_profile, local->message);

        rv_result_store_set_untrusted(store, why);
        return 0;
    }
    for (guint i = 0; i < report->findings->items->len; i++) {
        const RvFinding *f = report->findings->items->pdata[i];
        g_autofree char *why = NULL;

        rv_result_store_add_verification(store, "*", 0, f->id,
                                         rv_finding_level_name(f->level), f->message);
        if (f->level != RV_FINDING_FAIL)
            continue;
        why = g_strdup_printf("host not as %s requires: %s (%s)", m->host_profile, f->message,
                              f->id);
        rv_result_store_set_untrusted(store, why);
    }
    return 0;
}

static int
domain_restore(RvRoot *root, const char *name, const char *uuid, gpointer user_data,
               GError **error)
{
    (void) user_data;
    /* a fixture root's journal names no domain of this host's libvirt */
    if (!uuid || !*uuid || !rv_host_root_is_live(root))
        return 0;
    return MIN(rv_guest_libvirt_destroy_by_uuid(NULL, name, uuid,
                                                RV_HARNESS_RUN_DOMAIN_REVERT_MS, error), 0);
}

void
rv_harness_run_journal_register(RvJournal *journal)
{
    rv_host_journal_set_custom_handler(journal, RV_HARNESS_RUN_JOURNAL_DOMAIN, domain_restore,
                                       NULL);
}

int
rv_harness_run_reserve(const char *dir, GError **error)
{
    g_autofree char *path = g_build_filename(dir, RV_HARNESS_RUN_RESERVE_FILE, NULL);
    g_autofree char *zeros = g_malloc0(64 * 1024);
    int fd = open(path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0600);
    int err = 0;

    if (fd < 0)
        return rv_error_set(error, RV_ERROR_FAILED, errno, "Failed to create '%s': %s", path,
                            g_strerror(errno));
    /* written, not fallocate()d: every file system takes the blocks */
    for (guint done = 0; done < RV_HARNESS_RUN_RESERVE_BYTES && !err; ) {
        ssize_t n = write(fd, zeros, MIN(64 * 1024, RV_HARNESS_RUN_RESERVE_BYTES - done));

        if (n < 0 && errno != EINTR)
            err = errno;
        else if (n > 0)
            done += (guint) n;
    }
    if (!err && fsync(fd) < 0)
        err = errno;
    close(fd);
    if (err) {
        g_unlink(path);
        return rv_error_set(error, RV_ERROR_FAILED, err,
                            "Results disk of %s has no room for the store's reserve of %u KiB: %s",
                            dir, RV_HARNESS_RUN_RESERVE_BYTES / 1024, g_strerror(err));
    }
    return 0;
}

void
rv_harness_run_reserve_release(const char *dir)
{
    g_autofree char *path = g_build_filename(dir, RV_HARNESS_RUN_RESERVE_FILE, NULL);

    (void) g_unlink(path);
}

/* ---- environment ------------------------------------------------------- */

void
rv_harness_run_env_starts(const RvRunEnv *env, guint *ret_failed, guint *ret_learned)
{
    *ret_failed = env ? env->failed_starts : 0;
    *ret_learned = env ? env->learned_starts : 0;
}

int
rv_harness_run_env_new(const RvMatrix *m, RvRoot *root, RvRunEnv **ret, GError **error)
{
    g_autofree RvRunEnv *env = g_new0(RvRunEnv, 1);
    const char *force = g_getenv("RTVIRT_VIRT");
    virConnectPtr conn = NULL;
    int r;

    (void) root;
    /* Fail before the first run when libvirt does not answer. */
    if (m->guests->len) {
        r = rv_guest_libvirt_connect(NULL, &conn, error);
        if (r < 0)
            return r;
        virConnectClose(conn);
    }
    /* $RTVIRT_VIRT spelled as --virt of `guest run` (qemu = tcg); a typo
     * is an error rather than a silent auto */
    r = rv_guest_virt_request_parse(force, &env->virt_request, error);
    if (r < 0) {
        g_prefix_error(error, "$RTVIRT_VIRT: ");
        return r;
    }
    env->boot_estimate_us = RV_HARNESS_RUN_BOOT_ESTIMATE_US;
    env->untrusted_said = g_hash_table_new_full(g_str_hash, g_str_equal, g_free, NULL);
    *ret = g_steal_pointer(&env);
    return 0;
}

void
rv_harness_run_env_free(RvRunEnv *env)
{
    if (!env)
        return;
    g_hash_table_unref(env->untrusted_said);
    g_free(env);
}

const char *
rv_harness_run_env_virt(const RvRunEnv *env)
{
    if (!env->virt_known)
        return NULL;
    return rv_guest_session_virt_label(env->virt);
}

guint64
rv_harness_run_boot_estimate_us(bool tcg, unsigned n_guests)
{
    if (!n_guests)
        return 0;
    return tcg ? n_guests * RV_HARNESS_RUN_BOOT_TCG_GUEST_US : RV_HARNESS_RUN_BOOT_ESTIMATE_US;
}

guint64
rv_harness_run_estimate_us(const RvRunEnv *env, const RvMatrix *m)
{
    guint64 boot_us = env ? env->boot_estimate_us : RV_HARNESS_RUN_BOOT_ESTIMATE_US;

    return boot_us + m->warmup_us + m->duration_us + RV_HARNESS_RUN_TEARDOWN_ESTIMATE_US;
}

/* ---- one repetition ---------------------------------------------------- */

void
rv_harness_run_repetition_clear(RvRunRepetition *rep)
{
    g_clear_pointer(&rep->first_failure, g_free);
    g_clear_pointer(&rep->summary, g_free);
    g_clear_pointer(&rep->virt, g_free);
    g_clear_pointer(&rep->store_error, g_free);
    g_clear_pointer(&rep->confinement, json_object_unref);
    g_clear_pointer(&rep->cosched, json_node_unref);
    g_clear_pointer(&rep->rt_vcpus, json_node_unref);
}

static void
guest_clear(RvRunGuest *g)
{
    if (g->thread)
        g_thread_join(g->thread);
    rv_guest_session_stop(g->session);   /* destroys the domain */
    if (g->session && g->session->teardown_error)
        /* the run journal still names it: the revert tries again */
        rv_log_warn("%s", g->session->teardown_error);
    rv_guest_session_free(g->session);
    g->session = NULL;
    g_free(g->domain_name);
    g_free(g->uuid);
    g_free(g->boot_error);
    g_free(g->cgroup);
    if (g->vcpu_tids)
        g_array_unref(g->vcpu_tids);
    g_strfreev(g->argv);
    rv_guest_exec_result_clear(&g->res);
    g_clear_error(&g->exec_error);
    g_clear_pointer(&g->attribution, json_node_unref);
    g_free(g->ct_rest);
    if (g->t_start)
        g_date_time_unref(g->t_start);
    if (g->t_end)
        g_date_time_unref(g->t_end);
}

static gpointer
workload_thread(gpointer data)
{
    RvRunGuest *g = data;

    if (!rv_wait_us(g->delay_us, g->cancellable)) {
        g_set_error_literal(&g->exec_error, G_IO_ERROR, G_IO_ERROR_CANCELLED, "cancelled");
        return NULL;
    }
    g->started = true;
    g->t_start = g_date_time_new_now_utc();
    g->mono_start = g_get_monotonic_time();
    if (rv_guest_session_exec(g->session, (const char * const *) g->argv, g->timeout_ms,
                              g->expect_ms, g->ops->max_output, &g->res, &g->exec_error) < 0) {
        /* exec_error says why */
    }
    g->mono_end = g_get_monotonic_time();
    g->t_end = g_date_time_new_now_utc();
    return NULL;
}

/* Core cookies for coresched = vm | vcpu | libvirt, read back. */
static void
apply_coresched(RvRunRepetition *rep, RvRunGuest *guests, guint n)
{
    RvMatrixCoresched mode = rep->scenario->coresched;
    g_autoptr(GPtrArray) vms = g_ptr_array_new_with_free_func((GDestroyNotify) rv_host_coresched_vm_free);
    g_autoptr(GError) err = NULL;
    const char *what = "core cookies";

    for (guint i = 0; i < n; i++) {
        RvRunGuest *g = &guests[i];
        RvCoreSchedVm *vm = NULL;

        if (!g->session || g->qemu_pid <= 0)
            continue;
        if (mode == RV_MATRIX_CORESCHED_VM) {
            if (rv_host_coresched_tag_vm(rep->root, g->qemu_pid, g->domain_name, &vm, &err) < 0)
                break;
        } else if (mode == RV_MATRIX_CORESCHED_VCPU) {
            for (guint v = 0; g->vcpu_tids && v < g->vcpu_tids->len && !err; v++)
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

/* Test hooks for tests/t-run-faults.sh, real guests misbehaving on cue:
 * RV_TEST_GUEST_HANG=CELL runs a command that never ends instead of
 * cyclictest in the RT guests of that cell (the timeout must end it);
 * RV_TEST_GUEST_GARBAGE=CELL one that prints a cyclictest-looking line
 * and random bytes (the parser must reject it). */
static char **
test_guest_argv(const char *cell)
{
    if (g_strcmp0(g_getenv("RV_TEST_GUEST_HANG"), cell) == 0)
        return g_strdupv((char *[]) { "sleep", "100000", NULL });
    if (g_strcmp0(g_getenv("RV_TEST_GUEST_GARBAGE"), cell) == 0)
        return g_strdupv((char *[]) { "sh", "-c",
                                      "echo 'T: 0 ( 123) P:95 I:1000 C: garbage Min: x'; "
                                      "head -c 4096 /dev/urandom", NULL });
    return NULL;
}

/* RV_TEST_WORKLOAD_GARBAGE=CELL:REPETITION:GUEST (tests/t-run-throughput.sh):
 * that one guest's workload in that one repetition prints random bytes
 * after a plausible first line instead of running. */
static char **
test_workload_argv(const char *cell, unsigned repetition, const char *guest)
{
    g_autofree char *want = g_strdup_printf("%s:%u:%s", cell, repetition, guest);

    if (g_strcmp0(g_getenv("RV_TEST_WORKLOAD_GARBAGE"), want) == 0)
        return g_strdupv((char *[]) { "sh", "-c",
                                      "echo 'events per second: 12x'; "
                                      "head -c 4096 /dev/urandom", NULL });
    return NULL;
}

/* What the [host] workload is asked for: the matrix's duration and
 * [cyclictest], the load level's keys of its ops table, @cpus. */
void
rv_harness_run_host_params(const RvRunRepetition *rep, const RvCpuSet *cpus, const char *self,
                           RvWorkloadParams *p)
{
    const RvMatrix *m = rep->matrix;
    const RvWorkloadOps *ops = m->host_workload;

    memset(p, 0, sizeof(*p));
    p->where = RV_WORKLOAD_HOST;
    p->duration_us = m->duration_us;
    p->load = rep->load->builtin ? NULL : rep->load->name;
    p->ct_interval_us = m->cyclictest_interval_us;
    p->ct_priority = m->cyclictest_priority;
    p->ct_histogram = m->cyclictest_histogram;
    p->cpus = *cpus;
    p->self = self;
    for (const RvWorkloadKey *k = ops->keys; k && k->key; k++) {
        gint64 v = rv_harness_matrix_load_value(rep->load, k->key);

        if (v)
            p->value[k->param] = v;
    }
}

static gpointer
host_thread(gpointer data)
{
    RvRunHostJob *h = data;
    const RvMatrix *m = h->rep->matrix;
    const RvWorkloadOps *ops = m->host_workload;
    g_autoptr(RvRunner) runner = rv_runner_new(false);
    g_autofree char *self = g_file_read_link("/proc/self/exe", NULL);
    g_autoptr(RvHostSnapshot) before = NULL, after = NULL;
    RvWorkloadParams p;
    g_auto(GStrv) argv = NULL;

    rv_harness_run_host_params(h->rep, &h->cpus, self, &p);
    argv = ops->argv(&p);
    if (!rv_wait_us(m->warmup_us, h->rep->cancellable))
        return NULL;
    /* the pipe's IPIs and timer interrupts: /proc/interrupts around it */
    if (ops == &rv_workload_pipe && rv_host_snapshot_take(h->rep->root, &before, NULL) < 0)
        before = NULL;
    h->t_start = g_date_time_new_now_utc();
    if (rv_runner_run(runner, (const char * const *) argv, NULL, (guint) (m->timeout_us / 1000),
                      ops->max_output, &h->res, &h->error) < 0) {
        /* error says why */
    }
    h->t_end = g_date_time_new_now_utc();
    if (before && rv_host_snapshot_take(h->rep->root, &after, NULL) == 0 &&
        rv_host_snapshot_diff(before, after, &h->irq_diff, NULL) < 0)
        h->irq_diff = NULL;
    return NULL;
}

static gpointer
pert_thread(gpointer data)
{
    RvRunPertJob *j = data;
    const RvMatrix *m = j->rep->matrix;
    g_autoptr(RvRunner) runner = rv_runner_new(false);
    g_autofree char *self = g_file_read_link("/proc/self/exe", NULL);
    RvWorkloadParams p = { .where = RV_WORKLOAD_HOST, .duration_us = m->duration_us,
                           .self = self, .output_path = j->json_path };
    g_auto(GStrv) argv = NULL;

    rv_cpuset_zero(&p.cpus);
    rv_cpuset_set(&p.cpus, j->cpu);
    argv = rv_workload_pert.argv(&p);
    /* this thread is on the housekeeping CPUs (confine_start()); the
     * probe starts on the CPU it measures */
    rv_runner_set_child_cpus(runner, &p.cpus);

    if (!rv_wait_us(m->warmup_us, j->rep->cancellable))
        return NULL;
    j->t_start = g_date_time_new_now_utc();
    if (rv_runner_run(runner, (const char * const *) argv, NULL, (guint) (m->timeout_us / 1000),
                      RUN_MAX_OUTPUT, &j->res, &j->error) < 0) {
        /* error says why */
    }
    j->t_end = g_date_time_new_now_utc();
    return NULL;
}

/* What guest @g's workload is asked for: the matrix's duration and
 * [cyclictest], the load level's keys of its ops table. */
static void
guest_params(const RvRunRepetition *rep, RvRunGuest *g, RvWorkloadParams *p)
{
    const RvMatrix *m = rep->matrix;

    memset(p, 0, sizeof(*p));
    p->where = g->mg->role == RV_MATRIX_ROLE_RT ? RV_WORKLOAD_RT_GUEST : RV_WORKLOAD_NEIGHBOUR;
    p->duration_us = m->duration_us;
    p->load = rep->load->builtin ? NULL : rep->load->name;
    p->profile = g->profile;
    p->vcpus = g->profile->vcpus;
    p->ct_interval_us = m->cyclictest_interval_us;
    p->ct_priority = m->cyclictest_priority;
    p->ct_histogram = m->cyclictest_histogram;
    for (const RvWorkloadKey *k = g->ops->keys; k && k->key; k++) {
        gint64 v = rv_harness_matrix_load_value(rep->load, k->key);

        if (v)
            p->value[k->param] = v;
    }
    if (g->ops->uses_neighbour_workers)
        p->value[RV_WORKLOAD_PARAM_THREADS] = rep->load->neighbour_workers;
}

/* Spike attribution: cyclictest -v in RT guests (one line per sample,
 * results/attribution.h) while the host trace runs and the output fits. */
static void
attr_verbose(RvRunRep *r, RvRunGuest *g)
{
    const RvMatrix *m = r->rep->matrix;
    guint64 interval = m->cyclictest_interval_us ? m->cyclictest_interval_us
                                                 : g->profile->ct_interval_us;
    guint64 lines = interval ? m->duration_us / interval * (guint64) g->profile->vcpus : 0;
    guint n = g_strv_length(g->argv);

    if (g->ops != &rv_workload_cyclictest || g_strcmp0(g->argv[0], "cyclictest") != 0)
        return;
    g->attr = r->attr;
    if (rv_harness_attr_skip_reason(r->attr)) {
        /* no trace: the run goes on, the record says why */
        g->attribution = rv_harness_attr_skipped(rv_harness_attr_skip_reason(r->attr));
        return;
    }
    if (!interval || lines * 28 > g->ops->max_output / 2) {
        g_autofree char *why = g_strdup_printf(
            "cyclictest -v would print about %" G_GUINT64_FORMAT " sample lines, more than the "
            "%" G_GSIZE_FORMAT "-byte output cap allows", lines, g->ops->max_output);

        g->attribution = rv_harness_attr_skipped(why);
        return;
    }
    g->argv = g_renew(char *, g->argv, n + 2);
    memmove(g->argv + 2, g->argv + 1, n * sizeof(char *));
    g->argv[1] = g_strdup("-v");
}

/* Phase 2a: the guests' workloads, each in its thread: load-only
 * neighbours now and for the whole repetition, measured workloads (RT
 * probes, throughput) after the warm-up for the duration. */
static void
start_guest_workloads(RvRunRep *r)
{
    RvRunRepetition *rep = r->rep;
    const RvMatrix *m = rep->matrix;
    guint64 total_us = m->warmup_us + m->duration_us + 5 * G_USEC_PER_SEC;

    for (guint i = 0; i < r->n; i++) {
        RvRunGuest *g = &r->guests[i];

        if (!g->session || g->boot_error || !g->mg->workload)
            continue;
        g->ops = g->mg->workload;
        guest_params(rep, g, &g->params);
        g->measured = g->ops->parse != NULL;
        if (!g->measured) {
            /* neighbour_workers = 0: the neighbours idle at this level */
            if (g->ops->uses_neighbour_workers && rep->load->neighbour_workers == 0)
                continue;
            g->params.duration_us = total_us;
            g->delay_us = 0;
        } else {
            g->delay_us = m->warmup_us;
            if (g->mg->role == RV_MATRIX_ROLE_RT)
                g->argv = test_guest_argv(rep->cell);
            if (!g->argv)
                g->argv = test_workload_argv(rep->cell, rep->repetition, g->mg->name);
        }
        if (!g->argv) {
            g->argv = g->ops->argv(&g->params);
            /* it ends by itself after its duration: the agent sleeps
             * through the window (test commands above: not known) */
            if (!g->ops->untimed)
                g->expect_ms = (guint) MIN(g->params.duration_us / 1000, (guint64) G_MAXUINT);
        }
        if (g->measured && g->mg->role == RV_MATRIX_ROLE_RT && r->attr)
            attr_verbose(r, g);
        g->timeout_ms = (guint) MIN(m->timeout_us / 1000, (guint64) G_MAXUINT);
        g->thread = g_thread_new("rv-guest", workload_thread, g);
    }
}

/* Phase 2b: the [host] workload beside the guests: cyclictest on the
 * host CPUs, or one `rtvirt pert` per CPU. */
static void
start_host_workload(RvRunRep *r)
{
    RvRunRepetition *rep = r->rep;
    const RvMatrix *m = rep->matrix;

    if (m->host_workload && m->host_workload != &rv_workload_pert) {
        g_autoptr(RvGuestHostCpus) hc = NULL;
        g_autoptr(GError) err = NULL;

        r->host.rep = rep;
        if (!m->host_cpus_isolated) {
            r->host.cpus = m->host_cpus;
        } else if (rv_guest_host_cpus_from_root(rep->root, &hc, &err) == 0) {
            r->host.cpus = hc->isolated;
        }
        if (rv_cpuset_is_empty(&r->host.cpus))
            r->host_skip = g_strdup_printf("host %s: no isolated CPU on this host "
                                           "(set [host] cpus = LIST)",
                                           rv_harness_matrix_workload_name(m->host_workload));
        else
            r->host_th = g_thread_new("rv-host", host_thread, &r->host);
    } else if (m->host_workload == &rv_workload_pert) {
        g_autoptr(RvGuestHostCpus) hc = NULL;
        RvCpuSet cpus;

        rv_cpuset_zero(&cpus);
        if (!m->host_cpus_isolated)
            cpus = m->host_cpus;
        else if (rv_guest_host_cpus_from_root(rep->root, &hc, NULL) == 0)
            cpus = hc->isolated;
        if (rv_cpuset_is_empty(&cpus)) {
            r->host_skip = g_strdup("host pert: no isolated CPU on this host "
                                    "(set [host] cpus = LIST)");
            return;
        }
        r->pert_dir = g_dir_make_tmp("rtvirt-pert-XXXXXX", NULL);
        rv_cpuset_foreach(cpu, &cpus) {
            RvRunPertJob *j = g_new0(RvRunPertJob, 1);

            j->rep = rep;
            j->cpu = cpu;
            j->json_path = g_strdup_printf("%s/cpu%d.json", r->pert_dir ? r->pert_dir : "/tmp",
                                           cpu);
            j->thread = g_thread_new("rv-pert", pert_thread, j);
            g_ptr_array_add(r->perts, j);
        }
    }
}

/* The host CPUs the booted RT guests' RT vCPUs may run on (every CPU for
 * an unpinned one). */
static void
rt_vcpu_cpus(const RvRunRep *r, RvCpuSet *cpus)
{
    rv_cpuset_zero(cpus);
    for (guint i = 0; i < r->n; i++) {
        const RvRunGuest *g = &r->guests[i];

        if (!g->session || g->boot_error || g->mg->role != RV_MATRIX_ROLE_RT || !g->placement)
            continue;
        for (unsigned v = 0; v < g->placement->n_vcpus; v++) {
            const RvGuestVcpuPlacement *vp = &g->placement->vcpus[v];

            if (!vp->rt)
                continue;
            if (!rv_cpuset_is_empty(&vp->cpuset))
                rv_cpuset_or(cpus, cpus, &vp->cpuset);
            else
                rv_cpuset_set_range(cpus, 0, (unsigned) g_get_num_processors() - 1);
        }
    }
}

/* Issue 19 part 4: before the workloads start, every thread of rtvirt on
 * the housekeeping CPUs = online - (RT vCPUs' CPUs + host probe CPUs),
 * read back; rep->confinement says what was done (or why not). */
static void
confine_start(RvRunRep *r, RvHostConfine *c)
{
    RvRunRepetition *rep = r->rep;
    const RvMatrix *m = rep->matrix;
    JsonObject *o = json_object_new();
    g_autoptr(RvGuestHostCpus) hc = NULL;
    g_autoptr(GError) err = NULL;
    RvCpuSet measured, hk, probes;
    g_autofree char *ml = NULL, *hl = NULL;

    rep->confinement = o;
    rt_vcpu_cpus(r, &measured);
    rv_cpuset_zero(&probes);
    if (m->host_workload && !m->host_cpus_isolated)
        probes = m->host_cpus;
    if (rv_guest_host_cpus_from_root(rep->root, &hc, &err) < 0) {
        json_object_set_string_member(o, "skipped", err->message);
        return;
    }
    if (m->host_workload && m->host_cpus_isolated)
        probes = hc->isolated;
    rv_cpuset_or(&measured, &measured, &probes);
    rv_cpuset_andnot(&hk, &hc->online, &measured);
    ml = rv_cpulist_format(&measured);
    hl = rv_cpulist_format(&hk);
    json_object_set_string_member(o, "measured", ml);
    json_object_set_string_member(o, "housekeeping", hl);
    if (rv_cpuset_is_empty(&measured)) {
        json_object_set_string_member(o, "skipped", "no RT vCPU or host probe in this "
                                      "repetition: nothing to keep rtvirt off");
        return;
    }
    if (rv_cpuset_is_empty(&hk)) {
        json_object_set_boolean_member(o, "ok", FALSE);
        json_object_set_string_member(o, "skipped", "every online CPU carries an RT vCPU or a "
                                      "host probe: no housekeeping CPU to confine rtvirt to");
        return;
    }
    if (rv_host_confine_self(&hk, c, &err) < 0) {
        json_object_set_boolean_member(o, "ok", FALSE);
        json_object_set_string_member(o, "skipped", err->message);
        return;
    }
    json_object_set_int_member(o, "threads", c->threads);
    json_object_set_int_member(o, "confined", c->confined);
    json_object_set_int_member(o, "gone", c->gone);
    json_object_set_boolean_member(o, "ok", c->confined + c->gone == c->threads);
    if (c->stray)
        json_object_set_string_member(o, "stray", c->stray);
}

/* Spike attribution, before the workloads start: the host trace on the
 * host CPUs the RT guests' RT vCPUs may run on. */
static void
attr_start(RvRunRep *r)
{
    RvCpuSet cpus;

    rt_vcpu_cpus(r, &cpus);
    if (rv_cpuset_is_empty(&cpus))
        return;
    r->attr = rv_harness_attr_start(r->rep->root, &cpus, r->rep->matrix->warmup_us +
                                                         r->rep->matrix->duration_us);
    if (rv_harness_attr_skip_reason(r->attr))
        rv_result_store_add_verification(r->rep->store, r->rep->cell, r->rep->repetition,
                                         "attribution", "SKIP",
                                         rv_harness_attr_skip_reason(r->attr));
}

/* After the measurement: the trace read, each RT guest's worst samples
 * told (its record takes them in record_workload()). */
static void
attr_finish(RvRunRep *r)
{
    if (!r->attr)
        return;
    rv_harness_attr_stop(r->attr);
    for (guint i = 0; i < r->n; i++) {
        RvRunGuest *g = &r->guests[i];
        g_autoptr(GArray) ct_cpus = NULL;

        if (!g->attr || g->attribution || g->exec_error || !g->res.out || g->res.exit_status)
            continue;
        ct_cpus = rv_harness_attr_ct_cpus(g->argv);
        g->attribution = rv_harness_attr_guest(
            r->attr, g->res.out, g->res.out_len,
            r->rep->matrix->cyclictest_interval_us ? r->rep->matrix->cyclictest_interval_us
                                                   : g->profile->ct_interval_us,
            ct_cpus, g->vcpu_tids, g->mono_start, g->mono_end, &g->ct_rest);
    }
}

/* Co-scheduling stats, before the workloads start: every
 * guest's QEMU, on a host with SMT; the reason why not goes to run.json. */
static void
cosched_start(RvRunRep *r)
{
    g_autofree const char **names = g_new0(const char *, r->n + 1);
    g_autofree pid_t *pids = g_new0(pid_t, r->n + 1);

    if (!r->rep->matrix->cosched_stats) {
        g_clear_pointer(&r->rep->cosched, json_node_unref);
        r->rep->cosched = rv_harness_attr_skipped("cosched_stats = no in the matrix's [main]");
        return;
    }
    for (guint i = 0; i < r->n; i++) {
        names[i] = r->guests[i].domain_name ? r->guests[i].domain_name : "?";
        pids[i] = r->guests[i].session ? r->guests[i].qemu_pid : 0;
    }
    r->cosched = rv_harness_cosched_start(r->rep->root, names, pids, r->n,
                                          r->rep->matrix->warmup_us + r->rep->matrix->duration_us);
}

/* Issue 16 part 3: after boot, the RT threads of each RT vCPU's host CPU
 * and the priority inversions there (host/facts/rtview.h), as the RT guests'
 * vCPU threads run: [{cpu, pinned, vm, vcpu, threads, inversions}]. */
static void
rt_view_record(RvRunRep *r)
{
    g_autoptr(JsonBuilder) b = json_builder_new();
    g_autoptr(GArray) host = NULL;

    json_builder_begin_array(b);
    for (guint i = 0; i < r->n; i++) {
        const RvRunGuest *g = &r->guests[i];

        if (!g->session || g->boot_error || g->mg->role != RV_MATRIX_ROLE_RT || !g->placement ||
            !g->vcpu_tids || g->qemu_pid <= 0)
            continue;
        for (unsigned v = 0; v < g->placement->n_vcpus && v < g->vcpu_tids->len; v++) {
            g_autoptr(GArray) vmt = NULL;
            g_autoptr(RvRtCpuView) view = NULL;
            RvTask t;

            if (!g->placement->vcpus[v].rt ||
                rv_host_thread_load(r->rep->root, g->qemu_pid,
                                    g_array_index(g->vcpu_tids, int, v), &t) < 0)
                continue;
            if (!host && rv_host_rt_view_host_threads(r->rep->root, &host, NULL) < 0)
                host = NULL;
            if (rv_host_rt_view_vm_threads(r->rep->root, g->qemu_pid, &vmt) < 0)
                vmt = NULL;
            view = rv_host_rt_view_build(&t, g->domain_name, host, vmt);
            rv_host_task_clear(&t);
            rv_host_rt_view_to_json(b, view);
        }
    }
    json_builder_end_array(b);
    g_clear_pointer(&r->rep->rt_vcpus, json_node_unref);
    r->rep->rt_vcpus = json_builder_get_root(b);
}

static void
cosched_finish(RvRunRep *r)
{
    if (!r->cosched)
        return;
    rv_harness_cosched_stop(r->cosched);
    g_clear_pointer(&r->rep->cosched, json_node_unref);
    r->rep->cosched = rv_harness_cosched_json(r->cosched);
    g_clear_pointer(&r->cosched, rv_harness_cosched_free);
}

/* Phase 3: warm-up, measurement, every workload thread joined. */
static void
measure(RvRunRep *r)
{
    RvRunRepetition *rep = r->rep;
    const RvMatrix *m = rep->matrix;

    gint64 t0 = g_get_monotonic_time();
    RvHostCpuTimes before, after;
    bool have_before = false;

    if (m->warmup_us) {
        rv_harness_progress_phase(rep->progress, "warm-up", m->warmup_us);
        r->cancelled = !rv_wait_us(m->warmup_us, rep->cancellable);
    }
    if (!r->cancelled) {
        rv_harness_progress_phase(rep->progress, "measuring", m->duration_us);
        /* cpu% of the measured window; the workloads' threads end it */
        have_before = rv_host_cpustat_read(rep->root, &before, NULL) == 0;
    }
    for (guint i = 0; i < r->n; i++)
        if (r->guests[i].thread && r->guests[i].measured) {
            g_thread_join(r->guests[i].thread);
            r->guests[i].thread = NULL;
        }
    if (have_before && rv_host_cpustat_read(rep->root, &after, NULL) == 0) {
        double pct = rv_host_cpustat_pct(&before, &after);

        rep->cpu_pct_known = pct >= 0;
        rep->cpu_pct = pct;
    }
    for (guint i = 0; i < r->n; i++)
        if (r->guests[i].thread) {
            g_thread_join(r->guests[i].thread);
            r->guests[i].thread = NULL;
        }
    if (r->host_th) {
        g_thread_join(r->host_th);
        r->host_th = NULL;
    }
    for (guint i = 0; i < r->perts->len; i++) {
        RvRunPertJob *j = r->perts->pdata[i];

        g_thread_join(j->thread);
        j->thread = NULL;
    }
    r->cancelled |= g_cancellable_is_cancelled(rep->cancellable);
    rep->measure_us = (guint64) (g_get_monotonic_time() - t0);
}

/* Phase 5: destroy the guests, free what the phases left. */
static void
tear_down(RvRunRep *r)
{
    g_autofree RvRunGuest **busy = g_new0(RvRunGuest *, r->n + 1);
    guint n = 0;
    gint64 t0 = g_get_monotonic_time();

    rv_harness_progress_phase(r->rep->progress, "tearing down", 0);
    /* the domains are destroyed in parallel, through the provisioning
     * pool; what is left is freed here, one guest after the other */
    for (guint i = 0; i < r->n; i++)
        if (r->guests[i].session || r->guests[i].thread)
            busy[n++] = &r->guests[i];
    if (n)
        rv_harness_run_pool_run(r, busy, n, MIN(MAX(r->rep->provision_pool, 1), n), true, 0);
    for (guint i = 0; i < r->n; i++)
        guest_clear(&r->guests[i]);
    r->rep->teardown_us = (guint64) (g_get_monotonic_time() - t0);
    for (guint i = 0; i < r->perts->len; i++) {
        RvRunPertJob *j = r->perts->pdata[i];

        if (j->thread)
            g_thread_join(j->thread);
        g_unlink(j->json_path);
        g_free(j->json_path);
        rv_run_result_clear(&j->res);
        g_clear_error(&j->error);
        g_clear_pointer(&j->t_start, g_date_time_unref);
        g_clear_pointer(&j->t_end, g_date_time_unref);
        g_free(j);
    }
    g_ptr_array_unref(r->perts);
    if (r->pert_dir)
        g_rmdir(r->pert_dir);
    g_free(r->pert_dir);
    g_free(r->host_skip);
    rv_harness_attr_free(r->attr);
    rv_harness_cosched_free(r->cosched);
    if (r->host_th)
        g_thread_join(r->host_th);
    rv_run_result_clear(&r->host.res);
    g_clear_error(&r->host.error);
    g_clear_pointer(&r->host.t_start, g_date_time_unref);
    g_clear_pointer(&r->host.t_end, g_date_time_unref);
    g_clear_pointer(&r->host.irq_diff, json_node_unref);
    g_free(r->guests);
}

int
rv_harness_run_repetition(RvRunEnv *env, RvRunRepetition *rep, GError **error)
{
    RvRunRep r = { 0 };
    gint64 t0 = g_get_monotonic_time();

    r.env = env;
    r.rep = rep;
    r.n = rep->scenario->guests->len;
    r.guests = g_new0(RvRunGuest, r.n);
    r.perts = g_ptr_array_new();

    rv_harness_run_boot_guests(&r);
    if (rep->kill_point)
        rep->kill_point("booted");
    if (!r.cancelled && rep->scenario->coresched != RV_MATRIX_CORESCHED_OFF)
        apply_coresched(rep, r.guests, r.n);
    if (!r.cancelled) {
        RvHostConfine conf = { 0 };

        confine_start(&r, &conf);
        rt_view_record(&r);
        attr_start(&r);
        cosched_start(&r);
        start_guest_workloads(&r);
        start_host_workload(&r);
        measure(&r);
        rv_host_confine_restore(&conf);
        rv_host_confine_clear(&conf);
        cosched_finish(&r);
        attr_finish(&r);
    }
    if (rep->kill_point)
        rep->kill_point("measured");
    if (!r.cancelled)
        rv_harness_run_record_all(&r);
    tear_down(&r);
    rep->wall_us = (guint64) (g_get_monotonic_time() - t0);
    if (rep->kill_point)
        rep->kill_point("torn-down");
    if (r.cancelled)
        return rv_error_set(error, RV_ERROR_FAILED, ECANCELED, "Interrupted");
    return 0;
}
