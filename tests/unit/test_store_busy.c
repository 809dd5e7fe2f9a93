/*
 * test_store_busy.c: a run another connection is writing is refused as
 * such (QN_EBUSY, "being written by another process") whichever lock the
 * refused connection meets first (store.h, "Runs are claimed"). The
 * writer of a run holds SQLite's write lock most of the time (its batch
 * is open while it generates); a second copy that waited for that lock
 * first was refused "database is locked" after its busy timeout, never
 * naming the other writer (tests/cli/t470-db-safety.sh under ASan).
 *
 * Connections: A writes the runs (holds their claims), B is the second
 * copy, C a plain SQLite connection that holds the write lock.
 *   1. The run is committed before B starts: B's rule and run are met
 *      without waiting for C's lock, and B is refused by the claim.
 *   2. The run is committed while B waits for C's lock (B's busy handler
 *      has A start it): B's wait ends in QN_EBUSY, and B says why.
 *   3. No one holds the claim, C holds the lock: "database is locked".
 *   4. A rule set B has not seen is stored by A while B waits for C's
 *      lock: B takes A's row as its own (QN_OK, A's id), not "locked".
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <sqlite3.h>

#include "rules/rules.h"
#include "store/store.h"
#include "store/store_internal.h"
#include "t.h"

static char tmpdir[] = "/tmp/qn_store_busy_XXXXXX";
static char path[512];
static qn_store *a, *b;
static sqlite3 *c;
static qn_store_run run2;
static int64_t run2_id;
static int handler_calls, handler_rc;
static qn_rules *rules2;
static int64_t rule2_a;

#define CLAIMED "being written by another process"

static int exec(sqlite3 *db, const char *sql)
{
    return sqlite3_exec(db, sql, NULL, NULL, NULL);
}

static qn_store_run key(const char *seed, int64_t rule_id)
{
    qn_store_run r;

    memset(&r, 0, sizeof(r));
    r.command = "generate";
    r.rule_id = rule_id;
    r.seed = seed;
    r.options = "n=5";
    r.tool_version = "test";
    r.requested = 5;
    return r;
}

/* What A does while B waits: case 2 starts and claims run2, case 4
 * stores rules2. */
static int start_run2(void)
{
    qn_err err = QN_ERR_INIT;

    return qn_store_run_open(a, &run2, &run2_id, NULL, &err);
}

static int store_rule2(void)
{
    qn_err err = QN_ERR_INIT;

    return qn_store_put_ruleset(a, rules2, &rule2_a, &err);
}

/* B's busy handler: on B's first wait, C lets go, A does its part (ctx),
 * C takes the lock again; then B stops waiting. */
static int meanwhile(void *ctx, int n)
{
    int (*a_does)(void) = *(int (**)(void))ctx;

    handler_calls++;
    if (n == 0) {
        handler_rc = exec(c, "COMMIT");
        if (handler_rc == SQLITE_OK)
            handler_rc = a_does();
        if (handler_rc == QN_OK)
            handler_rc = exec(c, "BEGIN IMMEDIATE");
    }
    return 0;
}

