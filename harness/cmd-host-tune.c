/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * harness/cmd-host-tune.c: `rtvirt host apply PROFILE`, `rtvirt host
 * revert` and `rtvirt host bootargs PROFILE [--install|--remove]`.
 *
 *   apply:    partition (host/profile/partition.h) -> journaled runtime knobs
 *             (host/tune/tune.h) -> with --persist, the journaled boot-time files
 *             (host/tune/persist.h) -> `host check` on the same profile.  A
 *             signal during apply reverts what was done so far.
 *   revert:   the `rtvirt run` journal, then the `host apply` journal,
 *             newest entry first; idempotent.
 *   bootargs: print, --install (drop-in + update-grub, or grubby) or
 *             --remove (journal of the install) the boot arguments.
 */
#include <errno.h>
#include <stdio.h>
#include <string.h>

#include "harness/cmd-common.h"
#include "harness/commands.h"
#include "harness/lock.h"
#include "harness/log.h"
#include "harness/run.h"
#include "harness/signals.h"
#include "host/tune/bootargs.h"
#include "host/check/check.h"
#include "host/tune/journal.h"
#include "host/profile/partition.h"
#include "host/tune/persist.h"
#include "host/profile/profile.h"
#include "host/facts/topology.h"
#include "host/tune/tune.h"
#include "host/tuned/tuned.h"
#include "util/error.h"
#include "util/json.h"
#include "util/profile-path.h"
#include "util/runner.h"

/* The host lock of a fixture root (harness/lock.h), inside it. */
#define RV_HOST_TUNE_FIXTURE_LOCK "/var/lib/rtvirt/rtvirt.lock"

/* Profile, root, topology and partition: everything `apply` and
 * `bootargs` start from. */
typedef struct {
    RvRoot *root;
    RvHostProfile *profile;
    RvTopology *topo;
    RvHostPartition *part;
} Setup;

static void
setup_clear(Setup *s)
{
    g_clear_pointer(&s->part, rv_host_partition_free);
    g_clear_pointer(&s->topo, rv_host_topology_free);
    g_clear_pointer(&s->profile, rv_host_profile_free);
    g_clear_pointer(&s->root, rv_host_root_free);
}
G_DEFINE_AUTO_CLEANUP_CLEAR_FUNC(Setup, setup_clear)

static int
setup_load(Setup *s, const char *profile_name, const char *root_path, GError **error)
{
    g_autofree char *profile_path = NULL;
    int r;

    if ((r = rv_profile_find(RV_PROFILE_HOST, profile_name, &profile_path, error)) < 0)
        return r;

    /* the topology first: "N" in the profile's cpulists is this host's
     * last CPU */
    if ((r = rv_host_root_open(root_path, &s->root, error)) < 0 ||
        (r = rv_host_topology_load(s->root, &s->topo, error)) < 0 ||
        (r = rv_host_profile_load_host(profile_path, s->topo->nr_cpu_ids, &s->profile,
                                       error)) < 0 ||
        (r = rv_host_profile_check_host(s->profile, &s->topo->online, error)) < 0 ||
        (r = rv_host_partition_compute(s->profile, s->topo, &s->part, error)) < 0)
        return r;
    return 0;
}

static void
print_report(const RvTuneReport *report, bool verbose)
{
    for (guint i = 0; i < report->items->len; i++) {
        const RvTuneItem *it = report->items->pdata[i];

        if (it->status == RV_TUNE_ALREADY && !verbose)
            continue;
        printf("%-12s %s", rv_host_tune_status_name(it->status, report->dry_run), it->knob);
        if (it->old_value && it->value && it->status == RV_TUNE_CHANGED)
            printf(": %s -> %s", it->old_value, it->value);
        else if (it->value)
            printf(": %s", it->value);
        if (it->message)
            printf(" (%s)", it->message);
        putchar('\n');
    }
    printf("%s: %u %s, %u already, %u skipped, %u failed\n",
           report->dry_run ? "dry run" : "apply", report->counts[RV_TUNE_CHANGED],
           report->dry_run ? "would change" : "changed", report->counts[RV_TUNE_ALREADY],
           report->counts[RV_TUNE_SKIPPED], report->counts[RV_TUNE_FAILED]);
}

