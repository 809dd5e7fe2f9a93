/*
 * cmd_export.c: `quench export PACK --format F [-o FILE|-]`: write a
 * stored pack as json, jsonl, csv, Flip game IDs, svg or a playable html
 * page (export.h). A file is written atomically: a temporary file beside
 * it, fsync, rename.
 */
#include <errno.h>
#include <fcntl.h>
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "cmd.h"
#include "quench/buf.h"
#include "quench/export.h"
#include "quench/mem.h"
#include "quench/store.h"

const char cmd_export_usage[] =
    "usage: quench export PACK --format FORMAT [-o FILE|-] [--puzzle N] "
    "[--db PATH]\n"
    "\n"
    "Write the stored pack PACK for games and pipelines (docs/EXPORT.md):\n"
    "  json    one quench-pack document (schema: docs/quench-pack.schema.json)\n"
    "  jsonl   a header record, then one record per puzzle, one per line\n"
    "  csv     RFC 4180: id,state,min_presses,optimal_solutions,solution,\n"
    "          grade,seed (state and solution in the state text format)\n"
    "  flip    one Simon Tatham's Flip game ID per puzzle (2 colours,\n"
    "          rectangular boards without holes, all-off goal)\n"
    "  svg     a contact sheet of the pack, or puzzle N with --puzzle N\n"
    "  html    one self-contained page that plays the pack in a browser\n"
    "\n"
    "-o FILE writes FILE atomically (default, or -o -: standard output).\n"
    "Puzzles are numbered by their position in the pack, from 1. --db PATH\n"
    "(default: $QUENCH_DB, else db/quench.db) selects the database.\n";

int cmd_export(int argc, char **argv, qn_ctx *ctx)
{
    static const struct option opts[] = {
        {"format", required_argument, NULL, 'f'},
        {"output", required_argument, NULL, 'o'},
        {"puzzle", required_argument, NULL, 'p'},
        {"db", required_argument, NULL, 'D'},
        {NULL, 0, NULL, 0}};
    const char *db = NULL, *outpath = NULL, *pack;
    qn_export_format fmt = QN_EXPORT_JSON;
    qn_export_opts eo;
    int have_format = 0, c, st;
    qn_store *s = NULL;
    qn_pack_doc doc;
    qn_buf out = QN_BUF_INIT;
    qn_err err = QN_ERR_INIT;
    uint64_t v;

    if (cmd_wants_help(argc, argv, cmd_export_usage))
        return QN_EXIT_OK;
    memset(&eo, 0, sizeof(eo));
    optind = 1;
    opterr = 0;
    while ((c = getopt_long(argc, argv, "f:o:", opts, NULL)) != -1) {
        switch (c) {
        case 'f':
            if (qn_export_format_parse(&fmt, optarg, &err) != QN_OK)
                return qn_usage_error("export: %s", err.msg);
            have_format = 1;
            break;
        case 'o': outpath = optarg; break;
        case 'p':
            if (cmd_parse_u64(optarg, &v) || v < 1 || v > INT64_MAX)
                return qn_usage_error("export: --puzzle needs a position "
                                      "1.., got '%s'", optarg);
            eo.puzzle = (int64_t)v;
            break;
        case 'D': db = optarg; break;
        default:
            return qn_usage_error("export: unknown or incomplete option "
                                  "'%s'", argv[optind - 1]);
        }
    }
    if (!have_format)
        return qn_usage_error("export: --format is required (json, jsonl, "
                              "csv, flip, svg, html)");
    if (optind != argc - 1)
        return qn_usage_error("export: give exactly one PACK");
    if (eo.puzzle && fmt != QN_EXPORT_SVG)
        return qn_usage_error("export: --puzzle goes with --format svg");
    pack = argv[optind];
    st = cmd_open_store(ctx, cmd_db_path(db), 0, &s);
    if (st)
        return st;
    if (qn_pack_doc_load(&doc, s, pack, &err) != QN_OK) {
        qn_store_close(s);
        return qn_report(ctx, &err);
    }
    qn_store_close(s);
    if (qn_export_write(&out, &doc, fmt, &eo, &err) != QN_OK) {
        st = qn_report(ctx, &err);
    } else {
        st = cmd_write_atomic(outpath, out.buf, out.len);
    }
    qn_buf_release(&out);
    qn_pack_doc_release(&doc);
    return st;
}
