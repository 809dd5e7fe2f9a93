/*
 * test_nomem_engine.c: the linear-algebra engine (src/engine), the
 * big-board solvers (src/bigboard) and the canonical forms and seen-set
 * (src/rules/canon.c) never exit the process (issue #32 section 2). Each entry
 * point is run failing its n-th allocation (tfail.h), for every n until a run
 * makes fewer than n allocations; each run must return what a run with memory
 * returns, or QN_ENOMEM with err saying "out of memory", leave its inputs
 * usable (the next run reuses them) and free what it made (leaks show under
 * ASan). A run reduces what it computed to a digest; past the last allocation
 * the digest must be the one of a run with the C library's allocator.
 * A few facts checked on the way come from outside quench (nullities of
 * Lights Out boards, ranks of matrices built to have them).
 */
#include <stdio.h>
#include <string.h>

#include "../../src/engine/gf2_internal.h" /* the tuned entry points */
#include "base/buf.h"
#include "base/mem.h"
#include "bigboard/chase.h"
#include "bigboard/grid.h"
#include "bigboard/netpbm.h"
#include "bigboard/plus_gf2.h"
#include "bigboard/plus_gfp.h"
#include "engine/gf2.h"
#include "engine/gf2x.h"
#include "engine/minpress.h"
#include "engine/repair.h"
#include "engine/system.h"
#include "engine/zk.h"
#include "quench.h"
#include "rules/canon.h"
#include "t.h"
#include "tfail.h"

#define MAX_POINTS 200000L

typedef int run_fn(void *ctx, qn_err *err, uint64_t *digest);

static void mix(uint64_t *h, const void *p, size_t n)
{
    const unsigned char *b = p;

    for (size_t i = 0; i < n; i++)
        *h = (*h ^ b[i]) * 0x100000001b3ULL;
}

static void mixu(uint64_t *h, uint64_t v)
{
    mix(h, &v, sizeof(v));
}

/* A call without a qn_err of its own reports QN_ENOMEM as its caller
 * would: through qn_err_nomem. */
static int said(int rc, qn_err *err)
{
    return rc == QN_ENOMEM ? qn_err_nomem(err) : rc;
}

/*
 * The sweep. The reference run (no failure) gives the expected status and
 * digest; every run failing allocation n gives those or QN_ENOMEM.
 */
static long sweep(const char *what, run_fn *fn, void *ctx)
{
    uint64_t ref = 0xcbf29ce484222325ULL, d;
    qn_err err = QN_ERR_INIT;
    long n, points = 0;
    int ref_rc, rc;

    t_fail_after(-1);
    ref_rc = fn(ctx, &err, &ref);
    if (ref_rc == QN_ENOMEM) {
        T_FAILF("%s: out of memory without failures", what);
        return 0;
    }
    for (n = 1; n < MAX_POINTS; n++) {
        long made;

        qn_err_clear(&err);
        d = 0xcbf29ce484222325ULL;
        t_fail_after(n);
        rc = fn(ctx, &err, &d);
        made = t_counted();
        t_fail_after(-1);
        if (rc == ref_rc) {
            if (d != ref)
                T_FAILF("%s, allocation %ld failing: other result", what, n);
        } else if (!(rc == QN_ENOMEM && err.code == QN_ENOMEM &&
                     strstr(err.msg, "out of memory"))) {
            T_FAILF("%s, allocation %ld failing: rc %d, code %d, '%s'", what, n,
                    rc, err.code, err.msg);
        }
        if (made < n) {
            T_EQ(rc, ref_rc);
            break;
        }
        points++;
    }
    /* once more with memory: the inputs are still good */
    d = 0xcbf29ce484222325ULL;
    rc = fn(ctx, &err, &d);
    T_CHECK(rc == ref_rc && d == ref);
    printf("%s: %ld allocation failure points\n", what, points);
    return points;
}

static uint64_t seed = 88172645463325252ULL;

static uint64_t rnd(void)
{
    seed ^= seed << 13;
    seed ^= seed >> 7;
    seed ^= seed << 17;
    return seed;
}

/* ------------------------------------------------------------------ */
/* qn_system over the matrices of rules */

typedef struct sysctx {
    const uint8_t *a;
    int n;
    unsigned k;
    uint8_t *x, *s, *y;
} sysctx;

static void digest_system(const qn_system *sys, uint64_t *h)
{
    int n = qn_system_ncols(sys), m = qn_system_nrows(sys);

    mixu(h, qn_system_kernel_ngens(sys));
    for (size_t i = 0; i < qn_system_kernel_ngens(sys); i++) {
        mixu(h, qn_system_kernel_order(sys, i));
        mix(h, qn_system_kernel_gen(sys, i), (size_t)n);
    }
    mixu(h, qn_system_cokernel_ngens(sys));
    for (size_t j = 0; j < qn_system_cokernel_ngens(sys); j++) {
        mixu(h, qn_system_cokernel_order(sys, j));
        mix(h, qn_system_condition(sys, j), (size_t)m);
    }
}

