/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * tests/test-reboot.c: the pieces of reboot-resume (harness/reboot.h)
 * that need no run: the boot check against a written /proc/cmdline and
 * sysfs tree, resume.json written and read back (installed_boot_id too)
 * and refused when damaged, the root's boot_id, $RTVIRT_REBOOT_CMD, and
 * the text of rtvirt-run-resume.service (host/tune/persist.h).
 * tests/t-run-reboot.sh and tests/t-run-interrupt.sh run the whole flow.
 */
#include <errno.h>
#include <string.h>
#include <glib/gstdio.h>

#include "harness/reboot.h"
#include "host/fsroot.h"
#include "host/tune/persist.h"
#include "util/error.h"

typedef struct {
    char *dir;
    RvRoot *root;
} Fixture;

static void
put(Fixture *f, const char *path, const char *text)
{
    g_autofree char *full = g_build_filename(f->dir, path, NULL);
    g_autofree char *up = g_path_get_dirname(full);

    g_assert_cmpint(g_mkdir_with_parents(up, 0755), ==, 0);
    g_assert_true(g_file_set_contents(full, text, -1, NULL));
}

static void
fixture_set_up(Fixture *f, gconstpointer data)
{
    g_autoptr(GError) err = NULL;

    (void) data;
    f->dir = g_dir_make_tmp("test-reboot-XXXXXX", &err);
    g_assert_no_error(err);
    put(f, "proc/cmdline", "BOOT_IMAGE=/vmlinuz root=/dev/vda1 ro nosmt isolcpus=managed_irq,domain,2-3 "
                           "nohz_full=2-3 -- init-arg rtvirt.test=1\n");
    put(f, "sys/devices/system/cpu/smt/active", "0\n");
    put(f, "sys/devices/system/cpu/isolated", "2-3\n");
    put(f, "sys/devices/system/cpu/nohz_full", "2-3\n");
    g_assert_cmpint(rv_host_root_open(f->dir, &f->root, &err), ==, 0);
}

static void
fixture_tear_down(Fixture *f, gconstpointer data)
{
    g_autofree char *cmd = g_strdup_printf("rm -rf '%s'", f->dir);

    (void) data;
    rv_host_root_free(f->root);
    g_assert_cmpint(system(cmd), ==, 0);
    g_free(f->dir);
}

static char *
verify(Fixture *f, const char *words)
{
    g_auto(GStrv) args = words ? g_strsplit(words, " ", -1) : NULL;
    g_autofree char *cmdline = rv_harness_reboot_cmdline(f->root);

    return rv_harness_reboot_verify(f->root, args, cmdline);
}

/* The words and their sysfs effect; "--" ends the kernel's words. */
static void
test_verify(Fixture *f, gconstpointer data)
{
    g_autofree char *cmdline = rv_harness_reboot_cmdline(f->root);
    g_autofree char *ok = verify(f, "nosmt isolcpus=managed_irq,domain,2-3 nohz_full=2-3");
    g_autofree char *none = verify(f, NULL);
    g_autofree char *init = verify(f, "rtvirt.test=1");
    g_autofree char *missing = verify(f, "nosmt mitigations=off");
    g_autofree char *smt = NULL, *iso = NULL, *nohz = NULL, *gone = NULL;

    (void) data;
    g_assert_cmpstr(cmdline, ==, "BOOT_IMAGE=/vmlinuz root=/dev/vda1 ro nosmt "
                    "isolcpus=managed_irq,domain,2-3 nohz_full=2-3 -- init-arg rtvirt.test=1");
    g_assert_null(ok);
    g_assert_null(none);
    g_assert_cmpstr(init, ==, "'rtvirt.test=1' is not in /proc/cmdline");
    g_assert_cmpstr(missing, ==, "'mitigations=off' is not in /proc/cmdline");

    /* the words there, the kernel's state not */
    put(f, "sys/devices/system/cpu/smt/active", "1\n");
    put(f, "sys/devices/system/cpu/isolated", "3\n");
    put(f, "sys/devices/system/cpu/nohz_full", "(null)\n");
    smt = verify(f, "nosmt");
    iso = verify(f, "isolcpus=managed_irq,domain,2-3");
    nohz = verify(f, "nohz_full=2-3 nosmt");
    g_assert_cmpstr(smt, ==, "nosmt: /sys/devices/system/cpu/smt/active is '1'");
    g_assert_cmpstr(iso, ==, "isolcpus=managed_irq,domain,2-3: /sys/devices/system/cpu/isolated "
                    "is '3'");
    g_assert_cmpstr(nohz, ==, "nohz_full=2-3: /sys/devices/system/cpu/nohz_full is '(null)'; "
                    "nosmt: /sys/devices/system/cpu/smt/active is '1'");

    /* a kernel without the files: only /proc/cmdline judges */
    {
        g_autofree char *a = g_build_filename(f->dir, "sys/devices/system/cpu/smt/active", NULL);
        g_autofree char *b = g_build_filename(f->dir, "sys/devices/system/cpu/isolated", NULL);

        g_assert_cmpint(g_unlink(a), ==, 0);
        g_assert_cmpint(g_unlink(b), ==, 0);
    }
    gone = verify(f, "nosmt isolcpus=managed_irq,domain,2-3");
    g_assert_null(gone);
}

