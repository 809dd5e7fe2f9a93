/*
 * plus_gfp.c: Sutner's polynomial method for plus-shaped stencils over GF(p)
 * (see plus_gfp.h for the method). Everything works in the chase orientation;
 * the public functions transpose states and press patterns at the boundary.
 */
#include "bigboard/plus_gfp.h"

#include <assert.h>
#include <stdlib.h>
#include <string.h>

#include "base/mem.h"

/*
 * Delayed reduction. Coefficients are < p <= 251, so a product is at most
 * 250^2 = 62500, and a uint32 accumulator takes 68719 of them. Every
 * accumulating loop below (polynomial product, division by a monic
 * polynomial) adds at most "chase width" products to one entry, hence the
 * width limit.
 */
_Static_assert((uint64_t)QN_PLUS_GFP_MAX_WIDTH * 250 * 250 + 250 <= UINT32_MAX,
               "uint32 accumulators overflow at the width limit");

/*
 * Barrett reduction with m = ceil(2^32 / p): writing x = q p + r and
 * m = 2^32 / p + e (0 <= e < 1), x m / 2^32 = q + r / p + x e / 2^32, and
 * r / p <= (p - 1) / p, so the floor is q whenever x < 2^32 / p (over
 * 17 million for p = 251). Cheaper than a division by a runtime p, and the
 * compiler can vectorise it.
 */
static inline uint32_t bar(uint32_t x, uint32_t p, uint32_t m)
{
    return x - p * (uint32_t)(((uint64_t)x * m) >> 32);
}

/* Any uint32: fold the high half first ((x >> 16) r16 + low < 65535 p). */
static inline uint32_t red32(uint32_t x, uint32_t p, uint32_t m, uint32_t r16)
{
    return bar((x >> 16) * r16 + (x & 0xffffu), p, m);
}

/*
 * The hot loops. GCC's -O2 vectoriser (the "very cheap" cost model) only
 * takes a loop whose trip count is a known multiple of the vector length
 * and whose arrays cannot alias, so each helper runs its body over
 * n & ~15 elements with restrict pointers and finishes with a scalar tail.
 */
#define VEC_SPLIT(n, i, body)                                                  \
    do {                                                                       \
        size_t i = 0, n16_ = (n) & ~(size_t)15;                                \
        for (; i < n16_; i++)                                                  \
            body;                                                              \
        for (; i < (n); i++)                                                   \
            body;                                                              \
    } while (0)

/* out[i] = k0 a[i] + k1 b[i] + k2 c[i] (mod p); coefficients < p. */
static void lin3(uint8_t *restrict out, const uint8_t *restrict a, uint32_t k0,
                 const uint8_t *restrict b, uint32_t k1,
                 const uint8_t *restrict c, uint32_t k2, size_t n, uint32_t p,
                 uint32_t m)
{
    VEC_SPLIT(n, i,
              out[i] = (uint8_t)bar(k0 * a[i] + k1 * b[i] + k2 * c[i], p, m));
}

/*
 * Kept out of line: inlined into its single caller, the restrict
 * qualifiers are lost (the rows share one buffer) and the loop is no longer
 * vectorised.
 */
#if defined(__GNUC__)
#define NOINLINE __attribute__((noinline))
#else
#define NOINLINE
#endif

/* out[i] = k0 a[i] + k1 (l[i] + r[i]) + k2 c[i] + k3 d[i] (mod p): one
 * chase row (at most 312500 before the reduction). */
NOINLINE static void lin5(uint8_t *restrict out, const uint8_t *restrict a,
                          uint32_t k0, const uint8_t *restrict l,
                          const uint8_t *restrict r, uint32_t k1,
                          const uint8_t *restrict c, uint32_t k2,
                          const uint8_t *restrict d, uint32_t k3, size_t n,
                          uint32_t p, uint32_t m)
{
    VEC_SPLIT(n, i,
              out[i] = (uint8_t)bar(k0 * a[i] + k1 * (uint32_t)(l[i] + r[i]) +
                                        k2 * c[i] + k3 * d[i],
                                    p, m));
}

