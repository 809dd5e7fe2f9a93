/*
 * test_store_merge.c: db merge finding its conflicts itself
 * (src/store/store_merge_keys.c, store_merge_copy.c): inputs holding the
 * same puzzles in other orientations, with other seeds and stream
 * indices, merged in two orders, each result checked against an oracle
 * of the test's own (the classes by the board's eight symmetries written
 * here, and the winner rule: the first copy stays when it has no seed,
 * else the smallest (seed, stream index, state) of the copies with one);
 * an input holding one puzzle twice; an input whose rule text does not
 * load or is not its hash's, refused and naming the input.
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
#include "store/store.h"
#include "t.h"
#include "tsql.h"
#include "tstore.h"

#define SIDE 5
#define N (SIDE * SIDE)
#define CLASSES 24 /* puzzles drawn */
#define INPUTS 3

static char tmpdir[] = "/tmp/qn_store_merge_XXXXXX";
static qn_rules *rules;
static t_uid_rules known; /* rules, for ids from states (tstore.h) */
static qn_solver *game;
static char rule_hash[65];

#define tpath(name) t_path(tmpdir, (name))

/* Symmetry t (0..7) of the 5x5 square: a rotation by t % 4 quarter
 * turns, mirrored when t >= 4. */
static void d4(int t, uint8_t *out, const uint8_t *in)
{
    for (int r = 0; r < SIDE; r++)
        for (int c = 0; c < SIDE; c++) {
            int rr = r, cc = t >= 4 ? SIDE - 1 - c : c;
            for (int q = 0; q < t % 4; q++) {
                int x = rr;
                rr = cc;
                cc = SIDE - 1 - x;
            }
            out[rr * SIDE + cc] = in[r * SIDE + c];
        }
}

/* The smallest image of s under the eight (the class's name). */
static void class_of(uint8_t *out, const uint8_t *s)
{
    uint8_t im[N];

    memcpy(out, s, N);
    for (int t = 1; t < 8; t++) {
        d4(t, im, s);
        if (memcmp(im, out, N) < 0)
            memcpy(out, im, N);
    }
}

/* A copy as the test put it: its class, state, seed (NULL: none) and
 * stream index. */
typedef struct copy {
    int cls;
    uint8_t state[N];
    const char *seed;
    int64_t index;
} copy;

static copy copies[INPUTS][CLASSES];
static int ncopies[INPUTS];
static uint8_t base[CLASSES][N]; /* each class's first state */

/* The packed state as stored (the state blob's bytes) of cells s. */
static size_t packed(uint8_t *out, const uint8_t *s)
{
    return qn_store_canon_pack(out, s, N, 2);
}

static int64_t put_rule(qn_store *s, const char *yaml)
{
    qn_store_rule r = {rule_hash,
                       "classic-5x5",
                       yaml,
                       N,
                       2,
                       "",
                       "00000/00000/00000/00000/00000"};
    int64_t id = 0;

    T_EQ(qn_store_put_rule(s, &r, &id, NULL), QN_OK);
    return id;
}

/* Store copy c with rule rid, in run `run` (0: none): its witness the
 * state's plan. */
static void put_copy_in(qn_store *s, int64_t rid, int64_t run, const copy *c)
{
    uint8_t form[N], key[8];
    qn_buf bs = QN_BUF_INIT, bw = QN_BUF_INIT;
    qn_answer a;
    qn_store_puzzle p;
    int is_new = -1;

    qn_answer_init(&a, game, NULL);
    qn_solver_answer(game, &a, c->state);
    qn_state_format(&bs, qn_rules_layout(rules), c->state, '/');
    qn_state_format(&bw, qn_rules_layout(rules), a.plan, '/');
    qn_canon_form(rules, form, c->state);
    memset(&p, 0, sizeof(p));
    p.rule_id = rid;
    p.state = bs.buf;
    p.witness = bw.buf;
    p.canon = key;
    p.canon_len = qn_store_canon_pack(key, form, N, 2);
    p.min_presses = a.mp.presses;
    p.noptimal = a.mp.noptimal;
    p.grader = "test-1";
    p.seed = c->seed;
    p.stream_index = c->seed ? c->index : -1;
    p.provenance = c->seed ? QN_STORE_GENERATE : QN_STORE_VALIDATE;
    p.run_id = run;
    T_EQ(qn_store_put_puzzle(s, &p, NULL, &is_new, NULL), QN_OK);
    T_EQ(is_new, 1);
    qn_answer_release(&a);
    qn_buf_release(&bs);
    qn_buf_release(&bw);
}