/* `host apply --json`: the partition, every knob and the check after it. */
static JsonNode *
apply_to_json(const Setup *s, const RvTuneReport *report, const RvJournal *journal,
              const GPtrArray *persisted, JsonNode *check)
{
    g_autoptr(JsonBuilder) b = json_builder_new();
    g_autofree char *plan = rv_host_partition_format(s->part, s->topo);
    static const char *const count_names[] = { "changed", "already", "skipped", "failed" };

    rv_cmd_json_begin(b, 1);
    rv_json_add_string_or_null(b, "profile", s->profile->name);
    rv_json_add_bool(b, "dry_run", report->dry_run);
    rv_json_add_string_or_null(b, "partition", plan);
    json_builder_set_member_name(b, "items");
    json_builder_begin_array(b);
    for (guint i = 0; i < report->items->len; i++) {
        const RvTuneItem *it = report->items->pdata[i];

        json_builder_begin_object(b);
        rv_json_add_string_or_null(b, "status", rv_host_tune_status_name(it->status, report->dry_run));
        rv_json_add_string_or_null(b, "knob", it->knob);
        rv_json_add_string_or_null(b, "old_value", it->old_value);
        rv_json_add_string_or_null(b, "value", it->value);
        rv_json_add_string_or_null(b, "message", it->message);
        json_builder_end_object(b);
    }
    json_builder_end_array(b);
    json_builder_set_member_name(b, "counts");
    json_builder_begin_object(b);
    for (guint i = 0; i < G_N_ELEMENTS(count_names); i++) {
        json_builder_set_member_name(b, count_names[i]);
        json_builder_add_int_value(b, report->counts[i]);
    }
    json_builder_end_object(b);
    json_builder_set_member_name(b, "persist");
    if (persisted) {
        json_builder_begin_array(b);
        for (guint i = 0; i < persisted->len; i++) {
            const RvPersistFile *f = persisted->pdata[i];

            json_builder_begin_object(b);
            rv_json_add_string_or_null(b, "path", f->path);
            rv_json_add_string_or_null(b, "target", f->target);
            rv_json_add_string_or_null(b, "what", f->what);
            rv_json_add_bool(b, "changed", f->changed);
            json_builder_end_object(b);
        }
        json_builder_end_array(b);
    } else {
        json_builder_add_null_value(b);
    }
    rv_json_add_string_or_null(b, "journal", journal ? rv_host_journal_path(journal) : NULL);
    json_builder_set_member_name(b, "check");
    if (check)
        json_builder_add_value(b, json_node_ref(check));
    else
        json_builder_add_null_value(b);
    json_builder_end_object(b);
    return json_builder_get_root(b);
}

static int
revert_journal(RvJournal *journal, RvRunner *runner, const char *what, JsonBuilder *json)
{
    g_autoptr(GPtrArray) notes = NULL;
    g_autoptr(GError) err = NULL;
    guint restored = 0;
    int r;

    rv_host_tune_set_handlers(journal, runner);
    /* domains a killed `rtvirt run` journaled, destroyed when they still run */
    rv_harness_run_journal_register(journal);
    if (rv_host_journal_interrupted(journal))
        rv_log_info("%s: '%s' has entries after its last commit marker: the command that "
                    "wrote them was interrupted", what, rv_host_journal_path(journal));
    r = rv_host_journal_revert(journal, &restored, &notes, &err);
    if (r < 0 && r != -EBADMSG)
        return rv_log_gerror(err, "revert failed");
    for (guint i = 0; i < notes->len; i++)
        rv_log_info("%s: %s", what, (const char *) notes->pdata[i]);
    if (r == -EBADMSG)   /* damaged: what verified is restored, exit 1 */
        return rv_log_gerror(err, "revert failed");
    if (json) {
        json_builder_begin_object(json);
        rv_json_add_string_or_null(json, "what", what);
        rv_json_add_string_or_null(json, "journal", rv_host_journal_path(journal));
        rv_json_add_int(json, "restored", restored);
        json_builder_set_member_name(json, "notes");
        json_builder_begin_array(json);
        for (guint i = 0; i < notes->len; i++)
            json_builder_add_string_value(json, notes->pdata[i]);
        json_builder_end_array(json);
        json_builder_end_object(json);
        return RV_EXIT_OK;
    }
    printf("%s: %u entr%s restored (%s)\n", what, restored, restored == 1 ? "y" : "ies",
           rv_host_journal_path(journal));
    return RV_EXIT_OK;
}

static char *arg_journal;
static gboolean arg_dry_run, arg_no_check, arg_install, arg_remove, arg_force, arg_persist;

