/*
 * cmd_rules.c: `quench rules check` and `quench rules show`: load rule
 * files, report their errors, and print a rule's exact facts.
 */
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/buf.h"
#include "base/jsonw.h"
#include "base/mem.h"
#include "base/text.h"
#include "bigboard/grid.h"
#include "cmd.h"
#include "engine/minpress.h"
#include "engine/system.h"
#include "generate/distrib.h"
#include "generate/gen.h"
#include "rules/rules.h"

#define SAMPLE_MAX 10000000 /* --sample: states graded, at most */
/* Every label of the text report is this wide ("every state solvable: "),
 * so the values line up. */
#define LABEL 22

const char cmd_rules_usage[] =
    "usage: quench rules (check FILE... [--json] | show FILE [--json] "
    "[--matrix] [--distribution] [--sample N] [--tiers] [--format F] "
    "[--svg FILE] [--png FILE] | table FILE --size SIZES [--colours LIST] "
    "[--format F] [--svg FILE] [--png FILE])\n"
    "\n"
    "  check FILE...   load each rule file; report every error as\n"
    "                  FILE:LINE:COL: message, all of a file in file order\n"
    "                  (malformed YAML or an unknown top-level key stops).\n"
    "                  Exit 0 when all load, 65 when any is invalid, 66\n"
    "                  when one cannot be read.\n"
    "    --json        also one JSON object on stdout: {checked, failed,\n"
    "                  files: [{file, ok, name, cells, colours, big_grid,\n"
    "                  error: {message, line, column}, errors: [...],\n"
    "                  more_errors}]}\n"
    "  show FILE       the facts of one rule: cells, colours, whether A is\n"
    "                  symmetric, the kernel (quiet patterns) as a group,\n"
    "                  the number of solvable states, the board's symmetry\n"
    "                  group, the canonical content hash and the grading\n"
    "                  tiers runs use: the rule's own, else cut from the\n"
    "                  exact distribution, else from a sample drawn from\n"
    "                  the rule's own seed (tiers_source says which).\n"
    "    --json        one JSON object (stable keys: name, cells, colours,\n"
    "                  kernel_size, solvable_states, kernel_invariants,\n"
    "                  symmetric, hash)\n"
    "    --matrix      also print the press matrix (row i, column j: what\n"
    "                  pressing cell j adds to cell i)\n"
    "    --distribution  also the number of solvable states needing each\n"
    "                  minimal press count, exact where the structure\n"
    "                  allows (A invertible, a small kernel, or at most\n"
    "                  2^26 states), else sampled with 95%% intervals; the\n"
    "                  method is said. In --json as \"distribution\":\n"
    "                  [count for 0, 1, 2, ...] and \"distribution_method\"\n"
    "    --format F    text (the default), json (as --json) or csv (the\n"
    "                  distribution alone, one line per press count)\n"
    "    --svg FILE    also the distribution as an svg histogram in FILE\n"
    "    --png FILE    also the same histogram as a PNG (no text)\n"
    "    --sample N    also the exact press counts of N uniform solvable\n"
    "                  states drawn from the rule's own seed (the same on\n"
    "                  every run), and the largest: for rules too large\n"
    "                  for the exact distribution; in --json as \"sample\":\n"
    "                  {drawn, graded, max_presses, counts}\n"
    "    --tiers       only the grading tiers, one line each: NAME LO HI\n"
    "                  (for scripts and shell completion)\n"
    "  table FILE --size SIZES [--colours LIST] [--format text|csv|json]\n"
    "             [--svg FILE] [--png FILE]\n"
    "                  the rule's press section on a family of grids, one\n"
    "                  row per board size and colour count: nullity and\n"
    "                  kernel over Z/k, solvable states, symmetry group,\n"
    "                  the largest least-press count where known exactly,\n"
    "                  the exact shares of solvable states one chase\n"
    "                  clears (from the top, from any side; n/a past 64\n"
    "                  bits) and the top chase table's non-zero patterns.\n"
    "                  SIZES: N, A..B (square boards) or WxH, each side N\n"
    "                  or A..B; LIST: K or A..B, comma separated\n"
    "    --svg FILE    also a line plot of the nullity against the side\n"
    "                  (or width), a line per colour count (and height)\n"
    "    --png FILE    also the same line plot as a PNG (no text)\n"
    "  FILE may be - for standard input.\n";

enum { RULES_CHECK, RULES_SHOW, RULES_TABLE };

static const struct option check_opts[] = {{"json", no_argument, NULL, 'j'},
                                           {NULL, 0, NULL, 0}};

