/*
 * zk_rowop.c: the inner loop of the Z/k elimination, the row operation
 * dst -= f src (mod q), in SSSE3 (baseline x86-64-v2), AVX2 and AVX-512BW
 * versions; the widest the CPU runs is picked at run time.
 */
#include "zk_internal.h"

#include <stdbool.h>

#include "zk_simd.h"

/*
 * Multiplying a residue b < 256 by a fixed f splits on the nibbles of b:
 * f b = f lo + (16 f) hi, so two 16-entry tables (tab[0..15] = f j mod q,
 * tab[16..31] = 16 f j mod q) turn the product into two byte shuffles
 * (pshufb). For q <= 16 every residue is one nibble and the second table
 * is all zero, so one shuffle is enough. Subtracting mod q in bytes:
 * d - g wraps below zero exactly when d < g, i.e. when max(d, g) != d, and
 * then adding q brings it back into 0..q-1. For q = 2^e, arithmetic mod 256
 * reduces to arithmetic mod q, so a mask replaces the comparison.
 */

static inline unsigned submod(unsigned d, unsigned g, unsigned q)
{
    return d >= g ? d - g : d + q - g;
}

static void rowop_tail(uint8_t *dst, const uint8_t *src, size_t len,
                       const uint8_t *tab, unsigned q)
{
    size_t j;

    for (j = 0; j < len; j++) {
        unsigned s = src[j];
        dst[j] = (uint8_t)submod(submod(dst[j], tab[s & 15], q),
                                 tab[16 + (s >> 4)], q);
    }
}

#if ZK_X86 && defined(__SSSE3__) && !defined(QN_ZK_NO_SIMD)
static void rowop_ssse3(uint8_t *dst, const uint8_t *src, size_t len,
                        const uint8_t *tab, unsigned q)
{
    const __m128i tl = _mm_loadu_si128((const __m128i *)tab);
    const __m128i th = _mm_loadu_si128((const __m128i *)(tab + 16));
    const __m128i nib = _mm_set1_epi8(0x0f);
    const __m128i qv = _mm_set1_epi8((char)q);
    const bool pow2 = !(q & (q - 1)), small = q <= 16;
    const __m128i mask = _mm_set1_epi8((char)(q - 1));
    size_t j = 0;

    for (; j + 16 <= len; j += 16) {
        __m128i s = _mm_loadu_si128((const __m128i *)(src + j));
        __m128i d = _mm_loadu_si128((const __m128i *)(dst + j));
        __m128i g = _mm_shuffle_epi8(tl, _mm_and_si128(s, nib));
        __m128i ge, r;

        if (pow2) {
            d = _mm_sub_epi8(d, g);
            if (!small)
                d = _mm_sub_epi8(
                    d, _mm_shuffle_epi8(
                           th, _mm_and_si128(_mm_srli_epi16(s, 4), nib)));
            d = _mm_and_si128(d, mask);
        } else {
            ge = _mm_cmpeq_epi8(_mm_max_epu8(d, g), d);
            r = _mm_sub_epi8(d, g);
            d = _mm_add_epi8(r, _mm_andnot_si128(ge, qv));
            if (!small) {
                g = _mm_shuffle_epi8(th,
                                     _mm_and_si128(_mm_srli_epi16(s, 4), nib));
                ge = _mm_cmpeq_epi8(_mm_max_epu8(d, g), d);
                r = _mm_sub_epi8(d, g);
                d = _mm_add_epi8(r, _mm_andnot_si128(ge, qv));
            }
        }
        _mm_storeu_si128((__m128i *)(dst + j), d);
    }
    rowop_tail(dst + j, src + j, len - j, tab, q);
}
#endif

#if ZK_X86 && !defined(QN_ZK_NO_AVX2) && !defined(QN_ZK_NO_SIMD)
/*
 * The AVX2 loop is one function per case (power of two or not, one nibble
 * or two) so that no test sits inside it.
 */
#define ROWOP_AVX2(name, pow2, small)                                          \
    __attribute__((target("avx2"))) static void name(                          \
        uint8_t *dst, const uint8_t *src, size_t len, const uint8_t *tab,      \
        unsigned q)                                                            \
    {                                                                          \
        const __m256i tl = _mm256_broadcastsi128_si256(                        \
            _mm_loadu_si128((const __m128i *)tab));                            \
        const __m256i th = _mm256_broadcastsi128_si256(                        \
            _mm_loadu_si128((const __m128i *)(tab + 16)));                     \
        const __m256i nib = _mm256_set1_epi8(0x0f);                            \
        const __m256i qv = _mm256_set1_epi8((char)q);                          \
        const __m256i mask = _mm256_set1_epi8((char)(q - 1));                  \
        size_t j = 0;                                                          \
                                                                               \
        for (; j + 32 <= len; j += 32) {                                       \
            __m256i s = _mm256_loadu_si256((const __m256i *)(src + j));        \
            __m256i d = _mm256_loadu_si256((const __m256i *)(dst + j));        \
            __m256i g = _mm256_shuffle_epi8(tl, _mm256_and_si256(s, nib));     \
            __m256i h =                                                        \
                small                                                          \
                    ? g                                                        \
                    : _mm256_shuffle_epi8(                                     \
                          th, _mm256_and_si256(_mm256_srli_epi16(s, 4), nib)); \
            if (pow2) {                                                        \
                d = _mm256_sub_epi8(d, g);                                     \
                if (!small)                                                    \
                    d = _mm256_sub_epi8(d, h);                                 \
                d = _mm256_and_si256(d, mask);                                 \
            } else {                                                           \
                __m256i ge = _mm256_cmpeq_epi8(_mm256_max_epu8(d, g), d);      \
                d = _mm256_add_epi8(_mm256_sub_epi8(d, g),                     \
                                    _mm256_andnot_si256(ge, qv));              \
                if (!small) {                                                  \
                    ge = _mm256_cmpeq_epi8(_mm256_max_epu8(d, h), d);          \
                    d = _mm256_add_epi8(_mm256_sub_epi8(d, h),                 \
                                        _mm256_andnot_si256(ge, qv));          \
                }                                                              \
            }                                                                  \
            _mm256_storeu_si256((__m256i *)(dst + j), d);                      \
        }                                                                      \
        rowop_tail(dst + j, src + j, len - j, tab, q);                         \
    }

