/*
 * store_internal.h: what store.c and store_migrate.c share: the handle's
 * layout, the error mapping, and the migrations table that the Makefile
 * generates from the db/migrations SQL files into build/gen/migrations.c.
 */
#ifndef QN_STORE_INTERNAL_H
#define QN_STORE_INTERNAL_H

#include <stddef.h>
#include <stdint.h>

#include "quench/err.h"
#include "quench/store.h"

struct qn_migration {
    int number;       /* NNNN of NNNN_name.sql: 1, 2, ... without gaps */
    const char *name; /* "0001_initial" */
    const char *sql;  /* the whole file */
};
extern const struct qn_migration qn_migrations[];
extern const size_t qn_nmigrations;

struct sqlite3;
struct sqlite3_stmt;

struct qn_store {
    struct sqlite3 *db;
    char *path;
    int in_batch;                    /* a qn_store_begin is open */
    int busy_ms;                     /* busy timeout, for messages */
    struct sqlite3_stmt *put_puzzle; /* cached: INSERT .. DO NOTHING */
    struct sqlite3_stmt *dup_puzzle; /* cached: id by (rule, canon) */
    int claim_fd;                    /* PATH-lock, holding run claims; -1 */
};

/* Map an SQLite result code (and the connection's message) to err:
 * QN_EBUSY for BUSY/LOCKED, else QN_EDB. Returns the code. */
int qn_store__fail(qn_store *s, int rc, qn_err *err);
/* sqlite3_exec without results; failures through qn_store__fail. */
int qn_store__exec(qn_store *s, const char *sql, qn_err *err);
/* store_claim.c: claim run_id for this connection (store.h, "Runs are
 * claimed"); QN_EBUSY when another holds it. */
int qn_store__claim_run(qn_store *s, int64_t run_id, qn_err *err);
/* Release every claim of the connection (at close). */
void qn_store__claims_release(qn_store *s);
/* One integer from a one-row query (e.g. a PRAGMA). */
int qn_store__int(qn_store *s, const char *sql, long long *out, qn_err *err);

#endif
