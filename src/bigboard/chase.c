/*
 * chase.c: light chasing for stencil grid rules (see chase.h for the
 * method). Everything here works in the chase orientation; the public
 * functions translate states and press vectors at the boundary.
 *
 * Two chases share one set of equations. The scalar chase (run) follows
 * one press vector: it solves states and expands reduced solutions. The
 * block chase (block_run) follows up to LANES affine forms at once, one
 * lane per unknown, each cell stored as LANES contiguous bytes, to build
 * the reduced matrix M column block by column block; blocks are
 * independent, so they also spread over threads.
 */
#include "quench/chase.h"

#include <assert.h>
#include <pthread.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "quench/coset_walk.h"
#include "quench/mem.h"

#if defined(__x86_64__) && defined(__GNUC__)
#define QN_X86 1
#endif

#define LANES_MAX 512   /* lanes per block (unknowns chased together) */
#define RING_BYTES (1 << 20) /* a block's kept rows: stay in L2 */
#define NTHREADS_MAX 8

struct qn_chase {
    int w, h;          /* the caller's board */
    int cw, ch;        /* chase orientation: width, height */
    int transposed;    /* 1: (cx, cy) = (y, x) before the flip */
    int flipped;       /* 1: cx = cw - 1 - cx (pivot at the largest dx) */
    unsigned k;
    int noff;          /* merged offsets, amounts 1..k-1 */
    int (*off)[3];     /* chase orientation {dx, dy, amount}; pivot first */
    int d;             /* D = -dymin >= 1 */
    int dymax;         /* the greatest dy */
    int e;             /* the pivot's dx: the least dx of the top row */
    unsigned pmul;     /* -(pivot amount)^-1 mod k */
    int nu;            /* min(D, ch) rows of unknowns at the top */
    int ne;            /* edge unknowns (and constraints) per chased row */
    int nunk;          /* U = nu * cw + (ch - nu) * ne */
    qn_system *red;    /* M: U x U, M y + c = 0 */
};

/* ---- the equations, shared by both chases ---- */

/* Rows 0..nchased-1 are chased: row r determines presses of row r + D. */
static int nchased(const qn_chase *c) { return c->ch - c->nu; }

/* Column of edge unknown q of a chased row (no equation determines it). */
static int edge_col(const qn_chase *c, int q)
{
    return c->e < 0 ? q : c->cw - c->ne + q;
}

/* Column of constraint q of a chased row (its cell determines nothing). */
static int cons_col(const qn_chase *c, int q)
{
    return c->e < 0 ? c->cw - c->ne + q : q;
}

/* Determined columns of a chased row: [jlo, jhi). */
static void det_range(const qn_chase *c, int *jlo, int *jhi)
{
    *jlo = c->e < 0 ? c->ne : 0;
    *jhi = c->e < 0 ? c->cw : c->cw - c->ne;
}

/* Unknown index of press (row p, column j), or -1 if p, j is determined. */
static int unknown_at(const qn_chase *c, int p, int j)
{
    if (p < c->nu)
        return p * c->cw + j;
    int q = c->e < 0 ? j : j - (c->cw - c->ne);
    if (q < 0 || q >= c->ne)
        return -1;
    return c->nu * c->cw + (p - c->d) * c->ne + q;
}

/* The first press row that holds unknown u. */
static int unknown_row(const qn_chase *c, int u)
{
    if (u < c->nu * c->cw)
        return u / c->cw;
    return c->d + (u - c->nu * c->cw) / c->ne;
}

static unsigned modinv(unsigned a, unsigned k)
{
    for (unsigned v = 1; v < k; v++)
        if (a * v % k == 1)
            return v;
    return 0;
}

static int is_unit(unsigned a, unsigned k) { return modinv(a % k, k) != 0; }

/* ---- the scalar chase ---- */

/*
 * t = s_r + (effect on row r of every press row except r + D, the one being
 * chased); s may be NULL (zero).
 */
