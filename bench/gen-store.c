/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * bench/gen-store.c: write a synthetic run store the way `rtvirt run` does:
 * for each scenario x repetition, a cyclictest histogram output (-q -h N,
 * 2 threads, the format of rt-tests 2.4 print_hist) holding SAMPLES
 * samples in total is written to raw/, parsed back with the project's
 * parser and recorded, and run.json is committed atomically after every
 * repetition.
 *
 *   gen-store PARENT SCENARIOS REPETITIONS SAMPLES BUCKETS
 *
 * Prints the store directory.  The latency distribution is a shifted
 * log-normal, computed per bucket (never per sample), with a scenario-
 * dependent median and a per-repetition wobble, plus a few overflows.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>

#include "results/cyclictest.h"
#include "results/store.h"

static void
die(const char *what, GError *err)
{
    fprintf(stderr, "gen-store: %s: %s\n", what, err ? err->message : "failed");
    exit(2);
}

int
main(int argc, char **argv)
{
    g_autoptr(RvStore) st = NULL;
    GError *err = NULL;
    guint nscen, nrep, nbuckets;
    guint64 samples;
    static const char *names[] = { "baseline", "nosmt", "coresched", "s4", "s5", "s6" };

    if (argc != 6) {
        fprintf(stderr, "usage: gen-store PARENT SCENARIOS REPETITIONS SAMPLES BUCKETS\n");
        return 2;
    }
    nscen = MIN(atoi(argv[2]), 6);
    nrep = atoi(argv[3]);
    samples = g_ascii_strtoull(argv[4], NULL, 10);
    nbuckets = atoi(argv[5]);

    if (rv_result_store_create(argv[1], "bench", NULL, &st, &err) < 0)
        die("create", err);
    for (guint s = 0; s < nscen; s++)
        rv_result_store_add_scenario(st, names[s], NULL);

    /* interleaved order, as a matrix run does */
    for (guint r = 1; r <= nrep; r++) {
        for (guint s = 0; s < nscen; s++) {
            const int nthreads = 2;
            guint64 per_thread = samples / nthreads;
            GString *out = g_string_new("# /dev/cpu_dma_latency set to 0us\n# Histogram\n");
            guint64 (*counts)[2] = g_malloc0_n(nbuckets, sizeof(*counts));
            guint64 total[2] = { 0 }, ovf[2] = { 0 }, maxv[2] = { 0 }, minv[2] = { 0 };
            double avg[2] = { 0 };
            double median = 8.0 + 2.0 * s + 0.3 * sin(r * 1.7 + s);
            g_autofree char *rawname = g_strdup_printf("%s-r%02u-rt0-cyclictest.txt", names[s], r);
            g_autoptr(GPtrArray) runs = NULL;
            RvStoreRecord *rec;

            for (int t = 0; t < nthreads; t++) {
                /* log-normal weights per 1-us bucket */
                double sigma = 0.35, wsum = 0;
                g_autofree double *w = g_new0(double, nbuckets);
                guint64 assigned = 0;
                for (guint b = 1; b < nbuckets; b++) {
                    double x = b + 0.5, z = (log(x) - log(median)) / sigma;
                    w[b] = exp(-0.5 * z * z) / x;
                    wsum += w[b];
                }
                ovf[t] = 3 + (r + t + s) % 5;
                for (guint b = 0; b < nbuckets; b++) {
                    counts[b][t] = (guint64) floor(w[b] / wsum * (double) (per_thread - ovf[t]));
                    assigned += counts[b][t];
                }
                counts[(guint) median][t] += per_thread - ovf[t] - assigned;
                total[t] = per_thread - ovf[t];
                for (guint b = 0; b < nbuckets; b++)
                    if (counts[b][t]) {
                        if (!minv[t])
                            minv[t] = b;
                        avg[t] += (double) b * counts[b][t];
                    }
                avg[t] /= total[t];
                maxv[t] = nbuckets + 50 * (s + 1) + r;
            }
            for (guint b = 0; b < nbuckets; b++)
                g_string_append_printf(out, "%06u %06" G_GUINT64_FORMAT "\t%06" G_GUINT64_FORMAT "\n",
                                       b, counts[b][0], counts[b][1]);
            g_string_append_printf(out, "# Total: %09" G_GUINT64_FORMAT " %09" G_GUINT64_FORMAT "\n"
                                   "# Min Latencies: %05" G_GUINT64_FORMAT " %05" G_GUINT64_FORMAT "\n"
                                   "# Avg Latencies: %05" G_GUINT64_FORMAT " %05" G_GUINT64_FORMAT "\n"
                                   "# Max Latencies: %05" G_GUINT64_FORMAT " %05" G_GUINT64_FORMAT "\n"
                                   "# Histogram Overflows: %05" G_GUINT64_FORMAT " %05" G_GUINT64_FORMAT "\n"
                                   "# Histogram Overflow at cycle number:\n",
                                   total[0], total[1], minv[0], minv[1],
                                   (guint64) avg[0], (guint64) avg[1], maxv[0], maxv[1], ovf[0], ovf[1]);
            for (int t = 0; t < nthreads; t++) {
                g_string_append_printf(out, "# Thread %d:", t);
                for (guint64 k = 0; k < ovf[t]; k++)
                    g_string_append_printf(out, " %05" G_GUINT64_FORMAT, 1000 + k * 977);
                g_string_append_c(out, '\n');
            }
            g_free(counts);

            if (rv_result_store_write_raw(st, rawname, out->str, out->len, NULL, &err) < 0)
                die("write raw", err);
            if (rv_result_cyclictest_parse(rawname, out->str, out->len, &runs, &err) < 0)
                die("parse", err);
            g_string_free(out, TRUE);
            rec = rv_result_store_record_new(names[s], r, "cyclictest", "guest:rt0");
            rv_result_store_record_set_virt(rec, "kvm");
            if (rv_result_cyclictest_record_add(rec, runs->pdata[0], &err) < 0)
                die("record", err);
            {
                g_autofree char *rel = g_strdup_printf("raw/%s", rawname);
                rv_result_store_record_add_raw(rec, rel);
            }
            rv_result_store_add_record(st, rec);
            rv_result_store_set_scenario_status(st, names[s], "ran", NULL);
            if (rv_result_store_commit(st, &err) < 0)
                die("commit", err);
        }
    }
    rv_result_store_set_complete(st, TRUE);
    if (rv_result_store_commit(st, &err) < 0)
        die("commit", err);
    printf("%s\n", rv_result_store_get_dir(st));
    return 0;
}
