/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * results/cyclictest-args.c: what a cyclictest or oslat command line asked
 * for (see cyclictest.h), read the way rt-tests 2.x process_options()
 * reads its argv.
 */
#include <errno.h>
#include <string.h>

#include "results/cyclictest.h"
#include "results/cyclictest-priv.h"
#include "util/error.h"

void
rv_result_cyclictest_args_clear(RvCyclictestArgs *a)
{
    if (!a)
        return;
    g_free(a->priority_arg);
    g_free(a->affinity_list);
    g_free(a->main_affinity);
    g_free(a->taskset_list);
    g_free(a->policy);
    g_free(a->tool);
    g_free(a->mode);
    memset(a, 0, sizeof(*a));
}

/* atoi() as cyclictest applies it: leading digits, else 0 */
static int
args_atoi(const char *s)
{
    guint64 v = 0;

    if (!s || !g_ascii_isdigit(*s))
        return 0;
    while (g_ascii_isdigit(*s) && v < 100000000)
        v = v * 10 + (guint64) (*s++ - '0');
    return (int) v;
}

/* One option of interest with its value (NULL: none). */
static void
args_set(RvCyclictestArgs *a, const char *opt, const char *val)
{
    if (g_str_equal(opt, "p") || g_str_equal(opt, "priority")) {
        a->priority = args_atoi(val);
        g_free(a->priority_arg);
        a->priority_arg = g_strdup(val ? val : "");
    } else if (g_str_equal(opt, "t") || g_str_equal(opt, "threads")) {
        a->threads = val ? args_atoi(val) : 0;
    } else if (g_str_equal(opt, "a") || g_str_equal(opt, "affinity")) {
        a->affinity = TRUE;
        g_free(a->affinity_list);
        a->affinity_list = g_strdup(val);
    } else if (g_str_equal(opt, "mainaffinity")) {
        g_free(a->main_affinity);
        a->main_affinity = g_strdup(val);
    } else if (g_str_equal(opt, "S") || g_str_equal(opt, "smp")) {
        a->smp = TRUE;
    } else if (g_str_equal(opt, "i") || g_str_equal(opt, "interval")) {
        a->interval_us = args_atoi(val);
    } else if (g_str_equal(opt, "policy")) {
        g_free(a->policy);
        a->policy = g_strdup(val);
    } else if (g_str_equal(opt, "h") || g_str_equal(opt, "H") ||
               g_str_equal(opt, "histogram") || g_str_equal(opt, "histofall")) {
        a->histogram = args_atoi(val);
    } else if (g_str_equal(opt, "m") || g_str_equal(opt, "mlockall")) {
        a->mlockall = TRUE;
    } else if (g_str_equal(opt, "D") || g_str_equal(opt, "duration")) {
        a->duration_s = rv_result_args_seconds(val);
    } else if (g_str_equal(opt, "l") || g_str_equal(opt, "loops")) {
        a->loops = val && g_ascii_isdigit(*val) ? args_atoi(val) : -1;
    } else if (g_str_equal(opt, "b") || g_str_equal(opt, "breaktrace")) {
        a->breaktrace_us = val && g_ascii_isdigit(*val) ? args_atoi(val) : -1;
    }
}

double
rv_result_args_seconds(const char *s)
{
    guint64 v = 0;
    double mult = 1;

    if (!s || !g_ascii_isdigit(*s))
        return -1;
    while (g_ascii_isdigit(*s) && v < 1000000000)
        v = v * 10 + (guint64) (*s++ - '0');
    switch (g_ascii_tolower(*s)) {
    case '\0': case 's': mult = 1; break;
    case 'm': mult = 60; break;
    case 'h': mult = 3600; break;
    case 'd': mult = 86400; break;
    case 'w': mult = 7 * 86400; break;
    default: return -1;
    }
    return (double) v * mult;
}

/* A latency in us as rtla and hwlatdetect take it: "40", "40us", "2ms". */
static gint64
args_us(const char *s)
{
    guint64 v = 0;

    if (!s || !g_ascii_isdigit(*s))
        return -1;
    while (g_ascii_isdigit(*s) && v < 1000000000)
        v = v * 10 + (guint64) (*s++ - '0');
    if (g_str_equal(s, "") || g_str_equal(s, "us"))
        return (gint64) v;
    if (g_str_equal(s, "ms"))
        return (gint64) v * 1000;
    if (g_str_equal(s, "s"))
        return (gint64) v * 1000000;
    if (g_str_equal(s, "ns"))
        return (gint64) (v / 1000);
    return -1;
}