int main(void)
{
    qn_err err = QN_ERR_INIT;
    qn_rules *rules = NULL;
    int64_t rule_a = 0, rule_b = 0, id = 0;
    qn_store_run run1;
    int (*case2)(void) = start_run2, (*case4)(void) = store_rule2;

    if (!mkdtemp(tmpdir)) {
        T_FAILF("mkdtemp");
        return t_done();
    }
    snprintf(path, sizeof(path), "%s/busy.db", tmpdir);
    T_EQ(qn_rules_load_file(&rules, "rules/classic-3x3.yaml", &err), QN_OK);
    T_EQ(qn_store_open(&a, path, QN_STORE_CREATE, &err), QN_OK);
    T_EQ(qn_store_put_ruleset(a, rules, &rule_a, &err), QN_OK);
    run1 = key("01", rule_a);
    T_EQ(qn_store_run_open(a, &run1, &id, NULL, &err), QN_OK);
    T_EQ(qn_store_open(&b, path, 0, &err), QN_OK);
    T_EQ(sqlite3_open(path, &c), SQLITE_OK);
    T_EQ(exec(c, "BEGIN IMMEDIATE"), SQLITE_OK);
    qn_store_set_busy_timeout(b, 50);

    /* 1. run committed, C holds the lock: the rule is there (no write),
     * and the claim refuses the run before any wait */
    qn_err_clear(&err);
    T_EQ(qn_store_put_ruleset(b, rules, &rule_b, &err), QN_OK);
    T_EQ(rule_b, rule_a);
    qn_err_clear(&err);
    T_EQ(qn_store_run_open(b, &run1, &id, NULL, &err), QN_EBUSY);
    T_CHECK(strstr(err.msg, CLAIMED) != NULL);
    if (!strstr(err.msg, CLAIMED))
        printf("# case 1 said: %s\n", err.msg);
    qn_err_clear(&err);
    T_EQ(qn_store_run_find(b, &run1, &id, NULL, &err), QN_EBUSY);
    T_CHECK(strstr(err.msg, CLAIMED) != NULL);

    /* 2. the run committed while B waits for C's lock */
    run2 = key("02", rule_a);
    sqlite3_busy_handler(b->db, meanwhile, &case2);
    qn_err_clear(&err);
    T_EQ(qn_store_run_open(b, &run2, &id, NULL, &err), QN_EBUSY);
    T_EQ(handler_calls, 1);
    T_EQ(handler_rc, QN_OK);
    T_CHECK(run2_id > 0);
    T_CHECK(strstr(err.msg, CLAIMED) != NULL);
    if (!strstr(err.msg, CLAIMED))
        printf("# case 2 said: %s\n", err.msg);

    /* 3. a run no one writes, C holds the lock: the lock is the reason */
    qn_store_set_busy_timeout(b, 50);
    {
        qn_store_run run3 = key("03", rule_a);
        qn_err_clear(&err);
        T_EQ(qn_store_run_open(b, &run3, &id, NULL, &err), QN_EBUSY);
        T_CHECK(strstr(err.msg, "database is locked") != NULL);
        T_CHECK(strstr(err.msg, CLAIMED) == NULL);
    }

    /* 4. a rule set A stores while B waits for C's lock is B's too */
    T_EQ(qn_rules_load_file(&rules2, "rules/classic-5x5.yaml", &err), QN_OK);
    handler_calls = 0;
    handler_rc = -1;
    sqlite3_busy_handler(b->db, meanwhile, &case4);
    qn_err_clear(&err);
    rule_b = 0;
    T_EQ(qn_store_put_ruleset(b, rules2, &rule_b, &err), QN_OK);
    T_EQ(handler_calls, 1);
    T_EQ(handler_rc, QN_OK);
    T_CHECK(rule2_a > 0 && rule2_a != rule_a);
    T_EQ(rule_b, rule2_a);
    if (err.code != QN_OK)
        printf("# case 4 said: %s\n", err.msg);
    T_EQ(err.code, QN_OK);
    qn_store_set_busy_timeout(b, 50);

    /* C lets go: A's runs are still refused to B, a new one is B's */
    T_EQ(exec(c, "COMMIT"), SQLITE_OK);
    qn_err_clear(&err);
    T_EQ(qn_store_run_open(b, &run1, &id, NULL, &err), QN_EBUSY);
    T_CHECK(strstr(err.msg, CLAIMED) != NULL);
    {
        qn_store_run run4 = key("04", rule_a);
        T_EQ(qn_store_run_open(b, &run4, &id, NULL, &err), QN_OK);
    }
    /* A closed: its claims go with it, and B resumes its run */
    qn_store_close(a);
    T_EQ(qn_store_run_open(b, &run1, &id, NULL, &err), QN_OK);

    sqlite3_close(c);
    qn_store_close(b);
    qn_rules_free(rules);
    qn_rules_free(rules2);
    t_rmtree(tmpdir);
    return t_done();
}
