/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * host/trace/pert.c: the spin loop of the perturbation probe.
 */
#include <errno.h>
#include <sched.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <time.h>
#include <unistd.h>
#if defined(__x86_64__) || defined(__i386__)
#include <x86intrin.h>
#define RV_HAVE_TSC 1
#endif

#include "util/cpulist.h"
#include "host/trace/pert.h"
#include "util/error.h"

void
rv_host_pert_setup_clear(RvPertSetup *setup)
{
    g_clear_pointer(&setup->clock_reason, g_free);
    g_clear_pointer(&setup->warnings, g_ptr_array_unref);
}

static inline guint64
raw_ns(void)
{
    struct timespec ts;

    clock_gettime(CLOCK_MONOTONIC_RAW, &ts);
    return (guint64) ts.tv_sec * 1000000000ull + ts.tv_nsec;
}

static inline guint64
read_clock(RvPertClock clock)
{
#ifdef RV_HAVE_TSC
    if (clock == RV_PERT_CLOCK_TSC)
        return __rdtsc();
#endif
    (void) clock;
    return raw_ns();
}

/* Decide the clock from /proc/cpuinfo flags and the current clocksource. */
static RvPertClock
choose_clock(RvRoot *root, bool force_raw, char **ret_reason)
{
#ifdef RV_HAVE_TSC
    g_autofree char *cpuinfo = NULL, *cs = NULL;
    bool constant = false, nonstop = false;

    if (force_raw) {
        *ret_reason = g_strdup("CLOCK_MONOTONIC_RAW asked for");
        return RV_PERT_CLOCK_MONOTONIC_RAW;
    }
    if (rv_host_root_read(root, "/proc/cpuinfo", &cpuinfo, NULL) >= 0) {
        g_auto(GStrv) lines = g_strsplit(cpuinfo, "\n", -1);

        for (guint i = 0; lines[i]; i++) {
            g_auto(GStrv) words = NULL;

            if (!g_str_has_prefix(lines[i], "flags"))
                continue;
            words = g_strsplit_set(lines[i], " \t", -1);
            for (guint j = 0; words[j]; j++) {
                constant |= strcmp(words[j], "constant_tsc") == 0;
                nonstop |= strcmp(words[j], "nonstop_tsc") == 0;
            }
            break;
        }
    }
    if (rv_host_root_read_value(root,
                                "/sys/devices/system/clocksource/clocksource0/current_clocksource",
                                &cs, NULL) < 0)
        cs = NULL;
    if (constant && nonstop && cs && strcmp(cs, "tsc") == 0) {
        *ret_reason = g_strdup("TSC: constant_tsc and nonstop_tsc, clocksource tsc");
        return RV_PERT_CLOCK_TSC;
    }
    *ret_reason = g_strdup_printf("CLOCK_MONOTONIC_RAW: TSC not usable (%s%s%s)",
                                  constant ? "" : "no constant_tsc ",
                                  nonstop ? "" : "no nonstop_tsc ",
                                  cs ? (strcmp(cs, "tsc") == 0 ? "" : "clocksource is not tsc")
                                     : "clocksource unknown");
    g_strchomp(*ret_reason);
    return RV_PERT_CLOCK_MONOTONIC_RAW;
#else
    (void) root;
    (void) force_raw;
    *ret_reason = g_strdup("CLOCK_MONOTONIC_RAW: no TSC on this architecture");
    return RV_PERT_CLOCK_MONOTONIC_RAW;
#endif
}

static int
cmp_u64(const void *a, const void *b)
{
    guint64 x = *(const guint64 *) a, y = *(const guint64 *) b;

    return x < y ? -1 : x > y;
}

/* Busy share of @cpu over 100 ms from /proc/stat ("cpuN user nice system
 * idle iowait irq softirq steal ..."), or -1 when unreadable. */
static double
cpu_busy_share(RvRoot *root, int cpu)
{
    guint64 busy[2] = { 0 }, total[2] = { 0 };
    g_autofree char *tag = g_strdup_printf("cpu%d ", cpu);

    for (int k = 0; k < 2; k++) {
        g_autofree char *stat = NULL;
        char *line;

        if (k)
            g_usleep(100000);
        if (rv_host_root_read(root, "/proc/stat", &stat, NULL) < 0)
            return -1;
        line = strstr(stat, tag);
        if (!line)
            return -1;
        g_auto(GStrv) f = g_strsplit_set(line, " \n", 12);
        for (int i = 1; i <= 8 && f[i]; i++) {
            guint64 v = g_ascii_strtoull(f[i], NULL, 10);

            total[k] += v;
            if (i != 4 && i != 5)  /* idle, iowait */
                busy[k] += v;
        }
    }
    if (total[1] <= total[0])
        return 0;
    return (double) (busy[1] - busy[0]) / (double) (total[1] - total[0]);
}

