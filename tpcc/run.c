/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * tpcc/run.c: `rtvirt-tpcc run`: N virtual users, each a thread with its
 * own connection and home warehouse, dealing transactions from the mix
 * deck with no keying or think time (test mode); a warm-up, then the
 * measured interval; one line per second; the summary and the JSON
 * document (tpcc/report.c).  Deadlocks and lock wait timeouts are rolled
 * back and retried with the same inputs; any other failure (a lost
 * connection included) stops the run with the reason, keeping what was
 * measured, exit 2.
 */
#include <stdio.h>
#include <unistd.h>

#include "tpcc/driver.h"
#include "tpcc/run-priv.h"
#include "tpcc/txn.h"

#define MAX_RETRIES 100

static void
run_abort(RvTpccRun *run, const char *fmt, ...) G_GNUC_PRINTF(2, 3);

static void
run_abort(RvTpccRun *run, const char *fmt, ...)
{
    va_list ap;
    g_mutex_lock(&run->lock);
    if (!run->error) {
        va_start(ap, fmt);
        run->error = g_strdup_vprintf(fmt, ap);
        va_end(ap);
        run->error_at_us = g_get_monotonic_time();
    }
    g_mutex_unlock(&run->lock);
    g_atomic_int_set(&run->phase, RV_TPCC_PHASE_STOP);
}

/* one business transaction with its retries; false when the run must stop */
static bool
worker_one(RvTpccWorker *w, RvTpccTxn type)
{
    RvTpccRun *run = w->run;
    RvTpccInput in;
    int rc;

    rv_tpcc_txn_input(&w->user, type, &in);
    gint64 t0 = g_get_monotonic_time();
    for (int attempt = 0;; attempt++) {
        g_autoptr(GError) e = NULL;
        rc = rv_tpcc_txn_execute(&w->user, &in, &e);
        if (rc >= 0)
            break;
        if (!rv_tpcc_db_lost(e))
            (void)mysql_rollback(w->user.m);
        g_atomic_int_inc(&w->errors_now);
        if (rv_tpcc_db_retryable(e) && attempt < MAX_RETRIES) {
            if (g_atomic_int_get(&run->phase) == RV_TPCC_PHASE_MEASURE)
                w->deadlocks++;
            continue;
        }
        if (g_atomic_int_get(&run->phase) == RV_TPCC_PHASE_STOP && !run->error)
            return false;       /* the end of the run, not a failure */
        run_abort(run, "%s: %s of user %d (home warehouse %d) failed: %s%s", run->server, rv_tpcc_txn_name(type),
                  w->index + 1, w->user.w_id, rv_tpcc_db_lost(e) ? "lost the connection: " : "", e->message);
        return false;
    }
    gint64 us = g_get_monotonic_time() - t0;
    g_atomic_int_inc(&w->txns_now);
    if (type == RV_TPCC_NEW_ORDER && rc == 0)
        g_atomic_int_inc(&w->new_orders_now);
    if (g_atomic_int_get(&run->phase) == RV_TPCC_PHASE_MEASURE) {
        g_mutex_lock(&w->lock);
        w->count[type]++;
        if (rc == 1)
            w->rollbacks++;
        rv_tpcc_hist_add(&w->hist[type], (uint64_t)us);
        g_mutex_unlock(&w->lock);
    }
    return true;
}

static gpointer
worker_thread(gpointer data)
{
    RvTpccWorker *w = data;
    RvTpccRun *run = w->run;
    g_autoptr(GError) e = NULL;
    RvTpccMix mix;

    mysql_thread_init();
    w->user.m = rv_tpcc_connect(&run->o->conn, true, &e);
    if (!w->user.m) {
        run_abort(run, "user %d: %s", w->index + 1, e->message);
    } else {
        rv_tpcc_mix_init(&mix);
        while (g_atomic_int_get(&run->phase) != RV_TPCC_PHASE_STOP)
            if (!worker_one(w, rv_tpcc_mix_next(&mix, &w->user.r)))
                break;
    }
    g_clear_pointer(&w->user.m, mysql_close);
    mysql_thread_end();
    return NULL;
}

static void
tick(RvTpccRun *run, int second, FILE *out)
{
    RvTpccSecond s = { .t = second, .warmup = g_atomic_int_get(&run->phase) == RV_TPCC_PHASE_WARMUP };
    for (int i = 0; i < run->o->users; i++) {
        RvTpccWorker *w = &run->workers[i];
        s.txns += (uint64_t)g_atomic_int_and((guint *)&w->txns_now, 0);
        s.new_orders += (uint64_t)g_atomic_int_and((guint *)&w->new_orders_now, 0);
        s.errors += (uint64_t)g_atomic_int_and((guint *)&w->errors_now, 0);
    }
    g_array_append_val(run->seconds, s);
    fprintf(out, "%5ds %-7s tps %6" G_GUINT64_FORMAT "  new-orders %6" G_GUINT64_FORMAT "  errors %4" G_GUINT64_FORMAT
            "%s\n", second, s.warmup ? "warmup" : "", s.txns, s.new_orders, s.errors, run->tag);
    fflush(out);
}

