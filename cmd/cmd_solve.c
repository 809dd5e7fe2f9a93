/*
 * cmd_solve.c: `quench solve`: the exact answer for one state: solvable or
 * not, the least presses with an optimal plan to follow, how many optimal
 * and total solutions there are, a replay check; or why it is unsolvable
 * and the fewest cells to change.
 */
#include <errno.h>
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cmd.h"
#include "quench/jsonw.h"
#include "quench/mem.h"
#include "quench/netpbm.h"
#include "quench/state.h"
#include "quench/submit.h"

const char cmd_solve_usage[] =
    "usage: quench solve RULES (--state S | --fill V | FILE | -) [--json]\n"
    "                    [--all [--limit N]] [--size WxH] [-o FILE [--plain]]\n"
    "\n"
    "Solve one state of the puzzle family in RULES exactly.\n"
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
    "  --all          also list solutions, at most --limit N (default 100)\n"
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

#define MAX_STATE_FILE ((size_t)64 << 20)

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

static int parse_opts(solve_opts *o, int argc, char **argv)
{
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
        {NULL, 0, NULL, 0}};
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
        case 'p':
            o->plain = 1;
            break;
        case 'f':
            if (cmd_parse_u64(optarg, &v) || v > 254)
                return qn_usage_error("solve: --fill needs a colour 0..254, "
                                      "got '%s'",
                                      optarg);
            o->has_fill = 1;
            o->fill = (unsigned)v;
            break;
        case 'z':
            if (parse_size(optarg, &o->sw, &o->sh))
                return qn_usage_error("solve: --size needs WxH with sides "
                                      "1..%d, got '%s'",
                                      QN_GRID_MAX_SIDE, optarg);
            break;
        case 'j':
            o->json = 1;
            break;
        case 'a':
            o->all = 1;
            break;
        case 'l':
            limit_given = 1;
            if (cmd_parse_u64(optarg, &o->limit))
                return qn_usage_error("solve: --limit needs a number, got "
                                      "'%s'",
                                      optarg);
            break;
        case 'w':
            if (cmd_parse_u64(optarg, &o->walk_limit))
                return qn_usage_error("solve: --walk-limit needs a number, "
                                      "got '%s'",
                                      optarg);
            break;
        default:
            return qn_usage_error("solve: unknown or incomplete option '%s'",
                                  argv[optind - 1]);
        }
    }
    if (optind >= argc)
        return qn_usage_error("solve: name a RULES file");
    o->rules = argv[optind++];
    if (optind < argc)
        o->file = argv[optind++];
    if (o->state && !o->file && is_image_name(o->state)) {
        o->file = o->state; /* --state board.pbm names an image */
        o->state = NULL;
    }
    if (optind < argc || !!o->state + !!o->file + o->has_fill != 1)
        return qn_usage_error("solve: give the state as one of --state S, "
                              "--fill V or one FILE (or -)");
    if (o->plain && !o->output)
        return qn_usage_error("solve: --plain is for the -o image");
    if (limit_given && !o->all)
        return qn_usage_error("solve: --limit is for --all");
    return QN_EXIT_OK;
}

/* A state image for the dense model: the board must be a full grid. */
static int read_pnm_state(const qn_rules *r, uint8_t *cells, char *text,
                          size_t len, qn_err *err)
{
    const qn_layout *l = qn_rules_layout(r);
    FILE *f;
    int rc;

    if (l->kind != QN_LAYOUT_GRID || l->ncells != l->w * l->h)
        return qn_err_set(err, QN_EINVAL, 0, 0,
                          "images are for grid boards without holes");
    f = fmemopen(text, len, "rb");
    if (!f)
        return qn_err_set(err, QN_EIO, 0, 0, "cannot read the image: %s",
                          strerror(errno));
    rc = qn_pnm_read(f, l->w, l->h, qn_rules_colours(r), cells, NULL, err);
    fclose(f);
    return rc;
}

int cmd_solve_check_fill(const qn_ctx *ctx, const solve_opts *o, unsigned k)
{
    qn_err err = QN_ERR_INIT;

    if (o->fill < k)
        return 0;
    qn_err_set(&err, QN_EINVAL, 0, 0,
               "--fill %u is not a colour: the rule has %u", o->fill, k);
    qn_report(ctx, &err);
    return -1;
}

