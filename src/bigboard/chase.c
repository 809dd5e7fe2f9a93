/*
 * chase.c: light chasing for stencil grid rules (see chase.h for the
 * method): the set-up. It merges the stencil, picks the orientation and
 * pivot, counts the unknowns and has the block chase (chase_block.c)
 * build the reduced matrix M; queries are in chase_solve.c.
 */
#include "chase_internal.h"

#include <stdlib.h>
#include <string.h>

#include "base/mem.h"

static unsigned modinv(unsigned a, unsigned k)
{
    for (unsigned v = 1; v < k; v++)
        if (a * v % k == 1)
            return v;
    return 0;
}

static int is_unit(unsigned a, unsigned k)
{
    return modinv(a % k, k) != 0;
}

/*
 * Pick the pivot for orientation `tr`: the top row's least or greatest dx,
 * whichever has a unit amount and the smaller |dx| (fewer edge unknowns).
 * Fills c->off (pivot first), d, dymax, e, pmul, flipped. QN_EINVAL if
 * neither end is a unit.
 */
static int orient(qn_chase *c, int tr, const int (*merged)[3], int nm,
                  qn_err *err)
{
    int dymin = 0, dymax = -QN_CHASE_MAX_RADIUS - 1, lo = 0, hi = 0;
    int alo = 0, ahi = 0, first = 1;
    unsigned k = c->k;

    c->transposed = tr;
    c->cw = tr ? c->h : c->w;
    c->ch = tr ? c->w : c->h;
    for (int o = 0; o < nm; o++) {
        int dy = tr ? merged[o][0] : merged[o][1];
        dymin = dy < dymin ? dy : dymin;
        dymax = dy > dymax ? dy : dymax;
    }
    if (dymin == 0)
        return qn_err_set(err, QN_EINVAL, 0, 0,
                          "stencil not chaseable: it reaches no row above "
                          "the pressed cell");
    for (int o = 0; o < nm; o++) {
        int dx = tr ? merged[o][1] : merged[o][0];
        int dy = tr ? merged[o][0] : merged[o][1];
        if (dy != dymin)
            continue;
        if (first || dx < lo)
            lo = dx, alo = merged[o][2];
        if (first || dx > hi)
            hi = dx, ahi = merged[o][2];
        first = 0;
    }
    int ulo = is_unit((unsigned)alo, k), uhi = is_unit((unsigned)ahi, k);
    if (!ulo && !uhi)
        return qn_err_set(err, QN_EINVAL, 0, 0,
                          "stencil not chaseable mod %u along a side of %d: "
                          "its top row (dy = %d) has no unit amount at either "
                          "end (row map not invertible)",
                          k, c->cw, dymin);
    /* Both ends units: the nearer one, as |e| edge unknowns per row. */
    c->flipped = !ulo || (uhi && abs(hi) < abs(lo));
    c->d = -dymin;
    c->dymax = dymax;
    c->e = c->flipped ? -hi : lo;
    c->pmul = (k - modinv((unsigned)(c->flipped ? ahi : alo), k)) % k;
    c->noff = nm;
    if (!(c->off = qn_calloc((size_t)nm + 1, sizeof(int[3]))))
        return qn_err_nomem(err);
    /* The pivot, then the rest of the top row (top_effect stops at the
     * first offset of another row), then the other rows. */
    for (int pass = 0, n = 0; pass < 3; pass++)
        for (int o = 0; o < nm; o++) {
            int dx = tr ? merged[o][1] : merged[o][0];
            int dy = tr ? merged[o][0] : merged[o][1];
            dx = c->flipped ? -dx : dx;
            int cls = dy != dymin ? 2 : dx != c->e;
            if (cls != pass)
                continue;
            c->off[n][0] = dx, c->off[n][1] = dy;
            c->off[n++][2] = merged[o][2];
        }
    return QN_OK;
}

/* Set up orientation tr: pivot, unknowns and M. c is left for release. */
static int setup(qn_chase *c, int tr, const int (*merged)[3], int nm,
                 qn_err *err)
{
    int rc = orient(c, tr, merged, nm, err);
    long nunk;

    if (rc)
        return rc;
    c->nu = c->d < c->ch ? c->d : c->ch;
    c->ne = c->e < 0 ? -c->e : c->e;
    c->ne = c->ne < c->cw ? c->ne : c->cw;
    nunk = (long)c->nu * c->cw + (long)(c->ch - c->nu) * c->ne;
    if (nunk > QN_CHASE_MAX_WIDTH)
        return qn_err_set(err, QN_ELIMIT, 0, 0,
                          "chase needs %ld unknowns, limit %d", nunk,
                          QN_CHASE_MAX_WIDTH);
    c->nunk = (int)nunk;

    uint8_t *m = QN_ALLOCN((size_t)nunk * nunk + 1, uint8_t);
    if (!m)
        return qn_err_nomem(err);
    rc = qn_chase__build_reduced(c, m) == QN_OK
             ? qn_system_new(&c->red, m, c->nunk, c->nunk, c->k, err)
             : qn_err_nomem(err);
    free(m);
    return rc;
}

