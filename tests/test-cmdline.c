/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * tests/test-cmdline.c: kernel command lines parsed against the machine
 * they boot, one test per tests/data/cmdline/<key>.facts: the line (a case
 * of tests/data/cases/cmdline, or one given inline), the facts its
 * .source.txt (or the kernel source) states, checked one by one, and
 * where tests/data/cmdline/<key>.expected exists the whole parse compared
 * with it (RV_REGENERATE=1 rewrites those).  A new case is a fixture plus a
 * .facts file (and an .expected), without new C; every case must be named
 * by a .facts file and every .facts file's case must exist.
 *
 * A .facts file: directives first, then one fact per line, '#' comments.
 *   @case NAME         the line of tests/data/cases/cmdline/NAME (see case_cmdline())
 *   @line N            the N-th line of that file (1-based), not all of it
 *   @cmdline TEXT      the line itself, instead of @case
 *   @nr-cpu-ids N      possible CPUs of the machine (0 = unknown)
 *   @boot-cpu N        the boot CPU (default 0)
 * Facts are "KEY VALUE" or "KEY ARG VALUE"; VALUE is the rest of the line,
 * compared as text; CPU sets as rv_cpulist_format() writes them, "(empty)"
 * for none; NULL strings as "(absent)"; booleans yes|no:
 *   text TEXT, text-has TEXT          the command line as parsed (exact, substring)
 *   params N, problems N, hugepages.count N
 *   problem-has TEXT                  some problem contains TEXT
 *   housekeeping LIST
 *   L.effective|requested LIST, L.value TEXT, L.ignored|present yes|no,
 *   L.count N, L.parse_error 0|-EINVAL|-ERANGE, L.note-has TEXT,
 *   L.isset CPU yes|no, L.within RANGE LIST (effective CPUs inside RANGE)
 *       for L = isolcpus, nohz_full, rcu_nocbs, irqaffinity, kthread_cpus
 *   isolcpus.flags WORDS              "domain nohz managed_irq" in that order
 *   unknown-flag I NAME, init-arg I WORD
 *   nosmt no|yes|force, skew_tick N, processor.max_cstate N,
 *   intel_idle.max_cstate N (-1 = absent), rcu_nocb_poll|nosoftlockup|threadirqs yes|no
 *   idle|intel_pstate|amd_pstate|tsc|mitigations|nohz|transparent_hugepage|
 *   numa_balancing|nmi_watchdog|preempt|default_hugepagesz TEXT
 *   get NAME VALUE                    rv_host_cmdline_get() (last value, "" bare)
 *   hugepages I SIZE COUNT            SIZE "(default)" for the default size
 *   param.known NAME yes|no, param.suggestion NAME TEXT   (last NAME)
 */
#include <errno.h>
#include <string.h>

#include "host/facts/cmdline.h"
#include "util/error.h"
#include "tests/testutil.h"

/* The kernel command line a case file stands for: a .cmdline as is, a Nix
 * list's quoted strings joined with spaces (NixOS boot.kernelParams), a
 * MachineConfig's spec.kernelArguments items joined (OpenShift). */
static char *
case_cmdline(const char *name)
{
    g_autofree char *path = g_build_filename(rv_test_cases_dir(), "cmdline", name, NULL);
    g_autofree char *text = NULL;
    g_autoptr(GError) err = NULL;
    g_auto(GStrv) lines = NULL;
    g_autoptr(GPtrArray) words = g_ptr_array_new_with_free_func(g_free);
    bool in_args = false;

    g_file_get_contents(path, &text, NULL, &err);
    g_assert_no_error(err);
    if (!g_str_has_suffix(name, ".nix") && !g_str_has_suffix(name, ".yaml"))
        return g_steal_pointer(&text);
    lines = g_strsplit(text, "\n", -1);
    for (guint i = 0; lines[i]; i++) {
        g_autofree char *l = g_strstrip(g_strdup(lines[i]));

        if (g_str_has_suffix(name, ".nix")) {
            if (l[0] == '"' && g_str_has_suffix(l, "\"") && strlen(l) >= 2)
                g_ptr_array_add(words, g_strndup(l + 1, strlen(l) - 2));
        } else {
            if (g_str_has_prefix(l, "kernelArguments:")) {
                in_args = true;
                continue;
            }
            if (in_args && g_str_has_prefix(l, "- "))
                g_ptr_array_add(words, g_strdup(g_strstrip(l + 2)));
            else if (in_args && *l)
                in_args = false;
        }
    }
    g_ptr_array_add(words, NULL);
    return g_strjoinv(" ", (char **) words->pdata);
}

