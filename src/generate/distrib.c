/*
 * distrib.c: the exact histogram of minimal presses over a rule's image, an
 * index to enumerate the states with a given press count, and the grading
 * tiers derived from it (difficulty model in distrib.h).
 */
#include "quench/distrib.h"

#include <assert.h>
#include <stdlib.h>
#include <string.h>

#include "quench/gf2.h"
#include "quench/mem.h"

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

#define MAXCOMP 32   /* components: log2(QN_DISTRIB_MAX_STATES) + margin */
#define PART_MAX 256 /* entries in one BFS lookup table part */

typedef struct coords {
    int nrows, ncols;
    unsigned k;
    size_t ncomp;
    unsigned order[MAXCOMP];
    uint8_t *h;   /* ncomp * nrows */
    uint8_t *col; /* ncols * MAXCOMP: digit vector of each column */
    /* k = 2 only: */
    int *pivots; /* ncomp pivot columns (the rest are free) */
} coords;

struct qn_distrib {
    int nrows;
    unsigned k;
    uint64_t total;  /* image size = product of order[] */
    size_t len;      /* max presses + 1 */
    uint64_t *count; /* len entries */
    size_t ncomp;
    unsigned order[MAXCOMP];
    uint64_t stride[MAXCOMP];
    uint8_t *h;      /* ncomp * nrows */
    int nw;          /* k = 2: words per packed state */
    uint64_t *hbits; /* k = 2: ncomp * nw, h packed */
    int wide;        /* 1: d16 holds distances, else d8 */
    uint8_t *d8;     /* total entries, or NULL */
    uint16_t *d16;   /* total entries, or NULL */
    unsigned bshift; /* directory block = 2^bshift entries */
    size_t nblocks;
    uint32_t *cum; /* len * (nblocks + 1): states with m
                      presses in blocks before b */
};

static inline unsigned dget(const qn_distrib *d, uint64_t i)
{
    return d->wide ? d->d16[i] : d->d8[i];
}

static inline void dset(qn_distrib *d, uint64_t i, unsigned v)
{
    if (d->wide)
        d->d16[i] = (uint16_t)v;
    else
        d->d8[i] = (uint8_t)v;
}

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
static void coords_zk(coords *c, const uint8_t *a)
{
    int nr = c->nrows, nc = c->ncols, t;
    unsigned k = c->k;
    size_t sz = (size_t)nr * nc;
    uint8_t *w = qn_xmemdup(a, sz ? sz : 1), *ua = qn_xmemdup(a, sz ? sz : 1);
    uint8_t *av = qn_xmemdup(a, sz ? sz : 1);

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
    c->h = qn_xcalloc((size_t)t * nr + 1, 1);
    c->col = qn_xcalloc((size_t)nc * MAXCOMP + 1, 1);
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
    free(w);
    free(ua);
    free(av);
}

/* Echelon-form coordinates for k = 2. */
static void coords_gf2(coords *c, const uint8_t *a)
{
    int nr = c->nrows, nc = c->ncols, r;
    qn_gf2mat m;

    qn_gf2mat_init(&m, nr, nc);
    for (int i = 0; i < nr; i++)
        for (int j = 0; j < nc; j++)
            if (a[(size_t)i * nc + j])
                qn_gf2mat_set(&m, i, j, 1);
    c->pivots = QN_NEWN((size_t)(nr < nc ? nr : nc) + 1, int);
    r = qn_gf2mat_rref(&m, c->pivots);
    assert(r <= MAXCOMP);
    c->ncomp = (size_t)r;
    c->h = qn_xcalloc((size_t)r * nr + 1, 1);
    c->col = qn_xcalloc((size_t)nc * MAXCOMP + 1, 1);
    for (int t = 0; t < r; t++) {
        c->order[t] = 2;
        for (int j = 0; j < nc; j++)
            c->col[(size_t)j * MAXCOMP + t] = (uint8_t)qn_gf2mat_get(&m, t, j);
        for (int i = 0; i < nr; i++)
            c->h[(size_t)t * nr + i] = a[(size_t)i * nc + c->pivots[t]];
    }
    qn_gf2mat_release(&m);
}

