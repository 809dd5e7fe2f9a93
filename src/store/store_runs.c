/*
 * store_runs.c: the key runs kept beside the puzzles table (issue #35
 * section 1, docs/STORE-KEYRUNS.md; migration 0008): every row's (puzzle
 * id, row id) in exactly one run of its rule, written in the transaction
 * that writes the row, so a kill -9 leaves both or neither.
 *
 * The rows a transaction inserts are noted here and become runs just
 * before the outermost commit (qn_store__runs_flush): one run a rule a
 * commit (level 0). A savepoint that rolls back drops the notes taken
 * since it began (qn_store__runs_mark / _unmark), a batch that rolls back
 * drops them all. A rule's 65th level-0 run merges every run of the rule
 * into level-1 pieces of at most QN_KR_MAX pairs with disjoint key ranges
 * (compaction), in the same transaction.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <sqlite3.h>

#include "base/mem.h"
#include "keyrun.h"
#include "store_internal.h"

#define LEVEL0_MAX 64 /* level-0 runs a rule before a compaction */

typedef struct note {
    int64_t rule;
    qn_kr_pair p;
} note;

struct qn_store__runs {
    note *v; /* the open transaction's inserted rows */
    size_t n, cap;
    size_t *mark; /* notes when each open savepoint began */
    size_t nmark, mcap;
};

static struct qn_store__runs *runs_of(qn_store *s)
{
    if (!s->runs)
        s->runs = QN_ALLOC(struct qn_store__runs);
    return s->runs;
}

int qn_store__runs_reserve(qn_store *s, qn_err *err)
{
    struct qn_store__runs *r = runs_of(s);

    if (!r)
        return qn_err_nomem(err);
    if (r->n == r->cap) {
        size_t cap = r->cap ? 2 * r->cap : 1024;
        note *v = QN_REALLOCN(r->v, cap, note);
        if (!v)
            return qn_err_nomem(err);
        r->v = v;
        r->cap = cap;
    }
    return QN_OK;
}

void qn_store__runs_note(qn_store *s, int64_t rule_id, uint64_t uid,
                         int64_t row)
{
    struct qn_store__runs *r = s->runs; /* reserved: there is room */

    r->v[r->n].rule = rule_id;
    r->v[r->n].p.key = uid;
    r->v[r->n].p.row = row;
    r->n++;
}

int qn_store__runs_mark(qn_store *s, qn_err *err)
{
    struct qn_store__runs *r = runs_of(s);

    if (!r)
        return qn_err_nomem(err);
    if (r->nmark == r->mcap) {
        size_t cap = r->mcap ? 2 * r->mcap : 8;
        size_t *m = QN_REALLOCN(r->mark, cap, size_t);
        if (!m)
            return qn_err_nomem(err);
        r->mark = m;
        r->mcap = cap;
    }
    r->mark[r->nmark++] = r->n;
    return QN_OK;
}

void qn_store__runs_unmark(qn_store *s, int keep)
{
    struct qn_store__runs *r = s->runs;

    if (!r || !r->nmark)
        return;
    r->nmark--;
    if (!keep)
        r->n = r->mark[r->nmark];
}

void qn_store__runs_forget(qn_store *s)
{
    if (s->runs)
        s->runs->n = s->runs->nmark = 0;
}

void qn_store__runs_free(qn_store *s)
{
    if (!s->runs)
        return;
    free(s->runs->v);
    free(s->runs->mark);
    free(s->runs);
    s->runs = NULL;
}

const qn_kr_pair *qn_store__runs_noted(const qn_store *s, size_t i)
{
    return s->runs && i < s->runs->n ? &s->runs->v[i].p : NULL;
}

/* 1 when a[0..n) is in (key, row) order already: a run read back and
 * its rows shifted (db merge's copy) is, and sorting it anyway sorted
 * every byte of its rows (they come in key order, not row order). */
static int sorted(const qn_kr_pair *a, size_t n)
{
    for (size_t i = 1; i < n; i++)
        if (a[i].key < a[i - 1].key ||
            (a[i].key == a[i - 1].key && a[i].row <= a[i - 1].row))
            return 0;
    return 1;
}

/* a[0..n) of rule_id, sorted here, as runs of `level`: pieces of at
 * most QN_KR_MAX pairs. */
