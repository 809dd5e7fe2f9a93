/*
 * test_store_find.c: puzzle ids and prefixes looked up through the key
 * runs (qn_store_puzzle_resolve, src/store/store_find.c). For many
 * prefixes -- taken from stored ids (hits, ambiguous ones, ids naming two
 * rows) and random (misses) -- the code, the row and the message equal
 * what an SQL query gives on a table of the test's own (the oracle):
 *   SELECT id, uid FROM t_ids WHERE uid BETWEEN ? AND ?
 *   ORDER BY uid, id LIMIT 2
 * with the range computed here from the hex digits. t_ids (id, rule_id,
 * uid), in a file beside the store's, holds every row's id computed from
 * its state (tstore.h), or rewritten by hand with the runs built again
 * from it (test_crowded). The databases hold
 * level-0 runs and a compacted level-1 one, two rules, ids differing only
 * in their last digits, ids on both sides of 2^63, and one id on two
 * rows; a run with a byte flipped is QN_EDB naming it.
 */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <sqlite3.h>

#include "base/buf.h"
#include "rules/canon.h"
#include "rules/rules.h"
#include "rules/state.h"
#include "solve/solver.h"
#include "store/keyrun.h"
#include "store/store.h"
#include "store/store_internal.h"
#include "t.h"
#include "tsql.h"
#include "tstore.h"

static char tmpdir[] = "/tmp/qn_store_find_XXXXXX";

#define tpath(name) t_path(tmpdir, (name))

typedef struct board {
    qn_rules *rules;
    qn_solver *game;
    char hash[65];
    const char *file, *name, *layout;
} board;

static board boards[2] = {
    {NULL, NULL, "", "rules/classic-5x5.yaml", "c5",
     "00000/00000/00000/00000/00000"},
    {NULL, NULL, "", "rules/classic-3x3.yaml", "c3", "000/000/000"}};

/* The rules t_uid knows: both boards' (main loads them). */
static t_uid_rules uids;

static int64_t put_rule(qn_store *s, board *b)
{
    /* the rule's own text: qn_store_find_puzzle canonicalizes stored
     * states by it */
    qn_store_rule r = {b->hash,
                       b->name,
                       qn_rules_text(b->rules, NULL),
                       qn_rules_ncells(b->rules),
                       qn_rules_colours(b->rules),
                       "",
                       b->layout};
    int64_t id = 0;

    T_EQ(qn_store_put_rule(s, &r, &id, NULL), QN_OK);
    return id;
}

/* Puzzle i of board b: a random solvable state, the same for the same i;
 * its row and id into *row and *uid when they are not NULL. */
static void put_puzzle_at(qn_store *s, board *b, int64_t rule_id, uint64_t i,
                          int64_t *row, uint64_t *uid)
{
    int n = qn_rules_ncells(b->rules), is_new;
    uint8_t st[64], c[64], canon[16];
    uint64_t seed = i * 7919 + 13;
    qn_answer a;
    qn_buf bs = QN_BUF_INIT, bw = QN_BUF_INIT;
    qn_store_puzzle p;
    int64_t id = 0;

    qn_answer_init(&a, b->game, NULL);
    for (;;) {
        for (int j = 0; j < n; j++)
            st[j] = t_rand(&seed) & 1;
        qn_solver_answer(b->game, &a, st);
        if (a.solvable && !a.at_goal)
            break;
    }
    qn_state_format(&bs, qn_rules_layout(b->rules), st, '/');
    qn_state_format(&bw, qn_rules_layout(b->rules), a.plan, '/');
    qn_canon_form(b->rules, c, st);
    memset(&p, 0, sizeof(p));
    p.rule_id = rule_id;
    p.state = bs.buf;
    p.canon = canon;
    p.canon_len = qn_store_canon_pack(canon, c, n, 2);
    p.min_presses = a.mp.presses;
    p.noptimal = a.mp.noptimal;
    p.witness = bw.buf;
    p.grader = "test-1";
    p.stream_index = (int64_t)i;
    p.provenance = QN_STORE_IMPORT;
    T_EQ(qn_store_put_puzzle(s, &p, &id, &is_new, NULL), QN_OK);
    if (row)
        *row = id;
    if (uid)
        T_EQ(qn_store__puzzle_uid(s, &p, uid, NULL), QN_OK);
    qn_answer_release(&a);
    qn_buf_release(&bs);
    qn_buf_release(&bw);
}

