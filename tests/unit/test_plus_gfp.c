/*
 * test_plus_gfp.c: the polynomial method agrees with dense elimination
 * (qn_system, built straight from the stencil) and with light chasing
 * (qn_chase) on random plus-shaped stencils over GF(2), GF(3), GF(5) and
 * GF(7): solvability, kernel size, quiet and independent generators,
 * replayed solutions; the classic n x n board over GF(3); refusals.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "bigboard/chase.h"
#include "bigboard/plus_gfp.h"
#include "engine/system.h"
#include "t.h"
#include "tstencil.h"

static uint64_t seed = 707;

static const int plus[5][3] = {
    {0, 0, 1}, {1, 0, 1}, {-1, 0, 1}, {0, 1, 1}, {0, -1, 1}};

static int is_zero(const uint8_t *v, int n)
{
    for (int i = 0; i < n; i++)
        if (v[i])
            return 0;
    return 1;
}

static uint64_t ipow(unsigned p, size_t e)
{
    uint64_t r = 1;
    while (e--)
        r *= p;
    return r;
}

/*
 * A random plus-shaped stencil in orientation tr (1: the vertical arm is
 * horizontal). Amounts are sometimes split over two entries or written
 * out of range, and a zero-amount foreign offset is sometimes added, to
 * exercise the merging.
 */
static int random_plus(int (*off)[3], unsigned p, int tr)
{
    unsigned alpha = (unsigned)(t_rand(&seed) % p);
    unsigned beta = 1 + (unsigned)(t_rand(&seed) % (p - 1));
    unsigned b = 1 + (unsigned)(t_rand(&seed) % (p - 1));
    unsigned c = (unsigned)(t_rand(&seed) % p);
    int arm[5][3] = {{0, 0, (int)alpha},
                     {1, 0, (int)beta},
                     {-1, 0, (int)beta},
                     {0, -1, (int)b},
                     {0, 1, (int)c}};
    int n = 0;

    for (int i = 0; i < 5; i++) {
        int dx = tr ? arm[i][1] : arm[i][0], dy = tr ? arm[i][0] : arm[i][1];
        int a = arm[i][2];
        if (a == 0 && t_rand(&seed) % 2)
            continue;
        if (t_rand(&seed) % 4 == 0) { /* split as a + p + 1 and -1 */
            off[n][0] = dx, off[n][1] = dy, off[n++][2] = a + (int)p + 1;
            a = -1;
        }
        off[n][0] = dx, off[n][1] = dy, off[n++][2] = a;
    }
    if (t_rand(&seed) % 4 == 0)
        off[n][0] = 2, off[n][1] = -3, off[n++][2] = (int)p;
    return n;
}

/* Size of the span of the ngen generators (n entries each) by listing
 * every combination; only for tiny p^ngen. */
static uint64_t brute_span(const uint8_t *gens, size_t ngen, int n, unsigned p)
{
    uint64_t total = ipow(p, ngen), distinct = 0;
    uint8_t *all = calloc((size_t)total * n + 1, 1);

    for (uint64_t k = 0; k < total; k++) {
        uint8_t *v = all + k * (size_t)n;
        uint64_t d = k;
        for (size_t g = 0; g < ngen; g++, d /= p)
            for (int i = 0; i < n; i++)
                v[i] = (uint8_t)((v[i] + (d % p) * gens[g * n + i]) % p);
        int seen = 0;
        for (uint64_t j = 0; j < k && !seen; j++)
            seen = !memcmp(all + j * (size_t)n, v, (size_t)n);
        distinct += !seen;
    }
    free(all);
    return distinct;
}

static long ncompared, nunsolvable, nbrute, nchase, nkernel;

