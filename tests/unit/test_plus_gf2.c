/*
 * test_plus_gf2.c: the GF(2) polynomial method on bit boards. GF(2)[x]
 * arithmetic against a naive carry-less product; bit boards against byte
 * boards; plus2 against dense elimination (qn_system + qn_minpress) on
 * every board up to 8 x 8 of every stencil of the plus family; the
 * published nullities (A159257) and all-on minima (A075464); and unique
 * solutions on 998 x 998 and 1000 x 1000, whose nullity is 0.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "bigboard/bitboard.h"
#include "bigboard/plus_gf2.h"
#include "engine/gf2x.h"
#include "engine/minpress.h"
#include "engine/system.h"
#include "t.h"
#include "tstencil.h"

static uint64_t seed = 2;

/* ---- GF(2)[x] ------------------------------------------------------- */

static void set_u64(qn_gf2x *p, uint64_t v)
{
    qn_gf2x_zero(p);
    for (int i = 0; i < 64; i++)
        if ((v >> i) & 1)
            qn_gf2x_flip(p, i);
}

static uint64_t get_u64(const qn_gf2x *p)
{
    uint64_t v = 0;

    for (int i = 0; i < 64; i++)
        v |= (uint64_t)qn_gf2x_coeff(p, i) << i;
    return v;
}

static uint64_t clmul(uint64_t a, uint64_t b) /* deg a + deg b < 64 */
{
    uint64_t r = 0;

    for (int i = 0; i < 64; i++)
        if ((a >> i) & 1)
            r ^= b << i;
    return r;
}

static void random_poly(qn_gf2x *p, long deg)
{
    qn_gf2x_zero(p);
    for (long i = 0; i < deg; i++)
        if (t_rand(&seed) & 1)
            qn_gf2x_flip(p, i);
    qn_gf2x_flip(p, deg);
}

static void test_gf2x(void)
{
    qn_gf2x a = QN_GF2X_INIT, b = QN_GF2X_INIT, q = QN_GF2X_INIT;
    qn_gf2x r = QN_GF2X_INIT, t = QN_GF2X_INIT, g = QN_GF2X_INIT;
    qn_gf2x s = QN_GF2X_INIT;
    long bad = 0;

    for (int it = 0; it < 2000; it++) {
        uint64_t x = t_rand(&seed) >> 33, y = t_rand(&seed) >> 34;
        set_u64(&a, x);
        set_u64(&b, y);
        qn_gf2x_mul(&t, &a, &b);
        bad += get_u64(&t) != clmul(x, y);
        if (y) {
            qn_gf2x_divmod(&q, &r, &a, &b);
            bad += r.deg >= b.deg;
            bad += (clmul(get_u64(&q), y) ^ get_u64(&r)) != x;
        }
    }
    T_EQ(bad, 0);
    /* Large degrees: a = q b + r, and s a = g (mod m) with g | a, g | m. */
    for (int it = 0; it < 6; it++) {
        qn_gf2x m = QN_GF2X_INIT, f = QN_GF2X_INIT;
        random_poly(&a, 2000 + it * 777);
        random_poly(&b, 900 + it * 301);
        qn_gf2x_divmod(&q, &r, &a, &b);
        qn_gf2x_mul(&t, &q, &b);
        qn_gf2x_add_shifted(&t, &r, 0);
        T_CHECK(t.deg == a.deg && memcmp(t.c, a.c, (a.deg / 64 + 1) * 8) == 0);
        /* a common factor f makes the gcd non-trivial */
        random_poly(&f, 40 + it);
        qn_gf2x_mul(&m, &b, &f);
        qn_gf2x_mul(&t, &a, &f);
        qn_gf2x_gcdext(&g, &s, &t, &m);
        qn_gf2x_divmod(NULL, &r, &t, &g);
        T_CHECK(r.deg < 0);
        qn_gf2x_divmod(NULL, &r, &m, &g);
        T_CHECK(r.deg < 0);
        qn_gf2x_divmod(NULL, &r, &g, &f); /* f divides the gcd */
        T_CHECK(r.deg < 0);
        qn_gf2x_mul(&q, &s, &t);
        qn_gf2x_divmod(NULL, &q, &q, &m);
        T_CHECK(q.deg == g.deg && memcmp(q.c, g.c, (g.deg / 64 + 1) * 8) == 0);
        qn_gf2x_release(&m);
        qn_gf2x_release(&f);
    }
    qn_gf2x_release(&a);
    qn_gf2x_release(&b);
    qn_gf2x_release(&q);
    qn_gf2x_release(&r);
    qn_gf2x_release(&t);
    qn_gf2x_release(&g);
    qn_gf2x_release(&s);
}

