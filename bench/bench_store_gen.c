/*
 * bench_store_gen.c: issue #24's store figures, with the real binary as
 * a user runs it. Medians of QN_BENCH_REPS runs (default 3) of:
 *
 *   1. generate --db: N (QN_BENCH_GEN_N, default 1000000) classic 7x7
 *      puzzles, --jobs 2, into a fresh database, by this build and (when
 *      QUENCH_BASE names the quench binary of an older build, e.g. one of
 *      main) by that one, in the same run: the ratio (bar >= 4x; in CPU
 *      time, every thread, #35's bar >= 1.5x against 4604f03), and the
 *      bytes per puzzle on disk of each database (goal <= 80);
 *   2. a bare insert loop into this schema: the rows generate stored, read
 *      back into memory, inserted again by raw prepared statements with
 *      the store's pragmas and batch size (bar: generate >= 70% of it);
 *   3. db merge of 4 shards (generate --shard i/4, N/4 each) against a raw
 *      INSERT ... SELECT of the same rows with the same pragmas, in wall
 *      time (#24's bar <= 1.2x) and in CPU time, every thread of each to
 *      its close (#35's bar <= 1.1x; with QUENCH_BASE, that build's merge
 *      of the same shards made by that build: an older quench refuses a
 *      database written by a newer one), the merged rows checked equal to
 *      the unsharded run's. QN_BENCH_STORE_SET=merge runs this part alone
 *      (the unsharded run then made once, untimed). Each rep runs the
 *      merge and the raw copy back to back: the median of the pairs'
 *      CPU ratios is printed beside the ratio of the medians.
 *      QN_BENCH_QUENCH names another binary to run as this build's.
 *
 * The load average and the CPU time used are printed at the start and the
 * end: on a shared machine the ratios, measured in one run, are what
 * counts. Run from the project's root (make bench).
 */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include <sqlite3.h>

#include "bench.h"
#include "rules/state.h"
#include "store/store.h"

#define SHARDS 4
#define BATCH 65536 /* cmd_generate.h: DB_BATCH */
#define PRAGMAS                                                                \
    "PRAGMA foreign_keys = ON; PRAGMA journal_mode = WAL;"                     \
    " PRAGMA synchronous = NORMAL; PRAGMA cache_size = -65536"

static char dir[] = "/tmp/bench-store-gen-XXXXXX";
static char nbuf[24];

static void die(const char *what, sqlite3 *db)
{
    fprintf(stderr, "bench_store_gen: %s: %s\n", what,
            db ? sqlite3_errmsg(db) : "failed");
    exit(1);
}

static double file_bytes(const char *path)
{
    struct stat st;
    return stat(path, &st) == 0 ? (double)st.st_size : 0;
}

static void status(const char *when)
{
    double load[3] = {0, 0, 0};
    struct rusage self, kids;

    if (getloadavg(load, 3) < 0)
        load[0] = load[1] = load[2] = -1;
    getrusage(RUSAGE_SELF, &self);
    getrusage(RUSAGE_CHILDREN, &kids);
    printf("  %s: load average %.2f %.2f %.2f, CPU used %.1f s\n", when,
           load[0], load[1], load[2],
           (double)(self.ru_utime.tv_sec + self.ru_stime.tv_sec +
                    kids.ru_utime.tv_sec + kids.ru_stime.tv_sec) +
               1e-6 * (double)(self.ru_utime.tv_usec + self.ru_stime.tv_usec +
                               kids.ru_utime.tv_usec + kids.ru_stime.tv_usec));
}

/* quench generate classic 7x7 into db (shard "i/4" or NULL): seconds;
 * its CPU seconds in gen_cpu */
