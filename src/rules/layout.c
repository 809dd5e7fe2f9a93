/*
 * layout.c: board geometry: which positions are cells, how offsets move
 * between them (wrap on grids, axial steps on hex boards), and the shape's
 * candidate symmetries.
 */
#include "rules/layout.h"

#include <stdlib.h>
#include <string.h>

#include "base/mem.h"

static int init_common(qn_layout *l, qn_layout_kind kind, int w, int h,
                       const uint8_t *active, qn_err *err)
{
    int i, n = 0;

    memset(l, 0, sizeof(*l));
    if (w < 1 || w > QN_LAYOUT_MAX_SIDE)
        return qn_err_set(err, QN_EINVAL, 0, 0,
                          "board width must be 1..%d, got %d",
                          QN_LAYOUT_MAX_SIDE, w);
    if (h < 1 || h > QN_LAYOUT_MAX_SIDE)
        return qn_err_set(err, QN_EINVAL, 0, 0,
                          "board height must be 1..%d, got %d",
                          QN_LAYOUT_MAX_SIDE, h);
    if ((long)w * h > QN_LAYOUT_MAX_POSITIONS)
        return qn_err_set(err, QN_EINVAL, 0, 0,
                          "board has %ld positions, the limit is %d",
                          (long)w * h, QN_LAYOUT_MAX_POSITIONS);
    for (i = 0; i < w * h; i++)
        n += !active || active[i];
    if (n == 0)
        return qn_err_set(err, QN_EINVAL, 0, 0, "board has no cells");
    l->kind = kind;
    l->w = w;
    l->h = h;
    l->ncells = n;
    l->index = QN_ALLOCN((size_t)w * h, int);
    l->pos = QN_ALLOCN((size_t)n, int);
    if (!l->index || !l->pos) {
        qn_layout_release(l);
        return qn_err_nomem(err);
    }
    n = 0;
    for (i = 0; i < w * h; i++) {
        if (!active || active[i]) {
            l->index[i] = n;
            l->pos[n++] = i;
        } else {
            l->index[i] = -1;
        }
    }
    return QN_OK;
}

int qn_layout_init_grid(qn_layout *l, int w, int h, int wrap,
                        const uint8_t *active, qn_err *err)
{
    int rc = init_common(l, QN_LAYOUT_GRID, w, h, active, err);

    if (rc == QN_OK)
        l->wrap = wrap & QN_WRAP_BOTH;
    return rc;
}

int qn_layout_init_hex(qn_layout *l, int w, int h, const uint8_t *active,
                       qn_err *err)
{
    return init_common(l, QN_LAYOUT_HEX, w, h, active, err);
}

int qn_layout_init_hexagon(qn_layout *l, int side, qn_err *err)
{
    int d, r, c, rc;
    uint8_t *active;

    memset(l, 0, sizeof(*l));
    if (side < 1 || side > QN_LAYOUT_MAX_HEXAGON)
        return qn_err_set(err, QN_EINVAL, 0, 0,
                          "hexagon side must be 1..%d, got %d",
                          QN_LAYOUT_MAX_HEXAGON, side);
    d = 2 * side - 1;
    if (!(active = QN_ALLOCN((size_t)d * d, uint8_t)))
        return qn_err_nomem(err);
    /* (q, r) = (c - (s-1), r - (s-1)); inside iff |q + r| <= s - 1. */
    for (r = 0; r < d; r++)
        for (c = 0; c < d; c++)
            active[r * d + c] = abs(c + r - 2 * (side - 1)) <= side - 1;
    rc = init_common(l, QN_LAYOUT_HEXAGON, d, d, active, err);
    free(active);
    if (rc == QN_OK)
        l->side = side;
    return rc;
}

int qn_layout_init_graph(qn_layout *l, int n, qn_err *err)
{
    if (n < 1 || n > QN_LAYOUT_MAX_SIDE) {
        memset(l, 0, sizeof(*l));
        return qn_err_set(err, QN_EINVAL, 0, 0,
                          "graph must have 1..%d cells, got %d",
                          QN_LAYOUT_MAX_SIDE, n);
    }
    return init_common(l, QN_LAYOUT_GRAPH, n, 1, NULL, err);
}

void qn_layout_release(qn_layout *l)
{
    free(l->index);
    free(l->pos);
    memset(l, 0, sizeof(*l));
}

int qn_layout_copy(qn_layout *dst, const qn_layout *src)
{
    *dst = *src;
    dst->index = qn_memdup(src->index, (size_t)src->w * src->h * sizeof(int));
    dst->pos = qn_memdup(src->pos, (size_t)src->ncells * sizeof(int));
    if (!dst->index || !dst->pos) {
        qn_layout_release(dst);
        return QN_ENOMEM;
    }
    return QN_OK;
}

int qn_layout_cell(const qn_layout *l, int r, int c)
{
    if (r < 0 || r >= l->h || c < 0 || c >= l->w)
        return -1;
    return l->index[r * l->w + c];
}

