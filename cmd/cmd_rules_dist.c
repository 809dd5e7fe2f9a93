/*
 * cmd_rules_dist.c: `rules show --distribution`: the distribution of
 * minimal presses by the best method the rule's structure allows (exact
 * in closed form or by kernel classes, distrib_exact.h; exact by
 * enumeration, distrib.h; else a labelled sample with 95 % confidence
 * intervals), written as text, csv, json or an svg or png histogram; and the
 * kernel's name, which rules table shares.
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "base/mem.h"
#include "base/text.h"
#include "cmd.h"
#include "engine/system.h"
#include "export/png.h"
#include "export/svg.h"
#include "generate/distrib.h"
#include "generate/distrib_exact.h"
#include "generate/gen.h"

/* The kernel as a group (rules show and rules table): "(Z/8)^2 x (Z/2)^2",
 * largest factors first; "trivial". */
void cmd_kernel_group(qn_buf *b, const qn_system *sys)
{
    size_t n = qn_system_kernel_ngens(sys), i = n;

    if (!n) {
        qn_buf_adds(b, "trivial");
        return;
    }
    while (i > 0) {
        unsigned o = qn_system_kernel_order(sys, i - 1);
        size_t run = 0;
        while (i > 0 && qn_system_kernel_order(sys, i - 1) == o)
            i--, run++;
        if (run > 1)
            qn_buf_addf(b, "(Z/%u)^%zu", o, run);
        else
            qn_buf_addf(b, "Z/%u", o);
        if (i > 0)
            qn_buf_adds(b, " x ");
    }
}

/* The 95 % normal quantile of the Wilson intervals. */
#define Z95 1.959963984540054

int cmd_dist_init(cmd_dist *dd, const qn_rules *r, const qn_system *sys,
                  const qn_distrib *d, size_t nsample)
{
    qn_err err = QN_ERR_INIT, why = QN_ERR_INIT;
    qn_solver *solver = NULL;
    uint64_t *p;
    qn_seed seed;
    size_t got;

    memset(dd, 0, sizeof(*dd));
    if (qn_exact_dist_compute(&dd->x, sys, &why) == QN_OK) {
        dd->method = qn_exact_dist_method(dd->x);
        dd->len = qn_exact_dist_len(dd->x);
        return QN_OK;
    }
    if (why.code == QN_ENOMEM)
        cli_oom();
    if (d) {
        dd->d = d, dd->method = "enumerated", dd->len = qn_distrib_len(d);
        return QN_OK;
    }
    dd->method = "sampled";
    snprintf(dd->why, sizeof dd->why, "%s; more than 2^26 solvable states",
             why.msg);
    if (qn_solver_new(&solver, r, &err) != QN_OK)
        return QN_OK; /* no sample either: len 0 */
    dd->drawn = nsample ? nsample : QN_GEN_TIER_SAMPLE;
    p = CLI_NEWN(dd->drawn, uint64_t);
    qn_gen_rule_seed(solver, &seed);
    if (qn_gen_sample_presses(solver, &seed, p, dd->drawn, &got) != QN_OK)
        cli_oom();
    dd->graded = got;
    for (size_t i = 0; i < dd->graded; i++)
        dd->len = p[i] + 1 > dd->len ? (size_t)p[i] + 1 : dd->len;
    dd->hist = CLI_NEWN(dd->len + 1, uint64_t);
    for (size_t i = 0; i < dd->graded; i++)
        dd->hist[p[i]]++;
    free(p);
    qn_solver_free(solver);
    return QN_OK;
}

void cmd_dist_release(cmd_dist *dd)
{
    qn_exact_dist_free(dd->x);
    free(dd->hist);
    memset(dd, 0, sizeof(*dd));
}

int cmd_dist_exact(const cmd_dist *dd)
{
    return dd->x || dd->d;
}

/* The count for m in decimal. */
static void count_dec(const cmd_dist *dd, size_t m, qn_buf *b)
{
    if (dd->x)
        qn_exact_dist_count(dd->x, m, b);
    else if (dd->d)
        qn_buf_addf(b, "%llu", (unsigned long long)qn_distrib_count(dd->d, m));
    else
        qn_buf_addf(b, "%llu",
                    (unsigned long long)(m < dd->len ? dd->hist[m] : 0));
}

