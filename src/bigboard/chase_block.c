/*
 * chase_block.c: the block chase, which builds the chase's reduced matrix
 * M (chase_internal.h). It follows up to LANES affine forms at once, one
 * lane per unknown, each cell stored as LANES contiguous bytes; blocks of
 * M's columns are independent, so they also spread over threads.
 */
#include "chase_internal.h"

#include <pthread.h>
#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "base/mem.h"

#if defined(__x86_64__) && defined(__GNUC__)
#define QN_X86 1
#endif

#define LANES_MAX 512        /* lanes per block (unknowns chased together) */
#define RING_BYTES (1 << 20) /* a block's kept rows: stay in L2 */
#define NTHREADS_MAX 8

/*
 * The block chase's arithmetic, on GCC/Clang vector extensions so that it
 * vectorises at -O2 and compiles once per ISA (default and AVX2). A cell
 * is `stride` lanes, a multiple of 32, processed 32 (bytes) or 16 (16-bit
 * accumulators) at a time with the accumulator in a register across all
 * terms.
 */
typedef uint8_t v8 __attribute__((vector_size(32)));
typedef int8_t v8s __attribute__((vector_size(32)));
typedef uint16_t v16 __attribute__((vector_size(32)));
typedef int16_t v16s __attribute__((vector_size(32)));
typedef uint8_t h8 __attribute__((vector_size(16)));

/*
 * acc (each lane <= bound) mod k, by conditional subtraction of k * 2^j, j
 * descending: v = min(v, v - c), where unsigned wrap makes v - c large
 * when v < c (compilers emit pminu{b,w}).
 */
#define MIN_GENERIC(V, VS, a, b)                                               \
    ((V)(((a) & (V)((VS)((a) < (b)))) | ((b) & ~(V)((VS)((a) < (b))))))
#ifdef QN_X86
#include <immintrin.h>
#define MIN8_AVX2(a, b) ((v8)_mm256_min_epu8((__m256i)(a), (__m256i)(b)))
#define MIN16_AVX2(a, b) ((v16)_mm256_min_epu16((__m256i)(a), (__m256i)(b)))
#endif
#define MIN8_GENERIC(a, b) MIN_GENERIC(v8, v8s, a, b)
#define MIN16_GENERIC(a, b) MIN_GENERIC(v16, v16s, a, b)

#define REDUCE(MIN, T, acc, k, bound)                                          \
    do {                                                                       \
        int j_ = 0;                                                            \
        while (((unsigned)(k) << (j_ + 1)) <= (bound))                         \
            j_++;                                                              \
        if ((bound) >= (k))                                                    \
            for (; j_ >= 0; j_--)                                              \
                (acc) = MIN((acc), (acc) - (T)((unsigned)(k) << j_));          \
    } while (0)

/* dst = mul * acc mod k for reduced acc (16-bit lanes). */
#define SCALE(MIN16, acc, k, mul)                                              \
    do {                                                                       \
        if ((mul) == (k)-1) {                                                  \
            v16 z_ = (v16)((v16s)((acc) == 0));                                \
            (acc) = ((T16)(k) - (acc)) & ~z_;                                  \
        } else if ((mul) != 1) {                                               \
            (acc) = (acc) * (T16)(mul);                                        \
            REDUCE(MIN16, T16, acc, k, ((k)-1) * (mul));                       \
        }                                                                      \
    } while (0)
typedef uint16_t T16;

/*
 * One cell of the block chase: dst = mul * (sum_t amt[t] * src[t]) mod k,
 * lane-wise over `stride` lanes. Byte accumulators when every sum fits a
 * byte (`small`, checked by the caller), else 16-bit ones with a reduction
 * whenever the next term could overflow.
 */
