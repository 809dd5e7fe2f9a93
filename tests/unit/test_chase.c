/*
 * test_chase.c: light chasing agrees with dense elimination (qn_system +
 * qn_minpress) on solvability, kernel size, minimal presses, optimal count
 * and the exact optimal plan, for plus, sigma, Moore, random stencils and
 * k = 2..9 on small boards; plus the published n x n nullities over GF(2).
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "quench/chase.h"
#include "quench/minpress.h"
#include "quench/system.h"
#include "t.h"

static uint64_t seed = 8;

static const int plus[5][3] = {
    {0, 0, 1}, {1, 0, 1}, {-1, 0, 1}, {0, 1, 1}, {0, -1, 1}};
static const int sigma[4][3] = {{1, 0, 1}, {-1, 0, 1}, {0, 1, 1}, {0, -1, 1}};
static const int moore[9][3] = {{-1, -1, 1}, {0, -1, 1}, {1, -1, 1},
                                {-1, 0, 1},  {0, 0, 1},  {1, 0, 1},
                                {-1, 1, 1},  {0, 1, 1},  {1, 1, 1}};

/* The dense matrix of a stencil, straight from the definition. */
static uint8_t *dense(int w, int h, unsigned k, const int (*off)[3], int n)
{
    int cells = w * h;
    uint8_t *a = calloc((size_t)cells * cells + 1, 1);

    for (int y = 0; y < h; y++)
        for (int x = 0; x < w; x++)
            for (int o = 0; o < n; o++) {
                int xx = x + off[o][0], yy = y + off[o][1];
                if (xx < 0 || xx >= w || yy < 0 || yy >= h)
                    continue;
                uint8_t *e = &a[(size_t)(yy * w + xx) * cells + y * w + x];
                *e = (uint8_t)((*e + (unsigned)off[o][2] % k) % k);
            }
    return a;
}

static int is_solution(const qn_system *sys, const uint8_t *x,
                       const uint8_t *s, int n)
{
    uint8_t *r = malloc((size_t)n + 1);
    int ok = 1;

    qn_system_apply(sys, r, x, s);
    for (int i = 0; i < n; i++)
        ok &= r[i] == 0;
    free(r);
    return ok;
}

static long ncompared, nrefused, nbig;