static const struct option show_opts[] = {
    {"json", no_argument, NULL, 'j'},
    {"matrix", no_argument, NULL, 'm'},
    {"distribution", no_argument, NULL, 'd'},
    {"sample", required_argument, NULL, 's'},
    {"tiers", no_argument, NULL, 't'},
    {"format", required_argument, NULL, 'F'},
    {"svg", required_argument, NULL, 'g'},
    {"png", required_argument, NULL, 'p'},
    {NULL, 0, NULL, 0}};

static const cmd_grammar rules_subs[] = {
    {"check", "load rule files and report every error", RULES_CHECK, check_opts,
     NULL, "rules...", NULL, NULL},
    {"show", "the facts of one rule", RULES_SHOW, show_opts, NULL, "rules",
     "format=text|json|csv svg=file png=file", NULL},
    {"table", "a rule's facts over board sizes and colours", RULES_TABLE,
     cmd_rules_table_opts, NULL, "rules",
     "format=text|csv|json svg=file png=file", NULL},
    {NULL, NULL, 0, NULL, NULL, NULL, NULL, NULL}};

const cmd_grammar cmd_rules_grammar = {.subs = rules_subs};

/* rules check: what each file gave, for --json. */
typedef struct checked {
    int json;
    qn_jsonw w;
    qn_buf out;
    long nfiles, nfailed;
} checked;

/* A big grid rule passes check when one of the grid.h methods takes it. */
static int check_grid(const cli_ctx *ctx, checked *ck, const char *path,
                      const qn_grid_rule *g, qn_err *err)
{
    qn_grid *solver = NULL;
    int rc = qn_grid_new(&solver, g, err);

    if (rc != QN_OK) {
        qn_err_source(err, path);
        return rc;
    }
    if (ck->json) {
        qn_jsonw_key(&ck->w, "ok"), qn_jsonw_bool(&ck->w, 1);
        qn_jsonw_key(&ck->w, "name"), qn_jsonw_str(&ck->w, g->name);
        qn_jsonw_key(&ck->w, "cells");
        qn_jsonw_int(&ck->w, (int64_t)g->w * g->h);
        qn_jsonw_key(&ck->w, "colours"), qn_jsonw_uint(&ck->w, g->k);
        qn_jsonw_key(&ck->w, "big_grid");
        qn_jsonw_obj(&ck->w);
        qn_jsonw_key(&ck->w, "width"), qn_jsonw_int(&ck->w, g->w);
        qn_jsonw_key(&ck->w, "height"), qn_jsonw_int(&ck->w, g->h);
        qn_jsonw_key(&ck->w, "method");
        qn_jsonw_str(&ck->w, qn_grid_method(solver));
        qn_jsonw_end(&ck->w);
    } else if (!ctx->quiet) {
        printf("%s: ok (%s, %dx%d grid, %lld %s, %u colours; beyond the "
               "dense model: solve by %s)\n",
               path, g->name, g->w, g->h, (long long)g->w * g->h,
               qn_plural((uint64_t)g->w * g->h, "cell", "cells"), g->k,
               qn_grid_method(solver));
    }
    qn_grid_free(solver);
    return QN_OK;
}

/* The JSON of one error: where and why. */
static void json_error(qn_jsonw *w, const qn_err *err)
{
    qn_jsonw_obj(w);
    qn_jsonw_key(w, "message"), qn_jsonw_str(w, err->msg);
    qn_jsonw_key(w, "line");
    if (err->line > 0)
        qn_jsonw_int(w, err->line);
    else
        qn_jsonw_null(w);
    qn_jsonw_key(w, "column");
    if (err->line > 0)
        qn_jsonw_int(w, err->col > 0 ? err->col : 1);
    else
        qn_jsonw_null(w);
    qn_jsonw_end(w);
}

/* A rule of the dense model passed: say so. */
static void dense_ok(const cli_ctx *ctx, checked *ck, const char *path,
                     const qn_rules *r)
{
    int n = qn_rules_ncells(r);

    if (ck->json) {
        qn_jsonw_key(&ck->w, "ok"), qn_jsonw_bool(&ck->w, 1);
        qn_jsonw_key(&ck->w, "name"), qn_jsonw_str(&ck->w, qn_rules_name(r));
        qn_jsonw_key(&ck->w, "cells"), qn_jsonw_int(&ck->w, n);
        qn_jsonw_key(&ck->w, "colours");
        qn_jsonw_uint(&ck->w, qn_rules_colours(r));
        qn_jsonw_key(&ck->w, "big_grid"), qn_jsonw_null(&ck->w);
    } else if (!ctx->quiet) {
        printf("%s: ok (%s, %d %s, %u colours)\n", path, qn_rules_name(r), n,
               qn_plural((uint64_t)n, "cell", "cells"), qn_rules_colours(r));
    }
}

