/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * guest-tools/linpack.c: rtvirt-linpack, a small LU solver for the linpack
 * neighbour guest.  Each iteration solves A x = b for a random N x N
 * matrix with LAPACK's dgetrf (LU with partial pivoting) and dgetrs (the
 * two triangular solves) from OpenBLAS, checks the result with HPL's
 * scaled residual
 *     ||A x - b||_inf / (eps * (||A||_inf * ||x||_inf + ||b||_inf) * N) < 16
 * (HPL's tuning guide, "Checking the solution") and reports GFLOPS with
 * HPL's operation count 2/3 N^3 + 2 N^2.
 *
 *   rtvirt-linpack [-n N] [-r REPS] [-t SECONDS] [-s SEED] [--json]
 *
 * Runs REPS iterations (default 3), or as many as fit in SECONDS when -t
 * is given (at least one; -r then caps them, 0 = no cap).  Output, one
 * line each (workloads/linpack.c parses it):
 *   rtvirt-linpack n N core CORE
 *   iter I n N seconds S gflops G resid R PASSED|FAILED
 *   summary iterations K n N seconds S gflops G gflops_max G resid_max R PASSED|FAILED
 * or with --json one object with the same fields.  Exit 0 when every
 * residual passed, 1 when one failed, 2 on bad usage or no memory.
 */
#include <float.h>
#include <getopt.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include <lapack.h>

/* OpenBLAS (libopenblas.so.0) */
extern char *openblas_get_corename(void);

static double
now_s(void)
{
    struct timespec ts;

    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double) ts.tv_sec + (double) ts.tv_nsec * 1e-9;
}

/* xorshift64*: uniform in [-0.5, 0.5), as HPL's generator is */
static double
next_rand(unsigned long long *s)
{
    *s ^= *s >> 12;
    *s ^= *s << 25;
    *s ^= *s >> 27;
    return (double) ((*s * 2685821657736338717ULL) >> 11) / 9007199254740992.0 - 0.5;
}

static double
norm_inf_mat(const double *a, int n)
{
    double best = 0;

    for (int i = 0; i < n; i++) {
        double row = 0;

        for (int j = 0; j < n; j++)
            row += fabs(a[(size_t) j * n + i]);   /* column-major */
        if (row > best)
            best = row;
    }
    return best;
}

static double
norm_inf_vec(const double *v, int n)
{
    double best = 0;

    for (int i = 0; i < n; i++)
        if (fabs(v[i]) > best)
            best = fabs(v[i]);
    return best;
}

/* One solve; returns the scaled residual, or -1 when dgetrf finds A singular. */
static double
solve_once(int n, unsigned long long *seed, double *a, double *lu, double *b, double *x,
           int *ipiv, double *ret_seconds)
{
    size_t nn = (size_t) n * n;
    int info = 0, one = 1;
    double t0, r = 0, an, xn, bn;

    for (size_t i = 0; i < nn; i++)
        a[i] = next_rand(seed);
    for (int i = 0; i < n; i++)
        b[i] = next_rand(seed);
    memcpy(lu, a, nn * sizeof(double));
    memcpy(x, b, (size_t) n * sizeof(double));
    t0 = now_s();
    LAPACK_dgetrf(&n, &n, lu, &n, ipiv, &info);
    if (info == 0)
        LAPACK_dgetrs("N", &n, &one, lu, &n, ipiv, x, &n, &info);
    *ret_seconds = now_s() - t0;
    if (info != 0)
        return -1;
    /* r = A x - b, row by row */
    for (int i = 0; i < n; i++) {
        double s = -b[i];

        for (int j = 0; j < n; j++)
            s += a[(size_t) j * n + i] * x[j];
        if (fabs(s) > r)
            r = fabs(s);
    }
    an = norm_inf_mat(a, n);
    xn = norm_inf_vec(x, n);
    bn = norm_inf_vec(b, n);
    return r / (DBL_EPSILON * (an * xn + bn) * n);
}

