/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * tests/test-attribution.c: results/attribution.h on a trace and a
 * cyclictest -v output captured on this project's TCG host with a FIFO 50
 * busy loop on the vCPU's CPU (tests/data/attribution/README.source.txt),
 * and on hand-written cases whose answer can be checked by hand.
 */
#include <errno.h>
#include <string.h>

#include "results/attribution.h"
#include "results/cyclictest.h"
#include "results/store.h"
#include "util/error.h"
#include "tests/testutil.h"

static char *
read_data(const char *name)
{
    g_autofree char *p = rv_test_data_path("attribution", name);

    return rv_test_read_file(p);
}

static void
test_parse_hand(void)
{
    g_autofree char *text = read_data("hand.trace");
    g_autoptr(GArray) ev = NULL;
    g_autoptr(GError) err = NULL;
    const RvAttrEvent *e;
    guint lost = 1;

    g_assert_cmpint(rv_result_attr_parse_trace(text, &ev, &lost, &err), ==, 12);
    g_assert_no_error(err);
    g_assert_cmpuint(lost, ==, 0);
    e = &g_array_index(ev, RvAttrEvent, 0);
    g_assert_cmpint(e->kind, ==, RV_ATTR_SWITCH);
    g_assert_cmpstr(e->prev_comm, ==, "CPU 1/TCG");    /* a comm with a space */
    g_assert_cmpstr(e->comm, ==, "CPU 1/TCG");
    g_assert_cmpint(e->next_pid, ==, 900);
    g_assert_cmpint(e->next_prio, ==, 49);
    g_assert_cmpuint(e->ts_ns, ==, 100000000000ull);
    e = &g_array_index(ev, RvAttrEvent, 1);
    g_assert_cmpint(e->kind, ==, RV_ATTR_IRQ_ENTRY);
    g_assert_cmpint(e->num, ==, 24);
    g_assert_cmpstr(e->name, ==, "virtio0");
    g_assert_cmpstr(g_array_index(ev, RvAttrEvent, 3).name, ==, "TIMER");
    g_assert_cmpint(g_array_index(ev, RvAttrEvent, 8).num, ==, -1);   /* idle exit */
    g_assert_cmpstr(g_array_index(ev, RvAttrEvent, 11).name, ==, "EXTERNAL_INTERRUPT");
}

static void
test_story_hand(void)
{
    g_autofree char *text = read_data("hand.trace");
    g_autoptr(GArray) ev = NULL;
    g_autoptr(GArray) tasks = g_array_new(FALSE, TRUE, sizeof(RvAttrTask));
    RvAttrTask busy = { .pid = 900, .policy = "FIFO", .rt_priority = 50 };
    RvAttrSpike sp = { .latency_us = 3000, .wake_ns = 100003500000ull,
                       .window_lo_ns = 99999000000ull, .window_hi_ns = 100004500000ull,
                       .vcpu = 1, .vcpu_tid = 812, .cpu = -1 };
    g_autoptr(JsonNode) events = NULL;
    g_autofree char *story = NULL, *story2 = NULL;

    g_assert_cmpint(rv_result_attr_parse_trace(text, &ev, NULL, NULL), ==, 12);
    g_array_append_val(tasks, busy);
    story = rv_result_attr_story(ev, &sp, tasks, &events);
    /* by hand: rv-busy 100.000000..100.003000; IRQ 24 12 us; softirq 5 us;
     * idle from 100.003100 to the last idle-context event 100.003510 (the
     * switch back to the vCPU is not in the trace: read from kvm_exit's
     * context); CPU 0's kworker does not count */
    g_assert_cmpstr(story, ==, "vCPU1 on CPU 1 preempted 3.0 ms by rv-busy/900 (FIFO 50), "
                               "IRQ 24 virtio0 12 us, softirq TIMER 5 us, idle 410 us, "
                               "idle state 1 x1, kvm_exit EXTERNAL_INTERRUPT x1");
    g_assert_cmpint(sp.cpu, ==, 1);
    /* the vCPU's halt churn is left out of the list */
    g_assert_cmpuint(json_array_get_length(json_node_get_array(events)), ==, 5);
    g_assert_cmpstr(json_array_get_string_element(json_node_get_array(events), 0), ==,
                    "-3.500 ms switch CPU 1/TCG/812 prio 120 -> rv-busy/900 prio 49");
    g_assert_cmpstr(json_array_get_string_element(json_node_get_array(events), 3), ==,
                    "+0.010 ms switch idle/0 -> CPU 1/TCG/812 (not traced: from the next "
                    "event's context)");
    /* without /proc the trace's prio alone: RT, policy unknown */
    sp.cpu = -1;
    story2 = rv_result_attr_story(ev, &sp, NULL, NULL);
    g_assert_nonnull(strstr(story2, "rv-busy/900 (RT 50)"));
}

