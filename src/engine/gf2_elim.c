/*
 * gf2_elim.c: Gaussian elimination over GF(2) by the Method of Four
 * Russians (M4RI), the engine behind rank, rref, kernels and gf2fact.
 */
#include "gf2_internal.h"

#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "base/mem.h"

/*
 * The algorithm, one 64-column word at a time.
 *
 * Say rows r.. are zero left of word wi. Their values in word wi span a
 * space of dimension p <= 64; its reduced echelon basis tells which
 * columns of the word are pivots. We find it by scanning rows r.. and
 * keeping a fully reduced basis of the word values seen so far (a row whose
 * reduced word is not zero joins it, with its lowest set bit as pivot), so
 * the scan stops after about 64 rows on dense input and each joining row
 * costs a few full-row XORs. The p pivot rows move to r..r+p-1, sorted by
 * pivot column: they are the echelon rows of this word.
 *
 * Then every other row must lose its pivot bits. Because the pivot rows
 * are zero at each other's pivot columns, the combination of pivot rows a
 * row needs is read directly off its own pivot bits, before any XOR. So
 * the 64 pivot bits are cut into 8 bytes and, for each byte, a table of the
 * (up to) 256 sums of that byte's pivot rows is built with one XOR per
 * entry (Gray-code style: entry v = entry (v minus its lowest bit) + one
 * row). Each remaining row then costs 8 lookups and one 8-way XOR instead
 * of up to 64 row XORs. Rows left of word wi are zero, so all XORs start at
 * word wi. A row whose pivot bits are in the span has a zero word wi
 * afterwards, so below the pivots the word is cleared completely.
 *
 * Cache: 8 tables over a whole 10000-column row take 2.5 MB. The columns
 * are therefore processed in stripes of STRIPE words, building the 8
 * tables for one stripe (8 * 255 * 64 words = 1 MB, within L2) and then
 * streaming every row through them. Stripes of 32..96 words time the same.
 *
 * Tried and dropped: two words per pass (16 tables, half as many passes
 * over the rows) was 40% slower at 10000 x 10000, and an AVX-512 XOR
 * kernel 10% slower than AVX2: the time goes into reading table entries
 * from L2, not into streaming the matrix or into XOR instructions.
 *
 * From 8192 columns on, rank and kernel use gf2_panel.c instead (four
 * words per pass, and no full-row work to reduce the pivot rows), which
 * is 1.6x faster at 16384; below that this engine is as fast or faster.
 */

enum {
    GROUPS = 8,  /* byte tables per 64-pivot block */
    STRIPE = 64, /* words of columns per table stripe */
};

/* d[0..n) ^= s[0][0..n) ^ ... ^ s[k-1][0..n), 1 <= k <= 8. */
typedef void xorfn(uint64_t *d, const uint64_t *const *s, int k, size_t n);

static void xor_plain(uint64_t *d, const uint64_t *const *s, int k, size_t n)
{
    size_t i;
    int j;

    if (k == 8) {
        for (i = 0; i < n; i++)
            d[i] ^= s[0][i] ^ s[1][i] ^ s[2][i] ^ s[3][i] ^ s[4][i] ^ s[5][i] ^
                    s[6][i] ^ s[7][i];
        return;
    }
    for (i = 0; i < n; i++) {
        uint64_t a = d[i];

        for (j = 0; j < k; j++)
            a ^= s[j][i];
        d[i] = a;
    }
}

#if defined(__x86_64__) && defined(__GNUC__)
#include <immintrin.h>
#define HAVE_AVX2 1

#define LD(p) _mm256_loadu_si256((const __m256i *)(p))
#define X(a, b) _mm256_xor_si256((a), (b))

/*
 * The build targets x86-64-v2, so AVX2 is chosen at run time. Rows are not
 * 32-byte aligned at word wi, hence unaligned loads (full speed on aligned
 * data on every AVX2 CPU). tune=skylake: with -mtune=generic clang splits
 * each unaligned 256-bit load in two, a Sandy Bridge-era habit.
 */
