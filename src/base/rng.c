/*
 * rng.c: seeded, splittable random streams (the only user of libsodium's
 * generator; see rng.h for the construction).
 */
#include "base/rng.h"
#include "base/text.h"

#include <string.h>

#include <sodium.h>

#include "base/bits.h"
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
    rng->pos = rng->end = 0;
}

/*
 * ChaCha20 (RFC 8439, the IETF variant libsodium's
 * crypto_stream_chacha20_ietf and randombytes_buf_deterministic use) on
 * QN_RNG_BATCH independent blocks at once: word w of lane l is x[w][l].
 */
#define LANES QN_RNG_BATCH
_Static_assert(QN_RNG_AHEAD == LANES,
               "a refill fills buf with one lane a block");
#if defined(__GNUC__)
typedef uint32_t lanes __attribute__((vector_size(4 * LANES)));
#define ROTL(v, n) (((v) << (n)) | ((v) >> (32 - (n))))
#define QR(a, b, c, d)                                                         \
    (x[a] += x[b], x[d] ^= x[a], x[d] = ROTL(x[d], 16), x[c] += x[d],          \
     x[b] ^= x[c], x[b] = ROTL(x[b], 12), x[a] += x[b], x[d] ^= x[a],          \
     x[d] = ROTL(x[d], 8), x[c] += x[d], x[b] ^= x[c], x[b] = ROTL(x[b], 7))

/* With AVX2 the 8 lanes are one register (and a clone of the function
 * for it is picked at load time); otherwise two SSE registers. */
#if defined(__x86_64__) && defined(__has_attribute)
#if __has_attribute(target_clones) && !defined(__clang__)
__attribute__((target_clones("avx2", "default")))
#endif
#endif
static void
chacha_lanes(uint32_t st[16][LANES])
{
    lanes x[16], in[16];

    for (int w = 0; w < 16; w++) {
        memcpy(&in[w], st[w], sizeof(in[w]));
        x[w] = in[w];
    }
    for (int r = 0; r < 10; r++) {
        QR(0, 4, 8, 12), QR(1, 5, 9, 13), QR(2, 6, 10, 14), QR(3, 7, 11, 15);
        QR(0, 5, 10, 15), QR(1, 6, 11, 12), QR(2, 7, 8, 13), QR(3, 4, 9, 14);
    }
    for (int w = 0; w < 16; w++) {
        x[w] += in[w];
        memcpy(st[w], &x[w], sizeof(x[w]));
    }
}
#else
#define ROTL(v, n) ((uint32_t)((v) << (n)) | ((v) >> (32 - (n))))
#define QR(a, b, c, d)                                                         \
    (x[a] += x[b], x[d] ^= x[a], x[d] = ROTL(x[d], 16), x[c] += x[d],          \
     x[b] ^= x[c], x[b] = ROTL(x[b], 12), x[a] += x[b], x[d] ^= x[a],          \
     x[d] = ROTL(x[d], 8), x[c] += x[d], x[b] ^= x[c], x[b] = ROTL(x[b], 7))

static void chacha_lanes(uint32_t st[16][LANES])
{
    for (int l = 0; l < LANES; l++) {
        uint32_t x[16];
        for (int w = 0; w < 16; w++)
            x[w] = st[w][l];
        for (int r = 0; r < 10; r++) {
            QR(0, 4, 8, 12), QR(1, 5, 9, 13), QR(2, 6, 10, 14),
                QR(3, 7, 11, 15);
            QR(0, 5, 10, 15), QR(1, 6, 11, 12), QR(2, 7, 8, 13),
                QR(3, 4, 9, 14);
        }
        for (int w = 0; w < 16; w++)
            st[w][l] += x[w];
    }
}
#endif

static uint32_t le32(const uint8_t *p)
{
    return (uint32_t)p[0] | (uint32_t)p[1] << 8 | (uint32_t)p[2] << 16 |
           (uint32_t)p[3] << 24;
}

/* four stores a compiler merges into one on a little-endian machine */
static void put_le32(uint8_t *p, uint32_t v)
{
    p[0] = (uint8_t)v;
    p[1] = (uint8_t)(v >> 8);
    p[2] = (uint8_t)(v >> 16);
    p[3] = (uint8_t)(v >> 24);
}

/* The state's constant words: "expand 32-byte k". */
static void set_consts(uint32_t st[16][LANES], int l)
{
    st[0][l] = 0x61707865;
    st[1][l] = 0x3320646e;
    st[2][l] = 0x79622d32;
    st[3][l] = 0x6b206574;
}

