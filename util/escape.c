/* SPDX-License-Identifier: GPL-2.0-or-later */
#include <string.h>

#include "util/escape.h"

char *
rv_escape_value(const char *s)
{
    return s ? g_strescape(s, "\"") : g_strdup("");
}

char *
rv_escape_text(char *s)
{
    GString *out;
    const char *c;

    for (c = s; *c; c++)
        if (g_ascii_iscntrl(*c) && *c != '\n' && *c != '\t')
            break;
    if (!*c)
        return s;
    out = g_string_sized_new(strlen(s) + 16);
    for (c = s; *c; c++) {
        if (g_ascii_iscntrl(*c) && *c != '\n' && *c != '\t')
            g_string_append_printf(out, "\\%03o", (unsigned char) *c);
        else
            g_string_append_c(out, *c);
    }
    g_free(s);
    return g_string_free(out, FALSE);
}

char *
rv_problem_new(const char *where, const char *value, const char *why)
{
    g_autofree char *w = rv_escape_value(where);
    g_autofree char *v = rv_escape_value(value);
    g_autofree char *y = rv_escape_value(why);

    return g_strdup_printf("'%s' holds '%s': %s", w, v, y);
}
