/*
 * store_merge.c: merging a shard database into this one (db merge):
 * the input is checked on its own first, then attached and copied in one
 * transaction, rules, runs and packs by their keys and puzzles by
 * (rule, canonical form) (store_merge_keys.c, store_merge_copy.c).
 */
#include "store/store.h"

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <sqlite3.h>

#include "base/mem.h"
#include "store_internal.h"

static const char *const merge_sql[] = {
    /* rules by hash */
    "INSERT OR IGNORE INTO main.rules (hash, name, yaml, cells, colours,"
    " facts, added, layout) SELECT hash, name, yaml, cells, colours, facts,"
    " added, layout FROM src.rules ORDER BY id",
    /* runs by key, rule ids mapped through the hash. Two copies of one
     * run (a shard merged once while it ran and again when it finished,
     * or through two intermediate databases of a merge tree): the copy
     * that got further (larger next_index) wins, whatever the order */
    "INSERT INTO main.runs (key, command, rule_id, seed, options,"
    " tool_version, requested, stored, duplicates, next_index, started,"
    " finished, status, summary) SELECT r.key, r.command, (SELECT m.id FROM"
    " main.rules m JOIN src.rules sr ON sr.hash = m.hash WHERE sr.id ="
    " r.rule_id), r.seed, r.options, r.tool_version, r.requested, r.stored,"
    " r.duplicates, r.next_index, r.started, r.finished, r.status,"
    " r.summary FROM src.runs r WHERE true ORDER BY r.id"
    " ON CONFLICT (key) DO UPDATE SET tool_version = excluded.tool_version,"
    " requested = excluded.requested, stored = excluded.stored,"
    " duplicates = excluded.duplicates, next_index = excluded.next_index,"
    " finished = excluded.finished, status = excluded.status,"
    " summary = excluded.summary"
    " WHERE excluded.next_index > runs.next_index",
    /* a rule OUT holds without its board's layout (stored by an older
     * quench and never stored again) takes the input's */
    "UPDATE main.rules SET layout = sr.layout FROM src.rules sr"
    " WHERE sr.hash = rules.hash AND rules.layout IS NULL"
    " AND sr.layout IS NOT NULL",
};

#define NMERGE (sizeof(merge_sql) / sizeof(*merge_sql))

/*
 * Packs, by name. A pack new to this database is copied as it is. Two
 * copies built by the same generator run family and never edited since
 * (version 1: shards of one build) join as the single run would have made
 * them: the union, in stream order, still version 1, whatever order the
 * shards are merged in. Otherwise the input's members not yet in the pack
 * are appended in its order, and a pack that changed takes a version past
 * both copies'.
 */
typedef struct merge_pack {
    int64_t src, main; /* pack ids */
    int64_t src_version, main_version;
    int shards; /* one build, both unedited */
} merge_pack;

/* OUT's row of the input's row src by the copy's plan (sorted by input
 * row: map_sort), or 0: a row the copy dropped. */
static int by_src(const void *a, const void *b)
{
    int64_t x = ((const qn_store__mrow *)a)->src,
            y = ((const qn_store__mrow *)b)->src;

    return (x > y) - (x < y);
}

static void map_sort(qn_store__mplan *p)
{
    if (p->sorted) /* by row it is in order of input rows already */
        qsort(p->v, p->n, sizeof(*p->v), by_src);
    p->sorted = 0;
}

static int64_t map_find(const qn_store__mplan *p, int64_t src)
{
    size_t lo = 0, hi = p->n;

    while (lo < hi) {
        size_t mid = lo + (hi - lo) / 2;
        if (p->v[mid].src < src)
            lo = mid + 1;
        else
            hi = mid;
    }
    return lo < p->n && p->v[lo].src == src ? p->v[lo].main : 0;
}

/* The input's members not yet in the pack, appended in its order, each
 * mapped to its OUT row by the copy's plan (an input holding one puzzle
 * twice maps both to one row: it goes in once): *added. */
