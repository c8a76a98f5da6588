/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * util/json.h: small json-glib helpers that several layers share (never
 * hand-concatenated JSON: everything goes through JsonBuilder and
 * JsonGenerator, https://gnome.pages.gitlab.gnome.org/json-glib/).
 */
#pragma once

#include <stdbool.h>
#include <glib.h>
#include <json-glib/json-glib.h>

#include "util/cpulist.h"

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

/* Member adders of the other value types: @b inside an object, member @key. */
/* A JSON integer. */
void rv_json_add_int(JsonBuilder *b, const char *key, gint64 value);
/* A JSON true or false. */
void rv_json_add_bool(JsonBuilder *b, const char *key, bool value);
/* A JSON number; NaN and infinities, which JSON cannot hold (RFC 8259
 * section 6), become null. */
void rv_json_add_double(JsonBuilder *b, const char *key, double value);

/**
 * rv_json_add_cpuset:
 * @b: a JsonBuilder inside an object
 * @key: member name
 * @set: (nullable): the CPUs, or NULL for unknown or absent
 *
 * Adds the member @key: the set as a cpulist string ("0-3,8", "" for the
 * empty set; util/cpulist.h), or JSON null when @set is NULL.
 */
void rv_json_add_cpuset(JsonBuilder *b, const char *key, const RvCpuSet *set);

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

/*
 * Typed getters for JSON that came from outside rtvirt (a run.json, a
 * qemu-ga reply, cyclictest --json, the probe's JSON from inside a guest).
 * One rule for every untrusted value:
 *
 *   - an integer getter takes a JSON integer, or a JSON number that is
 *     finite and integral (1.0, 1e3); it refuses 1.5, 1e300 and inf;
 *   - a number getter takes any finite JSON number (integers too);
 *   - both check a range the caller gives (min..max, inclusive): there is
 *     no getter without one, so every caller says what it accepts;
 *   - a string getter refuses text that is not valid UTF-8;
 *   - a member of the wrong JSON type is an error, never a silent default.
 *
 * Errors are RV_ERROR_INVALID and name the member by its path in the
 * document: "run.json: records[3].repetition: 1.5 is not an integer".
 * Return values: 0 on success, -ENOENT for a missing required member,
 * -ERANGE for a number out of range, -EINVAL for anything else.
 *
 * json-glib itself wraps an integer literal past 64 bits silently
 * (99999999999999999999 reads as -1): rv_json_parse_untrusted() refuses
 * such literals before parsing, so use it for untrusted text.
 */

/**
 * RvJsonAt:
 * @doc: the document, for messages: a file name or "qemu-ga reply to X"
 * @path: (nullable): the member path of the object read inside @doc
 *        ("records[3]", "summary"), NULL or "" for the root object
 *
 * Where a JsonObject sits, so that a getter's error names the member:
 * "DOC: PATH.KEY: ..." or "DOC: KEY: ..." at the root.
 */
typedef struct {
    const char *doc;
    const char *path;
} RvJsonAt;

/**
 * rv_json_member_name:
 * @at: where the object is
 * @key: (nullable): a member of it, or NULL for the object itself
 *
 * Returns: (transfer full): "DOC: PATH.KEY" (the name the getters use in
 * their messages), "DOC: KEY" at the root, "DOC: PATH" or "DOC" for NULL @key.
 */
char *rv_json_member_name(const RvJsonAt *at, const char *key);

/**
 * rv_json_node_get_int:
 * @node: (nullable): a JSON node; NULL is a missing value
 * @name: the node's name for messages ("run.json: records[3].repetition")
 * @min: smallest value accepted
 * @max: largest value accepted
 * @ret: (out): the value, written only on success
 * @error: RV_ERROR_INVALID naming @name: "missing", "expected an integer,
 *         got a string", "1.5 is not an integer", "300 is out of range (0..255)"
 *
 * The one rule for an untrusted integer (see above).
 *
 * Returns: 0, -ENOENT (@node NULL), -ERANGE or -EINVAL.
 */
int rv_json_node_get_int(JsonNode *node, const char *name, gint64 min, gint64 max,
                         gint64 *ret, GError **error) G_GNUC_WARN_UNUSED_RESULT;

/**
 * rv_json_node_get_double:
 * @node: (nullable): a JSON node; NULL is a missing value
 * @name: the node's name for messages
 * @min: smallest value accepted (finite)
 * @max: largest value accepted (finite)
 * @ret: (out): the value, written only on success
 *
 * A JSON number or integer, finite, within @min..@max.
 *
 * Returns: 0, -ENOENT (@node NULL), -ERANGE or -EINVAL.
 */
int rv_json_node_get_double(JsonNode *node, const char *name, double min, double max,
                            double *ret, GError **error) G_GNUC_WARN_UNUSED_RESULT;

/**
 * rv_json_node_get_string:
 * @node: (nullable): a JSON node; NULL is a missing value
 * @name: the node's name for messages
 * @ret: (out) (transfer none): the string, owned by @node; written only on success
 *
 * A JSON string that is valid UTF-8.  Its bytes may still be control
 * characters: escape them before they reach an output (util/escape.h).
 *
 * Returns: 0, -ENOENT (@node NULL) or -EINVAL.
 */
int rv_json_node_get_string(JsonNode *node, const char *name, const char **ret,
                            GError **error) G_GNUC_WARN_UNUSED_RESULT;

/* Member getters: the node getters above on member @key of @o, named
 * rv_json_member_name(@at, @key) in messages.  A missing member is -ENOENT
 * with "NAME: missing". */
int rv_json_get_int(JsonObject *o, const RvJsonAt *at, const char *key, gint64 min,
                    gint64 max, gint64 *ret, GError **error) G_GNUC_WARN_UNUSED_RESULT;
int rv_json_get_double(JsonObject *o, const RvJsonAt *at, const char *key, double min,
                       double max, double *ret, GError **error) G_GNUC_WARN_UNUSED_RESULT;
int rv_json_get_string(JsonObject *o, const RvJsonAt *at, const char *key,
                       const char **ret, GError **error) G_GNUC_WARN_UNUSED_RESULT;
/* A JSON true or false. */
int rv_json_get_bool(JsonObject *o, const RvJsonAt *at, const char *key, bool *ret,
                     GError **error) G_GNUC_WARN_UNUSED_RESULT;
/* A JSON object / array: (transfer none), owned by @o. */
int rv_json_get_object(JsonObject *o, const RvJsonAt *at, const char *key,
                       JsonObject **ret, GError **error) G_GNUC_WARN_UNUSED_RESULT;
int rv_json_get_array(JsonObject *o, const RvJsonAt *at, const char *key,
                      JsonArray **ret, GError **error) G_GNUC_WARN_UNUSED_RESULT;

/* Optional members: as the getters above, but a member that is absent or
 * JSON null leaves *ret untouched (the caller's default) and returns 0;
 * a member that is there returns 1 when valid and an error otherwise (a
 * wrong type is never taken for "absent"). */
int rv_json_get_int_opt(JsonObject *o, const RvJsonAt *at, const char *key, gint64 min,
                        gint64 max, gint64 *ret, GError **error) G_GNUC_WARN_UNUSED_RESULT;
int rv_json_get_double_opt(JsonObject *o, const RvJsonAt *at, const char *key, double min,
                           double max, double *ret, GError **error) G_GNUC_WARN_UNUSED_RESULT;
int rv_json_get_string_opt(JsonObject *o, const RvJsonAt *at, const char *key,
                           const char **ret, GError **error) G_GNUC_WARN_UNUSED_RESULT;
int rv_json_get_bool_opt(JsonObject *o, const RvJsonAt *at, const char *key, bool *ret,
                         GError **error) G_GNUC_WARN_UNUSED_RESULT;
int rv_json_get_object_opt(JsonObject *o, const RvJsonAt *at, const char *key,
                           JsonObject **ret, GError **error) G_GNUC_WARN_UNUSED_RESULT;
int rv_json_get_array_opt(JsonObject *o, const RvJsonAt *at, const char *key,
                          JsonArray **ret, GError **error) G_GNUC_WARN_UNUSED_RESULT;

/**
 * rv_json_check_untrusted:
 * @name: the document's name for messages
 * @text: JSON text (need not be NUL-terminated)
 * @len: bytes of @text
 * @max_depth: nesting allowed (RV_JSON_MAX_DEPTH)
 * @error: RV_ERROR_INVALID "NAME: JSON nested deeper than N levels ..." or
 *         "NAME: integer 99999999999999999999 at byte N is out of range (64 bits)"
 *
 * The checks rv_json_parse_untrusted() makes before json-glib parses, for
 * a caller that parses (and words parse errors) itself: rv_json_check_depth(),
 * then integer literals outside 64 bits (json-glib would wrap them silently).
 *
 * Returns: 0, -E2BIG or -ERANGE.
 */
int rv_json_check_untrusted(const char *name, const char *text, gsize len, guint max_depth,
                            GError **error) G_GNUC_WARN_UNUSED_RESULT;

/**
 * rv_json_parse_untrusted:
 * @parser: a JsonParser to load into
 * @name: the document's name for messages (a file name)
 * @text: JSON text (need not be NUL-terminated)
 * @len: bytes of @text
 * @max_depth: nesting allowed (RV_JSON_MAX_DEPTH), see rv_json_check_depth()
 * @ret_root: (out) (transfer none) (optional): the root node, owned by @parser
 * @error: RV_ERROR_INVALID "NAME: ..." (json-glib's "<data>:" prefix replaced
 *         by @name: "NAME:1:15: Parse error: unexpected identifier";
 *         json-glib's quoted token is cut off: no text of an
 *         untrusted file, say /etc/passwd behind a link, is echoed), or
 *         "NAME: empty, not JSON" for a text that holds no value
 *
 * Parses text that came from outside rtvirt: the depth check first, then
 * a scan that refuses an integer literal outside 64 bits ("NAME: integer
 * 99999999999999999999 at byte N is out of range": json-glib would wrap
 * it silently), then json-glib.
 *
 * Returns: 0, -E2BIG (too deep), -ERANGE (an integer literal) or -EINVAL.
 */
int rv_json_parse_untrusted(JsonParser *parser, const char *name, const char *text, gsize len,
                            guint max_depth, JsonNode **ret_root,
                            GError **error) G_GNUC_WARN_UNUSED_RESULT;
