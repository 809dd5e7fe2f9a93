/*
 * quench/solve.h: answers about states of one rule: solvable or not, the
 * exact minimal press count and an optimal plan, a minimal repair of an
 * unsolvable state, and every solution.
 *
 * A qn_solver compiles a rule once (the factorised system and the repair
 * table) and is immutable afterwards: threads may share one, each with
 * its own qn_answer. States are the board as the player sees it, n values
 * < k (quench/ruleset.h); a state is solvable when some presses bring it
 * to the rule's goal.
 */
#ifndef QN_PUBLIC_SOLVE_H
#define QN_PUBLIC_SOLVE_H

#include "quench/common.h"
#include "quench/ruleset.h"

typedef struct qn_solver qn_solver; /* opaque */

/*
 * Compile r (borrowed: it must outlive the solver). *out is the caller's
 * (qn_solver_free). Errors: QN_ELIMIT for a rule past the dense model's
 * limits, QN_ENOMEM; a cokernel too large for the repair search is not
 * an error: answers then say the repair is unknown.
 */
QN_API int qn_solver_new(qn_solver **out, const qn_rules *r, qn_err *err);
QN_API void qn_solver_free(qn_solver *solver); /* NULL-safe */
/* The rule it was compiled from (borrowed). */
QN_API const qn_rules *qn_solver_rules(const qn_solver *solver);
/* Coset walk limit for exact minimal presses (default
 * QN_MINPRESS_DEFAULT_LIMIT); set it before sharing the solver. */
QN_API void qn_solver_set_walk_limit(qn_solver *solver, uint64_t limit);
QN_API uint64_t qn_solver_walk_limit(const qn_solver *solver);
/* QN_OK when every solvable state's minimum is proven under the walk
 * limit; else QN_ELIMIT naming the kernel's size and the limit (or
 * QN_ENOMEM). */
QN_API int qn_solver_check_exact(const qn_solver *solver, qn_err *err);

/*
 * The answer for one state. Its buffers are sized for the solver by
 * qn_answer_init, reused across qn_solver_answer calls and freed by
 * qn_answer_release (the caller owns the qn_answer).
 */
/*
 * The answer for one state. Buffers are sized for the solver by
 * qn_answer_init and reused across calls; release with
 * qn_answer_release.
 */
typedef struct qn_answer {
    int at_goal; /* the state already is the goal */
    int solvable;
    qn_minpress mp;        /* solvable: presses, optimal count, solutions */
    int exact;             /* 1: mp.presses is proven minimal */
    uint8_t *plan;         /* solvable: lexicographically smallest optimal
                              per-cell press counts (ncells) */
    int repair_known;      /* unsolvable: 1 if the repair below is valid */
    int nrepair;           /* cells to change */
    int *repair_cell;      /* nrepair cells, increasing */
    uint8_t *repair_value; /* their new values (as the player sees them) */
} qn_answer;

/* QN_OK, or QN_ENOMEM with *a released (qn_answer_release is a no-op). */
QN_API int qn_answer_init(qn_answer *a, const qn_solver *solver, qn_err *err);
QN_API void qn_answer_release(qn_answer *a);
/* Answer for `state` (n values < k): QN_OK with *a filled, whether or
 * not the state is solvable; QN_ENOMEM when memory ran out (*a stays
 * valid: release it or answer again). */
QN_API int qn_solver_answer(const qn_solver *solver, qn_answer *a,
                            const uint8_t *state);
/* Why `state` is unsolvable, in words: one line per failed condition
 * appended to out (at most max, then "... and N more"). Out of memory
 * sets out's failed flag (qn_buf_check). */
QN_API void qn_solver_explain(const qn_solver *solver, qn_buf *out,
                              const uint8_t *state, int max);
/* A cell's name for messages ("(row,col)" or "cell i"), appended (out
 * of memory: out's failed flag). */
QN_API void qn_solver_cell_name(const qn_solver *solver, qn_buf *out, int cell);
/* The rule's grading tier for a press count (borrowed), or NULL. */
QN_API const char *qn_solver_grade(const qn_solver *solver, uint64_t presses);

/* Called with each solution x (n per-cell press counts, borrowed for
 * the call); return non-zero to stop. */
typedef int qn_solution_fn(void *ctx, const uint8_t *x);
/* Visit up to `limit` solutions of `state`: the number visited, or
 * QN_EUNSOLVABLE (or QN_ENOMEM). */
QN_API int64_t qn_solver_each_solution(const qn_solver *solver,
                                       const uint8_t *state, uint64_t limit,
                                       qn_solution_fn *fn, void *ctx);
/* One press of `cell` on `state` (changed in place). */
QN_API void qn_solver_press(const qn_solver *solver, uint8_t *state, int cell);
/* 1 if pressing `plan` (n per-cell counts) on `state` reaches the goal. */
QN_API int qn_solver_replays(const qn_solver *solver, const uint8_t *state,
                             const uint8_t *plan);

#endif
