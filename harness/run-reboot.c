/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * harness/run-reboot.c: the boots of a matrix whose scenarios differ in
 * boot arguments (harness/reboot.h, harness/cmd-run-priv.h): the boot each
 * repetition ran under, the handover to the next boot (resume.json, the
 * boot loader's arguments, the resume unit, the reboot), the end of the
 * boots and `rtvirt run --abort`.
 */
#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <glib/gstdio.h>

#include "harness/cmd-common.h"
#include "harness/cmd-run-priv.h"
#include "harness/log.h"
#include "harness/run.h"
#include "harness/signals.h"
#include "host/tune/bootargs.h"
#include "host/tune/persist.h"
#include "util/error.h"
#include "util/file.h"
#include "util/runner.h"

/* With boots (harness/reboot.h): which boot this repetition ran under,
 * the /proc/cmdline it measured under. */
void
rv_cmd_run_boot_note(RvRunCtx *c, const RvPlanRun *run)
{
    const RvPlanBoot *b = c->plan->boots->pdata[run->boot];
    g_autofree char *what = rv_harness_plan_boot_text(b);
    g_autofree char *d = NULL;

    if (c->boot_fail)
        d = g_strdup_printf("boot %u of %u (%s): the kernel did not take the arguments: %s; "
                            "/proc/cmdline: %s", b->index, c->plan->boots->len, what,
                            c->boot_fail, c->cmdline ? c->cmdline : "(unreadable)");
    else
        d = g_strdup_printf("boot %u of %u (%s): /proc/cmdline: %s", b->index,
                            c->plan->boots->len, what, c->cmdline ? c->cmdline : "(unreadable)");
    rv_result_store_add_verification(c->store, run->cell_name, run->round + 1, "boot",
                                     c->boot_fail ? "FAIL" : "PASS", d);
}

/* Did an earlier invocation finish this repetition?  A run that stopped
 * (a crash, SIGKILL, Ctrl-C, a power cut, the reboot of a boot) resumes
 * with `run --resume`: what ran is kept, not measured twice.  Its
 * "repetition" NOTE (note_running()) says "running since" until the
 * repetition ends; "ran", "interrupted" or "not run" after.  An
 * interrupted one is measured again. */
bool
rv_cmd_run_boot_rep_done(RvRunCtx *c, const RvPlanRun *run)
{
    GPtrArray *vs = rv_result_store_get_verifications(c->store);

    for (guint i = 0; vs && i < vs->len; i++) {
        const RvStoreVerification *v = vs->pdata[i];

        if (v->repetition == (int) run->round + 1 && g_strcmp0(v->scenario, run->cell_name) == 0 &&
            g_strcmp0(v->what, "repetition") == 0 && v->detail &&
            !g_str_has_prefix(v->detail, "running since") &&
            !g_str_has_prefix(v->detail, "interrupted"))
            return true;
    }
    return false;
}

/* A repetition of a boot that did not take its arguments: not measured,
 * failed with the reason (rv_cmd_run_boot_note()); the matrix goes on. */
int
rv_cmd_run_boot_failed(RvRunCtx *c, const RvPlanRun *run)
{
    g_autofree char *status = g_strdup_printf("FAILED: the boot did not take its arguments: %s",
                                              c->boot_fail);

    rv_harness_progress_begin(c->progress, run->cell_name, run->round + 1,
                              c->matrix->repetitions);
    rv_harness_progress_end(c->progress, status, false);
    c->failed_runs++;
    return 1;   /* not "ran": the scenario's status stays */
}

/* The run's boot-loader and unit journals reverted (harness/reboot.h):
 * the original boot arguments back, rtvirt-run-resume.service gone.
 * Returns the entries restored, or -errno. */
static int
boot_journals_revert(RvRoot *root, GError **error)
{
    g_autoptr(RvRunner) runner = rv_runner_new(!rv_host_root_is_live(root));
    g_autofree char *bj = rv_host_root_resolve(root, RV_HARNESS_REBOOT_BOOTARGS_JOURNAL);
    g_autofree char *uj = rv_host_root_resolve(root, RV_HARNESS_REBOOT_UNIT_JOURNAL);
    g_autoptr(RvJournal) j = NULL;
    guint n = 0;
    int r;

    r = rv_host_bootargs_remove(root, bj, runner, error);
    if (r < 0)
        return r;
    if (rv_host_journal_open(root, uj, &j, error) < 0 ||
        rv_host_journal_revert(j, &n, NULL, error) < 0)
        return -EIO;
    return r + (int) n;
}

/* --resume under boot c->boot whose arguments the kernel does not show
 * (c->boot_fail): did the host boot with them in the boot loader?  Not
 * when resume.json says they are not installed (restored when the run
 * stopped) or were installed under the boot_id the host still has (killed
 * before its reboot): then they go in again and the host reboots
 * (harness/reboot.h).  A host without a readable boot_id counts as
 * rebooted: its repetitions fail as before. */
bool
rv_cmd_run_boot_needs_reboot(RvRunCtx *c)
{
    g_autofree char *now = NULL;

    if (!c->boot_fail)
        return false;
    if (!c->resume->installed_boot_id)
        return true;
    now = rv_harness_reboot_boot_id(c->root);
    return now && *c->resume->installed_boot_id && strcmp(now, c->resume->installed_boot_id) == 0;
}

/* Step 4b: the next boot.  resume.json first (a crash from here on
 * resumes or aborts from it; "installed_boot_id" only once the boot
 * loader and the unit hold the boot), the previous boot's arguments out
 * of the boot loader and this boot's in, the resume unit, a NOTE in the
 * store, then the reboot command, unless a stop was requested by then.
 * Returns RV_HARNESS_REBOOT_EXIT, -ECANCELED (a signal before the reboot
 * command: the caller ends the run as interrupted, which restores the
 * boot loader) or -errno. */
int
rv_cmd_run_handover(RvRunCtx *c, unsigned next, GError **error)
{
    const RvPlanBoot *b = c->plan->boots->pdata[next];
    g_autoptr(RvRunner) runner = rv_runner_new(!rv_host_root_is_live(c->root));
    g_autoptr(RvRunner) rebooter = rv_runner_new(false);
    g_autofree char *bj = rv_host_root_resolve(c->root, RV_HARNESS_REBOOT_BOOTARGS_JOURNAL);
    g_autofree char *uj = rv_host_root_resolve(c->root, RV_HARNESS_REBOOT_UNIT_JOURNAL);
    g_autofree char *self = g_file_read_link("/proc/self/exe", NULL);
    g_autofree char *store = g_canonicalize_filename(rv_result_store_get_dir(c->store), NULL);
    g_autofree char *what = rv_harness_plan_boot_text(b);
    g_autofree char *header = NULL, *dropin = NULL, *note = NULL, *cmd = NULL;
    g_auto(GStrv) argv = NULL;
    g_autoptr(RvJournal) j = NULL;
    const char *method = NULL;

    rv_harness_signals_install();   /* Ctrl-C until the reboot command stops the run */
    rv_harness_progress_free(g_steal_pointer(&c->progress));
    rv_harness_run_env_free(g_steal_pointer(&c->env));
    if (rv_cmd_run_revert_scenario(c, error) < 0)
        return -EIO;
    if (rv_harness_reboot_command(&argv, error) < 0)
        return -EINVAL;
    if (!self)
        return rv_error_set(error, RV_ERROR_FAILED, EIO,
                            "Failed to read '/proc/self/exe': the resume unit runs rtvirt by its path");
    c->resume->boot = next;
    c->resume->ok_runs = c->ok_runs;
    c->resume->failed_runs = c->failed_runs;
    g_clear_pointer(&c->resume->installed_boot_id, g_free);
    if (rv_harness_reboot_state_write(store, c->resume, error) < 0)
        return -EIO;
    header = g_strdup_printf("# Written by 'rtvirt run' for boot %u of %u of %s.\n"
                             "# The run's end, or 'rtvirt run --abort %s', restores the "
                             "previous state.\n", next, c->plan->boots->len, store, store);
    dropin = rv_host_bootargs_dropin_with(b->bootargs, header);
    if (rv_host_bootargs_remove(c->root, bj, runner, error) < 0 ||
        rv_host_bootargs_install_dropin(c->root, bj, RV_HARNESS_REBOOT_DROPIN, dropin,
                                        b->bootargs, runner, &method, error) < 0)
        return -EIO;
    if (rv_host_journal_open(c->root, uj, &j, error) < 0 ||
        rv_host_persist_resume_install(j, self, store, error) < 0 ||
        rv_host_journal_commit(j, error) < 0)
        return -EIO;
    c->resume->installed_boot_id = rv_harness_reboot_boot_id(c->root);
    if (!c->resume->installed_boot_id)
        c->resume->installed_boot_id = g_strdup("");   /* installed, boot_id unknown */
    if (rv_harness_reboot_state_write(store, c->resume, error) < 0)
        return -EIO;
    cmd = rv_runner_argv_to_string((const char * const *) argv);
    note = g_strdup_printf("boot %u of %u (%s) installed (%s) with %s; rebooting with '%s'; "
                           "%s runs 'rtvirt run --resume %s' after the boot", next,
                           c->plan->boots->len, what, method, RV_HARNESS_REBOOT_DROPIN, cmd,
                           RV_HOST_RESUME_UNIT_NAME, store);
    rv_result_store_add_verification(c->store, "*", 0, "reboot", "NOTE", note);
    if (rv_result_store_commit(c->store, error) < 0)
        return -EIO;
    rv_cmd_run_test_point("installed");
    /* Ctrl-C or SIGTERM until now: no reboot (the run ends as interrupted
     * and restores the boot loader); once the reboot command ran, the
     * host goes down whatever comes after */
    if (rv_harness_signals_received())
        return -ECANCELED;
    rv_log_info("Boot %u of %u: %s (%s); rebooting with '%s'", next, c->plan->boots->len, what,
                method, cmd);
    if (rv_runner_run_check(rebooter, (const char * const *) argv, 120000, NULL, error) < 0) {
        g_prefix_error(error, "The reboot command ($RTVIRT_REBOOT_CMD) failed: ");
        return -EIO;
    }
    rv_harness_signals_uninstall();
    printf("Rebooting: boot %u of %u (%s); after the boot %s runs 'rtvirt run --resume %s' "
           "('rtvirt run --abort %s' ends the run instead)\n", next, c->plan->boots->len, what,
           RV_HOST_RESUME_UNIT_NAME, store, store);
    fflush(stdout);
    return RV_HARNESS_REBOOT_EXIT;
}

/* After the last boot: the boot loader and the unit as before the run,
 * resume.json gone, the store says so. */
int
rv_cmd_run_boots_end(RvRunCtx *c, const char *why, GError **error)
{
    int n = boot_journals_revert(c->root, error);
    g_autofree char *note = NULL;

    if (n < 0)
        return n;
    if (rv_harness_reboot_state_remove(rv_result_store_get_dir(c->store)) < 0)
        rv_log_warn("Failed to remove %s/%s", rv_result_store_get_dir(c->store),
                    RV_HARNESS_REBOOT_STATE);
    note = g_strdup_printf("%s: the boot loader's arguments and %s restored as before the run "
                           "(%d journal entr%s); the host runs /proc/cmdline '%s' until its "
                           "next reboot", why, RV_HOST_RESUME_UNIT_NAME, n, n == 1 ? "y" : "ies",
                           c->cmdline ? c->cmdline : "?");
    rv_log_info("%s", note);
    rv_result_store_add_verification(c->store, "*", 0, "reboot", "NOTE", note);
    return 0;
}

/* A run with boots that stops before its end (Ctrl-C, SIGTERM, a
 * failure): the boot loader and the unit as before the run, as the end
 * does (no reboot resumes it behind the user's back), but resume.json
 * stays, without installed_boot_id: `run --resume STORE` continues at the
 * same boot, installing its arguments and rebooting first when the host
 * no longer runs them (rv_cmd_run_boot_needs_reboot()). */
int
rv_cmd_run_boots_stop(RvRunCtx *c, const char *why, GError **error)
{
    int n = boot_journals_revert(c->root, error);
    const RvPlanBoot *b = c->plan->boots->pdata[c->resume->boot];
    g_autofree char *what = rv_harness_plan_boot_text(b);
    g_autofree char *note = NULL;

    if (n < 0)
        return n;
    g_clear_pointer(&c->resume->installed_boot_id, g_free);
    if (rv_harness_reboot_state_write(rv_result_store_get_dir(c->store), c->resume, error) < 0)
        return -EIO;
    note = g_strdup_printf("%s at boot %u of %u (%s): the boot loader's arguments and %s "
                           "restored as before the run (%d journal entr%s); the host runs "
                           "/proc/cmdline '%s' until its next reboot; 'rtvirt run --resume %s' "
                           "continues at this boot (installing its arguments and rebooting "
                           "first when the host does not run them)", why, c->resume->boot,
                           c->plan->boots->len, what, RV_HOST_RESUME_UNIT_NAME, n,
                           n == 1 ? "y" : "ies", c->cmdline ? c->cmdline : "?",
                           rv_result_store_get_dir(c->store));
    rv_log_info("%s", note);
    rv_result_store_add_verification(c->store, "*", 0, "reboot", "NOTE", note);
    return 0;
}

/* RV_HARNESS_RUN_CURRENT (`rtvirt status`'s run) removed when it names
 * @store_dir: an aborted run is not continued. */
static void
current_store_forget(RvRoot *root, const char *store_dir)
{
    g_autofree char *path = rv_host_root_resolve(root, RV_HARNESS_RUN_CURRENT);
    g_autofree char *text = NULL, *mine = g_canonicalize_filename(store_dir, NULL);

    if (rv_host_root_read(root, RV_HARNESS_RUN_CURRENT, &text, NULL) >= 0 &&
        strcmp(g_strstrip(text), mine) == 0)
        (void) g_unlink(path);
}

/* `rtvirt run --abort STORE`: the boot loader and the unit as before the
 * run, resume.json gone, the store's NOTE (it stays incomplete). */
int
rv_cmd_run_abort(const char *store_dir)
{
    g_autoptr(GError) err = NULL;
    g_autoptr(RvRoot) root = NULL;
    g_autoptr(RvLock) lock = NULL;
    g_autoptr(RvRebootState) st = NULL;
    g_autoptr(RvStore) store = NULL;
    g_autofree char *note = NULL;
    int n;

    if (rv_harness_reboot_state_read(store_dir, &st, &err) < 0 ||
        rv_result_store_open(store_dir, &store, &err) < 0 ||
        rv_host_root_open(rv_cmd_common.root, &root, &err) < 0 ||
        rv_cmd_run_take_lock(&lock, &err) < 0)
        return rv_log_gerror(err, NULL);
    n = boot_journals_revert(root, &err);
    if (n < 0)
        return rv_log_gerror(err, NULL);
    note = g_strdup_printf("aborted by 'rtvirt run --abort' before boot %u of %u: the boot "
                           "loader's arguments and %s restored as before the run (%d journal "
                           "entr%s)", st->boot, st->boots, RV_HOST_RESUME_UNIT_NAME, n,
                           n == 1 ? "y" : "ies");
    rv_result_store_add_verification(store, "*", 0, "reboot", "NOTE", note);
    rv_result_store_set_complete(store, FALSE);
    if (rv_result_store_commit(store, &err) < 0)
        return rv_log_gerror(err, NULL);
    if (rv_harness_reboot_state_remove(store_dir) < 0)
        rv_log_warn("Failed to remove %s/%s", store_dir, RV_HARNESS_REBOOT_STATE);
    current_store_forget(root, store_dir);
    printf("Aborted: %s; the results so far are in %s\n", note, store_dir);
    return RV_EXIT_OK;
}

/* "line N: 'OLD' is now 'NEW'" between the store's copy @old_text and the
 * file as it is now @new_text (lines cut to 80 bytes). */
static char *
first_difference(const char *old_text, const char *new_text)
{
    g_auto(GStrv) a = g_strsplit(old_text, "\n", -1);
    g_auto(GStrv) b = g_strsplit(new_text, "\n", -1);
    guint i = 0;

    for (; a[i] && b[i]; i++)
        if (strcmp(a[i], b[i]) != 0)
            return g_strdup_printf("line %u: '%.80s' is now '%.80s'", i + 1, a[i], b[i]);
    if (a[i])
        return g_strdup_printf("line %u: '%.80s' is gone (the file is shorter)", i + 1, a[i]);
    if (b[i])
        return g_strdup_printf("line %u: '%.80s' is new (the file is longer)", i + 1, b[i]);
    return g_strdup("the same lines, other bytes");
}

int
rv_cmd_run_resume_check(RvRunCtx *c, const char *role, const char *path, GError **error)
{
    GPtrArray *profiles = rv_result_store_get_profiles(c->store);

    for (guint i = 0; profiles && i < profiles->len; i++) {
        JsonObject *o = json_node_get_object(profiles->pdata[i]);
        const char *copy = json_object_get_string_member_with_default(o, "copy", "");
        const char *sum = json_object_get_string_member_with_default(o, "sha256", "");
        g_autofree char *now_sum = NULL, *copy_path = NULL, *old = NULL, *now = NULL;
        g_autofree char *diff = NULL;

        if (g_strcmp0(json_object_get_string_member_with_default(o, "role", ""), role) != 0)
            continue;
        now_sum = rv_harness_reboot_file_sha256(path);
        if (g_strcmp0(now_sum, sum) == 0)
            return 0;
        copy_path = g_build_filename(rv_result_store_get_dir(c->store), copy, NULL);
        if (!now_sum)
            diff = g_strdup("it cannot be read");
        else if (rv_file_read(copy_path, RV_FILE_READ_MAX, &old, NULL) < 0 ||
                 rv_file_read(path, RV_FILE_READ_MAX, &now, NULL) < 0)
            diff = g_strdup_printf("its SHA-256 is %s, the store's copy %s has %s", now_sum,
                                   copy, sum);
        else
            diff = first_difference(old, now);
        return rv_error_set(error, RV_ERROR_INVALID, EINVAL,
                            "%s: the %s profile %s changed since the run started (%s): the "
                            "same plan cannot be made again; put it back as %s/%s has it, or "
                            "start a new run ('rtvirt run --abort %s' ends one between its "
                            "boots)", rv_result_store_get_dir(c->store), role, path, diff,
                            rv_result_store_get_dir(c->store), copy,
                            rv_result_store_get_dir(c->store));
    }
    return 0;
}