static double gen_cpu;
static double generate(const char *quench, const char *db, const char *shard)
{
    const char *argv[16] = {
        quench,   "-q", "generate", "rules/classic-7x7.yaml",
        "-n",     nbuf, "--seed",   "1",
        "--jobs", "2",  "--db",     db,
        NULL};

    if (shard) {
        argv[12] = "--shard";
        argv[13] = shard;
        argv[14] = NULL;
    }
    bench_remove_db(db);
    return bench_exec_cpu(argv, NULL, &gen_cpu);
}

static sqlite3 *open_db(const char *path)
{
    sqlite3 *db;

    if (sqlite3_open(path, &db) != SQLITE_OK)
        die(path, db);
    if (sqlite3_exec(db, PRAGMAS, NULL, NULL, NULL) != SQLITE_OK)
        die("pragmas", db);
    return db;
}

static void exec(sqlite3 *db, const char *sql)
{
    if (sqlite3_exec(db, sql, NULL, NULL, NULL) != SQLITE_OK)
        die(sql, db);
}

/* A fresh database at path with this build's schema and, when rules_of
 * is given, that database's rules and runs (their ids kept). */
static sqlite3 *fresh(const char *path, const char *rules_of)
{
    qn_store *s;
    qn_err err = QN_ERR_INIT;
    sqlite3 *db;
    char sql[512];

    bench_remove_db(path);
    if (qn_store_open(&s, path, QN_STORE_CREATE, &err) != QN_OK) {
        fprintf(stderr, "bench_store_gen: %s\n", err.msg);
        exit(1);
    }
    qn_store_close(s);
    db = open_db(path);
    if (rules_of) {
        snprintf(sql, sizeof(sql),
                 "ATTACH '%s' AS src; INSERT INTO rules SELECT * FROM"
                 " src.rules; INSERT INTO runs SELECT * FROM src.runs;"
                 " DETACH src",
                 rules_of);
        exec(db, sql);
    }
    return db;
}

/* The stored rows of src as they were inserted: every column but id
 * (the human grade's three too, which db merge copies). */
#define COLS                                                                   \
    "rule_id, state, min_presses, optimal, witness, grade, grader, seed,"      \
    " stream_index, provenance, run_id, submission, source, meta,"             \
    " human_level, human_score, human_model"
#define NCOLS 17

/* Insert src's puzzle rows into a fresh copy of its schema (no puzzles)
 * by a bare loop of prepared statements, BATCH a transaction: seconds. */
static double bare_loop(const char *src, const char *dst)
{
    sqlite3 *in, *out;
    sqlite3_stmt *rd, *wr;
    sqlite3_value ***rows;
    size_t n = 0, cap = 1 << 20;
    double t0;

    in = open_db(src);
    rows = malloc(cap * sizeof(*rows));
    if (sqlite3_prepare_v2(in, "SELECT " COLS " FROM puzzles ORDER BY id", -1,
                           &rd, NULL) != SQLITE_OK)
        die("read", in);
    while (sqlite3_step(rd) == SQLITE_ROW) {
        if (n == cap)
            rows = realloc(rows, (cap *= 2) * sizeof(*rows));
        rows[n] = malloc(NCOLS * sizeof(**rows));
        for (int c = 0; c < NCOLS; c++)
            rows[n][c] = sqlite3_value_dup(sqlite3_column_value(rd, c));
        n++;
    }
    sqlite3_finalize(rd);
    sqlite3_close(in);
    out = fresh(dst, src);
    if (sqlite3_prepare_v2(out,
                           "INSERT INTO puzzles (" COLS ") VALUES (?, ?, ?,"
                           " ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
                           -1, &wr, NULL) != SQLITE_OK)
        die("insert", out);
    t0 = bench_now();
    for (size_t i = 0; i < n; i += BATCH) {
        exec(out, "BEGIN IMMEDIATE");
        for (size_t j = i; j < n && j < i + BATCH; j++) {
            for (int c = 0; c < NCOLS; c++)
                sqlite3_bind_value(wr, c + 1, rows[j][c]);
            if (sqlite3_step(wr) != SQLITE_DONE)
                die("insert", out);
            sqlite3_reset(wr);
        }
        exec(out, "COMMIT");
    }
    t0 = bench_now() - t0;
    sqlite3_finalize(wr);
    sqlite3_close(out);
    for (size_t i = 0; i < n; i++) {
        for (int c = 0; c < NCOLS; c++)
            sqlite3_value_free(rows[i][c]);
        free(rows[i]);
    }
    free(rows);
    return t0;
}

