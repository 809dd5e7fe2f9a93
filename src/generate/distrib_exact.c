/*
 * distrib_exact.c: the exact distribution of minimal press counts from
 * the structure of A (distrib_exact.h): the plan counts of an invertible
 * A in closed form, or the cosets of a small kernel counted by the
 * classes of cells its generators cannot tell apart. Counts are
 * unsigned integers of a fixed number of 32-bit limbs, wide enough for
 * k^n and a little more.
 */
#include "generate/distrib_exact.h"

#include <assert.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "base/mem.h"

typedef uint32_t limb;

struct qn_exact_dist {
    const char *method;
    size_t len; /* counts for 0..len-1 presses */
    int nl;     /* limbs per count */
    limb *c;    /* len * nl */
    double *share;
};

/* Work done by the closed form before it gives up: terms times limbs. */
#define MAX_POLY_WORK ((uint64_t)1 << 28)

/* ---------------------------------------------------------------------
 * Fixed-width unsigned integers, nl limbs, least significant first.
 */
static void big_addmul(limb *a, const limb *b, uint32_t m, int nl)
{
    uint64_t carry = 0;

    for (int i = 0; i < nl; i++) {
        uint64_t t = (uint64_t)b[i] * m + a[i] + carry;
        a[i] = (limb)t;
        carry = t >> 32;
    }
    assert(!carry);
}

static void big_add(limb *a, const limb *b, int nl)
{
    big_addmul(a, b, 1, nl);
}

/* a -= b, with a >= b */
static void big_sub(limb *a, const limb *b, int nl)
{
    uint64_t borrow = 0;

    for (int i = 0; i < nl; i++) {
        uint64_t t = (uint64_t)a[i] - b[i] - borrow;
        a[i] = (limb)t;
        borrow = (t >> 32) & 1;
    }
    assert(!borrow);
}

/* a /= d; returns the remainder */
static uint32_t big_div(limb *a, uint32_t d, int nl)
{
    uint64_t r = 0;

    for (int i = nl - 1; i >= 0; i--) {
        uint64_t t = (r << 32) | a[i];
        a[i] = (limb)(t / d);
        r = t % d;
    }
    return (uint32_t)r;
}

static int big_used(const limb *a, int nl)
{
    while (nl > 0 && !a[nl - 1])
        nl--;
    return nl;
}

/* acc += a * b */
static void big_muladd(limb *acc, const limb *a, const limb *b, int nl)
{
    int na = big_used(a, nl), nb = big_used(b, nl);

    for (int i = 0; i < na; i++) {
        uint64_t carry = 0;
        int j;
        if (!a[i])
            continue;
        for (j = 0; j < nb && i + j < nl; j++) {
            uint64_t t = (uint64_t)a[i] * b[j] + acc[i + j] + carry;
            acc[i + j] = (limb)t;
            carry = t >> 32;
        }
        for (j += i; carry && j < nl; j++) {
            uint64_t t = (uint64_t)acc[j] + carry;
            acc[j] = (limb)t;
            carry = t >> 32;
        }
        assert(!carry);
    }
}

static double big_double(const limb *a, int nl)
{
    double v = 0;

    for (int i = nl - 1; i >= 0; i--)
        v = v * 4294967296.0 + a[i];
    return v;
}

/* Limbs for any count up to k^n times 2^64. */
static int limbs_for(int n, unsigned k)
{
    return (int)((double)n * log2((double)k) / 32.0) + 3;
}

/* ---------------------------------------------------------------------
 * The plans of n cells by weight: the coefficients p_w of (1 + x + ... +
 * x^(k-1))^n, len n (k - 1) + 1, by the recurrence that P' Q = n Q' P
 * gives: (w + 1) p_{w+1} = sum_{i=1}^{k-1} (n i - w + i - 1) p_{w+1-i}
 * (k = 2: (w + 1) p_{w+1} = (n - w) p_w, the binomials). QN_OK, QN_ELIMIT
 * when the work would pass MAX_POLY_WORK (no message), or QN_ENOMEM.
 */