static int put_runs(qn_store *s, int64_t rule_id, qn_kr_pair *a, size_t n,
                    int level, qn_err *err)
{
    qn_store__stmt q;

    if (!sorted(a, n) && qn_kr_sort(a, n) != QN_OK)
        return qn_err_nomem(err);
    qn_store__sql(&q, s,
                  "INSERT INTO main.key_runs (rule_id, level, first_key,"
                  " last_key, count, keys) VALUES (?, ?, ?, ?, ?, ?)",
                  err);
    for (size_t at = 0; at < n && q.rc == QN_OK; at += QN_KR_MAX) {
        size_t m = n - at < QN_KR_MAX ? n - at : QN_KR_MAX, len;
        uint8_t *blob;
        int rc = qn_kr_encode(a + at, m, &blob, &len);
        if (rc != QN_OK) {
            q.rc = rc == QN_ENOMEM
                       ? qn_err_nomem(err)
                       : qn_err_set(err, QN_ERR, 0, 0,
                                    "rule set %lld: a key run could not be "
                                    "encoded (row %lld)",
                                    (long long)rule_id, (long long)a[at].row);
            break;
        }
        qn_store__bind_i64(&q, 1, rule_id);
        qn_store__bind_i64(&q, 2, level);
        qn_store__bind_i64(&q, 3, (int64_t)a[at].key);
        qn_store__bind_i64(&q, 4, (int64_t)a[at + m - 1].key);
        qn_store__bind_i64(&q, 5, (int64_t)m);
        qn_store__bind_blob(&q, 6, blob, len);
        qn_store__run(&q);
        free(blob);
    }
    return qn_store__end(&q);
}

/* Every pair of rule_id's runs into *out (*n),
 * decoded and checked; a damaged run is QN_EDB naming it. */
int qn_store__runs_read(qn_store *s, int64_t rule_id, qn_kr_pair **out,
                        size_t *n, qn_err *err)
{
    qn_store__stmt q;
    long long total = 0;
    qn_kr_pair *a = NULL;
    size_t at = 0;
    char sql[128];
    int rc;

    *out = NULL;
    *n = 0;
    snprintf(sql, sizeof(sql),
             "SELECT coalesce(sum(count), 0) FROM main.key_runs"
             " WHERE rule_id = %lld",
             (long long)rule_id);
    if ((rc = qn_store__int(s, sql, &total, err)) != QN_OK)
        return rc;
    if (!(a = QN_ALLOCN((size_t)total + 1, qn_kr_pair)))
        return qn_err_nomem(err);
    qn_store__sql(&q, s,
                  "SELECT id, count, keys FROM main.key_runs"
                  " WHERE rule_id = ? ORDER BY id",
                  err);
    qn_store__bind_i64(&q, 1, rule_id);
    while (qn_store__row(&q)) {
        const uint8_t *b = sqlite3_column_blob(q.st, 2);
        size_t len = (size_t)sqlite3_column_bytes(q.st, 2);
        qn_kr_info info;
        int r = b ? qn_kr_info_get(b, len, &info) : QN_EDB;
        if (!b && sqlite3_errcode(s->db) == SQLITE_NOMEM) {
            q.rc = qn_err_nomem(err); /* the blob's copy, not damage */
            break;
        }
        if (r == QN_OK && (info.n != (size_t)sqlite3_column_int64(q.st, 1) ||
                           info.n > (size_t)total - at))
            r = QN_EDB;
        if (r == QN_OK)
            r = qn_kr_decode(b, len, a + at);
        if (r != QN_OK) {
            qn_err_source(err, s->path);
            q.rc = qn_err_set(
                err, QN_EDB, 0, 0, "key run %lld of rule set %lld is damaged",
                (long long)sqlite3_column_int64(q.st, 0), (long long)rule_id);
            break;
        }
        at += info.n;
    }
    if ((rc = qn_store__end(&q)) != QN_OK) {
        free(a);
        return rc;
    }
    *out = a;
    *n = at;
    return QN_OK;
}

