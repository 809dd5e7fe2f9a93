/*
 * netpbm.c: PBM (P1/P4) and PGM (P2/P5) reading and writing of board
 * states. Reading is a byte-at-a-time header parser that tracks line:col
 * and the byte offset, then a bulk fread for raw rasters; writing goes
 * through a 64 KiB staging chunk flushed to a FILE* or a qn_buf.
 */
#include "bigboard/netpbm.h"

#include <errno.h>
#include <limits.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

#include "base/mem.h"

/* ---- reading ----------------------------------------------------------- */

typedef struct rd {
    FILE *f;
    long off;      /* bytes consumed */
    int line, col; /* 1-based position of the next byte */
} rd;

static int peekc(rd *r)
{
    int c = getc(r->f);
    if (c != EOF)
        ungetc(c, r->f);
    return c;
}

static int nextc(rd *r)
{
    int c = getc(r->f);
    if (c == EOF)
        return c;
    r->off++;
    if (c == '\n') {
        r->line++;
        r->col = 1;
    } else {
        r->col++;
    }
    return c;
}

static bool is_ws(int c)
{
    return c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '\v' ||
           c == '\f';
}

static bool is_digit(int c)
{
    return c >= '0' && c <= '9';
}

/* EOF from getc is either the end or a read error: tell them apart. */
static int eof_err(rd *r, qn_err *err, const char *what)
{
    if (ferror(r->f))
        return qn_err_set(err, QN_EIO, r->line, r->col, "read failed: %s",
                          strerror(errno));
    return qn_err_set(err, QN_ESYNTAX, r->line, r->col,
                      "truncated image: end of input %s (byte offset %ld)",
                      what, r->off);
}

/* A run (blanks, comments, digits) that began at byte `start` has gone
 * on past QN_PNM_MAX_RUN bytes: an endless input, not an image. */
static int run_too_long(long start, int line, int col, const char *what,
                        qn_err *err)
{
    return qn_err_set(err, QN_ELIMIT, line, col,
                      "%s longer than %ld bytes (the limit; byte offset %ld)",
                      what, (long)QN_PNM_MAX_RUN, start);
}

/* Skip whitespace and '#' comments (each to the end of its line), at most
 * QN_PNM_MAX_RUN bytes of them. */
static int skip_ws_comments(rd *r, qn_err *err)
{
    long start = r->off;
    int line = r->line, col = r->col;

    for (;;) {
        int c = peekc(r);
        if (r->off - start > QN_PNM_MAX_RUN)
            return run_too_long(start, line, col, "whitespace and comments",
                                err);
        if (is_ws(c)) {
            nextc(r);
        } else if (c == '#') {
            while ((c = peekc(r)) != EOF && c != '\n' && c != '\r' &&
                   r->off - start <= QN_PNM_MAX_RUN)
                nextc(r);
        } else {
            return QN_OK;
        }
    }
}

/*
 * Read one header field: an unsigned decimal number <= INT_MAX followed by
 * whitespace or a comment. With `last_raw` the field ends the header of a
 * raw image, so exactly one whitespace byte is consumed after it (a
 * comment there is skipped and its line end is that byte).
 */
