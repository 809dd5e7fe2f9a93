/*
 * zk.c: dense matrices over Z/k and their Smith-form factorisation, split
 * into prime-power parts and joined with the CRT. The row-operation inner
 * loop has SSSE3 (baseline x86-64-v2), AVX2 and AVX-512BW versions, the
 * widest the CPU runs picked at run time.
 */
#include "quench/zk.h"

#include <assert.h>
#include <stdbool.h>
#include <string.h>

#include "quench/mem.h"

#if defined(__x86_64__) && (defined(__GNUC__) || defined(__clang__))
#include <immintrin.h>
#define ZK_X86 1
#else
#define ZK_X86 0
#endif

#define MAX_PARTS 4      /* 2*3*5*7 = 210 is the most primes below 256 */
#define SOLVE_STACK 4096 /* scratch bytes qn_zfact_solve keeps on the stack */

/* Raw sum of a[i] b[i], len <= 32768; see dot_scalar. */
typedef uint32_t dot_fn(const uint8_t *a, const uint8_t *b, size_t len);

/* dst -= f src (mod q), f given by its product table; see rowop_tail. */
typedef void rowop_fn(uint8_t *dst, const uint8_t *src, size_t len,
                      const uint8_t *tab, unsigned q);

/*
 * One prime-power part Z/q, q = p^e, of the factorisation.
 *
 * Elimination with full pivoting gives, over Z/q,
 *
 *     Pr A Pc = L T,    T = D V,
 *
 * with Pr, Pc permutations (prow, pcol), L unit lower triangular (m x m),
 * D = diag(d_0..d_{r-1}, 0...) with d_i = u_i p^{v_i}, u_i a unit, and V
 * unit upper triangular (n x n, identity below row r). So with
 * P = L^-1 Pr and Q = Pc V^-1, P A Q = D: the Smith form. The pivots are
 * chosen of least valuation, so v_0 <= v_1 <= ... and every entry of the
 * pivot row and column is a multiple of the pivot: that is what makes
 * V[i][c] = T[i][c] / d_i and the multipliers L[r][i] = A'[r][i] / d_i exist
 * (any lift of the quotient mod p^(e - v_i) works, since d_i kills the
 * ambiguity).
 *
 * Storage, in w (m x n, row-major, permuted order): w[i][i] = d_i for
 * i < rank; below the diagonal -L (negated so that forward substitution is
 * one dot product plus the right-hand side); right of the diagonal in rows
 * i < rank, -V. Everything else is zero.
 */
struct part {
    unsigned q, p, e; /* q = p^e */
    int rank;         /* number of nonzero pivots */
    uint8_t *w;       /* m x n, row stride ld, see above */
    size_t ld;        /* row stride of w: n rounded up, plus >= 32 zeros */
    int *prow;        /* m: permuted row -> original row */
    int *pcol;        /* n: permuted column -> original column */
    int *lbeg;        /* m: row l of -L is zero before column lbeg[l] */
    int *vend;        /* rank: row j of -V is zero in columns vend[j]..rank-1 */
    uint8_t *val;     /* rank: v_i, the valuation of pivot i */
    uint8_t *uinv;    /* rank: inverse mod q of u_i = d_i / p^{v_i} */
    uint8_t *tab;     /* q x 32: nibble product tables (see rowop_tail) */
    rowop_fn *rowop;  /* row operation picked for this CPU and q */
    dot_fn *dot;      /* dot product picked for this CPU */
    uint64_t magic;   /* fastmod_magic(q) */
    unsigned ppow[9]; /* p^0 .. p^e */
    uint8_t red[256]; /* x -> x mod q */
};

struct qn_zfact {
    int m, n; /* nrows, ncols */
    unsigned k;
    int nparts;
    struct part part[MAX_PARTS];
    unsigned crt[MAX_PARTS]; /* idempotents: 1 mod own q, 0 mod the others */
    uint64_t magic;          /* fastmod_magic(k) */
    size_t nker;             /* kernel generators ... */
    uint8_t *ker;            /* nker x n */
    unsigned *kord;          /* nker, ascending by divisibility */
    size_t ninv;             /* min(m, n) */
    unsigned *inv;           /* Smith diagonal over Z/k, k meaning 0 */
    size_t ncok;             /* cokernel orders and conditions ... */
    unsigned *cord;          /* ncok */
    uint8_t *cond;           /* ncok x m */
};

/* ---------------------------------------------------------------------- */
/* qn_zmat */

void qn_zmat_init(qn_zmat *m, int nrows, int ncols, unsigned k)
{
    assert(nrows >= 0 && ncols >= 0 && nrows <= (1 << 24) &&
           ncols <= (1 << 24));
    m->nrows = nrows;
    m->ncols = ncols;
    m->k = k;
    m->e = QN_NEWN((size_t)nrows * (size_t)ncols, uint8_t);
}

void qn_zmat_release(qn_zmat *m)
{
    free(m->e);
    m->e = NULL;
    m->nrows = m->ncols = 0;
}

/*
 * Sum of a[i] b[i] mod q. Products are below 2^16, so a uint32_t sum takes
 * 2^16 terms before it can wrap: reduce once per chunk, not per term.
 */
