/*
 * minpress_z3.c: the k = 3 coset walk, minpress.c's hottest case on three-
 * colour boards. A Gray walk of the coset on bit-sliced vectors: the word
 * walk touches only the words a step's generator moves, and for supports
 * of up to 2048 cells the packed walks keep the whole vector in AVX-512
 * (or AVX2) registers, so that a step is a few register operations and no
 * memory but the generator's load.
 */
#include "minpress_z3.h"

#include <stdlib.h>
#include <string.h>
#ifdef __SSE2__
#include <emmintrin.h>
#endif

#include "base/mem.h"
#include "gray.h"
#include "minpress_gf2.h"
#include "walk_simd.h"

#if defined(__x86_64__) && defined(__GNUC__)
#include <immintrin.h>
#define QN_X86 1
#endif

/*
 * k = 3: the same Gray walk on bit-sliced vectors. A value v in Z/3 is
 * two bits (h, l) = (v == 2, v == 1), 64 cells a word; adding two such
 * vectors mod 3 takes six word operations, and a word's press total is
 * popcount(l) + 2 popcount(h). Only the words of the cells some
 * generator moves are walked (the "support"), and a step touches only
 * the words its generator is non-zero in. -g is g with its planes
 * swapped (2 = -1). The minimum, the number of optima and the
 * lexicographically smallest optimum are those of the byte walk above,
 * as they depend only on the coset, not on the order of the visit.
 */
static inline void add3(uint64_t *h, uint64_t *l, uint64_t bh, uint64_t bl)
{
    uint64_t t = (*l | bh) ^ (*h | bl), nh = (*l | bl) ^ t;

    *l = (*h | bh) ^ t;
    *h = nh;
}

static inline uint64_t cost3(uint64_t h, uint64_t l)
{
    return (uint64_t)__builtin_popcountll(l) +
           2 * (uint64_t)__builtin_popcountll(h);
}

/* 1 when (h, l) is lexicographically before (bh, bl), cell 0 first. */
static int before3(const uint64_t *h, const uint64_t *l, const uint64_t *bh,
                   const uint64_t *bl, int nw)
{
    for (int w = 0; w < nw; w++) {
        uint64_t d = (h[w] ^ bh[w]) | (l[w] ^ bl[w]);
        if (d) {
            int b = __builtin_ctzll(d);
            unsigned a = (unsigned)((l[w] >> b) & 1) + 2 * ((h[w] >> b) & 1);
            unsigned c = (unsigned)((bl[w] >> b) & 1) + 2 * ((bh[w] >> b) & 1);
            return a < c;
        }
    }
    return 0;
}