static const RvCmdSpec host_apply_spec = {
    .params = "PROFILE",
    .summary = "Apply a host profile's runtime knobs (lost at reboot unless --persist); "
               "every old value is journaled first, `rtvirt host revert` restores them.",
    .description =
        "The profile is checked against this host first (values, CPUs): an\n"
        "invalid profile changes nothing.  After applying, `host check` runs on\n"
        "the same profile (unless --no-check).  PROFILE is a file or a name\n"
        "('rtvirt profiles').  --json prints {schema_version, profile, dry_run,\n"
        "partition, items, counts, persist, journal, check} instead of the text.\n"
        "While tuned runs (its PID file or D-Bus name) apply refuses (exit 2):\n"
        "tuned re-applies its own profile; stop it, or run this profile through\n"
        "tuned with `rtvirt host export-tuned`, or pass --force.\n"
        "Without --persist the changes are runtime only: they are lost at the\n"
        "next reboot.  --persist also writes, each file journaled like a knob (so\n"
        "`host revert` removes it, or restores what it replaced):\n"
        "  " RV_HOST_PERSIST_SYSCTL "     the sysctls (sysctl.d(5));\n"
        "  " RV_HOST_PERSIST_MODPROBE "      the module parameters (modprobe.d(5);\n"
        "      read-only ones take effect at a module reload or reboot);\n"
        "  " RV_HOST_PERSIST_UNIT "\n"
        "      for sysfs knobs, IRQ affinities and kernel threads: a oneshot unit\n"
        "      running `RTVIRT host apply PROFILE` (absolute paths) at boot, and its\n"
        "      enable link in multi-user.target.wants/ (systemctl is not run).\n"
        "      The unit runs them as root at every boot, so --persist refuses\n"
        "      (exit 2) a profile, an included profile or an rtvirt binary that\n"
        "      root does not own or that group/others can write, or in such a\n"
        "      directory (a sticky one excepted): copy the profile to /etc/rtvirt/.\n"
        "Boot arguments are never installed by apply: it prints the\n"
        "`rtvirt host bootargs --install` command.  With --dry-run, --persist\n"
        "lists the files it would write.",
    .exit_status =
        "0 applied and the check has no FAIL; 1 a knob failed or the\n"
        "check after applying has a FAIL (e.g. boot arguments not in effect yet:\n"
        "`rtvirt host bootargs --install` and a reboot); 2 error (bad profile,\n"
        "unreadable host, journal not writable: what was applied is reverted).",
    .common = RV_COMMON_JSON | RV_COMMON_ROOT,
    .root_help = "Apply to the tree under DIR (a writable fixture copy), not the live host",
    .verbose_help = "Also list the knobs that already had their value",
};

/* After applying: `host check` on the same profile; exit 1 on a FAIL. */
static int
check_after_apply(const Setup *s, const char *profile, JsonNode **ret_json)
{
    g_autoptr(RvCheckReport) check = NULL;
    g_autoptr(GError) cerr = NULL;
    g_autofree char *text = NULL;

    if (rv_host_check_run(s->root, s->profile, &check, &cerr) < 0) {
        rv_log_warn("host check after apply: %s", cerr->message);
        return RV_EXIT_OK;
    }
    rv_host_check_name_fixes(check, profile, NULL);
    if (ret_json) {
        *ret_json = rv_host_check_to_json(check);
    } else {
        text = rv_host_check_format(check, false);
        printf("\nhost check %s (what did not take effect; boot arguments need "
               "`rtvirt host bootargs --install` and a reboot):\n%s", profile, text);
    }
    /* as `host check`: a FAIL after applying is exit 1 */
    return rv_host_check_trusted(check) ? RV_EXIT_OK : RV_EXIT_CHECK;
}

/* --persist: the boot-time files (host/tune/persist.h), in the same journal
 * as the knobs; the unit runs this very binary at boot.  @check_only:
 * build every file's text and write nothing (before the first knob, so
 * that a value no file can hold changes nothing). */
static int
persist_apply(const Setup *s, RvJournal *journal, bool check_only, GPtrArray **ret,
              GError **error)
{
    g_autofree char *self = g_file_read_link("/proc/self/exe", error);

    if (!self)
        return -ENOENT;
    return rv_host_persist_apply(s->root, check_only ? NULL : journal, s->profile, self,
                                 check_only || arg_dry_run, ret, error);
}

/* After the knobs: what --persist wrote and the boot arguments it did not
 * install, or that nothing survives a reboot. */
static void
print_persist(const Setup *s, const GPtrArray *persisted, const char *profile,
              const char *root)
{
    g_auto(GStrv) args = NULL;

    if (!persisted) {
        if (!arg_dry_run)
            printf("runtime only: these changes are lost at the next reboot "
                   "(--persist also writes the boot-time files)\n");
        return;
    }
    for (guint i = 0; i < persisted->len; i++) {
        const RvPersistFile *f = persisted->pdata[i];
        const char *status = !f->changed ? "already" : arg_dry_run ? "would write" : "written";

        printf("%-12s persist %s%s%s: %s\n", status, f->path, f->target ? " -> " : "",
               f->target ? f->target : "", f->what);
    }
    if (persisted->len == 0)
        printf("persist: the profile sets nothing a boot-time file holds\n");
    /* boot arguments go through the boot loader, with their own journal */
    if (rv_host_kargs_compute(s->profile, s->part, &args, NULL) > 0)
        printf("persist: boot arguments are not installed by --persist; run "
               "`rtvirt host bootargs --install%s%s %s` and reboot\n", root ? " --root " : "",
               root ? root : "", profile);
}

