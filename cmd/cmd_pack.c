/*
 * cmd_pack.c: `quench pack ...`: curate stored puzzles into named, ordered,
 * versioned packs. Each subcommand is one transaction in the library.
 */
#include <errno.h>
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "base/buf.h"
#include "base/jsonw.h"
#include "base/mem.h"
#include "base/text.h"
#include "cmd.h"
#include "export/export.h"
#include "rules/puzzle_id.h"
#include "solve/human.h"
#include "store/store.h"

const char cmd_pack_usage[] =
    "usage: quench pack [--db PATH] SUBCOMMAND [ARGS...] [--json]\n"
    "\n"
    "  create NAME [--title T] [--description D] [--author A]\n"
    "                       a new, empty pack (version 1)\n"
    "  list [--json | --names]\n"
    "                       every pack: name, version, size, title;\n"
    "                       --names: only the names, one a line\n"
    "  show NAME --svg      the pack's minimal-press histogram against the\n"
    "                       rule's exact distribution (or a sample of it,\n"
    "                       said so, past 2^26 states), as an SVG picture\n"
    "  show NAME [--json]   a pack and its puzzles in order: position, id,\n"
    "                       rule, min presses, grade, state\n"
    "  add NAME ID... [--at POS]\n"
    "                       append puzzles (or insert them from POS on)\n"
    "  remove NAME ID...    take puzzles out; later ones move up\n"
    "  move NAME ID POS     move one puzzle to position POS\n"
    "  replace NAME ID NEW  put puzzle NEW in the place and level slot of\n"
    "                       member ID (a re-rolled level keeps its slot)\n"
    "  sort NAME [--by presses|human]  stable, by min presses or human grade\n"
    "  rename NAME NEW      rename a pack\n"
    "  delete NAME          delete a pack (its puzzles stay stored)\n"
    "  build RECIPE [--plan] [--jobs N] [--plan-budget N] [--json]\n"
    "                       build (or rebuild) the pack a campaign recipe\n"
    "                       describes (docs/CAMPAIGNS.md); --plan says what\n"
    "                       each section's target holds and draws nothing;\n"
    "                       --plan-budget: states the plan's pilots may\n"
    "                       grade (default 33554432)\n"
    "\n"
    "Each change says what it did on one line of stdout (nothing with -q).\n"
    "--json, on every subcommand, prints one JSON object instead: list an\n"
    "array of {name, title, version, puzzles, rules}; show {name, title,\n"
    "description, author, version, created, modified, puzzles: [...]};\n"
    "create, add, remove, move, replace, sort, rename and delete {action,\n"
    "pack, version, puzzles, changed} (the pack after the change; rename\n"
    "adds from, move position, replace slot, add and remove count); build\n"
    "the plan, or\n"
    "{action, pack, version, puzzles, changed, draws}.\n"
    "\n"
    "ID is a puzzle id (16 hex digits, as generate, validate, pack show\n"
    "and exports print it), a unique prefix of one (at least 4 digits),\n"
    "or #ROW, the database row. Positions run 1..N without gaps; every\n"
    "change bumps the pack's version (an edit that changes nothing does\n"
    "not). A name is 1..64 bytes of UTF-8 without control characters,\n"
    "not beginning with '-' nor beginning or ending with a space; a title,\n"
    "description or author at most 4096 bytes, on one line (a description\n"
    "may span lines). --db PATH (default: $QUENCH_DB, else db/quench.db)\n"
    "selects the database; only create creates it when missing.\n";

/* the option tables read as tables */
// clang-format off
enum {
    SUB_CREATE, SUB_LIST, SUB_SHOW, SUB_ADD, SUB_REMOVE, SUB_MOVE,
    SUB_SORT, SUB_RENAME, SUB_DELETE, SUB_BUILD, SUB_REPLACE
};

#define OPT_JSON {"json", no_argument, NULL, 'j'}
#define OPT_END {NULL, 0, NULL, 0}
static const struct option o_create[] = {
    {"title", required_argument, NULL, 't'},
    {"description", required_argument, NULL, 'd'},
    {"author", required_argument, NULL, 'a'},
    OPT_JSON, OPT_END};
static const struct option o_list[] = {
    {"names", no_argument, NULL, 'n'}, OPT_JSON, OPT_END};
static const struct option o_show[] = {
    {"svg", no_argument, NULL, 's'}, OPT_JSON, OPT_END};
static const struct option o_add[] = {
    {"at", required_argument, NULL, 'p'}, OPT_JSON, OPT_END};
static const struct option o_json[] = {OPT_JSON, OPT_END};
static const struct option o_sort[] = {
    {"by", required_argument, NULL, 'b'}, OPT_JSON, OPT_END};
