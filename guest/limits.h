/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * guest/limits.h: host limits learned from libvirt start failures, kept
 * per libvirt daemon instance, so that only the first guest start against
 * a daemon pays for them.
 *
 * On hosts where libvirt cannot give vCPUs SCHED_FIFO (the RT-group trap:
 * CONFIG_RT_GROUP_SCHED with a cgroup v1 cpu hierarchy) or cannot lock
 * guest memory (no CAP_SYS_RESOURCE for RLIMIT_MEMLOCK), every start of a
 * domain with <vcpusched> / <memoryBacking><locked/> fails once before
 * guest/session.c retries without the element.  What the daemon refused
 * stays true while the same daemon runs, so the session records it here
 * and later sessions strip the element before the first start, saying so
 * (the result stays untrusted, the findings name the limit and where it
 * was learned).  A restarted daemon (new PID or start time) is a new
 * instance: nothing learned about the old one applies (its configuration
 * or capabilities may have changed).
 *
 * The daemon instance is the libvirtd (or virtqemud, modular daemons)
 * named by its PID file /run/libvirtd.pid (/run/virtqemud.pid) whose
 * process exists, keyed by "NAME pid=PID start=TICKS" with TICKS field 22
 * (starttime, clock ticks since boot) of /proc/PID/stat (proc(5)): a PID
 * reused by another process has another start time.
 *
 * File: RUN_DIR/libvirt-limits.json (RUN_DIR /run/rtvirt by default,
 * $RTVIRT_RUN_DIR for tests), written atomically (g_file_set_contents):
 *   {"schema_version": 1, "daemon": "libvirtd pid=2042 start=812",
 *    "limits": [{"limit": "fifo" | "memlock", "reason": TEXT,
 *                "learned": ISO 8601 UTC}]}
 * A file for another daemon instance, or one that does not parse, counts
 * as empty (a cache: the worst case is one failed start more).
 */
#pragma once

#include <stdbool.h>
#include <glib.h>

#include "host/fsroot.h"

typedef enum {
    RV_GUEST_LIMIT_FIFO,     /* <cputune><vcpusched> refused (EPERM) */
    RV_GUEST_LIMIT_MEMLOCK,  /* <memoryBacking><locked/> refused (EACCES) */
    RV_GUEST_LIMIT_N,
} RvGuestLimit;

typedef struct {
    char *daemon;                    /* the instance key, see above */
    bool known[RV_GUEST_LIMIT_N];
    char *reason[RV_GUEST_LIMIT_N];  /* the libvirt error and explanation */
    char *learned[RV_GUEST_LIMIT_N]; /* ISO 8601 UTC */
} RvGuestLimits;

void rv_guest_limits_free(RvGuestLimits *l);
G_DEFINE_AUTOPTR_CLEANUP_FUNC(RvGuestLimits, rv_guest_limits_free)

/**
 * rv_guest_limit_name:
 * @limit: a limit
 *
 * Returns: "fifo" or "memlock" (the file's "limit" values).
 */
const char *rv_guest_limit_name(RvGuestLimit limit);

/**
 * rv_guest_limits_run_dir:
 *
 * Returns: (transfer full): $RTVIRT_RUN_DIR when set and not empty, else
 * "/run/rtvirt".
 */
char *rv_guest_limits_run_dir(void);

/**
 * rv_guest_limits_daemon_key:
 * @root: /run and /proc of the host (NULL: the live host)
 *
 * Finds the running local libvirt daemon: the first of libvirtd and
 * virtqemud whose PID file (/run/NAME.pid) names a process with a
 * /proc/PID/stat.
 *
 * Returns: (transfer full) (nullable): "NAME pid=PID start=TICKS", or NULL
 * when no local daemon is found (a remote URI, no PID file): nothing is
 * learned then.
 */
char *rv_guest_limits_daemon_key(RvRoot *root);

/**
 * rv_guest_limits_load:
 * @run_dir: the directory of libvirt-limits.json
 * @daemon: (nullable): the instance key (rv_guest_limits_daemon_key())
 *
 * Returns: (transfer full): the limits learned for @daemon; all unknown
 * when @daemon is NULL, the file is absent or unreadable, or it belongs
 * to another daemon instance.  Never fails.
 */
RvGuestLimits *rv_guest_limits_load(const char *run_dir, const char *daemon);

/**
 * rv_guest_limits_learn:
 * @run_dir: the directory of libvirt-limits.json (created 0755 if missing)
 * @daemon: the instance key; NULL: nothing is written, returns 0
 * @limit: what the daemon refused
 * @reason: the libvirt error with its explanation (kept as text)
 * @error: (optional): the write error
 *
 * Adds @limit to the limits learned for @daemon (replacing a file of
 * another instance) and writes the file atomically.  Thread-safe within
 * one process (read, add and write back under one lock).
 *
 * Returns: 0, or -errno when the directory or the file cannot be written
 * (the caller goes on: the next start pays once more).
 */
int rv_guest_limits_learn(const char *run_dir, const char *daemon, RvGuestLimit limit,
                          const char *reason, GError **error);