/* the clock of the run: warm-up, measurement, stop; one tick per second */
static void
run_clock(RvTpccRun *run, FILE *out)
{
    gint64 start = g_get_monotonic_time();
    gint64 warm_end = start + (gint64)(run->o->warmup_s * 1e6);
    gint64 end = warm_end + (gint64)(run->o->duration_s * 1e6);

    if (warm_end == start)      /* no warm-up: measured from the first transaction */
        run->measure_start_us = run->users_start_us;
    else
        run->measure_start_us = warm_end;
    for (int second = 1; g_atomic_int_get(&run->phase) != RV_TPCC_PHASE_STOP; second++) {
        gint64 next = MIN(start + second * G_USEC_PER_SEC, end);
        gint64 now = g_get_monotonic_time();
        if (next > now)
            g_usleep((gulong)(next - now));
        if (g_atomic_int_get(&run->phase) == RV_TPCC_PHASE_STOP)
            break;
        now = g_get_monotonic_time();
        if (now >= end) {
            g_atomic_int_set(&run->phase, RV_TPCC_PHASE_STOP);
            run->measure_end_us = now;
        }
        tick(run, second, out);
        if (now >= warm_end)
            g_atomic_int_compare_and_exchange(&run->phase, RV_TPCC_PHASE_WARMUP, RV_TPCC_PHASE_MEASURE);
    }
    if (!run->measure_end_us)
        run->measure_end_us = run->error_at_us ? run->error_at_us : g_get_monotonic_time();
}

/* connect, check the schema against the options; fills run->meta, run->c */
static int
run_check_schema(RvTpccRun *run)
{
    const RvTpccOpts *o = run->o;
    g_autoptr(GError) e = NULL;
    g_autoptr(MYSQL) m = rv_tpcc_connect(&o->conn, true, &e);

    if (!m) {
        run_abort(run, "%s", e->message);
        return -1;
    }
    if (rv_tpcc_meta_read(m, run->server, &run->meta, &e) < 0) {
        run_abort(run, "%s", e->message);
        return -1;
    }
    if (!g_str_equal(run->meta.scale, o->scale->name)) {
        run_abort(run, "%s: database '%s' holds a load of scale '%s' (%d warehouses), the run asked for scale '%s';"
                  " pass --scale %s or load again", run->server, o->conn.database, run->meta.scale,
                  run->meta.warehouses, o->scale->name, run->meta.scale);
        return -1;
    }
    run->warehouses = o->warehouses ? o->warehouses : run->meta.warehouses;
    if (run->warehouses > run->meta.warehouses) {
        run_abort(run, "%s: database '%s' holds %d warehouse(s), the run asked for %d; load again with"
                  " --warehouses %d", run->server, o->conn.database, run->meta.warehouses, run->warehouses,
                  run->warehouses);
        return -1;
    }
    return 0;
}

static void
run_users(RvTpccRun *run, FILE *out)
{
    const RvTpccOpts *o = run->o;
    RvTpccRand r;

    rv_tpcc_rand_seed(&r, o->seed);
    rv_tpcc_nurand_c_run(&r, &run->meta.c, &run->c);
    fprintf(out, "rtvirt-tpcc run: %d user(s) on %d warehouse(s), scale %s, warm-up %.0f s, %.0f s measured,"
            " test mode (no keying or think time), on %s%s\n", o->users, run->warehouses, o->scale->name,
            o->warmup_s, o->duration_s, run->server, run->tag);
    fflush(out);
    run->workers = g_new0(RvTpccWorker, o->users);
    for (int i = 0; i < o->users; i++) {
        RvTpccWorker *w = &run->workers[i];
        w->run = run;
        w->index = i;
        g_mutex_init(&w->lock);
        rv_tpcc_rand_seed(&w->user.r, o->seed ^ ((uint64_t)(i + 1) * 0x9e3779b97f4a7c15ULL));
        w->user.w_id = i % run->warehouses + 1;
        w->user.stock_d_id = i / run->warehouses % RV_TPCC_DISTRICTS + 1;
        w->user.warehouses = run->warehouses;
        w->user.scale = o->scale;
        w->user.c = run->c;
    }
    run->users_start_us = g_get_monotonic_time();
    if (o->warmup_s == 0)
        run->phase = RV_TPCC_PHASE_MEASURE;
    for (int i = 0; i < o->users; i++)
        run->workers[i].thread = g_thread_new("user", worker_thread, &run->workers[i]);
    run_clock(run, out);
    for (int i = 0; i < o->users; i++)
        g_thread_join(run->workers[i].thread);
}

int
rv_tpcc_run(const RvTpccOpts *o)
{
    RvTpccRun run = { .o = o, .phase = RV_TPCC_PHASE_WARMUP };
    FILE *out = o->json && g_str_equal(o->json, "-") ? stderr : stdout;
    int rc = 0;

    run.server = rv_tpcc_server_name(&o->conn);
    run.tag = o->scale->standard ? "" : "  [NON-STANDARD scale 'small']";
    run.seconds = g_array_new(FALSE, TRUE, sizeof(RvTpccSecond));
    g_mutex_init(&run.lock);
    if (run_check_schema(&run) == 0)
        run_users(&run, out);
    if (run.error) {
        fprintf(stderr, "rtvirt-tpcc: %s\n", run.error);
        rc = 2;
    }
    rv_tpcc_report_text(&run, out);
    if (o->json && rv_tpcc_report_json(&run, o->json) < 0)
        rc = 2;
    for (int i = 0; run.workers && i < o->users; i++)
        g_mutex_clear(&run.workers[i].lock);
    g_free(run.workers);
    g_array_unref(run.seconds);
    g_free(run.server);
    g_free(run.error);
    g_mutex_clear(&run.lock);
    return rc;
}
