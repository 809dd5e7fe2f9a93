/*
 * store_rows.c: puzzles read back as qn_store_row, with their rule set:
 * a pack's puzzles in pack order, and every puzzle grouped by rule set
 * (db check).
 */
#include "quench/store.h"

#include <sqlite3.h>

#include "store_internal.h"

/* Columns 0..17 of ROW_COLUMNS into a row. The rule's YAML comes with
 * its puzzles from the same statement: a second query for it could
 * disagree with the first in a damaged file (one read through an index,
 * the other through the table). A seed '' is the run's (migration
 * 0004): QN_STORE_SEED_SQL. */
#define ROW_COLUMNS                                                        \
    "p.id, p.rule_id, r.hash, r.name, p.state, p.min_presses, p.optimal," \
    " p.witness, p.grade, p.grader, " QN_STORE_SEED_SQL("p", "main") ","   \
    " p.stream_index, p.provenance, r.yaml, p.uid, p.submission,"         \
    " p.source, p.meta"

static void read_row(sqlite3_stmt *st, qn_store_row *row)
{
    row->id = sqlite3_column_int64(st, 0);
    row->rule_id = sqlite3_column_int64(st, 1);
    row->rule_hash = qn_store__col_str(st, 2);
    row->rule_name = qn_store__col_str(st, 3);
    row->state = qn_store__col_str(st, 4);
    row->min_presses = (uint64_t)sqlite3_column_int64(st, 5);
    row->noptimal = (uint64_t)sqlite3_column_int64(st, 6);
    row->witness = qn_store__col_str(st, 7);
    row->grade = qn_store__col_text(st, 8);
    row->grader = qn_store__col_str(st, 9);
    row->seed = qn_store__col_text(st, 10);
    row->stream_index = sqlite3_column_type(st, 11) == SQLITE_NULL
                            ? -1
                            : sqlite3_column_int64(st, 11);
    row->provenance = qn_store__col_str(st, 12);
    row->rule_yaml = qn_store__col_str(st, 13);
    row->uid = (uint64_t)sqlite3_column_int64(st, 14);
    row->submission = qn_store__col_text(st, 15);
    row->source = qn_store__col_text(st, 16);
    row->meta = qn_store__col_text(st, 17);
    row->position = 0;
}

/* Step st (its parameters bound), each row to fn; col_position >= 0 is
 * the column of the pack position. Finalizes st. */
static int walk_rows(qn_store *s, sqlite3_stmt *st, int col_position,
                     qn_store_row_fn *fn, void *ctx, qn_err *err)
{
    int rc = 0, r;

    while ((r = sqlite3_step(st)) == SQLITE_ROW) {
        qn_store_row row;
        read_row(st, &row);
        if (col_position >= 0)
            row.position = sqlite3_column_int64(st, col_position);
        if ((rc = fn(ctx, &row)) != 0)
            break;
    }
    if (rc == 0 && r != SQLITE_DONE)
        rc = qn_store__fail(s, r, err);
    sqlite3_finalize(st);
    return rc;
}

int qn_store_pack_each(qn_store *s, int64_t pack_id, qn_store_row_fn *fn,
                       void *ctx, qn_err *err)
{
    sqlite3_stmt *st;
    int rc;

    if ((rc = qn_store__pack_exists(s, pack_id, err)) != QN_OK)
        return rc;
    rc = qn_store__prep(s, &st,
                        "SELECT " ROW_COLUMNS
                        ", pp.position FROM pack_puzzles pp"
                        " JOIN puzzles p ON p.id = pp.puzzle_id"
                        " JOIN rules r ON r.id = p.rule_id"
                        " WHERE pp.pack_id = ? ORDER BY pp.position",
                        err);
    if (rc != QN_OK)
        return rc;
    sqlite3_bind_int64(st, 1, pack_id);
    return walk_rows(s, st, 18, fn, ctx, err);
}

int qn_store_puzzle_row(qn_store *s, int64_t id, qn_store_row_fn *fn,
                        void *ctx, qn_err *err)
{
    sqlite3_stmt *st;
    int rc, r;

    rc = qn_store__prep(s, &st,
                        "SELECT " ROW_COLUMNS " FROM puzzles p"
                        " JOIN rules r ON r.id = p.rule_id WHERE p.id = ?",
                        err);
    if (rc != QN_OK)
        return rc;
    sqlite3_bind_int64(st, 1, id);
    r = sqlite3_step(st);
    if (r == SQLITE_ROW) {
        qn_store_row row;
        read_row(st, &row);
        rc = fn(ctx, &row);
    } else if (r == SQLITE_DONE) {
        rc = qn_err_set(err, QN_ENOTFOUND, 0, 0, "no puzzle at row %lld",
                        (long long)id);
    } else {
        rc = qn_store__fail(s, r, err);
    }
    sqlite3_finalize(st);
    return rc;
}

int qn_store_run_each(qn_store *s, int64_t run_id, qn_store_row_fn *fn,
                      void *ctx, qn_err *err)
{
    sqlite3_stmt *st;
    int rc;

    rc = qn_store__prep(s, &st,
                        "SELECT " ROW_COLUMNS " FROM puzzles p"
                        " JOIN rules r ON r.id = p.rule_id"
                        " WHERE p.run_id = ? ORDER BY p.stream_index, p.id",
                        err);
    if (rc != QN_OK)
        return rc;
    sqlite3_bind_int64(st, 1, run_id);
    return walk_rows(s, st, -1, fn, ctx, err);
}

int qn_store_each_puzzle(qn_store *s, qn_store_rule_fn *rule_fn,
                         qn_store_row_fn *puzzle_fn, void *ctx, qn_err *err)
{
    sqlite3_stmt *st;
    int64_t last = 0;
    int rc, r;

    rc = qn_store__prep(
        s, &st,
        "SELECT " ROW_COLUMNS " FROM puzzles p"
        " JOIN rules r ON r.id = p.rule_id ORDER BY p.rule_id, p.id",
        err);
    if (rc != QN_OK)
        return rc;
    while ((r = sqlite3_step(st)) == SQLITE_ROW) {
        qn_store_row row;
        read_row(st, &row);
        if (row.rule_id != last) {
            last = row.rule_id;
            if (rule_fn &&
                (rc = rule_fn(ctx, row.rule_id, row.rule_hash, row.rule_name,
                              row.rule_yaml)) != 0)
                break;
        }
        if ((rc = puzzle_fn(ctx, &row)) != 0)
            break;
    }
    if (rc == 0 && r != SQLITE_DONE)
        rc = qn_store__fail(s, r, err);
    sqlite3_finalize(st);
    return rc;
}
