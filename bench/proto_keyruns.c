/*
 * proto_keyruns: a prototype of a puzzle store without a unique B-tree
 * (issue #35 section 1; docs/STORE-KEYRUNS.md). Not quench's store and
 * not part of `make bench`: it measures whether holding the puzzles'
 * uniqueness in per-batch sorted key runs, checked against an in-memory
 * set, would reach the store's bars.
 *
 *   build/bench/proto_keyruns SRC.db OUTDIR [COPIES [LAYOUT...]]
 *
 * SRC.db is a database made by `quench generate --db` (schema 0006); its
 * puzzle rows are read into memory and stored again, COPIES times (the
 * copies after the first with their puzzle ids changed by a mix of the
 * copy number, so they are new puzzles to the key check), into a fresh
 * OUTDIR/LAYOUT.db with the store's pragmas (4096-byte pages, 64 MiB
 * cache, WAL, synchronous NORMAL, wal_autocheckpoint 20000, foreign keys
 * on) and its batches (65,536 rows a transaction). Layouts:
 *
 *   today     the puzzles table of 0004-0006, UNIQUE (uid, rule_id,
 *             canon), INSERT ... ON CONFLICT DO NOTHING (the reference)
 *   kr        today's columns without the unique key, plus key runs
 *   kr-codes  kr with grade as a code and no canon column (the state
 *             gives it back through the rule's symmetries)
 *   kr-lean   kr-codes without the uid column too (the run holds it)
 *
 * A key run is one row of key_runs a batch, written in the batch's
 * transaction: the batch's puzzle ids sorted, Rice-coded deltas, with a
 * sample (id, bit position) every 128 keys for lookups, and each key's
 * row id as a fixed-width offset from the run's smallest row id. Before
 * a batch's rows go in, each puzzle id is probed in a hash set of every
 * stored id (loaded from the runs at open) and of the batch's own; a hit
 * is checked against the stored row's canonical key (a real duplicate)
 * or kept (a puzzle-id collision). When a rule has more than 64 runs
 * they are merged into one (compaction).
 *
 * Prints, a layout: the insert's CPU (user + system, getrusage, to the
 * close), the compactions' CPU, bytes a puzzle (page_count * page_size /
 * rows) and dbstat's bytes a table, then for the key-run layouts the
 * open's CPU (read and decode every run into the set), a lookup by
 * puzzle id (binary search in each run, then the row) against today's
 * index lookup, and a duplicate check: rows stored again must all be
 * refused.
 */
#define _GNU_SOURCE
#include <sqlite3.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <time.h>

#define BATCH 65536
#define SAMPLE 128
/* runs a rule before a compaction (-DMAXRUNS=2 tests it on a small run) */
#ifndef MAXRUNS
#define MAXRUNS 64
#endif
/* samples of a run of n keys: keys SAMPLE, 2 SAMPLE, ... < n */
#define NSAMPLES(n) ((n) ? ((size_t)(n)-1) / SAMPLE : 0)

typedef struct {
    int64_t rule_id, min_presses, optimal, stream_index, run_id, uid;
    int64_t hl, hs, hm;
    uint8_t prov, nulls; /* bit 0 grade, 1 seed, 2 stream, 3 run, 4 human */
    uint8_t state_n, canon_n, witness_n;
    uint8_t state[16], canon[16], witness[16];
    char grade[12], grader[12], seed[12];
} row;

static row *rows;
static size_t nrows;

static void die(const char *what, sqlite3 *db)
{
    fprintf(stderr, "proto_keyruns: %s: %s\n", what,
            db ? sqlite3_errmsg(db) : "failed");
    exit(70);
}

static double cpu(void)
{
    struct rusage ru;
    getrusage(RUSAGE_SELF, &ru);
    return ru.ru_utime.tv_sec + ru.ru_utime.tv_usec / 1e6 + ru.ru_stime.tv_sec +
           ru.ru_stime.tv_usec / 1e6;
}

static void exec(sqlite3 *db, const char *sql)
{
    char *msg = NULL;
    if (sqlite3_exec(db, sql, NULL, NULL, &msg) != SQLITE_OK) {
        fprintf(stderr, "proto_keyruns: %s\n  in: %.200s\n", msg, sql);
        exit(70);
    }
}

static sqlite3_stmt *prep(sqlite3 *db, const char *sql)
{
    sqlite3_stmt *st;
    if (sqlite3_prepare_v2(db, sql, -1, &st, NULL) != SQLITE_OK)
        die(sql, db);
    return st;
}

static void copy_blob(sqlite3_stmt *st, int c, uint8_t *dst, uint8_t *n)
{
    int len = sqlite3_column_bytes(st, c);
    if (len > 16)
        die("a blob longer than 16 bytes (a 7x7-sized board is expected)",
            NULL);
    memcpy(dst, sqlite3_column_blob(st, c), (size_t)len);
    *n = (uint8_t)len;
}

static void copy_text(sqlite3_stmt *st, int c, char *dst, uint8_t *nulls,
                      int bit)
{
    const char *t = (const char *)sqlite3_column_text(st, c);
    if (!t) {
        *nulls |= (uint8_t)(1 << bit);
        dst[0] = 0;
        return;
    }
    if (strlen(t) >= 12)
        die("a text column longer than 11 bytes", NULL);
    strcpy(dst, t);
}

