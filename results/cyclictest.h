/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * results/cyclictest.h: parse what cyclictest (rt-tests 1.x / 2.x) writes.
 *
 * Forms understood (rt-tests src/cyclictest/cyclictest.c print_stat(),
 * print_hist(), write_stats(); src/lib/rt-utils.c rt_write_json()):
 *  - status lines "T: 0 ( 2404) P:95 I:200 C:2999375 Min: 5 Act: 22 Avg: 16
 *    Max: 1475" [" SMI: n"], live (repeated, with "\033[NA" cursor moves and
 *    "policy: fifo: loadavg: ..." lines) or once at the end (-q);
 *  - histograms (-h N / -H N): "# Histogram", one row per us with one
 *    column per thread (plus an all-threads column with -H), "# Total:",
 *    "# Min/Avg/Max Latencies:", "# Histogram Overflows:", "# Histogram
 *    Overflow at cycle number:", "# Thread N: c1 c2 ... # NNNNN others";
 *    rows elided by hand ("...", "More histogram entries ...") are skipped
 *    and the histogram is then complete only if its rows add up to Total;
 *  - --json files (file_version 1): keys "cmdline:" / "rt_test_version:"
 *    with their trailing colon, avg "nan"/"-nan" for 0 cycles, cmdline not
 *    JSON-escaped; histogram lists only non-zero buckets and no overflow
 *    count (taken as cycles - sum of buckets).
 *  - several runs in one file (two invocations pasted one after the other)
 *    come back as several #RvCyclictestRun, in file order.
 *  - log prefixes "| " (LAVA) are stripped; wrapper lines ("t0-max-latency
 *    pass 217 us") are not cyclictest lines and are ignored.
 *  - the text outputs of oslat, hwlatdetect, rtla and stress-ng's cyclic
 *    stressor, through their readers (results/latency-readers.h).
 * Units: cyclictest's default us.  Output of -N/--nsecs is rejected when the
 * command line shows it (values would be ns).
 */
#pragma once

#include <glib.h>

#include "results/histogram.h"
#include "results/store.h"

typedef enum {
    RV_CYCLICTEST_FORM_STATUS,     /* status lines only (live or -q) */
    RV_CYCLICTEST_FORM_HISTOGRAM,  /* histogram block, with or without T: lines */
    RV_CYCLICTEST_FORM_JSON,       /* --json file */
} RvCyclictestForm;

typedef struct {
    int index;             /* "T: N" / JSON thread key / histogram column */
    int tid;               /* "( 2404)", -1 unknown (histogram-only, JSON) */
    int priority;          /* "P:95": the priority that ran, -1 unknown */
    int interval_us;       /* "I:200", -1 unknown */
    gint64 cycles;         /* "C:", last status line or JSON; -1 unknown */
    gint64 min_us;         /* -1 unknown */
    gint64 act_us;         /* last "Act:", -1 unknown */
    double avg_us;         /* NAN unknown (JSON: %.2f; text: integer) */
    gint64 max_us;         /* -1 unknown; "# Max Latencies" beats "Max:" */
    int cpu;               /* CPU the thread ran on (JSON "cpu"), -1 unknown */
    int node;              /* NUMA node (JSON "node"), -1 unknown */
    gint64 smi_count;      /* " SMI:" (--smi), -1 unknown */
    RvHistogram *histogram;   /* NULL when the output has none */
    gboolean histogram_complete; /* rows add up to "# Total:" (or JSON) */
    gint64 histogram_total;   /* "# Total:", -1 unknown */
    GArray *overflow_cycles;  /* guint64 cycle numbers from "# Thread N:" */
    guint64 overflow_others;  /* "# NNNNN others" (not listed) */
} RvCyclictestThread;

typedef struct {
    RvCyclictestForm form;
    char *version;         /* "2.40" ("cyclictest V 2.40", JSON
                            * "rt_test_version:"), NULL unknown */
    char *cmdline;         /* command line when the output shows it, or NULL */
    char *policy;          /* "fifo", "rr", "other", ... ("policy:" line), NULL */
    int first_line;        /* 1-based line where this run starts (JSON: 1) */
    GPtrArray *threads;    /* RvCyclictestThread*, by index 0..n-1 */
    GPtrArray *notes;      /* char*: things a reader should know, e.g.
                            * "histogram requested (-h 60) but absent" */
    char *tool;            /* "cyclictest", "oslat" (JSON cmdline), "rtvirt pert" */
    int last_line;         /* 1-based last line that belonged to this run */
    int histogram_requested; /* -h/-H N of the command line shown, 0 none */
    gboolean histogram_absent; /* requested but no histogram in the output */
    int defaulted_priority;  /* N of cyclictest's stderr notice "defaulting
                              * realtime priority to N", -1 none */
    int defaulted_line;      /* its line */
    int dma_latency_us;      /* "# /dev/cpu_dma_latency set to Nus", -1 none */
    int realtime;            /* JSON sysinfo "realtime": 1/0, -1 unknown */
    char *kernel_release;    /* JSON sysinfo "release", NULL unknown */
    char *cmdline_prefix;    /* "taskset -c 3" before the program on the
                              * command line's line, NULL */

    /* What the readers of the other tools (results/latency-readers.h) and
     * cyclictest's own break lines also tell; unknown: -1, NULL, FALSE. */
    double duration_s;       /* measured: oslat "Duration:", rtla "Duration:"
                              * / the top header, hwlatdetect's test duration
                              * once it finished, stress-ng's run time */
    double duration_asked_s; /* asked: oslat "Total runtime:", stress-ng -t */
    gint64 threshold_us;     /* hwlatdetect "Latency threshold:" */
    gint64 below_us;         /* the max is below this: hwlatdetect "Max
                              * Latency: Below threshold" */
    gint64 exceeding;        /* hwlatdetect "Samples exceeding threshold:" */
    gint64 window_us;        /* hwlatdetect "Sample window:" */
    gint64 width_us;         /* hwlatdetect "Sample width:" */
    double coverage;         /* share of the run's time the statistics
                              * sampled, 0..1 (osnoise Runtime / duration), -1 */
    gint64 samples_kept;     /* stress-ng cyclic: statistics over only this
                              * many samples, -1 */
    char *stopped;           /* why the run ended early: a threshold hit
                              * (oslat -T, rtla stop tracing, cyclictest -b),
                              * an interruption; NULL */
    int stopped_line;        /* its line, 0 */
    gboolean no_result;      /* the output ends before the tool printed its
                              * result (a crash, a cut file) */
    char *cpu_list;          /* the CPUs the tool was told to measure (oslat
                              * and hwlatdetect "CPU list:"), NULL */
    int main_cpu;            /* oslat "CPU for main thread:", -1 */
    char *mode;              /* rtla: "timerlat top", "osnoise hist", ...;
                              * NULL for the other tools */
} RvCyclictestRun;

void rv_result_cyclictest_run_free(RvCyclictestRun *run);
G_DEFINE_AUTOPTR_CLEANUP_FUNC(RvCyclictestRun, rv_result_cyclictest_run_free)

/**
 * rv_result_cyclictest_parse:
 * @name: what the data is called in error messages (file name)
 * @data: the output, need not be NUL-terminated
 * @len: bytes in @data
 * @ret_runs: (out) (transfer full): GPtrArray of RvCyclictestRun*, with a
 *            free function, in file order; only written on success
 * @error: RV_ERROR_INVALID naming @name, the line (and column for JSON) and
 *         what is wrong: malformed line, truncated histogram or JSON,
 *         "-N/--nsecs output", no cyclictest output at all
 *
 * Returns: the number of runs (>= 1), or -EINVAL.
 */
int rv_result_cyclictest_parse(const char *name, const char *data, gsize len,
                               GPtrArray **ret_runs, GError **error)
    G_GNUC_WARN_UNUSED_RESULT;

/**
 * rv_result_cyclictest_parse_file:
 * @path: file to read (at most 256 MiB)
 *
 * As rv_result_cyclictest_parse(); I/O errors are RV_ERROR_FAILED, -errno.
 */
int rv_result_cyclictest_parse_file(const char *path, GPtrArray **ret_runs,
                                    GError **error) G_GNUC_WARN_UNUSED_RESULT;

/**
 * rv_result_cyclictest_run_max_us:
 * Returns: the largest max_us over the run's threads, -1 when none known.
 */
gint64 rv_result_cyclictest_run_max_us(const RvCyclictestRun *run);

/**
 * rv_result_cyclictest_run_histogram:
 * @run: a parsed run
 * @ret_hist: (out) (transfer full): all threads' histograms merged
 *
 * Returns: 0; -ENODATA when a thread has no histogram or an incomplete one
 * (rows elided), with a GError saying which thread.
 */
int rv_result_cyclictest_run_histogram(const RvCyclictestRun *run,
                                       RvHistogram **ret_hist, GError **error)
    G_GNUC_WARN_UNUSED_RESULT;

/* ---- the command line that ran ---- */

/* What a cyclictest command line asked for, as cyclictest's own getopt
 * (rt-tests 2.x process_options(): short options bundle, "-a"/"-t" take an
 * optional value attached or as the next word when it starts with a
 * digit, long options as --name=VALUE or --name VALUE). */
typedef struct {
    int priority;          /* -p/--priority; -1 not given; 0 when the value is
                            * not a number (cyclictest's atoi(): "-smp -p 98"
                            * makes getopt take "-p" as the value of -p) */
    char *priority_arg;    /* the value as written, NULL */
    int threads;           /* -t N; -1 not given (1 thread); 0: -t alone (one
                            * per CPU of the affinity mask) */
    gboolean affinity;     /* -a given */
    char *affinity_list;   /* -a LIST, NULL: -a alone (every CPU of the mask) */
    char *main_affinity;   /* --mainaffinity LIST, NULL */
    char *taskset_list;    /* "taskset -c LIST cyclictest ...": the process mask */
    gboolean smp;          /* -S/--smp: one thread per CPU of the affinity mask */
    int interval_us;       /* -i/--interval, -1 */
    char *policy;          /* --policy NAME, NULL */
    int histogram;         /* -h/-H N, 0 none */
    char *tool;            /* basename of the program word ("cyclictest",
                            * "oslat", "rtla", "hwlatdetect", "stress-ng") */
    /* the options that decide whether a run is comparable */
    double duration_s;     /* cyclictest/oslat -D, rtla -d, hwlatdetect
                            * --duration, stress-ng -t; -1 not given */
    gint64 loops;          /* cyclictest -l/--loops, -1 */
    gboolean mlockall;     /* cyclictest -m/--mlockall */
    gint64 breaktrace_us;  /* cyclictest -b/--breaktrace, -1 */
    gint64 stop_us;        /* oslat -T, rtla -a/-s/-S/-i/-I/-T: a threshold
                            * that ends the run, -1 */
    gint64 threshold_us;   /* hwlatdetect --threshold, -1 */
    gint64 hardlimit_us;   /* hwlatdetect --hardlimit, -1 */
    char *mode;            /* rtla "timerlat top" / "osnoise hist" ..., NULL */
} RvCyclictestArgs;

/**
 * rv_result_cyclictest_args_parse:
 * @cmdline: "cyclictest -p 98 -a 2-5 -t 4" or "taskset -c 3 cyclictest ...",
 *           or an oslat, rtla timerlat/osnoise (also as "timerlat hist"),
 *           hwlatdetect or stress-ng command line; shell quoting is
 *           honoured; words before the program are skipped except
 *           taskset's -c LIST.  rtla -P o:N/r:N/f:N/d:... gives policy and
 *           priority, -c the CPUs (affinity_list), -H the housekeeping CPUs
 *           (main_affinity); oslat -c / -C / -f likewise
 * @ret: (out caller-allocates): cleared first; free with
 *       rv_result_cyclictest_args_clear()
 * @error: RV_ERROR_INVALID when no word is a program of those tools
 *
 * Returns: 0 or -EINVAL.
 */
int rv_result_cyclictest_args_parse(const char *cmdline, RvCyclictestArgs *ret,
                                    GError **error) G_GNUC_WARN_UNUSED_RESULT;
void rv_result_cyclictest_args_clear(RvCyclictestArgs *a);

/**
 * rv_result_cyclictest_record_add:
 * @rec: record of workload "cyclictest"
 * @run: one parsed cyclictest run (results/cyclictest.h)
 *
 * Adds metrics max_us (max over threads), min_us, avg_us (cycle-weighted
 * mean of the thread averages), cycles; histograms "latency" (threads
 * merged, when every thread has a complete histogram) and "latency.tN";
 * details {version, policy, cmdline, threads [{index, tid, priority,
 * interval_us, cycles, min_us, avg_us, max_us, cpu, overflows}], notes}.
 *
 * Returns: 0, or -ENODATA (RV_ERROR_INVALID) when the run has no thread.
 */
int rv_result_cyclictest_record_add(RvStoreRecord *rec,
                                    const RvCyclictestRun *run,
                                    GError **error)
    G_GNUC_WARN_UNUSED_RESULT;
