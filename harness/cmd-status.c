/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * harness/cmd-status.c: `rtvirt status [--root DIR] [--json]`: who holds
 * the host lock (pid, command, since; a stale file said to be stale), the
 * journals and how many entries each still holds, which rtvirt-* libvirt
 * domains exist.  Reads only: takes no lock (harness/lock.h), opens no
 * journal for writing (rv_host_journal_peek()).
 *
 * --json (schema_version 1):
 *   {"schema_version":1,
 *    "lock":{"path":P,"exists":B,"holder":PID|0,"pid":PID|0,"command":S|null,
 *            "since":S|null,"stale":B},
 *    "journals":[{"name":"run"|"apply"|"bootargs"|"run-bootargs"|"run-resume",
 *                 "path":P,"exists":B,
 *                 "version":N,"entries":N,"damaged":N,"interrupted":B,"in_use":B,
 *                 "error":S|null}],
 *    "domains":[{"name":S,"active":B}] | null (not queried: fixture root,
 *              or libvirt unreachable: "domains_error":S),
 *    "run":{"store":P,"matrix":P,"running":B,"done":N,"total":N,"run_s":N,
 *           "eta_s":N|null,"updated":S|null,"error":S|null} | null (no run
 *          left incomplete: RV_HARNESS_RUN_CURRENT absent)}
 */
#include <errno.h>
#include <stdio.h>
#include <string.h>

#include <json-glib/json-glib.h>
#include <libvirt/libvirt.h>

#include "guest/libvirt.h"
#include "harness/cmd-common.h"
#include "harness/commands.h"
#include "harness/lock.h"
#include "harness/log.h"
#include "harness/progress.h"
#include "harness/reboot.h"
#include "harness/run.h"
#include "host/fsroot.h"
#include "host/tune/journal.h"
#include "util/error.h"
#include "util/json.h"

#define STATUS_SCHEMA_VERSION 1
/* as in harness/cmd-host-tune.c: a fixture root's own host lock */
#define STATUS_FIXTURE_LOCK "/var/lib/rtvirt/rtvirt.lock"

typedef struct {
    const char *name;
    char *path;
    RvJournalSummary sum;
    char *error;
} JournalStatus;

/* rtvirt-* domains: 0 with @ret filled, or -errno with @error. */
static int
list_domains(GPtrArray *ret_names, GArray *ret_active, GError **error)
{
    g_autoptr(virConnect) conn = NULL;
    virDomainPtr *doms = NULL;
    int n;

    if (rv_guest_libvirt_connect(NULL, &conn, error) < 0)
        return -ECONNREFUSED;
    n = virConnectListAllDomains(conn, &doms, 0);
    if (n < 0)
        return rv_guest_libvirt_error(error, EIO, "Failed to list libvirt domains");
    for (int i = 0; i < n; i++) {
        const char *name = virDomainGetName(doms[i]);
        gboolean active = virDomainIsActive(doms[i]) == 1;

        if (name && g_str_has_prefix(name, "rtvirt-")) {
            g_ptr_array_add(ret_names, g_strdup(name));
            g_array_append_val(ret_active, active);
        }
        virDomainFree(doms[i]);
    }
    free(doms);
    return 0;
}

/* The run that has not completed: RV_HARNESS_RUN_CURRENT names its store,
 * whose resume.json (harness/reboot.h) holds the progress. */
typedef struct {
    char *store;
    RvRebootState *st;
    char *error;
    bool running;               /* the lock is held: it runs now */
} RunStatus;

static void
run_status_load(RvRoot *root, const RvLockInfo *li, RunStatus *rs)
{
    g_autofree char *text = NULL;
    g_autoptr(GError) err = NULL;

    if (rv_host_root_read(root, RV_HARNESS_RUN_CURRENT, &text, NULL) < 0)
        return;
    rs->store = g_strdup(g_strstrip(text));
    rs->running = li->holder != 0;
    if (rv_harness_reboot_state_read(rs->store, &rs->st, &err) < 0)
        rs->error = g_strdup(err->message);
}

