/*
 * plus_gfp.h: Sutner's polynomial method for plus-shaped stencils over GF(p),
 * p prime (2..251; p = 2 is accepted for cross-checks, the bit-packed GF(2)
 * path lives elsewhere).
 *
 * A stencil is a list of offsets {dx, dy, amount}: pressing (x, y) adds
 * amount (mod p) to (x + dx, y + dy) when that cell is on the w x h board
 * (no wrap); cells are row-major (index y * w + x) and the board's system
 * is A x + s = 0 (mod p). After merging repeated offsets and dropping zero
 * amounts (mod p) the stencil is "plus-shaped" if its offsets are among
 * (0, 0) amount alpha, (1, 0) and (-1, 0) with the same amount beta,
 * (0, -1) amount b != 0 and (0, 1) amount c. beta must be non-zero unless
 * the chase width is 1 (then the horizontal offsets never act).
 *
 * Orientation. The chase width is the shorter side: when h < w the board is
 * transposed internally ((dx, dy) -> (dy, dx)), and the shape is checked in
 * that orientation; if the stencil is plus-shaped only in the other one,
 * that one is used. Inputs and outputs are always in the caller's order.
 *
 * The method (chase orientation, width w, height h). Row r of the state
 * gives b x_{r+1} + T x_r + c x_{r-1} + s_r = 0 with T = alpha I + beta S
 * (S the path adjacency). Chasing from x_0 = y fixes every row; the formal
 * row x_h must vanish, which is P_h(T) y + z = 0 (z: the chase of y = 0).
 * T is cyclic with cyclic vector e_0 and minimal polynomial Q_w, so vectors
 * are polynomials mod Q_w and the condition is a f_y = f_{-z} (mod Q_w),
 * a = P_h mod Q_w. With g = gcd(a, Q_w) it is solvable iff g | f_{-z}, and
 * the kernel is {m Q_w/g : deg m < deg g}: dimension deg g. Costs:
 * qn_plus_gfp_new is O(h w + w^2) field operations (P_h by its recurrence, one
 * extended Euclid), a solve O(h w + w^2) (two chases, a few O(w^2)
 * polynomial steps), a kernel generator O(h w + w^2). Memory: the object is
 * O(w); a call allocates O(w) scratch plus, when transposed, one board.
 */
#ifndef QN_PLUS_GFP_H
#define QN_PLUS_GFP_H

#include <stddef.h>
#include <stdint.h>

#include "base/err.h"

typedef struct qn_plus_gfp qn_plus_gfp; /* immutable after qn_plus_gfp_new */

#define QN_PLUS_GFP_MAX_CELLS (1 << 28) /* w * h */
#define QN_PLUS_GFP_MAX_WIDTH 65536     /* the chase width (uint32 sums) */

/*
 * Prepare the plus-shaped stencil offsets[0..noffsets) (each {dx, dy,
 * amount}; amounts are taken mod p, repeated offsets add up, zero amounts
 * are dropped) on a w x h board over GF(p). Nothing is borrowed. *out is the
 * caller's (free with qn_plus_gfp_free); NULL on failure. Errors: QN_EINVAL
 * (p not a prime in 2..251, w or h < 1, or the stencil not plus-shaped in
 * either orientation: the message names the offending offset, in the
 * caller's coordinates), QN_ELIMIT (w * h over QN_PLUS_GFP_MAX_CELLS or the
 * chase width over QN_PLUS_GFP_MAX_WIDTH), QN_ENOMEM.
 */
int qn_plus_gfp_new(qn_plus_gfp **out, int w, int h, unsigned p,
                    const int (*offsets)[3], size_t noffsets, qn_err *err);
void qn_plus_gfp_free(qn_plus_gfp *c); /* NULL-safe */

int qn_plus_gfp_width(const qn_plus_gfp *c);      /* the chase width (a side) */
int qn_plus_gfp_transposed(const qn_plus_gfp *c); /* 1 if chased along x */

/*
 * Write one solution of A x + s = 0 to x_out (w * h entries, row-major; s
 * likewise, entries < p; the two must not overlap) and return QN_OK, or
 * QN_EUNSOLVABLE (or QN_ENOMEM) with x_out untouched. The solution is the one
 * whose first chase row y has f_y of degree < deg(Q_w / g) (kernel part 0). The
 * result is replayed against the stencil before returning (an assert). Const
 * and thread-safe: every call has its own scratch.
 */
int qn_plus_gfp_solve(const qn_plus_gfp *c, uint8_t *x_out, const uint8_t *s,
                      qn_err *err);

/* deg g: the kernel (quiet press patterns) has p^dim elements. */
size_t qn_plus_gfp_kernel_dim(const qn_plus_gfp *c);

/*
 * Kernel generator i < qn_plus_gfp_kernel_dim(c) as a full press pattern
 * (w * h entries, caller's order) in x_out. The generators are independent
 * over GF(p) and span the kernel. Allocates its scratch (one board more
 * when transposed): QN_OK, or QN_ENOMEM with x_out untouched.
 */
int qn_plus_gfp_kernel_gen(const qn_plus_gfp *c, size_t i, uint8_t *x_out);

#endif
