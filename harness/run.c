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
#include "harness/guest-tools.h"
#include "harness/log.h"
#include "harness/run.h"
#include "harness/attribution.h"
#include "harness/cosched.h"
#include "host/facts/rtview.h"
#include "host/facts/snapshot.h"
#include "host/check/check.h"
#include "host/facts/cgroup.h"
#include "host/tune/coresched.h"
#include "host/tune/confine.h"
#include "host/facts/cpustat.h"
#include "host/profile/profile.h"
#include "host/facts/qemu-conf.h"
#include "results/cyclictest.h"
#include "results/histogram.h"
#include "results/pert.h"
#include "util/error.h"
#include "util/escape.h"
#include "util/file.h"
#include "util/json.h"
#include "util/runner.h"
#include "util/wait.h"
#include "workloads/workload.h"

/* Output we accept from one in-guest command, per stream. */
#define RUN_MAX_OUTPUT (8u << 20)
/* the host trace of spike attribution kept in the store up to this size */
#define RV_RUN_ATTR_RAW_MAX (16u << 20)

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

struct RvRunEnv {
    RvGuestVirtRequest virt_request;   /* AUTO until the first guest decided */
    bool virt_known;
    RvGuestVirtType virt;
    guint64 boot_estimate_us;
    GHashTable *untrusted_said;        /* reasons already in the store */
    guint failed_starts;               /* guest starts refused for a known limit */
    guint learned_starts;              /* starts that left an element out up front */
};

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
    env->boot_estimate_us = 20 * G_USEC_PER_SEC;
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

/* Each reason once in run.json, not once per repetition. */
static void
set_untrusted_once(RvRunEnv *env, RvStore *store, const char *why)
{
    /* the same cause names another pid, tid or size in every repetition:
     * compare with every digit run folded into one '#' */
    g_autoptr(GString) key = g_string_new(NULL);

    for (const char *p = why; *p; p++) {
        if (g_ascii_isdigit(*p)) {
            while (g_ascii_isdigit(p[1]))
                p++;
            g_string_append_c(key, '#');
        } else {
            g_string_append_c(key, *p);
        }
    }
    if (g_hash_table_contains(env->untrusted_said, key->str))
        return;
    g_hash_table_add(env->untrusted_said, g_string_free(g_steal_pointer(&key), FALSE));
    rv_result_store_set_untrusted(store, why);
}

const char *
rv_harness_run_env_virt(const RvRunEnv *env)
{
    if (!env->virt_known)
        return NULL;
    return rv_guest_session_virt_label(env->virt);
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
    g_clear_pointer(&rep->store_error, g_free);
    g_clear_pointer(&rep->confinement, json_object_unref);
    g_clear_pointer(&rep->cosched, json_node_unref);
    g_clear_pointer(&rep->rt_vcpus, json_node_unref);
}

typedef struct {
    const RvMatrixGuest *mg;
    const RvGuestProfile *profile;
    const RvGuestPlacement *placement;
    char *domain_name;
    char *uuid;
    RvGuestSession *session;
    char *boot_error;           /* why it is not running */
    pid_t qemu_pid;
    char *cgroup;               /* the cpu cgroup of all QEMU's threads (host/facts/cgroup.h) */
    GArray *vcpu_tids;

    /* workload thread */
    const RvWorkloadOps *ops;   /* what runs in it (NULL: nothing) */
    RvWorkloadParams params;
    bool measured;              /* a record per repetition (else load only) */
    GThread *thread;
    char **argv;
    guint64 delay_us;           /* warm-up before starting */
    guint timeout_ms;
    guint expect_ms;            /* the workload's own duration, 0 = not known */
    GCancellable *cancellable;
    RvGuestExecResult res;
    GError *exec_error;
    bool started;
    GDateTime *t_start, *t_end;

    /* provisioning (boot_guests, tear_down) */
    bool boot_cancelled;        /* a signal stopped its boot */
    guint64 boot_us;            /* session start to ready, wall */
    gint64 mono_start, mono_end;    /* CLOCK_MONOTONIC around the exec, us */
    RvHarnessAttr *attr;        /* borrowed: the repetition's trace, or NULL */
    JsonNode *attribution;      /* details.attribution of its record */
    char *ct_rest;              /* the output without cyclictest -v lines */
} Guest;

static void
guest_clear(Guest *g)
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
    Guest *g = data;

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

/* The session's live verification (guest/verify.h) and findings, into
 * the store; a FAIL makes the store untrusted (the guest did not run as
 * the scenario says). */