static const struct option o_build[] = {
    {"plan", no_argument, NULL, 'P'},
    {"jobs", required_argument, NULL, 'J'},
    {"plan-budget", required_argument, NULL, 'B'},
    OPT_JSON,
    OPT_END};
static const struct option o_pack[] = {
    {"db", required_argument, NULL, 'D'}, OPT_END};

// clang-format on

static const cmd_grammar pack_subs[] = {
    {"create", "a new, empty pack", SUB_CREATE, o_create, NULL, "none", NULL,
     NULL},
    {"list", "every pack: name, version, size, title", SUB_LIST, o_list, NULL,
     "", NULL, NULL},
    {"show", "a pack and its puzzles in order", SUB_SHOW, o_show, NULL, "pack",
     NULL, NULL},
    {"add", "append or insert puzzles", SUB_ADD, o_add, NULL, "pack none...",
     NULL, NULL},
    {"remove", "take puzzles out", SUB_REMOVE, o_json, NULL, "pack none...",
     NULL, NULL},
    {"move", "move one puzzle to a position", SUB_MOVE, o_json, NULL,
     "pack none none", NULL, NULL},
    {"sort", "order by min presses or human level", SUB_SORT, o_sort, NULL,
     "pack", "by=presses|human", NULL},
    {"rename", "rename a pack", SUB_RENAME, o_json, NULL, "pack none", NULL,
     NULL},
    {"delete", "delete a pack (its puzzles stay)", SUB_DELETE, o_json, NULL,
     "pack", NULL, NULL},
    {"build", "build the pack a campaign recipe describes", SUB_BUILD, o_build,
     NULL, "file", NULL, NULL},
    {"replace", "put another puzzle in a member's slot", SUB_REPLACE, o_json,
     NULL, "pack none none", NULL, NULL},
    {NULL, NULL, 0, NULL, NULL, NULL, NULL, NULL}};

const cmd_grammar cmd_pack_grammar = {
    .opts = o_pack,
    .values = "db=file",
    .subs = pack_subs,
};

typedef struct pack_cmd {
    const cli_ctx *ctx;
    qn_store *s;
    int json, names;
    qn_buf out;
    qn_jsonw w;
    char *section; /* pack show: the section of the row above */
} pack_cmd;

static int fail(pack_cmd *pc, qn_err *err)
{
    return cli_report(pc->ctx, err);
}

static int parse_pos(const char *s, int64_t *out)
{
    uint64_t v;

    if (cmd_parse_u64(s, &v) != 0 || v < 1 || v > (uint64_t)INT64_MAX)
        return cli_usage_error("pack: '%s' is not a position (1, 2, ...)", s);
    *out = (int64_t)v;
    return QN_EXIT_OK;
}

/* A puzzle reference (an id, a unique prefix of one, or #ROW) as the
 * stored puzzle's row: 64 when it is not one or names two, 66 when it
 * names none. */
static int resolve(pack_cmd *pc, const char *ref, int64_t *out)
{
    qn_err err = QN_ERR_INIT;
    int rc = qn_store_puzzle_resolve(pc->s, ref, out, &err);

    /* not a reference, or one naming two puzzles: the argument's fault */
    if (rc == QN_EINVAL)
        return cli_usage_error("pack: %s", err.msg);
    if (rc != QN_OK) {
        qn_err_source(&err, qn_store_path(pc->s));
        return fail(pc, &err);
    }
    return QN_EXIT_OK;
}

/* The pack called name; 66 with the closest names when there is none. */
static int find(pack_cmd *pc, const char *name, int64_t *id)
{
    qn_err err = QN_ERR_INIT;

    if (cmd_find_pack(pc->s, name, id, &err) != QN_OK) {
        qn_err_source(&err, qn_store_path(pc->s));
        return fail(pc, &err);
    }
    return QN_EXIT_OK;
}

