/*
 * svg_histogram.c: the press histogram (svg.h), a pack's minimal presses
 * as hatched bars against a rule set's exact distribution as a dashed
 * step outline, drawn in named steps: scale, y grid, bars, outline, axes,
 * legend. The legend has a row of its own above the plot, so no bar can
 * sit under it, however tall.
 */
#include "export/svg.h"

#include <assert.h>
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include "base/text.h"
#include "svg_internal.h"

#define HW QN_SVG__PLOT_W
#define HH QN_SVG__PLOT_H
#define PL 64.0 /* plot margins: left, right, top, bottom */
#define PR 20.0
#define PT 72.0 /* the title (y 24) and the legend row (y 36..58) */
#define PB 56.0
#define LY QN_SVG__LEGEND_Y /* the legend row's top and height */
#define LH QN_SVG__LEGEND_H

/* The two series and the scale they are drawn at (svg_internal.h, shared
 * with png_plot.c). */
typedef qn_svg__chart chart;

static void fmt_pct(qn_buf *b, double v)
{
    char t[32];

    snprintf(t, sizeof t, "%.4g", v);
    qn_buf_adds(b, t);
}

/*
 * Totals, the bins to draw (at least one) and the y axis: the largest
 * share of either series, rounded up to a whole number of nice steps
 * (about five), or 0..100 when there is no data.
 */
static void chart_scale(chart *ch)
{
    double maxs = 0, v;
    size_t i, first = SIZE_MAX, end = 0;

    for (i = 0; i < ch->pack_len; i++) {
        ch->ptot += (double)ch->pack[i];
        if (ch->pack[i]) {
            first = first < i ? first : i;
            end = i + 1;
        }
    }
    for (i = 0; i < ch->dist_len; i++) {
        ch->dtot += (double)ch->dist[i];
        if (ch->dist[i]) {
            first = first < i ? first : i;
            end = end > i + 1 ? end : i + 1;
        }
    }
    /* an exact distribution starts at the goal, 0; a sample or a pack
     * alone where its data starts, so the bars are not crowded to one
     * side by a stretch of counts nothing was measured at */
    ch->lo = first == SIZE_MAX ? 0 : first;
    ch->nb = end > ch->lo ? end - ch->lo : 1;
    for (i = ch->lo; i < ch->lo + ch->nb; i++) {
        if (i < ch->pack_len && ch->ptot > 0 &&
            (v = 100 * (double)ch->pack[i] / ch->ptot) > maxs)
            maxs = v;
        if (i < ch->dist_len && ch->dtot > 0 &&
            (v = 100 * (double)ch->dist[i] / ch->dtot) > maxs)
            maxs = v;
        if (i < ch->dist_len && ch->ci_hi && (v = 100 * ch->ci_hi[i]) > maxs)
            maxs = v;
    }
    ch->step = maxs > 0 ? qn_svg__nice_step(maxs / 5) : 20;
    ch->top = maxs > 0 ? ceil(maxs / ch->step - 1e-9) * ch->step : 100;
    ch->x0 = PL, ch->y0 = HH - PB;
    ch->pw = HW - PL - PR, ch->ph = HH - PT - PB;
    ch->bw = ch->pw / (double)ch->nb;
}

void qn_svg__chart_init(qn_svg__chart *ch, const qn_svg_hist *h)
{
    memset(ch, 0, sizeof(*ch));
    ch->pack = h->pack, ch->pack_len = h->pack_len;
    ch->dist = h->dist, ch->dist_len = h->dist ? h->dist_len : 0;
    ch->sampled = h->sampled;
    ch->dist_label = h->dist_label;
    if (ch->dist && h->ci_lo && h->ci_hi)
        ch->ci_lo = h->ci_lo, ch->ci_hi = h->ci_hi;
    chart_scale(ch);
}

double qn_svg__chart_y(const qn_svg__chart *ch, double share)
{
    return ch->y0 - ch->ph * 100 * share / ch->top;
}