/* rtla -P/--priority "o:N", "r:N", "f:N", "d:RUNTIME:PERIOD" (rtla
 * src/utils.c parse_prio()) */
static void
args_rtla_prio(RvCyclictestArgs *a, const char *val)
{
    const char *pol;

    if (!val || !val[0] || val[1] != ':')
        return;
    switch (g_ascii_tolower(val[0])) {
    case 'o': pol = "other"; break;
    case 'r': pol = "rr"; break;
    case 'f': pol = "fifo"; break;
    case 'd': pol = "deadline"; break;
    default: return;
    }
    g_free(a->policy);
    a->policy = g_strdup(pol);
    g_free(a->priority_arg);
    a->priority_arg = g_strdup(val + 2);
    a->priority = g_ascii_tolower(val[0]) == 'd' ? -1 : args_atoi(val + 2);
}

/* One option of oslat, rtla, hwlatdetect or stress-ng, by its long or
 * short name, with its value. */
static void
args_set_other(RvCyclictestArgs *a, const char *opt, const char *val)
{
    const char *t = a->tool;
    gboolean timerlat = a->mode && g_str_has_prefix(a->mode, "timerlat");

    if (g_str_equal(t, "oslat")) {
        /* rt-tests src/oslat/oslat.c parse_options() */
        if (g_str_equal(opt, "c") || g_str_equal(opt, "cpu-list")) {
            a->affinity = TRUE;
            g_free(a->affinity_list);
            a->affinity_list = g_strdup(val);
        } else if (g_str_equal(opt, "C") || g_str_equal(opt, "cpu-main-thread")) {
            g_free(a->main_affinity);
            a->main_affinity = g_strdup(val);
        } else if (g_str_equal(opt, "f") || g_str_equal(opt, "rtprio")) {
            a->priority = args_atoi(val);
            g_free(a->priority_arg);
            a->priority_arg = g_strdup(val ? val : "");
            g_free(a->policy);
            a->policy = g_strdup("fifo");
        } else if (g_str_equal(opt, "D") || g_str_equal(opt, "duration")) {
            a->duration_s = rv_result_args_seconds(val);
        } else if (g_str_equal(opt, "T") || g_str_equal(opt, "trace-threshold")) {
            a->stop_us = args_us(val);
        }
    } else if (g_str_equal(t, "rtla")) {
        /* tools/tracing/rtla src/timerlat_top.c, timerlat_hist.c,
         * osnoise_top.c, osnoise_hist.c parse_args() */
        if (g_str_equal(opt, "c") || g_str_equal(opt, "cpus")) {
            a->affinity = TRUE;
            g_free(a->affinity_list);
            a->affinity_list = g_strdup(val);
        } else if (g_str_equal(opt, "H") || g_str_equal(opt, "house-keeping")) {
            g_free(a->main_affinity);
            a->main_affinity = g_strdup(val);
        } else if (g_str_equal(opt, "P") || g_str_equal(opt, "priority")) {
            args_rtla_prio(a, val);
        } else if (g_str_equal(opt, "d") || g_str_equal(opt, "duration")) {
            a->duration_s = rv_result_args_seconds(val);
        } else if (g_str_equal(opt, "a") || g_str_equal(opt, "auto") ||
                   g_str_equal(opt, "aa-only") ||
                   (timerlat && (g_str_equal(opt, "i") || g_str_equal(opt, "irq") ||
                                 g_str_equal(opt, "T") || g_str_equal(opt, "thread"))) ||
                   (!timerlat && (g_str_equal(opt, "s") || g_str_equal(opt, "stop") ||
                                  g_str_equal(opt, "S") || g_str_equal(opt, "stop-total")))) {
            /* timerlat -i/-T and osnoise -s/-S stop the session (timerlat's
             * -s is --stack, osnoise's -T a noise threshold) */
            gint64 us = args_us(val);
            if (us >= 0 && (a->stop_us < 0 || us < a->stop_us))
                a->stop_us = us;
        }
    } else if (g_str_equal(t, "hwlatdetect")) {
        /* rt-tests src/hwlatdetect/hwlatdetect.py argument parser */
        if (g_str_equal(opt, "threshold"))
            a->threshold_us = args_us(val);
        else if (g_str_equal(opt, "hardlimit"))
            a->hardlimit_us = args_us(val);
        else if (g_str_equal(opt, "duration"))
            a->duration_s = rv_result_args_seconds(val);
        else if (g_str_equal(opt, "cpu-list")) {
            a->affinity = TRUE;
            g_free(a->affinity_list);
            a->affinity_list = g_strdup(val);
        }
    } else if (g_str_equal(t, "stress-ng")) {
        if (g_str_equal(opt, "t") || g_str_equal(opt, "timeout"))
            a->duration_s = rv_result_args_seconds(val);
        else if (g_str_equal(opt, "cyclic-policy")) {
            g_free(a->policy);
            a->policy = g_strdup(val);
        } else if (g_str_equal(opt, "cyclic-prio"))
            a->priority = args_atoi(val);
        else if (g_str_equal(opt, "taskset")) {
            a->affinity = TRUE;
            g_free(a->affinity_list);
            a->affinity_list = g_strdup(val);
        }
    }
}