static void
test_story_nothing(void)
{
    g_autofree char *text = read_data("hand.trace");
    g_autoptr(GArray) ev = NULL;
    /* a window in which only the vCPU ran */
    RvAttrSpike sp = { .latency_us = 50, .wake_ns = 100004000000ull,
                       .window_lo_ns = 100003990000ull, .window_hi_ns = 100004100000ull,
                       .vcpu = 1, .vcpu_tid = 812, .cpu = 1 };
    RvAttrSpike lost = { .vcpu = 0, .vcpu_tid = 4242, .cpu = -1,
                         .window_hi_ns = 200000000000ull };
    g_autofree char *story = NULL, *story2 = NULL;

    g_assert_cmpint(rv_result_attr_parse_trace(text, &ev, NULL, NULL), ==, 12);
    story = rv_result_attr_story(ev, &sp, NULL, NULL);
    g_assert_cmpstr(story, ==, "vCPU1 on CPU 1: only the vCPU thread ran in the window (events: 1), "
                               "kvm_exit EXTERNAL_INTERRUPT x1");
    story2 = rv_result_attr_story(ev, &lost, NULL, NULL);
    g_assert_cmpstr(story2, ==, "vCPU0: its thread 4242 never ran on a traced CPU before the "
                                "spike");
}

static void
test_parse_refused(void)
{
    static const char *const bad[] = {
        "x-1 [001] d..2. 1.000001: sched_switch: prev_comm=a prev_pid=1 prev_state=R\n",
        "x-1 [001] d..2. 1.000001: irq_handler_entry: name=virtio0\n",
        "x-1 [001] d..2. 1.000001: kvm_exit: vcpu 0 rip 0x0\n",
        "x-1 [99999] d..2. 1.000001: cpu_idle: state=1 cpu_id=1\n",
    };

    for (guint i = 0; i < G_N_ELEMENTS(bad); i++) {
        g_autoptr(GArray) ev = NULL;
        g_autoptr(GError) err = NULL;

        g_assert_cmpint(rv_result_attr_parse_trace(bad[i], &ev, NULL, &err), ==, -EINVAL);
        g_assert_error(err, RV_ERROR, RV_ERROR_INVALID);
        g_assert_nonnull(strstr(err->message, "trace line 1: malformed"));
        g_assert_null(ev);
    }
}

