/*
 * grid.c: one front for the big-board solvers (see grid.h): picks the
 * method, converts states between bits and bytes where a method needs
 * bytes, and checks answers against the stencil itself.
 */
#include "bigboard/grid.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/mem.h"
#include "bigboard/chase.h"
#include "bigboard/coset_walk.h"
#include "bigboard/netpbm.h"
#include "bigboard/plus_gf2.h"
#include "bigboard/plus_gfp.h"

/* ---- states --------------------------------------------------------- */

int qn_grid_state_init(qn_grid_state *s, int w, int h, unsigned k)
{
    memset(s, 0, sizeof(*s));
    if (k == 2 ? qn_bitboard_init(&s->bits, w, h) != QN_OK
               : !(s->cells = qn_calloc((size_t)w * h + 1, 1)))
        return QN_ENOMEM;
    s->w = w;
    s->h = h;
    s->k = k;
    return QN_OK;
}

void qn_grid_state_release(qn_grid_state *s)
{
    qn_bitboard_release(&s->bits);
    free(s->cells);
    memset(s, 0, sizeof(*s));
}

void qn_grid_state_fill(qn_grid_state *s, unsigned v)
{
    if (s->k == 2)
        qn_bitboard_fill(&s->bits, (int)v);
    else
        memset(s->cells, (int)v, (size_t)s->w * s->h);
}

uint64_t qn_grid_state_sum(const qn_grid_state *s)
{
    uint64_t sum = 0;

    if (s->k == 2)
        return qn_bitboard_count(&s->bits);
    for (size_t i = 0; i < (size_t)s->w * s->h; i++)
        sum += s->cells[i];
    return sum;
}

int qn_grid_state_read_pnm(qn_grid_state *s, FILE *f, qn_err *err)
{
    qn_pnm_info info;
    int rc = qn_pnm_read_header(f, &info, err);

    if (rc != QN_OK)
        return rc;
    if (info.w != s->w || info.h != s->h)
        return qn_err_set(err, QN_EINVAL, 0, 0,
                          "image is %dx%d but the board is %dx%d", info.w,
                          info.h, s->w, s->h);
    if (s->k == 2)
        return qn_pnm_read_bits(f, &info, &s->bits, err);
    return qn_pnm_read_cells(f, &info, s->k, s->cells, err);
}

void qn_grid_state_write_pnm(qn_buf *out, const qn_grid_state *s,
                             unsigned flags)
{
    if (s->k == 2)
        qn_pnm_write_bits_buf(out, &s->bits, flags);
    else /* values are < k by construction: only out of memory (failed) */
        qn_pnm_write_buf(out, s->w, s->h, s->k, s->cells, flags, NULL);
}

/* Bytes of a state (borrowed for k > 2, a malloc'd copy for k = 2);
 * NULL: out of memory. */
static uint8_t *bytes_of(const qn_grid_state *s)
{
    uint8_t *c;

    if (s->k != 2)
        return s->cells;
    if ((c = QN_ALLOCN((size_t)s->w * s->h + 1, uint8_t)))
        qn_bitboard_to_cells(&s->bits, c);
    return c;
}

static void free_bytes(const qn_grid_state *s, uint8_t *c)
{
    if (s->k == 2)
        free(c);
}

/* ---- the solver ----------------------------------------------------- */

struct qn_grid {
    unsigned k;
    int w, h;
    int (*off)[3]; /* the stencil, owned */
    size_t noff;
    qn_plus_gf2 *p2;
    qn_plus_gfp *pp;
    qn_chase *ch; /* also beside pp, for minimal presses over a kernel */
};

static int is_prime(unsigned k)
{
    for (unsigned d = 2; d * d <= k; d++)
        if (k % d == 0)
            return 0;
    return k >= 2;
}