/* ---- bit boards ----------------------------------------------------- */

static void random_cells(uint8_t *c, size_t n, unsigned k)
{
    for (size_t i = 0; i < n; i++)
        c[i] = (uint8_t)(t_rand(&seed) % k);
}

static void test_bitboard(void)
{
    long bad = 0;

    for (int it = 0; it < 60; it++) {
        int w = 1 + (int)(t_rand(&seed) % 150),
            h = 1 + (int)(t_rand(&seed) % 150);
        size_t n = (size_t)w * h;
        uint8_t *c = malloc(n), *d = malloc(n), *e = malloc(n);
        qn_bitboard b, t, x, r;
        int off[6][3];

        random_cells(c, n, 2);
        qn_bitboard_init(&b, w, h);
        qn_bitboard_init(&t, h, w);
        qn_bitboard_from_cells(&b, c);
        qn_bitboard_to_cells(&b, d);
        bad += memcmp(c, d, n) != 0;
        {
            uint64_t ones = 0;
            for (size_t i = 0; i < n; i++)
                ones += c[i];
            bad += qn_bitboard_count(&b) != ones;
        }
        qn_bitboard_transpose(&t, &b);
        for (int y = 0; y < h; y++)
            for (int xx = 0; xx < w; xx++)
                bad += qn_bitboard_get(&t, y, xx) != c[y * w + xx];
        /* the replay against bytes, offsets up to 70 cells away */
        for (int o = 0; o < 6; o++) {
            off[o][0] = (int)(t_rand(&seed) % 141) - 70;
            off[o][1] = (int)(t_rand(&seed) % 7) - 3;
            off[o][2] = (int)(t_rand(&seed) % 3) - 1;
        }
        random_cells(d, n, 2);
        qn_bitboard_init(&x, w, h);
        qn_bitboard_init(&r, w, h);
        qn_bitboard_from_cells(&x, d);
        qn_bitboard_apply(&r, &x, &b, (const int(*)[3])off, 6);
        t_stencil_apply(e, d, c, w, h, 2, (const int(*)[3])off, 6);
        qn_bitboard_to_cells(&r, d);
        bad += memcmp(d, e, n) != 0;
        bad += (r.bits[r.stride - 1] & ~qn_bitboard_tail_mask(&r)) != 0;
        qn_bitboard_release(&b);
        qn_bitboard_release(&t);
        qn_bitboard_release(&x);
        qn_bitboard_release(&r);
        free(c);
        free(d);
        free(e);
    }
    T_EQ(bad, 0);
}

/* ---- plus2 against dense elimination --------------------------------- */

/* The family: self and below optional, in either orientation. */
static int family(int (*off)[3], int alpha, int c, int tr)
{
    int n = 0;
    const int base[3][2] = {{1, 0}, {-1, 0}, {0, -1}};

    for (int i = 0; i < 3; i++) {
        off[n][0] = tr ? base[i][1] : base[i][0];
        off[n][1] = tr ? base[i][0] : base[i][1];
        off[n++][2] = 1;
    }
    if (alpha)
        off[n][0] = 0, off[n][1] = 0, off[n++][2] = 1;
    if (c)
        off[n][0] = tr ? 1 : 0, off[n][1] = tr ? 0 : 1, off[n++][2] = 1;
    return n;
}

