/* tier: full (thousands of runs of SQLite on real files: a minute) */
/*
 * test_nomem_store.c: the store never exits the process (issue #32
 * section 2). Each store call below runs on a fresh copy of a small
 * database failing its n-th allocation, quench's and SQLite's alike
 * (qn_store_use_allocator routes SQLite through the hook of tfail.h),
 * for every n until a run makes fewer than n allocations. Each run must
 * return QN_OK or QN_ENOMEM with "out of memory" (an exit would end this
 * program), leave its handle usable (a read and an empty batch on it
 * succeed) and the file whole (PRAGMA integrity_check says ok, read on a
 * connection of its own), holding either none or all of what the call
 * writes (a digest of every table equal to the one before the call or
 * to the one after a run that nothing failed). The run that nothing
 * fails must give the same digest as that run. Every allocation of a
 * call of up to 2,000 is failed; of the larger ones (open, which creates
 * the schema: 17,000; merge: 9,000 and 23,000), every total/500-th, some
 * 500 runs each, so that the program takes a minute, not an hour:
 * QN_NOMEM_STRIDE=N sweeps every N-th allocation of every call (1: all).
 * Leaks show under ASan.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <sqlite3.h>

#include "base/file.h"
#include "rules/canon.h"
#include "rules/rules.h"
#include "store/store.h"
#include "t.h"
#include "tfail.h"
#include "tsql.h"
#include "tstore.h"

#define MAX_POINTS 100000L
#define NPUZ 8

/* on tmpfs where there is one: the sweep's thousands of commits would
 * wait for the disk's fsync */
static char tmpdir[64] = "/dev/shm/qn_nomem_store_XXXXXX";
/* classic 3x3: its text and hash are the stored rule's, as the store's
 * readers compute each row's puzzle id from the rule's text */
static const char yaml[] = "quench: 1\nname: classic-3x3\ncolours: 2\n"
                           "board: {grid: [3, 3], wrap: none}\n"
                           "press: {stencil: plus, self: true}\n";
static char rule_hash[65];
static qn_rules *rules;   /* yaml, for qn_store_put_ruleset */
static t_uid_rules known; /* rules, for ids from states (tstore.h) */
static long stride_env;   /* QN_NOMEM_STRIDE; 0: by the call's size */

#define tpath(name) t_path(tmpdir, (name))

/* ------------------------------------------------------------------ */
/* Puzzles without a solver: the store checks keys and cells, not
 * whether a puzzle is solvable, so puzzle i is the i-th 3x3 board (by
 * the bits of its cells) that is its own canonical form, solved by
 * itself. */

typedef struct tpuz {
    char state[16];
    uint8_t cells[9], canon[4];
    qn_store_puzzle p;
} tpuz;

/* The bits of the i-th nonzero board that is its own canonical form
 * (db merge computes ids from the states' forms). */
static unsigned canonical_board(int i)
{
    for (unsigned v = 1; v < 512; v++) {
        uint8_t c[9], f[9];
        for (int k = 0; k < 9; k++)
            c[k] = (uint8_t)(v >> k & 1);
        qn_canon_form(rules, f, c);
        if (!memcmp(c, f, 9) && i-- == 0)
            return v;
    }
    return 0;
}

static void make_puzzle(tpuz *t, int64_t rule_id, int i, int64_t run_id)
{
    unsigned v = canonical_board(i);
    char *o = t->state;

    for (int c = 0; c < 9; c++) {
        t->cells[c] = (uint8_t)(v >> c & 1);
        if (c && c % 3 == 0)
            *o++ = '/';
        *o++ = (char)('0' + t->cells[c]);
    }
    *o = '\0';
    memset(&t->p, 0, sizeof(t->p));
    t->p.rule_id = rule_id;
    t->p.state = t->state;
    t->p.witness = t->state;
    t->p.canon = t->canon;
    t->p.canon_len = qn_store_canon_pack(t->canon, t->cells, 9, 2);
    t->p.min_presses = (uint64_t)(20 - i); /* a pack of 1, 2, ... sorts */
    t->p.noptimal = 1;
    t->p.grade = "easy";
    t->p.grader = "test-1";
    t->p.seed = run_id ? "00ff" : NULL;
    t->p.stream_index = run_id ? i : -1;
    t->p.provenance = run_id ? QN_STORE_GENERATE : QN_STORE_VALIDATE;
    t->p.run_id = run_id;
}

