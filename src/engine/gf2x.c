/*
 * gf2x.c: GF(2)[x] arithmetic on bit-packed coefficients (see gf2x.h).
 */
#include "engine/gf2x.h"

#include <stdlib.h>
#include <string.h>

#include "base/mem.h"

void qn_gf2x_release(qn_gf2x *p)
{
    free(p->c);
    p->c = NULL;
    p->nw = 0;
    p->deg = -1;
}

/* Room for degree d, new words zeroed. */
static int reserve(qn_gf2x *p, long d)
{
    size_t need = (size_t)d / 64 + 1;
    uint64_t *c;

    if (need <= p->nw)
        return QN_OK;
    if (!(c = QN_REALLOCN(p->c, need, uint64_t)))
        return QN_ENOMEM;
    p->c = c;
    memset(p->c + p->nw, 0, (need - p->nw) * sizeof(uint64_t));
    p->nw = need;
    return QN_OK;
}

/* Lower deg past the zero top words and bits. */
static void normalize(qn_gf2x *p)
{
    long w = p->deg < 0 ? -1 : p->deg / 64;

    while (w >= 0 && p->c[w] == 0)
        w--;
    p->deg = w < 0 ? -1 : w * 64 + 63 - __builtin_clzll(p->c[w]);
}

void qn_gf2x_zero(qn_gf2x *p)
{
    if (p->deg >= 0)
        memset(p->c, 0, ((size_t)p->deg / 64 + 1) * sizeof(uint64_t));
    p->deg = -1;
}

int qn_gf2x_monomial(qn_gf2x *p, long e)
{
    qn_gf2x_zero(p);
    return qn_gf2x_flip(p, e);
}

int qn_gf2x_copy(qn_gf2x *dst, const qn_gf2x *src)
{
    qn_gf2x_zero(dst);
    if (src->deg < 0)
        return QN_OK;
    if (reserve(dst, src->deg) != QN_OK)
        return QN_ENOMEM;
    memcpy(dst->c, src->c, ((size_t)src->deg / 64 + 1) * sizeof(uint64_t));
    dst->deg = src->deg;
    return QN_OK;
}

int qn_gf2x_flip(qn_gf2x *p, long i)
{
    if (reserve(p, i) != QN_OK)
        return QN_ENOMEM;
    p->c[i >> 6] ^= (uint64_t)1 << (i & 63);
    if (i > p->deg)
        p->deg = i;
    else if (i == p->deg)
        normalize(p);
    return QN_OK;
}

int qn_gf2x_add_shifted(qn_gf2x *dst, const qn_gf2x *src, long s)
{
    long top;
    size_t nw;

    if (src->deg < 0)
        return QN_OK;
    top = src->deg + s;
    if (reserve(dst, top) != QN_OK)
        return QN_ENOMEM;
    nw = (size_t)top / 64 + 1;
    /* Only words s/64 .. top/64 can change; src's words past its degree
     * are zero, so the shifted XOR may read them freely up to nw. */
    {
        size_t q = (size_t)s / 64, n = nw - q;
        unsigned r = (unsigned)(s % 64);
        uint64_t *d = dst->c + q;
        for (size_t j = n; j-- > 0;) {
            uint64_t v = j < src->nw ? src->c[j] << r : 0;
            if (r && j > 0 && j - 1 < src->nw)
                v |= src->c[j - 1] >> (64 - r);
            d[j] ^= v;
        }
    }
    if (top > dst->deg)
        dst->deg = top;
    else if (top == dst->deg)
        normalize(dst);
    return QN_OK;
}

int qn_gf2x_mul(qn_gf2x *out, const qn_gf2x *a, const qn_gf2x *b)
{
    /* one shifted copy of the longer factor per term of the shorter */
    const qn_gf2x *sp = a->deg <= b->deg ? a : b, *dn = sp == a ? b : a;

    qn_gf2x_zero(out);
    if (a->deg < 0 || b->deg < 0)
        return QN_OK;
    /* room for the product first: the additions below never allocate */
    if (reserve(out, a->deg + b->deg) != QN_OK)
        return QN_ENOMEM;
    for (long i = 0; i <= sp->deg; i++)
        if (qn_gf2x_coeff(sp, i))
            qn_gf2x_add_shifted(out, dn, i);
    return QN_OK;
}

int qn_gf2x_divmod(qn_gf2x *q, qn_gf2x *r, const qn_gf2x *a, const qn_gf2x *b)
{
    if (r != a && qn_gf2x_copy(r, a) != QN_OK)
        return QN_ENOMEM;
    if (q)
        qn_gf2x_zero(q);
    while (r->deg >= b->deg) {
        long s = r->deg - b->deg;
        if (q && qn_gf2x_flip(q, s) != QN_OK)
            return QN_ENOMEM;
        qn_gf2x_add_shifted(r, b, s); /* r has room: deg b + s = deg r */
    }
    return QN_OK;
}

static void swap(qn_gf2x *a, qn_gf2x *b)
{
    qn_gf2x t = *a;

    *a = *b;
    *b = t;
}

/*
 * Euclid one leading term at a time: r0 -= x^d r1 cancels r0's top
 * coefficient, and the same step on s keeps s_i a = r_i (mod m).
 */
int qn_gf2x_gcdext(qn_gf2x *g, qn_gf2x *s, const qn_gf2x *a, const qn_gf2x *m)
{
    qn_gf2x r0 = QN_GF2X_INIT, r1 = QN_GF2X_INIT;
    qn_gf2x s0 = QN_GF2X_INIT, s1 = QN_GF2X_INIT;
    int rc = QN_ENOMEM;

    if (qn_gf2x_copy(&r0, m) != QN_OK ||
        qn_gf2x_divmod(NULL, &r1, a, m) != QN_OK ||
        qn_gf2x_monomial(&s1, 0) != QN_OK)
        goto done;
    while (r1.deg >= 0) {
        while (r0.deg >= r1.deg) {
            long d = r0.deg - r1.deg;
            qn_gf2x_add_shifted(&r0, &r1, d); /* no growth: d fits */
            if (qn_gf2x_add_shifted(&s0, &s1, d) != QN_OK)
                goto done;
        }
        swap(&r0, &r1);
        swap(&s0, &s1);
    }
    if (qn_gf2x_copy(g, &r0) == QN_OK &&
        qn_gf2x_divmod(NULL, s, &s0, m) == QN_OK)
        rc = QN_OK;
done:
    qn_gf2x_release(&r0);
    qn_gf2x_release(&r1);
    qn_gf2x_release(&s0);
    qn_gf2x_release(&s1);
    return rc;
}