static void row_effect(const qn_chase *c, unsigned *t, const uint8_t *x,
                       const uint8_t *s, int r)
{
    int w = c->cw;

    for (int i = 0; i < w; i++)
        t[i] = s ? s[(size_t)r * w + i] : 0;
    for (int o = 0; o < c->noff; o++) {
        int dx = c->off[o][0], dy = c->off[o][1];
        unsigned a = (unsigned)c->off[o][2];
        int j = r - dy;
        if (dy == -c->d || j < 0 || j >= c->ch)
            continue;
        const uint8_t *xr = x + (size_t)j * w;
        int lo = dx > 0 ? dx : 0, hi = dx < 0 ? w + dx : w;
        for (int i = lo; i < hi; i++)
            t[i] += a * xr[i - dx];
    }
}

/*
 * t + the effect of the top-row offsets from `from` on (0: with the pivot,
 * 1: without) on cell i of row r, given its press row r + D.
 */
static unsigned top_effect(const qn_chase *c, unsigned t, const uint8_t *xp,
                           int i, int from)
{
    for (int o = from; o < c->noff && c->off[o][1] == -c->d; o++) {
        int col = i - c->off[o][0];
        if (col >= 0 && col < c->cw)
            t += (unsigned)c->off[o][2] * xp[col];
    }
    return t;
}

/*
 * The chase: the unknown presses from y (U entries), every other press from
 * the rows above it, and res (U entries) = (A x + s) at the constraints.
 * Linear in (y, s); s may be NULL. t is scratch of cw entries.
 */
static void run(const qn_chase *c, uint8_t *x, const uint8_t *y,
                const uint8_t *s, uint8_t *res, unsigned *t)
{
    int w = c->cw, h = c->ch, jlo, jhi, nr = nchased(c);
    unsigned k = c->k;
    size_t ri = 0;

    det_range(c, &jlo, &jhi);
    memcpy(x, y, (size_t)c->nu * w);
    for (int r = 0; r < nr; r++) {
        uint8_t *xp = x + (size_t)(r + c->d) * w;
        const uint8_t *ye = y + (size_t)c->nu * w + (size_t)r * c->ne;
        row_effect(c, t, x, s, r);
        for (int q = 0; q < c->ne; q++)
            xp[edge_col(c, q)] = ye[q];
        /* The pivot is offset 0 and every other top-row offset lands left
         * of it, so increasing j only reads presses already set. */
        for (int j = jlo; j < jhi; j++) {
            unsigned v = top_effect(c, t[j + c->e], xp, j + c->e, 1) % k;
            xp[j] = (uint8_t)(v * c->pmul % k);
        }
        for (int q = 0; q < c->ne; q++) {
            int i = cons_col(c, q);
            res[ri++] = (uint8_t)(top_effect(c, t[i], xp, i, 0) % k);
        }
    }
    for (int r = nr; r < h; r++) {
        const uint8_t *xp = r + c->d < h ? x + (size_t)(r + c->d) * w : NULL;
        row_effect(c, t, x, s, r);
        for (int i = 0; i < w; i++)
            res[ri++] = (uint8_t)((xp ? top_effect(c, t[i], xp, i, 0) : t[i]) %
                                  k);
    }
    assert(ri == (size_t)c->nunk);
}

/* ---- the block chase: LANES affine forms at once ---- */

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
#define MIN_GENERIC(V, VS, a, b) ((V)(((a) & (V)((VS)((a) < (b)))) |         \
                                       ((b) & ~(V)((VS)((a) < (b))))))
#ifdef QN_X86
#include <immintrin.h>
#define MIN8_AVX2(a, b) ((v8)_mm256_min_epu8((__m256i)(a), (__m256i)(b)))
#define MIN16_AVX2(a, b) ((v16)_mm256_min_epu16((__m256i)(a), (__m256i)(b)))
#endif
#define MIN8_GENERIC(a, b) MIN_GENERIC(v8, v8s, a, b)
#define MIN16_GENERIC(a, b) MIN_GENERIC(v16, v16s, a, b)

#define REDUCE(MIN, T, acc, k, bound)                                        \
    do {                                                                     \
        int j_ = 0;                                                          \
        while (((unsigned)(k) << (j_ + 1)) <= (bound))                       \
            j_++;                                                            \
        if ((bound) >= (k))                                                  \
            for (; j_ >= 0; j_--)                                            \
                (acc) = MIN((acc), (acc) - (T)((unsigned)(k) << j_));        \
    } while (0)

