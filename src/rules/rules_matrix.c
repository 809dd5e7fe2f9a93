/*
 * rules_matrix.c: compiling 'press' (one stencil, or one per cell class:
 * corner, edge, interior) and explicit 'effects' into the press matrix A,
 * and refusing a press that changes nothing.
 */
#include "rules_internal.h"

#include <stdlib.h>
#include <string.h>

#include "base/mem.h"

typedef qn_rules_off off;

int qn_rules__cell_class(const qn_layout *l, int r, int c)
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

/* orient's maps are their own inverses but for the right edge's, (dx, dy)
 * -> (-dy, dx), undone by (dx, dy) -> (dy, -dx). */
void qn_rules__unorient(const qn_layout *l, int cls, int r, int c, int *dx,
                        int *dy)
{
    int x = *dx;

    if (cls == 1 && r != 0 && r != l->h - 1 && c != 0) {
        *dx = *dy;
        *dy = -x;
        return;
    }
    orient(l, cls, r, c, dx, dy);
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

/* What compiling one rule's presses needs, and what it has found. */
typedef struct press {
    uint8_t *a; /* n * n, A[i * n + j] */
    const qn_layout *l;
    const qn_rules_spec *s;
    unsigned k, amount; /* colours; the default amount */
    int has_classes;    /* corner, edge, interior given */
    cls_stencil cs[4];  /* 0 interior, 1 edge, 2 corner, 3 default */
    uint8_t *given;     /* n: the cell has an 'effects' entry */
    qn_mark *emark;     /* n: where that entry is */
} press;

/* Index into p->cs of the stencil for cell j. */
static int class_of(const press *p, int j)
{
    int r, c;

    if (!p->has_classes)
        return 3;
    qn_layout_rc(p->l, j, &r, &c);
    return qn_rules__cell_class(p->l, r, c);
}

/* What 'press' needs of the board and of itself. */
static int check_press(const press *p, qn_err *err)
{
    const qn_rules_spec *s = p->s;
    const qn_layout *l = p->l;
    int rc;

    if (s->has_press && l->kind == QN_LAYOUT_GRAPH)
        return qn_rules__fail(err, s->press_mark,
                              "'press' needs a grid or hex board; "
                              "graph boards use 'effects'");
    if (!s->has_press && !s->has_effects)
        return qn_rules__fail(err, s->mark, "missing 'press' (or 'effects')");
    if (s->has_amount &&
        (rc = qn_rules__check_amount(s->amount, p->k, s->amount_mark, err)))
        return rc;
    if (p->has_classes && (l->kind != QN_LAYOUT_GRID || l->wrap)) {
        const qn_stencil_spec *c0 = s->corner.kind ? &s->corner
                                    : s->edge.kind ? &s->edge
                                                   : &s->interior;
        return qn_rules__fail(err, c0->mark,
                              "per-class stencils need a grid board "
                              "without wrap");
    }
    if (s->has_press && !s->stencil.kind && !p->has_classes)
        return qn_rules__fail(err, s->press_mark,
                              "press needs 'stencil' or 'corner', "
                              "'edge' and 'interior'");
    return QN_OK;
}

/* The stencil of each class, expanded into p->cs. */
static int expand_classes(press *p, qn_err *err)
{
    const qn_rules_spec *s = p->s;
    const qn_stencil_spec *specs[4] = {&s->interior, &s->edge, &s->corner,
                                       &s->stencil};
    static const char *const names[4] = {"interior", "edge", "corner", "press"};
    int j, rc, is_grid = p->l->kind == QN_LAYOUT_GRID;

    for (j = 0; j < 4; j++) {
        const qn_stencil_spec *sp = specs[j]->kind ? specs[j] : NULL;
        if (!sp && j < 3)
            sp = s->stencil.kind ? &s->stencil : NULL;
        if (!sp)
            continue;
        p->cs[j].spec = sp;
        /* a class without a stencil of its own borrows `stencil`, and
         * its errors are that one's */
        if (sp->kind != QN_STENCIL_ROWCOL &&
            (rc = qn_rules__expand(
                 &p->cs[j].offs, &p->cs[j].noffs, sp, s, !is_grid, p->k,
                 sp == &s->stencil ? "press" : names[j], err)))
            return rc;
        if (sp->kind == QN_STENCIL_ROWCOL && !is_grid)
            return qn_rules__fail(
                err, sp->mark,
                "stencil 'rowcol' is for grids; hex "
                "boards use 'hex' or a list of [dq, dr] offsets");
    }
    return QN_OK;
}

/* Explicit effects replace whole columns. */
static int apply_effects(press *p, qn_err *err)
{
    const qn_rules_spec *s = p->s;
    int n = p->l->ncells, j, rc;
    size_t e, t, u;

    for (e = 0; e < s->neffects; e++) {
        const qn_effect_spec *ef = &s->effects[e];
        if (ef->cell < 0 || ef->cell >= n)
            return qn_rules__fail(err, ef->mark, "cell %ld out of range 0..%d",
                                  ef->cell, n - 1);
        j = (int)ef->cell;
        if (p->given[j])
            return qn_rules__fail(err, ef->mark,
                                  "effects of cell %d given twice (first "
                                  "on line %d)",
                                  j, p->emark[j].line);
        p->given[j] = 1;
        p->emark[j] = ef->mark;
        for (t = 0; t < (size_t)n; t++)
            p->a[t * n + j] = 0;
        for (t = 0; t < ef->ntargets; t++) {
            const qn_effect_target *tg = &ef->targets[t];
            unsigned am = p->amount;
            if (tg->cell < 0 || tg->cell >= n)
                return qn_rules__fail(err, tg->mark,
                                      "cell %ld out of range 0..%d", tg->cell,
                                      n - 1);
            for (u = 0; u < t; u++)
                if (ef->targets[u].cell == tg->cell)
                    return qn_rules__fail(err, tg->mark,
                                          "cell %ld listed twice in the "
                                          "effects of cell %d",
                                          tg->cell, j);
            if (tg->has_amount) {
                if ((rc = qn_rules__check_amount(tg->amount, p->k, tg->mark,
                                                 err)))
                    return rc;
                am = (unsigned)tg->amount;
            }
            p->a[(size_t)tg->cell * n + j] = (uint8_t)am;
        }
    }
    return QN_OK;
}

/* Every press must do something, or the cell is dead weight and the rule
 * file is almost certainly wrong. The error points at what made the
 * column: its effects entry, its class's stencil, or the section. */
static int check_dead_presses(const press *p, qn_err *err)
{
    const qn_rules_spec *s = p->s;
    const qn_layout *l = p->l;
    int n = l->ncells, i, j, rr, cc, cls;
    qn_mark m;

    for (j = 0; j < n; j++) {
        for (i = 0; i < n; i++)
            if (p->a[(size_t)i * n + j])
                break;
        if (i < n)
            continue;
        if (p->given[j]) {
            m = p->emark[j];
        } else if (s->has_press) {
            m = s->press_mark;
            cls = class_of(p, j);
            if (p->cs[cls].spec)
                m = p->cs[cls].spec->mark;
        } else {
            m = s->effects_mark;
        }
        if (l->kind == QN_LAYOUT_GRAPH)
            return qn_rules__fail(err, m, "press of cell %d has no effect%s", j,
                                  p->given[j] ? ""
                                              : " (it has no 'effects' entry)");
        qn_layout_rc(l, j, &rr, &cc);
        return qn_rules__fail(err, m,
                              "press of cell %d (row %d, col %d) has no "
                              "effect",
                              j, rr, cc);
    }
    return QN_OK;
}

int qn_rules__build_matrix(uint8_t *a, const qn_layout *l, unsigned k,
                           const qn_rules_spec *s, qn_err *err)
{
    press p;
    int n = l->ncells, j, cls, rc;

    memset(&p, 0, sizeof(p));
    p.a = a;
    p.l = l;
    p.s = s;
    p.k = k;
    p.amount = s->has_amount ? (unsigned)s->amount : 1;
    p.has_classes = s->corner.kind || s->edge.kind || s->interior.kind;
    if ((rc = check_press(&p, err)) != QN_OK)
        return rc;
    if ((rc = expand_classes(&p, err)) != QN_OK)
        goto done;
    for (j = 0; j < n; j++) {
        cls = class_of(&p, j);
        if (p.cs[cls].spec)
            press_column(a, l, k, &p.cs[cls], j, p.has_classes ? cls : 0,
                         s->self, p.amount);
    }
    p.given = QN_ALLOCN((size_t)n, uint8_t);
    p.emark = QN_ALLOCN((size_t)n, qn_mark);
    if (!p.given || !p.emark)
        rc = qn_err_nomem(err);
    else if ((rc = apply_effects(&p, err)) == QN_OK)
        rc = check_dead_presses(&p, err);
done:
    for (j = 0; j < 4; j++)
        free(p.cs[j].offs);
    free(p.given);
    free(p.emark);
    return rc;
}
