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
#include "walk_simd.h"

#include <string.h>

#if defined(__x86_64__) && defined(__GNUC__)
#include <immintrin.h>
#define QN_X86 1
#endif

/* The block walk's fixed generators, and its vectors' padded words. */
enum { LOWB = 3, NL = 1 << LOWB, PADW = 16 };

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
#define WALK_SIMD(NAME, TARGET, POPVEC)                                        \
    __attribute__((target(TARGET))) static void NAME(                          \
        const uint64_t *kb, int d, int sw, uint64_t *cur, uint64_t *best,      \
        uint64_t *bestw, uint64_t *nopt)                                       \
    {                                                                          \
        __m256i v[4], acc;                                                     \
        uint64_t bw = 0, cnt = 1, steps = (uint64_t)1 << d;                    \
        uint64_t lanes[4], tmp[16];                                            \
        int nv = sw / 4;                                                       \
        for (int i = 0; i < 4; i++)                                            \
            v[i] = i < nv ? _mm256_loadu_si256((const __m256i *)(cur + 4 * i)) \
                          : _mm256_setzero_si256();                            \
        for (int w = 0; w < sw; w++)                                           \
            bw += (uint64_t)__builtin_popcountll(cur[w]);                      \
        memcpy(best, cur, (size_t)sw * sizeof(*cur));                          \
        for (uint64_t t = 1; t < steps; t++) {                                 \
            const uint64_t *g = kb + (size_t)__builtin_ctzll(t) * sw;          \
            uint64_t wt;                                                       \
            acc = _mm256_setzero_si256();                                      \
            for (int i = 0; i < nv; i++) {                                     \
                v[i] = _mm256_xor_si256(                                       \
                    v[i], _mm256_loadu_si256((const __m256i *)(g + 4 * i)));   \
                acc = _mm256_add_epi64(acc, POPVEC(v[i]));                     \
            }                                                                  \
            _mm256_storeu_si256((__m256i *)lanes, acc);                        \
            wt = lanes[0] + lanes[1] + lanes[2] + lanes[3];                    \
            if (wt > bw)                                                       \
                continue;                                                      \
            for (int i = 0; i < nv; i++)                                       \
                _mm256_storeu_si256((__m256i *)(tmp + 4 * i), v[i]);           \
            consider(tmp, wt, best, &bw, &cnt, sw);                            \
        }                                                                      \
        for (int i = 0; i < nv; i++)                                           \
            _mm256_storeu_si256((__m256i *)(cur + 4 * i), v[i]);               \
        *bestw = bw;                                                           \
        *nopt = cnt;                                                           \
    }