/* acc[i] += t d[i]: the delayed-reduction multiply-add. */
static void axpy(uint32_t *restrict acc, const uint8_t *restrict d, size_t n,
                 uint32_t t)
{
    VEC_SPLIT(n, i, acc[i] += t * d[i]);
}

/* acc[i] mod p for any uint32 entries, in place. */
static void reduce_all(uint32_t *acc, size_t n, uint32_t p, uint32_t m,
                       uint32_t r16)
{
    VEC_SPLIT(n, i, acc[i] = red32(acc[i], p, m, r16));
}

struct qn_plus_gfp {
    int w, h;                   /* the caller's board */
    int cw, ch;                 /* chase orientation: width, height */
    int transposed;             /* 1: chase cell (i, r) is caller cell (r, i) */
    uint32_t p, m, r16;         /* modulus, ceil(2^32 / p), 2^16 mod p */
    uint8_t inv[256];           /* inv[a] = a^-1 mod p for 0 < a < p */
    uint32_t alpha, beta, b, c; /* chase-orientation amounts, beta, b != 0 */
    int noff;                   /* merged offsets, amounts 1..p-1 */
    int off[5][3]; /* caller orientation: for the independent replay */
    uint8_t *q;    /* monic Q_w: cw + 1 coefficients */
    int dg, dqg;   /* deg g and deg Q_w / g; dg + dqg = cw */
    uint8_t *g;    /* monic gcd(P_h mod Q_w, Q_w): dg + 1 coefficients */
    uint8_t *qg;   /* monic Q_w / g: dqg + 1 coefficients */
    uint8_t *ainv; /* (a / g)^-1 mod Q_w / g: dqg coefficients */
};

static uint32_t mulm(const qn_plus_gfp *c, uint32_t a, uint32_t b)
{
    return a * b % c->p;
}

static uint32_t negm(const qn_plus_gfp *c, uint32_t a)
{
    return a ? c->p - a : 0;
}

/* ---- The chase --------------------------------------------------------- */

/*
 * x_0 = y, x_{r+1} = -b^-1 (T x_r + c x_{r-1} + s_r) for r = 0..h-1, all
 * in one multiply-add per neighbour with the factor -b^-1 folded into the
 * coefficients. s is the state in chase orientation. out (NULL, or s itself
 * for an in-place chase) gets x_r in row r right after s_r is consumed, so
 * the chase needs only three rows of scratch (buf: 3 (w + 2) bytes, rows
 * padded with a zero on each side so the neighbours need no tests). z gets
 * the formal row x_h: b x_h is the residual of the last row's equation, so
 * the presses solve the state iff z = 0.
 */
static void chase(const qn_plus_gfp *c, uint8_t *out, const uint8_t *s,
                  const uint8_t *y, uint8_t *z, uint8_t *buf)
{
    size_t w = (size_t)c->cw;
    uint32_t p = c->p, m = c->m, mb = negm(c, c->inv[c->b]);
    uint32_t ca = mulm(c, mb, c->alpha), cb = mulm(c, mb, c->beta);
    uint32_t cc = mulm(c, mb, c->c);
    uint8_t *pr = buf, *cu = buf + (w + 2), *nx = buf + 2 * (w + 2);

    memset(buf, 0, 3 * (w + 2));
    memcpy(cu + 1, y, w);
    for (int r = 0; r < c->ch; r++) {
        lin5(nx + 1, cu + 1, ca, cu, cu + 2, cb, pr + 1, cc, s + (size_t)r * w,
             mb, w, p, m);
        if (out)
            memcpy(out + (size_t)r * w, cu + 1, w);
        uint8_t *t = pr;
        pr = cu, cu = nx, nx = t;
    }
    memcpy(z, cu + 1, w);
}

/* ---- Vectors as polynomials in T -------------------------------------- */

