/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * harness/run-truth.c: what `rtvirt run --plan` says before anything runs,
 * beside the placements and the order (harness/run-plan.c): how long the
 * run takes (in all and per scenario), every change it makes to the host
 * and restores, the journals it keeps them in, the host profile's verdict
 * (the results are UNTRUSTED where it fails) and the resources the guests
 * need against what the host has (CPUs, memory, huge pages per size and
 * NUMA node).  Facts only: it reads the host through its root, writes
 * nothing.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "guest/check.h"
#include "guest/placement.h"
#include "guest/profile.h"
#include "harness/cmd-run-priv.h"
#include "harness/progress.h"
#include "guest/session.h"
#include "host/check/check.h"
#include "host/facts/kvm.h"
#include "host/profile/profile.h"
#include "host/tune/persist.h"
#include "util/json.h"

/* A reboot between boots of a matrix with bootargs: firmware, boot loader
 * and the resume unit's start, assumed (no host measures it for us). */
#define RV_RUN_TRUTH_REBOOT_US (180 * G_USEC_PER_SEC)
/* FAIL reasons of the host check shown before "..." */
#define RV_RUN_TRUTH_REASONS 5

static const RvGuestProfile *
guest_profile(const RvRunCtx *c, const RvMatrixGuest *mg)
{
    for (guint j = 0; j < c->matrix->guests->len; j++)
        if (c->matrix->guests->pdata[j] == mg)
            return c->profiles->pdata[j];
    return NULL;
}

static void
resource_add(RvRunTruth *t, const char *what, int node, guint64 need, guint64 have, bool known,
             const char *unit, const char *scenario)
{
    RvRunResource *r = g_new0(RvRunResource, 1);

    r->what = g_strdup(what);
    r->node = node;
    r->need = need;
    r->have = have;
    r->known = known;
    r->unit = unit;
    r->scenario = scenario;
    r->ok = !known || need <= have;
    if (!r->ok)
        t->resources_short = true;
    g_ptr_array_add(t->resources, r);
}

static void
resource_free(RvRunResource *r)
{
    g_free(r->what);
    g_free(r);
}

/* The NUMA node of guest placement @pl's first pinned vCPU, -1 when the
 * host's groups are no nodes or the guest floats. */
static int
guest_node(const RvRunCtx *c, const RvGuestPlacement *pl)
{
    const RvGuestHostCpus *h = c->host_cpus;

    if (!h->groups_are_nodes || !h->groups)
        return -1;
    for (unsigned v = 0; v < pl->n_vcpus; v++) {
        const RvGuestVcpuPlacement *vp = &pl->vcpus[v];

        if (!vp->pinned || rv_cpuset_is_empty(&vp->cpuset))
            continue;
        for (guint g = 0; g < h->groups->len; g++) {
            const RvCpuGroup *grp = &g_array_index(h->groups, RvCpuGroup, g);

            if (rv_cpuset_isset(&grp->cpus, (unsigned) rv_cpuset_next(&vp->cpuset, 0)))
                return grp->id;
        }
    }
    return -1;
}

/* Free pages of @size_kib on @node (-1: the whole host); false when the
 * host shows no such pool. */
static bool
pool_free(const RvGuestHostCpus *h, guint64 size_kib, int node, guint64 *ret_free)
{
    for (guint i = 0; h->hugepage_pools && i < h->hugepage_pools->len; i++) {
        const RvGuestHugepagePool *p = &g_array_index(h->hugepage_pools, RvGuestHugepagePool, i);

        if (p->size_kib == size_kib && p->node == node) {
            *ret_free = p->free;
            return true;
        }
    }
    return false;
}

/* The smallest whole-host pool: the default size where a profile names none. */
static guint64
default_hugepage_kib(const RvGuestHostCpus *h)
{
    guint64 min = 0;

    for (guint i = 0; h->hugepage_pools && i < h->hugepage_pools->len; i++) {
        const RvGuestHugepagePool *p = &g_array_index(h->hugepage_pools, RvGuestHugepagePool, i);

        if (p->node == -1 && (!min || p->size_kib < min))
            min = p->size_kib;
    }
    return min ? min : 2048;
}