/* s = -(A x0) for a fixed x0: a solvable state. */
static void solvable_state(const qn_system *sys, sysctx *c)
{
    unsigned k = qn_system_modulus(sys);

    memset(c->s, 0, (size_t)c->n);
    for (int i = 0; i < c->n; i++)
        c->x[i] = (uint8_t)((i * 7 + 3) % 5 % k);
    qn_system_apply(sys, c->y, c->x, c->s);
    for (int i = 0; i < c->n; i++)
        c->s[i] = (uint8_t)((k - c->y[i]) % k);
}

static int run_system_new(void *ctx, qn_err *err, uint64_t *h)
{
    sysctx *c = ctx;
    qn_system *sys;
    int rc = qn_system_new(&sys, c->a, c->n, c->n, c->k, err);

    if (rc != QN_OK) {
        T_CHECK(sys == NULL);
        return rc;
    }
    digest_system(sys, h);
    solvable_state(sys, c);
    rc = qn_system_is_solvable(sys, c->s);
    mixu(h, (uint64_t)rc);
    rc = qn_system_solve(sys, c->x, c->s);
    if (rc == QN_OK) {
        qn_system_apply(sys, c->y, c->x, c->s);
        for (int i = 0; i < c->n; i++)
            T_CHECK(c->y[i] == 0);
        mix(h, c->x, (size_t)c->n);
    }
    qn_system_free(sys);
    return said(rc, err);
}

static qn_rules *load_text(const char *text)
{
    qn_rules *r = NULL;
    qn_err err = QN_ERR_INIT;

    if (qn_rules_load_buf(&r, text, strlen(text), "test", &err) != QN_OK)
        T_FAILF("cannot load a rule: %s", err.msg);
    return r;
}

static qn_rules *load_file(const char *path)
{
    qn_rules *r = NULL;
    qn_err err = QN_ERR_INIT;

    if (qn_rules_load_file(&r, path, &err) != QN_OK)
        T_FAILF("%s: cannot load: %s", path, err.msg);
    return r;
}

static void sweep_rule(const char *what, qn_rules *r)
{
    sysctx c;

    if (!r)
        return;
    c.a = qn_rules_matrix(r);
    c.n = qn_rules_ncells(r);
    c.k = qn_rules_colours(r);
    c.x = malloc((size_t)c.n);
    c.s = malloc((size_t)c.n);
    c.y = malloc((size_t)c.n);
    T_CHECK(sweep(what, run_system_new, &c) > 3);
    free(c.x);
    free(c.s);
    free(c.y);
    qn_rules_free(r);
}

static void test_system_rules(void)
{
    qn_rules *r;
    qn_system *sys;

    /* Lights Out 5x5 has nullity 2 (Anderson and Feil, 1998) */
    r = load_file("rules/classic-5x5.yaml");
    if (r &&
        qn_system_new(&sys, qn_rules_matrix(r), 25, 25, 2, NULL) == QN_OK) {
        T_EQ(qn_system_kernel_ngens(sys), 2);
        T_EQ(qn_system_cokernel_ngens(sys), 2);
        qn_system_free(sys);
    }
    sweep_rule("system classic-5x5", r);
    sweep_rule("system hexagon-3", load_file("rules/hexagon-3.yaml"));
    sweep_rule("system cross-7x7 (masked)", load_file("rules/cross-7x7.yaml"));
    sweep_rule("system ring6-mod8", load_file("rules/ring6-mod8.yaml"));
    sweep_rule("system four-colour-10x10",
               load_file("rules/four-colour-10x10.yaml"));
    sweep_rule("system mod 6 (composite)",
               load_text("quench: 1\nname: six\ncolours: 6\n"
                         "board: {grid: [6, 6], wrap: none}\n"
                         "press: {stencil: plus, self: true}\n"));
    sweep_rule("system mod 12 torus",
               load_text("quench: 1\nname: twelve\ncolours: 12\n"
                         "board: {grid: [4, 4], wrap: both}\n"
                         "press: {stencil: plus, self: true}\n"));
}

/* ------------------------------------------------------------------ */
/* Boards past the stack buffers: solve and is_solvable allocate */

static uint8_t *plus_matrix(int w, int h, unsigned k)
{
    int n = w * h;
    uint8_t *a = calloc((size_t)n * n, 1);

    for (int y = 0; y < h; y++)
        for (int x = 0; x < w; x++) {
            int c = y * w + x;
            a[(size_t)c * n + c] = 1;
            if (x > 0)
                a[(size_t)c * n + c - 1] = 1;
            if (x + 1 < w)
                a[(size_t)c * n + c + 1] = 1;
            if (y > 0)
                a[(size_t)c * n + c - w] = 1;
            if (y + 1 < h)
                a[(size_t)c * n + c + w] = 1;
        }
    (void)k;
    return a;
}

typedef struct bigctx {
    qn_system *sys;
    sysctx c;
} bigctx;

static int run_big_solve(void *ctx, qn_err *err, uint64_t *h)
{
    bigctx *b = ctx;
    int rc = qn_system_is_solvable(b->sys, b->c.s);

    if (rc < 0)
        return said(rc, err);
    mixu(h, (uint64_t)rc);
    memset(b->c.x, 0, (size_t)b->c.n);
    rc = qn_system_solve(b->sys, b->c.x, b->c.s);
    if (rc == QN_OK)
        mix(h, b->c.x, (size_t)b->c.n);
    return said(rc, err);
}

