/* tier: full (random matrices checked against a naive Gauss-Jordan: 6 s of CPU)
 */
/*
 * test_gf2.c: the bit-packed GF(2) module against an independent naive
 * implementation (one byte per entry, textbook Gauss-Jordan), on random
 * matrices of many shapes and ranks, plus the Lights Out nullity table.
 */
#include "engine/gf2.h"

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../../src/engine/gf2_internal.h" /* the panel engine directly */
#include "base/err.h"
#include "t.h"

/*
 * How the checks below eliminate: NULL is the library's own choice (the
 * public functions); a setting reaches each engine, instruction set and
 * table width through the tuned internal entry points.
 */
static const qn_gf2_tune *tune;

static int tuned_rank(const qn_gf2mat *a)
{
    return tune ? qn_gf2__rank(a, tune) : qn_gf2mat_rank(a);
}

static int tuned_rref(qn_gf2mat *m, int *pivots)
{
    if (!tune)
        return qn_gf2mat_rref(m, pivots);
    return qn_gf2__echelon(m, pivots, qn_gf2_words(m->ncols), 1, tune->simd);
}

static void tuned_kernel(qn_gf2mat *out, const qn_gf2mat *a)
{
    if (tune)
        qn_gf2__kernel(out, a, tune);
    else
        qn_gf2mat_kernel(out, a);
}

static void tuned_left_kernel(qn_gf2mat *out, const qn_gf2mat *a)
{
    qn_gf2mat t;

    if (!tune) {
        qn_gf2mat_left_kernel(out, a);
        return;
    }
    qn_gf2mat_init(&t, a->ncols, a->nrows);
    qn_gf2mat_transpose(&t, a);
    qn_gf2__kernel(out, &t, tune);
    qn_gf2mat_release(&t);
}

static void tuned_fact_init(qn_gf2fact *f, const qn_gf2mat *a)
{
    if (tune)
        qn_gf2__fact_init(f, a, tune);
    else
        qn_gf2fact_init(f, a);
}

/* ---- naive reference ------------------------------------------------- */

typedef struct nmat {
    int nr, nc;
    unsigned char *a; /* nr * nc entries, 0 or 1 */
} nmat;

static void nm_init(nmat *m, int nr, int nc)
{
    m->nr = nr;
    m->nc = nc;
    m->a = calloc((size_t)nr * (size_t)nc + 1, 1);
    if (!m->a)
        abort();
}

static void nm_free(nmat *m)
{
    free(m->a);
    m->a = NULL;
}

static unsigned char *nat(const nmat *m, int r, int c)
{
    return &m->a[(size_t)r * (size_t)m->nc + (size_t)c];
}

static void to_naive(nmat *out, const qn_gf2mat *m)
{
    int r, c;

    nm_init(out, m->nrows, m->ncols);
    for (r = 0; r < m->nrows; r++)
        for (c = 0; c < m->ncols; c++)
            *nat(out, r, c) = (unsigned char)qn_gf2mat_get(m, r, c);
}

/* d ^= s over n byte entries, 8 at a time (still one byte per entry). */
static void xor_bytes(unsigned char *d, const unsigned char *s, int n)
{
    int j = 0;

    for (; j + 8 <= n; j += 8) {
        uint64_t a, b;

        memcpy(&a, d + j, 8);
        memcpy(&b, s + j, 8);
        a ^= b;
        memcpy(d + j, &a, 8);
    }
    for (; j < n; j++)
        d[j] ^= s[j];
}

/* Gauss-Jordan, first nonzero row as pivot, pivots searched in columns
 * < pivlim only; returns the rank. */
