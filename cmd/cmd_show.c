/*
 * cmd_show.c: `quench show`: draw a puzzle in the terminal (term.h): a
 * stored puzzle by id, the puzzles of a pack, or a state given on the
 * command line under a rule file. Colour blocks on a terminal, plain
 * characters elsewhere or with NO_COLOR.
 */
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "base/jsonw.h"
#include "base/mem.h"
#include "base/text.h"
#include "cmd.h"
#include "export/export.h"
#include "export/term.h"
#include "rules/puzzle_id.h"
#include "solve/human_score.h"
#include "store/store.h"
#include "validate/submit.h"

#define MAX_STATE_FILE ((size_t)1 << 20)

const char cmd_show_usage[] =
    "usage: quench show ID [--db DB] [--color WHEN]\n"
    "       quench show --pack NAME [--position N] [--db DB] [--color WHEN]\n"
    "       quench show RULES [--state S | FILE | -] [--color WHEN]\n"
    "\n"
    "Draw a puzzle in the terminal: the stored puzzle ID (its id, a unique\n"
    "prefix of 4+ hex digits, or #ROW), the puzzles of pack NAME in order\n"
    "(or the one at position N, from 1), or a state of the family in RULES:\n"
    "--state S, FILE or - (stdin) in the text format solve reads (base 36\n"
    "per cell, rows split by '/' or newlines, '.' for holes) or a JSON\n"
    "array; RULES alone draws its goal. An argument that reads as a puzzle\n"
    "id (4 to 16 hex digits, or #ROW) is one: write a rule file named like\n"
    "one as ./NAME.\n"
    "\n"
    "  --color WHEN  auto (default): colour blocks and a legend when\n"
    "                standard output is a terminal, TERM is set and not\n"
    "                dumb, and NO_COLOR is unset or empty; always; never:\n"
    "                plain characters (base-36 digits, '.' a hole)\n"
    "  --db DB       the database (default $QUENCH_DB, else db/quench.db)\n"
    "\n"
    "Grids are drawn row by row (a torus or cylinder is said to wrap), hex\n"
    "boards with odd rows half a cell to the right, hexagons as hexagons,\n"
    "graph boards as a table of each cell's value and the cells a press of\n"
    "it changes.\n"
    "\n"
    "Exit status: 0 drawn, 64 bad usage, 65 bad state or rules, 66 a file,\n"
    "puzzle, pack or position is missing.\n";

typedef struct show_opts {
    const char *db, *pack, *state, *color;
    const char *arg, *file; /* ID or RULES; FILE */
    uint64_t position;      /* 0: every puzzle of the pack */
} show_opts;

int cmd_colour_for(FILE *f, const char *cmd, const char *when)
{
    qn_term_when w = QN_TERM_AUTO;

    if (when && qn_term_parse_when(when, &w) != 0) {
        cli_usage_error("%s: --color needs auto, always or never, got '%s'",
                        cmd, when);
        return -1;
    }
    return qn_term_use_colour(w, isatty(fileno(f)), getenv("TERM"),
                              getenv("NO_COLOR"));
}

static const struct option opts[] = {{"db", required_argument, NULL, 'd'},
                                     {"pack", required_argument, NULL, 'p'},
                                     {"position", required_argument, NULL, 'n'},
                                     {"state", required_argument, NULL, 's'},
                                     {"color", required_argument, NULL, 'c'},
                                     {"colour", required_argument, NULL, 'c'},
                                     {NULL, 0, NULL, 0}};

/* ID or RULES first (a file is what a shell can offer), then a state FILE */
const cmd_grammar cmd_show_grammar = {
    .opts = opts,
    .operands = "rules file",
    .values = "db=file pack=pack color=auto|always|never "
              "colour=auto|always|never",
};

static int parse_opts(show_opts *o, int argc, char **argv)
{
    int c;

    memset(o, 0, sizeof(*o));
    optind = 1;
    opterr = 0;
    while ((c = getopt_long(argc, argv, "", opts, NULL)) != -1) {
        switch (c) {
        case 'd':
            o->db = optarg;
            break;
        case 'p':
            o->pack = optarg;
            break;
        case 's':
            o->state = optarg;
            break;
        case 'c':
            o->color = optarg;
            break;
        case 'n':
            if (cmd_parse_u64(optarg, &o->position) || o->position < 1)
                return cli_usage_error("show: --position needs 1, 2, ..., "
                                       "got '%s'",
                                       optarg);
            break;
        default:
            return cmd_bad_option("show", argv, opts, NULL);
        }
    }
    if (optind < argc)
        o->arg = argv[optind++];
    if (optind < argc)
        o->file = argv[optind++];
    if (optind < argc)
        return cli_usage_error("show: unexpected '%s'", argv[optind]);
    if (o->pack)
        return o->arg || o->state
                   ? cli_usage_error("show: --pack draws a pack's puzzles: "
                                     "no ID, RULES or state")
                   : QN_EXIT_OK;
    if (o->position)
        return cli_usage_error("show: --position goes with --pack");
    if (!o->arg)
        return cli_usage_error("show: name a puzzle ID, --pack NAME or a "
                               "RULES file");
    if (o->state && o->file)
        return cli_usage_error("show: give the state as --state S or one "
                               "FILE, not both");
    if (o->db && (o->state || o->file || !cmd_is_puzzle_ref(o->arg)))
        return cli_usage_error("show: --db goes with a puzzle ID or --pack");
    return QN_EXIT_OK;
}

