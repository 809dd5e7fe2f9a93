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
#include "quench/export.h"
#include "quench/store.h"

const char cmd_import_usage[] =
    "usage: quench import FILE [--pack NAME] [--db PATH]\n"
    "\n"
    "Read a quench-pack JSON document (as written by `quench export\n"
    "--format json`; FILE - is standard input) into the database as a new\n"
    "pack (named as in the document, or NAME). Every rule must match its\n"
    "hash and every puzzle is re-verified: its solution reaches the goal\n"
    "and its min_presses and optimal_solutions are what quench computes.\n"
    "A document that fails is rejected whole, naming the puzzle and the\n"
    "reason (exit 65). --db PATH (default: $QUENCH_DB, else db/quench.db,\n"
    "created on first use) selects the database.\n";

int cmd_import(int argc, char **argv, qn_ctx *ctx)
{
    static const struct option opts[] = {
        {"pack", required_argument, NULL, 'P'},
        {"db", required_argument, NULL, 'D'},
        {NULL, 0, NULL, 0}};
    const char *db = NULL, *name = NULL, *path, *source;
    qn_err err = QN_ERR_INIT;
    qn_pack_doc doc;
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
        if (qn_pack_import(s, &doc, name, &err) != QN_OK) {
            if (err.code != QN_EDB && err.code != QN_EBUSY)
                qn_err_source(&err, source);
            st = qn_report(ctx, &err);
        } else if (!ctx->quiet) {
            printf("imported pack '%s': %zu puzzles, %zu rules\n",
                   name ? name : doc.name, doc.npuzzles, doc.nrules);
        }
        qn_store_close(s);
    }
    qn_pack_doc_release(&doc);
    return st;
}