static int naive_rref_lim(nmat *m, int *piv, int pivlim)
{
    int r = 0, c, i, j;

    for (c = 0; c < pivlim && r < m->nr; c++) {
        for (i = r; i < m->nr && !*nat(m, i, c); i++)
            ;
        if (i == m->nr)
            continue;
        if (i != r) {
            for (j = c; j < m->nc; j++) {
                unsigned char t = *nat(m, i, j);

                *nat(m, i, j) = *nat(m, r, j);
                *nat(m, r, j) = t;
            }
        }
        for (i = 0; i < m->nr; i++)
            if (i != r && *nat(m, i, c))
                xor_bytes(nat(m, i, c), nat(m, r, c), m->nc - c);
        if (piv)
            piv[r] = c;
        r++;
    }
    return r;
}

static int naive_rref(nmat *m, int *piv)
{
    return naive_rref_lim(m, piv, m->nc);
}

static int naive_rank(const nmat *m)
{
    nmat c;
    int r;

    nm_init(&c, m->nr, m->nc);
    memcpy(c.a, m->a, (size_t)m->nr * (size_t)m->nc);
    r = naive_rref(&c, NULL);
    nm_free(&c);
    return r;
}

/* Bit i of a packed vector. */
static int vbit(const uint64_t *v, int i)
{
    return (int)(v[i / 64] >> (i % 64) & 1);
}

/*
 * y = A x for the naive matrix, through a plain packed copy of its rows
 * (parity of popcount of AND): kernel and solution checks need millions of
 * products, too many for one bit at a time.
 */
typedef struct pmat {
    int nr, nc, nw;
    uint64_t *w;
} pmat;

static void pm_from_naive(pmat *p, const nmat *a)
{
    int r, c;

    p->nr = a->nr;
    p->nc = a->nc;
    p->nw = qn_gf2_words(a->nc);
    p->w = calloc((size_t)p->nr * (size_t)p->nw + 1, sizeof(uint64_t));
    if (!p->w)
        abort();
    for (r = 0; r < a->nr; r++)
        for (c = 0; c < a->nc; c++)
            if (*nat(a, r, c))
                p->w[(size_t)r * p->nw + c / 64] |= (uint64_t)1 << (c % 64);
}

static void pm_mul(uint64_t *y, const pmat *a, const uint64_t *x)
{
    int r, i;

    memset(y, 0, (size_t)qn_gf2_words(a->nr) * sizeof(uint64_t));
    for (r = 0; r < a->nr; r++) {
        const uint64_t *row = a->w + (size_t)r * a->nw;
        int s = 0;

        for (i = 0; i < a->nw; i++)
            s ^= __builtin_popcountll(row[i] & x[i]) & 1;
        if (s)
            y[r / 64] |= (uint64_t)1 << (r % 64);
    }
}

/* ---- generators ------------------------------------------------------ */

/*
 * Random words: t_rand's output is put through the splitmix64 finaliser,
 * because the low bits of xorshift* are GF(2)-linear in its state and
 * would make "dense random" matrices secretly rank-deficient.
 */
static uint64_t rand_word(uint64_t *seed)
{
    uint64_t z = t_rand(seed);

    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
    return z ^ (z >> 31);
}

static void rand_vec(uint64_t *v, int n, uint64_t *seed)
{
    int i, nw = qn_gf2_words(n);

    for (i = 0; i < nw; i++)
        v[i] = rand_word(seed);
    if (n % 64)
        v[nw - 1] &= ((uint64_t)1 << (n % 64)) - 1;
}

static void gen_dense(qn_gf2mat *m, uint64_t *seed)
{
    int r;

    for (r = 0; r < m->nrows; r++)
        rand_vec(qn_gf2mat_row(m, r), m->ncols, seed);
}

/* About one entry in 16 set. */
static void gen_sparse(qn_gf2mat *m, uint64_t *seed)
{
    int r, c;

    for (r = 0; r < m->nrows; r++)
        for (c = 0; c < m->ncols; c++)
            qn_gf2mat_set(m, r, c, (rand_word(seed) & 15) == 0);
}