int
main(int argc, char **argv)
{
    static const struct option opts[] = {
        { "json", no_argument, NULL, 'j' }, { "help", no_argument, NULL, 'h' }, { 0 },
    };
    long n = 200, reps = 3;
    double seconds = 0, total_s = 0, max_gf = 0, max_resid = 0;
    unsigned long long seed = 42;
    int json = 0, c, ok = 1, iters = 0;
    double *a, *lu, *b, *x;
    int *ipiv;
    char *end;
    double flops;

    while ((c = getopt_long(argc, argv, "n:r:t:s:h", opts, NULL)) != -1) {
        switch (c) {
        case 'n':
            n = strtol(optarg, &end, 10);
            if (*end || n < 2 || n > 20000)
                goto usage;
            break;
        case 'r':
            reps = strtol(optarg, &end, 10);
            if (*end || reps < 0 || reps > 1000000)
                goto usage;
            break;
        case 't':
            seconds = strtod(optarg, &end);
            if (*end || !(seconds > 0) || seconds > 1e6)
                goto usage;
            break;
        case 's':
            seed = strtoull(optarg, &end, 10);
            if (*end || !seed)
                goto usage;
            break;
        case 'j':
            json = 1;
            break;
        default:
            goto usage;
        }
    }
    if (optind != argc || (!seconds && !reps))
        goto usage;
    a = malloc((size_t) n * n * sizeof(double));
    lu = malloc((size_t) n * n * sizeof(double));
    b = malloc((size_t) n * sizeof(double));
    x = malloc((size_t) n * sizeof(double));
    ipiv = malloc((size_t) n * sizeof(int));
    if (!a || !lu || !b || !x || !ipiv) {
        fprintf(stderr, "rtvirt-linpack: no memory for N = %ld\n", n);
        return 2;
    }
    flops = 2.0 / 3.0 * (double) n * n * n + 2.0 * (double) n * n;
    if (!json)
        printf("rtvirt-linpack n %ld core %s\n", n, openblas_get_corename());
    else
        printf("{\"tool\": \"rtvirt-linpack\", \"n\": %ld, \"core\": \"%s\", \"iterations\": [",
               n, openblas_get_corename());
    for (double t_start = now_s();;) {
        double s, resid = solve_once((int) n, &seed, a, lu, b, x, ipiv, &s);
        double gf = s > 0 ? flops / s * 1e-9 : 0;
        int pass = resid >= 0 && resid < 16;

        iters++;
        ok &= pass;
        total_s += s;
        if (gf > max_gf)
            max_gf = gf;
        if (resid > max_resid || resid < 0)
            max_resid = resid < 0 ? INFINITY : resid;
        if (json)
            printf("%s{\"n\": %ld, \"seconds\": %.6f, \"gflops\": %.4f, \"resid\": %.6g, "
                   "\"passed\": %s}", iters > 1 ? ", " : "", n, s, gf, resid < 0 ? -1 : resid,
                   pass ? "true" : "false");
        else
            printf("iter %d n %ld seconds %.6f gflops %.4f resid %.6g %s\n", iters, n, s, gf,
                   resid < 0 ? -1 : resid, pass ? "PASSED" : "FAILED");
        fflush(stdout);
        if (reps && iters >= reps)
            break;
        if (seconds && now_s() - t_start >= seconds)
            break;
    }
    if (json)
        printf("], \"summary\": {\"iterations\": %d, \"n\": %ld, \"seconds\": %.6f, "
               "\"gflops\": %.4f, \"gflops_max\": %.4f, \"resid_max\": %.6g, \"passed\": %s}}\n",
               iters, n, total_s, flops * iters / total_s * 1e-9, max_gf,
               isinf(max_resid) ? -1 : max_resid, ok ? "true" : "false");
    else
        printf("summary iterations %d n %ld seconds %.6f gflops %.4f gflops_max %.4f "
               "resid_max %.6g %s\n", iters, n, total_s, flops * iters / total_s * 1e-9, max_gf,
               isinf(max_resid) ? -1 : max_resid, ok ? "PASSED" : "FAILED");
    free(a);
    free(lu);
    free(b);
    free(x);
    free(ipiv);
    return ok ? 0 : 1;

usage:
    fprintf(stderr, "usage: rtvirt-linpack [-n N (2-20000)] [-r REPS] [-t SECONDS] [-s SEED] "
            "[--json]\n");
    return 2;
}