static void coords_release(coords *c)
{
    free(c->h);
    free(c->col);
    free(c->pivots);
}

/* ------------------------------------------------------------------ */
/* Distances                                                           */

/*
 * k = 2 with a small kernel: the solutions of A x = v are x = (x_p, z) with
 * any z on the free columns and x_p = y ^ c_z on the pivot columns, where y
 * is v's coordinate word and c_z the XOR of the free columns' words. So
 * dist(y) = min over z of popcount(y ^ c_z) + popcount(z): a sequential
 * sweep of pure ALU work, 2^nfree popcounts per state, no table lookups.
 */
static void sweep_gf2(qn_distrib *d, const coords *c, uint64_t *count)
{
    int nc = c->ncols, r = (int)c->ncomp, nfree = nc - r;
    size_t nz = (size_t)1 << nfree;
    uint32_t *cz = QN_NEWN(nz, uint32_t);
    uint8_t *wz = QN_NEWN(nz, uint8_t);
    int f = 0;

    for (int j = 0, p = 0; j < nc; j++) {
        uint32_t word = 0;

        if (p < r && c->pivots[p] == j) {
            p++;
            continue;
        }
        for (int t = 0; t < r; t++)
            word |= (uint32_t)c->col[(size_t)j * MAXCOMP + t] << t;
        /* Gray-free fill: entries with bit f set copy those without. */
        for (size_t z = 0; z < ((size_t)1 << f); z++) {
            cz[z | ((size_t)1 << f)] = cz[z] ^ word;
            wz[z | ((size_t)1 << f)] = (uint8_t)(wz[z] + 1);
        }
        f++;
    }
    assert(f == nfree);
    for (uint64_t y = 0; y < d->total; y++) {
        unsigned best = 255;

        for (size_t z = 0; z < nz; z++) {
            unsigned v =
                (unsigned)__builtin_popcount((uint32_t)y ^ cz[z]) + wz[z];
            best = v < best ? v : best;
        }
        d->d8[y] = (uint8_t)best;
        count[best]++;
    }
    free(cz);
    free(wz);
}

/*
 * Breadth-first search from 0 with the distinct non-zero press digit
 * vectors as moves. For k = 2 a move is an XOR of the index; otherwise the
 * components are grouped into parts of at most PART_MAX indices, and a
 * move is one table lookup per part (tables precomputed per move and
 * part, values already multiplied by the part's stride). Each level is
 * kept as a list while it is small (at most total / 32 entries, so the
 * lists take 1/4 byte per state) and found by scanning the table
 * otherwise, which happens for at most 32 levels.
 */
typedef struct bfs {
    qn_distrib *d;
    size_t nmoves;
    uint32_t *word; /* k = 2: nmoves XOR masks */
    size_t nparts;
    uint32_t pstride[MAXCOMP]; /* total <= 2^26: indices fit 32 bits */
    uint32_t psize[MAXCOMP];
    uint32_t *tab[MAXCOMP]; /* nmoves * psize[p] each */
    uint32_t *next;
    size_t nnext, cap;
    int overflow;
    uint64_t found;
} bfs;

static inline void expand(bfs *b, uint32_t u, unsigned m1)
{
    qn_distrib *d = b->d;
    unsigned inf = d->wide ? 0xFFFF : 0xFF;
    const uint32_t *base[MAXCOMP];

    if (!b->word)
        for (size_t p = 0; p < b->nparts; p++)
            base[p] = b->tab[p] + (u / b->pstride[p]) % b->psize[p];
    for (size_t j = 0; j < b->nmoves; j++) {
        uint32_t v = 0;

        if (b->word) {
            v = u ^ b->word[j];
        } else {
            for (size_t p = 0; p < b->nparts; p++)
                v += base[p][j * b->psize[p]];
        }
        if (dget(d, v) != inf)
            continue;
        dset(d, v, m1);
        b->found++;
        if (b->nnext < b->cap)
            b->next[b->nnext++] = (uint32_t)v;
        else
            b->overflow = 1;
    }
}

static int cmp32(const void *x, const void *y)
{
    return memcmp(x, y, MAXCOMP);
}

