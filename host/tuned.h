/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * host/tuned.h: tuned profiles (tuned.conf(5)) read as rtvirt host
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
 *    (a profile set beside each other, e.g. ../shared/cases/tuned), then in
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
 * What cannot be mapped to a key of host/profile.h is never dropped: it is
 * a note of the profile (RvHostProfile.notes, "FILE:LINE"), which `host
 * check` reports as NOTE tuned.unmapped (or tuned.approximated where the
 * mapping is close but not exact, e.g. force_latency=cstate.id:1|3 read as
 * its 3 us fallback).
 */
#pragma once

#include <stdbool.h>
#include <glib.h>

#include "host/fsroot.h"
#include "host/profile.h"

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
