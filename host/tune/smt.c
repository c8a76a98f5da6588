/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * host/tune/smt.c: SMT on/off through smt/control, journaled (see smt.h).
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "host/tune/smt.h"
#include "host/facts/topology.h"
#include "util/error.h"

#define SMT_CONTROL "/sys/devices/system/cpu/smt/control"
#define SMT_ACTIVE "/sys/devices/system/cpu/smt/active"

void
rv_host_smt_state_clear(RvSmtState *st)
{
    if (!st)
        return;
    g_clear_pointer(&st->control, g_free);
}

static int
read_cpus(RvRoot *root, const char *path, unsigned nr_cpu_ids, RvCpuSet *ret, GError **error)
{
    g_autofree char *v = NULL;
    int r;

    r = rv_host_root_read_value(root, path, &v, error);
    if (r < 0)
        return r;
    return rv_cpulist_parse(v, nr_cpu_ids, ret, error);
}

int
rv_host_smt_state_read(RvRoot *root, RvSmtState *ret, GError **error)
{
    g_auto(RvSmtState) st = { .active = -1 };
    RvCpuSet possible;
    gint64 active;
    int r;

    r = read_cpus(root, "/sys/devices/system/cpu/possible", 0, &possible, error);
    if (r < 0)
        return r;
    st.nr_cpu_ids = (unsigned) rv_cpuset_last(&possible) + 1;
    r = read_cpus(root, "/sys/devices/system/cpu/present", st.nr_cpu_ids, &st.present, error);
    if (r < 0)
        return r;
    r = read_cpus(root, "/sys/devices/system/cpu/online", st.nr_cpu_ids, &st.online, error);
    if (r < 0)
        return r;

    r = rv_host_root_read_value(root, SMT_CONTROL, &st.control, NULL);
    if (r < 0 && r != -ENOENT)
        return rv_host_root_read_value(root, SMT_CONTROL, &st.control, error);
    r = rv_host_root_read_int(root, SMT_ACTIVE, &active, NULL);
    if (r == 0)
        st.active = active != 0;

    *ret = st;
    st.control = NULL;
    return 0;
}

char *
rv_host_smt_state_format(const RvSmtState *st)
{
    g_autofree char *present = rv_cpulist_format(&st->present);
    g_autofree char *online = rv_cpulist_format(&st->online);

    return g_strdup_printf("control=%s active=%s present=%s online=%s",
                           st->control ? st->control : "(absent)",
                           st->active < 0 ? "(absent)" : st->active ? "1" : "0",
                           present, online);
}

const char *
rv_host_smt_unavailable_reason(const RvSmtState *st, bool enable)
{
    if (!st->control)
        return "kernel without CONFIG_HOTPLUG_SMT: no /sys/devices/system/cpu/smt/control";
    if (strcmp(st->control, "notsupported") == 0)
        return "the CPU has no SMT (smt/control = notsupported)";
    if (strcmp(st->control, "notimplemented") == 0)
        return "the architecture does not implement SMT control (smt/control = notimplemented)";
    if (enable && strcmp(st->control, "forceoff") == 0)
        return "SMT was forced off at boot (nosmt=force, smt/control = forceoff): "
               "turning it on needs a reboot";
    if (strcmp(st->control, "on") != 0 && strcmp(st->control, "off") != 0 &&
        strcmp(st->control, "forceoff") != 0)
        return "smt/control holds an unknown value";
    return NULL;
}

static bool
is_on(const RvSmtState *st)
{
    return g_strcmp0(st->control, "on") == 0;
}

/* Off: no core has two online threads, nothing came online, smt/active 0. */
static int
verify_off(const RvTopology *topo, const RvSmtState *before, const RvSmtState *after,
           GError **error)
{
    g_autofree char *now = rv_host_smt_state_format(after);

    if (!rv_cpuset_is_subset(&after->online, &before->online))
        return rv_error_set(error, RV_ERROR_CHECK, EPROTO,
                            "SMT off: CPUs came online (%s)", now);
    if (after->active > 0)
        return rv_error_set(error, RV_ERROR_CHECK, EPROTO,
                            "SMT off: smt/active still reads 1 (%s)", now);
    for (guint i = 0; i < topo->cores->len; i++) {
        const RvCore *core = &g_array_index(topo->cores, RvCore, i);
        RvCpuSet on;

        rv_cpuset_and(&on, &core->threads, &after->online);
        if (rv_cpuset_count(&on) > 1) {
            g_autofree char *l = rv_cpulist_format(&on);

            return rv_error_set(error, RV_ERROR_CHECK, EPROTO,
                                "SMT off: sibling threads %s of one core are still online (%s)",
                                l, now);
        }
    }
    return 0;
}