/* A = B C with B nrows x k and C k x ncols: rank <= k, usually = k. */
static void gen_lowrank(qn_gf2mat *m, int k, uint64_t *seed)
{
    int nw = qn_gf2_words(m->ncols), r, j, i;
    qn_gf2mat c;

    qn_gf2mat_init(&c, k, m->ncols);
    gen_dense(&c, seed);
    for (r = 0; r < m->nrows; r++) {
        uint64_t *d = qn_gf2mat_row(m, r);

        memset(d, 0, (size_t)nw * sizeof(uint64_t));
        for (j = 0; j < k; j++)
            if (rand_word(seed) & 1)
                for (i = 0; i < nw; i++)
                    d[i] ^= qn_gf2mat_row(&c, j)[i];
    }
    qn_gf2mat_release(&c);
}

/* ---- checks ---------------------------------------------------------- */

/* Every row y of k satisfies op y = 0 (op = A for the kernel, A^T for the
 * left kernel), and the rows are independent (naive rank = row count). */
static void check_kernel(const char *what, const qn_gf2mat *k, const pmat *op,
                         int expect_rows)
{
    nmat nk;
    uint64_t *y;
    int r, bad = 0;

    T_EQ(k->nrows, expect_rows);
    if (k->nrows != expect_rows)
        fprintf(stderr, "  (%s)\n", what);
    y = calloc((size_t)qn_gf2_words(op->nr) + 1, sizeof(uint64_t));
    for (r = 0; r < k->nrows; r++) {
        int i;

        pm_mul(y, op, qn_gf2mat_row((qn_gf2mat *)k, r));
        for (i = 0; i < qn_gf2_words(op->nr); i++)
            bad |= y[i] != 0;
    }
    free(y);
    if (bad)
        T_FAILF("%s: a basis vector is not in the kernel", what);
    else
        t_pass++;
    to_naive(&nk, k);
    T_EQ(naive_rank(&nk), k->nrows);
    nm_free(&nk);
}

static int vec_eq(const uint64_t *a, const uint64_t *b, int n)
{
    return memcmp(a, b, (size_t)qn_gf2_words(n) * sizeof(uint64_t)) == 0;
}

