/*
 * rules.c: validating a plain rule description (qn_rules_spec) and
 * compiling it into the press matrix, the goal, the canonical hash and the
 * symmetry group. No YAML here: rules_yaml.c fills the spec.
 */
#include "quench/rules.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "quench/buf.h"
#include "quench/hash.h"
#include "quench/mem.h"
#include "quench/state.h"
#include "quench/text.h"
#include "rules_internal.h"

typedef struct tier {
    char *name;
    int lo, hi;
} tier;

struct qn_rules {
    char *name, *title, *description, *author; /* never NULL */
    unsigned k;                                /* colours, 2..255 */
    qn_layout layout;
    int n;           /* layout.ncells */
    uint8_t *matrix; /* n * n, A[i * n + j] */
    uint8_t *goal;   /* n */
    char hash[65];
    int symmetric;
    tier *tiers;
    size_t ntiers;
    int *syms; /* nsyms * n */
    int *syminv; /* nsyms * n: the inverse permutations */
    size_t nsyms;
    char symname[128];
};

/* ------------------------------------------------------------------ */
/* The spec */

void qn_rules_spec_init(qn_rules_spec *spec)
{
    memset(spec, 0, sizeof(*spec));
    spec->self = -1;
}

static void text_release(qn_text_spec *t)
{
    free(t->text);
    free(t->origins);
}

void qn_rules_spec_release(qn_rules_spec *spec)
{
    size_t i;

    free(spec->name);
    free(spec->title);
    free(spec->description);
    free(spec->author);
    text_release(&spec->mask);
    free(spec->stencil.offsets);
    free(spec->corner.offsets);
    free(spec->edge.offsets);
    free(spec->interior.offsets);
    for (i = 0; i < spec->neffects; i++)
        free(spec->effects[i].targets);
    free(spec->effects);
    text_release(&spec->goal);
    for (i = 0; i < spec->ntiers; i++)
        free(spec->tiers[i].name);
    free(spec->tiers);
    qn_rules_spec_init(spec);
}

/* ------------------------------------------------------------------ */
/* Errors */

int qn_rules__fail(qn_err *err, qn_mark m, const char *fmt, ...)
{
    va_list ap;
    char msg[256];

    va_start(ap, fmt);
    vsnprintf(msg, sizeof(msg), fmt, ap);
    va_end(ap);
    return qn_err_set(err, QN_EINVAL, m.line, m.col, "%s", msg);
}

/* Map a position inside a text value (line, col of the text) to the file. */
static qn_mark text_pos(const qn_text_spec *t, int line, int col)
{
    qn_mark m = t->mark;

    if (t->origins && line >= 1 && (size_t)line <= t->norigins) {
        m = t->origins[line - 1];
        m.col += col - 1;
    }
    return m;
}

/* ------------------------------------------------------------------ */
/* Small checks */

static int is_slug(const char *s, size_t max)
{
    size_t i, n = strlen(s);

    if (n == 0 || n > max)
        return 0;
    if (!((s[0] >= 'a' && s[0] <= 'z') || (s[0] >= '0' && s[0] <= '9')))
        return 0;
    for (i = 0; i < n; i++)
        if (!((s[i] >= 'a' && s[i] <= 'z') || (s[i] >= '0' && s[i] <= '9') ||
              s[i] == '-' || s[i] == '_'))
            return 0;
    return 1;
}

int qn_rules__check_amount(long a, unsigned k, qn_mark m, qn_err *err)
{
    if (a < 1)
        return qn_rules__fail(err, m, "amount must be at least 1, got %ld", a);
    if (a >= (long)k)
        return qn_rules__fail(err, m, "amount %ld must be less than colours (%u)", a, k);
    return QN_OK;
}

/* ------------------------------------------------------------------ */
/* Board */

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
        here = text_pos(t, line, col);
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
                return qn_rules__fail(err, here,
                            "mask row %d has %d cells, board is "
                            "%d wide",
                            r, c, w);
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
                return qn_rules__fail(err, here,
                            "bad character '%c' in mask (use '#' for a cell, "
                            "'.' for a hole)",
                            ch);
            return qn_rules__fail(err, here,
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
        last = text_pos(t, line, col + 1);
    }
    if (!started)
        return qn_rules__fail(err, t->mark, "mask is empty");
    if (c > 0 && c < w)
        return qn_rules__fail(err, last, "mask row %d has %d cells, board is %d wide", r,
                    c, w);
    if (r + (c == w) != h)
        return qn_rules__fail(err, t->mark, "mask has %d rows, board has %d",
                    r + (c == w), h);
    return QN_OK;
}

