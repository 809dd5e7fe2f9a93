/*
 * store.c: the SQLite puzzle store (store.h): connections, batches, rule
 * sets, puzzles, runs and packs. Pack order is kept dense by rewriting a
 * pack's membership inside one transaction; packs are small next to the
 * puzzle table, and a rewrite cannot leave gaps or collisions behind.
 */
#include "quench/store.h"

#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include <sqlite3.h>

#include "quench/mem.h"
#include "store_internal.h"

#define DEFAULT_BUSY_MS 5000
#define CACHE_KIB 65536 /* page cache: 64 MiB */

int qn_store__fail(qn_store *s, int rc, qn_err *err)
{
    const char *msg = s && s->db ? sqlite3_errmsg(s->db) : sqlite3_errstr(rc);

    if (s)
        qn_err_source(err, s->path);
    switch (rc & 0xff) {
    case SQLITE_NOMEM:
        /* sqlite3_errmsg may name the step that wanted the memory instead
         * ("unable to open a temporary database file ..."): say the cause */
        if (strstr(msg, "out of memory"))
            return qn_err_set(err, QN_ENOMEM, 0, 0, "%s", msg);
        return qn_err_set(err, QN_ENOMEM, 0, 0, "out of memory (%s)", msg);
    case SQLITE_BUSY:
    case SQLITE_LOCKED:
        return qn_err_set(err, QN_EBUSY, 0, 0,
                          "database is locked by another writer for more "
                          "than %d ms (%s); retry later",
                          s ? s->busy_ms : 0, msg);
    case SQLITE_FULL:
    case SQLITE_IOERR:
    case SQLITE_CANTOPEN:
    case SQLITE_READONLY: {
        /* say what the system said: "file too large", "no space left" */
        int e = s && s->db ? sqlite3_system_errno(s->db) : 0;
        if (e)
            return qn_err_set(err, QN_EDB, 0, 0, "%s: %s", msg, strerror(e));
        return qn_err_set(err, QN_EDB, 0, 0, "%s", msg);
    }
    default:
        return qn_err_set(err, QN_EDB, 0, 0, "%s", msg);
    }
}

int qn_store__exec(qn_store *s, const char *sql, qn_err *err)
{
    int rc = sqlite3_exec(s->db, sql, NULL, NULL, NULL);

    return rc == SQLITE_OK ? QN_OK : qn_store__fail(s, rc, err);
}

static int prep(qn_store *s, sqlite3_stmt **st, const char *sql, qn_err *err)
{
    int rc = sqlite3_prepare_v2(s->db, sql, -1, st, NULL);

    if (rc != SQLITE_OK) {
        *st = NULL;
        return qn_store__fail(s, rc, err);
    }
    return QN_OK;
}

/* Step a statement that returns no rows (or whose rows we ignore). */
static int step_done(qn_store *s, sqlite3_stmt *st, qn_err *err)
{
    int rc = sqlite3_step(st);

    if (rc == SQLITE_DONE || rc == SQLITE_ROW)
        return QN_OK;
    return qn_store__fail(s, rc, err);
}

int qn_store__int(qn_store *s, const char *sql, long long *out, qn_err *err)
{
    sqlite3_stmt *st;
    int rc = prep(s, &st, sql, err), r;

    if (rc != QN_OK)
        return rc;
    r = sqlite3_step(st);
    if (r == SQLITE_ROW)
        *out = sqlite3_column_int64(st, 0);
    else if (r == SQLITE_DONE)
        *out = 0;
    else
        rc = qn_store__fail(s, r, err);
    sqlite3_finalize(st);
    return rc;
}

/*
 * SQLITE_STATIC: every caller steps the statement while v is alive, and a
 * copy could fail for want of memory, which sqlite3_bind_text reports only
 * by its return value: the statement would then run with NULL (found by
 * failing SQLite's allocations, tests/faults.sh).
 */
static void bind_text(sqlite3_stmt *st, int i, const char *v)
{
    if (v)
        sqlite3_bind_text(st, i, v, -1, SQLITE_STATIC);
    else
        sqlite3_bind_null(st, i);
}

static const char *col_text(sqlite3_stmt *st, int i)
{
    return (const char *)sqlite3_column_text(st, i);
}

static const char *col_str(sqlite3_stmt *st, int i)
{
    const char *t = col_text(st, i);
    return t ? t : "";
}

static sqlite3_int64 clamp64(uint64_t v)
{
    return v > (uint64_t)INT64_MAX ? INT64_MAX : (sqlite3_int64)v;
}

/* ---------------------------------------------------------------------
 * Transactions for single calls: their own BEGIN IMMEDIATE outside a
 * batch, a savepoint inside one (so a failed call undoes only itself).
 */
static int tx_begin(qn_store *s, qn_err *err)
{
    return qn_store__exec(s, s->in_batch ? "SAVEPOINT qn_op"
                                         : "BEGIN IMMEDIATE",
                          err);
}

static int tx_end(qn_store *s, int rc, qn_err *err)
{
    /* SQLite ends the transaction itself after some errors (out of
     * memory, I/O): never report such a call as done */
    if (rc == QN_OK && sqlite3_get_autocommit(s->db))
        rc = qn_err_set(err, QN_EDB, 0, 0,
                        "the transaction was rolled back by SQLite");
    if (rc == QN_OK) {
        rc = qn_store__exec(s, s->in_batch ? "RELEASE qn_op" : "COMMIT", err);
        if (rc == QN_OK)
            return QN_OK;
    }
    /* The rollback itself needs memory (to prepare it): when it fails the
     * transaction stays open, and rc may be a benign QN_ENOTFOUND the
     * caller would carry on from, into "cannot start a transaction within
     * a transaction". Report the failed rollback instead (found by
     * failing SQLite's allocations, tests/faults.sh). When SQLite has
     * already rolled back, there is nothing to undo and rc says why. */
    if (sqlite3_get_autocommit(s->db))
        return rc;
    int undo = qn_store__exec(
        s, s->in_batch ? "ROLLBACK TO qn_op; RELEASE qn_op" : "ROLLBACK", err);
    return undo != QN_OK ? undo : rc;
}

/* ---------------------------------------------------------------------
 * Opening.
 */
static int is_memory(const char *path)
{
    return !strcmp(path, ":memory:") || !strcmp(path, "");
}

static void close_handle(qn_store *s)
{
    sqlite3_finalize(s->put_puzzle);
    sqlite3_finalize(s->dup_puzzle);
    sqlite3_close_v2(s->db);
    qn_store__claims_release(s);
    free(s->path);
    free(s);
}

static int header(qn_store *s, long long *app, long long *ver,
                  long long *nobj, qn_err *err)
{
    sqlite3_stmt *st;
    int rc = prep(s, &st,
                  "SELECT (SELECT application_id FROM pragma_application_id),"
                  " (SELECT user_version FROM pragma_user_version),"
                  " (SELECT count(*) FROM sqlite_schema)",
                  err),
        r;

    if (rc != QN_OK)
        return rc;
    r = sqlite3_step(st);
    if (r == SQLITE_ROW) {
        *app = sqlite3_column_int64(st, 0);
        *ver = sqlite3_column_int64(st, 1);
        *nobj = sqlite3_column_int64(st, 2);
    } else {
        rc = qn_store__fail(s, r, err);
    }
    sqlite3_finalize(st);
    return rc;
}

