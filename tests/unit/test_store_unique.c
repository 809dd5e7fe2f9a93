/*
 * test_store_unique.c: the put path's own duplicate check (store_unique.c,
 * #35 section 1): every state of classic 3x3 stored several times, in a
 * random order across batches, on one handle and on two handles writing
 * interleaved batches to one file, and after a savepoint rolled back. The
 * classes of states under the square's 8 symmetries are counted here by
 * hand (not through qn_canon_form): one row a class, every later copy
 * reported as the duplicate of the class's first row.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

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

#define NSTATES 512
#define COPIES 3

static char tmpdir[] = "/tmp/qn_store_unique_XXXXXX";
static qn_rules *rules;
static qn_solver *game;

#define tpath(name) t_path(tmpdir, (name))

/* The image of 3x3 state x (bit r*3+c) under symmetry g of the square:
 * g & 3 quarter turns, then a mirror when g & 4. */
static unsigned image(unsigned x, int g)
{
    unsigned y = 0;

    for (int r = 0; r < 3; r++)
        for (int c = 0; c < 3; c++) {
            int rr = r, cc = c, t;
            for (int q = 0; q < (g & 3); q++) {
                t = rr;
                rr = cc;
                cc = 2 - t;
            }
            if (g & 4)
                cc = 2 - cc;
            if (x >> (r * 3 + c) & 1)
                y |= 1u << (rr * 3 + cc);
        }
    return y;
}

/* The class of x: the least of its 8 images. */
static unsigned class_of(unsigned x)
{
    unsigned m = x;

    for (int g = 1; g < 8; g++) {
        unsigned y = image(x, g);
        m = y < m ? y : m;
    }
    return m;
}

static int64_t put_rule(qn_store *s)
{
    int64_t id = 0;

    T_EQ(qn_store_put_ruleset(s, rules, &id, NULL), QN_OK);
    return id;
}

/* Store state x; *is_new and the row id the store reports. */
static int64_t put_state(qn_store *s, int64_t rule_id, unsigned x, int *is_new)
{
    uint8_t st[9], c[9], canon[4];
    qn_answer a;
    qn_buf bs = QN_BUF_INIT, bw = QN_BUF_INIT;
    qn_store_puzzle p;
    int64_t id = 0;

    for (int j = 0; j < 9; j++)
        st[j] = x >> j & 1;
    qn_answer_init(&a, game, NULL);
    qn_solver_answer(game, &a, st);
    T_CHECK(a.solvable);
    qn_state_format(&bs, qn_rules_layout(rules), st, '/');
    qn_state_format(&bw, qn_rules_layout(rules), a.plan, '/');
    qn_canon_form(rules, c, st);
    memset(&p, 0, sizeof(p));
    p.rule_id = rule_id;
    p.state = bs.buf;
    p.canon = canon;
    p.canon_len = qn_store_canon_pack(canon, c, 9, 2);
    p.min_presses = a.mp.presses;
    p.noptimal = a.mp.noptimal;
    p.witness = bw.buf;
    p.grader = "test-1";
    p.stream_index = -1;
    p.provenance = QN_STORE_IMPORT;
    *is_new = -1;
    T_EQ(qn_store_put_puzzle(s, &p, &id, is_new, NULL), QN_OK);
    qn_answer_release(&a);
    qn_buf_release(&bs);
    qn_buf_release(&bw);
    return id;
}

/* Every state COPIES times, shuffled. */
static void shuffled(unsigned *v, uint64_t seed)
{
    for (int i = 0; i < NSTATES * COPIES; i++)
        v[i] = (unsigned)(i % NSTATES);
    for (int i = NSTATES * COPIES - 1; i > 0; i--) {
        int j = (int)(t_rand(&seed) % (uint64_t)(i + 1));
        unsigned t = v[i];
        v[i] = v[j];
        v[j] = t;
    }
}

static int nclasses(void)
{
    int n = 0;

    for (unsigned x = 0; x < NSTATES; x++)
        n += class_of(x) == x;
    return n;
}