/* Kernel: size p^dim = dense size; generators quiet and independent. */
static void check_kernel(const qn_plus_gfp *c, const qn_system *sys, int w,
                         int h, unsigned p, const char *name)
{
    int n = w * h;
    size_t dim = qn_plus_gfp_kernel_dim(c);
    uint64_t kd = 0;
    uint8_t *gens = calloc(dim * n + 1, 1), *r = calloc((size_t)n, 1);
    uint8_t *zero = calloc((size_t)n, 1);

    if (qn_system_group_size_u64(sys, QN_KERNEL, &kd) || kd != ipow(p, dim))
        T_FAILF("%s %dx%d p=%u: kernel p^%zu vs dense %llu", name, w, h, p, dim,
                (unsigned long long)kd);
    else
        t_pass++;
    for (size_t g = 0; g < dim; g++) {
        qn_plus_gfp_kernel_gen(c, g, gens + g * n);
        qn_system_apply(sys, r, gens + g * n, zero);
        if (!is_zero(r, n) || is_zero(gens + g * n, n))
            T_FAILF("%s %dx%d p=%u: generator %zu not quiet", name, w, h, p, g);
    }
    if (dim > 0) { /* independent: the n x dim matrix G has G v = 0 only
                    * for v = 0 */
        uint8_t *gm = calloc(dim * n, 1);
        qn_system *gs = NULL;
        for (int i = 0; i < n; i++)
            for (size_t g = 0; g < dim; g++)
                gm[i * dim + g] = gens[g * n + i];
        if (qn_system_new(&gs, gm, n, (int)dim, p, NULL) ||
            qn_system_kernel_ngens(gs) != 0)
            T_FAILF("%s %dx%d p=%u: generators dependent", name, w, h, p);
        else
            t_pass++;
        qn_system_free(gs);
        free(gm);
    }
    if (ipow(p, dim) <= 64 && n <= 16) {
        T_EQ(brute_span(gens, dim, n, p), ipow(p, dim));
        nbrute++;
    }
    free(zero);
    free(r);
    free(gens);
}

/* qn_chase on the same board: the same kernel size and solvability. */
static void check_chase(const qn_plus_gfp *c, int w, int h, unsigned p,
                        const int (*off)[3], int noff, const uint8_t *s,
                        int solvable)
{
    qn_chase *ch = NULL;
    qn_err err = QN_ERR_INIT;
    uint64_t kc = 0;
    int rc = qn_chase_new(&ch, w, h, p, off, (size_t)noff, &err);

    if (rc) {
        T_FAILF("chase refused %dx%d p=%u: %s", w, h, p, err.msg);
        return;
    }
    if (qn_chase_kernel_size_u64(ch, &kc) ||
        kc != ipow(p, qn_plus_gfp_kernel_dim(c)))
        T_FAILF("chase %dx%d p=%u: kernel %llu vs p^%zu", w, h, p,
                (unsigned long long)kc, qn_plus_gfp_kernel_dim(c));
    uint8_t *x = calloc((size_t)w * h, 1);
    rc = qn_chase_solve(ch, x, s, &err);
    if ((rc == QN_OK) != solvable)
        T_FAILF("chase %dx%d p=%u: solve %d, plusp says %d", w, h, p, rc,
                solvable);
    else
        t_pass++;
    free(x);
    qn_chase_free(ch);
    nchase++;
}

