/*
 * distrib_coords.c: coordinates for the image of a rule's matrix, so that
 * every solvable state is a mixed-radix index and every press a digitwise
 * addition (the index the exact distribution is built on, distrib.c).
 */
#include "distrib_internal.h"

#include <assert.h>
#include <stdlib.h>
#include <string.h>

#include "base/mem.h"
#include "engine/gf2.h"

/*
 * Indexing the image. The image of A is a finite abelian group; we write
 * it as a direct sum of cyclic components Z/o_0 + ... + Z/o_{c-1} with an
 * explicit isomorphism, so an image element is a digit vector (c_t < o_t)
 * and its index is the mixed-radix number sum c_t * stride_t (stride_0 = 1,
 * stride_{t+1} = stride_t * o_t). h_t is the state with digit vector e_t,
 * so decoding is v = sum c_t h_t (mod k). Every press j has a digit vector
 * too (its column's coordinates), and pressing adds it digitwise mod o_t.
 *
 * k = 2: the reduced echelon form R = E A (E invertible) has unit vectors
 * in its pivot columns p_0 < ... < p_{r-1}, so column j of A equals
 * sum_i R[i][j] a_{p_i}: the components are r copies of Z/2, h_t = a_{p_t},
 * and press j's digits are the bits of column j of R. An index is an r-bit
 * word and a press is an XOR.
 *
 * k > 2: Z/k is not a field, so we diagonalise instead: invertible row and
 * column operations (Euclid steps on 2 x 2 blocks of determinant 1, so
 * they stay invertible mod k for every k) give U A V = D diagonal. Column
 * operations do not change the image, and U maps it onto the image of D,
 * which is the sum of the ideals d_t Z/k = g_t Z/k, g_t = gcd(d_t, k), each
 * cyclic of order o_t = k / g_t. So the coordinates of a state s in the
 * image are (U s)_t / g_t. Only U A (row operations on a copy of A) and
 * A V (column operations on another copy) are kept: column t of A V is
 * U^-1 (d_t e_t), and d_t = g_t u_t with u_t a unit mod o_t, so
 * h_t = u_t^-1 (A V) e_t has coordinates exactly e_t.
 */

/* ------------------------------------------------------------------ */
/* Arithmetic mod k                                                    */

static unsigned gcdu(unsigned a, unsigned b)
{
    while (b) {
        unsigned t = a % b;
        a = b;
        b = t;
    }
    return a;
}

static unsigned modl(long v, unsigned m)
{
    long r = v % (long)m;
    return (unsigned)(r < 0 ? r + (long)m : r);
}

/* g = gcd(a, b) = x a + y b (integers); x, y returned reduced mod m. */
static unsigned egcd(unsigned a, unsigned b, unsigned m, unsigned *x,
                     unsigned *y)
{
    long r0 = a, r1 = b, s0 = 1, s1 = 0, t0 = 0, t1 = 1;

    while (r1) {
        long q = r0 / r1, tmp;
        tmp = r0 - q * r1, r0 = r1, r1 = tmp;
        tmp = s0 - q * s1, s0 = s1, s1 = tmp;
        tmp = t0 - q * t1, t0 = t1, t1 = tmp;
    }
    *x = modl(s0, m);
    *y = modl(t0, m);
    return (unsigned)r0;
}

/* Inverse of u modulo m (gcd(u, m) = 1; m >= 1). */
static unsigned inv_mod(unsigned u, unsigned m)
{
    unsigned x, y;

    if (m == 1)
        return 0;
    egcd(u % m, m, m, &x, &y);
    return x;
}

/* Rows r1, r2 of m (ncols wide) <- [[a, b], [c, e]] applied to them. */
static void rows2(uint8_t *m, int ncols, int r1, int r2, unsigned a, unsigned b,
                  unsigned c, unsigned e, unsigned k)
{
    uint8_t *p = m + (size_t)r1 * ncols, *q = m + (size_t)r2 * ncols;

    for (int j = 0; j < ncols; j++) {
        unsigned u = p[j], v = q[j];
        p[j] = (uint8_t)((a * u + b * v) % k);
        q[j] = (uint8_t)((c * u + e * v) % k);
    }
}

