/* tier: full (crash, lock and merge cases on real files: minutes) */
/*
 * test_store.c: the SQLite store on real files in a temporary directory
 * (and :memory: for the schema version): migrations, application_id,
 * foreign keys, the duplicate constraint, pack order, rollback, merge, and
 * the failure modes (newer, foreign, corrupt, read-only, locked), each
 * asserting the exact code and that outputs stayed NULL.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include <sqlite3.h>

#include "base/buf.h"
#include "base/file.h"
#include "base/mem.h"
#include "generate/distrib.h"
#include "rules/canon.h"
#include "rules/puzzle_id.h"
#include "rules/rules.h"
#include "rules/state.h"
#include "solve/solver.h"
#include "store/store.h"
#include "t.h"
#include "tfail.h"
#include "tsql.h"
#include "tstore.h"

static char tmpdir[] = "/tmp/qn_store_XXXXXX";
static qn_rules *rules;
static qn_solver *game;
static char rule_hash[65];
static t_uid_rules known; /* rules, for ids from states (tstore.h) */

#define tpath(name) t_path(tmpdir, (name))

/* A hash of a query's whole output, to compare databases (tsql.h); 0
 * when the file does not open. */
static unsigned long long raw_digest(const char *path, const char *sql)
{
    sqlite3 *db;
    unsigned long long h = 0;

    if (sqlite3_open(path, &db) == SQLITE_OK)
        h = t_sql_digest(db, sql, T_SQL_DIGEST0);
    sqlite3_close(db);
    return h;
}

/* A solvable classic 5x5 puzzle from stream index i: fills p. */
typedef struct tpuz {
    char state[64], witness[64];
    uint8_t canon[8];
    qn_store_puzzle p;
} tpuz;

/* Row id's puzzle id, computed by the test from its stored state
 * (tstore.h) on a connection of its own: 0 when there is no such row. */
static uint64_t row_uid(const char *path, int64_t id)
{
    sqlite3 *db;
    sqlite3_stmt *st = NULL;
    uint64_t v = 0;

    T_EQ(sqlite3_open(path, &db), SQLITE_OK);
    t_uid_register(db, &known);
    T_EQ(sqlite3_prepare_v2(db,
                            "SELECT t_uid(r.hash, p.state) FROM puzzles p"
                            " JOIN rules r ON r.id = p.rule_id WHERE p.id = ?",
                            -1, &st, NULL),
         SQLITE_OK);
    sqlite3_bind_int64(st, 1, id);
    if (sqlite3_step(st) == SQLITE_ROW)
        v = (uint64_t)sqlite3_column_int64(st, 0);
    sqlite3_finalize(st);
    sqlite3_close(db);
    return v;
}

static void make_puzzle(tpuz *t, int64_t rule_id, uint64_t i)
{
    int n = qn_rules_ncells(rules);
    uint8_t s[64], c[64];
    uint64_t seed = i * 7919 + 13;
    qn_answer a;
    qn_buf b = QN_BUF_INIT;

    qn_answer_init(&a, game, NULL);
    for (;;) {
        for (int j = 0; j < n; j++)
            s[j] = t_rand(&seed) & 1;
        qn_solver_answer(game, &a, s);
        if (a.solvable && !a.at_goal)
            break;
    }
    qn_state_format(&b, qn_rules_layout(rules), s, '/');
    snprintf(t->state, sizeof(t->state), "%s", b.buf);
    qn_buf_reset(&b);
    qn_state_format(&b, qn_rules_layout(rules), a.plan, '/');
    snprintf(t->witness, sizeof(t->witness), "%s", b.buf);
    qn_buf_release(&b);
    qn_canon_form(rules, c, s);
    memset(&t->p, 0, sizeof(t->p));
    t->p.rule_id = rule_id;
    t->p.state = t->state;
    t->p.canon = t->canon;
    t->p.canon_len = qn_store_canon_pack(t->canon, c, n, 2);
    t->p.min_presses = a.mp.presses;
    t->p.noptimal = a.mp.noptimal;
    t->p.witness = t->witness;
    t->p.grade = qn_solver_grade(game, a.mp.presses);
    t->p.grader = "test-1";
    t->p.seed = "00ff";
    t->p.stream_index = (int64_t)i;
    t->p.provenance = QN_STORE_GENERATE;
    qn_answer_release(&a);
}

static int64_t put_rule(qn_store *s)
{
    /* the rule's own text: readers and db merge compute puzzle ids from it */
    qn_store_rule r = {
        rule_hash, "classic-5x5", qn_rules_text(rules, NULL),     25,
        2,         "kernel=4",    "00000/00000/00000/00000/00000"};
    int64_t id = 0;
    T_EQ(qn_store_put_rule(s, &r, &id, NULL), QN_OK);
    return id;
}

static qn_store *open_ok(const char *path)
{
    qn_store *s = NULL;
    qn_err err = QN_ERR_INIT;
    int rc = qn_store_open(&s, path, QN_STORE_CREATE, &err);
    if (rc != QN_OK)
        fprintf(stderr, "open %s: %s\n", path, err.msg);
    T_EQ(rc, QN_OK);
    return s;
}

static void test_schema(void)
{
    qn_store *s = open_ok(":memory:");
    int v = -1, from = -1, to = -1;

    T_CHECK(s != NULL);
    T_EQ(qn_store_version(s, &v, NULL), QN_OK);
    T_EQ(v, qn_store_schema_version());
    T_CHECK(qn_store_schema_version() >= 1);
    T_EQ(qn_store_migrate(s, &from, &to, NULL), QN_OK);
    T_EQ(from, to);
    qn_store_close(s);

    /* a real file: application_id, user_version, WAL */
    s = open_ok(tpath("a.db"));
    put_rule(s);
    qn_store_close(s);
    T_EQ(t_raw_int(tpath("a.db"), "PRAGMA application_id"),
         QN_STORE_APPLICATION_ID);
    T_EQ(t_raw_int(tpath("a.db"), "PRAGMA user_version"),
         qn_store_schema_version());
    T_EQ(t_raw_int(tpath("a.db"),
                   "SELECT count(*) FROM sqlite_schema WHERE type = 'table'"
                   " AND sql LIKE '%STRICT%'"),
         7);
    T_EQ(t_raw_int(tpath("a.db"), "SELECT count(*) FROM rules"), 1);
    /* NO_MIGRATE on an empty file leaves version 0; migrate reports 0->N */
    {
        qn_store *m = NULL;
        T_EQ(qn_store_open(&m, tpath("m.db"),
                           QN_STORE_CREATE | QN_STORE_NO_MIGRATE, NULL),
             QN_OK);
        T_EQ(qn_store_version(m, &v, NULL), QN_OK);
        T_EQ(v, 0);
        T_EQ(qn_store_migrate(m, &from, &to, NULL), QN_OK);
        T_EQ(from, 0);
        T_EQ(to, qn_store_schema_version());
        qn_store_close(m);
    }
}

static void test_refusals(void)
{
    qn_store *s = (qn_store *)&s; /* not NULL: must be cleared */
    qn_err err = QN_ERR_INIT;

    /* missing without CREATE */
    T_EQ(qn_store_open(&s, tpath("none.db"), 0, &err), QN_ENOTFOUND);
    T_CHECK(s == NULL);
    T_CHECK(access(tpath("none.db"), F_OK) != 0);

    /* newer */
    s = open_ok(tpath("new.db"));
    qn_store_close(s);
    T_EQ(t_raw_exec(tpath("new.db"), "PRAGMA user_version = 999"), SQLITE_OK);
    s = (qn_store *)&s;
    T_EQ(qn_store_open(&s, tpath("new.db"), QN_STORE_CREATE, &err), QN_ENEWER);
    T_CHECK(s == NULL);
    T_CHECK(strstr(err.msg, "newer") != NULL);
    T_CHECK(!strcmp(err.source, tpath("new.db")));

    /* another application's database */
    T_EQ(t_raw_exec(tpath("other.db"), "CREATE TABLE t (x)"), SQLITE_OK);
    s = (qn_store *)&s;
    T_EQ(qn_store_open(&s, tpath("other.db"), 0, &err), QN_EINVAL);
    T_CHECK(s == NULL);
    T_CHECK(strstr(err.msg, "not a quench database") != NULL);

    /* not SQLite at all */
    {
        FILE *f = fopen(tpath("junk.db"), "wb");
        for (int i = 0; i < 8192; i++)
            fputc(i * 37 & 0xff, f);
        fclose(f);
    }
    s = (qn_store *)&s;
    T_EQ(qn_store_open(&s, tpath("junk.db"), 0, &err), QN_EDB);
    T_CHECK(s == NULL);
    T_CHECK(strstr(err.msg, "not a database") != NULL);
}

