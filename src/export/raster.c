/*
 * raster.c: the RGB canvas of raster.h and its PNG encoding through
 * libpng (Debian's libpng16): the one file that includes png.h. It also
 * says which libpng runs (version.h).
 */
#include "raster.h"

#include <math.h>
#include <png.h>
#include <setjmp.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/mem.h"
#include "base/version.h"

int qn_raster_init(qn_raster *c, double w, double h, unsigned bg, qn_err *err)
{
    double cw = ceil(w), ch = ceil(h);
    size_t i, n;

    memset(c, 0, sizeof(*c));
    if (!(cw >= 1 && ch >= 1 && cw <= QN_RASTER_MAX_SIDE &&
          ch <= QN_RASTER_MAX_SIDE && cw * ch <= (double)QN_RASTER_MAX_PIXELS))
        return qn_err_set(err, QN_ELIMIT, 0, 0,
                          "a picture of %.0f x %.0f px is past the PNG "
                          "limit (%d px a side, %ld pixels)",
                          cw, ch, QN_RASTER_MAX_SIDE, QN_RASTER_MAX_PIXELS);
    c->w = (int)cw, c->h = (int)ch;
    n = (size_t)c->w * (size_t)c->h;
    if (!(c->px = qn_malloc(3 * n))) {
        memset(c, 0, sizeof(*c));
        return qn_err_nomem(err);
    }
    for (i = 0; i < n; i++) {
        c->px[3 * i] = (uint8_t)(bg >> 16);
        c->px[3 * i + 1] = (uint8_t)(bg >> 8);
        c->px[3 * i + 2] = (uint8_t)bg;
    }
    return QN_OK;
}

void qn_raster_release(qn_raster *c)
{
    free(c->px);
    memset(c, 0, sizeof(*c));
}

unsigned qn_raster_get(const qn_raster *c, int x, int y)
{
    const uint8_t *p = c->px + 3 * ((size_t)y * (size_t)c->w + (size_t)x);

    return (unsigned)p[0] << 16 | (unsigned)p[1] << 8 | p[2];
}

/* The pixels whose centres may lie in [x0, x1) x [y0, y1), clipped. */
typedef struct span {
    int x0, x1, y0, y1;
} span;

static span span_of(const qn_raster *c, double x0, double y0, double x1,
                    double y1)
{
    span s;
    /* centre x + 0.5 >= x0  <=>  x >= x0 - 0.5 */
    double a = ceil(x0 - 0.5), b = ceil(x1 - 0.5);
    double d = ceil(y0 - 0.5), e = ceil(y1 - 0.5);

    s.x0 = a < 0 ? 0 : a > c->w ? c->w : (int)a;
    s.x1 = b < 0 ? 0 : b > c->w ? c->w : (int)b;
    s.y0 = d < 0 ? 0 : d > c->h ? c->h : (int)d;
    s.y1 = e < 0 ? 0 : e > c->h ? c->h : (int)e;
    return s;
}

static void put(qn_raster *c, int x, int y, unsigned rgb)
{
    uint8_t *p = c->px + 3 * ((size_t)y * (size_t)c->w + (size_t)x);

    p[0] = (uint8_t)(rgb >> 16), p[1] = (uint8_t)(rgb >> 8);
    p[2] = (uint8_t)rgb;
}

void qn_raster_rect(qn_raster *c, double x0, double y0, double x1, double y1,
                    double r, unsigned rgb)
{
    span s = span_of(c, x0, y0, x1, y1);

    if (r * 2 > x1 - x0)
        r = (x1 - x0) / 2;
    if (r * 2 > y1 - y0)
        r = (y1 - y0) / 2;
    for (int y = s.y0; y < s.y1; y++)
        for (int x = s.x0; x < s.x1; x++) {
            double px = x + 0.5, py = y + 0.5, dx = 0, dy = 0;
            if (r > 0) {
                /* outside the inner rectangle by (dx, dy): in a corner */
                dx = px < x0 + r   ? x0 + r - px
                     : px > x1 - r ? px - (x1 - r)
                                   : 0;
                dy = py < y0 + r   ? y0 + r - py
                     : py > y1 - r ? py - (y1 - r)
                                   : 0;
                if (dx > 0 && dy > 0 && dx * dx + dy * dy > r * r)
                    continue;
            }
            put(c, x, y, rgb);
        }
}

void qn_raster_hex(qn_raster *c, double cx, double cy, double apothem,
                   unsigned rgb)
{
    double R = apothem * 2 / 1.7320508075688772; /* centre to vertex */
    span s = span_of(c, cx - apothem, cy - R, cx + apothem, cy + R);

    for (int y = s.y0; y < s.y1; y++)
        for (int x = s.x0; x < s.x1; x++) {
            double dx = fabs(x + 0.5 - cx), dy = fabs(y + 0.5 - cy);
            /* flat sides: |dx| <= a; slanted: the projection on
             * (sqrt 3 / 2, 1 / 2) is at most a */
            if (dx <= apothem && dx * 0.8660254037844386 + dy * 0.5 <= apothem)
                put(c, x, y, rgb);
        }
}

