/*
 * store_internal.h: what the files of the store share: the handle's
 * layout, the SQL plumbing of store_sql.c, the run claims of
 * store_claim.c, and the migrations table that the Makefile generates
 * from the db/migrations SQL files into build/gen/migrations.c.
 */
#ifndef QN_STORE_INTERNAL_H
#define QN_STORE_INTERNAL_H

#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include "base/err.h"
#include "rules/puzzle_id.h"
#include "store/store.h"

/* The seed of puzzle row T of schema DB, SQL: a generator puzzle's row
 * keeps '' for its run's seed (migration 0004). */
#define QN_STORE_SEED_SQL(T, DB)                                               \
    "iif(" T ".seed = '', (SELECT seed FROM " DB ".runs WHERE id = " T         \
    ".run_id), " T ".seed)"

/* PRAGMA cache_size of every connection's databases: 64 MiB. A generate
 * --db batch's dirty pages must fit (cmd_generate.h, DB_BATCH). */
#define QN_STORE_CACHE_SIZE "-65536"

struct qn_migration {
    int number;       /* NNNN of NNNN_name.sql: 1, 2, ... without gaps */
    const char *name; /* "0001_initial" */
    const char *sql;  /* the whole file */
};
extern const struct qn_migration qn_migrations[];
extern const size_t qn_nmigrations;

struct sqlite3;
struct sqlite3_stmt;

/* store_keys.c's cache: the rule and run of the last puzzle put, read
 * in batch number `batch` and good only while that batch is open. */
struct qn_store__keys {
    uint64_t batch;
    int64_t rule_id;      /* 0: none */
    qn_puzzle_id_key key; /* of the rule's hash */
    int n;                /* the rule's cells, colours */
    unsigned k;
    uint8_t *cells;  /* n, for unpacking a canonical key */
    char *layout;    /* rules.layout; NULL: none stored */
    uint8_t *packed; /* 2 x qn_store_canon_size: state, witness */
    int64_t run_id;  /* 0: none */
    char *run_seed;  /* NULL: no such run */
};

/* The default grades' codes (migration 0007: 1..5, the same in every
 * database) and how many other names a batch remembers (a rule has a
 * few tiers; past that each is looked up). */
#define QN_STORE_GRADES_DEFAULT 5
#define QN_STORE_GRADES_CACHED 64

/* store_grades.c's cache: grade names other than the defaults and their
 * ids, learned in batch `batch` and good only while it is open. */
struct qn_store__grades {
    uint64_t batch;
    size_t n;     /* <= QN_STORE_GRADES_CACHED */
    char **names; /* QN_STORE_GRADES_CACHED, n set; NULL: none yet */
    int64_t *ids; /* of names[i] */
};

/* Statements kept prepared on the connection between calls on a hot
 * path (store_sql.c, qn_store__sql_kept): a lookup a submission compiled
 * its SQL each time, most of validate --db's CPU. */
enum {
    QN_STORE__KEPT_RULE_RUNS, /* store_find.c: a rule's runs */
    QN_STORE__KEPT_ROW_RULE,  /* store_find_key.c: a row and its rule */
    QN_STORE__KEPT_RULE_KEYS, /* store_keys.c: a rule's hash and sizes */
    QN_STORE__NKEPT
};

struct qn_store {
    struct sqlite3 *db;
    char *path;
    int in_batch;     /* a qn_store_begin is open */
    uint64_t batches; /* qn_store_begin calls so far */
    struct qn_store__keys keys;
    struct qn_store__grades grades;
    int busy_ms;                     /* busy timeout, for messages */
    struct sqlite3_stmt *put_puzzle; /* cached: INSERT .. DO NOTHING */
    struct sqlite3_stmt *dup_puzzle; /* cached: id by (rule, canon) */
    int claim_fd;                    /* PATH-lock, holding run claims; -1 */
    int sqlite_rc; /* the last SQLite code qn_store__fail turned */
    int aside;     /* built aside (qn_store_open_aside): 1, 2 once an
                      input is merged; 0 otherwise */
    struct qn_store__runs *runs;     /* store_runs.c: the open transaction's
                                        inserted rows, for their key runs */
    struct qn_store__unique *unique; /* store_unique.c: the rules' id sets */
    struct sqlite3_stmt *kept[QN_STORE__NKEPT]; /* qn_store__sql_kept */
    struct qn_store__pid *find_pid; /* store_find_key.c: find_puzzle's
                                       rule, kept between calls; NULL */
    /* db merge of several inputs (store_merge_all.c): the inputs after
     * the one being merged, whose rows its id sets make room for */
    char *const *merge_later;
    int merge_nlater;
};