/* Merge every run of rule_id into level-1 pieces. */
static int compact(qn_store *s, int64_t rule_id, qn_err *err)
{
    qn_kr_pair *a;
    size_t n;
    char sql[96];
    int rc = qn_store__runs_read(s, rule_id, &a, &n, err);

    if (rc != QN_OK)
        return rc;
    snprintf(sql, sizeof(sql), "DELETE FROM main.key_runs WHERE rule_id = %lld",
             (long long)rule_id);
    if ((rc = qn_store__exec(s, sql, err)) == QN_OK && n)
        rc = put_runs(s, rule_id, a, n, 1, err);
    free(a);
    return rc;
}

static int maybe_compact(qn_store *s, int64_t rule_id, qn_err *err)
{
    long long level0 = 0;
    char sql[128];
    int rc;

    snprintf(sql, sizeof(sql),
             "SELECT count(*) FROM main.key_runs WHERE rule_id = %lld"
             " AND level = 0",
             (long long)rule_id);
    if ((rc = qn_store__int(s, sql, &level0, err)) != QN_OK)
        return rc;
    return level0 > LEVEL0_MAX ? compact(s, rule_id, err) : QN_OK;
}

static int by_rule(const void *a, const void *b)
{
    int64_t x = ((const note *)a)->rule, y = ((const note *)b)->rule;

    return (x > y) - (x < y);
}

int qn_store__runs_flush(qn_store *s, qn_err *err)
{
    struct qn_store__runs *r = s->runs;
    qn_kr_pair *a;
    size_t i = 0;
    int rc = QN_OK, one = 1;

    if (!r || !r->n)
        return QN_OK;
    /* SQLite ends a transaction itself after some errors: never write
     * runs outside the one that wrote their rows */
    if (sqlite3_get_autocommit(s->db)) {
        qn_store__runs_forget(s);
        return qn_err_set(err, QN_EDB, 0, 0,
                          "the transaction was rolled back by SQLite");
    }
    for (size_t j = 1; j < r->n && one; j++)
        one = r->v[j].rule == r->v[0].rule;
    if (!one)
        qsort(r->v, r->n, sizeof(*r->v), by_rule);
    if (!(a = QN_ALLOCN(r->n, qn_kr_pair)))
        return qn_err_nomem(err);
    while (rc == QN_OK && i < r->n) {
        int64_t rule = r->v[i].rule;
        size_t m = 0;
        for (; i < r->n && r->v[i].rule == rule; i++)
            a[m++] = r->v[i].p;
        rc = put_runs(s, rule, a, m, 0, err);
        if (rc == QN_OK)
            rc = maybe_compact(s, rule, err);
    }
    free(a);
    if (rc == QN_OK)
        r->n = 0;
    return rc;
}

int qn_store__runs_add_notes(qn_store *s, int64_t rule_id, qn_kr_set *set,
                             size_t *added)
{
    struct qn_store__runs *r = s->runs;

    *added = 0;
    for (size_t i = 0; r && i < r->n; i++) {
        if (r->v[i].rule != rule_id)
            continue;
        if (qn_kr_set_add(set, r->v[i].p.key, r->v[i].p.row) != QN_OK)
            return QN_ENOMEM;
        ++*added;
    }
    return QN_OK;
}

int qn_store__runs_note_plan(qn_store *s, const qn_store__mplan *p, qn_err *err)
{
    int rc = QN_OK;

    for (size_t i = 0; rc == QN_OK && i < p->n; i++)
        if (!p->v[i].met && (rc = qn_store__runs_reserve(s, err)) == QN_OK)
            qn_store__runs_note(s, p->v[i].rule, p->v[i].uid, p->v[i].main);
    return rc;
}

int qn_store__runs_rows(qn_store *s, int64_t rule_id, qn_kr_pair **a, size_t *n,
                        qn_err *err)
{
    qn_store__stmt q;
    size_t cap = 0;

    *a = NULL;
    *n = 0;
    qn_store__sql(&q, s, "SELECT uid, id FROM main.puzzles WHERE rule_id = ?",
                  err);
    qn_store__bind_i64(&q, 1, rule_id);
    while (qn_store__row(&q)) {
        if (*n == cap) {
            size_t c = cap ? 2 * cap : 4096;
            qn_kr_pair *p = QN_REALLOCN(*a, c, qn_kr_pair);
            if (!p) {
                q.rc = qn_err_nomem(err);
                break;
            }
            *a = p;
            cap = c;
        }
        (*a)[*n].key = (uint64_t)sqlite3_column_int64(q.st, 0);
        (*a)[(*n)++].row = sqlite3_column_int64(q.st, 1);
    }
    if (qn_store__end(&q) == QN_OK)
        return QN_OK;
    free(*a);
    *a = NULL;
    *n = 0;
    return q.rc;
}

