/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * results/untrusted.h: a store's untrusted reasons counted and grouped
 * one way, for every place that says how many there are: `rtvirt run`'s
 * summary ("Trusted: no (7 reasons of 5 kinds in run.json)") and `rtvirt
 * compare` ("untrusted: 7 reasons of 5 kinds, each kind once").
 */
#pragma once

#include <glib.h>

/**
 * rv_result_untrusted_cause:
 * Returns: (transfer none): the cause @reason stands for: every reason
 * that names virt=tcg is the one cause "virt=tcg" (compare's NOTE explains
 * it), any other is itself.
 */
const char *rv_result_untrusted_cause(const char *reason);

/**
 * rv_result_untrusted_kind:
 * Returns: (transfer full): the kind of @reason: its cause with a guest's
 * name ("guest rt" -> "guest *") and every number (a PID, a size) -> "#",
 * so the same words about another guest or process are one kind.
 */
char *rv_result_untrusted_kind(const char *reason);

/**
 * rv_result_untrusted_count:
 * @reasons: (element-type utf8) (nullable): a store's untrusted reasons
 *           (rv_result_store_get_untrusted_reasons())
 * @ret_kinds: (out) (optional): how many kinds among them
 *
 * Returns: how many reasons.
 */
guint rv_result_untrusted_count(GPtrArray *reasons, guint *ret_kinds);
