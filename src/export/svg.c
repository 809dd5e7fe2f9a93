/*
 * svg.c: SVG pictures of boards and contact sheets of packs (the press
 * histogram is svg_histogram.c, the shared markup svg_markup.c). Cells are
 * <use> references to one <defs> entry per colour value, so the markup per
 * cell is small and the palette/glyph choice lives in one place (see svg.h
 * for the palette, glyph and geometry decisions).
 */
#include "export/svg.h"

#include <assert.h>
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "rules/layout.h"
#include "svg_internal.h"

#define SQRT3 1.7320508075688772
#define QN_PI 3.14159265358979323846

/* --------------------------------------------------------------- palette */

/*
 * Okabe & Ito (2008), "Color Universal Design": distinguishable under the
 * common colour-vision deficiencies. Black is left out: value glyphs on it
 * and the outlines would blur together.
 */
static const unsigned okabe_ito[7] = {
    0xE69F00, 0x56B4E9, 0x009E73, 0xF0E442, 0x0072B2, 0xD55E00, 0xCC79A7,
};

/*
 * Stops of cividis (Nunez, Anderton & Renslow 2018), a ramp designed to
 * look the same to deuteranopes; lightness rises monotonically, so values
 * stay ordered even in greyscale. Interpolated linearly in sRGB, which is
 * close enough between these five stops.
 */
static const unsigned cividis[5] = {
    0x00204D, 0x414D6B, 0x7C7B78, 0xBCAF6F, 0xFFEA46,
};

#define OFF_FILL 0xF2F2F2

static unsigned fill_of(unsigned v, unsigned k)
{
    double t, f;
    unsigned a, z, rgb = 0;
    int seg, sh;

    if (v == 0)
        return OFF_FILL;
    if (k <= 8)
        return okabe_ito[v - 1];
    t = k > 2 ? (double)(v - 1) / (double)(k - 2) : 0; /* 0..1 */
    seg = (int)(t * 4);
    if (seg > 3)
        seg = 3;
    f = t * 4 - seg;
    a = cividis[seg], z = cividis[seg + 1];
    for (sh = 16; sh >= 0; sh -= 8) {
        double ca = (a >> sh) & 0xFF, cz = (z >> sh) & 0xFF;
        unsigned c = (unsigned)lround(ca + (cz - ca) * f);
        rgb |= c << sh;
    }
    return rgb;
}

/* Black glyphs on light fills, white on dark (ITU-R BT.601 luma). */
static int is_light(unsigned rgb)
{
    double y = 0.299 * ((rgb >> 16) & 0xFF) + 0.587 * ((rgb >> 8) & 0xFF) +
               0.114 * (rgb & 0xFF);
    return y > 140;
}

/* A value's glyph: base 36, two digits from 36 on (svg.h). */
static void glyph_text(char out[4], unsigned v)
{
    static const char digits[] = "0123456789abcdefghijklmnopqrstuvwxyz";

    if (v < 36) {
        out[0] = digits[v];
        out[1] = '\0';
    } else {
        out[0] = digits[v / 36];
        out[1] = digits[v % 36];
        out[2] = '\0';
    }
}

/* -------------------------------------------------------------- geometry */

/* shape and geom: svg_internal.h, shared with the PNG writer (png.c). */

static void raw_centre(const geom *g, int i, double *x, double *y)
{
    const qn_layout *l = g->l;
    double s = g->s;
    int r, c;

    switch (l->kind) {
    case QN_LAYOUT_GRID:
        qn_layout_rc(l, i, &r, &c);
        *x = c * s, *y = r * s;
        return;
    case QN_LAYOUT_HEX: /* odd-r: odd rows half a cell to the right */
        qn_layout_rc(l, i, &r, &c);
        *x = s * (c + 0.5 * (r & 1));
        *y = r * s * SQRT3 / 2;
        return;
    case QN_LAYOUT_HEXAGON: { /* axial (q, r) -> pointy-top pixel centre */
        int q, ar;
        qn_layout_rc(l, i, &r, &c);
        q = c - (l->side - 1), ar = r - (l->side - 1);
        *x = s * (q + 0.5 * ar);
        *y = ar * s * SQRT3 / 2;
        return;
    }
    case QN_LAYOUT_GRAPH: {
        double a = -QN_PI / 2 + 2 * QN_PI * i / l->ncells;
        *x = g->gr * cos(a), *y = g->gr * sin(a);
        return;
    }
    }
    assert(0);
}

