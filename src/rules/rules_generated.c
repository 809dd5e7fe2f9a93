/*
 * rules_generated.c: the way back from a compiled rule's press matrix to
 * a 'press' section: whether one on the rule's board gives the matrix
 * (qn_rules_board_generates), so that a board said to describe effects
 * (an imported document's) is one that does.
 */
#include "rules_internal.h"

#include <stdlib.h>
#include <string.h>

#include "base/mem.h"

/*
 * The offsets with amounts of one stencil being read back from A: a hash
 * table of at most QN_RULES_MAX_OFFSETS entries (the most a rule file's
 * offset list may hold), keyed by the offset.
 */
#define OFF_SLOTS (4 * QN_RULES_MAX_OFFSETS) /* a power of two */

typedef struct offset_set {
    qn_offset offs[QN_RULES_MAX_OFFSETS];
    size_t n;
    int slot[OFF_SLOTS]; /* index into offs + 1; 0 empty */
} offset_set;

/* Add (dx, dy) with amount a: 0, or -1 when the set holds it with another
 * amount (no one stencil) or is full. */
static int offset_add(offset_set *set, int dx, int dy, unsigned a)
{
    unsigned h = ((unsigned)dx * 2654435761u) ^ ((unsigned)dy * 40503u);

    for (size_t i = h & (OFF_SLOTS - 1);; i = (i + 1) & (OFF_SLOTS - 1)) {
        qn_offset *o;
        if (!set->slot[i]) {
            if (set->n == QN_RULES_MAX_OFFSETS)
                return -1;
            o = &set->offs[set->n++];
            *o = (qn_offset){dx, dy, 1, (long)a, {0, 0}};
            set->slot[i] = (int)set->n;
            return 0;
        }
        o = &set->offs[set->slot[i] - 1];
        if (o->dx == dx && o->dy == dy)
            return o->amount == (long)a ? 0 : -1;
    }
}

/* Whether compiling spec on r's board gives exactly r's matrix: 1, 0,
 * or QN_ENOMEM. */
static int gives(const qn_rules *r, const qn_rules_spec *spec)
{
    int n = qn_rules_ncells(r), rc, same;
    uint8_t *a = qn_calloc((size_t)n * (size_t)n, 1);

    if (!a)
        return QN_ENOMEM;
    rc = qn_rules__build_matrix(a, qn_rules_layout(r), qn_rules_colours(r),
                                spec, NULL);
    same = rc == QN_OK && !memcmp(a, qn_rules_matrix(r), (size_t)n * (size_t)n);
    free(a);
    return rc == QN_ENOMEM ? QN_ENOMEM : same;
}

/*
 * Read A back as one offset list per class (classes: corner, edge and
 * interior, each written for its reference cell; else one for every
 * cell) and compile it on the board: the rule is its board's when that
 * gives A again. Reading fails at an offset seen with two amounts or a
 * list past QN_RULES_MAX_OFFSETS.
 */
static int gives_lists(const qn_rules *r, int classes)
{
    const qn_layout *l = qn_rules_layout(r);
    const uint8_t *a = qn_rules_matrix(r);
    int n = l->ncells, ok = 1, rr, cc, dx, dy;
    offset_set *set = QN_ALLOCN(4, offset_set);
    qn_stencil_spec *st[4];
    qn_rules_spec spec;

    if (!set)
        return QN_ENOMEM;
    qn_rules_spec_init(&spec);
    spec.has_press = 1;
    st[0] = &spec.interior, st[1] = &spec.edge, st[2] = &spec.corner;
    st[3] = &spec.stencil;
    for (int j = 0; j < n && ok; j++) {
        int cls = 3;
        qn_layout_rc(l, j, &rr, &cc);
        if (classes)
            cls = qn_rules__cell_class(l, rr, cc);
        for (int i = 0; i < n && ok; i++) {
            if (!a[(size_t)i * n + j])
                continue;
            qn_layout_offset(l, j, i, &dx, &dy);
            if (cls > 0 && cls < 3)
                qn_rules__unorient(l, cls, rr, cc, &dx, &dy);
            ok = offset_add(&set[cls], dx, dy, a[(size_t)i * n + j]) == 0;
        }
    }
    for (int c = 0; c < 4; c++)
        if (set[c].n) {
            st[c]->kind = QN_STENCIL_LIST;
            st[c]->offsets = set[c].offs;
            st[c]->noffsets = set[c].n;
        }
    if (ok)
        ok = gives(r, &spec);
    free(set); /* the spec only borrowed the offsets: nothing to release */
    return ok;
}

/* rowcol: every cell of the pressed cell's row and column, its own by
 * A's diagonal, all by one amount (too many offsets for a list on a long
 * board). */
static int gives_rowcol(const qn_rules *r)
{
    const uint8_t *a = qn_rules_matrix(r);
    int n = qn_rules_ncells(r), i;
    qn_rules_spec spec;

    for (i = 0; i < n * n && !a[i]; i++)
        ;
    qn_rules_spec_init(&spec);
    spec.has_press = 1;
    spec.stencil.kind = QN_STENCIL_ROWCOL;
    spec.self = a[0] != 0;
    spec.has_amount = 1;
    spec.amount = a[i];
    return gives(r, &spec);
}

int qn_rules_board_generates(const qn_rules *r)
{
    const qn_layout *l = qn_rules_layout(r);
    int g;

    if (l->kind == QN_LAYOUT_GRAPH)
        return 1;
    if ((g = gives_lists(r, 0)) != 0) /* 1 or QN_ENOMEM */
        return g;
    if (l->kind == QN_LAYOUT_GRID && (g = gives_rowcol(r)) != 0)
        return g;
    if (l->kind == QN_LAYOUT_GRID && !l->wrap)
        return gives_lists(r, 1);
    return 0;
}
