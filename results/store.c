/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * results/store.c: the run store (see store.h for the layout and schema).
 */
#include <errno.h>
#include <fcntl.h>
#include <math.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include <json-glib/json-glib.h>

#include "results/store.h"
#include "util/error.h"
#include "util/file.h"
#include "util/json.h"

/* Largest run.json read back: a store of long runs with histograms is a
 * few MiB; the bound only keeps a hostile file from exhausting memory. */
#define RV_STORE_READ_MAX (256u << 20)

#ifndef RV_VERSION
#define RV_VERSION "0.1"
#endif

struct RvStore {
    char *dir;
    char *matrix;
    char *created;
    gboolean trusted;
    gboolean complete;
    GPtrArray *untrusted_reasons;  /* char* */
    JsonNode *host;
    RvStoreContext *context;       /* or NULL: unknown (an old store) */
    GPtrArray *profiles;           /* JsonNode* objects {role,path,copy,sha256} */
    GPtrArray *scenarios;          /* RvStoreScenario* */
    GPtrArray *records;            /* RvStoreRecord* */
    GPtrArray *verifications;      /* RvStoreVerification* */
};

/* ---- small types ---- */

static void
metric_free(RvStoreMetric *m)
{
    if (!m)
        return;
    g_free(m->name);
    g_free(m->unit);
    g_free(m);
}

static void
store_hist_free(RvStoreHistogram *h)
{
    if (!h)
        return;
    g_free(h->name);
    rv_result_histogram_free(h->hist);
    g_free(h);
}

static void
scenario_free(RvStoreScenario *s)
{
    if (!s)
        return;
    g_free(s->name);
    g_free(s->description);
    g_free(s->status);
    g_free(s->reason);
    g_free(s);
}

static void
verification_free(RvStoreVerification *v)
{
    if (!v)
        return;
    g_free(v->scenario);
    g_free(v->what);
    g_free(v->status);
    g_free(v->detail);
    g_free(v);
}

RvStoreRecord *
rv_result_store_record_new(const char *scenario, int repetition,
                           const char *workload, const char *target)
{
    RvStoreRecord *rec = g_new0(RvStoreRecord, 1);

    rec->scenario = g_strdup(scenario);
    rec->repetition = repetition;
    rec->workload = g_strdup(workload);
    rec->target = g_strdup(target);
    rec->status = g_strdup("ok");
    rec->metrics = g_ptr_array_new_with_free_func((GDestroyNotify) metric_free);
    rec->histograms = g_ptr_array_new_with_free_func((GDestroyNotify) store_hist_free);
    rec->raw = g_ptr_array_new_with_free_func(g_free);
    return rec;
}

void
rv_result_store_record_free(RvStoreRecord *rec)
{
    if (!rec)
        return;
    g_free(rec->scenario);
    g_free(rec->workload);
    g_free(rec->target);
    g_free(rec->load);
    g_free(rec->virt);
    g_free(rec->status);
    g_free(rec->reason);
    g_free(rec->started);
    g_free(rec->finished);
    g_ptr_array_unref(rec->metrics);
    g_ptr_array_unref(rec->histograms);
    g_ptr_array_unref(rec->raw);
    if (rec->details)
        json_node_unref(rec->details);
    g_free(rec);
}

static void
set_str(char **field, const char *value)
{
    char *old = *field;

    *field = g_strdup(value);
    g_free(old);
}

void
rv_result_store_record_set_status(RvStoreRecord *rec, const char *status,
                                  const char *reason)
{
    set_str(&rec->status, status);
    set_str(&rec->reason, reason);
}

void
rv_result_store_record_set_virt(RvStoreRecord *rec, const char *virt)
{
    set_str(&rec->virt, virt);
}

static char *
iso8601(GDateTime *t)
{
    g_autoptr(GDateTime) utc = NULL;

    if (!t)
        return NULL;
    utc = g_date_time_to_utc(t);
    return g_date_time_format(utc, "%Y-%m-%dT%H:%M:%SZ");
}

void
rv_result_store_record_set_times(RvStoreRecord *rec, GDateTime *started,
                                 GDateTime *finished)
{
    g_free(rec->started);
    g_free(rec->finished);
    rec->started = iso8601(started);
    rec->finished = iso8601(finished);
}

void
rv_result_store_record_set_load(RvStoreRecord *rec, const char *load)
{
    set_str(&rec->load, load);
}

static const char * const better_names[] = { "lower", "higher" };
static const char * const aggregate_names[] = { "mean", "hmean", "max", "sum" };

const char *
rv_result_store_better_name(RvStoreBetter better)
{
    return (guint) better < G_N_ELEMENTS(better_names) ? better_names[better] : "?";
}

const char *
rv_result_store_aggregate_name(RvStoreAggregate aggregate)
{
    return (guint) aggregate < G_N_ELEMENTS(aggregate_names) ? aggregate_names[aggregate]
                                                             : "?";
}

int
rv_result_store_better_parse(const char *text, RvStoreBetter *ret)
{
    for (guint i = 0; text && i < G_N_ELEMENTS(better_names); i++)
        if (strcmp(text, better_names[i]) == 0) {
            *ret = (RvStoreBetter) i;
            return 0;
        }
    return -EINVAL;
}

int
rv_result_store_aggregate_parse(const char *text, RvStoreAggregate *ret)
{
    for (guint i = 0; text && i < G_N_ELEMENTS(aggregate_names); i++)
        if (strcmp(text, aggregate_names[i]) == 0) {
            *ret = (RvStoreAggregate) i;
            return 0;
        }
    return -EINVAL;
}

void
rv_result_store_record_add_metric(RvStoreRecord *rec, const char *name,
                                  double value, const char *unit)
{
    rv_result_store_record_add_metric_full(rec, name, value, unit, RV_STORE_BETTER_LOWER,
                                           RV_STORE_AGGREGATE_MEAN);
}

void
rv_result_store_record_add_metric_full(RvStoreRecord *rec, const char *name,
                                       double value, const char *unit,
                                       RvStoreBetter better, RvStoreAggregate aggregate)
{
    RvStoreMetric *m = g_new0(RvStoreMetric, 1);

    for (guint i = 0; i < rec->metrics->len; i++) {
        RvStoreMetric *o = rec->metrics->pdata[i];
        if (g_str_equal(o->name, name)) {
            g_ptr_array_remove_index(rec->metrics, i);
            break;
        }
    }
    m->name = g_strdup(name);
    m->value = value;
    m->unit = g_strdup(unit);
    m->better = better;
    m->aggregate = aggregate;
    g_ptr_array_add(rec->metrics, m);
}

void
rv_result_store_record_add_histogram(RvStoreRecord *rec, const char *name,
                                     const RvHistogram *hist)
{
    RvStoreHistogram *h = g_new0(RvStoreHistogram, 1);

    h->name = g_strdup(name);
    h->hist = rv_result_histogram_copy(hist);
    g_ptr_array_add(rec->histograms, h);
}

void
rv_result_store_record_add_raw(RvStoreRecord *rec, const char *relpath)
{
    g_ptr_array_add(rec->raw, g_strdup(relpath));
}