static void test_puzzles(void)
{
    qn_store *s = open_ok(tpath("p.db"));
    qn_err err = QN_ERR_INIT;
    int64_t rid = put_rule(s), rid2 = 0, id = 0, id2 = 0;
    int is_new = -1;
    tpuz t, u;
    uint8_t st[64], rot[64], c[64];
    const int *sym;

    /* rules are idempotent by hash */
    rid2 = put_rule(s);
    T_EQ(rid, rid2);
    T_EQ(qn_store_find_rule(s, rule_hash, &rid2, NULL), QN_OK);
    T_EQ(rid, rid2);
    T_EQ(qn_store_find_rule(s, "00", &rid2, NULL), QN_ENOTFOUND);

    make_puzzle(&t, rid, 1);
    T_EQ(qn_store_put_puzzle(s, &t.p, &id, &is_new, &err), QN_OK);
    T_EQ(is_new, 1);
    T_CHECK(id > 0);
    /* the same puzzle again, and a rotation of it: refused by the key */
    T_EQ(qn_store_put_puzzle(s, &t.p, &id2, &is_new, &err), QN_OK);
    T_EQ(is_new, 0);
    T_EQ(id2, id);
    u = t;
    u.p.state = u.state;
    u.p.canon = u.canon;
    u.p.witness = u.witness;
    T_EQ(qn_state_parse(st, qn_rules_layout(rules), 2, t.state, strlen(t.state),
                        NULL),
         QN_OK);
    T_CHECK(qn_rules_nsyms(rules) == 8);
    sym = qn_rules_sym(rules, 1);
    for (int i = 0; i < 25; i++)
        rot[sym[i]] = st[i];
    {
        qn_buf b = QN_BUF_INIT;
        qn_state_format(&b, qn_rules_layout(rules), rot, '/');
        snprintf(u.state, sizeof(u.state), "%s", b.buf);
        qn_buf_release(&b);
    }
    qn_canon_form(rules, c, rot);
    u.p.canon_len = qn_store_canon_pack(u.canon, c, 25, 2);
    T_EQ(qn_store_put_puzzle(s, &u.p, &id2, &is_new, &err), QN_OK);
    T_EQ(is_new, 0);
    T_EQ(id2, id);
    /* the store's own check refused it: since 0009 no unique key (nor
     * any index) stands behind it in the schema */
    T_EQ(t_raw_int(tpath("p.db"), "SELECT count(*) FROM puzzles"), 1);
    T_EQ(t_raw_int(tpath("p.db"), "SELECT count(*) FROM sqlite_schema WHERE"
                                  " tbl_name = 'puzzles' AND (type = 'index'"
                                  " OR sql LIKE '%UNIQUE%')"),
         0);
    /* the store computes the id from the canonical key: a caller's id
     * that disagrees is refused, the right one accepted */
    make_puzzle(&u, rid, 2);
    u.p.uid = 0x0123456789abcdefULL;
    T_EQ(qn_store_put_puzzle(s, &u.p, &id2, NULL, &err), QN_EINVAL);
    T_CHECK(strstr(err.msg, "does not match its canonical key") != NULL);
    {
        qn_puzzle_id_key key;
        uint8_t cells[25];
        qn_puzzle_id_key_init(&key, rule_hash);
        qn_canon_form(rules, cells, st);
        T_EQ(t_raw_int(tpath("p.db"), "SELECT count(*) FROM puzzles"), 1);
        /* the id the key runs hold for it is the definition's
         * (puzzle_id.h): the smallest and the largest of its one run */
        T_EQ((uint64_t)t_raw_int(tpath("p.db"), "SELECT first_key FROM key_runs"
                                                " WHERE count = 1"),
             qn_puzzle_id(&key, cells, 25));
        T_EQ(t_raw_int(tpath("p.db"), "SELECT sum(count) FROM key_runs"), 1);
    }

    /* foreign keys are on: an unknown rule is refused */
    make_puzzle(&u, 9999, 2);
    id2 = -7;
    T_EQ(qn_store_put_puzzle(s, &u.p, &id2, NULL, &err), QN_EDB);
    T_CHECK(strstr(err.msg, "FOREIGN KEY") != NULL);
    T_EQ(id2, -7);
    /* and a bad provenance by CHECK through raw SQL */
    T_EQ(t_raw_exec(tpath("p.db"),
                    "INSERT INTO puzzles (rule_id, state, min_presses,"
                    " optimal, witness, provenance) VALUES (1, x'01', 1, 1,"
                    " x'01', 3)"),
         SQLITE_CONSTRAINT);
    /* STRICT: text into an integer column is refused */
    T_EQ(t_raw_exec(tpath("p.db"),
                    "INSERT INTO puzzles (rule_id, state, min_presses,"
                    " optimal, witness, provenance) VALUES (1, x'01',"
                    " 'many', 1, x'01', 2)"),
         SQLITE_CONSTRAINT);

    /* rollback leaves nothing; commit keeps everything */
    T_EQ(qn_store_begin(s, NULL), QN_OK);
    T_EQ(qn_store_begin(s, NULL), QN_EINVAL);
    for (int i = 10; i < 30; i++) {
        make_puzzle(&u, rid, (uint64_t)i);
        T_EQ(qn_store_put_puzzle(s, &u.p, NULL, NULL, NULL), QN_OK);
    }
    T_EQ(qn_store_rollback(s, NULL), QN_OK);
    T_EQ(t_raw_int(tpath("p.db"), "SELECT count(*) FROM puzzles"), 1);
    T_EQ(qn_store_commit(s, NULL), QN_EINVAL);
    T_EQ(qn_store_begin(s, NULL), QN_OK);
    for (int i = 10; i < 30; i++) {
        make_puzzle(&u, rid, (uint64_t)i);
        T_EQ(qn_store_put_puzzle(s, &u.p, NULL, NULL, NULL), QN_OK);
    }
    /* a failing call inside a batch undoes only itself */
    {
        qn_store_pack p = {.name = ""};
        int64_t pid = -3;
        T_EQ(qn_store_pack_create(s, &p, &pid, &err), QN_EINVAL);
        T_EQ(pid, -3);
    }
    T_EQ(qn_store_commit(s, NULL), QN_OK);
    T_CHECK(t_raw_int(tpath("p.db"), "SELECT count(*) FROM puzzles") > 15);
    qn_store_close(s);
}

static void check_dense(const char *path, int64_t pack_id, int64_t want)
{
    char sql[256];
    snprintf(sql, sizeof(sql),
             "SELECT count(*) = %lld AND coalesce(min(position), 1) = 1 AND"
             " coalesce(max(position), 0) = count(*) FROM pack_puzzles"
             " WHERE pack_id = %lld",
             (long long)want, (long long)pack_id);
    T_EQ(t_raw_int(path, sql), 1);
}

struct order {
    int64_t ids[64];
    uint64_t uids[64]; /* the reader's, computed from the states */
    int n;
};

static int collect(void *ctx, const qn_store_row *row)
{
    struct order *o = ctx;
    if (row->position != o->n + 1)
        return 99;
    o->uids[o->n] = row->uid;
    o->ids[o->n++] = row->id;
    return 0;
}

static int count_packs(void *ctx, const qn_store_pack *p)
{
    (void)p;
    ++*(int *)ctx;
    return 0;
}

/* Each stored puzzle's grade as qn_store_each_puzzle reads it back, by
 * stream index (the tests' puzzles are 1..8), "-" for none. */
typedef struct grade_walk {
    char names[9][16];
} grade_walk;

static int walk_grade(void *ctx, const qn_store_row *row)
{
    grade_walk *w = ctx;

    if (row->stream_index >= 1 && row->stream_index <= 8)
        snprintf(w->names[row->stream_index], sizeof(w->names[0]), "%s",
                 row->grade ? row->grade : "-");
    return 0;
}

/* A puzzle's grade as the stored code of its name (migration 0007): the
 * defaults at the generator's ids 1..5, other names appended; a name
 * added in a batch that rolls back leaves no code behind (the next name
 * takes its id, and the rolled-back name asked again gets its own), and
 * two connections adding one name end with the one id. Checked through
 * the store's reader and against the raw tables. */
