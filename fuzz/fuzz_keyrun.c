/* fuzz_keyrun: key runs (src/store/keyrun.h). Each input is tried twice:
 * as it is, and with its checksum made right (written here from the
 * documented format, docs/STORE-KEYRUNS.md), so that the structure checks
 * behind the checksum are reached too. qn_kr_info_get and qn_kr_decode
 * say QN_OK or QN_EDB; a decoded run is sorted, its rows within the
 * header's range, and encodes back to the same bytes; qn_kr_find never
 * reads outside the run and, on a run that decodes, finds what a linear
 * scan finds; qn_kr_set_add_run adds all of a run or nothing. */
#include <string.h>

#include "fuzz.h"
#include "quench/common.h"
#include "store/keyrun.h"

typedef struct blob {
    const uint8_t *b;
    size_t len;
} blob;

/* the run's checksum: 8-byte little-endian words of b[8..len) (the last
 * one zero-padded), h = (rotl(h, 23) ^ w) * M, the length, fmix64 */
static uint64_t sum(const uint8_t *p, size_t n)
{
    uint64_t h = 0x243f6a8885a308d3ull;

    for (size_t i = 0; i < n; i += 8) {
        uint64_t w = 0;
        for (size_t j = 0; j < 8 && i + j < n; j++)
            w |= (uint64_t)p[i + j] << (8 * j);
        h = ((h << 23 | h >> 41) ^ w) * 0x9e3779b97f4a7c15ull;
    }
    h ^= n;
    h ^= h >> 33;
    h *= 0xff51afd7ed558ccdull;
    h ^= h >> 33;
    h *= 0xc4ceb9fe1a85ec53ull;
    return h ^ h >> 33;
}

static int read_blob(void *ctx, size_t off, void *buf, size_t n)
{
    const blob *r = ctx;

    FUZZ_ASSERT(off <= r->len && n <= r->len - off);
    memcpy(buf, r->b + off, n);
    return QN_OK;
}

/* find lo..hi: within bounds always; on a decoded run, the scan's answer */
static void find(const blob *r, const qn_kr_pair *p, size_t n, uint64_t lo,
                 uint64_t hi, qn_kr_pair *out, size_t max)
{
    size_t got = 1, first = 0, count = 0;
    int rc = qn_kr_find(read_blob, (void *)r, r->len, lo, hi, out, max, &got);

    FUZZ_ASSERT(rc == QN_OK || rc == QN_EDB);
    if (rc != QN_OK)
        FUZZ_ASSERT(got == 0);
    if (!p)
        return;
    FUZZ_ASSERT(rc == QN_OK);
    for (size_t i = 0; i < n; i++)
        if (p[i].key >= lo && p[i].key <= hi && !count++)
            first = i;
    FUZZ_ASSERT(got == count);
    FUZZ_ASSERT(!count || !memcmp(out, p + first,
                                  (count < max ? count : max) * sizeof(*p)));
}

static void one(const uint8_t *b, size_t len, uint64_t a, uint64_t z)
{
    blob r = {b, len};
    qn_kr_info info;
    qn_kr_pair *p = NULL, *out = malloc(300 * sizeof(*out));
    qn_kr_set *s = qn_kr_set_new();
    int rc = qn_kr_info_get(b, len, &info), dec = QN_EDB;

    FUZZ_ASSERT(rc == QN_OK || rc == QN_EDB);
    if (rc == QN_OK) {
        FUZZ_ASSERT(info.n >= 1 && info.n <= QN_KR_MAX);
        p = malloc(info.n * sizeof(*p));
        dec = qn_kr_decode(b, len, p);
        FUZZ_ASSERT(dec == QN_OK || dec == QN_EDB);
    }
    if (dec == QN_OK) {
        uint8_t *e = NULL;
        size_t elen = 0;
        FUZZ_ASSERT(p[0].key == info.first && p[info.n - 1].key == info.last);
        for (size_t i = 0; i < info.n; i++) {
            FUZZ_ASSERT(p[i].row >= info.row_lo && p[i].row <= info.row_hi);
            FUZZ_ASSERT(!i || p[i - 1].key < p[i].key ||
                        (p[i - 1].key == p[i].key && p[i - 1].row < p[i].row));
        }
        FUZZ_ASSERT(qn_kr_encode(p, info.n, &e, &elen) == QN_OK);
        FUZZ_ASSERT(elen == len && !memcmp(e, b, len));
        free(e);
    } else {
        free(p);
        p = NULL;
    }
    find(&r, p, p ? info.n : 0, 0, UINT64_MAX, out, 300);
    find(&r, p, p ? info.n : 0, a < z ? a : z, a < z ? z : a, out, 7);
    if (p) {
        uint64_t x = p[a % info.n].key, y = p[z % info.n].key;
        find(&r, p, info.n, x < y ? x : y, x < y ? y : x, out, 300);
    }
    FUZZ_ASSERT(s && qn_kr_set_add(s, 12345, -7) == QN_OK);
    rc = qn_kr_set_add_run(s, b, len);
    FUZZ_ASSERT(rc == dec);
    FUZZ_ASSERT(qn_kr_set_count(s) == 1 + (rc == QN_OK ? info.n : 0));
    if (p) {
        size_t cur = 0;
        int64_t row;
        int seen = 0;
        while (qn_kr_set_next(s, p[a % info.n].key, &cur, &row))
            seen += row == p[a % info.n].row;
        FUZZ_ASSERT(seen == 1);
    }
    qn_kr_set_free(s);
    free(p);
    free(out);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    uint64_t a = 0, z = 0;
    uint8_t *c;

    if (size > FUZZ_MAX_INPUT)
        return 0;
    for (size_t i = 0; i < size; i++) { /* two range ends from the input */
        a = a * 31 + data[i];
        z = z * 131 + data[size - 1 - i];
    }
    one(data, size, a, z);
    if (size < 8)
        return 0;
    c = malloc(size);
    memcpy(c, data, size);
    {
        uint64_t s = sum(c + 8, size - 8);
        for (int j = 0; j < 8; j++)
            c[j] = (uint8_t)(s >> (8 * j));
    }
    one(c, size, a, z);
    free(c);
    return 0;
}
