/*
 * cmd_calibrate.c: `quench calibrate`: fit the human score's weights to
 * players' attempt logs (docs/ATTEMPTS.md, docs/GENERATE.md
 * "Calibration"): read every log, grade each solved attempt's puzzle,
 * fit on a seeded share, report the rank correlation on the attempts held
 * out beside a press-count-only fit's, and write the model fitted on all.
 */
#include <errno.h>
#include <getopt.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/mem.h"
#include "cmd.h"
#include "export/attempts.h"
#include "solve/human_fit.h"
#include "solve/human_score.h"

#define MAX_FILES 4096
#define MAX_ATTEMPTS 1000000
#define RIDGE 1e-3

const char cmd_calibrate_usage[] =
    "usage: quench calibrate LOG... [-o MODEL] [--holdout SHARE] [--seed N]\n"
    "                        [--model-version N]\n"
    "\n"
    "Fit the human score's weights to attempt logs exported by the html\n"
    "player (docs/ATTEMPTS.md): log(solve seconds) = the player's skill +\n"
    "b0 + sum of weight x feature of the puzzle. Solved attempts without\n"
    "hints are fitted; abandoned and hinted ones are counted, not fitted.\n"
    "A share of the attempts is held out (chosen by a hash of --seed and\n"
    "the attempt's place): the fit on the rest predicts them, and the\n"
    "Spearman rank correlation with their times is printed beside that of\n"
    "a fit on the press count alone. The model written is fitted on every\n"
    "attempt; `quench generate --human-model MODEL` scores with it.\n"
    "\n"
    "  -o, --output MODEL   write the model file there (default: standard\n"
    "                       output; the report then goes to standard error)\n"
    "  --holdout SHARE      the share held out, 0 to 0.9 (default 0.2)\n"
    "  --seed N             the split's seed, 0..2^64-1 (default 1)\n"
    "  --model-version N    the model's version, 2..1000000 (default: a\n"
    "                       number derived from the weights)\n"
    "\n"
    "A player is the log's \"player\" id, or the log file for attempts\n"
    "without one.\n"
    "\n"
    "Exit status: 0 fitted, 64 bad usage, 65 a bad log or nothing to fit,\n"
    "66 a log is missing, 71 out of memory, 73/74 the model file cannot be\n"
    "written.\n";

static const struct option opts[] = {
    {"output", required_argument, NULL, 'o'},
    {"holdout", required_argument, NULL, 'H'},
    {"seed", required_argument, NULL, 's'},
    {"model-version", required_argument, NULL, 'm'},
    {NULL, 0, NULL, 0}};

const cmd_grammar cmd_calibrate_grammar = {
    .opts = opts,
    .shortopts = "o:",
    .operands = "file...",
    .values = "output=file",
};

typedef struct cal_opts {
    const char *output;
    double holdout;
    uint64_t seed;
    int version; /* 0: the digest */
    char **logs;
    int nlogs;
} cal_opts;

static int parse_opts(cal_opts *o, int argc, char **argv)
{
    char *end;
    int c;

    memset(o, 0, sizeof(*o));
    o->holdout = 0.2;
    o->seed = 1;
    optind = 1;
    opterr = 0;
    while ((c = getopt_long(argc, argv, "o:", opts, NULL)) != -1) {
        switch (c) {
        case 'o':
            o->output = optarg;
            break;
        case 'H':
            errno = 0;
            o->holdout = strtod(optarg, &end);
            if (*end || end == optarg || errno || !(o->holdout >= 0) ||
                o->holdout > 0.9)
                return cli_usage_error("calibrate: --holdout needs a share "
                                       "0 to 0.9, got '%s'",
                                       optarg);
            break;
        case 's':
            if (cmd_parse_u64(optarg, &o->seed))
                return cli_usage_error("calibrate: --seed needs 0..2^64-1, "
                                       "got '%s'",
                                       optarg);
            break;
        case 'm': {
            uint64_t v;
            if (cmd_parse_u64(optarg, &v) || v < 2 || v > 1000000)
                return cli_usage_error("calibrate: --model-version needs "
                                       "2..1000000 (1 is the built-in "
                                       "model's), got '%s'",
                                       optarg);
            o->version = (int)v;
            break;
        }
        default:
            return cmd_bad_option("calibrate", argv, opts, "o:");
        }
    }
    if (optind == argc)
        return cli_usage_error("calibrate: give one or more attempt logs "
                               "(see 'quench calibrate --help')");
    if (argc - optind > MAX_FILES)
        return cli_usage_error("calibrate: at most %d logs", MAX_FILES);
    o->logs = argv + optind;
    o->nlogs = argc - optind;
    return QN_EXIT_OK;
}