static int list_one(void *ctx, const qn_store_pack *p)
{
    pack_cmd *pc = ctx;

    if (pc->names) {
        qn_text_escape(&pc->out, p->name);
        qn_buf_addc(&pc->out, '\n');
    } else if (pc->json) {
        qn_jsonw_obj(&pc->w);
        qn_jsonw_key(&pc->w, "name"), qn_jsonw_str(&pc->w, p->name);
        qn_jsonw_key(&pc->w, "title"), qn_jsonw_str(&pc->w, p->title);
        qn_jsonw_key(&pc->w, "version"), qn_jsonw_int(&pc->w, p->version);
        qn_jsonw_key(&pc->w, "puzzles"), qn_jsonw_int(&pc->w, p->count);
        qn_jsonw_key(&pc->w, "rules"), qn_jsonw_str(&pc->w, p->rules);
        qn_jsonw_end(&pc->w);
    } else {
        qn_buf name = QN_BUF_INIT;
        qn_text_escape(&name, p->name);
        qn_buf_addf(&pc->out, "%-24s v%-4lld %6lld %-7s  ", name.buf,
                    (long long)p->version, (long long)p->count,
                    qn_plural((uint64_t)p->count, "puzzle", "puzzles"));
        qn_text_escape(&pc->out, p->title);
        if (*p->rules) {
            qn_buf_adds(&pc->out, *p->title ? "  [" : "[");
            qn_text_escape(&pc->out, p->rules);
            qn_buf_addc(&pc->out, ']');
        }
        qn_buf_addc(&pc->out, '\n');
        qn_buf_release(&name);
    }
    return 0;
}

/* "key:  value" with the value escaped for a terminal (text.h): an old
 * database, or one edited by hand, may hold anything. */
static void show_field(qn_buf *out, const char *key, const char *value)
{
    qn_buf_adds(out, key);
    qn_text_escape(out, value);
    qn_buf_addc(out, '\n');
}

static int head_one(void *ctx, const qn_store_pack *p)
{
    pack_cmd *pc = ctx;

    if (pc->json) {
        qn_jsonw_key(&pc->w, "name"), qn_jsonw_str(&pc->w, p->name);
        qn_jsonw_key(&pc->w, "title"), qn_jsonw_str(&pc->w, p->title);
        qn_jsonw_key(&pc->w, "description");
        qn_jsonw_str(&pc->w, p->description);
        qn_jsonw_key(&pc->w, "author"), qn_jsonw_str(&pc->w, p->author);
        qn_jsonw_key(&pc->w, "version"), qn_jsonw_int(&pc->w, p->version);
        qn_jsonw_key(&pc->w, "created"), qn_jsonw_str(&pc->w, p->created);
        qn_jsonw_key(&pc->w, "modified"), qn_jsonw_str(&pc->w, p->modified);
    } else {
        show_field(&pc->out, "pack:        ", p->name);
        if (*p->title)
            show_field(&pc->out, "title:       ", p->title);
        if (*p->description)
            show_field(&pc->out, "description: ", p->description);
        if (*p->author)
            show_field(&pc->out, "author:      ", p->author);
        qn_buf_addf(&pc->out, "version:     %lld\npuzzles:     %lld\n",
                    (long long)p->version, (long long)p->count);
    }
    return 0;
}

/* A nullable text as JSON: the string, or null. */
static void json_text(qn_jsonw *w, const char *key, const char *v)
{
    qn_jsonw_key(w, key);
    qn_jsonw_str(w, v ? v : "");
}

/* "    3  2f8a834424156cc2  classic-3x3      2 presses  easy     011/000/011",
 * then where a validated submission came from. */
static void show_row_text(pack_cmd *pc, const qn_store_row *r)
{
    qn_buf grade = QN_BUF_INIT, rule = QN_BUF_INIT;
    char id[QN_PUZZLE_ID_HEX];

    qn_puzzle_id_hex(id, r->uid);
    qn_text_escape(&grade, r->grade ? r->grade : "-");
    qn_text_escape(&rule, r->rule_name);
    /* a recipe's section named once, above its first member */
    if (*r->section && strcmp(r->section, pc->section ? pc->section : "")) {
        free(pc->section);
        pc->section = cli_xstrdup(r->section);
        qn_buf_adds(&pc->out, "section ");
        qn_text_escape(&pc->out, r->section);
        qn_buf_adds(&pc->out, ":\n");
    }
    qn_buf_addf(&pc->out, "%5lld  %s  %-14s slot %-4lld %3llu %-7s  %-8s ",
                (long long)r->position, id, rule.buf, (long long)r->slot,
                (unsigned long long)r->min_presses,
                qn_plural(r->min_presses, "press", "presses"), grade.buf);
    show_field(&pc->out, "", r->state);
    if (r->human_level >= 0) { /* "       human table (2) 7.680, model 1" */
        char score[32];
        *qn_json_put_milli(score, r->human_score) = '\0';
        qn_buf_addf(&pc->out, "       human %s (%d) %s, model %d\n",
                    qn_human_level_name(r->human_level), r->human_level, score,
                    r->human_model);
    }
    if (r->submission || r->source) {
        qn_buf_adds(&pc->out, "       submitted as ");
        qn_text_escape(&pc->out, r->submission ? r->submission : "-");
        if (r->source) {
            qn_buf_adds(&pc->out, " at ");
            qn_text_escape(&pc->out, r->source);
        }
        qn_buf_addc(&pc->out, '\n');
    }
    qn_buf_release(&grade);
    qn_buf_release(&rule);
}