static const char *
yes_no(bool b)
{
    return b ? "yes" : "no";
}

static char *
set_text(const RvCpuSet *set)
{
    char *s = rv_cpulist_format(set);

    if (*s)
        return s;
    g_free(s);
    return g_strdup("(empty)");
}

static char *
str_text(const char *s)
{
    return g_strdup(s ? s : "(absent)");
}

static const RvCmdlineCpus *
cpus_field(const RvCmdline *cmd, const char *name)
{
    if (!strcmp(name, "isolcpus")) return &cmd->isolcpus;
    if (!strcmp(name, "nohz_full")) return &cmd->nohz_full;
    if (!strcmp(name, "rcu_nocbs")) return &cmd->rcu_nocbs;
    if (!strcmp(name, "irqaffinity")) return &cmd->irqaffinity;
    if (!strcmp(name, "kthread_cpus")) return &cmd->kthread_cpus;
    return NULL;
}

/* L.what [ARG] for a cpulist parameter; NULL for an unknown what */
static char *
cpus_fact(const RvCmdlineCpus *c, const char *where, const char *what, const char *arg,
          const char *want)
{
    if (!strcmp(what, "effective")) return set_text(&c->effective);
    if (!strcmp(what, "requested")) return set_text(&c->requested);
    if (!strcmp(what, "value")) return str_text(c->value);
    if (!strcmp(what, "ignored")) return g_strdup(yes_no(c->ignored));
    if (!strcmp(what, "present")) return g_strdup(yes_no(c->present));
    if (!strcmp(what, "count")) return g_strdup_printf("%u", rv_cpuset_count(&c->effective));
    if (!strcmp(what, "parse_error"))
        return g_strdup(c->parse_error == -EINVAL ? "-EINVAL" : c->parse_error == -ERANGE ? "-ERANGE"
                        : c->parse_error == 0 ? "0" : "(other)");
    if (!strcmp(what, "note-has"))
        return g_strdup(c->note && strstr(c->note, want) ? want : c->note ? c->note : "(no note)");
    if (arg && !strcmp(what, "isset"))
        return g_strdup(yes_no(rv_cpuset_isset(&c->effective, rv_test_fact_uint(where, arg))));
    if (arg && !strcmp(what, "within")) {
        g_autoptr(GError) err = NULL;
        RvCpuSet range, in;

        g_assert_cmpint(rv_cpulist_parse(arg, 0, &range, &err), ==, 0);
        rv_cpuset_and(&in, &c->effective, &range);
        return set_text(&in);
    }
    return NULL;
}

static const RvCmdlineParam *
param_named(const RvCmdline *cmd, const char *name)
{
    const RvCmdlineParam *found = NULL;

    for (guint i = 0; i < cmd->params->len; i++)
        if (!strcmp(g_array_index(cmd->params, RvCmdlineParam, i).name, name))
            found = &g_array_index(cmd->params, RvCmdlineParam, i);
    return found;
}

/* Keys that take an ARG before the VALUE. */
static bool
fact_has_arg(const char *key)
{
    static const char *const with_arg[] = {
        "get", "hugepages", "unknown-flag", "init-arg", "param.known", "param.suggestion",
    };
    const char *dot = strchr(key, '.');

    for (size_t i = 0; i < G_N_ELEMENTS(with_arg); i++)
        if (!strcmp(key, with_arg[i]))
            return true;
    return dot && (!strcmp(dot, ".isset") || !strcmp(dot, ".within"));
}

/* What the parse says for @key (with @arg where fact_has_arg()); @text is
 * the line parsed; NULL for an unknown key. */