static int plan_counts(limb **out, size_t *len_out, int n, unsigned k, int nl)
{
    size_t len = (size_t)n * (k - 1) + 1;
    limb *p, *pos, *neg;

    if ((uint64_t)len * (k - 1) * (uint64_t)nl > MAX_POLY_WORK)
        return QN_ELIMIT;
    p = QN_ALLOCN(len * nl, limb);
    pos = QN_ALLOCN(2 * (size_t)nl, limb);
    if (!p || !pos) {
        free(p);
        free(pos);
        return QN_ENOMEM;
    }
    neg = pos + nl;
    p[0] = 1;
    for (size_t w = 0; w + 1 < len; w++) {
        memset(pos, 0, 2 * (size_t)nl * sizeof(limb));
        for (size_t i = 1; i < k && i <= w + 1; i++) {
            long long coef =
                (long long)n * (long long)i - (long long)w + (long long)i - 1;
            const limb *src = p + (w + 1 - i) * nl;
            if (coef > 0)
                big_addmul(pos, src, (uint32_t)coef, nl);
            else if (coef < 0)
                big_addmul(neg, src, (uint32_t)-coef, nl);
        }
        big_sub(pos, neg, nl);
        {
            uint32_t r = big_div(pos, (uint32_t)(w + 1), nl);
            assert(!r);
            (void)r;
        }
        memcpy(p + (w + 1) * nl, pos, nl * sizeof(limb));
    }
    free(pos);
    *out = p, *len_out = len;
    return QN_OK;
}

/* ---------------------------------------------------------------------
 * Kernel classes.
 */

/* The reachable weight vectors: an open-addressing table of keys (nK
 * weights each) and their plan counts (nl limbs each). */
typedef struct wtable {
    size_t cap, n, nK;
    int nl;
    uint32_t *keys; /* cap * nK */
    limb *counts;   /* cap * nl */
    unsigned char *used;
} wtable;

static void wt_release(wtable *t)
{
    free(t->keys);
    free(t->counts);
    free(t->used);
    memset(t, 0, sizeof(*t));
}

/* QN_OK, or QN_ENOMEM with t empty (releasable). */
static int wt_init(wtable *t, size_t cap, size_t nK, int nl)
{
    t->cap = cap, t->n = 0, t->nK = nK, t->nl = nl;
    t->keys = QN_ALLOCN(cap * nK, uint32_t);
    t->counts = QN_ALLOCN(cap * (size_t)nl, limb);
    t->used = QN_ALLOCN(cap, unsigned char);
    if (t->keys && t->counts && t->used)
        return QN_OK;
    wt_release(t);
    return QN_ENOMEM;
}

static uint64_t key_hash(const uint32_t *key, size_t nK)
{
    uint64_t h = 1469598103934665603u;

    for (size_t i = 0; i < nK; i++)
        h = (h ^ key[i]) * 1099511628211u;
    return h ^ (h >> 29);
}

static int wt_grow(wtable *t);

/* The count of key, added if new (zero); NULL when out of memory (t as
 * it was). */
static limb *wt_slot(wtable *t, const uint32_t *key)
{
    size_t i;

    if (2 * (t->n + 1) > t->cap && wt_grow(t) != QN_OK)
        return NULL;
    i = (size_t)(key_hash(key, t->nK) & (t->cap - 1));
    while (t->used[i] &&
           memcmp(t->keys + i * t->nK, key, t->nK * sizeof(uint32_t)))
        i = (i + 1) & (t->cap - 1);
    if (!t->used[i]) {
        t->used[i] = 1;
        t->n++;
        memcpy(t->keys + i * t->nK, key, t->nK * sizeof(uint32_t));
    }
    return t->counts + i * (size_t)t->nl;
}

