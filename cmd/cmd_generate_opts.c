/*
 * cmd_generate_opts.c: `quench generate`'s usage text and command line:
 * the options into the run's settings, each value checked, and the
 * combinations that need another option (--pack, --batch need --db).
 */
#include <getopt.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cmd_generate.h"
#include "solve/human.h"

const char cmd_generate_usage[] =
    "usage: quench generate RULES [-n COUNT] [--seed HEX] [--presses A..B] "
    "[--tier NAME] [--human-level L] [--unique-optimum] [--min-lit N] "
    "[--jobs N] "
    "[--walk-limit N] [-o FILE] "
    "[--db DB [--pack NAME]]\n"
    "\n"
    "Generate COUNT (default 10) distinct puzzles for the family in RULES:\n"
    "uniformly random solvable states, graded by their exact minimal press\n"
    "count, never two the same up to the board's symmetries. The same seed\n"
    "and options give the same puzzles in the same order, whatever --jobs.\n"
    "\n"
    "  -n, --count N      puzzles to produce (1 or more)\n"
    "  --seed HEX         1 to 64 hex digits; without it a fresh seed is\n"
    "                     drawn, printed on stderr and recorded\n"
    "  --presses A..B     only puzzles needing A to B presses (A.. or ..B\n"
    "                     or one number); see --mode for how the puzzles\n"
    "                     fall over the range\n"
    "  --tier NAME        only puzzles of that grading tier\n"
    "  --human-level L    only puzzles at that human level: spot, chase,\n"
    "                     table, global (or 0..3), or a range A..B of them\n"
    "                     (A.., ..B); see docs/GENERATE.md\n"
    "  --unique-optimum   only puzzles with exactly one optimal plan\n"
    "  --min-lit N        at least N cells differ from the goal\n"
    "  --mode M           how candidates are made: auto (default), sample\n"
    "                     (uniform), exhaustive (uniform over the target's\n"
    "                     states, rules with at most 2^26), spread (equal\n"
    "                     numbers at each press count of the range) or\n"
    "                     climb (toward the range: mostly its lowest count)\n"
    "  --max-draws N      candidates to try before giving up\n"
    "  --walk-limit N     the largest kernel walked to grade a puzzle\n"
    "                     exactly (default 2^30); a rule past it is refused\n"
    "  --jobs N           worker threads (default: the number of cores)\n"
    "  -o, --output FILE  write there (atomically; - for stdout) instead of\n"
    "                     stdout\n"
    "  --db DB            also store the puzzles in the SQLite database DB\n"
    "                     (\"-\" for $QUENCH_DB or db/quench.db), a batch per\n"
    "                     transaction; each puzzle is printed only after its\n"
    "                     batch committed. Running the same command again\n"
    "                     prints the run again (a finished one from the\n"
    "                     database, an interrupted one by resuming it); a\n"
    "                     larger -n extends the run\n"
    "  --pack NAME        with --db: add the new puzzles to this pack\n"
    "                     (created when missing)\n"
    "  --batch N          with --db: puzzles per transaction (65536; a\n"
    "                     batch also ends at 32 MiB of records)\n"
    "  --human-model FILE score puzzles with this human model (a model\n"
    "                     file, as quench calibrate writes) instead of\n"
    "                     the built-in one; levels do not change\n"
    "  --shard I/N        only the puzzles of this run whose index is I\n"
    "                     mod N (0 <= I < N): run N shards on N machines,\n"
    "                     each into its own --db, then 'quench db merge'\n"
    "\n"
    "Output: JSON Lines. A header {\"type\": \"header\", ...} with the rule,\n"
    "its hash, the seed and the options; one {\"type\": \"puzzle\", \"id\",\n"
    "\"index\", \"rule_hash\", \"state\", \"min_presses\", \"optimal_solutions\",\n"
    "\"solution\", \"grade\", \"seed\"} per puzzle; a summary record.\n"
    "Exit status: 0 done, 64 bad usage (also an empty --presses or\n"
    "--human-level range), 65 empty or impossible target (also fewer\n"
    "distinct puzzles in it than COUNT, known before drawing on rules with\n"
    "at most 2^26 solvable states, 2^20 with --human-level; a human level\n"
    "the rule has no rung for), an unknown --tier (the message lists the\n"
    "rule's tiers), or\n"
    "a rule that cannot be graded exactly (its kernel is past\n"
    "--walk-limit), 75 gave up before COUNT (the\n"
    "target is too rare) or the --db run is being written by another\n"
    "process, 129/130/143 stopped by SIGHUP/SIGINT/SIGTERM (what was\n"
    "produced is kept and said), 141 the reader of stdout left.\n";

