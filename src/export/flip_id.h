/*
 * flip_id.h: game IDs for Simon Tatham's "Flip" (Portable Puzzle Collection).
 *
 * A Flip game ID is "WxH:<matrix hex>,<grid hex>". Flip plays any GF(2)
 * press matrix on a full W x H rectangle, and it is solved when every grid
 * bit is 0, so a quench rule set maps onto it when it has two colours, is a
 * grid without holes and has the all-zero goal. Wrap and long-range
 * stencils are fine: the matrix is spelled out in full. The exact encoding
 * (bit order, orientation, padding) and where it was checked are recorded
 * at the top of src/export/flip_id.c.
 */
#ifndef QN_FLIP_ID_H
#define QN_FLIP_ID_H

#include <stdint.h>

#include "base/buf.h"
#include "base/err.h"
#include "rules/rules.h"

/*
 * Can rule set `r` be written as a Flip game ID? Returns QN_OK, or
 * QN_EINVAL with the reason in err (line and col 0), e.g.
 * "flip has two colours, this rule has 3", "flip needs a rectangular grid
 * board, this rule is on a hexagon board", "flip needs every grid position
 * to be a cell, this board has 24 holes", "flip's solved state is all
 * lights off, this rule's goal is not all zero". `r` is only read.
 */
int qn_flip_can_express(const qn_rules *r, qn_err *err);

/*
 * 1 when Flip's per-tile diagram of each press is complete: every cell a
 * press changes is within 3 columns and 3 rows of the pressed cell (Flip
 * draws the effect at offset (dx, dy) inside the tile and clips what falls
 * outside). 0 otherwise: the ID still plays exactly, but a player cannot
 * see the whole press in the tile (e.g. the wrap of torus-5x5). Only
 * meaningful when qn_flip_can_express(r) is QN_OK.
 */
int qn_flip_diagram_complete(const qn_rules *r);

/*
 * Append the Flip game ID of `state` under `r` to `out`: "WxH:" then
 * ceil(n*n/4) lowercase hex digits of the matrix, ',' and ceil(n/4) hex
 * digits of the grid (n = W*H). `state` holds n values, each 0 or 1
 * (1 = a cell Flip shows dark, i.e. still to be cleared). Returns QN_OK,
 * or QN_EINVAL when qn_flip_can_express() refuses `r` or a state value is
 * not 0/1 (then `out` is unchanged), or QN_ENOMEM (out->failed set).
 */
int qn_flip_encode(qn_buf *out, const qn_rules *r, const uint8_t *state,
                   qn_err *err);

/*
 * Parse and validate the Flip game ID `id` (NUL-terminated). The params
 * part is "W" or "WxH", optionally followed by Flip's 'c' or 'r' (the
 * generator type, which an ID does not need), then ':'. The description
 * must be exactly ceil(n*n/4) hex digits (either case), ',', exactly
 * ceil(n/4) hex digits and the end of the string; the unused low bits of
 * each part's last digit must be 0 (Flip's encoder never sets them).
 *
 * On success returns QN_OK and sets *w_out, *h_out, *matrix_out to a
 * malloc'd n*n array in quench's orientation (matrix[i * n + j] = 1 when
 * pressing cell j toggles cell i; cells row-major) and *grid_out to a
 * malloc'd array of n values 0/1; free both with free(). On failure the
 * four outputs are 0/NULL and the code is
 *   QN_ESYNTAX  malformed ID; err->line = 1 and err->col = the 1-based
 *               position of the first offending character
 *   QN_EINVAL   W or H is 0, or W*H is beyond Flip's own limit
 *               ((W*H)^2 + 3 must fit in a C int); col as above
 *   QN_ELIMIT   W*H is over QN_RULES_MAX_CELLS (quench cannot hold it)
 *   QN_ENOMEM   out of memory
 */
int qn_flip_decode(const char *id, int *w_out, int *h_out, uint8_t **matrix_out,
                   uint8_t **grid_out, qn_err *err);

#endif
