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

/* Deepest nesting of arrays and objects rv_json_check_depth() lets through
 * by default: run.json needs 6, cyclictest --json 4. */
#define RV_JSON_MAX_DEPTH 64

/**
 * rv_json_check_depth:
 * @name: the file (or source) the text came from, for the message
 * @text: JSON text (need not be NUL-terminated)
 * @len: bytes of @text
 * @max_depth: the most nested '[' / '{' levels allowed (RV_JSON_MAX_DEPTH)
 * @error: RV_ERROR_INVALID "NAME: JSON nested deeper than N levels (byte
 *         OFFSET): refused before parsing"
 *
 * Counts '[' and '{' outside strings (a string is "..." with backslash
 * escapes, RFC 8259 section 7), before json-glib parses untrusted text:
 * json-glib's parser recurses once per level, and a text such as 100000
 * '[' overflows the stack (SIGSEGV).  It does not validate the JSON
 * otherwise; malformed text of little depth passes and the parser names
 * the error.
 *
 * Returns: 0, or -E2BIG when the text is nested deeper than @max_depth.
 */
int rv_json_check_depth(const char *name, const char *text, gsize len,
                        guint max_depth, GError **error) G_GNUC_WARN_UNUSED_RESULT;
