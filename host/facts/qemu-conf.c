/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * host/facts/qemu-conf.c: libvirt's qemu.conf, parsed as libvirt's
 * src/util/virconf.c does (see host/facts/qemu-conf.h for the grammar).
 */
#include <errno.h>
#include <string.h>

#include "host/facts/qemu-conf.h"
#include "util/error.h"

typedef struct {
    const char *path;
    const char *base;
    const char *cur;
    unsigned line;
    GError **error;
} Parser;

#define IS_EOL(c) ((c) == '\n' || (c) == '\r')
#define IS_BLANK(c) ((c) == ' ' || (c) == '\t')

static void
skip_blanks(Parser *p)
{
    while (IS_BLANK(*p->cur))
        p->cur++;
}

static void
skip_blanks_and_eol(Parser *p)
{
    while (IS_BLANK(*p->cur) || IS_EOL(*p->cur)) {
        if (*p->cur == '\n')
            p->line++;
        p->cur++;
    }
}

static int
syntax_error(Parser *p, const char *what)
{
    return rv_error_set(p->error, RV_ERROR_INVALID, EINVAL, "%s:%u: %s", p->path, p->line, what);
}

static void
entry_free(gpointer data)
{
    RvQemuConfEntry *e = data;

    g_free(e->key);
    g_free(e->text);
    g_strfreev(e->items);
    g_free(e);
}

void
rv_host_qemu_conf_free(RvQemuConf *conf)
{
    if (!conf)
        return;
    g_free(conf->path);
    if (conf->entries)
        g_ptr_array_unref(conf->entries);
    g_free(conf);
}

/* A quoted string (virConfParseString()): "..." and '...' end on the same
 * line, """...""" may span lines. */
static int
parse_string(Parser *p, char **ret)
{
    const char *start;
    char q = *p->cur;

    if (g_str_has_prefix(p->cur, "\"\"\"")) {
        const char *endq;

        start = p->cur + 3;
        endq = strstr(start, "\"\"\"");
        if (!endq)
            return syntax_error(p, "unterminated string");
        for (const char *s = start; s < endq; s++)
            if (*s == '\n')
                p->line++;
        *ret = g_strndup(start, endq - start);
        p->cur = endq + 3;
        return 0;
    }
    start = ++p->cur;
    while (*p->cur && *p->cur != q && !IS_EOL(*p->cur))
        p->cur++;
    if (*p->cur != q)
        return syntax_error(p, "unterminated string");
    *ret = g_strndup(start, p->cur - start);
    p->cur++;
    return 0;
}

/* One value (virConfParseValue()); *ret_items only for a list. */
static int
parse_value(Parser *p, char **ret_text, char ***ret_items, RvQemuConfType *ret_type)
{
    skip_blanks(p);
    if (*p->cur == '"' || *p->cur == '\'') {
        *ret_type = RV_QEMU_CONF_STRING;
        return parse_string(p, ret_text);
    }
    if (*p->cur == '[') {
        g_autoptr(GPtrArray) items = g_ptr_array_new_with_free_func(g_free);

        p->cur++;
        skip_blanks_and_eol(p);
        while (*p->cur && *p->cur != ']') {
            char *t = NULL;
            g_auto(GStrv) sub = NULL;
            RvQemuConfType ty;

            if (items->len) {
                if (*p->cur != ',')
                    return syntax_error(p, "expecting a separator in list");
                p->cur++;
                skip_blanks_and_eol(p);
                if (*p->cur == ']')
                    break;
            }
            if (parse_value(p, &t, &sub, &ty) < 0)
                return -EINVAL;
            g_ptr_array_add(items, t);
            skip_blanks_and_eol(p);
        }
        if (*p->cur != ']')
            return syntax_error(p, "list is not closed with ]");
        p->cur++;
        g_ptr_array_add(items, NULL);
        *ret_type = RV_QEMU_CONF_LIST;
        *ret_text = g_strjoinv(",", (char **) items->pdata);
        if (ret_items)
            *ret_items = (char **) g_ptr_array_free(g_steal_pointer(&items), FALSE);
        return 0;
    }
    if (g_ascii_isdigit(*p->cur) || *p->cur == '-' || *p->cur == '+') {
        const char *start = p->cur;

        p->cur++;
        if (!g_ascii_isdigit(*start) && !g_ascii_isdigit(*p->cur))
            return syntax_error(p, "unterminated number");
        while (g_ascii_isdigit(*p->cur))
            p->cur++;
        *ret_type = RV_QEMU_CONF_NUMBER;
        *ret_text = g_strndup(start, p->cur - start);
        return 0;
    }
    return syntax_error(p, "expecting a value");
}

/* One statement (virConfParseStatement()) and its separator
 * (virConfParseSeparator()); a comment line adds nothing. */
