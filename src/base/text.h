/*
 * text.h: untrusted text. UTF-8 decoding (RFC 3629), the check a name or a
 * free text (a pack's name, title, description, author; a rule's title,
 * description, author) passes before quench stores it, and escaping for a
 * terminal, so that text read from a document or a database can neither
 * move the cursor, recolour the screen nor fake a line of output.
 *
 * Unsafe code points, refused by qn_text_check and escaped by
 * qn_text_escape: the control characters (Unicode category Cc: U+0000 to
 * U+001F, U+007F, U+0080 to U+009F), the line and paragraph separators
 * U+2028 and U+2029, and the bidirectional formatting characters U+202A
 * to U+202E and U+2066 to U+2069 (they reorder the text shown after them).
 */
#ifndef QN_TEXT_H
#define QN_TEXT_H

#include <stddef.h>
#include <stdint.h>

#include "base/buf.h"
#include "base/err.h"

/*
 * The length (1..4) of the well-formed UTF-8 sequence at s (n > 0 bytes
 * available) with its code point in *cp_out (may be NULL), or 0 when the
 * bytes at s do not start one: a stray continuation byte, a lead byte
 * C0, C1 or F5..FF, a sequence cut short, an overlong form, a surrogate
 * (U+D800..U+DFFF) or a value past U+10FFFF.
 */
size_t qn_text_utf8(const char *s, size_t n, uint32_t *cp_out);

enum qn_text_flags {
    QN_TEXT_NAME = 1 << 0,  /* a name: not empty, no leading '-' (it
                               would read as an option), no space at
                               either end */
    QN_TEXT_LINES = 1 << 1, /* line feeds allowed (descriptions) */
};

/*
 * Check the text s (a C string) against what quench stores: at most max
 * bytes of well-formed UTF-8 without unsafe code points (above), and the
 * rules of `flags`. QN_OK, or QN_EINVAL with a message that begins with
 * `what` ("pack name 'x'") and gives the reason and the 1-based byte,
 * e.g. "pack title holds a control character (U+001B) at byte 4".
 */
int qn_text_check(const char *s, size_t max, unsigned flags, const char *what,
                  qn_err *err);

/*
 * Append the C string s to out for a terminal: safe code points as they
 * are; unsafe ones escaped visibly as \n, \r, \t, \xNN (other ASCII
 * controls) or \uNNNN; each byte of malformed UTF-8 as \xNN. Backslashes
 * are left alone, so text without unsafe bytes comes out unchanged.
 */
void qn_text_escape(qn_buf *out, const char *s);

/*
 * The same for the len bytes at s (NULs are escaped too), written at p,
 * which has room for QN_TEXT_ESCAPED_MAX(len) bytes: a byte becomes at
 * most 4 ("\x1b"), a 2- or 3-byte code point at most 6 ("\u2028").
 * Returns the end (no NUL is written). For writers that reserve room
 * once (verdict_write.h).
 */
#define QN_TEXT_ESCAPED_MAX(len) (4 * (size_t)(len))
char *qn_text_put_escaped(char *p, const char *s, size_t len);

/*
 * The noun for a count of n: one when n is 1, else many ("1 puzzle",
 * "0 puzzles", "2 puzzles"). Returns one of its arguments.
 */
const char *qn_plural(uint64_t n, const char *one, const char *many);

/* The value of a hex digit of either case, or -1. */
int qn_hex_digit(int c);

#endif
