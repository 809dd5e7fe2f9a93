/*
 * test_minpress_z3.c: the k = 3 walk on bit-sliced vectors (issue #35)
 * gives the least total, the number of optima and the lexicographically
 * smallest optimum that an independent recount finds over the explicitly
 * listed coset x0 + span(kernel), for systems of 1 to 200 cells (one to
 * four words, kernels of 3^1 to 3^6) and for systems full of ties, with
 * each implementation of the walk (the word walk, the packed scalar, AVX2
 * and AVX-512 ones, as far as the CPU has them). The packed walks are
 * also run directly on supports at and around their register limits (1,
 * 2, 3 and 4 zmm a plane, 4 ymm for AVX2, and one word past).
 */
#include <stdlib.h>
#include <string.h>

#include "../../src/engine/minpress_gf2.h" /* the walks are internal */
#include "../../src/engine/minpress_z3.h"
#include "../../src/engine/system_internal.h"
#include "engine/minpress.h"
#include "engine/system.h"
#include "t.h"

static uint64_t seed = 35;

static const int isas[] = {QN_WALK2_SCALAR, QN_WALK2_AVX2, QN_WALK2_AVX512,
                           QN_WALK2_AVX512_STEP, QN_WALK2_AUTO};

/*
 * n x n over Z/3 whose last d columns are random combinations of the
 * others (a kernel of dimension at least d); with `dup` set the added
 * columns copy one column each, so many coset elements tie.
 */
static uint8_t *systemk(int n, int d, int dup, unsigned k)
{
    uint8_t *a = calloc((size_t)n * n, 1);
    for (int r = 0; r < n; r++)
        for (int c = 0; c < n - d; c++)
            a[(size_t)r * n + c] = (uint8_t)(t_rand(&seed) % k);
    for (int c = n - d; c < n; c++)
        for (int j = 0; j < n - d; j++) {
            unsigned m =
                dup ? (j == c - (n - d)) : (unsigned)(t_rand(&seed) % k);
            for (int r = 0; r < n && m; r++)
                a[(size_t)r * n + c] = (uint8_t)((a[(size_t)r * n + c] +
                                                  m * a[(size_t)r * n + j]) %
                                                 k);
        }
    return a;
}

/* Every element of x0 + span(gens), by an odometer over the digits. */
static void recount(const qn_system *sys, const uint8_t *x0, uint64_t *minw,
                    uint64_t *nopt, uint8_t *first)
{
    int n = qn_system_ncols(sys), d = (int)qn_system_kernel_ngens(sys);
    unsigned c[16] = {0};
    uint8_t *x = malloc((size_t)n);

    *minw = UINT64_MAX;
    *nopt = 0;
    for (;;) {
        uint64_t w = 0;
        int i;
        memcpy(x, x0, (size_t)n);
        for (i = 0; i < d; i++) {
            const uint8_t *g = qn_system_kernel_gen(sys, (size_t)i);
            for (int j = 0; j < n; j++)
                x[j] = (uint8_t)((x[j] + c[i] * g[j]) % 3);
        }
        for (int j = 0; j < n; j++)
            w += x[j];
        if (w < *minw) {
            *minw = w;
            *nopt = 1;
            memcpy(first, x, (size_t)n);
        } else if (w == *minw) {
            ++*nopt;
            if (memcmp(x, first, (size_t)n) < 0)
                memcpy(first, x, (size_t)n);
        }
        for (i = 0; i < d && ++c[i] == 3; i++)
            c[i] = 0;
        if (i == d)
            break;
    }
    free(x);
}