static void load(const char *path)
{
    sqlite3 *db;
    sqlite3_stmt *st;
    size_t cap = 1 << 20;
    if (sqlite3_open_v2(path, &db, SQLITE_OPEN_READONLY, NULL) != SQLITE_OK)
        die(path, db);
    st = prep(db, "SELECT rule_id, state, canon, min_presses, optimal,"
                  " witness, grade, grader, seed, stream_index, provenance,"
                  " run_id, uid, human_level, human_score, human_model,"
                  " submission IS NULL AND source IS NULL AND meta IS NULL"
                  " FROM puzzles ORDER BY id");
    rows = malloc(cap * sizeof(row));
    while (sqlite3_step(st) == SQLITE_ROW) {
        row *r;
        if (nrows == cap)
            rows = realloc(rows, (cap *= 2) * sizeof(row));
        r = &rows[nrows++];
        memset(r, 0, sizeof(*r));
        if (!sqlite3_column_int(st, 16))
            die("a row with a submission, source or meta", NULL);
        r->rule_id = sqlite3_column_int64(st, 0);
        copy_blob(st, 1, r->state, &r->state_n);
        copy_blob(st, 2, r->canon, &r->canon_n);
        r->min_presses = sqlite3_column_int64(st, 3);
        r->optimal = sqlite3_column_int64(st, 4);
        copy_blob(st, 5, r->witness, &r->witness_n);
        copy_text(st, 6, r->grade, &r->nulls, 0);
        copy_text(st, 7, r->grader, &r->nulls, 7);
        copy_text(st, 8, r->seed, &r->nulls, 1);
        if (sqlite3_column_type(st, 9) == SQLITE_NULL)
            r->nulls |= 4;
        r->stream_index = sqlite3_column_int64(st, 9);
        r->prov = (uint8_t)sqlite3_column_int(st, 10);
        if (sqlite3_column_type(st, 11) == SQLITE_NULL)
            r->nulls |= 8;
        r->run_id = sqlite3_column_int64(st, 11);
        r->uid = sqlite3_column_int64(st, 12);
        if (sqlite3_column_type(st, 13) == SQLITE_NULL)
            r->nulls |= 16;
        r->hl = sqlite3_column_int64(st, 13);
        r->hs = sqlite3_column_int64(st, 14);
        r->hm = sqlite3_column_int64(st, 15);
    }
    sqlite3_finalize(st);
    sqlite3_close(db);
}

/* the copy c's puzzle id of row i: copy 0 is the row's own */
static uint64_t mix(uint64_t x)
{
    x ^= x >> 30;
    x *= 0xbf58476d1ce4e5b9ull;
    x ^= x >> 27;
    x *= 0x94d049bb133111ebull;
    return x ^ (x >> 31);
}
static int64_t uid_of(size_t i, size_t c)
{
    uint64_t u = (uint64_t)rows[i].uid;
    return c ? (int64_t)(u ^ mix(c * 0x9e3779b97f4a7c15ull)) : (int64_t)u;
}

/* ---- the in-memory set of puzzle ids (open addressing, the id is
 * already a hash: its top bits are the slot) ---- */
typedef struct {
    uint64_t *slot;
    unsigned bits;
    size_t n;
    int has_zero;
} idset;

static void set_init(idset *s, unsigned bits)
{
    s->bits = bits;
    s->slot = calloc((size_t)1 << bits, 8);
    s->n = 0;
    s->has_zero = 0;
}
static int set_add(idset *s, uint64_t k); /* 1 if it was there */
static void set_grow(idset *s)
{
    idset t;
    size_t i, m = (size_t)1 << s->bits;
    set_init(&t, s->bits + 1);
    t.has_zero = s->has_zero;
    for (i = 0; i < m; i++)
        if (s->slot[i])
            set_add(&t, s->slot[i]);
    free(s->slot);
    *s = t;
}
static int set_add(idset *s, uint64_t k)
{
    size_t m, i;
    if (!k) {
        int had = s->has_zero;
        s->has_zero = 1;
        return had;
    }
    if ((s->n + 1) * 10 > ((size_t)7 << s->bits))
        set_grow(s);
    m = ((size_t)1 << s->bits) - 1;
    for (i = (size_t)(k >> (64 - s->bits));; i = (i + 1) & m) {
        if (s->slot[i] == k)
            return 1;
        if (!s->slot[i]) {
            s->slot[i] = k;
            s->n++;
            return 0;
        }
    }
}

/* ---- bits ---- */
typedef struct {
    uint8_t *b;
    size_t pos; /* in bits */
} bits;
/* buffers carry 8 bytes of padding: whole-word loads and stores */
static void put_bits(bits *w, uint64_t v, unsigned n)
{
    uint64_t x;
    if (n > 56) {
        put_bits(w, v & 0xffffffffu, 32);
        put_bits(w, v >> 32, n - 32);
        return;
    }
    if (!n)
        return;
    v &= (n == 64 ? ~0ull : (1ull << n) - 1);
    memcpy(&x, w->b + (w->pos >> 3), 8);
    x |= v << (w->pos & 7);
    memcpy(w->b + (w->pos >> 3), &x, 8);
    w->pos += n;
}
static uint64_t get_bits(const uint8_t *b, size_t *pos, unsigned n)
{
    uint64_t v;
    if (n > 56) {
        uint64_t lo = get_bits(b, pos, 32);
        return lo | get_bits(b, pos, n - 32) << 32;
    }
    if (!n)
        return 0;
    memcpy(&v, b + (*pos >> 3), 8);
    v = v >> (*pos & 7) & ((1ull << n) - 1);
    *pos += n;
    return v;
}
/* a unary quotient: ones ended by a zero */
static uint64_t get_unary(const uint8_t *b, size_t *pos)
{
    uint64_t q = 0;
    for (;;) {
        uint64_t v;
        unsigned avail = 64 - (unsigned)(*pos & 7), t;
        memcpy(&v, b + (*pos >> 3), 8);
        v >>= *pos & 7;
        t = (unsigned)__builtin_ctzll(~v);
        if (t < avail) {
            *pos += t + 1;
            return q + t;
        }
        q += avail;
        *pos += avail;
    }
}