/* qn_store_open's flag for qn_store_open_aside: no journal, no syncs */
#define QN_STORE__ASIDE (1u << 30)

/* store_sql.c: map an SQLite result code (and the connection's message)
 * to err: QN_EBUSY for BUSY/LOCKED, else QN_EDB. Returns the code. */
int qn_store__fail(qn_store *s, int rc, qn_err *err);
/* sqlite3_exec without results; failures through qn_store__fail. */
int qn_store__exec(qn_store *s, const char *sql, qn_err *err);
/* Prepare sql into *st (NULL on failure). */
int qn_store__prep(qn_store *s, struct sqlite3_stmt **st, const char *sql,
                   qn_err *err);
/* Step a statement that returns no rows (or whose rows we ignore). */
int qn_store__step(qn_store *s, struct sqlite3_stmt *st, qn_err *err);
/* One integer from a one-row query (e.g. a PRAGMA). */
int qn_store__int(qn_store *s, const char *sql, long long *out, qn_err *err);
/* Bind v (NULL: SQL NULL) without a copy: v must outlive the step. */
void qn_store__bind_text(struct sqlite3_stmt *st, int i, const char *v);
/* Column i as text: NULL for SQL NULL (col_text) or "" (col_str). */
const char *qn_store__col_text(struct sqlite3_stmt *st, int i);
const char *qn_store__col_str(struct sqlite3_stmt *st, int i);
/*
 * A statement with the status of its calls, after Fossil's db_prepare,
 * db_bind and db_step: prepare with qn_store__sql, bind, step with
 * qn_store__row or qn_store__run, and end with qn_store__end, which
 * finalizes and returns q->rc. The first failure (mapped by
 * qn_store__fail into err, so every SQLite code reads the same wherever
 * it happens) is kept in q->rc and makes every later call a no-op, so a
 * block reads as its SQL without an error check after each line. A caller
 * that finds something wrong in a row sets q->rc itself.
 */
typedef struct qn_store__stmt {
    qn_store *s;
    struct sqlite3_stmt *st; /* NULL when the prepare failed */
    qn_err *err;
    int rc; /* QN_OK, or the first failure */
} qn_store__stmt;
/* Prepare sql for s; returns q->rc. */
int qn_store__sql(qn_store__stmt *q, qn_store *s, const char *sql, qn_err *err);
/* The same with s's kept statement `which` (QN_STORE__KEPT_*), prepared
 * for sql at its first use and kept until close: end it with
 * qn_store__end_kept, which resets it (and its bindings) for the next
 * call instead of finalizing it. */
int qn_store__sql_kept(qn_store__stmt *q, qn_store *s, int which,
                       const char *sql, qn_err *err);
int qn_store__end_kept(qn_store__stmt *q);
/* Finalize the kept statements (at close). */
void qn_store__kept_free(qn_store *s);
/* Bind parameter i (from 1): an integer; a text (NULL: SQL NULL) or a
 * blob, neither copied: it must outlive the step. */
void qn_store__bind_i64(qn_store__stmt *q, int i, int64_t v);
void qn_store__bind_str(qn_store__stmt *q, int i, const char *v);
void qn_store__bind_blob(qn_store__stmt *q, int i, const void *v, size_t n);
/* A value as it is (sqlite3_bind_value: copied). */
struct sqlite3_value;
void qn_store__bind_value(qn_store__stmt *q, int i,
                          const struct sqlite3_value *v);
/* Step: 1 when a row is there to read (sqlite3_column_* on q->st), 0 at
 * the end or when a call failed (q->rc says which). */
int qn_store__row(qn_store__stmt *q);
/* Step a statement that returns no rows (or whose rows are not read),
 * then reset it for another binding; returns q->rc. */
