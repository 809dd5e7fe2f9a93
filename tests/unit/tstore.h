/*
 * tstore.h: a stored puzzle's id for the unit tests that read a database
 * on a connection of their own. Since migration 0009 no row keeps its id:
 * it is a function of the row's state, computed here from the rules the
 * test loaded itself (the canonical form under the rule's symmetries,
 * SipHash keyed by the rule's hash: puzzle_id.h; tests/puzzle_id.py
 * checks the same against an implementation of its own). Include after
 * t.h and tsql.h.
 */
#ifndef QN_TSTORE_H
#define QN_TSTORE_H

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include <sqlite3.h>

#include "rules/canon.h"
#include "rules/puzzle_id.h"
#include "rules/rules.h"
#include "solve/solver.h"
#include "store/store.h"
#include "t.h"

/* The rules t_uid knows, by their hashes: at most T_UID_RULES. */
#define T_UID_RULES 8
typedef struct t_uid_rules {
    const qn_rules *r[T_UID_RULES];
    char hash[T_UID_RULES][65];
    size_t n;
} t_uid_rules;

/* The id of a state packed as a row keeps it, under r (hash: r's) */
static inline uint64_t t_state_id(const qn_rules *r, const char *hash,
                                  const void *packed, size_t len)
{
    int n = qn_rules_ncells(r);
    unsigned k = qn_rules_colours(r);
    uint8_t *cells = calloc((size_t)n + 1, 1), *form = calloc((size_t)n + 1, 1);
    qn_puzzle_id_key key;
    uint64_t id = 0;

    if (cells && form && len == qn_store_canon_size(n, k)) {
        qn_store_canon_unpack(cells, packed, n, k);
        qn_canon_form(r, form, cells);
        qn_puzzle_id_key_init(&key, hash);
        id = qn_puzzle_id(&key, form, n);
    }
    free(cells);
    free(form);
    return id;
}

static inline void t_uid_fn(sqlite3_context *ctx, int argc, sqlite3_value **v)
{
    const t_uid_rules *u = sqlite3_user_data(ctx);
    const char *hash = (const char *)sqlite3_value_text(v[0]);

    (void)argc;
    for (size_t i = 0; hash && i < u->n; i++)
        if (!strcmp(u->hash[i], hash)) {
            sqlite3_result_int64(ctx, (sqlite3_int64)t_state_id(
                                          u->r[i], u->hash[i],
                                          sqlite3_value_blob(v[1]),
                                          (size_t)sqlite3_value_bytes(v[1])));
            return;
        }
    sqlite3_result_error(ctx, "t_uid: a rule the test did not load", -1);
}

/* Register t_uid(hash, state) on db: the id of a row, as in
 *   SELECT t_uid(r.hash, p.state), p.id FROM puzzles p
 *   JOIN rules r ON r.id = p.rule_id
 * (an error for a rule not in u, which must outlive db's use of it). */
static inline void t_uid_register(sqlite3 *db, t_uid_rules *u)
{
    T_EQ(sqlite3_create_function(db, "t_uid", 2, SQLITE_UTF8, u, t_uid_fn, NULL,
                                 NULL),
         SQLITE_OK);
}

/* Add r (its hash computed) to u. */
static inline void t_uid_add(t_uid_rules *u, const qn_rules *r)
{
    T_CHECK(u->n < T_UID_RULES);
    if (u->n < T_UID_RULES) {
        u->r[u->n] = r;
        qn_rules_hash(r, u->hash[u->n]);
        u->n++;
    }
}

/* path as schema 7 left it, for migration 8 to build its key runs when
 * the store next opens it: no key_runs, and each row's id (t_uid) in a
 * uid column, which 0009 drops again (added at the table's end: the
 * migrations name their columns). Rows written by hand are in no run
 * until then. */
static inline void t_as_schema7(const char *path, t_uid_rules *u)
{
    sqlite3 *db;

    T_EQ(sqlite3_open(path, &db), SQLITE_OK);
    t_uid_register(db, u);
    T_EQ(sqlite3_exec(db,
                      "ALTER TABLE puzzles ADD COLUMN uid INTEGER;"
                      "UPDATE puzzles SET uid = (SELECT t_uid(r.hash,"
                      " puzzles.state) FROM rules r WHERE r.id ="
                      " puzzles.rule_id);"
                      "DROP TABLE key_runs; PRAGMA user_version = 7",
                      NULL, NULL, NULL),
         SQLITE_OK);
    sqlite3_close(db);
}

/*
 * The classic 5x5 set-up of test_store and test_store_merge: a new
 * directory from the template tmpdir, the rules with their solver and
 * hash, and the rules known to t_uid. 1 when all is there, else 0 with
 * the reason on stderr (the test cannot run).
 */
static inline int t_classic_setup(char *tmpdir, qn_rules **rules,
                                  qn_solver **game, char hash[65],
                                  t_uid_rules *known)
{
    if (!mkdtemp(tmpdir)) {
        perror("mkdtemp");
        return 0;
    }
    if (qn_rules_load_file(rules, "rules/classic-5x5.yaml", NULL) != QN_OK ||
        qn_solver_new(game, *rules, NULL) != QN_OK) {
        fprintf(stderr, "cannot load rules/classic-5x5.yaml\n");
        return 0;
    }
    qn_rules_hash(*rules, hash);
    t_uid_add(known, *rules);
    return 1;
}

#endif