static void put_copy(qn_store *s, int64_t rid, const copy *c)
{
    put_copy_in(s, rid, 0, c);
}

/* Three inputs: input i holds a random subset of the classes, each in a
 * random orientation, with seed "aa", "bb" or none and a random index
 * (input 0 holds them all, so every class is in each result). */
static void make_inputs(void)
{
    static const char *const seeds[] = {"aa", "bb", NULL, "aa"};
    uint64_t r = 35;

    for (int c = 0; c < CLASSES; c++) {
        uint8_t cls[N];
        int fresh;
        do { /* a solvable state of a class not drawn yet */
            qn_answer a;
            for (int j = 0; j < N; j++)
                base[c][j] = t_rand(&r) & 1;
            qn_answer_init(&a, game, NULL);
            qn_solver_answer(game, &a, base[c]);
            fresh = a.solvable && !a.at_goal;
            qn_answer_release(&a);
            class_of(cls, base[c]);
            for (int d = 0; fresh && d < c; d++) {
                uint8_t other[N];
                class_of(other, base[d]);
                fresh = memcmp(cls, other, N) != 0;
            }
        } while (!fresh);
    }
    for (int i = 0; i < INPUTS; i++) {
        char name[32];
        qn_store *s = NULL;
        int64_t rid;

        snprintf(name, sizeof(name), "in%d.db", i);
        T_EQ(qn_store_open(&s, tpath(name), QN_STORE_CREATE, NULL), QN_OK);
        rid = put_rule(s, qn_rules_text(rules, NULL));
        for (int c = 0; c < CLASSES; c++) {
            copy *k = &copies[i][ncopies[i]];
            if (i && t_rand(&r) % 3 == 0)
                continue;
            k->cls = c;
            d4((int)(t_rand(&r) % 8), k->state, base[c]);
            k->seed = seeds[t_rand(&r) % 4];
            k->index = (int64_t)(t_rand(&r) % 4);
            put_copy(s, rid, k);
            ncopies[i]++;
        }
        qn_store_close(s);
    }
}

/* <0, 0, >0: copy a's key against b's (both seeded), as SQL compares
 * (seed, stream_index, state): texts, integers, blobs by bytes. */
static int key_cmp(const copy *a, const copy *b)
{
    uint8_t x[8], y[8];
    int c = strcmp(a->seed, b->seed);

    if (c)
        return c;
    if (a->index != b->index)
        return a->index < b->index ? -1 : 1;
    packed(x, a->state);
    packed(y, b->state);
    return memcmp(x, y, qn_store_canon_size(N, 2));
}

/* The oracle: the copy of class c OUT keeps after merging the inputs in
 * `order`, each input's copies in the order they were put. */
static const copy *winner(const int *order, int c)
{
    const copy *w = NULL;

    for (int o = 0; o < INPUTS; o++) {
        int i = order[o];
        for (int k = 0; k < ncopies[i]; k++) {
            const copy *x = &copies[i][k];
            if (x->cls != c)
                continue;
            if (!w)
                w = x;
            else if (w->seed && x->seed && key_cmp(x, w) < 0)
                w = x;
        }
    }
    return w;
}

/* OUT (path) against the oracle for `order`: one row a class, holding
 * the winner's state, seed and index. */
static void check_out(const char *path, const int *order)
{
    sqlite3 *db = NULL;
    sqlite3_stmt *st = NULL;
    int seen[CLASSES] = {0}, rows = 0, wrong = 0;

    T_EQ(sqlite3_open(path, &db), SQLITE_OK);
    T_EQ(sqlite3_prepare_v2(db,
                            "SELECT p.state, iif(p.seed = '', r.seed,"
                            " p.seed), p.stream_index FROM puzzles p"
                            " LEFT JOIN runs r ON r.id = p.run_id",
                            -1, &st, NULL),
         SQLITE_OK);
    while (sqlite3_step(st) == SQLITE_ROW) {
        uint8_t s[N], cls[N], want[8];
        const copy *w = NULL;
        int c;

        qn_store_canon_unpack(s, sqlite3_column_blob(st, 0), N, 2);
        class_of(cls, s);
        for (c = 0; c < CLASSES; c++) {
            uint8_t b[N];
            class_of(b, base[c]);
            if (!memcmp(b, cls, N))
                break;
        }
        rows++;
        if (c == CLASSES || seen[c]++) {
            wrong++;
            continue;
        }
        w = winner(order, c);
        packed(want, w->state);
        if (memcmp(want, sqlite3_column_blob(st, 0),
                   qn_store_canon_size(N, 2)) ||
            !w->seed != (sqlite3_column_type(st, 1) == SQLITE_NULL) ||
            (w->seed &&
             strcmp(w->seed, (const char *)sqlite3_column_text(st, 1))) ||
            (w->seed && w->index != sqlite3_column_int64(st, 2)))
            wrong++;
    }
    sqlite3_finalize(st);
    sqlite3_close(db);
    T_EQ(rows, CLASSES);
    T_EQ(wrong, 0);
}

