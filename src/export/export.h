/*
 * export.h: packs as documents for games and pipelines (docs/EXPORT.md).
 *
 * A pack is read from the store into a qn_pack_doc, an in-memory "pack
 * document": the pack's metadata, each rule spelled out per cell (what a
 * press of each cell adds to which cells) with its board kept as
 * information, and the puzzles in pack order, each named by its puzzle
 * id (puzzle_id.h) and its position. The writers (json, jsonl, csv, flip,
 * svg, html) work from that document only, so an export never depends on
 * database rows or timestamps: the same pack gives the same bytes, and a
 * document imported into another database exports byte-identically.
 * qn_pack_doc_parse_json (json_pack.c) reads a quench-pack JSON back;
 * qn_pack_import re-verifies it and stores it.
 */
#ifndef QN_EXPORT_H
#define QN_EXPORT_H

#include "quench/pack.h"

#include <stddef.h>
#include <stdint.h>

#include "base/buf.h"
#include "base/err.h"
#include "rules/rules.h"
#include "store/store.h"

#define QN_PACK_FORMAT "quench-pack"
#define QN_PACK_FORMAT_VERSION 2 /* written; 1 and 2 are read */
/* The published schema's $id (docs/quench-pack.schema.json): every json
 * export names it in "$schema", so editors validate and complete it. */
#define QN_PACK_SCHEMA_URL                                                     \
    "https://github.com/quench/quench/docs/quench-pack.schema.json"
#define QN_PACK_MAX_FILE (256u << 20) /* bytes in an imported document */
#define QN_PACK_MAX_DEPTH 8           /* JSON nesting of a document */
#define QN_PACK_MAX_RULES 256         /* rules in one document */
#define QN_PACK_MAX_PUZZLES (1 << 20) /* puzzles in one document */
/* JSON values (each number, string, array and object) in one rule or
 * puzzle object, or in the pack object: what one of them costs parsed.
 * A rule of 4096 cells whose rebuilt rule file loads (QN_RULES_MAX_EVENTS)
 * has fewer; a puzzle has two arrays of at most 4096 cells. */
#define QN_PACK_MAX_VALUES (1 << 18)
/* A puzzle's provenance (validate --into): a submission id is at most
 * QN_SUBMIT_MAX_ID bytes and a record (so its unread fields) at most
 * QN_SUBMIT_MAX_LINE (submit.h); a source is a path and ":LINE". */
#define QN_PACK_MAX_SUBMISSION 256
#define QN_PACK_MAX_SOURCE 4200
#define QN_PACK_MAX_META (1 << 20)
/* A rule's kernel as generators (the play kit, docs/EXPORT.md): at most
 * this many, so at least 2^64 elements past it, more than any walk; a
 * rule with more has no kernel in its document. */
#define QN_PACK_MAX_KERNEL 64
/* A level slot (store.h, docs/STORE.md "Level slots"): 1 .. 2^53 - 1, so
 * every game runtime holds it exactly. */
#define QN_PACK_MAX_SLOT ((1LL << 53) - 1)

/* The CLI spelling of f ("json", ...). */
const char *qn_export_format_name(qn_export_format f);
/* Parse a spelling: QN_OK, or QN_ESYNTAX naming the known formats. */
int qn_export_format_parse(qn_export_format *out, const char *name,
                           qn_err *err);

/* One rule of a document. Strings and arrays are owned by the document. */
typedef struct qn_pack_rule {
    char *hash; /* 64 lowercase hex digits (qn_rules_hash) */
    char *name, *title, *description, *author; /* "" when absent */
    unsigned colours;                          /* k, 2..255 */
    qn_layout_kind kind;
    int w, h, wrap, side; /* as in qn_layout */
    int ncells;
    int *row, *col;  /* ncells: each cell's position */
    uint8_t *matrix; /* ncells^2: A[i * n + j] = what pressing j adds to i */
    uint8_t *goal;   /* ncells values < k */
    size_t ntiers;
    char **tier_name; /* ntiers */
    int *tier_lo, *tier_hi;
    qn_rules *rules; /* compiled (owned); NULL until built */
    /*
     * The play kit: the kernel of the press matrix (the quiet patterns)
     * as nkernel generators, kernel[g * ncells + j] the presses of cell
     * j in generator g, of additive order kernel_order[g] (qn_system's
     * invariant-factor form). kernel_known is 0 when it is not known (a
     * rule not compiled yet, or more than QN_PACK_MAX_KERNEL generators):
     * then the document has no "kernel".
     */
    int kernel_known;
    size_t nkernel;
    unsigned *kernel_order;
    uint8_t *kernel;
} qn_pack_rule;

