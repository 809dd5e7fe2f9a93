/*
 * flip_id.c: writing and reading game IDs of Simon Tatham's "Flip", so a
 * quench puzzle on a k = 2 rectangle can be played in that game.
 *
 * What was checked, and where (Flip's source read, none of it copied):
 *   chrisboyle/sgtpuzzles app/src/main/jni/flip.c (commit 182a480f) and
 *   costas-basdekis/simon-tatham-puzzle-collection flip.c (commit
 *   ce6b0729, a newer upstream); the manual, chrisboyle/sgtpuzzles
 *   puzzles.but, chapter \C{flip}.
 *   - encode_params(full = false) writes "%dx%d"; the full form adds 'c'
 *     (crosses) or 'r' (random). decode_params reads W, then optional
 *     "xH" (a lone W means W x W), then optional 'c'/'r'. The game ID is
 *     params ':' description (the midend's usual form).
 *   - validate_params: w > 0 and h > 0; the newer upstream also refuses
 *     w > (INT_MAX - 3) / h and wh > (INT_MAX - 3) / wh (wh = w * h).
 *   - new_game_desc builds the description as sprintf("%s,%s", matrix
 *     bitmap, grid bitmap) from encode_bitmap(matrix, wh * wh) and
 *     encode_bitmap(grid, wh).
 *   - encode_bitmap: ceil(len / 4) digits; digit i holds bits 4i..4i+3,
 *     bit 4i + j as value 8 >> j (first bit = most significant); bits past
 *     len are 0; digits are lowercase "0123456789abcdef".
 *   - decode_bitmap accepts 0-9, a-f and A-F and ignores the bits past
 *     len. validate_desc: strspn over "0123456789abcdefABCDEF" must be
 *     exactly (wh*wh + 3) / 4, then ',', then exactly (wh + 3) / 4 digits,
 *     then the end of the string. (We are stricter on one point: padding
 *     bits must be 0, which every ID Flip writes satisfies.)
 *   - Orientation: the matrix is wh rows of wh, row = the *pressed* cell.
 *     execute_move presses i = y * w + x and does grid[j] ^= matrix[i*wh+j];
 *     the RANDOM generator sets matrix[(cy*w+cx) * wh + (y*w+x)] for click
 *     square (cx, cy) and output square (x, y); solve_game transposes it
 *     (equations[i][j] = matrix[j*wh+i]). Cells are row-major, i = y*w + x.
 *     quench's A[i*n+j] is what pressing j adds to i, so Flip's matrix is
 *     the transpose of A: flip[p*n + q] = A[q*n + p].
 *   - CROSSES: matrix[i*wh+j] = 1 iff |jx-ix| + |jy-iy| <= 1 (classic
 *     Lights Out without wrap).
 *   - Solved state: execute_move sets completed when every grid bit is 0;
 *     a 1 bit is drawn COL_WRONG (dark), 0 is COL_RIGHT (white): the manual
 *     says "light all the squares up". So quench state 1 = Flip dark, and
 *     the goal must be all zero.
 *   - draw_tile draws the press diagram at offset (dx, dy) in steps of
 *     TILE_SIZE/8 around the tile centre, clipped to the tile: offsets
 *     with |dx|, |dy| <= 3 are drawn whole (qn_flip_diagram_complete).
 *   - The manual and flip.c hold no literal example game ID; the tests
 *     derive known answers from the rules above by hand.
 */
#include "export/flip_id.h"

#include <assert.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>

#include "base/mem.h"
#include "base/text.h"
#include "rules/layout.h"

static const char hexdigits[] = "0123456789abcdef";

int qn_flip_can_express(const qn_rules *r, qn_err *err)
{
    const qn_layout *l = qn_rules_layout(r);
    const uint8_t *goal = qn_rules_goal(r);
    const uint8_t *a = qn_rules_matrix(r);
    unsigned k = qn_rules_colours(r);
    int n = qn_rules_ncells(r);
    size_t i, nn;

    if (k != 2)
        return qn_err_set(err, QN_EINVAL, 0, 0,
                          "flip has two colours, this rule has %u", k);
    if (l->kind != QN_LAYOUT_GRID)
        return qn_err_set(err, QN_EINVAL, 0, 0,
                          "flip needs a rectangular grid board, this rule "
                          "is on a %s board",
                          qn_layout_kind_name(l->kind));
    if (n != l->w * l->h)
        return qn_err_set(
            err, QN_EINVAL, 0, 0,
            "flip needs every grid position to be a cell, "
            "this %dx%d board has %d %s",
            l->w, l->h, l->w * l->h - n,
            qn_plural((uint64_t)(l->w * l->h - n), "hole", "holes"));
    /* Flip's validate_params: (w*h)^2 + 3 must fit in an int. Unreachable
     * while QN_RULES_MAX_CELLS is 4096, but cheap to keep honest. */
    if (n > (INT_MAX - 3) / n)
        return qn_err_set(err, QN_EINVAL, 0, 0, "flip cannot hold %d cells", n);
    for (i = 0; i < (size_t)n; i++)
        if (goal[i] != 0)
            return qn_err_set(err, QN_EINVAL, 0, 0,
                              "flip's solved state is all lights off, this "
                              "rule's goal is not all zero (cell %zu)",
                              i);
    /* With k = 2 every entry is already 0 or 1; checked, not assumed. */
    nn = (size_t)n * (size_t)n;
    for (i = 0; i < nn; i++)
        if (a[i] > 1)
            return qn_err_set(err, QN_EINVAL, 0, 0,
                              "flip toggles cells, this rule adds %u",
                              (unsigned)a[i]);
    return QN_OK;
}

