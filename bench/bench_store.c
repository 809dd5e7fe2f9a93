/*
 * bench_store.c: the store's half of issue 6's figure. Inserts N synthetic
 * classic-7x7-sized puzzle rows (distinct canonical keys) into a fresh
 * database with the real schema, twice: through the library
 * (qn_store_put_puzzle in qn_store_begin/commit batches) and through a bare
 * loop of raw prepared statements with the same SQL, pragmas and batch
 * size. Prints both rates and their ratio; the generator side (generate +
 * grade + store must reach 70% of the bare rate) is added with `generate
 * --db`. Then appends the first QN_BENCH_PACK (default 20000) of those
 * puzzles to a pack, PACK_BATCH per transaction as generate --pack does,
 * and compares an append near the end with one near the start: equal
 * when appending is O(1) in the pack's size, as issue 9's finding (pack
 * appends once rewrote the pack) requires. QN_BENCH_ROWS (default
 * 1000000) and QN_BENCH_BATCH (default 10000) override the sizes.
 */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <sqlite3.h>

#include "bench.h"
#include "store/store.h"

#define W 7
#define NCELLS (W * W)

/* what qn_store_put_puzzle runs: '' for the run's seed (migration
 * 0004), the grade's code (0007: 2 is medium), no id nor canonical key
 * (0009: the key runs hold the ids; the store's own duplicate check is
 * the library's cost, not the table's) */
static const char insert_sql[] =
    "INSERT INTO puzzles (rule_id, state, min_presses, optimal, witness,"
    " grade, grader, seed, stream_index, provenance, run_id)"
    " VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)";

static const char rule_hash[] =
    "0123456789abcdef0123456789abcdef0123456789abcdef0123456789abcdef";
static const char seed_hex[] =
    "9f2c4e1a7b3d5f60112233445566778899aabbccddeeff000123456789abcdef";

/* Row i: a 7x7 state text, a witness text and a 7-byte canonical key
 * that is distinct for every i (the index scrambled by an odd multiplier
 * so keys arrive in random order, as real canonical forms do), and the
 * state and witness packed as the row keeps them (a bit a cell, LSB
 * first: docs/STORE.md) for the bare loop. */
typedef struct row {
    char state[NCELLS + W], witness[NCELLS + W];
    uint8_t canon[7], packed_state[7], packed_witness[7];
    uint64_t presses;
} row;

static void make_row(row *r, uint64_t i)
{
    uint64_t key = (i * 0x9e3779b97f4a7c15ULL) & ((1ULL << 49) - 1);
    uint64_t x = key ^ (key >> 17) ^ 0x5555555555555ULL;
    int p = 0, pr = 0;

    /* 49 < 2^49 and the multiplier is odd: distinct i below 2^49 give
     * distinct keys */
    for (int b = 0; b < 7; b++) {
        r->canon[b] = r->packed_state[b] = (uint8_t)(key >> (8 * b));
        r->packed_witness[b] = (uint8_t)(x >> (8 * b));
    }
    r->packed_witness[6] &= 1; /* 49 cells: the last byte holds one */
    for (int c = 0; c < NCELLS; c++) {
        if (c && c % W == 0) {
            r->state[p] = '/';
            r->witness[p++] = '/';
        }
        r->state[p] = (char)('0' + (key >> c & 1));
        r->witness[p++] = (char)('0' + (x >> c & 1));
        pr += (int)(x >> c & 1);
    }
    r->state[p] = r->witness[p] = '\0';
    r->presses = (uint64_t)pr;
}

static int64_t setup(const char *path, qn_store **out)
{
    qn_err err = QN_ERR_INIT;
    qn_store_rule rule = {rule_hash,
                          "classic-7x7",
                          "quench: 1\n",
                          NCELLS,
                          2,
                          "",
                          "0000000/0000000/0000000/0000000/0000000/"
                          "0000000/0000000"};
    qn_store_run run = {"bench", 0, seed_hex, "n", "bench", 0};
    int64_t rid, runid;

    unlink(path);
    if (qn_store_open(out, path, QN_STORE_CREATE, &err) != QN_OK ||
        qn_store_put_rule(*out, &rule, &rid, &err) != QN_OK ||
        qn_store_run_start(*out, &run, &runid, &err) != QN_OK) {
        fprintf(stderr, "bench_store: %s: %s\n", path, err.msg);
        exit(1);
    }
    (void)rid;
    return runid;
}