static int show_row(void *ctx, const qn_store_row *r)
{
    pack_cmd *pc = ctx;
    qn_jsonw *w = &pc->w;
    char id[QN_PUZZLE_ID_HEX];

    if (!pc->json) {
        show_row_text(pc, r);
        return 0;
    }
    qn_puzzle_id_hex(id, r->uid);
    qn_jsonw_obj(w);
    qn_jsonw_key(w, "position"), qn_jsonw_int(w, r->position);
    qn_jsonw_key(w, "id"), qn_jsonw_str(w, id);
    qn_jsonw_key(w, "row"), qn_jsonw_int(w, r->id);
    qn_jsonw_key(w, "rule"), qn_jsonw_str(w, r->rule_name);
    qn_jsonw_key(w, "rule_hash"), qn_jsonw_str(w, r->rule_hash);
    qn_jsonw_key(w, "state"), qn_jsonw_str(w, r->state);
    qn_jsonw_key(w, "min_presses"), qn_jsonw_uint(w, r->min_presses);
    qn_jsonw_key(w, "optimal_solutions"), qn_jsonw_uint(w, r->noptimal);
    /* the names and empty values of the exports (docs/EXPORT.md): "" for
     * no grade, seed or provenance text, -1 for no stream index */
    qn_jsonw_key(w, "solution"), qn_jsonw_str(w, r->witness);
    json_text(w, "grade", r->grade);
    json_text(w, "seed", r->seed);
    qn_jsonw_key(w, "index");
    qn_jsonw_int(w, r->stream_index >= 0 ? r->stream_index : -1);
    qn_jsonw_key(w, "provenance"), qn_jsonw_str(w, r->provenance);
    json_text(w, "submission", r->submission);
    json_text(w, "source", r->source);
    json_text(w, "meta", r->meta);
    qn_jsonw_key(w, "slot"), qn_jsonw_int(w, r->slot);
    qn_jsonw_key(w, "section"), qn_jsonw_str(w, r->section);
    qn_export_json_human(w, r->human_level, r->human_score, r->human_model);
    qn_jsonw_end(w);
    return 0;
}

/* A subcommand's options; the ones it does not take are refused. */
typedef struct popts {
    const char *title, *description, *author;
    int json, svg, plan, names, by_human;
    int64_t at;
    uint64_t jobs, budget;
} popts;

/* Parse the options of subcommand sub (argv[0]); *first is the first
 * operand. An exit status. */
static int parse_opts(int argc, char **argv, const cmd_grammar *sub, popts *o,
                      int *first)
{
    char what[32];
    int c;

    memset(o, 0, sizeof(*o));
    optind = 1;
    opterr = 0;
    snprintf(what, sizeof(what), "pack %s", sub->name);
    while ((c = getopt_long(argc, argv, "", sub->opts, NULL)) != -1) {
        switch (c) {
        case 't':
            o->title = optarg;
            break;
        case 'd':
            o->description = optarg;
            break;
        case 'a':
            o->author = optarg;
            break;
        case 'j':
            o->json = 1;
            break;
        case 's':
            o->svg = 1;
            break;
        case 'b':
            if (strcmp(optarg, "presses") && strcmp(optarg, "human"))
                return cli_usage_error("pack sort: --by takes presses or "
                                       "human, got '%s'",
                                       optarg);
            o->by_human = !strcmp(optarg, "human");
            break;
        case 'P':
            o->plan = 1;
            break;
        case 'n':
            o->names = 1;
            break;
        case 'J':
            if (cmd_parse_u64(optarg, &o->jobs) || o->jobs > 1024)
                return cli_usage_error("pack build: --jobs needs 0..1024, "
                                       "got '%s'",
                                       optarg);
            break;
        case 'B':
            if (cmd_parse_u64(optarg, &o->budget) || o->budget == 0)
                return cli_usage_error("pack build: --plan-budget needs a "
                                       "positive number of states, got "
                                       "'%s'",
                                       optarg);
            break;
        case 'p':
            if (parse_pos(optarg, &o->at))
                return QN_EXIT_USAGE;
            break;
        default:
            return cmd_bad_option(what, argv, sub->opts, NULL);
        }
    }
    if (o->names && o->json)
        return cli_usage_error("pack list: --names or --json, not both");
    if (o->svg && o->json)
        return cli_usage_error("pack show: --svg or --json, not both");
    *first = optind;
    return QN_EXIT_OK;
}

