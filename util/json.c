/* SPDX-License-Identifier: GPL-2.0-or-later */
#include <errno.h>
#include <math.h>
#include <string.h>

#include "util/error.h"
#include "util/json.h"

void
rv_json_add_string_or_null(JsonBuilder *b, const char *key, const char *value)
{
    json_builder_set_member_name(b, key);
    if (value)
        json_builder_add_string_value(b, value);
    else
        json_builder_add_null_value(b);
}

void
rv_json_add_int(JsonBuilder *b, const char *key, gint64 value)
{
    json_builder_set_member_name(b, key);
    json_builder_add_int_value(b, value);
}

void
rv_json_add_bool(JsonBuilder *b, const char *key, bool value)
{
    json_builder_set_member_name(b, key);
    json_builder_add_boolean_value(b, value);
}

void
rv_json_add_double(JsonBuilder *b, const char *key, double value)
{
    json_builder_set_member_name(b, key);
    if (isfinite(value))
        json_builder_add_double_value(b, value);
    else
        json_builder_add_null_value(b);
}

void
rv_json_add_cpuset(JsonBuilder *b, const char *key, const RvCpuSet *set)
{
    g_autofree char *list = set ? rv_cpulist_format(set) : NULL;

    rv_json_add_string_or_null(b, key, list);
}

char *
rv_json_to_text(JsonNode *node)
{
    g_autoptr(JsonGenerator) gen = json_generator_new();
    g_autofree char *text = NULL;

    json_generator_set_root(gen, node);
    json_generator_set_pretty(gen, TRUE);
    json_generator_set_indent(gen, 2);
    text = json_generator_to_data(gen, NULL);
    return g_strconcat(text, "\n", NULL);
}

int
rv_json_check_depth(const char *name, const char *text, gsize len,
                    guint max_depth, GError **error)
{
    gboolean in_str = FALSE, esc = FALSE;
    guint depth = 0;

    for (gsize i = 0; i < len; i++) {
        char ch = text[i];

        if (in_str) {
            if (esc)
                esc = FALSE;
            else if (ch == '\\')
                esc = TRUE;
            else if (ch == '"')
                in_str = FALSE;
            continue;
        }
        switch (ch) {
        case '"':
            in_str = TRUE;
            break;
        case '[':
        case '{':
            if (++depth > max_depth)
                return rv_error_set(error, RV_ERROR_INVALID, E2BIG,
                                    "%s: JSON nested deeper than %u levels (byte %"
                                    G_GSIZE_FORMAT "): refused before parsing",
                                    name, max_depth, i);
            break;
        case ']':
        case '}':
            if (depth > 0)
                depth--;
            break;
        default:
            break;
        }
    }
    return 0;
}

char *
rv_json_member_name(const RvJsonAt *at, const char *key)
{
    bool has_path = at->path && *at->path;

    if (!key)
        return has_path ? g_strdup_printf("%s: %s", at->doc, at->path) : g_strdup(at->doc);
    if (has_path)
        return g_strdup_printf("%s: %s.%s", at->doc, at->path, key);
    return g_strdup_printf("%s: %s", at->doc, key);
}

/* "a string", "an object", ... for "expected X, got Y". */
static const char *
node_kind(JsonNode *n)
{
    switch (json_node_get_node_type(n)) {
    case JSON_NODE_OBJECT:
        return "an object";
    case JSON_NODE_ARRAY:
        return "an array";
    case JSON_NODE_NULL:
        return "null";
    case JSON_NODE_VALUE:
        break;
    }
    switch (json_node_get_value_type(n)) {
    case G_TYPE_STRING:
        return "a string";
    case G_TYPE_INT64:
        return "an integer";
    case G_TYPE_DOUBLE:
        return "a number";
    case G_TYPE_BOOLEAN:
        return "a boolean";
    default:
        return "a value";
    }
}

static int
missing(const char *name, GError **error)
{
    return rv_error_set(error, RV_ERROR_INVALID, ENOENT, "%s: missing", name);
}

static int
wrong_type(JsonNode *n, const char *name, const char *want, GError **error)
{
    return rv_error_set(error, RV_ERROR_INVALID, EINVAL, "%s: expected %s, got %s",
                        name, want, node_kind(n));
}

