/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * host/tuned/tuned.c: a tuned profile mapped to an rtvirt host profile (see
 * host/tuned/tuned.h for what is read and how).  Sources of the mapping: tuned
 * v2.20-2.28 plugins (plugin_bootloader.py _get_effective_options: "+"
 * appends, "-" removes words, a plain value appends; plugin_sysctl.py,
 * plugin_sysfs.py, plugin_scheduler.py "group.NAME=RULE_PRIO:POLICY:PRIO:
 * AFFINITY:REGEX", plugin_cpu.py governor/force_latency, plugin_vm.py
 * transparent_hugepages and dirty_bytes "N%", plugin_irqbalance.py
 * banned_cpus) and host/profile/profile.h for the rtvirt side.
 */
#include <errno.h>
#include <sched.h>
#include <stdarg.h>
#include <string.h>

#include "host/tuned/tuned.h"
#include "host/tuned/tuned-priv.h"
#include "util/error.h"
#include "util/file.h"

#define UNMAPPED "tuned.unmapped"
#define APPROX "tuned.approximated"

typedef struct {
    RvRoot *root;
    RvTopology *topo;
    RvHostProfile *p;
    RvTunedExpand x;
    GHashTable *var_at;      /* variable name -> "FILE:LINE" */
    bool has_iso;
    RvCpuSet iso;            /* isolated_cores, when the profile sets it */
    RvCpuSet hk;             /* online & ~iso */
} Map;

bool
rv_host_tuned_is_profile(const char *path)
{
    g_autofree char *base = g_path_get_basename(path);
    g_autofree char *conf = g_build_filename(path, "tuned.conf", NULL);

    if (g_file_test(path, G_FILE_TEST_IS_DIR))
        return g_file_test(conf, G_FILE_TEST_IS_REGULAR);
    return strcmp(base, "tuned.conf") == 0 && g_file_test(path, G_FILE_TEST_IS_REGULAR);
}

static void G_GNUC_PRINTF(4, 5)
note(Map *m, const char *kind, const RvTunedOpt *o, const char *fmt, ...)
{
    g_autofree char *msg = NULL;
    va_list ap;

    va_start(ap, fmt);
    msg = g_strdup_vprintf(fmt, ap);
    va_end(ap);
    rv_host_profile_add_note(m->p, kind, o ? o->file : NULL, o ? o->line : 0, "%s", msg);
}

/* The value of @o with the profile's variables; NULL and *error on a failed
 * assertion. */
static char *
expand(Map *m, const RvTunedOpt *o, GError **error)
{
    char *v;

    m->x.file = o->file;
    m->x.line = o->line;
    v = rv_tuned_expand(&m->x, o->value ? o->value : "");
    if (!v)
        g_propagate_error(error, g_steal_pointer(&m->x.error));
    return v;
}

/* ---- [variables] ---------------------------------------------------------- */

/* An absolute variables file is host configuration: the root's copy when
 * the root (not the live host) has one, else this machine's. */
static char *
variables_file(Map *m, const char *path)
{
    g_autofree char *norm = g_canonicalize_filename(path, "/");

    if (!rv_host_root_is_live(m->root) && g_path_is_absolute(norm) &&
        rv_host_root_exists(m->root, norm))
        return rv_host_root_resolve(m->root, norm);
    return g_steal_pointer(&norm);
}

static int
add_variables_file(Map *m, const RvTunedOpt *inc, GError **error)
{
    g_autofree char *file = variables_file(m, inc->value ? inc->value : "");
    g_autofree char *text = NULL;
    g_autoptr(RvTunedConf) conf = NULL;
    g_autoptr(GError) local = NULL;

    if (rv_file_read(file, RV_FILE_READ_MAX, &text, &local) < 0) {
        /* tuned: "unable to find variables_file", and goes on */
        note(m, UNMAPPED, inc, "variables file '%s' not read (%s): tuned goes on without it",
             inc->value, local->message);
        return 0;
    }
    if (rv_tuned_parse(file, text, true, "variables", &conf, error) < 0)
        return -EINVAL;
    g_ptr_array_add(m->p->files, g_strdup(file));
    for (guint i = 0; i < conf->units->len; i++) {
        RvTunedUnit *u = conf->units->pdata[i];

        for (guint j = 0; j < u->opts->len; j++) {
            RvTunedOpt *o = u->opts->pdata[j];

            if (rv_tuned_add_variable(&m->x, o->key, o->value, o->file, o->line) < 0) {
                g_propagate_error(error, g_steal_pointer(&m->x.error));
                return -EINVAL;
            }
            g_hash_table_replace(m->var_at, g_strdup(o->key),
                                 g_strdup_printf("%s:%u", o->file, o->line));
        }
    }
    return 0;
}

/* variables.py add_from_cfg(), in the merged order */
static int
load_variables(Map *m, const RvTunedUnit *u, GError **error)
{
    for (guint i = 0; u && i < u->opts->len; i++) {
        const RvTunedOpt *o = u->opts->pdata[i];

        if (strcmp(o->key, "include") == 0) {
            if (add_variables_file(m, o, error) < 0)
                return -EINVAL;
            continue;
        }
        if (rv_tuned_add_variable(&m->x, o->key, o->value, o->file, o->line) < 0) {
            g_propagate_error(error, g_steal_pointer(&m->x.error));
            return -EINVAL;
        }
        g_hash_table_replace(m->var_at, g_strdup(o->key), g_strdup_printf("%s:%u", o->file, o->line));
    }
    return 0;
}

