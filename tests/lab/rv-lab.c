/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * tests/lab/rv-lab.c: thin driver over librtvirt's SMT, core-cookie and
 * sched_switch code, for the lab VM (tests/lab/lab-tests.sh).  It only
 * parses arguments and prints: every decision is made by the same library
 * functions `rtvirt run` calls (host/tune/smt.h, host/tune/coresched.h,
 * host/trace/schedtrace.h, host/tune/journal.h).
 *
 * Built by the Makefile's pattern rule $(O)/tests/%: as
 * $(O)/tests/lab/rv-lab.
 *
 *   rv-lab topology                 rv_host_topology_format() of the live host
 *   rv-lab smt-state
 *   rv-lab smt JOURNAL on|off
 *   rv-lab revert JOURNAL
 *   rv-lab coresched-check
 *   rv-lab tag NAME=PID...          one new cookie per VM, read back, verify
 *   rv-lab read NAME=PID...         read back and verify only
 *   rv-lab untag NAME=PID...
 *   rv-lab trace SECONDS GRACE_MS cookies|groups SAVEFILE NAME=PID...
 *          (SAVEFILE gets the trace text, SAVEFILE.labels "tid label" lines;
 *          "-" saves nothing)
 *
 * Exit status: 0 pass, 1 check failed, 2 error, 77 unsupported (the reason
 * is printed as "SKIPPED: <reason>").
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "host/facts/threads.h"
#include "host/tune/coresched.h"
#include "host/tune/journal.h"
#include "host/trace/schedtrace.h"
#include "host/tune/smt.h"
#include "host/facts/topology.h"
#include "results/attribution.h"
#include "results/cosched.h"
#include "util/error.h"

static int
report(GError *err)
{
    int code = rv_error_exit_code(err);

    if (code == RV_EXIT_SKIP)
        printf("SKIPPED: %s\n", err->message);
    else if (err)
        printf("%s: %s\n", code == RV_EXIT_CHECK ? "FAILED" : "ERROR", err->message);
    return code;
}

typedef struct {
    char *name;
    pid_t pid;
} Vm;

static int
parse_vms(int argc, char **argv, GArray *vms)
{
    for (int i = 0; i < argc; i++) {
        const char *eq = strchr(argv[i], '=');
        Vm vm;

        if (!eq || atoi(eq + 1) <= 0) {
            fprintf(stderr, "rv-lab: expected NAME=PID, got '%s'\n", argv[i]);
            return -EINVAL;
        }
        vm.name = g_strndup(argv[i], eq - argv[i]);
        vm.pid = atoi(eq + 1);
        g_array_append_val(vms, vm);
    }
    return 0;
}

static void
vm_clear(gpointer p)
{
    g_free(((Vm *) p)->name);
}

static void
print_vm(const RvCoreSchedVm *vm)
{
    printf("VM %s pid %d: %u threads, cookie 0x%" G_GINT64_MODIFIER "x\n",
           vm->name, (int) vm->pid, vm->threads->len, vm->cookie);
    for (guint i = 0; i < vm->threads->len; i++) {
        const RvCoreSchedThread *t = &g_array_index(vm->threads, RvCoreSchedThread, i);

        printf("  thread %d %-20s cookie 0x%" G_GINT64_MODIFIER "x%s\n",
               (int) t->tid, t->comm, t->cookie, t->kthread ? " (vhost kthread)" : "");
    }
}

