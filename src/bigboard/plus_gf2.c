/*
 * plus_gf2.c: the plus family over GF(2) on bit boards, by chasing and the
 * polynomial method (see plus_gf2.h for the mathematics). Everything inside
 * works in the chase orientation (width W = cw, height H = ch); the public
 * functions transpose at the boundary.
 */
#include "bigboard/plus_gf2.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/mem.h"
#include "engine/gf2x.h"

struct qn_plus_gf2 {
    int w, h;      /* the caller's board */
    int cw, ch;    /* chase orientation */
    int tr;        /* 1: chase cell (cx, cy) is the caller's (cy, cx) */
    int alpha, c;  /* T = alpha I + S; c: the row below is pressed too */
    size_t nw;     /* words in a chase row */
    uint64_t tail; /* valid bits of a row's last word */
    qn_gf2x q;     /* Q_W, the minimal polynomial of T */
    qn_gf2x g;     /* gcd(P_H mod Q_W, Q_W) */
    qn_gf2x mq;    /* Q_W / g */
    qn_gf2x inv;   /* (a / g)^-1 mod mq */
};

/* ---- rows ---------------------------------------------------------- */

/*
 * One chase step over a whole row: nx = T cur + (c ? prev : 0) + s (prev
 * and s may be NULL for zero). T cur = alpha cur + cur shifted one cell
 * either way.
 */
static void step(const qn_plus_gf2 *p, uint64_t *nx, const uint64_t *cur,
                 const uint64_t *prev, const uint64_t *s)
{
    size_t nw = p->nw;
    uint64_t keep = p->alpha ? ~(uint64_t)0 : 0;

    for (size_t j = 0; j < nw; j++) {
        uint64_t v = cur[j], t = (v & keep) ^ (v << 1) ^ (v >> 1);
        if (j)
            t ^= cur[j - 1] >> 63;
        if (j + 1 < nw)
            t ^= cur[j + 1] << 63;
        if (p->c && prev)
            t ^= prev[j];
        if (s)
            t ^= s[j];
        nx[j] = t;
    }
    nx[nw - 1] &= p->tail;
}

/*
 * The chase from first row y (NULL: zero) over the state s (NULL: zero):
 * rows go to out when it is not NULL (chase orientation), and the
 * residual, the would-be row H, to res. scratch holds 3 rows.
 */
static void chase(const qn_plus_gf2 *p, const qn_bitboard *s, const uint64_t *y,
                  qn_bitboard *out, uint64_t *res, uint64_t *scratch)
{
    size_t nw = p->nw;
    uint64_t *prev = scratch, *cur = scratch + nw, *nx = scratch + 2 * nw;

    memset(prev, 0, nw * 8);
    if (y)
        memcpy(cur, y, nw * 8);
    else
        memset(cur, 0, nw * 8);
    for (int r = 0; r < p->ch; r++) {
        if (out)
            memcpy(qn_bitboard_row(out, r), cur, nw * 8);
        step(p, nx, cur, prev, s ? qn_bitboard_row(s, r) : NULL);
        uint64_t *t = prev;
        prev = cur;
        cur = nx;
        nx = t;
    }
    memcpy(res, cur, nw * 8);
}

/* ---- polynomials and vectors ---------------------------------------- */

/* f = sum_j v_j Q_j (v a row of W bits), by Clenshaw's recurrence;
 * QN_OK or QN_ENOMEM. */
static int to_poly(const qn_plus_gf2 *p, qn_gf2x *f, const uint64_t *v)
{
    qn_gf2x b1 = QN_GF2X_INIT, b2 = QN_GF2X_INIT, t;
    int bad = 0;

    for (long j = p->cw - 1; j >= 0 && !bad; j--) {
        /* b_j = v_j + (x + alpha) b_{j+1} + b_{j+2}, into b2's slot */
        bad |= qn_gf2x_add_shifted(&b2, &b1, 1) != QN_OK;
        if (p->alpha)
            bad |= qn_gf2x_add_shifted(&b2, &b1, 0) != QN_OK;
        if ((v[j >> 6] >> (j & 63)) & 1)
            bad |= qn_gf2x_flip(&b2, 0) != QN_OK;
        t = b1;
        b1 = b2;
        b2 = t;
    }
    if (!bad)
        bad = qn_gf2x_copy(f, &b1) != QN_OK;
    qn_gf2x_release(&b1);
    qn_gf2x_release(&b2);
    return bad ? QN_ENOMEM : QN_OK;
}