__attribute__((target("avx2,tune=skylake"))) static void
xor_avx2(uint64_t *d, const uint64_t *const *s, int k, size_t n)
{
    size_t i = 0;
    int j;

    if (k == 8) {
        const uint64_t *s0 = s[0], *s1 = s[1], *s2 = s[2], *s3 = s[3];
        const uint64_t *s4 = s[4], *s5 = s[5], *s6 = s[6], *s7 = s[7];

        for (; i + 4 <= n; i += 4) {
            __m256i a = X(LD(d + i), LD(s0 + i));
            __m256i b = X(LD(s1 + i), LD(s2 + i));
            __m256i c = X(LD(s3 + i), LD(s4 + i));
            __m256i e = X(LD(s5 + i), LD(s6 + i));

            a = X(X(a, b), X(X(c, e), LD(s7 + i)));
            _mm256_storeu_si256((__m256i *)(d + i), a);
        }
    } else {
        for (; i + 4 <= n; i += 4) {
            __m256i a = LD(d + i);

            for (j = 0; j < k; j++)
                a = X(a, LD(s[j] + i));
            _mm256_storeu_si256((__m256i *)(d + i), a);
        }
    }
    for (; i < n; i++) {
        uint64_t a = d[i];

        for (j = 0; j < k; j++)
            a ^= s[j][i];
        d[i] = a;
    }
}

#undef LD
#undef X
#endif

/* Once per elimination. QN_GF2_SIMD_PLAIN forces the portable kernel, so
 * the tests cover it on AVX2 machines too. */
static xorfn *pick_xor(int simd)
{
#ifdef HAVE_AVX2
    if (__builtin_cpu_supports("avx2") && simd != QN_GF2_SIMD_PLAIN)
        return xor_avx2;
#endif
    return xor_plain;
}

void qn_gf2__xor_rows(uint64_t *d, const uint64_t *const *s, int k, size_t n)
{
#ifdef HAVE_AVX2
    if (__builtin_cpu_supports("avx2")) {
        xor_avx2(d, s, k, n);
        return;
    }
#endif
    xor_plain(d, s, k, n);
}

typedef struct elim {
    uint64_t *w;
    size_t stride; /* words per row */
    int nrows, nw; /* rows; words that hold columns */
    xorfn *xorn;
    uint64_t *tab;        /* GROUPS * 255 entries of stripe words */
    const uint64_t **ent; /* GROUPS * 256 entry pointers into tab */
    uint64_t *idx;        /* per row: its pivot bits for the block */
    uint64_t *tmp;        /* 64 rows of nw words, for reordering */
    int stripe;           /* min(STRIPE, nw) */
} elim;

/* QN_OK, or QN_ENOMEM with nothing held (m is not touched here). */
static int elim_init(elim *e, qn_gf2mat *m, int need_tmp, int simd)
{
    e->w = m->w;
    e->stride = (size_t)m->stride;
    e->nrows = m->nrows;
    e->nw = qn_gf2_words(m->ncols);
    e->xorn = pick_xor(simd);
    e->stripe = e->nw < STRIPE ? e->nw : STRIPE;
    e->tab = qn_malloc((size_t)GROUPS * 255 * (size_t)(e->stripe + 1) *
                       sizeof(uint64_t));
    e->ent = qn_malloc((size_t)GROUPS * 256 * sizeof(*e->ent));
    e->idx = qn_malloc(((size_t)e->nrows + 1) * sizeof(uint64_t));
    e->tmp =
        need_tmp
            ? qn_malloc((size_t)64 * (size_t)(e->nw + 1) * sizeof(uint64_t))
            : NULL;
    if (!e->tab || !e->ent || !e->idx || (need_tmp && !e->tmp)) {
        free(e->tab);
        free(e->ent);
        free(e->idx);
        free(e->tmp);
        return QN_ENOMEM;
    }
    return QN_OK;
}

