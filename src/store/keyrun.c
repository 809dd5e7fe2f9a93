/*
 * keyrun.c: the key-run codec (keyrun.h): a sorted run of (puzzle id, row
 * id) pairs as one checksummed blob (header, samples, row offsets,
 * Rice-coded keys; docs/STORE-KEYRUNS.md "The run format"), its header
 * read and checked, its encoder and its strict decoder.
 */
#include "store/keyrun.h"

#include <stdlib.h>
#include <string.h>

#include "base/mem.h"
#include "keyrun_bits.h"
#include "quench/common.h"

static void put64(uint8_t *p, uint64_t v)
{
    for (int i = 0; i < 8; i++)
        p[i] = (uint8_t)(v >> (8 * i));
}

static void put32(uint8_t *p, uint32_t v)
{
    for (int i = 0; i < 4; i++)
        p[i] = (uint8_t)(v >> (8 * i));
}

static unsigned log2u(uint64_t x)
{
    return x ? 63 - (unsigned)__builtin_clzll(x) : 0;
}

/* The Rice parameter of n keys spanning span: floor(log2(span / n)), 0
 * below 1. Then 2^k > span / (2n), so the quotients of the n - 1 deltas
 * (which add up to at most span >> k) take fewer than 2n unary bits in
 * all, whatever the gaps: the bound parse checks a stream's size by. */
static unsigned rice_k(uint64_t span, size_t n)
{
    return n > 1 ? log2u(span / n) : 0;
}

static unsigned width(uint64_t span)
{
    return span ? log2u(span) + 1 : 0;
}

/*
 * The checksum of b[0..n): per 8-byte little-endian word w (the last one
 * padded with zeros), h = (rotl(h, 23) ^ w) * M with M odd, then the
 * length xored in and murmur3's finaliser. Each step is a bijection of h
 * for a fixed w and of w for a fixed h, and so is the finaliser: two
 * inputs of one length that differ within one word (every single-bit
 * flip, every burst of up to 8 aligned bytes) always get different sums.
 * One multiply on the dependency chain a word: several GB/s.
 */
static uint64_t checksum(const uint8_t *b, size_t n)
{
    const uint64_t m = 0x9e3779b97f4a7c15ull;
    uint64_t h = 0x243f6a8885a308d3ull;
    size_t i = 0;

    for (; i + 8 <= n; i += 8)
        h = ((h << 23 | h >> 41) ^ get64(b + i)) * m;
    if (i < n) {
        uint8_t t[8] = {0};
        memcpy(t, b + i, n - i);
        h = ((h << 23 | h >> 41) ^ get64(t)) * m;
    }
    h ^= (uint64_t)n;
    h ^= h >> 33;
    h *= 0xff51afd7ed558ccdull;
    h ^= h >> 33;
    h *= 0xc4ceb9fe1a85ec53ull;
    return h ^ h >> 33;
}

/*
 * The header h of a run of len bytes, every field checked: it must be
 * the header qn_kr_encode writes for some pairs (k and w are the ones
 * the encoder derives, never free choices), and the sizes it implies
 * must add up to len with the key stream between its least and its most
 * bits. QN_EDB otherwise.
 */
int qn_kr__parse(const uint8_t *h, size_t len, kr_hdr *o)
{
    uint64_t span, m, lo_bits, hi_bits;

    if (len < QN_KR_HEADER)
        return QN_EDB;
    o->sum = get64(h + H_SUM);
    o->k = h[H_K];
    o->w = h[H_W];
    o->i.n = get32(h + H_N);
    o->i.first = get64(h + H_FIRST);
    o->i.last = get64(h + H_LAST);
    o->i.row_lo = (int64_t)get64(h + H_LO);
    o->i.row_hi = (int64_t)get64(h + H_HI);
    if (h[H_VER] != QN_KR_VERSION || h[H_ZERO] || o->i.n < 1 ||
        o->i.n > QN_KR_MAX || o->i.first > o->i.last || o->i.row_lo < 1 ||
        o->i.row_hi < o->i.row_lo)
        return QN_EDB;
    span = o->i.last - o->i.first;
    if (o->k != rice_k(span, o->i.n) ||
        o->w != width((uint64_t)o->i.row_hi - (uint64_t)o->i.row_lo) ||
        (o->i.n == 1 && span))
        return QN_EDB;
    o->ns = (o->i.n - 1) / QN_KR_SAMPLE;
    o->offs = QN_KR_HEADER + o->ns * SAMPLE_BYTES;
    o->obytes = (size_t)(((uint64_t)o->i.n * o->w + 7) / 8);
    o->stream = o->offs + o->obytes;
    if (len < o->stream)
        return QN_EDB;
    o->sbytes = len - o->stream;
    o->sbits = (uint64_t)o->sbytes * 8;
    m = o->i.n - 1;
    lo_bits = m * (o->k + 1);
    hi_bits = lo_bits + (span >> o->k);
    if (o->sbytes < (lo_bits + 7) / 8 || o->sbytes > (hi_bits + 7) / 8)
        return QN_EDB;
    return QN_OK;
}