static void put_puzzle(qn_store *s, board *b, int64_t rule_id, uint64_t i)
{
    put_puzzle_at(s, b, rule_id, i, NULL, NULL);
}

/* `batches` batches of `per` puzzles of board b, from puzzle `from` */
static void put_batches(qn_store *s, board *b, int64_t rule, uint64_t from,
                        int batches, int per)
{
    for (int k = 0; k < batches; k++) {
        T_EQ(qn_store_begin(s, NULL), QN_OK);
        for (int i = 0; i < per; i++)
            put_puzzle(s, b, rule, from + (uint64_t)(k * per + i));
        T_EQ(qn_store_commit(s, NULL), QN_OK);
    }
}

/* The file of path's t_ids: path with ".ids" (one of four buffers used
 * in turn, as t_path). */
static const char *ids_file(const char *path)
{
    static char buf[4][512];
    static int i;

    i = (i + 1) % 4;
    snprintf(buf[i], sizeof(buf[i]), "%s.ids", path);
    return buf[i];
}

/* Every row of the store at path not yet in its t_ids added there, its
 * id computed from its state: the rows t_ids holds keep theirs. */
static void fill_ids(const char *path)
{
    sqlite3 *db;
    char sql[700];

    T_EQ(sqlite3_open(ids_file(path), &db), SQLITE_OK);
    t_uid_register(db, &uids);
    snprintf(sql, sizeof(sql),
             "ATTACH '%s' AS s;"
             "CREATE TABLE IF NOT EXISTS t_ids (id INTEGER PRIMARY KEY,"
             " rule_id INTEGER NOT NULL, uid INTEGER NOT NULL);"
             "INSERT OR IGNORE INTO t_ids SELECT p.id, p.rule_id,"
             " t_uid(r.hash, p.state) FROM s.puzzles p"
             " JOIN s.rules r ON r.id = p.rule_id;"
             "DETACH s",
             path);
    T_EQ(sqlite3_exec(db, sql, NULL, NULL, NULL), SQLITE_OK);
    sqlite3_close(db);
}

/* The ids of the rows of t_ids in ids (a file), for drawing prefixes. */
static uint64_t *ids_of(const char *ids, size_t *n)
{
    sqlite3 *db;
    sqlite3_stmt *st;
    uint64_t *v = malloc(sizeof(*v) * 100000);

    *n = 0;
    T_CHECK(v != NULL);
    T_EQ(sqlite3_open(ids, &db), SQLITE_OK);
    T_EQ(sqlite3_prepare_v2(db, "SELECT uid FROM t_ids", -1, &st, NULL),
         SQLITE_OK);
    while (v && sqlite3_step(st) == SQLITE_ROW && *n < 100000)
        v[(*n)++] = (uint64_t)sqlite3_column_int64(st, 0);
    sqlite3_finalize(st);
    sqlite3_close(db);
    return v;
}

/* One level-1 run of p[0..n) (n >= 1, sorted) of rule into db. */
static void insert_run(sqlite3 *db, int64_t rule, const qn_kr_pair *p, size_t n)
{
    sqlite3_stmt *st;
    uint8_t *keys = NULL;
    size_t len = 0;

    T_EQ(qn_kr_encode(p, n, &keys, &len), QN_OK);
    T_EQ(sqlite3_prepare_v2(db,
                            "INSERT INTO key_runs (rule_id, level, first_key,"
                            " last_key, count, keys) VALUES (?, 1, ?, ?, ?, ?)",
                            -1, &st, NULL),
         SQLITE_OK);
    sqlite3_bind_int64(st, 1, rule);
    sqlite3_bind_int64(st, 2, (int64_t)p[0].key);
    sqlite3_bind_int64(st, 3, (int64_t)p[n - 1].key);
    sqlite3_bind_int64(st, 4, (int64_t)n);
    sqlite3_bind_blob(st, 5, keys, (int)len, SQLITE_TRANSIENT);
    T_EQ(sqlite3_step(st), SQLITE_DONE);
    sqlite3_finalize(st);
    free(keys);
}