static void sweep_big(const char *what, int w, int hgt, unsigned k)
{
    bigctx b;
    uint8_t *a = plus_matrix(w, hgt, k);
    int n = w * hgt;

    if (qn_system_new(&b.sys, a, n, n, k, NULL) != QN_OK) {
        T_FAILF("%s: no system", what);
        free(a);
        return;
    }
    b.c.n = n;
    b.c.x = malloc((size_t)n);
    b.c.s = malloc((size_t)n);
    b.c.y = malloc((size_t)n);
    solvable_state(b.sys, &b.c);
    T_CHECK(sweep(what, run_big_solve, &b) >= 1);
    free(b.c.x);
    free(b.c.s);
    free(b.c.y);
    qn_system_free(b.sys);
    free(a);
}

static void test_big_solve(void)
{
    sweep_big("solve 65x65 over GF(2)", 65, 65, 2);
    sweep_big("solve 33x33 mod 3", 33, 33, 3);
}

/* ------------------------------------------------------------------ */
/* GF(2): rank, rref, kernels, factorisation, each engine */

typedef struct gf2ctx {
    qn_gf2mat a;
    int rank; /* built to have it */
    const qn_gf2_tune *tune;
} gf2ctx;

/* nrows x ncols of rank r: r rows with leading ones at distinct columns,
 * the others sums of two of them. */
static void build_ranked(qn_gf2mat *a, int nrows, int ncols, int r)
{
    T_EQ(qn_gf2mat_init(a, nrows, ncols), QN_OK);
    for (int i = 0; i < r; i++) {
        int lead = i * (ncols / r);
        qn_gf2mat_set(a, i, lead, 1);
        for (int c = lead + 1; c < ncols; c++)
            if (rnd() & 1)
                qn_gf2mat_set(a, i, c, 1);
    }
    for (int i = r; i < nrows; i++) {
        const uint64_t *p = qn_gf2mat_row(a, (int)(rnd() % (uint64_t)r));
        const uint64_t *q = qn_gf2mat_row(a, (int)(rnd() % (uint64_t)r));
        uint64_t *d = qn_gf2mat_row(a, i);
        for (int w = 0; w < a->stride; w++)
            d[w] = p[w] ^ q[w];
    }
}

static void digest_mat(const qn_gf2mat *m, uint64_t *h)
{
    mixu(h, (uint64_t)m->nrows);
    mixu(h, (uint64_t)m->ncols);
    for (int r = 0; r < m->nrows; r++)
        mix(h, m->w + (size_t)r * m->stride,
            (size_t)qn_gf2_words(m->ncols) * 8);
}

static int run_gf2(void *ctx, qn_err *err, uint64_t *h)
{
    gf2ctx *g = ctx;
    qn_gf2mat k, lk, c;
    qn_gf2fact f;
    int rc, *piv;

    rc = g->tune ? qn_gf2__rank(&g->a, g->tune) : qn_gf2mat_rank(&g->a);
    if (rc < 0)
        return said(rc, err);
    T_EQ(rc, g->rank);
    rc = g->tune ? qn_gf2__kernel(&k, &g->a, g->tune)
                 : qn_gf2mat_kernel(&k, &g->a);
    if (rc != QN_OK) {
        T_CHECK(k.w == NULL && k.nrows == 0);
        return said(rc, err);
    }
    T_EQ(k.nrows, g->a.ncols - g->rank);
    digest_mat(&k, h);
    qn_gf2mat_release(&k);
    if ((rc = qn_gf2mat_left_kernel(&lk, &g->a)) != QN_OK)
        return said(rc, err);
    T_EQ(lk.nrows, g->a.nrows - g->rank);
    digest_mat(&lk, h);
    qn_gf2mat_release(&lk);
    rc = g->tune ? qn_gf2__fact_init(&f, &g->a, g->tune)
                 : qn_gf2fact_init(&f, &g->a);
    if (rc != QN_OK)
        return said(rc, err);
    T_EQ(f.rank, g->rank);
    digest_mat(&f.kernel, h);
    digest_mat(&f.lkernel, h);
    qn_gf2fact_release(&f);
    if ((rc = qn_gf2mat_init(&c, g->a.nrows, g->a.ncols)) != QN_OK)
        return said(rc, err);
    qn_gf2mat_copy(&c, &g->a);
    if (!(piv = malloc(sizeof(int) * (size_t)(g->a.nrows + 1)))) {
        qn_gf2mat_release(&c);
        return qn_err_nomem(err);
    }
    rc = qn_gf2mat_rref(&c, piv);
    if (rc >= 0) {
        T_EQ(rc, g->rank);
        digest_mat(&c, h);
        mix(h, piv, sizeof(int) * (size_t)rc);
        rc = QN_OK;
    }
    free(piv);
    qn_gf2mat_release(&c);
    return said(rc, err);
}

