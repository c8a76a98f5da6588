/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * guest/limits.c: host limits learned per libvirt daemon instance
 * (guest/limits.h).
 */
#include <errno.h>
#include <string.h>

#include <json-glib/json-glib.h>

#include "guest/limits.h"
#include "util/error.h"
#include "util/json.h"

#define LIMITS_FILE "libvirt-limits.json"
#define LIMITS_SCHEMA 1
/* A cache file larger than this is not ours (two reasons of a few hundred
 * bytes each). */
#define LIMITS_FILE_MAX (64 * 1024)

static const char *const limit_names[RV_GUEST_LIMIT_N] = {
    [RV_GUEST_LIMIT_FIFO] = "fifo",
    [RV_GUEST_LIMIT_MEMLOCK] = "memlock",
};

const char *
rv_guest_limit_name(RvGuestLimit limit)
{
    return limit < RV_GUEST_LIMIT_N ? limit_names[limit] : "?";
}

void
rv_guest_limits_free(RvGuestLimits *l)
{
    if (!l)
        return;
    g_free(l->daemon);
    for (guint i = 0; i < RV_GUEST_LIMIT_N; i++) {
        g_free(l->reason[i]);
        g_free(l->learned[i]);
    }
    g_free(l);
}

char *
rv_guest_limits_run_dir(void)
{
    const char *env = g_getenv("RTVIRT_RUN_DIR");

    return g_strdup(env && *env ? env : "/run/rtvirt");
}

/* Field 22 (starttime) of /proc/PID/stat: after the comm field, which is
 * in parentheses and may hold spaces, so count from the last ')'. */
static bool
stat_start_ticks(const char *stat, guint64 *ret)
{
    const char *p = strrchr(stat, ')');
    g_auto(GStrv) fields = NULL;
    char *end;

    if (!p)
        return false;
    fields = g_strsplit_set(p + 1, " \n", -1);
    /* fields[0] is "" (the space after ')'), fields[1] is field 3 (state),
     * so field N is fields[N - 2] */
    if (g_strv_length(fields) < 21)
        return false;
    errno = 0;
    *ret = g_ascii_strtoull(fields[20], &end, 10);
    return errno == 0 && end != fields[20] && *end == '\0';
}

char *
rv_guest_limits_daemon_key(RvRoot *root)
{
    static const char *const daemons[] = { "libvirtd", "virtqemud" };
    g_autoptr(RvRoot) own = NULL;

    if (!root) {
        if (rv_host_root_open("/", &own, NULL) < 0)
            return NULL;
        root = own;
    }
    for (guint i = 0; i < G_N_ELEMENTS(daemons); i++) {
        g_autofree char *pidfile = g_strdup_printf("/run/%s.pid", daemons[i]);
        g_autofree char *pidtext = NULL, *statpath = NULL, *stat = NULL;
        gint64 pid;
        guint64 start;
        char *end;

        if (rv_host_root_read_value(root, pidfile, &pidtext, NULL) < 0)
            continue;
        pid = g_ascii_strtoll(pidtext, &end, 10);
        if (end == pidtext || *end != '\0' || pid <= 0 || pid > G_MAXINT)
            continue;
        statpath = g_strdup_printf("/proc/%" G_GINT64_FORMAT "/stat", pid);
        if (rv_host_root_read(root, statpath, &stat, NULL) < 0 ||
            !stat_start_ticks(stat, &start))
            continue;
        return g_strdup_printf("%s pid=%" G_GINT64_FORMAT " start=%" G_GUINT64_FORMAT,
                               daemons[i], pid, start);
    }
    return NULL;
}

static char *
limits_path(const char *run_dir)
{
    return g_build_filename(run_dir, LIMITS_FILE, NULL);
}

static RvGuestLimits *
limits_new(const char *daemon)
{
    RvGuestLimits *l = g_new0(RvGuestLimits, 1);

    l->daemon = g_strdup(daemon);
    return l;
}

