/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * host/facts/capture.h: copy the /sys and /proc files rtvirt reads into a fixture
 * tree (like hwloc-gather-topology), so that `rtvirt host show --root DIR`
 * on another machine reproduces the report of this one.
 */
#pragma once

#include <glib.h>

#include "host/fsroot.h"

/**
 * rv_host_capture:
 * @root: the host to capture (normally the live host "/")
 * @dir: destination directory (created; must be empty or absent)
 * @ret_files: (out) (optional): number of files written
 * @error: (optional): RV_ERROR_INVALID when @dir is not empty,
 *         RV_ERROR_FAILED on a write error (path named)
 *
 * Copies: cpu/{possible,present,online,offline,isolated,nohz_full}, the
 * smt and cpuidle attributes, every cpuN/{online, topology files, cpufreq
 * governor/driver,
 * cpuidle/stateK/{name,latency,disable}}, node/nodeN/cpulist, the workqueue
 * cpumask, THP/KSM/realtime files, /proc/{cmdline,mounts,interrupts},
 * /proc/sys/kernel knobs, the v1 cpu cgroup's rt files, /proc/irq/N
 * affinity lists, and for each task: /proc/PID/stat and the status lines
 * rtvirt reads (Name, Tgid, Pid, PPid, Kthread, Cpus_allowed_list) of RT-relevant
 * kernel threads plus /proc/PID/task/TID/stat of tasks whose last CPU is
 * isolated, and for each running libvirt QEMU domain
 * /run/libvirt/qemu/NAME.{pid,xml} (the status file, passwd attributes
 * dropped) with the QEMU process's stat, status and every thread's stat
 * and status (`rtvirt guest check NAME --root DIR`).  On the live host it also records the core-scheduling probe in
 * /rtvirt/coresched.  Unreadable files are left out (they stay unknown).
 *
 * Returns: 0 or -errno.
 */
int rv_host_capture(RvRoot *root, const char *dir, unsigned *ret_files,
                    GError **error) G_GNUC_WARN_UNUSED_RESULT;
