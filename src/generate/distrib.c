/*
 * distrib.c: the exact histogram of minimal presses over a rule's image and
 * an index to enumerate the states with a given press count (difficulty
 * model in distrib.h; coordinates in distrib_coords.c, distances in
 * distrib_bfs.c, grading tiers in distrib_tiers.c).
 */
#include "generate/distrib.h"

#include <assert.h>
#include <stdlib.h>
#include <string.h>

#include "base/mem.h"
#include "distrib_internal.h"
#include "engine/gf2.h"

/* The rank directory for qn_distrib_nth. */
static int build_directory(qn_distrib *d)
{
    size_t len = d->len, nb1;
    uint32_t *blk = QN_ALLOCN(len, uint32_t);

    d->bshift = 8;
    while (((uint64_t)1 << d->bshift) < 16 * (uint64_t)len)
        d->bshift++;
    d->nblocks =
        (size_t)((d->total + ((uint64_t)1 << d->bshift) - 1) >> d->bshift);
    nb1 = d->nblocks + 1;
    d->cum = QN_ALLOCN(len * nb1, uint32_t);
    if (!blk || !d->cum) {
        free(blk);
        return QN_ENOMEM;
    }
    for (size_t b = 0; b < d->nblocks; b++) {
        uint64_t lo = (uint64_t)b << d->bshift;
        uint64_t hi = lo + ((uint64_t)1 << d->bshift);

        if (hi > d->total)
            hi = d->total;
        memset(blk, 0, len * sizeof(*blk));
        for (uint64_t i = lo; i < hi; i++)
            blk[dget(d, i)]++;
        for (size_t m = 0; m < len; m++)
            d->cum[m * nb1 + b + 1] = d->cum[m * nb1 + b] + blk[m];
    }
    free(blk);
    return QN_OK;
}

int qn_distrib_compute(qn_distrib **out, const qn_system *sys, qn_err *err)
{
    qn_distrib *d;
    coords c;
    uint64_t total, *count, *fit;
    size_t bound, log2t = 0;
    int code;

    assert(out && sys);
    *out = NULL;
    code = qn_system_group_size_u64(sys, QN_IMAGE, &total);
    if (code != QN_OK || total > QN_DISTRIB_MAX_STATES)
        return qn_err_set(err, QN_ELIMIT, 0, 0,
                          "the exact distribution needs at most 2^26 "
                          "solvable states, this rule has 2^%.1f",
                          qn_system_group_log2(sys, QN_IMAGE));

    if (qn_distrib__coords(&c, sys) != QN_OK || !(d = QN_ALLOC(qn_distrib))) {
        qn_distrib__coords_release(&c);
        return qn_err_nomem(err);
    }
    d->nrows = c.nrows;
    d->ncols = c.ncols;
    d->k = c.k;
    d->ncomp = c.ncomp;
    d->total = 1;
    for (size_t t = 0; t < c.ncomp; t++) {
        d->order[t] = c.order[t];
        d->stride[t] = d->total;
        d->total *= c.order[t];
    }
    assert(d->total == total);
    d->h = c.h;
    c.h = NULL;
    if (c.k == 2) {
        d->nw = qn_gf2_words(c.nrows);
        if (!(d->hbits = QN_ALLOCN(c.ncomp * (size_t)d->nw + 1, uint64_t)))
            goto nomem;
        for (size_t t = 0; t < c.ncomp; t++)
            for (int r = 0; r < c.nrows; r++)
                d->hbits[t * d->nw + r / 64] |=
                    (uint64_t)d->h[t * (size_t)c.nrows + r] << (r % 64);
    }

    /*
     * A greedy choice of columns that each enlarge the subgroup generated
     * so far generates the image with at most log2 |image| columns, each
     * pressed at most k - 1 times: that bounds every distance.
     */
    while (((uint64_t)2 << log2t) <= total)
        log2t++;
    bound = log2t * (c.k - 1) + 1;
    assert(bound < 0xFFFF);
    d->wide = bound >= 0xFF;
    if (d->wide)
        d->d16 = QN_ALLOCN(total, uint16_t);
    else
        d->d8 = QN_ALLOCN(total, uint8_t);
    count = QN_ALLOCN(bound + 2, uint64_t);
    if ((!d->d16 && !d->d8) || !count ||
        qn_distrib__distances(d, &c, count, bound) != QN_OK) {
        free(count);
        goto nomem;
    }
    d->col = c.col; /* kept: a state's index from any plan (census) */
    c.col = NULL;
    qn_distrib__coords_release(&c);

    d->len = 1;
    for (size_t m = 0; m <= bound + 1; m++)
        if (count[m])
            d->len = m + 1;
    /* shrinking: a failure keeps the larger block, as good */
    d->count = (fit = QN_REALLOCN(count, d->len, uint64_t)) ? fit : count;
    if (build_directory(d) != QN_OK) {
        qn_distrib_free(d);
        return qn_err_nomem(err);
    }
    *out = d;
    return QN_OK;
nomem:
    qn_distrib__coords_release(&c);
    qn_distrib_free(d);
    return qn_err_nomem(err);
}

