/*
 * term.h: puzzles drawn for a terminal (`quench show`, `solve --steps`).
 * Every writer appends to a caller-owned qn_buf and keeps nothing; out of
 * memory sets the buffer's failed flag (qn_buf_check), never exits.
 *
 * Two renderings of one board:
 *   plain   characters only. A cell is its value's glyph: base 36 ("0".."9",
 *           "a".."z"), two digits "10".."73" from 36 on (as svg.h), right-
 *           aligned in a field of g characters (g = 1 when k <= 36, else 2)
 *           and followed by g blanks; a hole is '.' in its field. Trailing
 *           blanks are trimmed.
 *   colour  ANSI SGR colour blocks: a cell is two columns of background
 *           colour holding its glyph (none for 0, which reads as "off"),
 *           each cell closed by a reset (ESC [ 0 m), so nothing bleeds
 *           into the next line; holes are two blanks.
 * Colours (SGR background; the glyph black 30 or bright white 97,
 * whichever contrasts):
 *   0                  100 (bright black: a dark grey "off")
 *   1..7 when k <= 8   43 yellow, 44 blue, 42 green, 41 red, 45 magenta,
 *                      46 cyan, 47 white, in that order
 *   1..k-1 when k > 8  48;5;N from the 256-colour cube: k-1 evenly spaced
 *                      steps along a 16-colour ramp from dark blue to
 *                      yellow; neighbouring values may share a colour, and
 *                      the glyph tells them apart
 * Geometry, with u = g (plain) or 1 (colour) characters per half cell, so a
 * cell is 2u characters wide:
 *   GRID     h lines of w cells; wrap is not drawn (qn_term_caption says it).
 *   HEX      odd-r (layout.h): odd rows start half a cell (u characters)
 *            to the right.
 *   HEXAGON  row r of the (2s-1)-wide rectangle starts |r - (s-1)| half
 *            cells in, so the rows read 3-4-5-4-3 for side 3; positions
 *            outside the hexagon are not drawn.
 *   GRAPH    a table, one line per cell: its number, its value, and the
 *            cells a press of it changes, each with "(+a)" when it adds
 *            a != 1.
 */
#ifndef QN_TERM_H
#define QN_TERM_H

#include <stdint.h>

#include "base/buf.h"
#include "rules/rules.h"

/* --color=WHEN */
typedef enum qn_term_when {
    QN_TERM_AUTO,   /* colour on a terminal that can show it */
    QN_TERM_ALWAYS, /* colour wherever the output goes */
    QN_TERM_NEVER,  /* plain characters */
} qn_term_when;

/* "auto", "always" or "never" into *out: 0, or -1 for anything else. */
int qn_term_parse_when(const char *s, qn_term_when *out);

/*
 * Whether to draw in colour (clig.dev, no-color.org): ALWAYS and NEVER
 * decide alone (a command-line flag overrides the environment); AUTO
 * gives colour only when the output is a terminal (is_tty), `term` (the
 * TERM variable, NULL when unset) is set, non-empty and not "dumb", and
 * `no_color` (NO_COLOR, NULL when unset) is unset or empty. 1 or 0.
 */
int qn_term_use_colour(qn_term_when when, int is_tty, const char *term,
                       const char *no_color);

/*
 * One line saying what the board is, ending in a newline:
 * "classic-3x3: 3x3 grid, 2 colours", "... 5x5 grid, wraps both ways (a
 * torus), ...", "... 5x4 hex board (odd rows half a cell right), ...",
 * "... hexagon of side 3 (19 cells), ...", "... graph of 6 cells, ...";
 * a grid or hex board with holes adds "N cells ('.' a hole)".
 */
void qn_term_caption(qn_buf *out, const qn_rules *r);

/*
 * Draw the state `cells` (qn_rules_ncells(r) values, each < k) under r,
 * plain or in colour (see above); every line ends in a newline.
 */
void qn_term_board(qn_buf *out, const qn_rules *r, const uint8_t *cells,
                   int colour);

/*
 * The colour legend, one line "legend: " then a swatch (a cell as drawn)
 * and the value in decimal for each colour: every value 0..k-1 when
 * k <= 8, else the values present in `cells`, increasing. Plain drawings
 * need none: nothing is appended when colour is 0.
 */
void qn_term_legend(qn_buf *out, const qn_rules *r, const uint8_t *cells,
                    int colour);

#endif