/*
 * f_v = sum v_j Q_j by Clenshaw: with L = beta^-1 (x - alpha), Q_{j+1} =
 * L Q_j - Q_{j-1}, so b_k = v_k + L b_{k+1} - b_{k+2} (b_w = b_{w+1} = 0)
 * ends with b_0 = f_v. deg b_k <= w - 1 - k, so the total is w^2 / 2
 * multiply-adds. buf: 3 (w + 1) bytes; polynomials are stored shifted by
 * one (coefficient j at index j + 1) so that "times x" reads index j.
 */
static void to_poly(const qn_plus_gfp *c, uint8_t *f, const uint8_t *v,
                    uint8_t *buf)
{
    int w = c->cw;
    uint32_t p = c->p, m = c->m, lb = c->inv[c->beta];
    uint32_t l0 = mulm(c, negm(c, c->alpha), lb);
    uint8_t *b1 = buf, *b2 = buf + (w + 1), *bn = buf + 2 * (w + 1);

    /* Each buffer is rewritten on a range at least as long as before, so
     * the entries past a b_k's degree are still the initial zeros. */
    memset(buf, 0, 3 * ((size_t)w + 1));
    for (int k = w - 1; k >= 0; k--) {
        int d = w - 1 - k;
        lin3(bn + 1, b1, lb, b1 + 1, l0, b2 + 1, p - 1, (size_t)d + 1, p, m);
        bn[1] = (uint8_t)bar(bn[1] + (uint32_t)v[k], p, m);
        uint8_t *t = b2;
        b2 = b1, b1 = bn, bn = t;
    }
    memcpy(f, b1 + 1, (size_t)w);
}

/*
 * y = f(T) e_0 by Horner, u <- T u + f_k e_0 (deg f = df < w). u is
 * supported on 0..df - k after the step for f_k, so the work is df^2 / 2.
 * buf: 2 (w + 2) bytes, rows padded with zeros at both ends.
 */
static void from_poly(const qn_plus_gfp *c, uint8_t *y, const uint8_t *f,
                      int df, uint8_t *buf)
{
    int w = c->cw;
    uint32_t p = c->p, m = c->m, al = c->alpha, be = c->beta;
    uint8_t *u = buf, *t = buf + (w + 2);

    memset(buf, 0, 2 * ((size_t)w + 2));
    for (int k = df; k >= 0; k--) {
        int hi = df - k < w - 1 ? df - k : w - 1;
        lin3(t + 1, u + 1, al, u, be, u + 2, be, (size_t)hi + 1, p, m);
        t[1] = (uint8_t)bar(t[1] + (uint32_t)f[k], p, m);
        uint8_t *x = u;
        u = t, t = x;
    }
    memcpy(y, u + 1, (size_t)w);
}

/* ---- Polynomials over GF(p) ------------------------------------------- */

/* Degree of a[0..n) (-1 for zero). */
static int degree(const uint8_t *a, int n)
{
    while (n > 0 && a[n - 1] == 0)
        n--;
    return n - 1;
}

/*
 * acc[0..n) := acc mod d, d monic of degree dd (entries < p on entry, and
 * reduced below dd on exit); the quotient's n - dd coefficients go to quo
 * when it is not NULL. Reduction is delayed: entry i receives at most dd
 * products (one per quotient coefficient above it), within uint32.
 */
static void divrem(const qn_plus_gfp *c, uint32_t *acc, int n, const uint8_t *d,
                   int dd, uint8_t *quo)
{
    uint32_t p = c->p;

    for (int i = n - 1; i >= dd; i--) {
        uint32_t t = red32(acc[i], p, c->m, c->r16);
        uint32_t *a = acc + (i - dd);
        if (quo)
            quo[i - dd] = (uint8_t)t;
        acc[i] = 0;
        if (t == 0)
            continue;
        axpy(a, d, (size_t)dd, p - t);
    }
    reduce_all(acc, (size_t)(dd < n ? dd : n), p, c->m, c->r16);
}

/* acc[0..la + lb - 1) := a[0..la) b[0..lb), reduced; nothing if either is
 * empty. Each entry sums at most min(la, lb) <= width + 1 products. */
