/*
 * chase.c: light chasing for stencil grid rules (see chase.h for the
 * method). Everything here works in the chase orientation; the public
 * functions translate states and press vectors at the boundary.
 */
#include "quench/chase.h"

#include <assert.h>
#include <stdlib.h>
#include <string.h>

#include "quench/mem.h"

struct qn_chase {
    int w, h;          /* the caller's board */
    int cw, ch;        /* chase orientation: width, height */
    int transposed;    /* 1: (cx, cy) = (y, x) */
    unsigned k;
    int noff;          /* merged offsets, amounts 1..k-1 */
    int (*off)[3];     /* chase orientation {dx, dy, amount} */
    int d;             /* D = -dymin >= 1 */
    int nu;            /* U = min(D, ch) unknown (and residual) rows */
    int nw;            /* W = U * cw */
    size_t *np;        /* CSR of N = -B^-1: row i is np[i]..np[i+1] */
    int *ncol;         /* column of each non-zero */
    uint8_t *nval;     /* value of each non-zero, 1..k-1 */
    qn_system *red;    /* M: W x W, M y + c = 0 */
};

#define NO_SKIP (QN_CHASE_MAX_RADIUS + 1) /* a dy no offset has */

/*
 * t = s_r + (effect on row r of every press row j = r - dy), skipping the
 * offsets with dy == skip_dy (the row being chased); s may be NULL (zero).
 */
static void row_effect(const qn_chase *c, unsigned *t, const uint8_t *x,
                       const uint8_t *s, int r, int skip_dy)
{
    int w = c->cw;

    for (int i = 0; i < w; i++)
        t[i] = s ? s[(size_t)r * w + i] : 0;
    for (int o = 0; o < c->noff; o++) {
        int dx = c->off[o][0], dy = c->off[o][1];
        unsigned a = (unsigned)c->off[o][2];
        int j = r - dy;
        if (dy == skip_dy || j < 0 || j >= c->ch)
            continue;
        const uint8_t *xr = x + (size_t)j * w;
        int lo = dx > 0 ? dx : 0, hi = dx < 0 ? w + dx : w;
        for (int i = lo; i < hi; i++)
            t[i] += a * xr[i - dx];
    }
    for (int i = 0; i < w; i++)
        t[i] %= c->k;
}

/*
 * The chase: rows 0..U-1 of x from y, every later row from the rows above
 * it, and res (W entries) = (A x + s) on the last U rows. Linear in (y, s).
 * t is scratch of cw entries.
 */
static void run(const qn_chase *c, uint8_t *x, const uint8_t *y,
                const uint8_t *s, uint8_t *res, unsigned *t)
{
    int w = c->cw, h = c->ch;
    unsigned k = c->k;

    memcpy(x, y, (size_t)c->nw);
    for (int r = 0; r + c->d < h; r++) {
        uint8_t *xr = x + (size_t)(r + c->d) * w;
        row_effect(c, t, x, s, r, -c->d);
        for (int i = 0; i < w; i++) {
            unsigned v = 0;
            for (size_t p = c->np[i]; p < c->np[i + 1]; p++)
                v += c->nval[p] * t[c->ncol[p]];
            xr[i] = (uint8_t)(v % k);
        }
    }
    for (int r = h - c->nu; r < h; r++) {
        row_effect(c, t, x, s, r, NO_SKIP);
        for (int i = 0; i < w; i++)
            res[(size_t)(r - (h - c->nu)) * w + i] = (uint8_t)t[i];
    }
}

/* Between the caller's order and the chase orientation (dst != src). */
static void to_chase(const qn_chase *c, uint8_t *dst, const uint8_t *src)
{
    if (!c->transposed) {
        memcpy(dst, src, (size_t)c->w * c->h);
        return;
    }
    for (int y = 0; y < c->h; y++)
        for (int x = 0; x < c->w; x++)
            dst[(size_t)x * c->cw + y] = src[(size_t)y * c->w + x];
}

static void from_chase(const qn_chase *c, uint8_t *dst, const uint8_t *src)
{
    if (!c->transposed) {
        memcpy(dst, src, (size_t)c->w * c->h);
        return;
    }
    for (int y = 0; y < c->h; y++)
        for (int x = 0; x < c->w; x++)
            dst[(size_t)y * c->w + x] = src[(size_t)x * c->cw + y];
}