/* ---- a key run: header, samples, the Rice stream, the offsets ----
 * header: u32 count, u8 k, u8 w, u16 0, u32 stream bytes, i64 min row,
 * then NSAMPLES(count) samples (u64 key, u32 bit position after the key
 * after it), the stream of deltas (first key whole, 64 bits), then
 * count offsets of w bits. */
#define HDR 20
typedef struct {
    uint64_t key;
    int64_t rowid;
} kv;

static int kv_cmp(const void *a, const void *b)
{
    uint64_t x = ((const kv *)a)->key, y = ((const kv *)b)->key;
    return x < y ? -1 : x > y;
}

static unsigned log2u(uint64_t x)
{
    unsigned n = 0;
    while (x >>= 1)
        n++;
    return n;
}

static uint8_t *encode(const kv *k, size_t n, size_t *len)
{
    int64_t lo = k[0].rowid, hi = k[0].rowid;
    size_t i, ns = NSAMPLES(n), sbytes, cap;
    unsigned rk, w;
    uint64_t span = k[n - 1].key - k[0].key;
    uint8_t *out;
    bits s;
    for (i = 1; i < n; i++) {
        if (k[i].rowid < lo)
            lo = k[i].rowid;
        if (k[i].rowid > hi)
            hi = k[i].rowid;
    }
    rk = n > 1 && span / n ? log2u(span / n) : 0;
    w = hi > lo ? log2u((uint64_t)(hi - lo)) + 1 : 0;
    cap = HDR + ns * 12 + 8 + n * (rk + 2 + 1) / 8 +
          span / ((uint64_t)n << rk) / 8 + 64 + (n * w + 7) / 8 + 16;
    out = calloc(1, cap);
    s.b = out + HDR + ns * 12;
    s.pos = 0;
    put_bits(&s, k[0].key, 64);
    for (i = 1; i < n; i++) {
        uint64_t d = k[i].key - k[i - 1].key, q = d >> rk;
        while (q >= 32) {
            put_bits(&s, 0xffffffffu, 32);
            q -= 32;
        }
        put_bits(&s, (1ull << q) - 1, (unsigned)q + 1);
        put_bits(&s, d, rk);
        if (i % SAMPLE == 0) {
            uint8_t *p = out + HDR + (i / SAMPLE - 1) * 12;
            uint32_t bp = (uint32_t)s.pos; /* after it */
            memcpy(p, &k[i].key, 8);
            memcpy(p + 8, &bp, 4);
        }
    }
    sbytes = (s.pos + 7) / 8;
    {
        uint32_t c = (uint32_t)n, sb = (uint32_t)sbytes;
        memcpy(out, &c, 4);
        out[4] = (uint8_t)rk;
        out[5] = (uint8_t)w;
        memcpy(out + 8, &sb, 4);
        memcpy(out + 12, &lo, 8);
    }
    s.b += sbytes;
    s.pos = 0;
    for (i = 0; i < n; i++)
        put_bits(&s, (uint64_t)(k[i].rowid - lo), w);
    *len = HDR + ns * 12 + sbytes + (n * w + 7) / 8;
    return out;
}

/* a blob copied with 8 bytes of padding for the word loads */
static const uint8_t *padded(const void *b, int len)
{
    static uint8_t *buf;
    static size_t cap;
    if ((size_t)len + 16 > cap) {
        cap = (size_t)len * 2 + 16;
        buf = realloc(buf, cap);
    }
    memcpy(buf, b, (size_t)len);
    memset(buf + len, 0, 16);
    return buf;
}

/* A run's header: keys, Rice parameter, row-id width, where the row
 * ids start, the first row id. */
typedef struct run_hdr {
    uint32_t n, sb;
    unsigned rk, w;
    int64_t lo;
} run_hdr;

static run_hdr read_hdr(const uint8_t *h)
{
    run_hdr r;

    memcpy(&r.n, h, 4);
    r.rk = h[4];
    r.w = h[5];
    memcpy(&r.sb, h + 8, 4);
    memcpy(&r.lo, h + 12, 8);
    return r;
}

/* decode a run's keys (and row ids when r is given) */
static size_t decode(const uint8_t *b, uint64_t *key, int64_t *r)
{
    uint32_t n, sb;
    unsigned rk, w;
    int64_t lo;
    size_t i, pos = 0, ns;
    const uint8_t *st;
    uint64_t v;
    run_hdr hd = read_hdr(b);
    n = hd.n, rk = hd.rk, w = hd.w, sb = hd.sb, lo = hd.lo;
    ns = NSAMPLES(n);
    st = b + HDR + ns * 12;
    v = get_bits(st, &pos, 64);
    key[0] = v;
    for (i = 1; i < n; i++) {
        uint64_t q = get_unary(st, &pos);
        v += q << rk | get_bits(st, &pos, rk);
        key[i] = v;
    }
    if (r) {
        pos = 0;
        for (i = 0; i < n; i++)
            r[i] = lo + (int64_t)get_bits(st + sb, &pos, w);
    }
    return n;
}

