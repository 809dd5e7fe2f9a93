/*
 * cmd_solve_id.c: a stored puzzle named on the command line by its id (or
 * a unique prefix, or #ROW), with the rule stored with it, so `solve --id`
 * and `show ID` need nothing but the database.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/mem.h"
#include "cmd.h"
#include "rules/rules.h"
#include "solve/solver.h"
#include "store/store.h"

typedef struct id_load {
    qn_rules **r;
    char **state;
    cmd_stored *info;
    char source[128];
    qn_err *err;
} id_load;

static int take_row(void *ctx, const qn_store_row *row)
{
    id_load *l = ctx;

    if (qn_rules_load_buf(l->r, row->rule_yaml, strlen(row->rule_yaml),
                          l->source, l->err) != QN_OK)
        return l->err->code;
    *l->state = cli_xstrdup(row->state);
    if (l->info) {
        l->info->uid = row->uid;
        l->info->min_presses = row->min_presses;
        snprintf(l->info->grade, sizeof(l->info->grade), "%s",
                 row->grade ? row->grade : "");
    }
    return 0;
}

int cmd_load_stored(const cli_ctx *ctx, const char *cmd, const char *db,
                    const char *ref, qn_rules **r, char **state,
                    cmd_stored *info)
{
    const char *path = cmd_db_path(db);
    qn_store *s = NULL;
    qn_err err = QN_ERR_INIT;
    int64_t row = 0;
    id_load l;
    int rc, st = cmd_open_store(ctx, path, QN_STORE_READONLY, &s);

    if (st)
        return st;
    l.r = r;
    l.state = state;
    l.info = info;
    l.err = &err;
    snprintf(l.source, sizeof(l.source), "%s: the rule of puzzle %s", path,
             ref);
    rc = qn_store_puzzle_resolve(s, ref, &row, &err);
    if (rc == QN_EINVAL) {
        qn_store_close(s);
        return cli_usage_error("%s: %s", cmd, err.msg);
    }
    if (rc == QN_OK)
        rc = qn_store_puzzle_row(s, row, take_row, &l, &err);
    if (rc != QN_OK && !err.source[0])
        qn_err_source(&err, path);
    qn_store_close(s);
    return rc == QN_OK ? QN_EXIT_OK : cli_report(ctx, &err);
}

int cmd_solve_load_id(const cli_ctx *ctx, const solve_opts *o, qn_rules **r,
                      qn_solver **g, char **state)
{
    qn_err err = QN_ERR_INIT;
    int st = cmd_load_stored(ctx, "solve", o->db, o->id, r, state, NULL);

    if (st != QN_EXIT_OK)
        return st;
    if (qn_solver_new(g, *r, &err) == QN_OK)
        return QN_EXIT_OK;
    free(*state);
    *state = NULL;
    qn_err_source(&err, cmd_db_path(o->db));
    return cli_report(ctx, &err);
}