static void
record_session(RvRunEnv *env, RvRunRepetition *rep, Guest *g)
{
    RvGuestSession *se = g->session;

    env->failed_starts += se->failed_starts;
    env->learned_starts += se->limits_learned ? 1 : 0;

    if (se->verification) {
        for (guint i = 0; i < se->verification->checks->len; i++) {
            const RvGuestCheck *ck = se->verification->checks->pdata[i];
            g_autofree char *what = g_strdup_printf("guest %s %s", g->mg->name, ck->what);
            g_autofree char *detail = g_strdup_printf("expected %s, found %s", ck->expected,
                                                      ck->actual);

            rv_result_store_add_verification(rep->store, rep->cell, rep->repetition, what,
                                             ck->pass ? "PASS" : "FAIL", detail);
            if (!ck->pass) {
                g_autofree char *why = g_strdup_printf("%s: %s", what, detail);

                set_untrusted_once(env, rep->store, why);
            }
        }
    }
    for (guint i = 0; se->findings && i < se->findings->len; i++) {
        g_autofree char *what = g_strdup_printf("guest %s", g->mg->name);

        rv_result_store_add_verification(rep->store, rep->cell, rep->repetition, what, "NOTE",
                                         se->findings->pdata[i]);
        if (se->untrusted) {
            g_autofree char *why = g_strdup_printf("guest %s: %s", g->mg->name,
                                                   (char *) se->findings->pdata[i]);

            set_untrusted_once(env, rep->store, why);
        }
    }
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

static void
note_failure(RvRunRepetition *rep, const char *why)
{
    rep->n_failed++;
    if (!rep->first_failure)
        rep->first_failure = g_strdup(why);
}

int
rv_harness_run_write_raw(RvRunRepetition *rep, RvStoreRecord *rec, const char *name,
                         const char *data, gsize len)
{
    g_autofree char *file = g_strdup(name);
    g_autofree char *rel = NULL;
    g_autoptr(GError) err = NULL;
    int r;

    g_strdelimit(file, "@", '-');
    r = rv_result_store_write_raw(rep->store, file, data, len, &rel, &err);
    if (r == 0) {
        rv_result_store_record_add_raw(rec, rel);
        return 0;
    }
    /* the record keeps what was parsed; run.json says which file is missing */
    {
        g_autofree char *d = g_strdup_printf("raw/%s not written: %s", file, err->message);

        rv_harness_progress_clear(rep->progress);
        rv_log_warn("%s", d);
        rv_result_store_add_verification(rep->store, rep->cell, rep->repetition, "raw output",
                                         "FAIL", d);
        if (!rep->store_error)
            rep->store_error = g_steal_pointer(&d);
    }
    return r;
}

/* Host CPU utilisation over a window, in % of all CPUs (host/facts/cpustat.h);
 * NAN when unknown. */
static double
window_cpu_pct(const RvRunRepetition *rep)
{
    return rep->cpu_pct_known ? rep->cpu_pct : NAN;
}

/* details.attribution of an RT guest's cyclictest record, and the host
 * trace it was told from as a raw file beside it (harness/attribution.h). */
static void
record_attribution(RvRunRepetition *rep, Guest *g, RvStoreRecord *rec)
{
    gsize len = 0;
    const char *text = g->attr ? rv_harness_attr_trace_text(g->attr, &len) : NULL;

    rv_harness_attr_attach(rec, g->attribution);
    if (text && len <= RV_RUN_ATTR_RAW_MAX) {
        g_autofree char *name = g_strdup_printf("%s-r%02u-%s-host-trace.txt", rep->cell,
                                                rep->repetition, g->mg->name);

        (void) rv_harness_run_write_raw(rep, rec, name, text, len);
    }
}

/* The record of guest @g's measured workload (cyclictest in an RT guest,
 * linpack, sysbench... in a neighbour): the output parsed by its ops
 * table, or the reason it failed. */
static void
record_workload(RvRunEnv *env, RvRunRepetition *rep, Guest *g)
{
    const RvWorkloadOps *ops = g->ops;
    g_autofree char *target = g_strdup_printf("guest:%s", g->mg->name);
    g_autoptr(RvStoreRecord) rec = rv_result_store_record_new(rep->cell, rep->repetition,
                                                              ops->name, target);
    g_autofree char *why = NULL;

    if (rv_harness_run_env_virt(env))
        rv_result_store_record_set_virt(rec, rv_harness_run_env_virt(env));
    if (!rep->load->builtin)
        rv_result_store_record_set_load(rec, rep->load->name);
    rv_result_store_record_set_times(rec, g->t_start, g->t_end);
    if (g->boot_error) {
        why = g_strdup(g->boot_error);
    } else if (g->exec_error) {
        why = g->res.timed_out || g_error_matches(g->exec_error, RV_ERROR, RV_ERROR_TIMEOUT)
            ? g_strdup_printf("guest did not finish %s within %u s: %s", ops->name,
                              g->timeout_ms / 1000, g->exec_error->message)
            : g_strdup_printf("%s in the guest: %s", ops->name, g->exec_error->message);
    } else {
        g_autofree char *name = g_strdup_printf("%s-r%02u-%s-%s.txt", rep->cell,
                                                rep->repetition, g->mg->name, ops->name);
        RvWorkloadResult res = { .rec = rec };
        g_autoptr(GError) perr = NULL;

        (void) rv_harness_run_write_raw(rep, rec, name, g->res.out, g->res.out_len);
        g_strdelimit(name, "@", '-');
        if (g->res.exit_status != 0) {
            g_autofree char *err1 = g_strndup(g->res.err ? g->res.err : "", 200);

            why = g_strdup_printf("%s exited with status %d in the guest: %s", ops->name,
                                  g->res.exit_status, g_strstrip(err1));
        } else if (g->res.truncated) {
            why = g_strdup_printf("%s output exceeded %" G_GSIZE_FORMAT " bytes: cut, not parsed",
                                  ops->name, ops->max_output);
        } else if (ops->parse(&g->params, name, g->ct_rest ? g->ct_rest : g->res.out,
                              g->ct_rest ? strlen(g->ct_rest) : g->res.out_len, &res,
                              &perr) < 0) {
            why = g_strdup_printf("%s output rejected: %s", ops->name, perr->message);
        } else {
            g_autofree char *what = g_strdup_printf("%s priority", ops->name);

            for (guint i = 0; res.findings && i < res.findings->len; i++)
                rv_result_store_add_verification(rep->store, rep->cell, rep->repetition, what,
                                                 "FAIL", res.findings->pdata[i]);
            if (!rep->summary && res.summary)
                rep->summary = g_strdup_printf("%s %s", g->mg->name, res.summary);
            if (g->attribution)
                record_attribution(rep, g, rec);
            if (g->mg->role == RV_MATRIX_ROLE_NEIGHBOUR)
                rv_result_store_record_add_metric_full(rec, RV_STORE_METRIC_CPU_PCT,
                                                       window_cpu_pct(rep), "%",
                                                       RV_STORE_BETTER_LOWER,
                                                       RV_STORE_AGGREGATE_MEAN);
        }
        rv_workload_result_clear(&res);
    }
    if (why) {
        /* what a failed parser left is not a measurement */
        g_ptr_array_set_size(rec->metrics, 0);
        g_ptr_array_set_size(rec->histograms, 0);
        rv_result_store_record_set_status(rec, "failed", why);
        note_failure(rep, why);
    }
    rv_result_store_add_record(rep->store, g_steal_pointer(&rec));
}

/* The [host] workload beside the guests on host CPUs (cyclictest, pipe;
 * pert has its PertJob per CPU). */
typedef struct {
    RvRunRepetition *rep;
    RvCpuSet cpus;
    RvRunResult res;
    GError *error;
    GDateTime *t_start, *t_end;
    JsonNode *irq_diff;         /* pipe: host/facts/snapshot.h diff over its run */
} HostJob;

/* What the [host] workload is asked for: the matrix's duration and
 * [cyclictest], the load level's keys of its ops table, @cpus. */
static void
host_params(const RvRunRepetition *rep, const RvCpuSet *cpus, const char *self,
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
    HostJob *h = data;
    const RvMatrix *m = h->rep->matrix;
    const RvWorkloadOps *ops = m->host_workload;
    g_autoptr(RvRunner) runner = rv_runner_new(false);
    g_autofree char *self = g_file_read_link("/proc/self/exe", NULL);
    g_autoptr(RvHostSnapshot) before = NULL, after = NULL;
    RvWorkloadParams p;
    g_auto(GStrv) argv = NULL;

    host_params(h->rep, &h->cpus, self, &p);
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

/* Sum of /proc/interrupts row @row over @cpus in a host/facts/snapshot.h diff
 * (a row absent from the diff did not change: 0). */
static double
irq_row_sum(JsonNode *diff, const char *row, const RvCpuSet *cpus)
{
    JsonObject *o = diff && JSON_NODE_HOLDS_OBJECT(diff) ? json_node_get_object(diff) : NULL;
    JsonObject *irqs = o && json_object_has_member(o, "interrupts")
        ? json_object_get_object_member(o, "interrupts") : NULL;
    JsonArray *cl = o && json_object_has_member(o, "cpus") ? json_object_get_array_member(o, "cpus")
                                                            : NULL;
    JsonArray *pc;
    double sum = 0;

    if (!irqs || !cl || !json_object_has_member(irqs, row))
        return 0;
    pc = json_object_get_array_member(json_object_get_object_member(irqs, row), "per_cpu");
    for (guint i = 0; pc && i < json_array_get_length(pc) && i < json_array_get_length(cl); i++)
        if (rv_cpuset_isset(cpus, (unsigned) json_array_get_int_element(cl, i)))
            sum += (double) json_array_get_int_element(pc, i);
    return sum;
}

/* `rtvirt pert` (harness/cmd-pert.c) on one host CPU: this same binary,
 * run as a program so that the spin loop owns its CPU. */
typedef struct {
    RvRunRepetition *rep;
    int cpu;
    char *json_path;
    RvRunResult res;
    GError *error;
    GThread *thread;
    GDateTime *t_start, *t_end;
} PertJob;

static gpointer
pert_thread(gpointer data)
{
    PertJob *j = data;
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

/* One record per CPU: workload "pert", target "host:cpuN", the summary of
 * the probe's JSON (count, max, mean, stolen time, overhead) and its
 * histogram of perturbation lengths. */
static void
record_pert(RvRunRepetition *rep, PertJob *j)
{
    g_autofree char *target = g_strdup_printf("host:cpu%d", j->cpu);
    g_autoptr(RvStoreRecord) rec = rv_result_store_record_new(rep->cell, rep->repetition,
                                                              "pert", target);
    g_autofree char *why = NULL, *text = NULL;
    gsize len = 0;
    gssize n = -1;
    g_autoptr(GError) err = NULL;
    /* the probe's stderr, quoted in a one-line reason: no raw control bytes */
    g_autofree char *perr = rv_escape_value(j->res.err);

    rv_result_store_record_set_times(rec, j->t_start, j->t_end);
    if (j->error) {
        why = g_strdup_printf("rtvirt pert on CPU %d: %s", j->cpu, j->error->message);
    } else if (j->res.exit_status != 0) {
        why = g_strdup_printf("rtvirt pert on CPU %d exited with status %d: %.200s", j->cpu,
                              j->res.exit_status, perr);
    } else if ((n = rv_file_read(j->json_path, RV_FILE_READ_MAX, &text, &err)) < 0) {
        why = g_strdup_printf("rtvirt pert on CPU %d wrote no JSON: %s", j->cpu, err->message);
    } else {
        g_autofree char *name = g_strdup_printf("%s-r%02u-host-cpu%d-pert.json", rep->cell,
                                                rep->repetition, j->cpu);

        len = (gsize) n;
        (void) rv_harness_run_write_raw(rep, rec, name, text, len);
        g_strdelimit(name, "@", '-');
        RvWorkloadParams p = { .where = RV_WORKLOAD_HOST };
        RvWorkloadResult res = { .rec = rec };

        /* untrusted, read by the store's value rules (workloads/pert.c) */
        if (rv_workload_pert.parse(&p, name, text, len, &res, &err) < 0)
            why = g_strdup_printf("rtvirt pert JSON of CPU %d refused: %s", j->cpu,
                                  err->message);
    }
    if (why) {
        rv_result_store_record_set_status(rec, "failed", why);
        note_failure(rep, why);
    }
    rv_result_store_add_record(rep->store, g_steal_pointer(&rec));
}

static void
record_host(RvRunRepetition *rep, HostJob *h, const char *precondition_failure)
{
    const RvWorkloadOps *ops = rep->matrix->host_workload;
    const char *wl = rv_harness_matrix_workload_name(ops);
    g_autoptr(RvStoreRecord) rec = rv_result_store_record_new(rep->cell, rep->repetition, wl,
                                                              "host");
    RvWorkloadParams p;
    RvWorkloadResult res = { .rec = rec };
    g_autofree char *why = NULL;

    host_params(rep, &h->cpus, NULL, &p);
    rv_result_store_record_set_times(rec, h->t_start, h->t_end);
    if (precondition_failure) {
        why = g_strdup(precondition_failure);
    } else if (h->error) {
        why = g_strdup_printf("host %s: %s", wl, h->error->message);
    } else if (h->res.exit_status != 0) {
        why = g_strdup_printf("host %s exited with status %d: %.200s", wl, h->res.exit_status,
                              h->res.err ? h->res.err : "");
    } else {
        g_autofree char *name = g_strdup_printf("%s-r%02u-host-%s.txt", rep->cell,
                                                rep->repetition, wl);
        g_autoptr(GError) perr = NULL;

        (void) rv_harness_run_write_raw(rep, rec, name, h->res.out, h->res.out_len);
        g_strdelimit(name, "@", '-');
        if (ops->parse(&p, name, h->res.out, h->res.out_len, &res, &perr) < 0)
            why = g_strdup_printf("host %s output rejected: %s", wl, perr->message);
    }
    if (!why && ops == &rv_workload_pipe && h->irq_diff) {
        /* RES / CAL / LOC rows of /proc/interrupts (arch/x86/kernel/irq.c
         * arch_show_interrupts()) on the pipe's CPUs during its run */
        rv_workload_add_metric(ops, rec, "resched_ipis", irq_row_sum(h->irq_diff, "RES", &h->cpus));
        rv_workload_add_metric(ops, rec, "call_ipis", irq_row_sum(h->irq_diff, "CAL", &h->cpus));
        rv_workload_add_metric(ops, rec, "local_timer_irqs",
                               irq_row_sum(h->irq_diff, "LOC", &h->cpus));
    }
    rv_workload_result_clear(&res);
    if (why) {
        rv_result_store_record_set_status(rec, "failed", why);
        note_failure(rep, why);
    }
    rv_result_store_add_record(rep->store, g_steal_pointer(&rec));
}

/* The state of one repetition between its phases. */
typedef struct {
    RvRunEnv *env;
    RvRunRepetition *rep;
    guint n;
    Guest *guests;
    HostJob host;
    GThread *host_th;
    char *host_skip;
    GPtrArray *perts;           /* PertJob* */
    char *pert_dir;
    RvHarnessAttr *attr;        /* spike attribution's host trace */
    RvHarnessCosched *cosched;  /* co-scheduling stats' trace */
    bool cancelled;
} Rep;

/* The cpu cgroup of guest @g's QEMU and its threads, into run.json
 * (verification "cgroup", NOTE): libvirt's per-domain cgroup. */
static void
record_cgroup(RvRunRepetition *rep, Guest *g)
{
    g_autoptr(GHashTable) paths = NULL;
    g_autoptr(GError) err = NULL;
    g_autoptr(GString) d = g_string_new(NULL);
    g_autoptr(GList) keys = NULL;
    int n = rv_host_cgroup_cpu_of_threads(rep->root, g->qemu_pid, &paths, &err);

    if (n < 0) {
        rv_result_store_add_verification(rep->store, rep->cell, rep->repetition, "cgroup",
                                         "WARN", err->message);
        return;
    }
    g->cgroup = rv_host_cgroup_common(paths);
    g_string_append_printf(d, "guest %s: QEMU %d and its %d threads in cpu cgroup %s", g->mg->name,
                           (int) g->qemu_pid, n, g->cgroup);
    keys = g_list_sort(g_hash_table_get_keys(paths), (GCompareFunc) strcmp);
    for (GList *k = keys; k; k = k->next)
        g_string_append_printf(d, "%s%s x%u", k == keys ? " (" : ", ",
                               (char *) k->data + strlen(g->cgroup),
                               GPOINTER_TO_UINT(g_hash_table_lookup(paths, k->data)));
    if (keys)
        g_string_append(d, ")");
    rv_result_store_add_verification(rep->store, rep->cell, rep->repetition, "cgroup", "NOTE",
                                     d->str);
}

/* Phase 1a of guest @index (main thread, one guest after the other): who it
 * is, and its domain in the run journal before it exists.  False when it
 * is not to be booted (skipped, or the journal refused: boot_error). */
static bool
boot_guest_prepare(Rep *r, Guest *g, guint index)
{
    RvRunRepetition *rep = r->rep;
    const RvMatrix *m = rep->matrix;
    g_autoptr(GError) err = NULL;
    int idx = -1;

    g->mg = rep->scenario->guests->pdata[index];
    for (guint j = 0; j < m->guests->len; j++)
        if (m->guests->pdata[j] == g->mg)
            idx = (int) j;
    g->profile = rep->profiles->pdata[idx];
    g->placement = rep->placements->pdata[index];
    g->ops = g->mg->workload;
    g->domain_name = g_strdup_printf("rtvirt-%s-%s", m->name, g->mg->name);
    g->cancellable = rep->cancellable;
    if (g->mg->skip_reason)
        return false;   /* never booted: record_all says why */

    /* journaled before it exists: a revert after a SIGKILL or a lost
     * libvirt connection finds it by its UUID */
    g->uuid = g_uuid_string_random();
    if (rep->journal && rv_host_journal_record_custom(rep->journal,
                                                      RV_HARNESS_RUN_JOURNAL_DOMAIN,
                                                      g->domain_name, g->uuid, &err) < 0) {
        g->boot_error = g_strdup_printf("guest %s not started: the run journal cannot record "
                                        "its domain: %s", g->mg->name, err->message);
        return false;
    }
    return true;
}

/* RV_TEST_BOOT_TIMEOUT=CELL:GUEST (tests/t-run-parallel.sh): that guest's
 * boot gets 1 ms to answer its agent, so its real start fails with the
 * boot timeout while the other guests of the repetition boot beside it. */
static bool
test_boot_timeout(const char *cell, const char *guest)
{
    g_autofree char *want = g_strdup_printf("%s:%s", cell, guest);

    return g_strcmp0(g_getenv("RV_TEST_BOOT_TIMEOUT"), want) == 0;
}

/* Phase 1b of one guest: its session (define, start, agent wait,
 * verification).  Runs in a worker of the boot pool, beside other guests'
 * boots: it reads the repetition and the environment (not written while
 * the pool runs) and writes only @g (its result slot).  A guest that does
 * not start gets a boot_error; false when a signal stopped it. */
static bool
boot_guest_start(Rep *r, Guest *g, guint boot_timeout_ms)
{
    RvRunEnv *env = r->env;
    RvRunRepetition *rep = r->rep;
    RvGuestSessionOptions o = { 0 };
    RvGuestDiskImageOptions dio = { 0 };
    g_autoptr(GError) err = NULL;
    gint64 t0 = g_get_monotonic_time();

    o.uuid = g->uuid;
    o.profile = g->profile;
    o.placement = g->placement;
    o.root = rep->root;
    o.virt = env->virt_known ? (env->virt == RV_GUEST_VIRT_KVM ? RV_GUEST_VIRT_REQUEST_KVM
                                                              : RV_GUEST_VIRT_REQUEST_TCG)
                             : env->virt_request;
    o.domain_name = g->domain_name;
    o.image_needs = g->ops ? g->ops->needs : NULL;
    /* Where libvirt cannot lock memory or set FIFO, the session starts
     * without, says so in findings and fails the verification: recorded,
     * the store untrusted.  (Scenarios that need FIFO on a host with the
     * RT-group trap are SKIPPED before this.) */
    o.allow_no_fifo = true;
    o.boot_timeout_ms = test_boot_timeout(rep->cell, g->mg->name) ? 1 : boot_timeout_ms;
    o.cancellable = rep->cancellable;
    /* a disk guest's image: built once, then found in the cache */
    rv_harness_disk_image_options(&dio);
    o.disk_image = &dio;
    if (rv_guest_session_start(&o, &g->session, &err) < 0) {
        if (g_cancellable_is_cancelled(rep->cancellable))
            return false;
        g->boot_error = g_strdup_printf("guest %s did not start: %s", g->mg->name,
                                        err->message);
        return true;
    }
    g->boot_us = (guint64) (g_get_monotonic_time() - t0);
    return true;
}

/* Phase 1c of one booted guest (main thread, in guest order, so run.json
 * reads the same whatever order the boots ended in): the accelerator the
 * first one settled, its verification, cgroup and vCPU threads. */
static void
boot_guest_finish(Rep *r, Guest *g)
{
    RvRunEnv *env = r->env;
    RvRunRepetition *rep = r->rep;
    g_autoptr(GError) err = NULL;

    if (!g->session)
        return;
    if (!env->virt_known) {
        env->virt_known = true;
        env->virt = g->session->virt;
        if (env->virt != RV_GUEST_VIRT_KVM) {
            rv_harness_progress_clear(rep->progress);
            rv_log_warn("Guests run under TCG (virt=tcg): %s; their latencies are no "
                        "real-time results",
                        g->session->virt_reason ? g->session->virt_reason : "no KVM");
        }
    }
    record_session(env, rep, g);
    if (g->session->verification)
        g->qemu_pid = g->session->verification->qemu_pid;
    if (g->qemu_pid > 0)
        record_cgroup(rep, g);
    if (rv_guest_libvirt_vcpu_tids(g->session->dom, &g->vcpu_tids, &err) < 0) {
        rv_harness_progress_clear(rep->progress);
        rv_log_warn("guest %s: vCPU threads unknown: %s", g->mg->name, err->message);
    }
}

/* One cpu cgroup per VM: no two guests' threads share the deepest one. */
static void
check_cgroups(Rep *r)
{
    guint n = 0;

    for (guint i = 0; i < r->n; i++) {
        Guest *a = &r->guests[i];

        if (!a->cgroup)
            continue;
        n++;
        for (guint j = i + 1; j < r->n; j++)
            if (r->guests[j].cgroup && (strcmp(a->cgroup, r->guests[j].cgroup) == 0 ||
                                        strcmp(a->cgroup, "/") == 0)) {
                g_autofree char *why = g_strdup_printf(
                    "guests %s and %s share cpu cgroup %s: not one cgroup per VM", a->mg->name,
                    r->guests[j].mg->name, a->cgroup);

                rv_result_store_add_verification(r->rep->store, r->rep->cell,
                                                 r->rep->repetition, "cgroup", "FAIL", why);
                return;
            }
    }
    if (n > 1) {
        g_autofree char *ok = g_strdup_printf("one cpu cgroup per VM (%u guests)", n);

        rv_result_store_add_verification(r->rep->store, r->rep->cell, r->rep->repetition,
                                         "cgroup", "PASS", ok);
    }
}

/* The provisioning pool's size (boot and teardown alike): two workers per
 * online CPU of the host, sysconf(_SC_NPROCESSORS_ONLN) (a boot mostly
 * waits: for libvirtd, QEMU's start and the guest's agent), at least 2,
 * at most one per guest.  RTVIRT_PROVISION_POOL=N (1..1024) overrides the
 * rule (1: one guest after the other, as before the pool). */
static guint
provision_pool_size(guint n_guests)
{
    const char *force = g_getenv("RTVIRT_PROVISION_POOL");
    long ncpus = sysconf(_SC_NPROCESSORS_ONLN);
    guint64 size = 2 * (guint64) MAX(ncpus, 1);
    guint64 v = 0;

    if (force && *force) {
        if (g_ascii_string_to_unsigned(force, 10, 1, 1024, &v, NULL))
            size = v;
        else
            rv_log_warn("$RTVIRT_PROVISION_POOL='%s' is not a number of workers 1..1024: "
                        "ignored", force);
    }
    if (!v)
        size = MAX(size, 2);
    return (guint) MAX(MIN(size, (guint64) n_guests), 1);
}

/* One batch of guests worked on by the pool's threads: each worker takes
 * the next guest (an atomic index) and hands it back on @done when its
 * boot (or teardown) ended.  Workers write only their guest's slot. */
typedef struct {
    Rep *r;
    Guest **guests;
    guint n;
    gint next;
    bool teardown;
    guint boot_timeout_ms;
    GAsyncQueue *done;
} Pool;

static gpointer
pool_worker(gpointer data)
{
    Pool *p = data;

    for (;;) {
        guint i = (guint) g_atomic_int_add(&p->next, 1);
        Guest *g;

        if (i >= p->n)
            break;
        g = p->guests[i];
        if (p->teardown) {
            /* the workload's agent call ends first: it uses the session */
            if (g->thread)
                g_thread_join(g->thread);
            g->thread = NULL;
            rv_guest_session_stop(g->session);   /* destroys the domain */
        } else if (g_cancellable_is_cancelled(p->r->rep->cancellable)) {
            g->boot_cancelled = true;
        } else {
            g->boot_cancelled = !boot_guest_start(p->r, g, p->boot_timeout_ms);
        }
        g_async_queue_push(p->done, g);
    }
    return NULL;
}

/* Runs @n guests through @size worker threads (started here, so they
 * inherit this thread's CPU affinity) and waits for all of them; the
 * progress line counts the ones done. */
static void
pool_run(Rep *r, Guest **guests, guint n, guint size, bool teardown, guint boot_timeout_ms)
{
    Pool p = { .r = r, .guests = guests, .n = n, .teardown = teardown,
               .boot_timeout_ms = boot_timeout_ms };
    g_autofree GThread **th = g_new0(GThread *, MAX(size, 1));

    p.done = g_async_queue_new();
    for (guint i = 0; i < size; i++)
        th[i] = g_thread_new(teardown ? "rv-teardown" : "rv-provision", pool_worker, &p);
    for (guint d = 0; d < n; d++) {
        g_autofree char *phase = g_strdup_printf("%s %u guests, %u at a time (%u done)",
                                                 teardown ? "tearing down" : "booting", n, size,
                                                 d);

        rv_harness_progress_phase(r->rep->progress, phase, 0);
        (void) g_async_queue_pop(p.done);
    }
    for (guint i = 0; i < size; i++)
        g_thread_join(th[i]);
    g_async_queue_unref(p.done);
}

/* Phase 1: boot every guest, in parallel through the provisioning pool
 * (provision_pool_size()).  While the run knows neither the accelerator
 * nor the host's limits (no guest has booted yet), the first guest boots
 * alone: it settles the kvm/TCG choice and learns a refused FIFO or
 * memory lock once (guest/limits.h), so the others start right the first
 * time instead of each failing once.  One guest's failure is its own
 * boot_error; the others boot on. */
static void
boot_guests(Rep *r)
{
    RvRunRepetition *rep = r->rep;
    const RvMatrix *m = rep->matrix;
    /* booting under TCG on a loaded host takes minutes: the matrix's
     * timeout bounds the workloads, boots get at least 3 minutes */
    guint boot_timeout_ms = (guint) MIN(MAX(m->timeout_us / 1000, (guint64) 180000),
                                        (guint64) G_MAXUINT);
    g_autofree Guest **todo = g_new0(Guest *, r->n + 1);
    guint n = 0, first = 0;
    gint64 t0 = g_get_monotonic_time();

    for (guint i = 0; i < r->n; i++)
        if (boot_guest_prepare(r, &r->guests[i], i))
            todo[n++] = &r->guests[i];
    rep->provision_guests = n;
    rep->provision_pool = provision_pool_size(n);
    if (n > 1 && !r->env->virt_known) {
        g_autofree char *phase = g_strdup_printf("booting %s", todo[0]->mg->name);

        rv_harness_progress_phase(rep->progress, phase, 0);
        todo[0]->boot_cancelled = !boot_guest_start(r, todo[0], boot_timeout_ms);
        boot_guest_finish(r, todo[0]);
        rep->provision_first_alone = true;
        first = 1;
    }
    if (n > first && !(first && todo[0]->boot_cancelled))
        pool_run(r, todo + first, n - first, MIN(rep->provision_pool, n - first), false,
                 boot_timeout_ms);
    for (guint i = first; i < n; i++) {
        r->cancelled |= todo[i]->boot_cancelled;
        boot_guest_finish(r, todo[i]);
    }
    if (n)
        r->cancelled |= todo[0]->boot_cancelled;
    rep->boot_us = (guint64) (g_get_monotonic_time() - t0);
    if (n)
        r->env->boot_estimate_us = rep->boot_us;
    check_cgroups(r);
    rep->virt = g_strdup(rv_harness_run_env_virt(r->env));
}

/* What guest @g's workload is asked for: the matrix's duration and
 * [cyclictest], the load level's keys of its ops table. */
static void
guest_params(const RvRunRepetition *rep, Guest *g, RvWorkloadParams *p)
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
attr_verbose(Rep *r, Guest *g)
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
start_guest_workloads(Rep *r)
{
    RvRunRepetition *rep = r->rep;
    const RvMatrix *m = rep->matrix;
    guint64 total_us = m->warmup_us + m->duration_us + 5 * G_USEC_PER_SEC;

    for (guint i = 0; i < r->n; i++) {
        Guest *g = &r->guests[i];

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
start_host_workload(Rep *r)
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
            PertJob *j = g_new0(PertJob, 1);

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
rt_vcpu_cpus(const Rep *r, RvCpuSet *cpus)
{
    rv_cpuset_zero(cpus);
    for (guint i = 0; i < r->n; i++) {
        const Guest *g = &r->guests[i];

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
confine_start(Rep *r, RvHostConfine *c)
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
attr_start(Rep *r)
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
attr_finish(Rep *r)
{
    if (!r->attr)
        return;
    rv_harness_attr_stop(r->attr);
    for (guint i = 0; i < r->n; i++) {
        Guest *g = &r->guests[i];
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
cosched_start(Rep *r)
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
rt_view_record(Rep *r)
{
    g_autoptr(JsonBuilder) b = json_builder_new();
    g_autoptr(GArray) host = NULL;

    json_builder_begin_array(b);
    for (guint i = 0; i < r->n; i++) {
        const Guest *g = &r->guests[i];

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
cosched_finish(Rep *r)
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
measure(Rep *r)
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
        PertJob *j = r->perts->pdata[i];

        g_thread_join(j->thread);
        j->thread = NULL;
    }
    r->cancelled |= g_cancellable_is_cancelled(rep->cancellable);
    rep->measure_us = (guint64) (g_get_monotonic_time() - t0);
}

/* The verification line of a neighbour's load (or its boot failure). */
static void
record_neighbour(RvRunRepetition *rep, Guest *g)
{
    g_autofree char *what = NULL, *d = NULL;
    bool ok;

    if (g->boot_error) {
        note_failure(rep, g->boot_error);
        rv_result_store_add_verification(rep->store, rep->cell, rep->repetition,
                                         "neighbour load", "FAIL", g->boot_error);
        return;
    }
    if (!g->argv)
        return;
    what = g_strdup_printf("guest %s %s load", g->mg->name, g->ops->name);
    d = g->exec_error ? g_strdup(g->exec_error->message)
                      : g_strdup_printf("exit %d: %.100s", g->res.exit_status,
                                        g->res.out ? g_strstrip(g->res.out) : "");
    ok = !g->exec_error && g->res.exit_status == 0;
    rv_result_store_add_verification(rep->store, rep->cell, rep->repetition, what,
                                     ok ? "PASS" : "FAIL", d);
    if (!ok) {
        g_autofree char *why = g_strdup_printf("%s: %s", what, d);

        note_failure(rep, why);
    }
}

/* An optional guest whose workload this rtvirt lacks: a "skipped" record
 * with the reason, not a failure. */
static void
record_skipped(RvRunRepetition *rep, Guest *g)
{
    g_autofree char *target = g_strdup_printf("guest:%s", g->mg->name);
    g_autoptr(RvStoreRecord) rec = rv_result_store_record_new(rep->cell, rep->repetition,
                                                              g->mg->workload_name, target);

    if (!rep->load->builtin)
        rv_result_store_record_set_load(rec, rep->load->name);
    rv_result_store_record_set_status(rec, "skipped", g->mg->skip_reason);
    rv_result_store_add_record(rep->store, g_steal_pointer(&rec));
}

/* Phase 4: one record per workload. */
static void
record_all(Rep *r)
{
    RvRunRepetition *rep = r->rep;
    const RvMatrix *m = rep->matrix;

    for (guint i = 0; i < r->n; i++) {
        Guest *g = &r->guests[i];

        if (g->mg->skip_reason)
            record_skipped(rep, g);
        else if (g->mg->workload && g->mg->workload->parse)
            record_workload(r->env, rep, g);
        else
            record_neighbour(rep, g);
    }
    if ((m->host_workload && m->host_workload != &rv_workload_pert) ||
        (m->host_workload == &rv_workload_pert && r->host_skip))
        record_host(rep, &r->host, r->host_skip);
    for (guint i = 0; i < r->perts->len; i++)
        record_pert(rep, r->perts->pdata[i]);
}

/* Phase 5: destroy the guests, free what the phases left. */
static void
tear_down(Rep *r)
{
    g_autofree Guest **busy = g_new0(Guest *, r->n + 1);
    guint n = 0;
    gint64 t0 = g_get_monotonic_time();

    rv_harness_progress_phase(r->rep->progress, "tearing down", 0);
    /* the domains are destroyed in parallel, through the provisioning
     * pool; what is left is freed here, one guest after the other */
    for (guint i = 0; i < r->n; i++)
        if (r->guests[i].session || r->guests[i].thread)
            busy[n++] = &r->guests[i];
    if (n)
        pool_run(r, busy, n, MIN(MAX(r->rep->provision_pool, 1), n), true, 0);
    for (guint i = 0; i < r->n; i++)
        guest_clear(&r->guests[i]);
    r->rep->teardown_us = (guint64) (g_get_monotonic_time() - t0);
    for (guint i = 0; i < r->perts->len; i++) {
        PertJob *j = r->perts->pdata[i];

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
    Rep r = { 0 };
    gint64 t0 = g_get_monotonic_time();

    r.env = env;
    r.rep = rep;
    r.n = rep->scenario->guests->len;
    r.guests = g_new0(Guest, r.n);
    r.perts = g_ptr_array_new();

    boot_guests(&r);
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
        record_all(&r);
    tear_down(&r);
    rep->wall_us = (guint64) (g_get_monotonic_time() - t0);
    if (rep->kill_point)
        rep->kill_point("torn-down");
    if (r.cancelled)
        return rv_error_set(error, RV_ERROR_FAILED, ECANCELED, "Interrupted");
    return 0;
}

/* ---- records and lines of one repetition ---------------------------------- */

/* run.json's per-repetition "provision" object (DESIGN.md): guests, pool,
 * first_alone, boot_ms, teardown_ms (wall clock, monotonic). */
static JsonObject *
provision_object(const RvRunRepetition *rep)
{
    JsonObject *p = json_object_new();

    json_object_set_int_member(p, "guests", rep->provision_guests);
    json_object_set_int_member(p, "pool", rep->provision_pool);
    json_object_set_boolean_member(p, "first_alone", rep->provision_first_alone);
    json_object_set_int_member(p, "boot_ms", (gint64) (rep->boot_us / 1000));
    json_object_set_int_member(p, "teardown_ms", (gint64) (rep->teardown_us / 1000));
    return p;
}

RvStoreRecord *
rv_harness_run_counters_record(const char *cell, unsigned repetition, JsonNode *diff,
                               int run_result, const RvRunRepetition *rep,
                               GDateTime *started, GDateTime *finished)
{
    RvStoreRecord *rec = rv_result_store_record_new(cell, (int) repetition, "host-counters",
                                                    "host");
    JsonObject *o = JSON_NODE_HOLDS_OBJECT(diff) ? json_node_get_object(diff) : NULL;
    const char *srcs[] = { "interrupts", "softirqs" };

    /* totals over all CPUs: the per-CPU split is in details */
    for (guint i = 0; o && i < G_N_ELEMENTS(srcs); i++) {
        JsonObject *t = json_object_has_member(o, srcs[i])
            ? json_object_get_object_member(o, srcs[i]) : NULL;
        gint64 sum = 0;
        GList *members;

        if (!t || json_object_has_member(t, "unavailable"))
            continue;
        members = json_object_get_members(t);
        for (GList *it = members; it; it = it->next)
            sum += json_object_get_int_member(json_object_get_object_member(t, it->data),
                                              "total");
        g_list_free(members);
        rv_result_store_record_add_metric(rec, srcs[i], (double) sum, "count");
    }
    g_autofree char *stretched = NULL;

    if (rep && rep->matrix && o) {
        /* how long the counters' window really was, beside the plan */
        g_autoptr(JsonNode) d = json_node_copy(diff);
        JsonObject *w = json_object_new();
        guint64 planned = rep->matrix->warmup_us + rep->matrix->duration_us;
        guint64 slack = MAX((guint64) RV_HARNESS_RUN_WINDOW_SLACK_US, planned / 2);

        json_object_set_double_member(w, "wall_s", (double) rep->wall_us / G_USEC_PER_SEC);
        json_object_set_double_member(w, "measure_s", (double) rep->measure_us / G_USEC_PER_SEC);
        json_object_set_double_member(w, "planned_s", (double) planned / G_USEC_PER_SEC);
        json_object_set_object_member(json_node_get_object(d), "window", w);
        json_object_set_object_member(json_node_get_object(d), "provision",
                                      provision_object(rep));
        if (rep->confinement)
            json_object_set_object_member(json_node_get_object(d), "confinement",
                                          json_object_ref(rep->confinement));
        if (rep->cosched)
            json_object_set_member(json_node_get_object(d), "cosched",
                                   json_node_copy(rep->cosched));
        if (rep->rt_vcpus)
            json_object_set_member(json_node_get_object(d), "rt_vcpus",
                                   json_node_copy(rep->rt_vcpus));
        rv_result_store_record_set_details(rec, d);
        if (rep->measure_us > planned + slack)
            stretched = g_strdup_printf(
                "window stretched: warm-up and measurement took %.1f s of wall time, planned "
                "%.1f s (rtvirt or the guest was stopped: SIGSTOP, a suspended VM, a stalled "
                "host); the counters cover more than the measured time",
                (double) rep->measure_us / G_USEC_PER_SEC, (double) planned / G_USEC_PER_SEC);
    } else {
        rv_result_store_record_set_details(rec, diff);
    }
    rv_result_store_record_set_times(rec, started, finished);
    if (run_result == -ECANCELED) {
        rv_result_store_record_set_status(rec, "failed",
                                          "interrupted: the repetition was stopped by a "
                                          "signal, the counters cover a cut-short window");
    } else if (run_result < 0 || (rep && rep->n_failed)) {
        g_autofree char *why = g_strdup_printf(
            "repetition failed: %s; the counters do not cover a measured window",
            rep && rep->first_failure ? rep->first_failure : "error");

        rv_result_store_record_set_status(rec, "failed", why);
    } else if (stretched) {
        rv_result_store_record_set_status(rec, "failed", stretched);
    }
    return rec;
}

char *
rv_harness_run_status_line(const RvRunRepetition *rep, const char *virt)
{
    const char *tag = g_strcmp0(virt, "tcg") == 0 ? " (virt=tcg)" : "";

    if (rep->n_failed)
        return g_strdup_printf("FAILED%s: %s", tag,
                               rep->first_failure ? rep->first_failure : "");
    if (rep->summary)
        return g_strdup_printf("ok%s: %s", tag, rep->summary);
    return g_strdup_printf("ok%s", tag);
}

char *
rv_harness_run_summary_runs(unsigned ok, unsigned failed, unsigned ok_with_fail)
{
    if (ok_with_fail)
        return g_strdup_printf("%u ok (measured; %u with verification FAIL, results "
                               "untrusted), %u failed", ok, ok_with_fail, failed);
    return g_strdup_printf("%u ok, %u failed", ok, failed);
}

GPtrArray *
rv_harness_run_reasons_ordered(GPtrArray *reasons)
{
    GPtrArray *out = g_ptr_array_new();

    for (guint pass = 0; pass < 2; pass++)
        for (guint i = 0; reasons && i < reasons->len; i++) {
            const char *r = reasons->pdata[i];
            bool tcg = g_str_has_prefix(r, "virt=tcg");

            if (tcg == (pass == 0))
                g_ptr_array_add(out, reasons->pdata[i]);
        }
    return out;
}