/* quench db merge OUT SHARDS...: seconds; its CPU seconds in *cpu (if
 * not NULL) */
static double merge(const char *quench, const char *out, char **shard,
                    double *cpu)
{
    const char *argv[6 + SHARDS] = {quench, "-q", "db", "merge", out};

    for (int i = 0; i < SHARDS; i++)
        argv[5 + i] = shard[i];
    argv[5 + SHARDS] = NULL;
    bench_remove_db(out);
    return bench_exec_cpu(argv, NULL, cpu);
}

/* The raw copy merge is measured against: a fresh OUT, then per shard
 * one transaction of INSERT ... SELECT of its rules, runs, puzzles and
 * the puzzles' key runs (migration 0008: db merge writes them too).
 * Returns the time to its last commit; *whole the time to its close too,
 * which checkpoints what the WAL still holds into the file, as a db
 * merge's time (the process's, to its exit) includes; *cpu the CPU time
 * to its close. */
static double raw_copy(const char *out, char **shard, double *whole,
                       double *cpu)
{
    sqlite3 *db;
    double t0, t1, c0;
    char sql[1024];

    db = fresh(out, NULL);
    c0 = bench_cpu();
    t0 = bench_now();
    for (int i = 0; i < SHARDS; i++) {
        snprintf(sql, sizeof(sql), "ATTACH '%s' AS src", shard[i]);
        exec(db, sql);
        exec(db, "BEGIN IMMEDIATE;"
                 " INSERT OR IGNORE INTO main.rules SELECT * FROM src.rules;"
                 " INSERT INTO main.runs (key, command, rule_id, seed,"
                 " options, tool_version) SELECT key, command, rule_id, seed,"
                 " options, tool_version FROM src.runs;"
                 " INSERT INTO main.puzzles (" COLS ") SELECT rule_id, state,"
                 " min_presses, optimal, witness, grade, grader, seed,"
                 " stream_index, provenance, (SELECT max(id) FROM main.runs),"
                 " submission, source, meta, human_level, human_score,"
                 " human_model FROM src.puzzles;"
                 /* the puzzles' key runs are theirs to copy too */
                 " INSERT INTO main.key_runs (rule_id, level, first_key,"
                 " last_key, count, keys) SELECT rule_id, level, first_key,"
                 " last_key, count, keys FROM src.key_runs;"
                 " COMMIT; DETACH src");
    }
    t1 = bench_now();
    sqlite3_close(db);
    *whole = bench_now() - t0;
    *cpu = bench_cpu() - c0;
    return t1 - t0;
}

/* state_text(state, layout, colours): a packed state or witness as the
 * store's readers give it (the layout's '0's replaced by the cells in
 * order, as qn_state_put writes values), for comparing with a database
 * of schema 3, which kept the text. */
static void sql_state_text(sqlite3_context *ctx, int argc, sqlite3_value **argv)
{
    const uint8_t *packed = sqlite3_value_blob(argv[0]);
    const char *layout = (const char *)sqlite3_value_text(argv[1]);
    unsigned k = (unsigned)sqlite3_value_int(argv[2]);
    size_t len = layout ? strlen(layout) : 0;
    char *text = malloc(5 * len + 1), *t = text;
    uint8_t *cells = malloc(len + 1);
    int n = 0;

    (void)argc;
    for (size_t i = 0; i < len; i++)
        n += layout[i] == '0';
    if (!packed ||
        (size_t)sqlite3_value_bytes(argv[0]) != qn_store_canon_size(n, k)) {
        free(text);
        free(cells);
        sqlite3_result_error(ctx, "state_text: not a packed state", -1);
        return;
    }
    qn_store_canon_unpack(cells, packed, n, k);
    n = 0;
    for (size_t i = 0; i < len; i++)
        if (layout[i] == '0')
            t = qn_state_put_value(t, cells[n++]);
        else
            *t++ = layout[i];
    free(cells);
    sqlite3_result_text(ctx, text, (int)(t - text), free);
}

