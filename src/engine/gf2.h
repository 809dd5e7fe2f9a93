/*
 * gf2.h: dense matrices over GF(2), bit-packed 64 columns per word.
 *
 * The k = 2 fast path of the engine: elimination (rank, reduced echelon
 * form), kernel and left-kernel bases, and a factorisation for solving many
 * right-hand sides against one matrix. The word layout is public so that
 * callers (the minimal-press walk) can XOR and popcount rows directly.
 */
#ifndef QN_GF2_H
#define QN_GF2_H

#include <stddef.h>
#include <stdint.h>

/*
 * Bit c of row r is (w[r * stride + c / 64] >> (c % 64)) & 1.
 * Invariants: stride >= (ncols + 63) / 64; bits at columns >= ncols are zero;
 * w is 64-byte aligned. A matrix owns w; release with qn_gf2mat_release().
 * Dimensions are 0..(1 << 24); a 0 x n or n x 0 matrix is valid.
 */
typedef struct qn_gf2mat {
    int nrows, ncols;
    int stride;  /* words per row */
    uint64_t *w; /* nrows * stride words */
} qn_gf2mat;

/* Number of words a vector of n bits takes (what rows and vectors use). */
static inline int qn_gf2_words(int n)
{
    return (n + 63) / 64;
}

static inline int qn_gf2mat_get(const qn_gf2mat *m, int r, int c)
{
    return (int)((m->w[(size_t)r * m->stride + c / 64] >> (c % 64)) & 1);
}

static inline void qn_gf2mat_set(qn_gf2mat *m, int r, int c, int v)
{
    uint64_t *p = &m->w[(size_t)r * m->stride + c / 64];
    uint64_t bit = (uint64_t)1 << (c % 64);
    *p = v ? (*p | bit) : (*p & ~bit);
}

static inline uint64_t *qn_gf2mat_row(qn_gf2mat *m, int r)
{
    return m->w + (size_t)r * m->stride;
}

/*
 * Out of memory: the functions below that allocate return QN_ENOMEM (a
 * negative int, no message: their callers fill their qn_err) and leave
 * their outputs released (0 x 0) and their inputs unchanged.
 */

/* Allocate a zero nrows x ncols matrix into caller storage: QN_OK, or
 * QN_ENOMEM with m 0 x 0. */
int qn_gf2mat_init(qn_gf2mat *m, int nrows, int ncols);
/* Free the words; m becomes 0 x 0. Safe on a zeroed struct. */
void qn_gf2mat_release(qn_gf2mat *m);
/* dst = src; dst must be initialised with the same shape. */
void qn_gf2mat_copy(qn_gf2mat *dst, const qn_gf2mat *src);
/* dst = src^T; dst must be initialised as src->ncols x src->nrows. */
void qn_gf2mat_transpose(qn_gf2mat *dst, const qn_gf2mat *src);
/* y = A x; x has qn_gf2_words(ncols) words, y qn_gf2_words(nrows). */
void qn_gf2mat_mul_vec(uint64_t *y, const qn_gf2mat *a, const uint64_t *x);

/*
 * Reduce m in place to reduced row echelon form; return the rank r
 * (QN_ENOMEM: m unchanged). If
 * pivots is not NULL it receives the r pivot columns in increasing order
 * (caller provides room for min(nrows, ncols) ints).
 */
int qn_gf2mat_rref(qn_gf2mat *m, int *pivots);

/* Rank of a (a is not changed), or QN_ENOMEM. */
int qn_gf2mat_rank(const qn_gf2mat *a);

/*
 * Initialise out as a (ncols - rank) x ncols matrix whose rows are a basis
 * of the kernel {x : A x = 0}. The caller releases out. QN_OK or
 * QN_ENOMEM.
 */
int qn_gf2mat_kernel(qn_gf2mat *out, const qn_gf2mat *a);

/*
 * Initialise out as a (nrows - rank) x nrows matrix whose rows are a basis
 * of the left kernel {y : y^T A = 0}. s is in the column space of A iff
 * y . s = 0 for every row y (valid whether or not A is symmetric).
 * QN_OK or QN_ENOMEM.
 */
int qn_gf2mat_left_kernel(qn_gf2mat *out, const qn_gf2mat *a);

/*
 * A factorisation of A for solving A x = s for many s. Built once from the
 * reduced echelon form of [A | I]. All members are owned by the struct.
 */
typedef struct qn_gf2fact {
    int nrows, ncols, rank;
    int *pivots;       /* rank pivot columns, increasing */
    qn_gf2mat t;       /* rank x nrows: x[pivots[i]] = row i . s */
    qn_gf2mat lkernel; /* (nrows - rank) x nrows: left-kernel basis */
    qn_gf2mat kernel;  /* (ncols - rank) x ncols: kernel basis */
    /* Private to gf2.c (the solve tables; may change without notice): */
    int tbits;     /* bits of s per table group: 1, 2 or 4 */
    qn_gf2mat tab; /* (groups << tbits) rows of [syndrome | solution] */
} qn_gf2fact;

/*
 * Factorise a into f (caller storage); release with qn_gf2fact_release.
 * Cost: one Four-Russians elimination of the m x (n + m) matrix [A | I]
 * plus the solve tables, about 4 * m * (n + m - rank) / 64 words of
 * memory (557 KB for a 1024-cell board; narrower past 16 MB). Measured:
 * 25 cells ~10 us, 1024 cells ~3 ms. QN_OK, or QN_ENOMEM with f zeroed
 * (nothing to release; releasing it is harmless).
 */
int qn_gf2fact_init(qn_gf2fact *f, const qn_gf2mat *a);
void qn_gf2fact_release(qn_gf2fact *f);

/*
 * 1 if s (qn_gf2_words(nrows) words) is in the column space of A, else 0.
 * This and qn_gf2fact_solve only read f and never allocate, so any number
 * of threads may share one factorisation. Bits of s at rows >= nrows are
 * ignored. Cost: about nrows / 4 row XORs of the table width.
 */
int qn_gf2fact_is_solvable(const qn_gf2fact *f, const uint64_t *s);

/*
 * Solve A x = s. On success write one solution (free variables zero) to x
 * (qn_gf2_words(ncols) words) and return QN_OK (0); return QN_EUNSOLVABLE
 * (-6) and leave x untouched when s is not in the column space.
 */
int qn_gf2fact_solve(const qn_gf2fact *f, uint64_t *x, const uint64_t *s);

#endif
