/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * tests/test-util-json.c: util/json.h's typed getters and the one rule for
 * untrusted numbers (finite, integral where integral, range), strings as
 * UTF-8, member paths in messages, and rv_json_parse_untrusted().
 */
#include <errno.h>
#include <string.h>

#include "util/error.h"
#include "util/json.h"

static JsonObject *
parse_obj(JsonParser *p, const char *text)
{
    JsonNode *root = NULL;

    g_assert_cmpint(rv_json_parse_untrusted(p, "t.json", text, strlen(text),
                                            RV_JSON_MAX_DEPTH, &root, NULL), ==, 0);
    g_assert_true(JSON_NODE_HOLDS_OBJECT(root));
    return json_node_get_object(root);
}

typedef struct {
    const char *json;      /* {"v": ...} */
    gint64 min, max;
    int ret;
    gint64 value;          /* when ret == 0 */
    const char *message;   /* when ret < 0 */
} IntCase;

static const IntCase int_cases[] = {
    { "{\"v\": 5}", 0, 10, 0, 5, NULL },
    { "{\"v\": 0}", 0, 10, 0, 0, NULL },
    { "{\"v\": 10}", 0, 10, 0, 10, NULL },
    { "{\"v\": -1}", 0, 10, -ERANGE, 0, "t.json: rec[2].v: -1 is out of range (0..10)" },
    { "{\"v\": 11}", 0, 10, -ERANGE, 0, "t.json: rec[2].v: 11 is out of range (0..10)" },
    { "{\"v\": 3.0}", 0, 10, 0, 3, NULL },
    { "{\"v\": 1e3}", 0, 1000, 0, 1000, NULL },
    { "{\"v\": 1.5}", 0, 10, -EINVAL, 0, "t.json: rec[2].v: 1.5 is not an integer" },
    { "{\"v\": 1e300}", G_MININT64, G_MAXINT64, -ERANGE, 0,
      "t.json: rec[2].v: 1e+300 is out of range (-9223372036854775808..9223372036854775807)" },
    { "{\"v\": 1e400}", 0, 10, -EINVAL, 0, "t.json: rec[2].v: inf is not a finite number" },
    { "{\"v\": 9223372036854775807}", 0, G_MAXINT64, 0, G_MAXINT64, NULL },
    { "{\"v\": -9223372036854775808}", G_MININT64, 0, 0, G_MININT64, NULL },
    { "{\"v\": 9223372036854775808.0}", 0, G_MAXINT64, -ERANGE, 0, NULL },
    { "{\"v\": \"5\"}", 0, 10, -EINVAL, 0, "t.json: rec[2].v: expected an integer, got a string" },
    { "{\"v\": true}", 0, 10, -EINVAL, 0, "t.json: rec[2].v: expected an integer, got a boolean" },
    { "{\"v\": null}", 0, 10, -EINVAL, 0, "t.json: rec[2].v: expected an integer, got null" },
    { "{\"v\": [1]}", 0, 10, -EINVAL, 0, "t.json: rec[2].v: expected an integer, got an array" },
    { "{\"w\": 1}", 0, 10, -ENOENT, 0, "t.json: rec[2].v: missing" },
};

static void
test_int(void)
{
    const RvJsonAt at = { "t.json", "rec[2]" };

    for (gsize i = 0; i < G_N_ELEMENTS(int_cases); i++) {
        const IntCase *c = &int_cases[i];
        g_autoptr(JsonParser) p = json_parser_new();
        g_autoptr(GError) err = NULL;
        JsonObject *o = parse_obj(p, c->json);
        gint64 v = -42;
        int r = rv_json_get_int(o, &at, "v", c->min, c->max, &v, &err);

        g_test_message("%s", c->json);
        g_assert_cmpint(r, ==, c->ret);
        if (r == 0) {
            g_assert_no_error(err);
            g_assert_cmpint(v, ==, c->value);
        } else {
            g_assert_error(err, RV_ERROR, RV_ERROR_INVALID);
            g_assert_cmpint(v, ==, -42);            /* written only on success */
            if (c->message)
                g_assert_cmpstr(err->message, ==, c->message);
        }
    }
}

static void
test_int_opt(void)
{
    const RvJsonAt at = { "t.json", NULL };
    g_autoptr(JsonParser) p = json_parser_new();
    JsonObject *o = parse_obj(p, "{\"a\": 7, \"n\": null, \"s\": \"x\", \"f\": 2.5}");
    g_autoptr(GError) err = NULL;
    gint64 v = 99;

    g_assert_cmpint(rv_json_get_int_opt(o, &at, "a", 0, 10, &v, NULL), ==, 1);
    g_assert_cmpint(v, ==, 7);
    v = 99;
    g_assert_cmpint(rv_json_get_int_opt(o, &at, "missing", 0, 10, &v, NULL), ==, 0);
    g_assert_cmpint(v, ==, 99);
    g_assert_cmpint(rv_json_get_int_opt(o, &at, "n", 0, 10, &v, NULL), ==, 0);
    g_assert_cmpint(v, ==, 99);
    /* a wrong type is never "absent" */
    g_assert_cmpint(rv_json_get_int_opt(o, &at, "s", 0, 10, &v, &err), ==, -EINVAL);
    g_assert_cmpstr(err->message, ==, "t.json: s: expected an integer, got a string");
    g_clear_error(&err);
    g_assert_cmpint(rv_json_get_int_opt(o, &at, "f", 0, 10, &v, &err), ==, -EINVAL);
    g_assert_cmpstr(err->message, ==, "t.json: f: 2.5 is not an integer");
    g_assert_cmpint(v, ==, 99);
}

