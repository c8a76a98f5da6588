/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * util/finding.c: the finding model, its adder and its two renderers (see
 * util/finding.h).
 */
#include <errno.h>
#include <string.h>

#include "util/escape.h"
#include "util/finding.h"
#include "util/json.h"
#include "util/rules.h"

static const char *const level_names[RV_FINDING_N_LEVELS] = { "PASS", "NOTE", "WARN", "FAIL" };

const char *
rv_finding_level_name(RvFindingLevel level)
{
    return (unsigned) level < RV_FINDING_N_LEVELS ? level_names[level] : "?";
}

int
rv_finding_level_from_name(const char *name, RvFindingLevel *ret)
{
    for (unsigned l = 0; name && l < RV_FINDING_N_LEVELS; l++)
        if (g_ascii_strcasecmp(name, level_names[l]) == 0) {
            *ret = (RvFindingLevel) l;
            return 0;
        }
    return -EINVAL;
}

void
rv_finding_free(RvFinding *f)
{
    if (!f)
        return;
    g_free(f->id);
    g_free(f->message);
    g_free(f->where);
    g_free(f->fix);
    g_free(f->expected);
    g_free(f->actual);
    g_free(f);
}

RvFindings *
rv_findings_new(void)
{
    RvFindings *fs = g_new0(RvFindings, 1);

    fs->items = g_ptr_array_new_with_free_func((GDestroyNotify) rv_finding_free);
    return fs;
}

void
rv_findings_free(RvFindings *fs)
{
    if (!fs)
        return;
    g_ptr_array_unref(fs->items);
    g_free(fs);
}

/* RV_RULES_STRICT=1 (`make check`): an id the catalogue lacks, or a level
 * its line does not allow, aborts naming it, so that a test that reaches
 * the check fails. */
static void
check_rule(const char *id, RvFindingLevel level)
{
    const RvRule *r;

    if (g_strcmp0(g_getenv("RV_RULES_STRICT"), "1") != 0 || rv_rule_check(id, level))
        return;
    r = rv_rule_find(id);
    if (!r)
        g_error("finding id '%s' is not in the rule catalogue: add its line to util/rules.c", id);
    g_error("finding '%s' at level %s: its line in util/rules.c does not allow that level", id,
            rv_finding_level_name(level));
}

RvFinding *
rv_findings_addv(RvFindings *fs, RvFindingLevel level, const char *id, const RvCpuSet *cpus,
                 const char *expected, const char *actual, const char *fix, const char *fmt,
                 va_list ap)
{
    RvFinding *f = g_new0(RvFinding, 1);

    g_assert((unsigned) level < RV_FINDING_N_LEVELS);
    check_rule(id, level);
    f->level = level;
    f->id = g_strdup(id);
    f->message = g_strdup_vprintf(fmt, ap);
    f->fix = level == RV_FINDING_PASS ? NULL : g_strdup(fix);
    if (cpus) {
        f->has_cpus = true;
        f->cpus = *cpus;
    }
    f->expected = g_strdup(expected);
    f->actual = g_strdup(actual);
    g_ptr_array_add(fs->items, f);
    fs->counts[level]++;
    return f;
}

RvFinding *
rv_findings_add(RvFindings *fs, RvFindingLevel level, const char *id, const RvCpuSet *cpus,
                const char *expected, const char *actual, const char *fix, const char *fmt, ...)
{
    RvFinding *f;
    va_list ap;

    va_start(ap, fmt);
    f = rv_findings_addv(fs, level, id, cpus, expected, actual, fix, fmt, ap);
    va_end(ap);
    return f;
}

void
rv_finding_set_where(RvFinding *f, const char *fmt, ...)
{
    va_list ap;

    g_free(f->where);
    va_start(ap, fmt);
    f->where = g_strdup_vprintf(fmt, ap);
    va_end(ap);
}

RvFindingLevel
rv_findings_worst(const RvFindings *fs)
{
    for (int l = RV_FINDING_FAIL; l > RV_FINDING_PASS; l--)
        if (fs->counts[l])
            return (RvFindingLevel) l;
    return RV_FINDING_PASS;
}

const RvFinding *
rv_findings_find(const RvFindings *fs, const char *id)
{
    for (guint i = 0; i < fs->items->len; i++) {
        const RvFinding *f = fs->items->pdata[i];

        if (strcmp(f->id, id) == 0)
            return f;
    }
    return NULL;
}

static gint
by_level(gconstpointer a, gconstpointer b)
{
    const RvFinding *fa = *(RvFinding *const *) a, *fb = *(RvFinding *const *) b;

    return (int) fb->level - (int) fa->level;
}

void
rv_findings_sort_by_level(RvFindings *fs)
{
    /* g_ptr_array_sort() is a stable sort (GLib >= 2.32) */
    g_ptr_array_sort(fs->items, by_level);
}

/* One finding's block, unescaped. */
static void
format_one(GString *s, const RvFinding *f)
{
    g_string_append_printf(s, "%-4s  %s: %s\n", rv_finding_level_name(f->level), f->id,
                           f->message);
    if (f->where)
        g_string_append_printf(s, "      where: %s\n", f->where);
    if (f->expected && f->actual)
        g_string_append_printf(s, "      wanted: %s   found: %s\n", f->expected, f->actual);
    else if (f->expected)
        g_string_append_printf(s, "      wanted: %s\n", f->expected);
    if (f->fix && f->level != RV_FINDING_PASS)
        g_string_append_printf(s, "      fix: %s\n", f->fix);
}

