/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * util/ini-write.c: generated profile files in util/ini.h's dialect (also
 * tuned.conf(5)'s: "[section]", "key = value", '#' comments).  Every value
 * is checked to read back as it was written: one line, no control
 * characters, no surrounding whitespace.
 */
#include <errno.h>
#include <string.h>

#include "util/error.h"
#include "util/ini.h"

typedef struct {
    char *name;
    GPtrArray *keys;      /* char *: keys, in order */
    GPtrArray *values;    /* char *: values, same index */
    GPtrArray *comments;  /* char *: comment before the key at the same index, or NULL */
    char *pending;        /* comment for the next key */
} Section;

struct RvIniWriter {
    char *head;           /* comment before the first section */
    GPtrArray *sections;  /* Section * */
};

static void
section_free(gpointer p)
{
    Section *s = p;

    g_free(s->name);
    g_ptr_array_unref(s->keys);
    g_ptr_array_unref(s->values);
    g_ptr_array_unref(s->comments);
    g_free(s->pending);
    g_free(s);
}

RvIniWriter *
rv_ini_writer_new(void)
{
    RvIniWriter *w = g_new0(RvIniWriter, 1);

    w->sections = g_ptr_array_new_with_free_func(section_free);
    return w;
}

void
rv_ini_writer_free(RvIniWriter *w)
{
    if (!w)
        return;
    g_free(w->head);
    g_ptr_array_unref(w->sections);
    g_free(w);
}

static Section *
section_get(RvIniWriter *w, const char *name)
{
    Section *s;

    for (guint i = 0; i < w->sections->len; i++) {
        s = w->sections->pdata[i];
        if (strcmp(s->name, name) == 0)
            return s;
    }
    s = g_new0(Section, 1);
    s->name = g_strdup(name);
    s->keys = g_ptr_array_new_with_free_func(g_free);
    s->values = g_ptr_array_new_with_free_func(g_free);
    s->comments = g_ptr_array_new_with_free_func(g_free);
    g_ptr_array_add(w->sections, s);
    return s;
}

static char *
comment_lines(const char *prev, const char *text)
{
    g_auto(GStrv) lines = g_strsplit(text, "\n", -1);
    GString *out = g_string_new(prev);

    for (int i = 0; lines[i]; i++)
        g_string_append_printf(out, "#%s%s\n", *lines[i] ? " " : "", lines[i]);
    return g_string_free(out, FALSE);
}

void
rv_ini_writer_comment(RvIniWriter *w, const char *section, const char *text)
{
    char *c;

    if (!section) {
        c = comment_lines(w->head, text);
        g_free(w->head);
        w->head = c;
        return;
    }
    {
        Section *s = section_get(w, section);

        c = comment_lines(s->pending, text);
        g_free(s->pending);
        s->pending = c;
    }
}

static bool
has_control(const char *s)
{
    for (const char *c = s; *c; c++)
        if (g_ascii_iscntrl(*c))
            return true;
    return false;
}

int
rv_ini_writer_set(RvIniWriter *w, const char *section, const char *key, const char *value,
                  GError **error)
{
    Section *s;

    if (!*section || strchr(section, ']') || has_control(section))
        return rv_error_set(error, RV_ERROR_INVALID, EINVAL,
                            "invalid section name '%s' for an INI file", section);
    if (!*key || strchr(key, '=') || has_control(key) || strchr("[#;", key[0]) ||
        g_ascii_isspace(key[0]) || g_ascii_isspace(key[strlen(key) - 1]))
        return rv_error_set(error, RV_ERROR_INVALID, EINVAL,
                            "invalid key '%s' in [%s]: it would not read back", key, section);
    if (has_control(value) || (*value && (g_ascii_isspace(value[0]) ||
                                          g_ascii_isspace(value[strlen(value) - 1]))))
        return rv_error_set(error, RV_ERROR_INVALID, EINVAL,
                            "invalid value for %s in [%s]: a control character or surrounding "
                            "whitespace would not read back", key, section);
    s = section_get(w, section);
    for (guint i = 0; i < s->keys->len; i++)
        if (strcmp(s->keys->pdata[i], key) == 0) {
            g_free(s->values->pdata[i]);
            s->values->pdata[i] = g_strdup(value);
            return 0;
        }
    g_ptr_array_add(s->keys, g_strdup(key));
    g_ptr_array_add(s->values, g_strdup(value));
    g_ptr_array_add(s->comments, g_steal_pointer(&s->pending));
    return 0;
}

char *
rv_ini_writer_to_data(const RvIniWriter *w)
{
    GString *out = g_string_new(w->head);

    for (guint i = 0; i < w->sections->len; i++) {
        const Section *s = w->sections->pdata[i];

        if (!s->keys->len)
            continue;
        g_string_append_printf(out, "%s[%s]\n", out->len ? "\n" : "", s->name);
        for (guint k = 0; k < s->keys->len; k++) {
            const char *v = s->values->pdata[k];

            if (s->comments->pdata[k])
                g_string_append(out, s->comments->pdata[k]);
            g_string_append_printf(out, "%s =%s%s\n", (char *) s->keys->pdata[k], *v ? " " : "", v);
        }
    }
    return g_string_free(out, FALSE);
}
