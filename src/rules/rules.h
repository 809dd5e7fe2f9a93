/*
 * rules.h: the rule-set model. A rule set describes a puzzle family: the
 * board (layout.h), the modulus k ("colours") and what each press adds to
 * each cell, compiled into the dense press matrix A over Z/k, where
 * A[i * n + j] is what pressing cell j adds to cell i. A state s is solved
 * by presses x when A x + s = goal (mod k).
 *
 * Two halves: a plain-struct description (qn_rules_spec, what a rule file
 * says, with the file position of every value) and the compiled, immutable
 * qn_rules. qn_rules_build() validates a spec and compiles it (rules.c and
 * the steps it calls); the YAML front end (rules_yaml.c, rules_schema.c)
 * fills a spec from a file, and qn_rules_load_* (rules_load.c) do both.
 * The language is documented in docs/RULES.md.
 */
#ifndef QN_RULES_H
#define QN_RULES_H

#include "quench/ruleset.h"

#include <stddef.h>
#include <stdint.h>

#include "base/err.h"
#include "rules/layout.h"

#define QN_RULES_VERSION 1            /* the `quench:` schema version */
#define QN_RULES_MAX_CELLS 4096       /* dense matrix: ncells^2 bytes */
#define QN_RULES_MAX_FILE (1 << 20)   /* bytes in a rule file */
#define QN_RULES_MAX_DEPTH 32         /* YAML nesting */
#define QN_RULES_MAX_EVENTS (1 << 18) /* YAML parser events */
#define QN_RULES_MAX_OFFSETS 1024     /* offsets in one stencil */
#define QN_RULES_MAX_TIERS 16         /* grading tiers */
#define QN_RULES_MAX_NAME 64          /* bytes in name and tier names */
#define QN_RULES_MAX_TEXT 4096        /* bytes in title/description/author */

typedef struct qn_rules qn_rules; /* opaque, immutable once built */

/* ---------------------------------------------------------------------
 * The plain description. Every field has a mark: the 1-based position of
 * the value in the source (0, 0 when unknown or absent). Strings are
 * malloc'd and owned by the spec; qn_rules_spec_release() frees them.
 */
typedef struct qn_mark {
    int line, col;
} qn_mark;

typedef enum qn_stencil_kind {
    QN_STENCIL_NONE = 0, /* not given */
    QN_STENCIL_PLUS,     /* 4 orthogonal neighbours (grid) */
    QN_STENCIL_X,        /* 4 diagonal neighbours (grid) */
    QN_STENCIL_MOORE,    /* 8 neighbours (grid) */
    QN_STENCIL_KNIGHT,   /* 8 knight moves (grid) */
    QN_STENCIL_ROWCOL,   /* every other cell of the row and column (grid) */
    QN_STENCIL_HEX,      /* 6 neighbours (hex boards) */
    QN_STENCIL_LIST,     /* explicit offsets */
} qn_stencil_kind;

typedef struct qn_offset {
    int dx, dy;     /* grid: column and row steps; hex: axial dq, dr */
    int has_amount; /* 0: use the press amount */
    long amount;
    qn_mark mark;
} qn_offset;

typedef struct qn_stencil_spec {
    qn_stencil_kind kind;
    qn_offset *offsets; /* QN_STENCIL_LIST only */
    size_t noffsets;
    qn_mark mark;
} qn_stencil_spec;

/* A text value (mask or goal) and where each of its lines starts in the
 * source: origins[i] is the file position of line i + 1, column 1, of
 * `text`; origins is NULL (positions fall back to `mark`) when the YAML
 * scalar's lines do not map one-to-one onto the file. */
typedef struct qn_text_spec {
    char *text; /* NULL = absent */
    size_t len;
    qn_mark mark;
    qn_mark *origins;
    size_t norigins;
} qn_text_spec;

typedef struct qn_effect_target {
    long cell;
    int has_amount; /* 0: use the press amount */
    long amount;
    qn_mark mark;
} qn_effect_target;