static int
cmd_cookies(RvRoot *root, const char *mode, GArray *vms)
{
    g_autoptr(GPtrArray) read = g_ptr_array_new_with_free_func((GDestroyNotify) rv_host_coresched_vm_free);
    g_autoptr(GError) err = NULL;
    int r;

    for (guint i = 0; i < vms->len; i++) {
        const Vm *v = &g_array_index(vms, Vm, i);
        RvCoreSchedVm *vm = NULL;

        if (strcmp(mode, "untag") == 0) {
            r = rv_host_coresched_untag_vm(root, v->pid, &err);
            if (r < 0)
                return report(err);
            r = rv_host_coresched_read_vm(root, v->pid, v->name, &vm, &err);
        } else if (strcmp(mode, "tag") == 0) {
            r = rv_host_coresched_tag_vm(root, v->pid, v->name, &vm, &err);
        } else {
            r = rv_host_coresched_read_vm(root, v->pid, v->name, &vm, &err);
        }
        if (r < 0)
            return report(err);
        print_vm(vm);
        g_ptr_array_add(read, vm);
    }
    if (strcmp(mode, "untag") == 0) {
        for (guint i = 0; i < read->len; i++) {
            const RvCoreSchedVm *vm = read->pdata[i];

            for (guint j = 0; j < vm->threads->len; j++)
                if (g_array_index(vm->threads, RvCoreSchedThread, j).cookie != 0) {
                    printf("FAILED: VM %s still has a cookie\n", vm->name);
                    return RV_EXIT_CHECK;
                }
        }
        printf("untagged: every thread has cookie 0\n");
        return 0;
    }
    r = rv_host_coresched_verify_vms((RvCoreSchedVm * const *) read->pdata, read->len, &err);
    if (r < 0)
        return report(err);
    printf("verified: each VM is one non-zero cookie on every thread, and the %u VMs differ\n",
           read->len);
    return 0;
}

static int
cmp_label(gconstpointer a, gconstpointer b)
{
    pid_t x = ((const RvSchedLabel *) a)->tid, y = ((const RvSchedLabel *) b)->tid;

    return (x > y) - (x < y);
}

/* The co-scheduling stats of results/cosched.c (what `rtvirt run` records
 * per VM) over the same trace TEXT: one line per VM, "cosched VM NAME: run
 * S s, same P %, idle P %, foreign P %, unknown P %", over the span from
 * the first event to the last. */
static int
print_cosched(RvRoot *root, const RvTopology *topo, const char *text, GArray *vms)
{
    g_autoptr(GError) err = NULL;
    g_autoptr(GArray) ev = NULL;
    g_autoptr(GHashTable) tid_vm = g_hash_table_new(NULL, NULL);
    g_autofree int *sib = g_new(int, topo->nr_cpu_ids + 1);
    g_autofree RvCoschedShare *s = g_new0(RvCoschedShare, vms->len + 1);
    int r;

    rv_host_topology_sibling_map(topo, sib, topo->nr_cpu_ids);
    for (guint i = 0; i < vms->len; i++) {
        g_autoptr(GArray) tids = NULL;

        r = rv_host_process_threads_list(root, g_array_index(vms, Vm, i).pid, &tids, NULL, &err);
        if (r < 0)
            return report(err);
        for (guint j = 0; j < tids->len; j++)
            g_hash_table_insert(tid_vm, GINT_TO_POINTER(g_array_index(tids, pid_t, j)),
                                GUINT_TO_POINTER(i + 1));
    }
    r = rv_result_attr_parse_trace(text, &ev, NULL, &err);
    if (r < 0)
        return report(err);
    if (r == 0) {
        printf("cosched: no events\n");
        return RV_EXIT_ERROR;
    }
    r = rv_result_cosched_compute(ev, sib, topo->nr_cpu_ids, tid_vm, vms->len,
                                  g_array_index(ev, RvAttrEvent, 0).ts_ns,
                                  g_array_index(ev, RvAttrEvent, ev->len - 1).ts_ns, s, &err);
    if (r < 0)
        return report(err);
    for (guint i = 0; i < vms->len; i++)
        printf("cosched VM %s: run %.3f s, same %.1f %%, idle %.1f %%, foreign %.1f %%, "
               "unknown %.1f %%\n", g_array_index(vms, Vm, i).name, s[i].run_ns / 1e9,
               rv_result_cosched_pct(s[i].same_ns, s[i].run_ns),
               rv_result_cosched_pct(s[i].idle_ns, s[i].run_ns),
               rv_result_cosched_pct(s[i].foreign_ns, s[i].run_ns),
               rv_result_cosched_pct(s[i].unknown_ns, s[i].run_ns));
    return 0;
}