/* Merge the inputs in `order`; each merge's counts against the
 * oracle: the classes new to OUT, and the copies of the others. */
static void merge_in(const char *out, const int *order)
{
    int had[CLASSES] = {0};
    qn_store *s = NULL;
    qn_err err = QN_ERR_INIT;

    T_EQ(qn_store_open(&s, out, QN_STORE_CREATE, NULL), QN_OK);
    for (int o = 0; o < INPUTS; o++) {
        qn_store_merge_stats st;
        int64_t fresh = 0;
        char name[16];
        for (int k = 0; k < ncopies[order[o]]; k++)
            fresh += !had[copies[order[o]][k].cls]++;
        snprintf(name, sizeof(name), "in%d.db", order[o]);
        if (qn_store_merge(s, tpath(name), &st, &err) != QN_OK)
            T_FAILF("merge %s: %s", name, err.msg);
        T_EQ(st.puzzles, fresh);
        T_EQ(st.duplicates, ncopies[order[o]] - fresh);
    }
    if (qn_store_check(s, NULL, &err) != QN_OK)
        T_FAILF("check after merge: %s", err.msg);
    qn_store_close(s);
}

static void test_orientations(void)
{
    static const int orders[2][INPUTS] = {{0, 1, 2}, {2, 1, 0}};
    int met = 0;

    make_inputs();
    /* the inputs share classes in other orientations: the test tests */
    for (int k = 0; k < ncopies[1]; k++)
        for (int j = 0; j < ncopies[0]; j++)
            met += copies[1][k].cls == copies[0][j].cls &&
                   memcmp(copies[1][k].state, copies[0][j].state, N);
    T_CHECK(met > 3);
    merge_in(tpath("o012.db"), orders[0]);
    check_out(tpath("o012.db"), orders[0]);
    merge_in(tpath("o210.db"), orders[1]);
    check_out(tpath("o210.db"), orders[1]);
}

/* The images of base[c] with the largest and the smallest packed
 * bytes. */
static void extremes(int c, uint8_t *hi, uint8_t *lo)
{
    uint8_t im[N], b[8], bh[8], bl[8];
    size_t len = qn_store_canon_size(N, 2);

    memcpy(hi, base[c], N);
    memcpy(lo, base[c], N);
    for (int t = 1; t < 8; t++) {
        d4(t, im, base[c]);
        packed(b, im);
        packed(bh, hi);
        packed(bl, lo);
        if (memcmp(b, bh, len) > 0)
            memcpy(hi, im, N);
        if (memcmp(b, bl, len) < 0)
            memcpy(lo, im, N);
    }
}

static void hex_of(char *out, const uint8_t *cells)
{
    uint8_t b[8];

    packed(b, cells);
    for (size_t i = 0; i < qn_store_canon_size(N, 2); i++)
        snprintf(out + 2 * i, 3, "%02x", b[i]);
}

/*
 * An input holding one puzzle twice (written by hand: its own unique
 * key sees another canonical key) merges as one, the winner rule
 * applied between the two. Its rows: classes 0..2 at stream indices 10,
 * 11, 12 (class 2 as its image of largest bytes), then the copy of
 * class 2 as its smallest image at index `dup`. At 12 the input is in
 * stream order and the copy wins on its state at the first copy's row
 * (3); at 1 it is out of order, the copy goes first (row 1) and wins on
 * its index. Either way OUT holds 3 rows, ids 1..3 (a duplicate takes
 * no id).
 */
