/*
 * test_keyrun.c: the key-run codec and set (src/store/keyrun.h, issue #35
 * section 1), against independent computations: the runs' pairs against
 * a sorted array (qsort, duplicates dropped), qn_kr_decode against a
 * second decoder written here bit by bit from the documented format
 * (docs/STORE-KEYRUNS.md "The run format"), with its own checksum;
 * qn_kr_find against a linear scan; the set against a sorted list of
 * every pair added. Damage (every truncation, every bit flip of small
 * runs, garbage) must give QN_EDB and never a read outside the run;
 * every allocation failed once must give QN_ENOMEM and leave the set's
 * pairs as they were.
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "store/keyrun.h"
#include "t.h"
#include "tfail.h"

static uint64_t seed = 0x6b657972756e73ull; /* "keyruns" */

/* ------------------------------------------------------------------ */
/* The reference: pairs sorted by qsort, duplicates dropped. */

static int cmp_pair(const void *x, const void *y)
{
    const qn_kr_pair *a = x, *b = y;

    if (a->key != b->key)
        return a->key < b->key ? -1 : 1;
    return a->row < b->row ? -1 : a->row > b->row;
}

static int cmp_row(const void *x, const void *y)
{
    int64_t a = *(const int64_t *)x, b = *(const int64_t *)y;

    return a < b ? -1 : a > b;
}

static size_t sort_unique(qn_kr_pair *a, size_t n)
{
    size_t m = 0;

    qsort(a, n, sizeof(*a), cmp_pair);
    for (size_t i = 0; i < n; i++)
        if (!m || cmp_pair(&a[m - 1], &a[i]))
            a[m++] = a[i];
    return m;
}

enum { K_UNIFORM, K_CLUSTER, K_REPEAT, K_EXTREME, K_SMALL, K_KINDS };

/* n pairs (before duplicates go) of key kind kk, rows of width w (w < 0:
 * consecutive from a random start), sorted and unique: the count */
static size_t make_run(qn_kr_pair *a, size_t n, int kk, int w)
{
    uint64_t base = t_rand(&seed), row0 = 1 + (t_rand(&seed) >> 20);

    for (size_t i = 0; i < n; i++) {
        uint64_t r = t_rand(&seed), key;
        switch (kk) {
        case K_UNIFORM:
            key = r;
            break;
        case K_CLUSTER: /* runs of close keys with large gaps */
            key = base + (r >> 40) + ((uint64_t)(i / 100) << 50);
            break;
        case K_REPEAT: /* few keys, each with many rows */
            key = base + (r % 7) * 0x100000001ull;
            break;
        case K_EXTREME: /* 0, 1, UINT64_MAX - 1, UINT64_MAX and a few */
            key = r % 3 == 0 ? (r >> 2) % 2 : r % 3 == 1 ? ~((r >> 2) % 2) : r;
            break;
        default: /* small keys: deltas of 0 and 1, k = 0 */
            key = r % (n / 2 + 1);
            break;
        }
        a[i].key = key;
        if (w < 0)
            a[i].row = (int64_t)(row0 + i);
        else if (w == 0)
            a[i].row = (int64_t)row0;
        else
            a[i].row = 1 + (int64_t)((t_rand(&seed) >> 1) >> (63 - w));
    }
    /* the widest span of its width: both ends of [1, 2^w] present */
    if (w > 0 && n >= 2) {
        a[0].row = 1;
        a[1].row = (int64_t)((uint64_t)1 << (w - 1 < 62 ? w - 1 : 62)) +
                   (w == 63 ? INT64_MAX / 2 : 0);
    }
    return sort_unique(a, n);
}

/* ------------------------------------------------------------------ */
/* The second decoder: the documented format, one bit at a time. */

static uint64_t le(const uint8_t *p, int bytes)
{
    uint64_t v = 0;

    for (int i = bytes - 1; i >= 0; i--)
        v = v << 8 | p[i];
    return v;
}

static uint64_t ref_sum(const uint8_t *p, size_t n)
{
    uint64_t h = 0x243f6a8885a308d3ull;

    for (size_t i = 0; i < n; i += 8) {
        uint64_t wd = 0;
        for (size_t j = 0; j < 8 && i + j < n; j++)
            wd |= (uint64_t)p[i + j] << (8 * j);
        h = (h << 23 | h >> 41) ^ wd;
        h *= 0x9e3779b97f4a7c15ull;
    }
    h ^= n;
    h ^= h >> 33;
    h *= 0xff51afd7ed558ccdull;
    h ^= h >> 33;
    h *= 0xc4ceb9fe1a85ec53ull;
    return h ^ h >> 33;
}