/* A pack's version and size, to say what an edit did. */
typedef struct pack_state {
    int64_t version, count;
} pack_state;

static int state_one(void *ctx, const qn_store_pack *p)
{
    pack_state *ps = ctx;

    ps->version = p->version;
    ps->count = p->count;
    return 0;
}

static int get_state(pack_cmd *pc, const char *name, pack_state *out)
{
    qn_err err = QN_ERR_INIT;

    memset(out, 0, sizeof(*out));
    if (qn_store_pack_list(pc->s, name, state_one, out, &err) != QN_OK)
        return fail(pc, &err);
    return QN_EXIT_OK;
}

/*
 * What an edit did, as every mutating subcommand says it: with --json
 * {action, pack, version, puzzles, changed} (the pack after the edit,
 * before it for delete), else the line `text` on stdout, unless -q.
 * Opens the JSON object for the caller's extra keys (close with done()).
 */
static void said(pack_cmd *pc, const char *action, const char *name,
                 const pack_state *before, const pack_state *after,
                 const char *text)
{
    if (pc->json) {
        qn_jsonw_obj(&pc->w);
        qn_jsonw_key(&pc->w, "action"), qn_jsonw_str(&pc->w, action);
        qn_jsonw_key(&pc->w, "pack"), qn_jsonw_str(&pc->w, name);
        qn_jsonw_key(&pc->w, "version"), qn_jsonw_int(&pc->w, after->version);
        qn_jsonw_key(&pc->w, "puzzles"), qn_jsonw_int(&pc->w, after->count);
        qn_jsonw_key(&pc->w, "changed");
        qn_jsonw_bool(&pc->w, !before || before->version != after->version);
    } else if (!pc->ctx->quiet) {
        qn_text_escape(&pc->out, text);
        qn_buf_addc(&pc->out, '\n');
    }
}

static void done(pack_cmd *pc)
{
    if (pc->json) {
        qn_jsonw_end(&pc->w);
        qn_buf_addc(&pc->out, '\n');
    }
}

/* " (now 12 puzzles, version 3)", with count, or " (version 3)"; or
 * ": unchanged" when the edit changed nothing */
static void add_after(qn_buf *b, const pack_state *before,
                      const pack_state *after, int count)
{
    if (before->version == after->version)
        qn_buf_adds(b, ": unchanged");
    else if (count)
        qn_buf_addf(b, " (now %lld %s, version %lld)", (long long)after->count,
                    qn_plural((uint64_t)after->count, "puzzle", "puzzles"),
                    (long long)after->version);
    else
        qn_buf_addf(b, " (version %lld)", (long long)after->version);
}

/* pack show --svg: the pack's press counts against its rule's
 * (cmd_pack_svg.c). */
static int show_svg(pack_cmd *pc, const char *name)
{
    qn_err err = QN_ERR_INIT;
    int64_t id;
    int st;

    if ((st = find(pc, name, &id)))
        return st;
    if (cmd_pack_svg(pc->s, name, &pc->out, &err) != QN_OK)
        return fail(pc, &err);
    return QN_EXIT_OK;
}

/* A subcommand's word, options and operands. */
typedef struct pack_args {
    const char *sub;
    popts o;
    char **a; /* operands */
    int nargs;
} pack_args;

/* ok, or a usage error saying what the subcommand expected. */
static int need(const pack_args *pa, int ok, const char *what)
{
    return ok ? QN_EXIT_OK
              : cli_usage_error("pack %s: expected %s", pa->sub, what);
}

/* The edits of one existing pack: its operands (nargs of them, what
 * says which), its id and its state before the edit. */
static int open_pack(pack_cmd *pc, const pack_args *pa, int ok,
                     const char *what, int64_t *pack, pack_state *before)
{
    int st;

    if ((st = need(pa, ok, what)) || (st = find(pc, pa->a[0], pack)))
        return st;
    return get_state(pc, pa->a[0], before);
}

static int sub_create(pack_cmd *pc, const pack_args *pa)
{
    qn_err err = QN_ERR_INIT;
    qn_store_pack p = {.title = pa->o.title,
                       .description = pa->o.description,
                       .author = pa->o.author};
    pack_state after;
    qn_buf text = QN_BUF_INIT;
    int64_t pack = 0;
    int st;

    if ((st = need(pa, pa->nargs == 1, "NAME")))
        return st;
    p.name = pa->a[0];
    if ((st = cmd_check_pack("pack create", &p)))
        return st;
    if (qn_store_pack_create(pc->s, &p, &pack, &err) != QN_OK)
        return fail(pc, &err);
    if ((st = get_state(pc, p.name, &after)))
        return st;
    qn_buf_addf(&text, "created pack '%s' (version %lld, empty)", p.name,
                (long long)after.version);
    said(pc, "create", p.name, NULL, &after, text.buf);
    done(pc);
    qn_buf_release(&text);
    return QN_EXIT_OK;
}

