/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * tests/fuzz/fuzz-store-read.c: libFuzzer target for a results store as
 * it arrives from another host: the input is a run.json; compare's reader
 * opens it (rv_result_store_open()), and when it reads, the comparison is
 * built and formatted as text, --json (which must parse) and --csv.  With
 * -rss_limit_mb the run also bounds what a small store may cost (a 2^24
 * bucket declaration cost 128 MiB per histogram when histograms were
 * dense).
 *
 *   make fuzz O=build-fuzz
 *   UBSAN_OPTIONS=halt_on_error=1 nice -n 10 build-fuzz/fuzz/fuzz-store-read \
 *       -max_total_time=600 -rss_limit_mb=512 -max_len=65536 CORPUS \
 *       tests/data/compare/welch/20261130-140000-demo tests/data/compare/bomb/20261204-000000-bomb
 *
 * The store goes to $TMPDIR (/dev/shm where it exists).
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <glib/gstdio.h>
#include <json-glib/json-glib.h>

#include "results/compare.h"
#include "results/store.h"
#include "tests/fuzz/fuzz-store.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static char *dir, *file;

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    GError *err = NULL;
    RvStore *st = NULL;

    if (!dir) {
        const char *base = g_file_test("/dev/shm", G_FILE_TEST_IS_DIR) ? "/dev/shm"
                                                                     : g_get_tmp_dir();
        char *tmpl = g_build_filename(base, "rv-fuzz-store-read-XXXXXX", NULL);
        dir = g_mkdtemp(tmpl);
        if (!dir)
            abort();
        file = g_build_filename(dir, "run.json", NULL);
    }
    if (!g_file_set_contents(file, (const char *) data, (gssize) size, NULL))
        abort();
    if (rv_result_store_open(dir, &st, &err) < 0) {
        g_clear_error(&err);
        return 0;
    }
    fuzz_compare_store(st);
    rv_result_store_free(st);
    return 0;
}