/* Columns c1, c2 of m (nrows x ncols) <- a c1 + b c2, c c1 + e c2. */
static void cols2(uint8_t *m, int nrows, int ncols, int c1, int c2, unsigned a,
                  unsigned b, unsigned c, unsigned e, unsigned k)
{
    for (int i = 0; i < nrows; i++) {
        uint8_t *row = m + (size_t)i * ncols;
        unsigned u = row[c1], v = row[c2];
        row[c1] = (uint8_t)((a * u + b * v) % k);
        row[c2] = (uint8_t)((c * u + e * v) % k);
    }
}

static void swap_rows(uint8_t *m, int ncols, int r1, int r2)
{
    if (r1 == r2)
        return;
    for (int j = 0; j < ncols; j++) {
        uint8_t t = m[(size_t)r1 * ncols + j];
        m[(size_t)r1 * ncols + j] = m[(size_t)r2 * ncols + j];
        m[(size_t)r2 * ncols + j] = t;
    }
}

static void swap_cols(uint8_t *m, int nrows, int ncols, int c1, int c2)
{
    if (c1 == c2)
        return;
    for (int i = 0; i < nrows; i++) {
        uint8_t t = m[(size_t)i * ncols + c1];
        m[(size_t)i * ncols + c1] = m[(size_t)i * ncols + c2];
        m[(size_t)i * ncols + c2] = t;
    }
}

/*
 * Clear entry b (at row i / column j) against the pivot a. When gcd(a, k)
 * divides b, b = q a for some q and one subtraction clears it, leaving the
 * pivot; returns 0. Otherwise a Euclid step (x a + y b = g, block [[x, y],
 * [-b/g, a/g]], determinant 1) makes the pivot g, whose gcd with k is a
 * proper divisor of gcd(a, k); returns 1. That can happen at most as often
 * as k has prime factors (with multiplicity) per pivot.
 */
static int clear_coeffs(unsigned a, unsigned b, unsigned k, unsigned blk[4])
{
    unsigned ga = gcdu(a, k);

    if (b % ga == 0) {
        unsigned o = k / ga;
        unsigned q = (b / ga) * inv_mod(a / ga, o) % o;
        blk[0] = 1, blk[1] = 0, blk[2] = (k - q) % k, blk[3] = 1;
        return 0;
    } else {
        unsigned x, y, g = egcd(a, b, k, &x, &y);
        blk[0] = x, blk[1] = y;
        blk[2] = (k - (b / g) % k) % k, blk[3] = (a / g) % k;
        return 1;
    }
}

