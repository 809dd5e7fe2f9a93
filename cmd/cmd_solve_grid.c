/*
 * cmd_solve_grid.c: `quench solve` on boards beyond the dense model: a
 * rule read as a big grid (rules.h), solved through grid.h. States come
 * from netpbm images or --fill, the plan goes to -o FILE, and the report
 * gives the figures, never the cells.
 */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "base/file.h"
#include "base/jsonw.h"
#include "bigboard/grid.h"
#include "bigboard/netpbm.h"
#include "cmd.h"

/* The state from --fill or an image file (- is stdin). */
static int read_grid_state(const cli_ctx *ctx, const solve_opts *o,
                           qn_grid_state *s)
{
    qn_err err = QN_ERR_INIT;
    const char *name;
    FILE *f;
    int rc;

    if (o->has_fill) {
        if (cmd_solve_check_fill(ctx, o, s->k))
            return QN_EXIT_DATAERR;
        qn_grid_state_fill(s, o->fill);
        return QN_EXIT_OK;
    }
    if (o->state) {
        qn_err_set(&err, QN_EINVAL, 0, 0,
                   "boards of more than %d cells take their state as an "
                   "image (FILE) or --fill, not --state",
                   QN_RULES_MAX_CELLS);
        return cli_report(ctx, &err);
    }
    name = strcmp(o->file, "-") ? o->file : "<stdin>";
    if (qn_file_open_read(&f, o->file, &err) != QN_OK)
        return cli_report(ctx, &err);
    rc = qn_grid_state_read_pnm(s, f, &err);
    qn_file_close(f);
    if (rc == QN_OK)
        return QN_EXIT_OK;
    qn_err_source(&err, name);
    return cli_report(ctx, &err);
}

/* "1", "16", "2^3999" or "about 2^12.7": the number of solutions. */
static void add_count(qn_buf *out, double lg, unsigned k)
{
    double d = lg / log2((double)k);

    if (lg < 52.5)
        qn_buf_addf(out, "%.0f", exp2(lg));
    else if (fabs(d - floor(d + 0.5)) < 1e-9)
        qn_buf_addf(out, "%u^%.0f", k, floor(d + 0.5));
    else
        qn_buf_addf(out, "about 2^%.1f", lg);
}

static void report_text(qn_buf *out, const solve_opts *o, const qn_grid_rule *r,
                        const qn_grid *g, const qn_grid_answer *a, int rc,
                        int replay)
{
    qn_buf_addf(out, "board:         %dx%d grid, %u colours (%s)\n", r->w, r->h,
                r->k, r->name);
    qn_buf_addf(out, "method:        %s, chase width %d\n", qn_grid_method(g),
                qn_grid_width(g));
    if (rc != QN_OK) {
        qn_buf_adds(out, "solvable:      no\n");
        return;
    }
    qn_buf_addf(out, "solvable:      yes\nmin presses:   %llu",
                (unsigned long long)a->presses);
    if (!a->exact && a->lower_bound)
        qn_buf_addf(out, " (not proven minimal: at least %llu)",
                    (unsigned long long)a->lower_bound);
    else if (!a->exact)
        qn_buf_adds(out, " (not proven minimal)");
    if (a->exact) {
        qn_buf_addf(out, "\noptimal plans: %llu of ",
                    (unsigned long long)a->noptimal);
    } else {
        qn_buf_adds(out, "\nsolutions:     ");
    }
    add_count(out, qn_grid_kernel_log2(g), r->k);
    qn_buf_addf(out, "%s\nreplay:        %s\n", a->exact ? " solutions" : "",
                replay ? "reaches the goal (checked against the stencil)"
                       : "FAILED");
    if (o->output)
        qn_buf_addf(out, "solution:      written to %s\n",
                    strcmp(o->output, "-") ? o->output : "standard output");
    else
        qn_buf_adds(out, "solution:      not written (give -o FILE)\n");
}

