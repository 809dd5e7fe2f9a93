/*
 * store_compact.c: give a database's free pages back to the file system.
 * A migration that rebuilds the puzzles table (0004, 0007, 0009) leaves
 * the old table's pages free inside the file: a schema-4 file of 200,000
 * classic 7x7 puzzles went from 18.5 MB to 36.7 MB at schema 9, and 10.7
 * MB after a VACUUM (docs/STORE.md). SQLite reuses free pages for later
 * inserts, so a file that is only a little free is left alone: rewriting
 * it whole costs its size in time and in room on the disk.
 */
#include <sqlite3.h>

#include "store_internal.h"

/* Compact when at least this fraction of the file is free pages. */
#define FREE_NUM 1
#define FREE_DEN 4

/* The file's size and its free part, in bytes, from its pages. */
static int sizes(qn_store *s, int64_t *bytes, int64_t *free_bytes, qn_err *err)
{
    long long pages = 0, page = 0, freel = 0;
    int rc;

    if ((rc = qn_store__int(s, "PRAGMA main.page_count", &pages, err)) ||
        (rc = qn_store__int(s, "PRAGMA main.page_size", &page, err)) ||
        (rc = qn_store__int(s, "PRAGMA main.freelist_count", &freel, err)))
        return rc;
    *bytes = pages * page;
    *free_bytes = freel * page;
    return QN_OK;
}

int qn_store_compact(qn_store *s, int64_t *before, int64_t *after, qn_err *err)
{
    int64_t size = 0, free_bytes = 0;
    int rc;

    if (s->in_batch)
        return qn_err_set(err, QN_EINVAL, 0, 0,
                          "cannot compact inside a batch");
    if ((rc = sizes(s, &size, &free_bytes, err)) != QN_OK)
        return rc;
    *before = *after = size;
    if (free_bytes * FREE_DEN < size * FREE_NUM)
        return QN_OK;
    /* VACUUM writes a new copy through the WAL and swaps it in whole: a
     * failure (the disk full, no memory, a reader in the way) leaves the
     * file as it was. The checkpoint then moves the copy into the file
     * and truncates it, so the size said is the file's. */
    if ((rc = qn_store__exec(s, "VACUUM main", err)) != QN_OK ||
        (rc = qn_store__exec(s, "PRAGMA main.wal_checkpoint(TRUNCATE)", err)) !=
            QN_OK) {
        qn_err_source(err, s->path);
        return rc;
    }
    return sizes(s, after, &free_bytes, err);
}