static int walk_words(const qn_system *sys, qn_minpress *out, uint8_t *x)
{
    int d = (int)sys->nkgen, n = sys->ncols, nw = (n + 63) / 64, nsw = 0;
    int *sw = QN_ALLOCN((size_t)nw + 1, int);     /* support words */
    int *gw = QN_ALLOCN((size_t)d * nw + 1, int); /* generator i's words */
    int *ngw = QN_ALLOCN((size_t)d + 1, int);
    uint64_t *v = QN_ALLOCN(4 * (size_t)nw + 2 * (size_t)d * nw + 1, uint64_t);
    uint64_t *xh = v, *xl = xh + nw, *bh = xl + nw, *bl = bh + nw;
    uint64_t *gh = bl + nw, *gl = gh + (size_t)d * nw;
    uint64_t cur = 0, bw, nopt = 1, outside = 0;
    int rc = QN_ENOMEM, j, up;
    qn_gray gc; /* the walk's order */

    if (!sw || !gw || !ngw || !v)
        goto done;

    for (int c = 0; c < n; c++) {
        if (x[c] == 1)
            xl[c / 64] |= (uint64_t)1 << (c % 64);
        else if (x[c] == 2)
            xh[c / 64] |= (uint64_t)1 << (c % 64);
    }
    for (int i = 0; i < d; i++) {
        const qn_sparse_gen *g = &sys->sgen[i];
        uint64_t *h = gh + (size_t)i * nw, *l = gl + (size_t)i * nw;
        for (int t = 0; t < g->nnz; t++) {
            int c = g->cell[t];
            if (g->up[t] == 1)
                l[c / 64] |= (uint64_t)1 << (c % 64);
            else
                h[c / 64] |= (uint64_t)1 << (c % 64);
        }
        for (int w = 0; w < nw; w++)
            if (h[w] | l[w])
                gw[(size_t)i * nw + ngw[i]++] = w;
    }
    for (int w = 0; w < nw; w++) {
        int used = 0;
        for (int i = 0; i < d && !used; i++)
            used = (gh[(size_t)i * nw + w] | gl[(size_t)i * nw + w]) != 0;
        if (used)
            sw[nsw++] = w;
        else
            outside += cost3(xh[w], xl[w]);
    }
    for (int s = 0; s < nsw; s++)
        cur += cost3(xh[sw[s]], xl[sw[s]]);
    bw = cur;
    memcpy(bh, xh, 2 * (size_t)nw * sizeof(*xh));
    qn_gray_init(&gc, sys->korder, d);
    while ((j = qn_gray_next(&gc, &up)) >= 0) {
        const uint64_t *h = gh + (size_t)j * nw, *l = gl + (size_t)j * nw;
        const int *ws = gw + (size_t)j * nw;
        for (int t = 0; t < ngw[j]; t++) {
            int w = ws[t];
            uint64_t ph = xh[w], pl = xl[w];
            cur -= cost3(ph, pl);
            if (up)
                add3(&ph, &pl, h[w], l[w]);
            else
                add3(&ph, &pl, l[w], h[w]);
            xh[w] = ph;
            xl[w] = pl;
            cur += cost3(ph, pl);
        }
        if (cur < bw) {
            bw = cur;
            nopt = 1;
            memcpy(bh, xh, 2 * (size_t)nw * sizeof(*xh));
        } else if (cur == bw) {
            nopt++;
            if (before3(xh, xl, bh, bl, nw))
                memcpy(bh, xh, 2 * (size_t)nw * sizeof(*xh));
        }
    }
    for (int c = 0; c < n; c++)
        x[c] = (uint8_t)(((bl[c / 64] >> (c % 64)) & 1) +
                         2 * ((bh[c / 64] >> (c % 64)) & 1));
    out->presses = outside + bw;
    out->noptimal = nopt;
    rc = QN_OK;
done:
    free(sw);
    free(gw);
    free(ngw);
    free(v);
    return rc;
}

/*
 * The packed walks. The support (the cells some generator moves) is
 * packed in cell order, so a vector's lexicographic order is that of its
 * packed planes, and the cells outside it keep x0's values. Each visits
 * the vectors of the byte walk's Gray code; the weight of a step is
 * recomputed from the whole vector, popcount(h | l) + popcount(h) (the
 * planes are disjoint), so no running total is carried, and only a
 * weight <= the best (rare after the first steps) leaves the registers.
 */

/* The best so far, kept in memory: only ties and improvements reach it. */
typedef struct best3 {
    int pw;
    uint64_t *bh, *bl; /* pw words each: the best vector */
    uint64_t bw, nopt;
} best3;

static void consider3(best3 *b, const uint64_t *h, const uint64_t *l,
                      uint64_t wt)
{
    if (wt < b->bw) {
        b->bw = wt;
        b->nopt = 1;
    } else {
        b->nopt++;
        if (!before3(h, l, b->bh, b->bl, b->pw))
            return;
    }
    memcpy(b->bh, h, (size_t)b->pw * sizeof(*h));
    memcpy(b->bl, l, (size_t)b->pw * sizeof(*l));
}

static uint64_t weight3(const uint64_t *h, const uint64_t *l, int pw)
{
    uint64_t wt = 0;

    for (int w = 0; w < pw; w++)
        wt += cost3(h[w], l[w]);
    return wt;
}

/* The reference packed walk, and the fallback for any pw. */
static void packed_scalar(const uint64_t *gen, qn_gray *g, best3 *b,
                          uint64_t *h, uint64_t *l)
{
    int pw = b->pw, up, j;

    while ((j = qn_gray_next(g, &up)) >= 0) {
        const uint64_t *gh = gen + (size_t)j * 2 * pw, *gl = gh + pw;
        uint64_t wt = 0;
        for (int w = 0; w < pw; w++) {
            if (up)
                add3(&h[w], &l[w], gh[w], gl[w]);
            else
                add3(&h[w], &l[w], gl[w], gh[w]);
            wt += cost3(h[w], l[w]);
        }
        if (wt <= b->bw)
            consider3(b, h, l, wt);
    }
}

