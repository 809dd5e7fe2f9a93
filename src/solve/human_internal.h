/*
 * human_internal.h: what human.c (sides, levels) and human_share.c (the
 * exact shares) share: the sides of a board and their chases.
 */
#ifndef QN_HUMAN_INTERNAL_H
#define QN_HUMAN_INTERNAL_H

#include "engine/system.h"
#include "solve/human.h"

#define QN_HUMAN_MAX_SIDES 6

typedef struct qn_human_side {
    const char *name;
    int chases;         /* 1: a chase order exists */
    int nseq;           /* cells of every row but the last, in walk order */
    int *seq;           /* nseq cells */
    int *pivot;         /* nseq: the cell of the next row pressed for seq[i] */
    uint8_t *inv;       /* nseq: the inverse of A[seq[i]][pivot[i]] mod k */
    int nlast, *last;   /* the last row's cells */
    int nfirst, *first; /* the first row's cells */
    qn_system *table;   /* nlast x nfirst: residual of each first-row press */
    int nrows, *rowstart; /* the walk's rows: seq[rowstart[r]..rowstart[r +
                             1]) is row r (rowstart[nrows - 1] = nseq) */
    uint64_t *rbits;      /* k = 2, at most QN_HUMAN_RBITS_CELLS cells, a last
                             row of at most 64: the last row a chase of each
                             cell alone leaves, as bits (the chase is linear:
                             a state's is the XOR of its cells'); else NULL */
} qn_human_side;
#define QN_HUMAN_RBITS_CELLS 256

struct qn_human {
    const qn_solver *solver;
    int n;
    unsigned k;
    const uint8_t *a;
    int *colstart, *colrow; /* the nonzeros of each column of A */
    uint8_t *colval;
    size_t nsides;
    qn_human_side side[QN_HUMAN_MAX_SIDES];
};

/* Run side s's chase on `need` (what each cell still needs, mod k), in
 * place: afterwards only the last row's cells may be non-zero. */
void qn_human__chase(const qn_human *h, const qn_human_side *s, uint8_t *need);

/* 1 when the presses of plan x (ncells counts) have pairwise disjoint
 * footprints; seen is ncells bytes of scratch. */
int qn_human__disjoint(const qn_human *h, const uint8_t *x, uint8_t *seen);
/* The rungs above spot: chase, table or global for a solvable state that
 * is not spot (*side as qn_human_level's). QN_OK, or QN_ENOMEM. */
int qn_human__rungs(const qn_human *h, const uint8_t *state, int *level,
                    int *side, qn_err *err);

#endif