typedef struct qn_effect_spec {
    long cell; /* the pressed cell */
    qn_mark mark;
    qn_effect_target *targets;
    size_t ntargets;
} qn_effect_spec;

typedef struct qn_tier_spec {
    char *name;
    long lo, hi; /* inclusive press-count range */
    qn_mark mark;
} qn_tier_spec;

/* Every error of a rule file that can be told apart (`rules check`), in
 * file order; grown with qn_rules_errs_add, freed with
 * qn_rules_errs_release. */
#define QN_RULES_MAX_ERRS 256 /* errors kept; the rest only counted */
typedef struct qn_rules_errs {
    qn_err *e;
    size_t n, cap;
    size_t more; /* errors past QN_RULES_MAX_ERRS, not kept */
} qn_rules_errs;

void qn_rules_errs_release(qn_rules_errs *l); /* zeroes */
/* Append a copy of err (only counted in `more` past QN_RULES_MAX_ERRS):
 * QN_OK, or QN_ENOMEM with l unchanged. */
int qn_rules_errs_add(qn_rules_errs *l, const qn_err *err);

typedef struct qn_rules_spec {
    qn_rules_errs *errs; /* NULL: reading and building stop at the first
                            error; else each is kept there and they go on
                            where the rest still means something */
    qn_mark mark;        /* the top-level mapping */
    int has_version;
    long version;
    qn_mark version_mark;
    char *name, *title, *description, *author; /* NULL = absent */
    qn_mark name_mark, title_mark, description_mark, author_mark;
    int has_colours;
    long colours;
    qn_mark colours_mark;

    int has_board;
    qn_mark board_mark;
    int has_grid, has_hex, has_hexagon, has_graph;
    long w, h;                          /* grid or hex */
    long side;                          /* hexagon */
    long nnodes;                        /* graph */
    qn_mark shape_mark, w_mark, h_mark; /* the grid/hex/... value */
    int has_wrap;
    int wrap; /* enum qn_layout_wrap */
    qn_mark wrap_mark;
    qn_text_spec mask; /* '#' cell, '.' hole */

    int has_press;
    qn_mark press_mark;
    qn_stencil_spec stencil, corner, edge, interior;
    int self; /* -1 = not given, 0, 1 */
    qn_mark self_mark;
    int has_amount;
    long amount;
    qn_mark amount_mark;

    int has_effects;
    qn_mark effects_mark;
    qn_effect_spec *effects;
    size_t neffects;

    qn_text_spec goal;

    int has_grading;
    qn_mark grading_mark;
    qn_tier_spec *tiers;
    size_t ntiers;
} qn_rules_spec;

/* Zero a spec (self = -1); release frees everything it owns and re-inits. */
void qn_rules_spec_init(qn_rules_spec *spec);
void qn_rules_spec_release(qn_rules_spec *spec);

/*
 * Validate `spec` and compile it. On success *out is a new rule set (free
 * with qn_rules_free) and QN_OK is returned. On failure *out is NULL and
 * the code is QN_EINVAL (err->line/col at the offending value, err->source
 * = `source`, which may be NULL for ""). `spec` is only read.
 */
int qn_rules_build(qn_rules **out, const qn_rules_spec *spec,
                   const char *source, qn_err *err);

/* ---------------------------------------------------------------------
 * Loading rule files (rules_load.c; the YAML in rules_yaml.c and
 * rules_schema.c).
 *
 * Parse the YAML rule file at `path` ("-" reads standard input, reported
 * as "<stdin>") or the `len` bytes at `text` (named `source` in messages),
 * then build it. On success *out is the caller's (qn_rules_free). On
 * failure *out is NULL, nothing is left allocated, and err holds exactly
 * one diagnostic with source, 1-based line and col:
 *   QN_ENOTFOUND the file cannot be opened: missing, unreadable, or a
 *                directory (qn_file_open_read; line 0)
 *   QN_EIO       another open failure, or a failed read (line 0)
 *   QN_ESYNTAX   malformed YAML, a YAML feature quench refuses (anchors,
 *                aliases, tags, several documents, duplicate keys), bytes
 *                that are not UTF-8 text, or a limit above (QN_RULES_MAX_*)
 *   QN_EINVAL    well-formed YAML that breaks the schema or the semantics
 */
