/*
 * zk_fact.c: qn_zfact, the Smith-form factorisation of a matrix over Z/k:
 * k split into its prime-power parts (each factorised in zk_smith.c), the
 * CRT idempotents that join them, the invariants, and the accessors.
 */
#include "engine/zk.h"

#include <assert.h>
#include <stdlib.h>

#include "base/mem.h"
#include "zk_internal.h"

int qn_zfact_new(qn_zfact **out, const qn_zmat *a, qn_err *err)
{
    qn_zfact *f;
    unsigned k = a->k, rest, p;
    size_t i;
    int pi, mn;

    *out = NULL;
    if (k < 2 || k > 255)
        return qn_err_set(err, QN_EINVAL, 0, 0,
                          "modulus must be 2..255, got %u", k);
    assert(a->nrows >= 0 && a->ncols >= 0);
    assert(a->e || (size_t)a->nrows * a->ncols == 0);
    if (!(f = QN_ALLOC(qn_zfact)))
        return qn_err_nomem(err);
    f->m = a->nrows;
    f->n = a->ncols;
    f->k = k;
    f->magic = qn_zk__fastmod_magic(k);
    mn = f->m < f->n ? f->m : f->n;
    for (rest = k, p = 2; rest > 1; p++) {
        struct part *pt;
        unsigned j;

        if (rest % p)
            continue;
        pt = &f->part[f->nparts++];
        pt->p = p;
        pt->q = 1;
        for (pt->e = 0; rest % p == 0; pt->e++) {
            rest /= p;
            pt->q *= p;
        }
        for (j = 0, pt->ppow[0] = 1; j < pt->e; j++)
            pt->ppow[j + 1] = pt->ppow[j] * p;
    }
    for (pi = 0; pi < f->nparts; pi++) {
        unsigned q = f->part[pi].q, co = k / q;

        f->crt[pi] = co * qn_zk__inv_mod(co % q, q) % k;
        if (qn_zk__factor_part(&f->part[pi], a) != QN_OK)
            goto nomem;
    }

    f->ninv = (size_t)mn;
    if (!(f->inv = QN_ALLOCN((size_t)mn + 1, unsigned)))
        goto nomem;
    for (i = 0; i < (size_t)mn; i++) {
        unsigned d = 1;

        for (pi = 0; pi < f->nparts; pi++) {
            const struct part *pt = &f->part[pi];

            d *= i < (size_t)pt->rank ? pt->ppow[pt->val[i]] : pt->q;
        }
        f->inv[i] = d;
    }

    if (qn_zk__kernels(f) != QN_OK)
        goto nomem;
    *out = f;
    return QN_OK;
nomem:
    qn_zfact_free(f);
    return qn_err_nomem(err);
}

void qn_zfact_free(qn_zfact *f)
{
    int pi;

    if (!f)
        return;
    for (pi = 0; pi < f->nparts; pi++) {
        struct part *pt = &f->part[pi];

        free(pt->w);
        free(pt->prow);
        free(pt->pcol);
        free(pt->lbeg);
        free(pt->vend);
        free(pt->val);
        free(pt->uinv);
        free(pt->tab);
    }
    free(f->ker);
    free(f->kord);
    free(f->inv);
    free(f->cord);
    free(f->cond);
    free(f);
}

int qn_zfact_nrows(const qn_zfact *f)
{
    return f->m;
}

int qn_zfact_ncols(const qn_zfact *f)
{
    return f->n;
}

unsigned qn_zfact_modulus(const qn_zfact *f)
{
    return f->k;
}

size_t qn_zfact_kernel_ngens(const qn_zfact *f)
{
    return f->nker;
}

const uint8_t *qn_zfact_kernel_gen(const qn_zfact *f, size_t i)
{
    assert(i < f->nker);
    return f->ker + i * (size_t)f->n;
}

unsigned qn_zfact_kernel_order(const qn_zfact *f, size_t i)
{
    assert(i < f->nker);
    return f->kord[i];
}

size_t qn_zfact_ninvariants(const qn_zfact *f)
{
    return f->ninv;
}

const unsigned *qn_zfact_invariants(const qn_zfact *f)
{
    return f->inv;
}

size_t qn_zfact_cokernel_ngens(const qn_zfact *f)
{
    return f->ncok;
}

const unsigned *qn_zfact_cokernel_orders(const qn_zfact *f)
{
    return f->cord;
}

const uint8_t *qn_zfact_condition(const qn_zfact *f, size_t j)
{
    assert(j < f->ncok);
    return f->cond + j * (size_t)f->m;
}

void qn_zfact_quotient(const qn_zfact *f, unsigned *out, const uint8_t *s)
{
    size_t j;

    for (j = 0; j < f->ncok; j++)
        out[j] = qn_zk__dotmod(f->cond + j * (size_t)f->m, s, (size_t)f->m,
                               f->cord[j]);
}
