/*
 * quench/db.h: the puzzle store, one SQLite database (docs/STORE.md):
 * rules, puzzles (one row per rule and canonical form), packs (ordered,
 * named lists of puzzles, with a version) and generator runs.
 *
 * A qn_store is one SQLite connection: use it from one thread at a time;
 * several processes may share the file (WAL; a busy database waits, then
 * QN_EBUSY). Strings handed to callbacks are borrowed for the call. Every
 * write outside qn_store_begin/commit is its own transaction.
 * To put puzzles, see qn_pack_put (quench/pack.h).
 */
#ifndef QN_PUBLIC_DB_H
#define QN_PUBLIC_DB_H

#include "quench/common.h"

typedef struct qn_store qn_store; /* opaque */

/* The newest schema this build knows (the last migration). */
QN_API int qn_store_schema_version(void);

/*
 * Route SQLite's own allocations (process-wide) through the allocator of
 * qn_set_allocator (quench/common.h), so its budget or failure injection
 * covers them too. Call it once, before any other SQLite call in the
 * process (SQLite's allocator cannot change once it runs): QN_OK, or
 * QN_ERR when SQLite is in use already.
 */
QN_API int qn_store_use_allocator(qn_err *err);

enum qn_store_flags {
    QN_STORE_CREATE = 1 << 0,     /* create the file when missing */
    QN_STORE_READONLY = 1 << 1,   /* a reader: writes fail QN_EDB */
    QN_STORE_NO_MIGRATE = 1 << 2, /* leave an old schema alone (for
                                     qn_store_migrate); others refuse it */
};

/*
 * Open the database at `path` (":memory:" works) and migrate an older
 * schema. *out is the caller's (qn_store_close). Errors: QN_ENOTFOUND
 * (missing, no QN_STORE_CREATE), QN_EINVAL (another application's
 * database), QN_ENEWER (a newer quench's), QN_EDB, QN_EBUSY, QN_ENOMEM.
 */
QN_API int qn_store_open(qn_store **out, const char *path, unsigned flags,
                         qn_err *err);
/* Close; rolls back an open batch. NULL is a no-op. */
QN_API void qn_store_close(qn_store *s);
/* The path it was opened with (borrowed). */
QN_API const char *qn_store_path(const qn_store *s);
/* Busy timeout in milliseconds (default 5000). */
QN_API void qn_store_set_busy_timeout(qn_store *s, int ms);
/* Apply pending migrations (idempotent); versions before and after in
 * *from_out and *to_out (either may be NULL). */
QN_API int qn_store_migrate(qn_store *s, int *from_out, int *to_out,
                            qn_err *err);
/* The schema version of the open database. */
QN_API int qn_store_version(qn_store *s, int *out, qn_err *err);
/* A batch: many writes in one transaction. */
QN_API int qn_store_begin(qn_store *s, qn_err *err);
QN_API int qn_store_commit(qn_store *s, qn_err *err);
QN_API int qn_store_rollback(qn_store *s, qn_err *err);

/* The row id of the stored puzzle a reference names: a puzzle id, a
 * unique prefix of one, or "#ROW". QN_EINVAL (not a reference, or
 * ambiguous), QN_ENOTFOUND. */
QN_API int qn_store_puzzle_resolve(qn_store *s, const char *ref,
                                   int64_t *id_out, qn_err *err);

/* Packs. A name is 1..64 bytes, not starting with '-', no space at
 * either end; texts at most 4096 bytes. Strings are borrowed. */
typedef struct qn_store_pack {
    int64_t id;
    const char *name;  /* unique; QN_STORE_PACK_NAME_MAX bytes */
    const char *title; /* "" when absent (NULL on input = "") */
    const char *description;
    const char *author;
    int64_t version;                /* on create: 0 = 1; an import keeps its
                                       document's */
    int64_t count;                  /* puzzles in the pack */
    const char *created, *modified; /* ISO 8601 UTC */
    const char *build;              /* the generator run family that built the
                                       pack, "" (NULL on input) for others */
    const char *rules;              /* listed: its rules' names, ", " between
                                       them; "" when empty (ignored on input) */
    const char *recipe_hash;        /* listed: the hash of the recipe it was
                                       built from, "" when none or edited since */
    int from_recipe;                /* listed: 1 when `pack build` made it */
} qn_store_pack;

typedef int qn_store_pack_fn(void *ctx, const qn_store_pack *p);

/* QN_OK, or QN_EINVAL with the reason. */
QN_API int qn_store_pack_check_name(const char *name, qn_err *err);
/* Create a pack from p's name, title, description, author (other fields
 * ignored): its row id in *id_out. QN_EINVAL when the name is taken. */
QN_API int qn_store_pack_create(qn_store *s, const qn_store_pack *p,
                                int64_t *id_out, qn_err *err);
/* The id of the pack called name: QN_ENOTFOUND when none. */
QN_API int qn_store_pack_find(qn_store *s, const char *name, int64_t *id_out,
                              qn_err *err);
