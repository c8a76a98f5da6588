/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * tests/fuzz/fuzz-workloads.c: libFuzzer target for every workload's
 * untrusted-output parser (one file each under workloads/, rv_workload_all()) and the way
 * its record goes through the run store: the input is what a guest
 * printed; each workload parses it as rtvirt run does; a refused output
 * fails that repetition with the reason and must add nothing; the store is
 * committed, compare's reader must read every record back with the status
 * written, and compare --json of it must parse.
 *
 *   make fuzz O=build-fuzz
 *   UBSAN_OPTIONS=halt_on_error=1 nice -n 10 build-fuzz/fuzz/fuzz-workloads \
 *       -max_total_time=600 CORPUS tests/data/workloads
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
#include "results/store.h"
#include "tests/fuzz/fuzz-store.h"
#include "workloads/workload.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static char *parent;

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    const RvWorkloadOps *const *all = rv_workload_all();
    GPtrArray *status = g_ptr_array_new();
    GError *err = NULL;
    RvStore *st = NULL;

    if (!parent) {
        const char *base = g_file_test("/dev/shm", G_FILE_TEST_IS_DIR) ? "/dev/shm"
                                                                     : g_get_tmp_dir();
        char *tmpl = g_build_filename(base, "rv-fuzz-workloads-XXXXXX", NULL);
        parent = g_mkdtemp(tmpl);
        if (!parent)
            abort();
    }
    if (rv_result_store_create(parent, "fuzz", NULL, &st, &err) < 0) {
        fprintf(stderr, "%s\n", err->message);
        abort();
    }
    rv_result_store_add_scenario(st, "s", "fuzz");
    for (guint i = 0; all[i]; i++) {
        const RvWorkloadOps *ops = all[i];
        RvWorkloadParams p = { .where = RV_WORKLOAD_NEIGHBOUR };
        RvWorkloadResult res = { 0 };
        RvStoreRecord *rec;

        if (!ops->parse)
            continue;
        rec = rv_result_store_record_new("s", 1, ops->name, "guest:g");
        res.rec = rec;
        if (ops->parse(&p, "fuzz.out", (const char *) data, size, &res, &err) < 0) {
            char *why = g_strdup_printf("%s output rejected: %s", ops->name,
                                        err ? err->message : "(no message)");
            if (rec->metrics->len || rec->histograms->len)
                abort();      /* a refused output adds nothing */
            rv_result_store_record_set_status(rec, "failed", why);
            g_free(why);
            g_clear_error(&err);
            g_ptr_array_add(status, "failed");
        } else {
            g_ptr_array_add(status, (gpointer) rec->status);
        }
        res.rec = NULL;
        rv_workload_result_clear(&res);
        rv_result_store_add_record(st, rec);
    }
    fuzz_check_reads_back(st, status);
    fuzz_rm_rf(rv_result_store_get_dir(st));
    rv_result_store_free(st);
    g_ptr_array_unref(status);
    return 0;
}