/* One drawing: heading (may be ""), caption when asked, board, legend. */
static void draw(qn_buf *out, const char *heading, int caption,
                 const qn_rules *r, const uint8_t *cells, int colour)
{
    qn_buf_adds(out, heading);
    if (caption)
        qn_term_caption(out, r);
    qn_term_board(out, r, cells, colour);
    qn_term_legend(out, r, cells, colour);
}

/* "puzzle ID: N presses, GRADE" */
static void add_heading(qn_buf *out, uint64_t uid, uint64_t presses,
                        const char *grade)
{
    char hex[QN_PUZZLE_ID_HEX];

    qn_puzzle_id_hex(hex, uid);
    qn_buf_addf(out, "puzzle %s: %llu press%s%s", hex,
                (unsigned long long)presses, presses == 1 ? "" : "es",
                *grade ? ", " : "");
    /* a grade read from a database file is text from outside: no byte of
     * it may reach the terminal as a control sequence */
    qn_text_escape(out, grade);
    qn_buf_addc(out, '\n');
}

/* "human level: chase (1), from the top" and "human score: 4.120
 * (model 1)": the state's rung on the technique ladder and its score
 * (docs/GENERATE.md "The human ladder", "The human score"). */
static void add_human(qn_buf *out, const qn_rules *r, const uint8_t *cells)
{
    qn_err err = QN_ERR_INIT;
    qn_solver *solver = NULL;
    qn_human_grader *hg = NULL;
    qn_human_grade gr;
    qn_human_model m;
    int rc = qn_solver_new(&solver, r, &err);

    if (rc == QN_OK)
        rc = qn_human_grader_new(&hg, solver, &err);
    if (rc == QN_OK)
        rc = qn_human_grade_state(hg, cells, &gr, &err);
    if (rc == QN_ENOMEM)
        cli_oom();
    qn_buf_adds(out, "human level: ");
    if (rc == QN_OK) {
        char score[32];
        qn_buf_addf(out, "%s (%d)", qn_human_level_name(gr.level), gr.level);
        if (gr.side >= 0)
            qn_buf_addf(
                out, ", from the %s",
                qn_human_side_name(qn_human_grader_human(hg), (size_t)gr.side));
        qn_human_model_default(&m);
        *qn_json_put_milli(score, qn_human_score_milli(&m, &gr)) = '\0';
        qn_buf_addf(out, "\nhuman score: %s (model %d)", score, m.version);
    } else if (rc == QN_EUNSOLVABLE) {
        qn_buf_adds(out, "none (the state is unsolvable)");
    } else {
        qn_buf_addf(out, "not decided (%s)", err.msg);
    }
    qn_buf_addc(out, '\n');
    qn_human_grader_free(hg);
    qn_solver_free(solver);
}

/* Parse the state text under r; report (as `source`) on failure. */
static int parse_state(const cli_ctx *ctx, const qn_rules *r, uint8_t *cells,
                       const char *text, size_t len, const char *source)
{
    qn_err err = QN_ERR_INIT;

    if (qn_submit_parse_state(cells, qn_rules_layout(r), qn_rules_colours(r),
                              text, len, &err) == QN_OK)
        return QN_EXIT_OK;
    qn_err_source(&err, source);
    return cli_report(ctx, &err);
}

static int show_id(const cli_ctx *ctx, const show_opts *o, int colour,
                   qn_buf *out)
{
    qn_rules *r = NULL;
    char *state = NULL;
    cmd_stored info;
    uint8_t *cells;
    int st = cmd_load_stored(ctx, "show", o->db, o->arg, &r, &state, &info);

    if (st != QN_EXIT_OK)
        return st;
    cells = CLI_NEWN((size_t)qn_rules_ncells(r), uint8_t);
    st = parse_state(ctx, r, cells, state, strlen(state), cmd_db_path(o->db));
    if (st == QN_EXIT_OK) {
        add_heading(out, info.uid, info.min_presses, info.grade);
        draw(out, "", 1, r, cells, colour);
        add_human(out, r, cells);
    }
    free(cells);
    free(state);
    qn_rules_free(r);
    return st;
}

