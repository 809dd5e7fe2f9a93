/*
 * store_merge_copy.c: db merge's copy of an input's puzzles into OUT, by
 * the plan of the pass over the input (store_merge_keys.c): the rows it
 * keeps by plain INSERT ... SELECT, the rows that meet a puzzle OUT holds
 * by an UPDATE applying the winner rule, and the key runs of the new rows.
 * No per-row function and no ON CONFLICT: the pass found the conflicts.
 */
#include "store/store.h"

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <sqlite3.h>

#include "base/buf.h"
#include "base/mem.h"
#include "store_internal.h"

/*
 * Of two copies of one puzzle the one with the smaller (seed, stream
 * index, state) wins: within a run family the earlier stream index, as
 * a single run keeps the first occurrence; the state only breaks ties
 * between families that drew different orientations at one index. A
 * total order, so the result is the same whatever order and grouping the
 * inputs are merged in (copies without a seed, from validate or import,
 * never replace nor are replaced: OUT's stays). Copies that differ are
 * updated, the loser's values kept, so the moved-puzzle trigger
 * (merge_track) sees both outcomes. x is the input's copy as OUT would
 * store it (its rule and run as OUT numbers them).
 */
#define IN_KEY "(" QN_STORE_SEED_SQL("x", "main") ", x.stream_index, x.state)"
#define OUT_KEY                                                                \
    "(" QN_STORE_SEED_SQL("puzzles",                                           \
                          "main") ", puzzles.stream_index, puzzles.state)"
#define WINS IN_KEY " < " OUT_KEY
#define TAKE(C) " " C " = iif(" WINS ", x." C ", puzzles." C ")"

/*
 * The copies go in stream order (rule hash, seed, stream index, row), so
 * OUT numbers its rows the same way whatever the inputs' layout. The
 * input's own rows are usually in that order already (a generate shard
 * stores its candidates in stream order, and a merge writes them so): the
 * pass finds out, and the copy then reads them by row, without sorting
 * the whole input in a temporary B-tree. NOT INDEXED: no index is to be
 * read instead (the unique key that an older planner read in random order
 * went with migration 0009).
 */
#define COPY_COLS(GRADE) COPY_COLS_BY("mr.main", GRADE, "mru.main")
#define COPY_COLS_BY(RULE, GRADE, RUN)                                         \
    RULE ", p.state, p.min_presses, p.optimal, p.witness, " GRADE              \
         ", p.grader, p.seed, p.stream_index, p.provenance, " RUN ","          \
         " p.submission, p.source, p.meta, p.human_level, p.human_score,"      \
         " p.human_model"
#define COPY_HEAD                                                              \
    "INSERT INTO main.puzzles (rule_id, state, min_presses, optimal,"          \
    " witness, grade, grader, seed, stream_index, provenance, run_id,"         \
    " submission, source, meta, human_level, human_score, human_model)"        \
    " SELECT "
/* The input's puzzles with their rules and runs as OUT numbers them
 * (merge_ids: an integer lookup a row, not two text ones) */
#define FROM_SRC                                                               \
    " FROM src.puzzles p NOT INDEXED"                                          \
    " JOIN temp.merge_rules mr ON mr.src = p.rule_id"                          \
    " LEFT JOIN temp.merge_runs mru ON mru.src = p.run_id"
#define BY_ROW " ORDER BY p.id"
#define SORTED " ORDER BY " QN_STORE__BY_STREAM
/* by row, the kept ranges between met rows; sorted, all but the met */
#define RANGE " WHERE p.id BETWEEN ?1 AND ?2"
#define NOT_MET " WHERE p.id NOT IN (SELECT src FROM temp.merge_met)"
/* by row, the pass folded in: each row planned as it is read
 * (store_merge_keys.c, qn_store__merge_fold) */
#define KEEP                                                                   \
    " WHERE quench_merge_keep(p.id, p.rule_id, p.seed, p.stream_index,"        \
    " p.run_id, p.state)"

/* The input's grade codes as OUT numbers them. The defaults (1..5) are
 * the same in every database, and so is every other name whose id the
 * two databases happen to share: when all of the input's are (the
 * common case: only default tiers), its codes are copied as they are,
 * at no cost a row (SAME_GRADES). Otherwise a code past the defaults is
 * mapped through merge_grades (MAPPED_GRADES), a comparison a row for
 * the rest. */