static char *
fact_value(const RvCmdline *cmd, const char *text, const char *where, const char *key,
           const char *arg, const char *want)
{
    static const struct { const char *key; size_t off; } strs[] = {
        { "idle", G_STRUCT_OFFSET(RvCmdline, idle) },
        { "intel_pstate", G_STRUCT_OFFSET(RvCmdline, intel_pstate) },
        { "amd_pstate", G_STRUCT_OFFSET(RvCmdline, amd_pstate) },
        { "tsc", G_STRUCT_OFFSET(RvCmdline, tsc) },
        { "mitigations", G_STRUCT_OFFSET(RvCmdline, mitigations) },
        { "nohz", G_STRUCT_OFFSET(RvCmdline, nohz) },
        { "transparent_hugepage", G_STRUCT_OFFSET(RvCmdline, transparent_hugepage) },
        { "numa_balancing", G_STRUCT_OFFSET(RvCmdline, numa_balancing) },
        { "nmi_watchdog", G_STRUCT_OFFSET(RvCmdline, nmi_watchdog) },
        { "preempt", G_STRUCT_OFFSET(RvCmdline, preempt) },
        { "default_hugepagesz", G_STRUCT_OFFSET(RvCmdline, default_hugepagesz) },
    };
    const char *dot = strchr(key, '.');

    for (size_t i = 0; i < G_N_ELEMENTS(strs); i++)
        if (!strcmp(key, strs[i].key))
            return str_text(G_STRUCT_MEMBER(const char *, cmd, strs[i].off));
    if (!strcmp(key, "text")) return g_strdup(text);
    if (!strcmp(key, "text-has")) return g_strdup(strstr(text, want) ? want : text);
    if (!strcmp(key, "params")) return g_strdup_printf("%u", cmd->params->len);
    if (!strcmp(key, "problems")) return g_strdup_printf("%u", cmd->problems->len);
    if (!strcmp(key, "hugepages.count")) return g_strdup_printf("%u", cmd->hugepages->len);
    if (!strcmp(key, "problem-has")) {
        for (guint i = 0; i < cmd->problems->len; i++)
            if (strstr(cmd->problems->pdata[i], want))
                return g_strdup(want);
        return g_strdup("(no such problem)");
    }
    if (!strcmp(key, "housekeeping")) return set_text(&cmd->housekeeping);
    if (!strcmp(key, "isolcpus.flags"))
        return g_strstrip(g_strdup_printf("%s%s%s",
                                          cmd->isolcpus_flags & RV_ISOL_DOMAIN ? "domain " : "",
                                          cmd->isolcpus_flags & RV_ISOL_NOHZ ? "nohz " : "",
                                          cmd->isolcpus_flags & RV_ISOL_MANAGED_IRQ ? "managed_irq" : ""));
    if (!strcmp(key, "nosmt")) return g_strdup(cmd->nosmt == 2 ? "force" : cmd->nosmt ? "yes" : "no");
    if (!strcmp(key, "skew_tick")) return g_strdup_printf("%d", cmd->skew_tick);
    if (!strcmp(key, "processor.max_cstate")) return g_strdup_printf("%d", cmd->processor_max_cstate);
    if (!strcmp(key, "intel_idle.max_cstate")) return g_strdup_printf("%d", cmd->intel_idle_max_cstate);
    if (!strcmp(key, "rcu_nocb_poll")) return g_strdup(yes_no(cmd->rcu_nocb_poll));
    if (!strcmp(key, "nosoftlockup")) return g_strdup(yes_no(cmd->nosoftlockup));
    if (!strcmp(key, "threadirqs")) return g_strdup(yes_no(cmd->threadirqs));
    if (!strcmp(key, "get")) return str_text(rv_host_cmdline_get(cmd, arg));
    if (!strcmp(key, "hugepages")) {
        const RvCmdlineHugepages *h;
        unsigned i = rv_test_fact_uint(where, arg);

        if (i >= cmd->hugepages->len)
            return g_strdup("(no such entry)");
        h = &g_array_index(cmd->hugepages, RvCmdlineHugepages, i);
        return g_strdup_printf("%s %" G_GINT64_FORMAT, h->size ? h->size : "(default)", h->count);
    }
    if (!strcmp(key, "unknown-flag")) {
        unsigned i = rv_test_fact_uint(where, arg);

        return str_text(cmd->isolcpus_unknown_flags && i < g_strv_length(cmd->isolcpus_unknown_flags)
                        ? cmd->isolcpus_unknown_flags[i] : NULL);
    }
    if (!strcmp(key, "init-arg")) {
        unsigned i = rv_test_fact_uint(where, arg);

        return str_text(i < g_strv_length(cmd->init_args) ? cmd->init_args[i] : NULL);
    }
    if (!strcmp(key, "param.known") || !strcmp(key, "param.suggestion")) {
        const RvCmdlineParam *p = param_named(cmd, arg);

        if (!p)
            return g_strdup("(no such parameter)");
        return !strcmp(key, "param.known") ? g_strdup(yes_no(p->known)) : str_text(p->suggestion);
    }
    if (dot) {
        g_autofree char *list = g_strndup(key, dot - key);
        const RvCmdlineCpus *c = cpus_field(cmd, list);

        if (c)
            return cpus_fact(c, where, dot + 1, arg, want);
    }
    return NULL;
}

/* A parse as a .facts file describes it. */
typedef struct {
    char *key;               /* the file's name without ".facts" */
    char *path;
    char *case_name;         /* @case, or NULL */
    char *text;              /* the line parsed */
    unsigned nr_cpu_ids, boot_cpu;
    GPtrArray *facts;        /* char *: "FILE:LINE\tfact", in order */
} FactsFile;

