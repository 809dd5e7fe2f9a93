/*
 * store_tx.c: transactions for single calls -- their own BEGIN IMMEDIATE
 * outside a batch, a savepoint inside one (so a failed call undoes only
 * itself) -- with what the store keeps for the open transaction: the key
 * runs' notes (store_runs.c), written before the commit and dropped with
 * a rollback, the grade names it learned (store_grades.c), and the id
 * sets brought up to date (store_unique.c). Apart
 * from store_sql.c, which every store file uses, so that it depends on
 * neither.
 */
#include <sqlite3.h>

#include "store_internal.h"

int qn_store__tx_begin(qn_store *s, qn_err *err)
{
    int rc = qn_store__runs_mark(s, err);

    if (rc != QN_OK)
        return rc;
    if ((rc = qn_store__exec(
             s, s->in_batch ? "SAVEPOINT qn_op" : "BEGIN IMMEDIATE", err)) !=
        QN_OK) {
        qn_store__runs_unmark(s, 0);
        return rc;
    }
    /* a call's own transaction: other writers' runs into the id sets */
    if (!s->in_batch && (rc = qn_store__unique_sync(s, err)) != QN_OK)
        return qn_store__tx_end(s, rc, err);
    return QN_OK;
}

int qn_store__tx_end(qn_store *s, int rc, qn_err *err)
{
    /* SQLite ends the transaction itself after some errors (out of
     * memory, I/O): never report such a call as done */
    if (rc == QN_OK && sqlite3_get_autocommit(s->db))
        rc = qn_err_set(err, QN_EDB, 0, 0,
                        "the transaction was rolled back by SQLite");
    /* outside a batch the rows and their key runs commit together */
    if (rc == QN_OK && !s->in_batch &&
        (rc = qn_store__runs_flush(s, err)) == QN_OK)
        rc = qn_store__unique_flushed(s, err);
    if (rc == QN_OK) {
        rc = qn_store__exec(s, s->in_batch ? "RELEASE qn_op" : "COMMIT", err);
        if (rc == QN_OK) {
            qn_store__runs_unmark(s, 1);
            return QN_OK;
        }
    }
    qn_store__runs_unmark(s, 0);
    /* a grade name and the rows added in the call are gone with it */
    qn_store__grades_forget(s);
    qn_store__unique_forget(s);
    /* The rollback itself needs memory (to prepare it): when it fails the
     * transaction stays open, and rc may be a benign QN_ENOTFOUND the
     * caller would carry on from, into "cannot start a transaction within
     * a transaction". Report the failed rollback instead (found by
     * failing SQLite's allocations, tests/faults.sh). When SQLite has
     * already rolled back, there is nothing to undo and rc says why. */
    if (sqlite3_get_autocommit(s->db))
        return rc;
    int undo = qn_store__exec(
        s, s->in_batch ? "ROLLBACK TO qn_op; RELEASE qn_op" : "ROLLBACK", err);
    return undo != QN_OK ? undo : rc;
}