/* dst = mul * acc mod k for reduced acc (16-bit lanes). */
#define SCALE(MIN16, acc, k, mul)                                            \
    do {                                                                     \
        if ((mul) == (k) - 1) {                                              \
            v16 z_ = (v16)((v16s)((acc) == 0));                              \
            (acc) = ((T16)(k) - (acc)) & ~z_;                                \
        } else if ((mul) != 1) {                                             \
            (acc) = (acc) * (T16)(mul);                                      \
            REDUCE(MIN16, T16, acc, k, ((k) - 1) * (mul));                   \
        }                                                                    \
    } while (0)
typedef uint16_t T16;

/*
 * One cell of the block chase: dst = mul * (sum_t amt[t] * src[t]) mod k,
 * lane-wise over `stride` lanes. Byte accumulators when every sum fits a
 * byte (`small`, checked by the caller), else 16-bit ones with a reduction
 * whenever the next term could overflow.
 */
#define CELL_FN(NAME, ATTR, MIN8, MIN16)                                      \
    ATTR static void NAME(uint8_t *dst, const uint8_t *const *src,           \
                          const unsigned *amt, int nt, int stride,           \
                          unsigned k, unsigned mul, int small)               \
    {                                                                        \
        unsigned bound = 0;                                                  \
        int ones = 1;                                                        \
        for (int t = 0; t < nt; t++) {                                       \
            bound += amt[t] * (k - 1);                                       \
            ones &= amt[t] == 1;                                             \
        }                                                                    \
        if (small)                                                           \
            for (int l = 0; l < stride; l += 32) {                           \
                v8 acc = {0}, v;                                             \
                if (ones)                                                    \
                    for (int t = 0; t < nt; t++) {                           \
                        memcpy(&v, src[t] + l, sizeof(v));                   \
                        acc += v;                                            \
                    }                                                        \
                else                                                         \
                    for (int t = 0; t < nt; t++) {                           \
                        memcpy(&v, src[t] + l, sizeof(v));                   \
                        acc += v * (uint8_t)amt[t];                          \
                    }                                                        \
                REDUCE(MIN8, uint8_t, acc, k, bound);                        \
                if (mul == k - 1) {                                          \
                    v8 z = (v8)((v8s)(acc == 0));                            \
                    acc = ((uint8_t)k - acc) & ~z;                           \
                    memcpy(dst + l, &acc, sizeof(acc));                      \
                    continue;                                                \
                }                                                            \
                for (int half = 0; half < 32; half += 16) {                  \
                    h8 hv;                                                   \
                    memcpy(&hv, (uint8_t *)&acc + half, sizeof(hv));         \
                    v16 a16 = __builtin_convertvector(hv, v16);              \
                    SCALE(MIN16, a16, k, mul);                               \
                    hv = __builtin_convertvector(a16, h8);                   \
                    memcpy(dst + l + half, &hv, sizeof(hv));                 \
                }                                                            \
            }                                                                \
        else                                                                 \
            for (int l = 0; l < stride; l += 16) {                           \
                v16 acc = {0};                                               \
                unsigned b16 = 0;                                            \
                for (int t = 0; t < nt; t++) {                               \
                    h8 hv;                                                   \
                    if (b16 + amt[t] * (k - 1) > 65535) {                    \
                        REDUCE(MIN16, T16, acc, k, b16);                     \
                        b16 = k - 1;                                         \
                    }                                                        \
                    memcpy(&hv, src[t] + l, sizeof(hv));                     \
                    acc += __builtin_convertvector(hv, v16) * (T16)amt[t];   \
                    b16 += amt[t] * (k - 1);                                 \
                }                                                            \
                REDUCE(MIN16, T16, acc, k, b16);                             \
                SCALE(MIN16, acc, k, mul);                                   \
                h8 hv = __builtin_convertvector(acc, h8);                    \
                memcpy(dst + l, &hv, sizeof(hv));                            \
            }                                                                \
    }

