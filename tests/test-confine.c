/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * tests/test-confine.c: rtvirt's own threads on the housekeeping CPUs
 * (host/tune/confine.h), on this test's own process: three
 * threads that exist before the confinement and one created during it
 * all read back (sched_getaffinity of each TID) inside the housekeeping
 * set, and the original mask everywhere after the restore; a child
 * started while confined inherits the confinement, unless its runner was
 * given the probe's CPUs (rv_runner_set_child_cpus(): how rtvirt pert
 * starts on the CPU it measures).  Needs two
 * allowed CPUs; skips otherwise.  An empty set is refused.
 */
#include <errno.h>
#include <sched.h>
#include <string.h>
#include <unistd.h>
#include <glib.h>

#include "host/tune/confine.h"
#include "util/error.h"
#include "util/runner.h"

typedef struct {
    GMutex lock;
    GCond cond;
    bool stop;
    pid_t tid;
} Worker;

static gpointer
worker(gpointer data)
{
    Worker *w = data;

    g_mutex_lock(&w->lock);
    w->tid = gettid();
    g_cond_broadcast(&w->cond);
    while (!w->stop)
        g_cond_wait(&w->cond, &w->lock);
    g_mutex_unlock(&w->lock);
    return NULL;
}

static GThread *
start(Worker *w)
{
    GThread *t = g_thread_new("test-worker", worker, w);

    g_mutex_lock(&w->lock);
    while (!w->tid)
        g_cond_wait(&w->cond, &w->lock);
    g_mutex_unlock(&w->lock);
    return t;
}

static void
stop(Worker *w, GThread *t)
{
    g_mutex_lock(&w->lock);
    w->stop = true;
    g_cond_broadcast(&w->cond);
    g_mutex_unlock(&w->lock);
    g_thread_join(t);
}

/* this thread's allowed CPUs */
static void
allowed(RvCpuSet *ret)
{
    cpu_set_t *m = CPU_ALLOC(RV_CPUSET_MAX);

    g_assert_cmpint(sched_getaffinity(0, RV_CPUSET_MASK_SIZE, m), ==, 0);
    rv_cpuset_from_mask(m, ret);
    CPU_FREE(m);
}

/* the mask of @tid as a cpulist */
static char *
mask_of(pid_t tid)
{
    cpu_set_t m;
    RvCpuSet s;

    g_assert_cmpint(sched_getaffinity(tid, sizeof(m), &m), ==, 0);
    rv_cpuset_zero(&s);
    for (unsigned c = 0; c < CPU_SETSIZE; c++)
        if (CPU_ISSET(c, &m))
            rv_cpuset_set(&s, c);
    return rv_cpulist_format(&s);
}

static void
test_confine_threads(void)
{
    RvCpuSet orig, hk;
    Worker w[4] = { 0 };
    GThread *t[4];
    RvHostConfine c;
    g_autoptr(GError) err = NULL;
    g_autofree char *orig_l = NULL;
    int first;

    allowed(&orig);
    if (rv_cpuset_count(&orig) < 2) {
        g_test_skip("needs two allowed CPUs");
        return;
    }
    orig_l = rv_cpulist_format(&orig);
    first = rv_cpuset_next(&orig, -1);
    rv_cpuset_zero(&hk);
    rv_cpuset_set(&hk, (unsigned) first);      /* housekeeping: the first allowed CPU */
    for (int i = 0; i < 3; i++) {
        g_mutex_init(&w[i].lock);
        g_cond_init(&w[i].cond);
        t[i] = start(&w[i]);
    }
    g_assert_cmpint(rv_host_confine_self(&hk, &c, &err), ==, 0);
    g_assert_no_error(err);
    g_assert_cmpuint(c.threads, >=, 4);        /* main + 3 workers (GLib may add its own) */
    g_assert_cmpuint(c.confined + c.gone, ==, c.threads);
    g_assert_null(c.stray);
    g_assert_true(rv_cpuset_equal(&c.original, &orig));
    /* a thread created now inherits the confinement */
    g_mutex_init(&w[3].lock);
    g_cond_init(&w[3].cond);
    t[3] = start(&w[3]);
    for (int i = 0; i < 4; i++) {
        g_autofree char *l = mask_of(w[i].tid);
        g_autofree char *want = g_strdup_printf("%d", first);

        g_assert_cmpstr(l, ==, want);
    }
    {
        g_autofree char *l = mask_of(0);
        g_autofree char *want = g_strdup_printf("%d", first);

        g_assert_cmpstr(l, ==, want);
    }
    rv_host_confine_restore(&c);
    for (int i = 0; i < 4; i++) {
        g_autofree char *l = mask_of(w[i].tid);

        g_assert_cmpstr(l, ==, orig_l);
    }
    {
        g_autofree char *l = mask_of(0);

        g_assert_cmpstr(l, ==, orig_l);
    }
    rv_host_confine_clear(&c);
    for (int i = 0; i < 4; i++) {
        stop(&w[i], t[i]);
        g_mutex_clear(&w[i].lock);
        g_cond_clear(&w[i].cond);
    }
}