int
rv_cmd_host_apply(int argc, char **argv)
{
    const GOptionEntry entries[] = {
        { "journal", 0, 0, G_OPTION_ARG_FILENAME, &arg_journal,
          "Journal file (default " RV_HOST_JOURNAL_DEFAULT_PATH " inside the root)", "FILE" },
        { "dry-run", 'n', 0, G_OPTION_ARG_NONE, &arg_dry_run,
          "Print the CPU partition and what would change; change nothing", NULL },
        { "no-check", 0, 0, G_OPTION_ARG_NONE, &arg_no_check,
          "Do not run `host check` after applying", NULL },
        { "force", 0, 0, G_OPTION_ARG_NONE, &arg_force,
          "Apply even while tuned runs (it re-applies its own profile and may undo these changes)",
          NULL },
        { "persist", 0, 0, G_OPTION_ARG_NONE, &arg_persist,
          "Also write the boot-time files (sysctl.d, modprobe.d, a systemd unit), journaled",
          NULL },
        { NULL }
    };
    const char *arg_root;
    bool json, verbose;
    g_auto(Setup) s = { 0 };
    g_autoptr(GError) err = NULL;
    g_autoptr(RvJournal) journal = NULL;
    g_autoptr(RvRunner) runner = NULL;
    g_autoptr(RvTuneReport) report = NULL;
    g_autoptr(RvLock) lock = NULL;
    g_autoptr(JsonNode) check_json = NULL;
    g_autoptr(GPtrArray) persisted = NULL;
    int r, ret = RV_EXIT_OK;

    if (rv_cmd_parse(&host_apply_spec, entries, &argc, &argv) < 0)
        return RV_EXIT_ERROR;
    arg_root = rv_cmd_common.root;
    json = rv_cmd_common.json;
    verbose = rv_cmd_common.verbose > 0;
    if (argc != 2) {
        rv_log_error("%s: expected one host profile, e.g. profiles/host/realtime-virtual-host.ini",
                     argv[0]);
        return RV_EXIT_ERROR;
    }
    if (setup_load(&s, argv[1], arg_root, &err) < 0)
        return rv_log_gerror(err, "apply failed");

    /* tuned re-applies its profile: two tuners on one host fight silently */
    if (!arg_dry_run && !arg_force) {
        g_autoptr(RvTunedState) tuned = NULL;

        rv_host_tuned_state_load(s.root, &tuned);
        if (tuned->running) {
            rv_log_error("apply: tuned is running (%s, profile %s) and re-applies its own "
                         "profile over what rtvirt changes; stop it (tuned-adm off, or "
                         "systemctl stop tuned), or let tuned apply this profile: "
                         "rtvirt host export-tuned %s -o /etc/tuned/rtvirt-%s && "
                         "tuned-adm profile rtvirt-%s; --force applies anyway", tuned->how,
                         tuned->active ? tuned->active : "(none)", argv[1], s.profile->name,
                         s.profile->name);
            return RV_EXIT_ERROR;
        }
    }
    if (arg_persist && persist_apply(&s, NULL, true, &persisted, &err) < 0)
        return rv_log_gerror(err, "apply --persist failed");
    g_clear_pointer(&persisted, g_ptr_array_unref);
    if ((arg_dry_run || verbose) && !json) {
        g_autofree char *plan = rv_host_partition_format(s.part, s.topo);
        printf("%s", plan);
    }
    /* a fixture root stands for another host: its daemons are not ours */
    runner = rv_runner_new(arg_dry_run || !rv_host_root_is_live(s.root));
    if (!arg_dry_run && arg_journal) {
        /* a journal the user names lives where the user says: its directory
         * is not created (a typo must not leave journals in odd places that
         * `host revert` and `rtvirt status` never look at) */
        g_autofree char *jdir = g_path_get_dirname(arg_journal);

        if (!g_file_test(jdir, G_FILE_TEST_IS_DIR)) {
            rv_log_error("apply: --journal '%s': directory '%s' does not exist", arg_journal,
                         jdir);
            return RV_EXIT_ERROR;
        }
    }
    if (!arg_dry_run) {
        /* never under a running `rtvirt run` on this host; a fixture root
         * stands for another host and carries its own lock */
        g_autofree char *lock_path = rv_host_root_is_live(s.root)
            ? NULL : rv_host_root_resolve(s.root, RV_HOST_TUNE_FIXTURE_LOCK);

        if (lock_path) {
            g_autofree char *dir = g_path_get_dirname(lock_path);
            (void) g_mkdir_with_parents(dir, 0755);
        }
        if (rv_harness_lock_acquire(lock_path, &lock, &err) < 0)
            return rv_log_gerror(err, "apply failed");
        if (rv_host_journal_open(s.root, arg_journal, &journal, &err) < 0)
            return rv_log_gerror(err, "apply failed");
        /* before every change: is the lock file still the one we hold? */
        rv_host_journal_set_guard(journal, rv_harness_lock_guard, lock);
        rv_harness_signals_install();
    }
    r = rv_host_tune_apply(s.root, journal, s.profile, s.part, runner, arg_dry_run, &report,
                           &err);
    if (r >= 0 && arg_persist)
        r = persist_apply(&s, journal, false, &persisted, &err);
    if (r < 0) {
        ret = rv_log_gerror(err, "apply failed");
        if (journal) {
            rv_log_warn("Reverting what was applied before the failure");
            (void) revert_journal(journal, runner, "revert", NULL);
        }
        return ret;
    }
    /* the transaction is complete: a revert later knows it was not cut */
    if (journal && !rv_harness_signals_received() && rv_host_journal_commit(journal, &err) < 0) {
        ret = rv_log_gerror(err, "apply failed");
        rv_log_warn("Reverting what was applied");
        (void) revert_journal(journal, runner, "revert", NULL);
        return ret;
    }
    if (!json) {
        print_report(report, verbose);
        print_persist(&s, persisted, argv[1], arg_root);
    }
    if (journal && rv_harness_signals_received()) {
        rv_log_warn("Interrupted by signal %d: reverting", rv_harness_signals_received());
        (void) revert_journal(journal, runner, "revert", NULL);
        return RV_EXIT_ERROR;
    }
    if (journal && !json)
        printf("journal: %s (%u entr%s; `rtvirt host revert%s%s%s%s` restores them)\n",
               rv_host_journal_path(journal), rv_host_journal_n_entries(journal),
               rv_host_journal_n_entries(journal) == 1 ? "y" : "ies",
               arg_root ? " --root " : "", arg_root ? arg_root : "",
               arg_journal ? " --journal " : "", arg_journal ? arg_journal : "");
    if (report->counts[RV_TUNE_FAILED])
        ret = RV_EXIT_CHECK;
    if (!arg_no_check && !arg_dry_run &&
        check_after_apply(&s, argv[1], json ? &check_json : NULL) != RV_EXIT_OK)
        ret = RV_EXIT_CHECK;
    if (json) {
        g_autoptr(JsonNode) node = apply_to_json(&s, report, journal, persisted, check_json);

        if (rv_cmd_print_json(node) < 0)
            return RV_EXIT_ERROR;
    }
    return ret;
}

