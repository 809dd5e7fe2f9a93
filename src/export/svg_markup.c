/*
 * svg_markup.c: the text every SVG writer shares: XML escaping of UTF-8
 * (qn_svg_escape), coordinates and attributes, the document's opening and
 * a title line. Boards and sheets are drawn by svg.c, the histogram by
 * svg_histogram.c.
 */
#include "export/svg.h"

#include <assert.h>
#include <math.h>
#include <stdio.h>

#include "svg_internal.h"

static void add_cp(qn_buf *b, unsigned long cp)
{
    char u[4];

    if (cp < 0x80) {
        qn_buf_addc(b, (char)cp);
    } else if (cp < 0x800) {
        u[0] = (char)(0xC0 | (cp >> 6));
        u[1] = (char)(0x80 | (cp & 0x3F));
        qn_buf_add(b, u, 2);
    } else if (cp < 0x10000) {
        u[0] = (char)(0xE0 | (cp >> 12));
        u[1] = (char)(0x80 | ((cp >> 6) & 0x3F));
        u[2] = (char)(0x80 | (cp & 0x3F));
        qn_buf_add(b, u, 3);
    } else {
        u[0] = (char)(0xF0 | (cp >> 18));
        u[1] = (char)(0x80 | ((cp >> 12) & 0x3F));
        u[2] = (char)(0x80 | ((cp >> 6) & 0x3F));
        u[3] = (char)(0x80 | (cp & 0x3F));
        qn_buf_add(b, u, 4);
    }
}

/*
 * Decode one UTF-8 sequence at s; return its length and set *cp, or return
 * 1 with *cp = U+FFFD when the byte does not start a valid, shortest-form
 * sequence. Resynchronising after one byte keeps following text intact.
 */
static size_t utf8_next(const unsigned char *s, unsigned long *cp)
{
    unsigned long c = s[0], min;
    size_t len, i;

    if (c < 0x80) {
        *cp = c;
        return 1;
    }
    if (c >= 0xC2 && c <= 0xDF) {
        len = 2, c &= 0x1F, min = 0x80;
    } else if (c >= 0xE0 && c <= 0xEF) {
        len = 3, c &= 0x0F, min = 0x800;
    } else if (c >= 0xF0 && c <= 0xF4) {
        len = 4, c &= 0x07, min = 0x10000;
    } else {
        *cp = 0xFFFD;
        return 1;
    }
    for (i = 1; i < len; i++) {
        if ((s[i] & 0xC0) != 0x80) { /* also stops at the NUL */
            *cp = 0xFFFD;
            return 1;
        }
        c = (c << 6) | (s[i] & 0x3F);
    }
    if (c < min || c > 0x10FFFF || (c >= 0xD800 && c <= 0xDFFF)) {
        *cp = 0xFFFD;
        return 1;
    }
    *cp = c;
    return len;
}

void qn_svg_escape(qn_buf *out, const char *s)
{
    const unsigned char *p = (const unsigned char *)s;
    unsigned long cp;

    if (!s)
        return;
    while (*p) {
        p += utf8_next(p, &cp);
        switch (cp) {
        case '&':
            qn_buf_adds(out, "&amp;");
            break;
        case '<':
            qn_buf_adds(out, "&lt;");
            break;
        case '>':
            qn_buf_adds(out, "&gt;");
            break;
        case '"':
            qn_buf_adds(out, "&quot;");
            break;
        case '\'':
            qn_buf_adds(out, "&apos;");
            break;
        default:
            /* XML 1.0 Char excludes most C0 controls and U+FFFE/FFFF. */
            if ((cp < 0x20 && cp != '\t' && cp != '\n' && cp != '\r') ||
                cp == 0xFFFE || cp == 0xFFFF)
                cp = 0xFFFD;
            add_cp(out, cp);
        }
    }
}

/* Append a coordinate with at most two decimals and no trailing zeros. */
void qn_svg__num(qn_buf *b, double v)
{
    char t[48];
    int n;

    if (fabs(v) < 0.005)
        v = 0; /* no "-0" */
    n = snprintf(t, sizeof t, "%.2f", v);
    assert(n > 0 && (size_t)n < sizeof t);
    while (n > 0 && t[n - 1] == '0')
        n--;
    if (n > 0 && t[n - 1] == '.')
        n--;
    qn_buf_add(b, t, (size_t)n);
}

/* " name=\"v\"" */
void qn_svg__attr(qn_buf *b, const char *name, double v)
{
    qn_buf_addf(b, " %s=\"", name);
    qn_svg__num(b, v);
    qn_buf_addc(b, '"');
}

void qn_svg__open(qn_buf *b, double w, double h, const char *title)
{
    qn_buf_adds(b, "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n"
                   "<svg xmlns=\"http://www.w3.org/2000/svg\" "
                   "xmlns:xlink=\"http://www.w3.org/1999/xlink\" "
                   "version=\"1.1\"");
    w = ceil(w), h = ceil(h);
    qn_svg__attr(b, "width", w);
    qn_svg__attr(b, "height", h);
    qn_buf_adds(b, " viewBox=\"0 0 ");
    qn_svg__num(b, w);
    qn_buf_addc(b, ' ');
    qn_svg__num(b, h);
    qn_buf_adds(b, "\">\n");
    if (title && *title) {
        qn_buf_adds(b, "<title>");
        qn_svg_escape(b, title);
        qn_buf_adds(b, "</title>\n");
    }
    qn_buf_adds(b, "<rect width=\"100%\" height=\"100%\" fill=\"#fff\"/>\n");
}

/* Room for a 16 px bold title: about 10 px per character, plus margins. */
double qn_svg__title_width(const char *t)
{
    size_t n = 0;

    for (; *t; t++)
        n += ((unsigned char)*t & 0xC0) != 0x80; /* count code points */
    return 10.0 * (double)n + 24;
}

/* A visible title line centred at (x, y). */
void qn_svg__title(qn_buf *b, double x, double y, const char *title)
{
    qn_buf_adds(b, "<text class=\"title\"");
    qn_svg__attr(b, "x", x);
    qn_svg__attr(b, "y", y);
    qn_buf_adds(b, " font-family=\"sans-serif\" font-size=\"16\" "
                   "font-weight=\"bold\" text-anchor=\"middle\">");
    qn_svg_escape(b, title);
    qn_buf_adds(b, "</text>\n");
}
