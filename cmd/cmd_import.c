/*
 * cmd_import.c: `quench import FILE [--pack NAME]`: read a quench-pack JSON
 * document back into the store, re-verifying every puzzle first; a bad
 * document writes nothing.
 */
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cmd.h"
#include "quench/buf.h"
#include "quench/export.h"
#include "quench/mem.h"
#include "quench/puzzle_id.h"
#include "quench/store.h"
#include "quench/text.h"

const char cmd_import_usage[] =
    "usage: quench import FILE [--pack NAME] [--db PATH]\n"
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
    "db/quench.db, created on first use) selects the database.\n";

/* What the database kept where the document has another (export.h):
 * listed after the commit, whatever -q says, and counted. */
typedef struct kept {
    const char *source;
    qn_buf lines;
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
    head = qn_xmemdup(v, cut + 1);
    head[cut] = '\0';
    qn_buf_addc(out, '\'');
    qn_text_escape(out, head);
    qn_buf_addc(out, '\'');
    if (cut < n)
        qn_buf_addf(out, "... (%zu bytes)", n);
    free(head);
}

static void on_kept(void *vctx, const qn_pack_diff *d)
{
    kept *k = vctx;

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
    printf("imported pack '%s': %zu puzzles, %zu rules\n", name,
           doc->npuzzles, doc->nrules);
    if (k->nfields)
        printf("kept %zu stored values that differ from the document "
               "(%zu puzzles, %zu rules already stored; listed on "
               "stderr)\n",
               k->nfields, k->npuzzles, k->nrules);
}

int cmd_import(int argc, char **argv, qn_ctx *ctx)
{
    static const struct option opts[] = {
        {"pack", required_argument, NULL, 'P'},
        {"db", required_argument, NULL, 'D'},
        {NULL, 0, NULL, 0}};
    const char *db = NULL, *name = NULL, *path, *source;
    qn_err err = QN_ERR_INIT;
    qn_pack_doc doc;
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
        case 'P': name = optarg; break;
        case 'D': db = optarg; break;
        default:
            return qn_usage_error("import: unknown or incomplete option "
                                  "'%s'", argv[optind - 1]);
        }
    }
    if (optind != argc - 1)
        return qn_usage_error("import: give exactly one FILE");
    if (name && (st = cmd_check_pack_name("import: --pack", name)))
        return st;
    path = argv[optind];
    source = strcmp(path, "-") == 0 ? "<stdin>" : path;
    memset(&k, 0, sizeof(k));
    k.source = source;
    qn_buf_init(&k.lines);
    if (cmd_read_all(path, QN_PACK_MAX_FILE, &text, &len, &err) != QN_OK)
        return qn_report(ctx, &err);
    st = qn_pack_doc_parse_json(&doc, text, len, source, &err);
    free(text);
    if (st == QN_OK && qn_pack_doc_verify(&doc, &err) != QN_OK) {
        st = err.code;
        qn_err_source(&err, source);
        qn_pack_doc_release(&doc);
    }
    if (st != QN_OK)
        return qn_report(ctx, &err);
    st = cmd_open_store(ctx, cmd_db_path(db), QN_STORE_CREATE, &s);
    if (st == QN_EXIT_OK) {
        if (qn_pack_import(s, &doc, name, on_kept, &k, &err) != QN_OK) {
            if (err.code != QN_EDB && err.code != QN_EBUSY)
                qn_err_source(&err, source);
            st = qn_report(ctx, &err);
        } else {
            fputs(k.lines.buf, stderr);
            if (!ctx->quiet)
                print_summary(&k, name ? name : doc.name, &doc);
        }
        qn_store_close(s);
    }
    qn_buf_release(&k.lines);
    qn_pack_doc_release(&doc);
    return st;
}
