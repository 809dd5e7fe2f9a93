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

    qn_sparse_gen *sgen; /* k > 2 walk: nkgen sparse generators */
};

/*
 * Run this system's k = 2 coset walks with the implementation isa
 * (minpress_gf2.h's QN_WALK2_*), for the tests and benchmarks that compare
 * them. Returns 0, changing nothing, if the CPU cannot run it.
 */
int qn_system__set_walk(qn_system *sys, int isa);

#endif
