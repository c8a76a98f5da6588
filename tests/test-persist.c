/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * tests/test-persist.c: the writers of `host apply --persist`
 * (host/tune/persist.h) and their line writer (util/conf-write.h).
 *
 * /persist/conf-write: lines as written, and every field that would not
 * read back refused.  /persist/sysctl, /persist/modprobe, /persist/unit:
 * the whole text of each file for a small profile (sysctl.d(5),
 * modprobe.d(5), systemd.service(5)), what is left out, and the values
 * refused with FILE:LINE.  /persist/symlink: rv_host_journal_set_symlink()
 * on a scratch root: created, idempotent, a foreign link left alone,
 * revert removes it and the directories it made.
 */
#include <errno.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "host/fsroot.h"
#include "host/tune/journal.h"
#include "host/tune/persist.h"
#include "host/profile/profile.h"
#include "util/conf-write.h"
#include "util/error.h"
#include "tests/testutil.h"

/* Profiles are named by an absolute path: the header shows it as is. */
#define PROFILE_PATH "/srv/rtvirt/t.ini"

static RvHostProfile *
load(const char *text)
{
    g_autoptr(GError) err = NULL;
    RvHostProfile *p = NULL;

    if (rv_host_profile_load_data(PROFILE_PATH, text, &p, &err) < 0)
        g_error("%s", err->message);
    return p;
}

static void
test_conf_write(void)
{
    g_autoptr(RvConfWriter) w = rv_conf_writer_new();
    g_autoptr(GError) err = NULL;
    g_autofree char *text = NULL;
    const char *words[] = { "options", "kvm", "nx_huge_pages=0", NULL };
    const char *bad_words[] = { "options", "kvm", "a=1 2", NULL };
    const char *empty_word[] = { "options", "", NULL };

    rv_conf_writer_comment(w, "one\n\ntwo\tthree");
    g_assert_cmpint(rv_conf_writer_section(w, "Unit", &err), ==, 0);
    g_assert_cmpint(rv_conf_writer_assign(w, "Description", "=", "a b", &err), ==, 0);
    g_assert_cmpint(rv_conf_writer_assign(w, "Empty", "=", "", &err), ==, 0);
    g_assert_cmpint(rv_conf_writer_section(w, "Service", &err), ==, 0);
    rv_conf_writer_blank(w);
    g_assert_cmpint(rv_conf_writer_assign(w, "vm.swappiness", " = ", "10", &err), ==, 0);
    g_assert_cmpint(rv_conf_writer_words(w, words, &err), ==, 0);
    g_assert_no_error(err);
    text = rv_conf_writer_to_data(w);
    g_assert_cmpstr(text, ==,
                    "# one\n#\n# two?three\n\n"
                    "[Unit]\nDescription=a b\nEmpty=\n"
                    "\n[Service]\n\nvm.swappiness = 10\noptions kvm nx_huge_pages=0\n");

    /* refused, and nothing written for them */
    g_assert_cmpint(rv_conf_writer_section(w, "a]b", &err), ==, -EINVAL);
    g_clear_error(&err);
    g_assert_cmpint(rv_conf_writer_section(w, "", &err), ==, -EINVAL);
    g_clear_error(&err);
    g_assert_cmpint(rv_conf_writer_assign(w, "a=b", "=", "1", &err), ==, -EINVAL);
    g_clear_error(&err);
    g_assert_cmpint(rv_conf_writer_assign(w, "#k", "=", "1", &err), ==, -EINVAL);
    g_clear_error(&err);
    g_assert_cmpint(rv_conf_writer_assign(w, " k", "=", "1", &err), ==, -EINVAL);
    g_clear_error(&err);
    g_assert_cmpint(rv_conf_writer_assign(w, "k", "=", "1\nExecStart=/bin/sh", &err), ==,
                    -EINVAL);
    g_assert_error(err, RV_ERROR, RV_ERROR_INVALID);
    g_assert_nonnull(strstr(err->message, "invalid value for k"));
    g_clear_error(&err);
    g_assert_cmpint(rv_conf_writer_assign(w, "k", "=", "1 ", &err), ==, -EINVAL);
    g_clear_error(&err);
    g_assert_cmpint(rv_conf_writer_words(w, bad_words, &err), ==, -EINVAL);
    g_assert_nonnull(strstr(err->message, "'a=1 2'"));
    g_clear_error(&err);
    g_assert_cmpint(rv_conf_writer_words(w, empty_word, &err), ==, -EINVAL);
    g_clear_error(&err);
    {
        g_autofree char *again = rv_conf_writer_to_data(w);
        g_assert_cmpstr(again, ==, text);
    }
}

