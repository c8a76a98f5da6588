/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * host/tune/journal-revert.c: reverting the journal (host/tune/journal.h):
 * every verified entry restored newest first, the damaged lines kept in a
 * copy, the journal removed or rewritten with what could not be restored.
 */
#include <errno.h>
#include <fcntl.h>
#include <sched.h>
#include <signal.h>
#include <stdarg.h>
#include <string.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <unistd.h>
#include <glib/gstdio.h>
#include <json-glib/json-glib.h>
#include "host/tune/journal.h"
#include "host/tune/journal-entry.h"
#include "host/tune/journal-priv.h"
#include "util/error.h"

/* ---- revert ------------------------------------------------------------ */

static bool
journal_has_sched(const RvJournal *j, pid_t pid)
{
    for (guint i = 0; i < j->entries->len; i++) {
        const Entry *e = j->entries->pdata[i];
        if (e->kind == ENTRY_SCHED && e->pid == pid)
            return true;
    }
    return false;
}

/* kthreadd's affinity was just restored from @pinned to @orig.  Kernel
 * threads it forked meanwhile (khugepaged when THP was switched on, from a
 * partial revert or by hand) inherited @pinned, and no journal knows them:
 * each child of kthreadd that no entry records and whose affinity is
 * exactly @pinned goes to @orig.  Per-CPU kthreads refuse (EINVAL,
 * PF_NO_SETAFFINITY) and stay. */
static void
repin_kthreads(RvJournal *j, pid_t kthreadd, const RvCpuSet *pinned, const RvCpuSet *orig,
               GPtrArray *notes)
{
    g_autofree char *proc = rv_host_root_resolve(j->root, "/proc");
    g_autoptr(GDir) d = g_dir_open(proc, 0, NULL);
    g_autoptr(GString) moved = g_string_new(NULL);
    const char *name;

    while (d && (name = g_dir_read_name(d))) {
        g_autofree char *stat_path = NULL, *stat = NULL;
        const char *close_paren;
        RvCpuSet aff;
        int policy, prio;
        pid_t pid;
        long ppid;

        if (!g_ascii_isdigit(name[0]))
            continue;
        pid = (pid_t) g_ascii_strtoll(name, NULL, 10);
        stat_path = g_strdup_printf("/proc/%s/stat", name);
        if (rv_host_root_read(j->root, stat_path, &stat, NULL) < 0 ||
            !(close_paren = strrchr(stat, ')')) ||
            sscanf(close_paren + 1, " %*c %ld", &ppid) != 1 || ppid != kthreadd ||
            journal_has_sched(j, pid))
            continue;
        if (rv_host_journal_get_sched(pid, &policy, &prio, &aff) < 0 || !rv_cpuset_equal(&aff, pinned) ||
            rv_host_journal_put_affinity(pid, orig) < 0)
            continue;
        {
            g_autofree char *comm = g_strndup(strchr(stat, '(') + 1,
                                              close_paren - strchr(stat, '(') - 1);
            g_string_append_printf(moved, "%s%s (%d)", moved->len ? ", " : "", comm, pid);
        }
    }
    if (moved->len) {
        g_autofree char *to = rv_cpulist_format(orig);
        g_ptr_array_add(notes, g_strdup_printf("kernel threads started while kthreadd was "
                                               "pinned moved back to CPUs %s with it: %s",
                                               to, moved->str));
    }
}

/* Restores one entry.  Returns 0 (restored, or nothing left to restore:
 * a note may be added) or -errno with @error. */