/* The shortest "%.Ng" that reads back as @d: 1.5, 1e+300, 0.1. */
static void
fmt_double(char buf[G_ASCII_DTOSTR_BUF_SIZE], double d)
{
    for (int prec = 1; prec <= 17; prec++) {
        char fmt[8];

        g_snprintf(fmt, sizeof(fmt), "%%.%dg", prec);
        g_ascii_formatd(buf, G_ASCII_DTOSTR_BUF_SIZE, fmt, d);
        if (g_ascii_strtod(buf, NULL) == d)
            return;
    }
}

int
rv_json_node_get_int(JsonNode *n, const char *name, gint64 min, gint64 max, gint64 *ret,
                     GError **error)
{
    char buf[G_ASCII_DTOSTR_BUF_SIZE];
    gint64 v;

    if (!n)
        return missing(name, error);
    if (!JSON_NODE_HOLDS_VALUE(n))
        return wrong_type(n, name, "an integer", error);
    switch (json_node_get_value_type(n)) {
    case G_TYPE_INT64:
        v = json_node_get_int(n);
        break;
    case G_TYPE_DOUBLE: {
        double d = json_node_get_double(n);

        fmt_double(buf, d);
        if (!isfinite(d))
            return rv_error_set(error, RV_ERROR_INVALID, EINVAL,
                                "%s: %s is not a finite number", name, buf);
        if (d != floor(d))
            return rv_error_set(error, RV_ERROR_INVALID, EINVAL,
                                "%s: %s is not an integer", name, buf);
        /* 2^63 is exact in a double; G_MAXINT64 is not */
        if (d >= 9223372036854775808.0 || d < -9223372036854775808.0)
            return rv_error_set(error, RV_ERROR_INVALID, ERANGE,
                                "%s: %s is out of range (%" G_GINT64_FORMAT "..%"
                                G_GINT64_FORMAT ")", name, buf, min, max);
        v = (gint64) d;
        break;
    }
    default:
        return wrong_type(n, name, "an integer", error);
    }
    if (v < min || v > max)
        return rv_error_set(error, RV_ERROR_INVALID, ERANGE,
                            "%s: %" G_GINT64_FORMAT " is out of range (%" G_GINT64_FORMAT
                            "..%" G_GINT64_FORMAT ")", name, v, min, max);
    *ret = v;
    return 0;
}

int
rv_json_node_get_double(JsonNode *n, const char *name, double min, double max, double *ret,
                        GError **error)
{
    char buf[G_ASCII_DTOSTR_BUF_SIZE], lo[G_ASCII_DTOSTR_BUF_SIZE], hi[G_ASCII_DTOSTR_BUF_SIZE];
    double d;

    if (!n)
        return missing(name, error);
    if (!JSON_NODE_HOLDS_VALUE(n))
        return wrong_type(n, name, "a number", error);
    switch (json_node_get_value_type(n)) {
    case G_TYPE_INT64:
        d = (double) json_node_get_int(n);
        break;
    case G_TYPE_DOUBLE:
        d = json_node_get_double(n);
        break;
    default:
        return wrong_type(n, name, "a number", error);
    }
    fmt_double(buf, d);
    if (!isfinite(d))
        return rv_error_set(error, RV_ERROR_INVALID, EINVAL, "%s: %s is not a finite number",
                            name, buf);
    if (d < min || d > max) {
        fmt_double(lo, min);
        fmt_double(hi, max);
        return rv_error_set(error, RV_ERROR_INVALID, ERANGE, "%s: %s is out of range (%s..%s)",
                            name, buf, lo, hi);
    }
    *ret = d;
    return 0;
}

int
rv_json_node_get_string(JsonNode *n, const char *name, const char **ret, GError **error)
{
    const char *s;

    if (!n)
        return missing(name, error);
    if (!JSON_NODE_HOLDS_VALUE(n) || json_node_get_value_type(n) != G_TYPE_STRING)
        return wrong_type(n, name, "a string", error);
    s = json_node_get_string(n);
    if (!g_utf8_validate(s, -1, NULL))
        return rv_error_set(error, RV_ERROR_INVALID, EINVAL, "%s: not valid UTF-8", name);
    *ret = s;
    return 0;
}