/* The options of the tools other than cyclictest, from word @i on:
 * --name=VALUE, --name VALUE and short options with their value attached
 * or as the next word, by each tool's table of options that take one. */
static void
args_parse_other(RvCyclictestArgs *a, char **argv, int argc, int i)
{
    /* short options taking a value, per tool */
    const char *short_req = g_str_equal(a->tool, "oslat") ? "bcCDfmTw"
                          : g_str_equal(a->tool, "rtla") ? "acdeEHiIpPrsStTb"
                          : g_str_equal(a->tool, "stress-ng") ? "t" : "";

    for (; i < argc; i++) {
        const char *w = argv[i];

        if (g_str_equal(w, "--"))
            break;
        if (g_str_has_prefix(w, "--")) {
            g_autofree char *name = g_strdup(w + 2);
            char *eq = strchr(name, '=');
            const char *val = NULL;

            if (eq) {
                *eq = '\0';
                val = eq + 1;
            } else if (i + 1 < argc && argv[i + 1][0] != '-') {
                val = argv[++i];
            }
            args_set_other(a, name, val);
            continue;
        }
        if (w[0] != '-' || w[1] == '\0' || g_str_equal(a->tool, "hwlatdetect"))
            continue;
        for (const char *c = w + 1; *c; c++) {
            char opt[2] = { *c, '\0' };

            if (strchr(short_req, *c)) {
                const char *val = c[1] ? c + 1 : i + 1 < argc ? argv[++i] : NULL;
                args_set_other(a, opt, val);
                break;
            }
            args_set_other(a, opt, NULL);
        }
    }
}

/* The program word: cyclictest, oslat, rtla (or its timerlat / osnoise /
 * hwnoise links), hwlatdetect, stress-ng; NULL for another word. */
static char *
args_program(const char *word)
{
    static const char *const progs[] = {
        "cyclictest", "oslat", "rtla", "hwlatdetect", "stress-ng", NULL,
    };
    g_autofree char *base = g_path_get_basename(word);

    if (g_strv_contains(progs, base))
        return g_steal_pointer(&base);
    if (g_str_equal(base, "timerlat") || g_str_equal(base, "osnoise") ||
        g_str_equal(base, "hwnoise"))
        return g_strdup("rtla");
    return NULL;
}

