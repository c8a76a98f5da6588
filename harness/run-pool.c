/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * harness/run-pool.c: phase 1 of a repetition (harness/run.c), the boot
 * pool: each guest journaled, then booted through worker threads beside
 * the others, then verified in guest order; the same pool destroys the
 * domains at teardown.
 */

#include <string.h>
#include <unistd.h>

#include "guest/libvirt.h"
#include "guest/session.h"
#include "harness/guest-tools.h"
#include "harness/log.h"
#include "harness/run-priv.h"
#include "host/tune/journal.h"

/* Phase 1a of guest @index (main thread, one guest after the other): who it
 * is, and its domain in the run journal before it exists.  False when it
 * is not to be booted (skipped, or the journal refused: boot_error). */
static bool
boot_guest_prepare(RvRunRep *r, RvRunGuest *g, guint index)
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
        return false;   /* never booted: rv_harness_run_record_all says why */

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
boot_guest_start(RvRunRep *r, RvRunGuest *g, guint boot_timeout_ms)
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
boot_guest_finish(RvRunRep *r, RvRunGuest *g)
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
    rv_harness_run_record_session(env, rep, g);
    if (g->session->verification)
        g->qemu_pid = g->session->verification->qemu_pid;
    if (g->qemu_pid > 0)
        rv_harness_run_record_cgroup(rep, g);
    if (rv_guest_libvirt_vcpu_tids(g->session->dom, &g->vcpu_tids, &err) < 0) {
        rv_harness_progress_clear(rep->progress);
        rv_log_warn("guest %s: vCPU threads unknown: %s", g->mg->name, err->message);
    }
}

/* One cpu cgroup per VM: no two guests' threads share the deepest one. */
static void
check_cgroups(RvRunRep *r)
{
    guint n = 0;

    for (guint i = 0; i < r->n; i++) {
        RvRunGuest *a = &r->guests[i];

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
    RvRunRep *r;
    RvRunGuest **guests;
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
        RvRunGuest *g;

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
void
rv_harness_run_pool_run(RvRunRep *r, RvRunGuest **guests, guint n, guint size, bool teardown,
                        guint boot_timeout_ms)
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
void
rv_harness_run_boot_guests(RvRunRep *r)
{
    RvRunRepetition *rep = r->rep;
    const RvMatrix *m = rep->matrix;
    /* booting under TCG on a loaded host takes minutes: the matrix's
     * timeout bounds the workloads, boots get at least 3 minutes */
    guint boot_timeout_ms = (guint) MIN(MAX(m->timeout_us / 1000, (guint64) 180000),
                                        (guint64) G_MAXUINT);
    g_autofree RvRunGuest **todo = g_new0(RvRunGuest *, r->n + 1);
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
        rv_harness_run_pool_run(r, todo + first, n - first, MIN(rep->provision_pool, n - first),
                                false, boot_timeout_ms);
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