static void test_grade_codes(void)
{
    const char *path = tpath("grades.db");
    qn_store *s = open_ok(path), *b;
    int64_t rid = put_rule(s);
    grade_walk w;
    tpuz t;
    char sql[160];

    /* the five defaults, in the generator's order */
    for (int i = 0; i < QN_TIERS_DEFAULT; i++) {
        snprintf(sql, sizeof(sql),
                 "SELECT count(*) FROM grades WHERE id = %d AND name = '%s'",
                 i + 1, qn_tiers_default_name((size_t)i));
        T_EQ(t_raw_int(path, sql), 1);
    }
    T_EQ(t_raw_int(path, "SELECT count(*) FROM grades"), QN_TIERS_DEFAULT);

    /* batch 1: "zeta" stored, then rolled back with its row */
    T_EQ(qn_store_begin(s, NULL), QN_OK);
    make_puzzle(&t, rid, 1);
    t.p.grade = "zeta";
    T_EQ(qn_store_put_puzzle(s, &t.p, NULL, NULL, NULL), QN_OK);
    T_EQ(qn_store_rollback(s, NULL), QN_OK);
    T_EQ(t_raw_int(path, "SELECT count(*) FROM grades WHERE name = 'zeta'"), 0);
    /* batch 2: "omega" takes the id zeta had; zeta asked again must not
     * get it back from a cache */
    T_EQ(qn_store_begin(s, NULL), QN_OK);
    make_puzzle(&t, rid, 2);
    t.p.grade = "omega";
    T_EQ(qn_store_put_puzzle(s, &t.p, NULL, NULL, NULL), QN_OK);
    make_puzzle(&t, rid, 3);
    t.p.grade = "zeta";
    T_EQ(qn_store_put_puzzle(s, &t.p, NULL, NULL, NULL), QN_OK);
    make_puzzle(&t, rid, 4);
    t.p.grade = "omega"; /* from the batch's cache */
    T_EQ(qn_store_put_puzzle(s, &t.p, NULL, NULL, NULL), QN_OK);
    make_puzzle(&t, rid, 5);
    t.p.grade = "hard"; /* a default: no row added */
    T_EQ(qn_store_put_puzzle(s, &t.p, NULL, NULL, NULL), QN_OK);
    make_puzzle(&t, rid, 6);
    t.p.grade = NULL;
    T_EQ(qn_store_put_puzzle(s, &t.p, NULL, NULL, NULL), QN_OK);
    T_EQ(qn_store_commit(s, NULL), QN_OK);
    /* outside a batch, and from a second connection: one id a name */
    T_CHECK((b = open_ok(path)) != NULL);
    make_puzzle(&t, rid, 7);
    t.p.grade = "kappa";
    T_EQ(qn_store_put_puzzle(b, &t.p, NULL, NULL, NULL), QN_OK);
    T_EQ(qn_store_begin(s, NULL), QN_OK);
    make_puzzle(&t, rid, 8);
    t.p.grade = "kappa";
    T_EQ(qn_store_put_puzzle(s, &t.p, NULL, NULL, NULL), QN_OK);
    T_EQ(qn_store_commit(s, NULL), QN_OK);
    qn_store_close(b);

    memset(&w, 0, sizeof(w));
    T_EQ(qn_store_each_puzzle(s, NULL, walk_grade, &w, NULL), QN_OK);
    T_CHECK(!strcmp(w.names[1], "")); /* rolled back: no row */
    T_CHECK(!strcmp(w.names[2], "omega"));
    T_CHECK(!strcmp(w.names[3], "zeta"));
    T_CHECK(!strcmp(w.names[4], "omega"));
    T_CHECK(!strcmp(w.names[5], "hard"));
    T_CHECK(!strcmp(w.names[6], "-"));
    T_CHECK(!strcmp(w.names[7], "kappa"));
    T_CHECK(!strcmp(w.names[8], "kappa"));
    /* the raw rows: integer codes, one row a name, ids in first-use order */
    T_EQ(t_raw_int(path, "SELECT count(*) FROM puzzles WHERE grade IS NOT NULL"
                         " AND typeof(grade) <> 'integer'"),
         0);
    T_EQ(t_raw_int(path, "SELECT id FROM grades WHERE name = 'omega'"), 6);
    T_EQ(t_raw_int(path, "SELECT id FROM grades WHERE name = 'zeta'"), 7);
    T_EQ(t_raw_int(path, "SELECT count(*) FROM grades WHERE name = 'kappa'"),
         1);
    T_EQ(t_raw_int(path, "SELECT count(*) FROM grades"), 8);
    T_EQ(t_raw_int(path, "SELECT count(*) FROM puzzles p JOIN grades g"
                         " ON g.id = p.grade WHERE g.name = 'hard'"),
         1);
    T_EQ(qn_store_check(s, NULL, NULL), QN_OK);
    qn_store_close(s);
}

static void test_packs(void)
{
    const char *path = tpath("k.db");
    qn_store *s = open_ok(path);
    qn_err err = QN_ERR_INIT;
    int64_t rid = put_rule(s), ids[8], pk = 0, pk2 = -5;
    qn_store_pack p = {.name = "starter",
                       .title = "Starter",
                       .description = "easy ones",
                       .author = "me"};
    struct order o;
    int n = 0;
    tpuz t;

    for (int i = 0; i < 8; i++) {
        make_puzzle(&t, rid, (uint64_t)(100 + i));
        T_EQ(qn_store_put_puzzle(s, &t.p, &ids[i], NULL, NULL), QN_OK);
    }
    T_EQ(qn_store_pack_create(s, &p, &pk, &err), QN_OK);
    T_EQ(qn_store_pack_create(s, &p, &pk2, &err), QN_EINVAL);
    T_EQ(pk2, -5);
    for (int i = 0; i < 6; i++)
        T_EQ(qn_store_pack_add(s, pk, ids[i], 0, NULL), QN_OK);
    check_dense(path, pk, 6);
    T_EQ(qn_store_pack_add(s, pk, ids[2], 0, NULL), QN_EINVAL);
    T_EQ(qn_store_pack_add(s, pk, 424242, 0, NULL), QN_ENOTFOUND);
    T_EQ(qn_store_pack_add(s, pk, ids[6], 9, NULL), QN_EINVAL);
    T_EQ(qn_store_pack_add(s, pk, ids[6], 1, NULL), QN_OK); /* at front */
    check_dense(path, pk, 7);
    T_EQ(qn_store_pack_move(s, pk, ids[6], 7, NULL), QN_OK); /* to back */
    T_EQ(qn_store_pack_move(s, pk, ids[0], 3, NULL), QN_OK);
    T_EQ(qn_store_pack_move(s, pk, ids[7], 1, NULL), QN_ENOTFOUND);
    T_EQ(qn_store_pack_move(s, pk, ids[0], 8, NULL), QN_EINVAL);
    T_EQ(qn_store_pack_remove(s, pk, ids[3], NULL), QN_OK);
    T_EQ(qn_store_pack_remove(s, pk, ids[3], NULL), QN_ENOTFOUND);
    check_dense(path, pk, 6);
    o.n = 0;
    T_EQ(qn_store_pack_each(s, pk, collect, &o, NULL), 0);
    T_EQ(o.n, 6);
    /* 0..5 + 6 at front -> 6 0 1 2 3 4 5 -> 0 1 2 3 4 5 6 -> 1 2 0 3 4 5 6
     * -> remove 3 -> 1 2 0 4 5 6 */
    {
        int64_t want[6] = {ids[1], ids[2], ids[0], ids[4], ids[5], ids[6]};
        for (int i = 0; i < 6; i++) {
            T_EQ(o.ids[i], want[i]);
            /* the reader's id is the test's own of the row's state */
            T_EQ(o.uids[i], row_uid(path, o.ids[i]));
        }
    }
    /* by difficulty: min presses non-decreasing, ties by id */
    T_EQ(qn_store_pack_sort(s, pk, NULL), QN_OK);
    check_dense(path, pk, 6);
    T_EQ(t_raw_int(path,
                   "SELECT count(*) FROM pack_puzzles a JOIN pack_puzzles b"
                   " ON a.pack_id = b.pack_id AND b.position = a.position + 1"
                   " JOIN puzzles pa ON pa.id = a.puzzle_id JOIN puzzles pb"
                   " ON pb.id = b.puzzle_id WHERE pa.min_presses >"
                   " pb.min_presses OR (pa.min_presses = pb.min_presses AND"
                   " pa.id > pb.id)"),
         0);
    T_CHECK(t_raw_int(path, "SELECT version FROM packs") > 5);
    /* a puzzle in a pack cannot be deleted */
    T_EQ(t_raw_exec(path, "PRAGMA foreign_keys = ON; DELETE FROM puzzles"),
         SQLITE_CONSTRAINT);
    /* rename, list, delete */
    p.name = "second";
    T_EQ(qn_store_pack_create(s, &p, &pk2, NULL), QN_OK);
    T_EQ(qn_store_pack_rename(s, pk, "second", &err), QN_EINVAL);
    T_EQ(qn_store_pack_rename(s, pk, "first", &err), QN_OK);
    T_EQ(qn_store_pack_find(s, "first", &pk2, NULL), QN_OK);
    T_EQ(pk2, pk);
    T_EQ(qn_store_pack_list(s, NULL, count_packs, &n, NULL), 0);
    T_EQ(n, 2);
    T_EQ(qn_store_pack_list(s, "nope", count_packs, &n, &err), QN_ENOTFOUND);
    T_EQ(qn_store_pack_delete(s, pk, NULL), QN_OK);
    T_EQ(qn_store_pack_delete(s, pk, NULL), QN_ENOTFOUND);
    T_EQ(t_raw_int(path, "SELECT count(*) FROM pack_puzzles"), 0);
    T_EQ(t_raw_int(path, "SELECT count(*) FROM puzzles"), 8);
    qn_store_close(s);
}