int qn_grid_new(qn_grid **out, const qn_grid_rule *r, qn_err *err)
{
    const int(*off)[3] = (const int(*)[3])r->offsets;
    qn_err e2 = QN_ERR_INIT;
    qn_grid *g = QN_ALLOC(qn_grid);
    int rc = QN_EINVAL;

    *out = NULL;
    if (!g || !(g->off = qn_calloc(r->noffsets + 1, sizeof(int[3])))) {
        free(g);
        return qn_err_nomem(err);
    }
    g->k = r->k;
    g->w = r->w;
    g->h = r->h;
    g->noff = r->noffsets;
    memcpy(g->off, r->offsets, r->noffsets * sizeof(int[3]));
    if (r->k == 2)
        rc = qn_plus_gf2_new(&g->p2, r->w, r->h, off, r->noffsets, &e2);
    else if (is_prime(r->k))
        rc = qn_plus_gfp_new(&g->pp, r->w, r->h, r->k, off, r->noffsets, &e2);
    if (rc == QN_OK) {
        *out = g;
        return QN_OK;
    }
    if (rc == QN_ENOMEM) { /* not a reason to try another method */
        qn_grid_free(g);
        return qn_err_nomem(err);
    }
    rc = qn_chase_new(&g->ch, r->w, r->h, r->k, off, r->noffsets, err);
    if (rc != QN_OK) {
        if (err && e2.code == QN_EINVAL && rc == QN_EINVAL) {
            char why[sizeof(err->msg)]; /* err->msg is also the target */
            snprintf(why, sizeof(why), "%s", err->msg);
            qn_err_set(err, QN_EINVAL, 0, 0, "%s; and %s", why, e2.msg);
        }
        qn_grid_free(g);
        return rc;
    }
    *out = g;
    return QN_OK;
}

void qn_grid_free(qn_grid *g)
{
    if (!g)
        return;
    qn_plus_gf2_free(g->p2);
    qn_plus_gfp_free(g->pp);
    qn_chase_free(g->ch);
    free(g->off);
    free(g);
}

const char *qn_grid_method(const qn_grid *g)
{
    return g->p2   ? "polynomial method over GF(2)"
           : g->pp ? "polynomial method over GF(p)"
                   : "light chasing";
}

int qn_grid_width(const qn_grid *g)
{
    return g->p2   ? qn_plus_gf2_width(g->p2)
           : g->pp ? qn_plus_gfp_width(g->pp)
                   : qn_chase_width(g->ch);
}

double qn_grid_kernel_log2(const qn_grid *g)
{
    if (g->p2)
        return qn_plus_gf2_kernel_dim(g->p2);
    if (g->pp)
        return (double)qn_plus_gfp_kernel_dim(g->pp) * log2((double)g->k);
    return qn_chase_kernel_log2(g->ch);
}

static int min_chase(const qn_chase *ch, qn_grid_state *x, qn_grid_answer *a,
                     const qn_grid_state *s, qn_err *err)
{
    uint8_t *sb = bytes_of(s), *xb = bytes_of(x);
    qn_chase_min m;
    int rc = sb && xb ? qn_chase_min_presses_limit(ch, &m, xb, sb,
                                                   QN_CHASE_MAX_KERNEL, err)
                      : qn_err_nomem(err);

    if (rc == QN_OK || rc == QN_ELIMIT) {
        a->exact = m.exact;
        a->presses = m.presses;
        a->lower_bound = m.lower;
        a->noptimal = m.noptimal;
        if (x->k == 2)
            qn_bitboard_from_cells(&x->bits, xb);
        qn_err_clear(err);
        rc = QN_OK;
    }
    free_bytes(s, sb);
    free_bytes(x, xb);
    return rc;
}

/*
 * A plus over GF(p) with a kernel: walk the p^d solutions exactly while
 * they are few; else the chase's greedy descent and bound, when the chase
 * takes the board, or the solution as it is.
 */
static int min_plusp(const qn_grid *g, qn_grid_state *x, qn_grid_answer *a,
                     const qn_grid_state *s, qn_err *err)
{
    size_t cells = (size_t)g->w * g->h, d = qn_plus_gfp_kernel_dim(g->pp);
    double lg = qn_grid_kernel_log2(g);
    qn_chase *ch = NULL;
    qn_err e2 = QN_ERR_INIT;
    int rc;

    if (lg <= 20.0 && (double)cells * exp2(lg) <= 4e9) {
        uint8_t *gens = QN_ALLOCN(d * cells + 1, uint8_t);
        uint8_t *best = QN_ALLOCN(cells + 1, uint8_t);
        unsigned *order = QN_ALLOCN(d + 1, unsigned);
        rc = gens && best && order ? QN_OK : QN_ENOMEM;
        for (size_t i = 0; i < d && rc == QN_OK; i++) {
            order[i] = g->k;
            rc = qn_plus_gfp_kernel_gen(g->pp, i, gens + i * cells);
        }
        if (rc == QN_OK) {
            qn_coset_walk(best, &a->presses, &a->noptimal, x->cells, gens,
                          order, d, cells, g->k);
            memcpy(x->cells, best, cells);
            a->lower_bound = a->presses;
            a->exact = 1;
        }
        free(order);
        free(best);
        free(gens);
        return rc == QN_OK ? QN_OK : qn_err_nomem(err);
    }
    rc = qn_chase_new(&ch, g->w, g->h, g->k, (const int(*)[3])g->off, g->noff,
                      &e2);
    if (rc == QN_OK) {
        rc = min_chase(ch, x, a, s, err);
        qn_chase_free(ch);
        return rc;
    }
    if (rc == QN_ENOMEM)
        return qn_err_nomem(err);
    a->exact = 0;
    a->presses = qn_grid_state_sum(x);
    return QN_OK;
}