static const RvCmdSpec host_revert_spec = {
    .params = "",
    .summary = "Restore every value rtvirt changed (host apply, an interrupted or "
               "killed rtvirt run), newest first.",
    .description =
        "A damaged journal (a line cut, garbled or missing, a checksum that does\n"
        "not match, an empty file): every entry that verifies is restored, the\n"
        "lines that do not are listed and the journal is left as it is; after\n"
        "checking the host, --force restores again, goes past them and ends it.\n"
        "A FILE that is no rtvirt journal is never written to.\n"
        "--json prints {schema_version, journals: [{what, journal, restored, notes}]}.",
    .exit_status = "0 restored, or nothing to revert (no journal); 1 the journal\n"
                   "is damaged (what verified is restored); 2 error (a journal unreadable or\n"
                   "not a journal, a value that could not be restored).",
    .common = RV_COMMON_JSON | RV_COMMON_ROOT,
    .root_help = "Revert the tree under DIR (a fixture copy), not the live host",
};

int
rv_cmd_host_revert(int argc, char **argv)
{
    const GOptionEntry entries[] = {
        { "journal", 0, 0, G_OPTION_ARG_FILENAME, &arg_journal,
          "Only this journal file (default: the `rtvirt run` journal, then "
          RV_HOST_JOURNAL_DEFAULT_PATH ", inside the root)", "FILE" },
        { "force", 0, 0, G_OPTION_ARG_NONE, &arg_force,
          "On a damaged journal, go past the lines that do not verify and end the journal "
          "(the damaged file is kept as FILE.damaged)", NULL },
        { NULL }
    };
    g_autoptr(RvRoot) root = NULL;
    g_autoptr(RvRunner) runner = NULL;
    g_autoptr(GError) err = NULL;
    g_autoptr(JsonBuilder) json = NULL;
    g_autofree char *run_path = NULL;
    g_autofree char *apply_path = NULL;
    const char *paths[2];
    const char *names[2];
    g_autoptr(RvLock) lock = NULL;
    int n, ret = RV_EXIT_OK;

    if (rv_cmd_parse(&host_revert_spec, entries, &argc, &argv) < 0)
        return RV_EXIT_ERROR;
    if (rv_cmd_common.json)
        json = json_builder_new();
    if (argc != 1) {
        rv_log_error("%s: unexpected argument '%s'", argv[0], argv[1]);
        return RV_EXIT_ERROR;
    }
    if (rv_host_root_open(rv_cmd_common.root, &root, &err) < 0)
        return rv_log_gerror(err, "revert failed");
    if (json) {
        rv_cmd_json_begin(json, 1);
        json_builder_set_member_name(json, "journals");
        json_builder_begin_array(json);
    }
    if (arg_journal && !g_file_test(arg_journal, G_FILE_TEST_EXISTS)) {
        if (!json)
            printf("revert: no journal at '%s': nothing to revert\n", arg_journal);
        goto done;
    }
    /* a running `rtvirt run` reverts its own settings when it ends; a
     * killed one released the lock with its death */
    if (rv_host_root_is_live(root) && rv_harness_lock_acquire(NULL, &lock, &err) < 0)
        return rv_log_gerror(err, "revert failed");
    runner = rv_runner_new(!rv_host_root_is_live(root));

    run_path = rv_harness_run_journal_path(root);
    apply_path = rv_host_root_resolve(root, RV_HOST_JOURNAL_DEFAULT_PATH);
    if (arg_journal) {
        paths[0] = arg_journal;
        names[0] = "revert";
        n = 1;
    } else {
        /* the run's scenario settings sit on top of the applied profile */
        paths[0] = run_path;
        names[0] = "revert run";
        paths[1] = apply_path;
        names[1] = "revert apply";
        n = 2;
    }
    for (int i = 0; i < n; i++) {
        g_autoptr(RvJournal) journal = NULL;
        int r;

        if (!arg_journal && !g_file_test(paths[i], G_FILE_TEST_EXISTS)) {
            /* a journal killed while being created left only its
             * temporary file: nothing was changed, the file goes */
            guint swept = rv_host_journal_sweep_temps(paths[i]);
            if (!json)
                printf("%s: nothing to revert (%s)%s\n", names[i], paths[i],
                       swept ? "; removed the temporary file of a killed journal write" : "");
            continue;
        }

        g_clear_error(&err);
        if (rv_host_journal_open_flags(root, paths[i],
                                       RV_JOURNAL_OPEN_DAMAGED |
                                           (arg_force ? RV_JOURNAL_OPEN_FORCE : 0),
                                       &journal, &err) < 0) {
            ret = rv_log_gerror(err, "revert failed");
            continue;
        }
        r = revert_journal(journal, runner, names[i], json);
        if (r != RV_EXIT_OK && ret != RV_EXIT_ERROR)
            ret = r;
    }
done:
    if (json) {
        g_autoptr(JsonNode) node = NULL;

        json_builder_end_array(json);
        json_builder_end_object(json);
        node = json_builder_get_root(json);
        if (rv_cmd_print_json(node) < 0)
            return RV_EXIT_ERROR;
    }
    return ret;
}