static void one(int n, int d, int dup)
{
    uint8_t *a = systemk(n, d, dup, 3), *s = malloc((size_t)n),
            *x0 = malloc((size_t)n), *x = malloc((size_t)n),
            *first = malloc((size_t)n), *e = calloc((size_t)n, 1);
    qn_system *sys;
    qn_minpress mp;
    uint64_t minw, nopt;

    T_EQ(qn_system_new(&sys, a, n, n, 3, NULL), QN_OK);
    T_CHECK(qn_system_kernel_ngens(sys) >= (size_t)d &&
            qn_system_kernel_ngens(sys) <= 8);
    /* a solvable state: A e for a random press vector e */
    for (int c = 0; c < n; c++)
        e[c] = (uint8_t)(t_rand(&seed) % 3);
    for (int r = 0; r < n; r++) {
        unsigned v = 0;
        for (int c = 0; c < n; c++)
            v += a[(size_t)r * n + c] * e[c];
        s[r] = (uint8_t)(v % 3);
    }
    T_EQ(qn_system_solve(sys, x0, s), QN_OK);
    recount(sys, x0, &minw, &nopt, first);
    for (size_t i = 0; i < sizeof isas / sizeof *isas; i++) {
        if (!qn_system__set_walk(sys, isas[i]))
            continue; /* this CPU lacks the instructions */
        memset(x, 0, (size_t)n);
        T_EQ(qn_minpress_solve(sys, &mp, x, s, UINT64_MAX, NULL), QN_OK);
        T_EQ(mp.presses, minw);
        T_EQ(mp.noptimal, nopt);
        T_CHECK(memcmp(x, first, (size_t)n) == 0);
    }
    qn_system_free(sys);
    free(a);
    free(s);
    free(x0);
    free(x);
    free(first);
    free(e);
}

/*
 * qn_minpress_each visits x0 + sum c_i g_i in odometer order (c_0 the
 * fastest digit): each visit is checked against that sum, made here with
 * a division.
 */
typedef struct each_ctx {
    const qn_system *sys;
    const uint8_t *x0;
    unsigned k;
    uint64_t seen;
    int bad;
} each_ctx;

static int each_visit(void *ctx, const uint8_t *x)
{
    each_ctx *e = ctx;
    int n = qn_system_ncols(e->sys), d = (int)qn_system_kernel_ngens(e->sys);
    unsigned k = e->k;
    uint64_t idx = e->seen++;

    for (int j = 0; j < n; j++) {
        uint64_t v = e->x0[j], rest = idx;
        for (int i = 0; i < d; i++) {
            unsigned o = qn_system_kernel_order(e->sys, (size_t)i);
            v += (rest % o) * qn_system_kernel_gen(e->sys, (size_t)i)[j];
            rest /= o;
        }
        e->bad += x[j] != v % k;
    }
    return 0;
}

static void each(int n, int d, unsigned k)
{
    uint8_t *a = systemk(n, d, 0, k), *s = malloc((size_t)n),
            *x0 = malloc((size_t)n);
    each_ctx e = {NULL, x0, k, 0, 0};
    qn_system *sys;
    uint64_t size = 1;

    for (int c = 0; c < n; c++) /* a solvable state: A e */
        x0[c] = (uint8_t)(t_rand(&seed) % k);
    for (int r = 0; r < n; r++) {
        unsigned v = 0;
        for (int c = 0; c < n; c++)
            v += a[(size_t)r * n + c] * (unsigned)x0[c];
        s[r] = (uint8_t)(v % k);
    }
    T_EQ(qn_system_new(&sys, a, n, n, k, NULL), QN_OK);
    e.sys = sys;
    for (size_t i = 0; i < qn_system_kernel_ngens(sys); i++)
        size *= qn_system_kernel_order(sys, i);
    T_CHECK(size > 1 && size <= 4000000);
    T_EQ(qn_system_solve(sys, x0, s), QN_OK);
    T_EQ(qn_minpress_each(sys, s, UINT64_MAX, each_visit, &e), (int64_t)size);
    T_EQ(e.seen, size);
    T_EQ(e.bad, 0);
    qn_system_free(sys);
    free(a);
    free(s);
    free(x0);
}

/*
 * The packed walk on its own: ns support cells (the last one used), d
 * generators, pw words a plane, against a recount over bytes. With `tie`
 * set, x0 is all 1 and generator i is +1 at one cell and +2 at another,
 * so all 3^d vectors weigh the same and only the order picks the plan.
 */