/* Its share of the solvable states (or of the graded sample). */
static double share(const cmd_dist *dd, size_t m)
{
    if (dd->x)
        return qn_exact_dist_share(dd->x, m);
    if (dd->d)
        return (double)qn_distrib_count(dd->d, m) /
               (double)qn_distrib_total(dd->d);
    return dd->graded && m < dd->len ? (double)dd->hist[m] / (double)dd->graded
                                     : 0;
}

/* The Wilson score interval of a sampled share, 95 %. */
static void wilson(const cmd_dist *dd, size_t m, double *lo, double *hi)
{
    double n = (double)dd->graded, p = share(dd, m), z2 = Z95 * Z95;
    double c = (p + z2 / (2 * n)) / (1 + z2 / n);
    double h = Z95 * sqrt(p * (1 - p) / n + z2 / (4 * n * n)) / (1 + z2 / n);

    /* rounding must not leave the share itself outside (0 of n: lo 0) */
    *lo = c - h < 0 || !p ? 0 : c - h > p ? p : c - h;
    *hi = c + h > 1 || p == 1 ? 1 : c + h < p ? p : c + h;
}

/* The method in words, for text and the svg's legend. */
static const char *method_words(const cmd_dist *dd)
{
    if (!strcmp(dd->method, "invertible"))
        return "exact: A is invertible, each plan its own state's";
    if (!strcmp(dd->method, "kernel classes"))
        return "exact: cosets of the kernel counted by classes of cells";
    if (!strcmp(dd->method, "enumerated"))
        return "exact: every solvable state enumerated";
    return "sampled: uniform solvable states, not exact";
}

void cmd_dist_text(qn_buf *out, const cmd_dist *dd)
{
    double cum = 0;
    qn_buf b = QN_BUF_INIT;

    qn_buf_addf(out, "%-22s%s (%s)\n", "distribution method:", dd->method,
                method_words(dd));
    if (!cmd_dist_exact(dd)) {
        qn_buf_addf(out, "%-22s%s\n", "not exact because:", dd->why);
        qn_buf_addf(out,
                    "distribution (a sample of %llu uniform solvable "
                    "states from the rule's seed, %llu graded exactly):\n"
                    "  presses      sampled    share   95%% interval\n",
                    (unsigned long long)dd->drawn,
                    (unsigned long long)dd->graded);
        for (size_t m = 0; m < dd->len; m++) {
            double lo, hi;
            if (!dd->hist[m])
                continue;
            wilson(dd, m, &lo, &hi);
            qn_buf_addf(out, "  %7zu %12llu  %6.3f%%   %.3f%%..%.3f%%\n", m,
                        (unsigned long long)dd->hist[m], 100 * share(dd, m),
                        100 * lo, 100 * hi);
        }
        return;
    }
    qn_buf_adds(out, "distribution (solvable states by minimal presses):\n"
                     "  presses       states    share   cumulative\n");
    for (size_t m = 0; m < dd->len; m++) {
        qn_buf_reset(&b);
        count_dec(dd, m, &b);
        cum += share(dd, m);
        qn_buf_addf(out, "  %7zu %12s  %6.3f%%   %7.3f%%\n", m, b.buf,
                    100.0 * share(dd, m), 100.0 * (cum > 1 ? 1 : cum));
    }
    qn_buf_release(&b);
}

void cmd_dist_csv(qn_buf *out, const cmd_dist *dd)
{
    qn_buf b = QN_BUF_INIT;

    if (!cmd_dist_exact(dd)) {
        qn_buf_adds(out, "presses,sampled,share,ci95_low,ci95_high,method\n");
        for (size_t m = 0; m < dd->len; m++) {
            double lo, hi;
            wilson(dd, m, &lo, &hi);
            qn_buf_addf(out, "%zu,%llu,%.6g,%.6g,%.6g,sampled\n", m,
                        (unsigned long long)dd->hist[m], share(dd, m), lo, hi);
        }
        return;
    }
    qn_buf_adds(out, "presses,states,share,method\n");
    for (size_t m = 0; m < dd->len; m++) {
        qn_buf_reset(&b);
        count_dec(dd, m, &b);
        qn_buf_addf(out, "%zu,%s,%.6g,%s\n", m, b.buf, share(dd, m),
                    dd->method);
    }
    qn_buf_release(&b);
}

