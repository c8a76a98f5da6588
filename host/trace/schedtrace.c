/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * host/trace/schedtrace.c: sched_switch recording through tracefs and the
 * SMT-sibling cookie analysis (see schedtrace.h).
 */
#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "host/trace/schedtrace.h"
#include "util/error.h"

#define MAX_REPORTED 32

/* ---- parsing ---------------------------------------------------------- */

static GRegex *
switch_regex(void)
{
    static GRegex *re;

    if (g_once_init_enter(&re)) {
        GRegex *r = g_regex_new(
            "^\\s*(.*)-(\\d+)\\s+(?:\\(\\s*[-\\d]+\\)\\s+)?\\[(\\d+)\\]\\s+(?:\\S+\\s+)?"
            "(\\d+)(?:\\.(\\d+))?:\\s+sched_switch:\\s+"
            "prev_comm=(.*) prev_pid=(-?\\d+) prev_prio=(-?\\d+) prev_state=(\\S+) ==> "
            "next_comm=(.*) next_pid=(-?\\d+) next_prio=(-?\\d+)\\s*$",
            G_REGEX_OPTIMIZE, 0, NULL);
        g_assert(r);
        g_once_init_leave(&re, r);
    }
    return re;
}

/* "123" "456789" -> ns; a fraction of up to 9 digits, padded on the right
 * (the default clocks print s.us; ns-resolution clocks print more). */
static guint64
ts_to_ns(const char *sec, const char *frac)
{
    guint64 ns = g_ascii_strtoull(sec, NULL, 10) * G_GUINT64_CONSTANT(1000000000);
    guint64 f = 0;
    size_t n = frac ? strlen(frac) : 0;

    for (size_t i = 0; i < 9; i++)
        f = f * 10 + (i < n ? (guint64) (frac[i] - '0') : 0);
    return ns + f;
}

int
rv_host_schedtrace_parse(const char *text, GArray **ret_events, guint *ret_lost, GError **error)
{
    g_autoptr(GArray) events = g_array_new(FALSE, TRUE, sizeof(RvSchedSwitch));
    g_auto(GStrv) lines = g_strsplit(text, "\n", -1);
    GRegex *re = switch_regex();
    guint lost = 0;
    int r;

    for (guint i = 0; lines[i]; i++) {
        const char *line = lines[i];
        g_autoptr(GMatchInfo) m = NULL;
        RvSchedSwitch ev = { 0 };
        const char *p;

        while (*line == ' ' || *line == '\t')
            line++;
        if (*line == '#' || *line == '\0')
            continue;
        if (g_str_has_prefix(line, "CPU:") && (p = strstr(line, "[LOST ")) != NULL) {
            lost += (guint) g_ascii_strtoull(p + 6, NULL, 10);
            continue;
        }
        if (!strstr(line, " sched_switch: "))
            continue;
        if (!g_regex_match(re, lines[i], 0, &m))
            return rv_error_set(error, RV_ERROR_INVALID, EINVAL,
                                "sched_switch trace line %u does not parse: '%s'", i + 1, lines[i]);
        {
            g_autofree char *cpu = g_match_info_fetch(m, 3);
            g_autofree char *sec = g_match_info_fetch(m, 4);
            g_autofree char *frac = g_match_info_fetch(m, 5);
            g_autofree char *pcomm = g_match_info_fetch(m, 6);
            g_autofree char *ppid = g_match_info_fetch(m, 7);
            g_autofree char *ncomm = g_match_info_fetch(m, 10);
            g_autofree char *npid = g_match_info_fetch(m, 11);

            ev.cpu = (guint) g_ascii_strtoull(cpu, NULL, 10);
            ev.ts_ns = ts_to_ns(sec, frac);
            ev.prev_pid = (pid_t) g_ascii_strtoll(ppid, NULL, 10);
            ev.next_pid = (pid_t) g_ascii_strtoll(npid, NULL, 10);
            g_strlcpy(ev.prev_comm, pcomm, sizeof(ev.prev_comm));
            g_strlcpy(ev.next_comm, ncomm, sizeof(ev.next_comm));
        }
        g_array_append_val(events, ev);
    }
    r = (int) events->len;
    *ret_events = g_steal_pointer(&events);
    if (ret_lost)
        *ret_lost = lost;
    return r;
}

/* ---- analysis ---------------------------------------------------------- */

void
rv_host_schedtrace_report_free(RvSchedReport *rep)
{
    if (!rep)
        return;
    if (rep->violations)
        g_array_unref(rep->violations);
    g_free(rep);
}

