/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * tests/rv-busy.c: the known host event of tests/t-attribution.sh: spins
 * BUSY_MS milliseconds, sleeps GAP_MS, COUNT times (or until killed with
 * COUNT 0).  Run under "chrt -f 50 taskset -c CPU": on the vCPU's host CPU
 * it preempts the vCPU thread for BUSY_MS each time.
 * Usage: rv-busy BUSY_MS GAP_MS COUNT
 */
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

static double
now_ms(void)
{
    struct timespec ts;

    clock_gettime(CLOCK_MONOTONIC, &ts);
    return ts.tv_sec * 1e3 + ts.tv_nsec / 1e6;
}

int
main(int argc, char **argv)
{
    if (argc != 4) {
        fprintf(stderr, "usage: rv-busy BUSY_MS GAP_MS COUNT\n");
        return 2;
    }
    double busy = atof(argv[1]), gap = atof(argv[2]);
    long count = atol(argv[3]);

    for (long i = 0; count == 0 || i < count; i++) {
        double end = now_ms() + busy;
        struct timespec g = { (time_t) (gap / 1e3), (long) ((gap - (long) (gap / 1e3) * 1e3) * 1e6) };

        while (now_ms() < end)
            ;
        printf("burst %ld at %.3f ms\n", i, end - busy);
        fflush(stdout);
        nanosleep(&g, NULL);
    }
    return 0;
}
