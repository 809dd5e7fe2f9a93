/*
 * test_rng.c: the batched stream set-up (qn_rng_init_batch, issue #35)
 * gives the streams rng.h defines, checked against libsodium itself (the
 * construction's reference: K_i is the first 32 bytes of
 * crypto_stream_chacha20_ietf under the seed with nonce i, block 0 is
 * randombytes_buf_deterministic under K_i) and against qn_rng_init's
 * draws past the first block; blocks past the first (drawn several at a
 * time) against libsodium too; the two-colour cell draw is checked against
 * the bits of the stream's little-endian words.
 */
#include <string.h>

#include <sodium.h>

#include "base/bits.h"
#include "base/rng.h"
#include "t.h"

/* The reference: stream `index` of `seed`, straight from libsodium. */
static void reference(const qn_seed *seed, uint64_t index, uint8_t key[32],
                      uint8_t block0[64])
{
    uint8_t nonce[crypto_stream_chacha20_ietf_NONCEBYTES] = {0};

    for (int i = 0; i < 8; i++)
        nonce[i] = (uint8_t)(index >> (8 * i));
    crypto_stream_chacha20_ietf(key, 32, nonce, seed->b);
    randombytes_buf_deterministic(block0, 64, key);
}

static void check_batch(const qn_seed *seed, uint64_t first, int count)
{
    qn_rng batch[QN_RNG_BATCH];

    memset(batch, 0xee, sizeof(batch));
    qn_rng_init_batch(batch, count, seed, first);
    for (int l = 0; l < count; l++) {
        uint8_t key[32], block0[64], a[200], b[200];
        qn_rng one;
        reference(seed, first + (uint64_t)l, key, block0);
        T_CHECK(!memcmp(batch[l].key, key, 32));
        qn_rng_bytes(&batch[l], a, sizeof(a));
        T_CHECK(!memcmp(a, block0, 64));
        qn_rng_init(&one, seed, first + (uint64_t)l);
        qn_rng_bytes(&one, b, sizeof(b));
        T_CHECK(!memcmp(a, b, sizeof(a))); /* blocks 1.. as well */
    }
    if (count < QN_RNG_BATCH) /* lanes past count are left alone */
        T_CHECK(batch[count].key[0] == 0xee && batch[count].buf[63] == 0xee);
}

static void test_batch(void)
{
    qn_seed seed;
    uint64_t r = 35;
    static const uint64_t firsts[] = {0, 1, 1000, UINT64_C(0xfffffffc),
                                      UINT64_MAX - 7};

    memset(&seed, 0, sizeof(seed));
    for (size_t f = 0; f < sizeof(firsts) / sizeof(firsts[0]); f++)
        check_batch(&seed, firsts[f], QN_RNG_BATCH);
    memset(&seed, 0xff, sizeof(seed));
    check_batch(&seed, UINT64_C(0xfffffffc), QN_RNG_BATCH);
    for (int t = 0; t < 20; t++) {
        for (int i = 0; i < 32; i++)
            seed.b[i] = (uint8_t)t_rand(&r);
        check_batch(&seed, t_rand(&r), 1 + (int)(t_rand(&r) % QN_RNG_BATCH));
    }
}

/* Block j of a stream keyed k, straight from libsodium: block 0 under k,
 * block j > 0 under ChaCha20(key = k, nonce = j) (rng.h). */
static void reference_block(const uint8_t k[32], uint64_t j, uint8_t out[64])
{
    uint8_t nonce[crypto_stream_chacha20_ietf_NONCEBYTES] = {0}, kj[32];

    if (j == 0) {
        randombytes_buf_deterministic(out, 64, k);
        return;
    }
    for (int i = 0; i < 8; i++)
        nonce[i] = (uint8_t)(j >> (8 * i));
    crypto_stream_chacha20_ietf(kj, 32, nonce, k);
    randombytes_buf_deterministic(out, 64, kj);
}

#define FAR 41 /* blocks: past several refills of QN_RNG_AHEAD */

/* Read FAR blocks of rng in pieces of varying sizes (qn_rng_u64 and
 * qn_rng_bytes, across block and refill edges); 1 when they are blocks
 * from..from+FAR-1 of the stream keyed rng->key. */