#ifdef QN_X86
#define T512 "avx512f,avx512vpopcntdq"

/*
 * nv (1..4) zmm a plane; always inlined into walk512 once per nv, so the
 * register arrays stay in registers. The three ternary-logic operations
 * are add3's: t = (l | bh) ^ (h | bl), h' = (l | bl) ^ t, l' = (h | bh) ^ t.
 */
__attribute__((target(T512), always_inline)) static inline void
walk512_n(int nv, const uint64_t *gen, qn_gray *g, best3 *b, uint64_t *xh,
          uint64_t *xl)
{
    __m512i h[4], l[4];
    _Alignas(64) uint64_t th[QN_WALK3_MAXW], tl[QN_WALK3_MAXW];
    int pw = b->pw, up, j;

    for (int i = 0; i < nv; i++) {
        h[i] = _mm512_loadu_si512(xh + 8 * i);
        l[i] = _mm512_loadu_si512(xl + 8 * i);
    }
    while ((j = qn_gray_next(g, &up)) >= 0) {
        const uint64_t *gh = gen + (size_t)j * 2 * pw, *gl = gh + pw;
        const uint64_t *p = up ? gh : gl, *q = up ? gl : gh;
        __m512i acc = _mm512_setzero_si512();
        uint64_t wt;
        for (int i = 0; i < nv; i++) {
            __m512i bh = _mm512_loadu_si512(p + 8 * i);
            __m512i bl = _mm512_loadu_si512(q + 8 * i);
            __m512i t = _mm512_xor_si512(_mm512_or_si512(l[i], bh),
                                         _mm512_or_si512(h[i], bl));
            __m512i nh = _mm512_xor_si512(_mm512_or_si512(l[i], bl), t);
            l[i] = _mm512_xor_si512(_mm512_or_si512(h[i], bh), t);
            h[i] = nh;
            acc = _mm512_add_epi64(
                acc, _mm512_add_epi64(
                         _mm512_popcnt_epi64(_mm512_or_si512(h[i], l[i])),
                         _mm512_popcnt_epi64(h[i])));
        }
        wt = (uint64_t)_mm512_reduce_add_epi64(acc);
        if (wt > b->bw)
            continue;
        for (int i = 0; i < nv; i++) {
            _mm512_store_si512(th + 8 * i, h[i]);
            _mm512_store_si512(tl + 8 * i, l[i]);
        }
        consider3(b, th, tl, wt);
    }
}

__attribute__((target(T512))) static void
walk512(const uint64_t *gen, qn_gray *g, best3 *b, uint64_t *xh, uint64_t *xl)
{
    switch (b->pw / 8) {
    case 1:
        walk512_n(1, gen, g, b, xh, xl);
        break;
    case 2:
        walk512_n(2, gen, g, b, xh, xl);
        break;
    case 3:
        walk512_n(3, gen, g, b, xh, xl);
        break;
    default:
        walk512_n(4, gen, g, b, xh, xl);
    }
}

/*
 * The AVX-512 block walk. In the step loop above each step waits on the
 * horizontal sum of its weight and on Algorithm H's bookkeeping. Here the
 * first two generators give the 9 fixed vectors L_j = c0 g0 + c1 g1, and
 * the Gray walk moves only over the others, its vector x; each block is
 * the 9 vectors x + L_j, independent of each other, so their adds and
 * popcounts overlap, and one transposing tree of shuffles (qn__sum8,
 * walk_simd.h) sums 8 of the 9 weights at once. Every vector of the
 * coset is in exactly one block, so the best starts above every weight.
 */

enum { NLOW = 9 }; /* the vectors of a block: 3^2 */