static int append_members(qn_store *s, const merge_pack *mp,
                          const qn_store__mplan *plan, int64_t *added,
                          qn_err *err)
{
    qn_store__stmt has, ins;
    int64_t *v = NULL;
    size_t n = 0, m = 0;
    long long pos = 0;
    char sql[160];
    int rc;

    *added = 0;
    snprintf(sql, sizeof(sql),
             "SELECT coalesce(max(position), 0) FROM main.pack_puzzles"
             " WHERE pack_id = %lld",
             (long long)mp->main);
    rc = qn_store__int(s, sql, &pos, err);
    if (rc == QN_OK)
        rc = qn_store__pack_ids(s,
                                "SELECT puzzle_id FROM src.pack_puzzles"
                                " WHERE pack_id = ? ORDER BY position",
                                mp->src, &v, &n, err);
    for (size_t i = 0; rc == QN_OK && i < n; i++)
        if ((v[m] = map_find(plan, v[i])) != 0)
            m++;
    if (rc == QN_OK && m && (uint64_t)pos > (uint64_t)(INT64_MAX - m)) {
        /* positions are 1..count: a damaged pack */
        qn_err_source(err, s->path);
        rc = qn_err_set(err, QN_EDB, 0, 0,
                        "pack %lld has a member at position %lld and no "
                        "room after it: the database is damaged",
                        (long long)mp->main, pos);
    }
    if (rc != QN_OK || !m) {
        free(v);
        return rc;
    }
    qn_store__sql(&has, s,
                  "SELECT 1 FROM main.pack_puzzles WHERE pack_id = ?"
                  " AND puzzle_id = ?",
                  err);
    qn_store__sql(&ins, s,
                  "INSERT INTO main.pack_puzzles (pack_id,"
                  " puzzle_id, position) VALUES (?, ?, ?)",
                  err);
    for (size_t i = 0; has.rc == QN_OK && ins.rc == QN_OK && i < m; i++) {
        int there;
        qn_store__bind_i64(&has, 1, mp->main);
        qn_store__bind_i64(&has, 2, v[i]);
        there = qn_store__row(&has);
        if (has.st)
            sqlite3_reset(has.st);
        if (there || has.rc != QN_OK)
            continue;
        qn_store__bind_i64(&ins, 1, mp->main);
        qn_store__bind_i64(&ins, 2, v[i]);
        qn_store__bind_i64(&ins, 3, ++pos);
        if (qn_store__run(&ins) == QN_OK)
            ++*added;
    }
    rc = qn_store__end(&has);
    if (qn_store__end(&ins) != QN_OK && rc == QN_OK)
        rc = ins.rc;
    free(v);
    return rc;
}

/* Shards of one build: the membership in stream order (seed, stream
 * index; the state orders two families' puzzles drawn at one index). */
static int order_by_stream(qn_store *s, int64_t pack, qn_err *err)
{
    int64_t *v = NULL;
    size_t n = 0;
    int rc = qn_store__pack_ids(
        s,
        "SELECT p.id FROM main.pack_puzzles pp JOIN main.puzzles p"
        " ON p.id = pp.puzzle_id WHERE pp.pack_id = ?"
        " ORDER BY " QN_STORE_SEED_SQL("p", "main") ", p.stream_index,"
                                                    " p.state, pp.position",
        pack, &v, &n, err);

    if (rc == QN_OK)
        rc = qn_store__pack_write(s, pack, v, n, 0, err);
    /* one run appending gives slots 1..n in this order */
    if (rc == QN_OK)
        rc = qn_store__pack_renumber(s, pack, err);
    free(v);
    return rc;
}

