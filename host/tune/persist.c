/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * host/tune/persist.c: the boot-time files of `host apply --persist` (see
 * host/tune/persist.h).  One function per file format; each builds its text
 * with util/conf-write.h, which refuses what would not read back.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "host/tune/persist.h"
#include "util/conf-write.h"
#include "util/error.h"

void
rv_host_persist_file_free(RvPersistFile *f)
{
    if (!f)
        return;
    g_free(f->path);
    g_free(f->target);
    g_free(f->what);
    g_free(f);
}

/* The comment every file starts with; @what: its lines, wrapped. */
static void
header(RvConfWriter *w, const RvHostProfile *p, const char *what)
{
    g_autofree char *path = p->path ? g_canonicalize_filename(p->path, NULL) : NULL;

    rv_conf_writer_comment(w, "Written by `rtvirt host apply --persist` from host profile %s\n"
                           "(%s).\n%s\n"
                           "`rtvirt host revert` removes this file (or restores the one it "
                           "replaced).", p->name, path ? path : "no file", what);
}

/* ---- sysctl.d ----------------------------------------------------------- */

typedef struct {
    const char *key;
    char *value;
    const char *file;   /* where the profile set it, for messages; or NULL */
    unsigned line;
} Sysctl;

static void
sysctl_clear(gpointer p)
{
    g_free(((Sysctl *) p)->value);
}

static void
add_int(GArray *out, const char *key, const RvHostOptInt *v)
{
    Sysctl s = { .key = key };

    if (!v->set)
        return;
    s.value = g_strdup_printf("%" G_GINT64_FORMAT, v->value);
    g_array_append_val(out, s);
}

/* The profile's sysctls in the order host/tune/tune.c applies them. */
static GArray *
collect_sysctls(const RvHostProfile *p)
{
    GArray *out = g_array_new(FALSE, TRUE, sizeof(Sysctl));

    g_array_set_clear_func(out, sysctl_clear);
    add_int(out, "kernel.sched_rt_runtime_us", &p->rt_runtime_us);
    add_int(out, "kernel.timer_migration", &p->timer_migration);
    add_int(out, "kernel.numa_balancing", &p->numa_balancing);
    add_int(out, "kernel.nmi_watchdog", &p->nmi_watchdog);
    for (guint i = 0; p->sysctls && i < p->sysctls->len; i++) {
        const RvHostKnob *k = p->sysctls->pdata[i];
        Sysctl s = { .key = k->key, .value = g_strdup(k->value), .file = k->file,
                     .line = k->line };

        g_array_append_val(out, s);
    }
    return out;
}

/*
 * sysctl.d(5): /etc/sysctl.d/NAME.conf, read at boot by
 * systemd-sysctl.service (or `sysctl --system`) in lexical order of the
 * file names; each line "token = value", whitespace around '=' and the
 * value's surrounding whitespace ignored, the token with '.' (or '/') as
 * separator; '#' and ';' start comments.  "60-" sorts after the
 * distribution's 50-*.conf, so these values win over its defaults.
 */
int
rv_host_persist_sysctl_conf(const RvHostProfile *profile, char **ret_text, guint *ret_count,
                            GError **error)
{
    g_autoptr(GArray) sysctls = collect_sysctls(profile);
    g_autoptr(RvConfWriter) w = rv_conf_writer_new();
    int r;

    if (ret_count)
        *ret_count = sysctls->len;
    if (sysctls->len == 0) {
        *ret_text = NULL;
        return 0;
    }
    header(w, profile, "Its sysctls, set at boot by systemd-sysctl.service (sysctl.d(5)).");
    rv_conf_writer_blank(w);
    for (guint i = 0; i < sysctls->len; i++) {
        const Sysctl *s = &g_array_index(sysctls, Sysctl, i);

        if ((r = rv_conf_writer_assign(w, s->key, " = ", s->value, error)) < 0) {
            if (s->file)
                g_prefix_error(error, "%s:%u: ", s->file, s->line);
            return r;
        }
    }
    *ret_text = rv_conf_writer_to_data(w);
    return 0;
}

/* ---- modprobe.d --------------------------------------------------------- */

