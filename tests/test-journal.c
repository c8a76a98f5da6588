/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * tests/test-journal.c: host/journal on throw-away roots (and, for kernel
 * thread scheduling, on a child process of the live host): old values
 * recorded before changes, restores newest first and byte-identical, first
 * original kept across processes, files with their content/mode/absence,
 * directories, custom entries, failures kept, torn and corrupt journals,
 * the lock.  The SIGKILL-after-each-change loop runs in
 * tests/t-apply-revert.sh through RV_TEST_KILL_AFTER.
 */
#include <errno.h>
#include <fcntl.h>
#include <sched.h>
#include <signal.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/prctl.h>
#include <sys/wait.h>
#include <unistd.h>

#include <glib/gstdio.h>

#include "host/tune/journal.h"
#include "host/tune/journal-priv.h"
#include "util/error.h"
#include "tests/testutil.h"

typedef struct {
    char *dir;
    RvRoot *root;
} Fixture;

static char *
get(const char *dir, const char *rel)
{
    g_autofree char *path = g_build_filename(dir, rel, NULL);
    char *s = NULL;

    if (!g_file_get_contents(path, &s, NULL, NULL))
        return NULL;
    return s;
}

static void
fixture_setup(Fixture *f, gconstpointer data)
{
    g_autoptr(GError) err = NULL;

    (void) data;
    f->dir = g_dir_make_tmp("rv-journal-XXXXXX", &err);
    g_assert_no_error(err);
    rv_test_put(f->dir, "proc/sys/kernel/sched_rt_runtime_us", "950000\n");
    rv_test_put(f->dir, "proc/sys/kernel/timer_migration", "1\n");
    rv_test_put(f->dir, "proc/irq/24/smp_affinity_list", "0-1\n");
    rv_test_put(f->dir, "sys/kernel/mm/transparent_hugepage/enabled", "always [madvise] never\n");
    rv_test_put(f->dir, "etc/libvirt/qemu.conf", "# qemu.conf\n#sched_core = \"none\"\n");
    g_assert_cmpint(rv_host_root_open(f->dir, &f->root, &err), ==, 0);
}

static void
fixture_teardown(Fixture *f, gconstpointer data)
{
    (void) data;
    rv_host_root_free(f->root);
    rv_test_rm_rf(f->dir);
    g_free(f->dir);
}

static RvJournal *
open_journal(Fixture *f)
{
    g_autoptr(GError) err = NULL;
    RvJournal *j = NULL;

    g_assert_cmpint(rv_host_journal_open(f->root, NULL, &j, &err), ==, 0);
    g_assert_no_error(err);
    return j;
}

static void
revert_ok(RvJournal *j, guint want_restored)
{
    g_autoptr(GError) err = NULL;
    g_autoptr(GPtrArray) notes = NULL;
    guint restored = 99;

    g_assert_cmpint(rv_host_journal_revert(j, &restored, &notes, &err), ==, 0);
    g_assert_no_error(err);
    g_assert_cmpuint(restored, ==, want_restored);
    g_assert_cmpuint(rv_host_journal_n_entries(j), ==, 0);
}

static void
test_normalize(void)
{
    static const char *const cases[][2] = {
        { "950000\n", "950000" },
        { "  0-1 \n", "0-1" },
        { "always [madvise] never\n", "madvise" },
        { "[none] mq-deadline kyber bfq\n", "none" },
        { "[always] defer defer+madvise madvise never", "always" },
        { "", "" },
        { "[x]", "[x]" },   /* one word: not a choice list */
    };

    for (size_t i = 0; i < G_N_ELEMENTS(cases); i++) {
        g_autofree char *got = rv_host_journal_normalize_value(cases[i][0]);
        g_assert_cmpstr(got, ==, cases[i][1]);
    }
}

static void
test_value(Fixture *f, gconstpointer data)
{
    g_autoptr(RvJournal) j = open_journal(f);
    g_autoptr(GError) err = NULL;
    g_autofree char *jtext = NULL;
    g_autofree char *v = NULL;

    (void) data;
    g_assert_cmpint(rv_host_journal_set_value(j, "/proc/sys/kernel/sched_rt_runtime_us", "-1",
                                              &err), ==, 1);
    g_assert_no_error(err);
    /* already at the value: nothing recorded, nothing written */
    g_assert_cmpint(rv_host_journal_set_value(j, "/proc/sys/kernel/sched_rt_runtime_us", "-1",
                                              &err), ==, 0);
    g_assert_cmpint(rv_host_journal_set_value(j, "/sys/kernel/mm/transparent_hugepage/enabled",
                                              "madvise", &err), ==, 0);
    g_assert_cmpint(rv_host_journal_set_value(j, "/sys/kernel/mm/transparent_hugepage/enabled",
                                              "never", &err), ==, 1);
    g_assert_cmpint(rv_host_journal_set_value(j, "/proc/irq/24/smp_affinity_list", "0", &err),
                    ==, 1);
    g_assert_cmpuint(rv_host_journal_n_entries(j), ==, 3);
    v = get(f->dir, "proc/sys/kernel/sched_rt_runtime_us");
    g_assert_cmpstr(v, ==, "-1");
    g_clear_pointer(&v, g_free);
    v = get(f->dir, "sys/kernel/mm/transparent_hugepage/enabled");
    g_assert_cmpstr(v, ==, "always madvise [never]\n");   /* as the kernel shows it */
    g_clear_pointer(&v, g_free);

    /* the record is on disk before the change: header + 3 lines */
    jtext = get(f->dir, "var/lib/rtvirt/journal");
    g_assert_nonnull(jtext);
    g_assert_nonnull(strstr(jtext, "\"old\":\"950000\\n\""));
    g_assert_nonnull(strstr(jtext, "\"old\":\"always [madvise] never\\n\""));

    revert_ok(j, 3);
    /* byte-identical on a fixture root */
    v = get(f->dir, "proc/sys/kernel/sched_rt_runtime_us");
    g_assert_cmpstr(v, ==, "950000\n");
    g_clear_pointer(&v, g_free);
    v = get(f->dir, "sys/kernel/mm/transparent_hugepage/enabled");
    g_assert_cmpstr(v, ==, "always [madvise] never\n");
    g_clear_pointer(&v, g_free);
    v = get(f->dir, "proc/irq/24/smp_affinity_list");
    g_assert_cmpstr(v, ==, "0-1\n");
    /* journal removed; a second revert has nothing to do */
    g_assert_false(rv_host_root_exists(f->root, "/var/lib/rtvirt/journal"));
    revert_ok(j, 0);
}

