/*
 * grid.h: solving big grid rules (rules.h, qn_grid_rule): one front for
 * the three methods, chosen by the rule.
 *
 *   plus family over GF(2)  the polynomial method on bit boards (plus_gf2.h)
 *   plus family over GF(p)  the polynomial method on bytes (plus_gfp.h)
 *   any other stencil       light chasing with a reduced system (chase.h)
 *
 * A stencil none of them takes (one reaching no row above, or none with a
 * unit at an extreme of its top row, or past their width limits) is
 * refused with the reason; dense elimination is the rules.h model, for
 * boards up to QN_RULES_MAX_CELLS.
 *
 * States and solutions are qn_grid_state values: bit boards for k = 2 (an
 * eighth of the memory), one byte per cell otherwise.
 */
#ifndef QN_GRID_H
#define QN_GRID_H

#include <stdint.h>
#include <stdio.h>

#include "base/buf.h"
#include "base/err.h"
#include "bigboard/bitboard.h"
#include "rules/rules.h"

typedef struct qn_grid_state {
    int w, h;
    unsigned k;
    qn_bitboard bits; /* k == 2 */
    uint8_t *cells;   /* k > 2: w * h bytes, row-major */
} qn_grid_state;

/* A zeroed w x h state over Z/k: QN_OK, or QN_ENOMEM with *s zeroed. */
int qn_grid_state_init(qn_grid_state *s, int w, int h, unsigned k);
void qn_grid_state_release(qn_grid_state *s); /* safe when zeroed */
/* Every cell v (v < k). */
void qn_grid_state_fill(qn_grid_state *s, unsigned v);
/* Sum of the cells: the press total of a solution. */
uint64_t qn_grid_state_sum(const qn_grid_state *s);
/*
 * Read a netpbm image (netpbm.h) from f into s, which must be initialised
 * to the board's size and k: QN_EINVAL when the image's size differs
 * (naming both) or does not fit k; the netpbm.h codes otherwise.
 */
int qn_grid_state_read_pnm(qn_grid_state *s, FILE *f, qn_err *err);
/* Append s as PBM (k = 2) or PGM, raw when flags has QN_PNM_RAW; out of
 * memory marks out failed (qn_buf_fail: the caller's policy applies). */
void qn_grid_state_write_pnm(qn_buf *out, const qn_grid_state *s,
                             unsigned flags);

typedef struct qn_grid qn_grid; /* immutable after qn_grid_new */

/*
 * Prepare the solver for r (borrowed only during the call). Errors:
 * QN_EINVAL (no method takes the stencil; the message gives each
 * method's reason), QN_ELIMIT (the board is past the method's limits),
 * QN_ENOMEM.
 */
int qn_grid_new(qn_grid **out, const qn_grid_rule *r, qn_err *err);
void qn_grid_free(qn_grid *g); /* NULL-safe */

/* "polynomial method over GF(2)", "polynomial method over GF(p)" or
 * "light chasing"; and the chase width it works with. */
const char *qn_grid_method(const qn_grid *g);
int qn_grid_width(const qn_grid *g);
/* log2 of the number of solutions of a solvable state (the nullity times
 * log2 k over a field). */
double qn_grid_kernel_log2(const qn_grid *g);

typedef struct qn_grid_answer {
    int exact;            /* 1: presses is the least over all solutions */
    uint64_t presses;     /* press total of the plan returned */
    uint64_t lower_bound; /* no solution presses less; == presses if exact */
    uint64_t noptimal;    /* solutions attaining it when exact, else 0 */
} qn_grid_answer;

/*
 * The least presses for s: x_out (initialised like s) gets the plan, *a its
 * figures. Exact within each method's limit (plus_gf2.h, chase.h: kernels of
 * 2^24 and 2^20 elements), else the best plan found and a lower bound: the
 * larger of the method's and ceil(cells lit / stencil offsets), which every
 * solution meets (one press changes at most that many cells).
 * Returns QN_OK, QN_EUNSOLVABLE or QN_ENOMEM (x_out then unspecified).
 */
int qn_grid_min_presses(const qn_grid *g, qn_grid_state *x_out,
                        qn_grid_answer *a, const qn_grid_state *s, qn_err *err);

/*
 * 1 when A x + s = 0 for r's stencil, checked straight from the stencil's
 * definition (independent of every solver); QN_ENOMEM (k = 2 needs a
 * board of scratch).
 */
int qn_grid_replays(const qn_grid_rule *r, const qn_grid_state *x,
                    const qn_grid_state *s);

#endif
