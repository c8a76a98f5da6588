/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * results/text-lines.c: the line splitter and number scanners the latency
 * readers share (see latency-readers.h).
 */
#include <errno.h>
#include <string.h>

#include "results/latency-readers.h"
#include "util/error.h"

/* one line: ANSI escapes ("\033[2J", "\033[H" of rtla top's refresh) and
 * control characters but TAB dropped, "| " (LAVA) dropped, cut */
static char *
clean(const char *s, gsize n)
{
    GString *out = g_string_sized_new(MIN(n, RV_READER_MAX_LINE));

    for (gsize i = 0; i < n && out->len < RV_READER_MAX_LINE; i++) {
        unsigned char c = (unsigned char) s[i];

        if (c == 0x1b) {
            if (i + 1 < n && s[i + 1] == '[') {
                i += 2;
                while (i < n && (g_ascii_isdigit(s[i]) || s[i] == ';' || s[i] == '?'))
                    i++;
            }
            continue;   /* skips the final letter too */
        }
        if ((c < 0x20 && c != '\t') || c == 0x7f)
            continue;
        g_string_append_c(out, (char) c);
    }
    if (out->str[0] == '|' && out->str[1] == ' ')
        g_string_erase(out, 0, 2);
    return g_string_free(out, FALSE);
}

int
rv_result_text_lines(const char *name, const char *data, gsize len, GPtrArray **ret_lines,
                     GError **error)
{
    g_autoptr(GPtrArray) lines = g_ptr_array_new_with_free_func(g_free);
    gsize pos = 0;

    while (pos < len) {
        const char *nl = memchr(data + pos, '\n', len - pos);
        gsize n = nl ? (gsize) (nl - (data + pos)) : len - pos;

        if (lines->len >= RV_READER_MAX_LINES)
            return rv_error_set(error, RV_ERROR_INVALID, EINVAL,
                                "%s: more than %u lines, not such a tool's output",
                                name, RV_READER_MAX_LINES);
        g_ptr_array_add(lines, clean(data + pos, n));
        pos += n + 1;
    }
    *ret_lines = g_steal_pointer(&lines);
    return (int) (*ret_lines)->len;
}

gboolean
rv_result_scan_decimal(const char **p, double *ret)
{
    const char *s = *p;
    double v = 0, scale = 1;
    int digits = 0;

    while (*s == ' ' || *s == '\t')
        s++;
    while (g_ascii_isdigit(*s)) {
        if (++digits > 15)
            return FALSE;
        v = v * 10 + (*s++ - '0');
    }
    if (!digits)
        return FALSE;
    if (*s == '.' && g_ascii_isdigit(s[1])) {
        s++;
        for (int k = 0; g_ascii_isdigit(*s); s++, k++)
            if (k < 9) {
                scale /= 10;
                v += (*s - '0') * scale;
            }
    }
    *p = s;
    *ret = v;
    return TRUE;
}

double
rv_result_scan_dhms(const char *s)
{
    const char *p = s;
    double d, h, m, sec;

    if (!rv_result_scan_decimal(&p, &d) || *p != ' ')
        return -1;
    if (!rv_result_scan_decimal(&p, &h) || *p++ != ':' ||
        !rv_result_scan_decimal(&p, &m) || *p++ != ':' ||
        !rv_result_scan_decimal(&p, &sec) || h > 23 || m > 59 || sec > 60)
        return -1;
    return ((d * 24 + h) * 60 + m) * 60 + sec;
}

RvLatencyForm
rv_result_latency_form(const char *data, gsize len)
{
    gsize pos = 0;

    for (int n = 0; pos < len && n < 200; n++) {
        const char *nl = memchr(data + pos, '\n', len - pos);
        gsize l = nl ? (gsize) (nl - (data + pos)) : len - pos;
        g_autofree char *line = clean(data + pos, l);
        const char *s = line;

        pos += l + 1;
        while (*s == ' ' || *s == '\t')
            s++;
        if (g_str_has_prefix(s, "T:") || g_str_has_prefix(s, "# Histogram") || *s == '{')
            return RV_LATENCY_FORM_CYCLICTEST;
        if (g_str_has_prefix(s, "oslat V") || g_str_has_prefix(s, "Core:\t"))
            return RV_LATENCY_FORM_OSLAT;
        if (g_str_has_prefix(s, "hwlatdetect:"))
            return RV_LATENCY_FORM_HWLAT;
        if (g_str_has_prefix(s, "# RTLA ") || g_str_equal(s, "Timer Latency") ||
            g_str_equal(s, "Operating System Noise") || g_str_equal(s, "Hardware-related Noise") ||
            strstr(s, "hit stop tracing"))
            return RV_LATENCY_FORM_RTLA;
        if (strstr(s, "stress-ng: ") && strstr(s, "cyclic:"))
            return RV_LATENCY_FORM_STRESSNG;
    }
    return RV_LATENCY_FORM_CYCLICTEST;
}