/* The runs of rule in the store at path built again from its t_ids:
 * its runs deleted, its (uid, row) pairs sorted (key unsigned) into
 * level-1 runs of QN_KR_MAX pairs at most. */
static void rebuild_runs(const char *path, int64_t rule)
{
    sqlite3 *db;
    sqlite3_stmt *st;
    qn_kr_pair *p = malloc(sizeof(*p) * 100000);
    size_t n = 0;
    char sql[600];

    T_CHECK(p != NULL);
    T_EQ(sqlite3_open(path, &db), SQLITE_OK);
    snprintf(sql, sizeof(sql), "ATTACH '%s' AS t", ids_file(path));
    T_EQ(sqlite3_exec(db, sql, NULL, NULL, NULL), SQLITE_OK);
    T_EQ(sqlite3_prepare_v2(db, "SELECT uid, id FROM t.t_ids WHERE rule_id = ?",
                            -1, &st, NULL),
         SQLITE_OK);
    sqlite3_bind_int64(st, 1, rule);
    while (p && sqlite3_step(st) == SQLITE_ROW && n < 100000) {
        p[n].key = (uint64_t)sqlite3_column_int64(st, 0);
        p[n++].row = sqlite3_column_int64(st, 1);
    }
    sqlite3_finalize(st);
    T_EQ(qn_kr_sort(p, n), QN_OK);
    T_EQ(sqlite3_exec(db, "BEGIN", NULL, NULL, NULL), SQLITE_OK);
    snprintf(sql, sizeof(sql), "DELETE FROM key_runs WHERE rule_id = %lld",
             (long long)rule);
    T_EQ(sqlite3_exec(db, sql, NULL, NULL, NULL), SQLITE_OK);
    for (size_t i = 0; p && i < n; i += QN_KR_MAX)
        insert_run(db, rule, p + i, n - i < QN_KR_MAX ? n - i : QN_KR_MAX);
    T_EQ(sqlite3_exec(db, "COMMIT", NULL, NULL, NULL), SQLITE_OK);
    sqlite3_close(db);
    free(p);
}

/* What the query on t_ids says of prefix (its hex digits): the code,
 * the row when it is QN_OK, and the message otherwise. */
static int oracle(sqlite3 *db, const char *prefix, int64_t *row, char *msg,
                  size_t cap)
{
    sqlite3_stmt *st;
    size_t len = strlen(prefix);
    uint64_t v = strtoull(prefix, NULL, 16), lo, hi;
    int64_t r[2];
    uint64_t u[2];
    int n = 0;

    lo = len == 16 ? v : v << (4 * (16 - len));
    hi = len == 16 ? v : lo | ((UINT64_C(1) << (4 * (16 - len))) - 1);
    T_EQ(sqlite3_prepare_v2(db,
                            "SELECT id, uid FROM t_ids WHERE uid BETWEEN ?"
                            " AND ? ORDER BY uid, id LIMIT 2",
                            -1, &st, NULL),
         SQLITE_OK);
    sqlite3_bind_int64(st, 1, (int64_t)lo);
    sqlite3_bind_int64(st, 2, (int64_t)hi);
    while (n < 2 && sqlite3_step(st) == SQLITE_ROW) {
        r[n] = sqlite3_column_int64(st, 0);
        u[n++] = (uint64_t)sqlite3_column_int64(st, 1);
    }
    sqlite3_finalize(st);
    if (n == 0) {
        snprintf(msg, cap, "no puzzle with id %s", prefix);
        return QN_ENOTFOUND;
    }
    if (n == 1) {
        *row = r[0];
        return QN_OK;
    }
    if (u[0] != u[1])
        snprintf(msg, cap,
                 "puzzle id '%s' is ambiguous: %016" PRIx64 ", %016" PRIx64
                 ", ...; give more digits",
                 prefix, u[0], u[1]);
    else
        snprintf(msg, cap,
                 "puzzle id %016" PRIx64 " names two puzzles (rows #%lld and"
                 " #%lld): name one by its row",
                 u[0], (long long)r[0], (long long)r[1]);
    return QN_EINVAL;
}