/*
 * modprobe.d(5): /etc/modprobe.d/NAME.conf, read by modprobe (kmod) each
 * time it loads a module, including at boot; "options MODULENAME
 * OPTION..." adds options to the module's load, several lines for one
 * module add up.  A module loaded already keeps the values it was loaded
 * with until it is reloaded (writable parameters host/tune/tune.c sets at
 * runtime too; read-only ones, 0444, only change here).
 */
int
rv_host_persist_modprobe_conf(const RvHostProfile *profile, const char *const *readonly,
                              char **ret_text, guint *ret_count, GError **error)
{
    g_autoptr(RvConfWriter) w = rv_conf_writer_new();
    GPtrArray *params = profile->module_params;
    guint n = 0;
    int r;

    if (!params || params->len == 0) {
        *ret_text = NULL;
        if (ret_count)
            *ret_count = 0;
        return 0;
    }
    header(w, profile, "Its module parameters, given to a module when modprobe loads it\n"
                       "(modprobe.d(5)).");
    for (guint i = 0; i < params->len; i++) {
        const RvHostKnob *k = params->pdata[i];
        const char *dot = strchr(k->key, '.');
        g_autofree char *mod = NULL;
        g_autofree char *opt = NULL;

        if (!dot || dot == k->key || !dot[1])
            return rv_error_set(error, RV_ERROR_INVALID, EINVAL,
                                "%s:%u: module parameter '%s' is not MODULE.PARAM", k->file,
                                k->line, k->key);
        mod = g_strndup(k->key, dot - k->key);
        opt = g_strdup_printf("%s=%s", dot + 1, k->value);
        rv_conf_writer_blank(w);
        if (readonly && g_strv_contains(readonly, k->key))
            rv_conf_writer_comment(w, "%s is read-only at runtime (0444): it takes effect "
                                   "when %s is loaded again\n(a module reload) or at the "
                                   "next boot.", k->key, mod);
        {
            const char *words[] = { "options", mod, opt, NULL };

            if ((r = rv_conf_writer_words(w, words, error)) < 0) {
                g_prefix_error(error, "%s:%u: %s: ", k->file, k->line, k->key);
                return r;
            }
        }
        n++;
    }
    *ret_text = rv_conf_writer_to_data(w);
    if (ret_count)
        *ret_count = n;
    return 0;
}

/* ---- the systemd unit --------------------------------------------------- */

/* What only a runtime write sets, so only the unit re-applies at boot;
 * NULL-terminated names (transfer container). */
static GPtrArray *
runtime_only_knobs(const RvHostProfile *p)
{
    GPtrArray *out = g_ptr_array_new();

    if (p->thp != RV_HOST_THP_UNSET)
        g_ptr_array_add(out, "transparent_hugepage");
    if (p->ksm_run.set)
        g_ptr_array_add(out, "ksm run");
    if (p->mce_ignore_ce.set)
        g_ptr_array_add(out, "mce ignore_ce");
    if (p->workqueue_cpumask != RV_HOST_CPUSEL_UNSET)
        g_ptr_array_add(out, "workqueue cpumask");
    if (p->irq_affinity != RV_HOST_CPUSEL_UNSET)
        g_ptr_array_add(out, "IRQ affinities");
    if (p->kthreads && p->kthreads->len)
        g_ptr_array_add(out, "kernel thread priorities");
    if (p->governor)
        g_ptr_array_add(out, "cpufreq governor");
    if (p->idle_max_latency_us.set)
        g_ptr_array_add(out, "cpuidle states");
    g_ptr_array_add(out, NULL);
    return out;
}

/* One word of a systemd command line (systemd.service(5) "COMMAND
 * LINES"): '%' is a specifier and '$' a variable there, so they are
 * doubled; a word with whitespace, a quote or a backslash is double-quoted
 * with C escapes. */
static char *
exec_word(const char *word)
{
    GString *out = g_string_new(NULL);
    bool quote = word[strcspn(word, " \t\"'\\")] != '\0';

    if (quote)
        g_string_append_c(out, '"');
    for (const char *c = word; *c; c++) {
        if (*c == '%' || *c == '$')
            g_string_append_c(out, *c);
        else if (quote && (*c == '"' || *c == '\\'))
            g_string_append_c(out, '\\');
        g_string_append_c(out, *c);
    }
    if (quote)
        g_string_append_c(out, '"');
    return g_string_free(out, FALSE);
}