static int
restore_entry(RvJournal *j, const Entry *e, GPtrArray *notes, GError **error)
{
    switch (e->kind) {
    case ENTRY_VALUE: {
        g_autofree char *raw = NULL;
        g_autofree char *want = NULL;
        g_autofree char *cur = NULL;
        gssize n = rv_host_root_read(j->root, e->path, &raw, NULL);

        if (n == -ENOENT) {
            g_ptr_array_add(notes, g_strdup_printf("'%s' is gone: nothing to restore", e->path));
            return 0;
        }
        if (!rv_host_root_is_live(j->root)) {
            /* a fixture file: the exact bytes */
            if (n >= 0 && (gsize) n == e->old_len && memcmp(raw, e->old, n) == 0)
                return 0;
            return rv_host_root_write(j->root, e->path, e->old, error);
        }
        want = rv_host_journal_normalize_value(e->old);
        if (n >= 0) {
            cur = rv_host_journal_normalize_value(raw);
            if (strcmp(cur, want) == 0)
                return 0;
        }
        return rv_host_root_write(j->root, e->path, want, error);
    }
    case ENTRY_FILE: {
        g_autofree char *real = rv_host_root_resolve(j->root, e->path);
        g_autofree char *data = NULL;
        gsize len = 0;
        struct stat st;
        int r;

        guint swept = rv_host_journal_sweep_temps(real);

        if (swept)
            g_ptr_array_add(notes, g_strdup_printf("removed %u temporary file%s %s" TEMP_INFIX
                                                   "XXXXXX left by a killed write", swept,
                                                   swept == 1 ? "" : "s", e->path));
        if (e->absent) {
            if (unlink(real) < 0 && errno != ENOENT) {
                int e2 = errno;
                return rv_error_set(error, RV_ERROR_FAILED, e2, "Failed to remove '%s': %s",
                                    real, g_strerror(e2));
            }
            (void) rv_host_journal_fsync_dir(real);
            return 0;
        }
        r = rv_host_journal_read_file(j->root, e->path, &data, &len, &st);
        if (r == 0 && len == e->old_len && memcmp(data, e->old, len) == 0 &&
            (st.st_mode & 07777) == e->mode &&
            (!e->has_mtime || (st.st_mtim.tv_sec == e->mtime.tv_sec &&
                               st.st_mtim.tv_nsec == e->mtime.tv_nsec)))
            return 0;
        return rv_host_journal_atomic_replace(real, e->old, e->old_len, e->mode, e->uid, e->gid,
                              e->has_mtime ? &e->mtime : NULL, error);
    }
    case ENTRY_DIR: {
        g_autofree char *real = rv_host_root_resolve(j->root, e->path);

        if (rmdir(real) < 0 && errno != ENOENT) {
            int e2 = errno;
            return rv_error_set(error, RV_ERROR_FAILED, e2, "Failed to remove directory '%s': %s",
                                real, g_strerror(e2));
        }
        return 0;
    }
    case ENTRY_SCHED: {
        RvCpuSet want_aff, cur_aff;
        guint64 starttime;
        int cur_policy, cur_prio, r;

        r = rv_host_journal_pid_starttime(j->root, (pid_t) e->pid, &starttime);
        if (r < 0 || starttime != e->starttime) {
            g_ptr_array_add(notes, g_strdup_printf("pid %" G_GINT64_FORMAT " (%s) is gone: "
                                                   "scheduling not restored",
                                                   e->pid, e->comm ? e->comm : "?"));
            return 0;
        }
        if (!rv_host_root_is_live(j->root))
            return rv_error_set(error, RV_ERROR_UNSUPPORTED, EOPNOTSUPP,
                                "Cannot restore the scheduling of pid %" G_GINT64_FORMAT
                                " on root '%s': not the live host",
                                e->pid, rv_host_root_path(j->root));
        r = rv_cpulist_parse(e->affinity, 0, &want_aff, error);
        if (r < 0)
            return r;
        r = rv_host_journal_get_sched((pid_t) e->pid, &cur_policy, &cur_prio, &cur_aff);
        if (r == -ESRCH) {
            g_ptr_array_add(notes, g_strdup_printf("pid %" G_GINT64_FORMAT " (%s) is gone: "
                                                   "scheduling not restored",
                                                   e->pid, e->comm ? e->comm : "?"));
            return 0;
        }
        if (r == 0 && (cur_policy != e->policy || cur_prio != e->prio))
            r = rv_host_journal_put_policy((pid_t) e->pid, e->policy, e->prio);
        if (r == 0 && !rv_cpuset_equal(&cur_aff, &want_aff)) {
            r = rv_host_journal_put_affinity((pid_t) e->pid, &want_aff);
            if (r == 0 && e->comm && g_str_equal(e->comm, "kthreadd"))
                repin_kthreads(j, (pid_t) e->pid, &cur_aff, &want_aff, notes);
        }
        if (r < 0)
            return rv_error_set(error, RV_ERROR_FAILED, -r,
                                "Failed to restore the scheduling of pid %" G_GINT64_FORMAT
                                " (%s) to policy %d priority %d affinity '%s': %s",
                                e->pid, e->comm ? e->comm : "?", e->policy, e->prio,
                                e->affinity, g_strerror(-r));
        /* read back: the revert is only done when the thread is as
         * journaled (a kernel that refused part of the mask says so here) */
        r = rv_host_journal_get_sched((pid_t) e->pid, &cur_policy, &cur_prio, &cur_aff);
        if (r == 0 && !rv_cpuset_equal(&cur_aff, &want_aff)) {
            g_autofree char *got = rv_cpulist_format(&cur_aff);
            return rv_error_set(error, RV_ERROR_FAILED, EIO,
                                "Restored pid %" G_GINT64_FORMAT " (%s) to affinity '%s' but it "
                                "reads back '%s'", e->pid, e->comm ? e->comm : "?",
                                e->affinity, got);
        }
        return 0;
    }
    case ENTRY_CUSTOM: {
        Handler *h = g_hash_table_lookup(j->handlers, e->type);

        if (!h)
            return rv_error_set(error, RV_ERROR_FAILED, ENOTSUP,
                                "No restore handler for journal entry '%s' '%s' in '%s'",
                                e->type, e->key, j->path);
        return h->fn(j->root, e->key, e->data, h->user_data, error);
    }
    case ENTRY_COMMIT:
        break;   /* never an entry */
    }
    g_assert_not_reached();
}