static void
test_sysctl(void)
{
    g_autoptr(RvHostProfile) p = load("[sched]\nrt_runtime_us = -1\ntimer_migration = 0\n"
                                      "[kernel]\nnmi_watchdog = 0\n"
                                      "[sysctl]\nvm.swappiness = 10\n"
                                      "net.ipv4.tcp_rmem = 4096 87380 6291456\n");
    g_autoptr(RvHostProfile) none = load("[mm]\nksm_run = 2\n");
    g_autoptr(GError) err = NULL;
    g_autofree char *text = NULL;
    g_autofree char *empty = NULL;
    guint n = 99;

    g_assert_cmpint(rv_host_persist_sysctl_conf(p, &text, &n, &err), ==, 0);
    g_assert_no_error(err);
    g_assert_cmpuint(n, ==, 5);
    g_assert_cmpstr(text, ==,
                    "# Written by `rtvirt host apply --persist` from host profile t\n"
                    "# (" PROFILE_PATH ").\n"
                    "# Its sysctls, set at boot by systemd-sysctl.service (sysctl.d(5)).\n"
                    "# `rtvirt host revert` removes this file (or restores the one it replaced).\n"
                    "\n"
                    "kernel.sched_rt_runtime_us = -1\n"
                    "kernel.timer_migration = 0\n"
                    "kernel.nmi_watchdog = 0\n"
                    "vm.swappiness = 10\n"
                    "net.ipv4.tcp_rmem = 4096 87380 6291456\n");
    g_assert_cmpint(rv_host_persist_sysctl_conf(none, &empty, &n, &err), ==, 0);
    g_assert_null(empty);
    g_assert_cmpuint(n, ==, 0);
}

static void
test_modprobe(void)
{
    g_autoptr(RvHostProfile) p = load("[modules]\nkvm.kvmclock_periodic_sync = 0\n"
                                      "kvm.nx_huge_pages = 0\nkvm_intel.ple_gap = 0\n");
    g_autoptr(RvHostProfile) bad = load("[main]\nsummary = x\n[modules]\nkvm.halt_poll_ns = 1 2\n");
    g_autoptr(RvHostProfile) none = load("[sysctl]\nvm.swappiness = 10\n");
    const char *ro[] = { "kvm.kvmclock_periodic_sync", NULL };
    g_autoptr(GError) err = NULL;
    g_autofree char *text = NULL;
    g_autofree char *plain = NULL;
    g_autofree char *refused = NULL;
    g_autofree char *empty = NULL;
    guint n = 0;

    g_assert_cmpint(rv_host_persist_modprobe_conf(p, ro, &text, &n, &err), ==, 0);
    g_assert_no_error(err);
    g_assert_cmpuint(n, ==, 3);
    g_assert_cmpstr(text, ==,
                    "# Written by `rtvirt host apply --persist` from host profile t\n"
                    "# (" PROFILE_PATH ").\n"
                    "# Its module parameters, given to a module when modprobe loads it\n"
                    "# (modprobe.d(5)).\n"
                    "# `rtvirt host revert` removes this file (or restores the one it replaced).\n"
                    "\n"
                    "# kvm.kvmclock_periodic_sync is read-only at runtime (0444): it takes "
                    "effect when kvm is loaded again\n"
                    "# (a module reload) or at the next boot.\n"
                    "options kvm kvmclock_periodic_sync=0\n"
                    "\n"
                    "options kvm nx_huge_pages=0\n"
                    "\n"
                    "options kvm_intel ple_gap=0\n");
    /* without read-only parameters: no note */
    g_assert_cmpint(rv_host_persist_modprobe_conf(p, NULL, &plain, NULL, &err), ==, 0);
    g_assert_null(strstr(plain, "read-only"));
    g_assert_nonnull(strstr(plain, "\noptions kvm kvmclock_periodic_sync=0\n"));

    g_assert_cmpint(rv_host_persist_modprobe_conf(bad, NULL, &refused, &n, &err), ==, -EINVAL);
    g_assert_error(err, RV_ERROR, RV_ERROR_INVALID);
    g_assert_true(g_str_has_prefix(err->message, PROFILE_PATH ":4: kvm.halt_poll_ns: "));
    g_assert_null(refused);
    g_clear_error(&err);

    g_assert_cmpint(rv_host_persist_modprobe_conf(none, NULL, &empty, &n, &err), ==, 0);
    g_assert_null(empty);
    g_assert_cmpuint(n, ==, 0);
}

