/*
 * test_pack_put.c: qn_pack_put (quench/pack.h) stores the rule row of the
 * solver's rule set, as the CLI does (qn_store_put_ruleset): after a put
 * into an empty database there is one rule row, with the rule file's
 * name, its text byte for byte, 25 cells, 2 colours and the all-zero
 * 5x5 layout, and every stored puzzle points at it; more puts (another
 * state, the same state again) add no second row. A row an older quench
 * stored without its layout gets it from the next put.
 *
 * The facts come from the rule file and the board (hand-known), read
 * back with SQLite itself, not through the store.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <sqlite3.h>

#include "quench.h"
#include "t.h"

#define RULES "rules/classic-5x5.yaml"
#define ZERO5 "00000/00000/00000/00000/00000"

static char tmpdir[] = "/tmp/qn_pack_put_XXXXXX";

static char *slurp(const char *path, size_t *len)
{
    FILE *f = fopen(path, "rb");
    char *buf = NULL;
    long n;

    if (!f)
        return NULL;
    if (fseek(f, 0, SEEK_END) == 0 && (n = ftell(f)) >= 0 &&
        fseek(f, 0, SEEK_SET) == 0 && (buf = malloc((size_t)n + 1)) &&
        fread(buf, 1, (size_t)n, f) == (size_t)n) {
        buf[n] = 0;
        *len = (size_t)n;
    } else {
        free(buf);
        buf = NULL;
    }
    fclose(f);
    return buf;
}

/* One integer from sql on the database at path (-1 on error). */
static long long one_int(const char *path, const char *sql)
{
    sqlite3 *db = NULL;
    sqlite3_stmt *st = NULL;
    long long v = -1;

    if (sqlite3_open_v2(path, &db, SQLITE_OPEN_READONLY, NULL) == SQLITE_OK &&
        sqlite3_prepare_v2(db, sql, -1, &st, NULL) == SQLITE_OK &&
        sqlite3_step(st) == SQLITE_ROW)
        v = sqlite3_column_int64(st, 0);
    sqlite3_finalize(st);
    sqlite3_close(db);
    return v;
}

/* The one rule row, checked against the rule file's facts. */
static void check_rule_row(const char *path, const char *yaml, size_t yaml_len,
                           const char *hash)
{
    sqlite3 *db = NULL;
    sqlite3_stmt *st = NULL;

    T_EQ(one_int(path, "SELECT count(*) FROM rules"), 1);
    T_EQ(sqlite3_open_v2(path, &db, SQLITE_OPEN_READONLY, NULL), SQLITE_OK);
    T_EQ(sqlite3_prepare_v2(db,
                            "SELECT hash, name, yaml, cells, colours, layout"
                            " FROM rules",
                            -1, &st, NULL),
         SQLITE_OK);
    if (st && sqlite3_step(st) == SQLITE_ROW) {
        const char *h = (const char *)sqlite3_column_text(st, 0);
        const char *name = (const char *)sqlite3_column_text(st, 1);
        const void *y = sqlite3_column_blob(st, 2);
        int ylen = sqlite3_column_bytes(st, 2);
        const char *layout = (const char *)sqlite3_column_text(st, 5);

        T_CHECK(h && strlen(h) == 64 && strspn(h, "0123456789abcdef") == 64);
        T_CHECK(h && !strcmp(h, hash));
        T_CHECK(name && !strcmp(name, "classic-5x5"));
        T_CHECK(y && (size_t)ylen == yaml_len && !memcmp(y, yaml, yaml_len));
        T_EQ(sqlite3_column_int(st, 3), 25);
        T_EQ(sqlite3_column_int(st, 4), 2);
        T_CHECK(layout && !strcmp(layout, ZERO5));
        if (!layout || strcmp(layout, ZERO5))
            printf("# layout: %s\n", layout ? layout : "NULL");
    } else {
        T_FAILF("no rule row");
    }
    sqlite3_finalize(st);
    sqlite3_close(db);
}

int main(void)
{
    qn_err err = QN_ERR_INIT;
    qn_rules *rules = NULL;
    qn_solver *solver = NULL;
    qn_store *s = NULL;
    uint8_t a[25] = {0}, b[25] = {0};
    char path[512], hash[65];
    size_t yaml_len = 0;
    char *yaml = slurp(RULES, &yaml_len);
    uint64_t uid = 0;
    int is_new = -1;

    T_CHECK(yaml != NULL);
    if (!yaml || !mkdtemp(tmpdir))
        return t_done();
    snprintf(path, sizeof(path), "%s/put.db", tmpdir);
    T_EQ(qn_rules_load_file(&rules, RULES, &err), QN_OK);
    T_EQ(qn_solver_new(&solver, rules, &err), QN_OK);
    qn_rules_hash(rules, hash);
    /* two states a few presses from the goal: solvable, not solved */
    qn_solver_press(solver, a, 0);
    qn_solver_press(solver, a, 12);
    qn_solver_press(solver, b, 7);

    T_EQ(qn_store_open(&s, path, QN_STORE_CREATE, &err), QN_OK);
    T_EQ(one_int(path, "SELECT count(*) FROM rules"), 0);
    T_EQ(qn_pack_put(s, solver, a, "p", &uid, &is_new, &err), QN_OK);
    T_EQ(is_new, 1);
    check_rule_row(path, yaml, yaml_len, hash);
    T_EQ(one_int(path, "SELECT count(*) FROM puzzles p JOIN rules r"
                       " ON p.rule_id = r.id"),
         1);

    /* another state, the same state again, no pack: still one row */
    T_EQ(qn_pack_put(s, solver, b, "p", NULL, &is_new, &err), QN_OK);
    T_EQ(is_new, 1);
    T_EQ(qn_pack_put(s, solver, a, NULL, NULL, &is_new, &err), QN_OK);
    T_EQ(is_new, 0);
    check_rule_row(path, yaml, yaml_len, hash);
    T_EQ(one_int(path, "SELECT count(*) FROM puzzles"), 2);
    T_EQ(one_int(path, "SELECT count(DISTINCT rule_id) FROM puzzles"), 1);
    T_EQ(one_int(path, "SELECT count(*) FROM puzzles p JOIN rules r"
                       " ON p.rule_id = r.id"),
         2);
    qn_store_close(s);

    /* a row an older quench stored without its layout gets it now */
    {
        sqlite3 *db = NULL;
        T_EQ(sqlite3_open(path, &db), SQLITE_OK);
        T_EQ(sqlite3_exec(db, "UPDATE rules SET layout = NULL", NULL, NULL,
                          NULL),
             SQLITE_OK);
        sqlite3_close(db);
    }
    T_EQ(one_int(path, "SELECT count(*) FROM rules WHERE layout IS NULL"), 1);
    T_EQ(qn_store_open(&s, path, 0, &err), QN_OK);
    T_EQ(qn_pack_put(s, solver, b, "p", NULL, &is_new, &err), QN_OK);
    T_EQ(is_new, 0);
    check_rule_row(path, yaml, yaml_len, hash);
    qn_store_close(s);

    qn_solver_free(solver);
    qn_rules_free(rules);
    free(yaml);
    t_rmtree(tmpdir);
    return t_done();
}
