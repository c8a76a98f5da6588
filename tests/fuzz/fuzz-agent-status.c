/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * tests/fuzz/fuzz-agent-status.c: libFuzzer target for
 * rv_guest_agent_parse_status(), the parser of what a guest sends back
 * (guest-exec-status replies: untrusted).  The first byte picks the output
 * bound (0-255 bytes); invariants: decoded output never exceeds it, is
 * NUL-terminated at its length, an exit status is 0-255 or 128+signal.
 * Seeds: the .json files in tests/data/agent/.
 */
#include <stdint.h>
#include <string.h>

#include "guest/agent.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    g_autofree char *s = NULL;
    g_auto(RvGuestExecResult) res = { 0 };
    bool exited = false;
    gsize max;

    if (size < 1 || size > 65536)
        return 0;
    max = data[0];
    s = g_strndup((const char *) data + 1, size - 1);
    if (rv_guest_agent_parse_status(s, max, &exited, &res, NULL) == 0 && exited) {
        if (res.out_len > max || res.err_len > max || res.out[res.out_len] != '\0' ||
            res.err[res.err_len] != '\0' || res.exit_status < 0 || res.exit_status > 255)
            __builtin_trap();
    }
    return 0;
}