static guint64
label_of(const GArray *labels, pid_t tid)
{
    guint lo = 0, hi = labels ? labels->len : 0;

    while (lo < hi) {
        guint mid = lo + (hi - lo) / 2;
        const RvSchedLabel *l = &g_array_index(labels, RvSchedLabel, mid);

        if (l->tid == tid)
            return l->label;
        if (l->tid < tid)
            lo = mid + 1;
        else
            hi = mid;
    }
    return 0;
}

static int
cmp_overlap(gconstpointer x, gconstpointer y)
{
    guint64 a = ((const RvSchedOverlap *) x)->start_ns, b = ((const RvSchedOverlap *) y)->start_ns;

    return (a > b) - (a < b);
}

typedef struct {
    guint a, b;               /* CPUs, a < b */
    bool open;
    RvSchedOverlap ov;        /* cpu_a = switcher, cpu_b = stale */
} Pair;

typedef struct {
    pid_t pid;                /* -1 unknown */
    guint64 label;
} CpuNow;

static bool
busy(const CpuNow *c)
{
    return c->pid > 0;
}

static bool
mixed(const CpuNow *x, const CpuNow *y)
{
    return busy(x) && busy(y) && x->label != y->label;
}

static void
close_overlap(RvSchedReport *rep, Pair *p, guint64 end_ns, guint64 grace_ns)
{
    guint64 dur;

    p->open = false;
    p->ov.end_ns = end_ns;
    dur = end_ns - p->ov.start_ns;
    p->ov.violation = dur > grace_ns;
    rep->n_overlaps++;
    if (p->ov.violation) {
        rep->n_violations++;
        rep->longest_violation_ns = MAX(rep->longest_violation_ns, dur);
        if (rep->violations->len < MAX_REPORTED)
            g_array_append_val(rep->violations, p->ov);
    } else {
        rep->n_handovers++;
        rep->longest_handover_ns = MAX(rep->longest_handover_ns, dur);
    }
}

int
rv_host_schedtrace_analyze(const GArray *events, const int *cpu_core, guint n_cpus,
                           const GArray *labels, guint64 grace_ns,
                           RvSchedReport **ret, GError **error)
{
    g_autoptr(RvSchedReport) rep = g_new0(RvSchedReport, 1);
    g_autofree CpuNow *now = g_new(CpuNow, n_cpus ? n_cpus : 1);
    g_autoptr(GArray) pairs = g_array_new(FALSE, TRUE, sizeof(Pair));
    guint64 first_ts = 0, last_ts = 0;
    bool started = false;

    rep->violations = g_array_new(FALSE, TRUE, sizeof(RvSchedOverlap));
    for (guint c = 0; c < n_cpus; c++)
        now[c] = (CpuNow) { .pid = -1 };
    for (guint a = 0; a < n_cpus; a++)
        for (guint b = a + 1; b < n_cpus; b++)
            if (cpu_core[a] >= 0 && cpu_core[a] == cpu_core[b]) {
                Pair p = { .a = a, .b = b };

                g_array_append_val(pairs, p);
            }

    for (guint i = 0; i < events->len; i++) {
        const RvSchedSwitch *ev = &g_array_index(events, RvSchedSwitch, i);
        guint c = ev->cpu;

        if (c >= n_cpus)
            continue;
        if (started && ev->ts_ns < last_ts)
            return rv_error_set(error, RV_ERROR_INVALID, EINVAL,
                                "sched_switch events go back in time at event %u "
                                "(%" G_GUINT64_FORMAT " ns after %" G_GUINT64_FORMAT " ns): "
                                "was the trace clock 'local'?", i + 1, ev->ts_ns, last_ts);
        if (!started) {
            first_ts = last_ts = ev->ts_ns;
            started = true;
        }
        rep->n_events++;

        /* time since the previous event, with the states before this one */
        for (guint k = 0; k < pairs->len; k++) {
            const Pair *p = &g_array_index(pairs, Pair, k);
            guint64 dt = ev->ts_ns - last_ts;

            if (busy(&now[p->a]) && busy(&now[p->b])) {
                rep->both_busy_ns += dt;
                if (now[p->a].label != now[p->b].label)
                    rep->mixed_ns += dt;
            }
        }
        last_ts = ev->ts_ns;

        now[c].pid = ev->next_pid;
        now[c].label = ev->next_pid > 0 ? label_of(labels, ev->next_pid) : 0;

        for (guint k = 0; k < pairs->len; k++) {
            Pair *p = &g_array_index(pairs, Pair, k);
            guint other;
            bool mx;

            if (p->a != c && p->b != c)
                continue;
            other = p->a == c ? p->b : p->a;
            mx = mixed(&now[c], &now[other]);
            if (!p->open && mx) {
                p->open = true;
                p->ov = (RvSchedOverlap) {
                    .cpu_a = c, .cpu_b = other,
                    .pid_a = now[c].pid, .pid_b = now[other].pid,
                    .label_a = now[c].label, .label_b = now[other].label,
                    .start_ns = ev->ts_ns,
                };
            } else if (p->open && !mx) {
                close_overlap(rep, p, ev->ts_ns, grace_ns);
            }
        }
    }
    for (guint k = 0; k < pairs->len; k++) {
        Pair *p = &g_array_index(pairs, Pair, k);

        if (p->open)
            close_overlap(rep, p, last_ts, grace_ns);
    }
    rep->span_ns = last_ts - first_ts;
    g_array_sort(rep->violations, cmp_overlap);
    *ret = g_steal_pointer(&rep);
    return 0;
}