/* The rows of db as a reader sees them (the seed joined back from the
 * run: '' in a row is its run's; a database of schema 3 has none; the
 * state and witness as text: schema 3 kept them so), in order (by_id:
 * the row ids too, else by stored state, which no two rows share: since
 * schema 9 no row keeps its id, a function of the state): FNV-1a of
 * their text. */
static uint64_t rows_digest(const char *path, int by_id, long long *n)
{
    sqlite3 *db = open_db(path);
    sqlite3_stmt *st;
    uint64_t h = 0xcbf29ce484222325ULL;
    int packed = 0, coded = 0;
    char sql[768];

    if (sqlite3_prepare_v2(db, "PRAGMA user_version", -1, &st, NULL) ==
            SQLITE_OK &&
        sqlite3_step(st) == SQLITE_ROW) {
        packed = sqlite3_column_int(st, 0) >= 4;
        coded = sqlite3_column_int(st, 0) >= 7; /* grades as codes */
    }
    sqlite3_finalize(st);
    sqlite3_create_function(db, "state_text", 3, SQLITE_UTF8, NULL,
                            sql_state_text, NULL, NULL);
    snprintf(sql, sizeof(sql),
             "SELECT %s, '', %s, %s,"
             " p.min_presses, p.optimal, %s, p.stream_index,"
             " iif(p.seed = '', r.seed, p.seed) FROM puzzles p"
             " JOIN rules ru ON ru.id = p.rule_id"
             " LEFT JOIN runs r ON r.id = p.run_id ORDER BY %s",
             by_id ? "p.id" : "''",
             packed ? "state_text(p.state, ru.layout, ru.colours)" : "p.state",
             packed ? "state_text(p.witness, ru.layout, ru.colours)"
                    : "p.witness",
             coded ? "(SELECT g.name FROM grades g WHERE g.id = p.grade)"
                   : "p.grade",
             by_id ? "p.id" : "p.state");
    if (sqlite3_prepare_v2(db, sql, -1, &st, NULL) != SQLITE_OK)
        die("digest", db);
    *n = 0;
    while (sqlite3_step(st) == SQLITE_ROW) {
        for (int c = 0; c < 9; c++) {
            const unsigned char *t = sqlite3_column_text(st, c);
            for (; t && *t; t++)
                h = (h ^ *t) * 0x100000001b3ULL;
            h = (h ^ 0x1f) * 0x100000001b3ULL;
        }
        ++*n;
    }
    if (sqlite3_finalize(st) != SQLITE_OK)
        die("digest", db);
    sqlite3_close(db);
    return h;
}

static char *path(const char *name)
{
    char *p = malloc(256);
    snprintf(p, 256, "%s/%s", dir, name);
    return p;
}