/* ---- the store under test ---- */
typedef struct {
    const char *name;
    int kr, codes, nocanon, nouid;
    sqlite3 *db;
    sqlite3_stmt *ins, *run_ins;
    idset set;
    int64_t next_id;
    long batch_no;
    double compact_cpu;
    int compactions;
    long dups, collisions;
} store;

static void open_db(store *s, const char *path)
{
    char sql[256];
    if (sqlite3_open(path, &s->db) != SQLITE_OK)
        die(path, s->db);
    exec(s->db, "PRAGMA foreign_keys = ON");
    exec(s->db, "PRAGMA cache_size = -65536");
    exec(s->db, "PRAGMA journal_mode = WAL");
    exec(s->db, "PRAGMA synchronous = NORMAL");
    snprintf(sql, sizeof(sql), "PRAGMA wal_autocheckpoint = %d", 20000);
    exec(s->db, sql);
}

static void schema(store *s, const char *src)
{
    char sql[4096];
    sqlite3_stmt *st;
    snprintf(sql, sizeof(sql), "ATTACH '%s' AS src", src);
    exec(s->db, sql);
    /* every table but puzzles as the store has it, with its rules and
     * runs rows */
    st = prep(s->db, "SELECT sql FROM src.sqlite_master WHERE sql NOT NULL"
                     " AND type = 'table' AND name <> 'puzzles'"
                     " AND name NOT LIKE 'sqlite_%' ORDER BY rowid");
    while (sqlite3_step(st) == SQLITE_ROW)
        exec(s->db, (const char *)sqlite3_column_text(st, 0));
    sqlite3_finalize(st);
    exec(s->db, "INSERT INTO rules SELECT * FROM src.rules;"
                "INSERT INTO runs SELECT * FROM src.runs;");
    snprintf(
        sql, sizeof(sql),
        "CREATE TABLE puzzles (\n"
        "    id INTEGER PRIMARY KEY,\n"
        "    rule_id INTEGER NOT NULL REFERENCES rules(id),\n"
        "    state BLOB NOT NULL,\n%s"
        "    min_presses INTEGER NOT NULL CHECK (min_presses >= 0),\n"
        "    optimal INTEGER NOT NULL CHECK (optimal >= 0),\n"
        "    witness BLOB NOT NULL,\n%s"
        "    grader TEXT NOT NULL DEFAULT '',\n"
        "    seed TEXT,\n"
        "    stream_index INTEGER CHECK (stream_index >= 0),\n"
        "    provenance INTEGER NOT NULL CHECK (provenance BETWEEN 0 AND 2),\n"
        "    run_id INTEGER REFERENCES runs(id),\n%s"
        "    submission TEXT, source TEXT, meta TEXT,\n"
        "    human_level INTEGER CHECK (human_level BETWEEN 0 AND 3),\n"
        "    human_score INTEGER,\n"
        "    human_model INTEGER CHECK (human_model >= 1)%s) STRICT",
        s->nocanon ? "" : "    canon BLOB NOT NULL,\n",
        s->codes ? "    grade INTEGER REFERENCES grades(id),\n"
                 : "    grade TEXT,\n",
        s->nouid ? "" : "    uid INTEGER NOT NULL,\n",
        s->kr ? "" : ",\n    UNIQUE (uid, rule_id, canon)");
    if (s->codes)
        exec(s->db, "CREATE TABLE grades (id INTEGER PRIMARY KEY,"
                    " name TEXT NOT NULL UNIQUE) STRICT;"
                    "INSERT INTO grades (name) VALUES ('easy'), ('medium'),"
                    " ('hard'), ('expert'), ('master')");
    exec(s->db, sql);
    if (s->kr)
        exec(s->db, "CREATE TABLE key_runs (\n"
                    "    id INTEGER PRIMARY KEY,\n"
                    "    rule_id INTEGER NOT NULL REFERENCES rules(id),\n"
                    "    batch INTEGER NOT NULL,\n"
                    "    first_key INTEGER NOT NULL,\n"
                    "    last_key INTEGER NOT NULL,\n"
                    "    count INTEGER NOT NULL CHECK (count > 0),\n"
                    "    keys BLOB NOT NULL) STRICT");
    exec(s->db, "DETACH src");
}

static int grade_code(const char *g)
{
    static const char *names[] = {"easy", "medium", "hard", "expert", "master"};
    int i;
    for (i = 0; i < 5; i++)
        if (!strcmp(g, names[i]))
            return i + 1;
    die("an unknown grade", NULL);
    return 0;
}

static void prep_insert(store *s)
{
    char sql[1024];
    snprintf(sql, sizeof(sql),
             "INSERT INTO puzzles (rule_id, state, %s min_presses, optimal,"
             " witness, grade, grader, seed, stream_index, provenance,"
             " run_id, %s submission, source, meta, human_level,"
             " human_score, human_model) VALUES (?1, ?2, %s ?4, ?5, ?6, ?7,"
             " ?8, ?9, ?10, ?11, ?12, %s NULL, NULL, NULL, ?14, ?15, ?16)%s",
             s->nocanon ? "" : "canon,", s->nouid ? "" : "uid,",
             s->nocanon ? "" : "?3,", s->nouid ? "" : "?13,",
             s->kr ? "" : " ON CONFLICT (uid, rule_id, canon) DO NOTHING");
    s->ins = prep(s->db, sql);
    if (s->kr)
        s->run_ins = prep(s->db, "INSERT INTO key_runs (rule_id, batch,"
                                 " first_key, last_key, count, keys)"
                                 " VALUES (?, ?, ?, ?, ?, ?)");
}

