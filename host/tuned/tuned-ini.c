/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * host/tuned/tuned-ini.c: tuned's profile files: Python ConfigParser's dialect as
 * tuned configures it (tuned/profiles/loader.py: delimiters '=',
 * inline_comment_prefixes '#', strict=False), the profile locator
 * (locator.py) and the merge of a profile with its includes (merger.py).
 * Semantics are documented in host/tuned/tuned.h.
 */
#include <errno.h>
#include <string.h>

#include "host/tuned/tuned-priv.h"
#include "util/error.h"
#include "util/file.h"

static void
opt_free(gpointer p)
{
    RvTunedOpt *o = p;

    g_free(o->key);
    g_free(o->value);
    g_free(o->file);
    g_free(o);
}

static void
unit_free(gpointer p)
{
    RvTunedUnit *u = p;

    g_free(u->name);
    g_free(u->file);
    g_ptr_array_unref(u->opts);
    g_free(u);
}

void
rv_tuned_conf_free(RvTunedConf *conf)
{
    if (!conf)
        return;
    g_ptr_array_unref(conf->units);
    g_ptr_array_unref(conf->files);
    g_free(conf);
}

static RvTunedConf *
conf_new(void)
{
    RvTunedConf *c = g_new0(RvTunedConf, 1);

    c->units = g_ptr_array_new_with_free_func(unit_free);
    c->files = g_ptr_array_new_with_free_func(g_free);
    return c;
}

RvTunedUnit *
rv_tuned_unit(const RvTunedConf *conf, const char *name)
{
    for (guint i = 0; i < conf->units->len; i++) {
        RvTunedUnit *u = conf->units->pdata[i];

        if (strcmp(u->name, name) == 0)
            return u;
    }
    return NULL;
}

RvTunedOpt *
rv_tuned_opt(const RvTunedUnit *unit, const char *key)
{
    if (!unit)
        return NULL;
    for (guint i = 0; i < unit->opts->len; i++) {
        RvTunedOpt *o = unit->opts->pdata[i];

        if (strcmp(o->key, key) == 0)
            return o;
    }
    return NULL;
}

static RvTunedUnit *
unit_get(RvTunedConf *conf, const char *name, const char *file, unsigned line)
{
    RvTunedUnit *u = rv_tuned_unit(conf, name);

    if (u)
        return u;
    u = g_new0(RvTunedUnit, 1);
    u->name = g_strdup(name);
    u->file = g_strdup(file);
    u->line = line;
    u->opts = g_ptr_array_new_with_free_func(opt_free);
    g_ptr_array_add(conf->units, u);
    return u;
}

/* dict assignment: a key set again keeps its position, takes the new value */
static RvTunedOpt *
unit_set(RvTunedUnit *u, const char *key, const char *value, const char *file, unsigned line)
{
    RvTunedOpt *o = rv_tuned_opt(u, key);

    if (!o) {
        o = g_new0(RvTunedOpt, 1);
        o->key = g_strdup(key);
        g_ptr_array_add(u->opts, o);
    }
    g_free(o->value);
    g_free(o->file);
    o->value = g_strdup(value);
    o->file = g_strdup(file);
    o->line = line;
    return o;
}

/* ConfigParser: an inline comment starts at a '#' preceded by whitespace. */
static void
cut_inline_comment(char *s)
{
    for (char *c = s + 1; *c; c++)
        if (*c == '#' && g_ascii_isspace(c[-1])) {
            *c = '\0';
            return;
        }
}

static unsigned
indent_of(const char *s)
{
    unsigned n = 0;

    while (s[n] == ' ' || s[n] == '\t')
        n++;
    return n;
}

