/* SPDX-License-Identifier: GPL-2.0-or-later */
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
