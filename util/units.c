/* SPDX-License-Identifier: GPL-2.0-or-later */
#include <errno.h>

#include "util/units.h"

/* A non-negative number with an optional unit from @suffixes. */
static int
parse_scaled(const char *s, const char * const *suffixes, const guint64 *scales,
             guint64 bare_scale, guint64 *ret)
{
    char *end = NULL;
    double v;
    guint64 scale = bare_scale;

    if (!s || !*s || !(g_ascii_isdigit(*s) || *s == '.'))
        return -EINVAL;
    v = g_ascii_strtod(s, &end);
    if (end == s || v < 0)
        return -EINVAL;
    while (*end == ' ')
        end++;
    if (*end) {
        gboolean found = FALSE;

        for (int i = 0; suffixes[i]; i++)
            if (g_ascii_strcasecmp(end, suffixes[i]) == 0) {
                scale = scales[i];
                found = TRUE;
                break;
            }
        if (!found)
            return -EINVAL;
    }
    if (v * (double) scale >= 1.8e19)
        return -ERANGE;
    *ret = (guint64) (v * (double) scale + 0.5);
    return 0;
}

int
rv_parse_duration_us(const char *s, guint64 *ret)
{
    static const char * const sfx[] = { "us", "ms", "s", "sec", "m", "min", "h", NULL };
    static const guint64 scl[] = { 1, 1000, 1000000, 1000000, 60000000, 60000000,
                                   3600000000ULL };

    return parse_scaled(s, sfx, scl, 1000000, ret);
}

int
rv_parse_size(const char *s, guint64 *ret)
{
    static const char * const sfx[] = { "K", "KiB", "M", "MiB", "G", "GiB", "T", "TiB", NULL };
    static const guint64 scl[] = { 1ULL << 10, 1ULL << 10, 1ULL << 20, 1ULL << 20,
                                   1ULL << 30, 1ULL << 30, 1ULL << 40, 1ULL << 40 };

    return parse_scaled(s, sfx, scl, 1, ret);
}
