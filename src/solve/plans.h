/*
 * plans.h: a state's solutions listed by press count, cheapest first
 * (`solve --all`, `solve --optimal`).
 *
 * The solutions of a solvable state are one coset x0 + ker A, so there
 * are exactly |ker A| of them (k^d for a free kernel of rank d: 16 for
 * classic 4x4, 1 for classic 3x3). When the kernel has at most the
 * solver's walk limit elements (qn_solver_walk_limit), every solution is
 * visited and the cheapest `limit` are kept in a bounded heap, so the list
 * is exactly the `limit` cheapest, ordered by total presses and then
 * lexicographically by per-cell counts (the first is the plan
 * qn_solver_answer gives). A larger kernel is not walked: the first
 * `limit` solutions of the walk are sorted instead, and the result says
 * it is incomplete. The cost is one pass over the coset, about ncells
 * steps per solution, and limit * ncells bytes.
 */
#ifndef QN_PLANS_H
#define QN_PLANS_H

#include <stddef.h>
#include <stdint.h>

#include "base/err.h"
#include "solve/solver.h"

/* The most plans one list holds (solve --limit at most this). */
#define QN_PLANS_MAX 65536

/* A plain value; release with qn_plans_release. */
typedef struct qn_plans {
    int n;             /* cells per plan */
    size_t count;      /* plans listed, at most the limit asked */
    uint8_t *x;        /* count * n press counts: plan i at x + i * n */
    uint64_t *presses; /* count totals, non-decreasing */
    uint64_t matched;  /* solutions that qualified (all of them, or the
                          optimal ones): count plus those not listed */
    int complete;      /* 1: every solution was visited, so the list is
                          the cheapest and matched is exact; 0: the first
                          `limit` visited, sorted (kernel past the walk
                          limit; never with optimal) */
} qn_plans;

/*
 * List solutions of `state` (ncells values < k) under g, cheapest first:
 * every solution, or with `optimal` only those of the least press count;
 * at most `limit` (1..QN_PLANS_MAX) of them. *out is overwritten. Returns
 * QN_OK; QN_EUNSOLVABLE when the state has no solution; QN_ELIMIT with
 * `optimal` when the kernel is past the walk limit (the optimum is not
 * known); QN_ENOMEM. On failure *out is empty (release is still safe).
 */
int qn_plans_find(qn_plans *out, const qn_solver *solver, const uint8_t *state,
                  uint64_t limit, int optimal, qn_err *err);

/* Free what *p holds and zero it; safe on a zeroed value. */
void qn_plans_release(qn_plans *p);

#endif
