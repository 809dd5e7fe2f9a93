/*
 * cmd_solve.c: `quench solve`: the exact answer for one state: solvable or
 * not, the least presses with an optimal plan to follow, how many optimal
 * and total solutions there are, a replay check; or why it is unsolvable
 * and the fewest cells to change.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/jsonw.h"
#include "base/mem.h"
#include "base/text.h"
#include "bigboard/netpbm.h"
#include "cmd.h"
#include "rules/state.h"
#include "solve/human_score.h"
#include "validate/submit.h"

#define MAX_STATE_FILE ((size_t)64 << 20)

/* A state image for the dense model: the board must be a full grid. */
static int read_pnm_state(const qn_rules *r, uint8_t *cells, char *text,
                          size_t len, qn_err *err)
{
    const qn_layout *l = qn_rules_layout(r);
    FILE *f;
    int rc;

    if (l->kind != QN_LAYOUT_GRID || l->ncells != l->w * l->h)
        return qn_err_set(err, QN_EINVAL, 0, 0,
                          "images are for grid boards without holes");
    f = fmemopen(text, len, "rb");
    if (!f)
        return qn_err_set(err, QN_EIO, 0, 0, "cannot read the image: %s",
                          strerror(errno));
    rc = qn_pnm_read(f, l->w, l->h, qn_rules_colours(r), cells, NULL, err);
    fclose(f);
    return rc;
}

/* Read the state from --state, --fill or the file into cells. */
static int read_state(const cli_ctx *ctx, const solve_opts *o,
                      const qn_rules *r, uint8_t *cells)
{
    qn_err err = QN_ERR_INIT;
    char *text = NULL;
    size_t len;
    int rc;

    if (o->has_fill) {
        if (cmd_solve_check_fill(ctx, o, qn_rules_colours(r)))
            return QN_EXIT_DATAERR;
        memset(cells, (int)o->fill, (size_t)qn_rules_ncells(r));
        return QN_EXIT_OK;
    }
    if (o->state) {
        rc = qn_submit_parse_state(cells, qn_rules_layout(r),
                                   qn_rules_colours(r), o->state,
                                   strlen(o->state), &err);
        qn_err_source(&err, "--state");
    } else {
        rc = cmd_read_all(o->file, MAX_STATE_FILE, &text, &len, &err);
        if (rc == QN_OK && qn_pnm_is_image(text, len))
            rc = read_pnm_state(r, cells, text, len, &err);
        else if (rc == QN_OK)
            rc = qn_submit_parse_state(cells, qn_rules_layout(r),
                                       qn_rules_colours(r), text, len, &err);
        qn_err_source(&err, strcmp(o->file, "-") ? o->file : "<stdin>");
        free(text);
    }
    return rc == QN_OK ? QN_EXIT_OK : cli_report(ctx, &err);
}

/* -o: the plan as an image (grid boards without holes only). */
static int write_plan(const cli_ctx *ctx, const solve_opts *o,
                      const qn_rules *r, const uint8_t *plan)
{
    const qn_layout *l = qn_rules_layout(r);
    qn_err err = QN_ERR_INIT;
    qn_buf img = QN_BUF_INIT;
    int st;

    if (l->kind != QN_LAYOUT_GRID || l->ncells != l->w * l->h) {
        qn_err_set(&err, QN_EINVAL, 0, 0,
                   "-o writes images, which need a grid board without "
                   "holes");
        return cli_report(ctx, &err);
    }
    qn_pnm_write_buf(&img, l->w, l->h, qn_rules_colours(r), plan,
                     o->plain ? 0 : QN_PNM_RAW, NULL);
    st = cmd_write_atomic(o->output, img.buf, img.len);
    qn_buf_release(&img);
    return st;
}

