/*
 * repair.c: breadth-first search in the cokernel for minimal repairs (see
 * repair.h for the argument).
 */
#include "engine/repair.h"

#include <stdlib.h>
#include <string.h>

#include "base/bits.h"
#include "base/mem.h"

typedef struct move {
    int cell;
    uint8_t amount; /* 1..k-1 added to the cell */
    uint64_t delta; /* phi(amount * e_cell), mixed radix */
} move;

struct qn_repair {
    const qn_system *sys;
    int ncond;
    uint64_t nclass; /* |G| */
    uint64_t *radix; /* place value of each condition's digit */
    move *moves;     /* distinct class moves, in (cell, amount) order */
    size_t nmoves;
    uint32_t *via; /* per class: index of the last move on its path */
    uint8_t *dist; /* per class: moves from 0 (255 = unreached) */
    /* The repair of each class, walked once (NULL past REPAIR_CACHE
     * classes): class q's cells are cell[start[q] .. start[q + 1] - 1],
     * increasing, each to be raised by amount[]. */
    uint32_t *start;
    int *cell;
    uint8_t *amount;
    /* Two colours (every condition mod 2): condition j's cells as bits,
     * nwords words of 64 cells each, so a class is a parity a condition
     * (NULL otherwise). */
    uint64_t *mask;
    int nwords;
};

/* Classes whose repairs are kept walked: the 4 of classic 5x5 and the
 * like (a validate run meets the same few classes a million times). */
#define REPAIR_CACHE 4096

/* The class for two colours: digit j (place value 2^j) is the parity
 * of s's low bits over condition j's cells, which is c_j . s mod 2. */
static uint64_t class_bits(const qn_repair *rep, const uint8_t *s, int n)
{
    uint64_t q = 0;

    for (int w = 0; w < rep->nwords; w++) {
        int m = n - 64 * w < 64 ? n - 64 * w : 64;
        uint64_t b = qn_bits_low(s + 64 * w, m);
        for (int j = 0; j < rep->ncond; j++)
            q ^= (uint64_t)(__builtin_popcountll(
                                b & rep->mask[(size_t)j * rep->nwords + w]) &
                            1)
                 << j;
    }
    return q;
}

/* Class of a vector given cell by cell: the digits c_j . s mod d_j. */
uint64_t qn_repair_class(const qn_repair *rep, const uint8_t *s)
{
    const qn_system *sys = rep->sys;
    int n = qn_system_nrows(sys);
    uint64_t q = 0;

    if (rep->mask)
        return class_bits(rep, s, n);

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
static int collect_moves(qn_repair *rep)
{
    const qn_system *sys = rep->sys;
    int n = qn_system_nrows(sys);
    unsigned k = qn_system_modulus(sys);
    uint8_t *seen = QN_ALLOCN(rep->nclass, uint8_t);
    uint8_t *e = QN_ALLOCN((size_t)n + 1, uint8_t);
    size_t cap = 16;
    int rc = QN_ENOMEM;

    rep->moves = QN_ALLOCN(cap, move);
    if (!seen || !e || !rep->moves)
        goto done;
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
                move *grown = QN_REALLOCN(rep->moves, cap * 2, move);

                if (!grown)
                    goto done; /* rep->moves is freed with rep */
                rep->moves = grown;
                cap *= 2;
            }
            rep->moves[rep->nmoves++] = (move){i, (uint8_t)t, q};
        }
    rc = QN_OK;
done:
    free(seen);
    free(e);
    return rc;
}

/*
 * The search adds every move to every class: the moves' digits are split
 * out once and each class's once, so that a sum is a digit-wise add with
 * no division (the same classes in the same order as add_class).
 */
static int bfs(qn_repair *rep)
{
    uint64_t *queue = QN_ALLOCN(rep->nclass, uint64_t), head = 0, tail = 0;
    int nc = rep->ncond, rc = QN_ENOMEM;
    unsigned *ord = QN_ALLOCN((size_t)nc + 1, unsigned);
    unsigned *qd = QN_ALLOCN((size_t)nc + 1, unsigned);
    uint8_t *md = QN_ALLOCN(rep->nmoves * (size_t)nc + 1, uint8_t);

    if (!queue || !ord || !qd || !md)
        goto done;

    for (int j = 0; j < nc; j++)
        ord[j] = (unsigned)qn_system_cokernel_order(rep->sys, (size_t)j);
    for (size_t m = 0; m < rep->nmoves; m++)
        for (int j = 0; j < nc; j++)
            md[m * nc + j] =
                (uint8_t)(rep->moves[m].delta / rep->radix[j] % ord[j]);
    memset(rep->dist, 255, rep->nclass);
    rep->dist[0] = 0;
    queue[tail++] = 0;
    while (head < tail) {
        uint64_t q = queue[head++];
        for (int j = 0; j < nc; j++)
            qd[j] = (unsigned)(q / rep->radix[j] % ord[j]);
        for (size_t m = 0; m < rep->nmoves; m++) {
            const uint8_t *d = md + m * nc;
            uint64_t r = 0;
            for (int j = 0; j < nc; j++) {
                unsigned v = qd[j] + d[j];
                r += (v >= ord[j] ? v - ord[j] : v) * rep->radix[j];
            }
            if (rep->dist[r] != 255)
                continue;
            rep->dist[r] = (uint8_t)(rep->dist[q] + 1);
            rep->via[r] = (uint32_t)m;
            queue[tail++] = r;
        }
    }
    rc = QN_OK;
done:
    free(queue);
    free(ord);
    free(qd);
    free(md);
    return rc;
}

static int cmp_int(const void *a, const void *b)
{
    return *(const int *)a - *(const int *)b;
}