/* v = f(T) e_0 (a row), by Horner; scratch holds one row. */
static void from_poly(const qn_plus_gf2 *p, uint64_t *v, const qn_gf2x *f,
                      uint64_t *scratch)
{
    memset(v, 0, p->nw * 8);
    for (long j = f->deg; j >= 0; j--) {
        /* v = T v + f_j e_0 */
        step(p, scratch, v, NULL, NULL);
        scratch[0] ^= (uint64_t)qn_gf2x_coeff(f, j);
        memcpy(v, scratch, p->nw * 8);
    }
}

/* Q_W by its recurrence, and a = P_H mod Q_W by P's; QN_OK or QN_ENOMEM
 * (what p holds is freed with it). */
static int setup_polys(qn_plus_gf2 *p)
{
    qn_gf2x a0 = QN_GF2X_INIT, a1 = QN_GF2X_INIT, t, s = QN_GF2X_INIT;
    qn_gf2x q0 = QN_GF2X_INIT, r = QN_GF2X_INIT, quo = QN_GF2X_INIT;
    int bad = 0;

    bad |= qn_gf2x_monomial(&q0, 0) != QN_OK;   /* Q_0 = 1 */
    bad |= qn_gf2x_monomial(&p->q, 1) != QN_OK; /* Q_1 = x + alpha */
    if (p->alpha)
        bad |= qn_gf2x_flip(&p->q, 0) != QN_OK;
    for (int j = 1; j < p->cw && !bad; j++) { /* Q_{j+1} into Q_{j-1}'s slot */
        bad |= qn_gf2x_add_shifted(&q0, &p->q, 1) != QN_OK;
        if (p->alpha)
            bad |= qn_gf2x_add_shifted(&q0, &p->q, 0) != QN_OK;
        t = q0;
        q0 = p->q;
        p->q = t;
    }

    bad |= qn_gf2x_monomial(&a1, 0) != QN_OK; /* P_0 = 1, P_{-1} = 0 */
    for (int j = 0; j < p->ch && !bad; j++) { /* P_{j+1} into P_{j-1}'s slot */
        if (!p->c)
            qn_gf2x_zero(&a0);
        bad |= qn_gf2x_add_shifted(&a0, &a1, 1) != QN_OK;
        if (a0.deg == p->q.deg)
            bad |= qn_gf2x_add_shifted(&a0, &p->q, 0) != QN_OK;
        t = a0;
        a0 = a1;
        a1 = t;
    }
    if (!bad)
        bad = qn_gf2x_gcdext(&p->g, &s, &a1, &p->q) != QN_OK ||
              qn_gf2x_divmod(&p->mq, &r, &p->q, &p->g) != QN_OK ||
              qn_gf2x_divmod(&quo, &p->inv, &s, &p->mq) != QN_OK;
    qn_gf2x_release(&a0);
    qn_gf2x_release(&a1);
    qn_gf2x_release(&s);
    qn_gf2x_release(&q0);
    qn_gf2x_release(&r);
    qn_gf2x_release(&quo);
    return bad ? QN_ENOMEM : QN_OK;
}

/* ---- setting up ----------------------------------------------------- */

/* alpha, c and the shape check in orientation tr; 0 if not plus-shaped. */
static int shape(qn_plus_gf2 *p, int tr, const int (*off)[3], size_t n,
                 char *why, size_t whylen)
{
    int amt[3][3] = {{0}}; /* [dy + 1][dx + 1] mod 2 */

    for (size_t o = 0; o < n; o++) {
        int dx = tr ? off[o][1] : off[o][0], dy = tr ? off[o][0] : off[o][1];
        if (!(off[o][2] & 1))
            continue;
        if (dx < -1 || dx > 1 || dy < -1 || dy > 1 || (dx && dy)) {
            snprintf(why, whylen, "offset (%d, %d) is outside the plus",
                     off[o][0], off[o][1]);
            return 0;
        }
        amt[dy + 1][dx + 1] ^= 1;
    }
    if (!amt[1][0] || !amt[1][2]) {
        snprintf(why, whylen, "the plus needs both side neighbours");
        return 0;
    }
    if (!amt[0][1]) {
        snprintf(why, whylen, "the plus needs the neighbour above");
        return 0;
    }
    p->tr = tr;
    p->alpha = amt[1][1];
    p->c = amt[2][1];
    return 1;
}

