/*
 * store.h: the SQLite puzzle store: rule sets, puzzles, packs and runs in
 * one database file (schema and guarantees: docs/STORE.md).
 *
 * A qn_store is one connection. Every connection enforces foreign keys,
 * uses WAL with synchronous=NORMAL and a busy timeout; writers take the
 * write lock up front (BEGIN IMMEDIATE). Mutating calls made outside a
 * batch run in their own transaction; inside a batch (qn_store_begin ..
 * qn_store_commit) they join it, and a failed call undoes only its own
 * work (a SAVEPOINT), so the batch stays usable.
 *
 * Codes, common to every function below unless its comment says more:
 *   QN_EDB      an SQLite failure: corrupt file, full disk, read-only
 *               file, constraint broken; err->msg holds sqlite3_errmsg()
 *   QN_EBUSY    the database stayed locked by another connection for
 *               longer than the busy timeout: retry later
 *   QN_ENEWER   the file was written by a newer quench (schema version
 *               above QN_STORE_SCHEMA_VERSION)
 *   QN_EINVAL   not a quench database, or an argument breaks the schema
 *   QN_ENOTFOUND the named pack, puzzle, rule or database does not exist
 * err->source is the database path. Outputs are set on success only; a
 * failed call leaves *out NULL (pointers) or untouched (numbers).
 *
 * Strings in row structs handed to callbacks are borrowed for the duration
 * of the callback. A callback returning non-zero stops the walk, and the
 * function then returns that value.
 */
#ifndef QN_STORE_H
#define QN_STORE_H

#include "quench/db.h"

#include <stddef.h>
#include <stdint.h>

#include "base/err.h"

/* PRAGMA application_id of every quench database: "QnCh" in ASCII. */
#define QN_STORE_APPLICATION_ID 0x516e4368
/* The newest schema this build knows (the last db/migrations file). */
int qn_store_schema_version(void);

typedef struct qn_store qn_store; /* opaque: one SQLite connection */

/*
 * Open the database at `path` (":memory:" works) and bring its schema up
 * to date: a new or older database is migrated, one transaction per
 * migration. With QN_STORE_READONLY the connection only reads (PRAGMA
 * query_only; the journal mode stays as it is), and a WAL database in a
 * folder this user cannot write is read in SQLite's immutable mode when
 * that is safe (no log with changes not in the file, and no write
 * permission on the file and its folder, or a read-only file system:
 * docs/STORE.md), else QN_EDB says what to do. *out is the caller's
 * (qn_store_close). Extra codes:
 * QN_ENOTFOUND the file is missing and QN_STORE_CREATE was not given;
 * QN_EINVAL the file is an SQLite database of another application;
 * QN_ENEWER (see above); QN_EDB an old schema with READONLY or NO_MIGRATE
 * (only qn_store_migrate may then be called).
 */
int qn_store_open(qn_store **out, const char *path, unsigned flags,
                  qn_err *err);
/* Close; rolls back an open batch. NULL is a no-op. */
void qn_store_close(qn_store *s);
/* The path given to qn_store_open; borrowed. */
const char *qn_store_path(const qn_store *s);

/* Busy timeout in milliseconds (default 5000; tests set it short). */
void qn_store_set_busy_timeout(qn_store *s, int ms);

/*
 * Apply pending migrations; *from_out and *to_out (either may be NULL)
 * receive the schema version before and after. Idempotent.
 */
int qn_store_migrate(qn_store *s, int *from_out, int *to_out, qn_err *err);
/* The schema version of the open database (PRAGMA user_version). */
int qn_store_version(qn_store *s, int *out, qn_err *err);
/*
 * Rewrite the file without its free pages (VACUUM) when they are at least
 * a quarter of it, as a migration that rebuilt a table leaves them; else
 * nothing. *before and *after: the file's size in bytes (equal when it
 * was left alone). A failure (QN_EDB, e.g. the disk full: VACUUM needs
 * room for a whole copy; QN_EBUSY, another connection reading) leaves
 * the file as it was. Not inside a batch (QN_EINVAL).
 */
int qn_store_compact(qn_store *s, int64_t *before, int64_t *after, qn_err *err);

/* ---------------------------------------------------------------------
 * Batches: one write transaction (BEGIN IMMEDIATE). Commit makes every
 * call since begin durable against a crash of the process (kill -9); a
 * power loss may lose the last committed batches (synchronous=NORMAL),
 * never corrupt the file. Rollback discards them all. Begin inside a
 * batch is QN_EINVAL; commit/rollback outside one is QN_EINVAL.
 */