static void
test_samples_hand(void)
{
    /* interval 1000: sample 0 wakes at 1000 + 10; next 2000 + 2500 (it
     * overran periods 3000 and 4000: next 5000), so sample 2 at 5010 */
    const char *out = "Thread 0 Interval: 1000\n       0:       0:      10\n"
                      "       0:       1:    2500\n       0:       2:      10\n# Histogram\n";
    g_autoptr(GArray) s = NULL, w = NULL;
    g_autofree char *rest = NULL;
    guint64 span = 0;

    g_assert_cmpint(rv_result_attr_split_samples(out, strlen(out), 1000, 10, &s, &rest, &span,
                                                 NULL), ==, 3);
    g_assert_cmpuint(g_array_index(s, RvAttrSample, 0).rel_us, ==, 1010);
    g_assert_cmpuint(g_array_index(s, RvAttrSample, 1).rel_us, ==, 4500);
    g_assert_cmpuint(g_array_index(s, RvAttrSample, 2).rel_us, ==, 5010);
    g_assert_cmpuint(span, ==, 5010);
    g_assert_cmpstr(rest, ==, "Thread 0 Interval: 1000\n# Histogram\n");
    w = rv_result_attr_worst(s, 2);
    g_assert_cmpuint(w->len, ==, 2);
    g_assert_cmpuint(g_array_index(w, RvAttrSample, 0).latency_us, ==, 2500);
    g_assert_cmpuint(g_array_index(w, RvAttrSample, 1).rel_us, ==, 1010);  /* tie: earlier */
}

static void
test_samples_refused(void)
{
    static const struct { const char *out; const char *msg; } bad[] = {
        { "0:0:5\n0:2:5\n", "line 2: thread 0 cycle 2 after 1" },
        { "0:0:5000000000\n", "line 1: malformed cyclictest sample line" },
        { "0:0:5\n0:1:5\n0:2:5\n", "line 3: more than 2 cyclictest sample lines" },
        { "T: 0 ( 1) P:1\n", "no cyclictest sample line" },
        { "0:0:5\n\0", "NUL byte" },
    };

    for (guint i = 0; i < G_N_ELEMENTS(bad); i++) {
        g_autoptr(GArray) s = NULL;
        g_autofree char *rest = NULL;
        g_autoptr(GError) err = NULL;
        guint64 span;
        gsize len = strlen(bad[i].out) + (i == 4 ? 1 : 0);

        g_assert_cmpint(rv_result_attr_split_samples(bad[i].out, len, 1000, 2, &s, &rest, &span,
                                                     &err), <, 0);
        g_assert_error(err, RV_ERROR, RV_ERROR_INVALID);
        if (!strstr(err->message, bad[i].msg))
            g_error("case %u: '%s' lacks '%s'", i, err->message, bad[i].msg);
        g_assert_null(s);
    }
}

/* The captured run: cyclictest -v of the RT guest (3706 samples, a 20 ms
 * spike every ~300 cycles from rv-busy's 20 ms bursts every 320 ms) and
 * the host trace of its CPU around one burst. */
static void
test_captured(void)
{
    g_autofree char *out = read_data("tcg-fifo-busy.cyclictest");
    g_autofree char *text = read_data("tcg-fifo-busy.trace");
    g_autoptr(GArray) s = NULL, w = NULL, ev = NULL;
    g_autofree char *rest = NULL, *story = NULL;
    g_autoptr(GPtrArray) runs = NULL;
    g_autoptr(JsonNode) events = NULL;
    g_autoptr(GError) err = NULL;
    guint64 span = 0;
    /* rv-busy woke at 4900.458618 (in the idle task's context; the switch
     * from idle is missing from this kernel's trace) and switched out at
     * 4900.478724 */
    RvAttrSpike sp = { .latency_us = 20000, .wake_ns = 4900479000000ull,
                       .window_lo_ns = 4900400000000ull, .window_hi_ns = 4900520000000ull,
                       .vcpu = 1, .vcpu_tid = 26476, .cpu = -1 };

    g_assert_cmpint(rv_result_attr_split_samples(out, strlen(out), 1000, 100000, &s, &rest,
                                                 &span, &err), ==, 3706);
    g_assert_no_error(err);
    /* what is left is plain cyclictest output for the histogram parser */
    g_assert_cmpint(rv_result_cyclictest_parse("captured", rest, strlen(rest), &runs, &err), ==,
                    1);
    g_assert_no_error(err);
    w = rv_result_attr_worst(s, 5);
    g_assert_cmpuint(g_array_index(w, RvAttrSample, 0).latency_us, ==, 21187);
    g_assert_cmpuint(g_array_index(w, RvAttrSample, 0).cycle, ==, 2575);
    /* the span is what the guest ran, not the 4 s asked: cycles skipped */
    g_assert_cmpuint(span, >, 3706000);
    g_assert_cmpuint(span, <, 4100000);

    g_assert_cmpint(rv_result_attr_parse_trace(text, &ev, NULL, &err), >, 800);
    g_assert_no_error(err);
    story = rv_result_attr_story(ev, &sp, NULL, &events);
    g_test_message("%s", story);
    /* the list names rv-busy's wake-up and its switch out */
    {
        JsonArray *arr = json_node_get_array(events);
        guint named = 0;

        g_assert_cmpuint(json_array_get_length(arr), <=, 64);
        for (guint i = 0; i < json_array_get_length(arr); i++)
            named += strstr(json_array_get_string_element(arr, i), "rv-busy/26478") != NULL;
        g_assert_cmpuint(named, >=, 2);
    }
    g_assert_cmpint(sp.cpu, ==, 1);
    g_assert_true(g_str_has_prefix(story, "vCPU1 on CPU 1 preempted 20.1 ms by rv-busy/26478 "
                                          "(RT 50)"));
}