static unsigned dotmod(const uint8_t *a, const uint8_t *b, size_t len,
                       unsigned q)
{
    unsigned acc = 0;

    while (len) {
        size_t chunk = len < 32768 ? len : 32768, i;
        uint32_t s0 = 0, s1 = 0, s2 = 0, s3 = 0;

        for (i = 0; i + 4 <= chunk; i += 4) {
            s0 += (uint32_t)a[i] * b[i];
            s1 += (uint32_t)a[i + 1] * b[i + 1];
            s2 += (uint32_t)a[i + 2] * b[i + 2];
            s3 += (uint32_t)a[i + 3] * b[i + 3];
        }
        for (; i < chunk; i++)
            s0 += (uint32_t)a[i] * b[i];
        acc = (unsigned)((acc + (uint64_t)s0 + s1 + s2 + s3) % q);
        a += chunk;
        b += chunk;
        len -= chunk;
    }
    return acc;
}

/*
 * x mod q for x < 2^32 without a division (Lemire, Kaser and Kurz, "Faster
 * remainder by direct computation", 2019): with M = floor((2^64 - 1) / q)
 * + 1, the low 64 bits of M x are frac(x / q) scaled by 2^64 (to within an
 * error too small to matter for x < 2^32), and multiplying by q lifts the
 * remainder into the high word. qn_zfact_solve runs this per entry.
 */
static uint64_t fastmod_magic(unsigned q)
{
    return UINT64_MAX / q + 1;
}

#if defined(__SIZEOF_INT128__)
__extension__ typedef unsigned __int128 zk_u128;

static inline unsigned fastmod(uint32_t x, uint64_t magic, unsigned q)
{
    return (unsigned)(((zk_u128)(magic * x) * q) >> 64);
}
#else
static inline unsigned fastmod(uint32_t x, uint64_t magic, unsigned q)
{
    (void)magic;
    return x % q;
}
#endif

/*
 * Raw sum of a[i] b[i] for len <= 32768 (so it fits 32 bits): the
 * substitutions of qn_zfact_solve. The AVX2 version widens 16 bytes to
 * 16-bit lanes and lets pmaddwd multiply and add pairs into 32-bit lanes.
 */
static uint32_t dot_scalar(const uint8_t *a, const uint8_t *b, size_t len)
{
    uint32_t s0 = 0, s1 = 0;
    size_t i;

    for (i = 0; i + 2 <= len; i += 2) {
        s0 += (uint32_t)a[i] * b[i];
        s1 += (uint32_t)a[i + 1] * b[i + 1];
    }
    if (i < len)
        s0 += (uint32_t)a[i] * b[i];
    return s0 + s1;
}

#if ZK_X86 && !defined(QN_ZK_NO_AVX2) && !defined(QN_ZK_NO_SIMD)
__attribute__((target("avx2"))) static uint32_t
dot_avx2(const uint8_t *a, const uint8_t *b, size_t len)
{
    __m256i acc = _mm256_setzero_si256();
    __m128i h;
    size_t i;

    for (i = 0; i + 16 <= len; i += 16) {
        __m256i x =
            _mm256_cvtepu8_epi16(_mm_loadu_si128((const __m128i *)(a + i)));
        __m256i y =
            _mm256_cvtepu8_epi16(_mm_loadu_si128((const __m128i *)(b + i)));

        acc = _mm256_add_epi32(acc, _mm256_madd_epi16(x, y));
    }
    h = _mm_add_epi32(_mm256_castsi256_si128(acc),
                      _mm256_extracti128_si256(acc, 1));
    h = _mm_add_epi32(h, _mm_shuffle_epi32(h, 0x4e));
    h = _mm_add_epi32(h, _mm_shuffle_epi32(h, 0xb1));
    return (uint32_t)_mm_cvtsi128_si32(h) + dot_scalar(a + i, b + i, len - i);
}
#endif

static dot_fn *pick_dot(void)
{
#if ZK_X86 && !defined(QN_ZK_NO_AVX2) && !defined(QN_ZK_NO_SIMD)
    if (__builtin_cpu_supports("avx2"))
        return dot_avx2;
#endif
    return dot_scalar;
}

/* Sum of a[i] b[i] mod q, for the short sums of qn_zfact_solve. */
static inline unsigned dotfast(dot_fn *dot, const uint8_t *a, const uint8_t *b,
                               size_t len, uint64_t magic, unsigned q)
{
    if (len > 32768)
        return dotmod(a, b, len, q);
    return fastmod(len < 32 ? dot_scalar(a, b, len) : dot(a, b, len), magic, q);
}

void qn_zmat_mul_vec(uint8_t *y, const qn_zmat *a, const uint8_t *x)
{
    int r;

    for (r = 0; r < a->nrows; r++)
        y[r] = (uint8_t)dotmod(a->e + (size_t)r * a->ncols, x, (size_t)a->ncols,
                               a->k);
}

/* ---------------------------------------------------------------------- */
/* Row operations: dst -= f * src (mod q), the elimination's inner loop. */

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
static rowop_fn *pick_rowop(unsigned q)
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

/* ---------------------------------------------------------------------- */
/* Factorisation of one part */

/* Inverse of a unit a mod q (extended Euclid). */
static unsigned inv_mod(unsigned a, unsigned q)
{
    int r0 = (int)q, r1 = (int)(a % q), t0 = 0, t1 = 1;

    while (r1) {
        int qt = r0 / r1, tmp;

        tmp = r0 - qt * r1;
        r0 = r1;
        r1 = tmp;
        tmp = t0 - qt * t1;
        t0 = t1;
        t1 = tmp;
    }
    assert(r0 == 1);
    return (unsigned)(t0 < 0 ? t0 + (int)q : t0);
}