static void
add_placement_warnings(RvRoot *root, int cpu, GPtrArray *warnings)
{
    g_autofree char *iso = NULL, *sib = NULL, *path = NULL;
    RvCpuSet set;

    if (rv_host_root_read_value(root, "/sys/devices/system/cpu/isolated", &iso, NULL) >= 0 &&
        rv_cpulist_parse(iso, 0, &set, NULL) >= 0 && !rv_cpuset_isset(&set, cpu))
        g_ptr_array_add(warnings,
                        g_strdup_printf("CPU %d is not isolated (/sys/devices/system/cpu/isolated "
                                        "is '%s'): the scheduler may put other tasks on it",
                                        cpu, iso));
    path = g_strdup_printf("/sys/devices/system/cpu/cpu%d/topology/thread_siblings_list", cpu);
    if (rv_host_root_read_value(root, path, &sib, NULL) >= 0 &&
        rv_cpulist_parse(sib, 0, &set, NULL) >= 0) {
        rv_cpuset_clear(&set, cpu);
        rv_cpuset_foreach(s, &set) {
            double busy = cpu_busy_share(root, s);

            if (busy > 0.10)
                g_ptr_array_add(warnings,
                                g_strdup_printf("SMT sibling CPU %d of CPU %d was %.0f%% busy: "
                                                "it shares the core's execution units", s, cpu,
                                                busy * 100));
        }
    }
}

int
rv_host_pert_prepare(RvRoot *root, const RvPertOptions *opt, RvPertSetup *ret, GError **error)
{
    g_auto(RvPertSetup) setup = { 0 };
    g_autofree char *online_s = NULL;
    RvCpuSet online;
    cpu_set_t allowed, pin;
    enum { NSAMPLES = 200000 };
    g_autofree guint64 *samples = NULL;
    guint64 c0, c1, t0, t1, prev;
    int r;

    if (!rv_host_root_is_live(root))
        return rv_error_set(error, RV_ERROR_UNSUPPORTED, ENOTSUP,
                            "The perturbation probe needs the live host, not the root '%s'",
                            rv_host_root_path(root));
    if (opt->cpu < 0)
        return rv_error_set(error, RV_ERROR_INVALID, EINVAL, "Invalid CPU %d", opt->cpu);

    r = rv_host_root_read_value(root, "/sys/devices/system/cpu/online", &online_s, error);
    if (r < 0)
        return r;
    r = rv_cpulist_parse(online_s, 0, &online, error);
    if (r < 0)
        return r;
    if (!rv_cpuset_isset(&online, opt->cpu))
        return rv_error_set(error, RV_ERROR_INVALID, EINVAL,
                            "CPU %d is not online (online CPUs: %s)", opt->cpu, online_s);
    if (opt->cpu >= CPU_SETSIZE)
        return rv_error_set(error, RV_ERROR_INVALID, EINVAL,
                            "CPU %d is beyond what sched_setaffinity() takes here (%d)",
                            opt->cpu, CPU_SETSIZE);
    if (sched_getaffinity(0, sizeof(allowed), &allowed) < 0)
        return rv_error_set(error, RV_ERROR_FAILED, errno, "Failed to read the CPU affinity: %s",
                            g_strerror(errno));
    if (!CPU_ISSET(opt->cpu, &allowed)) {
        RvCpuSet a;
        g_autofree char *list = NULL;

        rv_cpuset_zero(&a);
        for (int c = 0; c < CPU_SETSIZE; c++)
            if (CPU_ISSET(c, &allowed))
                rv_cpuset_set(&a, c);
        list = rv_cpulist_format(&a);
        return rv_error_set(error, RV_ERROR_INVALID, EINVAL,
                            "CPU %d is not in this process's allowed CPUs (%s)", opt->cpu, list);
    }

    setup.warnings = g_ptr_array_new_with_free_func(g_free);
    add_placement_warnings(root, opt->cpu, setup.warnings);

    CPU_ZERO(&pin);
    CPU_SET(opt->cpu, &pin);
    if (sched_setaffinity(0, sizeof(pin), &pin) < 0)
        return rv_error_set(error, RV_ERROR_FAILED, errno, "Failed to pin to CPU %d: %s",
                            opt->cpu, g_strerror(errno));
    if (opt->fifo_prio > 0) {
        struct sched_param sp = { .sched_priority = opt->fifo_prio };

        if (sched_setscheduler(0, SCHED_FIFO, &sp) < 0)
            return rv_error_set(error, RV_ERROR_FAILED, errno,
                                "Failed to set SCHED_FIFO priority %d: %s", opt->fifo_prio,
                                g_strerror(errno));
    }
    if (mlockall(MCL_CURRENT | MCL_FUTURE) < 0)
        g_ptr_array_add(setup.warnings,
                        g_strdup_printf("mlockall failed (%s): page faults may show as "
                                        "perturbations", g_strerror(errno)));

    setup.clock = choose_clock(root, opt->force_raw_clock, &setup.clock_reason);

    /* TSC frequency against CLOCK_MONOTONIC_RAW, 100 ms of spinning */
    t0 = raw_ns();
    c0 = read_clock(setup.clock);
    do
        t1 = raw_ns();
    while (t1 - t0 < 100000000ull);
    c1 = read_clock(setup.clock);
    if (setup.clock == RV_PERT_CLOCK_TSC) {
        setup.tsc_hz = (double) (c1 - c0) * 1e9 / (double) (t1 - t0);
        setup.resolution_ns = 1e9 / setup.tsc_hz;
    } else {
        struct timespec res;

        clock_getres(CLOCK_MONOTONIC_RAW, &res);
        setup.resolution_ns = res.tv_sec * 1e9 + res.tv_nsec;
    }

    /* the loop's own cost: the same read-compare-store as the probe */
    samples = g_new(guint64, NSAMPLES);
    prev = read_clock(setup.clock);
    for (int i = 0; i < NSAMPLES; i++) {
        guint64 now = read_clock(setup.clock);

        samples[i] = now - prev;
        prev = now;
    }
    qsort(samples, NSAMPLES, sizeof(samples[0]), cmp_u64);
    {
        double scale = setup.clock == RV_PERT_CLOCK_TSC ? 1e9 / setup.tsc_hz : 1.0;

        setup.loop_min_ns = samples[0] * scale;
        setup.loop_ns = samples[NSAMPLES / 2] * scale;
    }
    if (setup.loop_ns <= 0)
        setup.loop_ns = setup.resolution_ns;
    if (opt->threshold_us > 0) {
        setup.threshold_us = opt->threshold_us;
    } else {
        setup.threshold_us = MAX(10 * setup.loop_ns / 1000.0, 0.25);
        setup.threshold_auto = true;
    }
    *ret = setup;
    memset(&setup, 0, sizeof(setup));
    return 0;
}