/* Raw centres of a w x h position rectangle, for holes (not GRAPH). */
static void raw_pos_centre(const geom *g, int r, int c, double *x, double *y)
{
    double s = g->s;

    if (g->l->kind == QN_LAYOUT_GRID) {
        *x = c * s, *y = r * s;
    } else if (g->l->kind == QN_LAYOUT_HEX) {
        *x = s * (c + 0.5 * (r & 1)), *y = r * s * SQRT3 / 2;
    } else {
        int q = c - (g->l->side - 1), ar = r - (g->l->side - 1);
        *x = s * (q + 0.5 * ar), *y = ar * s * SQRT3 / 2;
    }
}

/*
 * Only grids and hex rectangles have holes worth showing: a HEXAGON's
 * holes are an artefact of storing it in a rectangle.
 */
static int has_holes(const qn_layout *l)
{
    return (l->kind == QN_LAYOUT_GRID || l->kind == QN_LAYOUT_HEX) &&
           l->w * l->h > l->ncells;
}

/* Cell size s; with `holes`, the box covers every position, not only the
 * cells, so hole outlines on the border are not clipped. */
static void geom_init(geom *g, const qn_layout *l, double s, int holes)
{
    double minx = 1e300, miny = 1e300, maxx = -1e300, maxy = -1e300;
    double x, y;
    int i;

    memset(g, 0, sizeof *g);
    g->l = l;
    g->s = s;
    switch (l->kind) {
    case QN_LAYOUT_GRID:
        g->sh = SH_SQUARE, g->hx = g->hy = s / 2;
        break;
    case QN_LAYOUT_HEX:
    case QN_LAYOUT_HEXAGON:
        g->sh = SH_HEX, g->hx = s / 2, g->hy = s / SQRT3;
        break;
    case QN_LAYOUT_GRAPH:
        g->sh = SH_CIRCLE, g->hx = g->hy = s / 2;
        /* Neighbours 1.3 cells apart along the circle, at least 0.8. */
        g->gr = l->ncells < 2 ? 0 : l->ncells * 1.3 * s / (2 * QN_PI);
        if (l->ncells >= 2 && g->gr < 0.8 * s)
            g->gr = 0.8 * s;
        break;
    }
    /* Bounding box over the cells; O(ncells) and no allocation. */
    for (i = 0; i < l->ncells; i++) {
        raw_centre(g, i, &x, &y);
        minx = x < minx ? x : minx, maxx = x > maxx ? x : maxx;
        miny = y < miny ? y : miny, maxy = y > maxy ? y : maxy;
    }
    if (holes) {
        int r, c;
        for (r = 0; r < l->h; r++)
            for (c = 0; c < l->w; c++) {
                raw_pos_centre(g, r, c, &x, &y);
                minx = x < minx ? x : minx, maxx = x > maxx ? x : maxx;
                miny = y < miny ? y : miny, maxy = y > maxy ? y : maxy;
            }
    }
    g->ox = g->hx - minx, g->oy = g->hy - miny;
    g->bw = maxx - minx + 2 * g->hx;
    g->bh = maxy - miny + 2 * g->hy;
}

/* The outline of one cell centred at the origin, as an element. */
static void shape_elem(qn_buf *b, const geom *g, unsigned fill, unsigned stroke,
                       const char *extra)
{
    double s = g->s, sw = qn_svg__stroke_width(s);

    if (g->sh == SH_SQUARE) {
        double h = s / 2 - sw; /* a small gap between neighbours */
        qn_buf_adds(b, "<rect");
        qn_svg__attr(b, "x", -h);
        qn_svg__attr(b, "y", -h);
        qn_svg__attr(b, "width", 2 * h);
        qn_svg__attr(b, "height", 2 * h);
        qn_svg__attr(b, "rx", s * 0.12);
    } else if (g->sh == SH_HEX) {
        double R = s / SQRT3 * 0.95, hw = R * SQRT3 / 2;
        qn_buf_adds(b, "<path d=\"M0 ");
        qn_svg__num(b, -R);
        qn_buf_adds(b, "L");
        qn_svg__num(b, hw);
        qn_buf_addc(b, ' ');
        qn_svg__num(b, -R / 2);
        qn_buf_adds(b, "V");
        qn_svg__num(b, R / 2);
        qn_buf_adds(b, "L0 ");
        qn_svg__num(b, R);
        qn_buf_adds(b, "L");
        qn_svg__num(b, -hw);
        qn_buf_addc(b, ' ');
        qn_svg__num(b, R / 2);
        qn_buf_adds(b, "V");
        qn_svg__num(b, -R / 2);
        qn_buf_adds(b, "Z\"");
    } else {
        qn_buf_adds(b, "<circle");
        qn_svg__attr(b, "r", s * 0.45);
    }
    qn_buf_addf(b, " fill=\"#%06X\" stroke=\"#%06X\"", fill, stroke);
    qn_svg__attr(b, "stroke-width", sw);
    qn_buf_addf(b, "%s/>", extra ? extra : "");
}

