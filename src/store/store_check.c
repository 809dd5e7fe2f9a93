/*
 * store_check.c: the store's health and figures: SQLite's integrity and
 * foreign-key checks (db check), row counts and the histogram of
 * minimum presses by rule set (db stats).
 */
#include "store/store.h"

#include <stdio.h>
#include <string.h>

#include <sqlite3.h>

#include "store_internal.h"

int qn_store_check(qn_store *s, int64_t *nproblems_out, qn_err *err)
{
    qn_store__stmt q;
    int64_t n = 0;
    char first[200] = "";

    qn_store__sql(&q, s, "PRAGMA integrity_check", err);
    while (qn_store__row(&q)) {
        const char *t = qn_store__col_str(q.st, 0);
        if (!strcmp(t, "ok"))
            continue;
        if (!n++)
            snprintf(first, sizeof(first), "integrity check: %s", t);
    }
    if (qn_store__end(&q) != QN_OK)
        return q.rc;
    qn_store__sql(&q, s, "PRAGMA foreign_key_check", err);
    while (qn_store__row(&q))
        if (!n++)
            snprintf(first, sizeof(first),
                     "foreign key check: %s row %lld refers to a "
                     "missing %s row",
                     qn_store__col_str(q.st, 0),
                     (long long)sqlite3_column_int64(q.st, 1),
                     qn_store__col_str(q.st, 2));
    if (qn_store__end(&q) != QN_OK)
        return q.rc;
    if (nproblems_out)
        *nproblems_out = n;
    if (n) {
        qn_err_source(err, s->path);
        return qn_err_set(err, QN_EDB, 0, 0, "%s (%lld problems)", first,
                          (long long)n);
    }
    return QN_OK;
}

int qn_store_counts_get(qn_store *s, qn_store_counts *out, qn_err *err)
{
    qn_store__stmt q;

    qn_store__sql(&q, s,
                  "SELECT (SELECT count(*) FROM rules),"
                  " (SELECT count(*) FROM puzzles), (SELECT count(*) FROM"
                  " packs), (SELECT count(*) FROM pack_puzzles),"
                  " (SELECT count(*) FROM runs)",
                  err);
    if (qn_store__row(&q)) {
        out->rules = sqlite3_column_int64(q.st, 0);
        out->puzzles = sqlite3_column_int64(q.st, 1);
        out->packs = sqlite3_column_int64(q.st, 2);
        out->pack_entries = sqlite3_column_int64(q.st, 3);
        out->runs = sqlite3_column_int64(q.st, 4);
    }
    return qn_store__end(&q);
}

int qn_store_histogram(qn_store *s, qn_store_hist_fn *fn, void *ctx,
                       qn_err *err)
{
    qn_store__stmt q;
    int rc = 0;

    qn_store__sql(&q, s,
                  "SELECT r.name, r.hash, p.min_presses, count(*) FROM"
                  " puzzles p JOIN rules r ON r.id = p.rule_id"
                  " GROUP BY p.rule_id, p.min_presses"
                  " ORDER BY r.name, r.id, p.min_presses",
                  err);
    while (qn_store__row(&q))
        if ((rc =
                 fn(ctx, qn_store__col_str(q.st, 0), qn_store__col_str(q.st, 1),
                    (uint64_t)sqlite3_column_int64(q.st, 2),
                    sqlite3_column_int64(q.st, 3))) != 0)
            break;
    qn_store__end(&q);
    return rc ? rc : q.rc;
}