/* Diagonal-form coordinates for k > 2 (see the top of the file). */
static int coords_zk(coords *c, const uint8_t *a)
{
    int nr = c->nrows, nc = c->ncols, t, rc = QN_OK;
    unsigned k = c->k;
    size_t sz = (size_t)nr * nc;
    uint8_t *w = qn_memdup(a, sz ? sz : 1), *ua = qn_memdup(a, sz ? sz : 1);
    uint8_t *av = qn_memdup(a, sz ? sz : 1);

    if (!w || !ua || !av) {
        rc = QN_ENOMEM;
        goto out;
    }
    for (t = 0; t < nr && t < nc; t++) {
        int pi = -1, pj = -1;
        unsigned best = k;

        /* The pivot of least gcd with k needs the fewest Euclid steps. */
        for (int i = t; i < nr && best > 1; i++)
            for (int j = t; j < nc; j++) {
                unsigned v = w[(size_t)i * nc + j];
                if (v && gcdu(v, k) < best) {
                    best = gcdu(v, k), pi = i, pj = j;
                    if (best == 1)
                        break;
                }
            }
        if (pi < 0)
            break;
        swap_rows(w, nc, t, pi);
        swap_rows(ua, nc, t, pi);
        swap_cols(w, nr, nc, t, pj);
        swap_cols(av, nr, nc, t, pj);
        for (;;) {
            int again = 0;
            unsigned blk[4];

            for (int i = t + 1; i < nr; i++) {
                unsigned b = w[(size_t)i * nc + t];
                if (!b)
                    continue;
                clear_coeffs(w[(size_t)t * nc + t], b, k, blk);
                rows2(w, nc, t, i, blk[0], blk[1], blk[2], blk[3], k);
                rows2(ua, nc, t, i, blk[0], blk[1], blk[2], blk[3], k);
                assert(w[(size_t)i * nc + t] == 0);
            }
            for (int j = t + 1; j < nc; j++) {
                unsigned b = w[(size_t)t * nc + j];
                if (!b)
                    continue;
                again |= clear_coeffs(w[(size_t)t * nc + t], b, k, blk);
                cols2(w, nr, nc, t, j, blk[0], blk[1], blk[2], blk[3], k);
                cols2(av, nr, nc, t, j, blk[0], blk[1], blk[2], blk[3], k);
                assert(w[(size_t)t * nc + j] == 0);
            }
            if (!again)
                break; /* column t below the pivot is still clear */
        }
    }
    assert((size_t)t <= MAXCOMP);
    c->ncomp = (size_t)t;
    c->h = qn_calloc((size_t)t * nr + 1, 1);
    c->col = qn_calloc((size_t)nc * MAXCOMP + 1, 1);
    if (!c->h || !c->col) {
        rc = QN_ENOMEM; /* the caller releases c */
        goto out;
    }
    for (int i = 0; i < t; i++) {
        unsigned d = w[(size_t)i * nc + i], g = gcdu(d, k), o = k / g;
        unsigned u = inv_mod((d / g) % o, o);

        c->order[i] = o;
        for (int j = 0; j < nc; j++) {
            unsigned v = ua[(size_t)i * nc + j];
            assert(v % g == 0);
            c->col[(size_t)j * MAXCOMP + i] = (uint8_t)(v / g);
        }
        for (int r = 0; r < nr; r++)
            c->h[(size_t)i * nr + r] =
                (uint8_t)(u * av[(size_t)r * nc + i] % k);
    }
#ifndef NDEBUG
    for (size_t i = (size_t)t * nc; i < sz; i++)
        assert(ua[i] == 0); /* U A = D V^-1 vanishes below the rank */
#endif
out:
    free(w);
    free(ua);
    free(av);
    return rc;
}

/* Echelon-form coordinates for k = 2. */
static int coords_gf2(coords *c, const uint8_t *a)
{
    int nr = c->nrows, nc = c->ncols, r;
    qn_gf2mat m;

    if (!(c->pivots = QN_ALLOCN((size_t)(nr < nc ? nr : nc) + 1, int)))
        return QN_ENOMEM;
    qn_gf2mat_init(&m, nr, nc);
    for (int i = 0; i < nr; i++)
        for (int j = 0; j < nc; j++)
            if (a[(size_t)i * nc + j])
                qn_gf2mat_set(&m, i, j, 1);
    r = qn_gf2mat_rref(&m, c->pivots);
    assert(r <= MAXCOMP);
    c->ncomp = (size_t)r;
    c->h = qn_calloc((size_t)r * nr + 1, 1);
    c->col = qn_calloc((size_t)nc * MAXCOMP + 1, 1);
    if (!c->h || !c->col) {
        qn_gf2mat_release(&m);
        return QN_ENOMEM; /* the caller releases c */
    }
    for (int t = 0; t < r; t++) {
        c->order[t] = 2;
        for (int j = 0; j < nc; j++)
            c->col[(size_t)j * MAXCOMP + t] = (uint8_t)qn_gf2mat_get(&m, t, j);
        for (int i = 0; i < nr; i++)
            c->h[(size_t)t * nr + i] = a[(size_t)i * nc + c->pivots[t]];
    }
    qn_gf2mat_release(&m);
    return QN_OK;
}

int qn_distrib__coords(coords *c, const qn_system *sys)
{
    memset(c, 0, sizeof(*c));
    c->nrows = qn_system_nrows(sys);
    c->ncols = qn_system_ncols(sys);
    c->k = qn_system_modulus(sys);
    if (c->k == 2)
        return coords_gf2(c, qn_system_matrix(sys));
    return coords_zk(c, qn_system_matrix(sys));
}

void qn_distrib__coords_release(coords *c)
{
    free(c->h);
    free(c->col);
    free(c->pivots);
}