/* The presses in the order a player can follow: each cell, times over. */
static void add_plan_text(qn_buf *out, const qn_solver *solver,
                          const uint8_t *x)
{
    int n = qn_solver_ncells(solver), any = 0;

    for (int i = 0; i < n; i++) {
        if (!x[i])
            continue;
        qn_buf_adds(out, any++ ? ", " : "");
        qn_solver_cell_name(solver, out, i);
        if (x[i] > 1)
            qn_buf_addf(out, " x%u", x[i]);
    }
    if (!any)
        qn_buf_adds(out, "nothing");
}

static void add_size(qn_buf *out, const qn_solver *solver, qn_jsonw *w)
{
    qn_buf b = QN_BUF_INIT;
    uint64_t v;
    const qn_system *sys = qn_solver_system(solver);

    if (qn_system_group_size_u64(sys, QN_KERNEL, &v) == QN_OK &&
        v < ((uint64_t)1 << 53)) {
        if (w)
            qn_jsonw_uint(w, v);
        else
            qn_buf_addf(out, "%llu", (unsigned long long)v);
        return;
    }
    qn_system_group_size(sys, QN_KERNEL, &b);
    if (w)
        qn_jsonw_str(w, b.buf);
    else
        qn_buf_adds(out, b.buf);
    qn_buf_release(&b);
}

static void solve_text(qn_buf *out, const qn_solver *solver, const qn_answer *a,
                       const uint8_t *cells, const solve_opts *o)
{
    const qn_layout *l = qn_rules_layout(qn_solver_rules(solver));

    if (!a->solvable) {
        qn_buf_adds(out, "solvable:      no\nwhy:\n");
        qn_solver_explain(solver, out, cells, 8);
        if (!a->repair_known) {
            qn_buf_addf(out,
                        "repair:        not computed (too many "
                        "classes of states)\ncells:         %s\n",
                        qn_solver_cell_legend(solver));
            return;
        }
        qn_buf_addf(out, "repair:        change %d %s:", a->nrepair,
                    qn_plural((uint64_t)a->nrepair, "cell", "cells"));
        for (int i = 0; i < a->nrepair; i++) {
            int c = a->repair_cell[i];
            qn_buf_adds(out, i ? ", " : " ");
            qn_solver_cell_name(solver, out, c);
            qn_buf_addf(out, " from %u to %u", cells[c], a->repair_value[i]);
        }
        qn_buf_addf(out, "\ncells:         %s\n",
                    qn_solver_cell_legend(solver));
        return;
    }
    qn_buf_addf(out, "solvable:      yes%s\n",
                a->at_goal ? " (already at the goal)" : "");
    qn_buf_addf(out, "min presses:   %llu%s\n",
                (unsigned long long)a->mp.presses,
                a->exact ? "" : " (not proven minimal: kernel too large)");
    if (a->exact)
        qn_buf_addf(out, "optimal plans: %llu of ",
                    (unsigned long long)a->mp.noptimal);
    else
        qn_buf_adds(out, "solutions:     ");
    add_size(out, solver, NULL);
    qn_buf_addf(out, " %s\nplan:          press ",
                qn_system_kernel_ngens(qn_solver_system(solver)) ? "solutions"
                                                                 : "solution");
    add_plan_text(out, solver, a->plan);
    qn_buf_adds(out, "\npress counts:\n");
    qn_state_format(out, l, a->plan, '\n');
    qn_buf_addf(out, "\nreplay:        %s\n",
                qn_solver_replays(solver, cells, a->plan) ? "reaches the goal"
                                                          : "FAILED");
    if (!a->at_goal)
        qn_buf_addf(out, "cells:         %s\n", qn_solver_cell_legend(solver));
    (void)o;
}

