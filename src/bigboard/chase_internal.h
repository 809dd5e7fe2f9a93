/*
 * chase_internal.h: the chase's state and equations, shared by its set-up
 * (chase.c), the block chase that builds the reduced matrix M
 * (chase_block.c) and the scalar chase that answers queries
 * (chase_solve.c). Private to src/bigboard; callers use quench/chase.h.
 *
 * Everything here works in the chase orientation; the public functions
 * translate states and press vectors at the boundary. Two chases share
 * one set of equations. The scalar chase follows one press vector: it
 * solves states and expands reduced solutions. The block chase follows up
 * to LANES affine forms at once, one lane per unknown, to build M column
 * block by column block.
 *
 * The equations below are static inline: both chases call them in their
 * inner loops.
 */
#ifndef QN_CHASE_INTERNAL_H
#define QN_CHASE_INTERNAL_H

#include <stdint.h>

#include "bigboard/chase.h"

struct qn_chase {
    int w, h;       /* the caller's board */
    int cw, ch;     /* chase orientation: width, height */
    int transposed; /* 1: (cx, cy) = (y, x) before the flip */
    int flipped;    /* 1: cx = cw - 1 - cx (pivot at the largest dx) */
    unsigned k;
    int noff;       /* merged offsets, amounts 1..k-1 */
    int (*off)[3];  /* chase orientation {dx, dy, amount}; pivot first */
    int d;          /* D = -dymin >= 1 */
    int dymax;      /* the greatest dy */
    int e;          /* the pivot's dx: the least dx of the top row */
    unsigned pmul;  /* -(pivot amount)^-1 mod k */
    int nu;         /* min(D, ch) rows of unknowns at the top */
    int ne;         /* edge unknowns (and constraints) per chased row */
    int nunk;       /* U = nu * cw + (ch - nu) * ne */
    qn_system *red; /* M: U x U, M y + c = 0 */
};

/* ---- the equations, shared by both chases ---- */

/* Rows 0..nchased-1 are chased: row r determines presses of row r + D. */
static inline int nchased(const qn_chase *c)
{
    return c->ch - c->nu;
}

/* Column of edge unknown q of a chased row (no equation determines it). */
static inline int edge_col(const qn_chase *c, int q)
{
    return c->e < 0 ? q : c->cw - c->ne + q;
}

/* Column of constraint q of a chased row (its cell determines nothing). */
static inline int cons_col(const qn_chase *c, int q)
{
    return c->e < 0 ? c->cw - c->ne + q : q;
}

/* Determined columns of a chased row: [jlo, jhi). */
static inline void det_range(const qn_chase *c, int *jlo, int *jhi)
{
    *jlo = c->e < 0 ? c->ne : 0;
    *jhi = c->e < 0 ? c->cw : c->cw - c->ne;
}

/* Unknown index of press (row p, column j), or -1 if p, j is determined. */
static inline int unknown_at(const qn_chase *c, int p, int j)
{
    if (p < c->nu)
        return p * c->cw + j;
    int q = c->e < 0 ? j : j - (c->cw - c->ne);
    if (q < 0 || q >= c->ne)
        return -1;
    return c->nu * c->cw + (p - c->d) * c->ne + q;
}

/* The first press row that holds unknown u. */
static inline int unknown_row(const qn_chase *c, int u)
{
    if (u < c->nu * c->cw)
        return u / c->cw;
    return c->d + (u - c->nu * c->cw) / c->ne;
}

/*
 * M (U x U, zeroed by the caller) by the block chase (chase_block.c), on
 * up to a few threads: QN_OK, or QN_ENOMEM when a thread could not get
 * its scratch (the others stop at their next block; m is then partial).
 */
int qn_chase__build_reduced(const qn_chase *c, uint8_t *m);

#endif
