/*
 * gf2.c: dense GF(2) matrices: storage, transpose and products, and the
 * rank, rref, kernel and factorisation front ends over the elimination
 * engine in gf2_elim.c.
 */
#include "engine/gf2.h"

#include <assert.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "base/err.h"
#include "base/mem.h"
#include "gf2_internal.h"

#define MAX_DIM (1 << 24)
#define PANEL_MIN_WORDS 128 /* 8192 columns */

/*
 * Storage is 64-byte aligned (one cache line, and whole AVX-512 vectors)
 * but comes from qn_calloc, so running out of memory and the
 * QN_FAIL_ALLOC injection behave as everywhere else. We over-allocate by
 * 72 bytes, align by hand and keep the distance back to the malloc'd base
 * in the word just before w; that keeps the public struct free of a
 * "base" field that every initialiser would have to know about.
 */
static uint64_t *alloc_words(size_t n)
{
    unsigned char *base = qn_calloc(n * sizeof(uint64_t) + 72, 1);
    uintptr_t a;
    uint64_t *w;

    if (!base)
        return NULL;
    a = ((uintptr_t)base + 8 + 63) & ~(uintptr_t)63;
    w = (uint64_t *)a;
    w[-1] = (uint64_t)(a - (uintptr_t)base);
    qn_mem_advise_huge(w, n * sizeof(uint64_t));
    return w;
}

static void free_words(uint64_t *w)
{
    if (w)
        free((unsigned char *)w - w[-1]);
}

int qn_gf2mat_init(qn_gf2mat *m, int nrows, int ncols)
{
    assert(nrows >= 0 && nrows <= MAX_DIM);
    assert(ncols >= 0 && ncols <= MAX_DIM);
    m->w = alloc_words((size_t)nrows * (size_t)qn_gf2_words(ncols));
    if (!m->w) {
        m->nrows = m->ncols = m->stride = 0;
        return QN_ENOMEM;
    }
    m->nrows = nrows;
    m->ncols = ncols;
    m->stride = qn_gf2_words(ncols);
    return QN_OK;
}

void qn_gf2mat_release(qn_gf2mat *m)
{
    free_words(m->w);
    m->nrows = m->ncols = m->stride = 0;
    m->w = NULL;
}

static const uint64_t *crow(const qn_gf2mat *m, int r)
{
    return m->w + (size_t)r * m->stride;
}

void qn_gf2mat_copy(qn_gf2mat *dst, const qn_gf2mat *src)
{
    size_t nw = (size_t)qn_gf2_words(src->ncols);
    int r;

    assert(dst->nrows == src->nrows && dst->ncols == src->ncols);
    if (dst->stride == src->stride) {
        memcpy(dst->w, src->w,
               (size_t)src->nrows * (size_t)src->stride * sizeof(uint64_t));
        return;
    }
    for (r = 0; r < src->nrows; r++)
        memcpy(qn_gf2mat_row(dst, r), crow(src, r), nw * sizeof(uint64_t));
}

/*
 * Transpose a 64 x 64 bit block in place (bit c of a[r] is entry (r, c)):
 * swap the off-diagonal 32 x 32 blocks, then the 16 x 16 blocks inside
 * each, and so on down to single bits (Hacker's Delight 7-3), 6 * 32 word
 * operations instead of 4096 bit moves.
 */
static void transpose64(uint64_t *a)
{
    uint64_t m = 0x00000000FFFFFFFFULL;
    int j, k;

    for (j = 32; j != 0; j >>= 1, m ^= m << j) {
        for (k = 0; k < 64; k = ((k | j) + 1) & ~j) {
            uint64_t t = ((a[k] >> j) ^ a[k | j]) & m;

            a[k] ^= t << j;
            a[k | j] ^= t;
        }
    }
}

void qn_gf2mat_transpose(qn_gf2mat *dst, const qn_gf2mat *src)
{
    int bi, bj, k;
    uint64_t blk[64];

    assert(dst->nrows == src->ncols && dst->ncols == src->nrows);
    assert(dst->w != src->w);
    for (bi = 0; bi < qn_gf2_words(src->nrows); bi++) {
        for (bj = 0; bj < qn_gf2_words(src->ncols); bj++) {
            for (k = 0; k < 64; k++) {
                int r = 64 * bi + k;

                blk[k] = r < src->nrows ? crow(src, r)[bj] : 0;
            }
            transpose64(blk);
            for (k = 0; k < 64 && 64 * bj + k < dst->nrows; k++)
                qn_gf2mat_row(dst, 64 * bj + k)[bi] = blk[k];
        }
    }
}

