/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * host/tuned/tuned-state.c: is tuned running on this host, with which profile,
 * and which knobs would it fight over with an rtvirt host profile.  The
 * file names are tuned's (tuned/consts.py); a tuned daemon re-applies its
 * profile (reapply_sysctl, dynamic tuning), so two tools setting one knob
 * differently leave the host in whichever state wrote last.
 */
#include <errno.h>
#include <sched.h>
#include <stdlib.h>
#include <string.h>
#include <gio/gio.h>

#include "host/tuned/tuned.h"
#include "host/tuned/tuned-priv.h"
#include "util/json.h"
#include "util/runner.h"

#define PID_FILE "/run/tuned/tuned.pid"
#define DBUS_NAME "com.redhat.tuned"

void
rv_host_tuned_state_free(RvTunedState *st)
{
    if (!st)
        return;
    g_free(st->how);
    g_free(st->active);
    g_free(st->mode);
    g_free(st->tuned_adm);
    g_free(st->active_path);
    rv_host_profile_free(st->profile);
    g_free(st->profile_error);
    g_free(st);
}

static char *
read_value(RvRoot *root, const char *path)
{
    char *v = NULL;

    if (rv_host_root_read_value(root, path, &v, NULL) < 0)
        return NULL;
    if (!*v) {
        g_free(v);
        return NULL;
    }
    return v;
}

/* The system bus knows the name: tuned runs even without a PID file (tuned
 * -P elsewhere).  The bus also tells the owner's PID
 * (org.freedesktop.DBus.GetConnectionUnixProcessID takes a well-known name);
 * *ret_pid stays 0 when it does not answer. */
static bool
dbus_name_owned(gint64 *ret_pid)
{
    g_autoptr(GDBusConnection) bus = NULL;
    g_autoptr(GVariant) reply = NULL, pid = NULL;
    gboolean owned = FALSE;
    guint32 n = 0;

    if (!g_file_test("/run/dbus/system_bus_socket", G_FILE_TEST_EXISTS) &&
        !g_getenv("DBUS_SYSTEM_BUS_ADDRESS"))
        return false;
    bus = g_bus_get_sync(G_BUS_TYPE_SYSTEM, NULL, NULL);
    if (!bus)
        return false;
    reply = g_dbus_connection_call_sync(bus, "org.freedesktop.DBus", "/org/freedesktop/DBus",
                                        "org.freedesktop.DBus", "NameHasOwner",
                                        g_variant_new("(s)", DBUS_NAME), G_VARIANT_TYPE("(b)"),
                                        G_DBUS_CALL_FLAGS_NONE, 1000, NULL, NULL);
    if (reply)
        g_variant_get(reply, "(b)", &owned);
    if (!owned)
        return false;
    pid = g_dbus_connection_call_sync(bus, "org.freedesktop.DBus", "/org/freedesktop/DBus",
                                      "org.freedesktop.DBus", "GetConnectionUnixProcessID",
                                      g_variant_new("(s)", DBUS_NAME), G_VARIANT_TYPE("(u)"),
                                      G_DBUS_CALL_FLAGS_NONE, 1000, NULL, NULL);
    if (pid)
        g_variant_get(pid, "(u)", &n);
    *ret_pid = n;
    return true;
}

static void
load_running(RvRoot *root, RvTunedState *st)
{
    g_autofree char *pid = read_value(root, PID_FILE);
    gint64 n;

    if (pid && g_ascii_string_to_signed(pid, 10, 1, G_MAXINT32, &n, NULL)) {
        g_autofree char *proc = g_strdup_printf("/proc/%" G_GINT64_FORMAT "/comm", n);
        g_autofree char *comm = read_value(root, proc);

        st->pid = n;
        /* the daemon is a python3 script: comm "tuned" (or python3 on old kernels) */
        if (comm) {
            st->running = true;
            st->how = g_strdup_printf("PID %" G_GINT64_FORMAT " in " PID_FILE " (%s)", n, comm);
        }
    }
    if (!st->running && rv_host_root_is_live(root) && dbus_name_owned(&n)) {
        st->running = true;
        st->how = rv_tuned_bus_owner_describe(root, n, &st->pid);
    }
}