int qn_store_begin(qn_store *s, qn_err *err);
int qn_store_commit(qn_store *s, qn_err *err);
int qn_store_rollback(qn_store *s, qn_err *err);
/* 1 while a batch is open. */
int qn_store_in_batch(const qn_store *s);

/* ---------------------------------------------------------------------
 * Rule sets. Idempotent by hash: putting a rule whose hash is stored
 * returns the existing id (the stored YAML is kept; a layout is stored
 * when the row, from an older quench, has none). QN_EINVAL when the
 * layout is missing or does not have `cells` cells.
 */
typedef struct qn_store_rule {
    const char *hash; /* 64 lowercase hex digits (qn_rules_hash) */
    const char *name;
    const char *yaml; /* the rule file text */
    int cells;
    unsigned colours;
    const char *facts;  /* free text, e.g. "kernel=4"; NULL = "" */
    const char *layout; /* the board: qn_state_format of its all-zero
                           state with '/' ('0' a cell, '.' a hole), `cells`
                           '0's; the store reads and writes states by it */
} qn_store_rule;

int qn_store_put_rule(qn_store *s, const qn_store_rule *r, int64_t *id_out,
                      qn_err *err);
/* qn_store_put_rule of a loaded rule set: its hash, name, cells, colours,
 * board layout and the text it was loaded from (qn_rules_text, not the
 * file read again: standard input can be read only once). QN_EINVAL when
 * it has no text. */
struct qn_rules;
int qn_store_put_ruleset(qn_store *s, const struct qn_rules *r, int64_t *id_out,
                         qn_err *err);
/* The id of the stored puzzle of this rule with this canonical key:
 * QN_ENOTFOUND when there is none. */
int qn_store_find_puzzle(qn_store *s, int64_t rule_id, const uint8_t *canon,
                         size_t canon_len, int64_t *id_out, qn_err *err);
/* The id of the rule with this hash: QN_ENOTFOUND when none. */
int qn_store_find_rule(qn_store *s, const char *hash, int64_t *id_out,
                       qn_err *err);

/* ---------------------------------------------------------------------
 * Puzzles.
 */
/* "generate", "validate", "import" (the database spelling). */
const char *qn_store_provenance_name(qn_store_provenance p);

typedef struct qn_store_puzzle {
    int64_t rule_id;
    const char *state;    /* state text (state.h) */
    const uint8_t *canon; /* canonical key, e.g. qn_store_canon_pack */
    size_t canon_len;     /* >= 1 */
    uint64_t min_presses;
    uint64_t noptimal;    /* optimal solutions */
    const char *witness;  /* an optimal plan, per-cell counts as text */
    const char *grade;    /* NULL = ungraded */
    const char *grader;   /* grader version; NULL = "" */
    const char *seed;     /* batch seed as hex; NULL = none */
    int64_t stream_index; /* -1 = none */
    qn_store_provenance provenance;
    int64_t run_id;         /* 0 = none */
    uint64_t uid;           /* the puzzle id (puzzle_id.h) */
    const char *submission; /* validate: the submission's id; NULL = none */
    const char *source;     /* validate: "FILE:LINE" of it; NULL = none */
    const char *meta;       /* fields quench did not read, a JSON object
                               text; NULL = none */
    /* Optional, in place of the texts: the state and the witness as the
     * rule's cell values (one byte a cell, in the order of its board,
     * each < k; the store checks). A caller that holds cells (generate)
     * spares the store writing and parsing text on its hot path. */
    const uint8_t *state_cells;   /* NULL = use state */
    const uint8_t *witness_cells; /* NULL = use witness */
    /* The human grade (migration 0006): stored when human_graded is 1
     * (level 0..3, score in thousandths, the model's version >= 1), else
     * NULL (zero-initialised: not graded). */
    int human_graded;
    int human_level;
    int64_t human_score;
    int human_model;
} qn_store_puzzle;

/*
 * Insert a puzzle. The UNIQUE (rule, canonical key) constraint decides:
 * *is_new_out = 1 and *id_out = the new id; or the new row is not written
 * and *id_out = the id of the stored puzzle with the same canonical key,
 * with *is_new_out = 2 when that row came from the same run and stream
 * index (a resumed run meeting its own earlier output), else 0. Either
 * output may be NULL. Inside a batch this is one cached prepared
 * statement and nothing more.
 */