int
rv_tuned_parse(const char *name, const char *text, bool no_value, const char *default_section,
               RvTunedConf **ret, GError **error)
{
    g_autoptr(RvTunedConf) conf = conf_new();
    g_auto(GStrv) lines = g_strsplit(text, "\n", -1);
    RvTunedUnit *cur = NULL;
    RvTunedOpt *last = NULL;
    unsigned last_indent = 0;

    g_ptr_array_add(conf->files, g_strdup(name));
    if (default_section)
        cur = unit_get(conf, default_section, name, 0);
    for (unsigned i = 0; lines[i]; i++) {
        unsigned lineno = i + 1, indent;
        g_autofree char *raw = g_strdup(lines[i]);
        char *s, *eq;

        g_strchomp(raw);
        s = g_strstrip(g_strdup(raw));
        if (!*s || *s == '#' || *s == ';') {
            g_free(s);
            if (!*raw)
                continue;
            continue;
        }
        cut_inline_comment(s);
        g_strchomp(s);
        indent = indent_of(raw);
        /* an indented line continues the value above it */
        if (last && indent > last_indent && last->value) {
            char *v = g_strconcat(last->value, "\n", s, NULL);

            g_free(last->value);
            last->value = v;
            g_free(s);
            continue;
        }
        if (*s == '[') {
            char *close = strrchr(s, ']');

            if (!close || close == s + 1) {
                rv_error_set(error, RV_ERROR_INVALID, EINVAL,
                             "%s:%u: invalid section header '%s'", name, lineno, s);
                g_free(s);
                return -EINVAL;
            }
            *close = '\0';
            cur = unit_get(conf, s + 1, name, lineno);
            last = NULL;
            g_free(s);
            continue;
        }
        if (!cur) {
            rv_error_set(error, RV_ERROR_INVALID, EINVAL,
                         "%s:%u: '%s' before any [section] (tuned refuses the file)", name,
                         lineno, s);
            g_free(s);
            return -EINVAL;
        }
        eq = strchr(s, '=');
        if (!eq && !no_value) {
            rv_error_set(error, RV_ERROR_INVALID, EINVAL,
                         "%s:%u: '%s' is not 'key = value' (tuned refuses the file)", name,
                         lineno, s);
            g_free(s);
            return -EINVAL;
        }
        if (eq)
            *eq = '\0';
        g_strchomp(s);
        if (!*s) {
            rv_error_set(error, RV_ERROR_INVALID, EINVAL,
                         "%s:%u: a value without a key (tuned refuses the file)", name, lineno);
            g_free(s);
            return -EINVAL;
        }
        last = unit_set(cur, s, eq ? g_strstrip(eq + 1) : NULL, name, lineno);
        last_indent = indent;
        g_free(s);
    }
    *ret = g_steal_pointer(&conf);
    return 0;
}

/* ---- locating and merging profiles --------------------------------------- */

/* tuned's LOAD_DIRECTORIES, searched last first (consts.py; 2.28 adds the
 * profiles/ folders). */
static const char * const load_dirs[] = {
    "/etc/tuned/profiles", "/etc/tuned", "/usr/lib/tuned/profiles", "/usr/lib/tuned", NULL
};

static char *
locate(const char *name, const char *from_dir)
{
    g_autofree char *base = g_path_get_basename(name);
    g_autofree char *own = g_build_filename(from_dir, base, "tuned.conf", NULL);

    if (g_file_test(own, G_FILE_TEST_IS_REGULAR))
        return g_steal_pointer(&own);
    for (int i = 0; load_dirs[i]; i++) {
        g_autofree char *f = g_build_filename(load_dirs[i], base, "tuned.conf", NULL);

        if (g_file_test(f, G_FILE_TEST_IS_REGULAR))
            return g_steal_pointer(&f);
    }
    return NULL;
}

/* ${i:PROFILE_DIR} (not after '\'): loader.py _expand_profile_dir() */
static char *
expand_profile_dir(const char *value, const char *dir)
{
    GString *s = g_string_new(NULL);
    const char *tok = "${i:PROFILE_DIR}";

    for (const char *c = value; *c;) {
        if (g_str_has_prefix(c, tok) && (c == value || c[-1] != '\\')) {
            g_string_append(s, dir);
            c += strlen(tok);
        } else {
            g_string_append_c(s, *c++);
        }
    }
    return g_string_free(s, FALSE);
}

/* merger.py _merge_two(): units of the newer profile update the older ones
 * (replace=true replaces the whole unit); [main] options likewise.  A
 * unit's drop= (unit.py: split on ',' or ';') removes those options of the
 * parent's unit before the child's own are merged, and is no option itself
 * (OpenShift's openshift-node-performance-rt drops network-latency's
 * kernel.numa_balancing this way). */