static void solve_json(qn_jsonw *w, const qn_solver *solver, const qn_answer *a,
                       const uint8_t *cells)
{
    int n = qn_solver_ncells(solver);
    qn_buf why = QN_BUF_INIT;

    qn_jsonw_key(w, "solvable"), qn_jsonw_bool(w, a->solvable);
    qn_jsonw_key(w, "at_goal"), qn_jsonw_bool(w, a->at_goal);
    qn_jsonw_key(w, "min_presses");
    if (a->solvable)
        qn_jsonw_uint(w, a->mp.presses);
    else
        qn_jsonw_null(w);
    qn_jsonw_key(w, "exact"), qn_jsonw_bool(w, a->solvable && a->exact);
    qn_jsonw_key(w, "optimal_solutions");
    qn_jsonw_uint(w, a->solvable && a->exact ? a->mp.noptimal : 0);
    qn_jsonw_key(w, "solutions");
    if (a->solvable)
        add_size(NULL, solver, w);
    else
        qn_jsonw_uint(w, 0);
    qn_jsonw_key(w, "solution");
    if (a->solvable) {
        qn_jsonw_arr(w);
        for (int i = 0; i < n; i++)
            qn_jsonw_uint(w, a->plan[i]);
        qn_jsonw_end(w);
        qn_jsonw_key(w, "presses");
        qn_jsonw_arr(w);
        for (int i = 0; i < n; i++)
            for (unsigned t = 0; t < a->plan[i]; t++)
                qn_jsonw_uint(w, (uint64_t)i);
        qn_jsonw_end(w);
        qn_jsonw_key(w, "replay_ok");
        qn_jsonw_bool(w, qn_solver_replays(solver, cells, a->plan));
    } else {
        qn_jsonw_null(w);
    }
    if (!a->solvable) {
        qn_solver_explain(solver, &why, cells, 1000);
        qn_jsonw_key(w, "why"), qn_jsonw_str(w, why.buf);
        qn_jsonw_key(w, "repair");
        if (!a->repair_known) {
            qn_jsonw_null(w);
        } else {
            qn_jsonw_arr(w);
            for (int i = 0; i < a->nrepair; i++) {
                qn_jsonw_arr(w);
                qn_jsonw_int(w, a->repair_cell[i]);
                qn_jsonw_uint(w, a->repair_value[i]);
                qn_jsonw_end(w);
            }
            qn_jsonw_end(w);
        }
    }
    qn_buf_release(&why);
}

/* Load RULES at --size: the dense model, or a big grid (*r NULL). */
static int load(const cli_ctx *ctx, const solve_opts *o, qn_rules **r,
                qn_solver **g, qn_grid_rule *grid)
{
    qn_err err = QN_ERR_INIT;
    int rc = qn_rules_load_sized(r, grid, o->rules, o->sw, o->sh, &err);

    if (rc == QN_OK && *r)
        rc = qn_solver_new(g, *r, &err);
    if (rc == QN_OK)
        return QN_EXIT_OK;
    if (!err.source[0])
        qn_err_source(&err, o->rules);
    return cli_report(ctx, &err);
}

/* --steps --human: the technique in words, as text lines or the JSON
 * key "technique" (one string a line). */
static int human_steps(const cli_ctx *ctx, const qn_solver *solver,
                       const uint8_t *cells, qn_buf *out, qn_jsonw *w)
{
    qn_human_grader *hg = NULL;
    qn_err err = QN_ERR_INIT;
    qn_buf text = QN_BUF_INIT;
    int rc = qn_human_grader_new(&hg, solver, &err);

    if (rc == QN_OK)
        rc = qn_human_narrate(hg, cells, &text, &err);
    qn_human_grader_free(hg);
    if (rc != QN_OK) {
        qn_buf_release(&text);
        return cli_report(ctx, &err);
    }
    if (w) {
        qn_jsonw_key(w, "technique");
        qn_jsonw_arr(w);
        for (size_t at = 0; at < text.len;) {
            const char *nl = memchr(text.buf + at, '\n', text.len - at);
            size_t end = nl ? (size_t)(nl - text.buf) : text.len;
            qn_jsonw_strn(w, text.buf + at, end - at);
            at = end + 1;
        }
        qn_jsonw_end(w);
    } else {
        qn_buf_add(out, text.buf, text.len);
    }
    qn_buf_release(&text);
    return QN_EXIT_OK;
}