/* The input pack's copy in this database: found, or created. */
static int pack_copy(qn_store *s, sqlite3_stmt *src, merge_pack *mp,
                     int64_t *created, qn_err *err)
{
    qn_store__stmt q;
    int rc, found;

    mp->src = sqlite3_column_int64(src, 0);
    mp->src_version = sqlite3_column_int64(src, 5);
    qn_store__sql(&q, s,
                  "SELECT id, version, build FROM main.packs"
                  " WHERE name = ?",
                  err);
    qn_store__bind_value(&q, 1, sqlite3_column_value(src, 1));
    if ((found = qn_store__row(&q))) {
        const char *build = qn_store__col_str(src, 8);
        mp->main = sqlite3_column_int64(q.st, 0);
        mp->main_version = sqlite3_column_int64(q.st, 1);
        mp->shards = *build && !strcmp(build, qn_store__col_str(q.st, 2)) &&
                     mp->main_version == 1 && mp->src_version == 1;
    }
    if ((rc = qn_store__end(&q)) != QN_OK || found)
        return rc;
    qn_store__sql(&q, s,
                  "INSERT INTO main.packs (name, title, description,"
                  " author, version, created, modified, build)"
                  " SELECT name, title, description, author, version,"
                  " created, modified, build FROM src.packs WHERE id = ?",
                  err);
    qn_store__bind_i64(&q, 1, mp->src);
    qn_store__run(&q);
    rc = qn_store__end(&q);
    mp->main = sqlite3_last_insert_rowid(s->db);
    mp->main_version = mp->src_version;
    mp->shards = 1; /* a copy: nothing to bump, nothing to reorder */
    ++*created;
    return rc;
}

static int merge_one_pack(qn_store *s, sqlite3_stmt *src,
                          const qn_store__mplan *plan, qn_store_merge_stats *st,
                          qn_err *err)
{
    merge_pack mp;
    int64_t added = 0, created = 0;
    int rc = pack_copy(s, src, &mp, &created, err);

    if (rc == QN_OK)
        rc = append_members(s, &mp, plan, &added, err);
    if (rc == QN_OK && added && mp.shards && !created)
        rc = order_by_stream(s, mp.main, err);
    if (rc == QN_OK && added && !mp.shards) {
        char sql[160];
        int64_t v =
            mp.main_version > mp.src_version ? mp.main_version : mp.src_version;
        snprintf(sql, sizeof(sql),
                 "UPDATE main.packs SET version = %lld WHERE id = %lld",
                 (long long)v, (long long)mp.main);
        if ((rc = qn_store__exec(s, sql, err)) == QN_OK)
            rc = qn_store__bump_version(s, mp.main, err);
    }
    st->packs += created;
    st->pack_entries += added;
    return rc;
}

static int merge_packs(qn_store *s, qn_store__mplan *plan,
                       qn_store_merge_stats *st, qn_err *err)
{
    qn_store__stmt src;

    map_sort(plan);
    qn_store__sql(&src, s,
                  "SELECT id, name, title, description, author,"
                  " version, created, modified, build FROM src.packs"
                  " ORDER BY id",
                  err);
    while (qn_store__row(&src))
        src.rc = merge_one_pack(s, src.st, plan, st, err);
    return qn_store__end(&src);
}

/*
 * A pack built by one run family and unedited since (version 1) is in
 * stream order. When a merge changes which copy of a member OUT keeps
 * (a smaller stream index from another family with the same seed, say),
 * that order must follow, or the result would depend on whether the pack
 * or the smaller copy came first. The copy updates every member whose
 * two copies differ (store_merge_copy.c), this trigger notes it, and
 * resort_moved reorders the packs that hold one. Created and dropped
 * inside the merge's transaction (IF NOT EXISTS: a drop that failed for
 * want of memory leaves them for the next merge to reuse).
 */
static const char track_sql[] =
    "CREATE TEMP TABLE IF NOT EXISTS merge_moved (id INTEGER PRIMARY KEY);"
    "DELETE FROM temp.merge_moved;"
    "CREATE TEMP TRIGGER IF NOT EXISTS merge_track AFTER UPDATE ON"
    " main.puzzles BEGIN INSERT OR IGNORE INTO merge_moved VALUES (new.id);"
    " END";
static const char untrack_sql[] = "DROP TRIGGER IF EXISTS temp.merge_track;"
                                  "DROP TABLE IF EXISTS temp.merge_moved;"
                                  "DROP TABLE IF EXISTS temp.merge_rules;"
                                  "DROP TABLE IF EXISTS temp.merge_grades;"
                                  "DROP TABLE IF EXISTS temp.merge_met;"
                                  "DROP TABLE IF EXISTS temp.merge_runs";