static int put_rule(qn_store *s, int64_t *id, qn_err *err)
{
    /* the real text: readers and db merge canonicalize states by it */
    qn_store_rule r = {rule_hash, "classic-3x3", yaml, 9, 2, "", "000/000/000"};
    return qn_store_put_rule(s, &r, id, err);
}

/* Puzzles from..to-1 into s (with a run when seeded), in one batch. */
static int put_puzzles(qn_store *s, int from, int to, int seeded, qn_err *err)
{
    qn_store_run run = {"generate", 0, "00ff", "n=8", "test", 8};
    int64_t rid = 0, run_id = 0, id;
    int rc;

    if ((rc = qn_store_begin(s, err)) != QN_OK)
        return rc;
    rc = put_rule(s, &rid, err);
    run.rule_id = rid;
    if (rc == QN_OK && seeded)
        rc = qn_store_run_start(s, &run, &run_id, err);
    for (int i = from; rc == QN_OK && i < to; i++) {
        tpuz t;
        make_puzzle(&t, rid, i, run_id);
        rc = qn_store_put_puzzle(s, &t.p, &id, NULL, err);
    }
    if (rc == QN_OK)
        return qn_store_commit(s, err);
    qn_store_rollback(s, NULL);
    return rc;
}

/* A pack `name` of puzzle rows ids[0..n). */
static int make_pack(qn_store *s, const char *name, const int64_t *ids,
                     size_t n, qn_err *err)
{
    qn_store_pack p = {0};
    int64_t pid;
    int rc;

    p.name = name;
    p.build = "";
    if ((rc = qn_store_pack_create(s, &p, &pid, err)) != QN_OK)
        return rc;
    for (size_t i = 0; rc == QN_OK && i < n; i++)
        rc = qn_store_pack_add(s, pid, ids[i], 0, err);
    return rc;
}

/* ------------------------------------------------------------------ */
/* The file's state, on a connection of its own. */

/* Every row of every table (but times and run keys, which differ from
 * run to run), and the schema version; 0 when the file is damaged. */
static unsigned long long digest(const char *path)
{
    static const char *const sql[] = {
        "PRAGMA user_version",
        "SELECT hash, name, yaml, cells, colours, layout FROM rules"
        " ORDER BY id",
        "SELECT id, rule_id, state, witness, min_presses, seed,"
        " stream_index, run_id, provenance FROM puzzles ORDER BY id",
        "SELECT rule_id, level, first_key, last_key, count, keys"
        " FROM key_runs ORDER BY id",
        "SELECT id, name, version, build, next_slot FROM packs ORDER BY id",
        "SELECT pack_id, puzzle_id, position, slot, section"
        " FROM pack_puzzles ORDER BY pack_id, position",
        "SELECT command, rule_id, seed, options, requested, status"
        " FROM runs ORDER BY id",
    };
    unsigned long long h = T_SQL_DIGEST0;
    sqlite3 *db;
    sqlite3_stmt *st;
    int ok = 0, tables = 0;

    T_EQ(sqlite3_open(path, &db), SQLITE_OK);
    T_EQ(sqlite3_prepare_v2(db, "PRAGMA integrity_check", -1, &st, NULL),
         SQLITE_OK);
    ok = sqlite3_step(st) == SQLITE_ROW &&
         !strcmp((const char *)sqlite3_column_text(st, 0), "ok");
    sqlite3_finalize(st);
    T_EQ(sqlite3_prepare_v2(db,
                            "SELECT count(*) FROM sqlite_schema"
                            " WHERE name = 'pack_puzzles'",
                            -1, &st, NULL),
         SQLITE_OK);
    if (sqlite3_step(st) == SQLITE_ROW)
        tables = sqlite3_column_int(st, 0);
    sqlite3_finalize(st);
    for (size_t i = 0; ok && i < sizeof(sql) / sizeof(*sql); i++)
        if (i == 0 || tables)
            h = t_sql_digest(db, sql[i], h);
    sqlite3_close(db);
    return ok ? h : 0;
}

/* A file's bytes, kept to make fresh copies of it. */
typedef struct image {
    char *bytes;
    size_t len;
} image;

static void image_take(image *im, const char *path)
{
    T_EQ(qn_file_read_all(&im->bytes, &im->len, path, 1 << 24, NULL), QN_OK);
}

