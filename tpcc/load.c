/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * tpcc/load.c: `rtvirt-tpcc load`: the schema, then the rows of clause
 * 4.3.3.1 from several loader threads, each taking the next job (items, a
 * slice of a warehouse's stock, a warehouse with its districts, a
 * district's customers and history, a district's orders, order lines and
 * new orders), in multi-row INSERTs committed per batch; tpcc_meta last.
 */
#include <stdio.h>

#include "tpcc/driver.h"
#include "tpcc/load-priv.h"

#define SLICE 10000             /* items or stock rows per job */
#define BATCH_ROWS 1000
#define BATCH_BYTES (512 * 1024)

typedef enum { JOB_ITEM, JOB_STOCK, JOB_WAREHOUSE, JOB_CUSTOMER, JOB_ORDERS } JobKind;

typedef struct {
    JobKind kind;
    int w, d, first, last;      /* first/last: the item range of JOB_ITEM/JOB_STOCK */
} Job;

typedef struct {
    const RvTpccOpts *o;
    RvTpccNurandC c;
    GArray *jobs;
    gint next_job;
    gint failed;
    gint64 rows;                /* atomic */
    GMutex lock;
    char *error;                /* the first failure */
} Loader;

typedef struct {
    MYSQL *m;
    GString *sql;
    const char *head;
    int rows;
    Loader *l;
} Batch;

static int
batch_flush(Batch *b, GError **error)
{
    if (b->rows == 0)
        return 0;
    if (rv_tpcc_exec(b->m, error, "%s", b->sql->str) < 0 || rv_tpcc_exec(b->m, error, "COMMIT") < 0)
        return -1;
    __atomic_fetch_add(&b->l->rows, b->rows, __ATOMIC_RELAXED);
    b->rows = 0;
    g_string_truncate(b->sql, 0);
    return 0;
}

static int G_GNUC_PRINTF(3, 4)
batch_add(Batch *b, GError **error, const char *fmt, ...)
{
    va_list ap;
    g_string_append(b->sql, b->rows ? "," : b->head);
    va_start(ap, fmt);
    g_string_append_vprintf(b->sql, fmt, ap);
    va_end(ap);
    b->rows++;
    if (b->rows >= BATCH_ROWS || b->sql->len >= BATCH_BYTES)
        return batch_flush(b, error);
    return 0;
}

static int
load_items(Batch *b, RvTpccRand *r, const Job *j, GError **error)
{
    char name[25], data[51];
    b->head = "INSERT INTO item VALUES ";
    for (int i = j->first; i <= j->last; i++) {
        rv_tpcc_astring(r, 14, 24, name);
        rv_tpcc_data_original(r, data);
        if (batch_add(b, error, "(%d,%d,'%s',%.2f,'%s')", i, (int)rv_tpcc_rand_int(r, 1, 10000), name,
                      rv_tpcc_rand_int(r, 100, 10000) / 100.0, data) < 0)
            return -1;
    }
    return batch_flush(b, error);
}

static int
load_stock(Batch *b, RvTpccRand *r, const Job *j, GError **error)
{
    char dist[10][25], data[51];
    b->head = "INSERT INTO stock VALUES ";
    for (int i = j->first; i <= j->last; i++) {
        for (int k = 0; k < 10; k++)
            rv_tpcc_astring(r, 24, 24, dist[k]);
        rv_tpcc_data_original(r, data);
        if (batch_add(b, error, "(%d,%d,%d,'%s','%s','%s','%s','%s','%s','%s','%s','%s','%s',0,0,0,'%s')", i, j->w,
                      (int)rv_tpcc_rand_int(r, 10, 100), dist[0], dist[1], dist[2], dist[3], dist[4], dist[5],
                      dist[6], dist[7], dist[8], dist[9], data) < 0)
            return -1;
    }
    return batch_flush(b, error);
}