/* isolated_cores, when set to CPUs (unset, it is still "${isolated_cores}") */
static void
partition_from_variables(Map *m)
{
    const char *v = g_hash_table_lookup(m->x.vars, "isolated_cores");
    const char *at = g_hash_table_lookup(m->var_at, "isolated_cores");

    if (!v || strchr(v, '$'))
        return;
    rv_tuned_cpulist_unpack(v, &m->iso);
    if (rv_cpuset_is_empty(&m->iso))
        return;
    m->has_iso = true;
    rv_cpuset_andnot(&m->hk, &m->topo->online, &m->iso);
    m->p->has_isolated = true;
    m->p->isolated = m->iso;
    g_free(m->p->isolated_at);
    m->p->isolated_at = g_strdup(at);
    /* tuned's housekeeping CPUs are the rest, whole cores or not
     * (cpulist_invert): explicit, so that host check judges tuned's split */
    if (!rv_cpuset_is_empty(&m->hk)) {
        m->p->has_housekeeping = true;
        m->p->housekeeping = m->hk;
        g_free(m->p->housekeeping_at);
        m->p->housekeeping_at = g_strdup(at);
    }
}

/* ---- [bootloader] --------------------------------------------------------- */

typedef struct {
    char *word;
    const RvTunedOpt *from;
} Word;

static void
word_free(gpointer p)
{
    Word *w = p;

    g_free(w->word);
    g_free(w);
}

/* plugin_bootloader.py _get_effective_options() */
static int
effective_cmdline(Map *m, const RvTunedUnit *u, GPtrArray *words, GError **error)
{
    for (guint i = 0; i < u->opts->len; i++) {
        const RvTunedOpt *o = u->opts->pdata[i];
        g_autofree char *val = NULL;
        g_auto(GStrv) split = NULL;
        bool remove = false;
        const char *body;

        if (!g_str_has_prefix(o->key, "cmdline"))
            continue;
        val = expand(m, o, error);
        if (!val)
            return -EINVAL;
        if (!*val)
            continue;
        body = val;
        if (val[0] == '+' || (val[0] == '\\' && strchr("\\+-", val[1])))
            body = val + 1;
        else if (val[0] == '-')
            remove = true, body = val + 1;
        split = g_strsplit_set(body, " \t\n", -1);
        for (int k = 0; split[k]; k++) {
            if (!*split[k])
                continue;
            if (remove) {
                for (guint j = words->len; j-- > 0;)
                    if (strcmp(((Word *) words->pdata[j])->word, split[k]) == 0)
                        g_ptr_array_remove_index(words, j);
                continue;
            }
            Word *w = g_new0(Word, 1);

            w->word = g_strdup(split[k]);
            w->from = o;
            g_ptr_array_add(words, w);
        }
    }
    return 0;
}

/* isolcpus=[flag,...,]LIST (kernel/sched/isolation.c) */
static void
split_isolcpus(const char *val, char ***ret_flags, char **ret_list)
{
    static const char * const flags[] = { "nohz", "domain", "managed_irq", NULL };
    g_auto(GStrv) items = g_strsplit(val, ",", -1);
    g_autoptr(GPtrArray) f = g_ptr_array_new();
    int i = 0;

    for (; items[i] && g_strv_contains(flags, items[i]); i++)
        g_ptr_array_add(f, g_strdup(items[i]));
    g_ptr_array_add(f, NULL);
    *ret_flags = (char **) g_ptr_array_free(g_steal_pointer(&f), FALSE);
    *ret_list = g_strjoinv(",", items + i);
}

static void
add_extra(GPtrArray *extra, const char *word)
{
    g_ptr_array_add(extra, g_strdup(word));
}

/* A cpulist argument: "yes" when it names the partition's CPUs, else the
 * literal word stays expected on the command line. */
static void
map_list_arg(Map *m, const Word *w, const char *key, const char *list, bool housekeeping,
             RvHostTristate *ret, GPtrArray *extra)
{
    const RvCpuSet *want = housekeeping ? &m->hk : &m->iso;
    RvCpuSet got, online_want;

    if (rv_cpulist_parse(list, m->topo->nr_cpu_ids, &got, NULL) < 0 || rv_cpuset_is_empty(&got)) {
        note(m, UNMAPPED, w->from, "boot argument '%s': '%s' is not a cpulist of this host; "
             "not mapped", w->word, list);
        return;
    }
    /* tuned's lists are online CPUs (cpulist_invert), rtvirt's whole cores */
    rv_cpuset_and(&got, &got, &m->topo->online);
    rv_cpuset_and(&online_want, want, &m->topo->online);
    if (m->has_iso && rv_cpuset_equal(&got, &online_want)) {
        *ret = RV_HOST_TRI_YES;
        return;
    }
    add_extra(extra, w->word);
    note(m, APPROX, w->from, "boot argument '%s' names other CPUs than the %s CPUs of "
         "isolated_cores: expected on the command line as it is ([bootargs] extra), not as %s = yes",
         w->word, housekeeping ? "housekeeping" : "isolated", key);
}