int qn_kr_info_get(const uint8_t *b, size_t len, qn_kr_info *out)
{
    kr_hdr h;
    int rc;

    if (!out)
        return QN_EINVAL;
    memset(out, 0, sizeof(*out));
    if (!b || len < QN_KR_HEADER)
        return QN_EDB;
    if ((rc = qn_kr__parse(b, len, &h)) == QN_OK)
        *out = h.i;
    return rc;
}

/* ---------------------------------------------------------------------
 * Writing bits: LSB first, a value's low bit first, through a 64-bit
 * accumulator flushed 32 bits at a time (so no byte past the region is
 * touched).
 */
typedef struct kr_out {
    uint8_t *p;    /* the region */
    size_t at;     /* bytes flushed */
    uint64_t acc;  /* pending bits, low first */
    unsigned nacc; /* their count, < 32 between calls */
} kr_out;

/* n <= 32 bits of v (v < 2^n) */
static void put_bits(kr_out *o, uint64_t v, unsigned n)
{
    o->acc |= v << o->nacc;
    o->nacc += n;
    if (o->nacc >= 32) {
        put32(o->p + o->at, (uint32_t)o->acc);
        o->at += 4;
        o->acc >>= 32;
        o->nacc -= 32;
    }
}

/* the low n <= 64 bits of v */
static void put_long(kr_out *o, uint64_t v, unsigned n)
{
    for (; n > 32; n -= 32, v >>= 32)
        put_bits(o, v & 0xffffffffu, 32);
    put_bits(o, v & ((1ull << n) - 1), n);
}

static void put_flush(kr_out *o)
{
    for (; o->nacc; o->nacc = o->nacc > 8 ? o->nacc - 8 : 0, o->acc >>= 8)
        o->p[o->at++] = (uint8_t)o->acc;
}

static uint64_t out_pos(const kr_out *o)
{
    return (uint64_t)o->at * 8 + o->nacc;
}

/* q ones, then a zero */
static void put_unary(kr_out *o, uint64_t q)
{
    for (; q >= 32; q -= 32)
        put_bits(o, 0xffffffffu, 32);
    put_bits(o, (1ull << q) - 1, (unsigned)q + 1);
}

/* a[0..n) strictly sorted by (key, row), rows >= 1 */
static int valid_input(const qn_kr_pair *a, size_t n)
{
    if (!a || n < 1 || n > QN_KR_MAX || a[0].row < 1)
        return 0;
    for (size_t i = 1; i < n; i++)
        if (a[i].row < 1 || a[i].key < a[i - 1].key ||
            (a[i].key == a[i - 1].key && a[i].row <= a[i - 1].row))
            return 0;
    return 1;
}

int qn_kr_encode(const qn_kr_pair *a, size_t n, uint8_t **out, size_t *len)
{
    int64_t lo, hi;
    uint64_t span, qsum = 0, sbits;
    unsigned k, w;
    size_t ns, offs, stream, total;
    uint8_t *b;
    kr_out o;

    if (out)
        *out = NULL;
    if (len)
        *len = 0;
    if (!out || !len || !valid_input(a, n))
        return QN_EINVAL;
    lo = hi = a[0].row;
    for (size_t i = 1; i < n; i++) {
        lo = a[i].row < lo ? a[i].row : lo;
        hi = a[i].row > hi ? a[i].row : hi;
    }
    span = a[n - 1].key - a[0].key;
    k = rice_k(span, n);
    w = width((uint64_t)hi - (uint64_t)lo);
    for (size_t i = 1; i < n; i++)
        qsum += (a[i].key - a[i - 1].key) >> k;
    sbits = (uint64_t)(n - 1) * (k + 1) + qsum;
    ns = (n - 1) / QN_KR_SAMPLE;
    offs = QN_KR_HEADER + ns * SAMPLE_BYTES;
    stream = offs + (size_t)(((uint64_t)n * w + 7) / 8);
    total = stream + (size_t)((sbits + 7) / 8);
    if (!(b = QN_ALLOCN(total, uint8_t)))
        return QN_ENOMEM;
    b[H_VER] = QN_KR_VERSION;
    b[H_K] = (uint8_t)k;
    b[H_W] = (uint8_t)w;
    put32(b + H_N, (uint32_t)n);
    put64(b + H_FIRST, a[0].key);
    put64(b + H_LAST, a[n - 1].key);
    put64(b + H_LO, (uint64_t)lo);
    put64(b + H_HI, (uint64_t)hi);
    o = (kr_out){b + offs, 0, 0, 0};
    for (size_t i = 0; i < n; i++)
        put_long(&o, (uint64_t)a[i].row - (uint64_t)lo, w);
    put_flush(&o);
    o = (kr_out){b + stream, 0, 0, 0};
    for (size_t i = 1; i < n; i++) {
        uint64_t d = a[i].key - a[i - 1].key;
        put_unary(&o, d >> k);
        put_long(&o, d, k);
        if (i % QN_KR_SAMPLE == 0) {
            uint8_t *sp =
                b + QN_KR_HEADER + (i / QN_KR_SAMPLE - 1) * SAMPLE_BYTES;
            put64(sp, a[i].key);
            put32(sp + 8, (uint32_t)out_pos(&o));
        }
    }
    put_flush(&o);
    put64(b + H_SUM, checksum(b + 8, total - 8));
    *out = b;
    *len = total;
    return QN_OK;
}