/*
 * One puzzle. state and solution hold the rule's ncells values. The
 * provenance texts are those of a puzzle accepted by validate --into
 * (store.h), "" for any other.
 */
typedef struct qn_pack_puzzle {
    uint64_t id;       /* the puzzle id (puzzle_id.h) of rule and state */
    int64_t position;  /* in the pack, 1..npuzzles */
    size_t rule;       /* index into doc->rules */
    uint8_t *state;    /* the start state (values < k) */
    uint8_t *solution; /* an optimal plan: per-cell press counts */
    uint64_t min_presses;
    uint64_t noptimal;   /* optimal solutions */
    char *grade;         /* "" when ungraded */
    char *grader;        /* grader version; "" when unknown */
    char *seed;          /* batch seed as hex; "" when none */
    int64_t index;       /* stream index; -1 when none */
    char *submission;    /* the submission's own id */
    char *source;        /* "FILE:LINE" of the submission */
    char *meta;          /* the submission's other fields: a JSON object */
    int64_t slot;        /* its level slot in the pack; 0: none given */
    char *section;       /* its recipe section; "" when none */
    int human_level;     /* the human grade (docs/GENERATE.md "The human
                            score"): level 0..3 */
    int64_t human_score; /* thousandths */
    int human_model;     /* the model's version; 0: not graded (a zeroed
                            puzzle has no grade) */
} qn_pack_puzzle;

typedef struct qn_pack_doc {
    char *name, *title, *description, *author;
    int64_t version; /* the pack's version (store.h), >= 1 (a pack a
                        generator run built is at 1 whatever it holds);
                        a format 1 document's is 1, what its import
                        makes of it */
    qn_pack_rule *rules;
    size_t nrules;
    qn_pack_puzzle *puzzles;
    size_t npuzzles;
} qn_pack_doc;

/* A puzzle's human grade as the exports write it: keys human_level,
 * human_level_number, human_score (thousandths) and human_model_version,
 * all null when model < 1 (not graded). */
struct qn_jsonw;
void qn_export_json_human(struct qn_jsonw *w, int level, int64_t score,
                          int model);

/* Release everything a document owns and zero it; safe on a zeroed doc. */
void qn_pack_doc_release(qn_pack_doc *doc);

/*
 * Fill `out` (uninitialised) with the rule r spelled out: metadata, board,
 * per-cell effects, goal, tiers. out->rules stays NULL (r is borrowed and
 * not kept). Release with qn_pack_rule_release. QN_ENOMEM: out is left
 * zeroed.
 */
int qn_pack_rule_from_rules(qn_pack_rule *out, const qn_rules *r, qn_err *err);
void qn_pack_rule_release(qn_pack_rule *pr);
/*
 * Fill pr's play kit from its matrix (pr->kernel_known and the kernel
 * fields): qn_pack_rule_from_rules and qn_pack_rule_compile call it. A
 * no-op when it is known already. QN_OK, or QN_ENOMEM (still unknown).
 */
int qn_pack_rule_kernel(qn_pack_rule *pr, qn_err *err);

/*
 * Append an equivalent rule file (YAML, docs/RULES.md) for pr to out: its
 * board and every cell's press as an explicit `effects:` entry, so it
 * loads to the same matrix, goal, tiers and hash. Out of memory sets
 * out->failed (qn_buf_check), as for the other void writers of this
 * layer (svg.h, term.h, the dir export below).
 */
void qn_pack_rule_yaml(qn_buf *out, const qn_pack_rule *pr);

/*
 * Compile pr: build its YAML, load it, and check that the result has
 * pr's hash and cell positions, and that its board generates its effects
 * (qn_rules_board_generates). Sets pr->rules. QN_EINVAL with the reason
 * (e.g. "rule 'x': its effects hash to H, the document says H2").
 */
int qn_pack_rule_compile(qn_pack_rule *pr, qn_err *err);

/*
 * A stored rule r (loaded from its stored YAML) whose YAML is what import
 * writes (qn_pack_rule_yaml of r itself) was stored by an import, whose
 * board nothing but its effects vouches for: QN_EINVAL (the message
 * begins with `who`) unless its board generates its effects
 * (qn_rules_board_generates), as qn_pack_rule_compile now demands of a
 * document. Any other stored rule is its author's rule file, whose press
 * section made its effects: QN_OK. For db check.
 */
int qn_pack_rule_stored_board(const qn_rules *r, const char *who, qn_err *err);

