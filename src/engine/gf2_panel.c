/*
 * gf2_panel.c: row echelon form of large GF(2) matrices, PANEL 64-column
 * words of pivots per pass over the rows (issue #24).
 *
 * The word-at-a-time engine in gf2_elim.c streams every remaining row once
 * per 64 pivots, reads its tables (1 MB per stripe) from L2 and reduces
 * each block's pivot rows with full-length XORs. From about 16384 columns
 * on, the matrix fits no cache and those passes cost as much as the
 * arithmetic. Here one pass clears up to 64 * PANEL pivots, in three steps.
 *
 *  1. Select. Scan rows r.. keeping a fully reduced basis of their values
 *     in the panel's words (bv[j] is zero at every other basis pivot, so
 *     a row is reduced by its own bits at the pivots alone). A row outside
 *     the span joins as X_p and moves up to row r + p. Beside each basis
 *     vector we keep which X rows sum to it (comb[j], p bits), so the
 *     basis never touches a full row. The basis pivots are the panel's
 *     echelon pivots (the basis is the reduced echelon form of the
 *     panel's row space).
 *  2. Coefficients. Every row must become a sum of X rows: row r + k the
 *     basis vector with the k-th pivot (so rows r.. are reduced echelon on
 *     the panel and sorted), a row below itself plus the basis vectors of
 *     its own pivot bits, which clears its panel part (that part is in the
 *     span, and the sum matches it at every pivot). So each row gets the
 *     set of X rows to add, p bits, read from byte tables of comb sums.
 *  3. Update. The p bits are cut into bytes; for each stripe of STRIPE
 *     words a 256-entry table of sums of 8 X rows per byte (8 KB each at
 *     most 256 KB, in L2) is built from the X rows, then every row XORs
 *     its up to p / 8 entries into one register. The X rows are rows too:
 *     the tables of a stripe are built before any row's stripe changes.
 *
 * Pivots are a property of the matrix, so this gives the same rank,
 * pivots and kernel as gf2_elim.c; only the echelon rows differ.
 */
#include "gf2_internal.h"

#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "base/mem.h"

enum {
    PANEL = 4,         /* words of pivot columns per pass */
    MAXP = 64 * PANEL, /* pivots per pass */
    CW = MAXP / 64,    /* words of a coefficient vector */
    STRIPE = 8,        /* words per table entry: one 512-bit vector */
    NGROUP = MAXP / 8, /* byte tables per pass */
    PREFETCH = 8,      /* rows ahead: each row's stripe is in another
                          4 KB page, where hardware prefetch stops */
};

/*
 * Table entries and row stripes are XORed as GCC/clang vectors of the
 * width the function's target has: one 512-bit vector for AVX-512, two of
 * 256 bits for AVX2, four of 128 bits otherwise (SSE2, or pairs of words
 * elsewhere). A vector the target has not got would be lowered through the
 * stack. aligned(8): a row's stripe may start at any word.
 */
typedef uint64_t v512 __attribute__((vector_size(64), aligned(8)));
typedef uint64_t v256 __attribute__((vector_size(32), aligned(8)));
typedef uint64_t v128 __attribute__((vector_size(16), aligned(8)));

typedef struct panel {
    uint64_t *w;
    size_t stride;
    int nrows, nw;
    int kw;                   /* words in this pass (<= PANEL) */
    uint64_t mask[PANEL];     /* pivot columns of each panel word */
    uint64_t bv[MAXP][PANEL]; /* basis, reduced (zero at other pivots) */
    uint64_t comb[MAXP][CW];  /* bv[j] = sum of X rows in comb[j] */
    int slot[MAXP];           /* panel column -> basis index */
    int *live;                /* rows that change, in row order */
    int nlive;
    uint64_t *coef; /* per live row: the X rows to add, CW */
    uint64_t *tab;  /* NGROUP * 256 entries of STRIPE words, */
    void *tab_base; /* 64-byte aligned inside tab_base */
} panel;

static uint64_t *row_at(const panel *pn, int r)
{
    return pn->w + (size_t)r * pn->stride;
}

static void swap_tail(uint64_t *a, uint64_t *b, int from, int to)
{
    for (int t = from; t < to; t++) {
        uint64_t s = a[t];

        a[t] = b[t];
        b[t] = s;
    }
}

