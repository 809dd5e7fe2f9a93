/*
 * png_plot.c: the press histogram and the line plot (png.h) as PNG: the
 * svg writers' geometry (svg_internal.h: qn_svg__chart, qn_svg__lframe,
 * the legend rows, the series' colours and dashes) painted on a raster
 * canvas (raster.h) in the svg's order: grid, bars or lines, axes,
 * legend. Text is not drawn (the svg carries it); the pack's hatch is its
 * light colour.
 */
#include "export/png.h"

#include <assert.h>
#include <math.h>

#include "raster.h"
#include "svg_internal.h"

/* A stroke along a path, dashed as svg dashes it: the pattern runs on
 * across the path's corners. */
typedef struct pen {
    qn_raster *c;
    double w;
    unsigned rgb;
    const double *dash; /* nd lengths, on and off in turn; nd 0: solid */
    size_t nd, di;
    double left; /* what is left of dash[di] */
} pen;

static void pen_init(pen *p, qn_raster *c, double w, unsigned rgb,
                     const double *dash, size_t nd)
{
    p->c = c, p->w = w, p->rgb = rgb, p->dash = dash, p->nd = nd;
    p->di = 0, p->left = nd ? dash[0] : 0;
}

static void pen_line(pen *p, double x0, double y0, double x1, double y1)
{
    double len = hypot(x1 - x0, y1 - y0), t = 0;

    if (!p->nd) {
        qn_raster_line(p->c, x0, y0, x1, y1, p->w, p->rgb);
        return;
    }
    while (len - t > 1e-9) {
        double step = fmin(p->left, len - t);
        if (p->di % 2 == 0) {
            double a = t / len, b = (t + step) / len;
            qn_raster_line(p->c, x0 + (x1 - x0) * a, y0 + (y1 - y0) * a,
                           x0 + (x1 - x0) * b, y0 + (y1 - y0) * b, p->w,
                           p->rgb);
        }
        t += step, p->left -= step;
        if (p->left <= 1e-9)
            p->di = (p->di + 1) % p->nd, p->left = p->dash[p->di];
    }
}

/* A box filled `fill` with an outline `sw` wide centred on its edge. */
static void box(qn_raster *c, double x, double y, double w, double h, double sw,
                unsigned stroke, unsigned fill)
{
    double e = sw / 2;

    qn_raster_rect(c, x - e, y - e, x + w + e, y + h + e, 0, stroke);
    qn_raster_rect(c, x + e, y + e, x + w - e, y + h - e, 0, fill);
}

static int encode(qn_buf *out, qn_raster *c, qn_err *err)
{
    int rc = qn_raster_png(c, out, err);

    qn_raster_release(c);
    return rc;
}

/* The histogram's colours (svg_histogram.c). */
#define GRID 0xDDDDDD
#define HATCH 0x56B4E9
#define DIST 0xD55E00
#define WHISKER 0x333333
#define FRAME 0x999999

