/*
 * system.c: the facade over the two factorisations. k = 2 goes to the
 * bit-packed GF(2) code, every other k to the Smith-form code over Z/k;
 * both are summarised here in one form (kernel and cokernel generators
 * with orders) so that callers never care which one ran.
 */
#include "engine/system.h"

#include <math.h>
#if defined(__SSE2__)
#include <emmintrin.h>
#endif
#include <stdlib.h>
#include <string.h>

#include "base/bits.h"
#include "base/mem.h"
#include "minpress_gf2.h"
#include "system_internal.h"

/*
 * Bit i of w = (v[i] & 1). SSE2 (in every x86-64) gathers 16 cells at a
 * time: shifting bit 0 of each byte to bit 7 lets movemask collect them.
 */
static void pack_bits(uint64_t *w, const uint8_t *v, int n)
{
    int i = 0;

    memset(w, 0, (size_t)qn_gf2_words(n) * sizeof(*w));
#if defined(__SSE2__)
    for (; i + 16 <= n; i += 16) {
        __m128i x = _mm_loadu_si128((const __m128i *)(v + i));
        x = _mm_slli_epi16(_mm_and_si128(x, _mm_set1_epi8(1)), 7);
        w[i / 64] |= (uint64_t)(unsigned)_mm_movemask_epi8(x) << (i % 64);
    }
#endif
    for (; i < n; i++)
        w[i / 64] |= (uint64_t)(v[i] & 1) << (i % 64);
}

static void unpack_bits(uint8_t *v, const uint64_t *w, int n)
{
    for (int i = 0; i < n; i += 64)
        qn_bits_spread(v + i, w[i / 64], n - i < 64 ? n - i : 64);
}

/* QN_OK, or QN_ENOMEM (what was allocated is freed with the system). */
static int unpack_rows(uint8_t **out, size_t *nout, unsigned **orders,
                       qn_gf2mat *m)
{
    *out = QN_ALLOCN((size_t)m->nrows * (size_t)m->ncols + 1, uint8_t);
    *orders = QN_ALLOCN((size_t)m->nrows + 1, unsigned);
    if (!*out || !*orders)
        return QN_ENOMEM;
    *nout = (size_t)m->nrows;
    for (int r = 0; r < m->nrows; r++) {
        unpack_bits(*out + (size_t)r * m->ncols, qn_gf2mat_row(m, r), m->ncols);
        (*orders)[r] = 2;
    }
    return QN_OK;
}

/* The k = 2 walk's packed support (see system_internal.h). */
static int build_support(qn_system *sys)
{
    int n = sys->ncols;

    if (!(sys->supp = QN_ALLOCN((size_t)n + 1, int)))
        return QN_ENOMEM;
    for (int c = 0; c < n; c++) {
        for (size_t i = 0; i < sys->nkgen; i++) {
            if (sys->kgen[i * n + c]) {
                sys->supp[sys->nsupp++] = c;
                break;
            }
        }
    }
    sys->sw = qn_gf2_words(sys->nsupp);
    if (sys->sw <= 16) /* the SIMD walks take whole 256-bit vectors */
        sys->sw = (sys->sw + 3) / 4 * 4;
    sys->kbits = QN_ALLOCN(sys->nkgen * (size_t)sys->sw + 1, uint64_t);
    if (!sys->kbits)
        return QN_ENOMEM;
    for (size_t i = 0; i < sys->nkgen; i++)
        for (int b = 0; b < sys->nsupp; b++)
            if (sys->kgen[i * n + sys->supp[b]])
                sys->kbits[i * sys->sw + b / 64] |= (uint64_t)1 << (b % 64);
    return QN_OK;
}

/*
 * The one-word form (system_internal.h) of a system of at most 64 rows
 * and columns, read off the factorisation: its left-kernel rows are the
 * conditions, and its row i of t gives cell pivots[i] of the solution
 * with every free cell 0 (qn_gf2fact_solve's), so x0col[r] has that
 * cell's bit wherever t's column r is 1.
 */