_Static_assert(PANEL == 4 && CW == 4, "xor_masked spells out 4 words");

/* d ^= s & m over PANEL (= CW) words. */
static inline void xor_masked(uint64_t *d, const uint64_t *s, uint64_t m)
{
    d[0] ^= s[0] & m;
    d[1] ^= s[1] & m;
    d[2] ^= s[2] & m;
    d[3] ^= s[3] & m;
}

/* Join x (reduced, not zero; its X combination cx) as basis vector p. */
static void join(panel *pn, int p, const uint64_t *x, const uint64_t *cx)
{
    int b = 0;

    while (!x[b / 64])
        b += 64;
    b += __builtin_ctzll(x[b / 64]);
    for (int j = 0; j < p; j++) {
        /* all ones where bv[j] has bit b: no branch to mispredict */
        uint64_t has = 0 - (pn->bv[j][b / 64] >> (b % 64) & 1);

        xor_masked(pn->bv[j], x, has);
        xor_masked(pn->comb[j], cx, has);
    }
    memcpy(pn->bv[p], x, sizeof(pn->bv[p]));
    memcpy(pn->comb[p], cx, sizeof(pn->comb[p]));
    pn->slot[b] = p;
    pn->mask[b / 64] |= (uint64_t)1 << (b % 64);
}

/* Step 1 for the panel at word wi; returns p, X_k is now row r + k. */
static int select_rows(panel *pn, int r, int wi)
{
    int p = 0, kw = pn->kw;

    memset(pn->mask, 0, sizeof(pn->mask));
    for (int i = r; i < pn->nrows && p < 64 * kw; i++) {
        uint64_t *row = row_at(pn, i), any = 0;
        uint64_t x[PANEL] = {0}, cx[CW] = {0};

        for (int q = 0; q < kw; q++)
            any |= x[q] = row[wi + q];
        if (!any)
            continue;
        for (int q = 0; q < kw; q++) {
            for (uint64_t c = x[q] & pn->mask[q]; c; c &= c - 1) {
                int j = pn->slot[64 * q + __builtin_ctzll(c)];

                xor_masked(x, pn->bv[j], ~(uint64_t)0);
                xor_masked(cx, pn->comb[j], ~(uint64_t)0);
            }
        }
        if (!(x[0] | x[1] | x[2] | x[3]))
            continue; /* in the span: step 3 clears it */
        cx[p / 64] ^= (uint64_t)1 << (p % 64);
        join(pn, p, x, cx);
        if (i != r + p) /* rows left of wi are zero in both */
            swap_tail(row, row_at(pn, r + p), wi, pn->nw);
        p++;
    }
    return p;
}

/* Add row i to the live rows with coefficients acc, unless they are 0. */
static void add_live(panel *pn, int i, const uint64_t *acc)
{
    if (!(acc[0] | acc[1] | acc[2] | acc[3]))
        return; /* nothing to add: sparse and banded matrices have many */
    memcpy(pn->coef + (size_t)pn->nlive * CW, acc, CW * sizeof(uint64_t));
    pn->live[pn->nlive++] = i;
}

/*
 * Step 2: the live rows and their coefficients. Pivot rows: the basis in
 * pivot order. Rows below r + p: comb sums over their pivot bits, by byte
 * tables of comb sums (pn->tab as scratch: NGROUP * 256 entries).
 */