static void mul(const qn_plus_gfp *c, uint32_t *acc, const uint8_t *a, int la,
                const uint8_t *b, int lb)
{
    if (la <= 0 || lb <= 0)
        return;
    if (la > lb) {
        const uint8_t *t = a;
        int n = la;
        a = b, la = lb, b = t, lb = n;
    }
    memset(acc, 0, ((size_t)la + lb - 1) * sizeof(*acc));
    for (int i = 0; i < la; i++)
        if (a[i])
            axpy(acc + i, b, (size_t)lb, a[i]);
    reduce_all(acc, (size_t)la + lb - 1, c->p, c->m, c->r16);
}

/* The monic minimal polynomial of T: D_j = beta^j Q_j = det(x - T_j)
 * satisfies D_{j+1} = (x - alpha) D_j - beta^2 D_{j-1}. */
static int min_poly(qn_plus_gfp *c)
{
    int w = c->cw;
    uint32_t p = c->p, m = c->m, na = negm(c, c->alpha);
    uint32_t nb2 = negm(c, mulm(c, c->beta, c->beta));
    uint8_t *buf = QN_ALLOCN(3 * ((size_t)w + 2), uint8_t);
    uint8_t *d0 = buf, *d1 = buf + (w + 2), *dn = buf + 2 * (w + 2);

    c->q = QN_ALLOCN((size_t)w + 1, uint8_t);
    if (!buf || !c->q) {
        free(buf);
        return QN_ENOMEM; /* c->q is freed with c */
    }

    d1[1] = 1; /* D_0 = 1, D_{-1} = 0; shifted by one like to_poly */
    for (int j = 0; j < w; j++) {
        lin3(dn + 1, d1, 1, d1 + 1, na, d0 + 1, nb2, (size_t)j + 2, p, m);
        uint8_t *t = d0;
        d0 = d1, d1 = dn, dn = t;
    }
    memcpy(c->q, d1 + 1, (size_t)w + 1);
    assert(c->q[w] == 1);
    free(buf);
    return QN_OK;
}

/*
 * a = P_h mod Q_w, with P_{r+1} = -b^-1 (x P_r + c P_{r-1}): x P_r has
 * degree <= w with top coefficient P_r[w - 1], and subtracting that times
 * the monic Q_w keeps every P_r below degree w. h steps of w multiply-adds,
 * the cost of one chase.
 */
static int chase_poly(const qn_plus_gfp *c, uint8_t *a)
{
    int w = c->cw;
    uint32_t p = c->p, m = c->m, mb = negm(c, c->inv[c->b]);
    uint32_t mbc = mulm(c, mb, c->c);
    uint8_t *buf = QN_ALLOCN(3 * ((size_t)w + 1), uint8_t);
    uint8_t *pr = buf, *cu = buf + (w + 1), *nx = buf + 2 * (w + 1);
    const uint8_t *q = c->q;

    if (!buf)
        return QN_ENOMEM;

    cu[1] = 1; /* P_0 = 1, P_{-1} = 0; shifted by one */
    for (int r = 0; r < c->ch; r++) {
        uint32_t u = mulm(c, mb, negm(c, cu[w]));
        lin3(nx + 1, cu, mb, pr + 1, mbc, q, u, (size_t)w, p, m);
        uint8_t *t = pr;
        pr = cu, cu = nx, nx = t;
    }
    memcpy(a, cu + 1, (size_t)w);
    free(buf);
    return QN_OK;
}

/* a[0..n) *= s (mod p). */
static void scale(const qn_plus_gfp *c, uint8_t *a, int n, uint32_t s)
{
    for (int i = 0; i < n; i++)
        a[i] = (uint8_t)mulm(c, a[i], s);
}

/*
 * g = gcd(a, Q_w) (monic) and ainv = (a / g)^-1 mod Q_w / g, by the
 * extended Euclidean algorithm keeping s_i a = r_i (mod Q_w): at the end
 * s a + t Q_w = g, so s (a / g) = 1 mod Q_w / g. Each step divides by a
 * monic r_{i+1} and forms s_{i+2} = s_i - quo s_{i+1}; the degrees
 * telescope, so the whole run is O(w^2).
 */