static int bit(const uint8_t *p, uint64_t i)
{
    return p[i / 8] >> (i % 8) & 1;
}

static uint64_t bits(const uint8_t *p, uint64_t *i, unsigned n)
{
    uint64_t v = 0;

    for (unsigned j = 0; j < n; j++)
        v |= (uint64_t)bit(p, (*i)++) << j;
    return v;
}

/* 0: decoded into out (n pairs, *n set); -1: not a run it can read */
static int ref_decode(const uint8_t *b, size_t len, qn_kr_pair *out, size_t *np)
{
    size_t n, ns, rows_at, keys_at;
    unsigned k, w;
    uint64_t key, i = 0, lo;

    if (len < 48 || b[8] != 1 || le(b, 8) != ref_sum(b + 8, len - 8))
        return -1;
    k = b[9];
    w = b[10];
    n = (size_t)le(b + 12, 4);
    ns = (n - 1) / 128;
    rows_at = 48 + 12 * ns;
    keys_at = rows_at + (n * w + 7) / 8;
    if (n < 1 || n > 65536 || keys_at > len)
        return -1;
    key = le(b + 16, 8);
    lo = le(b + 32, 8);
    { /* k and w as the format defines them */
        uint64_t q = n > 1 ? (le(b + 24, 8) - key) / n : 0, span;
        unsigned kk = 0, ww = 0;
        while (q > 1) {
            q >>= 1;
            kk++;
        }
        for (span = le(b + 40, 8) - lo; span; span >>= 1)
            ww++;
        if (k != kk || w != ww)
            return -1;
    }
    for (size_t j = 0; j < n; j++) {
        if (j) {
            uint64_t q = 0;
            while (i < 8 * (len - keys_at) && bit(b + keys_at, i++))
                q++;
            if (i + k > 8 * (len - keys_at))
                return -1;
            key += q << k | bits(b + keys_at, &i, k);
        }
        out[j].key = key;
        if (j && j % 128 == 0) {
            const uint8_t *s = b + 48 + 12 * (j / 128 - 1);
            if (le(s, 8) != key || le(s + 8, 4) != i)
                return -1;
        }
    }
    if (key != le(b + 24, 8) || (i + 7) / 8 != len - keys_at)
        return -1;
    i = 0;
    for (size_t j = 0; j < n; j++)
        out[j].row = (int64_t)(lo + bits(b + rows_at, &i, w));
    *np = n;
    return 0;
}

/* ------------------------------------------------------------------ */
/* A run read through qn_kr_find's callback, every read bounds-checked. */

typedef struct rd {
    const uint8_t *b;
    size_t len;
    long reads, outside; /* reads made; reads outside [0, len) */
    long fail_at;        /* fail this read (1-based) with QN_EIO; 0 none */
} rd;

static int rd_read(void *ctx, size_t off, void *buf, size_t n)
{
    rd *r = ctx;

    r->reads++;
    if (r->fail_at && r->reads == r->fail_at)
        return QN_EIO;
    if (off > r->len || n > r->len - off) {
        r->outside++;
        memset(buf, 0xa5, n);
        return QN_OK;
    }
    memcpy(buf, r->b + off, n);
    return QN_OK;
}

static qn_kr_pair *pairs_alloc(size_t n)
{
    qn_kr_pair *p = malloc((n ? n : 1) * sizeof(*p));

    if (!p)
        abort();
    return p;
}

/* ------------------------------------------------------------------ */

static void check_sort(void)
{
    static const size_t sizes[] = {0, 1, 2, 3, 100, 1000, 65536};
    long bad = 0;

    for (size_t s = 0; s < sizeof(sizes) / sizeof(*sizes); s++)
        for (int mode = 0; mode < 4; mode++) {
            size_t n = sizes[s];
            qn_kr_pair *a = pairs_alloc(n), *r = pairs_alloc(n);
            for (size_t i = 0; i < n; i++) {
                uint64_t x = t_rand(&seed);
                a[i].key = mode == 2 ? x % 5 : x;
                /* rows in order (the batch case), shuffled, signed */
                a[i].row = mode == 0   ? (int64_t)i + 1
                           : mode == 3 ? (int64_t)(x >> 1) - INT64_MAX / 2
                                       : (int64_t)(t_rand(&seed) % 50);
            }
            memcpy(r, a, n * sizeof(*a));
            qsort(r, n, sizeof(*r), cmp_pair);
            T_EQ(qn_kr_sort(a, n), QN_OK);
            if (n && memcmp(a, r, n * sizeof(*a)))
                bad++;
            free(a);
            free(r);
        }
    T_EQ(bad, 0);
}

