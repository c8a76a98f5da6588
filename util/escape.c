/* SPDX-License-Identifier: GPL-2.0-or-later */
#include <string.h>

#include "util/escape.h"

char *
rv_escape_value(const char *s)
{
    return s ? g_strescape(s, "\"") : g_strdup("");
}

/* @c by the value rule: g_strescape()'s escapes, '"' kept. */
static void
append_value_byte(GString *out, char c)
{
    static const char named[] = "\bb\ff\nn\rr\tt\vv\\\\";

    for (const char *n = named; *n; n += 2)
        if (*n == c) {
            g_string_append_c(out, '\\');
            g_string_append_c(out, n[1]);
            return;
        }
    if ((unsigned char) c < 0x20 || (unsigned char) c >= 0x7f)
        g_string_append_printf(out, "\\%03o", (unsigned char) c);
    else
        g_string_append_c(out, c);
}

char *
rv_escape_line(const char *s, gsize max)
{
    const char *p = s ? s : "", *end;
    GString *out = g_string_new(NULL);
    gsize fits = 0;   /* the length up to the last piece that leaves room for "..." */

    g_assert(max >= 8);
    while (g_ascii_isspace(*p))
        p++;
    end = p + strlen(p);
    while (end > p && g_ascii_isspace(end[-1]))
        end--;
    while (p < end) {
        if (*p == '\n' || *p == '\r') {
            while (*p == '\n' || *p == '\r')
                p++;
            g_string_append(out, "; ");
        } else {
            append_value_byte(out, *p++);
        }
        if (out->len > max) {
            g_string_truncate(out, fits);
            g_string_append(out, "...");
            break;
        }
        if (out->len <= max - 3)
            fits = out->len;
    }
    return g_string_free(out, FALSE);
}

/* Length of the character at @c that the text rule keeps as it is, or 0 for
 * a byte to escape: ASCII controls but newline and tab, DEL, a byte that
 * does not start a valid UTF-8 sequence, and the C1 controls U+0080-U+009F
 * (a terminal takes U+009B as CSI). */
static gsize
text_keep_len(const char *c, gsize left)
{
    gunichar u;

    if ((unsigned char) *c < 0x80)
        return g_ascii_iscntrl(*c) && *c != '\n' && *c != '\t' ? 0 : 1;
    u = g_utf8_get_char_validated(c, (gssize) left);
    if (u == (gunichar) -1 || u == (gunichar) -2 || (u >= 0x80 && u <= 0x9f))
        return 0;
    return (gsize) (g_utf8_next_char(c) - c);
}

char *
rv_escape_text(char *s)
{
    GString *out;
    gsize len = strlen(s), i, k;

    for (i = 0; i < len && (k = text_keep_len(s + i, len - i)) > 0; i += k)
        ;
    if (i == len)
        return s;
    out = g_string_sized_new(len + 16);
    g_string_append_len(out, s, (gssize) i);
    while (i < len) {
        k = text_keep_len(s + i, len - i);
        if (k == 0) {
            g_string_append_printf(out, "\\%03o", (unsigned char) s[i]);
            i++;
        } else {
            g_string_append_len(out, s + i, (gssize) k);
            i += k;
        }
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