void
rv_result_store_record_set_details(RvStoreRecord *rec, JsonNode *details)
{
    if (rec->details)
        json_node_unref(rec->details);
    rec->details = details ? json_node_copy(details) : NULL;
}

const RvStoreMetric *
rv_result_store_record_get_metric(const RvStoreRecord *rec, const char *name)
{
    for (guint i = 0; i < rec->metrics->len; i++) {
        const RvStoreMetric *m = rec->metrics->pdata[i];
        if (g_str_equal(m->name, name))
            return m;
    }
    return NULL;
}

const RvHistogram *
rv_result_store_record_get_histogram(const RvStoreRecord *rec, const char *name)
{
    for (guint i = 0; i < rec->histograms->len; i++) {
        const RvStoreHistogram *h = rec->histograms->pdata[i];
        if (g_str_equal(h->name, name))
            return h->hist;
    }
    return NULL;
}

/* ---- the value rules (store.h): one validator, writer and reader ---- */

static gboolean
is_latency(const char *name, const char *unit)
{
    return g_strcmp0(unit, "us") == 0 || g_strcmp0(unit, "ns") == 0 ||
           (name && (g_str_has_suffix(name, "_us") || g_str_has_suffix(name, "_ns")));
}

int
rv_result_store_check_metric(const char *name, double value, const char *unit,
                             GError **error)
{
    if (isnan(value))
        return 0;      /* "no value": written as null */
    if (!isfinite(value) || fabs(value) > RV_STORE_METRIC_MAX)
        return rv_error_set(error, RV_ERROR_INVALID, ERANGE, "%g is outside +-%g",
                            value, RV_STORE_METRIC_MAX);
    if (value < 0 && is_latency(name, unit))
        return rv_error_set(error, RV_ERROR_INVALID, ERANGE,
                            "%g: a latency cannot be negative", value);
    return 0;
}

int
rv_result_store_check_metric_full(const RvStoreMetric *m, GError **error)
{
    int r = rv_result_store_check_metric(m->name, m->value, m->unit, error);

    if (r < 0)
        return r;
    if ((guint) m->better >= G_N_ELEMENTS(better_names))
        return rv_error_set(error, RV_ERROR_INVALID, EINVAL,
                            "better %d is not lower or higher", (int) m->better);
    if ((guint) m->aggregate >= G_N_ELEMENTS(aggregate_names))
        return rv_error_set(error, RV_ERROR_INVALID, EINVAL,
                            "aggregate %d is not mean, hmean, max or sum", (int) m->aggregate);
    if (isnan(m->value))
        return 0;
    /* the harmonic mean of rates is only defined for rates >= 0 */
    if (m->aggregate == RV_STORE_AGGREGATE_HMEAN && m->value < 0)
        return rv_error_set(error, RV_ERROR_INVALID, ERANGE,
                            "%g: a rate (aggregate hmean) cannot be negative", m->value);
    if (g_strcmp0(m->name, RV_STORE_METRIC_CPU_PCT) == 0 && (m->value < 0 || m->value > 100))
        return rv_error_set(error, RV_ERROR_INVALID, ERANGE,
                            "%g: " RV_STORE_METRIC_CPU_PCT " is outside 0..100", m->value);
    return 0;
}

int
rv_result_store_check_histogram(const RvHistogram *h, GError **error)
{
    guint64 total = h->overflows;

    if (h->n_buckets > RV_STORE_HIST_BUCKETS_MAX)
        return rv_error_set(error, RV_ERROR_INVALID, ERANGE,
                            "%u buckets: more than %u", h->n_buckets,
                            RV_STORE_HIST_BUCKETS_MAX);
    if (h->overflows > (guint64) RV_STORE_COUNT_MAX)
        return rv_error_set(error, RV_ERROR_INVALID, ERANGE,
                            "overflows %" G_GUINT64_FORMAT " is outside 0..%" G_GINT64_FORMAT,
                            h->overflows, RV_STORE_COUNT_MAX);
    for (guint i = 0; i < rv_result_histogram_n_bins(h); i++) {
        const RvHistogramBin *bin = rv_result_histogram_bin(h, i);
        if (bin->us >= h->n_buckets)
            return rv_error_set(error, RV_ERROR_INVALID, ERANGE,
                                "bucket %u us is outside the %u buckets", bin->us,
                                h->n_buckets);
        if (bin->count > (guint64) RV_STORE_COUNT_MAX)
            return rv_error_set(error, RV_ERROR_INVALID, ERANGE,
                                "bucket %u us count %" G_GUINT64_FORMAT " is outside 0..%"
                                G_GINT64_FORMAT, bin->us, bin->count, RV_STORE_COUNT_MAX);
        /* both addends <= 2^53: the sum cannot wrap a guint64 */
        total += bin->count;
        if (total > (guint64) RV_STORE_COUNT_MAX)
            return rv_error_set(error, RV_ERROR_INVALID, ERANGE,
                                "total of the counts exceeds %" G_GINT64_FORMAT " at bucket %u",
                                RV_STORE_COUNT_MAX, bin->us);
    }
    if (h->max_us < -1 || (double) h->max_us > RV_STORE_METRIC_MAX)
        return rv_error_set(error, RV_ERROR_INVALID, ERANGE,
                            "max %" G_GINT64_FORMAT " us is outside 0..%g", h->max_us,
                            RV_STORE_METRIC_MAX);
    return 0;
}

int
rv_result_store_record_check(const RvStoreRecord *rec, GError **error)
{
    if (rec->repetition < 0)
        return rv_error_set(error, RV_ERROR_INVALID, ERANGE,
                            "repetition %d is negative", rec->repetition);
    for (guint i = 0; i < rec->metrics->len; i++) {
        const RvStoreMetric *m = rec->metrics->pdata[i];
        g_autoptr(GError) e = NULL;
        int r = rv_result_store_check_metric_full(m, &e);

        if (r < 0)
            return rv_error_set(error, RV_ERROR_INVALID, -r, "metrics.%s.value: %s",
                                m->name, e->message);
    }
    for (guint i = 0; i < rec->histograms->len; i++) {
        const RvStoreHistogram *h = rec->histograms->pdata[i];
        g_autoptr(GError) e = NULL;
        int r = rv_result_store_check_histogram(h->hist, &e);

        if (r < 0)
            return rv_error_set(error, RV_ERROR_INVALID, -r, "histograms.%s: %s",
                                h->name, e->message);
    }
    return 0;
}

char *
rv_result_store_text_escape(const char *text)
{
    GString *o;
    const char *p, *end;

    if (!text)
        return NULL;
    end = text + strlen(text);
    if (g_utf8_validate(text, end - text, NULL))
        return g_strdup(text);
    o = g_string_sized_new(end - text + 16);
    for (p = text; p < end; ) {
        gunichar c = g_utf8_get_char_validated(p, end - p);

        if (c == (gunichar) -1 || c == (gunichar) -2) {
            g_string_append_printf(o, "\\x%02X", (guchar) *p);
            p++;
        } else {
            const char *next = g_utf8_next_char(p);
            g_string_append_len(o, p, next - p);
            p = next;
        }
    }
    return g_string_free(o, FALSE);
}

