/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * tests/testutil.h: what the GLib unit tests (tests/test-*.c) share: where
 * the repository, the build and tests/data/cases are (RV_TOP, RV_BUILD,
 * RV_CASES as `make check` sets them), fixture paths, removing a scratch
 * tree, golden-file comparison (RV_REGENERATE=1 rewrites the golden file),
 * writing fixture files, and loading a topology case or a host or guest
 * profile.
 *
 * Header-only (static inline): the Makefile links each tests/test-*.c alone
 * with librtvirt.a.
 */
#pragma once

#include <errno.h>
#include <ftw.h>
#include <stdbool.h>
#include <stdio.h>
#include <string.h>

#include <glib.h>

#include "guest/profile.h"
#include "host/profile/profile.h"
#include "host/facts/topology.h"

/* The repository: RV_TOP, or "." when a test runs by hand from there. */
static inline const char *
rv_test_top_dir(void)
{
    const char *d = g_getenv("RV_TOP");
    return d ? d : ".";
}

/* The real-world fixtures (each with its .source.txt): RV_CASES, or
 * tests/data/cases of the tree. */
static inline const char *
rv_test_cases_dir(void)
{
    static char *in_tree;
    const char *d = g_getenv("RV_CASES");

    if (d)
        return d;
    if (!in_tree)
        in_tree = g_build_filename(rv_test_top_dir(), "tests", "data", "cases", NULL);
    return in_tree;
}

/* The build directory holding the rtvirt binary: RV_BUILD, or "build". */
static inline const char *
rv_test_build_dir(void)
{
    const char *d = g_getenv("RV_BUILD");
    return d ? d : "build";
}

/* RV_TOP/tests/data/@sub/@name (transfer full). */
/* A fact file's CPU id or index ("FILE:LINE" in @where): decimal, below
 * RV_CPUSET_MAX, or the test fails naming the line. */
static inline unsigned
rv_test_fact_uint(const char *where, const char *s)
{
    char *end;
    guint64 v = g_ascii_strtoull(s, &end, 10);

    if (!*s || *end || v >= RV_CPUSET_MAX)
        g_test_message("%s: '%s' is no CPU or index", where, s);
    g_assert_true(*s && !*end && v < RV_CPUSET_MAX);
    return (unsigned) v;
}

static inline char *
rv_test_data_path(const char *sub, const char *name)
{
    return g_build_filename(rv_test_top_dir(), "tests", "data", sub, name, NULL);
}

/* The whole of @path, asserting that it could be read (transfer full). */
static inline char *
rv_test_read_file(const char *path)
{
    g_autoptr(GError) err = NULL;
    char *s = NULL;

    g_file_get_contents(path, &s, NULL, &err);
    g_assert_no_error(err);
    return s;
}

/* Writes @contents to @dir/@rel, creating the directories above it;
 * asserts success. */
static inline void
rv_test_put(const char *dir, const char *rel, const char *contents)
{
    g_autofree char *path = g_build_filename(dir, rel, NULL);
    g_autofree char *parent = g_path_get_dirname(path);
    g_autoptr(GError) err = NULL;

    g_assert_cmpint(g_mkdir_with_parents(parent, 0755), ==, 0);
    g_file_set_contents(path, contents, -1, &err);
    g_assert_no_error(err);
}

static inline int
rv_test_rm_entry(const char *path, const struct stat *st, int flag, struct FTW *ftw)
{
    (void) st;
    (void) flag;
    (void) ftw;
    return remove(path);
}

/* Removes the tree @path (links are removed, not followed); asserts that
 * everything went, a missing @path counting as gone (like rm -rf). */
static inline void
rv_test_rm_rf(const char *path)
{
    if (nftw(path, rv_test_rm_entry, 16, FTW_DEPTH | FTW_PHYS) < 0) {
        int e = errno;

        if (e != ENOENT)
            g_error("Failed to remove '%s': %s", path, g_strerror(e));
    }
}

static inline int
rv_test_cmp_names(gconstpointer a, gconstpointer b)
{
    return strcmp(*(char * const *) a, *(char * const *) b);
}