/* Time left in s: the repetitions not done at the mean time of one. */
static gint64
run_status_eta(const RunStatus *rs)
{
    if (!rs->st || !rs->st->runs_total)
        return -1;
    return (gint64) ((rs->st->runs_total - rs->st->runs_done) * rs->st->run_us / G_USEC_PER_SEC);
}

static void
print_run(const RunStatus *rs)
{
    g_autofree char *eta = NULL;

    if (!rs->store)
        return;
    if (!rs->st) {
        printf("run: %s: %s\n", rs->store, rs->error ? rs->error : "no progress");
        return;
    }
    eta = rv_harness_progress_format_eta((guint64) MAX(run_status_eta(rs), 0) * G_USEC_PER_SEC);
    if (rs->running)
        printf("run: %s (%s): running, %u of %u repetitions done (%u failed), about %s left\n",
               rs->store, rs->st->matrix, rs->st->runs_done, rs->st->runs_total,
               rs->st->failed_runs, eta);
    else
        printf("run: %s (%s): stopped, %u of %u repetitions done (%u failed): 'rtvirt run "
               "--resume %s' continues it (about %s left)\n", rs->store, rs->st->matrix,
               rs->st->runs_done, rs->st->runs_total, rs->st->failed_runs, rs->store, eta);
}

static void
json_run(JsonBuilder *b, const RunStatus *rs)
{
    json_builder_set_member_name(b, "run");
    if (!rs->store) {
        json_builder_add_null_value(b);
        return;
    }
    json_builder_begin_object(b);
    rv_json_add_string_or_null(b, "store", rs->store);
    rv_json_add_string_or_null(b, "matrix", rs->st ? rs->st->matrix : NULL);
    rv_json_add_bool(b, "running", rs->running);
    rv_json_add_int(b, "done", rs->st ? rs->st->runs_done : 0);
    rv_json_add_int(b, "total", rs->st ? rs->st->runs_total : 0);
    rv_json_add_int(b, "failed", rs->st ? rs->st->failed_runs : 0);
    rv_json_add_int(b, "run_s", rs->st ? (gint64) (rs->st->run_us / G_USEC_PER_SEC) : 0);
    json_builder_set_member_name(b, "eta_s");
    if (run_status_eta(rs) >= 0)
        json_builder_add_int_value(b, run_status_eta(rs));
    else
        json_builder_add_null_value(b);
    rv_json_add_string_or_null(b, "updated", rs->st ? rs->st->updated : NULL);
    rv_json_add_string_or_null(b, "error", rs->error);
    json_builder_end_object(b);
}

static void
print_text(const char *lock_path, const RvLockInfo *li, JournalStatus *js, guint n_js,
           GPtrArray *names, GArray *active, const char *dom_error, const RunStatus *rs)
{
    if (li->holder)
        printf("lock: held by pid %d%s%s%s%s (%s)\n", (int) li->holder,
               li->holder == li->pid && li->command ? ", '" : "",
               li->holder == li->pid && li->command ? li->command : "",
               li->holder == li->pid && li->command ? "', since " : "",
               li->holder == li->pid && li->since ? li->since : "", lock_path);
    else if (li->stale)
        printf("lock: free; the lock file names pid %d ('%s', since %s), which is gone: "
               "stale, left by a killed rtvirt; the next rtvirt takes it over (%s)\n",
               (int) li->pid, li->command ? li->command : "?", li->since ? li->since : "?",
               lock_path);
    else
        printf("lock: free (%s)\n", lock_path);
    print_run(rs);
    for (guint i = 0; i < n_js; i++) {
        const JournalStatus *j = &js[i];

        if (j->error)
            printf("journal %s: %s\n", j->name, j->error);
        else if (!j->sum.exists)
            printf("journal %s: none (%s)\n", j->name, j->path);
        else
            printf("journal %s: %u entr%s to revert%s%s%s (%s, format %d)\n", j->name,
                   j->sum.n_entries, j->sum.n_entries == 1 ? "y" : "ies",
                   j->sum.n_damaged ? ", DAMAGED: `rtvirt host revert` lists what" : "",
                   j->sum.n_damaged ? " does not verify" : "",
                   !j->sum.interrupted ? ""
                   : li->holder ? ", in use by the command holding the lock"
                   : ", from an interrupted command", j->path,
                   j->sum.version);
    }
    if (dom_error)
        printf("domains: not listed: %s\n", dom_error);
    else if (!names)
        printf("domains: not listed on a fixture root\n");
    else if (names->len == 0)
        printf("domains: no rtvirt-* domain\n");
    else
        for (guint i = 0; i < names->len; i++)
            printf("domain: %s (%s)\n", (const char *) names->pdata[i],
                   g_array_index(active, gboolean, i) ? "running" : "defined, not running");
}

