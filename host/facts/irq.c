/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * host/facts/irq.c: IRQ affinities and counts through an RvRoot.
 */
#include <errno.h>
#include <string.h>

#include "host/facts/irq.h"
#include "util/error.h"

static void
irq_clear(gpointer p)
{
    RvIrq *irq = p;

    g_free(irq->name);
    g_free(irq->chip);
    if (irq->counts)
        g_array_unref(irq->counts);
    if (irq->count_cpus)
        g_array_unref(irq->count_cpus);
}

void
rv_host_irq_table_free(RvIrqTable *t)
{
    if (!t)
        return;
    if (t->irqs)
        g_array_unref(t->irqs);
    if (t->problems)
        g_ptr_array_unref(t->problems);
    g_free(t);
}

static void
problem(RvIrqTable *t, RvRoot *root, const char *path, const char *value, const char *why)
{
    g_autofree char *where = rv_host_root_resolve(root, path);

    g_ptr_array_add(t->problems, g_strdup_printf("'%s' holds '%s': %s", where, value, why));
}

static bool
read_list(RvIrqTable *t, RvRoot *root, const char *path, unsigned nr, RvCpuSet *ret)
{
    g_autofree char *v = NULL;
    g_autoptr(GError) err = NULL;

    if (rv_host_root_read_value(root, path, &v, NULL) < 0)
        return false;
    if (rv_cpulist_parse(v, nr, ret, &err) < 0) {
        problem(t, root, path, v, err->message);
        return false;
    }
    return true;
}

static RvIrq *
irq_get(RvIrqTable *t, unsigned n)
{
    RvIrq irq = { .irq = n };

    for (guint i = 0; i < t->irqs->len; i++)
        if (g_array_index(t->irqs, RvIrq, i).irq == n)
            return &g_array_index(t->irqs, RvIrq, i);
    g_array_append_val(t->irqs, irq);
    return &g_array_index(t->irqs, RvIrq, t->irqs->len - 1);
}

static gint
irq_cmp(gconstpointer a, gconstpointer b)
{
    const RvIrq *x = a, *y = b;

    return (x->irq > y->irq) - (x->irq < y->irq);
}

/* /proc/interrupts: a header "CPU0 CPU1 ..." (online CPUs only), then
 * "N: c0 c1 ... chip hwirq name" for numbered IRQs; lines like "NMI:" are
 * per-CPU counters without an IRQ number and are skipped. */
static void
parse_interrupts(RvIrqTable *t, RvRoot *root, const char *text)
{
    g_auto(GStrv) lines = g_strsplit(text, "\n", -1);
    g_autoptr(GArray) cols = g_array_new(FALSE, FALSE, sizeof(guint));

    if (!lines[0])
        return;
    {
        g_auto(GStrv) h = g_strsplit_set(lines[0], " \t", -1);

        for (guint i = 0; h[i]; i++) {
            guint64 cpu;
            char *end;

            if (!*h[i])
                continue;
            if (!g_str_has_prefix(h[i], "CPU") ||
                (cpu = g_ascii_strtoull(h[i] + 3, &end, 10), *end) || cpu >= RV_CPUSET_MAX) {
                problem(t, root, "/proc/interrupts", lines[0], "header is not 'CPU0 CPU1 ...'");
                return;
            }
            guint c = (guint) cpu;
            g_array_append_val(cols, c);
        }
    }
    for (guint ln = 1; lines[ln]; ln++) {
        const char *p = lines[ln];
        char *end;
        guint64 n;
        RvIrq *irq;
        GString *desc;

        while (*p == ' ')
            p++;
        if (!g_ascii_isdigit(*p))
            continue;
        n = g_ascii_strtoull(p, &end, 10);
        if (*end != ':' || n > G_MAXUINT)
            continue;
        p = end + 1;
        irq = irq_get(t, (unsigned) n);
        if (irq->counts)
            continue;
        irq->counts = g_array_new(FALSE, FALSE, sizeof(guint64));
        irq->count_cpus = g_array_ref(cols);
        for (guint c = 0; c < cols->len; c++) {
            guint64 v;

            while (*p == ' ' || *p == '\t')
                p++;
            if (!g_ascii_isdigit(*p))
                break;
            v = g_ascii_strtoull(p, &end, 10);
            p = end;
            g_array_append_val(irq->counts, v);
        }
        if (irq->counts->len != cols->len) {
            problem(t, root, "/proc/interrupts", lines[ln], "fewer counts than CPU columns");
            g_array_set_size(irq->counts, 0);
        }
        /* the rest: chip, hwirq/type, then the action names */
        desc = g_string_new(NULL);
        {
            g_auto(GStrv) w = g_strsplit_set(p, " \t", -1);
            g_autoptr(GPtrArray) words = g_ptr_array_new();

            for (guint i = 0; w[i]; i++)
                if (*w[i])
                    g_ptr_array_add(words, w[i]);
            if (words->len >= 3) {
                GString *name = g_string_new(NULL);

                g_string_append_printf(desc, "%s %s", (char *) words->pdata[0], (char *) words->pdata[1]);
                for (guint i = 2; i < words->len; i++)
                    g_string_append_printf(name, "%s%s", name->len ? " " : "", (char *) words->pdata[i]);
                irq->name = g_string_free(name, FALSE);
            } else {
                for (guint i = 0; i < words->len; i++)
                    g_string_append_printf(desc, "%s%s", desc->len ? " " : "", (char *) words->pdata[i]);
            }
        }
        irq->chip = g_string_free(desc, FALSE);
    }
}

