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

#include "bigboard/chase.h"
#include "engine/minpress.h"
#include "engine/system.h"
#include "t.h"
#include "tstencil.h"

static uint64_t seed = 8;

static const int plus[5][3] = {
    {0, 0, 1}, {1, 0, 1}, {-1, 0, 1}, {0, 1, 1}, {0, -1, 1}};
static const int sigma[4][3] = {{1, 0, 1}, {-1, 0, 1}, {0, 1, 1}, {0, -1, 1}};
static const int moore[9][3] = {{-1, -1, 1}, {0, -1, 1}, {1, -1, 1},
                                {-1, 0, 1},  {0, 0, 1},  {1, 0, 1},
                                {-1, 1, 1},  {0, 1, 1},  {1, 1, 1}};

static int is_solution(const qn_system *sys, const uint8_t *x, const uint8_t *s,
                       int n)
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
    uint8_t *a = t_stencil_dense(w, h, k, off, noff);
    uint8_t *s = calloc((size_t)n, 1), *x = calloc((size_t)n, 1);
    uint8_t *xd = calloc((size_t)n, 1), *xc = calloc((size_t)n, 1);
    uint64_t kc = 0, kd = 0;
    int rc = qn_chase_new(&c, w, h, k, off, (size_t)noff, &err);

    if (rc) {
        if (rc != QN_EINVAL || c || !strstr(err.msg, "not chaseable"))
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
            T_FAILF("%s %dx%d k=%u: kernel gen %zu not quiet", name, w, h, k,
                    i);
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
            T_FAILF("%s %dx%d k=%u: solve %d vs solvable %d", name, w, h, k, rs,
                    rd);
            continue;
        }
        if (trial % 2 == 0 && rs)
            T_FAILF("%s %dx%d k=%u: A x reported unsolvable", name, w, h, k);
        if (rs) {
            ncompared++;
            continue;
        }
        if (!is_solution(sys, xc, s, n))
            T_FAILF("%s %dx%d k=%u: solve gives a non-solution", name, w, h, k);
        if (kc > QN_CHASE_MAX_KERNEL) { /* refused, with one solution */
            rs = qn_chase_min_presses(c, xc, &pc, &oc, &nc, s, &err);
            if (rs != QN_ELIMIT || oc != 0 || nc != kc ||
                !is_solution(sys, xc, s, n))
                T_FAILF("%s %dx%d k=%u: big kernel: rc %d", name, w, h, k, rs);
            else
                t_pass++;
            nbig++;
            continue;
        }
        rm =
            qn_minpress_solve(sys, &md, xd, s, QN_MINPRESS_DEFAULT_LIMIT, &err);
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
                /* Moore chases along the shorter side at every width,
                 * including w = 2 mod 3 where its row map is singular. */
                ok = compare(w, h, k, moore, 9, pref, "moore");
                T_EQ(ok, 1);
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
                        nok += compare(w, h, k, (const int(*)[3])off, n, tr,
                                       r == 1 ? "random1" : "random2");
                    } else {
                        qn_chase_free(c);
                    }
                }
    T_CHECK(nok > 300);
}

/*
 * A random stencil whose top row (dy = -r) is a random band with a unit at
 * one end only (or both): B is often singular and never forced diagonal.
 */
static int random_band(int (*off)[3], unsigned k, int r)
{
    int n = 0, lo = -(int)(t_rand(&seed) % (unsigned)(r + 1));
    int hi = (int)(t_rand(&seed) % (unsigned)(r + 1)), end = t_rand(&seed) % 3;

    for (int dy = -r; dy <= r; dy++)
        for (int dx = -r; dx <= r; dx++) {
            unsigned a = (unsigned)(t_rand(&seed) % k);
            if (dy == -r && (dx < lo || dx > hi))
                a = 0;
            /* The chosen end(s) get 1, a unit in every Z/k. */
            if (dy == -r && ((dx == lo && end != 1) || (dx == hi && end)))
                a = 1;
            if (a) {
                off[n][0] = dx, off[n][1] = dy, off[n][2] = (int)a;
                n++;
            }
        }
    return n;
}