typedef struct dense_case {
    qn_system *sys;
    int w, h, n;
    const int (*off)[3];
} dense_case;

/* One state: the same verdict, minimum and optimal count as dense. */
static void compare_state(dense_case *dc, const qn_plus_gf2 *p,
                          const uint8_t *s, long *bad)
{
    int w = dc->w, h = dc->h, cells = w * h;
    uint8_t *x = malloc((size_t)cells);
    qn_bitboard bs, bx, br;
    qn_minpress mp;
    qn_plus_gf2_min pm;
    int rd, rp;

    qn_bitboard_init(&bs, w, h);
    qn_bitboard_init(&bx, w, h);
    qn_bitboard_init(&br, w, h);
    qn_bitboard_from_cells(&bs, s);
    rd = qn_minpress_solve(dc->sys, &mp, x, s, 1 << 20, NULL);
    rp = qn_plus_gf2_min_presses(p, &bx, &pm, &bs, 0, NULL);
    if (rd != rp) {
        T_FAILF("%dx%d: dense says %d, plus2 %d", w, h, rd, rp);
        (*bad)++;
    } else if (rd == QN_OK) {
        qn_bitboard_apply(&br, &bx, &bs, dc->off, (size_t)dc->n);
        if (!qn_bitboard_is_zero(&br) || !pm.exact ||
            pm.presses != mp.presses || pm.noptimal != mp.noptimal ||
            pm.presses != qn_bitboard_count(&bx) ||
            (uint64_t)1 << pm.kernel_dim != mp.nsolutions) {
            T_FAILF("%dx%d: plus2 %llu presses (%llu optimal, 2^%u), dense "
                    "%llu (%llu of %llu)",
                    w, h, (unsigned long long)pm.presses,
                    (unsigned long long)pm.noptimal, pm.kernel_dim,
                    (unsigned long long)mp.presses,
                    (unsigned long long)mp.noptimal,
                    (unsigned long long)mp.nsolutions);
            (*bad)++;
        }
        /* and the plain solve replays too */
        if (qn_plus_gf2_solve(p, &bx, &bs, NULL) != QN_OK) {
            (*bad)++;
        } else {
            qn_bitboard_apply(&br, &bx, &bs, dc->off, (size_t)dc->n);
            *bad += !qn_bitboard_is_zero(&br);
        }
    }
    qn_bitboard_release(&bs);
    qn_bitboard_release(&bx);
    qn_bitboard_release(&br);
    free(x);
}

/* The generators are quiet and span 2^d distinct patterns. */
static void check_kernel(const qn_plus_gf2 *p, dense_case *dc, long *bad)
{
    unsigned d = qn_plus_gf2_kernel_dim(p);
    int cells = dc->w * dc->h;
    uint8_t *m = calloc((size_t)d * cells + 1, 1);
    qn_bitboard g, z, r;
    unsigned rank = 0;

    qn_bitboard_init(&g, dc->w, dc->h);
    qn_bitboard_init(&z, dc->w, dc->h);
    qn_bitboard_init(&r, dc->w, dc->h);
    for (unsigned i = 0; i < d; i++) {
        qn_plus_gf2_kernel_gen(p, i, &g);
        qn_bitboard_apply(&r, &g, &z, dc->off, (size_t)dc->n);
        *bad += !qn_bitboard_is_zero(&r);
        qn_bitboard_to_cells(&g, m + (size_t)i * cells);
    }
    /* rank by elimination over GF(2) */
    for (int col = 0; col < cells && rank < d; col++) {
        unsigned piv = rank;
        while (piv < d && !m[(size_t)piv * cells + col])
            piv++;
        if (piv == d)
            continue;
        for (int j = 0; j < cells; j++) {
            uint8_t t = m[(size_t)piv * cells + j];
            m[(size_t)piv * cells + j] = m[(size_t)rank * cells + j];
            m[(size_t)rank * cells + j] = t;
        }
        for (unsigned i = 0; i < d; i++)
            if (i != rank && m[(size_t)i * cells + col])
                for (int j = 0; j < cells; j++)
                    m[(size_t)i * cells + j] ^= m[(size_t)rank * cells + j];
        rank++;
    }
    *bad += rank != d;
    qn_bitboard_release(&g);
    qn_bitboard_release(&z);
    qn_bitboard_release(&r);
    free(m);
}

