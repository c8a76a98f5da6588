/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * host/facts/snapshot.c: /proc/interrupts, /proc/softirqs, /proc/schedstat
 * snapshots and their per-CPU difference (formats in host/facts/snapshot.h).
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "host/facts/snapshot.h"
#include "util/error.h"

typedef struct {
    char *name;
    char *description;  /* nullable */
    bool global;        /* one count for the whole system (ERR:, MIS:) */
    guint64 *counts;    /* ncpus entries (1 when global) */
} Row;

typedef struct {
    char *unavailable;  /* reason, or NULL when read */
    GArray *cpus;       /* int CPU ids, column order */
    GPtrArray *rows;    /* Row*, file order */
} Table;

struct RvHostSnapshot {
    Table interrupts;
    Table softirqs;
    Table schedstat;
};

static const char * const schedstat_fields[] = {
    "yld_count", "legacy_expired", "sched_count", "sched_goidle", "ttwu_count",
    "ttwu_local", "rq_cpu_time_ns", "run_delay_ns", "pcount",
};

static void
row_free(gpointer p)
{
    Row *r = p;

    g_free(r->name);
    g_free(r->description);
    g_free(r->counts);
    g_free(r);
}

static void
table_init(Table *t)
{
    t->cpus = g_array_new(FALSE, FALSE, sizeof(int));
    t->rows = g_ptr_array_new_with_free_func(row_free);
}

static void
table_clear(Table *t)
{
    g_free(t->unavailable);
    if (t->cpus)
        g_array_unref(t->cpus);
    if (t->rows)
        g_ptr_array_unref(t->rows);
}

void
rv_host_snapshot_free(RvHostSnapshot *s)
{
    if (!s)
        return;
    table_clear(&s->interrupts);
    table_clear(&s->softirqs);
    table_clear(&s->schedstat);
    g_free(s);
}

static bool
parse_u64(const char *tok, guint64 *ret)
{
    char *end;

    if (!g_ascii_isdigit(*tok))
        return false;
    errno = 0;
    *ret = g_ascii_strtoull(tok, &end, 10);
    return errno == 0 && *end == '\0';
}

/* /proc/interrupts and /proc/softirqs share a layout. */
static int
parse_irq_table(const char *file, const char *text, Table *t, GError **error)
{
    g_auto(GStrv) lines = g_strsplit(text, "\n", -1);
    g_auto(GStrv) head = NULL;

    if (!lines[0])
        return rv_error_set(error, RV_ERROR_INVALID, EINVAL, "%s:1: empty file", file);
    head = g_strsplit_set(lines[0], " \t", -1);
    for (guint i = 0; head[i]; i++) {
        guint64 id;

        if (!*head[i])
            continue;
        if (!g_str_has_prefix(head[i], "CPU") || !parse_u64(head[i] + 3, &id) || id > 8191)
            return rv_error_set(error, RV_ERROR_INVALID, EINVAL,
                                "%s:1: expected a 'CPUn' column header, got '%s'", file, head[i]);
        {
            int cpu = (int) id;

            g_array_append_val(t->cpus, cpu);
        }
    }
    if (t->cpus->len == 0)
        return rv_error_set(error, RV_ERROR_INVALID, EINVAL, "%s:1: no CPU columns", file);

    for (guint ln = 1; lines[ln]; ln++) {
        char *line = lines[ln];
        char *colon;
        g_auto(GStrv) toks = NULL;
        Row *row;
        guint n = 0, i;
        g_autoptr(GString) desc = g_string_new(NULL);

        if (!*g_strstrip(line))
            continue;
        colon = strchr(line, ':');
        if (!colon || colon == line)
            return rv_error_set(error, RV_ERROR_INVALID, EINVAL,
                                "%s:%u: expected 'NAME: counts...', got '%.60s'", file, ln + 1,
                                line);
        *colon = '\0';
        toks = g_strsplit_set(colon + 1, " \t", -1);
        row = g_new0(Row, 1);
        row->name = g_strdup(g_strstrip(line));
        row->counts = g_new0(guint64, t->cpus->len);
        for (i = 0; toks[i]; i++) {
            if (!*toks[i])
                continue;
            if (n < t->cpus->len && desc->len == 0 && parse_u64(toks[i], &row->counts[n])) {
                n++;
                continue;
            }
            g_string_append_printf(desc, "%s%s", desc->len ? " " : "", toks[i]);
        }
        if (n == 0) {
            g_autofree char *name = g_strdup(row->name);

            row_free(row);
            return rv_error_set(error, RV_ERROR_INVALID, EINVAL,
                                "%s:%u: row '%s' has no counts", file, ln + 1, name);
        }
        if (n < t->cpus->len) {
            /* ERR:, MIS: (x86) and Err: (arm) are one system-wide count. */
            guint64 sum = 0;

            for (i = 0; i < n; i++)
                sum += row->counts[i];
            row->global = true;
            row->counts[0] = sum;
        }
        if (desc->len)
            row->description = g_strdup(desc->str);
        g_ptr_array_add(t->rows, row);
    }
    return 0;
}