/* Chase vs dense on one board; returns 0 if the stencil was refused. */
static int compare(int w, int h, unsigned k, const int (*off)[3], int noff,
                   int expect_tr, const char *name)
{
    int n = w * h;
    qn_chase *c = NULL;
    qn_system *sys = NULL;
    qn_err err = QN_ERR_INIT;
    uint8_t *a = dense(w, h, k, off, noff);
    uint8_t *s = calloc((size_t)n, 1), *x = calloc((size_t)n, 1);
    uint8_t *xd = calloc((size_t)n, 1), *xc = calloc((size_t)n, 1);
    uint64_t kc = 0, kd = 0;
    int rc = qn_chase_new(&c, w, h, k, off, (size_t)noff, &err);

    if (rc) {
        if (rc != QN_EINVAL || c || !strstr(err.msg, "not invertible"))
            T_FAILF("%s %dx%d k=%u: rc %d msg '%s'", name, w, h, k, rc,
                    err.msg);
        nrefused++;
        goto done;
    }
    if (qn_system_new(&sys, a, n, n, k, &err)) {
        T_FAILF("dense %s %dx%d: %s", name, w, h, err.msg);
        goto done;
    }
    T_EQ(qn_chase_transposed(c), expect_tr);
    if (qn_chase_kernel_size_u64(c, &kc) ||
        qn_system_group_size_u64(sys, QN_KERNEL, &kd) || kc != kd)
        T_FAILF("%s %dx%d k=%u: kernel %llu vs %llu", name, w, h, k,
                (unsigned long long)kc, (unsigned long long)kd);
    for (size_t i = 0; i < qn_chase_kernel_ngens(c); i++) {
        memset(s, 0, (size_t)n);
        qn_chase_kernel_gen(c, i, xc);
        if (!is_solution(sys, xc, s, n))
            T_FAILF("%s %dx%d k=%u: kernel gen %zu not quiet", name, w, h,
                    k, i);
    }
    for (int trial = 0; trial < 6; trial++) {
        qn_minpress md;
        uint64_t pc = 0, oc = 0, nc = 0;
        int rd, rs, rm;
        for (int i = 0; i < n; i++) {
            s[i] = (uint8_t)(t_rand(&seed) % k);
            x[i] = (uint8_t)(t_rand(&seed) % k);
        }
        if (trial % 2 == 0) { /* solvable: s = A x */
            memset(s, 0, (size_t)n);
            qn_system_apply(sys, s, x, s);
        }
        rd = qn_system_is_solvable(sys, s);
        rs = qn_chase_solve(c, xc, s, &err);
        if ((rs == QN_OK) != (rd == 1) || (rs && rs != QN_EUNSOLVABLE)) {
            T_FAILF("%s %dx%d k=%u: solve %d vs solvable %d", name, w, h,
                    k, rs, rd);
            continue;
        }
        if (trial % 2 == 0 && rs)
            T_FAILF("%s %dx%d k=%u: A x reported unsolvable", name, w, h, k);
        if (rs) {
            ncompared++;
            continue;
        }
        if (!is_solution(sys, xc, s, n))
            T_FAILF("%s %dx%d k=%u: solve gives a non-solution", name, w, h,
                    k);
        if (kc > QN_CHASE_MAX_KERNEL) { /* refused, with one solution */
            rs = qn_chase_min_presses(c, xc, &pc, &oc, &nc, s, &err);
            if (rs != QN_ELIMIT || oc != 0 || nc != kc ||
                !is_solution(sys, xc, s, n))
                T_FAILF("%s %dx%d k=%u: big kernel: rc %d", name, w, h, k,
                        rs);
            else
                t_pass++;
            nbig++;
            continue;
        }
        rm = qn_minpress_solve(sys, &md, xd, s, QN_MINPRESS_DEFAULT_LIMIT,
                               &err);
        rs = qn_chase_min_presses(c, xc, &pc, &oc, &nc, s, &err);
        if (rm || rs) {
            T_FAILF("%s %dx%d k=%u: minpress %d chase %d", name, w, h, k, rm,
                    rs);
            continue;
        }
        if (pc != md.presses || oc != md.noptimal || nc != md.nsolutions ||
            memcmp(xc, xd, (size_t)n) || !is_solution(sys, xc, s, n))
            T_FAILF("%s %dx%d k=%u: presses %llu/%llu optimal %llu/%llu "
                    "solutions %llu/%llu plan %s",
                    name, w, h, k, (unsigned long long)pc,
                    (unsigned long long)md.presses, (unsigned long long)oc,
                    (unsigned long long)md.noptimal, (unsigned long long)nc,
                    (unsigned long long)md.nsolutions,
                    memcmp(xc, xd, (size_t)n) ? "differs" : "same");
        else
            t_pass++;
        ncompared++;
    }
done:
    qn_system_free(sys);
    qn_chase_free(c);
    free(xc);
    free(xd);
    free(x);
    free(s);
    free(a);
    return rc == QN_OK;
}

/* A random stencil in -r..r with random amounts; its top row (dy = -r)
 * is often unit * I, so B is often invertible. */
static int random_stencil(int (*off)[3], unsigned k, int r)
{
    int n = 0;

    for (int dy = -r; dy <= r; dy++)
        for (int dx = -r; dx <= r; dx++) {
            unsigned a = (unsigned)(t_rand(&seed) % k);
            if (dy == -r && t_rand(&seed) % 2) /* often B = unit * I */
                a = dx == 0 ? 1 + (unsigned)(t_rand(&seed) % (k - 1)) : 0;
            if (dy == -r && dx == 0 && a == 0)
                a = 1;
            if (a) {
                off[n][0] = dx, off[n][1] = dy, off[n][2] = (int)a;
                n++;
            }
        }
    return n;
}

static void test_families(void)
{
    for (unsigned k = 2; k <= 9; k++)
        for (int h = 1; h <= 6; h++)
            for (int w = 1; w <= 7; w++) {
                int ok, pref = h < w;
                T_CHECK(compare(w, h, k, plus, 5, pref, "plus"));
                T_CHECK(compare(w, h, k, sigma, 4, pref, "sigma"));
                /* Moore falls back to the other side when the shorter
                 * one is not chaseable. */
                ok = compare(w, h, k, moore, 9,
                             (pref ? h : w) % 3 == 2 ? !pref : pref,
                             "moore");
                /* det of the tridiagonal all-ones w x w is 0 iff w = 2
                 * mod 3, and +-1 otherwise. */
                T_EQ(ok, w % 3 != 2 || h % 3 != 2);
            }
}