/* plusp vs dense (and chase) on one board and stencil. */
static void compare(int w, int h, unsigned p, const int (*off)[3], int noff,
                    const char *name)
{
    int n = w * h;
    qn_plus_gfp *c = NULL;
    qn_system *sys = NULL;
    qn_err err = QN_ERR_INIT;
    uint8_t *a = t_stencil_dense(w, h, p, off, noff);
    uint8_t *s = calloc((size_t)n, 1), *x = calloc((size_t)n, 1);
    uint8_t *xp = calloc((size_t)n, 1), *r = calloc((size_t)n, 1);

    if (qn_plus_gfp_new(&c, w, h, p, off, (size_t)noff, &err)) {
        T_FAILF("%s %dx%d p=%u refused: %s", name, w, h, p, err.msg);
        goto done;
    }
    if (qn_system_new(&sys, a, n, n, p, &err)) {
        T_FAILF("dense %s %dx%d: %s", name, w, h, err.msg);
        goto done;
    }
    check_kernel(c, sys, w, h, p, name);
    nkernel += qn_plus_gfp_kernel_dim(c) > 0;
    for (int trial = 0; trial < 6; trial++) {
        for (int i = 0; i < n; i++) {
            s[i] = (uint8_t)(t_rand(&seed) % p);
            x[i] = (uint8_t)(t_rand(&seed) % p);
        }
        if (trial % 2 == 0) { /* solvable: s = A x */
            memset(s, 0, (size_t)n);
            qn_system_apply(sys, s, x, s);
        }
        int rd = qn_system_is_solvable(sys, s);
        memset(xp, 0xee, (size_t)n);
        int rs = qn_plus_gfp_solve(c, xp, s, &err);
        if ((rs == QN_OK) != (rd == 1) || (rs && rs != QN_EUNSOLVABLE)) {
            T_FAILF("%s %dx%d p=%u: solve %d vs dense solvable %d", name, w, h,
                    p, rs, rd);
            continue;
        }
        if (rs) {
            if (xp[0] != 0xee || xp[n - 1] != 0xee)
                T_FAILF("%s %dx%d p=%u: x_out touched", name, w, h, p);
            nunsolvable++;
        } else {
            qn_system_apply(sys, r, xp, s);
            if (!is_zero(r, n))
                T_FAILF("%s %dx%d p=%u: solution does not replay", name, w, h,
                        p);
        }
        t_pass++;
        ncompared++;
        if (trial < 2)
            check_chase(c, w, h, p, off, noff, s, rs == QN_OK);
    }
done:
    qn_system_free(sys);
    qn_plus_gfp_free(c);
    free(r);
    free(xp);
    free(x);
    free(s);
    free(a);
}

static void test_random(void)
{
    static const unsigned primes[] = {2, 3, 5, 7};

    for (size_t k = 0; k < sizeof(primes) / sizeof(primes[0]); k++)
        for (int h = 1; h <= 8; h++)
            for (int w = 1; w <= 8; w++)
                for (int tr = 0; tr < 2; tr++) {
                    int off[12][3], n = random_plus(off, primes[k], tr);
                    compare(w, h, primes[k], (const int(*)[3])off, n,
                            tr ? "plus^T" : "plus");
                }
}

/* Orientation: the shorter side is the chase width, unless the stencil
 * is plus-shaped only the other way. */
static void test_orientation(void)
{
    static const int lopsided[5][3] = {/* unequal vertical arms: only a
                                        * plus in the caller orientation */
                                       {0, 0, 1},
                                       {1, 0, 1},
                                       {-1, 0, 1},
                                       {0, -1, 1},
                                       {0, 1, 2}};
    qn_plus_gfp *c = NULL;

    T_EQ(qn_plus_gfp_new(&c, 7, 3, 5, plus, 5, NULL), QN_OK);
    T_EQ(qn_plus_gfp_transposed(c), 1);
    T_EQ(qn_plus_gfp_width(c), 3);
    qn_plus_gfp_free(c);
    T_EQ(qn_plus_gfp_new(&c, 3, 7, 5, plus, 5, NULL), QN_OK);
    T_EQ(qn_plus_gfp_transposed(c), 0);
    T_EQ(qn_plus_gfp_width(c), 3);
    qn_plus_gfp_free(c);
    T_EQ(qn_plus_gfp_new(&c, 7, 3, 5, lopsided, 5, NULL), QN_OK);
    T_EQ(qn_plus_gfp_transposed(c), 0);
    T_EQ(qn_plus_gfp_width(c), 7);
    qn_plus_gfp_free(c);
    compare(7, 3, 5, lopsided, 5, "lopsided");
}

/*
 * The classic n x n board over GF(3): the kernel dimension against dense
 * elimination for n = 1..30 (the dense matrix is at most 900 x 900).
 */
