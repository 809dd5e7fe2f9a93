/*
 * store_keys.c: what qn_store_put_puzzle derives from a puzzle instead
 * of trusting the caller: the puzzle id, which the key runs and the put
 * path's duplicate check are keyed by (store_unique.c), and whether the
 * puzzle's seed is its run's (the row then keeps ''). What those need from the
 * rules and runs tables is read once per batch, not once per puzzle: the hot
 * path of generate --db.
 */
#include "store/store.h"

#include <assert.h>
#include <stdlib.h>
#include <string.h>

#include <sqlite3.h>

#include "base/mem.h"
#include "rules/puzzle_id.h"
#include "store_internal.h"

/* ---------------------------------------------------------------------
 * The per-batch cache.
 */
void qn_store__keys_forget(qn_store *s)
{
    free(s->keys.cells);
    free(s->keys.layout);
    free(s->keys.packed);
    free(s->keys.run_seed);
    memset(&s->keys, 0, sizeof(s->keys));
}

/* The cache holds only what was read inside the open batch: a rolled
 * back rule or run may leave its id to another one later. */
static int cached(const qn_store *s)
{
    return s->in_batch && s->keys.batch == s->batches;
}

/* Room in the cache for a rule of n cells, k colours and layout (copied;
 * NULL: none). QN_ENOMEM leaves the cache's blocks valid (its rule
 * unknown, rule_id 0, the caller's). */
static int keys_room(struct qn_store__keys *c, int n, unsigned k,
                     const char *layout)
{
    uint8_t *cells = QN_REALLOCN(c->cells, (size_t)n, uint8_t), *packed;
    char *copy = NULL;

    if (cells)
        c->cells = cells;
    packed = QN_REALLOCN(c->packed, 2 * qn_store_canon_size(n, k), uint8_t);
    if (packed)
        c->packed = packed;
    if (!cells || !packed || (layout && !(copy = qn_strdup(layout))))
        return QN_ENOMEM;
    free(c->layout);
    c->layout = copy;
    return QN_OK;
}

/* Read rule_id's hash and sizes into the cache; QN_ENOTFOUND: no such
 * rule (the insert's foreign key then says so). */
static int load_rule(qn_store *s, int64_t rule_id, qn_err *err)
{
    qn_store__stmt q;

    /* kept: outside a batch (a reader's lookups) every call reads it */
    qn_store__sql_kept(&q, s, QN_STORE__KEPT_RULE_KEYS,
                       "SELECT hash, cells, colours, layout FROM rules"
                       " WHERE id = ?",
                       err);
    qn_store__bind_i64(&q, 1, rule_id);
    if (qn_store__row(&q)) {
        sqlite3_stmt *st = q.st;
        const char *hash = qn_store__col_str(st, 0);
        int n = sqlite3_column_int(st, 1);
        unsigned k = (unsigned)sqlite3_column_int(st, 2);
        const char *layout = qn_store__col_text(st, 3);
        if (!qn_store__rule_sizes_ok(hash, n, k) ||
            (layout && !qn_store__layout_check(layout, n))) {
            qn_err_source(err, s->path);
            q.rc = qn_err_set(err, QN_EDB, 0, 0,
                              "rule set %lld is damaged (hash, cells, "
                              "colours or layout)",
                              (long long)rule_id);
        } else if (keys_room(&s->keys, n, k, layout) != QN_OK) {
            q.rc = qn_err_nomem(err);
        } else {
            qn_puzzle_id_key_init(&s->keys.key, hash);
            s->keys.n = n;
            s->keys.k = k;
            s->keys.rule_id = rule_id;
        }
    } else if (q.rc == QN_OK) {
        q.rc = QN_ENOTFOUND;
    }
    return qn_store__end_kept(&q);
}

int qn_store__puzzle_uid(qn_store *s, const qn_store_puzzle *p, uint64_t *out,
                         qn_err *err)
{
    int rc;

    if (!cached(s) || s->keys.rule_id != p->rule_id) {
        if (!cached(s)) {
            qn_store__keys_forget(s);
            s->keys.batch = s->batches;
        }
        s->keys.rule_id = 0;
        if ((rc = load_rule(s, p->rule_id, err)) != QN_OK)
            return rc;
    }
    if (p->canon_len != qn_store_canon_size(s->keys.n, s->keys.k))
        return qn_err_set(err, QN_EINVAL, 0, 0,
                          "canonical key of %zu bytes; rule set %lld takes "
                          "%zu",
                          p->canon_len, (long long)p->rule_id,
                          qn_store_canon_size(s->keys.n, s->keys.k));
    if (!qn_store__key_uid(&s->keys.key, s->keys.n, s->keys.k, p->canon,
                           p->canon_len, s->keys.cells, out))
        return qn_err_set(err, QN_EINVAL, 0, 0, "no canonical key");
    return QN_OK;
}

/* One of p's state and witness packed into out: from its cells when the
 * caller gave them (each checked < k), else from its text. */
static int pack_one(const struct qn_store__keys *c, uint8_t *out,
                    const char *what, const uint8_t *cells, const char *text,
                    qn_err *err)
{
    if (!cells)
        return qn_store__cells_pack(out, c->cells, what, text ? text : "",
                                    c->layout, c->n, c->k, err);
    for (int i = 0; i < c->n; i++)
        if (cells[i] >= c->k)
            return qn_err_set(err, QN_EINVAL, 0, 0,
                              "%s cell %d: value %u, the rule set has %u "
                              "colours",
                              what, i, cells[i], c->k);
    qn_store_canon_pack(out, cells, c->n, c->k);
    return QN_OK;
}

int qn_store__puzzle_cells(qn_store *s, const qn_store_puzzle *p, qn_err *err)
{
    const struct qn_store__keys *c = &s->keys;
    int rc;

    assert(c->rule_id == p->rule_id);
    if (!c->layout)
        return qn_err_set(err, QN_EINVAL, 0, 0,
                          "rule set %lld has no board layout: store the "
                          "rule set again first",
                          (long long)p->rule_id);
    rc = pack_one(c, c->packed, "state", p->state_cells, p->state, err);
    if (rc == QN_OK)
        rc = pack_one(c, c->packed + qn_store_canon_size(c->n, c->k), "witness",
                      p->witness_cells, p->witness, err);
    return rc;
}

int qn_store__run_seed(qn_store *s, int64_t run_id, const char **out,
                       qn_err *err)
{
    qn_store__stmt q;
    int rc;

    if (cached(s) && s->keys.run_id == run_id) {
        *out = s->keys.run_seed;
        return QN_OK;
    }
    if (!cached(s)) {
        qn_store__keys_forget(s);
        s->keys.batch = s->batches;
    }
    if (qn_store__sql(&q, s, "SELECT seed FROM runs WHERE id = ?", err) !=
        QN_OK)
        return q.rc;
    qn_store__bind_i64(&q, 1, run_id);
    free(s->keys.run_seed);
    s->keys.run_seed = NULL;
    if (qn_store__row(&q) &&
        !(s->keys.run_seed = qn_strdup(qn_store__col_str(q.st, 0))))
        q.rc = qn_err_nomem(err);
    rc = qn_store__end(&q);
    s->keys.run_id = rc == QN_OK ? run_id : 0;
    *out = s->keys.run_seed;
    return rc;
}