/* Rewrites the journal with @kept entries only, or removes it. */
static int
journal_rewrite(RvJournal *j, GPtrArray *kept, GError **error)
{
    g_autoptr(GString) s = NULL;
    int r;

    if (j->fd >= 0) {
        close(j->fd);
        j->fd = -1;
    }
    if (kept->len == 0) {
        if (unlink(j->path) < 0 && errno != ENOENT) {
            int e = errno;
            return rv_error_set(error, RV_ERROR_FAILED, e, "Failed to remove journal '%s': %s",
                                j->path, g_strerror(e));
        }
        (void) rv_host_journal_fsync_dir(j->path);
        (void) rv_host_journal_sweep_temps(j->path);    /* a rewrite of it killed before its rename */
        j->version = 0;
        j->next_seq = 1;
        return 0;
    }
    s = rv_host_journal_format_file(j, kept);
    r = rv_host_journal_atomic_replace(j->path, s->str, s->len, 0600, -1, -1, NULL, error);
    if (r < 0)
        return r;
    j->version = JOURNAL_VERSION;
    j->last_seq = kept->len;
    j->last_commit = kept->len + 1;
    j->next_seq = kept->len + 2;
    j->uncommitted = false;
    return 0;
}

/* --force: the damaged journal's bytes are kept as PATH.damaged before the
 * journal is rewritten without its unverifiable lines. */
static int
save_damaged(RvJournal *j, char **ret_path, GError **error)
{
    g_autofree char *contents = NULL;
    g_autofree char *dest = g_strconcat(j->path, ".damaged", NULL);
    g_autoptr(GError) local = NULL;
    gsize len = 0;
    int r;

    if (!g_file_get_contents(j->path, &contents, &len, &local))
        return rv_error_set(error, RV_ERROR_FAILED, EIO, "Failed to read journal '%s': %s",
                            j->path, local->message);
    if (len == 0)
        return 0;   /* nothing worth keeping */
    r = rv_host_journal_atomic_replace(dest, contents, len, 0600, -1, -1, NULL, error);
    if (r < 0)
        return r;
    *ret_path = g_steal_pointer(&dest);
    return 1;
}