static void test_gf2(void)
{
    static const qn_gf2_tune panel = {1, 0, QN_GF2_SIMD_BEST};
    static const qn_gf2_tune plain = {0, 1, QN_GF2_SIMD_PLAIN};
    static const qn_gf2_tune two = {0, 2, QN_GF2_SIMD_AVX2};
    gf2ctx g;

    build_ranked(&g.a, 70, 150, 50);
    g.rank = 50;
    g.tune = NULL;
    T_CHECK(sweep("gf2 70x150 rank 50", run_gf2, &g) > 10);
    g.tune = &panel;
    T_CHECK(sweep("gf2 70x150 rank 50, panel engine", run_gf2, &g) > 10);
    g.tune = &plain;
    T_CHECK(sweep("gf2 70x150 rank 50, 1-bit tables", run_gf2, &g) > 10);
    g.tune = &two;
    T_CHECK(sweep("gf2 70x150 rank 50, 2-bit tables", run_gf2, &g) > 10);
    qn_gf2mat_release(&g.a);
    /* nullity past 64: the kernel goes through the reduced form */
    build_ranked(&g.a, 40, 200, 40);
    g.rank = 40;
    g.tune = NULL;
    T_CHECK(sweep("gf2 40x200 rank 40", run_gf2, &g) > 10);
    qn_gf2mat_release(&g.a);
}

/* ------------------------------------------------------------------ */
/* Z/k: Smith form with one and several prime-power parts */

typedef struct zkctx {
    qn_zmat a;
} zkctx;

static int run_zk(void *ctx, qn_err *err, uint64_t *h)
{
    zkctx *z = ctx;
    qn_zfact *f;
    uint8_t *x, *s;
    int rc = qn_zfact_new(&f, &z->a, err), m = z->a.nrows, n = z->a.ncols;

    if (rc != QN_OK) {
        T_CHECK(f == NULL);
        return rc;
    }
    mixu(h, qn_zfact_ninvariants(f));
    mix(h, qn_zfact_invariants(f), qn_zfact_ninvariants(f) * sizeof(unsigned));
    for (size_t i = 0; i < qn_zfact_kernel_ngens(f); i++) {
        mixu(h, qn_zfact_kernel_order(f, i));
        mix(h, qn_zfact_kernel_gen(f, i), (size_t)n);
    }
    for (size_t j = 0; j < qn_zfact_cokernel_ngens(f); j++) {
        mixu(h, qn_zfact_cokernel_orders(f)[j]);
        mix(h, qn_zfact_condition(f, j), (size_t)m);
    }
    x = calloc((size_t)n + 1, 1);
    s = calloc((size_t)m + 1, 1);
    for (int i = 0; i < n; i++)
        x[i] = (uint8_t)(i % z->a.k);
    qn_zmat_mul_vec(s, &z->a, x); /* A x = s is solvable */
    rc = qn_zfact_solve(f, x, s);
    T_EQ(rc, QN_OK);
    mix(h, x, (size_t)n);
    free(x);
    free(s);
    qn_zfact_free(f);
    return QN_OK;
}

static void sweep_zk(const char *what, int m, int n, unsigned k)
{
    zkctx z;

    T_EQ(qn_zmat_init(&z.a, m, n, k), QN_OK);
    for (int i = 0; i < m; i++)
        for (int j = 0; j < n; j++)
            qn_zmat_set(&z.a, i, j, (unsigned)(rnd() % k));
    /* a repeated row and a doubled one: a cokernel of both parts */
    memcpy(z.a.e + (size_t)(m - 1) * n, z.a.e, (size_t)n);
    for (int j = 0; j < n; j++)
        qn_zmat_set(&z.a, m - 2, j, 2 * qn_zmat_get(&z.a, 1, j));
    T_CHECK(sweep(what, run_zk, &z) > 10);
    qn_zmat_release(&z.a);
}

static void test_zk(void)
{
    sweep_zk("zk 20x30 mod 6", 20, 30, 6);
    sweep_zk("zk 30x12 mod 12", 30, 12, 12);
    sweep_zk("zk 24x24 mod 9", 24, 24, 9);
    sweep_zk("zk 12x40 mod 210", 12, 40, 210);
}

/* ------------------------------------------------------------------ */
/* Minimal presses, every solution, repair */

typedef struct mpctx {
    qn_system *sys;
    sysctx c;
    uint64_t limit;
} mpctx;

static int run_minpress(void *ctx, qn_err *err, uint64_t *h)
{
    mpctx *p = ctx;
    qn_minpress mp;
    int rc = qn_minpress_solve(p->sys, &mp, p->c.x, p->c.s, p->limit, err);

    if (rc == QN_OK || rc == QN_ELIMIT) {
        mixu(h, mp.presses);
        mixu(h, mp.noptimal);
        mixu(h, mp.nsolutions);
        mix(h, p->c.x, (size_t)p->c.n);
    }
    return rc;
}

static int count_solution(void *ctx, const uint8_t *x)
{
    uint64_t *h = ctx;

    mix(h, x, 25);
    return 0;
}

static int run_each(void *ctx, qn_err *err, uint64_t *h)
{
    mpctx *p = ctx;
    int64_t n = qn_minpress_each(p->sys, p->c.s, 1000, count_solution, h);

    if (n < 0)
        return said((int)n, err);
    mixu(h, (uint64_t)n);
    return QN_OK;
}

static void sweep_minpress(const char *what, qn_rules *r, run_fn *fn)
{
    mpctx p;
    int n;

    if (!r)
        return;
    n = qn_rules_ncells(r);
    if (qn_system_new(&p.sys, qn_rules_matrix(r), n, n, qn_rules_colours(r),
                      NULL) != QN_OK) {
        T_FAILF("%s: no system", what);
        qn_rules_free(r);
        return;
    }
    p.c.n = n;
    p.c.x = malloc((size_t)n);
    p.c.s = malloc((size_t)n);
    p.c.y = malloc((size_t)n);
    p.limit = 1 << 20;
    solvable_state(p.sys, &p.c);
    sweep(what, fn, &p);
    free(p.c.x);
    free(p.c.s);
    free(p.c.y);
    qn_system_free(p.sys);
    qn_rules_free(r);
}