int qn_svg__chart_bar(const qn_svg__chart *ch, size_t i, double *x, double *y,
                      double *w, double *h)
{
    if (i < ch->lo || i >= ch->pack_len || i >= ch->lo + ch->nb ||
        !(ch->ptot > 0) || !ch->pack[i])
        return 0;
    *h = ch->ph * (100 * (double)ch->pack[i] / ch->ptot) / ch->top;
    *x = ch->x0 + ch->bw * (double)(i - ch->lo) + ch->bw * 0.1;
    *y = ch->y0 - *h;
    *w = ch->bw * 0.8;
    return 1;
}

void qn_svg__chart_outline(const qn_svg__chart *ch, size_t j, double *x,
                           double *y)
{
    size_t i = j / 2, m = ch->lo + (j ? (j - 1) / 2 : 0);
    double sh = m < ch->dist_len ? (double)ch->dist[m] / ch->dtot : 0;

    /* even j: bin i's start on the left, odd j: the top of bin (j - 1) / 2
     * where it starts; the last point is back on the axis */
    *x = ch->x0 + ch->bw * (double)i;
    *y = j == 0 || j == 2 * ch->nb + 1 ? ch->y0
                                       : ch->y0 - ch->ph * 100 * sh / ch->top;
}

/* The hatch that fills the pack's bars. */
static void hatch_defs(qn_buf *out)
{
    qn_buf_adds(out, "<defs>\n<pattern id=\"hatch\" width=\"6\" height=\"6\" "
                     "patternUnits=\"userSpaceOnUse\" "
                     "patternTransform=\"rotate(45)\"><rect width=\"6\" "
                     "height=\"6\" fill=\"#56B4E9\"/><line x1=\"0\" y1=\"0\" "
                     "x2=\"0\" y2=\"6\" stroke=\"#0072B2\" "
                     "stroke-width=\"2.5\"/></pattern>\n</defs>\n");
}

/* y grid and tick labels */
static void y_grid(qn_buf *out, const chart *ch)
{
    double v;

    qn_buf_adds(out, "<g class=\"yaxis\" font-family=\"sans-serif\" "
                     "font-size=\"11\" text-anchor=\"end\">\n");
    for (v = 0; v <= ch->top + ch->step / 2; v += ch->step) {
        double y = ch->y0 - ch->ph * v / ch->top;
        qn_buf_adds(out, "<line");
        qn_svg__attr(out, "x1", ch->x0);
        qn_svg__attr(out, "y1", y);
        qn_svg__attr(out, "x2", ch->x0 + ch->pw);
        qn_svg__attr(out, "y2", y);
        qn_buf_adds(out, " stroke=\"#ddd\"/><text");
        qn_svg__attr(out, "x", ch->x0 - 6);
        qn_svg__attr(out, "y", y + 4);
        qn_buf_addc(out, '>');
        fmt_pct(out, v);
        qn_buf_adds(out, "</text>\n");
    }
    qn_buf_adds(out, "</g>\n");
}

/* pack bars: one per non-zero bin, its count in a tooltip */
static void pack_bars(qn_buf *out, const chart *ch)
{
    qn_buf_adds(out, "<g class=\"pack\" fill=\"url(#hatch)\" stroke=\"#000\" "
                     "stroke-width=\"1\">\n");
    for (size_t i = ch->lo; i < ch->lo + ch->nb; i++) {
        double x, y, w, hgt;
        if (!qn_svg__chart_bar(ch, i, &x, &y, &w, &hgt))
            continue;
        qn_buf_adds(out, "<rect class=\"bar\"");
        qn_svg__attr(out, "x", x);
        qn_svg__attr(out, "y", y);
        qn_svg__attr(out, "width", w);
        qn_svg__attr(out, "height", hgt);
        qn_buf_addf(out, "><title>%zu %s: %llu</title></rect>\n", i,
                    qn_plural(i, "press", "presses"),
                    (unsigned long long)ch->pack[i]);
    }
    qn_buf_adds(out, "</g>\n");
}

