/*
 * minpress_z3.h: the k = 3 coset walk (private to minpress.c and its
 * tests): the word walk, and the packed walks that keep the vector in
 * SIMD registers.
 */
#ifndef QN_MINPRESS_Z3_H
#define QN_MINPRESS_Z3_H

#include <stdint.h>

#include "engine/minpress.h"
#include "system_internal.h"

/*
 * The exact walk of the coset x + span(kernel) of a k = 3 system: x holds
 * a solution (qn_system_solve's) and receives the lexicographically
 * smallest optimum; sets out->presses and out->noptimal. The
 * implementation is sys->walk_isa's (QN_WALK2_*, minpress_gf2.h). QN_OK,
 * or QN_ENOMEM with x unchanged.
 */
int qn__minpress_z3(const qn_system *sys, qn_minpress *out, uint8_t *x);

/* The most words a plane the AVX-512 walk (4 zmm) and AVX2 walk take. */
enum { QN_WALK3_MAXW = 32, QN_WALK3_MAXW_AVX2 = 16 };

/*
 * The packed walk. A vector over Z/3 is two planes of pw words, (h, l) =
 * (v == 2, v == 1) a bit; gen holds d generators as {h[pw], l[pw]} each,
 * order their orders (each > 1, the digits of the mixed-radix Gray code),
 * d < 64. The 3^d vectors (xh, xl) + span(gen) are walked; on return
 * (xh, xl) is the lexicographically smallest (bit 0 of word 0 first) of
 * those of the least weight popcount(l) + 2 popcount(h), *bestw that
 * weight and *nopt how many attain it. These depend only on the set, so
 * every isa agrees exactly. Requires 0 < pw <= QN_WALK3_MAXW. The SIMD
 * walks take pw a multiple of 8 (AVX2: up to QN_WALK3_MAXW_AVX2) and fall
 * back to the scalar one otherwise, as on a CPU without the isa.
 */
void qn__walk3(int isa, const uint64_t *gen, const unsigned *order, int d,
               int pw, uint64_t *xh, uint64_t *xl, uint64_t *bestw,
               uint64_t *nopt);

#endif