int qn_store__runs_build(qn_store *s, qn_err *err)
{
    qn_store__stmt rules;

    qn_store__sql(&rules, s, "SELECT id FROM main.rules ORDER BY id", err);
    while (qn_store__row(&rules)) {
        int64_t rule = sqlite3_column_int64(rules.st, 0);
        qn_kr_pair *a;
        size_t n;
        if ((rules.rc = qn_store__runs_rows(s, rule, &a, &n, err)) == QN_OK &&
            n)
            rules.rc = put_runs(s, rule, a, n, 1, err);
        free(a);
    }
    return qn_store__end(&rules);
}

/* The input's runs (src.key_runs) decoded into *a, each run's rule (as
 * OUT numbers it) and size in *runs; QN_EDB names a damaged one. */
typedef struct src_run {
    int64_t rule;
    size_t at, n;
} src_run;

static int read_src_runs(qn_store *s, int64_t n, qn_kr_pair **a, src_run **runs,
                         size_t *nruns, size_t *got, qn_err *err)
{
    qn_store__stmt q;
    size_t at = 0, cap = 0;

    *runs = NULL;
    *nruns = *got = 0;
    if (!(*a = QN_ALLOCN((size_t)n + 1, qn_kr_pair)))
        return qn_err_nomem(err);
    qn_store__sql(&q, s,
                  "SELECT mr.main, k.keys FROM src.key_runs k"
                  " JOIN temp.merge_rules mr ON mr.src = k.rule_id"
                  " ORDER BY k.id",
                  err);
    while (qn_store__row(&q)) {
        const uint8_t *b = sqlite3_column_blob(q.st, 1);
        size_t len = (size_t)sqlite3_column_bytes(q.st, 1);
        qn_kr_info info;
        if (!b && sqlite3_errcode(s->db) == SQLITE_NOMEM) {
            q.rc = qn_err_nomem(err);
            break;
        }
        if (!b || qn_kr_info_get(b, len, &info) != QN_OK ||
            info.n > (size_t)n - at || qn_kr_decode(b, len, *a + at)) {
            q.rc = qn_err_set(err, QN_EDB, 0, 0,
                              "a key run of the input is damaged");
            break;
        }
        if (*nruns == cap) {
            size_t c = cap ? 2 * cap : 16;
            src_run *r = QN_REALLOCN(*runs, c, src_run);
            if (!r) {
                q.rc = qn_err_nomem(err);
                break;
            }
            *runs = r;
            cap = c;
        }
        (*runs)[*nruns].rule = sqlite3_column_int64(q.st, 0);
        (*runs)[*nruns].at = at;
        (*runs)[(*nruns)++].n = info.n;
        at += info.n;
    }
    if (q.rc == QN_OK && at != (size_t)n)
        q.rc = QN_ENOTFOUND; /* not the rows: the caller says so */
    *got = at;
    return qn_store__end(&q);
}

static int by_row(const void *x, const void *y)
{
    const qn_kr_pair *a = x, *b = y;

    if (a->row != b->row)
        return (a->row > b->row) - (a->row < b->row);
    return (a->key > b->key) - (a->key < b->key);
}

/* The first input row (by id) whose pair in the runs a[0..na) is not
 * the plan's (its id as its state gives it), named in err: QN_EDB. */
static int name_row(const char *in_path, qn_kr_pair *a, size_t na,
                    const qn_store__mplan *p, qn_err *err)
{
    qn_kr_pair *b = QN_ALLOCN(p->n + 1, qn_kr_pair);
    int64_t row = 0;
    size_t i = 0;

    if (!b)
        return qn_err_nomem(err);
    for (size_t j = 0; j < p->n; j++) {
        b[j].key = p->v[j].uid;
        b[j].row = p->v[j].src;
    }
    qsort(a, na, sizeof(*a), by_row);
    qsort(b, p->n, sizeof(*b), by_row);
    while (i < na && i < p->n && !by_row(&a[i], &b[i]))
        i++;
    if (i < na || i < p->n)
        row = i >= na                            ? b[i].row
              : i >= p->n || a[i].row < b[i].row ? a[i].row
                                                 : b[i].row;
    free(b);
    qn_err_source(err, in_path);
    return qn_err_set(err, QN_EDB, 0, 0,
                      "puzzle at row %lld: its id in the key runs is not "
                      "its state's: the database is damaged",
                      (long long)row);
}

