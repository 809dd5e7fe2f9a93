/*
 * cmd_rules_table.c: `quench rules table RULES --size ...`: the exact
 * facts of one rule's press section over a family of board sizes and
 * colour counts, one row each: the kernel over Z/k (nullity, invariant
 * factors), the number of solvable states, the symmetry group and the
 * largest least-press count where it is known without sampling, and the
 * exact chase shares of the human ladder (solve/human.h).
 */
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/buf.h"
#include "base/jsonw.h"
#include "base/mem.h"
#include "cmd.h"
#include "engine/minpress.h"
#include "engine/system.h"
#include "export/png.h"
#include "export/svg.h"
#include "generate/distrib.h"
#include "generate/distrib_exact.h"
#include "rules/layout.h"
#include "rules/rules.h"
#include "solve/human.h"
#include "solve/solver.h"

#define MAX_ROWS 4096          /* rows of one table */
#define MAX_COLOURS 64         /* entries of --colours */
#define MAX_LINES 16           /* lines of --svg's plot */
#define ENUM_STATES (1u << 23) /* enumerate the distribution up to this */

enum { FMT_TEXT, FMT_CSV, FMT_JSON };

const struct option cmd_rules_table_opts[] = {
    {"size", required_argument, NULL, 'z'},
    {"colours", required_argument, NULL, 'c'},
    {"colors", required_argument, NULL, 'c'},
    {"format", required_argument, NULL, 'f'},
    {"svg", required_argument, NULL, 'g'},
    {"png", required_argument, NULL, 'p'},
    {NULL, 0, NULL, 0}};

typedef struct span {
    int lo, hi;
} span;

/* One row: a board size and a colour count, and its facts. */
typedef struct row {
    int w, h, n;
    unsigned k;
    size_t nullity;
    unsigned *orders; /* kernel invariant factors, ascending */
    char *kernel;     /* "(Z/2)^4", "trivial" */
    char *ksize;      /* kernel size, decimal */
    char *solvable;   /* decimal */
    char *solv_fac;   /* "2^23" */
    char *symname;
    size_t nsyms;
    long long max;            /* largest least-press count, -1 unknown */
    const char *method;       /* how max is known: "invertible", "enumerated",
                                 "unknown" */
    unsigned long long bound; /* the coset bound on it */
    int human;                /* 1: sh holds the ladder's shares */
    qn_human_shares sh;       /* exact shares (known = 0: out of reach) */
} row;

/* "N" or "A..B", sides 1..max. */
static int parse_span(const char *s, size_t len, span *out, int max)
{
    char a[24], b[24];
    const char *dots = NULL;
    uint64_t lo, hi;

    for (size_t i = 0; i + 1 < len; i++)
        if (s[i] == '.' && s[i + 1] == '.') {
            dots = s + i;
            break;
        }
    if (!dots) {
        if (len == 0 || len >= sizeof a)
            return -1;
        memcpy(a, s, len), a[len] = '\0';
        if (cmd_parse_u64(a, &lo))
            return -1;
        hi = lo;
    } else {
        size_t la = (size_t)(dots - s), lb = len - la - 2;
        if (!la || !lb || la >= sizeof a || lb >= sizeof b)
            return -1;
        memcpy(a, s, la), a[la] = '\0';
        memcpy(b, dots + 2, lb), b[lb] = '\0';
        if (cmd_parse_u64(a, &lo) || cmd_parse_u64(b, &hi))
            return -1;
    }
    if (lo < 1 || hi < lo || hi > (uint64_t)max)
        return -1;
    out->lo = (int)lo, out->hi = (int)hi;
    return 0;
}

/* --size N | A..B (square boards) | W x H with W and H each N or A..B. */
static int parse_sizes(const char *arg, span *w, span *h, int *square)
{
    const char *x = strchr(arg, 'x');

    *square = !x;
    if (!x)
        return parse_span(arg, strlen(arg), w, QN_LAYOUT_MAX_SIDE)
                   ? -1
                   : (*h = *w, 0);
    if (parse_span(arg, (size_t)(x - arg), w, QN_LAYOUT_MAX_SIDE) ||
        parse_span(x + 1, strlen(x + 1), h, QN_LAYOUT_MAX_SIDE))
        return -1;
    return 0;
}

