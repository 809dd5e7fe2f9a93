/*
 * zk.c: dense matrices over Z/k (qn_zmat) and the modular arithmetic the
 * factorisation files share: dot products mod q and inverses of units.
 * The factorisation itself is qn_zfact, built in zk_fact.c.
 */
#include "engine/zk.h"

#include <assert.h>
#include <stdlib.h>

#include "base/mem.h"
#include "zk_internal.h"

int qn_zmat_init(qn_zmat *m, int nrows, int ncols, unsigned k)
{
    assert(nrows >= 0 && ncols >= 0 && nrows <= (1 << 24) &&
           ncols <= (1 << 24));
    m->k = k;
    m->e = QN_ALLOCN((size_t)nrows * (size_t)ncols, uint8_t);
    if (!m->e) {
        m->nrows = m->ncols = 0;
        return QN_ENOMEM;
    }
    m->nrows = nrows;
    m->ncols = ncols;
    return QN_OK;
}

void qn_zmat_release(qn_zmat *m)
{
    free(m->e);
    m->e = NULL;
    m->nrows = m->ncols = 0;
}

/*
 * Products are below 2^16, so a uint32_t sum takes 2^16 terms before it
 * can wrap: reduce once per chunk, not per term.
 */
unsigned qn_zk__dotmod(const uint8_t *a, const uint8_t *b, size_t len,
                       unsigned q)
{
    unsigned acc = 0;

    while (len) {
        size_t chunk = len < 32768 ? len : 32768, i;
        uint32_t s0 = 0, s1 = 0, s2 = 0, s3 = 0;

        for (i = 0; i + 4 <= chunk; i += 4) {
            s0 += (uint32_t)a[i] * b[i];
            s1 += (uint32_t)a[i + 1] * b[i + 1];
            s2 += (uint32_t)a[i + 2] * b[i + 2];
            s3 += (uint32_t)a[i + 3] * b[i + 3];
        }
        for (; i < chunk; i++)
            s0 += (uint32_t)a[i] * b[i];
        acc = (unsigned)((acc + (uint64_t)s0 + s1 + s2 + s3) % q);
        a += chunk;
        b += chunk;
        len -= chunk;
    }
    return acc;
}

void qn_zmat_mul_vec(uint8_t *y, const qn_zmat *a, const uint8_t *x)
{
    int r;

    for (r = 0; r < a->nrows; r++)
        y[r] = (uint8_t)qn_zk__dotmod(a->e + (size_t)r * a->ncols, x,
                                      (size_t)a->ncols, a->k);
}

unsigned qn_zk__inv_mod(unsigned a, unsigned q)
{
    int r0 = (int)q, r1 = (int)(a % q), t0 = 0, t1 = 1;

    while (r1) {
        int qt = r0 / r1, tmp;

        tmp = r0 - qt * r1;
        r0 = r1;
        r1 = tmp;
        tmp = t0 - qt * t1;
        t0 = t1;
        t1 = tmp;
    }
    assert(r0 == 1);
    return (unsigned)(t0 < 0 ? t0 + (int)q : t0);
}