static void
map_word(Map *m, const Word *w, GPtrArray *extra)
{
    RvHostProfile *p = m->p;
    g_autofree char *key = g_strdup(w->word);
    char *eq = strchr(key, '=');
    const char *val = eq ? eq + 1 : NULL;

    if (eq)
        *eq = '\0';
    if (val && !*val) {
        note(m, UNMAPPED, w->from, "boot argument '%s' has an empty value (an unset tuned "
             "variable?); not mapped", w->word);
        return;
    }
    if (strcmp(key, "isolcpus") == 0 && val) {
        g_auto(GStrv) flags = NULL;
        g_autofree char *list = NULL;
        g_autofree char *rebuilt = NULL;

        split_isolcpus(val, &flags, &list);
        rebuilt = g_strdup_printf("isolcpus=%s", list);
        {
            Word lw = { rebuilt, w->from };
            RvHostTristate t = RV_HOST_TRI_UNSET;

            map_list_arg(m, &lw, "isolcpus", list, false, &t, extra);
            if (t == RV_HOST_TRI_YES) {
                p->isolcpus = t;
                g_strfreev(p->isolcpus_flags);
                p->isolcpus_flags = flags[0] ? g_steal_pointer(&flags) : NULL;
            } else if (extra->len && strcmp(extra->pdata[extra->len - 1], rebuilt) == 0) {
                g_free(extra->pdata[extra->len - 1]);
                extra->pdata[extra->len - 1] = g_strdup(w->word);
            }
        }
    } else if ((strcmp(key, "nohz_full") == 0 || strcmp(key, "rcu_nocbs") == 0) && val) {
        map_list_arg(m, w, key, val, false,
                     strcmp(key, "nohz_full") == 0 ? &p->nohz_full : &p->rcu_nocbs, extra);
    } else if (strcmp(key, "irqaffinity") == 0 && val) {
        map_list_arg(m, w, key, val, true, &p->irqaffinity, extra);
    } else if (strcmp(key, "nohz") == 0 && val && (!strcmp(val, "on") || !strcmp(val, "off"))) {
        g_free(p->nohz);
        p->nohz = g_strdup(val);
    } else if (strcmp(key, "skew_tick") == 0 && val && (!strcmp(val, "1") || !strcmp(val, "0"))) {
        p->skew_tick = val[0] == '1' ? RV_HOST_TRI_YES : RV_HOST_TRI_NO;
    } else if (strcmp(key, "rcu_nocb_poll") == 0 && !val) {
        p->rcu_nocb_poll = RV_HOST_TRI_YES;
    } else if (strcmp(key, "nosmt") == 0 && !val) {
        p->smt = RV_HOST_SMT_OFF_BOOT;
    } else if (w->word[0] == '=' || strchr(w->word, '\'') || strchr(w->word, '"')) {
        note(m, UNMAPPED, w->from, "boot argument '%s' is not 'name' or 'name=value'; "
             "not mapped", w->word);
    } else {
        add_extra(extra, w->word);
    }
}

static int
map_bootloader(Map *m, const RvTunedUnit *u, GError **error)
{
    g_autoptr(GPtrArray) words = g_ptr_array_new_with_free_func(word_free);
    g_autoptr(GPtrArray) extra = g_ptr_array_new_with_free_func(g_free);

    if (effective_cmdline(m, u, words, error) < 0)
        return -EINVAL;
    for (guint i = 0; i < words->len; i++)
        map_word(m, words->pdata[i], extra);
    if (extra->len) {
        g_ptr_array_add(extra, NULL);
        g_strfreev(m->p->extra_bootargs);
        m->p->extra_bootargs = (char **) g_ptr_array_free(g_steal_pointer(&extra), FALSE);
    }
    for (guint i = 0; i < u->opts->len; i++) {
        const RvTunedOpt *o = u->opts->pdata[i];

        if (!g_str_has_prefix(o->key, "cmdline"))
            note(m, UNMAPPED, o, "[bootloader] %s = %s: boot loader housekeeping of tuned "
                 "(initrd, grub), no rtvirt key", o->key, o->value ? o->value : "");
    }
    return 0;
}

/* ---- [sysctl], [sysfs] ---------------------------------------------------- */

static bool
parse_int(const char *v, gint64 min, gint64 max, gint64 *ret)
{
    g_autofree char *s = g_strstrip(g_strdup(v));

    return g_ascii_string_to_signed(s, 10, min, max, ret, NULL);
}

static bool
set_opt_int(RvHostOptInt *k, const char *v, gint64 min, gint64 max)
{
    gint64 n;

    if (!parse_int(v, min, max, &n))
        return false;
    k->set = true;
    k->value = n;
    return true;
}

static void
add_knob(GPtrArray *to, const char *key, const char *value, const RvTunedOpt *o)
{
    RvHostKnob *k = g_new0(RvHostKnob, 1);

    /* a later line for the same knob wins, as in tuned's merge */
    for (guint i = 0; i < to->len; i++)
        if (strcmp(((RvHostKnob *) to->pdata[i])->key, key) == 0) {
            g_ptr_array_remove_index(to, i);
            break;
        }
    k->key = g_strdup(key);
    k->value = g_strdup(value);
    k->file = g_strdup(o->file);
    k->line = o->line;
    g_ptr_array_add(to, k);
}

static bool
value_is_plain(const char *v)
{
    if (!*v)
        return false;
    for (const char *c = v; *c; c++)
        if (g_ascii_iscntrl(*c) && *c != '\t')
            return false;
    return true;
}