/* --colours 2,3 or 2..6 or a mix; each 2..255. */
static int parse_colours(const char *arg, unsigned *out, size_t *n)
{
    const char *p = arg;

    *n = 0;
    for (;;) {
        const char *end = strchr(p, ',');
        size_t len = end ? (size_t)(end - p) : strlen(p);
        span s;
        if (parse_span(p, len, &s, 255) || s.lo < 2)
            return -1;
        for (int k = s.lo; k <= s.hi; k++) {
            if (*n == MAX_COLOURS)
                return -1;
            out[(*n)++] = (unsigned)k;
        }
        if (!end)
            return 0;
        p = end + 1;
    }
}

static char *buf_take(qn_buf *b)
{
    char *s = cli_xstrdup(b->buf ? b->buf : "");

    qn_buf_release(b);
    return s;
}

/*
 * The largest least-press count, where it is known exactly and cheaply:
 * an invertible A gives every plan to exactly one state, so the all-(k-1)
 * plan's n (k - 1) is the largest; a small kernel is counted by its
 * classes of cells (distrib_exact.h); a small image is enumerated. Else
 * unknown: never a sample.
 */
static void row_max(row *rw, const qn_system *sys)
{
    uint64_t img;
    qn_distrib *d = NULL;
    qn_exact_dist *x = NULL;
    qn_err err = QN_ERR_INIT;

    rw->max = -1, rw->method = "unknown";
    if (!rw->nullity) {
        rw->max = (long long)rw->n * (rw->k - 1), rw->method = "invertible";
        return;
    }
    if (qn_exact_dist_compute(&x, sys, &err) == QN_OK) {
        rw->max = (long long)qn_exact_dist_len(x) - 1;
        rw->method = "kernel classes";
        qn_exact_dist_free(x);
        return;
    }
    if (err.code == QN_ENOMEM)
        cli_oom();
    if (qn_system_group_size_u64(sys, QN_IMAGE, &img) == QN_OK &&
        img <= ENUM_STATES && qn_distrib_compute(&d, sys, &err) == QN_OK) {
        rw->max = (long long)qn_distrib_len(d) - 1;
        rw->method = "enumerated";
    }
    if (err.code == QN_ENOMEM)
        cli_oom();
    qn_distrib_free(d);
}

/* The human ladder's exact shares of the row's board (human.h); g is the
 * row's solver. A ladder that cannot be built leaves rw->human 0. */
static void row_human(row *rw, const qn_solver *solver)
{
    qn_human *h = NULL;
    qn_err err = QN_ERR_INIT;

    rw->human = qn_human_new(&h, solver, &err) == QN_OK &&
                qn_human_shares_compute(h, &rw->sh, &err) == QN_OK;
    if (err.code == QN_ENOMEM)
        cli_oom();
    qn_human_free(h);
}

/* Build spec at w x h with k colours and fill rw. */
static int row_fill(row *rw, qn_rules_spec *spec, const char *source, int w,
                    int h, unsigned k, qn_err *err)
{
    qn_rules *r = NULL;
    qn_solver *solver = NULL;
    const qn_system *sys;
    qn_buf b = QN_BUF_INIT;
    int rc;
    size_t ntiers = spec->ntiers;
    int grading = spec->has_grading;

    /* tiers belong to the file's own size: a table grades nothing */
    spec->w = w, spec->h = h, spec->colours = k, spec->has_colours = 1;
    spec->ntiers = 0, spec->has_grading = 0;
    rw->w = w, rw->h = h, rw->k = k;
    rc = qn_rules_build(&r, spec, source, err);
    spec->ntiers = ntiers, spec->has_grading = grading;
    if (rc != QN_OK)
        return rc;
    rw->n = qn_rules_ncells(r);
    rc = qn_solver_new_bare(&solver, r, err);
    if (rc != QN_OK) {
        qn_err_source(err, source);
        qn_rules_free(r);
        return rc;
    }
    sys = qn_solver_system(solver);
    rw->nullity = qn_system_kernel_ngens(sys);
    rw->orders = CLI_NEWN(rw->nullity + 1, unsigned);
    for (size_t i = 0; i < rw->nullity; i++)
        rw->orders[i] = qn_system_kernel_order(sys, i);
    cmd_kernel_group(&b, sys);
    rw->kernel = buf_take(&b);
    qn_system_group_size(sys, QN_KERNEL, &b);
    rw->ksize = buf_take(&b);
    qn_system_group_size(sys, QN_IMAGE, &b);
    rw->solvable = buf_take(&b);
    qn_system_group_factors(sys, QN_IMAGE, &b);
    rw->solv_fac = buf_take(&b);
    rw->symname = cli_xstrdup(qn_rules_symmetry_name(r));
    rw->nsyms = qn_rules_nsyms(r);
    rw->bound = qn_minpress_bound(sys);
    row_max(rw, sys);
    row_human(rw, solver);
    qn_solver_free(solver);
    qn_rules_free(r);
    return QN_OK;
}

