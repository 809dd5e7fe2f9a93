/*
 * store_unique.c: the put path's own duplicate check (issue #35 section
 * 1, docs/STORE-KEYRUNS.md "The flip", step 2): before a puzzle's insert,
 * its id is probed in the rule's id set (keyrun.h), loaded from the
 * rule's key runs at the rule's first put and kept up to date; a hit is
 * resolved by canonicalizing the stored row's state. Since migration
 * 0009 this is the only thing that keeps one row a puzzle: there is no
 * unique key behind it (db check finds a puzzle stored twice from the
 * states themselves).
 *
 * A set holds the pairs of the runs it has read (those with id <=
 * last_run, fingerprinted) and the rows this connection noted since.
 * Another connection's commit (PRAGMA data_version) brings its new runs
 * in, or the whole set again when runs read before are gone (it
 * compacted). A rollback of a batch or a savepoint drops every set: they
 * are loaded again at their next put.
 */
#include <stdlib.h>
#include <string.h>

#include <sqlite3.h>

#include "base/mem.h"
#include "keyrun.h"
#include "store_internal.h"

/* What identifies the runs a set has read: another writer's compaction
 * deletes them and writes others, which this no longer matches. */
typedef struct runs_seen {
    int64_t last_run; /* the largest run id read; 0: none */
    long long nruns, pairs, ids, keys;
} runs_seen;

typedef struct uset {
    int64_t rule_id;
    qn_kr_set *set;
    runs_seen seen;
    size_t noted;      /* pairs added from notes since the last read */
    qn_store__pid pid; /* the rule, for a hit's stored state (store_pid.c):
                          pid.rules NULL when its text does not load */
    int rules_tried;   /* 1: pid is all there will be */
    uint8_t *packed;   /* qn_store_canon_size: a canonical form packed */
} uset;

struct qn_store__unique {
    uset *v;
    size_t n, cap;
    long long data_version;
};

static void uset_free(uset *u)
{
    qn_kr_set_free(u->set);
    qn_store__pid_release(&u->pid);
    free(u->packed);
    memset(u, 0, sizeof(*u));
}

void qn_store__unique_forget(qn_store *s)
{
    struct qn_store__unique *q = s->unique;

    if (!q)
        return;
    for (size_t i = 0; i < q->n; i++)
        uset_free(&q->v[i]);
    q->n = 0;
}

void qn_store__unique_free(qn_store *s)
{
    qn_store__unique_forget(s);
    if (s->unique)
        free(s->unique->v);
    free(s->unique);
    s->unique = NULL;
}

static uset *find_set(qn_store *s, int64_t rule_id)
{
    struct qn_store__unique *q = s->unique;

    for (size_t i = 0; q && i < q->n; i++)
        if (q->v[i].rule_id == rule_id)
            return &q->v[i];
    return NULL;
}

static void drop_set(qn_store *s, uset *u)
{
    struct qn_store__unique *q = s->unique;

    uset_free(u);
    *u = q->v[--q->n];
}

/* The fingerprint of rule_id's runs with id <= upto (all: INT64_MAX). */
static int fingerprint(qn_store *s, int64_t rule_id, int64_t upto,
                       runs_seen *out, qn_err *err)
{
    qn_store__stmt q;

    memset(out, 0, sizeof(*out));
    qn_store__sql(&q, s,
                  "SELECT coalesce(max(id), 0), count(*),"
                  " coalesce(sum(count), 0), coalesce(sum(id), 0),"
                  " coalesce(sum(first_key & 4294967295), 0)"
                  " FROM main.key_runs WHERE rule_id = ? AND id <= ?",
                  err);
    qn_store__bind_i64(&q, 1, rule_id);
    qn_store__bind_i64(&q, 2, upto);
    if (qn_store__row(&q)) {
        out->last_run = sqlite3_column_int64(q.st, 0);
        out->nruns = sqlite3_column_int64(q.st, 1);
        out->pairs = sqlite3_column_int64(q.st, 2);
        out->ids = sqlite3_column_int64(q.st, 3);
        out->keys = sqlite3_column_int64(q.st, 4);
    }
    return qn_store__end(&q);
}

static int same_seen(const runs_seen *a, const runs_seen *b)
{
    return a->nruns == b->nruns && a->pairs == b->pairs && a->ids == b->ids &&
           a->keys == b->keys;
}

/* Every run of u's rule with an id past `after` into u's set. */
static int read_runs(qn_store *s, uset *u, int64_t after, qn_err *err)
{
    qn_store__stmt q;

    qn_store__sql(&q, s,
                  "SELECT id, keys FROM main.key_runs WHERE rule_id = ?"
                  " AND id > ? ORDER BY id",
                  err);
    qn_store__bind_i64(&q, 1, u->rule_id);
    qn_store__bind_i64(&q, 2, after);
    while (qn_store__row(&q)) {
        const uint8_t *b = sqlite3_column_blob(q.st, 1);
        size_t len = (size_t)sqlite3_column_bytes(q.st, 1);
        int rc = b ? qn_kr_set_add_run(u->set, b, len) : QN_EDB;
        if (rc == QN_ENOMEM) {
            q.rc = qn_err_nomem(err);
        } else if (rc != QN_OK) {
            qn_err_source(err, s->path);
            q.rc = qn_err_set(err, QN_EDB, 0, 0,
                              "key run %lld of rule set %lld is damaged",
                              (long long)sqlite3_column_int64(q.st, 0),
                              (long long)u->rule_id);
        }
    }
    return qn_store__end(&q);
}

