/*
 * chase.h: "light chasing" for grid rules given by a stencil.
 *
 * A stencil is a list of offsets (dx, dy, amount): pressing cell (x, y) of
 * a w x h grid (no wrap, no holes) adds `amount` (mod k) to cell
 * (x + dx, y + dy) when that cell is on the board. The board's system is
 * A x + s = 0 over Z/k, cells row-major (index y * w + x).
 *
 * The chase. Let dymin < 0 be the least dy among the offsets with a
 * non-zero amount, D = -dymin, and B the w x w map from the presses of row
 * r + D to their effect on row r: B[i][j] = the amount of the offset
 * (i - j, dymin) (0 if absent), a banded matrix. Row r of the state is
 * touched by the presses of rows r - dymax .. r + D, and row r + D only
 * through B. So when B is invertible over Z/k, the presses of the first D
 * rows (the W = D * w unknowns y) determine every later row: row r + D =
 * -B^-1 (s_r + the effect on row r of the rows before r + D). What is left
 * unchecked is the last D rows of the state: a W x W system M y + c = 0
 * ("the reduced system"), solved with qn_system. The map y -> press vector
 * is affine and injective, and it maps the solutions y of the reduced system
 * one-to-one onto the solutions of the board (and ker M isomorphically onto
 * ker A, orders included). For plus and sigma B = I; for Moore with unit
 * amounts B is the tridiagonal all-ones matrix, whose determinant is
 * 1, 1, 0, -1, -1, 0, ... for w = 1, 2, 3, ...: invertible over every Z/k
 * exactly when w mod 3 != 2.
 *
 * Orientation. The chase width should be the shorter side: when h < w the
 * problem is transposed (offsets (dx, dy) -> (dy, dx), cells swapped), and
 * every input and output is still in the caller's row-major order. If the
 * preferred orientation is not chaseable the other one is tried.
 *
 * Costs (keep it simple first; the bit-packed fast path comes later):
 * qn_chase_new chases W unit vectors (O(W * cells * (|stencil| + nnz(B^-1)
 * / w))) and factorises M densely; memory is O(w^2 + W^2 + cells) (one
 * scratch board, never O(h * W^2) affine forms). A solve is two chases plus
 * a reduced solve. Minimal presses walk the whole coset: the reduced kernel
 * generators are chased once into full quiet patterns, then an odometer
 * adds them, about 2 |kernel| x cells operations, refused above
 * QN_CHASE_MAX_KERNEL elements.
 */
#ifndef QN_CHASE_H
#define QN_CHASE_H

#include <stddef.h>
#include <stdint.h>

#include "quench/err.h"
#include "quench/system.h"

typedef struct qn_chase qn_chase; /* immutable after qn_chase_new */

#define QN_CHASE_MAX_RADIUS 4           /* |dx|, |dy| of every offset */
#define QN_CHASE_MAX_WIDTH 4096         /* W = D * (chase width) unknowns */
#define QN_CHASE_MAX_CELLS (1 << 28)    /* w * h */
#define QN_CHASE_MAX_KERNEL ((uint64_t)1 << 20) /* exact min-press walk */

/*
 * Prepare the chase of the stencil offsets[0..noffsets) (each {dx, dy,
 * amount}; amounts are taken mod k, repeated offsets add up) on a w x h
 * board over Z/k. The stencil is copied. *out is the caller's (free with
 * qn_chase_free); NULL on failure. Errors: QN_EINVAL (k outside 2..255,
 * w or h < 1, an offset beyond QN_CHASE_MAX_RADIUS, or not chaseable in
 * either orientation: "row map not invertible mod k"), QN_ELIMIT (w * h
 * over QN_CHASE_MAX_CELLS or W over QN_CHASE_MAX_WIDTH).
 */
int qn_chase_new(qn_chase **out, int w, int h, unsigned k,
                 const int (*offsets)[3], size_t noffsets, qn_err *err);
void qn_chase_free(qn_chase *c); /* NULL-safe */

int qn_chase_width(const qn_chase *c);      /* the chase width (a side) */
int qn_chase_transposed(const qn_chase *c); /* 1 if chased along x */
int qn_chase_nunknowns(const qn_chase *c);  /* W, the reduced system size */
/* The reduced system M (W x W), borrowed from c. */
const qn_system *qn_chase_reduced(const qn_chase *c);

/*
 * The board's kernel, as the reduced kernel mapped through the chase:
 * generators of orders o_0 | o_1 | ... (as in system.h). qn_chase_kernel_gen
 * writes generator i as a full press pattern (w * h entries) to x_out.
 * qn_chase_kernel_size_u64 returns QN_ELIMIT (*out untouched) if >= 2^64.
 */
size_t qn_chase_kernel_ngens(const qn_chase *c);
unsigned qn_chase_kernel_order(const qn_chase *c, size_t i);
void qn_chase_kernel_gen(const qn_chase *c, size_t i, uint8_t *x_out);
int qn_chase_kernel_size_u64(const qn_chase *c, uint64_t *out);
double qn_chase_kernel_log2(const qn_chase *c);

/*
 * Write one solution of A x + s = 0 to x_out (w * h entries, row-major; s
 * likewise, entries < k) and return QN_OK, or QN_EUNSOLVABLE with x_out
 * untouched.
 */
int qn_chase_solve(const qn_chase *c, uint8_t *x_out, const uint8_t *s,
                   qn_err *err);

/*
 * The exact minimal presses for s: x_out gets the lexicographically
 * smallest optimal solution (as minpress.h defines it: least sum of x_i,
 * x_i in 0..k-1, ties to the smallest x in row-major order), *presses its
 * cost, *noptimal how many solutions attain it, *nsolutions the number of
 * solutions (the kernel size). Returns QN_OK; QN_EUNSOLVABLE (outputs
 * untouched); or QN_ELIMIT when the kernel has more than
 * QN_CHASE_MAX_KERNEL elements: then x_out is one solution (not proven
 * minimal), *presses its cost, *noptimal = 0 and *nsolutions the kernel
 * size (UINT64_MAX if >= 2^64). Cost: about 2 |kernel| x w x h steps.
 */
int qn_chase_min_presses(const qn_chase *c, uint8_t *x_out, uint64_t *presses,
                         uint64_t *noptimal, uint64_t *nsolutions,
                         const uint8_t *s, qn_err *err);

#endif