char *
rv_tuned_bus_owner_describe(RvRoot *root, gint64 bus_pid, gint64 *ret_pid)
{
    g_autofree char *proc = g_strdup_printf("/proc/%" G_GINT64_FORMAT "/comm", bus_pid);
    g_autofree char *comm = bus_pid > 0 ? read_value(root, proc) : NULL;

    *ret_pid = comm ? bus_pid : 0;
    if (comm)
        return g_strdup_printf("D-Bus name " DBUS_NAME " owned by PID %" G_GINT64_FORMAT " (%s)",
                               bus_pid, comm);
    if (bus_pid > 0)
        return g_strdup_printf("D-Bus name " DBUS_NAME " has an owner; the bus names PID "
                               "%" G_GINT64_FORMAT ", which has exited (tuned --daemon "
                               "connects before it forks)", bus_pid);
    return g_strdup("D-Bus name " DBUS_NAME " has an owner");
}

/* the active profile's directory: the root's tuned directories first */
static char *
find_profile(RvRoot *root, const char *name)
{
    static const char * const dirs[] = { "/etc/tuned/profiles", "/etc/tuned",
                                         "/usr/lib/tuned/profiles", "/usr/lib/tuned", NULL };

    if (strchr(name, '/') || !*name)
        return NULL;
    for (int live = 0; live < 2; live++)
        for (int i = 0; dirs[i]; i++) {
            g_autofree char *conf = g_build_filename(dirs[i], name, "tuned.conf", NULL);
            g_autofree char *dir = g_build_filename(dirs[i], name, NULL);

            if (!live && !rv_host_root_is_live(root) && rv_host_root_exists(root, conf))
                return rv_host_root_resolve(root, dir);
            if (live && g_file_test(conf, G_FILE_TEST_IS_REGULAR))
                return g_steal_pointer(&dir);
        }
    return NULL;
}

void
rv_host_tuned_state_load(RvRoot *root, RvTunedState **ret)
{
    RvTunedState *st = g_new0(RvTunedState, 1);
    g_autoptr(GError) err = NULL;

    load_running(root, st);
    st->active = read_value(root, "/etc/tuned/active_profile");
    st->mode = read_value(root, "/etc/tuned/profile_mode");
    if (st->running && rv_host_root_is_live(root)) {
        g_autoptr(RvRunner) runner = rv_runner_new(false);
        const char * const argv[] = { "tuned-adm", "active", NULL };
        g_auto(RvRunResult) res = { 0 };

        if (rv_runner_run(runner, argv, NULL, 5000, 4096, &res, NULL) == 0 &&
            res.exit_status == 0 && res.out && *res.out)
            st->tuned_adm = g_strdup(g_strstrip(res.out));
    }
    if (st->active) {
        g_auto(GStrv) names = g_strsplit_set(st->active, " \t", -1);

        st->active_path = find_profile(root, names[0]);
        if (!st->active_path)
            st->profile_error = g_strdup_printf("profile '%s' is in neither /etc/tuned nor "
                                                "/usr/lib/tuned", names[0]);
        else if (rv_host_tuned_load(root, st->active_path, &st->profile, &err) < 0)
            st->profile_error = g_strdup(err->message);
    }
    *ret = st;
}

char *
rv_host_tuned_state_describe(const RvTunedState *st)
{
    g_autofree char *prof = st->active
        ? g_strdup_printf("active profile %s%s%s%s", st->active, st->mode ? " (" : "",
                          st->mode ? st->mode : "", st->mode ? ")" : "")
        : g_strdup("no active profile");

    if (st->running)
        return g_strdup_printf("running: %s, %s", st->how, prof);
    return g_strdup_printf("not running, %s", prof);
}

/* ---- knobs both set -------------------------------------------------------- */

typedef RvTunedKnob Val;

static void
val_free(gpointer p)
{
    Val *v = p;

    g_free(v->value);
    g_free(v->at);
    g_free(v);
}

static void
put(GHashTable *t, GPtrArray *order, const char *key, char *value, const char *file,
    unsigned line)
{
    Val *v = g_new0(Val, 1);

    v->value = value;
    v->at = file ? g_strdup_printf("%s:%u", file, line) : NULL;
    if (!g_hash_table_contains(t, key))
        g_ptr_array_add(order, g_strdup(key));
    g_hash_table_replace(t, g_strdup(key), v);
}

