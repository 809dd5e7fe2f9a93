/*
 * walk_simd.h: AVX-512 pieces shared by the coset walks' block loops
 * (minpress_gf2.c for k = 2, minpress_z3.c for k = 3). Private to
 * src/engine; every function is static inline with its own target, so a
 * file that includes this header still builds for any x86-64 CPU and calls
 * them only from code the CPU check has chosen.
 */
#ifndef QN_WALK_SIMD_H
#define QN_WALK_SIMD_H

#if defined(__x86_64__) && defined(__GNUC__)
#include <immintrin.h>

/*
 * Lane i of the result = the sum of the eight 64-bit lanes of c[i], for
 * i = 0..7: one transposing tree of shuffles instead of eight horizontal
 * reductions, so that a block's weights are summed side by side.
 */
__attribute__((target("avx512f"))) static inline __m512i
qn__sum8(const __m512i c[8])
{
    __m512i u[4], v[2];

#pragma GCC unroll 4
    for (int i = 0; i < 4; i++)
        u[i] = _mm512_add_epi64(_mm512_unpacklo_epi64(c[2 * i], c[2 * i + 1]),
                                _mm512_unpackhi_epi64(c[2 * i], c[2 * i + 1]));
#pragma GCC unroll 2
    for (int i = 0; i < 2; i++)
        v[i] = _mm512_add_epi64(
            _mm512_shuffle_i64x2(u[2 * i], u[2 * i + 1], 0x88),
            _mm512_shuffle_i64x2(u[2 * i], u[2 * i + 1], 0xdd));
    return _mm512_add_epi64(_mm512_shuffle_i64x2(v[0], v[1], 0x88),
                            _mm512_shuffle_i64x2(v[0], v[1], 0xdd));
}
#endif

#endif
