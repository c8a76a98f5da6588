/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * util/ini.c: tuned-style INI profiles with include= and file:line errors.
 *
 * GKeyFile would parse the syntax, but it forgets where a value came from,
 * and every profile error must name its file and line; hence this small
 * line parser.
 */
#include <errno.h>
#include <stdarg.h>
#include <stdbool.h>
#include <string.h>

#include "util/error.h"
#include "util/file.h"
#include "util/ini.h"
#include "util/suggest.h"
#include "util/units.h"

#define INI_MAX_INCLUDE_DEPTH 16
#define INI_MAX_FILE_SIZE (1u << 20)

struct RvIni {
    char *path;
    GPtrArray *files;    /* char *, load order */
    GPtrArray *entries;  /* RvIniEntry *, load order; later ones override */
    GHashTable *asked;   /* section -> GPtrArray of the keys a loader looked up
                          * (for "did you mean" on an unknown key) */
};

static void
entry_free(gpointer p)
{
    RvIniEntry *e = p;

    g_free(e->section);
    g_free(e->key);
    g_free(e->value);
    g_free(e->file);
    g_free(e);
}

void
rv_ini_free(RvIni *ini)
{
    if (!ini)
        return;
    g_free(ini->path);
    g_ptr_array_unref(ini->files);
    g_ptr_array_unref(ini->entries);
    if (ini->asked)
        g_hash_table_unref(ini->asked);
    g_free(ini);
}

const char *
rv_ini_path(const RvIni *ini)
{
    return ini->path;
}

GPtrArray *
rv_ini_files(const RvIni *ini)
{
    return ini->files;
}

static int load_file(RvIni *ini, const char *path, GPtrArray *stack, GError **error);

static char *
resolve_include(const char *from_file, const char *name)
{
    g_autofree char *dir = g_path_get_dirname(from_file);
    g_autofree char *base = rv_path_join_shown(dir, name);

    if (g_file_test(base, G_FILE_TEST_IS_REGULAR))
        return g_steal_pointer(&base);
    if (!g_str_has_suffix(base, ".ini")) {
        char *with = g_strconcat(base, ".ini", NULL);

        if (g_file_test(with, G_FILE_TEST_IS_REGULAR))
            return with;
        g_free(with);
    }
    return NULL;
}

/* A profile is text: a control byte (C0 other than tab and end of line, or
 * DEL) has no meaning in any value and would reach a terminal raw or make
 * the domain XML ill-formed (XML 1.0 section 2.2 allows none of them).
 * Named by line and code, the line itself is not shown. */
static int
check_no_controls(const char *name, const char *text, gsize len, GError **error)
{
    unsigned line = 1;

    for (gsize i = 0; i < len; i++) {
        unsigned char c = (unsigned char) text[i];

        if (c == '\n')
            line++;
        else if ((c < 0x20 && c != '\t' && c != '\r') || c == 0x7f)
            return rv_error_set(error, RV_ERROR_INVALID, EINVAL,
                                "%s:%u: control character 0x%02x: a profile holds text only",
                                name, line, c);
    }
    return 0;
}

/* A section without a key leaves no entry, so every reader would skip it
 * silently (an empty [scenario:b] vanished from the plan): refused. */
static int
empty_section(const char *name, const char *section, unsigned line, GError **error)
{
    return rv_error_set(error, RV_ERROR_INVALID, EINVAL,
                        "%s:%u: section [%s] has no key (an empty section would be ignored; "
                        "give it at least one, e.g. description = ...)", name, line, section);
}