static int
check_abs(const char *what, const char *path, GError **error)
{
    if (!g_path_is_absolute(path))
        return rv_error_set(error, RV_ERROR_INVALID, EINVAL,
                            "%s '%s' is not an absolute path: the unit runs it at boot", what,
                            path);
    return 0;
}

/*
 * systemd.unit(5), systemd.service(5), systemd.syntax(7): "[Section]" and
 * "Key=Value" lines.  Type=oneshot runs ExecStart= to its end before the
 * unit is up; RemainAfterExit=yes keeps it "active" after, so `systemctl
 * status` shows it ran.  After= the sysctl and module-load services (the
 * boot-time files are in place first), Before= the libvirt daemons
 * (autostarted domains start on a tuned host).  WantedBy=multi-user.target
 * is the [Install] section `systemctl enable` reads; the link in
 * multi-user.target.wants/ is what enabling creates.
 */
int
rv_host_persist_unit(const RvHostProfile *profile, const char *rtvirt_path,
                     const char *profile_path, char **ret_text, GError **error)
{
    g_autoptr(GPtrArray) knobs = runtime_only_knobs(profile);
    g_autoptr(RvConfWriter) w = NULL;
    g_autofree char *knob_list = NULL;
    g_autofree char *exec = NULL;
    g_autofree char *w_rtvirt = NULL;
    g_autofree char *w_profile = NULL;
    g_autofree char *desc = NULL;
    int r;

    if (knobs->len == 1) {   /* only the NULL */
        *ret_text = NULL;
        return 0;
    }
    if ((r = check_abs("rtvirt", rtvirt_path, error)) < 0 ||
        (r = check_abs("profile", profile_path, error)) < 0)
        return r;
    knob_list = g_strjoinv(", ", (char **) knobs->pdata);
    w_rtvirt = exec_word(rtvirt_path);
    w_profile = exec_word(profile_path);
    exec = g_strdup_printf("%s host apply %s", w_rtvirt, w_profile);
    desc = g_strdup_printf("rtvirt: apply host profile %s", profile->name);
    w = rv_conf_writer_new();
    header(w, profile, "At boot, `rtvirt host apply` sets again what no boot-time file holds\n"
                       "(systemd.service(5)); its link in multi-user.target.wants/ enables it.");
    rv_conf_writer_comment(w, "Runtime-only knobs of the profile: %s.\n"
                           "The profile is read from its path above at each boot: keep it "
                           "there.", knob_list);
    if ((r = rv_conf_writer_section(w, "Unit", error)) < 0 ||
        (r = rv_conf_writer_assign(w, "Description", "=", desc, error)) < 0 ||
        (r = rv_conf_writer_assign(w, "After", "=",
                                   "systemd-sysctl.service systemd-modules-load.service",
                                   error)) < 0 ||
        (r = rv_conf_writer_assign(w, "Before", "=", "libvirtd.service virtqemud.service",
                                   error)) < 0 ||
        (r = rv_conf_writer_section(w, "Service", error)) < 0 ||
        (r = rv_conf_writer_assign(w, "Type", "=", "oneshot", error)) < 0 ||
        (r = rv_conf_writer_assign(w, "RemainAfterExit", "=", "yes", error)) < 0 ||
        (r = rv_conf_writer_assign(w, "ExecStart", "=", exec, error)) < 0 ||
        (r = rv_conf_writer_section(w, "Install", error)) < 0 ||
        (r = rv_conf_writer_assign(w, "WantedBy", "=", "multi-user.target", error)) < 0)
        return r;
    *ret_text = rv_conf_writer_to_data(w);
    return 0;
}

/* ---- what a boot unit may run ------------------------------------------ */

/* One path component: owned by root, and not writable by group or others,
 * but for a directory with the sticky bit (as /tmp): there only a file's
 * owner may rename or remove it, and the file itself is checked too.  A
 * symbolic link is judged by the directory it sits in and by its target
 * (the caller checks the resolved path as well). */
