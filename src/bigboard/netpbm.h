/*
 * netpbm.h: board states as netpbm images (pbm(5), pgm(5)), so states and
 * solutions of millions of cells can be read and written by any image tool.
 *
 * Formats: PBM plain (P1) and raw (P4) for k = 2; PGM plain (P2) and raw
 * (P5, maxval <= 255, one byte per sample) for any k in 2..255. Cells are
 * w*h bytes in row-major order (row 0 first), one value 0..k-1 per byte.
 *
 * Mapping: a cell value v is the PBM bit v (1 = black = "on", 0 = white =
 * "off") and the PGM sample v with maxval = k - 1 (so "off" is black in a
 * PGM; the PGM is the literal value, not a picture convention).
 *
 * Reading is two steps from a FILE* (so pipes work; nothing is seeked):
 * qn_pnm_read_header() parses the header and reports the image's size, the
 * caller checks it (against its rules, QN_PNM_MAX_CELLS, memory), then
 * qn_pnm_read_cells() reads the raster into a caller buffer of w*h bytes.
 * qn_pnm_read() does both for a caller who already knows w x h. Bytes after
 * the raster are left unread (netpbm files may hold several images).
 *
 * Header rules (per the spec): magic "P1".."P5", then whitespace (blank,
 * TAB, CR, LF, VT, FF) and '#' comments running to the end of the line
 * between the fields width, height and (PGM) maxval, which are unsigned
 * decimal numbers; every field must be followed by whitespace or a comment,
 * and for the raw formats the last field is followed by exactly one
 * whitespace byte, then the raster. A plain header may end with comments;
 * the plain raster itself may not hold any.
 *
 * Errors: QN_ESYNTAX for malformed input (bad magic, a non-number, missing
 * whitespace, truncated raster, a plain bit other than 0/1), with line:col
 * in err for the header and plain rasters and the byte offset in the
 * message for raw rasters; QN_EINVAL for well-formed images that do not fit
 * (sample > maxval, maxval != k - 1, PBM with k != 2, size mismatch, PPM);
 * QN_ELIMIT for sizes over QN_PNM_MAX_CELLS, maxval > 255 (16-bit), or a
 * run over QN_PNM_MAX_RUN bytes;
 * QN_EIO for read/write failures.
 */
#ifndef QN_NETPBM_H
#define QN_NETPBM_H

#include <stdint.h>
#include <stdio.h>

#include "base/buf.h"
#include "base/err.h"
#include "bigboard/bitboard.h"

/* Largest w*h accepted on input and output: 2^31 - 1 cells. */
#define QN_PNM_MAX_CELLS 2147483647L
/*
 * Longest run read as one piece: the whitespace and comments between two
 * header fields or plain samples, or the digits of one number (leading
 * zeros included). A longer run is QN_ELIMIT, so an endless input (a
 * comment or blanks or zeros for ever) fails within a bounded read.
 */
#define QN_PNM_MAX_RUN (1L << 20)

/* The five supported formats; the value is the digit of the magic "Pn". */
typedef enum qn_pnm_format {
    QN_PNM_P1 = 1, /* plain PBM */
    QN_PNM_P2 = 2, /* plain PGM */
    QN_PNM_P4 = 4, /* raw PBM */
    QN_PNM_P5 = 5, /* raw PGM */
} qn_pnm_format;

typedef struct qn_pnm_info {
    qn_pnm_format format;
    int w, h;        /* >= 1 each, w*h <= QN_PNM_MAX_CELLS */
    unsigned maxval; /* 1 for PBM; 1..255 for PGM */
    long offset;     /* bytes consumed so far (header end), for messages */
    int line, col;   /* 1-based position after the header */
} qn_pnm_info;

/*
 * 1 when `text` (len bytes) starts like a netpbm file: "P1".."P7" then
 * whitespace or '#'. That includes the colour PPM (P3, P6) and PAM (P7)
 * formats, so a caller telling images from state text hands those to
 * qn_pnm_read_header, which refuses them by name.
 */
int qn_pnm_is_image(const char *text, size_t len);

/*
 * Parse a header from `f`, leaving `f` at the first raster byte. Returns
 * QN_OK or an error code (see the top of this file); `out` is valid only on
 * QN_OK. Limits checked here: w, h >= 1; w*h <= QN_PNM_MAX_CELLS; maxval
 * 1..255.
 */
int qn_pnm_read_header(FILE *f, qn_pnm_info *out, qn_err *err);

/*
 * Read the raster described by `info` (from qn_pnm_read_header() on the
 * same stream) into `cells` (info->w * info->h bytes, caller-owned) for
 * modulus `k`: a PBM needs k == 2, a PGM needs maxval == k - 1 exactly and
 * every sample <= maxval. P4 padding bits are ignored. On error `cells`
 * holds partial data.
 */
int qn_pnm_read_cells(FILE *f, const qn_pnm_info *info, unsigned k,
                      uint8_t *cells, qn_err *err);

/*
 * Read a whole image whose size must be w x h (else QN_EINVAL naming both
 * sizes) into `cells` (w*h bytes); `info_out` may be NULL.
 */
int qn_pnm_read(FILE *f, int w, int h, unsigned k, uint8_t *cells,
                qn_pnm_info *info_out, qn_err *err);

enum qn_pnm_flags {
    QN_PNM_RAW = 1 << 0, /* P4/P5 instead of P1/P2 */
    QN_PNM_PGM = 1 << 1, /* PGM even when k == 2 (default there is PBM) */
};

/*
 * Write `cells` (w x h, values 0..k-1) as one image: PBM if k == 2 unless
 * QN_PNM_PGM is set, else PGM with maxval k - 1; raw if QN_PNM_RAW. P4 pad
 * bits are zero; plain lines are at most 70 characters, with a line break
 * after every row. Checks every cell before writing anything: a value >= k
 * gives QN_EINVAL naming the cell. qn_pnm_write() returns QN_EIO on a write
 * error; qn_pnm_write_buf() appends to `out` and cannot fail on I/O. Out
 * of memory: QN_ENOMEM, and `out` marked failed as by an append
 * (qn_buf_fail: the caller's policy applies).
 */
int qn_pnm_write(FILE *f, int w, int h, unsigned k, const uint8_t *cells,
                 unsigned flags, qn_err *err);
int qn_pnm_write_buf(qn_buf *out, int w, int h, unsigned k,
                     const uint8_t *cells, unsigned flags, qn_err *err);

/*
 * Bit boards (k = 2), for boards too big for a byte per cell.
 * qn_pnm_read_bits reads the raster described by `info` into `b`, already
 * initialised to info->w x info->h: a P4 raster streams a row at a time
 * (no cell array); P1, P2 and P5 (maxval 1) go through one byte per cell.
 * Same errors as qn_pnm_read_cells with k = 2. qn_pnm_write_bits_buf
 * appends `b` as P4 (QN_PNM_RAW) or P1; out of memory marks `out` failed
 * as any append does. The readers return QN_ENOMEM when they cannot get
 * their row or cell scratch.
 */
int qn_pnm_read_bits(FILE *f, const qn_pnm_info *info, qn_bitboard *b,
                     qn_err *err);
void qn_pnm_write_bits_buf(qn_buf *out, const qn_bitboard *b, unsigned flags);

#endif