static void test_against_dense(void)
{
    long bad = 0;

    for (int v = 0; v < 8; v++)
        for (int w = 1; w <= 8; w++)
            for (int h = 1; h <= 8; h++) {
                int off[5][3], n = family(off, v & 1, (v >> 1) & 1, v >> 2);
                int cells = w * h;
                uint8_t *a = t_stencil_dense(w, h, 2, (const int(*)[3])off, n);
                uint8_t *s = malloc((size_t)cells), *x = malloc((size_t)cells);
                dense_case dc = {NULL, w, h, n, (const int(*)[3])off};
                qn_plus_gf2 *p = NULL;
                if (qn_system_new(&dc.sys, a, cells, cells, 2, NULL) ||
                    qn_plus_gf2_new(&p, w, h, (const int(*)[3])off, (size_t)n,
                                    NULL)) {
                    T_FAILF("%dx%d variant %d refused", w, h, v);
                    bad++;
                } else {
                    check_kernel(p, &dc, &bad);
                    for (int it = 0; it < 6; it++) {
                        random_cells(s, (size_t)cells, 2);
                        if (it & 1) { /* solvable: s = A x */
                            random_cells(x, (size_t)cells, 2);
                            t_stencil_apply(s, x, NULL, w, h, 2,
                                            (const int(*)[3])off, n);
                        }
                        compare_state(&dc, p, s, &bad);
                    }
                }
                qn_plus_gf2_free(p);
                qn_system_free(dc.sys);
                free(a);
                free(s);
                free(x);
            }
    T_EQ(bad, 0);
}

static const int classic[5][3] = {
    {0, 0, 1}, {1, 0, 1}, {-1, 0, 1}, {0, 1, 1}, {0, -1, 1}};

/* OEIS A159257 (tests/golden) for n = 1..130. */
static void test_nullity(void)
{
    int n[131], nul[131], rows = t_golden_nullity(n, nul, 131);

    T_EQ(rows, 130);
    for (int i = 0; i < rows; i++) {
        qn_plus_gf2 *p = NULL;
        T_EQ(qn_plus_gf2_new(&p, n[i], n[i], classic, 5, NULL), QN_OK);
        if (p && (int)qn_plus_gf2_kernel_dim(p) != nul[i])
            T_FAILF("%dx%d: nullity %u, A159257 says %d", n[i], n[i],
                    qn_plus_gf2_kernel_dim(p), nul[i]);
        qn_plus_gf2_free(p);
    }
}

/* OEIS A075464: fewest presses for the all-on n x n board, n = 1..20
 * (n = 19 has a kernel of 2^16: the exact transform path). */
static void test_all_on(void)
{
    static const long want[21] = {0,  1,   4,   5,   4,   15,  28,
                                  33, 40,  25,  44,  55,  72,  105,
                                  56, 117, 104, 147, 188, 141, 224};

    for (int n = 1; n <= 20; n++) {
        qn_plus_gf2 *p = NULL;
        qn_bitboard s, x, r;
        qn_plus_gf2_min m;
        qn_plus_gf2_new(&p, n, n, classic, 5, NULL);
        qn_bitboard_init(&s, n, n);
        qn_bitboard_init(&x, n, n);
        qn_bitboard_init(&r, n, n);
        qn_bitboard_fill(&s, 1);
        T_EQ(qn_plus_gf2_min_presses(p, &x, &m, &s, 0, NULL), QN_OK);
        qn_bitboard_apply(&r, &x, &s, classic, 5);
        if ((long)m.presses != want[n] || !m.exact || !qn_bitboard_is_zero(&r))
            T_FAILF("all-on %dx%d: %llu presses, A075464 says %ld", n, n,
                    (unsigned long long)m.presses, want[n]);
        else
            t_pass++;
        qn_bitboard_release(&s);
        qn_bitboard_release(&x);
        qn_bitboard_release(&r);
        qn_plus_gf2_free(p);
    }
}

