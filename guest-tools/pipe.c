/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * guest-tools/pipe.c: rtvirt-pipe, pipe-test-1m: COUNT (10^6) round trips
 * of one byte between two tasks through two pipes, both tasks on one CPU
 * and on two CPUs (where every wake-up is a rescheduling IPI, and in a
 * guest a VM exit), as in the hrtimer regression thread's pipe-test.
 *
 *   rtvirt-pipe [-c COUNT] [-a CPU] [-b CPU]
 *
 * Output, one line per placement (workloads/pipe.c parses it):
 *   pipe same cpus A,A roundtrips COUNT seconds S ns_per_roundtrip X
 *   pipe cross cpus A,B roundtrips COUNT seconds S ns_per_roundtrip X
 *   pipe cross skipped: 1 CPU online      (or: one CPU given, -a = -b)
 * Exit 0, 1 when a task failed, 2 on bad usage.
 */
#include <sched.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

static double
now_s(void)
{
    struct timespec ts;

    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double) ts.tv_sec + (double) ts.tv_nsec * 1e-9;
}

static int
pin(int cpu)
{
    cpu_set_t set;

    CPU_ZERO(&set);
    CPU_SET(cpu, &set);
    return sched_setaffinity(0, sizeof(set), &set);
}

/* COUNT round trips between this task on @ca and a child on @cb; the
 * time in seconds, or -1. */
static double
run(long count, int ca, int cb)
{
    int ping[2], pong[2], status;
    char byte = 0;
    double t0, t;
    pid_t pid;

    if (pipe(ping) < 0 || pipe(pong) < 0)
        return -1;
    pid = fork();
    if (pid < 0)
        return -1;
    if (pid == 0) {
        if (pin(cb) < 0)
            _exit(1);
        for (long i = 0; i < count; i++)
            if (read(ping[0], &byte, 1) != 1 || write(pong[1], &byte, 1) != 1)
                _exit(1);
        _exit(0);
    }
    if (pin(ca) < 0) {
        kill(pid, SIGKILL);
        waitpid(pid, &status, 0);
        return -1;
    }
    t0 = now_s();
    for (long i = 0; i < count; i++)
        if (write(ping[1], &byte, 1) != 1 || read(pong[0], &byte, 1) != 1) {
            kill(pid, SIGKILL);
            break;
        }
    t = now_s() - t0;
    close(ping[0]);
    close(ping[1]);
    close(pong[0]);
    close(pong[1]);
    if (waitpid(pid, &status, 0) < 0 || !WIFEXITED(status) || WEXITSTATUS(status) != 0)
        return -1;
    return t;
}

int
main(int argc, char **argv)
{
    long count = 1000000, ncpu = sysconf(_SC_NPROCESSORS_ONLN);
    int a = 0, b = 1, opt, rc = 0;
    char *end;
    double t;

    while ((opt = getopt(argc, argv, "c:a:b:")) != -1) {
        switch (opt) {
        case 'c':
            count = strtol(optarg, &end, 10);
            if (*end || count < 1 || count > 1000000000)
                goto usage;
            break;
        case 'a':
        case 'b': {
            long v = strtol(optarg, &end, 10);

            if (*end || v < 0 || v >= CPU_SETSIZE)
                goto usage;
            *(opt == 'a' ? &a : &b) = (int) v;
            break;
        }
        default:
            goto usage;
        }
    }
    if (optind != argc)
        goto usage;
    t = run(count, a, a);
    if (t < 0) {
        fprintf(stderr, "rtvirt-pipe: same-CPU run on CPU %d failed\n", a);
        rc = 1;
    } else {
        printf("pipe same cpus %d,%d roundtrips %ld seconds %.6f ns_per_roundtrip %.1f\n", a, a,
               count, t, t * 1e9 / (double) count);
    }
    if (a == b) {
        printf("pipe cross skipped: one CPU given (-a %d = -b %d)\n", a, b);
    } else if (ncpu < 2) {
        printf("pipe cross skipped: %ld CPU online\n", ncpu);
    } else if ((t = run(count, a, b)) < 0) {
        fprintf(stderr, "rtvirt-pipe: cross-CPU run on CPUs %d,%d failed\n", a, b);
        rc = 1;
    } else {
        printf("pipe cross cpus %d,%d roundtrips %ld seconds %.6f ns_per_roundtrip %.1f\n", a, b,
               count, t, t * 1e9 / (double) count);
    }
    fflush(stdout);
    return rc;

usage:
    fprintf(stderr, "usage: rtvirt-pipe [-c COUNT] [-a CPU] [-b CPU]\n");
    return 2;
}