/* Huge pages scenario @s needs, keyed "SIZE_KIB/NODE" -> pages. */
static GHashTable *
scenario_hugepages(const RvRunCtx *c, guint s)
{
    const RvMatrixScenario *sc = c->matrix->scenarios->pdata[s];
    GPtrArray *pls = c->placements->pdata[s];
    GHashTable *need = g_hash_table_new_full(g_str_hash, g_str_equal, g_free, NULL);

    for (guint g = 0; g < sc->guests->len; g++) {
        const RvGuestProfile *p = guest_profile(c, sc->guests->pdata[g]);
        guint64 kib, pages;
        char *key;

        if (!p || !p->hugepages)
            continue;
        kib = p->hugepage_bytes ? p->hugepage_bytes / 1024 : default_hugepage_kib(c->host_cpus);
        pages = (p->memory_bytes / 1024 + kib - 1) / kib;
        key = g_strdup_printf("%" G_GUINT64_FORMAT "/%d", kib,
                              g < pls->len ? guest_node(c, pls->pdata[g]) : -1);
        pages += GPOINTER_TO_SIZE(g_hash_table_lookup(need, key));
        g_hash_table_insert(need, key, GSIZE_TO_POINTER(pages));
    }
    return need;
}

/* "huge pages 1 GiB" / "huge pages 2 MiB" */
static char *
hugepage_what(guint64 kib)
{
    return kib >= 1024 * 1024
        ? g_strdup_printf("huge pages %" G_GUINT64_FORMAT " GiB", kib / (1024 * 1024))
        : g_strdup_printf("huge pages %" G_GUINT64_FORMAT " MiB", kib / 1024);
}

char *
rv_cmd_run_short_reason(RvRunCtx *c, guint s)
{
    g_autoptr(GHashTable) need = NULL;
    g_autoptr(GList) keys = NULL;

    /* a root that shows no pools (a capture of CPUs only, a kernel
     * without CONFIG_HUGETLBFS) says nothing: nothing is judged */
    rv_guest_host_memory_load(c->root, c->host_cpus);
    if (!c->host_cpus->hugepage_pools || c->placements->pdata[s] == NULL ||
        ((GPtrArray *) c->placements->pdata[s])->len == 0)
        return NULL;
    need = scenario_hugepages(c, s);
    keys = g_list_sort(g_hash_table_get_keys(need), (GCompareFunc) strcmp);
    for (GList *l = keys; l; l = l->next) {
        guint64 kib = g_ascii_strtoull(l->data, NULL, 10);
        int node = atoi(strchr(l->data, '/') + 1);
        guint64 pages = GPOINTER_TO_SIZE(g_hash_table_lookup(need, l->data)), free_pages = 0;
        g_autofree char *what = hugepage_what(kib);
        g_autofree char *on = node >= 0 ? g_strdup_printf(" on node %d", node) : g_strdup("");
        g_autofree char *knob = node >= 0
            ? g_strdup_printf("/sys/devices/system/node/node%d/hugepages/hugepages-%" G_GUINT64_FORMAT
                              "kB/nr_hugepages", node, kib)
            : g_strdup_printf("/sys/kernel/mm/hugepages/hugepages-%" G_GUINT64_FORMAT
                              "kB/nr_hugepages", kib);

        (void) pool_free(c->host_cpus, kib, node, &free_pages);
        if (pages > free_pages)
            return g_strdup_printf("short of %s%s: its guests need %" G_GUINT64_FORMAT ", %"
                                   G_GUINT64_FORMAT " free (libvirt could not start them; "
                                   "reserve them in %s or with hugepages= at boot)", what, on,
                                   pages, free_pages, knob);
    }
    return NULL;
}

/* The largest runnable scenario's guests against the host (every
 * scenario's where none runs here: what they would need): vCPUs against
 * online CPUs, RT vCPUs against isolated ones, memory against MemTotal,
 * huge pages per size and node against the free pages of that pool. */
