/*
 * keyrun_find.c: the lookup of a key range in a run (qn_kr_find), through
 * the caller's read function: the header, a binary search of the
 * samples, and only the codes between a sample and the range's ends.
 */
#include "store/keyrun.h"

#include <stdint.h>
#include <string.h>

#include "keyrun_bits.h"
#include "quench/common.h"

typedef struct kr_cur {
    size_t i;     /* the key's index; n: past the end */
    uint64_t key; /* key i */
    uint64_t pos; /* the stream's bit position after key i's code */
} kr_cur;

typedef struct kr_find {
    qn_kr_read_fn *read;
    void *ctx;
    kr_hdr h;
    kr_in in; /* the key stream */
} kr_find;

/* the code of a failed read of the stream: the callback's, or QN_EDB */
static int in_fail(const kr_in *in)
{
    return in->rc ? in->rc : QN_EDB;
}

static int advance(kr_find *f, kr_cur *c)
{
    if (++c->i >= f->h.i.n) {
        c->i = f->h.i.n;
        return QN_OK;
    }
    if (!next_key(&f->in, &c->pos, &f->h, &c->key) || f->in.rc)
        return in_fail(&f->in);
    return QN_OK;
}

/* sample j (1..ns) into *c: key j * QN_KR_SAMPLE, checked in bounds */
static int sample(kr_find *f, size_t j, kr_cur *c)
{
    uint8_t s[SAMPLE_BYTES];
    int rc =
        f->read(f->ctx, QN_KR_HEADER + (j - 1) * SAMPLE_BYTES, s, SAMPLE_BYTES);

    if (rc)
        return rc;
    c->i = j * QN_KR_SAMPLE;
    c->key = get64(s);
    c->pos = get32(s + 8);
    if (c->key < f->h.i.first || c->key > f->h.i.last || c->pos > f->h.sbits)
        return QN_EDB;
    return QN_OK;
}

/* *c at the last sample whose key is below v (strict) or at most v, or
 * at key 0: a binary search, the samples being sorted */
static int seek(kr_find *f, uint64_t v, int strict, kr_cur *c)
{
    size_t a = 1, z = f->h.ns + 1; /* the first sample past v is in [a, z] */
    int rc;

    while (a < z) {
        size_t mid = a + (z - a) / 2;
        if ((rc = sample(f, mid, c)) != QN_OK)
            return rc;
        if (strict ? c->key < v : c->key <= v)
            a = mid + 1;
        else
            z = mid;
    }
    if (a > 1)
        return sample(f, a - 1, c);
    *c = (kr_cur){0, f->h.i.first, 0};
    return QN_OK;
}

/* the rows of out[0..got), key indexes s.. */
static int find_rows(kr_find *f, size_t s, qn_kr_pair *out, size_t got)
{
    kr_in *rows = &f->in; /* the stream is done with: reuse its window */
    uint64_t pos = (uint64_t)s * f->h.w;
    uint64_t span = (uint64_t)f->h.i.row_hi - (uint64_t)f->h.i.row_lo;

    in_read(rows, f->read, f->ctx, f->h.offs, f->h.obytes);
    for (size_t t = 0; t < got; t++) {
        uint64_t off = get_long(rows, &pos, f->h.w);
        if (rows->rc)
            return rows->rc;
        if (off > span)
            return QN_EDB;
        out[t].row = (int64_t)((uint64_t)f->h.i.row_lo + off);
    }
    return QN_OK;
}

int qn_kr_find(qn_kr_read_fn *read, void *ctx, size_t len, uint64_t lo,
               uint64_t hi, qn_kr_pair *out, size_t max, size_t *nfound)
{
    uint8_t hb[QN_KR_HEADER];
    kr_find f;
    kr_cur c;
    size_t s, got = 0;
    int rc;

    if (!nfound)
        return QN_EINVAL;
    *nfound = 0;
    if (!read || lo > hi || (!out && max))
        return QN_EINVAL;
    if (len < QN_KR_HEADER)
        return QN_EDB;
    if ((rc = read(ctx, 0, hb, QN_KR_HEADER)) != QN_OK)
        return rc;
    if ((rc = qn_kr__parse(hb, len, &f.h)) != QN_OK)
        return rc;
    if (hi < f.h.i.first || lo > f.h.i.last)
        return QN_OK;
    f.read = read;
    f.ctx = ctx;
    in_read(&f.in, read, ctx, f.h.stream, f.h.sbytes);
    /* the first key >= lo: from the last sample below lo */
    if ((rc = seek(&f, lo, 1, &c)) != QN_OK)
        return rc;
    while (c.i < f.h.i.n && c.key < lo)
        if ((rc = advance(&f, &c)) != QN_OK)
            return rc;
    s = c.i;
    for (; c.i < f.h.i.n && c.key <= hi && got < max; got++) {
        out[got].key = c.key;
        if ((rc = advance(&f, &c)) != QN_OK)
            return rc;
    }
    /* out is full: the first key > hi, from the last sample <= hi */
    if (c.i < f.h.i.n && c.key <= hi) {
        kr_cur e;
        if ((rc = seek(&f, hi, 0, &e)) != QN_OK)
            return rc;
        if (e.i > c.i)
            c = e;
        while (c.i < f.h.i.n && c.key <= hi)
            if ((rc = advance(&f, &c)) != QN_OK)
                return rc;
    }
    if (got && (rc = find_rows(&f, s, out, got)) != QN_OK)
        return rc;
    *nfound = c.i - s;
    return QN_OK;
}