static int parity_and(const uint64_t *a, const uint64_t *b, int lo, int hi)
{
    uint64_t acc = 0;
    int i;

    for (i = lo; i < hi; i++)
        acc ^= a[i] & b[i];
    return __builtin_parityll(acc);
}

void qn_gf2mat_mul_vec(uint64_t *y, const qn_gf2mat *a, const uint64_t *x)
{
    int nw = qn_gf2_words(a->ncols), r;

    memset(y, 0, (size_t)qn_gf2_words(a->nrows) * sizeof(uint64_t));
    for (r = 0; r < a->nrows; r++)
        if (parity_and(crow(a, r), x, 0, nw))
            y[r / 64] |= (uint64_t)1 << (r % 64);
}

int qn_gf2mat_rref(qn_gf2mat *m, int *pivots)
{
    return qn_gf2__echelon(m, pivots, qn_gf2_words(m->ncols), 1,
                           QN_GF2_SIMD_BEST);
}

static const qn_gf2_tune by_size = {-1, 0, QN_GF2_SIMD_BEST};

/*
 * Row echelon form, non-reduced, by the engine that is faster at this
 * width (t->panel 0 or 1 forces one, for the tests and benchmarks).
 */
static int row_echelon(qn_gf2mat *m, int *pivots, const qn_gf2_tune *t)
{
    int nw = qn_gf2_words(m->ncols);
    int panel = t->panel >= 0 ? t->panel : nw >= PANEL_MIN_WORDS;

    if (panel)
        return qn_gf2__echelon_panel(m, pivots, nw, t->simd);
    return qn_gf2__echelon(m, pivots, nw, 0, t->simd);
}

int qn_gf2mat_rank(const qn_gf2mat *a)
{
    return qn_gf2__rank(a, NULL);
}

int qn_gf2__rank(const qn_gf2mat *a, const qn_gf2_tune *t)
{
    qn_gf2mat c;
    int r;

    if (qn_gf2mat_init(&c, a->nrows, a->ncols) != QN_OK)
        return QN_ENOMEM;
    qn_gf2mat_copy(&c, a);
    r = row_echelon(&c, NULL, t ? t : &by_size);
    qn_gf2mat_release(&c);
    return r;
}

/*
 * Free columns in increasing order: the complement of the r pivots among
 * columns 0..n-1. free_out has room for n - r ints.
 */
static void free_columns(int *free_out, const int *pivots, int r, int n)
{
    int c, i = 0, k = 0;

    for (c = 0; c < n; c++) {
        if (i < r && pivots[i] == c)
            i++;
        else
            free_out[k++] = c;
    }
}

/*
 * Kernel from a reduced echelon form R (only columns < out->ncols are
 * read): the basis vector of free column f has x_f = 1, the other free
 * variables 0, and x[pivots[i]] = R[i][f]. Only rows whose pivot is left of
 * f can have R[i][f] = 1.
 */
static int kernel_from_rref(qn_gf2mat *out, const qn_gf2mat *rref,
                            const int *pivots, int r)
{
    int n = out->ncols, d = out->nrows, k, i = 0;
    int *fc = QN_ALLOCN((size_t)d + 1, int);

    if (!fc)
        return QN_ENOMEM;

    free_columns(fc, pivots, r, n);
    for (k = 0; k < d; k++) {
        int f = fc[k], j;

        qn_gf2mat_set(out, k, f, 1);
        while (i < r && pivots[i] < f)
            i++;
        for (j = 0; j < i; j++)
            if (qn_gf2mat_get(rref, j, f))
                qn_gf2mat_set(out, k, pivots[j], 1);
    }
    free(fc);
    return QN_OK;
}

/*
 * Kernel from a (non-reduced) row echelon form E by back substitution, one
 * vector per free column f: x_f = 1 and, for pivot rows from the bottom up,
 * x[pivots[i]] = (row i) . x with the pivot bit itself still 0. x is zero
 * right of f, so each dot product only spans words pivots[i]/64 .. f/64.
 * Each vector costs about r * n / 128 scalar word operations, so this wins
 * over back-reducing E to rref (Four Russians again) only for small
 * nullity: measured break-even near d = 64..80 for n = 4096..10000, hence
 * BACKSUB_MAX. Random dense matrices have d <= 2 or so.
 */
