/*
 * solver.h: one rule compiled for answering questions about states.
 *
 * A qn_solver bundles what every command needs for a rule: the factorised
 * system, the minimal-repair table and the goal. States are the board as
 * the player sees it; the solver subtracts the goal, so "solvable" means
 * "some presses bring it to the goal". Immutable after qn_solver_new, so
 * threads may share one.
 */
#ifndef QN_SOLVER_H
#define QN_SOLVER_H

#include "quench/solve.h"

#include <stdint.h>

#include "base/buf.h"
#include "base/err.h"
#include "engine/minpress.h"
#include "engine/repair.h"
#include "engine/system.h"
#include "rules/rules.h"

typedef struct qn_solver qn_solver;

/*
 * Compile r (borrowed: it must outlive the solver). Errors: those of
 * qn_system_new. A cokernel too large for the repair search is not an
 * error: answers then say the repair is unknown.
 */
int qn_solver_new(qn_solver **out, const qn_rules *r, qn_err *err);
/*
 * The same without the minimal-repair table (qn_solver_repair is NULL, as
 * for a cokernel too large to search): for callers that read the system
 * alone, such as the human ladder's shares (rules table), where the table
 * would cost more than everything else (19x19 mod 2: 2^16 classes).
 */
int qn_solver_new_bare(qn_solver **out, const qn_rules *r, qn_err *err);
void qn_solver_free(qn_solver *solver); /* NULL-safe */

const qn_rules *qn_solver_rules(const qn_solver *solver);
const qn_system *qn_solver_system(const qn_solver *solver);
int qn_solver_ncells(const qn_solver *solver);
unsigned qn_solver_colours(const qn_solver *solver);
/* NULL when the cokernel was too large to search (see repair.h). */
const qn_repair *qn_solver_repair(const qn_solver *solver);
/* Walk limit for minimal presses (default QN_MINPRESS_DEFAULT_LIMIT). */
void qn_solver_set_walk_limit(qn_solver *solver, uint64_t limit);
uint64_t qn_solver_walk_limit(const qn_solver *solver);

/*
 * QN_OK when every solvable state's minimum is proven under the walk
 * limit (qn_minpress_exact); else QN_ELIMIT, with a message naming the
 * kernel's size and the limit. Whoever needs exact grades (the generator)
 * asks this once instead of finding out per state.
 */
int qn_solver_check_exact(const qn_solver *solver, qn_err *err);

int qn_answer_init(qn_answer *a, const qn_solver *solver, qn_err *err);
void qn_answer_release(qn_answer *a);

/*
 * Answer for `state` (ncells values < k, already checked). Returns QN_OK
 * with *a filled, whether or not the state is solvable; QN_ENOMEM (err is
 * the caller's to fill: qn_err_nomem) when memory ran out, *a valid.
 */
int qn_solver_answer(const qn_solver *solver, qn_answer *a,
                     const uint8_t *state);
/* The same, and for an unsolvable state its class in *cls (as
 * qn_solver_class gives it; else unset): the state's offset from the
 * goal taken once for both. */
int qn_solver_answer_class(const qn_solver *solver, qn_answer *a,
                           const uint8_t *state, uint64_t *cls);

/*
 * Why `state` is unsolvable, in words a designer can act on: each failed
 * condition as a parity or weighted sum over named cells. Appends one line
 * per failed condition (at most `max` of them, then "... and N more").
 * Out of memory sets out's failed flag (the caller checks it), here and
 * in qn_solver_cell_name.
 */
void qn_solver_explain(const qn_solver *solver, qn_buf *out,
                       const uint8_t *state, int max);

/*
 * The class of `state` among the states (0: solvable; see repair.h):
 * states of one class have the same qn_solver_explain text and the same
 * repair. UINT64_MAX when the rule has too many classes to number.
 */
uint64_t qn_solver_class(const qn_solver *solver, const uint8_t *state);

/* A cell's name for messages: "(row,col)" on boards, "cell i" on graphs. */
void qn_solver_cell_name(const qn_solver *solver, qn_buf *out, int cell);
/* What those names mean, for a legend under a report that uses them:
 * "(row, col), from (0,0) at the top left" or "numbered from 0 as in the
 * rule file" (static). */
const char *qn_solver_cell_legend(const qn_solver *solver);

/* The rule's grading tier for a press count, or NULL when none applies. */
const char *qn_solver_grade(const qn_solver *solver, uint64_t presses);

/*
 * Visit up to `limit` solutions for `state` (see qn_minpress_each): each
 * x is a per-cell press plan. Returns the number visited, or
 * QN_EUNSOLVABLE.
 */
int64_t qn_solver_each_solution(const qn_solver *solver, const uint8_t *state,
                                uint64_t limit, qn_solution_fn *fn, void *ctx);

/*
 * One press of `cell` on `state` (ncells values < k, changed in place):
 * every cell i advances by what a press of `cell` adds to it, A[i][cell],
 * mod k. A plan's presses commute, so any order of them ends the same.
 */
void qn_solver_press(const qn_solver *solver, uint8_t *state, int cell);

/* Replay: 1 if pressing `plan` on `state` reaches the goal exactly. */
int qn_solver_replays(const qn_solver *solver, const uint8_t *state,
                      const uint8_t *plan);

#endif
