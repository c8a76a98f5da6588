/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * host/tuned/tuned.h: tuned profiles (tuned.conf(5)) read as rtvirt host
 * profiles, so that `rtvirt host check DIR|tuned.conf` judges the profile a
 * user already deploys.
 *
 * What is read, as tuned 2.20-2.28 reads it (tuned/profiles/loader.py,
 * merger.py, variables.py, functions/functions.py):
 *  - the INI dialect of Python's ConfigParser(delimiters='=',
 *    inline_comment_prefixes='#', strict=False): '#'/';' comment lines,
 *    " #" inline comments, a key repeated or a section repeated merges
 *    (the later value wins), indented continuation lines;
 *  - [main] include=A,B (split at ',' or ';', "-NAME" = only if found): each
 *    NAME/tuned.conf is searched in the including profile's own directory
 *    (a profile set beside each other, e.g. tests/data/cases/tuned), then in
 *    /etc/tuned/profiles, /etc/tuned, /usr/lib/tuned/profiles,
 *    /usr/lib/tuned (tuned's LOAD_DIRECTORIES, the last wins); included
 *    profiles are merged first, the including one overrides them (a unit
 *    with replace=true drops what it replaces);
 *  - [variables] after the merge, in the merged order: include=FILE reads a
 *    *-variables.conf (an absolute path is host configuration: read under
 *    the --root tree when that has the file, else on this machine), each
 *    NAME=VALUE is expanded when defined: ${NAME} (\${NAME} stays literal),
 *    ${i:PROFILE_DIR}, and the built-in functions ${f:NAME:ARG:...}
 *    (arguments split at unescaped ':', innermost first): assertion,
 *    assertion_non_equal (a failure makes tuned refuse the profile: here an
 *    RV_ERROR_INVALID naming the line), calc_isolated_cores (per package of
 *    the root's online CPUs the lowest N logical CPUs are reserved),
 *    cpulist_unpack, cpulist_pack, cpulist_invert, cpulist_online,
 *    cpulist_present, cpulist2hex, cpulist2hex_invert, hex2cpulist,
 *    regex_search_ternary, strip, cpuinfo_check (the root's /proc/cpuinfo);
 *    exec and virt_check would run programs and are not run (their text
 *    stays, a NOTE says so), as tuned leaves an unknown function's text;
 *  - every other value is expanded with the final variables, then mapped:
 *    [bootloader] cmdline* (+ appends, - removes, as the bootloader
 *    plugin), [sysctl], [sysfs], [scheduler] group.*, [cpu] governor and
 *    force_latency, [vm], [irqbalance] banned_cpus, [main] summary.
 *
 * What cannot be mapped to a key of host/profile/profile.h is never dropped: it is
 * a note of the profile (RvHostProfile.notes, "FILE:LINE"), which `host
 * check` reports as NOTE tuned.unmapped (or tuned.approximated where the
 * mapping is close but not exact, e.g. force_latency=cstate.id:1|3 read as
 * its 3 us fallback).
 */
#pragma once

#include <stdbool.h>
#include <glib.h>

#include "host/fsroot.h"
#include "host/check/check.h"
#include "host/facts/topology.h"
#include "host/profile/partition.h"
#include "host/profile/profile.h"

/**
 * rv_host_tuned_is_profile:
 * @path: what the user named
 *
 * Returns: true when @path is a directory holding a tuned.conf, or a file
 * whose name is "tuned.conf" (tuned's profile layout).
 */
bool rv_host_tuned_is_profile(const char *path);

/**
 * rv_host_tuned_load:
 * @root: the host the profile is read against (calc_isolated_cores,
 *        cpulist_* and cpuinfo_check read its /sys and /proc; /etc/tuned
 *        variables files are looked up in it first)
 * @path: a tuned profile directory or its tuned.conf
 * @ret: (out): the profile (origin "tuned", notes for what is not mapped),
 *       written only on success
 * @error: (optional): RV_ERROR_INVALID "FILE:LINE: ..." for a syntax error,
 *         an include that is not found, a failed tuned assertion ("tuned
 *         would refuse this profile"), a cpulist naming CPUs the host lacks;
 *         RV_ERROR_FAILED when a file is unreadable or the root has no CPU
 *         topology
 *
 * Returns: 0 or -errno.
 */
int rv_host_tuned_load(RvRoot *root, const char *path, RvHostProfile **ret,
                       GError **error) G_GNUC_WARN_UNUSED_RESULT;

/* ---- a running tuned (host/tuned/tuned-state.c) -------------------------- */

/* What tuned does on a host: whether its daemon runs and which profile it
 * holds (tuned/consts.py: PID_FILE /run/tuned/tuned.pid, DBUS_BUS
 * com.redhat.tuned, ACTIVE_PROFILE_FILE /etc/tuned/active_profile,
 * PROFILE_MODE_FILE /etc/tuned/profile_mode). */
typedef struct {
    bool running;            /* a live process in the PID file, or the D-Bus name owned */
    gint64 pid;              /* from the PID file, else the D-Bus name's owner; 0 when none */
    char *how;               /* how it was seen to run ("PID 123 in /run/tuned/tuned.pid") */
    char *active;            /* /etc/tuned/active_profile (names, space-separated), NULL if none */
    char *mode;              /* /etc/tuned/profile_mode ("manual", "auto"), NULL if none */
    char *tuned_adm;         /* `tuned-adm active` (live host, tuned running), NULL otherwise */
    char *active_path;       /* the first active profile's directory, NULL when not found */
    RvHostProfile *profile;  /* that profile read as a host profile, NULL when not readable */
    char *profile_error;     /* why it was not read, or NULL */
} RvTunedState;

void rv_host_tuned_state_free(RvTunedState *st);
G_DEFINE_AUTOPTR_CLEANUP_FUNC(RvTunedState, rv_host_tuned_state_free)

/**
 * rv_host_tuned_state_load:
 * @root: the host
 * @ret: (out): what was found; always written (a host without tuned has
 *       running = false and no active profile)
 *
 * Reads the PID file and /proc/PID through @root; on the live host also
 * asks the system bus (/run/dbus/system_bus_socket or
 * $DBUS_SYSTEM_BUS_ADDRESS; skipped without either) whether com.redhat.tuned
 * has an owner and its PID (1 s timeouts each), and runs `tuned-adm active`
 * (5 s) when tuned runs.
 * The active profile is searched in the root's /etc/tuned and
 * /usr/lib/tuned (then this machine's) and read with rv_host_tuned_load().
 * Nothing here fails: what cannot be read is left NULL.
 */
void rv_host_tuned_state_load(RvRoot *root, RvTunedState **ret);

/* One line for `host show`: "not running", "running (PID 123), profile
 * realtime-virtual-host (manual)" ... (transfer full). */
char *rv_host_tuned_state_describe(const RvTunedState *st);

/**
 * rv_host_tuned_judge:
 * @rep: the report of `host check` (findings appended)
 * @profile: the profile checked
 * @st: tuned's state on the same host
 *
 * Adds NOTE tuned.running (tuned runs, with its profile) or NOTE
 * tuned.active-profile (an active profile is recorded while tuned does not
 * run), WARN tuned.conflict for each knob that both @profile and tuned's
 * active profile set to different values (naming both), and NOTE
 * tuned.overlap listing the knobs both set alike (tuned re-applies them;
 * harmless while equal).  Nothing when tuned neither runs nor has an active
 * profile; only the NOTE when @profile is tuned's active profile itself (its
 * directory or its tuned.conf, compared after realpath()).
 */
void rv_host_tuned_judge(RvCheckReport *rep, const RvHostProfile *profile,
                         const RvTunedState *st);

/* {"running": BOOL, "pid": N|null, "how": STR|null, "active_profile": STR|null,
 * "profile_mode": STR|null, "tuned_adm": STR|null, "profile_dir": STR|null}
 * for `host show --json` (transfer full). */
JsonNode *rv_host_tuned_state_to_json(const RvTunedState *st);

/* ---- an rtvirt host profile as a tuned profile (host/tuned/tuned-export.c) */

/**
 * rv_host_tuned_export:
 * @profile: an rtvirt host profile
 * @part: its partition on the host (rv_host_partition_compute())
 * @topo: the host's topology
 * @parent: (nullable): a tuned profile directory to include (e.g.
 *          /usr/lib/tuned/realtime-virtual-host), or NULL
 * @ret_text: (out): the tuned.conf text, written through util/ini.h's writer
 * @ret_included: (out) (optional): whether @parent is included: only when
 *          every knob it sets is one @profile sets too (it then adds nothing
 *          rtvirt does not want; its values and boot arguments are
 *          overridden)
 * @error: (optional): RV_ERROR_INVALID when a value cannot be written
 *
 * What tuned has no plugin for (SMT policy, core scheduling, the libvirt
 * keys, per-socket housekeeping, idle_cpus) is carried as rtvirt_*
 * variables in [variables], which rv_host_tuned_load() reads back, so that
 * `host check` judges the exported profile as it judges @profile.  Module
 * parameters go to tuned's [modules] (MODULE = +r PARAM=VALUE ...: written to
 * /etc/modprobe.d/tuned.conf, reloaded by tuned).
 *
 * Returns: 0 or -errno.
 */
int rv_host_tuned_export(const RvHostProfile *profile, const RvHostPartition *part,
                         const RvTopology *topo, const char *parent, char **ret_text,
                         bool *ret_included, GError **error) G_GNUC_WARN_UNUSED_RESULT;
