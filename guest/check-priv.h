/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * guest/check-priv.h: what guest/check.c and guest/check-memory.c share.
 */
#pragma once

#include <libxml/tree.h>

#include "guest/check.h"

/* The memory tuning of <domain> @dom into @d: <numatune>, <memoryBacking>
 * <hugepages> pages, <cachetune>/<memorytune> counts.  Returns 0, or
 * -EINVAL with RV_ERROR_INVALID naming the element and its line. */
int rv_guest_domain_read_memory_tuning(RvGuestDomain *d, xmlNodePtr dom,
                                       GError **error) G_GNUC_WARN_UNUSED_RESULT;

/* The memory rules (guest/check-memory.c): memory.numa-node,
 * memory.numa-rt-node, memory.hugepage-size, memory.not-locked,
 * cputune.resctrl.  @host may be NULL (no host rules then). */
void rv_guest_check_memory(RvFindings *out, const RvGuestDomain *d, const RvGuestHostCpus *host);