typedef struct tally {
    int hit, miss, ambiguous, two;
} tally;

/* One prefix looked up both ways: 1 if they agree. */
static int same(qn_store *s, sqlite3 *db, const char *prefix, tally *t)
{
    qn_err err = QN_ERR_INIT;
    char want[256];
    int64_t row = -1, got = -1;
    int rc = oracle(db, prefix, &row, want, sizeof(want));
    int g = qn_store_puzzle_resolve(s, prefix, &got, &err);

    if (g != rc || (rc == QN_OK ? got != row : strcmp(err.msg, want) != 0)) {
        T_FAILF("%s: got %d row %lld '%s', want %d row %lld '%s'", prefix, g,
                (long long)got, err.msg, rc, (long long)row,
                rc == QN_OK ? "" : want);
        return 0;
    }
    t->hit += rc == QN_OK;
    t->miss += rc == QN_ENOTFOUND;
    t->ambiguous += rc == QN_EINVAL && strstr(want, "ambiguous") != NULL;
    t->two += rc == QN_EINVAL && strstr(want, "names two") != NULL;
    return 1;
}

/* n prefixes of 4..16 digits, half of stored ids, half random, each
 * looked up on a read-only connection and by the oracle (t_ids filled
 * first with the rows it lacks). */
static tally compare_many(const char *path, int n, uint64_t seed)
{
    qn_store *s = NULL;
    sqlite3 *db;
    size_t nids;
    uint64_t *ids;
    tally t = {0, 0, 0, 0};
    int agree = 0;

    fill_ids(path);
    ids = ids_of(ids_file(path), &nids);
    T_EQ(qn_store_open(&s, path, QN_STORE_READONLY, NULL), QN_OK);
    T_EQ(sqlite3_open_v2(ids_file(path), &db, SQLITE_OPEN_READONLY, NULL),
         SQLITE_OK);
    for (int i = 0; i < n; i++) {
        char hex[17], prefix[17];
        uint64_t v = t_rand(&seed);
        int len = 4 + (int)(t_rand(&seed) % 13);
        if (i % 2 == 0 && nids)
            v = ids[t_rand(&seed) % nids];
        snprintf(hex, sizeof(hex), "%016" PRIx64, v);
        memcpy(prefix, hex, (size_t)len);
        prefix[len] = '\0';
        agree += same(s, db, prefix, &t);
    }
    /* every stored id in full */
    for (size_t i = 0; i < nids; i++) {
        char hex[17];
        snprintf(hex, sizeof(hex), "%016" PRIx64, ids[i]);
        agree += same(s, db, hex, &t);
    }
    T_EQ(agree, n + (int)nids);
    sqlite3_close(db);
    qn_store_close(s);
    free(ids);
    return t;
}

/* 70 batches of 5x5 (a compaction: one level-1 run, 5 level-0), 3x3
 * puzzles in three batches and two puts outside one. */