int qn_store__run(qn_store__stmt *q);
/* Finalize; returns q->rc. */
int qn_store__end(qn_store__stmt *q);

/* A row of PRAGMA integrity_check or quick_check that is SQLite's own
 * allocation failure, not damage: "out of memory", or a page it could not
 * get for want of memory ("unable to get the page. error code=7"). */
static inline int qn_store__check_nomem(const char *row)
{
    return strstr(row, "ut of memory") || strstr(row, "error code=7") ||
           strstr(row, "error code=3082"); /* SQLITE_IOERR_NOMEM */
}

/* store_tx.c: a single call's own transaction: BEGIN IMMEDIATE outside a
 * batch, a savepoint inside one. tx_end commits when rc is QN_OK (the
 * key runs of its rows first, outside a batch), else rolls back, and
 * returns the call's final code. */
int qn_store__tx_begin(qn_store *s, qn_err *err);
int qn_store__tx_end(qn_store *s, int rc, qn_err *err);

/*
 * store_runs.c: the key runs beside the puzzles table (migration 0008).
 * A put reserves a note before its insert (so that noting cannot fail
 * once the row is in) and notes the row after it. tx_begin marks, tx_end
 * unmarks (keep: released; else the notes since the mark are dropped).
 * runs_flush writes the notes as runs inside the open transaction, just
 * before its outermost commit; runs_forget drops them (a rollback).
 * runs_note_plan notes the rows db merge's copy kept (its plan).
 * runs_read decodes every run of a rule (QN_EDB: a damaged run, named);
 * runs_build writes every rule's runs from its rows (the migration).
 */
struct qn_store__runs;
int qn_store__runs_reserve(qn_store *s, qn_err *err);
void qn_store__runs_note(qn_store *s, int64_t rule_id, uint64_t uid,
                         int64_t row);
int qn_store__runs_mark(qn_store *s, qn_err *err);
void qn_store__runs_unmark(qn_store *s, int keep);
int qn_store__runs_flush(qn_store *s, qn_err *err);
void qn_store__runs_forget(qn_store *s);
void qn_store__runs_free(qn_store *s);
struct qn_store__mplan;
int qn_store__runs_note_plan(qn_store *s, const struct qn_store__mplan *p,
                             qn_err *err);
/* A row's (id, row) mixed, summed over a set of rows: the same sum from
 * the rows and from their key runs says the runs hold those rows. */
static inline uint64_t qn_store__pair_digest(uint64_t uid, int64_t row)
{
    uint64_t z = uid ^ ((uint64_t)row * 0x9e3779b97f4a7c15ULL);
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
    return z ^ (z >> 31);
}
/* The input's key runs of OUT's rules (src.key_runs, temp.merge_rules)
 * as an id a row, a hint for prefetching: (*ids)[row - *lo] for the
 * input's rows *lo .. *lo + *n - 1 (0: no pair names the row; a run that
 * does not decode is left out); *ids NULL (QN_OK) when the rows are too
 * spread out for a table, or there is no memory for one. p's runs_ok,
 * runs_pairs and runs_digest say what was read. */
int qn_store__runs_src_ids(qn_store *s, struct qn_store__mplan *p,
                           uint64_t **ids, int64_t *lo, size_t *n, qn_err *err);
/* db merge: the input's key runs (of the rules OUT has) against the
 * pass's pairs (id from the state, input row) of plan p, else QN_EDB
 * naming in_path and the first row that differs. write: and written as
 * OUT's, each row at p's last + 1 + (row - its min_id) (the copy took
 * every row, by row, ids without gaps). */
int qn_store__runs_copy(qn_store *s, const char *in_path,
                        const struct qn_store__mplan *p, int write,
                        qn_err *err);
struct qn_kr_pair;
int qn_store__runs_read(qn_store *s, int64_t rule_id, struct qn_kr_pair **out,
                        size_t *n, qn_err *err);
/* Rule rule_id's rows as (uid, id) pairs, in no order: *a malloc'd. It
 * reads puzzles.uid: for migration 0008's build only (runs_build). */