static void row_release(row *rw)
{
    free(rw->orders);
    free(rw->kernel);
    free(rw->ksize);
    free(rw->solvable);
    free(rw->solv_fac);
    free(rw->symname);
}

/* A count short enough to read as digits, else its prime powers. */
static const char *short_count(const row *rw)
{
    return strlen(rw->solvable) <= 20 ? rw->solvable : rw->solv_fac;
}

/* A chase share for the text table: its fraction, or when that is longer
 * than 12 characters its percentage (csv and json: always the fraction);
 * "n/a" out of exact reach. */
static void share_short(char *buf, size_t size, const row *rw,
                        const qn_human_share *s)
{
    if (!rw->human || !s->known) {
        snprintf(buf, size, "n/a");
        return;
    }
    cmd_human_share_text(buf, size, s);
    if (strlen(buf) > 12)
        snprintf(buf, size, "%.4g%%", 100.0 * (double)s->num / (double)s->den);
}

/* The first side's table size for the text table: "-" without a chase
 * from the top, "n/a" out of exact reach. */
static void patterns_short(char *buf, size_t size, const row *rw)
{
    if (rw->human && !rw->sh.has_table)
        snprintf(buf, size, "-");
    else if (!rw->human || !rw->sh.table_known)
        snprintf(buf, size, "n/a");
    else
        snprintf(buf, size, "%llu", (unsigned long long)rw->sh.table_patterns);
}

static void text_table(qn_buf *out, const char *name, const row *rows, size_t n)
{
    int na = 0;

    qn_buf_addf(out,
                "rule %s: kernel, solvable states, symmetry, the share of "
                "solvable states one chase clears and the largest "
                "least-press count by board size and colours\n",
                name);
    qn_buf_addf(
        out, "%-9s %7s %6s %7s  %-24s %-22s %-16s %-12s %-12s %-15s %s\n",
        "size", "colours", "cells", "nullity", "kernel", "solvable states",
        "symmetry", "chase top", "chase any", "table", "max presses");
    for (size_t i = 0; i < n; i++) {
        const row *rw = &rows[i];
        char size[32], max[64], top[64], any[64], pat[32];
        snprintf(size, sizeof size, "%dx%d", rw->w, rw->h);
        if (rw->max >= 0)
            snprintf(max, sizeof max, "%lld (%s)", rw->max, rw->method);
        else
            snprintf(max, sizeof max, "unknown (at most %llu)", rw->bound);
        share_short(top, sizeof top, rw, &rw->sh.top);
        share_short(any, sizeof any, rw, &rw->sh.any);
        patterns_short(pat, sizeof pat, rw);
        qn_buf_addf(out,
                    "%-9s %7u %6d %7zu  %-24s %-22s %-16s %-12s %-12s %-15s "
                    "%s\n",
                    size, rw->k, rw->n, rw->nullity, rw->kernel,
                    short_count(rw), rw->symname, top, any, pat, max);
        na |= !strcmp(top, "n/a") || !strcmp(any, "n/a") || !strcmp(pat, "n/a");
    }
    if (na)
        qn_buf_adds(out, "n/a: out of exact reach (a figure of the share "
                         "passes 64 bits)\n");
}

/* An exact share, empty out of reach. */
static void csv_share(qn_buf *out, const row *rw, const qn_human_share *s)
{
    char buf[64];

    if (rw->human && s->known) {
        cmd_human_share_text(buf, sizeof buf, s);
        qn_buf_adds(out, buf);
    }
}

static void csv_table(qn_buf *out, const row *rows, size_t n)
{
    qn_buf_adds(out, "width,height,cells,colours,nullity,kernel_invariants,"
                     "kernel_size,kernel,solvable_states,symmetry,"
                     "symmetry_order,max_presses,max_method,press_bound,"
                     "chase_share_top,chase_share_any,table_patterns\n");
    for (size_t i = 0; i < n; i++) {
        const row *rw = &rows[i];
        qn_buf_addf(out, "%d,%d,%d,%u,%zu,", rw->w, rw->h, rw->n, rw->k,
                    rw->nullity);
        for (size_t j = 0; j < rw->nullity; j++)
            qn_buf_addf(out, "%s%u", j ? " " : "", rw->orders[j]);
        qn_buf_addf(out, ",%s,%s,%s,\"%s\",%zu,", rw->ksize, rw->kernel,
                    rw->solvable, rw->symname, rw->nsyms);
        if (rw->max >= 0)
            qn_buf_addf(out, "%lld", rw->max);
        qn_buf_addf(out, ",%s,%llu,", rw->method, rw->bound);
        csv_share(out, rw, &rw->sh.top);
        qn_buf_addc(out, ',');
        csv_share(out, rw, &rw->sh.any);
        qn_buf_addc(out, ',');
        if (rw->human && rw->sh.has_table && rw->sh.table_known)
            qn_buf_addf(out, "%llu", (unsigned long long)rw->sh.table_patterns);
        qn_buf_addc(out, '\n');
    }
}

