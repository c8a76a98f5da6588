/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * tests/fuzz/fuzz-cyclictest.c: libFuzzer target for the cyclictest parser
 * (text and --json forms; guest output is untrusted).  Seed corpus:
 * tests/data/cases/cyclictest and tests/data/cyclictest.
 *
 *   make fuzz O=build-fuzz
 *   build-fuzz/fuzz/fuzz-cyclictest -runs=200000 tests/data/cases/cyclictest tests/data/cyclictest
 *
 * Besides not crashing, checks invariants: a success returns >= 1 run, each
 * with threads 0..n-1 in order; a failure sets an error and no runs.
 */
#include <stdint.h>
#include <stdlib.h>

#include "results/cyclictest.h"
#include "results/histogram.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    GPtrArray *runs = NULL;
    GError *err = NULL;
    int r = rv_result_cyclictest_parse("fuzz", (const char *) data, size, &runs, &err);

    if (r < 0) {
        if (!err || runs)
            abort();
        g_error_free(err);
        return 0;
    }
    if (err || !runs || r != (int) runs->len || r < 1)
        abort();
    for (guint i = 0; i < runs->len; i++) {
        RvCyclictestRun *run = runs->pdata[i];
        RvHistogram *h = NULL;
        for (guint t = 0; t < run->threads->len; t++) {
            RvCyclictestThread *th = run->threads->pdata[t];
            if (th->index != (int) t)
                abort();
            if (th->histogram) {
                gint64 us;
                (void) rv_result_histogram_total(th->histogram);
                if (rv_result_histogram_percentile(th->histogram, 99.9, &us, NULL, NULL) == 0 &&
                    us < 0)
                    abort();
            }
        }
        (void) rv_result_cyclictest_run_max_us(run);
        if (rv_result_cyclictest_run_histogram(run, &h, NULL) == 0)
            rv_result_histogram_free(h);
    }
    g_ptr_array_unref(runs);
    return 0;
}