/*
 * Nullity 0 at scale: s = A x* for a random x*, and the solution must be
 * x* itself; rectangles both ways replay.
 */
static void test_big(void)
{
    static const int sizes[][2] = {
        {998, 998}, {1000, 1000}, {333, 1201}, {1201, 333}};

    for (size_t i = 0; i < sizeof sizes / sizeof sizes[0]; i++) {
        int w = sizes[i][0], h = sizes[i][1];
        qn_plus_gf2 *p = NULL;
        qn_bitboard want, s, x, r;
        T_EQ(qn_plus_gf2_new(&p, w, h, classic, 5, NULL), QN_OK);
        if (!p)
            continue;
        qn_bitboard_init(&want, w, h);
        qn_bitboard_init(&s, w, h);
        qn_bitboard_init(&x, w, h);
        qn_bitboard_init(&r, w, h);
        for (size_t j = 0; j < want.stride * (size_t)h; j++)
            want.bits[j] = t_rand(&seed);
        for (int y = 0; y < h; y++)
            qn_bitboard_row(&want, y)[want.stride - 1] &=
                qn_bitboard_tail_mask(&want);
        qn_bitboard_apply(&s, &want, &s, classic, 5);
        T_EQ(qn_plus_gf2_solve(p, &x, &s, NULL), QN_OK);
        qn_bitboard_apply(&r, &x, &s, classic, 5);
        T_CHECK(qn_bitboard_is_zero(&r));
        if (qn_plus_gf2_kernel_dim(p) == 0)
            T_CHECK(qn_bitboard_equal(&x, &want));
        else
            T_CHECK(w != h); /* 998 and 1000 have nullity 0 */
        qn_bitboard_release(&want);
        qn_bitboard_release(&s);
        qn_bitboard_release(&x);
        qn_bitboard_release(&r);
        qn_plus_gf2_free(p);
    }
}

/* Past the exact limit (39 x 39 has nullity 32): a replaying plan, not
 * exact, a lower bound below it; refusals say why. */
static void test_limits(void)
{
    qn_plus_gf2 *p = NULL;
    qn_bitboard s, x, r;
    qn_plus_gf2_min m;
    qn_err err = QN_ERR_INIT;
    static const int moore[3][3] = {{1, 1, 1}, {-1, 0, 1}, {1, 0, 1}};

    T_EQ(qn_plus_gf2_new(&p, 39, 39, classic, 5, NULL), QN_OK);
    qn_bitboard_init(&s, 39, 39);
    qn_bitboard_init(&x, 39, 39);
    qn_bitboard_init(&r, 39, 39);
    qn_bitboard_fill(&s, 1);
    T_EQ(qn_plus_gf2_min_presses(p, &x, &m, &s, 0, NULL), QN_OK);
    qn_bitboard_apply(&r, &x, &s, classic, 5);
    T_CHECK(qn_bitboard_is_zero(&r));
    T_EQ(m.exact, 0);
    T_EQ(m.kernel_dim, 32);
    T_EQ(m.presses, qn_bitboard_count(&x));
    T_CHECK(m.lower_bound <= m.presses);
    qn_bitboard_release(&s);
    qn_bitboard_release(&x);
    qn_bitboard_release(&r);
    qn_plus_gf2_free(p);

    T_EQ(qn_plus_gf2_new(&p, 5, 5, moore, 3, &err), QN_EINVAL);
    T_CHECK(strstr(err.msg, "outside the plus") != NULL);
    T_EQ(qn_plus_gf2_new(&p, 70000, 2, classic, 5, &err), QN_ELIMIT);
}

int main(void)
{
    test_gf2x();
    test_bitboard();
    test_against_dense();
    test_nullity();
    test_all_on();
    test_big();
    test_limits();
    return t_done();
}
