/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * host/journal-priv.h: journal internals that tests use.
 */
#pragma once

#include <sys/types.h>
#include <glib.h>

#include "host/fsroot.h"

/**
 * rv_host_journal_normalize_value:
 * @raw: an attribute as read from sysfs/procfs
 *
 * Returns: (transfer full): the value to write back to get @raw again:
 * whitespace stripped, and for a choice attribute that reads as
 * "always [madvise] never" (Documentation/admin-guide/mm/transhuge.rst,
 * block/elevator.c elv_iosched_show()) the bracketed word.
 */
char *rv_host_journal_normalize_value(const char *raw);

/* Start time of @pid in clock ticks since boot (field 22 of /proc/PID/stat,
 * proc(5)), read through @root.  Returns 0 or -errno (-ESRCH when gone). */
int rv_host_journal_pid_starttime(RvRoot *root, pid_t pid, guint64 *ret_starttime);