/* distribution: a dashed step outline over whole bins */
static void dist_outline(qn_buf *out, const chart *ch)
{
    double x, y;

    qn_buf_adds(out, "<path class=\"dist\" fill=\"none\" "
                     "stroke=\"#D55E00\" stroke-width=\"2.5\" "
                     "stroke-dasharray=\"6 3\" d=\"M");
    qn_svg__chart_outline(ch, 0, &x, &y);
    qn_svg__num(out, x);
    qn_buf_addc(out, ' ');
    qn_svg__num(out, y);
    for (size_t j = 1; j < 2 * ch->nb + 2; j++) {
        qn_svg__chart_outline(ch, j, &x, &y);
        qn_buf_adds(out, j % 2 ? "V" : "H");
        qn_svg__num(out, j % 2 ? y : x);
    }
    qn_buf_adds(out, "\"/>\n");
}

/* a sample's 95 % intervals: a whisker at the middle of each bin */
static void ci_whiskers(qn_buf *out, const chart *ch)
{
    qn_buf_adds(out, "<g class=\"ci\" stroke=\"#333\" stroke-width=\"1.5\">\n");
    for (size_t i = 0; i < ch->nb; i++) {
        size_t m = ch->lo + i;
        double x = ch->x0 + ch->bw * ((double)i + 0.5);
        if (m >= ch->dist_len || !ch->dist[m])
            continue;
        qn_buf_adds(out, "<line");
        qn_svg__attr(out, "x1", x);
        qn_svg__attr(out, "y1", ch->y0 - ch->ph * 100 * ch->ci_lo[m] / ch->top);
        qn_svg__attr(out, "x2", x);
        qn_svg__attr(out, "y2", ch->y0 - ch->ph * 100 * ch->ci_hi[m] / ch->top);
        qn_buf_adds(out, "/>\n");
    }
    qn_buf_adds(out, "</g>\n");
}

/* axes, x ticks (at most 25 labels), axis titles */
static void axes(qn_buf *out, const chart *ch)
{
    double x0 = ch->x0, y0 = ch->y0, pw = ch->pw, ph = ch->ph;
    size_t xs = (ch->nb + 24) / 25;

    qn_buf_adds(out, "<g stroke=\"#000\" stroke-width=\"1\">");
    qn_buf_adds(out, "<line");
    qn_svg__attr(out, "x1", x0);
    qn_svg__attr(out, "y1", y0);
    qn_svg__attr(out, "x2", x0 + pw);
    qn_svg__attr(out, "y2", y0);
    qn_buf_adds(out, "/><line");
    qn_svg__attr(out, "x1", x0);
    qn_svg__attr(out, "y1", y0);
    qn_svg__attr(out, "x2", x0);
    qn_svg__attr(out, "y2", y0 - ph);
    qn_buf_adds(out, "/></g>\n<g class=\"xaxis\" font-family=\"sans-serif\" "
                     "font-size=\"11\" text-anchor=\"middle\">\n");
    for (size_t i = 0; i < ch->nb; i += xs) {
        qn_buf_adds(out, "<text");
        qn_svg__attr(out, "x", x0 + ch->bw * ((double)i + 0.5));
        qn_svg__attr(out, "y", y0 + 15);
        qn_buf_addf(out, ">%zu</text>\n", ch->lo + i);
    }
    qn_buf_adds(out, "<text");
    qn_svg__attr(out, "x", x0 + pw / 2);
    qn_svg__attr(out, "y", HH - 14);
    qn_buf_adds(out, " font-size=\"13\">minimal presses</text>\n<text");
    qn_svg__attr(out, "x", 16);
    qn_svg__attr(out, "y", y0 - ph / 2);
    qn_buf_adds(out, " font-size=\"13\" transform=\"rotate(-90 16 ");
    qn_svg__num(out, y0 - ph / 2);
    qn_buf_adds(out, ")\">share (%)</text>\n</g>\n");
}