static void
test_double(void)
{
    const RvJsonAt at = { "t.json", "summary" };
    g_autoptr(JsonParser) p = json_parser_new();
    JsonObject *o = parse_obj(p, "{\"d\": 2.5, \"i\": 3, \"big\": 1e400, \"neg\": -0.1, "
                                 "\"s\": \"2.5\"}");
    g_autoptr(GError) err = NULL;
    double d = -1;

    g_assert_cmpint(rv_json_get_double(o, &at, "d", 0, 10, &d, NULL), ==, 0);
    g_assert_cmpfloat(d, ==, 2.5);
    g_assert_cmpint(rv_json_get_double(o, &at, "i", 0, 10, &d, NULL), ==, 0);
    g_assert_cmpfloat(d, ==, 3.0);
    g_assert_cmpint(rv_json_get_double(o, &at, "big", -1e308, 1e308, &d, &err), ==, -EINVAL);
    g_assert_cmpstr(err->message, ==, "t.json: summary.big: inf is not a finite number");
    g_clear_error(&err);
    g_assert_cmpint(rv_json_get_double(o, &at, "neg", 0, 1e9, &d, &err), ==, -ERANGE);
    g_assert_cmpstr(err->message, ==, "t.json: summary.neg: -0.1 is out of range (0..1e+09)");
    g_clear_error(&err);
    g_assert_cmpint(rv_json_get_double(o, &at, "s", 0, 10, &d, &err), ==, -EINVAL);
    g_assert_cmpstr(err->message, ==, "t.json: summary.s: expected a number, got a string");
    g_clear_error(&err);
    d = 4;
    g_assert_cmpint(rv_json_get_double_opt(o, &at, "none", 0, 10, &d, NULL), ==, 0);
    g_assert_cmpfloat(d, ==, 4);
    g_assert_cmpint(rv_json_get_double_opt(o, &at, "d", 0, 10, &d, NULL), ==, 1);
    g_assert_cmpfloat(d, ==, 2.5);
}

static void
test_string(void)
{
    const RvJsonAt at = { "reply", "return" };
    g_autoptr(JsonParser) p = json_parser_new();
    JsonObject *o = parse_obj(p, "{\"s\": \"caf\\u00e9\", \"n\": 1}");
    g_autoptr(GError) err = NULL;
    const char *s = NULL;
    g_autoptr(JsonNode) bad = json_node_new(JSON_NODE_VALUE);

    g_assert_cmpint(rv_json_get_string(o, &at, "s", &s, NULL), ==, 0);
    g_assert_cmpstr(s, ==, "caf\xc3\xa9");
    g_assert_cmpint(rv_json_get_string(o, &at, "n", &s, &err), ==, -EINVAL);
    g_assert_cmpstr(err->message, ==, "reply: return.n: expected a string, got an integer");
    g_clear_error(&err);
    /* a node built in memory can hold any bytes: refused */
    json_node_set_string(bad, "ab\xff");
    s = NULL;
    g_assert_cmpint(rv_json_node_get_string(bad, "reply: x", &s, &err), ==, -EINVAL);
    g_assert_cmpstr(err->message, ==, "reply: x: not valid UTF-8");
    g_assert_null(s);
    g_clear_error(&err);
    s = "default";
    g_assert_cmpint(rv_json_get_string_opt(o, &at, "none", &s, NULL), ==, 0);
    g_assert_cmpstr(s, ==, "default");
}

static void
test_containers(void)
{
    const RvJsonAt at = { "run.json", NULL };
    g_autoptr(JsonParser) p = json_parser_new();
    JsonObject *o = parse_obj(p, "{\"o\": {\"b\": true}, \"a\": [1, 2], \"b\": 0}");
    g_autoptr(GError) err = NULL;
    JsonObject *sub = NULL;
    JsonArray *arr = NULL;
    bool b = false;
    const RvJsonAt at_o = { "run.json", "o" };

    g_assert_cmpint(rv_json_get_object(o, &at, "o", &sub, NULL), ==, 0);
    g_assert_cmpint(rv_json_get_bool(sub, &at_o, "b", &b, NULL), ==, 0);
    g_assert_true(b);
    g_assert_cmpint(rv_json_get_array(o, &at, "a", &arr, NULL), ==, 0);
    g_assert_cmpuint(json_array_get_length(arr), ==, 2);
    g_assert_cmpint(rv_json_get_array(o, &at, "o", &arr, &err), ==, -EINVAL);
    g_assert_cmpstr(err->message, ==, "run.json: o: expected an array, got an object");
    g_clear_error(&err);
    g_assert_cmpint(rv_json_get_bool(o, &at, "b", &b, &err), ==, -EINVAL);
    g_assert_cmpstr(err->message, ==, "run.json: b: expected a boolean, got an integer");
    g_clear_error(&err);
    g_assert_cmpint(rv_json_get_object(o, &at, "x", &sub, &err), ==, -ENOENT);
    g_assert_cmpstr(err->message, ==, "run.json: x: missing");
    sub = NULL;
    g_assert_cmpint(rv_json_get_object_opt(o, &at, "x", &sub, NULL), ==, 0);
    g_assert_null(sub);
    g_assert_cmpint(rv_json_get_array_opt(o, &at, "a", &arr, NULL), ==, 1);
    g_assert_cmpint(rv_json_get_bool_opt(o, &at, "x", &b, NULL), ==, 0);
}