/* path made a copy of im (im NULL: no file at all). */
static void image_put(const image *im, const char *path)
{
    char side[600];
    FILE *f;

    snprintf(side, sizeof(side), "%s-wal", path);
    unlink(side);
    snprintf(side, sizeof(side), "%s-shm", path);
    unlink(side);
    unlink(path);
    if (!im)
        return;
    f = fopen(path, "wb");
    T_CHECK(f != NULL);
    T_EQ(fwrite(im->bytes, 1, im->len, f), im->len);
    T_EQ(fclose(f), 0);
}

/* ------------------------------------------------------------------ */
/* The calls swept. Each gets the open handle (NULL for those that open
 * it themselves) and the path. */

typedef int op_fn(qn_store **s, const char *path, qn_err *err);

static int op_open(qn_store **s, const char *path, qn_err *err)
{
    return qn_store_open(s, path, QN_STORE_CREATE, err);
}

static int op_put_ruleset(qn_store **s, const char *path, qn_err *err)
{
    int64_t id;
    (void)path;
    return qn_store_put_ruleset(*s, rules, &id, err);
}

static int op_put_puzzles(qn_store **s, const char *path, qn_err *err)
{
    (void)path;
    return put_puzzles(*s, 0, NPUZ, 1, err);
}

static int op_put_one(qn_store **s, const char *path, qn_err *err)
{
    tpuz t;
    int64_t id;
    (void)path;
    make_puzzle(&t, 1, NPUZ + 1, 0);
    return qn_store_put_puzzle(*s, &t.p, &id, NULL, err);
}

static int op_pack_create(qn_store **s, const char *path, qn_err *err)
{
    qn_store_pack p = {0};
    int64_t id;
    (void)path;
    p.name = "made";
    p.title = "a title";
    return qn_store_pack_create(*s, &p, &id, err);
}

/* pack show: the members as read, compared with a run nothing failed */
static unsigned long long shown, shown_want;

static int show_row(void *ctx, const qn_store_row *r)
{
    (void)ctx;
    for (const char *p = r->state; *p; p++)
        shown = (shown ^ (unsigned char)*p) * 1099511628211ULL;
    shown = (shown ^ (unsigned long long)r->slot) * 1099511628211ULL;
    return 0;
}

static int show_pack(void *ctx, const qn_store_pack *p)
{
    (void)ctx;
    shown = (shown ^ (unsigned long long)p->count) * 1099511628211ULL;
    return 0;
}

static int op_pack_show(qn_store **s, const char *path, qn_err *err)
{
    int64_t pid;
    int rc;

    (void)path;
    shown = 1;
    if ((rc = qn_store_pack_find(*s, "p1", &pid, err)) == QN_OK &&
        (rc = qn_store_pack_list(*s, NULL, show_pack, NULL, err)) == QN_OK)
        rc = qn_store_pack_each(*s, pid, show_row, NULL, err);
    return rc;
}

/* One edit; the sweep's "all" is its outcome alone. */
static int op_pack_add(qn_store **s, const char *path, qn_err *err)
{
    (void)path;
    return qn_store_pack_add(*s, 1, 8, 2, err);
}

static int op_pack_move(qn_store **s, const char *path, qn_err *err)
{
    (void)path;
    return qn_store_pack_move(*s, 1, 3, 1, err);
}

static int op_pack_remove(qn_store **s, const char *path, qn_err *err)
{
    (void)path;
    return qn_store_pack_remove(*s, 1, 4, err);
}

static int op_pack_sections(qn_store **s, const char *path, qn_err *err)
{
    static const int64_t ids[] = {6, 5, 4, 3, 2};
    static const char *const sec[] = {"a", "a", "b", "", "b"};
    int changed;
    (void)path;
    return qn_store_pack_set_sections(*s, 1, ids, sec, 5, 1, &changed, err);
}

static int op_pack_replace(qn_store **s, const char *path, qn_err *err)
{
    (void)path;
    return qn_store_pack_replace(*s, 1, 2, 8, err);
}

static int op_pack_sort(qn_store **s, const char *path, qn_err *err)
{
    (void)path;
    return qn_store_pack_sort(*s, 1, err);
}

static int op_merge(qn_store **s, const char *path, qn_err *err)
{
    (void)path;
    return qn_store_merge(*s, tpath("in.db"), NULL, err);
}

