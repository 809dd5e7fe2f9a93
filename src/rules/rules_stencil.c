/*
 * rules_stencil.c: a press stencil (a named neighbourhood or a list of
 * offsets) expanded into offsets with amounts; shared by the dense rules
 * and the big-grid rules (rules_grid.c).
 */
#include "rules_internal.h"

#include <stdlib.h>

#include "base/mem.h"

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

/* The offsets of a named stencil, all with the one amount; returns how
 * many (at most 8). Moore is plus and x interleaved. */
static size_t named_offsets(off *o, qn_stencil_kind kind, unsigned amount)
{
    const int(*tab)[2] = NULL;
    size_t ntab = 0, i, n = 0;

    switch (kind) {
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
    case QN_STENCIL_MOORE:
        for (i = 0; i < 4; i++) {
            o[n++] = (off){plus_offs[i][0], plus_offs[i][1], amount};
            o[n++] = (off){x_offs[i][0], x_offs[i][1], amount};
        }
        break;
    default:
        break;
    }
    for (i = 0; i < ntab; i++)
        o[n++] = (off){tab[i][0], tab[i][1], amount};
    return n;
}

/* An offset list as written, checked, into o (room for noffsets + 1);
 * `self` adds or removes [0, 0] only when given. */
static int list_offsets(off *o, size_t *nout, const qn_stencil_spec *st,
                        int self, unsigned amount, unsigned k, const char *what,
                        qn_err *err)
{
    size_t i, j, n = 0;
    int rc;

    if (st->noffsets > QN_RULES_MAX_OFFSETS)
        return qn_rules__fail(err, st->mark,
                              "%s stencil has %zu offsets, the "
                              "limit is %d",
                              what, st->noffsets, QN_RULES_MAX_OFFSETS);
    for (i = 0; i < st->noffsets; i++) {
        const qn_offset *a = &st->offsets[i];
        unsigned am = amount;
        if (a->dx < -QN_LAYOUT_MAX_SIDE || a->dx > QN_LAYOUT_MAX_SIDE ||
            a->dy < -QN_LAYOUT_MAX_SIDE || a->dy > QN_LAYOUT_MAX_SIDE)
            return qn_rules__fail(err, a->mark,
                                  "offset [%d, %d] is larger than "
                                  "any board (limit %d)",
                                  a->dx, a->dy, QN_LAYOUT_MAX_SIDE);
        if (a->has_amount) {
            if ((rc = qn_rules__check_amount(a->amount, k, a->mark, err)))
                return rc;
            am = (unsigned)a->amount;
        }
        for (j = 0; j < i; j++)
            if (st->offsets[j].dx == a->dx && st->offsets[j].dy == a->dy)
                return qn_rules__fail(
                    err, a->mark, "offset [%d, %d] listed twice", a->dx, a->dy);
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
    if (n == 0 && st->noffsets > 0)
        return qn_rules__fail(err, st->mark,
                              "%s stencil has no offsets once self: false "
                              "removes [0, 0]",
                              what);
    if (n == 0)
        return qn_rules__fail(err, st->mark,
                              "%s stencil has no offsets (list some, or add "
                              "self: true for a press that changes its own "
                              "cell)",
                              what);
    *nout = n;
    return QN_OK;
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
    size_t n = 0;
    int rc;
    off *o;

    *out = NULL;
    *nout = 0;
    if (st->kind == QN_STENCIL_HEX && !is_hex)
        return qn_rules__fail(err, st->mark,
                              "stencil 'hex' is for hex boards; grids "
                              "use plus, x, moore, knight, rowcol or a list");
    if (st->kind != QN_STENCIL_HEX && st->kind != QN_STENCIL_LIST && is_hex)
        return qn_rules__fail(err, st->mark,
                              "stencil '%s' is for grids; hex boards "
                              "use 'hex' or a list of [dq, dr] offsets",
                              stencil_name(st->kind));
    if (!(o = QN_ALLOCN(st->noffsets + 10, off)))
        return qn_err_nomem(err);
    if (st->kind == QN_STENCIL_LIST) {
        if ((rc = list_offsets(o, &n, st, s->self, amount, k, what, err))) {
            free(o);
            return rc;
        }
    } else {
        n = named_offsets(o, st->kind, amount);
        if (st->kind != QN_STENCIL_ROWCOL && s->self != 0)
            o[n++] = (off){0, 0, amount};
    }
    *out = o;
    *nout = n;
    return QN_OK;
}