/*
 * Sparsity bounds kept during elimination, so that banded matrices (grid
 * boards) cost little more than their band: rend[r] bounds the columns of
 * row r's nonzeros (all at c < rend[r]) and cbot[c] the rows of column c's
 * (all at r < cbot[c]). They only ever grow, so they stay upper bounds.
 */
struct bounds {
    int *rend; /* m */
    int *cbot; /* n */
};

static inline int imax(int a, int b)
{
    return a > b ? a : b;
}

static void swap_rows(struct part *pt, struct bounds *bd, int a, int b)
{
    uint8_t *ra = pt->w + (size_t)a * pt->ld, *rb = pt->w + (size_t)b * pt->ld;
    int t = pt->prow[a], len = imax(bd->rend[a], bd->rend[b]);
    int bot = imax(a, b) + 1, c;

    if (a == b)
        return;
    for (c = 0; c < len; c++) {
        uint8_t x = ra[c];

        if (x | rb[c]) {
            ra[c] = rb[c];
            rb[c] = x;
            bd->cbot[c] = imax(bd->cbot[c], bot);
        }
    }
    pt->prow[a] = pt->prow[b];
    pt->prow[b] = t;
    t = bd->rend[a];
    bd->rend[a] = bd->rend[b];
    bd->rend[b] = t;
}

/* Swap columns a < b: every row, including the finished ones (V). */
static void swap_cols(struct part *pt, struct bounds *bd, int a, int b)
{
    uint8_t *w = pt->w;
    int t = pt->pcol[a], r, bot = imax(bd->cbot[a], bd->cbot[b]);

    if (a == b)
        return;
    for (r = 0; r < bot; r++) {
        uint8_t x = w[(size_t)r * pt->ld + a];

        w[(size_t)r * pt->ld + a] = w[(size_t)r * pt->ld + b];
        w[(size_t)r * pt->ld + b] = x;
        if (x)
            bd->rend[r] = imax(bd->rend[r], b + 1);
    }
    pt->pcol[a] = pt->pcol[b];
    pt->pcol[b] = t;
    t = bd->cbot[a];
    bd->cbot[a] = bd->cbot[b];
    bd->cbot[b] = t;
}

/*
 * Find a pivot of valuation vcur in the active block (rows i..m-1, columns
 * i..n-1); every entry there has valuation >= vcur. Prefer the diagonal,
 * then column i (a row swap only, which keeps banded matrices banded), then
 * any entry. Rows at or beyond *good_end are known to hold only entries of
 * valuation > vcur: row operations add multiples of the pivot row with
 * multipliers of valuation >= 1 to such rows, so they stay that way until
 * vcur grows. A full scan that meets such a row parks it there, so later
 * scans skip it instead of rereading it at every step. Zero entries have
 * valuation e > vcur, so the scans stop at the sparsity bounds.
 */
static bool find_pivot(struct part *pt, struct bounds *bd, int i, unsigned vcur,
                       const uint8_t *vtab, int *good_end, int *pr, int *pc)
{
    const uint8_t *w = pt->w;
    int r, c, end;

    if (i >= *good_end)
        return false;
    if (vtab[w[(size_t)i * pt->ld + i]] == vcur) {
        *pr = *pc = i;
        return true;
    }
    end = bd->cbot[i] < *good_end ? bd->cbot[i] : *good_end;
    for (r = i + 1; r < end; r++)
        if (vtab[w[(size_t)r * pt->ld + i]] == vcur) {
            *pr = r;
            *pc = i;
            return true;
        }
    for (r = i; r < *good_end;) {
        const uint8_t *row = w + (size_t)r * pt->ld;

        for (c = i + 1; c < bd->rend[r]; c++)
            if (vtab[row[c]] == vcur) {
                *pr = r;
                *pc = c;
                return true;
            }
        --*good_end;
        swap_rows(pt, bd, r, *good_end);
    }
    return false;
}