int qn_plus_gf2_new(qn_plus_gf2 **out, int w, int h, const int (*offsets)[3],
                    size_t n, qn_err *err)
{
    qn_plus_gf2 *p;
    char why[96] = "", why2[96] = "";
    int pref = h < w;

    *out = NULL;
    if (w < 1 || h < 1)
        return qn_err_set(err, QN_EINVAL, 0, 0,
                          "board must be at least 1x1, got %dx%d", w, h);
    if (w > QN_PLUS_GF2_MAX_SIDE || h > QN_PLUS_GF2_MAX_SIDE ||
        (long long)w * h > QN_PLUS_GF2_MAX_CELLS)
        return qn_err_set(err, QN_ELIMIT, 0, 0,
                          "board %dx%d is over the limit (sides %d, %lld "
                          "cells)",
                          w, h, QN_PLUS_GF2_MAX_SIDE, QN_PLUS_GF2_MAX_CELLS);
    if (!(p = QN_ALLOC(qn_plus_gf2)))
        return qn_err_nomem(err);
    if (!shape(p, pref, offsets, n, why, sizeof why) &&
        !shape(p, !pref, offsets, n, why2, sizeof why2)) {
        free(p);
        return qn_err_set(err, QN_EINVAL, 0, 0,
                          "not a plus stencil over GF(2): %s", why);
    }
    p->w = w;
    p->h = h;
    p->cw = p->tr ? h : w;
    p->ch = p->tr ? w : h;
    p->nw = ((size_t)p->cw + 63) / 64;
    p->tail = p->cw % 64 ? ((uint64_t)1 << (p->cw % 64)) - 1 : ~(uint64_t)0;
    p->q = p->g = p->mq = p->inv = (qn_gf2x)QN_GF2X_INIT;
    if (setup_polys(p) != QN_OK) {
        qn_plus_gf2_free(p);
        return qn_err_nomem(err);
    }
    *out = p;
    return QN_OK;
}

void qn_plus_gf2_free(qn_plus_gf2 *p)
{
    if (!p)
        return;
    qn_gf2x_release(&p->q);
    qn_gf2x_release(&p->g);
    qn_gf2x_release(&p->mq);
    qn_gf2x_release(&p->inv);
    free(p);
}

int qn_plus_gf2_width(const qn_plus_gf2 *p)
{
    return p->cw;
}
int qn_plus_gf2_transposed(const qn_plus_gf2 *p)
{
    return p->tr;
}
unsigned qn_plus_gf2_kernel_dim(const qn_plus_gf2 *p)
{
    return (unsigned)p->g.deg;
}

/* ---- solving -------------------------------------------------------- */

/* A board in chase orientation: src itself, or a transposed copy (NULL:
 * out of memory). */
static const qn_bitboard *oriented(const qn_plus_gf2 *p, const qn_bitboard *src,
                                   qn_bitboard *tmp)
{
    if (!p->tr)
        return src;
    if (qn_bitboard_init(tmp, p->cw, p->ch) != QN_OK)
        return NULL;
    qn_bitboard_transpose(tmp, src);
    return tmp;
}

/* Rows of scratch a query needs: 3 for a chase, 2 for vectors. */
enum { NSCRATCH = 5 };

/* First row y of the reduced solution; 0, QN_EUNSOLVABLE or QN_ENOMEM. */
static int first_row(const qn_plus_gf2 *p, const qn_bitboard *s, uint64_t *y,
                     uint64_t *scratch)
{
    qn_gf2x f = QN_GF2X_INIT, quo = QN_GF2X_INIT, rem = QN_GF2X_INIT;
    qn_gf2x t = QN_GF2X_INIT;
    int rc = QN_OK;

    chase(p, s, NULL, NULL, y, scratch); /* y = c0, the residual */
    if (to_poly(p, &f, y) != QN_OK ||
        qn_gf2x_divmod(&quo, &rem, &f, &p->g) != QN_OK)
        rc = QN_ENOMEM;
    else if (rem.deg >= 0)
        rc = QN_EUNSOLVABLE;
    else if (qn_gf2x_mul(&t, &quo, &p->inv) != QN_OK ||
             qn_gf2x_divmod(NULL, &t, &t, &p->mq) != QN_OK)
        rc = QN_ENOMEM;
    else
        from_poly(p, y, &t, scratch);
    qn_gf2x_release(&f);
    qn_gf2x_release(&quo);
    qn_gf2x_release(&rem);
    qn_gf2x_release(&t);
    return rc;
}