int qn_flip_diagram_complete(const qn_rules *r)
{
    const qn_layout *l = qn_rules_layout(r);
    const uint8_t *a = qn_rules_matrix(r);
    int n = qn_rules_ncells(r), i, j;

    for (i = 0; i < n; i++) {
        int ri, ci;

        qn_layout_rc(l, i, &ri, &ci);
        for (j = 0; j < n; j++) {
            int rj, cj;

            if (!a[(size_t)i * n + j])
                continue;
            qn_layout_rc(l, j, &rj, &cj);
            if (abs(ri - rj) > 3 || abs(ci - cj) > 3)
                return 0;
        }
    }
    return 1;
}

/*
 * Append `len` bits as hex, four to a digit, first bit most significant,
 * zero-padded. bit(ctx, b) gives bit b; a callback lets the matrix be
 * written transposed without a copy.
 */
typedef int (*bit_fn)(const void *ctx, size_t b);

static void put_bits(qn_buf *out, size_t len, bit_fn bit, const void *ctx)
{
    size_t d, ndigits = (len + 3) / 4;

    if (qn_buf_grow(out, ndigits))
        return;
    for (d = 0; d < ndigits; d++) {
        unsigned v = 0, j;

        for (j = 0; j < 4; j++)
            if (d * 4 + j < len && bit(ctx, d * 4 + j))
                v |= 8u >> j;
        qn_buf_addc(out, hexdigits[v]);
    }
}

struct tctx {
    const uint8_t *a;
    size_t n;
};

/* Flip's bit b = p*n + q (press p, cell q) is quench's A[q*n + p]. */
static int matrix_bit(const void *ctx, size_t b)
{
    const struct tctx *t = ctx;
    size_t p = b / t->n, q = b % t->n;

    return t->a[q * t->n + p] != 0;
}

static int state_bit(const void *ctx, size_t b)
{
    return ((const uint8_t *)ctx)[b] != 0;
}

int qn_flip_encode(qn_buf *out, const qn_rules *r, const uint8_t *state,
                   qn_err *err)
{
    const qn_layout *l = qn_rules_layout(r);
    struct tctx t;
    int rc, n, i;

    rc = qn_flip_can_express(r, err);
    if (rc != QN_OK)
        return rc;
    n = qn_rules_ncells(r);
    for (i = 0; i < n; i++)
        if (state[i] > 1)
            return qn_err_set(err, QN_EINVAL, 0, 0,
                              "state value %u at cell %d is not 0 or 1",
                              (unsigned)state[i], i);
    t.a = qn_rules_matrix(r);
    t.n = (size_t)n;
    qn_buf_addf(out, "%dx%d:", l->w, l->h);
    put_bits(out, (size_t)n * (size_t)n, matrix_bit, &t);
    qn_buf_addc(out, ',');
    put_bits(out, (size_t)n, state_bit, state);
    return qn_buf_check(out, err);
}

/* ------------------------------------------------------------------ */

/*
 * Read a positive decimal at id[*pos], advancing *pos. Values above `cap`
 * are reported as cap + 1 so huge numbers never overflow. Returns -1 when
 * there is no digit.
 */
static long long read_num(const char *id, size_t *pos, long long cap)
{
    long long v = 0;
    size_t p = *pos;

    if (id[p] < '0' || id[p] > '9')
        return -1;
    for (; id[p] >= '0' && id[p] <= '9'; p++) {
        v = v * 10 + (id[p] - '0');
        if (v > cap)
            v = cap + 1;
    }
    *pos = p;
    return v;
}