static int header_uint(rd *r, const char *what, bool last_raw, long *out,
                       qn_err *err)
{
    int rc = skip_ws_comments(r, err);
    if (rc != QN_OK)
        return rc;
    int line = r->line, col = r->col;
    long start = r->off;
    int c = peekc(r);
    if (c == EOF)
        return eof_err(r, err,
                       what[0] == 'w'   ? "before the width"
                       : what[0] == 'h' ? "before the height"
                                        : "before the maxval");
    if (!is_digit(c))
        return qn_err_set(err, QN_ESYNTAX, line, col,
                          "expected the %s (an unsigned decimal number), "
                          "got '%c'",
                          what, c >= 32 && c < 127 ? c : '?');
    long v = 0;
    while (is_digit(c = peekc(r))) {
        nextc(r);
        v = v * 10 + (c - '0');
        if (v > INT_MAX)
            return qn_err_set(err, QN_ELIMIT, line, col,
                              "%s is too large (over %d)", what, INT_MAX);
        if (r->off - start > QN_PNM_MAX_RUN) /* zeros for ever */
            return run_too_long(start, line, col, what, err);
    }
    if (c == '#' && last_raw) {
        /* the comment's line end is the one whitespace byte */
        start = r->off;
        line = r->line;
        col = r->col;
        while ((c = peekc(r)) != EOF && c != '\n' && c != '\r') {
            nextc(r);
            if (r->off - start > QN_PNM_MAX_RUN)
                return run_too_long(start, line, col, "comment", err);
        }
    } else if (c == '#') {
        *out = v; /* the next field skips the comment */
        return QN_OK;
    }
    if (!is_ws(c)) {
        if (c == EOF)
            return eof_err(r, err,
                           last_raw ? "before the raster" : "in the header");
        return qn_err_set(err, QN_ESYNTAX, r->line, r->col,
                          "expected whitespace after the %s, got '%c'", what,
                          c >= 32 && c < 127 ? c : '?');
    }
    if (last_raw)
        nextc(r); /* exactly one whitespace byte, then the raster */
    *out = v;
    return QN_OK;
}

int qn_pnm_is_image(const char *text, size_t len)
{
    /* P3, P6 (PPM) and P7 (PAM) too: they are images quench refuses with
     * a reason, not state text with a bad first value 'P' */
    return len >= 3 && text[0] == 'P' && text[1] >= '1' && text[1] <= '7' &&
           (is_ws((unsigned char)text[2]) || text[2] == '#');
}

int qn_pnm_read_header(FILE *f, qn_pnm_info *out, qn_err *err)
{
    rd r = {f, 0, 1, 1};
    int c1 = nextc(&r), c2 = nextc(&r);
    if (c1 == EOF && !ferror(f))
        return qn_err_set(err, QN_ESYNTAX, 1, 1,
                          "empty input: expected a netpbm image");
    if (c1 != 'P' || c2 < '1' || c2 > '7') {
        if (ferror(f))
            return qn_err_set(err, QN_EIO, 1, 1, "read failed: %s",
                              strerror(errno));
        return qn_err_set(err, QN_ESYNTAX, 1, 1,
                          "bad magic number: expected P1, P2, P4 or P5");
    }
    if (c2 == '3' || c2 == '6')
        return qn_err_set(err, QN_EINVAL, 1, 1,
                          "PPM (colour, P%c) images are not supported: use "
                          "PBM (P1, P4) or PGM (P2, P5)",
                          c2);
    if (c2 == '7')
        return qn_err_set(err, QN_EINVAL, 1, 1,
                          "PAM (P7) images are not supported: use PBM (P1, "
                          "P4) or PGM (P2, P5)");
    qn_pnm_format fmt = (qn_pnm_format)(c2 - '0');
    int c = peekc(&r);
    if (!is_ws(c) && c != '#') {
        if (c == EOF)
            return eof_err(&r, err, "after the magic number");
        return qn_err_set(err, QN_ESYNTAX, r.line, r.col,
                          "expected whitespace after the magic number P%c", c2);
    }
    bool raw = fmt == QN_PNM_P4 || fmt == QN_PNM_P5;
    bool pgm = fmt == QN_PNM_P2 || fmt == QN_PNM_P5;
    long w, h, maxval = 1;
    int line = r.line, col = r.col, rc;
    if ((rc = header_uint(&r, "width", false, &w, err)) != QN_OK)
        return rc;
    if ((rc = header_uint(&r, "height", raw && !pgm, &h, err)) != QN_OK)
        return rc;
    if (pgm) {
        if ((rc = header_uint(&r, "maxval", raw, &maxval, err)) != QN_OK)
            return rc;
        if (maxval < 1 || maxval > 65535)
            return qn_err_set(err, QN_EINVAL, r.line, r.col,
                              "maxval must be 1..65535, got %ld", maxval);
        if (maxval > 255)
            return qn_err_set(err, QN_ELIMIT, r.line, r.col,
                              "16-bit PGM (maxval %ld > 255) is not "
                              "supported",
                              maxval);
    }
    if (w < 1 || h < 1)
        return qn_err_set(err, QN_EINVAL, line, col,
                          "image size must be at least 1x1, got %ldx%ld", w, h);
    if (w > QN_PNM_MAX_CELLS / h)
        return qn_err_set(err, QN_ELIMIT, line, col,
                          "image %ldx%ld has more than %ld cells", w, h,
                          QN_PNM_MAX_CELLS);
    /* plain: comments may end the header too */
    if (!raw && (rc = skip_ws_comments(&r, err)) != QN_OK)
        return rc;
    out->format = fmt;
    out->w = (int)w;
    out->h = (int)h;
    out->maxval = (unsigned)maxval;
    out->offset = r.off;
    out->line = r.line;
    out->col = r.col;
    return QN_OK;
}