/* One file: loaded and reported; 0, or the exit status of its error. */
static int check_one(const cli_ctx *ctx, checked *ck, const char *path)
{
    qn_err err = QN_ERR_INIT;
    qn_rules_errs all = {0};
    qn_rules *r = NULL;
    qn_grid_rule g;
    int rc, ex = QN_EXIT_OK;

    if (ck->json) {
        qn_jsonw_obj(&ck->w);
        qn_jsonw_key(&ck->w, "file"), qn_jsonw_str(&ck->w, path);
    }
    /* every error the file's reading can tell apart, in file order */
    rc = qn_rules_load_sized_all(&r, &g, path, 0, 0, &all, &err);
    if (rc == QN_OK && !r)
        rc = check_grid(ctx, ck, path, &g, &err);
    else if (rc == QN_OK)
        dense_ok(ctx, ck, path, r);
    qn_grid_rule_release(&g);
    qn_rules_free(r);
    if (rc != QN_OK && !all.n && qn_rules_errs_add(&all, &err) != QN_OK)
        cli_oom(); /* grid solver errors come alone */
    if (rc != QN_OK) {
        ck->nfailed++;
        for (size_t i = 0; i < all.n; i++) {
            int e = cli_report(ctx, &all.e[i]);
            if (!i)
                ex = e; /* the first error's status, as before */
        }
        if (all.more)
            fprintf(stderr, "%s: ... and %zu more %s\n", path, all.more,
                    qn_plural(all.more, "error", "errors"));
        if (ck->json) {
            qn_jsonw_key(&ck->w, "ok"), qn_jsonw_bool(&ck->w, 0);
            qn_jsonw_key(&ck->w, "error");
            json_error(&ck->w, &all.e[0]);
            qn_jsonw_key(&ck->w, "errors");
            qn_jsonw_arr(&ck->w);
            for (size_t i = 0; i < all.n; i++)
                json_error(&ck->w, &all.e[i]);
            qn_jsonw_end(&ck->w);
            qn_jsonw_key(&ck->w, "more_errors");
            qn_jsonw_uint(&ck->w, all.more);
        }
    }
    qn_rules_errs_release(&all);
    if (ck->json)
        qn_jsonw_end(&ck->w);
    return ex;
}

static int rules_check(int argc, char **argv, cli_ctx *ctx)
{
    int status = QN_EXIT_OK, c;
    checked ck;

    memset(&ck, 0, sizeof(ck));
    optind = 1;
    opterr = 0;
    while ((c = getopt_long(argc, argv, "", check_opts, NULL)) != -1) {
        if (c != 'j')
            return cmd_bad_option("rules check", argv, check_opts, NULL);
        ck.json = 1;
    }
    if (optind >= argc)
        return cli_usage_error("rules check: name at least one FILE");
    qn_buf_init(&ck.out);
    qn_jsonw_init(&ck.w, &ck.out);
    if (ck.json) {
        qn_jsonw_obj(&ck.w);
        qn_jsonw_key(&ck.w, "files");
        qn_jsonw_arr(&ck.w);
    }
    for (int i = optind; i < argc; i++) {
        int ex = check_one(ctx, &ck, argv[i]);
        ck.nfiles++;
        /* data errors outrank unreadable files in the final status */
        if (ex && status != QN_EXIT_DATAERR)
            status = ex;
    }
    if (ck.json) {
        int st;
        qn_jsonw_end(&ck.w);
        qn_jsonw_key(&ck.w, "checked"), qn_jsonw_int(&ck.w, ck.nfiles);
        qn_jsonw_key(&ck.w, "failed"), qn_jsonw_int(&ck.w, ck.nfailed);
        qn_jsonw_end(&ck.w);
        qn_buf_addc(&ck.out, '\n');
        if ((st = cmd_finish_out(&ck.out)) != QN_EXIT_OK)
            status = st;
    }
    qn_buf_release(&ck.out);
    return status;
}

/* Ascending kernel orders, e.g. [2, 2, 8, 8]. */
static void add_invariants(qn_buf *b, const qn_system *sys, int cokernel)
{
    size_t n =
        cokernel ? qn_system_cokernel_ngens(sys) : qn_system_kernel_ngens(sys);

    qn_buf_addc(b, '[');
    for (size_t i = 0; i < n; i++)
        qn_buf_addf(b, "%s%u", i ? ", " : "",
                    cokernel ? qn_system_cokernel_order(sys, i)
                             : qn_system_kernel_order(sys, i));
    qn_buf_addc(b, ']');
}