static int euclid(qn_plus_gfp *c, const uint8_t *a)
{
    int w = c->cw, n = w + 1;
    uint8_t *buf = QN_ALLOCN(7 * (size_t)n, uint8_t);
    uint8_t *r0 = buf, *r1 = buf + n, *r2 = buf + 2 * n, *s0 = buf + 3 * n;
    uint8_t *s1 = buf + 4 * n, *s2 = buf + 5 * n, *quo = buf + 6 * n;
    uint32_t *acc = QN_ALLOCN(2 * (size_t)n, uint32_t);
    int d0 = w, d1, e0 = -1, e1 = 0; /* degrees of r0, r1, s0, s1 */
    int rc = QN_ENOMEM;

    if (!buf || !acc)
        goto done;

    memcpy(r0, c->q, (size_t)n);
    memcpy(r1, a, (size_t)w);
    d1 = degree(r1, w);
    s1[0] = 1;
    while (d1 >= 0) {
        uint32_t l = c->inv[r1[d1]], p = c->p;
        scale(c, r1, d1 + 1, l);
        scale(c, s1, e1 + 1, l);
        for (int i = 0; i <= d0; i++)
            acc[i] = r0[i];
        divrem(c, acc, d0 + 1, r1, d1, quo);
        for (int i = 0; i < d1; i++)
            r2[i] = (uint8_t)acc[i];
        int nq = d0 - d1 + 1, e2 = nq - 1 + e1; /* deg quo s1 */
        assert(e2 < n);
        mul(c, acc, quo, nq, s1, e1 + 1);
        for (int i = 0; i <= e2; i++) {
            uint32_t v = (i <= e0 ? s0[i] : 0) + p - acc[i];
            s2[i] = (uint8_t)(v >= p ? v - p : v);
        }
        uint8_t *t = r0;
        r0 = r1, r1 = r2, r2 = t, t = s0, s0 = s1, s1 = s2, s2 = t;
        d0 = d1, d1 = degree(r1, d1), e0 = e1, e1 = degree(s1, e2 + 1);
    }
    c->dg = d0;
    c->dqg = w - d0;
    c->g = QN_ALLOCN((size_t)d0 + 1, uint8_t);
    c->qg = QN_ALLOCN((size_t)c->dqg + 1, uint8_t);
    c->ainv = QN_ALLOCN((size_t)c->dqg + 1, uint8_t);
    if (!c->g || !c->qg || !c->ainv)
        goto done; /* freed with c */
    memcpy(c->g, r0, (size_t)d0 + 1);

    for (int i = 0; i <= w; i++)
        acc[i] = c->q[i];
    divrem(c, acc, n, c->g, c->dg, c->qg);
    for (int i = 0; i < c->dg; i++)
        assert(acc[i] == 0);

    for (int i = 0; i <= e0; i++)
        acc[i] = s0[i];
    divrem(c, acc, e0 + 1, c->qg, c->dqg, NULL);
    for (int i = 0; i < c->dqg && i <= e0; i++)
        c->ainv[i] = (uint8_t)acc[i];
    rc = QN_OK;
done:
    free(acc);
    free(buf);
    return rc;
}

/* ---- Orientation, shape, set-up --------------------------------------- */

/* dst (cols x rows) = the transpose of src (rows x cols), in cache blocks. */
static void transpose(uint8_t *dst, const uint8_t *src, int rows, int cols)
{
    enum { B = 64 };

    for (int r0 = 0; r0 < rows; r0 += B)
        for (int c0 = 0; c0 < cols; c0 += B) {
            int r1 = r0 + B < rows ? r0 + B : rows;
            int c1 = c0 + B < cols ? c0 + B : cols;
            for (int r = r0; r < r1; r++)
                for (int k = c0; k < c1; k++)
                    dst[(size_t)k * rows + r] = src[(size_t)r * cols + k];
        }
}

static int is_prime(unsigned p)
{
    if (p < 2)
        return 0;
    for (unsigned d = 2; d * d <= p; d++)
        if (p % d == 0)
            return 0;
    return 1;
}

