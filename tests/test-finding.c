/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * tests/test-finding.c: util/finding.h, the one finding model: the adder
 * (counts, a PASS keeps no fix), where, worst, find, the stable sort by
 * level, the text renderer (wanted/found, where, fix, escaping, the
 * summary line) and the JSON writer (every key, in order), and the json
 * adders of util/json.h it uses; the rule catalogue (util/rules.h): one
 * complete line per id, and the strict adder that refuses an id it lacks.
 */
#include <errno.h>
#include <math.h>
#include <string.h>

#include "util/finding.h"
#include "util/json.h"
#include "util/rules.h"

static RvFindings *
sample(void)
{
    RvFindings *fs = rv_findings_new();
    RvCpuSet cpus;
    RvFinding *f;

    g_assert_cmpint(rv_cpulist_parse("2-3", 0, &cpus, NULL), ==, 0);
    rv_findings_add(fs, RV_FINDING_PASS, "a.pass", NULL, "1", "1", "never shown", "all %s", "good");
    rv_findings_add(fs, RV_FINDING_WARN, "b.warn", &cpus, "0", NULL, "echo 0 >x",
                    "CPUs %s: value unreadable", "2-3");
    f = rv_findings_add(fs, RV_FINDING_FAIL, "c.fail", NULL, NULL, NULL, "fix it",
                        "thread '%s' on the wrong CPU", "bad\x1b[2Jname");
    rv_finding_set_where(f, "%s:%d", "out.txt", 7);
    rv_findings_add(fs, RV_FINDING_NOTE, "d.note", NULL, "x", "y", NULL, "noted");
    rv_findings_add(fs, RV_FINDING_WARN, "e.warn", NULL, NULL, NULL, NULL, "second warn");
    return fs;
}

static void
test_add(void)
{
    g_autoptr(RvFindings) fs = sample();
    const RvFinding *f;

    g_assert_cmpuint(fs->items->len, ==, 5);
    g_assert_cmpuint(fs->counts[RV_FINDING_PASS], ==, 1);
    g_assert_cmpuint(fs->counts[RV_FINDING_NOTE], ==, 1);
    g_assert_cmpuint(fs->counts[RV_FINDING_WARN], ==, 2);
    g_assert_cmpuint(fs->counts[RV_FINDING_FAIL], ==, 1);
    g_assert_cmpint(rv_findings_worst(fs), ==, RV_FINDING_FAIL);
    f = rv_findings_find(fs, "a.pass");
    g_assert_cmpstr(f->message, ==, "all good");
    g_assert_null(f->fix);                 /* a PASS has nothing to fix */
    g_assert_cmpstr(f->expected, ==, "1");
    f = rv_findings_find(fs, "b.warn");
    g_assert_true(f->has_cpus);
    g_assert_true(rv_cpuset_isset(&f->cpus, 3));
    g_assert_cmpstr(f->fix, ==, "echo 0 >x");
    g_assert_null(f->actual);
    g_assert_cmpstr(rv_findings_find(fs, "c.fail")->where, ==, "out.txt:7");
    g_assert_null(rv_findings_find(fs, "z.none"));
}

static void
test_worst_and_sort(void)
{
    g_autoptr(RvFindings) empty = rv_findings_new();
    g_autoptr(RvFindings) fs = sample();
    static const char *const order[] = { "c.fail", "b.warn", "e.warn", "d.note", "a.pass" };

    g_assert_cmpint(rv_findings_worst(empty), ==, RV_FINDING_PASS);
    rv_findings_sort_by_level(fs);
    for (guint i = 0; i < G_N_ELEMENTS(order); i++)
        g_assert_cmpstr(((RvFinding *) fs->items->pdata[i])->id, ==, order[i]);
}

