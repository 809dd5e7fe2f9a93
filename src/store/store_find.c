/*
 * store_find.c: puzzles looked up by puzzle id range through the key
 * runs (issue #35 section 1, docs/STORE-KEYRUNS.md "Lookup by puzzle
 * id"), not through the unique key, which the flip drops: each run whose
 * key range meets the range is searched in place (qn_kr_find over
 * sqlite3_blob_read), none is read whole.
 */
#include "store/store.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include <sqlite3.h>

#include "base/mem.h"
#include "keyrun.h"
#include "store_internal.h"

/* The blob of the run being searched; rc: SQLite's code of a failed read
 * (qn_kr_find passes QN_EIO up, so a read error is not taken for damage). */
typedef struct blob_ctx {
    sqlite3_blob *b;
    int rc;
} blob_ctx;

static int blob_read(void *ctx, size_t off, void *buf, size_t n)
{
    blob_ctx *c = ctx;

    c->rc = sqlite3_blob_read(c->b, buf, (int)n, (int)off);
    return c->rc == SQLITE_OK ? QN_OK : QN_EIO;
}

static int pair_less(const qn_kr_pair *a, const qn_kr_pair *b)
{
    return a->key != b->key ? a->key < b->key : a->row < b->row;
}

/* p into the two smallest pairs best[0..*n) */
void qn_store__keep_two(qn_kr_pair *best, size_t *n, const qn_kr_pair *p)
{
    if (*n < 2)
        best[(*n)++] = *p;
    else if (pair_less(p, &best[1]))
        best[1] = *p;
    if (*n == 2 && pair_less(&best[1], &best[0])) {
        qn_kr_pair t = best[0];
        best[0] = best[1];
        best[1] = t;
    }
}

/* Run `run` of rule set `rule` (its blob opened, or moved to, in c)
 * searched for [lo, hi]: up to max pairs into out, the true count in
 * *nfound; a damaged run is QN_EDB naming it. */
static int run_pairs(qn_store *s, blob_ctx *c, int64_t run, int64_t rule,
                     uint64_t lo, uint64_t hi, qn_kr_pair *out, size_t max,
                     size_t *nfound, qn_err *err)
{
    int rc = c->b ? sqlite3_blob_reopen(c->b, run)
                  : sqlite3_blob_open(s->db, "main", "key_runs", "keys", run, 0,
                                      &c->b);

    if (rc != SQLITE_OK)
        return qn_store__fail(s, rc, err);
    rc = qn_kr_find(blob_read, c, (size_t)sqlite3_blob_bytes(c->b), lo, hi, out,
                    max, nfound);
    if (rc == QN_EIO)
        return qn_store__fail(s, c->rc, err);
    if (rc != QN_OK) {
        qn_err_source(err, s->path);
        return qn_err_set(err, QN_EDB, 0, 0,
                          "key run %lld of rule set %lld is damaged",
                          (long long)run, (long long)rule);
    }
    return QN_OK;
}

static int find_in_run(qn_store *s, blob_ctx *c, int64_t run, int64_t rule,
                       uint64_t lo, uint64_t hi, qn_kr_pair *best, size_t *n,
                       qn_err *err)
{
    qn_kr_pair got[2];
    size_t nfound;
    int rc = run_pairs(s, c, run, rule, lo, hi, got, 2, &nfound, err);

    for (size_t i = 0; rc == QN_OK && i < nfound && i < 2; i++)
        qn_store__keep_two(best, n, &got[i]);
    return rc;
}

int qn_store__runs_find(qn_store *s, uint64_t lo, uint64_t hi, qn_kr_pair *best,
                        size_t *n, qn_err *err)
{
    qn_store__stmt q;
    blob_ctx c = {NULL, SQLITE_OK};
    const qn_kr_pair *p;

    /* the rows this connection's open transaction inserted are in no run
     * until its commit: the notes hold them */
    *n = 0;
    for (size_t i = 0; (p = qn_store__runs_noted(s, i)) != NULL; i++)
        if (p->key >= lo && p->key <= hi)
            qn_store__keep_two(best, n, p);
    /* every rule's runs: a puzzle id names a puzzle whatever its rule.
     * The keys are signed in SQL and a run's range may straddle 2^63:
     * its bounds are compared unsigned here, not in the query. */
    qn_store__sql(&q, s,
                  "SELECT id, rule_id, first_key, last_key FROM main.key_runs",
                  err);
    while (qn_store__row(&q)) {
        uint64_t first = (uint64_t)sqlite3_column_int64(q.st, 2);
        uint64_t last = (uint64_t)sqlite3_column_int64(q.st, 3);
        /* two found: only a smaller pair can change the answer */
        uint64_t top = *n == 2 ? best[1].key : hi;

        if (last < lo || first > top)
            continue;
        q.rc =
            find_in_run(s, &c, sqlite3_column_int64(q.st, 0),
                        sqlite3_column_int64(q.st, 1), lo, top, best, n, err);
    }
    sqlite3_blob_close(c.b);
    return qn_store__end(&q);
}

int qn_store__runs_key(qn_store *s, int64_t rule_id, uint64_t uid,
                       qn_store__row_try *fn, void *ctx, qn_err *err)
{
    qn_store__stmt q;
    blob_ctx c = {NULL, SQLITE_OK};
    const qn_kr_pair *p;
    qn_kr_pair got[8], *many = NULL;
    int done = 0, rc = QN_OK;

    for (size_t i = 0;
         rc == QN_OK && !done && (p = qn_store__runs_noted(s, i)) != NULL; i++)
        if (p->key == uid)
            rc = fn(ctx, p->row, &done, err);
    if (rc != QN_OK || done)
        return rc;
    qn_store__sql_kept(&q, s, QN_STORE__KEPT_RULE_RUNS,
                       "SELECT id, first_key, last_key FROM main.key_runs"
                       " WHERE rule_id = ?",
                       err);
    qn_store__bind_i64(&q, 1, rule_id);
    while (!done && qn_store__row(&q)) {
        int64_t run = sqlite3_column_int64(q.st, 0);
        const qn_kr_pair *pairs = got;
        size_t n = 0;

        if ((uint64_t)sqlite3_column_int64(q.st, 1) > uid ||
            (uint64_t)sqlite3_column_int64(q.st, 2) < uid)
            continue;
        q.rc = run_pairs(s, &c, run, rule_id, uid, uid, got, 8, &n, err);
        /* more rows of one id than got holds (many collisions, or a
         * damaged run): read them all */
        if (q.rc == QN_OK && n > 8) {
            free(many);
            if (!(many = QN_ALLOCN(n, qn_kr_pair)))
                q.rc = qn_err_nomem(err);
            else
                q.rc =
                    run_pairs(s, &c, run, rule_id, uid, uid, many, n, &n, err);
            pairs = many;
        }
        for (size_t i = 0; q.rc == QN_OK && !done && i < n; i++)
            q.rc = fn(ctx, pairs[i].row, &done, err);
    }
    sqlite3_blob_close(c.b);
    free(many);
    return qn_store__end_kept(&q);
}