/* one sysctl, NAME with dots */
static void
map_sysctl_one(Map *m, const RvTunedOpt *o, const char *name, const char *v)
{
    RvHostProfile *p = m->p;
    struct { const char *key; RvHostOptInt *k; gint64 min, max; } known[] = {
        { "kernel.sched_rt_runtime_us", &p->rt_runtime_us, -1, G_MAXINT32 },
        { "kernel.timer_migration", &p->timer_migration, 0, 1 },
        { "kernel.numa_balancing", &p->numa_balancing, 0, 1 },
        { "kernel.nmi_watchdog", &p->nmi_watchdog, 0, 1 },
    };

    for (size_t i = 0; i < G_N_ELEMENTS(known); i++)
        if (strcmp(name, known[i].key) == 0) {
            if (!set_opt_int(known[i].k, v, known[i].min, known[i].max))
                note(m, UNMAPPED, o, "%s = '%s' is not a value rtvirt knows for it; not mapped",
                     name, v);
            return;
        }
    if (!strchr(name, '.') || strstr(name, "..") || !value_is_plain(v)) {
        note(m, UNMAPPED, o, "sysctl %s = '%s' is not NAME.WITH.DOTS = VALUE; not mapped", name, v);
        return;
    }
    add_knob(p->sysctls, name, v, o);
}

static int
map_sysctl(Map *m, const RvTunedUnit *u, GError **error)
{
    for (guint i = 0; i < u->opts->len; i++) {
        const RvTunedOpt *o = u->opts->pdata[i];
        g_autofree char *v = expand(m, o, error);
        g_autofree char *name = g_strdelimit(g_strdup(o->key), "/", '.');

        if (!v)
            return -EINVAL;
        map_sysctl_one(m, o, name, g_strstrip(v));
    }
    return 0;
}

/* a hex cpumask written by tuned: housekeeping, or a list */
static void
map_workqueue(Map *m, const RvTunedOpt *o, const char *v)
{
    RvCpuSet set;

    if (rv_cpumask_parse(v, &set, NULL) < 0 || rv_cpuset_is_empty(&set)) {
        note(m, UNMAPPED, o, "%s = '%s' is not a CPU mask; not mapped", o->key, v);
        return;
    }
    rv_cpuset_and(&set, &set, &m->topo->online);
    if (m->has_iso && rv_cpuset_equal(&set, &m->hk)) {
        m->p->workqueue_cpumask = RV_HOST_CPUSEL_HOUSEKEEPING;
    } else {
        m->p->workqueue_cpumask = RV_HOST_CPUSEL_LIST;
        m->p->workqueue_cpus = set;
        g_free(m->p->workqueue_at);
        m->p->workqueue_at = g_strdup_printf("%s:%u", o->file, o->line);
    }
}

static void
map_sysfs_one(Map *m, const RvTunedOpt *o, const char *v)
{
    static const char * const thp[] = { "always", "madvise", "never", NULL };
    const char *path = o->key;
    g_autoptr(GMatchInfo) mi = NULL;
    g_autoptr(GRegex) mod = g_regex_new("^/sys/module/([A-Za-z0-9_-]+)/parameters/([A-Za-z0-9_-]+)$",
                                        0, 0, NULL);

    if (strcmp(path, "/sys/kernel/mm/ksm/run") == 0) {
        if (!set_opt_int(&m->p->ksm_run, v, 0, 2))
            note(m, UNMAPPED, o, "%s = '%s': ksm/run takes 0, 1 or 2; not mapped", path, v);
    } else if (strcmp(path, "/sys/kernel/mm/transparent_hugepage/enabled") == 0 &&
               g_strv_contains(thp, v)) {
        for (int i = 0; thp[i]; i++)
            if (strcmp(thp[i], v) == 0)
                m->p->thp = i;
    } else if (strcmp(path, "/sys/devices/virtual/workqueue/cpumask") == 0) {
        map_workqueue(m, o, v);
    } else if (strcmp(path, "/sys/devices/system/machinecheck/machinecheck*/ignore_ce") == 0) {
        if (!set_opt_int(&m->p->mce_ignore_ce, v, 0, 1))
            note(m, UNMAPPED, o, "%s = '%s': ignore_ce takes 0 or 1; not mapped", path, v);
    } else if (g_regex_match(mod, path, 0, &mi) && value_is_plain(v)) {
        g_autofree char *mname = g_match_info_fetch(mi, 1);
        g_autofree char *param = g_match_info_fetch(mi, 2);
        g_autofree char *key = g_strdup_printf("%s.%s", mname, param);

        add_knob(m->p->module_params, key, v, o);
    } else if (g_str_has_prefix(path, "/proc/sys/") && !strchr(path, '*')) {
        g_autofree char *name = g_strdelimit(g_strdup(path + strlen("/proc/sys/")), "/", '.');

        map_sysctl_one(m, o, name, v);
    } else if (strstr(path, "workqueue") && g_str_has_suffix(path, "cpumask")) {
        note(m, UNMAPPED, o, "%s = %s: rtvirt sets the unbound workqueue mask "
             "(/sys/devices/virtual/workqueue/cpumask, [kernel] workqueue_cpumask) only; "
             "this per-workqueue mask is not mapped", path, v);
    } else {
        note(m, UNMAPPED, o, "sysfs %s = %s has no rtvirt key; not mapped", path, v);
    }
}

static int
map_sysfs(Map *m, const RvTunedUnit *u, GError **error)
{
    for (guint i = 0; i < u->opts->len; i++) {
        const RvTunedOpt *o = u->opts->pdata[i];
        g_autofree char *v = expand(m, o, error);

        if (!v)
            return -EINVAL;
        map_sysfs_one(m, o, g_strstrip(v));
    }
    return 0;
}

/* ---- [scheduler], [cpu], [vm], [irqbalance], [main] ----------------------- */