/* Cpus_allowed_list of a child started by @runner */
static char *
child_mask(RvRunner *runner)
{
    const char *argv[] = { "sed", "-n", "s/^Cpus_allowed_list:[[:space:]]*//p", "/proc/self/status",
                           NULL };
    g_auto(RvRunResult) res = { 0 };
    g_autoptr(GError) err = NULL;

    g_assert_cmpint(rv_runner_run(runner, argv, NULL, 10000, 4096, &res, &err), ==, 0);
    g_assert_no_error(err);
    return g_strdup(g_strstrip(res.out));
}

static void
test_confine_children(void)
{
    RvCpuSet orig, hk;
    RvHostConfine c;
    g_autoptr(GError) err = NULL;
    g_autoptr(RvRunner) runner = rv_runner_new(false);
    g_autofree char *orig_l = NULL, *hk_l = NULL, *a = NULL, *b = NULL, *d = NULL;

    allowed(&orig);
    if (rv_cpuset_count(&orig) < 2) {
        g_test_skip("needs two allowed CPUs");
        return;
    }
    rv_cpuset_zero(&hk);
    rv_cpuset_set(&hk, (unsigned) rv_cpuset_next(&orig, -1));
    orig_l = rv_cpulist_format(&orig);
    hk_l = rv_cpulist_format(&hk);
    g_assert_cmpint(rv_host_confine_self(&hk, &c, &err), ==, 0);
    a = child_mask(runner);                     /* inherits the confinement */
    rv_runner_set_child_cpus(runner, &orig);
    b = child_mask(runner);                     /* starts on the probe's CPUs */
    rv_runner_set_child_cpus(runner, NULL);
    d = child_mask(runner);
    rv_host_confine_restore(&c);
    rv_host_confine_clear(&c);
    g_assert_cmpstr(a, ==, hk_l);
    g_assert_cmpstr(b, ==, orig_l);
    g_assert_cmpstr(d, ==, hk_l);
}

static void
test_confine_empty(void)
{
    RvCpuSet none;
    RvHostConfine c;
    g_autoptr(GError) err = NULL;

    rv_cpuset_zero(&none);
    g_assert_cmpint(rv_host_confine_self(&none, &c, &err), ==, -EINVAL);
    g_assert_error(err, RV_ERROR, RV_ERROR_INVALID);
    g_assert_nonnull(strstr(err->message, "no housekeeping CPU"));
    rv_host_confine_clear(&c);
}

int
main(int argc, char **argv)
{
    g_test_init(&argc, &argv, NULL);
    g_test_add_func("/confine/threads", test_confine_threads);
    g_test_add_func("/confine/children", test_confine_children);
    g_test_add_func("/confine/empty", test_confine_empty);
    return g_test_run();
}
