/*
 * svg.h: SVG pictures of boards, contact sheets of packs and a pack's
 * minimal-press histogram. Every writer appends one complete, well-formed
 * standalone SVG 1.1 document (UTF-8, with an XML declaration) to a
 * caller-owned qn_buf and allocates nothing but that buffer's growth.
 * Out of memory sets the buffer's failed flag (qn_buf_check), never exits.
 *
 * How a cell is drawn (docs: issue 7, "svg"):
 *   - value 0 reads as "off": a pale grey cell with no glyph;
 *   - value v > 0 is filled from a colour-blind-safe palette and carries
 *     its value in base 36 as a glyph ("1".."9", "a".."z", then two digits
 *     "10".."73" for v >= 36), so colour is never the only channel. For
 *     k <= 8 the fills are Okabe-Ito's colours (orange, sky blue, bluish
 *     green, yellow, blue, vermillion, reddish purple); for k > 8 they are
 *     k - 1 evenly spaced steps of a cividis-like sequential ramp (dark blue
 *     to yellow). The glyph is black or white, whichever contrasts.
 * Geometry, with s = cell width in px:
 *   - GRID: s x s squares; holes are not drawn unless QN_SVG_HOLES asks for
 *     faint dashed outlines (class "hole"); wrap is not shown.
 *   - HEX and HEXAGON: pointy-top hexagons s wide (flat side to flat
 *     side), so neighbouring centres are exactly s apart; HEX rows are
 *     odd-r (odd rows half a cell right), HEXAGON cells sit at axial
 *     x = s (q + r / 2), y = s (sqrt 3 / 2) r.
 *   - GRAPH: circles of diameter about s, evenly spaced clockwise on a
 *     circle from 12 o'clock in cell order; QN_SVG_EDGES draws a line
 *     between cells i != j whenever a press of one changes the other.
 * In a board picture each cell is one element carrying class="cell",
 * emitted in cell order as <use ... x="X" y="Y"/> with (X, Y) the centre.
 */
#ifndef QN_SVG_H
#define QN_SVG_H

#include <stddef.h>
#include <stdint.h>

#include "base/buf.h"
#include "rules/rules.h"

enum qn_svg_flags {
    QN_SVG_HOLES = 1 << 0, /* grid/hex holes as faint dashed outlines */
    QN_SVG_EDGES = 1 << 1, /* graph boards: draw the press relation */
};

#define QN_SVG_PAR_UNKNOWN UINT64_MAX /* sheet label shows "par ?" */

/*
 * Options; zero-initialise and set what you need. All pointers are
 * borrowed for the duration of the call only.
 */
typedef struct qn_svg_opts {
    int cell_px; /* cell width in px; 0 = default (40 board, fit to about
                    120 px per thumbnail on a sheet); clamped to 2..400 */
    int columns; /* sheet: thumbnails per row; 0 = 8; clamped to 1..1000 */
    const char *title;        /* UTF-8 text above the picture; NULL = none */
    const uint8_t *plan;      /* board only: ncells press counts (any value;
                                 non-zero cells get a marker, counts > 1 are
                                 written in it); NULL = no overlay */
    int flags;                /* enum qn_svg_flags bits */
    const char *const *notes; /* sheet only: one UTF-8 line under each
                                 thumbnail (a puzzle id), n entries;
                                 NULL = none */
} qn_svg_opts;

/* One thumbnail on a contact sheet. All pointers borrowed. */
typedef struct qn_svg_item {
    const char *id;       /* UTF-8 label; NULL = "" */
    const char *grade;    /* UTF-8 grade name; NULL = none shown */
    uint64_t par;         /* minimal presses; QN_SVG_PAR_UNKNOWN = "?" */
    const uint8_t *state; /* ncells values < k; must not be NULL */
} qn_svg_item;

/*
 * Append a picture of the board `cells` (qn_rules_ncells(r) values, each
 * < qn_rules_colours(r)) under rules `r` to `out`. `o` may be NULL for
 * defaults. With o->plan set, each cell to press gets a small white dot
 * with a black ring (class="press") in its upper-right corner, holding the
 * count when it is above 1. Text is XML-escaped; invalid UTF-8 becomes
 * U+FFFD. Nothing is kept after the call.
 */