/* The input's runs (of OUT's rules, in their order) written as OUT's,
 * each blob's rows moved by delta (qn_kr_shift: the bytes encoding the
 * moved pairs would give, without decoding and encoding them again),
 * then each rule written compacted if it is due, as put_runs' callers
 * do. */
static int shift_runs(qn_store *s, int64_t delta, qn_err *err)
{
    qn_store__stmt q, ins;
    int64_t *rules = NULL;
    size_t nrules = 0, cap = 0;
    int rc = QN_OK;

    qn_store__sql(&q, s,
                  "SELECT mr.main, k.keys FROM src.key_runs k"
                  " JOIN temp.merge_rules mr ON mr.src = k.rule_id"
                  " ORDER BY k.id",
                  err);
    qn_store__sql(&ins, s,
                  "INSERT INTO main.key_runs (rule_id, level, first_key,"
                  " last_key, count, keys) VALUES (?, 0, ?, ?, ?, ?)",
                  err);
    while (ins.rc == QN_OK && qn_store__row(&q)) {
        const uint8_t *b = sqlite3_column_blob(q.st, 1);
        size_t len = (size_t)sqlite3_column_bytes(q.st, 1);
        int64_t rule = sqlite3_column_int64(q.st, 0);
        uint8_t *moved = NULL;
        qn_kr_info info;
        int r = b && qn_kr_info_get(b, len, &info) == QN_OK
                    ? qn_kr_shift(b, len, delta, &moved)
                    : QN_EDB;
        if (r == QN_OK && (!nrules || rules[nrules - 1] != rule) &&
            nrules == cap) {
            size_t c = cap ? 2 * cap : 8;
            int64_t *v = QN_REALLOCN(rules, c, int64_t);
            if (!v)
                r = QN_ENOMEM;
            else {
                rules = v;
                cap = c;
            }
        }
        if (r != QN_OK) { /* decoded by the fold: only memory fails */
            free(moved);
            q.rc = r == QN_ENOMEM ? qn_err_nomem(err)
                                  : qn_err_set(err, QN_ERR, 0, 0,
                                               "rule set %lld: a key run "
                                               "could not be moved",
                                               (long long)rule);
            break;
        }
        if (!nrules || rules[nrules - 1] != rule)
            rules[nrules++] = rule;
        qn_store__bind_i64(&ins, 1, rule);
        qn_store__bind_i64(&ins, 2, (int64_t)info.first);
        qn_store__bind_i64(&ins, 3, (int64_t)info.last);
        qn_store__bind_i64(&ins, 4, (int64_t)info.n);
        qn_store__bind_blob(&ins, 5, moved, len);
        qn_store__run(&ins);
        free(moved);
    }
    rc = qn_store__end(&q);
    if (qn_store__end(&ins) != QN_OK && rc == QN_OK)
        rc = ins.rc;
    for (size_t i = 0; rc == QN_OK && i < nrules; i++)
        rc = maybe_compact(s, rules[i], err);
    free(rules);
    return rc;
}

int qn_store__runs_copy(qn_store *s, const char *in_path,
                        const qn_store__mplan *p, int write, qn_err *err)
{
    int64_t n = (int64_t)p->n, delta = p->last + 1 - p->min_id;
    qn_kr_pair *a = NULL;
    src_run *runs = NULL;
    size_t nruns = 0, got = 0;
    uint64_t sum = 0;
    int rc;

    /* the fold read every run already, and they hold the rows it read */
    if (write && p->runs_ok && p->runs_pairs == p->n &&
        p->runs_digest == p->digest)
        return shift_runs(s, delta, err);
    rc = read_src_runs(s, n, &a, &runs, &nruns, &got, err);

    for (int64_t i = 0; rc == QN_OK && i < n; i++)
        sum += qn_store__pair_digest(a[i].key, a[i].row);
    if (rc == QN_EDB)
        qn_err_source(err, in_path);
    if (rc == QN_ENOTFOUND || (rc == QN_OK && sum != p->digest))
        rc = name_row(in_path, a, got, p, err);
    if (rc == QN_OK && write) {
        for (int64_t i = 0; i < n; i++)
            a[i].row += delta;
        for (size_t r = 0; rc == QN_OK && r < nruns; r++)
            rc = put_runs(s, runs[r].rule, a + runs[r].at, runs[r].n, 0, err);
        for (size_t r = 0; rc == QN_OK && r < nruns; r++)
            if (!r || runs[r].rule != runs[r - 1].rule)
                rc = maybe_compact(s, runs[r].rule, err);
    }
    free(a);
    free(runs);
    return rc;
}