static void test_classic_gf3(void)
{
    int nontrivial = 0;

    for (int n = 1; n <= 30; n++) {
        qn_plus_gfp *c = NULL;
        qn_system *sys = NULL;
        uint8_t *a = t_stencil_dense(n, n, 3, plus, 5);
        uint64_t kd = 0;
        if (qn_plus_gfp_new(&c, n, n, 3, plus, 5, NULL) ||
            qn_system_new(&sys, a, n * n, n * n, 3, NULL) ||
            qn_system_group_size_u64(sys, QN_KERNEL, &kd))
            T_FAILF("classic %dx%d mod 3: set-up failed", n, n);
        else if (kd != ipow(3, qn_plus_gfp_kernel_dim(c)))
            T_FAILF("classic %dx%d mod 3: dim %zu, dense kernel %llu", n, n,
                    qn_plus_gfp_kernel_dim(c), (unsigned long long)kd);
        else
            t_pass++;
        nontrivial += c && qn_plus_gfp_kernel_dim(c) > 0;
        qn_system_free(sys);
        qn_plus_gfp_free(c);
        free(a);
    }
    T_CHECK(nontrivial >= 5); /* a test worth having */
}

/* GF(2) cross-check: the published nullities of the classic n x n board
 * (OEIS A159257, tests/golden/plus_square_nullity.tsv), n = 1..130. */
static void test_golden_gf2(void)
{
    int n[131], nul[131], rows = t_golden_nullity(n, nul, 131);

    T_EQ(rows, 130);
    for (int i = 0; i < rows; i++) {
        qn_plus_gfp *c = NULL;
        if (qn_plus_gfp_new(&c, n[i], n[i], 2, plus, 5, NULL)) {
            T_FAILF("plus %dx%d mod 2 refused", n[i], n[i]);
            continue;
        }
        if ((int)qn_plus_gfp_kernel_dim(c) != nul[i])
            T_FAILF("plus %dx%d mod 2: nullity %zu, published %d", n[i], n[i],
                    qn_plus_gfp_kernel_dim(c), nul[i]);
        else
            t_pass++;
        qn_plus_gfp_free(c);
    }
}

/* Larger boards: random solvable states (s = A x by direct application)
 * are solved and replayed; also kernel generators where there are any. */
static void test_large(void)
{
    static const int sizes[][3] = {{200, 200, 3}, {1000, 1000, 3},
                                   {37, 300, 7},  {300, 37, 5},
                                   {104, 104, 3}, {71, 83, 251}};

    for (size_t k = 0; k < sizeof(sizes) / sizeof(sizes[0]); k++) {
        int w = sizes[k][0], h = sizes[k][1], n = w * h;
        unsigned p = (unsigned)sizes[k][2];
        qn_plus_gfp *c = NULL;
        uint8_t *x = malloc((size_t)n), *s = malloc((size_t)n);
        uint8_t *xp = malloc((size_t)n), *r = malloc((size_t)n);
        if (qn_plus_gfp_new(&c, w, h, p, plus, 5, NULL)) {
            T_FAILF("classic %dx%d mod %u refused", w, h, p);
            goto next;
        }
        for (int trial = 0; trial < 2; trial++) {
            for (int i = 0; i < n; i++)
                x[i] = (uint8_t)(t_rand(&seed) % p);
            t_stencil_apply(s, x, NULL, w, h, p, plus, 5);
            if (qn_plus_gfp_solve(c, xp, s, NULL) != QN_OK) {
                T_FAILF("classic %dx%d mod %u: A x unsolvable", w, h, p);
                continue;
            }
            t_stencil_apply(r, xp, s, w, h, p, plus, 5);
            T_CHECK(is_zero(r, n));
        }
        for (size_t g = 0; g < qn_plus_gfp_kernel_dim(c) && g < 2; g++) {
            qn_plus_gfp_kernel_gen(c, g, xp);
            t_stencil_apply(r, xp, NULL, w, h, p, plus, 5);
            T_CHECK(is_zero(r, n) && !is_zero(xp, n));
        }
    next:
        qn_plus_gfp_free(c);
        free(r);
        free(xp);
        free(s);
        free(x);
    }
}

