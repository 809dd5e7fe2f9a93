/*
 * tsql.h: for the unit tests that read a database file on a connection of
 * their own (test_store, test_nomem_store), and make their files in a
 * directory of their own. Include after t.h.
 */
#ifndef QN_TSQL_H
#define QN_TSQL_H

#include <sqlite3.h>

#include "t.h"

/* Where a digest starts (the FNV-1a 64-bit offset basis). */
#define T_SQL_DIGEST0 1469598103934665603ULL

/* h folded (FNV-1a) with every byte of every column of every row that sql
 * gives on db, each column's end marked, to compare databases; a query
 * that does not prepare is a failed check. */
static inline unsigned long long t_sql_digest(sqlite3 *db, const char *sql,
                                              unsigned long long h)
{
    sqlite3_stmt *st = NULL;

    T_EQ(sqlite3_prepare_v2(db, sql, -1, &st, NULL), SQLITE_OK);
    while (st && sqlite3_step(st) == SQLITE_ROW)
        for (int c = 0; c < sqlite3_column_count(st); c++) {
            const unsigned char *t = sqlite3_column_blob(st, c);
            int n = sqlite3_column_bytes(st, c);
            for (int i = 0; i < n; i++)
                h = (h ^ t[i]) * 1099511628211ULL;
            h = (h ^ 0xff) * 1099511628211ULL;
        }
    sqlite3_finalize(st);
    return h;
}

/* dir/name, in one of four buffers used in turn: up to four such paths
 * may be live at once (the arguments of one call). */
static inline const char *t_path(const char *dir, const char *name)
{
    static char buf[4][512];
    static int i;

    i = (i + 1) % 4;
    snprintf(buf[i], sizeof(buf[i]), "%s/%s", dir, name);
    return buf[i];
}

/* One integer from sql on the file at path, on a connection of the
 * test's own: -1 when there is no row or it does not prepare, -2 when
 * the file does not open. */
static inline long long t_raw_int(const char *path, const char *sql)
{
    sqlite3 *db;
    sqlite3_stmt *st;
    long long v = -1;

    if (sqlite3_open(path, &db) != SQLITE_OK)
        return -2;
    if (sqlite3_prepare_v2(db, sql, -1, &st, NULL) == SQLITE_OK) {
        if (sqlite3_step(st) == SQLITE_ROW)
            v = sqlite3_column_int64(st, 0);
        sqlite3_finalize(st);
    }
    sqlite3_close(db);
    return v;
}

/* sql run on the file at path on a connection of the test's own: its
 * SQLite code (-1: the file does not open). */
static inline int t_raw_exec(const char *path, const char *sql)
{
    sqlite3 *db;
    int rc;

    if (sqlite3_open(path, &db) != SQLITE_OK)
        return -1;
    rc = sqlite3_exec(db, sql, NULL, NULL, NULL);
    sqlite3_close(db);
    return rc;
}

#endif