static int
parse_schedstat(const char *text, Table *t, GError **error)
{
    g_auto(GStrv) lines = g_strsplit(text, "\n", -1);
    gint64 version = -1;

    for (guint i = 0; i < G_N_ELEMENTS(schedstat_fields); i++) {
        Row *row = g_new0(Row, 1);

        row->name = g_strdup(schedstat_fields[i]);
        g_ptr_array_add(t->rows, row);
    }
    for (guint ln = 0; lines[ln]; ln++) {
        g_auto(GStrv) toks = NULL;
        guint64 cpu;
        guint n = 0;

        if (g_str_has_prefix(lines[ln], "version ")) {
            version = g_ascii_strtoll(lines[ln] + 8, NULL, 10);
            continue;
        }
        if (!g_str_has_prefix(lines[ln], "cpu"))
            continue;
        toks = g_strsplit(g_strstrip(lines[ln]), " ", -1);
        if (!parse_u64(toks[0] + 3, &cpu) || cpu > 8191)
            return rv_error_set(error, RV_ERROR_INVALID, EINVAL,
                                "/proc/schedstat:%u: bad CPU '%s'", ln + 1, toks[0]);
        {
            int c = (int) cpu;

            g_array_append_val(t->cpus, c);
        }
        for (guint i = 0; i < t->rows->len; i++) {
            Row *row = t->rows->pdata[i];

            row->counts = g_renew(guint64, row->counts, t->cpus->len);
            row->counts[t->cpus->len - 1] = 0;
        }
        for (guint i = 1; toks[i] && n < G_N_ELEMENTS(schedstat_fields); i++) {
            Row *row = t->rows->pdata[n];

            if (!*toks[i])
                continue;
            if (!parse_u64(toks[i], &row->counts[t->cpus->len - 1]))
                return rv_error_set(error, RV_ERROR_INVALID, EINVAL,
                                    "/proc/schedstat:%u: bad count '%s'", ln + 1, toks[i]);
            n++;
        }
        if (n < G_N_ELEMENTS(schedstat_fields))
            return rv_error_set(error, RV_ERROR_INVALID, EINVAL,
                                "/proc/schedstat:%u: %u fields, expected %u (version 15-17)",
                                ln + 1, n, (unsigned) G_N_ELEMENTS(schedstat_fields));
    }
    if (version < 15 || version > 17) {
        t->unavailable = version < 0
            ? g_strdup("/proc/schedstat has no 'version' line")
            : g_strdup_printf("/proc/schedstat version %" G_GINT64_FORMAT
                              " not understood (15-17 are)", version);
        g_ptr_array_set_size(t->rows, 0);
        g_array_set_size(t->cpus, 0);
    }
    return 0;
}