static int
parse_statement(Parser *p, GPtrArray *entries)
{
    g_autoptr(GPtrArray) guard = NULL;
    RvQemuConfEntry *e;
    const char *k;

    skip_blanks_and_eol(p);
    if (!*p->cur)
        return 0;
    if (*p->cur == '#') {
        while (*p->cur && !IS_EOL(*p->cur))
            p->cur++;
        return 0;
    }
    if (!g_ascii_isalpha(*p->cur))
        return syntax_error(p, "expecting a name");
    k = p->cur;
    while (g_ascii_isalnum(*p->cur) || *p->cur == '_')
        p->cur++;
    guard = g_ptr_array_new_with_free_func(entry_free);
    e = g_new0(RvQemuConfEntry, 1);
    g_ptr_array_add(guard, e);
    e->key = g_strndup(k, p->cur - k);
    e->line = p->line;
    e->start = k - p->base;
    skip_blanks(p);
    if (*p->cur != '=')
        return syntax_error(p, "expecting an assignment");
    p->cur++;
    if (parse_value(p, &e->text, &e->items, &e->type) < 0)
        return -EINVAL;
    e->end = p->cur - p->base;
    skip_blanks(p);
    if (*p->cur == '#')
        while (*p->cur && !IS_EOL(*p->cur))
            p->cur++;
    /* the separator */
    skip_blanks(p);
    if (*p->cur == ';')
        p->cur++;
    else if (*p->cur && !IS_EOL(*p->cur))
        return syntax_error(p, "expecting a separator");
    g_ptr_array_add(entries, g_ptr_array_steal_index(guard, 0));
    return 0;
}

int
rv_host_qemu_conf_parse(const char *text, const char *path, RvQemuConf **ret, GError **error)
{
    g_autoptr(RvQemuConf) conf = g_new0(RvQemuConf, 1);
    Parser p = { .path = path ? path : RV_QEMU_CONF_PATH, .base = text, .cur = text,
                 .line = 1, .error = error };

    conf->path = g_strdup(p.path);
    conf->entries = g_ptr_array_new_with_free_func(entry_free);
    while (*p.cur) {
        if (parse_statement(&p, conf->entries) < 0)
            return -EINVAL;
    }
    *ret = g_steal_pointer(&conf);
    return 0;
}

int
rv_host_qemu_conf_load(RvRoot *root, const char *path, RvQemuConf **ret, char **ret_text,
                       GError **error)
{
    g_autofree char *text = NULL;
    gssize n;
    int r;

    if (!path)
        path = RV_QEMU_CONF_PATH;
    n = rv_host_root_read(root, path, &text, error);
    if (n < 0)
        return (int) n;
    r = rv_host_qemu_conf_parse(text, path, ret, error);
    if (r < 0)
        return r;
    if (ret_text)
        *ret_text = g_steal_pointer(&text);
    return 0;
}

const RvQemuConfEntry *
rv_host_qemu_conf_get(const RvQemuConf *conf, const char *key)
{
    if (!conf)
        return NULL;
    for (guint i = 0; i < conf->entries->len; i++) {
        const RvQemuConfEntry *e = conf->entries->pdata[i];

        if (strcmp(e->key, key) == 0)
            return e;
    }
    return NULL;
}

const char *
rv_host_qemu_conf_get_text(const RvQemuConf *conf, const char *key)
{
    const RvQemuConfEntry *e = rv_host_qemu_conf_get(conf, key);

    return e ? e->text : NULL;
}

char *
rv_host_qemu_conf_set(const char *text, const char *key, const char *value, GError **error)
{
    g_autoptr(RvQemuConf) conf = NULL;
    const RvQemuConfEntry *e;
    GString *out;

    if (rv_host_qemu_conf_parse(text, NULL, &conf, error) < 0)
        return NULL;
    out = g_string_new(NULL);
    e = rv_host_qemu_conf_get(conf, key);
    if (e) {
        g_string_append_len(out, text, e->start);
        g_string_append_printf(out, "%s = %s", key, value);
        g_string_append(out, text + e->end);
        return g_string_free(out, FALSE);
    }
    g_string_append(out, text);
    if (out->len && out->str[out->len - 1] != '\n')
        g_string_append_c(out, '\n');
    g_string_append_printf(out, "# Set by rtvirt host apply\n%s = %s\n", key, value);
    return g_string_free(out, FALSE);
}

bool
rv_host_qemu_conf_is_string(const RvQemuConfEntry *e, const char *s)
{
    return e && e->type == RV_QEMU_CONF_STRING && strcmp(e->text, s) == 0;
}

bool
rv_host_qemu_conf_is_words(const RvQemuConfEntry *e, const char *const *words)
{
    if (!e || e->type != RV_QEMU_CONF_LIST || g_strv_length(e->items) != g_strv_length((char **) words))
        return false;
    for (guint i = 0; e->items[i]; i++)
        if (!g_strv_contains(words, e->items[i]))
            return false;
    return true;
}