static void
facts_file_free(FactsFile *f)
{
    g_free(f->key);
    g_free(f->path);
    g_free(f->case_name);
    g_free(f->text);
    g_ptr_array_unref(f->facts);
    g_free(f);
}

static FactsFile *
facts_file_load(const char *dir, const char *file)
{
    FactsFile *f = g_new0(FactsFile, 1);
    g_autofree char *content = NULL;
    g_auto(GStrv) lines = NULL;
    int line_no = 0;

    f->key = g_strndup(file, strlen(file) - strlen(".facts"));
    f->path = g_build_filename(dir, file, NULL);
    f->facts = g_ptr_array_new_with_free_func(g_free);
    content = rv_test_read_file(f->path);
    lines = g_strsplit(content, "\n", -1);
    for (guint ln = 0; lines[ln]; ln++) {
        const char *l = lines[ln];
        g_autofree char *where = g_strdup_printf("%s:%u", f->path, ln + 1);

        if (!*l || l[0] == '#')
            continue;
        if (g_str_has_prefix(l, "@case "))
            f->case_name = g_strdup(l + 6);
        else if (g_str_has_prefix(l, "@cmdline "))
            f->text = g_strdup(l + 9);
        else if (g_str_has_prefix(l, "@line "))
            line_no = (int) rv_test_fact_uint(where, l + 6);
        else if (g_str_has_prefix(l, "@nr-cpu-ids "))
            f->nr_cpu_ids = rv_test_fact_uint(where, l + 12);
        else if (g_str_has_prefix(l, "@boot-cpu "))
            f->boot_cpu = rv_test_fact_uint(where, l + 10);
        else if (l[0] == '@')
            g_error("%s: unknown directive '%s'", where, l);
        else
            g_ptr_array_add(f->facts, g_strdup_printf("%s\t%s", where, l));
    }
    if (!f->case_name == !f->text)
        g_error("%s: needs exactly one of @case and @cmdline", f->path);
    if (f->case_name) {
        g_autofree char *all = case_cmdline(f->case_name);

        if (line_no > 0) {
            g_auto(GStrv) cl = g_strsplit(g_strchomp(all), "\n", -1);

            g_assert_cmpuint(line_no, <=, g_strv_length(cl));
            f->text = g_strdup(cl[line_no - 1]);
        } else {
            f->text = g_steal_pointer(&all);
        }
    }
    return f;
}

static void
check_fact(const RvCmdline *cmd, const char *text, const char *entry)
{
    const char *tab = strchr(entry, '\t');
    g_autofree char *where = g_strndup(entry, tab - entry);
    const char *fact = tab + 1, *sp = strchr(fact, ' ');
    g_autofree char *key = NULL, *arg = NULL, *got = NULL;
    const char *want;

    if (!sp)
        g_error("%s: not 'KEY [ARG] VALUE': '%s'", where, fact);
    key = g_strndup(fact, sp - fact);
    want = sp + 1;
    if (fact_has_arg(key)) {
        const char *sp2 = strchr(want, ' ');

        if (!sp2)
            g_error("%s: '%s' needs an argument and a value", where, fact);
        arg = g_strndup(want, sp2 - want);
        want = sp2 + 1;
    }
    got = fact_value(cmd, text, where, key, arg, want);
    if (!got)
        g_error("%s: unknown fact '%s'", where, fact);
    if (strcmp(got, want))
        g_test_message("%s: %s: the parser gives '%s'", where, fact, got);
    g_assert_cmpstr(got, ==, want);
}

static void
test_facts(gconstpointer data)
{
    const FactsFile *f = data;
    g_autoptr(RvCmdline) cmd = NULL;
    g_autoptr(GError) err = NULL;
    g_autofree char *exp_path = g_strdup_printf("%s/tests/data/cmdline/%s.expected",
                                                rv_test_top_dir(), f->key);

    g_assert_cmpint(rv_host_cmdline_parse_full(f->text, f->nr_cpu_ids, f->boot_cpu, &cmd, &err), ==, 0);
    g_assert_no_error(err);
    g_assert_cmpuint(f->facts->len, >, 0);
    for (guint i = 0; i < f->facts->len; i++)
        check_fact(cmd, f->text, f->facts->pdata[i]);
    /* a case's parse has its golden file; an inline rule may */
    if (f->case_name || g_file_test(exp_path, G_FILE_TEST_EXISTS)) {
        g_autofree char *got = rv_host_cmdline_format(cmd);

        rv_test_compare_expected(exp_path, got);
    }
}