struct seeds {
    int run, own, other;
};

static int count_seeds(void *ctx, const qn_store_row *row)
{
    struct seeds *sd = ctx;
    if (row->seed && !strcmp(row->seed, "abcd"))
        sd->run++;
    else if (row->seed && !strcmp(row->seed, "00ff"))
        sd->own++;
    else
        sd->other++;
    return 0;
}

/* A row as "STATE WITNESS PROVENANCE" into ctx (256 bytes). */
static int keep_row(void *ctx, const qn_store_row *row)
{
    char *out = ctx;
    snprintf(out, 256, "%s %s %s", row->state, row->witness, row->provenance);
    return 0;
}

static void test_runs(void)
{
    qn_store *s = open_ok(tpath("r.db"));
    int64_t rid = put_rule(s), run = 0, again = 0;
    qn_store_run r = {"generate", rid, "abcd", "count=10", "0.1.0", 10};
    uint64_t next = 99, max = 0;
    tpuz t;

    T_EQ(qn_store_run_find(s, &r, &again, &next, NULL), QN_ENOTFOUND);
    T_EQ(next, 99);
    T_EQ(qn_store_run_start(s, &r, &run, NULL), QN_OK);
    T_EQ(qn_store_max_index(s, run, &max, NULL), QN_ENOTFOUND);
    T_EQ(qn_store_begin(s, NULL), QN_OK);
    for (int i = 0; i < 5; i++) {
        make_puzzle(&t, rid, (uint64_t)i);
        t.p.run_id = run;
        T_EQ(qn_store_put_puzzle(s, &t.p, NULL, NULL, NULL), QN_OK);
    }
    /* a puzzle with its run's seed keeps '' for it (migration 0004) */
    for (int i = 5; i < 8; i++) {
        make_puzzle(&t, rid, (uint64_t)i);
        t.p.run_id = run;
        t.p.seed = "abcd";
        T_EQ(qn_store_put_puzzle(s, &t.p, NULL, NULL, NULL), QN_OK);
    }
    T_EQ(qn_store_run_progress(s, run, 8, 8, 0, NULL), QN_OK);
    T_EQ(qn_store_commit(s, NULL), QN_OK);
    T_EQ(t_raw_int(tpath("r.db"), "SELECT count(*) FROM puzzles"
                                  " WHERE seed = ''"),
         3);
    T_EQ(t_raw_int(tpath("r.db"), "SELECT count(*) FROM puzzles"
                                  " WHERE seed = '00ff'"),
         5);
    /* and is read back with the run's seed, the others with their own */
    {
        struct seeds sd = {0, 0, 0};
        T_EQ(qn_store_run_each(s, run, count_seeds, &sd, NULL), QN_OK);
        T_EQ(sd.run, 3);
        T_EQ(sd.own, 5);
        T_EQ(sd.other, 0);
    }
    /* outside a batch too (each call its own transaction): the state and
     * witness stored whole, not lost to the look-up of the run's seed */
    {
        int64_t id = 0;
        char back[256], expect[256];

        make_puzzle(&t, rid, 8);
        t.p.run_id = run;
        t.p.seed = "abcd";
        T_EQ(qn_store_put_puzzle(s, &t.p, &id, NULL, NULL), QN_OK);
        T_EQ(qn_store_puzzle_row(s, id, keep_row, back, NULL), QN_OK);
        snprintf(expect, sizeof(expect), "%s %s generate", t.state, t.witness);
        T_CHECK(!strcmp(back, expect));
        T_EQ(t_raw_int(tpath("r.db"), "SELECT count(*) FROM puzzles"
                                      " WHERE seed = '' AND length(state) = 4"),
             4);
    }
    T_EQ(qn_store_max_index(s, run, &max, NULL), QN_OK);
    T_EQ(max, 8);
    T_EQ(qn_store_run_finish(s, run, "interrupted", NULL), QN_OK);
    T_EQ(qn_store_run_finish(s, run, "bogus", NULL), QN_EINVAL);
    T_EQ(qn_store_run_find(s, &r, &again, &next, NULL), QN_OK);
    T_EQ(again, run);
    T_EQ(next, 8);
    r.options = "count=20";
    T_EQ(qn_store_run_find(s, &r, &again, &next, NULL), QN_ENOTFOUND);
    qn_store_close(s);
}

/*
 * Run claims: a second connection cannot start or resume a run another
 * connection is writing, whatever else opens and closes meanwhile; once
 * the writer closes, the run resumes.
 */
static void test_run_claims(void)
{
    const char *path = tpath("claim.db");
    qn_store *a = open_ok(path), *b = open_ok(path), *c;
    qn_store_run r = {"generate", put_rule(a), "beef", "count=3", "0.1.0", 3};
    qn_err err = QN_ERR_INIT;
    int64_t id = 0, id2 = -1;
    uint64_t next = 0;
    int resumed = -1;

    T_EQ(qn_store_run_open(a, &r, &id, &resumed, NULL), QN_OK);
    T_EQ(resumed, 0);
    T_EQ(qn_store_run_open(b, &r, &id2, &resumed, &err), QN_EBUSY);
    T_CHECK(strstr(err.msg, "another process") != NULL);
    T_EQ(id2, -1);
    T_EQ(qn_store_run_find(b, &r, &id2, &next, NULL), QN_EBUSY);
    /* a third connection opened and closed: a's claim stays */
    c = open_ok(path);
    qn_store_close(c);
    T_EQ(qn_store_run_open(b, &r, &id2, &resumed, NULL), QN_EBUSY);
    /* the writer re-opening its own run is no conflict */
    T_EQ(qn_store_run_open(a, &r, &id2, &resumed, NULL), QN_OK);
    T_EQ(id2, id);
    qn_store_close(a);
    T_EQ(qn_store_run_open(b, &r, &id2, &resumed, NULL), QN_OK);
    T_EQ(id2, id);
    T_EQ(resumed, 1);
    T_EQ(t_raw_int(path, "SELECT count(*) FROM runs"), 1);
    qn_store_close(b);
}

/* Puzzles of stream indices [lo, hi) with step `step`, into path. */
static void fill(const char *path, int lo, int hi, int step, const char *pack)
{
    qn_store *s = open_ok(path);
    int64_t rid = put_rule(s), run = 0, pk = 0, id;
    qn_store_run r = {"generate", rid, "00ff", "n=40", "0.1.0", 40};
    qn_store_pack p = {
        .name = pack, .title = "", .description = "", .author = ""};
    tpuz t;
    int is_new;

    T_EQ(qn_store_run_start(s, &r, &run, NULL), QN_OK);
    T_EQ(qn_store_pack_create(s, &p, &pk, NULL), QN_OK);
    T_EQ(qn_store_begin(s, NULL), QN_OK);
    for (int i = lo; i < hi; i += step) {
        make_puzzle(&t, rid, (uint64_t)(i % 15)); /* repeats: duplicates */
        t.p.stream_index = i;
        t.p.run_id = run;
        T_EQ(qn_store_put_puzzle(s, &t.p, &id, &is_new, NULL), QN_OK);
        if (is_new && i % 3 == 0)
            T_EQ(qn_store_pack_add(s, pk, id, 0, NULL), QN_OK);
    }
    T_EQ(qn_store_commit(s, NULL), QN_OK);
    T_EQ(qn_store_run_finish(s, run, "done", NULL), QN_OK);
    qn_store_close(s);
}