/* The case files of tests/data/cases/@sub (not their .source.txt notes),
 * sorted by name; asserts that the directory can be read (transfer full,
 * elements g_free). */
static inline GPtrArray *
rv_test_case_names(const char *sub)
{
    g_autofree char *dir = g_build_filename(rv_test_cases_dir(), sub, NULL);
    g_autoptr(GDir) d = g_dir_open(dir, 0, NULL);
    GPtrArray *names = g_ptr_array_new_with_free_func(g_free);

    g_assert_nonnull(d);
    for (const char *n; (n = g_dir_read_name(d));)
        if (!g_str_has_suffix(n, ".source.txt"))
            g_ptr_array_add(names, g_strdup(n));
    g_ptr_array_sort(names, rv_test_cmp_names);
    return names;
}

/* Asserts that every case file of tests/data/cases/@sub is one of the
 * @n_covered names in @covered (a test exists for it). */
static inline void
rv_test_assert_cases_covered(const char *sub, const char *const *covered, size_t n_covered)
{
    g_autoptr(GPtrArray) names = rv_test_case_names(sub);

    for (guint k = 0; k < names->len; k++) {
        const char *n = names->pdata[k];
        bool found = false;

        for (size_t i = 0; i < n_covered; i++)
            found = found || strcmp(covered[i], n) == 0;
        if (!found)
            g_test_message("%s case without a test: %s", sub, n);
        g_assert_true(found);
    }
}

/* Whether golden files are to be rewritten: RV_REGENERATE=1. */
static inline bool
rv_test_regenerate(void)
{
    return g_strcmp0(g_getenv("RV_REGENERATE"), "1") == 0;
}

/* Compares @got with the golden file @path, or writes @got there when
 * RV_REGENERATE=1 (review such diffs line by line).  A missing golden file
 * fails the test and says how to write it. */
static inline void
rv_test_compare_expected(const char *path, const char *got)
{
    g_autofree char *expected = NULL;
    g_autoptr(GError) err = NULL;

    if (rv_test_regenerate()) {
        g_file_set_contents(path, got, -1, &err);
        g_assert_no_error(err);
        g_test_message("regenerated %s", path);
        return;
    }
    if (!g_file_get_contents(path, &expected, NULL, &err))
        g_error("%s: %s (RV_REGENERATE=1 writes it)", path, err->message);
    if (strcmp(expected, got) != 0)
        g_printerr("--- %s\n+++ actual\n%s", path, got);
    g_assert_cmpstr(got, ==, expected);
}

/* Loads tests/data/cases/topology/@name by its format
 * (rv_host_topology_load_file()), asserting success (transfer full). */
static inline RvTopology *
rv_test_load_topology_case(const char *name)
{
    g_autofree char *path = g_build_filename(rv_test_cases_dir(), "topology", name, NULL);
    g_autoptr(GError) err = NULL;
    RvTopology *t = NULL;
    int r;

    r = rv_host_topology_load_file(path, &t, &err);
    g_assert_no_error(err);
    g_assert_cmpint(r, ==, 0);
    return t;
}

/* Loads the host profile RV_TOP/@rel, asserting success (transfer full). */
static inline RvHostProfile *
rv_test_load_host_profile(const char *rel)
{
    g_autofree char *path = g_build_filename(rv_test_top_dir(), rel, NULL);
    g_autoptr(GError) err = NULL;
    RvHostProfile *p = NULL;

    g_assert_cmpint(rv_host_profile_load(path, &p, &err), ==, 0);
    g_assert_no_error(err);
    return p;
}

/* Loads the guest profile RV_TOP/@rel, asserting success (transfer full). */
static inline RvGuestProfile *
rv_test_load_guest_profile(const char *rel)
{
    g_autofree char *path = g_build_filename(rv_test_top_dir(), rel, NULL);
    g_autoptr(GError) err = NULL;
    RvGuestProfile *p = NULL;

    g_assert_cmpint(rv_guest_profile_load(path, &p, &err), ==, 0);
    g_assert_no_error(err);
    return p;
}