#define BACKSUB_MAX 64
static int kernel_from_echelon(qn_gf2mat *out, const qn_gf2mat *ech,
                               const int *pivots, int r)
{
    int n = out->ncols, d = out->nrows, k, i = 0;
    int *fc = QN_ALLOCN((size_t)d + 1, int);

    if (!fc)
        return QN_ENOMEM;

    free_columns(fc, pivots, r, n);
    for (k = 0; k < d; k++) {
        int f = fc[k], j, hi = f / 64 + 1;
        uint64_t *x = qn_gf2mat_row(out, k);

        x[f / 64] |= (uint64_t)1 << (f % 64);
        while (i < r && pivots[i] < f)
            i++;
        for (j = i - 1; j >= 0; j--)
            if (parity_and(crow(ech, j), x, pivots[j] / 64, hi))
                x[pivots[j] / 64] |= (uint64_t)1 << (pivots[j] % 64);
    }
    free(fc);
    return QN_OK;
}

int qn_gf2mat_kernel(qn_gf2mat *out, const qn_gf2mat *a)
{
    return qn_gf2__kernel(out, a, NULL);
}

int qn_gf2__kernel(qn_gf2mat *out, const qn_gf2mat *a, const qn_gf2_tune *t)
{
    int n = a->ncols, r, d, rc = QN_ENOMEM;
    int *pivots = QN_ALLOCN((size_t)(a->nrows < n ? a->nrows : n) + 1, int);
    qn_gf2mat c = {0};

    *out = (qn_gf2mat){0};
    if (!pivots || qn_gf2mat_init(&c, a->nrows, n) != QN_OK)
        goto done;
    qn_gf2mat_copy(&c, a);
    if (!t)
        t = &by_size;
    if ((r = row_echelon(&c, pivots, t)) < 0)
        goto done;
    d = n - r;
    if (qn_gf2mat_init(out, d, n) != QN_OK)
        goto done;
    if (d <= BACKSUB_MAX)
        rc = kernel_from_echelon(out, &c, pivots, r);
    else if ((rc = qn_gf2__backreduce(&c, pivots, r, t->simd)) == QN_OK)
        rc = kernel_from_rref(out, &c, pivots, r);
    if (rc != QN_OK)
        qn_gf2mat_release(out);
done:
    qn_gf2mat_release(&c);
    free(pivots);
    return rc;
}

int qn_gf2mat_left_kernel(qn_gf2mat *out, const qn_gf2mat *a)
{
    qn_gf2mat t;
    int rc;

    if (qn_gf2mat_init(&t, a->ncols, a->nrows) != QN_OK) {
        *out = (qn_gf2mat){0};
        return QN_ENOMEM;
    }
    qn_gf2mat_transpose(&t, a);
    rc = qn_gf2mat_kernel(out, &t);
    qn_gf2mat_release(&t);
    return rc;
}

/*
 * The factorisation. Eliminating [A | I] to reduced echelon form with
 * pivots taken in A only gives [R | T] with T A = R, T invertible. Rows
 * i < r: R_i = t_i A has a unit at pivots[i] and zeros at the other pivots,
 * so if A x = s then t_i . s = R_i x = x[pivots[i]] + (free terms), which
 * is x[pivots[i]] for the solution with free variables 0. Rows i >= r have
 * R_i = 0, so t_i A = 0: the left kernel (dimension m - r, and independent
 * because T is invertible). The identity block starts at a word boundary
 * so that T is copied out word by word.
 *
 * solve() does not use T row by row (r dot products per call). Both maps
 * are linear in s, so per bit j of s we know the pair [syndrome | x] for
 * s = e_j (syndrome = y . e_j for each left-kernel row y), and a call
 * XORs the pairs of the set bits. Four Russians again: s is cut into
 * groups of tbits = 4 bits and each group gets a 16-entry table of sums,
 * so a call costs m / 4 lookups and row XORs, with no allocation. The
 * tables take 4 * m * (words of x + syndrome) words (557 KB for 32 x 32
 * cells); past TAB_MAX bytes (about 5000 cells) groups of 2 bits halve
 * that. A tuning (qn_gf2_tune.tbits 1, 2 or 4) forces a width, so the
 * tests reach every path.
 */
