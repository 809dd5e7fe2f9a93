/*
 * layout.h: board geometry. A layout is a rectangle of h rows by w columns
 * of *positions*; each position holds an active cell or a hole. Active cells
 * are numbered 0..ncells-1 in row-major order of their positions; that
 * number is the index used by states, press matrices and rule files.
 *
 * Kinds (see docs/RULES.md for pictures):
 *   GRID     square cells; (dx, dy) = (column, row) steps; optional wrap.
 *   HEX      pointy-top hexes in an "odd-r" offset rectangle: odd rows
 *            (1, 3, ...) sit half a cell to the right of even rows.
 *   HEXAGON  a hexagon of side s in axial coordinates (q, r), stored in a
 *            (2s-1) x (2s-1) rectangle: row = r + s-1, column = q + s-1;
 *            positions with |q + r| > s-1 are holes.
 *   GRAPH    n cells with no geometry: one row of n positions.
 * Hex offsets (dq, dr) are axial: q grows to the east, r to the south-east;
 * the six neighbours are (+1,0) (-1,0) (0,+1) (0,-1) (+1,-1) (-1,+1).
 */
#ifndef QN_LAYOUT_H
#define QN_LAYOUT_H

#include <stddef.h>
#include <stdint.h>

#include "base/err.h"

#define QN_LAYOUT_MAX_SIDE 4096           /* w and h are 1..this */
#define QN_LAYOUT_MAX_POSITIONS (1 << 20) /* w * h at most this */
#define QN_LAYOUT_MAX_HEXAGON 37          /* hexagon side 1..37 (3997 cells) */

typedef enum qn_layout_kind {
    QN_LAYOUT_GRID,
    QN_LAYOUT_HEX,
    QN_LAYOUT_HEXAGON,
    QN_LAYOUT_GRAPH,
} qn_layout_kind;

enum qn_layout_wrap {
    QN_WRAP_NONE = 0,
    QN_WRAP_X = 1 << 0, /* column w-1 is next to column 0 (cylinder) */
    QN_WRAP_Y = 1 << 1, /* row h-1 is next to row 0 */
    QN_WRAP_BOTH = QN_WRAP_X | QN_WRAP_Y, /* torus */
};

/*
 * A transparent value; owns `index` and `pos`. Invariants: 1 <= w, h;
 * w * h <= QN_LAYOUT_MAX_POSITIONS; index[r * w + c] is the cell at row r,
 * column c or -1 for a hole; pos[i] = r * w + c of cell i, increasing in i;
 * 1 <= ncells <= w * h. wrap is only non-zero for GRID; side only for
 * HEXAGON. Initialise with one of qn_layout_init_*, release with
 * qn_layout_release().
 */
typedef struct qn_layout {
    qn_layout_kind kind;
    int w, h;   /* positions per row, rows */
    int wrap;   /* enum qn_layout_wrap bits */
    int side;   /* hexagon side s, else 0 */
    int ncells; /* active cells */
    int *index; /* w * h entries: cell index or -1 */
    int *pos;   /* ncells entries: position of each cell */
} qn_layout;

/*
 * Initialise a w x h grid (QN_LAYOUT_GRID) or odd-r hex rectangle
 * (QN_LAYOUT_HEX). `active` is NULL (every position is a cell) or w * h
 * flags, non-zero for a cell. wrap must be 0 for HEX. Returns QN_OK, or
 * QN_EINVAL (w or h outside 1..QN_LAYOUT_MAX_SIDE, w * h over
 * QN_LAYOUT_MAX_POSITIONS, or no active cell) with `l` left empty
 * (qn_layout_release is still safe).
 */
int qn_layout_init_grid(qn_layout *l, int w, int h, int wrap,
                        const uint8_t *active, qn_err *err);
int qn_layout_init_hex(qn_layout *l, int w, int h, const uint8_t *active,
                       qn_err *err);
/* A hexagon of side 1..QN_LAYOUT_MAX_HEXAGON; QN_EINVAL otherwise. */
int qn_layout_init_hexagon(qn_layout *l, int side, qn_err *err);
/* n cells, 1..QN_LAYOUT_MAX_SIDE, no geometry; QN_EINVAL otherwise. */
int qn_layout_init_graph(qn_layout *l, int n, qn_err *err);

/* Free the arrays and zero `l`; safe on a zeroed or released layout. */
void qn_layout_release(qn_layout *l);
/* Deep copy into uninitialised `dst`. */
int qn_layout_copy(qn_layout *dst, const qn_layout *src); /* QN_ENOMEM */

/* The cell at row r, column c, or -1 (a hole or outside the rectangle). */
int qn_layout_cell(const qn_layout *l, int r, int c);
/* Row and column of cell i (0 <= i < ncells). */
void qn_layout_rc(const qn_layout *l, int i, int *r_out, int *c_out);

/*
 * The cell reached from cell i by the offset (dx, dy): (column, row) steps
 * on grids, applying wrap; axial (dq, dr) on hex kinds. Returns -1 when the
 * offset leaves the board or lands on a hole; always -1 for GRAPH unless
 * the offset is (0, 0).
 */
int qn_layout_step(const qn_layout *l, int i, int dx, int dy);

/*
 * The offset qn_layout_step takes from cell `from` to cell `to`, into
 * *dx_out, *dy_out: on a wrapped axis the one in 0..w-1 (0..h-1), so that
 * every pair of cells the same step apart gets the same offset. Returns
 * 0, or -1 on a GRAPH (no geometry) unless from == to.
 */
int qn_layout_offset(const qn_layout *l, int from, int to, int *dx_out,
                     int *dy_out);

/* "grid", "hex", "hexagon" or "graph". */
const char *qn_layout_kind_name(qn_layout_kind kind);

/*
 * Candidate symmetries of the board's shape: cell permutations p (p[i] =
 * image of cell i) induced by the point symmetries of the lattice (8 for
 * squares, 4 when w != h; 12 for hex kinds) composed with the translations
 * allowed by wrap, kept when they map every cell onto a cell. Identity is
 * first; duplicates are removed. Sets *perms_out to a malloc'd array of
 * *n_out * ncells ints (free() it) and *point_out (if not NULL) to a
 * malloc'd array of *n_out point-transform numbers t: for GRID, t = 0..3
 * are rotations by t * 90 degrees and 4..7 mirrors; for hex kinds, 0..5
 * rotations by t * 60 degrees and 6..11 mirrors (a permutation with t = 0
 * other than the identity is a pure translation). GRAPH boards have only
 * the identity. When more than `max_candidates` candidates would be
 * tried, translations are skipped and *truncated_out is set to 1.
 */
int qn_layout_symmetries(const qn_layout *l, size_t max_candidates,
                         int **perms_out, int **point_out, size_t *n_out,
                         int *truncated_out); /* QN_OK or QN_ENOMEM */

#endif
