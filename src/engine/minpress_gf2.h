/*
 * minpress_gf2.h: the k = 2 coset walk's inner loop (private to minpress.c).
 */
#ifndef QN_MINPRESS_GF2_H
#define QN_MINPRESS_GF2_H

#include <stdint.h>

/*
 * Walk the 2^d vectors cur + span(kb[0..d)) (cur is scratch: its contents
 * afterwards are unspecified). Each vector is sw words (sw a multiple of 4
 * when sw <= 16, padding words zero); d < 64. Writes the least popcount to
 * *bestw, how many vectors attain it to *nopt, and the lexicographically
 * smallest of them (bit 0 of word 0 first) to best. These three depend
 * only on the set of vectors, so every implementation may visit them in
 * its own order and still agree with the others exactly.
 */
void qn__walk2(int isa, const uint64_t *kb, int d, int sw, uint64_t *cur,
               uint64_t *best, uint64_t *bestw, uint64_t *nopt);

/*
 * The implementations of the walk. isa QN_WALK2_AUTO picks the fastest the
 * CPU has; the others exist so that a test or benchmark can run each on
 * its own system (qn_system__set_walk, system_internal.h): the choice is
 * per system, never process-wide. QN_WALK2_AVX512_STEP is the
 * one-vector-a-step AVX-512 loop the block walk replaced (issue #24), kept
 * so that the benchmark can time both in one run.
 */
enum {
    QN_WALK2_AUTO,
    QN_WALK2_SCALAR,
    QN_WALK2_AVX2,
    QN_WALK2_AVX512,
    QN_WALK2_AVX512_STEP
};

/* Whether this CPU can run isa (QN_WALK2_AUTO and SCALAR always). */
int qn__walk2_can(int isa);

#endif
