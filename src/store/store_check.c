/*
 * store_check.c: the store's health and figures: SQLite's integrity and
 * foreign-key checks (db check), row counts and the histogram of
 * minimum presses by rule set (db stats).
 */
#include "store/store.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <sqlite3.h>

#include "base/mem.h"
#include "keyrun.h"
#include "store_internal.h"

/* A problem counted in *n, the first one's text kept in first. */
typedef struct problems {
    int64_t *n;
    char *first;
    size_t size;
} problems;

static void problem(problems *pr, const char *fmt, ...)
{
    va_list ap;

    if ((*pr->n)++)
        return;
    va_start(ap, fmt);
    vsnprintf(pr->first, pr->size, fmt, ap);
    va_end(ap);
}

static int by_row(const void *a, const void *b)
{
    const qn_kr_pair *x = a, *y = b;

    if (x->row != y->row)
        return x->row < y->row ? -1 : 1;
    return x->key != y->key ? (x->key < y->key ? -1 : 1) : 0;
}

/* Row `row` (its state in st's column 1) against the run pairs of it
 * from runs[*i]: one pair, holding the id its state gives (p's rule
 * loaded; else only the pair is checked: db check reports the rule). */
static void check_row(qn_store__pid *p, int64_t rule_id, sqlite3_stmt *st,
                      const qn_kr_pair *runs, size_t nruns, size_t *i,
                      problems *pr)
{
    int64_t row = sqlite3_column_int64(st, 0);
    uint64_t id = 0;
    int bad = p->rules &&
              !qn_store__pid_packed(p, sqlite3_column_blob(st, 1),
                                    (size_t)sqlite3_column_bytes(st, 1), &id);

    for (; *i < nruns && runs[*i].row < row; ++*i)
        problem(pr,
                "key runs: rule set %lld: id %016llx at row %lld is not "
                "a row's",
                (long long)rule_id, (unsigned long long)runs[*i].key,
                (long long)runs[*i].row);
    if (bad)
        problem(pr, "puzzle at row %lld: state: the database is damaged",
                (long long)row);
    else if (*i == nruns || runs[*i].row != row)
        problem(pr,
                "key runs: rule set %lld: row %lld (id %016llx) is in "
                "no key run",
                (long long)rule_id, (long long)row, (unsigned long long)id);
    else if (p->rules && runs[*i].key != id)
        problem(pr,
                "key runs: rule set %lld: row %lld: its state gives id "
                "%016llx, its key run holds %016llx",
                (long long)rule_id, (long long)row, (unsigned long long)id,
                (unsigned long long)runs[*i].key);
    if (*i < nruns && runs[*i].row == row)
        ++*i; /* a second pair of the row is in the loop's next turn */
}

/* Every row of rule_id in exactly one of its key runs, with the id its
 * state gives, and nothing else in them (migration 0008). The ids come
 * from the states, not from puzzles.uid, which the flip drops. A damaged
 * run is one problem, named. */
static int check_rule_runs(qn_store *s, qn_store__pid *p, int64_t rule_id,
                           problems *pr, qn_err *err)
{
    qn_kr_pair *runs = NULL;
    size_t nruns = 0, i = 0;
    qn_err why = QN_ERR_INIT;
    qn_store__stmt q;
    int rc = qn_store__runs_read(s, rule_id, &runs, &nruns, &why);

    if (rc == QN_EDB) {
        problem(pr, "%.190s", why.msg);
        return QN_OK;
    }
    if (rc != QN_OK) {
        *err = why;
        return rc;
    }
    qsort(runs, nruns, sizeof(*runs), by_row);
    qn_store__sql(&q, s,
                  "SELECT id, state FROM main.puzzles WHERE rule_id = ?"
                  " ORDER BY id",
                  err);
    qn_store__bind_i64(&q, 1, rule_id);
    while (qn_store__row(&q))
        check_row(p, rule_id, q.st, runs, nruns, &i, pr);
    for (; q.rc == QN_OK && i < nruns; i++)
        problem(pr,
                "key runs: rule set %lld: id %016llx at row %lld is not "
                "a row's",
                (long long)rule_id, (unsigned long long)runs[i].key,
                (long long)runs[i].row);
    free(runs);
    return qn_store__end(&q);
}

static int check_runs(qn_store *s, int64_t *n, char *first, size_t size,
                      qn_err *err)
{
    problems pr = {n, first, size};
    qn_store__pid p = {0};
    qn_store__stmt q;

    qn_store__sql(&q, s,
                  "SELECT id, hash, yaml, cells, colours FROM main.rules"
                  " ORDER BY id",
                  err);
    while (qn_store__row(&q)) {
        int64_t rule_id = sqlite3_column_int64(q.st, 0);
        q.rc = qn_store__pid_rule(&p, rule_id, qn_store__col_text(q.st, 1),
                                  qn_store__col_text(q.st, 2),
                                  sqlite3_column_int(q.st, 3),
                                  (unsigned)sqlite3_column_int(q.st, 4), err);
        if (q.rc == QN_OK)
            q.rc = check_rule_runs(s, &p, rule_id, &pr, err);
    }
    qn_store__pid_release(&p);
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