int qn_png_histogram(qn_buf *out, const qn_svg_hist *h, qn_err *err)
{
    static const double dist_dash[] = {6, 3};
    qn_svg__chart ch;
    qn_svg__legend lg;
    qn_raster c;
    pen p;
    int rc;

    assert(out && h && (h->pack || h->pack_len == 0));
    qn_svg__chart_init(&ch, h);
    rc = qn_raster_init(&c, QN_SVG__PLOT_W, QN_SVG__PLOT_H, 0xFFFFFF, err);
    if (rc != QN_OK)
        return rc;
    for (double v = 0; v <= ch.top + ch.step / 2; v += ch.step) {
        double y = ch.y0 - ch.ph * v / ch.top;
        qn_raster_line(&c, ch.x0, y, ch.x0 + ch.pw, y, 1, GRID);
    }
    for (size_t i = ch.lo; i < ch.lo + ch.nb; i++) {
        double x, y, w, hgt;
        if (qn_svg__chart_bar(&ch, i, &x, &y, &w, &hgt))
            box(&c, x, y, w, hgt, 1, 0x000000, HATCH);
    }
    if (ch.dist && ch.dtot > 0) {
        double x0, y0, x1, y1;
        pen_init(&p, &c, 2.5, DIST, dist_dash, 2);
        qn_svg__chart_outline(&ch, 0, &x0, &y0);
        for (size_t j = 1; j < 2 * ch.nb + 2; j++) {
            qn_svg__chart_outline(&ch, j, &x1, &y1);
            pen_line(&p, x0, y0, x1, y1);
            x0 = x1, y0 = y1;
        }
    }
    if (ch.ci_lo && ch.dtot > 0)
        for (size_t i = 0; i < ch.nb; i++) {
            size_t m = ch.lo + i;
            double x = ch.x0 + ch.bw * ((double)i + 0.5);
            if (m < ch.dist_len && ch.dist[m])
                qn_raster_line(&c, x, qn_svg__chart_y(&ch, ch.ci_lo[m]), x,
                               qn_svg__chart_y(&ch, ch.ci_hi[m]), 1.5, WHISKER);
        }
    qn_raster_line(&c, ch.x0, ch.y0, ch.x0 + ch.pw, ch.y0, 1, 0x000000);
    qn_raster_line(&c, ch.x0, ch.y0, ch.x0, ch.y0 - ch.ph, 1, 0x000000);
    qn_svg__chart_legend(&ch, &lg);
    box(&c, lg.x, lg.y, lg.w, lg.h, 1, FRAME, 0xFFFFFF);
    for (size_t i = 0; i < lg.n; i++) {
        double x = lg.e[i].x, y = lg.y + lg.h / 2;
        if (lg.e[i].dashed) {
            pen_init(&p, &c, 2.5, DIST, dist_dash, 2);
            pen_line(&p, x, y, x + 24, y);
        } else {
            box(&c, x, y - 6, 24, 12, 1, 0x000000, HATCH);
        }
    }
    return encode(out, &c, err);
}

int qn_png_lines(qn_buf *out, const qn_svg_plot *pl, qn_err *err)
{
    qn_svg__lframe f;
    qn_raster c;
    pen p;
    int rc;

    assert(out && pl && (pl->series || !pl->nseries));
    qn_svg__lines_scale(&f, pl);
    rc = qn_raster_init(&c, QN_SVG__PLOT_W, QN_SVG__PLOT_H, 0xFFFFFF, err);
    if (rc != QN_OK)
        return rc;
    for (double v = 0; v <= f.y1 + f.ystep / 2; v += f.ystep) {
        double y = qn_svg__lines_py(&f, v);
        qn_raster_line(&c, f.ox, y, f.ox + f.w, y, 1, GRID);
    }
    qn_raster_line(&c, f.ox, f.oy, f.ox + f.w, f.oy, 1, 0x000000);
    qn_raster_line(&c, f.ox, f.oy, f.ox, f.oy - f.h, 1, 0x000000);
    for (size_t i = 0; i < pl->nseries; i++) {
        const qn_svg_series *s = &pl->series[i];
        unsigned col = qn_svg__series_colour(i);
        size_t nd;
        const double *dash = qn_svg__series_dash(i, &nd);
        pen_init(&p, &c, 2, col, dash, nd);
        for (size_t j = 1; j < s->n; j++)
            pen_line(&p, qn_svg__lines_px(&f, s->x[j - 1]),
                     qn_svg__lines_py(&f, s->y[j - 1]),
                     qn_svg__lines_px(&f, s->x[j]),
                     qn_svg__lines_py(&f, s->y[j]));
        /* a dot of radius 3 stroked 1 px wide in the same colour */
        for (size_t j = 0; j < s->n; j++)
            qn_raster_disc(&c, qn_svg__lines_px(&f, s->x[j]),
                           qn_svg__lines_py(&f, s->y[j]), 3.5, col);
    }
    for (size_t i = 0; i < pl->nseries; i++) {
        double x = qn_svg__lines_legend_x(&f, pl, i);
        double y = QN_SVG__LEGEND_Y + QN_SVG__LEGEND_H / 2;
        size_t nd;
        const double *dash = qn_svg__series_dash(i, &nd);
        pen_init(&p, &c, 2, qn_svg__series_colour(i), dash, nd);
        pen_line(&p, x, y, x + 24, y);
    }
    return encode(out, &c, err);
}
