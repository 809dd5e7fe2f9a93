/*
 * svg_internal.h: the markup helpers (svg_markup.c) that the board and
 * sheet writers (svg.c) and the histogram (svg_histogram.c) share.
 * Private to the export module; callers use quench/svg.h.
 */
#ifndef QN_SVG_INTERNAL_H
#define QN_SVG_INTERNAL_H

#include "base/buf.h"
#include "export/svg.h"
#include "rules/layout.h"

/* Append a coordinate with at most two decimals and no trailing zeros. */
void qn_svg__num(qn_buf *b, double v);

/* Append " name=\"v\"", v as qn_svg__num writes it. */
void qn_svg__attr(qn_buf *b, const char *name, double v);

/*
 * Open a w x h document (sizes rounded up) with a white background and,
 * when title is non-empty, a <title> element.
 */
void qn_svg__open(qn_buf *b, double w, double h, const char *title);

/* Room for a 16 px bold title: about 10 px per character, plus margins. */
double qn_svg__title_width(const char *t);

/* The smallest 1, 2 or 5 times a power of ten at least `raw` (an axis
 * step; svg_lines.c). */
double qn_svg__nice_step(double raw);

/* A visible title line centred at (x, y). */
void qn_svg__title(qn_buf *b, double x, double y, const char *title);

/* ---- geometry of boards and sheets (svg.c), shared with png.c ---------- */

typedef enum shape { SH_SQUARE, SH_HEX, SH_CIRCLE } shape;

typedef struct geom {
    const qn_layout *l;
    shape sh;
    double s;      /* cell width, px */
    double hx, hy; /* half extents of one cell shape */
    double ox, oy; /* added to raw centres: the box starts at (0, 0) */
    double bw, bh; /* drawing size of the board */
    double gr;     /* GRAPH: radius of the circle of cells */
} geom;

/* The colour value v of k fills a cell with (svg.h's palette), 0xRRGGBB,
 * and the colour of its outline. */
unsigned qn_svg__fill(unsigned v, unsigned k);
unsigned qn_svg__stroke(unsigned v);
/* The outline's width for cell width s. */
double qn_svg__stroke_width(double s);

/*
 * Where a picture's cells go, in px (1 px = 1 svg user unit). A board:
 * its geom, picture size w x h and the top-left corner (x0, y0) of the
 * board's box; cell i's centre is (x0 + g.ox + X, y0 + g.oy + Y) with
 * (X, Y) from qn_svg__centre. holes: o->flags asked for holes and the
 * board has some.
 */
typedef struct qn_svg__frame {
    geom g;
    double w, h, x0, y0;
    int holes;
} qn_svg__frame;
void qn_svg__board_frame(qn_svg__frame *f, const qn_rules *r,
                         const qn_svg_opts *o);
/* A sheet of n thumbnails: geom, size, and for thumbnail i its box
 * (qn_svg__thumb_box) and the centre x of its labels. */
typedef struct qn_svg__sheet_frame {
    geom g;
    double w, h, tw, th, top;
    size_t cols;
    int holes;
} qn_svg__sheet_frame;
void qn_svg__sheet_frame_init(qn_svg__sheet_frame *f, const qn_rules *r,
                              size_t n, const qn_svg_opts *o);
void qn_svg__thumb_box(const qn_svg__sheet_frame *f, size_t i, double *x0,
                       double *y0, double *cx);
/* Cell i's centre relative to the box of geom g (raw centre + offset). */
void qn_svg__centre(const geom *g, int i, double *x, double *y);

/* ---- geometry of the plots (svg_histogram.c, svg_lines.c), shared with
 * png_plot.c: both pictures are QN_SVG__PLOT_W x QN_SVG__PLOT_H px, with
 * the legend in a row of its own (top LEGEND_Y, LEGEND_H high) ---------- */

#define QN_SVG__PLOT_W 640.0
#define QN_SVG__PLOT_H 400.0
#define QN_SVG__LEGEND_Y 36.0
#define QN_SVG__LEGEND_H 22.0

/* A histogram's two series and the scale they are drawn at. */
typedef struct qn_svg__chart {
    const uint64_t *pack, *dist; /* counts per press count; dist may be NULL */
    size_t pack_len, dist_len;   /* dist_len is 0 when dist is NULL */
    uint64_t sampled;            /* dist is a sample of this many; 0 exact */
    const char *dist_label;      /* the legend's words for dist, or NULL */
    const double *ci_lo, *ci_hi; /* sampled shares' intervals, or NULL */
    double ptot, dtot;           /* totals: bars show shares of them */
    size_t lo, nb;               /* bins drawn: lo..lo+nb-1, from the first
                                    to the last non-zero one */
    double top, step;            /* y axis 0..top percent, a line per step */
    double x0, y0;               /* plot origin (bottom left), px */
    double pw, ph, bw;           /* plot width, height; bin width, px */
} qn_svg__chart;
void qn_svg__chart_init(qn_svg__chart *ch, const qn_svg_hist *h);
/* The y of a share (0..1) of the series. */
double qn_svg__chart_y(const qn_svg__chart *ch, double share);
/* Pack bar of bin i (lo <= i < lo + nb): 0 when none is drawn, else 1 and
 * its box [x, x + w) x [y, y + h). */
int qn_svg__chart_bar(const qn_svg__chart *ch, size_t i, double *x, double *y,
                      double *w, double *h);
/* The distribution's step outline, a path of 2 nb + 2 points: point j
 * (0 <= j < 2 nb + 2) into x, y. From (x0, y0) it goes up and along each
 * bin's top and ends down on the axis at (x0 + pw, y0): odd points start
 * a horizontal run, even ones (but the first) end one. */
void qn_svg__chart_outline(const qn_svg__chart *ch, size_t j, double *x,
                           double *y);

/* The legend row of a histogram: a box and up to two entries, each a
 * swatch at x (dashed: the distribution's line; else the pack's bar) and
 * its words. */
typedef struct qn_svg__legend {
    double x, y, w, h;
    size_t n;
    struct {
        double x;
        int dashed;
        char label[160];
    } e[2];
} qn_svg__legend;
void qn_svg__chart_legend(const qn_svg__chart *ch, qn_svg__legend *lg);

/* A line plot's frame: data ranges and the plot's box. */
typedef struct qn_svg__lframe {
    double x0, x1, y1, ystep; /* data ranges (y from 0) */
    double ox, oy, w, h;      /* the plot's origin (bottom left), size */
} qn_svg__lframe;
void qn_svg__lines_scale(qn_svg__lframe *f, const qn_svg_plot *p);
double qn_svg__lines_px(const qn_svg__lframe *f, double x);
double qn_svg__lines_py(const qn_svg__lframe *f, double y);
/* Series i's colour (0xRRGGBB) and dash pattern (*n lengths, 0: solid). */
unsigned qn_svg__series_colour(size_t i);
const double *qn_svg__series_dash(size_t i, size_t *n);
/* Where series i's legend entry starts (its swatch; the words 30 px on). */
double qn_svg__lines_legend_x(const qn_svg__lframe *f, const qn_svg_plot *p,
                              size_t i);

#endif