static void
test_levels(void)
{
    RvFindingLevel l = RV_FINDING_PASS;

    g_assert_cmpstr(rv_finding_level_name(RV_FINDING_NOTE), ==, "NOTE");
    g_assert_cmpstr(rv_finding_level_name((RvFindingLevel) 9), ==, "?");
    g_assert_cmpint(rv_finding_level_from_name("warn", &l), ==, 0);
    g_assert_cmpint(l, ==, RV_FINDING_WARN);
    g_assert_cmpint(rv_finding_level_from_name("ERROR", &l), ==, -EINVAL);
    g_assert_cmpint(l, ==, RV_FINDING_WARN);   /* untouched on error */
}

static void
test_format(void)
{
    g_autoptr(RvFindings) fs = sample();
    g_autoptr(GString) s = g_string_new(NULL);
    g_autoptr(GString) v = g_string_new(NULL);

    rv_findings_format(s, fs, false);
    rv_findings_format_summary(s, "FAIL", fs->counts, false);
    g_assert_cmpstr(s->str, ==,
        "WARN  b.warn: CPUs 2-3: value unreadable\n"
        "      wanted: 0\n"
        "      fix: echo 0 >x\n"
        "FAIL  c.fail: thread 'bad\\033[2Jname' on the wrong CPU\n"
        "      where: out.txt:7\n"
        "      fix: fix it\n"
        "NOTE  d.note: noted\n"
        "      wanted: x   found: y\n"
        "WARN  e.warn: second warn\n"
        "FAIL: 1 fail, 2 warn, 1 note, 1 pass (--verbose lists PASS)\n");
    rv_findings_format(v, fs, true);
    rv_findings_format_summary(v, "ERROR", fs->counts, true);
    g_assert_true(g_str_has_prefix(v->str, "PASS  a.pass: all good\n"
                                           "      wanted: 1   found: 1\n"
                                           "WARN  b.warn"));
    g_assert_true(g_str_has_suffix(v->str, "ERROR: 1 fail, 2 warn, 1 note, 1 pass\n"));
    g_assert_null(strstr(v->str, "never shown"));
}

static char *
to_text(void (*fill)(JsonBuilder *b, gconstpointer data), gconstpointer data)
{
    g_autoptr(JsonBuilder) b = json_builder_new();
    g_autoptr(JsonNode) root = NULL;

    json_builder_begin_object(b);
    fill(b, data);
    json_builder_end_object(b);
    root = json_builder_get_root(b);
    return rv_json_to_text(root);
}

static void
fill_findings(JsonBuilder *b, gconstpointer data)
{
    const RvFindings *fs = data;

    rv_findings_summary_to_json(b, fs->counts);
    rv_findings_to_json(b, fs);
}

static void
test_json(void)
{
    g_autoptr(RvFindings) fs = sample();
    g_autofree char *text = to_text(fill_findings, fs);
    g_autoptr(JsonParser) p = json_parser_new();
    JsonObject *root, *f;
    JsonArray *a;
    g_autoptr(GList) members = NULL;
    static const char *const keys[] = { "level", "id", "message", "where", "fix", "cpus",
                                        "expected", "actual" };
    guint k = 0;

    g_assert_true(json_parser_load_from_data(p, text, -1, NULL));
    root = json_node_get_object(json_parser_get_root(p));
    g_assert_cmpint(json_object_get_int_member(json_object_get_object_member(root, "summary"),
                                               "warn"), ==, 2);
    a = json_object_get_array_member(root, "findings");
    g_assert_cmpuint(json_array_get_length(a), ==, 5);
    /* every key, always, in one order */
    f = json_array_get_object_element(a, 1);
    members = json_object_get_members(f);
    for (GList *l = members; l; l = l->next, k++)
        g_assert_cmpstr(l->data, ==, keys[k]);
    g_assert_cmpuint(k, ==, G_N_ELEMENTS(keys));
    g_assert_cmpstr(json_object_get_string_member(f, "cpus"), ==, "2-3");
    g_assert_true(json_object_get_null_member(f, "actual"));
    g_assert_true(json_object_get_null_member(f, "where"));
    f = json_array_get_object_element(a, 2);
    g_assert_cmpstr(json_object_get_string_member(f, "where"), ==, "out.txt:7");
    /* JSON keeps the value as it is: the generator escapes control bytes */
    g_assert_cmpstr(json_object_get_string_member(f, "message"), ==,
                    "thread 'bad\x1b[2Jname' on the wrong CPU");
    g_assert_true(json_object_get_null_member(json_array_get_object_element(a, 0), "fix"));
}