/* A rule met in the logs, by hash, graded once. */
typedef struct cal_rule {
    const char *hash;
    qn_solver *solver;
    qn_human_grader *hg;
} cal_rule;

typedef struct cal_key {
    const char *key; /* player id, or the file's name */
    size_t obs;
} cal_key;

static int cmp_key(const void *a, const void *b)
{
    const cal_key *x = a, *y = b;
    int c = strcmp(x->key, y->key);
    return c ? c : (x->obs > y->obs) - (x->obs < y->obs);
}

typedef struct cal_run {
    cal_opts o;
    qn_attempt_log *logs;
    cal_rule *rules;
    size_t nrules;
    qn_human_obs *obs;
    const char **who; /* per observation: its player key */
    size_t nobs;
    size_t attempts, abandoned, hinted, ungraded;
    int nplayers;
} cal_run;

static cal_rule *rule_of(cal_run *r, const qn_pack_rule *pr, qn_err *err,
                         int *rc)
{
    for (size_t i = 0; i < r->nrules; i++)
        if (!strcmp(r->rules[i].hash, pr->hash))
            return &r->rules[i];
    cal_rule *cr = &r->rules[r->nrules];
    memset(cr, 0, sizeof(*cr));
    cr->hash = pr->hash;
    if ((*rc = qn_solver_new(&cr->solver, pr->rules, err)) != QN_OK ||
        (*rc = qn_human_grader_new(&cr->hg, cr->solver, err)) != QN_OK) {
        qn_solver_free(cr->solver);
        return NULL;
    }
    r->nrules++;
    return cr;
}

/* Each log's solved attempts without hints, graded, as observations. */
static int collect(const cli_ctx *ctx, cal_run *r)
{
    qn_err err = QN_ERR_INIT;
    size_t cap = 0, rcap = 0;
    int rc = QN_OK;

    for (int f = 0; f < r->o.nlogs; f++)
        rcap += r->logs[f].nrules;
    r->rules = CLI_NEWN(rcap + 1, cal_rule);
    for (int f = 0; f < r->o.nlogs; f++) {
        const qn_attempt_log *lg = &r->logs[f];
        for (size_t i = 0; i < lg->nattempts; i++) {
            const qn_attempt *a = &lg->attempts[i];
            qn_human_grade gr;
            r->attempts++;
            if (!a->solved) {
                r->abandoned++;
                continue;
            }
            if (a->hints) {
                r->hinted++;
                continue;
            }
            cal_rule *cr = rule_of(r, &lg->rules[a->rule], &err, &rc);
            if (!cr) {
                err.line = a->line, err.col = 1;
                break;
            }
            rc = qn_human_grade_state(cr->hg, a->state, &gr, &err);
            if (rc == QN_ELIMIT) { /* no grade: too many optimal plans */
                r->ungraded++;
                rc = QN_OK;
                continue;
            }
            if (rc != QN_OK) {
                err.line = a->line, err.col = 1;
                break;
            }
            if (r->nobs == cap) {
                cap = cap ? 2 * cap : 256;
                r->obs = CLI_RENEW(r->obs, cap, qn_human_obs);
                r->who = CLI_RENEW(r->who, cap, const char *);
            }
            qn_human_obs *ob = &r->obs[r->nobs];
            memcpy(ob->f, gr.f, sizeof(ob->f));
            ob->y = log((double)a->time_ms / 1000.0);
            r->who[r->nobs++] = *a->player ? a->player : r->o.logs[f];
        }
        if (rc != QN_OK) {
            if (rc == QN_EUNSOLVABLE || rc == QN_ELIMIT || rc == QN_EINVAL)
                rc = QN_EINVAL;
            err.code = rc;
            qn_err_source(&err, r->o.logs[f]);
            return cli_report(ctx, &err);
        }
    }
    /* players: the distinct keys, numbered in sorted order */
    cal_key *k = CLI_NEWN(r->nobs + 1, cal_key);
    for (size_t i = 0; i < r->nobs; i++)
        k[i].key = r->who[i], k[i].obs = i;
    qsort(k, r->nobs, sizeof(*k), cmp_key);
    for (size_t i = 0; i < r->nobs; i++) {
        if (i && strcmp(k[i].key, k[i - 1].key))
            r->nplayers++;
        r->obs[k[i].obs].player = r->nplayers;
    }
    r->nplayers += r->nobs > 0;
    free(k);
    return QN_EXIT_OK;
}