static void run_bfs(qn_distrib *d, const coords *c, uint64_t *count,
                    size_t bound)
{
    bfs b;
    uint8_t *mv = qn_xmemdup(c->col, (size_t)c->ncols * MAXCOMP + 1);
    static const uint8_t zero[MAXCOMP];
    uint32_t *cur;
    size_t ncur = 1, nm = 0;
    int scan = 0;

    memset(&b, 0, sizeof(b));
    b.d = d;
    /* Distinct non-zero moves only: repeats and quiet presses add nothing. */
    qsort(mv, (size_t)c->ncols, MAXCOMP, cmp32);
    for (int j = 0; j < c->ncols; j++) {
        const uint8_t *row = mv + (size_t)j * MAXCOMP;
        if (!memcmp(row, zero, MAXCOMP) ||
            (nm && !memcmp(row, mv + (nm - 1) * MAXCOMP, MAXCOMP)))
            continue;
        memmove(mv + nm * MAXCOMP, row, MAXCOMP);
        nm++;
    }
    b.nmoves = nm;
    if (d->k == 2) {
        b.word = QN_NEWN(nm + 1, uint32_t);
        for (size_t j = 0; j < nm; j++)
            for (size_t t = 0; t < d->ncomp; t++)
                b.word[j] |= (uint32_t)mv[j * MAXCOMP + t] << t;
    } else {
        size_t t0 = 0;

        while (t0 < d->ncomp) {
            size_t t1 = t0, p = b.nparts++;
            uint64_t size = 1;

            while (t1 < d->ncomp &&
                   (t1 == t0 || size * d->order[t1] <= PART_MAX))
                size *= d->order[t1++];
            b.pstride[p] = (uint32_t)d->stride[t0];
            b.psize[p] = (uint32_t)size;
            b.tab[p] = QN_NEWN(nm * size + 1, uint32_t);
            for (size_t j = 0; j < nm; j++)
                for (uint64_t v = 0; v < size; v++) {
                    uint64_t x = v, out = 0;
                    for (size_t t = t0; t < t1; t++) {
                        unsigned o = d->order[t];
                        unsigned dig = (unsigned)(x % o);
                        x /= o;
                        dig = (dig + mv[j * MAXCOMP + t]) % o;
                        out += dig * d->stride[t];
                    }
                    b.tab[p][j * size + v] = (uint32_t)out;
                }
            t0 = t1;
        }
    }
    free(mv);

    b.cap = (size_t)(d->total / 32) + 16;
    cur = QN_NEWN(b.cap, uint32_t);
    b.next = QN_NEWN(b.cap, uint32_t);
    memset(d->wide ? (void *)d->d16 : (void *)d->d8, 0xFF,
           (size_t)d->total * (d->wide ? 2 : 1));
    dset(d, 0, 0);
    count[0] = 1;
    cur[0] = 0;
    for (unsigned m = 0;; m++) {
        uint32_t *tmp;

        assert(m + 1 <= bound);
        b.nnext = 0, b.overflow = 0, b.found = 0;
        if (!scan) {
            for (size_t i = 0; i < ncur; i++)
                expand(&b, cur[i], m + 1);
        } else {
            for (uint32_t u = 0; u < (uint32_t)d->total; u++)
                if (dget(d, u) == m)
                    expand(&b, u, m + 1);
        }
        if (!b.found)
            break;
        count[m + 1] = b.found;
        tmp = cur, cur = b.next, b.next = tmp;
        ncur = b.nnext;
        scan = b.overflow;
    }
    free(cur);
    free(b.next);
    free(b.word);
    for (size_t p = 0; p < b.nparts; p++)
        free(b.tab[p]);
}