/* A second process (a second `host apply`) must not record the tuned value
 * as the original. */
static void
test_first_original_kept(Fixture *f, gconstpointer data)
{
    g_autoptr(GError) err = NULL;
    g_autofree char *v = NULL;

    (void) data;
    {
        g_autoptr(RvJournal) j = open_journal(f);
        g_assert_cmpint(rv_host_journal_set_value(j, "/proc/sys/kernel/timer_migration", "0",
                                                  &err), ==, 1);
    }
    {
        g_autoptr(RvJournal) j = open_journal(f);
        g_assert_cmpuint(rv_host_journal_n_entries(j), ==, 1);
        g_assert_true(rv_host_journal_has_path(j, "/proc/sys/kernel/timer_migration"));
        g_assert_cmpint(rv_host_journal_set_value(j, "/proc/sys/kernel/timer_migration", "2",
                                                  &err), ==, 1);
        g_assert_cmpuint(rv_host_journal_n_entries(j), ==, 1);
    }
    {
        g_autoptr(RvJournal) j = open_journal(f);
        revert_ok(j, 1);
    }
    v = get(f->dir, "proc/sys/kernel/timer_migration");
    g_assert_cmpstr(v, ==, "1\n");
}

static void
test_files(Fixture *f, gconstpointer data)
{
    g_autoptr(RvJournal) j = open_journal(f);
    g_autoptr(GError) err = NULL;
    g_autofree char *conf = g_build_filename(f->dir, "etc/libvirt/qemu.conf", NULL);
    g_autofree char *v = NULL;
    struct stat st;

    (void) data;
    g_assert_cmpint(chmod(conf, 0640), ==, 0);
    g_assert_cmpint(rv_host_journal_set_file(j, "/etc/libvirt/qemu.conf",
                                             "sched_core = \"vcpus\"\n", -1, 0600, &err), ==, 1);
    g_assert_no_error(err);
    g_assert_cmpint(stat(conf, &st), ==, 0);
    g_assert_cmpint(st.st_mode & 07777, ==, 0640);   /* an existing file keeps its mode */
    /* a new file in a new directory: both recorded */
    g_assert_cmpint(rv_host_journal_set_file(j, "/etc/default/grub.d/rtvirt.cfg", "X=1\n", -1,
                                             0644, &err), ==, 1);
    g_assert_no_error(err);
    g_assert_true(rv_host_root_exists(f->root, "/etc/default/grub.d/rtvirt.cfg"));
    /* same content: nothing to do */
    g_assert_cmpint(rv_host_journal_set_file(j, "/etc/default/grub.d/rtvirt.cfg", "X=1\n", -1,
                                             0644, &err), ==, 0);
    /* removing a file that exists records its content */
    rv_test_put(f->dir, "etc/modprobe.d/kvm.conf", "options kvm x=1\n");
    g_assert_cmpint(rv_host_journal_set_file(j, "/etc/modprobe.d/kvm.conf", NULL, 0, 0, &err),
                    ==, 1);
    g_assert_false(rv_host_root_exists(f->root, "/etc/modprobe.d/kvm.conf"));
    /* entries: qemu.conf, dir /etc/default, dir grub.d, rtvirt.cfg, kvm.conf */
    g_assert_cmpuint(rv_host_journal_n_entries(j), ==, 5);

    revert_ok(j, 5);
    v = get(f->dir, "etc/libvirt/qemu.conf");
    g_assert_cmpstr(v, ==, "# qemu.conf\n#sched_core = \"none\"\n");
    g_assert_cmpint(stat(conf, &st), ==, 0);
    g_assert_cmpint(st.st_mode & 07777, ==, 0640);
    g_assert_false(rv_host_root_exists(f->root, "/etc/default/grub.d"));
    g_assert_false(rv_host_root_exists(f->root, "/etc/default"));
    g_clear_pointer(&v, g_free);
    v = get(f->dir, "etc/modprobe.d/kvm.conf");
    g_assert_cmpstr(v, ==, "options kvm x=1\n");
}

typedef struct {
    GPtrArray *calls;
    int fail;     /* errno to fail with, 0 = succeed */
} CustomLog;