static int
node_get_bool(JsonNode *n, const char *name, bool *ret, GError **error)
{
    if (!n)
        return missing(name, error);
    if (!JSON_NODE_HOLDS_VALUE(n) || json_node_get_value_type(n) != G_TYPE_BOOLEAN)
        return wrong_type(n, name, "a boolean", error);
    *ret = json_node_get_boolean(n);
    return 0;
}

static int
node_get_object(JsonNode *n, const char *name, JsonObject **ret, GError **error)
{
    if (!n)
        return missing(name, error);
    if (!JSON_NODE_HOLDS_OBJECT(n))
        return wrong_type(n, name, "an object", error);
    *ret = json_node_get_object(n);
    return 0;
}

static int
node_get_array(JsonNode *n, const char *name, JsonArray **ret, GError **error)
{
    if (!n)
        return missing(name, error);
    if (!JSON_NODE_HOLDS_ARRAY(n))
        return wrong_type(n, name, "an array", error);
    *ret = json_node_get_array(n);
    return 0;
}

/* The member for a getter: NULL when absent.  @opt: JSON null counts as
 * absent too, and *ret_skip says to leave the caller's default. */
static JsonNode *
member(JsonObject *o, const char *key, bool opt, bool *ret_skip)
{
    JsonNode *n = json_object_get_member(o, key);

    *ret_skip = opt && (!n || JSON_NODE_HOLDS_NULL(n));
    return n;
}

/* One body for the twelve member getters: NAME is the message name, GET
 * the node call (using n, name), OPT whether absent/null is fine. */
#define MEMBER_GET(OPT, GET)                                              \
    do {                                                                  \
        bool skip;                                                        \
        JsonNode *n = member(o, key, (OPT), &skip);                       \
        g_autofree char *name = NULL;                                     \
        int r;                                                            \
                                                                          \
        if (skip)                                                         \
            return 0;                                                     \
        name = rv_json_member_name(at, key);                              \
        r = (GET);                                                        \
        return r < 0 ? r : (OPT) ? 1 : 0;                                 \
    } while (0)

int
rv_json_get_int(JsonObject *o, const RvJsonAt *at, const char *key, gint64 min, gint64 max,
                gint64 *ret, GError **error)
{
    MEMBER_GET(false, rv_json_node_get_int(n, name, min, max, ret, error));
}

int
rv_json_get_double(JsonObject *o, const RvJsonAt *at, const char *key, double min, double max,
                   double *ret, GError **error)
{
    MEMBER_GET(false, rv_json_node_get_double(n, name, min, max, ret, error));
}

int
rv_json_get_string(JsonObject *o, const RvJsonAt *at, const char *key, const char **ret,
                   GError **error)
{
    MEMBER_GET(false, rv_json_node_get_string(n, name, ret, error));
}

int
rv_json_get_bool(JsonObject *o, const RvJsonAt *at, const char *key, bool *ret, GError **error)
{
    MEMBER_GET(false, node_get_bool(n, name, ret, error));
}

int
rv_json_get_object(JsonObject *o, const RvJsonAt *at, const char *key, JsonObject **ret,
                   GError **error)
{
    MEMBER_GET(false, node_get_object(n, name, ret, error));
}

int
rv_json_get_array(JsonObject *o, const RvJsonAt *at, const char *key, JsonArray **ret,
                  GError **error)
{
    MEMBER_GET(false, node_get_array(n, name, ret, error));
}

int
rv_json_get_int_opt(JsonObject *o, const RvJsonAt *at, const char *key, gint64 min,
                    gint64 max, gint64 *ret, GError **error)
{
    MEMBER_GET(true, rv_json_node_get_int(n, name, min, max, ret, error));
}

int
rv_json_get_double_opt(JsonObject *o, const RvJsonAt *at, const char *key, double min,
                       double max, double *ret, GError **error)
{
    MEMBER_GET(true, rv_json_node_get_double(n, name, min, max, ret, error));
}

int
rv_json_get_string_opt(JsonObject *o, const RvJsonAt *at, const char *key, const char **ret,
                       GError **error)
{
    MEMBER_GET(true, rv_json_node_get_string(n, name, ret, error));
}