static void factor_part(struct part *pt, const qn_zmat *a)
{
    const int m = a->nrows, n = a->ncols, mn = m < n ? m : n;
    const unsigned q = pt->q;
    rowop_fn *rowop = pick_rowop(q);
    uint8_t vtab[256], *tab, *mul;
    unsigned vcur = 0, f, j;
    int i, r, c, good_end = m;
    size_t x, size;
    struct bounds bd;

    for (x = 0; x < 256; x++)
        pt->red[x] = (uint8_t)(x % q);
    memset(vtab, 0xff, sizeof(vtab));
    vtab[0] = (uint8_t)pt->e;
    for (x = 1; x < q; x++) {
        unsigned v = 0, y = (unsigned)x;

        while (y % pt->p == 0) {
            y /= pt->p;
            v++;
        }
        vtab[x] = (uint8_t)v;
    }
    pt->rowop = rowop;
    pt->dot = pick_dot();
    pt->magic = fastmod_magic(q);
    /* Products mod q, to keep divisions out of the per-row work. */
    mul = QN_NEWN((size_t)q * q, uint8_t);
    for (f = 0; f < q; f++)
        for (j = 0; j < q; j++)
            mul[f * q + j] = (uint8_t)(f * j % q);
    /* Nibble product tables for every multiplier f (see rowop_tail). */
    tab = pt->tab = QN_NEWN((size_t)q * 32, uint8_t);
    for (f = 0; f < q; f++)
        for (j = 0; j < 16; j++) {
            tab[f * 32 + j] = (uint8_t)(f * j % q);
            tab[f * 32 + 16 + j] = (uint8_t)(f * 16 * j % q);
        }

    /*
     * Rows are padded with at least 32 zero bytes, so a row operation can
     * round its length up to whole vectors: the padding and the columns
     * beyond the pivot row's last nonzero only ever get 0 subtracted.
     */
    pt->ld = ((size_t)n + 63) & ~(size_t)31;
    size = (size_t)m * pt->ld;
    pt->w = QN_NEWN(size, uint8_t);
    for (i = 0; i < m; i++) {
        uint8_t *row = pt->w + (size_t)i * pt->ld;
        const uint8_t *src = a->e + (size_t)i * n;
        unsigned big = 0;

        /*
         * Entries are residues mod k by contract, so for q == k a copy
         * does; should one be out of range anyway, reduce it rather than
         * index the tables out of bounds.
         */
        if (q == a->k) {
            memcpy(row, src, (size_t)n);
            for (x = 0; x < (size_t)n; x++)
                big |= src[x] >= q;
        }
        if (q != a->k || big)
            for (x = 0; x < (size_t)n; x++)
                row[x] = pt->red[src[x]];
    }
    pt->prow = QN_NEWN((size_t)m, int);
    pt->pcol = QN_NEWN((size_t)n, int);
    for (i = 0; i < m; i++)
        pt->prow[i] = i;
    for (i = 0; i < n; i++)
        pt->pcol[i] = i;
    pt->val = QN_NEWN((size_t)mn, uint8_t);
    pt->uinv = QN_NEWN((size_t)mn, uint8_t);
    bd.rend = QN_NEWN((size_t)m + 1, int);
    bd.cbot = QN_NEWN((size_t)n + 1, int);
    /*
     * Exact bounds to start with, read eight bytes at a time (the padding
     * makes the last read safe). Rows are read from the bottom, so a column
     * is settled by its first nonzero and a dense matrix stops after a row
     * or two.
     */
    {
        int nunset = n;

        for (i = m - 1; i >= 0; i--) {
            const uint8_t *row = pt->w + (size_t)i * pt->ld;

            for (c = 0; c < n && nunset > 0; c += 8) {
                uint64_t word;
                int b;

                memcpy(&word, row + c, sizeof(word));
                if (word)
                    for (b = c; b < c + 8 && b < n; b++)
                        if (row[b] && !bd.cbot[b]) {
                            bd.cbot[b] = i + 1;
                            nunset--;
                        }
            }
            for (c = (n + 7) & ~7; c > 0; c -= 8) {
                uint64_t word;

                memcpy(&word, row + c - 8, sizeof(word));
                if (word)
                    break;
            }
            while (c > 0 && !row[c - 1])
                c--;
            bd.rend[i] = c;
        }
    }

    for (i = 0; i < mn; i++) {
        uint8_t *piv, *row;
        unsigned d, v, pv, ui;
        size_t len;
        int pr = 0, pc = 0, hi, last;

        while (!find_pivot(pt, &bd, i, vcur, vtab, &good_end, &pr, &pc)) {
            if (++vcur >= pt->e)
                goto done; /* the active block is zero */
            good_end = m;
        }
        swap_rows(pt, &bd, i, pr);
        swap_cols(pt, &bd, i, pc);
        piv = pt->w + (size_t)i * pt->ld;
        d = piv[i];
        v = vtab[d];
        pv = pt->ppow[v];
        ui = inv_mod(d / pv, q);
        /* Row operations need only reach the pivot row's last nonzero. */
        for (hi = bd.rend[i]; hi > i + 1 && !piv[hi - 1]; hi--)
            ;
        len = ((size_t)(hi - i - 1) + 31) & ~(size_t)31;
        last = i;
        for (r = i + 1; r < bd.cbot[i]; r++) {
            unsigned l;

            row = pt->w + (size_t)r * pt->ld;
            if (!row[i])
                continue;
            /* row[i] is a multiple of d: l d == row[i] (mod q). */
            l = mul[(v ? row[i] / pv : row[i]) * q + ui];
            row[i] = (uint8_t)(l ? q - l : 0);
            rowop(row + i + 1, piv + i + 1, len, tab + (size_t)l * 32, q);
            bd.rend[r] = imax(bd.rend[r], hi);
            last = r;
        }
        /*
         * The pivot row becomes -V (V[i][c] d_i == T[i][c], nonzero where
         * T is), and the row operations have spread its nonzeros down to
         * row `last`.
         */
        for (c = i + 1; c < hi; c++)
            if (piv[c]) {
                unsigned t = mul[(v ? piv[c] / pv : piv[c]) * q + ui];

                piv[c] = (uint8_t)(q - t);
                if (bd.cbot[c] <= last)
                    bd.cbot[c] = last + 1;
            }
        pt->val[i] = (uint8_t)v;
        pt->uinv[i] = (uint8_t)ui;
    }
done:
    pt->rank = i;
    /*
     * Where the substitutions in qn_zfact_solve can start and stop: on a
     * grid board L and V keep the band, and skipping the zeros outside it
     * turns the solve from quadratic into (cells x band).
     */
    pt->lbeg = QN_NEWN((size_t)m + 1, int);
    pt->vend = QN_NEWN((size_t)i + 1, int);
    for (r = 0; r < m; r++) {
        const uint8_t *row = pt->w + (size_t)r * pt->ld;
        int lim = r < i ? r : i;
        uint64_t word = 0;

        /* Both scans skip zeros eight bytes at a time. */
        for (c = 0; c + 8 <= lim; c += 8) {
            memcpy(&word, row + c, sizeof(word));
            if (word)
                break;
        }
        while (c < lim && !row[c])
            c++;
        pt->lbeg[r] = c;
        if (r < i) {
            for (c = i; c - 8 >= r + 1; c -= 8) {
                memcpy(&word, row + c - 8, sizeof(word));
                if (word)
                    break;
            }
            while (c > r + 1 && !row[c - 1])
                c--;
            pt->vend[r] = c;
        }
    }
    free(bd.rend);
    free(bd.cbot);
    free(mul);
}