void qn_layout_rc(const qn_layout *l, int i, int *r_out, int *c_out)
{
    *r_out = l->pos[i] / l->w;
    *c_out = l->pos[i] % l->w;
}

/*
 * Axial coordinates of hex positions. Odd-r offset rows: row r, column c
 * is (q, r) = (c - floor(r / 2), r), so that moving to the south-east
 * (0, +1) from an even row keeps the column and from an odd row adds one.
 */
static void hex_to_axial(const qn_layout *l, int r, int c, int *q, int *ra)
{
    if (l->kind == QN_LAYOUT_HEXAGON) {
        *q = c - (l->side - 1);
        *ra = r - (l->side - 1);
    } else {
        *q = c - (r >> 1);
        *ra = r;
    }
}

static int hex_from_axial(const qn_layout *l, int q, int ra)
{
    if (l->kind == QN_LAYOUT_HEXAGON)
        return qn_layout_cell(l, ra + l->side - 1, q + l->side - 1);
    if (ra < 0)
        return -1;
    return qn_layout_cell(l, ra, q + (ra >> 1));
}

static int mod(int a, int m)
{
    a %= m;
    return a < 0 ? a + m : a;
}

int qn_layout_step(const qn_layout *l, int i, int dx, int dy)
{
    int r, c, q, ra;

    qn_layout_rc(l, i, &r, &c);
    switch (l->kind) {
    case QN_LAYOUT_GRID:
        /* Offsets are bounded by the side (4096), so no overflow. */
        r += dy;
        c += dx;
        if (l->wrap & QN_WRAP_X)
            c = mod(c, l->w);
        if (l->wrap & QN_WRAP_Y)
            r = mod(r, l->h);
        return qn_layout_cell(l, r, c);
    case QN_LAYOUT_HEX:
    case QN_LAYOUT_HEXAGON:
        hex_to_axial(l, r, c, &q, &ra);
        return hex_from_axial(l, q + dx, ra + dy);
    case QN_LAYOUT_GRAPH:
        return dx == 0 && dy == 0 ? i : -1;
    }
    return -1;
}

int qn_layout_offset(const qn_layout *l, int from, int to, int *dx_out,
                     int *dy_out)
{
    int r0, c0, r1, c1, q0, q1, a0, a1;

    qn_layout_rc(l, from, &r0, &c0);
    qn_layout_rc(l, to, &r1, &c1);
    switch (l->kind) {
    case QN_LAYOUT_GRID:
        *dx_out = l->wrap & QN_WRAP_X ? mod(c1 - c0, l->w) : c1 - c0;
        *dy_out = l->wrap & QN_WRAP_Y ? mod(r1 - r0, l->h) : r1 - r0;
        return 0;
    case QN_LAYOUT_HEX:
    case QN_LAYOUT_HEXAGON:
        hex_to_axial(l, r0, c0, &q0, &a0);
        hex_to_axial(l, r1, c1, &q1, &a1);
        *dx_out = q1 - q0;
        *dy_out = a1 - a0;
        return 0;
    case QN_LAYOUT_GRAPH:
        break;
    }
    *dx_out = *dy_out = 0;
    return from == to ? 0 : -1;
}

const char *qn_layout_kind_name(qn_layout_kind kind)
{
    switch (kind) {
    case QN_LAYOUT_GRID:
        return "grid";
    case QN_LAYOUT_HEX:
        return "hex";
    case QN_LAYOUT_HEXAGON:
        return "hexagon";
    case QN_LAYOUT_GRAPH:
        return "graph";
    }
    return "?";
}

/*
 * Square point symmetries act on doubled centred coordinates
 * (X, Y) = (2c - (w-1), 2r - (h-1)), so the centre is the origin even when
 * it falls between cells: 0..3 rotate by t * 90 degrees, 4..7 are the
 * mirrors (X -> -X, then rotated).
 */
static void grid_point(int t, int x, int y, int *xo, int *yo)
{
    int i;

    if (t >= 4) {
        x = -x;
        t -= 4;
    }
    for (i = 0; i < t; i++) {
        int nx = -y, ny = x;
        x = nx;
        y = ny;
    }
    *xo = x;
    *yo = y;
}

/*
 * Hex point symmetries in cube coordinates (x, y, z) = (q, -q-r, r):
 * a 60-degree rotation is (x, y, z) -> (-z, -x, -y) and the mirror swaps
 * y and z. 0..5 are rotations, 6..11 mirror first and then rotate.
 */
static void hex_point(int t, int q, int r, int *qo, int *ro)
{
    int i;

    if (t >= 6) {
        r = -q - r;
        t -= 6;
    }
    for (i = 0; i < t; i++) {
        int nq = -r, nr = q + r;
        q = nq;
        r = nr;
    }
    *qo = q;
    *ro = r;
}

/* Map every cell under point transform t (+ translation for grids);
 * returns 0 when some cell does not land on a cell. */
