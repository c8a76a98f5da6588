/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * tests/test-suggest.c: util/suggest.h, "did you mean": distances of known
 * pairs (Levenshtein with adjacent swaps, as in git's help.c), the
 * nearness limit by word length, and no suggestion for an exact match or
 * a word that is nothing like any candidate.
 */
#include <string.h>

#include "util/suggest.h"

static void
test_distance(void)
{
    g_assert_cmpuint(rv_suggest_distance("", ""), ==, 0);
    g_assert_cmpuint(rv_suggest_distance("host", "host"), ==, 0);
    g_assert_cmpuint(rv_suggest_distance("hots", "host"), ==, 1);      /* swap */
    g_assert_cmpuint(rv_suggest_distance("chek", "check"), ==, 1);     /* insertion */
    g_assert_cmpuint(rv_suggest_distance("kitten", "sitting"), ==, 3);
    g_assert_cmpuint(rv_suggest_distance("abc", ""), ==, 3);
    {
        g_autofree char *big = g_strnfill(300, 'a');

        g_assert_cmpuint(rv_suggest_distance(big, "a"), ==, G_MAXUINT);
    }
}

static void
test_suggest(void)
{
    static const char *const cmds[] = { "show", "check", "capture", "apply", "revert", "bootargs", NULL };
    static const char *const keys[] = { "summary", "include", "isolated_cores", NULL };
    g_autofree char *hint = NULL, *none = NULL;

    g_assert_cmpstr(rv_suggest("chek", cmds), ==, "check");
    g_assert_cmpstr(rv_suggest("revret", cmds), ==, "revert");
    g_assert_cmpstr(rv_suggest("bootarg", cmds), ==, "bootargs");
    g_assert_cmpstr(rv_suggest("sumary", keys), ==, "summary");
    g_assert_cmpstr(rv_suggest("isolated_core", keys), ==, "isolated_cores");
    /* exact: nothing to suggest; far: nothing; one letter: never */
    g_assert_null(rv_suggest("check", cmds));
    g_assert_null(rv_suggest("frobnicate", cmds));
    g_assert_null(rv_suggest("x", cmds));
    g_assert_null(rv_suggest("", cmds));
    g_assert_null(rv_suggest("chek", NULL));
    /* a 4-letter word allows 1 edit only: "shaw" -> "show", "shxx" -> nothing */
    g_assert_cmpstr(rv_suggest("shaw", cmds), ==, "show");
    g_assert_null(rv_suggest("shxx", cmds));
    hint = rv_suggest_hint("aply", cmds);
    g_assert_cmpstr(hint, ==, " (did you mean 'apply'?)");
    none = rv_suggest_hint("zzzzzz", cmds);
    g_assert_cmpstr(none, ==, "");
}

int
main(int argc, char **argv)
{
    g_test_init(&argc, &argv, NULL);
    g_test_add_func("/suggest/distance", test_distance);
    g_test_add_func("/suggest/suggest", test_suggest);
    return g_test_run();
}
