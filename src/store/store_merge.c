/*
 * store_merge.c: merging a shard database into this one (db merge):
 * the input is checked on its own first, then attached and copied in one
 * transaction, rules, runs and packs by their keys and puzzles by
 * (rule, canonical key).
 */
#include "store/store.h"

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <sqlite3.h>

#include "base/mem.h"
#include "store_internal.h"

/* A puzzle copy's rank: the input's (IN_KEY) beats OUT's (OUT_KEY) when
 * smaller; both have a seed (the upsert's WHERE). */
#define IN_KEY                                                                 \
    "(" QN_STORE_SEED_SQL("excluded",                                          \
                          "main") ", excluded.stream_index, excluded.state)"
#define OUT_KEY                                                                \
    "(" QN_STORE_SEED_SQL("puzzles",                                           \
                          "main") ", puzzles.stream_index, puzzles.state)"
#define WINS IN_KEY " < " OUT_KEY

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

/* Puzzles by (rule, canon). Of two copies of one puzzle the one with
 * the smaller (seed, stream index, state) wins: within a run family
 * the earlier stream index, as a single run keeps the first
 * occurrence; the state only breaks ties between families that drew
 * different orientations at one index. A total order, so the result
 * is the same whatever order and grouping the inputs are merged in
 * (copies without a seed, from validate or import, never replace nor
 * are replaced: OUT's stays). Copies that differ are updated, the
 * loser's values kept, so the moved-puzzle trigger (merge_track)
 * sees both outcomes.
 *
 * The copies go in stream order (rule hash, seed, stream index, row), so
 * OUT numbers its rows the same way whatever the inputs' layout. The
 * input's own rows are usually in that order already (a generate shard
 * stores its candidates in stream order, and a merge writes them so):
 * a scan on another connection finds out (store_merge_order.c), and the
 * copy then reads them by row, without sorting the whole input in a
 * temporary B-tree. NOT INDEXED: the planner would otherwise read the
 * table through its unique index, in random order.
 */
#define COPY_HEAD(GRADE)                                                       \
    "INSERT INTO main.puzzles (rule_id, state, canon,"                         \
    " min_presses, optimal, witness, grade, grader, seed, stream_index,"       \
    " provenance, run_id, uid, submission, source, meta, human_level,"         \
    " human_score, human_model) SELECT mr.main,"                               \
    " p.state, p.canon, p.min_presses, p.optimal, p.witness, " GRADE ","       \
    " p.grader, p.seed, p.stream_index, p.provenance, mru.main, p.uid,"        \
    " p.submission, p.source, p.meta, p.human_level, p.human_score,"           \
    " p.human_model" FROM_SRC " WHERE true ORDER BY "
/* The input's puzzles with their rules and runs as OUT numbers them
 * (merge_ids: an integer lookup a row, not two text ones) */
#define FROM_SRC                                                               \
    " FROM src.puzzles p NOT INDEXED"                                          \
    " JOIN temp.merge_rules mr ON mr.src = p.rule_id"                          \
    " LEFT JOIN temp.merge_runs mru ON mru.src = p.run_id"
