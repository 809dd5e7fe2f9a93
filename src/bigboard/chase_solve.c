/*
 * chase_solve.c: the scalar chase and the queries it answers: solutions,
 * kernel generators as full press patterns, and minimal presses (an exact
 * coset walk for small kernels, a greedy descent for big ones). The
 * public functions translate between the caller's order and the chase
 * orientation at the boundary.
 */
#include "chase_internal.h"

#include <assert.h>
#include <stdlib.h>
#include <string.h>

#include "base/mem.h"
#include "bigboard/coset_walk.h"

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
            res[ri++] =
                (uint8_t)((xp ? top_effect(c, t[i], xp, i, 0) : t[i]) % k);
    }
    assert(ri == (size_t)c->nunk);
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

/* ---- queries ---- */

/* Generator i as a quiet pattern in chase orientation (x: cells). */
static void gen_pattern(const qn_chase *c, size_t i, uint8_t *x, uint8_t *res,
                        unsigned *t)
{
    run(c, x, qn_system_kernel_gen(c->red, i), NULL, res, t);
}

int qn_chase_kernel_gen(const qn_chase *c, size_t i, uint8_t *x_out)
{
    size_t cells = (size_t)c->w * c->h;
    uint8_t *x = QN_ALLOCN(cells, uint8_t), *res = QN_ALLOCN(c->nunk, uint8_t);
    unsigned *t = QN_ALLOCN((size_t)c->cw, unsigned);
    int rc = x && res && t ? QN_OK : QN_ENOMEM;

    if (rc == QN_OK) {
        gen_pattern(c, i, x, res, t);
        from_chase(c, x_out, x);
    }
    free(t);
    free(res);
    free(x);
    return rc;
}

/* Scratch for one query: the state and board in chase orientation. */
typedef struct query {
    const qn_chase *c;
    size_t cells;
    uint8_t *s, *x, *xo, *best, *res, *y;
    unsigned *t;
} query;

/* QN_OK, or QN_ENOMEM (q still to release). */
static int query_init(query *q, const qn_chase *c, const uint8_t *s)
{
    size_t cells = (size_t)c->w * c->h;

    memset(q, 0, sizeof(*q));
    q->c = c;
    q->cells = cells;
    q->s = QN_ALLOCN(cells, uint8_t);
    q->x = QN_ALLOCN(cells, uint8_t);
    q->xo = QN_ALLOCN(cells, uint8_t);
    q->best = QN_ALLOCN(cells, uint8_t);
    q->res = QN_ALLOCN((size_t)c->nunk, uint8_t);
    q->y = QN_ALLOCN((size_t)c->nunk, uint8_t);
    q->t = QN_ALLOCN((size_t)c->cw, unsigned);
    if (!q->s || !q->x || !q->xo || !q->best || !q->res || !q->y || !q->t)
        return QN_ENOMEM;
    to_chase(c, q->s, s);
    return QN_OK;
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
 * board. QN_EUNSOLVABLE if the reduced system has no solution, or
 * QN_ENOMEM.
 */
static int query_solve(query *q)
{
    const qn_chase *c = q->c;

    memset(q->y, 0, (size_t)c->nunk);
    run(c, q->x, q->y, q->s, q->res, q->t);
    int rc = qn_system_solve(c->red, q->y, q->res);
    if (rc != QN_OK)
        return rc == QN_ENOMEM ? rc : QN_EUNSOLVABLE;
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

    rc = query_init(&q, c, s);
    if (rc == QN_OK)
        rc = query_solve(&q);
    if (rc == QN_ENOMEM)
        rc = qn_err_nomem(err);
    else if (rc)
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
static int exact_walk(query *q, qn_chase_min *out, uint8_t *x_out)
{
    const qn_chase *c = q->c;
    size_t cells = q->cells, ng = qn_chase_kernel_ngens(c);
    uint8_t *g = QN_ALLOCN(ng * cells + 1, uint8_t);
    unsigned *order = QN_ALLOCN(ng + 1, unsigned);
    int rc = g && order ? QN_OK : QN_ENOMEM;

    for (size_t i = 0; i < ng && rc == QN_OK; i++) {
        order[i] = qn_chase_kernel_order(c, i);
        rc = qn_chase_kernel_gen(c, i, g + i * cells);
    }
    if (rc != QN_OK)
        goto done;
    from_chase(c, q->xo, q->x);
    qn_coset_walk(q->best, &out->presses, &out->noptimal, q->xo, g, order, ng,
                  cells, c->k);
    memcpy(x_out, q->best, cells);
    out->lower = out->presses;
    out->exact = 1;
done:
    free(order);
    free(g);
    return rc;
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
static int greedy(query *q, qn_chase_min *out, uint8_t *x_out)
{
    const qn_chase *c = q->c;
    size_t cells = q->cells, ng = qn_chase_kernel_ngens(c);
    uint8_t *touched = QN_ALLOCN(cells, uint8_t);
    uint8_t *g = QN_ALLOCN(cells, uint8_t);
    /* one generator: a chase (|stencil| steps a cell) and a scan */
    uint64_t cost = (uint64_t)cells * ((uint64_t)c->noff + 2), spent = 0;
    int improved = 1, pass = 0;

    if (!touched || !g) {
        free(g);
        free(touched);
        return QN_ENOMEM;
    }

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
    return QN_OK;
}

int qn_chase_min_presses_limit(const qn_chase *c, qn_chase_min *out,
                               uint8_t *x_out, const uint8_t *s, uint64_t limit,
                               qn_err *err)
{
    uint64_t size;
    query q;
    int rc, big;

    rc = query_init(&q, c, s);
    if (rc == QN_OK)
        rc = query_solve(&q);
    if (rc == QN_ENOMEM) {
        rc = qn_err_nomem(err);
        goto done;
    }
    if (rc) {
        rc = qn_err_set(err, QN_EUNSOLVABLE, 0, 0, "state has no solution");
        goto done;
    }
    big = qn_chase_kernel_size_u64(c, &size) != QN_OK;
    if (big)
        size = UINT64_MAX;
    out->nsolutions = size;
    if (big || size > limit) {
        if (greedy(&q, out, x_out) != QN_OK) {
            rc = qn_err_nomem(err);
            goto done;
        }
        rc = qn_err_set(err, QN_ELIMIT, 0, 0,
                        "kernel of 2^%.1f elements exceeds the exact "
                        "min-press limit of %llu; best found %llu presses, "
                        "at least %llu",
                        qn_chase_kernel_log2(c), (unsigned long long)limit,
                        (unsigned long long)out->presses,
                        (unsigned long long)out->lower);
        goto done;
    }
    if (exact_walk(&q, out, x_out) != QN_OK)
        rc = qn_err_nomem(err);
done:
    query_release(&q);
    return rc;
}

int qn_chase_min_presses(const qn_chase *c, uint8_t *x_out, uint64_t *presses,
                         uint64_t *noptimal, uint64_t *nsolutions,
                         const uint8_t *s, qn_err *err)
{
    qn_chase_min m;
    int rc =
        qn_chase_min_presses_limit(c, &m, x_out, s, QN_CHASE_MAX_KERNEL, err);

    if (rc == QN_OK || rc == QN_ELIMIT) {
        *presses = m.presses;
        *noptimal = m.noptimal;
        *nsolutions = m.nsolutions;
    }
    return rc;
}
