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
void qn__walk2(const uint64_t *kb, int d, int sw, uint64_t *cur,
               uint64_t *best, uint64_t *bestw, uint64_t *nopt);


/*
 * Tests and benchmarks only: force one implementation (QN_WALK2_AUTO picks
 * the fastest the CPU has). QN_WALK2_AVX512_STEP is the one-vector-a-step
 * AVX-512 loop the block walk replaced (issue #24), kept so that the
 * benchmark can time both in one run. Returns 0 if the CPU cannot run the
 * one asked for. Not thread-safe; never called by the library itself.
 */
enum {
    QN_WALK2_AUTO,
    QN_WALK2_SCALAR,
    QN_WALK2_AVX2,
    QN_WALK2_AVX512,
    QN_WALK2_AVX512_STEP
};
int qn__walk2_select(int isa);

#endif