static int
cmd_trace(RvRoot *root, double seconds, double grace_ms, const char *mode,
          const char *save, GArray *vms)
{
    g_autoptr(GError) err = NULL;
    g_autoptr(RvSchedTrace) tr = NULL;
    g_autoptr(RvTopology) topo = NULL;
    g_autoptr(GArray) events = NULL;
    g_autoptr(GArray) labels = g_array_new(FALSE, FALSE, sizeof(RvSchedLabel));
    g_autoptr(RvSchedReport) rep = NULL;
    g_autofree char *text = NULL;
    g_autofree char *fmt = NULL;
    guint lost = 0;
    int r;

    r = rv_host_topology_load(root, &topo, &err);
    if (r < 0)
        return report(err);
    /* keep the buffer size: a rewrite is rounded to whole 4080-byte pages
     * (1408 KiB reads back as 1410), so it could not be restored exactly;
     * lost events are detected instead */
    r = rv_host_schedtrace_start(root, 0, &tr, &err);
    if (r < 0)
        return report(err);
    g_usleep((gulong) (seconds * G_USEC_PER_SEC));

    /* label the tasks while they still run */
    if (strcmp(mode, "cookies") == 0) {
        g_autoptr(GArray) snap = NULL;

        r = rv_host_coresched_snapshot(root, &snap, &err);
        if (r < 0)
            return report(err);
        for (guint i = 0; i < snap->len; i++) {
            const RvTaskCookie *tc = &g_array_index(snap, RvTaskCookie, i);
            RvSchedLabel l = { tc->tid, tc->cookie };

            g_array_append_val(labels, l);
        }
    } else {
        for (guint i = 0; i < vms->len; i++) {
            g_autoptr(GArray) tids = NULL;

            r = rv_host_process_threads_list(root, g_array_index(vms, Vm, i).pid, &tids, NULL, &err);
            if (r < 0)
                return report(err);
            for (guint j = 0; j < tids->len; j++) {
                RvSchedLabel l = { g_array_index(tids, pid_t, j), i + 1 };

                g_array_append_val(labels, l);
            }
        }
        g_array_sort(labels, cmp_label);
    }

    r = rv_host_schedtrace_stop(tr, &text, &err);
    if (r < 0)
        return report(err);
    if (save && strcmp(save, "-") != 0) {
        g_autoptr(GString) l = g_string_new(NULL);
        g_autofree char *lpath = g_strdup_printf("%s.labels", save);

        for (guint i = 0; i < labels->len; i++) {
            const RvSchedLabel *x = &g_array_index(labels, RvSchedLabel, i);

            g_string_append_printf(l, "%d 0x%" G_GINT64_MODIFIER "x\n", (int) x->tid, x->label);
        }
        if (!g_file_set_contents(save, text, -1, &err) ||
            !g_file_set_contents(lpath, l->str, l->len, &err))
            return report(err);
    }
    r = rv_host_schedtrace_parse(text, &events, &lost, &err);
    if (r < 0)
        return report(err);
    if (lost) {
        printf("ERROR: the trace lost %u events: enlarge buffer_size_kb or shorten the trace\n", lost);
        return RV_EXIT_ERROR;
    }
    r = rv_host_schedtrace_analyze(events, topo->cpu_core, topo->nr_cpu_ids, labels,
                                   (guint64) (grace_ms * 1e6), &rep, &err);
    if (r < 0)
        return report(err);
    fmt = rv_host_schedtrace_report_format(rep);
    printf("labels: %s\n%s", mode, fmt);
    r = print_cosched(root, topo, text, vms);
    if (r != 0)
        return r;
    return rep->n_violations ? RV_EXIT_CHECK : RV_EXIT_OK;
}