int
rv_host_snapshot_parse(const char *interrupts, const char *softirqs, const char *schedstat,
                       RvHostSnapshot **ret, GError **error)
{
    g_autoptr(RvHostSnapshot) s = g_new0(RvHostSnapshot, 1);

    table_init(&s->interrupts);
    table_init(&s->softirqs);
    table_init(&s->schedstat);
    if (parse_irq_table("/proc/interrupts", interrupts, &s->interrupts, error) < 0)
        return -EINVAL;
    if (!softirqs)
        s->softirqs.unavailable = g_strdup("/proc/softirqs missing");
    else if (parse_irq_table("/proc/softirqs", softirqs, &s->softirqs, error) < 0)
        return -EINVAL;
    if (!schedstat)
        s->schedstat.unavailable =
            g_strdup("/proc/schedstat missing (kernel built without CONFIG_SCHEDSTATS)");
    else if (parse_schedstat(schedstat, &s->schedstat, error) < 0)
        return -EINVAL;
    *ret = g_steal_pointer(&s);
    return 0;
}

int
rv_host_snapshot_take(RvRoot *root, RvHostSnapshot **ret, GError **error)
{
    g_autofree char *irq = NULL, *soft = NULL, *sched = NULL;
    gssize r;

    r = rv_host_root_read(root, "/proc/interrupts", &irq, error);
    if (r < 0)
        return (int) r;
    /* optional sources: absent is a fact to record, not a failure */
    if (rv_host_root_read(root, "/proc/softirqs", &soft, NULL) < 0)
        soft = NULL;
    if (rv_host_root_read(root, "/proc/schedstat", &sched, NULL) < 0)
        sched = NULL;
    return rv_host_snapshot_parse(irq, soft, sched, ret, error);
}

static const Row *
find_row(const Table *t, const char *name)
{
    for (guint i = 0; i < t->rows->len; i++) {
        const Row *r = t->rows->pdata[i];

        if (strcmp(r->name, name) == 0)
            return r;
    }
    return NULL;
}

static int
column_of(const Table *t, int cpu)
{
    for (guint i = 0; i < t->cpus->len; i++)
        if (g_array_index(t->cpus, int, i) == cpu)
            return (int) i;
    return -1;
}

static int
delta(const char *what, const char *name, guint64 b, guint64 a, guint64 *ret, GError **error)
{
    if (a >= b) {
        *ret = a - b;
        return 0;
    }
    if (b <= G_MAXUINT32) {
        *ret = a + ((guint64) 1 << 32) - b;
        return 0;
    }
    /* a 64-bit sum that had wrapped below zero and came back: schedstat's
     * rq_cpu_time and run_delay are u64 sums of u64 clock differences
     * (kernel/sched/stats.h, sched_info_depart: rq_clock(rq) -
     * last_arrival), printed with %llu; where the clock stepped back the
     * sum reads 2^64 - N (seen in the lab host under nested TCG:
     * 18446744073709400993, then 57441941471).  The kernel's own modular
     * arithmetic gives the difference. */
    if (b > G_MAXINT64 && a - b <= G_MAXINT64) {
        *ret = a - b;
        return 0;
    }
    return rv_error_set(error, RV_ERROR_INVALID, EINVAL,
                        "%s '%s' went backwards (%" G_GUINT64_FORMAT " -> %" G_GUINT64_FORMAT
                        "): snapshots of different boots?", what, name, b, a);
}

/* Rows of @after (then rows only in @before) with their per-CPU deltas on
 * @cpus; all-zero rows are left out. */
