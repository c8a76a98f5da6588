/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * results/cyclictest-args.c: what a cyclictest or oslat command line asked
 * for (see cyclictest.h), read the way rt-tests 2.x process_options()
 * reads its argv.
 */
#include <errno.h>
#include <string.h>

#include "results/cyclictest.h"
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
    }
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
    if (!g_shell_parse_argv(cmdline, &argc, &argv, NULL)) {
        argv = g_strsplit_set(cmdline, " \t", -1);
        argc = (int) g_strv_length(argv);
    }
    /* words before the program: taskset -c LIST, cgexec, sudo, chrt ... */
    for (; i < argc; i++) {
        g_autofree char *base = g_path_get_basename(argv[i]);

        if (g_str_equal(base, "cyclictest") || g_str_equal(base, "oslat")) {
            ret->tool = g_steal_pointer(&base);
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
                            "'%s' is not a cyclictest or oslat command line", cmdline);
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