static int
parse_text(RvIni *ini, const char *name, const char *text, GPtrArray *stack,
           GError **error)
{
    g_auto(GStrv) lines = g_strsplit(text, "\n", -1);
    g_autofree char *section = NULL;
    g_autoptr(GPtrArray) own = g_ptr_array_new_with_free_func(entry_free);
    /* section name -> first header line in this file, to refuse a section
     * or a key written twice in one file (a copy-paste slip that would
     * silently merge two scenarios); overriding is what include= is for. */
    g_autoptr(GHashTable) headers = g_hash_table_new_full(g_str_hash, g_str_equal, g_free, NULL);
    /* An included file may be anything include= points at (../../etc/shadow):
     * its parse errors name the file and line, never its text. */
    bool included = stack->len > 1;
    unsigned section_line = 0, section_keys = 0;

    if (check_no_controls(name, text, strlen(text), error) < 0)
        return -EINVAL;
    for (guint i = 0; lines[i]; i++) {
        char *line = g_strstrip(lines[i]);
        unsigned lineno = i + 1;
        char *eq;

        if (!*line || *line == '#' || *line == ';')
            continue;
        if (*line == '[') {
            char *end = strchr(line, ']');

            if ((!end || end[1] != '\0' || end == line + 1) && included)
                return rv_error_set(error, RV_ERROR_INVALID, EINVAL,
                                    "%s:%u: invalid section header (not a profile? its text "
                                    "is not shown)", name, lineno);
            if (!end || end[1] != '\0' || end == line + 1)
                return rv_error_set(error, RV_ERROR_INVALID, EINVAL,
                                    "%s:%u: invalid section header '%s'", name, lineno, line);
            *end = '\0';
            if (section && !section_keys)
                return empty_section(name, section, section_line, error);
            g_free(section);
            section = g_strstrip(g_strdup(line + 1));
            section_line = lineno;
            section_keys = 0;
            if (g_hash_table_contains(headers, section))
                return rv_error_set(error, RV_ERROR_INVALID, EINVAL,
                                    "%s:%u: duplicate section [%s] (first at line %u)", name,
                                    lineno, section,
                                    GPOINTER_TO_UINT(g_hash_table_lookup(headers, section)));
            g_hash_table_insert(headers, g_strdup(section), GUINT_TO_POINTER(lineno));
            continue;
        }
        eq = strchr(line, '=');
        if (!eq && included)
            return rv_error_set(error, RV_ERROR_INVALID, EINVAL,
                                "%s:%u: expected 'key = value' (not a profile? its text is "
                                "not shown)", name, lineno);
        if (!eq)
            return rv_error_set(error, RV_ERROR_INVALID, EINVAL,
                                "%s:%u: expected 'key = value', got '%s'", name, lineno, line);
        if (!section && included)
            return rv_error_set(error, RV_ERROR_INVALID, EINVAL,
                                "%s:%u: key outside of any [section] (not a profile? its text "
                                "is not shown)", name, lineno);
        if (!section)
            return rv_error_set(error, RV_ERROR_INVALID, EINVAL,
                                "%s:%u: key outside of any [section]: '%s'", name, lineno, line);
        *eq = '\0';

        RvIniEntry *e = g_new0(RvIniEntry, 1);
        section_keys++;
        e->section = g_strdup(section);
        e->key = g_strstrip(g_strdup(line));
        e->value = g_strstrip(g_strdup(eq + 1));
        e->file = g_strdup(name);
        e->line = lineno;
        if (!*e->key) {
            entry_free(e);
            return rv_error_set(error, RV_ERROR_INVALID, EINVAL,
                                "%s:%u: empty key", name, lineno);
        }
        for (const char *k = e->key; *k; k++) {
            if (!g_ascii_isalnum(*k) && !strchr("_-.:", *k)) {
                int r = included
                    ? rv_error_set(error, RV_ERROR_INVALID, EINVAL,
                                   "%s:%u: invalid key (not a profile? its text is not shown)",
                                   name, lineno)
                    : rv_error_set(error, RV_ERROR_INVALID, EINVAL,
                                   "%s:%u: invalid key '%s'", name, lineno, e->key);
                entry_free(e);
                return r;
            }
        }
        for (guint j = 0; j < own->len; j++) {
            const RvIniEntry *o = own->pdata[j];

            if (strcmp(o->section, e->section) == 0 && strcmp(o->key, e->key) == 0) {
                int r = rv_error_set(error, RV_ERROR_INVALID, EINVAL,
                                     "%s:%u: duplicate key '%s' in [%s] (first at line %u)",
                                     name, lineno, e->key, e->section, o->line);
                entry_free(e);
                return r;
            }
        }
        g_ptr_array_add(own, e);
    }
    if (section && !section_keys)
        return empty_section(name, section, section_line, error);

    /* Includes first (tuned: the including profile overrides), then own keys. */
    for (guint i = 0; i < own->len; i++) {
        RvIniEntry *e = own->pdata[i];
        g_auto(GStrv) names = NULL;

        if (strcmp(e->section, "main") != 0 || strcmp(e->key, "include") != 0)
            continue;
        e->used = true;
        names = g_strsplit_set(e->value, ", ", -1);
        for (guint j = 0; names[j]; j++) {
            g_autofree char *inc = NULL;
            int r;

            if (!*names[j])
                continue;
            inc = resolve_include(name, names[j]);
            if (!inc) {
                g_autofree char *dir = g_path_get_dirname(name);
                g_autofree char *where = g_path_is_absolute(names[j])
                    ? g_strdup(names[j]) : g_build_filename(dir, names[j], NULL);

                /* say where it looked: an include is a file beside the
                 * including profile, not a name from 'rtvirt profiles' */
                return rv_error_set(error, RV_ERROR_INVALID, ENOENT,
                                    "%s:%u: included profile '%s' not found (no %s%s: an "
                                    "include is a path relative to the including file)",
                                    e->file, e->line, names[j], where,
                                    g_str_has_suffix(where, ".ini") ? "" : " nor .ini");
            }
            r = load_file(ini, inc, stack, error);
            if (r < 0) {
                if (error && *error)
                    g_prefix_error(error, "%s:%u: in include '%s': ", e->file, e->line, names[j]);
                return r;
            }
        }
    }
    for (guint i = 0; i < own->len; i++)
        g_ptr_array_add(ini->entries, own->pdata[i]);
    g_ptr_array_set_free_func(own, NULL);
    return 0;
}

