/*
 * minpress_gf2.c: the k = 2 minimal-press walk, the hottest loop in quench.
 *
 * One step of the Gray walk XORs a generator into the current vector and
 * popcounts the result. For boards of up to 1024 cells the vector is at
 * most four 256-bit registers, so the SIMD versions keep it in registers
 * for the whole walk and touch memory only to load the generator: AVX-512
 * VPOPCNTQ where the CPU has it, AVX2 with the nibble-table popcount
 * (Mula, Kurz and Lemire) otherwise, and portable scalar code as the
 * fallback and for larger boards. All three visit the same vectors in the
 * same order and break ties the same way, so results never depend on the
 * machine.
 */
#include "minpress_gf2.h"

#include <string.h>

#if defined(__x86_64__) && defined(__GNUC__)
#include <immintrin.h>
#define QN_X86 1
#endif

/* Is a lexicographically smaller than b (first differing bit 0 wins)? */
static int bits_less(const uint64_t *a, const uint64_t *b, int sw)
{
    for (int w = 0; w < sw; w++) {
        uint64_t d = a[w] ^ b[w];
        if (d)
            return (a[w] & (d & -d)) == 0;
    }
    return 0;
}

/* Record the vector in `tmp` (weight wt) against the best so far. */
static inline void consider(const uint64_t *tmp, uint64_t wt, uint64_t *best,
                            uint64_t *bw, uint64_t *cnt, int sw)
{
    if (wt < *bw) {
        *bw = wt;
        *cnt = 1;
        memcpy(best, tmp, (size_t)sw * sizeof(*tmp));
    } else {
        ++*cnt;
        if (bits_less(tmp, best, sw))
            memcpy(best, tmp, (size_t)sw * sizeof(*tmp));
    }
}

static void walk_scalar(const uint64_t *kb, int d, int sw, uint64_t *cur,
                        uint64_t *best, uint64_t *bestw, uint64_t *nopt)
{
    uint64_t bw = 0, cnt = 1, steps = (uint64_t)1 << d;

    for (int w = 0; w < sw; w++)
        bw += (uint64_t)__builtin_popcountll(cur[w]);
    memcpy(best, cur, (size_t)sw * sizeof(*cur));
    for (uint64_t t = 1; t < steps; t++) {
        const uint64_t *g = kb + (size_t)__builtin_ctzll(t) * sw;
        uint64_t wt = 0;
        for (int w = 0; w < sw; w++) {
            cur[w] ^= g[w];
            wt += (uint64_t)__builtin_popcountll(cur[w]);
        }
        if (wt <= bw)
            consider(cur, wt, best, &bw, &cnt, sw);
    }
    *bestw = bw;
    *nopt = cnt;
}

#ifdef QN_X86
/*
 * The register-resident walks. NV (1..4) 256-bit vectors; the macro keeps
 * the two SIMD popcounts in one body so their control flow cannot drift.
 */
