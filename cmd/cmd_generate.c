/*
 * cmd_generate.c: `quench generate`: the main job. Graded, solvable,
 * distinct puzzles for a rule, reproducible from the printed seed, as
 * JSON Lines (a header, one record per puzzle, a summary).
 */
#include <errno.h>
#include <getopt.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "cmd.h"
#include "quench/distrib.h"
#include "quench/gen.h"
#include "quench/jsonw.h"
#include "quench/mem.h"
#include "quench/state.h"
#include "quench/store.h"
#include "quench/version.h"

const char cmd_generate_usage[] =
    "usage: quench generate RULES [-n COUNT] [--seed HEX] [--presses A..B] "
    "[--tier NAME] [--unique-optimum] [--min-lit N] [--jobs N] "
    "[--walk-limit N] [-o FILE] "
    "[--db DB [--pack NAME]]\n"
    "\n"
    "Generate COUNT (default 10) distinct puzzles for the family in RULES:\n"
    "uniformly random solvable states, graded by their exact minimal press\n"
    "count, never two the same up to the board's symmetries. The same seed\n"
    "and options give the same puzzles in the same order, whatever --jobs.\n"
    "\n"
    "  -n, --count N      puzzles to produce\n"
    "  --seed HEX         1 to 64 hex digits; without it a fresh seed is\n"
    "                     drawn, printed on stderr and recorded\n"
    "  --presses A..B     only puzzles needing A to B presses (A.. or ..B\n"
    "                     or one number)\n"
    "  --tier NAME        only puzzles of that grading tier\n"
    "  --unique-optimum   only puzzles with exactly one optimal plan\n"
    "  --min-lit N        at least N cells differ from the goal\n"
    "  --mode M           auto (default), sample, exhaustive or climb\n"
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
    "                     resumes an interrupted run.\n"
    "  --pack NAME        with --db: add the new puzzles to this pack\n"
    "                     (created when missing)\n"
    "  --batch N          with --db: puzzles per transaction (4096)\n"
    "  --shard I/N        only the puzzles of this run whose index is I\n"
    "                     mod N (0 <= I < N): run N shards on N machines,\n"
    "                     each into its own --db, then 'quench db merge'\n"
    "\n"
    "Output: JSON Lines. A header {\"type\": \"header\", ...} with the rule,\n"
    "its hash, the seed and the options; one {\"type\": \"puzzle\", \"id\",\n"
    "\"index\", \"rule_hash\", \"state\", \"min_presses\", \"optimal_solutions\",\n"
    "\"solution\", \"grade\", \"seed\"} per puzzle; a summary record.\n"
    "Exit status: 0 done, 64 bad usage (also an empty --presses range), 65\n"
    "empty or impossible target, or a rule that cannot be graded exactly\n"
    "(its kernel is past --walk-limit), 75 gave up before COUNT (the\n"
    "target is too rare) or the --db run is being written by another\n"
    "process, 129/130/143 stopped by SIGHUP/SIGINT/SIGTERM (what was\n"
    "produced is kept and said), 141 the reader of stdout left.\n";

typedef struct gen_cli {
    const char *rules, *out_path, *tier;
    char seed_hex[65];
    int have_seed;
    uint64_t walk_limit;
    qn_gen_opts o;
    qn_ctx *ctx;
    qn_solver *g;
    qn_tiers tiers;
    qn_buf grade_esc[QN_TIERS_MAX]; /* tier names as JSON strings */
    size_t grade_max;
    char head[128], tail[128];      /* constant record parts */
    qn_distrib *dist;
    cmd_out out;
    qn_buf buf;
    double t0, last_progress;
    int progress;
    int write_failed;
    /* --db */
    const char *db_opt, *pack;
    qn_store *store;
    int64_t rule_id, run_id, pack_id;
    uint64_t stored_before, dups_before; /* from an interrupted run */
    uint64_t stored, dups, in_batch, next_index;
    qn_buf pending;    /* records of the open batch, printed on commit */
    qn_buf cell_text;  /* scratch for state and witness text */
    uint8_t *canon_key;
    qn_err db_err;
    int db_failed;
    uint64_t batch;    /* puzzles per transaction */
    int shard_spec;
} gen_cli;

#define DB_BATCH 4096 /* default puzzles per transaction */

/* The signal that asked us to stop (SIGINT, SIGTERM, SIGHUP), or 0. */
static volatile sig_atomic_t interrupted;

