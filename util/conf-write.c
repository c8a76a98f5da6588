/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * util/conf-write.c: line writer for generated configuration files (see
 * util/conf-write.h).
 */
#include <errno.h>
#include <stdarg.h>
#include <stdbool.h>
#include <string.h>

#include "util/conf-write.h"
#include "util/error.h"

struct RvConfWriter {
    GString *text;
};

RvConfWriter *
rv_conf_writer_new(void)
{
    RvConfWriter *w = g_new0(RvConfWriter, 1);

    w->text = g_string_new(NULL);
    return w;
}

void
rv_conf_writer_free(RvConfWriter *w)
{
    if (!w)
        return;
    g_string_free(w->text, TRUE);
    g_free(w);
}

static bool
has_control(const char *s)
{
    for (const char *c = s; *c; c++)
        if (g_ascii_iscntrl(*c))
            return true;
    return false;
}

static bool
has_space(const char *s)
{
    for (const char *c = s; *c; c++)
        if (g_ascii_isspace(*c))
            return true;
    return false;
}

/* Surrounding whitespace is stripped by every reader of these formats. */
static bool
is_trimmed(const char *s)
{
    size_t n = strlen(s);

    return n == 0 || (!g_ascii_isspace(s[0]) && !g_ascii_isspace(s[n - 1]));
}

void
rv_conf_writer_comment(RvConfWriter *w, const char *fmt, ...)
{
    g_autofree char *text = NULL;
    g_auto(GStrv) lines = NULL;
    va_list ap;

    va_start(ap, fmt);
    text = g_strdup_vprintf(fmt, ap);
    va_end(ap);
    lines = g_strsplit(text, "\n", -1);
    for (char **l = lines; *l; l++) {
        for (char *c = *l; *c; c++)
            if (g_ascii_iscntrl(*c))
                *c = '?';
        g_string_append_printf(w->text, "#%s%s\n", **l ? " " : "", *l);
    }
}

void
rv_conf_writer_blank(RvConfWriter *w)
{
    g_string_append_c(w->text, '\n');
}

int
rv_conf_writer_section(RvConfWriter *w, const char *name, GError **error)
{
    if (!*name || strchr(name, ']') || has_control(name))
        return rv_error_set(error, RV_ERROR_INVALID, EINVAL,
                            "invalid section name '%s': it would not read back", name);
    g_string_append_printf(w->text, "%s[%s]\n", w->text->len ? "\n" : "", name);
    return 0;
}

int
rv_conf_writer_assign(RvConfWriter *w, const char *key, const char *sep, const char *value,
                      GError **error)
{
    if (!*key || strchr(key, '=') || has_control(key) || strchr("#;[", key[0]) ||
        !is_trimmed(key))
        return rv_error_set(error, RV_ERROR_INVALID, EINVAL,
                            "invalid key '%s': it would not read back as one key", key);
    if (has_control(value) || !is_trimmed(value))
        return rv_error_set(error, RV_ERROR_INVALID, EINVAL,
                            "invalid value for %s: a control character or surrounding "
                            "whitespace would not read back", key);
    g_string_append_printf(w->text, "%s%s%s\n", key, sep, value);
    return 0;
}

int
rv_conf_writer_words(RvConfWriter *w, const char *const *words, GError **error)
{
    if (!words || !words[0])
        return rv_error_set(error, RV_ERROR_INVALID, EINVAL, "a line of no words");
    for (const char *const *p = words; *p; p++)
        if (!**p || has_space(*p) || has_control(*p))
            return rv_error_set(error, RV_ERROR_INVALID, EINVAL,
                                "invalid word '%s': empty, or whitespace or a control "
                                "character inside would not read back as one word", *p);
    for (const char *const *p = words; *p; p++)
        g_string_append_printf(w->text, "%s%s", p == words ? "" : " ", *p);
    g_string_append_c(w->text, '\n');
    return 0;
}

char *
rv_conf_writer_to_data(const RvConfWriter *w)
{
    return g_strdup(w->text->str);
}
