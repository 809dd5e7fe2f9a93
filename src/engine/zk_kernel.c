/*
 * zk_kernel.c: the kernel generators and cokernel conditions of a Z/k
 * factorisation, found part by part from the stored factors and joined
 * across the prime-power parts with the CRT into invariant-factor form.
 */
#include "zk_internal.h"

#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

#include "base/mem.h"

/*
 * With this many generators or more, kernel_part and cokernel_part run
 * their substitutions for all of them at once, as row operations across a
 * (coordinate x generator) array; below it, one dot product per entry.
 */
#define BATCH_MIN 4

/*
 * Room for the generators (kernel, len = n) or conditions (cokernel,
 * len = m) of one part, and their orders, ascending: p^{v_i} for each
 * pivot i < rank with v_i > 0, then q for each of the len - rank columns
 * (rows) beyond the rank. Those last ones get their own coordinate, 1 at
 * perm[i] (pcol or prow); the coordinates of the pivots are left zero for
 * the substitutions. Sets *cnt_out to the count; QN_OK or QN_ENOMEM.
 */
static int new_gens(const struct part *pt, int len, const int *perm,
                    uint8_t **vec_out, unsigned **ord_out, size_t *cnt_out)
{
    const int rk = pt->rank;
    size_t cnt = 0, g = 0;
    uint8_t *vec;
    unsigned *ord;
    int i;

    for (i = 0; i < rk; i++)
        cnt += pt->val[i] > 0;
    cnt += (size_t)(len - rk);
    vec = *vec_out = QN_ALLOCN(cnt * (size_t)len + 1, uint8_t);
    ord = *ord_out = QN_ALLOCN(cnt + 1, unsigned);
    if (!vec || !ord)
        return QN_ENOMEM; /* the caller frees both */
    for (i = 0; i < rk; i++)
        if (pt->val[i])
            ord[g++] = pt->ppow[pt->val[i]];
    for (i = rk; i < len; i++, g++) {
        ord[g] = pt->q;
        vec[g * len + perm[i]] = 1;
    }
    *cnt_out = cnt;
    return QN_OK;
}

/* kernel_part for all cnt generators at once, by row operations. */
static int kernel_batch(const struct part *pt, int n, size_t cnt, uint8_t *gens)
{
    const unsigned q = pt->q;
    const int rk = pt->rank;
    const uint8_t *w = pt->w;
    /* z[j][g]: coordinate j < rank of generator g. */
    size_t ldz = (cnt + 63) & ~(size_t)31, len = (cnt + 31) & ~(size_t)31, g;
    uint8_t *z = QN_ALLOCN((size_t)rk * ldz, uint8_t);
    int i, j, c;

    if (!z)
        return QN_ENOMEM;

    for (g = 0, i = 0; i < rk; i++)
        if (pt->val[i])
            z[(size_t)i * ldz + g++] = (uint8_t)pt->ppow[pt->e - pt->val[i]];
    for (c = rk; c < n; c++, g++)
        for (j = 0; j < rk; j++)
            z[(size_t)j * ldz + g] = w[(size_t)j * pt->ld + c];
    for (j = rk - 1; j >= 0; j--) {
        const uint8_t *wr = w + (size_t)j * pt->ld;

        /* z_j += (-V[j][c]) z_c, as z_j -= (q - stored) z_c. */
        for (c = j + 1; c < rk; c++)
            if (wr[c])
                pt->rowop(z + (size_t)j * ldz, z + (size_t)c * ldz, len,
                          pt->tab + (size_t)(q - wr[c]) * 32, q);
    }
    for (g = 0; g < cnt; g++)
        for (c = 0; c < rk; c++)
            gens[g * n + pt->pcol[c]] = z[(size_t)c * ldz + g];
    free(z);
    return QN_OK;
}

