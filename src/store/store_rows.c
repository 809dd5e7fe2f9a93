/*
 * store_rows.c: puzzles read back as qn_store_row, with their rule set:
 * a pack's puzzles in pack order, and every puzzle grouped by rule set
 * (db check).
 */
#include "store/store.h"

#include <stdlib.h>

#include <sqlite3.h>

#include "base/mem.h"

#include "store_internal.h"

/* Columns 0..22 of ROW_COLUMNS into a row. The rule's YAML and layout
 * come with its puzzles from the same statement: a second query for them
 * could disagree with the first in a damaged file (one read through an
 * index, the other through the table). A seed '' is the run's (migration
 * 0004): QN_STORE_SEED_SQL. */
#define ROW_COLUMNS                                                              \
    "p.id, p.rule_id, r.hash, r.name, p.state, p.min_presses, p.optimal,"        \
    " p.witness, (SELECT g.name FROM main.grades g WHERE g.id = p.grade),"       \
    " p.grader, " QN_STORE_SEED_SQL(                                             \
        "p",                                                                     \
        "main") ","                                                              \
                " p.stream_index, p.provenance, r.yaml, p.submission, p.source," \
                " p.meta, r.layout, r.cells, r.colours, p.human_level,"          \
                " p.human_score, p.human_model"
#define COL_POSITION 23

/* A walk's rule, read once per rule id rather than once per row, and
 * the texts of the row being visited. */
typedef struct reader {
    int loaded; /* rule_id's board is below (a damaged row's rule id
                   may be anything, 0 included) */
    int64_t rule_id;
    char *layout; /* rules.layout */
    int n;        /* the rule's cells, colours */
    unsigned k;
    size_t len;            /* packed bytes of a state */
    uint8_t *cells;        /* n */
    char *state, *witness; /* qn_store__cells_text_max bytes each */
    qn_store__pid pid;     /* the rule's ids: a row's from its state */
    int need_id;           /* 1: a rule whose text does not load stops the walk;
                              0 (db check, which reports it): its rows' uid is 0 */
} reader;

static void reader_release(reader *rd)
{
    free(rd->layout);
    free(rd->cells);
    free(rd->state);
    free(rd->witness);
    qn_store__pid_release(&rd->pid);
}

static int damaged(qn_store *s, int64_t id, const char *what, qn_err *err)
{
    qn_err_source(err, s->path);
    return qn_err_set(err, QN_EDB, 0, 0,
                      "puzzle at row %lld: %s: the database is damaged",
                      (long long)id, what);
}

/* The row's rule into rd, unless it is there already. */
static int load_rule(qn_store *s, sqlite3_stmt *st, reader *rd, qn_err *err)
{
    int64_t rule_id = sqlite3_column_int64(st, 1);
    const char *layout = qn_store__col_text(st, 17);
    int n = sqlite3_column_int(st, 18);
    unsigned k = (unsigned)sqlite3_column_int(st, 19);
    char *copy, *state, *witness;
    uint8_t *cells;
    size_t max;

    if (rd->loaded && rd->rule_id == rule_id)
        return QN_OK;
    rd->loaded = 0;
    if (!layout) {
        qn_err_source(err, s->path);
        return qn_err_set(err, QN_EDB, 0, 0,
                          "rule set %lld has no board layout: store the "
                          "rule set again (generate or validate with it)",
                          (long long)rule_id);
    }
    if (n < 1 || k < 2 || k > 255 || !qn_store__layout_check(layout, n))
        return damaged(s, sqlite3_column_int64(st, 0),
                       "its rule set's layout, cells or colours", err);
    max = qn_store__cells_text_max(layout, n);
    /* a block that cannot grow stays as it was: rd stays valid, its rule
     * unloaded */
    if ((cells = qn_realloc(rd->cells, (size_t)n)))
        rd->cells = cells;
    if ((state = qn_realloc(rd->state, max)))
        rd->state = state;
    if ((witness = qn_realloc(rd->witness, max)))
        rd->witness = witness;
    if (!cells || !state || !witness || !(copy = qn_strdup(layout)))
        return qn_err_nomem(err);
    free(rd->layout);
    rd->layout = copy;
    rd->n = n;
    rd->k = k;
    rd->len = qn_store_canon_size(n, k);
    rd->rule_id = rule_id;
    rd->loaded = 1;
    return QN_OK;
}

