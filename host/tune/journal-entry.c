/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * host/tune/journal-entry.c: the journal's lines: each entry, the header
 * and the commit markers as one JSON object per line, sealed with a "sum"
 * (see host/tune/journal.h for the format), and read back.
 */
#include <string.h>

#include "host/tune/journal-entry.h"

const char *const rv_host_journal_entry_kind_names[] = {
    [ENTRY_VALUE] = "value",
    [ENTRY_FILE] = "file",
    [ENTRY_DIR] = "dir",
    [ENTRY_SCHED] = "sched",
    [ENTRY_CUSTOM] = "custom",
    [ENTRY_COMMIT] = "commit",
};

#define entry_kind_names rv_host_journal_entry_kind_names

void
rv_host_journal_entry_free(Entry *e)
{
    if (!e)
        return;
    g_free(e->path);
    g_free(e->old);
    g_free(e->affinity);
    g_free(e->comm);
    g_free(e->type);
    g_free(e->key);
    g_free(e->data);
    g_free(e);
}

/* ---- serialization ----------------------------------------------------- */

/* The "sum" of a line: SHA-256 of @text (the line without its "sum"
 * member), first SUM_HEX_LEN hex digits. */
static char *
line_sum(const char *text, gsize len)
{
    g_autofree char *full = g_compute_checksum_for_data(G_CHECKSUM_SHA256,
                                                        (const guchar *) text, len);

    return g_strndup(full, SUM_HEX_LEN);
}

/* What a sealed line ends with: its "sum" member, last. */
static char *
sum_suffix(const char *sum)
{
    g_autoptr(JsonGenerator) gen = json_generator_new();
    g_autoptr(JsonNode) node = json_node_init_string(json_node_alloc(), sum);
    g_autofree char *quoted = NULL;

    json_generator_set_root(gen, node);
    quoted = json_generator_to_data(gen, NULL);
    return g_strdup_printf(",\"sum\":%s}", quoted);
}

/* Closes the object open in @b (its first member "seq") and returns it as
 * one line with a "sum" member added last.  The sum covers the exact bytes
 * json-glib wrote for the object without "sum": a reader checks the bytes
 * it reads, so a later json-glib that escapes differently still verifies
 * old journals. */
static char *
seal_line(JsonBuilder *b)
{
    g_autoptr(JsonGenerator) gen = json_generator_new();
    g_autoptr(JsonNode) root = NULL;
    g_autofree char *text = NULL;
    g_autofree char *sum = NULL;
    g_autofree char *suffix = NULL;
    g_autofree char *line = NULL;
    gsize tlen;

    json_builder_end_object(b);
    root = json_builder_get_root(b);
    json_generator_set_root(gen, root);
    text = json_generator_to_data(gen, &tlen);
    sum = line_sum(text, tlen);
    json_object_set_string_member(json_node_get_object(root), "sum", sum);
    line = json_generator_to_data(gen, NULL);
    suffix = sum_suffix(sum);
    /* json-glib keeps members in insertion order and writes the same
     * object the same way twice: the line is the text plus the suffix */
    g_assert(strlen(line) == tlen - 1 + strlen(suffix) &&
             strncmp(line, text, tlen - 1) == 0 && g_str_has_suffix(line, suffix));
    return g_strconcat(line, "\n", NULL);
}

/* Checks the "sum" of @line (without its newline) whose parsed object is
 * @o.  Returns true when it verifies. */
bool
rv_host_journal_line_verifies(const char *line, JsonObject *o)
{
    JsonNode *n = json_object_get_member(o, "sum");
    g_autofree char *suffix = NULL;
    g_autofree char *body = NULL;
    g_autofree char *want = NULL;
    const char *sum;
    gsize len = strlen(line), slen;

    if (!n || !JSON_NODE_HOLDS_VALUE(n) || json_node_get_value_type(n) != G_TYPE_STRING)
        return false;
    sum = json_node_get_string(n);
    if (strlen(sum) != SUM_HEX_LEN)
        return false;
    suffix = sum_suffix(sum);
    slen = strlen(suffix);
    if (len < slen + 1 || !g_str_has_suffix(line, suffix))
        return false;
    body = g_strdup_printf("%.*s}", (int) (len - slen), line);
    want = line_sum(body, strlen(body));
    return strcmp(want, sum) == 0;
}