/* Per-64-bit-lane popcount from a 16-entry nibble table (AVX2). */
__attribute__((target("avx2"))) static inline __m256i pop_avx2(__m256i x)
{
    const __m256i table =
        _mm256_setr_epi8(0, 1, 1, 2, 1, 2, 2, 3, 1, 2, 2, 3, 2, 3, 3, 4, 0, 1,
                         1, 2, 1, 2, 2, 3, 1, 2, 2, 3, 2, 3, 3, 4);
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
WALK_SIMD(walk_avx512_step, "avx2,avx512vl,avx512vpopcntdq", pop_avx512)

/*
 * The AVX-512 block walk. The step loop above spends most of each step
 * summing the lanes of one popcount vector and comparing one weight, a
 * chain of shuffles that the XOR and popcount wait behind. Here the walk
 * is split: the first LOWB generators give the 8 fixed vectors L_j (every
 * sum of them), and a Gray walk over the other generators moves h; each
 * block is the 8 vectors h ^ L_j, which are independent of each other, so
 * their popcounts overlap, and one transposing tree of shuffles sums all 8
 * at once into a vector of 8 weights compared with the best in a single
 * instruction. Only a block holding a weight <= the best (rare after the
 * first few blocks) goes through consider() vector by vector. Vectors are
 * padded to whole 512-bit registers in local tables, 8 words (sw <= 8:
 * one register; sw = 4 packs two vectors into one) or 16 words (two).
 */
#define BLK_TARGET "avx512f,avx512vl,avx512vpopcntdq"

/*
 * Like qn__sum8 (walk_simd.h), for 4 registers each holding two 256-bit
 * vectors: c[j] holds vectors (a, b) = (0, 2), (1, 3), (4, 6), (5, 7) for
 * j = 0..3, so lane i of the result is the weight of vector i.
 */
__attribute__((target(BLK_TARGET))) static inline __m512i
sum4x2(const __m512i c[4])
{
    __m512i u0 = _mm512_add_epi64(_mm512_unpacklo_epi64(c[0], c[1]),
                                  _mm512_unpackhi_epi64(c[0], c[1]));
    __m512i u1 = _mm512_add_epi64(_mm512_unpacklo_epi64(c[2], c[3]),
                                  _mm512_unpackhi_epi64(c[2], c[3]));

    return _mm512_add_epi64(_mm512_shuffle_i64x2(u0, u1, 0x88),
                            _mm512_shuffle_i64x2(u0, u1, 0xdd));
}

/*
 * Register shapes: sw = 4 packs two vectors per register, sw = 8 takes
 * one, sw = 12 or 16 two (the padding words are zero).
 */
enum { SHAPE_HALF, SHAPE_ONE, SHAPE_TWO };

/* Weights of the 8 vectors h ^ L_j of one block. */
__attribute__((target(BLK_TARGET), always_inline)) static inline __m512i
block_weights(int shape, const __m512i h[2], const uint64_t (*low)[PADW],
              const uint64_t (*pair)[8])
{
    __m512i c[8];

    /* Unrolled, so that c[] lives in registers. */
    if (shape == SHAPE_HALF) {
#pragma GCC unroll 4
        for (int j = 0; j < 4; j++)
            c[j] = _mm512_popcnt_epi64(
                _mm512_xor_si512(h[0], _mm512_load_si512(pair[j])));
        return sum4x2(c);
    }
#pragma GCC unroll 8
    for (int j = 0; j < NL; j++) {
        c[j] = _mm512_popcnt_epi64(
            _mm512_xor_si512(h[0], _mm512_load_si512(low[j])));
        if (shape == SHAPE_TWO)
            c[j] = _mm512_add_epi64(c[j],
                                    _mm512_popcnt_epi64(_mm512_xor_si512(
                                        h[1], _mm512_load_si512(low[j] + 8))));
    }
    return qn__sum8(c);
}

/* The vectors of a block whose weight is <= the best, one by one. */
__attribute__((target(BLK_TARGET))) static void
block_consider(int sw, __mmask8 hit, __m512i wv, const uint64_t *h,
               const uint64_t (*low)[PADW], uint64_t *best, uint64_t *bw,
               uint64_t *cnt)
{
    uint64_t wt[8], tmp[PADW];

    _mm512_storeu_si512(wt, wv);
    for (; hit; hit &= hit - 1) {
        int j = __builtin_ctz(hit);

        if (wt[j] > *bw)
            continue; /* the best improved earlier in this block */
        for (int w = 0; w < sw; w++)
            tmp[w] = h[w] ^ low[j][w];
        consider(tmp, wt[j], best, bw, cnt, sw);
    }
}

/*
 * The walk for one register shape (inlined into walk_avx512 once per
 * shape, so the shape tests fold away). Requires d > LOWB.
 */
__attribute__((target(BLK_TARGET), always_inline)) static inline void
walk_blocks(int shape, const uint64_t (*gen)[PADW], const uint64_t (*low)[PADW],
            const uint64_t (*pair)[8], int d, int sw, uint64_t *hw,
            uint64_t *best, uint64_t *bestw, uint64_t *nopt)
{
    uint64_t bw = 64 * PADW + 1, cnt = 0; /* above every weight */
    uint64_t blocks = (uint64_t)1 << (d - LOWB);
    __m512i h[2];

    h[0] = _mm512_load_si512(hw);
    h[1] = _mm512_load_si512(hw + 8);
    for (uint64_t t = 0; t < blocks; t++) {
        __m512i wv;
        __mmask8 hit;

        if (t) {
            const uint64_t *g = gen[LOWB + __builtin_ctzll(t)];

            h[0] = _mm512_xor_si512(
                h[0], shape == SHAPE_HALF
                          ? _mm512_broadcast_i64x4(
                                _mm256_load_si256((const __m256i *)g))
                          : _mm512_load_si512(g));
            if (shape == SHAPE_TWO)
                h[1] = _mm512_xor_si512(h[1], _mm512_load_si512(g + 8));
        }
        wv = block_weights(shape, h, low, pair);
        hit = _mm512_cmple_epu64_mask(wv, _mm512_set1_epi64((long long)bw));
        if (hit) {
            _mm512_store_si512(hw, h[0]);
            _mm512_store_si512(hw + 8, h[1]);
            block_consider(sw, hit, wv, hw, low, best, &bw, &cnt);
        }
    }
    *bestw = bw;
    *nopt = cnt;
}

/* Requires d > LOWB and sw one of 4, 8, 12, 16. */
__attribute__((target(BLK_TARGET))) static void
walk_avx512(const uint64_t *kb, int d, int sw, uint64_t *cur, uint64_t *best,
            uint64_t *bestw, uint64_t *nopt)
{
    _Alignas(64) uint64_t gen[64][PADW], low[NL][PADW], pair[4][8];
    _Alignas(64) uint64_t hw[PADW];

    memset(gen, 0, (size_t)d * sizeof(gen[0]));
    for (int i = 0; i < d; i++)
        memcpy(gen[i], kb + (size_t)i * sw, (size_t)sw * sizeof(*kb));
    for (int j = 0; j < NL; j++)
        for (int w = 0; w < PADW; w++)
            low[j][w] = (j & 1 ? gen[0][w] : 0) ^ (j & 2 ? gen[1][w] : 0) ^
                        (j & 4 ? gen[2][w] : 0);
    for (int j = 0; j < 4; j++) { /* sw = 4: see sum4x2 */
        int a = (j & 1) | (j & 2) << 1;

        memcpy(pair[j], low[a], 4 * sizeof(uint64_t));
        memcpy(pair[j] + 4, low[a + 2], 4 * sizeof(uint64_t));
    }
    memset(hw, 0, sizeof(hw));
    memcpy(hw, cur, (size_t)sw * sizeof(*cur));
    if (sw == 4) {
        memcpy(hw + 4, cur, 4 * sizeof(*cur));
        walk_blocks(SHAPE_HALF, gen, low, pair, d, sw, hw, best, bestw, nopt);
    } else if (sw == 8) {
        walk_blocks(SHAPE_ONE, gen, low, pair, d, sw, hw, best, bestw, nopt);
    } else {
        walk_blocks(SHAPE_TWO, gen, low, pair, d, sw, hw, best, bestw, nopt);
    }
}
#endif

/* What this CPU can run: QN_WALK2_AVX512, QN_WALK2_AVX2 or SCALAR. */
static int best_isa(void)
{
#ifdef QN_X86
    __builtin_cpu_init();
    if (__builtin_cpu_supports("avx512f") &&
        __builtin_cpu_supports("avx512vl") &&
        __builtin_cpu_supports("avx512vpopcntdq"))
        return QN_WALK2_AVX512;
    if (__builtin_cpu_supports("avx2"))
        return QN_WALK2_AVX2;
#endif
    return QN_WALK2_SCALAR;
}

int qn__walk2_can(int isa)
{
    int have = best_isa();

    if (isa == QN_WALK2_AVX512 || isa == QN_WALK2_AVX512_STEP)
        return have == QN_WALK2_AVX512;
    if (isa == QN_WALK2_AVX2)
        return have != QN_WALK2_SCALAR;
    return 1;
}

void qn__walk2(int isa, const uint64_t *kb, int d, int sw, uint64_t *cur,
               uint64_t *best, uint64_t *bestw, uint64_t *nopt)
{
    if (isa == QN_WALK2_AUTO)
        isa = best_isa();

    if (!(sw > 0 && sw <= 16 && sw % 4 == 0))
        isa = QN_WALK2_SCALAR; /* wider than the SIMD walks hold */
    if (isa == QN_WALK2_AVX512 && d <= LOWB)
        isa = QN_WALK2_AVX512_STEP; /* fewer than 2 blocks */
    switch (isa) {
#ifdef QN_X86
    case QN_WALK2_AVX512:
        walk_avx512(kb, d, sw, cur, best, bestw, nopt);
        return;
    case QN_WALK2_AVX512_STEP:
        walk_avx512_step(kb, d, sw, cur, best, bestw, nopt);
        return;
    case QN_WALK2_AVX2:
        walk_avx2(kb, d, sw, cur, best, bestw, nopt);
        return;
#endif
    default:
        walk_scalar(kb, d, sw, cur, best, bestw, nopt);
    }
}