static void dup_case(int64_t dup, int64_t want_row)
{
    const char *in = tpath("dup.db"), *out = tpath("dupout.db");
    uint8_t hi[N], lo[N];
    char sql[640], hhi[17], hlo[17];
    qn_store *s = NULL;
    qn_store_merge_stats st;
    qn_err err = QN_ERR_INIT;

    remove(in);
    remove(out);
    extremes(2, hi, lo);
    T_CHECK(memcmp(hi, lo, N) != 0);
    hex_of(hhi, hi);
    hex_of(hlo, lo);
    T_EQ(qn_store_open(&s, in, QN_STORE_CREATE, NULL), QN_OK);
    put_rule(s, qn_rules_text(rules, NULL));
    for (int c = 0; c < 3; c++) {
        copy k = {c, {0}, "cc", 10 + c};
        memcpy(k.state, c == 2 ? hi : base[c], N);
        put_copy(s, 1, &k);
    }
    qn_store_close(s);
    /* the witness too is the first copy's: the store does not read it */
    snprintf(sql, sizeof(sql),
             "INSERT INTO puzzles (rule_id, state, min_presses, optimal,"
             " witness, grade, grader, seed, stream_index, provenance,"
             " run_id) SELECT rule_id, x'%s', min_presses, optimal, witness,"
             " grade, grader, seed, %lld, provenance, run_id FROM puzzles"
             " WHERE id = 3",
             hlo, (long long)dup);
    T_EQ(t_raw_exec(in, sql), SQLITE_OK);
    t_as_schema7(in, &known);
    T_EQ(qn_store_open(&s, in, QN_STORE_CREATE, NULL), QN_OK); /* runs */
    qn_store_close(s);
    T_EQ(t_raw_int(in, "SELECT count(*) FROM puzzles"), 4);

    T_EQ(qn_store_open(&s, out, QN_STORE_CREATE, NULL), QN_OK);
    if (qn_store_merge(s, in, &st, &err) != QN_OK)
        T_FAILF("merge of a duplicate pair: %s", err.msg);
    T_EQ(st.puzzles, 3);
    T_EQ(st.duplicates, 1);
    qn_store_close(s);
    T_EQ(t_raw_int(out, "SELECT count(*) FROM puzzles"), 3);
    T_EQ(t_raw_int(out, "SELECT max(id) FROM puzzles"), 3);
    snprintf(sql, sizeof(sql),
             "SELECT id FROM puzzles WHERE state = x'%s'"
             " AND stream_index = %lld",
             hlo, (long long)dup);
    T_EQ(t_raw_int(out, sql), want_row);
    snprintf(sql, sizeof(sql),
             "SELECT count(*) FROM puzzles WHERE state = x'%s'", hhi);
    T_EQ(t_raw_int(out, sql), 0);
}

static void test_duplicate_pair(void)
{
    dup_case(12, 3);
    dup_case(1, 1);
}

/*
 * Rows that keep '' for their run's seed, two runs, rows by id in the
 * runs' order: seeds s0 then s1, two classes each at indices 0, 1 and
 * 2, 3.
 * Merged alone into a new OUT, its rows must take ids in stream order
 * (seed, index), whichever seed sorts first: the copy by row where the
 * input is in it, sorted where not. Counted by SQL: OUT's neighbours by
 * id whose seeds, as their runs give them, or indices go down.
 */