static int
custom_restore(RvRoot *root, const char *key, const char *data, gpointer user_data,
               GError **error)
{
    CustomLog *log = user_data;

    (void) root;
    g_ptr_array_add(log->calls, g_strdup_printf("%s:%s", key, data));
    if (log->fail)
        return rv_error_set(error, RV_ERROR_FAILED, log->fail, "cannot undo %s", key);
    return 0;
}

/* Restores run newest first; an entry that fails stays in the journal,
 * the others are dropped; a later revert finishes. */
static void
test_custom_and_failures(Fixture *f, gconstpointer data)
{
    g_autoptr(GError) err = NULL;
    g_autoptr(GPtrArray) calls = g_ptr_array_new_with_free_func(g_free);
    CustomLog log = { calls, 0 };
    g_autofree char *v = NULL;

    (void) data;
    {
        g_autoptr(RvJournal) j = open_journal(f);

        g_assert_cmpint(rv_host_journal_record_custom(j, "domain", "rt-1", "uuid-1", &err), ==, 1);
        g_assert_cmpint(rv_host_journal_set_value(j, "/proc/sys/kernel/timer_migration", "0",
                                                  &err), ==, 1);
        g_assert_cmpint(rv_host_journal_record_custom(j, "domain", "rt-2", "uuid-2", &err), ==, 1);
        g_assert_cmpint(rv_host_journal_record_custom(j, "domain", "rt-2", "uuid-2", &err), ==, 0);
        g_assert_cmpuint(rv_host_journal_n_entries(j), ==, 3);
    }
    {
        g_autoptr(RvJournal) j = open_journal(f);

        /* no handler: both custom entries fail, the value is restored */
        g_assert_cmpint(rv_host_journal_revert(j, NULL, NULL, &err), <, 0);
        g_assert_error(err, RV_ERROR, RV_ERROR_FAILED);
        g_assert_nonnull(strstr(err->message, "2 journal entries could not be restored"));
        g_clear_error(&err);
        g_assert_cmpuint(rv_host_journal_n_entries(j), ==, 2);
        v = get(f->dir, "proc/sys/kernel/timer_migration");
        g_assert_cmpstr(v, ==, "1\n");
    }
    {
        g_autoptr(RvJournal) j = open_journal(f);

        g_assert_cmpuint(rv_host_journal_n_entries(j), ==, 2);   /* rewritten on disk */
        log.fail = EBUSY;
        rv_host_journal_set_custom_handler(j, "domain", custom_restore, &log);
        g_assert_cmpint(rv_host_journal_revert(j, NULL, NULL, &err), ==, -EBUSY);
        g_assert_nonnull(strstr(err->message, "cannot undo rt-2; cannot undo rt-1"));
        g_clear_error(&err);
        log.fail = 0;
        g_ptr_array_set_size(calls, 0);
        revert_ok(j, 2);
        g_assert_cmpuint(calls->len, ==, 2);
        g_assert_cmpstr(calls->pdata[0], ==, "rt-2:uuid-2");   /* newest first */
        g_assert_cmpstr(calls->pdata[1], ==, "rt-1:uuid-1");
    }
}

/* A value whose restore fails stays; the error names the file. */
static void
test_restore_failure_kept(Fixture *f, gconstpointer data)
{
    g_autoptr(GError) err = NULL;
    g_autofree char *path = g_build_filename(f->dir, "proc/irq/24/smp_affinity_list", NULL);

    (void) data;
    {
        g_autoptr(RvJournal) j = open_journal(f);
        g_assert_cmpint(rv_host_journal_set_value(j, "/proc/irq/24/smp_affinity_list", "0",
                                                  &err), ==, 1);
        g_assert_cmpint(rv_host_journal_set_value(j, "/proc/sys/kernel/timer_migration", "0",
                                                  &err), ==, 1);
    }
    /* the file became a directory: writing it back fails with EISDIR */
    g_assert_cmpint(unlink(path), ==, 0);
    g_assert_cmpint(mkdir(path, 0755), ==, 0);
    {
        g_autoptr(RvJournal) j = open_journal(f);

        g_assert_cmpint(rv_host_journal_revert(j, NULL, NULL, &err), ==, -EISDIR);
        g_assert_nonnull(strstr(err->message, "smp_affinity_list"));
        g_assert_cmpuint(rv_host_journal_n_entries(j), ==, 1);
        g_clear_error(&err);
    }
    g_assert_cmpint(rmdir(path), ==, 0);
    rv_test_put(f->dir, "proc/irq/24/smp_affinity_list", "0\n");
    {
        g_autoptr(RvJournal) j = open_journal(f);
        g_autofree char *v = NULL;

        revert_ok(j, 1);
        v = get(f->dir, "proc/irq/24/smp_affinity_list");
        g_assert_cmpstr(v, ==, "0-1\n");
    }
}

/* A missing file (an IRQ freed since) needs nothing: restored, with a note. */
static void
test_gone(Fixture *f, gconstpointer data)
{
    g_autoptr(RvJournal) j = open_journal(f);
    g_autoptr(GError) err = NULL;
    g_autoptr(GPtrArray) notes = NULL;
    g_autofree char *dir = g_build_filename(f->dir, "proc/irq/24", NULL);
    guint restored = 0;

    (void) data;
    g_assert_cmpint(rv_host_journal_set_value(j, "/proc/irq/24/smp_affinity_list", "0", &err),
                    ==, 1);
    rv_test_rm_rf(dir);
    g_assert_cmpint(rv_host_journal_revert(j, &restored, &notes, &err), ==, 0);
    g_assert_cmpuint(restored, ==, 1);
    g_assert_cmpuint(notes->len, ==, 1);
    g_assert_nonnull(strstr(notes->pdata[0], "is gone"));
}