static int
check_component(const char *what, const char *path, const char *comp, GError **error)
{
    struct stat st;
    const char *why = NULL;
    g_autofree char *why_buf = NULL;

    if (lstat(comp, &st) < 0)
        return rv_error_set(error, RV_ERROR_FAILED, errno, "Refusing --persist: cannot check %s "
                            "'%s': '%s': %s", what, path, comp, g_strerror(errno));
    if (S_ISLNK(st.st_mode))
        return 0;
    if (st.st_uid != 0)
        why = why_buf = g_strdup_printf("is owned by uid %u, not root", (unsigned) st.st_uid);
    else if ((st.st_mode & (S_IWGRP | S_IWOTH)) &&
             !(S_ISDIR(st.st_mode) && (st.st_mode & S_ISVTX)))
        why = why_buf = g_strdup_printf("is writable by %s (mode %04o)",
                                        (st.st_mode & S_IWOTH) ? "others" : "its group",
                                        (unsigned) (st.st_mode & 07777));
    if (!why)
        return 0;
    if (strcmp(comp, path) != 0) {
        g_autofree char *in = g_strdup_printf("its directory '%s' %s", comp, why);
        g_free(why_buf);
        why = why_buf = g_steal_pointer(&in);
    }
    return rv_error_set(error, RV_ERROR_INVALID, EPERM,
                        "Refusing --persist: %s '%s': %s: the boot unit runs it as root "
                        "at every boot, so whoever can change it gets root. Keep it root-owned "
                        "and writable by root alone, in directories that are too (for a "
                        "profile: copy it to /etc/rtvirt/, mode 0644, and apply that copy)",
                        what, path, why);
}

/* @path and every directory above it, up to "/" */
static int
check_chain(const char *what, const char *shown, const char *path, GError **error)
{
    g_autofree char *p = g_strdup(path);
    int r;

    for (;;) {
        char *slash;

        if ((r = check_component(what, shown, p, error)) < 0)
            return r;
        if (g_str_equal(p, "/"))
            return 0;
        slash = strrchr(p, '/');
        if (slash == p)
            slash[1] = '\0';
        else
            *slash = '\0';
    }
}

/*
 * Why refuse rather than copy: the unit reads the profile from its path at
 * every boot, and its header tells the user to keep it there: an edit of
 * the profile is meant to reach the next boot, as tuned's profiles under
 * /etc/tuned do.  A silent copy would fork it, and still leave the binary
 * to check.  So, like OpenSSH's StrictModes, sudo's check of sudoers and
 * systemd-tmpfiles' "unsafe path transition", the path is refused with the
 * reason, and the message says where a trusted copy goes (/etc/rtvirt/).
 */
int
rv_host_persist_check_trusted(const char *what, const char *path, GError **error)
{
    g_autofree char *abs = g_canonicalize_filename(path, NULL);
    g_autofree char *real = realpath(abs, NULL);
    int r;

    if ((r = check_chain(what, path, abs, error)) < 0)
        return r;
    if (!real)
        return rv_error_set(error, RV_ERROR_FAILED, errno, "Refusing --persist: cannot resolve "
                            "%s '%s': %s", what, path, g_strerror(errno));
    if (!g_str_equal(real, abs) && (r = check_chain(what, path, real, error)) < 0)
        return r;
    return 0;
}

/* ---- writing them, journaled ------------------------------------------- */

bool
rv_host_module_param_readonly(RvRoot *root, const char *module, const char *param)
{
    g_autofree char *path = g_strdup_printf("/sys/module/%s/parameters/%s", module, param);
    int fd = rv_host_root_openat(root, path, O_RDONLY | O_CLOEXEC, 0);
    struct stat sb;
    bool ro = false;

    if (fd >= 0) {
        ro = fstat(fd, &sb) == 0 && !(sb.st_mode & 0222);
        close(fd);
    }
    return ro;
}

/* "MODULE.PARAM" keys of [modules] that are read-only here (transfer full). */
static GStrv
readonly_params(RvRoot *root, const RvHostProfile *p, guint *ret_n)
{
    g_autoptr(GPtrArray) out = g_ptr_array_new();

    for (guint i = 0; p->module_params && i < p->module_params->len; i++) {
        const RvHostKnob *k = p->module_params->pdata[i];
        const char *dot = strchr(k->key, '.');
        g_autofree char *mod = NULL;

        if (!dot)
            continue;
        mod = g_strndup(k->key, dot - k->key);
        if (rv_host_module_param_readonly(root, mod, dot + 1))
            g_ptr_array_add(out, g_strdup(k->key));
    }
    *ret_n = out->len;
    g_ptr_array_add(out, NULL);
    return (GStrv) g_ptr_array_free(g_steal_pointer(&out), FALSE);
}

