/*
 * human_share.c: the exact shares of the technique ladder (human.h).
 * A chase from side s is linear: it leaves the residual B_s d on the last
 * row for the need d, and it clears d exactly when B_s d = 0, so the
 * states it clears are the subgroup ker B_s (all of them solvable: a
 * cleared state is A times the chase's presses). Its share of the
 * solvable states is |ker B_s| / |im A| = |coker A| / |im B_s| (for one
 * side in closed form, top_share); the union
 * over sides is counted by inclusion-exclusion over the kernels of the
 * stacked B_s. A side's table is the image of its first-row presses
 * under the chase: |im Q_s| patterns, the zero one among them.
 */
#include <stdlib.h>
#include <string.h>

#include "base/mem.h"
#include "human_internal.h"

static uint64_t gcd64(uint64_t a, uint64_t b)
{
    while (b) {
        uint64_t t = a % b;
        a = b, b = t;
    }
    return a;
}

/* B_s, nlast x n row-major: column i is the residual of the need e_i.
 * NULL when memory ran out. */
static uint8_t *residual_matrix(const qn_human *h, const qn_human_side *s)
{
    int n = h->n;
    uint8_t *b = QN_ALLOCN((size_t)s->nlast * (size_t)n + 1, uint8_t);
    uint8_t *need = qn_malloc((size_t)n + 1);
    if (!b || !need) {
        free(b), free(need);
        return NULL;
    }
    for (int i = 0; i < n; i++) {
        memset(need, 0, (size_t)n);
        need[i] = 1;
        qn_human__chase(h, s, need);
        for (int l = 0; l < s->nlast; l++)
            b[(size_t)l * n + i] = need[s->last[l]];
    }
    free(need);
    return b;
}

/* |im M| for the rows x n matrix m; QN_ELIMIT past 64 bits. */
static int image_size(const qn_human *h, const uint8_t *m, int rows,
                      uint64_t *out, qn_err *err)
{
    qn_system *sys = NULL;
    int rc = qn_system_new(&sys, m, rows, h->n, h->k, err);
    if (rc == QN_OK)
        rc = qn_system_group_size_u64(sys, QN_IMAGE, out);
    qn_system_free(sys);
    return rc;
}

/* The share of the union of the chases of the sides in `mask`. */
static int union_share(const qn_human *h, uint8_t *const *b, unsigned mask,
                       uint64_t coker, qn_human_share *out, qn_err *err)
{
    uint64_t im[1u << QN_HUMAN_MAX_SIDES], lcm = 1;
    int n = h->n;
    unsigned sub;

    out->known = 0;
    for (sub = mask; sub; sub = (sub - 1) & mask) {
        int rows = 0, rc;
        for (size_t w = 0; w < h->nsides; w++)
            if (sub >> w & 1)
                rows += h->side[w].nlast;
        uint8_t *m = qn_malloc((size_t)rows * (size_t)n + 1);
        if (!m)
            return qn_err_nomem(err);
        rows = 0;
        for (size_t w = 0; w < h->nsides; w++)
            if (sub >> w & 1) {
                size_t bytes = (size_t)h->side[w].nlast * (size_t)n;
                memcpy(m + (size_t)rows * n, b[w], bytes);
                rows += h->side[w].nlast;
            }
        rc = image_size(h, m, rows, &im[sub], err);
        free(m);
        if (rc == QN_ELIMIT)
            return QN_OK;
        if (rc != QN_OK)
            return rc;
        uint64_t g = gcd64(lcm, im[sub]);
        if (__builtin_mul_overflow(lcm / g, im[sub], &lcm))
            return QN_OK;
    }
    /* share = coker * sum (-1)^(|S|+1) (lcm / im_S) / lcm */
    int64_t sum = 0;
    for (sub = mask; sub; sub = (sub - 1) & mask) {
        int64_t t = (int64_t)(lcm / im[sub]);
        if (lcm > INT64_MAX)
            return QN_OK;
        sum += __builtin_popcount(sub) & 1 ? t : -t;
    }
    uint64_t num = (uint64_t)sum, den = lcm, g = gcd64(num, den);
    num /= g ? g : 1, den /= g ? g : 1;
    g = gcd64(coker, den);
    den /= g;
    if (__builtin_mul_overflow(num, coker / g, &num))
        return QN_OK;
    out->known = 1, out->num = num, out->den = den;
    if (!num)
        out->den = 1;
    return QN_OK;
}

/*
 * One side alone, in closed form: the chase's presses x (on the pivots)
 * and the need d = A x determine each other (the rows but the last are a
 * unit triangular system), so the chase clears k^nseq states and its
 * share is k^nseq / |im A| = |coker A| / k^nlast.
 */
static void top_share(const qn_human *h, const qn_human_side *s, uint64_t coker,
                      qn_human_share *out)
{
    uint64_t rem = coker, den = 1;
    out->known = 0;
    for (int i = 0; i < s->nlast; i++) {
        if (__builtin_mul_overflow(den, (uint64_t)h->k, &den))
            return;
        uint64_t g = gcd64(den, rem);
        den /= g, rem /= g;
    }
    out->known = 1, out->num = rem, out->den = den;
}

int qn_human_shares_compute(const qn_human *h, qn_human_shares *out,
                            qn_err *err)
{
    const qn_system *sys = qn_solver_system(h->solver);
    uint8_t *b[QN_HUMAN_MAX_SIDES] = {0};
    uint64_t coker;
    unsigned all = 0;
    int rc = QN_OK;

    memset(out, 0, sizeof(*out));
    out->top.den = out->any.den = 1;
    if (qn_system_group_size_u64(sys, QN_COKERNEL, &coker) != QN_OK)
        return QN_OK; /* nothing is known */
    for (size_t w = 0; w < h->nsides; w++)
        if (h->side[w].chases) {
            if (!(b[w] = residual_matrix(h, &h->side[w])))
                rc = qn_err_nomem(err);
            all |= 1u << w;
        }
    out->top.known = out->any.known = 1;
    if (h->nsides && h->side[0].chases) {
        const qn_human_side *s = &h->side[0];
        uint64_t im;
        top_share(h, s, coker, &out->top);
        out->has_table = 1;
        if (rc == QN_OK &&
            qn_system_group_size_u64(s->table, QN_IMAGE, &im) == QN_OK)
            out->table_known = 1, out->table_patterns = im - 1;
    }
    if (rc == QN_OK && all) {
        if (h->n <= QN_HUMAN_MAX_UNION_CELLS)
            rc = union_share(h, b, all, coker, &out->any, err);
        else
            out->any.known = 0;
    }
    for (size_t w = 0; w < h->nsides; w++)
        free(b[w]);
    return rc;
}