static void
test_lock(Fixture *f, gconstpointer data)
{
    g_autoptr(RvJournal) j = open_journal(f);
    g_autoptr(RvJournal) j2 = NULL;
    g_autoptr(GError) err = NULL;

    (void) data;
    g_assert_cmpint(rv_host_journal_open(f->root, NULL, &j2, &err), ==, -EBUSY);
    g_assert_null(j2);
    g_assert_nonnull(strstr(err->message, "in use by another rtvirt process"));
    g_clear_pointer(&j, rv_host_journal_close);
    g_clear_error(&err);
    g_assert_cmpint(rv_host_journal_open(f->root, NULL, &j2, &err), ==, 0);
}

static void
test_torn_and_corrupt(Fixture *f, gconstpointer data)
{
    g_autoptr(GError) err = NULL;
    g_autofree char *jpath = g_build_filename(f->dir, "var/lib/rtvirt/journal", NULL);
    g_autofree char *text = NULL;
    g_autofree char *torn = NULL;
    g_autofree char *after = NULL;

    (void) data;
    {
        g_autoptr(RvJournal) j = open_journal(f);
        g_assert_cmpint(rv_host_journal_set_value(j, "/proc/sys/kernel/timer_migration", "0",
                                                  &err), ==, 1);
    }
    text = get(f->dir, "var/lib/rtvirt/journal");
    /* a crash in the middle of the next record's write: no longer dropped
     * silently, and the file is not cut by opening it */
    torn = g_strconcat(text, "{\"kind\":\"value\",\"path\":\"/proc/sys/ker", NULL);
    g_file_set_contents(jpath, torn, -1, &err);
    g_assert_no_error(err);
    {
        g_autoptr(RvJournal) j = NULL;
        g_autofree char *where = g_strdup_printf("%s:3: cut mid-line", jpath);

        g_assert_cmpint(rv_host_journal_open(f->root, NULL, &j, &err), ==, -EINVAL);
        g_assert_error(err, RV_ERROR, RV_ERROR_INVALID);
        g_assert_true(g_str_has_prefix(err->message, where));
        g_clear_error(&err);
    }
    after = get(f->dir, "var/lib/rtvirt/journal");
    g_assert_cmpstr(after, ==, torn);   /* nothing was cut */

    /* a complete line that is no entry: refused, naming file and line */
    g_clear_pointer(&torn, g_free);
    torn = g_strconcat(text, "{\"kind\":\"bogus\"}\n", NULL);
    g_file_set_contents(jpath, torn, -1, &err);
    {
        g_autoptr(RvJournal) j = NULL;
        g_autofree char *where = g_strdup_printf("%s:3:", jpath);

        g_assert_cmpint(rv_host_journal_open(f->root, NULL, &j, &err), ==, -EINVAL);
        g_assert_error(err, RV_ERROR, RV_ERROR_INVALID);
        g_assert_true(g_str_has_prefix(err->message, where));
        g_clear_error(&err);
    }
    /* a journal of the live host is not applied to a fixture root */
    g_clear_pointer(&torn, g_free);
    torn = g_strdup("{\"rtvirt-journal\":1,\"root\":\"/\",\"live\":true}\n");
    g_file_set_contents(jpath, torn, -1, &err);
    {
        g_autoptr(RvJournal) j = NULL;

        g_assert_cmpint(rv_host_journal_open(f->root, NULL, &j, &err), ==, -EINVAL);
        g_assert_nonnull(strstr(err->message, "written for root '/'"));
    }
}

/* Three values changed and committed: lines 1 header, 2-4 the entries
 * (timer_migration, sched_rt_runtime_us, IRQ 24), 5 the commit marker. */
static char *
damage_setup(Fixture *f, char ***ret_lines)
{
    g_autoptr(RvJournal) j = open_journal(f);
    g_autoptr(GError) err = NULL;
    char *text;

    g_assert_cmpint(rv_host_journal_set_value(j, "/proc/sys/kernel/timer_migration", "0",
                                              &err), ==, 1);
    g_assert_cmpint(rv_host_journal_set_value(j, "/proc/sys/kernel/sched_rt_runtime_us", "-1",
                                              &err), ==, 1);
    g_assert_cmpint(rv_host_journal_set_value(j, "/proc/irq/24/smp_affinity_list", "0",
                                              &err), ==, 1);
    g_assert_cmpint(rv_host_journal_commit(j, &err), ==, 1);
    g_assert_cmpint(rv_host_journal_commit(j, &err), ==, 0);   /* nothing new */
    g_assert_no_error(err);
    text = get(f->dir, "var/lib/rtvirt/journal");
    *ret_lines = g_strsplit(text, "\n", -1);
    g_assert_cmpuint(g_strv_length(*ret_lines), ==, 6);   /* 5 lines and "" */
    g_assert_true(g_str_has_prefix((*ret_lines)[0], "{\"seq\":0,\"rtvirt-journal\":2,"));
    g_assert_nonnull(strstr((*ret_lines)[4], "\"kind\":\"commit\""));
    return text;
}

/* Opens the damaged journal for revert and reverts it: -EBADMSG, exit 1,
 * @want_restored entries restored; returns the error message. */