/* The vectors x + L_j of a block whose weight may be the best. */
static void block_consider(best3 *b, unsigned hit, const uint64_t *wt,
                           const uint64_t *xh, const uint64_t *xl,
                           const uint64_t (*low)[2][QN_WALK3_MAXW])
{
    uint64_t th[QN_WALK3_MAXW], tl[QN_WALK3_MAXW];

    for (; hit; hit &= hit - 1) {
        int j = __builtin_ctz(hit);
        if (wt[j] > b->bw)
            continue; /* the best improved earlier in this block */
        memcpy(th, xh, (size_t)b->pw * sizeof(*th));
        memcpy(tl, xl, (size_t)b->pw * sizeof(*tl));
        for (int w = 0; w < b->pw; w++)
            add3(&th[w], &tl[w], low[j][0][w], low[j][1][w]);
        consider3(b, th, tl, wt[j]);
    }
}

/*
 * A block's vectors are only weighed, never kept, so instead of add3 and
 * an OR this takes the two planes the weight needs, v = x + L being 2 and
 * v != 0, by cases on L, two ternary-logic operations each (imm8 bit
 * 4a + 2b + c is f(a, b, c)):
 *   u  = bh ? ~(h | l) : h,  nh = bl ? l : u         (v == 2)
 *   u' = bh ? ~l : h | l,    nz = bl ? ~h : u'       (v != 0)
 * 4 operations a register instead of 5.
 */

__attribute__((target(T512), always_inline)) static inline void
blocks512_n(int nv, const uint64_t *gen, qn_gray *g, best3 *b, uint64_t *xh,
            uint64_t *xl, const uint64_t (*low)[2][QN_WALK3_MAXW])
{
    __m512i h[4], l[4];
    _Alignas(64) uint64_t th[QN_WALK3_MAXW], tl[QN_WALK3_MAXW], wt[16];
    int pw = b->pw, up, j;

    for (int i = 0; i < nv; i++) {
        h[i] = _mm512_loadu_si512(xh + 8 * i);
        l[i] = _mm512_loadu_si512(xl + 8 * i);
    }
    for (;;) {
        __m512i c[NLOW], wv;
        unsigned hit;

#pragma GCC unroll 9
        for (int k = 0; k < NLOW; k++) {
            c[k] = _mm512_setzero_si512();
            for (int i = 0; i < nv; i++) {
                __m512i bh = _mm512_load_si512(low[k][0] + 8 * i);
                __m512i bl = _mm512_load_si512(low[k][1] + 8 * i);
                __m512i u = _mm512_ternarylogic_epi64(bh, h[i], l[i], 0x1c);
                __m512i v = _mm512_ternarylogic_epi64(bh, h[i], l[i], 0x5e);
                __m512i nh = _mm512_ternarylogic_epi64(bl, l[i], u, 0xca);
                __m512i nz = _mm512_ternarylogic_epi64(bl, h[i], v, 0x3a);
                c[k] = _mm512_add_epi64(
                    c[k], _mm512_add_epi64(_mm512_popcnt_epi64(nz),
                                           _mm512_popcnt_epi64(nh)));
            }
        }
        wv = qn__sum8(c);
        wt[8] = (uint64_t)_mm512_reduce_add_epi64(c[8]);
        hit = _mm512_cmple_epu64_mask(wv, _mm512_set1_epi64((long long)b->bw));
        hit |= (unsigned)(wt[8] <= b->bw) << 8;
        if (hit) {
            _mm512_store_si512(wt, wv);
            for (int i = 0; i < nv; i++) {
                _mm512_store_si512(th + 8 * i, h[i]);
                _mm512_store_si512(tl + 8 * i, l[i]);
            }
            block_consider(b, hit, wt, th, tl, low);
        }
        if ((j = qn_gray_next(g, &up)) < 0)
            break;
        const uint64_t *gh = gen + (size_t)(j + 2) * 2 * pw, *gl = gh + pw;
        const uint64_t *p = up ? gh : gl, *q = up ? gl : gh;
        for (int i = 0; i < nv; i++) {
            __m512i bh = _mm512_loadu_si512(p + 8 * i);
            __m512i bl = _mm512_loadu_si512(q + 8 * i);
            __m512i t = _mm512_xor_si512(_mm512_or_si512(l[i], bh),
                                         _mm512_or_si512(h[i], bl));
            __m512i nh = _mm512_xor_si512(_mm512_or_si512(l[i], bl), t);
            l[i] = _mm512_xor_si512(_mm512_or_si512(h[i], bh), t);
            h[i] = nh;
        }
    }
}

