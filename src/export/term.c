/*
 * term.c: boards drawn for a terminal (term.h), in plain characters or
 * ANSI colour blocks, for grid, hex, hexagon and graph boards. The
 * palette, the glyphs and the geometry are decided here alone.
 */
#include "export/term.h"

#include <stdio.h>
#include <string.h>

#include "rules/layout.h"

/* SGR backgrounds for 0 and for 1..7 when k <= 8, and whether the glyph
 * on each is black (light background) or white. */
#define BG_ZERO 100
static const int palette[7] = {43, 44, 42, 41, 45, 46, 47};
static const int palette_light[7] = {1, 0, 1, 0, 0, 1, 1};

/*
 * Dark blue to yellow through the 6x6x6 cube of the 256-colour palette
 * (index 16 + 36 r + 6 g + b, levels 0, 95, 135, 175, 215, 255): a
 * cividis-like ramp, so values keep their order in brightness too.
 */
#define RAMP_LEN 16
static const int ramp[RAMP_LEN] = {17, 18, 24,  25,  31,  30,  36,  35,
                                   71, 70, 106, 142, 178, 184, 220, 226};

int qn_term_parse_when(const char *s, qn_term_when *out)
{
    static const char *const names[] = {"auto", "always", "never"};

    for (int i = 0; i < 3; i++)
        if (!strcmp(s, names[i])) {
            *out = (qn_term_when)i;
            return 0;
        }
    return -1;
}

int qn_term_use_colour(qn_term_when when, int is_tty, const char *term,
                       const char *no_color)
{
    if (when != QN_TERM_AUTO)
        return when == QN_TERM_ALWAYS;
    if (no_color && *no_color)
        return 0;
    return is_tty && term && *term && strcmp(term, "dumb") != 0;
}

/* A value's glyph: base 36, two digits from 36 on (as svg.h). */
static void glyph(char out[3], unsigned v)
{
    static const char digits[] = "0123456789abcdefghijklmnopqrstuvwxyz";

    out[0] = v < 36 ? digits[v] : digits[v / 36];
    out[1] = v < 36 ? '\0' : digits[v % 36];
    out[2] = '\0';
}

/* Brightness of a cube colour (ITU-R BT.601 luma), 0..255. */
static int cube_luma(int idx)
{
    static const int level[6] = {0, 95, 135, 175, 215, 255};
    int c = idx - 16;

    return (299 * level[c / 36] + 587 * level[c / 6 % 6] + 114 * level[c % 6]) /
           1000;
}

/* "ESC[...m" opening a cell of value v under k colours. */
static void sgr_open(qn_buf *out, unsigned v, unsigned k)
{
    if (v == 0) {
        qn_buf_addf(out, "\033[%d;97m", BG_ZERO);
    } else if (k <= 8) {
        qn_buf_addf(out, "\033[%d;%dm", palette[v - 1],
                    palette_light[v - 1] ? 30 : 97);
    } else {
        int c = ramp[(v - 1) * (RAMP_LEN - 1) / (k - 2)];
        qn_buf_addf(out, "\033[48;5;%d;%dm", c, cube_luma(c) > 140 ? 30 : 97);
    }
}

/* Glyph field width: one character up to 36 colours, two beyond. */
static int glyph_width(unsigned k)
{
    return k <= 36 ? 1 : 2;
}

/* One cell (v < k) or a hole (v < 0) in a field 2u wide. */
static void cell(qn_buf *out, int v, unsigned k, int colour)
{
    char t[3];
    int g = glyph_width(k);

    if (v < 0) {
        qn_buf_addf(out, colour ? "  " : "%*s%*s", g, ".", g, "");
        return;
    }
    glyph(t, (unsigned)v);
    if (!colour) {
        qn_buf_addf(out, "%*s%*s", g, t, g, "");
        return;
    }
    sgr_open(out, (unsigned)v, k);
    qn_buf_addf(out, "%2s\033[0m", v ? t : "");
}

/* Drop the blanks at the end of out, back to position `from`. */
static void trim(qn_buf *out, size_t from)
{
    while (out->len > from && out->buf[out->len - 1] == ' ')
        out->buf[--out->len] = '\0';
}

/*
 * Where position (r, c) starts, in half cells from the left edge; -1 when
 * it is not drawn (outside a hexagon).
 */
static int half_offset(const qn_layout *l, int r, int c)
{
    switch (l->kind) {
    case QN_LAYOUT_HEX:
        return 2 * c + (r & 1);
    case QN_LAYOUT_HEXAGON:
        if (l->index[r * l->w + c] < 0)
            return -1;
        return 2 * c + r - (l->side - 1);
    default:
        return 2 * c;
    }
}