/* Visit every pack by name (name NULL) or just the named one. */
QN_API int qn_store_pack_list(qn_store *s, const char *name,
                              qn_store_pack_fn *fn, void *ctx, qn_err *err);
/* Add puzzle (row id) at position 1..count+1 (0 = append). QN_ENOTFOUND,
 * QN_EINVAL (already there, or out of range). */
QN_API int qn_store_pack_add(qn_store *s, int64_t pack_id, int64_t puzzle_id,
                             int64_t position, qn_err *err);
/* Make the membership exactly ids[0..n), in order; *changed_out (may be
 * NULL) says whether it differed. */
QN_API int qn_store_pack_set(qn_store *s, int64_t pack_id, const int64_t *ids,
                             size_t n, int *changed_out, qn_err *err);
/* Remove a member; move one to position 1..count; rename; delete (the
 * puzzles stay); sort by difficulty then id. */
QN_API int qn_store_pack_remove(qn_store *s, int64_t pack_id, int64_t puzzle_id,
                                qn_err *err);
QN_API int qn_store_pack_move(qn_store *s, int64_t pack_id, int64_t puzzle_id,
                              int64_t position, qn_err *err);
QN_API int qn_store_pack_rename(qn_store *s, int64_t pack_id, const char *name,
                                qn_err *err);
QN_API int qn_store_pack_delete(qn_store *s, int64_t pack_id, qn_err *err);
QN_API int qn_store_pack_sort(qn_store *s, int64_t pack_id, qn_err *err);
/* Sort by human level, then human score (ties and the ungraded, last, in
 * their order). */
QN_API int qn_store_pack_sort_human(qn_store *s, int64_t pack_id, qn_err *err);

/* The values are the codes rows keep (migration 0004): never renumber. */
typedef enum qn_store_provenance {
    QN_STORE_GENERATE = 0,
    QN_STORE_VALIDATE,
    QN_STORE_IMPORT,
} qn_store_provenance;

/* A stored puzzle as read back (pack export, check). */
typedef struct qn_store_row {
    int64_t id;
    int64_t position;    /* in the pack; 0 outside a pack walk */
    int64_t slot;        /* its level slot in the pack; 0 outside */
    const char *section; /* its recipe section; "" outside or none */
    int64_t rule_id;
    const char *rule_hash;
    const char *rule_name;
    const char *rule_yaml; /* the rule file text, as stored */
    const char *state;
    uint64_t min_presses;
    uint64_t noptimal;
    const char *witness;
    const char *grade; /* NULL when ungraded */
    const char *grader;
    const char *seed;     /* NULL when none */
    int64_t stream_index; /* -1 when none */
    const char *provenance;
    uint64_t uid; /* the puzzle id (puzzle_id.h), computed from the state
                     and the rule's text, not stored; a walk stops with
                     QN_EDB at a rule whose text does not load, but
                     qn_store_each_puzzle (db check, which reports that
                     rule) gives 0 */
    const char *submission; /* NULL unless from validate --into */
    const char *source;
    const char *meta;
    int human_level;     /* the technique ladder's rung 0..3; -1 when
                            not graded (stored before migration 0006,
                            or not decided): score and model are then 0 */
    int64_t human_score; /* the human score in thousandths */
    int human_model;     /* the human score model's version */
} qn_store_row;

typedef int qn_store_row_fn(void *ctx, const qn_store_row *row);
/* Visit a pack's puzzles in position order; one puzzle by row id
 * (QN_ENOTFOUND when none). A non-zero return of fn stops the walk and
 * is returned. */
QN_API int qn_store_pack_each(qn_store *s, int64_t pack_id, qn_store_row_fn *fn,
                              void *ctx, qn_err *err);
QN_API int qn_store_puzzle_row(qn_store *s, int64_t id, qn_store_row_fn *fn,
                               void *ctx, qn_err *err);

/* Integrity: QN_OK, or QN_EDB with the first problem and the number of
 * problem rows in *nproblems_out (may be NULL). */
QN_API int qn_store_check(qn_store *s, int64_t *nproblems_out, qn_err *err);
typedef struct qn_store_counts {
    int64_t rules, puzzles, packs, pack_entries, runs;
} qn_store_counts;
QN_API int qn_store_counts_get(qn_store *s, qn_store_counts *out, qn_err *err);
/* The difficulty histogram: one call per (rule, min presses) with the
 * number of puzzles, by rule name then presses. */
typedef int qn_store_hist_fn(void *ctx, const char *rule_name,
                             const char *rule_hash, uint64_t min_presses,
                             int64_t count);
QN_API int qn_store_histogram(qn_store *s, qn_store_hist_fn *fn, void *ctx,
                              qn_err *err);

typedef struct qn_store_merge_stats {
    int64_t rules, puzzles, duplicates, packs, pack_entries, runs;
} qn_store_merge_stats;

/* Merge the quench database at in_path (same schema version, read-only)
 * into s in one transaction; idempotent. *stats_out (may be NULL) gets
 * what was added. */
QN_API int qn_store_merge(qn_store *s, const char *in_path,
                          qn_store_merge_stats *stats_out, qn_err *err);

#endif