/* The verdict of a put of x against the first row of its class. */
static void judge(int64_t *first, unsigned x, int64_t id, int is_new)
{
    unsigned k = class_of(x);

    if (!first[k]) {
        T_EQ(is_new, 1);
        first[k] = id;
    } else {
        T_EQ(is_new, 0);
        T_EQ(id, first[k]);
    }
}

static qn_store *open_ok(const char *path)
{
    qn_store *s = NULL;

    T_EQ(qn_store_open(&s, path, QN_STORE_CREATE, NULL), QN_OK);
    return s;
}

/* The rows of the file, read on a connection of the test's own. */
static long long rows_in(const char *path)
{
    sqlite3 *db;
    sqlite3_stmt *st;
    long long v = -1;

    if (sqlite3_open(path, &db) == SQLITE_OK &&
        sqlite3_prepare_v2(db, "SELECT count(*) FROM puzzles", -1, &st, NULL) ==
            SQLITE_OK) {
        if (sqlite3_step(st) == SQLITE_ROW)
            v = sqlite3_column_int64(st, 0);
        sqlite3_finalize(st);
    }
    sqlite3_close(db);
    return v;
}

/* One handle, batches of 37 with a few puts outside a batch between. */
static void test_one_handle(void)
{
    const char *path = tpath("one.db");
    qn_store *s = open_ok(path);
    int64_t rid = put_rule(s), first[NSTATES] = {0}, id;
    unsigned v[NSTATES * COPIES];
    int is_new, i = 0;

    shuffled(v, 1);
    while (i < NSTATES * COPIES) {
        T_EQ(qn_store_begin(s, NULL), QN_OK);
        for (int j = 0; j < 37 && i < NSTATES * COPIES; j++, i++) {
            id = put_state(s, rid, v[i], &is_new);
            judge(first, v[i], id, is_new);
        }
        T_EQ(qn_store_commit(s, NULL), QN_OK);
        for (int j = 0; j < 3 && i < NSTATES * COPIES; j++, i++) {
            id = put_state(s, rid, v[i], &is_new);
            judge(first, v[i], id, is_new);
        }
    }
    qn_store_close(s);
    T_EQ(rows_in(path), nclasses());
}

/* Two handles on one file, batches interleaved: each learns the other's
 * rows from its runs (PRAGMA data_version). */
static void test_two_handles(void)
{
    const char *path = tpath("two.db");
    qn_store *s[2] = {open_ok(path), open_ok(path)};
    int64_t rid = put_rule(s[0]), first[NSTATES] = {0}, id;
    unsigned v[NSTATES * COPIES];
    int is_new, i = 0;

    T_EQ(put_rule(s[1]), rid);
    shuffled(v, 2);
    for (int b = 0; i < NSTATES * COPIES; b++) {
        qn_store *h = s[b & 1];
        T_EQ(qn_store_begin(h, NULL), QN_OK);
        for (int j = 0; j < 29 && i < NSTATES * COPIES; j++, i++) {
            id = put_state(h, rid, v[i], &is_new);
            judge(first, v[i], id, is_new);
        }
        T_EQ(qn_store_commit(h, NULL), QN_OK);
        if (b % 5 == 4 && i < NSTATES * COPIES) { /* one outside a batch */
            id = put_state(s[!(b & 1)], rid, v[i], &is_new);
            judge(first, v[i], id, is_new);
            i++;
        }
    }
    qn_store_close(s[0]);
    qn_store_close(s[1]);
    T_EQ(rows_in(path), nclasses());
}

/* A savepoint rolled back inside a batch takes its rows with it: the
 * same puzzle stored again is stored (once), not called a duplicate of
 * a row that is gone. */
static void test_savepoint(void)
{
    const char *path = tpath("sp.db");
    qn_store *s = open_ok(path);
    int64_t rid = put_rule(s), id, again;
    int is_new;

    T_EQ(qn_store_begin(s, NULL), QN_OK);
    put_state(s, rid, 1, &is_new);
    T_EQ(is_new, 1);
    T_EQ(qn_store__tx_begin(s, NULL), QN_OK);
    put_state(s, rid, 3, &is_new);
    T_EQ(is_new, 1);
    T_EQ(qn_store__tx_end(s, QN_ENOTFOUND, NULL), QN_ENOTFOUND);
    id = put_state(s, rid, image(3, 1), &is_new);
    T_EQ(is_new, 1);
    again = put_state(s, rid, 3, &is_new);
    T_EQ(is_new, 0);
    T_EQ(again, id);
    put_state(s, rid, image(1, 6), &is_new);
    T_EQ(is_new, 0);
    T_EQ(qn_store_commit(s, NULL), QN_OK);
    qn_store_close(s);
    T_EQ(rows_in(path), 2);
}