static char *
revert_damaged(Fixture *f, RvJournalOpenFlags flags, guint want_restored, guint want_damage)
{
    g_autoptr(RvJournal) j = NULL;
    g_autoptr(GError) err = NULL;
    g_autoptr(GPtrArray) notes = NULL;
    g_autoptr(GPtrArray) damage = NULL;
    guint restored = 99;

    g_assert_cmpint(rv_host_journal_open_flags(f->root, NULL, RV_JOURNAL_OPEN_DAMAGED | flags,
                                               &j, &err), ==, 0);
    g_assert_no_error(err);
    damage = rv_host_journal_damage(j);
    g_assert_cmpuint(damage->len, ==, want_damage);
    g_assert_cmpint(rv_host_journal_revert(j, &restored, &notes, &err), ==, -EBADMSG);
    g_assert_error(err, RV_ERROR, RV_ERROR_CHECK);
    g_assert_cmpint(rv_error_exit_code(err), ==, 1);
    g_assert_cmpuint(restored, ==, want_restored);
    return g_strdup(err->message);
}

static void
put_journal(Fixture *f, const char *text)
{
    g_autofree char *jpath = g_build_filename(f->dir, "var/lib/rtvirt/journal", NULL);
    g_autofree char *dir = g_path_get_dirname(jpath);
    g_autoptr(GError) err = NULL;

    g_assert_cmpint(g_mkdir_with_parents(dir, 0755), ==, 0);
    g_file_set_contents(jpath, text, -1, &err);
    g_assert_no_error(err);
}

/* Cut in the middle of line 3: entry 1 restored, the cut listed, the file
 * left byte for byte; --force restores again, keeps the bytes as
 * journal.damaged and ends the journal. */
static void
test_damage_cut(Fixture *f, gconstpointer data)
{
    g_auto(GStrv) lines = NULL;
    g_autofree char *text = damage_setup(f, &lines);
    g_autofree char *cut = g_strdup_printf("%s\n%s\n%.20s", lines[0], lines[1], lines[2]);
    g_autofree char *msg = NULL;
    g_autofree char *after = NULL;
    g_autofree char *v = NULL;
    g_autofree char *saved = NULL;

    (void) data;
    put_journal(f, cut);
    msg = revert_damaged(f, 0, 1, 1);
    g_assert_nonnull(strstr(msg, "1 verified entry restored"));
    g_assert_nonnull(strstr(msg, "line 3: cut mid-line (20 bytes after the last newline)"));
    g_assert_nonnull(strstr(msg, "--force"));
    v = get(f->dir, "proc/sys/kernel/timer_migration");
    g_assert_cmpstr(v, ==, "1\n");   /* restored */
    g_clear_pointer(&v, g_free);
    v = get(f->dir, "proc/sys/kernel/sched_rt_runtime_us");
    g_assert_cmpstr(v, ==, "-1");    /* its entry is lost */
    after = get(f->dir, "var/lib/rtvirt/journal");
    g_assert_cmpstr(after, ==, cut);
    g_clear_pointer(&msg, g_free);
    msg = revert_damaged(f, RV_JOURNAL_OPEN_FORCE, 1, 1);
    g_assert_nonnull(strstr(msg, "gone past"));
    g_assert_false(rv_host_root_exists(f->root, "/var/lib/rtvirt/journal"));
    saved = get(f->dir, "var/lib/rtvirt/journal.damaged");
    g_assert_cmpstr(saved, ==, cut);
}

/* A garbage line, a tampered value (checksum), a missing line (seq gap):
 * every other entry is restored, the tampered value is not written. */
static void
test_damage_lines(Fixture *f, gconstpointer data)
{
    static const struct {
        const char *name;
        int line;            /* 0-based line replaced */
        const char *what;    /* NULL: line removed */
        const char *want;
        const char *lost;    /* the file whose entry is lost */
        const char *lost_value;
    } cases[] = {
        { "garbage", 2, "garbage \x01\xff", "line 3: not a JSON object",
          "proc/sys/kernel/sched_rt_runtime_us", "-1" },
        { "tampered", 3, NULL, "line 4: checksum mismatch", "proc/irq/24/smp_affinity_list", "0" },
        { "gap", 2, "", "line 3: entry 2 missing before it",
          "proc/sys/kernel/sched_rt_runtime_us", "-1" },
    };

    (void) data;
    for (size_t c = 0; c < G_N_ELEMENTS(cases); c++) {
        g_auto(GStrv) lines = NULL;
        g_autofree char *text = NULL;
        g_autofree char *damaged = NULL;
        g_autofree char *msg = NULL;
        g_autofree char *v = NULL;
        g_autoptr(GString) s = g_string_new(NULL);

        if (c > 0) {   /* a fresh root for each case */
            fixture_teardown(f, NULL);
            fixture_setup(f, NULL);
        }
        text = damage_setup(f, &lines);
        for (int i = 0; lines[i] && *lines[i]; i++) {
            if (i != cases[c].line) {
                g_string_append_printf(s, "%s\n", lines[i]);
            } else if (!cases[c].what) {
                /* a value changed without its sum: 0-1 -> 0-3 */
                g_autofree char *t = g_strdup(lines[i]);
                char *p = strstr(t, "0-1");
                g_assert_nonnull(p);
                p[2] = '3';
                g_string_append_printf(s, "%s\n", t);
            } else if (*cases[c].what) {
                g_string_append_printf(s, "%s\n", cases[c].what);
            }
        }
        damaged = g_strdup(s->str);
        put_journal(f, damaged);
        msg = revert_damaged(f, 0, 2, 1);
        g_test_message("%s: %s", cases[c].name, msg);
        g_assert_nonnull(strstr(msg, cases[c].want));
        g_assert_nonnull(strstr(msg, "2 verified entries restored"));
        v = get(f->dir, "proc/sys/kernel/timer_migration");
        g_assert_cmpstr(v, ==, "1\n");
        g_clear_pointer(&v, g_free);
        v = get(f->dir, cases[c].lost);
        g_assert_cmpstr(v, ==, cases[c].lost_value);
        g_clear_pointer(&v, g_free);
        v = get(f->dir, "var/lib/rtvirt/journal");
        g_assert_cmpstr(v, ==, damaged);
        /* nothing is recorded in a damaged journal */
        {
            g_autoptr(RvJournal) j = NULL;
            g_autoptr(GError) err = NULL;

            g_assert_cmpint(rv_host_journal_open(f->root, NULL, &j, &err), ==, -EINVAL);
            g_assert_nonnull(strstr(err->message, "journal damaged"));
        }
    }
}