ROWOP_AVX2(rowop_avx2_p2s, true, true)
ROWOP_AVX2(rowop_avx2_p2, true, false)
ROWOP_AVX2(rowop_avx2_s, false, true)
ROWOP_AVX2(rowop_avx2, false, false)
#endif

#if ZK_X86 && !defined(QN_ZK_NO_AVX512) && !defined(QN_ZK_NO_AVX2) &&          \
    !defined(QN_ZK_NO_SIMD)
#define ZK_AVX512 1
/*
 * AVX-512BW: the same arithmetic 64 bytes at a time; the borrow test is a
 * mask compare and the fix-up a masked add. The last partial vector is
 * done with masked loads and stores (masked-off bytes are never touched).
 */
static inline __attribute__((target("avx512bw"))) __m512i
submod512(__m512i d, __m512i g, __m512i qv, __m512i mask, bool pow2)
{
    if (pow2)
        return _mm512_and_si512(_mm512_sub_epi8(d, g), mask);
    return _mm512_mask_add_epi8(_mm512_sub_epi8(d, g),
                                _mm512_cmplt_epu8_mask(d, g),
                                _mm512_sub_epi8(d, g), qv);
}

#define ROWOP_AVX512(name, pow2, small)                                        \
    __attribute__((target("avx512bw"))) static void name(                      \
        uint8_t *dst, const uint8_t *src, size_t len, const uint8_t *tab,      \
        unsigned q)                                                            \
    {                                                                          \
        const __m512i tl =                                                     \
            _mm512_broadcast_i32x4(_mm_loadu_si128((const __m128i *)tab));     \
        const __m512i th = _mm512_broadcast_i32x4(                             \
            _mm_loadu_si128((const __m128i *)(tab + 16)));                     \
        const __m512i nib = _mm512_set1_epi8(0x0f);                            \
        const __m512i qv = _mm512_set1_epi8((char)q);                          \
        const __m512i mask = _mm512_set1_epi8((char)(q - 1));                  \
        size_t j;                                                              \
                                                                               \
        for (j = 0; j < len; j += 64) {                                        \
            __mmask64 m = len - j >= 64 ? ~(__mmask64)0                        \
                                        : (((__mmask64)1 << (len - j)) - 1);   \
            __m512i s = _mm512_maskz_loadu_epi8(m, src + j);                   \
            __m512i d = _mm512_maskz_loadu_epi8(m, dst + j);                   \
            d = submod512(d,                                                   \
                          _mm512_shuffle_epi8(tl, _mm512_and_si512(s, nib)),   \
                          qv, mask, pow2);                                     \
            if (!small)                                                        \
                d = submod512(                                                 \
                    d,                                                         \
                    _mm512_shuffle_epi8(                                       \
                        th, _mm512_and_si512(_mm512_srli_epi16(s, 4), nib)),   \
                    qv, mask, pow2);                                           \
            _mm512_mask_storeu_epi8(dst + j, m, d);                            \
        }                                                                      \
    }

ROWOP_AVX512(rowop_avx512_p2s, true, true)
ROWOP_AVX512(rowop_avx512_p2, true, false)
ROWOP_AVX512(rowop_avx512_s, false, true)
ROWOP_AVX512(rowop_avx512, false, false)
#else
#define ZK_AVX512 0
#endif

/*
 * The fastest row operation this CPU runs for modulus q. Building with
 * -DQN_ZK_NO_AVX2 or -DQN_ZK_NO_SIMD forces the slower paths, so that the
 * tests can exercise them on any machine.
 */
rowop_fn *qn_zk__pick_rowop(unsigned q)
{
#if ZK_X86 && !defined(QN_ZK_NO_AVX2) && !defined(QN_ZK_NO_SIMD)
    bool pow2 = !(q & (q - 1)), small = q <= 16;

#if ZK_AVX512
    if (__builtin_cpu_supports("avx512bw"))
        return pow2 ? (small ? rowop_avx512_p2s : rowop_avx512_p2)
                    : (small ? rowop_avx512_s : rowop_avx512);
#endif
    if (__builtin_cpu_supports("avx2"))
        return pow2 ? (small ? rowop_avx2_p2s : rowop_avx2_p2)
                    : (small ? rowop_avx2_s : rowop_avx2);
#endif
#if ZK_X86 && defined(__SSSE3__) && !defined(QN_ZK_NO_SIMD)
    (void)q;
    return rowop_ssse3;
#else
    (void)q;
    return rowop_tail;
#endif
}
