/*
 * repair.c: breadth-first search in the cokernel for minimal repairs (see
 * repair.h for the argument).
 */
#include "engine/repair.h"

#include <stdlib.h>
#include <string.h>

#include "base/mem.h"

typedef struct move {
    int cell;
    uint8_t amount; /* 1..k-1 added to the cell */
    uint64_t delta; /* phi(amount * e_cell), mixed radix */
} move;

struct qn_repair {
    const qn_system *sys;
    int ncond;
    uint64_t nclass;   /* |G| */
    uint64_t *radix;   /* place value of each condition's digit */
    move *moves;       /* distinct class moves, in (cell, amount) order */
    size_t nmoves;
    uint32_t *via;     /* per class: index of the last move on its path */
    uint8_t *dist;     /* per class: moves from 0 (255 = unreached) */
};

/* Class of a vector given cell by cell: the digits c_j . s mod d_j. */
uint64_t qn_repair_class(const qn_repair *rep, const uint8_t *s)
{
    const qn_system *sys = rep->sys;
    int n = qn_system_nrows(sys);
    uint64_t q = 0;

    for (int j = 0; j < rep->ncond; j++) {
        const uint8_t *c = qn_system_condition(sys, (size_t)j);
        unsigned d = qn_system_cokernel_order(sys, (size_t)j);
        unsigned long acc = 0;
        for (int i = 0; i < n; i++)
            acc += (unsigned long)c[i] * s[i];
        q += (acc % d) * rep->radix[j];
    }
    return q;
}

/* (a + b) in G, digit by digit. */
static uint64_t add_class(const qn_repair *rep, uint64_t a, uint64_t b)
{
    uint64_t q = 0;

    for (int j = 0; j < rep->ncond; j++) {
        uint64_t d = qn_system_cokernel_order(rep->sys, (size_t)j);
        uint64_t x = a / rep->radix[j] % d, y = b / rep->radix[j] % d;
        q += (x + y) % d * rep->radix[j];
    }
    return q;
}

static uint64_t neg_class(const qn_repair *rep, uint64_t a)
{
    uint64_t q = 0;

    for (int j = 0; j < rep->ncond; j++) {
        uint64_t d = qn_system_cokernel_order(rep->sys, (size_t)j);
        uint64_t x = a / rep->radix[j] % d;
        q += (d - x) % d * rep->radix[j];
    }
    return q;
}

/* One move per distinct nonzero class delta, first (cell, amount) wins. */
static void collect_moves(qn_repair *rep)
{
    const qn_system *sys = rep->sys;
    int n = qn_system_nrows(sys);
    unsigned k = qn_system_modulus(sys);
    uint8_t *seen = QN_NEWN(rep->nclass, uint8_t);
    uint8_t *e = QN_NEWN((size_t)n + 1, uint8_t);
    size_t cap = 16;

    rep->moves = QN_NEWN(cap, move);
    seen[0] = 1;
    for (int i = 0; i < n; i++)
        for (unsigned t = 1; t < k; t++) {
            uint64_t q;
            e[i] = (uint8_t)t;
            q = qn_repair_class(rep, e);
            e[i] = 0;
            if (seen[q])
                continue;
            seen[q] = 1;
            if (rep->nmoves == cap) {
                cap *= 2;
                rep->moves = QN_RENEW(rep->moves, cap, move);
            }
            rep->moves[rep->nmoves++] = (move){i, (uint8_t)t, q};
        }
    free(seen);
    free(e);
}

static void bfs(qn_repair *rep)
{
    uint64_t *queue = QN_NEWN(rep->nclass, uint64_t), head = 0, tail = 0;

    memset(rep->dist, 255, rep->nclass);
    rep->dist[0] = 0;
    queue[tail++] = 0;
    while (head < tail) {
        uint64_t q = queue[head++];
        for (size_t m = 0; m < rep->nmoves; m++) {
            uint64_t r = add_class(rep, q, rep->moves[m].delta);
            if (rep->dist[r] != 255)
                continue;
            rep->dist[r] = (uint8_t)(rep->dist[q] + 1);
            rep->via[r] = (uint32_t)m;
            queue[tail++] = r;
        }
    }
    free(queue);
}