static int short_raw(FILE *f, long off, size_t want, size_t got, qn_err *err)
{
    if (ferror(f))
        return qn_err_set(err, QN_EIO, 0, 0,
                          "read failed at byte offset %ld: "
                          "%s",
                          off + (long)got, strerror(errno));
    return qn_err_set(err, QN_ESYNTAX, 0, 0,
                      "truncated raster: end of input at byte offset %ld, "
                      "%zu of %zu raster bytes read",
                      off + (long)got, got, want);
}

static int read_p4(FILE *f, const qn_pnm_info *info, uint8_t *cells,
                   qn_err *err)
{
    size_t w = (size_t)info->w, rowbytes = (w + 7) / 8;
    size_t total = rowbytes * (size_t)info->h;
    uint8_t *row = qn_malloc(rowbytes);
    int rc = QN_OK;
    if (!row)
        return qn_err_nomem(err);
    for (size_t r = 0; r < (size_t)info->h; r++) {
        size_t got = fread(row, 1, rowbytes, f);
        if (got != rowbytes) {
            rc = short_raw(f, info->offset, total, r * rowbytes + got, err);
            break;
        }
        uint8_t *out = cells + r * w;
        for (size_t c = 0; c < w; c++) /* MSB first; pad bits ignored */
            out[c] = (row[c >> 3] >> (7 - (c & 7))) & 1;
    }
    free(row);
    return rc;
}

static int read_p5(FILE *f, const qn_pnm_info *info, uint8_t *cells,
                   qn_err *err)
{
    size_t w = (size_t)info->w, n = w * (size_t)info->h;
    size_t got = fread(cells, 1, n, f);
    if (got != n)
        return short_raw(f, info->offset, n, got, err);
    for (size_t i = 0; i < n; i++)
        if (cells[i] > info->maxval)
            return qn_err_set(err, QN_EINVAL, 0, 0,
                              "sample %u at row %zu, column %zu (byte offset "
                              "%ld) exceeds maxval %u",
                              cells[i], i / w, i % w, info->offset + (long)i,
                              info->maxval);
    return QN_OK;
}