static int build_layout(qn_layout *l, const qn_rules_spec *s, qn_err *err)
{
    int kinds = s->has_grid + s->has_hex + s->has_hexagon + s->has_graph;
    uint8_t *active = NULL;
    int rc;
    long n;

    if (!s->has_board)
        return qn_rules__fail(err, s->mark, "missing 'board'");
    if (kinds == 0)
        return qn_rules__fail(err, s->board_mark,
                    "board needs one of 'grid', 'hex', 'hexagon', 'graph'");
    if (kinds > 1)
        return qn_rules__fail(err, s->shape_mark,
                    "board has more than one of 'grid', 'hex', 'hexagon', "
                    "'graph'");
    if (s->has_wrap && !s->has_grid && s->wrap != QN_WRAP_NONE)
        return qn_rules__fail(err, s->wrap_mark, "'wrap' is only for grid boards");
    if (s->mask.text && !s->has_grid && !s->has_hex)
        return qn_rules__fail(err, s->mask.mark,
                    "'mask' is only for grid and hex "
                    "boards");
    if (s->has_grid || s->has_hex) {
        const char *what = s->has_grid ? "grid" : "hex";
        if (s->w < 1 || s->w > QN_LAYOUT_MAX_SIDE)
            return qn_rules__fail(err, s->w_mark, "%s width must be 1..%d, got %ld", what,
                        QN_LAYOUT_MAX_SIDE, s->w);
        if (s->h < 1 || s->h > QN_LAYOUT_MAX_SIDE)
            return qn_rules__fail(err, s->h_mark, "%s height must be 1..%d, got %ld",
                        what, QN_LAYOUT_MAX_SIDE, s->h);
        n = s->w * s->h;
        if (n > QN_LAYOUT_MAX_POSITIONS)
            return qn_rules__fail(err, s->shape_mark,
                        "%s has %ld positions, the limit is %d", what, n,
                        QN_LAYOUT_MAX_POSITIONS);
        if (s->mask.text) {
            active = QN_NEWN((size_t)n, uint8_t);
            if ((rc = parse_mask(active, &s->mask, (int)s->w, (int)s->h,
                                 err)) != QN_OK)
                goto done;
            for (rc = 0; rc < n && !active[rc]; rc++)
                ;
            if (rc == n) {
                rc = qn_rules__fail(err, s->mask.mark, "mask has no cells");
                goto done;
            }
        }
        if (s->has_grid)
            rc = qn_layout_init_grid(l, (int)s->w, (int)s->h, s->wrap, active,
                                     err);
        else
            rc = qn_layout_init_hex(l, (int)s->w, (int)s->h, active, err);
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
        goto done;
    }
    if (l->ncells > QN_RULES_MAX_CELLS)
        rc = qn_rules__fail(err, s->shape_mark, "board has %d cells, the limit is %d",
                  l->ncells, QN_RULES_MAX_CELLS);
done:
    free(active);
    return rc;
}

/* ------------------------------------------------------------------ */
/* Stencils */

typedef qn_rules_off off;

static const int plus_offs[][2] = {{1, 0}, {-1, 0}, {0, 1}, {0, -1}};
static const int x_offs[][2] = {{1, 1}, {-1, 1}, {1, -1}, {-1, -1}};
static const int knight_offs[][2] = {{1, 2},  {2, 1},  {-1, 2},  {-2, 1},
                                     {1, -2}, {2, -1}, {-1, -2}, {-2, -1}};
static const int hex_offs[][2] = {{1, 0},  {-1, 0}, {0, 1},
                                  {0, -1}, {1, -1}, {-1, 1}};

static const char *stencil_name(qn_stencil_kind kind)
{
    switch (kind) {
    case QN_STENCIL_NONE:
        return "none";
    case QN_STENCIL_PLUS:
        return "plus";
    case QN_STENCIL_X:
        return "x";
    case QN_STENCIL_MOORE:
        return "moore";
    case QN_STENCIL_KNIGHT:
        return "knight";
    case QN_STENCIL_ROWCOL:
        return "rowcol";
    case QN_STENCIL_HEX:
        return "hex";
    case QN_STENCIL_LIST:
        return "list";
    }
    return "?";
}

/*
 * Expand a stencil into offsets with amounts (rowcol is handled apart).
 * Named stencils exclude the pressed cell and `self` (default true) adds
 * it; offset lists are taken as written and `self` adds or removes [0, 0]
 * only when given.
 */