/* name, street 1, street 2, city, state and zip: clause 4.3.3.1 for W_ and D_ */
static char *
address(RvTpccRand *r)
{
    char name[11], s1[21], s2[21], city[21], state[3], zip[10];
    rv_tpcc_astring(r, 6, 10, name);
    rv_tpcc_astring(r, 10, 20, s1);
    rv_tpcc_astring(r, 10, 20, s2);
    rv_tpcc_astring(r, 10, 20, city);
    state[0] = (char)('A' + rv_tpcc_rand_int(r, 0, 25));
    state[1] = (char)('A' + rv_tpcc_rand_int(r, 0, 25));
    state[2] = '\0';
    rv_tpcc_zip(r, zip);
    return g_strdup_printf("'%s','%s','%s','%s','%s','%s'", name, s1, s2, city, state, zip);
}

static int
load_warehouse(Batch *b, RvTpccRand *r, const Job *j, GError **error)
{
    const RvTpccScale *s = b->l->o->scale;
    g_autofree char *wa = address(r);
    b->head = "INSERT INTO warehouse VALUES ";
    /* W_YTD 300000.00 and D_YTD 30000.00: the 10.00 of each customer's history row (consistency conditions 8, 9) */
    if (batch_add(b, error, "(%d,%s,%.4f,%d.00)", j->w, wa, rv_tpcc_rand_int(r, 0, 2000) / 10000.0,
                  s->customers * RV_TPCC_DISTRICTS * 10) < 0 ||
        batch_flush(b, error) < 0)
        return -1;
    b->head = "INSERT INTO district VALUES ";
    for (int d = 1; d <= RV_TPCC_DISTRICTS; d++) {
        g_autofree char *da = address(r);
        if (batch_add(b, error, "(%d,%d,%s,%.4f,%d.00,%d)", d, j->w, da, rv_tpcc_rand_int(r, 0, 2000) / 10000.0,
                      s->customers * 10, s->customers + 1) < 0)
            return -1;
    }
    return batch_flush(b, error);
}

static int
load_customers(Batch *b, RvTpccRand *r, const Job *j, GError **error)
{
    const RvTpccScale *s = b->l->o->scale;
    char first[17], last[RV_TPCC_LAST_MAX], s1[21], s2[21], city[21], zip[10], phone[17], data[501], hdata[25];

    b->head = "INSERT INTO customer VALUES ";
    for (int c = 1; c <= s->customers; c++) {
        rv_tpcc_astring(r, 8, 16, first);
        rv_tpcc_last_name(rv_tpcc_customer_last_num(r, s, b->l->c.c_last, c), last);
        rv_tpcc_astring(r, 10, 20, s1);
        rv_tpcc_astring(r, 10, 20, s2);
        rv_tpcc_astring(r, 10, 20, city);
        rv_tpcc_zip(r, zip);
        rv_tpcc_nstring(r, 16, 16, phone);
        rv_tpcc_astring(r, 300, 500, data);
        if (batch_add(b, error,
                      "(%d,%d,%d,'%s','OE','%s','%s','%s','%s','%c%c','%s','%s',NOW(),'%s',50000.00,%.4f,"
                      "-10.00,10.00,1,0,'%s')",
                      c, j->d, j->w, first, last, s1, s2, city, (char)('A' + rv_tpcc_rand_int(r, 0, 25)),
                      (char)('A' + rv_tpcc_rand_int(r, 0, 25)), zip, phone,
                      rv_tpcc_rand_int(r, 1, 10) == 1 ? "BC" : "GC", rv_tpcc_rand_int(r, 0, 5000) / 10000.0, data) < 0)
            return -1;
    }
    if (batch_flush(b, error) < 0)
        return -1;
    b->head = "INSERT INTO history VALUES ";
    for (int c = 1; c <= s->customers; c++) {
        rv_tpcc_astring(r, 12, 24, hdata);
        if (batch_add(b, error, "(%d,%d,%d,%d,%d,NOW(),10.00,'%s')", c, j->d, j->w, j->d, j->w, hdata) < 0)
            return -1;
    }
    return batch_flush(b, error);
}

