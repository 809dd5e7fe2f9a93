/*
 * store_ids.c: puzzle ids in the store (puzzle_id.h): looked up by a
 * unique prefix, as git does for commits, and computed for the puzzles
 * of a database older than the ids (migration 0002).
 */
#include "store/store.h"

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <sqlite3.h>

#include "base/mem.h"
#include "rules/puzzle_id.h"
#include "store/keyrun.h"
#include "store_internal.h"

/* "#N": the database row N, for scripts written before the ids. */
static int row_ref(qn_store *s, const char *ref, int64_t *id_out, qn_err *err)
{
    char *end;
    long long v;
    long long found = 0;
    char sql[64];
    int rc;

    v = strtoll(ref + 1, &end, 10);
    if (!ref[1] || *end || v < 1)
        return qn_err_set(err, QN_EINVAL, 0, 0,
                          "'%s' is not a puzzle: '#' takes a database row "
                          "number",
                          ref);
    snprintf(sql, sizeof(sql), "SELECT count(*) FROM puzzles WHERE id = %lld",
             v);
    if ((rc = qn_store__int(s, sql, &found, err)) != QN_OK)
        return rc;
    if (!found)
        return qn_err_set(err, QN_ENOTFOUND, 0, 0, "no puzzle at row %lld", v);
    *id_out = v;
    return QN_OK;
}

int qn_store_puzzle_resolve(qn_store *s, const char *ref, int64_t *id_out,
                            qn_err *err)
{
    qn_kr_pair best[2];
    uint64_t lo, hi;
    size_t n;
    int rc;
    char a[QN_PUZZLE_ID_HEX], b[QN_PUZZLE_ID_HEX];

    if (ref[0] == '#')
        return row_ref(s, ref, id_out, err);
    if (qn_puzzle_id_prefix(ref, &lo, &hi) != 0)
        return qn_err_set(err, QN_EINVAL, 0, 0,
                          "'%s' is not a puzzle id: expected %d to 16 hex "
                          "digits (or #ROW)",
                          ref, QN_PUZZLE_ID_MIN_PREFIX);
    /* through the key runs, not the unique key, which the flip drops */
    if ((rc = qn_store__runs_find(s, lo, hi, best, &n, err)) != QN_OK)
        return rc;
    if (n == 0)
        return qn_err_set(err, QN_ENOTFOUND, 0, 0, "no puzzle with id %s", ref);
    if (n == 2) {
        qn_puzzle_id_hex(a, best[0].key);
        qn_puzzle_id_hex(b, best[1].key);
        if (best[0].key != best[1].key)
            return qn_err_set(err, QN_EINVAL, 0, 0,
                              "puzzle id '%s' is ambiguous: %s, %s, ...; "
                              "give more digits",
                              ref, a, b);
        return qn_err_set(err, QN_EINVAL, 0, 0,
                          "puzzle id %s names two puzzles (rows #%lld "
                          "and #%lld): name one by its row",
                          a, (long long)best[0].row, (long long)best[1].row);
    }
    *id_out = best[0].row;
    return QN_OK;
}

int qn_store__rule_sizes_ok(const char *hash, int n, unsigned k)
{
    return strlen(hash) == 64 && n >= 1 && k >= 2 && k <= 255;
}

int qn_store__key_uid(const qn_puzzle_id_key *key, int n, unsigned k,
                      const void *canon, size_t len, uint8_t *cells,
                      uint64_t *out)
{
    if (!canon || len != qn_store_canon_size(n, k))
        return 0;
    qn_store_canon_unpack(cells, canon, n, k);
    *out = qn_puzzle_id(key, cells, n);
    return 1;
}

/* The ids of the puzzles of up to 1024 rows after row `after`, by row,
 * that do not hold them already; `last` is the last row read, of nread. */
typedef struct id_chunk {
    int64_t row[1024], uid[1024];
    size_t n, nread;
    int64_t last;
} id_chunk;

static int compute_chunk(qn_store *s, int64_t after, int missing_only,
                         id_chunk *c, qn_err *err)
{
    qn_store__stmt q;
    uint8_t *cells = NULL;

    c->n = c->nread = 0;
    qn_store__sql(&q, s,
                  "SELECT p.id, r.hash, r.cells, r.colours, p.canon,"
                  " p.uid FROM puzzles p JOIN rules r ON r.id = p.rule_id"
                  " WHERE p.id > ? AND (? = 0 OR p.uid IS NULL)"
                  " ORDER BY p.id LIMIT 1024",
                  err);
    qn_store__bind_i64(&q, 1, after);
    qn_store__bind_i64(&q, 2, missing_only);
    while (qn_store__row(&q)) {
        sqlite3_stmt *st = q.st;
        const char *hash = qn_store__col_str(st, 1);
        int n = sqlite3_column_int(st, 2);
        unsigned k = (unsigned)sqlite3_column_int(st, 3);
        qn_puzzle_id_key key;
        uint64_t uid;
        int ok = qn_store__rule_sizes_ok(hash, n, k);

        if (ok) {
            uint8_t *more = QN_REALLOCN(cells, (size_t)n, uint8_t);
            if (!more) {
                q.rc = qn_err_nomem(err);
                break;
            }
            cells = more;
            qn_puzzle_id_key_init(&key, hash);
            ok = qn_store__key_uid(&key, n, k, sqlite3_column_blob(st, 4),
                                   (size_t)sqlite3_column_bytes(st, 4), cells,
                                   &uid);
        }
        if (!ok) {
            qn_err_source(err, s->path);
            q.rc = qn_err_set(err, QN_EDB, 0, 0,
                              "puzzle #%lld does not fit its rule set: the "
                              "database is damaged",
                              (long long)sqlite3_column_int64(st, 0));
            break;
        }
        c->last = sqlite3_column_int64(st, 0);
        c->nread++;
        if (sqlite3_column_type(st, 5) == SQLITE_INTEGER &&
            (uint64_t)sqlite3_column_int64(st, 5) == uid)
            continue; /* right already: no write */
        c->row[c->n] = c->last;
        c->uid[c->n++] = (int64_t)uid;
    }
    free(cells);
    return qn_store__end(&q);
}

int qn_store__fill_puzzle_ids(qn_store *s, int missing_only, qn_err *err)
{
    qn_store__stmt up;
    id_chunk *c = QN_ALLOC(id_chunk);
    int64_t after = INT64_MIN; /* a row sqlite3 wrote may have id <= 0 */

    if (!c)
        return qn_err_nomem(err);
    qn_store__sql(&up, s, "UPDATE puzzles SET uid = ? WHERE id = ?", err);
    /* read a chunk, then write it: never update rows under a scan */
    while (up.rc == QN_OK &&
           (up.rc = compute_chunk(s, after, missing_only, c, err)) == QN_OK &&
           c->nread) {
        for (size_t i = 0; up.rc == QN_OK && i < c->n; i++) {
            qn_store__bind_i64(&up, 1, c->uid[i]);
            qn_store__bind_i64(&up, 2, c->row[i]);
            qn_store__run(&up);
        }
        after = c->last;
    }
    free(c);
    return qn_store__end(&up);
}
