/*
 * store_grades.c: a puzzle's grade name as the code its row keeps
 * (migration 0007): the five default tiers by a fixed table, no SQL;
 * any other name through the grades table, remembered for the batch.
 */
#include "store/store.h"

#include <stdlib.h>
#include <string.h>

#include <sqlite3.h>

#include "base/mem.h"
#include "store_internal.h"

/* The default tiers at ids 1..5, in the order of
 * src/generate/distrib_tiers.c (test_store.c checks they agree; the store
 * cannot include the generator). 0007_grade_codes.sql seeds the same. */
static const char *const default_names[QN_STORE_GRADES_DEFAULT] = {
    "easy", "medium", "hard", "expert", "master"};

void qn_store__grades_forget(qn_store *s)
{
    for (size_t i = 0; i < s->grades.n; i++)
        free(s->grades.names[i]);
    free(s->grades.names);
    free(s->grades.ids);
    memset(&s->grades, 0, sizeof(s->grades));
}

/* A name learned in this batch: its row is in the batch's transaction,
 * so once that ends (committed or not) it is looked up again: a rolled
 * back name may take another id later. SQLite may have ended the
 * transaction itself (out of memory, I/O) while the batch is still
 * open: then nothing learned in it is trusted. */
static int cached(const qn_store *s)
{
    return s->in_batch && s->grades.batch == s->batches &&
           !sqlite3_get_autocommit(s->db);
}

/* Remember name's id for the batch; out of memory only forgets it. */
static void learn(qn_store *s, const char *name, int64_t id)
{
    struct qn_store__grades *g = &s->grades;
    char *copy;

    if (!cached(s)) {
        qn_store__grades_forget(s);
        g->batch = s->batches;
    }
    if (!s->in_batch || g->n == QN_STORE_GRADES_CACHED)
        return;
    if (!g->names && (!(g->names = QN_ALLOCN(QN_STORE_GRADES_CACHED, char *)) ||
                      !(g->ids = QN_ALLOCN(QN_STORE_GRADES_CACHED, int64_t)))) {
        qn_store__grades_forget(s);
        return;
    }
    if ((copy = qn_strdup(name))) {
        g->names[g->n] = copy;
        g->ids[g->n++] = id;
    }
}

/* name's row of grades, added when missing: inside the writer's
 * transaction (a batch's, or the statement's own outside one). Two
 * writers adding one name serialise on the write lock, and the second
 * finds the first's row: both end with the one id. */
static int lookup(qn_store *s, const char *name, int64_t *out, qn_err *err)
{
    qn_store__stmt q;

    qn_store__sql(&q, s,
                  "INSERT INTO grades (name) VALUES (?)"
                  " ON CONFLICT (name) DO NOTHING",
                  err);
    qn_store__bind_str(&q, 1, name);
    qn_store__run(&q);
    if (qn_store__end(&q) != QN_OK)
        return q.rc;
    qn_store__sql(&q, s, "SELECT id FROM grades WHERE name = ?", err);
    qn_store__bind_str(&q, 1, name);
    if (qn_store__row(&q))
        *out = sqlite3_column_int64(q.st, 0);
    else if (q.rc == QN_OK)
        q.rc = qn_err_set(err, QN_EDB, 0, 0,
                          "grade '%.64s' neither stored nor found", name);
    return qn_store__end(&q);
}

int qn_store__grade_code(qn_store *s, const char *name, int64_t *out,
                         qn_err *err)
{
    int rc;

    for (int i = 0; i < QN_STORE_GRADES_DEFAULT; i++)
        if (!strcmp(name, default_names[i])) {
            *out = i + 1;
            return QN_OK;
        }
    if (cached(s))
        for (size_t i = 0; i < s->grades.n; i++)
            if (!strcmp(name, s->grades.names[i])) {
                *out = s->grades.ids[i];
                return QN_OK;
            }
    if ((rc = lookup(s, name, out, err)) == QN_OK)
        learn(s, name, *out);
    return rc;
}