#define TAB_MAX ((size_t)16 << 20)
#define CHUNK 64 /* words of [syndrome | x] accumulated per pass */

/* Words of the syndrome part (it leads each [syndrome | x] table row). */
static int syn_words(const qn_gf2fact *f)
{
    return qn_gf2_words(f->nrows - f->rank);
}

static int pick_tbits(int m, int wt, int forced)
{
    size_t bytes4 = (size_t)((m + 3) / 4) * 16 * (size_t)wt * 8;

    if (forced == 1 || forced == 2 || forced == 4)
        return forced;
    return bytes4 <= TAB_MAX ? 4 : 2;
}

static int build_tables(qn_gf2fact *f, int tbits)
{
    int m = f->nrows, r = f->rank, ws = syn_words(f);
    int wt = ws + qn_gf2_words(f->ncols), i, j, ng;
    uint64_t *pair = QN_ALLOCN((size_t)wt + 1, uint64_t);
    qn_gf2mat tt = {0}, lt = {0}; /* T and the left kernel by columns of s */
    int rc = QN_ENOMEM;

    f->tbits = pick_tbits(m, wt, tbits);
    ng = (m + f->tbits - 1) / f->tbits;
    if (!pair || qn_gf2mat_init(&tt, m, r) != QN_OK ||
        qn_gf2mat_init(&lt, m, m - r) != QN_OK ||
        qn_gf2mat_init(&f->tab, ng << f->tbits, 64 * wt) != QN_OK)
        goto done;
    qn_gf2mat_transpose(&tt, &f->t);
    qn_gf2mat_transpose(&lt, &f->lkernel);
    for (j = 0; j < m; j++) {
        int g = j / f->tbits, b = j % f->tbits, v;
        const uint64_t *trow = crow(&tt, j);

        /* pair for s = e_j: syndrome bits, then x bits at the pivots */
        memcpy(pair, crow(&lt, j), (size_t)ws * sizeof(uint64_t));
        memset(pair + ws, 0, (size_t)(wt - ws) * sizeof(uint64_t));
        for (i = 0; i < tt.stride; i++) {
            uint64_t bits;

            for (bits = trow[i]; bits; bits &= bits - 1) {
                int p = f->pivots[64 * i + __builtin_ctzll(bits)];

                pair[ws + p / 64] |= (uint64_t)1 << (p % 64);
            }
        }
        /* every entry of group g whose index has bit b */
        for (v = 1 << b; v < (1 << f->tbits); v += 1 << (b + 1)) {
            int k;

            for (k = v; k < v + (1 << b); k++) {
                uint64_t *d = qn_gf2mat_row(&f->tab, (g << f->tbits) | k);
                int t;

                for (t = 0; t < wt; t++)
                    d[t] ^= pair[t];
            }
        }
    }
    rc = QN_OK;
done:
    qn_gf2mat_release(&lt);
    qn_gf2mat_release(&tt);
    free(pair);
    return rc;
}

int qn_gf2fact_init(qn_gf2fact *f, const qn_gf2mat *a)
{
    return qn_gf2__fact_init(f, a, NULL);
}

int qn_gf2__fact_init(qn_gf2fact *f, const qn_gf2mat *a, const qn_gf2_tune *t)
{
    int m = a->nrows, n = a->ncols, wa = qn_gf2_words(n);
    int wm = qn_gf2_words(m), r, i;
    qn_gf2mat aug;

    *f = (qn_gf2fact){0};
    if (qn_gf2mat_init(&aug, m, 64 * wa + m) != QN_OK)
        return QN_ENOMEM;
    for (i = 0; i < m; i++) {
        uint64_t *row = qn_gf2mat_row(&aug, i);

        memcpy(row, crow(a, i), (size_t)wa * sizeof(uint64_t));
        row[wa + i / 64] |= (uint64_t)1 << (i % 64);
    }
    f->pivots = QN_ALLOCN((size_t)(m < n ? m : n) + 1, int);
    if (!t)
        t = &by_size;
    if (!f->pivots ||
        (r = qn_gf2__echelon(&aug, f->pivots, wa, 1, t->simd)) < 0)
        goto fail;
    f->nrows = m;
    f->ncols = n;
    f->rank = r;

    if (qn_gf2mat_init(&f->t, r, m) != QN_OK ||
        qn_gf2mat_init(&f->lkernel, m - r, m) != QN_OK ||
        qn_gf2mat_init(&f->kernel, n - r, n) != QN_OK)
        goto fail;
    for (i = 0; i < m; i++) {
        qn_gf2mat *dst = i < r ? &f->t : &f->lkernel;

        memcpy(qn_gf2mat_row(dst, i < r ? i : i - r),
               qn_gf2mat_row(&aug, i) + wa, (size_t)wm * sizeof(uint64_t));
    }
    if (kernel_from_rref(&f->kernel, &aug, f->pivots, r) != QN_OK)
        goto fail;
    qn_gf2mat_release(&aug);
    if (build_tables(f, t->tbits) != QN_OK) {
        qn_gf2fact_release(f);
        return QN_ENOMEM;
    }
    return QN_OK;
fail:
    qn_gf2mat_release(&aug);
    qn_gf2fact_release(f);
    return QN_ENOMEM;
}

