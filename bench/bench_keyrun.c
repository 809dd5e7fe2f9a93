/*
 * bench_keyrun.c: the key-run codec (src/store/keyrun.h, issue #35
 * section 1) on the store's batch: 65,536 random 64-bit ids with
 * consecutive rows, in CPU time, medians of QN_BENCH_REPS (default 15):
 * the sort, the encoding, the decoding, the checksum alone (a run with
 * its last byte changed: qn_kr_decode stops at the checksum), lookups of
 * one id through a read callback, 16 runs (1M ids) added to a set, as
 * a writer's open does, and 1M ids probed and added one at a time, as
 * the put path will. Information only: no bar.
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "bench.h"
#include "quench/common.h"
#include "store/keyrun.h"

#define RUNS 16

static uint64_t state = 0x9d2c5680a5a5ull;

static uint64_t rnd(void)
{
    uint64_t z = (state += 0x9e3779b97f4a7c15ull);
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
    return z ^ (z >> 31);
}

typedef struct blob {
    const uint8_t *b;
    size_t len;
} blob;

static int read_blob(void *ctx, size_t off, void *buf, size_t n)
{
    const blob *r = ctx;

    memcpy(buf, r->b + off, n);
    return QN_OK;
}

static void fail(const char *what)
{
    fprintf(stderr, "bench_keyrun: %s failed\n", what);
    exit(1);
}

int main(void)
{
    enum { N = QN_KR_MAX, LOOKUPS = 20000 };
    int reps = bench_reps(15);
    double *ts = malloc(sizeof(double) * (size_t)reps * 7);
    qn_kr_pair *a = malloc(sizeof(*a) * N), *raw = malloc(sizeof(*a) * N);
    qn_kr_pair *d = malloc(sizeof(*a) * N);
    uint8_t *runs[RUNS], *bad;
    size_t lens[RUNS];
    double t, med[7];

    if (!ts || !a || !raw || !d)
        fail("malloc");
    bench_load("start");
    for (int r = 0; r < RUNS; r++) {
        for (size_t i = 0; i < N; i++) {
            raw[i].key = rnd();
            raw[i].row = 1 + (int64_t)(r * N + i);
        }
        memcpy(a, raw, sizeof(*a) * N);
        if (qn_kr_sort(a, N) || qn_kr_encode(a, N, &runs[r], &lens[r]))
            fail("encode");
    }
    if (!(bad = malloc(lens[0])))
        fail("malloc");
    memcpy(bad, runs[0], lens[0]);
    bad[lens[0] - 1] ^= 1;
    for (int k = 0; k < reps; k++) {
        uint8_t *b;
        size_t len, got;
        blob rb = {runs[0], lens[0]};
        qn_kr_set *s = qn_kr_set_new();

        memcpy(a, raw, sizeof(*a) * N);
        t = bench_cpu();
        if (qn_kr_sort(a, N))
            fail("sort");
        ts[0 * reps + k] = bench_cpu() - t;
        t = bench_cpu();
        if (qn_kr_encode(a, N, &b, &len))
            fail("encode");
        ts[1 * reps + k] = bench_cpu() - t;
        free(b);
        t = bench_cpu();
        if (qn_kr_decode(runs[0], lens[0], d))
            fail("decode");
        ts[2 * reps + k] = bench_cpu() - t;
        t = bench_cpu();
        if (qn_kr_decode(bad, lens[0], d) != QN_EDB)
            fail("checksum");
        ts[3 * reps + k] = bench_cpu() - t;
        t = bench_cpu();
        for (int q = 0; q < LOOKUPS; q++) {
            uint64_t key = d[(size_t)rnd() % N].key;
            if (qn_kr_find(read_blob, &rb, lens[0], key, key, a, 4, &got) ||
                got < 1)
                fail("find");
        }
        ts[4 * reps + k] = bench_cpu() - t;
        t = bench_cpu();
        if (!s || qn_kr_set_reserve(s, (size_t)RUNS * N))
            fail("set");
        for (int r = 0; r < RUNS; r++)
            if (qn_kr_set_add_run(s, runs[r], lens[r]))
                fail("add_run");
        ts[5 * reps + k] = bench_cpu() - t;
        /* the put path: each id probed (a miss) then added, into the
         * table of 2^21 slots the clear keeps, the slot prefetched 8
         * ids ahead */
        qn_kr_set_clear(s);
        t = bench_cpu();
        for (int r = 0; r < RUNS; r++) {
            uint64_t x = state + (uint64_t)r;
            for (size_t i = 0; i < N; i++) {
                uint64_t id = x ^ (i * 0xd6e8feb86659fd93ull);
                size_t cur = 0;
                int64_t row;
                qn_kr_set_prefetch(s, x ^ ((i + 8) * 0xd6e8feb86659fd93ull));
                if (qn_kr_set_next(s, id, &cur, &row) ||
                    qn_kr_set_add(s, id, (int64_t)i + 1))
                    fail("add");
            }
        }
        ts[6 * reps + k] = bench_cpu() - t;
        qn_kr_set_free(s);
    }
    for (int i = 0; i < 7; i++)
        med[i] = bench_median(ts + i * reps, reps);
    printf("keyrun 65536 random ids, consecutive rows: %zu bytes, %.3f B a"
           " pair\n",
           lens[0], (double)lens[0] / N);
    printf("keyrun sort:   %.2f ms, %.1f ns a pair\n", med[0] * 1e3,
           med[0] * 1e9 / N);
    printf("keyrun encode: %.2f ms, %.1f ns a pair, %.0f MB/s of run\n",
           med[1] * 1e3, med[1] * 1e9 / N, lens[0] / med[1] / 1e6);
    printf("keyrun decode: %.2f ms, %.1f ns a pair, %.0f MB/s of run\n",
           med[2] * 1e3, med[2] * 1e9 / N, lens[0] / med[2] / 1e6);
    printf("keyrun checksum: %.3f ms, %.2f GB/s\n", med[3] * 1e3,
           lens[0] / med[3] / 1e9);
    printf("keyrun find one id: %.2f us\n", med[4] * 1e6 / LOOKUPS);
    printf("keyrun %d runs (%d ids) into a set: %.3f s CPU\n", RUNS, RUNS * N,
           med[5]);
    printf("keyrun %d ids probed and added one by one: %.3f s CPU, %.0f ns"
           " an id\n",
           RUNS * N, med[6], med[6] * 1e9 / (RUNS * N));
    bench_load("end");
    for (int r = 0; r < RUNS; r++)
        free(runs[r]);
    free(bad);
    free(a);
    free(raw);
    free(d);
    free(ts);
    return 0;
}