int qn_rules_load_file(qn_rules **out, const char *path, qn_err *err);
int qn_rules_load_buf(qn_rules **out, const char *text, size_t len,
                      const char *source, qn_err *err);

/* Fill `spec` (initialised by the caller) from YAML; same codes as above.
 * On failure the spec may be partly filled: release it. */
int qn_rules_parse_yaml(qn_rules_spec *spec, const char *text, size_t len,
                        qn_err *err);

/* Read the rule file at `path` ("-": stdin) into `spec` (initialised by
 * the caller) without building it, so a caller can build it at several
 * board sizes and colour counts (rules table). Codes as
 * qn_rules_load_file; errors carry the source name. Release the spec
 * either way. */
int qn_rules_read_spec(qn_rules_spec *spec, const char *path, qn_err *err);

/* Free a rule set; NULL is a no-op. */
void qn_rules_free(qn_rules *r);

/* ---------------------------------------------------------------------
 * Accessors. Pointers are borrowed from `r` and live as long as it does.
 */
const char *qn_rules_name(const qn_rules *r);
/* The YAML text r was loaded from (NUL-terminated, its length in *len_out
 * when len_out is not NULL), as read: a rule read from standard input can
 * be stored without reading it again. NULL (length 0) for a rule built
 * from a spec (qn_rules_build). */
const char *qn_rules_text(const qn_rules *r, size_t *len_out);
const char *qn_rules_title(const qn_rules *r);       /* "" when absent */
const char *qn_rules_description(const qn_rules *r); /* "" when absent */
const char *qn_rules_author(const qn_rules *r);      /* "" when absent */
/* Active cells (holes excluded), numbered row-major: 1..QN_RULES_MAX_CELLS */
int qn_rules_ncells(const qn_rules *r);
unsigned qn_rules_colours(const qn_rules *r); /* k, 2..255 */
/* n * n entries, row-major: A[i * n + j] = what pressing j adds to i. */
const uint8_t *qn_rules_matrix(const qn_rules *r);
const uint8_t *qn_rules_goal(const qn_rules *r); /* n values < k */
const qn_layout *qn_rules_layout(const qn_rules *r);
/* 1 when A equals its transpose (pressing j affects i as i affects j). */
int qn_rules_is_symmetric(const qn_rules *r);

/*
 * 1 when r's board generates its press matrix: some 'press' section on
 * that board (kind, size, mask, wrap) alone gives exactly A: one stencil
 * (an offset list with amounts, or rowcol) or, on a grid without wrap,
 * one per cell class (corner, edge, interior). A graph has no geometry:
 * any effects are its own. A rule whose 'effects' override a few cells of
 * a stencil usually is not generated; nor is one that calls a plain
 * board a torus. Costs a compile of A per try (at most three). 1 or 0;
 * QN_ENOMEM when out of memory.
 */
int qn_rules_board_generates(const qn_rules *r);

/*
 * The canonical content hash, 64 lowercase hex digits: BLAKE2b-256 of
 * "quench-rules-1\0", ncells and k (4-byte little-endian each), the matrix
 * (n * n bytes, row-major) and the goal (n bytes). Names, comments, board
 * shape and YAML spelling do not enter it.
 */
void qn_rules_hash(const qn_rules *r, char hex_out[65]);

/* Grading tiers in file order (may be 0); inclusive press-count ranges. */
size_t qn_rules_ntiers(const qn_rules *r);
const char *qn_rules_tier_name(const qn_rules *r, size_t i);
int qn_rules_tier_lo(const qn_rules *r, size_t i);
int qn_rules_tier_hi(const qn_rules *r, size_t i);