static void runs_case(const char *s0, const char *s1, int in_order)
{
    const char *in = tpath("runs.db"), *out = tpath("runsout.db");
    const char *seeds[2] = {s0, s1};
    qn_store *s = NULL;
    qn_store_merge_stats st;
    qn_err err = QN_ERR_INIT;
    int64_t rid;

    remove(in);
    remove(out);
    T_EQ(qn_store_open(&s, in, QN_STORE_CREATE, NULL), QN_OK);
    rid = put_rule(s, qn_rules_text(rules, NULL));
    for (int r = 0; r < 2; r++) {
        qn_store_run run = {"generate", rid, seeds[r], "", "test", 2};
        int64_t id = 0;
        T_EQ(qn_store_run_start(s, &run, &id, NULL), QN_OK);
        for (int i = 0; i < 2; i++) {
            /* indices up across runs: only the seeds are out of order */
            copy k = {2 * r + i, {0}, seeds[r], 2 * r + i};
            memcpy(k.state, base[2 * r + i], N);
            put_copy_in(s, rid, id, &k);
        }
    }
    qn_store_close(s);
    /* the rows keep '' for the seed: the run cache's path is the one
     * taken */
    T_EQ(t_raw_int(in, "SELECT count(*) FROM puzzles WHERE seed = ''"), 4);
    T_EQ(t_raw_int(in, "SELECT count(*) FROM puzzles p JOIN runs r ON"
                       " r.id = p.run_id WHERE p.seed = '' AND r.seed <>"
                       " '' AND p.id > (SELECT min(q.id) FROM puzzles q"
                       " JOIN runs u ON u.id = q.run_id WHERE u.seed >"
                       " r.seed)"),
         in_order ? 0 : 2);
    T_EQ(qn_store_open(&s, out, QN_STORE_CREATE, NULL), QN_OK);
    if (qn_store_merge(s, in, &st, &err) != QN_OK)
        T_FAILF("merge of two runs: %s", err.msg);
    T_EQ(st.puzzles, 4);
    qn_store_close(s);
    T_EQ(t_raw_int(out, "SELECT count(*) FROM puzzles a JOIN runs ra ON"
                        " ra.id = a.run_id JOIN puzzles b ON b.id = a.id + 1"
                        " JOIN runs rb ON rb.id = b.run_id WHERE"
                        " iif(b.seed = '', rb.seed, b.seed) < iif(a.seed ="
                        " '', ra.seed, a.seed) OR (iif(b.seed = '', rb.seed,"
                        " b.seed) = iif(a.seed = '', ra.seed, a.seed) AND"
                        " b.stream_index < a.stream_index)"),
         0);
    T_EQ(t_raw_int(out, "SELECT count(*) FROM puzzles"), 4);
}

static void test_run_seeds(void)
{
    runs_case("aa", "bb", 1);
    runs_case("bb", "aa", 0);
}

/* An input whose rule text does not load, or is another rule's:
 * refused, naming the input and the rule, OUT as it was. */
static void test_bad_rule(void)
{
    static const char *const fix[] = {
        "UPDATE rules SET yaml = 'quench: 1'",
        "UPDATE rules SET yaml = replace(yaml, 'wrap: none', 'wrap: both')"};
    static const char *const says[] = {
        "rule set 1 does not load", "its text is not the rule set of its hash"};

    for (int i = 0; i < 2; i++) {
        const char *in = tpath("bad.db"), *out = tpath("badout.db");
        qn_store *s = NULL;
        qn_err err = QN_ERR_INIT;
        char cmd[600];

        snprintf(cmd, sizeof(cmd), "cp '%s' '%s'", tpath("in0.db"), in);
        T_EQ(system(cmd), 0);
        T_EQ(t_raw_exec(in, fix[i]), SQLITE_OK);
        remove(out);
        T_EQ(qn_store_open(&s, out, QN_STORE_CREATE, NULL), QN_OK);
        T_EQ(qn_store_merge(s, tpath("in1.db"), NULL, NULL), QN_OK);
        T_EQ(qn_store_merge(s, in, NULL, &err), QN_EDB);
        T_CHECK(strstr(err.msg, says[i]) != NULL);
        T_CHECK(!strcmp(err.source, in));
        qn_store_close(s);
        T_EQ(t_raw_int(out, "SELECT count(*) FROM puzzles"), ncopies[1]);
    }
}

/* Unpacking one bit a cell (a fast path) against the packing of
 * docs/STORE.md read bit by bit: cell i is bit i % 8 of byte i / 8; the
 * bits past the last cell are never read. */
static void test_unpack(void)
{
    uint64_t r = 7;
    int wrong = 0;

    for (int n = 1; n <= 130; n++)
        for (int rep = 0; rep < 20; rep++) {
            uint8_t b[17], cells[131];
            for (int i = 0; i < 17; i++)
                b[i] = (uint8_t)t_rand(&r);
            cells[n] = 0xee;
            qn_store_canon_unpack(cells, b, n, 2);
            for (int i = 0; i < n; i++)
                wrong += cells[i] != (b[i / 8] >> (i % 8) & 1);
            wrong += cells[n] != 0xee;
        }
    T_EQ(wrong, 0);
}

int main(void)
{
    if (!t_classic_setup(tmpdir, &rules, &game, rule_hash, &known))
        return 1;
    test_unpack();
    test_orientations();
    test_duplicate_pair();
    test_run_seeds();
    test_bad_rule();
    qn_solver_free(game);
    qn_rules_free(rules);
    if (!getenv("QN_KEEP"))
        t_rmtree(tmpdir);
    return t_done();
}