static void
test_state(Fixture *f, gconstpointer data)
{
    RvRebootState st = {
        .matrix = (char *) "/srv/m.ini", .matrix_sha256 = (char *) "ab12",
        .seed = G_MAXUINT64, .repetitions = 3, .duration_us = 2000000, .warmup_us = 1000000,
        .timeout_us = 123000000, .boot = 2, .boots = 3,
        .cmdline_before = (char *) "ro \"quoted\" -- x", .ok_runs = 7, .failed_runs = 1,
    };
    g_autoptr(RvRebootState) back = NULL;
    g_autoptr(GError) err = NULL;

    (void) data;
    g_assert_cmpint(rv_harness_reboot_state_write(f->dir, &st, &err), ==, 0);
    g_assert_cmpint(rv_harness_reboot_state_read(f->dir, &back, &err), ==, 0);
    g_assert_no_error(err);
    g_assert_cmpstr(back->matrix, ==, st.matrix);
    g_assert_cmpstr(back->matrix_sha256, ==, st.matrix_sha256);
    g_assert_cmpuint(back->seed, ==, G_MAXUINT64);   /* a string: 64 bits */
    g_assert_cmpuint(back->repetitions, ==, 3);
    g_assert_cmpuint(back->duration_us, ==, 2000000);
    g_assert_cmpuint(back->warmup_us, ==, 1000000);
    g_assert_cmpuint(back->timeout_us, ==, 123000000);
    g_assert_cmpuint(back->boot, ==, 2);
    g_assert_cmpuint(back->boots, ==, 3);
    g_assert_cmpstr(back->cmdline_before, ==, st.cmdline_before);
    g_assert_cmpuint(back->ok_runs, ==, 7);
    g_assert_cmpuint(back->failed_runs, ==, 1);
    g_assert_null(back->installed_boot_id);   /* not installed: absent */

    /* the boot_id the boot's arguments were installed under, read back */
    g_clear_pointer(&back, rv_harness_reboot_state_free);
    st.installed_boot_id = (char *) "3f2c9b9e-5a1d-4c2e-9b0a-6c1d2e3f4a5b";
    g_assert_cmpint(rv_harness_reboot_state_write(f->dir, &st, &err), ==, 0);
    g_assert_cmpint(rv_harness_reboot_state_read(f->dir, &back, &err), ==, 0);
    g_assert_cmpstr(back->installed_boot_id, ==, st.installed_boot_id);
    st.installed_boot_id = NULL;

    /* the root's boot_id: stripped; absent or longer than a UUID can be: NULL */
    {
        g_autofree char *none = rv_harness_reboot_boot_id(f->root);
        g_autofree char *id = NULL, *huge = NULL;

        g_assert_null(none);
        put(f, "proc/sys/kernel/random/boot_id", "3f2c9b9e-5a1d-4c2e-9b0a-6c1d2e3f4a5b\n");
        id = rv_harness_reboot_boot_id(f->root);
        g_assert_cmpstr(id, ==, "3f2c9b9e-5a1d-4c2e-9b0a-6c1d2e3f4a5b");
        put(f, "proc/sys/kernel/random/boot_id",
            "0123456789012345678901234567890123456789012345678901234567890123456789\n");
        huge = rv_harness_reboot_boot_id(f->root);
        g_assert_null(huge);
    }

    /* a boot beyond the boots, and a missing member: refused naming them */
    g_clear_pointer(&back, rv_harness_reboot_state_free);
    st.boot = 3;
    g_assert_cmpint(rv_harness_reboot_state_write(f->dir, &st, &err), ==, 0);
    g_assert_cmpint(rv_harness_reboot_state_read(f->dir, &back, &err), ==, -EINVAL);
    g_assert_true(g_error_matches(err, RV_ERROR, RV_ERROR_INVALID));
    g_assert_nonnull(strstr(err->message, "resume.json: \"boot\": expected an integer 0-2"));
    g_clear_error(&err);
    put(f, "resume.json", "{\"schema_version\": 1, \"matrix\": \"/m.ini\"}");
    g_assert_cmpint(rv_harness_reboot_state_read(f->dir, &back, &err), ==, -EINVAL);
    g_assert_nonnull(strstr(err->message, "\"matrix_sha256\": expected a string"));
    g_clear_error(&err);
    put(f, "resume.json", "{\"schema_version\": 2}");
    g_assert_cmpint(rv_harness_reboot_state_read(f->dir, &back, &err), ==, -EINVAL);
    g_assert_nonnull(strstr(err->message, "schema_version 2 is not supported"));
    g_clear_error(&err);

    /* removed: absent is its own message */
    g_assert_cmpint(rv_harness_reboot_state_remove(f->dir), ==, 0);
    g_assert_cmpint(rv_harness_reboot_state_remove(f->dir), ==, 0);
    g_assert_cmpint(rv_harness_reboot_state_read(f->dir, &back, &err), ==, -ENOENT);
    g_assert_nonnull(strstr(err->message, "no resume.json: no stopped or rebooting `rtvirt run` "
                            "to resume in this store"));
    g_assert_null(back);
    g_clear_error(&err);
    /* a mistyped STORE is said to be no store, not a store without a run */
    {
        g_autofree char *none = g_build_filename(f->dir, "no-such-store", NULL);

        g_assert_cmpint(rv_harness_reboot_state_read(none, &back, &err), ==, -ENOENT);
        g_assert_nonnull(strstr(err->message, "no-such-store: no such results store (not a directory)"));
        g_assert_null(back);
    }
}