/*
 * Automorphisms: cell permutations p (p[i] = image of cell i, n entries)
 * that map the board onto itself and keep the matrix and the goal:
 * A[p(i)][p(j)] == A[i][j] and goal[p(i)] == goal[i]. Identity first.
 * Candidates are the shape's symmetries (qn_layout_symmetries): the square
 * or hexagonal point group, plus translations on wrapped grids when
 * 8 * translations * ncells <= 2^22 (else translations are skipped and the
 * name says so). Graph boards of up to 64 cells get a bounded backtracking
 * search over all cell permutations (at most 1024 automorphisms and 2e6
 * steps); bigger graphs, or a search past its bounds, report only the
 * identity and a name that says so.
 */
size_t qn_rules_nsyms(const qn_rules *r);
const int *qn_rules_sym(const qn_rules *r, size_t i);
/* The inverse of symmetry i: q[p[i]] = i (borrowed, ncells ints). */
const int *qn_rules_sym_inverse(const qn_rules *r, size_t i);
/* e.g. "D4 (order 8)", "C2 x C2 (order 4)", "trivial". Borrowed. */
const char *qn_rules_symmetry_name(const qn_rules *r);

/* ---------------------------------------------------------------------
 * Big grid rules (rules_grid.c). A rule file whose board is a plain grid
 * (no wrap, no mask) pressed by one stencil (not rowcol; no per-class
 * stencils, effects or goal) is a stencil on a w x h grid, and the chase
 * solvers (grid.h) handle it far beyond QN_RULES_MAX_CELLS: such a rule
 * is read as a qn_grid_rule, with no dense matrix at all.
 */
#define QN_GRID_MAX_SIDE 65536
#define QN_GRID_MAX_CELLS (1LL << 30)

typedef struct qn_grid_rule {
    char *name;        /* owned */
    int w, h;          /* 1..QN_GRID_MAX_SIDE, w * h <= QN_GRID_MAX_CELLS */
    unsigned k;        /* 2..255 */
    int (*offsets)[3]; /* {dx, dy, amount 1..k-1}, owned */
    size_t noffsets;
} qn_grid_rule;

/*
 * Read `spec` as a grid rule; w, h > 0 replace the file's board size
 * (--size). Returns QN_OK (*out filled; release with
 * qn_grid_rule_release), or QN_EINVAL at the offending value (a board
 * other than a grid, wrap, mask, goal, effects, per-class or rowcol
 * stencils: each named) or QN_ELIMIT (a side or the cell count over the
 * limits above); *out is then zeroed.
 */
int qn_rules_grid(qn_grid_rule *out, const qn_rules_spec *spec, int w, int h,
                  const char *source, qn_err *err);
void qn_grid_rule_release(qn_grid_rule *g); /* zeroes; safe when zeroed */

/* 1 when spec's board, resized to w x h if w, h > 0, is a grid too big
 * for the dense model (a side over QN_LAYOUT_MAX_SIDE or more than
 * QN_RULES_MAX_CELLS cells): the caller reads it with qn_rules_grid. */
int qn_rules_spec_is_big(const qn_rules_spec *spec, int w, int h);

/*
 * Load the rule file at `path` ("-": stdin) for a board of w x h (0, 0:
 * the file's size): a dense *dense_out (as qn_rules_load_file) when the
 * board fits the dense model, else *grid_out (as qn_rules_grid) with
 * *dense_out NULL. Codes as qn_rules_load_file, plus QN_ELIMIT.
 */
int qn_rules_load_sized(qn_rules **dense_out, qn_grid_rule *grid_out,
                        const char *path, int w, int h, qn_err *err);

/*
 * The same, and every error it can tell apart into errs (empty on
 * success), in file order, the first of them also in err; for `rules
 * check`. Reading goes on past an error where the rest still means
 * something: each top-level key, board and press key, effects entry and
 * tier is read; then the header, the board, the press matrix, the goal
 * and the tiers are each checked (the matrix and the goal only on a
 * board that built, with valid colours). What stops it: a file that
 * cannot be read, malformed YAML, an unknown or repeated top-level key
 * (what follows may not be a rule file), an unsupported schema version.
 */
int qn_rules_load_sized_all(qn_rules **dense_out, qn_grid_rule *grid_out,
                            const char *path, int w, int h, qn_rules_errs *errs,
                            qn_err *err);

#endif