/*
 * Set up orientation `tr` (offsets already merged in caller order): B,
 * N = -B^-1 and M. Returns QN_OK, QN_EINVAL (B singular mod k or no row
 * above) or QN_ELIMIT; c is left for qn_chase_free either way.
 */
static int setup(qn_chase *c, int tr, const int (*merged)[3], int nm,
                 qn_err *err)
{
    int w, dymin = 0;
    unsigned k = c->k;

    c->transposed = tr;
    c->cw = tr ? c->h : c->w;
    c->ch = tr ? c->w : c->h;
    w = c->cw;
    c->noff = nm;
    c->off = qn_xcalloc((size_t)nm + 1, sizeof(int[3]));
    for (int o = 0; o < nm; o++) {
        c->off[o][0] = tr ? merged[o][1] : merged[o][0];
        c->off[o][1] = tr ? merged[o][0] : merged[o][1];
        c->off[o][2] = merged[o][2];
        if (c->off[o][1] < dymin)
            dymin = c->off[o][1];
    }
    if (dymin == 0)
        return qn_err_set(err, QN_EINVAL, 0, 0,
                          "stencil reaches no row above the pressed cell: "
                          "row map not invertible mod %u",
                          k);
    c->d = -dymin;
    c->nu = c->d < c->ch ? c->d : c->ch;
    if ((long)c->nu * w > QN_CHASE_MAX_WIDTH)
        return qn_err_set(err, QN_ELIMIT, 0, 0,
                          "chase needs %ld unknowns, limit %d",
                          (long)c->nu * w, QN_CHASE_MAX_WIDTH);
    c->nw = c->nu * w;

    /* B, then N e_j = -B^-1 e_j as the solution of B x + e_j = 0. */
    uint8_t *b = QN_NEWN((size_t)w * w, uint8_t);
    uint8_t *n = QN_NEWN((size_t)w * w, uint8_t);
    uint8_t *e = QN_NEWN((size_t)w, uint8_t), *col = QN_NEWN((size_t)w, uint8_t);
    qn_system *bs = NULL;
    int rc;
    for (int o = 0; o < nm; o++)
        if (c->off[o][1] == dymin)
            for (int j = 0; j < w; j++) {
                int i = j + c->off[o][0];
                if (i >= 0 && i < w)
                    b[(size_t)i * w + j] = (uint8_t)c->off[o][2];
            }
    rc = qn_system_new(&bs, b, w, w, k, err);
    if (rc)
        goto done;
    if (qn_system_kernel_ngens(bs) > 0) {
        rc = qn_err_set(err, QN_EINVAL, 0, 0,
                        "row map not invertible mod %u (chase width %d)", k,
                        w);
        goto done;
    }
    for (int j = 0; j < w; j++) {
        e[j] = 1;
        rc = qn_system_solve(bs, col, e);
        assert(rc == QN_OK); /* B is square and injective, so onto */
        e[j] = 0;
        for (int i = 0; i < w; i++)
            n[(size_t)i * w + j] = col[i];
    }
    size_t nnz = 0;
    for (size_t p = 0; p < (size_t)w * w; p++)
        nnz += n[p] != 0;
    c->np = QN_NEWN((size_t)w + 1, size_t);
    c->ncol = QN_NEWN(nnz + 1, int);
    c->nval = QN_NEWN(nnz + 1, uint8_t);
    nnz = 0;
    for (int i = 0; i < w; i++) {
        c->np[i] = nnz;
        for (int j = 0; j < w; j++)
            if (n[(size_t)i * w + j]) {
                c->ncol[nnz] = j;
                c->nval[nnz++] = n[(size_t)i * w + j];
            }
    }
    c->np[w] = nnz;

    /* M's column u is the residual of the chase from y = e_u, s = 0. */
    {
        size_t cells = (size_t)c->cw * c->ch, nw = (size_t)c->nw;
        uint8_t *x = QN_NEWN(cells, uint8_t), *y = QN_NEWN(nw, uint8_t);
        uint8_t *res = QN_NEWN(nw, uint8_t), *m = QN_NEWN(nw * nw, uint8_t);
        unsigned *t = QN_NEWN((size_t)w, unsigned);
        for (size_t u = 0; u < nw; u++) {
            y[u] = 1;
            run(c, x, y, NULL, res, t);
            y[u] = 0;
            for (size_t i = 0; i < nw; i++)
                m[i * nw + u] = res[i];
        }
        rc = qn_system_new(&c->red, m, c->nw, c->nw, k, err);
        free(t);
        free(m);
        free(res);
        free(y);
        free(x);
    }
done:
    qn_system_free(bs);
    free(col);
    free(e);
    free(n);
    free(b);
    return rc;
}

