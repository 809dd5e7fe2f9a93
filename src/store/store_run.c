/*
 * store_run.c: generator runs (store.h, "Runs"): started or resumed by
 * their key (command, rule, seed, options), claimed by one writer,
 * their progress and totals kept for a resume, and finished.
 */
#include "store/store.h"

#include <stdlib.h>
#include <string.h>

#include <sqlite3.h>

#include "base/mem.h"

#include "store_internal.h"

/* The resume key (command, rule, seed, options) as parameters 1..4. */
static void bind_run_key(qn_store__stmt *q, const qn_store_run *run)
{
    qn_store__bind_str(q, 1, run->command);
    if (run->rule_id > 0)
        qn_store__bind_i64(q, 2, run->rule_id);
    else
        qn_store__bind_str(q, 2, NULL);
    qn_store__bind_str(q, 3, run->seed ? run->seed : "");
    qn_store__bind_str(q, 4, run->options ? run->options : "");
}

static int insert_run(qn_store *s, const qn_store_run *run, int64_t *id_out,
                      qn_err *err)
{
    qn_store__stmt q;

    qn_store__sql(&q, s,
                  "INSERT INTO runs (key, command, rule_id, seed, options,"
                  " tool_version, requested) VALUES"
                  " (lower(hex(randomblob(16))), ?, ?, ?, ?, ?, ?)",
                  err);
    bind_run_key(&q, run);
    qn_store__bind_str(&q, 5, run->tool_version ? run->tool_version : "");
    qn_store__bind_i64(&q, 6, qn_store__clamp64(run->requested));
    if (qn_store__run(&q) == QN_OK)
        *id_out = sqlite3_last_insert_rowid(s->db);
    return qn_store__end(&q);
}

int qn_store_run_start(qn_store *s, const qn_store_run *run, int64_t *id_out,
                       qn_err *err)
{
    int64_t id = 0;
    int rc;

    /* a begin that failed has nothing to end: inside a batch, ending it
     * would roll back to a savepoint never made ("no such savepoint",
     * found by test_nomem_store) */
    if ((rc = qn_store__tx_begin(s, err)) != QN_OK)
        return rc;
    /* claimed before the commit shows it to anyone who might resume it */
    if ((rc = insert_run(s, run, &id, err)) == QN_OK)
        rc = qn_store__claim_run(s, id, err);
    rc = qn_store__tx_end(s, rc, err);
    if (rc == QN_OK)
        *id_out = id;
    return rc;
}

int qn_store_run_totals(qn_store *s, int64_t run_id, uint64_t *stored_out,
                        uint64_t *duplicates_out, qn_err *err)
{
    qn_store__stmt q;

    qn_store__sql(&q, s, "SELECT stored, duplicates FROM runs WHERE id = ?",
                  err);
    qn_store__bind_i64(&q, 1, run_id);
    if (qn_store__row(&q)) {
        *stored_out = (uint64_t)sqlite3_column_int64(q.st, 0);
        *duplicates_out = (uint64_t)sqlite3_column_int64(q.st, 1);
    } else if (q.rc == QN_OK) {
        q.rc = qn_err_set(err, QN_ENOTFOUND, 0, 0, "no run %lld",
                          (long long)run_id);
    }
    return qn_store__end(&q);
}

/* The latest run with run's key: QN_ENOTFOUND when there is none. */
static int find_run(qn_store *s, const qn_store_run *run, int64_t *id_out,
                    uint64_t *next_out, qn_err *err)
{
    qn_store_run_info info;
    int rc = qn_store_run_lookup(s, run, &info, err);

    if (rc == QN_OK) {
        *id_out = info.id;
        *next_out = info.next_index;
        free(info.summary);
    }
    return rc;
}

/*
 * Before waiting for SQLite's write lock, see whether run's key names a
 * run another process is writing: its claim answers at once. Without
 * this, a writer busy with batch after batch could keep the second copy
 * at BEGIN IMMEDIATE past the busy timeout, and it would be refused as
 * "database is locked" instead of being told who holds the run (t470).
 * A run not found here is claimed inside the transaction as before.
 */
