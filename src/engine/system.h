/*
 * system.h: one puzzle family's linear system A x + s = 0 over Z/k.
 *
 * A qn_system factorises A once (bit-packed GF(2) for k = 2, Smith form over
 * the prime-power parts of k otherwise) and then answers, for any state s:
 * is it solvable, one solution, and (minpress.h) the exact minimal number of
 * presses. It also describes the kernel (quiet press patterns), the image
 * (solvable states) and the cokernel (why a state is unsolvable) as finite
 * abelian groups. A system is immutable after qn_system_new, so any number
 * of threads may query it at once.
 */
#ifndef QN_SYSTEM_H
#define QN_SYSTEM_H

#include <stddef.h>
#include <stdint.h>

#include "base/buf.h"
#include "base/err.h"

typedef struct qn_system qn_system;

/*
 * Factorise the nrows x ncols matrix a (row-major, entries 0..k-1, a[i *
 * ncols + j] = what pressing cell j adds to cell i) over Z/k. a is copied.
 * *out is NULL on failure. Errors: QN_EINVAL (k outside 2..255, an entry
 * >= k, negative dimensions), QN_ELIMIT (more than QN_SYSTEM_MAX_CELLS rows
 * or columns: the dense factorisation would not fit), QN_ENOMEM.
 */
#define QN_SYSTEM_MAX_CELLS 20000
int qn_system_new(qn_system **out, const uint8_t *a, int nrows, int ncols,
                  unsigned k, qn_err *err);
void qn_system_free(qn_system *sys); /* NULL-safe */

int qn_system_nrows(const qn_system *sys);
int qn_system_ncols(const qn_system *sys);
unsigned qn_system_modulus(const qn_system *sys);
/* The matrix as given (borrowed, nrows * ncols entries). */
const uint8_t *qn_system_matrix(const qn_system *sys);

/*
 * 1 if A x + s = 0 has a solution (s has nrows entries < k), else 0.
 * Out of memory (only k = 2 boards of more than 4096 cells allocate, one
 * bit per cell): QN_ENOMEM, which is negative, so test > 0 or == 1.
 */
int qn_system_is_solvable(const qn_system *sys, const uint8_t *s);

/*
 * Write one solution of A x + s = 0 to x (ncols entries) and return QN_OK,
 * or return QN_EUNSOLVABLE and leave x untouched. QN_ENOMEM (x untouched)
 * when a board of more than 4096 cells cannot get its scratch.
 */
int qn_system_solve(const qn_system *sys, uint8_t *x, const uint8_t *s);

/* y = A x + s (mod k); y may alias s. Replays a press plan. */
void qn_system_apply(const qn_system *sys, uint8_t *y, const uint8_t *x,
                     const uint8_t *s);

/*
 * The kernel {x : A x = 0} in invariant-factor form: generators g_i of
 * orders o_0 | o_1 | ... (each > 1); every quiet pattern is sum c_i g_i for
 * exactly one choice 0 <= c_i < o_i. Its size is the product of the orders
 * and equals the number of solutions of every solvable state. Generators
 * are borrowed (ncols entries each).
 */
size_t qn_system_kernel_ngens(const qn_system *sys);
const uint8_t *qn_system_kernel_gen(const qn_system *sys, size_t i);
unsigned qn_system_kernel_order(const qn_system *sys, size_t i);

/*
 * The cokernel Z_k^nrows / image, in the same form, as conditions: s is
 * solvable iff c_j . s == 0 (mod d_j) for every j, and s -> (c_j . s mod
 * d_j)_j maps the states onto prod Z/d_j with the cosets of the image as
 * fibres. c_j is borrowed (nrows entries in 0..d_j-1).
 */
size_t qn_system_cokernel_ngens(const qn_system *sys);
unsigned qn_system_cokernel_order(const qn_system *sys, size_t j);
const uint8_t *qn_system_condition(const qn_system *sys, size_t j);

/*
 * Exact group sizes as decimal text appended to out: the kernel, the image
 * (number of solvable states) and the cokernel. Also, the base-2 logarithm
 * of each is returned by the _log2 variant for "2^23"-style display; it is
 * exact when the size is a power of two. out is the caller's: running
 * out of memory marks it failed (qn_buf_fail) as an append would, so the
 * caller's policy applies (out->failed, or its qn_buf_on_failure).
 */
enum qn_system_group { QN_KERNEL, QN_IMAGE, QN_COKERNEL };
void qn_system_group_size(const qn_system *sys, enum qn_system_group g,
                          qn_buf *out);
double qn_system_group_log2(const qn_system *sys, enum qn_system_group g);
/* The size as a product of prime powers, e.g. "2^23" or "2^4 x 3^3". */
void qn_system_group_factors(const qn_system *sys, enum qn_system_group g,
                             qn_buf *out);
/* The size as a uint64; QN_ELIMIT (and *out untouched) if >= 2^64. */
int qn_system_group_size_u64(const qn_system *sys, enum qn_system_group g,
                             uint64_t *out);

/* 1 if A is square and equal to its transpose. */
int qn_system_is_symmetric(const qn_system *sys);

#endif