typedef void cell_fn(uint8_t *, const uint8_t *const *, const unsigned *,
                     int, int, unsigned, unsigned, int);

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
            b->cell(row + (size_t)j * b->stride, b->src, b->amt, nt,
                    b->stride, c->k, c->pmul, b->small);
        }
        for (int q = 0; q < c->ne; q++)
            block_cons(b, cons_col(c, q), (size_t)r * c->ne + q, u0, n);
    }
    for (int r = nr; r < c->ch; r++) {
        row_sources(b, r);
        for (int i = 0; i < w; i++)
            block_cons(b, i, (size_t)nr * c->ne + (size_t)(r - nr) * w + i,
                       u0, n);
    }
}

/* A worker: blocks first, first + step, ... of `lanes` unknowns each. */
typedef struct worker {
    const qn_chase *c;
    uint8_t *m;
    int lanes, first, step;
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
    b.ring = QN_NEWN((size_t)b.nring * c->cw * b.stride, uint8_t);
    b.tmp = QN_NEWN((size_t)b.stride, uint8_t);
    b.src = QN_NEWN((size_t)c->noff + 1, const uint8_t *);
    b.amt = QN_NEWN((size_t)c->noff + 1, unsigned);
    b.rowp = QN_NEWN((size_t)c->noff + 1, uint8_t *);
    b.m = wk->m;
    {
        unsigned bound = 0;
        for (int o = 0; o < c->noff; o++)
            bound += (unsigned)c->off[o][2] * (c->k - 1);
        b.small = bound <= 255;
    }
    for (int u0 = wk->first * wk->lanes; u0 < c->nunk;
         u0 += wk->step * wk->lanes) {
        int n = c->nunk - u0 < wk->lanes ? c->nunk - u0 : wk->lanes;
        block_run(&b, u0, n);
    }
    free(b.rowp);
    free(b.amt);
    free(b.src);
    free(b.tmp);
    free(b.ring);
    return NULL;
}

/* M (U x U, zeroed) by the block chase, on up to NTHREADS_MAX threads. */
static void build_reduced(const qn_chase *c, uint8_t *m)
{
    int nring = c->d + c->dymax + 1;
    long lanes = RING_BYTES / ((long)nring * c->cw);
    int nth = 1, nblocks;
    pthread_t tid[NTHREADS_MAX];
    worker wk[NTHREADS_MAX];

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
        wk[t] = (worker){c, m, (int)lanes, t, nth};
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
}

/* ---- orientation ---- */

/* Chase position of caller cell (x, y). */
static size_t chase_index(const qn_chase *c, int x, int y)
{
    int cx = c->transposed ? y : x, cy = c->transposed ? x : y;

    if (c->flipped)
        cx = c->cw - 1 - cx;
    return (size_t)cy * c->cw + cx;
}

/* Between the caller's order and the chase orientation (dst != src). */
static void to_chase(const qn_chase *c, uint8_t *dst, const uint8_t *src)
{
    if (!c->transposed && !c->flipped) {
        memcpy(dst, src, (size_t)c->w * c->h);
        return;
    }
    for (int y = 0; y < c->h; y++)
        for (int x = 0; x < c->w; x++)
            dst[chase_index(c, x, y)] = src[(size_t)y * c->w + x];
}

static void from_chase(const qn_chase *c, uint8_t *dst, const uint8_t *src)
{
    if (!c->transposed && !c->flipped) {
        memcpy(dst, src, (size_t)c->w * c->h);
        return;
    }
    for (int y = 0; y < c->h; y++)
        for (int x = 0; x < c->w; x++)
            dst[(size_t)y * c->w + x] = src[chase_index(c, x, y)];
}

/*
 * Pick the pivot for orientation `tr`: the top row's least or greatest dx,
 * whichever has a unit amount and the smaller |dx| (fewer edge unknowns).
 * Fills c->off (pivot first), d, dymax, e, pmul, flipped. QN_EINVAL if
 * neither end is a unit.
 */