#define WALK_SIMD(NAME, TARGET, POPVEC)                                      \
    __attribute__((target(TARGET))) static void NAME(                        \
        const uint64_t *kb, int d, int sw, uint64_t *cur, uint64_t *best,    \
        uint64_t *bestw, uint64_t *nopt)                                     \
    {                                                                        \
        __m256i v[4], acc;                                                   \
        uint64_t bw = 0, cnt = 1, steps = (uint64_t)1 << d;                  \
        uint64_t lanes[4], tmp[16];                                          \
        int nv = sw / 4;                                                     \
        for (int i = 0; i < 4; i++)                                          \
            v[i] = i < nv ? _mm256_loadu_si256((const __m256i *)(cur + 4 * i)) \
                          : _mm256_setzero_si256();                          \
        for (int w = 0; w < sw; w++)                                         \
            bw += (uint64_t)__builtin_popcountll(cur[w]);                    \
        memcpy(best, cur, (size_t)sw * sizeof(*cur));                        \
        for (uint64_t t = 1; t < steps; t++) {                               \
            const uint64_t *g = kb + (size_t)__builtin_ctzll(t) * sw;        \
            uint64_t wt;                                                     \
            acc = _mm256_setzero_si256();                                    \
            for (int i = 0; i < nv; i++) {                                   \
                v[i] = _mm256_xor_si256(                                     \
                    v[i], _mm256_loadu_si256((const __m256i *)(g + 4 * i))); \
                acc = _mm256_add_epi64(acc, POPVEC(v[i]));                   \
            }                                                                \
            _mm256_storeu_si256((__m256i *)lanes, acc);                      \
            wt = lanes[0] + lanes[1] + lanes[2] + lanes[3];                  \
            if (wt > bw)                                                     \
                continue;                                                    \
            for (int i = 0; i < nv; i++)                                     \
                _mm256_storeu_si256((__m256i *)(tmp + 4 * i), v[i]);         \
            consider(tmp, wt, best, &bw, &cnt, sw);                          \
        }                                                                    \
        for (int i = 0; i < nv; i++)                                         \
            _mm256_storeu_si256((__m256i *)(cur + 4 * i), v[i]);             \
        *bestw = bw;                                                         \
        *nopt = cnt;                                                         \
    }

/* Per-64-bit-lane popcount from a 16-entry nibble table (AVX2). */
__attribute__((target("avx2"))) static inline __m256i pop_avx2(__m256i x)
{
    const __m256i table = _mm256_setr_epi8(
        0, 1, 1, 2, 1, 2, 2, 3, 1, 2, 2, 3, 2, 3, 3, 4, 0, 1, 1, 2, 1, 2, 2,
        3, 1, 2, 2, 3, 2, 3, 3, 4);
    const __m256i low = _mm256_set1_epi8(0x0f);
    __m256i lo = _mm256_and_si256(x, low);
    __m256i hi = _mm256_and_si256(_mm256_srli_epi16(x, 4), low);
    __m256i bytes = _mm256_add_epi8(_mm256_shuffle_epi8(table, lo),
                                    _mm256_shuffle_epi8(table, hi));
    return _mm256_sad_epu8(bytes, _mm256_setzero_si256());
}

__attribute__((target("avx512vl,avx512vpopcntdq"))) static inline __m256i
pop_avx512(__m256i x)
{
    return _mm256_popcnt_epi64(x);
}

WALK_SIMD(walk_avx2, "avx2", pop_avx2)
WALK_SIMD(walk_avx512, "avx2,avx512vl,avx512vpopcntdq", pop_avx512)
#endif

static int forced = QN_WALK2_AUTO;

int qn__walk2_select(int isa)
{
#ifdef QN_X86
    __builtin_cpu_init();
    if (isa == QN_WALK2_AVX2 && !__builtin_cpu_supports("avx2"))
        return 0;
    if (isa == QN_WALK2_AVX512 &&
        !(__builtin_cpu_supports("avx512vpopcntdq") &&
          __builtin_cpu_supports("avx512vl")))
        return 0;
#else
    if (isa == QN_WALK2_AVX2 || isa == QN_WALK2_AVX512)
        return 0;
#endif
    forced = isa;
    return 1;
}

void qn__walk2(const uint64_t *kb, int d, int sw, uint64_t *cur,
               uint64_t *best, uint64_t *bestw, uint64_t *nopt)
{
#ifdef QN_X86
    if (sw > 0 && sw <= 16 && sw % 4 == 0 && forced != QN_WALK2_SCALAR) {
        __builtin_cpu_init();
        if ((forced == QN_WALK2_AUTO || forced == QN_WALK2_AVX512) &&
            __builtin_cpu_supports("avx512vpopcntdq") &&
            __builtin_cpu_supports("avx512vl")) {
            walk_avx512(kb, d, sw, cur, best, bestw, nopt);
            return;
        }
        if (__builtin_cpu_supports("avx2")) {
            walk_avx2(kb, d, sw, cur, best, bestw, nopt);
            return;
        }
    }
#endif
    walk_scalar(kb, d, sw, cur, best, bestw, nopt);
}
