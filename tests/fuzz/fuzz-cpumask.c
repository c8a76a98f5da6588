/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * tests/fuzz/fuzz-cpumask.c: libFuzzer target for rv_cpumask_parse();
 * a parsed mask must format to a mask that parses back to the same set.
 */
#include <stdint.h>
#include <string.h>

#include "util/cpulist.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    g_autofree char *s = NULL;
    RvCpuSet set, again;

    if (size > 8192)
        return 0;
    s = g_strndup((const char *) data, size);
    if (rv_cpumask_parse(s, &set, NULL) == 0) {
        g_autofree char *f = rv_cpumask_format(&set, 0);

        if (rv_cpumask_parse(f, &again, NULL) != 0 || !rv_cpuset_equal(&set, &again))
            __builtin_trap();
    }
    return 0;
}