static int
load_orders(Batch *b, RvTpccRand *r, const Job *j, GError **error)
{
    const RvTpccScale *s = b->l->o->scale;
    int delivered = s->customers - s->new_orders;       /* O_ID < 2101 in the spec */
    g_autofree int *perm = g_new(int, s->customers);
    g_autofree int *ol_cnt = g_new(int, s->customers + 1);
    char dist[25];

    rv_tpcc_permutation(r, perm, s->customers);
    b->head = "INSERT INTO orders VALUES ";
    for (int o = 1; o <= s->customers; o++) {
        ol_cnt[o] = (int)rv_tpcc_rand_int(r, 5, 15);
        if (batch_add(b, error, o <= delivered ? "(%d,%d,%d,%d,NOW(),%d,%d,1)" : "(%d,%d,%d,%d,NOW(),NULL,%d,1)",
                      o, j->d, j->w, perm[o - 1], o <= delivered ? (int)rv_tpcc_rand_int(r, 1, 10) : ol_cnt[o],
                      ol_cnt[o]) < 0)
            return -1;
    }
    if (batch_flush(b, error) < 0)
        return -1;
    b->head = "INSERT INTO order_line VALUES ";
    for (int o = 1; o <= s->customers; o++)
        for (int n = 1; n <= ol_cnt[o]; n++) {
            rv_tpcc_astring(r, 24, 24, dist);
            int rc = o <= delivered
                         ? batch_add(b, error, "(%d,%d,%d,%d,%d,%d,NOW(),5,0.00,'%s')", o, j->d, j->w, n,
                                     (int)rv_tpcc_rand_int(r, 1, s->items), j->w, dist)
                         : batch_add(b, error, "(%d,%d,%d,%d,%d,%d,NULL,5,%.2f,'%s')", o, j->d, j->w, n,
                                     (int)rv_tpcc_rand_int(r, 1, s->items), j->w,
                                     rv_tpcc_rand_int(r, 1, 999999) / 100.0, dist);
            if (rc < 0)
                return -1;
        }
    if (batch_flush(b, error) < 0)
        return -1;
    b->head = "INSERT INTO new_order VALUES ";
    for (int o = delivered + 1; o <= s->customers; o++)
        if (batch_add(b, error, "(%d,%d,%d)", o, j->d, j->w) < 0)
            return -1;
    return batch_flush(b, error);
}

static int
run_job(Batch *b, RvTpccRand *r, const Job *j, GError **error)
{
    switch (j->kind) {
    case JOB_ITEM: return load_items(b, r, j, error);
    case JOB_STOCK: return load_stock(b, r, j, error);
    case JOB_WAREHOUSE: return load_warehouse(b, r, j, error);
    case JOB_CUSTOMER: return load_customers(b, r, j, error);
    case JOB_ORDERS: return load_orders(b, r, j, error);
    }
    return 0;
}

static void
loader_fail(Loader *l, const char *msg)
{
    g_mutex_lock(&l->lock);
    if (!l->error)
        l->error = g_strdup(msg);
    g_mutex_unlock(&l->lock);
    g_atomic_int_set(&l->failed, 1);
}

static gpointer
loader_thread(gpointer data)
{
    Loader *l = data;
    g_autoptr(GError) e = NULL;
    g_autoptr(MYSQL) m = NULL;
    RvTpccRand r;
    Batch b = { .sql = g_string_sized_new(BATCH_BYTES + 4096), .l = l };

    mysql_thread_init();
    m = rv_tpcc_connect(&l->o->conn, true, &e);
    b.m = m;
    for (int i; m && !g_atomic_int_get(&l->failed) && (i = g_atomic_int_add(&l->next_job, 1)) < (int)l->jobs->len;) {
        const Job *j = &g_array_index(l->jobs, Job, i);
        rv_tpcc_rand_seed(&r, l->o->seed + (uint64_t)i * 7919);
        if (run_job(&b, &r, j, &e) < 0)
            break;
    }
    if (e) {
        g_autofree char *server = rv_tpcc_server_name(&l->o->conn);
        g_autofree char *msg = m ? g_strdup_printf("%s: loading failed: %s", server, e->message) : g_strdup(e->message);
        loader_fail(l, msg);
    }
    g_string_free(b.sql, TRUE);
    g_clear_pointer(&m, mysql_close);
    mysql_thread_end();
    return NULL;
}