static int sub_list(pack_cmd *pc, const pack_args *pa)
{
    qn_err err = QN_ERR_INIT;
    int st;

    if ((st = need(pa, pa->nargs == 0, "no operands")))
        return st;
    pc->names = pa->o.names;
    if (pc->json)
        qn_jsonw_arr(&pc->w);
    if (qn_store_pack_list(pc->s, NULL, list_one, pc, &err) != QN_OK)
        return fail(pc, &err);
    if (pc->json) {
        qn_jsonw_end(&pc->w);
        qn_buf_addc(&pc->out, '\n');
    }
    return QN_EXIT_OK;
}

static int sub_show(pack_cmd *pc, const pack_args *pa)
{
    qn_err err = QN_ERR_INIT;
    const char *name;
    int64_t pack = 0;
    int st;

    if ((st = need(pa, pa->nargs == 1, "NAME")))
        return st;
    name = pa->a[0];
    if (pa->o.svg)
        return show_svg(pc, name);
    if ((st = find(pc, name, &pack)))
        return st;
    if (pc->json)
        qn_jsonw_obj(&pc->w);
    if (qn_store_pack_list(pc->s, name, head_one, pc, &err) != QN_OK)
        return fail(pc, &err);
    if (pc->json) {
        qn_jsonw_key(&pc->w, "puzzles");
        qn_jsonw_arr(&pc->w);
    }
    if (qn_store_pack_each(pc->s, pack, show_row, pc, &err) != QN_OK)
        return fail(pc, &err);
    if (pc->json) {
        qn_jsonw_end(&pc->w);
        qn_jsonw_end(&pc->w);
        qn_buf_addc(&pc->out, '\n');
    }
    return QN_EXIT_OK;
}

/* add and remove: every id checked first, then one batch, so all of the
 * ids go in (or out) or none of them. */
static int add_remove(pack_cmd *pc, const pack_args *pa, int add, int64_t pack)
{
    qn_err err = QN_ERR_INIT;
    int nargs = pa->nargs, st = QN_EXIT_OK;
    int64_t *ids = CLI_NEWN((size_t)nargs, int64_t);

    for (int j = 1; j < nargs && !st; j++)
        st = resolve(pc, pa->a[j], &ids[j]);
    if (!st && qn_store_begin(pc->s, &err) != QN_OK)
        st = fail(pc, &err);
    for (int j = 1; j < nargs && !st; j++) {
        if ((add ? qn_store_pack_add(pc->s, pack, ids[j],
                                     pa->o.at ? pa->o.at + j - 1 : 0, &err)
                 : qn_store_pack_remove(pc->s, pack, ids[j], &err)) != QN_OK) {
            qn_store_rollback(pc->s, NULL);
            st = fail(pc, &err);
        }
    }
    free(ids);
    if (!st && qn_store_commit(pc->s, &err) != QN_OK)
        st = fail(pc, &err);
    return st;
}

static int sub_add_remove(pack_cmd *pc, const pack_args *pa)
{
    int add = !strcmp(pa->sub, "add"), n = pa->nargs - 1, st;
    const char *name = pa->a[0];
    pack_state before, after;
    qn_buf text = QN_BUF_INIT;
    int64_t pack = 0;

    if ((st = open_pack(pc, pa, pa->nargs >= 2,
                        "NAME and at least one puzzle ID", &pack, &before)) ||
        (st = add_remove(pc, pa, add, pack)) ||
        (st = get_state(pc, name, &after)))
        return st;
    qn_buf_addf(&text, "%s %d %s %s '%s'", add ? "added" : "removed", n,
                qn_plural((uint64_t)n, "puzzle", "puzzles"),
                add ? "to" : "from", name);
    add_after(&text, &before, &after, 1);
    said(pc, pa->sub, name, &before, &after, text.buf);
    if (pc->json)
        qn_jsonw_key(&pc->w, "count"), qn_jsonw_int(&pc->w, n);
    done(pc);
    qn_buf_release(&text);
    return QN_EXIT_OK;
}

