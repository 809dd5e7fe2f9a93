/*
 * svg_lines.c: a line plot (svg.h), one polyline per series over shared
 * axes, drawn in the histogram's steps: scale, y grid, lines, axes,
 * legend (a row of its own above the plot).
 */
#include "export/svg.h"

#include <assert.h>
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "svg_internal.h"

#define PW QN_SVG__PLOT_W
#define PH QN_SVG__PLOT_H
#define ML 64.0 /* plot margins: left, right, top, bottom */
#define MR 20.0
#define MT 72.0
#define MB 56.0
#define LGY QN_SVG__LEGEND_Y /* the legend row's top and height */
#define LGH QN_SVG__LEGEND_H

/* Okabe-Ito colours, and dashes, so lines read apart without colour. */
static const unsigned colours[] = {0x0072B2, 0xD55E00, 0x009E73, 0xCC79A7,
                                   0xE69F00, 0x56B4E9, 0x000000, 0xF0E442};
static const struct {
    size_t n;
    double len[4];
} dashes[] = {{0, {0}}, {2, {6, 3}}, {2, {2, 3}}, {4, {8, 3, 2, 3}}};
#define NCOLOURS (sizeof colours / sizeof *colours)
#define NDASHES (sizeof dashes / sizeof *dashes)

unsigned qn_svg__series_colour(size_t i)
{
    return colours[i % NCOLOURS];
}

const double *qn_svg__series_dash(size_t i, size_t *n)
{
    *n = dashes[i % NDASHES].n;
    return dashes[i % NDASHES].len;
}

/* series i's stroke-dasharray attribute, nothing for a solid line */
static void series_stroke(qn_buf *out, size_t i)
{
    size_t n;
    const double *d = qn_svg__series_dash(i, &n);

    if (!n)
        return;
    qn_buf_adds(out, " stroke-dasharray=\"");
    for (size_t j = 0; j < n; j++) {
        if (j)
            qn_buf_addc(out, ' ');
        qn_svg__num(out, d[j]);
    }
    qn_buf_addc(out, '"');
}

double qn_svg__nice_step(double raw)
{
    double mag = pow(10, floor(log10(raw))), f = raw / mag;

    return (f <= 1 ? 1 : f <= 2 ? 2 : f <= 5 ? 5 : 10) * mag;
}

typedef qn_svg__lframe frame;

double qn_svg__lines_px(const qn_svg__lframe *f, double x)
{
    return f->ox +
           (f->x1 > f->x0 ? f->w * (x - f->x0) / (f->x1 - f->x0) : f->w / 2);
}

double qn_svg__lines_py(const qn_svg__lframe *f, double y)
{
    return f->oy - f->h * y / f->y1;
}

/* the short names this file draws with */
#define px qn_svg__lines_px
#define py qn_svg__lines_py

void qn_svg__lines_scale(qn_svg__lframe *f, const qn_svg_plot *p)
{
    double ymax = 0;
    int any = 0;

    f->x0 = 0, f->x1 = 1;
    for (size_t s = 0; s < p->nseries; s++)
        for (size_t i = 0; i < p->series[s].n; i++) {
            double x = p->series[s].x[i], y = p->series[s].y[i];
            if (!any || x < f->x0)
                f->x0 = x;
            if (!any || x > f->x1)
                f->x1 = x;
            any = 1;
            ymax = y > ymax ? y : ymax;
        }
    f->ystep = ymax > 0 ? qn_svg__nice_step(ymax / 5) : 1;
    f->y1 = ymax > 0 ? ceil(ymax / f->ystep - 1e-9) * f->ystep : 5;
    f->ox = ML, f->oy = PH - MB, f->w = PW - ML - MR, f->h = PH - MT - MB;
}

static void grid(qn_buf *out, const frame *f)
{
    double xs =
        f->x1 - f->x0 > 15 ? qn_svg__nice_step((f->x1 - f->x0) / 15) : 1;

    qn_buf_adds(out, "<g class=\"yaxis\" font-family=\"sans-serif\" "
                     "font-size=\"11\" text-anchor=\"end\">\n");
    for (double v = 0; v <= f->y1 + f->ystep / 2; v += f->ystep) {
        qn_buf_adds(out, "<line");
        qn_svg__attr(out, "x1", f->ox);
        qn_svg__attr(out, "y1", py(f, v));
        qn_svg__attr(out, "x2", f->ox + f->w);
        qn_svg__attr(out, "y2", py(f, v));
        qn_buf_adds(out, " stroke=\"#ddd\"/><text");
        qn_svg__attr(out, "x", f->ox - 6);
        qn_svg__attr(out, "y", py(f, v) + 4);
        qn_buf_addf(out, ">%.4g</text>\n", v);
    }
    qn_buf_adds(out, "</g>\n<g class=\"xaxis\" font-family=\"sans-serif\" "
                     "font-size=\"11\" text-anchor=\"middle\">\n");
    for (double v = ceil(f->x0 / xs) * xs; v <= f->x1 + 1e-9; v += xs) {
        qn_buf_adds(out, "<text");
        qn_svg__attr(out, "x", px(f, v));
        qn_svg__attr(out, "y", f->oy + 15);
        qn_buf_addf(out, ">%.4g</text>\n", v);
    }
    qn_buf_adds(out, "</g>\n<g stroke=\"#000\" stroke-width=\"1\"><line");
    qn_svg__attr(out, "x1", f->ox);
    qn_svg__attr(out, "y1", f->oy);
    qn_svg__attr(out, "x2", f->ox + f->w);
    qn_svg__attr(out, "y2", f->oy);
    qn_buf_adds(out, "/><line");
    qn_svg__attr(out, "x1", f->ox);
    qn_svg__attr(out, "y1", f->oy);
    qn_svg__attr(out, "x2", f->ox);
    qn_svg__attr(out, "y2", f->oy - f->h);
    qn_buf_adds(out, "/></g>\n");
}