/* Check the header fields; migrate unless told not to. */
static int setup(qn_store *s, unsigned flags, qn_err *err)
{
    long long app = 0, ver = 0, nobj = 0;
    int rc, latest = qn_store_schema_version();
    int ro = (flags & QN_STORE_READONLY) || sqlite3_db_readonly(s->db, "main");
    char sql[64];

    /* one statement, so one snapshot: another process may be creating
     * the schema right now, and three separate reads could straddle it */
    if ((rc = qn_store__exec(s, "PRAGMA foreign_keys = ON", err)) ||
        (rc = header(s, &app, &ver, &nobj, err)))
        return rc;
    if (app != QN_STORE_APPLICATION_ID && !(app == 0 && ver == 0 && nobj == 0))
        return qn_err_set(err, QN_EINVAL, 0, 0,
                          "not a quench database (application_id 0x%08llx, "
                          "expected 0x%08x)",
                          (unsigned long long)app & 0xffffffffu,
                          (unsigned)QN_STORE_APPLICATION_ID);
    if (ver > latest)
        return qn_err_set(err, QN_ENEWER, 0, 0,
                          "database schema version %lld is newer than this "
                          "quench knows (%d); upgrade quench",
                          ver, latest);
    snprintf(sql, sizeof(sql), "PRAGMA cache_size = -%d", CACHE_KIB);
    if ((rc = qn_store__exec(s, sql, err)))
        return rc;
    if (!ro) {
        /* WAL: readers never block the writer; synchronous=NORMAL syncs
         * at checkpoints only, so a committed batch survives a crash of
         * the process but the last ones may be lost on power failure. */
        if ((rc = qn_store__exec(s, "PRAGMA journal_mode = WAL", err)) ||
            (rc = qn_store__exec(s, "PRAGMA synchronous = NORMAL", err)))
            return rc;
    }
    if (ver < latest && !(flags & QN_STORE_NO_MIGRATE)) {
        if (ro)
            return qn_err_set(err, QN_EDB, 0, 0,
                              "database schema version %lld is older than "
                              "%d and the database is read-only; run "
                              "'quench db migrate' on a writable copy",
                              ver, latest);
        return qn_store_migrate(s, NULL, NULL, err);
    }
    return QN_OK;
}

/*
 * A database that cannot be opened at all is a missing input (66), as for
 * every other input file (file.h): not there (unless it may be created),
 * a directory, or not readable. SQLite would say only "unable to open
 * database file" (74).
 */
static int can_open(const char *path, unsigned flags, qn_err *err)
{
    struct stat sb;
    int e = 0;

    if (stat(path, &sb) != 0) {
        if (errno != ENOENT || !(flags & QN_STORE_CREATE))
            e = errno;
    } else if (S_ISDIR(sb.st_mode)) {
        e = EISDIR;
    } else if (access(path, R_OK) != 0 && errno == EACCES) {
        e = EACCES; /* unreadable (a read-only one is SQLite's to report) */
    }
    if (!e)
        return QN_OK;
    qn_err_source(err, path);
    return qn_err_set(err, e == EIO ? QN_EIO : QN_ENOTFOUND, 0, 0,
                      "cannot open database: %s", strerror(e));
}

int qn_store_open(qn_store **out, const char *path, unsigned flags,
                  qn_err *err)
{
    qn_store *s;
    int oflags, rc;

    *out = NULL;
    if (!is_memory(path) && (rc = can_open(path, flags, err)) != QN_OK)
        return rc;
    s = QN_NEW(qn_store);
    s->path = qn_xstrdup(path);
    s->busy_ms = DEFAULT_BUSY_MS;
    s->claim_fd = -1;
    oflags = (flags & QN_STORE_READONLY)
                 ? SQLITE_OPEN_READONLY
                 : SQLITE_OPEN_READWRITE |
                       (flags & QN_STORE_CREATE ? SQLITE_OPEN_CREATE : 0);
    rc = sqlite3_open_v2(path, &s->db, oflags | SQLITE_OPEN_NOMUTEX, NULL);
    if (rc != SQLITE_OK) {
        rc = qn_store__fail(s, rc, err);
        goto fail;
    }
    sqlite3_busy_timeout(s->db, s->busy_ms);
    /*
     * Two processes opening a new file at once both try to switch it to
     * WAL and migrate it; SQLite answers one of them SQLITE_BUSY at once,
     * without its busy handler, where waiting could deadlock. setup() is
     * idempotent, so retry it for up to the busy timeout.
     */
    for (int waited = 0;; waited += 10) {
        rc = setup(s, flags, err);
        if (rc != QN_EBUSY || waited >= s->busy_ms)
            break;
        sqlite3_sleep(10);
    }
    if (rc != QN_OK)
        goto fail;
    *out = s;
    return QN_OK;
fail:
    qn_err_source(err, path);
    close_handle(s);
    return rc;
}

void qn_store_close(qn_store *s)
{
    if (!s)
        return;
    if (s->in_batch)
        sqlite3_exec(s->db, "ROLLBACK", NULL, NULL, NULL);
    close_handle(s);
}

const char *qn_store_path(const qn_store *s)
{
    return s->path;
}

void qn_store_set_busy_timeout(qn_store *s, int ms)
{
    s->busy_ms = ms;
    sqlite3_busy_timeout(s->db, ms);
}

/* ---------------------------------------------------------------------
 * Batches.
 */
int qn_store_begin(qn_store *s, qn_err *err)
{
    int rc;

    if (s->in_batch)
        return qn_err_set(err, QN_EINVAL, 0, 0, "a batch is already open");
    if ((rc = qn_store__exec(s, "BEGIN IMMEDIATE", err)) == QN_OK)
        s->in_batch = 1;
    return rc;
}

int qn_store_commit(qn_store *s, qn_err *err)
{
    int rc;

    if (!s->in_batch)
        return qn_err_set(err, QN_EINVAL, 0, 0, "no batch to commit");
    rc = qn_store__exec(s, "COMMIT", err);
    if (rc != QN_OK) /* nothing of the batch may survive a failed commit */
        sqlite3_exec(s->db, "ROLLBACK", NULL, NULL, NULL);
    s->in_batch = 0;
    return rc;
}

int qn_store_rollback(qn_store *s, qn_err *err)
{
    if (!s->in_batch)
        return qn_err_set(err, QN_EINVAL, 0, 0, "no batch to roll back");
    s->in_batch = 0;
    return qn_store__exec(s, "ROLLBACK", err);
}

int qn_store_in_batch(const qn_store *s)
{
    return s->in_batch;
}

/* ---------------------------------------------------------------------
 * Rule sets.
 */
int qn_store_find_rule(qn_store *s, const char *hash, int64_t *id_out,
                       qn_err *err)
{
    sqlite3_stmt *st;
    int rc = prep(s, &st, "SELECT id FROM rules WHERE hash = ?", err), r;

    if (rc != QN_OK)
        return rc;
    bind_text(st, 1, hash);
    r = sqlite3_step(st);
    if (r == SQLITE_ROW)
        *id_out = sqlite3_column_int64(st, 0);
    else if (r == SQLITE_DONE)
        rc = qn_err_set(err, QN_ENOTFOUND, 0, 0, "no rule set with hash %s",
                        hash);
    else
        rc = qn_store__fail(s, r, err);
    sqlite3_finalize(st);
    return rc;
}

int qn_store_find_puzzle(qn_store *s, int64_t rule_id, const uint8_t *canon,
                         size_t canon_len, int64_t *id_out, qn_err *err)
{
    sqlite3_stmt *st;
    int rc = prep(s, &st,
                  "SELECT id FROM puzzles WHERE rule_id = ? AND canon = ?",
                  err),
        r;

    if (rc != QN_OK)
        return rc;
    sqlite3_bind_int64(st, 1, rule_id);
    sqlite3_bind_blob(st, 2, canon, (int)canon_len, SQLITE_STATIC);
    r = sqlite3_step(st);
    if (r == SQLITE_ROW)
        *id_out = sqlite3_column_int64(st, 0);
    else if (r == SQLITE_DONE)
        rc = qn_err_set(err, QN_ENOTFOUND, 0, 0, "no such puzzle");
    else
        rc = qn_store__fail(s, r, err);
    sqlite3_finalize(st);
    return rc;
}

int qn_store_put_rule(qn_store *s, const qn_store_rule *r, int64_t *id_out,
                      qn_err *err)
{
    sqlite3_stmt *st = NULL;
    int rc;

    if ((rc = tx_begin(s, err)) != QN_OK)
        return rc;
    rc = prep(s, &st,
              "INSERT INTO rules (hash, name, yaml, cells, colours, facts) "
              "VALUES (?, ?, ?, ?, ?, ?) ON CONFLICT (hash) DO NOTHING",
              err);
    if (rc == QN_OK) {
        bind_text(st, 1, r->hash);
        bind_text(st, 2, r->name);
        bind_text(st, 3, r->yaml);
        sqlite3_bind_int(st, 4, r->cells);
        sqlite3_bind_int(st, 5, (int)r->colours);
        bind_text(st, 6, r->facts ? r->facts : "");
        rc = step_done(s, st, err);
    }
    sqlite3_finalize(st);
    if (rc == QN_OK) {
        int64_t id;
        if ((rc = qn_store_find_rule(s, r->hash, &id, err)) == QN_OK)
            *id_out = id;
    }
    return tx_end(s, rc, err);
}

