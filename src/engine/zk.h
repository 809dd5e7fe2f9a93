/*
 * zk.h: dense matrices over the ring Z/k, 2 <= k <= 255.
 *
 * Composite k is a ring, not a field, so nothing here runs field
 * elimination on a composite modulus: k is split into prime powers p^e,
 * each part is brought to Smith form over the local ring Z/p^e (pivots of
 * least p-adic valuation, row and column transforms kept), and the parts
 * are joined with the Chinese remainder theorem.
 */
#ifndef QN_ZK_H
#define QN_ZK_H

#include <stddef.h>
#include <stdint.h>

#include "base/err.h"

/*
 * Entry (r, c) is e[r * ncols + c], always in 0..k-1. Owns e; release with
 * qn_zmat_release(). Dimensions 0..(1 << 24).
 */
typedef struct qn_zmat {
    int nrows, ncols;
    unsigned k; /* modulus, 2..255 */
    uint8_t *e; /* nrows * ncols entries, row-major */
} qn_zmat;

/* A zero matrix: QN_OK, or QN_ENOMEM with m 0 x 0 (releasable). */
int qn_zmat_init(qn_zmat *m, int nrows, int ncols, unsigned k);
void qn_zmat_release(qn_zmat *m);
static inline unsigned qn_zmat_get(const qn_zmat *m, int r, int c)
{
    return m->e[(size_t)r * m->ncols + c];
}
static inline void qn_zmat_set(qn_zmat *m, int r, int c, unsigned v)
{
    m->e[(size_t)r * m->ncols + c] = (uint8_t)(v % m->k);
}
/* y = A x mod k; x has ncols entries, y nrows. */
void qn_zmat_mul_vec(uint8_t *y, const qn_zmat *a, const uint8_t *x);

/*
 * The factorisation of A over Z/k. Opaque; build with qn_zfact_new, free
 * with qn_zfact_free. Everything it returns is borrowed from it.
 *
 * The kernel {x : A x = 0} is a finite abelian group, not necessarily free
 * (4x4 plus mod 8 is (Z/8)^2 x (Z/2)^2). It is described by generators
 * g_0..g_{t-1} with orders o_0 | o_1 | ... | o_{t-1} (invariant-factor
 * form, each o_i > 1): every kernel element is sum c_i g_i for exactly one
 * choice of 0 <= c_i < o_i.
 */
typedef struct qn_zfact qn_zfact;

/*
 * Factorise a (not changed; k = a->k). *out is NULL on failure. Errors:
 * QN_EINVAL when k is outside 2..255. Any shape works, 0 rows or 0 columns
 * included. Build it once per matrix (rule set and board size) and share
 * it: after this call the factorisation is read-only, so any number of
 * threads may call the functions below on it at once.
 *
 * Cost, with m = nrows, n = ncols, r = rank, done once per prime power of
 * k (at most 4): elimination takes at most about m n min(m, n) byte
 * operations (n^3 / 3 for a square dense matrix), 64 or 32 bytes at a
 * time with AVX-512BW or AVX2 when the CPU has them. It tracks where rows
 * and columns are nonzero, so a banded matrix (a grid board, band about
 * the board width w) costs about cells x w^2 instead. Kernel generators
 * and cokernel conditions add about (G + C) r^2 / 2 (G generators, C
 * conditions; vectorised across them when there are 4 or more). Measured
 * on a 2-core Xeon: 1000 x 1000 dense mod 7 or mod 8 about 0.02 s, a
 * 1000-cell (40 x 25) plus board about 0.001 s, 25 cells a few
 * microseconds. Memory per prime power: m (n + 32..63) bytes for the
 * factors (dense even for sparse input), plus G n bytes of generators and
 * C m bytes of conditions. Out of memory: QN_ENOMEM, *out NULL.
 */
int qn_zfact_new(qn_zfact **out, const qn_zmat *a, qn_err *err);
void qn_zfact_free(qn_zfact *f); /* NULL-safe */

int qn_zfact_nrows(const qn_zfact *f);
int qn_zfact_ncols(const qn_zfact *f);
unsigned qn_zfact_modulus(const qn_zfact *f);

/*
 * Solve A x = s (mod k); s has nrows entries, each read mod k. On success
 * write one solution to x (ncols entries, each 0..k-1) and return QN_OK;
 * return QN_EUNSOLVABLE and leave x untouched otherwise. Every solution is
 * x plus a kernel element. Cost per prime power of k: a forward and a
 * back substitution, at most m r + r^2 / 2 multiply-adds and far fewer
 * on banded matrices (zeros outside each row's band are skipped); no
 * allocation unless nrows + 3 ncols > 4096 (then QN_ENOMEM, x untouched,
 * when that allocation fails). Measured: about 0.5 us for a
 * 25-cell board (k prime or a prime power; twice that for k = 6) and
 * about 45 us for a 1000-cell (40 x 25) plus board mod 8.
 */
int qn_zfact_solve(const qn_zfact *f, uint8_t *x, const uint8_t *s);

/* Whether A x = s has a solution (1) or not (0), or QN_ENOMEM (as
 * qn_zfact_solve); cheaper than solving. */
int qn_zfact_is_solvable(const qn_zfact *f, const uint8_t *s);

/*
 * Kernel generators in invariant-factor form (see above): ngens vectors of
 * ncols entries, orders ascending, each dividing the next. The kernel has
 * prod o_i elements; only for prime k is every o_i = k, with ngens the
 * nullity. The vectors are borrowed from f. Indices must be < ngens.
 */
size_t qn_zfact_kernel_ngens(const qn_zfact *f);
const uint8_t *qn_zfact_kernel_gen(const qn_zfact *f, size_t i);
unsigned qn_zfact_kernel_order(const qn_zfact *f, size_t i);

/*
 * Invariant factors of A: the min(nrows, ncols) diagonal entries of its
 * Smith form over Z/k, each a divisor of k, in divisibility order
 * d_0 | d_1 | ... (units first). An entry equal to k stands for a zero
 * diagonal entry.
 */
size_t qn_zfact_ninvariants(const qn_zfact *f);
const unsigned *qn_zfact_invariants(const qn_zfact *f);

/*
 * The image (column space) as a group: |image| = k^nrows / |cokernel|, and
 * the cokernel Z_k^nrows / image is sum of cyclic groups of the given
 * orders (invariant-factor form, each > 1). |kernel| * |image| = k^ncols.
 */
size_t qn_zfact_cokernel_ngens(const qn_zfact *f);
const unsigned *qn_zfact_cokernel_orders(const qn_zfact *f);

/*
 * Solvability conditions: s is in the image iff for every condition j,
 * sum_i c_j[i] * s[i] == 0 (mod d_j). There are cokernel_ngens conditions
 * and d_j = cokernel order j; c_j has nrows entries in 0..d_j-1. The map
 * s -> (c_j . s mod d_j)_j is the quotient map onto the cokernel (an
 * isomorphism Z_k^nrows / image -> prod Z/d_j), which the minimal-repair
 * search uses.
 */
const uint8_t *qn_zfact_condition(const qn_zfact *f, size_t j);

/*
 * The quotient map itself: out[j] = (c_j . s) mod d_j for every condition
 * j (cokernel_ngens entries), the coordinates of s's coset. s is solvable
 * iff all are zero, and s, s' differ by an image element iff their
 * coordinates agree. Cost: cokernel_ngens x nrows multiply-adds.
 */
void qn_zfact_quotient(const qn_zfact *f, unsigned *out, const uint8_t *s);

#endif
