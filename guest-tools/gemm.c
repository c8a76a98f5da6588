/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * guest-tools/gemm.c: rtvirt-gemm, an OpenBLAS dgemm load at a thread
 * count: C = A B for N x N matrices, over and over for SECONDS.  It says
 * which OpenBLAS kernel ran (openblas_get_corename(): "SkylakeX" is the
 * AVX-512 one, picked by OpenBLAS's DYNAMIC_ARCH on a CPU that has it, in
 * a guest with a host-passthrough CPU) and the build (openblas_get_config()).
 *
 *   rtvirt-gemm [-n N] [-T THREADS] [-t SECONDS]
 *
 * Output (workloads/gemm.c parses it):
 *   core CORE
 *   config CONFIG
 *   gemm n N threads T iterations K seconds S gflops G
 * Exit 0, or 2 on bad usage or no memory.
 */
#include <stdio.h>
#include <stdlib.h>
#include <time.h>
#include <unistd.h>

#include <cblas.h>

static double
now_s(void)
{
    struct timespec ts;

    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double) ts.tv_sec + (double) ts.tv_nsec * 1e-9;
}

int
main(int argc, char **argv)
{
    long n = 256, threads = 1;
    double seconds = 2, t0, t;
    long iters = 0;
    double *a, *b, *c;
    char *end;
    int opt;

    while ((opt = getopt(argc, argv, "n:T:t:")) != -1) {
        switch (opt) {
        case 'n':
            n = strtol(optarg, &end, 10);
            if (*end || n < 2 || n > 20000)
                goto usage;
            break;
        case 'T':
            threads = strtol(optarg, &end, 10);
            if (*end || threads < 1 || threads > 1024)
                goto usage;
            break;
        case 't':
            seconds = strtod(optarg, &end);
            if (*end || !(seconds > 0) || seconds > 1e6)
                goto usage;
            break;
        default:
            goto usage;
        }
    }
    if (optind != argc)
        goto usage;
    a = malloc((size_t) n * n * sizeof(double));
    b = malloc((size_t) n * n * sizeof(double));
    c = malloc((size_t) n * n * sizeof(double));
    if (!a || !b || !c) {
        fprintf(stderr, "rtvirt-gemm: no memory for N = %ld\n", n);
        return 2;
    }
    for (size_t i = 0; i < (size_t) n * n; i++) {
        a[i] = (double) (i % 7) * 0.25;
        b[i] = (double) (i % 5) * 0.5;
    }
    openblas_set_num_threads((int) threads);
    printf("core %s\nconfig %s\n", openblas_get_corename(), openblas_get_config());
    fflush(stdout);
    t0 = now_s();
    do {
        cblas_dgemm(CblasColMajor, CblasNoTrans, CblasNoTrans, (int) n, (int) n, (int) n, 1.0,
                    a, (int) n, b, (int) n, 0.0, c, (int) n);
        iters++;
        t = now_s() - t0;
    } while (t < seconds);
    printf("gemm n %ld threads %ld iterations %ld seconds %.6f gflops %.4f\n", n, threads,
           iters, t, 2.0 * (double) n * n * n * (double) iters / t * 1e-9);
    free(a);
    free(b);
    free(c);
    return 0;

usage:
    fprintf(stderr, "usage: rtvirt-gemm [-n N (2-20000)] [-T THREADS (1-1024)] [-t SECONDS]\n");
    return 2;
}
