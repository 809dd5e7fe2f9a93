/*
 * repair.h: the minimal repair of an unsolvable state.
 *
 * Which cells must change, and to what, so that a state becomes solvable?
 * Solvability depends only on the state's class in the cokernel
 * G = Z_k^n / image (see system.h), which is small for real boards (4
 * classes for classic 5x5). Changing one cell by t moves the class by
 * phi(t e_i), so the fewest cells to change is a shortest path from the
 * state's class to 0 in the Cayley graph of G with those moves; a
 * breadth-first search from 0 precomputes one path per class. (A shortest
 * path never changes a cell twice: two changes of one cell merge into one.)
 *
 * The repair depends only on the class, so adding it is a fixed
 * translation per coset: it maps a uniformly random state to a uniformly
 * random solvable state, which the generator relies on.
 */
#ifndef QN_REPAIR_H
#define QN_REPAIR_H

#include <stdint.h>

#include "base/err.h"
#include "engine/system.h"

/* Classes x moves the search may visit (memory is ~5 bytes a class). */
#define QN_REPAIR_MAX_WORK ((uint64_t)1 << 28)
#define QN_REPAIR_MAX_CLASSES ((uint64_t)1 << 22)

typedef struct qn_repair qn_repair;

/*
 * Precompute repairs for sys (borrowed: it must outlive the result).
 * QN_ELIMIT when the cokernel has more than QN_REPAIR_MAX_CLASSES classes
 * or the search would exceed QN_REPAIR_MAX_WORK, QN_ENOMEM. *out NULL on
 * failure.
 */
int qn_repair_new(qn_repair **out, const qn_system *sys, qn_err *err);
void qn_repair_free(qn_repair *rep); /* NULL-safe */

/*
 * The fewest changes making A x + s = 0 solvable: writes them as cells[i]
 * (increasing) and values[i] (the new value of that cell) and returns
 * their number, 0 when s is already solvable. cells and values need room
 * for the number of cokernel generators + 1 entries at least (a path is
 * never longer than the number of moves needed to generate G; ncols
 * entries is always enough).
 */
int qn_repair_find(const qn_repair *rep, const uint8_t *s, int *cells,
                   uint8_t *values);

/* Apply the repair to s in place; returns the number of cells changed,
 * or QN_ENOMEM (s untouched) when a board of more than 63 cells cannot
 * get its scratch. */
int qn_repair_apply(const qn_repair *rep, uint8_t *s);

/* The class of s in G, as a mixed-radix index (0 = solvable). */
uint64_t qn_repair_class(const qn_repair *rep, const uint8_t *s);

#endif