/* A decimal count: a JSON integer below 2^53, else a string. */
static void json_count(qn_jsonw *w, const char *dec)
{
    uint64_t v;

    if (strlen(dec) <= 20 && !cmd_parse_u64(dec, &v) && v < ((uint64_t)1 << 53))
        qn_jsonw_uint(w, v);
    else
        qn_jsonw_str(w, dec);
}

/* A share as rules show writes it: "num/den", null out of reach. */
static void json_share(qn_jsonw *w, const row *rw, const qn_human_share *s)
{
    char buf[64];

    if (rw->human && s->known) {
        cmd_human_share_text(buf, sizeof buf, s);
        qn_jsonw_str(w, buf);
    } else {
        qn_jsonw_null(w);
    }
}

/* "human": rules show's object, without the list of sides. */
static void json_human(qn_jsonw *w, const row *rw)
{
    qn_jsonw_key(w, "human");
    qn_jsonw_obj(w);
    qn_jsonw_key(w, "chase_share_top"), json_share(w, rw, &rw->sh.top);
    qn_jsonw_key(w, "chase_share_any"), json_share(w, rw, &rw->sh.any);
    qn_jsonw_key(w, "table_patterns");
    if (rw->human && rw->sh.has_table && rw->sh.table_known)
        qn_jsonw_uint(w, rw->sh.table_patterns);
    else
        qn_jsonw_null(w);
    qn_jsonw_end(w);
}

static void json_table(qn_buf *out, const char *name, const row *rows, size_t n)
{
    qn_jsonw w;

    qn_jsonw_init(&w, out);
    qn_jsonw_obj(&w);
    qn_jsonw_key(&w, "rule"), qn_jsonw_str(&w, name);
    qn_jsonw_key(&w, "rows");
    qn_jsonw_arr(&w);
    for (size_t i = 0; i < n; i++) {
        const row *rw = &rows[i];
        qn_jsonw_obj(&w);
        qn_jsonw_key(&w, "width"), qn_jsonw_int(&w, rw->w);
        qn_jsonw_key(&w, "height"), qn_jsonw_int(&w, rw->h);
        qn_jsonw_key(&w, "cells"), qn_jsonw_int(&w, rw->n);
        qn_jsonw_key(&w, "colours"), qn_jsonw_uint(&w, rw->k);
        qn_jsonw_key(&w, "nullity"), qn_jsonw_uint(&w, rw->nullity);
        qn_jsonw_key(&w, "kernel_invariants");
        qn_jsonw_arr(&w);
        for (size_t j = 0; j < rw->nullity; j++)
            qn_jsonw_uint(&w, rw->orders[j]);
        qn_jsonw_end(&w);
        qn_jsonw_key(&w, "kernel_size"), json_count(&w, rw->ksize);
        qn_jsonw_key(&w, "kernel"), qn_jsonw_str(&w, rw->kernel);
        qn_jsonw_key(&w, "solvable_states"), json_count(&w, rw->solvable);
        qn_jsonw_key(&w, "symmetry_group");
        qn_jsonw_obj(&w);
        qn_jsonw_key(&w, "name"), qn_jsonw_str(&w, rw->symname);
        qn_jsonw_key(&w, "order"), qn_jsonw_uint(&w, rw->nsyms);
        qn_jsonw_end(&w);
        qn_jsonw_key(&w, "max_presses");
        if (rw->max >= 0)
            qn_jsonw_int(&w, rw->max);
        else
            qn_jsonw_null(&w);
        qn_jsonw_key(&w, "max_method"), qn_jsonw_str(&w, rw->method);
        qn_jsonw_key(&w, "press_bound"), qn_jsonw_uint(&w, rw->bound);
        json_human(&w, rw);
        qn_jsonw_end(&w);
    }
    qn_jsonw_end(&w);
    qn_jsonw_end(&w);
    qn_buf_addc(out, '\n');
}