/* Banded top rows, singular B included; compared in whichever orientation
 * the chase picks (this one may flip the board to chase right to left). */
static void test_band(void)
{
    long nok = 0, ntried = 0;

    for (unsigned k = 2; k <= 9; k++)
        for (int h = 1; h <= 6; h++)
            for (int w = 1; w <= 7; w++)
                for (int r = 1; r <= 2; r++) {
                    if ((w + h + r) % 2) /* half the grid keeps it quick */
                        continue;
                    int off[25][3], n = random_band(off, k, r);
                    ntried++;
                    qn_chase *c = NULL;
                    if (qn_chase_new(&c, w, h, k, (const int(*)[3])off,
                                     (size_t)n, NULL) != QN_OK) {
                        T_FAILF("band stencil refused %dx%d k=%u", w, h, k);
                        continue;
                    }
                    int tr = qn_chase_transposed(c);
                    qn_chase_free(c);
                    nok +=
                        compare(w, h, k, (const int(*)[3])off, n, tr, "band");
                }
    T_CHECK(nok == ntried);
}

/*
 * Greedy plus lower bound, forced with limit 1: lower <= the exact
 * minimum (dense qn_minpress) <= presses, and the plan replays.
 */
static void test_greedy(void)
{
    long n_tight = 0, n_cases = 0;

    for (unsigned k = 2; k <= 6; k++)
        for (int h = 2; h <= 6; h++)
            for (int w = h; w <= 7; w++) {
                int off[25][3], no = w % 2 ? random_band(off, k, 1) : 9;
                const int(*st)[3] = w % 2 ? (const int(*)[3])off : moore;
                int n = w * h;
                qn_chase *c = NULL;
                qn_system *sys = NULL;
                uint8_t *a = t_stencil_dense(w, h, k, st, no);
                uint8_t s[64] = {0}, x[64], xd[64];
                qn_chase_min m = {0};
                qn_minpress md;
                if (qn_chase_new(&c, w, h, k, st, (size_t)no, NULL) ||
                    qn_system_new(&sys, a, n, n, k, NULL)) {
                    T_FAILF("greedy setup %dx%d k=%u", w, h, k);
                    goto next;
                }
                for (int i = 0; i < n; i++)
                    x[i] = (uint8_t)(t_rand(&seed) % k);
                qn_system_apply(sys, s, x, s);
                int rc = qn_chase_min_presses_limit(c, &m, x, s, 1, NULL);
                if (qn_minpress_solve(sys, &md, xd, s,
                                      QN_MINPRESS_DEFAULT_LIMIT, NULL)) {
                    T_FAILF("dense minpress %dx%d", w, h);
                    goto next;
                }
                uint64_t sum = 0;
                for (int i = 0; i < n; i++)
                    sum += x[i];
                if ((rc != QN_ELIMIT) != (md.nsolutions <= 1) ||
                    m.exact != (rc == QN_OK) || sum != m.presses ||
                    m.lower > md.presses || md.presses > m.presses ||
                    m.nsolutions != md.nsolutions || !is_solution(sys, x, s, n))
                    T_FAILF("greedy %dx%d k=%u rc %d: lower %llu min %llu "
                            "found %llu",
                            w, h, k, rc, (unsigned long long)m.lower,
                            (unsigned long long)md.presses,
                            (unsigned long long)m.presses);
                else
                    t_pass++;
                n_cases++;
                n_tight += m.presses == md.presses;
            next:
                qn_system_free(sys);
                qn_chase_free(c);
                free(a);
            }
    printf("chase: greedy optimal in %ld of %ld cases\n", n_tight, n_cases);
}