static int claim_if_known(qn_store *s, const qn_store_run *run, qn_err *err)
{
    int64_t id = 0;
    uint64_t next = 0;
    int rc;

    if (s->in_batch)
        return QN_OK; /* this connection already holds the write lock */
    rc = find_run(s, run, &id, &next, err);
    if (rc == QN_ENOTFOUND) {
        qn_err_clear(err);
        return QN_OK;
    }
    return rc == QN_OK ? qn_store__claim_run(s, id, err) : rc;
}

/*
 * Begin the transaction that finds and claims run, the claim first
 * (claim_if_known). A run committed while this waited for the write lock
 * is looked at when the wait ends in QN_EBUSY: a claim held elsewhere is
 * then the refusal's reason, not the lock. Claims are kept until the
 * store closes.
 */
static int begin_claimed(qn_store *s, const qn_store_run *run, qn_err *err)
{
    qn_err e = QN_ERR_INIT;
    int rc;

    if ((rc = claim_if_known(s, run, err)) != QN_OK)
        return rc;
    if ((rc = qn_store__tx_begin(s, err)) == QN_EBUSY &&
        claim_if_known(s, run, &e) == QN_EBUSY && err)
        *err = e;
    return rc;
}

/* Claim run id and mark it running again; a larger count extends it. */
static int resume_run(qn_store *s, int64_t id, uint64_t requested, qn_err *err)
{
    qn_store__stmt q;
    int rc = qn_store__claim_run(s, id, err);

    if (rc != QN_OK)
        return rc;
    qn_store__sql(&q, s,
                  "UPDATE runs SET status = 'running', finished = NULL,"
                  " summary = NULL, requested = max(requested, ?)"
                  " WHERE id = ?",
                  err);
    qn_store__bind_i64(&q, 1, qn_store__clamp64(requested));
    qn_store__bind_i64(&q, 2, id);
    qn_store__run(&q);
    return qn_store__end(&q);
}

int qn_store_run_find(qn_store *s, const qn_store_run *run, int64_t *id_out,
                      uint64_t *next_index_out, qn_err *err)
{
    int64_t id = 0;
    uint64_t next = 0;
    int rc;

    if ((rc = begin_claimed(s, run, err)) != QN_OK)
        return rc;
    if ((rc = find_run(s, run, &id, &next, err)) == QN_OK)
        rc = resume_run(s, id, run->requested, err);
    rc = qn_store__tx_end(s, rc, err);
    if (rc == QN_OK) {
        if (id_out)
            *id_out = id;
        if (next_index_out)
            *next_index_out = next;
    }
    return rc;
}

int qn_store_run_open(qn_store *s, const qn_store_run *run, int64_t *id_out,
                      int *resumed_out, qn_err *err)
{
    int64_t id = 0;
    uint64_t next = 0;
    int resumed = 1, rc;

    if ((rc = begin_claimed(s, run, err)) != QN_OK)
        return rc;
    /* one transaction: two processes starting the same command at once
     * meet here one after the other, and the second finds the first's
     * run (claimed, so it is refused) instead of starting a twin */
    if ((rc = find_run(s, run, &id, &next, err)) == QN_OK)
        rc = resume_run(s, id, run->requested, err);
    else if (rc == QN_ENOTFOUND &&
             (rc = insert_run(s, run, &id, err)) == QN_OK) {
        resumed = 0;
        rc = qn_store__claim_run(s, id, err);
    }
    rc = qn_store__tx_end(s, rc, err);
    if (rc == QN_OK) {
        *id_out = id;
        if (resumed_out)
            *resumed_out = resumed;
    }
    return rc;
}

/* Run q's update of run_id and end it: QN_ENOTFOUND when it changed no
 * row. */
static int run_changed(qn_store__stmt *q, int64_t run_id, qn_err *err)
{
    if (qn_store__run(q) == QN_OK && sqlite3_changes(q->s->db) != 1)
        q->rc = qn_err_set(err, QN_ENOTFOUND, 0, 0, "no run %lld",
                           (long long)run_id);
    return qn_store__end(q);
}

