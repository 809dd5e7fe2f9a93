/*
 * keyrun_bits.h: what the key-run codec's files share (keyrun.c decodes,
 * keyrun_find.c looks up): the header's layout and its checked parse,
 * and the bounded bit reader over a region of a run, from memory or
 * through the caller's read function.
 */
#ifndef QN_STORE_KEYRUN_BITS_H
#define QN_STORE_KEYRUN_BITS_H

#include <stdint.h>
#include <string.h>

#include "quench/common.h"
#include "store/keyrun.h"

/* The header (QN_KR_HEADER bytes, little-endian): */
#define H_SUM 0         /* u64 checksum of bytes 8..len */
#define H_VER 8         /* u8 QN_KR_VERSION */
#define H_K 9           /* u8 the Rice parameter */
#define H_W 10          /* u8 the row offsets' width in bits */
#define H_ZERO 11       /* u8 0 */
#define H_N 12          /* u32 pairs */
#define H_FIRST 16      /* u64 first key */
#define H_LAST 24       /* u64 last key */
#define H_LO 32         /* i64 smallest row */
#define H_HI 40         /* i64 largest row */
#define SAMPLE_BYTES 12 /* u64 key, u32 bit position in the key stream */
#define KR_WIN 1024     /* the lookup's read window, bytes */

/* A run's layout, from its header (parse). */
typedef struct kr_hdr {
    qn_kr_info i;
    unsigned k, w;  /* Rice parameter; row offset bits */
    size_t ns;      /* samples */
    size_t offs;    /* byte offset of the row offsets */
    size_t obytes;  /* their bytes */
    size_t stream;  /* byte offset of the key stream (to the end) */
    size_t sbytes;  /* its bytes */
    uint64_t sbits; /* sbytes * 8 */
    uint64_t sum;   /* the stored checksum */
} kr_hdr;

static inline uint64_t get64(const uint8_t *p)
{
    uint64_t v;

    memcpy(&v, p, 8);
#if defined(__BYTE_ORDER__) && __BYTE_ORDER__ == __ORDER_BIG_ENDIAN__
    v = __builtin_bswap64(v);
#endif
    return v;
}

static inline uint32_t get32(const uint8_t *p)
{
    return (uint32_t)p[0] | (uint32_t)p[1] << 8 | (uint32_t)p[2] << 16 |
           (uint32_t)p[3] << 24;
}

/* The header h of a run of len bytes, every field checked (keyrun.c):
 * QN_OK or QN_EDB. */
int qn_kr__parse(const uint8_t *h, size_t len, kr_hdr *o);

/* ---------------------------------------------------------------------
 * Reading bits from a region of the run (the row offsets or the key
 * stream): from memory, or through the caller's read function a window
 * at a time. Every load is bounded by the region: bytes past its end
 * read as zeros (so a unary code ends there), and the callers check the
 * bit position against the region's bits after each code.
 */
typedef struct kr_in {
    const uint8_t *buf; /* bytes [base, base + have) of the region */
    size_t base, have;
    size_t size;         /* the region's bytes */
    qn_kr_read_fn *read; /* NULL: buf is the whole region */
    void *ctx;
    size_t off; /* the region's offset in the run */
    int rc;     /* the first read error */
    uint8_t win[KR_WIN];
} kr_in;

static inline void in_mem(kr_in *in, const uint8_t *p, size_t size)
{
    in->buf = p;
    in->base = 0;
    in->have = in->size = size;
    in->read = NULL;
    in->rc = QN_OK;
}

static inline void in_read(kr_in *in, qn_kr_read_fn *read, void *ctx,
                           size_t off, size_t size)
{
    in->buf = in->win;
    in->base = in->have = 0;
    in->size = size;
    in->read = read;
    in->ctx = ctx;
    in->off = off;
    in->rc = QN_OK;
}

/* load8's rare case: the window moved, or the region's last bytes */
static inline uint64_t load_slow(kr_in *in, size_t at)
{
    uint8_t t[8] = {0};
    size_t want;

    if (at >= in->size)
        return 0;
    want = in->size - at < 8 ? in->size - at : 8;
    if (in->read && (at < in->base || at + want > in->base + in->have)) {
        int rc;
        in->base = at;
        in->have = in->size - at < KR_WIN ? in->size - at : KR_WIN;
        if ((rc = in->read(in->ctx, in->off + at, in->win, in->have))) {
            in->rc = in->rc ? in->rc : rc;
            in->have = 0;
            return 0;
        }
    }
    memcpy(t, in->buf + (at - in->base), want);
    return get64(t);
}

/* the 8 bytes of the region at byte `at`, as a little-endian word */
static inline uint64_t load8(kr_in *in, size_t at)
{
    if (at >= in->base && at + 8 <= in->base + in->have)
        return get64(in->buf + (at - in->base));
    return load_slow(in, at);
}

/* n <= 56 bits at *pos */
static inline uint64_t get_bits(kr_in *in, uint64_t *pos, unsigned n)
{
    uint64_t v;

    if (!n)
        return 0;
    v = load8(in, (size_t)(*pos >> 3)) >> (*pos & 7);
    *pos += n;
    return v & ((1ull << n) - 1);
}

/* n <= 64 bits at *pos */
static inline uint64_t get_long(kr_in *in, uint64_t *pos, unsigned n)
{
    uint64_t lo;

    if (n <= 56)
        return get_bits(in, pos, n);
    lo = get_bits(in, pos, 32);
    return lo | get_bits(in, pos, n - 32) << 32;
}

/* A unary code at *pos: its count of ones, 0 if more than bound. */
static inline int get_unary(kr_in *in, uint64_t *pos, uint64_t bound,
                            uint64_t *q)
{
    uint64_t c = 0;

    for (;;) {
        unsigned sh = (unsigned)(*pos & 7), avail = 64 - sh, t;
        uint64_t v = load8(in, (size_t)(*pos >> 3)) >> sh;
        t = ~v ? (unsigned)__builtin_ctzll(~v) : 64;
        if (t < avail) {
            c += t;
            *pos += t + 1;
            break;
        }
        c += avail;
        *pos += avail;
        if (c > bound)
            return 0;
    }
    *q = c;
    return c <= bound;
}

/* The key after *key (a delta at *pos), no larger than last: 0 if the
 * code is impossible (its delta would pass last) or passes the stream. */
static inline int next_key(kr_in *in, uint64_t *pos, const kr_hdr *h,
                           uint64_t *key)
{
    uint64_t room = h->i.last - *key, q, d;

    if (!get_unary(in, pos, room >> h->k, &q))
        return 0;
    d = q << h->k | get_long(in, pos, h->k);
    if (d > room || *pos > h->sbits)
        return 0;
    *key += d;
    return 1;
}

#endif
