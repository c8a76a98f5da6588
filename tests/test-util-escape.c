/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * tests/test-util-escape.c: util/escape.h: no raw control byte from a
 * host or guest value reaches an output.
 */
#include <string.h>

#include "util/escape.h"

static void
assert_no_control(const char *s, gboolean allow_nl_tab)
{
    for (const char *c = s; *c; c++) {
        if (allow_nl_tab && (*c == '\n' || *c == '\t'))
            continue;
        g_assert_false(g_ascii_iscntrl(*c));
    }
}

static void
test_value(void)
{
    static const struct {
        const char *in, *out;
    } cases[] = {
        { "always", "always" },
        { "", "" },
        { "a\nb", "a\\nb" },
        { "\x1b[2J", "\\033[2J" },
        { "tab\there", "tab\\there" },
        { "del\x7f", "del\\177" },
        { "back\\slash", "back\\\\slash" },
        { "say \"hi\"", "say \"hi\"" },
        { "it's", "it's" },
        { "\xc2\x9b" "31m", "\\302\\23331m" },      /* C1 CSI as UTF-8 */
        { "\xff", "\\377" },
    };

    for (gsize i = 0; i < G_N_ELEMENTS(cases); i++) {
        g_autofree char *e = rv_escape_value(cases[i].in);

        g_assert_cmpstr(e, ==, cases[i].out);
        assert_no_control(e, FALSE);
    }
    {
        g_autofree char *e = rv_escape_value(NULL);
        g_assert_cmpstr(e, ==, "");
    }
}

static void
test_text(void)
{
    char *plain = g_strdup("line 1\n\tline 2\n");
    char *same = rv_escape_text(plain);
    g_autofree char *esc = rv_escape_text(g_strdup("comm \x1b]0;pwned\x07 x\r\n"));

    g_assert_true(same == plain);              /* nothing to escape: same string */
    g_free(same);
    g_assert_cmpstr(esc, ==, "comm \\033]0;pwned\\007 x\\015\n");
    assert_no_control(esc, TRUE);
    {
        /* not UTF-8 (a corrupt /proc/cmdline), DEL and C1 CSI escaped;
         * real UTF-8 kept */
        g_autofree char *bad = rv_escape_text(g_strdup("nohz_full=\xff \x7f \xc2\x9b" "2J 5 \xc2\xb5s\n"));
        char *utf8 = g_strdup("max 5 \xc2\xb5s, \xe2\x80\x94 ok\n");
        char *kept = rv_escape_text(utf8);

        g_assert_cmpstr(bad, ==, "nohz_full=\\377 \\177 \\302\\2332J 5 \xc2\xb5s\n");
        g_assert_true(g_utf8_validate(bad, -1, NULL));
        g_assert_true(kept == utf8);
        g_free(kept);
    }
}

/* A tool's stderr quoted in a reason: one line, trimmed, printable
 * ASCII, bounded, cut between escapes. */
static void
test_line(void)
{
    static const struct {
        const char *in, *out;
        gsize max;
    } cases[] = {
        { "cyclictest: Permission denied\n", "cyclictest: Permission denied", 64 },
        { "  \r\n\t ", "", 64 },
        { "Unable to change scheduling policy!\r\nrun as root\n\n",
          "Unable to change scheduling policy!; run as root", 64 },
        { "a\x1b]0;pwned\x07 b\tc\\", "a\\033]0;pwned\\007 b\\tc\\\\", 64 },
        { "5 \xc2\xb5s", "5 \\302\\265s", 64 },
        { "0123456789abcdef", "0123456789abcdef", 16 },          /* exactly @max: whole */
        { "0123456789abcdefg", "0123456789abc...", 16 },
        { "0123456789a\x1b" "bcdef", "0123456789a...", 16 },   /* not inside "\033" */
    };

    for (gsize i = 0; i < G_N_ELEMENTS(cases); i++) {
        g_autofree char *e = rv_escape_line(cases[i].in, cases[i].max);

        g_assert_cmpstr(e, ==, cases[i].out);
        g_assert_cmpuint(strlen(e), <=, cases[i].max);
        assert_no_control(e, FALSE);
    }
    {
        g_autofree char *e = rv_escape_line(NULL, 16);
        g_autofree char *big = g_strnfill(100000, '\x1b');
        g_autofree char *b = rv_escape_line(big, 200);

        g_assert_cmpstr(e, ==, "");
        g_assert_cmpuint(strlen(b), <=, 200);
        g_assert_true(g_str_has_suffix(b, "\\033..."));
    }
}

static void
test_problem(void)
{
    g_autofree char *p = rv_problem_new("/sys/kernel/mm/ksm/run", "1\x1b[0m\n",
                                        "not 0, 1 or 2");
    g_autofree char *q = rv_problem_new("/x", NULL, "empty");

    g_assert_cmpstr(p, ==, "'/sys/kernel/mm/ksm/run' holds '1\\033[0m\\n': not 0, 1 or 2");
    assert_no_control(p, FALSE);
    g_assert_cmpstr(q, ==, "'/x' holds '': empty");
}

int
main(int argc, char **argv)
{
    g_test_init(&argc, &argv, NULL);
    g_test_add_func("/util/escape/value", test_value);
    g_test_add_func("/util/escape/text", test_text);
    g_test_add_func("/util/escape/line", test_line);
    g_test_add_func("/util/escape/problem", test_problem);
    return g_test_run();
}