/* The rank directory for qn_distrib_nth. */
static void build_directory(qn_distrib *d)
{
    size_t len = d->len, nb1;
    uint32_t *blk = QN_NEWN(len, uint32_t);

    d->bshift = 8;
    while (((uint64_t)1 << d->bshift) < 16 * (uint64_t)len)
        d->bshift++;
    d->nblocks =
        (size_t)((d->total + ((uint64_t)1 << d->bshift) - 1) >> d->bshift);
    nb1 = d->nblocks + 1;
    d->cum = QN_NEWN(len * nb1, uint32_t);
    for (size_t b = 0; b < d->nblocks; b++) {
        uint64_t lo = (uint64_t)b << d->bshift;
        uint64_t hi = lo + ((uint64_t)1 << d->bshift);

        if (hi > d->total)
            hi = d->total;
        memset(blk, 0, len * sizeof(*blk));
        for (uint64_t i = lo; i < hi; i++)
            blk[dget(d, i)]++;
        for (size_t m = 0; m < len; m++)
            d->cum[m * nb1 + b + 1] = d->cum[m * nb1 + b] + blk[m];
    }
    free(blk);
}

int qn_distrib_compute(qn_distrib **out, const qn_system *sys, qn_err *err)
{
    qn_distrib *d;
    coords c;
    uint64_t total, *count;
    size_t bound, log2t = 0;
    int code;

    assert(out && sys);
    *out = NULL;
    code = qn_system_group_size_u64(sys, QN_IMAGE, &total);
    if (code != QN_OK || total > QN_DISTRIB_MAX_STATES)
        return qn_err_set(err, QN_ELIMIT, 0, 0,
                          "the exact distribution needs at most 2^26 "
                          "solvable states, this rule has 2^%.1f",
                          qn_system_group_log2(sys, QN_IMAGE));

    memset(&c, 0, sizeof(c));
    c.nrows = qn_system_nrows(sys);
    c.ncols = qn_system_ncols(sys);
    c.k = qn_system_modulus(sys);
    if (c.k == 2)
        coords_gf2(&c, qn_system_matrix(sys));
    else
        coords_zk(&c, qn_system_matrix(sys));

    d = QN_NEW(qn_distrib);
    d->nrows = c.nrows;
    d->k = c.k;
    d->ncomp = c.ncomp;
    d->total = 1;
    for (size_t t = 0; t < c.ncomp; t++) {
        d->order[t] = c.order[t];
        d->stride[t] = d->total;
        d->total *= c.order[t];
    }
    assert(d->total == total);
    d->h = c.h;
    c.h = NULL;
    if (c.k == 2) {
        d->nw = qn_gf2_words(c.nrows);
        d->hbits = QN_NEWN(c.ncomp * (size_t)d->nw + 1, uint64_t);
        for (size_t t = 0; t < c.ncomp; t++)
            for (int r = 0; r < c.nrows; r++)
                d->hbits[t * d->nw + r / 64] |=
                    (uint64_t)d->h[t * (size_t)c.nrows + r] << (r % 64);
    }

    /*
     * A greedy choice of columns that each enlarge the subgroup generated
     * so far generates the image with at most log2 |image| columns, each
     * pressed at most k - 1 times: that bounds every distance.
     */
    while (((uint64_t)2 << log2t) <= total)
        log2t++;
    bound = log2t * (c.k - 1) + 1;
    assert(bound < 0xFFFF);
    d->wide = bound >= 0xFF;
    if (d->wide)
        d->d16 = QN_NEWN(total, uint16_t);
    else
        d->d8 = QN_NEWN(total, uint8_t);
    count = QN_NEWN(bound + 2, uint64_t);
    if (c.k == 2 && c.ncols - (int)c.ncomp <= 20 &&
        ((uint64_t)1 << (c.ncols - (int)c.ncomp)) <= 8 * (uint64_t)c.ncols)
        sweep_gf2(d, &c, count);
    else
        run_bfs(d, &c, count, bound);
    coords_release(&c);

    d->len = 1;
    for (size_t m = 0; m <= bound + 1; m++)
        if (count[m])
            d->len = m + 1;
    d->count = QN_RENEW(count, d->len, uint64_t);
    build_directory(d);
    *out = d;
    return QN_OK;
}

void qn_distrib_free(qn_distrib *d)
{
    if (!d)
        return;
    free(d->count);
    free(d->h);
    free(d->hbits);
    free(d->d8);
    free(d->d16);
    free(d->cum);
    free(d);
}

size_t qn_distrib_len(const qn_distrib *d)
{
    return d->len;
}

uint64_t qn_distrib_count(const qn_distrib *d, size_t m)
{
    return m < d->len ? d->count[m] : 0;
}