/* Fills @l from the file's "limits" when it belongs to l->daemon. */
static void
limits_parse(RvGuestLimits *l, const char *text, gsize len)
{
    g_autoptr(JsonParser) parser = json_parser_new();
    JsonNode *root;
    JsonObject *o;
    JsonArray *a;
    JsonNode *n;
    const char *daemon;

    if (len > LIMITS_FILE_MAX || !json_parser_load_from_data(parser, text, (gssize) len, NULL))
        return;
    root = json_parser_get_root(parser);
    if (!root || !JSON_NODE_HOLDS_OBJECT(root))
        return;
    o = json_node_get_object(root);
    if (json_object_get_int_member_with_default(o, "schema_version", 0) != LIMITS_SCHEMA)
        return;
    daemon = json_object_get_string_member_with_default(o, "daemon", NULL);
    if (!daemon || g_strcmp0(daemon, l->daemon) != 0)
        return;
    n = json_object_get_member(o, "limits");
    a = n && JSON_NODE_HOLDS_ARRAY(n) ? json_node_get_array(n) : NULL;
    for (guint i = 0; a && i < json_array_get_length(a); i++) {
        JsonNode *el = json_array_get_element(a, i);
        JsonObject *e;
        const char *name;

        if (!JSON_NODE_HOLDS_OBJECT(el))
            continue;
        e = json_node_get_object(el);
        name = json_object_get_string_member_with_default(e, "limit", NULL);
        for (guint k = 0; name && k < RV_GUEST_LIMIT_N; k++) {
            if (strcmp(name, limit_names[k]) != 0 || l->known[k])
                continue;
            l->known[k] = true;
            l->reason[k] = g_strdup(json_object_get_string_member_with_default(e, "reason", ""));
            l->learned[k] = g_strdup(json_object_get_string_member_with_default(e, "learned", ""));
        }
    }
}

RvGuestLimits *
rv_guest_limits_load(const char *run_dir, const char *daemon)
{
    RvGuestLimits *l = limits_new(daemon);
    g_autofree char *path = NULL, *text = NULL;
    gsize len = 0;

    if (!daemon)
        return l;
    path = limits_path(run_dir);
    if (g_file_get_contents(path, &text, &len, NULL))
        limits_parse(l, text, len);
    return l;
}

int
rv_guest_limits_learn(const char *run_dir, const char *daemon, RvGuestLimit limit,
                      const char *reason, GError **error)
{
    g_autoptr(RvGuestLimits) l = NULL;
    g_autoptr(JsonBuilder) b = json_builder_new();
    g_autoptr(JsonNode) node = NULL;
    g_autofree char *path = NULL, *text = NULL;
    g_autoptr(GError) local = NULL;
    /* read, add, write back: guests booting in parallel (harness/run-pool.c's
     * provisioning pool) must not lose each other's limit */
    static GMutex lock;
    g_autoptr(GMutexLocker) locker = NULL;

    if (!daemon)
        return 0;
    g_return_val_if_fail(limit < RV_GUEST_LIMIT_N, -EINVAL);
    locker = g_mutex_locker_new(&lock);
    l = rv_guest_limits_load(run_dir, daemon);
    if (!l->known[limit]) {
        g_autoptr(GDateTime) now = g_date_time_new_now_utc();

        l->known[limit] = true;
        l->reason[limit] = g_strdup(reason ? reason : "");
        l->learned[limit] = g_date_time_format(now, "%Y-%m-%dT%H:%M:%SZ");
    }
    json_builder_begin_object(b);
    json_builder_set_member_name(b, "schema_version");
    json_builder_add_int_value(b, LIMITS_SCHEMA);
    json_builder_set_member_name(b, "daemon");
    json_builder_add_string_value(b, daemon);
    json_builder_set_member_name(b, "limits");
    json_builder_begin_array(b);
    for (guint k = 0; k < RV_GUEST_LIMIT_N; k++) {
        if (!l->known[k])
            continue;
        json_builder_begin_object(b);
        json_builder_set_member_name(b, "limit");
        json_builder_add_string_value(b, limit_names[k]);
        json_builder_set_member_name(b, "reason");
        json_builder_add_string_value(b, l->reason[k]);
        json_builder_set_member_name(b, "learned");
        json_builder_add_string_value(b, l->learned[k]);
        json_builder_end_object(b);
    }
    json_builder_end_array(b);
    json_builder_end_object(b);
    node = json_builder_get_root(b);
    text = rv_json_to_text(node);

    if (g_mkdir_with_parents(run_dir, 0755) < 0) {
        int e = errno;
        return rv_error_set(error, RV_ERROR_FAILED, e, "Failed to create '%s': %s", run_dir,
                            g_strerror(e));
    }
    path = limits_path(run_dir);
    if (!g_file_set_contents(path, text, -1, &local))
        return rv_error_set(error, RV_ERROR_FAILED, EIO, "Failed to write '%s': %s", path,
                            local->message);
    return 0;
}
