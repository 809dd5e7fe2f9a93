/*
 * rules_grid.c: a rule file read as a stencil on a plain grid, for boards
 * beyond the dense model (see rules.h, "Big grid rules").
 */
#include <stdlib.h>
#include <string.h>

#include "base/mem.h"
#include "rules/rules.h"
#include "rules_internal.h"

void qn_grid_rule_release(qn_grid_rule *g)
{
    free(g->name);
    free(g->offsets);
    memset(g, 0, sizeof(*g));
}

int qn_rules_spec_is_big(const qn_rules_spec *s, int w, int h)
{
    long long ww = w > 0 ? w : s->w, hh = h > 0 ? h : s->h;

    return s->has_board && s->has_grid && !s->has_hex && !s->has_hexagon &&
           !s->has_graph &&
           (ww > QN_LAYOUT_MAX_SIDE || hh > QN_LAYOUT_MAX_SIDE ||
            ww * hh > QN_RULES_MAX_CELLS);
}

/* What a grid rule may not have, each named at its place. */
static int check_shape(const qn_rules_spec *s, qn_err *err)
{
    if (!s->has_board)
        return qn_rules__fail(err, s->mark, "missing 'board'");
    if (!s->has_grid || s->has_hex || s->has_hexagon || s->has_graph)
        return qn_rules__fail(err, s->shape_mark,
                              "boards beyond %d cells must be grids",
                              QN_RULES_MAX_CELLS);
    if (s->has_wrap && s->wrap)
        return qn_rules__fail(err, s->wrap_mark,
                              "wrap is not supported beyond %d cells (the "
                              "chase needs a plain grid)",
                              QN_RULES_MAX_CELLS);
    if (s->mask.text)
        return qn_rules__fail(err, s->mask.mark,
                              "a mask is not supported beyond %d cells",
                              QN_RULES_MAX_CELLS);
    if (s->goal.text)
        return qn_rules__fail(err, s->goal.mark,
                              "a goal is not supported beyond %d cells",
                              QN_RULES_MAX_CELLS);
    if (s->has_effects)
        return qn_rules__fail(err, s->effects_mark,
                              "explicit effects are not supported beyond %d "
                              "cells",
                              QN_RULES_MAX_CELLS);
    if (s->corner.kind || s->edge.kind || s->interior.kind)
        return qn_rules__fail(err, s->press_mark,
                              "per-class stencils are not supported beyond "
                              "%d cells",
                              QN_RULES_MAX_CELLS);
    if (!s->has_press || !s->stencil.kind)
        return qn_rules__fail(err, s->has_press ? s->press_mark : s->mark,
                              "missing 'press: {stencil: ...}'");
    if (s->stencil.kind == QN_STENCIL_ROWCOL)
        return qn_rules__fail(err, s->stencil.mark,
                              "stencil 'rowcol' is not local: not supported "
                              "beyond %d cells",
                              QN_RULES_MAX_CELLS);
    return QN_OK;
}

static int check_size(const qn_rules_spec *s, long w, long h, qn_err *err)
{
    if (w < 1 || w > QN_GRID_MAX_SIDE)
        return qn_rules__fail(err, s->w_mark,
                              "grid width must be 1..%d, got %ld",
                              QN_GRID_MAX_SIDE, w);
    if (h < 1 || h > QN_GRID_MAX_SIDE)
        return qn_rules__fail(err, s->h_mark,
                              "grid height must be 1..%d, got %ld",
                              QN_GRID_MAX_SIDE, h);
    if ((long long)w * h > QN_GRID_MAX_CELLS)
        return qn_err_set(err, QN_ELIMIT, s->shape_mark.line, s->shape_mark.col,
                          "grid %ldx%ld has more than %lld cells", w, h,
                          QN_GRID_MAX_CELLS);
    return QN_OK;
}

int qn_rules_grid(qn_grid_rule *out, const qn_rules_spec *s, int w, int h,
                  const char *source, qn_err *err)
{
    qn_rules_off *off = NULL;
    size_t n = 0;
    int rc;

    memset(out, 0, sizeof(*out));
    out->k = s->has_colours ? (unsigned)s->colours : 2;
    if ((rc = qn_rules__check_header(s, err)) || (rc = check_shape(s, err)) ||
        (rc = check_size(s, w > 0 ? w : s->w, h > 0 ? h : s->h, err)) ||
        (s->has_amount && (rc = qn_rules__check_amount(s->amount, out->k,
                                                       s->amount_mark, err))) ||
        (rc = qn_rules__expand(&off, &n, &s->stencil, s, 0, out->k, "press",
                               err))) {
        free(off);
        qn_err_source(err, source ? source : "");
        memset(out, 0, sizeof(*out));
        return rc;
    }
    out->name = qn_strdup(s->name);
    out->w = (int)(w > 0 ? w : s->w);
    out->h = (int)(h > 0 ? h : s->h);
    out->offsets = qn_calloc(n + 1, sizeof(int[3]));
    if (!out->name || !out->offsets) {
        free(off);
        free(out->name);
        free(out->offsets);
        memset(out, 0, sizeof(*out));
        return qn_err_nomem(err);
    }
    for (size_t i = 0; i < n; i++) {
        out->offsets[i][0] = off[i].dx;
        out->offsets[i][1] = off[i].dy;
        out->offsets[i][2] = (int)off[i].amount;
    }
    out->noffsets = n;
    free(off);
    return QN_OK;
}
