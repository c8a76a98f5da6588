/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * harness/attribution.c: spike attribution of one repetition
 * (harness/attribution.h).
 */
#include <errno.h>
#include <string.h>

#include "harness/attribution.h"
#include "host/trace/attrtrace.h"
#include "host/facts/threads.h"
#include "results/attribution.h"
#include "util/error.h"

/* trace text read back at most (the per-CPU buffers bound it anyway) */
#define ATTR_MAX_TRACE_BYTES (64u << 20)

struct RvHarnessAttr {
    RvRoot *root;
    RvAttrTrace *trace;
    char *skip;
    char *cpus;               /* cpulist traced */
    char *unavailable;
    guint buffer_kb;
    char *text;
    gsize text_len;
    gboolean truncated;
    guint64 overrun;
    guint lost;
    GArray *events;           /* RvAttrEvent */
    GArray *tasks;            /* RvAttrTask */
    gint64 real_minus_mono;   /* CLOCK_REALTIME - CLOCK_MONOTONIC, us */
};

void
rv_harness_attr_free(RvHarnessAttr *a)
{
    if (!a)
        return;
    rv_host_attrtrace_free(a->trace);
    g_free(a->skip);
    g_free(a->cpus);
    g_free(a->unavailable);
    g_free(a->text);
    if (a->events)
        g_array_unref(a->events);
    if (a->tasks)
        g_array_unref(a->tasks);
    g_free(a);
}

RvHarnessAttr *
rv_harness_attr_start(RvRoot *root, const RvCpuSet *cpus, guint64 duration_us)
{
    RvHarnessAttr *a = g_new0(RvHarnessAttr, 1);
    g_autoptr(GError) err = NULL;
    guint64 secs = duration_us / G_USEC_PER_SEC + 2;

    a->root = root;
    a->cpus = rv_cpulist_format(cpus);
    /* 1 MiB per traced CPU and second: a TCG vCPU thread's host CPU logs
     * some thousand events a second of ~40 bytes; 2..64 MiB */
    a->buffer_kb = (guint) CLAMP(secs * 1024, (guint64) 2048, (guint64) 65536);
    a->real_minus_mono = g_get_real_time() - g_get_monotonic_time();
    if (rv_cpuset_is_empty(cpus))
        a->skip = g_strdup("no host CPU runs an RT vCPU");
    else if (rv_host_attrtrace_start(root, cpus, a->buffer_kb, &a->trace, &err) < 0)
        a->skip = g_strdup_printf("host trace not taken: %s", err->message);
    else
        a->unavailable = g_strdup(rv_host_attrtrace_unavailable(a->trace));
    return a;
}

const char *
rv_harness_attr_skip_reason(const RvHarnessAttr *a)
{
    return a->skip;
}

const char *
rv_harness_attr_trace_text(const RvHarnessAttr *a, gsize *ret_len)
{
    *ret_len = a->text_len;
    return a->text;
}

/* Policies of the tasks that switched in on the traced CPUs, read now
 * (a task gone by now keeps only the trace's prio: "RT 50"). */
static void
read_tasks(RvHarnessAttr *a)
{
    g_autoptr(GHashTable) seen = g_hash_table_new(g_direct_hash, g_direct_equal);

    a->tasks = g_array_new(FALSE, TRUE, sizeof(RvAttrTask));
    for (guint i = 0; i < a->events->len && a->tasks->len < 4096; i++) {
        const RvAttrEvent *e = &g_array_index(a->events, RvAttrEvent, i);
        /* the task an event ran in, or the one a switch brought in */
        pid_t pid = e->kind == RV_ATTR_SWITCH ? e->next_pid : e->pid;
        RvAttrTask t = { .pid = pid };
        int pol = 0, prio = 0;

        if (pid <= 0 || g_hash_table_contains(seen, GINT_TO_POINTER(pid)))
            continue;
        g_hash_table_add(seen, GINT_TO_POINTER(pid));
        if (rv_host_attrtrace_task_policy(a->root, pid, &pol, &prio) < 0)
            continue;
        g_strlcpy(t.policy, pol == 6 ? "DL" : rv_host_sched_policy_name(pol), sizeof(t.policy));
        t.rt_priority = prio;
        g_array_append_val(a->tasks, t);
    }
}

