/*
 * store_check.c: the store's health and figures: SQLite's integrity and
 * foreign-key checks (db check), row counts and the histogram of
 * minimum presses by rule set (db stats).
 */
#include "store/store.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <sqlite3.h>

#include "base/mem.h"
#include "keyrun.h"
#include "store_internal.h"

/* Every row of rule_id in exactly one of its key runs, and nothing else
 * in them (migration 0008): the first difference into first, counted in
 * *n. A damaged run is one problem, named. */
static int check_rule_runs(qn_store *s, int64_t rule_id, int64_t *n,
                           char *first, size_t size, qn_err *err)
{
    qn_kr_pair *runs = NULL, *rows = NULL;
    size_t nruns = 0, nrows = 0, i = 0, j = 0;
    qn_err why = QN_ERR_INIT;
    int rc = qn_store__runs_read(s, rule_id, &runs, &nruns, &why);

    if (rc == QN_EDB) {
        if (!(*n)++)
            snprintf(first, size, "%.190s", why.msg);
        return QN_OK;
    }
    if (rc != QN_OK) {
        *err = why;
        return rc;
    }
    if ((rc = qn_kr_sort(runs, nruns)) != QN_OK)
        rc = qn_err_nomem(err);
    if (rc == QN_OK &&
        (rc = qn_store__runs_rows(s, rule_id, &rows, &nrows, err)) == QN_OK &&
        qn_kr_sort(rows, nrows) != QN_OK)
        rc = qn_err_nomem(err);
    while (rc == QN_OK && (i < nruns || j < nrows)) {
        int c = i == nruns   ? 1
                : j == nrows ? -1
                : runs[i].key != rows[j].key
                    ? (runs[i].key < rows[j].key ? -1 : 1)
                    : (runs[i].row > rows[j].row) - (runs[i].row < rows[j].row);
        if (!c) {
            i++, j++;
            continue;
        }
        if (!(*n)++)
            snprintf(first, size,
                     c < 0 ? "key runs: rule set %lld: id %016llx at row "
                             "%lld is not a row's"
                           : "key runs: rule set %lld: row %lld (id %016llx) "
                             "is in no key run",
                     (long long)rule_id,
                     c < 0 ? (unsigned long long)runs[i].key
                           : (unsigned long long)rows[j].row,
                     c < 0 ? (long long)runs[i].row : (long long)rows[j].key);
        if (c < 0)
            i++;
        else
            j++;
    }
    free(runs);
    free(rows);
    return rc;
}

static int check_runs(qn_store *s, int64_t *n, char *first, size_t size,
                      qn_err *err)
{
    qn_store__stmt q;

    qn_store__sql(&q, s, "SELECT id FROM main.rules ORDER BY id", err);
    while (qn_store__row(&q))
        q.rc = check_rule_runs(s, sqlite3_column_int64(q.st, 0), n, first, size,
                               err);
    return qn_store__end(&q);
}

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
        /* SQLite reports its own allocation failure as a row of the
         * check ("*** in database main ***", then "out of memory"):
         * memory, not damage */
        if (qn_store__check_nomem(t)) {
            q.rc = qn_err_nomem(err);
            break;
        }
        if (!strncmp(t, "*** in database ", 16))
            continue; /* a heading: the next row says what is wrong */
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
    /* the runs only once SQLite finds the file sound: they are decoded */
    if (!n && check_runs(s, &n, first, sizeof(first), err) != QN_OK)
        return err->code;
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