static void test_merge(void)
{
    const char *content =
        "SELECT r.hash, p.state, p.min_presses, p.optimal, p.witness,"
        " p.grade, p.seed, p.stream_index FROM puzzles p"
        " JOIN rules r ON r.id = p.rule_id ORDER BY p.state";
    qn_store *s;
    qn_store_merge_stats st;
    qn_err err = QN_ERR_INIT;

    fill(tpath("all.db"), 0, 40, 1, "single");
    fill(tpath("s0.db"), 0, 40, 2, "shard");
    fill(tpath("s1.db"), 1, 40, 2, "shard");
    s = open_ok(tpath("out.db"));
    T_EQ(qn_store_merge(s, tpath("s0.db"), &st, &err), QN_OK);
    T_EQ(qn_store_merge(s, tpath("s1.db"), &st, &err), QN_OK);
    T_CHECK(st.duplicates > 0);
    T_EQ(st.runs, 1);
    /* idempotent */
    T_EQ(qn_store_merge(s, tpath("s1.db"), &st, &err), QN_OK);
    T_EQ(st.puzzles, 0);
    T_EQ(st.runs, 0);
    T_EQ(st.pack_entries, 0);
    /* missing, newer inputs */
    T_EQ(qn_store_merge(s, tpath("nothere.db"), &st, &err), QN_ENOTFOUND);
    T_EQ(qn_store_merge(s, tpath("new.db"), &st, &err), QN_ENEWER);
    T_EQ(qn_store_merge_check(tpath("nothere.db"), &err), QN_ENOTFOUND);
    T_EQ(qn_store_merge_check(tpath("new.db"), &err), QN_ENEWER);
    T_EQ(qn_store_merge_check(tpath("s1.db"), &err), QN_OK);
    if (qn_store_check(s, NULL, &err) != QN_OK)
        T_FAILF("check after merge: %s", err.msg);
    qn_store_close(s);
    T_EQ(t_raw_int(tpath("out.db"), "SELECT count(*) FROM puzzles"),
         t_raw_int(tpath("all.db"), "SELECT count(*) FROM puzzles"));
    T_CHECK(raw_digest(tpath("out.db"), content) ==
            raw_digest(tpath("all.db"), content));
    T_EQ(t_raw_int(tpath("out.db"), "SELECT count(*) FROM runs"), 2);
    /* the pack holds both shards' members, densely */
    T_EQ(t_raw_int(tpath("out.db"),
                   "SELECT count(*) = max(position) FROM pack_puzzles"),
         1);
    T_CHECK(t_raw_int(tpath("out.db"), "SELECT count(*) FROM pack_puzzles") >=
            t_raw_int(tpath("s0.db"), "SELECT count(*) FROM pack_puzzles"));
}

/*
 * A pack's name and texts pass qn_store_pack_check whoever sets them:
 * create and rename refuse and write nothing, and a merge refuses an
 * input whose packs (written by an older quench, or by sqlite3) do not.
 */
static void test_pack_names(void)
{
    static char title[QN_STORE_PACK_TEXT_MAX + 2];
    const char *path = tpath("names.db");
    qn_store *s = open_ok(path);
    qn_store_pack p = {.name = "ok"};
    qn_err err = QN_ERR_INIT;
    int64_t pk = 0, other = -7;

    T_EQ(qn_store_pack_create(s, &p, &pk, &err), QN_OK);
    p.name = "red\x1b[31m";
    T_EQ(qn_store_pack_create(s, &p, &other, &err), QN_EINVAL);
    T_CHECK(strstr(err.msg, "control character (U+001B)") != NULL);
    p.name = "long title";
    memset(title, 'x', sizeof(title) - 1);
    p.title = title;
    T_EQ(qn_store_pack_create(s, &p, &other, &err), QN_EINVAL);
    T_CHECK(strstr(err.msg, "title is 4097 bytes") != NULL);
    T_EQ(other, -7);
    T_EQ(qn_store_pack_rename(s, pk, "-x", &err), QN_EINVAL);
    T_EQ(qn_store_pack_rename(s, pk,
                              "a\xe2\x80\xae"
                              "b",
                              &err),
         QN_EINVAL);
    qn_store_close(s);
    T_EQ(t_raw_int(path, "SELECT count(*) FROM packs WHERE name = 'ok'"), 1);
    T_EQ(t_raw_int(path, "SELECT count(*) FROM packs"), 1);

    fill(tpath("badname.db"), 0, 10, 1, "shard");
    T_EQ(t_raw_exec(tpath("badname.db"),
                    "UPDATE packs SET name = 'shard' || char(27) || '[2J'"),
         SQLITE_OK);
    s = open_ok(tpath("names-out.db"));
    T_EQ(qn_store_merge(s, tpath("badname.db"), NULL, &err), QN_EINVAL);
    T_CHECK(strstr(err.msg, "pack name 'shard\x1b[2J' holds a control "
                            "character") != NULL);
    T_CHECK(strcmp(err.source, tpath("badname.db")) == 0);
    T_EQ(t_raw_exec(tpath("badname.db"),
                    "UPDATE packs SET name = 'shard', title = 'a' || char(10)"),
         SQLITE_OK);
    T_EQ(qn_store_merge(s, tpath("badname.db"), NULL, &err), QN_EINVAL);
    T_CHECK(strstr(err.msg, "pack 'shard': title") != NULL);
    qn_store_close(s);
    T_EQ(t_raw_int(tpath("names-out.db"), "SELECT count(*) FROM puzzles"), 0);
    T_EQ(t_raw_int(tpath("names-out.db"), "SELECT count(*) FROM packs"), 0);
}

/*
 * A damaged OUT whose pack has its one member at the last position SQLite
 * can store (positions should be 1..count) cannot take the shard's other
 * members after it: the merge fails, changing nothing (position + 1
 * overflowed).
 */
static void test_merge_last_position(void)
{
    const char *members = "SELECT pack_id, puzzle_id, position"
                          " FROM pack_puzzles ORDER BY 1, 2";
    qn_store *s;
    qn_err err = QN_ERR_INIT;
    unsigned long long before;

    fill(tpath("lp0.db"), 0, 40, 2, "shard");
    fill(tpath("lp1.db"), 1, 40, 2, "shard");
    T_EQ(t_raw_exec(tpath("lp0.db"),
                    "PRAGMA ignore_check_constraints = ON;"
                    " DELETE FROM pack_puzzles WHERE position > 1;"
                    " UPDATE pack_puzzles SET position = 9223372036854775807"),
         SQLITE_OK);
    before = raw_digest(tpath("lp0.db"), members);
    s = open_ok(tpath("lp0.db"));
    T_EQ(qn_store_merge(s, tpath("lp1.db"), NULL, &err), QN_EDB);
    if (!strstr(err.msg, "at position 9223372036854775807 and no room"))
        T_FAILF("message: %s", err.msg);
    T_CHECK(strcmp(err.source, tpath("lp0.db")) == 0);
    qn_store_close(s);
    T_CHECK(raw_digest(tpath("lp0.db"), members) == before);
}

static void test_corrupt(void)
{
    const char *path = tpath("c.db");
    qn_store *s = open_ok(path);
    qn_err err = QN_ERR_INIT;
    int64_t rid = put_rule(s);
    tpuz t;
    FILE *f;
    long size;
    int rc;

    T_EQ(qn_store_begin(s, NULL), QN_OK);
    for (int i = 0; i < 400; i++) {
        make_puzzle(&t, rid, (uint64_t)i);
        qn_store_put_puzzle(s, &t.p, NULL, NULL, NULL);
    }
    T_EQ(qn_store_commit(s, NULL), QN_OK);
    qn_store_close(s); /* checkpoints the WAL into the file */
    f = fopen(path, "r+b");
    fseek(f, 0, SEEK_END);
    size = ftell(f);
    T_CHECK(size > 4 * 4096);
    /* scribble over the middle pages (b-tree pages of the puzzles) */
    for (long off = 4096 * 2; off < size; off += 4096) {
        fseek(f, off + 8, SEEK_SET);
        for (int i = 0; i < 64; i++)
            fputc(0xa5, f);
    }
    fclose(f);
    s = NULL;
    rc = qn_store_open(&s, path, 0, &err);
    if (rc == QN_OK) {
        int64_t nbad = 0;
        rc = qn_store_check(s, &nbad, &err);
        T_EQ(rc, QN_EDB);
        T_CHECK(err.msg[0] != '\0');
        qn_store_close(s);
    } else {
        T_EQ(rc, QN_EDB);
        T_CHECK(s == NULL);
    }
    /* refused as a merge input, by its own name */
    err = (qn_err)QN_ERR_INIT;
    T_EQ(qn_store_merge_check(path, &err), QN_EDB);
    T_CHECK(strcmp(err.source, path) == 0);
    /* a truncated header page */
    T_EQ(truncate(path, 50), 0);
    s = (qn_store *)&s;
    rc = qn_store_open(&s, path, 0, &err);
    T_CHECK(rc == QN_EDB || rc == QN_EINVAL);
    T_CHECK(s == NULL);
    T_CHECK(err.msg[0] != '\0');
}

