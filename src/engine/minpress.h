/*
 * minpress.h: the exact minimal number of presses for a solvable state.
 *
 * The solutions of A x + s = 0 form a coset x0 + ker A. Each x_i is taken in
 * 0..k-1, so a solution costs sum(x_i) clicks. This module walks the whole
 * coset, in Gray-code order so that each step adds or removes a single
 * kernel generator: a binary reflected Gray code with popcount for k = 2, a
 * loopless mixed-radix Gray code (Knuth 7.2.1.1, Algorithm H) over the
 * generators' orders otherwise. The walk is exact; when the kernel is larger
 * than the caller's limit it is not started and the answer says so (never a
 * guess labelled optimal).
 */
#ifndef QN_MINPRESS_H
#define QN_MINPRESS_H

#include "quench/common.h"

#include <stdint.h>

#include "base/err.h"
#include "engine/system.h"

/*
 * For the state s (nrows entries < k): write the lexicographically smallest
 * optimal solution to x (ncols entries) and its figures to out.
 * Returns QN_OK; QN_EUNSOLVABLE (x untouched) when s has no solution; or
 * QN_ELIMIT when the kernel has more than `limit` elements: then x is one
 * solution (not proven minimal), out->presses its cost, out->exact = 0 and
 * out->noptimal = 0; QN_ENOMEM (out zeroed, x some solution or untouched)
 * when it cannot allocate. Reentrant: allocates only for large systems.
 */
int qn_minpress_solve(const qn_system *sys, qn_minpress *out, uint8_t *x,
                      const uint8_t *s, uint64_t limit, qn_err *err);

/*
 * 1 when qn_minpress_solve walks the coset under `limit` (the kernel has
 * at most `limit` elements; a trivial kernel always), so every solvable
 * state gets a proven minimum; 0 when no state can (QN_ELIMIT for all).
 * The kernel is the same for every state, so this is known up front.
 */
int qn_minpress_exact(const qn_system *sys, uint64_t limit);

/*
 * A proven upper bound on the minimal press count of every solvable state
 * (docs/GENERATE.md, "The press bound"). The least cost over a coset
 * x0 + K is at most its average, and the average is a sum over the
 * columns: column i runs uniformly over x0_i + H_i, where H_i = d_i Z/k
 * is the kernel's projection onto i (d_i = gcd(k, every generator's i-th
 * entry)), so its average cost is at most (d_i - 1) + (k - d_i) / 2. No
 * state thus needs more than floor(sum_i (k + d_i) / 2) - ncols presses:
 * ncols (k - 1) for a trivial kernel, and for k = 2, (columns outside the
 * kernel's support) + floor(|support| / 2). Costs O(kernel gens x ncols).
 */
uint64_t qn_minpress_bound(const qn_system *sys);

/*
 * Visit solutions of A x + s = 0: call fn(ctx, x) for each, in the
 * mixed-radix order of the kernel coefficients, until `limit` were visited
 * or fn returns non-zero. Returns the number visited, QN_EUNSOLVABLE or
 * QN_ENOMEM (before any visit).
 * x is borrowed for the duration of the call.
 */
typedef int qn_solution_fn(void *ctx, const uint8_t *x);
int64_t qn_minpress_each(const qn_system *sys, const uint8_t *s, uint64_t limit,
                         qn_solution_fn *fn, void *ctx);

#endif