void
rv_harness_attr_stop(RvHarnessAttr *a)
{
    g_autoptr(GError) err = NULL;

    if (!a->trace)
        return;
    if (rv_host_attrtrace_stop(a->trace, ATTR_MAX_TRACE_BYTES, &a->text, &a->overrun,
                               &a->truncated, &err) < 0) {
        a->skip = g_strdup_printf("host trace not read: %s", err->message);
    } else {
        a->text_len = strlen(a->text);
        if (rv_result_attr_parse_trace(a->text, &a->events, &a->lost, &err) < 0)
            a->skip = g_strdup_printf("host trace refused: %s", err->message);
        else
            read_tasks(a);
    }
    /* the instance goes now: the tasks' policies are read */
    g_clear_pointer(&a->trace, rv_host_attrtrace_free);
}

JsonNode *
rv_harness_attr_skipped(const char *reason)
{
    g_autoptr(JsonBuilder) b = json_builder_new();

    json_builder_begin_object(b);
    json_builder_set_member_name(b, "skipped");
    json_builder_add_string_value(b, reason);
    json_builder_end_object(b);
    return json_builder_get_root(b);
}

void
rv_harness_attr_attach(RvStoreRecord *rec, JsonNode *attribution)
{
    g_autoptr(JsonNode) d = rec->details && JSON_NODE_HOLDS_OBJECT(rec->details)
        ? json_node_copy(rec->details) : json_node_init_object(json_node_alloc(), json_object_new());

    json_object_set_member(json_node_get_object(d), "attribution", json_node_copy(attribution));
    rv_result_store_record_set_details(rec, d);
}

GArray *
rv_harness_attr_ct_cpus(char **argv)
{
    for (guint i = 0; argv && argv[i]; i++) {
        const char *list = NULL;
        RvCpuSet set;
        GArray *cpus;

        if (g_str_has_prefix(argv[i], "-a") && argv[i][2])
            list = argv[i] + 2;
        else if (strcmp(argv[i], "-a") == 0 && argv[i + 1])
            list = argv[i + 1];
        if (!list || rv_cpulist_parse(list, 0, &set, NULL) < 0)
            continue;
        cpus = g_array_new(FALSE, FALSE, sizeof(guint));
        rv_cpuset_foreach(c, &set) {
            guint u = (guint) c;

            g_array_append_val(cpus, u);
        }
        return cpus;
    }
    return NULL;
}

static void
add_trace_facts(JsonBuilder *b, const RvHarnessAttr *a)
{
    json_builder_set_member_name(b, "trace");
    json_builder_begin_object(b);
    json_builder_set_member_name(b, "instance");
    json_builder_add_string_value(b, "instances/" RV_HOST_ATTRTRACE_INSTANCE);
    json_builder_set_member_name(b, "cpus");
    json_builder_add_string_value(b, a->cpus);
    json_builder_set_member_name(b, "buffer_kb");
    json_builder_add_int_value(b, a->buffer_kb);
    json_builder_set_member_name(b, "events");
    json_builder_add_int_value(b, a->events ? a->events->len : 0);
    json_builder_set_member_name(b, "overrun");
    json_builder_add_int_value(b, (gint64) a->overrun);
    json_builder_set_member_name(b, "lost");
    json_builder_add_int_value(b, a->lost);
    json_builder_set_member_name(b, "truncated");
    json_builder_add_boolean_value(b, a->truncated);
    {
        guint kvm = 0;

        for (guint i = 0; a->events && i < a->events->len; i++)
            kvm += g_array_index(a->events, RvAttrEvent, i).kind == RV_ATTR_KVM_EXIT;
        /* 0 with TCG guests: their vCPU threads never enter KVM */
        json_builder_set_member_name(b, "kvm_exits");
        json_builder_add_int_value(b, kvm);
    }
    json_builder_set_member_name(b, "unavailable");
    json_builder_add_string_value(b, a->unavailable ? a->unavailable : "");
    json_builder_end_object(b);
}

