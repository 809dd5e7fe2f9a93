/*
 * store_merge_order.c: whether a merge input's puzzles, read by row, are
 * in stream order (rule hash, seed, stream index): db merge copies such
 * an input by row, without sorting it in a temporary B-tree
 * (store_merge_copy.c). The merge's pass over the input (store_merge_keys.c)
 * feeds each row here as it reads it, so the order check costs no read of
 * its own.
 */
#include "store/store.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include <sqlite3.h>

#include "base/buf.h"
#include "base/mem.h"
#include "store_internal.h"

/* A row's stream key, as the copy's ORDER BY sorts it: NULLs first. The
 * hash and seed of the previous row are kept only when they change
 * (within one run they never do). */
typedef struct stream_key {
    qn_buf hash, seed;
    int has_seed, has_index;
    int64_t index;
    unsigned run_load; /* the seed is that load's of its run (0: not) */
} stream_key;

/* The seed of the run of the row last read that keeps '' for its own. */
typedef struct run_seed {
    int loaded, has_seed;
    unsigned load; /* counts the loads: names the seed held */
    int64_t run_id;
    qn_buf seed;
    sqlite3_stmt *run;
} run_seed;

struct qn_store__order {
    qn_store *s;
    stream_key prev;
    run_seed rs;
    int64_t rows;
    int in_order;
};

/* <0, 0, >0 as (h, seed, index) of row x sorts before, with, after
 * k; *same_hash and *same_seed say which texts k already holds
 * (same_rule: the row's rule is the previous row's, so is its hash;
 * run_load: the seed is the one that load of the run cache holds, as
 * k's is when it names the same load: a run's rows keep '' for its seed,
 * and comparing it a row was half of the order check). */
static int key_cmp(const char *h, const char *seed, unsigned run_load,
                   const qn_store__okey *x, const stream_key *k, int same_rule,
                   int *same_hash, int *same_seed)
{
    int c;

    *same_hash = *same_seed = 0;
    if (!same_rule && (c = strcmp(h, k->hash.buf)))
        return c;
    *same_hash = 1;
    if (!seed != !k->has_seed)
        return seed ? 1 : -1;
    if (seed && !(run_load && run_load == k->run_load) &&
        (c = strcmp(seed, k->seed.buf)))
        return c;
    *same_seed = 1;
    if (x->has_index != k->has_index)
        return k->has_index ? -1 : 1;
    return x->has_index ? (x->index > k->index) - (x->index < k->index) : 0;
}

static void key_take(const char *h, const char *seed, unsigned run_load,
                     const qn_store__okey *x, stream_key *k, int same_hash,
                     int same_seed)
{
    /* out of memory shows as the buffers' failed flags (order_row) */
    if (!same_hash) {
        qn_buf_reset(&k->hash);
        qn_buf_adds(&k->hash, h);
    }
    if (!same_seed) {
        qn_buf_reset(&k->seed);
        qn_buf_adds(&k->seed, seed ? seed : "");
        k->has_seed = seed != NULL;
    }
    k->run_load = run_load;
    k->has_index = x->has_index;
    k->index = x->index;
}

/* The seed of run run_id into rs (none: no such run). */
static int load_run(qn_store *s, run_seed *rs, int64_t run_id, qn_err *err)
{
    int r;

    rs->loaded = 1;
    rs->load = rs->load + 1 ? rs->load + 1 : 1; /* 0 names no load */
    rs->run_id = run_id;
    rs->has_seed = 0;
    sqlite3_reset(rs->run);
    sqlite3_bind_int64(rs->run, 1, run_id);
    if ((r = sqlite3_step(rs->run)) == SQLITE_ROW &&
        sqlite3_column_type(rs->run, 0) != SQLITE_NULL) {
        qn_buf_reset(&rs->seed);
        qn_buf_adds(&rs->seed, qn_store__col_str(rs->run, 0));
        if (rs->seed.failed) {
            rs->loaded = 0;
            return qn_err_nomem(err);
        }
        rs->has_seed = 1;
    } else if (r != SQLITE_ROW && r != SQLITE_DONE) {
        rs->loaded = 0;
        return qn_store__fail(s, r, err);
    }
    return QN_OK;
}

/* The seed the copy orders row x by (its run's where it keeps ''),
 * or NULL: iif(p.seed = '', ru.seed, p.seed); *run_load the load of the
 * run cache it is from (0: the row's own, or none). */
static int row_seed(qn_store *s, const qn_store__okey *x, run_seed *rs,
                    const char **seed, unsigned *run_load, qn_err *err)
{
    int rc;

    *run_load = 0;
    *seed = x->seed;
    if (!*seed || **seed)
        return QN_OK;
    *seed = NULL;
    if (!x->has_run) /* no run: no join */
        return QN_OK;
    if ((!rs->loaded || rs->run_id != x->run) &&
        (rc = load_run(s, rs, x->run, err)) != QN_OK)
        return rc;
    if (rs->has_seed) {
        *seed = rs->seed.buf;
        *run_load = rs->load;
    }
    return QN_OK;
}

int qn_store__order_new(qn_store__order **out, qn_store *s, qn_err *err)
{
    qn_store__order *o;
    int rc;

    *out = NULL;
    if (!(o = QN_ALLOC(qn_store__order)))
        return qn_err_nomem(err);
    o->s = s;
    o->in_order = 1;
    qn_buf_init(&o->prev.hash);
    qn_buf_init(&o->prev.seed);
    qn_buf_init(&o->rs.seed);
    if ((rc = qn_store__prep(s, &o->rs.run,
                             "SELECT seed FROM src.runs WHERE id = ?", err)) !=
        QN_OK) {
        qn_store__order_free(o);
        return rc;
    }
    *out = o;
    return QN_OK;
}

int qn_store__order_row(qn_store__order *o, const char *hash, int same_rule,
                        const qn_store__okey *x, qn_err *err)
{
    int same_hash = 0, same_seed = 0, rc;
    unsigned run_load;
    const char *seed;

    if (!o->in_order) /* nothing more to learn */
        return QN_OK;
    if ((rc = row_seed(o->s, x, &o->rs, &seed, &run_load, err)) != QN_OK)
        return rc;
    if (o->rows && key_cmp(hash, seed, run_load, x, &o->prev,
                           same_rule && o->rows, &same_hash, &same_seed) < 0)
        o->in_order = 0;
    if (o->in_order)
        key_take(hash, seed, run_load, x, &o->prev, same_hash, same_seed);
    if (o->prev.hash.failed || o->prev.seed.failed || o->rs.seed.failed)
        return qn_err_nomem(err);
    o->rows++;
    return QN_OK;
}

int qn_store__order_in(const qn_store__order *o)
{
    return o->in_order;
}

void qn_store__order_free(qn_store__order *o)
{
    if (!o)
        return;
    sqlite3_finalize(o->rs.run);
    qn_buf_release(&o->rs.seed);
    qn_buf_release(&o->prev.hash);
    qn_buf_release(&o->prev.seed);
    free(o);
}