/* The held-out Spearman of a fit on the rest over the features in use;
 * NAN when fewer than 2 either side. */
static double held_out_fit(const cal_run *r, unsigned use, size_t *ntest)
{
    qn_human_obs *train = CLI_NEWN(r->nobs + 1, qn_human_obs);
    double *pred = CLI_NEWN(r->nobs + 1, double);
    double *act = CLI_NEWN(r->nobs + 1, double);
    double *skill = CLI_NEWN((size_t)r->nplayers + 1, double);
    size_t nt = 0, nh = 0;
    qn_human_model m;
    qn_err err = QN_ERR_INIT;
    double rho = NAN;
    int rc;

    for (size_t i = 0; i < r->nobs; i++)
        if (!qn_human_held_out(r->o.seed, i, r->o.holdout))
            train[nt++] = r->obs[i];
    rc = nt >= 2 && r->nobs - nt >= 2
             ? qn_human_fit(train, nt, r->nplayers, use, RIDGE, &m, skill, &err)
             : QN_EINVAL;
    if (rc == QN_ENOMEM)
        cli_oom();
    if (rc == QN_OK) {
        for (size_t i = 0; i < r->nobs; i++)
            if (qn_human_held_out(r->o.seed, i, r->o.holdout)) {
                qn_human_grade g = {0};
                memcpy(g.f, r->obs[i].f, sizeof(g.f));
                pred[nh] = qn_human_score(&m, &g) + skill[r->obs[i].player];
                act[nh++] = r->obs[i].y;
            }
        if (qn_spearman(pred, act, nh, &rho, &err) != QN_OK)
            cli_oom();
    }
    *ntest = r->nobs - nt;
    free(train), free(pred), free(act), free(skill);
    return rho;
}

static void say_rho(qn_buf *b, double rho)
{
    if (isnan(rho))
        qn_buf_adds(b, "-");
    else
        qn_buf_addf(b, "%.4f", rho);
}