/* Chase y over s into x (chase orientation); 1 if it is a solution. */
static int expand(const qn_plus_gf2 *p, qn_bitboard *x, const qn_bitboard *s,
                  const uint64_t *y, uint64_t *scratch)
{
    uint64_t *res = scratch + 3 * p->nw, any = 0;

    chase(p, s, y, x, res, scratch);
    for (size_t j = 0; j < p->nw; j++)
        any |= res[j];
    return any == 0;
}

/* The reduced solution in chase orientation (x initialised cw x ch). */
static int solve_oriented(const qn_plus_gf2 *p, qn_bitboard *x,
                          const qn_bitboard *s, qn_err *err)
{
    uint64_t *scr = QN_ALLOCN(p->nw * NSCRATCH, uint64_t);
    uint64_t *y = QN_ALLOCN(p->nw, uint64_t);
    int rc = scr && y ? first_row(p, s, y, scr) : QN_ENOMEM;

    if (rc == QN_OK && !expand(p, x, s, y, scr))
        rc = qn_err_set(err, QN_ERR, 0, 0,
                        "internal error: the chased solution does not clear "
                        "the last row");
    else if (rc == QN_ENOMEM)
        qn_err_nomem(err);
    else if (rc)
        qn_err_set(err, rc, 0, 0, "state has no solution");
    free(y);
    free(scr);
    return rc;
}

int qn_plus_gf2_solve(const qn_plus_gf2 *p, qn_bitboard *x_out,
                      const qn_bitboard *s, qn_err *err)
{
    qn_bitboard ts = {0}, tx = {0};
    const qn_bitboard *so = oriented(p, s, &ts);
    int rc;

    if (!p->tr)
        return solve_oriented(p, x_out, so, err);
    if (!so || qn_bitboard_init(&tx, p->cw, p->ch) != QN_OK)
        rc = qn_err_nomem(err);
    else
        rc = solve_oriented(p, &tx, so, err);
    if (rc == QN_OK)
        qn_bitboard_transpose(x_out, &tx);
    qn_bitboard_release(&tx);
    qn_bitboard_release(&ts);
    return rc;
}

/* The first row of kernel generator i: (mq x^i)(T) e_0. */
static int kernel_row(const qn_plus_gf2 *p, unsigned i, uint64_t *y,
                      uint64_t *scratch)
{
    qn_gf2x f = QN_GF2X_INIT;
    int rc = qn_gf2x_add_shifted(&f, &p->mq, (long)i);

    if (rc == QN_OK)
        from_poly(p, y, &f, scratch);
    qn_gf2x_release(&f);
    return rc;
}

int qn_plus_gf2_kernel_gen(const qn_plus_gf2 *p, unsigned i, qn_bitboard *out)
{
    uint64_t *scr = QN_ALLOCN(p->nw * NSCRATCH, uint64_t);
    uint64_t *y = QN_ALLOCN(p->nw, uint64_t);
    qn_bitboard tx = {0};
    int rc = scr && y ? kernel_row(p, i, y, scr) : QN_ENOMEM;

    if (rc == QN_OK && p->tr)
        rc = qn_bitboard_init(&tx, p->cw, p->ch);
    if (rc == QN_OK && !p->tr) {
        expand(p, out, NULL, y, scr);
    } else if (rc == QN_OK) {
        expand(p, &tx, NULL, y, scr);
        qn_bitboard_transpose(out, &tx);
        qn_bitboard_release(&tx);
    }
    free(y);
    free(scr);
    return rc;
}

/* ---- minimal presses ------------------------------------------------ */

/*
 * The d kernel generators chased together, one row at a time: gens[i] is
 * generator i's current row, stepped by gens_next.
 */
typedef struct kchase {
    const qn_plus_gf2 *p;
    unsigned d;
    uint64_t *rows; /* d x 3 rows: prev, cur, next */
} kchase;

/* QN_OK, or QN_ENOMEM (k->rows still to free). */
static int kchase_init(kchase *k, const qn_plus_gf2 *p, unsigned d,
                       uint64_t *scratch)
{
    k->p = p;
    k->d = d;
    if (!(k->rows = QN_ALLOCN((size_t)d * 3 * p->nw + 1, uint64_t)))
        return QN_ENOMEM;
    for (unsigned i = 0; i < d; i++)
        if (kernel_row(p, i, k->rows + ((size_t)i * 3 + 1) * p->nw, scratch) !=
            QN_OK)
            return QN_ENOMEM;
    return QN_OK;
}