/* On: every present CPU online (cpuhp_smt_enable()), smt/active 1 when
 * the cores have siblings. */
static int
verify_on(const RvTopology *topo, const RvSmtState *after, GError **error)
{
    g_autofree char *now = rv_host_smt_state_format(after);

    if (!rv_cpuset_is_subset(&after->present, &after->online))
        return rv_error_set(error, RV_ERROR_CHECK, EPROTO,
                            "SMT on: present CPUs stayed offline (%s)", now);
    if (topo->smt && after->active == 0)
        return rv_error_set(error, RV_ERROR_CHECK, EPROTO,
                            "SMT on: smt/active still reads 0 (%s)", now);
    return 0;
}

int
rv_host_smt_set(RvRoot *root, RvJournal *journal, bool enable, GError **error)
{
    g_auto(RvSmtState) before = { 0 };
    g_auto(RvSmtState) after = { 0 };
    g_autoptr(RvTopology) topo = NULL;
    const char *reason;
    int r;

    r = rv_host_smt_state_read(root, &before, error);
    if (r < 0)
        return r;
    reason = rv_host_smt_unavailable_reason(&before, enable);
    if (reason)
        return rv_error_set(error, RV_ERROR_UNSUPPORTED, EOPNOTSUPP,
                            "Cannot turn SMT %s: %s", enable ? "on" : "off", reason);
    if (enable == is_on(&before))
        return 0;

    /* siblings as they are now: offline CPUs lose their topology/ dir */
    r = rv_host_topology_load(root, &topo, error);
    if (r < 0)
        return r;

    if (!enable) {
        /* "on" later onlines every present CPU: remember those offline now */
        rv_cpuset_foreach(cpu, &before.present) {
            g_autofree char *key = NULL;

            if (rv_cpuset_isset(&before.online, cpu))
                continue;
            key = g_strdup_printf("cpu%d", cpu);
            r = rv_host_journal_record_custom(journal, RV_HOST_SMT_JOURNAL_TYPE, key, "0", error);
            if (r < 0)
                return r;
        }
    }
    r = rv_host_journal_set_value(journal, SMT_CONTROL, enable ? "on" : "off", error);
    if (r < 0)
        return r;

    r = rv_host_smt_state_read(root, &after, error);
    if (r < 0)
        return r;
    r = enable ? verify_on(topo, &after, error) : verify_off(topo, &before, &after, error);
    if (r < 0)
        return r;
    return 1;
}

static int
restore_offline_cpu(RvRoot *root, const char *key, const char *data,
                    gpointer user_data, GError **error)
{
    g_autofree char *path = NULL;
    g_autofree char *cur = NULL;
    char *end = NULL;
    long cpu;
    int r;

    (void) user_data;
    if (!g_str_has_prefix(key, "cpu") || g_strcmp0(data, "0") != 0)
        return rv_error_set(error, RV_ERROR_INVALID, EINVAL,
                            "Journal entry %s '%s' = '%s' is not 'cpuN' = '0'",
                            RV_HOST_SMT_JOURNAL_TYPE, key, data ? data : "");
    cpu = strtol(key + 3, &end, 10);
    if (end == key + 3 || *end || cpu < 0 || cpu >= RV_CPUSET_MAX)
        return rv_error_set(error, RV_ERROR_INVALID, EINVAL,
                            "Journal entry %s names no CPU: '%s'", RV_HOST_SMT_JOURNAL_TYPE, key);
    path = g_strdup_printf("/sys/devices/system/cpu/cpu%ld/online", cpu);
    r = rv_host_root_read_value(root, path, &cur, NULL);
    if (r == -ENOENT)
        return 0;               /* not hot-pluggable (cpu0) or gone */
    if (r < 0)
        return rv_host_root_read_value(root, path, &cur, error);
    if (strcmp(cur, "0") == 0)
        return 0;
    return rv_host_root_write(root, path, "0", error);
}

void
rv_host_smt_journal_register(RvJournal *journal)
{
    rv_host_journal_set_custom_handler(journal, RV_HOST_SMT_JOURNAL_TYPE,
                                       restore_offline_cpu, NULL);
}