/* Read the state from --state, --fill or the file into cells. */
static int read_state(const qn_ctx *ctx, const solve_opts *o, const qn_rules *r,
                      uint8_t *cells)
{
    qn_err err = QN_ERR_INIT;
    char *text = NULL;
    size_t len;
    int rc;

    if (o->has_fill) {
        if (cmd_solve_check_fill(ctx, o, qn_rules_colours(r)))
            return QN_EXIT_DATAERR;
        memset(cells, (int)o->fill, (size_t)qn_rules_ncells(r));
        return QN_EXIT_OK;
    }
    if (o->state) {
        rc = qn_submit_parse_state(cells, qn_rules_layout(r),
                                   qn_rules_colours(r), o->state,
                                   strlen(o->state), &err);
        qn_err_source(&err, "--state");
    } else {
        rc = cmd_read_all(o->file, MAX_STATE_FILE, &text, &len, &err);
        if (rc == QN_OK && qn_pnm_is_image(text, len))
            rc = read_pnm_state(r, cells, text, len, &err);
        else if (rc == QN_OK)
            rc = qn_submit_parse_state(cells, qn_rules_layout(r),
                                       qn_rules_colours(r), text, len, &err);
        qn_err_source(&err, strcmp(o->file, "-") ? o->file : "<stdin>");
        free(text);
    }
    return rc == QN_OK ? QN_EXIT_OK : qn_report(ctx, &err);
}

/* -o: the plan as an image (grid boards without holes only). */
static int write_plan(const qn_ctx *ctx, const solve_opts *o, const qn_rules *r,
                      const uint8_t *plan)
{
    const qn_layout *l = qn_rules_layout(r);
    qn_err err = QN_ERR_INIT;
    qn_buf img = QN_BUF_INIT;
    int st;

    if (l->kind != QN_LAYOUT_GRID || l->ncells != l->w * l->h) {
        qn_err_set(&err, QN_EINVAL, 0, 0,
                   "-o writes images, which need a grid board without "
                   "holes");
        return qn_report(ctx, &err);
    }
    qn_pnm_write_buf(&img, l->w, l->h, qn_rules_colours(r), plan,
                     o->plain ? 0 : QN_PNM_RAW, NULL);
    st = cmd_write_atomic(o->output, img.buf, img.len);
    qn_buf_release(&img);
    return st;
}

/* The presses in the order a player can follow: each cell, times over. */
static void add_plan_text(qn_buf *out, const qn_game *g, const uint8_t *x)
{
    int n = qn_game_ncells(g), any = 0;

    for (int i = 0; i < n; i++) {
        if (!x[i])
            continue;
        qn_buf_adds(out, any++ ? ", " : "");
        qn_game_cell_name(g, out, i);
        if (x[i] > 1)
            qn_buf_addf(out, " x%u", x[i]);
    }
    if (!any)
        qn_buf_adds(out, "nothing");
}

static void add_size(qn_buf *out, const qn_game *g, qn_jsonw *w)
{
    qn_buf b = QN_BUF_INIT;
    uint64_t v;
    const qn_system *sys = qn_game_system(g);

    if (qn_system_group_size_u64(sys, QN_KERNEL, &v) == QN_OK &&
        v < ((uint64_t)1 << 53)) {
        if (w)
            qn_jsonw_uint(w, v);
        else
            qn_buf_addf(out, "%llu", (unsigned long long)v);
        return;
    }
    qn_system_group_size(sys, QN_KERNEL, &b);
    if (w)
        qn_jsonw_str(w, b.buf);
    else
        qn_buf_adds(out, b.buf);
    qn_buf_release(&b);
}

typedef struct all_ctx {
    qn_buf *out;
    qn_jsonw *w;
    const qn_game *g;
} all_ctx;