static void
truth_resources(RvRunCtx *c, RvRunTruth *t)
{
    guint64 best_vcpus = 0, best_rt = 0, best_mem = 0;
    const char *sv = NULL, *srt = NULL, *smem = NULL;
    g_autoptr(GHashTable) pages = g_hash_table_new_full(g_str_hash, g_str_equal, g_free, NULL);
    g_autoptr(GHashTable) pages_sc = g_hash_table_new_full(g_str_hash, g_str_equal, g_free, NULL);
    g_autoptr(GList) keys = NULL;
    guint64 mem = rv_cmd_run_host_mem_total(c->root);

    rv_guest_host_memory_load(c->root, c->host_cpus);
    for (guint s = 0; s < c->matrix->scenarios->len; s++) {
        const RvMatrixScenario *sc = c->matrix->scenarios->pdata[s];
        g_autoptr(GHashTable) need = NULL;
        GHashTableIter it;
        gpointer k, v;
        guint64 vcpus = 0, rt = 0, bytes = 0;

        if (c->skip->pdata[s] && !t->resources_all)
            continue;
        for (guint g = 0; g < sc->guests->len; g++) {
            const RvGuestProfile *p = guest_profile(c, sc->guests->pdata[g]);

            if (!p)
                continue;
            vcpus += p->vcpus;
            /* RT vCPUs pinned 1:1 to isolated CPUs: those the placement needs */
            if (p->require_isolated && sc->placement == RV_MATRIX_PLACEMENT_PINNED)
                rt += rv_cpuset_count(&p->rt_vcpus);
            bytes += p->memory_bytes;
        }
        if (vcpus > best_vcpus || !sv)
            best_vcpus = vcpus, sv = sc->name;
        if (rt > best_rt || !srt)
            best_rt = rt, srt = sc->name;
        if (bytes > best_mem || !smem)
            best_mem = bytes, smem = sc->name;
        need = scenario_hugepages(c, s);
        g_hash_table_iter_init(&it, need);
        while (g_hash_table_iter_next(&it, &k, &v))
            if (GPOINTER_TO_SIZE(v) > GPOINTER_TO_SIZE(g_hash_table_lookup(pages, k))) {
                g_hash_table_insert(pages, g_strdup(k), v);
                g_hash_table_insert(pages_sc, g_strdup(k), (gpointer) sc->name);
            }
    }
    if (!sv)
        return;
    resource_add(t, "vCPUs", -1, best_vcpus, rv_cpuset_count(&c->host_cpus->online), true,
                 "online CPUs", sv);
    {
        /* more vCPUs than CPUs is overcommit, no shortage: the RT vCPUs
         * were placed on CPUs of their own (or the scenario is SKIPPED),
         * the neighbours' float over their budget (harness/plan.h) */
        RvRunResource *r = t->resources->pdata[t->resources->len - 1];

        r->overcommitted = !r->ok;
        r->ok = true;
        t->resources_short = false;
    }
    resource_add(t, "RT vCPUs", -1, best_rt, rv_cpuset_count(&c->host_cpus->isolated), true,
                 "isolated CPUs", srt);
    /* a scenario's guests may take half of it (rv_harness_plan_size_memory()) */
    resource_add(t, "memory (MiB)", -1, best_mem / (1024 * 1024), mem / 2 / (1024 * 1024),
                 mem != 0, "MiB (half of MemTotal)", smem);
    keys = g_list_sort(g_hash_table_get_keys(pages), (GCompareFunc) strcmp);
    for (GList *l = keys; l; l = l->next) {
        guint64 kib = g_ascii_strtoull(l->data, NULL, 10);
        int node = atoi(strchr(l->data, '/') + 1);
        guint64 free_pages = 0;
        bool known = pool_free(c->host_cpus, kib, node, &free_pages);
        g_autofree char *what = hugepage_what(kib);

        /* no pools shown at all: unknown; a pool of another size only:
         * this size has none reserved */
        resource_add(t, what, node, GPOINTER_TO_SIZE(g_hash_table_lookup(pages, l->data)),
                     free_pages, c->host_cpus->hugepage_pools != NULL, "free pages",
                     g_hash_table_lookup(pages_sc, l->data));
        if (!known && c->host_cpus->hugepage_pools) {
            /* no such pool on this host: nothing reserved */
            RvRunResource *r = t->resources->pdata[t->resources->len - 1];

            r->have = 0;
            r->ok = r->need == 0;
            t->resources_short |= !r->ok;
        }
    }
}

