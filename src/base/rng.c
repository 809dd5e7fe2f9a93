/*
 * rng.c: seeded, splittable random streams (the only user of libsodium's
 * generator; see rng.h for the construction).
 */
#include "base/text.h"
#include "base/rng.h"

#include <string.h>

#include <sodium.h>

#include "base/version.h"

int qn_rng_global_init(qn_err *err)
{
    if (sodium_init() < 0)
        return qn_err_set(err, QN_ERR, 0, 0, "cannot initialise libsodium");
    return QN_OK;
}

const char *qn_version_sodium(void)
{
    return sodium_version_string();
}


int qn_seed_parse(qn_seed *out, const char *hex, qn_err *err)
{
    size_t n;

    if (hex[0] == '0' && (hex[1] == 'x' || hex[1] == 'X'))
        hex += 2;
    n = strlen(hex);
    if (n < 1 || n > 2 * QN_SEED_BYTES)
        return qn_err_set(err, QN_ESYNTAX, 0, 0,
                          "seed must be 1 to 64 hex digits, got %zu", n);
    memset(out, 0, sizeof(*out));
    for (size_t i = 0; i < n; i++) {
        int v = qn_hex_digit((unsigned char)hex[n - 1 - i]);
        if (v < 0)
            return qn_err_set(err, QN_ESYNTAX, 0, 0,
                              "seed has a non-hex character '%c'",
                              hex[n - 1 - i]);
        out->b[QN_SEED_BYTES - 1 - i / 2] |= (uint8_t)(v << (4 * (i % 2)));
    }
    return QN_OK;
}

void qn_seed_random(qn_seed *out)
{
    randombytes_buf(out->b, sizeof(out->b));
}

void qn_seed_format(const qn_seed *seed, char hex_out[65])
{
    sodium_bin2hex(hex_out, 65, seed->b, sizeof(seed->b));
}

/*
 * out = the first 32 bytes of ChaCha20 under key with the 96-bit nonce
 * (n as 8 little-endian bytes, then zeros): a PRF of (key, n).
 */
static void derive(uint8_t out[32], const uint8_t key[32], uint64_t n)
{
    uint8_t nonce[crypto_stream_chacha20_ietf_NONCEBYTES] = {0};

    for (int i = 0; i < 8; i++)
        nonce[i] = (uint8_t)(n >> (8 * i));
    crypto_stream_chacha20_ietf(out, 32, nonce, key);
}

void qn_rng_init(qn_rng *rng, const qn_seed *seed, uint64_t index)
{
    derive(rng->key, seed->b, index);
    rng->block = 0;
    rng->pos = (int)sizeof(rng->buf);
}

static void refill(qn_rng *rng)
{
    uint8_t k[randombytes_SEEDBYTES];

    if (rng->block == 0)
        memcpy(k, rng->key, sizeof(k));
    else
        derive(k, rng->key, rng->block);
    rng->block++;
    randombytes_buf_deterministic(rng->buf, sizeof(rng->buf), k);
    rng->pos = 0;
}

void qn_rng_bytes(qn_rng *rng, void *out, size_t n)
{
    uint8_t *o = out;

    while (n) {
        size_t take;
        if (rng->pos == (int)sizeof(rng->buf))
            refill(rng);
        take = sizeof(rng->buf) - (size_t)rng->pos;
        if (take > n)
            take = n;
        memcpy(o, rng->buf + rng->pos, take);
        rng->pos += (int)take;
        o += take;
        n -= take;
    }
}

uint64_t qn_rng_u64(qn_rng *rng)
{
    uint8_t b[8];
    uint64_t v = 0;

    qn_rng_bytes(rng, b, sizeof(b));
    for (int i = 0; i < 8; i++)
        v |= (uint64_t)b[i] << (8 * i);
    return v;
}

/*
 * Rejection: accept v only below the largest multiple of n that fits in
 * 2^64, so every residue is equally likely.
 */
uint64_t qn_rng_below(qn_rng *rng, uint64_t n)
{
    uint64_t lim = UINT64_MAX - UINT64_MAX % n, v;

    if (n <= 1)
        return 0;
    do
        v = qn_rng_u64(rng);
    while (v >= lim);
    return v % n;
}

void qn_rng_cells(qn_rng *rng, uint8_t *out, int n, unsigned k)
{
    unsigned lim = 256 - 256 % k; /* accept bytes below lim */

    if ((k & (k - 1)) == 0 && k < 256) { /* a power of two: take bits */
        int bits = __builtin_ctz(k), have = 0;
        uint64_t pool = 0;
        for (int i = 0; i < n; i++) {
            if (have < bits) {
                qn_rng_bytes(rng, &pool, sizeof(pool));
                have = 64;
            }
            out[i] = (uint8_t)(pool & (k - 1));
            pool >>= bits;
            have -= bits;
        }
        return;
    }
    for (int i = 0; i < n; i++) {
        unsigned b;
        do {
            if (rng->pos == (int)sizeof(rng->buf))
                refill(rng);
            b = rng->buf[rng->pos++];
        } while (b >= lim);
        out[i] = (uint8_t)(b % k);
    }
}