static int list_one(void *vctx, const uint8_t *x)
{
    all_ctx *a = vctx;
    int n = qn_game_ncells(a->g);
    uint64_t sum = 0;

    /* keep memory flat however many solutions are asked for */
    if (a->out->len > (1u << 16) && cmd_flush_out(a->out) != QN_EXIT_OK)
        return 1;

    for (int i = 0; i < n; i++)
        sum += x[i];
    if (a->w) {
        qn_jsonw_arr(a->w);
        for (int i = 0; i < n; i++)
            qn_jsonw_uint(a->w, x[i]);
        qn_jsonw_end(a->w);
        return 0;
    }
    qn_buf_addf(a->out, "  %3llu presses: ", (unsigned long long)sum);
    qn_state_format(a->out, qn_rules_layout(qn_game_rules(a->g)), x, '/');
    qn_buf_addc(a->out, '\n');
    return 0;
}

static void solve_text(qn_buf *out, const qn_game *g, const qn_answer *a,
                       const uint8_t *cells, const solve_opts *o)
{
    const qn_layout *l = qn_rules_layout(qn_game_rules(g));

    if (!a->solvable) {
        qn_buf_adds(out, "solvable:      no\nwhy:\n");
        qn_game_explain(g, out, cells, 8);
        if (!a->repair_known) {
            qn_buf_adds(out, "repair:        not computed (too many "
                             "classes of states)\n");
            return;
        }
        qn_buf_addf(out, "repair:        change %d cell%s:", a->nrepair,
                    a->nrepair == 1 ? "" : "s");
        for (int i = 0; i < a->nrepair; i++) {
            int c = a->repair_cell[i];
            qn_buf_adds(out, i ? ", " : " ");
            qn_game_cell_name(g, out, c);
            qn_buf_addf(out, " from %u to %u", cells[c], a->repair_value[i]);
        }
        qn_buf_addc(out, '\n');
        return;
    }
    qn_buf_addf(out, "solvable:      yes%s\n",
                a->at_goal ? " (already at the goal)" : "");
    qn_buf_addf(out, "min presses:   %llu%s\n",
                (unsigned long long)a->mp.presses,
                a->exact ? "" : " (not proven minimal: kernel too large)");
    if (a->exact)
        qn_buf_addf(out, "optimal plans: %llu of ",
                    (unsigned long long)a->mp.noptimal);
    else
        qn_buf_adds(out, "solutions:     ");
    add_size(out, g, NULL);
    qn_buf_adds(out, " solutions\nplan:          press ");
    add_plan_text(out, g, a->plan);
    qn_buf_adds(out, "\npress counts:\n");
    qn_state_format(out, l, a->plan, '\n');
    qn_buf_addf(out, "\nreplay:        %s\n",
                qn_game_replays(g, cells, a->plan) ? "reaches the goal"
                                                   : "FAILED");
    (void)o;
}

static void solve_json(qn_jsonw *w, const qn_game *g, const qn_answer *a,
                       const uint8_t *cells)
{
    int n = qn_game_ncells(g);
    qn_buf why = QN_BUF_INIT;

    qn_jsonw_key(w, "solvable"), qn_jsonw_bool(w, a->solvable);
    qn_jsonw_key(w, "at_goal"), qn_jsonw_bool(w, a->at_goal);
    qn_jsonw_key(w, "min_presses");
    if (a->solvable)
        qn_jsonw_uint(w, a->mp.presses);
    else
        qn_jsonw_null(w);
    qn_jsonw_key(w, "exact"), qn_jsonw_bool(w, a->solvable && a->exact);
    qn_jsonw_key(w, "optimal_solutions");
    qn_jsonw_uint(w, a->solvable && a->exact ? a->mp.noptimal : 0);
    qn_jsonw_key(w, "solutions");
    if (a->solvable)
        add_size(NULL, g, w);
    else
        qn_jsonw_uint(w, 0);
    qn_jsonw_key(w, "solution");
    if (a->solvable) {
        qn_jsonw_arr(w);
        for (int i = 0; i < n; i++)
            qn_jsonw_uint(w, a->plan[i]);
        qn_jsonw_end(w);
        qn_jsonw_key(w, "presses");
        qn_jsonw_arr(w);
        for (int i = 0; i < n; i++)
            for (unsigned t = 0; t < a->plan[i]; t++)
                qn_jsonw_uint(w, (uint64_t)i);
        qn_jsonw_end(w);
        qn_jsonw_key(w, "replay_ok");
        qn_jsonw_bool(w, qn_game_replays(g, cells, a->plan));
    } else {
        qn_jsonw_null(w);
    }
    if (!a->solvable) {
        qn_game_explain(g, &why, cells, 1000);
        qn_jsonw_key(w, "why"), qn_jsonw_str(w, why.buf);
        qn_jsonw_key(w, "repair");
        if (!a->repair_known) {
            qn_jsonw_null(w);
        } else {
            qn_jsonw_arr(w);
            for (int i = 0; i < a->nrepair; i++) {
                qn_jsonw_arr(w);
                qn_jsonw_int(w, a->repair_cell[i]);
                qn_jsonw_uint(w, a->repair_value[i]);
                qn_jsonw_end(w);
            }
            qn_jsonw_end(w);
        }
    }
    qn_buf_release(&why);
}