/* An empty journal file is damage, not "0 entries restored". */
static void
test_damage_empty(Fixture *f, gconstpointer data)
{
    g_autofree char *msg = NULL;
    g_autoptr(GError) err = NULL;

    (void) data;
    put_journal(f, "");
    {
        g_autoptr(RvJournal) j = NULL;

        g_assert_cmpint(rv_host_journal_open(f->root, NULL, &j, &err), ==, -EINVAL);
        g_assert_nonnull(strstr(err->message, "empty"));
    }
    msg = revert_damaged(f, 0, 0, 1);
    g_assert_nonnull(strstr(msg, "line 1: the file is empty"));
    g_assert_true(rv_host_root_exists(f->root, "/var/lib/rtvirt/journal"));
    g_clear_pointer(&msg, g_free);
    msg = revert_damaged(f, RV_JOURNAL_OPEN_FORCE, 0, 1);
    g_assert_false(rv_host_root_exists(f->root, "/var/lib/rtvirt/journal"));
}

/* A file that is no journal is refused before anything is written to it
 * or created beside it, --force included. */
static void
test_not_a_journal(Fixture *f, gconstpointer data)
{
    static const char *const texts[] = {
        "precious\nno newline at the end",
        "{\"kind\":\"value\",\"path\":\"/x\",\"old\":\"1\"}\n",
        "[1,2]\n",
    };

    (void) data;
    for (size_t i = 0; i < G_N_ELEMENTS(texts); i++) {
        g_autofree char *path = g_build_filename(f->dir, "notes.txt", NULL);
        g_autofree char *lock = g_strconcat(path, ".lock", NULL);
        g_autofree char *after = NULL;
        g_autoptr(RvJournal) j = NULL;
        g_autoptr(GError) err = NULL;

        g_file_set_contents(path, texts[i], -1, &err);
        g_assert_no_error(err);
        g_assert_cmpint(rv_host_journal_open_flags(f->root, path,
                                                   RV_JOURNAL_OPEN_DAMAGED |
                                                       RV_JOURNAL_OPEN_FORCE,
                                                   &j, &err), ==, -EINVAL);
        g_assert_error(err, RV_ERROR, RV_ERROR_INVALID);
        g_assert_nonnull(strstr(err->message, "is not an rtvirt journal"));
        g_assert_nonnull(strstr(err->message, "left untouched"));
        g_assert_true(g_file_get_contents(path, &after, NULL, NULL));
        g_assert_cmpstr(after, ==, texts[i]);
        g_assert_false(g_file_test(lock, G_FILE_TEST_EXISTS));
    }
}

/* The released format (version 1: no seq, no sum) is read and reverted,
 * said to be old; recording into it rewrites it as version 2 first. */
