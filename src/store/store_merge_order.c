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
 * k; *same_hash and *same_seed say which texts k already holds
 * (same_rule: the row's rule is the previous row's, so is its hash). */
static int key_cmp(const char *h, const char *seed, sqlite3_stmt *st,
                   const stream_key *k, int same_rule, int *same_hash,
                   int *same_seed)
{
    int has_index = sqlite3_column_type(st, 3) != SQLITE_NULL, c;
    int64_t index = sqlite3_column_int64(st, 3);

    *same_hash = *same_seed = 0;
    if (!same_rule && (c = strcmp(h, k->hash.buf)))
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

/* The rows the copy reads, by row: each puzzle's rule and (where it
 * keeps '' for its seed) its run's seed are those of store_merge.c's
 * join, looked up here when they change (a shard has one rule and one
 * run), not joined a row. */
static const char scan_sql[] =
    "SELECT p.id, p.rule_id, p.seed, p.stream_index, p.run_id, p.canon,"
    " p.uid FROM puzzles p NOT INDEXED ORDER BY p.id";
static const char rule_sql[] =
    "SELECT hash, cells, colours FROM rules WHERE id = ?";
static const char run_sql[] = "SELECT seed FROM runs WHERE id = ?";

/* The rule of the row last read, and its id key for the rows' ids,
 * kept while the rows' rule stays the same. */
typedef struct id_check {
    int loaded, found; /* found: the rule exists (the join keeps the row) */
    int64_t rule_id;
    qn_buf hash;
    int n, sizes_ok;
    unsigned k;
    qn_puzzle_id_key key;
    uint8_t *cells;
    sqlite3_stmt *rule;
} id_check;

/* The seed of the run of the row last read that keeps '' for its own. */
typedef struct run_seed {
    int loaded, has_seed;
    int64_t run_id;
    qn_buf seed;
    sqlite3_stmt *run;
} run_seed;

/* Rule rule_id into c (c->found 0 when there is none). */
static int load_rule(qn_store *in, id_check *c, int64_t rule_id, qn_err *err)
{
    int r;

    c->loaded = 1;
    c->rule_id = rule_id;
    c->found = 0;
    sqlite3_reset(c->rule);
    sqlite3_bind_int64(c->rule, 1, rule_id);
    if ((r = sqlite3_step(c->rule)) == SQLITE_ROW) {
        qn_buf_reset(&c->hash);
        qn_buf_adds(&c->hash, qn_store__col_str(c->rule, 0));
        if (c->hash.failed) {
            c->loaded = 0;
            return qn_err_nomem(err);
        }
        c->n = sqlite3_column_int(c->rule, 1);
        c->k = (unsigned)sqlite3_column_int(c->rule, 2);
        c->found = 1;
        c->sizes_ok = qn_store__rule_sizes_ok(c->hash.buf, c->n, c->k);
        if (c->sizes_ok) {
            uint8_t *cells = QN_REALLOCN(c->cells, (size_t)c->n + 1, uint8_t);
            if (!cells) {
                c->loaded = 0;
                return qn_err_nomem(err);
            }
            c->cells = cells;
            qn_puzzle_id_key_init(&c->key, c->hash.buf);
        }
    } else if (r != SQLITE_DONE) {
        c->loaded = 0;
        return qn_store__fail(in, r, err);
    }
    return QN_OK;
}

/* The seed of run run_id into rs (none: no such run). */
static int load_run(qn_store *in, run_seed *rs, int64_t run_id, qn_err *err)
{
    int r;

    rs->loaded = 1;
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
        return qn_store__fail(in, r, err);
    }
    return QN_OK;
}

/* QN_EDB, naming the row, unless st's row holds its puzzle's id. */
static int check_id(sqlite3_stmt *st, const id_check *c, qn_err *err)
{
    uint64_t uid;

    if (c->sizes_ok && sqlite3_column_type(st, 5) == SQLITE_BLOB &&
        qn_store__key_uid(&c->key, c->n, c->k, sqlite3_column_blob(st, 5),
                          (size_t)sqlite3_column_bytes(st, 5), c->cells,
                          &uid) &&
        sqlite3_column_type(st, 6) == SQLITE_INTEGER &&
        (uint64_t)sqlite3_column_int64(st, 6) == uid)
        return QN_OK;
    /* qn_store__merge_scan names the input */
    return qn_err_set(err, QN_EDB, 0, 0,
                      "puzzle at row %lld: its stored id is not its "
                      "puzzle's (or its rule set or canonical key is "
                      "damaged): the database is damaged",
                      (long long)sqlite3_column_int64(st, 0));
}

