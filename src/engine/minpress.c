/*
 * minpress.c: exact minimal presses by walking the solution coset.
 *
 * Every solution is x0 + (a kernel element), so the walk visits each kernel
 * element once in Gray-code order: consecutive elements differ by adding or
 * subtracting one generator, which makes each step cost only that
 * generator's support. Ties are broken towards the lexicographically
 * smallest x, so the reported plan does not depend on the walk order.
 */
#include "engine/minpress.h"

#include <stdlib.h>
#include <string.h>
#ifdef __SSE2__
#include <emmintrin.h>
#endif

#include "base/bits.h"
#include "base/mem.h"
#include "gray.h"
#include "minpress_gf2.h"
#include "minpress_z3.h"
#include "system_internal.h"

/* Product of the kernel orders, or 0 when it exceeds `limit`. */
static uint64_t coset_size(const qn_system *sys, uint64_t limit)
{
    uint64_t n = 1;

    for (size_t i = 0; i < sys->nkgen; i++) {
        if (n > limit / sys->korder[i])
            return 0;
        n *= sys->korder[i];
    }
    return n;
}

/* 16 bytes a step where SSE2 is: psadbw sums each half's 8 bytes. */
static uint64_t sum_of(const uint8_t *x, int n)
{
    uint64_t s = 0;
    int i = 0;

#ifdef __SSE2__
    __m128i acc = _mm_setzero_si128();
    for (; i + 16 <= n; i += 16) /* each half under 2^64: n <= 2^55 */
        acc = _mm_add_epi64(
            acc, _mm_sad_epu8(_mm_loadu_si128((const __m128i *)(x + i)),
                              _mm_setzero_si128()));
    uint64_t half[2];
    _mm_storeu_si128((__m128i *)half, acc);
    s = half[0] + half[1];
#endif
    for (; i < n; i++)
        s += x[i];
    return s;
}

static int minpress_gf2(const qn_system *sys, qn_minpress *out, uint8_t *x)
{
    uint64_t st[2 * 64], *cur, *best, bw, nopt, outside = 0;
    int sw = sys->sw;

    cur = 2 * sw <= 128 ? st : QN_ALLOCN(2 * (size_t)sw, uint64_t);
    if (!cur)
        return QN_ENOMEM;
    best = cur + sw;
    memset(cur, 0, (size_t)sw * sizeof(*cur));
    for (int b = 0; b < sys->nsupp; b++)
        cur[b / 64] |= (uint64_t)(x[sys->supp[b]] & 1) << (b % 64);
    outside = sum_of(x, sys->ncols);
    for (int b = 0; b < sys->nsupp; b++)
        outside -= x[sys->supp[b]];
    if (sys->sw)
        qn__walk2(sys->walk_isa, sys->kbits, (int)sys->nkgen, sw, cur, best,
                  &bw, &nopt);
    else
        bw = 0, nopt = 1; /* empty support: the kernel is trivial */
    for (int b = 0; b < sys->nsupp; b++)
        x[sys->supp[b]] = (uint8_t)((best[b / 64] >> (b % 64)) & 1);
    out->presses = outside + bw;
    out->noptimal = nopt;
    if (cur != st)
        free(cur);
    return QN_OK;
}

/* At most this many kernel generators (65,536 coset elements) for the
 * one-word walk; larger kernels keep minpress_gf2.c's walks, whose speed
 * bench_minpress measures. */
#define WORD_MAX_KGEN 16

/*
 * The coset walk of a one-word system (system_internal.h): QN_OK, or
 * QN_EUNSOLVABLE as qn_system_solve says it. A binary Gray code adds one
 * kernel word a step; the weight is a popcount and, solutions being kept
 * in cell order, the smallest number among the lightest is the plan.
 */
static int minpress_word(const qn_system *sys, qn_minpress *out, uint8_t *x,
                         const uint8_t *s)
{
    uint64_t cur, best, nopt = 1, end = (uint64_t)1 << sys->nkgen;
    int bw;

    if (qn_system__word_solve(sys, s, &cur) != QN_OK)
        return QN_EUNSOLVABLE;
    best = cur;
    bw = __builtin_popcountll(cur);
    for (uint64_t i = 1; i < end; i++) {
        int w;
        cur ^= sys->kword[__builtin_ctzll(i)];
        w = __builtin_popcountll(cur);
        if (w < bw) {
            bw = w, best = cur, nopt = 1;
        } else if (w == bw) {
            nopt++;
            best = cur < best ? cur : best;
        }
    }
    qn_bits_put_top(x, best, sys->ncols);
    out->presses = (uint64_t)bw;
    out->noptimal = nopt;
    out->nsolutions = end;
    out->exact = 1;
    return QN_OK;
}

/*
 * The coset in gray.h's order: each step moves one digit by +-1, i.e.
 * adds +-g_j to x, and the click total is updated from g_j's support
 * only.
 */
static int minpress_zk(const qn_system *sys, qn_minpress *out, uint8_t *x)
{
    int n = sys->ncols, j, up;
    unsigned k = sys->k;
    uint8_t *best = qn_memdup(x, (size_t)n);
    uint64_t cur = sum_of(x, n), bw = cur, nopt = 1;
    qn_gray g;

    if (!best)
        return QN_ENOMEM;
    qn_gray_init(&g, sys->korder, (int)sys->nkgen);
    while ((j = qn_gray_next(&g, &up)) >= 0) {
        const qn_sparse_gen *gen = &sys->sgen[j];
        const uint8_t *amt = up ? gen->up : gen->down;
        for (int t = 0; t < gen->nnz; t++) {
            unsigned old = x[gen->cell[t]], nv = old + amt[t];
            if (nv >= k)
                nv -= k;
            x[gen->cell[t]] = (uint8_t)nv;
            cur += nv;
            cur -= old;
        }
        if (cur < bw) {
            bw = cur;
            nopt = 1;
            memcpy(best, x, (size_t)n);
        } else if (cur == bw) {
            nopt++;
            if (memcmp(x, best, (size_t)n) < 0)
                memcpy(best, x, (size_t)n);
        }
    }
    memcpy(x, best, (size_t)n);
    out->presses = bw;
    out->noptimal = nopt;
    free(best);
    return QN_OK;
}