static void
string_free(gpointer s)
{
    g_string_free(s, TRUE);
}

/* "/sys/...: VALUE in SCENARIOS (now NOW)" for every value a runnable
 * scenario writes through the run journal (apply_scenario() of
 * harness/cmd-run.c, host/tune/smt.c). */
static void
truth_knob(RvRunCtx *c, RvRunTruth *t, const char *path, int which)
{
    g_autoptr(GHashTable) values = g_hash_table_new_full(g_str_hash, g_str_equal, g_free,
                                                         string_free);
    g_autoptr(GList) keys = NULL;
    g_autofree char *now = NULL;

    for (guint s = 0; s < c->matrix->scenarios->len; s++) {
        const RvMatrixScenario *sc = c->matrix->scenarios->pdata[s];
        g_autofree char *v = NULL;
        GString *names;

        if (c->skip->pdata[s])
            continue;
        if (which == 0 && sc->smt != RV_MATRIX_SMT_KEEP)
            v = g_strdup(sc->smt == RV_MATRIX_SMT_ON ? "on" : "off");
        else if (which == 1 && sc->has_rt_runtime_us)
            v = g_strdup_printf("%" G_GINT64_FORMAT, sc->rt_runtime_us);
        else if (which == 2 && sc->timer_migration >= 0)
            v = g_strdup(sc->timer_migration ? "1" : "0");
        if (!v)
            continue;
        names = g_hash_table_lookup(values, v);
        if (!names) {
            names = g_string_new(NULL);
            g_hash_table_insert(values, g_strdup(v), names);
        }
        g_string_append_printf(names, "%s%s", names->len ? ", " : "", sc->name);
    }
    if (g_hash_table_size(values) == 0)
        return;
    if (rv_host_root_read_value(c->root, path, &now, NULL) < 0)
        now = g_strdup("unreadable");
    keys = g_list_sort(g_hash_table_get_keys(values), (GCompareFunc) strcmp);
    for (GList *l = keys; l; l = l->next)
        g_ptr_array_add(t->changes, g_strdup_printf(
            "%s = %s in %s (now %s; restored after each repetition)", path, (char *) l->data,
            ((GString *) g_hash_table_lookup(values, l->data))->str, now));
}