int qn_store__runs_rows(qn_store *s, int64_t rule_id, struct qn_kr_pair **a,
                        size_t *n, qn_err *err);
int qn_store__runs_build(qn_store *s, qn_err *err);
/* store_find.c: the two smallest (id, row) pairs, by id unsigned then
 * row, of every rule's runs with lo <= id <= hi, into best[0..*n), *n <= 2:
 * each run whose range meets [lo, hi] searched in place (sqlite3_blob_read,
 * read-only), and the open transaction's notes. QN_EDB names a damaged run
 * and the database. */
int qn_store__runs_find(qn_store *s, uint64_t lo, uint64_t hi,
                        struct qn_kr_pair *best, size_t *n, qn_err *err);
/* store_find.c: fn(ctx, row, &done, err) for each row paired with id
 * uid in the notes and in rule_id's runs, until it sets done or fails
 * (its code returned). QN_EDB names a damaged run. */
typedef int qn_store__row_try(void *ctx, int64_t row, int *done, qn_err *err);
int qn_store__runs_key(qn_store *s, int64_t rule_id, uint64_t uid,
                       qn_store__row_try *fn, void *ctx, qn_err *err);
/* store_find_key.c: drop find_pid (at close). */
void qn_store__find_free(qn_store *s);
/* The i-th pair noted in the open transaction (in no run yet), NULL past
 * the last (store_runs.c); keep_two puts p into a pair of the two
 * smallest (store_find.c). */
const struct qn_kr_pair *qn_store__runs_noted(const qn_store *s, size_t i);
void qn_store__keep_two(struct qn_kr_pair *best, size_t *n,
                        const struct qn_kr_pair *p);
/* The notes of rule_id not yet flushed into set (*added: how many):
 * QN_ENOMEM. */
struct qn_kr_set;
int qn_store__runs_add_notes(qn_store *s, int64_t rule_id,
                             struct qn_kr_set *set, size_t *added);

/*
 * store_unique.c: the put path's duplicate check before its insert, on
 * the rule's id set (docs/STORE-KEYRUNS.md "The flip", step 2). probe
 * loads the set at the rule's first put (s->keys holds the rule: after
 * qn_store__puzzle_uid) and reserves room for the insert's note; its
 * verdict: dup_id > 0, the stored duplicate (is_new 0, or 2 for the same
 * run and stream index); else new. A hit it cannot resolve (the rule's
 * text does not load) is QN_EDB. sync (at each
 * write transaction's begin) reads other writers' new runs; noted (from
 * runs_note) adds a row; flushed (after a rule's runs are written)
 * records them as read; forget drops every set (a rollback).
 */
typedef struct qn_store__verdict {
    int64_t dup_id;
    int is_new;
} qn_store__verdict;
int qn_store__unique_probe(qn_store *s, const qn_store_puzzle *p, uint64_t uid,
                           qn_store__verdict *v, qn_err *err);
int qn_store__unique_sync(qn_store *s, qn_err *err);
/* The slot of uid in rule_id's set (if loaded) on its way to the cache:
 * the probe that follows the row's packing is then a hit. */
void qn_store__unique_prefetch(qn_store *s, int64_t rule_id, uint64_t uid);
void qn_store__unique_noted(qn_store *s, int64_t rule_id, uint64_t uid,
                            int64_t row);
int qn_store__unique_flushed(qn_store *s, qn_err *err);
void qn_store__unique_forget(qn_store *s);
/* The id set of rule_id as this write transaction sees it (loaded at its
 * first use): db merge's probe. Borrowed until the sets are forgotten or
 * synced; an add must be reserved and go through unique_noted. */
int qn_store__unique_set(qn_store *s, int64_t rule_id, struct qn_kr_set **out,
                         qn_err *err);
void qn_store__unique_free(qn_store *s);

/* A count for an INTEGER column, which is signed 64-bit: saturate. Inline:
 * qn_store_put_puzzle binds two per row. */
static inline int64_t qn_store__clamp64(uint64_t v)
{
    return v > (uint64_t)INT64_MAX ? INT64_MAX : (int64_t)v;
}

/* store_claim.c: claim run_id for this connection (store.h, "Runs are
 * claimed"); QN_EBUSY when another holds it. */