char *
rv_host_schedtrace_report_format(const RvSchedReport *rep)
{
    GString *s = g_string_new(NULL);

    g_string_append_printf(s, "events %u, span %.6f s\n", rep->n_events, rep->span_ns / 1e9);
    g_string_append_printf(s, "siblings both busy %.6f s, with different cookies %.6f s (%.2f %%)\n",
                           rep->both_busy_ns / 1e9, rep->mixed_ns / 1e9,
                           rep->both_busy_ns ? 100.0 * rep->mixed_ns / rep->both_busy_ns : 0.0);
    g_string_append_printf(s, "mixed overlaps %u: handovers %u (longest %.0f us), "
                           "violations %u (longest %.0f us)\n",
                           rep->n_overlaps, rep->n_handovers, rep->longest_handover_ns / 1e3,
                           rep->n_violations, rep->longest_violation_ns / 1e3);
    for (guint i = 0; i < rep->violations->len; i++) {
        const RvSchedOverlap *o = &g_array_index(rep->violations, RvSchedOverlap, i);

        g_string_append_printf(s, "violation: CPU %u pid %d (cookie 0x%" G_GINT64_MODIFIER "x) "
                               "and CPU %u pid %d (cookie 0x%" G_GINT64_MODIFIER "x) "
                               "at %.6f s for %.0f us\n",
                               o->cpu_a, (int) o->pid_a, o->label_a,
                               o->cpu_b, (int) o->pid_b, o->label_b,
                               o->start_ns / 1e9, (o->end_ns - o->start_ns) / 1e3);
    }
    return g_string_free(s, FALSE);
}

/* ---- recording --------------------------------------------------------- */

struct RvSchedTrace {
    RvRoot *root;
    char *dir;                 /* "/sys/kernel/tracing" */
    char *orig_tracing_on;
    char *orig_clock;
    char *orig_buffer_kb;      /* NULL when not changed */
    char *orig_enable;
    bool stopped;
};

static char *
tpath(const RvSchedTrace *t, const char *file)
{
    return g_strdup_printf("%s/%s", t->dir, file);
}

static int
tread(RvSchedTrace *t, const char *file, char **ret, GError **error)
{
    g_autofree char *p = tpath(t, file);

    return rv_host_root_read_value(t->root, p, ret, error);
}

static int
twrite(RvSchedTrace *t, const char *file, const char *value, GError **error)
{
    g_autofree char *p = tpath(t, file);

    return rv_host_root_write(t->root, p, value, error);
}

/* "[local] global counter" -> "local" */
static char *
bracketed(const char *s)
{
    const char *a = strchr(s, '['), *b = a ? strchr(a, ']') : NULL;

    return a && b ? g_strndup(a + 1, b - a - 1) : g_strdup(s);
}

/* "1408" or "7 (expanded: 1408)": the size the buffer has in use */
static char *
buffer_kb_value(const char *s)
{
    const char *e = strstr(s, "expanded: ");

    if (e)
        return g_strndup(e + 10, strspn(e + 10, "0123456789"));
    return g_strndup(s, strspn(s, "0123456789"));
}

static void
restore(RvSchedTrace *t)
{
    /* best effort, newest change first; failures cannot be reported from a
     * destructor, and stop() reports its own */
    (void) twrite(t, "tracing_on", "0", NULL);
    if (t->orig_enable)
        (void) twrite(t, "events/sched/sched_switch/enable", t->orig_enable, NULL);
    if (t->orig_buffer_kb)
        (void) twrite(t, "buffer_size_kb", t->orig_buffer_kb, NULL);
    if (t->orig_clock)
        (void) twrite(t, "trace_clock", t->orig_clock, NULL);
    if (t->orig_tracing_on)
        (void) twrite(t, "tracing_on", t->orig_tracing_on, NULL);
    t->stopped = true;
}