/*
 * --svg and --png: the nullity against the board's side (square boards)
 * or width, one line per colour count (and height), drawn as svg into
 * svg_out and as png into png_out (either may be NULL). Returns QN_OK,
 * -1 when the table has more lines than MAX_LINES, or the error of
 * qn_png_lines.
 */
static int plot(qn_buf *svg_out, qn_buf *png_out, const char *name,
                const row *rows, size_t n, int square, qn_err *err)
{
    qn_svg_series ser[MAX_LINES];
    double *xs = CLI_NEWN(n + 1, double), *ys = CLI_NEWN(n + 1, double);
    char labels[MAX_LINES][48], title[160];
    size_t ns = 0, used = 0;
    qn_svg_plot p;
    int rc = QN_OK;

    /* rows come by width, then height, then colours: gather each line's */
    for (size_t i = 0; i < n; i++) {
        size_t j;
        for (j = 0; j < i; j++)
            if (rows[j].k == rows[i].k && (square || rows[j].h == rows[i].h))
                break;
        if (j < i)
            continue; /* its line was drawn from its first row */
        if (ns == MAX_LINES) {
            free(xs), free(ys);
            return -1;
        }
        if (square)
            snprintf(labels[ns], sizeof labels[ns], "%u colours", rows[i].k);
        else
            snprintf(labels[ns], sizeof labels[ns], "%u colours, height %d",
                     rows[i].k, rows[i].h);
        ser[ns].label = labels[ns];
        ser[ns].x = xs + used, ser[ns].y = ys + used, ser[ns].n = 0;
        for (j = i; j < n; j++)
            if (rows[j].k == rows[i].k && (square || rows[j].h == rows[i].h)) {
                xs[used] = rows[j].w, ys[used++] = (double)rows[j].nullity;
                ser[ns].n++;
            }
        ns++;
    }
    snprintf(title, sizeof title, "%s: nullity of the press matrix", name);
    memset(&p, 0, sizeof(p));
    p.title = title;
    p.xlabel = square ? "board side n (n x n)" : "board width";
    p.ylabel = "nullity over Z/k";
    p.series = ser, p.nseries = ns;
    if (svg_out)
        qn_svg_lines(svg_out, &p);
    if (png_out)
        rc = qn_png_lines(png_out, &p, err);
    free(xs), free(ys);
    return rc;
}

/* Draw the asked pictures, then write each atomically: a drawing error
 * or a refused plot leaves no file. */
static int write_plots(const cli_ctx *ctx, const char *name, const row *rows,
                       size_t n, int square, const char *svg, const char *png)
{
    qn_buf a = QN_BUF_INIT, b = QN_BUF_INIT;
    qn_err err = QN_ERR_INIT;
    int rc, status = QN_EXIT_OK;

    rc = plot(svg ? &a : NULL, png ? &b : NULL, name, rows, n, square, &err);
    if (rc == -1)
        status = cli_usage_error("rules table: --%s draws at most %d lines "
                                 "(colour counts times heights)",
                                 svg ? "svg" : "png", MAX_LINES);
    else if (rc != QN_OK)
        status = cli_report(ctx, &err);
    return cmd_write_plots(status, svg, &a, png, &b);
}

/* Every row, in order (sizes, then colours); nothing printed on error. */
static int table_rows(const cli_ctx *ctx, qn_rules_spec *spec, const char *path,
                      span sw, span sh, int square, const unsigned *ks,
                      size_t nk, row **rows_out, size_t *n_out)
{
    const char *source = strcmp(path, "-") ? path : "<stdin>";
    size_t nsizes =
        square ? (size_t)(sw.hi - sw.lo + 1)
               : (size_t)(sw.hi - sw.lo + 1) * (size_t)(sh.hi - sh.lo + 1);
    size_t n = 0;
    row *rows;
    qn_err err = QN_ERR_INIT;

    if (nsizes * nk > MAX_ROWS)
        return cli_usage_error("rules table: %zu rows asked, at most %d",
                               nsizes * nk, MAX_ROWS);
    /* the largest board first: refused before any row is computed */
    if ((long)sw.hi * (square ? sw.hi : sh.hi) > QN_RULES_MAX_CELLS)
        return cli_usage_error("rules table: a %dx%d board has more than %d "
                               "cells (the dense model)",
                               sw.hi, square ? sw.hi : sh.hi,
                               QN_RULES_MAX_CELLS);
    rows = CLI_NEWN(nsizes * nk, row);
    memset(rows, 0, nsizes * nk * sizeof(*rows));
    for (int w = sw.lo; w <= sw.hi; w++)
        for (int h = square ? w : sh.lo; h <= (square ? w : sh.hi); h++) {
            for (size_t j = 0; j < nk; j++) {
                if (row_fill(&rows[n++], spec, source, w, h, ks[j], &err) ==
                    QN_OK)
                    continue;
                for (size_t i = 0; i < n; i++)
                    row_release(&rows[i]);
                free(rows);
                return cli_report(ctx, &err);
            }
        }
    *rows_out = rows, *n_out = n;
    return QN_EXIT_OK;
}

