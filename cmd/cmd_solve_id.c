/*
 * cmd_solve_id.c: `quench solve --id ID`: a stored puzzle, named by its
 * id (or a unique prefix, or #ROW), solved under the rule stored with it,
 * so the answer needs nothing but the database.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cmd.h"
#include "quench/mem.h"
#include "quench/rules.h"
#include "quench/solver.h"
#include "quench/store.h"

typedef struct id_load {
    qn_rules **r;
    char **state;
    char source[128];
    qn_err *err;
} id_load;

static int take_row(void *ctx, const qn_store_row *row)
{
    id_load *l = ctx;

    if (qn_rules_load_buf(l->r, row->rule_yaml, strlen(row->rule_yaml),
                          l->source, l->err) != QN_OK)
        return l->err->code;
    *l->state = qn_xstrdup(row->state);
    return 0;
}

int cmd_solve_load_id(const qn_ctx *ctx, const solve_opts *o, qn_rules **r,
                      qn_solver **g, char **state)
{
    const char *path = cmd_db_path(o->db);
    qn_store *s = NULL;
    qn_err err = QN_ERR_INIT;
    int64_t row = 0;
    id_load l;
    int rc, st = cmd_open_store(ctx, path, QN_STORE_READONLY, &s);

    if (st)
        return st;
    l.r = r;
    l.state = state;
    l.err = &err;
    snprintf(l.source, sizeof(l.source), "%s: the rule of puzzle %s", path,
             o->id);
    rc = qn_store_puzzle_resolve(s, o->id, &row, &err);
    if (rc == QN_EINVAL) {
        qn_store_close(s);
        return qn_usage_error("solve: %s", err.msg);
    }
    if (rc == QN_OK)
        rc = qn_store_puzzle_row(s, row, take_row, &l, &err);
    if (rc == QN_OK)
        rc = qn_solver_new(g, *r, &err);
    if (rc != QN_OK && !err.source[0])
        qn_err_source(&err, path);
    qn_store_close(s);
    return rc == QN_OK ? QN_EXIT_OK : qn_report(ctx, &err);
}
