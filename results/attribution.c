/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * results/attribution.c: worst cyclictest samples with their time, host
 * trace events, and the story of each spike (results/attribution.h).
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "results/attribution.h"
#include "util/error.h"
#include "results/store.h"
#include "util/escape.h"

/* ---- samples ------------------------------------------------------------ */

/* "%8d:%8lu:%8ld": three colon-separated decimal fields, spaces allowed
 * before each.  Returns true and the values for such a line. */
static bool
parse_sample_line(const char *line, gint64 v[3])
{
    const char *p = line;

    for (int i = 0; i < 3; i++) {
        char *end = NULL;

        while (*p == ' ')
            p++;
        if (!(g_ascii_isdigit(*p) || (*p == '-' && g_ascii_isdigit(p[1]))))
            return false;
        errno = 0;
        v[i] = g_ascii_strtoll(p, &end, 10);
        if (errno || end == p)
            return false;
        p = end;
        if (i < 2) {
            if (*p != ':')
                return false;
            p++;
        }
    }
    while (*p == ' ' || *p == '\r')
        p++;
    return *p == '\0';
}

/* A line is a sample line when it has the shape "  N:  N:  N" even if a
 * field is out of range (then it is refused, not passed on). */
static bool
looks_like_sample(const char *line)
{
    guint colons = 0;

    for (const char *p = line; *p; p++) {
        if (*p == ':')
            colons++;
        else if (*p != ' ' && *p != '-' && *p != '\r' && !g_ascii_isdigit(*p))
            return false;
    }
    return colons == 2;
}

int
rv_result_attr_split_samples(const char *data, gsize len, guint64 interval_us,
                             guint max_lines, GArray **ret_samples, char **ret_rest,
                             guint64 *ret_span_us, GError **error)
{
    g_autoptr(GArray) samples = g_array_new(FALSE, TRUE, sizeof(RvAttrSample));
    g_autoptr(GString) rest = g_string_sized_new(MIN(len, (gsize) 65536));
    /* per thread: next cycle expected, schedule position (us after start) */
    g_autoptr(GArray) next_cycle = g_array_new(FALSE, TRUE, sizeof(guint64));
    g_autoptr(GArray) next_us = g_array_new(FALSE, TRUE, sizeof(guint64));
    g_autofree char *copy = g_strndup(data ? data : "", len);
    guint64 span = 0;
    guint lineno = 0;

    if (interval_us == 0)
        return rv_error_set(error, RV_ERROR_INVALID, EINVAL, "cyclictest interval 0");
    if (memchr(copy, '\0', len))
        return rv_error_set(error, RV_ERROR_INVALID, EINVAL,
                            "cyclictest output holds a NUL byte: not text");
    for (char *line = copy, *nl; line && *line; line = nl) {
        gint64 v[3];

        nl = strchr(line, '\n');
        if (nl)
            *nl++ = '\0';
        lineno++;
        if (!looks_like_sample(line)) {
            g_string_append(rest, line);
            g_string_append_c(rest, '\n');
            continue;
        }
        if (samples->len >= max_lines)
            return rv_error_set(error, RV_ERROR_INVALID, E2BIG,
                                "line %u: more than %u cyclictest sample lines", lineno,
                                max_lines);
        if (!parse_sample_line(line, v) || v[0] < 0 || v[0] > 1023 || v[1] < 0 || v[2] < 0 ||
            v[2] > 1000000000) {
            g_autofree char *q = rv_escape_value(line);

            return rv_error_set(error, RV_ERROR_INVALID, EINVAL,
                                "line %u: malformed cyclictest sample line '%.80s'", lineno, q);
        }
        guint t = (guint) v[0];

        if (t >= next_cycle->len) {
            g_array_set_size(next_cycle, t + 1);
            g_array_set_size(next_us, t + 1);
        }
        guint64 *nc = &g_array_index(next_cycle, guint64, t);
        guint64 *nu = &g_array_index(next_us, guint64, t);

        if ((guint64) v[1] != *nc)
            return rv_error_set(error, RV_ERROR_INVALID, EPROTO,
                                "line %u: thread %u cycle %" G_GINT64_FORMAT " after %"
                                G_GUINT64_FORMAT " (samples lost or reordered)", lineno, t, v[1],
                                *nc);
        if (*nc == 0)
            *nu = interval_us;          /* next = now + interval at start */
        RvAttrSample s = { .thread = t, .cycle = (guint64) v[1],
                           .latency_us = (guint64) v[2], .rel_us = *nu + (guint64) v[2] };

        g_array_append_val(samples, s);
        span = MAX(span, s.rel_us);
        /* next += interval; while (now > next) next += interval */
        /* the smallest m >= 1 with m * interval >= latency (now == next stays) */
        guint64 steps = MAX((guint64) 1, (s.latency_us + interval_us - 1) / interval_us);

        *nu += steps * interval_us;
        (*nc)++;
    }
    if (samples->len == 0)
        return rv_error_set(error, RV_ERROR_INVALID, ENODATA,
                            "no cyclictest sample line (-v output) in %u lines", lineno);
    *ret_span_us = span;
    *ret_rest = g_string_free(g_steal_pointer(&rest), FALSE);
    *ret_samples = g_steal_pointer(&samples);
    return (int) (*ret_samples)->len;
}