int qn_store__claim_run(qn_store *s, int64_t run_id, qn_err *err);
/* Release every claim of the connection (at close). */
void qn_store__claims_release(qn_store *s);

/* store_ids.c: 1 when a rule row's hash (64 hex digits), cells and
 * colours can be a rule's. */
int qn_store__rule_sizes_ok(const char *hash, int n, unsigned k);
/* The puzzle id of canonical key canon (len bytes, packed) of a rule of
 * n cells and k colours keyed by key, into *out; 0 (nothing written) when
 * the key is not of the rule's size. cells: n bytes of scratch. */
int qn_store__key_uid(const qn_puzzle_id_key *key, int n, unsigned k,
                      const void *canon, size_t len, uint8_t *cells,
                      uint64_t *out);
/* store_ids.c: compute the id of every stored puzzle (migration 0002),
 * or (missing_only) of those without one (migration 0004). */
int qn_store__fill_puzzle_ids(qn_store *s, int missing_only, qn_err *err);

/* store_pid.c: a stored row's puzzle id computed from its state (the
 * flip drops puzzles.uid): the rule's text loaded once a rule, canonical
 * forms by table. Zeroed storage is an empty one; not for threads. */
struct qn_rules;
struct qn_canon_table;
typedef struct qn_store__pid {
    int64_t rule_id;              /* the rule asked for last; 0: none */
    char hash[65];                /* its hash ("" when not 64 digits): a
                                     rolled back rule id may come back as
                                     another rule */
    struct qn_rules *rules;       /* NULL: rule_id's text does not load */
    struct qn_canon_table *table; /* of rules, or NULL (no table) */
    qn_puzzle_id_key key;         /* of the rule's stored hash */
    int n;                        /* rules' cells, colours */
    unsigned k;
    uint8_t *cells, *form; /* n each: a state, its canonical form */
    char why[256];         /* why rule_id's rule is not loaded */
} qn_store__pid;
/* rule_id's rule (its rules row's hash, yaml, cells and colours) into p
 * unless it is there: QN_OK whether its text loads or not (p->rules
 * says), QN_ENOMEM (p then holds no rule). */
int qn_store__pid_rule(qn_store__pid *p, int64_t rule_id, const char *hash,
                       const char *yaml, int n, unsigned k, qn_err *err);
/* QN_OK when p holds its rule; else QN_EINVAL (export's code for a rule
 * that does not load, or whose text is not its hash's) naming the rule
 * and saying to run db check: a reader that names puzzles stops there. */
int qn_store__pid_need(qn_store *s, const qn_store__pid *p, qn_err *err);
/* The id of state cells (n values < k) under p's loaded rule; its
 * canonical form is left in p->form. */
uint64_t qn_store__pid_of(qn_store__pid *p, const uint8_t *cells);
/* The same of a packed state of len bytes: 0 (nothing written) when it
 * is not of the rule's size or holds a value >= k, else 1. */
int qn_store__pid_packed(qn_store__pid *p, const void *packed, size_t len,
                         uint64_t *out);
void qn_store__pid_release(qn_store__pid *p);

/* store_keys.c: the puzzle id of p, from its rule's hash and its
 * canonical key (QN_EINVAL: a key of the wrong size; QN_ENOTFOUND: no
 * such rule). */
int qn_store__puzzle_uid(qn_store *s, const qn_store_puzzle *p, uint64_t *out,
                         qn_err *err);
/* The seed of run_id (*out NULL when there is no such run; owned by s,
 * good until the next call). */
int qn_store__run_seed(qn_store *s, int64_t run_id, const char **out,
                       qn_err *err);
/* Drop the cache (at close). */
void qn_store__keys_forget(qn_store *s);
/* p's state and witness packed for its row, into s->keys.packed (after
 * qn_store__puzzle_uid loaded p's rule): QN_EINVAL when a text does not
 * fit the rule's board or colours, or the rule has no layout. */
int qn_store__puzzle_cells(qn_store *s, const qn_store_puzzle *p, qn_err *err);

/* store_grades.c: the code of grade name (a default's without SQL; any
 * other's row of grades added when missing, inside the caller's
 * transaction). */