static const struct option opts[] = {
    {"count", required_argument, NULL, 'n'},
    {"seed", required_argument, NULL, 's'},
    {"presses", required_argument, NULL, 'p'},
    {"tier", required_argument, NULL, 't'},
    {"human-level", required_argument, NULL, 'H'},
    {"unique-optimum", no_argument, NULL, 'u'},
    {"min-lit", required_argument, NULL, 'l'},
    {"mode", required_argument, NULL, 'm'},
    {"max-draws", required_argument, NULL, 'd'},
    {"jobs", required_argument, NULL, 'j'},
    {"output", required_argument, NULL, 'o'},
    {"db", required_argument, NULL, 'D'},
    {"pack", required_argument, NULL, 'P'},
    {"batch", required_argument, NULL, 'B'},
    {"shard", required_argument, NULL, 'S'},
    {"walk-limit", required_argument, NULL, 'w'},
    {"human-model", required_argument, NULL, 'M'},
    {NULL, 0, NULL, 0}};

const cmd_grammar cmd_generate_grammar = {
    .opts = opts,
    .shortopts = "n:o:",
    .operands = "rules",
    .values = "output=file db=file pack=pack tier=tier human-model=file "
              "human-level=spot|chase|table|global "
              "mode=auto|sample|exhaustive|spread|climb",
};

/* A..B, A.., ..B or A (an absent A is 1, an absent B unbounded). */
static int parse_bounds(const char *s, uint64_t *lo, uint64_t *hi)
{
    const char *dots = strstr(s, "..");
    char a[32], b[32];

    if (!dots)
        return cmd_parse_u64(s, lo) || (*hi = *lo, 0);
    if ((size_t)(dots - s) >= sizeof(a) || strlen(dots + 2) >= sizeof(b))
        return -1;
    memcpy(a, s, (size_t)(dots - s));
    a[dots - s] = '\0';
    strcpy(b, dots + 2);
    *lo = 1;
    *hi = UINT64_MAX;
    if (*a && cmd_parse_u64(a, lo))
        return -1;
    if (*b && cmd_parse_u64(b, hi))
        return -1;
    return 0;
}

/* A..B as parse_bounds: -1 when malformed, -2 when no count is in it
 * (A > B, or B = 0: a puzzle needs a press), which no rule changes. */
static int parse_range(const char *s, uint64_t *lo, uint64_t *hi)
{
    if (parse_bounds(s, lo, hi))
        return -1;
    return *lo > *hi || *hi == 0 ? -2 : 0;
}

static int parse_presses(gen_cli *gc, const char *s)
{
    int rc = parse_range(s, &gc->o.lo, &gc->o.hi);

    if (rc == -2)
        return cli_usage_error("generate: --presses %s is empty: A..B needs "
                               "1 <= B and A <= B",
                               s);
    if (rc)
        return cli_usage_error("generate: --presses takes A..B, got '%s'", s);
    return QN_EXIT_OK;
}

static int parse_human_level(gen_cli *gc, const char *s)
{
    int rc = qn_human_levels_parse(s, &gc->o.human_levels);

    if (rc == -2)
        return cli_usage_error("generate: --human-level %s is empty: A..B "
                               "needs A at or below B (spot 0, chase 1, "
                               "table 2, global 3)",
                               s);
    if (rc)
        return cli_usage_error("generate: --human-level takes spot, chase, "
                               "table, global (or 0..3) or a range A..B of "
                               "them, got '%s'",
                               s);
    return QN_EXIT_OK;
}

static int parse_mode(gen_cli *gc, const char *s)
{
    if (!strcmp(s, "auto"))
        gc->o.mode = QN_GEN_AUTO;
    else if (!strcmp(s, "sample"))
        gc->o.mode = QN_GEN_SAMPLE;
    else if (!strcmp(s, "exhaustive"))
        gc->o.mode = QN_GEN_EXHAUSTIVE;
    else if (!strcmp(s, "climb"))
        gc->o.mode = QN_GEN_CLIMB;
    else if (!strcmp(s, "spread"))
        gc->o.mode = QN_GEN_SPREAD;
    else
        return cli_usage_error("generate: --mode takes auto, sample, "
                               "exhaustive, spread or climb");
    return QN_EXIT_OK;
}

/* I/N, 0 <= I < N (s is cut at the slash). */
static int parse_shard(gen_cli *gc, char *s)
{
    char *slash = strchr(s, '/');

    if (!slash)
        return cli_usage_error("generate: --shard takes I/N");
    *slash = '\0';
    if (cmd_parse_u64(s, &gc->o.shard) ||
        cmd_parse_u64(slash + 1, &gc->o.nshards) || gc->o.nshards < 1 ||
        gc->o.shard >= gc->o.nshards)
        return cli_usage_error("generate: --shard takes I/N with "
                               "0 <= I < N");
    gc->shard_spec = 1;
    return QN_EXIT_OK;
}