/*
 * <defs>: one group per value present (id "vN": shape + glyph), the hole
 * outline "hole" and the press marker "press". Values absent from every
 * state get no definition, which keeps k = 255 sheets small.
 */
static void defs(qn_buf *b, const geom *g, unsigned k,
                 const uint8_t present[256], int holes, int press)
{
    double s = g->s;
    unsigned v;

    qn_buf_adds(b, "<defs>\n");
    for (v = 0; v < k; v++) {
        unsigned fill = fill_of(v, k);
        char t[4];

        if (!present[v])
            continue;
        qn_buf_addf(b, "<g id=\"v%u\">", v);
        shape_elem(b, g, fill, qn_svg__stroke(v), NULL);
        if (v) {
            glyph_text(t, v);
            qn_buf_adds(b, "<text class=\"glyph\" x=\"0\"");
            qn_svg__attr(b, "y", s * (v < 36 ? 0.18 : 0.15));
            qn_buf_adds(b, " font-family=\"sans-serif\" font-weight=\"bold\""
                           " text-anchor=\"middle\"");
            qn_svg__attr(b, "font-size", s * (v < 36 ? 0.5 : 0.42));
            qn_buf_addf(b, " fill=\"%s\">%s</text>",
                        is_light(fill) ? "#000" : "#fff", t);
        }
        qn_buf_adds(b, "</g>\n");
    }
    if (holes) {
        qn_buf_adds(b, "<g id=\"hole\">");
        shape_elem(b, g, 0xFFFFFF, 0xCCCCCC, " stroke-dasharray=\"2 2\"");
        qn_buf_adds(b, "</g>\n");
    }
    if (press) {
        qn_buf_adds(b, "<circle id=\"press\"");
        qn_svg__attr(b, "r", s * 0.14);
        qn_svg__attr(b, "stroke-width", s / 25 < 1 ? 1 : s / 25);
        qn_buf_adds(b, " fill=\"#fff\" stroke=\"#000\"/>\n");
    }
    qn_buf_adds(b, "</defs>\n");
}

/* Cells (and holes) of one board whose box starts at (x0, y0). */
static void cells(qn_buf *b, const geom *g, const qn_rules *r,
                  const uint8_t *st, double x0, double y0, int cls, int flags)
{
    const qn_layout *l = g->l;
    unsigned k = qn_rules_colours(r);
    int n = l->ncells, i, j;
    double x, y, x2, y2;

    if (l->kind == QN_LAYOUT_GRAPH && (flags & QN_SVG_EDGES)) {
        const uint8_t *a = qn_rules_matrix(r);
        qn_buf_adds(b, "<g class=\"edges\" stroke=\"#777\" "
                       "stroke-width=\"1.5\">\n");
        for (i = 0; i < n; i++)
            for (j = i + 1; j < n; j++) {
                if (!a[(size_t)i * n + j] && !a[(size_t)j * n + i])
                    continue;
                raw_centre(g, i, &x, &y);
                raw_centre(g, j, &x2, &y2);
                qn_buf_adds(b, "<line");
                qn_svg__attr(b, "x1", x0 + g->ox + x);
                qn_svg__attr(b, "y1", y0 + g->oy + y);
                qn_svg__attr(b, "x2", x0 + g->ox + x2);
                qn_svg__attr(b, "y2", y0 + g->oy + y2);
                qn_buf_adds(b, "/>\n");
            }
        qn_buf_adds(b, "</g>\n");
    }
    if ((flags & QN_SVG_HOLES) && has_holes(l)) {
        int rr, c;
        for (rr = 0; rr < l->h; rr++)
            for (c = 0; c < l->w; c++) {
                if (l->index[rr * l->w + c] >= 0)
                    continue;
                raw_pos_centre(g, rr, c, &x, &y);
                qn_buf_adds(b, "<use class=\"hole\" xlink:href=\"#hole\"");
                qn_svg__attr(b, "x", x0 + g->ox + x);
                qn_svg__attr(b, "y", y0 + g->oy + y);
                qn_buf_adds(b, "/>\n");
            }
    }
    for (i = 0; i < n; i++) {
        assert(st[i] < k);
        raw_centre(g, i, &x, &y);
        qn_buf_addf(b, "<use%s xlink:href=\"#v%u\"",
                    cls ? " class=\"cell\"" : "", st[i]);
        qn_svg__attr(b, "x", x0 + g->ox + x);
        qn_svg__attr(b, "y", y0 + g->oy + y);
        qn_buf_adds(b, cls ? "/>\n" : "/>");
    }
    if (!cls)
        qn_buf_addc(b, '\n');
    (void)k;
}

