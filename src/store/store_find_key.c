/*
 * store_find_key.c: a stored puzzle found by its canonical key
 * (qn_store_find_puzzle) through the key runs, not through the unique
 * key (uid, rule_id, canon) that the flip drops: the key's puzzle id
 * leads to the rows that may hold it, and a row is the puzzle when its
 * state's canonical form is the key (two puzzles may share an id,
 * puzzle_id.h).
 */
#include "store/store.h"

#include <stdlib.h>
#include <string.h>

#include <sqlite3.h>

#include "base/mem.h"
#include "store_internal.h"

void qn_store__find_free(qn_store *s)
{
    if (s->find_pid)
        qn_store__pid_release(s->find_pid);
    free(s->find_pid);
    s->find_pid = NULL;
}

/* The puzzle sought: its rule and canonical key; the row found */
typedef struct sought {
    qn_store *s;
    int64_t rule_id;
    const uint8_t *key; /* packed, of the rule's size */
    int64_t row;
} sought;

/* *done = 1 when row `row` is of the rule and its state's canonical
 * form is the key's cells (unpacked into p->cells). */
static int is_the_puzzle(void *ctx, int64_t row, int *done, qn_err *err)
{
    sought *w = ctx;
    qn_store *s = w->s;
    qn_store__pid *p = s->find_pid;
    qn_store__stmt q;
    uint64_t id;

    qn_store__sql_kept(&q, s, QN_STORE__KEPT_ROW_RULE,
                       "SELECT p.state, r.hash, r.yaml, r.cells, r.colours"
                       " FROM main.puzzles p JOIN main.rules r"
                       " ON r.id = p.rule_id WHERE p.id = ? AND p.rule_id = ?",
                       err);
    qn_store__bind_i64(&q, 1, row);
    qn_store__bind_i64(&q, 2, w->rule_id);
    if (qn_store__row(&q)) {
        sqlite3_stmt *st = q.st;
        q.rc = qn_store__pid_rule(p, w->rule_id, qn_store__col_text(st, 1),
                                  qn_store__col_text(st, 2),
                                  sqlite3_column_int(st, 3),
                                  (unsigned)sqlite3_column_int(st, 4), err);
        if (q.rc == QN_OK)
            q.rc = qn_store__pid_need(s, p, err);
        if (q.rc == QN_OK &&
            !qn_store__pid_packed(p, sqlite3_column_blob(st, 0),
                                  (size_t)sqlite3_column_bytes(st, 0), &id)) {
            qn_err_source(err, s->path);
            q.rc = qn_err_set(err, QN_EDB, 0, 0,
                              "puzzle at row %lld: state: the database is "
                              "damaged",
                              (long long)row);
        }
        if (q.rc == QN_OK) {
            qn_store_canon_unpack(p->cells, w->key, p->n, p->k);
            if (!memcmp(p->form, p->cells, (size_t)p->n)) {
                w->row = row;
                *done = 1;
            }
        }
    }
    return qn_store__end_kept(&q);
}

int qn_store_find_puzzle(qn_store *s, int64_t rule_id, const uint8_t *canon,
                         size_t canon_len, int64_t *id_out, qn_err *err)
{
    qn_store_puzzle p = {
        .rule_id = rule_id, .canon = canon, .canon_len = canon_len};
    sought w = {s, rule_id, canon, 0};
    uint64_t uid = 0;
    int rc = qn_store__puzzle_uid(s, &p, &uid, err);

    if (rc == QN_ENOTFOUND)
        return qn_err_set(err, QN_ENOTFOUND, 0, 0, "no such puzzle");
    if (rc != QN_OK)
        return rc;
    if (!s->find_pid && !(s->find_pid = QN_ALLOC(qn_store__pid)))
        return qn_err_nomem(err);
    if ((rc = qn_store__runs_key(s, rule_id, uid, is_the_puzzle, &w, err)) !=
        QN_OK)
        return rc;
    if (!w.row)
        return qn_err_set(err, QN_ENOTFOUND, 0, 0, "no such puzzle");
    *id_out = w.row;
    return QN_OK;
}