static void check_matrix(const qn_gf2mat *a, const char *what, uint64_t *seed,
                         int nsolve)
{
    int m = a->nrows, n = a->ncols, mn = m < n ? m : n;
    nmat na, nat_, nr, aug;
    pmat pa, pat;
    qn_gf2mat c, t, tt, k, lk;
    qn_gf2fact f;
    int *piv = calloc((size_t)mn + 1, sizeof(int));
    int *npiv = calloc((size_t)mn + 1, sizeof(int));
    uint64_t *x = calloc((size_t)qn_gf2_words(n) + 1, sizeof(uint64_t));
    uint64_t *x2 = calloc((size_t)qn_gf2_words(n) + 1, sizeof(uint64_t));
    uint64_t *y = calloc((size_t)qn_gf2_words(m) + 1, sizeof(uint64_t));
    uint64_t *y2 = calloc((size_t)qn_gf2_words(m) + 1, sizeof(uint64_t));
    uint64_t *svec =
        calloc((size_t)nsolve * (size_t)qn_gf2_words(m) + 1, sizeof(uint64_t));
    int rank, r, i, j, ok;

    to_naive(&na, a);
    pm_from_naive(&pa, &na);
    to_naive(&nr, a);
    rank = naive_rref(&nr, npiv);

    /* mul_vec */
    for (i = 0; i < 3; i++) {
        rand_vec(x, n, seed);
        qn_gf2mat_mul_vec(y, a, x);
        pm_mul(y2, &pa, x);
        if (!vec_eq(y, y2, m))
            T_FAILF("%s: mul_vec differs from naive", what);
        else
            t_pass++;
    }

    /* transpose, and twice is identity */
    qn_gf2mat_init(&t, n, m);
    qn_gf2mat_init(&tt, m, n);
    qn_gf2mat_transpose(&t, a);
    qn_gf2mat_transpose(&tt, &t);
    to_naive(&nat_, &t);
    pm_from_naive(&pat, &nat_);
    ok = 1;
    for (i = 0; i < m; i++)
        for (j = 0; j < n; j++)
            ok &= *nat(&nat_, j, i) == *nat(&na, i, j);
    for (i = 0; i < m; i++)
        ok &=
            vec_eq(qn_gf2mat_row(&tt, i), qn_gf2mat_row((qn_gf2mat *)a, i), n);
    if (!ok)
        T_FAILF("%s: transpose wrong", what);
    else
        t_pass++;

    /* rank and rref (unique, so it must match exactly) */
    T_EQ(tuned_rank(a), rank);
    qn_gf2mat_init(&c, m, n);
    qn_gf2mat_copy(&c, a);
    r = tuned_rref(&c, piv);
    T_EQ(r, rank);
    ok = r == rank;
    for (i = 0; ok && i < r; i++)
        ok &= piv[i] == npiv[i];
    for (i = 0; ok && i < m; i++)
        for (j = 0; j < n; j++)
            ok &= qn_gf2mat_get(&c, i, j) == *nat(&nr, i, j);
    if (!ok)
        T_FAILF("%s: rref differs from naive", what);
    else
        t_pass++;
    qn_gf2mat_copy(&c, a);
    T_EQ(tuned_rref(&c, NULL), rank);

    /* kernels */
    tuned_kernel(&k, a);
    T_EQ(k.ncols, n);
    check_kernel(what, &k, &pa, n - rank);
    tuned_left_kernel(&lk, a);
    T_EQ(lk.ncols, m);
    check_kernel(what, &lk, &pat, m - rank);

    /* factorisation */
    tuned_fact_init(&f, a);
    T_EQ(f.rank, rank);
    T_EQ(f.nrows, m);
    T_EQ(f.ncols, n);
    ok = 1;
    for (i = 0; i < rank; i++)
        ok &= f.pivots[i] == npiv[i];
    if (!ok)
        T_FAILF("%s: fact pivots differ", what);
    T_CHECK(f.t.nrows == rank && f.t.ncols == m);
    check_kernel(what, &f.kernel, &pa, n - rank);
    check_kernel(what, &f.lkernel, &pat, m - rank);
    /* Random s_i: solvable iff, after eliminating [A | s_1 .. s_k] with
     * pivots in A only, column s_i is zero in rows rank.. */
    nm_init(&aug, m, n + nsolve);
    for (r = 0; r < m; r++)
        memcpy(nat(&aug, r, 0), nat(&na, r, 0), (size_t)n);
    for (i = 0; i < nsolve; i++) {
        uint64_t *sv = svec + (size_t)i * (size_t)qn_gf2_words(m);

        rand_vec(sv, m, seed);
        for (r = 0; r < m; r++)
            *nat(&aug, r, n + i) = (unsigned char)vbit(sv, r);
    }
    T_EQ(naive_rref_lim(&aug, NULL, n), rank);
    for (i = 0; i < nsolve; i++) {
        int solvable = 1, rc;

        /* s = A x is in the image */
        rand_vec(x, n, seed);
        pm_mul(y, &pa, x);
        if (m % 64) /* documented: bits past nrows are ignored */
            y[m / 64] |= ~(uint64_t)0 << (m % 64);
        if (!qn_gf2fact_is_solvable(&f, y))
            T_FAILF("%s: image vector reported unsolvable", what);
        rc = qn_gf2fact_solve(&f, x2, y);
        if (m % 64)
            y[m / 64] &= ((uint64_t)1 << (m % 64)) - 1;
        pm_mul(y2, &pa, x2);
        if (rc != QN_OK || !vec_eq(y, y2, m))
            T_FAILF("%s: solve of an image vector failed (rc %d)", what, rc);
        else
            t_pass++;

        /* the random s_i */
        for (r = rank; r < m; r++)
            if (*nat(&aug, r, n + i))
                solvable = 0;
        memcpy(y, svec + (size_t)i * (size_t)qn_gf2_words(m),
               (size_t)qn_gf2_words(m) * sizeof(uint64_t));
        T_EQ(qn_gf2fact_is_solvable(&f, y), solvable);
        memset(x2, 0xa5, (size_t)qn_gf2_words(n) * sizeof(uint64_t));
        memcpy(x, x2, (size_t)qn_gf2_words(n) * sizeof(uint64_t));
        rc = qn_gf2fact_solve(&f, x2, y);
        if (!solvable) {
            T_EQ(rc, QN_EUNSOLVABLE);
            T_CHECK(vec_eq(x, x2, n));
        } else {
            pm_mul(y2, &pa, x2);
            T_CHECK(rc == QN_OK && vec_eq(y, y2, m));
        }
    }
    nm_free(&aug);
    qn_gf2fact_release(&f);
    T_CHECK(f.pivots == NULL && f.t.w == NULL);

    qn_gf2mat_release(&lk);
    qn_gf2mat_release(&k);
    qn_gf2mat_release(&c);
    qn_gf2mat_release(&tt);
    qn_gf2mat_release(&t);
    nm_free(&nat_);
    nm_free(&nr);
    nm_free(&na);
    free(svec);
    free(pat.w);
    free(pa.w);
    free(y2);
    free(y);
    free(x2);
    free(x);
    free(npiv);
    free(piv);
}