static int
load_file(RvIni *ini, const char *path, GPtrArray *stack, GError **error)
{
    g_autofree char *text = NULL;
    g_autofree char *canon = g_canonicalize_filename(path, NULL);
    gsize len = 0;
    gssize n;
    int r;

    for (guint i = 0; i < stack->len; i++)
        if (strcmp(stack->pdata[i], canon) == 0)
            return rv_error_set(error, RV_ERROR_INVALID, ELOOP,
                                "%s: include cycle", path);
    if (stack->len >= INI_MAX_INCLUDE_DEPTH)
        return rv_error_set(error, RV_ERROR_INVALID, ELOOP,
                            "%s: includes nested deeper than %d", path, INI_MAX_INCLUDE_DEPTH);
    n = rv_file_read(path, INI_MAX_FILE_SIZE, &text, error);
    if (n < 0)
        return (int) n;
    len = (gsize) n;
    r = rv_file_check_text(path, text, len, error);
    if (r < 0)
        return r;

    g_ptr_array_add(ini->files, g_strdup(path));
    g_ptr_array_add(stack, g_strdup(canon));
    r = parse_text(ini, path, text, stack, error);
    g_free(g_ptr_array_steal_index(stack, stack->len - 1));
    return r;
}

static RvIni *
ini_new(const char *path)
{
    RvIni *ini = g_new0(RvIni, 1);

    ini->path = g_strdup(path);
    ini->files = g_ptr_array_new_with_free_func(g_free);
    ini->entries = g_ptr_array_new_with_free_func(entry_free);
    return ini;
}

int
rv_ini_load(const char *path, RvIni **ret, GError **error)
{
    g_autoptr(RvIni) ini = ini_new(path);
    g_autoptr(GPtrArray) stack = g_ptr_array_new_with_free_func(g_free);
    int r = load_file(ini, path, stack, error);

    if (r < 0)
        return r;
    *ret = g_steal_pointer(&ini);
    return 0;
}

int
rv_ini_load_data(const char *name, const char *text, RvIni **ret, GError **error)
{
    g_autoptr(RvIni) ini = ini_new(name);
    g_autoptr(GPtrArray) stack = g_ptr_array_new_with_free_func(g_free);
    int r;

    g_ptr_array_add(ini->files, g_strdup(name));
    r = parse_text(ini, name, text, stack, error);
    if (r < 0)
        return r;
    *ret = g_steal_pointer(&ini);
    return 0;
}

/* The effective entry is the last one for (section, key). */
static RvIniEntry *
find(const RvIni *ini, const char *section, const char *key)
{
    for (guint i = ini->entries->len; i > 0; i--) {
        RvIniEntry *e = ini->entries->pdata[i - 1];

        if (strcmp(e->section, section) == 0 && strcmp(e->key, key) == 0)
            return e;
    }
    return NULL;
}

static bool
is_effective(const RvIni *ini, const RvIniEntry *e)
{
    return find(ini, e->section, e->key) == e;
}

GPtrArray *
rv_ini_sections(const RvIni *ini)
{
    GPtrArray *out = g_ptr_array_new();

    for (guint i = 0; i < ini->entries->len; i++) {
        RvIniEntry *e = ini->entries->pdata[i];
        bool seen = false;

        for (guint j = 0; j < out->len && !seen; j++)
            seen = strcmp(out->pdata[j], e->section) == 0;
        if (!seen)
            g_ptr_array_add(out, e->section);
    }
    return out;
}

