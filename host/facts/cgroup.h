/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * host/facts/cgroup.h: which cpu cgroup a process's threads are in, read back
 * from /proc/PID/task/TID/cgroup (cgroups(7): "ID:CONTROLLERS:PATH" lines;
 * cgroup v2's unified line is "0::PATH", a v1 cpu hierarchy's lists "cpu"
 * among its controllers, e.g. "1:cpu,cpuacct:/machine.slice/...").
 *
 * libvirt gives each QEMU domain its own cgroup: a systemd scope
 * machine.slice/machine-qemu\x2dN\x2dNAME.scope (or /machine/NAME.libvirt-qemu
 * without systemd), with children libvirt/emulator and libvirt/vcpuN for
 * the threads it pins (libvirt docs/cgroups.rst).  rtvirt run reads it back
 * for every guest and records it in run.json: the reference measurements
 * put each VM, its QEMU and vhost threads in one cpu cgroup.
 */
#pragma once

#include <sys/types.h>
#include <glib.h>

#include "host/fsroot.h"

/**
 * rv_host_cgroup_cpu_of_threads:
 * @root: the host or a fixture tree
 * @pid: a process (QEMU)
 * @ret_paths: (out) (element-type utf8 guint): cpu cgroup path -> number of
 *             the process's threads in it; written only on success
 * @error: (optional): RV_ERROR_FAILED naming the file that cannot be read,
 *         RV_ERROR_INVALID when a thread's file has no cpu line
 *
 * The cpu cgroup of every thread of @pid: the v1 line whose controllers
 * include "cpu", else the v2 "0::" line.  A thread that ends while being
 * read is left out.
 *
 * Returns: the number of threads read, or -errno.
 */
int rv_host_cgroup_cpu_of_threads(RvRoot *root, pid_t pid, GHashTable **ret_paths,
                                  GError **error) G_GNUC_WARN_UNUSED_RESULT;

/**
 * rv_host_cgroup_common:
 * @paths: (element-type utf8 guint): as from rv_host_cgroup_cpu_of_threads()
 *
 * The deepest cgroup that holds every path of @paths ("/a/b" for "/a/b"
 * and "/a/b/c"): the VM's own cgroup when libvirt put the threads in its
 * children.
 *
 * Returns: (transfer full): the path, "/" at least.
 */
char *rv_host_cgroup_common(GHashTable *paths);