/* Plain rasters: whitespace-separated bits or decimal samples, no comments. */
static int read_plain(FILE *f, const qn_pnm_info *info, uint8_t *cells,
                      qn_err *err)
{
    rd r = {f, info->offset, info->line, info->col};
    size_t w = (size_t)info->w, n = w * (size_t)info->h;
    bool pbm = info->format == QN_PNM_P1;
    for (size_t i = 0; i < n; i++) {
        long start = r.off;
        int c, line0 = r.line, col0 = r.col;
        while (is_ws(c = peekc(&r))) {
            nextc(&r);
            if (r.off - start > QN_PNM_MAX_RUN)
                return run_too_long(start, line0, col0, "whitespace", err);
        }
        if (c == EOF) {
            if (ferror(f))
                return qn_err_set(err, QN_EIO, r.line, r.col, "read failed: %s",
                                  strerror(errno));
            return qn_err_set(err, QN_ESYNTAX, r.line, r.col,
                              "truncated raster: end of input after %zu of "
                              "%zu %s",
                              i, n, pbm ? "bits" : "samples");
        }
        int line = r.line, col = r.col;
        if (pbm) {
            if (c != '0' && c != '1')
                return qn_err_set(err, QN_ESYNTAX, line, col,
                                  "expected a PBM bit '0' or '1', got '%c'",
                                  c >= 32 && c < 127 ? c : '?');
            nextc(&r);
            cells[i] = (uint8_t)(c - '0');
            continue;
        }
        if (!is_digit(c))
            return qn_err_set(err, QN_ESYNTAX, line, col,
                              "expected a PGM sample (unsigned decimal), "
                              "got '%c'",
                              c >= 32 && c < 127 ? c : '?');
        unsigned long v = 0;
        start = r.off;
        while (is_digit(c = peekc(&r))) {
            nextc(&r);
            if (v <= 65535) /* saturate: anything above is out of range */
                v = v * 10 + (unsigned long)(c - '0');
            if (r.off - start > QN_PNM_MAX_RUN)
                return run_too_long(start, line, col, "a PGM sample", err);
        }
        if (c != EOF && !is_ws(c))
            return qn_err_set(err, QN_ESYNTAX, r.line, r.col,
                              "expected whitespace after a PGM sample, got "
                              "'%c'",
                              c >= 32 && c < 127 ? c : '?');
        if (v > info->maxval)
            return qn_err_set(err, QN_EINVAL, line, col,
                              "sample %s%lu at row %zu, column %zu exceeds "
                              "maxval %u",
                              v > 65535 ? "over " : "", v > 65535 ? 65535 : v,
                              i / w, i % w, info->maxval);
        cells[i] = (uint8_t)v;
    }
    return QN_OK;
}

int qn_pnm_read_cells(FILE *f, const qn_pnm_info *info, unsigned k,
                      uint8_t *cells, qn_err *err)
{
    bool pbm = info->format == QN_PNM_P1 || info->format == QN_PNM_P4;
    if (pbm && k != 2)
        return qn_err_set(err, QN_EINVAL, 0, 0,
                          "a PBM image holds 2 values but k = %u: use a PGM "
                          "with maxval %u",
                          k, k - 1);
    if (!pbm && info->maxval != k - 1)
        return qn_err_set(err, QN_EINVAL, 0, 0,
                          "PGM maxval %u does not match k - 1 = %u (k = %u)",
                          info->maxval, k - 1, k);
    switch (info->format) {
    case QN_PNM_P4:
        return read_p4(f, info, cells, err);
    case QN_PNM_P5:
        return read_p5(f, info, cells, err);
    default:
        return read_plain(f, info, cells, err);
    }
}

int qn_pnm_read(FILE *f, int w, int h, unsigned k, uint8_t *cells,
                qn_pnm_info *info_out, qn_err *err)
{
    qn_pnm_info info;
    int rc = qn_pnm_read_header(f, &info, err);
    if (rc != QN_OK)
        return rc;
    if (info.w != w || info.h != h)
        return qn_err_set(err, QN_EINVAL, 0, 0,
                          "image is %dx%d but the board is %dx%d", info.w,
                          info.h, w, h);
    if (info_out)
        *info_out = info;
    return qn_pnm_read_cells(f, &info, k, cells, err);
}

/* ---- writing ----------------------------------------------------------- */

typedef struct sink {
    FILE *f; /* exactly one of f and b is set */
    qn_buf *b;
    bool failed; /* a fwrite fell short */
    size_t n;    /* bytes staged in chunk */
    char chunk[1 << 16];
} sink;

static void flush(sink *s)
{
    if (s->b)
        qn_buf_add(s->b, s->chunk, s->n);
    else if (!s->failed && fwrite(s->chunk, 1, s->n, s->f) != s->n)
        s->failed = true;
    s->n = 0;
}