static const RvCmdSpec host_bootargs_spec = {
    .params = "PROFILE | --remove",
    .summary = "Print the kernel boot arguments of a host profile (isolcpus=, nohz_full=, "
               "rcu_nocbs=, irqaffinity=, ...), or install/remove them.",
    .description =
        "PROFILE (a file or a name, see 'rtvirt profiles') is required, except with\n"
        "--remove (which restores the boot configuration recorded by --install).\n"
        "--json prints {schema_version, profile, bootargs, cmdline, action, method,\n"
        "commands, restored} instead of the text.",
    .exit_status = "0 printed/installed/removed; 2 error (bad profile, a profile\n"
                   "naming CPUs this host does not have, boot loader tool failed);\n"
                   "77 --install with neither /etc/default/grub nor grubby (add the\n"
                   "arguments to the boot loader by hand).",
    .common = RV_COMMON_JSON | RV_COMMON_ROOT,
    .root_help = "Use the tree under DIR (topology, /etc/default/grub); tools run in dry-run",
};

/* `host bootargs --json`: one document for print, --install and --remove. */
static int
print_bootargs_json(const char *profile, GStrv args, const char *action, const char *method,
                    RvRunner *runner, int restored)
{
    g_autoptr(JsonBuilder) b = json_builder_new();
    g_autoptr(JsonNode) node = NULL;
    g_autofree char *joined = args ? g_strjoinv(" ", args) : NULL;

    rv_cmd_json_begin(b, 1);
    rv_json_add_string_or_null(b, "profile", profile);
    json_builder_set_member_name(b, "bootargs");
    json_builder_begin_array(b);
    for (guint i = 0; args && args[i]; i++)
        json_builder_add_string_value(b, args[i]);
    json_builder_end_array(b);
    rv_json_add_string_or_null(b, "cmdline", joined);
    rv_json_add_string_or_null(b, "action", action);
    rv_json_add_string_or_null(b, "method", method);
    json_builder_set_member_name(b, "commands");
    json_builder_begin_array(b);
    for (guint i = 0; runner && i < rv_runner_get_log(runner)->len; i++)
        json_builder_add_string_value(b, rv_runner_get_log(runner)->pdata[i]);
    json_builder_end_array(b);
    rv_json_add_int(b, "restored", restored);
    json_builder_end_object(b);
    node = json_builder_get_root(b);
    return rv_cmd_print_json(node) < 0 ? RV_EXIT_ERROR : RV_EXIT_OK;
}