/*
 * Solve Pr A Pc z = t over Z/q through the stored factors, reading the
 * right-hand side s in original order (entries < 256, reduced here).
 * Forward substitution t = L^-1 Pr s; solvable iff t_i is a multiple of
 * p^{v_i} for i < rank and zero beyond; y_i = (t_i / p^{v_i}) u_i^-1;
 * z = V^-1 y by back substitution (z_c = 0 for c >= rank). On success
 * writes x[pcol[c]] = z_c when x is not NULL. t needs m bytes, z n bytes.
 */
static bool solve_part(const struct part *pt, int m, int n, const uint8_t *s,
                       uint8_t *x, uint8_t *t, uint8_t *z)
{
    const unsigned q = pt->q;
    const uint64_t magic = pt->magic;
    const int rk = pt->rank;
    const uint8_t *w = pt->w;
    int l, j;

    for (l = 0; l < m; l++) {
        int b = pt->lbeg[l], e = l < rk ? l : rk;
        unsigned acc = pt->red[s[pt->prow[l]]] +
                       dotfast(pt->dot, w + (size_t)l * pt->ld + b, t + b,
                               (size_t)(e - b), magic, q);

        t[l] = (uint8_t)(acc >= q ? acc - q : acc);
        if (l >= rk && t[l])
            return false;
    }
    for (j = 0; j < rk; j++) {
        unsigned y = t[j];

        if (pt->val[j]) {
            unsigned pv = pt->ppow[pt->val[j]];

            if (y % pv)
                return false;
            y /= pv;
        }
        t[j] = (uint8_t)fastmod(y * pt->uinv[j], magic, q);
    }
    if (!x)
        return true;
    memset(z, 0, (size_t)n);
    for (j = rk - 1; j >= 0; j--) {
        unsigned acc =
            t[j] + dotfast(pt->dot, w + (size_t)j * pt->ld + j + 1, z + j + 1,
                           (size_t)(pt->vend[j] - j - 1), magic, q);

        z[j] = (uint8_t)(acc >= q ? acc - q : acc);
    }
    for (j = 0; j < n; j++)
        x[pt->pcol[j]] = z[j];
    return true;
}

/*
 * With this many generators or more, kernel_part and cokernel_part run
 * their substitutions for all of them at once, as row operations across a
 * (coordinate x generator) array; below it, one dot product per entry.
 */
#define BATCH_MIN 4

/*
 * Kernel generators of one part, ascending order: with Q = Pc V^-1, column
 * i of Q scaled by p^{e - v_i} (i < rank, v_i > 0) has order p^{v_i}, and
 * columns c >= rank have order q. Q is invertible and D y = 0 iff
 * y_i in p^{e - v_i} Z/q (i < rank) with y_c free beyond, so these are
 * independent and generate the kernel. Each is z = V^-1 b by back
 * substitution, z_j = b_j + sum_{c > j} (-V[j][c]) z_c: for the scaled
 * column b = p^{e - v_i} e_i (so z_c = 0 beyond i), for a free column c0
 * b = e_{c0}, which puts the constant -V[j][c0] into every z_j, j < rank.
 * Returns the count; *gens_out holds count x n bytes (original column
 * order), *ord_out the orders.
 */