int qn_store_run_progress(qn_store *s, int64_t run_id, uint64_t next_index,
                          uint64_t stored, uint64_t duplicates, qn_err *err)
{
    qn_store__stmt q;

    qn_store__sql(&q, s,
                  "UPDATE runs SET next_index = ?, stored = ?,"
                  " duplicates = ? WHERE id = ?",
                  err);
    qn_store__bind_i64(&q, 1, qn_store__clamp64(next_index));
    qn_store__bind_i64(&q, 2, qn_store__clamp64(stored));
    qn_store__bind_i64(&q, 3, qn_store__clamp64(duplicates));
    qn_store__bind_i64(&q, 4, run_id);
    return run_changed(&q, run_id, err);
}

/* sql ("UPDATE runs SET x = ? WHERE id = ?") with text and run_id:
 * QN_ENOTFOUND when there is no such run. */
static int update_run(qn_store *s, const char *sql, const char *text,
                      int64_t run_id, qn_err *err)
{
    qn_store__stmt q;

    qn_store__sql(&q, s, sql, err);
    qn_store__bind_str(&q, 1, text);
    qn_store__bind_i64(&q, 2, run_id);
    return run_changed(&q, run_id, err);
}

int qn_store_run_finish(qn_store *s, int64_t run_id, const char *status,
                        qn_err *err)
{
    if (strcmp(status, "done") && strcmp(status, "interrupted") &&
        strcmp(status, "failed"))
        return qn_err_set(err, QN_EINVAL, 0, 0, "bad run status '%s'", status);
    return update_run(s,
                      "UPDATE runs SET status = ?, finished ="
                      " strftime('%Y-%m-%dT%H:%M:%fZ', 'now') WHERE id = ?",
                      status, run_id, err);
}

int qn_store_max_index(qn_store *s, int64_t run_id, uint64_t *out, qn_err *err)
{
    qn_store__stmt q;

    qn_store__sql(
        &q, s, "SELECT max(stream_index) FROM puzzles WHERE run_id = ?", err);
    qn_store__bind_i64(&q, 1, run_id);
    if (qn_store__row(&q) && sqlite3_column_type(q.st, 0) != SQLITE_NULL)
        *out = (uint64_t)sqlite3_column_int64(q.st, 0);
    else if (q.rc == QN_OK)
        q.rc =
            qn_err_set(err, QN_ENOTFOUND, 0, 0,
                       "run %lld stored no indexed puzzle", (long long)run_id);
    return qn_store__end(&q);
}

int qn_store_run_summary(qn_store *s, int64_t run_id, const char *summary,
                         qn_err *err)
{
    return update_run(s, "UPDATE runs SET summary = ? WHERE id = ?", summary,
                      run_id, err);
}

int qn_store_run_lookup(qn_store *s, const qn_store_run *run,
                        qn_store_run_info *out, qn_err *err)
{
    qn_store__stmt q;

    qn_store__sql(&q, s,
                  "SELECT id, status, requested, stored, summary, next_index"
                  " FROM runs WHERE command = ? AND rule_id IS ? AND"
                  " seed = ? AND options = ? ORDER BY id DESC LIMIT 1",
                  err);
    bind_run_key(&q, run);
    if (qn_store__row(&q)) {
        sqlite3_stmt *st = q.st;
        const char *sum = qn_store__col_text(st, 4);
        out->id = sqlite3_column_int64(st, 0);
        out->done = !strcmp(qn_store__col_str(st, 1), "done");
        out->requested = (uint64_t)sqlite3_column_int64(st, 2);
        out->stored = (uint64_t)sqlite3_column_int64(st, 3);
        out->next_index = (uint64_t)sqlite3_column_int64(st, 5);
        out->summary = NULL;
        if (sum && !(out->summary = qn_strdup(sum)))
            q.rc = qn_err_nomem(err);
    } else if (q.rc == QN_OK) {
        q.rc = qn_err_set(err, QN_ENOTFOUND, 0, 0, "no earlier run");
    }
    return qn_store__end(&q);
}