static void
test_old_format(Fixture *f, gconstpointer data)
{
    static const char v1[] =
        "{\"rtvirt-journal\":1,\"root\":\"/tmp/rv-old\",\"live\":false}\n"
        "{\"kind\":\"value\",\"path\":\"/proc/sys/kernel/timer_migration\",\"old\":\"1\\n\"}\n"
        "{\"kind\":\"value\",\"path\":\"/proc/sys/kernel/sched_rt_runtime_us\","
        "\"old\":\"950000\\n\"}\n";
    g_autoptr(GError) err = NULL;
    g_autofree char *v = NULL;

    (void) data;
    rv_test_put(f->dir, "proc/sys/kernel/timer_migration", "0");
    rv_test_put(f->dir, "proc/sys/kernel/sched_rt_runtime_us", "-1");
    put_journal(f, v1);
    {
        g_autoptr(RvJournal) j = NULL;
        g_autoptr(GPtrArray) notes = NULL;
        guint restored = 0;

        g_assert_cmpint(rv_host_journal_open(f->root, NULL, &j, &err), ==, 0);
        g_assert_cmpint(rv_host_journal_format_version(j), ==, 1);
        g_assert_cmpuint(rv_host_journal_n_entries(j), ==, 2);
        g_assert_cmpint(rv_host_journal_revert(j, &restored, &notes, &err), ==, 0);
        g_assert_cmpuint(restored, ==, 2);
        g_assert_cmpuint(notes->len, ==, 1);
        g_assert_nonnull(strstr(notes->pdata[0], "old journal format (version 1)"));
    }
    v = get(f->dir, "proc/sys/kernel/sched_rt_runtime_us");
    g_assert_cmpstr(v, ==, "950000\n");
    g_assert_false(rv_host_root_exists(f->root, "/var/lib/rtvirt/journal"));

    /* an old journal that gets a new entry is rewritten as version 2 */
    rv_test_put(f->dir, "proc/sys/kernel/timer_migration", "0");
    rv_test_put(f->dir, "proc/sys/kernel/sched_rt_runtime_us", "-1");
    put_journal(f, v1);
    {
        g_autoptr(RvJournal) j = NULL;

        g_assert_cmpint(rv_host_journal_open(f->root, NULL, &j, &err), ==, 0);
        g_assert_cmpint(rv_host_journal_set_value(j, "/proc/irq/24/smp_affinity_list", "0",
                                                  &err), ==, 1);
    }
    g_clear_pointer(&v, g_free);
    v = get(f->dir, "var/lib/rtvirt/journal");
    g_assert_true(g_str_has_prefix(v, "{\"seq\":0,\"rtvirt-journal\":2,"));
    {
        g_autoptr(RvJournal) j = open_journal(f);

        g_assert_cmpint(rv_host_journal_format_version(j), ==, 2);
        g_assert_cmpuint(rv_host_journal_n_entries(j), ==, 3);
        g_assert_true(rv_host_journal_interrupted(j));   /* no commit after the third */
        revert_ok(j, 3);
    }
    g_clear_pointer(&v, g_free);
    v = get(f->dir, "proc/irq/24/smp_affinity_list");
    g_assert_cmpstr(v, ==, "0-1\n");

    /* old format with a torn tail: no longer dropped silently */
    put_journal(f, "{\"rtvirt-journal\":1,\"root\":\"/\",\"live\":false}\n{\"kind\":\"val");
    {
        g_autoptr(RvJournal) j = NULL;

        g_assert_cmpint(rv_host_journal_open(f->root, NULL, &j, &err), ==, -EINVAL);
        g_assert_nonnull(strstr(err->message, ":2: cut mid-line"));
    }
}

/* A committed journal is not "interrupted"; entries after the marker are. */
static void
test_commit(Fixture *f, gconstpointer data)
{
    g_auto(GStrv) lines = NULL;
    g_autofree char *text = damage_setup(f, &lines);
    g_autoptr(GError) err = NULL;

    (void) data;
    {
        g_autoptr(RvJournal) j = open_journal(f);

        g_assert_false(rv_host_journal_interrupted(j));
        g_assert_cmpuint(rv_host_journal_n_entries(j), ==, 3);
        g_assert_cmpint(rv_host_journal_set_value(j, "/proc/sys/kernel/timer_migration", "1",
                                                  &err), ==, 1);   /* recorded already */
        rv_test_put(f->dir, "etc/rtvirt-new", "x");
        g_assert_cmpint(rv_host_journal_set_file(j, "/etc/rtvirt-new", "y", -1, 0644, &err),
                        ==, 1);
    }
    {
        g_autoptr(RvJournal) j = open_journal(f);

        g_assert_true(rv_host_journal_interrupted(j));
        revert_ok(j, 4);
    }
}

static void
test_sched_fixture(Fixture *f, gconstpointer data)
{
    g_autoptr(RvJournal) j = open_journal(f);
    g_autoptr(GError) err = NULL;

    (void) data;
    g_assert_cmpint(rv_host_journal_set_sched(j, 1, SCHED_FIFO, 1, NULL, &err), ==, -EOPNOTSUPP);
    g_assert_error(err, RV_ERROR, RV_ERROR_UNSUPPORTED);
}

/* Kernel-thread scheduling on the live host, with a child process standing
 * for the thread: changed, restored, and left alone once the pid is gone. */