static void coefficients(panel *pn, int r, int p, int wi)
{
    uint64_t *ct = pn->tab; /* entry v of group g at (256 g + v) * CW */
    int k = 0;

    for (int g = 0; g < 8 * pn->kw; g++) {
        unsigned mb = (unsigned)(pn->mask[g / 8] >> (8 * (g % 8))) & 255u;
        uint64_t *t = ct + (size_t)g * 256 * CW;

        memset(t, 0, CW * sizeof(uint64_t));
        for (unsigned v = (0u - mb) & mb; v; v = (v - mb) & mb) {
            uint64_t *d = t + (size_t)v * CW;

            memcpy(d, t + (size_t)(v & (v - 1)) * CW, CW * sizeof(uint64_t));
            xor_masked(d, pn->comb[pn->slot[8 * g + __builtin_ctz(v)]],
                       ~(uint64_t)0);
        }
    }
    pn->nlive = 0;
    /* Row r + k becomes bv of the k-th pivot: X_k plus the others. */
    for (int c = 0; c < 64 * pn->kw; c++) {
        uint64_t acc[CW];

        if (!(pn->mask[c / 64] >> (c % 64) & 1))
            continue;
        memcpy(acc, pn->comb[pn->slot[c]], sizeof(acc));
        acc[k / 64] ^= (uint64_t)1 << (k % 64);
        add_live(pn, r + k, acc);
        k++;
    }
    for (int i = r + p; i < pn->nrows; i++) {
        const uint64_t *row = row_at(pn, i) + wi;
        uint64_t acc[CW] = {0};

        for (int q = 0; q < pn->kw; q++) {
            const uint64_t *t = ct + (size_t)q * 8 * 256 * CW;

            for (uint64_t x = row[q] & pn->mask[q]; x; x >>= 8, t += 256 * CW)
                xor_masked(acc, t + (x & 255) * CW, ~(uint64_t)0);
        }
        add_live(pn, i, acc);
    }
}

/*
 * Step 3 for the stripe of len <= STRIPE words at word s: build the tables
 * (sums of X rows, entries padded with zeros to STRIPE words), then XOR
 * them into the live rows. One body, compiled for each instruction set
 * below with its vector type VT (NV of them per entry); XOR is exact, so
 * every version gives the same bits.
 */
#define STRIPE_BODY(VT, NV)                                                    \
    uint64_t *tab = pn->tab;                                                   \
                                                                               \
    for (int g = 0; g < (p + 7) / 8; g++) {                                    \
        int nb = p - 8 * g < 8 ? p - 8 * g : 8;                                \
        uint64_t *t = tab + (size_t)g * 256 * STRIPE;                          \
                                                                               \
        memset(t, 0, STRIPE * sizeof(uint64_t));                               \
        for (unsigned v = 1; v < 1u << nb; v++) {                              \
            uint64_t x[STRIPE] = {0};                                          \
            VT *d = (VT *)(t + (size_t)v * STRIPE);                            \
            const VT *a = (const VT *)(t + (size_t)(v & (v - 1)) * STRIPE);    \
                                                                               \
            memcpy(x, row_at(pn, r + 8 * g + __builtin_ctz(v)) + s,            \
                   (size_t)len * sizeof(uint64_t));                            \
            _Pragma("GCC unroll 8") for (int u = 0; u < NV; u++) d[u] =        \
                a[u] ^ ((const VT *)x)[u];                                     \
        }                                                                      \
    }                                                                          \
    for (int j = 0; j < pn->nlive; j++) {                                      \
        uint64_t *d = row_at(pn, pn->live[j]) + s, w[STRIPE] = {0};            \
        const uint64_t *cf = pn->coef + (size_t)j * CW;                        \
        VT acc[NV];                                                            \
                                                                               \
        if (j + PREFETCH < pn->nlive)                                          \
            __builtin_prefetch(row_at(pn, pn->live[j + PREFETCH]) + s, 1);     \
                                                                               \
        if (len == STRIPE)                                                     \
            memcpy(w, d, sizeof(w));                                           \
        else                                                                   \
            memcpy(w, d, (size_t)len * sizeof(uint64_t));                      \
        _Pragma("GCC unroll 8") for (int u = 0; u < NV; u++) acc[u] =          \
            ((const VT *)w)[u];                                                \
        for (int c = 0; c < CW; c++) {                                         \
            const uint64_t *t = tab + (size_t)c * 8 * 256 * STRIPE;            \
                                                                               \
            for (uint64_t x = cf[c]; x; x >>= 8, t += 256 * STRIPE) {          \
                const VT *e = (const VT *)(t + (x & 255) * STRIPE);            \
                                                                               \
                if (x & 255)                                                   \
                    _Pragma("GCC unroll 8") for (int u = 0; u < NV; u++)       \
                        acc[u] ^= e[u];                                        \
            }                                                                  \
        }                                                                      \
        _Pragma("GCC unroll 8") for (int u = 0; u < NV; u++)((VT *)w)[u] =     \
            acc[u];                                                            \
        if (len == STRIPE)                                                     \
            memcpy(d, w, sizeof(w));                                           \
        else                                                                   \
            memcpy(d, w, (size_t)len * sizeof(uint64_t));                      \
    }