void
rv_host_schedtrace_free(RvSchedTrace *t)
{
    if (!t)
        return;
    if (!t->stopped)
        restore(t);
    g_free(t->dir);
    g_free(t->orig_tracing_on);
    g_free(t->orig_clock);
    g_free(t->orig_buffer_kb);
    g_free(t->orig_enable);
    g_free(t);
}

int
rv_host_schedtrace_start(RvRoot *root, guint buffer_kb, RvSchedTrace **ret, GError **error)
{
    static const char * const dirs[] = { "/sys/kernel/tracing", "/sys/kernel/debug/tracing" };
    g_autoptr(RvSchedTrace) t = g_new0(RvSchedTrace, 1);
    g_autofree char *tracer = NULL;
    g_autofree char *clock = NULL;
    g_autofree char *enable = NULL;
    g_autofree char *tp = NULL;
    int fd, r;

    t->root = root;
    t->stopped = true;          /* nothing to restore yet */
    for (size_t i = 0; i < G_N_ELEMENTS(dirs) && !t->dir; i++) {
        g_autofree char *p = g_strdup_printf("%s/events/sched/sched_switch/enable", dirs[i]);

        if (rv_host_root_exists(root, p))
            t->dir = g_strdup(dirs[i]);
    }
    if (!t->dir)
        return rv_error_set(error, RV_ERROR_UNSUPPORTED, ENOENT,
                            "No tracefs with events/sched/sched_switch under '%s' or '%s' "
                            "(kernel without CONFIG_FTRACE, or tracefs not mounted: "
                            "mount -t tracefs nodev /sys/kernel/tracing)", dirs[0], dirs[1]);

    r = tread(t, "current_tracer", &tracer, error);
    if (r < 0)
        return r;
    if (strcmp(tracer, "nop") != 0)
        return rv_error_set(error, RV_ERROR_FAILED, EBUSY,
                            "'%s/current_tracer' is '%s', not 'nop': someone else is tracing",
                            t->dir, tracer);
    if ((r = tread(t, "tracing_on", &t->orig_tracing_on, error)) < 0 ||
        (r = tread(t, "trace_clock", &clock, error)) < 0 ||
        (r = tread(t, "events/sched/sched_switch/enable", &enable, error)) < 0)
        return r;
    t->orig_clock = bracketed(clock);
    t->orig_enable = g_strndup(enable, 1);
    if (buffer_kb) {
        g_autofree char *kb = NULL;

        r = tread(t, "buffer_size_kb", &kb, error);
        if (r < 0)
            return r;
        t->orig_buffer_kb = buffer_kb_value(kb);
    }

    t->stopped = false;         /* from here on, free() restores */
    if ((r = twrite(t, "tracing_on", "0", error)) < 0 ||
        (r = twrite(t, "trace_clock", "global", error)) < 0)
        return r;
    if (buffer_kb) {
        g_autofree char *kb = g_strdup_printf("%u", buffer_kb);

        r = twrite(t, "buffer_size_kb", kb, error);
        if (r < 0)
            return r;
    }
    tp = tpath(t, "trace");
    fd = rv_host_root_openat(root, tp, O_WRONLY | O_TRUNC, 0);
    if (fd < 0)
        return rv_error_set(error, RV_ERROR_FAILED, -fd, "Failed to clear '%s': %s",
                            tp, g_strerror(-fd));
    close(fd);
    if ((r = twrite(t, "events/sched/sched_switch/enable", "1", error)) < 0 ||
        (r = twrite(t, "tracing_on", "1", error)) < 0)
        return r;
    *ret = g_steal_pointer(&t);
    return 0;
}

int
rv_host_schedtrace_stop(RvSchedTrace *t, char **ret_text, GError **error)
{
    g_autofree char *text = NULL;
    g_autofree char *tp = NULL;
    gssize n;
    int r;

    if (t->stopped)
        return rv_error_set(error, RV_ERROR_FAILED, EALREADY, "sched_switch trace already stopped");
    r = twrite(t, "tracing_on", "0", error);
    if (r < 0) {
        restore(t);
        return r;
    }
    tp = tpath(t, "trace");
    n = rv_host_root_read(t->root, tp, &text, error);
    restore(t);
    if (n < 0)
        return (int) n;
    *ret_text = g_steal_pointer(&text);
    return 0;
}
