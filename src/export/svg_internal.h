/*
 * svg_internal.h: the markup helpers (svg_markup.c) that the board and
 * sheet writers (svg.c) and the histogram (svg_histogram.c) share.
 * Private to the export module; callers use quench/svg.h.
 */
#ifndef QN_SVG_INTERNAL_H
#define QN_SVG_INTERNAL_H

#include "base/buf.h"
#include "rules/layout.h"
#include "export/svg.h"

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

#endif
