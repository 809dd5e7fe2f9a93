/*
 * state.h: the state text format, one character per board position.
 *
 *   - a cell is 0-9 then a-z (base 36; A-Z accepted on input, lowercase on
 *     output), or a decimal number in parentheses, e.g. "(200)", for the
 *     values 36..254 that only moduli above 36 have (any number of digits
 *     is read as one value, so "(99999999999999999999)" is a value too big,
 *     not a bad character);
 *   - '.' marks a hole (a masked position, or outside a hexagon);
 *   - rows are separated by '/' or a newline, top row first; each row has
 *     exactly w positions (see layout.h for hex rows);
 *   - spaces, tabs and carriage returns are ignored anywhere; empty rows
 *     before the first and after the last row are ignored.
 *
 * Example: the 3 x 3 board "101/010/101", or the hexagon of side 2
 * ".11/111/11.".
 */
#ifndef QN_STATE_H
#define QN_STATE_H

#include <stddef.h>
#include <stdint.h>

#include "base/buf.h"
#include "base/err.h"
#include "rules/layout.h"

/*
 * Parse `len` bytes of `text` (NUL bytes are bad characters) into
 * l->ncells values, each < k (2..255), written to cells_out in cell order.
 * Returns QN_OK, or QN_ESYNTAX with err->line and err->col (1-based, bytes
 * within the line of `text`) at the offending character: a bad character,
 * a value >= k, '.' where the board has a cell or a cell where it has a
 * hole, a row too long (at its first extra position) or too short (just
 * after its last position), too many rows (at the first extra row) or too
 * few (at the end of the text). err->source is not touched. On error the
 * contents of cells_out are unspecified.
 */
int qn_state_parse(uint8_t *cells_out, const qn_layout *l, unsigned k,
                   const char *text, size_t len, qn_err *err);

/*
 * Append the state to `out`: h rows of w characters (holes as '.'), rows
 * joined by `sep` ('/' or '\n'), no trailing separator. Values must be
 * < 255; values >= 36 are written "(NNN)".
 */
void qn_state_format(qn_buf *out, const qn_layout *l, const uint8_t *cells,
                     char sep);

/*
 * Append the all-zero state of layout l with '/' between rows ('0' a
 * cell, '.' a hole): the board's shape, as the store keeps it once a rule
 * (qn_store_rule.layout).
 */
void qn_state_format_zero(qn_buf *out, const qn_layout *l);

/* The most bytes qn_state_put writes for a state of layout l. */
size_t qn_state_format_max(const qn_layout *l);

/* One cell value as a state text writes it (a base-36 digit, "(NNN)"
 * from 36 up) at dst, which has room for 5 bytes; returns the end. */
char *qn_state_put_value(char *dst, uint8_t v);

/* qn_state_format at dst, which has room for qn_state_format_max(l)
 * bytes; returns the end (no NUL). */
char *qn_state_put(char *dst, const qn_layout *l, const uint8_t *cells,
                   char sep);

#endif