static char *
damage_list(const RvJournal *j)
{
    GString *s = g_string_new(NULL);

    for (guint i = 0; i < j->damage->len; i++) {
        const Damage *d = j->damage->pdata[i];

        g_string_append_printf(s, "%sline %u: %s", i ? "; " : "", d->line, d->what);
    }
    return g_string_free(s, FALSE);
}

/* The error of a revert of a damaged journal (exit 1: a check failed). */
static int
damaged_error(RvJournal *j, guint restored, const char *saved, guint n_failed,
              const char *failures, GError **error)
{
    g_autofree char *list = damage_list(j);
    g_autofree char *fail = n_failed ? g_strdup_printf("; %u entr%s could not be restored: %s",
                                                       n_failed, n_failed == 1 ? "y" : "ies",
                                                       failures)
                                     : g_strdup("");
    g_autofree char *kept = saved ? g_strdup_printf(" (the damaged journal is kept as '%s')",
                                                    saved)
                                  : g_strdup("");

    if (j->flags & RV_JOURNAL_OPEN_FORCE)
        return rv_error_set(error, RV_ERROR_CHECK, EBADMSG,
                            "Journal '%s' is damaged: %u verified entr%s restored, %u line%s "
                            "could not be verified and %s gone past%s: %s%s",
                            j->path, restored, restored == 1 ? "y" : "ies", j->damage->len,
                            j->damage->len == 1 ? "" : "s",
                            j->damage->len == 1 ? "was" : "were", kept, list, fail);
    return rv_error_set(error, RV_ERROR_CHECK, EBADMSG,
                        "Journal '%s' is damaged: %u verified entr%s restored, %u line%s "
                        "could not be verified: %s%s; the journal is left unchanged: check "
                        "the host (`rtvirt host check PROFILE`), then `rtvirt host revert "
                        "--force` restores again, goes past them and ends the journal "
                        "(see JOURNAL RECOVERY in rtvirt(1))",
                        j->path, restored, restored == 1 ? "y" : "ies", j->damage->len,
                        j->damage->len == 1 ? "" : "s", list, fail);
}

/* A note on a journal in the old format. */
static void
format_notes(const RvJournal *j, GPtrArray *notes)
{
    if (j->version == JOURNAL_VERSION_OLD)
        g_ptr_array_add(notes, g_strdup_printf("'%s' is in the old journal format (version %d): "
                                               "its entries carry no sequence number or "
                                               "checksum and are restored as read",
                                               j->path, JOURNAL_VERSION_OLD));
}

/* Orders entries by their index in the journal (@data: j->entries). */
static gint
cmp_journal_order(gconstpointer a, gconstpointer b, gpointer data)
{
    GPtrArray *all = data;
    guint ia = 0, ib = 0;

    g_ptr_array_find(all, *(gconstpointer const *) a, &ia);
    g_ptr_array_find(all, *(gconstpointer const *) b, &ib);
    return ia < ib ? -1 : ia > ib;
}

/* Keeps the entries of @kept in the journal, frees the others. */
static void
journal_keep(RvJournal *j, GPtrArray *kept)
{
    g_autoptr(GPtrArray) old = g_steal_pointer(&j->entries);

    j->entries = g_ptr_array_new_with_free_func((GDestroyNotify) rv_host_journal_entry_free);
    g_hash_table_remove_all(j->keys);
    for (guint i = 0; i < old->len; i++) {
        bool keep = false;

        for (guint k = 0; k < kept->len; k++)
            if (kept->pdata[k] == old->pdata[i])
                keep = true;
        if (keep) {
            rv_host_journal_add_entry(j, old->pdata[i]);
            old->pdata[i] = NULL;
        }
    }
}