int qn_rules__expand(off **out, size_t *nout, const qn_stencil_spec *st,
                     const qn_rules_spec *s, int is_hex, unsigned k,
                     const char *what, qn_err *err)
{
    unsigned amount = s->has_amount ? (unsigned)s->amount : 1;
    const int(*tab)[2] = NULL;
    size_t ntab = 0, i, j, n = 0;
    int self = s->self, rc;
    off *o;

    *out = NULL;
    *nout = 0;
    switch (st->kind) {
    case QN_STENCIL_PLUS:
        tab = plus_offs;
        ntab = 4;
        break;
    case QN_STENCIL_X:
        tab = x_offs;
        ntab = 4;
        break;
    case QN_STENCIL_KNIGHT:
        tab = knight_offs;
        ntab = 8;
        break;
    case QN_STENCIL_HEX:
        tab = hex_offs;
        ntab = 6;
        break;
    default:
        break;
    }
    if (st->kind == QN_STENCIL_HEX && !is_hex)
        return qn_rules__fail(err, st->mark,
                    "stencil 'hex' is for hex boards; grids "
                    "use plus, x, moore, knight, rowcol or a list");
    if (st->kind != QN_STENCIL_HEX && st->kind != QN_STENCIL_LIST && is_hex)
        return qn_rules__fail(err, st->mark,
                    "stencil '%s' is for grids; hex boards "
                    "use 'hex' or a list of [dq, dr] offsets",
                    stencil_name(st->kind));
    o = QN_NEWN(st->noffsets + 10, off);
    if (st->kind == QN_STENCIL_MOORE) {
        for (i = 0; i < 4; i++) {
            o[n++] = (off){plus_offs[i][0], plus_offs[i][1], amount};
            o[n++] = (off){x_offs[i][0], x_offs[i][1], amount};
        }
    }
    for (i = 0; i < ntab; i++)
        o[n++] = (off){tab[i][0], tab[i][1], amount};
    if (st->kind == QN_STENCIL_LIST) {
        if (st->noffsets > QN_RULES_MAX_OFFSETS) {
            free(o);
            return qn_rules__fail(err, st->mark,
                        "%s stencil has %zu offsets, the "
                        "limit is %d",
                        what, st->noffsets, QN_RULES_MAX_OFFSETS);
        }
        for (i = 0; i < st->noffsets; i++) {
            const qn_offset *a = &st->offsets[i];
            unsigned am = amount;
            if (a->dx < -QN_LAYOUT_MAX_SIDE || a->dx > QN_LAYOUT_MAX_SIDE ||
                a->dy < -QN_LAYOUT_MAX_SIDE || a->dy > QN_LAYOUT_MAX_SIDE) {
                free(o);
                return qn_rules__fail(err, a->mark,
                            "offset [%d, %d] is larger than "
                            "any board (limit %d)",
                            a->dx, a->dy, QN_LAYOUT_MAX_SIDE);
            }
            if (a->has_amount) {
                if ((rc = qn_rules__check_amount(a->amount, k, a->mark, err))) {
                    free(o);
                    return rc;
                }
                am = (unsigned)a->amount;
            }
            for (j = 0; j < i; j++) {
                if (st->offsets[j].dx == a->dx && st->offsets[j].dy == a->dy) {
                    free(o);
                    return qn_rules__fail(err, a->mark, "offset [%d, %d] listed twice",
                                a->dx, a->dy);
                }
            }
            if (a->dx == 0 && a->dy == 0 && self == 0)
                continue;
            o[n++] = (off){a->dx, a->dy, am};
        }
        if (self == 1) {
            for (j = 0; j < st->noffsets; j++)
                if (st->offsets[j].dx == 0 && st->offsets[j].dy == 0)
                    break;
            if (j == st->noffsets)
                o[n++] = (off){0, 0, amount};
        }
        /* An empty list with self: true is a press that changes only its
         * own cell: trivial, but a rule. Nothing at all is an error. */
        if (n == 0) {
            free(o);
            if (st->noffsets > 0)
                return qn_rules__fail(err, st->mark,
                            "%s stencil has no offsets once self: false "
                            "removes [0, 0]",
                            what);
            return qn_rules__fail(err, st->mark,
                        "%s stencil has no offsets (list some, or add "
                        "self: true for a press that changes its own "
                        "cell)",
                        what);
        }
    } else if (st->kind != QN_STENCIL_ROWCOL && self != 0) {
        o[n++] = (off){0, 0, amount};
    }
    *out = o;
    *nout = n;
    return QN_OK;
}

/* The class of a grid cell: 0 interior, 1 edge, 2 corner. */
static int cell_class(const qn_layout *l, int r, int c)
{
    int bx = c == 0 || c == l->w - 1, by = r == 0 || r == l->h - 1;

    return bx + by;
}

/*
 * Orient an offset written for the top-left corner or the top edge onto
 * the cell at (r, c): corners mirror (dx -> -dx on the right, dy -> -dy at
 * the bottom); edges reflect the top edge onto the others: left (dy, dx),
 * right (-dy, dx), bottom (dx, -dy). Every map sends "inwards" to
 * "inwards" and keeps the stencil's own left-right symmetry.
 */
static void orient(const qn_layout *l, int cls, int r, int c, int *dx, int *dy)
{
    int x = *dx, y = *dy;

    if (cls == 2) {
        if (c == l->w - 1 && l->w > 1)
            x = -x;
        if (r == l->h - 1 && l->h > 1)
            y = -y;
    } else if (cls == 1) {
        if (r == 0) {
            /* top: as written */
        } else if (r == l->h - 1) {
            y = -y;
        } else if (c == 0) {
            int t = x;
            x = y;
            y = t;
        } else {
            int t = x;
            x = -y;
            y = t;
        }
    }
    *dx = x;
    *dy = y;
}

/* ------------------------------------------------------------------ */
/* Compiling */

typedef struct cls_stencil {
    const qn_stencil_spec *spec; /* NULL = no stencil for this class */
    off *offs;
    size_t noffs;
} cls_stencil;

static int press_column(uint8_t *a, const qn_layout *l, unsigned k,
                        const cls_stencil *cs, int j, int cls, int self,
                        unsigned amount)
{
    int n = l->ncells, r, c, t, i, dx, dy;
    size_t o;

    qn_layout_rc(l, j, &r, &c);
    if (cs->spec->kind == QN_STENCIL_ROWCOL) {
        for (i = 0; i < n; i++) {
            int ri, ci;
            qn_layout_rc(l, i, &ri, &ci);
            if ((ri == r || ci == c) && (i != j || self != 0))
                a[(size_t)i * n + j] =
                    (uint8_t)((a[(size_t)i * n + j] + amount) % k);
        }
        return 0;
    }
    for (o = 0; o < cs->noffs; o++) {
        dx = cs->offs[o].dx;
        dy = cs->offs[o].dy;
        if (cls > 0)
            orient(l, cls, r, c, &dx, &dy);
        t = qn_layout_step(l, j, dx, dy);
        if (t >= 0)
            a[(size_t)t * n + j] =
                (uint8_t)((a[(size_t)t * n + j] + cs->offs[o].amount) % k);
    }
    return 0;
}

