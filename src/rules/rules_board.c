/*
 * rules_board.c: the board section of a rule description (grid, hex,
 * hexagon or graph; size, wrap and mask) made into a qn_layout.
 */
#include "rules_internal.h"

#include <stdlib.h>

#include "base/mem.h"
#include "base/text.h"

static int parse_mask(uint8_t *active, const qn_text_spec *t, int w, int h,
                      qn_err *err)
{
    size_t i;
    int line = 1, col = 0, r = 0, c = 0, started = 0, empty = 0;
    qn_mark last = t->mark, empty_at = t->mark;

    /* The state format's rules with '#' and '.': rows separated by '/' or
     * newlines, blanks ignored, empty rows before the first and after the
     * last ignored. */
    for (i = 0; i < t->len; i++) {
        char ch = t->text[i];
        qn_mark here;

        col++;
        here = qn_rules__text_pos(t, line, col);
        if (ch == ' ' || ch == '\t' || ch == '\r')
            continue;
        if (ch == '\n' || ch == '/') {
            if (ch == '\n') {
                line++;
                col = 0;
            }
            if (!started)
                continue;
            if (c > 0 && c < w)
                return qn_rules__fail(
                    err, here,
                    "mask row %d has %d %s, board is "
                    "%d wide",
                    r, c, qn_plural((uint64_t)c, "cell", "cells"), w);
            if (c == w) {
                r++;
                c = 0;
            } else if (!empty) {
                empty = 1;
                empty_at = here;
            }
            continue;
        }
        if (empty)
            return qn_rules__fail(err, empty_at, "mask row %d is empty", r);
        if (ch != '#' && ch != '.') {
            if ((unsigned char)ch >= 0x21 && (unsigned char)ch < 0x7f)
                return qn_rules__fail(
                    err, here,
                    "bad character '%c' in mask (use '#' for a cell, "
                    "'.' for a hole)",
                    ch);
            return qn_rules__fail(
                err, here,
                "bad byte 0x%02x in mask (use '#' for a cell, '.' "
                "for a hole)",
                (unsigned char)ch);
        }
        started = 1;
        if (r >= h)
            return qn_rules__fail(err, here,
                                  "mask has more than %d rows, the "
                                  "board's height",
                                  h);
        if (c >= w)
            return qn_rules__fail(err, here,
                                  "mask row %d is longer than the board "
                                  "width %d",
                                  r, w);
        active[r * w + c] = ch == '#';
        c++;
        last = qn_rules__text_pos(t, line, col + 1);
    }
    if (!started)
        return qn_rules__fail(err, t->mark, "mask is empty");
    if (c > 0 && c < w)
        return qn_rules__fail(err, last,
                              "mask row %d has %d %s, board is %d "
                              "wide",
                              r, c, qn_plural((uint64_t)c, "cell", "cells"), w);
    if (r + (c == w) != h)
        return qn_rules__fail(
            err, t->mark, "mask has %d %s, board has %d", r + (c == w),
            qn_plural((uint64_t)(r + (c == w)), "row", "rows"), h);
    return QN_OK;
}

/* One shape, and the keys only some shapes take. */
static int check_section(const qn_rules_spec *s, qn_err *err)
{
    int kinds = s->has_grid + s->has_hex + s->has_hexagon + s->has_graph;

    if (!s->has_board)
        return qn_rules__fail(err, s->mark, "missing 'board'");
    if (kinds == 0)
        return qn_rules__fail(
            err, s->board_mark,
            "board needs one of 'grid', 'hex', 'hexagon', 'graph'");
    if (kinds > 1)
        return qn_rules__fail(
            err, s->shape_mark,
            "board has more than one of 'grid', 'hex', 'hexagon', "
            "'graph'");
    if (s->has_wrap && !s->has_grid && s->wrap != QN_WRAP_NONE)
        return qn_rules__fail(err, s->wrap_mark,
                              "'wrap' is only for grid boards");
    if (s->mask.text && !s->has_grid && !s->has_hex)
        return qn_rules__fail(err, s->mask.mark,
                              "'mask' is only for grid and hex "
                              "boards");
    return QN_OK;
}