/* Twice the room (the new table never grows while it is filled). */
static int wt_grow(wtable *t)
{
    wtable old = *t;

    if (wt_init(t, old.cap * 2, old.nK, old.nl) != QN_OK) {
        *t = old;
        return QN_ENOMEM;
    }
    for (size_t i = 0; i < old.cap; i++)
        if (old.used[i])
            memcpy(wt_slot(t, old.keys + i * old.nK),
                   old.counts + i * (size_t)old.nl, old.nl * sizeof(limb));
    wt_release(&old);
    return QN_OK;
}

/* One class: its cells' count and, for each kernel element, the amount
 * that element adds to each of them. */
typedef struct kclass {
    int m;
    uint8_t *shift; /* nK */
} kclass;

/* The classes of cells by their column over the generators; the zero
 * class's size in *m0, the number of non-zero classes in *nc_out (*out
 * holds n, each freed with its shift). QN_OK or QN_ENOMEM (*out NULL). */
static int find_classes(kclass **out, size_t *nc_out, int *m0,
                        const qn_system *sys, size_t nK)
{
    int n = qn_system_ncols(sys), rc = QN_OK;
    size_t d = qn_system_kernel_ngens(sys), nc = 0;
    unsigned k = qn_system_modulus(sys);
    uint8_t *col = QN_ALLOCN((size_t)n * (d ? d : 1), uint8_t);
    int *rep = QN_ALLOCN((size_t)n, int);
    kclass *cls = QN_ALLOCN((size_t)n, kclass);

    *out = NULL;
    *nc_out = 0;
    *m0 = 0;
    if (!col || !rep || !cls) {
        rc = QN_ENOMEM;
        nc = 0;
        goto out;
    }
    for (int i = 0; i < n; i++) {
        uint8_t *ci = col + (size_t)i * d;
        int zero = 1;
        size_t c;
        for (size_t j = 0; j < d; j++)
            if ((ci[j] = qn_system_kernel_gen(sys, j)[i]))
                zero = 0;
        if (zero) {
            (*m0)++;
            continue;
        }
        for (c = 0; c < nc; c++)
            if (!memcmp(col + (size_t)rep[c] * d, ci, d))
                break;
        if (c == nc)
            rep[nc++] = i;
        cls[c].m++;
    }
    for (size_t c = 0; c < nc; c++) {
        const uint8_t *ci = col + (size_t)rep[c] * d;
        if (!(cls[c].shift = QN_ALLOCN(nK, uint8_t))) {
            rc = QN_ENOMEM;
            break;
        }
        /* element e in mixed radix over the orders, generator 0 fastest */
        for (size_t e = 0; e < nK; e++) {
            size_t rest = e;
            unsigned v = 0;
            for (size_t j = 0; j < d; j++) {
                unsigned o = qn_system_kernel_order(sys, j);
                v = (v + (unsigned)(rest % o) * ci[j]) % k;
                rest /= o;
            }
            cls[c].shift[e] = (uint8_t)v;
        }
    }
out:
    free(col);
    free(rep);
    if (rc != QN_OK) {
        for (size_t c = 0; c < nc; c++)
            free(cls[c].shift);
        free(cls);
        return rc;
    }
    *out = cls;
    *nc_out = nc;
    return QN_OK;
}

/* A class's profiles: how many of its m cells hold each value 0..k-1,
 * with the number of ways (a multinomial) and the weight under each
 * shift t (wt[t] = sum_r a_r ((r + t) mod k)). */
typedef struct profiles {
    size_t n;
    limb *ways;   /* n * nl */
    uint32_t *wt; /* n * k */
} profiles;

/* C(m + k - 1, k - 1), or SIZE_MAX past lim */
static size_t nprofiles(int m, unsigned k, size_t lim)
{
    double v = 1;

    for (unsigned i = 1; i < k; i++) {
        v = v * (double)(m + i) / (double)i;
        if (v > (double)lim)
            return SIZE_MAX;
    }
    return (size_t)(v + 0.5);
}