static void axis_titles(qn_buf *out, const frame *f, const qn_svg_plot *p)
{
    qn_buf_adds(out, "<g font-family=\"sans-serif\" font-size=\"13\" "
                     "text-anchor=\"middle\"><text");
    qn_svg__attr(out, "x", f->ox + f->w / 2);
    qn_svg__attr(out, "y", PH - 14);
    qn_buf_addc(out, '>');
    qn_svg_escape(out, p->xlabel);
    qn_buf_adds(out, "</text><text");
    qn_svg__attr(out, "x", 16);
    qn_svg__attr(out, "y", f->oy - f->h / 2);
    qn_buf_adds(out, " transform=\"rotate(-90 16 ");
    qn_svg__num(out, f->oy - f->h / 2);
    qn_buf_adds(out, ")\">");
    qn_svg_escape(out, p->ylabel);
    qn_buf_adds(out, "</text></g>\n");
}

/* one series: a polyline and a dot per point, its value in a tooltip */
static void series(qn_buf *out, const frame *f, const qn_svg_series *s,
                   size_t i)
{
    unsigned col = qn_svg__series_colour(i);

    qn_buf_addf(out, "<g class=\"series\" stroke=\"#%06X\" fill=\"#%06X\">\n",
                col, col);
    if (s->n > 1) {
        qn_buf_adds(out, "<polyline fill=\"none\" stroke-width=\"2\"");
        series_stroke(out, i);
        qn_buf_adds(out, " points=\"");
        for (size_t j = 0; j < s->n; j++) {
            qn_svg__num(out, px(f, s->x[j]));
            qn_buf_addc(out, ',');
            qn_svg__num(out, py(f, s->y[j]));
            qn_buf_addc(out, j + 1 < s->n ? ' ' : '"');
        }
        qn_buf_adds(out, "/>\n");
    }
    for (size_t j = 0; j < s->n; j++) {
        qn_buf_adds(out, "<circle class=\"point\" r=\"3\"");
        qn_svg__attr(out, "cx", px(f, s->x[j]));
        qn_svg__attr(out, "cy", py(f, s->y[j]));
        qn_buf_adds(out, "><title>");
        qn_svg_escape(out, s->label);
        qn_buf_addf(out, ": %.6g, %.6g</title></circle>\n", s->x[j], s->y[j]);
    }
    qn_buf_adds(out, "</g>\n");
}

double qn_svg__lines_legend_x(const qn_svg__lframe *f, const qn_svg_plot *p,
                              size_t i)
{
    double x = f->ox + 12;

    /* a swatch, 30 px to its words, about 7 px per character, 16 px on */
    for (size_t j = 0; j < i && j < p->nseries; j++)
        x += 30 + 7.0 * (double)strlen(p->series[j].label) + 16;
    return x;
}

static void legend(qn_buf *out, const frame *f, const qn_svg_plot *p)
{
    double y = LGY + LGH / 2;

    qn_buf_adds(out, "<g class=\"legend\" font-family=\"sans-serif\" "
                     "font-size=\"12\">");
    for (size_t i = 0; i < p->nseries; i++) {
        double x = qn_svg__lines_legend_x(f, p, i);
        qn_buf_adds(out, "<line");
        qn_svg__attr(out, "x1", x);
        qn_svg__attr(out, "y1", y);
        qn_svg__attr(out, "x2", x + 24);
        qn_svg__attr(out, "y2", y);
        qn_buf_addf(out, " stroke=\"#%06X\" stroke-width=\"2\"",
                    qn_svg__series_colour(i));
        series_stroke(out, i);
        qn_buf_adds(out, "/><text");
        qn_svg__attr(out, "x", x + 30);
        qn_svg__attr(out, "y", y + 4);
        qn_buf_addc(out, '>');
        qn_svg_escape(out, p->series[i].label);
        qn_buf_adds(out, "</text>");
    }
    qn_buf_adds(out, "</g>\n");
}

void qn_svg_lines(qn_buf *out, const qn_svg_plot *p)
{
    frame f;

    assert(out && p && (p->series || !p->nseries));
    qn_svg__lines_scale(&f, p);
    qn_svg__open(out, PW, PH, p->title);
    if (p->title && *p->title)
        qn_svg__title(out, PW / 2, 24, p->title);
    grid(out, &f);
    for (size_t i = 0; i < p->nseries; i++)
        series(out, &f, &p->series[i], i);
    axis_titles(out, &f, p);
    legend(out, &f, p);
    qn_buf_adds(out, "</svg>\n");
}