typedef struct repctx {
    qn_system *sys;
    uint8_t s[81];
} repctx;

static int run_repair(void *ctx, qn_err *err, uint64_t *h)
{
    repctx *p = ctx;
    qn_repair *rep;
    uint8_t s[81];
    int rc = qn_repair_new(&rep, p->sys, err), n;

    if (rc != QN_OK) {
        T_CHECK(rep == NULL);
        return rc;
    }
    memcpy(s, p->s, sizeof(s));
    n = qn_repair_apply(rep, s);
    if (n >= 0) {
        T_EQ(qn_system_is_solvable(p->sys, s), 1);
        mixu(h, (uint64_t)n);
        mix(h, s, sizeof(s));
    } else {
        T_CHECK(!memcmp(s, p->s, sizeof(s))); /* untouched */
    }
    qn_repair_free(rep);
    return n >= 0 ? QN_OK : said(n, err);
}

static void test_minpress_repair(void)
{
    qn_rules *r;
    repctx p;

    sweep_minpress("minpress classic-5x5", load_file("rules/classic-5x5.yaml"),
                   run_minpress);
    sweep_minpress("minpress mod 3",
                   load_text("quench: 1\nname: three\ncolours: 3\n"
                             "board: {grid: [4, 4], wrap: both}\n"
                             "press: {stencil: plus, self: true}\n"),
                   run_minpress);
    sweep_minpress("minpress four-colour-10x10",
                   load_file("rules/four-colour-10x10.yaml"), run_minpress);
    sweep_minpress("minpress ring6-mod8", load_file("rules/ring6-mod8.yaml"),
                   run_minpress);
    sweep_minpress("each solution classic-5x5",
                   load_file("rules/classic-5x5.yaml"), run_each);

    /* Lights Out 9x9 has nullity 8: 2^8 classes of unsolvable states */
    r = load_file("rules/classic-9x9.yaml");
    if (!r ||
        qn_system_new(&p.sys, qn_rules_matrix(r), 81, 81, 2, NULL) != QN_OK) {
        T_FAILF("classic-9x9: no system");
        qn_rules_free(r);
        return;
    }
    T_EQ(qn_system_cokernel_ngens(p.sys), 8);
    for (int i = 0; i < 81; i++)
        p.s[i] = (uint8_t)(rnd() & 1);
    T_CHECK(sweep("repair classic-9x9", run_repair, &p) > 5);
    qn_system_free(p.sys);
    qn_rules_free(r);
}

/* ------------------------------------------------------------------ */
/* Group sizes into a caller's buffer (sticky) */

static int run_group_size(void *ctx, qn_err *err, uint64_t *h)
{
    qn_system *sys = ctx;
    qn_buf b = QN_BUF_INIT;
    int rc;

    qn_system_group_size(sys, QN_IMAGE, &b);
    qn_system_group_factors(sys, QN_KERNEL, &b);
    rc = qn_buf_check(&b, err);
    if (rc == QN_OK)
        mix(h, b.buf, b.len);
    qn_buf_release(&b);
    return rc;
}

static void test_group_size(void)
{
    qn_system *sys;
    uint8_t *a = plus_matrix(12, 12, 3);

    /* 3^144 solvable states: more than 16 batched factors */
    if (qn_system_new(&sys, a, 144, 144, 3, NULL) == QN_OK) {
        T_CHECK(sweep("group sizes 12x12 mod 3", run_group_size, sys) > 2);
        qn_system_free(sys);
    }
    free(a);
}

/* ------------------------------------------------------------------ */
/* GF(2)[x] */

static int run_gf2x(void *ctx, qn_err *err, uint64_t *h)
{
    const qn_gf2x *in = ctx;
    qn_gf2x g = QN_GF2X_INIT, s = QN_GF2X_INIT, p = QN_GF2X_INIT;
    qn_gf2x q = QN_GF2X_INIT, r = QN_GF2X_INIT;
    int rc = QN_ENOMEM;

    if (qn_gf2x_gcdext(&g, &s, &in[0], &in[1]) != QN_OK ||
        qn_gf2x_mul(&p, &in[0], &in[1]) != QN_OK ||
        qn_gf2x_divmod(&q, &r, &p, &in[2]) != QN_OK ||
        qn_gf2x_copy(&p, &q) != QN_OK ||
        qn_gf2x_add_shifted(&p, &r, 700) != QN_OK)
        goto done;
    for (long i = 0; i <= p.deg; i++)
        mixu(h, (uint64_t)qn_gf2x_coeff(&p, i));
    for (long i = 0; i <= s.deg; i++)
        mixu(h, (uint64_t)qn_gf2x_coeff(&s, i));
    mixu(h, (uint64_t)g.deg);
    rc = QN_OK;
done:
    qn_gf2x_release(&g);
    qn_gf2x_release(&s);
    qn_gf2x_release(&p);
    qn_gf2x_release(&q);
    qn_gf2x_release(&r);
    return said(rc, err);
}