/*
 * Read alpha, beta, b, c from the merged offsets in orientation tr (1:
 * (dx, dy) -> (dy, dx)); QN_EINVAL names the first misfit in the caller's
 * coordinates.
 */
static int shape(qn_plus_gfp *c, int tr, qn_err *err)
{
    uint32_t amt[3][3] = {{0}}; /* [dy + 1][dx + 1], chase orientation */
    int cw = tr ? c->h : c->w;
    int hx = tr ? 0 : 1, hy = tr ? 1 : 0; /* chase (1, 0) for the caller */

    for (int o = 0; o < c->noff; o++) {
        int dx = c->off[o][tr], dy = c->off[o][!tr];
        if (dx < -1 || dx > 1 || dy < -1 || dy > 1 || (dx && dy))
            return qn_err_set(err, QN_EINVAL, 0, 0,
                              "offset (%d, %d) is not part of a plus shape",
                              c->off[o][0], c->off[o][1]);
        amt[dy + 1][dx + 1] = (uint32_t)c->off[o][2];
    }
    if (amt[1][0] != amt[1][2])
        return qn_err_set(err, QN_EINVAL, 0, 0,
                          "offsets (%d, %d) and (%d, %d) need the same "
                          "amount, got %u and %u",
                          hx, hy, -hx, -hy, amt[1][2], amt[1][0]);
    if (amt[1][0] == 0 && cw > 1)
        return qn_err_set(err, QN_EINVAL, 0, 0,
                          "offsets (%d, %d) and (%d, %d) need a non-zero "
                          "amount",
                          hx, hy, -hx, -hy);
    if (amt[0][1] == 0)
        return qn_err_set(err, QN_EINVAL, 0, 0,
                          "offset (%d, %d) needs a non-zero amount", -hy, -hx);
    c->transposed = tr;
    c->cw = cw;
    c->ch = tr ? c->w : c->h;
    c->alpha = amt[1][1];
    c->beta = amt[1][0] ? amt[1][0] : 1; /* width 1: S = 0, any beta */
    c->b = amt[0][1];
    c->c = amt[2][1];
    return QN_OK;
}

/* Merge repeated offsets into c->off, amounts mod p, zero amounts dropped;
 * QN_EINVAL if more than five distinct offsets survive (not a plus). */
static int merge(qn_plus_gfp *c, const int (*offsets)[3], size_t noffsets,
                 qn_err *err)
{
    int(*m)[3] = qn_calloc(noffsets + 1, sizeof(int[3]));
    int nm = 0, rc = QN_OK;

    if (!m)
        return qn_err_nomem(err);

    for (size_t o = 0; o < noffsets; o++) {
        int a = (int)(((long long)offsets[o][2] % c->p + c->p) % c->p), k;
        for (k = 0; k < nm; k++)
            if (m[k][0] == offsets[o][0] && m[k][1] == offsets[o][1])
                break;
        if (k == nm) {
            m[nm][0] = offsets[o][0];
            m[nm][1] = offsets[o][1];
            m[nm++][2] = 0;
        }
        m[k][2] = (int)((m[k][2] + (unsigned)a) % c->p);
    }
    for (int k = 0; k < nm;)
        if (m[k][2] == 0)
            memcpy(m[k], m[--nm], sizeof(m[k]));
        else
            k++;
    for (int k = 0; k < nm; k++) {
        int dx = m[k][0], dy = m[k][1];
        if (dx < -1 || dx > 1 || dy < -1 || dy > 1 || (dx && dy)) {
            rc = qn_err_set(err, QN_EINVAL, 0, 0,
                            "offset (%d, %d) is not part of a plus shape", dx,
                            dy);
            break;
        }
    }
    if (rc == QN_OK) { /* at most the five plus offsets now */
        assert(nm <= 5);
        memcpy(c->off, m, (size_t)nm * sizeof(m[0]));
        c->noff = nm;
    }
    free(m);
    return rc;
}