static int grid_candidate(const qn_layout *l, int t, int tx, int ty, int *p)
{
    int i, r, c, x, y;

    for (i = 0; i < l->ncells; i++) {
        qn_layout_rc(l, i, &r, &c);
        grid_point(t, 2 * c - (l->w - 1), 2 * r - (l->h - 1), &x, &y);
        x += l->w - 1;
        y += l->h - 1;
        if ((x & 1) || (y & 1))
            return 0;
        c = x / 2 + tx;
        r = y / 2 + ty;
        if (l->wrap & QN_WRAP_X)
            c = mod(c, l->w);
        if (l->wrap & QN_WRAP_Y)
            r = mod(r, l->h);
        if ((p[i] = qn_layout_cell(l, r, c)) < 0)
            return 0;
    }
    return 1;
}

/* Hex: transform axial coordinates, then translate so the first cell of
 * the image (least (r, q)) sits on the first cell of the board. */
static int hex_candidate(const qn_layout *l, int t, int *p, int *tq, int *tr)
{
    int i, r, c, q, ra, bq = 0, br = 0, mq = 0, mr = 0;

    for (i = 0; i < l->ncells; i++) {
        qn_layout_rc(l, i, &r, &c);
        hex_to_axial(l, r, c, &q, &ra);
        hex_point(t, q, ra, &tq[i], &tr[i]);
        if (i == 0 || tr[i] < mr || (tr[i] == mr && tq[i] < mq)) {
            mq = tq[i];
            mr = tr[i];
        }
    }
    qn_layout_rc(l, 0, &r, &c);
    hex_to_axial(l, r, c, &bq, &br);
    for (i = 0; i < l->ncells; i++)
        if ((p[i] = hex_from_axial(l, tq[i] - mq + bq, tr[i] - mr + br)) < 0)
            return 0;
    return 1;
}

/* Every cell is hit exactly once; seen[] is n bytes of scratch. */
static int is_bijection(const int *p, size_t n, uint8_t *seen)
{
    size_t i;
    int ok = 1;

    memset(seen, 0, n);
    for (i = 0; ok && i < n; i++) {
        ok = !seen[p[i]];
        seen[p[i]] = 1;
    }
    return ok;
}

int qn_layout_symmetries(const qn_layout *l, size_t max_candidates,
                         int **perms_out, int **point_out, size_t *n_out,
                         int *truncated_out)
{
    size_t n = (size_t)l->ncells, nkept = 0, cap = 16, ntrans, k;
    int *perms = QN_ALLOCN(cap * n, int), *points = QN_ALLOCN(cap, int);
    int *p = QN_ALLOCN(n, int), *tq = NULL, *tr = NULL, *more;
    uint8_t *seen = QN_ALLOCN(n, uint8_t);
    int t, npoint, tx, ty, ok, txn, tyn, rc = QN_OK;
    size_t i;

    *truncated_out = 0;
    if (!perms || !points || !p || !seen)
        goto nomem;
    for (i = 0; i < n; i++)
        perms[i] = (int)i;
    points[0] = 0;
    nkept = 1;
    if (l->kind == QN_LAYOUT_GRAPH)
        goto done;
    npoint = l->kind == QN_LAYOUT_GRID ? 8 : 12;
    txn = l->kind == QN_LAYOUT_GRID && (l->wrap & QN_WRAP_X) ? l->w : 1;
    tyn = l->kind == QN_LAYOUT_GRID && (l->wrap & QN_WRAP_Y) ? l->h : 1;
    ntrans = (size_t)txn * tyn;
    if (ntrans * npoint > max_candidates) {
        txn = tyn = 1;
        *truncated_out = 1;
    }
    if (l->kind != QN_LAYOUT_GRID &&
        (!(tq = QN_ALLOCN(n, int)) || !(tr = QN_ALLOCN(n, int))))
        goto nomem;
    for (t = 0; t < npoint; t++) {
        for (ty = 0; ty < tyn; ty++) {
            for (tx = 0; tx < txn; tx++) {
                if (l->kind == QN_LAYOUT_GRID)
                    ok = grid_candidate(l, t, tx, ty, p);
                else
                    ok = hex_candidate(l, t, p, tq, tr);
                /* a wrap can fold a rotated narrow board onto itself */
                ok = ok && is_bijection(p, n, seen);
                for (k = 0; ok && k < nkept; k++)
                    if (!memcmp(perms + k * n, p, n * sizeof(int)))
                        ok = 0;
                if (!ok)
                    continue;
                if (nkept == cap) {
                    if (!(more = QN_REALLOCN(perms, 2 * cap * n, int)))
                        goto nomem;
                    perms = more;
                    if (!(more = QN_REALLOCN(points, 2 * cap, int)))
                        goto nomem;
                    points = more;
                    cap *= 2;
                }
                memcpy(perms + nkept * n, p, n * sizeof(int));
                points[nkept++] = t;
            }
        }
    }
    goto done;
nomem:
    free(perms);
    free(points);
    perms = points = NULL;
    nkept = 0;
    rc = QN_ENOMEM;
done:
    free(p);
    free(seen);
    free(tq);
    free(tr);
    *perms_out = perms;
    *n_out = nkept;
    if (point_out)
        *point_out = points;
    else
        free(points);
    return rc;
}