static void test_shape(int m, int n, uint64_t seed, int nsolve)
{
    char what[96];
    int kind, mn = m < n ? m : n;

    for (kind = 0; kind < 4; kind++) {
        qn_gf2mat a;

        qn_gf2mat_init(&a, m, n);
        switch (kind) {
        case 0:
            gen_dense(&a, &seed);
            break;
        case 1:
            gen_sparse(&a, &seed);
            break;
        case 2:
            gen_lowrank(&a, mn / 2, &seed);
            break;
        default:
            gen_lowrank(&a, mn > 3 ? mn - 3 : 0, &seed);
            break;
        }
        snprintf(what, sizeof(what), "%dx%d kind %d", m, n, kind);
        check_matrix(&a, what, &seed, nsolve);
        qn_gf2mat_release(&a);
    }
}

/*
 * The panel engine (gf2_panel.c) on its own: its row echelon form has the
 * naive pivots, rows rank.. are zero, row i is zero left of pivots[i] and
 * one there, and the rows span the rows of A (stacking them under A adds
 * no rank).
 */
static void check_panel(const qn_gf2mat *a, const char *what)
{
    int m = a->nrows, n = a->ncols, mn = m < n ? m : n, rank, r, i, ok = 1;
    int *piv = calloc((size_t)mn + 1, sizeof(int));
    int *npiv = calloc((size_t)mn + 1, sizeof(int));
    nmat nr, st;
    qn_gf2mat e;

    to_naive(&nr, a);
    rank = naive_rref(&nr, npiv);
    qn_gf2mat_init(&e, m, n);
    qn_gf2mat_copy(&e, a);
    r = qn_gf2__echelon_panel(&e, piv, qn_gf2_words(n),
                              tune ? tune->simd : QN_GF2_SIMD_BEST);
    T_EQ(r, rank);
    for (i = 0; i < r && i < rank; i++)
        ok &= piv[i] == npiv[i];
    for (i = 0; i < m; i++) {
        int lead = i < r ? piv[i] : n, c;

        for (c = 0; c < lead; c++)
            ok &= !qn_gf2mat_get(&e, i, c);
        if (i < r)
            ok &= qn_gf2mat_get(&e, i, lead);
    }
    if (!ok)
        T_FAILF("%s: panel echelon form wrong", what);
    else
        t_pass++;
    nm_init(&st, 2 * m, n);
    for (i = 0; i < m; i++) {
        int c;

        for (c = 0; c < n; c++) {
            *nat(&st, i, c) = (unsigned char)qn_gf2mat_get(a, i, c);
            *nat(&st, m + i, c) = (unsigned char)qn_gf2mat_get(&e, i, c);
        }
    }
    T_EQ(naive_rank(&st), rank);
    nm_free(&st);
    nm_free(&nr);
    qn_gf2mat_release(&e);
    free(npiv);
    free(piv);
}

