/*
 * cmd_solve_opts.c: `quench solve`'s command line and what both of its
 * halves (cmd_solve.c, the dense model; cmd_solve_grid.c, big grids)
 * share: the options, the --fill check and where the report goes.
 */
#include <errno.h>
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cmd.h"
#include "export/term.h"
#include "solve/plans.h"

const char cmd_solve_usage[] =
    "usage: quench solve RULES (--state S | --fill V | FILE | -) [--json]\n"
    "                    [--all | --optimal [--limit N]] [--steps [--human]]\n"
    "                    [--color WHEN] [--size WxH] [-o FILE [--plain]]\n"
    "       quench solve --id ID [--db DB] [--json] [--all | --optimal\n"
    "                    [--limit N]] [--steps] [--color WHEN]\n"
    "\n"
    "Solve one state of the puzzle family in RULES exactly, or the stored\n"
    "puzzle ID (its id, a unique prefix of 4+ hex digits, or #ROW) under\n"
    "its stored rule (--db DB, default $QUENCH_DB, else db/quench.db).\n"
    "\n"
    "  --state S      the state: text format (base 36 per cell, rows split\n"
    "                 by '/' or newlines, '.' for holes) or a JSON array of\n"
    "                 cell values; FILE or - (stdin) holds the same, or a\n"
    "                 netpbm image (PBM for 2 colours, PGM with maxval k-1);\n"
    "                 --state NAME.pbm (.pgm, .pnm) reads that image\n"
    "  --fill V       the state with every cell V (the all-on board: 1)\n"
    "  --size WxH     solve RULES' stencil on a W x H grid instead of the\n"
    "                 file's board\n"
    "  -o FILE        also write the solution (press counts) as a netpbm\n"
    "                 image: raw PBM/PGM, plain with --plain; atomically;\n"
    "                 -o - puts it on stdout and the report on stderr\n"
    "  --json         one JSON object: solvable, min_presses, exact,\n"
    "                 optimal_solutions, solutions, solution (per-cell\n"
    "                 press counts), presses (cells in the order to press),\n"
    "                 replay_ok, why, repair ([cell, new value] pairs)\n"
    "  --all          also list the solutions by press count, cheapest\n"
    "                 first, at most --limit N (1..65536, default 100), and\n"
    "                 say how many more there are\n"
    "  --optimal      the same for the optimal plans only\n"
    "  --human        with --steps: first the technique of the state's\n"
    "                 human level in words (the rows a chase clears, the\n"
    "                 table pattern; docs/GENERATE.md)\n"
    "  --steps        play the plan one press at a time: the board after\n"
    "                 each press, the last one the goal; in colour as\n"
    "                 `quench show` draws (--color auto|always|never)\n"
    "  --walk-limit N the largest kernel walked for the exact minimum\n"
    "                 (default 2^30); beyond it the answer is marked not\n"
    "                 proven minimal\n"
    "\n"
    "Boards of more than 4096 cells (plain grids with one stencil) are\n"
    "solved by light chasing or the polynomial method; their states come\n"
    "as images or --fill, and the solution goes to -o FILE.\n"
    "\n"
    "Exit status: 0 solvable, 1 unsolvable, 64 bad usage, 65 bad state or\n"
    "rules, 66 a file is missing, 73/74 the output cannot be written.\n";

/* A name ending in .pbm, .pgm or .pnm. */
static int is_image_name(const char *s)
{
    size_t n = strlen(s);

    return n > 4 && (!strcmp(s + n - 4, ".pbm") || !strcmp(s + n - 4, ".pgm") ||
                     !strcmp(s + n - 4, ".pnm"));
}

/* --size WxH: decimal sides 1..QN_GRID_MAX_SIDE, nothing else. */
static int parse_size(const char *arg, int *w, int *h)
{
    uint64_t v[2];
    const char *x = strchr(arg, 'x');
    char side[24];

    if (!x || (size_t)(x - arg) >= sizeof side)
        return -1;
    memcpy(side, arg, (size_t)(x - arg));
    side[x - arg] = '\0';
    if (cmd_parse_u64(side, &v[0]) || cmd_parse_u64(x + 1, &v[1]) || v[0] < 1 ||
        v[1] < 1 || v[0] > QN_GRID_MAX_SIDE || v[1] > QN_GRID_MAX_SIDE)
        return -1;
    *w = (int)v[0];
    *h = (int)v[1];
    return 0;
}

static const struct option opts[] = {
    {"state", required_argument, NULL, 's'},
    {"json", no_argument, NULL, 'j'},
    {"all", no_argument, NULL, 'a'},
    {"limit", required_argument, NULL, 'l'},
    {"walk-limit", required_argument, NULL, 'w'},
    {"fill", required_argument, NULL, 'f'},
    {"size", required_argument, NULL, 'z'},
    {"output", required_argument, NULL, 'o'},
    {"plain", no_argument, NULL, 'p'},
    {"id", required_argument, NULL, 'i'},
    {"db", required_argument, NULL, 'd'},
    {"optimal", no_argument, NULL, 'O'},
    {"steps", no_argument, NULL, 'S'},
    {"human", no_argument, NULL, 'H'},
    {"color", required_argument, NULL, 'c'},
    {"colour", required_argument, NULL, 'c'},
    {NULL, 0, NULL, 0}};