static void
print_commands(RvRunner *runner, bool ran)
{
    for (guint i = 0; i < rv_runner_get_log(runner)->len; i++)
        printf("%s: %s\n", ran ? "ran" : "dry-run", (const char *) rv_runner_get_log(runner)->pdata[i]);
}

static int
bootargs_remove(void)
{
    g_autoptr(RvRoot) root = NULL;
    g_autoptr(RvRunner) runner = NULL;
    g_autoptr(GError) err = NULL;
    int r;

    if (rv_host_root_open(rv_cmd_common.root, &root, &err) < 0)
        return rv_log_gerror(err, "bootargs --remove failed");
    if (arg_dry_run) {
        /* -n writes nothing anywhere: the journal is not even opened (that
         * would create its lock file) */
        g_autofree char *j = arg_journal ? g_strdup(arg_journal)
                                         : rv_host_root_resolve(root, RV_HOST_JOURNAL_BOOTARGS_PATH);
        bool installed = g_file_test(j, G_FILE_TEST_EXISTS);

        if (rv_cmd_common.json)
            return print_bootargs_json(NULL, NULL, "remove", NULL, NULL, 0);
        printf(installed ? "dry-run (nothing written): would restore the boot configuration recorded "
                           "in %s and run update-grub (or grubby)\n"
                         : "dry-run: nothing installed (no %s)\n", j);
        return RV_EXIT_OK;
    }
    runner = rv_runner_new(!rv_host_root_is_live(root));
    r = rv_host_bootargs_remove(root, arg_journal, runner, &err);
    if (r < 0)
        return rv_log_gerror(err, "bootargs --remove failed");
    if (rv_cmd_common.json)
        return print_bootargs_json(NULL, NULL, "remove", NULL, runner, r);
    print_commands(runner, rv_host_root_is_live(root) && !arg_dry_run);
    if (r == 0)
        printf("bootargs: nothing installed\n");
    else
        printf("bootargs: previous boot configuration restored (%d entr%s); "
               "reboot for it to take effect\n", r, r == 1 ? "y" : "ies");
    return RV_EXIT_OK;
}

int
rv_cmd_host_bootargs(int argc, char **argv)
{
    const GOptionEntry entries[] = {
        { "install", 0, 0, G_OPTION_ARG_NONE, &arg_install,
          "Write them to the boot loader configuration (grub.d drop-in + update-grub, or grubby)",
          NULL },
        { "remove", 0, 0, G_OPTION_ARG_NONE, &arg_remove,
          "Restore the boot loader configuration from before --install", NULL },
        { "journal", 0, 0, G_OPTION_ARG_FILENAME, &arg_journal,
          "Journal of the install (default " RV_HOST_JOURNAL_BOOTARGS_PATH " inside the root)",
          "FILE" },
        { "dry-run", 'n', 0, G_OPTION_ARG_NONE, &arg_dry_run,
          "With --install or --remove: print what would be written and run, write nothing", NULL },
        { NULL }
    };
    g_auto(Setup) s = { 0 };
    g_autoptr(GError) err = NULL;
    g_autoptr(RvRunner) runner = NULL;
    g_auto(GStrv) args = NULL;
    g_autofree char *joined = NULL;
    const char *method = NULL;

    if (rv_cmd_parse(&host_bootargs_spec, entries, &argc, &argv) < 0)
        return RV_EXIT_ERROR;
    if (arg_install && arg_remove) {
        rv_log_error("%s: --install and --remove exclude each other", argv[0]);
        return RV_EXIT_ERROR;
    }
    if (arg_remove)
        return bootargs_remove();
    if (argc != 2) {
        rv_log_error("%s: expected one host profile, e.g. profiles/host/realtime-virtual-host.ini",
                     argv[0]);
        return RV_EXIT_ERROR;
    }
    if (setup_load(&s, argv[1], rv_cmd_common.root, &err) < 0)
        return rv_log_gerror(err, "bootargs failed");
    if (rv_host_kargs_compute(s.profile, s.part, &args, &err) < 0)
        return rv_log_gerror(err, "bootargs failed");
    joined = g_strjoinv(" ", args);
    if (!rv_cmd_common.json)
        printf("%s\n", joined);
    if (arg_install && arg_dry_run) {
        /* -n writes nothing anywhere: no drop-in, no journal */
        g_autoptr(GString) what = g_string_new(NULL);

        if (rv_host_bootargs_describe_install(s.root, args, s.profile->name, what, &method, &err) < 0)
            return rv_log_gerror(err, "bootargs --install --dry-run failed");
        if (!rv_cmd_common.json)
            printf("dry-run (nothing written):\n%s", what->str);
    } else if (arg_install) {
        runner = rv_runner_new(!rv_host_root_is_live(s.root));
        if (rv_host_bootargs_install(s.root, arg_journal, args, s.profile->name, runner, &method,
                                     &err) < 0)
            return rv_log_gerror(err, "bootargs --install failed");
        if (!rv_cmd_common.json) {
            print_commands(runner, rv_host_root_is_live(s.root) && !arg_dry_run);
            printf("bootargs: installed with %s; reboot for them to take effect, then "
                   "`rtvirt host check %s` shows them in effect\n", method, argv[1]);
        }
    }
    if (rv_cmd_common.json)
        return print_bootargs_json(s.profile->name, args, arg_install ? "install" : "print",
                                   method, runner, 0);
    return RV_EXIT_OK;
}

