/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * results/store.h: the run store of `rtvirt run`, read back by `rtvirt
 * compare`.
 *
 * Layout of one store (one matrix run):
 *   <parent>/<YYYYmmdd-HHMMSS>-<matrix>/
 *       run.json        everything below, schema_version RV_STORE_SCHEMA_VERSION
 *       profiles/       verbatim copies of the profiles used (sha256 in run.json)
 *       raw/            raw workload outputs (cyclictest text/JSON, ...) as files
 * run.json is rewritten atomically (temp file + fsync + rename + fsync of
 * the directory) by rv_result_store_commit(); call it after every
 * repetition, so a crash loses at most the repetition in flight.
 *
 * run.json (schema_version 1), keys in this order:
 *   schema_version, tool {name, version}, matrix, created (ISO 8601 UTC),
 *   updated, complete (bool), trusted (bool), untrusted_reasons [str],
 *   host (the host facts, as `rtvirt host show --json` gives them),
 *   context (optional: kernel, CPU, SMT, DMI, tool versions;
 *            results/context.h), null when unknown,
 *   profiles [{role, path (as given), copy (relative), sha256}],
 *   scenarios [{name, description, status "planned|ran|skipped",
 *               reason}],
 *   records [{scenario, repetition (1-based), workload ("cyclictest"...),
 *             target ("guest:NAME" | "host"), load (the [load:NAME] name,
 *             or null for the built-in level; optional when read),
 *             virt ("kvm"|"tcg"|null),
 *             status ("ok"|"failed"|"skipped"), reason, started, finished,
 *             metrics {NAME: {value, unit, better ("lower"|"higher"),
 *                             aggregate ("mean"|"hmean"|"max"|"sum")}},
 *             histograms {NAME: {unit "us", buckets N, overflows,
 *                         max, total, counts [[us, count], ...] (non-zero
 *                         buckets only)}},
 *             details (free JSON: e.g. cyclictest threads), raw [relpath]}],
 *   verifications [{scenario, repetition, what, status
 *                   "PASS|NOTE|WARN|FAIL|SKIP", detail}]
 * Readers reject a schema_version they do not know.
 *
 * The value rules (one validator, rv_result_store_record_check(), run by
 * the writer in rv_result_store_add_record() and by the reader in
 * rv_result_store_open(), so that whatever is written reads back):
 *  - every number is finite; JSON has no NaN or infinity, "no value" is
 *    null;
 *  - a metric value lies within +-RV_STORE_METRIC_MAX (1e12: 11.6 days in
 *    us), and is >= 0 for a latency (unit "us" or "ns", or a name ending
 *    in _us or _ns);
 *  - a count (histogram buckets[i], overflows, total) is an integer in
 *    0..RV_STORE_COUNT_MAX (2^53 - 1: exact in an IEEE 754 double, so any
 *    JSON reader gets it back exactly, RFC 8259 section 6), and so is the
 *    sum of a histogram's counts (added with overflow checks);
 *    a histogram has at most RV_STORE_HIST_BUCKETS_MAX buckets and its
 *    "max" is -1 (null: unknown) or a latency within 0..RV_STORE_METRIC_MAX;
 *  - a metric's "better" is "lower" or "higher" and its "aggregate" one
 *    of "mean", "hmean", "max", "sum" (both optional when read: absent
 *    means "lower" / "mean", the meaning of every metric of stores
 *    written before they existed); a metric aggregated by the harmonic
 *    mean (a rate: GFLOPS, events/s) is >= 0, and RV_STORE_METRIC_CPU_PCT
 *    lies within 0..100;
 *  - repetition is 0..G_MAXINT;
 *  - an integral number within +-RV_STORE_COUNT_MAX is written as a JSON
 *    integer (json_builder_add_int_value): json-glib writes a double 1e17
 *    as "1e+17.0", which no JSON reader accepts; other numbers (|x| < 2^53,
 *    with a fraction) as a JSON number; the writer never writes a number
 *    that breaks these rules (the record is refused first, see
 *    rv_result_store_add_record(); in "details" a number beyond them is
 *    written as null);
 *  - text (every string and every object key, host facts and details
 *    included) is written as valid UTF-8: each byte that is not part of a
 *    valid UTF-8 sequence becomes the four characters \xNN (NN its value
 *    in upper-case hex), rv_result_store_text_escape(); json-glib refuses
 *    a file with invalid UTF-8 as a whole.
 * A value that breaks these rules comes from a broken or hostile workload
 * (a guest's cyclictest printing Max 1e17): the workload's record adder
 * (rv_result_cyclictest_record_add(), rv_result_pert_record_add()) refuses
 * it with the reason, so that the caller fails that repetition, and the
 * store stays readable.
 */
#pragma once

#include <glib.h>
#include <json-glib/json-glib.h>

#include "results/context.h"
#include "results/histogram.h"

#define RV_STORE_SCHEMA_VERSION 1

/* The largest metric magnitude a reader accepts (1e12 us is 11.6 days): a
 * bigger value is a corrupt store, not a measurement. */
#define RV_STORE_METRIC_MAX 1e12

/* The largest count (histogram bucket, overflows, total) the store holds:
 * 2^53 - 1, the largest integer a double (and so every JSON reader) holds
 * exactly. */
#define RV_STORE_COUNT_MAX G_GINT64_CONSTANT(9007199254740991)

/* The most buckets one histogram may have (1-us buckets: 16.7 s). */
#define RV_STORE_HIST_BUCKETS_MAX (1u << 24)

/* Which direction of a metric is an improvement: compare's change sign. */
typedef enum {
    RV_STORE_BETTER_LOWER,     /* latencies, times: the default */
    RV_STORE_BETTER_HIGHER,    /* rates: GFLOPS, events/s, NOPM */
} RvStoreBetter;

/* How repetitions of one cell combine into one figure (compare): the
 * harmonic mean for rates, as mmtests does (the mean of rates over equal
 * work is their harmonic mean), the arithmetic mean for times, the
 * maximum for worst cases, the sum for counts. */
typedef enum {
    RV_STORE_AGGREGATE_MEAN,   /* the default */
    RV_STORE_AGGREGATE_HMEAN,
    RV_STORE_AGGREGATE_MAX,
    RV_STORE_AGGREGATE_SUM,
} RvStoreAggregate;

/* Host CPU utilisation of one repetition's measured window, in percent of
 * all online CPUs, from /proc/stat (idle + iowait counted as idle;
 * proc(5)): unit "%", better "lower", aggregate "mean". */
#define RV_STORE_METRIC_CPU_PCT "cpu_pct"

typedef struct {
    char *name;            /* "max_us", "avg_us", "gflops", ... */
    double value;
    char *unit;            /* "us", "ns", "GFLOPS", ... or NULL */
    RvStoreBetter better;
    RvStoreAggregate aggregate;
} RvStoreMetric;

typedef struct {
    char *name;            /* "latency" (all threads merged), "latency.t0", ... */
    RvHistogram *hist;     /* 1-us buckets */
} RvStoreHistogram;

typedef struct {
    char *scenario;
    int repetition;        /* 1-based */
    char *workload;        /* "cyclictest", "pert", "oslat", "linpack", ... */
    char *target;          /* "guest:NAME" or "host" */
    char *load;            /* [load:NAME] name, or NULL (the built-in level) */
    char *virt;            /* "kvm", "tcg", or NULL (host workloads) */
    char *status;          /* "ok", "failed", "skipped" */
    char *reason;          /* why failed/skipped, or NULL */
    char *started;         /* ISO 8601 UTC or NULL */
    char *finished;
    GPtrArray *metrics;    /* RvStoreMetric* */
    GPtrArray *histograms; /* RvStoreHistogram* */
    GPtrArray *raw;        /* char*: paths relative to the store directory */
    JsonNode *details;     /* free-form JSON object, or NULL */
} RvStoreRecord;

typedef struct {
    char *scenario;
    int repetition;        /* 0 when it concerns the whole scenario */
    char *what;            /* "vcpu0 affinity", "core cookies", ... */
    char *status;          /* "PASS", "NOTE", "WARN", "FAIL", "SKIP" */
    char *detail;
} RvStoreVerification;

typedef struct {
    char *name;
    char *description;     /* or NULL */
    char *status;          /* "planned", "ran", "skipped" */
    char *reason;          /* skip reason, or NULL */
} RvStoreScenario;

typedef struct RvStore RvStore;

/**
 * rv_result_store_create:
 * @parent: directory that holds the stores ("results"); created if missing
 * @matrix: matrix name ([A-Za-z0-9._-]+), e.g. "demo"
 * @when: (nullable): the start time for the directory name; NULL = now
 * @ret_store: (out) (transfer full): the new store, written only on success
 *
 * Creates <parent>/<YYYYmmdd-HHMMSS>-<matrix>/ (a "-2", "-3"... suffix when
 * it exists) with profiles/ and raw/, and writes a first run.json.
 *
 * Returns: 0, or -errno with RV_ERROR_FAILED (I/O) / RV_ERROR_INVALID (name).
 */
int rv_result_store_create(const char *parent, const char *matrix,
                           GDateTime *when, RvStore **ret_store,
                           GError **error) G_GNUC_WARN_UNUSED_RESULT;

/**
 * rv_result_store_open:
 * @dir: a store directory (or its run.json)
 * @ret_store: (out) (transfer full): the store as written, read-only use
 *
 * run.json is untrusted input: nesting deeper than RV_JSON_MAX_DEPTH is
 * refused before parsing (util/json.h).  Every record needs a "metrics"
 * object; a metric value is a number (or null: no value) within
 * +-RV_STORE_METRIC_MAX, never negative for a latency (unit or name us/ns);
 * a histogram's "total" matches its counts plus overflows; a record's
 * scenario is declared in "scenarios".  A record with virt "tcg" makes the
 * store untrusted (reason "virt=tcg") whatever "trusted" says.
 *
 * Returns: 0, or -errno: RV_ERROR_FAILED when run.json cannot be read,
 * RV_ERROR_INVALID naming the file and the key (records[N].metrics.NAME
 * .value, ...) for malformed content or an unknown schema_version.
 */
int rv_result_store_open(const char *dir, RvStore **ret_store, GError **error)
    G_GNUC_WARN_UNUSED_RESULT;

void rv_result_store_free(RvStore *store);
G_DEFINE_AUTOPTR_CLEANUP_FUNC(RvStore, rv_result_store_free)

/** Accessors.  Arrays are owned by the store; do not modify them. */
const char *rv_result_store_get_dir(const RvStore *store);
const char *rv_result_store_get_matrix(const RvStore *store);
gboolean rv_result_store_get_trusted(const RvStore *store);
gboolean rv_result_store_get_complete(const RvStore *store);
GPtrArray *rv_result_store_get_untrusted_reasons(const RvStore *store); /* char* */
JsonNode *rv_result_store_get_host(const RvStore *store);         /* or NULL */
GPtrArray *rv_result_store_get_scenarios(const RvStore *store);   /* RvStoreScenario* */
GPtrArray *rv_result_store_get_records(const RvStore *store);     /* RvStoreRecord* */
GPtrArray *rv_result_store_get_verifications(const RvStore *store); /* RvStoreVerification* */
/* The profiles as recorded: JsonNode* objects {role, path, copy, sha256}. */
GPtrArray *rv_result_store_get_profiles(const RvStore *store);

/**
 * rv_result_store_forget_repetition:
 * Removes every record and verification of repetition @repetition (>= 1)
 * of cell @scenario: what a repetition that did not end left behind, before
 * `rtvirt run --resume` measures it again.
 *
 * Returns: the number of entries removed.
 */
guint rv_result_store_forget_repetition(RvStore *store, const char *scenario, int repetition);

/* Removes @reason from the untrusted reasons; the store is trusted again
 * when it was the last one (a resumed run that completes is no longer
 * "interrupted"). */
void rv_result_store_remove_untrusted(RvStore *store, const char *reason);

/** rv_result_store_set_host: @facts (transfer none): copied; a JSON object. */
void rv_result_store_set_host(RvStore *store, JsonNode *facts);

/**
 * rv_result_store_get_context:
 * Returns: (transfer none) (nullable): the host context (results/context.h),
 * NULL for a store written before rtvirt recorded one.
 */
const RvStoreContext *rv_result_store_get_context(const RvStore *store);

/** rv_result_store_set_context: @ctx (transfer none) (nullable): copied. */
void rv_result_store_set_context(RvStore *store, const RvStoreContext *ctx);

/**
 * rv_result_store_add_profile:
 * @role: "matrix", "host", "guest:NAME", ...
 * @path: the profile file; copied byte for byte into profiles/ and hashed
 *        (SHA-256).  Files it included should be added too.
 *
 * Returns: 0 or -errno (RV_ERROR_FAILED naming the file).
 */
int rv_result_store_add_profile(RvStore *store, const char *role,
                                const char *path, GError **error)
    G_GNUC_WARN_UNUSED_RESULT;

/** rv_result_store_add_scenario: declare a scenario (plan order); the first
 *  one is compare's default baseline.  Status "planned". */
void rv_result_store_add_scenario(RvStore *store, const char *name,
                                  const char *description);

/** rv_result_store_set_scenario_status: @status "ran" or "skipped"; @reason
 *  the exact reason for a skip ("SMT not available: smt/control is
 *  notsupported").  Declares the scenario when unknown. */
void rv_result_store_set_scenario_status(RvStore *store, const char *scenario,
                                         const char *status, const char *reason);

/** rv_result_store_set_untrusted: mark the whole store untrusted (sticky),
 *  e.g. "host not as profile requires: isolcpus missing". */
void rv_result_store_set_untrusted(RvStore *store, const char *reason);

/** rv_result_store_set_complete: the matrix ran to its end. */
void rv_result_store_set_complete(RvStore *store, gboolean complete);

void rv_result_store_add_verification(RvStore *store, const char *scenario,
                                      int repetition, const char *what,
                                      const char *status, const char *detail);

/**
 * rv_result_store_write_raw:
 * @name: file name under raw/ ([A-Za-z0-9._-]+), e.g.
 *        "baseline-r01-rt0-cyclictest.txt"
 * @data, @len: contents, written atomically
 * @ret_relpath: (out) (optional) (transfer full): "raw/NAME"
 *
 * Returns: 0 or -errno.
 */
int rv_result_store_write_raw(RvStore *store, const char *name,
                              const char *data, gsize len, char **ret_relpath,
                              GError **error) G_GNUC_WARN_UNUSED_RESULT;

/* ---- records ---- */

/** rv_result_store_record_new: status "ok", everything else empty. */
RvStoreRecord *rv_result_store_record_new(const char *scenario, int repetition,
                                          const char *workload,
                                          const char *target);
void rv_result_store_record_free(RvStoreRecord *rec);
G_DEFINE_AUTOPTR_CLEANUP_FUNC(RvStoreRecord, rv_result_store_record_free)

void rv_result_store_record_set_status(RvStoreRecord *rec, const char *status,
                                       const char *reason);
void rv_result_store_record_set_virt(RvStoreRecord *rec, const char *virt);
/** @started, @finished: (nullable) */
void rv_result_store_record_set_times(RvStoreRecord *rec, GDateTime *started,
                                      GDateTime *finished);
/** rv_result_store_record_add_metric: a metric with better "lower" and
 *  aggregate "mean" (latencies); replaces one of the same name. */
void rv_result_store_record_add_metric(RvStoreRecord *rec, const char *name,
                                       double value, const char *unit);

/**
 * rv_result_store_record_add_metric_full:
 * @rec: the record
 * @name: metric name ("gflops", "events_per_s", "cpu_pct", ...)
 * @value: its value (NAN: no value)
 * @unit: (nullable): its unit ("GFLOPS", "events/s", "%")
 * @better: which direction is an improvement
 * @aggregate: how repetitions combine
 *
 * As rv_result_store_record_add_metric() with the two metric attributes;
 * the value rules are checked when the record is added to the store.
 */
void rv_result_store_record_add_metric_full(RvStoreRecord *rec, const char *name,
                                            double value, const char *unit,
                                            RvStoreBetter better,
                                            RvStoreAggregate aggregate);

/** rv_result_store_record_set_load: @load (nullable): the [load:NAME] name
 *  the repetition ran at; NULL for the built-in level. */
void rv_result_store_record_set_load(RvStoreRecord *rec, const char *load);

/**
 * rv_result_store_better_name / rv_result_store_aggregate_name:
 * Returns: the run.json spelling ("lower", "hmean", ...), static.
 */
const char *rv_result_store_better_name(RvStoreBetter better);
const char *rv_result_store_aggregate_name(RvStoreAggregate aggregate);

/**
 * rv_result_store_better_parse / rv_result_store_aggregate_parse:
 * @text: "lower" | "higher", or "mean" | "hmean" | "max" | "sum"
 * @ret: (out): the value, written only on success
 *
 * Returns: 0, or -EINVAL for any other text (NULL included).
 */
int rv_result_store_better_parse(const char *text, RvStoreBetter *ret)
    G_GNUC_WARN_UNUSED_RESULT;
int rv_result_store_aggregate_parse(const char *text, RvStoreAggregate *ret)
    G_GNUC_WARN_UNUSED_RESULT;
/** @hist (transfer none): copied. */
void rv_result_store_record_add_histogram(RvStoreRecord *rec, const char *name,
                                          const RvHistogram *hist);
void rv_result_store_record_add_raw(RvStoreRecord *rec, const char *relpath);
/** @details (transfer none): copied; a JSON object. */
void rv_result_store_record_set_details(RvStoreRecord *rec, JsonNode *details);

/** Lookups; NULL when absent. */
const RvStoreMetric *rv_result_store_record_get_metric(const RvStoreRecord *rec,
                                                       const char *name);
const RvHistogram *rv_result_store_record_get_histogram(const RvStoreRecord *rec,
                                                        const char *name);

/**
 * rv_result_store_add_record:
 * @rec: (transfer full): the record
 *
 * Replaces an earlier record with the same scenario, repetition, workload,
 * target and load.  Declares the scenario (status "planned") when unknown:
 * readers refuse a record whose scenario is not in "scenarios".
 *
 * The record is checked with rv_result_store_record_check() first: one that
 * breaks the value rules (see the top of this file) is kept as status
 * "failed" with the validator's reason ("refused by the store: ...",
 * after the record's own reason when it had one) and without its metrics,
 * histograms and details (its raw files stay), so that run.json always
 * reads back.  Callers that want to fail the repetition themselves check
 * first (the record adders of results/ do).
 */
void rv_result_store_add_record(RvStore *store, RvStoreRecord *rec);

/**
 * rv_result_store_check_metric:
 * @name: metric name ("max_us", "tpmC", ...)
 * @value: its value; NAN means "no value" and passes
 * @unit: (nullable): its unit
 * @error: RV_ERROR_INVALID "VALUE is outside +-1e+12" or "VALUE: a latency
 *         cannot be negative" (no prefix: the caller names where)
 *
 * The metric rule of the value rules (top of this file), for a metric
 * with better "lower" and aggregate "mean".
 *
 * Returns: 0, or -ERANGE.
 */
int rv_result_store_check_metric(const char *name, double value, const char *unit,
                                 GError **error) G_GNUC_WARN_UNUSED_RESULT;

/**
 * rv_result_store_check_metric_full:
 * @m: a metric
 * @error: RV_ERROR_INVALID as rv_result_store_check_metric(), or "VALUE:
 *         a rate (aggregate hmean) cannot be negative", "VALUE: cpu_pct is
 *         outside 0..100", "better N is not lower or higher" (no prefix)
 *
 * The whole metric rule: value, unit, better and aggregate.
 *
 * Returns: 0, or -ERANGE / -EINVAL (an attribute out of its enum).
 */
int rv_result_store_check_metric_full(const RvStoreMetric *m, GError **error)
    G_GNUC_WARN_UNUSED_RESULT;

/**
 * rv_result_store_check_histogram:
 * @hist: a histogram
 * @error: RV_ERROR_INVALID naming the bucket, the overflows, the total or
 *         the max that breaks the rules (no prefix)
 *
 * The histogram rules: at most RV_STORE_HIST_BUCKETS_MAX buckets, every
 * count and the total (summed with overflow checks) within
 * 0..RV_STORE_COUNT_MAX, max -1 or within 0..RV_STORE_METRIC_MAX.
 *
 * Returns: 0, or -ERANGE.
 */
int rv_result_store_check_histogram(const RvHistogram *hist, GError **error)
    G_GNUC_WARN_UNUSED_RESULT;

/**
 * rv_result_store_record_check:
 * @rec: a record
 * @error: RV_ERROR_INVALID "metrics.NAME.value: ..." / "histograms.NAME:
 *         ..." / "repetition N ..."
 *
 * The value rules for one record: its repetition, every metric
 * (rv_result_store_check_metric()) and every histogram
 * (rv_result_store_check_histogram()).  The writer and the reader both
 * run it.
 *
 * Returns: 0, or -ERANGE.
 */
int rv_result_store_record_check(const RvStoreRecord *rec, GError **error)
    G_GNUC_WARN_UNUSED_RESULT;

/**
 * rv_result_store_text_escape:
 * @text: (nullable): any bytes, NUL-terminated
 *
 * Returns: (transfer full) (nullable): @text with every byte that is not
 * part of a valid UTF-8 sequence replaced by the four characters \xNN (NN
 * upper-case hex); valid text is returned unchanged (a copy).  NULL for
 * NULL.
 */
char *rv_result_store_text_escape(const char *text);

/**
 * rv_result_store_json_add_number:
 * @b: a JsonBuilder where a value is expected
 * @value: the number
 *
 * Adds @value by the store's number rule: an integral value (within
 * -2^63..2^63, exact in a gint64) as a JSON integer; another finite value
 * as a JSON number in json-glib's "%.17g" form, moved by one ulp towards
 * zero where that form has no '.' (json-glib would append ".0" to "3e-05":
 * invalid JSON); NaN, infinity and larger integral magnitudes (which
 * json-glib writes as "1e+17.0") as null.
 */
void rv_result_store_json_add_number(JsonBuilder *b, double value);

/**
 * rv_result_store_json_add_double:
 * @b: a JsonBuilder where a value is expected
 * @value: the number
 *
 * As rv_result_store_json_add_number(), but keeps json-glib's double form
 * ("906.0") for an integral value below 1e15 (fixed notation: valid
 * JSON), for documents whose numbers were always written so
 * (`rtvirt compare --json`).
 */
void rv_result_store_json_add_double(JsonBuilder *b, double value);

/**
 * rv_result_store_commit:
 * Writes run.json atomically (run.json.tmp, fsync, rename, fsync dir).
 *
 * Returns: 0 or -errno (RV_ERROR_FAILED naming the file).
 */
int rv_result_store_commit(RvStore *store, GError **error)
    G_GNUC_WARN_UNUSED_RESULT;