GPtrArray *
rv_ini_entries(const RvIni *ini, const char *section)
{
    GPtrArray *out = g_ptr_array_new();

    for (guint i = 0; i < ini->entries->len; i++) {
        RvIniEntry *e = ini->entries->pdata[i];

        if (strcmp(e->section, section) == 0 && is_effective(ini, e))
            g_ptr_array_add(out, e);
    }
    return out;
}

const RvIniEntry *
rv_ini_lookup(RvIni *ini, const char *section, const char *key)
{
    RvIniEntry *e = find(ini, section, key);
    GPtrArray *keys;

    if (!ini->asked)
        ini->asked = g_hash_table_new_full(g_str_hash, g_str_equal, g_free,
                                           (GDestroyNotify) g_ptr_array_unref);
    keys = g_hash_table_lookup(ini->asked, section);
    if (!keys) {
        keys = g_ptr_array_new_with_free_func(g_free);
        g_hash_table_insert(ini->asked, g_strdup(section), keys);
    }
    if (!g_ptr_array_find_with_equal_func(keys, key, g_str_equal, NULL))
        g_ptr_array_add(keys, g_strdup(key));
    if (!e)
        return NULL;
    /* every definition of the key counts as read, the overridden ones too */
    for (guint i = 0; i < ini->entries->len; i++) {
        RvIniEntry *o = ini->entries->pdata[i];

        if (strcmp(o->section, section) == 0 && strcmp(o->key, key) == 0)
            o->used = true;
    }
    return e;
}

const char *
rv_ini_get(RvIni *ini, const char *section, const char *key)
{
    const RvIniEntry *e = rv_ini_lookup(ini, section, key);

    return e ? e->value : NULL;
}

int
rv_ini_entry_error(const RvIniEntry *entry, GError **error, const char *fmt, ...)
{
    va_list ap;
    g_autofree char *msg = NULL;

    va_start(ap, fmt);
    msg = g_strdup_vprintf(fmt, ap);
    va_end(ap);
    return rv_error_set(error, RV_ERROR_INVALID, EINVAL, "%s:%u: %s", entry->file,
                        entry->line, msg);
}

void
rv_ini_entry_prefix_error(const RvIniEntry *entry, GError **error, const char *fmt, ...)
{
    va_list ap;
    g_autofree char *msg = NULL;

    if (!error || !*error)
        return;
    va_start(ap, fmt);
    msg = g_strdup_vprintf(fmt, ap);
    va_end(ap);
    g_prefix_error(error, "%s:%u: %s", entry->file, entry->line, msg);
}

static int
bad_value(const RvIniEntry *e, GError **error, const char *why)
{
    return rv_ini_entry_error(e, error, "invalid %s '%s' in [%s]: %s", e->key, e->value,
                              e->section, why);
}

int
rv_ini_get_bool(RvIni *ini, const char *section, const char *key, bool *ret, GError **error)
{
    const RvIniEntry *e = rv_ini_lookup(ini, section, key);
    static const char * const yes[] = { "1", "true", "yes", "on", "y", NULL };
    static const char * const no[] = { "0", "false", "no", "off", "n", NULL };

    if (!e)
        return 0;
    for (int i = 0; yes[i]; i++)
        if (g_ascii_strcasecmp(e->value, yes[i]) == 0) {
            *ret = true;
            return 0;
        }
    for (int i = 0; no[i]; i++)
        if (g_ascii_strcasecmp(e->value, no[i]) == 0) {
            *ret = false;
            return 0;
        }
    return bad_value(e, error, "expected true/false, yes/no, on/off or 1/0");
}

int
rv_ini_get_int(RvIni *ini, const char *section, const char *key, gint64 min, gint64 max,
               gint64 *ret, GError **error)
{
    const RvIniEntry *e = rv_ini_lookup(ini, section, key);
    gint64 v;
    g_autoptr(GError) local = NULL;

    if (!e)
        return 0;
    if (!g_ascii_string_to_signed(e->value, 10, min, max, &v, &local)) {
        g_autofree char *why = g_strdup_printf("expected an integer from %" G_GINT64_FORMAT
                                               " to %" G_GINT64_FORMAT, min, max);
        return bad_value(e, error, why);
    }
    *ret = v;
    return 0;
}