/* Every change the run makes to the host, and the journals that undo them. */
static void
truth_changes(RvRunCtx *c, RvRunTruth *t)
{
    g_autoptr(GString) cookies = g_string_new(NULL);
    g_autoptr(GString) libvirt = g_string_new(NULL);
    bool guests = false;

    truth_knob(c, t, "/sys/devices/system/cpu/smt/control", 0);
    truth_knob(c, t, "/proc/sys/kernel/sched_rt_runtime_us", 1);
    truth_knob(c, t, "/proc/sys/kernel/timer_migration", 2);
    for (guint s = 0; s < c->matrix->scenarios->len; s++) {
        const RvMatrixScenario *sc = c->matrix->scenarios->pdata[s];

        if (c->skip->pdata[s])
            continue;
        guests |= sc->guests->len > 0;
        if (sc->coresched == RV_MATRIX_CORESCHED_VM || sc->coresched == RV_MATRIX_CORESCHED_VCPU)
            g_string_append_printf(cookies, "%s%s (%s)", cookies->len ? ", " : "", sc->name,
                                   rv_harness_matrix_coresched_name(sc->coresched));
        else if (sc->coresched == RV_MATRIX_CORESCHED_LIBVIRT)
            g_string_append_printf(libvirt, "%s%s", libvirt->len ? ", " : "", sc->name);
    }
    if (cookies->len)
        g_ptr_array_add(t->changes, g_strdup_printf(
            "core cookies (prctl PR_SCHED_CORE) on the guests' QEMU threads in %s: they end "
            "with the guests", cookies->str));
    if (libvirt->len)
        g_ptr_array_add(t->changes, g_strdup_printf(
            "core cookies set by libvirt (qemu.conf sched_core) in %s: qemu.conf is not "
            "changed", libvirt->str));
    if (guests) {
        g_ptr_array_add(t->changes, g_strdup_printf(
            "libvirt domains rtvirt-%s-GUEST, transient, recorded in the run journal before "
            "they start, destroyed after each repetition", c->matrix->name));
        g_ptr_array_add(t->changes, g_strdup(
            "rtvirt's own threads: CPU affinity to the housekeeping CPUs while it measures, "
            "restored after"));
    }
    g_ptr_array_add(t->changes, g_strdup(
        "IRQ affinities, kernel thread priorities and the host profile's knobs: not changed "
        "(rtvirt host apply sets them)"));
    g_ptr_array_add(t->journals, rv_harness_run_journal_path(c->root));
    for (guint i = 0; i < c->plan->boots->len; i++) {
        const RvPlanBoot *b = c->plan->boots->pdata[i];
        g_autofree char *args = NULL;

        if (!b->bootargs)
            continue;
        args = g_strjoinv(" ", b->bootargs);
        g_ptr_array_add(t->changes, g_strdup_printf(
            "boot %u: boot loader drop-in %s with '%s', %s enabled, then a reboot "
            "($RTVIRT_REBOOT_CMD, default 'systemctl reboot'; exit status 3)", b->index,
            RV_HARNESS_REBOOT_DROPIN, args, RV_HOST_RESUME_UNIT_NAME));
    }
    if (c->plan->n_reboots) {
        g_ptr_array_add(t->changes, g_strdup_printf(
            "after the last boot: the drop-in and %s removed, the original boot arguments back "
            "for the next reboot ('rtvirt run --abort STORE' does it at any point)",
            RV_HOST_RESUME_UNIT_NAME));
        g_ptr_array_add(t->journals, rv_host_root_resolve(c->root,
                                                          RV_HARNESS_REBOOT_BOOTARGS_JOURNAL));
        g_ptr_array_add(t->journals, rv_host_root_resolve(c->root,
                                                          RV_HARNESS_REBOOT_UNIT_JOURNAL));
    }
    g_ptr_array_add(t->journals, g_strdup("STORE/" RV_HARNESS_REBOOT_STATE
                                          " (the plan and seed 'rtvirt run --resume STORE' "
                                          "continues from)"));
}

/* The host profile's verdict on this host, as the run judges it
 * (rv_harness_run_trust()): FAIL findings make the store UNTRUSTED. */
static void
truth_verdict(RvRunCtx *c, RvRunTruth *t)
{
    g_autoptr(RvHostProfile) hp = NULL;
    g_autoptr(RvCheckReport) report = NULL;
    g_autoptr(GError) err = NULL;

    t->reasons = g_ptr_array_new_with_free_func(g_free);
    if (!c->matrix->host_profile) {
        t->verdict = "NONE";
        g_ptr_array_add(t->reasons, g_strdup("the matrix names no host_profile: nothing checks "
                                             "that the host was tuned for real-time guests"));
        return;
    }
    t->profile = c->matrix->host_profile;
    if (rv_host_profile_load_host(c->matrix->host_profile, c->host_cpus->nr_cpu_ids, &hp,
                                  &err) < 0 ||
        rv_host_check_run(c->root, hp, &report, &err) < 0) {
        t->verdict = "ERROR";
        g_ptr_array_add(t->reasons, g_strdup_printf("host check against %s failed: %s",
                                                    c->matrix->host_profile, err->message));
        return;
    }
    for (guint i = 0; i < report->findings->items->len; i++) {
        const RvFinding *f = report->findings->items->pdata[i];

        if (f->level == RV_FINDING_WARN)
            t->n_warn++;
        if (f->level != RV_FINDING_FAIL)
            continue;
        t->n_fail++;
        if (t->reasons->len < RV_RUN_TRUTH_REASONS)
            g_ptr_array_add(t->reasons, g_strdup_printf("%s (%s)", f->message, f->id));
    }
    t->verdict = t->n_fail ? "FAIL" : t->n_warn ? "WARN" : "PASS";
}