/* The knobs a profile sets, by the name of the file they write. */
static void
knobs(const RvHostProfile *p, GHashTable *t, GPtrArray *order)
{
    struct { const char *key; RvHostTristate v; } tris[] = {
        { "bootarg isolcpus", p->isolcpus }, { "bootarg nohz_full", p->nohz_full },
        { "bootarg rcu_nocbs", p->rcu_nocbs }, { "bootarg rcu_nocb_poll", p->rcu_nocb_poll },
        { "bootarg irqaffinity", p->irqaffinity }, { "bootarg skew_tick", p->skew_tick },
    };

    for (size_t i = 0; i < G_N_ELEMENTS(tris); i++)
        if (tris[i].v != RV_HOST_TRI_UNSET)
            put(t, order, tris[i].key, g_strdup(tris[i].v == RV_HOST_TRI_YES ? "yes" : "no"),
                NULL, 0);
    if (p->nohz)
        put(t, order, "bootarg nohz", g_strdup(p->nohz), NULL, 0);
    for (char **e = p->extra_bootargs; e && *e; e++) {
        g_autofree char *k = g_strdup_printf("bootarg %s", *e);
        char *eq = strchr(k, '=');

        if (eq)
            *eq = '\0';
        put(t, order, k, g_strdup(*e), NULL, 0);
    }
    if (p->idle_max_latency_us.set)
        put(t, order, "idle exit latency (us)",
            g_strdup_printf("%" G_GINT64_FORMAT, p->idle_max_latency_us.value), NULL, 0);
    if (p->workqueue_cpumask != RV_HOST_CPUSEL_UNSET)
        put(t, order, "workqueue cpumask", p->workqueue_cpumask == RV_HOST_CPUSEL_LIST
                                               ? rv_cpulist_format(&p->workqueue_cpus)
                                               : g_strdup("housekeeping"), NULL, 0);
    if (p->irq_affinity != RV_HOST_CPUSEL_UNSET)
        put(t, order, "IRQ affinity", p->irq_affinity == RV_HOST_CPUSEL_LIST
                                          ? rv_cpulist_format(&p->irq_cpus)
                                          : g_strdup("housekeeping"), NULL, 0);
    struct { const char *key; const RvHostOptInt *v; } ints[] = {
        { "kernel.sched_rt_runtime_us", &p->rt_runtime_us },
        { "kernel.timer_migration", &p->timer_migration },
        { "kernel.numa_balancing", &p->numa_balancing },
        { "kernel.nmi_watchdog", &p->nmi_watchdog },
        { "/sys/kernel/mm/ksm/run", &p->ksm_run },
        { "machinecheck*/ignore_ce", &p->mce_ignore_ce },
    };

    for (size_t i = 0; i < G_N_ELEMENTS(ints); i++)
        if (ints[i].v->set)
            put(t, order, ints[i].key, g_strdup_printf("%" G_GINT64_FORMAT, ints[i].v->value),
                NULL, 0);
    if (p->thp != RV_HOST_THP_UNSET)
        put(t, order, "transparent_hugepage/enabled", g_strdup(rv_host_thp_name(p->thp)), NULL, 0);
    if (p->governor)
        put(t, order, "cpufreq scaling_governor", g_strdup(p->governor), NULL, 0);
    for (guint i = 0; i < p->sysctls->len; i++) {
        const RvHostKnob *k = p->sysctls->pdata[i];

        put(t, order, k->key, g_strdup(k->value), k->file, k->line);
    }
    for (guint i = 0; i < p->module_params->len; i++) {
        const RvHostKnob *k = p->module_params->pdata[i];
        g_autofree char *key = g_strdup_printf("module %s", k->key);

        put(t, order, key, g_strdup(k->value), k->file, k->line);
    }
    for (guint i = 0; i < p->kthreads->len; i++) {
        const RvHostKthreadPrio *k = p->kthreads->pdata[i];
        g_autofree char *key = g_strdup_printf("kernel threads %s", k->name);

        put(t, order, key, k->policy == SCHED_OTHER
                               ? g_strdup("other")
                               : g_strdup_printf("%s:%d", k->policy == SCHED_FIFO ? "fifo" : "rr",
                                                 k->priority),
            k->file, k->line);
    }
}

GHashTable *
rv_tuned_profile_knobs(const RvHostProfile *p, GPtrArray *order)
{
    GHashTable *t = g_hash_table_new_full(g_str_hash, g_str_equal, g_free, val_free);

    knobs(p, t, order);
    return t;
}

/* Is the profile read from @path (a tuned profile directory, its
 * tuned.conf, a trailing slash, a symlink) tuned's active profile in @dir?
 * Both are resolved on disk (realpath); a path that does not resolve is
 * compared as written. */
static bool
is_profile_dir(const char *path, const char *dir)
{
    g_autofree char *a = realpath(path, NULL);
    g_autofree char *b = realpath(dir, NULL);

    if (!a || !b)
        return g_strcmp0(path, dir) == 0;
    if (g_file_test(a, G_FILE_TEST_IS_REGULAR)) {
        g_autofree char *base = g_path_get_basename(a);
        char *parent = g_path_get_dirname(a);

        if (strcmp(base, "tuned.conf") != 0) {
            g_free(parent);
            return false;
        }
        g_free(a);
        a = parent;
    }
    return strcmp(a, b) == 0;
}

