/*
 * cmd_rules.c: `quench rules check` and `quench rules show`: load rule
 * files, report their errors, and print a rule's exact facts.
 */
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cmd.h"
#include "quench/buf.h"
#include "quench/distrib.h"
#include "quench/gen.h"
#include "quench/grid.h"
#include "quench/jsonw.h"
#include "quench/mem.h"
#include "quench/rules.h"
#include "quench/system.h"

#define SAMPLE_MAX 10000000 /* --sample: states graded, at most */

const char cmd_rules_usage[] =
    "usage: quench rules (check FILE... | show FILE [--json] [--matrix] "
    "[--distribution] [--sample N])\n"
    "\n"
    "  check FILE...   load each rule file; report every error as\n"
    "                  FILE:LINE:COL: message. Exit 0 when all load, 65\n"
    "                  when any is invalid, 66 when one cannot be read.\n"
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
    "    --distribution  also the exact number of solvable states needing\n"
    "                  each minimal press count (rules with at most 2^26\n"
    "                  solvable states); in --json as \"distribution\":\n"
    "                  [count for 0, 1, 2, ...]\n"
    "    --sample N    also the exact press counts of N uniform solvable\n"
    "                  states drawn from the rule's own seed (the same on\n"
    "                  every run), and the largest: for rules too large\n"
    "                  for the exact distribution; in --json as \"sample\":\n"
    "                  {drawn, graded, max_presses, counts}\n"
    "  FILE may be - for standard input.\n";

/* A big grid rule passes check when one of the grid.h methods takes it. */
static int check_grid(const char *path, const qn_grid_rule *g, qn_err *err)
{
    qn_grid *solver = NULL;
    int rc = qn_grid_new(&solver, g, err);

    if (rc != QN_OK) {
        qn_err_source(err, path);
        return rc;
    }
    printf("%s: ok (%s, %dx%d grid, %lld cells, %u colours; beyond the "
           "dense model: solve by %s)\n",
           path, g->name, g->w, g->h, (long long)g->w * g->h, g->k,
           qn_grid_method(solver));
    qn_grid_free(solver);
    return QN_OK;
}

static int rules_check(int argc, char **argv, qn_ctx *ctx)
{
    int status = QN_EXIT_OK;

    if (argc < 1)
        return qn_usage_error("rules check: name at least one FILE");
    for (int i = 0; i < argc; i++) {
        qn_err err = QN_ERR_INIT;
        qn_rules *r;
        qn_grid_rule g;
        int rc = qn_rules_load_sized(&r, &g, argv[i], 0, 0, &err);

        if (rc == QN_OK && !r)
            rc = check_grid(argv[i], &g, &err);
        qn_grid_rule_release(&g);
        if (rc != QN_OK) {
            int ex = qn_report(ctx, &err);
            /* data errors outrank unreadable files in the final status */
            if (status != QN_EXIT_DATAERR)
                status = ex;
            continue;
        }
        if (r && !ctx->quiet)
            printf("%s: ok (%s, %d cells, %u colours)\n", argv[i],
                   qn_rules_name(r), qn_rules_ncells(r), qn_rules_colours(r));
        qn_rules_free(r);
    }
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

/* The group as "(Z/8)^2 x (Z/2)^2", largest factors first; "trivial". */
static void add_group(qn_buf *b, const qn_system *sys)
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
    qn_distrib *d; /* NULL when not computed */
    qn_err err;    /* why not */
    qn_tiers tiers;
    const char *source; /* "rule", "distribution", "sample" or "none" */
    size_t nsample;     /* --sample N, or 0 */
    uint64_t *sample;   /* the graded ones' press counts */
    size_t ngraded;
} dist_info;