/* Does @path hold @text already (a dry run's "already")? */
static bool
file_has(RvRoot *root, const char *path, const char *text)
{
    g_autofree char *cur = NULL;
    gssize n = rv_host_root_read(root, path, &cur, NULL);

    return n >= 0 && (gsize) n == strlen(text) && memcmp(cur, text, n) == 0;
}

static int
put_file(RvRoot *root, RvJournal *journal, bool dry_run, const char *path, const char *text,
         char *what, GPtrArray *files, GError **error)
{
    RvPersistFile *f = g_new0(RvPersistFile, 1);
    int r;

    f->path = g_strdup(path);
    f->what = what;
    g_ptr_array_add(files, f);
    if (dry_run) {
        f->changed = !file_has(root, path, text);
        return 0;
    }
    r = rv_host_journal_set_file(journal, path, text, -1, 0644, error);
    if (r < 0)
        return r;
    f->changed = r > 0;
    return 0;
}

static int
put_link(RvRoot *root, RvJournal *journal, bool dry_run, const char *path, const char *target,
         GPtrArray *files, GError **error)
{
    RvPersistFile *f = g_new0(RvPersistFile, 1);
    int r;

    f->path = g_strdup(path);
    f->target = g_strdup(target);
    f->what = g_strdup("enables the unit at boot, as `systemctl enable` would");
    g_ptr_array_add(files, f);
    if (dry_run) {
        g_autofree char *real = rv_host_root_resolve(root, path);
        g_autofree char *cur = g_file_read_link(real, NULL);

        f->changed = !cur || strcmp(cur, target) != 0;
        return 0;
    }
    r = rv_host_journal_set_symlink(journal, path, target, error);
    if (r < 0)
        return r;
    f->changed = r > 0;
    return 0;
}

int
rv_host_persist_apply(RvRoot *root, RvJournal *journal, const RvHostProfile *profile,
                      const char *rtvirt_path, bool dry_run, GPtrArray **ret_files,
                      GError **error)
{
    g_autoptr(GPtrArray) files =
        g_ptr_array_new_with_free_func((GDestroyNotify) rv_host_persist_file_free);
    g_autofree char *sysctl = NULL, *modprobe = NULL, *unit = NULL, *profile_path = NULL;
    g_auto(GStrv) ro = NULL;
    guint n_sysctl = 0, n_mod = 0, n_ro = 0;
    int r;

    g_return_val_if_fail(journal || dry_run, -EINVAL);
    if (!profile->path)
        return rv_error_set(error, RV_ERROR_INVALID, EINVAL,
                            "host profile %s has no file: nothing for the unit to apply at boot",
                            profile->name);
    profile_path = g_canonicalize_filename(profile->path, NULL);
    ro = readonly_params(root, profile, &n_ro);
    /* every text first: a value no file can hold changes nothing */
    if ((r = rv_host_persist_sysctl_conf(profile, &sysctl, &n_sysctl, error)) < 0 ||
        (r = rv_host_persist_modprobe_conf(profile, (const char *const *) ro, &modprobe,
                                           &n_mod, error)) < 0 ||
        (r = rv_host_persist_unit(profile, rtvirt_path, profile_path, &unit, error)) < 0)
        return r;
    /* the unit runs the binary on the profile (and what it includes) as
     * root at every boot: each must be root's alone */
    if (unit) {
        if ((r = rv_host_persist_check_trusted("rtvirt binary", rtvirt_path, error)) < 0)
            return r;
        for (guint i = 0; profile->files && i < profile->files->len; i++)
            if ((r = rv_host_persist_check_trusted(i ? "included profile" : "profile",
                                                   profile->files->pdata[i], error)) < 0)
                return r;
    }
    if (sysctl &&
        (r = put_file(root, journal, dry_run, RV_HOST_PERSIST_SYSCTL, sysctl,
                      g_strdup_printf("%u sysctl%s, set at boot by systemd-sysctl", n_sysctl,
                                      n_sysctl == 1 ? "" : "s"), files, error)) < 0)
        return r;
    if (modprobe &&
        (r = put_file(root, journal, dry_run, RV_HOST_PERSIST_MODPROBE, modprobe,
                      n_ro ? g_strdup_printf("%u module parameter%s, %u read-only here: they "
                                             "take effect at a module reload or a reboot",
                                             n_mod, n_mod == 1 ? "" : "s", n_ro)
                           : g_strdup_printf("%u module parameter%s, given at module load",
                                             n_mod, n_mod == 1 ? "" : "s"),
                      files, error)) < 0)
        return r;
    if (unit &&
        ((r = put_file(root, journal, dry_run, RV_HOST_PERSIST_UNIT, unit,
                       g_strdup_printf("runs `%s host apply %s` at boot", rtvirt_path,
                                       profile_path), files, error)) < 0 ||
         (r = put_link(root, journal, dry_run, RV_HOST_PERSIST_UNIT_LINK, RV_HOST_PERSIST_UNIT,
                       files, error)) < 0))
        return r;
    *ret_files = g_steal_pointer(&files);
    return 0;
}