void qn_raster_disc(qn_raster *c, double cx, double cy, double r, unsigned rgb)
{
    span s = span_of(c, cx - r, cy - r, cx + r, cy + r);

    for (int y = s.y0; y < s.y1; y++)
        for (int x = s.x0; x < s.x1; x++) {
            double dx = x + 0.5 - cx, dy = y + 0.5 - cy;
            if (dx * dx + dy * dy <= r * r)
                put(c, x, y, rgb);
        }
}

void qn_raster_line(qn_raster *c, double x0, double y0, double x1, double y1,
                    double width, unsigned rgb)
{
    double dx = x1 - x0, dy = y1 - y0, len = sqrt(dx * dx + dy * dy);
    double e = width / 2;
    span s = span_of(c, fmin(x0, x1) - e, fmin(y0, y1) - e, fmax(x0, x1) + e,
                     fmax(y0, y1) + e);

    if (!(len > 0))
        return;
    dx /= len, dy /= len;
    for (int y = s.y0; y < s.y1; y++)
        for (int x = s.x0; x < s.x1; x++) {
            double u = x + 0.5 - x0, v = y + 0.5 - y0;
            double along = u * dx + v * dy, across = fabs(v * dx - u * dy);
            /* half-open at the far end and on one side: abutting strokes
             * do not overlap, and a 1 px line on a pixel edge covers one
             * row */
            if (along >= 0 && along < len && across <= e &&
                !(across == e && v * dx - u * dy > 0))
                put(c, x, y, rgb);
        }
}

/* ---- libpng --------------------------------------------------------- */

typedef struct sink {
    qn_buf *out;
    char msg[160];
    int nomem; /* an allocation of libpng's failed */
} sink;

/* libpng and zlib allocate through quench's allocator (counted for
 * failure injection); a failure is noted in the sink (the mem_ptr), and
 * libpng reports it by png_fail (or by no write struct at all). */
static png_voidp png_alloc(png_structp png, png_alloc_size_t n)
{
    png_voidp p = qn_malloc(n);
    sink *k = png_get_mem_ptr(png);

    if (!p && k)
        k->nomem = 1;
    return p;
}

static void png_release(png_structp png, png_voidp p)
{
    (void)png;
    free(p);
}

static void png_write(png_structp png, png_bytep data, size_t n)
{
    sink *k = png_get_io_ptr(png);

    qn_buf_add(k->out, data, n);
}

static void png_flush(png_structp png)
{
    (void)png;
}

static void png_fail(png_structp png, png_const_charp msg)
{
    sink *k = png_get_error_ptr(png);

    snprintf(k->msg, sizeof(k->msg), "%s", msg);
    png_longjmp(png, 1);
}

static void png_warn(png_structp png, png_const_charp msg)
{
    (void)png, (void)msg; /* the library never prints */
}

static int encode(const qn_raster *c, sink *k, qn_err *err)
{
    png_structp png;
    png_infop info;
    int y;

    png = png_create_write_struct_2(PNG_LIBPNG_VER_STRING, k, png_fail,
                                    png_warn, k, png_alloc, png_release);
    info = png ? png_create_info_struct(png) : NULL;
    if (!info) {
        png_destroy_write_struct(&png, NULL);
        if (k->nomem)
            return qn_err_nomem(err);
        return qn_err_set(err, QN_ERR, 0, 0, "libpng: cannot start");
    }
    /* nothing set after this point is read after a longjmp (k lives in
     * the caller's frame) */
    if (setjmp(png_jmpbuf(png))) {
        png_destroy_write_struct(&png, &info);
        if (k->nomem)
            return qn_err_nomem(err);
        return qn_err_set(err, QN_ERR, 0, 0, "libpng: %s", k->msg);
    }
    png_set_write_fn(png, k, png_write, png_flush);
    png_set_IHDR(png, info, (png_uint_32)c->w, (png_uint_32)c->h, 8,
                 PNG_COLOR_TYPE_RGB, PNG_INTERLACE_NONE,
                 PNG_COMPRESSION_TYPE_DEFAULT, PNG_FILTER_TYPE_DEFAULT);
    png_set_compression_level(png, 9);
    png_write_info(png, info);
    for (y = 0; y < c->h; y++)
        png_write_row(png, c->px + 3 * (size_t)y * (size_t)c->w);
    png_write_end(png, info);
    png_destroy_write_struct(&png, &info);
    return QN_OK;
}

int qn_raster_png(const qn_raster *c, qn_buf *out, qn_err *err)
{
    sink k = {out, "", 0};
    int rc;

    rc = encode(c, &k, err);
    if (rc == QN_OK && out->failed)
        rc = qn_err_nomem(err);
    return rc;
}

/* The libpng linked in (not the headers built against), for --version. */
const char *qn_version_libpng(void)
{
    return png_get_libpng_ver(NULL);
}