static void release(qn_chase *c)
{
    qn_system_free(c->red);
    free(c->off);
    c->red = NULL;
    c->off = NULL;
}

/* Merge repeated offsets and drop zero amounts (mod k); returns the count. */
static int merge(int (*merged)[3], const int (*offsets)[3], size_t noffsets,
                 unsigned k)
{
    int nm = 0;

    for (size_t o = 0; o < noffsets; o++) {
        int a = (int)(((long long)offsets[o][2] % k + k) % k), m;
        for (m = 0; m < nm; m++)
            if (merged[m][0] == offsets[o][0] && merged[m][1] == offsets[o][1])
                break;
        if (m == nm) {
            merged[nm][0] = offsets[o][0];
            merged[nm][1] = offsets[o][1];
            merged[nm++][2] = 0;
        }
        merged[m][2] = (int)((merged[m][2] + (unsigned)a) % k);
    }
    for (int m = 0; m < nm;)
        if (merged[m][2] == 0)
            memcpy(merged[m], merged[--nm], sizeof(merged[m]));
        else
            m++;
    return nm;
}

int qn_chase_new(qn_chase **out, int w, int h, unsigned k,
                 const int (*offsets)[3], size_t noffsets, qn_err *err)
{
    int(*merged)[3] = NULL;
    int nm, rc, pref;
    qn_chase *c;

    *out = NULL;
    if (k < 2 || k > 255)
        return qn_err_set(err, QN_EINVAL, 0, 0,
                          "modulus must be 2..255, got %u", k);
    if (w < 1 || h < 1)
        return qn_err_set(err, QN_EINVAL, 0, 0,
                          "board must be at least 1x1, got %dx%d", w, h);
    if ((long long)w * h > QN_CHASE_MAX_CELLS)
        return qn_err_set(err, QN_ELIMIT, 0, 0,
                          "board %dx%d has more than %d cells", w, h,
                          QN_CHASE_MAX_CELLS);
    for (size_t o = 0; o < noffsets; o++)
        for (int i = 0; i < 2; i++)
            if (offsets[o][i] < -QN_CHASE_MAX_RADIUS ||
                offsets[o][i] > QN_CHASE_MAX_RADIUS)
                return qn_err_set(
                    err, QN_EINVAL, 0, 0, "offset (%d, %d) beyond radius %d",
                    offsets[o][0], offsets[o][1], QN_CHASE_MAX_RADIUS);

    merged = qn_calloc(noffsets + 1, sizeof(int[3]));
    c = QN_ALLOC(qn_chase);
    if (!merged || !c) {
        free(merged);
        free(c);
        return qn_err_nomem(err);
    }
    nm = merge(merged, offsets, noffsets, k);
    c->w = w, c->h = h, c->k = k;
    pref = h < w;
    rc = setup(c, pref, (const int(*)[3])merged, nm, err);
    if (rc == QN_EINVAL || rc == QN_ELIMIT) {
        /* The other side may chase, or need fewer unknowns; if it cannot
         * either, the preferred side's reason stands. */
        qn_err e2 = QN_ERR_INIT;
        int rc2;
        release(c);
        rc2 = setup(c, !pref, (const int(*)[3])merged, nm, &e2);
        if (rc2 == QN_OK)
            qn_err_clear(err);
        if (rc2 == QN_OK || (rc2 != QN_EINVAL && rc2 != QN_ELIMIT)) {
            rc = rc2;
            if (rc && err)
                *err = e2;
        }
    }
    free(merged);
    if (rc) {
        release(c);
        free(c);
        return rc;
    }
    *out = c;
    return QN_OK;
}

void qn_chase_free(qn_chase *c)
{
    if (!c)
        return;
    release(c);
    free(c);
}

int qn_chase_width(const qn_chase *c)
{
    return c->cw;
}
int qn_chase_transposed(const qn_chase *c)
{
    return c->transposed;
}
int qn_chase_nunknowns(const qn_chase *c)
{
    return c->nunk;
}
const qn_system *qn_chase_reduced(const qn_chase *c)
{
    return c->red;
}

size_t qn_chase_kernel_ngens(const qn_chase *c)
{
    return qn_system_kernel_ngens(c->red);
}

unsigned qn_chase_kernel_order(const qn_chase *c, size_t i)
{
    return qn_system_kernel_order(c->red, i);
}

int qn_chase_kernel_size_u64(const qn_chase *c, uint64_t *out)
{
    return qn_system_group_size_u64(c->red, QN_KERNEL, out);
}

double qn_chase_kernel_log2(const qn_chase *c)
{
    return qn_system_group_log2(c->red, QN_KERNEL);
}