/* ---------------------------------------------------------------------
 * Puzzles.
 */
const char *qn_store_provenance_name(qn_store_provenance p)
{
    switch (p) {
    case QN_STORE_GENERATE: return "generate";
    case QN_STORE_VALIDATE: return "validate";
    case QN_STORE_IMPORT: return "import";
    }
    return "import";
}

static int bits_for(unsigned k)
{
    int b = 1;
    while ((1u << b) < k)
        b++;
    return b;
}

size_t qn_store_canon_size(int n, unsigned k)
{
    return ((size_t)n * bits_for(k) + 7) / 8;
}

size_t qn_store_canon_pack(uint8_t *out, const uint8_t *cells, int n,
                           unsigned k)
{
    size_t len = qn_store_canon_size(n, k), bit = 0;
    int b = bits_for(k);

    memset(out, 0, len);
    for (int i = 0; i < n; i++)
        for (int j = 0; j < b; j++, bit++)
            if (cells[i] >> j & 1)
                out[bit / 8] |= (uint8_t)(1u << (bit % 8));
    return len;
}

int qn_store_put_puzzle(qn_store *s, const qn_store_puzzle *p,
                        int64_t *id_out, int *is_new_out, qn_err *err)
{
    sqlite3_stmt *st;
    int rc, r;

    if (!s->put_puzzle &&
        (rc = prep(s, &s->put_puzzle,
                   "INSERT INTO puzzles (rule_id, state, canon, min_presses,"
                   " optimal, witness, grade, grader, seed, stream_index,"
                   " provenance, run_id) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?,"
                   " ?, ?, ?) ON CONFLICT (rule_id, canon) DO NOTHING",
                   err)) != QN_OK)
        return rc;
    st = s->put_puzzle;
    /* The caller's strings outlive the step (reset right below), so
     * SQLITE_STATIC avoids a copy per column on the hot path. */
    sqlite3_bind_int64(st, 1, p->rule_id);
    sqlite3_bind_text(st, 2, p->state, -1, SQLITE_STATIC);
    sqlite3_bind_blob(st, 3, p->canon, (int)p->canon_len, SQLITE_STATIC);
    sqlite3_bind_int64(st, 4, clamp64(p->min_presses));
    sqlite3_bind_int64(st, 5, clamp64(p->noptimal));
    sqlite3_bind_text(st, 6, p->witness, -1, SQLITE_STATIC);
    if (p->grade)
        sqlite3_bind_text(st, 7, p->grade, -1, SQLITE_STATIC);
    else
        sqlite3_bind_null(st, 7);
    sqlite3_bind_text(st, 8, p->grader ? p->grader : "", -1, SQLITE_STATIC);
    if (p->seed)
        sqlite3_bind_text(st, 9, p->seed, -1, SQLITE_STATIC);
    else
        sqlite3_bind_null(st, 9);
    if (p->stream_index >= 0)
        sqlite3_bind_int64(st, 10, p->stream_index);
    else
        sqlite3_bind_null(st, 10);
    sqlite3_bind_text(st, 11, qn_store_provenance_name(p->provenance), -1,
                      SQLITE_STATIC);
    if (p->run_id > 0)
        sqlite3_bind_int64(st, 12, p->run_id);
    else
        sqlite3_bind_null(st, 12);
    r = sqlite3_step(st);
    if (r != SQLITE_DONE) {
        rc = qn_store__fail(s, r, err);
        sqlite3_reset(st);
        sqlite3_clear_bindings(st);
        return rc;
    }
    sqlite3_reset(st);
    if (sqlite3_changes(s->db) == 1) {
        if (id_out)
            *id_out = sqlite3_last_insert_rowid(s->db);
        if (is_new_out)
            *is_new_out = 1;
        sqlite3_clear_bindings(st);
        return QN_OK;
    }
    sqlite3_clear_bindings(st);
    /* a duplicate up to symmetry: report the puzzle that holds the key */
    if (!s->dup_puzzle &&
        (rc = prep(s, &s->dup_puzzle,
                   "SELECT id, run_id, stream_index FROM puzzles"
                   " WHERE rule_id = ? AND canon = ?",
                   err)) != QN_OK)
        return rc;
    st = s->dup_puzzle;
    sqlite3_bind_int64(st, 1, p->rule_id);
    sqlite3_bind_blob(st, 2, p->canon, (int)p->canon_len, SQLITE_STATIC);
    r = sqlite3_step(st);
    if (r == SQLITE_ROW) {
        /* the same run storing the same candidate again: a resumed run */
        int same = p->run_id > 0 && p->stream_index >= 0 &&
                   sqlite3_column_int64(st, 1) == p->run_id &&
                   sqlite3_column_int64(st, 2) == p->stream_index;
        if (id_out)
            *id_out = sqlite3_column_int64(st, 0);
        if (is_new_out)
            *is_new_out = same ? 2 : 0;
        rc = QN_OK;
    } else {
        rc = r == SQLITE_DONE ? qn_err_set(err, QN_ERR, 0, 0,
                                           "puzzle neither inserted nor found")
                              : qn_store__fail(s, r, err);
    }
    sqlite3_reset(st);
    sqlite3_clear_bindings(st);
    return rc;
}

/* ---------------------------------------------------------------------
 * Runs.
 */
/* The resume key (command, rule, seed, options) as parameters 1..4. */
static void bind_run_key(sqlite3_stmt *st, const qn_store_run *run)
{
    bind_text(st, 1, run->command);
    if (run->rule_id > 0)
        sqlite3_bind_int64(st, 2, run->rule_id);
    else
        sqlite3_bind_null(st, 2);
    bind_text(st, 3, run->seed ? run->seed : "");
    bind_text(st, 4, run->options ? run->options : "");
}

static int insert_run(qn_store *s, const qn_store_run *run, int64_t *id_out,
                      qn_err *err)
{
    sqlite3_stmt *st;
    int rc = prep(s, &st,
                  "INSERT INTO runs (key, command, rule_id, seed, options,"
                  " tool_version, requested) VALUES"
                  " (lower(hex(randomblob(16))), ?, ?, ?, ?, ?, ?)",
                  err);

    if (rc != QN_OK)
        return rc;
    bind_run_key(st, run);
    bind_text(st, 5, run->tool_version ? run->tool_version : "");
    sqlite3_bind_int64(st, 6, clamp64(run->requested));
    rc = step_done(s, st, err);
    if (rc == QN_OK)
        *id_out = sqlite3_last_insert_rowid(s->db);
    sqlite3_finalize(st);
    return rc;
}

int qn_store_run_start(qn_store *s, const qn_store_run *run,
                       int64_t *id_out, qn_err *err)
{
    int64_t id = 0;
    int rc = tx_begin(s, err);

    /* claimed before the commit shows it to anyone who might resume it */
    if (rc == QN_OK && (rc = insert_run(s, run, &id, err)) == QN_OK)
        rc = qn_store__claim_run(s, id, err);
    rc = tx_end(s, rc, err);
    if (rc == QN_OK)
        *id_out = id;
    return rc;
}

int qn_store_run_totals(qn_store *s, int64_t run_id, uint64_t *stored_out,
                        uint64_t *duplicates_out, qn_err *err)
{
    sqlite3_stmt *st = NULL;
    int rc, r;

    rc = prep(s, &st, "SELECT stored, duplicates FROM runs WHERE id = ?",
              err);
    if (rc != QN_OK)
        return rc;
    sqlite3_bind_int64(st, 1, run_id);
    r = sqlite3_step(st);
    if (r == SQLITE_ROW) {
        *stored_out = (uint64_t)sqlite3_column_int64(st, 0);
        *duplicates_out = (uint64_t)sqlite3_column_int64(st, 1);
    } else if (r == SQLITE_DONE) {
        rc = qn_err_set(err, QN_ENOTFOUND, 0, 0, "no run %lld",
                        (long long)run_id);
    } else {
        rc = qn_store__fail(s, r, err);
    }
    sqlite3_finalize(st);
    return rc;
}