static double via_api(const char *path, uint64_t n, uint64_t batch)
{
    qn_store *s;
    qn_err err = QN_ERR_INIT;
    int64_t run = setup(path, &s);
    qn_store_puzzle p;
    row r;
    double t0 = bench_now();

    memset(&p, 0, sizeof(p));
    p.rule_id = 1;
    p.state = r.state;
    p.canon = r.canon;
    p.canon_len = sizeof(r.canon);
    p.noptimal = 1;
    p.witness = r.witness;
    p.grade = "medium";
    p.grader = "bench-1";
    p.seed = seed_hex;
    p.provenance = QN_STORE_GENERATE;
    p.run_id = run;
    for (uint64_t i = 0; i < n; i += batch) {
        if (qn_store_begin(s, &err) != QN_OK)
            goto fail;
        for (uint64_t j = i; j < n && j < i + batch; j++) {
            make_row(&r, j);
            p.min_presses = r.presses;
            p.stream_index = (int64_t)j;
            if (qn_store_put_puzzle(s, &p, NULL, NULL, &err) != QN_OK)
                goto fail;
        }
        if (qn_store_commit(s, &err) != QN_OK)
            goto fail;
    }
    t0 = bench_now() - t0;
    qn_store_close(s);
    return t0;
fail:
    fprintf(stderr, "bench_store: %s\n", err.msg);
    exit(1);
}

static void check(sqlite3 *db, int rc, int want)
{
    if (rc != want) {
        fprintf(stderr, "bench_store: %s\n", sqlite3_errmsg(db));
        exit(1);
    }
}

static double bare(const char *path, uint64_t n, uint64_t batch)
{
    qn_store *s;
    int64_t run = setup(path, &s); /* the real schema, then raw SQLite */
    sqlite3 *db;
    sqlite3_stmt *st;
    row r;
    double t0;

    qn_store_close(s);
    check(NULL, sqlite3_open(path, &db), SQLITE_OK);
    check(db,
          sqlite3_exec(db,
                       "PRAGMA foreign_keys = ON; PRAGMA journal_mode = WAL;"
                       " PRAGMA synchronous = NORMAL;"
                       " PRAGMA cache_size = -65536",
                       NULL, NULL, NULL),
          SQLITE_OK);
    check(db, sqlite3_prepare_v2(db, insert_sql, -1, &st, NULL), SQLITE_OK);
    t0 = bench_now();
    for (uint64_t i = 0; i < n; i += batch) {
        check(db, sqlite3_exec(db, "BEGIN IMMEDIATE", NULL, NULL, NULL),
              SQLITE_OK);
        for (uint64_t j = i; j < n && j < i + batch; j++) {
            make_row(&r, j);
            sqlite3_bind_int64(st, 1, 1);
            sqlite3_bind_blob(st, 2, r.packed_state, 7, SQLITE_STATIC);
            sqlite3_bind_int64(st, 3, (sqlite3_int64)r.presses);
            sqlite3_bind_int64(st, 4, 1);
            sqlite3_bind_blob(st, 5, r.packed_witness, 7, SQLITE_STATIC);
            sqlite3_bind_int64(st, 6, 2);
            sqlite3_bind_text(st, 7, "bench-1", -1, SQLITE_STATIC);
            sqlite3_bind_text(st, 8, "", -1, SQLITE_STATIC);
            sqlite3_bind_int64(st, 9, (sqlite3_int64)j);
            sqlite3_bind_int(st, 10, QN_STORE_GENERATE);
            sqlite3_bind_int64(st, 11, run);
            check(db, sqlite3_step(st), SQLITE_DONE);
            sqlite3_reset(st);
        }
        check(db, sqlite3_exec(db, "COMMIT", NULL, NULL, NULL), SQLITE_OK);
    }
    t0 = bench_now() - t0;
    sqlite3_finalize(st);
    sqlite3_close(db);
    return t0;
}

#define PACK_BATCH 250 /* generate's default batch */
#define PACK_EDGE 8    /* batches timed at each end */

/* Per-append time (s) of each batch appending puzzles 1..n to a new
 * pack in path; the database holds at least n puzzles. */