/* Load RULES at --size: the dense model, or a big grid (*r NULL). */
static int load(const qn_ctx *ctx, const solve_opts *o, qn_rules **r,
                qn_game **g, qn_grid_rule *grid)
{
    qn_err err = QN_ERR_INIT;
    int rc = qn_rules_load_sized(r, grid, o->rules, o->sw, o->sh, &err);

    if (rc == QN_OK && *r)
        rc = qn_game_new(g, *r, &err);
    if (rc == QN_OK)
        return QN_EXIT_OK;
    if (!err.source[0])
        qn_err_source(&err, o->rules);
    return qn_report(ctx, &err);
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

int cmd_solve(int argc, char **argv, qn_ctx *ctx)
{
    solve_opts o;
    qn_rules *r = NULL;
    qn_grid_rule grid;
    qn_game *g = NULL;
    qn_answer a;
    qn_buf out = QN_BUF_INIT;
    uint8_t *cells = NULL;
    int status;

    if (cmd_wants_help(argc, argv, cmd_solve_usage))
        return QN_EXIT_OK;
    if ((status = parse_opts(&o, argc, argv)) != QN_EXIT_OK)
        return status;
    if ((status = load(ctx, &o, &r, &g, &grid)) != QN_EXIT_OK) {
        qn_rules_free(r);
        return status;
    }
    if (!r) {
        status = cmd_solve_grid(ctx, &o, &grid);
        qn_grid_rule_release(&grid);
        return status;
    }
    qn_game_set_walk_limit(g, o.walk_limit);
    cells = QN_NEWN((size_t)qn_game_ncells(g) + 1, uint8_t);
    qn_answer_init(&a, g);
    if ((status = read_state(ctx, &o, r, cells)) != QN_EXIT_OK)
        goto done;
    qn_game_answer(g, &a, cells);
    if (o.json) {
        qn_jsonw w;
        qn_jsonw_init(&w, &out);
        qn_jsonw_obj(&w);
        solve_json(&w, g, &a, cells);
        if (o.all && a.solvable) {
            all_ctx ac = {&out, &w, g};
            qn_jsonw_key(&w, "all");
            qn_jsonw_arr(&w);
            qn_game_each_solution(g, cells, o.limit, list_one, &ac);
            qn_jsonw_end(&w);
        }
        qn_jsonw_end(&w);
        qn_buf_addc(&out, '\n');
    } else {
        solve_text(&out, g, &a, cells, &o);
        if (o.all && a.solvable) {
            all_ctx ac = {&out, NULL, g};
            qn_buf_adds(&out, "solutions:\n");
            qn_game_each_solution(g, cells, o.limit, list_one, &ac);
        }
    }
    if (o.output && a.solvable &&
        (status = write_plan(ctx, &o, r, a.plan)) != QN_EXIT_OK)
        goto done;
    status = cmd_solve_report(&o, &out);
    if (status == QN_EXIT_OK && !a.solvable)
        status = QN_EXIT_REJECT;
done:
    qn_buf_release(&out);
    qn_answer_release(&a);
    free(cells);
    qn_game_free(g);
    qn_rules_free(r);
    return status;
}