static int build_word(qn_system *sys)
{
    const qn_gf2fact *f = &sys->gf2;
    int m = sys->nrows, n = sys->ncols;

    if (m > 64 || n > 64)
        return QN_OK;
    sys->nscond = m - f->rank;
    sys->scond = QN_ALLOCN((size_t)sys->nscond + 1, uint64_t);
    sys->x0col = QN_ALLOCN((size_t)m + 1, uint64_t);
    sys->kword = QN_ALLOCN(sys->nkgen + 1, uint64_t);
    if (!sys->scond || !sys->x0col || !sys->kword)
        return QN_ENOMEM;
    for (int i = 0; i < sys->nscond; i++)
        for (int r = 0; r < m; r++)
            sys->scond[i] |= (uint64_t)qn_gf2mat_get(&f->lkernel, i, r) << r;
    for (int i = 0; i < f->rank; i++)
        for (int r = 0; r < m; r++)
            if (qn_gf2mat_get(&f->t, i, r))
                sys->x0col[r] |= (uint64_t)1 << (63 - f->pivots[i]);
    for (size_t g = 0; g < sys->nkgen; g++)
        for (int c = 0; c < n; c++)
            if (sys->kgen[g * (size_t)n + (size_t)c])
                sys->kword[g] |= (uint64_t)1 << (63 - c);
    sys->word = 1;
    return QN_OK;
}

static int build_gf2(qn_system *sys)
{
    qn_gf2mat a;
    int rc;

    if (qn_gf2mat_init(&a, sys->nrows, sys->ncols) != QN_OK)
        return QN_ENOMEM;
    for (int r = 0; r < sys->nrows; r++)
        for (int c = 0; c < sys->ncols; c++)
            if (sys->a[(size_t)r * sys->ncols + c] & 1)
                qn_gf2mat_set(&a, r, c, 1);
    rc = qn_gf2fact_init(&sys->gf2, &a);
    qn_gf2mat_release(&a);
    if (rc != QN_OK ||
        unpack_rows(&sys->kgen, &sys->nkgen, &sys->korder, &sys->gf2.kernel) !=
            QN_OK ||
        unpack_rows(&sys->cond, &sys->ncgen, &sys->corder, &sys->gf2.lkernel) !=
            QN_OK)
        return QN_ENOMEM;
    if (build_support(sys) != QN_OK)
        return QN_ENOMEM;
    return build_word(sys);
}

static int build_sparse(qn_system *sys)
{
    int n = sys->ncols;

    if (!(sys->sgen = QN_ALLOCN(sys->nkgen + 1, qn_sparse_gen)))
        return QN_ENOMEM;
    for (size_t i = 0; i < sys->nkgen; i++) {
        const uint8_t *g = sys->kgen + i * n;
        qn_sparse_gen *sg = &sys->sgen[i];
        int nnz = 0;

        for (int c = 0; c < n; c++)
            nnz += g[c] != 0;
        sg->cell = QN_ALLOCN((size_t)nnz + 1, int);
        sg->up = QN_ALLOCN((size_t)nnz + 1, uint8_t);
        sg->down = QN_ALLOCN((size_t)nnz + 1, uint8_t);
        if (!sg->cell || !sg->up || !sg->down)
            return QN_ENOMEM; /* freed with the system */
        for (int c = 0; c < n; c++) {
            if (!g[c])
                continue;
            sg->cell[sg->nnz] = c;
            sg->up[sg->nnz] = g[c];
            sg->down[sg->nnz] = (uint8_t)(sys->k - g[c]);
            sg->nnz++;
        }
    }
    return QN_OK;
}

static int build_zk(qn_system *sys, qn_err *err)
{
    qn_zmat a;
    int rc;
    size_t i;

    if (qn_zmat_init(&a, sys->nrows, sys->ncols, sys->k) != QN_OK)
        return qn_err_nomem(err);
    memcpy(a.e, sys->a, (size_t)sys->nrows * sys->ncols);
    rc = qn_zfact_new(&sys->zf, &a, err);
    qn_zmat_release(&a);
    if (rc)
        return rc;
    sys->nkgen = qn_zfact_kernel_ngens(sys->zf);
    sys->kgen = QN_ALLOCN(sys->nkgen * sys->ncols + 1, uint8_t);
    sys->korder = QN_ALLOCN(sys->nkgen + 1, unsigned);
    if (!sys->kgen || !sys->korder)
        return qn_err_nomem(err);
    for (i = 0; i < sys->nkgen; i++) {
        memcpy(sys->kgen + i * sys->ncols, qn_zfact_kernel_gen(sys->zf, i),
               (size_t)sys->ncols);
        sys->korder[i] = qn_zfact_kernel_order(sys->zf, i);
    }
    sys->ncgen = qn_zfact_cokernel_ngens(sys->zf);
    sys->cond = QN_ALLOCN(sys->ncgen * sys->nrows + 1, uint8_t);
    sys->corder = QN_ALLOCN(sys->ncgen + 1, unsigned);
    if (!sys->cond || !sys->corder)
        return qn_err_nomem(err);
    for (i = 0; i < sys->ncgen; i++) {
        memcpy(sys->cond + i * sys->nrows, qn_zfact_condition(sys->zf, i),
               (size_t)sys->nrows);
        sys->corder[i] = qn_zfact_cokernel_orders(sys->zf)[i];
    }
    if (build_sparse(sys) != QN_OK)
        return qn_err_nomem(err);
    return QN_OK;
}