/* db merge's job: both inputs, checked on a thread of its own */
static int op_merge_job(qn_store **s, const char *path, qn_err *err)
{
    static char in1[512], in2[512];
    char *in[] = {in1, in2};
    qn_store_merge_job *j = NULL;
    int rc;

    (void)path;
    snprintf(in1, sizeof(in1), "%s", tpath("in.db"));
    snprintf(in2, sizeof(in2), "%s", tpath("in2.db"));
    if ((rc = qn_store_merge_start(&j, in, 2, err)) != QN_OK)
        return rc;
    while ((rc = qn_store_merge_next(j, *s, NULL, err)) == QN_OK)
        ;
    qn_store_merge_finish(j);
    return rc == QN_ENOTFOUND ? QN_OK : rc;
}

/* a stored id in full and a 6-digit prefix of another (set in main),
 * looked up through the key runs */
static char resolve_full[17], resolve_prefix[7];

static int op_resolve(qn_store **s, const char *path, qn_err *err)
{
    int64_t a = 0, b = 0;
    int rc;

    (void)path;
    if ((rc = qn_store_puzzle_resolve(*s, resolve_full, &a, err)) == QN_OK)
        rc = qn_store_puzzle_resolve(*s, resolve_prefix, &b, err);
    shown = (unsigned long long)a * 1000 + (unsigned long long)b;
    return rc;
}

/* qn_store_find_puzzle of puzzle FIND_AT (cell 8 lit: its cells are
 * their canonical form, so its "own" key is the true one), which the
 * image `findable` adds to `filled`: through the runs, the rule's text
 * loaded to canonicalize the stored state */
#define FIND_AT 255

static int op_find(qn_store **s, const char *path, qn_err *err)
{
    tpuz t;
    int64_t id = 0;
    int rc;

    (void)path;
    make_puzzle(&t, 1, FIND_AT, 0);
    rc = qn_store_find_puzzle(*s, 1, t.canon, t.p.canon_len, &id, err);
    shown = (unsigned long long)id;
    return rc;
}

/* qn_store_check of the image `checkable` (the rule and puzzle FIND_AT,
 * whose key is the true one): the runs compared with the ids computed
 * from the states, the rule's text loaded */
static int op_check(qn_store **s, const char *path, qn_err *err)
{
    int64_t n = -1;
    int rc;

    (void)path;
    rc = qn_store_check(*s, &n, err);
    shown = (unsigned long long)n;
    return rc;
}

/* ------------------------------------------------------------------ */

/* A handle that came back from a failed call still reads and can hold a
 * batch (no transaction left open behind it). */
static int usable(qn_store *s)
{
    qn_store_counts c;
    int ok = qn_store_counts_get(s, &c, NULL) == QN_OK &&
             qn_store_begin(s, NULL) == QN_OK;
    return ok && qn_store_rollback(s, NULL) == QN_OK;
}

/* Sweep op on copies of im (NULL: no file; opens: op opens the handle
 * itself). The none/all digests: of the copy, and after a run nothing
 * failed; with two inputs to a merge the job may stop between them, so
 * any is allowed there (mid, 0: none). */
