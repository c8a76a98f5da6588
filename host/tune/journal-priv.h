/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * host/tune/journal-priv.h: journal internals that tests use.
 */
#pragma once

#include <sys/types.h>
#include <glib.h>

#include "host/fsroot.h"

/* Start time of @pid in clock ticks since boot (field 22 of /proc/PID/stat,
 * proc(5)), read through @root.  Returns 0 or -errno (-ESRCH when gone). */
int rv_host_journal_pid_starttime(RvRoot *root, pid_t pid, guint64 *ret_starttime);