static void test_natural(void)
{
    const char *p = tpath("n.db");
    qn_store *s = NULL;
    int64_t r5, r3;
    tally t;

    T_EQ(qn_store_open(&s, p, QN_STORE_CREATE, NULL), QN_OK);
    r5 = put_rule(s, &boards[0]);
    r3 = put_rule(s, &boards[1]);
    put_batches(s, &boards[0], r5, 0, 70, 7);
    put_batches(s, &boards[1], r3, 0, 3, 40);
    put_puzzle(s, &boards[1], r3, 500);
    put_puzzle(s, &boards[0], r5, 9000);
    qn_store_close(s);
    T_EQ(t_raw_int(p, "SELECT count(*) FROM key_runs WHERE level = 1"), 1);
    T_CHECK(t_raw_int(p, "SELECT count(*) FROM key_runs WHERE level = 0") >= 8);
    T_EQ(t_raw_int(p, "SELECT count(DISTINCT rule_id) FROM key_runs"), 2);
    t = compare_many(p, 4000, 1);
    T_CHECK(t.hit > 1000 && t.miss > 1000);
}

/*
 * The ids rewritten by hand in t_ids so that they crowd: ids differing
 * only in their last digits, around 2^63, at 0 and at 2^64 - 1, one id
 * on two rows of a rule and on a row of the other; then each rule's runs
 * built again from t_ids (one level-1 run), and level-0 runs added on
 * top by the store (their ids computed from their states).
 */
static void test_crowded(void)
{
    const char *p = tpath("c.db");
    qn_store *s = NULL;
    int64_t r5, r3;
    tally t;

    T_EQ(qn_store_open(&s, p, QN_STORE_CREATE, NULL), QN_OK);
    r5 = put_rule(s, &boards[0]);
    r3 = put_rule(s, &boards[1]);
    put_batches(s, &boards[0], r5, 100000, 4, 100);
    put_batches(s, &boards[1], r3, 100000, 2, 50);
    qn_store_close(s);
    fill_ids(p);
    T_EQ(t_raw_exec(ids_file(p),
                    /* runs of 10 rows from row 50: the id of the run's
                     * first row but for the last digit or the last three */
                    "UPDATE t_ids SET uid = ((SELECT q.uid FROM t_ids q"
                    " WHERE q.id = t_ids.id - t_ids.id % 10) & ~0xfff)"
                    " + (id % 10) * 0x123"
                    " WHERE id > 50 AND id % 10 <> 0 AND id % 3 = 0;"
                    "UPDATE t_ids SET uid = (SELECT q.uid FROM t_ids q"
                    " WHERE q.id = t_ids.id - t_ids.id % 10)"
                    " + (id % 10) WHERE id > 50 AND id % 10 <> 0"
                    " AND id % 3 = 1;"
                    /* one id on two rows (and on a row of the other rule) */
                    "UPDATE t_ids SET uid = (SELECT uid FROM t_ids WHERE"
                    " id = 2) WHERE id IN (7, 401, 402);"
                    "UPDATE t_ids SET uid = 0x7fffffffffffff00 + id"
                    " WHERE id BETWEEN 20 AND 24;"
                    "UPDATE t_ids SET uid = -9223372036854775807 - 1 + id"
                    " WHERE id BETWEEN 25 AND 29;"
                    "UPDATE t_ids SET uid = 0 WHERE id = 30;"
                    "UPDATE t_ids SET uid = -1 WHERE id IN (31, 32);"),
         SQLITE_OK);
    rebuild_runs(p, r5);
    rebuild_runs(p, r3);
    T_EQ(qn_store_open(&s, p, QN_STORE_CREATE, NULL), QN_OK);
    put_batches(s, &boards[0], r5, 200000, 3, 30);
    put_batches(s, &boards[1], r3, 200000, 2, 20);
    qn_store_close(s);
    T_EQ(t_raw_int(p, "SELECT count(*) FROM key_runs WHERE level = 1"), 2);
    T_EQ(t_raw_int(p, "SELECT count(*) FROM key_runs WHERE level = 0"), 5);
    t = compare_many(p, 6000, 2);
    T_CHECK(t.hit > 500 && t.miss > 1000);
    T_CHECK(t.ambiguous > 200);
    T_CHECK(t.two >= 4); /* ids 2, 31's in full and their prefixes */
}

/* The rows a batch has put are found before its commit (their notes:
 * no run holds them yet), not after a rollback, and after the commit
 * from their run. */