/*
 * The first stop signal ends the run gracefully: the current record is
 * finished, the batch committed, the summary written. A second one stops
 * at once (the open batch rolls back, the temporary file goes).
 */
static void on_stop_signal(int sig)
{
    if (interrupted) {
        cmd_out_signal_cleanup();
        signal(sig, SIG_DFL);
        raise(sig);
        return;
    }
    interrupted = sig;
}

static double now(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

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

static int parse_opts(gen_cli *gc, int argc, char **argv)
{
    static const struct option opts[] = {
        {"count", required_argument, NULL, 'n'},
        {"seed", required_argument, NULL, 's'},
        {"presses", required_argument, NULL, 'p'},
        {"tier", required_argument, NULL, 't'},
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
        {NULL, 0, NULL, 0}};
    uint64_t v;
    int c, rc, batch_given = 0;
    long ncpu = sysconf(_SC_NPROCESSORS_ONLN);

    qn_gen_opts_init(&gc->o);
    gc->o.count = 10;
    gc->batch = DB_BATCH;
    gc->walk_limit = QN_MINPRESS_DEFAULT_LIMIT;
    gc->o.jobs = ncpu > 0 ? (int)ncpu : 1;
    optind = 1;
    opterr = 0;
    while ((c = getopt_long(argc, argv, "n:o:", opts, NULL)) != -1) {
        qn_err err = QN_ERR_INIT;
        switch (c) {
        case 'n':
            if (cmd_parse_u64(optarg, &gc->o.count))
                return qn_usage_error("generate: --count needs a number, "
                                      "got '%s'", optarg);
            break;
        case 's':
            if (qn_seed_parse(&gc->o.seed, optarg, &err))
                return qn_usage_error("generate: %s", err.msg);
            gc->have_seed = 1;
            break;
        case 'p':
            rc = parse_range(optarg, &gc->o.lo, &gc->o.hi);
            if (rc == -2)
                return qn_usage_error("generate: --presses %s is empty: "
                                      "A..B needs 1 <= B and A <= B",
                                      optarg);
            if (rc)
                return qn_usage_error("generate: --presses takes A..B, got "
                                      "'%s'", optarg);
            break;
        case 't': gc->tier = optarg; break;
        case 'u': gc->o.unique_optimum = 1; break;
        case 'l':
            if (cmd_parse_u64(optarg, &v) || v > 1u << 30)
                return qn_usage_error("generate: --min-lit needs a number");
            gc->o.min_lit = (int)v;
            break;
        case 'm':
            if (!strcmp(optarg, "auto")) gc->o.mode = QN_GEN_AUTO;
            else if (!strcmp(optarg, "sample")) gc->o.mode = QN_GEN_SAMPLE;
            else if (!strcmp(optarg, "exhaustive"))
                gc->o.mode = QN_GEN_EXHAUSTIVE;
            else if (!strcmp(optarg, "climb")) gc->o.mode = QN_GEN_CLIMB;
            else
                return qn_usage_error("generate: --mode takes auto, sample, "
                                      "exhaustive or climb");
            break;
        case 'd':
            if (cmd_parse_u64(optarg, &gc->o.max_draws))
                return qn_usage_error("generate: --max-draws needs a "
                                      "number");
            break;
        case 'j':
            if (cmd_parse_u64(optarg, &v) || v < 1 || v > 256)
                return qn_usage_error("generate: --jobs takes 1..256");
            gc->o.jobs = (int)v;
            break;
        case 'o': gc->out_path = optarg; break;
        case 'D': gc->db_opt = optarg; break;
        case 'P': gc->pack = optarg; break;
        case 'S': {
            char *slash = strchr(optarg, '/');
            if (!slash)
                return qn_usage_error("generate: --shard takes I/N");
            *slash = '\0';
            if (cmd_parse_u64(optarg, &gc->o.shard) ||
                cmd_parse_u64(slash + 1, &gc->o.nshards) ||
                gc->o.nshards < 1 || gc->o.shard >= gc->o.nshards)
                return qn_usage_error("generate: --shard takes I/N with "
                                      "0 <= I < N");
            gc->shard_spec = 1;
            break;
        }
        case 'B':
            if (cmd_parse_u64(optarg, &gc->batch) || gc->batch < 1)
                return qn_usage_error("generate: --batch needs a number "
                                      ">= 1");
            batch_given = 1;
            break;
        case 'w':
            if (cmd_parse_u64(optarg, &gc->walk_limit))
                return qn_usage_error("generate: --walk-limit needs a "
                                      "number, got '%s'",
                                      optarg);
            break;
        default:
            return qn_usage_error("generate: unknown or incomplete option "
                                  "'%s'", argv[optind - 1]);
        }
    }
    if (optind != argc - 1)
        return qn_usage_error("generate: name one RULES file");
    if (gc->pack && !gc->db_opt)
        return qn_usage_error("generate: --pack needs --db");
    if (batch_given && !gc->db_opt)
        return qn_usage_error("generate: --batch needs --db");
    if (gc->pack && cmd_check_pack_name("generate: --pack", gc->pack))
        return QN_EXIT_USAGE;
    gc->rules = argv[optind];
    return QN_EXIT_OK;
}

/*
 * Worker threads: one JSON line per puzzle. This runs a million times a
 * second, so it writes straight into the buffer: the constant parts are
 * escaped once (gc->tail, gc->grades), numbers and cells are written by
 * hand, and only states with values past base 36 take the general path.
 */
static char *put_str(char *w, const char *s)
{
    size_t n = strlen(s);
    memcpy(w, s, n);
    return w + n;
}

static char *put_state(char *w, const qn_layout *l, const uint8_t *cells)
{
    static const char digit[] = "0123456789abcdefghijklmnopqrstuvwxyz";

    for (int r = 0; r < l->h; r++) {
        if (r)
            *w++ = '/';
        for (int c = 0; c < l->w; c++) {
            int i = l->index[r * l->w + c];
            *w++ = i < 0 ? '.' : digit[cells[i]];
        }
    }
    return w;
}

/* The tier's name as a JSON value, escaped once in prepare_format(). */
static const char *grade_json(const gen_cli *gc, const char *grade)
{
    for (size_t i = 0; grade && i < gc->tiers.n; i++)
        if (grade == gc->tiers.name[i])
            return gc->grade_esc[i].buf;
    return "null";
}

/* The same record through the JSON writer (any k, any layout). */
static void format_general(const gen_cli *gc, const qn_gen_puzzle *p,
                           qn_buf *out)
{
    const qn_rules *r = qn_solver_rules(gc->g);
    int n = qn_solver_ncells(gc->g);
    char hash[65];
    qn_jsonw w;
    qn_buf text = QN_BUF_INIT;

    qn_rules_hash(r, hash);
    qn_jsonw_init(&w, out);
    qn_jsonw_obj(&w);
    qn_jsonw_key(&w, "type"), qn_jsonw_str(&w, "puzzle");
    qn_jsonw_key(&w, "id"), qn_jsonw_str(&w, p->id);
    qn_jsonw_key(&w, "index"), qn_jsonw_uint(&w, p->index);
    qn_jsonw_key(&w, "rule_hash"), qn_jsonw_str(&w, hash);
    qn_state_format(&text, qn_rules_layout(r), p->state, '/');
    qn_jsonw_key(&w, "state"), qn_jsonw_strn(&w, text.buf, text.len);
    qn_buf_release(&text);
    qn_jsonw_key(&w, "min_presses"), qn_jsonw_uint(&w, p->presses);
    qn_jsonw_key(&w, "optimal_solutions"), qn_jsonw_uint(&w, p->noptimal);
    qn_jsonw_key(&w, "solution");
    qn_jsonw_arr(&w);
    for (int i = 0; i < n; i++)
        qn_jsonw_uint(&w, p->plan[i]);
    qn_jsonw_end(&w);
    qn_jsonw_key(&w, "grade");
    if (p->grade)
        qn_jsonw_str(&w, p->grade);
    else
        qn_jsonw_null(&w);
    qn_jsonw_key(&w, "seed"), qn_jsonw_str(&w, gc->seed_hex);
    qn_jsonw_end(&w);
    qn_buf_addc(out, '\n');
}

/* The constant parts of every record, escaped once. */
static void prepare_format(gen_cli *gc)
{
    char hash[65];

    qn_rules_hash(qn_solver_rules(gc->g), hash);
    snprintf(gc->head, sizeof(gc->head), ",\"rule_hash\":\"%s\",\"state\":\"",
             hash);
    snprintf(gc->tail, sizeof(gc->tail), ",\"seed\":\"%s\"}\n",
             gc->seed_hex);
    for (size_t i = 0; i < gc->tiers.n; i++) {
        qn_buf_init(&gc->grade_esc[i]);
        qn_json_escape(&gc->grade_esc[i], gc->tiers.name[i],
                       strlen(gc->tiers.name[i]));
        if (gc->grade_esc[i].len > gc->grade_max)
            gc->grade_max = gc->grade_esc[i].len;
    }
}

static void format_puzzle(void *vctx, const qn_gen_puzzle *p, qn_buf *out)
{
    const gen_cli *gc = vctx;
    const qn_layout *l = qn_rules_layout(qn_solver_rules(gc->g));
    int n = qn_solver_ncells(gc->g);
    char *w;

    if (qn_solver_colours(gc->g) > 36) { /* "(NNN)" cells: general path */
        format_general(gc, p, out);
        return;
    }
    qn_buf_grow(out, 256 + strlen(gc->tail) + (size_t)l->w * l->h +
                         (size_t)l->h + 4 * (size_t)n + gc->grade_max);
    w = out->buf + out->len;
    w = put_str(w, "{\"type\":\"puzzle\",\"id\":\"");
    w = put_str(w, p->id);
    w = put_str(w, "\",\"index\":");
    w = qn_json_put_u64(w, p->index);
    w = put_str(w, gc->head);
    w = put_state(w, l, p->state);
    w = put_str(w, "\",\"min_presses\":");
    w = qn_json_put_u64(w, p->presses);
    w = put_str(w, ",\"optimal_solutions\":");
    w = qn_json_put_u64(w, p->noptimal);
    w = put_str(w, ",\"solution\":[");
    for (int i = 0; i < n; i++) {
        unsigned v = p->plan[i];
        if (i)
            *w++ = ',';
        if (v < 10) /* the usual case: one digit */
            *w++ = (char)('0' + v);
        else
            w = qn_json_put_u64(w, v);
    }
    w = put_str(w, "],\"grade\":");
    w = put_str(w, grade_json(gc, p->grade));
    w = put_str(w, gc->tail);
    out->len = (size_t)(w - out->buf);
    out->buf[out->len] = '\0';
}

static int emit_puzzle(void *vctx, const qn_gen_puzzle *p)
{
    gen_cli *gc = vctx;

    qn_buf_add(&gc->buf, p->text, p->textlen);
    if (gc->buf.len > (1u << 16)) {
        if (fwrite(gc->buf.buf, 1, gc->buf.len, gc->out.f) != gc->buf.len) {
            gc->write_failed = errno ? errno : EIO;
            return 1;
        }
        qn_buf_reset(&gc->buf);
    }
    return 0;
}

/* Commit the open batch with the run's progress, then print its records. */
static int commit_batch(gen_cli *gc)
{
    int rc;

    if (!qn_store_in_batch(gc->store))
        return QN_OK;
    rc = qn_store_run_progress(gc->store, gc->run_id, gc->next_index,
                               gc->stored_before + gc->stored,
                               gc->dups_before + gc->dups, &gc->db_err);
    if (rc == QN_OK)
        rc = qn_store_commit(gc->store, &gc->db_err);
    if (rc != QN_OK) {
        qn_store_rollback(gc->store, NULL);
        gc->db_failed = 1;
        return rc;
    }
    gc->in_batch = 0;
    qn_buf_add(&gc->buf, gc->pending.buf, gc->pending.len);
    qn_buf_reset(&gc->pending);
    if (fwrite(gc->buf.buf, 1, gc->buf.len, gc->out.f) != gc->buf.len) {
        gc->write_failed = errno ? errno : EIO;
        return QN_EIO;
    }
    qn_buf_reset(&gc->buf);
    return QN_OK;
}

/* --db: store the puzzle in the open batch; print it after the commit. */
static int emit_stored(void *vctx, const qn_gen_puzzle *p)
{
    gen_cli *gc = vctx;
    const qn_rules *r = qn_solver_rules(gc->g);
    qn_store_puzzle sp;
    int64_t id;
    int is_new, rc = QN_OK;
    size_t witness_at;
    char grader[16];

    if (!qn_store_in_batch(gc->store) &&
        qn_store_begin(gc->store, &gc->db_err) != QN_OK) {
        gc->db_failed = 1;
        return QN_GEN_STOP;
    }
    qn_buf_reset(&gc->cell_text);
    qn_state_format(&gc->cell_text, qn_rules_layout(r), p->state, '/');
    witness_at = gc->cell_text.len + 1;
    qn_buf_addc(&gc->cell_text, '\0');
    qn_state_format(&gc->cell_text, qn_rules_layout(r), p->plan, '/');
    snprintf(grader, sizeof(grader), "%d", QN_GRADER_VERSION);
    memset(&sp, 0, sizeof(sp));
    sp.rule_id = gc->rule_id;
    sp.state = gc->cell_text.buf;
    sp.canon = gc->canon_key;
    sp.canon_len = qn_store_canon_pack(gc->canon_key, p->canon,
                                       qn_solver_ncells(gc->g),
                                       qn_solver_colours(gc->g));
    sp.min_presses = p->presses;
    sp.noptimal = p->noptimal;
    sp.witness = gc->cell_text.buf + witness_at;
    sp.grade = p->grade;
    sp.grader = grader;
    sp.seed = gc->seed_hex;
    sp.stream_index = (int64_t)p->index;
    sp.provenance = QN_STORE_GENERATE;
    sp.run_id = gc->run_id;
    gc->next_index = p->index + 1;
    rc = qn_store_put_puzzle(gc->store, &sp, &id, &is_new, &gc->db_err);
    /* is_new 2: stored (and added, in the same transaction) by this run
     * before it was interrupted */
    if (rc == QN_OK && is_new == 1 && gc->pack_id)
        rc = qn_store_pack_add(gc->store, gc->pack_id, id, 0, &gc->db_err);
    if (rc != QN_OK) {
        qn_store_rollback(gc->store, NULL);
        gc->db_failed = 1;
        return QN_GEN_STOP;
    }
    if (is_new == 2) /* stored by this run before it was interrupted */
        return QN_GEN_EMITTED;
    if (!is_new) {
        gc->dups++;
        return QN_GEN_ALREADY;
    }
    gc->stored++;
    qn_buf_add(&gc->pending, p->text, p->textlen);
    if (++gc->in_batch >= gc->batch && commit_batch(gc) != QN_OK)
        return QN_GEN_STOP;
    return QN_GEN_EMITTED;
}

static void progress(void *vctx, const qn_gen_stats *st)
{
    gen_cli *gc = vctx;
    double t = now();

    if (!gc->progress || t - gc->last_progress < 0.2)
        return;
    gc->last_progress = t;
    fprintf(stderr, "\rquench: %llu/%llu puzzles, %llu draws, %.1f s ",
            (unsigned long long)st->emitted,
            (unsigned long long)gc->o.count, (unsigned long long)st->draws,
            t - gc->t0);
}

static void write_header(gen_cli *gc)
{
    const qn_rules *r = qn_solver_rules(gc->g);
    char hash[65];
    qn_jsonw w;

    qn_rules_hash(r, hash);
    qn_jsonw_init(&w, &gc->buf);
    qn_jsonw_obj(&w);
    qn_jsonw_key(&w, "type"), qn_jsonw_str(&w, "header");
    qn_jsonw_key(&w, "format"), qn_jsonw_str(&w, "quench-puzzles");
    qn_jsonw_key(&w, "format_version"), qn_jsonw_int(&w, 1);
    qn_jsonw_key(&w, "tool");
    qn_buf_adds(&gc->buf, "\"quench ");
    qn_buf_adds(&gc->buf, qn_version());
    qn_buf_addc(&gc->buf, '"');
    w.key_pending = 0;
    qn_jsonw_key(&w, "rule"), qn_jsonw_str(&w, qn_rules_name(r));
    qn_jsonw_key(&w, "rule_hash"), qn_jsonw_str(&w, hash);
    qn_jsonw_key(&w, "seed"), qn_jsonw_str(&w, gc->seed_hex);
    qn_jsonw_key(&w, "count"), qn_jsonw_uint(&w, gc->o.count);
    qn_jsonw_key(&w, "presses");
    qn_jsonw_arr(&w);
    qn_jsonw_uint(&w, gc->o.lo);
    if (gc->o.hi == UINT64_MAX)
        qn_jsonw_null(&w);
    else
        qn_jsonw_uint(&w, gc->o.hi);
    qn_jsonw_end(&w);
    qn_jsonw_key(&w, "unique_optimum"), qn_jsonw_bool(&w, gc->o.unique_optimum);
    qn_jsonw_key(&w, "min_lit"), qn_jsonw_int(&w, gc->o.min_lit);
    if (gc->shard_spec) {
        qn_jsonw_key(&w, "shard");
        qn_jsonw_arr(&w);
        qn_jsonw_uint(&w, gc->o.shard);
        qn_jsonw_uint(&w, gc->o.nshards);
        qn_jsonw_end(&w);
    }
    qn_jsonw_key(&w, "grader_version"), qn_jsonw_int(&w, QN_GRADER_VERSION);
    qn_jsonw_end(&w);
    qn_buf_addc(&gc->buf, '\n');
}

static void write_summary(gen_cli *gc, const qn_gen_stats *st, int done)
{
    qn_jsonw w;

    qn_jsonw_init(&w, &gc->buf);
    qn_jsonw_obj(&w);
    qn_jsonw_key(&w, "type"), qn_jsonw_str(&w, "summary");
    qn_jsonw_key(&w, "emitted"), qn_jsonw_uint(&w, st->emitted);
    qn_jsonw_key(&w, "complete"), qn_jsonw_bool(&w, done);
    qn_jsonw_key(&w, "draws"), qn_jsonw_uint(&w, st->draws);
    qn_jsonw_key(&w, "on_target"), qn_jsonw_uint(&w, st->on_target);
    qn_jsonw_key(&w, "duplicates"), qn_jsonw_uint(&w, st->duplicates);
    qn_jsonw_key(&w, "mode"), qn_jsonw_str(&w, qn_gen_mode_name(st->mode));
    qn_jsonw_key(&w, "target_fraction");
    if (st->rarity >= 0)
        qn_jsonw_real(&w, st->rarity);
    else
        qn_jsonw_null(&w);
    qn_jsonw_key(&w, "target_fraction_exact");
    qn_jsonw_bool(&w, st->rarity_exact);
    qn_jsonw_end(&w);
    qn_buf_addc(&gc->buf, '\n');
}

/* The options that define a run's output, for finding it to resume. */
static void run_key(const gen_cli *gc, qn_buf *b)
{
    qn_buf_addf(b, "count=%llu presses=%llu..%llu unique=%d min_lit=%d "
                   "tier=%s mode=%s max_draws=%llu pack=%s shard=%llu/%llu",
                (unsigned long long)gc->o.count,
                (unsigned long long)gc->o.lo, (unsigned long long)gc->o.hi,
                gc->o.unique_optimum, gc->o.min_lit,
                gc->tier ? gc->tier : "", qn_gen_mode_name(gc->o.mode),
                (unsigned long long)gc->o.max_draws,
                gc->pack ? gc->pack : "", (unsigned long long)gc->o.shard,
                (unsigned long long)gc->o.nshards);
}

/*
 * --db: store the rule, find an interrupted run with the same seed and
 * options or start a new one, and find or create the pack. A resumed run
 * replays its candidates from the start (cheap next to storing them):
 * the puzzles it stored before are met again, counted and not printed
 * twice, so the count, the symmetry dedup and the shard split come out
 * exactly as in an uninterrupted run.
 */
static int setup_store(gen_cli *gc)
{
    const qn_rules *r = qn_solver_rules(gc->g);
    qn_buf key = QN_BUF_INIT;
    qn_store_run run;
    int rc, status;

    status = cmd_open_store(gc->ctx,
                            cmd_db_path(strcmp(gc->db_opt, "-") ? gc->db_opt
                                                               : NULL),
                            QN_STORE_CREATE, &gc->store);
    if (status != QN_EXIT_OK)
        return status;
    rc = cmd_store_rule(gc->store, gc->rules, r, &gc->rule_id, &gc->db_err);
    run_key(gc, &key);
    memset(&run, 0, sizeof(run));
    run.command = "generate";
    run.rule_id = gc->rule_id;
    run.seed = gc->seed_hex;
    run.options = key.buf;
    run.tool_version = qn_version();
    run.requested = gc->o.count;
    if (rc == QN_OK)
        rc = qn_store_run_open(gc->store, &run, &gc->run_id, NULL,
                               &gc->db_err);
    if (rc == QN_OK)
        rc = qn_store_run_totals(gc->store, gc->run_id, &gc->stored_before,
                                 &gc->dups_before, &gc->db_err);
    qn_buf_release(&key);
    if (rc == QN_OK && gc->pack)
        rc = cmd_store_pack(gc->store, gc->pack, &gc->pack_id, &gc->db_err);
    if (rc != QN_OK)
        return qn_report(gc->ctx, &gc->db_err);
    gc->next_index = 0;
    gc->canon_key = QN_NEWN(qn_store_canon_size(qn_solver_ncells(gc->g),
                                                 qn_solver_colours(gc->g)) + 1,
                            uint8_t);
    if (gc->stored_before && !gc->ctx->quiet)
        fprintf(stderr, "quench: resuming run %lld: %llu puzzles already "
                        "stored\n",
                (long long)gc->run_id,
                (unsigned long long)gc->stored_before);
    return QN_EXIT_OK;
}

/* Default tiers from a uniform sample, when the exact counts are too many. */
static void sampled_tiers(gen_cli *gc)
{
    enum { NSAMPLE = 4096 };
    uint64_t *p = QN_NEWN(NSAMPLE, uint64_t);
    size_t got = qn_gen_sample_presses(gc->g, &gc->o.seed, p, NSAMPLE);

    qn_tiers_from_samples(&gc->tiers, p, got,
                          (uint64_t)qn_solver_ncells(gc->g) *
                              (qn_solver_colours(gc->g) - 1));
    free(p);
}

/* Grading tiers: the rule's own, else from the exact distribution. */
static int setup_grading(gen_cli *gc, qn_err *err)
{
    const qn_rules *r = qn_solver_rules(gc->g);
    int need_dist = qn_rules_ntiers(r) == 0 || gc->tier ||
                    gc->o.lo > 1 || gc->o.hi != UINT64_MAX;

    if (need_dist &&
        qn_distrib_compute(&gc->dist, qn_solver_system(gc->g), NULL) != QN_OK)
        gc->dist = NULL; /* too large: sampled tiers, sampling modes */
    if (qn_rules_ntiers(r))
        qn_tiers_from_rules(&gc->tiers, r);
    else if (gc->dist)
        qn_tiers_from_distrib(&gc->tiers, gc->dist);
    else
        sampled_tiers(gc);
    gc->o.tiers = &gc->tiers;
    gc->o.distrib = gc->dist;
    if (gc->tier) {
        size_t i;
        for (i = 0; i < gc->tiers.n; i++)
            if (!strcmp(gc->tiers.name[i], gc->tier))
                break;
        if (i == gc->tiers.n)
            return qn_err_set(err, QN_EINVAL, 0, 0,
                              "no tier '%s' in this rule's grading",
                              gc->tier);
        if (gc->tiers.lo[i] > gc->o.lo)
            gc->o.lo = gc->tiers.lo[i];
        if (gc->tiers.hi[i] < gc->o.hi)
            gc->o.hi = gc->tiers.hi[i];
    }
    return QN_OK;
}

/* Flush what is buffered, then commit the output (for -o: fsync, rename). */
static int close_output(gen_cli *gc)
{
    int bad = gc->write_failed;

    if (!bad && gc->buf.len &&
        fwrite(gc->buf.buf, 1, gc->buf.len, gc->out.f) != gc->buf.len)
        bad = errno ? errno : EIO;
    if (bad) {
        const char *name = gc->out.name;
        cmd_out_discard(&gc->out);
        return cmd_write_error(name, bad);
    }
    return cmd_out_commit(&gc->out);
}

static const char *stop_reason(void)
{
    switch (interrupted) {
    case SIGTERM: return "terminated (SIGTERM)";
    case SIGHUP: return "hung up (SIGHUP)";
    default: return "interrupted";
    }
}

static int finish(gen_cli *gc, int rc, const qn_gen_stats *st, qn_err *err)
{
    if (gc->progress)
        fputs("\r\033[K", stderr);
    if (rc == QN_OK) {
        if (!gc->ctx->quiet)
            fprintf(stderr,
                    "quench: %llu puzzles from %llu draws (%s mode), "
                    "%.2f s\n",
                    (unsigned long long)st->emitted,
                    (unsigned long long)st->draws,
                    qn_gen_mode_name(st->mode), now() - gc->t0);
        return QN_EXIT_OK;
    }
    if (interrupted) {
        if (gc->store)
            fprintf(stderr, "quench: %s: %llu puzzles stored in this "
                            "session (%llu in the run); run the same "
                            "command again to resume\n",
                    stop_reason(), (unsigned long long)gc->stored,
                    (unsigned long long)(gc->stored_before + gc->stored));
        else
            fprintf(stderr, "quench: %s: %llu puzzles produced\n",
                    stop_reason(), (unsigned long long)st->emitted);
        return QN_EXIT_SIGNAL + interrupted;
    }
    if (rc == QN_ELIMIT) {
        qn_report(gc->ctx, err);
        return QN_EXIT_TEMPFAIL;
    }
    return qn_report(gc->ctx, err);
}

/* The run's status in the database once qn_gen_run has returned rc. */
static const char *run_status(const gen_cli *gc, int rc)
{
    if (rc == QN_OK)
        return "done";
    /* a signal, or the reader of our output gone: resumable, not broken */
    if (interrupted || gc->write_failed == EPIPE)
        return "interrupted";
    return "failed";
}

int cmd_generate(int argc, char **argv, qn_ctx *ctx)
{
    gen_cli gc;
    qn_rules *r = NULL;
    qn_gen_stats st;
    qn_gen_hooks hooks;
    qn_err err = QN_ERR_INIT, why = QN_ERR_INIT;
    int status, rc;

    if (cmd_wants_help(argc, argv, cmd_generate_usage))
        return QN_EXIT_OK;
    memset(&gc, 0, sizeof(gc));
    gc.ctx = ctx;
    qn_buf_init(&gc.buf);
    qn_buf_init(&gc.pending);
    qn_buf_init(&gc.cell_text);
    if ((status = parse_opts(&gc, argc, argv)) != QN_EXIT_OK)
        return status;
    if ((status = cmd_load_game(ctx, gc.rules, &r, &gc.g)) != QN_EXIT_OK)
        return status;
    qn_solver_set_walk_limit(gc.g, gc.walk_limit);
    if (qn_solver_check_exact(gc.g, &why) != QN_OK) {
        /* no puzzle could be graded: refuse before anything is printed */
        qn_err_set(&err, QN_ELIMIT, 0, 0, "%s (see --walk-limit)", why.msg);
        qn_err_source(&err, gc.rules);
        status = qn_report(ctx, &err);
        goto done;
    }
    if (!gc.have_seed)
        qn_seed_random(&gc.o.seed);
    qn_seed_format(&gc.o.seed, gc.seed_hex);
    if (!ctx->quiet)
        fprintf(stderr, "quench: seed %s\n", gc.seed_hex);
    if (gc.o.max_draws == 0)
        gc.o.max_draws = gc.o.count * 1000 + 1000000;
    if (setup_grading(&gc, &err) != QN_OK) {
        status = qn_report(ctx, &err);
        goto done;
    }
    prepare_format(&gc);
    if (gc.db_opt && (status = setup_store(&gc)) != QN_EXIT_OK)
        goto done;
    if ((status = cmd_out_open(&gc.out, gc.out_path)) != QN_EXIT_OK)
        goto done;
    gc.t0 = gc.last_progress = now();
    gc.progress = !ctx->quiet && isatty(2);
    cmd_catch_stop_signals(on_stop_signal, SA_RESTART);
    write_header(&gc);
    hooks = (qn_gen_hooks){format_puzzle,
                           gc.store ? emit_stored : emit_puzzle, progress,
                           &gc, &interrupted};
    rc = qn_gen_run(gc.g, &gc.o, &hooks, &st, &err);
    if (gc.store) {
        /* what was stored is kept, on success, interrupt or error alike
         * (also when only printing it failed) */
        if (!gc.db_failed)
            commit_batch(&gc);
        if (!gc.db_failed)
            qn_store_run_finish(gc.store, gc.run_id, run_status(&gc, rc),
                                NULL);
        if (gc.db_failed) {
            cmd_out_discard(&gc.out);
            status = qn_report(ctx, &gc.db_err);
            goto done;
        }
    }
    if (rc == QN_EINVAL) { /* nothing started: no output file at all */
        cmd_out_discard(&gc.out);
        status = qn_report(ctx, &err);
        goto done;
    }
    write_summary(&gc, &st, rc == QN_OK);
    status = close_output(&gc);
    if (status == QN_EXIT_OK)
        status = finish(&gc, rc, &st, &err);
done:
    qn_store_close(gc.store);
    qn_buf_release(&gc.pending);
    qn_buf_release(&gc.cell_text);
    free(gc.canon_key);
    qn_buf_release(&gc.buf);
    for (size_t i = 0; i < gc.tiers.n; i++)
        qn_buf_release(&gc.grade_esc[i]);
    qn_distrib_free(gc.dist);
    qn_solver_free(gc.g);
    qn_rules_free(r);
    return status;
}