static int build_matrix(qn_rules *r, const qn_rules_spec *s, qn_err *err)
{
    const qn_layout *l = &r->layout;
    int n = r->n, j, rc = QN_OK, cls;
    unsigned k = r->k, amount = s->has_amount ? (unsigned)s->amount : 1;
    cls_stencil cs[4]; /* 0 interior, 1 edge, 2 corner, 3 default */
    const qn_stencil_spec *specs[4] = {&s->interior, &s->edge, &s->corner,
                                       &s->stencil};
    static const char *const names[4] = {"interior", "edge", "corner", "press"};
    int has_classes = s->corner.kind || s->edge.kind || s->interior.kind;
    uint8_t *given = NULL;
    qn_mark *emark = NULL;
    size_t e, t, u;

    memset(cs, 0, sizeof(cs));
    if (s->has_press && l->kind == QN_LAYOUT_GRAPH)
        return qn_rules__fail(err, s->press_mark,
                    "'press' needs a grid or hex board; "
                    "graph boards use 'effects'");
    if (!s->has_press && !s->has_effects)
        return qn_rules__fail(err, s->mark, "missing 'press' (or 'effects')");
    if (s->has_amount && (rc = qn_rules__check_amount(s->amount, k, s->amount_mark, err)))
        return rc;
    if (has_classes && (l->kind != QN_LAYOUT_GRID || l->wrap)) {
        const qn_stencil_spec *c0 = s->corner.kind ? &s->corner
                                    : s->edge.kind ? &s->edge
                                                   : &s->interior;
        return qn_rules__fail(err, c0->mark,
                    "per-class stencils need a grid board "
                    "without wrap");
    }
    if (s->has_press && !s->stencil.kind && !has_classes)
        return qn_rules__fail(err, s->press_mark,
                    "press needs 'stencil' or 'corner', "
                    "'edge' and 'interior'");
    for (j = 0; j < 4; j++) {
        const qn_stencil_spec *sp = specs[j]->kind ? specs[j] : NULL;
        if (!sp && j < 3)
            sp = s->stencil.kind ? &s->stencil : NULL;
        if (!sp)
            continue;
        cs[j].spec = sp;
        /* a class without a stencil of its own borrows `stencil`, and
         * its errors are that one's */
        if (sp->kind != QN_STENCIL_ROWCOL &&
            (rc =
                 qn_rules__expand(&cs[j].offs, &cs[j].noffs, sp, s,
                                  l->kind != QN_LAYOUT_GRID, k,
                                  sp == &s->stencil ? "press" : names[j],
                                  err)))
            goto done;
        if (sp->kind == QN_STENCIL_ROWCOL && l->kind != QN_LAYOUT_GRID) {
            rc = qn_rules__fail(err, sp->mark,
                      "stencil 'rowcol' is for grids; hex "
                      "boards use 'hex' or a list of [dq, dr] offsets");
            goto done;
        }
    }
    for (j = 0; j < n; j++) {
        int rr, cc;
        qn_layout_rc(l, j, &rr, &cc);
        cls = has_classes ? cell_class(l, rr, cc) : 3;
        if (cs[cls].spec)
            press_column(r->matrix, l, k, &cs[cls], j, has_classes ? cls : 0,
                         s->self, amount);
    }

    /* Explicit effects replace whole columns. */
    given = QN_NEWN((size_t)n, uint8_t);
    emark = QN_NEWN((size_t)n, qn_mark);
    for (e = 0; e < s->neffects; e++) {
        const qn_effect_spec *ef = &s->effects[e];
        if (ef->cell < 0 || ef->cell >= n) {
            rc = qn_rules__fail(err, ef->mark, "cell %ld out of range 0..%d", ef->cell,
                      n - 1);
            goto done;
        }
        j = (int)ef->cell;
        if (given[j]) {
            rc = qn_rules__fail(err, ef->mark,
                      "effects of cell %d given twice (first "
                      "on line %d)",
                      j, emark[j].line);
            goto done;
        }
        given[j] = 1;
        emark[j] = ef->mark;
        for (t = 0; t < (size_t)n; t++)
            r->matrix[t * n + j] = 0;
        for (t = 0; t < ef->ntargets; t++) {
            const qn_effect_target *tg = &ef->targets[t];
            unsigned am = amount;
            if (tg->cell < 0 || tg->cell >= n) {
                rc = qn_rules__fail(err, tg->mark, "cell %ld out of range 0..%d",
                          tg->cell, n - 1);
                goto done;
            }
            for (u = 0; u < t; u++)
                if (ef->targets[u].cell == tg->cell) {
                    rc = qn_rules__fail(err, tg->mark,
                              "cell %ld listed twice in the "
                              "effects of cell %d",
                              tg->cell, j);
                    goto done;
                }
            if (tg->has_amount) {
                if ((rc = qn_rules__check_amount(tg->amount, k, tg->mark, err)))
                    goto done;
                am = (unsigned)tg->amount;
            }
            r->matrix[(size_t)tg->cell * n + j] = (uint8_t)am;
        }
    }

    /* Every press must do something, or the cell is dead weight and the
     * rule file is almost certainly wrong. */
    for (j = 0; j < n; j++) {
        int i, rr, cc;
        qn_mark m;
        for (i = 0; i < n; i++)
            if (r->matrix[(size_t)i * n + j])
                break;
        if (i < n)
            continue;
        if (given[j]) {
            m = emark[j];
        } else if (s->has_press) {
            m = s->press_mark;
            qn_layout_rc(l, j, &rr, &cc);
            cls = has_classes ? cell_class(l, rr, cc) : 3;
            if (cs[cls].spec)
                m = cs[cls].spec->mark;
        } else {
            m = s->effects_mark;
        }
        if (l->kind == QN_LAYOUT_GRAPH) {
            rc = qn_rules__fail(err, m, "press of cell %d has no effect%s", j,
                      given[j] ? "" : " (it has no 'effects' entry)");
        } else {
            qn_layout_rc(l, j, &rr, &cc);
            rc = qn_rules__fail(err, m,
                      "press of cell %d (row %d, col %d) has no "
                      "effect",
                      j, rr, cc);
        }
        goto done;
    }
done:
    for (j = 0; j < 4; j++)
        free(cs[j].offs);
    free(given);
    free(emark);
    return rc;
}