/* encode, decode, info, the second decoder; returns the run */
static uint8_t *round_trip(const qn_kr_pair *a, size_t n, size_t *len,
                           long *bad)
{
    uint8_t *b = NULL;
    qn_kr_pair *d = pairs_alloc(n);
    qn_kr_info in;
    size_t rn = 0;
    int64_t lo = a[0].row, hi = a[0].row;

    for (size_t i = 0; i < n; i++) {
        lo = a[i].row < lo ? a[i].row : lo;
        hi = a[i].row > hi ? a[i].row : hi;
    }
    if (qn_kr_encode(a, n, &b, len) != QN_OK) {
        bad[0]++;
        free(d);
        return NULL;
    }
    if (qn_kr_info_get(b, *len, &in) != QN_OK || in.n != n ||
        in.first != a[0].key || in.last != a[n - 1].key || in.row_lo != lo ||
        in.row_hi != hi)
        bad[1]++;
    memset(d, 0, n * sizeof(*d));
    if (qn_kr_decode(b, *len, d) != QN_OK || memcmp(d, a, n * sizeof(*a)))
        bad[2]++;
    memset(d, 0, n * sizeof(*d));
    if (ref_decode(b, *len, d, &rn) || rn != n || memcmp(d, a, n * sizeof(*a)))
        bad[3]++;
    free(d);
    return b;
}

/* lo..hi in a[0..n) by linear search, against qn_kr_find */
static void find_one(const uint8_t *b, size_t len, const qn_kr_pair *a,
                     size_t n, uint64_t lo, uint64_t hi, size_t max, long *bad)
{
    size_t first = n, count = 0, got = 99;
    qn_kr_pair out[300];
    rd r = {b, len, 0, 0, 0};

    for (size_t i = 0; i < n; i++)
        if (a[i].key >= lo && a[i].key <= hi) {
            first = count++ ? first : i;
        }
    if (max > 300)
        max = 300;
    if (qn_kr_find(rd_read, &r, len, lo, hi, out, max, &got) != QN_OK ||
        got != count || r.outside) {
        bad[0]++;
        return;
    }
    if (count &&
        memcmp(out, a + first, (count < max ? count : max) * sizeof(*out)))
        bad[1]++;
}

static void check_find(const uint8_t *b, size_t len, const qn_kr_pair *a,
                       size_t n, long *bad)
{
    for (int t = 0; t < 20; t++) {
        size_t i = t_rand(&seed) % n, j = i + t_rand(&seed) % 400;
        uint64_t r = t_rand(&seed), s = t_rand(&seed);
        j = j < n ? j : n - 1;
        /* one key; a range across samples; random; between two keys */
        find_one(b, len, a, n, a[i].key, a[i].key, 300, bad);
        find_one(b, len, a, n, a[i].key, a[j].key, 300, bad);
        find_one(b, len, a, n, a[i].key, a[j].key, t % 7, bad);
        find_one(b, len, a, n, r < s ? r : s, r < s ? s : r, 200, bad);
        if (a[i].key < UINT64_MAX && a[i].key + 1 < a[j].key)
            find_one(b, len, a, n, a[i].key + 1, a[i].key + 1, 5, bad);
        if (a[i].key > 0)
            find_one(b, len, a, n, a[i].key - 1, a[j].key, 300, bad);
    }
    find_one(b, len, a, n, 0, UINT64_MAX, 300, bad);
    find_one(b, len, a, n, 0, UINT64_MAX, 0, bad);
    if (a[0].key > 0)
        find_one(b, len, a, n, 0, a[0].key - 1, 10, bad);
    if (a[n - 1].key < UINT64_MAX)
        find_one(b, len, a, n, a[n - 1].key + 1, UINT64_MAX, 10, bad);
}