/* A group size for JSON: an integer below 2^53, else a decimal string. */
static void json_size(qn_jsonw *w, const qn_system *sys, enum qn_system_group g)
{
    qn_buf b = QN_BUF_INIT;
    uint64_t v;

    if (qn_system_group_size_u64(sys, g, &v) == QN_OK &&
        v < ((uint64_t)1 << 53)) {
        qn_jsonw_uint(w, v);
        return;
    }
    qn_system_group_size(sys, g, &b);
    qn_jsonw_str(w, b.buf);
    qn_buf_release(&b);
}

static void json_orders(qn_jsonw *w, const qn_system *sys, int cokernel)
{
    size_t n =
        cokernel ? qn_system_cokernel_ngens(sys) : qn_system_kernel_ngens(sys);

    qn_jsonw_arr(w);
    for (size_t i = 0; i < n; i++)
        qn_jsonw_uint(w, cokernel ? qn_system_cokernel_order(sys, i)
                                  : qn_system_kernel_order(sys, i));
    qn_jsonw_end(w);
}

static void board_text(qn_buf *b, const qn_layout *l)
{
    static const char *wraps[4] = {"", ", wrap x (cylinder)",
                                   ", wrap y (cylinder)", ", torus"};

    switch (l->kind) {
    case QN_LAYOUT_GRAPH:
        qn_buf_addf(b, "graph of %d cells", l->ncells);
        return;
    case QN_LAYOUT_HEXAGON:
        qn_buf_addf(b, "hexagon of side %d (%d cells)", l->side, l->ncells);
        return;
    default:
        qn_buf_addf(b, "%s %d x %d (%d cells%s%s)",
                    qn_layout_kind_name(l->kind), l->w, l->h, l->ncells,
                    l->ncells < l->w * l->h ? ", masked" : "",
                    wraps[l->wrap & 3]);
    }
}

/* The grading tiers a run uses (always shown), what --distribution adds
 * (the exact histogram, or why not) and what --sample N adds (the exact
 * press counts of N uniform states drawn from the rule's own seed). */
typedef struct dist_info {
    int wanted;
    const cli_ctx *say; /* say first when the tiers take long (NULL: no) */
    double after;       /* ... this long or more (cmd_estimate_after) */
    qn_distrib *d;      /* NULL when not computed */
    qn_err err;         /* why not */
    qn_tiers tiers;
    const char *source; /* "rule", "distribution", "sample" or "none" */
    size_t nsample;     /* --sample N, or 0 */
    uint64_t *sample;   /* the graded ones' press counts */
    size_t ngraded;
    cmd_dist dist; /* --distribution, by the best method */
} dist_info;

static int dist_info_init(dist_info *di, const qn_rules *r, qn_err *err)
{
    qn_solver *solver = NULL;
    int rc = qn_solver_new(&solver, r, err);

    if (rc != QN_OK)
        return rc;
    if ((di->wanted || !qn_rules_ntiers(r)) &&
        qn_distrib_compute(&di->d, qn_solver_system(solver), &di->err) != QN_OK)
        di->d = NULL;
    if (di->err.code == QN_ENOMEM)
        cli_oom();
    if (di->say)
        cmd_say_tiers_wait(di->say, solver, di->d, di->after);
    if (!(di->source = qn_gen_tiers(solver, di->d, &di->tiers)))
        cli_oom();
    if (!di->tiers.n)
        di->source = "none"; /* no state could be graded exactly */
    if (di->nsample) {
        qn_seed seed;
        di->sample = CLI_NEWN(di->nsample, uint64_t);
        qn_gen_rule_seed(solver, &seed);
        if (qn_gen_sample_presses(solver, &seed, di->sample, di->nsample,
                                  &di->ngraded) != QN_OK)
            cli_oom();
    }
    qn_solver_free(solver);
    return QN_OK;
}

int cmd_rule_tiers(const char *path, qn_tiers *out)
{
    qn_err err = QN_ERR_INIT;
    qn_rules *r = NULL;
    dist_info di;
    int rc;

    memset(&di, 0, sizeof(di));
    memset(out, 0, sizeof(*out));
    if ((rc = qn_rules_load_file(&r, path, &err)) == QN_OK &&
        (rc = dist_info_init(&di, r, &err)) == QN_OK)
        *out = di.tiers;
    qn_distrib_free(di.d);
    qn_rules_free(r);
    return rc;
}

/* The sample as a histogram: hist[m] for m <= *max. Caller frees. */
static uint64_t *sample_hist(const dist_info *di, uint64_t *max)
{
    uint64_t *hist;

    *max = 0;
    for (size_t i = 0; i < di->ngraded; i++)
        if (di->sample[i] > *max)
            *max = di->sample[i];
    hist = CLI_NEWN((size_t)*max + 1, uint64_t);
    for (size_t i = 0; i < di->ngraded; i++)
        hist[di->sample[i]]++;
    return hist;
}

