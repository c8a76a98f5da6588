/* SPDX-License-Identifier: GPL-2.0-or-later */
/* host/profile/kargs.c: the kernel boot arguments a host profile wants. */

#include "host/profile/kargs.h"

int
rv_host_kargs_compute(const RvHostProfile *profile, const RvHostPartition *part,
                      char ***ret_args, GError **error)
{
    g_autoptr(GPtrArray) args = g_ptr_array_new_with_free_func(g_free);
    g_autofree char *iso = rv_cpulist_format(&part->isolated);
    g_autofree char *hk = rv_cpulist_format(&part->housekeeping);
    guint n;

    (void) error;
    if (profile->isolcpus == RV_HOST_TRI_YES) {
        if (profile->isolcpus_flags && profile->isolcpus_flags[0]) {
            g_autofree char *flags = g_strjoinv(",", profile->isolcpus_flags);
            g_ptr_array_add(args, g_strdup_printf("isolcpus=%s,%s", flags, iso));
        } else {
            g_ptr_array_add(args, g_strdup_printf("isolcpus=%s", iso));
        }
    }
    if (profile->nohz)
        g_ptr_array_add(args, g_strdup_printf("nohz=%s", profile->nohz));
    if (profile->nohz_full == RV_HOST_TRI_YES)
        g_ptr_array_add(args, g_strdup_printf("nohz_full=%s", iso));
    if (profile->rcu_nocbs == RV_HOST_TRI_YES)
        g_ptr_array_add(args, g_strdup_printf("rcu_nocbs=%s", iso));
    if (profile->rcu_nocb_poll == RV_HOST_TRI_YES)
        g_ptr_array_add(args, g_strdup("rcu_nocb_poll"));
    if (profile->irqaffinity == RV_HOST_TRI_YES)
        g_ptr_array_add(args, g_strdup_printf("irqaffinity=%s", hk));
    if (profile->skew_tick == RV_HOST_TRI_YES)
        g_ptr_array_add(args, g_strdup("skew_tick=1"));
    if (profile->smt == RV_HOST_SMT_OFF_BOOT)
        g_ptr_array_add(args, g_strdup("nosmt"));
    if (profile->governor)
        g_ptr_array_add(args, g_strdup_printf("cpufreq.default_governor=%s", profile->governor));
    /* A boot argument limits idle states on every CPU; a limit for the
     * isolated CPUs only is a runtime knob (host apply). */
    if (profile->idle_max_latency_us.set && profile->idle_cpus == RV_HOST_CPUSEL_ALL) {
        if (profile->idle_max_latency_us.value == 0) {
            g_ptr_array_add(args, g_strdup("idle=poll"));
        } else {
            g_ptr_array_add(args, g_strdup("intel_idle.max_cstate=1"));
            g_ptr_array_add(args, g_strdup("processor.max_cstate=1"));
        }
    }
    for (char **e = profile->extra_bootargs; e && *e; e++)
        g_ptr_array_add(args, g_strdup(*e));
    n = args->len;
    g_ptr_array_add(args, NULL);
    *ret_args = (char **) g_ptr_array_free(g_steal_pointer(&args), FALSE);
    return (int) n;
}