/* The accelerator the guests will run under, as the run decides it:
 * $RTVIRT_VIRT (validated when the inputs loaded), else KVM where the host
 * offers hardware KVM (host/facts/kvm.h: PVM or none is TCG). */
static bool
truth_tcg(RvRunCtx *c)
{
    RvGuestVirtRequest req = RV_GUEST_VIRT_REQUEST_AUTO;

    if (rv_guest_virt_request_parse(g_getenv("RTVIRT_VIRT"), &req, NULL) < 0)
        req = RV_GUEST_VIRT_REQUEST_AUTO;
    if (req != RV_GUEST_VIRT_REQUEST_AUTO)
        return req == RV_GUEST_VIRT_REQUEST_TCG;
    return rv_host_kvm_detect(c->root, NULL) != RV_HOST_KVM_HW;
}

/* One repetition of scenario @s: its guests' boot (by the accelerator and
 * their number), warm-up, measurement, teardown. */
static guint64
truth_repetition_us(RvRunCtx *c, const RvRunTruth *t, guint s, guint64 *ret_boot_us)
{
    const RvMatrixScenario *sc = c->matrix->scenarios->pdata[s];

    *ret_boot_us = rv_harness_run_boot_estimate_us(t->tcg, sc->guests->len);
    return *ret_boot_us + c->matrix->warmup_us + c->matrix->duration_us +
           RV_HARNESS_RUN_TEARDOWN_ESTIMATE_US;
}

RvRunTruth *
rv_cmd_run_truth_new(RvRunCtx *c)
{
    RvRunTruth *t = g_new0(RvRunTruth, 1);

    t->tcg = truth_tcg(c);
    t->reboot_us = RV_RUN_TRUTH_REBOOT_US;
    t->scenario_runs = g_new0(unsigned, c->matrix->scenarios->len);
    t->scenario_us = g_new0(guint64, c->matrix->scenarios->len);
    /* "repetitions of about ...": the longest runnable scenario's (any
     * scenario's where none runs) */
    for (guint s = 0; s < c->matrix->scenarios->len; s++) {
        const RvMatrixScenario *sc = c->matrix->scenarios->pdata[s];
        guint64 boot, one = truth_repetition_us(c, t, s, &boot);

        if ((c->runnable && c->skip->pdata[s]) || one <= t->run_us)
            continue;
        t->run_us = one;
        t->boot_us = boot;
        t->boot_guests = sc->guests->len;
    }
    for (guint i = 0; i < c->plan->runs->len; i++) {
        const RvPlanRun *run = c->plan->runs->pdata[i];
        guint64 boot, one;

        if (c->skip->pdata[run->scenario])
            continue;
        one = truth_repetition_us(c, t, run->scenario, &boot);
        t->scenario_runs[run->scenario]++;
        t->scenario_us[run->scenario] += one;
        t->n_runs++;
        t->total_us += one;
    }
    t->total_us += (guint64) c->plan->n_reboots * t->reboot_us;
    t->changes = g_ptr_array_new_with_free_func(g_free);
    t->journals = g_ptr_array_new_with_free_func(g_free);
    t->resources = g_ptr_array_new_with_free_func((GDestroyNotify) resource_free);
    truth_changes(c, t);
    truth_verdict(c, t);
    t->resources_all = c->runnable == 0;
    truth_resources(c, t);
    return t;
}

void
rv_cmd_run_truth_free(RvRunTruth *t)
{
    if (!t)
        return;
    g_free(t->scenario_runs);
    g_free(t->scenario_us);
    g_ptr_array_unref(t->changes);
    g_ptr_array_unref(t->journals);
    g_ptr_array_unref(t->resources);
    if (t->reasons)
        g_ptr_array_unref(t->reasons);
    g_free(t);
}

