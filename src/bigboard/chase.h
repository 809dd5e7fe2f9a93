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
 * (i - j, dymin), a banded Toeplitz matrix. Row r of the state is touched
 * by the presses of rows r - dymax .. r + D, and row r + D only through B.
 * B need not be invertible: only an end of its band must be a unit. Let e
 * be the least dx of the top row (dy = dymin) and its amount a unit mod k.
 * Then the equation of cell i = j + e of row r determines the press at
 * column j of row r + D from the presses left of it (the other top-row
 * offsets have larger dx) and the rows above, so row r + D is chased left
 * to right. Its |e| presses whose cell j + e is off the board are new
 * unknowns ("edge unknowns"), and the |e| cells of row r that determine no
 * press are left unchecked ("constraints"). If only the greatest dx is a
 * unit the board is mirrored (chased right to left); if both are, the end
 * with the smaller |dx| wins. The unknowns are the presses of the first D
 * rows plus the edge unknowns: U = D w + (h - D) |e| (fewer if h <= D or
 * |e| > w), as many as the constraints (the last D rows plus the edge
 * constraints). The reduced system M y + c = 0 (U x U, not invertible in
 * general), solved with qn_system (Smith form over Z/k, never a field
 * elimination for composite k), has exactly the board's solutions: every
 * unknown is itself a press, so y -> x is affine and injective, and it maps
 * the solutions of the reduced system one-to-one onto those of the board
 * (ker M isomorphically onto ker A, orders included). Plus and sigma have
 * B = I (e = 0, U = w); Moore with unit amounts has e = -1 (U = w + h - 1)
 * at every width, including w = 2 mod 3 where B is singular.
 *
 * Not chaseable (QN_EINVAL): the stencil reaches no row above the pressed
 * cell, or its top row has no unit amount at either end (for example Moore
 * mod 4 with amount 2 in the corners), in both orientations. Such a rule
 * may still have an invertible B (a composite k whose units sit inside the
 * band); use qn_system for it.
 *
 * Orientation. The chase width should be the shorter side: when h < w the
 * problem is transposed (offsets (dx, dy) -> (dy, dx), cells swapped), and
 * every input and output is still in the caller's row-major order. If the
 * preferred orientation is not chaseable or needs too many unknowns the
 * other one is tried.
 *
 * Costs. qn_chase_new builds M by chasing the affine forms of all U
 * unknowns at once, row by row: each cell holds one byte per unknown, in
 * blocks of up to 512 unknowns whose kept rows (D + dymax + 1 of them) fit
 * in about 1 MiB, with delayed reductions mod k, AVX2 where the CPU has it
 * and the blocks spread over the CPUs (up to 8 threads). Time is
 * O(U * w * h * |stencil|) byte operations (a block of unknowns introduced
 * at row p starts its chase there), plus the Smith form of M, O(U^3).
 * Memory: U^2 bytes for M plus about 3 U^2 inside qn_system (so up to
 * about 256 MiB at U = QN_CHASE_MAX_WIDTH = 8192), 1 MiB of rows per
 * thread, and never O(w * h * U). A solve is one chase of the state with
 * y = 0, a reduced solve, and one chase with the unknowns found: O(w * h *
 * |stencil| + U^2), with O(w * h) scratch.
 *
 * Minimal presses. The reduced kernel generators are chased one at a time
 * into full quiet patterns. Small kernels (up to the caller's limit) are
 * walked exactly with an odometer, about 2 |kernel| x cells operations.
 * Larger ones get a greedy descent and a lower bound (qn_chase_min).
 */
#ifndef QN_CHASE_H
#define QN_CHASE_H

#include <stddef.h>
#include <stdint.h>

#include "base/err.h"
#include "engine/system.h"

typedef struct qn_chase qn_chase; /* immutable after qn_chase_new */

#define QN_CHASE_MAX_RADIUS 4 /* |dx|, |dy| of every offset */
/* U, the number of unknowns (= reduced system size); memory about 4 U^2. */
#define QN_CHASE_MAX_WIDTH 8192
#define QN_CHASE_MAX_CELLS (1 << 28)            /* w * h */
#define QN_CHASE_MAX_KERNEL ((uint64_t)1 << 20) /* default exact walk limit */
/* Work of the greedy descent on big kernels, in cell steps (about 2 s):
 * past it the descent stops, and the lower bound is 0 unless its first
 * pass saw every generator. */
#define QN_CHASE_GREEDY_BUDGET ((uint64_t)1 << 31)

/*
 * Prepare the chase of the stencil offsets[0..noffsets) (each {dx, dy,
 * amount}; amounts are taken mod k, repeated offsets add up) on a w x h
 * board over Z/k. The stencil is copied. *out is the caller's (free with
 * qn_chase_free); NULL on failure. Errors: QN_EINVAL (k outside 2..255,
 * w or h < 1, an offset beyond QN_CHASE_MAX_RADIUS, or not chaseable in
 * either orientation: the message starts "stencil not chaseable"),
 * QN_ELIMIT (w * h over QN_CHASE_MAX_CELLS, or more than
 * QN_CHASE_MAX_WIDTH unknowns in both orientations), QN_ENOMEM (also when
 * one of its threads ran out: all stop). When both
 * orientations fail, err describes the preferred one. Thread-safe; it
 * may start threads of its own, all joined before it returns.
 */
int qn_chase_new(qn_chase **out, int w, int h, unsigned k,
                 const int (*offsets)[3], size_t noffsets, qn_err *err);
void qn_chase_free(qn_chase *c); /* NULL-safe */

int qn_chase_width(const qn_chase *c);      /* the chase width (a side) */
int qn_chase_transposed(const qn_chase *c); /* 1 if chased along x */
int qn_chase_nunknowns(const qn_chase *c);  /* U, the reduced system size */
/* The reduced system M (U x U), borrowed from c: unknowns and constraints
 * in the chase's internal order (see chase_internal.h), for inspection
 * only. */
const qn_system *qn_chase_reduced(const qn_chase *c);

/*
 * The board's kernel, as the reduced kernel mapped through the chase:
 * generators of orders o_0 | o_1 | ... (as in system.h). qn_chase_kernel_gen
 * writes generator i as a full press pattern (w * h entries) to x_out.
 * (one chase, O(w * h * |stencil|)). qn_chase_kernel_size_u64 returns
 * QN_ELIMIT (*out untouched) if >= 2^64. i must be < ngens.
 * qn_chase_kernel_gen returns QN_OK, or QN_ENOMEM with x_out untouched.
 */
size_t qn_chase_kernel_ngens(const qn_chase *c);
unsigned qn_chase_kernel_order(const qn_chase *c, size_t i);
int qn_chase_kernel_gen(const qn_chase *c, size_t i, uint8_t *x_out);
int qn_chase_kernel_size_u64(const qn_chase *c, uint64_t *out);
double qn_chase_kernel_log2(const qn_chase *c);

/*
 * Write one solution of A x + s = 0 to x_out (w * h entries, row-major; s
 * likewise, entries < k) and return QN_OK, or QN_EUNSOLVABLE (or
 * QN_ENOMEM) with x_out untouched.
 */
int qn_chase_solve(const qn_chase *c, uint8_t *x_out, const uint8_t *s,
                   qn_err *err);

/*
 * Minimal presses for s. x_out (w * h entries) gets a solution and *out its
 * figures:
 *   presses    the press total sum(x_i), x_i in 0..k-1, of x_out;
 *   lower      a true lower bound on the least total over all solutions
 *              (== presses when exact);
 *   noptimal   how many solutions attain the least total (0 if not exact);
 *   nsolutions the number of solutions, the kernel size (UINT64_MAX if
 *              >= 2^64);
 *   exact      1 if x_out is proven optimal.
 * Returns QN_OK when the kernel has at most `limit` elements: the coset is
 * walked and x_out is the lexicographically smallest optimal solution (as
 * minpress.h defines it: least total, ties to the smallest x in row-major
 * order), exact = 1; cost about 2 |kernel| x w x h steps. Returns
 * QN_ELIMIT when the kernel is larger, with exact = 0 and both outputs
 * still filled: x_out is the particular solution improved by a greedy
 * descent (add whichever multiple of a kernel generator lowers the total,
 * pass after pass until a pass finds none or QN_CHASE_GREEDY_BUDGET is
 * spent), and lower is the total over the cells that no kernel generator
 * touches (every solution presses them alike; 0 when the budget ran out
 * before every generator was seen), so lower <= minimum <= presses. Each greedy
 * pass costs one chase per generator: O(ngens * w * h * (|stencil| + k)).
 * Returns QN_EUNSOLVABLE (x_out, *out untouched) when s has no solution,
 * QN_ENOMEM (x_out, *out untouched or partly written: not a solution). s
 * is w * h entries < k. Reentrant.
 */
typedef struct qn_chase_min {
    uint64_t presses;
    uint64_t lower;
    uint64_t noptimal;
    uint64_t nsolutions;
    int exact;
} qn_chase_min;

int qn_chase_min_presses_limit(const qn_chase *c, qn_chase_min *out,
                               uint8_t *x_out, const uint8_t *s, uint64_t limit,
                               qn_err *err);

/*
 * The same with limit QN_CHASE_MAX_KERNEL, figures in separate outputs:
 * *presses the cost of x_out, *noptimal (0 when QN_ELIMIT), *nsolutions.
 * On QN_ELIMIT x_out is the greedy solution described above (not proven
 * minimal); outputs untouched on QN_EUNSOLVABLE.
 */
int qn_chase_min_presses(const qn_chase *c, uint8_t *x_out, uint64_t *presses,
                         uint64_t *noptimal, uint64_t *nsolutions,
                         const uint8_t *s, qn_err *err);

#endif