typedef void stripefn(const panel *pn, int r, int p, int s, int len);

static void stripe_plain(const panel *pn, int r, int p, int s, int len)
{
    STRIPE_BODY(v128, STRIPE / 2)
}

#if defined(__x86_64__) && defined(__GNUC__)
#define HAVE_X86 1
__attribute__((target("avx2"))) static void stripe_avx2(const panel *pn, int r,
                                                        int p, int s, int len)
{
    STRIPE_BODY(v256, STRIPE / 4)
}

__attribute__((target("avx512f"))) static void
stripe_avx512(const panel *pn, int r, int p, int s, int len)
{
    STRIPE_BODY(v512, STRIPE / 8)
}
#endif

/* Once per elimination. QN_GF2_SIMD_PLAIN forces the portable version and
 * QN_GF2_SIMD_AVX2 the AVX2 one, so the tests cover every version on an
 * AVX-512 machine. */
static stripefn *pick_stripe(int simd)
{
    if (simd == QN_GF2_SIMD_PLAIN)
        return stripe_plain;
#ifdef HAVE_X86
    __builtin_cpu_init();
    if (__builtin_cpu_supports("avx512f") && simd != QN_GF2_SIMD_AVX2)
        return stripe_avx512;
    if (__builtin_cpu_supports("avx2"))
        return stripe_avx2;
#endif
    return stripe_plain;
}

/* Are the X rows zero in the stripe? Then every table entry is zero: a
 * band matrix's rows end long before the last column. */
static int stripe_zero(const panel *pn, int r, int p, int s, int len)
{
    uint64_t any = 0;

    for (int k = 0; k < p && !any; k++)
        for (int t = 0; t < len; t++)
            any |= row_at(pn, r + k)[s + t];
    return !any;
}

int qn_gf2__echelon_panel(qn_gf2mat *m, int *pivots, int pivwords, int simd)
{
    panel *pn = QN_ALLOC(panel);
    stripefn *fn = pick_stripe(simd);
    int r = 0;

    if (!pn)
        return QN_ENOMEM;

    pn->w = m->w;
    pn->stride = (size_t)m->stride;
    pn->nrows = m->nrows;
    pn->nw = qn_gf2_words(m->ncols);
    pn->coef = qn_malloc(((size_t)m->nrows + 1) * CW * sizeof(uint64_t));
    pn->live = qn_malloc(((size_t)m->nrows + 1) * sizeof(int));
    pn->tab_base =
        qn_malloc((size_t)NGROUP * 256 * STRIPE * sizeof(uint64_t) + 64);
    if (!pn->coef || !pn->live || !pn->tab_base) {
        r = QN_ENOMEM;
        goto done;
    }
    pn->tab = (uint64_t *)(((uintptr_t)pn->tab_base + 63) & ~(uintptr_t)63);
    for (int wi = 0; wi < pivwords && r < pn->nrows; wi += PANEL) {
        int p;

        pn->kw = pivwords - wi < PANEL ? pivwords - wi : PANEL;
        p = select_rows(pn, r, wi);
        if (!p)
            continue;
        coefficients(pn, r, p, wi);
        /* Stripes at multiples of STRIPE words: rows r.. are zero left of
         * wi, so starting before it changes nothing there. */
        for (int s = wi / STRIPE * STRIPE; s < pn->nw && pn->nlive;
             s += STRIPE) {
            int len = pn->nw - s < STRIPE ? pn->nw - s : STRIPE;

            if (!stripe_zero(pn, r, p, s, len))
                fn(pn, r, p, s, len);
        }
        for (int k = 0, c = 0; k < p; c++)
            if (pn->mask[c / 64] >> (c % 64) & 1) {
                if (pivots)
                    pivots[r + k] = 64 * wi + c;
                k++;
            }
        r += p;
    }
done:
    free(pn->coef);
    free(pn->live);
    free(pn->tab_base);
    free(pn);
    return r;
}