static int build_goal(qn_rules *r, const qn_rules_spec *s, qn_err *err)
{
    const qn_text_spec *t = &s->goal;
    qn_err e = QN_ERR_INIT;
    qn_mark m;

    if (!t->text)
        return QN_OK; /* calloc'd: all zero */
    if (qn_state_parse(r->goal, &r->layout, r->k, t->text, t->len, &e) == QN_OK)
        return QN_OK;
    m = text_pos(t, e.line, e.col);
    return qn_rules__fail(err, m, "goal: %s", e.msg);
}

static int build_tiers(qn_rules *r, const qn_rules_spec *s, qn_err *err)
{
    long most = (long)r->n * (long)(r->k - 1);
    size_t i;

    if (s->ntiers > QN_RULES_MAX_TIERS)
        return qn_rules__fail(err, s->grading_mark,
                    "grading has %zu tiers, the limit "
                    "is %d",
                    s->ntiers, QN_RULES_MAX_TIERS);
    for (i = 0; i < s->ntiers; i++) {
        const qn_tier_spec *t = &s->tiers[i];
        if (!is_slug(t->name, QN_RULES_MAX_NAME))
            return qn_rules__fail(err, t->mark,
                        "tier name '%s' must be a slug: "
                        "lowercase letters, digits, '-' and '_'",
                        t->name);
        if (t->lo < 0 || t->hi < t->lo)
            return qn_rules__fail(err, t->mark,
                        "tier '%s' range %ld..%ld must be "
                        "lo..hi with 0 <= lo <= hi",
                        t->name, t->lo, t->hi);
        if (t->hi > most)
            return qn_rules__fail(err, t->mark,
                        "tier '%s' range %ld..%ld goes past "
                        "%ld, the most presses a board can take",
                        t->name, t->lo, t->hi, most);
        if (i > 0 && t->lo <= s->tiers[i - 1].hi)
            return qn_rules__fail(err, t->mark,
                        "tier '%s' range %ld..%ld must start "
                        "after '%s' (%ld..%ld)",
                        t->name, t->lo, t->hi, s->tiers[i - 1].name,
                        s->tiers[i - 1].lo, s->tiers[i - 1].hi);
    }
    r->ntiers = s->ntiers;
    r->tiers = QN_NEWN(s->ntiers ? s->ntiers : 1, tier);
    for (i = 0; i < s->ntiers; i++) {
        r->tiers[i].name = qn_xstrdup(s->tiers[i].name);
        r->tiers[i].lo = (int)s->tiers[i].lo;
        r->tiers[i].hi = (int)s->tiers[i].hi;
    }
    return QN_OK;
}

static void build_hash(qn_rules *r)
{
    static const char tag[] = "quench-rules-1";
    qn_hash h;
    uint8_t d[QN_HASH_BYTES];

    qn_hash_init(&h);
    qn_hash_update(&h, tag, sizeof(tag)); /* includes the NUL */
    qn_hash_u32(&h, (uint32_t)r->n);
    qn_hash_u32(&h, r->k);
    qn_hash_update(&h, r->matrix, (size_t)r->n * r->n);
    qn_hash_update(&h, r->goal, (size_t)r->n);
    qn_hash_final(&h, d);
    qn_hash_hex(r->hash, d);
}

/*
 * Graph boards have no geometry to propose candidates, so small ones get a
 * backtracking search for all automorphisms: cells are mapped in order,
 * each choice checked against every earlier one (A[p(i)][p(j)] = A[i][j]
 * both ways, same diagonal, same goal, same in/out degree). The identity
 * is found first. Bounded in cells, group size and steps; past a bound the
 * group is left as the identity and the name says the search gave up.
 */
#define GRAPH_SYM_MAX_CELLS 64
#define GRAPH_SYM_MAX_GROUP 1024
#define GRAPH_SYM_MAX_STEPS 2000000L

