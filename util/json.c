/* SPDX-License-Identifier: GPL-2.0-or-later */
#include <errno.h>

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