static int orient(qn_chase *c, int tr, const int (*merged)[3], int nm,
                  qn_err *err)
{
    int dymin = 0, dymax = -QN_CHASE_MAX_RADIUS - 1, lo = 0, hi = 0;
    int alo = 0, ahi = 0, first = 1;
    unsigned k = c->k;

    c->transposed = tr;
    c->cw = tr ? c->h : c->w;
    c->ch = tr ? c->w : c->h;
    for (int o = 0; o < nm; o++) {
        int dy = tr ? merged[o][0] : merged[o][1];
        dymin = dy < dymin ? dy : dymin;
        dymax = dy > dymax ? dy : dymax;
    }
    if (dymin == 0)
        return qn_err_set(err, QN_EINVAL, 0, 0,
                          "stencil not chaseable: it reaches no row above "
                          "the pressed cell");
    for (int o = 0; o < nm; o++) {
        int dx = tr ? merged[o][1] : merged[o][0];
        int dy = tr ? merged[o][0] : merged[o][1];
        if (dy != dymin)
            continue;
        if (first || dx < lo)
            lo = dx, alo = merged[o][2];
        if (first || dx > hi)
            hi = dx, ahi = merged[o][2];
        first = 0;
    }
    int ulo = is_unit((unsigned)alo, k), uhi = is_unit((unsigned)ahi, k);
    if (!ulo && !uhi)
        return qn_err_set(err, QN_EINVAL, 0, 0,
                          "stencil not chaseable mod %u along a side of %d: "
                          "its top row (dy = %d) has no unit amount at either "
                          "end (row map not invertible)",
                          k, c->cw, dymin);
    /* Both ends units: the nearer one, as |e| edge unknowns per row. */
    c->flipped = !ulo || (uhi && abs(hi) < abs(lo));
    c->d = -dymin;
    c->dymax = dymax;
    c->e = c->flipped ? -hi : lo;
    c->pmul = (k - modinv((unsigned)(c->flipped ? ahi : alo), k)) % k;
    c->noff = nm;
    c->off = qn_xcalloc((size_t)nm + 1, sizeof(int[3]));
    /* The pivot, then the rest of the top row (top_effect stops at the
     * first offset of another row), then the other rows. */
    for (int pass = 0, n = 0; pass < 3; pass++)
        for (int o = 0; o < nm; o++) {
            int dx = tr ? merged[o][1] : merged[o][0];
            int dy = tr ? merged[o][0] : merged[o][1];
            dx = c->flipped ? -dx : dx;
            int cls = dy != dymin ? 2 : dx != c->e;
            if (cls != pass)
                continue;
            c->off[n][0] = dx, c->off[n][1] = dy;
            c->off[n++][2] = merged[o][2];
        }
    return QN_OK;
}

/* Set up orientation tr: pivot, unknowns and M. c is left for release. */
static int setup(qn_chase *c, int tr, const int (*merged)[3], int nm,
                 qn_err *err)
{
    int rc = orient(c, tr, merged, nm, err);
    long nunk;

    if (rc)
        return rc;
    c->nu = c->d < c->ch ? c->d : c->ch;
    c->ne = c->e < 0 ? -c->e : c->e;
    c->ne = c->ne < c->cw ? c->ne : c->cw;
    nunk = (long)c->nu * c->cw + (long)(c->ch - c->nu) * c->ne;
    if (nunk > QN_CHASE_MAX_WIDTH)
        return qn_err_set(err, QN_ELIMIT, 0, 0,
                          "chase needs %ld unknowns, limit %d", nunk,
                          QN_CHASE_MAX_WIDTH);
    c->nunk = (int)nunk;

    uint8_t *m = QN_NEWN((size_t)nunk * nunk + 1, uint8_t);
    build_reduced(c, m);
    rc = qn_system_new(&c->red, m, c->nunk, c->nunk, c->k, err);
    free(m);
    return rc;
}

static void release(qn_chase *c)
{
    qn_system_free(c->red);
    free(c->off);
    c->red = NULL;
    c->off = NULL;
}

/* Merge repeated offsets and drop zero amounts (mod k); returns the count. */
static int merge(int (*merged)[3], const int (*offsets)[3], size_t noffsets,
                 unsigned k)
{
    int nm = 0;

    for (size_t o = 0; o < noffsets; o++) {
        int a = (int)(((long long)offsets[o][2] % k + k) % k), m;
        for (m = 0; m < nm; m++)
            if (merged[m][0] == offsets[o][0] &&
                merged[m][1] == offsets[o][1])
                break;
        if (m == nm) {
            merged[nm][0] = offsets[o][0];
            merged[nm][1] = offsets[o][1];
            merged[nm++][2] = 0;
        }
        merged[m][2] = (int)((merged[m][2] + (unsigned)a) % k);
    }
    for (int m = 0; m < nm;)
        if (merged[m][2] == 0)
            memcpy(merged[m], merged[--nm], sizeof(merged[m]));
        else
            m++;
    return nm;
}