static void
test_unit(void)
{
    g_autoptr(RvHostProfile) p = load("[mm]\ntransparent_hugepage = never\n"
                                      "[kernel]\nirq_affinity = housekeeping\n");
    g_autoptr(RvHostProfile) files_only = load("[sysctl]\nvm.swappiness = 10\n"
                                               "[modules]\nkvm.nx_huge_pages = 0\n");
    g_autoptr(GError) err = NULL;
    g_autofree char *text = NULL;
    g_autofree char *quoted = NULL;
    g_autofree char *none = NULL;
    g_autofree char *rel = NULL;

    g_assert_cmpint(rv_host_persist_unit(p, "/usr/bin/rtvirt", PROFILE_PATH, &text, &err), ==, 0);
    g_assert_no_error(err);
    g_assert_cmpstr(text, ==,
                    "# Written by `rtvirt host apply --persist` from host profile t\n"
                    "# (" PROFILE_PATH ").\n"
                    "# At boot, `rtvirt host apply` sets again what no boot-time file holds\n"
                    "# (systemd.service(5)); its link in multi-user.target.wants/ enables it.\n"
                    "# `rtvirt host revert` removes this file (or restores the one it replaced).\n"
                    "# Runtime-only knobs of the profile: transparent_hugepage, IRQ affinities.\n"
                    "# The profile is read from its path above at each boot: keep it there.\n"
                    "\n"
                    "[Unit]\n"
                    "Description=rtvirt: apply host profile t\n"
                    "After=systemd-sysctl.service systemd-modules-load.service\n"
                    "Before=libvirtd.service virtqemud.service\n"
                    "\n"
                    "[Service]\n"
                    "Type=oneshot\n"
                    "RemainAfterExit=yes\n"
                    "ExecStart=/usr/bin/rtvirt host apply " PROFILE_PATH "\n"
                    "\n"
                    "[Install]\n"
                    "WantedBy=multi-user.target\n");

    /* systemd.service(5) command lines: quotes for whitespace, %% and $$ */
    g_assert_cmpint(rv_host_persist_unit(p, "/opt/my rtvirt/rtvirt", "/srv/100%/$HOME\\\".ini",
                                         &quoted, &err), ==, 0);
    g_assert_nonnull(strstr(quoted, "\nExecStart=\"/opt/my rtvirt/rtvirt\" host apply "
                                    "\"/srv/100%%/$$HOME\\\\\\\".ini\"\n"));

    /* only sysctls and module parameters: their files do it, no unit */
    g_assert_cmpint(rv_host_persist_unit(files_only, "/usr/bin/rtvirt", PROFILE_PATH, &none,
                                         &err), ==, 0);
    g_assert_null(none);

    g_assert_cmpint(rv_host_persist_unit(p, "build/rtvirt", PROFILE_PATH, &rel, &err), ==,
                    -EINVAL);
    g_assert_error(err, RV_ERROR, RV_ERROR_INVALID);
    g_assert_nonnull(strstr(err->message, "'build/rtvirt' is not an absolute path"));
    g_assert_null(rel);
    g_clear_error(&err);
    g_assert_cmpint(rv_host_persist_unit(p, "/usr/bin/rtvirt", "/srv/a\nb.ini", &rel, &err), ==,
                    -EINVAL);
    g_clear_error(&err);
}

#define LINK "/etc/systemd/system/multi-user.target.wants/rtvirt-host-apply.service"
#define TARGET "/etc/systemd/system/rtvirt-host-apply.service"

static void
test_symlink(void)
{
    g_autoptr(GError) err = NULL;
    g_autofree char *dir = g_dir_make_tmp("rv-persist-XXXXXX", &err);
    g_autofree char *link = NULL;
    g_autofree char *cur = NULL;
    g_autofree char *etc = NULL;
    g_autoptr(RvRoot) root = NULL;
    struct stat st;

    g_assert_no_error(err);
    rv_test_put(dir, "etc/hostname", "h\n");
    link = g_build_filename(dir, LINK, NULL);
    etc = g_build_filename(dir, "etc/systemd", NULL);
    g_assert_cmpint(rv_host_root_open(dir, &root, &err), ==, 0);
    {
        g_autoptr(RvJournal) j = NULL;
        guint restored = 0;

        g_assert_cmpint(rv_host_journal_open(root, NULL, &j, &err), ==, 0);
        g_assert_cmpint(rv_host_journal_set_symlink(j, LINK, TARGET, &err), ==, 1);
        g_assert_no_error(err);
        cur = g_file_read_link(link, &err);
        g_assert_cmpstr(cur, ==, TARGET);
        /* already so: nothing recorded */
        g_assert_cmpint(rv_host_journal_set_symlink(j, LINK, TARGET, &err), ==, 0);
        /* the link and the three directories made for it */
        g_assert_cmpuint(rv_host_journal_n_entries(j), ==, 4);
        /* a link somewhere else is not replaced */
        g_assert_cmpint(rv_host_journal_set_symlink(j, LINK, "/elsewhere", &err), ==, -EEXIST);
        g_assert_nonnull(strstr(err->message, "not made by rtvirt"));
        g_clear_error(&err);
        g_assert_cmpint(rv_host_journal_revert(j, &restored, NULL, &err), ==, 0);
        g_assert_no_error(err);
        g_assert_cmpuint(restored, ==, 4);
        g_assert_cmpint(lstat(link, &st), ==, -1);
        g_assert_cmpint(lstat(etc, &st), ==, -1);
    }
    {
        g_autoptr(RvJournal) j = NULL;
        g_autofree char *path = g_build_filename(dir, "etc/hostname", NULL);

        /* a regular file where the link goes: refused, left */
        g_assert_cmpint(rv_host_journal_open(root, NULL, &j, &err), ==, 0);
        g_assert_cmpint(rv_host_journal_set_symlink(j, "/etc/hostname", TARGET, &err), ==,
                        -EEXIST);
        g_assert_nonnull(strstr(err->message, "not a link"));
        g_clear_error(&err);
        g_assert_cmpuint(rv_host_journal_n_entries(j), ==, 0);
        g_assert_cmpint(lstat(path, &st), ==, 0);
        g_assert_true(S_ISREG(st.st_mode));
    }
    rv_test_rm_rf(dir);
}

