/*
 * store_sql.c: the SQL plumbing every file of the store uses: SQLite
 * result codes turned into qn_err, statements prepared and stepped, text
 * bound and read (store_tx.c: the transaction each single call runs in).
 */
#include <string.h>

#include <sqlite3.h>

#include "store_internal.h"

int qn_store__fail(qn_store *s, int rc, qn_err *err)
{
    const char *msg = s && s->db ? sqlite3_errmsg(s->db) : sqlite3_errstr(rc);

    if (s) {
        s->sqlite_rc = rc;
        qn_err_source(err, s->path);
    }
    switch (rc & 0xff) {
    case SQLITE_NOMEM:
        /* sqlite3_errmsg may name the step that wanted the memory instead
         * ("unable to open a temporary database file ..."): say the cause */
        if (strstr(msg, "out of memory"))
            return qn_err_set(err, QN_ENOMEM, 0, 0, "%s", msg);
        return qn_err_set(err, QN_ENOMEM, 0, 0, "out of memory (%s)", msg);
    case SQLITE_BUSY:
    case SQLITE_LOCKED:
        return qn_err_set(err, QN_EBUSY, 0, 0,
                          "database is locked by another writer for more "
                          "than %d ms (%s); retry later",
                          s ? s->busy_ms : 0, msg);
    case SQLITE_FULL:
    case SQLITE_IOERR:
    case SQLITE_CANTOPEN:
    case SQLITE_READONLY: {
        /* say what the system said: "file too large", "no space left" */
        int e = s && s->db ? sqlite3_system_errno(s->db) : 0;
        if (e)
            return qn_err_set(err, QN_EDB, 0, 0, "%s: %s", msg, strerror(e));
        return qn_err_set(err, QN_EDB, 0, 0, "%s", msg);
    }
    default:
        return qn_err_set(err, QN_EDB, 0, 0, "%s", msg);
    }
}

int qn_store__exec(qn_store *s, const char *sql, qn_err *err)
{
    int rc = sqlite3_exec(s->db, sql, NULL, NULL, NULL);

    return rc == SQLITE_OK ? QN_OK : qn_store__fail(s, rc, err);
}

int qn_store__prep(qn_store *s, sqlite3_stmt **st, const char *sql, qn_err *err)
{
    int rc = sqlite3_prepare_v2(s->db, sql, -1, st, NULL);

    if (rc != SQLITE_OK) {
        *st = NULL;
        return qn_store__fail(s, rc, err);
    }
    return QN_OK;
}

int qn_store__step(qn_store *s, sqlite3_stmt *st, qn_err *err)
{
    int rc = sqlite3_step(st);

    if (rc == SQLITE_DONE || rc == SQLITE_ROW)
        return QN_OK;
    return qn_store__fail(s, rc, err);
}

int qn_store__int(qn_store *s, const char *sql, long long *out, qn_err *err)
{
    qn_store__stmt q;

    qn_store__sql(&q, s, sql, err);
    if (qn_store__row(&q))
        *out = sqlite3_column_int64(q.st, 0);
    else if (q.rc == QN_OK)
        *out = 0;
    return qn_store__end(&q);
}

/* ---------------------------------------------------------------------
 * Statements with their status (store_internal.h).
 */
int qn_store__sql(qn_store__stmt *q, qn_store *s, const char *sql, qn_err *err)
{
    q->s = s;
    q->err = err;
    q->rc = qn_store__prep(s, &q->st, sql, err);
    return q->rc;
}

int qn_store__sql_kept(qn_store__stmt *q, qn_store *s, int which,
                       const char *sql, qn_err *err)
{
    q->s = s;
    q->err = err;
    q->rc = QN_OK;
    /* SQLITE_PREPARE_PERSISTENT: SQLite's hint for a statement kept long */
    if (!s->kept[which]) {
        int rc = sqlite3_prepare_v3(s->db, sql, -1, SQLITE_PREPARE_PERSISTENT,
                                    &s->kept[which], NULL);
        if (rc != SQLITE_OK) {
            s->kept[which] = NULL;
            q->rc = qn_store__fail(s, rc, err);
        }
    }
    q->st = s->kept[which];
    return q->rc;
}

int qn_store__end_kept(qn_store__stmt *q)
{
    /* a failed step's code was taken already: reset's copy of it is not
     * news */
    if (q->st) {
        sqlite3_reset(q->st);
        sqlite3_clear_bindings(q->st);
    }
    q->st = NULL;
    return q->rc;
}

void qn_store__kept_free(qn_store *s)
{
    for (int i = 0; i < QN_STORE__NKEPT; i++) {
        sqlite3_finalize(s->kept[i]);
        s->kept[i] = NULL;
    }
}

/* A bind's SQLite code: a failure is kept as a step's would be. */
static void bound(qn_store__stmt *q, int r)
{
    if (r != SQLITE_OK)
        q->rc = qn_store__fail(q->s, r, q->err);
}

void qn_store__bind_i64(qn_store__stmt *q, int i, int64_t v)
{
    if (q->rc == QN_OK)
        bound(q, sqlite3_bind_int64(q->st, i, v));
}

/* SQLITE_STATIC, as qn_store__bind_text below */
void qn_store__bind_str(qn_store__stmt *q, int i, const char *v)
{
    if (q->rc == QN_OK)
        bound(q, v ? sqlite3_bind_text(q->st, i, v, -1, SQLITE_STATIC)
                   : sqlite3_bind_null(q->st, i));
}

void qn_store__bind_blob(qn_store__stmt *q, int i, const void *v, size_t n)
{
    if (q->rc == QN_OK)
        bound(q, sqlite3_bind_blob(q->st, i, v, (int)n, SQLITE_STATIC));
}

void qn_store__bind_value(qn_store__stmt *q, int i, const sqlite3_value *v)
{
    if (q->rc == QN_OK)
        bound(q, sqlite3_bind_value(q->st, i, v));
}

int qn_store__row(qn_store__stmt *q)
{
    int r;

    if (q->rc != QN_OK)
        return 0;
    if ((r = sqlite3_step(q->st)) == SQLITE_ROW)
        return 1;
    if (r != SQLITE_DONE)
        q->rc = qn_store__fail(q->s, r, q->err);
    return 0;
}

int qn_store__run(qn_store__stmt *q)
{
    if (q->rc == QN_OK) {
        q->rc = qn_store__step(q->s, q->st, q->err);
        sqlite3_reset(q->st);
    }
    return q->rc;
}

int qn_store__end(qn_store__stmt *q)
{
    sqlite3_finalize(q->st);
    q->st = NULL;
    return q->rc;
}

/*
 * SQLITE_STATIC: every caller steps the statement while v is alive, and a
 * copy could fail for want of memory, which sqlite3_bind_text reports only
 * by its return value: the statement would then run with NULL (found by
 * failing SQLite's allocations, tests/faults.sh).
 */
void qn_store__bind_text(sqlite3_stmt *st, int i, const char *v)
{
    if (v)
        sqlite3_bind_text(st, i, v, -1, SQLITE_STATIC);
    else
        sqlite3_bind_null(st, i);
}

const char *qn_store__col_text(sqlite3_stmt *st, int i)
{
    return (const char *)sqlite3_column_text(st, i);
}

const char *qn_store__col_str(sqlite3_stmt *st, int i)
{
    const char *t = qn_store__col_text(st, i);
    return t ? t : "";
}