/*
 * Shapes for the panel engine: several 256-column passes and the last one
 * narrower, stripes of 8 words with a shorter last one, fewer rows than a
 * pass takes pivots, rank-deficient passes, sparse rows (zero bytes).
 */
static void test_panel(const char *isa)
{
    static const int shapes[][2] = {{300, 1100}, {1100, 300}, {700, 700},
                                    {520, 1030}, {64, 2000},  {2000, 64},
                                    {257, 257},  {1, 600}};
    uint64_t seed = 0x7a11e1;
    char what[96];

    for (size_t i = 0; i < sizeof(shapes) / sizeof(shapes[0]); i++) {
        int m = shapes[i][0], n = shapes[i][1], mn = m < n ? m : n;

        for (int kind = 0; kind < 4; kind++) {
            qn_gf2mat a;

            qn_gf2mat_init(&a, m, n);
            if (kind == 0)
                gen_dense(&a, &seed);
            else if (kind == 1)
                gen_sparse(&a, &seed);
            else
                gen_lowrank(&a,
                            kind == 2 ? mn / 2
                            : mn > 3  ? mn - 3
                                      : 0,
                            &seed);
            snprintf(what, sizeof(what), "panel %s %dx%d kind %d", isa, m, n,
                     kind);
            check_panel(&a, what);
            qn_gf2mat_release(&a);
        }
    }
}

static void test_basics(void)
{
    qn_gf2mat m = {0, 0, 0, NULL};
    int i;

    qn_gf2mat_release(&m); /* safe on a zeroed struct */
    qn_gf2mat_init(&m, 3, 130);
    T_CHECK(((uintptr_t)m.w & 63) == 0);
    T_CHECK(m.stride >= 3);
    for (i = 0; i < 3 * m.stride; i++)
        T_EQ(m.w[i], 0);
    qn_gf2mat_set(&m, 2, 129, 1);
    T_EQ(qn_gf2mat_get(&m, 2, 129), 1);
    T_EQ(qn_gf2mat_rank(&m), 1);
    qn_gf2mat_set(&m, 2, 129, 0);
    T_EQ(qn_gf2mat_rank(&m), 0);
    qn_gf2mat_release(&m);
    T_CHECK(m.w == NULL && m.nrows == 0 && m.ncols == 0);

    /* 2x2 identity: unique solution */
    {
        qn_gf2fact f;
        uint64_t s = 2, x = 0;

        qn_gf2mat_init(&m, 2, 2);
        qn_gf2mat_set(&m, 0, 0, 1);
        qn_gf2mat_set(&m, 1, 1, 1);
        qn_gf2fact_init(&f, &m);
        T_EQ(f.rank, 2);
        T_EQ(qn_gf2fact_solve(&f, &x, &s), QN_OK);
        T_EQ(x, 2);
        qn_gf2fact_release(&f);
        qn_gf2mat_release(&m);
    }
}

/* The n x n Lights Out "plus" matrix: a press toggles itself and its four
 * orthogonal neighbours, no wrap. */
static void plus_matrix(qn_gf2mat *a, int n)
{
    int r, c;

    qn_gf2mat_init(a, n * n, n * n);
    for (r = 0; r < n; r++) {
        for (c = 0; c < n; c++) {
            int i = r * n + c;

            qn_gf2mat_set(a, i, i, 1);
            if (r > 0)
                qn_gf2mat_set(a, i, i - n, 1);
            if (r < n - 1)
                qn_gf2mat_set(a, i, i + n, 1);
            if (c > 0)
                qn_gf2mat_set(a, i, i - 1, 1);
            if (c < n - 1)
                qn_gf2mat_set(a, i, i + 1, 1);
        }
    }
}