static void draw_rows(qn_buf *out, const qn_layout *l, const uint8_t *cells,
                      unsigned k, int colour)
{
    int u = colour ? 1 : glyph_width(k);

    for (int r = 0; r < l->h; r++) {
        size_t start = out->len;
        int at = 0; /* characters written on this line */
        for (int c = 0; c < l->w; c++) {
            int off = half_offset(l, r, c), i = l->index[r * l->w + c];
            if (off < 0)
                continue;
            for (; at < off * u; at++)
                qn_buf_addc(out, ' ');
            cell(out, i < 0 ? -1 : cells[i], k, colour);
            at += 2 * u;
        }
        trim(out, start);
        qn_buf_addc(out, '\n');
    }
}

/* Graph boards: cell, value, and what a press of it changes. */
static void draw_graph(qn_buf *out, const qn_rules *r, const uint8_t *cells,
                       int colour)
{
    int n = qn_rules_ncells(r), wn = snprintf(NULL, 0, "%d", n - 1);
    unsigned k = qn_rules_colours(r);
    const uint8_t *a = qn_rules_matrix(r);

    wn = wn < 4 ? 4 : wn;
    qn_buf_addf(out, "%*s  value  a press changes\n", wn, "cell");
    for (int j = 0; j < n; j++) {
        size_t start = out->len;
        int any = 0;
        qn_buf_addf(out, "%*d  ", wn, j);
        if (colour) { /* the swatch right-aligned under "value" */
            qn_buf_adds(out, "   ");
            cell(out, cells[j], k, 1);
        } else {
            char t[3];
            glyph(t, cells[j]);
            qn_buf_addf(out, "%5s", t);
        }
        qn_buf_adds(out, "  ");
        for (int i = 0; i < n; i++) {
            unsigned amt = a[(size_t)i * n + j];
            if (!amt)
                continue;
            qn_buf_addf(out, "%s%d", any++ ? ", " : "", i);
            if (amt != 1)
                qn_buf_addf(out, " (+%u)", amt);
        }
        if (!any)
            qn_buf_adds(out, "nothing");
        trim(out, start);
        qn_buf_addc(out, '\n');
    }
}

void qn_term_board(qn_buf *out, const qn_rules *r, const uint8_t *cells,
                   int colour)
{
    const qn_layout *l = qn_rules_layout(r);

    if (l->kind == QN_LAYOUT_GRAPH)
        draw_graph(out, r, cells, colour);
    else
        draw_rows(out, l, cells, qn_rules_colours(r), colour);
}

void qn_term_legend(qn_buf *out, const qn_rules *r, const uint8_t *cells,
                    int colour)
{
    unsigned k = qn_rules_colours(r);
    int n = qn_rules_ncells(r);
    uint8_t seen[256] = {0};

    if (!colour)
        return;
    for (int i = 0; i < n; i++)
        seen[cells[i]] = 1;
    qn_buf_adds(out, "legend:");
    for (unsigned v = 0; v < k; v++) {
        if (k > 8 && !seen[v])
            continue;
        qn_buf_adds(out, "  ");
        cell(out, (int)v, k, 1);
        qn_buf_addf(out, " %u", v);
    }
    qn_buf_addc(out, '\n');
}

static void add_shape(qn_buf *out, const qn_layout *l)
{
    static const char *const wraps[] = {"", ", wraps left-right (a cylinder)",
                                        ", wraps top-bottom (a cylinder)",
                                        ", wraps both ways (a torus)"};

    switch (l->kind) {
    case QN_LAYOUT_GRID:
        qn_buf_addf(out, "%dx%d grid%s", l->w, l->h, wraps[l->wrap & 3]);
        break;
    case QN_LAYOUT_HEX:
        qn_buf_addf(out, "%dx%d hex board (odd rows half a cell right)", l->w,
                    l->h);
        break;
    case QN_LAYOUT_HEXAGON:
        qn_buf_addf(out, "hexagon of side %d (%d cells)", l->side, l->ncells);
        return;
    case QN_LAYOUT_GRAPH:
        qn_buf_addf(out, "graph of %d cell%s", l->ncells,
                    l->ncells == 1 ? "" : "s");
        return;
    }
    if (l->ncells < l->w * l->h)
        qn_buf_addf(out, ", %d cells ('.' a hole)", l->ncells);
}

void qn_term_caption(qn_buf *out, const qn_rules *r)
{
    qn_buf_addf(out, "%s: ", qn_rules_name(r));
    add_shape(out, qn_rules_layout(r));
    qn_buf_addf(out, ", %u colours\n", qn_rules_colours(r));
}