/* the bits of the region past bit `pos` to its end are zeros */
static int zero_tail(const uint8_t *p, size_t bytes, uint64_t pos)
{
    if ((pos + 7) / 8 != bytes)
        return 0;
    return !(pos & 7) || !(p[bytes - 1] >> (pos & 7));
}

static int decode_keys(const uint8_t *b, const kr_hdr *h, qn_kr_pair *out)
{
    kr_in in;
    uint64_t key = h->i.first, pos = 0;

    in_mem(&in, b + h->stream, h->sbytes);
    out[0].key = key;
    for (size_t i = 1; i < h->i.n; i++) {
        if (!next_key(&in, &pos, h, &key))
            return QN_EDB;
        out[i].key = key;
        if (i % QN_KR_SAMPLE == 0) {
            const uint8_t *sp =
                b + QN_KR_HEADER + (i / QN_KR_SAMPLE - 1) * SAMPLE_BYTES;
            if (get64(sp) != key || get32(sp + 8) != pos)
                return QN_EDB;
        }
    }
    if (key != h->i.last || !zero_tail(b + h->stream, h->sbytes, pos))
        return QN_EDB;
    return QN_OK;
}

/* the rows, each in [row_lo, row_hi] with both ends met, the pairs
 * strictly sorted */
static int decode_rows(const uint8_t *b, const kr_hdr *h, qn_kr_pair *out)
{
    kr_in in;
    uint64_t pos = 0, span = (uint64_t)h->i.row_hi - (uint64_t)h->i.row_lo;
    uint64_t omin = UINT64_MAX, omax = 0;

    in_mem(&in, b + h->offs, h->obytes);
    for (size_t i = 0; i < h->i.n; i++) {
        uint64_t off = get_long(&in, &pos, h->w);
        if (off > span)
            return QN_EDB;
        omin = off < omin ? off : omin;
        omax = off > omax ? off : omax;
        out[i].row = (int64_t)((uint64_t)h->i.row_lo + off);
        if (i && out[i].key == out[i - 1].key && out[i].row <= out[i - 1].row)
            return QN_EDB;
    }
    if (omin || omax != span || !zero_tail(b + h->offs, h->obytes, pos))
        return QN_EDB;
    return QN_OK;
}

int qn_kr_decode(const uint8_t *b, size_t len, qn_kr_pair *out)
{
    kr_hdr h;
    int rc;

    if (!out)
        return QN_EINVAL;
    if (!b || (rc = qn_kr__parse(b, len, &h)) != QN_OK)
        return QN_EDB;
    if (checksum(b + 8, len - 8) != h.sum)
        return QN_EDB;
    if ((rc = decode_keys(b, &h, out)) != QN_OK)
        return rc;
    return decode_rows(b, &h, out);
}

int qn_kr_shift(const uint8_t *b, size_t len, int64_t delta, uint8_t **out)
{
    kr_hdr h;
    uint8_t *c;

    *out = NULL;
    if (!b || qn_kr__parse(b, len, &h) != QN_OK)
        return QN_EDB;
    /* rows stay in 1..INT64_MAX: row_lo >= 1 and row_hi <= INT64_MAX */
    if (delta < 1 - h.i.row_lo || (delta > 0 && h.i.row_hi > INT64_MAX - delta))
        return QN_EINVAL;
    if (!(c = QN_ALLOCN(len, uint8_t)))
        return QN_ENOMEM;
    memcpy(c, b, len);
    put64(c + H_LO, (uint64_t)(h.i.row_lo + delta));
    put64(c + H_HI, (uint64_t)(h.i.row_hi + delta));
    put64(c + H_SUM, checksum(c + 8, len - 8));
    *out = c;
    return QN_OK;
}