static void test_readonly_and_busy(void)
{
    const char *path = tpath("l.db");
    qn_store *a = open_ok(path), *b = NULL, *ro = NULL;
    qn_err err = QN_ERR_INIT;
    int64_t rid = put_rule(a), id = -9;
    int is_new = -9;
    tpuz t;

    /* read-only: reads work, writes fail QN_EDB with SQLite's message */
    T_EQ(qn_store_open(&ro, path, QN_STORE_READONLY, &err), QN_OK);
    make_puzzle(&t, rid, 1);
    T_EQ(qn_store_put_puzzle(ro, &t.p, &id, &is_new, &err), QN_EDB);
    T_CHECK(strstr(err.msg, "readonly") != NULL);
    T_EQ(id, -9);
    T_EQ(is_new, -9);
    T_EQ(qn_store_find_rule(ro, rule_hash, &id, NULL), QN_OK);
    qn_store_close(ro);

    /* locked: another connection holds BEGIN IMMEDIATE */
    b = open_ok(path);
    qn_store_set_busy_timeout(b, 50);
    T_EQ(qn_store_begin(a, NULL), QN_OK);
    T_EQ(qn_store_begin(b, &err), QN_EBUSY);
    T_CHECK(strstr(err.msg, "locked") != NULL);
    T_EQ(qn_store_in_batch(b), 0);
    id = -9;
    T_EQ(qn_store_put_puzzle(b, &t.p, &id, NULL, &err), QN_EBUSY);
    T_EQ(id, -9);
    T_EQ(qn_store_put_puzzle(a, &t.p, &id, NULL, &err), QN_OK);
    T_EQ(qn_store_commit(a, NULL), QN_OK);
    /* released: b writes now, and sees a's puzzle as a duplicate */
    T_EQ(qn_store_put_puzzle(b, &t.p, &id, &is_new, &err), QN_OK);
    T_EQ(is_new, 0);
    qn_store_close(b);
    qn_store_close(a);
}

/* Packing against docs/STORE.md's definition bit by bit (cell i's value
 * is bits i b .. i b + b - 1, LSB first, b = ceil(log2 k)), on random
 * cells of every length up to 200 (the two-colour path packs 64 cells a
 * word, then whole bytes, then the rest), and unpacked back. */
static void test_canon_pack_random(void)
{
    static const unsigned ks[] = {2, 3, 4, 5, 8, 9, 200, 255};
    uint8_t cells[200], back[200], out[201], want[201];
    uint64_t x = 88172645463325252ULL;
    int bad = 0;

    for (size_t t = 0; t < sizeof(ks) / sizeof(*ks); t++) {
        unsigned k = ks[t], b = 1;
        while ((1u << b) < k)
            b++;
        for (size_t n = 1; n <= 200; n++) {
            size_t len = qn_store_canon_size((int)n, k);
            for (size_t i = 0; i < n; i++) {
                x ^= x << 13, x ^= x >> 7, x ^= x << 17;
                cells[i] = (uint8_t)(x % k);
            }
            memset(want, 0, sizeof(want));
            for (size_t i = 0; i < n; i++)
                for (unsigned j = 0; j < b; j++)
                    if (cells[i] >> j & 1)
                        want[(i * b + j) / 8] |=
                            (uint8_t)(1u << ((i * b + j) % 8));
            memset(out, 0xa5, sizeof(out));
            bad += qn_store_canon_pack(out, cells, (int)n, k) != len ||
                   memcmp(out, want, len) != 0 || out[len] != 0xa5;
            qn_store_canon_unpack(back, out, (int)n, k);
            bad += memcmp(back, cells, n) != 0;
        }
    }
    T_EQ(bad, 0);
}

static void test_canon_pack(void)
{
    uint8_t cells[5] = {1, 0, 1, 1, 0}, out[4];
    uint8_t c3[3] = {2, 1, 0};

    T_EQ(qn_store_canon_size(25, 2), 4);
    T_EQ(qn_store_canon_size(3, 3), 1);
    T_EQ(qn_store_canon_size(10, 255), 10);
    T_EQ(qn_store_canon_pack(out, cells, 5, 2), 1);
    T_EQ(out[0], 0x0d);
    T_EQ(qn_store_canon_pack(out, c3, 3, 3), 1);
    T_EQ(out[0], 0x06);
    test_canon_pack_random();
}

/* Column col of the row `id` as raw bytes into out (at most cap): the
 * length, or -1. */
static int raw_blob(const char *path, const char *col, int64_t id, uint8_t *out,
                    int cap)
{
    char sql[128];
    sqlite3 *db;
    sqlite3_stmt *st;
    int len = -1;

    snprintf(sql, sizeof(sql), "SELECT %s FROM puzzles WHERE id = %lld", col,
             (long long)id);
    if (sqlite3_open(path, &db) != SQLITE_OK)
        return -1;
    if (sqlite3_prepare_v2(db, sql, -1, &st, NULL) == SQLITE_OK) {
        if (sqlite3_step(st) == SQLITE_ROW &&
            sqlite3_column_type(st, 0) == SQLITE_BLOB &&
            (len = sqlite3_column_bytes(st, 0)) <= cap)
            memcpy(out, sqlite3_column_blob(st, 0), (size_t)len);
        sqlite3_finalize(st);
    }
    sqlite3_close(db);
    return len;
}

/* The packing of docs/STORE.md written out for k = 2: cell i of the
 * '/'-separated text is bit i % 8 of byte i / 8. */
static int pack_binary(uint8_t *out, const char *text)
{
    int i = 0;

    memset(out, 0, 8);
    for (; *text; text++)
        if (*text != '/') {
            out[i / 8] |= (uint8_t)((*text - '0') << (i % 8));
            i++;
        }
    return (i + 7) / 8;
}

/*
 * A puzzle's state and witness are kept packed (migration 0004,
 * docs/STORE.md): the row's bytes are the ones the format defines, and
 * the texts read back are the texts put, holes and "(NNN)" values of a
 * modulus above 36 included. A text that does not fit the rule's board
 * or colours is refused and stores nothing; so is a rule without a
 * layout.
 */