/* kernel_part one generator at a time, one dot product per entry. */
static int kernel_each(const struct part *pt, int n, uint8_t *gens)
{
    const unsigned q = pt->q;
    const int rk = pt->rank;
    const uint8_t *w = pt->w;
    uint8_t *z = QN_ALLOCN((size_t)n + 1, uint8_t);
    size_t g;
    int i, j, c;

    if (!z)
        return QN_ENOMEM;

    for (g = 0, i = 0; i < rk; i++) {
        if (!pt->val[i])
            continue;
        memset(z, 0, (size_t)n);
        z[i] = (uint8_t)pt->ppow[pt->e - pt->val[i]];
        for (j = i - 1; j >= 0; j--)
            z[j] = (uint8_t)qn_zk__dotmod(w + (size_t)j * pt->ld + j + 1,
                                          z + j + 1, (size_t)(i - j), q);
        for (c = 0; c < rk; c++)
            gens[g * n + pt->pcol[c]] = z[c];
        g++;
    }
    for (i = rk; i < n; i++, g++) {
        memset(z, 0, (size_t)n);
        for (j = rk - 1; j >= 0; j--) {
            unsigned acc = qn_zk__dotmod(w + (size_t)j * pt->ld + j + 1,
                                         z + j + 1, (size_t)(rk - j - 1), q) +
                           w[(size_t)j * pt->ld + i];

            z[j] = (uint8_t)(acc >= q ? acc - q : acc);
        }
        for (c = 0; c < rk; c++)
            gens[g * n + pt->pcol[c]] = z[c];
    }
    free(z);
    return QN_OK;
}

/*
 * Kernel generators of one part, ascending order: with Q = Pc V^-1, column
 * i of Q scaled by p^{e - v_i} (i < rank, v_i > 0) has order p^{v_i}, and
 * columns c >= rank have order q. Q is invertible and D y = 0 iff
 * y_i in p^{e - v_i} Z/q (i < rank) with y_c free beyond, so these are
 * independent and generate the kernel. Each is z = V^-1 b by back
 * substitution, z_j = b_j + sum_{c > j} (-V[j][c]) z_c: for the scaled
 * column b = p^{e - v_i} e_i (so z_c = 0 beyond i), for a free column c0
 * b = e_{c0}, which puts the constant -V[j][c0] into every z_j, j < rank.
 * Sets *cnt the count; *gens_out holds count x n bytes (original column
 * order), *ord_out the orders (the caller frees both, also on
 * QN_ENOMEM).
 */
static int kernel_part(const struct part *pt, int n, uint8_t **gens_out,
                       unsigned **ord_out, size_t *cnt)
{
    if (new_gens(pt, n, pt->pcol, gens_out, ord_out, cnt) != QN_OK)
        return QN_ENOMEM;
    if (*cnt >= BATCH_MIN && pt->rank > 0)
        return kernel_batch(pt, n, *cnt, *gens_out);
    return kernel_each(pt, n, *gens_out);
}

/*
 * cokernel_part for all cnt conditions at once: x[j][g] = w_j of
 * condition g. Right-looking: once every l' > l has been pushed into row l
 * it is final, and it is pushed into the rows j < l along row l of the
 * stored -L (contiguous).
 */
static int cokernel_batch(const struct part *pt, int m, size_t cnt,
                          const unsigned *ord, uint8_t *cond)
{
    const unsigned q = pt->q;
    const int rk = pt->rank;
    const uint8_t *w = pt->w;
    size_t ldx = (cnt + 63) & ~(size_t)31, len = (cnt + 31) & ~(size_t)31, g;
    uint8_t *x = QN_ALLOCN((size_t)rk * ldx, uint8_t);
    int i, j, l;

    if (!x)
        return QN_ENOMEM;

    for (g = 0, i = 0; i < rk; i++)
        if (pt->val[i])
            x[(size_t)i * ldx + g++] = 1;
    for (i = rk; i < m; i++, g++)
        for (j = 0; j < rk; j++)
            x[(size_t)j * ldx + g] = w[(size_t)i * pt->ld + j];
    for (l = rk - 1; l > 0; l--) {
        const uint8_t *wr = w + (size_t)l * pt->ld;

        for (j = 0; j < l; j++)
            if (wr[j])
                pt->rowop(x + (size_t)j * ldx, x + (size_t)l * ldx, len,
                          pt->tab + (size_t)(q - wr[j]) * 32, q);
    }
    for (g = 0; g < cnt; g++)
        for (l = 0; l < rk; l++)
            cond[g * m + pt->prow[l]] =
                (uint8_t)(ord[g] == q ? x[(size_t)l * ldx + g]
                                      : x[(size_t)l * ldx + g] % ord[g]);
    free(x);
    return QN_OK;
}