int
rv_ini_get_duration_us(RvIni *ini, const char *section, const char *key, guint64 *ret,
                       GError **error)
{
    const RvIniEntry *e = rv_ini_lookup(ini, section, key);
    guint64 v;

    if (!e)
        return 0;
    if (rv_parse_duration_us(e->value, &v) < 0)
        return bad_value(e, error, "expected a duration such as 500ms, 30s, 10m, 1h");
    *ret = v;
    return 0;
}

int
rv_ini_get_size(RvIni *ini, const char *section, const char *key, guint64 *ret,
                GError **error)
{
    const RvIniEntry *e = rv_ini_lookup(ini, section, key);
    guint64 v;

    if (!e)
        return 0;
    if (rv_parse_size(e->value, &v) < 0)
        return bad_value(e, error, "expected a size such as 512M, 2G, 4096K");
    *ret = v;
    return 0;
}

int
rv_ini_get_cpulist(RvIni *ini, const char *section, const char *key, unsigned nr_cpu_ids,
                   RvCpuSet *ret, GError **error)
{
    const RvIniEntry *e = rv_ini_lookup(ini, section, key);
    RvCpuSet set;
    int r;

    if (!e)
        return 0;
    r = rv_cpulist_parse(e->value, nr_cpu_ids, &set, error);
    if (r < 0) {
        rv_ini_entry_prefix_error(e, error, "in [%s] %s: ", e->section, e->key);
        return r;
    }
    *ret = set;
    return 0;
}

int
rv_ini_get_enum(RvIni *ini, const char *section, const char *key,
                const char * const *choices, int *ret, GError **error)
{
    const RvIniEntry *e = rv_ini_lookup(ini, section, key);
    g_autofree char *all = NULL;

    if (!e)
        return 0;
    for (int i = 0; choices[i]; i++)
        if (strcmp(e->value, choices[i]) == 0) {
            *ret = i;
            return 0;
        }
    all = g_strjoinv(", ", (char **) choices);
    {
        g_autofree char *why = g_strdup_printf("expected one of: %s", all);
        return bad_value(e, error, why);
    }
}

int
rv_ini_get_strv(RvIni *ini, const char *section, const char *key, char ***ret,
                GError **error)
{
    const RvIniEntry *e = rv_ini_lookup(ini, section, key);
    g_auto(GStrv) parts = NULL;
    GPtrArray *out;

    (void) error;
    if (!e)
        return 0;
    parts = g_strsplit_set(e->value, ", \t", -1);
    out = g_ptr_array_new();
    for (guint i = 0; parts[i]; i++)
        if (*parts[i])
            g_ptr_array_add(out, g_strdup(parts[i]));
    g_ptr_array_add(out, NULL);
    *ret = (char **) g_ptr_array_free(out, FALSE);
    return 0;
}

static bool
section_handled(const char * const *sections, const char *section)
{
    if (!sections)
        return true;
    for (int i = 0; sections[i]; i++) {
        size_t n = strlen(sections[i]);

        if (n && sections[i][n - 1] == '*') {
            if (strncmp(section, sections[i], n - 1) == 0)
                return true;
        } else if (strcmp(section, sections[i]) == 0) {
            return true;
        }
    }
    return false;
}

int
rv_ini_check_unused(RvIni *ini, const char * const *sections, GError **error)
{
    for (guint i = 0; i < ini->entries->len; i++) {
        RvIniEntry *e = ini->entries->pdata[i];

        if (!section_handled(sections, e->section))
            return rv_ini_entry_error(e, error, "unknown section [%s]", e->section);
        if (!e->used) {
            GPtrArray *keys = ini->asked ? g_hash_table_lookup(ini->asked, e->section) : NULL;
            g_autoptr(GPtrArray) cands = g_ptr_array_new();
            g_autofree char *hint = NULL;

            for (guint k = 0; keys && k < keys->len; k++)
                g_ptr_array_add(cands, keys->pdata[k]);
            if (strcmp(e->section, "main") == 0)
                g_ptr_array_add(cands, (gpointer) "include");   /* read at load */
            g_ptr_array_add(cands, NULL);
            hint = rv_suggest_hint(e->key, (const char * const *) cands->pdata);
            return rv_ini_entry_error(e, error, "unknown key '%s' in [%s]%s", e->key,
                                      e->section, hint);
        }
    }
    return 0;
}