int
rv_result_cyclictest_args_parse(const char *cmdline, RvCyclictestArgs *ret, GError **error)
{
    /* rt-tests 2.x cyclictest: options taking a value, and the two whose
     * value is optional (a::, t::) */
    static const char short_req[] = "AbcdDFhHilop";
    static const char short_opt[] = "at";
    static const char *const long_req[] = {
        "priority", "interval", "mainaffinity", "policy", "histogram", "histofall",
        "duration", "distance", "breaktrace", "loops", "latency", "clock", "json",
        "spike", "spike-nodes", "tracemark", NULL,
    };
    g_auto(GStrv) argv = NULL;
    int argc = 0, i = 0;

    memset(ret, 0, sizeof(*ret));
    ret->priority = ret->threads = ret->interval_us = -1;
    ret->duration_s = -1;
    ret->loops = ret->breaktrace_us = ret->stop_us = ret->threshold_us = ret->hardlimit_us = -1;
    if (!g_shell_parse_argv(cmdline, &argc, &argv, NULL)) {
        argv = g_strsplit_set(cmdline, " \t", -1);
        argc = (int) g_strv_length(argv);
    }
    /* words before the program: taskset -c LIST, cgexec, sudo, chrt ... */
    for (; i < argc; i++) {
        g_autofree char *prog = args_program(argv[i]);

        if (prog) {
            g_autofree char *base = g_path_get_basename(argv[i]);

            ret->tool = g_steal_pointer(&prog);
            if (g_str_equal(ret->tool, "rtla")) {
                /* "rtla timerlat hist", "timerlat top", "osnoise" (top) */
                const char *tracer = g_str_equal(base, "rtla") ? NULL : base;
                if (!tracer && i + 1 < argc && argv[i + 1][0] != '-')
                    tracer = argv[++i];
                if (tracer) {
                    const char *how = i + 1 < argc && (g_str_equal(argv[i + 1], "top") ||
                                                       g_str_equal(argv[i + 1], "hist"))
                                      ? argv[++i] : "top";
                    ret->mode = g_strdup_printf("%s %s", tracer, how);
                    if (g_str_equal(tracer, "timerlat")) {
                        /* timerlat's threads run at FIFO 95 unless -P */
                        ret->policy = g_strdup("fifo");
                        ret->priority = 95;
                    }
                }
            }
            break;
        }
        if ((g_str_equal(argv[i], "-c") || g_str_equal(argv[i], "--cpu-list")) &&
            i + 1 < argc && i > 0 && strstr(argv[i - 1], "taskset")) {
            g_free(ret->taskset_list);
            ret->taskset_list = g_strdup(argv[++i]);
        }
    }
    if (!ret->tool) {
        rv_result_cyclictest_args_clear(ret);
        return rv_error_set(error, RV_ERROR_INVALID, EINVAL,
                            "'%s' is not a cyclictest, oslat, rtla, hwlatdetect or "
                            "stress-ng command line", cmdline);
    }
    if (!g_str_equal(ret->tool, "cyclictest")) {
        args_parse_other(ret, argv, argc, i + 1);
        return 0;
    }
    for (i++; i < argc; i++) {
        const char *w = argv[i];

        if (g_str_equal(w, "--"))
            break;
        if (g_str_has_prefix(w, "--")) {
            g_autofree char *name = g_strdup(w + 2);
            char *eq = strchr(name, '=');
            const char *val = NULL;

            if (eq) {
                *eq = '\0';
                val = eq + 1;
            } else if (g_strv_contains(long_req, name) && i + 1 < argc) {
                val = argv[++i];
            } else if ((g_str_equal(name, "affinity") || g_str_equal(name, "threads")) &&
                       i + 1 < argc && g_ascii_isdigit(argv[i + 1][0])) {
                val = argv[++i];
            }
            if (g_str_equal(name, "prio"))
                args_set(ret, "priority", val);
            else
                args_set(ret, name, val);
            continue;
        }
        if (w[0] != '-' || w[1] == '\0')
            continue;
        /* a bundle of short options, getopt's way */
        for (const char *c = w + 1; *c; c++) {
            char opt[2] = { *c, '\0' };

            if (strchr(short_req, *c)) {
                const char *val = c[1] ? c + 1 : i + 1 < argc ? argv[++i] : NULL;
                args_set(ret, opt, val);
                break;
            }
            if (strchr(short_opt, *c)) {
                const char *val = c[1] ? c + 1
                                : i + 1 < argc && g_ascii_isdigit(argv[i + 1][0]) ? argv[++i]
                                : NULL;
                args_set(ret, opt, val);
                break;
            }
            args_set(ret, opt, NULL);
        }
    }
    ret->histogram = ret->histogram > 0 ? ret->histogram : 0;
    return 0;
}