/* group.NAME = RULE_PRIO:POLICY:PRIO:AFFINITY:REGEX for a kernel thread
 * family "^\[NAME" (plugin_scheduler.py; the realtime profiles' form) */
static void
map_group(Map *m, const RvTunedOpt *o, const char *v)
{
    g_auto(GStrv) f = g_strsplit(v, ":", 5);
    g_autoptr(GMatchInfo) mi = NULL;
    /* "^\[ksoftirqd" (tuned's realtime profiles) or "ksoftirqd.*"
     * (OpenShift's openshift-node-performance): plugin_scheduler.py
     * re.search()es the regex in the "[name]" ps shows for a kthread */
    g_autoptr(GRegex) re = g_regex_new("^(\\^?\\\\\\[)?([A-Za-z0-9_-]+)(\\.\\*)?$", 0, 0, NULL);
    RvHostKthreadPrio *k;
    gint64 prio = 0;
    int policy;

    if (g_strv_length(f) != 5 || !g_regex_match(re, f[4], 0, &mi)) {
        note(m, UNMAPPED, o, "%s = %s: only kernel thread groups '^\\[NAME' or 'NAME.*' map to [kthreads]; "
             "not mapped", o->key, v);
        return;
    }
    if (strcmp(f[1], "f") == 0)
        policy = SCHED_FIFO;
    else if (strcmp(f[1], "r") == 0)
        policy = SCHED_RR;
    else if (strcmp(f[1], "o") == 0)
        policy = SCHED_OTHER;
    else {
        note(m, UNMAPPED, o, "%s = %s: policy '%s' (only f, r, o map to [kthreads]); not mapped",
             o->key, v, f[1]);
        return;
    }
    if (policy != SCHED_OTHER && !parse_int(f[2], 1, 99, &prio)) {
        note(m, UNMAPPED, o, "%s = %s: priority '%s' is not 1-99; not mapped", o->key, v, f[2]);
        return;
    }
    if (strcmp(f[3], "*") != 0)
        note(m, APPROX, o, "%s: the affinity '%s' is not mapped (rtvirt sets the policy and "
             "priority of these threads only)", o->key, f[3]);
    k = g_new0(RvHostKthreadPrio, 1);
    k->name = g_match_info_fetch(mi, 2);
    k->policy = policy;
    k->priority = (int) prio;
    k->file = g_strdup(o->file);
    k->line = o->line;
    g_ptr_array_add(m->p->kthreads, k);
}

static int
map_scheduler(Map *m, const RvTunedUnit *u, GError **error)
{
    for (guint i = 0; i < u->opts->len; i++) {
        const RvTunedOpt *o = u->opts->pdata[i];
        g_autofree char *v = expand(m, o, error);

        if (!v)
            return -EINVAL;
        if (g_str_has_prefix(o->key, "group."))
            map_group(m, o, v);
        else if (strcmp(o->key, "isolated_cores") == 0)
            note(m, UNMAPPED, o, "[scheduler] isolated_cores = %s: tuned moves user threads off "
                 "these CPUs; rtvirt does not move threads (host check judges threads on "
                 "isolated CPUs: isolation.stray-tasks)", v);
        else
            note(m, UNMAPPED, o, "[scheduler] %s = %s has no rtvirt key; not mapped", o->key, v);
    }
    return 0;
}

/* force_latency = N | cstate.id:N | cstate.name:X | cstate.id_no_zero:N,
 * alternatives separated by '|' (plugin_cpu.py): the first plain number
 * (us) is what rtvirt can hold idle states to. */
static void
map_force_latency(Map *m, const RvTunedOpt *o, const char *v)
{
    g_auto(GStrv) alts = g_strsplit(v, "|", -1);
    bool cstate_first = false;

    for (int i = 0; alts[i]; i++) {
        gint64 us;

        if (parse_int(alts[i], 0, 10000000, &us)) {
            m->p->idle_max_latency_us.set = true;
            m->p->idle_max_latency_us.value = us;
            /* as profiles/host/rt-base.ini: a runtime limit on the isolated
             * CPUs (idle_cpus = all would also demand max_cstate boot
             * arguments, which tuned does not write) */
            m->p->idle_cpus = RV_HOST_CPUSEL_ISOLATED;
            note(m, APPROX, o, "force_latency = %s: read as [cpu] idle_max_latency_us = %s on the "
                 "isolated CPUs%s; tuned's PM QoS request (/dev/cpu_dma_latency) holds every CPU",
                 v, alts[i], cstate_first ? ", the C-state alternatives before it not mapped" : "");
            return;
        }
        cstate_first = true;
    }
    note(m, UNMAPPED, o, "force_latency = %s has no latency in us; not mapped", v);
}

static int
map_cpu(Map *m, const RvTunedUnit *u, GError **error)
{
    for (guint i = 0; i < u->opts->len; i++) {
        const RvTunedOpt *o = u->opts->pdata[i];
        g_autofree char *v = expand(m, o, error);

        if (!v)
            return -EINVAL;
        g_strstrip(v);
        if (strcmp(o->key, "governor") == 0) {
            g_auto(GStrv) alts = g_strsplit(v, "|", -1);
            int k = 0;

            while (alts[k] && !g_strv_contains(rv_host_cpufreq_governors, g_strstrip(alts[k])))
                k++;
            if (alts[k]) {
                g_free(m->p->governor);
                m->p->governor = g_strdup(alts[k]);
                if (k > 0 || alts[k + 1])
                    note(m, APPROX, o, "governor = %s: read as '%s' (tuned takes the first "
                         "governor the CPU offers)", v, alts[k]);
            } else {
                note(m, UNMAPPED, o, "governor = %s: not a cpufreq governor; not mapped", v);
            }
        } else if (strcmp(o->key, "force_latency") == 0) {
            map_force_latency(m, o, v);
        } else {
            note(m, UNMAPPED, o, "[cpu] %s = %s has no rtvirt key (firmware or power knob); "
                 "not mapped", o->key, v);
        }
    }
    return 0;
}

