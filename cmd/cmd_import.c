/*
 * cmd_import.c: `quench import FILE [--pack NAME]`: read a quench-pack JSON
 * document back into the store, re-verifying every puzzle first; a bad
 * document writes nothing.
 */
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/buf.h"
#include "base/jsonw.h"
#include "base/mem.h"
#include "base/text.h"
#include "cmd.h"
#include "export/export.h"
#include "rules/puzzle_id.h"
#include "store/store.h"

const char cmd_import_usage[] =
    "usage: quench import FILE [--pack NAME] [--db PATH] [--json]\n"
    "\n"
    "Read a quench-pack JSON document (format 2 as written by `quench\n"
    "export --format json`, or format 1; FILE - is standard input) into the\n"
    "database as a new pack (named as in the document, or NAME) at the\n"
    "document's version. Every rule must match its hash and every puzzle\n"
    "is re-verified: its id is the id of its rule and state, its solution\n"
    "reaches the goal and its min_presses and optimal_solutions are what\n"
    "quench computes.\n"
    "A document that fails is rejected whole, naming the puzzle and the\n"
    "reason (exit 65). A rule or puzzle the database already holds keeps\n"
    "its stored values: each field that then differs from the document is\n"
    "listed on stderr (exit 0). --db PATH (default: $QUENCH_DB, else\n"
    "db/quench.db, created on first use) selects the database. --json\n"
    "prints one JSON object instead of the summary: {pack, version,\n"
    "puzzles, rules, kept: [{position, id, rule, field, stored,\n"
    "document}]} (position and id null for a rule's field).\n";

static const struct option opts[] = {{"pack", required_argument, NULL, 'P'},
                                     {"db", required_argument, NULL, 'D'},
                                     {"json", no_argument, NULL, 'j'},
                                     {NULL, 0, NULL, 0}};

const cmd_grammar cmd_import_grammar = {
    .opts = opts,
    .operands = "file",
    .values = "db=file",
};

/* What the database kept where the document has another (export.h):
 * listed after the commit, whatever -q says, and counted. */
typedef struct kept {
    const char *source;
    qn_buf lines;
    qn_jsonw *w; /* --json: the "kept" array is open; else NULL */
    size_t nfields, npuzzles, nrules;
    int64_t last_puzzle;
    const char *last_rule;
} kept;

/* 'v', escaped for a terminal; a long one (a big board's state) is cut
 * at a character boundary: the field is what counts. */
static void put_value(qn_buf *out, const char *v)
{
    size_t n = strlen(v), cut = n;
    char *head;

    if (n > 80)
        for (cut = 72; cut > 0 && (v[cut] & 0xc0) == 0x80; cut--)
            ;
    head = cli_xmemdup(v, cut + 1);
    head[cut] = '\0';
    qn_buf_addc(out, '\'');
    qn_text_escape(out, head);
    qn_buf_addc(out, '\'');
    if (cut < n)
        qn_buf_addf(out, "... (%zu bytes)", n);
    free(head);
}

/* A kept field as a member of "kept" (--json). */
static void json_kept(qn_jsonw *w, const qn_pack_diff *d)
{
    char id[QN_PUZZLE_ID_HEX];

    qn_jsonw_obj(w);
    qn_jsonw_key(w, "position");
    if (d->puzzle)
        qn_jsonw_int(w, d->puzzle);
    else
        qn_jsonw_null(w);
    qn_jsonw_key(w, "id");
    if (d->puzzle) {
        qn_puzzle_id_hex(id, d->id);
        qn_jsonw_str(w, id);
    } else {
        qn_jsonw_null(w);
    }
    qn_jsonw_key(w, "rule"), qn_jsonw_str(w, d->rule);
    qn_jsonw_key(w, "field"), qn_jsonw_str(w, d->field);
    qn_jsonw_key(w, "stored"), qn_jsonw_str(w, d->stored);
    qn_jsonw_key(w, "document"), qn_jsonw_str(w, d->document);
    qn_jsonw_end(w);
}

static void on_kept(void *vctx, const qn_pack_diff *d)
{
    kept *k = vctx;

    if (k->w)
        json_kept(k->w, d);
    k->nfields++;
    qn_text_escape(&k->lines, k->source);
    if (d->puzzle) {
        char id[QN_PUZZLE_ID_HEX];
        k->npuzzles += d->puzzle != k->last_puzzle;
        k->last_puzzle = d->puzzle;
        qn_puzzle_id_hex(id, d->id);
        qn_buf_addf(&k->lines, ": puzzle %lld (id %s)", (long long)d->puzzle,
                    id);
    } else {
        k->nrules += d->rule != k->last_rule;
        k->last_rule = d->rule;
        qn_buf_adds(&k->lines, ": rule ");
        put_value(&k->lines, d->rule);
    }
    qn_buf_addf(&k->lines, " was already stored: its %s stays ", d->field);
    put_value(&k->lines, d->stored);
    qn_buf_adds(&k->lines, ", the document has ");
    put_value(&k->lines, d->document);
    qn_buf_addc(&k->lines, '\n');
}