int qn_store_put_puzzle(qn_store *s, const qn_store_puzzle *p, int64_t *id_out,
                        int *is_new_out, qn_err *err);

/*
 * Pack n canonical cell values (each < k, 2 <= k <= 255) into
 * ceil(n * bits / 8) bytes, bits = ceil(log2 k), LSB first; returns the
 * byte count. out must hold qn_store_canon_size(n, k) bytes.
 */
size_t qn_store_canon_size(int n, unsigned k);
size_t qn_store_canon_pack(uint8_t *out, const uint8_t *cells, int n,
                           unsigned k);
/* The inverse: n cell values out of qn_store_canon_size(n, k) bytes. */
void qn_store_canon_unpack(uint8_t *cells, const uint8_t *packed, int n,
                           unsigned k);

/*
 * The stored puzzle a reference names: a puzzle id or a unique prefix of
 * one (QN_PUZZLE_ID_MIN_PREFIX..16 hex digits, puzzle_id.h), or "#ROW",
 * the database row. QN_EINVAL: not a reference, or a prefix (or, by a
 * 64-bit collision, a whole id) that names two puzzles, both named in the
 * message; QN_ENOTFOUND: none.
 */
int qn_store_puzzle_resolve(qn_store *s, const char *ref, int64_t *id_out,
                            qn_err *err);

/* ---------------------------------------------------------------------
 * Runs: who wrote what, and where a generator resumes.
 */
typedef struct qn_store_run {
    const char *command; /* "generate", "validate", ... */
    int64_t rule_id;     /* 0 = none */
    const char *seed;    /* hex; NULL = "" */
    const char *options; /* canonical option string; NULL = "" */
    const char *tool_version;
    uint64_t requested; /* puzzles asked for */
} qn_store_run;

/*
 * Runs are claimed: while a connection is writing a run (from start or
 * find until it is closed), another connection, in this process or any
 * other, that tries to start or resume it gets QN_EBUSY, so two copies of
 * one command never share a run and its counts. The claim is a lock on
 * the file PATH-lock beside the database (created when first needed,
 * never removed), released when the connection closes or its process
 * ends, kill -9 included. In-memory databases are not claimed. A run
 * another connection is writing is refused as such even while some
 * writer holds SQLite's write lock: its claim is tried before the wait
 * for that lock, and again when the wait ends in QN_EBUSY.
 */

/* Start a run (status 'running'), claimed; *id_out is its id. */
int qn_store_run_start(qn_store *s, const qn_store_run *run, int64_t *id_out,
                       qn_err *err);

/*
 * Find the latest run with the same command, rule, seed and options (the
 * resume key): *id_out and *next_index_out (either may be NULL); its
 * status goes back to 'running', its requested count becomes the larger
 * of the stored one and run->requested, its summary is cleared, and it is
 * claimed. QN_ENOTFOUND when there
 * is none; QN_EBUSY when another connection is writing it.
 */
int qn_store_run_find(qn_store *s, const qn_store_run *run, int64_t *id_out,
                      uint64_t *next_index_out, qn_err *err);

/*
 * Find and resume the run with run's key (*resumed_out = 1), or start it
 * (*resumed_out = 0; may be NULL), in one transaction, so two processes
 * opening the same run at once never start two twins. QN_EBUSY when
 * another connection is writing it.
 */
int qn_store_run_open(qn_store *s, const qn_store_run *run, int64_t *id_out,
                      int *resumed_out, qn_err *err);

/*
 * Record progress: every stream index below next_index was handled, with
 * the given running totals. Call it inside the batch that stored those
 * puzzles, so progress and puzzles commit together.
 */
int qn_store_run_progress(qn_store *s, int64_t run_id, uint64_t next_index,
                          uint64_t stored, uint64_t duplicates, qn_err *err);

/* The running totals last recorded for a run (QN_ENOTFOUND: no run). */
int qn_store_run_totals(qn_store *s, int64_t run_id, uint64_t *stored_out,
                        uint64_t *duplicates_out, qn_err *err);

/* Finish: status "done", "interrupted" or "failed"; stamps the time. */
int qn_store_run_finish(qn_store *s, int64_t run_id, const char *status,
                        qn_err *err);

/* Keep a finished run's summary record (NULL: none); resuming the run
 * clears it. */
int qn_store_run_summary(qn_store *s, int64_t run_id, const char *summary,
                         qn_err *err);

/* What the latest run with run's key holds, read without claiming or
 * changing it (qn_store_run_lookup). summary is the caller's (free). */
