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

#include "cmd.h"
#include "quench/buf.h"
#include "quench/distrib.h"
#include "quench/export.h"
#include "quench/gen.h"
#include "quench/jsonw.h"
#include "quench/svg.h"
#include "quench/mem.h"
#include "quench/puzzle_id.h"
#include "quench/store.h"
#include "quench/text.h"

const char cmd_pack_usage[] =
    "usage: quench pack [--db PATH] SUBCOMMAND [ARGS...]\n"
    "\n"
    "  create NAME [--title T] [--description D] [--author A]\n"
    "                       a new, empty pack (version 1)\n"
    "  list [--json]        every pack: name, version, size, title\n"
    "  show NAME --svg      the pack's minimal-press histogram against the\n"
    "                       rule's exact distribution (or a sample of it,\n"
    "                       said so, past 2^26 states), as an SVG picture\n"
    "  show NAME [--json]   a pack and its puzzles in order: position, id,\n"
    "                       rule, min presses, grade, state\n"
    "  add NAME ID... [--at POS]\n"
    "                       append puzzles (or insert them from POS on)\n"
    "  remove NAME ID...    take puzzles out; later ones move up\n"
    "  move NAME ID POS     move one puzzle to position POS\n"
    "  sort NAME            order by difficulty: min presses; ties keep\n"
    "                       their order\n"
    "  rename NAME NEW      rename a pack\n"
    "  delete NAME          delete a pack (its puzzles stay stored)\n"
    "  build RECIPE [--plan] [--jobs N] [--json]\n"
    "                       build (or rebuild) the pack a campaign recipe\n"
    "                       describes (docs/CAMPAIGNS.md); --plan says what\n"
    "                       each section's target holds and draws nothing\n"
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

typedef struct pack_cmd {
    const qn_ctx *ctx;
    qn_store *s;
    int json;
    qn_buf out;
    qn_jsonw w;
} pack_cmd;

static int fail(pack_cmd *pc, qn_err *err)
{
    return qn_report(pc->ctx, err);
}

static int parse_pos(const char *s, int64_t *out)
{
    uint64_t v;

    if (cmd_parse_u64(s, &v) != 0 || v < 1 || v > (uint64_t)INT64_MAX)
        return qn_usage_error("pack: '%s' is not a position (1, 2, ...)", s);
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
        return qn_usage_error("pack: %s", err.msg);
    if (rc != QN_OK) {
        qn_err_source(&err, qn_store_path(pc->s));
        return fail(pc, &err);
    }
    return QN_EXIT_OK;
}

static int find(pack_cmd *pc, const char *name, int64_t *id)
{
    qn_err err = QN_ERR_INIT;

    if (qn_store_pack_find(pc->s, name, id, &err) != QN_OK) {
        qn_err_source(&err, qn_store_path(pc->s));
        return fail(pc, &err);
    }
    return QN_EXIT_OK;
}

