/*
 * cmd_export.c: `quench export PACK --format F [-o FILE|-]`: write a
 * stored pack as json, jsonl, csv, Flip game IDs, svg, a playable html
 * page or png pictures (export.h). A file is written atomically: a
 * temporary file beside it, fsync, rename; png without --puzzle writes a
 * directory of such files, all drawn before the first is written.
 */
#include <errno.h>
#include <fcntl.h>
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "base/buf.h"
#include "base/mem.h"
#include "cmd.h"
#include "export/export.h"
#include "rules/puzzle_id.h"
#include "store/store.h"

const char cmd_export_usage[] =
    "usage: quench export PACK --format FORMAT [-o FILE|DIR|-] "
    "[--puzzle REF] [--db PATH]\n"
    "       quench export PACK --format dir -o DIR [--force] [--db PATH]\n"
    "\n"
    "Write the stored pack PACK for games and pipelines (docs/EXPORT.md):\n"
    "  json    one quench-pack document, format 2 (schema:\n"
    "          docs/quench-pack.schema.json)\n"
    "  jsonl   a header record, then one record per puzzle, one per line\n"
    "  csv     RFC 4180: id,position,state,min_presses,optimal_solutions,\n"
    "          solution,grade,seed,pack_version,submission,source,meta,\n"
    "          slot,section,rule,rule_name (state and solution in the\n"
    "          state text format; rule the rule's hash)\n"
    "  flip    one Simon Tatham's Flip game ID per puzzle (2 colours,\n"
    "          rectangular boards without holes, all-off goal)\n"
    "  svg     a contact sheet of the pack, or one puzzle with --puzzle REF\n"
    "  html    one self-contained page that plays the pack in a browser\n"
    "  dir     a folder: index.json (the pack, its rules and a table of\n"
    "          contents) and levels/NNNN.json, one puzzle each; written\n"
    "          whole or not at all, an existing DIR replaced only with\n"
    "          --force and only when it is a dir export\n"
    "  png     -o DIR: a thumbnail per puzzle (DIR/POS-ID.png) and the\n"
    "          contact sheet (DIR/sheet.png), or one puzzle with --puzzle\n"
    "          REF; each the svg picture without its text\n"
    "\n"
    "Every puzzle is named by its puzzle id (16 hex digits, from its rule\n"
    "and state) and its position in the pack, from 1. REF is a puzzle id,\n"
    "a unique prefix of one (4 digits or more) or #ROW, and must be in the\n"
    "pack. -o FILE writes FILE atomically (default, or -o -: standard\n"
    "output). --db PATH (default: $QUENCH_DB, else db/quench.db) selects\n"
    "the database.\n";

/* The library's format spellings for messages, from the one list in
 * quench/pack.h ("json, jsonl, ..."); the command adds its own "dir"
 * (files, not one output: it writes them itself). */
#define QN_X_(e, s) ", " s
static const char format_list[] = QN_EXPORT_FORMATS(QN_X_);
#undef QN_X_
#define EXPORT_FORMATS (format_list + 2)

static const struct option opts[] = {{"format", required_argument, NULL, 'f'},
                                     {"output", required_argument, NULL, 'o'},
                                     {"puzzle", required_argument, NULL, 'p'},
                                     {"db", required_argument, NULL, 'D'},
                                     {"force", no_argument, NULL, 'F'},
                                     {NULL, 0, NULL, 0}};

const cmd_grammar cmd_export_grammar = {
    .opts = opts,
    .shortopts = "f:o:",
    .operands = "pack",
    .values = "format=json|jsonl|csv|flip|svg|html|png|dir output=file "
              "db=file",
};

/* Where the puzzle at database row `row` sits in the pack walked. */
typedef struct member_at {
    int64_t row, position;
} member_at;

static int on_member(void *ctx, const qn_store_row *r)
{
    member_at *m = ctx;

    if (r->id != m->row)
        return 0;
    m->position = r->position;
    return 1;
}