static void json_tiers(qn_jsonw *w, const dist_info *di)
{
    qn_jsonw_key(w, "tiers_source"), qn_jsonw_str(w, di->source);
    qn_jsonw_key(w, "tiers");
    qn_jsonw_arr(w);
    for (size_t i = 0; i < di->tiers.n; i++) {
        qn_jsonw_obj(w);
        qn_jsonw_key(w, "name"), qn_jsonw_str(w, di->tiers.name[i]);
        qn_jsonw_key(w, "lo"), qn_jsonw_uint(w, di->tiers.lo[i]);
        qn_jsonw_key(w, "hi"), qn_jsonw_uint(w, di->tiers.hi[i]);
        qn_jsonw_end(w);
    }
    qn_jsonw_end(w);
}

static void json_distribution(qn_jsonw *w, const dist_info *di)
{
    uint64_t max, *hist;

    if (di->wanted)
        cmd_dist_json(w, &di->dist);
    if (!di->nsample)
        return;
    hist = sample_hist(di, &max);
    qn_jsonw_key(w, "sample");
    qn_jsonw_obj(w);
    qn_jsonw_key(w, "drawn"), qn_jsonw_uint(w, di->nsample);
    qn_jsonw_key(w, "graded"), qn_jsonw_uint(w, di->ngraded);
    qn_jsonw_key(w, "max_presses"), qn_jsonw_uint(w, max);
    qn_jsonw_key(w, "counts");
    qn_jsonw_arr(w);
    for (uint64_t m = 0; m <= max && di->ngraded; m++)
        qn_jsonw_uint(w, hist[m]);
    qn_jsonw_end(w);
    qn_jsonw_end(w);
    free(hist);
}

static void label(qn_buf *out, const char *name)
{
    qn_buf_addf(out, "%-*s", LABEL, name);
}

static void text_tiers(qn_buf *out, const dist_info *di)
{
    static const char *const from[][2] = {
        {"rule", "the rule's own"},
        {"distribution", "cut from the exact distribution"},
        {"sample", "cut from a sample of the rule's seed"}};

    label(out, "grading tiers:");
    for (size_t i = 0; i < di->tiers.n; i++)
        qn_buf_addf(out, "%s%s %llu-%llu", i ? ", " : "", di->tiers.name[i],
                    (unsigned long long)di->tiers.lo[i],
                    (unsigned long long)di->tiers.hi[i]);
    if (!di->tiers.n)
        qn_buf_adds(out, "none");
    for (size_t i = 0; i < sizeof(from) / sizeof(*from); i++)
        if (!strcmp(di->source, from[i][0]))
            qn_buf_addf(out, " (%s)", from[i][1]);
    qn_buf_addc(out, '\n');
}

/* A table row: count, share and cumulative share of a total. */
static void text_row(qn_buf *out, uint64_t m, uint64_t c, uint64_t cum,
                     uint64_t total)
{
    qn_buf_addf(out, "  %7llu %12llu  %6.3f%%   %7.3f%%\n",
                (unsigned long long)m, (unsigned long long)c,
                100.0 * (double)c / (double)total,
                100.0 * (double)cum / (double)total);
}

/* --sample: a table of the sampled press counts and the largest one. */
static void text_sample(qn_buf *out, const dist_info *di)
{
    uint64_t max, cum = 0, *hist = sample_hist(di, &max);

    qn_buf_addf(out,
                "sample (%zu uniform solvable states from the rule's "
                "seed, %zu graded exactly):\n"
                "  presses       states    share   cumulative\n",
                di->nsample, di->ngraded);
    for (uint64_t m = 0; m <= max && di->ngraded; m++) {
        cum += hist[m];
        if (hist[m])
            text_row(out, m, hist[m], cum, di->ngraded);
    }
    qn_buf_addf(out, "largest sampled press count: %llu\n",
                (unsigned long long)max);
    free(hist);
}