static int
cmp_worst(gconstpointer a, gconstpointer b)
{
    const RvAttrSample *x = a, *y = b;

    if (x->latency_us != y->latency_us)
        return x->latency_us > y->latency_us ? -1 : 1;
    return x->rel_us < y->rel_us ? -1 : (x->rel_us > y->rel_us);
}

GArray *
rv_result_attr_worst(const GArray *samples, guint n)
{
    GArray *w = g_array_sized_new(FALSE, TRUE, sizeof(RvAttrSample), samples->len);

    g_array_append_vals(w, samples->data, samples->len);
    g_array_sort(w, cmp_worst);
    if (w->len > n)
        g_array_set_size(w, n);
    return w;
}

/* ---- trace events ------------------------------------------------------- */

/* The value after "key=" in @fields up to the next " " (or, for comm
 * fields, up to " @next_key="): copied into @buf. */
static bool
field_str(const char *fields, const char *key, const char *next_key, char *buf, gsize size)
{
    g_autofree char *pat = g_strdup_printf("%s=", key);
    const char *p = fields, *end;

    while ((p = strstr(p, pat)) && p != fields && p[-1] != ' ')
        p++;
    if (!p)
        return false;
    p += strlen(pat);
    if (next_key) {
        g_autofree char *np = g_strdup_printf(" %s=", next_key);

        end = strstr(p, np);
    } else {
        end = strchr(p, ' ');
    }
    if (!end)
        end = p + strlen(p);
    g_strlcpy(buf, p, MIN(size, (gsize) (end - p) + 1));
    return true;
}

static bool
field_int(const char *fields, const char *key, gint64 *ret)
{
    char buf[32];
    char *end = NULL;

    if (!field_str(fields, key, NULL, buf, sizeof(buf)))
        return false;
    errno = 0;
    *ret = g_ascii_strtoll(buf, &end, 10);
    return errno == 0 && end != buf && *end == '\0';
}

/* sched_switch: "prev_comm=X prev_pid=N prev_prio=N prev_state=S ==>
 * next_comm=Y next_pid=N next_prio=N" (comms may hold spaces). */
static bool
parse_switch(const char *f, RvAttrEvent *e)
{
    gint64 a, b, c, d;
    const char *arrow = strstr(f, " ==> ");

    if (!arrow || !field_str(f, "prev_comm", "prev_pid", e->prev_comm, sizeof(e->prev_comm)) ||
        !field_int(f, "prev_pid", &a) || !field_int(f, "prev_prio", &b) ||
        !field_str(arrow, "next_comm", "next_pid", e->next_comm, sizeof(e->next_comm)) ||
        !field_int(arrow, "next_pid", &c) || !field_int(arrow, "next_prio", &d))
        return false;
    e->prev_pid = (pid_t) a;
    e->prev_prio = (int) b;
    e->next_pid = (pid_t) c;
    e->next_prio = (int) d;
    return true;
}