static void
fill_adders(JsonBuilder *b, gconstpointer data)
{
    RvCpuSet empty, some;

    (void) data;
    rv_cpuset_zero(&empty);
    g_assert_cmpint(rv_cpulist_parse("0,4-5", 0, &some, NULL), ==, 0);
    rv_json_add_int(b, "i", -3);
    rv_json_add_bool(b, "b", true);
    rv_json_add_double(b, "d", 1.5);
    rv_json_add_double(b, "nan", NAN);
    rv_json_add_double(b, "inf", INFINITY);
    rv_json_add_cpuset(b, "set", &some);
    rv_json_add_cpuset(b, "empty", &empty);
    rv_json_add_cpuset(b, "unknown", NULL);
}

static void
test_json_adders(void)
{
    g_autofree char *text = to_text(fill_adders, NULL);

    g_assert_cmpstr(text, ==,
        "{\n  \"i\" : -3,\n  \"b\" : true,\n  \"d\" : 1.5,\n  \"nan\" : null,\n"
        "  \"inf\" : null,\n  \"set\" : \"0,4-5\",\n  \"empty\" : \"\",\n"
        "  \"unknown\" : null\n}\n");
}

/* RV_RULES_STRICT=1: an id the catalogue lacks, or a level its line does
 * not allow, aborts naming it; a known id at an allowed level is added;
 * without strictness the finding is kept as given. */
static void
test_strict(void)
{
    if (g_test_subprocess()) {
        g_autoptr(RvFindings) fs = rv_findings_new();
        const char *mode = g_getenv("RV_TEST_STRICT_MODE");

        g_setenv("RV_RULES_STRICT", "1", TRUE);
        rv_findings_add(fs, RV_FINDING_FAIL, "smt.active", NULL, "off", "on", "fix", "known");
        if (g_strcmp0(mode, "unknown") == 0)
            rv_findings_add(fs, RV_FINDING_WARN, "no.such-rule", NULL, NULL, NULL, NULL, "x");
        else
            rv_findings_add(fs, RV_FINDING_PASS, "smt.active", NULL, NULL, NULL, NULL, "x");
        return;
    }
    g_setenv("RV_TEST_STRICT_MODE", "unknown", TRUE);
    g_test_trap_subprocess(NULL, 0, G_TEST_SUBPROCESS_DEFAULT);
    g_test_trap_assert_failed();
    g_test_trap_assert_stderr("*finding id 'no.such-rule' is not in the rule catalogue*util/rules.c*");
    g_setenv("RV_TEST_STRICT_MODE", "level", TRUE);
    g_test_trap_subprocess(NULL, 0, G_TEST_SUBPROCESS_DEFAULT);
    g_test_trap_assert_failed();
    g_test_trap_assert_stderr("*finding 'smt.active' at level PASS*does not allow*");
    g_unsetenv("RV_TEST_STRICT_MODE");
}