static void test_in_batch(void)
{
    const char *p = tpath("n.db");
    qn_store *s = NULL;
    int64_t row[20], got;
    uint64_t uid[20];
    char hex[17];
    tally t;

    T_EQ(qn_store_open(&s, p, QN_STORE_CREATE, NULL), QN_OK);
    for (int pass = 0; pass < 3; pass++) {
        T_EQ(qn_store_begin(s, NULL), QN_OK);
        for (int i = 0; i < 20; i++)
            put_puzzle_at(s, &boards[0], 1, 300000 + (uint64_t)i, &row[i],
                          &uid[i]);
        for (int i = 0; i < 20; i++) {
            snprintf(hex, sizeof(hex), "%016" PRIx64, uid[i]);
            got = -1;
            T_EQ(qn_store_puzzle_resolve(s, hex, &got, NULL), QN_OK);
            T_EQ(got, row[i]);
        }
        if (pass == 0)
            T_EQ(qn_store_rollback(s, NULL), QN_OK);
        else
            T_EQ(qn_store_commit(s, NULL), QN_OK);
        for (int i = 0; i < 20; i++) {
            snprintf(hex, sizeof(hex), "%016" PRIx64, uid[i]);
            got = -1;
            T_EQ(qn_store_puzzle_resolve(s, hex, &got, NULL),
                 pass == 0 ? QN_ENOTFOUND : QN_OK);
            if (pass)
                T_EQ(got, row[i]);
        }
    }
    qn_store_close(s);
    t = compare_many(p, 500, 3);
    T_CHECK(t.hit > 250);
}

/* Run `run` of path with its version byte (byte 8) changed. */
static void flip_version(const char *path, long long run)
{
    sqlite3 *db;
    sqlite3_stmt *st;
    uint8_t *k = NULL;
    size_t len = 0;

    T_EQ(sqlite3_open(path, &db), SQLITE_OK);
    T_EQ(sqlite3_prepare_v2(db, "SELECT keys FROM key_runs WHERE id = ?", -1,
                            &st, NULL),
         SQLITE_OK);
    sqlite3_bind_int64(st, 1, run);
    T_EQ(sqlite3_step(st), SQLITE_ROW);
    len = (size_t)sqlite3_column_bytes(st, 0);
    T_CHECK(len > 8 && (k = malloc(len)) != NULL);
    memcpy(k, sqlite3_column_blob(st, 0), len);
    sqlite3_finalize(st);
    k[8] ^= 0x10;
    T_EQ(sqlite3_prepare_v2(db, "UPDATE key_runs SET keys = ? WHERE id = ?", -1,
                            &st, NULL),
         SQLITE_OK);
    sqlite3_bind_blob(st, 1, k, (int)len, SQLITE_TRANSIENT);
    sqlite3_bind_int64(st, 2, run);
    T_EQ(sqlite3_step(st), SQLITE_DONE);
    sqlite3_finalize(st);
    sqlite3_close(db);
    free(k);
}

/* A run with its version byte flipped: a lookup that reaches it is
 * QN_EDB naming the run and the file; one that does not still answers. */