typedef struct gsearch {
    const uint8_t *a, *goal;
    int n;
    int *p, *din, *dout;
    uint8_t *used;
    int *out; /* found permutations, nout * n */
    size_t nout;
    long steps;
    int gave_up;
} gsearch;

static void gs_rec(gsearch *g, int i)
{
    int n = g->n, v, j;

    if (i == n) {
        if (g->nout == GRAPH_SYM_MAX_GROUP) {
            g->gave_up = 1;
            return;
        }
        memcpy(g->out + g->nout++ * (size_t)n, g->p, (size_t)n * sizeof(int));
        return;
    }
    for (v = 0; v < n && !g->gave_up; v++) {
        if (g->used[v])
            continue;
        if (++g->steps > GRAPH_SYM_MAX_STEPS) {
            g->gave_up = 1;
            return;
        }
        if (g->goal[v] != g->goal[i] || g->din[v] != g->din[i] ||
            g->dout[v] != g->dout[i] ||
            g->a[(size_t)v * n + v] != g->a[(size_t)i * n + i])
            continue;
        for (j = 0; j < i; j++)
            if (g->a[(size_t)v * n + g->p[j]] != g->a[(size_t)i * n + j] ||
                g->a[(size_t)g->p[j] * n + v] != g->a[(size_t)j * n + i])
                break;
        if (j < i)
            continue;
        g->p[i] = v;
        g->used[v] = 1;
        gs_rec(g, i + 1);
        g->used[v] = 0;
    }
}

static size_t gcd(size_t a, size_t b)
{
    while (b) {
        size_t t = a % b;
        a = b;
        b = t;
    }
    return a;
}

/* Order of a permutation: the lcm of its cycle lengths. */
static size_t perm_order(const int *p, int n)
{
    size_t ord = 1, len;
    int i, j;
    uint8_t *seen = QN_NEWN((size_t)n, uint8_t);

    for (i = 0; i < n; i++) {
        if (seen[i])
            continue;
        for (len = 0, j = i; !seen[j]; j = p[j], len++)
            seen[j] = 1;
        ord = ord / gcd(ord, len) * len;
    }
    free(seen);
    return ord;
}

/* Name an abstract permutation group: cyclic, elementary abelian 2-group,
 * dihedral, or just its order. */
static void name_group(char *out, size_t size, const int *g, size_t m, int n)
{
    size_t i, maxo = 1, maxi = 0, ninv = 0, o, k;
    int *pw, *nx, x;

    if (m == 1) {
        snprintf(out, size, "trivial");
        return;
    }
    for (i = 1; i < m; i++) {
        o = perm_order(g + i * (size_t)n, n);
        ninv += o == 2;
        if (o > maxo) {
            maxo = o;
            maxi = i;
        }
    }
    if (maxo == m) {
        snprintf(out, size, "C%zu (order %zu)", m, m);
        return;
    }
    if (ninv == m - 1) {
        for (k = 0, o = m; o > 1; o /= 2)
            k++;
        if (m == 4)
            snprintf(out, size, "C2 x C2 (order 4)");
        else
            snprintf(out, size, "C2^%zu (order %zu)", k, m);
        return;
    }
    if (2 * maxo == m && maxo >= 3 && ninv >= maxo) {
        /* Dihedral iff everything outside the rotations <r> is an
         * involution; there are exactly maxo such elements. */
        size_t outside = 0, inv_out = 0;
        uint8_t *inr = QN_NEWN(m, uint8_t);
        pw = QN_NEWN((size_t)n, int);
        nx = QN_NEWN((size_t)n, int);
        for (x = 0; x < n; x++)
            pw[x] = x;
        for (k = 0; k < maxo; k++) {
            for (i = 0; i < m; i++)
                if (!memcmp(g + i * (size_t)n, pw, (size_t)n * sizeof(int)))
                    inr[i] = 1;
            for (x = 0; x < n; x++)
                nx[x] = g[maxi * (size_t)n + pw[x]];
            memcpy(pw, nx, (size_t)n * sizeof(int));
        }
        for (i = 0; i < m; i++)
            if (!inr[i]) {
                outside++;
                inv_out += perm_order(g + i * (size_t)n, n) == 2;
            }
        free(inr);
        free(pw);
        free(nx);
        if (outside == maxo && inv_out == outside) {
            snprintf(out, size, "D%zu (order %zu)", maxo, m);
            return;
        }
    }
    snprintf(out, size, "order %zu", m);
}

static void graph_syms(qn_rules *r)
{
    int n = r->n, i, j;
    gsearch g;

    memset(&g, 0, sizeof(g));
    g.a = r->matrix;
    g.goal = r->goal;
    g.n = n;
    if (n > GRAPH_SYM_MAX_CELLS) {
        g.gave_up = 1;
    } else {
        g.p = QN_NEWN((size_t)n, int);
        g.din = QN_NEWN((size_t)n, int);
        g.dout = QN_NEWN((size_t)n, int);
        g.used = QN_NEWN((size_t)n, uint8_t);
        g.out = QN_NEWN((size_t)GRAPH_SYM_MAX_GROUP * n, int);
        for (i = 0; i < n; i++)
            for (j = 0; j < n; j++)
                if (r->matrix[(size_t)i * n + j]) {
                    g.dout[j]++;
                    g.din[i]++;
                }
        gs_rec(&g, 0);
        free(g.p);
        free(g.din);
        free(g.dout);
        free(g.used);
    }
    if (g.gave_up) {
        free(g.out);
        r->syms = QN_NEWN((size_t)n, int);
        for (i = 0; i < n; i++)
            r->syms[i] = i;
        r->nsyms = 1;
        snprintf(r->symname, sizeof(r->symname),
                 "not searched (graph too large)");
        return;
    }
    r->syms = QN_RENEW(g.out, g.nout * (size_t)n, int);
    r->nsyms = g.nout;
    name_group(r->symname, sizeof(r->symname), r->syms, r->nsyms, n);
}