static bool
parse_fields(RvAttrEvent *e, const char *ev, const char *f)
{
    gint64 v;

    if (strcmp(ev, "sched_switch") == 0) {
        e->kind = RV_ATTR_SWITCH;
        return parse_switch(f, e);
    }
    if (strcmp(ev, "sched_wakeup") == 0) {
        e->kind = RV_ATTR_WAKEUP;
        if (!field_str(f, "comm", "pid", e->next_comm, sizeof(e->next_comm)) ||
            !field_int(f, "pid", &v))
            return false;
        e->next_pid = (pid_t) v;
        if (field_int(f, "prio", &v))
            e->next_prio = (int) v;
        return true;
    }
    if (strcmp(ev, "irq_handler_entry") == 0 || strcmp(ev, "irq_handler_exit") == 0) {
        e->kind = ev[12] == 'e' && ev[13] == 'n' ? RV_ATTR_IRQ_ENTRY : RV_ATTR_IRQ_EXIT;
        if (!field_int(f, "irq", &v))
            return false;
        e->num = (int) v;
        if (e->kind == RV_ATTR_IRQ_ENTRY)
            (void) field_str(f, "name", NULL, e->name, sizeof(e->name));
        return true;
    }
    if (strcmp(ev, "softirq_entry") == 0 || strcmp(ev, "softirq_exit") == 0) {
        e->kind = ev[8] == 'e' && ev[9] == 'n' ? RV_ATTR_SOFTIRQ_ENTRY : RV_ATTR_SOFTIRQ_EXIT;
        if (!field_int(f, "vec", &v))
            return false;
        e->num = (int) v;
        /* "vec=1 [action=TIMER]" */
        if (field_str(f, "[action", NULL, e->name, sizeof(e->name)))
            e->name[strcspn(e->name, "]")] = '\0';
        return true;
    }
    if (strcmp(ev, "cpu_idle") == 0) {
        e->kind = RV_ATTR_IDLE;
        if (!field_int(f, "state", &v))
            return false;
        e->num = v == 4294967295LL || v < 0 ? -1 : (int) v;
        return true;
    }
    if (strcmp(ev, "hrtimer_expire_entry") == 0) {
        e->kind = RV_ATTR_HRTIMER_ENTRY;
        return field_str(f, "function", NULL, e->name, sizeof(e->name));
    }
    if (strcmp(ev, "hrtimer_expire_exit") == 0) {
        e->kind = RV_ATTR_HRTIMER_EXIT;
        return true;
    }
    if (strcmp(ev, "kvm_exit") == 0) {
        /* "vcpu 0 reason EXTERNAL_INTERRUPT rip ..." (6.x) or "reason X rip" */
        const char *r = strstr(f, "reason ");

        e->kind = RV_ATTR_KVM_EXIT;
        if (!r)
            return false;
        r += 7;
        g_strlcpy(e->name, r, MIN(sizeof(e->name), strcspn(r, " ") + 1));
        return true;
    }
    return false;
}

static bool
known_event(const char *ev)
{
    static const char *const known[] = {
        "sched_switch", "sched_wakeup", "irq_handler_entry", "irq_handler_exit",
        "softirq_entry", "softirq_exit", "cpu_idle", "hrtimer_expire_entry",
        "hrtimer_expire_exit", "kvm_exit", NULL,
    };

    for (guint i = 0; known[i]; i++)
        if (strcmp(ev, known[i]) == 0)
            return true;
    return false;
}

int
rv_result_attr_parse_trace(const char *text, GArray **ret_events, guint *ret_lost,
                           GError **error)
{
    g_autoptr(GRegex) re = g_regex_new(
        "^\\s*(.*)-(\\d+)\\s+(?:\\(\\s*[\\d-]+\\)\\s+)?\\[(\\d+)\\]\\s+(?:\\S+\\s+)?"
        "(\\d+)\\.(\\d{6}):\\s+(\\w+):\\s?(.*)$", G_REGEX_OPTIMIZE, 0, NULL);
    g_autoptr(GArray) ev = g_array_new(FALSE, TRUE, sizeof(RvAttrEvent));
    g_auto(GStrv) lines = g_strsplit(text ? text : "", "\n", -1);
    guint lost = 0;

    for (guint i = 0; lines[i]; i++) {
        g_autoptr(GMatchInfo) mi = NULL;
        const char *l = lines[i];
        const char *lp = strstr(l, "LOST ");

        if (*l == '#' || *l == '\0')
            continue;
        if (g_str_has_prefix(l, "CPU:") && lp) {
            lost += (guint) g_ascii_strtoull(lp + 5, NULL, 10);
            continue;
        }
        if (!g_regex_match(re, l, 0, &mi))
            continue;
        g_autofree char *name = g_match_info_fetch(mi, 6);

        if (!known_event(name))
            continue;
        g_autofree char *comm = g_match_info_fetch(mi, 1);
        g_autofree char *pid = g_match_info_fetch(mi, 2);
        g_autofree char *cpu = g_match_info_fetch(mi, 3);
        g_autofree char *sec = g_match_info_fetch(mi, 4);
        g_autofree char *usec = g_match_info_fetch(mi, 5);
        g_autofree char *fields = g_match_info_fetch(mi, 7);
        RvAttrEvent e = { 0 };

        e.cpu = (guint) g_ascii_strtoull(cpu, NULL, 10);
        e.pid = (pid_t) g_ascii_strtoll(pid, NULL, 10);
        g_strlcpy(e.comm, g_strstrip(comm), sizeof(e.comm));
        e.ts_ns = g_ascii_strtoull(sec, NULL, 10) * 1000000000ull +
                  g_ascii_strtoull(usec, NULL, 10) * 1000ull;
        if (e.cpu > 4095 || !parse_fields(&e, name, g_strchomp(fields))) {
            g_autofree char *q = rv_escape_value(l);

            return rv_error_set(error, RV_ERROR_INVALID, EINVAL,
                                "trace line %u: malformed %s event: '%.160s'", i + 1, name, q);
        }
        g_array_append_val(ev, e);
    }
    if (ret_lost)
        *ret_lost = lost;
    *ret_events = g_steal_pointer(&ev);
    return (int) (*ret_events)->len;
}

