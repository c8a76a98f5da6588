/* SPDX-License-Identifier: GPL-2.0-or-later */
/* tests/test-ini.c: profile loader: include=, overrides, typed getters,
 * and errors that name file and line. */
#include <errno.h>
#include <string.h>

#include "util/error.h"
#include "util/ini.h"
#include "tests/testutil.h"

static char *
data(const char *name)
{
    return rv_test_data_path("ini", name);
}

static void
test_include_override(void)
{
    g_autofree char *p = data("child.ini");
    g_autoptr(RvIni) ini = NULL;
    g_autoptr(GError) err = NULL;
    RvCpuSet set;
    guint64 us = 0, bytes = 0;
    bool fifo = false;

    g_assert_cmpint(rv_ini_load(p, &ini, &err), ==, 0);
    g_assert_no_error(err);
    g_assert_cmpuint(rv_ini_files(ini)->len, ==, 2);
    g_assert_cmpstr(rv_ini_get(ini, "main", "summary"), ==, "child");
    g_assert_cmpstr(rv_ini_get(ini, "cpu", "governor"), ==, "performance");
    g_assert_cmpint(rv_ini_get_cpulist(ini, "cpu", "isolated", 4, &set, &err), ==, 0);
    g_assert_cmpuint(rv_cpuset_count(&set), ==, 3);
    g_assert_cmpint(rv_ini_get_duration_us(ini, "cpu", "period", &us, &err), ==, 0);
    g_assert_cmpuint(us, ==, 10000);
    g_assert_cmpint(rv_ini_get_size(ini, "cpu", "memory", &bytes, &err), ==, 0);
    g_assert_cmpuint(bytes, ==, 512u << 20);
    g_assert_cmpint(rv_ini_get_bool(ini, "cpu", "fifo", &fifo, &err), ==, 0);
    g_assert_true(fifo);
    g_assert_cmpint(rv_ini_check_unused(ini, NULL, &err), ==, 0);
    /* the overriding entry is the one listed, from child.ini line 7 */
    const RvIniEntry *e = rv_ini_lookup(ini, "cpu", "isolated");
    g_assert_true(g_str_has_suffix(e->file, "child.ini"));
    g_assert_cmpuint(e->line, ==, 6);
}

static void
test_unused_key(void)
{
    g_autoptr(RvIni) ini = NULL;
    g_autoptr(GError) err = NULL;

    g_assert_cmpint(rv_ini_load_data("x.ini", "[a]\nknown = 1\n\n[b]\ntypo = 2\n", &ini, &err), ==, 0);
    g_assert_nonnull(rv_ini_get(ini, "a", "known"));
    g_assert_cmpint(rv_ini_check_unused(ini, NULL, &err), ==, -EINVAL);
    g_assert_error(err, RV_ERROR, RV_ERROR_INVALID);
    g_assert_cmpstr(err->message, ==, "x.ini:5: unknown key 'typo' in [b]");
}

static void
test_unknown_section(void)
{
    g_autoptr(RvIni) ini = NULL;
    g_autoptr(GError) err = NULL;
    const char * const handled[] = { "main", "scenario:*", NULL };

    g_assert_cmpint(rv_ini_load_data("m.ini", "[scenario:smt-off]\nsmt = off\n[scenerio:x]\nsmt = on\n",
                                     &ini, &err), ==, 0);
    g_assert_nonnull(rv_ini_get(ini, "scenario:smt-off", "smt"));
    g_assert_nonnull(rv_ini_get(ini, "scenerio:x", "smt"));
    g_assert_cmpint(rv_ini_check_unused(ini, handled, &err), ==, -EINVAL);
    g_assert_cmpstr(err->message, ==, "m.ini:4: unknown section [scenerio:x]");
}