/* What the report adds on request: the solutions (--all, --optimal) and
 * the plan played (--steps), drawn in colour where the report goes to a
 * terminal that shows it (-o - sends the report to stderr). */
static int more(const cli_ctx *ctx, const solve_opts *o,
                const qn_solver *solver, const qn_answer *a,
                const uint8_t *cells, qn_buf *out, qn_jsonw *w)
{
    int st = QN_EXIT_OK, colour = 0;

    if (!a->solvable)
        return QN_EXIT_OK;
    if ((o->all || o->optimal) &&
        (st = cmd_solve_list(ctx, o, solver, cells, out, w)) != QN_EXIT_OK)
        return st;
    if (!o->steps)
        return QN_EXIT_OK;
    if (o->human &&
        (st = human_steps(ctx, solver, cells, out, w)) != QN_EXIT_OK)
        return st;
    if (!w && (colour = cmd_colour_for(
                   o->output && !strcmp(o->output, "-") ? stderr : stdout,
                   "solve", o->color)) < 0)
        return QN_EXIT_USAGE;
    return cmd_solve_steps(o, solver, cells, a->plan, out, w, colour);
}

int cmd_solve(int argc, char **argv, cli_ctx *ctx)
{
    solve_opts o;
    qn_rules *r = NULL;
    qn_grid_rule grid;
    qn_solver *solver = NULL;
    qn_answer a;
    qn_buf out = QN_BUF_INIT;
    uint8_t *cells = NULL;
    char *id_state = NULL;
    int status;

    if (cmd_wants_help(argc, argv, cmd_solve_usage))
        return QN_EXIT_OK;
    if ((status = cmd_solve_parse_opts(&o, argc, argv)) != QN_EXIT_OK)
        return status;
    if (o.id)
        status = cmd_solve_load_id(ctx, &o, &r, &solver, &id_state);
    else
        status = load(ctx, &o, &r, &solver, &grid);
    if (status != QN_EXIT_OK) {
        qn_rules_free(r);
        return status;
    }
    o.state = id_state ? id_state : o.state;
    if (!r) {
        status = cmd_solve_grid(ctx, &o, &grid);
        qn_grid_rule_release(&grid);
        return status;
    }
    qn_solver_set_walk_limit(solver, o.walk_limit);
    cells = CLI_NEWN((size_t)qn_solver_ncells(solver) + 1, uint8_t);
    if (qn_answer_init(&a, solver, NULL) != QN_OK)
        cli_oom();
    if ((status = read_state(ctx, &o, r, cells)) != QN_EXIT_OK)
        goto done;
    if (qn_solver_answer(solver, &a, cells) != QN_OK)
        cli_oom();
    if (o.json) {
        qn_jsonw w;
        qn_jsonw_init(&w, &out);
        qn_jsonw_obj(&w);
        solve_json(&w, solver, &a, cells);
        status = more(ctx, &o, solver, &a, cells, &out, &w);
        qn_jsonw_end(&w);
        qn_buf_addc(&out, '\n');
    } else {
        solve_text(&out, solver, &a, cells, &o);
        status = more(ctx, &o, solver, &a, cells, &out, NULL);
    }
    if (status != QN_EXIT_OK)
        goto done;
    if (o.output && a.solvable &&
        (status = write_plan(ctx, &o, r, a.plan)) != QN_EXIT_OK)
        goto done;
    status = cmd_solve_report(&o, &out);
    if (status == QN_EXIT_OK && !a.solvable)
        status = QN_EXIT_REJECT;
done:
    qn_buf_release(&out);
    qn_answer_release(&a);
    free(cells);
    free(id_state);
    qn_solver_free(solver);
    qn_rules_free(r);
    return status;
}
