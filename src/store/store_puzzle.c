/*
 * store_puzzle.c: rule sets and puzzles, the rows every generator,
 * validator and import writes: found by hash or by canonical key, and
 * stored once per key (a second copy reports the puzzle that holds it).
 */
#include "store/store.h"

#include <string.h>

#include <sqlite3.h>

#include "base/buf.h"
#include "rules/puzzle_id.h"
#include "rules/rules.h"
#include "rules/state.h"
#include "store_internal.h"

int qn_store_find_rule(qn_store *s, const char *hash, int64_t *id_out,
                       qn_err *err)
{
    qn_store__stmt q;

    qn_store__sql(&q, s, "SELECT id FROM rules WHERE hash = ?", err);
    qn_store__bind_str(&q, 1, hash);
    if (qn_store__row(&q))
        *id_out = sqlite3_column_int64(q.st, 0);
    else if (q.rc == QN_OK)
        q.rc = qn_err_set(err, QN_ENOTFOUND, 0, 0, "no rule set with hash %s",
                          hash);
    return qn_store__end(&q);
}

/*
 * *id_out: the id of rule hash when it is stored with its layout, so that
 * the insert below would change nothing; 0 when it is not. Read before
 * any write transaction, so that a rule already stored never waits for
 * another writer's lock (a second copy of a running generate --db must
 * reach its run's claim and be told who holds it, t470).
 */
static int rule_ready(qn_store *s, const char *hash, int64_t *id_out,
                      qn_err *err)
{
    qn_store__stmt q;

    *id_out = 0;
    qn_store__sql(&q, s,
                  "SELECT id FROM rules WHERE hash = ? AND layout IS NOT NULL",
                  err);
    qn_store__bind_str(&q, 1, hash);
    if (qn_store__row(&q))
        *id_out = sqlite3_column_int64(q.st, 0);
    return qn_store__end(&q);
}

int qn_store_put_rule(qn_store *s, const qn_store_rule *r, int64_t *id_out,
                      qn_err *err)
{
    qn_store__stmt q;
    int64_t ready;
    int rc;

    if (!r->layout || !qn_store__layout_check(r->layout, r->cells))
        return qn_err_set(err, QN_EINVAL, 0, 0,
                          "rule set %s: board layout \"%.40s\" does not "
                          "have its %d cells",
                          r->name, r->layout ? r->layout : "", r->cells);
    /* an error here may have ended a batch (SQLite rolls back on out of
     * memory): it is the caller's to see, not a reason to write */
    if ((rc = rule_ready(s, r->hash, &ready, err)) != QN_OK)
        return rc;
    if (ready > 0) {
        *id_out = ready;
        return QN_OK;
    }
    /* one another writer stored while this waited is as good */
    if ((rc = qn_store__tx_begin(s, err)) == QN_EBUSY &&
        rule_ready(s, r->hash, &ready, NULL) == QN_OK && ready > 0) {
        qn_err_clear(err);
        *id_out = ready;
        return QN_OK;
    }
    if (rc != QN_OK)
        return rc;
    /* a rule stored by an older quench gets its layout now */
    qn_store__sql(
        &q, s,
        "INSERT INTO rules (hash, name, yaml, cells, colours, facts, layout)"
        " VALUES (?, ?, ?, ?, ?, ?, ?) ON CONFLICT (hash) DO UPDATE SET"
        " layout = excluded.layout WHERE rules.layout IS NULL",
        err);
    qn_store__bind_str(&q, 1, r->hash);
    qn_store__bind_str(&q, 2, r->name);
    qn_store__bind_str(&q, 3, r->yaml);
    qn_store__bind_i64(&q, 4, r->cells);
    qn_store__bind_i64(&q, 5, (int64_t)r->colours);
    qn_store__bind_str(&q, 6, r->facts ? r->facts : "");
    qn_store__bind_str(&q, 7, r->layout);
    qn_store__run(&q);
    if ((rc = qn_store__end(&q)) == QN_OK) {
        int64_t id;
        if ((rc = qn_store_find_rule(s, r->hash, &id, err)) == QN_OK)
            *id_out = id;
    }
    return qn_store__tx_end(s, rc, err);
}