/* ---- stories ------------------------------------------------------------ */

#define RV_ATTR_PRIO_UNKNOWN 1000

char *
rv_result_attr_prio_label(int kernel_prio, const RvAttrTask *task)
{
    if (task && task->policy[0] && (strcmp(task->policy, "FIFO") == 0 ||
                                    strcmp(task->policy, "RR") == 0))
        return g_strdup_printf("%s %d", task->policy, task->rt_priority);
    if (task && strcmp(task->policy, "DL") == 0)
        return g_strdup("DL");
    if (kernel_prio >= 0 && kernel_prio < 99)
        return g_strdup_printf("RT %d", 99 - kernel_prio);
    if (kernel_prio == RV_ATTR_PRIO_UNKNOWN)
        return g_strdup("prio unknown");
    if (kernel_prio < 0)
        return g_strdup("DL");
    return g_strdup_printf("nice %d", kernel_prio - 120);
}

/* One actor of a story: who and how long. */
typedef struct {
    char *key;        /* "task 1234", "irq 24", "softirq TIMER", ... */
    char *label;      /* "rv-busy/1234 (FIFO 50)", "IRQ 24 virtio0" */
    guint64 ns;
    guint count;
    int order;        /* 0 preemptor, 1 irq, 2 softirq, 3 timer, 4 idle, 5+ counted */
    pid_t pid;        /* a preemptor's */
    bool rt;          /* a preemptor at an RT priority (FIFO/RR/DL) */
} Actor;

static void
actor_free(gpointer p)
{
    Actor *a = p;

    g_free(a->key);
    g_free(a->label);
    g_free(a);
}

static Actor *
actor_get(GHashTable *actors, int order, const char *key, const char *label)
{
    Actor *a = g_hash_table_lookup(actors, key);

    if (!a) {
        a = g_new0(Actor, 1);
        a->key = g_strdup(key);
        a->label = g_strdup(label);
        a->order = order;
        g_hash_table_insert(actors, a->key, a);
    }
    return a;
}

static const RvAttrTask *
task_find(const GArray *tasks, pid_t pid)
{
    for (guint i = 0; tasks && i < tasks->len; i++)
        if (g_array_index(tasks, RvAttrTask, i).pid == pid)
            return &g_array_index(tasks, RvAttrTask, i);
    return NULL;
}

static void
add_run(GHashTable *actors, const GArray *tasks, pid_t pid, const char *comm, int prio,
        pid_t vcpu_tid, guint64 from, guint64 to)
{
    g_autofree char *key = NULL, *label = NULL, *pl = NULL;
    Actor *a;

    if (to <= from || pid == vcpu_tid)
        return;
    if (pid == 0) {
        a = actor_get(actors, 4, "idle", "idle");
    } else {
        key = g_strdup_printf("task %d", (int) pid);
        pl = rv_result_attr_prio_label(prio, task_find(tasks, pid));
        label = g_strdup_printf("%s/%d (%s)", comm, (int) pid, pl);
        a = actor_get(actors, 0, key, label);
        a->pid = pid;
        a->rt = prio < 99 || (task_find(tasks, pid) &&
                              task_find(tasks, pid)->rt_priority > 0);
    }
    a->ns += to - from;
    a->count++;
}

static char *
fmt_dur(guint64 ns)
{
    if (ns >= 1000000)
        return g_strdup_printf("%.1f ms", (double) ns / 1e6);
    return g_strdup_printf("%" G_GUINT64_FORMAT " us", (ns + 500) / 1000);
}

/* Story order: threads that ran instead of the vCPU (those at an RT
 * priority first: they take the CPU, the others share it), IRQs,
 * softirqs, timers, idle, idle states, kvm_exit reasons; the longest
 * first in each. */