#define CELL_FN(NAME, ATTR, MIN8, MIN16)                                       \
    ATTR static void NAME(uint8_t *dst, const uint8_t *const *src,             \
                          const unsigned *amt, int nt, int stride, unsigned k, \
                          unsigned mul, int small)                             \
    {                                                                          \
        unsigned bound = 0;                                                    \
        int ones = 1;                                                          \
        for (int t = 0; t < nt; t++) {                                         \
            bound += amt[t] * (k - 1);                                         \
            ones &= amt[t] == 1;                                               \
        }                                                                      \
        if (small)                                                             \
            for (int l = 0; l < stride; l += 32) {                             \
                v8 acc = {0}, v;                                               \
                if (ones)                                                      \
                    for (int t = 0; t < nt; t++) {                             \
                        memcpy(&v, src[t] + l, sizeof(v));                     \
                        acc += v;                                              \
                    }                                                          \
                else                                                           \
                    for (int t = 0; t < nt; t++) {                             \
                        memcpy(&v, src[t] + l, sizeof(v));                     \
                        acc += v * (uint8_t)amt[t];                            \
                    }                                                          \
                REDUCE(MIN8, uint8_t, acc, k, bound);                          \
                if (mul == k - 1) {                                            \
                    v8 z = (v8)((v8s)(acc == 0));                              \
                    acc = ((uint8_t)k - acc) & ~z;                             \
                    memcpy(dst + l, &acc, sizeof(acc));                        \
                    continue;                                                  \
                }                                                              \
                for (int half = 0; half < 32; half += 16) {                    \
                    h8 hv;                                                     \
                    memcpy(&hv, (uint8_t *)&acc + half, sizeof(hv));           \
                    v16 a16 = __builtin_convertvector(hv, v16);                \
                    SCALE(MIN16, a16, k, mul);                                 \
                    hv = __builtin_convertvector(a16, h8);                     \
                    memcpy(dst + l + half, &hv, sizeof(hv));                   \
                }                                                              \
            }                                                                  \
        else                                                                   \
            for (int l = 0; l < stride; l += 16) {                             \
                v16 acc = {0};                                                 \
                unsigned b16 = 0;                                              \
                for (int t = 0; t < nt; t++) {                                 \
                    h8 hv;                                                     \
                    if (b16 + amt[t] * (k - 1) > 65535) {                      \
                        REDUCE(MIN16, T16, acc, k, b16);                       \
                        b16 = k - 1;                                           \
                    }                                                          \
                    memcpy(&hv, src[t] + l, sizeof(hv));                       \
                    acc += __builtin_convertvector(hv, v16) * (T16)amt[t];     \
                    b16 += amt[t] * (k - 1);                                   \
                }                                                              \
                REDUCE(MIN16, T16, acc, k, b16);                               \
                SCALE(MIN16, acc, k, mul);                                     \
                h8 hv = __builtin_convertvector(acc, h8);                      \
                memcpy(dst + l, &hv, sizeof(hv));                              \
            }                                                                  \
    }

typedef void cell_fn(uint8_t *, const uint8_t *const *, const unsigned *, int,
                     int, unsigned, unsigned, int);

#if defined(__GNUC__) && !defined(__clang__)
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wpsabi"
#endif
CELL_FN(cell_default, , MIN8_GENERIC, MIN16_GENERIC)
#ifdef QN_X86
CELL_FN(cell_avx2, __attribute__((target("avx2"))), MIN8_AVX2, MIN16_AVX2)
#endif
#if defined(__GNUC__) && !defined(__clang__)
#pragma GCC diagnostic pop
#endif

static cell_fn *pick_cell(void)
{
#ifdef QN_X86
    __builtin_cpu_init();
    if (__builtin_cpu_supports("avx2"))
        return cell_avx2;
#endif
    return cell_default;
}

/*
 * One block: lanes [u0, u0 + n) are the unknowns u0.. (lane l is the form
 * "1 at unknown u0 + l"). M's columns u0.. are written into m (U x U,
 * zeroed by the caller). ring holds the last nring press rows, each cw
 * cells of `stride` bytes.
 */
