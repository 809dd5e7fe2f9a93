/*
 * cmd_solve.c: `quench solve`: the exact answer for one state: solvable or
 * not, the least presses with an optimal plan to follow, how many optimal
 * and total solutions there are, a replay check; or why it is unsolvable
 * and the fewest cells to change.
 */
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cmd.h"
#include "quench/jsonw.h"
#include "quench/mem.h"
#include "quench/state.h"
#include "quench/submit.h"

const char cmd_solve_usage[] =
    "usage: quench solve RULES (--state S | FILE | -) [--json] [--all "
    "[--limit N]]\n"
    "\n"
    "Solve one state of the puzzle family in RULES exactly.\n"
    "\n"
    "  --state S      the state: text format (base 36 per cell, rows split\n"
    "                 by '/' or newlines, '.' for holes) or a JSON array of\n"
    "                 cell values; FILE or - (stdin) holds the same\n"
    "  --json         one JSON object: solvable, min_presses, exact,\n"
    "                 optimal_solutions, solutions, solution (per-cell\n"
    "                 press counts), presses (cells in the order to press),\n"
    "                 replay_ok, why, repair ([cell, new value] pairs)\n"
    "  --all          also list solutions, at most --limit N (default 100)\n"
    "  --walk-limit N the largest kernel walked for the exact minimum\n"
    "                 (default 2^30); beyond it the answer is marked not\n"
    "                 proven minimal\n"
    "\n"
    "Exit status: 0 solvable, 1 unsolvable, 65 bad state or rules, 66 a\n"
    "file is missing.\n";

#define MAX_STATE_FILE ((size_t)64 << 20)

typedef struct solve_opts {
    const char *rules, *state, *file;
    int json, all;
    uint64_t limit, walk_limit;
} solve_opts;

static int parse_opts(solve_opts *o, int argc, char **argv)
{
    static const struct option opts[] = {
        {"state", required_argument, NULL, 's'},
        {"json", no_argument, NULL, 'j'},
        {"all", no_argument, NULL, 'a'},
        {"limit", required_argument, NULL, 'l'},
        {"walk-limit", required_argument, NULL, 'w'},
        {NULL, 0, NULL, 0}};
    int c;

    memset(o, 0, sizeof(*o));
    o->limit = 100;
    o->walk_limit = QN_MINPRESS_DEFAULT_LIMIT;
    optind = 1;
    opterr = 0;
    while ((c = getopt_long(argc, argv, "", opts, NULL)) != -1) {
        switch (c) {
        case 's': o->state = optarg; break;
        case 'j': o->json = 1; break;
        case 'a': o->all = 1; break;
        case 'l':
            if (cmd_parse_u64(optarg, &o->limit))
                return qn_usage_error("solve: --limit needs a number, got "
                                      "'%s'", optarg);
            break;
        case 'w':
            if (cmd_parse_u64(optarg, &o->walk_limit))
                return qn_usage_error("solve: --walk-limit needs a number, "
                                      "got '%s'", optarg);
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
    if (optind < argc || !!o->state == !!o->file)
        return qn_usage_error("solve: give the state as --state S or as "
                              "one FILE (or -)");
    return QN_EXIT_OK;
}

/* Read the state from --state or the file into cells (ncells values). */
static int read_state(const qn_ctx *ctx, const solve_opts *o,
                      const qn_rules *r, uint8_t *cells)
{
    qn_err err = QN_ERR_INIT;
    char *text = NULL;
    size_t len;
    int rc;

    if (o->state) {
        rc = qn_submit_parse_state(cells, qn_rules_layout(r),
                                   qn_rules_colours(r), o->state,
                                   strlen(o->state), &err);
        qn_err_source(&err, "--state");
    } else {
        rc = cmd_read_all(o->file, MAX_STATE_FILE, &text, &len, &err);
        if (rc == QN_OK) {
            rc = qn_submit_parse_state(cells, qn_rules_layout(r),
                                       qn_rules_colours(r), text, len, &err);
            qn_err_source(&err, strcmp(o->file, "-") ? o->file : "<stdin>");
        }
        free(text);
    }
    return rc == QN_OK ? QN_EXIT_OK : qn_report(ctx, &err);
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

int cmd_solve(int argc, char **argv, qn_ctx *ctx)
{
    solve_opts o;
    qn_rules *r = NULL;
    qn_game *g = NULL;
    qn_answer a;
    qn_buf out = QN_BUF_INIT;
    uint8_t *cells = NULL;
    int status;

    if (cmd_wants_help(argc, argv, cmd_solve_usage))
        return QN_EXIT_OK;
    if ((status = parse_opts(&o, argc, argv)) != QN_EXIT_OK)
        return status;
    if ((status = cmd_load_game(ctx, o.rules, &r, &g)) != QN_EXIT_OK)
        return status;
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
    status = cmd_finish_out(&out);
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