static void
test_bad_values(void)
{
    static const struct {
        const char *text;
        const char *msg;
    } cases[] = {
        { "[s]\nn = 12x\n", "t.ini:2: invalid n '12x' in [s]: expected an integer from 0 to 100" },
        { "[s]\nd = 3 parsecs\n", "t.ini:2: invalid d '3 parsecs' in [s]: expected a duration such as 500ms, 30s, 10m, 1h" },
        { "[s]\nb = maybe\n", "t.ini:2: invalid b 'maybe' in [s]: expected true/false, yes/no, on/off or 1/0" },
        { "[s]\nc = 3-1\n", "t.ini:2: in [s] c: Invalid cpulist '3-1': item '3-1' has start > end" },
        { "[s]\ne = purple\n", "t.ini:2: invalid e 'purple' in [s]: expected one of: on, off" },
    };
    static const char * const onoff[] = { "on", "off", NULL };

    for (size_t i = 0; i < G_N_ELEMENTS(cases); i++) {
        g_autoptr(RvIni) ini = NULL;
        g_autoptr(GError) err = NULL;
        gint64 n = 0;
        guint64 d = 0;
        bool b = false;
        RvCpuSet c;
        int e = 0, r;

        g_assert_cmpint(rv_ini_load_data("t.ini", cases[i].text, &ini, &err), ==, 0);
        r = rv_ini_get_int(ini, "s", "n", 0, 100, &n, &err);
        if (!err) r = rv_ini_get_duration_us(ini, "s", "d", &d, &err);
        if (!err) r = rv_ini_get_bool(ini, "s", "b", &b, &err);
        if (!err) r = rv_ini_get_cpulist(ini, "s", "c", 8, &c, &err);
        if (!err) r = rv_ini_get_enum(ini, "s", "e", onoff, &e, &err);
        g_assert_cmpint(r, ==, -EINVAL);
        g_assert_error(err, RV_ERROR, RV_ERROR_INVALID);
        g_assert_cmpstr(err->message, ==, cases[i].msg);
    }
}

static void
test_syntax_errors(void)
{
    static const struct {
        const char *text;
        const char *msg;
    } cases[] = {
        { "key = 1\n", "s.ini:1: key outside of any [section]: 'key = 1'" },
        { "[a]\n[b\n", "s.ini:2: invalid section header '[b'" },
        { "[a]\njust words\n", "s.ini:2: expected 'key = value', got 'just words'" },
        { "[a]\n = 3\n", "s.ini:2: empty key" },
        /* a renamed copy of a scenario must not merge into the other */
        { "[scenario:unpinned]\nplacement = unpinned\n\n[scenario:unpinned]\nplacement = pinned\n",
          "s.ini:4: duplicate section [scenario:unpinned] (first at line 1)" },
        { "[a]\nx = 0\ny = 1\nx = 1\n", "s.ini:4: duplicate key 'x' in [a] (first at line 2)" },
        /* an empty section would vanish from every reader (a scenario from the plan) */
        { "[scenario:a]\nplacement = pinned\n\n[scenario:b]\n\n[c]\nx = 1\n",
          "s.ini:4: section [scenario:b] has no key (an empty section would be ignored; "
          "give it at least one, e.g. description = ...)" },
        { "[a]\nx = 1\n[b]\n# only a comment\n",
          "s.ini:3: section [b] has no key (an empty section would be ignored; "
          "give it at least one, e.g. description = ...)" },
        /* control bytes reach terminals raw and make domain XML ill-formed */
        { "[a]\nx = 1\ncmdline = a \033[2J\n", "s.ini:3: control character 0x1b: a profile holds text only" },
        { "[a\001]\n", "s.ini:1: control character 0x01: a profile holds text only" },
        { "[a]\nx = \177\n", "s.ini:2: control character 0x7f: a profile holds text only" },
    };

    for (size_t i = 0; i < G_N_ELEMENTS(cases); i++) {
        g_autoptr(RvIni) ini = NULL;
        g_autoptr(GError) err = NULL;

        g_assert_cmpint(rv_ini_load_data("s.ini", cases[i].text, &ini, &err), ==, -EINVAL);
        g_assert_cmpstr(err->message, ==, cases[i].msg);
        g_assert_null(ini);
    }
}