static void elim_release(elim *e)
{
    free(e->tab);
    free(e->ent);
    free(e->idx);
    free(e->tmp);
}

static uint64_t *row_at(const elim *e, int r)
{
    return e->w + (size_t)r * e->stride;
}

static int ctz64(uint64_t x)
{
    return __builtin_ctzll(x);
}

/* Rows [lo, hi), columns [s0, s0 + len): XOR in the table entries. */
static void apply(elim *e, int lo, int hi, int s0, size_t len)
{
    const uint64_t *src[GROUPS];
    int i, g;

    for (i = lo; i < hi; i++) {
        uint64_t x = e->idx[i];
        int k = 0;

        if (!x)
            continue;
        for (g = 0; g < GROUPS; g++) {
            unsigned b = (unsigned)(x >> (8 * g)) & 255u;

            if (b)
                src[k++] = e->ent[256 * g + b];
        }
        e->xorn(row_at(e, i) + s0, src, k, len);
    }
}

/*
 * Clear the pivot columns of word wi (set bits of mask) from the rows in
 * [lo1, hi1) and [lo2, hi2); prow[b] is the pivot row of bit b. The pivot
 * rows are unit vectors on the pivot columns (see the comment at the top).
 */
static void update(elim *e, int wi, uint64_t mask, uint64_t *const *prow,
                   int lo1, int hi1, int lo2, int hi2)
{
    int i, g, s0;

    for (i = lo1; i < hi1; i++)
        e->idx[i] = row_at(e, i)[wi] & mask;
    for (i = lo2; i < hi2; i++)
        e->idx[i] = row_at(e, i)[wi] & mask;

    for (s0 = wi; s0 < e->nw; s0 += e->stripe) {
        size_t len = (size_t)(e->nw - s0 < e->stripe ? e->nw - s0 : e->stripe);
        uint64_t *next = e->tab;

        /* Tables: entry v of group g = sum of pivot rows of bits in v. */
        for (g = 0; g < GROUPS; g++) {
            unsigned byte = (unsigned)(mask >> (8 * g)) & 255u, v;
            const uint64_t **ent = e->ent + 256 * g;

            for (v = (0u - byte) & byte; v; v = (v - byte) & byte) {
                unsigned prev = v & (v - 1);
                const uint64_t *p = prow[8 * g + ctz64(v)] + s0;

                memcpy(next, p, len * sizeof(uint64_t));
                if (prev)
                    e->xorn(next, &ent[prev], 1, len);
                ent[v] = next;
                next += len;
            }
        }

        apply(e, lo1, hi1, s0, len);
        apply(e, lo2, hi2, s0, len);
    }
}

static void swap_words(uint64_t *a, uint64_t *b, size_t n)
{
    size_t i;

    for (i = 0; i < n; i++) {
        uint64_t t = a[i];

        a[i] = b[i];
        b[i] = t;
    }
}

/*
 * The pivots of word wi among rows r.. (the scan described at the top):
 * keep a fully reduced basis of the word values seen so far; a row outside
 * its span is reduced for real and moved up to row r + p as pivot row p.
 * Returns p; *mask_out gets the pivot columns of the word, and slot[b] the
 * index of bit b's pivot row.
 */