static void packed(int ns, int d, int pw, int tie)
{
    uint8_t *gb = calloc((size_t)d * ns, 1), *x0 = malloc((size_t)ns),
            *x = malloc((size_t)ns), *first = malloc((size_t)ns);
    uint64_t *gen = calloc(2 * (size_t)d * pw, sizeof(uint64_t));
    uint64_t xh[QN_WALK3_MAXW], xl[QN_WALK3_MAXW], minw = UINT64_MAX, nopt = 0;
    unsigned order[8], c[8] = {0};

    for (int j = 0; j < ns; j++)
        x0[j] = tie ? 1 : (uint8_t)(t_rand(&seed) % 3);
    for (int i = 0; i < d; i++) {
        order[i] = 3;
        if (tie) {
            gb[(size_t)i * ns + (i == 0 ? ns - 1 : 2 * i)] = 1;
            gb[(size_t)i * ns + 2 * i + 1] = 2;
            continue;
        }
        for (int t = 0; t < 12; t++)
            gb[(size_t)i * ns + t_rand(&seed) % ns] =
                (uint8_t)(1 + t_rand(&seed) % 2);
        gb[(size_t)i * ns + ns - 1] = (uint8_t)(1 + i % 2);
    }
    for (;;) { /* the recount */
        uint64_t w = 0;
        int i;
        for (int j = 0; j < ns; j++) {
            unsigned v = x0[j];
            for (i = 0; i < d; i++)
                v += c[i] * gb[(size_t)i * ns + j];
            x[j] = (uint8_t)(v % 3);
            w += x[j];
        }
        if (w < minw || (w == minw && memcmp(x, first, (size_t)ns) < 0))
            memcpy(first, x, (size_t)ns);
        nopt = w < minw ? 1 : nopt + (w == minw);
        minw = w < minw ? w : minw;
        for (i = 0; i < d && ++c[i] == 3; i++)
            c[i] = 0;
        if (i == d)
            break;
    }
    for (int i = 0; i < d; i++)
        for (int j = 0; j < ns; j++)
            if (gb[(size_t)i * ns + j])
                gen[(size_t)i * 2 * pw + (gb[(size_t)i * ns + j] == 1) * pw +
                    j / 64] |= (uint64_t)1 << (j % 64);
    for (size_t k = 0; k < sizeof isas / sizeof *isas; k++) {
        uint64_t bw, bn;
        int ok = 1;
        if (isas[k] != QN_WALK2_AUTO && !qn__walk2_can(isas[k]))
            continue;
        memset(xh, 0, sizeof xh);
        memset(xl, 0, sizeof xl);
        for (int j = 0; j < ns; j++)
            if (x0[j])
                (x0[j] == 1 ? xl : xh)[j / 64] |= (uint64_t)1 << (j % 64);
        qn__walk3(isas[k], gen, order, d, pw, xh, xl, &bw, &bn);
        T_EQ(bw, minw);
        T_EQ(bn, nopt);
        for (int j = 0; j < ns; j++)
            ok &= (int)(((xl[j / 64] >> (j % 64)) & 1) +
                        2 * ((xh[j / 64] >> (j % 64)) & 1)) == first[j];
        for (int w = (ns + 63) / 64; w < pw; w++)
            ok &= !xh[w] && !xl[w]; /* the padding stays zero */
        T_CHECK(ok);
    }
    free(gb);
    free(x0);
    free(x);
    free(first);
    free(gen);
}

int main(void)
{
    static const unsigned ks[] = {2, 3, 5, 7, 127, 128, 131, 251};
    static const int edge[] = {1,    63,   64,   65,   128,  511,  512,  513,
                               1023, 1024, 1025, 1535, 1536, 1537, 2047, 2048};

    for (size_t i = 0; i < sizeof edge / sizeof *edge; i++) {
        int pw = (edge[i] + 511) / 512 * 8;
        for (int d = 1; d <= 5; d++) {
            packed(edge[i], d, pw, 0);
            if (edge[i] >= 2 * d + 2)
                packed(edge[i], d, pw, 1);
        }
        if (pw < QN_WALK3_MAXW) /* wider planes than the support needs */
            packed(edge[i], 3, pw + 8, 0);
        if ((edge[i] + 63) / 64 % 8) /* not whole registers: scalar */
            packed(edge[i], 3, (edge[i] + 63) / 64, 0);
    }

    static const int sizes[] = {1, 5, 63, 64, 65, 130, 200};

    for (size_t i = 0; i < sizeof sizes / sizeof *sizes; i++)
        for (int d = 1; d <= 6 && d < sizes[i]; d++)
            for (int rep = 0; rep < 3; rep++) {
                one(sizes[i], d, 0);
                one(sizes[i], d, 1);
            }
    for (size_t i = 0; i < sizeof ks / sizeof *ks; i++) {
        each(40, 2, ks[i]); /* 16 bytes a step and a 8-byte tail */
        each(33, 1, ks[i]);
    }
    for (int rep = 0; rep < 4; rep++) /* kernels trivial or not */
        one(3 + 20 * rep, 0, 0);
    for (int d = 1; d <= 2; d++) { /* past one zmm a plane */
        one(513, d, 0);
        one(513, d, 1);
    }
    return t_done();
}