static size_t kernel_part(const struct part *pt, int n, uint8_t **gens_out,
                          unsigned **ord_out)
{
    const unsigned q = pt->q;
    const int rk = pt->rank;
    const uint8_t *w = pt->w;
    size_t cnt = 0, g = 0;
    uint8_t *gens;
    unsigned *ord;
    int i, j, c;

    for (i = 0; i < rk; i++)
        cnt += pt->val[i] > 0;
    cnt += (size_t)(n - rk);
    gens = QN_NEWN(cnt * (size_t)n + 1, uint8_t);
    ord = QN_NEWN(cnt + 1, unsigned);
    for (i = 0; i < rk; i++)
        if (pt->val[i])
            ord[g++] = pt->ppow[pt->val[i]];
    for (i = rk; i < n; i++)
        ord[g++] = q;

    if (cnt >= BATCH_MIN && rk > 0) {
        /* z[j][g]: coordinate j < rank of generator g. */
        size_t ldz = (cnt + 63) & ~(size_t)31, len = (cnt + 31) & ~(size_t)31;
        uint8_t *z = QN_NEWN((size_t)rk * ldz, uint8_t);

        for (g = 0, i = 0; i < rk; i++)
            if (pt->val[i])
                z[(size_t)i * ldz + g++] =
                    (uint8_t)pt->ppow[pt->e - pt->val[i]];
        for (c = rk; c < n; c++, g++)
            for (j = 0; j < rk; j++)
                z[(size_t)j * ldz + g] = w[(size_t)j * pt->ld + c];
        for (j = rk - 1; j >= 0; j--) {
            const uint8_t *wr = w + (size_t)j * pt->ld;

            /* z_j += (-V[j][c]) z_c, as z_j -= (q - stored) z_c. */
            for (c = j + 1; c < rk; c++)
                if (wr[c])
                    pt->rowop(z + (size_t)j * ldz, z + (size_t)c * ldz, len,
                              pt->tab + (size_t)(q - wr[c]) * 32, q);
        }
        for (g = 0; g < cnt; g++)
            for (c = 0; c < rk; c++)
                gens[g * n + pt->pcol[c]] = z[(size_t)c * ldz + g];
        free(z);
    } else {
        uint8_t *z = QN_NEWN((size_t)n + 1, uint8_t);

        for (g = 0, i = 0; i < rk; i++) {
            if (!pt->val[i])
                continue;
            memset(z, 0, (size_t)n);
            z[i] = (uint8_t)pt->ppow[pt->e - pt->val[i]];
            for (j = i - 1; j >= 0; j--)
                z[j] = (uint8_t)dotmod(w + (size_t)j * pt->ld + j + 1,
                                       z + j + 1, (size_t)(i - j), q);
            for (c = 0; c < rk; c++)
                gens[g * n + pt->pcol[c]] = z[c];
            g++;
        }
        for (i = rk; i < n; i++, g++) {
            memset(z, 0, (size_t)n);
            for (j = rk - 1; j >= 0; j--) {
                unsigned acc = dotmod(w + (size_t)j * pt->ld + j + 1, z + j + 1,
                                      (size_t)(rk - j - 1), q) +
                               w[(size_t)j * pt->ld + i];

                z[j] = (uint8_t)(acc >= q ? acc - q : acc);
            }
            for (c = 0; c < rk; c++)
                gens[g * n + pt->pcol[c]] = z[c];
        }
        free(z);
    }
    /* The free columns' own coordinate. */
    for (g = cnt - (size_t)(n - rk), i = rk; i < n; i++, g++)
        gens[g * n + pt->pcol[i]] = 1;
    *gens_out = gens;
    *ord_out = ord;
    return cnt;
}

/*
 * Cokernel of one part, ascending order. s -> P s = L^-1 Pr s is a
 * bijection taking the image onto D (Z/q)^n, so the cokernel is
 * sum Z/p^{v_i} (i < rank, v_i > 0) plus (Z/q)^{m - rank}, and the
 * quotient map is s -> (row i of P) . s mod its order. Row i of L^-1 is the
 * w with w L = e_i: w_i = 1, w_j = 0 for j > i, and for j < i
 * w_j = sum_{l = j+1..i} w_l (-L[l][j]). Only columns j < rank of L are
 * nonzero, so for i >= rank the sum is the constant -L[i][j] plus terms
 * l < rank. Returns the count; *cond_out holds count x m bytes (original
 * row order, reduced mod the order), *ord_out the orders.
 */
static size_t cokernel_part(const struct part *pt, int m, uint8_t **cond_out,
                            unsigned **ord_out)
{
    const unsigned q = pt->q;
    const int rk = pt->rank;
    const uint8_t *w = pt->w;
    size_t cnt = 0, g = 0;
    uint8_t *cond;
    unsigned *ord;
    int i, j, l;

    for (i = 0; i < rk; i++)
        cnt += pt->val[i] > 0;
    cnt += (size_t)(m - rk);
    cond = QN_NEWN(cnt * (size_t)m + 1, uint8_t);
    ord = QN_NEWN(cnt + 1, unsigned);
    for (i = 0; i < rk; i++)
        if (pt->val[i])
            ord[g++] = pt->ppow[pt->val[i]];
    for (i = rk; i < m; i++)
        ord[g++] = q;

    if (cnt >= BATCH_MIN && rk > 0) {
        /*
         * x[j][g] = w_j of condition g. Right-looking: once every l' > l
         * has been pushed into row l it is final, and it is pushed into
         * the rows j < l along row l of the stored -L (contiguous).
         */
        size_t ldx = (cnt + 63) & ~(size_t)31, len = (cnt + 31) & ~(size_t)31;
        uint8_t *x = QN_NEWN((size_t)rk * ldx, uint8_t);

        for (g = 0, i = 0; i < rk; i++)
            if (pt->val[i])
                x[(size_t)i * ldx + g++] = 1;
        for (i = rk; i < m; i++, g++)
            for (j = 0; j < rk; j++)
                x[(size_t)j * ldx + g] = w[(size_t)i * pt->ld + j];
        for (l = rk - 1; l > 0; l--) {
            const uint8_t *wr = w + (size_t)l * pt->ld;

            for (j = 0; j < l; j++)
                if (wr[j])
                    pt->rowop(x + (size_t)j * ldx, x + (size_t)l * ldx, len,
                              pt->tab + (size_t)(q - wr[j]) * 32, q);
        }
        for (g = 0; g < cnt; g++)
            for (l = 0; l < rk; l++)
                cond[g * m + pt->prow[l]] =
                    (uint8_t)(ord[g] == q ? x[(size_t)l * ldx + g]
                                          : x[(size_t)l * ldx + g] % ord[g]);
        free(x);
    } else {
        /*
         * One condition at a time, right-looking as above: acc[j] gathers
         * w_l (-L[l][j]) along contiguous rows l of the stored -L, and
         * acc[l] is final (reduced to w_l) when row l's turn comes. Terms
         * are below 2^16, so the sums are reduced every 2^15 rows.
         */
        uint32_t *acc = QN_NEWN((size_t)m + 1, uint32_t);

        for (g = 0, i = 0; i < m; i++) {
            int top = i < rk ? i : rk; /* rows l < top still to push */

            if (i < rk && !pt->val[i])
                continue;
            memset(acc, 0, (size_t)m * sizeof(*acc));
            acc[i] = 1;
            if (i >= rk)
                for (j = 0; j < rk; j++)
                    acc[j] = w[(size_t)i * pt->ld + j];
            for (l = top - (i < rk ? 0 : 1); l > 0; l--) {
                const uint8_t *wr = w + (size_t)l * pt->ld;
                uint32_t wl;

                if ((top - l) % 32768 == 32767)
                    for (j = 0; j < l; j++)
                        acc[j] %= q;
                wl = acc[l] %= q;
                if (wl)
                    for (j = 0; j < l; j++)
                        acc[j] += wl * wr[j];
            }
            if (top > 0)
                acc[0] %= q;
            for (l = 0; l < rk; l++)
                cond[g * m + pt->prow[l]] = (uint8_t)(acc[l] % ord[g]);
            g++;
        }
        free(acc);
    }
    /* The rows beyond the rank: their own coordinate (order q > 1). */
    for (g = cnt - (size_t)(m - rk), i = rk; i < m; i++, g++)
        cond[g * m + pt->prow[i]] = 1;
    *cond_out = cond;
    *ord_out = ord;
    return cnt;
}