int main(void)
{
    const char *base = getenv("QUENCH_BASE");
    const char *env_n = getenv("QN_BENCH_GEN_N");
    long long n = env_n && atoll(env_n) > 0 ? atoll(env_n) : 1000000, rows;
    int reps = bench_reps(3);
    double *tg = calloc((size_t)reps, sizeof(double));
    double *tb = calloc((size_t)reps, sizeof(double));
    double *tl = calloc((size_t)reps, sizeof(double));
    double *tm = calloc((size_t)reps, sizeof(double));
    double *tr = calloc((size_t)reps, sizeof(double));
    double *tw = calloc((size_t)reps, sizeof(double));
    double *cm = calloc((size_t)reps, sizeof(double));
    double *cr = calloc((size_t)reps, sizeof(double));
    double *cb = calloc((size_t)reps, sizeof(double));
    double *pr = calloc((size_t)reps, sizeof(double));
    double *cg = calloc((size_t)reps, sizeof(double));
    double *cgb = calloc((size_t)reps, sizeof(double));
    const char *set = getenv("QN_BENCH_STORE_SET");
    /* this build's binary; another (e.g. a copy of an earlier commit's)
     * to measure two builds of the same schema alike */
    const char *self =
        getenv("QN_BENCH_QUENCH") ? getenv("QN_BENCH_QUENCH") : "build/quench";
    int merge_only = set && !strcmp(set, "merge");
    double g, b = 0, l, m, r, w, bytes_new, bytes_base = 0;
    char *gen, *old, *bare, *out, *raw, *shard[SHARDS], *bshard[SHARDS];
    char spec[SHARDS][8], rm[96];
    uint64_t want, got;
    long long nwant, ngot;

    if (!mkdtemp(dir)) {
        perror("bench_store_gen: mkdtemp");
        return 1;
    }
    gen = path("gen.db"), old = path("base.db"), bare = path("bare.db");
    out = path("merged.db"), raw = path("raw.db");
    setvbuf(stdout, NULL, _IOLBF, 0); /* each figure as it comes */
    snprintf(nbuf, sizeof(nbuf), "%lld", n);
    printf("store at generation speed: %lld classic 7x7 puzzles, --jobs 2, "
           "%d reps (medians)\n",
           n, reps);
    status("start");
    if (merge_only) {
        generate(self, gen, NULL);
        goto merges;
    }
    for (int i = 0; i < reps; i++) {
        if (base) {
            tb[i] = generate(base, old, NULL);
            cgb[i] = gen_cpu;
        }
        tg[i] = generate(self, gen, NULL);
        cg[i] = gen_cpu;
        tl[i] = bare_loop(gen, bare);
    }
    g = bench_median(tg, reps);
    l = bench_median(tl, reps);
    bytes_new = file_bytes(gen) / (double)n;
    printf("  generate --db, this build  %8.2f s  %9.0f puzzles/s  "
           "%5.0f bytes/puzzle on disk (goal <= 80: %s)\n",
           g, (double)n / g, bytes_new, bytes_new <= 80 ? "PASS" : "FAIL");
    if (base) {
        b = bench_median(tb, reps);
        bytes_base = file_bytes(old) / (double)n;
        printf("  generate --db, QUENCH_BASE %8.2f s  %9.0f puzzles/s  "
               "%5.0f bytes/puzzle\n",
               b, (double)n / b, bytes_base);
        /* #24's bar is against the main #24 was filed on; #35's
         * QUENCH_BASE (4604f03) is much faster than that base */
        printf("  this build / base: x%.2f wall (#24's bar >= 4, set "
               "against the main #24 was filed on: %s)\n",
               b / g, b / g >= 4 ? "PASS" : "FAIL");
        /* issue #35: the rate in CPU time, every thread, and the floor */
        printf("  generate --db CPU: this build %.2f s, QUENCH_BASE %.2f s:"
               " x%.2f (#35 bar >= 1.5: %s); %.0f bytes/puzzle (#35 bar "
               "<= 64: %s)\n",
               bench_median(cg, reps), bench_median(cgb, reps),
               bench_median(cgb, reps) / bench_median(cg, reps),
               bench_median(cgb, reps) >= 1.5 * bench_median(cg, reps) ? "PASS"
                                                                       : "FAIL",
               bytes_new, bytes_new <= 64 ? "PASS" : "FAIL");
    } else {
        printf("  (set QUENCH_BASE to an older quench for the 4x ratio)\n");
    }
    printf("  bare insert loop, same rows %8.2f s  %9.0f rows/s; generate "
           "--db at %.0f%% of it (bar >= 70%%: %s)\n",
           l, (double)n / l, 100 * l / g, l / g >= 0.7 ? "PASS" : "FAIL");

merges:
    for (int i = 0; i < SHARDS; i++) {
        char name[16];
        snprintf(name, sizeof(name), "shard%d.db", i);
        shard[i] = path(name);
        snprintf(spec[i], sizeof(spec[i]), "%d/%d", i, SHARDS);
        generate(self, shard[i], spec[i]);
        /* the base's own shards: it may not read this build's schema */
        snprintf(name, sizeof(name), "bshard%d.db", i);
        bshard[i] = path(name);
        if (base)
            generate(base, bshard[i], spec[i]);
    }
    for (int i = 0; i < reps; i++) {
        tm[i] = merge(self, out, shard, &cm[i]);
        tr[i] = raw_copy(raw, shard, &tw[i], &cr[i]);
        /* the pair's ratio: merge and raw copy back to back, so that the
         * machine's drift over minutes (a third here) moves both alike */
        pr[i] = cm[i] / cr[i];
        if (base)
            merge(base, old, bshard, &cb[i]);
    }
    m = bench_median(tm, reps);
    r = bench_median(tr, reps);
    w = bench_median(tw, reps);
    printf("  db merge of %d x %lld      %8.2f s; raw INSERT ... SELECT "
           "%.2f s to its last commit (x%.2f), %.2f s to its close, as db "
           "merge is timed: x%.2f (bar <= 1.2: %s)\n",
           SHARDS, n / SHARDS, m, r, m / r, w, m / w,
           m <= 1.2 * w ? "PASS" : "FAIL");
    {
        double c = bench_median(cm, reps), cw = bench_median(cr, reps);
        double lo = pr[0], hi = pr[0], pm;
        for (int i = 1; i < reps; i++) {
            lo = pr[i] < lo ? pr[i] : lo;
            hi = pr[i] > hi ? pr[i] : hi;
        }
        pm = bench_median(pr, reps);
        printf("  db merge CPU %.2f s; raw INSERT ... SELECT CPU %.2f s: "
               "x%.2f (bar <= 1.1: %s)\n",
               c, cw, c / cw, c <= 1.1 * cw ? "PASS" : "FAIL");
        printf("  db merge CPU / raw copy CPU, pair by pair (merge then raw"
               " copy, back to back): median x%.3f (bar <= 1.1: %s),"
               " x%.3f-%.3f\n",
               pm, pm <= 1.1 ? "PASS" : "FAIL", lo, hi);
        if (base)
            printf("  QUENCH_BASE's db merge of the same run's shards (made"
                   " by QUENCH_BASE) CPU %.2f s: x%.2f of this build's raw"
                   " copy; base / this build x%.2f\n",
                   bench_median(cb, reps), bench_median(cb, reps) / cw,
                   bench_median(cb, reps) / c);
    }
    /* unchanged: the single run's puzzles, and when there is a base, the
     * very rows (ids too) its merge of its own shards makes */
    want = rows_digest(gen, 0, &nwant);
    got = rows_digest(out, 0, &ngot);
    rows_digest(raw, 0, &rows);
    printf("  merged puzzles = the unsharded run's (%lld, raw copy %lld): "
           "%s\n",
           ngot, rows, want == got && nwant == ngot ? "PASS" : "FAIL");
    if (base) {
        want = rows_digest(old, 1, &nwant);
        got = rows_digest(out, 1, &ngot);
        printf("  merged rows, ids included = QUENCH_BASE's merge: %s\n",
               want == got && nwant == ngot ? "PASS" : "FAIL");
    }
    status("end");
    snprintf(rm, sizeof(rm), "rm -rf '%s'", dir);
    if (system(rm) != 0)
        fprintf(stderr, "bench_store_gen: could not remove %s\n", dir);
    return 0;
}