/*
 * The position in pack `name` of the puzzle ref names: QN_ENOTFOUND when
 * there is no such puzzle, or it is not in the pack; QN_EINVAL (only) when
 * a prefix names several puzzles (qn_store_puzzle_resolve).
 */
static int find_in_pack(qn_store *s, const char *name, const char *ref,
                        int64_t *position_out, qn_err *err)
{
    member_at m = {0, 0};
    int64_t pack_id;
    int rc = qn_store_puzzle_resolve(s, ref, &m.row, err);

    if (rc == QN_OK)
        rc = qn_store_pack_find(s, name, &pack_id, err);
    if (rc == QN_OK)
        rc = qn_store_pack_each(s, pack_id, on_member, &m, err);
    if (rc == 1)
        rc = QN_OK;
    if (rc == QN_OK && !m.position)
        rc = qn_err_set(err, QN_ENOTFOUND, 0, 0,
                        "puzzle '%s' is not in pack '%s'", ref, name);
    if (rc == QN_OK)
        *position_out = m.position;
    return rc;
}

/*
 * export --format png -o DIR: the contact sheet and every puzzle's picture
 * drawn into memory first (a pack too big for a sheet fails before any
 * file is written), then DIR made when missing and each file written
 * atomically, the sheet last.
 */
static int write_png_dir(cli_ctx *ctx, const qn_pack_doc *doc, const char *dir)
{
    size_t n = doc->npuzzles, i;
    qn_buf *png = CLI_NEWN(n + 1, qn_buf);
    qn_buf path = QN_BUF_INIT;
    qn_err err = QN_ERR_INIT;
    qn_export_opts eo;
    struct stat sb;
    int st = QN_EXIT_OK, digits = 3;

    memset(&eo, 0, sizeof(eo));
    for (size_t m = n; m >= 1000; m /= 10)
        digits++;
    /* the sheet (png[n]) first: the one picture a big pack may not fit */
    for (i = n + 1; i-- > 0 && st == QN_EXIT_OK;) {
        eo.puzzle = i < n ? (int64_t)(i + 1) : 0;
        if (qn_export_write(&png[i], doc, QN_EXPORT_PNG, &eo, &err) != QN_OK) {
            if (err.code == QN_ELIMIT && i == n) {
                char why[sizeof(err.msg)];
                snprintf(why, sizeof(why), "%s", err.msg);
                qn_err_set(&err, QN_ELIMIT, 0, 0,
                           "the contact sheet of pack '%s': %.300s (write "
                           "puzzles one at a time with --puzzle)",
                           doc->name, why);
            }
            st = cli_report(ctx, &err);
        }
    }
    if (st == QN_EXIT_OK && mkdir(dir, 0777) != 0 &&
        (errno != EEXIST || stat(dir, &sb) != 0 || !S_ISDIR(sb.st_mode)))
        st = cmd_cannot_create(dir, errno == EEXIST ? ENOTDIR : errno);
    for (i = 0; i <= n && st == QN_EXIT_OK; i++) {
        char id[QN_PUZZLE_ID_HEX];

        qn_buf_reset(&path);
        if (i < n) {
            qn_puzzle_id_hex(id, doc->puzzles[i].id);
            qn_buf_addf(&path, "%s/%0*lld-%s.png", dir, digits,
                        (long long)doc->puzzles[i].position, id);
        } else {
            qn_buf_addf(&path, "%s/sheet.png", dir);
        }
        st = cmd_write_atomic(path.buf, png[i].buf, png[i].len);
    }
    for (i = 0; i <= n; i++)
        qn_buf_release(&png[i]);
    free(png);
    qn_buf_release(&path);
    return st;
}