/*
 * Read the pack called `name` from s into `out` (uninitialised): rules
 * compiled, puzzles parsed. QN_ENOTFOUND: no such pack; QN_EINVAL: a
 * stored rule or puzzle does not load (a text does not parse under its
 * rule, or the solution's presses do not sum to min_presses, so
 * min_presses <= ncells * (k - 1) holds for every loaded puzzle); QN_EDB:
 * the file is damaged. On failure out is left empty (zeroed).
 */
int qn_pack_doc_load(qn_pack_doc *out, qn_store *s, const char *name,
                     qn_err *err);

/*
 * Append doc in format f to out. QN_EINVAL when the format cannot express
 * the pack (flip: qn_flip_can_express's message; svg, png: several rules
 * on a sheet), QN_ENOTFOUND when o->puzzle is not in the pack, QN_ELIMIT
 * when a png is past its size limit (png.h), QN_ENOMEM. On failure out
 * may hold a partial document. o may be NULL.
 */
int qn_export_write(qn_buf *out, const qn_pack_doc *doc, qn_export_format f,
                    const qn_export_opts *o, qn_err *err);

/*
 * The dir export (export_dir.c, docs/EXPORT.md "dir"): index.json, the
 * table of contents (format QN_PACK_INDEX_FORMAT: the pack, its rules,
 * and per level its file, id, position, slot, section, rule and
 * min_presses), and per puzzle i the file qn_export_dir_level_path names
 * ("levels/0001.json"), its puzzle object as the json export has it.
 */
#define QN_PACK_INDEX_FORMAT "quench-pack-index"
#define QN_EXPORT_DIR_PATH 40
const char *qn_export_dir_level_path(char out[QN_EXPORT_DIR_PATH],
                                     const qn_pack_doc *doc, size_t i);
/* Each returns QN_OK, or QN_ENOMEM (err filled; out may hold a part). */
int qn_export_dir_index(qn_buf *out, const qn_pack_doc *doc, qn_err *err);
int qn_export_dir_level(qn_buf *out, const qn_pack_doc *doc, size_t i,
                        qn_err *err);

/*
 * Parse a quench-pack JSON document (json_pack.c; strict: duplicate keys,
 * non-integer numbers, unknown keys, wrong types and limits are errors)
 * into out (uninitialised). Rules are compiled (qn_pack_rule_compile) and
 * every puzzle's state and solution are checked against its rule's size
 * and colours. Codes: QN_ESYNTAX malformed JSON (err line/col set);
 * QN_EINVAL or QN_ELIMIT a document that breaks the schema, with the
 * puzzle id in the message where one is concerned; QN_ENOMEM (never
 * reported as a malformed document). err->source = source. On failure
 * out is left empty.
 */
int qn_pack_doc_parse_json(qn_pack_doc *out, const char *text, size_t len,
                           const char *source, qn_err *err);

/*
 * Re-verify every puzzle of doc: its solution replays to the goal, uses
 * min_presses presses, and min_presses and the optimal count equal what
 * quench computes. QN_EINVAL naming the first bad puzzle and the reason;
 * QN_ENOMEM.
 */
int qn_pack_doc_verify(const qn_pack_doc *doc, qn_err *err);

/*
 * Compare doc with kept, the same pack as the store now holds it
 * (qn_pack_doc_load): each rule of doc with the rule of kept of the same
 * hash, and puzzle i with puzzle i, field by field, rules first. Calls
 * fn(ctx, ...) for every field that differs and sets *n_out (may be
 * NULL) to their number. QN_OK, or QN_ENOMEM (err filled): then fn may
 * have heard of some of them.
 */
int qn_pack_doc_diff(const qn_pack_doc *doc, const qn_pack_doc *kept,
                     qn_pack_diff_fn *fn, void *ctx, size_t *n_out,
                     qn_err *err);

/*
 * Store doc (already verified) in s in one transaction: its rules (as the
 * YAML of qn_pack_rule_yaml), its puzzles (provenance "import") and a new
 * pack called `name` (NULL = the document's name) holding them in order.
 * QN_EINVAL when the pack name is taken or fails qn_store_pack_check, or
 * the document holds the same puzzle twice; QN_ENOMEM; nothing is written
 * on failure. fn (when not NULL) hears of every value the database kept
 * where the document has another (qn_pack_doc_diff against the pack read
 * back inside the transaction, so what an export of the new pack
 * writes), before the commit: when the import then fails, what it heard
 * is void.
 */
int qn_pack_import(qn_store *s, const qn_pack_doc *doc, const char *name,
                   qn_pack_diff_fn *fn, void *ctx, qn_err *err);

#endif
