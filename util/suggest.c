/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * util/suggest.c: see util/suggest.h.
 */
#include <string.h>

#include "util/suggest.h"

#define MAX_LEN 256

guint
rv_suggest_distance(const char *a, const char *b)
{
    size_t n = strlen(a), m = strlen(b);
    g_autofree guint *d = NULL;

    if (n > MAX_LEN || m > MAX_LEN)
        return G_MAXUINT;
    /* (n+1) x (m+1) table, d[i*(m+1)+j] = distance of a[0..i) and b[0..j) */
    d = g_new(guint, (n + 1) * (m + 1));
#define D(i, j) d[(i) * (m + 1) + (j)]
    for (size_t i = 0; i <= n; i++)
        D(i, 0) = (guint) i;
    for (size_t j = 0; j <= m; j++)
        D(0, j) = (guint) j;
    for (size_t i = 1; i <= n; i++) {
        for (size_t j = 1; j <= m; j++) {
            guint cost = a[i - 1] == b[j - 1] ? 0 : 1;
            guint v = MIN(D(i - 1, j) + 1, D(i, j - 1) + 1);

            v = MIN(v, D(i - 1, j - 1) + cost);
            if (i > 1 && j > 1 && a[i - 1] == b[j - 2] && a[i - 2] == b[j - 1])
                v = MIN(v, D(i - 2, j - 2) + 1);
            D(i, j) = v;
        }
    }
    {
        guint r = D(n, m);
#undef D
        return r;
    }
}

const char *
rv_suggest(const char *word, const char * const *candidates)
{
    size_t len = strlen(word);
    guint limit = len <= 4 ? 1 : len <= 8 ? 2 : 3;
    const char *best = NULL;
    guint best_d = G_MAXUINT;

    if (!candidates || !len)
        return NULL;
    for (const char * const *c = candidates; *c; c++) {
        guint dist;

        if (strcmp(*c, word) == 0)
            return NULL;
        dist = rv_suggest_distance(word, *c);
        if (dist < best_d) {
            best_d = dist;
            best = *c;
        }
    }
    return best && best_d <= limit && best_d < len ? best : NULL;
}

char *
rv_suggest_hint(const char *word, const char * const *candidates)
{
    const char *s = rv_suggest(word, candidates);

    return s ? g_strdup_printf(" (did you mean '%s'?)", s) : g_strdup("");
}