/* Boards too big for dense elimination: solvable states solve, replay. */
static void test_large(void)
{
    static const struct {
        int w, h;
        unsigned k;
        int which;
    } cases[] = {{300, 300, 3, 0},
                 {200, 200, 2, 1},
                 {150, 200, 6, 1},
                 {161, 170, 5, 2},
                 {200, 150, 4, 2}};

    for (size_t t = 0; t < sizeof(cases) / sizeof(cases[0]); t++) {
        int w = cases[t].w, h = cases[t].h, off[25][3], no;
        unsigned k = cases[t].k;
        size_t n = (size_t)w * h;
        const int(*st)[3] = (const int(*)[3])off;
        qn_chase *c = NULL;
        qn_err err = QN_ERR_INIT;
        uint8_t *x = malloc(n), *s = calloc(n, 1), *xs = malloc(n);

        if (cases[t].which == 0)
            st = plus, no = 5;
        else if (cases[t].which == 1)
            st = moore, no = 9;
        else
            no = random_band(off, k, 2);
        for (size_t i = 0; i < n; i++)
            x[i] = (uint8_t)(t_rand(&seed) % k);
        t_stencil_apply(s, x, s, w, h, k, st, no);
        if (qn_chase_new(&c, w, h, k, st, (size_t)no, &err) ||
            qn_chase_solve(c, xs, s, &err)) {
            T_FAILF("large %dx%d k=%u: %s", w, h, k, err.msg);
        } else {
            t_stencil_apply(s, xs, s, w, h, k, st, no); /* s + A xs must be 0 */
            size_t bad = 0;
            for (size_t i = 0; i < n; i++)
                bad += s[i] != 0;
            T_EQ(bad, 0);
        }
        qn_chase_free(c);
        free(xs);
        free(s);
        free(x);
    }
}

static void test_golden(void)
{
    int n[131], nul[131], rows = t_golden_nullity(n, nul, 131), seen = 0;

    T_EQ(rows, 130);
    for (int i = 0; i < rows && n[i] <= 40; i++, seen++) {
        qn_chase *c = NULL;
        if (qn_chase_new(&c, n[i], n[i], 2, plus, 5, NULL)) {
            T_FAILF("plus %dx%d refused", n[i], n[i]);
            continue;
        }
        if (fabs(qn_chase_kernel_log2(c) - nul[i]) > 1e-9 ||
            (int)qn_chase_kernel_ngens(c) != nul[i])
            T_FAILF("plus %dx%d: nullity %g, published %d", n[i], n[i],
                    qn_chase_kernel_log2(c), nul[i]);
        else
            t_pass++;
        qn_chase_free(c);
    }
    T_EQ(seen, 40);
}

static void test_refusals(void)
{
    static const int down[2][3] = {{0, 0, 1}, {0, 1, 1}};
    qn_err err = QN_ERR_INIT;
    qn_chase *c = (qn_chase *)&err; /* must come back NULL */

    /* Moore mod 4 with 2 in the corners: no unit at either end of the
     * top row, along either side. */
    static const int moore2[9][3] = {{-1, -1, 2}, {0, -1, 1}, {1, -1, 2},
                                     {-1, 0, 1},  {0, 0, 1},  {1, 0, 1},
                                     {-1, 1, 2},  {0, 1, 1},  {1, 1, 2}};
    T_EQ(qn_chase_new(&c, 3, 3, 2, down, 2, &err), QN_EINVAL);
    T_CHECK(c == NULL);
    T_CHECK(strstr(err.msg, "not chaseable") != NULL);
    c = (qn_chase *)&err;
    T_EQ(qn_chase_new(&c, 5, 2, 4, moore2, 9, &err), QN_EINVAL);
    T_CHECK(c == NULL);
    T_CHECK(strstr(err.msg, "not chaseable mod 4") != NULL);
    c = (qn_chase *)&err;
    T_EQ(qn_chase_new(&c, 5, 2, 3, moore2, 9, &err), QN_OK); /* 2 is a unit */
    qn_chase_free(c);
    c = (qn_chase *)&err;
    T_EQ(qn_chase_new(&c, 3, 3, 256, plus, 5, &err), QN_EINVAL);
    T_CHECK(c == NULL);
    c = (qn_chase *)&err;
    T_EQ(qn_chase_new(&c, 9000, 9000, 2, plus, 5, &err), QN_ELIMIT);
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
    test_band();
    test_greedy();
    test_large();
    test_golden();
    test_refusals();
    printf("chase: %ld states compared (%ld over the walk limit), %ld boards "
           "refused\n",
           ncompared, nbig, nrefused);
    return t_done();
}