static void check_runs(void)
{
    long bad[4] = {0}, fbad[2] = {0};
    size_t maxb = 0, total = 0, pairs = 0;
    qn_kr_pair *a = pairs_alloc(QN_KR_MAX);

    for (int t = 0; t < 64; t++) {
        size_t n = t < 6    ? (size_t)t + 1
                   : t < 12 ? QN_KR_MAX - (size_t)(t - 6)
                            : 1 + t_rand(&seed) % (t % 3 ? 3000 : QN_KR_MAX);
        int kk = t % K_KINDS, w = t % 4 == 0 ? -1 : (t * 7) % 64, m;
        uint8_t *b;
        size_t len;
        m = (int)make_run(a, n, kk, w);
        if (!(b = round_trip(a, (size_t)m, &len, bad)))
            continue;
        check_find(b, len, a, (size_t)m, fbad);
        maxb = len > maxb ? len : maxb;
        total += len;
        pairs += (size_t)m;
        free(b);
    }
    T_EQ(bad[0], 0);  /* encode */
    T_EQ(bad[1], 0);  /* info */
    T_EQ(bad[2], 0);  /* decode */
    T_EQ(bad[3], 0);  /* the second decoder */
    T_EQ(fbad[0], 0); /* find's count, or a read outside */
    T_EQ(fbad[1], 0); /* find's pairs */
    T_CHECK(pairs > 0 && total > 0 && maxb > 0);
    free(a);
}

/* qn_kr_shift (db merge's copy of an input's runs) against encoding the
 * moved pairs, byte for byte, each run also read back by the second
 * decoder; a move past 1..INT64_MAX refused, a damaged header QN_EDB. */
static void check_shift(void)
{
    static const int64_t moves[] = {0, 1, -1, 999, 1 << 20, -(1 << 10)};
    long differ = 0, unread = 0, refused = 0;
    qn_kr_pair *a = pairs_alloc(QN_KR_MAX), *back = pairs_alloc(QN_KR_MAX);

    for (int t = 0; t < 24; t++) {
        size_t n = 1 + t_rand(&seed) % (t % 4 ? 2000 : QN_KR_MAX), m, got;
        int64_t d = moves[t % 6], lo;
        uint8_t *b, *moved, *want;
        size_t len, wlen;
        m = make_run(a, n, t % K_KINDS, (t * 5) % 41);
        if (qn_kr_encode(a, m, &b, &len) != QN_OK) {
            differ++;
            continue;
        }
        lo = a[0].row;
        for (size_t i = 1; i < m; i++)
            lo = a[i].row < lo ? a[i].row : lo;
        if (lo + d < 1) { /* a row would go below 1 */
            refused += qn_kr_shift(b, len, d, &moved) != QN_EINVAL;
            free(b);
            continue;
        }
        for (size_t i = 0; i < m; i++)
            a[i].row += d;
        T_EQ(qn_kr_shift(b, len, d, &moved), QN_OK);
        T_EQ(qn_kr_encode(a, m, &want, &wlen), QN_OK);
        differ += !moved || !want || wlen != len || memcmp(moved, want, len);
        unread += !moved || ref_decode(moved, len, back, &got) != QN_OK ||
                  got != m || memcmp(back, a, m * sizeof(*a));
        free(b);
        free(moved);
        free(want);
    }
    T_EQ(differ, 0);
    T_EQ(unread, 0);
    T_EQ(refused, 0);
    {
        qn_kr_pair one = {7, INT64_MAX - 1};
        uint8_t *b, *moved = (uint8_t *)1;
        size_t len;
        T_EQ(qn_kr_encode(&one, 1, &b, &len), QN_OK);
        T_EQ(qn_kr_shift(b, len, 2, &moved), QN_EINVAL);
        T_CHECK(moved == NULL);
        T_EQ(qn_kr_shift(b, len, 1, &moved), QN_OK);
        free(moved);
        b[8] ^= 0xff; /* the version byte */
        T_EQ(qn_kr_shift(b, len, 1, &moved), QN_EDB);
        free(b);
    }
    free(a);
    free(back);
}

/* 65,536 random ids with consecutive rows: the batch of the store */
static void check_batch_size(void)
{
    qn_kr_pair *a = pairs_alloc(QN_KR_MAX);
    uint8_t *b = NULL;
    size_t len = 0;

    for (size_t i = 0; i < QN_KR_MAX; i++) {
        a[i].key = t_rand(&seed);
        a[i].row = 1000000 + (int64_t)i;
    }
    T_EQ(qn_kr_sort(a, QN_KR_MAX), QN_OK);
    T_EQ(qn_kr_encode(a, QN_KR_MAX, &b, &len), QN_OK);
    /* entropy of sorted random ids ~48.4 bits, 16-bit offsets, samples:
     * 8.3 bytes a pair in the prototype; allow up to 8.5 */
    T_CHECK(len < QN_KR_MAX * 85 / 10);
    printf("65536 random ids: %zu bytes, %.3f a pair\n", len,
           (double)len / QN_KR_MAX);
    free(b);
    free(a);
}