static int put_row(store *s, size_t i, int64_t uid)
{
    const row *r = &rows[i];
    sqlite3_stmt *st = s->ins;
    int rc;
    sqlite3_bind_int64(st, 1, r->rule_id);
    sqlite3_bind_blob(st, 2, r->state, r->state_n, SQLITE_STATIC);
    if (!s->nocanon)
        sqlite3_bind_blob(st, 3, r->canon, r->canon_n, SQLITE_STATIC);
    sqlite3_bind_int64(st, 4, r->min_presses);
    sqlite3_bind_int64(st, 5, r->optimal);
    sqlite3_bind_blob(st, 6, r->witness, r->witness_n, SQLITE_STATIC);
    if (r->nulls & 1)
        sqlite3_bind_null(st, 7);
    else if (s->codes)
        sqlite3_bind_int(st, 7, grade_code(r->grade));
    else
        sqlite3_bind_text(st, 7, r->grade, -1, SQLITE_STATIC);
    sqlite3_bind_text(st, 8, r->grader, -1, SQLITE_STATIC);
    if (r->nulls & 2)
        sqlite3_bind_null(st, 9);
    else
        sqlite3_bind_text(st, 9, r->seed, -1, SQLITE_STATIC);
    if (r->nulls & 4)
        sqlite3_bind_null(st, 10);
    else
        sqlite3_bind_int64(st, 10, r->stream_index);
    sqlite3_bind_int(st, 11, r->prov);
    if (r->nulls & 8)
        sqlite3_bind_null(st, 12);
    else
        sqlite3_bind_int64(st, 12, r->run_id);
    if (!s->nouid)
        sqlite3_bind_int64(st, 13, uid);
    if (r->nulls & 16) {
        sqlite3_bind_null(st, 14);
        sqlite3_bind_null(st, 15);
        sqlite3_bind_null(st, 16);
    } else {
        sqlite3_bind_int64(st, 14, r->hl);
        sqlite3_bind_int64(st, 15, r->hs);
        sqlite3_bind_int64(st, 16, r->hm);
    }
    rc = sqlite3_step(st);
    sqlite3_reset(st);
    if (rc != SQLITE_DONE)
        die("insert", s->db);
    return sqlite3_changes(s->db) == 1;
}

/* ---- lookup of one puzzle id in the runs: the row id or 0 ---- */
static sqlite3_blob *lk_blob;
static int64_t run_lookup(sqlite3 *db, int64_t run, uint64_t key)
{
    uint8_t h[HDR], smp[12], chunk[4096 + 16] = {0};
    uint32_t n, sb, bp = 0;
    unsigned rk, w;
    int64_t lo;
    size_t ns, a, b, i, first, pos, cbytes, base;
    uint64_t v;
    if (!lk_blob) {
        if (sqlite3_blob_open(db, "main", "key_runs", "keys", run, 0,
                              &lk_blob) != SQLITE_OK)
            die("blob_open", db);
    } else if (sqlite3_blob_reopen(lk_blob, run) != SQLITE_OK)
        die("blob_reopen", db);
    sqlite3_blob_read(lk_blob, h, HDR, 0);
    run_hdr hd = read_hdr(h);
    n = hd.n, rk = hd.rk, w = hd.w, sb = hd.sb, lo = hd.lo;
    ns = NSAMPLES(n);
    /* the last sample <= key: sample j is key (j + 1) * SAMPLE */
    a = 0;
    b = ns;
    while (a < b) {
        size_t m = (a + b) / 2;
        uint64_t sk;
        sqlite3_blob_read(lk_blob, smp, 12, (int)(HDR + m * 12));
        memcpy(&sk, smp, 8);
        if (sk <= key)
            a = m + 1;
        else
            b = m;
    }
    /* a samples are <= key: start at key a * SAMPLE */
    first = a * SAMPLE;
    if (a) {
        sqlite3_blob_read(lk_blob, smp, 12, (int)(HDR + (a - 1) * 12));
        memcpy(&v, smp, 8);
        memcpy(&bp, smp + 8, 4);
    }
    base = bp / 8;
    cbytes = sb - base < sizeof(chunk) ? sb - base : sizeof(chunk);
    sqlite3_blob_read(lk_blob, chunk, (int)cbytes, (int)(HDR + ns * 12 + base));
    pos = bp - base * 8;
    if (!a)
        v = get_bits(chunk, &pos, 64);
    for (i = first;;) {
        if (v == key) {
            uint8_t o[16] = {0};
            size_t bit = i * w, p = bit & 7;
            sqlite3_blob_read(lk_blob, o, (int)((bit + w + 7) / 8 - bit / 8),
                              (int)(HDR + ns * 12 + sb + bit / 8));
            return lo + (int64_t)get_bits(o, &p, w);
        }
        if (v > key || ++i >= n || i >= first + SAMPLE)
            return 0;
        {
            uint64_t q = get_unary(chunk, &pos);
            v += q << rk | get_bits(chunk, &pos, rk);
        }
    }
}

/* the runs' directory: each key_runs row's id and key range (no blob
 * is read); a compacted run is several rows of disjoint ranges */