/* The seed the copy orders st's row by (its run's where it keeps ''),
 * or NULL: iif(p.seed = '', ru.seed, p.seed). */
static int row_seed(qn_store *in, sqlite3_stmt *st, run_seed *rs,
                    const char **seed, qn_err *err)
{
    int rc;

    *seed = qn_store__col_text(st, 2);
    if (!*seed || **seed)
        return QN_OK;
    *seed = NULL;
    if (sqlite3_column_type(st, 4) == SQLITE_NULL) /* no run: no join */
        return QN_OK;
    if ((!rs->loaded || rs->run_id != sqlite3_column_int64(st, 4)) &&
        (rc = load_run(in, rs, sqlite3_column_int64(st, 4), err)) != QN_OK)
        return rc;
    if (rs->has_seed)
        *seed = rs->seed.buf;
    return QN_OK;
}

static int scan(qn_store *in, qn_store__merge_order *out, qn_err *err)
{
    stream_key prev = {QN_BUF_INIT, QN_BUF_INIT, 0, 0, 0};
    id_check ids = {0};
    run_seed rs = {0};
    sqlite3_stmt *st = NULL;
    int64_t prev_rule = 0;
    int rc, r = SQLITE_DONE;

    qn_buf_init(&ids.hash);
    qn_buf_init(&rs.seed);
    rc = qn_store__prep(in, &st, scan_sql, err);
    if (rc == QN_OK)
        rc = qn_store__prep(in, &ids.rule, rule_sql, err);
    if (rc == QN_OK)
        rc = qn_store__prep(in, &rs.run, run_sql, err);
    out->rows = 0;
    out->in_order = 1;
    out->min_id = out->max_id = 0;
    out->pairs = 0;
    while (rc == QN_OK && (r = sqlite3_step(st)) == SQLITE_ROW) {
        int64_t rule_id = sqlite3_column_int64(st, 1);
        int same_rule = out->rows && rule_id == prev_rule;
        int same_hash = 0, same_seed = 0;
        const char *seed;

        if ((!ids.loaded || ids.rule_id != rule_id) &&
            (rc = load_rule(in, &ids, rule_id, err)) != QN_OK)
            break;
        if (!ids.found) /* the copy's join drops it too */
            continue;
        if ((rc = check_id(st, &ids, err)) != QN_OK ||
            (rc = row_seed(in, st, &rs, &seed, err)) != QN_OK)
            break;
        if (out->in_order && out->rows &&
            key_cmp(ids.hash.buf, seed, st, &prev, same_rule, &same_hash,
                    &same_seed) < 0)
            out->in_order = 0;
        if (out->in_order)
            key_take(ids.hash.buf, seed, st, &prev, same_hash, same_seed);
        prev_rule = rule_id;
        {
            int64_t id = sqlite3_column_int64(st, 0);
            if (!out->rows || id < out->min_id)
                out->min_id = id;
            if (!out->rows || id > out->max_id)
                out->max_id = id;
            out->pairs += qn_store__pair_digest(
                (uint64_t)sqlite3_column_int64(st, 6), id);
        }
        if (prev.hash.failed || prev.seed.failed || ids.hash.failed ||
            rs.seed.failed) {
            rc = qn_err_nomem(err);
            break;
        }
        out->rows++;
    }
    if (rc == QN_OK && r != SQLITE_DONE)
        rc = qn_store__fail(in, r, err);
    sqlite3_finalize(st);
    sqlite3_finalize(ids.rule);
    sqlite3_finalize(rs.run);
    free(ids.cells);
    qn_buf_release(&ids.hash);
    qn_buf_release(&rs.seed);
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
