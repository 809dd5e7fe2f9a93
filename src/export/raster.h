/*
 * raster.h: an RGB canvas and its PNG encoding through libpng (raster.c),
 * for every picture quench writes as PNG: boards and contact sheets
 * (png.c), and anything else drawn in px (a histogram's bars are
 * qn_raster_rect). Private to the export module.
 *
 * Coordinates are doubles in px, (0, 0) the top-left corner of the top-left
 * pixel; pixel (x, y) covers [x, x + 1) x [y, y + 1). A shape colours every
 * pixel whose centre (x + 0.5, y + 0.5) lies inside it, and nothing else:
 * no anti-aliasing, so a picture is a pure function of its shapes and two
 * runs give the same bytes. Later shapes paint over earlier ones. Colours
 * are 0xRRGGBB.
 *
 * The PNG (qn_raster_png) is 8-bit RGB, not interlaced, zlib level 9 with
 * libpng's default filter choice (deterministic), and holds IHDR, IDAT
 * and IEND only: no time, text or gamma chunk, so the bytes depend on the
 * pixels alone.
 */
#ifndef QN_RASTER_H
#define QN_RASTER_H

#include <stddef.h>
#include <stdint.h>

#include "base/buf.h"
#include "base/err.h"

/* A canvas is at most this wide or tall, and holds at most this many
 * pixels (3 bytes each: 96 MiB). */
#define QN_RASTER_MAX_SIDE 32768
#define QN_RASTER_MAX_PIXELS (1L << 25)

typedef struct qn_raster {
    int w, h;
    uint8_t *px; /* h rows of w RGB triples */
} qn_raster;

/*
 * A w x h canvas painted bg (w, h rounded up from the doubles a layout
 * gives). QN_ELIMIT when it would pass the limits above, naming the size
 * and the limit, or QN_ENOMEM; the canvas is then empty (release is
 * still safe).
 */
int qn_raster_init(qn_raster *c, double w, double h, unsigned bg, qn_err *err);
void qn_raster_release(qn_raster *c);

/* The rectangle [x0, x1) x [y0, y1); with radius r > 0 its corners are
 * rounded (quarter circles of radius r). */
void qn_raster_rect(qn_raster *c, double x0, double y0, double x1, double y1,
                    double r, unsigned rgb);
/* A regular hexagon with a vertex straight up ("pointy-top"), centred at
 * (cx, cy), whose flat sides are `apothem` from the centre. */
void qn_raster_hex(qn_raster *c, double cx, double cy, double apothem,
                   unsigned rgb);
/* The disc of radius r centred at (cx, cy). */
void qn_raster_disc(qn_raster *c, double cx, double cy, double r, unsigned rgb);

/* The segment from (x0, y0) to (x1, y1) stroked `width` wide with butt
 * ends, as SVG strokes a line: the pixels whose centre lies within
 * width / 2 of the segment's line and projects onto the segment. */
void qn_raster_line(qn_raster *c, double x0, double y0, double x1, double y1,
                    double width, unsigned rgb);

/* The colour of pixel (x, y), which must be on the canvas. */
unsigned qn_raster_get(const qn_raster *c, int x, int y);

/* Append the canvas as a PNG file to out (libpng and zlib allocate
 * through quench's allocator, mem.h). QN_ENOMEM when memory runs out
 * (out->failed set, or libpng's allocation failed); QN_ERR with libpng's
 * message should libpng refuse (a bug: the canvas is always a valid
 * image). */
int qn_raster_png(const qn_raster *c, qn_buf *out, qn_err *err);

#endif