static void release(qn_chase *c)
{
    qn_system_free(c->red);
    free(c->nval);
    free(c->ncol);
    free(c->np);
    free(c->off);
    c->red = NULL, c->nval = NULL, c->ncol = NULL, c->np = NULL;
    c->off = NULL;
}

int qn_chase_new(qn_chase **out, int w, int h, unsigned k,
                 const int (*offsets)[3], size_t noffsets, qn_err *err)
{
    int (*merged)[3] = NULL;
    int nm = 0, rc, pref;
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

    /* Merge repeated offsets and drop zero amounts (mod k). */
    merged = qn_xcalloc(noffsets + 1, sizeof(int[3]));
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

    c = QN_NEW(qn_chase);
    c->w = w, c->h = h, c->k = k;
    pref = h < w;
    rc = setup(c, pref, (const int(*)[3])merged, nm, err);
    if (rc == QN_EINVAL) {
        release(c);
        rc = setup(c, !pref, (const int(*)[3])merged, nm, err);
        if (rc == QN_OK)
            qn_err_clear(err); /* the first refusal no longer applies */
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
int qn_chase_nunknowns(const qn_chase *c) { return c->nw; }
const qn_system *qn_chase_reduced(const qn_chase *c) { return c->red; }

size_t qn_chase_kernel_ngens(const qn_chase *c)
{
    return qn_system_kernel_ngens(c->red);
}

unsigned qn_chase_kernel_order(const qn_chase *c, size_t i)
{
    return qn_system_kernel_order(c->red, i);
}

void qn_chase_kernel_gen(const qn_chase *c, size_t i, uint8_t *x_out)
{
    size_t cells = (size_t)c->w * c->h;
    uint8_t *x = QN_NEWN(cells, uint8_t), *res = QN_NEWN(c->nw, uint8_t);
    unsigned *t = QN_NEWN((size_t)c->cw, unsigned);

    run(c, x, qn_system_kernel_gen(c->red, i), NULL, res, t);
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
    uint8_t *s, *x, *xo, *best, *res;
    unsigned *t;
} query;

static void query_init(query *q, const qn_chase *c, const uint8_t *s)
{
    size_t cells = (size_t)c->w * c->h;

    memset(q, 0, sizeof(*q));
    q->c = c;
    q->s = QN_NEWN(cells, uint8_t);
    q->x = QN_NEWN(cells, uint8_t);
    q->xo = QN_NEWN(cells, uint8_t);
    q->best = QN_NEWN(cells, uint8_t);
    q->res = QN_NEWN(c->nw, uint8_t);
    q->t = QN_NEWN((size_t)c->cw, unsigned);
    to_chase(c, q->s, s);
}

static void query_release(query *q)
{
    free(q->t);
    free(q->res);
    free(q->best);
    free(q->xo);
    free(q->x);
    free(q->s);
}

/*
 * One reduced solution y0 (W entries): the chase from y = 0 leaves the
 * residual c, and M y + c = 0 is the reduced system.
 */
static int reduced_rhs(query *q, uint8_t *y)
{
    memset(y, 0, (size_t)q->c->nw);
    run(q->c, q->x, y, q->s, q->res, q->t);
    return qn_system_solve(q->c->red, y, q->res);
}

/* Chase y into q->xo (caller's order); returns its click total. */
static uint64_t expand(query *q, const uint8_t *y)
{
    size_t cells = (size_t)q->c->w * q->c->h;
    uint64_t sum = 0;

    run(q->c, q->x, y, q->s, q->res, q->t);
#ifndef NDEBUG
    for (int i = 0; i < q->c->nw; i++)
        assert(q->res[i] == 0);
#endif
    from_chase(q->c, q->xo, q->x);
    for (size_t i = 0; i < cells; i++)
        sum += q->xo[i];
    return sum;
}

int qn_chase_solve(const qn_chase *c, uint8_t *x_out, const uint8_t *s,
                   qn_err *err)
{
    query q;
    uint8_t *y = QN_NEWN((size_t)c->nw, uint8_t);
    int rc;

    query_init(&q, c, s);
    rc = reduced_rhs(&q, y);
    if (rc) {
        rc = qn_err_set(err, QN_EUNSOLVABLE, 0, 0, "state has no solution");
        goto done;
    }
    expand(&q, y);
    memcpy(x_out, q.xo, (size_t)c->w * c->h);
done:
    query_release(&q);
    free(y);
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
typedef struct walk {
    size_t cells, ng;
    unsigned k;
    const uint8_t *g;  /* ng patterns of cells entries, caller's order */
    const unsigned *order;
    uint8_t *x, *best;
    uint64_t sum, bestw, nopt;
} walk;

static void consider(walk *wk)
{
    int cmp = wk->sum != wk->bestw ? (wk->sum < wk->bestw ? -1 : 1)
                                   : memcmp(wk->x, wk->best, wk->cells);

    if (wk->sum == wk->bestw)
        wk->nopt++;
    else if (wk->sum < wk->bestw)
        wk->nopt = 1;
    if (cmp < 0) {
        wk->bestw = wk->sum;
        memcpy(wk->best, wk->x, wk->cells);
    }
}

static void walk_level(walk *wk, size_t j)
{
    if (j == wk->ng) {
        consider(wk);
        return;
    }
    const uint8_t *g = wk->g + j * wk->cells;
    for (unsigned a = 0; a < wk->order[j]; a++) {
        walk_level(wk, j + 1);
        uint64_t sum = 0;
        for (size_t i = 0; i < wk->cells; i++) {
            unsigned v = wk->x[i] + g[i];
            wk->x[i] = (uint8_t)(v >= wk->k ? v - wk->k : v);
            sum += wk->x[i];
        }
        wk->sum = sum;
    }
}

int qn_chase_min_presses(const qn_chase *c, uint8_t *x_out, uint64_t *presses,
                         uint64_t *noptimal, uint64_t *nsolutions,
                         const uint8_t *s, qn_err *err)
{
    size_t cells = (size_t)c->w * c->h;
    uint8_t *y = QN_NEWN((size_t)c->nw, uint8_t);
    uint64_t size;
    query q;
    int rc;

    query_init(&q, c, s);
    rc = reduced_rhs(&q, y);
    if (rc) {
        rc = qn_err_set(err, QN_EUNSOLVABLE, 0, 0, "state has no solution");
        goto done;
    }
    if (qn_chase_kernel_size_u64(c, &size) != QN_OK ||
        size > QN_CHASE_MAX_KERNEL) {
        if (qn_chase_kernel_size_u64(c, &size) != QN_OK)
            size = UINT64_MAX;
        *presses = expand(&q, y);
        memcpy(x_out, q.xo, cells);
        *noptimal = 0;
        *nsolutions = size;
        rc = qn_err_set(err, QN_ELIMIT, 0, 0,
                        "kernel of 2^%.1f elements exceeds the exact "
                        "min-press limit 2^20",
                        qn_chase_kernel_log2(c));
        goto done;
    }
    {
        walk wk = {0};
        unsigned *order;
        uint8_t *g;
        wk.cells = cells;
        wk.ng = qn_chase_kernel_ngens(c);
        wk.k = c->k;
        g = QN_NEWN(wk.ng * cells + 1, uint8_t);
        order = QN_NEWN(wk.ng + 1, unsigned);
        for (size_t i = 0; i < wk.ng; i++) {
            order[i] = qn_chase_kernel_order(c, i);
            qn_chase_kernel_gen(c, i, g + i * cells);
        }
        wk.g = g;
        wk.order = order;
        wk.sum = expand(&q, y);
        wk.x = q.xo;
        wk.best = q.best;
        wk.bestw = UINT64_MAX;
        walk_level(&wk, 0);
        memcpy(x_out, q.best, cells);
        *presses = wk.bestw;
        *noptimal = wk.nopt;
        *nsolutions = size;
        free(order);
        free(g);
    }
done:
    query_release(&q);
    free(y);
    return rc;
}