uint64_t qn_distrib_total(const qn_distrib *d)
{
    return d->total;
}

int qn_distrib_ncells(const qn_distrib *d)
{
    return d->nrows;
}

uint64_t qn_distrib_nth(const qn_distrib *d, size_t m, uint64_t i,
                        uint8_t *d_out)
{
    size_t nb1 = d->nblocks + 1, lo = 0, hi = d->nblocks - 1;
    const uint32_t *cum;
    uint64_t idx, end, rem;
    unsigned acc[MAXCOMP];

    assert(m < d->len && i < d->count[m]);
    cum = d->cum + m * nb1;
    while (lo < hi) {
        size_t mid = lo + (hi - lo + 1) / 2;
        if (cum[mid] <= i)
            lo = mid;
        else
            hi = mid - 1;
    }
    rem = i - cum[lo];
    idx = (uint64_t)lo << d->bshift;
    end = idx + ((uint64_t)1 << d->bshift);
    if (end > d->total)
        end = d->total;
    /* Skip whole 64-entry chunks by counting (vectorises), then step. */
    while (end - idx > 64) {
        unsigned n = 0;
        if (d->wide)
            for (int j = 0; j < 64; j++)
                n += d->d16[idx + j] == m;
        else
            for (int j = 0; j < 64; j++)
                n += d->d8[idx + j] == m;
        if (n > rem)
            break;
        rem -= n;
        idx += 64;
    }
    for (; idx < end; idx++)
        if (dget(d, idx) == m && rem-- == 0)
            break;
    assert(idx < end);

    /* Decode: the BFS vertex v = A x; the state solved by x is -v. */
    if (d->k == 2) { /* -v = v: XOR the packed basis states */
        for (int w = 0; w < d->nw; w++) {
            uint64_t v = 0;
            for (size_t t = 0; t < d->ncomp; t++)
                if ((idx >> t) & 1)
                    v ^= d->hbits[t * d->nw + w];
            for (int r = w * 64; r < d->nrows && r < w * 64 + 64; r++)
                d_out[r] = (uint8_t)((v >> (r % 64)) & 1);
        }
        return idx;
    }
    for (size_t t = 0; t < d->ncomp; t++)
        acc[t] = (unsigned)((idx / d->stride[t]) % d->order[t]);
    for (int r = 0; r < d->nrows; r++) {
        unsigned v = 0;
        for (size_t t = 0; t < d->ncomp; t++)
            v += acc[t] * d->h[t * (size_t)d->nrows + r];
        d_out[r] = (uint8_t)((d->k - v % d->k) % d->k);
    }
    return idx;
}

void qn_distrib_json(const qn_distrib *d, qn_jsonw *w)
{
    qn_jsonw_arr(w);
    for (size_t m = 0; m < d->len; m++)
        qn_jsonw_uint(w, d->count[m]);
    qn_jsonw_end(w);
}

/* ------------------------------------------------------------------ */
/* Tiers                                                               */

static const char *const default_names[QN_TIERS_DEFAULT] = {
    "easy", "medium", "hard", "expert", "master"};

const char *qn_tiers_default_name(size_t i)
{
    assert(i < QN_TIERS_DEFAULT);
    return default_names[i];
}

/* Cumulative shares where tiers 0..3 end (nearest press count). */
static const double default_cuts[QN_TIERS_DEFAULT - 1] = {0.10, 0.40, 0.70,
                                                          0.95};

/*
 * Cut tiers from a histogram of positive press counts: val[0 .. nval-1]
 * increasing, cnt[] > 0; the tiers cover 1..max (max >= val[nval-1]).
 */