static void
test_command(void)
{
    g_auto(GStrv) def = NULL, set = NULL;
    g_auto(GStrv) bad = NULL;
    g_autoptr(GError) err = NULL;

    g_unsetenv("RTVIRT_REBOOT_CMD");
    g_assert_cmpint(rv_harness_reboot_command(&def, &err), ==, 0);
    g_assert_cmpuint(g_strv_length(def), ==, 2);
    g_assert_cmpstr(def[0], ==, "systemctl");
    g_assert_cmpstr(def[1], ==, "reboot");
    g_setenv("RTVIRT_REBOOT_CMD", "/t/reboot.sh 'two words' --now", TRUE);
    g_assert_cmpint(rv_harness_reboot_command(&set, &err), ==, 0);
    g_assert_cmpuint(g_strv_length(set), ==, 3);
    g_assert_cmpstr(set[1], ==, "two words");
    g_setenv("RTVIRT_REBOOT_CMD", "/t/reboot.sh 'open", TRUE);
    g_assert_cmpint(rv_harness_reboot_command(&bad, &err), ==, -EINVAL);
    g_assert_nonnull(strstr(err->message, "$RTVIRT_REBOOT_CMD '/t/reboot.sh 'open'"));
    g_unsetenv("RTVIRT_REBOOT_CMD");
}

/* The unit whole, and a store path that systemd would read as a
 * specifier or a variable. */
static void
test_unit(void)
{
    g_autofree char *text = NULL, *odd = NULL;
    g_autoptr(GError) err = NULL;

    g_assert_cmpint(rv_host_persist_resume_unit("/usr/bin/rtvirt", "/srv/results/20261202-x",
                                                &text, &err), ==, 0);
    g_assert_cmpstr(text, ==,
                    "# Written by 'rtvirt run' between the boots of a matrix whose scenarios set bootargs.\n"
                    "# 'rtvirt run --abort /srv/results/20261202-x' removes it; the run's end does too.\n"
                    "\n"
                    "[Unit]\n"
                    "Description=rtvirt: resume the run of /srv/results/20261202-x after the reboot\n"
                    "After=libvirtd.service virtqemud.service rtvirt-host-apply.service\n"
                    "\n"
                    "[Service]\n"
                    "Type=oneshot\n"
                    "TimeoutStartSec=infinity\n"
                    "ExecStart=/usr/bin/rtvirt run --resume /srv/results/20261202-x\n"
                    "\n"
                    "[Install]\n"
                    "WantedBy=multi-user.target\n");
    g_assert_cmpint(rv_host_persist_resume_unit("/usr/bin/rtvirt", "/srv/100% $HOME/a b",
                                                &odd, &err), ==, 0);
    g_assert_nonnull(strstr(odd, "\nExecStart=/usr/bin/rtvirt run --resume \"/srv/100%% $$HOME/a b\"\n"));
    g_assert_cmpint(rv_host_persist_resume_unit("rtvirt", "/srv/r", &odd, &err), ==, -EINVAL);
    g_assert_true(g_error_matches(err, RV_ERROR, RV_ERROR_INVALID));
}

int
main(int argc, char **argv)
{
    g_test_init(&argc, &argv, NULL);
    g_test_add("/reboot/verify", Fixture, NULL, fixture_set_up, test_verify, fixture_tear_down);
    g_test_add("/reboot/state", Fixture, NULL, fixture_set_up, test_state, fixture_tear_down);
    g_test_add_func("/reboot/command", test_command);
    g_test_add_func("/reboot/unit", test_unit);
    return g_test_run();
}