int cmd_rules_table(int argc, char **argv, cli_ctx *ctx)
{
    int c, fmt = FMT_TEXT, have_size = 0, square = 1, status;
    const char *svg = NULL, *png = NULL;
    span sw = {0, 0}, sh = {0, 0};
    unsigned ks[MAX_COLOURS];
    size_t nk = 0, nrows = 0;
    qn_rules_spec spec;
    qn_err err = QN_ERR_INIT;
    qn_buf out = QN_BUF_INIT;
    row *rows = NULL;

    optind = 1;
    opterr = 0;
    while ((c = getopt_long(argc, argv, "", cmd_rules_table_opts, NULL)) !=
           -1) {
        if (c == 'z' && parse_sizes(optarg, &sw, &sh, &square))
            return cli_usage_error("rules table: --size takes N, A..B "
                                   "(square boards) or WxH with W and H "
                                   "each N or A..B (sides 1..%d), not '%s'",
                                   QN_LAYOUT_MAX_SIDE, optarg);
        else if (c == 'z')
            have_size = 1;
        else if (c == 'c' && parse_colours(optarg, ks, &nk))
            return cli_usage_error("rules table: --colours takes a list of "
                                   "K or A..B (2..255, at most %d), not '%s'",
                                   MAX_COLOURS, optarg);
        else if (c == 'f' && !strcmp(optarg, "text"))
            fmt = FMT_TEXT;
        else if (c == 'f' && !strcmp(optarg, "csv"))
            fmt = FMT_CSV;
        else if (c == 'f' && !strcmp(optarg, "json"))
            fmt = FMT_JSON;
        else if (c == 'f')
            return cli_usage_error("rules table: --format takes text, csv or "
                                   "json, not '%s'",
                                   optarg);
        else if (c == 'g')
            svg = optarg;
        else if (c == 'p')
            png = optarg;
        else if (c != 'c')
            return cmd_bad_option("rules table", argv, cmd_rules_table_opts,
                                  NULL);
    }
    if (optind != argc - 1)
        return cli_usage_error("rules table: name exactly one FILE");
    if (!have_size)
        return cli_usage_error("rules table: --size is required (e.g. "
                               "--size 1..30)");
    qn_rules_spec_init(&spec);
    if (qn_rules_read_spec(&spec, argv[optind], &err) != QN_OK) {
        status = cli_report(ctx, &err);
        goto done;
    }
    if (!spec.has_grid) {
        qn_err_set(&err, QN_EINVAL, spec.board_mark.line, spec.board_mark.col,
                   "rules table resizes grid boards only");
        qn_err_source(&err,
                      strcmp(argv[optind], "-") ? argv[optind] : "<stdin>");
        status = cli_report(ctx, &err);
        goto done;
    }
    if (!nk)
        ks[nk++] = spec.has_colours ? (unsigned)spec.colours : 2;
    status = table_rows(ctx, &spec, argv[optind], sw, sh, square, ks, nk, &rows,
                        &nrows);
    if (status != QN_EXIT_OK)
        goto done;
    if (svg || png) {
        status = write_plots(ctx, spec.name ? spec.name : "", rows, nrows,
                             square, svg, png);
        if (status != QN_EXIT_OK)
            goto done;
    }
    if (fmt == FMT_CSV)
        csv_table(&out, rows, nrows);
    else if (fmt == FMT_JSON)
        json_table(&out, spec.name ? spec.name : "", rows, nrows);
    else
        text_table(&out, spec.name ? spec.name : "", rows, nrows);
    status = cmd_finish_out(&out);
done:
    for (size_t i = 0; i < nrows; i++)
        row_release(&rows[i]);
    free(rows);
    qn_buf_release(&out);
    qn_rules_spec_release(&spec);
    return status;
}