static void show_json(qn_buf *out, const qn_rules *r, const qn_system *sys,
                      int matrix, const dist_info *di)
{
    const qn_layout *l = qn_rules_layout(r);
    char hash[65];
    qn_jsonw w;
    int n = qn_rules_ncells(r);

    qn_rules_hash(r, hash);
    qn_jsonw_init(&w, out);
    qn_jsonw_obj(&w);
    qn_jsonw_key(&w, "name"), qn_jsonw_str(&w, qn_rules_name(r));
    qn_jsonw_key(&w, "title"), qn_jsonw_str(&w, qn_rules_title(r));
    qn_jsonw_key(&w, "cells"), qn_jsonw_int(&w, n);
    qn_jsonw_key(&w, "colours"), qn_jsonw_uint(&w, qn_rules_colours(r));
    qn_jsonw_key(&w, "board");
    qn_jsonw_obj(&w);
    qn_jsonw_key(&w, "kind"), qn_jsonw_str(&w, qn_layout_kind_name(l->kind));
    qn_jsonw_key(&w, "width"), qn_jsonw_int(&w, l->w);
    qn_jsonw_key(&w, "height"), qn_jsonw_int(&w, l->h);
    qn_jsonw_key(&w, "wrap_x"), qn_jsonw_bool(&w, l->wrap & QN_WRAP_X);
    qn_jsonw_key(&w, "wrap_y"), qn_jsonw_bool(&w, l->wrap & QN_WRAP_Y);
    qn_jsonw_end(&w);
    qn_jsonw_key(&w, "symmetric"), qn_jsonw_bool(&w, qn_rules_is_symmetric(r));
    qn_jsonw_key(&w, "kernel_size"), json_size(&w, sys, QN_KERNEL);
    qn_jsonw_key(&w, "kernel_invariants"), json_orders(&w, sys, 0);
    qn_jsonw_key(&w, "solvable_states"), json_size(&w, sys, QN_IMAGE);
    qn_jsonw_key(&w, "all_solvable");
    qn_jsonw_bool(&w, qn_system_cokernel_ngens(sys) == 0);
    qn_jsonw_key(&w, "cokernel_invariants"), json_orders(&w, sys, 1);
    qn_jsonw_key(&w, "symmetry_group");
    qn_jsonw_obj(&w);
    qn_jsonw_key(&w, "name"), qn_jsonw_str(&w, qn_rules_symmetry_name(r));
    qn_jsonw_key(&w, "order"), qn_jsonw_uint(&w, qn_rules_nsyms(r));
    qn_jsonw_end(&w);
    qn_jsonw_key(&w, "hash"), qn_jsonw_str(&w, hash);
    qn_jsonw_key(&w, "press_bound"), qn_jsonw_uint(&w, qn_minpress_bound(sys));
    json_tiers(&w, di);
    json_distribution(&w, di);
    cmd_rules_human_json(&w, r);
    if (matrix) {
        const uint8_t *a = qn_rules_matrix(r);
        qn_jsonw_key(&w, "matrix");
        qn_jsonw_arr(&w);
        for (int i = 0; i < n; i++) {
            qn_jsonw_arr(&w);
            for (int j = 0; j < n; j++)
                qn_jsonw_uint(&w, a[(size_t)i * n + j]);
            qn_jsonw_end(&w);
        }
        qn_jsonw_end(&w);
    }
    qn_jsonw_end(&w);
    qn_buf_addc(out, '\n');
}

/* A decimal this long is still read at a glance; past it, the power. */
#define MAX_DIGITS 20

/* "8388608 = 2^23": the exact size (up to MAX_DIGITS digits) and its
 * factors when they say more; "2^200" for a longer one. */
static void show_size(qn_buf *out, const qn_system *sys, enum qn_system_group g)
{
    qn_buf dec = QN_BUF_INIT, fac = QN_BUF_INIT;

    qn_system_group_size(sys, g, &dec);
    qn_system_group_factors(sys, g, &fac);
    if (dec.len <= MAX_DIGITS)
        qn_buf_adds(out, dec.buf);
    if (dec.len <= MAX_DIGITS && strcmp(dec.buf, fac.buf))
        qn_buf_adds(out, " = ");
    if (dec.len > MAX_DIGITS || strcmp(dec.buf, fac.buf))
        qn_buf_adds(out, fac.buf);
    qn_buf_release(&dec);
    qn_buf_release(&fac);
}

/* All k^n states: "2^25", or "8^6 = 2^18" and "6^4 = 2^4 x 3^4" when k
 * is not prime, so the count of solvable ones (factored the same way)
 * compares at a glance. */
static void all_states(qn_buf *out, unsigned k, int n)
{
    unsigned m = k;
    int first = 1;

    qn_buf_addf(out, "%u^%d", k, n);
    for (unsigned p = 2; p <= m; p++) {
        int e = 0;
        while (m % p == 0)
            m /= p, e++;
        if (!e)
            continue;
        if (first && m == 1 && e == 1)
            return; /* k is prime: k^n says it */
        qn_buf_adds(out, first ? " = " : " x ");
        first = 0;
        qn_buf_addf(out, "%u", p);
        if ((long)e * n > 1)
            qn_buf_addf(out, "^%ld", (long)e * n);
    }
}

