/*
 * human.h: the technique ladder (issue #33, docs/GENERATE.md "The human
 * ladder"). A solvable state's human level is the first rung of
 *   spot   (0) some optimal plan's presses have pairwise disjoint
 *              footprints (the cells each press changes);
 *   chase  (1) one light chase from one of the board's sides clears it;
 *   table  (2) a chase, one first-row press pattern from that side's table
 *              of residual patterns and a second chase clear it;
 *   global (3) none of the above
 * that it reaches. A side walks the board's rows (grids: top, bottom,
 * left, right; hex boards: the three axial directions both ways); it has
 * a chase order when every cell of every row but the last has exactly
 * one cell of the next row that changes it by a unit amount mod k and
 * changes no cell before it in the walk. A rule with no such side (a
 * graph, a torus, a Moore stencil) has no chase rungs: spot or global.
 * A qn_human is immutable once built: threads may share it.
 */
#ifndef QN_HUMAN_H
#define QN_HUMAN_H

#include <stddef.h>
#include <stdint.h>

#include "base/err.h"
#include "solve/solver.h"

enum qn_human_level {
    QN_HUMAN_SPOT = 0,
    QN_HUMAN_CHASE = 1,
    QN_HUMAN_TABLE = 2,
    QN_HUMAN_GLOBAL = 3,
};
#define QN_HUMAN_NLEVELS 4

/* "spot", "chase", "table", "global" (static); NULL past the range. */
const char *qn_human_level_name(int level);
/* The level named `name`, or -1. */
int qn_human_level_parse(const char *name);
/*
 * A set of levels as targets write it (docs/GENERATE.md, "Human level
 * targets"): a level by name or number (0..3), or a range A..B, A.. or
 * ..B of them, into *mask (bit L: level L). Returns 0, -1 when s is not
 * such a text, -2 when the range is empty (A after B).
 */
int qn_human_levels_parse(const char *s, unsigned *mask);

typedef struct qn_human qn_human;

/*
 * Find the sides with a chase order of g's rule and their tables. g is
 * borrowed and must outlive the result. Errors: QN_ENOMEM, and those of
 * qn_system_new for a table's system (none in practice).
 */
int qn_human_new(qn_human **out, const qn_solver *solver, qn_err *err);
void qn_human_free(qn_human *h); /* NULL-safe */

/* The board's sides in order (the first is "top"; none on a graph), and
 * whether side i has a chase order. Names are static. */
size_t qn_human_nsides(const qn_human *h);
const char *qn_human_side_name(const qn_human *h, size_t i);
int qn_human_side_chases(const qn_human *h, size_t i);

/*
 * The level of `state` (ncells values < k). On QN_OK *level is set and
 * *side (when not NULL) is the side of the chase or table rung, -1 for
 * spot and global. QN_EUNSOLVABLE: the state has no solution. QN_ELIMIT:
 * the optimal plans are too many to list (past QN_HUMAN_MAX_PLANS or the
 * solver's walk limit), so spot is not decided; err says so. QN_ENOMEM.
 */
#define QN_HUMAN_MAX_PLANS 1024
int qn_human_level(const qn_human *h, const uint8_t *state, int *level,
                   int *side, qn_err *err);

/*
 * The rung above spot of a solvable state known not to be spot (a census
 * that found the spot states otherwise): chase when a chase from some
 * side clears it, else table when a side has a chase order (a solvable
 * state less its chase is a first-row pattern's residual, so the table
 * always holds it), else global; as qn_human_level's, without solving
 * the table. scratch: ncells bytes.
 */
int qn_human_rung(const qn_human *h, const uint8_t *state, uint8_t *scratch);

/*
 * Exact shares, from subspaces (never sampled). A share is num/den in
 * lowest terms; known = 0 when a figure does not fit 64 bits or, for the
 * union over sides, the board is past QN_HUMAN_MAX_UNION_CELLS.
 *   top:   solvable states one chase from the first side clears
 *          (0/1 when that side has no chase order);
 *   any:   solvable states one chase from some side clears;
 *   table: the non-zero residual patterns of the first side's table
 *          (patterns = 0 and has_table = 0 without a chase from it).
 */
#define QN_HUMAN_MAX_UNION_CELLS 4096
typedef struct qn_human_share {
    int known;
    uint64_t num, den;
} qn_human_share;
typedef struct qn_human_shares {
    qn_human_share top, any;
    int has_table, table_known;
    uint64_t table_patterns;
} qn_human_shares;
int qn_human_shares_compute(const qn_human *h, qn_human_shares *out,
                            qn_err *err);

#endif