static char *arg_output, *arg_include;

static const RvCmdSpec host_export_tuned_spec = {
    .params = "PROFILE",
    .summary = "Write a tuned profile equivalent to a host profile (DIR/tuned.conf), so that "
               "tuned applies it and keeps it across reboots.",
    .description =
        "The CPU partition is computed on this host (or --root DIR) and written as\n"
        "isolated_cores in [variables]; [bootloader] cmdline_rtvirt carries the boot\n"
        "arguments, [sysctl], [sysfs], [vm], [cpu], [scheduler] group.*, [irqbalance]\n"
        "and [modules] the runtime knobs.  What tuned has no plugin for (SMT policy,\n"
        "core scheduling, libvirt keys, per-socket housekeeping) goes into rtvirt_*\n"
        "variables, which `rtvirt host check DIR` reads back: host check on DIR gives\n"
        "the findings it gives on PROFILE.  include=realtime-virtual-host (or\n"
        "--include NAME) is written where it fits: when every knob that profile sets\n"
        "is one PROFILE sets too (its values and command line are then overridden).\n"
        "Then: tuned-adm profile $(basename DIR), with DIR in /etc/tuned.",
    .exit_status = "0 written, 2 error (bad profile, DIR not writable).",
    .common = RV_COMMON_ROOT,
};

int
rv_cmd_host_export_tuned(int argc, char **argv)
{
    const GOptionEntry entries[] = {
        { "output", 'o', 0, G_OPTION_ARG_FILENAME, &arg_output,
          "Directory to write tuned.conf into (created; required)", "DIR" },
        { "include", 0, 0, G_OPTION_ARG_STRING, &arg_include,
          "tuned profile to include where it fits (default realtime-virtual-host; '' none)",
          "NAME" },
        { NULL }
    };
    g_auto(Setup) s = { 0 };
    g_autoptr(GError) err = NULL;
    g_autofree char *text = NULL, *file = NULL, *parent = NULL;
    const char *inc;
    bool included = false;

    if (rv_cmd_parse(&host_export_tuned_spec, entries, &argc, &argv) < 0)
        return RV_EXIT_ERROR;
    if (argc != 2 || !arg_output || !*arg_output) {
        rv_log_error("%s: expected one host profile and -o DIR; see --help", argv[0]);
        return RV_EXIT_ERROR;
    }
    inc = arg_include ? arg_include : "realtime-virtual-host";
    if (*inc) {
        if (strchr(inc, '/')) {
            rv_log_error("%s: --include '%s': a tuned profile name, not a path", argv[0], inc);
            return RV_EXIT_ERROR;
        }
        for (int i = 0; !parent && i < 2; i++) {
            g_autofree char *d = g_build_filename(i ? "/usr/lib/tuned" : "/etc/tuned", inc, NULL);
            g_autofree char *c = g_build_filename(d, "tuned.conf", NULL);

            if (g_file_test(c, G_FILE_TEST_IS_REGULAR))
                parent = g_steal_pointer(&d);
        }
    }
    if (setup_load(&s, argv[1], rv_cmd_common.root, &err) < 0)
        return rv_log_gerror(err, "export-tuned failed");
    if (rv_host_tuned_export(s.profile, s.part, s.topo, parent, &text, &included, &err) < 0)
        return rv_log_gerror(err, "export-tuned failed");
    if (g_mkdir_with_parents(arg_output, 0755) < 0) {
        rv_log_error("export-tuned: cannot create '%s': %s", arg_output, g_strerror(errno));
        return RV_EXIT_ERROR;
    }
    file = g_build_filename(arg_output, "tuned.conf", NULL);
    if (!g_file_set_contents(file, text, -1, &err))
        return rv_log_gerror(err, "export-tuned failed");
    if (included)
        printf("export-tuned: wrote %s (include=%s: %s)\n", file, inc, parent);
    else
        printf("export-tuned: wrote %s (standalone%s)\n", file,
               parent ? ": the profile to include would add knobs, see the file's comment" : "");
    return RV_EXIT_OK;
}