/* The one value a query gives on a connection of the test's own. */
static int64_t sql_int(const char *path, const char *sql)
{
    sqlite3 *db;
    sqlite3_stmt *st;
    int64_t v = -1;

    if (sqlite3_open(path, &db) == SQLITE_OK &&
        sqlite3_prepare_v2(db, sql, -1, &st, NULL) == SQLITE_OK) {
        if (sqlite3_step(st) == SQLITE_ROW)
            v = sqlite3_column_int64(st, 0);
        sqlite3_finalize(st);
    }
    sqlite3_close(db);
    return v;
}

/* Two puzzles sharing an id are both kept: a run written by another
 * connection files state 7's id under state 1's row, so that 7's probe
 * hits a row whose canonical form is not 7's. A check that compared the
 * ids alone would call 7 a duplicate of 1. */
static void test_shared_id(void)
{
    const char *ids = tpath("ids.db"), *path = tpath("shared.db");
    qn_store *s = open_ok(ids);
    int64_t rid = put_rule(s), row1, row7, again;
    qn_kr_pair pair;
    uint8_t *blob;
    size_t len;
    sqlite3 *db;
    sqlite3_stmt *st;
    int is_new;

    put_state(s, rid, 7, &is_new);
    qn_store_close(s);
    pair.key = (uint64_t)sql_int(ids, "SELECT uid FROM puzzles");
    s = open_ok(path);
    T_EQ(put_rule(s), rid);
    row1 = put_state(s, rid, 1, &is_new);
    T_EQ(is_new, 1);
    pair.row = row1;
    T_EQ(qn_kr_encode(&pair, 1, &blob, &len), QN_OK);
    T_EQ(sqlite3_open(path, &db), SQLITE_OK);
    T_EQ(sqlite3_prepare_v2(db,
                            "INSERT INTO key_runs (rule_id, level, first_key,"
                            " last_key, count, keys) VALUES (?, 0, ?, ?, 1, ?)",
                            -1, &st, NULL),
         SQLITE_OK);
    sqlite3_bind_int64(st, 1, rid);
    sqlite3_bind_int64(st, 2, (int64_t)pair.key);
    sqlite3_bind_int64(st, 3, (int64_t)pair.key);
    sqlite3_bind_blob(st, 4, blob, (int)len, SQLITE_STATIC);
    T_EQ(sqlite3_step(st), SQLITE_DONE);
    sqlite3_finalize(st);
    sqlite3_close(db);
    free(blob);
    row7 = put_state(s, rid, 7, &is_new);
    T_EQ(is_new, 1);
    T_CHECK(row7 != row1);
    again = put_state(s, rid, image(7, 5), &is_new);
    T_EQ(is_new, 0);
    T_EQ(again, row7);
    again = put_state(s, rid, image(1, 3), &is_new);
    T_EQ(is_new, 0);
    T_EQ(again, row1);
    qn_store_close(s);
    T_EQ(rows_in(path), 2);
}

int main(void)
{
    T_CHECK(mkdtemp(tmpdir) != NULL);
    T_EQ(qn_rules_load_file(&rules, "rules/classic-3x3.yaml", NULL), QN_OK);
    T_EQ(qn_solver_new(&game, rules, NULL), QN_OK);
    T_EQ(nclasses(), 102); /* Burnside: (512 + 2*8 + 32 + 4*64) / 8 */
    test_one_handle();
    test_two_handles();
    test_savepoint();
    test_shared_id();
    qn_solver_free(game);
    qn_rules_free(rules);
    {
        char cmd[128];
        snprintf(cmd, sizeof(cmd), "rm -rf %s", tmpdir);
        T_CHECK(system(cmd) == 0);
    }
    return t_done();
}