int
rv_host_irqs_load(RvRoot *root, unsigned nr_cpu_ids, RvIrqTable **ret, GError **error)
{
    g_autoptr(RvIrqTable) t = g_new0(RvIrqTable, 1);
    g_autoptr(GPtrArray) names = NULL;
    g_autofree char *text = NULL;
    g_autofree char *def = NULL;
    int r;

    t->irqs = g_array_new(FALSE, TRUE, sizeof(RvIrq));
    g_array_set_clear_func(t->irqs, irq_clear);
    t->problems = g_ptr_array_new_with_free_func(g_free);
    r = rv_host_root_list(root, "/proc/irq", &names, error);
    if (r < 0)
        return r;
    for (guint i = 0; i < names->len; i++) {
        const char *n = names->pdata[i];
        g_autofree char *a = NULL, *e = NULL;
        guint64 num;
        char *end;
        RvIrq *irq;

        if (!g_ascii_isdigit(n[0]))
            continue;
        num = g_ascii_strtoull(n, &end, 10);
        if (*end || num > G_MAXUINT)
            continue;
        irq = irq_get(t, (unsigned) num);
        a = g_strdup_printf("/proc/irq/%s/smp_affinity_list", n);
        e = g_strdup_printf("/proc/irq/%s/effective_affinity_list", n);
        irq->has_affinity = read_list(t, root, a, nr_cpu_ids, &irq->affinity);
        irq->has_effective = read_list(t, root, e, nr_cpu_ids, &irq->effective);
    }
    if (rv_host_root_read_value(root, "/proc/irq/default_smp_affinity", &def, NULL) >= 0) {
        g_autoptr(GError) err = NULL;

        if (rv_cpumask_parse(def, &t->default_affinity, &err) < 0)
            problem(t, root, "/proc/irq/default_smp_affinity", def, err->message);
        else
            t->has_default = true;
    }
    if (rv_host_root_read(root, "/proc/interrupts", &text, NULL) >= 0)
        parse_interrupts(t, root, text);
    g_array_sort(t->irqs, irq_cmp);
    *ret = g_steal_pointer(&t);
    return 0;
}

guint64
rv_host_irq_count_on(const RvIrq *irq, const RvCpuSet *cpus)
{
    guint64 sum = 0;

    if (!irq->counts || !irq->count_cpus)
        return 0;
    for (guint i = 0; i < irq->counts->len && i < irq->count_cpus->len; i++)
        if (rv_cpuset_isset(cpus, g_array_index(irq->count_cpus, guint, i)))
            sum += g_array_index(irq->counts, guint64, i);
    return sum;
}