static int
cmp_actor(gconstpointer a, gconstpointer b)
{
    const Actor *x = *(Actor * const *) a, *y = *(Actor * const *) b;

    if (x->order != y->order)
        return x->order - y->order;
    if (x->rt != y->rt)
        return x->rt ? -1 : 1;
    if (x->count != y->count && x->order >= 5)
        return x->count > y->count ? -1 : 1;
    if (x->ns != y->ns)
        return x->ns > y->ns ? -1 : 1;
    return strcmp(x->key, y->key);
}

/* A line of the event list, and the tasks it names. */
typedef struct {
    guint64 ts_ns;
    char *line;
    pid_t a, b;
} Cand;

static void
cand_clear(gpointer p)
{
    g_free(((Cand *) p)->line);
}

static void
add_cand(GArray *cands, guint64 ts, pid_t a, pid_t b, char *line)
{
    Cand c = { .ts_ns = ts, .line = line, .a = a, .b = b };

    if (cands->len < 100000)
        g_array_append_val(cands, c);
    else
        g_free(line);
}

static void
add_event_line(GArray *cands, const RvAttrEvent *e, guint64 t0)
{
    g_autofree char *what = NULL;
    double ms = ((double) e->ts_ns - (double) t0) / 1e6;

    switch (e->kind) {
    case RV_ATTR_SWITCH:
        what = g_strdup_printf("switch %s/%d prio %d -> %s/%d prio %d", e->prev_comm,
                               (int) e->prev_pid, e->prev_prio, e->next_comm, (int) e->next_pid,
                               e->next_prio);
        break;
    case RV_ATTR_WAKEUP:
        what = g_strdup_printf("wakeup %s/%d prio %d", e->next_comm, (int) e->next_pid,
                               e->next_prio);
        break;
    case RV_ATTR_IRQ_ENTRY:
        what = g_strdup_printf("irq %d %s entry", e->num, e->name);
        break;
    case RV_ATTR_IRQ_EXIT:
        what = g_strdup_printf("irq %d exit", e->num);
        break;
    case RV_ATTR_SOFTIRQ_ENTRY:
        what = g_strdup_printf("softirq %s entry", e->name);
        break;
    case RV_ATTR_SOFTIRQ_EXIT:
        what = g_strdup_printf("softirq %d exit", e->num);
        break;
    case RV_ATTR_IDLE:
        what = e->num < 0 ? g_strdup("idle exit") : g_strdup_printf("idle state %d", e->num);
        break;
    case RV_ATTR_HRTIMER_ENTRY:
        what = g_strdup_printf("hrtimer %s", e->name);
        break;
    case RV_ATTR_HRTIMER_EXIT:
        what = g_strdup("hrtimer exit");
        break;
    case RV_ATTR_KVM_EXIT:
        what = g_strdup_printf("kvm_exit %s", e->name);
        break;
    }
    add_cand(cands, e->ts_ns, e->kind == RV_ATTR_SWITCH ? e->prev_pid : e->pid,
             e->kind == RV_ATTR_SWITCH || e->kind == RV_ATTR_WAKEUP ? e->next_pid : e->pid,
             g_strdup_printf("%+.3f ms %s", ms, what));
}

/* At most 64 lines, in time order: first those naming the two tasks that
 * ran longest instead of the vCPU (@top, 0 = none), then the ones nearest
 * the spike's middle. */
static JsonNode *
select_events(GArray *cands, const pid_t top[2], guint64 mid_ns)
{
    g_autoptr(JsonArray) arr = json_array_new();
    g_autofree bool *keep = g_new0(bool, cands->len + 1);
    guint n = 0;
    JsonNode *node;

    for (guint pass = 0; pass < 2; pass++)
        for (guint i = 0; i < cands->len && n < 32; i++) {
            const Cand *c = &g_array_index(cands, Cand, i);
            pid_t t = top[pass];

            if (t > 0 && !keep[i] && (c->a == t || c->b == t)) {
                keep[i] = true;
                n++;
            }
        }
    while (n < 64 && n < cands->len) {
        guint best = G_MAXUINT;
        guint64 bd = G_MAXUINT64;

        for (guint i = 0; i < cands->len; i++) {
            const Cand *c = &g_array_index(cands, Cand, i);
            guint64 d = c->ts_ns > mid_ns ? c->ts_ns - mid_ns : mid_ns - c->ts_ns;

            if (!keep[i] && d < bd) {
                bd = d;
                best = i;
            }
        }
        keep[best] = true;
        n++;
    }
    /* cands are in time order: the walk appends them as it goes */
    for (guint i = 0; i < cands->len; i++)
        if (keep[i])
            json_array_add_string_element(arr, g_array_index(cands, Cand, i).line);
    node = json_node_new(JSON_NODE_ARRAY);
    json_node_set_array(node, arr);
    return node;
}