typedef struct qn_store_run_info {
    int64_t id;
    int done;           /* status 'done' */
    uint64_t requested; /* the largest count asked of it */
    uint64_t stored;
    uint64_t next_index; /* every stream index below it was handled */
    char *summary;       /* NULL when none was kept */
} qn_store_run_info;

/* QN_ENOTFOUND when there is no run with that key. */
int qn_store_run_lookup(qn_store *s, const qn_store_run *run,
                        qn_store_run_info *out, qn_err *err);

/* The largest stream index stored for a run: QN_ENOTFOUND when none. */
int qn_store_max_index(qn_store *s, int64_t run_id, uint64_t *out, qn_err *err);

/* ---------------------------------------------------------------------
 * Packs: named, ordered lists of puzzles. Positions are 1..count with no
 * gaps; every change to a pack's contents, order or name bumps its
 * version, except the appends of the run that built it
 * (qn_store_pack_append_build) and nothing else: an edit that changes
 * nothing keeps it.
 */
/*
 * What a pack's name and texts may hold, whoever sets them (pack create
 * and rename, generate --pack, validate --into, import, db merge): well
 * formed UTF-8 without control characters, line separators or
 * bidirectional formatting characters (text.h); a name is 1..64 bytes,
 * does not begin with '-' and has no space at either end; a title,
 * description or author is at most 4096 bytes (the limit of a rule's
 * texts), and only a description may hold line feeds.
 */
#define QN_STORE_PACK_NAME_MAX 64 /* bytes in a pack name */
#define QN_STORE_PACK_TEXT_MAX                                                 \
    4096 /* bytes in a title, description or                                   \
            author */

/* Check a pack name against the rules above: QN_OK, or QN_EINVAL with
 * the reason ("pack name '-x' begins with '-' ..."). */
int qn_store_pack_check_name(const char *name, qn_err *err);
/* Check p's name, title, description and author (NULL texts are ""). */
int qn_store_pack_check(const qn_store_pack *p, qn_err *err);

/* Create a pack from p's name/title/description/author, version and
 * build (other fields are ignored). QN_EINVAL when the name is taken or p fails
 * qn_store_pack_check. */
int qn_store_pack_create(qn_store *s, const qn_store_pack *p, int64_t *id_out,
                         qn_err *err);
/* The id of the pack called name: QN_ENOTFOUND when none. */
int qn_store_pack_find(qn_store *s, const char *name, int64_t *id_out,
                       qn_err *err);

/* Visit every pack by name (name == NULL), or just the named one
 * (QN_ENOTFOUND when missing). */
int qn_store_pack_list(qn_store *s, const char *name, qn_store_pack_fn *fn,
                       void *ctx, qn_err *err);

/*
 * Add a puzzle at `position` (1..count+1; 0 = append), shifting later
 * ones down. QN_ENOTFOUND: no such pack or puzzle. QN_EINVAL: already in
 * the pack, or the position is out of range.
 */
int qn_store_pack_add(qn_store *s, int64_t pack_id, int64_t puzzle_id,
                      int64_t position, qn_err *err);
/*
 * Append a puzzle for a generator run whose family (command, rule, seed
 * and options but the count and the shard) is `build`: the pack's version
 * stays when the pack was built by that family (qn_store_pack.build), so
 * a run, resumed or extended, and its shards make the pack at version 1;
 * any other append bumps it. Errors as qn_store_pack_add.
 */
int qn_store_pack_append_build(qn_store *s, int64_t pack_id, int64_t puzzle_id,
                               const char *build, qn_err *err);
/* Append a puzzle without touching the version: for filling a pack just
 * created at the version it is to have (import keeps its document's).
 * Errors as qn_store_pack_add. */
int qn_store_pack_fill(qn_store *s, int64_t pack_id, int64_t puzzle_id,
                       qn_err *err);
/*
 * Make the pack's membership exactly ids[0..n) in that order (each a
 * stored puzzle, none twice), in one transaction: written, and the
 * version bumped once, only when it differs from what the pack holds;
 * *changed_out (may be NULL) says which. For builders that compute the
 * whole pack (pack build). QN_ENOTFOUND: no such pack; QN_EDB when an id
 * is not a stored puzzle or repeats.
 */
int qn_store_pack_set(qn_store *s, int64_t pack_id, const int64_t *ids,
                      size_t n, int *changed_out, qn_err *err);