int
rv_json_get_bool_opt(JsonObject *o, const RvJsonAt *at, const char *key, bool *ret,
                     GError **error)
{
    MEMBER_GET(true, node_get_bool(n, name, ret, error));
}

int
rv_json_get_object_opt(JsonObject *o, const RvJsonAt *at, const char *key, JsonObject **ret,
                       GError **error)
{
    MEMBER_GET(true, node_get_object(n, name, ret, error));
}

int
rv_json_get_array_opt(JsonObject *o, const RvJsonAt *at, const char *key, JsonArray **ret,
                      GError **error)
{
    MEMBER_GET(true, node_get_array(n, name, ret, error));
}

/* An integer literal (no '.', 'e' or 'E') outside gint64: json-glib would
 * wrap it.  Literals are scanned outside strings, as in the depth check. */
static int
check_int_literals(const char *name, const char *text, gsize len, GError **error)
{
    static const char max_pos[] = "9223372036854775807", max_neg[] = "9223372036854775808";
    gboolean in_str = FALSE, esc = FALSE;

    for (gsize i = 0; i < len; i++) {
        gsize start, digits, end;
        bool neg;

        if (in_str) {
            if (esc)
                esc = FALSE;
            else if (text[i] == '\\')
                esc = TRUE;
            else if (text[i] == '"')
                in_str = FALSE;
            continue;
        }
        if (text[i] == '"') {
            in_str = TRUE;
            continue;
        }
        if (!(text[i] == '-' || g_ascii_isdigit(text[i])))
            continue;
        start = i;
        neg = text[i] == '-';
        if (neg)
            i++;
        while (i < len && text[i] == '0' && i + 1 < len && g_ascii_isdigit(text[i + 1]))
            i++;
        digits = i;
        while (i < len && g_ascii_isdigit(text[i]))
            i++;
        end = i;
        if (i < len && (text[i] == '.' || text[i] == 'e' || text[i] == 'E')) {
            while (i < len && (g_ascii_isalnum(text[i]) || text[i] == '.' || text[i] == '+' ||
                               text[i] == '-'))
                i++;
            i--;
            continue;
        }
        if (end - digits > 19 ||
            (end - digits == 19 && memcmp(text + digits, neg ? max_neg : max_pos, 19) > 0)) {
            int shown = (int) MIN(end - start, 40);

            return rv_error_set(error, RV_ERROR_INVALID, ERANGE,
                                "%s: integer %.*s%s at byte %" G_GSIZE_FORMAT
                                " is out of range (64 bits)", name, shown, text + start,
                                end - start > 40 ? "..." : "", start);
        }
        i--;
    }
    return 0;
}

int
rv_json_check_untrusted(const char *name, const char *text, gsize len, guint max_depth,
                        GError **error)
{
    int r = rv_json_check_depth(name, text, len, max_depth, error);

    if (r < 0)
        return r;
    return check_int_literals(name, text, len, error);
}

int
rv_json_parse_untrusted(JsonParser *parser, const char *name, const char *text, gsize len,
                        guint max_depth, JsonNode **ret_root, GError **error)
{
    g_autoptr(GError) local = NULL;
    int r;

    r = rv_json_check_untrusted(name, text, len, max_depth, error);
    if (r < 0)
        return r;
    if (!json_parser_load_from_data(parser, text, (gssize) len, &local)) {
        const char *m = local->message;
        g_autofree char *cut = NULL;

        if (g_str_has_prefix(m, "<data>"))
            m += strlen("<data>");
        /* json-glib quotes the token it stumbled on ("unexpected identifier
         * 'root'"): the first word of whatever the file is, e.g. a store's
         * run.json linked to /etc/passwd.  The message keeps the line,
         * column and kind of error, never the file's text. */
        cut = g_strdup(m);
        cut[strcspn(cut, "'\"`")] = '\0';
        g_strchomp(cut);
        return rv_error_set(error, RV_ERROR_INVALID, EINVAL, "%s%s%s", name,
                            *cut == ':' ? "" : ": ", cut);
    }
    /* an empty (or blank) text parses to no root at all */
    if (!json_parser_get_root(parser))
        return rv_error_set(error, RV_ERROR_INVALID, EINVAL, "%s: empty, not JSON", name);
    if (ret_root)
        *ret_root = json_parser_get_root(parser);
    return 0;
}
