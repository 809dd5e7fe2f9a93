/*
 * png.c: boards and contact sheets as PNG (png.h): the svg writer's
 * geometry and palette (svg_internal.h) painted on a raster canvas
 * (raster.h) and encoded by libpng.
 */
#include "export/png.h"

#include <assert.h>

#include "raster.h"
#include "svg_internal.h"

/*
 * One cell centred at (x, y): its outline as the svg strokes it (a band
 * of the stroke width centred on the shape's edge), then its fill inside.
 */
static void cell(qn_raster *c, const geom *g, double x, double y, unsigned v,
                 unsigned k)
{
    double s = g->s, sw = qn_svg__stroke_width(s), e = sw / 2;
    unsigned fill = qn_svg__fill(v, k), stroke = qn_svg__stroke(v);

    if (g->sh == SH_SQUARE) {
        double h = s / 2 - sw, rx = s * 0.12;
        qn_raster_rect(c, x - h - e, y - h - e, x + h + e, y + h + e, rx + e,
                       stroke);
        qn_raster_rect(c, x - h + e, y - h + e, x + h - e, y + h - e,
                       rx > e ? rx - e : 0, fill);
    } else if (g->sh == SH_HEX) {
        double a = s / 1.7320508075688772 * 0.95 * 0.8660254037844386;
        qn_raster_hex(c, x, y, a + e, stroke);
        qn_raster_hex(c, x, y, a - e, fill);
    } else {
        qn_raster_disc(c, x, y, s * 0.45 + e, stroke);
        qn_raster_disc(c, x, y, s * 0.45 - e, fill);
    }
}

/* Every cell of a board whose box starts at (x0, y0). */
static void board(qn_raster *c, const geom *g, const qn_rules *r,
                  const uint8_t *st, double x0, double y0)
{
    unsigned k = qn_rules_colours(r);
    int n = qn_rules_ncells(r);

    for (int i = 0; i < n; i++) {
        double x, y;
        assert(st[i] < k);
        qn_svg__centre(g, i, &x, &y);
        cell(c, g, x0 + x, y0 + y, st[i], k);
    }
}

static int encode(qn_buf *out, qn_raster *c, qn_err *err)
{
    int rc = qn_raster_png(c, out, err);

    qn_raster_release(c);
    return rc;
}

int qn_png_board(qn_buf *out, const qn_rules *r, const uint8_t *cells,
                 const qn_svg_opts *o, qn_err *err)
{
    static const qn_svg_opts defaults;
    qn_svg__frame f;
    qn_raster c;
    int rc;

    assert(out && r && cells);
    qn_svg__board_frame(&f, r, o ? o : &defaults);
    if ((rc = qn_raster_init(&c, f.w, f.h, 0xFFFFFF, err)) != QN_OK)
        return rc;
    board(&c, &f.g, r, cells, f.x0, f.y0);
    return encode(out, &c, err);
}

int qn_png_sheet(qn_buf *out, const qn_rules *r, size_t n,
                 const qn_svg_item *items, const qn_svg_opts *o, qn_err *err)
{
    static const qn_svg_opts defaults;
    qn_svg__sheet_frame f;
    qn_raster c;
    int rc;

    assert(out && r && (items || n == 0));
    qn_svg__sheet_frame_init(&f, r, n, o ? o : &defaults);
    if ((rc = qn_raster_init(&c, f.w, f.h, 0xFFFFFF, err)) != QN_OK)
        return rc;
    for (size_t i = 0; i < n; i++) {
        double x0, y0, cx;
        qn_svg__thumb_box(&f, i, &x0, &y0, &cx);
        board(&c, &f.g, r, items[i].state, x0, y0);
    }
    return encode(out, &c, err);
}