static void expect_refusal(int w, int h, unsigned p, const int (*off)[3],
                           size_t noff, int code, const char *msg)
{
    qn_err err = QN_ERR_INIT;
    qn_plus_gfp *c = (qn_plus_gfp *)&err; /* must come back NULL */

    T_EQ(qn_plus_gfp_new(&c, w, h, p, off, noff, &err), code);
    T_CHECK(c == NULL);
    T_EQ(err.code, code);
    if (!strstr(err.msg, msg))
        T_FAILF("message '%s' lacks '%s'", err.msg, msg);
}

static void test_refusals(void)
{
    static const int far[6][3] = {{0, 0, 1}, {1, 0, 1},  {-1, 0, 1},
                                  {0, 1, 1}, {0, -1, 1}, {2, 0, 1}};
    static const int diag[5][3] = {
        {1, 1, 1}, {1, 0, 1}, {-1, 0, 1}, {0, 1, 1}, {0, -1, 1}};
    static const int uneven[4][3] = {/* not a plus either way */
                                     {1, 0, 1},
                                     {-1, 0, 2},
                                     {0, 1, 1},
                                     {0, -1, 2}};
    static const int down[4][3] = {{1, 0, 1}, {-1, 0, 1}, {0, 1, 1}, {0, 0, 1}};
    static const int lopsided[5][3] = {
        {0, 0, 1}, {1, 0, 1}, {-1, 0, 1}, {0, -1, 1}, {0, 1, 2}};

    expect_refusal(3, 3, 4, plus, 5, QN_EINVAL, "prime in 2..251");
    expect_refusal(3, 3, 1, plus, 5, QN_EINVAL, "got 1");
    expect_refusal(3, 3, 257, plus, 5, QN_EINVAL, "got 257");
    expect_refusal(0, 3, 3, plus, 5, QN_EINVAL, "at least 1x1");
    expect_refusal(3, -1, 3, plus, 5, QN_EINVAL, "at least 1x1");
    expect_refusal(3, 3, 3, far, 6, QN_EINVAL, "offset (2, 0)");
    expect_refusal(3, 3, 3, diag, 5, QN_EINVAL, "offset (1, 1)");
    expect_refusal(3, 3, 3, uneven, 4, QN_EINVAL, "same amount");
    /* up-arm missing: (0, -1) in this orientation */
    expect_refusal(3, 4, 3, down, 4, QN_EINVAL, "offset (0, -1)");
    expect_refusal(20000, 20000, 3, plus, 5, QN_ELIMIT, "cells");
    expect_refusal(70000, 2, 3, lopsided, 5, QN_ELIMIT, "chase width");

    /* A width-1 chase needs no horizontal arm; a zero-amount stranger and
     * an amount that merges to zero are dropped. */
    static const int column[4][3] = {
        {0, 0, 2}, {0, -1, 1}, {0, 1, 1}, {3, 3, 9}};
    static const int row[5][3] = {
        {0, 0, 2}, {-1, 0, 1}, {1, 0, 1}, {0, 1, 1}, {0, 1, 2}};
    compare(1, 6, 3, column, 4, "column");
    compare(6, 1, 3, row, 5, "row");
}

int main(void)
{
    test_random();
    test_orientation();
    test_classic_gf3();
    test_golden_gf2();
    test_large();
    test_refusals();
    printf("plusp: %ld states compared (%ld unsolvable), %ld boards with "
           "a kernel, %ld chase comparisons, %ld brute-force spans\n",
           ncompared, nunsolvable, nkernel, nchase, nbrute);
    T_CHECK(nkernel > 100 && nunsolvable > 100);
    return t_done();
}
