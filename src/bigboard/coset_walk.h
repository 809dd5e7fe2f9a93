/*
 * coset_walk.h: the least press total over a coset of solutions given as full
 * press patterns: x0 + sum a_i G_i, 0 <= a_i < o_i, each solution once
 * (the G_i generate the kernel with orders o_i, as system.h gives them).
 * For solvers that hand out kernel generators as whole boards (chase.h,
 * plus_gfp.h).
 *
 * An odometer visits the coset: level j adds G_j o_j times, which brings
 * the board back where it started (o_j G_j = 0), so the walk costs about
 * 2 |kernel| x n cell additions and no solver call. Ties go to the
 * smallest board in cell order, so the answer does not depend on the
 * visiting order: the plan minpress.h calls the lexicographically
 * smallest optimum.
 */
#ifndef QN_COSET_WALK_H
#define QN_COSET_WALK_H

#include <stddef.h>
#include <stdint.h>

/*
 * x holds x0 (n cells < k) and is scratch: it is x0 again on return.
 * gens holds ngens patterns of n cells, orders their orders. best_out (n
 * cells) gets the optimum, *presses its total, *noptimal how many
 * solutions attain it. The caller bounds the work (the product of the
 * orders).
 */
void qn_coset_walk(uint8_t *best_out, uint64_t *presses, uint64_t *noptimal,
                   uint8_t *x, const uint8_t *gens, const unsigned *orders,
                   size_t ngens, size_t n, unsigned k);

#endif
