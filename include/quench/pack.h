/*
 * quench/pack.h: packs as documents (docs/EXPORT.md): read a stored pack
 * or a quench-pack JSON document, write it in a format (json, jsonl, csv,
 * flip, svg, html), verify and import one; and put one puzzle into the
 * store and a pack.
 *
 * A qn_pack_doc is the caller's (qn_pack_doc_new / qn_pack_doc_free);
 * loading into one replaces what it held. One thread at a time per
 * document; a loaded document may be read (written out) by several.
 */
#ifndef QN_PUBLIC_PACK_H
#define QN_PUBLIC_PACK_H

#include "quench/common.h"
#include "quench/db.h"
#include "quench/solve.h"

/* The export formats: one list feeding the enum and the CLI spellings. */
#define QN_EXPORT_FORMATS(X)                                                   \
    X(JSON, "json")                                                            \
    X(JSONL, "jsonl")                                                          \
    X(CSV, "csv")                                                              \
    X(FLIP, "flip")                                                            \
    X(SVG, "svg")                                                              \
    X(HTML, "html")                                                            \
    X(PNG, "png")

typedef enum qn_export_format {
#define QN_X_(e, s) QN_EXPORT_##e,
    QN_EXPORT_FORMATS(QN_X_)
#undef QN_X_
        QN_EXPORT_NFORMATS
} qn_export_format;

/* The CLI spelling of f ("json", ...; static). */
QN_API const char *qn_export_format_name(qn_export_format f);
/* Parse a spelling: QN_OK, or QN_ESYNTAX naming the known formats. */
QN_API int qn_export_format_parse(qn_export_format *out, const char *name,
                                  qn_err *err);

typedef struct qn_pack_doc qn_pack_doc; /* opaque */
/* An empty document, or NULL when out of memory; free with
 * qn_pack_doc_free (NULL-safe). */
QN_API qn_pack_doc *qn_pack_doc_new(void);
QN_API void qn_pack_doc_free(qn_pack_doc *doc);
/* Empty doc again (what the loaders below need before loading). */
QN_API void qn_pack_doc_release(qn_pack_doc *doc);
/* The pack's name (borrowed, "" when none) and its puzzle count. */
QN_API const char *qn_pack_doc_name(const qn_pack_doc *doc);
QN_API size_t qn_pack_doc_npuzzles(const qn_pack_doc *doc);

/*
 * Read the pack called `name` from s into an empty doc. QN_ENOTFOUND (no
 * such pack), QN_EINVAL (a stored rule or puzzle does not load), QN_EDB,
 * QN_ENOMEM. On failure doc is left empty.
 */
QN_API int qn_pack_doc_load(qn_pack_doc *doc, qn_store *s, const char *name,
                            qn_err *err);
/*
 * Parse a quench-pack JSON document (len bytes; strict, bounded) into an
 * empty doc; `source` names it in errors. QN_ESYNTAX (located), QN_EINVAL
 * or QN_ELIMIT; QN_ENOMEM (never reported as a malformed document). On
 * failure doc is left empty.
 */
QN_API int qn_pack_doc_parse_json(qn_pack_doc *doc, const char *text,
                                  size_t len, const char *source, qn_err *err);
/* Re-verify every puzzle (its solution replays, its counts are quench's):
 * QN_EINVAL naming the first bad one; QN_ENOMEM. */
QN_API int qn_pack_doc_verify(const qn_pack_doc *doc, qn_err *err);

typedef struct qn_export_opts {
    int64_t puzzle; /* svg, png: the puzzle at this position alone; 0 =
                       the contact sheet */
} qn_export_opts;

/* Append doc in format f to out (o may be NULL). QN_EINVAL when the
 * format cannot express the pack, QN_ENOTFOUND when o->puzzle is not in
 * it, QN_ELIMIT when a png is too large, QN_ENOMEM (out's failed flag
 * set); out may then hold a partial document. */
QN_API int qn_export_write(qn_buf *out, const qn_pack_doc *doc,
                           qn_export_format f, const qn_export_opts *o,
                           qn_err *err);

/* A value the database kept where an imported document has another. */
/*
 * A value the database keeps where a document has another. Rules are
 * stored once per hash and puzzles once per rule and canonical form (up
 * to symmetry), so importing a rule or puzzle the database already holds
 * (the same puzzle legitimately comes from several seeds and runs) keeps
 * the stored row: its texts, board and tiers, or its state (maybe a
 * symmetric image of the document's), solution, grade, seed, index and
 * provenance (submission, source, meta). Its id is the document's: both
 * come from the same rule and canonical form.
 */
typedef struct qn_pack_diff {
    int64_t puzzle;       /* the puzzle's position; 0: a rule's field */
    uint64_t id;          /* the puzzle's id (puzzle_id.h), with puzzle */
    const char *rule;     /* the rule's name in the document */
    const char *field;    /* the document's key: "seed", "grade", "title",
                             "submission" */
    const char *stored;   /* the value kept, as text: strings as they are,
                             numbers in decimal, cells in the state text
                             format, a board as "grid 5x5, wrap x",
                             tiers as "easy 1-7, hard 8-9" or "none" */
    const char *document; /* the document's value, written the same way */
} qn_pack_diff;
/* Called once per differing field; the strings live during the call. */
typedef void qn_pack_diff_fn(void *ctx, const qn_pack_diff *d);

/*
 * Store a verified doc in s in one transaction: its rules, its puzzles
 * and a new pack called `name` (NULL = the document's). QN_EINVAL when
 * the name is taken or the document repeats a puzzle; QN_ENOMEM; nothing
 * written on failure. fn (may be NULL) hears of each value the database
 * kept, before the commit (when the import fails, what it heard is void).
 */
QN_API int qn_pack_import(qn_store *s, const qn_pack_doc *doc, const char *name,
                          qn_pack_diff_fn *fn, void *ctx, qn_err *err);

/*
 * Put one state of g's rule into the store (its rule stored on first
 * use) and, when pack is not NULL, at the end of the pack of that name
 * (created when missing), in one transaction (or the caller's batch).
 * The puzzle id (16 hex digits when printed) in *uid_out, and 1 in
 * *is_new_out when the store did not hold it (either may be NULL).
 * QN_EINVAL: the state is the goal; QN_EUNSOLVABLE; QN_ELIMIT: its least
 * presses are not proven under the walk limit; QN_EDB, QN_EBUSY, QN_ENOMEM.
 */
QN_API int qn_pack_put(qn_store *s, const qn_solver *solver,
                       const uint8_t *state, const char *pack,
                       uint64_t *uid_out, int *is_new_out, qn_err *err);

#endif