static int
map_vm(Map *m, const RvTunedUnit *u, GError **error)
{
    static const char * const thp[] = { "always", "madvise", "never", NULL };

    for (guint i = 0; i < u->opts->len; i++) {
        const RvTunedOpt *o = u->opts->pdata[i];
        g_autofree char *v = expand(m, o, error);
        bool bytes;

        if (!v)
            return -EINVAL;
        g_strstrip(v);
        bytes = strcmp(o->key, "dirty_bytes") == 0 || strcmp(o->key, "dirty_background_bytes") == 0;
        if ((strcmp(o->key, "transparent_hugepages") == 0 ||
             strcmp(o->key, "transparent_hugepage") == 0) && g_strv_contains(thp, v)) {
            for (int k = 0; thp[k]; k++)
                if (strcmp(thp[k], v) == 0)
                    m->p->thp = k;
        } else if (bytes && g_str_has_suffix(v, "%")) {
            /* tuned writes "N%" as the matching *_ratio sysctl */
            g_autofree char *n = g_strndup(v, strlen(v) - 1);
            g_autofree char *ratio = g_strdup_printf("vm.%s", o->key);

            memcpy(strstr(ratio, "bytes"), "ratio", 5);
            map_sysctl_one(m, o, ratio, n);
        } else if (bytes || strcmp(o->key, "dirty_ratio") == 0 ||
                   strcmp(o->key, "dirty_background_ratio") == 0) {
            g_autofree char *name = g_strdup_printf("vm.%s", o->key);

            map_sysctl_one(m, o, name, v);
        } else {
            note(m, UNMAPPED, o, "[vm] %s = %s has no rtvirt key; not mapped", o->key, v);
        }
    }
    return 0;
}

static int
map_irqbalance(Map *m, const RvTunedUnit *u, GError **error)
{
    for (guint i = 0; i < u->opts->len; i++) {
        const RvTunedOpt *o = u->opts->pdata[i];
        g_autofree char *v = expand(m, o, error);
        RvCpuSet banned;

        if (!v)
            return -EINVAL;
        rv_tuned_cpulist_unpack(v, &banned);
        if (strcmp(o->key, "banned_cpus") != 0 || rv_cpuset_is_empty(&banned)) {
            note(m, UNMAPPED, o, "[irqbalance] %s = %s has no rtvirt key; not mapped", o->key, v);
            continue;
        }
        if (m->has_iso && rv_cpuset_equal(&banned, &m->iso)) {
            m->p->irq_affinity = RV_HOST_CPUSEL_HOUSEKEEPING;
        } else {
            m->p->irq_affinity = RV_HOST_CPUSEL_LIST;
            rv_cpuset_andnot(&m->p->irq_cpus, &m->topo->online, &banned);
            g_free(m->p->irq_at);
            m->p->irq_at = g_strdup_printf("%s:%u", o->file, o->line);
        }
        note(m, APPROX, o, "[irqbalance] banned_cpus = %s: read as [kernel] irq_affinity (the "
             "IRQs kept off those CPUs); tuned tells irqbalance, rtvirt moves the IRQs itself "
             "and judges a running irqbalance (irq.irqbalance)", v);
    }
    return 0;
}

/* [script] script = FILE: what tuned's own profile scripts do through
 * /usr/lib/tuned/functions, where rtvirt has a key for it.  Sources:
 * tuned profiles/realtime-virtual-host/script.sh and cpu-partitioning/
 * script.sh start(); functions setup_kvm_mod_low_latency() (writes
 * "options kvm kvmclock_periodic_sync=0", "options kvm nx_huge_pages=0"
 * and "options kvm_intel ple_gap=0" to /etc/modprobe.d/kvm.rt.tuned.conf
 * for the parameters the modules have: in effect once the modules are
 * reloaded; realtime-virtual-host's verify() checks the same three) and
 * disable_ksm() (masks ksm/ksmtuned, writes 2 to /sys/kernel/mm/ksm/run).
 * Any other script is a NOTE tuned.unmapped. */
static void
map_script_file(Map *m, const RvTunedOpt *o, const char *path)
{
    static const char * const kvm[][2] = {
        { "kvm.kvmclock_periodic_sync", "0" }, { "kvm.nx_huge_pages", "0" }, { "kvm_intel.ple_gap", "0" },
    };
    g_autofree char *text = NULL;
    bool known = false;

    if (rv_file_read(path, RV_FILE_READ_MAX, &text, NULL) < 0) {
        note(m, UNMAPPED, o, "[script] %s could not be read: what it does is not mapped", path);
        return;
    }
    if (strstr(text, "setup_kvm_mod_low_latency")) {
        for (size_t i = 0; i < G_N_ELEMENTS(kvm); i++)
            add_knob(m->p->module_params, kvm[i][0], kvm[i][1], o);
        note(m, APPROX, o, "[script] %s calls setup_kvm_mod_low_latency: read as [modules] "
             "kvm.kvmclock_periodic_sync = 0, kvm.nx_huge_pages = 0, kvm_intel.ple_gap = 0 (tuned "
             "writes them to /etc/modprobe.d/kvm.rt.tuned.conf: in effect after the modules reload)",
             path);
        known = true;
    }
    if (strstr(text, "disable_ksm")) {
        if (!m->p->ksm_run.set) {
            m->p->ksm_run.set = true;
            m->p->ksm_run.value = 2;
        }
        note(m, APPROX, o, "[script] %s calls disable_ksm: read as [mm] ksm_run = 2 (tuned also "
             "masks the ksm and ksmtuned services)", path);
        known = true;
    }
    if (!known)
        note(m, UNMAPPED, o, "[script] %s: a script rtvirt does not know; not mapped", path);
}