/* The CPU the vCPU thread last switched in on at or before @hi, or -1. */
static int
find_cpu(const GArray *events, pid_t tid, guint64 hi)
{
    int cpu = -1;

    for (guint i = 0; i < events->len; i++) {
        const RvAttrEvent *e = &g_array_index(events, RvAttrEvent, i);

        if (e->ts_ns > hi)
            break;
        if (e->kind == RV_ATTR_SWITCH && e->next_pid == tid)
            cpu = (int) e->cpu;
    }
    return cpu;
}

/* Accumulates the window's actors on one CPU (the events' walk). */
static void
walk_window(const GArray *events, const RvAttrSpike *sp, const GArray *tasks,
            GHashTable *actors, GArray *cands, guint *n_events)
{
    guint64 lo = sp->window_lo_ns, hi = sp->window_hi_ns;
    /* the running task: unknown until the first switch on that CPU
     * (then the window's start is charged to the prev of that switch) */
    bool known = false;
    pid_t cur = 0;
    int cur_prio = 120;
    char cur_comm[16] = "";
    guint64 since = lo, last = lo;
    /* kernel prio per pid from sched_switch/sched_wakeup, for tasks that
     * appear only as an event's context */
    g_autoptr(GHashTable) prio = g_hash_table_new(g_direct_hash, g_direct_equal);
    guint64 irq_t = 0, soft_t = 0, hrt_t = 0;
    int irq_n = -1, soft_n = -1;
    char irq_name[32] = "", soft_name[32] = "", hrt_name[32] = "";
    guint64 kvm_exits = 0;

    for (guint i = 0; i < events->len; i++) {
        const RvAttrEvent *e = &g_array_index(events, RvAttrEvent, i);
        guint64 t;

        if ((int) e->cpu != sp->cpu || e->ts_ns < lo)
            continue;
        if (e->ts_ns > hi)
            break;
        t = e->ts_ns;
        (*n_events)++;
        if (e->kind == RV_ATTR_SWITCH || e->kind == RV_ATTR_WAKEUP)
            g_hash_table_insert(prio, GINT_TO_POINTER(e->next_pid),
                                GINT_TO_POINTER(e->next_prio + 1));
        if (e->kind == RV_ATTR_SWITCH)
            g_hash_table_insert(prio, GINT_TO_POINTER(e->prev_pid),
                                GINT_TO_POINTER(e->prev_prio + 1));
        if (!known || e->pid != cur) {
            /* the context says who runs: the first event, or a switch the
             * trace left out (placed at the previous event) */
            gpointer pp = g_hash_table_lookup(prio, GINT_TO_POINTER(e->pid));

            if (known) {
                add_run(actors, tasks, cur, cur_comm, cur_prio, sp->vcpu_tid, since, last);
                add_cand(cands, last, cur, e->pid, g_strdup_printf(
                        "%+.3f ms switch %s/%d -> %s/%d (not traced: from the next event's "
                        "context)", ((double) last - (double) sp->wake_ns) / 1e6,
                        cur == 0 ? "idle" : cur_comm, (int) cur,
                        e->pid == 0 ? "idle" : e->comm, (int) e->pid));
            }
            since = known ? last : lo;
            known = true;
            cur = e->pid;
            cur_prio = pp ? GPOINTER_TO_INT(pp) - 1 : e->pid == 0 ? 120 : RV_ATTR_PRIO_UNKNOWN;
            g_strlcpy(cur_comm, e->pid == 0 ? "idle" : e->comm, sizeof(cur_comm));
        }
        last = t;
        /* the event list: who came and went (switches, wake-ups of other
         * tasks, IRQ entries, kvm_exit), not the vCPU thread's own halt
         * churn (switches between it and idle, its wake-ups), nor the
         * exits, softirqs, timers and idle states the story sums up */
        if ((e->kind == RV_ATTR_WAKEUP && e->next_pid != sp->vcpu_tid) ||
            e->kind == RV_ATTR_IRQ_ENTRY || e->kind == RV_ATTR_KVM_EXIT ||
            (e->kind == RV_ATTR_SWITCH &&
             !((e->prev_pid == sp->vcpu_tid || e->prev_pid == 0) &&
               (e->next_pid == sp->vcpu_tid || e->next_pid == 0))))
            add_event_line(cands, e, sp->wake_ns);
        switch (e->kind) {
        case RV_ATTR_SWITCH:
            add_run(actors, tasks, cur, cur_comm, cur_prio, sp->vcpu_tid, since, t);
            cur = e->next_pid;
            cur_prio = e->next_prio;
            g_strlcpy(cur_comm, e->next_comm, sizeof(cur_comm));
            since = t;
            break;
        case RV_ATTR_IRQ_ENTRY:
            irq_t = t;
            irq_n = e->num;
            g_strlcpy(irq_name, e->name, sizeof(irq_name));
            break;
        case RV_ATTR_IRQ_EXIT:
            if (irq_n == e->num && irq_t) {
                g_autofree char *key = g_strdup_printf("irq %d", irq_n);
                g_autofree char *label = g_strdup_printf("IRQ %d %s", irq_n, irq_name);
                Actor *a = actor_get(actors, 1, key, label);

                a->ns += t - irq_t;
                a->count++;
            }
            irq_t = 0;
            break;
        case RV_ATTR_SOFTIRQ_ENTRY:
            soft_t = t;
            soft_n = e->num;
            g_strlcpy(soft_name, e->name[0] ? e->name : "?", sizeof(soft_name));
            break;
        case RV_ATTR_SOFTIRQ_EXIT:
            if (soft_n == e->num && soft_t) {
                g_autofree char *key = g_strdup_printf("softirq %s", soft_name);
                g_autofree char *label = g_strdup_printf("softirq %s", soft_name);
                Actor *a = actor_get(actors, 2, key, label);

                a->ns += t - soft_t;
                a->count++;
            }
            soft_t = 0;
            break;
        case RV_ATTR_HRTIMER_ENTRY:
            hrt_t = t;
            g_strlcpy(hrt_name, e->name, sizeof(hrt_name));
            break;
        case RV_ATTR_HRTIMER_EXIT:
            if (hrt_t) {
                g_autofree char *key = g_strdup_printf("timer %s", hrt_name);
                g_autofree char *label = g_strdup_printf("timer %s", hrt_name);
                Actor *a = actor_get(actors, 3, key, label);

                a->ns += t - hrt_t;
                a->count++;
            }
            hrt_t = 0;
            break;
        case RV_ATTR_IDLE:
            if (e->num >= 0) {
                g_autofree char *key = g_strdup_printf("cstate %d", e->num);
                g_autofree char *label = g_strdup_printf("idle state %d", e->num);

                actor_get(actors, 5, key, label)->count++;
            }
            break;
        case RV_ATTR_KVM_EXIT:
            kvm_exits++;
            {
                g_autofree char *key = g_strdup_printf("kvm %s", e->name);
                g_autofree char *label = g_strdup_printf("kvm_exit %s", e->name);

                actor_get(actors, 6, key, label)->count++;
            }
            break;
        case RV_ATTR_WAKEUP:
            break;
        }
    }
    if (known)
        add_run(actors, tasks, cur, cur_comm, cur_prio, sp->vcpu_tid, since, hi);
    (void) kvm_exits;
}