static void check_invalid(void)
{
    qn_kr_pair a[3] = {{5, 1}, {5, 2}, {9, 1}}, bad[2] = {{5, 2}, {5, 2}};
    qn_kr_pair neg[1] = {{5, 0}}, desc[2] = {{9, 1}, {5, 2}};
    uint8_t *b = (uint8_t *)a;
    size_t len = 7, got = 7;
    qn_kr_info in;

    T_EQ(qn_kr_encode(a, 0, &b, &len), QN_EINVAL);
    T_CHECK(b == NULL && len == 0);
    T_EQ(qn_kr_encode(bad, 2, &b, &len), QN_EINVAL);  /* a pair twice */
    T_EQ(qn_kr_encode(neg, 1, &b, &len), QN_EINVAL);  /* row 0 */
    T_EQ(qn_kr_encode(desc, 2, &b, &len), QN_EINVAL); /* unsorted */
    T_EQ(qn_kr_encode(a, QN_KR_MAX + 1, &b, &len), QN_EINVAL);
    T_EQ(qn_kr_encode(a, 3, &b, &len), QN_OK);
    T_EQ(qn_kr_find(rd_read, NULL, len, 9, 5, a, 3, &got), QN_EINVAL);
    T_EQ(got, 0);
    T_EQ(qn_kr_find(rd_read, NULL, len, 5, 9, NULL, 3, &got), QN_EINVAL);
    T_EQ(qn_kr_info_get(NULL, 0, &in), QN_EDB);
    T_EQ(qn_kr_decode(b, len, NULL), QN_EINVAL);
    {
        /* a read error is passed up, at every read */
        long fails = 0, reads;
        rd r = {b, len, 0, 0, 0};
        T_EQ(qn_kr_find(rd_read, &r, len, 0, UINT64_MAX, a, 3, &got), QN_OK);
        reads = r.reads;
        for (long f = 1; f <= reads; f++) {
            rd e = {b, len, 0, 0, f};
            fails += qn_kr_find(rd_read, &e, len, 0, UINT64_MAX, a, 3, &got) ==
                     QN_EIO;
        }
        T_EQ(fails, reads);
    }
    free(b);
}

/* ------------------------------------------------------------------ */
/* Damage */

/* decode must refuse it; find must stay inside it */
static int refused(const uint8_t *b, size_t len, qn_kr_pair *tmp)
{
    rd r = {b, len, 0, 0, 0};
    size_t got;
    int rc = qn_kr_find(rd_read, &r, len, 0, UINT64_MAX, tmp, QN_KR_MAX, &got);

    if (r.outside || (rc != QN_OK && rc != QN_EDB))
        return 0;
    return qn_kr_decode(b, len, tmp) == QN_EDB;
}