static double *pack_appends(const char *path, uint64_t n, int *nbatch)
{
    qn_store *s;
    qn_err err = QN_ERR_INIT;
    qn_store_pack pk = {
        .name = "bench", .title = "", .description = "", .author = ""};
    int64_t pid;
    int nb = (int)((n + PACK_BATCH - 1) / PACK_BATCH), b = 0;
    double *t = calloc((size_t)nb, sizeof(double));

    if (qn_store_open(&s, path, 0, &err) != QN_OK ||
        qn_store_pack_create(s, &pk, &pid, &err) != QN_OK)
        goto fail;
    for (uint64_t i = 0; i < n; i += PACK_BATCH, b++) {
        uint64_t end = i + PACK_BATCH < n ? i + PACK_BATCH : n;
        double t0 = bench_now();
        if (qn_store_begin(s, &err) != QN_OK)
            goto fail;
        for (uint64_t j = i; j < end; j++)
            if (qn_store_pack_add(s, pid, (int64_t)j + 1, 0, &err) != QN_OK)
                goto fail;
        if (qn_store_commit(s, &err) != QN_OK)
            goto fail;
        t[b] = (bench_now() - t0) / (double)(end - i);
    }
    qn_store_close(s);
    *nbatch = nb;
    return t;
fail:
    fprintf(stderr, "bench_store: pack: %s\n", err.msg);
    exit(1);
}

static void bench_pack(const char *path, uint64_t n)
{
    int nb;
    double *t = pack_appends(path, n, &nb);
    int edge = nb / 2 < PACK_EDGE ? nb / 2 : PACK_EDGE;
    double first, last;

    if (edge < 1) {
        free(t);
        return;
    }
    first = bench_median(t, edge);
    last = bench_median(t + nb - edge, edge);
    printf("  pack append, %" PRIu64 " puzzles in batches of %d: "
           "%.1f us each at the start, %.1f us at the end (x%.2f; "
           "O(1) target <= x2: %s)\n",
           n, PACK_BATCH, first * 1e6, last * 1e6, last / first,
           last <= 2 * first ? "PASS" : "FAIL");
    free(t);
}

static uint64_t env_u64(const char *name, uint64_t dflt)
{
    const char *s = getenv(name);
    long long v = s ? atoll(s) : 0;
    return v > 0 ? (uint64_t)v : dflt;
}

int main(void)
{
    uint64_t n = env_u64("QN_BENCH_ROWS", 1000000);
    uint64_t batch = env_u64("QN_BENCH_BATCH", 10000);
    int reps = bench_reps(1);
    char dir[] = "/tmp/qn_bench_store_XXXXXX", path[64], rm[96];
    double *ta = calloc((size_t)reps, sizeof(double));
    double *tb = calloc((size_t)reps, sizeof(double));
    double a, b;

    if (!mkdtemp(dir)) {
        perror("bench_store: mkdtemp");
        return 1;
    }
    snprintf(path, sizeof(path), "%s/bench.db", dir);
    for (int i = 0; i < reps; i++) {
        tb[i] = bare(path, n, batch);
        ta[i] = via_api(path, n, batch);
    }
    a = bench_median(ta, reps);
    b = bench_median(tb, reps);
    printf("store: %" PRIu64 " puzzle rows, batches of %" PRIu64
           ", WAL, synchronous=NORMAL\n",
           n, batch);
    printf("  bare insert loop    %10.0f rows/s\n", (double)n / b);
    printf("  qn_store_put_puzzle %10.0f rows/s  (%.0f%% of bare)\n",
           (double)n / a, 100.0 * b / a);
    {
        uint64_t np = env_u64("QN_BENCH_PACK", 20000);
        bench_pack(path, np < n ? np : n); /* path: via_api's puzzles */
    }
    {
        /* issue 6's figure: the real generate --db, same schema, same run */
        char gpath[96], nbuf[32], bbuf[32];
        const char *argv[] = {
            "build/quench", "-q", "generate", "rules/classic-7x7.yaml",
            "-n",           nbuf, "--seed",   "1",
            "--jobs",       "2",  "--db",     gpath,
            "--batch",      bbuf, NULL};
        double g;

        snprintf(gpath, sizeof(gpath), "%s/generate.db", dir);
        snprintf(nbuf, sizeof(nbuf), "%" PRIu64, n);
        snprintf(bbuf, sizeof(bbuf), "%" PRIu64, batch);
        g = bench_exec(argv, NULL);
        printf("  generate+grade+store classic 7x7 %10.0f puzzles/s  (%.0f%% "
               "of bare; target >= 70%%: %s)\n",
               (double)n / g, 100.0 * b / g, b / g >= 0.7 ? "PASS" : "FAIL");
    }
    snprintf(rm, sizeof(rm), "rm -rf '%s'", dir);
    if (system(rm) != 0)
        fprintf(stderr, "bench_store: could not remove %s\n", dir);
    free(ta);
    free(tb);
    return 0;
}