void
rv_findings_format(GString *s, const RvFindings *fs, bool with_pass)
{
    GString *t = g_string_new(NULL);
    char *text;

    for (guint i = 0; i < fs->items->len; i++) {
        const RvFinding *f = fs->items->pdata[i];

        if (f->level == RV_FINDING_PASS && !with_pass)
            continue;
        format_one(t, f);
    }
    /* messages quote values read from hosts, guests and files */
    text = rv_escape_text(g_string_free(t, FALSE));
    g_string_append(s, text);
    g_free(text);
}

void
rv_findings_format_summary(GString *s, const char *verdict,
                           const unsigned counts[RV_FINDING_N_LEVELS], bool pass_listed)
{
    g_string_append_printf(s, "%s: %u fail, %u warn, %u note, %u pass%s\n", verdict,
                           counts[RV_FINDING_FAIL], counts[RV_FINDING_WARN],
                           counts[RV_FINDING_NOTE], counts[RV_FINDING_PASS],
                           pass_listed || !counts[RV_FINDING_PASS] ? "" : " (--verbose lists PASS)");
}

void
rv_findings_replace_in_fixes(RvFindings *fs, const char *from, const char *to)
{
    g_return_if_fail(from && *from && to);
    for (guint i = 0; i < fs->items->len; i++) {
        RvFinding *f = fs->items->pdata[i];
        g_auto(GStrv) parts = NULL;

        if (!f->fix || !strstr(f->fix, from))
            continue;
        parts = g_strsplit(f->fix, from, -1);
        g_free(f->fix);
        f->fix = g_strjoinv(to, parts);
    }
}

typedef struct {
    const char *fix;
    GPtrArray *ids;      /* const char *, distinct, first-seen order */
    unsigned n;
} FixGroup;

static gint
fix_group_cmp(gconstpointer a, gconstpointer b)
{
    const FixGroup *x = *(FixGroup * const *)a, *y = *(FixGroup * const *)b;

    return x->n != y->n ? (x->n < y->n ? 1 : -1) : 0;
}

static void
fix_group_free(gpointer p)
{
    FixGroup *g = p;

    g_ptr_array_unref(g->ids);
    g_free(g);
}

void
rv_findings_format_fixes(GString *s, const RvFindings *fs)
{
    g_autoptr(GPtrArray) groups = g_ptr_array_new_with_free_func(fix_group_free);
    GString *t;
    char *text;

    for (guint i = 0; i < fs->items->len; i++) {
        const RvFinding *f = fs->items->pdata[i];
        FixGroup *g = NULL;

        if (!f->fix || f->level < RV_FINDING_WARN)
            continue;
        for (guint j = 0; j < groups->len && !g; j++)
            if (strcmp(((FixGroup *)groups->pdata[j])->fix, f->fix) == 0)
                g = groups->pdata[j];
        if (!g) {
            g = g_new0(FixGroup, 1);
            g->fix = f->fix;
            g->ids = g_ptr_array_new();
            g_ptr_array_add(groups, g);
        }
        g->n++;
        if (!g_ptr_array_find_with_equal_func(g->ids, f->id, g_str_equal, NULL))
            g_ptr_array_add(g->ids, f->id);
    }
    if (!groups->len)
        return;
    /* stable: equal counts keep the findings' order */
    g_ptr_array_sort(groups, fix_group_cmp);
    t = g_string_new("Fixes:\n");
    for (guint j = 0; j < groups->len; j++) {
        const FixGroup *g = groups->pdata[j];

        g_string_append_printf(t, "  %u finding%s (", g->n, g->n == 1 ? "" : "s");
        for (guint k = 0; k < g->ids->len; k++)
            g_string_append_printf(t, "%s%s", k ? ", " : "", (const char *)g->ids->pdata[k]);
        g_string_append_printf(t, "): %s\n", g->fix);
    }
    text = rv_escape_text(g_string_free(t, FALSE));
    g_string_append(s, text);
    g_free(text);
}

void
rv_findings_to_json(JsonBuilder *b, const RvFindings *fs)
{
    json_builder_set_member_name(b, "findings");
    json_builder_begin_array(b);
    for (guint i = 0; i < fs->items->len; i++) {
        const RvFinding *f = fs->items->pdata[i];

        json_builder_begin_object(b);
        rv_json_add_string_or_null(b, "level", rv_finding_level_name(f->level));
        rv_json_add_string_or_null(b, "id", f->id);
        rv_json_add_string_or_null(b, "message", f->message);
        rv_json_add_string_or_null(b, "where", f->where);
        rv_json_add_string_or_null(b, "fix", f->fix);
        rv_json_add_cpuset(b, "cpus", f->has_cpus ? &f->cpus : NULL);
        rv_json_add_string_or_null(b, "expected", f->expected);
        rv_json_add_string_or_null(b, "actual", f->actual);
        json_builder_end_object(b);
    }
    json_builder_end_array(b);
}

void
rv_findings_summary_to_json(JsonBuilder *b, const unsigned counts[RV_FINDING_N_LEVELS])
{
    json_builder_set_member_name(b, "summary");
    json_builder_begin_object(b);
    for (unsigned l = 0; l < RV_FINDING_N_LEVELS; l++) {
        g_autofree char *key = g_ascii_strdown(level_names[l], -1);

        rv_json_add_int(b, key, counts[l]);
    }
    json_builder_end_object(b);
}
