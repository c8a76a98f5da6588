/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * host/profile/kargs.h: the kernel boot arguments of a host profile, a pure
 * function of the profile and its partition (host check compares them with
 * /proc/cmdline; host/tune/bootargs.h installs them).
 *
 * Arguments (Documentation/admin-guide/kernel-parameters.txt), cpulists in
 * the kernel's syntax (util/cpulist.h):
 *   isolcpus=[FLAGS,]<isolated>   flags from the profile (managed_irq,domain)
 *   nohz=on|off, nohz_full=<isolated>, rcu_nocbs=<isolated>, rcu_nocb_poll
 *   irqaffinity=<housekeeping>, skew_tick=1
 *   nosmt                         when the profile wants SMT off at boot
 *   cpufreq.default_governor=G    when the profile sets a governor
 *                                 (Documentation/admin-guide/pm/cpufreq.rst)
 *   intel_idle.max_cstate=1 processor.max_cstate=1
 *                                 when idle_max_latency_us applies to ALL
 *                                 CPUs (per-CPU limits are runtime only)
 *   the profile's literal extra arguments, last.
 * The isolated and housekeeping lists are whole cores (host/profile/partition.h),
 * with known-offline threads included so that onlining them later cannot
 * split a core.
 */
#pragma once

#include <glib.h>

#include "host/profile/partition.h"
#include "host/profile/profile.h"

/**
 * rv_host_kargs_compute:
 * @profile: host profile ([bootargs], [cpus] smt, [cpu])
 * @part: its partition on the host (rv_host_partition_compute())
 * @ret_args: (out) (transfer full): NULL-terminated argument words, in the
 *            order listed in this header
 * @error: (optional): unused for now (kept for arguments that can fail)
 *
 * Returns: the number of arguments (may be 0) or -errno.
 */
int rv_host_kargs_compute(const RvHostProfile *profile, const RvHostPartition *part,
                          char ***ret_args, GError **error) G_GNUC_WARN_UNUSED_RESULT;
