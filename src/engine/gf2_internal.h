/*
 * gf2_internal.h: what gf2.c needs from the elimination engine in
 * gf2_elim.c. Private to the gf2 module; callers use quench/gf2.h.
 */
#ifndef QN_GF2_INTERNAL_H
#define QN_GF2_INTERNAL_H

#include <stdint.h>

#include "engine/gf2.h"

/*
 * Which instructions an elimination uses. The library always asks for
 * the best the CPU has; the tests ask for each of the others so that
 * every version runs on an AVX-512 machine, and the benchmarks time them.
 */
enum {
    QN_GF2_SIMD_BEST, /* AVX-512, else AVX2, else portable */
    QN_GF2_SIMD_AVX2, /* at most AVX2 */
    QN_GF2_SIMD_PLAIN /* the portable C kernels */
};

/*
 * How one call eliminates. The library passes NULL (by the matrix's size
 * and the CPU); a test passes a setting to reach each engine. A setting
 * is an argument, never process-wide state, so concurrent calls never see
 * each other's.
 */
typedef struct qn_gf2_tune {
    int panel; /* -1: by width; 0: Four Russians; 1: the panel engine */
    int tbits; /* 0: by size; 1, 2 or 4: bits per solve table group */
    int simd;  /* QN_GF2_SIMD_* */
} qn_gf2_tune;

/* qn_gf2mat_rank, qn_gf2mat_kernel and qn_gf2fact_init tuned by t. */
/* Out of memory: QN_ENOMEM as they do. */
int qn_gf2__rank(const qn_gf2mat *a, const qn_gf2_tune *t);
int qn_gf2__kernel(qn_gf2mat *out, const qn_gf2mat *a, const qn_gf2_tune *t);
int qn_gf2__fact_init(qn_gf2fact *f, const qn_gf2mat *a, const qn_gf2_tune *t);

/*
 * Bring m to echelon form in place by the Method of Four Russians and
 * return the rank r. Pivots are searched only in the first pivwords words
 * (columns 0 .. 64 * pivwords - 1); row operations still cover the whole
 * row, which is how gf2fact carries the identity block along.
 *
 * full = 0: row echelon form; every pivot row is reduced against the other
 *           pivots of its own 64-column word only.
 * full = 1: reduced row echelon form (pivot columns are unit columns).
 *
 * pivots (room for min(nrows, 64 * pivwords)) receives the r pivot
 * columns in increasing order; row i < r has its leading one at pivots[i].
 * QN_ENOMEM (m untouched) when its scratch cannot be allocated.
 */
int qn_gf2__echelon(qn_gf2mat *m, int *pivots, int pivwords, int full,
                    int simd);

/*
 * The same as qn_gf2__echelon(m, pivots, pivwords, 0), for large matrices:
 * several words of pivots per pass over the rows (gf2_panel.c). Rows
 * r.. end zero and row i < r has its leading one at pivots[i]; pivot
 * rows are reduced against the other pivots of their pass. QN_ENOMEM:
 * m untouched.
 */
int qn_gf2__echelon_panel(qn_gf2mat *m, int *pivots, int pivwords, int simd);

/*
 * Turn a row echelon form produced by qn_gf2__echelon(..., full = 0) with
 * rank r and the given pivots into the reduced row echelon form: QN_OK,
 * or QN_ENOMEM with m untouched.
 */
int qn_gf2__backreduce(qn_gf2mat *m, const int *pivots, int r, int simd);

/*
 * d[0..n) ^= s[0][0..n) ^ ... ^ s[k-1][0..n) for 1 <= k <= 8, with the
 * AVX2 kernel when the CPU has it.
 */
void qn_gf2__xor_rows(uint64_t *d, const uint64_t *const *s, int k, size_t n);

#endif