static int sub_move(pack_cmd *pc, const pack_args *pa)
{
    qn_err err = QN_ERR_INIT;
    pack_state before, after;
    qn_buf text = QN_BUF_INIT;
    int64_t pack = 0, id = 0, pos = 0;
    int st;

    if ((st = open_pack(pc, pa, pa->nargs == 3, "NAME ID POS", &pack,
                        &before)) ||
        (st = parse_pos(pa->a[2], &pos)) || (st = resolve(pc, pa->a[1], &id)))
        return st;
    if (qn_store_pack_move(pc->s, pack, id, pos, &err) != QN_OK)
        return fail(pc, &err);
    if ((st = get_state(pc, pa->a[0], &after)))
        return st;
    qn_buf_addf(&text, "moved puzzle %s to position %lld of '%s'", pa->a[1],
                (long long)pos, pa->a[0]);
    add_after(&text, &before, &after, 0);
    said(pc, "move", pa->a[0], &before, &after, text.buf);
    if (pc->json)
        qn_jsonw_key(&pc->w, "position"), qn_jsonw_int(&pc->w, pos);
    done(pc);
    qn_buf_release(&text);
    return QN_EXIT_OK;
}

/* The slot of member id in the pack (0 when it is not one). */
typedef struct slot_of {
    int64_t id, slot;
} slot_of;

static int find_slot(void *ctx, const qn_store_row *r)
{
    slot_of *so = ctx;

    if (r->id == so->id)
        so->slot = r->slot;
    return 0;
}

static int sub_replace(pack_cmd *pc, const pack_args *pa)
{
    qn_err err = QN_ERR_INIT;
    pack_state before, after;
    qn_buf text = QN_BUF_INIT;
    int64_t pack = 0, id = 0, by = 0;
    slot_of so = {0, 0};
    int st;

    if ((st = open_pack(pc, pa, pa->nargs == 3, "NAME ID NEW", &pack,
                        &before)) ||
        (st = resolve(pc, pa->a[1], &id)) || (st = resolve(pc, pa->a[2], &by)))
        return st;
    if (qn_store_pack_replace(pc->s, pack, id, by, &err) != QN_OK)
        return fail(pc, &err);
    so.id = by;
    if (qn_store_pack_each(pc->s, pack, find_slot, &so, &err) != QN_OK)
        return fail(pc, &err);
    if ((st = get_state(pc, pa->a[0], &after)))
        return st;
    qn_buf_addf(&text, "replaced puzzle %s by %s in slot %lld of '%s'",
                pa->a[1], pa->a[2], (long long)so.slot, pa->a[0]);
    add_after(&text, &before, &after, 0);
    said(pc, "replace", pa->a[0], &before, &after, text.buf);
    if (pc->json)
        qn_jsonw_key(&pc->w, "slot"), qn_jsonw_int(&pc->w, so.slot);
    done(pc);
    qn_buf_release(&text);
    return QN_EXIT_OK;
}

static int sub_rename(pack_cmd *pc, const pack_args *pa)
{
    qn_err err = QN_ERR_INIT;
    pack_state before, after;
    qn_buf text = QN_BUF_INIT;
    int64_t pack = 0;
    int st;

    if ((st = need(pa, pa->nargs == 2, "NAME NEW")) ||
        (st = cmd_check_pack_name("pack rename", pa->a[1])) ||
        (st = open_pack(pc, pa, 1, "NAME NEW", &pack, &before)))
        return st;
    if (qn_store_pack_rename(pc->s, pack, pa->a[1], &err) != QN_OK)
        return fail(pc, &err);
    if ((st = get_state(pc, pa->a[1], &after)))
        return st;
    qn_buf_addf(&text, "renamed pack '%s' to '%s'", pa->a[0], pa->a[1]);
    add_after(&text, &before, &after, 0);
    said(pc, "rename", pa->a[1], &before, &after, text.buf);
    if (pc->json)
        qn_jsonw_key(&pc->w, "from"), qn_jsonw_str(&pc->w, pa->a[0]);
    done(pc);
    qn_buf_release(&text);
    return QN_EXIT_OK;
}

static int sub_sort(pack_cmd *pc, const pack_args *pa)
{
    qn_err err = QN_ERR_INIT;
    pack_state before, after;
    qn_buf text = QN_BUF_INIT;
    int64_t pack = 0;
    int st;

    if ((st = open_pack(pc, pa, pa->nargs == 1, "NAME", &pack, &before)))
        return st;
    if ((pa->o.by_human ? qn_store_pack_sort_human
                        : qn_store_pack_sort)(pc->s, pack, &err) != QN_OK)
        return fail(pc, &err);
    if ((st = get_state(pc, pa->a[0], &after)))
        return st;
    qn_buf_addf(&text, "sorted '%s' by %s", pa->a[0],
                pa->o.by_human ? "human level and score" : "min presses");
    add_after(&text, &before, &after, 0);
    said(pc, "sort", pa->a[0], &before, &after, text.buf);
    done(pc);
    qn_buf_release(&text);
    return QN_EXIT_OK;
}