/* The latest run with run's key: QN_ENOTFOUND when there is none. */
static int find_run(qn_store *s, const qn_store_run *run, int64_t *id_out,
                    uint64_t *next_out, qn_err *err)
{
    sqlite3_stmt *st = NULL;
    int rc, r;

    rc = prep(s, &st,
              "SELECT id, next_index FROM runs WHERE command = ? AND"
              " rule_id IS ? AND seed = ? AND options = ?"
              " ORDER BY id DESC LIMIT 1",
              err);
    if (rc != QN_OK)
        return rc;
    bind_run_key(st, run);
    r = sqlite3_step(st);
    if (r == SQLITE_ROW) {
        *id_out = sqlite3_column_int64(st, 0);
        *next_out = (uint64_t)sqlite3_column_int64(st, 1);
    } else if (r == SQLITE_DONE) {
        rc = qn_err_set(err, QN_ENOTFOUND, 0, 0, "no earlier run");
    } else {
        rc = qn_store__fail(s, r, err);
    }
    sqlite3_finalize(st);
    return rc;
}

/* Claim run id and mark it running again. */
static int resume_run(qn_store *s, int64_t id, qn_err *err)
{
    sqlite3_stmt *st = NULL;
    int rc = qn_store__claim_run(s, id, err);

    if (rc == QN_OK)
        rc = prep(s, &st,
                  "UPDATE runs SET status = 'running', finished = NULL"
                  " WHERE id = ?",
                  err);
    if (rc == QN_OK) {
        sqlite3_bind_int64(st, 1, id);
        rc = step_done(s, st, err);
    }
    sqlite3_finalize(st);
    return rc;
}

int qn_store_run_find(qn_store *s, const qn_store_run *run, int64_t *id_out,
                      uint64_t *next_index_out, qn_err *err)
{
    int64_t id = 0;
    uint64_t next = 0;
    int rc = tx_begin(s, err);

    if (rc == QN_OK && (rc = find_run(s, run, &id, &next, err)) == QN_OK)
        rc = resume_run(s, id, err);
    rc = tx_end(s, rc, err);
    if (rc == QN_OK) {
        if (id_out)
            *id_out = id;
        if (next_index_out)
            *next_index_out = next;
    }
    return rc;
}

int qn_store_run_open(qn_store *s, const qn_store_run *run, int64_t *id_out,
                      int *resumed_out, qn_err *err)
{
    int64_t id = 0;
    uint64_t next = 0;
    int resumed = 1, rc = tx_begin(s, err);

    /* one transaction: two processes starting the same command at once
     * meet here one after the other, and the second finds the first's
     * run (claimed, so it is refused) instead of starting a twin */
    if (rc == QN_OK && (rc = find_run(s, run, &id, &next, err)) == QN_OK)
        rc = resume_run(s, id, err);
    else if (rc == QN_ENOTFOUND && (rc = insert_run(s, run, &id, err)) ==
                                       QN_OK) {
        resumed = 0;
        rc = qn_store__claim_run(s, id, err);
    }
    rc = tx_end(s, rc, err);
    if (rc == QN_OK) {
        *id_out = id;
        if (resumed_out)
            *resumed_out = resumed;
    }
    return rc;
}

int qn_store_run_progress(qn_store *s, int64_t run_id, uint64_t next_index,
                          uint64_t stored, uint64_t duplicates, qn_err *err)
{
    sqlite3_stmt *st;
    int rc = prep(s, &st,
                  "UPDATE runs SET next_index = ?, stored = ?,"
                  " duplicates = ? WHERE id = ?",
                  err);

    if (rc != QN_OK)
        return rc;
    sqlite3_bind_int64(st, 1, clamp64(next_index));
    sqlite3_bind_int64(st, 2, clamp64(stored));
    sqlite3_bind_int64(st, 3, clamp64(duplicates));
    sqlite3_bind_int64(st, 4, run_id);
    rc = step_done(s, st, err);
    if (rc == QN_OK && sqlite3_changes(s->db) != 1)
        rc = qn_err_set(err, QN_ENOTFOUND, 0, 0, "no run %lld",
                        (long long)run_id);
    sqlite3_finalize(st);
    return rc;
}

int qn_store_run_finish(qn_store *s, int64_t run_id, const char *status,
                        qn_err *err)
{
    sqlite3_stmt *st;
    int rc;

    if (strcmp(status, "done") && strcmp(status, "interrupted") &&
        strcmp(status, "failed"))
        return qn_err_set(err, QN_EINVAL, 0, 0, "bad run status '%s'",
                          status);
    rc = prep(s, &st,
              "UPDATE runs SET status = ?, finished ="
              " strftime('%Y-%m-%dT%H:%M:%fZ', 'now') WHERE id = ?",
              err);
    if (rc != QN_OK)
        return rc;
    bind_text(st, 1, status);
    sqlite3_bind_int64(st, 2, run_id);
    rc = step_done(s, st, err);
    if (rc == QN_OK && sqlite3_changes(s->db) != 1)
        rc = qn_err_set(err, QN_ENOTFOUND, 0, 0, "no run %lld",
                        (long long)run_id);
    sqlite3_finalize(st);
    return rc;
}

int qn_store_max_index(qn_store *s, int64_t run_id, uint64_t *out,
                       qn_err *err)
{
    sqlite3_stmt *st;
    int rc = prep(s, &st,
                  "SELECT max(stream_index) FROM puzzles WHERE run_id = ?",
                  err),
        r;

    if (rc != QN_OK)
        return rc;
    sqlite3_bind_int64(st, 1, run_id);
    r = sqlite3_step(st);
    if (r == SQLITE_ROW && sqlite3_column_type(st, 0) != SQLITE_NULL)
        *out = (uint64_t)sqlite3_column_int64(st, 0);
    else if (r == SQLITE_ROW || r == SQLITE_DONE)
        rc = qn_err_set(err, QN_ENOTFOUND, 0, 0,
                        "run %lld stored no indexed puzzle", (long long)run_id);
    else
        rc = qn_store__fail(s, r, err);
    sqlite3_finalize(st);
    return rc;
}

/* ---------------------------------------------------------------------
 * Packs.
 */
static int pack_exists(qn_store *s, int64_t pack_id, qn_err *err)
{
    sqlite3_stmt *st;
    int rc = prep(s, &st, "SELECT 1 FROM packs WHERE id = ?", err), r;

    if (rc != QN_OK)
        return rc;
    sqlite3_bind_int64(st, 1, pack_id);
    r = sqlite3_step(st);
    if (r == SQLITE_DONE)
        rc = qn_err_set(err, QN_ENOTFOUND, 0, 0, "no pack with id %lld",
                        (long long)pack_id);
    else if (r != SQLITE_ROW)
        rc = qn_store__fail(s, r, err);
    sqlite3_finalize(st);
    return rc;
}

int qn_store_pack_find(qn_store *s, const char *name, int64_t *id_out,
                       qn_err *err)
{
    sqlite3_stmt *st;
    int rc = prep(s, &st, "SELECT id FROM packs WHERE name = ?", err), r;

    if (rc != QN_OK)
        return rc;
    bind_text(st, 1, name);
    r = sqlite3_step(st);
    if (r == SQLITE_ROW)
        *id_out = sqlite3_column_int64(st, 0);
    else if (r == SQLITE_DONE)
        rc = qn_err_set(err, QN_ENOTFOUND, 0, 0, "no pack named '%s'", name);
    else
        rc = qn_store__fail(s, r, err);
    sqlite3_finalize(st);
    return rc;
}

/*
 * QN_OK when no pack but `self` (0: none) is named `name`; QN_EINVAL when
 * another is; any other error of the lookup (out of memory, I/O) as it
 * is, never taken for "no such pack".
 */
static int name_free(qn_store *s, const char *name, int64_t self,
                     qn_err *err)
{
    int64_t other = 0;
    qn_err e = QN_ERR_INIT;
    int rc = qn_store_pack_find(s, name, &other, &e);

    if (rc == QN_ENOTFOUND || (rc == QN_OK && other == self))
        return QN_OK;
    if (rc == QN_OK)
        return qn_err_set(err, QN_EINVAL, 0, 0, "pack '%s' already exists",
                          name);
    if (err)
        *err = e;
    return rc;
}

