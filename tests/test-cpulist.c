/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * tests/test-cpulist.c: the kernel's cpulist syntax and hex masks, from
 * Documentation/admin-guide/kernel-parameters.rst "cpu lists" and
 * tests/data/cases/cmdline/kernel-doc-cpulist-syntax-examples.txt.
 */
#include <errno.h>
#include <string.h>

#include "util/cpulist.h"
#include "util/error.h"

typedef struct {
    const char *in;
    unsigned nr_cpu_ids;
    int ret;            /* 0, -EINVAL or -ERANGE */
    const char *canon;  /* expected canonical cpulist when ret == 0 */
} Case;

static const Case cases[] = {
    { "", 4, 0, "" },
    { "0", 4, 0, "0" },
    { "0-3", 4, 0, "0-3" },
    { "1,2,10-20", 32, 0, "1-2,10-20" },
    { "20,21,22,23", 32, 0, "20-23" },
    { "16-N", 32, 0, "16-31" },
    { "16-N", 4, -EINVAL, NULL },       /* doc: becomes 16-3, rejected */
    { "all", 32, 0, "0-31" },
    { "ALL", 8, 0, "0-7" },
    { "0-N", 32, 0, "0-31" },
    { "N", 8, 0, "7" },
    { "0-7:2/4", 8, 0, "0-1,4-5" },
    { "1-10,29-38", 80, 0, "1-10,29-38" },
    { "1-23,25-47,49-71,73-95", 96, 0, "1-23,25-47,49-71,73-95" },
    { "0-9\n", 16, 0, "0-9" },
    { " 2-3 ", 4, 0, "2-3" },
    /* doc example: the final item is CPUs 100,101,125,126,... */
    { "1,2,10-20,100-2000:2/25", 2048, 0, NULL },
    { "1,2,10-20,100-2000:2/25", 32, -ERANGE, NULL },
    { "3-1", 8, -EINVAL, NULL },
    { "0-7:3/2", 8, -EINVAL, NULL },
    { "0-7:0/2", 8, -EINVAL, NULL },
    { "0-7:1/0", 8, -EINVAL, NULL },
    { "0-", 8, -EINVAL, NULL },
    { "a", 8, -EINVAL, NULL },
    { "1,,2", 8, -EINVAL, NULL },
    { "1,", 8, -EINVAL, NULL },
    { "8", 8, -ERANGE, NULL },
    { "N", 0, -EINVAL, NULL },
    { "99999999999", 0, -ERANGE, NULL },
};

static void
test_cases(void)
{
    for (size_t i = 0; i < G_N_ELEMENTS(cases); i++) {
        const Case *c = &cases[i];
        g_autoptr(GError) err = NULL;
        RvCpuSet set;
        int r = rv_cpulist_parse(c->in, c->nr_cpu_ids, &set, &err);

        g_test_message("cpulist '%s' nr_cpu_ids=%u -> %d", c->in, c->nr_cpu_ids, r);
        g_assert_cmpint(r, ==, c->ret);
        if (r == 0) {
            g_assert_no_error(err);
            if (c->canon) {
                g_autofree char *s = rv_cpulist_format(&set);
                g_assert_cmpstr(s, ==, c->canon);
            }
        } else {
            g_assert_error(err, RV_ERROR, RV_ERROR_INVALID);
            /* the message names the value */
            g_autofree char *want = g_strstrip(g_strdup(c->in));
            g_assert_nonnull(strstr(err->message, want));
        }
    }
}

static void
test_doc_group_example(void)
{
    RvCpuSet set;
    g_autoptr(GError) err = NULL;

    g_assert_cmpint(rv_cpulist_parse("100-2000:2/25", 2048, &set, &err), ==, 0);
    g_assert_true(rv_cpuset_isset(&set, 100));
    g_assert_true(rv_cpuset_isset(&set, 101));
    g_assert_false(rv_cpuset_isset(&set, 102));
    g_assert_true(rv_cpuset_isset(&set, 125));
    g_assert_true(rv_cpuset_isset(&set, 126));
    g_assert_true(rv_cpuset_isset(&set, 150));
    g_assert_false(rv_cpuset_isset(&set, 99));
    /* 1901 CPUs in 76 groups of 25 (the last partial), 2 used each */
    g_assert_cmpuint(rv_cpuset_count(&set), ==, 153);
}