/*
 * Symmetries: the layout proposes the shape's symmetries; keep those that
 * preserve A and the goal. The test walks the nonzero entries of each
 * column (A is sparse for every stencil), so a candidate costs O(nnz).
 */
static void build_syms(qn_rules *r)
{
    int n = r->n, *cand, *point, trunc, *colstart, *rows, i, j;
    size_t ncand, c, nkeep = 0, nnz = 0, q;
    const uint8_t *a = r->matrix;
    int npoint = r->layout.kind == QN_LAYOUT_GRID ? 8 : 12;
    int has_point[12] = {0}, nrot = 0, nmir = 0;
    size_t ntrans = 0, budget = ((size_t)1 << 22) / (size_t)n;
    char group[48];

    if (r->layout.kind == QN_LAYOUT_GRAPH) {
        graph_syms(r);
        return;
    }
    qn_layout_symmetries(&r->layout, budget < 8 ? 8 : budget, &cand, &point,
                         &ncand, &trunc);
    colstart = QN_NEWN((size_t)n + 1, int);
    for (j = 0; j < n; j++)
        for (i = 0; i < n; i++)
            nnz += a[(size_t)i * n + j] != 0;
    rows = QN_NEWN(nnz ? nnz : 1, int);
    nnz = 0;
    for (j = 0; j < n; j++) {
        colstart[j] = (int)nnz;
        for (i = 0; i < n; i++)
            if (a[(size_t)i * n + j])
                rows[nnz++] = i;
    }
    colstart[n] = (int)nnz;
    for (c = 0; c < ncand; c++) {
        const int *p = cand + c * (size_t)n;
        int ok = 1;
        for (j = 0; ok && j < n; j++) {
            int pj = p[j];
            if (r->goal[pj] != r->goal[j] || colstart[pj + 1] - colstart[pj] !=
                                                 colstart[j + 1] - colstart[j])
                ok = 0;
            for (q = (size_t)colstart[j]; ok && q < (size_t)colstart[j + 1];
                 q++) {
                i = rows[q];
                if (a[(size_t)p[i] * n + pj] != a[(size_t)i * n + j])
                    ok = 0;
            }
        }
        if (!ok)
            continue;
        if (nkeep != c)
            memcpy(cand + nkeep * (size_t)n, p, (size_t)n * sizeof(int));
        point[nkeep++] = point[c];
        if (point[c] == 0)
            ntrans++;
        has_point[point[c]] = 1;
    }
    for (i = 0; i < npoint; i++) {
        if (!has_point[i])
            continue;
        if (i < npoint / 2)
            nrot++;
        else
            nmir++;
    }
    r->syms = cand;
    r->nsyms = nkeep;
    if (nrot == 1 && nmir == 0)
        snprintf(group, sizeof(group), "trivial");
    else if (nmir == 0)
        snprintf(group, sizeof(group), "C%d", nrot);
    else if (nrot == 1)
        snprintf(group, sizeof(group), "mirror C2");
    else if (nrot == 2)
        snprintf(group, sizeof(group), "C2 x C2");
    else
        snprintf(group, sizeof(group), "D%d", nrot);
    if (nkeep == 1)
        snprintf(r->symname, sizeof(r->symname), "trivial");
    else if (ntrans > 1 && nrot == 1 && nmir == 0)
        snprintf(r->symname, sizeof(r->symname), "%zu translations (order %zu)",
                 ntrans, nkeep);
    else if (ntrans > 1)
        snprintf(r->symname, sizeof(r->symname),
                 "%s with %zu translations (order %zu)", group, ntrans, nkeep);
    else
        snprintf(r->symname, sizeof(r->symname), "%s (order %zu)", group,
                 nkeep);
    if (trunc) {
        size_t len = strlen(r->symname);
        snprintf(r->symname + len, sizeof(r->symname) - len,
                 "; translations not enumerated");
    }
    free(point);
    free(colstart);
    free(rows);
}