static unsigned long long sweep(const char *name, op_fn *op, const image *im,
                                int opens, int reads, unsigned long long mid)
{
    char path[512];
    unsigned long long none, all;
    qn_store *s = NULL;
    qn_err err = QN_ERR_INIT;
    long n, points = 0, nomem = 0, bad = 0, total, stride;
    int ended = 0;
    const char *only = getenv("QN_NOMEM_ONLY"), *from = getenv("QN_NOMEM_FROM");

    if (only && !strstr(name, only))
        return 0;
    snprintf(path, sizeof(path), "%s", tpath("work.db"));
    int rc;

    image_put(im, path);
    none = digest(path);
    image_put(im, path);
    if (!opens)
        T_EQ(qn_store_open(&s, path, 0, NULL), QN_OK);
    t_fail_after(MAX_POINTS * 100); /* counts, fails none */
    rc = op(&s, path, &err);
    total = t_counted();
    t_fail_after(-1);
    if (rc != QN_OK)
        fprintf(stderr, "%s: %s\n", name, err.msg);
    T_EQ(rc, QN_OK);
    shown_want = shown;
    qn_store_close(s);
    s = NULL;
    all = digest(path);
    T_CHECK(all != 0 && (reads ? all == none : all != none));
    stride = stride_env ? stride_env : total <= 2000 ? 1 : total / 500;
    /* the last run fails none: its n is past the count (a thread's may
     * vary: one more each until it is) */
    for (n = from ? atol(from) : 1; n < MAX_POINTS;
         n = n + stride <= total ? n + stride
             : n > total         ? n + 1
                                 : total + 1) {
        unsigned long long d;
        long made;

        image_put(im, path);
        if (!opens)
            T_EQ(qn_store_open(&s, path, 0, NULL), QN_OK);
        err = (qn_err)QN_ERR_INIT;
        t_fail_after(n);
        rc = op(&s, path, &err);
        made = t_counted();
        t_fail_after(-1);
        points++;
        if (made < n) { /* nothing failed: the run of reference */
            T_EQ(rc, QN_OK);
            T_CHECK(shown == shown_want);
            qn_store_close(s);
            s = NULL;
            T_CHECK(digest(path) == all);
            ended = 1;
            break;
        }
        if (rc == QN_ENOMEM && err.code == QN_ENOMEM &&
            strstr(err.msg, "out of memory"))
            nomem++;
        else if (rc != QN_OK) {
            T_FAILF("%s, allocation %ld failing: rc %d, '%s'", name, n, rc,
                    err.msg);
            bad++;
        }
        if (s && !usable(s)) {
            T_FAILF("%s, allocation %ld failing: the handle is not usable",
                    name, n);
            bad++;
        }
        qn_store_close(s);
        s = NULL;
        d = digest(path);
        if (d == 0 || (d != none && d != all && (!mid || d != mid)) ||
            (rc == QN_OK && d != all)) {
            T_FAILF("%s, allocation %ld failing (rc %d): the file holds %s",
                    name, n, rc, d == 0 ? "damage" : "part of the call's rows");
            bad++;
        }
        if (bad > 5)
            break;
    }
    T_CHECK(ended || bad > 5);
    T_CHECK(nomem > 0);
    printf("%s: %ld allocations, %ld runs, %ld out of memory\n", name, total,
           points, nomem);
    return all;
}