static int is_symmetric(const uint8_t *a, int m, int n)
{
    if (m != n)
        return 0;
    for (int r = 0; r < n; r++)
        for (int c = r + 1; c < n; c++)
            if (a[(size_t)r * n + c] != a[(size_t)c * n + r])
                return 0;
    return 1;
}

int qn_system_new(qn_system **out, const uint8_t *a, int nrows, int ncols,
                  unsigned k, qn_err *err)
{
    qn_system *sys;
    size_t n;
    int rc;

    *out = NULL;
    if (k < 2 || k > 255)
        return qn_err_set(err, QN_EINVAL, 0, 0,
                          "colours must be 2..255, got %u", k);
    if (nrows < 0 || ncols < 0)
        return qn_err_set(err, QN_EINVAL, 0, 0, "negative matrix size");
    if (nrows > QN_SYSTEM_MAX_CELLS || ncols > QN_SYSTEM_MAX_CELLS)
        return qn_err_set(err, QN_ELIMIT, 0, 0,
                          "%d x %d system exceeds the dense limit of %d "
                          "cells",
                          nrows, ncols, QN_SYSTEM_MAX_CELLS);
    n = (size_t)nrows * (size_t)ncols;
    for (size_t i = 0; i < n; i++)
        if (a[i] >= k)
            return qn_err_set(err, QN_EINVAL, 0, 0,
                              "matrix entry %u at (%zu, %zu) is not below "
                              "%u",
                              a[i], i / (size_t)ncols, i % (size_t)ncols, k);
    if (!(sys = QN_ALLOC(qn_system)))
        return qn_err_nomem(err);
    sys->nrows = nrows;
    sys->ncols = ncols;
    sys->k = k;
    sys->a = qn_malloc(n + 1); /* + 1: a 0 x 0 system still owns a block */
    if (!sys->a) {
        free(sys);
        return qn_err_nomem(err);
    }
    memcpy(sys->a, a, n);
    sys->symmetric = is_symmetric(a, nrows, ncols);
    rc = k == 2 ? build_gf2(sys) : build_zk(sys, err);
    if (rc != QN_OK) {
        qn_system_free(sys);
        return rc == QN_ENOMEM ? qn_err_nomem(err) : rc;
    }
    *out = sys;
    return QN_OK;
}

void qn_system_free(qn_system *sys)
{
    if (!sys)
        return;
    if (sys->k == 2)
        qn_gf2fact_release(&sys->gf2);
    qn_zfact_free(sys->zf);
    if (sys->sgen) {
        for (size_t i = 0; i < sys->nkgen; i++) {
            free(sys->sgen[i].cell);
            free(sys->sgen[i].up);
            free(sys->sgen[i].down);
        }
        free(sys->sgen);
    }
    free(sys->a);
    free(sys->kgen);
    free(sys->korder);
    free(sys->cond);
    free(sys->corder);
    free(sys->supp);
    free(sys->kbits);
    free(sys->scond);
    free(sys->x0col);
    free(sys->kword);
    free(sys);
}

int qn_system_nrows(const qn_system *sys)
{
    return sys->nrows;
}
int qn_system_ncols(const qn_system *sys)
{
    return sys->ncols;
}
unsigned qn_system_modulus(const qn_system *sys)
{
    return sys->k;
}
const uint8_t *qn_system_matrix(const qn_system *sys)
{
    return sys->a;
}
int qn_system_is_symmetric(const qn_system *sys)
{
    return sys->symmetric;
}

/*
 * Small systems solve on the stack; only boards of more than 4096 cells
 * pay for an allocation per call.
 */
#define STACK_WORDS 64