/*
 * Level slots (docs/STORE.md, "Level slots"): every member of a pack has a
 * slot, a number from 1 unique in the pack and never given twice there,
 * born when the member is added, following it through moves and sorts,
 * kept when another puzzle takes its place, retired when it is removed.
 *
 * qn_store_pack_set_sections is qn_store_pack_set for a recipe's build:
 * sections[i] ("" or NULL: none) is the recipe section of ids[i], and
 * the k-th member of a section keeps the slot of the k-th member of that
 * section before (a pack without sections before matches by position);
 * the version counts one if bump and anything changed.
 */
int qn_store_pack_set_sections(qn_store *s, int64_t pack_id, const int64_t *ids,
                               const char *const *sections, size_t n, int bump,
                               int *changed_out, qn_err *err);
/* Put puzzle by_id in the place and slot of member puzzle_id (a re-rolled
 * level keeps its slot); counts a version. QN_ENOTFOUND: not a member;
 * QN_EINVAL: by_id is already another member. */
int qn_store_pack_replace(qn_store *s, int64_t pack_id, int64_t puzzle_id,
                          int64_t by_id, qn_err *err);
/* qn_store_pack_fill with the member's slot (0: born as usual) and
 * section: import keeps its document's. */
int qn_store_pack_fill_slot(qn_store *s, int64_t pack_id, int64_t puzzle_id,
                            int64_t slot, const char *section, qn_err *err);
/* Keep the recipe a pack was built from: its text and its 64-hex hash
 * (NULL both: none). Part of the caller's transaction when in a batch. */
int qn_store_pack_recipe(qn_store *s, int64_t pack_id, const char *text,
                         const char *hash, qn_err *err);
/* Remove a puzzle; later ones move up. QN_ENOTFOUND when not a member. */
int qn_store_pack_remove(qn_store *s, int64_t pack_id, int64_t puzzle_id,
                         qn_err *err);
/* Move a member to position 1..count. QN_ENOTFOUND / QN_EINVAL. */
int qn_store_pack_move(qn_store *s, int64_t pack_id, int64_t puzzle_id,
                       int64_t position, qn_err *err);
/* Rename; QN_EINVAL when the new name is taken or fails
 * qn_store_pack_check_name. */
int qn_store_pack_rename(qn_store *s, int64_t pack_id, const char *name,
                         qn_err *err);
/* Delete a pack and its membership (the puzzles stay). */
int qn_store_pack_delete(qn_store *s, int64_t pack_id, qn_err *err);
/* Reorder by difficulty: min presses ascending, ties in their current
 * order (a stable sort). An edit that leaves the membership as it was
 * (this on a sorted pack, a move to the same position, a rename to the
 * same name) writes nothing and keeps the version. */
int qn_store_pack_sort(qn_store *s, int64_t pack_id, qn_err *err);
/* The same by the human ladder (docs/GENERATE.md): human level, then
 * human score, ascending; ties, and puzzles with no human grade (after
 * the rest), in their current order. */
int qn_store_pack_sort_human(qn_store *s, int64_t pack_id, qn_err *err);

/* Visit a pack's puzzles in position order. */
int qn_store_pack_each(qn_store *s, int64_t pack_id, qn_store_row_fn *fn,
                       void *ctx, qn_err *err);

/* Visit the puzzle at row id (qn_store_puzzle_resolve gives it);
 * QN_ENOTFOUND when there is none. */
int qn_store_puzzle_row(qn_store *s, int64_t id, qn_store_row_fn *fn, void *ctx,
                        qn_err *err);
/* Visit the puzzles a run stored, in stream order. */
int qn_store_run_each(qn_store *s, int64_t run_id, qn_store_row_fn *fn,
                      void *ctx, qn_err *err);

/* ---------------------------------------------------------------------
 * Checking, statistics, merging.
 */

/*
 * Visit every stored puzzle, grouped by rule (rule id, then puzzle id).
 * rule_fn is called once before each rule's puzzles with the rule's id,
 * hash, name and YAML text, so the caller can compile it (the store does
 * not depend on the engine); then puzzle_fn for each of its puzzles.
 */
typedef int qn_store_rule_fn(void *ctx, int64_t rule_id, const char *hash,
                             const char *name, const char *yaml);
int qn_store_each_puzzle(qn_store *s, qn_store_rule_fn *rule_fn,
                         qn_store_row_fn *puzzle_fn, void *ctx, qn_err *err);

/*
 * PRAGMA integrity_check and foreign_key_check. QN_OK when both are
 * clean; otherwise QN_EDB with the first problem in err->msg and
 * *nproblems_out (may be NULL) the number of problem rows.
 */