static void cut_tiers(qn_tiers *out, const uint64_t *val, const uint64_t *cnt,
                      size_t nval, uint64_t max)
{
    size_t e[QN_TIERS_DEFAULT], nt;
    uint64_t sum = 0, run = 0;

    memset(out, 0, sizeof(*out));
    if (max == 0)
        return;
    if (nval == 0) {
        out->n = 1;
        strcpy(out->name[0], default_names[0]);
        out->lo[0] = 1, out->hi[0] = max;
        return;
    }
    nt = nval < QN_TIERS_DEFAULT ? nval : QN_TIERS_DEFAULT;
    if (nt < QN_TIERS_DEFAULT) {
        for (size_t t = 0; t < nt; t++)
            e[t] = t;
    } else {
        double best[QN_TIERS_DEFAULT - 1];

        for (size_t i = 0; i < nval; i++)
            sum += cnt[i];
        for (size_t t = 0; t + 1 < nt; t++)
            e[t] = 0, best[t] = 2.0;
        for (size_t i = 0; i < nval; i++) {
            double f;
            run += cnt[i];
            f = (double)run / (double)sum;
            for (size_t t = 0; t + 1 < nt; t++) {
                double dist = f > default_cuts[t] ? f - default_cuts[t]
                                                  : default_cuts[t] - f;
                if (dist < best[t])
                    best[t] = dist, e[t] = i;
            }
        }
        /* Non-empty and increasing, leaving room for the later tiers. */
        for (size_t t = 1; t + 1 < nt; t++)
            if (e[t] <= e[t - 1])
                e[t] = e[t - 1] + 1;
        if (e[nt - 2] > nval - 2)
            e[nt - 2] = nval - 2;
        for (size_t t = nt - 2; t-- > 0;)
            if (e[t] >= e[t + 1])
                e[t] = e[t + 1] - 1;
        e[nt - 1] = nval - 1;
    }
    out->n = nt;
    for (size_t t = 0; t < nt; t++) {
        strcpy(out->name[t], default_names[t]);
        out->lo[t] = t ? out->hi[t - 1] + 1 : 1;
        out->hi[t] = t + 1 < nt ? val[e[t]] : max;
    }
}

size_t qn_tiers_from_rules(qn_tiers *out, const qn_rules *r)
{
    size_t n = qn_rules_ntiers(r);

    memset(out, 0, sizeof(*out));
    assert(n <= QN_TIERS_MAX);
    for (size_t i = 0; i < n; i++) {
        int lo = qn_rules_tier_lo(r, i), hi = qn_rules_tier_hi(r, i);
        strncpy(out->name[i], qn_rules_tier_name(r, i), QN_RULES_MAX_NAME);
        out->lo[i] = lo > 0 ? (uint64_t)lo : 0;
        out->hi[i] = hi > 0 ? (uint64_t)hi : 0;
    }
    out->n = n;
    return n;
}

void qn_tiers_from_distrib(qn_tiers *out, const qn_distrib *d)
{
    size_t nval = d->len - 1;
    uint64_t *val = QN_NEWN(nval + 1, uint64_t);

    for (size_t m = 1; m < d->len; m++)
        val[m - 1] = m;
    /* BFS levels are contiguous, so every count 1..len-1 is positive. */
    cut_tiers(out, val, d->count + 1, nval, nval);
    free(val);
}

static int cmp64(const void *x, const void *y)
{
    uint64_t a = *(const uint64_t *)x, b = *(const uint64_t *)y;
    return (a > b) - (a < b);
}

void qn_tiers_from_samples(qn_tiers *out, const uint64_t *presses, size_t n,
                           uint64_t max_presses)
{
    uint64_t *s = QN_NEWN(n + 1, uint64_t), *cnt = QN_NEWN(n + 1, uint64_t);
    size_t nval = 0;

    if (n)
        memcpy(s, presses, n * sizeof(*s));
    qsort(s, n, sizeof(*s), cmp64);
    for (size_t i = 0; i < n; i++) {
        if (s[i] == 0)
            continue;
        if (nval && s[nval - 1] == s[i]) {
            cnt[nval - 1]++;
        } else {
            s[nval] = s[i];
            cnt[nval++] = 1;
        }
    }
    if (nval && s[nval - 1] > max_presses)
        max_presses = s[nval - 1];
    cut_tiers(out, s, cnt, nval, max_presses);
    free(s);
    free(cnt);
}

const char *qn_tiers_grade(const qn_tiers *t, uint64_t presses)
{
    for (size_t i = 0; i < t->n; i++)
        if (presses >= t->lo[i] && presses <= t->hi[i])
            return t->name[i];
    return NULL;
}