int qn_store_pack_create(qn_store *s, const qn_store_pack *p,
                         int64_t *id_out, qn_err *err)
{
    sqlite3_stmt *st = NULL;
    int64_t id = 0;
    int rc;

    if ((rc = qn_store_pack_check(p, err)) != QN_OK)
        return rc;
    if ((rc = tx_begin(s, err)) != QN_OK)
        return rc;
    rc = name_free(s, p->name, 0, err);
    if (rc == QN_OK)
        rc = prep(s, &st,
                  "INSERT INTO packs (name, title, description, author)"
                  " VALUES (?, ?, ?, ?)",
                  err);
    if (rc == QN_OK) {
        bind_text(st, 1, p->name);
        bind_text(st, 2, p->title ? p->title : "");
        bind_text(st, 3, p->description ? p->description : "");
        bind_text(st, 4, p->author ? p->author : "");
        rc = step_done(s, st, err);
        id = sqlite3_last_insert_rowid(s->db);
    }
    sqlite3_finalize(st);
    rc = tx_end(s, rc, err);
    if (rc == QN_OK)
        *id_out = id;
    return rc;
}

int qn_store_pack_list(qn_store *s, const char *name, qn_store_pack_fn *fn,
                       void *ctx, qn_err *err)
{
    sqlite3_stmt *st;
    int rc, r, n = 0;

    rc = prep(s, &st,
              "SELECT id, name, title, description, author, version,"
              " (SELECT count(*) FROM pack_puzzles WHERE pack_id = id),"
              " created, modified FROM packs"
              " WHERE ?1 IS NULL OR name = ?1 ORDER BY name",
              err);
    if (rc != QN_OK)
        return rc;
    bind_text(st, 1, name);
    while ((r = sqlite3_step(st)) == SQLITE_ROW) {
        qn_store_pack p;
        p.id = sqlite3_column_int64(st, 0);
        p.name = col_str(st, 1);
        p.title = col_str(st, 2);
        p.description = col_str(st, 3);
        p.author = col_str(st, 4);
        p.version = sqlite3_column_int64(st, 5);
        p.count = sqlite3_column_int64(st, 6);
        p.created = col_str(st, 7);
        p.modified = col_str(st, 8);
        n++;
        if ((rc = fn(ctx, &p)) != 0)
            break;
    }
    if (rc == 0 && r != SQLITE_DONE)
        rc = qn_store__fail(s, r, err);
    else if (rc == 0 && name && n == 0)
        rc = qn_err_set(err, QN_ENOTFOUND, 0, 0, "no pack named '%s'", name);
    sqlite3_finalize(st);
    return rc;
}

/* The pack's members in position order, malloc'd (free it). */
static int members(qn_store *s, int64_t pack_id, int64_t **out, size_t *n,
                   qn_err *err)
{
    sqlite3_stmt *st;
    size_t cap = 16, len = 0;
    int64_t *v;
    int rc, r;

    *out = NULL;
    *n = 0;
    rc = prep(s, &st,
              "SELECT puzzle_id FROM pack_puzzles WHERE pack_id = ?"
              " ORDER BY position",
              err);
    if (rc != QN_OK)
        return rc;
    sqlite3_bind_int64(st, 1, pack_id);
    v = QN_NEWN(cap, int64_t);
    while ((r = sqlite3_step(st)) == SQLITE_ROW) {
        if (len == cap)
            v = QN_RENEW(v, cap *= 2, int64_t);
        v[len++] = sqlite3_column_int64(st, 0);
    }
    if (r != SQLITE_DONE) {
        rc = qn_store__fail(s, r, err);
        free(v);
    } else {
        *out = v;
        *n = len;
    }
    sqlite3_finalize(st);
    return rc;
}

static int bump_version(qn_store *s, int64_t pack_id, qn_err *err)
{
    sqlite3_stmt *st = NULL;
    int rc = prep(s, &st,
                  "UPDATE packs SET version = version + 1, modified ="
                  " strftime('%Y-%m-%dT%H:%M:%fZ', 'now') WHERE id = ?",
                  err);

    if (rc == QN_OK) {
        sqlite3_bind_int64(st, 1, pack_id);
        rc = step_done(s, st, err);
    }
    sqlite3_finalize(st);
    return rc;
}

/* Write the membership back as positions 1..n and bump the version. */
static int rewrite(qn_store *s, int64_t pack_id, const int64_t *v, size_t n,
                   qn_err *err)
{
    sqlite3_stmt *st = NULL;
    int rc = prep(s, &st, "DELETE FROM pack_puzzles WHERE pack_id = ?", err);

    if (rc == QN_OK) {
        sqlite3_bind_int64(st, 1, pack_id);
        rc = step_done(s, st, err);
    }
    sqlite3_finalize(st);
    st = NULL;
    if (rc == QN_OK)
        rc = prep(s, &st,
                  "INSERT INTO pack_puzzles (pack_id, puzzle_id, position)"
                  " VALUES (?, ?, ?)",
                  err);
    for (size_t i = 0; rc == QN_OK && i < n; i++) {
        sqlite3_bind_int64(st, 1, pack_id);
        sqlite3_bind_int64(st, 2, v[i]);
        sqlite3_bind_int64(st, 3, (sqlite3_int64)i + 1);
        rc = step_done(s, st, err);
        sqlite3_reset(st);
    }
    sqlite3_finalize(st);
    return rc == QN_OK ? bump_version(s, pack_id, err) : rc;
}

/*
 * Append one puzzle (the pack's common edit: generate --pack, pack add)
 * without reading the membership, so n appends cost O(n log n), not
 * O(n^2). Part of the caller's transaction.
 */
static int append_member(qn_store *s, int64_t pack_id, int64_t puzzle_id,
                         qn_err *err)
{
    sqlite3_stmt *st = NULL;
    int rc = prep(s, &st,
                  "SELECT position FROM pack_puzzles"
                  " WHERE pack_id = ? AND puzzle_id = ?",
                  err),
        r;

    if (rc != QN_OK)
        return rc;
    sqlite3_bind_int64(st, 1, pack_id);
    sqlite3_bind_int64(st, 2, puzzle_id);
    r = sqlite3_step(st);
    if (r == SQLITE_ROW)
        rc = qn_err_set(err, QN_EINVAL, 0, 0,
                        "puzzle %lld is already in the pack (position %lld)",
                        (long long)puzzle_id,
                        (long long)sqlite3_column_int64(st, 0));
    else if (r != SQLITE_DONE)
        rc = qn_store__fail(s, r, err);
    sqlite3_finalize(st);
    st = NULL;
    if (rc == QN_OK)
        rc = prep(s, &st,
                  "INSERT INTO pack_puzzles (pack_id, puzzle_id, position)"
                  " SELECT ?1, ?2, coalesce(max(position), 0) + 1"
                  " FROM pack_puzzles WHERE pack_id = ?1",
                  err);
    if (rc == QN_OK) {
        sqlite3_bind_int64(st, 1, pack_id);
        sqlite3_bind_int64(st, 2, puzzle_id);
        rc = step_done(s, st, err);
    }
    sqlite3_finalize(st);
    return rc == QN_OK ? bump_version(s, pack_id, err) : rc;
}

static size_t find_member(const int64_t *v, size_t n, int64_t puzzle_id)
{
    for (size_t i = 0; i < n; i++)
        if (v[i] == puzzle_id)
            return i;
    return n;
}

static int puzzle_exists(qn_store *s, int64_t puzzle_id, qn_err *err)
{
    sqlite3_stmt *st;
    int rc = prep(s, &st, "SELECT 1 FROM puzzles WHERE id = ?", err), r;

    if (rc != QN_OK)
        return rc;
    sqlite3_bind_int64(st, 1, puzzle_id);
    r = sqlite3_step(st);
    if (r == SQLITE_DONE)
        rc = qn_err_set(err, QN_ENOTFOUND, 0, 0, "no puzzle with id %lld",
                        (long long)puzzle_id);
    else if (r != SQLITE_ROW)
        rc = qn_store__fail(s, r, err);
    sqlite3_finalize(st);
    return rc;
}

enum pack_op { OP_ADD, OP_REMOVE, OP_MOVE, OP_SORT };