void
rv_result_store_json_add_number(JsonBuilder *b, double v)
{
    char buf[G_ASCII_DTOSTR_BUF_SIZE];

    if (!isfinite(v)) {
        json_builder_add_null_value(b);
        return;
    }
    if (v == floor(v)) {
        /* -2^63 <= v < 2^63: exact as a gint64 */
        if (v >= -9223372036854775808.0 && v < 9223372036854775808.0)
            json_builder_add_int_value(b, (gint64) v);
        else
            json_builder_add_null_value(b);
        return;
    }
    /* json-glib writes "%.17g" and appends ".0" when that has no '.': a
     * tiny value whose 17 digits end in zeros ("3e-05") would come out as
     * "3e-05.0".  Step one ulp towards zero until it has a '.'. */
    for (int i = 0; i < 8; i++) {
        g_ascii_formatd(buf, sizeof(buf), "%.17g", v);
        if (strchr(buf, '.'))
            break;
        v = nextafter(v, 0.0);
    }
    json_builder_add_double_value(b, v);
}

void
rv_result_store_json_add_double(JsonBuilder *b, double v)
{
    /* json-glib's own form for an integral value ("906.0") where it is
     * valid JSON: below 1e15, "%.17g" is fixed notation; a value with a
     * fraction is written the same way by both */
    if (isfinite(v) && v == floor(v) && fabs(v) < 1e15)
        json_builder_add_double_value(b, v);
    else
        rv_result_store_json_add_number(b, v);
}

/* JSON text of a store: every string and key escaped, every number by the
 * number rule; @n is a JsonNode of untrusted shape (details, host facts). */
static void
build_node(JsonBuilder *b, JsonNode *n, guint depth)
{
    if (!n || JSON_NODE_HOLDS_NULL(n) || depth > RV_JSON_MAX_DEPTH) {
        json_builder_add_null_value(b);
    } else if (JSON_NODE_HOLDS_OBJECT(n)) {
        JsonObject *o = json_node_get_object(n);
        g_autoptr(GList) names = json_object_get_members(o);

        json_builder_begin_object(b);
        for (GList *l = names; l; l = l->next) {
            g_autofree char *k = rv_result_store_text_escape(l->data);
            json_builder_set_member_name(b, k);
            build_node(b, json_object_get_member(o, l->data), depth + 1);
        }
        json_builder_end_object(b);
    } else if (JSON_NODE_HOLDS_ARRAY(n)) {
        JsonArray *a = json_node_get_array(n);

        json_builder_begin_array(b);
        for (guint i = 0; i < json_array_get_length(a); i++)
            build_node(b, json_array_get_element(a, i), depth + 1);
        json_builder_end_array(b);
    } else {
        switch (json_node_get_value_type(n)) {
        case G_TYPE_INT64:
            json_builder_add_int_value(b, json_node_get_int(n));
            break;
        case G_TYPE_DOUBLE:
            rv_result_store_json_add_number(b, json_node_get_double(n));
            break;
        case G_TYPE_BOOLEAN:
            json_builder_add_boolean_value(b, json_node_get_boolean(n));
            break;
        case G_TYPE_STRING: {
            g_autofree char *t = rv_result_store_text_escape(json_node_get_string(n));
            json_builder_add_string_value(b, t);
            break;
        }
        default:
            json_builder_add_null_value(b);
            break;
        }
    }
}

/* a member whose value is text: escaped, or null */
static void
add_text(JsonBuilder *b, const char *key, const char *value)
{
    g_autofree char *k = rv_result_store_text_escape(key);
    g_autofree char *v = rv_result_store_text_escape(value);

    rv_json_add_string_or_null(b, k, v);
}

static void
add_text_value(JsonBuilder *b, const char *value)
{
    g_autofree char *v = rv_result_store_text_escape(value);

    json_builder_add_string_value(b, v);
}

static void
set_member(JsonBuilder *b, const char *key)
{
    g_autofree char *k = rv_result_store_text_escape(key);

    json_builder_set_member_name(b, k);
}

/* ---- the store ---- */

static RvStore *
store_new(const char *dir)
{
    RvStore *s = g_new0(RvStore, 1);

    s->dir = g_strdup(dir);
    s->trusted = TRUE;
    s->untrusted_reasons = g_ptr_array_new_with_free_func(g_free);
    s->profiles = g_ptr_array_new_with_free_func((GDestroyNotify) json_node_unref);
    s->scenarios = g_ptr_array_new_with_free_func((GDestroyNotify) scenario_free);
    s->records = g_ptr_array_new_with_free_func((GDestroyNotify) rv_result_store_record_free);
    s->verifications = g_ptr_array_new_with_free_func((GDestroyNotify) verification_free);
    return s;
}

void
rv_result_store_free(RvStore *s)
{
    if (!s)
        return;
    g_free(s->dir);
    g_free(s->matrix);
    g_free(s->created);
    g_ptr_array_unref(s->untrusted_reasons);
    if (s->host)
        json_node_unref(s->host);
    rv_result_context_free(s->context);
    g_ptr_array_unref(s->profiles);
    g_ptr_array_unref(s->scenarios);
    g_ptr_array_unref(s->records);
    g_ptr_array_unref(s->verifications);
    g_free(s);
}

const char *rv_result_store_get_dir(const RvStore *s) { return s->dir; }
const char *rv_result_store_get_matrix(const RvStore *s) { return s->matrix; }
gboolean rv_result_store_get_trusted(const RvStore *s) { return s->trusted; }
gboolean rv_result_store_get_complete(const RvStore *s) { return s->complete; }
GPtrArray *rv_result_store_get_untrusted_reasons(const RvStore *s) { return s->untrusted_reasons; }
JsonNode *rv_result_store_get_host(const RvStore *s) { return s->host; }
const RvStoreContext *rv_result_store_get_context(const RvStore *s) { return s->context; }
GPtrArray *rv_result_store_get_scenarios(const RvStore *s) { return s->scenarios; }
GPtrArray *rv_result_store_get_records(const RvStore *s) { return s->records; }
GPtrArray *rv_result_store_get_verifications(const RvStore *s) { return s->verifications; }

static gboolean
valid_name(const char *n)
{
    if (!n || !*n || g_str_equal(n, ".") || g_str_equal(n, ".."))
        return FALSE;
    for (const char *p = n; *p; p++)
        if (!g_ascii_isalnum(*p) && *p != '.' && *p != '_' && *p != '-')
            return FALSE;
    return TRUE;
}


/* temp + fsync + rename + fsync(dir): after a crash, @path holds either the
 * old or the new contents, never a torn file. */