int qn_plus_gfp_new(qn_plus_gfp **out, int w, int h, unsigned p,
                    const int (*offsets)[3], size_t noffsets, qn_err *err)
{
    qn_plus_gfp *c;
    int rc, pref;

    *out = NULL;
    if (p > 251 || !is_prime(p))
        return qn_err_set(err, QN_EINVAL, 0, 0,
                          "modulus must be a prime in 2..251, got %u", p);
    if (w < 1 || h < 1)
        return qn_err_set(err, QN_EINVAL, 0, 0,
                          "board must be at least 1x1, got %dx%d", w, h);
    if ((long long)w * h > QN_PLUS_GFP_MAX_CELLS)
        return qn_err_set(err, QN_ELIMIT, 0, 0,
                          "board %dx%d has more than %d cells", w, h,
                          QN_PLUS_GFP_MAX_CELLS);
    if (!(c = QN_ALLOC(qn_plus_gfp)))
        return qn_err_nomem(err);
    c->w = w, c->h = h, c->p = p;
    c->m = (uint32_t)((((uint64_t)1 << 32) + p - 1) / p);
    c->r16 = (1u << 16) % p;
    for (unsigned a = 1; a < p; a++)
        for (unsigned x = 1; x < p; x++)
            if (a * x % p == 1)
                c->inv[a] = (uint8_t)x;
    rc = merge(c, offsets, noffsets, err);
    if (rc == QN_OK) {
        pref = h < w;
        rc = shape(c, pref, err);
        if (rc && shape(c, !pref, NULL) == QN_OK) {
            qn_err_clear(err); /* the first refusal no longer applies */
            rc = QN_OK;
        }
    }
    if (rc == QN_OK && c->cw > QN_PLUS_GFP_MAX_WIDTH)
        rc =
            qn_err_set(err, QN_ELIMIT, 0, 0, "chase width %d over the limit %d",
                       c->cw, QN_PLUS_GFP_MAX_WIDTH);
    if (rc) {
        free(c);
        return rc;
    }

    uint8_t *a = QN_ALLOCN((size_t)c->cw, uint8_t);
    rc = a && min_poly(c) == QN_OK && chase_poly(c, a) == QN_OK &&
                 euclid(c, a) == QN_OK
             ? QN_OK
             : QN_ENOMEM;
    free(a);
    if (rc != QN_OK) {
        qn_plus_gfp_free(c);
        return qn_err_nomem(err);
    }
    *out = c;
    return QN_OK;
}

void qn_plus_gfp_free(qn_plus_gfp *c)
{
    if (!c)
        return;
    free(c->ainv);
    free(c->qg);
    free(c->g);
    free(c->q);
    free(c);
}

int qn_plus_gfp_width(const qn_plus_gfp *c)
{
    return c->cw;
}
int qn_plus_gfp_transposed(const qn_plus_gfp *c)
{
    return c->transposed;
}
size_t qn_plus_gfp_kernel_dim(const qn_plus_gfp *c)
{
    return (size_t)c->dg;
}

/* ---- Queries ------------------------------------------------------------ */

/*
 * 1 if A x + s = 0, straight from the merged stencil in the caller's
 * orientation: no chase, no polynomial, no transpose is shared with the
 * solver, so this is an independent check. O(cells * |stencil|). Only
 * asserted: 1 (nothing checked) when out of memory.
 */
static int replays(const qn_plus_gfp *c, const uint8_t *x, const uint8_t *s)
{
    size_t w = (size_t)c->w;
    uint32_t *acc = QN_ALLOCN(w, uint32_t), p = c->p, m = c->m, bad = 0;

    if (!acc)
        return 1;

    for (int ty = 0; ty < c->h; ty++) {
        for (size_t i = 0; i < w; i++)
            acc[i] = s ? s[ty * w + i] : 0;
        for (int o = 0; o < c->noff; o++) {
            int dx = c->off[o][0], sy = ty - c->off[o][1];
            size_t lo = dx > 0 ? (size_t)dx : 0;
            size_t hi = dx < 0 ? w - (size_t)-dx : w;
            if (sy >= 0 && sy < c->h && lo < hi) /* target i gets x[i - dx] */
                axpy(acc + lo, x + (size_t)sy * w + lo - dx, hi - lo,
                     (uint32_t)c->off[o][2]);
        }
        VEC_SPLIT(w, i, bad |= bar(acc[i], p, m));
    }
    free(acc);
    return bad == 0;
}