static void test_packed_cells(void)
{
    const char *path = tpath("cells.db");
    qn_store *s = open_ok(path);
    qn_err err = QN_ERR_INIT;
    int64_t rid = put_rule(s), id = 0, hid = 0;
    uint8_t want[8], got[64];
    char back[256];
    tpuz t;

    make_puzzle(&t, rid, 3);
    T_EQ(qn_store_put_puzzle(s, &t.p, &id, NULL, &err), QN_OK);
    T_EQ(raw_blob(path, "state", id, got, sizeof(got)),
         pack_binary(want, t.state));
    T_EQ(pack_binary(want, t.state), 4);
    T_CHECK(!memcmp(got, want, 4));
    T_EQ(raw_blob(path, "witness", id, got, sizeof(got)), 4);
    pack_binary(want, t.witness);
    T_CHECK(!memcmp(got, want, 4));
    T_EQ(t_raw_int(path, "SELECT provenance FROM puzzles"), 0);
    T_EQ(qn_store_puzzle_row(s, id, keep_row, back, &err), QN_OK);
    {
        char expect[256];
        snprintf(expect, sizeof(expect), "%s %s generate", t.state, t.witness);
        T_CHECK(!strcmp(back, expect));
    }

    /* a board with holes (a hexagon of side 2) and 200 colours: a byte a
     * cell, "(NNN)" for values above 35, upper case read as lower */
    {
        static const char hex_yaml[] =
            "quench: 1\nname: hex-200\ncolours: 200\n"
            "board: {hexagon: 2}\npress: {stencil: hex}\n";
        char hex_hash[65];
        qn_rules *hex = NULL;
        qn_store_rule hr = {hex_hash, "hex-200", hex_yaml,     7,
                            200,      NULL,      ".00/000/00."};
        static const uint8_t vals[7] = {199, 10, 5, 36, 0, 35, 100};
        uint8_t canon[7] = {0, 1, 2, 3, 4, 5, 6};
        qn_store_puzzle hp;
        int64_t hrid = 0;

        T_EQ(qn_rules_load_buf(&hex, hex_yaml, strlen(hex_yaml), "hex", &err),
             QN_OK);
        qn_rules_hash(hex, hex_hash);
        qn_rules_free(hex);
        T_EQ(qn_store_put_rule(s, &hr, &hrid, &err), QN_OK);
        memset(&hp, 0, sizeof(hp));
        hp.rule_id = hrid;
        hp.state = ".(199)A/5(36)0/z(100).";
        hp.witness = ".00/000/01.";
        hp.canon = canon;
        hp.canon_len = 7;
        hp.stream_index = -1;
        hp.provenance = QN_STORE_IMPORT;
        T_EQ(qn_store_put_puzzle(s, &hp, &hid, NULL, &err), QN_OK);
        T_EQ(raw_blob(path, "state", hid, got, sizeof(got)), 7);
        T_CHECK(!memcmp(got, vals, 7));
        T_EQ(raw_blob(path, "witness", hid, got, sizeof(got)), 7);
        T_EQ(got[6], 1);
        T_EQ(qn_store_puzzle_row(s, hid, keep_row, back, &err), QN_OK);
        T_CHECK(!strcmp(back, ".(199)a/5(36)0/z(100). .00/000/01. import"));

        /* refused, and nothing stored */
        hp.state = ".(200)a/5(36)0/z(100).";
        T_EQ(qn_store_put_puzzle(s, &hp, NULL, NULL, &err), QN_EINVAL);
        T_CHECK(strstr(err.msg, "state at byte 2: value 200") != NULL);
        hp.state = "0(199)a/5(36)0/z(100).";
        T_EQ(qn_store_put_puzzle(s, &hp, NULL, NULL, &err), QN_EINVAL);
        T_CHECK(strstr(err.msg, "state at byte 1: expected '.'") != NULL);
        hp.state = ".(199)a/5(36)0/z(100)";
        T_EQ(qn_store_put_puzzle(s, &hp, NULL, NULL, &err), QN_EINVAL);
        T_CHECK(strstr(err.msg, "expected '.', got the end") != NULL);
        hp.state = ".(199)a/5(36)0/z(100)./";
        T_EQ(qn_store_put_puzzle(s, &hp, NULL, NULL, &err), QN_EINVAL);
        T_CHECK(strstr(err.msg, "expected the end") != NULL);
        hp.state = ".(199)a/5(36)0/z(100).";
        hp.witness = ".00/000/0!.";
        T_EQ(qn_store_put_puzzle(s, &hp, NULL, NULL, &err), QN_EINVAL);
        T_CHECK(strstr(err.msg, "witness at byte 10: expected a cell") != NULL);

        /* the same puzzle given as cells (generate's path): the same
         * bytes, the same texts back, and a value >= k refused */
        {
            static const uint8_t wcells[7] = {0, 0, 0, 0, 0, 0, 1};
            uint8_t bad[7];
            int64_t cid = 0;
            int is_new = -1;
            char del[64], count[80];

            snprintf(del, sizeof(del), "DELETE FROM puzzles WHERE id = %lld",
                     (long long)hid);
            snprintf(count, sizeof(count),
                     "SELECT count(*) FROM puzzles WHERE rule_id = %lld",
                     (long long)hrid);
            T_EQ(t_raw_exec(path, del), SQLITE_OK);
            hp.state = hp.witness = "junk the cells override";
            hp.state_cells = vals;
            hp.witness_cells = wcells;
            T_EQ(qn_store_put_puzzle(s, &hp, &cid, &is_new, &err), QN_OK);
            T_EQ(is_new, 1);
            T_EQ(raw_blob(path, "state", cid, got, sizeof(got)), 7);
            T_CHECK(!memcmp(got, vals, 7));
            T_EQ(raw_blob(path, "witness", cid, got, sizeof(got)), 7);
            T_CHECK(!memcmp(got, wcells, 7));
            T_EQ(qn_store_puzzle_row(s, cid, keep_row, back, &err), QN_OK);
            T_CHECK(!strcmp(back, ".(199)a/5(36)0/z(100). .00/000/01. import"));
            memcpy(bad, wcells, 7);
            bad[3] = 200;
            hp.witness_cells = bad;
            snprintf(del, sizeof(del), "DELETE FROM puzzles WHERE id = %lld",
                     (long long)cid);
            T_EQ(t_raw_exec(path, del), SQLITE_OK);
            T_EQ(qn_store_put_puzzle(s, &hp, NULL, NULL, &err), QN_EINVAL);
            T_CHECK(strstr(err.msg, "witness cell 3: value 200, the rule "
                                    "set has 200 colours") != NULL);
            T_EQ(t_raw_int(path, count), 0);
            /* put back as the text path stored it, for what follows */
            hp.state_cells = hp.witness_cells = NULL;
            hp.state = ".(199)A/5(36)0/z(100).";
            hp.witness = ".00/000/01.";
            T_EQ(qn_store_put_puzzle(s, &hp, NULL, NULL, &err), QN_OK);
        }
    }
    make_puzzle(&t, rid, 4);
    t.state[0] = '2';
    T_EQ(qn_store_put_puzzle(s, &t.p, NULL, NULL, &err), QN_EINVAL);
    T_CHECK(strstr(err.msg, "value 2, the rule set has 2 colours") != NULL);
    T_EQ(t_raw_int(path, "SELECT count(*) FROM puzzles"), 2);

    /* a rule is stored with its board's layout, of its cells */
    {
        qn_store_rule bad = {"2222222222222222222222222222222222222222"
                             "222222222222222222222222",
                             "bad",
                             "quench: 1\n",
                             4,
                             2,
                             NULL,
                             "00/0."};
        int64_t bid = -7;
        T_EQ(qn_store_put_rule(s, &bad, &bid, &err), QN_EINVAL);
        bad.layout = NULL;
        T_EQ(qn_store_put_rule(s, &bad, &bid, &err), QN_EINVAL);
        T_EQ(bid, -7);
    }
    /* a rule an older quench stored without one gets it when stored
     * again */
    qn_store_close(s);
    T_EQ(t_raw_exec(path, "UPDATE rules SET layout = NULL WHERE id = 1"),
         SQLITE_OK);
    s = open_ok(path);
    T_EQ(qn_store_puzzle_row(s, id, keep_row, back, &err), QN_EDB);
    T_CHECK(strstr(err.msg, "has no board layout") != NULL);
    T_EQ(put_rule(s), rid);
    T_EQ(qn_store_puzzle_row(s, id, keep_row, back, &err), QN_OK);
    qn_store_close(s);
    T_EQ(t_raw_int(path, "SELECT count(*) FROM rules WHERE layout ="
                         " '00000/00000/00000/00000/00000'"),
         1);
}

/*
 * A call that ends in an error or finds nothing rolls its transaction
 * back, and that ROLLBACK needs memory too. Fail each of run_find's
 * allocations in turn (in a child: quench's own allocator exits 71 on
 * failure) and require after each that the handle either said "out of
 * memory" or can open a batch: never a transaction left open behind a
 * benign QN_ENOTFOUND (generate then failed with "cannot start a
 * transaction within a transaction"; found by tests/faults.sh).
 */
enum { NM_CLEAN, NM_REPORTED, NM_OPEN_TX, NM_WRONG, NM_DONE, NM_SETUP };

static int nomem_child(const char *path, long n)
{
    qn_store *s;
    qn_store_run r = {"generate", 1, "feed", "count=1", "0.1.0", 1};
    int64_t id;
    uint64_t next;
    int rc;

    if (qn_store_open(&s, path, 0, NULL) != QN_OK)
        return NM_SETUP;
    t_fail_after(n);
    rc = qn_store_run_find(s, &r, &id, &next, NULL);
    if (t_counted() < n)
        return NM_DONE; /* past the last allocation */
    t_fail_after(-1);
    if (rc == QN_ENOMEM)
        return NM_REPORTED;
    if (rc != QN_ENOTFOUND)
        return NM_WRONG; /* neither the answer nor out of memory */
    if (qn_store_begin(s, NULL) != QN_OK)
        return NM_OPEN_TX;
    qn_store_rollback(s, NULL);
    qn_store_close(s);
    return NM_CLEAN;
}

