/*
 * store_merge_order.c: whether a merge input's puzzles are in stream
 * order (rule hash, seed, stream index) when read by row, and how many
 * the copy reads. db merge copies such an input by row, without sorting
 * it in a temporary B-tree (store_merge.c). The scan reads the input on a
 * connection of its own, so db merge runs it on the thread that runs
 * PRAGMA quick_check (store_merge_all.c), beside the copy: checked inside
 * the copy's statement, through an SQL function a row, it was 10% of the
 * merge's time on the one thread that cannot be split.
 *
 * It also checks each row's puzzle id against its rule and canonical
 * key: OUT's unique key (uid, rule_id, canon) refuses a duplicate only
 * if every id is its puzzle's, and the copy takes an input's ids as they
 * are (a row edited by hand is damage PRAGMA quick_check cannot see).
 */
#include "store/store.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include <sqlite3.h>

#include "base/buf.h"
#include "base/mem.h"
#include "rules/puzzle_id.h"
#include "store_internal.h"

/* A row's stream key, as the copy's ORDER BY sorts it: NULLs first. The
 * hash and seed of the previous row are kept only when they change
 * (within one run they never do). */
typedef struct stream_key {
    qn_buf hash, seed;
    int has_seed, has_index;
    int64_t index;
} stream_key;

/* <0, 0, >0 as (h, seed, index) of st's row sorts before, with, after
 * k; *same_hash and *same_seed say which texts k already holds. */
static int key_cmp(const char *h, const char *seed, sqlite3_stmt *st,
                   const stream_key *k, int *same_hash, int *same_seed)
{
    int has_index = sqlite3_column_type(st, 3) != SQLITE_NULL, c;
    int64_t index = sqlite3_column_int64(st, 3);

    *same_hash = *same_seed = 0;
    if ((c = strcmp(h, k->hash.buf)))
        return c;
    *same_hash = 1;
    if (!seed != !k->has_seed)
        return seed ? 1 : -1;
    if (seed && (c = strcmp(seed, k->seed.buf)))
        return c;
    *same_seed = 1;
    if (has_index != k->has_index)
        return k->has_index ? -1 : 1;
    return has_index ? (index > k->index) - (index < k->index) : 0;
}

static void key_take(const char *h, const char *seed, sqlite3_stmt *st,
                     stream_key *k, int same_hash, int same_seed)
{
    /* out of memory shows as the buffers' failed flags (scan) */
    if (!same_hash) {
        qn_buf_reset(&k->hash);
        qn_buf_adds(&k->hash, h);
    }
    if (!same_seed) {
        qn_buf_reset(&k->seed);
        qn_buf_adds(&k->seed, seed ? seed : "");
        k->has_seed = seed != NULL;
    }
    k->has_index = sqlite3_column_type(st, 3) != SQLITE_NULL;
    k->index = sqlite3_column_int64(st, 3);
}

/* The rows the copy reads (a puzzle with its rule; its run's seed where
 * it keeps '' for it), by row: the same join as store_merge.c's copy. */
static const char scan_sql[] =
    "SELECT p.id, r.hash, iif(p.seed = '', ru.seed, p.seed),"
    " p.stream_index, p.rule_id, r.cells, r.colours, p.canon, p.uid"
    " FROM puzzles p NOT INDEXED JOIN rules r ON r.id = p.rule_id"
    " LEFT JOIN runs ru ON ru.id = p.run_id ORDER BY p.id";

/* The id key of the rule of the row last checked, kept while the rows'
 * rule stays the same (a shard has one). */
typedef struct id_check {
    int loaded;
    int64_t rule_id;
    int n;
    unsigned k;
    qn_puzzle_id_key key;
    uint8_t *cells;
} id_check;

/* QN_EDB, naming the row, unless st's row holds its puzzle's id. */
static int check_id(sqlite3_stmt *st, id_check *c, qn_err *err)
{
    int64_t rule_id = sqlite3_column_int64(st, 4);
    const char *hash = qn_store__col_str(st, 1);
    int n = sqlite3_column_int(st, 5);
    unsigned k = (unsigned)sqlite3_column_int(st, 6);
    uint64_t uid;

    if (!c->loaded || c->rule_id != rule_id) {
        c->loaded = 0;
        if (!qn_store__rule_sizes_ok(hash, n, k))
            goto damaged;
        uint8_t *cells = QN_REALLOCN(c->cells, (size_t)n, uint8_t);
        if (!cells)
            return qn_err_nomem(err);
        c->cells = cells;
        qn_puzzle_id_key_init(&c->key, hash);
        c->n = n;
        c->k = k;
        c->rule_id = rule_id;
        c->loaded = 1;
    }
    if (sqlite3_column_type(st, 7) == SQLITE_BLOB &&
        qn_store__key_uid(&c->key, c->n, c->k, sqlite3_column_blob(st, 7),
                          (size_t)sqlite3_column_bytes(st, 7), c->cells,
                          &uid) &&
        sqlite3_column_type(st, 8) == SQLITE_INTEGER &&
        (uint64_t)sqlite3_column_int64(st, 8) == uid)
        return QN_OK;
damaged: /* qn_store__merge_scan names the input */
    return qn_err_set(err, QN_EDB, 0, 0,
                      "puzzle at row %lld: its stored id is not its "
                      "puzzle's (or its rule set or canonical key is "
                      "damaged): the database is damaged",
                      (long long)sqlite3_column_int64(st, 0));
}

static int scan(qn_store *in, qn_store__merge_order *out, qn_err *err)
{
    stream_key prev = {QN_BUF_INIT, QN_BUF_INIT, 0, 0, 0};
    id_check ids = {0, 0, 0, 0, {{0}}, NULL};
    sqlite3_stmt *st;
    int rc = qn_store__prep(in, &st, scan_sql, err), r;

    if (rc != QN_OK)
        return rc;
    out->rows = 0;
    out->in_order = 1;
    qn_buf_sticky(1); /* prev's buffers: their failed flags, below */
    while ((r = sqlite3_step(st)) == SQLITE_ROW) {
        const char *h = qn_store__col_str(st, 1);
        const char *seed = qn_store__col_text(st, 2);
        int same_hash = 0, same_seed = 0;

        if ((rc = check_id(st, &ids, err)) != QN_OK)
            break;
        if (out->in_order && out->rows &&
            key_cmp(h, seed, st, &prev, &same_hash, &same_seed) < 0)
            out->in_order = 0;
        if (out->in_order)
            key_take(h, seed, st, &prev, same_hash, same_seed);
        if (prev.hash.failed || prev.seed.failed) {
            rc = qn_err_nomem(err);
            break;
        }
        out->rows++;
    }
    qn_buf_sticky(0);
    if (rc == QN_OK && r != SQLITE_DONE)
        rc = qn_store__fail(in, r, err);
    sqlite3_finalize(st);
    free(ids.cells);
    qn_buf_release(&prev.hash);
    qn_buf_release(&prev.seed);
    return rc;
}

int qn_store__merge_scan(const char *in_path, qn_store__merge_order *out,
                         qn_err *err)
{
    qn_store *in = NULL;
    int rc = qn_store_open(&in, in_path,
                           QN_STORE_READONLY | QN_STORE_NO_MIGRATE, err);

    if (rc == QN_OK)
        rc = scan(in, out, err);
    qn_store_close(in);
    if (rc != QN_OK)
        qn_err_source(err, in_path);
    return rc;
}