static int fit_and_write(const cli_ctx *ctx, cal_run *r)
{
    unsigned all = (1u << QN_HF_COUNT) - 1, presses = 1u << QN_HF_PRESSES;
    double *skill = CLI_NEWN((size_t)r->nplayers + 1, double);
    qn_human_model m;
    qn_err err = QN_ERR_INIT;
    qn_buf rep, model;
    size_t ntest = 0;
    int rc;

    if (r->nobs < 2) {
        free(skill);
        fprintf(stderr,
                "quench: calibrate: %zu solved attempts without hints to "
                "fit; at least 2 are needed\n",
                r->nobs);
        return QN_EXIT_DATAERR;
    }
    double rho = held_out_fit(r, all, &ntest);
    double rho_p = held_out_fit(r, presses, &ntest);
    rc =
        qn_human_fit(r->obs, r->nobs, r->nplayers, all, RIDGE, &m, skill, &err);
    free(skill);
    if (rc != QN_OK)
        return cli_report(ctx, &err);
    m.version = r->o.version ? r->o.version : qn_human_model_digest(&m);
    qn_buf_init(&rep);
    qn_buf_init(&model);
    qn_buf_addf(&rep,
                "attempts: %zu in %d %s: %zu solved and fitted, %zu solved "
                "with hints, %zu abandoned, %zu ungraded (not fitted)\n",
                r->attempts, r->o.nlogs, r->o.nlogs == 1 ? "log" : "logs",
                r->nobs, r->hinted, r->abandoned, r->ungraded);
    qn_buf_addf(&rep, "players: %d\n", r->nplayers);
    qn_buf_addf(&rep, "held out: %zu of %zu (share %g, seed %llu)\n", ntest,
                r->nobs, r->o.holdout, (unsigned long long)r->o.seed);
    qn_buf_adds(&rep, "spearman on held-out attempts: model ");
    say_rho(&rep, rho);
    qn_buf_adds(&rep, ", presses only ");
    say_rho(&rep, rho_p);
    qn_buf_addf(&rep, "\nmodel: version %d, fitted on all %zu\n", m.version,
                r->nobs);
    qn_buf_addf(&model,
                "# quench calibrate: %zu solved attempts, %d player(s);\n"
                "# held-out spearman: model ",
                r->nobs, r->nplayers);
    say_rho(&model, rho);
    qn_buf_adds(&model, ", presses only ");
    say_rho(&model, rho_p);
    qn_buf_addc(&model, '\n');
    qn_human_model_write(&model, &m);
    if (qn_buf_check(&rep, &err) != QN_OK ||
        qn_buf_check(&model, &err) != QN_OK) {
        qn_buf_release(&rep), qn_buf_release(&model);
        cli_oom();
    }
    rc = cmd_write_atomic(r->o.output, model.buf, model.len);
    if (rc == QN_EXIT_OK) {
        FILE *f = r->o.output && strcmp(r->o.output, "-") ? stdout : stderr;
        if (!ctx->quiet && fwrite(rep.buf, 1, rep.len, f) != rep.len)
            rc = cmd_write_error(
                f == stdout ? "standard output" : "standard error", errno);
    }
    qn_buf_release(&rep), qn_buf_release(&model);
    return rc;
}

int cmd_calibrate(int argc, char **argv, cli_ctx *ctx)
{
    cal_run r;
    qn_err err = QN_ERR_INIT;
    int rc = QN_EXIT_OK;

    if (cmd_wants_help(argc, argv, cmd_calibrate_usage))
        return QN_EXIT_OK;
    memset(&r, 0, sizeof(r));
    if ((rc = parse_opts(&r.o, argc, argv)) != QN_EXIT_OK)
        return rc;
    r.logs = CLI_NEWN((size_t)r.o.nlogs, qn_attempt_log);
    size_t total = 0;
    for (int f = 0; f < r.o.nlogs && rc == QN_EXIT_OK; f++) {
        char *text = NULL;
        size_t len = 0;
        if (cmd_read_all(r.o.logs[f], QN_ATTEMPTS_MAX_FILE, &text, &len,
                         &err) != QN_OK) {
            rc = cli_report(ctx, &err);
            break;
        }
        if (qn_attempt_log_parse(&r.logs[f], text, len, r.o.logs[f], &err) !=
            QN_OK)
            rc = cli_report(ctx, &err);
        free(text);
        total += r.logs[f].nattempts;
        if (rc == QN_EXIT_OK && total > MAX_ATTEMPTS) {
            fprintf(stderr,
                    "quench: %s: more than %d attempts in all the logs\n",
                    r.o.logs[f], MAX_ATTEMPTS);
            rc = QN_EXIT_DATAERR;
        }
    }
    if (rc == QN_EXIT_OK)
        rc = collect(ctx, &r);
    if (rc == QN_EXIT_OK)
        rc = fit_and_write(ctx, &r);
    for (size_t i = 0; i < r.nrules; i++) {
        qn_human_grader_free(r.rules[i].hg);
        qn_solver_free(r.rules[i].solver);
    }
    for (int f = 0; f < r.o.nlogs; f++)
        qn_attempt_log_release(&r.logs[f]);
    free(r.logs), free(r.rules), free(r.obs), free(r.who);
    return rc;
}