int qn_minpress_exact(const qn_system *sys, uint64_t limit)
{
    return coset_size(sys, limit) != 0;
}

static unsigned gcd_u(unsigned a, unsigned b)
{
    while (b) {
        unsigned t = a % b;
        a = b;
        b = t;
    }
    return a;
}

uint64_t qn_minpress_bound(const qn_system *sys)
{
    unsigned k = sys->k;
    uint64_t twice = 0; /* sum of (k + d_i) over the columns */

    for (int i = 0; i < sys->ncols; i++) {
        unsigned d = k; /* H_i = d Z/k: d = k is the zero subgroup */
        for (size_t j = 0; j < sys->nkgen && d > 1; j++)
            d = gcd_u(d, qn_system_kernel_gen(sys, j)[i]);
        twice += k + d;
    }
    return twice / 2 - (uint64_t)sys->ncols;
}

int qn_minpress_solve(const qn_system *sys, qn_minpress *out, uint8_t *x,
                      const uint8_t *s, uint64_t limit, qn_err *err)
{
    uint64_t size;
    int rc;

    memset(out, 0, sizeof(*out));
    if (sys->word && sys->nkgen <= WORD_MAX_KGEN && coset_size(sys, limit)) {
        rc = minpress_word(sys, out, x, s);
        return rc ? qn_err_set(err, rc, 0, 0, "state is not solvable") : QN_OK;
    }
    rc = qn_system_solve(sys, x, s);
    if (rc == QN_ENOMEM)
        return qn_err_nomem(err);
    if (rc)
        return qn_err_set(err, rc, 0, 0, "state is not solvable");
    size = coset_size(sys, limit);
    if (!size) {
        out->presses = sum_of(x, sys->ncols);
        if (qn_system_group_size_u64(sys, QN_KERNEL, &out->nsolutions))
            out->nsolutions = 0; /* 2^64 or more */
        return qn_err_set(err, QN_ELIMIT, 0, 0,
                          "kernel of 2^%.2f elements exceeds the walk limit "
                          "of %llu: minimum not proven",
                          qn_system_group_log2(sys, QN_KERNEL),
                          (unsigned long long)limit);
    }
    out->nsolutions = size;
    out->exact = 1;
    if (sys->k == 2)
        rc = minpress_gf2(sys, out, x);
    else if (sys->k == 3)
        rc = qn__minpress_z3(sys, out, x);
    else
        rc = minpress_zk(sys, out, x);
    if (rc != QN_OK) { /* out of memory before the walk: x is one solution */
        memset(out, 0, sizeof(*out));
        return qn_err_nomem(err);
    }
    return QN_OK;
}

/*
 * x += g_i mod k. Values and entries are below k, so v = x + g is below
 * 2k and one conditional subtraction reduces it (a division by the run-time
 * k cost the odometer most of its time): min(v, v - k) in bytes, where
 * v - k wraps above v exactly when v < k (k <= 128: v fits a byte).
 */
static void add_gen(const qn_system *sys, uint8_t *x, size_t i)
{
    const uint8_t *g = sys->kgen + i * (size_t)sys->ncols;
    unsigned k = sys->k;
    int j = 0, n = sys->ncols;

#ifdef __SSE2__
    const __m128i kv = _mm_set1_epi8((char)k);
    for (; k <= 128 && j + 16 <= n; j += 16) {
        __m128i v = _mm_add_epi8(_mm_loadu_si128((const __m128i *)(x + j)),
                                 _mm_loadu_si128((const __m128i *)(g + j)));
        _mm_storeu_si128((__m128i *)(x + j),
                         _mm_min_epu8(v, _mm_sub_epi8(v, kv)));
    }
#endif
    for (; j < n; j++) {
        unsigned v = (unsigned)x[j] + g[j];
        x[j] = (uint8_t)(v >= k ? v - k : v);
    }
}

/*
 * An odometer over the kernel coefficients: bumping digit i adds g_i, and
 * a digit that wraps has added o_i * g_i = 0 in all, so x stays x0 plus
 * the current combination without ever subtracting.
 */
int64_t qn_minpress_each(const qn_system *sys, const uint8_t *s, uint64_t limit,
                         qn_solution_fn *fn, void *ctx)
{
    int n = sys->ncols, d = (int)sys->nkgen;
    uint8_t *x = QN_ALLOCN((size_t)n + 1, uint8_t);
    unsigned *c = QN_ALLOCN((size_t)d + 1, unsigned);
    int64_t seen = 0;
    int rc = x && c ? qn_system_solve(sys, x, s) : QN_ENOMEM;

    if (rc != QN_OK) {
        free(x);
        free(c);
        return rc == QN_ENOMEM ? QN_ENOMEM : QN_EUNSOLVABLE;
    }
    while ((uint64_t)seen < limit) {
        int i;
        seen++;
        if (fn(ctx, x))
            break;
        for (i = 0; i < d; i++) {
            add_gen(sys, x, (size_t)i);
            if (++c[i] < sys->korder[i])
                break;
            c[i] = 0;
        }
        if (i == d)
            break; /* every combination visited */
    }
    free(x);
    free(c);
    return seen;
}