/* The size and mask of a grid or hex board: *active_out is the mask's
 * cells (w * h, malloc'd), or NULL when there is no mask. */
static int rect_shape(uint8_t **active_out, const qn_rules_spec *s, qn_err *err)
{
    const char *what = s->has_grid ? "grid" : "hex";
    uint8_t *active;
    long n, i;
    int rc;

    *active_out = NULL;
    if (s->w < 1 || s->w > QN_LAYOUT_MAX_SIDE)
        return qn_rules__fail(err, s->w_mark, "%s width must be 1..%d, got %ld",
                              what, QN_LAYOUT_MAX_SIDE, s->w);
    if (s->h < 1 || s->h > QN_LAYOUT_MAX_SIDE)
        return qn_rules__fail(err, s->h_mark,
                              "%s height must be 1..%d, got %ld", what,
                              QN_LAYOUT_MAX_SIDE, s->h);
    n = s->w * s->h;
    if (n > QN_LAYOUT_MAX_POSITIONS)
        return qn_rules__fail(err, s->shape_mark,
                              "%s has %ld positions, the limit is %d", what, n,
                              QN_LAYOUT_MAX_POSITIONS);
    if (!s->mask.text)
        return QN_OK;
    if (!(active = QN_ALLOCN((size_t)n, uint8_t)))
        return qn_err_nomem(err);
    rc = parse_mask(active, &s->mask, (int)s->w, (int)s->h, err);
    if (rc == QN_OK) {
        for (i = 0; i < n && !active[i]; i++)
            ;
        if (i == n)
            rc = qn_rules__fail(err, s->mask.mark, "mask has no cells");
    }
    if (rc != QN_OK) {
        free(active);
        return rc;
    }
    *active_out = active;
    return QN_OK;
}

int qn_rules__build_layout(qn_layout *l, const qn_rules_spec *s, qn_err *err)
{
    uint8_t *active;
    int rc;

    if ((rc = check_section(s, err)) != QN_OK)
        return rc;
    if (s->has_grid || s->has_hex) {
        if ((rc = rect_shape(&active, s, err)) != QN_OK)
            return rc;
        if (s->has_grid)
            rc = qn_layout_init_grid(l, (int)s->w, (int)s->h, s->wrap, active,
                                     err);
        else
            rc = qn_layout_init_hex(l, (int)s->w, (int)s->h, active, err);
        free(active);
    } else if (s->has_hexagon) {
        if (s->side < 1 || s->side > QN_LAYOUT_MAX_HEXAGON)
            return qn_rules__fail(err, s->shape_mark,
                                  "hexagon side must be 1..%d, "
                                  "got %ld",
                                  QN_LAYOUT_MAX_HEXAGON, s->side);
        rc = qn_layout_init_hexagon(l, (int)s->side, err);
    } else {
        if (s->nnodes < 1 || s->nnodes > QN_RULES_MAX_CELLS)
            return qn_rules__fail(err, s->shape_mark,
                                  "graph must have 1..%d cells, "
                                  "got %ld",
                                  QN_RULES_MAX_CELLS, s->nnodes);
        rc = qn_layout_init_graph(l, (int)s->nnodes, err);
    }
    if (rc != QN_OK) {
        /* Cannot happen after the checks above; keep a location anyway. */
        if (err) {
            err->line = s->shape_mark.line;
            err->col = s->shape_mark.col;
        }
        return rc;
    }
    if (l->ncells > QN_RULES_MAX_CELLS)
        return qn_rules__fail(err, s->shape_mark,
                              "board has %d cells, the limit is %d", l->ncells,
                              QN_RULES_MAX_CELLS);
    return QN_OK;
}
