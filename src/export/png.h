/*
 * png.h: PNG pictures of boards and contact sheets (png.c), drawn through
 * libpng (src/export/raster.c). A PNG is its svg twin (svg.h) rasterised
 * at 1 px per svg unit without text: the same size, the same cell
 * centres, shapes, fills and outlines (square corners rounded, hexagons,
 * circles); titles, labels, value glyphs, holes, edges and plan overlays
 * are not drawn (their room stays white). The bytes depend on the
 * arguments alone (no time or text chunk, fixed compression).
 */
#ifndef QN_PNG_H
#define QN_PNG_H

#include <stddef.h>
#include <stdint.h>

#include "base/buf.h"
#include "base/err.h"
#include "export/svg.h"
#include "rules/rules.h"

/*
 * Append a PNG of the board `cells` under r to out, as qn_svg_board would
 * draw it with the same options (o may be NULL). QN_ELIMIT when the
 * picture is past 32768 px a side or 2^25 pixels (a huge board: a
 * smaller o->cell_px fits it); out is then unchanged.
 */
int qn_png_board(qn_buf *out, const qn_rules *r, const uint8_t *cells,
                 const qn_svg_opts *o, qn_err *err);

/* Append a PNG of the contact sheet qn_svg_sheet would draw: QN_ELIMIT
 * past the same limits (a sheet of more than about 1,400 puzzles at the
 * default size). */
int qn_png_sheet(qn_buf *out, const qn_rules *r, size_t n,
                 const qn_svg_item *items, const qn_svg_opts *o, qn_err *err);

/*
 * Append a PNG of the histogram qn_svg_histogram draws, or of the line
 * plot qn_svg_lines draws (png_plot.c): the same 640 x 400 px, the same
 * coordinates for the grid, bars, step outline, whiskers, lines, dots,
 * axes and legend swatches (from the svg writers' own geometry), the same
 * colours, widths and dashes; no text (titles, ticks, legend words and
 * tooltips are the svg's), the pack's hatch as its light colour.
 * Errors: QN_ERR should libpng refuse (never in practice).
 */
int qn_png_histogram(qn_buf *out, const qn_svg_hist *h, qn_err *err);
int qn_png_lines(qn_buf *out, const qn_svg_plot *p, qn_err *err);

#endif