int main(void)
{
    const char *e = getenv("QN_NOMEM_STRIDE");
    static char nothing[1];
    image zero = {nothing, 0};
    image empty, with_rule, filled, findable, checkable;
    int64_t ids[4] = {1, 2, 3, 4}, rid;
    qn_store *s = NULL;
    unsigned long long merged;

    t_alloc_hook();
    T_EQ(qn_store_use_allocator(NULL), QN_OK);
    if (e && atol(e) > 0)
        stride_env = atol(e);
    if (access("/dev/shm", W_OK) != 0)
        snprintf(tmpdir, sizeof(tmpdir), "/tmp/qn_nomem_store_XXXXXX");
    T_CHECK(mkdtemp(tmpdir) != NULL);
    T_EQ(qn_rules_load_buf(&rules, yaml, strlen(yaml), "<test>", NULL), QN_OK);
    qn_rules_hash(rules, rule_hash);
    t_uid_add(&known, rules);

    /* the copies: an empty store, one with the rule, one with puzzles
     * and a pack of 4; the merge's inputs overlap it */
    T_EQ(qn_store_open(&s, tpath("empty.db"), QN_STORE_CREATE, NULL), QN_OK);
    qn_store_close(s);
    image_take(&empty, tpath("empty.db"));
    T_EQ(qn_store_open(&s, tpath("rule.db"), QN_STORE_CREATE, NULL), QN_OK);
    T_EQ(put_rule(s, &rid, NULL), QN_OK);
    qn_store_close(s);
    image_take(&with_rule, tpath("rule.db"));
    T_EQ(qn_store_open(&s, tpath("filled.db"), QN_STORE_CREATE, NULL), QN_OK);
    T_EQ(put_puzzles(s, 0, NPUZ, 0, NULL), QN_OK);
    T_EQ(make_pack(s, "p1", ids, 4, NULL), QN_OK);
    qn_store_close(s);
    image_take(&filled, tpath("filled.db"));
    {
        tpuz t;
        uint8_t form[9];
        int64_t id = 0;
        make_puzzle(&t, 1, FIND_AT, 0);
        t.p.min_presses = 1;
        qn_canon_form(rules, form, t.cells);
        T_CHECK(!memcmp(form, t.cells, 9));
        T_EQ(qn_store_open(&s, tpath("filled.db"), 0, NULL), QN_OK);
        T_EQ(qn_store_put_puzzle(s, &t.p, &id, NULL, NULL), QN_OK);
        T_EQ(id, NPUZ + 1);
        qn_store_close(s);
        image_take(&findable, tpath("filled.db"));
        image_put(&filled, tpath("filled.db"));
        image_put(&with_rule, tpath("check.db"));
        T_EQ(qn_store_open(&s, tpath("check.db"), 0, NULL), QN_OK);
        T_EQ(qn_store_put_puzzle(s, &t.p, &id, NULL, NULL), QN_OK);
        qn_store_close(s);
        image_take(&checkable, tpath("check.db"));
    }
    {
        sqlite3 *db;
        sqlite3_stmt *st;
        T_EQ(sqlite3_open(tpath("filled.db"), &db), SQLITE_OK);
        t_uid_register(db, &known);
        T_EQ(sqlite3_prepare_v2(db,
                                "SELECT printf('%016x', t_uid(r.hash,"
                                " p.state)) FROM puzzles p JOIN rules r"
                                " ON r.id = p.rule_id WHERE p.id IN (5, 2)"
                                " ORDER BY p.id DESC",
                                -1, &st, NULL),
             SQLITE_OK);
        T_EQ(sqlite3_step(st), SQLITE_ROW);
        snprintf(resolve_full, sizeof(resolve_full), "%s",
                 (const char *)sqlite3_column_text(st, 0));
        T_EQ(sqlite3_step(st), SQLITE_ROW);
        snprintf(resolve_prefix, sizeof(resolve_prefix), "%s",
                 (const char *)sqlite3_column_text(st, 0));
        sqlite3_finalize(st);
        sqlite3_close(db);
    }
    T_EQ(qn_store_open(&s, tpath("in.db"), QN_STORE_CREATE, NULL), QN_OK);
    T_EQ(put_puzzles(s, 4, NPUZ + 4, 1, NULL), QN_OK);
    T_EQ(make_pack(s, "p1", ids, 4, NULL), QN_OK);
    T_EQ(make_pack(s, "p2", ids + 1, 3, NULL), QN_OK);
    qn_store_close(s);
    T_EQ(qn_store_open(&s, tpath("in2.db"), QN_STORE_CREATE, NULL), QN_OK);
    T_EQ(put_puzzles(s, 2, 6, 0, NULL), QN_OK);
    T_EQ(make_pack(s, "p2", ids, 2, NULL), QN_OK);
    qn_store_close(s);

    sweep("open, create and migrate", op_open, NULL, 1, 0, 0);
    sweep("open and migrate an empty file", op_open, &zero, 1, 0, 0);
    sweep("put a rule set", op_put_ruleset, &empty, 0, 0, 0);
    sweep("put puzzles in a batch", op_put_puzzles, &with_rule, 0, 0, 0);
    sweep("put a puzzle", op_put_one, &filled, 0, 0, 0);
    sweep("pack create", op_pack_create, &filled, 0, 0, 0);
    sweep("pack show", op_pack_show, &filled, 0, 1, 0);
    sweep("puzzle id lookup", op_resolve, &filled, 0, 1, 0);
    sweep("find a puzzle by its key", op_find, &findable, 0, 1, 0);
    sweep("check the runs against the states", op_check, &checkable, 0, 1, 0);
    sweep("pack add", op_pack_add, &filled, 0, 0, 0);
    sweep("pack move", op_pack_move, &filled, 0, 0, 0);
    sweep("pack remove", op_pack_remove, &filled, 0, 0, 0);
    sweep("pack build's sections", op_pack_sections, &filled, 0, 0, 0);
    sweep("pack replace", op_pack_replace, &filled, 0, 0, 0);
    sweep("pack sort", op_pack_sort, &filled, 0, 0, 0);
    merged = sweep("merge", op_merge, &filled, 0, 0, 0);
    /* the job commits input by input: in.db alone is merged between */
    sweep("merge of two, checked on a thread", op_merge_job, &filled, 0, 0,
          merged);

    free(empty.bytes);
    free(with_rule.bytes);
    free(filled.bytes);
    free(findable.bytes);
    free(checkable.bytes);
    qn_rules_free(rules);
    return t_done();
}