static int data_version(qn_store *s, long long *out, qn_err *err)
{
    return qn_store__int(s, "PRAGMA main.data_version", out, err);
}

/* u's set from its rule's runs and this connection's notes not yet
 * flushed (after a savepoint's rollback dropped the sets mid-batch). */
static int load_set(qn_store *s, uset *u, qn_err *err)
{
    int rc = fingerprint(s, u->rule_id, INT64_MAX, &u->seen, err);

    if (rc == QN_OK && !(u->set = qn_kr_set_new()))
        rc = qn_err_nomem(err);
    if (rc == QN_OK && qn_kr_set_reserve(u->set, (size_t)u->seen.pairs + 1))
        rc = qn_err_nomem(err);
    if (rc == QN_OK)
        rc = read_runs(s, u, 0, err);
    if (rc == QN_OK &&
        qn_store__runs_add_notes(s, u->rule_id, u->set, &u->noted))
        rc = qn_err_nomem(err);
    return rc;
}

/* The set of rule_id, loaded at its first use in this transaction. */
static int set_for(qn_store *s, int64_t rule_id, uset **out, qn_err *err)
{
    struct qn_store__unique *q = s->unique;
    uset *u = find_set(s, rule_id);
    int rc = QN_OK;

    *out = u;
    if (u)
        return QN_OK;
    if (!q && !(q = s->unique = QN_ALLOC(struct qn_store__unique)))
        return qn_err_nomem(err);
    if (q->n == q->cap) {
        size_t cap = q->cap ? 2 * q->cap : 4;
        uset *v = QN_REALLOCN(q->v, cap, uset);
        if (!v)
            return qn_err_nomem(err);
        q->v = v;
        q->cap = cap;
    }
    /* the first set: other writers are seen from here on */
    if (!q->n)
        rc = data_version(s, &q->data_version, err);
    if (rc != QN_OK)
        return rc;
    u = &q->v[q->n++];
    memset(u, 0, sizeof(*u));
    u->rule_id = rule_id;
    if ((rc = load_set(s, u, err)) != QN_OK) {
        drop_set(s, u);
        return rc;
    }
    *out = u;
    return QN_OK;
}

int qn_store__unique_sync(qn_store *s, qn_err *err)
{
    struct qn_store__unique *q = s->unique;
    long long v;
    int rc;

    if (!q || !q->n)
        return QN_OK;
    if ((rc = data_version(s, &v, err)) != QN_OK || v == q->data_version)
        return rc;
    for (size_t i = 0; i < q->n && rc == QN_OK; i++) {
        uset *u = &q->v[i];
        runs_seen now;
        if ((rc = fingerprint(s, u->rule_id, u->seen.last_run, &now, err)))
            break;
        if (!same_seen(&now, &u->seen)) {
            /* another writer compacted: read the rule's runs again */
            drop_set(s, u);
            i--;
            continue;
        }
        if ((rc = fingerprint(s, u->rule_id, INT64_MAX, &now, err)) == QN_OK &&
            (rc = read_runs(s, u, u->seen.last_run, err)) == QN_OK)
            u->seen = now;
    }
    if (rc != QN_OK) {
        qn_store__unique_forget(s);
        return rc;
    }
    q->data_version = v;
    return QN_OK;
}

void qn_store__unique_noted(qn_store *s, int64_t rule_id, uint64_t uid,
                            int64_t row)
{
    uset *u = find_set(s, rule_id);

    if (!u)
        return;
    /* a put reserved room; db merge's notes did not: a set that cannot
     * take one is dropped, to be read again whole */
    if (qn_kr_set_add(u->set, uid, row) != QN_OK)
        drop_set(s, u);
    else
        u->noted++;
}

static int flushed(qn_store *s, int64_t rule_id, qn_err *err)
{
    uset *u = find_set(s, rule_id);
    runs_seen now;
    int rc;

    if (!u)
        return QN_OK;
    if ((rc = fingerprint(s, rule_id, INT64_MAX, &now, err)) != QN_OK)
        return rc;
    /* this connection's runs now hold its notes; anything else written
     * (db merge copying an input's runs) means the set is not the runs */
    if (now.pairs == u->seen.pairs + (long long)u->noted) {
        u->seen = now;
        u->noted = 0;
    } else {
        drop_set(s, u);
    }
    return QN_OK;
}

/* u's rule for canonical forms, loaded once (store_pid.c: its text
 * checked against its hash). A rule text that does not load leaves
 * u->pid.rules NULL: a hit then cannot be resolved, and is an error. */