/* The input's rows too spread out for a table (a hint): more than this
 * many slots a pair of its runs. */
#define IDS_SPREAD 4

/* Run b (len bytes) decoded into a (room for QN_KR_MAX pairs), its pairs
 * of rows lo .. lo + n - 1 into ids and all of them into p's runs_pairs
 * and runs_digest; a damaged run is left out, runs_ok 0 (the copy's
 * check then names it). */
static void scatter(const uint8_t *b, size_t len, qn_kr_pair *a, uint64_t *ids,
                    int64_t lo, size_t n, qn_store__mplan *p)
{
    qn_kr_info info;

    if (!b || qn_kr_info_get(b, len, &info) != QN_OK ||
        qn_kr_decode(b, len, a) != QN_OK) {
        p->runs_ok = 0;
        return;
    }
    for (size_t i = 0; i < info.n; i++) {
        p->runs_digest += qn_store__pair_digest(a[i].key, a[i].row);
        if (ids && (uint64_t)a[i].row - (uint64_t)lo < n)
            ids[a[i].row - lo] = a[i].key;
    }
    p->runs_pairs += info.n;
}

int qn_store__runs_src_ids(qn_store *s, qn_store__mplan *p, uint64_t **ids,
                           int64_t *lo, size_t *n, qn_err *err)
{
    qn_store__stmt q;
    long long total = 0, min = 0, max = 0;
    qn_kr_pair *a;
    uint64_t *v = NULL;
    size_t span = 0;
    int rc;

    *ids = NULL;
    *lo = 0;
    *n = 0;
    p->runs_ok = 0;
    p->runs_pairs = 0;
    p->runs_digest = 0;
    rc = qn_store__int(s, "SELECT coalesce(sum(count), 0) FROM src.key_runs",
                       &total, err);
    if (rc == QN_OK) /* a rowid table's ends: two seeks */
        rc = qn_store__int(s, "SELECT coalesce(min(id), 0) FROM src.puzzles",
                           &min, err);
    if (rc == QN_OK)
        rc = qn_store__int(s, "SELECT coalesce(max(id), 0) FROM src.puzzles",
                           &max, err);
    if (rc != QN_OK)
        return rc;
    /* a hint: where the rows are spread out, or there is no memory for
     * it, no table */
    if (total > 0 && total <= (long long)1 << 40 && max >= min &&
        (uint64_t)max - (uint64_t)min <
            (uint64_t)IDS_SPREAD * (uint64_t)total) {
        span = (size_t)((uint64_t)max - (uint64_t)min) + 1;
        if (!(v = QN_ALLOCN(span, uint64_t)))
            span = 0;
    }
    if (!(a = QN_ALLOCN(QN_KR_MAX, qn_kr_pair))) {
        free(v);
        return qn_err_nomem(err);
    }
    p->runs_ok = 1;
    qn_store__sql(&q, s,
                  "SELECT k.keys FROM src.key_runs k"
                  " JOIN temp.merge_rules mr ON mr.src = k.rule_id",
                  err);
    while (qn_store__row(&q)) {
        const uint8_t *b = sqlite3_column_blob(q.st, 0);
        if (!b && sqlite3_errcode(s->db) == SQLITE_NOMEM) {
            q.rc = qn_err_nomem(err);
            break;
        }
        scatter(b, (size_t)sqlite3_column_bytes(q.st, 0), a, v, min, span, p);
    }
    free(a);
    if ((rc = qn_store__end(&q)) != QN_OK) {
        free(v);
        p->runs_ok = 0;
        return rc;
    }
    *ids = v;
    *lo = min;
    *n = span;
    return QN_OK;
}