static void
test_sched_live(void)
{
    g_autofree char *dir = NULL;
    g_autofree char *jpath = NULL;
    g_autoptr(RvRoot) root = NULL;
    g_autoptr(GError) err = NULL;
    struct sched_param sp;
    cpu_set_t set;
    pid_t child;
    int r;

    if (geteuid() != 0) {
        g_test_skip("needs root for SCHED_FIFO");
        return;
    }
    dir = g_dir_make_tmp("rv-journal-live-XXXXXX", &err);
    jpath = g_build_filename(dir, "journal", NULL);
    g_assert_cmpint(rv_host_root_open("/", &root, &err), ==, 0);
    child = fork();
    g_assert_cmpint(child, >=, 0);
    if (child == 0) {
        pause();
        _exit(0);
    }
    {
        g_autoptr(RvJournal) j = NULL;
        RvCpuSet cpu0;

        g_assert_cmpint(rv_host_journal_open(root, jpath, &j, &err), ==, 0);
        rv_cpuset_zero(&cpu0);
        rv_cpuset_set(&cpu0, 0);
        r = rv_host_journal_set_sched(j, child, SCHED_FIFO, 3, &cpu0, &err);
        g_assert_no_error(err);
        g_assert_cmpint(r, ==, 1);
        g_assert_cmpint(sched_getscheduler(child), ==, SCHED_FIFO);
        g_assert_cmpint(sched_getaffinity(child, sizeof(set), &set), ==, 0);
        g_assert_cmpint(CPU_COUNT(&set), ==, 1);
        /* already so */
        g_assert_cmpint(rv_host_journal_set_sched(j, child, SCHED_FIFO, 3, &cpu0, &err), ==, 0);
        revert_ok(j, 1);
        g_assert_cmpint(sched_getscheduler(child), ==, SCHED_OTHER);
        g_assert_cmpint(sched_getparam(child, &sp), ==, 0);
        g_assert_cmpint(sp.sched_priority, ==, 0);
        g_assert_cmpint(sched_getaffinity(child, sizeof(set), &set), ==, 0);
        g_assert_cmpint(CPU_COUNT(&set), ==, (int) g_get_num_processors());
    }
    {
        g_autoptr(RvJournal) j = NULL;
        g_autoptr(GPtrArray) notes = NULL;
        guint restored = 0;

        g_assert_cmpint(rv_host_journal_open(root, jpath, &j, &err), ==, 0);
        g_assert_cmpint(rv_host_journal_set_sched(j, child, SCHED_FIFO, 2, NULL, &err), ==, 1);
        kill(child, SIGKILL);
        waitpid(child, NULL, 0);
        g_assert_cmpint(rv_host_journal_revert(j, &restored, &notes, &err), ==, 0);
        g_assert_cmpuint(restored, ==, 1);
        g_assert_cmpuint(notes->len, ==, 1);
        g_assert_nonnull(strstr(notes->pdata[0], "is gone"));
    }
    rv_test_rm_rf(dir);
}

/* A switch that starts kernel threads (THP's khugepaged) is restored only
 * after every thread's scheduling: kthreadd forks new kthreads with its own
 * affinity, so THP re-enabled while kthreadd is still pinned leaves
 * khugepaged pinned for good.  A child stands for kthreadd, a custom entry
 * recorded after it for the THP switch; its handler sees the affinity the
 * child has at that moment. */
typedef struct { pid_t pid; int cpus_seen; } OrderProbe;

static int
order_probe_restore(RvRoot *root, const char *key, const char *data, gpointer user_data,
                    GError **error)
{
    OrderProbe *p = user_data;
    cpu_set_t set;

    (void) root; (void) key; (void) data; (void) error;
    p->cpus_seen = sched_getaffinity(p->pid, sizeof(set), &set) == 0 ? CPU_COUNT(&set) : -1;
    return 0;
}

static void
test_sched_before_switches(void)
{
    g_autofree char *dir = NULL;
    g_autofree char *jpath = NULL;
    g_autoptr(RvRoot) root = NULL;
    g_autoptr(GError) err = NULL;
    g_autoptr(RvJournal) j = NULL;
    OrderProbe probe = { 0, 0 };
    RvCpuSet cpu0;
    pid_t child;

    if (geteuid() != 0 || g_get_num_processors() < 2) {
        g_test_skip("needs root and two CPUs");
        return;
    }
    dir = g_dir_make_tmp("rv-journal-order-XXXXXX", &err);
    jpath = g_build_filename(dir, "journal", NULL);
    g_assert_cmpint(rv_host_root_open("/", &root, &err), ==, 0);
    child = fork();
    g_assert_cmpint(child, >=, 0);
    if (child == 0) {
        prctl(PR_SET_PDEATHSIG, SIGKILL);   /* a failed assertion kills it too */
        pause();
        _exit(0);
    }
    probe.pid = child;
    g_assert_cmpint(rv_host_journal_open(root, jpath, &j, &err), ==, 0);
    rv_host_journal_set_custom_handler(j, "thp", order_probe_restore, &probe);
    rv_cpuset_zero(&cpu0);
    rv_cpuset_set(&cpu0, 0);
    /* apply's order: kthreadd pinned first, THP switched after */
    g_assert_cmpint(rv_host_journal_set_sched(j, child, -1, 0, &cpu0, &err), ==, 1);
    g_assert_cmpint(rv_host_journal_record_custom(j, "thp", "enabled", "always", &err), ==, 1);
    revert_ok(j, 2);
    g_assert_cmpint(probe.cpus_seen, ==, (int) g_get_num_processors());
    kill(child, SIGKILL);
    waitpid(child, NULL, 0);
    rv_test_rm_rf(dir);
}

int
main(int argc, char **argv)
{
    g_test_init(&argc, &argv, NULL);
    g_test_add_func("/journal/normalize", test_normalize);
#define ADD(name, fn) g_test_add("/journal/" name, Fixture, NULL, fixture_setup, fn, fixture_teardown)
    ADD("value", test_value);
    ADD("first-original-kept", test_first_original_kept);
    ADD("files", test_files);
    ADD("custom-and-failures", test_custom_and_failures);
    ADD("restore-failure-kept", test_restore_failure_kept);
    ADD("gone", test_gone);
    ADD("lock", test_lock);
    ADD("torn-and-corrupt", test_torn_and_corrupt);
    ADD("damage-cut", test_damage_cut);
    ADD("damage-lines", test_damage_lines);
    ADD("damage-empty", test_damage_empty);
    ADD("not-a-journal", test_not_a_journal);
    ADD("old-format", test_old_format);
    ADD("commit", test_commit);
    ADD("sched-fixture", test_sched_fixture);
#undef ADD
    g_test_add_func("/journal/sched-live", test_sched_live);
    g_test_add_func("/journal/sched-before-switches", test_sched_before_switches);
    return g_test_run();
}