static int
write_atomic(const char *path, const char *data, gsize len, GError **error)
{
    g_autofree char *tmp = g_strdup_printf("%s.tmp", path);
    g_autofree char *dir = g_path_get_dirname(path);
    int fd, dfd, e;
    gsize off = 0;

    fd = open(tmp, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
    if (fd < 0)
        goto fail_errno;
    while (off < len) {
        ssize_t n = write(fd, data + off, len - off);
        if (n < 0) {
            if (errno == EINTR)
                continue;
            e = errno;
            close(fd);
            unlink(tmp);
            errno = e;
            goto fail_errno;
        }
        off += n;
    }
    if (fsync(fd) < 0 || close(fd) < 0) {
        e = errno;
        unlink(tmp);
        errno = e;
        goto fail_errno;
    }
    if (rename(tmp, path) < 0) {
        e = errno;
        unlink(tmp);
        errno = e;
        goto fail_errno;
    }
    dfd = open(dir, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
    if (dfd >= 0) {
        (void) fsync(dfd);
        close(dfd);
    }
    return 0;

fail_errno:
    e = errno;
    return rv_error_set(error, RV_ERROR_FAILED, e, "Failed to write '%s': %s",
                        path, g_strerror(e));
}

int
rv_result_store_create(const char *parent, const char *matrix, GDateTime *when,
                       RvStore **ret_store, GError **error)
{
    g_autoptr(RvStore) s = NULL;
    g_autoptr(GDateTime) now = when ? g_date_time_to_utc(when) : g_date_time_new_now_utc();
    g_autofree char *stamp = g_date_time_format(now, "%Y%m%d-%H%M%S");
    g_autofree char *dir = NULL;
    int r;

    if (!valid_name(matrix))
        return rv_error_set(error, RV_ERROR_INVALID, EINVAL,
                            "Invalid matrix name '%s' for a results directory "
                            "(allowed: letters, digits, '.', '_', '-')",
                            matrix ? matrix : "");
    if (g_mkdir_with_parents(parent, 0755) < 0) {
        int e = errno;
        return rv_error_set(error, RV_ERROR_FAILED, e,
                            "Failed to create '%s': %s", parent, g_strerror(e));
    }
    for (int n = 1; ; n++) {
        g_free(dir);
        dir = n == 1 ? g_strdup_printf("%s/%s-%s", parent, stamp, matrix)
                     : g_strdup_printf("%s/%s-%s-%d", parent, stamp, matrix, n);
        if (mkdir(dir, 0755) == 0)
            break;
        if (errno != EEXIST || n > 1000) {
            int e = errno;
            return rv_error_set(error, RV_ERROR_FAILED, e,
                                "Failed to create '%s': %s", dir, g_strerror(e));
        }
    }
    for (int i = 0; i < 2; i++) {
        g_autofree char *sub = g_build_filename(dir, i ? "raw" : "profiles", NULL);
        if (mkdir(sub, 0755) < 0) {
            int e = errno;
            return rv_error_set(error, RV_ERROR_FAILED, e,
                                "Failed to create '%s': %s", sub, g_strerror(e));
        }
    }
    s = store_new(dir);
    s->matrix = g_strdup(matrix);
    s->created = iso8601(now);
    r = rv_result_store_commit(s, error);
    if (r < 0)
        return r;
    *ret_store = g_steal_pointer(&s);
    return 0;
}

void
rv_result_store_set_host(RvStore *s, JsonNode *facts)
{
    if (s->host)
        json_node_unref(s->host);
    s->host = facts ? json_node_copy(facts) : NULL;
}

void
rv_result_store_set_context(RvStore *s, const RvStoreContext *ctx)
{
    rv_result_context_free(s->context);
    s->context = rv_result_context_copy(ctx);
}

int
rv_result_store_add_profile(RvStore *s, const char *role, const char *path,
                            GError **error)
{
    g_autofree char *data = NULL;
    g_autofree char *base = g_path_get_basename(path);
    g_autofree char *copy = NULL, *copy_path = NULL, *sum = NULL;
    g_autoptr(JsonBuilder) b = json_builder_new();
    gsize len;
    int r;

    {
        /* util/file.h: one reader, one errno policy; a profile is small */
        gssize n = rv_file_read(path, RV_FILE_READ_MAX, &data, error);

        if (n < 0)
            return (int) n;
        len = (gsize) n;
    }
    if (!valid_name(base))
        base = (g_free(base), g_strdup("profile"));
    /* two profiles with one basename (host/rt.ini, guests/rt.ini) both kept */
    for (int n = 1; ; n++) {
        gboolean taken = FALSE;
        g_free(copy);
        copy = n == 1 ? g_strdup_printf("profiles/%s", base)
                      : g_strdup_printf("profiles/%d-%s", n, base);
        for (guint i = 0; i < s->profiles->len; i++) {
            JsonObject *o = json_node_get_object(s->profiles->pdata[i]);
            if (g_strcmp0(json_object_get_string_member_with_default(o, "copy", ""), copy) == 0)
                taken = TRUE;
        }
        if (!taken)
            break;
    }
    copy_path = g_build_filename(s->dir, copy, NULL);
    r = write_atomic(copy_path, data, len, error);
    if (r < 0)
        return r;
    sum = g_compute_checksum_for_data(G_CHECKSUM_SHA256, (const guchar *) data, len);

    json_builder_begin_object(b);
    json_builder_set_member_name(b, "role");
    json_builder_add_string_value(b, role);
    json_builder_set_member_name(b, "path");
    json_builder_add_string_value(b, path);
    json_builder_set_member_name(b, "copy");
    json_builder_add_string_value(b, copy);
    json_builder_set_member_name(b, "sha256");
    json_builder_add_string_value(b, sum);
    json_builder_end_object(b);
    g_ptr_array_add(s->profiles, json_builder_get_root(b));
    return 0;
}

static RvStoreScenario *
find_scenario(RvStore *s, const char *name)
{
    for (guint i = 0; i < s->scenarios->len; i++) {
        RvStoreScenario *sc = s->scenarios->pdata[i];
        if (g_str_equal(sc->name, name))
            return sc;
    }
    return NULL;
}

void
rv_result_store_add_scenario(RvStore *s, const char *name, const char *description)
{
    RvStoreScenario *sc = find_scenario(s, name);

    if (sc) {
        set_str(&sc->description, description);
        return;
    }
    sc = g_new0(RvStoreScenario, 1);
    sc->name = g_strdup(name);
    sc->description = g_strdup(description);
    sc->status = g_strdup("planned");
    g_ptr_array_add(s->scenarios, sc);
}

void
rv_result_store_set_scenario_status(RvStore *s, const char *scenario,
                                    const char *status, const char *reason)
{
    RvStoreScenario *sc = find_scenario(s, scenario);

    if (!sc) {
        rv_result_store_add_scenario(s, scenario, NULL);
        sc = find_scenario(s, scenario);
    }
    set_str(&sc->status, status);
    set_str(&sc->reason, reason);
}

GPtrArray *
rv_result_store_get_profiles(const RvStore *s)
{
    return s->profiles;
}

guint
rv_result_store_forget_repetition(RvStore *s, const char *scenario, int repetition)
{
    guint n = 0;

    for (guint i = s->records->len; i-- > 0;) {
        const RvStoreRecord *r = s->records->pdata[i];

        if (r->repetition == repetition && g_strcmp0(r->scenario, scenario) == 0) {
            g_ptr_array_remove_index(s->records, i);
            n++;
        }
    }
    for (guint i = s->verifications->len; i-- > 0;) {
        const RvStoreVerification *v = s->verifications->pdata[i];

        if (v->repetition == repetition && g_strcmp0(v->scenario, scenario) == 0) {
            g_ptr_array_remove_index(s->verifications, i);
            n++;
        }
    }
    return n;
}

void
rv_result_store_remove_untrusted(RvStore *s, const char *reason)
{
    for (guint i = 0; i < s->untrusted_reasons->len; i++)
        if (g_str_equal(s->untrusted_reasons->pdata[i], reason)) {
            g_ptr_array_remove_index(s->untrusted_reasons, i);
            if (s->untrusted_reasons->len == 0)
                s->trusted = TRUE;
            return;
        }
}

/* Does some untrusted reason of @s name @word? */
static gboolean
reasons_name(const RvStore *s, const char *word)
{
    for (guint i = 0; i < s->untrusted_reasons->len; i++)
        if (strstr(s->untrusted_reasons->pdata[i], word))
            return TRUE;
    return FALSE;
}

void
rv_result_store_set_untrusted(RvStore *s, const char *reason)
{
    s->trusted = FALSE;
    for (guint i = 0; i < s->untrusted_reasons->len; i++)
        if (g_str_equal(s->untrusted_reasons->pdata[i], reason))
            return;
    g_ptr_array_add(s->untrusted_reasons, g_strdup(reason));
}

void
rv_result_store_set_complete(RvStore *s, gboolean complete)
{
    s->complete = complete;
}

void
rv_result_store_add_verification(RvStore *s, const char *scenario, int repetition,
                                 const char *what, const char *status,
                                 const char *detail)
{
    RvStoreVerification *v = g_new0(RvStoreVerification, 1);

    v->scenario = g_strdup(scenario);
    v->repetition = repetition;
    v->what = g_strdup(what);
    v->status = g_strdup(status);
    v->detail = g_strdup(detail);
    g_ptr_array_add(s->verifications, v);
}

int
rv_result_store_write_raw(RvStore *s, const char *name, const char *data,
                          gsize len, char **ret_relpath, GError **error)
{
    g_autofree char *rel = NULL, *path = NULL;
    int r;

    if (!valid_name(name))
        return rv_error_set(error, RV_ERROR_INVALID, EINVAL,
                            "Invalid raw output name '%s'", name ? name : "");
    rel = g_strdup_printf("raw/%s", name);
    path = g_build_filename(s->dir, rel, NULL);
    r = write_atomic(path, data, len, error);
    if (r < 0)
        return r;
    if (ret_relpath)
        *ret_relpath = g_steal_pointer(&rel);
    return 0;
}

/* a record that breaks the value rules is kept as failed, without values */
static void
record_refuse_bad(RvStoreRecord *rec)
{
    g_autoptr(GError) e = NULL;
    g_autofree char *why = NULL;

    if (rv_result_store_record_check(rec, &e) == 0)
        return;
    why = rec->reason ? g_strdup_printf("%s; refused by the store: %s", rec->reason, e->message)
                      : g_strdup_printf("refused by the store: %s", e->message);
    rv_result_store_record_set_status(rec, "failed", why);
    g_ptr_array_set_size(rec->metrics, 0);
    g_ptr_array_set_size(rec->histograms, 0);
    rv_result_store_record_set_details(rec, NULL);
    if (rec->repetition < 0)
        rec->repetition = 0;
}

void
rv_result_store_add_record(RvStore *s, RvStoreRecord *rec)
{
    record_refuse_bad(rec);
    /* readers require every record's scenario in "scenarios" */
    if (!find_scenario(s, rec->scenario))
        rv_result_store_add_scenario(s, rec->scenario, NULL);
    for (guint i = 0; i < s->records->len; i++) {
        RvStoreRecord *o = s->records->pdata[i];
        if (g_str_equal(o->scenario, rec->scenario) && o->repetition == rec->repetition &&
            g_str_equal(o->workload, rec->workload) && g_strcmp0(o->target, rec->target) == 0 &&
            g_strcmp0(o->load, rec->load) == 0) {
            rv_result_store_record_free(s->records->pdata[i]);
            s->records->pdata[i] = rec;
            return;
        }
    }
    g_ptr_array_add(s->records, rec);
}

/* ---- serialisation ---- */

static void
build_histogram(JsonBuilder *b, const RvHistogram *h)
{
    json_builder_begin_object(b);
    add_text(b, "unit", "us");
    json_builder_set_member_name(b, "buckets");
    json_builder_add_int_value(b, h->n_buckets);
    json_builder_set_member_name(b, "overflows");
    json_builder_add_int_value(b, (gint64) h->overflows);
    json_builder_set_member_name(b, "max");
    if (h->max_us >= 0)
        json_builder_add_int_value(b, h->max_us);
    else
        json_builder_add_null_value(b);
    json_builder_set_member_name(b, "total");
    json_builder_add_int_value(b, (gint64) rv_result_histogram_total(h));
    /* sparse: a latency histogram is mostly zeros past its tail */
    json_builder_set_member_name(b, "counts");
    json_builder_begin_array(b);
    for (guint i = 0; i < rv_result_histogram_n_bins(h); i++) {
        const RvHistogramBin *bin = rv_result_histogram_bin(h, i);
        json_builder_begin_array(b);
        json_builder_add_int_value(b, bin->us);
        json_builder_add_int_value(b, (gint64) bin->count);
        json_builder_end_array(b);
    }
    json_builder_end_array(b);
    json_builder_end_object(b);
}

static JsonNode *
store_to_json(const RvStore *s)
{
    g_autoptr(JsonBuilder) b = json_builder_new();
    g_autoptr(GDateTime) now = g_date_time_new_now_utc();
    g_autofree char *updated = iso8601(now);

    json_builder_begin_object(b);
    json_builder_set_member_name(b, "schema_version");
    json_builder_add_int_value(b, RV_STORE_SCHEMA_VERSION);
    json_builder_set_member_name(b, "tool");
    json_builder_begin_object(b);
    add_text(b, "name", "rtvirt");
    add_text(b, "version", RV_VERSION);
    json_builder_end_object(b);
    add_text(b, "matrix", s->matrix);
    add_text(b, "created", s->created);
    add_text(b, "updated", updated);
    json_builder_set_member_name(b, "complete");
    json_builder_add_boolean_value(b, s->complete);
    json_builder_set_member_name(b, "trusted");
    json_builder_add_boolean_value(b, s->trusted);
    json_builder_set_member_name(b, "untrusted_reasons");
    json_builder_begin_array(b);
    for (guint i = 0; i < s->untrusted_reasons->len; i++)
        add_text_value(b, s->untrusted_reasons->pdata[i]);
    json_builder_end_array(b);
    json_builder_set_member_name(b, "host");
    build_node(b, s->host, 0);
    json_builder_set_member_name(b, "context");
    rv_result_context_build(b, s->context, rv_result_store_text_escape);
    json_builder_set_member_name(b, "profiles");
    json_builder_begin_array(b);
    for (guint i = 0; i < s->profiles->len; i++)
        build_node(b, s->profiles->pdata[i], 0);
    json_builder_end_array(b);

    json_builder_set_member_name(b, "scenarios");
    json_builder_begin_array(b);
    for (guint i = 0; i < s->scenarios->len; i++) {
        const RvStoreScenario *sc = s->scenarios->pdata[i];
        json_builder_begin_object(b);
        add_text(b, "name", sc->name);
        add_text(b, "description", sc->description);
        add_text(b, "status", sc->status);
        add_text(b, "reason", sc->reason);
        json_builder_end_object(b);
    }
    json_builder_end_array(b);

    json_builder_set_member_name(b, "records");
    json_builder_begin_array(b);
    for (guint i = 0; i < s->records->len; i++) {
        const RvStoreRecord *r = s->records->pdata[i];
        json_builder_begin_object(b);
        add_text(b, "scenario", r->scenario);
        json_builder_set_member_name(b, "repetition");
        json_builder_add_int_value(b, r->repetition);
        add_text(b, "workload", r->workload);
        add_text(b, "target", r->target);
        add_text(b, "load", r->load);
        add_text(b, "virt", r->virt);
        add_text(b, "status", r->status);
        add_text(b, "reason", r->reason);
        add_text(b, "started", r->started);
        add_text(b, "finished", r->finished);
        json_builder_set_member_name(b, "metrics");
        json_builder_begin_object(b);
        for (guint k = 0; k < r->metrics->len; k++) {
            const RvStoreMetric *m = r->metrics->pdata[k];
            set_member(b, m->name);
            json_builder_begin_object(b);
            json_builder_set_member_name(b, "value");
            rv_result_store_json_add_number(b, m->value);
            add_text(b, "unit", m->unit);
            add_text(b, "better", rv_result_store_better_name(m->better));
            add_text(b, "aggregate", rv_result_store_aggregate_name(m->aggregate));
            json_builder_end_object(b);
        }
        json_builder_end_object(b);
        json_builder_set_member_name(b, "histograms");
        json_builder_begin_object(b);
        for (guint k = 0; k < r->histograms->len; k++) {
            const RvStoreHistogram *h = r->histograms->pdata[k];
            set_member(b, h->name);
            build_histogram(b, h->hist);
        }
        json_builder_end_object(b);
        json_builder_set_member_name(b, "details");
        build_node(b, r->details, 0);
        json_builder_set_member_name(b, "raw");
        json_builder_begin_array(b);
        for (guint k = 0; k < r->raw->len; k++)
            add_text_value(b, r->raw->pdata[k]);
        json_builder_end_array(b);
        json_builder_end_object(b);
    }
    json_builder_end_array(b);

    json_builder_set_member_name(b, "verifications");
    json_builder_begin_array(b);
    for (guint i = 0; i < s->verifications->len; i++) {
        const RvStoreVerification *v = s->verifications->pdata[i];
        json_builder_begin_object(b);
        add_text(b, "scenario", v->scenario);
        json_builder_set_member_name(b, "repetition");
        json_builder_add_int_value(b, v->repetition);
        add_text(b, "what", v->what);
        add_text(b, "status", v->status);
        add_text(b, "detail", v->detail);
        json_builder_end_object(b);
    }
    json_builder_end_array(b);
    json_builder_end_object(b);
    return json_builder_get_root(b);
}

int
rv_result_store_commit(RvStore *s, GError **error)
{
    g_autoptr(JsonNode) root = store_to_json(s);
    g_autoptr(JsonGenerator) gen = json_generator_new();
    g_autofree char *path = g_build_filename(s->dir, "run.json", NULL);
    g_autofree char *text = NULL;
    gsize len;

    json_generator_set_root(gen, root);
    json_generator_set_pretty(gen, TRUE);
    json_generator_set_indent(gen, 1);
    text = json_generator_to_data(gen, &len);
    return write_atomic(path, text, len, error);
}

/* ---- reading back ---- */

typedef struct {
    const char *file;
    GError **error;
} Reader;

#define BAD(rd, fmt, ...) \
    rv_error_set((rd)->error, RV_ERROR_INVALID, EINVAL, "%s: " fmt, (rd)->file, ##__VA_ARGS__)

static const char *
get_str(JsonObject *o, const char *key)
{
    JsonNode *n = json_object_get_member(o, key);

    if (!n || !JSON_NODE_HOLDS_VALUE(n) || json_node_get_value_type(n) != G_TYPE_STRING)
        return NULL;
    return json_node_get_string(n);
}

/* util/json.h's rule for an untrusted integer (a JSON integer, or a
 * finite integral number); the caller names the key in its own message */
static gboolean
get_int(JsonObject *o, const char *key, gint64 *ret)
{
    return rv_json_node_get_int(json_object_get_member(o, key), key, G_MININT64,
                                G_MAXINT64, ret, NULL) == 0;
}

static gboolean
get_int_element(JsonArray *a, guint i, gint64 *ret)
{
    return rv_json_node_get_int(json_array_get_element(a, i), "counts", G_MININT64,
                                G_MAXINT64, ret, NULL) == 0;
}

static JsonArray *
get_array(JsonObject *o, const char *key)
{
    JsonNode *n = json_object_get_member(o, key);

    return n && JSON_NODE_HOLDS_ARRAY(n) ? json_node_get_array(n) : NULL;
}

static JsonObject *
get_object(JsonObject *o, const char *key)
{
    JsonNode *n = json_object_get_member(o, key);

    return n && JSON_NODE_HOLDS_OBJECT(n) ? json_node_get_object(n) : NULL;
}

static int
read_histogram(Reader *rd, const char *where, JsonObject *o, RvHistogram **ret)
{
    gint64 nb, ovf, max = -1;
    JsonArray *counts;
    g_autoptr(RvHistogram) h = NULL;
    g_autoptr(GArray) pairs = NULL;

    if (!get_int(o, "buckets", &nb) || nb < 0 || nb > RV_STORE_HIST_BUCKETS_MAX ||
        !get_int(o, "overflows", &ovf) || ovf < 0 || ovf > RV_STORE_COUNT_MAX ||
        !(counts = get_array(o, "counts")))
        return BAD(rd, "%s: histogram needs buckets, overflows and counts", where);
    if (!get_int(o, "max", &max) || max < -1 || (double) max > RV_STORE_METRIC_MAX)
        max = -1;
    h = rv_result_histogram_new(nb);
    h->overflows = ovf;
    h->max_us = max;
    /* sparse: memory in proportion to the pairs the store holds, never to
     * the buckets it declares (2^24 declared cost 128 MiB dense) */
    pairs = g_array_sized_new(FALSE, FALSE, sizeof(RvHistogramBin),
                              json_array_get_length(counts));
    for (guint i = 0; i < json_array_get_length(counts); i++) {
        JsonNode *pn = json_array_get_element(counts, i);
        JsonArray *pair;
        gint64 us, c;
        RvHistogramBin bin;

        if (!JSON_NODE_HOLDS_ARRAY(pn) || json_array_get_length(pair = json_node_get_array(pn)) != 2)
            return BAD(rd, "%s: histogram counts[%u] is not [us, count]", where, i);
        if (!get_int_element(pair, 0, &us) || !get_int_element(pair, 1, &c))
            return BAD(rd, "%s: histogram counts[%u] is not [us, count] of integers", where, i);
        if (us < 0 || us >= nb || c < 0 || c > RV_STORE_COUNT_MAX)
            return BAD(rd, "%s: histogram counts[%u] = [%" G_GINT64_FORMAT ", %"
                       G_GINT64_FORMAT "] outside %" G_GINT64_FORMAT " buckets",
                       where, i, us, c, nb);
        bin.us = (guint) us;
        bin.count = (guint64) c;
        g_array_append_val(pairs, bin);
    }
    /* repeated buckets add (saturating); a sum over 2^53 - 1 is refused by
     * the rule check below */
    rv_result_histogram_add_bins(h, (const RvHistogramBin *) (gpointer) pairs->data, pairs->len);
    {
        g_autoptr(GError) e = NULL;
        if (rv_result_store_check_histogram(h, &e) < 0)
            return BAD(rd, "%s: %s", where, e->message);
    }
    /* total (written by the store: every sample, overflows included) must
     * agree with the counts, or the percentiles would lie */
    if (json_object_has_member(o, "total")) {
        gint64 total;
        if (!get_int(o, "total", &total) || total < 0)
            return BAD(rd, "%s.total: not a count", where);
        if ((guint64) total != rv_result_histogram_total(h))
            return BAD(rd, "%s.total: %" G_GINT64_FORMAT " does not match the counts (%"
                       G_GUINT64_FORMAT " samples, %" G_GINT64_FORMAT " of them overflows)",
                       where, total, rv_result_histogram_total(h), ovf);
    }
    *ret = g_steal_pointer(&h);
    return 0;
}

static int
read_record(Reader *rd, guint idx, JsonObject *o, RvStoreRecord **ret)
{
    g_autoptr(RvStoreRecord) rec = NULL;
    g_autofree char *where = g_strdup_printf("records[%u]", idx);
    const char *scenario = get_str(o, "scenario");
    const char *workload = get_str(o, "workload");
    const char *status = get_str(o, "status");
    JsonObject *metrics, *hists;
    JsonArray *raw;
    JsonNode *details;
    gint64 rep;

    if (!scenario || !workload || !status || !get_int(o, "repetition", &rep) ||
        rep < 0 || rep > G_MAXINT)
        return BAD(rd, "%s: needs scenario, repetition, workload and status", where);
    rec = rv_result_store_record_new(scenario, (int) rep, workload, get_str(o, "target"));
    rv_result_store_record_set_status(rec, status, get_str(o, "reason"));
    rec->virt = g_strdup(get_str(o, "virt"));
    if (json_object_has_member(o, "load") && !JSON_NODE_HOLDS_NULL(json_object_get_member(o, "load"))) {
        if (!get_str(o, "load"))
            return BAD(rd, "%s.load: not a string or null", where);
        rec->load = g_strdup(get_str(o, "load"));
    }
    rec->started = g_strdup(get_str(o, "started"));
    rec->finished = g_strdup(get_str(o, "finished"));

    metrics = get_object(o, "metrics");
    if (metrics) {
        g_autoptr(GList) names = json_object_get_members(metrics);
        for (GList *l = names; l; l = l->next) {
            const char *name = l->data;
            JsonObject *m = get_object(metrics, name);
            JsonNode *v = m ? json_object_get_member(m, "value") : NULL;
            const char *unit = m ? get_str(m, "unit") : NULL;
            RvStoreBetter better = RV_STORE_BETTER_LOWER;
            RvStoreAggregate aggregate = RV_STORE_AGGREGATE_MEAN;
            double value;
            if (!m || !v || (!JSON_NODE_HOLDS_VALUE(v) && !JSON_NODE_HOLDS_NULL(v)))
                return BAD(rd, "%s.metrics.%s: needs a value", where, name);
            if (JSON_NODE_HOLDS_NULL(v)) {
                value = NAN;   /* the writer's form of "no value" */
            } else if (json_node_get_value_type(v) == G_TYPE_INT64) {
                value = (double) json_node_get_int(v);
            } else if (json_node_get_value_type(v) == G_TYPE_DOUBLE) {
                value = json_node_get_double(v);
            } else {
                g_autofree char *txt = json_node_get_value_type(v) == G_TYPE_STRING
                    ? g_strdup_printf("\"%s\"", json_node_get_string(v)) : g_strdup("a boolean");
                return BAD(rd, "%s.metrics.%s.value: %s is not a number", where, name, txt);
            }
            if (JSON_NODE_HOLDS_VALUE(v)) {
                g_autoptr(GError) e = NULL;
                /* the writer's rule: a NaN here would read as "no value" */
                if (isnan(value) || rv_result_store_check_metric(name, value, unit, &e) < 0)
                    return BAD(rd, "%s.metrics.%s.value: %s (a corrupt store)", where, name,
                               e ? e->message : "not a number");
            }
            /* absent: the meaning of every metric before they existed */
            if (json_object_has_member(m, "better") &&
                rv_result_store_better_parse(get_str(m, "better"), &better) < 0)
                return BAD(rd, "%s.metrics.%s.better: expected \"lower\" or \"higher\"",
                           where, name);
            if (json_object_has_member(m, "aggregate") &&
                rv_result_store_aggregate_parse(get_str(m, "aggregate"), &aggregate) < 0)
                return BAD(rd, "%s.metrics.%s.aggregate: expected \"mean\", \"hmean\", "
                           "\"max\" or \"sum\"", where, name);
            rv_result_store_record_add_metric_full(rec, name, value, unit, better, aggregate);
        }
    }
    if ((hists = get_object(o, "histograms"))) {
        g_autoptr(GList) names = json_object_get_members(hists);
        for (GList *l = names; l; l = l->next) {
            JsonObject *ho = get_object(hists, l->data);
            g_autofree char *hw = g_strdup_printf("%s.histograms.%s", where, (char *) l->data);
            RvStoreHistogram *sh;
            RvHistogram *h = NULL;
            int r;
            if (!ho)
                return BAD(rd, "%s: not an object", hw);
            r = read_histogram(rd, hw, ho, &h);
            if (r < 0)
                return r;
            sh = g_new0(RvStoreHistogram, 1);
            sh->name = g_strdup(l->data);
            sh->hist = h;
            g_ptr_array_add(rec->histograms, sh);
        }
    }
    /* the writer always writes "metrics" (empty for a failed repetition) */
    if (!metrics)
        return BAD(rd, "%s.metrics: missing or not an object", where);
    if ((raw = get_array(o, "raw")))
        for (guint i = 0; i < json_array_get_length(raw); i++) {
            JsonNode *n = json_array_get_element(raw, i);
            if (JSON_NODE_HOLDS_VALUE(n) && json_node_get_value_type(n) == G_TYPE_STRING)
                g_ptr_array_add(rec->raw, g_strdup(json_node_get_string(n)));
        }
    details = json_object_get_member(o, "details");
    if (details && JSON_NODE_HOLDS_OBJECT(details))
        rec->details = json_node_copy(details);
    {
        /* the writer's validator, whole: what it lets through reads back */
        g_autoptr(GError) e = NULL;
        if (rv_result_store_record_check(rec, &e) < 0)
            return BAD(rd, "%s.%s (a corrupt store)", where, e->message);
    }
    *ret = g_steal_pointer(&rec);
    return 0;
}

int
rv_result_store_open(const char *dir, RvStore **ret_store, GError **error)
{
    g_autofree char *path = NULL, *sdir = NULL, *text = NULL;
    gsize len = 0;
    int r;
    g_autoptr(JsonParser) parser = json_parser_new_immutable();
    g_autoptr(GError) err = NULL;
    g_autoptr(RvStore) s = NULL;
    JsonNode *rootn;
    JsonObject *root, *o;
    JsonArray *arr;
    gint64 ver;
    Reader rd;

    if (g_str_has_suffix(dir, ".json")) {
        path = g_strdup(dir);
        sdir = g_path_get_dirname(dir);
    } else {
        path = g_build_filename(dir, "run.json", NULL);
        sdir = g_strdup(dir);
    }
    rd.file = path;
    rd.error = error;
    {
        /* util/file.h: one reader, one errno policy, bounded (the store
         * may come from anywhere) */
        gssize n = rv_file_read(path, RV_STORE_READ_MAX, &text, error);

        if (n < 0)
            return (int) n;
        len = (gsize) n;
    }
    /* depth, integer literals past 64 bits (json-glib wraps them), then
     * json-glib: util/json.h's rule for untrusted text */
    r = rv_json_parse_untrusted(parser, path, text, len, RV_JSON_MAX_DEPTH, &rootn, &err);
    if (r == -EINVAL) {
        const char *m = err->message;
        if (g_str_has_prefix(m, path))
            m += strlen(path);
        if (*m == ':')
            m++;
        while (*m == ' ')
            m++;
        return BAD(&rd, "invalid JSON: %s", m);
    }
    if (r < 0) {
        g_propagate_error(error, g_steal_pointer(&err));
        return r;
    }
    if (!rootn || !JSON_NODE_HOLDS_OBJECT(rootn))
        return BAD(&rd, "not a JSON object");
    root = json_node_get_object(rootn);
    if (!get_int(root, "schema_version", &ver))
        return BAD(&rd, "no schema_version: not an rtvirt run store");
    if (ver != RV_STORE_SCHEMA_VERSION)
        return BAD(&rd, "schema_version %" G_GINT64_FORMAT " is not supported "
                   "(this rtvirt reads %d)", ver, RV_STORE_SCHEMA_VERSION);

    s = store_new(sdir);
    s->matrix = g_strdup(get_str(root, "matrix"));
    s->created = g_strdup(get_str(root, "created"));
    o = NULL;
    {
        JsonNode *n = json_object_get_member(root, "trusted");
        s->trusted = n && JSON_NODE_HOLDS_VALUE(n) &&
                     json_node_get_value_type(n) == G_TYPE_BOOLEAN &&
                     json_node_get_boolean(n);
        n = json_object_get_member(root, "complete");
        s->complete = n && JSON_NODE_HOLDS_VALUE(n) &&
                      json_node_get_value_type(n) == G_TYPE_BOOLEAN &&
                      json_node_get_boolean(n);
        n = json_object_get_member(root, "host");
        if (n && JSON_NODE_HOLDS_OBJECT(n))
            s->host = json_node_copy(n);
        /* optional: stores before the context have none */
        r = rv_result_context_read(json_object_get_member(root, "context"), path,
                                   &s->context, error);
        if (r < 0)
            return r;
    }
    if ((arr = get_array(root, "untrusted_reasons")))
        for (guint i = 0; i < json_array_get_length(arr); i++) {
            JsonNode *n = json_array_get_element(arr, i);
            if (JSON_NODE_HOLDS_VALUE(n) && json_node_get_value_type(n) == G_TYPE_STRING)
                g_ptr_array_add(s->untrusted_reasons, g_strdup(json_node_get_string(n)));
        }
    if ((arr = get_array(root, "profiles")))
        for (guint i = 0; i < json_array_get_length(arr); i++) {
            JsonNode *n = json_array_get_element(arr, i);
            if (JSON_NODE_HOLDS_OBJECT(n))
                g_ptr_array_add(s->profiles, json_node_copy(n));
        }
    if ((arr = get_array(root, "scenarios")))
        for (guint i = 0; i < json_array_get_length(arr); i++) {
            JsonNode *n = json_array_get_element(arr, i);
            const char *name;
            if (!JSON_NODE_HOLDS_OBJECT(n) || !(name = get_str(o = json_node_get_object(n), "name")))
                return BAD(&rd, "scenarios[%u]: needs a name", i);
            rv_result_store_add_scenario(s, name, get_str(o, "description"));
            if (get_str(o, "status"))
                rv_result_store_set_scenario_status(s, name, get_str(o, "status"),
                                                    get_str(o, "reason"));
        }
    if (!(arr = get_array(root, "records")))
        return BAD(&rd, "no records array");
    for (guint i = 0; i < json_array_get_length(arr); i++) {
        JsonNode *n = json_array_get_element(arr, i);
        RvStoreRecord *rec = NULL;
        gboolean declared = FALSE;
        if (!JSON_NODE_HOLDS_OBJECT(n))
            return BAD(&rd, "records[%u]: not an object", i);
        r = read_record(&rd, i, json_node_get_object(n), &rec);
        if (r < 0)
            return r;
        g_ptr_array_add(s->records, rec);
        /* rtvirt run declares every scenario before its records */
        for (guint k = 0; k < s->scenarios->len && !declared; k++)
            declared = g_str_equal(((RvStoreScenario *) s->scenarios->pdata[k])->name,
                                   rec->scenario);
        if (!declared)
            return BAD(&rd, "records[%u].scenario: '%s' is not in \"scenarios\"", i,
                       rec->scenario);
        /* TCG measures emulation, not an RT guest on KVM: never trusted,
         * whatever "trusted" says; said once: where the run wrote a reason
         * that names virt=tcg, it is that (counted as the run counted it,
         * results/untrusted.h) */
        if (g_strcmp0(rec->virt, "tcg") == 0 && !reasons_name(s, "virt=tcg"))
            rv_result_store_set_untrusted(s, "virt=tcg");
    }
    if ((arr = get_array(root, "verifications")))
        for (guint i = 0; i < json_array_get_length(arr); i++) {
            JsonNode *n = json_array_get_element(arr, i);
            gint64 rep = 0;
            if (!JSON_NODE_HOLDS_OBJECT(n))
                continue;
            o = json_node_get_object(n);
            (void) get_int(o, "repetition", &rep);
            rv_result_store_add_verification(s, get_str(o, "scenario"), (int) rep,
                                             get_str(o, "what"), get_str(o, "status"),
                                             get_str(o, "detail"));
        }
    *ret_store = g_steal_pointer(&s);
    return 0;
}