/* Requires d >= 2 and the first two orders 3. */
__attribute__((target(T512))) static void blocks512(const uint64_t *gen,
                                                    const unsigned *order,
                                                    int d, best3 *b,
                                                    uint64_t *xh, uint64_t *xl)
{
    _Alignas(64) uint64_t low[NLOW][2][QN_WALK3_MAXW];
    int pw = b->pw;
    qn_gray g;

    memset(low, 0, sizeof(low));
    for (int k = 0; k < NLOW; k++) /* L_k = (k % 3) g0 + (k / 3) g1 */
        for (int m = 0; m < k % 3 + k / 3; m++) {
            const uint64_t *gh = gen + (m < k % 3 ? 0 : 2 * (size_t)pw);
            for (int w = 0; w < pw; w++)
                add3(&low[k][0][w], &low[k][1][w], gh[w], gh[pw + w]);
        }
    qn_gray_init(&g, order + 2, d - 2);
    b->bw = UINT64_MAX; /* x itself is in the first block */
    b->nopt = 0;
    switch (pw / 8) {
    case 1:
        blocks512_n(1, gen, &g, b, xh, xl, (const void *)low);
        break;
    case 2:
        blocks512_n(2, gen, &g, b, xh, xl, (const void *)low);
        break;
    case 3:
        blocks512_n(3, gen, &g, b, xh, xl, (const void *)low);
        break;
    default:
        blocks512_n(4, gen, &g, b, xh, xl, (const void *)low);
    }
}

/*
 * AVX2: nv (2..4) ymm a plane. The weight's four nibble-table lookups a
 * register are summed as bytes (at most 4 x 4 x 4 = 64 a byte) before one
 * psadbw, as in minpress_gf2.c's pop_avx2.
 */
__attribute__((target("avx2"), always_inline)) static inline __m256i
nib2(__m256i x, __m256i table, __m256i low)
{
    return _mm256_add_epi8(
        _mm256_shuffle_epi8(table, _mm256_and_si256(x, low)),
        _mm256_shuffle_epi8(table,
                            _mm256_and_si256(_mm256_srli_epi16(x, 4), low)));
}

__attribute__((target("avx2"), always_inline)) static inline void
walk256_n(int nv, const uint64_t *gen, qn_gray *g, best3 *b, uint64_t *xh,
          uint64_t *xl)
{
    const __m256i table =
        _mm256_setr_epi8(0, 1, 1, 2, 1, 2, 2, 3, 1, 2, 2, 3, 2, 3, 3, 4, 0, 1,
                         1, 2, 1, 2, 2, 3, 1, 2, 2, 3, 2, 3, 3, 4);
    const __m256i low = _mm256_set1_epi8(0x0f);
    __m256i h[4], l[4];
    _Alignas(32) uint64_t th[QN_WALK3_MAXW_AVX2], tl[QN_WALK3_MAXW_AVX2];
    uint64_t lanes[4];
    int pw = b->pw, up, j;

    for (int i = 0; i < nv; i++) {
        h[i] = _mm256_loadu_si256((const __m256i *)(xh + 4 * i));
        l[i] = _mm256_loadu_si256((const __m256i *)(xl + 4 * i));
    }
    while ((j = qn_gray_next(g, &up)) >= 0) {
        const uint64_t *gh = gen + (size_t)j * 2 * pw, *gl = gh + pw;
        const uint64_t *p = up ? gh : gl, *q = up ? gl : gh;
        __m256i bytes = _mm256_setzero_si256();
        uint64_t wt;
        for (int i = 0; i < nv; i++) {
            __m256i bh = _mm256_loadu_si256((const __m256i *)(p + 4 * i));
            __m256i bl = _mm256_loadu_si256((const __m256i *)(q + 4 * i));
            __m256i t = _mm256_xor_si256(_mm256_or_si256(l[i], bh),
                                         _mm256_or_si256(h[i], bl));
            __m256i nh = _mm256_xor_si256(_mm256_or_si256(l[i], bl), t);
            l[i] = _mm256_xor_si256(_mm256_or_si256(h[i], bh), t);
            h[i] = nh;
            bytes = _mm256_add_epi8(
                bytes,
                _mm256_add_epi8(nib2(_mm256_or_si256(h[i], l[i]), table, low),
                                nib2(h[i], table, low)));
        }
        _mm256_storeu_si256((__m256i *)lanes,
                            _mm256_sad_epu8(bytes, _mm256_setzero_si256()));
        wt = lanes[0] + lanes[1] + lanes[2] + lanes[3];
        if (wt > b->bw)
            continue;
        for (int i = 0; i < nv; i++) {
            _mm256_store_si256((__m256i *)(th + 4 * i), h[i]);
            _mm256_store_si256((__m256i *)(tl + 4 * i), l[i]);
        }
        consider3(b, th, tl, wt);
    }
}