static void
print_json(const char *lock_path, const RvLockInfo *li, JournalStatus *js, guint n_js,
           GPtrArray *names, GArray *active, const char *dom_error, const RunStatus *rs)
{
    g_autoptr(JsonBuilder) b = json_builder_new();
    g_autoptr(JsonGenerator) gen = json_generator_new();
    g_autoptr(JsonNode) root = NULL;
    g_autofree char *text = NULL;

    rv_cmd_json_begin(b, STATUS_SCHEMA_VERSION);
    json_builder_set_member_name(b, "lock");
    json_builder_begin_object(b);
    rv_json_add_string_or_null(b, "path", lock_path);
    rv_json_add_bool(b, "exists", li->exists);
    rv_json_add_int(b, "holder", li->holder);
    rv_json_add_int(b, "pid", li->pid);
    rv_json_add_string_or_null(b, "command", li->command);
    rv_json_add_string_or_null(b, "since", li->since);
    rv_json_add_bool(b, "stale", li->stale);
    json_builder_end_object(b);
    json_builder_set_member_name(b, "journals");
    json_builder_begin_array(b);
    for (guint i = 0; i < n_js; i++) {
        json_builder_begin_object(b);
        rv_json_add_string_or_null(b, "name", js[i].name);
        rv_json_add_string_or_null(b, "path", js[i].path);
        rv_json_add_bool(b, "exists", js[i].sum.exists);
        rv_json_add_int(b, "version", js[i].sum.version);
        rv_json_add_int(b, "entries", js[i].sum.n_entries);
        rv_json_add_int(b, "damaged", js[i].sum.n_damaged);
        /* a journal without its commit marker is a command still running
         * while the lock is held, an interrupted one otherwise */
        rv_json_add_bool(b, "interrupted", js[i].sum.interrupted && !li->holder);
        rv_json_add_bool(b, "in_use", js[i].sum.interrupted && li->holder);
        rv_json_add_string_or_null(b, "error", js[i].error);
        json_builder_end_object(b);
    }
    json_builder_end_array(b);
    json_builder_set_member_name(b, "domains");
    if (!names) {
        json_builder_add_null_value(b);
    } else {
        json_builder_begin_array(b);
        for (guint i = 0; i < names->len; i++) {
            json_builder_begin_object(b);
            rv_json_add_string_or_null(b, "name", names->pdata[i]);
            rv_json_add_bool(b, "active", g_array_index(active, gboolean, i));
            json_builder_end_object(b);
        }
        json_builder_end_array(b);
    }
    rv_json_add_string_or_null(b, "domains_error", dom_error);
    json_run(b, rs);
    json_builder_end_object(b);
    root = json_builder_get_root(b);
    json_generator_set_root(gen, root);
    json_generator_set_pretty(gen, TRUE);
    text = json_generator_to_data(gen, NULL);
    printf("%s\n", text);
}