static int
map_script(Map *m, const RvTunedUnit *u, GError **error)
{
    for (guint i = 0; i < u->opts->len; i++) {
        const RvTunedOpt *o = u->opts->pdata[i];
        g_autofree char *v = expand(m, o, error);

        if (!v)
            return -EINVAL;
        g_strstrip(v);
        if (strcmp(o->key, "script") == 0 && g_path_is_absolute(v))
            map_script_file(m, o, v);
        else if (strcmp(o->key, "priority") != 0)
            note(m, UNMAPPED, o, "[script] %s = %s has no rtvirt key; not mapped", o->key, v);
    }
    return 0;
}

/* [modules] MODULE = [+r[,]] PARAM=VALUE ... (plugin_modules.py) */
static int
map_modules(Map *m, const RvTunedUnit *u, GError **error)
{
    for (guint i = 0; i < u->opts->len; i++) {
        const RvTunedOpt *o = u->opts->pdata[i];
        g_autofree char *v = expand(m, o, error);
        g_autoptr(GRegex) re = g_regex_new("^\\s*\\+r\\s*,?\\s*", 0, 0, NULL);
        g_autofree char *rest = NULL;
        g_auto(GStrv) words = NULL;

        if (!v)
            return -EINVAL;
        rest = g_regex_replace(re, v, -1, 0, "", 0, NULL);
        words = g_strsplit_set(rest, " \t", -1);
        for (int k = 0; words[k]; k++) {
            char *eq = strchr(words[k], '=');
            g_autofree char *key = NULL;

            if (!*words[k])
                continue;
            if (!eq || eq == words[k] || !eq[1] || !g_regex_match_simple("^[A-Za-z0-9_-]+$", o->key, 0, 0)) {
                note(m, UNMAPPED, o, "[modules] %s: '%s' is not PARAM=VALUE; not mapped", o->key,
                     words[k]);
                continue;
            }
            *eq = '\0';
            key = g_strdup_printf("%s.%s", o->key, words[k]);
            add_knob(m->p->module_params, key, eq + 1, o);
        }
    }
    return 0;
}

/* [variables] NAME = N (1-4096), a per-socket core count of the rtvirt
 * profile export-tuned wrote, into *@ret (untouched where absent): the
 * intent is per socket, isolated_cores only its result on one host, so
 * the explicit lists go */
static int
var_cores_per_socket(Map *m, const char *name, unsigned *ret, GError **error)
{
    const char *v = g_hash_table_lookup(m->x.vars, name);
    gint64 n;

    if (!v)
        return 0;
    if (!g_ascii_string_to_signed(v, 10, 1, 4096, &n, NULL))
        return rv_error_set(error, RV_ERROR_INVALID, EINVAL, "%s: invalid %s '%s': expected "
                            "1-4096", (char *) g_hash_table_lookup(m->var_at, name), name, v);
    m->p->has_isolated = m->p->has_housekeeping = false;
    *ret = (unsigned) n;
    return 0;
}

/* what `rtvirt host export-tuned` carries in [variables] for the keys tuned
 * has no plugin for */
static int
map_rtvirt_variables(Map *m, GError **error)
{
    const char *v;
    int r;

    if ((r = var_cores_per_socket(m, "rtvirt_housekeeping_cores_per_socket",
                                  &m->p->housekeeping_cores_per_socket, error)) < 0 ||
        (r = var_cores_per_socket(m, "rtvirt_isolated_cores_per_socket",
                                  &m->p->isolated_cores_per_socket, error)) < 0)
        return r;
    for (int i = 0; i < 4; i++) {
        static const char * const smt[] = { "keep", "off-boot", "off-runtime", "idle-siblings" };
        static const char * const cs[] = { "off", "preferred", "required", NULL };

        if ((v = g_hash_table_lookup(m->x.vars, "rtvirt_smt")) && strcmp(v, smt[i]) == 0)
            m->p->smt = i;
        if (cs[i] && (v = g_hash_table_lookup(m->x.vars, "rtvirt_core_scheduling")) &&
            strcmp(v, cs[i]) == 0)
            m->p->core_scheduling = i;
    }
    if ((v = g_hash_table_lookup(m->x.vars, "rtvirt_idle_cpus")) && strcmp(v, "all") == 0)
        m->p->idle_cpus = RV_HOST_CPUSEL_ALL;
    if ((v = g_hash_table_lookup(m->x.vars, "rtvirt_libvirt_sched_core")))
        m->p->libvirt_sched_core = g_strdup(v);
    if ((v = g_hash_table_lookup(m->x.vars, "rtvirt_libvirt_cgroup_controllers")))
        m->p->libvirt_cgroup_controllers = g_strsplit(v, ",", -1);
    if ((v = g_hash_table_lookup(m->x.vars, "rtvirt_qemu_conf")) && g_path_is_absolute(v)) {
        g_free(m->p->qemu_conf);
        m->p->qemu_conf = g_strdup(v);
    }
    return 0;
}