/* The unit that resumes a run after a reboot (harness/reboot.h).  No
 * RemainAfterExit: it ran, its next boot runs it again only while the
 * link is there; the run removes both after its last boot.
 * TimeoutStartSec=infinity: a oneshot's start job would otherwise time
 * out under DefaultTimeoutStartSec on a long matrix. */
int
rv_host_persist_resume_unit(const char *rtvirt_path, const char *store_dir, char **ret_text,
                            GError **error)
{
    g_autoptr(RvConfWriter) w = NULL;
    g_autofree char *w_rtvirt = NULL, *w_store = NULL, *exec = NULL, *desc = NULL;
    int r;

    if ((r = check_abs("rtvirt", rtvirt_path, error)) < 0 ||
        (r = check_abs("results store", store_dir, error)) < 0)
        return r;
    w_rtvirt = exec_word(rtvirt_path);
    w_store = exec_word(store_dir);
    exec = g_strdup_printf("%s run --resume %s", w_rtvirt, w_store);
    desc = g_strdup_printf("rtvirt: resume the run of %s after the reboot", store_dir);
    w = rv_conf_writer_new();
    rv_conf_writer_comment(w, "Written by 'rtvirt run' between the boots of a matrix whose "
                           "scenarios set bootargs.\n'rtvirt run --abort %s' removes it; the "
                           "run's end does too.", store_dir);
    if ((r = rv_conf_writer_section(w, "Unit", error)) < 0 ||
        (r = rv_conf_writer_assign(w, "Description", "=", desc, error)) < 0 ||
        (r = rv_conf_writer_assign(w, "After", "=",
                                   "libvirtd.service virtqemud.service "
                                   RV_HOST_PERSIST_UNIT_NAME, error)) < 0 ||
        (r = rv_conf_writer_section(w, "Service", error)) < 0 ||
        (r = rv_conf_writer_assign(w, "Type", "=", "oneshot", error)) < 0 ||
        (r = rv_conf_writer_assign(w, "TimeoutStartSec", "=", "infinity", error)) < 0 ||
        (r = rv_conf_writer_assign(w, "ExecStart", "=", exec, error)) < 0 ||
        (r = rv_conf_writer_section(w, "Install", error)) < 0 ||
        (r = rv_conf_writer_assign(w, "WantedBy", "=", "multi-user.target", error)) < 0)
        return r;
    *ret_text = rv_conf_writer_to_data(w);
    return 0;
}

int
rv_host_persist_resume_install(RvJournal *journal, const char *rtvirt_path,
                               const char *store_dir, GError **error)
{
    g_autofree char *unit = NULL;
    int r;

    if ((r = rv_host_persist_resume_unit(rtvirt_path, store_dir, &unit, error)) < 0)
        return r;
    if ((r = rv_host_persist_check_trusted("rtvirt binary", rtvirt_path, error)) < 0 ||
        (r = rv_host_persist_check_trusted("results store", store_dir, error)) < 0)
        return r;
    if ((r = rv_host_journal_set_file(journal, RV_HOST_RESUME_UNIT, unit, -1, 0644, error)) < 0 ||
        (r = rv_host_journal_set_symlink(journal, RV_HOST_RESUME_UNIT_LINK, RV_HOST_RESUME_UNIT,
                                         error)) < 0)
        return r;
    return 0;
}