int qn_store__grade_code(qn_store *s, const char *name, int64_t *out,
                         qn_err *err);
/* Drop the names learned (at close, and when a savepoint rolls back). */
void qn_store__grades_forget(qn_store *s);

/* store_cells.c: 1 when layout is a board layout (rules.layout: '0' a
 * cell, '.' a hole, '/' between rows) of n cells. */
int qn_store__layout_check(const char *layout, int n);
/* Pack the state text `text` of a board of layout `layout` (n cells, k
 * colours) into out (qn_store_canon_size(n, k) bytes), its cells through
 * cells (n). QN_EINVAL, naming `what` ("state", "witness") and the byte,
 * when it does not fit the layout or a value is >= k. */
int qn_store__cells_pack(uint8_t *out, uint8_t *cells, const char *what,
                         const char *text, const char *layout, int n,
                         unsigned k, qn_err *err);
/* The bytes qn_store__cells_put may write for layout (n cells), NUL
 * included. */
size_t qn_store__cells_text_max(const char *layout, int n);
/* The state text of cells on layout at dst, NUL-terminated; returns the
 * end (the NUL). */
char *qn_store__cells_put(char *dst, const char *layout, const uint8_t *cells);
/* Register (on) or remove migration 0004's SQL functions quench_layout
 * and quench_pack on s's connection. */
int qn_store__cells_sql(qn_store *s, int on, qn_err *err);

/* store_merge.c: qn_store_merge, with gate (may be NULL) called inside
 * the transaction just before the commit: an error from it rolls the
 * input back and is returned as it is (store_merge_all.c). */
typedef int qn_store_gate_fn(void *ctx, qn_err *err);
/* What keeps in_path from being merged (qn_store_merge_check; deep: with
 * PRAGMA quick_check). Errors name in_path. */
int qn_store__merge_input_ok(const char *in_path, int deep, qn_err *err);
/* store_merge_order.c: whether the rows fed in, as the pass reads them
 * by row, are in the copy's stream order (rule hash, seed, stream index;
 * NULLs first). order_row takes a row's key x with its rule's hash
 * (same_rule: the rule of the row fed before). */
typedef struct qn_store__okey {
    const char *seed; /* the row's own (NULL: NULL; '': its run's) */
    int has_index, has_run;
    int64_t index, run; /* stream index; run id in src */
} qn_store__okey;
typedef struct qn_store__order qn_store__order;
int qn_store__order_new(qn_store__order **out, qn_store *s, qn_err *err);
int qn_store__order_row(qn_store__order *o, const char *hash, int same_rule,
                        const qn_store__okey *x, qn_err *err);
int qn_store__order_in(const qn_store__order *o);
void qn_store__order_free(qn_store__order *o);

/* The copy's sorted order of the input's rows (rule hash, the seed,
 * '' being its run's, stream index, row), over store_merge_copy.c's
 * FROM: p the input's puzzles, mr temp.merge_rules, mru temp.merge_runs */
#define QN_STORE__BY_STREAM                                                    \
    "mr.hash, iif(p.seed = '', mru.seed, p.seed), p.stream_index, p.id"

/*
 * store_merge_keys.c: db merge's pass over the input (attached as src)
 * before its copy, in the copy's order (by row, or sorted): each row's
 * puzzle id from its state, and what the copy does with it. A row met
 * (met 1) holds a puzzle of OUT's row main (or of an earlier input row,
 * which the copy puts at main); any other is kept, at row main = last +
 * 1, + 2, ... in order. OUT's id sets (store_unique.c) take the kept
 * rows as they will be. QN_EDB names the input when one of its rules
 * does not load or is not its hash's, or a state is not its rule's.
 */