void qn_svg_board(qn_buf *out, const qn_rules *r, const uint8_t *cells,
                  const qn_svg_opts *o);

/*
 * Append a contact sheet: n thumbnails (items[0..n-1], row-major,
 * o->columns per row), each drawn like qn_svg_board without overlay and
 * labelled beneath with its id (class="label"), a line "grade, par N"
 * (class="meta") and, with o->notes, its note in a small monospace line
 * (class="note"). Glyphs and shapes are shared through <defs> and <use>,
 * so a thumbnail costs about 40 bytes per cell. `o` may be NULL; o->plan
 * is ignored. n may be 0 (an empty sheet). items is borrowed.
 */
void qn_svg_sheet(qn_buf *out, const qn_rules *r, size_t n,
                  const qn_svg_item *items, const qn_svg_opts *o);

/* The series of a press histogram; all pointers borrowed for the call. */
typedef struct qn_svg_hist {
    const uint64_t *pack; /* pack[p]: puzzles whose par is p */
    size_t pack_len;
    const uint64_t *dist; /* dist[p]: states needing p presses; NULL: none */
    size_t dist_len;
    uint64_t sampled;  /* 0: dist counts every solvable state (exact);
                          else dist is a uniform sample of this many */
    const char *title; /* UTF-8; NULL = none */
    /* A distribution alone (rules show --distribution --svg): its legend
     * words (NULL: as below), and for a sample the 95 % interval of each
     * bin's share (0..1, dist_len entries each; NULL: none), drawn as
     * whiskers (class="ci"). With dist_label and no pack bins the legend
     * names the distribution only. */
    const char *dist_label;
    const double *ci_lo, *ci_hi;
} qn_svg_hist;

/*
 * Append a bar chart of a pack's minimal presses against a rule set's
 * distribution (issue 7, section 4; issue 23). Both series are
 * normalised to shares: the pack as hatched, outlined bars (class="bar",
 * one per non-zero bin), the distribution as a dashed step outline
 * (class="dist"), so the two read apart without colour. The x axis is the
 * press count, from the first count either series holds (0 for an exact
 * distribution: the goal) to the last; the y axis the share in percent,
 * up to a whole number of steps at or above the tallest bar. The legend
 * (class="legend") is one row between the title and the plot, never over
 * a bar; it names the pack and "all solvable states", or for a sample
 * "a sample of N solvable states (not exact)".
 */
void qn_svg_histogram(qn_buf *out, const qn_svg_hist *h);

/* One line of a plot: n points (x[i], y[i]), borrowed for the call. */
typedef struct qn_svg_series {
    const char *label; /* UTF-8, in the legend and the points' tooltips */
    const double *x, *y;
    size_t n;
} qn_svg_series;

typedef struct qn_svg_plot {
    const char *title, *xlabel, *ylabel; /* UTF-8; title NULL = none */
    const qn_svg_series *series;
    size_t nseries;
} qn_svg_plot;

/*
 * Append a line plot (svg_lines.c; rules table --svg): one polyline per
 * series (class="series", a colour and a dash pattern each, so they read
 * apart without colour) with a dot per point (class="point", its values
 * in a tooltip), over a y axis from 0 to a whole number of nice steps and
 * an x axis over the points' range; the legend (class="legend") is a row
 * between the title and the plot.
 */
void qn_svg_lines(qn_buf *out, const qn_svg_plot *p);

/*
 * Append `s` as XML character data / attribute text: & < > " ' become
 * entities, bytes that are not valid UTF-8 (overlong forms, surrogates,
 * code points above U+10FFFF, stray continuation bytes) and characters
 * XML 1.0 forbids (C0 controls other than tab, LF, CR; U+FFFE, U+FFFF)
 * become U+FFFD. NULL appends nothing.
 */
void qn_svg_escape(qn_buf *out, const char *s);

#endif