/* What compare and the report read back: worst first across
 * repetitions, shapes of the wrong type left out, a skip reason kept. */
static void
test_scenario_stories(void)
{
    static const char *const details[] = {
        "{\"attribution\":{\"alignment_error_us\":9,\"spikes\":[{\"latency_us\":300,"
        "\"story\":\"a\"},{\"latency_us\":\"x\",\"story\":\"bad\"},7]}}",
        "{\"attribution\":{\"spikes\":[{\"latency_us\":900,\"story\":\"b\"},"
        "{\"latency_us\":100,\"story\":\"c\"}]}}",
        "{\"attribution\":{\"skipped\":\"host trace not taken: no tracefs\"}}",
    };
    g_autoptr(GPtrArray) recs = g_ptr_array_new_with_free_func(
        (GDestroyNotify) rv_result_store_record_free);
    g_autoptr(GPtrArray) st = NULL, none = NULL;
    const char *skipped = NULL;

    for (guint i = 0; i < G_N_ELEMENTS(details); i++) {
        RvStoreRecord *r = rv_result_store_record_new(i < 2 ? "pinned" : "other", (int) i + 1,
                                                      "cyclictest", "guest:rt");
        g_autoptr(JsonNode) d = json_from_string(details[i], NULL);

        rv_result_store_record_set_details(r, d);
        g_ptr_array_add(recs, r);
    }
    st = rv_result_attr_scenario_stories(recs, "pinned", 2, &skipped);
    g_assert_null(skipped);
    g_assert_cmpuint(st->len, ==, 2);
    g_assert_cmpstr(((RvAttrStory *) st->pdata[0])->story, ==, "b");
    g_assert_cmpint(((RvAttrStory *) st->pdata[0])->repetition, ==, 2);
    g_assert_cmpstr(((RvAttrStory *) st->pdata[1])->story, ==, "a");
    none = rv_result_attr_scenario_stories(recs, "other", 2, &skipped);
    g_assert_cmpuint(none->len, ==, 0);
    g_assert_cmpstr(skipped, ==, "host trace not taken: no tracefs");
}

int
main(int argc, char **argv)
{
    g_test_init(&argc, &argv, NULL);
    g_test_add_func("/attribution/parse-hand", test_parse_hand);
    g_test_add_func("/attribution/story-hand", test_story_hand);
    g_test_add_func("/attribution/story-nothing", test_story_nothing);
    g_test_add_func("/attribution/parse-refused", test_parse_refused);
    g_test_add_func("/attribution/samples-hand", test_samples_hand);
    g_test_add_func("/attribution/samples-refused", test_samples_refused);
    g_test_add_func("/attribution/captured", test_captured);
    g_test_add_func("/attribution/scenario-stories", test_scenario_stories);
    return g_test_run();
}