static void
begin_line(JsonBuilder *b, guint64 seq)
{
    json_builder_begin_object(b);
    json_builder_set_member_name(b, "seq");
    json_builder_add_int_value(b, (gint64) seq);
}

char *
rv_host_journal_header_line(const char *root_path, bool live)
{
    g_autoptr(JsonBuilder) b = json_builder_new();

    begin_line(b, 0);
    json_builder_set_member_name(b, "rtvirt-journal");
    json_builder_add_int_value(b, JOURNAL_VERSION);
    json_builder_set_member_name(b, "root");
    json_builder_add_string_value(b, root_path);
    json_builder_set_member_name(b, "live");
    json_builder_add_boolean_value(b, live);
    return seal_line(b);
}

static void
add_str(JsonBuilder *b, const char *name, const char *value)
{
    json_builder_set_member_name(b, name);
    json_builder_add_string_value(b, value);
}

static void
add_int(JsonBuilder *b, const char *name, gint64 value)
{
    json_builder_set_member_name(b, name);
    json_builder_add_int_value(b, value);
}

/* A commit marker: the transaction of the @n_entries entries before it
 * completed. */
char *
rv_host_journal_commit_line(guint64 seq, guint n_entries)
{
    g_autoptr(JsonBuilder) b = json_builder_new();

    begin_line(b, seq);
    add_str(b, "kind", entry_kind_names[ENTRY_COMMIT]);
    add_int(b, "entries", n_entries);
    return seal_line(b);
}

char *
rv_host_journal_entry_line(const Entry *e, guint64 seq)
{
    g_autoptr(JsonBuilder) b = json_builder_new();

    begin_line(b, seq);
    add_str(b, "kind", entry_kind_names[e->kind]);
    switch (e->kind) {
    case ENTRY_VALUE:
        add_str(b, "path", e->path);
        if (g_utf8_validate(e->old, e->old_len, NULL)) {
            add_str(b, "old", e->old);
        } else {
            g_autofree char *b64 = g_base64_encode((const guchar *) e->old, e->old_len);
            add_str(b, "old-b64", b64);
        }
        break;
    case ENTRY_FILE:
        add_str(b, "path", e->path);
        if (e->absent) {
            json_builder_set_member_name(b, "absent");
            json_builder_add_boolean_value(b, TRUE);
        } else {
            g_autofree char *b64 = g_base64_encode((const guchar *) e->old, e->old_len);
            add_str(b, "old-b64", b64);
            add_int(b, "mode", e->mode);
            add_int(b, "uid", e->uid);
            add_int(b, "gid", e->gid);
            if (e->has_mtime) {
                add_int(b, "mtime-s", (gint64) e->mtime.tv_sec);
                add_int(b, "mtime-ns", (gint64) e->mtime.tv_nsec);
            }
        }
        break;
    case ENTRY_DIR:
        add_str(b, "path", e->path);
        break;
    case ENTRY_SCHED:
        add_int(b, "pid", e->pid);
        add_int(b, "starttime", (gint64) e->starttime);
        add_str(b, "comm", e->comm ? e->comm : "");
        add_int(b, "policy", e->policy);
        add_int(b, "prio", e->prio);
        add_str(b, "affinity", e->affinity);
        break;
    case ENTRY_CUSTOM:
        add_str(b, "type", e->type);
        add_str(b, "key", e->key);
        add_str(b, "data", e->data ? e->data : "");
        break;
    case ENTRY_COMMIT:
        g_assert_not_reached();
    }
    return seal_line(b);
}

const char *
rv_host_journal_obj_str(JsonObject *o, const char *name)
{
    JsonNode *n = json_object_get_member(o, name);

    if (!n || !JSON_NODE_HOLDS_VALUE(n) || json_node_get_value_type(n) != G_TYPE_STRING)
        return NULL;
    return json_node_get_string(n);
}

