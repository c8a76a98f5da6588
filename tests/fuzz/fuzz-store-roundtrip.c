/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * tests/fuzz/fuzz-store-roundtrip.c: libFuzzer target for the whole path of
 * an untrusted workload output into the run store and back:
 * the input is what a guest printed, taken as cyclictest output (text
 * or --json) and as an `rtvirt pert --json` document; every parsed run is
 * recorded as rtvirt run records it (rv_result_cyclictest_record_add(),
 * rv_result_pert_record_add(); an error fails that repetition with the
 * reason, as harness/run-records.c does), the store is committed, and compare's
 * reader must read it back, every record with the status written; the
 * comparison of what was read must build and its JSON must parse.
 * Seed corpus: tests/data/cyclictest and tests/data/cases/cyclictest.
 *
 *   make fuzz O=build-fuzz
 *   UBSAN_OPTIONS=halt_on_error=1 nice -n 10 build-fuzz/fuzz/fuzz-store-roundtrip \
 *       -max_total_time=600 CORPUS tests/data/cyclictest tests/data/cases/cyclictest
 *
 * (UBSan only reports and goes on without halt_on_error=1.)  Invariants:
 * a run the adder refuses adds nothing to its record; every record reads
 * back with the status it was written with (a record the store's own check
 * had to turn into "failed" means the adder let through a value the store
 * refuses); compare --json of what was read parses as JSON.
 *
 * The stores go to $TMPDIR (/dev/shm where it exists: a commit fsyncs).
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <glib/gstdio.h>
#include <json-glib/json-glib.h>

#include "results/compare.h"
#include "results/cyclictest.h"
#include "results/pert.h"
#include "results/store.h"
#include "tests/fuzz/fuzz-store.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static char *parent;

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    const char *text = (const char *) data;
    GPtrArray *runs = NULL, *status = g_ptr_array_new();
    GError *err = NULL;
    RvStore *st = NULL;
    RvStoreRecord *rec;
    int n;

    if (!parent) {
        const char *base = g_file_test("/dev/shm", G_FILE_TEST_IS_DIR) ? "/dev/shm"
                                                                     : g_get_tmp_dir();
        char *tmpl = g_build_filename(base, "rv-fuzz-store-XXXXXX", NULL);
        parent = g_mkdtemp(tmpl);
        if (!parent)
            abort();
    }
    if (rv_result_store_create(parent, "fuzz", NULL, &st, &err) < 0) {
        fprintf(stderr, "%s\n", err->message);
        abort();
    }
    rv_result_store_add_scenario(st, "s", "fuzz");

    /* cyclictest: one record per run, as many repetitions */
    n = rv_result_cyclictest_parse("fuzz.txt", text, size, &runs, &err);
    if (n < 0) {
        char *why = g_strdup_printf("cyclictest output rejected: %s", err->message);
        rec = rv_result_store_record_new("s", 1, "cyclictest", "guest:rt0");
        rv_result_store_record_set_status(rec, "failed", why);
        rv_result_store_add_record(st, rec);
        g_ptr_array_add(status, "failed");
        g_free(why);
        g_clear_error(&err);
    } else {
        for (guint i = 0; i < runs->len; i++) {
            rec = rv_result_store_record_new("s", (int) i + 1, "cyclictest", "guest:rt0");
            rv_result_store_record_set_virt(rec, "kvm");
            if (rv_result_cyclictest_record_add(rec, runs->pdata[i], &err) < 0) {
                char *why = g_strdup_printf("cyclictest output rejected: %s", err->message);
                if (rec->metrics->len || rec->histograms->len || rec->details)
                    abort();      /* a refused run adds nothing */
                rv_result_store_record_set_status(rec, "failed", why);
                g_free(why);
                g_clear_error(&err);
                g_ptr_array_add(status, "failed");
            } else {
                g_ptr_array_add(status, "ok");
            }
            rv_result_store_add_record(st, rec);
        }
        g_ptr_array_unref(runs);
    }

    /* the same bytes as the perturbation probe's JSON */
    rec = rv_result_store_record_new("s", 1, "pert", "host:cpu1");
    if (rv_result_pert_record_add(rec, "fuzz.json", text, size, &err) < 0) {
        char *why = g_strdup_printf("rtvirt pert JSON of CPU 1 unreadable: %s", err->message);
        if (rec->metrics->len || rec->histograms->len)
            abort();
        rv_result_store_record_set_status(rec, "failed", why);
        g_free(why);
        g_clear_error(&err);
        g_ptr_array_add(status, "failed");
    } else {
        g_ptr_array_add(status, "ok");
    }
    rv_result_store_add_record(st, rec);

    fuzz_check_reads_back(st, status);
    fuzz_rm_rf(rv_result_store_get_dir(st));
    rv_result_store_free(st);
    g_ptr_array_unref(status);
    return 0;
}
