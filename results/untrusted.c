/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * results/untrusted.c: untrusted reasons counted and grouped one way
 * (results/untrusted.h).
 */
#include <string.h>

#include "results/untrusted.h"

const char *
rv_result_untrusted_cause(const char *reason)
{
    return strstr(reason, "virt=tcg") ? "virt=tcg" : reason;
}

char *
rv_result_untrusted_kind(const char *reason)
{
    const char *cause = rv_result_untrusted_cause(reason);
    GString *o = g_string_new(NULL);

    for (const char *p = cause; *p; ) {
        if (g_str_has_prefix(p, "guest ") && (p == cause || p[-1] == ' ')) {
            g_string_append(o, "guest *");
            p += 6;
            while (*p && *p != ' ' && *p != ':')
                p++;
        } else if (g_ascii_isdigit(*p)) {
            g_string_append_c(o, '#');
            while (g_ascii_isdigit(*p))
                p++;
        } else {
            g_string_append_c(o, *p++);
        }
    }
    return g_string_free(o, FALSE);
}

guint
rv_result_untrusted_count(GPtrArray *reasons, guint *ret_kinds)
{
    g_autoptr(GHashTable) kinds = g_hash_table_new_full(g_str_hash, g_str_equal, g_free, NULL);

    for (guint i = 0; reasons && i < reasons->len; i++)
        g_hash_table_add(kinds, rv_result_untrusted_kind(reasons->pdata[i]));
    if (ret_kinds)
        *ret_kinds = g_hash_table_size(kinds);
    return reasons ? reasons->len : 0;
}