int qn_system_is_solvable(const qn_system *sys, const uint8_t *s)
{
    if (sys->k == 2) {
        uint64_t st[STACK_WORDS];
        int words = qn_gf2_words(sys->nrows), ok;
        uint64_t *sb =
            words <= STACK_WORDS ? st : QN_ALLOCN((size_t)words, uint64_t);

        if (!sb)
            return QN_ENOMEM;
        pack_bits(sb, s, sys->nrows);
        ok = qn_gf2fact_is_solvable(&sys->gf2, sb);
        if (sb != st)
            free(sb);
        return ok;
    }
    for (size_t j = 0; j < sys->ncgen; j++) {
        const uint8_t *c = sys->cond + j * sys->nrows;
        unsigned long acc = 0;
        for (int i = 0; i < sys->nrows; i++)
            acc = (acc + (unsigned long)c[i] * s[i]) % sys->corder[j];
        if (acc)
            return 0;
    }
    return 1;
}

int qn_system__word_solve(const qn_system *sys, const uint8_t *s, uint64_t *x0)
{
    uint64_t sb = qn_bits_low(s, sys->nrows), x = 0;

    for (int i = 0; i < sys->nscond; i++)
        if (__builtin_popcountll(sys->scond[i] & sb) & 1)
            return QN_EUNSOLVABLE;
    for (uint64_t t = sb; t; t &= t - 1)
        x ^= sys->x0col[__builtin_ctzll(t)];
    *x0 = x;
    return QN_OK;
}

static int solve_fact(const qn_system *sys, uint8_t *x, const uint8_t *s)
{
    uint64_t st[STACK_WORDS], xt[STACK_WORDS];
    int sw = qn_gf2_words(sys->nrows), xw = qn_gf2_words(sys->ncols), rc;
    uint64_t *sb = sw <= STACK_WORDS ? st : QN_ALLOCN((size_t)sw, uint64_t);
    uint64_t *xb = xw <= STACK_WORDS ? xt : QN_ALLOCN((size_t)xw, uint64_t);

    if (!sb || !xb) {
        rc = QN_ENOMEM;
        goto done;
    }
    /* Over GF(2), -s = s: A x + s = 0 is A x = s. */
    pack_bits(sb, s, sys->nrows);
    rc = qn_gf2fact_solve(&sys->gf2, xb, sb);
    if (rc == QN_OK)
        unpack_bits(x, xb, sys->ncols);
done:
    if (sb != st)
        free(sb);
    if (xb != xt)
        free(xb);
    return rc;
}

/* The one-word form when the system has it: the same solution (the RREF's
 * pivots and free cells are the matrix's, whichever way it is reduced). */
static int solve_gf2(const qn_system *sys, uint8_t *x, const uint8_t *s)
{
    uint64_t w;
    int rc;

    if (!sys->word)
        return solve_fact(sys, x, s);
    if ((rc = qn_system__word_solve(sys, s, &w)) == QN_OK)
        qn_bits_put_top(x, w, sys->ncols);
    return rc;
}

int qn_system_solve(const qn_system *sys, uint8_t *x, const uint8_t *s)
{
    uint8_t st[4096], *neg;
    int rc;

    if (sys->k == 2)
        return solve_gf2(sys, x, s);
    st[0] = 0; /* a 0-row system reads nothing, but keeps gcc quiet */
    neg = sys->nrows <= (int)sizeof(st) ? st : qn_malloc((size_t)sys->nrows);
    if (!neg)
        return QN_ENOMEM;
    for (int i = 0; i < sys->nrows; i++)
        neg[i] = (uint8_t)(s[i] ? sys->k - s[i] : 0);
    rc = qn_zfact_solve(sys->zf, x, neg);
    if (neg != st)
        free(neg);
    return rc;
}

void qn_system_apply(const qn_system *sys, uint8_t *y, const uint8_t *x,
                     const uint8_t *s)
{
    for (int r = 0; r < sys->nrows; r++) {
        const uint8_t *row = sys->a + (size_t)r * sys->ncols;
        unsigned long acc = s[r];
        for (int c = 0; c < sys->ncols; c++)
            acc += (unsigned long)row[c] * x[c];
        y[r] = (uint8_t)(acc % sys->k);
    }
}

size_t qn_system_kernel_ngens(const qn_system *sys)
{
    return sys->nkgen;
}

const uint8_t *qn_system_kernel_gen(const qn_system *sys, size_t i)
{
    return sys->kgen + i * sys->ncols;
}

unsigned qn_system_kernel_order(const qn_system *sys, size_t i)
{
    return sys->korder[i];
}