/* " = 512": the image's size in decimal, when it is short. */
static void add_decimal(qn_buf *out, const qn_system *sys)
{
    qn_buf dec = QN_BUF_INIT;

    qn_system_group_size(sys, QN_IMAGE, &dec);
    if (dec.len <= MAX_DIGITS)
        qn_buf_addf(out, " = %s", dec.buf);
    qn_buf_release(&dec);
}

static void text_group(qn_buf *out, const qn_system *sys, unsigned k, int n)
{
    int all = qn_system_cokernel_ngens(sys) == 0;

    label(out, "kernel:");
    show_size(out, sys, QN_KERNEL);
    qn_buf_addf(out, " quiet %s, ",
                qn_system_kernel_ngens(sys) ? "patterns" : "pattern");
    cmd_kernel_group(out, sys);
    qn_buf_addc(out, '\n');
    label(out, "kernel invariants:");
    add_invariants(out, sys, 0);
    qn_buf_addc(out, '\n');
    label(out, "solvable states:");
    if (all) {
        qn_buf_adds(out, "all ");
        all_states(out, k, n);
        add_decimal(out, sys);
    } else {
        show_size(out, sys, QN_IMAGE);
        qn_buf_adds(out, " of ");
        all_states(out, k, n);
    }
    qn_buf_addc(out, '\n');
    label(out, "every state solvable:");
    if (all) {
        qn_buf_adds(out, "yes\n");
        return;
    }
    qn_buf_adds(out, "no (");
    show_size(out, sys, QN_COKERNEL);
    qn_buf_adds(out, " classes of states, invariants ");
    add_invariants(out, sys, 1);
    qn_buf_adds(out, ")\n");
}

static void show_text(qn_buf *out, const qn_rules *r, const qn_system *sys,
                      int matrix, const dist_info *di)
{
    int n = qn_rules_ncells(r);
    unsigned k = qn_rules_colours(r);
    char hash[65];

    qn_rules_hash(r, hash);
    label(out, "name:");
    qn_buf_addf(out, "%s\n", qn_rules_name(r));
    if (*qn_rules_title(r)) {
        label(out, "title:");
        qn_buf_addf(out, "%s\n", qn_rules_title(r));
    }
    label(out, "board:");
    board_text(out, qn_rules_layout(r));
    qn_buf_addc(out, '\n');
    label(out, "cells:");
    qn_buf_addf(out, "%d\n", n);
    label(out, "colours:");
    qn_buf_addf(out, "%u\n", k);
    label(out, "symmetric matrix:");
    qn_buf_addf(out, "%s\n", qn_rules_is_symmetric(r) ? "yes" : "no");
    text_group(out, sys, k, n);
    label(out, "symmetry group:");
    qn_buf_addf(out, "%s\n", qn_rules_symmetry_name(r));
    label(out, "hash:");
    qn_buf_addf(out, "%s\n", hash);
    label(out, "press bound:");
    qn_buf_addf(out, "%llu (no solvable state needs more: the coset bound)\n",
                (unsigned long long)qn_minpress_bound(sys));
    cmd_rules_human_text(out, r, LABEL);
    if (di->wanted)
        cmd_dist_text(out, &di->dist);
    text_tiers(out, di);
    if (di->nsample)
        text_sample(out, di);
    if (matrix) {
        const uint8_t *a = qn_rules_matrix(r);
        qn_buf_adds(out, "matrix (row i: what each press adds to cell i):\n");
        for (int i = 0; i < n; i++) {
            for (int j = 0; j < n; j++)
                qn_buf_addc(out, "0123456789abcdefghijklmnopqrstuvwxyz"
                                     [a[(size_t)i * n + j] % 36]);
            qn_buf_addc(out, '\n');
        }
    }
}

/* --tiers: the tiers alone, "NAME LO HI" a line (names are slugs). */
static void tiers_text(qn_buf *out, const dist_info *di)
{
    for (size_t i = 0; i < di->tiers.n; i++)
        qn_buf_addf(out, "%s %llu %llu\n", di->tiers.name[i],
                    (unsigned long long)di->tiers.lo[i],
                    (unsigned long long)di->tiers.hi[i]);
}

/* --svg and --png: both pictures drawn before either file is written
 * (each atomically), so a drawing error leaves no file behind. */
static int show_plots(const cli_ctx *ctx, const cmd_dist *dd, const char *name,
                      const char *svg, const char *png)
{
    qn_buf a = QN_BUF_INIT, b = QN_BUF_INIT;
    qn_err err = QN_ERR_INIT;
    int status = QN_EXIT_OK;

    if (svg)
        cmd_dist_plot(&a, dd, name, 0, &err);
    if (png && cmd_dist_plot(&b, dd, name, 1, &err) != QN_OK)
        status = cli_report(ctx, &err);
    return cmd_write_plots(status, svg, &a, png, &b);
}