static int find_block(elim *e, int r, int wi, int slot[64], uint64_t *mask_out)
{
    const size_t len = (size_t)(e->nw - wi);
    uint64_t bv[64]; /* basis: reduced word values */
    const uint64_t *src[8];
    uint64_t mask = 0;
    int p = 0, i, j, k;

    for (i = r; i < e->nrows && p < 64; i++) {
        uint64_t *row = row_at(e, i), x = row[wi], c = x & mask, cc;
        int b;

        if (!x)
            continue;
        for (cc = c; cc; cc &= cc - 1)
            x ^= bv[slot[ctz64(cc)]];
        if (!x)
            continue; /* in the span: the block update clears it */
        /* A new pivot row: reduce it for real, then move it up. */
        k = 0;
        for (cc = c; cc; cc &= cc - 1) {
            src[k++] = row_at(e, r + slot[ctz64(cc)]) + wi;
            if (k == 8) {
                e->xorn(row + wi, src, k, len);
                k = 0;
            }
        }
        if (k)
            e->xorn(row + wi, src, k, len);
        if (i != r + p) {
            swap_words(row + wi, row_at(e, r + p) + wi, len);
            row = row_at(e, r + p);
        }
        /* Keep the basis reduced: clear the new pivot bit elsewhere. */
        b = ctz64(x);
        src[0] = row + wi;
        for (j = 0; j < p; j++) {
            if (bv[j] >> b & 1) {
                bv[j] ^= x;
                e->xorn(row_at(e, r + j) + wi, src, 1, len);
            }
        }
        bv[p] = x;
        slot[b] = p;
        mask |= (uint64_t)1 << b;
        p++;
    }
    *mask_out = mask;
    return p;
}

/*
 * Order the block's pivot rows r.. by pivot column (through e->tmp):
 * prow[b] becomes the row of pivot bit b, and pivots (when not NULL) gets
 * the pivot columns.
 */
static void sort_block(elim *e, int r, int wi, uint64_t mask,
                       const int slot[64], uint64_t *prow[64], int *pivots)
{
    const size_t len = (size_t)(e->nw - wi);
    uint64_t rest;
    int k = 0;

    for (rest = mask; rest; rest &= rest - 1)
        memcpy(e->tmp + (size_t)k++ * len,
               row_at(e, r + slot[ctz64(rest)]) + wi, len * sizeof(uint64_t));
    k = 0;
    for (rest = mask; rest; rest &= rest - 1) {
        int b = ctz64(rest);

        prow[b] = row_at(e, r + k);
        memcpy(prow[b] + wi, e->tmp + (size_t)k * len, len * sizeof(uint64_t));
        if (pivots)
            pivots[r + k] = 64 * wi + b;
        k++;
    }
}

int qn_gf2__echelon(qn_gf2mat *m, int *pivots, int pivwords, int full, int simd)
{
    elim e;
    int r = 0, wi;

    if (m->nrows == 0 || m->ncols == 0)
        return 0;
    if (elim_init(&e, m, 1, simd) != QN_OK)
        return QN_ENOMEM;
    for (wi = 0; wi < pivwords && r < e.nrows; wi++) {
        int slot[64];       /* pivot bit -> basis index */
        uint64_t *prow[64]; /* pivot bit -> pivot row, once sorted */
        uint64_t mask;
        int p = find_block(&e, r, wi, slot, &mask);

        if (!p)
            continue;
        sort_block(&e, r, wi, mask, slot, prow, pivots);
        if (full)
            update(&e, wi, mask, prow, 0, r, r + p, e.nrows);
        else if (r + p < e.nrows)
            update(&e, wi, mask, prow, r + p, e.nrows, e.nrows, e.nrows);
        r += p;
    }
    elim_release(&e);
    return r;
}

int qn_gf2__backreduce(qn_gf2mat *m, const int *pivots, int r, int simd)
{
    elim e;
    int hi, lo;

    if (r <= 1)
        return QN_OK;
    if (elim_init(&e, m, 0, simd) != QN_OK)
        return QN_ENOMEM;
    /* Blocks from the last: a block's rows are already clear of later
     * pivots when it is used, as in scalar back substitution. */
    for (hi = r; hi > 0; hi = lo) {
        uint64_t *prow[64];
        uint64_t mask = 0;
        int wi = pivots[hi - 1] / 64, k;

        lo = hi - 1;
        while (lo > 0 && pivots[lo - 1] / 64 == wi)
            lo--;
        for (k = lo; k < hi; k++) {
            prow[pivots[k] % 64] = row_at(&e, k);
            mask |= (uint64_t)1 << (pivots[k] % 64);
        }
        if (lo > 0)
            update(&e, wi, mask, prow, 0, lo, lo, lo);
    }
    elim_release(&e);
    return QN_OK;
}