/* The cells of s that differ from the goal (all-zero on big grids). */
static uint64_t lit_cells(const qn_grid_state *s)
{
    uint64_t n = 0;

    if (s->k == 2)
        return qn_bitboard_count(&s->bits);
    for (size_t i = 0; i < (size_t)s->w * s->h; i++)
        n += s->cells[i] != 0;
    return n;
}

static int min_presses(const qn_grid *g, qn_grid_state *x_out,
                       qn_grid_answer *a, const qn_grid_state *s, qn_err *err)
{
    if (g->p2) {
        qn_plus_gf2_min m;
        int rc =
            qn_plus_gf2_min_presses(g->p2, &x_out->bits, &m, &s->bits, 0, err);
        a->exact = m.exact;
        a->presses = m.presses;
        a->lower_bound = m.lower_bound;
        a->noptimal = m.noptimal;
        return rc;
    }
    if (g->pp) {
        int rc = qn_plus_gfp_solve(g->pp, x_out->cells, s->cells, err);
        if (rc != QN_OK || qn_plus_gfp_kernel_dim(g->pp) == 0) {
            a->exact = 1;
            a->presses = a->lower_bound = qn_grid_state_sum(x_out);
            a->noptimal = 1;
            return rc;
        }
        return min_plusp(g, x_out, a, s, err);
    }
    return min_chase(g->ch, x_out, a, s, err);
}

/*
 * Beyond the exact limits the methods bound the minimum from below by the
 * cells no kernel generator touches, which is 0 when their budget ran out
 * before every generator was seen. A bound that always holds: one press
 * changes at most noff cells (the stencil's offsets), and every cell that
 * differs from the goal must be changed by some press, so any solution
 * presses at least ceil(lit / noff) times. The answer keeps the larger.
 */
int qn_grid_min_presses(const qn_grid *g, qn_grid_state *x_out,
                        qn_grid_answer *a, const qn_grid_state *s, qn_err *err)
{
    int rc;

    memset(a, 0, sizeof(*a));
    rc = min_presses(g, x_out, a, s, err);
    if (rc == QN_OK && !a->exact && g->noff) {
        uint64_t lit = lit_cells(s), bound = (lit + g->noff - 1) / g->noff;
        if (bound > a->lower_bound)
            a->lower_bound = bound;
    }
    return rc;
}

/* ---- the replay ----------------------------------------------------- */

int qn_grid_replays(const qn_grid_rule *r, const qn_grid_state *x,
                    const qn_grid_state *s)
{
    const int(*off)[3] = (const int(*)[3])r->offsets;
    unsigned k = r->k;
    int ok = 1;

    if (k == 2) {
        qn_bitboard res;
        if (qn_bitboard_init(&res, r->w, r->h) != QN_OK)
            return QN_ENOMEM;
        qn_bitboard_apply(&res, &x->bits, &s->bits, off, r->noffsets);
        ok = qn_bitboard_is_zero(&res);
        qn_bitboard_release(&res);
        return ok;
    }
    for (int y = 0; y < r->h && ok; y++)
        for (int c = 0; c < r->w; c++) {
            unsigned v = s->cells[(size_t)y * r->w + c];
            for (size_t o = 0; o < r->noffsets; o++) {
                int sx = c - off[o][0], sy = y - off[o][1];
                if (sx >= 0 && sx < r->w && sy >= 0 && sy < r->h)
                    v += (unsigned)off[o][2] * x->cells[(size_t)sy * r->w + sx];
            }
            if (v % k) {
                ok = 0;
                break;
            }
        }
    return ok;
}