static void print_summary(const kept *k, const char *name,
                          const qn_pack_doc *doc)
{
    printf("imported pack '%s': %zu %s, %zu %s\n", name, doc->npuzzles,
           qn_plural(doc->npuzzles, "puzzle", "puzzles"), doc->nrules,
           qn_plural(doc->nrules, "rule", "rules"));
    if (k->nfields)
        printf("kept %zu stored %s that %s from the document "
               "(%zu %s, %zu %s already stored; listed on stderr)\n",
               k->nfields, qn_plural(k->nfields, "value", "values"),
               k->nfields == 1 ? "differs" : "differ", k->npuzzles,
               qn_plural(k->npuzzles, "puzzle", "puzzles"), k->nrules,
               qn_plural(k->nrules, "rule", "rules"));
}

/* --json: the summary object around the "kept" array in k->w. */
static int json_summary(qn_buf *out, qn_jsonw *w, const char *name,
                        const qn_pack_doc *doc)
{
    qn_jsonw_end(w);
    qn_jsonw_key(w, "pack"), qn_jsonw_str(w, name);
    qn_jsonw_key(w, "version"), qn_jsonw_int(w, doc->version);
    qn_jsonw_key(w, "puzzles"), qn_jsonw_uint(w, doc->npuzzles);
    qn_jsonw_key(w, "rules"), qn_jsonw_uint(w, doc->nrules);
    qn_jsonw_end(w);
    qn_buf_addc(out, '\n');
    return cmd_finish_out(out);
}

int cmd_import(int argc, char **argv, cli_ctx *ctx)
{
    const char *db = NULL, *name = NULL, *path, *source;
    qn_err err = QN_ERR_INIT;
    qn_pack_doc doc;
    qn_buf out = QN_BUF_INIT;
    qn_jsonw w;
    int json = 0;
    kept k;
    qn_store *s = NULL;
    char *text = NULL;
    size_t len = 0;
    int c, st;

    if (cmd_wants_help(argc, argv, cmd_import_usage))
        return QN_EXIT_OK;
    optind = 1;
    opterr = 0;
    while ((c = getopt_long(argc, argv, "", opts, NULL)) != -1) {
        switch (c) {
        case 'P':
            name = optarg;
            break;
        case 'D':
            db = optarg;
            break;
        case 'j':
            json = 1;
            break;
        default:
            return cmd_bad_option("import", argv, opts, NULL);
        }
    }
    if (optind != argc - 1)
        return cli_usage_error("import: give exactly one FILE");
    if (name && (st = cmd_check_pack_name("import: --pack", name)))
        return st;
    path = argv[optind];
    source = strcmp(path, "-") == 0 ? "<stdin>" : path;
    memset(&k, 0, sizeof(k));
    k.source = source;
    qn_buf_init(&k.lines);
    if (cmd_read_all(path, QN_PACK_MAX_FILE, &text, &len, &err) != QN_OK)
        return cli_report(ctx, &err);
    st = qn_pack_doc_parse_json(&doc, text, len, source, &err);
    free(text);
    if (st == QN_OK && qn_pack_doc_verify(&doc, &err) != QN_OK) {
        st = err.code;
        qn_err_source(&err, source);
        qn_pack_doc_release(&doc);
    }
    if (st != QN_OK)
        return cli_report(ctx, &err);
    qn_jsonw_init(&w, &out);
    if (json) {
        k.w = &w;
        qn_jsonw_obj(&w);
        qn_jsonw_key(&w, "kept");
        qn_jsonw_arr(&w);
    }
    st = cmd_open_store(ctx, cmd_db_path(db), QN_STORE_CREATE, &s);
    if (st == QN_EXIT_OK) {
        if (qn_pack_import(s, &doc, name, on_kept, &k, &err) != QN_OK) {
            if (err.code != QN_EDB && err.code != QN_EBUSY)
                qn_err_source(&err, source);
            st = cli_report(ctx, &err);
        } else {
            fputs(k.lines.buf, stderr);
            if (json)
                st = json_summary(&out, &w, name ? name : doc.name, &doc);
            else if (!ctx->quiet)
                print_summary(&k, name ? name : doc.name, &doc);
        }
        qn_store_close(s);
    }
    qn_buf_release(&out);
    qn_buf_release(&k.lines);
    qn_pack_doc_release(&doc);
    return st;
}