int qn_plus_gfp_solve(const qn_plus_gfp *c, uint8_t *x_out, const uint8_t *s,
                      qn_err *err)
{
    size_t cells = (size_t)c->w * c->h, w = (size_t)c->cw;
    uint8_t *buf = QN_ALLOCN(3 * (w + 2) + 4 * w + 2, uint8_t);
    uint8_t *rows = buf, *y = rows + 3 * (w + 2), *z = y + w, *f = z + w;
    uint8_t *fg = f + w + 1;
    uint32_t *acc = QN_ALLOCN(2 * w + 1, uint32_t);
    uint8_t *st = NULL; /* the state in chase orientation, if transposed */
    const uint8_t *sc = s;
    int rc = QN_OK;

    if (c->transposed)
        st = QN_ALLOCN(cells, uint8_t);
    if (!buf || !acc || (c->transposed && !st)) {
        rc = qn_err_nomem(err);
        goto done;
    }
    if (c->transposed) {
        transpose(st, s, c->h, c->w);
        sc = st;
    }
    /* P_h(T) y = -z: f = f_{-z} must be a multiple of g. */
    memset(y, 0, w);
    chase(c, NULL, sc, y, z, rows);
    for (size_t i = 0; i < w; i++)
        z[i] = (uint8_t)negm(c, z[i]);
    to_poly(c, f, z, rows);
    for (size_t i = 0; i < w; i++)
        acc[i] = f[i];
    divrem(c, acc, (int)w, c->g, c->dg, fg);
    for (int i = 0; i < c->dg; i++)
        if (acc[i]) {
            rc = qn_err_set(err, QN_EUNSOLVABLE, 0, 0, "state has no solution");
            goto done;
        }
    /* f_y = (f / g) (a / g)^-1 mod Q_w / g, then y = f_y(T) e_0. */
    memset(f, 0, w);
    if (c->dqg > 0) {
        mul(c, acc, fg, c->dqg, c->ainv, c->dqg);
        divrem(c, acc, 2 * c->dqg - 1, c->qg, c->dqg, NULL);
        for (int i = 0; i < c->dqg; i++)
            f[i] = (uint8_t)acc[i];
    }
    from_poly(c, y, f, degree(f, c->dqg), rows);
    chase(c, st ? st : x_out, sc, y, z, rows); /* in place if transposed */
    for (size_t i = 0; i < w; i++)
        assert(z[i] == 0);
    if (st)
        transpose(x_out, st, c->w, c->h);
    assert(replays(c, x_out, s));
done:
    free(st);
    free(acc);
    free(buf);
    return rc;
}

int qn_plus_gfp_kernel_gen(const qn_plus_gfp *c, size_t i, uint8_t *x_out)
{
    size_t w = (size_t)c->cw, cells = (size_t)c->w * c->h;
    uint8_t *buf = QN_ALLOCN(3 * (w + 2) + 3 * w, uint8_t);
    uint8_t *rows = buf, *y = rows + 3 * (w + 2), *z = y + w, *f = z + w;
    uint8_t *board = c->transposed ? QN_ALLOCN(cells, uint8_t) : x_out;

    assert(i < (size_t)c->dg);
    if (!buf || !board) {
        free(buf);
        if (board != x_out)
            free(board);
        return QN_ENOMEM;
    }
    /* x^i Q_w / g has degree i + dqg < w: the i-th kernel basis element */
    memcpy(f + i, c->qg, (size_t)c->dqg + 1);
    from_poly(c, y, f, (int)i + c->dqg, rows);
    memset(board, 0, cells);
    chase(c, board, board, y, z, rows); /* over the zero state, in place */
    for (size_t j = 0; j < w; j++)
        assert(z[j] == 0);
    if (c->transposed) {
        transpose(x_out, board, c->w, c->h);
        free(board);
    }
    assert(replays(c, x_out, NULL));
    free(buf);
    return QN_OK;
}