void
rv_cmd_run_truth_print_estimate(RvRunCtx *c, const RvRunTruth *t)
{
    g_autofree char *total = rv_harness_progress_format_eta(t->total_us);
    g_autofree char *one = rv_harness_progress_format_eta(t->run_us);

    g_autofree char *boot = t->tcg
        ? g_strdup_printf("%" G_GUINT64_FORMAT " s boot assumed under TCG: %" G_GUINT64_FORMAT
                          " s per guest, %u guest(s)", t->boot_us / G_USEC_PER_SEC,
                          (guint64) (RV_HARNESS_RUN_BOOT_TCG_GUEST_US / G_USEC_PER_SEC),
                          t->boot_guests)
        : g_strdup_printf("%" G_GUINT64_FORMAT " s boot assumed under KVM",
                          t->boot_us / G_USEC_PER_SEC);

    printf("# estimate: %s in all: %u repetition(s) of about %s (%s; %" G_GUINT64_FORMAT
           " s warm-up, %" G_GUINT64_FORMAT " s measured, %" G_GUINT64_FORMAT " s teardown)",
           total, t->n_runs, one, boot, c->matrix->warmup_us / G_USEC_PER_SEC,
           c->matrix->duration_us / G_USEC_PER_SEC,
           (guint64) (RV_HARNESS_RUN_TEARDOWN_ESTIMATE_US / G_USEC_PER_SEC));
    if (c->plan->n_reboots)
        printf(" + %u reboot(s) of %" G_GUINT64_FORMAT " s assumed", c->plan->n_reboots,
               t->reboot_us / G_USEC_PER_SEC);
    printf("\n");
}

void
rv_cmd_run_truth_print_scenario(RvRunCtx *c, const RvRunTruth *t, guint s)
{
    g_autofree char *eta = rv_harness_progress_format_eta(t->scenario_us[s]);

    if (!c->skip->pdata[s])
        printf("#   estimate: %u repetition(s), about %s\n", t->scenario_runs[s], eta);
}

static char *
resource_text(const RvRunResource *r)
{
    g_autofree char *node = r->node >= 0 ? g_strdup_printf(" on node %d", r->node) : g_strdup("");

    if (!r->known)
        return g_strdup_printf("%s%s: %" G_GUINT64_FORMAT " (%s), the host's %s unknown", r->what,
                               node, r->need, r->scenario, r->unit);
    return g_strdup_printf("%s%s: %" G_GUINT64_FORMAT " needed (%s), %" G_GUINT64_FORMAT
                           " %s: %s", r->what, node, r->need, r->scenario, r->have, r->unit,
                           r->overcommitted ? "overcommitted (vCPUs share CPUs)"
                           : r->ok ? "ok" : "SHORT");
}

void
rv_cmd_run_truth_print_tail(RvRunCtx *c, const RvRunTruth *t)
{
    (void) c;
    printf("# host changes (each through the journal: restored after every repetition, on "
           "exit and on SIGINT/SIGTERM; after a crash by 'rtvirt host revert' or "
           "'rtvirt run --resume STORE'):\n");
    for (guint i = 0; i < t->changes->len; i++)
        printf("#   %s\n", (char *) t->changes->pdata[i]);
    for (guint i = 0; i < t->journals->len; i++)
        printf("# journal: %s\n", (char *) t->journals->pdata[i]);
    if (t->profile)
        printf("# host profile %s: %s (%u FAIL, %u WARN)%s\n", t->profile, t->verdict, t->n_fail,
               t->n_warn, t->n_fail ? ": results will be UNTRUSTED" : "");
    else
        printf("# host profile: %s: results will be UNTRUSTED\n", t->verdict);
    for (guint i = 0; i < t->reasons->len; i++)
        printf("#   - %s\n", (char *) t->reasons->pdata[i]);
    if (t->n_fail > t->reasons->len)
        printf("#   - ... %u more ('rtvirt host check %s' lists them)\n",
               t->n_fail - t->reasons->len, t->profile);
    if (t->resources->len)
        printf("# resources (the largest %s scenario's guests against this host)%s:\n",
               t->resources_all ? "SKIPPED" : "runnable", t->resources_short ? ": SHORT" : "");
    for (guint i = 0; i < t->resources->len; i++) {
        g_autofree char *line = resource_text(t->resources->pdata[i]);

        printf("#   %s\n", line);
    }
}