bool
rv_host_journal_obj_int(JsonObject *o, const char *name, gint64 *ret)
{
    JsonNode *n = json_object_get_member(o, name);

    if (!n || !JSON_NODE_HOLDS_VALUE(n) || json_node_get_value_type(n) != G_TYPE_INT64)
        return false;
    *ret = json_node_get_int(n);
    return true;
}

/* NULL when @o is no valid entry. */
Entry *
rv_host_journal_entry_parse(JsonObject *o)
{
    g_autoptr(Entry) e = g_new0(Entry, 1);
    const char *kind = rv_host_journal_obj_str(o, "kind");
    const char *s, *b64;
    gint64 v;
    size_t k;

    if (!kind)
        return NULL;
    for (k = 0; k < G_N_ELEMENTS(entry_kind_names); k++)
        if (strcmp(kind, entry_kind_names[k]) == 0)
            break;
    if (k == G_N_ELEMENTS(entry_kind_names))
        return NULL;
    e->kind = (EntryKind) k;
    e->uid = e->gid = -1;
    switch (e->kind) {
    case ENTRY_VALUE:
        if (!(s = rv_host_journal_obj_str(o, "path")) || s[0] != '/')
            return NULL;
        e->path = g_strdup(s);
        if ((s = rv_host_journal_obj_str(o, "old"))) {
            e->old = g_strdup(s);
            e->old_len = strlen(s);
        } else if ((b64 = rv_host_journal_obj_str(o, "old-b64"))) {
            e->old = (char *) g_base64_decode(b64, &e->old_len);
            e->old = g_realloc(e->old, e->old_len + 1);
            e->old[e->old_len] = '\0';
        } else {
            return NULL;
        }
        break;
    case ENTRY_FILE:
        if (!(s = rv_host_journal_obj_str(o, "path")) || s[0] != '/')
            return NULL;
        e->path = g_strdup(s);
        if (json_object_has_member(o, "absent")) {
            e->absent = true;
        } else {
            if (!(b64 = rv_host_journal_obj_str(o, "old-b64")) || !rv_host_journal_obj_int(o, "mode", &v))
                return NULL;
            e->mode = (guint) v;
            e->old = (char *) g_base64_decode(b64, &e->old_len);
            e->old = g_realloc(e->old, e->old_len + 1);
            e->old[e->old_len] = '\0';
            if (rv_host_journal_obj_int(o, "uid", &v))
                e->uid = v;
            if (rv_host_journal_obj_int(o, "gid", &v))
                e->gid = v;
            {
                gint64 sec, nsec;
                if (rv_host_journal_obj_int(o, "mtime-s", &sec) && rv_host_journal_obj_int(o, "mtime-ns", &nsec) &&
                    nsec >= 0 && nsec < 1000000000) {
                    e->has_mtime = true;
                    e->mtime.tv_sec = (time_t) sec;
                    e->mtime.tv_nsec = (long) nsec;
                }
            }
        }
        break;
    case ENTRY_DIR:
        if (!(s = rv_host_journal_obj_str(o, "path")) || s[0] != '/')
            return NULL;
        e->path = g_strdup(s);
        break;
    case ENTRY_SCHED:
        if (!rv_host_journal_obj_int(o, "pid", &e->pid) || !rv_host_journal_obj_int(o, "starttime", &v))
            return NULL;
        e->starttime = (guint64) v;
        if (!rv_host_journal_obj_int(o, "policy", &v))
            return NULL;
        e->policy = (int) v;
        if (!rv_host_journal_obj_int(o, "prio", &v))
            return NULL;
        e->prio = (int) v;
        if (!(s = rv_host_journal_obj_str(o, "affinity")))
            return NULL;
        e->affinity = g_strdup(s);
        e->comm = g_strdup(rv_host_journal_obj_str(o, "comm"));
        break;
    case ENTRY_CUSTOM:
        if (!(s = rv_host_journal_obj_str(o, "type")))
            return NULL;
        e->type = g_strdup(s);
        if (!(s = rv_host_journal_obj_str(o, "key")))
            return NULL;
        e->key = g_strdup(s);
        e->data = g_strdup(rv_host_journal_obj_str(o, "data"));
        break;
    case ENTRY_COMMIT:
        return NULL;   /* a marker, read by journal_load() */
    }
    return g_steal_pointer(&e);
}

