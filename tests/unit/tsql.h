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

#endif