static void
add_spike(JsonBuilder *b, RvHarnessAttr *a, const RvAttrSample *s, guint vcpu, pid_t tid,
          gint64 t0_mono_us, guint64 err_us)
{
    gint64 wake_us = t0_mono_us + (gint64) s->rel_us;
    guint64 lo_us = (guint64) MAX((gint64) 0, wake_us - (gint64) s->latency_us -
                                  RV_HARNESS_ATTR_MARGIN_US - (gint64) err_us);
    RvAttrSpike sp = { .latency_us = s->latency_us, .wake_ns = (guint64) wake_us * 1000,
                       .window_lo_ns = lo_us * 1000,
                       .window_hi_ns = ((guint64) wake_us + RV_HARNESS_ATTR_MARGIN_US + err_us)
                                       * 1000,
                       .vcpu = vcpu, .vcpu_tid = tid, .cpu = -1 };
    gint64 real_us = wake_us + a->real_minus_mono;
    g_autoptr(GDateTime) sec = g_date_time_new_from_unix_utc(real_us / G_USEC_PER_SEC);
    g_autoptr(GDateTime) when = g_date_time_add(sec, real_us % G_USEC_PER_SEC);
    g_autofree char *iso = g_date_time_format_iso8601(when);
    JsonNode *events = NULL;
    g_autofree char *story = rv_result_attr_story(a->events, &sp, a->tasks, &events);

    json_builder_begin_object(b);
    json_builder_set_member_name(b, "latency_us");
    json_builder_add_int_value(b, (gint64) s->latency_us);
    json_builder_set_member_name(b, "time");
    json_builder_add_string_value(b, iso);
    json_builder_set_member_name(b, "vcpu");
    json_builder_add_int_value(b, vcpu);
    json_builder_set_member_name(b, "cpu");
    json_builder_add_int_value(b, sp.cpu);
    json_builder_set_member_name(b, "story");
    json_builder_add_string_value(b, story);
    json_builder_set_member_name(b, "events");
    json_builder_add_value(b, events);
    json_builder_end_object(b);
}

JsonNode *
rv_harness_attr_guest(RvHarnessAttr *a, const char *out, gsize len, guint64 interval_us,
                      const GArray *ct_cpus, const GArray *vcpu_tids, gint64 mono_start_us,
                      gint64 mono_end_us, char **ret_rest)
{
    g_autoptr(GArray) samples = NULL, worst = NULL;
    g_autoptr(GError) err = NULL;
    g_autoptr(JsonBuilder) b = json_builder_new();
    g_autofree char *why = NULL;
    guint64 span = 0, slack, err_us;
    /* 1.5 x the planned samples, plus the status and histogram lines */
    guint max_lines = 4u << 20;

    *ret_rest = NULL;
    if (rv_result_attr_split_samples(out, len, interval_us, max_lines, &samples, ret_rest, &span,
                                     &err) < 0)
        return rv_harness_attr_skipped(err->message);
    if (a->skip)
        return rv_harness_attr_skipped(a->skip);
    if ((guint64) (mono_end_us - mono_start_us) < span) {
        why = g_strdup_printf("cyclictest's samples span %" G_GUINT64_FORMAT " us, more than the "
                              "%" G_GINT64_FORMAT " us the host saw it run: the guest clock "
                              "ran fast, no alignment", span, mono_end_us - mono_start_us);
        return rv_harness_attr_skipped(why);
    }
    /* the thread started in [start, end - span]: the midpoint, +- half */
    slack = (guint64) (mono_end_us - mono_start_us) - span;
    err_us = (slack + 1) / 2;
    worst = rv_result_attr_worst(samples, RV_HARNESS_ATTR_WORST);
    json_builder_begin_object(b);
    json_builder_set_member_name(b, "alignment_error_us");
    json_builder_add_int_value(b, (gint64) err_us);
    json_builder_set_member_name(b, "window_margin_us");
    json_builder_add_int_value(b, RV_HARNESS_ATTR_MARGIN_US);
    add_trace_facts(b, a);
    json_builder_set_member_name(b, "spikes");
    json_builder_begin_array(b);
    for (guint i = 0; i < worst->len; i++) {
        const RvAttrSample *s = &g_array_index(worst, RvAttrSample, i);
        guint vcpu = ct_cpus && s->thread < ct_cpus->len
            ? g_array_index(ct_cpus, guint, s->thread) : s->thread;
        pid_t tid = vcpu_tids && vcpu < vcpu_tids->len ? g_array_index(vcpu_tids, int, vcpu) : -1;

        add_spike(b, a, s, vcpu, tid, mono_start_us + (gint64) err_us, err_us);
    }
    json_builder_end_array(b);
    json_builder_end_object(b);
    return json_builder_get_root(b);
}
