/*
 * zk_solve.c: solving A x = s through a qn_zfact, part by part (forward
 * and back substitution through the stored factors) and joined with the
 * CRT; the substitutions' dot products have scalar and AVX2 versions.
 */
#include "engine/zk.h"

#include <assert.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

#include "base/mem.h"
#include "zk_internal.h"
#include "zk_simd.h"

#define SOLVE_STACK 4096 /* scratch bytes qn_zfact_solve keeps on the stack */

/*
 * Raw sum of a[i] b[i] for len <= 32768, so that it fits 32 bits. The AVX2
 * version widens 16 bytes to 16-bit lanes and lets pmaddwd multiply and add
 * pairs into 32-bit lanes.
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

/* For struct part: the solve's dot products run through pt->dot. */
dot_fn *qn_zk__pick_dot(void)
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
        return qn_zk__dotmod(a, b, len, q);
    return qn_zk__fastmod(len < 32 ? dot_scalar(a, b, len) : dot(a, b, len),
                          magic, q);
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
        t[j] = (uint8_t)qn_zk__fastmod(y * pt->uinv[j], magic, q);
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
 * Solve part by part, then recombine: x = sum_p e_p x_p mod k is the
 * unique vector mod k that reduces to each part's solution.
 */
static int solve(const qn_zfact *f, uint8_t *x, const uint8_t *s)
{
    uint8_t stack[SOLVE_STACK], *buf = stack, *t, *z, *xp, *xs;
    const size_t m = (size_t)f->m, n = (size_t)f->n;
    size_t need = m + 3 * n, c;
    int pi, ret = QN_OK;

    if (need > sizeof(stack) && !(buf = qn_malloc(need)))
        return QN_ENOMEM;
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
                xs[c] = (uint8_t)qn_zk__fastmod(xs[c] + f->crt[pi] * xp[c],
                                                f->magic, f->k);
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
    int rc = solve(f, NULL, s);

    return rc == QN_ENOMEM ? rc : rc == QN_OK;
}