static void
test_catalogue(void)
{
    guint n;
    const RvRule *rules = rv_rules(&n);
    g_autoptr(GHashTable) seen = g_hash_table_new(g_str_hash, g_str_equal);

    g_assert_cmpuint(n, >, 100);
    for (guint i = 0; i < n; i++) {
        const RvRule *r = &rules[i];

        /* one line per id, each complete */
        if (!g_hash_table_add(seen, (gpointer) r->id))
            g_error("rule '%s' declared twice", r->id);
        g_assert_true(r->levels && !(r->levels & ~((1u << RV_FINDING_N_LEVELS) - 1)));
        g_assert_true(r->commands && !(r->commands & ~((1u << RV_RULE_N_COMMANDS) - 1)));
        g_assert_true(r->meaning && *r->meaning && r->source && *r->source);
        /* a rule that can warn or fail says how to fix it */
        if (r->levels & (RV_RULE_LEVEL(RV_FINDING_WARN) | RV_RULE_LEVEL(RV_FINDING_FAIL)) &&
            !r->fix && strcmp(r->id, "placement.rule") != 0)
            g_error("rule '%s' can warn or fail and has no fix", r->id);
        g_assert_true(rv_rule_find(r->id) == r);
    }
    g_assert_true(rv_rule_check("latency.budget", RV_FINDING_FAIL));
    g_assert_false(rv_rule_check("latency.budget", RV_FINDING_WARN));
    g_assert_false(rv_rule_check("no.such-rule", RV_FINDING_NOTE));
    g_assert_null(rv_rule_find(NULL));
    g_assert_cmpstr(rv_rule_command_name(RV_RULE_GUEST_XML), ==, "guest xml --check");
    g_assert_null(rv_rule_command_name((RvRuleCommand) 64));
}

/* the fixes block: WARN/FAIL only, grouped by text, largest group first,
 * ids in first-seen order; the placeholder rewrite touches fixes only */
static void
test_fixes(void)
{
    g_autoptr(RvFindings) fs = rv_findings_new();
    g_autoptr(GString) s = g_string_new(NULL);
    g_autoptr(GString) none = g_string_new(NULL);
    g_autoptr(RvFindings) empty = rv_findings_new();

    rv_findings_add(fs, RV_FINDING_FAIL, "x.one", NULL, NULL, NULL, "apply PROFILE", "PROFILE one");
    rv_findings_add(fs, RV_FINDING_FAIL, "y.two", NULL, NULL, NULL, "boot PROFILE, then reboot", "b");
    rv_findings_add(fs, RV_FINDING_WARN, "y.three", NULL, NULL, NULL, "boot PROFILE, then reboot", "c");
    rv_findings_add(fs, RV_FINDING_FAIL, "y.two", NULL, NULL, NULL, "boot PROFILE, then reboot", "d");
    rv_findings_add(fs, RV_FINDING_NOTE, "z.note", NULL, NULL, NULL, "apply PROFILE", "not counted");
    rv_findings_replace_in_fixes(fs, ", then reboot", " && reboot");
    rv_findings_replace_in_fixes(fs, "PROFILE", "'my host.ini'");
    rv_findings_format_fixes(s, fs);
    g_assert_cmpstr(s->str, ==,
        "Fixes:\n"
        "  3 findings (y.two, y.three): boot 'my host.ini' && reboot\n"
        "  1 finding (x.one): apply 'my host.ini'\n");
    g_assert_cmpstr(((RvFinding *) fs->items->pdata[0])->message, ==, "PROFILE one");
    rv_findings_format_fixes(none, empty);
    g_assert_cmpstr(none->str, ==, "");
}

int
main(int argc, char **argv)
{
    g_test_init(&argc, &argv, NULL);
    /* the samples use ids of their own, outside the catalogue */
    if (!g_test_subprocess())
        g_unsetenv("RV_RULES_STRICT");
    g_test_add_func("/util/finding/add", test_add);
    g_test_add_func("/util/finding/worst-and-sort", test_worst_and_sort);
    g_test_add_func("/util/finding/levels", test_levels);
    g_test_add_func("/util/finding/format", test_format);
    g_test_add_func("/util/finding/fixes", test_fixes);
    g_test_add_func("/util/finding/json", test_json);
    g_test_add_func("/util/finding/json-adders", test_json_adders);
    g_test_add_func("/util/finding/strict", test_strict);
    g_test_add_func("/util/finding/catalogue", test_catalogue);
    return g_test_run();
}