/* The input's rule and run ids as OUT numbers them (after merge_sql
 * copied them), with what the stream order reads of them. */
static const char merge_ids_sql[] =
    "CREATE TEMP TABLE IF NOT EXISTS merge_rules (src INTEGER PRIMARY KEY,"
    " main INTEGER NOT NULL, hash TEXT NOT NULL);"
    "DELETE FROM temp.merge_rules;"
    "INSERT INTO temp.merge_rules SELECT sr.id, mr.id, sr.hash"
    " FROM src.rules sr JOIN main.rules mr ON mr.hash = sr.hash;"
    "CREATE TEMP TABLE IF NOT EXISTS merge_runs (src INTEGER PRIMARY KEY,"
    " main INTEGER NOT NULL, seed TEXT NOT NULL);"
    "DELETE FROM temp.merge_runs;"
    "INSERT INTO temp.merge_runs SELECT sru.id, mru.id, sru.seed"
    " FROM src.runs sru JOIN main.runs mru ON mru.key = sru.key";

static int resort_moved(qn_store *s, qn_err *err)
{
    int64_t *v = NULL;
    size_t n = 0;
    /* ?1 is bound to 1: the unedited build packs that hold a moved puzzle */
    int rc = qn_store__pack_ids(
        s,
        "SELECT DISTINCT k.id FROM temp.merge_moved m"
        " JOIN main.pack_puzzles pp ON pp.puzzle_id = m.id"
        " JOIN main.packs k ON k.id = pp.pack_id"
        " WHERE k.version = ?1 AND k.build <> '' ORDER BY k.id",
        1, &v, &n, err);

    for (size_t i = 0; rc == QN_OK && i < n; i++)
        rc = order_by_stream(s, v[i], err);
    free(v);
    return rc;
}

static int merge_check_pack(void *err, const qn_store_pack *p)
{
    return qn_store_pack_check(p, err);
}

/* Attach in_path as src. A merge whose DETACH failed (it needs memory
 * too) left src attached, and ATTACH then failed with "database src is
 * already in use" (found by failing SQLite's allocations,
 * tests/faults.sh): detach such a leftover first. */
static int merge_attach(qn_store *s, const char *in_path, qn_err *err)
{
    long long left = 0;
    qn_store__stmt at;
    int rc;

    rc = qn_store__int(s,
                       "SELECT count(*) FROM pragma_database_list"
                       " WHERE name = 'src'",
                       &left, err);
    if (rc == QN_OK && left)
        rc = qn_store__exec(s, "DETACH DATABASE src", err);
    if (rc != QN_OK)
        return rc;
    qn_store__sql(&at, s, "ATTACH DATABASE ? AS src", err);
    qn_store__bind_str(&at, 1, in_path);
    qn_store__run(&at);
    rc = qn_store__end(&at);
    /* src keeps SQLite's small default cache: the copy reads the input
     * once, in row order, and a 64 MiB one cost 4% of a merge in page
     * faults for nothing */
    return rc;
}

/* PRAGMA quick_check of the schema db ("main", "src"): QN_OK when it
 * says ok, else QN_EDB with its first finding and *damaged set (a check
 * that could not run leaves it 0). */
static int quick_check(qn_store *s, const char *db, int *damaged, qn_err *err)
{
    qn_store__stmt q;

    *damaged = 0;
    qn_store__sql(&q, s, "SELECT quick_check FROM pragma_quick_check(1, ?)",
                  err);
    qn_store__bind_str(&q, 1, db);
    if (qn_store__row(&q) && strcmp(qn_store__col_str(q.st, 0), "ok")) {
        /* "*** in database main ***\nPage 7: ..." on one line */
        const char *why = qn_store__col_str(q.st, 0), *nl = strrchr(why, '\n');
        if (qn_store__check_nomem(why)) {
            q.rc = qn_err_nomem(err);
            return qn_store__end(&q);
        }
        *damaged = 1;
        q.rc = qn_err_set(err, QN_EDB, 0, 0, "database is damaged: %s",
                          nl ? nl + 1 : why);
    }
    return qn_store__end(&q);
}