static void test_damaged(void)
{
    const char *p = tpath("c.db"), *d = tpath("d.db");
    char sql[600], name[64];
    long long run, first, last;
    qn_store *s = NULL;
    qn_err err = QN_ERR_INIT;
    int64_t row = 0;
    sqlite3 *db;
    size_t nids;
    uint64_t *ids;
    tally t = {0, 0, 0, 0};
    int outside = 0;

    snprintf(sql, sizeof(sql), "VACUUM INTO '%s'", d);
    T_EQ(t_raw_exec(p, sql), SQLITE_OK);
    run = t_raw_int(d, "SELECT id FROM key_runs WHERE level = 0 ORDER BY id"
                       " LIMIT 1");
    snprintf(sql, sizeof(sql), "SELECT first_key FROM key_runs WHERE id = %lld",
             run);
    first = t_raw_int(d, sql);
    snprintf(sql, sizeof(sql), "SELECT last_key FROM key_runs WHERE id = %lld",
             run);
    last = t_raw_int(d, sql);
    flip_version(d, run);
    ids = ids_of(ids_file(p), &nids); /* d is a copy of p */
    T_EQ(qn_store_open(&s, d, QN_STORE_READONLY, NULL), QN_OK);
    snprintf(name, sizeof(name), "%016llx", (unsigned long long)first);
    T_EQ(qn_store_puzzle_resolve(s, name, &row, &err), QN_EDB);
    snprintf(sql, sizeof(sql), "key run %lld of rule set", run);
    T_CHECK(strstr(err.msg, sql) != NULL && strstr(err.msg, "damaged"));
    T_CHECK(strcmp(err.source, d) == 0);
    /* an id outside the damaged run's range is still found */
    T_EQ(sqlite3_open_v2(ids_file(p), &db, SQLITE_OPEN_READONLY, NULL),
         SQLITE_OK);
    for (size_t i = 0; i < nids; i++)
        if (ids[i] < (uint64_t)first || ids[i] > (uint64_t)last) {
            snprintf(name, sizeof(name), "%016" PRIx64, ids[i]);
            outside += same(s, db, name, &t);
        }
    T_CHECK(outside >= 3); /* 0 and 2^64 - 1 twice at least */
    T_EQ(t.hit + t.two, outside);
    sqlite3_close(db);
    free(ids);
    qn_store_close(s);
}

/* The rows of a store with their rule and the rule's hash, for key_of */
#define ROWS_SQL                                                               \
    "SELECT p.id, p.rule_id, p.state, r.hash FROM puzzles p"                   \
    " JOIN rules r ON r.id = p.rule_id"

/* The canonical key of the row st (ROWS_SQL) is at into key (16 bytes):
 * its state unpacked, its canonical form under the board of the rule's
 * hash, packed again. Its length; 0 for an unknown rule or a bad state. */
static size_t key_of(sqlite3_stmt *st, uint8_t *key)
{
    const char *hash = (const char *)sqlite3_column_text(st, 3);
    size_t len = (size_t)sqlite3_column_bytes(st, 2);
    uint8_t cells[64], form[64];

    for (int i = 0; hash && i < 2; i++) {
        const qn_rules *r = boards[i].rules;
        int n = qn_rules_ncells(r);
        unsigned k = qn_rules_colours(r);
        if (strcmp(boards[i].hash, hash) != 0)
            continue;
        T_EQ(len, qn_store_canon_size(n, k));
        if (len != qn_store_canon_size(n, k))
            return 0;
        qn_store_canon_unpack(cells, sqlite3_column_blob(st, 2), n, k);
        qn_canon_form(r, form, cells);
        return qn_store_canon_pack(key, form, n, k);
    }
    T_FAILF("a rule the test did not load: %s", hash ? hash : "(null)");
    return 0;
}

/* Every stored row's canonical key, computed from its state (key_of),
 * tried by qn_store_find_puzzle. */
static int find_all(qn_store *s, const char *path, int64_t skip)
{
    sqlite3 *db;
    sqlite3_stmt *st;
    int n = 0;

    T_EQ(sqlite3_open(path, &db), SQLITE_OK);
    T_EQ(sqlite3_prepare_v2(db, ROWS_SQL, -1, &st, NULL), SQLITE_OK);
    while (sqlite3_step(st) == SQLITE_ROW) {
        int64_t row = sqlite3_column_int64(st, 0), got = -1;
        uint8_t key[16];
        size_t len = key_of(st, key);
        int rc = qn_store_find_puzzle(s, sqlite3_column_int64(st, 1), key, len,
                                      &got, NULL);
        if (row == skip) {
            T_EQ(rc, QN_ENOTFOUND);
            continue;
        }
        T_EQ(rc, QN_OK);
        T_EQ(got, row);
        n++;
    }
    sqlite3_finalize(st);
    sqlite3_close(db);
    return n;
}

