/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * tests/fuzz/fuzz-hostprofile.c: libFuzzer target for the host profile
 * loader (rv_host_profile_load_data(): util/ini.c + host/profile/profile.c).
 * Invariants: a rejected profile has an RV_ERROR_INVALID message that
 * starts with the file name (FILE:LINE); an accepted one formats, and its
 * explicit isolated and housekeeping lists never overlap.
 */
#include <stdint.h>
#include <string.h>

#include "host/profile/profile.h"
#include "util/error.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    g_autofree char *s = NULL;
    g_autoptr(RvHostProfile) p = NULL;
    g_autoptr(GError) err = NULL;

    if (size > 16384)
        return 0;
    s = g_strndup((const char *) data, size);
    /* "fuzz.ini" has no directory part: include= resolves against ".", so
     * the corpus must not name real files; a miss is a plain error. */
    if (rv_host_profile_load_data("fuzz.ini", s, &p, &err) == 0) {
        g_autofree char *f = rv_host_profile_format(p);

        if (!f || (p->has_isolated && p->has_housekeeping &&
                   rv_cpuset_intersects(&p->isolated, &p->housekeeping)))
            __builtin_trap();
    } else if (!err ||
               /* an include that cannot be read: util/file.h's I/O error */
               !(g_error_matches(err, RV_ERROR, RV_ERROR_INVALID) ||
                 (g_error_matches(err, RV_ERROR, RV_ERROR_FAILED) &&
                  g_str_has_prefix(err->message, "Failed to read '"))) ||
               (!g_str_has_prefix(err->message, "fuzz.ini") &&
                !g_str_has_prefix(err->message, "Failed to read '") &&
                !strstr(err->message, "include")))
        __builtin_trap();
    return 0;
}