/* One membership edit in its own transaction: read, edit, rewrite. */
static int pack_edit(qn_store *s, enum pack_op op, int64_t pack_id,
                     int64_t puzzle_id, int64_t position, qn_err *err)
{
    int64_t *v = NULL;
    size_t n = 0, at;
    int rc;

    if ((rc = tx_begin(s, err)) != QN_OK)
        return rc;
    if ((rc = pack_exists(s, pack_id, err)) != QN_OK ||
        (op != OP_SORT && (rc = puzzle_exists(s, puzzle_id, err)) != QN_OK))
        goto done;
    if (op == OP_ADD && position == 0) {
        rc = append_member(s, pack_id, puzzle_id, err);
        goto done;
    }
    if ((rc = members(s, pack_id, &v, &n, err)) != QN_OK)
        goto done;
    at = op == OP_SORT ? n : find_member(v, n, puzzle_id);
    switch (op) {
    case OP_ADD:
        if (at < n) {
            rc = qn_err_set(err, QN_EINVAL, 0, 0,
                            "puzzle %lld is already in the pack (position "
                            "%zu)",
                            (long long)puzzle_id, at + 1);
            goto done;
        }
        if (position == 0)
            position = (int64_t)n + 1;
        if (position < 1 || position > (int64_t)n + 1) {
            rc = qn_err_set(err, QN_EINVAL, 0, 0,
                            "position %lld is outside 1..%zu",
                            (long long)position, n + 1);
            goto done;
        }
        v = QN_RENEW(v, n + 1, int64_t);
        memmove(v + position, v + position - 1,
                (n - (size_t)(position - 1)) * sizeof(*v));
        v[position - 1] = puzzle_id;
        n++;
        break;
    case OP_REMOVE:
    case OP_MOVE:
        if (at == n) {
            rc = qn_err_set(err, QN_ENOTFOUND, 0, 0,
                            "puzzle %lld is not in the pack",
                            (long long)puzzle_id);
            goto done;
        }
        if (op == OP_MOVE && (position < 1 || position > (int64_t)n)) {
            rc = qn_err_set(err, QN_EINVAL, 0, 0,
                            "position %lld is outside 1..%zu",
                            (long long)position, n);
            goto done;
        }
        memmove(v + at, v + at + 1, (n - at - 1) * sizeof(*v));
        n--;
        if (op == OP_MOVE) {
            memmove(v + position, v + position - 1,
                    (n - (size_t)(position - 1)) * sizeof(*v));
            v[position - 1] = puzzle_id;
            n++;
        }
        break;
    case OP_SORT: {
        sqlite3_stmt *st;
        size_t i = 0;
        int r;
        rc = prep(s, &st,
                  "SELECT p.id FROM pack_puzzles pp JOIN puzzles p"
                  " ON p.id = pp.puzzle_id WHERE pp.pack_id = ?"
                  " ORDER BY p.min_presses, p.id",
                  err);
        if (rc != QN_OK)
            goto done;
        sqlite3_bind_int64(st, 1, pack_id);
        while ((r = sqlite3_step(st)) == SQLITE_ROW && i < n)
            v[i++] = sqlite3_column_int64(st, 0);
        if (r != SQLITE_DONE && r != SQLITE_ROW)
            rc = qn_store__fail(s, r, err);
        sqlite3_finalize(st);
        if (rc != QN_OK)
            goto done;
        break;
    }
    }
    rc = rewrite(s, pack_id, v, n, err);
done:
    free(v);
    return tx_end(s, rc, err);
}

int qn_store_pack_add(qn_store *s, int64_t pack_id, int64_t puzzle_id,
                      int64_t position, qn_err *err)
{
    return pack_edit(s, OP_ADD, pack_id, puzzle_id, position, err);
}

int qn_store_pack_remove(qn_store *s, int64_t pack_id, int64_t puzzle_id,
                         qn_err *err)
{
    return pack_edit(s, OP_REMOVE, pack_id, puzzle_id, 0, err);
}

int qn_store_pack_move(qn_store *s, int64_t pack_id, int64_t puzzle_id,
                       int64_t position, qn_err *err)
{
    return pack_edit(s, OP_MOVE, pack_id, puzzle_id, position, err);
}

int qn_store_pack_sort(qn_store *s, int64_t pack_id, qn_err *err)
{
    return pack_edit(s, OP_SORT, pack_id, 0, 0, err);
}

int qn_store_pack_rename(qn_store *s, int64_t pack_id, const char *name,
                         qn_err *err)
{
    sqlite3_stmt *st = NULL;
    int rc;

    if ((rc = qn_store_pack_check_name(name, err)) != QN_OK)
        return rc;
    if ((rc = tx_begin(s, err)) != QN_OK)
        return rc;
    rc = pack_exists(s, pack_id, err);
    if (rc == QN_OK)
        rc = name_free(s, name, pack_id, err);
    if (rc == QN_OK)
        rc = prep(s, &st,
                  "UPDATE packs SET name = ?, version = version + 1,"
                  " modified = strftime('%Y-%m-%dT%H:%M:%fZ', 'now')"
                  " WHERE id = ?",
                  err);
    if (rc == QN_OK) {
        bind_text(st, 1, name);
        sqlite3_bind_int64(st, 2, pack_id);
        rc = step_done(s, st, err);
    }
    sqlite3_finalize(st);
    return tx_end(s, rc, err);
}

int qn_store_pack_delete(qn_store *s, int64_t pack_id, qn_err *err)
{
    sqlite3_stmt *st = NULL;
    int rc;

    if ((rc = tx_begin(s, err)) != QN_OK)
        return rc;
    rc = pack_exists(s, pack_id, err);
    if (rc == QN_OK)
        rc = prep(s, &st, "DELETE FROM packs WHERE id = ?", err);
    if (rc == QN_OK) {
        sqlite3_bind_int64(st, 1, pack_id);
        rc = step_done(s, st, err);
    }
    sqlite3_finalize(st);
    return tx_end(s, rc, err);
}

/* Columns 0..13 of ROW_COLUMNS into a row. The rule's YAML comes with
 * its puzzles from the same statement: a second query for it could
 * disagree with the first in a damaged file (one read through an index,
 * the other through the table). */
#define ROW_COLUMNS                                                         \
    "p.id, p.rule_id, r.hash, r.name, p.state, p.min_presses, p.optimal,"  \
    " p.witness, p.grade, p.grader, p.seed, p.stream_index, p.provenance," \
    " r.yaml"

static void read_row(sqlite3_stmt *st, qn_store_row *row)
{
    row->id = sqlite3_column_int64(st, 0);
    row->rule_id = sqlite3_column_int64(st, 1);
    row->rule_hash = col_str(st, 2);
    row->rule_name = col_str(st, 3);
    row->state = col_str(st, 4);
    row->min_presses = (uint64_t)sqlite3_column_int64(st, 5);
    row->noptimal = (uint64_t)sqlite3_column_int64(st, 6);
    row->witness = col_str(st, 7);
    row->grade = col_text(st, 8);
    row->grader = col_str(st, 9);
    row->seed = col_text(st, 10);
    row->stream_index = sqlite3_column_type(st, 11) == SQLITE_NULL
                            ? -1
                            : sqlite3_column_int64(st, 11);
    row->provenance = col_str(st, 12);
    row->rule_yaml = col_str(st, 13);
    row->position = 0;
}

int qn_store_pack_each(qn_store *s, int64_t pack_id, qn_store_row_fn *fn,
                       void *ctx, qn_err *err)
{
    sqlite3_stmt *st;
    int rc, r;

    if ((rc = pack_exists(s, pack_id, err)) != QN_OK)
        return rc;
    rc = prep(s, &st,
              "SELECT " ROW_COLUMNS ", pp.position FROM pack_puzzles pp"
              " JOIN puzzles p ON p.id = pp.puzzle_id"
              " JOIN rules r ON r.id = p.rule_id"
              " WHERE pp.pack_id = ? ORDER BY pp.position",
              err);
    if (rc != QN_OK)
        return rc;
    sqlite3_bind_int64(st, 1, pack_id);
    while ((r = sqlite3_step(st)) == SQLITE_ROW) {
        qn_store_row row;
        read_row(st, &row);
        row.position = sqlite3_column_int64(st, 14);
        if ((rc = fn(ctx, &row)) != 0)
            break;
    }
    if (rc == 0 && r != SQLITE_DONE)
        rc = qn_store__fail(s, r, err);
    sqlite3_finalize(st);
    return rc;
}