static int show_rules(const cli_ctx *ctx, const show_opts *o, int colour,
                      qn_buf *out)
{
    qn_err err = QN_ERR_INIT;
    qn_rules *r = NULL;
    uint8_t *cells;
    char *text = NULL;
    size_t len;
    int st;

    if (qn_rules_load_file(&r, o->arg, &err) != QN_OK)
        return cli_report(ctx, &err);
    cells = CLI_NEWN((size_t)qn_rules_ncells(r), uint8_t);
    if (o->state) {
        st = parse_state(ctx, r, cells, o->state, strlen(o->state), "--state");
    } else if (o->file) {
        const char *name = strcmp(o->file, "-") ? o->file : "<stdin>";
        st = cmd_read_all(o->file, MAX_STATE_FILE, &text, &len, &err) == QN_OK
                 ? parse_state(ctx, r, cells, text, len, name)
                 : cli_report(ctx, &err);
    } else {
        memcpy(cells, qn_rules_goal(r), (size_t)qn_rules_ncells(r));
        st = QN_EXIT_OK;
    }
    if (st == QN_EXIT_OK) {
        qn_term_caption(out, r);
        draw(out, o->state || o->file ? "" : "the goal (no state given):\n", 0,
             r, cells, colour);
        if (o->state || o->file)
            add_human(out, r, cells);
    }
    free(text);
    free(cells);
    qn_rules_free(r);
    return st;
}

static int show_pack(const cli_ctx *ctx, const show_opts *o, int colour,
                     qn_buf *out)
{
    qn_store *s = NULL;
    qn_pack_doc doc;
    qn_err err = QN_ERR_INIT;
    const char *path = cmd_db_path(o->db);
    size_t last = (size_t)-1, shown = 0;
    int64_t id;
    int st = cmd_open_store(ctx, path, QN_STORE_READONLY, &s);

    if (st)
        return st;
    if (cmd_find_pack(s, o->pack, &id, &err) != QN_OK ||
        qn_pack_doc_load(&doc, s, o->pack, &err) != QN_OK) {
        qn_err_source(&err, path);
        qn_store_close(s);
        return cli_report(ctx, &err);
    }
    qn_store_close(s);
    if (o->position > doc.npuzzles) {
        qn_err_set(&err, QN_ENOTFOUND, 0, 0,
                   "pack '%s' has no position %llu (it holds %zu puzzle%s)",
                   o->pack, (unsigned long long)o->position, doc.npuzzles,
                   doc.npuzzles == 1 ? "" : "s");
        qn_err_source(&err, path);
        qn_pack_doc_release(&doc);
        return cli_report(ctx, &err);
    }
    for (size_t i = 0; i < doc.npuzzles; i++) {
        const qn_pack_puzzle *p = &doc.puzzles[i];
        if (o->position && (uint64_t)p->position != o->position)
            continue;
        qn_buf_addf(out, "%spack %s, %lld of %zu: ", shown++ ? "\n" : "",
                    o->pack, (long long)p->position, doc.npuzzles);
        add_heading(out, p->id, p->min_presses, p->grade);
        draw(out, "", p->rule != last, doc.rules[p->rule].rules, p->state,
             colour);
        add_human(out, doc.rules[p->rule].rules, p->state);
        last = p->rule;
        if ((st = cmd_flush_out(out)) != QN_EXIT_OK)
            break;
    }
    if (!doc.npuzzles)
        qn_buf_addf(out, "pack %s holds no puzzles\n", o->pack);
    qn_pack_doc_release(&doc);
    return st;
}

int cmd_show(int argc, char **argv, cli_ctx *ctx)
{
    show_opts o;
    qn_buf out = QN_BUF_INIT;
    int st, colour;

    if (cmd_wants_help(argc, argv, cmd_show_usage))
        return QN_EXIT_OK;
    if ((st = parse_opts(&o, argc, argv)) != QN_EXIT_OK)
        return st;
    if ((colour = cmd_colour_for(stdout, "show", o.color)) < 0)
        return QN_EXIT_USAGE;
    if (o.pack)
        st = show_pack(ctx, &o, colour, &out);
    else if (!o.state && !o.file && cmd_is_puzzle_ref(o.arg))
        st = show_id(ctx, &o, colour, &out);
    else
        st = show_rules(ctx, &o, colour, &out);
    if (st == QN_EXIT_OK)
        st = cmd_finish_out(&out);
    qn_buf_release(&out);
    return st;
}
