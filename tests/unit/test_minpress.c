/*
 * test_minpress.c: the k = 2 walk's implementations (scalar, AVX2, the
 * AVX-512 step loop and the AVX-512 block walk, and the one-word walk of
 * systems up to 64 cells) agree on every figure for boards up to 1024
 * cells, and agree with an independent recount over the explicitly listed
 * coset; the one-word walk agrees with the scalar walk, and the one-word
 * solution with the factorization's, on every state of small Lights Out
 * boards and of rectangular systems, solvable or not.
 */
#include <stdlib.h>
#include <string.h>

#include "../../src/engine/minpress_gf2.h" /* the walk is internal */
#include "../../src/engine/system_internal.h"
#include "engine/minpress.h"
#include "engine/system.h"
#include "t.h"

static uint64_t seed = 42;

/* n x n system with a kernel of dimension about d and dense generators. */
static uint8_t *random_system(int n, int d)
{
    uint8_t *a = calloc((size_t)n * n, 1);
    for (int r = 0; r < n; r++)
        for (int c = 0; c < n - d; c++)
            a[(size_t)r * n + c] = (uint8_t)(t_rand(&seed) & 1);
    for (int c = n - d; c < n; c++)
        for (int j = 0; j < n - d; j++)
            if (t_rand(&seed) & 1)
                for (int r = 0; r < n; r++)
                    a[(size_t)r * n + c] ^= a[(size_t)r * n + j];
    return a;
}

/*
 * n x n system whose column j + n/2 repeats column j for j < d (the rest
 * random): the kernel is spanned by e_j + e_{j+n/2}, so for x with exactly
 * one of cells j, j + n/2 set every such flip keeps the weight, and the
 * coset holds up to 2^d ties spread over the whole width.
 */
static uint8_t *tie_system(int n, int d)
{
    uint8_t *a = calloc((size_t)n * n, 1);
    for (int r = 0; r < n; r++)
        for (int c = 0; c < n; c++)
            a[(size_t)r * n + c] = (uint8_t)(t_rand(&seed) & 1);
    for (int r = 0; r < n; r++)
        for (int j = 0; j < d; j++)
            a[(size_t)r * n + j + n / 2] = a[(size_t)r * n + j];
    return a;
}

/*
 * The coset listed as x0 + every subset sum of the generators: its least
 * weight, how many attain it, and the first of those in cell order (the
 * plan quench promises to report).
 */
static void recount(const qn_system *sys, const uint8_t *x0, uint64_t *minw,
                    uint64_t *nopt, uint8_t *first)
{
    int n = qn_system_ncols(sys), d = (int)qn_system_kernel_ngens(sys);
    uint8_t *x = malloc((size_t)n);

    *minw = UINT64_MAX;
    for (uint64_t m = 0; m < ((uint64_t)1 << d); m++) {
        uint64_t w = 0;
        memcpy(x, x0, (size_t)n);
        for (int i = 0; i < d; i++)
            if (m >> i & 1) {
                const uint8_t *g = qn_system_kernel_gen(sys, (size_t)i);
                for (int c = 0; c < n; c++)
                    x[c] ^= g[c];
            }
        for (int c = 0; c < n; c++)
            w += x[c];
        if (w < *minw) {
            *minw = w, *nopt = 1;
            memcpy(first, x, (size_t)n);
        } else if (w == *minw) {
            ++*nopt;
            if (memcmp(x, first, (size_t)n) < 0)
                memcpy(first, x, (size_t)n);
        }
    }
    free(x);
}

static void one(uint8_t *a, int n)
{
    uint8_t *s = calloc((size_t)n, 1);
    uint8_t *x = malloc((size_t)n), *x0 = malloc((size_t)n);
    uint8_t *ref = malloc((size_t)n), *first = malloc((size_t)n);
    qn_system *sys;
    qn_minpress mp, mref;
    uint64_t minw = 0, nopt = 0;
    int isas[] = {QN_WALK2_SCALAR, QN_WALK2_AVX2, QN_WALK2_AVX512,
                  QN_WALK2_AVX512_STEP};

    for (int i = 0; i < n; i++)
        x[i] = (uint8_t)(t_rand(&seed) & 1);
    T_EQ(qn_system_new(&sys, a, n, n, 2, NULL), QN_OK);
    qn_system_apply(sys, s, x, s);
    T_EQ(qn_system_solve(sys, x0, s), QN_OK);
    recount(sys, x0, &minw, &nopt, first);
    T_CHECK(qn_system__set_walk(sys, QN_WALK2_SCALAR));
    T_EQ(qn_minpress_solve(sys, &mref, ref, s, UINT64_MAX, NULL), QN_OK);
    T_EQ(mref.presses, minw);
    T_EQ(mref.noptimal, nopt);
    T_CHECK(memcmp(ref, first, (size_t)n) == 0);
    /* up to 64 cells that was the one-word walk: the rest are the walks */
    T_EQ(qn_system__set_word(sys, 0), n <= 64);
    for (size_t i = 0; i < sizeof(isas) / sizeof(isas[0]); i++) {
        if (!qn_system__set_walk(sys, isas[i]))
            continue; /* this CPU lacks the instructions */
        T_EQ(qn_minpress_solve(sys, &mp, x, s, UINT64_MAX, NULL), QN_OK);
        T_EQ(mp.presses, mref.presses);
        T_EQ(mp.noptimal, mref.noptimal);
        T_CHECK(memcmp(x, ref, (size_t)n) == 0);
    }
    qn_system_free(sys);
    free(a);
    free(s);
    free(x);
    free(x0);
    free(ref);
    free(first);
}