typedef struct qn_store__mrow {
    int64_t src, main; /* the input's row; OUT's */
    int64_t rule;      /* OUT's rule id */
    uint64_t uid;      /* the puzzle id, from the state */
    int met;
} qn_store__mrow;
typedef struct qn_store__mplan {
    qn_store__mrow *v; /* n rows in the copy's order */
    size_t n, cap, nkept, nmet;
    int64_t last;           /* OUT's largest row id before the copy */
    int sorted, in_order;   /* the order read; by row: stream order seen */
    int64_t min_id, max_id; /* of the input's rows */
    uint64_t digest; /* qn_store__pair_digest(uid, src) summed over them */
    /* the input's runs of OUT's rules as the fold read them
     * (qn_store__runs_src_ids): every one decoded (runs_ok), their pairs
     * and the same digest over those */
    int runs_ok;
    size_t runs_pairs;
    uint64_t runs_digest;
} qn_store__mplan;
int qn_store__merge_plan(qn_store *s, const char *in_path, int sorted,
                         int64_t last, qn_store__mplan *p, qn_err *err);
/* The pass by row folded into the copy: sql, an INSERT ... SELECT of
 * the input's rows by row whose WHERE calls quench_merge_keep(p.id,
 * p.rule_id, p.seed, p.stream_index, p.run_id, p.state), run with that
 * function planning each row as qn_store__merge_plan does (one read of
 * each row): *copied the rows inserted. p->in_order 0: the input is not
 * in stream order, and nothing of it is left in OUT (rows copied before
 * that was found are deleted again): the caller copies it sorted. */
int qn_store__merge_fold(qn_store *s, const char *in_path, const char *sql,
                         int64_t last, qn_store__mplan *p, int64_t *copied,
                         qn_err *err);
void qn_store__mplan_release(qn_store__mplan *p);
/* store_merge_copy.c: the input's puzzles into OUT by the plan it makes
 * (*p, which the caller releases; packs map through it): *copied the
 * rows inserted and updated, *rows the input's rows read. */
int qn_store__merge_copy(qn_store *s, const char *in_path, qn_store__mplan *p,
                         int64_t *copied, int64_t *rows, qn_err *err);
/* qn_store__merge, with gate (may be NULL) called inside the transaction
 * just before the commit. */
int qn_store__merge(qn_store *s, const char *in_path, qn_store_gate_fn *gate,
                    void *ctx, qn_store_merge_stats *stats_out, qn_err *err);

/* store_pack.c: QN_OK when pack_id exists, else QN_ENOTFOUND. */
int qn_store__pack_exists(qn_store *s, int64_t pack_id, qn_err *err);
/* The puzzle ids sql (one parameter: the pack) selects, malloc'd. */
int qn_store__pack_ids(qn_store *s, const char *sql, int64_t pack_id,
                       int64_t **out, size_t *n, qn_err *err);
/* A pack member as stored: its puzzle row, slot (0: to be born) and
 * recipe section ("" or NULL: none). */
typedef struct qn_store_member {
    int64_t puzzle, slot;
    char *section;
} qn_store_member;
/* The pack's members in position order, malloc'd: free with
 * qn_store__members_free. */
int qn_store__pack_members(qn_store *s, int64_t pack_id, qn_store_member **out,
                           size_t *n, qn_err *err);
void qn_store__members_free(qn_store_member *v, size_t n);
/* Make the membership exactly v[0..n) with those slots and sections
 * (part of the caller's transaction); bump: count a version. */
int qn_store__members_write(qn_store *s, int64_t pack_id,
                            const qn_store_member *v, size_t n, int bump,
                            qn_err *err);
/* Write a pack's membership as v[0..n) at positions 1..n, each puzzle
 * that was a member keeping its slot and section; bump: and add one to
 * its version. */
int qn_store__pack_write(qn_store *s, int64_t pack_id, const int64_t *v,
                         size_t n, int bump, qn_err *err);
/* Add one to a pack's version and stamp its modified time. */
/* store_pack.c: append puzzle_id to the pack in slot (0: its next) and
 * section; bump: count a version. */
int qn_store__append_member(qn_store *s, int64_t pack_id, int64_t puzzle_id,
                            int64_t slot, const char *section, int bump,
                            qn_err *err);
/* store_slots.c: a merged build's slots made its positions again (as
 * one run appending gives them), next_slot after them. */
int qn_store__pack_renumber(qn_store *s, int64_t pack_id, qn_err *err);
int qn_store__bump_version(qn_store *s, int64_t pack_id, qn_err *err);

#endif