static int rules_for(qn_store *s, uset *u, qn_err *err)
{
    qn_store__stmt q;

    if (u->rules_tried)
        return QN_OK;
    qn_store__sql(&q, s,
                  "SELECT hash, yaml, cells, colours FROM main.rules"
                  " WHERE id = ?",
                  err);
    qn_store__bind_i64(&q, 1, u->rule_id);
    if (qn_store__row(&q))
        q.rc = qn_store__pid_rule(
            &u->pid, u->rule_id, qn_store__col_text(q.st, 0),
            qn_store__col_text(q.st, 1), sqlite3_column_int(q.st, 2),
            (unsigned)sqlite3_column_int(q.st, 3), err);
    if (q.rc == QN_OK && u->pid.rules && !u->packed &&
        !(u->packed =
              QN_ALLOCN(qn_store_canon_size(u->pid.n, u->pid.k) + 1, uint8_t)))
        q.rc = qn_err_nomem(err);
    if (qn_store__end(&q) == QN_OK)
        u->rules_tried = 1;
    return q.rc;
}

/* The canonical form of row's stored state into u->packed; its run and
 * stream index (-1: none). QN_ENOTFOUND: no such row. */
static int stored_form(qn_store *s, uset *u, int64_t row, int64_t *run_id,
                       int64_t *stream, qn_err *err)
{
    qn_store__pid *p = &u->pid;
    qn_store__stmt q;
    uint64_t id;

    qn_store__sql(&q, s,
                  "SELECT state, run_id, stream_index FROM main.puzzles"
                  " WHERE id = ?",
                  err);
    qn_store__bind_i64(&q, 1, row);
    if (qn_store__row(&q)) {
        if (!qn_store__pid_packed(p, sqlite3_column_blob(q.st, 0),
                                  (size_t)sqlite3_column_bytes(q.st, 0), &id)) {
            qn_err_source(err, s->path);
            q.rc = qn_err_set(err, QN_EDB, 0, 0, "puzzle %lld is damaged",
                              (long long)row);
        } else {
            qn_store_canon_pack(u->packed, p->form, p->n, p->k);
            *run_id = sqlite3_column_int64(q.st, 1);
            *stream = sqlite3_column_type(q.st, 2) == SQLITE_NULL
                          ? -1
                          : sqlite3_column_int64(q.st, 2);
        }
    } else if (q.rc == QN_OK) {
        q.rc = QN_ENOTFOUND;
    }
    return qn_store__end(&q);
}

int qn_store__unique_probe(qn_store *s, const qn_store_puzzle *p, uint64_t uid,
                           qn_store__verdict *v, qn_err *err)
{
    size_t cursor = 0;
    int64_t row;
    uset *u;
    int rc;

    memset(v, 0, sizeof(*v));
    if ((rc = set_for(s, p->rule_id, &u, err)) != QN_OK)
        return rc;
    /* room for the note of the insert that may follow: it cannot fail */
    if (qn_kr_set_reserve(u->set, 1) != QN_OK)
        return qn_err_nomem(err);
    while (qn_kr_set_next(u->set, uid, &cursor, &row)) {
        int64_t run_id = 0, stream = -1;
        if ((rc = rules_for(s, u, err)) != QN_OK)
            return rc;
        if (!u->pid.rules) {
            qn_err_source(err, s->path);
            return qn_err_set(err, QN_EDB, 0, 0,
                              "rule set %lld's text does not load, so a "
                              "puzzle sharing its id with a stored one "
                              "cannot be told apart from it; run 'quench "
                              "db check'",
                              (long long)u->rule_id);
        }
        rc = stored_form(s, u, row, &run_id, &stream, err);
        if (rc == QN_ENOTFOUND)
            continue; /* no longer a row (deleted): not a duplicate */
        if (rc != QN_OK)
            return rc;
        /* equal: a duplicate; else two puzzles share an id (both kept) */
        if (!memcmp(u->packed, p->canon, p->canon_len)) {
            v->dup_id = row;
            v->is_new = p->run_id > 0 && p->stream_index >= 0 &&
                                run_id == p->run_id && stream == p->stream_index
                            ? 2
                            : 0;
            return QN_OK;
        }
    }
    return QN_OK;
}

void qn_store__unique_prefetch(qn_store *s, int64_t rule_id, uint64_t uid)
{
    uset *u = find_set(s, rule_id);

    if (u && u->set)
        qn_kr_set_prefetch(u->set, uid);
}

int qn_store__unique_set(qn_store *s, int64_t rule_id, qn_kr_set **out,
                         qn_err *err)
{
    uset *u;
    int rc = set_for(s, rule_id, &u, err);

    *out = rc == QN_OK ? u->set : NULL;
    return rc;
}

int qn_store__unique_flushed(qn_store *s, qn_err *err)
{
    struct qn_store__unique *q = s->unique;
    int rc = QN_OK;

    /* flushed() may drop a set: walk from the end */
    for (size_t i = q ? q->n : 0; i-- > 0 && rc == QN_OK;)
        rc = flushed(s, q->v[i].rule_id, err);
    return rc;
}