/* QN_OK, or QN_ENOMEM with p's arrays NULL. */
static int build_profiles(profiles *p, int m, unsigned k, int nl,
                          const limb *binom_rows, size_t row_len)
{
    int a[256];
    size_t i = 0;
    int r;
    limb *tmp = QN_ALLOCN((size_t)nl, limb);

    p->n = nprofiles(m, k, SIZE_MAX / 2);
    p->ways = QN_ALLOCN(p->n * (size_t)nl, limb);
    p->wt = QN_ALLOCN(p->n * k, uint32_t);
    if (!tmp || !p->ways || !p->wt) {
        free(tmp);
        free(p->ways);
        free(p->wt);
        p->ways = NULL, p->wt = NULL;
        return QN_ENOMEM;
    }
    /* an odometer over a_0..a_{k-2}; a_{k-1} takes the rest */
    memset(a, 0, sizeof(a));
    for (;;) {
        limb *w = p->ways + i * (size_t)nl;
        int left = m, sum = 0;
        for (r = 0; r < (int)k - 1; r++)
            sum += a[r];
        a[k - 1] = m - sum;
        w[0] = 1;
        /* the multinomial: prod_r C(left, a_r), left shrinking */
        for (r = 0; r < (int)k; r++) {
            memset(tmp, 0, nl * sizeof(limb));
            big_muladd(tmp, w,
                       binom_rows + ((size_t)left * row_len + a[r]) * nl, nl);
            memcpy(w, tmp, nl * sizeof(limb));
            left -= a[r];
        }
        for (unsigned t = 0; t < k; t++) {
            uint32_t s = 0;
            for (r = 0; r < (int)k; r++)
                s += (uint32_t)a[r] * ((r + t) % k);
            p->wt[i * k + t] = s;
        }
        i++;
        for (r = 0; r < (int)k - 1; r++) {
            a[r]++, sum++;
            if (sum <= m)
                break;
            sum -= a[r];
            a[r] = 0;
        }
        if (r == (int)k - 1)
            break;
    }
    assert(i == p->n);
    free(tmp);
    return QN_OK;
}

/* Binomials C(i, j) for 0 <= j <= i <= m as bignums, row length m + 1;
 * NULL when out of memory. */
static limb *binomials(int m, int nl)
{
    size_t row = (size_t)m + 1;
    limb *b = QN_ALLOCN(row * row * (size_t)nl, limb);

    if (!b)
        return NULL;
    for (int i = 0; i <= m; i++) {
        b[((size_t)i * row) * nl] = 1;
        for (int j = 1; j <= i; j++) {
            limb *c = b + ((size_t)i * row + j) * nl;
            memcpy(c, b + ((size_t)(i - 1) * row + j - 1) * nl,
                   nl * sizeof(limb));
            big_add(c, b + ((size_t)(i - 1) * row + j) * nl, nl);
        }
    }
    return b;
}