char *
rv_result_attr_story(const GArray *events, RvAttrSpike *sp, const GArray *tasks,
                     JsonNode **ret_events)
{
    g_autoptr(GHashTable) actors = g_hash_table_new_full(g_str_hash, g_str_equal, NULL,
                                                         actor_free);
    g_autoptr(GArray) cands = g_array_new(FALSE, TRUE, sizeof(Cand));
    g_autoptr(GPtrArray) list = g_ptr_array_new();
    pid_t top[2] = { 0, 0 };
    g_autoptr(GString) s = g_string_new(NULL);
    guint n_events = 0, told = 0;
    GHashTableIter it;
    gpointer v;

    if (sp->cpu < 0)
        sp->cpu = find_cpu(events, sp->vcpu_tid, sp->window_hi_ns);
    if (sp->cpu < 0) {
        g_string_printf(s, "vCPU%u: its thread %d never ran on a traced CPU before the spike",
                        sp->vcpu, (int) sp->vcpu_tid);
    } else {
        g_array_set_clear_func(cands, cand_clear);
        walk_window(events, sp, tasks, actors, cands, &n_events);
        g_hash_table_iter_init(&it, actors);
        while (g_hash_table_iter_next(&it, NULL, &v))
            g_ptr_array_add(list, v);
        g_ptr_array_sort(list, cmp_actor);
        g_string_printf(s, "vCPU%u on CPU %d", sp->vcpu, sp->cpu);
        /* per kind: the two longest threads, the longest of the others */
        for (guint i = 0, in_kind = 0; i < list->len; i++) {
            const Actor *a = list->pdata[i];
            g_autofree char *d = fmt_dur(a->ns);

            in_kind = i && ((const Actor *) list->pdata[i - 1])->order == a->order ? in_kind + 1
                                                                                    : 0;
            if (a->order >= 5 || in_kind >= (a->order == 0 ? 2u : 1u))
                continue;
            if (a->order == 0)
                top[in_kind] = a->pid;
            if (a->order == 0 && in_kind == 0)
                g_string_append_printf(s, "%s preempted %s by %s", told ? "," : "", d, a->label);
            else if (a->order == 0)
                g_string_append_printf(s, ", %s by %s", d, a->label);
            else if (a->count > 1)
                g_string_append_printf(s, "%s %s %s (x%u)", told ? "," : "", a->label, d,
                                       a->count);
            else
                g_string_append_printf(s, "%s %s %s", told ? "," : "", a->label, d);
            told++;
        }
        if (!told)
            g_string_append_printf(s, ": only the vCPU thread ran in the window (events: %u)",
                                   n_events);
        told = 1;
        for (guint i = 0; i < list->len; i++) {
            const Actor *a = list->pdata[i];

            if (a->order >= 5 && (i == 0 || ((const Actor *) list->pdata[i - 1])->order != a->order))
                g_string_append_printf(s, ", %s x%u", a->label, a->count);
        }
    }
    if (ret_events)
        *ret_events = select_events(cands, top,
                                    sp->wake_ns - MIN(sp->wake_ns, sp->latency_us * 500));
    return g_string_free(g_steal_pointer(&s), FALSE);
}