static void test_lights_out(int nmax)
{
    const char *path = "tests/golden/plus_square_nullity.tsv";
    FILE *fp = fopen(path, "r");
    char line[128];
    int seen = 0;

    if (!fp) {
        T_FAILF("cannot open %s (run from the project root)", path);
        return;
    }
    while (fgets(line, sizeof(line), fp)) {
        int n, nullity;
        qn_gf2mat a, k;
        qn_gf2fact f;

        if (sscanf(line, "%d %d", &n, &nullity) != 2 || n > nmax)
            continue; /* header, or too big for a unit test */
        plus_matrix(&a, n);
        T_EQ(n * n - tuned_rank(&a), nullity);
        tuned_kernel(&k, &a);
        T_EQ(k.nrows, nullity);
        qn_gf2mat_release(&k);
        tuned_fact_init(&f, &a);
        T_EQ(n * n - f.rank, nullity);
        T_EQ(f.kernel.nrows, nullity);
        T_EQ(f.lkernel.nrows, nullity); /* symmetric matrix */
        qn_gf2fact_release(&f);
        qn_gf2mat_release(&a);
        seen++;
    }
    fclose(fp);
    T_EQ(seen, nmax);
}

int main(void)
{
    static const int shapes[][2] = {
        {0, 0},     {0, 5},     {5, 0},     {1, 1},     {1, 64},    {64, 1},
        {2, 3},     {3, 2},     {7, 7},     {5, 20},    {20, 5},    {63, 63},
        {64, 64},   {65, 65},   {63, 64},   {65, 64},   {127, 127}, {128, 128},
        {129, 129}, {127, 129}, {129, 127}, {64, 130},  {130, 64},  {200, 70},
        {70, 200},  {300, 300}, {700, 500}, {500, 700}, {1, 1000},  {1000, 3},
    };
    static const qn_gf2_tune tbits2 = {-1, 2, QN_GF2_SIMD_BEST},
                             tbits1 = {-1, 1, QN_GF2_SIMD_BEST},
                             plain = {-1, 0, QN_GF2_SIMD_PLAIN},
                             avx2 = {-1, 0, QN_GF2_SIMD_AVX2},
                             panel = {1, 0, QN_GF2_SIMD_BEST};
    size_t i;
    int rep;

    test_basics();
    for (rep = 0; rep < 3; rep++)
        for (i = 0; i < sizeof(shapes) / sizeof(shapes[0]); i++)
            test_shape(shapes[i][0], shapes[i][1],
                       0x9e3779b97f4a7c15ULL * (i + 1) + (uint64_t)rep, 4);
    /* The narrower solve tables used for very large systems. */
    tune = &tbits2;
    test_shape(65, 65, 77, 4);
    test_shape(130, 200, 78, 4);
    tune = &tbits1;
    test_shape(63, 70, 79, 4);
    test_shape(200, 130, 80, 4);
    /* The portable XOR kernel (the AVX2 one is used when present). */
    tune = &plain;
    test_shape(300, 301, 81, 2);
    tune = NULL;
    /* Large enough for many 64-column blocks and table stripes. */
    test_shape(1500, 1500, 12345, 2);
    /* The panel engine, in each instruction set the CPU has, and behind
     * rank and kernel (it takes over from 8192 columns). */
    test_panel("auto");
    tune = &avx2;
    test_panel("avx2");
    tune = &plain;
    test_panel("plain");
    tune = &panel;
    for (i = 0; i < sizeof(shapes) / sizeof(shapes[0]); i++)
        test_shape(shapes[i][0], shapes[i][1], 0x5eed + (uint64_t)i, 2);
    test_lights_out(30);
    tune = NULL;
    test_lights_out(30);
    return t_done();
}