int qn_store_check(qn_store *s, int64_t *nproblems_out, qn_err *err);

int qn_store_counts_get(qn_store *s, qn_store_counts *out, qn_err *err);

int qn_store_histogram(qn_store *s, qn_store_hist_fn *fn, void *ctx,
                       qn_err *err);

/*
 * Merge the quench database at `in_path` (opened read-only, not migrated:
 * it must be at this build's schema version) into s, in one transaction:
 * rules by hash, runs by key (of two copies of a run the one with the
 * larger next_index), puzzles by (rule, canonical key) in (rule, seed,
 * stream index) order (of two copies with a seed the smaller (seed,
 * stream index, state)), packs by name: a new pack is copied; two
 * unedited copies built by one run family (the shards of a generate
 * --pack, version 1 both) join in stream order at version 1; otherwise the
 * members not yet in the pack are appended in the input's order and the
 * version goes past both copies'. Idempotent, and the same whatever the
 * order or grouping of the inputs, so merged databases merge again (a
 * merge tree). *stats_out (may be NULL) receives what was added (runs:
 * new rows only). QN_EINVAL, with nothing written, when a pack
 * of the input fails qn_store_pack_check; QN_ENOTFOUND when in_path does
 * not exist; QN_ENOMEM may also come after the commit (detaching the
 * input), with the input merged: merging it again adds nothing.
 */
int qn_store_merge(qn_store *s, const char *in_path,
                   qn_store_merge_stats *stats_out, qn_err *err);

/*
 * Whether in_path can be merged: it exists (else QN_ENOTFOUND), is a
 * quench database (QN_EINVAL) at this build's schema version (QN_ENEWER
 * when newer, QN_EINVAL when older), its packs pass qn_store_pack_check
 * (QN_EINVAL) and it passes PRAGMA quick_check (QN_EDB
 * naming the damage). err->source is in_path. Check every input before the
 * first qn_store_merge, so that a bad one leaves OUT untouched.
 */
int qn_store_merge_check(const char *in_path, qn_err *err);

/*
 * db merge of several inputs, in order: qn_store_merge_start checks every
 * input the cheap way (there, a quench database at this schema version,
 * packs: the errors of qn_store_merge_check, with nothing started);
 * qn_store_merge_next merges the next input into s as qn_store_merge
 * does. Into an s that exists, the first next starts PRAGMA quick_check
 * of every input on a thread of its own, and its first commit waits
 * until every input has passed it, so a damaged input (QN_EDB,
 * err->source naming it) still leaves s as it was. The check reads every
 * page of every input: on its own thread it costs no wall time where a
 * core is free, where before the merge it was 16% of db merge's. Into an
 * s built aside (qn_store_open_aside), which a failure discards whole,
 * there is no such check: the merge's own reads refuse a damaged input
 * (QN_EDB naming it). qn_store_merge_wait starts the checks (if not yet)
 * and waits for them. QN_ENOTFOUND from next when every input is merged.
 * The job borrows in[]; qn_store_merge_finish (NULL is fine) waits for
 * the thread and frees it. A job whose thread could not start checks
 * every input in line instead.
 */
typedef struct qn_store_merge_job qn_store_merge_job;
int qn_store_merge_start(qn_store_merge_job **out, char *const *in, int n,
                         qn_err *err);
int qn_store_merge_next(qn_store_merge_job *j, qn_store *s,
                        qn_store_merge_stats *stats_out, qn_err *err);
/* Wait until every input is checked: QN_OK, or the first failure. */
int qn_store_merge_wait(qn_store_merge_job *j, qn_err *err);
void qn_store_merge_finish(qn_store_merge_job *j);

/*
 * A database built aside (db merge into a new OUT): qn_store_open_aside
 * opens tmp_path (a file the caller created, empty, under a name nobody
 * else opens) with no journal and no syncs, and qn_store_aside_publish
 * switches it to the store's log (WAL), closes s (in every case), syncs
 * the file and gives it the name final, which must not exist: a file
 * made there meanwhile is left as it is (QN_EBUSY), else QN_EIO. Until
 * then a failure, or a crash, leaves final as it was: the caller removes
 * tmp_path (and nothing else) when publishing fails or is not tried. The
 * file's directory is synced once it is renamed.
 */
int qn_store_open_aside(qn_store **out, const char *tmp_path, qn_err *err);
int qn_store_aside_publish(qn_store *s, const char *final, qn_err *err);

#endif