int qn_chase_new(qn_chase **out, int w, int h, unsigned k,
                 const int (*offsets)[3], size_t noffsets, qn_err *err)
{
    int (*merged)[3] = NULL;
    int nm, rc, pref;
    qn_chase *c;

    *out = NULL;
    if (k < 2 || k > 255)
        return qn_err_set(err, QN_EINVAL, 0, 0,
                          "modulus must be 2..255, got %u", k);
    if (w < 1 || h < 1)
        return qn_err_set(err, QN_EINVAL, 0, 0,
                          "board must be at least 1x1, got %dx%d", w, h);
    if ((long long)w * h > QN_CHASE_MAX_CELLS)
        return qn_err_set(err, QN_ELIMIT, 0, 0,
                          "board %dx%d has more than %d cells", w, h,
                          QN_CHASE_MAX_CELLS);
    for (size_t o = 0; o < noffsets; o++)
        for (int i = 0; i < 2; i++)
            if (offsets[o][i] < -QN_CHASE_MAX_RADIUS ||
                offsets[o][i] > QN_CHASE_MAX_RADIUS)
                return qn_err_set(err, QN_EINVAL, 0, 0,
                                  "offset (%d, %d) beyond radius %d",
                                  offsets[o][0], offsets[o][1],
                                  QN_CHASE_MAX_RADIUS);

    merged = qn_xcalloc(noffsets + 1, sizeof(int[3]));
    nm = merge(merged, offsets, noffsets, k);
    c = QN_NEW(qn_chase);
    c->w = w, c->h = h, c->k = k;
    pref = h < w;
    rc = setup(c, pref, (const int(*)[3])merged, nm, err);
    if (rc == QN_EINVAL || rc == QN_ELIMIT) {
        /* The other side may chase, or need fewer unknowns; if it cannot
         * either, the preferred side's reason stands. */
        qn_err e2 = QN_ERR_INIT;
        int rc2;
        release(c);
        rc2 = setup(c, !pref, (const int(*)[3])merged, nm, &e2);
        if (rc2 == QN_OK)
            qn_err_clear(err);
        if (rc2 == QN_OK || (rc2 != QN_EINVAL && rc2 != QN_ELIMIT)) {
            rc = rc2;
            if (rc && err)
                *err = e2;
        }
    }
    free(merged);
    if (rc) {
        release(c);
        free(c);
        return rc;
    }
    *out = c;
    return QN_OK;
}

void qn_chase_free(qn_chase *c)
{
    if (!c)
        return;
    release(c);
    free(c);
}

int qn_chase_width(const qn_chase *c) { return c->cw; }
int qn_chase_transposed(const qn_chase *c) { return c->transposed; }
int qn_chase_nunknowns(const qn_chase *c) { return c->nunk; }
const qn_system *qn_chase_reduced(const qn_chase *c) { return c->red; }

size_t qn_chase_kernel_ngens(const qn_chase *c)
{
    return qn_system_kernel_ngens(c->red);
}

unsigned qn_chase_kernel_order(const qn_chase *c, size_t i)
{
    return qn_system_kernel_order(c->red, i);
}

/* Generator i as a quiet pattern in chase orientation (x: cells). */
static void gen_pattern(const qn_chase *c, size_t i, uint8_t *x, uint8_t *res,
                        unsigned *t)
{
    run(c, x, qn_system_kernel_gen(c->red, i), NULL, res, t);
}

void qn_chase_kernel_gen(const qn_chase *c, size_t i, uint8_t *x_out)
{
    size_t cells = (size_t)c->w * c->h;
    uint8_t *x = QN_NEWN(cells, uint8_t), *res = QN_NEWN(c->nunk, uint8_t);
    unsigned *t = QN_NEWN((size_t)c->cw, unsigned);

    gen_pattern(c, i, x, res, t);
    from_chase(c, x_out, x);
    free(t);
    free(res);
    free(x);
}

int qn_chase_kernel_size_u64(const qn_chase *c, uint64_t *out)
{
    return qn_system_group_size_u64(c->red, QN_KERNEL, out);
}