static void check_damage(void)
{
    static const struct {
        size_t n;
        int kk, w;
    } runs[] = {{1, K_UNIFORM, 0},    {2, K_EXTREME, 63}, {129, K_REPEAT, 5},
                {300, K_UNIFORM, -1}, {257, K_SMALL, 17}, {400, K_CLUSTER, 40}};
    qn_kr_pair *a = pairs_alloc(QN_KR_MAX), *tmp = pairs_alloc(QN_KR_MAX);
    long flips = 0, caught = 0, cuts = 0, cut_caught = 0, forged = 0;
    long forged_ok = 0, forged_canon = 0, garbage = 0, garbage_caught = 0;
    long cut_valid = 0, cut_find = 0;
    qn_kr_info in;

    for (size_t r = 0; r < sizeof(runs) / sizeof(*runs); r++) {
        size_t n = make_run(a, runs[r].n, runs[r].kk, runs[r].w), len;
        long dummy[4] = {0};
        uint8_t *b = round_trip(a, n, &len, dummy), *c;
        if (!b) {
            T_FAILF("run %zu not encoded", r);
            continue;
        }
        c = malloc(len);
        for (size_t cut = 0; cut < len; cut++) {
            uint8_t *t = malloc(cut ? cut : 1);
            memcpy(t, b, cut);
            cuts++;
            cut_caught += refused(t, cut, tmp);
            /* a header that still fits: only key codes were cut, and
             * the lookup of every key must run into the cut */
            if (qn_kr_info_get(t, cut, &in) == QN_OK) {
                rd rr = {t, cut, 0, 0, 0};
                size_t got;
                cut_valid++;
                cut_find += qn_kr_find(rd_read, &rr, cut, 0, UINT64_MAX, tmp,
                                       QN_KR_MAX, &got) == QN_EDB;
            }
            free(t);
        }
        for (size_t i = 0; i < 8 * len; i++) {
            memcpy(c, b, len);
            c[i / 8] ^= (uint8_t)(1u << (i % 8));
            flips++;
            caught += refused(c, len, tmp);
            /* the same flip with its checksum made right: refused, or
             * the flip made another valid run (its exact encoding) */
            if (i >= 64) {
                uint64_t s = ref_sum(c + 8, len - 8);
                for (int j = 0; j < 8; j++)
                    c[j] = (uint8_t)(s >> (8 * j));
                forged++;
                if (qn_kr_decode(c, len, tmp) == QN_OK) {
                    uint8_t *e = NULL;
                    size_t elen = 0;
                    forged_ok++;
                    if (qn_kr_encode(tmp, n, &e, &elen) == QN_OK &&
                        elen == len && !memcmp(e, c, len))
                        forged_canon++;
                    free(e);
                }
            }
        }
        free(c);
        free(b);
    }
    /* garbage: random bytes, and a valid header over random bytes */
    for (int t = 0; t < 3000; t++) {
        size_t len = t_rand(&seed) % 3000, n;
        uint8_t *g = malloc(len + 64);
        for (size_t i = 0; i < len; i++)
            g[i] = (uint8_t)t_rand(&seed);
        if (t % 2 && len >= 48) {
            uint8_t *b;
            size_t blen;
            long dummy[4] = {0};
            n = make_run(a, 1 + t % 400, t % K_KINDS, t % 64);
            if ((b = round_trip(a, n, &blen, dummy))) {
                memcpy(g, b, 48 < blen ? 48 : blen);
                free(b);
            }
        }
        garbage++;
        garbage_caught += refused(g, len, tmp);
        free(g);
    }
    printf("damage: %ld/%ld truncations (%ld with a valid header, all"
           " refused by find: %s), %ld/%ld bit flips, %ld/%ld garbage"
           " refused; forged checksums: %ld/%ld decoded, all of them"
           " canonical: %s\n",
           cut_caught, cuts, cut_valid, cut_find == cut_valid ? "yes" : "no",
           caught, flips, garbage_caught, garbage, forged_ok, forged,
           forged_ok == forged_canon ? "yes" : "no");
    T_EQ(cut_caught, cuts);
    T_EQ(cut_find, cut_valid);
    T_CHECK(cut_valid > 0);
    T_EQ(caught, flips);
    T_EQ(garbage_caught, garbage);
    T_EQ(forged_canon, forged_ok);
    free(a);
    free(tmp);
}

/* ------------------------------------------------------------------ */
/* The set, against a sorted list of every pair added */

static qn_kr_pair *blist;
static size_t bn;

/* the set holds exactly the pairs of blist[0..bn) (keys probed: all of
 * blist's, and as many random ones) */
static int set_agrees(const qn_kr_set *s)
{
    qn_kr_pair *sorted = pairs_alloc(bn);
    int64_t *rows = malloc((bn + 1) * sizeof(*rows));
    int ok = qn_kr_set_count(s) == bn;

    memcpy(sorted, blist, bn * sizeof(*sorted));
    qsort(sorted, bn, sizeof(*sorted), cmp_pair);
    for (size_t i = 0; ok && i < bn; i++) {
        size_t cur = 0, m = 0, j = i;
        if (i && sorted[i - 1].key == sorted[i].key)
            continue;
        while (m <= bn && qn_kr_set_next(s, sorted[i].key, &cur, &rows[m]))
            m++;
        qsort(rows, m, sizeof(*rows), cmp_row);
        for (size_t x = 0; ok && x < m; x++, j++)
            ok = j < bn && sorted[j].key == sorted[i].key &&
                 sorted[j].row == rows[x];
        ok = ok && (j == bn || sorted[j].key != sorted[i].key);
    }
    for (int t = 0; ok && t < 1000; t++) {
        uint64_t k = t_rand(&seed);
        size_t cur = 0, lo = 0, hi = bn;
        int64_t row;
        while (lo < hi) {
            size_t mid = lo + (hi - lo) / 2;
            if (sorted[mid].key < k)
                lo = mid + 1;
            else
                hi = mid;
        }
        if (lo == bn || sorted[lo].key != k)
            ok = !qn_kr_set_next(s, k, &cur, &row);
    }
    free(sorted);
    free(rows);
    return ok;
}

