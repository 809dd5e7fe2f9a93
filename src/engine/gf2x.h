/*
 * gf2x.h: polynomials over GF(2), 64 coefficients to a word (bit i of
 * word i / 64 is the coefficient of x^i), for the polynomial method of
 * plus_gf2.h. Plain schoolbook algorithms: every operation here costs
 * O(deg^2 / 64) word operations at most, which is what a board of side n
 * needs (n up to tens of thousands); nothing asymptotically faster is
 * attempted.
 *
 * A qn_gf2x owns its words. Every function writing a polynomial grows it
 * as needed and returns QN_OK, or QN_ENOMEM when it cannot (its output
 * then holds some value, still a valid polynomial to release or reuse);
 * outputs may not alias inputs unless the function says so.
 */
#ifndef QN_GF2X_H
#define QN_GF2X_H

#include <stddef.h>
#include <stdint.h>

#include "quench/common.h"

typedef struct qn_gf2x {
    uint64_t *c; /* coefficients, nw words; words past deg are zero */
    size_t nw;
    long deg; /* -1 for the zero polynomial */
} qn_gf2x;

#define QN_GF2X_INIT                                                           \
    {                                                                          \
        NULL, 0, -1                                                            \
    }

void qn_gf2x_release(qn_gf2x *p); /* frees and re-inits to zero */
void qn_gf2x_zero(qn_gf2x *p);
/* p = x^e (e >= 0). */
int qn_gf2x_monomial(qn_gf2x *p, long e);
int qn_gf2x_copy(qn_gf2x *dst, const qn_gf2x *src);

static inline int qn_gf2x_coeff(const qn_gf2x *p, long i)
{
    return i >= 0 && i <= p->deg ? (int)(p->c[i >> 6] >> (i & 63)) & 1 : 0;
}
/* Flip the coefficient of x^i (i >= 0). */
int qn_gf2x_flip(qn_gf2x *p, long i);

/* dst += src * x^s (s >= 0); dst may not alias src. */
int qn_gf2x_add_shifted(qn_gf2x *dst, const qn_gf2x *src, long s);
/* out = a * b. */
int qn_gf2x_mul(qn_gf2x *out, const qn_gf2x *a, const qn_gf2x *b);
/* q = a div b, r = a mod b (b != 0); q may be NULL; r may alias a. */
int qn_gf2x_divmod(qn_gf2x *q, qn_gf2x *r, const qn_gf2x *a, const qn_gf2x *b);
/*
 * g = gcd(a, m) and s with s * a = g (mod m), deg s < deg m (m != 0;
 * a is taken mod m first; a == 0 gives g = m, s = 0).
 */
int qn_gf2x_gcdext(qn_gf2x *g, qn_gf2x *s, const qn_gf2x *a, const qn_gf2x *m);

#endif