static void put(sink *s, const void *data, size_t len)
{
    if (s->n + len > sizeof s->chunk)
        flush(s);
    memcpy(s->chunk + s->n, data, len); /* len is always small */
    s->n += len;
}

static void putch(sink *s, char c)
{
    if (s->n == sizeof s->chunk)
        flush(s);
    s->chunk[s->n++] = c;
}

/* Plain lines stay within 70 characters, as pbm(5) and pgm(5) ask. */
enum { LINE_MAX_CHARS = 70 };

static void write_image(sink *s, int w, int h, unsigned k, const uint8_t *cells,
                        unsigned flags)
{
    bool raw = flags & QN_PNM_RAW;
    bool pbm = k == 2 && !(flags & QN_PNM_PGM);
    char hdr[64];
    int len = pbm ? snprintf(hdr, sizeof hdr, "P%d\n%d %d\n", raw ? 4 : 1, w, h)
                  : snprintf(hdr, sizeof hdr, "P%d\n%d %d\n%u\n", raw ? 5 : 2,
                             w, h, k - 1);
    put(s, hdr, (size_t)len);
    size_t uw = (size_t)w;
    for (size_t r = 0; r < (size_t)h; r++) {
        const uint8_t *row = cells + r * uw;
        if (raw && pbm) {
            for (size_t c = 0; c < uw; c += 8) {
                unsigned byte = 0;
                for (size_t j = 0; j < 8; j++) /* pad bits stay zero */
                    byte = (byte << 1) | (c + j < uw ? row[c + j] : 0u);
                putch(s, (char)byte);
            }
        } else if (raw) {
            for (size_t c = 0; c < uw; c += sizeof s->chunk / 2) {
                size_t m =
                    uw - c < sizeof s->chunk / 2 ? uw - c : sizeof s->chunk / 2;
                put(s, row + c, m);
            }
        } else if (pbm) {
            for (size_t c = 0; c < uw; c++) {
                if (c && c % LINE_MAX_CHARS == 0)
                    putch(s, '\n');
                putch(s, (char)('0' + row[c]));
            }
            putch(s, '\n');
        } else {
            size_t linelen = 0;
            for (size_t c = 0; c < uw; c++) {
                char num[4];
                int nl = snprintf(num, sizeof num, "%u", row[c]);
                if (linelen && linelen + 1 + (size_t)nl > LINE_MAX_CHARS) {
                    putch(s, '\n');
                    linelen = 0;
                } else if (linelen) {
                    putch(s, ' ');
                    linelen++;
                }
                put(s, num, (size_t)nl);
                linelen += (size_t)nl;
            }
            putch(s, '\n');
        }
    }
    flush(s);
}

static int check_cells(int w, int h, unsigned k, const uint8_t *cells,
                       qn_err *err)
{
    if (k < 2 || k > 255)
        return qn_err_set(err, QN_EINVAL, 0, 0, "k must be 2..255, got %u", k);
    if (w < 1 || h < 1)
        return qn_err_set(err, QN_EINVAL, 0, 0,
                          "image size must be at least 1x1, got %dx%d", w, h);
    if (w > QN_PNM_MAX_CELLS / h)
        return qn_err_set(err, QN_ELIMIT, 0, 0,
                          "image %dx%d has more than %ld cells", w, h,
                          QN_PNM_MAX_CELLS);
    size_t n = (size_t)w * (size_t)h;
    for (size_t i = 0; i < n; i++)
        if (cells[i] >= k)
            return qn_err_set(err, QN_EINVAL, 0, 0,
                              "cell at row %zu, column %zu has value %u, "
                              "not below k = %u",
                              i / (size_t)w, i % (size_t)w, cells[i], k);
    return QN_OK;
}