static const RvCmdSpec status_spec = {
    .params = "",
    .summary = "Say who holds the host lock, the run that has not completed (its "
               "progress and time left, or how to resume it), which journals hold "
               "changes to revert, which rtvirt-* domains exist.",
    .description = "Reads only: takes no lock.",
    .exit_status = "0 reported; 2 error (unreadable state).",
    .common = RV_COMMON_JSON | RV_COMMON_ROOT,
    .json_help = "Print JSON (schema_version 1)",
    .root_help = "Report on the tree under DIR (a fixture copy), not the live host",
};

int
rv_cmd_status(int argc, char **argv)
{
    const char *arg_root;
    gboolean arg_json;
    g_autoptr(GError) err = NULL;
    g_autoptr(RvRoot) root = NULL;
    g_auto(RvLockInfo) li = { 0 };
    g_autofree char *lock_path = NULL;
    g_autoptr(GPtrArray) names = NULL;
    g_autoptr(GArray) active = NULL;
    g_autofree char *dom_error = NULL;
    RunStatus rs = { 0 };
    /* run-bootargs and run-resume: a run between its boots (harness/reboot.h) */
    JournalStatus js[5] = {
        { .name = "run" }, { .name = "apply" }, { .name = "bootargs" },
        { .name = "run-bootargs" }, { .name = "run-resume" },
    };
    const char *rel[5] = { NULL, RV_HOST_JOURNAL_DEFAULT_PATH, RV_HOST_JOURNAL_BOOTARGS_PATH,
                           RV_HARNESS_REBOOT_BOOTARGS_JOURNAL, RV_HARNESS_REBOOT_UNIT_JOURNAL };

    if (rv_cmd_parse(&status_spec, NULL, &argc, &argv) < 0)
        return RV_EXIT_ERROR;
    arg_root = rv_cmd_common.root;
    arg_json = rv_cmd_common.json;
    if (argc != 1) {
        rv_log_error("%s: unexpected argument '%s'", argv[0], argv[1]);
        return RV_EXIT_ERROR;
    }
    if (rv_host_root_open(arg_root, &root, &err) < 0)
        return rv_log_gerror(err, "status failed");
    lock_path = rv_host_root_is_live(root) ? rv_harness_lock_path(NULL)
                                           : rv_host_root_resolve(root, STATUS_FIXTURE_LOCK);
    if (rv_harness_lock_info(lock_path, NULL, &li, &err) < 0)
        return rv_log_gerror(err, "status failed");
    for (guint i = 0; i < G_N_ELEMENTS(js); i++) {
        g_autoptr(GError) jerr = NULL;

        js[i].path = rel[i] ? rv_host_root_resolve(root, rel[i])
                            : rv_harness_run_journal_path(root);
        if (rv_host_journal_peek(root, js[i].path, &js[i].sum, &jerr) < 0)
            js[i].error = g_strdup(jerr->message);
    }
    run_status_load(root, &li, &rs);
    if (rv_host_root_is_live(root)) {
        g_autoptr(GError) derr = NULL;

        names = g_ptr_array_new_with_free_func(g_free);
        active = g_array_new(FALSE, FALSE, sizeof(gboolean));
        if (list_domains(names, active, &derr) < 0) {
            dom_error = g_strdup(derr->message);
            g_clear_pointer(&names, g_ptr_array_unref);
        }
    }
    if (arg_json)
        print_json(lock_path, &li, js, G_N_ELEMENTS(js), names, active, dom_error, &rs);
    else
        print_text(lock_path, &li, js, G_N_ELEMENTS(js), names, active, dom_error, &rs);
    g_free(rs.store);
    g_free(rs.error);
    rv_harness_reboot_state_free(rs.st);
    for (guint i = 0; i < G_N_ELEMENTS(js); i++) {
        g_free(js[i].path);
        g_free(js[i].error);
    }
    return RV_EXIT_OK;
}