/* ---------------------------------------------------------------------
 * Checking and statistics.
 */
int qn_store_each_puzzle(qn_store *s, qn_store_rule_fn *rule_fn,
                         qn_store_row_fn *puzzle_fn, void *ctx, qn_err *err)
{
    sqlite3_stmt *st;
    int64_t last = 0;
    int rc, r;

    rc = prep(s, &st,
              "SELECT " ROW_COLUMNS " FROM puzzles p"
              " JOIN rules r ON r.id = p.rule_id ORDER BY p.rule_id, p.id",
              err);
    if (rc != QN_OK)
        return rc;
    while ((r = sqlite3_step(st)) == SQLITE_ROW) {
        qn_store_row row;
        read_row(st, &row);
        if (row.rule_id != last) {
            last = row.rule_id;
            if (rule_fn &&
                (rc = rule_fn(ctx, row.rule_id, row.rule_hash, row.rule_name,
                              row.rule_yaml)) != 0)
                break;
        }
        if ((rc = puzzle_fn(ctx, &row)) != 0)
            break;
    }
    if (rc == 0 && r != SQLITE_DONE)
        rc = qn_store__fail(s, r, err);
    sqlite3_finalize(st);
    return rc;
}

int qn_store_check(qn_store *s, int64_t *nproblems_out, qn_err *err)
{
    sqlite3_stmt *st;
    int64_t n = 0;
    int rc, r;
    char first[200] = "";

    if ((rc = prep(s, &st, "PRAGMA integrity_check", err)) != QN_OK)
        return rc;
    while ((r = sqlite3_step(st)) == SQLITE_ROW) {
        const char *t = col_str(st, 0);
        if (!strcmp(t, "ok"))
            continue;
        if (!n++)
            snprintf(first, sizeof(first), "integrity check: %s", t);
    }
    if (r != SQLITE_DONE)
        rc = qn_store__fail(s, r, err);
    sqlite3_finalize(st);
    if (rc == QN_OK && (rc = prep(s, &st, "PRAGMA foreign_key_check", err)) ==
                           QN_OK) {
        while ((r = sqlite3_step(st)) == SQLITE_ROW)
            if (!n++)
                snprintf(first, sizeof(first),
                         "foreign key check: %s row %lld refers to a "
                         "missing %s row",
                         col_str(st, 0), (long long)sqlite3_column_int64(st, 1),
                         col_str(st, 2));
        if (r != SQLITE_DONE)
            rc = qn_store__fail(s, r, err);
        sqlite3_finalize(st);
    }
    if (rc != QN_OK)
        return rc;
    if (nproblems_out)
        *nproblems_out = n;
    if (n) {
        qn_err_source(err, s->path);
        return qn_err_set(err, QN_EDB, 0, 0, "%s (%lld problems)", first,
                          (long long)n);
    }
    return QN_OK;
}

int qn_store_counts_get(qn_store *s, qn_store_counts *out, qn_err *err)
{
    sqlite3_stmt *st;
    int rc, r;

    rc = prep(s, &st,
              "SELECT (SELECT count(*) FROM rules),"
              " (SELECT count(*) FROM puzzles), (SELECT count(*) FROM packs),"
              " (SELECT count(*) FROM pack_puzzles),"
              " (SELECT count(*) FROM runs)",
              err);
    if (rc != QN_OK)
        return rc;
    if ((r = sqlite3_step(st)) == SQLITE_ROW) {
        out->rules = sqlite3_column_int64(st, 0);
        out->puzzles = sqlite3_column_int64(st, 1);
        out->packs = sqlite3_column_int64(st, 2);
        out->pack_entries = sqlite3_column_int64(st, 3);
        out->runs = sqlite3_column_int64(st, 4);
    } else {
        rc = qn_store__fail(s, r, err);
    }
    sqlite3_finalize(st);
    return rc;
}

int qn_store_histogram(qn_store *s, qn_store_hist_fn *fn, void *ctx,
                       qn_err *err)
{
    sqlite3_stmt *st;
    int rc, r;

    rc = prep(s, &st,
              "SELECT r.name, r.hash, p.min_presses, count(*) FROM puzzles p"
              " JOIN rules r ON r.id = p.rule_id"
              " GROUP BY p.rule_id, p.min_presses"
              " ORDER BY r.name, r.id, p.min_presses",
              err);
    if (rc != QN_OK)
        return rc;
    while ((r = sqlite3_step(st)) == SQLITE_ROW)
        if ((rc = fn(ctx, col_str(st, 0), col_str(st, 1),
                     (uint64_t)sqlite3_column_int64(st, 2),
                     sqlite3_column_int64(st, 3))) != 0)
            break;
    if (rc == 0 && r != SQLITE_DONE)
        rc = qn_store__fail(s, r, err);
    sqlite3_finalize(st);
    return rc;
}

/* ---------------------------------------------------------------------
 * Merging shard databases.
 */
static const char *const merge_sql[] = {
    /* rules by hash */
    "INSERT OR IGNORE INTO main.rules (hash, name, yaml, cells, colours,"
    " facts, added) SELECT hash, name, yaml, cells, colours, facts, added"
    " FROM src.rules ORDER BY id",
    /* runs by key, rule ids mapped through the hash */
    "INSERT OR IGNORE INTO main.runs (key, command, rule_id, seed, options,"
    " tool_version, requested, stored, duplicates, next_index, started,"
    " finished, status) SELECT r.key, r.command, (SELECT m.id FROM"
    " main.rules m JOIN src.rules sr ON sr.hash = m.hash WHERE sr.id ="
    " r.rule_id), r.seed, r.options, r.tool_version, r.requested, r.stored,"
    " r.duplicates, r.next_index, r.started, r.finished, r.status"
    " FROM src.runs r ORDER BY r.id",
    /* puzzles by (rule, canon); of two copies of one puzzle from the same
     * seed the earliest stream index wins, as it does in a single run,
     * whatever order the shards are merged in */
    "INSERT INTO main.puzzles (rule_id, state, canon,"
    " min_presses, optimal, witness, grade, grader, seed, stream_index,"
    " provenance, run_id) SELECT mr.id, p.state, p.canon, p.min_presses,"
    " p.optimal, p.witness, p.grade, p.grader, p.seed, p.stream_index,"
    " p.provenance, (SELECT m.id FROM main.runs m WHERE m.key = sru.key)"
    " FROM src.puzzles p JOIN src.rules sr ON sr.id = p.rule_id"
    " JOIN main.rules mr ON mr.hash = sr.hash"
    " LEFT JOIN src.runs sru ON sru.id = p.run_id"
    " WHERE true ORDER BY sr.hash, p.seed, p.stream_index, p.id"
    " ON CONFLICT (rule_id, canon) DO UPDATE SET state = excluded.state,"
    " min_presses = excluded.min_presses, optimal = excluded.optimal,"
    " witness = excluded.witness, grade = excluded.grade,"
    " grader = excluded.grader, stream_index = excluded.stream_index,"
    " provenance = excluded.provenance, run_id = excluded.run_id"
    " WHERE excluded.seed IS puzzles.seed"
    " AND excluded.stream_index < puzzles.stream_index",
    /* packs by name */
    "INSERT OR IGNORE INTO main.packs (name, title, description, author,"
    " version, created, modified) SELECT name, title, description, author,"
    " version, created, modified FROM src.packs ORDER BY id",
};

#define NMERGE (sizeof(merge_sql) / sizeof(*merge_sql))

