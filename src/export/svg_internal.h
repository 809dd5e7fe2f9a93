/*
 * svg_internal.h: the markup helpers (svg_markup.c) that the board and
 * sheet writers (svg.c) and the histogram (svg_histogram.c) share.
 * Private to the export module; callers use quench/svg.h.
 */
#ifndef QN_SVG_INTERNAL_H
#define QN_SVG_INTERNAL_H

#include "base/buf.h"
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

#endif