/*
 * cokernel_part one condition at a time, right-looking as above: acc[j]
 * gathers w_l (-L[l][j]) along contiguous rows l of the stored -L, and
 * acc[l] is final (reduced to w_l) when row l's turn comes. Terms are
 * below 2^16, so the sums are reduced every 2^15 rows.
 */
static int cokernel_each(const struct part *pt, int m, const unsigned *ord,
                         uint8_t *cond)
{
    const unsigned q = pt->q;
    const int rk = pt->rank;
    const uint8_t *w = pt->w;
    uint32_t *acc = QN_ALLOCN((size_t)m + 1, uint32_t);
    size_t g;
    int i, j, l;

    if (!acc)
        return QN_ENOMEM;

    for (g = 0, i = 0; i < m; i++) {
        int top = i < rk ? i : rk; /* rows l < top still to push */

        if (i < rk && !pt->val[i])
            continue;
        memset(acc, 0, (size_t)m * sizeof(*acc));
        acc[i] = 1;
        if (i >= rk)
            for (j = 0; j < rk; j++)
                acc[j] = w[(size_t)i * pt->ld + j];
        for (l = top - (i < rk ? 0 : 1); l > 0; l--) {
            const uint8_t *wr = w + (size_t)l * pt->ld;
            uint32_t wl;

            if ((top - l) % 32768 == 32767)
                for (j = 0; j < l; j++)
                    acc[j] %= q;
            wl = acc[l] %= q;
            if (wl)
                for (j = 0; j < l; j++)
                    acc[j] += wl * wr[j];
        }
        if (top > 0)
            acc[0] %= q;
        for (l = 0; l < rk; l++)
            cond[g * m + pt->prow[l]] = (uint8_t)(acc[l] % ord[g]);
        g++;
    }
    free(acc);
    return QN_OK;
}

/*
 * Cokernel of one part, ascending order. s -> P s = L^-1 Pr s is a
 * bijection taking the image onto D (Z/q)^n, so the cokernel is
 * sum Z/p^{v_i} (i < rank, v_i > 0) plus (Z/q)^{m - rank}, and the
 * quotient map is s -> (row i of P) . s mod its order. Row i of L^-1 is the
 * w with w L = e_i: w_i = 1, w_j = 0 for j > i, and for j < i
 * w_j = sum_{l = j+1..i} w_l (-L[l][j]). Only columns j < rank of L are
 * nonzero, so for i >= rank the sum is the constant -L[i][j] plus terms
 * l < rank. Sets *cnt the count; *cond_out holds count x m bytes
 * (original row order, reduced mod the order), *ord_out the orders (the
 * caller frees both, also on QN_ENOMEM).
 */
static int cokernel_part(const struct part *pt, int m, uint8_t **cond_out,
                         unsigned **ord_out, size_t *cnt)
{
    if (new_gens(pt, m, pt->prow, cond_out, ord_out, cnt) != QN_OK)
        return QN_ENOMEM;
    if (*cnt >= BATCH_MIN && pt->rank > 0)
        return cokernel_batch(pt, m, *cnt, *ord_out, *cond_out);
    return cokernel_each(pt, m, *ord_out, *cond_out);
}

/* ---------------------------------------------------------------------- */
/* Joining the parts */

/*
 * Invariant-factor form from the parts' elementary divisors. Each part's
 * list is ascending; pairing the t-th largest of every part gives a cyclic
 * group of order prod ord_p (orders of distinct primes are coprime), and
 * since each part's t-th largest divides its (t-1)-th, the products form a
 * divisibility chain. The combined vector is sum_p e_p g_p mod k with e_p
 * the CRT idempotents, so it reduces to g_p mod q_p and to 0 modulo parts
 * that have no t-th element; its order is the product. For conditions the
 * same combination reduced mod the product d works: e_p is 1 mod q_p and 0
 * mod the other q's, hence also mod their divisors in d.
 */