static void set_defaults(gen_cli *gc)
{
    long ncpu = sysconf(_SC_NPROCESSORS_ONLN);

    qn_gen_opts_init(&gc->o);
    gc->o.count = 10;
    gc->batch = DB_BATCH;
    gc->walk_limit = QN_MINPRESS_DEFAULT_LIMIT;
    gc->o.jobs = ncpu > 0 ? (int)ncpu : 1;
    qn_human_model_default(&gc->human_model);
}

/* Option c (getopt_long's value) with its optarg; an exit status. */
static int take_option(gen_cli *gc, int c, char **argv, int *batch_given)
{
    qn_err err = QN_ERR_INIT;
    uint64_t v;

    switch (c) {
    case 'n':
        /* none at all is no run: it would print a header and a summary,
         * store a run and create a pack, all for nothing */
        if (cmd_parse_u64(optarg, &gc->o.count) || gc->o.count == 0)
            return cli_usage_error("generate: --count needs a number of "
                                   "puzzles, 1 or more, got '%s'",
                                   optarg);
        break;
    case 's':
        if (qn_seed_parse(&gc->o.seed, optarg, &err))
            return cli_usage_error("generate: %s", err.msg);
        gc->have_seed = 1;
        break;
    case 'p':
        return parse_presses(gc, optarg);
    case 't':
        gc->tier = optarg;
        break;
    case 'H':
        return parse_human_level(gc, optarg);
    case 'u':
        gc->o.unique_optimum = 1;
        break;
    case 'l':
        if (cmd_parse_u64(optarg, &v) || v > 1u << 30)
            return cli_usage_error("generate: --min-lit needs a number");
        gc->o.min_lit = (int)v;
        break;
    case 'm':
        return parse_mode(gc, optarg);
    case 'd':
        if (cmd_parse_u64(optarg, &gc->o.max_draws))
            return cli_usage_error("generate: --max-draws needs a "
                                   "number");
        break;
    case 'j':
        if (cmd_parse_u64(optarg, &v) || v < 1 || v > 256)
            return cli_usage_error("generate: --jobs takes 1..256");
        gc->o.jobs = (int)v;
        break;
    case 'o':
        gc->out_path = optarg;
        break;
    case 'D':
        gc->db_opt = optarg;
        break;
    case 'P':
        gc->pack = optarg;
        break;
    case 'S':
        return parse_shard(gc, optarg);
    case 'B':
        if (cmd_parse_u64(optarg, &gc->batch) || gc->batch < 1)
            return cli_usage_error("generate: --batch needs a number "
                                   ">= 1");
        *batch_given = 1;
        break;
    case 'M':
        gc->human_model_path = optarg;
        break;
    case 'w':
        if (cmd_parse_u64(optarg, &gc->walk_limit))
            return cli_usage_error("generate: --walk-limit needs a "
                                   "number, got '%s'",
                                   optarg);
        break;
    default:
        return cmd_bad_option("generate", argv, opts, "n:o:");
    }
    return QN_EXIT_OK;
}

int cmd_generate_parse_opts(gen_cli *gc, int argc, char **argv)
{
    int c, status, batch_given = 0;

    set_defaults(gc);
    optind = 1;
    opterr = 0;
    while ((c = getopt_long(argc, argv, "n:o:", opts, NULL)) != -1)
        if ((status = take_option(gc, c, argv, &batch_given)) != QN_EXIT_OK)
            return status;
    if (optind != argc - 1)
        return cli_usage_error("generate: name one RULES file");
    if (gc->pack && !gc->db_opt)
        return cli_usage_error("generate: --pack needs --db");
    if (batch_given && !gc->db_opt)
        return cli_usage_error("generate: --batch needs --db");
    if (gc->pack && cmd_check_pack_name("generate: --pack", gc->pack))
        return QN_EXIT_USAGE;
    gc->rules = argv[optind];
    return QN_EXIT_OK;
}

int cmd_generate_load_model(gen_cli *gc)
{
    qn_err err = QN_ERR_INIT;
    qn_human_model m, def;
    char *text = NULL;
    size_t len = 0;
    int rc;

    if (!gc->human_model_path)
        return QN_EXIT_OK;
    /* one byte past the parser's limit, so that it says so */
    rc = cmd_read_all(gc->human_model_path, (64u << 10) + 1, &text, &len, &err);
    if (rc == QN_OK)
        rc = qn_human_model_parse(&m, text, len, &err);
    free(text);
    qn_human_model_default(&def);
    if (rc == QN_OK && m.version == def.version &&
        (m.b0 != def.b0 || memcmp(m.w, def.w, sizeof(m.w))))
        rc = qn_err_set(&err, QN_EINVAL, 0, 0,
                        "version %d is the built-in model's, whose weights "
                        "differ: give the model another version",
                        def.version);
    if (rc != QN_OK) {
        qn_err_source(&err, gc->human_model_path);
        return cli_report(gc->ctx, &err);
    }
    gc->human_model = m;
    gc->o.human_model = &gc->human_model;
    return QN_EXIT_OK;
}
