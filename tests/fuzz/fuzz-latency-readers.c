/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * tests/fuzz/fuzz-latency-readers.c: libFuzzer target for the readers of
 * oslat's text, hwlatdetect, rtla top/hist/auto-analysis and stress-ng's
 * cyclic report (results/latency-readers.h; outputs from guests are
 * untrusted).  The first byte picks the reader, the rest is its input, so
 * each reader is fuzzed whatever rv_result_latency_form() would pick.
 * Seed corpus: tests/data/result-check (prefix a byte 0-3 to a file).
 *
 *   make fuzz O=build-fuzz
 *   build-fuzz/fuzz/fuzz-latency-readers -runs=200000 tests/data/result-check
 *
 * Besides not crashing, checks invariants: a success returns one run whose
 * threads are 0..n-1 in order, with latencies within the readers' bound; a
 * failure sets an error and no runs.
 */
#include <stdint.h>
#include <stdlib.h>

#include "results/cyclictest.h"
#include "results/latency-readers.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

typedef int (*Reader)(const char *, const char *, gsize, GPtrArray **, GError **);

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    static const Reader readers[] = {
        rv_result_oslat_parse, rv_result_hwlat_parse, rv_result_rtla_parse,
        rv_result_stressng_parse,
    };
    GPtrArray *runs = NULL;
    GError *err = NULL;
    int r;

    if (size < 1)
        return 0;
    (void) rv_result_latency_form((const char *) data + 1, size - 1);
    r = readers[data[0] % G_N_ELEMENTS(readers)]("fuzz", (const char *) data + 1, size - 1,
                                                 &runs, &err);
    if (r < 0) {
        if (!err || runs)
            abort();
        g_error_free(err);
        return 0;
    }
    if (err || !runs || r != 1 || runs->len != 1)
        abort();
    RvCyclictestRun *run = runs->pdata[0];
    for (guint t = 0; t < run->threads->len; t++) {
        RvCyclictestThread *th = run->threads->pdata[t];
        if (th->index != (int) t || th->max_us > RV_READER_MAX_US || th->min_us > RV_READER_MAX_US)
            abort();
    }
    if (run->first_line < 1 || run->last_line < run->first_line - 1)
        abort();
    (void) rv_result_cyclictest_run_max_us(run);
    g_ptr_array_unref(runs);
    return 0;
}