/*
 * Check and decode one bitmap of `len` bits starting at id[*pos]: exactly
 * (len + 3) / 4 hex digits followed by `term`. Bits go to dst[b] via the
 * orientation given by n (0: straight; else transposed n x n). `what`
 * names the part in messages.
 */
static int get_bits(const char *id, size_t *pos, size_t len, char term,
                    uint8_t *dst, size_t n, const char *what, qn_err *err)
{
    size_t ndigits = (len + 3) / 4, got = 0, d, p = *pos;

    while (qn_hex_digit(id[p + got]) >= 0)
        got++;
    if (got != ndigits) {
        size_t at = p + (got < ndigits ? got : ndigits);

        return qn_err_set(err, QN_ESYNTAX, 1, (int)at + 1,
                          "%s description is wrong length: expected %zu "
                          "hex digits, got %zu",
                          what, ndigits, got);
    }
    if (id[p + got] != term) {
        if (term)
            return qn_err_set(err, QN_ESYNTAX, 1, (int)(p + got) + 1,
                              "expected ',' after %s description", what);
        return qn_err_set(err, QN_ESYNTAX, 1, (int)(p + got) + 1,
                          "unexpected data after %s description", what);
    }
    for (d = 0; d < ndigits; d++) {
        unsigned v = (unsigned)qn_hex_digit(id[p + d]), j;

        for (j = 0; j < 4; j++) {
            size_t b = d * 4 + j;
            int on = (v & (8u >> j)) != 0;

            if (b >= len) {
                if (on)
                    return qn_err_set(err, QN_ESYNTAX, 1, (int)(p + d) + 1,
                                      "%s description has non-zero padding "
                                      "bits in its last digit '%c'",
                                      what, id[p + d]);
                continue;
            }
            if (n)
                dst[(b % n) * n + b / n] = (uint8_t)on;
            else
                dst[b] = (uint8_t)on;
        }
    }
    *pos = p + ndigits + (term ? 1 : 0);
    return QN_OK;
}

int qn_flip_decode(const char *id, int *w_out, int *h_out, uint8_t **matrix_out,
                   uint8_t **grid_out, qn_err *err)
{
    uint8_t *matrix = NULL, *grid = NULL;
    size_t pos = 0, n;
    long long w, h;
    int rc;

    assert(id && w_out && h_out && matrix_out && grid_out);
    *w_out = *h_out = 0;
    *matrix_out = *grid_out = NULL;

    /* Params: W, or WxH; then Flip's optional generator letter. Numbers
     * are capped at INT_MAX + 1, which every check below refuses. */
    w = read_num(id, &pos, INT_MAX);
    if (w < 0)
        return qn_err_set(err, QN_ESYNTAX, 1, (int)pos + 1,
                          "expected the board width at the start of a flip "
                          "game id");
    h = w;
    if (id[pos] == 'x') {
        pos++;
        h = read_num(id, &pos, INT_MAX);
        if (h < 0)
            return qn_err_set(err, QN_ESYNTAX, 1, (int)pos + 1,
                              "expected the board height after 'x'");
    }
    if (id[pos] == 'c' || id[pos] == 'r')
        pos++;
    if (id[pos] != ':')
        return qn_err_set(err, QN_ESYNTAX, 1, (int)pos + 1,
                          "expected ':' after the flip parameters");
    if (w <= 0 || h <= 0)
        return qn_err_set(err, QN_EINVAL, 1, 1,
                          "width and height must both be greater than zero");
    /* Flip's own limits (validate_params), then quench's. */
    if (w > (INT_MAX - 3) / h || w * h > (INT_MAX - 3) / (w * h))
        return qn_err_set(err, QN_EINVAL, 1, 1,
                          "board %lldx%lld is too large for flip", w, h);
    if (w * h > QN_RULES_MAX_CELLS)
        return qn_err_set(err, QN_ELIMIT, 1, 1,
                          "board %lldx%lld has %lld cells, more than quench's "
                          "limit of %d",
                          w, h, w * h, QN_RULES_MAX_CELLS);
    pos++;

    n = (size_t)(w * h);
    matrix = QN_ALLOCN(n * n, uint8_t);
    grid = QN_ALLOCN(n, uint8_t);
    rc = matrix && grid ? QN_OK : qn_err_nomem(err);
    if (rc == QN_OK)
        rc = get_bits(id, &pos, n * n, ',', matrix, n, "matrix", err);
    if (rc == QN_OK)
        rc = get_bits(id, &pos, n, '\0', grid, 0, "grid", err);
    if (rc != QN_OK) {
        free(grid);
        free(matrix);
        return rc;
    }
    *w_out = (int)w;
    *h_out = (int)h;
    *matrix_out = matrix;
    *grid_out = grid;
    return QN_OK;
}
