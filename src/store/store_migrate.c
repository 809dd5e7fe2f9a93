/*
 * store_migrate.c: bring a database's schema up to date. Every pending
 * migration from db/migrations/ runs in one BEGIN IMMEDIATE transaction
 * that also sets PRAGMA user_version, so a crash leaves the database
 * exactly as it was or fully migrated, never at a version in between (a
 * killed `db init` leaves no half-made schema); two processes migrating at
 * once serialise on the write lock and the second finds nothing left to do.
 */
#include <stdio.h>

#include <sqlite3.h>

#include "store_internal.h"

int qn_store_schema_version(void)
{
    return qn_nmigrations ? qn_migrations[qn_nmigrations - 1].number : 0;
}

int qn_store_version(qn_store *s, int *out, qn_err *err)
{
    long long v;
    int rc = qn_store__int(s, "PRAGMA user_version", &v, err);

    if (rc == QN_OK)
        *out = (int)v;
    return rc;
}

/* Run migration m inside the open transaction; the version is v. */
static int apply(qn_store *s, const struct qn_migration *m, long long v,
                 qn_err *err)
{
    char sql[64];
    int rc = QN_OK;

    if (v != m->number - 1)
        return qn_err_set(err, QN_EDB, 0, 0,
                          "schema version %lld cannot take migration %s", v,
                          m->name);
    /* 0004 makes the id part of the unique key, which then refuses a
     * duplicate only if every id is its puzzle's: each is computed again
     * (a row left without one by sqlite3, or given a wrong one by a
     * library caller before the store checked ids) */
    if (m->number == 4 && (rc = qn_store__fill_puzzle_ids(s, 0, err)))
        return rc;
    /* 0004 packs states and witnesses with C functions (store_cells.c) */
    if (m->number == 4 && (rc = qn_store__cells_sql(s, 1, err)))
        return rc;
    if (sqlite3_exec(s->db, m->sql, NULL, NULL, NULL) != SQLITE_OK) {
        /* qn_store__fail's words: "out of memory (unable to open a
         * temporary database file ...)" where SQLite names only the step
         * that wanted the memory */
        qn_err why = QN_ERR_INIT;
        rc = qn_store__fail(s, sqlite3_errcode(s->db), &why);
        qn_err_source(err, s->path);
        rc = qn_err_set(err, (qn_code)rc, 0, 0, "migration %s: %s", m->name,
                        why.msg);
    }
    if (m->number == 4)
        qn_store__cells_sql(s, 0, NULL);
    if (rc != QN_OK)
        return rc;
    /* 0002 adds the puzzle id, which SQL cannot compute */
    if (m->number == 2)
        rc = qn_store__fill_puzzle_ids(s, 0, err);
    /* 0008's key runs are Rice-coded (store_runs.c) */
    if (m->number == 8)
        rc = qn_store__runs_build(s, err);
    if (rc == QN_OK && m->number == 1) {
        snprintf(sql, sizeof(sql), "PRAGMA application_id = %d",
                 (int)QN_STORE_APPLICATION_ID);
        rc = qn_store__exec(s, sql, err);
    }
    if (rc == QN_OK) {
        snprintf(sql, sizeof(sql), "PRAGMA user_version = %d", m->number);
        rc = qn_store__exec(s, sql, err);
    }
    return rc;
}

/* Every migration past the version read under the write lock (another
 * process may have migrated since the caller looked), then one commit. */
static int apply_pending(qn_store *s, qn_err *err)
{
    long long v;
    int rc;

    if ((rc = qn_store__exec(s, "BEGIN IMMEDIATE", err)) != QN_OK)
        return rc;
    rc = qn_store__int(s, "PRAGMA user_version", &v, err);
    for (size_t i = 0; rc == QN_OK && i < qn_nmigrations; i++)
        if (qn_migrations[i].number > v &&
            (rc = apply(s, &qn_migrations[i], v, err)) == QN_OK)
            v = qn_migrations[i].number;
    if (rc == QN_OK && (rc = qn_store__exec(s, "COMMIT", err)) == QN_OK)
        return QN_OK;
    sqlite3_exec(s->db, "ROLLBACK", NULL, NULL, NULL);
    return rc;
}

int qn_store_migrate(qn_store *s, int *from_out, int *to_out, qn_err *err)
{
    int from, to, rc;

    if (s->in_batch)
        return qn_err_set(err, QN_EINVAL, 0, 0,
                          "cannot migrate inside a batch");
    if ((rc = qn_store_version(s, &from, err)) != QN_OK)
        return rc;
    if (from > qn_store_schema_version()) {
        qn_err_source(err, s->path);
        return qn_err_set(err, QN_ENEWER, 0, 0,
                          "database schema version %d is newer than this "
                          "quench knows (%d); upgrade quench",
                          from, qn_store_schema_version());
    }
    if (from < qn_store_schema_version() &&
        (rc = apply_pending(s, err)) != QN_OK)
        return rc;
    if ((rc = qn_store_version(s, &to, err)) != QN_OK)
        return rc;
    if (from_out)
        *from_out = from;
    if (to_out)
        *to_out = to;
    return QN_OK;
}
