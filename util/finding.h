/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * util/finding.h: the one verdict model of rtvirt.  `host check`, `guest
 * check`, `guest xml --check` and `result check` each judge facts and
 * write findings here; harness/ prints them with the one text renderer or
 * the one JSON writer below.
 *
 * A finding is a level (PASS, NOTE, WARN, FAIL), a stable id
 * ("isolation.sibling-housekeeping", "rt.policy-other"), one sentence that
 * names the values, and optionally where it was seen ("FILE:LINE"), how to
 * fix it, the CPUs involved (a cpulist), the value wanted and the value
 * found.  Ids are stable: tests, JSON consumers and results records match
 * on them; every id is declared once in the rule catalogue (util/rules.h),
 * which `rtvirt rules` prints.
 *
 * Levels:
 *   PASS  the check holds;
 *   NOTE  worth knowing, no effect on RT latency expected (or a value that
 *         could not be read: never guessed);
 *   WARN  likely to cost latency or to surprise;
 *   FAIL  the intent (profile, domain, budget) is not met: exit 1.
 *
 * Text form (rv_findings_format()), one block per finding:
 *   "WARN  irqaffinity.missing: CPUs 1-23 ...\n"
 *   "      where: FILE:LINE\n"                  (when known)
 *   "      wanted: X   found: Y\n"              (both known; "wanted: X" alone
 *                                               when the value found is not)
 *   "      fix: ...\n"                          (not for PASS)
 * with control bytes and invalid UTF-8 escaped (util/escape.h, the text
 * rule: messages quote values read from hosts, guests and files).
 *
 * JSON form (rv_findings_to_json()): "findings": [{"level": "WARN", "id":
 * ID, "message": STR, "where": STR|null, "fix": STR|null, "cpus":
 * CPULIST|null, "expected": STR|null, "actual": STR|null}, ...], every key
 * always present.
 */
#pragma once

#include <stdarg.h>
#include <stdbool.h>
#include <glib.h>
#include <json-glib/json-glib.h>

#include "util/cpulist.h"

typedef enum {
    RV_FINDING_PASS = 0,
    RV_FINDING_NOTE,
    RV_FINDING_WARN,
    RV_FINDING_FAIL,
} RvFindingLevel;

#define RV_FINDING_N_LEVELS (RV_FINDING_FAIL + 1)

typedef struct {
    RvFindingLevel level;
    char *id;            /* stable id */
    char *message;       /* one sentence: what was found, values named */
    char *where;         /* "FILE:LINE", or NULL */
    char *fix;           /* how to fix it; NULL for PASS (and some NOTEs) */
    bool has_cpus;
    RvCpuSet cpus;       /* the CPUs involved (valid when has_cpus) */
    char *expected;      /* the value wanted, or NULL */
    char *actual;        /* the value found, or NULL ("unknown" when unreadable) */
} RvFinding;

void rv_finding_free(RvFinding *f);

/* A list of findings and how many there are of each level. */
typedef struct {
    GPtrArray *items;                      /* RvFinding *, in the order added */
    unsigned counts[RV_FINDING_N_LEVELS];
} RvFindings;

RvFindings *rv_findings_new(void);
void rv_findings_free(RvFindings *fs);
G_DEFINE_AUTOPTR_CLEANUP_FUNC(RvFindings, rv_findings_free)

/**
 * rv_findings_add:
 * @fs: the list
 * @level: PASS, NOTE, WARN or FAIL
 * @id: a stable id of the rule catalogue (util/rules.h)
 * @cpus: (nullable): the CPUs involved
 * @expected: (nullable): the value wanted
 * @actual: (nullable): the value found
 * @fix: (nullable): how to fix it; dropped for PASS (nothing to fix)
 * @fmt: printf format of the message (one sentence)
 *
 * The one adder of findings: appends a finding and counts it.  An @id the
 * rule catalogue (util/rules.h) lacks, or a @level its line does not
 * allow, is a programming error: with RV_RULES_STRICT=1 in the environment
 * (set by `make check`) the process aborts naming the id (g_error());
 * otherwise the finding is kept as given.
 *
 * Returns: (transfer none): the finding, owned by @fs (set its where with
 * rv_finding_set_where()).
 */