/* Pack members not yet in their pack, appended in the shard's order. */
static int merge_members(qn_store *s, int64_t *added, qn_err *err)
{
    sqlite3_stmt *sel = NULL, *ins = NULL;
    int64_t pack = 0, pos = 0;
    int rc, r;

    rc = prep(s, &sel,
              "SELECT mp.id, mz.id, (SELECT coalesce(max(x.position), 0)"
              " FROM main.pack_puzzles x WHERE x.pack_id = mp.id)"
              " FROM src.pack_puzzles spp JOIN src.packs sp"
              " ON sp.id = spp.pack_id JOIN main.packs mp ON mp.name = sp.name"
              " JOIN src.puzzles sz ON sz.id = spp.puzzle_id"
              " JOIN src.rules sr ON sr.id = sz.rule_id"
              " JOIN main.rules mr ON mr.hash = sr.hash"
              " JOIN main.puzzles mz ON mz.rule_id = mr.id"
              " AND mz.canon = sz.canon"
              " WHERE NOT EXISTS (SELECT 1 FROM main.pack_puzzles y"
              " WHERE y.pack_id = mp.id AND y.puzzle_id = mz.id)"
              " ORDER BY mp.id, spp.position",
              err);
    if (rc == QN_OK)
        rc = prep(s, &ins,
                  "INSERT INTO main.pack_puzzles (pack_id, puzzle_id,"
                  " position) VALUES (?, ?, ?)",
                  err);
    /* the whole selection is read before the first insert changes it */
    while (rc == QN_OK && (r = sqlite3_step(sel)) == SQLITE_ROW) {
        int64_t p = sqlite3_column_int64(sel, 0);
        if (p != pack) {
            pack = p;
            pos = sqlite3_column_int64(sel, 2);
        }
        if (pos == INT64_MAX) { /* positions are 1..count: a damaged pack */
            qn_err_source(err, s->path);
            rc = qn_err_set(err, QN_EDB, 0, 0,
                            "pack %lld has a member at position %lld and "
                            "no room after it: the database is damaged",
                            (long long)p, (long long)pos);
            break;
        }
        sqlite3_bind_int64(ins, 1, p);
        sqlite3_bind_int64(ins, 2, sqlite3_column_int64(sel, 1));
        sqlite3_bind_int64(ins, 3, ++pos);
        rc = step_done(s, ins, err);
        sqlite3_reset(ins);
        ++*added;
    }
    if (rc == QN_OK && r != SQLITE_DONE)
        rc = qn_store__fail(s, r, err);
    sqlite3_finalize(sel);
    sqlite3_finalize(ins);
    return rc;
}

static int merge_check_pack(void *err, const qn_store_pack *p)
{
    return qn_store_pack_check(p, err);
}

/* Attach in_path as src. A merge whose DETACH failed (it needs memory
 * too) left src attached, and ATTACH then failed with "database src is
 * already in use" (found by failing SQLite's allocations,
 * tests/faults.sh): detach such a leftover first. */
static int merge_attach(qn_store *s, const char *in_path, qn_err *err)
{
    long long left = 0;
    sqlite3_stmt *at = NULL;
    int rc;

    rc = qn_store__int(s,
                       "SELECT count(*) FROM pragma_database_list"
                       " WHERE name = 'src'",
                       &left, err);
    if (rc == QN_OK && left)
        rc = qn_store__exec(s, "DETACH DATABASE src", err);
    if (rc == QN_OK)
        rc = prep(s, &at, "ATTACH DATABASE ? AS src", err);
    if (rc != QN_OK)
        return rc;
    bind_text(at, 1, in_path);
    rc = step_done(s, at, err);
    sqlite3_finalize(at);
    return rc;
}

/* PRAGMA quick_check of the schema db ("main", "src"): QN_OK when it
 * says ok, else QN_EDB with its first finding and *damaged set (a check
 * that could not run leaves it 0). */
static int quick_check(qn_store *s, const char *db, int *damaged, qn_err *err)
{
    sqlite3_stmt *st;
    int rc = prep(s, &st, "SELECT quick_check FROM pragma_quick_check(1, ?)",
                  err),
        r;

    if (rc != QN_OK)
        return rc;
    bind_text(st, 1, db);
    r = sqlite3_step(st);
    *damaged = r == SQLITE_ROW && strcmp(col_str(st, 0), "ok");
    if (*damaged) {
        /* "*** in database main ***\nPage 7: ..." on one line */
        const char *why = col_str(st, 0), *nl = strrchr(why, '\n');
        rc = qn_err_set(err, QN_EDB, 0, 0, "database is damaged: %s",
                        nl ? nl + 1 : why);
    }
    else if (r != SQLITE_ROW && r != SQLITE_DONE)
        rc = qn_store__fail(s, r, err);
    sqlite3_finalize(st);
    return rc;
}

/* What keeps in_path from being merged: missing, foreign, newer, at
 * another schema version, or damaged. Errors name in_path. */
static int merge_input_ok(const char *in_path, int deep, long long *npuzzles,
                          qn_err *err)
{
    qn_store *in = NULL;
    int rc, ver, damaged;

    rc = qn_store_open(&in, in_path, QN_STORE_READONLY | QN_STORE_NO_MIGRATE,
                       err);
    if (rc == QN_OK && (rc = qn_store_version(in, &ver, err)) == QN_OK &&
        ver != qn_store_schema_version())
        rc = qn_err_set(err, QN_EINVAL, 0, 0,
                        "schema version %d, expected %d; run 'quench db "
                        "migrate' on it first",
                        ver, qn_store_schema_version());
    /* quick_check reads every page and record once: a damaged input is
     * refused before OUT changes, not found half-way into the merge */
    if (rc == QN_OK && deep)
        rc = quick_check(in, "main", &damaged, err);
    /* its packs pass the checks of every other way in (an older quench,
     * or sqlite3, may have written anything) */
    if (rc == QN_OK)
        rc = qn_store_pack_list(in, NULL, merge_check_pack, err, err);
    if (rc == QN_OK && npuzzles)
        rc = qn_store__int(in, "SELECT count(*) FROM puzzles", npuzzles, err);
    qn_store_close(in);
    if (rc != QN_OK)
        qn_err_source(err, in_path);
    return rc;
}

int qn_store_merge_check(const char *in_path, qn_err *err)
{
    return merge_input_ok(in_path, 1, NULL, err);
}

/*
 * A merge statement failed: SQLite says "malformed" whichever of the two
 * files is damaged. Name the input when it is the damaged one.
 */
static void blame_input(qn_store *s, const char *in_path, qn_err *err)
{
    int damaged = 0;

    if (err && err->code == QN_EDB) {
        quick_check(s, "src", &damaged, NULL);
        if (damaged)
            qn_err_source(err, in_path);
    }
}

int qn_store_merge(qn_store *s, const char *in_path,
                   qn_store_merge_stats *stats_out, qn_err *err)
{
    qn_store_merge_stats st = {0, 0, 0, 0, 0, 0};
    int64_t dummy, *fields[] = {&st.rules, &st.runs, &dummy, &st.packs};
    long long nsrc = 0, before = 0, after = 0;
    int rc;

    if (s->in_batch)
        return qn_err_set(err, QN_EINVAL, 0, 0, "cannot merge inside a batch");
    /* open the input on its own first: missing, foreign, newer or
     * corrupt inputs are reported against their own path */
    if ((rc = merge_input_ok(in_path, 0, &nsrc, err)) != QN_OK)
        return rc;
    if ((rc = merge_attach(s, in_path, err)) != QN_OK)
        return rc;
    rc = tx_begin(s, err);
    if (rc == QN_OK)
        rc = qn_store__int(s, "SELECT count(*) FROM main.puzzles", &before,
                           err);
    for (size_t i = 0; rc == QN_OK && i < NMERGE; i++)
        if ((rc = qn_store__exec(s, merge_sql[i], err)) == QN_OK)
            *fields[i] = sqlite3_changes64(s->db);
    if (rc == QN_OK &&
        (rc = qn_store__int(s, "SELECT count(*) FROM main.puzzles", &after,
                            err)) == QN_OK)
        st.puzzles = after - before;
    if (rc == QN_OK)
        rc = merge_members(s, &st.pack_entries, err);
    rc = tx_end(s, rc, err);
    if (rc != QN_OK) { /* err says why; the next merge detaches src */
        blame_input(s, in_path, err);
        sqlite3_exec(s->db, "DETACH DATABASE src", NULL, NULL, NULL);
        return rc;
    }
    /* The input is merged. A DETACH that fails (it needs memory) is
     * reported all the same: the caller may stop there, and merging the
     * input again adds nothing. */
    if ((rc = qn_store__exec(s, "DETACH DATABASE src", err)) != QN_OK)
        return rc;
    st.duplicates = nsrc - st.puzzles;
    if (stats_out)
        *stats_out = st;
    return QN_OK;
}