void qn_distrib_free(qn_distrib *d)
{
    if (!d)
        return;
    free(d->count);
    free(d->h);
    free(d->col);
    free(d->hbits);
    free(d->d8);
    free(d->d16);
    free(d->cum);
    free(d);
}

size_t qn_distrib_len(const qn_distrib *d)
{
    return d->len;
}

uint64_t qn_distrib_count(const qn_distrib *d, size_t m)
{
    return m < d->len ? d->count[m] : 0;
}

uint64_t qn_distrib_total(const qn_distrib *d)
{
    return d->total;
}

int qn_distrib_ncells(const qn_distrib *d)
{
    return d->nrows;
}

/* Is image element idx counted: at distance m and, with a bitmap, in it? */
static inline int counted(const qn_distrib *d, const uint64_t *bits,
                          uint64_t idx, size_t m)
{
    return dget(d, idx) == m && (!bits || (bits[idx / 64] >> (idx % 64)) & 1);
}

uint64_t qn_distrib__find(const qn_distrib *d, const uint32_t *cum,
                          const uint64_t *bits, size_t m, uint64_t i)
{
    size_t lo = 0, hi = d->nblocks - 1;
    uint64_t idx, end, rem;

    while (lo < hi) {
        size_t mid = lo + (hi - lo + 1) / 2;
        if (cum[mid] <= i)
            lo = mid;
        else
            hi = mid - 1;
    }
    rem = i - cum[lo];
    idx = (uint64_t)lo << d->bshift;
    end = idx + ((uint64_t)1 << d->bshift);
    if (end > d->total)
        end = d->total;
    /* Skip whole 64-entry chunks by counting (vectorises), then step. */
    while (!bits && end - idx > 64) {
        unsigned n = 0;
        if (d->wide)
            for (int j = 0; j < 64; j++)
                n += d->d16[idx + j] == m;
        else
            for (int j = 0; j < 64; j++)
                n += d->d8[idx + j] == m;
        if (n > rem)
            break;
        rem -= n;
        idx += 64;
    }
    for (; idx < end; idx++)
        if (counted(d, bits, idx, m) && rem-- == 0)
            break;
    assert(idx < end);
    return idx;
}

uint64_t qn_distrib_nth(const qn_distrib *d, size_t m, uint64_t i,
                        uint8_t *d_out)
{
    uint64_t idx;

    assert(m < d->len && i < d->count[m]);
    idx = qn_distrib__find(d, d->cum + m * (d->nblocks + 1), NULL, m, i);
    qn_distrib__decode(d, idx, d_out);
    return idx;
}

void qn_distrib__decode(const qn_distrib *d, uint64_t idx, uint8_t *d_out)
{
    unsigned acc[MAXCOMP];

    /* The BFS vertex v = A x; the state solved by x is -v. */
    if (d->k == 2) { /* -v = v: XOR the packed basis states */
        for (int w = 0; w < d->nw; w++) {
            uint64_t v = 0;
            for (size_t t = 0; t < d->ncomp; t++)
                if ((idx >> t) & 1)
                    v ^= d->hbits[t * d->nw + w];
            for (int r = w * 64; r < d->nrows && r < w * 64 + 64; r++)
                d_out[r] = (uint8_t)((v >> (r % 64)) & 1);
        }
        return;
    }
    for (size_t t = 0; t < d->ncomp; t++)
        acc[t] = (unsigned)((idx / d->stride[t]) % d->order[t]);
    for (int r = 0; r < d->nrows; r++) {
        unsigned v = 0;
        for (size_t t = 0; t < d->ncomp; t++)
            v += acc[t] * d->h[t * (size_t)d->nrows + r];
        d_out[r] = (uint8_t)((d->k - v % d->k) % d->k);
    }
}

void qn_distrib_json(const qn_distrib *d, qn_jsonw *w)
{
    qn_jsonw_arr(w);
    for (size_t m = 0; m < d->len; m++)
        qn_jsonw_uint(w, d->count[m]);
    qn_jsonw_end(w);
}