void cmd_dist_json(qn_jsonw *w, const cmd_dist *dd)
{
    qn_buf b = QN_BUF_INIT;

    qn_jsonw_key(w, "distribution_method"), qn_jsonw_str(w, dd->method);
    qn_jsonw_key(w, "distribution");
    if (!cmd_dist_exact(dd)) {
        qn_jsonw_null(w);
        qn_jsonw_key(w, "distribution_note"), qn_jsonw_str(w, dd->why);
        qn_jsonw_key(w, "distribution_sample");
        qn_jsonw_obj(w);
        qn_jsonw_key(w, "drawn"), qn_jsonw_uint(w, dd->drawn);
        qn_jsonw_key(w, "graded"), qn_jsonw_uint(w, dd->graded);
        qn_jsonw_key(w, "counts");
        qn_jsonw_arr(w);
        for (size_t m = 0; m < dd->len; m++)
            qn_jsonw_uint(w, dd->hist[m]);
        qn_jsonw_end(w);
        qn_jsonw_key(w, "ci95");
        qn_jsonw_arr(w);
        for (size_t m = 0; m < dd->len; m++) {
            double lo, hi;
            wilson(dd, m, &lo, &hi);
            qn_jsonw_arr(w);
            qn_jsonw_real(w, lo);
            qn_jsonw_real(w, hi);
            qn_jsonw_end(w);
        }
        qn_jsonw_end(w);
        qn_jsonw_end(w);
        return;
    }
    /* integers below 2^53, decimal strings from there */
    qn_jsonw_arr(w);
    for (size_t m = 0; m < dd->len; m++) {
        uint64_t v;
        qn_buf_reset(&b);
        count_dec(dd, m, &b);
        if (b.len <= 20 && !cmd_parse_u64(b.buf, &v) && v < ((uint64_t)1 << 53))
            qn_jsonw_uint(w, v);
        else
            qn_jsonw_str(w, b.buf);
    }
    qn_jsonw_end(w);
    qn_buf_release(&b);
}

int cmd_dist_plot(qn_buf *out, const cmd_dist *dd, const char *name, int png,
                  qn_err *err)
{
    qn_svg_hist h = {0};
    uint64_t *v = CLI_NEWN(dd->len + 1, uint64_t);
    double *lo = NULL, *hi = NULL;
    char title[256], label[128];
    int rc = QN_OK;

    /* the chart draws shares: an exact count of any size as its share in
     * units of 2^-52 */
    for (size_t m = 0; m < dd->len; m++)
        v[m] = cmd_dist_exact(dd)
                   ? (uint64_t)llround(share(dd, m) * 4503599627370496.0)
                   : dd->hist[m];
    if (!cmd_dist_exact(dd)) {
        lo = CLI_NEWN(dd->len + 1, double);
        hi = CLI_NEWN(dd->len + 1, double);
        for (size_t m = 0; m < dd->len; m++)
            wilson(dd, m, &lo[m], &hi[m]);
        snprintf(label, sizeof label,
                 "a sample of %llu solvable states (not exact; 95%% "
                 "intervals)",
                 (unsigned long long)dd->graded);
        h.sampled = dd->graded;
    } else {
        snprintf(label, sizeof label, "all solvable states (exact: %s)",
                 dd->method);
    }
    snprintf(title, sizeof title, "%s: solvable states by minimal presses",
             name);
    h.dist = v, h.dist_len = dd->len, h.title = title;
    h.dist_label = label, h.ci_lo = lo, h.ci_hi = hi;
    if (png)
        rc = qn_png_histogram(out, &h, err);
    else
        qn_svg_histogram(out, &h);
    free(v);
    free(lo);
    free(hi);
    return rc;
}

int cmd_write_plots(int status, const char *svg, qn_buf *a, const char *png,
                    qn_buf *b)
{
    if (status == QN_EXIT_OK && svg)
        status = cmd_write_atomic(svg, a->buf, a->len);
    if (status == QN_EXIT_OK && png)
        status = cmd_write_atomic(png, b->buf, b->len);
    qn_buf_release(a);
    qn_buf_release(b);
    return status;
}