/* The packed cells of column col as text at out. */
static int unpack(qn_store *s, sqlite3_stmt *st, int col, const reader *rd,
                  char *out, const char *what, qn_err *err)
{
    /* the type first: after a conversion SQLite leaves it undefined */
    int type = sqlite3_column_type(st, col);
    const uint8_t *b = sqlite3_column_blob(st, col);

    if (type != SQLITE_BLOB || (size_t)sqlite3_column_bytes(st, col) != rd->len)
        return damaged(s, sqlite3_column_int64(st, 0), what, err);
    qn_store_canon_unpack(rd->cells, b, rd->n, rd->k);
    for (int i = 0; i < rd->n; i++)
        if (rd->cells[i] >= rd->k)
            return damaged(s, sqlite3_column_int64(st, 0), what, err);
    qn_store__cells_put(out, rd->layout, rd->cells);
    return QN_OK;
}

/* Columns 20..22: the human grade, all NULL (not graded) or all set
 * within the migration's checks. */
static int read_human(qn_store *s, sqlite3_stmt *st, qn_store_row *row,
                      qn_err *err)
{
    int nulls = 0;

    for (int c = 20; c <= 22; c++)
        nulls += sqlite3_column_type(st, c) == SQLITE_NULL;
    row->human_level = -1;
    row->human_score = 0;
    row->human_model = 0;
    if (nulls == 3)
        return QN_OK;
    int64_t level = sqlite3_column_int64(st, 20);
    int64_t model = sqlite3_column_int64(st, 22);
    if (nulls || level < 0 || level > 3 || model < 1 || model > INT32_MAX ||
        sqlite3_column_type(st, 20) != SQLITE_INTEGER ||
        sqlite3_column_type(st, 21) != SQLITE_INTEGER ||
        sqlite3_column_type(st, 22) != SQLITE_INTEGER)
        return damaged(s, sqlite3_column_int64(st, 0), "human grade", err);
    row->human_level = (int)level;
    row->human_score = sqlite3_column_int64(st, 21);
    row->human_model = (int)model;
    return QN_OK;
}

static int read_row(qn_store *s, sqlite3_stmt *st, reader *rd,
                    qn_store_row *row, qn_err *err)
{
    int64_t provenance = sqlite3_column_int64(st, 12);
    int rc;

    if (provenance < QN_STORE_GENERATE || provenance > QN_STORE_IMPORT ||
        sqlite3_column_type(st, 12) != SQLITE_INTEGER)
        return damaged(s, sqlite3_column_int64(st, 0), "provenance", err);
    if ((rc = load_rule(s, st, rd, err)) != QN_OK ||
        (rc = qn_store__pid_rule(
             &rd->pid, rd->rule_id, qn_store__col_text(st, 2),
             qn_store__col_text(st, 13), rd->n, rd->k, err)) != QN_OK ||
        (rd->need_id && (rc = qn_store__pid_need(s, &rd->pid, err)) != QN_OK))
        return rc;
    /* the id from the state, before the witness takes rd->cells over */
    if ((rc = unpack(s, st, 4, rd, rd->state, "state", err)) != QN_OK)
        return rc;
    row->uid = rd->pid.rules ? qn_store__pid_of(&rd->pid, rd->cells) : 0;
    if ((rc = unpack(s, st, 7, rd, rd->witness, "witness", err)) != QN_OK)
        return rc;
    row->id = sqlite3_column_int64(st, 0);
    row->rule_id = sqlite3_column_int64(st, 1);
    row->rule_hash = qn_store__col_str(st, 2);
    row->rule_name = qn_store__col_str(st, 3);
    row->state = rd->state;
    row->min_presses = (uint64_t)sqlite3_column_int64(st, 5);
    row->noptimal = (uint64_t)sqlite3_column_int64(st, 6);
    row->witness = rd->witness;
    row->grade = qn_store__col_text(st, 8);
    row->grader = qn_store__col_str(st, 9);
    row->seed = qn_store__col_text(st, 10);
    row->stream_index = sqlite3_column_type(st, 11) == SQLITE_NULL
                            ? -1
                            : sqlite3_column_int64(st, 11);
    row->provenance = qn_store_provenance_name((qn_store_provenance)provenance);
    row->rule_yaml = qn_store__col_str(st, 13);
    row->submission = qn_store__col_text(st, 14);
    row->source = qn_store__col_text(st, 15);
    row->meta = qn_store__col_text(st, 16);
    row->position = 0;
    row->slot = 0;
    row->section = "";
    return read_human(s, st, row, err);
}