/* the input's seed of p: '' is its run's (QN_STORE_SEED_SQL) */
#define SRC_SEED "iif(p.seed = '', mru.seed, p.seed)"
#define COPY_TAIL                                                              \
    " ON CONFLICT (uid, rule_id, canon) DO UPDATE SET"                         \
    " state = iif(" WINS ", excluded.state, state),"                           \
    " min_presses = iif(" WINS ", excluded.min_presses, min_presses),"         \
    " optimal = iif(" WINS ", excluded.optimal, optimal),"                     \
    " witness = iif(" WINS ", excluded.witness, witness),"                     \
    " grade = iif(" WINS ", excluded.grade, grade),"                           \
    " grader = iif(" WINS ", excluded.grader, grader),"                        \
    " seed = iif(" WINS ", excluded.seed, seed),"                              \
    " stream_index = iif(" WINS ", excluded.stream_index, stream_index),"      \
    " provenance = iif(" WINS ", excluded.provenance, provenance),"            \
    " run_id = iif(" WINS ", excluded.run_id, run_id),"                        \
    " submission = iif(" WINS ", excluded.submission, submission),"            \
    " source = iif(" WINS ", excluded.source, source),"                        \
    " meta = iif(" WINS ", excluded.meta, meta),"                              \
    " human_level = iif(" WINS ", excluded.human_level, human_level),"         \
    " human_score = iif(" WINS ", excluded.human_score, human_score),"         \
    " human_model = iif(" WINS ", excluded.human_model, human_model)"          \
    " WHERE excluded.seed IS NOT NULL AND puzzles.seed IS NOT NULL"            \
    " AND " IN_KEY " IS NOT " OUT_KEY

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
#define BY_STREAM "mr.hash, " SRC_SEED ", p.stream_index, p.id"

/* [mapped][sorted] */
static const char *const copy_sql[2][2] = {
    {COPY_HEAD(SAME_GRADES) "p.id" COPY_TAIL,
     COPY_HEAD(SAME_GRADES) BY_STREAM COPY_TAIL},
    {COPY_HEAD(MAPPED_GRADES) "p.id" COPY_TAIL,
     COPY_HEAD(MAPPED_GRADES) BY_STREAM COPY_TAIL},
};

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

/* The verdict of in_path's scan: from order (wait says whether it may
 * block), or, with no order, the scan itself, in line. */
static int order_of(const char *in_path, qn_store_order_fn *order, void *ctx,
                    int wait, int *known, qn_store__merge_order *out,
                    qn_err *err)
{
    *known = 1;
    return order ? order(ctx, wait, known, out, err)
                 : qn_store__merge_scan(in_path, out, err);
}

/*
 * The puzzle copy: by row when the input is in stream order, else sorted.
 * When the scan's verdict is not there yet, by row anyway, and undone
 * (the savepoint) for the sorted copy if the verdict says so: inputs that
 * db merge meets are in stream order (generate shards, merges), and the
 * scan seldom lags the copy. *rows: the input's rows the copy read.
 */
static int copy_puzzles(qn_store *s, const char *in_path,
                        qn_store_order_fn *order, void *ctx, int64_t *copied,
                        int64_t *rows, qn_err *err)
{
    qn_store__merge_order o = {0, 0, 0, 0, 0};
    long long last = 0, now = 0;
    int done = 0;
    /* without a journal (built aside, past the first input) nothing can
     * be undone: the verdict first */
    int known,
        mapped = 0,
        rc = order_of(in_path, order, ctx, s->aside == 2, &known, &o, err);

    /* the rows past OUT's last are the copy's: their key runs follow */
    if (rc == QN_OK)
        rc = qn_store__int(s, "SELECT coalesce(max(id), 0) FROM main.puzzles",
                           &last, err);
    if (rc == QN_OK)
        rc = merge_grades(s, &mapped, err);
    if (rc == QN_OK)
        rc = qn_store__exec(s, "SAVEPOINT merge_copy", err);
    if (rc != QN_OK)
        return rc;
    rc = qn_store__exec(s, copy_sql[mapped][known && !o.in_order], err);
    if (rc == QN_OK && !known &&
        (rc = order_of(in_path, order, ctx, 1, &known, &o, err)) == QN_OK &&
        !o.in_order &&
        (rc = qn_store__exec(s, "ROLLBACK TO merge_copy", err)) == QN_OK)
        rc = qn_store__exec(s, copy_sql[mapped][1], err);
    *copied = sqlite3_changes64(s->db);
    *rows = o.rows;
    if (rc == QN_OK)
        rc = qn_store__exec(s, "RELEASE merge_copy", err);
    /* The copy's key runs. An input copied whole by row, its ids without
     * gaps, took ids last + 1...: its own runs are OUT's, rows shifted
     * (checked against the scan's sum of the rows' pairs), which reads
     * none of the rows again. Otherwise the new rows are noted. */
    if (rc == QN_OK && o.in_order && o.rows &&
        o.max_id - o.min_id + 1 == o.rows &&
        (rc = qn_store__int(s, "SELECT coalesce(max(id), 0) FROM main.puzzles",
                            &now, err)) == QN_OK &&
        now - last == o.rows)
        rc = qn_store__runs_copy(s, (int64_t)last + 1 - o.min_id, o.rows,
                                 o.pairs, &done, err);
    if (rc == QN_OK && !done)
        rc = qn_store__runs_note_rows(s, (int64_t)last, err);
    /* rows no put noted: the id sets read the runs again at their next
     * put */
    qn_store__unique_forget(s);
    return rc;
}

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