static int64_t *run_ids;
static uint64_t *run_lo, *run_hi;
static size_t nrun_ids;
static void load_run_ids(sqlite3 *db)
{
    sqlite3_stmt *st = prep(db, "SELECT id, first_key, last_key FROM"
                                " key_runs ORDER BY id");
    nrun_ids = 0;
    while (sqlite3_step(st) == SQLITE_ROW) {
        run_ids = realloc(run_ids, (nrun_ids + 1) * sizeof(*run_ids));
        run_lo = realloc(run_lo, (nrun_ids + 1) * sizeof(*run_lo));
        run_hi = realloc(run_hi, (nrun_ids + 1) * sizeof(*run_hi));
        run_ids[nrun_ids] = sqlite3_column_int64(st, 0);
        run_lo[nrun_ids] = (uint64_t)sqlite3_column_int64(st, 1);
        run_hi[nrun_ids++] = (uint64_t)sqlite3_column_int64(st, 2);
    }
    sqlite3_finalize(st);
}
static int64_t lookup(sqlite3 *db, uint64_t key)
{
    size_t j;
    for (j = 0; j < nrun_ids; j++) {
        int64_t r;
        if (key < run_lo[j] || key > run_hi[j])
            continue;
        if ((r = run_lookup(db, run_ids[j], key)))
            return r;
    }
    return 0;
}

/* a set hit: the stored row's canonical key equal to the new one's is a
 * duplicate; otherwise a collision of puzzle ids. (With no canon column
 * the store would canonicalize the stored state; the prototype compares
 * the state, which is exact for the rows stored again below.) */
static int is_dup(store *s, uint64_t key, size_t i, const kv *bk, size_t bn,
                  size_t nbase)
{
    size_t j;
    int64_t id;
    sqlite3_stmt *st;
    int same = 0;
    for (j = 0; j < bn; j++) /* the batch itself (rare: a linear scan) */
        if (bk[j].key == key) {
            const row *o = &rows[(size_t)bk[j].rowid % nbase];
            return !memcmp(o->canon, rows[i].canon, o->canon_n);
        }
    if (lk_blob) {
        sqlite3_blob_close(lk_blob);
        lk_blob = NULL;
    }
    load_run_ids(s->db);
    id = lookup(s->db, key);
    if (lk_blob) {
        sqlite3_blob_close(lk_blob);
        lk_blob = NULL;
    }
    if (!id)
        die("a set hit with no key in the runs", NULL);
    st = prep(s->db, s->nocanon ? "SELECT state FROM puzzles WHERE id = ?"
                                : "SELECT canon FROM puzzles WHERE id = ?");
    sqlite3_bind_int64(st, 1, id);
    if (sqlite3_step(st) == SQLITE_ROW) {
        const uint8_t *c = sqlite3_column_blob(st, 0);
        same = s->nocanon ? !memcmp(c, rows[i].state, rows[i].state_n)
                          : !memcmp(c, rows[i].canon, rows[i].canon_n);
    }
    sqlite3_finalize(st);
    return same;
}

static void compact(store *s, int64_t rule)
{
    sqlite3_stmt *st;
    kv *all = NULL;
    size_t n = 0, cap = 0, len, c0;
    uint8_t *blob;
    double t0 = cpu();
    char sql[128];
    uint64_t *k;
    int64_t *r;
    snprintf(sql, sizeof(sql), "SELECT keys FROM key_runs WHERE rule_id = %lld",
             (long long)rule);
    st = prep(s->db, sql);
    while (sqlite3_step(st) == SQLITE_ROW) {
        const uint8_t *b =
            padded(sqlite3_column_blob(st, 0), sqlite3_column_bytes(st, 0));
        uint32_t c;
        size_t j;
        memcpy(&c, b, 4);
        if (n + c > cap) {
            cap = (n + c) * 2;
            all = realloc(all, cap * sizeof(kv));
        }
        k = malloc(c * 8);
        r = malloc(c * 8);
        decode(b, k, r);
        for (j = 0; j < c; j++) {
            all[n + j].key = k[j];
            all[n + j].rowid = r[j];
        }
        n += c;
        free(k);
        free(r);
    }
    sqlite3_finalize(st);
    qsort(all, n, sizeof(kv), kv_cmp);
    snprintf(sql, sizeof(sql), "DELETE FROM key_runs WHERE rule_id = %lld",
             (long long)rule);
    exec(s->db, sql);
    /* one run in rows of at most BATCH keys (a blob of a whole rule would
     * be an overflow chain that every lookup walks) */
    for (c0 = 0; c0 < n; c0 += BATCH) {
        size_t m = n - c0 < BATCH ? n - c0 : BATCH;
        blob = encode(all + c0, m, &len);
        sqlite3_bind_int64(s->run_ins, 1, rule);
        sqlite3_bind_int64(s->run_ins, 2, s->batch_no);
        sqlite3_bind_int64(s->run_ins, 3, (int64_t)all[c0].key);
        sqlite3_bind_int64(s->run_ins, 4, (int64_t)all[c0 + m - 1].key);
        sqlite3_bind_int64(s->run_ins, 5, (int64_t)m);
        sqlite3_bind_blob(s->run_ins, 6, blob, (int)len, free);
        if (sqlite3_step(s->run_ins) != SQLITE_DONE)
            die("compact insert", s->db);
        sqlite3_reset(s->run_ins);
    }
    free(all);
    s->compact_cpu += cpu() - t0;
    s->compactions++;
}