static int dist_info_init(dist_info *di, const qn_rules *r, qn_err *err)
{
    qn_solver *g = NULL;
    int rc = qn_solver_new(&g, r, err);

    if (rc != QN_OK)
        return rc;
    if ((di->wanted || !qn_rules_ntiers(r)) &&
        qn_distrib_compute(&di->d, qn_solver_system(g), &di->err) != QN_OK)
        di->d = NULL;
    di->source = qn_gen_tiers(g, di->d, &di->tiers);
    if (!di->tiers.n)
        di->source = "none"; /* no state could be graded exactly */
    if (di->nsample) {
        qn_seed seed;
        di->sample = QN_NEWN(di->nsample, uint64_t);
        qn_gen_rule_seed(g, &seed);
        di->ngraded = qn_gen_sample_presses(g, &seed, di->sample, di->nsample);
    }
    qn_solver_free(g);
    return QN_OK;
}

/* The sample as a histogram: hist[m] for m <= *max. Caller frees. */
static uint64_t *sample_hist(const dist_info *di, uint64_t *max)
{
    uint64_t *hist;

    *max = 0;
    for (size_t i = 0; i < di->ngraded; i++)
        if (di->sample[i] > *max)
            *max = di->sample[i];
    hist = QN_NEWN((size_t)*max + 1, uint64_t);
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

    if (di->wanted) {
        qn_jsonw_key(w, "distribution");
        if (di->d)
            qn_distrib_json(di->d, w);
        else
            qn_jsonw_null(w);
        if (!di->d) {
            qn_jsonw_key(w, "distribution_note");
            qn_jsonw_str(w, di->err.msg);
        }
    }
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

static void text_tiers(qn_buf *out, const dist_info *di)
{
    qn_buf_addf(out, "grading tiers (%s):", di->source);
    for (size_t i = 0; i < di->tiers.n; i++)
        qn_buf_addf(out, " %s %llu-%llu%s", di->tiers.name[i],
                    (unsigned long long)di->tiers.lo[i],
                    (unsigned long long)di->tiers.hi[i],
                    i + 1 < di->tiers.n ? "," : "");
    if (!di->tiers.n)
        qn_buf_adds(out, " none");
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

    qn_buf_addf(out, "sample (%zu uniform solvable states from the rule's "
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

/* A table: presses, states, share and cumulative share of solvable ones. */
static void text_distribution(qn_buf *out, const dist_info *di)
{
    uint64_t total, cum = 0;

    if (!di->d) {
        qn_buf_addf(out, "distribution:     not computed: %s\n", di->err.msg);
        return;
    }
    total = qn_distrib_total(di->d);
    qn_buf_adds(out, "distribution (solvable states by minimal presses):\n"
                     "  presses       states    share   cumulative\n");
    for (size_t m = 0; m < qn_distrib_len(di->d); m++) {
        uint64_t c = qn_distrib_count(di->d, m);
        cum += c;
        text_row(out, m, c, cum, total);
    }
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
    json_tiers(&w, di);
    json_distribution(&w, di);
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

/* "8388608 = 2^23": the exact size, and its factors when they say more. */
static void show_size(qn_buf *out, const qn_system *sys, enum qn_system_group g)
{
    qn_buf dec = QN_BUF_INIT, fac = QN_BUF_INIT;

    qn_system_group_size(sys, g, &dec);
    qn_system_group_factors(sys, g, &fac);
    qn_buf_adds(out, dec.buf);
    if (strcmp(dec.buf, fac.buf))
        qn_buf_addf(out, " = %s", fac.buf);
    qn_buf_release(&dec);
    qn_buf_release(&fac);
}

static void show_text(qn_buf *out, const qn_rules *r, const qn_system *sys,
                      int matrix, const dist_info *di)
{
    int n = qn_rules_ncells(r);
    unsigned k = qn_rules_colours(r);
    char hash[65];

    qn_rules_hash(r, hash);
    qn_buf_addf(out, "name:             %s\n", qn_rules_name(r));
    if (*qn_rules_title(r))
        qn_buf_addf(out, "title:            %s\n", qn_rules_title(r));
    qn_buf_adds(out, "board:            ");
    board_text(out, qn_rules_layout(r));
    qn_buf_addf(out, "\ncells:            %d\ncolours:          %u\n", n, k);
    qn_buf_addf(out, "symmetric matrix: %s\n",
                qn_rules_is_symmetric(r) ? "yes" : "no");
    qn_buf_adds(out, "kernel:           ");
    show_size(out, sys, QN_KERNEL);
    qn_buf_adds(out, " quiet patterns, ");
    add_group(out, sys);
    qn_buf_adds(out, "\nkernel invariants: ");
    add_invariants(out, sys, 0);
    qn_buf_adds(out, "\nsolvable states:  ");
    show_size(out, sys, QN_IMAGE);
    qn_buf_addf(out, " of %u^%d\n", k, n);
    if (qn_system_cokernel_ngens(sys) == 0) {
        qn_buf_adds(out, "every state solvable: yes\n");
    } else {
        qn_buf_adds(out, "every state solvable: no (");
        show_size(out, sys, QN_COKERNEL);
        qn_buf_adds(out, " classes of states, invariants ");
        add_invariants(out, sys, 1);
        qn_buf_adds(out, ")\n");
    }
    qn_buf_addf(out, "symmetry group:   %s\n", qn_rules_symmetry_name(r));
    qn_buf_addf(out, "hash:             %s\n", hash);
    if (di->wanted)
        text_distribution(out, di);
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

static int rules_show(int argc, char **argv, qn_ctx *ctx)
{
    static const struct option opts[] = {
        {"json", no_argument, NULL, 'j'},
        {"matrix", no_argument, NULL, 'm'},
        {"distribution", no_argument, NULL, 'd'},
        {"sample", required_argument, NULL, 's'},
        {NULL, 0, NULL, 0}};
    int json = 0, matrix = 0, c, rc, status;
    uint64_t nsample;
    dist_info di;
    qn_err err = QN_ERR_INIT;
    qn_rules *r = NULL;
    qn_system *sys = NULL;
    qn_buf out = QN_BUF_INIT;

    memset(&di, 0, sizeof(di));
    optind = 1;
    opterr = 0;
    while ((c = getopt_long(argc, argv, "", opts, NULL)) != -1) {
        if (c == 'j')
            json = 1;
        else if (c == 'm')
            matrix = 1;
        else if (c == 'd')
            di.wanted = 1;
        else if (c == 's' &&
                 (cmd_parse_u64(optarg, &nsample) || nsample < 1 ||
                  nsample > SAMPLE_MAX))
            return qn_usage_error("rules show: --sample takes 1..%d",
                                  SAMPLE_MAX);
        else if (c == 's')
            di.nsample = (size_t)nsample;
        else
            return qn_usage_error("rules show: unknown option '%s'",
                                  argv[optind - 1]);
    }
    if (optind != argc - 1)
        return qn_usage_error("rules show: name exactly one FILE");
    rc = qn_rules_load_file(&r, argv[optind], &err);
    if (rc == QN_OK)
        rc = qn_system_new(&sys, qn_rules_matrix(r), qn_rules_ncells(r),
                           qn_rules_ncells(r), qn_rules_colours(r), &err);
    if (rc != QN_OK) {
        if (!err.source[0])
            qn_err_source(&err, argv[optind]);
        status = qn_report(ctx, &err);
        goto done;
    }
    if (dist_info_init(&di, r, &err) != QN_OK) {
        status = qn_report(ctx, &err);
        goto done;
    }
    if (json)
        show_json(&out, r, sys, matrix, &di);
    else
        show_text(&out, r, sys, matrix, &di);
    status = cmd_finish_out(&out);
done:
    qn_distrib_free(di.d);
    free(di.sample);
    qn_buf_release(&out);
    qn_system_free(sys);
    qn_rules_free(r);
    return status;
}

int cmd_rules(int argc, char **argv, qn_ctx *ctx)
{
    if (cmd_wants_help(argc, argv, cmd_rules_usage))
        return QN_EXIT_OK;
    if (argc < 2)
        return qn_usage_error("rules: expected 'check' or 'show' (see "
                              "'quench rules --help')");
    if (!strcmp(argv[1], "check"))
        return rules_check(argc - 2, argv + 2, ctx);
    if (!strcmp(argv[1], "show"))
        return rules_show(argc - 1, argv + 1, ctx);
    return qn_usage_error("rules: unknown subcommand '%s'", argv[1]);
}