static int join(const qn_zfact *f, size_t len, size_t cnt[], uint8_t *vec[],
                unsigned *ord[], bool reduce, uint8_t **vec_out,
                unsigned **ord_out, size_t *total_out)
{
    size_t total = 0, t, c;
    int pi;
    uint8_t *out;
    unsigned *oo, *acc;

    if (f->nparts == 1) { /* nothing to join: take the part's arrays */
        *vec_out = vec[0];
        *ord_out = ord[0];
        vec[0] = NULL;
        ord[0] = NULL;
        *total_out = cnt[0];
        return QN_OK;
    }
    for (pi = 0; pi < f->nparts; pi++)
        if (cnt[pi] > total)
            total = cnt[pi];
    acc = QN_ALLOCN(len + 1, unsigned);
    out = QN_ALLOCN(total * len + 1, uint8_t);
    oo = QN_ALLOCN(total + 1, unsigned);
    if (!acc || !out || !oo) {
        free(acc);
        free(out);
        free(oo);
        return QN_ENOMEM;
    }
    for (t = 0; t < total; t++) {
        size_t slot = total - 1 - t;
        unsigned o = 1;

        memset(acc, 0, len * sizeof(*acc));
        for (pi = 0; pi < f->nparts; pi++) {
            const uint8_t *g;

            if (cnt[pi] <= t)
                continue;
            g = vec[pi] + (cnt[pi] - 1 - t) * len;
            o *= ord[pi][cnt[pi] - 1 - t];
            for (c = 0; c < len; c++)
                acc[c] =
                    qn_zk__fastmod(acc[c] + f->crt[pi] * g[c], f->magic, f->k);
        }
        if (reduce && o != f->k) {
            uint64_t magic = qn_zk__fastmod_magic(o);

            for (c = 0; c < len; c++)
                out[slot * len + c] = (uint8_t)qn_zk__fastmod(acc[c], magic, o);
        } else {
            for (c = 0; c < len; c++)
                out[slot * len + c] = (uint8_t)acc[c];
        }
        oo[slot] = o;
    }
    free(acc);
    *vec_out = out;
    *ord_out = oo;
    *total_out = total;
    return QN_OK;
}

/* What join leaves of the parts' arrays (NULL where it took them). */
static void free_parts(int nparts, uint8_t *vec[], unsigned *ord[])
{
    int pi;

    for (pi = 0; pi < nparts; pi++) {
        free(vec[pi]);
        free(ord[pi]);
    }
}

int qn_zk__kernels(qn_zfact *f)
{
    uint8_t *vec[MAX_PARTS] = {0};
    unsigned *ord[MAX_PARTS] = {0};
    size_t cnt[MAX_PARTS];
    int pi, rc = QN_OK;

    for (pi = 0; pi < f->nparts && rc == QN_OK; pi++)
        rc = kernel_part(&f->part[pi], f->n, &vec[pi], &ord[pi], &cnt[pi]);
    if (rc == QN_OK)
        rc = join(f, (size_t)f->n, cnt, vec, ord, false, &f->ker, &f->kord,
                  &f->nker);
    free_parts(f->nparts, vec, ord);
    if (rc != QN_OK)
        return rc;

    for (pi = 0; pi < f->nparts; pi++) {
        vec[pi] = NULL;
        ord[pi] = NULL;
    }
    for (pi = 0; pi < f->nparts && rc == QN_OK; pi++)
        rc = cokernel_part(&f->part[pi], f->m, &vec[pi], &ord[pi], &cnt[pi]);
    if (rc == QN_OK)
        rc = join(f, (size_t)f->m, cnt, vec, ord, true, &f->cond, &f->cord,
                  &f->ncok);
    free_parts(f->nparts, vec, ord);
    return rc;
}