/* Fail the n-th allocation for n = 1, 1 + stride, ... in forked children
 * running child(path, n), until one runs past its last allocation
 * (NM_DONE); counts[] tallies the children's verdicts. */
static void nomem_sweep(const char *path, int (*child)(const char *, long),
                        int counts[NM_SETUP + 2], long stride)
{
    for (long n = 1; n < 100000; n += stride) {
        int status = 0, code;
        pid_t pid;

        fflush(NULL);
        pid = fork();
        if (pid == 0) {
            if (!freopen("/dev/null", "w", stderr)) /* the marker lines */
                _exit(NM_SETUP);
            _exit(child(path, n));
        }
        T_CHECK(pid > 0 && waitpid(pid, &status, 0) == pid);
        /* 71: quench's own allocation failed, the documented exit */
        code = WIFEXITED(status) && WEXITSTATUS(status) == 71 ? NM_REPORTED
               : WIFEXITED(status) && WEXITSTATUS(status) <= NM_SETUP
                   ? WEXITSTATUS(status)
                   : NM_SETUP + 1;
        counts[code]++;
        if (code == NM_WRONG) /* which point, for whoever looks into it */
            printf("  allocation %ld failing: wrong\n", n);
        if (code == NM_DONE || code >= NM_SETUP)
            break;
    }
    T_EQ(counts[NM_DONE], 1);
    T_EQ(counts[NM_SETUP] + counts[NM_SETUP + 1], 0);
}

static void test_nomem_rollback(void)
{
    qn_store *s = open_ok(tpath("nomem.db"));
    int counts[NM_SETUP + 2] = {0};

    put_rule(s);
    qn_store_close(s);
    nomem_sweep(tpath("nomem.db"), nomem_child, counts, 1);
    T_EQ(counts[NM_OPEN_TX], 0);
    T_EQ(counts[NM_WRONG], 0);
    T_CHECK(counts[NM_REPORTED] > 0); /* SQLite's failures were met */
}

/*
 * db check with SQLite's allocations failing: SQLITE_NOMEM must read as
 * out of memory. sqlite3_errmsg named the step instead ("unable to open a
 * temporary database file for storing temporary tables", exit 71 with no
 * word of memory; found by tests/faults.sh with QN_FAIL_ALLOC_LIBS=s).
 */
static int nomem_check_child(const char *path, long n)
{
    qn_store *s;
    qn_err err = QN_ERR_INIT;
    int rc;

    if (qn_store_open(&s, path, 0, NULL) != QN_OK)
        return NM_SETUP;
    t_fail_after(n);
    rc = qn_store_check(s, NULL, &err);
    if (t_counted() < n) /* past the last allocation: nothing failed */
        return rc == QN_OK ? NM_DONE : NM_SETUP;
    t_fail_after(-1);
    qn_store_close(s);
    if (rc == QN_OK)
        return NM_CLEAN; /* SQLite recovered */
    if (rc == QN_ENOMEM && err.code == QN_ENOMEM &&
        strstr(err.msg, "out of memory"))
        return NM_REPORTED;
    return NM_WRONG;
}

static void test_nomem_check(void)
{
    int counts[NM_SETUP + 2] = {0};

    fill(tpath("nmcheck.db"), 0, 40, 1, "p");
    nomem_sweep(tpath("nmcheck.db"), nomem_check_child, counts, 1);
    T_EQ(counts[NM_WRONG], 0);
    T_CHECK(counts[NM_REPORTED] > 0);
}

/*
 * db merge with SQLite's allocations failing. DETACH needs memory too: a
 * failed one after the commit was ignored, and the next input's ATTACH
 * failed with "database src is already in use" (exit 74; found by
 * tests/faults.sh with QN_FAIL_ALLOC_LIBS=sj). Merge one shard failing
 * the n-th allocation: it must succeed or say out of memory; then, nothing
 * failing, merging the shard again on the same handle must succeed and
 * give exactly the shard's puzzles (a merge that failed left nothing
 * behind, one that succeeded is not repeated).
 */
static long long nm_merge_want; /* puzzles of shard s0 */

/* NM_CLEAN or NM_REPORTED by how the failed merge ended, NM_WRONG when it
 * or the unfailed merge after it on the same handle (where a leftover
 * attachment would show) went wrong. Closes s. */
static int nomem_merge_verdict(qn_store *s, const char *out, int rc,
                               const qn_err *err)
{
    qn_err again = QN_ERR_INIT;
    int ok;

    ok = rc == QN_OK ||
         (rc == QN_ENOMEM && strstr(err->msg, "out of memory") != NULL);
    ok = ok && qn_store_merge(s, tpath("s0.db"), NULL, &again) == QN_OK;
    qn_store_close(s);
    if (!ok || t_raw_int(out, "SELECT count(*) FROM puzzles") != nm_merge_want)
        return NM_WRONG;
    return rc == QN_OK ? NM_CLEAN : NM_REPORTED;
}

/* An empty database's bytes, read once by test_nomem_merge; each child
 * writes them to its own file (0, or -1 when it cannot). */
static char *nm_empty;
static size_t nm_empty_len;

static int write_empty(const char *to)
{
    FILE *f = fopen(to, "wb");
    int rc = f && fwrite(nm_empty, 1, nm_empty_len, f) == nm_empty_len ? 0 : -1;

    if (f && fclose(f) != 0)
        rc = -1;
    return rc;
}

static int nomem_merge_child(const char *unused, long n)
{
    char out[600];
    qn_store *s;
    qn_err err = QN_ERR_INIT;
    int rc, failed, v;

    (void)unused;
    snprintf(out, sizeof(out), "%s/nmmerge-%ld.db", tmpdir, n);
    /* a copy of an empty database made once: creating the schema in
     * each of the sweep's thousands of children took a third of its time */
    if (write_empty(out) != 0 || qn_store_open(&s, out, 0, NULL) != QN_OK)
        return NM_SETUP;
    t_fail_after(n);
    rc = qn_store_merge(s, tpath("s0.db"), NULL, &err);
    failed = t_counted() >= n;
    t_fail_after(-1);
    v = nomem_merge_verdict(s, out, rc, &err);
    unlink(out);
    if (!failed) /* past the last allocation: must be right, ends the sweep */
        return v == NM_CLEAN ? NM_DONE : NM_SETUP;
    return v;
}

/*
 * The merge has some 4,600 allocation points, each a child that opens,
 * merges and merges again: 140 s in the release build, which sweeps them
 * all, and some 900 s under ASan + UBSan, which sweeps every 4th point
 * (QN_NOMEM_STRIDE=N overrides) so that CI stays within its 30 minutes.
 */
static long merge_stride(void)
{
    const char *e = getenv("QN_NOMEM_STRIDE");
    long stride = 1;

#if defined(__SANITIZE_ADDRESS__)
    stride = 4;
#elif defined(__has_feature)
#if __has_feature(address_sanitizer)
    stride = 4;
#endif
#endif
    if (e && atol(e) > 0)
        stride = atol(e);
    return stride;
}

/* After test_merge: its shard s0.db. */
static void test_nomem_merge(void)
{
    int counts[NM_SETUP + 2] = {0};

    nm_merge_want = t_raw_int(tpath("s0.db"), "SELECT count(*) FROM puzzles");
    T_CHECK(nm_merge_want > 0);
    qn_store_close(open_ok(tpath("nm-empty.db")));
    T_EQ(qn_file_read_all(&nm_empty, &nm_empty_len, tpath("nm-empty.db"),
                          1 << 20, NULL),
         QN_OK);
    nomem_sweep(NULL, nomem_merge_child, counts, merge_stride());
    T_EQ(counts[NM_WRONG], 0);
    T_CHECK(counts[NM_REPORTED] > 0);
    free(nm_empty);
}

int main(void)
{

    /* SQLite allocates through the tests' counted allocator (never
     * failing unless a test asks): before any other SQLite call */
    t_alloc_hook();
    qn_store_use_allocator(NULL);

    if (!t_classic_setup(tmpdir, &rules, &game, rule_hash, &known))
        return 1;
    test_canon_pack();
    test_packed_cells();
    test_schema();
    test_refusals();
    test_puzzles();
    test_grade_codes();
    test_packs();
    test_runs();
    test_run_claims();
    test_nomem_rollback();
    test_nomem_check();
    test_merge();
    test_pack_names();
    test_nomem_merge();
    test_merge_last_position();
    test_corrupt();
    test_readonly_and_busy();
    qn_solver_free(game);
    qn_rules_free(rules);
    t_rmtree(tmpdir);
    return t_done();
}