static void test_gf2x(void)
{
    qn_gf2x in[3] = {QN_GF2X_INIT, QN_GF2X_INIT, QN_GF2X_INIT};
    static const long deg[3] = {300, 420, 150};

    for (int i = 0; i < 3; i++) {
        T_EQ(qn_gf2x_monomial(&in[i], deg[i]), QN_OK);
        for (long j = 0; j < deg[i]; j++)
            if (rnd() & 1)
                T_EQ(qn_gf2x_flip(&in[i], j), QN_OK);
    }
    T_CHECK(sweep("gf2x gcdext, mul, divmod", run_gf2x, in) > 5);
    for (int i = 0; i < 3; i++)
        qn_gf2x_release(&in[i]);
}

/* ------------------------------------------------------------------ */
/* Big boards: each method of qn_grid, the chase's greedy descent and its
 * threads, netpbm */

typedef struct gridctx {
    qn_grid_rule r;
    uint8_t *s; /* the state, w * h cells < k: -(A x0) */
} gridctx;

static const int plus_off[5][3] = {
    {0, 0, 1}, {1, 0, 1}, {-1, 0, 1}, {0, 1, 1}, {0, -1, 1}};
static const int moore_off[9][3] = {{-1, -1, 1}, {0, -1, 1}, {1, -1, 1},
                                    {-1, 0, 1},  {0, 0, 1},  {1, 0, 1},
                                    {-1, 1, 1},  {0, 1, 1},  {1, 1, 1}};

/* s = -(A x0) for a pseudo-random x0, straight from the stencil. */
static void grid_ctx(gridctx *g, int w, int h, unsigned k, const int (*off)[3],
                     size_t noff)
{
    uint8_t *x0 = malloc((size_t)w * h);

    g->r.name = NULL;
    g->r.w = w;
    g->r.h = h;
    g->r.k = k;
    g->r.offsets = (int(*)[3])off;
    g->r.noffsets = noff;
    g->s = calloc((size_t)w * h, 1);
    for (size_t i = 0; i < (size_t)w * h; i++)
        x0[i] = (uint8_t)(rnd() % k);
    for (int y = 0; y < h; y++)
        for (int c = 0; c < w; c++) {
            unsigned v = 0;
            for (size_t o = 0; o < noff; o++) {
                int sx = c - off[o][0], sy = y - off[o][1];
                if (sx >= 0 && sx < w && sy >= 0 && sy < h)
                    v += (unsigned)off[o][2] * x0[(size_t)sy * w + sx];
            }
            g->s[(size_t)y * w + c] = (uint8_t)((k - v % k) % k);
        }
    free(x0);
}

static void state_cells(const qn_grid_state *st, uint8_t *cells)
{
    if (st->k == 2)
        qn_bitboard_to_cells(&st->bits, cells);
    else
        memcpy(cells, st->cells, (size_t)st->w * st->h);
}

static int run_grid(void *ctx, qn_err *err, uint64_t *h)
{
    gridctx *g = ctx;
    size_t n = (size_t)g->r.w * g->r.h;
    qn_grid *grid;
    qn_grid_state s, x;
    qn_grid_answer a;
    uint8_t *cells;
    int rc = qn_grid_new(&grid, &g->r, err);

    if (rc != QN_OK) {
        T_CHECK(grid == NULL);
        return rc;
    }
    if (qn_grid_state_init(&s, g->r.w, g->r.h, g->r.k) != QN_OK) {
        qn_grid_free(grid);
        return qn_err_nomem(err);
    }
    if (qn_grid_state_init(&x, g->r.w, g->r.h, g->r.k) != QN_OK) {
        qn_grid_state_release(&s);
        qn_grid_free(grid);
        return qn_err_nomem(err);
    }
    if (g->r.k == 2)
        qn_bitboard_from_cells(&s.bits, g->s);
    else
        memcpy(s.cells, g->s, n);
    rc = qn_grid_min_presses(grid, &x, &a, &s, err);
    if (rc == QN_OK) {
        int ok = qn_grid_replays(&g->r, &x, &s);
        if (ok == QN_ENOMEM) {
            rc = qn_err_nomem(err);
        } else {
            T_EQ(ok, 1);
            mix(h, qn_grid_method(grid), strlen(qn_grid_method(grid)));
            mixu(h, (uint64_t)a.exact);
            mixu(h, a.presses);
            mixu(h, a.lower_bound);
            mixu(h, a.noptimal);
            if ((cells = malloc(n))) {
                state_cells(&x, cells);
                mix(h, cells, n);
                free(cells);
            }
        }
    }
    qn_grid_state_release(&s);
    qn_grid_state_release(&x);
    qn_grid_free(grid);
    return rc;
}

static void sweep_grid(const char *what, int w, int h, unsigned k,
                       const int (*off)[3], size_t noff)
{
    gridctx g;

    grid_ctx(&g, w, h, k, off, noff);
    T_CHECK(sweep(what, run_grid, &g) > 3);
    free(g.s);
}

/* The chase alone: its greedy descent (limit 1) and kernel patterns. */
typedef struct chasectx {
    gridctx g;
    uint64_t limit;
} chasectx;