typedef struct block {
    const qn_chase *c;
    cell_fn *cell;
    int small, nring, stride;
    uint8_t *ring, *tmp;
    const uint8_t **src;
    uint8_t **rowp; /* row_sources */
    unsigned *amt;
    uint8_t *m;
} block;

static uint8_t *ring_row(const block *b, int p)
{
    return b->ring + (size_t)(p % b->nring) * b->c->cw * b->stride;
}

/* Each offset's source row for the equations of row r (NULL: off board),
 * so that gather does no division per cell. */
static void row_sources(block *b, int r)
{
    const qn_chase *c = b->c;

    for (int o = 0; o < c->noff; o++) {
        int q = r - c->off[o][1];
        b->rowp[o] = q < 0 || q >= c->ch ? NULL : ring_row(b, q);
    }
}

/* Gather the terms of cell i (row as set by row_sources) into b, without
 * the pivot if skip_pivot is 1. */
static int gather(const block *b, int i, int skip_pivot)
{
    const qn_chase *c = b->c;
    int nt = 0;

    for (int o = skip_pivot; o < c->noff; o++) {
        int col = i - c->off[o][0];
        if (!b->rowp[o] || col < 0 || col >= c->cw)
            continue;
        b->src[nt] = b->rowp[o] + (size_t)col * b->stride;
        b->amt[nt++] = (unsigned)c->off[o][2];
    }
    return nt;
}

/* Set the unknown presses of row p (every lane zero but its own). */
static void block_unknowns(block *b, int p, int u0, int n)
{
    const qn_chase *c = b->c;
    uint8_t *row = ring_row(b, p);

    for (int q = 0; q < (p < c->nu ? c->cw : c->ne); q++) {
        int j = p < c->nu ? q : edge_col(c, q), u = unknown_at(c, p, j);
        uint8_t *cell = row + (size_t)j * b->stride;
        memset(cell, 0, (size_t)b->stride);
        if (u >= u0 && u < u0 + n)
            cell[u - u0] = 1;
    }
}

/* Constraint ci at cell i of row r (row_sources set for r). */
static void block_cons(block *b, int i, size_t ci, int u0, int n)
{
    const qn_chase *c = b->c;
    int nt = gather(b, i, 0);

    b->cell(b->tmp, b->src, b->amt, nt, b->stride, c->k, 1, b->small);
    memcpy(b->m + ci * (size_t)c->nunk + u0, b->tmp, (size_t)n);
}

static void block_run(block *b, int u0, int n)
{
    const qn_chase *c = b->c;
    int w = c->cw, jlo, jhi, nr = nchased(c);
    int start = unknown_row(c, u0), r0 = start > c->d ? start - c->d : 0;

    det_range(c, &jlo, &jhi);
    memset(b->ring, 0, (size_t)b->nring * w * b->stride);
    /* Rows before `start` are zero in every lane, and so are the
     * constraints of the chased rows before r0. */
    for (int p = start; p < c->nu; p++)
        block_unknowns(b, p, u0, n);
    for (int r = r0; r < nr; r++) {
        int p = r + c->d;
        uint8_t *row = ring_row(b, p);
        block_unknowns(b, p, u0, n);
        row_sources(b, r);
        for (int j = jlo; j < jhi; j++) {
            int nt = gather(b, j + c->e, 1);
            b->cell(row + (size_t)j * b->stride, b->src, b->amt, nt, b->stride,
                    c->k, c->pmul, b->small);
        }
        for (int q = 0; q < c->ne; q++)
            block_cons(b, cons_col(c, q), (size_t)r * c->ne + q, u0, n);
    }
    for (int r = nr; r < c->ch; r++) {
        row_sources(b, r);
        for (int i = 0; i < w; i++)
            block_cons(b, i, (size_t)nr * c->ne + (size_t)(r - nr) * w + i, u0,
                       n);
    }
}