static void
test_member_name(void)
{
    const RvJsonAt root = { "f", "" }, deep = { "f", "a[1]" };
    g_autofree char *a = rv_json_member_name(&root, "k");
    g_autofree char *b = rv_json_member_name(&deep, "k");
    g_autofree char *c = rv_json_member_name(&deep, NULL);
    g_autofree char *d = rv_json_member_name(&root, NULL);

    g_assert_cmpstr(a, ==, "f: k");
    g_assert_cmpstr(b, ==, "f: a[1].k");
    g_assert_cmpstr(c, ==, "f: a[1]");
    g_assert_cmpstr(d, ==, "f");
}

static void
test_parse_untrusted(void)
{
    static const struct {
        const char *text;
        int ret;
        const char *message;
    } cases[] = {
        { "{\"a\": 9223372036854775807, \"b\": -9223372036854775808}", 0, NULL },
        { "{\"a\": 99999999999999999999}", -ERANGE,
          "x.json: integer 99999999999999999999 at byte 6 is out of range (64 bits)" },
        { "[9223372036854775808]", -ERANGE,
          "x.json: integer 9223372036854775808 at byte 1 is out of range (64 bits)" },
        { "[-9223372036854775809]", -ERANGE, NULL },
        /* numbers with a fraction or exponent are doubles: the getters judge them */
        { "[99999999999999999999.5, 1e999999999999999999999]", 0, NULL },
        /* digits inside strings are text */
        { "{\"99999999999999999999\": \"-99999999999999999999\"}", 0, NULL },
        { "{\"a\": \"\\\"99999999999999999999\"}", 0, NULL },
        { "{\"a\": }", -EINVAL, NULL },
        { "[[[[[[[[1]]]]]]]]", -E2BIG, NULL },
    };

    for (gsize i = 0; i < G_N_ELEMENTS(cases); i++) {
        g_autoptr(JsonParser) p = json_parser_new();
        g_autoptr(GError) err = NULL;
        JsonNode *root = NULL;
        int r = rv_json_parse_untrusted(p, "x.json", cases[i].text, strlen(cases[i].text), 4,
                                        &root, &err);

        g_test_message("%s", cases[i].text);
        g_assert_cmpint(r, ==, cases[i].ret);
        if (r == 0) {
            g_assert_nonnull(root);
        } else {
            g_assert_error(err, RV_ERROR, RV_ERROR_INVALID);
            g_assert_true(g_str_has_prefix(err->message, "x.json:"));
            g_assert_null(strstr(err->message, "<data>"));
            if (cases[i].message)
                g_assert_cmpstr(err->message, ==, cases[i].message);
        }
    }
}

static void
test_check_untrusted(void)
{
    static const char ok[] = "{\"a\": [1, -2, 3.5e400], \"s\": \"99999999999999999999\"}";
    static const char big[] = "{\"a\": -99999999999999999999}";
    static const char deep[] = "[[[[1]]]]";
    g_autoptr(GError) err = NULL;

    g_assert_cmpint(rv_json_check_untrusted("c.json", ok, strlen(ok), 4, NULL), ==, 0);
    g_assert_cmpint(rv_json_check_untrusted("c.json", big, strlen(big), 4, &err), ==, -ERANGE);
    g_assert_cmpstr(err->message, ==,
                    "c.json: integer -99999999999999999999 at byte 6 is out of range (64 bits)");
    g_clear_error(&err);
    g_assert_cmpint(rv_json_check_untrusted("c.json", deep, strlen(deep), 3, &err), ==, -E2BIG);
}

int
main(int argc, char **argv)
{
    g_test_init(&argc, &argv, NULL);
    g_test_add_func("/util/json/int", test_int);
    g_test_add_func("/util/json/int-opt", test_int_opt);
    g_test_add_func("/util/json/double", test_double);
    g_test_add_func("/util/json/string", test_string);
    g_test_add_func("/util/json/containers", test_containers);
    g_test_add_func("/util/json/member-name", test_member_name);
    g_test_add_func("/util/json/parse-untrusted", test_parse_untrusted);
    g_test_add_func("/util/json/check-untrusted", test_check_untrusted);
    return g_test_run();
}