/* Walk the path back from class t to 0 (the moves sum to t): its cells,
 * increasing, and the amount each is raised by (cells are distinct on a
 * shortest path); returns their number. */
static int walk(const qn_repair *rep, uint64_t t, int *cells, uint8_t *amount)
{
    int n = 0;

    for (uint64_t q = t; q != 0;) {
        const move *m = &rep->moves[rep->via[q]];
        cells[n++] = m->cell;
        q = add_class(rep, q, neg_class(rep, m->delta));
    }
    qsort(cells, (size_t)n, sizeof(*cells), cmp_int);
    for (uint64_t q = t; q != 0;) {
        const move *m = &rep->moves[rep->via[q]];
        for (int i = 0; i < n; i++)
            if (cells[i] == m->cell)
                amount[i] = m->amount;
        q = add_class(rep, q, neg_class(rep, m->delta));
    }
    return n;
}

/* Two colours: the conditions as bit masks (class_bits). */
static int make_masks(qn_repair *rep)
{
    int n = qn_system_nrows(rep->sys);

    if (qn_system_modulus(rep->sys) != 2)
        return QN_OK;
    for (int j = 0; j < rep->ncond; j++)
        if (qn_system_cokernel_order(rep->sys, (size_t)j) != 2)
            return QN_OK;
    rep->nwords = (n + 63) / 64;
    rep->mask = QN_ALLOCN((size_t)rep->ncond * rep->nwords + 1, uint64_t);
    if (!rep->mask)
        return QN_ENOMEM;
    for (int j = 0; j < rep->ncond; j++) {
        const uint8_t *c = qn_system_condition(rep->sys, (size_t)j);
        for (int i = 0; i < n; i++)
            if (c[i] & 1)
                rep->mask[(size_t)j * rep->nwords + i / 64] |= UINT64_C(1)
                                                               << (i % 64);
    }
    return QN_OK;
}

/* Walk every class's path once, for qn_repair_find to copy. */
static int cache_paths(qn_repair *rep)
{
    size_t total = 0;

    for (uint64_t q = 0; q < rep->nclass; q++)
        total += rep->dist[q];
    rep->start = QN_ALLOCN(rep->nclass + 1, uint32_t);
    rep->cell = QN_ALLOCN(total + 1, int);
    rep->amount = QN_ALLOCN(total + 1, uint8_t);
    if (!rep->start || !rep->cell || !rep->amount)
        return QN_ENOMEM;
    total = 0;
    for (uint64_t q = 0; q < rep->nclass; q++) {
        rep->start[q] = (uint32_t)total;
        total += (size_t)walk(rep, q, rep->cell + total, rep->amount + total);
    }
    rep->start[rep->nclass] = (uint32_t)total;
    return QN_OK;
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
    if (!(rep = QN_ALLOC(qn_repair)))
        return qn_err_nomem(err);
    rep->sys = sys;
    rep->ncond = (int)nc;
    rep->nclass = nclass;
    if (!(rep->radix = QN_ALLOCN(nc + 1, uint64_t)))
        goto nomem;
    for (size_t j = 0, r = 1; j < nc; j++) {
        rep->radix[j] = r;
        r *= qn_system_cokernel_order(sys, j);
    }
    if (make_masks(rep) != QN_OK || collect_moves(rep) != QN_OK)
        goto nomem;
    if ((uint64_t)rep->nmoves * nclass > QN_REPAIR_MAX_WORK) {
        qn_repair_free(rep);
        return qn_err_set(err, QN_ELIMIT, 0, 0,
                          "repair search too large: minimal repair not "
                          "computed");
    }
    rep->via = QN_ALLOCN(nclass, uint32_t);
    rep->dist = QN_ALLOCN(nclass, uint8_t);
    if (!rep->via || !rep->dist || bfs(rep) != QN_OK ||
        (nclass <= REPAIR_CACHE && cache_paths(rep) != QN_OK))
        goto nomem;
    *out = rep;
    return QN_OK;
nomem:
    qn_repair_free(rep);
    return qn_err_nomem(err);
}

void qn_repair_free(qn_repair *rep)
{
    if (!rep)
        return;
    free(rep->radix);
    free(rep->moves);
    free(rep->via);
    free(rep->dist);
    free(rep->start);
    free(rep->cell);
    free(rep->amount);
    free(rep->mask);
    free(rep);
}

int qn_repair_find(const qn_repair *rep, const uint8_t *s, int *cells,
                   uint8_t *values)
{
    unsigned k = qn_system_modulus(rep->sys);
    uint64_t q = qn_repair_class(rep, s);
    int n;

    if (!rep->mask) /* mod 2 every class is its own negative */
        q = neg_class(rep, q);

    if (rep->start) {
        uint32_t a = rep->start[q];
        n = (int)(rep->start[q + 1] - a);
        for (int i = 0; i < n; i++) {
            cells[i] = rep->cell[a + (uint32_t)i];
            values[i] =
                (uint8_t)((s[cells[i]] + rep->amount[a + (uint32_t)i]) % k);
        }
        return n;
    }
    n = walk(rep, q, cells, values);
    for (int i = 0; i < n; i++)
        values[i] = (uint8_t)((s[cells[i]] + values[i]) % k);
    return n;
}

int qn_repair_apply(const qn_repair *rep, uint8_t *s)
{
    int cells[64], *cp = cells, n;
    uint8_t values[64], *vp = values;
    int room = qn_system_nrows(rep->sys) + 1;

    if (room > 64) {
        cp = QN_ALLOCN((size_t)room, int);
        vp = QN_ALLOCN((size_t)room, uint8_t);
        if (!cp || !vp) {
            free(cp);
            free(vp);
            return QN_ENOMEM;
        }
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