/* What keeps in_path from being merged: missing, foreign, newer, at
 * another schema version, or damaged. Errors name in_path. */
int qn_store__merge_input_ok(const char *in_path, int deep, qn_err *err)
{
    qn_store *in = NULL;
    int rc, ver, damaged;

    rc = qn_store_open(&in, in_path, QN_STORE_READONLY | QN_STORE_NO_MIGRATE,
                       err);
    if (rc == QN_OK && (rc = qn_store_version(in, &ver, err)) == QN_OK &&
        ver != qn_store_schema_version())
        rc = qn_err_set(err, QN_EINVAL, 0, 0,
                        "schema version %d, expected %d; run 'quench db "
                        "migrate' on it first",
                        ver, qn_store_schema_version());
    /* quick_check reads every page and record once: a damaged input is
     * refused before OUT changes, not found half-way into the merge */
    if (rc == QN_OK && deep)
        rc = quick_check(in, "main", &damaged, err);
    /* its packs pass the checks of every other way in (an older quench,
     * or sqlite3, may have written anything) */
    if (rc == QN_OK)
        rc = qn_store_pack_list(in, NULL, merge_check_pack, err, err);
    qn_store_close(in);
    if (rc != QN_OK)
        qn_err_source(err, in_path);
    return rc;
}

int qn_store_merge_check(const char *in_path, qn_err *err)
{
    return qn_store__merge_input_ok(in_path, 1, err);
}

/*
 * A merge statement failed: SQLite says "malformed" whichever of the two
 * files is damaged. Name the input when it is the damaged one, with what
 * quick_check found (as when it checked the input first: an OUT built
 * aside has its inputs checked by the copy's own read alone). A check of
 * the merge's own that failed (QN_ERR: the copy's rows did not take the
 * row ids planned) is a damaged OUT when OUT fails quick_check.
 */
static void blame_input(qn_store *s, const char *in_path, qn_err *err)
{
    qn_err why = QN_ERR_INIT;
    int damaged = 0;

    if (!err || (err->code != QN_EDB && err->code != QN_ERR))
        return;
    quick_check(s, "src", &damaged, &why);
    if (damaged) {
        *err = why;
        qn_err_source(err, in_path);
        return;
    }
    if (err->code != QN_ERR)
        return;
    why = (qn_err)QN_ERR_INIT;
    quick_check(s, "main", &damaged, &why);
    if (damaged) {
        *err = why;
        qn_err_source(err, s->path);
    }
}

/* Inside the transaction: rules, runs, puzzles, then packs. The stats
 * come from the statements' change counts, not from counting OUT's
 * puzzles before and after: that reads all of OUT twice per input, which
 * a flat merge of N shards does N times over a growing OUT. *rows: the
 * input's rows the copy read. */
static int merge_tx(qn_store *s, const char *in_path, qn_store_merge_stats *st,
                    int64_t *rows, qn_err *err)
{
    long long runs0 = 0, runs1 = 0, moved = 0;
    int64_t changes[NMERGE] = {0}, copied = 0;
    qn_store__mplan plan;
    int rc = qn_store__exec(s, track_sql, err);

    memset(&plan, 0, sizeof(plan));
    if (rc == QN_OK) /* the runs table has a row per shard: small */
        rc = qn_store__int(s, "SELECT count(*) FROM main.runs", &runs0, err);
    for (size_t i = 0; rc == QN_OK && i < NMERGE; i++)
        if ((rc = qn_store__exec(s, merge_sql[i], err)) == QN_OK)
            changes[i] = sqlite3_changes64(s->db);
    if (rc == QN_OK && (rc = qn_store__exec(s, merge_ids_sql, err)) == QN_OK)
        rc = qn_store__merge_copy(s, in_path, &plan, &copied, rows, err);
    if (rc == QN_OK)
        rc = qn_store__int(s, "SELECT count(*) FROM main.runs", &runs1, err);
    /* the copy's changes are its inserts and its updates, and the
     * trigger noted each row updated once */
    if (rc == QN_OK)
        rc = qn_store__int(s, "SELECT count(*) FROM temp.merge_moved", &moved,
                           err);
    st->rules = changes[0]; /* INSERT OR IGNORE: the new rules */
    st->runs = runs1 - runs0;
    st->puzzles = copied - moved;
    if (rc == QN_OK)
        rc = merge_packs(s, &plan, st, err);
    qn_store__mplan_release(&plan);
    if (rc == QN_OK)
        rc = resort_moved(s, err);
    if (rc == QN_OK)
        rc = qn_store__exec(s, untrack_sql, err);
    return rc;
}