static int kernel_classes(qn_exact_dist *d, const qn_system *sys, size_t nK,
                          qn_err *err)
{
    unsigned k = qn_system_modulus(sys);
    int n = qn_system_ncols(sys), nl = d->nl, m0, maxm = 0, rc = QN_OK;
    kclass *cls = NULL;
    size_t nc = 0, qlen, hlen;
    wtable cur, next;
    uint32_t *key = QN_ALLOCN(nK, uint32_t);
    limb *binom = NULL, *q = NULL, *hist = NULL, *prod, *slot;

    memset(&cur, 0, sizeof(cur));
    if (!key || find_classes(&cls, &nc, &m0, sys, nK) != QN_OK ||
        wt_init(&cur, 16, nK, nl) != QN_OK) {
        rc = qn_err_nomem(err);
        goto done;
    }
    for (size_t c = 0; c < nc; c++)
        maxm = cls[c].m > maxm ? cls[c].m : maxm;
    wt_slot(&cur, key)[0] = 1; /* the zero vector: one empty plan (room) */
    if ((uint64_t)(maxm + 1) * (uint64_t)(maxm + 1) * (uint64_t)nl >
        QN_EXACT_MAX_WORK) {
        rc = qn_err_set(err, QN_ELIMIT, 0, 0,
                        "a class of %d cells is too big to count", maxm);
        goto done;
    }
    if ((rc = plan_counts(&q, &qlen, m0, k, nl)) != QN_OK) {
        if (rc == QN_ENOMEM)
            rc = qn_err_nomem(err);
        else
            rc =
                qn_err_set(err, QN_ELIMIT, 0, 0,
                           "the closed form for %d free cells is too long", m0);
        goto done;
    }
    if (!(binom = binomials(maxm, nl))) {
        rc = qn_err_nomem(err);
        goto done;
    }
    for (size_t c = 0; c < nc && rc == QN_OK; c++) {
        size_t np = nprofiles(cls[c].m, k, (size_t)QN_EXACT_MAX_WORK);
        profiles p;
        if (np == SIZE_MAX ||
            (uint64_t)cur.n * np * (nK + (uint64_t)nl) > QN_EXACT_MAX_WORK) {
            rc = qn_err_set(err, QN_ELIMIT, 0, 0,
                            "the kernel's %zu classes of cells have too many "
                            "profiles to count",
                            nc);
            break;
        }
        if (build_profiles(&p, cls[c].m, k, nl, binom, (size_t)maxm + 1) !=
            QN_OK) {
            rc = qn_err_nomem(err);
            break;
        }
        if (wt_init(&next, 16, nK, nl) != QN_OK)
            rc = qn_err_nomem(err);
        for (size_t s = 0; s < cur.cap && rc == QN_OK; s++) {
            const uint32_t *sk = cur.keys + s * nK;
            const limb *sc = cur.counts + s * (size_t)nl;
            if (!cur.used[s])
                continue;
            for (size_t i = 0; i < p.n; i++) {
                const uint32_t *wt = p.wt + i * k;
                for (size_t e = 0; e < nK; e++)
                    key[e] = sk[e] + wt[cls[c].shift[e]];
                if (!(slot = wt_slot(&next, key))) {
                    rc = qn_err_nomem(err);
                    break;
                }
                big_muladd(slot, sc, p.ways + i * (size_t)nl, nl);
            }
        }
        free(p.ways);
        free(p.wt);
        wt_release(&cur);
        cur = next;
    }
    if (rc != QN_OK)
        goto done;
    /* each vector's least weight, then the free cells convolved in */
    hlen = (size_t)n * (k - 1) + 1;
    hist = QN_ALLOCN(hlen * (size_t)nl, limb);
    d->c = QN_ALLOCN(hlen * (size_t)nl, limb);
    if (!hist || !d->c) {
        rc = qn_err_nomem(err); /* the caller frees d */
        goto done;
    }
    for (size_t s = 0; s < cur.cap; s++) {
        uint32_t mn = UINT32_MAX;
        if (!cur.used[s])
            continue;
        for (size_t e = 0; e < nK; e++)
            mn = cur.keys[s * nK + e] < mn ? cur.keys[s * nK + e] : mn;
        big_add(hist + (size_t)mn * nl, cur.counts + s * (size_t)nl, nl);
    }
    for (size_t a = 0; a < hlen; a++) {
        if (!big_used(hist + a * nl, nl))
            continue;
        for (size_t b = 0; b < qlen && a + b < hlen; b++)
            big_muladd(d->c + (a + b) * nl, hist + a * nl, q + b * nl, nl);
    }
    d->len = 1;
    for (size_t w = 0; w < hlen; w++) {
        prod = d->c + w * nl;
        if (big_used(prod, nl))
            d->len = w + 1;
        {
            uint32_t r = big_div(prod, (uint32_t)nK, nl);
            assert(!r); /* every coset holds |K| plans */
            (void)r;
        }
    }
done:
    for (size_t c = 0; c < nc; c++)
        free(cls[c].shift);
    free(cls);
    free(key);
    free(binom);
    free(q);
    free(hist);
    wt_release(&cur);
    return rc;
}

