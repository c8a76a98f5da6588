/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * tests/fuzz/fuzz-journal.c: libFuzzer target for the journal's line codec
 * (host/tune/journal.c): the input is a journal file as a crash, a full
 * disk or a hand edit may leave it.  rv_host_journal_peek() reads it
 * without a lock (`rtvirt status`), rv_host_journal_open_flags() opens it
 * as `host revert` does (damaged allowed), against a throw-away root.
 * Nothing is reverted: the codec is what is fuzzed, not the host.
 *
 *   make fuzz O=build-fuzz
 *   UBSAN_OPTIONS=halt_on_error=1 nice -n 10 build-fuzz/fuzz/fuzz-journal \
 *       -max_total_time=600 CORPUS tests/data/journal
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>

#include <glib/gstdio.h>

#include "host/fsroot.h"
#include "host/tune/journal.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static char *dir, *file;
static RvRoot *root;

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    RvJournalSummary sum;
    RvJournal *j = NULL;
    GError *err = NULL;

    if (!dir) {
        const char *base = g_file_test("/dev/shm", G_FILE_TEST_IS_DIR) ? "/dev/shm"
                                                                     : g_get_tmp_dir();
        char *tmpl = g_build_filename(base, "rv-fuzz-journal-XXXXXX", NULL);
        dir = g_mkdtemp(tmpl);
        if (!dir || rv_host_root_open(dir, &root, NULL) < 0)
            abort();
        file = g_build_filename(dir, "journal", NULL);
    }
    if (!g_file_set_contents(file, (const char *) data, (gssize) size, NULL))
        abort();
    if (rv_host_journal_peek(root, file, &sum, &err) < 0)
        g_clear_error(&err);
    if (rv_host_journal_open_flags(root, file, RV_JOURNAL_OPEN_DAMAGED, &j, &err) < 0)
        g_clear_error(&err);
    else
        rv_host_journal_close(j);
    return 0;
}