/* store rows [from, to) of the virtual sequence (row i % nrows, copy
 * i / nrows), 65,536 a transaction; returns rows stored */
static size_t put_range(store *s, size_t from, size_t to, size_t nbase)
{
    kv *bk = malloc(BATCH * sizeof(kv));
    size_t i, stored = 0;
    int64_t rule = rows[0].rule_id;
    long runs = 0;
    if (s->kr) {
        sqlite3_stmt *st =
            prep(s->db, "SELECT count(DISTINCT batch) FROM key_runs");
        sqlite3_step(st);
        runs = sqlite3_column_int(st, 0);
        sqlite3_finalize(st);
    }
    for (i = from; i < to;) {
        size_t end = i + BATCH < to ? i + BATCH : to, bn = 0, j;
        exec(s->db, "BEGIN IMMEDIATE");
        for (j = i; j < end; j++) {
            size_t ri = j % nbase;
            int64_t uid = uid_of(ri, j / nbase);
            if (s->kr) {
                if (set_add(&s->set, (uint64_t)uid)) {
                    if (is_dup(s, (uint64_t)uid, ri, bk, bn, nbase)) {
                        s->dups++;
                        continue;
                    }
                    s->collisions++;
                }
                if (!put_row(s, ri, uid))
                    die("a key-run insert refused", s->db);
                /* the batch's keys; rowid holds j until the ids are
                 * known */
                bk[bn].key = (uint64_t)uid;
                bk[bn].rowid = (int64_t)j;
                bn++;
            } else if (put_row(s, ri, uid))
                stored++;
            else
                s->dups++;
        }
        if (s->kr && bn) {
            size_t len;
            uint8_t *blob;
            int64_t last = sqlite3_last_insert_rowid(s->db),
                    first = last - (int64_t)bn + 1;
            /* rows took ids first..last in order (one writer) */
            for (j = 0; j < bn; j++)
                bk[j].rowid = first + (int64_t)j;
            qsort(bk, bn, sizeof(kv), kv_cmp);
            blob = encode(bk, bn, &len);
            sqlite3_bind_int64(s->run_ins, 1, rule);
            sqlite3_bind_int64(s->run_ins, 2, ++s->batch_no);
            sqlite3_bind_int64(s->run_ins, 3, (int64_t)bk[0].key);
            sqlite3_bind_int64(s->run_ins, 4, (int64_t)bk[bn - 1].key);
            sqlite3_bind_int64(s->run_ins, 5, (int64_t)bn);
            sqlite3_bind_blob(s->run_ins, 6, blob, (int)len, free);
            if (sqlite3_step(s->run_ins) != SQLITE_DONE)
                die("run insert", s->db);
            sqlite3_reset(s->run_ins);
            stored += bn;
            if (++runs > MAXRUNS) {
                compact(s, rule);
                runs = 1;
            }
        }
        exec(s->db, "COMMIT");
        i = end;
    }
    free(bk);
    return stored;
}

static void report_bytes(const char *path, const char *name, size_t n)
{
    sqlite3 *db;
    sqlite3_stmt *st;
    struct stat sb;
    sqlite3_open(path, &db);
    st = prep(db, "SELECT (SELECT page_count FROM pragma_page_count) *"
                  " (SELECT page_size FROM pragma_page_size)");
    sqlite3_step(st);
    stat(path, &sb);
    printf("%-9s bytes a puzzle %.1f (file %lld B, %zu rows)\n", name,
           sqlite3_column_int64(st, 0) / (double)n, (long long)sb.st_size, n);
    sqlite3_finalize(st);
    if (n > 2000000) { /* dbstat reads every page: small runs only */
        sqlite3_close(db);
        return;
    }
    st = prep(db, "SELECT name, sum(pgsize), sum(payload), sum(unused)"
                  " FROM dbstat GROUP BY name ORDER BY 2 DESC");
    while (sqlite3_step(st) == SQLITE_ROW)
        if (sqlite3_column_int64(st, 1) > 65536)
            printf("%-9s   dbstat %-32s %6.2f B a puzzle (payload %.2f,"
                   " unused %.2f)\n",
                   name, sqlite3_column_text(st, 0),
                   sqlite3_column_int64(st, 1) / (double)n,
                   sqlite3_column_int64(st, 2) / (double)n,
                   sqlite3_column_int64(st, 3) / (double)n);
    sqlite3_finalize(st);
    sqlite3_close(db);
}

/* a fresh connection: read and decode every run into the set */
static void open_runs(store *s, size_t n)
{
    sqlite3_stmt *st;
    uint64_t *k = malloc(sizeof(uint64_t) * (n + 1));
    unsigned nb = 10;
    while (((size_t)7 << nb) < n * 10)
        nb++;
    set_init(&s->set, nb);
    st = prep(s->db, "SELECT keys FROM key_runs ORDER BY id");
    while (sqlite3_step(st) == SQLITE_ROW) {
        size_t c = decode(padded(sqlite3_column_blob(st, 0),
                                 sqlite3_column_bytes(st, 0)),
                          k, NULL),
               j;
        for (j = 0; j < c; j++)
            set_add(&s->set, k[j]);
    }
    sqlite3_finalize(st);
    free(k);
}