/* The input's members not yet in the pack, appended in its order (an
 * indexed lookup each, so merging big packs stays linear; all read before
 * the first insert): *added. */
static int append_members(qn_store *s, const merge_pack *mp, int64_t *added,
                          qn_err *err)
{
    qn_store__stmt ins;
    int64_t *v = NULL;
    size_t n = 0;
    long long pos = 0;
    char sql[640];
    int rc;

    snprintf(sql, sizeof(sql),
             "SELECT coalesce(max(position), 0) FROM main.pack_puzzles"
             " WHERE pack_id = %lld",
             (long long)mp->main);
    rc = qn_store__int(s, sql, &pos, err);
    snprintf(sql, sizeof(sql),
             "SELECT mz.id FROM src.pack_puzzles spp"
             " JOIN src.puzzles sz ON sz.id = spp.puzzle_id"
             " JOIN src.rules sr ON sr.id = sz.rule_id"
             " JOIN main.rules mr ON mr.hash = sr.hash"
             " JOIN main.puzzles mz ON mz.uid = sz.uid"
             " AND mz.rule_id = mr.id AND mz.canon = sz.canon"
             " WHERE spp.pack_id = ?"
             " AND NOT EXISTS (SELECT 1 FROM main.pack_puzzles y"
             " WHERE y.pack_id = %lld AND y.puzzle_id = mz.id)"
             " ORDER BY spp.position",
             (long long)mp->main);
    if (rc == QN_OK)
        rc = qn_store__pack_ids(s, sql, mp->src, &v, &n, err);
    if (rc == QN_OK && n && (uint64_t)pos > (uint64_t)(INT64_MAX - n)) {
        /* positions are 1..count: a damaged pack */
        qn_err_source(err, s->path);
        rc = qn_err_set(err, QN_EDB, 0, 0,
                        "pack %lld has a member at position %lld and no "
                        "room after it: the database is damaged",
                        (long long)mp->main, pos);
    }
    if (rc == QN_OK && n) {
        qn_store__sql(&ins, s,
                      "INSERT INTO main.pack_puzzles (pack_id,"
                      " puzzle_id, position) VALUES (?, ?, ?)",
                      err);
        for (size_t i = 0; ins.rc == QN_OK && i < n; i++) {
            qn_store__bind_i64(&ins, 1, mp->main);
            qn_store__bind_i64(&ins, 2, v[i]);
            qn_store__bind_i64(&ins, 3, ++pos);
            qn_store__run(&ins);
        }
        rc = qn_store__end(&ins);
    }
    if (rc == QN_OK)
        *added = (int64_t)n;
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
                          qn_store_merge_stats *st, qn_err *err)
{
    merge_pack mp;
    int64_t added = 0, created = 0;
    int rc = pack_copy(s, src, &mp, &created, err);

    if (rc == QN_OK)
        rc = append_members(s, &mp, &added, err);
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

static int merge_packs(qn_store *s, qn_store_merge_stats *st, qn_err *err)
{
    qn_store__stmt src;

    qn_store__sql(&src, s,
                  "SELECT id, name, title, description, author,"
                  " version, created, modified, build FROM src.packs"
                  " ORDER BY id",
                  err);
    while (qn_store__row(&src))
        src.rc = merge_one_pack(s, src.st, st, err);
    return qn_store__end(&src);
}

/*
 * A pack built by one run family and unedited since (version 1) is in
 * stream order. When a merge changes which copy of a member OUT keeps
 * (a smaller stream index from another family with the same seed, say),
 * that order must follow, or the result would depend on whether the pack
 * or the smaller copy came first. The puzzle upsert updates every member
 * whose two copies differ (merge_sql), this trigger notes it, and
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
 * files is damaged. Name the input when it is the damaged one.
 */
static void blame_input(qn_store *s, const char *in_path, qn_err *err)
{
    int damaged = 0;

    if (err && err->code == QN_EDB) {
        quick_check(s, "src", &damaged, NULL);
        if (damaged)
            qn_err_source(err, in_path);
    }
}

/* Inside the transaction: rules, runs, puzzles, then packs. The stats
 * come from the statements' change counts, not from counting OUT's
 * puzzles before and after: that reads all of OUT twice per input, which
 * a flat merge of N shards does N times over a growing OUT. *rows: the
 * input's rows the copy read. */
static int merge_tx(qn_store *s, const char *in_path, qn_store_order_fn *order,
                    void *ctx, qn_store_merge_stats *st, int64_t *rows,
                    qn_err *err)
{
    long long runs0 = 0, runs1 = 0, moved = 0;
    int64_t changes[NMERGE] = {0}, copied = 0;
    int rc = qn_store__exec(s, track_sql, err);

    if (rc == QN_OK) /* the runs table has a row per shard: small */
        rc = qn_store__int(s, "SELECT count(*) FROM main.runs", &runs0, err);
    for (size_t i = 0; rc == QN_OK && i < NMERGE; i++)
        if ((rc = qn_store__exec(s, merge_sql[i], err)) == QN_OK)
            changes[i] = sqlite3_changes64(s->db);
    if (rc == QN_OK && (rc = qn_store__exec(s, merge_ids_sql, err)) == QN_OK)
        rc = copy_puzzles(s, in_path, order, ctx, &copied, rows, err);
    if (rc == QN_OK)
        rc = qn_store__int(s, "SELECT count(*) FROM main.runs", &runs1, err);
    /* the puzzle upsert's changes are its inserts and its updates, and
     * the trigger noted each update once */
    if (rc == QN_OK)
        rc = qn_store__int(s, "SELECT count(*) FROM temp.merge_moved", &moved,
                           err);
    st->rules = changes[0]; /* INSERT OR IGNORE: the new rules */
    st->runs = runs1 - runs0;
    st->puzzles = copied - moved;
    if (rc == QN_OK)
        rc = merge_packs(s, st, err);
    if (rc == QN_OK)
        rc = resort_moved(s, err);
    if (rc == QN_OK)
        rc = qn_store__exec(s, untrack_sql, err);
    return rc;
}

int qn_store__merge(qn_store *s, const char *in_path, qn_store_gate_fn *gate,
                    qn_store_order_fn *order, void *ctx,
                    qn_store_merge_stats *stats_out, qn_err *err)
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
     * The first input's transaction keeps one in memory, so that its copy
     * by row can be undone (copy_puzzles) without waiting for its scan;
     * it holds only the few pages the file had before (the schema). */
    if (rc == QN_OK && s->aside)
        rc = qn_store__exec(s,
                            s->aside == 1 ? "PRAGMA main.journal_mode = MEMORY"
                                          : "PRAGMA main.journal_mode = OFF",
                            err);
    if (rc == QN_OK)
        rc = qn_store__tx_begin(s, err);
    if (rc == QN_OK)
        rc = merge_tx(s, in_path, order, ctx, &st, &rows, err);
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
    /* the scan read its own snapshot: an input written while it is merged
     * (a running shard) may have gained rows since, so this counts the
     * duplicates the scan saw, never below zero */
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
    return qn_store__merge(s, in_path, NULL, NULL, NULL, stats_out, err);
}
