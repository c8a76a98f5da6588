/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * tests/fuzz/fuzz-store.h: what the store fuzz targets share (each target
 * is one translation unit, so these are static): removing a scratch tree,
 * compare of a store in every format, and a committed store read back with
 * the statuses written.
 */
#pragma once

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <glib/gstdio.h>
#include <json-glib/json-glib.h>

#include "results/compare.h"
#include "results/store.h"

/* compare of @st in every format (as `rtvirt compare`): its JSON must parse */
G_GNUC_UNUSED static void
fuzz_compare_store(RvStore *st)
{
    GError *err = NULL;
    RvComparison *cmp = NULL;
    GPtrArray *stores = g_ptr_array_new();

    g_ptr_array_add(stores, st);
    if (rv_result_compare_build(stores, NULL, RV_STATS_WELCH, &cmp, NULL) == 0) {
        char *json = rv_result_compare_format(cmp, RV_COMPARE_JSON);
        char *text = rv_result_compare_format(cmp, RV_COMPARE_TEXT);
        char *csv = rv_result_compare_format(cmp, RV_COMPARE_CSV);
        JsonParser *p = json_parser_new();

        if (!json_parser_load_from_data(p, json, -1, &err)) {
            fprintf(stderr, "compare --json is not JSON: %s\n", err->message);
            abort();
        }
        g_object_unref(p);
        g_free(json);
        g_free(text);
        g_free(csv);
        rv_result_compare_free(cmp);
    }
    g_ptr_array_unref(stores);
}

G_GNUC_UNUSED static void
fuzz_rm_rf(const char *path)
{
    GDir *d = g_dir_open(path, 0, NULL);
    const char *n;

    if (d) {
        while ((n = g_dir_read_name(d))) {
            char *p = g_build_filename(path, n, NULL);
            fuzz_rm_rf(p);
            g_free(p);
        }
        g_dir_close(d);
    }
    g_remove(path);
}

G_GNUC_UNUSED static void
fuzz_check_reads_back(RvStore *st, GPtrArray *want_status)
{
    GError *err = NULL;
    RvStore *back = NULL;
    GPtrArray *recs;

    if (rv_result_store_commit(st, &err) < 0) {
        fprintf(stderr, "commit: %s\n", err->message);
        abort();
    }
    if (rv_result_store_open(rv_result_store_get_dir(st), &back, &err) < 0) {
        fprintf(stderr, "the store does not read back: %s\n", err->message);
        abort();
    }
    recs = rv_result_store_get_records(back);
    if (recs->len != want_status->len)
        abort();
    for (guint i = 0; i < recs->len; i++)
        if (strcmp(((RvStoreRecord *) recs->pdata[i])->status, want_status->pdata[i]) != 0) {
            fprintf(stderr, "record %u: status %s, written %s\n", i,
                    ((RvStoreRecord *) recs->pdata[i])->status, (char *) want_status->pdata[i]);
            abort();
        }
    fuzz_compare_store(back);
    rv_result_store_free(back);
}