static void
test_mask(void)
{
    RvCpuSet set, set2;
    g_autoptr(GError) err = NULL;
    g_autofree char *list = NULL, *mask = NULL;

    g_assert_cmpint(rv_cpumask_parse("00000000,0000ff0f\n", &set, &err), ==, 0);
    list = rv_cpulist_format(&set);
    g_assert_cmpstr(list, ==, "0-3,8-15");
    mask = rv_cpumask_format(&set, 64);
    g_assert_cmpstr(mask, ==, "00000000,0000ff0f");
    g_assert_cmpint(rv_cpumask_parse("1,00000000", &set2, &err), ==, 0);
    g_assert_true(rv_cpuset_isset(&set2, 32));
    g_assert_cmpuint(rv_cpuset_count(&set2), ==, 1);
    g_assert_cmpint(rv_cpumask_parse("fg", &set2, &err), ==, -EINVAL);
    g_assert_error(err, RV_ERROR, RV_ERROR_INVALID);
    g_clear_error(&err);
    g_assert_cmpint(rv_cpumask_parse("123456789", &set2, &err), ==, -EINVAL);
}

static void
test_set_ops(void)
{
    RvCpuSet a, b, r;

    g_assert_cmpint(rv_cpulist_parse("0-9", 0, &a, NULL), ==, 0);
    g_assert_cmpint(rv_cpulist_parse("5-14", 0, &b, NULL), ==, 0);
    rv_cpuset_and(&r, &a, &b);
    g_assert_cmpuint(rv_cpuset_count(&r), ==, 5);
    rv_cpuset_andnot(&r, &a, &b);
    g_assert_cmpint(rv_cpuset_last(&r), ==, 4);
    g_assert_true(rv_cpuset_intersects(&a, &b));
    g_assert_false(rv_cpuset_is_subset(&a, &b));
    rv_cpuset_or(&r, &a, &b);
    g_assert_true(rv_cpuset_is_subset(&a, &r));
    g_assert_cmpint(rv_cpuset_next(&r, 10), ==, 10);
    g_assert_cmpint(rv_cpuset_next(&r, 15), ==, -1);
    rv_cpuset_zero(&r);
    rv_cpuset_set(&r, RV_CPUSET_MAX - 1);
    g_assert_cmpint(rv_cpuset_last(&r), ==, RV_CPUSET_MAX - 1);
    g_assert_cmpint(rv_cpuset_next(&r, 0), ==, RV_CPUSET_MAX - 1);
}

/* RvCpuSet <-> glibc mask of RV_CPUSET_MAX CPUs (sched_setaffinity) */
static void
test_affinity_mask(void)
{
    RvCpuSet a, b;
    cpu_set_t *m;

    g_assert_cmpint(rv_cpulist_parse("0,2-3,1023,1024,8191", RV_CPUSET_MAX, &a, NULL), ==, 0);
    m = rv_cpuset_to_mask(&a);
    g_assert_cmpint(CPU_COUNT_S(RV_CPUSET_MASK_SIZE, m), ==, 6);
    g_assert_true(CPU_ISSET_S(8191, RV_CPUSET_MASK_SIZE, m));
    g_assert_false(CPU_ISSET_S(1, RV_CPUSET_MASK_SIZE, m));
    rv_cpuset_from_mask(m, &b);
    CPU_FREE(m);
    g_assert_true(rv_cpuset_equal(&a, &b));
}

int
main(int argc, char **argv)
{
    g_test_init(&argc, &argv, NULL);
    g_test_add_func("/cpulist/cases", test_cases);
    g_test_add_func("/cpulist/doc-group-example", test_doc_group_example);
    g_test_add_func("/cpulist/mask", test_mask);
    g_test_add_func("/cpulist/set-ops", test_set_ops);
    g_test_add_func("/cpulist/affinity-mask", test_affinity_mask);
    return g_test_run();
}