static void badd(uint64_t k, int64_t r)
{
    blist[bn].key = k;
    blist[bn++].row = r;
}

static void check_set(void)
{
    qn_kr_set *s = qn_kr_set_new();
    size_t cap = 400000;
    long addfail = 0;
    uint64_t few[5];

    blist = pairs_alloc(cap);
    bn = 0;
    T_CHECK(s != NULL);
    T_EQ(qn_kr_set_count(s), 0);
    T_CHECK(set_agrees(s));
    for (int i = 0; i < 5; i++)
        few[i] = t_rand(&seed);
    /* repeats, key 0 and UINT64_MAX, growth from 1,024 slots past 2^18 */
    for (size_t i = 0; i < 300000; i++) {
        uint64_t r = t_rand(&seed), k;
        k = r % 1000 == 0 ? few[r % 5]
            : r % 97 == 1 ? 0
            : r % 89 == 2 ? ~0ull
                          : r;
        qn_kr_set_prefetch(s, k);
        addfail += qn_kr_set_add(s, k, (int64_t)(i + 1)) != QN_OK;
        badd(k, (int64_t)(i + 1));
        if (i == 100 || i == 5000 || i == 299999)
            T_CHECK(set_agrees(s));
    }
    T_EQ(addfail, 0);
    qn_kr_set_clear(s);
    bn = 0;
    T_CHECK(set_agrees(s));
    /* reserve: then no allocation while adding */
    T_EQ(qn_kr_set_reserve(s, 100000), QN_OK);
    t_fail_after(-1);
    {
        long before = t_counted();
        for (size_t i = 0; i < 100000; i++) {
            uint64_t k = t_rand(&seed) | 1;
            addfail += qn_kr_set_add(s, k, 7) != QN_OK;
            badd(k, 7);
        }
        T_EQ(t_counted() - before, 0);
    }
    T_CHECK(set_agrees(s));
    /* runs into the set */
    {
        qn_kr_pair *a = pairs_alloc(QN_KR_MAX);
        for (int t = 0; t < 6; t++) {
            /* (K_REPEAT: a few keys of many rows each, probed in turn) */
            size_t n = make_run(
                a, 1 + t_rand(&seed) % 20000 / (t == K_REPEAT ? 20 : 1),
                t % K_KINDS, t % 2 ? -1 : 30);
            uint8_t *b;
            size_t len;
            if (qn_kr_encode(a, n, &b, &len) != QN_OK) {
                T_FAILF("encode");
                continue;
            }
            T_EQ(qn_kr_set_add_run(s, b, len), QN_OK);
            for (size_t i = 0; i < n; i++)
                badd(a[i].key, a[i].row);
            /* a damaged run: refused, the set unchanged */
            b[len / 2] ^= 4;
            T_EQ(qn_kr_set_add_run(s, b, len), QN_EDB);
            T_EQ(qn_kr_set_add_run(s, b, 10), QN_EDB);
            free(b);
        }
        T_CHECK(set_agrees(s));
        free(a);
    }
    qn_kr_set_free(s);
    qn_kr_set_free(NULL);
    free(blist);
}

/* ------------------------------------------------------------------ */
/* Allocation failure: each allocation of each call failed in turn. */