static int run_chase(void *ctx, qn_err *err, uint64_t *h)
{
    chasectx *cc = ctx;
    const qn_grid_rule *r = &cc->g.r;
    size_t n = (size_t)r->w * r->h;
    qn_chase *c;
    qn_chase_min m;
    uint8_t *x = malloc(n);
    int rc = qn_chase_new(&c, r->w, r->h, r->k, (const int(*)[3])r->offsets,
                          r->noffsets, err);

    if (rc != QN_OK) {
        T_CHECK(c == NULL);
        free(x);
        return rc;
    }
    rc = qn_chase_min_presses_limit(c, &m, x, cc->g.s, cc->limit, err);
    if (rc == QN_OK || rc == QN_ELIMIT) {
        mixu(h, m.presses);
        mixu(h, m.lower);
        mixu(h, (uint64_t)m.exact);
        mix(h, x, n);
        if (qn_chase_kernel_ngens(c) > 0) {
            int r2 = qn_chase_kernel_gen(c, 0, x);
            if (r2 != QN_OK) {
                qn_chase_free(c);
                free(x);
                return qn_err_nomem(err);
            }
            mix(h, x, n);
        }
    }
    qn_chase_free(c);
    free(x);
    return rc;
}

static void sweep_chase(const char *what, int w, int h, unsigned k,
                        const int (*off)[3], size_t noff, uint64_t limit)
{
    chasectx cc;

    grid_ctx(&cc.g, w, h, k, off, noff);
    cc.limit = limit;
    T_CHECK(sweep(what, run_chase, &cc) > 3);
    free(cc.g.s);
}

/* Kernel generators of the polynomial methods. */
static int run_plus_kernels(void *ctx, qn_err *err, uint64_t *h)
{
    const gridctx *g = ctx;
    qn_plus_gf2 *p2;
    qn_plus_gfp *pp;
    qn_bitboard b;
    uint8_t *cells = malloc((size_t)g->r.w * g->r.h);
    int rc;

    rc = qn_plus_gf2_new(&p2, g->r.w, g->r.h, plus_off, 5, err);
    if (rc != QN_OK) {
        free(cells);
        return rc;
    }
    T_CHECK(qn_plus_gf2_kernel_dim(p2) > 0);
    if ((rc = qn_bitboard_init(&b, g->r.w, g->r.h)) == QN_OK) {
        if ((rc = qn_plus_gf2_kernel_gen(p2, 0, &b)) == QN_OK) {
            qn_bitboard_to_cells(&b, cells);
            mix(h, cells, (size_t)g->r.w * g->r.h);
        }
        qn_bitboard_release(&b);
    }
    qn_plus_gf2_free(p2);
    if (rc != QN_OK) {
        free(cells);
        return qn_err_nomem(err);
    }
    rc = qn_plus_gfp_new(&pp, g->r.w, g->r.h, 3, plus_off, 5, err);
    if (rc == QN_OK) {
        mixu(h, qn_plus_gfp_kernel_dim(pp));
        if (qn_plus_gfp_kernel_dim(pp) > 0) {
            rc = qn_plus_gfp_kernel_gen(pp, 0, cells);
            if (rc == QN_OK)
                mix(h, cells, (size_t)g->r.w * g->r.h);
            else
                rc = qn_err_nomem(err);
        }
        qn_plus_gfp_free(pp);
    }
    free(cells);
    return rc;
}

static int run_pnm(void *ctx, qn_err *err, uint64_t *h)
{
    const gridctx *g = ctx;
    qn_buf b = QN_BUF_INIT;
    qn_grid_state st;
    qn_pnm_info info;
    FILE *f;
    uint8_t *cells;
    int rc;

    rc = qn_pnm_write_buf(&b, g->r.w, g->r.h, 2, g->s, QN_PNM_RAW, err);
    if (rc == QN_OK)
        rc = qn_buf_check(&b, err);
    if (rc != QN_OK) {
        qn_buf_release(&b);
        return rc;
    }
    if (qn_grid_state_init(&st, g->r.w, g->r.h, 2) != QN_OK) {
        qn_buf_release(&b);
        return qn_err_nomem(err);
    }
    f = fmemopen(b.buf, b.len, "rb");
    rc = qn_pnm_read_header(f, &info, err);
    if (rc == QN_OK)
        rc = qn_pnm_read_bits(f, &info, &st.bits, err);
    fclose(f);
    if (rc == QN_OK && (cells = malloc((size_t)g->r.w * g->r.h))) {
        qn_bitboard_to_cells(&st.bits, cells);
        T_CHECK(!memcmp(cells, g->s, (size_t)g->r.w * g->r.h));
        free(cells);
        qn_buf_reset(&b);
        qn_grid_state_write_pnm(&b, &st, 0); /* plain P1 */
        rc = qn_buf_check(&b, err);
        if (rc == QN_OK)
            mix(h, b.buf, b.len);
    }
    qn_grid_state_release(&st);
    qn_buf_release(&b);
    return rc;
}