/* The m x n matrix of Lights Out on a w x h grid (m = n = w h). */
static uint8_t *lights_out(int w, int h)
{
    int n = w * h;
    uint8_t *a = calloc((size_t)n * n, 1);

    for (int c = 0; c < n; c++) {
        int x = c % w, y = c / w;
        a[(size_t)c * n + c] = 1;
        if (x > 0)
            a[(size_t)(c - 1) * n + c] = 1;
        if (x < w - 1)
            a[(size_t)(c + 1) * n + c] = 1;
        if (y > 0)
            a[(size_t)(c - w) * n + c] = 1;
        if (y < h - 1)
            a[(size_t)(c + w) * n + c] = 1;
    }
    return a;
}

/* m x n random with a few columns and rows repeated: a kernel and
 * conditions both, and m != n. */
static uint8_t *rect_system(int m, int n)
{
    uint8_t *a = calloc((size_t)m * n + 1, 1);

    for (int i = 0; i < m * n; i++)
        a[i] = (uint8_t)(t_rand(&seed) & 1);
    for (int r = 0; r < m; r++)
        for (int j = 0; j < n / 4; j++)
            a[(size_t)r * n + n - 1 - j] = a[(size_t)r * n + j];
    for (int r = m - m / 4; r < m; r++)
        memcpy(a + (size_t)r * n, a + (size_t)(r - m / 2) * n, (size_t)n);
    return a;
}

/*
 * The one-word walk against the scalar walk on the state s: the same
 * return, and when solvable the same figures and plan. Both get the
 * system with its mode set by the caller between the calls.
 */
static void word_vs_walk(qn_system *sys, const uint8_t *s, uint8_t *xw,
                         uint8_t *xs)
{
    int n = qn_system_ncols(sys), rw, rs;
    qn_minpress mw, ms;

    qn_system__set_word(sys, 1);
    rw = qn_minpress_solve(sys, &mw, xw, s, UINT64_MAX, NULL);
    qn_system__set_word(sys, 0);
    rs = qn_minpress_solve(sys, &ms, xs, s, UINT64_MAX, NULL);
    T_EQ(rw, rs);
    if (rw != QN_OK || rs != QN_OK)
        return;
    T_EQ(mw.presses, ms.presses);
    T_EQ(mw.noptimal, ms.noptimal);
    T_EQ(mw.nsolutions, ms.nsolutions);
    T_EQ(mw.exact, ms.exact);
    T_CHECK(memcmp(xw, xs, (size_t)n) == 0);
}

/* Every state (m <= 16) or 4096 random ones of an m x n system. */
static void word_states(uint8_t *a, int m, int n, int *nsolvable)
{
    uint8_t *s = calloc((size_t)m + 1, 1), *xw = malloc((size_t)n + 1);
    uint8_t *xs = malloc((size_t)n + 1), *x0 = malloc((size_t)n + 1);
    uint64_t count = m <= 16 ? (uint64_t)1 << m : 4096;
    qn_system *sys;
    int rf;

    T_EQ(qn_system_new(&sys, a, m, n, 2, NULL), QN_OK);
    T_CHECK(qn_system__set_word(sys, 1));
    T_CHECK(qn_system__set_walk(sys, QN_WALK2_SCALAR));
    for (uint64_t v = 0; v < count; v++) {
        for (int r = 0; r < m; r++)
            s[r] = (uint8_t)(m <= 16 ? v >> r & 1 : t_rand(&seed) & 1);
        word_vs_walk(sys, s, xw, xs);
        /* qn_system_solve: the word form's solution is the factor's */
        qn_system__set_word(sys, 0);
        rf = qn_system_solve(sys, x0, s);
        qn_system__set_word(sys, 1);
        T_EQ(qn_system_solve(sys, xw, s), rf);
        T_CHECK(rf != QN_OK || memcmp(xw, x0, (size_t)n) == 0);
        *nsolvable += rf == QN_OK;
    }
    qn_system_free(sys);
    free(a);
    free(s);
    free(xw);
    free(xs);
    free(x0);
}

int main(void)
{
    int nsolvable = 0;

    /* 4x4 Lights Out: kernel of 16 elements, one state in 16 solvable
     * (dimension 4, Anderson and Feil 1998); 5x5: 4 and one in 4 */
    word_states(lights_out(3, 3), 9, 9, &nsolvable);
    T_EQ(nsolvable, 512);
    nsolvable = 0;
    word_states(lights_out(4, 4), 16, 16, &nsolvable);
    T_EQ(nsolvable, 4096);
    word_states(lights_out(5, 5), 25, 25, &nsolvable);
    word_states(lights_out(8, 8), 64, 64, &nsolvable);
    word_states(rect_system(12, 20), 12, 20, &nsolvable);
    word_states(rect_system(16, 9), 16, 9, &nsolvable);
    word_states(rect_system(48, 40), 48, 40, &nsolvable);
    word_states(rect_system(64, 33), 64, 33, &nsolvable);

    /* Support widths 1..18 words: every register shape of the block walk
     * (4, 8, 12, 16 words), kernels below, at and above its 3 fixed
     * generators, and the scalar-only width past 16 words. */
    static const int sizes[][2] = {{8, 3},    {30, 4},   {64, 6},  {65, 7},
                                   {200, 10}, {256, 12}, {257, 9}, {500, 11},
                                   {512, 5},  {700, 8},  {768, 9}, {1024, 10},
                                   {1024, 2}, {1100, 6}};
    for (size_t i = 0; i < sizeof(sizes) / sizeof(sizes[0]); i++)
        one(random_system(sizes[i][0], sizes[i][1]), sizes[i][0]);
    for (size_t i = 0; i < sizeof(sizes) / sizeof(sizes[0]); i++)
        one(tie_system(sizes[i][0], sizes[i][1]), sizes[i][0]);
    return t_done();
}