/* Random stencils, radius 1 and 2 (D = 2: two unknown rows), compared
 * where they chase in the preferred orientation. */
static void test_random(void)
{
    long nok = 0;

    for (unsigned k = 2; k <= 9; k++)
        for (int h = 1; h <= 6; h++)
            for (int w = 1; w <= 7; w++)
                for (int r = 1; r <= 2; r++) {
                    int off[25][3], n = random_stencil(off, k, r);
                    int tr = h < w;
                    qn_chase *c = NULL;
                    if (qn_chase_new(&c, w, h, k, (const int(*)[3])off,
                                     (size_t)n, NULL) == QN_OK &&
                        qn_chase_transposed(c) == tr) {
                        qn_chase_free(c);
                        nok += compare(w, h, k, (const int(*)[3])off, n,
                                       tr, r == 1 ? "random1" : "random2");
                    } else {
                        qn_chase_free(c);
                    }
                }
    T_CHECK(nok > 300);
}

static void test_golden(void)
{
    FILE *f = fopen("tests/golden/plus_square_nullity.tsv", "r");
    char line[128];
    int seen = 0;

    T_CHECK(f != NULL);
    if (!f)
        return;
    while (fgets(line, sizeof(line), f)) {
        int n, nul;
        qn_chase *c = NULL;
        if (sscanf(line, "%d %d", &n, &nul) != 2 || n > 40)
            continue;
        if (qn_chase_new(&c, n, n, 2, plus, 5, NULL)) {
            T_FAILF("plus %dx%d refused", n, n);
            continue;
        }
        if (fabs(qn_chase_kernel_log2(c) - nul) > 1e-9 ||
            (int)qn_chase_kernel_ngens(c) != nul)
            T_FAILF("plus %dx%d: nullity %g, published %d", n, n,
                    qn_chase_kernel_log2(c), nul);
        else
            t_pass++;
        seen++;
        qn_chase_free(c);
    }
    fclose(f);
    T_EQ(seen, 40);
}

static void test_refusals(void)
{
    static const int down[2][3] = {{0, 0, 1}, {0, 1, 1}};
    qn_err err = QN_ERR_INIT;
    qn_chase *c = (qn_chase *)&err; /* must come back NULL */

    T_EQ(qn_chase_new(&c, 3, 3, 2, down, 2, &err), QN_EINVAL);
    T_CHECK(c == NULL);
    T_CHECK(strstr(err.msg, "row map not invertible mod 2") != NULL);
    c = (qn_chase *)&err;
    T_EQ(qn_chase_new(&c, 5, 2, 3, moore, 9, &err), QN_EINVAL);
    T_CHECK(c == NULL);
    T_CHECK(strstr(err.msg, "not invertible mod 3") != NULL);
    c = (qn_chase *)&err;
    T_EQ(qn_chase_new(&c, 3, 3, 256, plus, 5, &err), QN_EINVAL);
    T_CHECK(c == NULL);
    c = (qn_chase *)&err;
    T_EQ(qn_chase_new(&c, 5000, 5000, 2, plus, 5, &err), QN_ELIMIT);
    T_CHECK(c == NULL);
    c = (qn_chase *)&err;
    T_EQ(qn_chase_new(&c, 0, 3, 2, plus, 5, &err), QN_EINVAL);
    T_CHECK(c == NULL);

    /* A kernel above the walk limit: the up-only stencil {(0, -1)} on a
     * 24 x 1 board touches nothing, so every press is quiet: 2^24. */
    static const int up[1][3] = {{0, -1, 1}};
    uint8_t s[24] = {0}, x[24];
    uint64_t p = 7, o = 7, ns = 7;
    T_EQ(qn_chase_new(&c, 24, 1, 2, up, 1, &err), QN_OK);
    if (c) {
        T_EQ(qn_chase_kernel_log2(c), 24);
        T_EQ(qn_chase_min_presses(c, x, &p, &o, &ns, s, &err), QN_ELIMIT);
        T_EQ(o, 0);
        T_EQ(ns, (uint64_t)1 << 24);
        qn_chase_free(c);
    }
}

int main(void)
{
    test_families();
    test_random();
    test_golden();
    test_refusals();
    printf("chase: %ld states compared (%ld over the walk limit), %ld boards "
           "refused\n",
           ncompared, nbig, nrefused);
    return t_done();
}