static const uint64_t *kchase_row(const kchase *k, unsigned i)
{
    return k->rows + ((size_t)i * 3 + 1) * k->p->nw;
}

static void kchase_next(kchase *k)
{
    size_t nw = k->p->nw;

    for (unsigned i = 0; i < k->d; i++) {
        uint64_t *b = k->rows + (size_t)i * 3 * nw;
        step(k->p, b + 2 * nw, b + nw, b, NULL);
        memcpy(b, b + nw, nw * 8);
        memcpy(b + nw, b + 2 * nw, nw * 8);
    }
}

/* In-place Walsh-Hadamard transform of 2^d entries. */
static void wht(int32_t *f, unsigned d)
{
    for (size_t len = 1; len < ((size_t)1 << d); len <<= 1)
        for (size_t i = 0; i < ((size_t)1 << d); i += 2 * len)
            for (size_t j = i; j < i + len; j++) {
                int32_t a = f[j], b = f[j + len];
                f[j] = a + b;
                f[j + len] = a - b;
            }
}

/*
 * F[p] = (cells of pattern p with x = 0) - (with x = 1), and *ones the
 * presses of x: then the presses of x + sum a_i G_i are
 * ones + (sum F - WHT(F)(a)) / 2.
 */
static int histogram(const qn_plus_gf2 *p, const qn_bitboard *x, unsigned d,
                     int32_t *f, uint64_t *ones, uint64_t *scratch)
{
    kchase k;
    uint64_t blk[64];

    if (kchase_init(&k, p, d, scratch) != QN_OK) {
        free(k.rows);
        return QN_ENOMEM;
    }
    *ones = 0;
    for (int r = 0; r < p->ch; r++) {
        const uint64_t *xr = qn_bitboard_row(x, r);
        for (size_t j = 0; j < p->nw; j++) {
            uint64_t valid = j + 1 == p->nw ? p->tail : ~(uint64_t)0, any = 0;
            for (unsigned i = 0; i < d; i++)
                any |= blk[i] = kchase_row(&k, i)[j];
            *ones += (uint64_t)__builtin_popcountll(xr[j]);
            if (!any) {
                f[0] += __builtin_popcountll(valid & ~xr[j]) -
                        __builtin_popcountll(xr[j]);
                continue;
            }
            memset(blk + d, 0, (64 - d) * 8);
            qn_bits_transpose64(blk);
            for (int b = 0; b < 64; b++)
                if ((valid >> b) & 1)
                    f[blk[b]] += (xr[j] >> b) & 1 ? -1 : 1;
        }
        kchase_next(&k);
    }
    free(k.rows);
    return QN_OK;
}

/* Add sum of a_i G_i (bit i of a) to x, all in chase orientation. */
static int add_combination(const qn_plus_gf2 *p, qn_bitboard *x, uint64_t a,
                           unsigned d, uint64_t *scratch)
{
    uint64_t *y = QN_ALLOCN(p->nw, uint64_t), *g = QN_ALLOCN(p->nw, uint64_t);
    uint64_t *chs = QN_ALLOCN(p->nw * 3, uint64_t);
    int rc = y && g && chs ? QN_OK : QN_ENOMEM;

    for (unsigned i = 0; i < d && rc == QN_OK; i++)
        if ((a >> i) & 1) {
            rc = kernel_row(p, i, g, scratch);
            for (size_t j = 0; j < p->nw; j++)
                y[j] ^= g[j];
        }
    if (rc != QN_OK)
        goto done;
    /* the chase over s = 0 is linear in y: walk it and XOR row by row */
    memset(chs, 0, p->nw * 8);
    memcpy(chs + p->nw, y, p->nw * 8);
    for (int r = 0; r < p->ch; r++) {
        uint64_t *xr = qn_bitboard_row(x, r), *prev = chs, *cur = chs + p->nw;
        for (size_t j = 0; j < p->nw; j++)
            xr[j] ^= cur[j];
        step(p, chs + 2 * p->nw, cur, prev, NULL);
        memmove(chs, chs + p->nw, 2 * p->nw * 8);
    }
done:
    free(chs);
    free(g);
    free(y);
    return rc;
}