static void check_nomem(void)
{
    qn_kr_pair *a = pairs_alloc(5000), *c = pairs_alloc(5000);
    size_t n = make_run(a, 5000, K_EXTREME, -1), len;
    long nomem = 0, wrong = 0, calls = 0;
    int set_done = 0;
    uint8_t *run = NULL, *b;

    /* encode and sort: one allocation each */
    for (long f = 1; f < 1000; f++) {
        int rc;
        t_fail_after(f);
        b = (uint8_t *)a;
        rc = qn_kr_encode(a, n, &b, &len);
        t_fail_after(-1);
        if (rc == QN_OK) {
            run = b;
            break;
        }
        nomem += rc == QN_ENOMEM && !b && !len;
        calls++;
    }
    memcpy(c, a, n * sizeof(*a));
    c[0] = a[n - 1];
    c[n - 1] = a[0];
    for (long f = 1; f < 1000; f++) {
        int rc;
        qn_kr_pair *before = pairs_alloc(n);
        memcpy(before, c, n * sizeof(*c));
        t_fail_after(f);
        rc = qn_kr_sort(c, n);
        t_fail_after(-1);
        if (rc == QN_OK) {
            free(before);
            break;
        }
        calls++;
        nomem += rc == QN_ENOMEM && !memcmp(before, c, n * sizeof(*c));
        free(before);
    }
    T_CHECK(!memcmp(a, c, n * sizeof(*a)));
    /* the set: new, adds across growth (key 0 too), a run added */
    blist = pairs_alloc(20000 + n);
    for (long f = 1; f < 1000; f++) {
        qn_kr_set *s;
        int failed = 0;
        bn = 0;
        t_fail_after(f);
        if (!(s = qn_kr_set_new())) {
            t_fail_after(-1);
            calls++;
            nomem++;
            continue;
        }
        for (size_t i = 0; i < 20000 && !failed; i++) {
            uint64_t k = i % 1000 == 3 ? 0 : t_rand(&seed);
            int rc = qn_kr_set_add(s, k, (int64_t)i + 1);
            if (rc == QN_OK) {
                badd(k, (int64_t)i + 1);
                continue;
            }
            failed = 1;
            calls++;
            nomem += rc == QN_ENOMEM;
        }
        if (!failed) {
            int rc = qn_kr_set_add_run(s, run, len);
            if (rc == QN_OK) {
                for (size_t i = 0; i < n; i++)
                    badd(a[i].key, a[i].row);
            } else {
                failed = 1;
                calls++;
                nomem += rc == QN_ENOMEM;
            }
        }
        t_fail_after(-1);
        wrong += !set_agrees(s);
        qn_kr_set_free(s);
        if (!failed || nomem != calls) { /* done, or not a failed malloc */
            set_done = !failed;
            break;
        }
    }
    T_CHECK(run != NULL && set_done);
    printf("allocation failures: %ld calls failed, %ld with QN_ENOMEM and"
           " nothing changed\n",
           calls, nomem);
    T_CHECK(calls >= 6); /* encode, sort, new, 2 growth, zero list, run */
    T_EQ(nomem, calls);
    T_EQ(wrong, 0);
    free(blist);
    free(run);
    free(a);
    free(c);
}

/* QN_KEYRUN_SEEDS=DIR: write the fuzz target's seeds (fuzz/corpus/keyrun,
 * made once so): valid runs of each kind, and a truncated one */
static void write_seeds(const char *dir)
{
    static const struct {
        size_t n;
        int kk, w;
        const char *name;
    } seeds[] = {{1, K_UNIFORM, 0, "one"},
                 {2, K_EXTREME, 63, "extreme-w63"},
                 {129, K_REPEAT, 5, "repeat-129"},
                 {300, K_UNIFORM, -1, "batch-300"},
                 {257, K_SMALL, 17, "small-keys"},
                 {1000, K_CLUSTER, 40, "cluster-1000"}};
    qn_kr_pair *a = pairs_alloc(2000);

    for (size_t i = 0; i < sizeof(seeds) / sizeof(*seeds); i++) {
        size_t n = make_run(a, seeds[i].n, seeds[i].kk, seeds[i].w), len;
        uint8_t *b;
        char path[4096];
        FILE *f;
        if (qn_kr_encode(a, n, &b, &len) != QN_OK)
            abort();
        snprintf(path, sizeof(path), "%s/%s", dir, seeds[i].name);
        if (!(f = fopen(path, "wb")) || fwrite(b, 1, len, f) != len)
            abort();
        fclose(f);
        if (i == 3) { /* the batch cut short */
            snprintf(path, sizeof(path), "%s/%s-cut", dir, seeds[i].name);
            if (!(f = fopen(path, "wb")) || fwrite(b, 1, len / 2, f) != len / 2)
                abort();
            fclose(f);
        }
        free(b);
    }
    free(a);
}

int main(void)
{
    if (getenv("QN_KEYRUN_SEEDS")) {
        write_seeds(getenv("QN_KEYRUN_SEEDS"));
        return 0;
    }
    t_alloc_hook();
    check_sort();
    check_invalid();
    check_runs();
    check_batch_size();
    check_shift();
    check_damage();
    check_set();
    check_nomem();
    return t_done();
}