int qn_store_put_ruleset(qn_store *s, const qn_rules *r, int64_t *id_out,
                         qn_err *err)
{
    qn_buf layout = QN_BUF_INIT;
    char hash[65];
    qn_store_rule sr;
    int rc;

    qn_rules_hash(r, hash);
    memset(&sr, 0, sizeof(sr));
    sr.hash = hash;
    sr.name = qn_rules_name(r);
    sr.yaml = qn_rules_text(r, NULL);
    sr.cells = qn_rules_ncells(r);
    sr.colours = qn_rules_colours(r);
    if (!sr.yaml)
        return qn_err_set(err, QN_EINVAL, 0, 0, "rule %s has no text to store",
                          sr.name);
    qn_state_format_zero(&layout, qn_rules_layout(r));
    sr.layout = layout.buf;
    if ((rc = qn_buf_check(&layout, err)) == QN_OK)
        rc = qn_store_put_rule(s, &sr, id_out, err);
    qn_buf_release(&layout);
    return rc;
}

/* ---------------------------------------------------------------------
 * Puzzles.
 */
const char *qn_store_provenance_name(qn_store_provenance p)
{
    switch (p) {
    case QN_STORE_GENERATE:
        return "generate";
    case QN_STORE_VALIDATE:
        return "validate";
    case QN_STORE_IMPORT:
        return "import";
    }
    return "import";
}

/* Bind p to put_puzzle's parameters 1..17, with its grade's code (0:
 * none), the seed as stored ('' for the run's) and the state and
 * witness packed (cells, 2 x len bytes; NULL for a rule not stored, which
 * the foreign key refuses). The caller's strings and the store's cache
 * outlive the step (reset right after it), so SQLITE_STATIC avoids a copy
 * per column on the hot path. */
static void bind_puzzle(sqlite3_stmt *st, const qn_store_puzzle *p,
                        int64_t grade, const char *seed, const uint8_t *cells,
                        size_t len)
{
    static const uint8_t none[1];

    if (!cells) {
        cells = none;
        len = 0;
    }
    sqlite3_bind_int64(st, 1, p->rule_id);
    sqlite3_bind_blob(st, 2, cells, (int)len, SQLITE_STATIC);
    sqlite3_bind_int64(st, 3, qn_store__clamp64(p->min_presses));
    sqlite3_bind_int64(st, 4, qn_store__clamp64(p->noptimal));
    sqlite3_bind_blob(st, 5, cells + len, (int)len, SQLITE_STATIC);
    if (grade > 0)
        sqlite3_bind_int64(st, 6, grade);
    else
        sqlite3_bind_null(st, 7);
    sqlite3_bind_text(st, 7, p->grader ? p->grader : "", -1, SQLITE_STATIC);
    if (seed)
        sqlite3_bind_text(st, 8, seed, -1, SQLITE_STATIC);
    else
        sqlite3_bind_null(st, 9);
    if (p->stream_index >= 0)
        sqlite3_bind_int64(st, 9, p->stream_index);
    else
        sqlite3_bind_null(st, 10);
    sqlite3_bind_int(st, 10, (int)p->provenance);
    if (p->run_id > 0)
        sqlite3_bind_int64(st, 11, p->run_id);
    else
        sqlite3_bind_null(st, 12);
    sqlite3_bind_text(st, 12, p->submission, -1, SQLITE_STATIC);
    sqlite3_bind_text(st, 13, p->source, -1, SQLITE_STATIC);
    sqlite3_bind_text(st, 14, p->meta, -1, SQLITE_STATIC);
    if (p->human_graded) {
        sqlite3_bind_int(st, 15, p->human_level);
        sqlite3_bind_int64(st, 16, p->human_score);
        sqlite3_bind_int(st, 17, p->human_model);
    } else {
        sqlite3_bind_null(st, 17);
        sqlite3_bind_null(st, 18);
        sqlite3_bind_null(st, 19);
    }
}

/*
 * The id and the stored seed of p: the id from its canonical key, never
 * the caller's belief (a caller's id that disagrees is refused, QN_EINVAL);
 * the seed '' when it is its run's. An unknown rule leaves *uid 0 for
 * the insert's foreign key to refuse.
 */