static int
diff_table(const char *what, const Table *before, const Table *after, GArray *cpus,
           JsonBuilder *b, GError **error)
{
    g_autoptr(GPtrArray) names = g_ptr_array_new();

    if (before->unavailable || after->unavailable) {
        json_builder_begin_object(b);
        json_builder_set_member_name(b, "unavailable");
        json_builder_add_string_value(b, before->unavailable ? before->unavailable
                                                             : after->unavailable);
        json_builder_end_object(b);
        return 0;
    }
    for (guint i = 0; i < after->rows->len; i++)
        g_ptr_array_add(names, ((Row *) after->rows->pdata[i])->name);
    for (guint i = 0; i < before->rows->len; i++) {
        Row *r = before->rows->pdata[i];

        if (!find_row(after, r->name))
            g_ptr_array_add(names, r->name);
    }

    json_builder_begin_object(b);
    for (guint i = 0; i < names->len; i++) {
        const Row *rb = find_row(before, names->pdata[i]);
        const Row *ra = find_row(after, names->pdata[i]);
        const Row *any = ra ? ra : rb;
        g_autofree guint64 *d = g_new0(guint64, MAX(cpus->len, 1));
        guint64 total = 0;

        if (any->global) {
            guint64 vb = rb && rb->global ? rb->counts[0] : 0;
            guint64 va = ra && ra->global ? ra->counts[0] : 0;

            if (delta(what, any->name, vb, va, &total, error) < 0)
                return -EINVAL;
        } else {
            for (guint c = 0; c < cpus->len; c++) {
                int cpu = g_array_index(cpus, int, c);
                int cb = rb && !rb->global ? column_of(before, cpu) : -1;
                int ca = ra && !ra->global ? column_of(after, cpu) : -1;
                guint64 vb = cb >= 0 ? rb->counts[cb] : 0;
                guint64 va = ca >= 0 ? ra->counts[ca] : 0;

                if (delta(what, any->name, vb, va, &d[c], error) < 0)
                    return -EINVAL;
                total += d[c];
            }
        }
        if (total == 0)
            continue;
        json_builder_set_member_name(b, any->name);
        json_builder_begin_object(b);
        if (any->description) {
            json_builder_set_member_name(b, "description");
            json_builder_add_string_value(b, any->description);
        }
        if (!any->global) {
            json_builder_set_member_name(b, "per_cpu");
            json_builder_begin_array(b);
            for (guint c = 0; c < cpus->len; c++)
                json_builder_add_int_value(b, (gint64) d[c]);
            json_builder_end_array(b);
        }
        json_builder_set_member_name(b, "total");
        json_builder_add_int_value(b, (gint64) total);
        json_builder_end_object(b);
    }
    json_builder_end_object(b);
    return 0;
}

int
rv_host_snapshot_diff(const RvHostSnapshot *before, const RvHostSnapshot *after,
                      JsonNode **ret, GError **error)
{
    g_autoptr(JsonBuilder) b = json_builder_new();
    g_autoptr(GArray) cpus = g_array_new(FALSE, FALSE, sizeof(int));

    /* CPUs online in both: a CPU that went away has no "after" to compare */
    for (guint i = 0; i < after->interrupts.cpus->len; i++) {
        int cpu = g_array_index(after->interrupts.cpus, int, i);

        if (column_of(&before->interrupts, cpu) >= 0)
            g_array_append_val(cpus, cpu);
    }
    json_builder_begin_object(b);
    json_builder_set_member_name(b, "cpus");
    json_builder_begin_array(b);
    for (guint i = 0; i < cpus->len; i++)
        json_builder_add_int_value(b, g_array_index(cpus, int, i));
    json_builder_end_array(b);
    json_builder_set_member_name(b, "interrupts");
    if (diff_table("interrupt", &before->interrupts, &after->interrupts, cpus, b, error) < 0)
        return -EINVAL;
    json_builder_set_member_name(b, "softirqs");
    if (diff_table("softirq", &before->softirqs, &after->softirqs, cpus, b, error) < 0)
        return -EINVAL;
    json_builder_set_member_name(b, "schedstat");
    if (diff_table("schedstat", &before->schedstat, &after->schedstat, cpus, b, error) < 0)
        return -EINVAL;
    json_builder_end_object(b);
    *ret = json_builder_get_root(b);
    return 0;
}