/* ---- stories kept in a store -------------------------------------------- */

void
rv_result_attr_story_free(RvAttrStory *s)
{
    if (!s)
        return;
    g_free(s->target);
    g_free(s->story);
    g_free(s);
}

static int
cmp_story(gconstpointer a, gconstpointer b)
{
    const RvAttrStory *x = *(RvAttrStory * const *) a, *y = *(RvAttrStory * const *) b;

    if (x->latency_us != y->latency_us)
        return x->latency_us > y->latency_us ? -1 : 1;
    return x->repetition - y->repetition;
}

GPtrArray *
rv_result_attr_scenario_stories(GPtrArray *records, const char *scenario, guint n,
                                const char **ret_skipped)
{
    GPtrArray *out = g_ptr_array_new_with_free_func((GDestroyNotify) rv_result_attr_story_free);

    if (ret_skipped)
        *ret_skipped = NULL;
    for (guint i = 0; records && i < records->len; i++) {
        const RvStoreRecord *r = records->pdata[i];
        JsonObject *d, *a;
        JsonArray *sp;
        JsonNode *node;

        if (g_strcmp0(r->scenario, scenario) != 0 || !r->details ||
            !JSON_NODE_HOLDS_OBJECT(r->details))
            continue;
        d = json_node_get_object(r->details);
        node = json_object_get_member(d, "attribution");
        if (!node || !JSON_NODE_HOLDS_OBJECT(node))
            continue;
        a = json_node_get_object(node);
        node = json_object_get_member(a, "skipped");
        if (node && JSON_NODE_HOLDS_VALUE(node) && json_node_get_value_type(node) == G_TYPE_STRING
            && ret_skipped && !*ret_skipped)
            *ret_skipped = json_node_get_string(node);
        node = json_object_get_member(a, "spikes");
        if (!node || !JSON_NODE_HOLDS_ARRAY(node))
            continue;
        sp = json_node_get_array(node);
        for (guint k = 0; k < json_array_get_length(sp); k++) {
            JsonNode *e = json_array_get_element(sp, k);
            JsonNode *lat, *story;
            RvAttrStory *s;

            if (!JSON_NODE_HOLDS_OBJECT(e))
                continue;
            lat = json_object_get_member(json_node_get_object(e), "latency_us");
            story = json_object_get_member(json_node_get_object(e), "story");
            if (!lat || !story || !JSON_NODE_HOLDS_VALUE(lat) || !JSON_NODE_HOLDS_VALUE(story) ||
                json_node_get_value_type(lat) != G_TYPE_INT64 ||
                json_node_get_value_type(story) != G_TYPE_STRING)
                continue;
            s = g_new0(RvAttrStory, 1);
            s->repetition = r->repetition;
            s->target = g_strdup(r->target);
            s->latency_us = json_node_get_int(lat);
            s->story = g_strdup(json_node_get_string(story));
            g_ptr_array_add(out, s);
        }
    }
    g_ptr_array_sort(out, cmp_story);
    if (out->len > n)
        g_ptr_array_set_size(out, n);
    return out;
}