double qn_chase_kernel_log2(const qn_chase *c)
{
    return qn_system_group_log2(c->red, QN_KERNEL);
}

/* Scratch for one query: the state and board in chase orientation. */
typedef struct query {
    const qn_chase *c;
    size_t cells;
    uint8_t *s, *x, *xo, *best, *res, *y;
    unsigned *t;
} query;

static void query_init(query *q, const qn_chase *c, const uint8_t *s)
{
    size_t cells = (size_t)c->w * c->h;

    memset(q, 0, sizeof(*q));
    q->c = c;
    q->cells = cells;
    q->s = QN_NEWN(cells, uint8_t);
    q->x = QN_NEWN(cells, uint8_t);
    q->xo = QN_NEWN(cells, uint8_t);
    q->best = QN_NEWN(cells, uint8_t);
    q->res = QN_NEWN((size_t)c->nunk, uint8_t);
    q->y = QN_NEWN((size_t)c->nunk, uint8_t);
    q->t = QN_NEWN((size_t)c->cw, unsigned);
    to_chase(c, q->s, s);
}

static void query_release(query *q)
{
    free(q->t);
    free(q->y);
    free(q->res);
    free(q->best);
    free(q->xo);
    free(q->x);
    free(q->s);
}

/*
 * One solution into q->x (chase orientation): the chase from y = 0 leaves
 * the residual c, M y + c = 0 gives y, and the chase from y solves the
 * board. QN_EUNSOLVABLE if the reduced system has no solution.
 */
static int query_solve(query *q)
{
    const qn_chase *c = q->c;

    memset(q->y, 0, (size_t)c->nunk);
    run(c, q->x, q->y, q->s, q->res, q->t);
    if (qn_system_solve(c->red, q->y, q->res) != QN_OK)
        return QN_EUNSOLVABLE;
    run(c, q->x, q->y, q->s, q->res, q->t);
#ifndef NDEBUG
    for (int i = 0; i < c->nunk; i++)
        assert(q->res[i] == 0);
#endif
    return QN_OK;
}

static uint64_t total(const uint8_t *x, size_t n)
{
    uint64_t sum = 0;

    for (size_t i = 0; i < n; i++)
        sum += x[i];
    return sum;
}

int qn_chase_solve(const qn_chase *c, uint8_t *x_out, const uint8_t *s,
                   qn_err *err)
{
    query q;
    int rc;

    query_init(&q, c, s);
    rc = query_solve(&q);
    if (rc)
        rc = qn_err_set(err, QN_EUNSOLVABLE, 0, 0, "state has no solution");
    else
        from_chase(c, x_out, q.x);
    query_release(&q);
    return rc;
}

/*
 * The coset walk. The chase maps the reduced kernel generators g_i to
 * full quiet patterns G_i (of the same orders o_i), so the solutions are
 * x0 + sum a_i G_i with 0 <= a_i < o_i, each once. An odometer visits
 * them: level j adds G_j o_j times, which brings x back where it started
 * (o_j G_j = 0), so the whole walk costs about 2 |kernel| board additions
 * and no chase at all. Ties go to the smallest x in row-major order, so the
 * answer does not depend on the visiting order.
 */
static void exact_walk(query *q, qn_chase_min *out, uint8_t *x_out)
{
    const qn_chase *c = q->c;
    size_t cells = q->cells, ng = qn_chase_kernel_ngens(c);
    uint8_t *g = QN_NEWN(ng * cells + 1, uint8_t);
    unsigned *order = QN_NEWN(ng + 1, unsigned);

    for (size_t i = 0; i < ng; i++) {
        order[i] = qn_chase_kernel_order(c, i);
        qn_chase_kernel_gen(c, i, g + i * cells);
    }
    from_chase(c, q->xo, q->x);
    qn_coset_walk(q->best, &out->presses, &out->noptimal, q->xo, g, order, ng,
                  cells, c->k);
    memcpy(x_out, q->best, cells);
    out->lower = out->presses;
    out->exact = 1;
    free(order);
    free(g);
}

/*
 * The best multiple m (1..order-1) of pattern g to add to x, by the change
 * in press total; 0 if none lowers it.
 */