int qn_repair_new(qn_repair **out, const qn_system *sys, qn_err *err)
{
    qn_repair *rep;
    uint64_t nclass = 1;
    size_t nc = qn_system_cokernel_ngens(sys);

    *out = NULL;
    for (size_t j = 0; j < nc; j++) {
        nclass *= qn_system_cokernel_order(sys, j);
        if (nclass > QN_REPAIR_MAX_CLASSES)
            return qn_err_set(err, QN_ELIMIT, 0, 0,
                              "more than %llu classes of unsolvable states: "
                              "minimal repair not computed",
                              (unsigned long long)QN_REPAIR_MAX_CLASSES);
    }
    rep = QN_NEW(qn_repair);
    rep->sys = sys;
    rep->ncond = (int)nc;
    rep->nclass = nclass;
    rep->radix = QN_NEWN(nc + 1, uint64_t);
    for (size_t j = 0, r = 1; j < nc; j++) {
        rep->radix[j] = r;
        r *= qn_system_cokernel_order(sys, j);
    }
    collect_moves(rep);
    if ((uint64_t)rep->nmoves * nclass > QN_REPAIR_MAX_WORK) {
        qn_repair_free(rep);
        return qn_err_set(err, QN_ELIMIT, 0, 0,
                          "repair search too large: minimal repair not "
                          "computed");
    }
    rep->via = QN_NEWN(nclass, uint32_t);
    rep->dist = QN_NEWN(nclass, uint8_t);
    bfs(rep);
    *out = rep;
    return QN_OK;
}

void qn_repair_free(qn_repair *rep)
{
    if (!rep)
        return;
    free(rep->radix);
    free(rep->moves);
    free(rep->via);
    free(rep->dist);
    free(rep);
}

static int cmp_int(const void *a, const void *b)
{
    return *(const int *)a - *(const int *)b;
}

int qn_repair_find(const qn_repair *rep, const uint8_t *s, int *cells,
                   uint8_t *values)
{
    unsigned k = qn_system_modulus(rep->sys);
    uint64_t q = neg_class(rep, qn_repair_class(rep, s));
    int n = 0;

    /* Walk the path back from -class(s) to 0: the moves sum to it. */
    while (q != 0) {
        const move *m = &rep->moves[rep->via[q]];
        cells[n++] = m->cell;
        q = add_class(rep, q, neg_class(rep, m->delta));
    }
    qsort(cells, (size_t)n, sizeof(*cells), cmp_int);
    /* Amounts: recompute per cell from the path (cells are distinct). */
    q = neg_class(rep, qn_repair_class(rep, s));
    for (int i = 0; i < n; i++)
        values[i] = 0;
    while (q != 0) {
        const move *m = &rep->moves[rep->via[q]];
        for (int i = 0; i < n; i++)
            if (cells[i] == m->cell)
                values[i] = (uint8_t)((s[m->cell] + m->amount) % k);
        q = add_class(rep, q, neg_class(rep, m->delta));
    }
    return n;
}

int qn_repair_apply(const qn_repair *rep, uint8_t *s)
{
    int cells[64], *cp = cells, n;
    uint8_t values[64], *vp = values;
    int room = qn_system_nrows(rep->sys) + 1;

    if (room > 64) {
        cp = QN_NEWN((size_t)room, int);
        vp = QN_NEWN((size_t)room, uint8_t);
    }
    n = qn_repair_find(rep, s, cp, vp);
    for (int i = 0; i < n; i++)
        s[cp[i]] = vp[i];
    if (cp != cells) {
        free(cp);
        free(vp);
    }
    return n;
}