#define SAME_GRADES "p.grade"
#define MAPPED_GRADES                                                          \
    "iif(p.grade > 5, (SELECT mg.main FROM temp.merge_grades mg"               \
    " WHERE mg.src = p.grade), p.grade)"

/* [mapped]: every row, sorted; the kept rows sorted; the kept rows by
 * row, planned as they are read */
static const char *const copy_sql[2][3] = {
    {COPY_HEAD COPY_COLS(SAME_GRADES) FROM_SRC SORTED,
     COPY_HEAD COPY_COLS(SAME_GRADES) FROM_SRC NOT_MET SORTED,
     COPY_HEAD COPY_COLS(SAME_GRADES) FROM_SRC KEEP BY_ROW},
    {COPY_HEAD COPY_COLS(MAPPED_GRADES) FROM_SRC SORTED,
     COPY_HEAD COPY_COLS(MAPPED_GRADES) FROM_SRC NOT_MET SORTED,
     COPY_HEAD COPY_COLS(MAPPED_GRADES) FROM_SRC KEEP BY_ROW},
};

/*
 * The copy with the pass folded in, its rule and run ids mapped by CASE
 * (two each a row where the joins sought two keys in temporary B-trees,
 * 5% of a merge: a shard has one rule and one run). The function drops a
 * row whose rule OUT lacks, as the join did; a run OUT lacks is NULL, as
 * the LEFT JOIN made it. Inputs with more rules or runs than CASE_MAX
 * take the joins.
 */
#define CASE_MAX 32
static const char *const fold_fmt[2] = {
    COPY_HEAD COPY_COLS_BY("%s", SAME_GRADES,
                           "%s") " FROM src.puzzles p NOT INDEXED" KEEP BY_ROW,
    COPY_HEAD COPY_COLS_BY("%s", MAPPED_GRADES,
                           "%s") " FROM src.puzzles p NOT INDEXED" KEEP BY_ROW,
};

/* "CASE col WHEN src THEN main ... END" of temp table t's rows into b
 * ("NULL" for none); *n the rows, none added past CASE_MAX. */
static int case_of(qn_store *s, const char *t, const char *col, qn_buf *b,
                   long long *n, qn_err *err)
{
    qn_store__stmt q;
    char sql[96];
    int rc;

    snprintf(sql, sizeof(sql), "SELECT count(*) FROM temp.%s", t);
    if ((rc = qn_store__int(s, sql, n, err)) != QN_OK || *n > CASE_MAX)
        return rc;
    if (!*n) {
        qn_buf_adds(b, "NULL");
        return QN_OK;
    }
    snprintf(sql, sizeof(sql), "SELECT src, main FROM temp.%s ORDER BY src", t);
    qn_buf_addf(b, "CASE %s", col);
    qn_store__sql(&q, s, sql, err);
    while (qn_store__row(&q))
        qn_buf_addf(b, " WHEN %lld THEN %lld",
                    (long long)sqlite3_column_int64(q.st, 0),
                    (long long)sqlite3_column_int64(q.st, 1));
    qn_buf_adds(b, " END");
    return qn_store__end(&q);
}

/* The fold's copy into *sql (the caller's to release): by CASE where the
 * input has few rules and runs, else fallback's joins. */
static int fold_sql(qn_store *s, int mapped, const char *fallback, qn_buf *sql,
                    qn_err *err)
{
    qn_buf rule = QN_BUF_INIT, run = QN_BUF_INIT;
    long long nrule = 0, nrun = 0;
    int rc = case_of(s, "merge_rules", "p.rule_id", &rule, &nrule, err);

    if (rc == QN_OK && nrule <= CASE_MAX)
        rc = case_of(s, "merge_runs", "p.run_id", &run, &nrun, err);
    if (rc == QN_OK && nrule <= CASE_MAX && nrun <= CASE_MAX)
        qn_buf_addf(sql, fold_fmt[mapped], rule.buf, run.buf);
    else if (rc == QN_OK)
        qn_buf_adds(sql, fallback);
    if (rc == QN_OK && (rule.failed || run.failed || sql->failed))
        rc = qn_err_nomem(err);
    qn_buf_release(&rule);
    qn_buf_release(&run);
    return rc;
}

