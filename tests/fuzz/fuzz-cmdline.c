/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * tests/fuzz/fuzz-cmdline.c: libFuzzer target for rv_host_cmdline_parse()
 * and its text rendering.  The first byte picks nr_cpu_ids (0 = unknown)
 * and the boot CPU; invariants: effective isolated/nohz_full CPUs stay
 * within the possible CPUs and never take the last housekeeping CPU.
 */
#include <stdint.h>
#include <string.h>

#include "host/facts/cmdline.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    g_autofree char *s = NULL;
    g_autoptr(RvCmdline) cmd = NULL;
    unsigned nr, boot;

    if (size < 1 || size > 8192)
        return 0;
    nr = data[0] & 0x7f;            /* 0..127 CPUs */
    boot = nr ? (data[0] >> 7) % nr : 0;
    s = g_strndup((const char *) data + 1, size - 1);
    if (rv_host_cmdline_parse_full(s, nr, boot, &cmd, NULL) == 0) {
        g_autofree char *f = rv_host_cmdline_format(cmd);

        (void) f;
        if (nr) {
            RvCpuSet iso;

            rv_cpuset_or(&iso, &cmd->isolcpus.effective, &cmd->nohz_full.effective);
            if (rv_cpuset_last(&iso) >= (int) nr || rv_cpuset_last(&cmd->rcu_nocbs.effective) >= (int) nr)
                __builtin_trap();
            if (rv_cpuset_isset(&cmd->isolcpus.effective, boot) &&
                rv_cpuset_count(&cmd->isolcpus.effective) == nr)
                __builtin_trap();
        }
        (void) rv_host_cmdline_get(cmd, "isolcpus");
    }
    return 0;
}