void
rv_cmd_run_truth_json(RvRunCtx *c, const RvRunTruth *t, JsonBuilder *b)
{
    json_builder_set_member_name(b, "estimate");
    json_builder_begin_object(b);
    rv_json_add_int(b, "total_s", (gint64) (t->total_us / G_USEC_PER_SEC));
    rv_json_add_int(b, "repetitions", t->n_runs);
    rv_json_add_int(b, "repetition_s", (gint64) (t->run_us / G_USEC_PER_SEC));
    rv_json_add_int(b, "boot_s", (gint64) (t->boot_us / G_USEC_PER_SEC));
    /* the accelerator the boot time is scaled to (harness/run.h) */
    rv_json_add_string_or_null(b, "virt", t->tcg ? "tcg" : "kvm");
    rv_json_add_int(b, "reboots", c->plan->n_reboots);
    rv_json_add_int(b, "reboot_s", (gint64) (t->reboot_us / G_USEC_PER_SEC));
    json_builder_end_object(b);
    json_builder_set_member_name(b, "host_changes");
    json_builder_begin_array(b);
    for (guint i = 0; i < t->changes->len; i++)
        json_builder_add_string_value(b, t->changes->pdata[i]);
    json_builder_end_array(b);
    json_builder_set_member_name(b, "journals");
    json_builder_begin_array(b);
    for (guint i = 0; i < t->journals->len; i++)
        json_builder_add_string_value(b, t->journals->pdata[i]);
    json_builder_end_array(b);
    json_builder_set_member_name(b, "host_profile");
    json_builder_begin_object(b);
    rv_json_add_string_or_null(b, "profile", t->profile);
    rv_json_add_string_or_null(b, "verdict", t->verdict);
    rv_json_add_int(b, "fail", t->n_fail);
    rv_json_add_int(b, "warn", t->n_warn);
    rv_json_add_bool(b, "trusted", g_str_equal(t->verdict, "PASS") ||
                                   g_str_equal(t->verdict, "WARN"));
    json_builder_set_member_name(b, "reasons");
    json_builder_begin_array(b);
    for (guint i = 0; i < t->reasons->len; i++)
        json_builder_add_string_value(b, t->reasons->pdata[i]);
    json_builder_end_array(b);
    json_builder_end_object(b);
    /* whose guests: the runnable scenarios', or every one's where none runs */
    rv_json_add_string_or_null(b, "resources_of", t->resources_all ? "skipped" : "runnable");
    json_builder_set_member_name(b, "resources");
    json_builder_begin_array(b);
    for (guint i = 0; i < t->resources->len; i++) {
        const RvRunResource *r = t->resources->pdata[i];

        json_builder_begin_object(b);
        rv_json_add_string_or_null(b, "what", r->what);
        rv_json_add_int(b, "node", r->node);
        rv_json_add_int(b, "need", (gint64) r->need);
        json_builder_set_member_name(b, "have");
        if (r->known)
            json_builder_add_int_value(b, (gint64) r->have);
        else
            json_builder_add_null_value(b);
        rv_json_add_string_or_null(b, "unit", r->unit);
        rv_json_add_string_or_null(b, "scenario", r->scenario);
        rv_json_add_bool(b, "ok", r->ok);
        rv_json_add_bool(b, "overcommitted", r->overcommitted);
        json_builder_end_object(b);
    }
    json_builder_end_array(b);
}

void
rv_cmd_run_truth_json_scenario(RvRunCtx *c, const RvRunTruth *t, guint s, JsonBuilder *b)
{
    (void) c;
    rv_json_add_int(b, "repetitions", t->scenario_runs[s]);
    rv_json_add_int(b, "estimate_s", (gint64) (t->scenario_us[s] / G_USEC_PER_SEC));
}