int
rv_host_journal_revert(RvJournal *j, guint *ret_restored, GPtrArray **ret_notes,
                       GError **error)
{
    g_autoptr(GPtrArray) notes = g_ptr_array_new_with_free_func(g_free);
    g_autoptr(GPtrArray) kept = g_ptr_array_new();
    g_autoptr(GPtrArray) retry = g_ptr_array_new();   /* Entry *, newest first */
    g_autoptr(GError) first = NULL;
    g_autoptr(GString) failures = g_string_new(NULL);
    g_autofree char *saved = NULL;
    bool damaged = j->damage->len > 0;
    guint n_failed = 0;
    int first_r = 0;
    guint restored = 0;
    int r;

    if (j->entries->len == 0 && !damaged && !g_file_test(j->path, G_FILE_TEST_EXISTS)) {
        /* a journal whose creation was killed before its rename: nothing
         * was changed yet, but its temporary file is there */
        (void) rv_host_journal_sweep_temps(j->path);
        if (ret_restored)
            *ret_restored = 0;
        if (ret_notes)
            *ret_notes = g_steal_pointer(&notes);
        return 0;
    }
    format_notes(j, notes);
    /* Two passes, each newest first: the scheduling of threads (kthreadd's
     * affinity above all), then everything else.  A switch that starts
     * kernel threads (THP's khugepaged, KSM's ksmd, a workqueue) makes
     * kthreadd fork them, and a new kthread inherits kthreadd's affinity:
     * restored in plain reverse order (or partly, from a damaged journal),
     * THP came back while kthreadd was still pinned, and khugepaged stayed
     * on the housekeeping CPU for good, a thread no journal knows. */
    /* A thread whose affinity the kernel refuses (EINVAL: a workqueue's
     * rescuer or another PF_NO_SETAFFINITY thread, which follows the
     * workqueue cpumask) is tried again in a third pass, after the
     * switches: by then the workqueue cpumask restored moved it back. */
    for (guint pass = 0; pass < 3; pass++)
    for (guint i = pass == 2 ? retry->len : j->entries->len; i-- > 0;) {
        const Entry *e = pass == 2 ? retry->pdata[retry->len - 1 - i] : j->entries->pdata[i];
        g_autoptr(GError) local = NULL;

        if (pass < 2 && (pass == 0) != (e->kind == ENTRY_SCHED))
            continue;
        r = restore_entry(j, e, notes, &local);
        if (r == -EINVAL && pass == 0) {
            g_ptr_array_add(retry, (gpointer) e);
            continue;
        }
        if (r < 0) {
            g_ptr_array_add(kept, (gpointer) e);
            n_failed++;
            if (failures->len)
                g_string_append(failures, "; ");
            g_string_append(failures, local ? local->message : g_strerror(-r));
            if (!first) {
                first = g_steal_pointer(&local);
                first_r = r;
            }
        } else {
            restored++;
        }
    }
    if (damaged && !(j->flags & RV_JOURNAL_OPEN_FORCE)) {
        /* the file stays byte for byte: nothing of it is lost before
         * someone has looked */
        if (ret_restored)
            *ret_restored = restored;
        if (ret_notes)
            *ret_notes = g_steal_pointer(&notes);
        return damaged_error(j, restored, NULL, n_failed, failures->str, error);
    }
    if (damaged) {
        r = save_damaged(j, &saved, error);
        if (r < 0)
            return r;
    }
    /* in journal order again (the passes took them out of it) */
    g_ptr_array_sort_with_data(kept, cmp_journal_order, j->entries);
    r = journal_rewrite(j, kept, first || damaged ? NULL : error);
    if (r < 0 && !first && !damaged)
        return r;
    journal_keep(j, kept);
    if (damaged) {
        r = damaged_error(j, restored, saved, n_failed, failures->str, error);
        /* what was not restored is kept in the rewritten journal */
        g_ptr_array_set_size(j->damage, 0);
        if (ret_restored)
            *ret_restored = restored;
        if (ret_notes)
            *ret_notes = g_steal_pointer(&notes);
        return r;
    }

    if (first) {
        if (n_failed == 1) {
            g_propagate_error(error, g_steal_pointer(&first));
            return first_r;
        }
        return rv_error_set(error, (RvErrorCode) first->code, -first_r,
                            "%u journal entries could not be restored (kept in '%s'): %s",
                            n_failed, j->path, failures->str);
    }
    if (ret_restored)
        *ret_restored = restored;
    if (ret_notes)
        *ret_notes = g_steal_pointer(&notes);
    return 0;
}
