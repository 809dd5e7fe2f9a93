/*
 * cmd_solve_list.c: what `quench solve` adds after its report on request:
 * the solutions by press count (--all, --optimal; plans.h) and the plan
 * played one press at a time (--steps; the boards drawn by term.h).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/jsonw.h"
#include "base/mem.h"
#include "cmd.h"
#include "export/term.h"
#include "rules/state.h"
#include "solve/plans.h"

/*
 * Keep memory flat however long the listing: write what is ready, unless
 * the report goes to stderr at the end (-o - has stdout for the image).
 */
static int flush_some(const solve_opts *o, qn_buf *out)
{
    if (out->len < (1u << 16) || (o->output && !strcmp(o->output, "-")))
        return QN_EXIT_OK;
    return cmd_flush_out(out);
}

/* "1 press: " or "12 presses: ", the counts right-aligned. */
static void add_count(qn_buf *out, uint64_t p)
{
    qn_buf_addf(out, "  %3llu %s ", (unsigned long long)p,
                p == 1 ? "press:  " : "presses:");
}

static int list_text(qn_buf *out, const qn_plans *p, const qn_layout *l,
                     const solve_opts *o)
{
    const char *what = o->optimal ? "optimal plans" : "solutions";
    int st = QN_EXIT_OK;

    if (p->complete)
        qn_buf_addf(out, "%s by press count, %zu of %llu:\n", what, p->count,
                    (unsigned long long)p->matched);
    else
        qn_buf_addf(out,
                    "%s: the first %zu found, by press count (the "
                    "kernel is past --walk-limit: not the cheapest of "
                    "all)\n",
                    what, p->count);
    for (size_t i = 0; i < p->count && st == QN_EXIT_OK; i++) {
        add_count(out, p->presses[i]);
        qn_state_format(out, l, p->x + i * (size_t)p->n, '/');
        qn_buf_addc(out, '\n');
        st = flush_some(o, out);
    }
    if (p->complete && p->matched > p->count)
        qn_buf_addf(out, "  ... and %llu more not listed (--limit %llu)\n",
                    (unsigned long long)(p->matched - p->count),
                    (unsigned long long)o->limit);
    return st;
}

static void list_json(qn_jsonw *w, const qn_plans *p, const solve_opts *o)
{
    qn_jsonw_key(w, o->optimal ? "optimal" : "all");
    qn_jsonw_arr(w);
    for (size_t i = 0; i < p->count; i++) {
        qn_jsonw_arr(w);
        for (int c = 0; c < p->n; c++)
            qn_jsonw_uint(w, p->x[i * (size_t)p->n + c]);
        qn_jsonw_end(w);
    }
    qn_jsonw_end(w);
    qn_jsonw_key(w, "unlisted");
    if (p->complete)
        qn_jsonw_uint(w, p->matched - p->count);
    else
        qn_jsonw_null(w);
}

int cmd_solve_list(const cli_ctx *ctx, const solve_opts *o,
                   const qn_solver *solver, const uint8_t *cells, qn_buf *out,
                   qn_jsonw *w)
{
    qn_plans p;
    qn_err err = QN_ERR_INIT;
    int st = QN_EXIT_OK;

    if (qn_plans_find(&p, solver, cells, o->limit, o->optimal, &err) != QN_OK) {
        qn_plans_release(&p);
        return cli_report(ctx, &err);
    }
    if (w)
        list_json(w, &p, o);
    else
        st = list_text(out, &p, qn_rules_layout(qn_solver_rules(solver)), o);
    qn_plans_release(&p);
    return st;
}

/* The heading of press `i` of `n` on `cell`; the last says if it is the
 * goal (it must be: the plan was replayed). */
static void step_heading(qn_buf *out, const qn_solver *solver, uint64_t i,
                         uint64_t n, int cell, const uint8_t *now)
{
    const qn_rules *r = qn_solver_rules(solver);

    qn_buf_addf(out, "press %llu of %llu: ", (unsigned long long)i,
                (unsigned long long)n);
    qn_solver_cell_name(solver, out, cell);
    if (i == n)
        qn_buf_adds(out,
                    memcmp(now, qn_rules_goal(r), (size_t)qn_rules_ncells(r))
                        ? " (NOT the goal)"
                        : " (the goal)");
    qn_buf_addc(out, '\n');
}

int cmd_solve_steps(const solve_opts *o, const qn_solver *solver,
                    const uint8_t *cells, const uint8_t *plan, qn_buf *out,
                    qn_jsonw *w, int colour)
{
    const qn_rules *r = qn_solver_rules(solver);
    int n = qn_solver_ncells(solver), st = QN_EXIT_OK;
    uint8_t *now = cli_xmemdup(cells, (size_t)n);
    uint64_t total = 0, done = 0;

    for (int c = 0; c < n; c++)
        total += plan[c];
    if (w) {
        qn_jsonw_key(w, "steps");
        qn_jsonw_arr(w);
    } else {
        qn_buf_adds(out, "steps, one press at a time (cells as (row,col)):\n");
        qn_term_legend(out, r, cells, colour);
        qn_buf_addf(out, "start%s:\n",
                    total ? "" : " (the goal: nothing to press)");
        qn_term_board(out, r, now, colour);
    }
    for (int c = 0; c < n && st == QN_EXIT_OK; c++)
        for (unsigned t = 0; t < plan[c] && st == QN_EXIT_OK; t++) {
            qn_solver_press(solver, now, c);
            if (w) {
                qn_buf s = QN_BUF_INIT;
                qn_state_format(&s, qn_rules_layout(r), now, '/');
                qn_jsonw_obj(w);
                qn_jsonw_key(w, "cell"), qn_jsonw_int(w, c);
                qn_jsonw_key(w, "state"), qn_jsonw_str(w, s.buf);
                qn_jsonw_end(w);
                qn_buf_release(&s);
            } else {
                step_heading(out, solver, ++done, total, c, now);
                qn_term_board(out, r, now, colour);
            }
            st = flush_some(o, out);
        }
    if (w)
        qn_jsonw_end(w);
    free(now);
    return st;
}