int
rv_host_pert_run(const RvPertSetup *setup, const RvPertOptions *opt, RvPertAccount *acct,
                 RvPertSecondFn fn, gpointer user_data)
{
    g_autoptr(GArray) done = g_array_sized_new(FALSE, TRUE, sizeof(RvPertSecond), 4);
    double per_ns = setup->clock == RV_PERT_CLOCK_TSC ? setup->tsc_hz / 1e9 : 1.0;
    guint64 thr = (guint64) (setup->threshold_us * 1000.0 * per_ns);
    guint64 window = (guint64) (1e9 * per_ns);
    guint64 duration = (guint64) ((double) opt->duration_ns * per_ns);
    guint64 start, end, next, prev;
    RvPertClock clock = setup->clock;

#define TO_NS(c) ((guint64) ((double) (c) / per_ns))
    start = read_clock(clock);
    end = start + duration;
    next = start + window;
    prev = start;
    for (;;) {
        guint64 now = read_clock(clock);
        guint64 d = now - prev;

        if (G_UNLIKELY(d > thr))
            rv_result_pert_add(acct, TO_NS(prev - start), TO_NS(d), done);
        prev = now;
        if (G_UNLIKELY(now >= next || now >= end || (opt->stop && *opt->stop))) {
            bool last = now >= end || (opt->stop && *opt->stop);

            rv_result_pert_advance(acct, TO_NS(MIN(now, end) - start), last, done);
            if (fn)
                for (guint i = 0; i < done->len; i++)
                    fn(&g_array_index(done, RvPertSecond, i), user_data);
            g_array_set_size(done, 0);
            if (last)
                break;
            while (next <= now)
                next += window;
            /* reporting is not a perturbation of the CPU under test */
            prev = read_clock(clock);
        }
    }
#undef TO_NS
    return 0;
}