RvFinding *rv_findings_add(RvFindings *fs, RvFindingLevel level, const char *id,
                           const RvCpuSet *cpus, const char *expected, const char *actual,
                           const char *fix, const char *fmt, ...) G_GNUC_PRINTF(8, 9);

/* rv_findings_add() with a va_list, for judges that wrap it with a context. */
RvFinding *rv_findings_addv(RvFindings *fs, RvFindingLevel level, const char *id,
                            const RvCpuSet *cpus, const char *expected, const char *actual,
                            const char *fix, const char *fmt, va_list ap) G_GNUC_PRINTF(8, 0);

/* Sets where @f was seen ("FILE:LINE"), replacing what it had. */
void rv_finding_set_where(RvFinding *f, const char *fmt, ...) G_GNUC_PRINTF(2, 3);

/* The worst level among the findings (PASS when there are none). */
RvFindingLevel rv_findings_worst(const RvFindings *fs);

/* The first finding with @id, or NULL. */
const RvFinding *rv_findings_find(const RvFindings *fs, const char *id);

/* Sorts FAIL first, then WARN, NOTE, PASS; stable within a level. */
void rv_findings_sort_by_level(RvFindings *fs);

/* "PASS", "NOTE", "WARN", "FAIL" ("?" out of range). */
const char *rv_finding_level_name(RvFindingLevel level);

/**
 * rv_finding_level_from_name:
 * @name: "PASS", "NOTE", "WARN" or "FAIL" (any case)
 * @ret: (out): the level, written only on success
 *
 * Returns: 0, or -EINVAL for another word.
 */
int rv_finding_level_from_name(const char *name, RvFindingLevel *ret) G_GNUC_WARN_UNUSED_RESULT;

/**
 * rv_findings_format:
 * @s: text to append to
 * @fs: the findings
 * @with_pass: include PASS findings
 *
 * Appends one block per finding in the text form above, escaped.
 */
void rv_findings_format(GString *s, const RvFindings *fs, bool with_pass);

/**
 * rv_findings_format_summary:
 * @s: text to append to
 * @verdict: the word before the counts: a level name, or "ERROR"
 * @counts: findings per level (RvFindings.counts, or a sum of several)
 * @pass_listed: PASS findings were printed; when not and there are some,
 *               " (--verbose lists PASS)" follows
 *
 * Appends "FAIL: 1 fail, 0 warn, 2 note, 5 pass\n".
 */
void rv_findings_format_summary(GString *s, const char *verdict,
                                const unsigned counts[RV_FINDING_N_LEVELS], bool pass_listed);

/**
 * rv_findings_to_json:
 * @b: a JsonBuilder inside an object
 * @fs: the findings
 *
 * Adds the member "findings": the JSON form above, every finding, in order.
 */
/**
 * rv_findings_replace_in_fixes:
 * @fs: findings whose fix texts are rewritten in place
 * @from: a literal text (non-empty), e.g. "rtvirt host apply PROFILE"
 * @to: what replaces every occurrence of @from
 *
 * The judges write fixes with the placeholder PROFILE (they see a parsed
 * profile, not the words the user typed); the command that knows them
 * names the profile with this, so the fix can be pasted as printed.
 */
void rv_findings_replace_in_fixes(RvFindings *fs, const char *from, const char *to);

/**
 * rv_findings_format_fixes:
 * @s: appended to
 * @fs: findings
 *
 * Appends the fixes of the WARN and FAIL findings grouped by their text,
 * the largest group first: "Fixes:\n" then one line per distinct fix,
 * "  N finding(s) (ID, ID...): FIX\n", ids in first-seen order.  Nothing
 * when no WARN/FAIL finding has a fix.  Escaped like rv_findings_format().
 */
void rv_findings_format_fixes(GString *s, const RvFindings *fs);

void rv_findings_to_json(JsonBuilder *b, const RvFindings *fs);

/**
 * rv_findings_summary_to_json:
 * @b: a JsonBuilder inside an object
 * @counts: findings per level
 *
 * Adds the member "summary": {"pass": N, "note": N, "warn": N, "fail": N}.
 */
void rv_findings_summary_to_json(JsonBuilder *b, const unsigned counts[RV_FINDING_N_LEVELS]);