static int fill_shares(qn_exact_dist *d)
{
    double tot = 0;

    if (!(d->share = QN_ALLOCN(d->len, double)))
        return QN_ENOMEM;
    for (size_t m = 0; m < d->len; m++)
        tot += (d->share[m] = big_double(d->c + m * d->nl, d->nl));
    for (size_t m = 0; m < d->len && tot > 0; m++)
        d->share[m] /= tot;
    return QN_OK;
}

int qn_exact_dist_compute(qn_exact_dist **out, const qn_system *sys,
                          qn_err *err)
{
    int n = qn_system_ncols(sys);
    unsigned k = qn_system_modulus(sys);
    size_t d = qn_system_kernel_ngens(sys), nK = 1;
    qn_exact_dist *x;
    int rc = QN_OK;

    *out = NULL;
    if (qn_system_nrows(sys) != n)
        return qn_err_set(err, QN_ELIMIT, 0, 0, "the matrix is not square");
    for (size_t j = 0; j < d; j++) {
        nK *= qn_system_kernel_order(sys, j);
        if (nK > QN_EXACT_MAX_KERNEL)
            return qn_err_set(err, QN_ELIMIT, 0, 0,
                              "the kernel has more than %d quiet patterns",
                              QN_EXACT_MAX_KERNEL);
    }
    if (!(x = QN_ALLOC(qn_exact_dist)))
        return qn_err_nomem(err);
    x->nl = limbs_for(n, k);
    if (!d) {
        x->method = "invertible";
        rc = plan_counts(&x->c, &x->len, n, k, x->nl);
        if (rc == QN_ENOMEM)
            rc = qn_err_nomem(err);
        else if (rc != QN_OK)
            rc = qn_err_set(err, QN_ELIMIT, 0, 0,
                            "the closed form for %d cells and %u colours is "
                            "too long",
                            n, k);
    } else {
        x->method = "kernel classes";
        rc = kernel_classes(x, sys, nK, err);
    }
    if (rc == QN_OK && fill_shares(x) != QN_OK)
        rc = qn_err_nomem(err);
    if (rc != QN_OK) {
        qn_exact_dist_free(x);
        return rc;
    }
    *out = x;
    return QN_OK;
}

void qn_exact_dist_free(qn_exact_dist *d)
{
    if (!d)
        return;
    free(d->c);
    free(d->share);
    free(d);
}

const char *qn_exact_dist_method(const qn_exact_dist *d)
{
    return d->method;
}

size_t qn_exact_dist_len(const qn_exact_dist *d)
{
    return d->len;
}

void qn_exact_dist_count(const qn_exact_dist *d, size_t m, qn_buf *out)
{
    limb *t;
    char *digits;
    size_t nd = 0;

    if (m >= d->len) {
        qn_buf_addc(out, '0');
        return;
    }
    t = QN_ALLOCN((size_t)d->nl, limb);
    digits = QN_ALLOCN((size_t)d->nl * 10 + 2, char);
    if (!t || !digits) {
        qn_buf_fail(out);
        free(t);
        free(digits);
        return;
    }
    memcpy(t, d->c + m * d->nl, d->nl * sizeof(limb));
    do
        digits[nd++] = (char)('0' + big_div(t, 10, d->nl));
    while (big_used(t, d->nl));
    while (nd > 0)
        qn_buf_addc(out, digits[--nd]);
    free(digits);
    free(t);
}

int qn_exact_dist_count_u64(const qn_exact_dist *d, size_t m, uint64_t *out)
{
    const limb *c;

    if (m >= d->len) {
        *out = 0;
        return QN_OK;
    }
    c = d->c + m * d->nl;
    if (big_used(c, d->nl) > 2)
        return QN_ELIMIT;
    *out = (uint64_t)c[0] | (d->nl > 1 ? (uint64_t)c[1] << 32 : 0);
    return QN_OK;
}

double qn_exact_dist_share(const qn_exact_dist *d, size_t m)
{
    return m < d->len ? d->share[m] : 0;
}