/* What a boot unit runs as root must be root's alone: the path and every
 * directory above it, as given and resolved (a link out of a safe
 * directory into an open one is refused by its target) */
static void
test_trusted(void)
{
    g_autofree char *dir = g_dir_make_tmp("rv-persist-trust-XXXXXX", NULL);
    g_autofree char *open_dir = g_build_filename(dir, "open", NULL);
    g_autofree char *in_open = g_build_filename(open_dir, "p.ini", NULL);
    g_autofree char *safe = g_build_filename(dir, "p.ini", NULL);
    g_autofree char *link = g_build_filename(dir, "link.ini", NULL);
    g_autoptr(GError) err = NULL;

    if (geteuid() != 0) {
        g_test_skip("needs root (files owned by root)");
        return;
    }
    g_assert_cmpint(mkdir(open_dir, 0755), ==, 0);
    g_assert_true(g_file_set_contents(safe, "[main]\n", -1, NULL));
    g_assert_true(g_file_set_contents(in_open, "[main]\n", -1, NULL));
    g_assert_cmpint(chmod(safe, 0644), ==, 0);
    g_assert_cmpint(chmod(in_open, 0644), ==, 0);
    g_assert_cmpint(symlink(in_open, link), ==, 0);
    g_assert_cmpint(rv_host_persist_check_trusted("profile", safe, &err), ==, 0);
    g_assert_cmpint(rv_host_persist_check_trusted("profile", link, &err), ==, 0);

    g_assert_cmpint(chmod(open_dir, 0777), ==, 0);
    g_assert_cmpint(rv_host_persist_check_trusted("results store", open_dir, &err), ==, -EPERM);
    g_assert_nonnull(strstr(err->message, "is writable by others (mode 0777)"));
    g_clear_error(&err);
    g_assert_cmpint(rv_host_persist_check_trusted("profile", link, &err), ==, -EPERM);
    g_assert_nonnull(strstr(err->message, "its directory '"));
    g_clear_error(&err);
    g_assert_cmpint(chmod(open_dir, 01777), ==, 0);     /* sticky: the file decides */
    g_assert_cmpint(rv_host_persist_check_trusted("profile", in_open, &err), ==, 0);
    g_assert_cmpint(chmod(in_open, 0664), ==, 0);
    g_assert_cmpint(rv_host_persist_check_trusted("profile", in_open, &err), ==, -EPERM);
    g_assert_nonnull(strstr(err->message, "is writable by its group (mode 0664)"));
    g_clear_error(&err);
    g_assert_cmpint(chmod(in_open, 0644), ==, 0);
    g_assert_cmpint(chown(in_open, 65534, (gid_t) -1), ==, 0);
    g_assert_cmpint(rv_host_persist_check_trusted("profile", in_open, &err), ==, -EPERM);
    g_assert_nonnull(strstr(err->message, "is owned by uid 65534, not root"));
    g_clear_error(&err);
    rv_test_rm_rf(dir);
}

int
main(int argc, char **argv)
{
    g_test_init(&argc, &argv, NULL);
    g_test_add_func("/persist/conf-write", test_conf_write);
    g_test_add_func("/persist/sysctl", test_sysctl);
    g_test_add_func("/persist/modprobe", test_modprobe);
    g_test_add_func("/persist/unit", test_unit);
    g_test_add_func("/persist/symlink", test_symlink);
    g_test_add_func("/persist/trusted", test_trusted);
    return g_test_run();
}