/* A worker: blocks first, first + step, ... of `lanes` unknowns each.
 * Out of memory: rc QN_ENOMEM, and *stop tells the others. */
typedef struct worker {
    const qn_chase *c;
    uint8_t *m;
    int lanes, first, step;
    int rc;
    atomic_int *stop;
} worker;

static void *work(void *arg)
{
    worker *wk = arg;
    const qn_chase *c = wk->c;
    block b = {0};

    b.c = c;
    b.cell = pick_cell();
    b.nring = c->d + c->dymax + 1;
    b.stride = wk->lanes;
    b.ring = QN_ALLOCN((size_t)b.nring * c->cw * b.stride, uint8_t);
    b.tmp = QN_ALLOCN((size_t)b.stride, uint8_t);
    b.src = QN_ALLOCN((size_t)c->noff + 1, const uint8_t *);
    b.amt = QN_ALLOCN((size_t)c->noff + 1, unsigned);
    b.rowp = QN_ALLOCN((size_t)c->noff + 1, uint8_t *);
    if (!b.ring || !b.tmp || !b.src || !b.amt || !b.rowp) {
        wk->rc = QN_ENOMEM;
        atomic_store(wk->stop, 1);
        goto done;
    }
    b.m = wk->m;
    {
        unsigned bound = 0;
        for (int o = 0; o < c->noff; o++)
            bound += (unsigned)c->off[o][2] * (c->k - 1);
        b.small = bound <= 255;
    }
    for (int u0 = wk->first * wk->lanes; u0 < c->nunk && !atomic_load(wk->stop);
         u0 += wk->step * wk->lanes) {
        int n = c->nunk - u0 < wk->lanes ? c->nunk - u0 : wk->lanes;
        block_run(&b, u0, n);
    }
done:
    free(b.rowp);
    free(b.amt);
    free(b.src);
    free(b.tmp);
    free(b.ring);
    return NULL;
}

/* M (U x U, zeroed) by the block chase, on up to NTHREADS_MAX threads. */
int qn_chase__build_reduced(const qn_chase *c, uint8_t *m)
{
    int nring = c->d + c->dymax + 1;
    long lanes = RING_BYTES / ((long)nring * c->cw);
    int nth = 1, nblocks, rc = QN_OK;
    pthread_t tid[NTHREADS_MAX];
    worker wk[NTHREADS_MAX];
    atomic_int stop = 0;

    lanes = lanes < 32 ? 32 : lanes > LANES_MAX ? LANES_MAX : lanes & ~31L;
    if (lanes > c->nunk) /* stride stays a multiple of 32 */
        lanes = (c->nunk + 31) & ~31L;
    nblocks = (int)((c->nunk + lanes - 1) / lanes);
    /* Threads only pay off when there is real work (and several blocks). */
    if ((double)c->nunk * c->cw * c->ch > 1e7) {
        long ncpu = sysconf(_SC_NPROCESSORS_ONLN);
        nth = ncpu < 1 ? 1 : ncpu > NTHREADS_MAX ? NTHREADS_MAX : (int)ncpu;
        nth = nth > nblocks ? nblocks : nth;
    }
    for (int t = 0; t < nth; t++)
        wk[t] = (worker){c, m, (int)lanes, t, nth, QN_OK, &stop};
    int started = 0;
    for (int t = 1; t < nth; t++) {
        if (pthread_create(&tid[t], NULL, work, &wk[t]) != 0)
            break;
        started = t;
    }
    /* If a thread could not start, its blocks run here after our own. */
    work(&wk[0]);
    for (int t = started + 1; t < nth; t++)
        work(&wk[t]);
    for (int t = 1; t <= started; t++)
        pthread_join(tid[t], NULL);
    for (int t = 0; t < nth; t++)
        if (wk[t].rc != QN_OK)
            rc = wk[t].rc;
    return rc;
}