static int sub_delete(pack_cmd *pc, const pack_args *pa)
{
    qn_err err = QN_ERR_INIT;
    pack_state before;
    qn_buf text = QN_BUF_INIT;
    int64_t pack = 0;
    int st;

    if ((st = open_pack(pc, pa, pa->nargs == 1, "NAME", &pack, &before)))
        return st;
    if (qn_store_pack_delete(pc->s, pack, &err) != QN_OK)
        return fail(pc, &err);
    qn_buf_addf(&text, "deleted pack '%s' (its %lld %s stay stored)", pa->a[0],
                (long long)before.count,
                qn_plural((uint64_t)before.count, "puzzle", "puzzles"));
    said(pc, "delete", pa->a[0], NULL, &before, text.buf);
    done(pc);
    qn_buf_release(&text);
    return QN_EXIT_OK;
}

static int sub_build(pack_cmd *pc, const pack_args *pa)
{
    int st;

    if ((st = need(pa, pa->nargs == 1, "RECIPE")))
        return st;
    return cmd_pack_build(pc->ctx, pc->s, pa->a[0], pa->o.plan, (int)pa->o.jobs,
                          pa->o.budget, pc->json, &pc->out);
}

/* The subcommands by their id in pack_subs. */
static int (*const runs[])(pack_cmd *, const pack_args *) = {
    [SUB_CREATE] = sub_create,     [SUB_LIST] = sub_list,
    [SUB_SHOW] = sub_show,         [SUB_ADD] = sub_add_remove,
    [SUB_REMOVE] = sub_add_remove, [SUB_MOVE] = sub_move,
    [SUB_SORT] = sub_sort,         [SUB_RENAME] = sub_rename,
    [SUB_DELETE] = sub_delete,     [SUB_BUILD] = sub_build,
    [SUB_REPLACE] = sub_replace,
};

static int run(pack_cmd *pc, const cmd_grammar *sub, int argc, char **argv)
{
    pack_args pa;
    int i = 1, st;

    if ((st = parse_opts(argc, argv, sub, &pa.o, &i)))
        return st;
    pa.sub = sub->name;
    pa.a = argv + i;
    pa.nargs = argc - i;
    pc->json = pa.o.json;
    return runs[sub->id](pc, &pa);
}

static int wants_plan(int n, char **args)
{
    for (int i = 1; i < n; i++)
        if (!strcmp(args[i], "--plan"))
            return 1;
    return 0;
}

int cmd_pack(int argc, char **argv, cli_ctx *ctx)
{
    const cmd_grammar *sub;
    pack_cmd pc;
    const char *opt = NULL, *path;
    char **args;
    int n = 0, st = QN_EXIT_OK;

    if (cmd_wants_help(argc, argv, cmd_pack_usage))
        return QN_EXIT_OK;
    /* --db PATH / --db=PATH anywhere after the command word */
    if ((st = cmd_take_db_opt(argc, argv, "pack", &opt, &args, &n)))
        return st;
    if (n == 0 || !(sub = cmd_find_sub(&cmd_pack_grammar, args[0]))) {
        st = n ? cmd_bad_subcommand("pack", args[0], &cmd_pack_grammar)
               : cli_usage_error("pack: expected a subcommand (see 'quench "
                                 "pack --help')");
        free(args);
        return st;
    }
    memset(&pc, 0, sizeof(pc));
    pc.ctx = ctx;
    qn_buf_init(&pc.out);
    qn_jsonw_init(&pc.w, &pc.out);
    path = cmd_db_path(opt);
    /* only `create` may create the database: a mistyped --db for the
     * others is a missing file (66), not a fresh empty database; `list`
     * and `show` only read (a database in a read-only folder too) */
    if (sub->id == SUB_BUILD && wants_plan(n, args))
        st = QN_EXIT_OK; /* a plan reads no database */
    else
        st = cmd_open_store(
            ctx, path,
            sub->id == SUB_CREATE || sub->id == SUB_BUILD ? QN_STORE_CREATE
            : sub->id == SUB_LIST || sub->id == SUB_SHOW  ? QN_STORE_READONLY
                                                          : 0,
            &pc.s);
    if (st == QN_EXIT_OK)
        st = run(&pc, sub, n, args);
    if (st == QN_EXIT_OK)
        st = cmd_finish_out(&pc.out);
    qn_buf_release(&pc.out);
    free(pc.section);
    qn_store_close(pc.s);
    free(args);
    return st;
}
