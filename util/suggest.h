/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * util/suggest.h: "did you mean" for a mistyped command, option, profile
 * name or profile key, as git and systemctl offer: the candidate nearest
 * by edit distance (Levenshtein: insertions, deletions, substitutions,
 * and a swap of two neighbours counted as one edit, Damerau's optimal
 * string alignment), when it is near enough to be a typo.
 */
#pragma once

#include <glib.h>

/**
 * rv_suggest_distance:
 * @a: a string (bytes; compared case-sensitively)
 * @b: another
 *
 * Returns: the optimal-string-alignment distance between @a and @b, or
 * G_MAXUINT when either is longer than 256 bytes (never a candidate).
 */
guint rv_suggest_distance(const char *a, const char *b);

/**
 * rv_suggest:
 * @word: what the user typed
 * @candidates: the valid words (a NULL-terminated array; NULL: none)
 *
 * Returns: (transfer none) (nullable): the nearest candidate whose distance
 * is at most 1 for words up to 4 bytes, 2 up to 8, else 3 (and below the
 * word's length, so "x" never suggests "y"); the first of equals; NULL when
 * none is that near or @word is itself a candidate.
 */
const char *rv_suggest(const char *word, const char * const *candidates);

/**
 * rv_suggest_hint:
 * @word: what the user typed
 * @candidates: as for rv_suggest()
 *
 * Returns: (transfer full): " (did you mean 'X'?)" or "" (for appending to
 * an error message).
 */
char *rv_suggest_hint(const char *word, const char * const *candidates);