size_t qn_system_cokernel_ngens(const qn_system *sys)
{
    return sys->ncgen;
}

unsigned qn_system_cokernel_order(const qn_system *sys, size_t j)
{
    return sys->corder[j];
}

const uint8_t *qn_system_condition(const qn_system *sys, size_t j)
{
    return sys->cond + j * sys->nrows;
}

/*
 * Group sizes as prime factorisations. The kernel and cokernel are given by
 * their cyclic orders; the image is Z_k^ncols / kernel, so its exponent of
 * each prime p is ncols * v_p(k) minus the kernel's.
 */
#define NPRIMES 54 /* primes below 256 */

static int prime_exponents(const qn_system *sys, enum qn_system_group g,
                           unsigned *p, long *e)
{
    int np = 0;

    for (unsigned q = 2; q < 256; q++) {
        int isp = 1;
        for (unsigned d = 2; d * d <= q; d++)
            if (q % d == 0)
                isp = 0;
        if (!isp)
            continue;
        long ex = 0;
        const unsigned *ord = g == QN_COKERNEL ? sys->corder : sys->korder;
        size_t n = g == QN_COKERNEL ? sys->ncgen : sys->nkgen;
        for (size_t i = 0; i < n; i++)
            for (unsigned o = ord[i]; o % q == 0; o /= q)
                ex++;
        if (g == QN_IMAGE) {
            long ek = 0;
            for (unsigned kk = sys->k; kk % q == 0; kk /= q)
                ek++;
            ex = ek * sys->ncols - ex;
        }
        if (ex) {
            p[np] = q;
            e[np++] = ex;
        }
    }
    return np;
}

void qn_system_group_size(const qn_system *sys, enum qn_system_group g,
                          qn_buf *out)
{
    unsigned p[NPRIMES];
    long e[NPRIMES];
    int np = prime_exponents(sys, g, p, e);
    size_t nf = 0, cap = 16;
    unsigned *f = QN_ALLOCN(cap, unsigned), *grown;

    if (!f) {
        qn_buf_fail(out);
        return;
    }
    /* Batch prime powers into factors below 2^24 to keep the product fast. */
    for (int i = 0; i < np; i++) {
        for (long j = 0; j < e[i]; j++) {
            if (nf && (uint64_t)f[nf - 1] * p[i] < (1u << 24)) {
                f[nf - 1] *= p[i];
                continue;
            }
            if (nf == cap) {
                if (!(grown = QN_REALLOCN(f, cap * 2, unsigned))) {
                    free(f);
                    qn_buf_fail(out);
                    return;
                }
                f = grown;
                cap *= 2;
            }
            f[nf++] = p[i];
        }
    }
    qn_buf_add_product(out, f, nf);
    free(f);
}

double qn_system_group_log2(const qn_system *sys, enum qn_system_group g)
{
    unsigned p[NPRIMES];
    long e[NPRIMES];
    int np = prime_exponents(sys, g, p, e);
    double l = 0;

    for (int i = 0; i < np; i++)
        l += (double)e[i] * log2((double)p[i]);
    return l;
}

void qn_system_group_factors(const qn_system *sys, enum qn_system_group g,
                             qn_buf *out)
{
    unsigned p[NPRIMES];
    long e[NPRIMES];
    int np = prime_exponents(sys, g, p, e);

    if (!np)
        qn_buf_adds(out, "1");
    for (int i = 0; i < np; i++) {
        qn_buf_addf(out, "%s%u", i ? " x " : "", p[i]);
        if (e[i] > 1)
            qn_buf_addf(out, "^%ld", e[i]);
    }
}

int qn_system_group_size_u64(const qn_system *sys, enum qn_system_group g,
                             uint64_t *out)
{
    unsigned p[NPRIMES];
    long e[NPRIMES];
    int np = prime_exponents(sys, g, p, e);
    uint64_t v = 1;

    for (int i = 0; i < np; i++)
        for (long j = 0; j < e[i]; j++) {
            if (v > UINT64_MAX / p[i])
                return QN_ELIMIT;
            v *= p[i];
        }
    *out = v;
    return QN_OK;
}

int qn_system__set_walk(qn_system *sys, int isa)
{
    if (!qn__walk2_can(isa))
        return 0;
    sys->walk_isa = isa;
    return 1;
}

int qn_system__set_word(qn_system *sys, int on)
{
    if (!sys->x0col)
        return 0;
    sys->word = on;
    return 1;
}