int cmd_export(int argc, char **argv, cli_ctx *ctx)
{
    const char *db = NULL, *outpath = NULL, *pack;
    qn_export_format fmt = QN_EXPORT_JSON;
    qn_export_opts eo;
    int have_format = 0, c, st, dir = 0, force = 0;
    qn_store *s = NULL;
    qn_pack_doc doc;
    qn_buf out = QN_BUF_INIT;
    qn_err err = QN_ERR_INIT;
    const char *ref = NULL;
    int64_t pack_id;

    if (cmd_wants_help(argc, argv, cmd_export_usage))
        return QN_EXIT_OK;
    memset(&eo, 0, sizeof(eo));
    optind = 1;
    opterr = 0;
    while ((c = getopt_long(argc, argv, "f:o:", opts, NULL)) != -1) {
        switch (c) {
        case 'f':
            /* dir is files, not one output: the command writes it */
            if ((dir = !strcmp(optarg, "dir")) != 0) {
                have_format = 1;
                break;
            }
            if (qn_export_format_parse(&fmt, optarg, &err) != QN_OK)
                return cli_usage_error("export: unknown format '%s' (%s, "
                                       "dir)",
                                       optarg, EXPORT_FORMATS);
            have_format = 1;
            break;
        case 'o':
            outpath = optarg;
            break;
        case 'p':
            if (!cmd_is_puzzle_ref(optarg))
                return cli_usage_error("export: --puzzle needs a puzzle id "
                                       "(%d to 16 hex digits) or #ROW, got "
                                       "'%s'",
                                       QN_PUZZLE_ID_MIN_PREFIX, optarg);
            ref = optarg;
            break;
        case 'D':
            db = optarg;
            break;
        case 'F':
            force = 1;
            break;
        default:
            return cmd_bad_option("export", argv, opts, "f:o:");
        }
    }
    if (!have_format)
        return cli_usage_error("export: --format is required (%s, dir)",
                               EXPORT_FORMATS);
    if (optind != argc - 1)
        return cli_usage_error("export: give exactly one PACK");
    if (ref && ((fmt != QN_EXPORT_SVG && fmt != QN_EXPORT_PNG) || dir))
        return cli_usage_error("export: --puzzle goes with --format svg or "
                               "png");
    if (dir && (!outpath || !strcmp(outpath, "-")))
        return cli_usage_error("export: --format dir needs -o DIR (a folder "
                               "is no stream)");
    if (!dir && fmt == QN_EXPORT_PNG && !ref &&
        (!outpath || !strcmp(outpath, "-")))
        return cli_usage_error("export: --format png writes a directory: give "
                               "-o DIR (or one puzzle with --puzzle REF)");
    if (force && !dir)
        return cli_usage_error("export: --force goes with --format dir (-o "
                               "FILE is always replaced atomically)");
    pack = argv[optind];
    st = cmd_open_store(ctx, cmd_db_path(db), QN_STORE_READONLY, &s);
    if (st)
        return st;
    if (cmd_find_pack(s, pack, &pack_id, &err) == QN_ENOTFOUND) {
        qn_err_source(&err, qn_store_path(s));
        qn_store_close(s);
        return cli_report(ctx, &err);
    }
    if (qn_pack_doc_load(&doc, s, pack, &err) != QN_OK) {
        qn_store_close(s);
        return cli_report(ctx, &err);
    }
    if (ref && (st = find_in_pack(s, pack, ref, &eo.puzzle, &err)) != QN_OK) {
        qn_store_close(s);
        qn_pack_doc_release(&doc);
        /* a prefix naming two puzzles is the argument's fault (64), as in
         * pack add and solve --id */
        return st == QN_EINVAL ? cli_usage_error("export: %s", err.msg)
                               : cli_report(ctx, &err);
    }
    qn_store_close(s);
    if (dir) {
        st = cmd_export_dir(&doc, outpath, force);
    } else if (fmt == QN_EXPORT_PNG && !ref) {
        st = write_png_dir(ctx, &doc, outpath);
    } else if (qn_export_write(&out, &doc, fmt, &eo, &err) != QN_OK) {
        st = cli_report(ctx, &err);
    } else {
        st = cmd_write_atomic(outpath, out.buf, out.len);
    }
    qn_buf_release(&out);
    qn_pack_doc_release(&doc);
    return st;
}