/* 100,000 lookups by puzzle id of stored puzzles, then their rows */
static void lookups(store *o, size_t total, const char *what)
{
    size_t q, nq = 100000, hits = 0;
    uint64_t x = 42;
    double u0;
    sqlite3_stmt *st =
        prep(o->db, o->kr ? "SELECT state FROM puzzles WHERE id = ?"
                          : "SELECT id, state FROM puzzles WHERE uid = ?");
    if (o->kr)
        load_run_ids(o->db);
    u0 = cpu();
    for (q = 0; q < nq; q++) {
        size_t j;
        int64_t uid;
        x = mix(x + q);
        j = (size_t)(x % total);
        uid = uid_of(j % nrows, j / nrows);
        if (o->kr) {
            int64_t id = lookup(o->db, (uint64_t)uid);
            if (!id)
                continue;
            sqlite3_bind_int64(st, 1, id);
        } else
            sqlite3_bind_int64(st, 1, uid);
        if (sqlite3_step(st) == SQLITE_ROW)
            hits++;
        sqlite3_reset(st);
    }
    printf("%-9s lookup by puzzle id (then the row)%s: %.2f us a lookup CPU,"
           " %zu of %zu found, %zu key_runs rows\n",
           o->name, what, (cpu() - u0) / nq * 1e6, hits, nq,
           o->kr ? nrun_ids : 0);
    fflush(stdout);
    sqlite3_finalize(st);
    if (lk_blob) {
        sqlite3_blob_close(lk_blob);
        lk_blob = NULL;
    }
}

int main(int argc, char **argv)
{
    const char *src, *dir;
    size_t copies = 1, total;
    int a;
    static const char *all[] = {"today", "kr", "kr-codes", "kr-lean"};
    const char **names = all;
    int nnames = 4;
    if (argc < 3) {
        fprintf(stderr, "usage: proto_keyruns SRC.db OUTDIR [COPIES "
                        "[LAYOUT...]]\n");
        return 64;
    }
    src = argv[1];
    dir = argv[2];
    if (argc > 3)
        copies = (size_t)atol(argv[3]);
    if (argc > 4) {
        names = (const char **)argv + 4;
        nnames = argc - 4;
    }
    load(src);
    total = nrows * copies;
    printf("source %s: %zu rows, %zu copies = %zu puzzles\n", src, nrows,
           copies, total);
    for (a = 0; a < nnames; a++) {
        store s;
        char path[4096];
        double t0, t1, tc;
        size_t stored;
        memset(&s, 0, sizeof(s));
        s.name = names[a];
        s.kr = !strncmp(s.name, "kr", 2);
        s.codes = s.nocanon =
            !strcmp(s.name, "kr-codes") || !strcmp(s.name, "kr-lean");
        s.nouid = !strcmp(s.name, "kr-lean");
        if (strcmp(s.name, "today") && !s.kr)
            die("unknown layout", NULL);
        snprintf(path, sizeof(path), "%s/%s.db", dir, s.name);
        remove(path);
        strcat(path, "-wal");
        remove(path);
        path[strlen(path) - 4] = 0;
        open_db(&s, path);
        schema(&s, src);
        prep_insert(&s);
        set_init(&s.set, 21);
        t0 = cpu();
        stored = put_range(&s, 0, total, nrows);
        sqlite3_finalize(s.ins);
        if (s.run_ins)
            sqlite3_finalize(s.run_ins);
        t1 = cpu();
        sqlite3_close(s.db);
        tc = cpu();
        printf("%-9s insert %zu rows: CPU %.2f s (%.2f to the last commit,"
               " %.2f the close's checkpoint), compactions %d: %.2f s;"
               " duplicates %ld, collisions %ld\n",
               s.name, stored, tc - t0, t1 - t0, tc - t1, s.compactions,
               s.compact_cpu, s.dups, s.collisions);
        fflush(stdout);
        report_bytes(path, s.name, stored);
        free(s.set.slot);
        s.set.slot = NULL;
        /* open, lookups, duplicates: a fresh connection */
        {
            store o = s;
            open_db(&o, path);
            if (o.kr) {
                double u0 = cpu();
                open_runs(&o, stored);
                printf("%-9s open: read and decode the runs of %zu"
                       " puzzles: CPU %.3f s, set %zu ids in %zu MiB\n",
                       o.name, stored, cpu() - u0, o.set.n,
                       ((size_t)8 << o.set.bits) >> 20);
            }
            lookups(&o, total, "");
            /* duplicates: rows 0..999 and 500..999 of the first copy
             * again, two batches: 1500 refused, 0 stored */
            o.dups = o.collisions = 0;
            prep_insert(&o);
            {
                size_t before = stored, got;
                got = put_range(&o, 0, 1000, nrows) +
                      put_range(&o, 500, 1000, nrows);
                printf("%-9s duplicates: 1500 stored again, %zu stored,"
                       " %ld refused, %ld collisions: %s\n",
                       o.name, got, o.dups, o.collisions,
                       got == 0 && o.dups == 1500 ? "ok" : "WRONG");
                (void)before;
            }
            if (o.kr) { /* everything compacted into one run */
                double c0 = o.compact_cpu;
                exec(o.db, "BEGIN IMMEDIATE");
                compact(&o, rows[0].rule_id);
                exec(o.db, "COMMIT");
                printf("%-9s compaction of all %zu keys into one run: CPU"
                       " %.2f s\n",
                       o.name, stored, o.compact_cpu - c0);
                lookups(&o, total, " after it");
            }
            sqlite3_finalize(o.ins);
            if (o.run_ins)
                sqlite3_finalize(o.run_ins);
            free(o.set.slot);
            sqlite3_close(o.db);
        }
        fflush(stdout);
    }
    return 0;
}