__attribute__((target("avx2"))) static void
walk256(const uint64_t *gen, qn_gray *g, best3 *b, uint64_t *xh, uint64_t *xl)
{
    if (b->pw == 8)
        walk256_n(2, gen, g, b, xh, xl);
    else
        walk256_n(4, gen, g, b, xh, xl);
}
#endif

void qn__walk3(int isa, const uint64_t *gen, const unsigned *order, int d,
               int pw, uint64_t *xh, uint64_t *xl, uint64_t *bestw,
               uint64_t *nopt)
{
    uint64_t bh[QN_WALK3_MAXW], bl[QN_WALK3_MAXW];
    best3 b = {pw, bh, bl, weight3(xh, xl, pw), 1};
    qn_gray g;

    if (isa == QN_WALK2_AUTO)
        isa = qn__walk2_can(QN_WALK2_AVX512) ? QN_WALK2_AVX512
              : qn__walk2_can(QN_WALK2_AVX2) ? QN_WALK2_AVX2
                                             : QN_WALK2_SCALAR;
    if (pw % 8 || (isa == QN_WALK2_AVX2 && pw > QN_WALK3_MAXW_AVX2))
        isa = QN_WALK2_SCALAR; /* not whole registers, or more than AVX2 has */
    if (!qn__walk2_can(isa))
        isa = QN_WALK2_SCALAR;
    memcpy(bh, xh, (size_t)pw * sizeof(*xh));
    memcpy(bl, xl, (size_t)pw * sizeof(*xl));
    qn_gray_init(&g, order, d);
    switch (isa) {
#ifdef QN_X86
    case QN_WALK2_AVX512:
        if (d >= 2 && order[0] == 3 && order[1] == 3)
            blocks512(gen, order, d, &b, xh, xl);
        else
            walk512(gen, &g, &b, xh, xl);
        break;
    case QN_WALK2_AVX512_STEP:
        walk512(gen, &g, &b, xh, xl);
        break;
    case QN_WALK2_AVX2:
        walk256(gen, &g, &b, xh, xl);
        break;
#endif
    default:
        packed_scalar(gen, &g, &b, xh, xl);
    }
    memcpy(xh, bh, (size_t)pw * sizeof(*xh));
    memcpy(xl, bl, (size_t)pw * sizeof(*xl));
    *bestw = b.bw;
    *nopt = b.nopt;
}

/*
 * Planes of the bytes p[0..cnt) (cnt <= 64): bit b of *h is p[b] == 2, of
 * *l p[b] == 1. Built in registers: setting the bits one by one in memory
 * made a chain of read-modify-writes on one word.
 */
static void pack64(const uint8_t *p, int cnt, uint64_t *h, uint64_t *l)
{
    uint64_t hh = 0, ll = 0;
    int b = 0;

#ifdef __SSE2__
    const __m128i one = _mm_set1_epi8(1), two = _mm_set1_epi8(2);
    for (; b + 16 <= cnt; b += 16) {
        __m128i v = _mm_loadu_si128((const __m128i *)(p + b));
        ll |= (uint64_t)(unsigned)_mm_movemask_epi8(_mm_cmpeq_epi8(v, one))
              << b;
        hh |= (uint64_t)(unsigned)_mm_movemask_epi8(_mm_cmpeq_epi8(v, two))
              << b;
    }
#endif
    for (; b < cnt; b++) {
        ll |= (uint64_t)(p[b] == 1) << b;
        hh |= (uint64_t)(p[b] == 2) << b;
    }
    *h = hh;
    *l = ll;
}

