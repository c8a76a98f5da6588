/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * tests/fuzz/fuzz-cpulist.c: libFuzzer target for rv_cpulist_parse().
 * The first byte picks nr_cpu_ids (0 = unknown, else 1..255 scaled); a
 * parsed set must format to a list that parses back to the same set.
 */
#include <stdint.h>
#include <string.h>

#include "util/cpulist.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    g_autofree char *s = NULL;
    unsigned nr;
    RvCpuSet set, again;

    if (size < 1 || size > 4096)
        return 0;
    nr = data[0] == 0 ? 0 : (unsigned) data[0] * 32;
    s = g_strndup((const char *) data + 1, size - 1);
    if (rv_cpulist_parse(s, nr, &set, NULL) == 0) {
        g_autofree char *f = rv_cpulist_format(&set);

        if (rv_cpulist_parse(f, nr, &again, NULL) != 0 || !rv_cpuset_equal(&set, &again))
            __builtin_trap();
        if (nr && rv_cpuset_last(&set) >= (int) nr)
            __builtin_trap();
    }
    return 0;
}