static int clampi(int v, int lo, int hi)
{
    return v < lo ? lo : v > hi ? hi : v;
}

/* ----------------------------------------------------------------- board */

/* The colour helpers png.c shares (svg_internal.h). */
unsigned qn_svg__fill(unsigned v, unsigned k)
{
    return fill_of(v, k);
}

unsigned qn_svg__stroke(unsigned v)
{
    return v ? 0x333333 : 0x999999;
}

double qn_svg__stroke_width(double s)
{
    return s / 30 < 0.5 ? 0.5 : s / 30;
}

void qn_svg__centre(const geom *g, int i, double *x, double *y)
{
    raw_centre(g, i, x, y);
    *x += g->ox, *y += g->oy;
}

void qn_svg__board_frame(qn_svg__frame *f, const qn_rules *r,
                         const qn_svg_opts *o)
{
    const qn_layout *l = qn_rules_layout(r);
    double s, m, top;

    s = o->cell_px > 0 ? clampi(o->cell_px, 2, 400) : 40;
    m = s / 2 > 8 ? s / 2 : 8;
    top = o->title && *o->title ? 28 : 0;
    f->holes = (o->flags & QN_SVG_HOLES) && has_holes(l);
    geom_init(&f->g, l, s, f->holes);
    f->w = f->g.bw + 2 * m, f->h = f->g.bh + 2 * m + top;
    if (top && f->w < qn_svg__title_width(o->title))
        f->w = qn_svg__title_width(o->title);
    f->x0 = (f->w - f->g.bw) / 2, f->y0 = m + top;
}

void qn_svg_board(qn_buf *out, const qn_rules *r, const uint8_t *cells_in,
                  const qn_svg_opts *o)
{
    static const qn_svg_opts defaults;
    unsigned k = qn_rules_colours(r);
    uint8_t present[256] = {0};
    double s, top, w, h;
    int i, n = qn_rules_ncells(r), holes;
    qn_svg__frame f;
    geom g;

    assert(out && r && cells_in);
    if (!o)
        o = &defaults;
    qn_svg__board_frame(&f, r, o);
    g = f.g, s = g.s, w = f.w, h = f.h, holes = f.holes;
    top = o->title && *o->title ? 28 : 0;
    for (i = 0; i < n; i++)
        present[cells_in[i]] = 1;

    qn_svg__open(out, w, h, o->title);
    if (top)
        qn_svg__title(out, w / 2, 20, o->title);
    defs(out, &g, k, present, holes, o->plan != NULL);
    cells(out, &g, r, cells_in, f.x0, f.y0, 1, o->flags);
    if (o->plan) {
        double d = g.sh == SH_SQUARE ? 0.3 : 0.24; /* into the corner */
        double x0 = f.x0 + g.ox + s * d;
        double y0 = f.y0 + g.oy - s * d, x, y;

        qn_buf_adds(out, "<g class=\"plan\" font-family=\"sans-serif\" "
                         "font-weight=\"bold\" text-anchor=\"middle\"");
        qn_svg__attr(out, "font-size", s * 0.2);
        qn_buf_adds(out, ">\n");
        for (i = 0; i < n; i++) {
            if (!o->plan[i])
                continue;
            raw_centre(&g, i, &x, &y);
            qn_buf_adds(out, "<use class=\"press\" xlink:href=\"#press\"");
            qn_svg__attr(out, "x", x0 + x);
            qn_svg__attr(out, "y", y0 + y);
            qn_buf_adds(out, "/>");
            if (o->plan[i] > 1) {
                qn_buf_adds(out, "<text");
                qn_svg__attr(out, "x", x0 + x);
                qn_svg__attr(out, "y", y0 + y + s * 0.07);
                qn_buf_addf(out, ">%u</text>", o->plan[i]);
            }
            qn_buf_addc(out, '\n');
        }
        qn_buf_adds(out, "</g>\n");
    }
    qn_buf_adds(out, "</svg>\n");
}

/* ----------------------------------------------------------------- sheet */

#define THUMB_FIT 120.0 /* default thumbnail board size, px */
#define LABEL_H 30.0    /* two label lines under a thumbnail */
#define NOTE_H 12.0     /* and the note line, when there are notes */
#define PAD 12.0