/* The bytes src[supp[b]] of the ns support cells (supp NULL: all cells). */
static void pack(const uint8_t *src, const int *supp, int ns, uint8_t *tmp,
                 uint64_t *h, uint64_t *l)
{
    if (supp) {
        for (int b = 0; b < ns; b++)
            tmp[b] = src[supp[b]];
        src = tmp;
    }
    for (int b = 0; b < ns; b += 64)
        pack64(src + b, ns - b < 64 ? ns - b : 64, &h[b / 64], &l[b / 64]);
}

enum { SUPP_STACK = 1024 }; /* cells whose maps stay on the stack */

/*
 * The packed form of the walk: QN_OK, QN_ENOMEM, or 1 when the support is
 * empty or wider than QN_WALK3_MAXW words (the word walk then). It runs
 * once a graded state, so it is kept short of the walk: the support is
 * read off the dense generators, and when it is every cell (the usual
 * case on a grid) nothing is gathered.
 */
static int walk_packed(const qn_system *sys, qn_minpress *out, uint8_t *x)
{
    int d = (int)sys->nkgen, n = sys->ncols, ns = 0, pw;
    int sst[SUPP_STACK],
        *supp = n <= SUPP_STACK ? sst : QN_ALLOCN((size_t)n, int);
    uint8_t tmp[64 * QN_WALK3_MAXW];
    uint64_t gst[2 * 16 * 16], *gen = NULL;
    uint64_t xh[QN_WALK3_MAXW] = {0}, xl[QN_WALK3_MAXW] = {0};
    uint64_t outside = 0, bw, nopt;
    int rc = QN_ENOMEM;

    if (!supp)
        return QN_ENOMEM;
    for (int c = 0; c < n; c++) {
        uint8_t any = 0;
        for (int i = 0; i < d; i++)
            any |= sys->kgen[(size_t)i * n + c];
        if (any)
            supp[ns++] = c;
        else
            outside += x[c];
    }
    pw = (ns + 511) / 512 * 8;
    rc = 1;
    if (ns == 0 || pw > QN_WALK3_MAXW || d >= 64)
        goto done;
    rc = QN_ENOMEM;
    gen = 2 * (size_t)d * pw <= sizeof gst / sizeof *gst
              ? gst
              : QN_ALLOCN(2 * (size_t)d * pw, uint64_t);
    if (!gen)
        goto done;
    memset(gen, 0, 2 * (size_t)d * pw * sizeof(*gen));
    for (int i = 0; i < d; i++) {
        uint64_t *gh = gen + (size_t)i * 2 * pw;
        pack(sys->kgen + (size_t)i * n, ns == n ? NULL : supp, ns, tmp, gh,
             gh + pw);
    }
    pack(x, ns == n ? NULL : supp, ns, tmp, xh, xl);
    qn__walk3(sys->walk_isa, gen, sys->korder, d, pw, xh, xl, &bw, &nopt);
    for (int b = 0; b < ns; b++)
        x[supp[b]] = (uint8_t)(((xl[b / 64] >> (b % 64)) & 1) +
                               2 * ((xh[b / 64] >> (b % 64)) & 1));
    out->presses = outside + bw;
    out->noptimal = nopt;
    rc = QN_OK;
done:
    if (supp != sst)
        free(supp);
    if (gen != gst)
        free(gen);
    return rc;
}

int qn__minpress_z3(const qn_system *sys, qn_minpress *out, uint8_t *x)
{
    int isa = sys->walk_isa;

    if (sys->nkgen == 0) { /* a trivial kernel: x is the only solution */
        out->presses = 0;
        for (int c = 0; c < sys->ncols; c++)
            out->presses += x[c];
        out->noptimal = 1;
        return QN_OK;
    }
    if (isa == QN_WALK2_AUTO && !qn__walk2_can(QN_WALK2_AVX2))
        isa = QN_WALK2_SCALAR; /* the word walk skips idle words */
    if (isa != QN_WALK2_SCALAR) {
        int rc = walk_packed(sys, out, x);
        if (rc <= 0)
            return rc;
    }
    return walk_words(sys, out, x);
}