/* qn_store_find_puzzle through the runs: every stored puzzle by its
 * canonical key (in a batch from its notes, after it from the runs), a
 * key never stored not found, and an id two rows share (row 1's made row
 * 5's, the runs built again from it): each row is tried and the one whose
 * state's canonical form is the key answers. */
static void test_find_key(void)
{
    const char *p = tpath("k.db");
    qn_store *s = NULL;
    int64_t r5, r3, got;
    uint8_t none[8] = {0xff, 0xff, 0xff, 0x01};

    T_EQ(qn_store_open(&s, p, QN_STORE_CREATE, NULL), QN_OK);
    r5 = put_rule(s, &boards[0]);
    r3 = put_rule(s, &boards[1]);
    T_EQ(qn_store_begin(s, NULL), QN_OK);
    for (int i = 0; i < 40; i++)
        put_puzzle(s, &boards[0], r5, 400000 + (uint64_t)i);
    T_EQ(find_all(s, p, 0), 0); /* not committed: another connection */
    {
        int64_t row;
        put_puzzle_at(s, &boards[1], r3, 400100, &row, NULL);
        /* the rows of the open batch, from its notes */
        sqlite3_stmt *st = NULL;
        T_EQ(sqlite3_prepare_v2(s->db,
                                ROWS_SQL " WHERE p.id IN (1, ?) ORDER BY p.id",
                                -1, &st, NULL),
             SQLITE_OK);
        sqlite3_bind_int64(st, 1, row);
        for (int k = 0; sqlite3_step(st) == SQLITE_ROW; k++) {
            uint8_t key[16];
            size_t len = key_of(st, key);
            got = -1;
            T_EQ(qn_store_find_puzzle(s, sqlite3_column_int64(st, 1), key, len,
                                      &got, NULL),
                 QN_OK);
            T_EQ(got, k ? row : 1);
        }
        sqlite3_finalize(st);
    }
    T_EQ(qn_store_commit(s, NULL), QN_OK);
    put_batches(s, &boards[1], r3, 400200, 2, 20);
    T_EQ(find_all(s, p, 0), t_raw_int(p, "SELECT count(*) FROM puzzles"));
    T_EQ(qn_store_find_puzzle(s, r5, none, 4, &got, NULL), QN_ENOTFOUND);
    T_EQ(qn_store_find_puzzle(s, 999, none, 4, &got, NULL), QN_ENOTFOUND);
    qn_store_close(s);

    fill_ids(p);
    T_EQ(t_raw_exec(ids_file(p), "UPDATE t_ids SET uid = (SELECT uid FROM"
                                 " t_ids WHERE id = 5) WHERE id = 1"),
         SQLITE_OK);
    T_EQ(t_raw_int(ids_file(p), "SELECT count(DISTINCT rule_id) FROM t_ids"
                                " WHERE id IN (1, 5)"),
         1);
    rebuild_runs(p, r5);
    T_EQ(qn_store_open(&s, p, QN_STORE_CREATE, NULL), QN_OK);
    /* row 1's own id is in no run now: the runs are the truth */
    T_EQ(find_all(s, p, 1), t_raw_int(p, "SELECT count(*) FROM puzzles") - 1);
    qn_store_close(s);
}

int main(void)
{
    T_CHECK(mkdtemp(tmpdir) != NULL);
    for (int i = 0; i < 2; i++) {
        T_EQ(qn_rules_load_file(&boards[i].rules, boards[i].file, NULL), QN_OK);
        T_EQ(qn_solver_new(&boards[i].game, boards[i].rules, NULL), QN_OK);
        qn_rules_hash(boards[i].rules, boards[i].hash);
        t_uid_add(&uids, boards[i].rules);
    }
    test_natural();
    test_in_batch();
    test_crowded();
    test_damaged();
    test_find_key();
    for (int i = 0; i < 2; i++) {
        qn_solver_free(boards[i].game);
        qn_rules_free(boards[i].rules);
    }
    {
        char cmd[128];
        snprintf(cmd, sizeof(cmd), "rm -rf %s", tmpdir);
        T_CHECK(system(cmd) == 0);
    }
    return t_done();
}