void qn_svg__chart_legend(const qn_svg__chart *ch, qn_svg__legend *lg)
{
    double end;

    memset(lg, 0, sizeof(*lg));
    lg->x = ch->x0 + 4, lg->y = LY, lg->h = LH;
    end = lg->x + 8;
    /* a swatch, 30 px to its words, about 7 px per character of 12 px
     * sans-serif, 16 px to the next entry */
    if (!ch->dist_label || ch->ptot > 0) {
        snprintf(lg->e[lg->n].label, sizeof lg->e[0].label,
                 "pack (%.0f puzzle%s)", ch->ptot, ch->ptot == 1 ? "" : "s");
        lg->e[lg->n].x = end, lg->e[lg->n].dashed = 0;
        end += 30 + 7.0 * (double)strlen(lg->e[lg->n++].label) + 16;
    }
    if (ch->dist) {
        if (ch->dist_label)
            snprintf(lg->e[lg->n].label, sizeof lg->e[0].label, "%s",
                     ch->dist_label);
        else if (ch->sampled)
            snprintf(lg->e[lg->n].label, sizeof lg->e[0].label,
                     "a sample of %llu solvable states (not exact)",
                     (unsigned long long)ch->sampled);
        else
            snprintf(lg->e[lg->n].label, sizeof lg->e[0].label,
                     "all solvable states");
        lg->e[lg->n].x = end, lg->e[lg->n].dashed = 1;
        end += 30 + 7.0 * (double)strlen(lg->e[lg->n++].label) + 16;
    }
    lg->w = end - 8 - lg->x;
}

/* A swatch at x and its label. */
static void legend_entry(qn_buf *out, double x, int dashed, const char *label)
{
    double y = LY + LH / 2;

    if (dashed) {
        qn_buf_adds(out, "<line");
        qn_svg__attr(out, "x1", x);
        qn_svg__attr(out, "y1", y);
        qn_svg__attr(out, "x2", x + 24);
        qn_svg__attr(out, "y2", y);
        qn_buf_adds(out, " stroke=\"#D55E00\" stroke-width=\"2.5\" "
                         "stroke-dasharray=\"6 3\"/>");
    } else {
        qn_buf_adds(out, "<rect");
        qn_svg__attr(out, "x", x);
        qn_svg__attr(out, "y", y - 6);
        qn_buf_adds(out, " width=\"24\" height=\"12\" fill=\"url(#hatch)\" "
                         "stroke=\"#000\"/>");
    }
    qn_buf_adds(out, "<text");
    qn_svg__attr(out, "x", x + 30);
    qn_svg__attr(out, "y", y + 4);
    qn_buf_addc(out, '>');
    qn_buf_adds(out, label);
    qn_buf_adds(out, "</text>");
}

/* legend: one row of its own between the title and the plot */
static void legend(qn_buf *out, const chart *ch)
{
    qn_svg__legend lg;

    qn_svg__chart_legend(ch, &lg);
    qn_buf_adds(out, "<g class=\"legend\" font-family=\"sans-serif\" "
                     "font-size=\"12\"><rect");
    qn_svg__attr(out, "x", lg.x);
    qn_svg__attr(out, "y", lg.y);
    qn_svg__attr(out, "width", lg.w);
    qn_svg__attr(out, "height", lg.h);
    qn_buf_adds(out, " fill=\"#fff\" stroke=\"#999\"/>");
    for (size_t i = 0; i < lg.n; i++)
        legend_entry(out, lg.e[i].x, lg.e[i].dashed, lg.e[i].label);
    qn_buf_adds(out, "</g>\n");
}

void qn_svg_histogram(qn_buf *out, const qn_svg_hist *h)
{
    chart ch;
    const char *title = h->title;

    assert(out && h && (h->pack || h->pack_len == 0));
    qn_svg__chart_init(&ch, h);

    qn_svg__open(out, HW, HH, title);
    if (title && *title)
        qn_svg__title(out, HW / 2, 24, title);
    hatch_defs(out);
    y_grid(out, &ch);
    pack_bars(out, &ch);
    if (ch.dist && ch.dtot > 0)
        dist_outline(out, &ch);
    if (ch.ci_lo && ch.dtot > 0)
        ci_whiskers(out, &ch);
    axes(out, &ch);
    legend(out, &ch);
    if (ch.ptot == 0 && ch.dtot == 0) {
        qn_buf_adds(out, "<text");
        qn_svg__attr(out, "x", ch.x0 + ch.pw / 2);
        qn_svg__attr(out, "y", ch.y0 - ch.ph / 2);
        qn_buf_adds(out, " font-family=\"sans-serif\" font-size=\"14\" "
                         "text-anchor=\"middle\">no data</text>\n");
    }
    qn_buf_adds(out, "</svg>\n");
}
