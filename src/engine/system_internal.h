/*
 * system_internal.h: the layout of qn_system, shared by system.c (which
 * builds it) and minpress.c (which walks its kernel). Not installed.
 */
#ifndef QN_SYSTEM_INTERNAL_H
#define QN_SYSTEM_INTERNAL_H

#include <stddef.h>
#include <stdint.h>

#include "engine/gf2.h"
#include "engine/system.h"
#include "engine/zk.h"

/* A kernel generator as the list of cells it changes (for k > 2 walks). */
typedef struct qn_sparse_gen {
    int nnz;
    int *cell;     /* nnz cells, increasing */
    uint8_t *up;   /* amount added when the digit goes up (g[cell]) */
    uint8_t *down; /* amount added when it goes down (k - g[cell]) */
} qn_sparse_gen;

struct qn_system {
    int nrows, ncols;
    unsigned k;
    uint8_t *a; /* nrows * ncols, the matrix as given */
    int symmetric;

    qn_gf2fact gf2; /* k == 2 only */
    qn_zfact *zf;   /* k > 2 only */

    size_t nkgen;     /* kernel generators, invariant-factor form */
    uint8_t *kgen;    /* nkgen * ncols */
    unsigned *korder; /* nkgen orders, each dividing the next */
    size_t ncgen;     /* cokernel generators / conditions */
    uint8_t *cond;    /* ncgen * nrows */
    unsigned *corder;

    /*
     * k == 2 walk: only cells where some kernel generator is 1 ("the
     * support") vary over the coset, so the walk works on those bits alone,
     * packed into sw words; every other cell keeps its value from x0.
     */
    int nsupp;
    int *supp;       /* nsupp cells, increasing */
    int sw;          /* words per packed support vector */
    uint64_t *kbits; /* nkgen * sw: generators restricted to supp */
    int walk_isa;    /* QN_WALK2_*: AUTO unless qn_system__set_walk */

    /*
     * k == 2 with at most 64 rows and columns: a whole state is one word
     * (row r at bit r) and a solution too, kept "in cell order" (column
     * c at bit 63 - c) so that the smallest number is the
     * lexicographically smallest plan. A state is solvable when each of
     * the nscond condition words meets it in an even number of bits;
     * then the XOR of x0col[r] over its set bits is a solution (a linear
     * right inverse, read off the gf2 factorisation), and the coset is
     * that plus the span of the kernel words kword[0..nkgen).
     */
    int word; /* the fields below are set (qn_system__set_word) */
    int nscond;
    uint64_t *scond; /* nscond */
    uint64_t *x0col; /* nrows */
    uint64_t *kword; /* nkgen */

    qn_sparse_gen *sgen; /* k > 2 walk: nkgen sparse generators */
};

/*
 * Run this system's k = 2 coset walks with the implementation isa
 * (minpress_gf2.h's QN_WALK2_*), for the tests and benchmarks that compare
 * them. Returns 0, changing nothing, if the CPU cannot run it.
 */
int qn_system__set_walk(qn_system *sys, int isa);

/*
 * Use (on = 1) or not (0) the one-word form above in qn_minpress_solve,
 * for the tests that compare it with the walk. Returns 0, changing
 * nothing, when the system has no such form (k > 2 or over 64 cells).
 */
int qn_system__set_word(qn_system *sys, int on);

/*
 * The one-word form's solution of A x = s (sys->word set): x0 in cell
 * order, the one with every non-pivot cell 0 (as qn_system_solve's), and
 * QN_OK; or QN_EUNSOLVABLE.
 */
int qn_system__word_solve(const qn_system *sys, const uint8_t *s, uint64_t *x0);

#endif