int qn_store__merge(qn_store *s, const char *in_path, qn_store_gate_fn *gate,
                    void *ctx, qn_store_merge_stats *stats_out, qn_err *err)
{
    qn_store_merge_stats st = {0, 0, 0, 0, 0, 0};
    int64_t rows = 0;
    int rc, gated = 0;

    if (s->in_batch)
        return qn_err_set(err, QN_EINVAL, 0, 0, "cannot merge inside a batch");
    /* open the input on its own first: missing, foreign, newer or
     * corrupt inputs are reported against their own path */
    if ((rc = qn_store__merge_input_ok(in_path, 0, err)) != QN_OK)
        return rc;
    if ((rc = merge_attach(s, in_path, err)) != QN_OK)
        return rc;
    /* Every id the merge writes into a child key is one of OUT's own,
     * taken from its parent table in the same transaction (merge_ids_sql,
     * the runs' rule subquery, pack members joined through main.puzzles),
     * so SQLite's parent lookup a row (two a puzzle: 8% of the copy) would
     * find every parent: off for the merge's transaction and on again
     * after it (a connection setting, which SQLite ignores inside a
     * transaction). */
    rc = qn_store__exec(s, "PRAGMA foreign_keys = OFF", err);
    /* Built aside (qn_store_open_aside), nobody sees the file until it is
     * published, and a failure discards it whole: no journal to write.
     * The first input's transaction keeps one in memory, so that a
     * failure rolls it back; it holds only the few pages the file had
     * before (the schema). */
    if (rc == QN_OK && s->aside)
        rc = qn_store__exec(s,
                            s->aside == 1 ? "PRAGMA main.journal_mode = MEMORY"
                                          : "PRAGMA main.journal_mode = OFF",
                            err);
    if (rc == QN_OK)
        rc = qn_store__tx_begin(s, err);
    if (rc == QN_OK)
        rc = merge_tx(s, in_path, &st, &rows, err);
    if (rc == QN_OK && gate) /* its error is another input's */
        gated = (rc = gate(ctx, err)) != QN_OK;
    rc = qn_store__tx_end(s, rc, err);
    if (sqlite3_get_autocommit(s->db)) { /* else a rollback failed */
        int on = qn_store__exec(s, "PRAGMA foreign_keys = ON",
                                rc == QN_OK ? err : NULL);
        if (rc == QN_OK)
            rc = on;
    }
    if (rc != QN_OK) { /* err says why; the next merge detaches src */
        if (!gated)
            blame_input(s, in_path, err);
        sqlite3_exec(s->db, "DETACH DATABASE src", NULL, NULL, NULL);
        return rc;
    }
    /* The input is merged. A DETACH that fails (it needs memory) is
     * reported all the same: the caller may stop there, and merging the
     * input again adds nothing. */
    if ((rc = qn_store__exec(s, "DETACH DATABASE src", err)) != QN_OK)
        return rc;
    /* the pass and the copy read one snapshot of the input (a running
     * shard may gain rows meanwhile: the transaction's read of src holds
     * its snapshot); never below zero all the same */
    st.duplicates = rows > st.puzzles ? rows - st.puzzles : 0;
    if (s->aside)
        s->aside = 2;
    if (stats_out)
        *stats_out = st;
    return QN_OK;
}

int qn_store_merge(qn_store *s, const char *in_path,
                   qn_store_merge_stats *stats_out, qn_err *err)
{
    return qn_store__merge(s, in_path, NULL, NULL, stats_out, err);
}