static int min_exact(const qn_plus_gf2 *p, qn_bitboard *x, unsigned d,
                     qn_plus_gf2_min *res, uint64_t *scratch)
{
    size_t n = (size_t)1 << d;
    int32_t *f = QN_ALLOCN(n, int32_t);
    uint64_t ones, best = UINT64_MAX, besta = 0, nopt = 0;
    int64_t total = 0;

    if (!f || histogram(p, x, d, f, &ones, scratch) != QN_OK) {
        free(f);
        return QN_ENOMEM;
    }
    for (size_t i = 0; i < n; i++)
        total += f[i];
    wht(f, d);
    for (size_t a = 0; a < n; a++) {
        uint64_t wgt = ones + (uint64_t)((total - f[a]) / 2);
        if (wgt < best)
            best = wgt, besta = a, nopt = 1;
        else if (wgt == best)
            nopt++;
    }
    free(f);
    if (add_combination(p, x, besta, d, scratch) != QN_OK)
        return QN_ENOMEM;
    res->exact = 1;
    res->presses = res->lower_bound = best;
    res->noptimal = nopt;
    return QN_OK;
}

/*
 * Beyond the exact limit: one greedy pass over the generators while the
 * budget lasts, and the lower bound from the cells none of them touches.
 */
static int min_greedy(const qn_plus_gf2 *p, qn_bitboard *x, unsigned d,
                      uint64_t budget, qn_plus_gf2_min *res, uint64_t *scratch)
{
    qn_bitboard g = {0}, u = {0};
    uint64_t cost = (uint64_t)p->nw * (uint64_t)p->ch, cur, spent = 0;
    unsigned i;
    int rc = QN_ENOMEM;

    if (qn_bitboard_init(&g, p->cw, p->ch) != QN_OK ||
        qn_bitboard_init(&u, p->cw, p->ch) != QN_OK)
        goto done;
    cur = qn_bitboard_count(x);
    for (i = 0; i < d && spent + 3 * cost <= budget; i++, spent += 3 * cost) {
        uint64_t *y = scratch + 4 * p->nw, with = 0;
        if (kernel_row(p, i, y, scratch) != QN_OK)
            goto done; /* x is still a solution */
        expand(p, &g, NULL, y, scratch);
        for (size_t j = 0; j < cost; j++) {
            with += (uint64_t)__builtin_popcountll(x->bits[j] ^ g.bits[j]);
            u.bits[j] |= g.bits[j];
        }
        if (with < cur) {
            for (size_t j = 0; j < cost; j++)
                x->bits[j] ^= g.bits[j];
            cur = with;
        }
    }
    res->exact = 0;
    res->presses = cur;
    res->noptimal = 0;
    res->lower_bound = 0;
    if (i == d) {
        uint64_t lb = 0;
        for (size_t j = 0; j < cost; j++)
            lb += (uint64_t)__builtin_popcountll(x->bits[j] & ~u.bits[j]);
        res->lower_bound = lb;
    }
    rc = QN_OK;
done:
    qn_bitboard_release(&g);
    qn_bitboard_release(&u);
    return rc;
}

int qn_plus_gf2_min_presses(const qn_plus_gf2 *p, qn_bitboard *x_out,
                            qn_plus_gf2_min *res, const qn_bitboard *s,
                            uint64_t budget, qn_err *err)
{
    qn_bitboard ts = {0}, tx = {0};
    const qn_bitboard *so = oriented(p, s, &ts);
    qn_bitboard *x = x_out;
    uint64_t *scr = QN_ALLOCN(p->nw * NSCRATCH, uint64_t);
    unsigned d = qn_plus_gf2_kernel_dim(p);
    int rc;

    memset(res, 0, sizeof(*res));
    res->kernel_dim = d;
    if (p->tr)
        x = &tx;
    if (!scr || !so || (p->tr && qn_bitboard_init(&tx, p->cw, p->ch)))
        rc = qn_err_nomem(err);
    else
        rc = solve_oriented(p, x, so, err);
    if (rc == QN_OK) {
        if (d == 0) {
            res->exact = 1;
            res->presses = res->lower_bound = qn_bitboard_count(x);
            res->noptimal = 1;
        } else if (d <= QN_PLUS_GF2_EXACT_DIM) {
            rc = min_exact(p, x, d, res, scr);
        } else {
            rc = min_greedy(p, x, d, budget ? budget : (uint64_t)1 << 28, res,
                            scr);
        }
        if (rc != QN_OK) {
            memset(res, 0, sizeof(*res));
            res->kernel_dim = d;
            rc = qn_err_nomem(err);
        } else if (p->tr) {
            qn_bitboard_transpose(x_out, &tx);
        }
    }
    qn_bitboard_release(&tx);
    qn_bitboard_release(&ts);
    free(scr);
    return rc;
}