static int far_blocks_match(qn_rng *rng, uint64_t from, uint64_t *r)
{
    static uint8_t got[64 * FAR], want[64 * FAR];
    size_t at = 0;

    for (int j = 0; j < FAR; j++)
        reference_block(rng->key, from + (uint64_t)j, want + 64 * j);
    while (at < sizeof(got)) {
        size_t n = 1 + (size_t)(t_rand(r) % 70);
        if (n > sizeof(got) - at)
            n = sizeof(got) - at;
        if (n == 8 && t_rand(r) % 2) {
            uint64_t v = qn_rng_u64(rng);
            for (int i = 0; i < 8; i++)
                got[at + (size_t)i] = (uint8_t)(v >> (8 * i));
        } else {
            qn_rng_bytes(rng, got + at, n);
        }
        at += n;
    }
    return !memcmp(got, want, sizeof(got));
}

/* Blocks past the first, drawn QN_RNG_AHEAD at a time, are the blocks
 * rng.h defines: from qn_rng_init, from a batch, read in every piece
 * size, and across a block number of 2^32 (the nonce's second word). */
static void test_far(void)
{
    qn_seed seed;
    qn_rng batch[QN_RNG_BATCH], one;
    uint64_t r = 3535;

    for (int t = 0; t < 12; t++) {
        uint64_t index = t_rand(&r);
        for (int i = 0; i < 32; i++)
            seed.b[i] = (uint8_t)t_rand(&r);
        qn_rng_init(&one, &seed, index);
        T_CHECK(far_blocks_match(&one, 0, &r));
        qn_rng_init_batch(batch, QN_RNG_BATCH, &seed, index);
        T_CHECK(far_blocks_match(&batch[t % QN_RNG_BATCH], 0, &r));
    }
    /* block numbers 2^32 - 3 .. : set where a stream would be after
     * drawing that far */
    qn_rng_init(&one, &seed, 7);
    one.block = UINT64_C(0xfffffffd);
    one.pos = one.end;
    T_CHECK(far_blocks_match(&one, UINT64_C(0xfffffffd), &r));
}

/* Two colours: cell i of 64 is bit i of the stream's next little-endian
 * 64-bit word; 130 cells take three words. */
static void test_cells(void)
{
    qn_seed seed;
    qn_rng a, b;
    uint8_t cells[130], bytes[24];
    int bad = 0;

    memset(&seed, 0, sizeof(seed));
    seed.b[31] = 7;
    qn_rng_init(&a, &seed, 5);
    qn_rng_init(&b, &seed, 5);
    qn_rng_cells(&a, cells, 130, 2);
    qn_rng_bytes(&b, bytes, sizeof(bytes));
    for (int i = 0; i < 130; i++)
        bad += cells[i] != (bytes[i / 8] >> (i % 8) & 1);
    T_CHECK(bad == 0);
    /* the stream continues after the third word */
    qn_rng_bytes(&a, bytes, 8);
    qn_rng_bytes(&b, bytes + 8, 8);
    T_CHECK(!memcmp(bytes, bytes + 8, 8));
}

/* qn_bits_spread (the two-colour draw's and the GF(2) solve's unpacking):
 * byte i is bit i of the word, for every length 0..64, and no byte past
 * the last is written; qn_bits_low gathers the bits back. */
static void test_spread(void)
{
    uint64_t words[] = {0, UINT64_MAX, UINT64_C(0xaaaaaaaaaaaaaaaa),
                        UINT64_C(0x8000000000000081),
                        UINT64_C(0x0123456789abcdef)};
    uint64_t x = UINT64_C(0x9e3779b97f4a7c15);
    int bad = 0, back = 0;

    for (int r = 0; r < 45; r++) {
        uint64_t m = r < 5 ? words[r] : (x = x * 6364136223846793005u + 1);
        for (int n = 0; n <= 64; n++) {
            uint8_t s[72];
            memset(s, 0xee, sizeof(s));
            qn_bits_spread(s, m, n);
            for (int i = 0; i < n; i++)
                bad += s[i] != (uint8_t)(m >> i & 1);
            for (int i = n; i < (int)sizeof(s); i++)
                bad += s[i] != 0xee;
            back += qn_bits_low(s, n) !=
                    (n == 64 ? m : m & ((UINT64_C(1) << n) - 1));
        }
    }
    T_CHECK(bad == 0);
    T_CHECK(back == 0);
}

int main(void)
{
    if (sodium_init() < 0)
        return 1;
    test_batch();
    test_far();
    test_cells();
    test_spread();
    return t_done();
}
