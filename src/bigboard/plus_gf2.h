/*
 * plus_gf2.h: the plus family over GF(2) on boards of up to 2^30 cells, by
 * light chasing and the polynomial method (Sutner), on bit boards.
 *
 * The family: stencils whose offsets (amounts taken mod 2) are among
 * (0,0), (1,0), (-1,0), (0,-1), (0,1), with both (1,0) and (-1,0) and
 * (0,-1) present: classic Lights Out (all five), the sigma game (no
 * (0,0)), and the variants without (0,1). No wrap, no holes. In the
 * transposed orientation the same shape with x and y swapped.
 *
 * The method, with the chase width W the shorter side (the board is
 * transposed internally when h < w) and H the other: row r's equation is
 * x_{r+1} + T x_r + c x_{r-1} + s_r = 0 with T = alpha I + S (S the path
 * adjacency), so the chase from a first row y gives x_r = P_r(T) y + (the
 * state's part), P_{r+1} = x P_r + c P_{r-1}, and leaves the residual
 * P_H(T) y + c0 on the (virtual) row H. T is cyclic with cyclic vector
 * e_0: e_j = Q_j(T) e_0 with Q_{j+1} = (x + alpha) Q_j + Q_{j-1}, and its
 * minimal polynomial is Q_W. So vectors are polynomials mod Q_W, and the
 * W x W first-row system is one congruence a f_y = f_c0 (mod Q_W) with
 * a = P_H mod Q_W: with g = gcd(a, Q_W) it is solvable iff g | f_c0, then
 * f_y = (f_c0 / g) (a / g)^-1 mod (Q_W / g), and the kernel is the
 * multiples of Q_W / g: dimension deg g (the board's nullity).
 *
 * Costs: qn_plus_gf2_new is O(W (H + W) / 64) word operations (a by its
 * recurrence, Q_W, one extended gcd); a solve is two chases, O(H W / 64),
 * plus O(W^2 / 64) for the conversions. Memory: the caller's boards, plus
 * two boards of scratch when transposed, plus O(W) words.
 */
#ifndef QN_PLUS_GF2_H
#define QN_PLUS_GF2_H

#include <stddef.h>
#include <stdint.h>

#include "base/err.h"
#include "bigboard/bitboard.h"

typedef struct qn_plus_gf2 qn_plus_gf2; /* immutable after qn_plus_gf2_new */

#define QN_PLUS_GF2_MAX_SIDE 65536
#define QN_PLUS_GF2_MAX_CELLS (1LL << 30) /* 128 MiB a bit board */
/* Exact minimal presses up to kernels of 2^24 elements: one int32 per
 * element (64 MiB) for the Walsh-Hadamard transform. */
#define QN_PLUS_GF2_EXACT_DIM 24

/*
 * Prepare the w x h board for the stencil offsets[0..n) ({dx, dy, amount},
 * repeated offsets add up, amounts mod 2). *out is the caller's
 * (qn_plus_gf2_free); NULL on failure. Errors: QN_EINVAL (w or h < 1, the
 * stencil is not of the plus family in either orientation; the message
 * says why), QN_ELIMIT (a side over QN_PLUS_GF2_MAX_SIDE or w * h over
 * QN_PLUS_GF2_MAX_CELLS), QN_ENOMEM.
 */
int qn_plus_gf2_new(qn_plus_gf2 **out, int w, int h, const int (*offsets)[3],
                    size_t n, qn_err *err);
void qn_plus_gf2_free(qn_plus_gf2 *p); /* NULL-safe */

int qn_plus_gf2_width(const qn_plus_gf2 *p);      /* W, the chase width */
int qn_plus_gf2_transposed(const qn_plus_gf2 *p); /* 1 when chased along x */
/* The board's nullity d: it has 2^d solutions when it has any. */
unsigned qn_plus_gf2_kernel_dim(const qn_plus_gf2 *p);

/*
 * One solution x of A x + s = 0 (x_out and s are w x h bit boards, not
 * aliased): the one whose first-row polynomial is reduced mod Q_W / g.
 * Returns QN_OK, QN_EUNSOLVABLE or QN_ENOMEM (x_out then unspecified).
 * Thread-safe.
 */
int qn_plus_gf2_solve(const qn_plus_gf2 *p, qn_bitboard *x_out,
                      const qn_bitboard *s, qn_err *err);

/* Kernel generator i < d as a quiet press pattern (w x h): QN_OK, or
 * QN_ENOMEM (out unspecified). */
int qn_plus_gf2_kernel_gen(const qn_plus_gf2 *p, unsigned i, qn_bitboard *out);

typedef struct qn_plus_gf2_min {
    int exact;            /* 1: presses is the minimum over all solutions */
    uint64_t presses;     /* presses of the plan written to x_out */
    uint64_t lower_bound; /* no solution has fewer; == presses if exact */
    uint64_t noptimal;    /* solutions with the minimum (exact), else 0 */
    unsigned kernel_dim;  /* 2^kernel_dim solutions */
} qn_plus_gf2_min;

/*
 * The least presses for s. With d <= QN_PLUS_GF2_EXACT_DIM the minimum is
 * exact: every cell's value over the whole coset is x0 + <a, p_cell> for
 * its d-bit kernel pattern p_cell, so the press totals of all 2^d
 * solutions are one Walsh-Hadamard transform of the pattern histogram
 * (O(cells d / 64 + d 2^d)); ties go to the optimum whose combination a
 * of the generators (bit i for qn_plus_gf2_kernel_gen i) is least. Beyond
 * that, exact = 0: x_out is the solution improved greedily by the
 * generators (one pass, while the work stays under `budget` word
 * operations; 0 means 2^28) and lower_bound the presses on the cells no
 * generator touches when every generator was examined, else 0. Returns
 * QN_OK, QN_EUNSOLVABLE or QN_ENOMEM (x_out then unspecified, *res zero
 * but for kernel_dim).
 */
int qn_plus_gf2_min_presses(const qn_plus_gf2 *p, qn_bitboard *x_out,
                            qn_plus_gf2_min *res, const qn_bitboard *s,
                            uint64_t budget, qn_err *err);

#endif