static void
map_main(Map *m, const RvTunedUnit *u)
{
    for (guint i = 0; i < u->opts->len; i++) {
        const RvTunedOpt *o = u->opts->pdata[i];

        if (strcmp(o->key, "summary") == 0) {
            g_free(m->p->summary);
            m->p->summary = g_strdup(o->value);
        } else {
            note(m, UNMAPPED, o, "[main] %s = %s has no rtvirt key; not mapped", o->key,
                 o->value ? o->value : "");
        }
    }
}

static int
map_unit(Map *m, const RvTunedUnit *u, GError **error)
{
    static const struct {
        const char *name;
        int (*fn)(Map *, const RvTunedUnit *, GError **);
    } maps[] = {
        { "bootloader", map_bootloader }, { "sysctl", map_sysctl }, { "sysfs", map_sysfs },
        { "scheduler", map_scheduler }, { "cpu", map_cpu }, { "vm", map_vm },
        { "irqbalance", map_irqbalance }, { "modules", map_modules }, { "script", map_script },
    };
    const RvTunedOpt *en = rv_tuned_opt(u, "enabled");
    RvTunedOpt head = { .file = u->file, .line = u->line };

    if (strcmp(u->name, "main") == 0) {
        map_main(m, u);
        return 0;
    }
    if (strcmp(u->name, "variables") == 0)
        return 0;
    if (en && en->value && (g_ascii_strcasecmp(en->value, "false") == 0 || strcmp(en->value, "0") == 0)) {
        note(m, UNMAPPED, en, "[%s] is disabled (enabled = %s): nothing of it is mapped",
             u->name, en->value);
        return 0;
    }
    for (size_t i = 0; i < G_N_ELEMENTS(maps); i++)
        if (strcmp(u->name, maps[i].name) == 0)
            return maps[i].fn(m, u, error);
    if (u->opts->len == 0)
        note(m, UNMAPPED, &head, "[%s] (tuned's %s plugin) has no rtvirt key; not mapped",
             u->name, u->name);
    for (guint i = 0; i < u->opts->len; i++) {
        const RvTunedOpt *o = u->opts->pdata[i];

        note(m, UNMAPPED, o, "[%s] %s = %s (tuned's %s plugin) has no rtvirt key; not mapped",
             u->name, o->key, o->value ? o->value : "", u->name);
    }
    return 0;
}

/* ---- entry point ---------------------------------------------------------- */

static char *
profile_name(const char *path)
{
    g_autofree char *clean = g_canonicalize_filename(path, NULL);

    if (!g_file_test(clean, G_FILE_TEST_IS_DIR)) {
        g_autofree char *dir = g_path_get_dirname(clean);

        return g_path_get_basename(dir);
    }
    return g_path_get_basename(clean);
}

static void
map_clear(Map *m)
{
    rv_tuned_expand_clear(&m->x);
    g_clear_pointer(&m->var_at, g_hash_table_unref);
    g_clear_pointer(&m->topo, rv_host_topology_free);
}

static int
load(Map *m, const char *path, GError **error)
{
    g_autoptr(RvTunedConf) conf = NULL;
    int r;

    r = rv_host_topology_load(m->root, &m->topo, error);
    if (r < 0)
        return r;
    m->p->nr_cpu_ids = m->topo->nr_cpu_ids;
    rv_tuned_expand_init(&m->x, m->root, m->topo, m->p);
    m->var_at = g_hash_table_new_full(g_str_hash, g_str_equal, g_free, g_free);
    r = rv_tuned_load_merged(path, &conf, error);
    if (r < 0)
        return r;
    for (guint i = 0; i < conf->files->len; i++)
        g_ptr_array_add(m->p->files, g_strdup(conf->files->pdata[i]));
    r = load_variables(m, rv_tuned_unit(conf, "variables"), error);
    if (r < 0)
        return r;
    partition_from_variables(m);
    if (map_rtvirt_variables(m, error) < 0)
        return -EINVAL;
    for (guint i = 0; i < conf->units->len; i++) {
        r = map_unit(m, conf->units->pdata[i], error);
        if (r < 0)
            return r;
    }
    {
        g_autofree char *iso = m->has_iso ? rv_cpulist_format(&m->iso) : NULL;
        const char *at = g_hash_table_lookup(m->var_at, "isolated_cores");

        rv_host_profile_add_note(m->p, "tuned.profile", conf->files->pdata[0], 0,
                                 "read as a tuned profile (%u file%s, includes merged); "
                                 "isolated_cores = %s%s%s", m->p->files->len,
                                 m->p->files->len == 1 ? "" : "s", iso ? iso : "(not set)",
                                 at ? " from " : "", at ? at : "");
    }
    return 0;
}

int
rv_host_tuned_load(RvRoot *root, const char *path, RvHostProfile **ret, GError **error)
{
    g_autoptr(RvHostProfile) p = rv_host_profile_new(path);
    Map m = { .root = root, .p = p };
    int r;

    g_free(p->name);
    p->name = profile_name(path);
    p->origin = g_strdup("tuned");
    r = load(&m, path, error);
    map_clear(&m);
    if (r < 0)
        return r;
    *ret = g_steal_pointer(&p);
    return 0;
}
