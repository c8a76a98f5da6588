/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * util/json.h: small json-glib helpers that several layers share (never
 * hand-concatenated JSON: everything goes through JsonBuilder and
 * JsonGenerator, https://gnome.pages.gitlab.gnome.org/json-glib/).
 */
#pragma once

#include <glib.h>
#include <json-glib/json-glib.h>

/**
 * rv_json_add_string_or_null:
 * @b: a JsonBuilder inside an object
 * @key: member name
 * @value: (nullable): the string, or NULL for an unknown or absent value
 *
 * Adds the member @key: a JSON string, or JSON null when @value is NULL,
 * so that the key is always present (stable schemas: a reader tells
 * "unknown" from "missing key").
 */
void rv_json_add_string_or_null(JsonBuilder *b, const char *key, const char *value);

/**
 * rv_json_to_text:
 * @node: any JSON node
 *
 * Returns: (transfer full): @node as pretty-printed JSON (json-glib's
 * pretty form: two-space indent) followed by one newline, ready to print
 * or write as a file.
 */
char *rv_json_to_text(JsonNode *node);