/* A met row (?1) against OUT's row (?2): the winner rule, as the unique
 * key's upsert applied it, with the same WHERE, so that it changes (and
 * the trigger notes) the same rows. */
#define MEET(GRADE)                                                                                                                                                                                                                                                                                                                \
    "UPDATE main.puzzles SET" TAKE("state") "," TAKE("min_presses") "," TAKE("optimal") "," TAKE("witness") "," TAKE(                                                                                                                                                                                                              \
        "grade") "," TAKE("grader") "," TAKE("seed") "," TAKE("stream_index") "," TAKE("provenance") "," TAKE("run_id") "," TAKE("submission") "," TAKE("source") "," TAKE("meta") "," TAKE("human_level") "," TAKE("human_score") "," TAKE("human_model") " FROM (SELECT mr.main AS rule_id, p.state AS state,"                   \
                                                                                                                                                                                                                                                           " p.min_presses AS min_presses, p.optimal AS optimal, p.witness AS"     \
                                                                                                                                                                                                                                                           " witness, " GRADE                                                      \
                                                                                                                                                                                                                                                           " AS grade, p.grader AS grader, p.seed AS seed,"                        \
                                                                                                                                                                                                                                                           " p.stream_index AS stream_index, p.provenance AS provenance, mru.main" \
                                                                                                                                                                                                                                                           " AS run_id, p.submission AS submission, p.source AS source, p.meta AS" \
                                                                                                                                                                                                                                                           " meta, p.human_level AS human_level, p.human_score AS human_score,"    \
                                                                                                                                                                                                                                                           " p.human_model AS human_model" FROM_SRC                                \
                                                                                                                                                                                                                                                           " WHERE p.id = ?1) AS x"                                                \
                                                                                                                                                                                                                                                           " WHERE puzzles.id = ?2 AND x.seed IS NOT NULL"                         \
                                                                                                                                                                                                                                                           " AND puzzles.seed IS NOT NULL AND " IN_KEY                             \
                                                                                                                                                                                                                                                           " IS NOT " OUT_KEY

static const char *const meet_sql[2] = {MEET(SAME_GRADES), MEET(MAPPED_GRADES)};

/* The input's grade names into OUT (in the input's order of ids: the
 * same result whatever the grouping of merges), then whether any of the
 * input's codes means another name in OUT: *mapped, with merge_grades
 * holding the map. */
static const char grades_sql[] =
    "INSERT INTO main.grades (name) SELECT name FROM src.grades"
    " WHERE name NOT IN (SELECT name FROM main.grades) ORDER BY id;"
    "CREATE TEMP TABLE IF NOT EXISTS merge_grades (src INTEGER PRIMARY KEY,"
    " main INTEGER NOT NULL);"
    "DELETE FROM temp.merge_grades;"
    "INSERT INTO temp.merge_grades SELECT sg.id, mg.id"
    " FROM src.grades sg JOIN main.grades mg ON mg.name = sg.name";

static int merge_grades(qn_store *s, int *mapped, qn_err *err)
{
    long long n = 0;
    int rc = qn_store__exec(s, grades_sql, err);

    if (rc == QN_OK)
        rc = qn_store__int(s,
                           "SELECT count(*) FROM temp.merge_grades"
                           " WHERE src <> main",
                           &n, err);
    *mapped = n > 0;
    return rc;
}

/* The kept rows sorted: the met ones set aside in temp.merge_met. */
static int copy_sorted(qn_store *s, const char *sql, const qn_store__mplan *p,
                       int64_t *copied, qn_err *err)
{
    qn_store__stmt q;
    int rc = qn_store__exec(s,
                            "CREATE TEMP TABLE IF NOT EXISTS merge_met (src"
                            " INTEGER PRIMARY KEY); DELETE FROM temp.merge_met",
                            err);

    if (rc != QN_OK)
        return rc;
    qn_store__sql(&q, s, "INSERT OR IGNORE INTO temp.merge_met VALUES (?)",
                  err);
    for (size_t i = 0; i < p->n && q.rc == QN_OK; i++)
        if (p->v[i].met) {
            qn_store__bind_i64(&q, 1, p->v[i].src);
            qn_store__run(&q);
        }
    if ((rc = qn_store__end(&q)) == QN_OK &&
        (rc = qn_store__exec(s, sql, err)) == QN_OK)
        *copied += sqlite3_changes64(s->db);
    return rc;
}