static GPtrArray *
facts_files(void)
{
    g_autofree char *dir = g_build_filename(rv_test_top_dir(), "tests", "data", "cmdline", NULL);
    g_autoptr(GDir) d = g_dir_open(dir, 0, NULL);
    g_autoptr(GPtrArray) names = g_ptr_array_new_with_free_func(g_free);
    GPtrArray *files = g_ptr_array_new_with_free_func((GDestroyNotify) facts_file_free);

    g_assert_nonnull(d);
    for (const char *n; (n = g_dir_read_name(d));)
        if (g_str_has_suffix(n, ".facts"))
            g_ptr_array_add(names, g_strdup(n));
    g_ptr_array_sort(names, rv_test_cmp_names);
    for (guint i = 0; i < names->len; i++)
        g_ptr_array_add(files, facts_file_load(dir, names->pdata[i]));
    return files;
}

/* Every case is some .facts file's @case, every @case a case, and every
 * .expected file belongs to a .facts file. */
static void
test_cases_covered(gconstpointer data)
{
    const GPtrArray *files = data;
    g_autoptr(GPtrArray) names = rv_test_case_names("cmdline");
    g_autofree char *dir = g_build_filename(rv_test_top_dir(), "tests", "data", "cmdline", NULL);
    g_autoptr(GDir) d = g_dir_open(dir, 0, NULL);

    for (guint k = 0; k < names->len; k++) {
        bool found = false;

        for (guint i = 0; i < files->len; i++) {
            const FactsFile *f = files->pdata[i];
            found = found || g_strcmp0(f->case_name, names->pdata[k]) == 0;
        }
        if (!found)
            g_test_message("cmdline case without a .facts file: %s", (char *) names->pdata[k]);
        g_assert_true(found);
    }
    for (guint i = 0; i < files->len; i++) {
        const FactsFile *f = files->pdata[i];
        bool found = !f->case_name;

        for (guint k = 0; k < names->len && !found; k++)
            found = strcmp(f->case_name, names->pdata[k]) == 0;
        if (!found)
            g_test_message("%s: no such case '%s'", f->path, f->case_name);
        g_assert_true(found);
    }
    g_assert_nonnull(d);
    for (const char *n; (n = g_dir_read_name(d));) {
        g_autofree char *key = NULL;
        bool found = false;

        if (!g_str_has_suffix(n, ".expected"))
            continue;
        key = g_strndup(n, strlen(n) - strlen(".expected"));
        for (guint i = 0; i < files->len; i++)
            found = found || strcmp(((const FactsFile *) files->pdata[i])->key, key) == 0;
        if (!found)
            g_test_message("expected file without a .facts file: %s", n);
        g_assert_true(found);
    }
}

/* Line 2 of the kernel doc's examples: foo_cpus= is the doc's placeholder,
 * no kernel parameter; its list is cpulist syntax all the same. */
static void
test_kernel_doc_placeholder(void)
{
    g_autofree char *text = case_cmdline("kernel-doc-cpulist-syntax-examples.txt");
    g_auto(GStrv) lines = g_strsplit(g_strchomp(text), "\n", -1);
    g_autoptr(RvCmdline) cmd = NULL;
    g_autoptr(GError) err = NULL;
    const RvCmdlineParam *p;
    RvCpuSet set;
    g_autofree char *l = NULL;

    g_assert_cmpuint(g_strv_length(lines), ==, 4);
    g_assert_cmpint(rv_host_cmdline_parse(lines[1], 32, &cmd, &err), ==, 0);
    p = &g_array_index(cmd->params, RvCmdlineParam, 0);
    g_assert_false(p->known);
    g_assert_cmpint(rv_cpulist_parse(p->value, 32, &set, NULL), ==, 0);
    l = rv_cpulist_format(&set);
    g_assert_cmpstr(l, ==, "16-31");
    g_assert_cmpint(rv_cpulist_parse(p->value, 4, &set, &err), ==, -EINVAL);
    g_assert_nonnull(strstr(err->message, "start > end"));
}

int
main(int argc, char **argv)
{
    g_autoptr(GPtrArray) files = NULL;

    g_test_init(&argc, &argv, NULL);
    files = facts_files();
    g_test_add_data_func("/cmdline/cases-covered", files, test_cases_covered);
    g_test_add_func("/cmdline/kernel-doc-placeholder", test_kernel_doc_placeholder);
    for (guint i = 0; i < files->len; i++) {
        const FactsFile *f = files->pdata[i];
        g_autofree char *path = g_strdup_printf("/cmdline/facts/%s", f->key);

        g_test_add_data_func(path, f, test_facts);
    }
    return g_test_run();
}