/* Step q (its parameters bound), each row to fn; col_position >= 0 is
 * the column of the pack position (the slot and section after it).
 * Ends q. */
static int walk_rows(qn_store__stmt *q, int col_position, qn_store_row_fn *fn,
                     void *ctx)
{
    reader rd = {.need_id = 1};
    int rc = 0;

    while (qn_store__row(q)) {
        sqlite3_stmt *st = q->st;
        qn_store_row row;
        if ((rc = read_row(q->s, st, &rd, &row, q->err)) != QN_OK)
            break;
        if (col_position >= 0) {
            row.position = sqlite3_column_int64(st, col_position);
            row.slot = sqlite3_column_int64(st, col_position + 1);
            row.section = qn_store__col_str(st, col_position + 2);
        }
        if ((rc = fn(ctx, &row)) != 0)
            break;
    }
    qn_store__end(q);
    reader_release(&rd);
    return rc ? rc : q->rc;
}

int qn_store_pack_each(qn_store *s, int64_t pack_id, qn_store_row_fn *fn,
                       void *ctx, qn_err *err)
{
    qn_store__stmt q;
    int rc;

    if ((rc = qn_store__pack_exists(s, pack_id, err)) != QN_OK)
        return rc;
    qn_store__sql(&q, s,
                  "SELECT " ROW_COLUMNS
                  ", pp.position, pp.slot, pp.section FROM pack_puzzles pp"
                  " JOIN puzzles p ON p.id = pp.puzzle_id"
                  " JOIN rules r ON r.id = p.rule_id"
                  " WHERE pp.pack_id = ? ORDER BY pp.position",
                  err);
    qn_store__bind_i64(&q, 1, pack_id);
    return walk_rows(&q, COL_POSITION, fn, ctx);
}

int qn_store_puzzle_row(qn_store *s, int64_t id, qn_store_row_fn *fn, void *ctx,
                        qn_err *err)
{
    qn_store__stmt q;
    int rc = 0;

    qn_store__sql(&q, s,
                  "SELECT " ROW_COLUMNS " FROM puzzles p"
                  " JOIN rules r ON r.id = p.rule_id WHERE p.id = ?",
                  err);
    qn_store__bind_i64(&q, 1, id);
    if (qn_store__row(&q)) {
        reader rd = {.need_id = 1};
        qn_store_row row;
        if ((rc = read_row(s, q.st, &rd, &row, err)) == QN_OK)
            rc = fn(ctx, &row);
        reader_release(&rd);
    } else if (q.rc == QN_OK) {
        q.rc = qn_err_set(err, QN_ENOTFOUND, 0, 0, "no puzzle at row %lld",
                          (long long)id);
    }
    qn_store__end(&q);
    return rc ? rc : q.rc;
}

int qn_store_run_each(qn_store *s, int64_t run_id, qn_store_row_fn *fn,
                      void *ctx, qn_err *err)
{
    qn_store__stmt q;

    qn_store__sql(&q, s,
                  "SELECT " ROW_COLUMNS " FROM puzzles p"
                  " JOIN rules r ON r.id = p.rule_id"
                  " WHERE p.run_id = ? ORDER BY p.stream_index, p.id",
                  err);
    qn_store__bind_i64(&q, 1, run_id);
    return walk_rows(&q, -1, fn, ctx);
}

int qn_store_each_puzzle(qn_store *s, qn_store_rule_fn *rule_fn,
                         qn_store_row_fn *puzzle_fn, void *ctx, qn_err *err)
{
    qn_store__stmt q;
    reader rd = {0};
    int64_t last = 0;
    int rc = 0;

    qn_store__sql(&q, s,
                  "SELECT " ROW_COLUMNS " FROM puzzles p"
                  " JOIN rules r ON r.id = p.rule_id ORDER BY p.rule_id, p.id",
                  err);
    while (qn_store__row(&q)) {
        qn_store_row row;
        if ((rc = read_row(s, q.st, &rd, &row, err)) != QN_OK)
            break;
        if (row.rule_id != last) {
            last = row.rule_id;
            if (rule_fn && (rc = rule_fn(ctx, row.rule_id, row.rule_hash,
                                         row.rule_name, row.rule_yaml)) != 0)
                break;
        }
        if ((rc = puzzle_fn(ctx, &row)) != 0)
            break;
    }
    qn_store__end(&q);
    reader_release(&rd);
    return rc ? rc : q.rc;
}