/* ---------------------------------------------------------------------- */
/* Joining the parts */

/*
 * Invariant-factor form from the parts' elementary divisors. Each part's
 * list is ascending; pairing the t-th largest of every part gives a cyclic
 * group of order prod ord_p (orders of distinct primes are coprime), and
 * since each part's t-th largest divides its (t-1)-th, the products form a
 * divisibility chain. The combined vector is sum_p e_p g_p mod k with e_p
 * the CRT idempotents, so it reduces to g_p mod q_p and to 0 modulo parts
 * that have no t-th element; its order is the product. For conditions the
 * same combination reduced mod the product d works: e_p is 1 mod q_p and 0
 * mod the other q's, hence also mod their divisors in d.
 */
static size_t join(const qn_zfact *f, size_t len, size_t cnt[], uint8_t *vec[],
                   unsigned *ord[], bool reduce, uint8_t **vec_out,
                   unsigned **ord_out)
{
    size_t total = 0, t, c;
    int pi;
    uint8_t *out;
    unsigned *oo, *acc;

    if (f->nparts == 1) { /* nothing to join: take the part's arrays */
        *vec_out = vec[0];
        *ord_out = ord[0];
        vec[0] = NULL;
        ord[0] = NULL;
        return cnt[0];
    }
    acc = QN_NEWN(len + 1, unsigned);
    for (pi = 0; pi < f->nparts; pi++)
        if (cnt[pi] > total)
            total = cnt[pi];
    out = QN_NEWN(total * len + 1, uint8_t);
    oo = QN_NEWN(total + 1, unsigned);
    for (t = 0; t < total; t++) {
        size_t slot = total - 1 - t;
        unsigned o = 1;

        memset(acc, 0, len * sizeof(*acc));
        for (pi = 0; pi < f->nparts; pi++) {
            const uint8_t *g;

            if (cnt[pi] <= t)
                continue;
            g = vec[pi] + (cnt[pi] - 1 - t) * len;
            o *= ord[pi][cnt[pi] - 1 - t];
            for (c = 0; c < len; c++)
                acc[c] = fastmod(acc[c] + f->crt[pi] * g[c], f->magic, f->k);
        }
        if (reduce && o != f->k) {
            uint64_t magic = fastmod_magic(o);

            for (c = 0; c < len; c++)
                out[slot * len + c] = (uint8_t)fastmod(acc[c], magic, o);
        } else {
            for (c = 0; c < len; c++)
                out[slot * len + c] = (uint8_t)acc[c];
        }
        oo[slot] = o;
    }
    free(acc);
    *vec_out = out;
    *ord_out = oo;
    return total;
}