/* The checks every rule file passes, whatever its board. */
int qn_rules__check_header(const qn_rules_spec *s, qn_err *err)
{
    const char *texts[3] = {s->title, s->description, s->author};
    const qn_mark marks[3] = {s->title_mark, s->description_mark,
                              s->author_mark};
    static const char *const keys[3] = {"title", "description", "author"};
    qn_err why = QN_ERR_INIT;

    if (!s->has_version)
        return qn_rules__fail(err, s->mark,
                              "missing 'quench: %d' (the schema version)",
                              QN_RULES_VERSION);
    if (s->version != QN_RULES_VERSION)
        return qn_rules__fail(err, s->version_mark,
                              "unsupported schema version %ld (this quench "
                              "reads %d)",
                              s->version, QN_RULES_VERSION);
    if (!s->name)
        return qn_rules__fail(err, s->mark, "missing 'name'");
    if (!is_slug(s->name, QN_RULES_MAX_NAME))
        return qn_rules__fail(err, s->name_mark,
                              "name '%.64s' must be a slug of up to %d "
                              "lowercase letters, digits, '-' and '_'",
                              s->name, QN_RULES_MAX_NAME);
    /* the checks of a pack's texts (text.h): a description may span
     * lines, a title or author may not */
    for (int i = 0; i < 3; i++)
        if (texts[i] && qn_text_check(texts[i], QN_RULES_MAX_TEXT,
                                      i == 1 ? QN_TEXT_LINES : 0, keys[i],
                                      &why) != QN_OK)
            return qn_rules__fail(err, marks[i], "%s", why.msg);
    if (s->has_colours && (s->colours < 2 || s->colours > 255))
        return qn_rules__fail(err, s->colours_mark,
                              "colours must be 2..255, got %ld", s->colours);
    return QN_OK;
}

int qn_rules_build(qn_rules **out, const qn_rules_spec *s, const char *source,
                   qn_err *err)
{
    qn_rules *r = QN_NEW(qn_rules);
    int rc, i, j, n;

    *out = NULL;
    if ((rc = qn_rules__check_header(s, err)) != QN_OK)
        goto fail;
    r->k = s->has_colours ? (unsigned)s->colours : 2;
    if ((rc = build_layout(&r->layout, s, err)) != QN_OK)
        goto fail;
    n = r->n = r->layout.ncells;
    r->matrix = QN_NEWN((size_t)n * n, uint8_t);
    r->goal = QN_NEWN((size_t)n, uint8_t);
    if ((rc = build_matrix(r, s, err)) != QN_OK ||
        (rc = build_goal(r, s, err)) != QN_OK ||
        (rc = build_tiers(r, s, err)) != QN_OK)
        goto fail;
    r->name = qn_xstrdup(s->name);
    r->title = qn_xstrdup(s->title ? s->title : "");
    r->description = qn_xstrdup(s->description ? s->description : "");
    r->author = qn_xstrdup(s->author ? s->author : "");
    r->symmetric = 1;
    for (i = 0; i < n && r->symmetric; i++)
        for (j = 0; j < i; j++)
            if (r->matrix[(size_t)i * n + j] != r->matrix[(size_t)j * n + i]) {
                r->symmetric = 0;
                break;
            }
    build_hash(r);
    build_syms(r);
    r->syminv = QN_NEWN(r->nsyms * (size_t)r->n + 1, int);
    for (size_t g = 0; g < r->nsyms; g++)
        for (int c = 0; c < r->n; c++)
            r->syminv[g * (size_t)r->n + r->syms[g * (size_t)r->n + c]] = c;
    *out = r;
    return QN_OK;
fail:
    qn_err_source(err, source ? source : "");
    qn_rules_free(r);
    return rc;
}

void qn_rules_free(qn_rules *r)
{
    size_t i;

    if (!r)
        return;
    free(r->name);
    free(r->title);
    free(r->description);
    free(r->author);
    qn_layout_release(&r->layout);
    free(r->matrix);
    free(r->goal);
    for (i = 0; i < r->ntiers; i++)
        free(r->tiers[i].name);
    free(r->tiers);
    free(r->syms);
    free(r->syminv);
    free(r);
}

/* ------------------------------------------------------------------ */
/* Accessors */

const char *qn_rules_name(const qn_rules *r)
{
    return r->name;
}
const char *qn_rules_title(const qn_rules *r)
{
    return r->title;
}
const char *qn_rules_description(const qn_rules *r)
{
    return r->description;
}
const char *qn_rules_author(const qn_rules *r)
{
    return r->author;
}
int qn_rules_ncells(const qn_rules *r)
{
    return r->n;
}
unsigned qn_rules_colours(const qn_rules *r)
{
    return r->k;
}
const uint8_t *qn_rules_matrix(const qn_rules *r)
{
    return r->matrix;
}
const uint8_t *qn_rules_goal(const qn_rules *r)
{
    return r->goal;
}
const qn_layout *qn_rules_layout(const qn_rules *r)
{
    return &r->layout;
}
int qn_rules_is_symmetric(const qn_rules *r)
{
    return r->symmetric;
}

void qn_rules_hash(const qn_rules *r, char hex_out[65])
{
    memcpy(hex_out, r->hash, 65);
}

size_t qn_rules_ntiers(const qn_rules *r)
{
    return r->ntiers;
}

const char *qn_rules_tier_name(const qn_rules *r, size_t i)
{
    return r->tiers[i].name;
}

int qn_rules_tier_lo(const qn_rules *r, size_t i)
{
    return r->tiers[i].lo;
}
int qn_rules_tier_hi(const qn_rules *r, size_t i)
{
    return r->tiers[i].hi;
}
const int *qn_rules_sym_inverse(const qn_rules *r, size_t i)
{
    return r->syminv + i * (size_t)r->n;
}

size_t qn_rules_nsyms(const qn_rules *r)
{
    return r->nsyms;
}

const int *qn_rules_sym(const qn_rules *r, size_t i)
{
    return r->syms + i * (size_t)r->n;
}

const char *qn_rules_symmetry_name(const qn_rules *r)
{
    return r->symname;
}