void qn_svg__sheet_frame_init(qn_svg__sheet_frame *f, const qn_rules *r,
                              size_t n, const qn_svg_opts *o)
{
    const qn_layout *l = qn_rules_layout(r);
    double s, note_h = o->notes ? NOTE_H : 0;
    size_t rows;

    if (o->cell_px > 0) {
        s = clampi(o->cell_px, 2, 400);
    } else {
        geom_init(&f->g, l, 1, 0); /* unit cells: fit to THUMB_FIT */
        s = floor(THUMB_FIT / (f->g.bw > f->g.bh ? f->g.bw : f->g.bh));
        s = s < 4 ? 4 : s > 32 ? 32 : s;
    }
    f->holes = (o->flags & QN_SVG_HOLES) && has_holes(l);
    geom_init(&f->g, l, s, f->holes);
    f->cols = (size_t)(o->columns > 0 ? clampi(o->columns, 1, 1000) : 8);
    if (n < f->cols)
        f->cols = n ? n : 1;
    rows = (n + f->cols - 1) / f->cols;
    f->tw = (f->g.bw > THUMB_FIT ? f->g.bw : THUMB_FIT) + PAD;
    f->th = f->g.bh + LABEL_H + note_h + PAD;
    f->top = o->title && *o->title ? 28 : 0;
    f->w = f->cols * f->tw + PAD, f->h = rows * f->th + PAD + f->top;
    if (f->top && f->w < qn_svg__title_width(o->title))
        f->w = qn_svg__title_width(o->title);
}

void qn_svg__thumb_box(const qn_svg__sheet_frame *f, size_t i, double *x0,
                       double *y0, double *cx)
{
    double tx = PAD + (double)(i % f->cols) * f->tw;

    *cx = tx + (f->tw - PAD) / 2;
    *x0 = *cx - f->g.bw / 2;
    *y0 = PAD + f->top + (double)(i / f->cols) * f->th;
}

void qn_svg_sheet(qn_buf *out, const qn_rules *r, size_t n,
                  const qn_svg_item *items, const qn_svg_opts *o)
{
    static const qn_svg_opts defaults;
    unsigned k = qn_rules_colours(r);
    uint8_t present[256] = {0};
    int nc = qn_rules_ncells(r), holes;
    size_t i;
    double w, h;
    qn_svg__sheet_frame f;
    geom g;

    assert(out && r && (items || n == 0));
    if (!o)
        o = &defaults;
    qn_svg__sheet_frame_init(&f, r, n, o);
    g = f.g, w = f.w, h = f.h, holes = f.holes;
    for (i = 0; i < n; i++) {
        int j;
        assert(items[i].state);
        for (j = 0; j < nc; j++)
            present[items[i].state[j]] = 1;
    }

    qn_svg__open(out, w, h, o->title);
    if (f.top)
        qn_svg__title(out, w / 2, 20, o->title);
    defs(out, &g, k, present, holes, 0);
    qn_buf_adds(out, "<g font-family=\"sans-serif\" font-size=\"11\" "
                     "text-anchor=\"middle\">\n");
    for (i = 0; i < n; i++) {
        const qn_svg_item *it = &items[i];
        double x0, y0, cx;

        qn_svg__thumb_box(&f, i, &x0, &y0, &cx);
        qn_buf_adds(out, "<g class=\"thumb\">");
        cells(out, &g, r, it->state, x0, y0, 0, o->flags & ~QN_SVG_EDGES);
        qn_buf_adds(out, "<text class=\"label\"");
        qn_svg__attr(out, "x", cx);
        qn_svg__attr(out, "y", y0 + g.bh + 13);
        qn_buf_adds(out, " font-weight=\"bold\">");
        qn_svg_escape(out, it->id);
        qn_buf_adds(out, "</text><text class=\"meta\"");
        qn_svg__attr(out, "x", cx);
        qn_svg__attr(out, "y", y0 + g.bh + 26);
        qn_buf_addc(out, '>');
        if (it->grade) {
            qn_svg_escape(out, it->grade);
            qn_buf_adds(out, ", ");
        }
        if (it->par == QN_SVG_PAR_UNKNOWN)
            qn_buf_adds(out, "par ?");
        else
            qn_buf_addf(out, "par %llu", (unsigned long long)it->par);
        qn_buf_adds(out, "</text>");
        if (o->notes) {
            qn_buf_adds(out, "<text class=\"note\" font-family=\"monospace\""
                             " font-size=\"10\"");
            qn_svg__attr(out, "x", cx);
            qn_svg__attr(out, "y", y0 + g.bh + 38);
            qn_buf_addc(out, '>');
            qn_svg_escape(out, o->notes[i]);
            qn_buf_adds(out, "</text>");
        }
        qn_buf_adds(out, "</g>\n");
    }
    qn_buf_adds(out, "</g>\n</svg>\n");
}