int
main(int argc, char **argv)
{
    g_autoptr(GError) err = NULL;
    g_autoptr(RvRoot) root = NULL;
    g_autoptr(GArray) vms = g_array_new(FALSE, FALSE, sizeof(Vm));
    const char *cmd;
    int r;

    g_array_set_clear_func(vms, vm_clear);
    setvbuf(stdout, NULL, _IOLBF, 0);
    if (argc < 2) {
        fprintf(stderr, "usage: rv-lab smt-state|smt|revert|coresched-check|tag|read|untag|trace ...\n");
        return RV_EXIT_ERROR;
    }
    cmd = argv[1];
    r = rv_host_root_open(g_getenv("RV_LAB_ROOT"), &root, &err);
    if (r < 0)
        return report(err);

    if (strcmp(cmd, "topology") == 0) {
        g_autoptr(RvTopology) topo = NULL;
        g_autofree char *s = NULL;

        r = rv_host_topology_load(root, &topo, &err);
        if (r < 0)
            return report(err);
        s = rv_host_topology_format(topo);
        printf("%s", s);
        return 0;
    }
    if (strcmp(cmd, "smt-state") == 0) {
        g_auto(RvSmtState) st = { 0 };
        g_autofree char *s = NULL;

        r = rv_host_smt_state_read(root, &st, &err);
        if (r < 0)
            return report(err);
        s = rv_host_smt_state_format(&st);
        printf("%s\n", s);
        return 0;
    }
    if (strcmp(cmd, "smt") == 0 && argc == 4) {
        g_autoptr(RvJournal) j = NULL;
        g_auto(RvSmtState) st = { 0 };
        g_autofree char *s = NULL;

        r = rv_host_journal_open(root, argv[2], &j, &err);
        if (r < 0)
            return report(err);
        int changed = rv_host_smt_set(root, j, strcmp(argv[3], "on") == 0, &err);

        if (changed < 0)
            return report(err);
        r = rv_host_smt_state_read(root, &st, &err);
        if (r < 0)
            return report(err);
        s = rv_host_smt_state_format(&st);
        printf("smt %s: %s; %s\n", argv[3], changed ? "changed" : "already so", s);
        return 0;
    }
    if (strcmp(cmd, "revert") == 0 && argc == 3) {
        g_autoptr(RvJournal) j = NULL;
        g_autoptr(GPtrArray) notes = NULL;
        guint restored = 0;

        r = rv_host_journal_open(root, argv[2], &j, &err);
        if (r < 0)
            return report(err);
        rv_host_smt_journal_register(j);
        r = rv_host_journal_revert(j, &restored, &notes, &err);
        if (r < 0)
            return report(err);
        printf("reverted %u journal entries\n", restored);
        return 0;
    }
    if (strcmp(cmd, "coresched-check") == 0) {
        r = rv_host_coresched_check(root, &err);
        if (r < 0)
            return report(err);
        printf("core scheduling usable\n");
        return 0;
    }
    if (strcmp(cmd, "tag") == 0 || strcmp(cmd, "read") == 0 || strcmp(cmd, "untag") == 0) {
        if (parse_vms(argc - 2, argv + 2, vms) < 0)
            return RV_EXIT_ERROR;
        return cmd_cookies(root, cmd, vms);
    }
    if (strcmp(cmd, "trace") == 0 && argc >= 6) {
        if (parse_vms(argc - 6, argv + 6, vms) < 0)
            return RV_EXIT_ERROR;
        return cmd_trace(root, g_ascii_strtod(argv[2], NULL), g_ascii_strtod(argv[3], NULL),
                         argv[4], argv[5], vms);
    }
    fprintf(stderr, "rv-lab: bad arguments; see tests/lab/rv-lab.c\n");
    return RV_EXIT_ERROR;
}
