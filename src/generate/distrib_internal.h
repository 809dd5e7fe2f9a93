/*
 * distrib_internal.h: the layout of qn_distrib and the image coordinates it
 * is built from, shared by distrib.c (the index and nth), distrib_coords.c
 * (the coordinates), distrib_bfs.c (the distances) and distrib_tiers.c.
 * Not installed.
 */
#ifndef QN_DISTRIB_INTERNAL_H
#define QN_DISTRIB_INTERNAL_H

#include <stddef.h>
#include <stdint.h>

#include "engine/system.h"
#include "generate/distrib.h"

#define MAXCOMP 32 /* components: log2(QN_DISTRIB_MAX_STATES) + margin */

/* The image as a sum of cyclic components (distrib_coords.c explains). */
typedef struct coords {
    int nrows, ncols;
    unsigned k;
    size_t ncomp;
    unsigned order[MAXCOMP];
    uint8_t *h;   /* ncomp * nrows */
    uint8_t *col; /* ncols * MAXCOMP: digit vector of each column */
    /* k = 2 only: */
    int *pivots; /* ncomp pivot columns (the rest are free) */
} coords;

struct qn_distrib {
    int nrows, ncols;
    unsigned k;
    uint64_t total;  /* image size = product of order[] */
    size_t len;      /* max presses + 1 */
    uint64_t *count; /* len entries */
    size_t ncomp;
    unsigned order[MAXCOMP];
    uint64_t stride[MAXCOMP];
    uint8_t *h;      /* ncomp * nrows */
    uint8_t *col;    /* ncols * MAXCOMP: each press's digit vector */
    int nw;          /* k = 2: words per packed state */
    uint64_t *hbits; /* k = 2: ncomp * nw, h packed */
    int wide;        /* 1: d16 holds distances, else d8 */
    uint8_t *d8;     /* total entries, or NULL */
    uint16_t *d16;   /* total entries, or NULL */
    unsigned bshift; /* directory block = 2^bshift entries */
    size_t nblocks;
    uint32_t *cum; /* len * (nblocks + 1): states with m
                      presses in blocks before b */
};

static inline unsigned dget(const qn_distrib *d, uint64_t i)
{
    return d->wide ? d->d16[i] : d->d8[i];
}

static inline void dset(qn_distrib *d, uint64_t i, unsigned v)
{
    if (d->wide)
        d->d16[i] = (uint16_t)v;
    else
        d->d8[i] = (uint8_t)v;
}

/* distrib.c: the offset (the state minus the goal) of image element idx
 * into d_out (nrows values). */
void qn_distrib__decode(const qn_distrib *d, uint64_t idx, uint8_t *d_out);
/* The image index of the i-th element at distance m (and set in bits,
 * when not NULL) from a directory cum (nblocks + 1 running counts of
 * such elements before each block of 2^bshift). */
uint64_t qn_distrib__find(const qn_distrib *d, const uint32_t *cum,
                          const uint64_t *bits, size_t m, uint64_t i);

/* distrib_coords.c: the coordinates of the image of sys's matrix (echelon
 * form for k = 2, diagonal form otherwise); release with the next (also
 * after a failure). QN_OK or QN_ENOMEM. */
int qn_distrib__coords(coords *c, const qn_system *sys);
void qn_distrib__coords_release(coords *c);

/*
 * distrib_bfs.c: the minimal press count of every image element into
 * d->d8 / d->d16 (allocated by the caller, index = mixed-radix digits of
 * c) and the number at each count into count[0 .. bound + 1] (zeroed by
 * the caller); bound bounds every distance. QN_OK or QN_ENOMEM.
 */
int qn_distrib__distances(qn_distrib *d, const coords *c, uint64_t *count,
                          size_t bound);

/*
 * distrib_unique.c: for every image element, whether it has exactly one
 * optimal plan: out[idx] is the lowest column of that plan's support
 * (QN_DISTRIB__GOAL for the goal), or QN_DISTRIB__MANY. out holds total
 * bytes. QN_ELIMIT when the rule has too many columns to say so in a byte.
 */
#define QN_DISTRIB__GOAL 254
#define QN_DISTRIB__MANY 255
int qn_distrib__unique(const qn_distrib *d, uint8_t *out, qn_err *err);

/* distrib_orbits.c: the cycles of the permutation p of n cells: cyc[i] =
 * the cycle of cell i, numbered from 0 in order of their first cell;
 * returns how many. */
int qn_distrib__cycles(const int *p, int n, int *cyc);

#endif