static GArray *
load_jobs(const RvTpccOpts *o)
{
    GArray *jobs = g_array_new(FALSE, TRUE, sizeof(Job));
    for (int i = 1; i <= o->scale->items; i += SLICE)
        g_array_append_val(jobs, ((Job){ JOB_ITEM, 0, 0, i, MIN(i + SLICE - 1, o->scale->items) }));
    for (int w = 1; w <= o->warehouses; w++) {
        g_array_append_val(jobs, ((Job){ JOB_WAREHOUSE, w, 0, 0, 0 }));
        for (int d = 1; d <= RV_TPCC_DISTRICTS; d++) {
            g_array_append_val(jobs, ((Job){ JOB_ORDERS, w, d, 0, 0 }));
            g_array_append_val(jobs, ((Job){ JOB_CUSTOMER, w, d, 0, 0 }));
        }
        for (int i = 1; i <= o->scale->items; i += SLICE)
            g_array_append_val(jobs, ((Job){ JOB_STOCK, w, 0, i, MIN(i + SLICE - 1, o->scale->items) }));
    }
    return jobs;
}

static int
load_fail(const char *server, const char *what, GError *e)
{
    fprintf(stderr, "rtvirt-tpcc: %s: %s: %s\n", server, what, e->message);
    return 2;
}

int
rv_tpcc_load(const RvTpccOpts *o)
{
    g_autoptr(GError) e = NULL;
    g_autofree char *server = rv_tpcc_server_name(&o->conn);
    const char *tag = o->scale->standard ? "" : " [NON-STANDARD scale 'small': not a TPC-C database]";
    RvTpccRand r;
    Loader l = { .o = o };
    gint64 t0 = g_get_monotonic_time();

    g_autoptr(MYSQL) m = rv_tpcc_connect(&o->conn, false, &e);
    if (!m) {
        fprintf(stderr, "rtvirt-tpcc: %s\n", e->message);
        return 2;
    }
    if (rv_tpcc_schema_create(m, o->conn.database, &e) < 0)
        return load_fail(server, "failed to create the schema", e);
    rv_tpcc_rand_seed(&r, o->seed);
    rv_tpcc_nurand_c_load(&r, &l.c);
    printf("rtvirt-tpcc load: %d warehouse(s), scale %s%s, %d loader thread(s) into database '%s' on %s\n",
           o->warehouses, o->scale->name, tag, o->threads, o->conn.database, server);
    fflush(stdout);

    l.jobs = load_jobs(o);
    g_mutex_init(&l.lock);
    GThread *threads[64];
    for (int i = 0; i < o->threads; i++)
        threads[i] = g_thread_new("loader", loader_thread, &l);
    for (int i = 0; i < o->threads; i++)
        g_thread_join(threads[i]);
    g_array_unref(l.jobs);
    g_mutex_clear(&l.lock);
    if (l.error) {
        fprintf(stderr, "rtvirt-tpcc: %s\n", l.error);
        g_free(l.error);
        return 2;
    }
    if (rv_tpcc_exec(m, &e, "INSERT INTO tpcc_meta VALUES (%d,'%s',%d,%d,%d,%d,1,NOW())", RV_TPCC_SCHEMA_VERSION,
                     o->scale->name, o->warehouses, l.c.c_last, l.c.c_id, l.c.ol_i_id) < 0 ||
        rv_tpcc_exec(m, &e, "COMMIT") < 0)
        return load_fail(server, "failed to write tpcc_meta", e);
    double s = (g_get_monotonic_time() - t0) / 1e6;
    printf("rtvirt-tpcc load: %" G_GINT64_FORMAT " rows in %.1f s (%.0f rows/s)%s\n", l.rows, s, l.rows / s, tag);
    return 0;
}