static unsigned best_multiple(const uint8_t *x, const uint8_t *g, size_t n,
                              unsigned order, unsigned k)
{
    unsigned best = 0;
    int64_t bestd = 0;

    for (unsigned m = 1; m < order; m++) {
        int64_t d = 0;
        for (size_t i = 0; i < n; i++)
            if (g[i])
                d += (int64_t)((x[i] + m * g[i]) % k) - x[i];
        if (d < bestd)
            bestd = d, best = m;
    }
    return best;
}

/*
 * Big kernels: greedy descent from the particular solution in q->x (chase
 * orientation), adding whichever generator multiple lowers the total until
 * a full pass finds none; every step keeps a solution, so the result is
 * one. The lower bound sums the cells no generator touches: every solution
 * presses those alike, and every other cell costs >= 0.
 */
static void greedy(query *q, qn_chase_min *out, uint8_t *x_out)
{
    const qn_chase *c = q->c;
    size_t cells = q->cells, ng = qn_chase_kernel_ngens(c);
    uint8_t *touched = QN_NEWN(cells, uint8_t);
    uint8_t *g = QN_NEWN(cells, uint8_t);
    /* one generator: a chase (|stencil| steps a cell) and a scan */
    uint64_t cost = (uint64_t)cells * ((uint64_t)c->noff + 2), spent = 0;
    int improved = 1, pass = 0;

    out->lower = 0;
    while (improved && spent < QN_CHASE_GREEDY_BUDGET) {
        size_t i;
        improved = 0;
        for (i = 0; i < ng && spent < QN_CHASE_GREEDY_BUDGET; i++) {
            unsigned m;
            spent += cost;
            gen_pattern(c, i, g, q->res, q->t);
            if (pass == 0)
                for (size_t p = 0; p < cells; p++)
                    touched[p] |= g[p] != 0;
            m = best_multiple(q->x, g, cells, qn_chase_kernel_order(c, i),
                              c->k);
            if (!m)
                continue;
            for (size_t p = 0; p < cells; p++)
                q->x[p] = (uint8_t)((q->x[p] + m * g[p]) % c->k);
            improved = 1;
        }
        /* the bound needs every generator seen; else it stays 0 */
        if (pass++ == 0 && i == ng)
            for (size_t p = 0; p < cells; p++)
                out->lower += touched[p] ? 0 : q->x[p];
    }
    out->presses = total(q->x, cells);
    out->noptimal = 0;
    out->exact = 0;
    from_chase(c, x_out, q->x);
    free(g);
    free(touched);
}

int qn_chase_min_presses_limit(const qn_chase *c, qn_chase_min *out,
                               uint8_t *x_out, const uint8_t *s,
                               uint64_t limit, qn_err *err)
{
    uint64_t size;
    query q;
    int rc, big;

    query_init(&q, c, s);
    rc = query_solve(&q);
    if (rc) {
        rc = qn_err_set(err, QN_EUNSOLVABLE, 0, 0, "state has no solution");
        goto done;
    }
    big = qn_chase_kernel_size_u64(c, &size) != QN_OK;
    if (big)
        size = UINT64_MAX;
    out->nsolutions = size;
    if (big || size > limit) {
        greedy(&q, out, x_out);
        rc = qn_err_set(err, QN_ELIMIT, 0, 0,
                        "kernel of 2^%.1f elements exceeds the exact "
                        "min-press limit of %llu; best found %llu presses, "
                        "at least %llu",
                        qn_chase_kernel_log2(c), (unsigned long long)limit,
                        (unsigned long long)out->presses,
                        (unsigned long long)out->lower);
        goto done;
    }
    exact_walk(&q, out, x_out);
done:
    query_release(&q);
    return rc;
}

int qn_chase_min_presses(const qn_chase *c, uint8_t *x_out, uint64_t *presses,
                         uint64_t *noptimal, uint64_t *nsolutions,
                         const uint8_t *s, qn_err *err)
{
    qn_chase_min m;
    int rc = qn_chase_min_presses_limit(c, &m, x_out, s, QN_CHASE_MAX_KERNEL,
                                        err);

    if (rc == QN_OK || rc == QN_ELIMIT) {
        *presses = m.presses;
        *noptimal = m.noptimal;
        *nsolutions = m.nsolutions;
    }
    return rc;
}