/*
 * Lanes of derive(): key = key32 (8 little-endian words), counter 0,
 * nonce = n + l in lane l (8 little-endian bytes, then zeros).
 */
static void derive_lanes(uint32_t st[16][LANES], const uint8_t *key32,
                         uint64_t n)
{
    for (int l = 0; l < LANES; l++) {
        uint64_t i = n + (uint64_t)l;
        set_consts(st, l);
        for (int w = 0; w < 8; w++)
            st[4 + w][l] = le32(key32 + 4 * w);
        st[12][l] = 0;
        st[13][l] = (uint32_t)i;
        st[14][l] = (uint32_t)(i >> 32);
        st[15][l] = 0;
    }
    chacha_lanes(st);
}

/*
 * From keys in words 0..7 of each lane (derive_lanes' output) to the
 * state of randombytes_buf_deterministic's first block under each: the
 * key moved to words 4..11, counter 0, its "LibsodiumDRG" nonce.
 */
static void keyed_blocks(uint32_t st[16][LANES])
{
    static const uint8_t drg[12] = {'L', 'i', 'b', 's', 'o', 'd',
                                    'i', 'u', 'm', 'D', 'R', 'G'};

    for (int w = 7; w >= 0; w--)
        memcpy(st[4 + w], st[w], sizeof(st[w]));
    for (int l = 0; l < LANES; l++) {
        set_consts(st, l);
        st[12][l] = 0;
        for (int w = 0; w < 3; w++)
            st[13 + w][l] = le32(drg + 4 * w);
    }
}

void qn_rng_init_batch(qn_rng *rngs, int count, const qn_seed *seed,
                       uint64_t first)
{
    uint32_t st[16][LANES];

    derive_lanes(st, seed->b, first); /* K_i, as derive() makes it */
    keyed_blocks(st);
    for (int l = 0; l < count; l++)
        for (int w = 0; w < 8; w++)
            put_le32(rngs[l].key + 4 * w, st[4 + w][l]);
    chacha_lanes(st);
    for (int l = 0; l < count; l++) {
        for (int w = 0; w < 16; w++)
            put_le32(rngs[l].buf + 4 * w, st[w][l]);
        rngs[l].block = 1;
        rngs[l].pos = 0;
        rngs[l].end = 64;
    }
}

/*
 * The next blocks into buf: block 0 alone (most streams read no further),
 * later ones QN_RNG_AHEAD at a time, block j under derive(key, j) as
 * rng.h defines, computed side by side.
 */
static void refill(qn_rng *rng)
{
    uint32_t st[16][LANES];

    if (rng->block == 0) {
        randombytes_buf_deterministic(rng->buf, 64, rng->key);
        rng->block = 1;
        rng->end = 64;
    } else {
        derive_lanes(st, rng->key, rng->block);
        keyed_blocks(st);
        chacha_lanes(st);
        for (int l = 0; l < LANES; l++)
            for (int w = 0; w < 16; w++)
                put_le32(rng->buf + 64 * l + 4 * w, st[w][l]);
        rng->block += LANES;
        rng->end = 64 * LANES;
    }
    rng->pos = 0;
}

void qn_rng_bytes(qn_rng *rng, void *out, size_t n)
{
    uint8_t *o = out;

    while (n) {
        size_t take;
        if (rng->pos == rng->end)
            refill(rng);
        take = (size_t)(rng->end - rng->pos);
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

    if (rng->pos <= rng->end - 8) { /* the usual case: 8 bytes in buf */
        memcpy(b, rng->buf + rng->pos, sizeof(b));
        rng->pos += 8;
    } else {
        qn_rng_bytes(rng, b, sizeof(b));
    }
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
        if (bits == 1) { /* two colours: a word for 64 cells, as below */
            for (int i = 0; i < n; i += 64) {
                int m = n - i < 64 ? n - i : 64;
                if (rng->pos <= rng->end - 8) {
                    memcpy(&pool, rng->buf + rng->pos, sizeof(pool));
                    rng->pos += 8;
                } else {
                    qn_rng_bytes(rng, &pool, sizeof(pool));
                }
                qn_bits_spread(out + i, pool, m);
            }
            return;
        }
        for (int i = 0; i < n; i++) {
            if (have < bits) {
                if (rng->pos <= rng->end - 8) { /* in buf */
                    memcpy(&pool, rng->buf + rng->pos, sizeof(pool));
                    rng->pos += 8;
                } else {
                    qn_rng_bytes(rng, &pool, sizeof(pool));
                }
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
            if (rng->pos == rng->end)
                refill(rng);
            b = rng->buf[rng->pos++];
        } while (b >= lim);
        out[i] = (uint8_t)(b % k);
    }
}