int qn_pnm_write(FILE *f, int w, int h, unsigned k, const uint8_t *cells,
                 unsigned flags, qn_err *err)
{
    int rc = check_cells(w, h, k, cells, err);
    if (rc != QN_OK)
        return rc;
    sink *s = QN_ALLOC(sink);
    if (!s)
        return qn_err_nomem(err);
    s->f = f;
    write_image(s, w, h, k, cells, flags);
    bool failed = s->failed || ferror(f);
    free(s);
    if (failed)
        return qn_err_set(err, QN_EIO, 0, 0, "write failed: %s",
                          strerror(errno));
    return QN_OK;
}

int qn_pnm_write_buf(qn_buf *out, int w, int h, unsigned k,
                     const uint8_t *cells, unsigned flags, qn_err *err)
{
    int rc = check_cells(w, h, k, cells, err);
    if (rc != QN_OK)
        return rc;
    sink *s = QN_ALLOC(sink);
    if (!s) { /* as an append that failed, and said */
        qn_buf_fail(out);
        return qn_err_nomem(err);
    }
    s->b = out;
    write_image(s, w, h, k, cells, flags);
    free(s);
    return QN_OK;
}

/* ---- bit boards -------------------------------------------------------- */

/* A P4 byte holds 8 cells with the first one in its top bit. */
static uint8_t reverse8(uint8_t b)
{
    b = (uint8_t)((b & 0xf0) >> 4 | (b & 0x0f) << 4);
    b = (uint8_t)((b & 0xcc) >> 2 | (b & 0x33) << 2);
    return (uint8_t)((b & 0xaa) >> 1 | (b & 0x55) << 1);
}

int qn_pnm_read_bits(FILE *f, const qn_pnm_info *info, qn_bitboard *b,
                     qn_err *err)
{
    size_t rowbytes = ((size_t)info->w + 7) / 8;
    size_t total = rowbytes * (size_t)info->h;
    uint8_t *row;
    int rc = QN_OK;

    if (info->format != QN_PNM_P4) {
        uint8_t *cells = QN_ALLOCN((size_t)info->w * (size_t)info->h, uint8_t);
        if (!cells)
            return qn_err_nomem(err);
        rc = qn_pnm_read_cells(f, info, 2, cells, err);
        if (rc == QN_OK)
            qn_bitboard_from_cells(b, cells);
        free(cells);
        return rc;
    }
    if (!(row = qn_malloc(rowbytes)))
        return qn_err_nomem(err);
    for (int y = 0; y < info->h; y++) {
        uint64_t *out = qn_bitboard_row(b, y);
        size_t got = fread(row, 1, rowbytes, f);
        if (got != rowbytes) {
            rc = short_raw(f, info->offset, total, (size_t)y * rowbytes + got,
                           err);
            break;
        }
        memset(out, 0, b->stride * 8);
        for (size_t i = 0; i < rowbytes; i++)
            out[i / 8] |= (uint64_t)reverse8(row[i]) << (8 * (i % 8));
        out[b->stride - 1] &= qn_bitboard_tail_mask(b); /* pad bits */
    }
    free(row);
    return rc;
}

void qn_pnm_write_bits_buf(qn_buf *out, const qn_bitboard *b, unsigned flags)
{
    bool raw = flags & QN_PNM_RAW;
    size_t rowbytes = ((size_t)b->w + 7) / 8;

    qn_buf_addf(out, "P%d\n%d %d\n", raw ? 4 : 1, b->w, b->h);
    for (int y = 0; y < b->h; y++) {
        const uint64_t *row = qn_bitboard_row(b, y);
        if (raw) {
            for (size_t i = 0; i < rowbytes; i++)
                qn_buf_addc(out, (char)reverse8(
                                     (uint8_t)(row[i / 8] >> (8 * (i % 8)))));
            continue;
        }
        for (int x = 0; x < b->w; x++) {
            if (x && x % LINE_MAX_CHARS == 0)
                qn_buf_addc(out, '\n');
            qn_buf_addc(out, (char)('0' + qn_bitboard_get(b, x, y)));
        }
        qn_buf_addc(out, '\n');
    }
}