void qn_gf2fact_release(qn_gf2fact *f)
{
    free(f->pivots);
    qn_gf2mat_release(&f->t);
    qn_gf2mat_release(&f->lkernel);
    qn_gf2mat_release(&f->kernel);
    qn_gf2mat_release(&f->tab);
    f->pivots = NULL;
    f->nrows = f->ncols = f->rank = f->tbits = 0;
}

/* acc[0..cn) = words c0.. of the [syndrome | x] pair of s. */
static void accumulate(uint64_t *acc, const qn_gf2fact *f, const uint64_t *s,
                       int c0, int cn)
{
    int tb = f->tbits, ng = (f->nrows + tb - 1) / tb, g, k = 0;
    uint64_t gmask = ((uint64_t)1 << tb) - 1;
    const uint64_t *src[8];

    if (cn <= 2) {
        /* Small systems (the common 5x5..8x8 boards): two registers and
         * no branches; row 0 of each group is the zero entry. */
        uint64_t a0 = 0, a1 = 0;

        for (g = 0; g < ng; g++) {
            int bit = g * tb;
            unsigned v = (unsigned)(s[bit / 64] >> (bit % 64) & gmask);
            const uint64_t *row = crow(&f->tab, (g << tb) | (int)v) + c0;

            a0 ^= row[0];
            a1 ^= row[cn - 1];
        }
        acc[0] = a0;
        acc[cn - 1] = cn == 2 ? a1 : a0;
        return;
    }
    memset(acc, 0, (size_t)cn * sizeof(uint64_t));
    for (g = 0; g < ng; g++) {
        int bit = g * tb; /* tb divides 64: groups never straddle words */
        unsigned v = (unsigned)(s[bit / 64] >> (bit % 64) & gmask);

        if (!v)
            continue;
        src[k++] = crow(&f->tab, (g << tb) | (int)v) + c0;
        if (k == 8) {
            qn_gf2__xor_rows(acc, src, k, (size_t)cn);
            k = 0;
        }
    }
    if (k)
        qn_gf2__xor_rows(acc, src, k, (size_t)cn);
}

int qn_gf2fact_is_solvable(const qn_gf2fact *f, const uint64_t *s)
{
    int ws = syn_words(f), c0, k;
    uint64_t acc[CHUNK];

    for (c0 = 0; c0 < ws; c0 += CHUNK) {
        int cn = ws - c0 < CHUNK ? ws - c0 : CHUNK;
        uint64_t any = 0;

        accumulate(acc, f, s, c0, cn);
        for (k = 0; k < cn; k++)
            any |= acc[k];
        if (any)
            return 0;
    }
    return 1;
}

int qn_gf2fact_solve(const qn_gf2fact *f, uint64_t *x, const uint64_t *s)
{
    int ws = syn_words(f), wt = ws + qn_gf2_words(f->ncols), c0, k;
    uint64_t acc[CHUNK];

    /* The syndrome words come first, so x is written only after every one
     * of them was checked: x stays untouched when s is not solvable. */
    for (c0 = 0; c0 < wt; c0 += CHUNK) {
        int cn = wt - c0 < CHUNK ? wt - c0 : CHUNK;

        accumulate(acc, f, s, c0, cn);
        for (k = 0; k < cn; k++) {
            if (c0 + k < ws) {
                if (acc[k])
                    return QN_EUNSOLVABLE;
            } else {
                x[c0 + k - ws] = acc[k];
            }
        }
    }
    return QN_OK;
}
