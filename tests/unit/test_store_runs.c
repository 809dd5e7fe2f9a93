/*
 * test_store_runs.c: the key runs beside the puzzles table (migration
 * 0008, src/store/store_runs.c). After every kind of write -- batches,
 * puts outside a batch, a batch or a savepoint rolled back, duplicates,
 * two rules in one batch, compaction, db merge, the migration of a
 * database that had no runs -- each row's (id, row) is in exactly one
 * run of its rule and the runs hold nothing else. The runs are read on a
 * connection of the test's own, decoded, and compared with the rows;
 * qn_store_check must agree, and must find a run deleted, a run
 * damaged, and a row written by hand.
 */
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

static char tmpdir[] = "/tmp/qn_store_runs_XXXXXX";

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

static int64_t put_rule(qn_store *s, board *b)
{
    /* the real text: db merge canonicalizes states by it */
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

/* Puzzle i of board b (a random solvable state, the same for the same
 * i): stored, or a duplicate of an earlier one (*is_new). */
static void put_puzzle(qn_store *s, board *b, int64_t rule_id, uint64_t i,
                       int *is_new)
{
    int n = qn_rules_ncells(b->rules);
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
    T_EQ(qn_store_put_puzzle(s, &p, &id, is_new, NULL), QN_OK);
    qn_answer_release(&a);
    qn_buf_release(&bs);
    qn_buf_release(&bw);
}

static int by_pair(const void *x, const void *y)
{
    const qn_kr_pair *a = x, *b = y;

    if (a->key != b->key)
        return a->key < b->key ? -1 : 1;
    return (a->row > b->row) - (a->row < b->row);
}

/* The rules whose ids t_uid computes from the rows' states (main). */
static t_uid_rules known;

/* The rows of rule as (id, row) pairs, each id computed from the row's
 * state (tstore.h), sorted: *n of them. */
static qn_kr_pair *rows_of(sqlite3 *db, int64_t rule, size_t *n)
{
    sqlite3_stmt *st = NULL;
    qn_kr_pair *a = malloc(sizeof(*a) * 200000);

    *n = 0;
    T_EQ(sqlite3_prepare_v2(db,
                            "SELECT t_uid(r.hash, p.state), p.id FROM"
                            " puzzles p JOIN rules r ON r.id = p.rule_id"
                            " WHERE p.rule_id = ?",
                            -1, &st, NULL),
         SQLITE_OK);
    sqlite3_bind_int64(st, 1, rule);
    while (sqlite3_step(st) == SQLITE_ROW && *n < 200000) {
        a[*n].key = (uint64_t)sqlite3_column_int64(st, 0);
        a[(*n)++].row = sqlite3_column_int64(st, 1);
    }
    sqlite3_finalize(st);
    qsort(a, *n, sizeof(*a), by_pair);
    return a;
}

/* Every run of rule decoded, each checked against its columns: *n. */
static qn_kr_pair *runs_of(sqlite3 *db, int64_t rule, size_t *n)
{
    sqlite3_stmt *st = NULL;
    qn_kr_pair *a = malloc(sizeof(*a) * 200000);

    *n = 0;
    T_EQ(sqlite3_prepare_v2(db,
                            "SELECT keys, count, first_key, last_key, level"
                            " FROM key_runs WHERE rule_id = ?",
                            -1, &st, NULL),
         SQLITE_OK);
    sqlite3_bind_int64(st, 1, rule);
    while (sqlite3_step(st) == SQLITE_ROW) {
        const uint8_t *b = sqlite3_column_blob(st, 0);
        size_t len = (size_t)sqlite3_column_bytes(st, 0), c;
        qn_kr_info info;
        T_EQ(qn_kr_info_get(b, len, &info), QN_OK);
        c = info.n;
        T_EQ((long long)c, sqlite3_column_int64(st, 1));
        T_EQ((long long)info.first, sqlite3_column_int64(st, 2));
        T_EQ((long long)info.last, sqlite3_column_int64(st, 3));
        if (*n + c > 200000)
            break;
        T_EQ(qn_kr_decode(b, len, a + *n), QN_OK);
        *n += c;
    }
    sqlite3_finalize(st);
    qsort(a, *n, sizeof(*a), by_pair);
    return a;
}

/* The runs hold every row of each rule exactly once and nothing else:
 * the number of rows checked (-1 if they differ). */
static long long runs_match(const char *path)
{
    sqlite3 *db;
    sqlite3_stmt *st = NULL;
    long long total = 0;

    T_EQ(sqlite3_open(path, &db), SQLITE_OK);
    t_uid_register(db, &known);
    T_EQ(sqlite3_prepare_v2(db, "SELECT id FROM rules", -1, &st, NULL),
         SQLITE_OK);
    while (sqlite3_step(st) == SQLITE_ROW) {
        size_t nr, nk;
        int64_t rule = sqlite3_column_int64(st, 0);
        qn_kr_pair *rows = rows_of(db, rule, &nr),
                   *runs = runs_of(db, rule, &nk);
        if (nr != nk || (nr && memcmp(rows, runs, nr * sizeof(*rows))))
            total = -1;
        else if (total >= 0)
            total += (long long)nr;
        free(rows);
        free(runs);
    }
    sqlite3_finalize(st);
    sqlite3_close(db);
    return total;
}

static qn_store *open_ok(const char *path)
{
    qn_store *s = NULL;

    T_EQ(qn_store_open(&s, path, QN_STORE_CREATE, NULL), QN_OK);
    return s;
}

static int check_ok(const char *path)
{
    qn_store *s = open_ok(path);
    qn_err err = QN_ERR_INIT;
    int rc = qn_store_check(s, NULL, &err);

    qn_store_close(s);
    return rc;
}

/* Batches, a rolled-back batch, puts outside a batch, duplicates, two
 * rules in one batch, a savepoint rolled back inside a batch. */
static void test_writes(void)
{
    const char *p = tpath("w.db");
    qn_store *s = open_ok(p);
    int64_t r5 = put_rule(s, &boards[0]), r3 = put_rule(s, &boards[1]);
    int is_new, fresh = 0;

    T_EQ(qn_store_begin(s, NULL), QN_OK);
    for (uint64_t i = 0; i < 300; i++)
        put_puzzle(s, &boards[0], r5, i, &is_new);
    T_EQ(qn_store_commit(s, NULL), QN_OK);
    T_EQ(runs_match(p), 300);
    T_EQ(t_raw_int(p, "SELECT count(*) FROM key_runs"), 1);

    /* rolled back: neither rows nor runs */
    T_EQ(qn_store_begin(s, NULL), QN_OK);
    for (uint64_t i = 300; i < 400; i++)
        put_puzzle(s, &boards[0], r5, i, &is_new);
    T_EQ(qn_store_rollback(s, NULL), QN_OK);
    T_EQ(runs_match(p), 300);

    /* outside a batch: a run a put */
    for (uint64_t i = 400; i < 410; i++)
        put_puzzle(s, &boards[0], r5, i, &is_new);
    T_EQ(runs_match(p), 310);
    T_EQ(t_raw_int(p, "SELECT count(*) FROM key_runs"), 11);

    /* duplicates (the same puzzles again) and two rules in one batch: the
     * 3x3 board has 512 states, so its draws repeat */
    T_EQ(qn_store_begin(s, NULL), QN_OK);
    for (uint64_t i = 0; i < 200; i++) {
        put_puzzle(s, &boards[0], r5, i, &is_new);
        T_EQ(is_new, 0);
        put_puzzle(s, &boards[1], r3, i, &is_new);
        fresh += is_new == 1;
    }
    T_EQ(qn_store_commit(s, NULL), QN_OK);
    T_CHECK(fresh > 10 && fresh < 200);
    T_EQ(runs_match(p), 310 + fresh);
    T_EQ(t_raw_int(p, "SELECT count(DISTINCT rule_id) FROM key_runs"), 2);

    /* a savepoint inside a batch rolled back takes its notes with it */
    T_EQ(qn_store_begin(s, NULL), QN_OK);
    put_puzzle(s, &boards[0], r5, 1000, &is_new);
    T_EQ(qn_store__tx_begin(s, NULL), QN_OK);
    put_puzzle(s, &boards[0], r5, 1001, &is_new);
    put_puzzle(s, &boards[0], r5, 1002, &is_new);
    T_EQ(qn_store__tx_end(s, QN_ENOTFOUND, NULL), QN_ENOTFOUND);
    T_EQ(qn_store__tx_begin(s, NULL), QN_OK);
    put_puzzle(s, &boards[0], r5, 1003, &is_new);
    T_EQ(qn_store__tx_end(s, QN_OK, NULL), QN_OK);
    T_EQ(qn_store_commit(s, NULL), QN_OK);
    T_EQ(runs_match(p), 312 + fresh);
    qn_store_close(s);
    T_EQ(check_ok(p), QN_OK);
}

/* The 65th level-0 run of a rule merges all its runs into level 1. */
static void test_compaction(void)
{
    const char *p = tpath("c.db");
    qn_store *s = open_ok(p);
    int64_t r5 = put_rule(s, &boards[0]);
    int is_new;

    for (uint64_t b = 0; b < 70; b++) {
        T_EQ(qn_store_begin(s, NULL), QN_OK);
        for (uint64_t i = 0; i < 7; i++)
            put_puzzle(s, &boards[0], r5, 5000 + b * 7 + i, &is_new);
        T_EQ(qn_store_commit(s, NULL), QN_OK);
    }
    qn_store_close(s);
    T_EQ(runs_match(p), 490);
    T_EQ(t_raw_int(p, "SELECT count(*) FROM key_runs WHERE level = 1"), 1);
    T_EQ(t_raw_int(p, "SELECT sum(count) FROM key_runs WHERE level = 1"),
         65 * 7);
    T_EQ(t_raw_int(p, "SELECT count(*) FROM key_runs WHERE level = 0"), 5);
    T_EQ(check_ok(p), QN_OK);
}

/* db merge writes the copied rows' runs; the migration builds the runs of
 * a database that had none. */
static void test_merge_and_migration(void)
{
    const char *a = tpath("ma.db"), *b = tpath("mb.db"), *o = tpath("mo.db");
    qn_store *s = open_ok(a);
    int64_t r5 = put_rule(s, &boards[0]);
    int is_new, v = 0;

    for (uint64_t i = 0; i < 150; i++)
        put_puzzle(s, &boards[0], r5, 20000 + i, &is_new);
    qn_store_close(s);
    s = open_ok(b);
    r5 = put_rule(s, &boards[0]);
    T_EQ(qn_store_begin(s, NULL), QN_OK);
    for (uint64_t i = 100; i < 250; i++) /* 50 shared with a */
        put_puzzle(s, &boards[0], r5, 20000 + i, &is_new);
    T_EQ(qn_store_commit(s, NULL), QN_OK);
    qn_store_close(s);
    s = open_ok(o);
    T_EQ(qn_store_merge(s, a, NULL, NULL), QN_OK);
    T_EQ(qn_store_merge(s, b, NULL, NULL), QN_OK);
    qn_store_close(s);
    T_EQ(t_raw_int(o, "SELECT count(*) FROM puzzles"), 250);
    T_EQ(runs_match(o), 250);
    T_EQ(check_ok(o), QN_OK);

    /* the database as schema 7 had it: no runs, each row's id in a uid
     * column (computed here from the state) */
    t_as_schema7(o, &known);
    s = open_ok(o); /* migrates */
    T_EQ(qn_store_version(s, &v, NULL), QN_OK);
    T_EQ(v, qn_store_schema_version());
    qn_store_close(s);
    T_EQ(runs_match(o), 250);
    T_EQ(t_raw_int(o, "SELECT count(*) FROM key_runs WHERE level = 0"), 0);
    T_EQ(check_ok(o), QN_OK);
}

/* db check finds a run deleted, a run damaged, a row written by hand. */
static void test_check_finds(void)
{
    const char *p = tpath("w.db"), *d = tpath("d.db");
    char sql[512];
    sqlite3 *db;
    sqlite3_stmt *st;
    long long id;

    T_EQ(check_ok(p), QN_OK);
    snprintf(sql, sizeof(sql), "VACUUM INTO '%s'", d);
    T_EQ(t_raw_exec(p, sql), SQLITE_OK);
    T_EQ(t_raw_exec(d, "DELETE FROM key_runs WHERE id = (SELECT min(id) FROM"
                       " key_runs)"),
         SQLITE_OK);
    T_EQ(check_ok(d), QN_EDB);

    unlink(d);
    T_EQ(t_raw_exec(p, sql), SQLITE_OK);
    T_EQ(t_raw_exec(d, "INSERT INTO puzzles (rule_id, state, min_presses,"
                       " optimal, witness, provenance) SELECT rule_id, state,"
                       " min_presses, optimal, witness, 2 FROM puzzles"
                       " WHERE id = 1"),
         SQLITE_OK);
    T_EQ(check_ok(d), QN_EDB);

    /* one bit of the first run flipped: its checksum */
    unlink(d);
    T_EQ(t_raw_exec(p, sql), SQLITE_OK);
    T_EQ(sqlite3_open(d, &db), SQLITE_OK);
    T_EQ(sqlite3_prepare_v2(db, "SELECT id, keys FROM key_runs ORDER BY id", -1,
                            &st, NULL),
         SQLITE_OK);
    T_EQ(sqlite3_step(st), SQLITE_ROW);
    {
        size_t len = (size_t)sqlite3_column_bytes(st, 1);
        uint8_t *k = malloc(len);
        sqlite3_stmt *up;
        memcpy(k, sqlite3_column_blob(st, 1), len);
        id = sqlite3_column_int64(st, 0);
        sqlite3_finalize(st);
        k[len / 2] ^= 0x10;
        T_EQ(sqlite3_prepare_v2(db, "UPDATE key_runs SET keys = ? WHERE id = ?",
                                -1, &up, NULL),
             SQLITE_OK);
        sqlite3_bind_blob(up, 1, k, (int)len, SQLITE_TRANSIENT);
        sqlite3_bind_int64(up, 2, id);
        T_EQ(sqlite3_step(up), SQLITE_DONE);
        sqlite3_finalize(up);
        free(k);
    }
    sqlite3_close(db);
    T_EQ(check_ok(d), QN_EDB);
}

int main(void)
{
    T_CHECK(mkdtemp(tmpdir) != NULL);
    for (int i = 0; i < 2; i++) {
        T_EQ(qn_rules_load_file(&boards[i].rules, boards[i].file, NULL), QN_OK);
        T_EQ(qn_solver_new(&boards[i].game, boards[i].rules, NULL), QN_OK);
        qn_rules_hash(boards[i].rules, boards[i].hash);
        t_uid_add(&known, boards[i].rules);
    }
    test_writes();
    test_compaction();
    test_merge_and_migration();
    test_check_finds();
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