static void
test_include_cycle_and_missing(void)
{
    g_autofree char *p = data("cycle-a.ini");
    g_autoptr(RvIni) ini = NULL;
    g_autoptr(GError) err = NULL;

    g_assert_cmpint(rv_ini_load(p, &ini, &err), <, 0);
    g_assert_nonnull(strstr(err->message, "include cycle"));
    g_clear_error(&err);
    g_assert_cmpint(rv_ini_load_data("i.ini", "[main]\ninclude = /nonexistent/profile\n", &ini, &err), <, 0);
    g_assert_cmpstr(err->message, ==, "i.ini:2: included profile '/nonexistent/profile' not found "
                    "(no /nonexistent/profile nor .ini: an include is a path relative "
                    "to the including file)");
}

static void
test_durations_sizes(void)
{
    static const struct { const char *v; guint64 us; } d[] = {
        { "30s", 30000000 }, { "500ms", 500000 }, { "10m", 600000000 }, { "1h", 3600000000ULL },
        { "250us", 250 }, { "2", 2000000 }, { "1.5s", 1500000 },
    };
    for (size_t i = 0; i < G_N_ELEMENTS(d); i++) {
        g_autoptr(RvIni) ini = NULL;
        g_autofree char *text = g_strdup_printf("[s]\nd = %s\n", d[i].v);
        guint64 us = 0;

        g_assert_cmpint(rv_ini_load_data("d.ini", text, &ini, NULL), ==, 0);
        g_assert_cmpint(rv_ini_get_duration_us(ini, "s", "d", &us, NULL), ==, 0);
        g_assert_cmpuint(us, ==, d[i].us);
    }
}

/* Context added to a callee's error keeps its code and errno (and so the
 * exit status): g_prefix_error(), not a new RV_ERROR_INVALID. */
static void
test_prefix_error(void)
{
    g_autoptr(RvIni) ini = NULL;
    g_autoptr(GError) err = NULL;
    const RvIniEntry *e;
    RvCpuSet c;

    g_assert_cmpint(rv_ini_load_data("p.ini", "[s]\nc = 9\nk = v\n", &ini, NULL), ==, 0);
    /* the cpulist parser's -ERANGE survives (rv_ini_entry_error made it -EINVAL) */
    g_assert_cmpint(rv_ini_get_cpulist(ini, "s", "c", 8, &c, &err), ==, -ERANGE);
    g_assert_error(err, RV_ERROR, RV_ERROR_INVALID);
    g_assert_true(g_str_has_prefix(err->message, "p.ini:2: in [s] c: "));
    g_clear_error(&err);

    e = rv_ini_lookup(ini, "s", "k");
    g_assert_nonnull(e);
    g_set_error_literal(&err, RV_ERROR, RV_ERROR_UNSUPPORTED, "no such capability");
    rv_ini_entry_prefix_error(e, &err, "k '%s': ", e->value);
    g_assert_error(err, RV_ERROR, RV_ERROR_UNSUPPORTED);
    g_assert_cmpstr(err->message, ==, "p.ini:3: k 'v': no such capability");
    g_assert_cmpint(rv_error_exit_code(err), ==, RV_EXIT_SKIP);
    rv_ini_entry_prefix_error(e, NULL, "ignored");     /* NULL error: nothing */
}

int
main(int argc, char **argv)
{
    g_test_init(&argc, &argv, NULL);
    g_test_add_func("/ini/include-override", test_include_override);
    g_test_add_func("/ini/unused-key", test_unused_key);
    g_test_add_func("/ini/unknown-section", test_unknown_section);
    g_test_add_func("/ini/bad-values", test_bad_values);
    g_test_add_func("/ini/syntax-errors", test_syntax_errors);
    g_test_add_func("/ini/include-cycle-missing", test_include_cycle_and_missing);
    g_test_add_func("/ini/durations-sizes", test_durations_sizes);
    g_test_add_func("/ini/prefix-error", test_prefix_error);
    return g_test_run();
}
