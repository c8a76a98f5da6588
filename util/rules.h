/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * util/rules.h: the rule catalogue: every finding id that `host check`,
 * `guest check`, `guest xml --check` and `result check` can print
 * (util/finding.h), declared once, with the levels it can take, the
 * commands that print it, what it means, the source of the rule (kernel
 * documentation path and section, tool source file, libvirt page) and the
 * usual fix.  `rtvirt rules` prints it; doc/rules.md is generated from it
 * (`make doc/rules.md`).
 *
 * The table is util/rules.c's rules[]: one line per rule.  Adding a rule is
 * that line plus the check that emits it (doc/hacking.md, "Adding a rule").
 * rv_findings_add() refuses, under RV_RULES_STRICT=1 (`make check`), an id
 * the table lacks or a level its line does not allow; tests/t-rules.sh
 * fails on an id of the table that no source file emits.
 */
#pragma once

#include <stdbool.h>
#include <glib.h>

#include "util/finding.h"

/* The commands a rule belongs to (RvRule.commands, a bit set). */
typedef enum {
    RV_RULE_HOST_CHECK = 1u << 0,     /* rtvirt host check (also host apply's, run's records) */
    RV_RULE_GUEST_CHECK = 1u << 1,    /* rtvirt guest check */
    RV_RULE_GUEST_XML = 1u << 2,      /* rtvirt guest xml --check */
    RV_RULE_RESULT_CHECK = 1u << 3,   /* rtvirt result check */
} RvRuleCommand;

#define RV_RULE_N_COMMANDS 4

/* RvRule.levels: one bit per RvFindingLevel. */
#define RV_RULE_LEVEL(level) (1u << (level))

typedef struct {
    const char *id;        /* the finding id, "isolation.sibling-housekeeping" */
    unsigned levels;       /* RV_RULE_LEVEL() bits of the levels it can take */
    unsigned commands;     /* RvRuleCommand bits */
    const char *meaning;   /* one line: what a finding with this id says */
    const char *source;    /* where the rule comes from */
    const char *fix;       /* the usual remedy, or NULL (PASS/NOTE only) */
} RvRule;

/**
 * rv_rules:
 * @ret_n: (out): the number of rules
 *
 * Returns: (transfer none): the catalogue, in its order (grouped by
 * command, then by family).
 */
const RvRule *rv_rules(guint *ret_n);

/* The rule with @id, or NULL. */
const RvRule *rv_rule_find(const char *id);

/* "host check", "guest check", "guest xml --check", "result check" for one
 * RvRuleCommand bit; NULL for another value. */
const char *rv_rule_command_name(RvRuleCommand command);

/**
 * rv_rule_check:
 * @id: a finding id
 * @level: the level it is emitted at
 *
 * Returns: true when the catalogue has @id and its line allows @level.
 */
bool rv_rule_check(const char *id, RvFindingLevel level);
