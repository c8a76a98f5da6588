/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * host/facts/context.h: the host context a results store records
 * (results/context.h has the layout and the sources of each fact).
 */
#pragma once

#include <glib.h>

#include "host/fsroot.h"
#include "results/context.h"
#include "util/runner.h"

/**
 * rv_host_context_load:
 * @root: the host root (a fixture tree or "/")
 * @runner: (nullable): starts qemu-system-ARCH, libvirtd, dpkg-query and
 *          cyclictest for the tool versions (5 s each); NULL, or a root
 *          that is not the live host, leaves the versions other than
 *          rtvirt's unknown: the programs of a fixture tree are not this
 *          machine's
 * @ret: (out) (transfer full): the context; facts that cannot be read are
 *       unknown (NULL, -1), never guessed
 *
 * Reads /proc/sys/kernel/{osrelease,version}, /proc/cmdline, the first
 * processor of /proc/cpuinfo (x86 keys: vendor_id, cpu family, model,
 * model name, stepping, microcode), /sys/devices/system/cpu/smt/{control,
 * active} and the world-readable /sys/class/dmi/id files.  A missing file
 * is no error: a container or a non-x86 machine has fewer facts.
 *
 * Returns: 0 (the context may be all unknown).
 */
int rv_host_context_load(RvRoot *root, RvRunner *runner, RvStoreContext **ret);

/**
 * rv_host_context_parse_cpuinfo:
 * @text: /proc/cpuinfo
 * @ctx: the context whose cpu_* members are set from the first processor
 *       block (the lines before the first empty line)
 *
 * Exported for tests.  A number that does not parse stays unknown.
 */
void rv_host_context_parse_cpuinfo(const char *text, RvStoreContext *ctx);

/**
 * rv_host_context_parse_version:
 * @tool: "qemu" (qemu-system-ARCH --version: "QEMU emulator version 7.2.22
 *        (Debian ...)"), "libvirt" ("libvirtd (libvirt) 9.0.0"),
 *        "cyclictest" (cyclictest --help: "cyclictest V 2.40")
 * @output: the program's output (stdout, or stderr for cyclictest)
 *
 * Exported for tests.
 *
 * Returns: (transfer full) (nullable): the version ("7.2.22", "9.0.0",
 * "2.40"), NULL when @output does not say it.
 */
char *rv_host_context_parse_version(const char *tool, const char *output);