const cmd_grammar cmd_solve_grammar = {
    .opts = opts,
    .shortopts = "o:",
    .operands = "rules file",
    .values = "output=file db=file color=auto|always|never "
              "colour=auto|always|never",
};

int cmd_solve_parse_opts(solve_opts *o, int argc, char **argv)
{
    qn_term_when when;
    int c, limit_given = 0;
    uint64_t v;

    memset(o, 0, sizeof(*o));
    o->limit = 100;
    o->walk_limit = QN_MINPRESS_DEFAULT_LIMIT;
    optind = 1;
    opterr = 0;
    while ((c = getopt_long(argc, argv, "o:", opts, NULL)) != -1) {
        switch (c) {
        case 's':
            o->state = optarg;
            break;
        case 'o':
            o->output = optarg;
            break;
        case 'i':
            o->id = optarg;
            break;
        case 'd':
            o->db = optarg;
            break;
        case 'p':
            o->plain = 1;
            break;
        case 'f':
            if (cmd_parse_u64(optarg, &v) || v > 254)
                return cli_usage_error("solve: --fill needs a colour 0..254, "
                                       "got '%s'",
                                       optarg);
            o->has_fill = 1;
            o->fill = (unsigned)v;
            break;
        case 'z':
            if (parse_size(optarg, &o->sw, &o->sh))
                return cli_usage_error("solve: --size needs WxH with sides "
                                       "1..%d, got '%s'",
                                       QN_GRID_MAX_SIDE, optarg);
            break;
        case 'j':
            o->json = 1;
            break;
        case 'a':
            o->all = 1;
            break;
        case 'O':
            o->optimal = 1;
            break;
        case 'S':
            o->steps = 1;
            break;
        case 'H':
            o->human = 1;
            break;
        case 'c':
            if (qn_term_parse_when(optarg, &when))
                return cli_usage_error("solve: --color needs auto, always or "
                                       "never, got '%s'",
                                       optarg);
            o->color = optarg;
            break;
        case 'l':
            limit_given = 1;
            if (cmd_parse_u64(optarg, &o->limit) || o->limit < 1 ||
                o->limit > QN_PLANS_MAX)
                return cli_usage_error("solve: --limit needs 1..%d, got '%s'",
                                       QN_PLANS_MAX, optarg);
            break;
        case 'w':
            if (cmd_parse_u64(optarg, &o->walk_limit))
                return cli_usage_error("solve: --walk-limit needs a number, "
                                       "got '%s'",
                                       optarg);
            break;
        default:
            return cmd_bad_option("solve", argv, opts, "o:");
        }
    }
    if (o->all && o->optimal)
        return cli_usage_error("solve: --all lists every solution, --optimal "
                               "the optimal ones: give one");
    if (limit_given && !o->all && !o->optimal)
        return cli_usage_error("solve: --limit is for --all or --optimal");
    if (o->human && !o->steps)
        return cli_usage_error("solve: --human goes with --steps");
    if (o->id)
        return optind < argc || o->state || o->has_fill || o->sw
                   ? cli_usage_error("solve: --id names the puzzle and its "
                                     "rule: no RULES, state or --size")
                   : QN_EXIT_OK;
    if (o->db)
        return cli_usage_error("solve: --db goes with --id");
    if (optind >= argc)
        return cli_usage_error("solve: name a RULES file");
    o->rules = argv[optind++];
    if (optind < argc)
        o->file = argv[optind++];
    if (o->state && !o->file && is_image_name(o->state)) {
        o->file = o->state; /* --state board.pbm names an image */
        o->state = NULL;
    }
    if (optind < argc || !!o->state + !!o->file + o->has_fill != 1)
        return cli_usage_error("solve: give the state as one of --state S, "
                               "--fill V or one FILE (or -)");
    if (o->plain && !o->output)
        return cli_usage_error("solve: --plain is for the -o image");
    return QN_EXIT_OK;
}

int cmd_solve_check_fill(const cli_ctx *ctx, const solve_opts *o, unsigned k)
{
    qn_err err = QN_ERR_INIT;

    if (o->fill < k)
        return 0;
    qn_err_set(&err, QN_EINVAL, 0, 0,
               "--fill %u is not a colour: the rule has %u", o->fill, k);
    cli_report(ctx, &err);
    return -1;
}

int cmd_solve_report(const solve_opts *o, qn_buf *out)
{
    /* -o - puts the image on stdout: the report goes beside it, to
     * stderr, so the image stays a file a pipe can take */
    if (o->output && !strcmp(o->output, "-")) {
        fwrite(out->buf, 1, out->len, stderr);
        qn_buf_reset(out);
        return QN_EXIT_OK;
    }
    return cmd_finish_out(out);
}