static void
merge_into(RvTunedConf *dst, const RvTunedConf *src)
{
    for (guint i = 0; i < src->units->len; i++) {
        const RvTunedUnit *su = src->units->pdata[i];
        const RvTunedOpt *rep = rv_tuned_opt(su, "replace");
        const RvTunedOpt *drop;
        RvTunedUnit *du = rv_tuned_unit(dst, su->name);

        if (du && rep && rep->value &&
            (g_ascii_strcasecmp(rep->value, "true") == 0 || strcmp(rep->value, "1") == 0))
            g_ptr_array_set_size(du->opts, 0);
        if (du && (drop = rv_tuned_opt(su, "drop")) && drop->value) {
            g_auto(GStrv) names = g_regex_split_simple("\\s*[,;]\\s*", drop->value, 0, 0);

            for (int k = 0; names[k]; k++) {
                const RvTunedOpt *gone = rv_tuned_opt(du, g_strstrip(names[k]));

                if (gone)
                    g_ptr_array_remove(du->opts, (gpointer) gone);
            }
        }
        du = unit_get(dst, su->name, su->file, su->line);
        g_free(du->file);
        du->file = g_strdup(su->file);
        du->line = su->line;
        for (guint j = 0; j < su->opts->len; j++) {
            const RvTunedOpt *o = su->opts->pdata[j];

            if (strcmp(o->key, "drop") != 0)
                unit_set(du, o->key, o->value, o->file, o->line);
        }
    }
}

static int
load_one(const char *file, GPtrArray *seen, GPtrArray *profiles, unsigned depth,
         GError **error)
{
    g_autofree char *text = NULL;
    g_autofree char *dir = g_path_get_dirname(file);
    g_autofree char *set_dir = g_path_get_dirname(dir);
    g_autoptr(RvTunedConf) conf = NULL;
    RvTunedUnit *main_unit;
    RvTunedOpt *inc;
    int r;

    if (depth > 32)
        return rv_error_set(error, RV_ERROR_INVALID, ELOOP,
                            "%s: includes nested more than 32 deep", file);
    if (rv_file_read(file, RV_FILE_READ_MAX, &text, error) < 0)
        return -EIO;
    r = rv_tuned_parse(file, text, false, NULL, &conf, error);
    if (r < 0)
        return r;
    g_ptr_array_add(seen, g_strdup(file));
    for (guint i = 0; i < conf->units->len; i++) {
        RvTunedUnit *u = conf->units->pdata[i];

        for (guint j = 0; j < u->opts->len; j++) {
            RvTunedOpt *o = u->opts->pdata[j];
            char *v = expand_profile_dir(o->value, dir);

            g_free(o->value);
            o->value = v;
        }
    }
    main_unit = rv_tuned_unit(conf, "main");
    inc = rv_tuned_opt(main_unit, "include");
    if (inc) {
        g_auto(GStrv) names = g_regex_split_simple("\\s*[,;]\\s*", inc->value, 0, 0);

        for (int i = 0; names[i]; i++) {
            bool optional = names[i][0] == '-';
            const char *name = names[i] + optional;
            g_autofree char *found = NULL;
            bool dup = false;

            if (!*name)
                continue;
            found = locate(name, set_dir);
            for (guint k = 0; found && k < seen->len; k++)
                dup |= strcmp(seen->pdata[k], found) == 0;
            if (dup)
                continue;     /* tuned skips a file already loaded */
            if (!found) {
                if (optional)
                    continue;
                return rv_error_set(error, RV_ERROR_INVALID, ENOENT,
                                    "%s:%u: include '%s': no %s/tuned.conf beside the profile "
                                    "nor in /etc/tuned or /usr/lib/tuned", inc->file, inc->line,
                                    name, name);
            }
            r = load_one(found, seen, profiles, depth + 1, error);
            if (r < 0)
                return r;
        }
        g_ptr_array_remove(main_unit->opts, inc);
    }
    g_ptr_array_add(profiles, g_steal_pointer(&conf));
    return 0;
}

int
rv_tuned_load_merged(const char *path, RvTunedConf **ret, GError **error)
{
    g_autoptr(GPtrArray) seen = g_ptr_array_new_with_free_func(g_free);
    g_autoptr(GPtrArray) profiles = g_ptr_array_new_with_free_func((GDestroyNotify) rv_tuned_conf_free);
    g_autofree char *file = g_file_test(path, G_FILE_TEST_IS_DIR)
                                ? g_build_filename(path, "tuned.conf", NULL) : g_strdup(path);
    g_autoptr(RvTunedConf) merged = conf_new();
    int r;

    r = load_one(file, seen, profiles, 0, error);
    if (r < 0)
        return r;
    for (guint i = 0; i < profiles->len; i++)
        merge_into(merged, profiles->pdata[i]);
    /* top profile first, then the includes in load order */
    g_ptr_array_add(merged->files, g_strdup(file));
    for (guint i = 0; i < seen->len; i++)
        if (strcmp(seen->pdata[i], file) != 0)
            g_ptr_array_add(merged->files, g_strdup(seen->pdata[i]));
    *ret = g_steal_pointer(&merged);
    return 0;
}
