/*
 * distrib_exact.h: the exact distribution of minimal press counts from
 * the structure of A alone, for rules far past what qn_distrib_compute
 * can enumerate (distrib.h), with counts of any size.
 *
 * The minimal press count of a solvable state is the least weight
 * sum(x_i) (each x_i in 0..k-1) over its plans, a coset x + K of the
 * kernel K. So the distribution over solvable states is the distribution
 * of the least weight over the cosets of K in (Z/k)^n:
 *
 *   invertible   K = 0 (A invertible over Z/k): each plan is its own
 *                state's only plan, so the count for w is the number of
 *                vectors of {0..k-1}^n with sum w: C(n, w) for k = 2,
 *                the coefficients of (1 + x + ... + x^(k-1))^n for k > 2.
 *   kernel classes  K small: cells whose column (g_1[i], ..., g_d[i])
 *                over the kernel's generators is the same are
 *                interchangeable, since every quiet pattern adds the same
 *                amount to each of them. A plan is then described, up to
 *                what the coset's minimum depends on, by how many cells of
 *                each class hold each value; the classes are folded in
 *                one by one, keeping for each reachable vector of weights
 *                (one per element of K) how many plans reach it, and the
 *                minimum of that vector is the state's press count. Cells
 *                no quiet pattern touches (the zero class) add their
 *                weight to every element alike: their distribution is
 *                convolved in at the end. Every coset holds |K| plans, so
 *                the plan counts divided by |K| are the state counts.
 *
 * Both are exact; a system whose structure allows neither within the
 * limits below gets QN_ELIMIT (the caller enumerates or samples).
 */
#ifndef QN_DISTRIB_EXACT_H
#define QN_DISTRIB_EXACT_H

#include <stddef.h>
#include <stdint.h>

#include "base/buf.h"
#include "base/err.h"
#include "engine/system.h"

/* Kernel classes: at most this many quiet patterns, and at most this many
 * words of work (reachable weight vectors times |K|, per class). */
#define QN_EXACT_MAX_KERNEL 1024
#define QN_EXACT_MAX_WORK ((uint64_t)1 << 24)

typedef struct qn_exact_dist qn_exact_dist;

/*
 * The distribution of minimal presses over every solvable state of sys
 * (a square system). On success *out is the caller's (qn_exact_dist_free).
 * Errors: QN_ELIMIT when neither method applies within the limits (the
 * message says why), QN_ENOMEM; *out is then NULL.
 */
int qn_exact_dist_compute(qn_exact_dist **out, const qn_system *sys,
                          qn_err *err);
void qn_exact_dist_free(qn_exact_dist *d); /* NULL-safe */

/* "invertible" or "kernel classes". */
const char *qn_exact_dist_method(const qn_exact_dist *d);
/* Largest minimal press count + 1. */
size_t qn_exact_dist_len(const qn_exact_dist *d);
/* The count for m presses, in decimal, appended to out ("0" past len);
 * out's failed flag says whether memory ran out. */
void qn_exact_dist_count(const qn_exact_dist *d, size_t m, qn_buf *out);
/* The same as a uint64; QN_ELIMIT (out untouched) when >= 2^64. */
int qn_exact_dist_count_u64(const qn_exact_dist *d, size_t m, uint64_t *out);
/* Its share of all solvable states, 0..1. */
double qn_exact_dist_share(const qn_exact_dist *d, size_t m);

#endif