static int derive(qn_store *s, const qn_store_puzzle *p, uint64_t *uid,
                  const char **seed, qn_err *err)
{
    const char *run_seed = NULL;
    int rc = QN_OK;

    /* the seed first: outside a batch each look-up starts the cache
     * afresh, and the rule that puzzle_uid loads must still be there for
     * qn_store__puzzle_cells */
    *seed = p->seed;
    if (p->seed && *p->seed && p->run_id > 0 &&
        (rc = qn_store__run_seed(s, p->run_id, &run_seed, err)) == QN_OK &&
        run_seed && !strcmp(run_seed, p->seed))
        *seed = "";
    else if (p->seed && !*p->seed)
        *seed = NULL; /* '' is the run's: an empty seed is none */
    if (rc != QN_OK)
        return rc;
    rc = qn_store__puzzle_uid(s, p, uid, err);
    if (rc == QN_ENOTFOUND) {
        *uid = 0;
        return QN_OK;
    }
    if (rc != QN_OK)
        return rc;
    if (p->uid && p->uid != *uid) {
        char a[QN_PUZZLE_ID_HEX], b[QN_PUZZLE_ID_HEX];
        qn_puzzle_id_hex(a, p->uid);
        qn_puzzle_id_hex(b, *uid);
        return qn_err_set(err, QN_EINVAL, 0, 0,
                          "puzzle id %s does not match its canonical key "
                          "(%s)",
                          a, b);
    }
    return QN_OK;
}

static int put_one(qn_store *s, const qn_store_puzzle *p, int64_t *id_out,
                   int *is_new_out, qn_err *err)
{
    sqlite3_stmt *st;
    const char *seed;
    uint64_t uid;
    int64_t grade = 0;
    qn_store__verdict v = {0, 0};
    int rc, r, known;

    if ((rc = derive(s, p, &uid, &seed, err)) != QN_OK)
        return rc;
    /* a 1M-id set is a cache miss a probe: start it now */
    qn_store__unique_prefetch(s, p->rule_id, uid);
    if (p->grade && (rc = qn_store__grade_code(s, p->grade, &grade, err)))
        return rc;
    /* room for the row's key-run note first: once the row is in, noting
     * it cannot fail */
    if ((rc = qn_store__runs_reserve(s, err)) != QN_OK)
        return rc;
    /* derive loaded p's rule unless there is none (rule ids are >= 1) */
    known = p->rule_id > 0 && s->keys.rule_id == p->rule_id;
    if (known && (rc = qn_store__puzzle_cells(s, p, err)) != QN_OK)
        return rc;
    /* the store's own verdict first (store_unique.c) */
    if (known && (rc = qn_store__unique_probe(s, p, uid, &v, err)) != QN_OK)
        return rc;
    if (v.dup_id) {
        if (id_out)
            *id_out = v.dup_id;
        if (is_new_out)
            *is_new_out = v.is_new;
        return QN_OK;
    }
    if (!s->put_puzzle &&
        (rc = qn_store__prep(
             s, &s->put_puzzle,
             "INSERT INTO puzzles (rule_id, state, min_presses, optimal,"
             " witness, grade, grader, seed, stream_index, provenance,"
             " run_id, submission, source, meta, human_level, human_score,"
             " human_model)"
             " VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
             err)) != QN_OK)
        return rc;
    st = s->put_puzzle;
    bind_puzzle(st, p, grade, seed, known ? s->keys.packed : NULL,
                known ? qn_store_canon_size(s->keys.n, s->keys.k) : 0);
    r = sqlite3_step(st);
    rc = r == SQLITE_DONE ? QN_OK : qn_store__fail(s, r, err);
    sqlite3_reset(st);
    sqlite3_clear_bindings(st);
    if (rc != QN_OK)
        return rc;
    /* in: the probe said new (an unknown rule's row is refused by its
     * foreign key above) */
    qn_store__runs_note(s, p->rule_id, uid, sqlite3_last_insert_rowid(s->db));
    qn_store__unique_noted(s, p->rule_id, uid,
                           sqlite3_last_insert_rowid(s->db));
    if (id_out)
        *id_out = sqlite3_last_insert_rowid(s->db);
    if (is_new_out)
        *is_new_out = 1;
    return QN_OK;
}

int qn_store_put_puzzle(qn_store *s, const qn_store_puzzle *p, int64_t *id_out,
                        int *is_new_out, qn_err *err)
{
    int rc;

    if (s->in_batch)
        return put_one(s, p, id_out, is_new_out, err);
    /* the row and its key run in one transaction */
    if ((rc = qn_store__tx_begin(s, err)) != QN_OK)
        return rc;
    rc = put_one(s, p, id_out, is_new_out, err);
    return qn_store__tx_end(s, rc, err);
}