static void report_json(qn_buf *out, const solve_opts *o, const qn_grid_rule *r,
                        const qn_grid *g, const qn_grid_answer *a, int rc,
                        int replay)
{
    qn_jsonw w;
    int ok = rc == QN_OK;

    qn_jsonw_init(&w, out);
    qn_jsonw_obj(&w);
    qn_jsonw_key(&w, "width"), qn_jsonw_int(&w, r->w);
    qn_jsonw_key(&w, "height"), qn_jsonw_int(&w, r->h);
    qn_jsonw_key(&w, "colours"), qn_jsonw_uint(&w, r->k);
    qn_jsonw_key(&w, "method"), qn_jsonw_str(&w, qn_grid_method(g));
    qn_jsonw_key(&w, "chase_width"), qn_jsonw_int(&w, qn_grid_width(g));
    qn_jsonw_key(&w, "solvable"), qn_jsonw_bool(&w, ok);
    qn_jsonw_key(&w, "min_presses");
    if (ok)
        qn_jsonw_uint(&w, a->presses);
    else
        qn_jsonw_null(&w);
    qn_jsonw_key(&w, "exact"), qn_jsonw_bool(&w, ok && a->exact);
    qn_jsonw_key(&w, "lower_bound");
    if (ok)
        qn_jsonw_uint(&w, a->lower_bound);
    else
        qn_jsonw_null(&w);
    qn_jsonw_key(&w, "optimal_solutions");
    qn_jsonw_uint(&w, ok ? a->noptimal : 0);
    qn_jsonw_key(&w, "solutions_log2");
    qn_jsonw_real(&w, ok ? qn_grid_kernel_log2(g) : 0);
    qn_jsonw_key(&w, "replay_ok"), qn_jsonw_bool(&w, ok && replay);
    qn_jsonw_key(&w, "output");
    if (ok && o->output)
        qn_jsonw_str(&w, o->output);
    else
        qn_jsonw_null(&w);
    qn_jsonw_end(&w);
    qn_buf_addc(out, '\n');
}

int cmd_solve_grid(const cli_ctx *ctx, const solve_opts *o,
                   const qn_grid_rule *r)
{
    qn_err err = QN_ERR_INIT;
    qn_grid *g = NULL;
    qn_grid_state s, x;
    qn_grid_answer a;
    qn_buf out = QN_BUF_INIT;
    int status, rc, replay = 0;

    if (o->all || o->optimal || o->steps)
        return cli_usage_error("solve: %s is for boards of at most %d cells",
                               o->steps ? "--steps"
                               : o->all ? "--all"
                                        : "--optimal",
                               QN_RULES_MAX_CELLS);
    if (qn_grid_new(&g, r, &err) != QN_OK) {
        qn_err_source(&err, o->rules);
        return cli_report(ctx, &err);
    }
    if (qn_grid_state_init(&s, r->w, r->h, r->k) != QN_OK ||
        qn_grid_state_init(&x, r->w, r->h, r->k) != QN_OK)
        cli_oom();
    if ((status = read_grid_state(ctx, o, &s)) != QN_EXIT_OK)
        goto done;
    rc = qn_grid_min_presses(g, &x, &a, &s, &err);
    if (rc != QN_OK && rc != QN_EUNSOLVABLE) {
        status = cli_report(ctx, &err);
        goto done;
    }
    if (rc == QN_OK && (replay = qn_grid_replays(r, &x, &s)) == QN_ENOMEM)
        cli_oom();
    if (rc == QN_OK && o->output) {
        qn_buf img = QN_BUF_INIT;
        qn_grid_state_write_pnm(&img, &x, o->plain ? 0 : QN_PNM_RAW);
        status = cmd_write_atomic(o->output, img.buf, img.len);
        qn_buf_release(&img);
        if (status != QN_EXIT_OK)
            goto done;
    }
    if (o->json)
        report_json(&out, o, r, g, &a, rc, replay);
    else
        report_text(&out, o, r, g, &a, rc, replay);
    status = cmd_solve_report(o, &out);
    if (status == QN_EXIT_OK && rc != QN_OK)
        status = QN_EXIT_REJECT;
    if (status == QN_EXIT_OK && !replay)
        status = QN_EXIT_SOFTWARE;
done:
    qn_buf_release(&out);
    qn_grid_state_release(&s);
    qn_grid_state_release(&x);
    qn_grid_free(g);
    return status;
}