void
rv_host_tuned_judge(RvCheckReport *rep, const RvHostProfile *p, const RvTunedState *st)
{
    g_autoptr(GHashTable) mine = NULL, theirs = NULL;
    g_autoptr(GPtrArray) mine_order = NULL, theirs_order = NULL;
    g_autoptr(GString) same = g_string_new(NULL);
    unsigned n_same = 0;

    if (!st->running && !st->active)
        return;
    if (st->running)
        rv_findings_add(rep->findings, RV_FINDING_NOTE, "tuned.running", NULL, NULL,
                        st->active ? st->active : "(no profile)",
                        "rtvirt host apply refuses to run beside it without --force; "
                        "rtvirt host export-tuned PROFILE -o /etc/tuned/NAME makes the "
                        "profile a tuned profile",
                        "tuned runs (%s)%s%s%s%s", st->how,
                        st->active ? " with profile " : " without a profile",
                        st->active ? st->active : "",
                        st->tuned_adm ? "; tuned-adm: " : "",
                        st->tuned_adm ? st->tuned_adm : "");
    else
        rv_findings_add(rep->findings, RV_FINDING_NOTE, "tuned.active-profile", NULL, NULL,
                        st->active, NULL,
                        "tuned does not run; its active profile is %s (applied when "
                        "tuned starts)", st->active);
    if (!st->profile) {
        if (st->profile_error)
            rv_findings_add(rep->findings, RV_FINDING_NOTE, "tuned.active-profile", NULL, NULL,
                            NULL, NULL, "tuned's active profile was not read: %s",
                            st->profile_error);
        return;
    }
    /* tuned's own profile, by its directory or its tuned.conf */
    if (p->origin && st->active_path && is_profile_dir(p->path, st->active_path))
        return;
    mine = g_hash_table_new_full(g_str_hash, g_str_equal, g_free, val_free);
    theirs = g_hash_table_new_full(g_str_hash, g_str_equal, g_free, val_free);
    mine_order = g_ptr_array_new_with_free_func(g_free);
    theirs_order = g_ptr_array_new_with_free_func(g_free);
    knobs(p, mine, mine_order);
    knobs(st->profile, theirs, theirs_order);
    for (guint i = 0; i < mine_order->len; i++) {
        const char *key = mine_order->pdata[i];
        const Val *a = g_hash_table_lookup(mine, key);
        const Val *b = g_hash_table_lookup(theirs, key);

        if (!b)
            continue;
        if (strcmp(a->value, b->value) == 0) {
            g_string_append_printf(same, "%s%s", n_same++ ? ", " : "", key);
            continue;
        }
        rv_findings_add(rep->findings, RV_FINDING_WARN, "tuned.conflict", NULL, a->value, b->value,
                        "leave the knob to one tool: drop it from one profile, or run "
                        "the rtvirt profile through tuned (rtvirt host export-tuned)",
                        "%s: the profile wants %s, tuned's active profile %s sets %s%s%s%s",
                        key, a->value, st->active, b->value, b->at ? " (" : "",
                        b->at ? b->at : "", b->at ? ")" : "");
    }
    if (n_same)
        rv_findings_add(rep->findings, RV_FINDING_NOTE, "tuned.overlap", NULL, NULL, NULL, NULL,
                        "tuned's active profile %s also sets %u of the profile's knobs "
                        "to the same values: %s", st->active, n_same, same->str);
}

JsonNode *
rv_host_tuned_state_to_json(const RvTunedState *st)
{
    g_autoptr(JsonBuilder) b = json_builder_new();

    json_builder_begin_object(b);
    rv_json_add_bool(b, "running", st->running);
    json_builder_set_member_name(b, "pid");
    if (st->pid)
        json_builder_add_int_value(b, st->pid);
    else
        json_builder_add_null_value(b);
    rv_json_add_string_or_null(b, "how", st->how);
    rv_json_add_string_or_null(b, "active_profile", st->active);
    rv_json_add_string_or_null(b, "profile_mode", st->mode);
    rv_json_add_string_or_null(b, "tuned_adm", st->tuned_adm);
    rv_json_add_string_or_null(b, "profile_dir", st->active_path);
    json_builder_end_object(b);
    return json_builder_get_root(b);
}