static int list_one(void *ctx, const qn_store_pack *p)
{
    pack_cmd *pc = ctx;

    if (pc->json) {
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
        qn_buf_addf(&pc->out, "%-24s v%-4lld %6lld puzzles  ", name.buf,
                    (long long)p->version, (long long)p->count);
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
    if (v)
        qn_jsonw_str(w, v);
    else
        qn_jsonw_null(w);
}

/* "    3  2f8a834424156cc2  classic-3x3   2 presses  easy     011/000/011",
 * then where a validated submission came from. */
static void show_row_text(pack_cmd *pc, const qn_store_row *r)
{
    qn_buf grade = QN_BUF_INIT, rule = QN_BUF_INIT;
    char id[QN_PUZZLE_ID_HEX];

    qn_puzzle_id_hex(id, r->uid);
    qn_text_escape(&grade, r->grade ? r->grade : "-");
    qn_text_escape(&rule, r->rule_name);
    qn_buf_addf(&pc->out, "%5lld  %s  %-14s %3llu presses  %-8s ",
                (long long)r->position, id, rule.buf,
                (unsigned long long)r->min_presses, grade.buf);
    show_field(&pc->out, "", r->state);
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
    qn_jsonw_key(w, "witness"), qn_jsonw_str(w, r->witness);
    json_text(w, "grade", r->grade);
    json_text(w, "seed", r->seed);
    qn_jsonw_key(w, "stream_index");
    if (r->stream_index >= 0)
        qn_jsonw_int(w, r->stream_index);
    else
        qn_jsonw_null(w);
    qn_jsonw_key(w, "provenance"), qn_jsonw_str(w, r->provenance);
    json_text(w, "submission", r->submission);
    json_text(w, "source", r->source);
    json_text(w, "meta", r->meta);
    qn_jsonw_end(w);
    return 0;
}

/* Options of create/list/show; returns an exit code; sets *first to the
 * first operand. */
typedef struct popts {
    const char *title, *description, *author;
    int json, svg, plan;
    int64_t at;
    uint64_t jobs;
} popts;

static int parse_opts(int argc, char **argv, popts *o, int *first)
{
    static const struct option opts[] = {
        {"title", required_argument, NULL, 't'},
        {"description", required_argument, NULL, 'd'},
        {"author", required_argument, NULL, 'a'},
        {"json", no_argument, NULL, 'j'},
        {"at", required_argument, NULL, 'p'},
        {"svg", no_argument, NULL, 's'},
        {"plan", no_argument, NULL, 'P'},
        {"jobs", required_argument, NULL, 'J'},
        {NULL, 0, NULL, 0}};
    int c;

    memset(o, 0, sizeof(*o));
    optind = 1;
    opterr = 0;
    while ((c = getopt_long(argc, argv, "", opts, NULL)) != -1) {
        switch (c) {
        case 't': o->title = optarg; break;
        case 'd': o->description = optarg; break;
        case 'a': o->author = optarg; break;
        case 'j': o->json = 1; break;
        case 's': o->svg = 1; break;
        case 'P': o->plan = 1; break;
        case 'J':
            if (cmd_parse_u64(optarg, &o->jobs) || o->jobs > 1024)
                return qn_usage_error("pack build: --jobs needs 0..1024, "
                                      "got '%s'",
                                      optarg);
            break;
        case 'p':
            if (parse_pos(optarg, &o->at))
                return QN_EXIT_USAGE;
            break;
        default:
            return qn_usage_error("pack %s: unknown option or missing "
                                  "value '%s'",
                                  argv[0], argv[optind - 1]);
        }
    }
    *first = optind;
    return QN_EXIT_OK;
}

/*
 * The rule's distribution for pack show --svg into *h: exact when the rule
 * has few enough states to count (distrib.h), else the press counts of
 * the QN_GEN_TIER_SAMPLE uniform states its tiers are cut from (drawn
 * from the rule's own seed, so the chart is the same on every run), with
 * h->sampled saying so. *counts (free()) holds the series; NULL when not
 * even a sample could be graded exactly.
 */
static void rule_distribution(const qn_rules *r, qn_svg_hist *h,
                              uint64_t **counts)
{
    qn_solver *g = NULL;
    qn_distrib *dist = NULL;
    uint64_t *p;
    size_t got, len = 0;
    qn_seed seed;

    *counts = NULL;
    if (qn_solver_new(&g, r, NULL) != QN_OK)
        return;
    if (qn_distrib_compute(&dist, qn_solver_system(g), NULL) == QN_OK) {
        len = qn_distrib_len(dist);
        *counts = QN_NEWN(len, uint64_t);
        for (size_t m = 0; m < len; m++)
            (*counts)[m] = qn_distrib_count(dist, m);
    } else {
        p = QN_NEWN(QN_GEN_TIER_SAMPLE, uint64_t);
        qn_gen_rule_seed(g, &seed);
        got = qn_gen_sample_presses(g, &seed, p, QN_GEN_TIER_SAMPLE);
        for (size_t i = 0; i < got; i++)
            len = p[i] + 1 > len ? (size_t)p[i] + 1 : len;
        *counts = got ? QN_NEWN(len, uint64_t) : NULL;
        for (size_t i = 0; i < got; i++)
            (*counts)[p[i]]++;
        h->sampled = got;
        free(p);
    }
    h->dist = *counts;
    h->dist_len = *counts ? len : 0;
    qn_distrib_free(dist);
    qn_solver_free(g);
}

/*
 * pack show --svg: where the pack sits. Its puzzles' minimal press counts
 * as shares, drawn against the share of all solvable states of the rule
 * at each count (or of a sample of them, rule_distribution; left out when
 * the pack mixes rules).
 */
static int show_svg(pack_cmd *pc, const char *name)
{
    qn_pack_doc doc;
    qn_err err = QN_ERR_INIT;
    qn_svg_hist h = {0};
    uint64_t *pack = NULL, *all = NULL;
    size_t plen = 1;
    char title[256];

    if (qn_pack_doc_load(&doc, pc->s, name, &err) != QN_OK)
        return fail(pc, &err);
    for (size_t i = 0; i < doc.npuzzles; i++)
        if (doc.puzzles[i].min_presses + 1 > plen)
            plen = (size_t)doc.puzzles[i].min_presses + 1;
    pack = QN_NEWN(plen, uint64_t); /* plen <= ncells * (k - 1) + 1 */
    for (size_t i = 0; i < doc.npuzzles; i++)
        pack[doc.puzzles[i].min_presses]++;
    if (doc.nrules == 1)
        rule_distribution(doc.rules[0].rules, &h, &all);
    snprintf(title, sizeof(title), "pack %s: %zu puzzles%s", name,
             doc.npuzzles,
             !all        ? ""
             : h.sampled ? " against a sample of solvable states"
                         : " against all solvable states");
    h.pack = pack, h.pack_len = plen, h.title = title;
    qn_svg_histogram(&pc->out, &h);
    free(pack);
    free(all);
    qn_pack_doc_release(&doc);
    return QN_EXIT_OK;
}

/* A subcommand's word, options and operands. */
typedef struct pack_args {
    const char *sub;
    popts o;
    char **a;  /* operands */
    int nargs;
} pack_args;

/* ok, or a usage error saying what the subcommand expected. */
static int need(const pack_args *pa, int ok, const char *what)
{
    return ok ? QN_EXIT_OK
              : qn_usage_error("pack %s: expected %s", pa->sub, what);
}

static int sub_create(pack_cmd *pc, const pack_args *pa)
{
    qn_err err = QN_ERR_INIT;
    qn_store_pack p = {.title = pa->o.title,
                       .description = pa->o.description,
                       .author = pa->o.author};
    int64_t pack = 0;
    int st;

    if ((st = need(pa, pa->nargs == 1, "NAME")))
        return st;
    p.name = pa->a[0];
    if ((st = cmd_check_pack("pack create", &p)))
        return st;
    if (qn_store_pack_create(pc->s, &p, &pack, &err) != QN_OK)
        return fail(pc, &err);
    if (!pc->ctx->quiet)
        qn_buf_addf(&pc->out, "created pack '%s'\n", pa->a[0]);
    return QN_EXIT_OK;
}

static int sub_list(pack_cmd *pc, const pack_args *pa)
{
    qn_err err = QN_ERR_INIT;
    int st;

    if ((st = need(pa, pa->nargs == 0, "no operands")))
        return st;
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
static int sub_add_remove(pack_cmd *pc, const pack_args *pa)
{
    qn_err err = QN_ERR_INIT;
    int add = pa->sub[0] == 'a', nargs = pa->nargs, st;
    int64_t pack = 0, id = 0;

    int64_t *ids;

    if ((st = need(pa, nargs >= 2, "NAME and at least one puzzle ID")))
        return st;
    if ((st = find(pc, pa->a[0], &pack)))
        return st;
    ids = QN_NEWN((size_t)nargs, int64_t);
    for (int j = 1; j < nargs && !st; j++)
        st = resolve(pc, pa->a[j], &ids[j]);
    if (!st && qn_store_begin(pc->s, &err) != QN_OK)
        st = fail(pc, &err);
    for (int j = 1; j < nargs && !st; j++) {
        id = ids[j];
        if ((add ? qn_store_pack_add(pc->s, pack, id,
                                     pa->o.at ? pa->o.at + j - 1 : 0, &err)
                 : qn_store_pack_remove(pc->s, pack, id, &err)) != QN_OK) {
            qn_store_rollback(pc->s, NULL);
            st = fail(pc, &err);
        }
    }
    free(ids);
    if (st)
        return st;
    if (qn_store_commit(pc->s, &err) != QN_OK)
        return fail(pc, &err);
    if (!pc->ctx->quiet)
        qn_buf_addf(&pc->out, "%s %d puzzle%s %s '%s'\n",
                    add ? "added" : "removed", nargs - 1,
                    nargs == 2 ? "" : "s", add ? "to" : "from", pa->a[0]);
    return QN_EXIT_OK;
}

static int sub_move(pack_cmd *pc, const pack_args *pa)
{
    qn_err err = QN_ERR_INIT;
    int64_t pack = 0, id = 0, pos = 0;
    int st;

    if ((st = need(pa, pa->nargs == 3, "NAME ID POS")))
        return st;
    if ((st = find(pc, pa->a[0], &pack)) || (st = parse_pos(pa->a[2], &pos)) ||
        (st = resolve(pc, pa->a[1], &id)))
        return st;
    if (qn_store_pack_move(pc->s, pack, id, pos, &err) != QN_OK)
        return fail(pc, &err);
    return QN_EXIT_OK;
}

static int sub_rename(pack_cmd *pc, const pack_args *pa)
{
    qn_err err = QN_ERR_INIT;
    int64_t pack = 0;
    int st;

    if ((st = need(pa, pa->nargs == 2, "NAME NEW")))
        return st;
    if ((st = cmd_check_pack_name("pack rename", pa->a[1])) ||
        (st = find(pc, pa->a[0], &pack)))
        return st;
    if (qn_store_pack_rename(pc->s, pack, pa->a[1], &err) != QN_OK)
        return fail(pc, &err);
    return QN_EXIT_OK;
}

/* sort and delete: one pack by name, one library call. */
static int on_pack(pack_cmd *pc, const pack_args *pa,
                   int (*fn)(qn_store *, int64_t, qn_err *))
{
    qn_err err = QN_ERR_INIT;
    int64_t pack = 0;
    int st;

    if ((st = need(pa, pa->nargs == 1, "NAME")))
        return st;
    if ((st = find(pc, pa->a[0], &pack)))
        return st;
    if (fn(pc->s, pack, &err) != QN_OK)
        return fail(pc, &err);
    return QN_EXIT_OK;
}

static int sub_sort(pack_cmd *pc, const pack_args *pa)
{
    return on_pack(pc, pa, qn_store_pack_sort);
}

static int sub_delete(pack_cmd *pc, const pack_args *pa)
{
    return on_pack(pc, pa, qn_store_pack_delete);
}

static int sub_build(pack_cmd *pc, const pack_args *pa)
{
    int st;

    if ((st = need(pa, pa->nargs == 1, "RECIPE")))
        return st;
    return cmd_pack_build(pc->ctx, pc->s, pa->a[0], pa->o.plan,
                          (int)pa->o.jobs, pc->json, &pc->out);
}

static const struct subcommand {
    const char *name;
    int (*run)(pack_cmd *pc, const pack_args *pa);
} subs[] = {
    {"create", sub_create}, {"list", sub_list},
    {"show", sub_show},     {"add", sub_add_remove},
    {"remove", sub_add_remove},
    {"move", sub_move},     {"sort", sub_sort},
    {"rename", sub_rename}, {"delete", sub_delete},
    {"build", sub_build},
};

static const struct subcommand *find_sub(const char *name)
{
    for (size_t i = 0; i < sizeof(subs) / sizeof(*subs); i++)
        if (!strcmp(name, subs[i].name))
            return &subs[i];
    return NULL;
}

static int run(pack_cmd *pc, int argc, char **argv)
{
    const struct subcommand *sc = find_sub(argv[0]);
    pack_args pa;
    int i = 1, st;

    if ((st = parse_opts(argc, argv, &pa.o, &i)))
        return st;
    pa.sub = argv[0];
    pa.a = argv + i;
    pa.nargs = argc - i;
    pc->json = pa.o.json;
    if (!sc)
        return qn_usage_error("pack: unknown subcommand '%s' (see 'quench "
                              "pack --help')",
                              pa.sub);
    return sc->run(pc, &pa);
}

static int wants_plan(int n, char **args)
{
    for (int i = 1; i < n; i++)
        if (!strcmp(args[i], "--plan"))
            return 1;
    return 0;
}

int cmd_pack(int argc, char **argv, qn_ctx *ctx)
{
    pack_cmd pc;
    const char *opt = NULL, *path;
    char **args;
    int n = 0, st = QN_EXIT_OK;

    if (cmd_wants_help(argc, argv, cmd_pack_usage))
        return QN_EXIT_OK;
    /* --db PATH / --db=PATH anywhere after the command word */
    if ((st = cmd_take_db_opt(argc, argv, "pack", &opt, &args, &n)))
        return st;
    if (n == 0 || !find_sub(args[0])) {
        st = n ? qn_usage_error("pack: unknown subcommand '%s' (see 'quench "
                                "pack --help')",
                                args[0])
               : qn_usage_error("pack: expected a subcommand (see 'quench "
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
     * others is a missing file (66), not a fresh empty database */
    if (!strcmp(args[0], "build") && wants_plan(n, args))
        st = QN_EXIT_OK; /* a plan reads no database */
    else
        st = cmd_open_store(ctx, path,
                            strcmp(args[0], "create") &&
                                    strcmp(args[0], "build")
                                ? 0
                                : QN_STORE_CREATE,
                            &pc.s);
    if (st == QN_EXIT_OK)
        st = run(&pc, n, args);
    if (st == QN_EXIT_OK)
        st = cmd_finish_out(&pc.out);
    qn_buf_release(&pc.out);
    qn_store_close(pc.s);
    free(args);
    return st;
}