/* The met rows against their OUT rows, in the copy's order. */
static int meet(qn_store *s, int mapped, const qn_store__mplan *p,
                int64_t *copied, qn_err *err)
{
    qn_store__stmt q;

    qn_store__sql(&q, s, meet_sql[mapped], err);
    for (size_t i = 0; i < p->n && q.rc == QN_OK; i++)
        if (p->v[i].met) {
            qn_store__bind_i64(&q, 1, p->v[i].src);
            qn_store__bind_i64(&q, 2, p->v[i].main);
            if (qn_store__run(&q) == QN_OK)
                *copied += sqlite3_changes64(s->db);
        }
    return qn_store__end(&q);
}

/* The rows took the ids the plan gave them (and the key runs). */
static int check_ids(qn_store *s, const qn_store__mplan *p, qn_err *err)
{
    long long now = 0;
    int rc = qn_store__int(s, "SELECT coalesce(max(id), 0) FROM main.puzzles",
                           &now, err);

    if (rc == QN_OK && now != p->last + (int64_t)p->nkept)
        rc = qn_err_set(err, QN_ERR, 0, 0,
                        "db merge copied %lld puzzles where it meant to "
                        "copy %zu",
                        now - p->last, p->nkept);
    return rc;
}

/* The kept rows, sorted. */
static int insert_sorted(qn_store *s, int mapped, const qn_store__mplan *p,
                         int64_t *copied, qn_err *err)
{
    const char *const *sql = copy_sql[mapped];
    int rc;

    if (!p->nmet) {
        if ((rc = qn_store__exec(s, sql[0], err)) == QN_OK)
            *copied += sqlite3_changes64(s->db);
    } else
        rc = copy_sorted(s, sql[1], p, copied, err);
    return rc;
}

int qn_store__merge_copy(qn_store *s, const char *in_path, qn_store__mplan *p,
                         int64_t *copied, int64_t *rows, qn_err *err)
{
    qn_buf sql = QN_BUF_INIT;
    long long last = 0;
    int mapped = 0, rc;

    *copied = *rows = 0;
    rc = qn_store__int(s, "SELECT coalesce(max(id), 0) FROM main.puzzles",
                       &last, err);
    if (rc == QN_OK)
        rc = merge_grades(s, &mapped, err);
    /* by row first, the pass in the copy: it learns the order as it
     * reads, and a rare input out of stream order is read again sorted */
    if (rc == QN_OK)
        rc = fold_sql(s, mapped, copy_sql[mapped][2], &sql, err);
    if (rc == QN_OK)
        rc = qn_store__merge_fold(s, in_path, sql.buf, last, p, copied, err);
    qn_buf_release(&sql);
    if (rc == QN_OK && !p->in_order) {
        /* the sets took the first pass's kept rows: read them again */
        qn_store__unique_forget(s);
        rc = qn_store__merge_plan(s, in_path, 1, last, p, err);
        if (rc == QN_OK)
            rc = insert_sorted(s, mapped, p, copied, err);
    }
    if (rc == QN_OK)
        rc = check_ids(s, p, err);
    if (rc == QN_OK && p->nmet)
        rc = meet(s, mapped, p, copied, err);
    *rows = (int64_t)p->n;
    /* The copy's key runs. An input copied whole by row, its ids without
     * gaps, took ids last + 1...: its own runs are OUT's, rows shifted,
     * which reads none of the rows again. Either way the input's runs
     * must hold the ids its states give. */
    if (rc == QN_OK) {
        int whole = !p->sorted && !p->nmet && p->n &&
                    p->max_id - p->min_id + 1 == (int64_t)p->n;
        rc = qn_store__runs_copy(s, in_path, p, whole, err);
        if (rc == QN_OK && !whole)
            rc = qn_store__runs_note_plan(s, p, err);
    }
    return rc;
}