static int rules_show(int argc, char **argv, cli_ctx *ctx)
{
    int json = 0, matrix = 0, tiers = 0, csv = 0, c, rc, status;
    uint64_t nsample;
    const char *svg = NULL, *png = NULL;
    dist_info di;
    qn_err err = QN_ERR_INIT;
    qn_rules *r = NULL;
    qn_system *sys = NULL;
    qn_buf out = QN_BUF_INIT;

    memset(&di, 0, sizeof(di));
    optind = 1;
    opterr = 0;
    while ((c = getopt_long(argc, argv, "", show_opts, NULL)) != -1) {
        if (c == 'j')
            json = 1;
        else if (c == 't')
            tiers = 1;
        else if (c == 'm')
            matrix = 1;
        else if (c == 'd')
            di.wanted = 1;
        else if (c == 's' && (cmd_parse_u64(optarg, &nsample) || nsample < 1 ||
                              nsample > SAMPLE_MAX))
            return cli_usage_error("rules show: --sample takes 1..%d",
                                   SAMPLE_MAX);
        else if (c == 's')
            di.nsample = (size_t)nsample;
        else if (c == 'F' && !strcmp(optarg, "text"))
            json = 0, csv = 0;
        else if (c == 'F' && !strcmp(optarg, "json"))
            json = 1, csv = 0;
        else if (c == 'F' && !strcmp(optarg, "csv"))
            csv = 1, json = 0, di.wanted = 1;
        else if (c == 'F')
            return cli_usage_error("rules show: --format takes text, json or "
                                   "csv, not '%s'",
                                   optarg);
        else if (c == 'g')
            svg = optarg, di.wanted = 1;
        else if (c == 'p')
            png = optarg, di.wanted = 1;
        else
            return cmd_bad_option("rules show", argv, show_opts, NULL);
    }
    if (optind != argc - 1)
        return cli_usage_error("rules show: name exactly one FILE");
    if (tiers && (json || csv || matrix || di.wanted || di.nsample))
        return cli_usage_error("rules show: --tiers goes alone (the tiers "
                               "are in --json too)");
    if ((status = cmd_estimate_after(&di.after)) != QN_EXIT_OK)
        return status;
    di.say = ctx;
    rc = qn_rules_load_file(&r, argv[optind], &err);
    if (rc == QN_OK)
        rc = qn_system_new(&sys, qn_rules_matrix(r), qn_rules_ncells(r),
                           qn_rules_ncells(r), qn_rules_colours(r), &err);
    if (rc != QN_OK) {
        if (!err.source[0])
            qn_err_source(&err, argv[optind]);
        status = cli_report(ctx, &err);
        goto done;
    }
    if (dist_info_init(&di, r, &err) != QN_OK) {
        status = cli_report(ctx, &err);
        goto done;
    }
    if (di.wanted)
        cmd_dist_init(&di.dist, r, sys, di.d, di.nsample);
    if (svg || png) {
        status = show_plots(ctx, &di.dist, qn_rules_name(r), svg, png);
        if (status != QN_EXIT_OK)
            goto done;
    }
    if (tiers)
        tiers_text(&out, &di);
    else if (csv)
        cmd_dist_csv(&out, &di.dist);
    else if (json)
        show_json(&out, r, sys, matrix, &di);
    else
        show_text(&out, r, sys, matrix, &di);
    status = cmd_finish_out(&out);
done:
    cmd_dist_release(&di.dist);
    qn_distrib_free(di.d);
    free(di.sample);
    qn_buf_release(&out);
    qn_system_free(sys);
    qn_rules_free(r);
    return status;
}

int cmd_rules(int argc, char **argv, cli_ctx *ctx)
{
    const cmd_grammar *sub;

    if (cmd_wants_help(argc, argv, cmd_rules_usage))
        return QN_EXIT_OK;
    if (argc < 2)
        return cli_usage_error("rules: expected 'check', 'show' or 'table' "
                               "(see 'quench rules --help')");
    if (!(sub = cmd_find_sub(&cmd_rules_grammar, argv[1])))
        return cmd_bad_subcommand("rules", argv[1], &cmd_rules_grammar);
    if (sub->id == RULES_CHECK)
        return rules_check(argc - 1, argv + 1, ctx);
    if (sub->id == RULES_TABLE)
        return cmd_rules_table(argc - 1, argv + 1, ctx);
    return rules_show(argc - 1, argv + 1, ctx);
}