static void test_bigboard(void)
{
    qn_grid_rule r4 = {NULL, 4, 4, 2, (int(*)[3])plus_off, 5};
    qn_grid *grid;
    gridctx g;

    /* Lights Out 4x4 has nullity 4 (Anderson and Feil, 1998) */
    if (qn_grid_new(&grid, &r4, NULL) == QN_OK) {
        T_CHECK(qn_grid_kernel_log2(grid) == 4.0);
        qn_grid_free(grid);
    } else {
        T_FAILF("no 4x4 grid solver");
    }

    sweep_grid("grid plus 20x20 over GF(2)", 20, 20, 2, plus_off, 5);
    /* 4 x n boards: nullity 4 for n = 4 (Anderson and Feil) */
    sweep_grid("grid plus 16x4 over GF(2), transposed", 16, 4, 2, plus_off, 5);
    sweep_grid("grid plus 4x4 over GF(2)", 4, 4, 2, plus_off, 5);
    sweep_grid("grid Moore 12x12 over GF(2) (chase)", 12, 12, 2, moore_off, 9);
    /* kernels of 3 and 25 solutions: the coset walk */
    sweep_grid("grid plus 20x15 mod 3", 20, 15, 3, plus_off, 5);
    sweep_grid("grid plus 4x4 mod 5", 4, 4, 5, plus_off, 5);
    sweep_grid("grid plus 12x12 mod 4 (chase)", 12, 12, 4, plus_off, 5);
    sweep_grid("grid plus 10x9 mod 6 (chase)", 10, 9, 6, plus_off, 5);
    /* the 16 solutions of 4x4 past a walk limit of 1: greedy descent */
    sweep_chase("chase plus 4x4 over GF(2), greedy", 4, 4, 2, plus_off, 5, 1);
    sweep_chase("chase plus 5x5 mod 3, kernel walk", 5, 5, 3, plus_off, 5,
                QN_CHASE_MAX_KERNEL);
    sweep_chase("chase Moore 10x7 mod 6", 10, 7, 6, moore_off, 9,
                QN_CHASE_MAX_KERNEL);
    /* 520 unknowns: two blocks of lanes, chased on two threads */
    sweep_chase("chase plus 520x520 mod 4, threads", 520, 520, 4, plus_off, 5,
                QN_CHASE_MAX_KERNEL);
    grid_ctx(&g, 4, 4, 2, plus_off, 5);
    T_CHECK(sweep("plus kernels 4x4", run_plus_kernels, &g) > 3);
    free(g.s);
    grid_ctx(&g, 70, 33, 2, plus_off, 5);
    T_CHECK(sweep("netpbm 70x33", run_pnm, &g) > 3);
    free(g.s);
}

/* ------------------------------------------------------------------ */
/* Canonical forms and the seen-set */

static int run_canon_table(void *ctx, qn_err *err, uint64_t *h)
{
    const qn_rules *r = ctx;
    qn_canon_table *t;
    uint8_t s[25], out[25];
    int rc = qn_canon_table_new(&t, r, err);

    if (rc != QN_OK) {
        T_CHECK(t == NULL);
        return rc;
    }
    T_CHECK(t != NULL);
    for (int i = 0; i < 25; i++)
        s[i] = (uint8_t)(i % 3 == 0);
    mixu(h, qn_canon_form_table(t, r, out, s));
    mix(h, out, sizeof(out));
    qn_canon_table_free(t);
    return QN_OK;
}

/* 5000 distinct 16-cell states mod 3 and each again: the arena and the
 * slot table grow several times, and once by a reserve (only a hint: a
 * failed one leaves the set as it was). */
static int run_seen(void *ctx, qn_err *err, uint64_t *h)
{
    qn_seen *set = qn_seen_new(16, 3, err);
    uint8_t s[16];
    uint64_t first;
    int rc = QN_OK;

    (void)ctx;
    if (!set)
        return QN_ENOMEM;
    for (int pass = 0; pass < 2 && rc == QN_OK; pass++)
        for (int i = 0; i < 5000; i++) {
            int v = i, added;
            if (pass == 0 && i == 1500) {
                int rr = qn_seen_reserve(set, 4000);
                T_CHECK(rr == QN_OK || rr == QN_ENOMEM);
                T_EQ(qn_seen_count(set), (uint64_t)i);
            }
            for (int c = 0; c < 16; c++, v /= 3)
                s[c] = (uint8_t)(v % 3);
            added = qn_seen_add(set, s, (uint64_t)i, &first);
            if (added == QN_ENOMEM) {
                /* the set is as it was: the state is not in it */
                T_EQ(qn_seen_find(set, s, NULL), 0);
                T_EQ(qn_seen_count(set), (uint64_t)i);
                rc = qn_err_nomem(err);
                break;
            }
            T_EQ(added, pass == 0);
            if (pass)
                T_EQ(first, (uint64_t)i);
        }
    if (rc == QN_OK)
        mixu(h, qn_seen_count(set));
    qn_seen_free(set);
    return rc;
}

static void test_canon(void)
{
    qn_rules *r = load_file("rules/classic-5x5.yaml");

    if (r) {
        T_CHECK(sweep("canon table classic-5x5", run_canon_table, r) >= 2);
        qn_rules_free(r);
    }
    T_CHECK(sweep("seen-set of 5000 states", run_seen, NULL) > 8);
}

int main(void)
{
    t_alloc_hook();
    test_system_rules();
    test_big_solve();
    test_gf2();
    test_zk();
    test_minpress_repair();
    test_group_size();
    test_gf2x();
    test_bigboard();
    test_canon();
    return t_done();
}