int qn_zfact_new(qn_zfact **out, const qn_zmat *a, qn_err *err)
{
    qn_zfact *f;
    uint8_t *vec[MAX_PARTS];
    unsigned *ord[MAX_PARTS], k = a->k, rest, p;
    size_t cnt[MAX_PARTS], i;
    int pi, mn;

    *out = NULL;
    if (k < 2 || k > 255)
        return qn_err_set(err, QN_EINVAL, 0, 0,
                          "modulus must be 2..255, got %u", k);
    assert(a->nrows >= 0 && a->ncols >= 0);
    assert(a->e || (size_t)a->nrows * a->ncols == 0);
    f = QN_NEW(qn_zfact);
    f->m = a->nrows;
    f->n = a->ncols;
    f->k = k;
    f->magic = fastmod_magic(k);
    mn = f->m < f->n ? f->m : f->n;
    for (rest = k, p = 2; rest > 1; p++) {
        struct part *pt;
        unsigned j;

        if (rest % p)
            continue;
        pt = &f->part[f->nparts++];
        pt->p = p;
        pt->q = 1;
        for (pt->e = 0; rest % p == 0; pt->e++) {
            rest /= p;
            pt->q *= p;
        }
        for (j = 0, pt->ppow[0] = 1; j < pt->e; j++)
            pt->ppow[j + 1] = pt->ppow[j] * p;
    }
    for (pi = 0; pi < f->nparts; pi++) {
        unsigned q = f->part[pi].q, co = k / q;

        f->crt[pi] = co * inv_mod(co % q, q) % k;
        factor_part(&f->part[pi], a);
    }

    f->ninv = (size_t)mn;
    f->inv = QN_NEWN((size_t)mn + 1, unsigned);
    for (i = 0; i < (size_t)mn; i++) {
        unsigned d = 1;

        for (pi = 0; pi < f->nparts; pi++) {
            const struct part *pt = &f->part[pi];

            d *= i < (size_t)pt->rank ? pt->ppow[pt->val[i]] : pt->q;
        }
        f->inv[i] = d;
    }

    for (pi = 0; pi < f->nparts; pi++)
        cnt[pi] = kernel_part(&f->part[pi], f->n, &vec[pi], &ord[pi]);
    f->nker = join(f, (size_t)f->n, cnt, vec, ord, false, &f->ker, &f->kord);
    for (pi = 0; pi < f->nparts; pi++) {
        free(vec[pi]);
        free(ord[pi]);
    }

    for (pi = 0; pi < f->nparts; pi++)
        cnt[pi] = cokernel_part(&f->part[pi], f->m, &vec[pi], &ord[pi]);
    f->ncok = join(f, (size_t)f->m, cnt, vec, ord, true, &f->cond, &f->cord);
    for (pi = 0; pi < f->nparts; pi++) {
        free(vec[pi]);
        free(ord[pi]);
    }
    *out = f;
    return QN_OK;
}

void qn_zfact_free(qn_zfact *f)
{
    int pi;

    if (!f)
        return;
    for (pi = 0; pi < f->nparts; pi++) {
        struct part *pt = &f->part[pi];

        free(pt->w);
        free(pt->prow);
        free(pt->pcol);
        free(pt->lbeg);
        free(pt->vend);
        free(pt->val);
        free(pt->uinv);
        free(pt->tab);
    }
    free(f->ker);
    free(f->kord);
    free(f->inv);
    free(f->cord);
    free(f->cond);
    free(f);
}

int qn_zfact_nrows(const qn_zfact *f)
{
    return f->m;
}

int qn_zfact_ncols(const qn_zfact *f)
{
    return f->n;
}

unsigned qn_zfact_modulus(const qn_zfact *f)
{
    return f->k;
}

/*
 * Solve part by part, then recombine: x = sum_p e_p x_p mod k is the
 * unique vector mod k that reduces to each part's solution.
 */
static int solve(const qn_zfact *f, uint8_t *x, const uint8_t *s)
{
    uint8_t stack[SOLVE_STACK], *buf = stack, *t, *z, *xp, *xs;
    const size_t m = (size_t)f->m, n = (size_t)f->n;
    size_t need = m + 3 * n, c;
    int pi, ret = QN_OK;

    if (need > sizeof(stack))
        buf = qn_xmalloc(need);
    t = buf;
    z = t + m;
    xp = z + n;
    xs = xp + n;
    if (x)
        memset(xs, 0, n);
    for (pi = 0; pi < f->nparts; pi++) {
        const struct part *pt = &f->part[pi];

        if (!solve_part(pt, f->m, f->n, s,
                        x ? (f->nparts == 1 ? xs : xp) : NULL, t, z)) {
            ret = QN_EUNSOLVABLE;
            goto done;
        }
        if (x && f->nparts > 1)
            for (c = 0; c < n; c++)
                xs[c] = (uint8_t)fastmod(xs[c] + f->crt[pi] * xp[c], f->magic,
                                         f->k);
    }
    if (x && n)
        memcpy(x, xs, n);
done:
    if (buf != stack)
        free(buf);
    return ret;
}

int qn_zfact_solve(const qn_zfact *f, uint8_t *x, const uint8_t *s)
{
    assert(x);
    return solve(f, x, s);
}

int qn_zfact_is_solvable(const qn_zfact *f, const uint8_t *s)
{
    return solve(f, NULL, s) == QN_OK;
}

size_t qn_zfact_kernel_ngens(const qn_zfact *f)
{
    return f->nker;
}

const uint8_t *qn_zfact_kernel_gen(const qn_zfact *f, size_t i)
{
    assert(i < f->nker);
    return f->ker + i * (size_t)f->n;
}

unsigned qn_zfact_kernel_order(const qn_zfact *f, size_t i)
{
    assert(i < f->nker);
    return f->kord[i];
}

size_t qn_zfact_ninvariants(const qn_zfact *f)
{
    return f->ninv;
}

const unsigned *qn_zfact_invariants(const qn_zfact *f)
{
    return f->inv;
}

size_t qn_zfact_cokernel_ngens(const qn_zfact *f)
{
    return f->ncok;
}

const unsigned *qn_zfact_cokernel_orders(const qn_zfact *f)
{
    return f->cord;
}

const uint8_t *qn_zfact_condition(const qn_zfact *f, size_t j)
{
    assert(j < f->ncok);
    return f->cond + j * (size_t)f->m;
}

void qn_zfact_quotient(const qn_zfact *f, unsigned *out, const uint8_t *s)
{
    size_t j;

    for (j = 0; j < f->ncok; j++)
        out[j] =
            dotmod(f->cond + j * (size_t)f->m, s, (size_t)f->m, f->cord[j]);
}
